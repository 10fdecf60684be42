/*
 * games.h — the operations tables of the concrete games (internal).
 */
#ifndef TAV_GAMES_H
#define TAV_GAMES_H

#include "tavoliere.h"

#define TAV_GAME_COUNT 4

extern const tav_game urbino_game;
extern const tav_game epaminondas_game;
extern const tav_game cathedral_game;
extern const tav_game toscana_game;

#endif
