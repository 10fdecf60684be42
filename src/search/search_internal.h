/*
 * search_internal.h — shared between the searchers of src/search.
 */
#ifndef TAV_SEARCH_INTERNAL_H
#define TAV_SEARCH_INTERNAL_H

#include <stdatomic.h>

#include "search/search.h"

#define TAVI_MAX_JOBS 8   /* threads one search may use */

#define TAVI_SEARCHER_SLOTS 9   /* 8 tree blocks (one per thread) + the table */
#define TAVI_SEARCHER_TT 8

struct tavi_searcher {
    void *block[TAVI_SEARCHER_SLOTS];
    size_t size[TAVI_SEARCHER_SLOTS];
    const tav_game *tt_game;   /* the game the table's contents belong to */
};

/* A zero-filled block of `bytes` for `slot`: the searcher's (kept; *reused
 * is 1 when it comes back with its previous contents) or, with s NULL, a
 * fresh one the caller frees with tavi_searcher_release.  NULL: no memory. */
void *tavi_searcher_take(tavi_searcher *s, int slot, size_t bytes, int *reused);
void tavi_searcher_release(tavi_searcher *s, void *block);

/* Alpha-beta with iterative deepening (alphabeta.c).  deadline is a
 * monotonic time in seconds (0 = none), max_nodes a node budget (0 = none). */
int tavi_alphabeta(tavi_searcher *sr, const tav_game *g, const void *st, const tavi_limits *lim,
                  double deadline, uint64_t max_nodes, tav_info_fn info, void *ctx, tavi_report *out);

/* ---- Levels (levels.c): the one table from levels to budgets. ---- */
typedef struct tavi_level_row {
    uint64_t playouts;   /* tree search: playout cap (0 = none) */
    int depth;           /* alpha-beta: depth cap (0 = none) */
    int noise;           /* alpha-beta: random root bonus below this (0 = none) */
    long movetime_ms;    /* the time a level plays with when no other limit is given */
} tavi_level_row;
/* The row of a level 1..10; NULL for any other value (no level). */
const tavi_level_row *tavi_level_of(int level);

/* ---- Search profiles (profiles.c): per-(game, player) settings. ---- */
typedef struct tavi_profile {
    int algorithm;       /* TAV_AI_MCTS or TAV_AI_ALPHABETA */
    double ucb_c;        /* zero fields take the defaults (see mcts.c) */
    double widen_k, widen_alpha;
    int cutoff;
    double mast;
    double margin, margin_scale;
    int order_root;
} tavi_profile;
tavi_profile tavi_profile_of(const tav_game *g, const char *player);

/* Deadline of a movetime budget started at `start` (a little early, so the
 * answer fits); 0 when movetime_ms is 0. */
double tavi_deadline_after(double start, long movetime_ms);

/* ---- A tree search in jobs (mcts.c). ---- */
typedef struct tavi_mcts tavi_mcts;
tavi_mcts *tavi_mcts_new(const tav_game *g, const void *st, int ai, const tavi_limits *lim, int njobs,
                       double start, double deadline, tav_info_fn info, void *ctx);
/* Tree bytes of each job when `memory` is split among njobs. */
size_t tavi_mcts_job_bytes(size_t memory, int njobs);
/* The tree a worker's block holds between searches of one line of play
 * (budget.keep): its node count (0 = none) and the position it was searched
 * from (`size` bytes, malloc'd; the owner frees `root`). */
typedef struct tavi_tree_kept {
    int32_t count;
    unsigned char *root;
    size_t size;
} tavi_tree_kept;
/* Run job i with `bytes` of tree memory; returns when its budget is spent
 * or *cancel is set.  kept (NULL: start empty, keep nothing): the tree the
 * block holds; the job goes on from the node of its position when that
 * tree has it, and leaves its own tree there. */
void tavi_mcts_job(tavi_mcts *m, int i, void *mem, size_t bytes, const _Atomic int *cancel,
                  tavi_tree_kept *kept);
/* Sum the jobs' root statistics into out (best, value, playouts, nodes);
 * -1 when no job found a move. */
int tavi_mcts_finish(tavi_mcts *m, tavi_report *out);
void tavi_mcts_free(tavi_mcts *m);

/* ---- An alpha-beta search in jobs (alphabeta.c). ---- */
typedef struct tavi_ab tavi_ab;
tavi_ab *tavi_ab_new(const tav_game *g, const void *st, const tavi_limits *lim, double start,
                   double deadline, uint64_t max_nodes, int njobs, tav_info_fn info, void *ctx,
                   const _Atomic int *cancel);
/* The table size for a memory budget. */
size_t tavi_ab_table_bytes(size_t memory);
/* The leader's table.  gen 0: entries left by earlier searches with gen 0
 * are used (a searcher's table kept between moves); any other gen: the
 * entries of other generations never match (the generation's 64-bit mix
 * is folded into every key), so a table needs no clearing between searches. */
void tavi_ab_set_table(tavi_ab *ab, void *table, size_t bytes, uint64_t gen);
void tavi_ab_job(tavi_ab *ab, int i);
void tavi_ab_stop(tavi_ab *ab);
int tavi_ab_finish(tavi_ab *ab, tavi_report *out);
void tavi_ab_free(tavi_ab *ab);

#endif
