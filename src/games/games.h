/*
 * games.h — the operations tables of the concrete games (internal).
 */
#ifndef TAV_GAMES_H
#define TAV_GAMES_H

#include "tavoliere.h"

#define TAVI_GAME_COUNT 4

extern const tav_game tavi_urbino_game;
extern const tav_game tavi_epaminondas_game;
extern const tav_game tavi_cathedral_game;
extern const tav_game tavi_toscana_game;

#endif
