/*
 * search_internal.h — shared between the searchers of src/search.
 */
#ifndef TAV_SEARCH_INTERNAL_H
#define TAV_SEARCH_INTERNAL_H

#include <stdatomic.h>

#include "search/search.h"

#define TAV_MAX_JOBS 8   /* threads one search may use */

#define TAV_SEARCHER_SLOTS 9   /* 8 tree blocks (one per thread) + the table */
#define TAV_SEARCHER_TT 8

struct tav_searcher {
    void *block[TAV_SEARCHER_SLOTS];
    size_t size[TAV_SEARCHER_SLOTS];
    const tav_game *tt_game;   /* the game the table's contents belong to */
};

/* A zero-filled block of `bytes` for `slot`: the searcher's (kept; *reused
 * is 1 when it comes back with its previous contents) or, with s NULL, a
 * fresh one the caller frees with tav_searcher_release.  NULL: no memory. */
void *tav_searcher_take(tav_searcher *s, int slot, size_t bytes, int *reused);
void tav_searcher_release(tav_searcher *s, void *block);

/* Alpha-beta with iterative deepening (alphabeta.c).  deadline is a
 * monotonic time in seconds (0 = none), max_nodes a node budget (0 = none). */
int tav_alphabeta(tav_searcher *sr, const tav_game *g, const void *st, const tav_limits *lim,
                  double deadline, uint64_t max_nodes, tav_info_fn info, void *ctx, tav_report *out);

/* ---- Levels (levels.c): the one table from levels to budgets. ---- */
typedef struct tav_level_row {
    uint64_t playouts;   /* tree search: playout cap (0 = none) */
    int depth;           /* alpha-beta: depth cap (0 = none) */
    int noise;           /* alpha-beta: random root bonus below this (0 = none) */
    long movetime_ms;    /* the time a level plays with when no other limit is given */
} tav_level_row;
/* The row of a level 1..10; NULL for any other value (no level). */
const tav_level_row *tav_level_of(int level);

/* ---- Search profiles (profiles.c): per-(game, player) settings. ---- */
typedef struct tav_profile {
    int algorithm;       /* TAV_AI_MCTS or TAV_AI_ALPHABETA */
    double ucb_c;        /* zero fields take the defaults (see mcts.c) */
    double widen_k, widen_alpha;
    int cutoff;
    double mast;
    double margin, margin_scale;
    int order_root;
} tav_profile;
tav_profile tav_profile_of(const tav_game *g, const char *player);

/* Deadline of a movetime budget started at `start` (a little early, so the
 * answer fits); 0 when movetime_ms is 0. */
double tav_deadline_after(double start, long movetime_ms);

/* ---- A tree search in jobs (mcts.c). ---- */
typedef struct tav_mcts tav_mcts;
tav_mcts *tav_mcts_new(const tav_game *g, const void *st, int ai, const tav_limits *lim, int njobs,
                       double start, double deadline, tav_info_fn info, void *ctx);
/* Tree bytes of each job when `memory` is split among njobs. */
size_t tav_mcts_job_bytes(size_t memory, int njobs);
/* Run job i with `bytes` of tree memory; returns when its budget is spent
 * or *cancel is set. */
void tav_mcts_job(tav_mcts *m, int i, void *mem, size_t bytes, const _Atomic int *cancel);
/* Sum the jobs' root statistics into out (best, value, playouts, nodes);
 * -1 when no job found a move. */
int tav_mcts_finish(tav_mcts *m, tav_report *out);
void tav_mcts_free(tav_mcts *m);

/* ---- An alpha-beta search in jobs (alphabeta.c). ---- */
typedef struct tav_ab tav_ab;
tav_ab *tav_ab_new(const tav_game *g, const void *st, const tav_limits *lim, double start,
                   double deadline, uint64_t max_nodes, int njobs, tav_info_fn info, void *ctx,
                   const _Atomic int *cancel);
/* The table size for a memory budget. */
size_t tav_ab_table_bytes(size_t memory);
/* The leader's table.  gen 0: entries left by earlier searches with gen 0
 * are used (a searcher's table kept between moves); any other gen: the
 * entries of other generations never match (the generation's 64-bit mix
 * is folded into every key), so a table needs no clearing between searches. */
void tav_ab_set_table(tav_ab *ab, void *table, size_t bytes, uint64_t gen);
void tav_ab_job(tav_ab *ab, int i);
void tav_ab_stop(tav_ab *ab);
int tav_ab_finish(tav_ab *ab, tav_report *out);
void tav_ab_free(tav_ab *ab);

#endif
