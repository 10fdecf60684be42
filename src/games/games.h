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

/* Building a move's parts (tav_move_parts): the action word, and squares
 * added to its squares or its marked squares (silently dropped past
 * TAV_PART_SQUARES, which no game reaches). */
static inline void tavi_parts_action(tav_move_parts *p, const char *action)
{
    size_t i = 0;
    for (; action[i] && i + 1 < sizeof p->action; i++)
        p->action[i] = action[i];
    p->action[i] = '\0';
}
static inline void tavi_parts_square(tav_move_parts *p, int file, int rank)
{
    if (p->nsquares < TAV_PART_SQUARES) {
        p->squares[p->nsquares][0] = (int8_t)file;
        p->squares[p->nsquares++][1] = (int8_t)rank;
    }
}
static inline void tavi_parts_mark(tav_move_parts *p, int file, int rank)
{
    if (p->nmarked < TAV_PART_SQUARES) {
        p->marked[p->nmarked][0] = (int8_t)file;
        p->marked[p->nmarked++][1] = (int8_t)rank;
    }
}

/* Toscana's evaluation inputs for `side` (toscana.c: what each one is), the
 * values a fitted evaluation weighs: returns TOSCANA_FEATURES, or -1 when
 * `max` is smaller or side is not a player. */
#define TOSCANA_FEATURES 16
int tavi_toscana_features(const void *st, int side, double *out, int max);
/* Tiles left in both of Toscana's stacks. */
int tavi_toscana_left(const void *st);

#endif
