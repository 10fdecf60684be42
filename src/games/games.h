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

/* Toscana's evaluation inputs for `side` (toscana.c: what each one is), the
 * values a fitted evaluation weighs: returns TOSCANA_FEATURES, or -1 when
 * `max` is smaller or side is not a player. */
#define TOSCANA_FEATURES 16
int tavi_toscana_features(const void *st, int side, double *out, int max);
/* Tiles left in both of Toscana's stacks. */
int tavi_toscana_left(const void *st);

#endif
