/*
 * profiles.c — search settings per (game, player).
 *
 * Search tuning lives here, not in the rules table: a game brings only its
 * knowledge (eval, playout_move, move_score; see tav_game), and this table
 * says how each player searches it.  `uct` is the same plain baseline for
 * every game (no row: every field zero, its settings live in mcts.c); the
 * `ai` player's settings are tuned per game (docs/ai/GAME.md tells how).
 *
 * Every setting is a macro that a tuning build may override, e.g.
 * `make BUILD=/tmp/x CC="cc -DCAT_AI_C=0.4"`.  Zero fields take the
 * defaults of mcts.c (UCB constant 0.5, widening 2.0 * visits^0.5).
 */
#include <string.h>

#include "search/search_internal.h"
#include "tavoliere_search.h"

/* ---- Urbino (docs/ai/urbino.md) ---- */
#ifndef URB_AI_C
#define URB_AI_C 0.25
#endif
#ifndef URB_AI_WK
#define URB_AI_WK 2.0
#endif
#ifndef URB_AI_WA
#define URB_AI_WA 0.5
#endif
#ifndef URB_AI_CUTOFF
#define URB_AI_CUTOFF 8
#endif
#ifndef URB_AI_ORDER
#define URB_AI_ORDER 0     /* widen the root best-first by move_score */
#endif

/* ---- Epaminondas (docs/ai/epaminondas.md): alpha-beta; EPA_TUNE=2 builds
 * the MCTS player it was measured against. ---- */
#ifndef EPA_TUNE
#define EPA_TUNE 0
#endif

/* ---- Cathedral (docs/ai/cathedral.md) ---- */
#ifndef CAT_AI_ALGO
#define CAT_AI_ALGO TAVI_AI_MCTS
#endif
#ifndef CAT_AI_C
#define CAT_AI_C 0.3
#endif
#ifndef CAT_AI_WK
#define CAT_AI_WK 2.0
#endif
#ifndef CAT_AI_WA
#define CAT_AI_WA 0.5
#endif
#ifndef CAT_AI_CUTOFF
#define CAT_AI_CUTOFF 8
#endif
#ifndef CAT_AI_ORDER
#define CAT_AI_ORDER 2     /* widen the root, and the replies of its children, best-first by move_score */
#endif

/* ---- Toscana (docs/ai/toscana.md) ---- */
#ifndef TOS_AI_C
#define TOS_AI_C 0.25
#endif
#ifndef TOS_AI_WK
#define TOS_AI_WK -1.0     /* no widening */
#endif
#ifndef TOS_AI_WA
#define TOS_AI_WA 0.5
#endif
#ifndef TOS_AI_CUTOFF
#define TOS_AI_CUTOFF 30
#endif
#ifndef TOS_AI_MARGIN
#define TOS_AI_MARGIN 0.5  /* weight of the tile margin in a finished playout's reward */
#endif
#ifndef TOS_AI_MARGIN_SCALE
#define TOS_AI_MARGIN_SCALE 3.0
#endif
#ifndef TOS_AI_CUTOFF_FULL
#define TOS_AI_CUTOFF_FULL 10  /* the full player's cutoff, on the fitted evaluation (eval_full) */
#endif
#ifndef TOS_AI_MAST
#define TOS_AI_MAST 0.5    /* move-average sampling in playouts: uniform-move probability (0: off) */
#endif

typedef struct profile_row {
    const char *game, *player;
    tavi_profile p;
} profile_row;

/* Fields: algorithm, ucb_c, widen_k, widen_alpha, cutoff, mast, margin,
 * margin_scale, order_root, cutoff_full. */
static const profile_row rows[] = {
    {"urbino", "ai",
     {TAVI_AI_MCTS, URB_AI_C, URB_AI_WK, URB_AI_WA, URB_AI_CUTOFF, 0, 0, 0, URB_AI_ORDER, 0}},
    {"epaminondas", "ai",
     {EPA_TUNE == 2 ? TAVI_AI_MCTS : TAVI_AI_ALPHABETA, 0.5, 2.0, 0.5, 12, 0, 0, 0, 0, 0}},
    {"cathedral", "ai",
     {CAT_AI_ALGO, CAT_AI_C, CAT_AI_WK, CAT_AI_WA, CAT_AI_CUTOFF, 0, 0, 0, CAT_AI_ORDER, 0}},
    {"toscana", "ai",
     {TAVI_AI_MCTS, TOS_AI_C, TOS_AI_WK, TOS_AI_WA, TOS_AI_CUTOFF, TOS_AI_MAST, TOS_AI_MARGIN,
      TOS_AI_MARGIN_SCALE, 0, TOS_AI_CUTOFF_FULL}},
};

tavi_profile tavi_profile_of(const tav_game *g, const char *player)
{
    tavi_profile p;
    memset(&p, 0, sizeof p);
    if (!g || !g->name || !player)
        return p;
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++)
        if (strcmp(rows[i].game, g->name) == 0 && strcmp(rows[i].player, player) == 0)
            return rows[i].p;
    return p;
}

/* Ratings of the levels per game (docs/levels.md, results/levels/): random
 * play = 0, each level rated by its games against the level below at both
 * levels' own budgets.  Written by `scripts/levels_table.mjs --c` from
 * results/levels/GAME.csv; -1 = not rated yet. */
static const struct {
    const char *game;
    int rating[11];
} ratings[] = {
    {"cathedral", {0, 464, 703, 840, 1217, 1273, 1328, 1382, 1412, 1464, 1640}},
    {"epaminondas", {0, 1041, 1240, 1464, 2120, 2246, 2380, 2515, 2695, 2802, 2913}},
    {"toscana", {0, 88, 427, 810, 1188, 1399, 1535, 1612, 1668, 1740, 1805}},
    {"urbino", {0, 495, 711, 857, 1061, 1277, 1455, 1574, 1739, 1873, 2000}},
};

int tav_level_rating(const tav_game *g, int level)
{
    if (!g || level < 1 || level > 10)
        return -1;
    for (size_t i = 0; i < sizeof ratings / sizeof ratings[0]; i++)
        if (strcmp(ratings[i].game, g->name) == 0)
            return ratings[i].rating[level];
    return -1;
}
