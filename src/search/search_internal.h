/*
 * search_internal.h — shared between the searchers of src/search.
 */
#ifndef TAV_SEARCH_INTERNAL_H
#define TAV_SEARCH_INTERNAL_H

#include <stdatomic.h>

#include "tavoliere.h"

#define TAVI_MAX_JOBS 8   /* threads one search may use */

/* A search's budget as the searchers take it (the service fills it from
 * tav_budget; zero fields: no limit of this kind). */
typedef struct tavi_limits {
    long movetime_ms;   /* wall-clock budget; 0 = none */
    uint64_t nodes;     /* playout (or node) budget; 0 = none */
    int depth;          /* depth budget for alpha-beta players; 0 = none */
    int level;          /* 1 (weakest) .. 10 (strongest); 0 = unrestricted */
    int threads;        /* jobs */
    size_t memory;      /* bytes the tree or table may use; 0 = the worker's */
    uint64_t seed;      /* random seed */
} tavi_limits;

/* What a search found. */
typedef struct tavi_report {
    tav_move best;
    uint64_t playouts;  /* tree search: iterations run (alpha-beta: 0) */
    uint64_t nodes;     /* tree nodes created, or alpha-beta nodes searched */
    uint64_t reused;    /* tree search: playouts of the kept subtree it went on from */
    tav_move ponder;    /* tree search: the reply the tree expects (have_ponder) */
    int have_ponder;
    tav_move pv[TAV_PV_MAX];   /* tree search: the line it expects, best first */
    int pv_len;
    int depth;          /* alpha-beta: the last depth completed (tree search: 0) */
    double value;       /* expected score of the best move for the mover, 0..1 */
    double seconds;
} tavi_report;

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
enum { TAVI_AI_MCTS = 0, TAVI_AI_ALPHABETA = 1 };
typedef struct tavi_profile {
    int algorithm;       /* TAVI_AI_MCTS (default) or TAVI_AI_ALPHABETA */
    double ucb_c;        /* UCB exploration constant (0: 0.5) */
    double widen_k;      /* progressive widening: children <= 1 + k * visits^alpha */
    double widen_alpha;  /*   (k 0: 2.0; k < 0: no widening; alpha 0: 0.5) */
    int cutoff;          /* playout plies before eval() decides (0: play to the end) */
    double mast;         /* > 0: playouts pick the move with the best average reward so
                            far (move-average sampling), a uniform one with this
                            probability; 0: off */
    double margin;       /* > 0: a finished playout's reward mixes in the score margin,
                            (1 - margin) * win + margin * (1 + tanh((own - other) /
                            margin_scale)) / 2; 0: win/draw/loss */
    double margin_scale;
    int order_root;      /* 1: with widening, the root's children are created best-first
                            by move_score (ties in random order); 2: and the first 32
                            children of each root child too (the full player only:
                            levels 1-9 keep 1, the search they were rated with) */
    int cutoff_full;     /* the full player's cutoff when the game has eval_full (its
                            playouts end sooner, on a better evaluation); 0: cutoff */
} tavi_profile;
/* The settings of `player` ("uct", "ai") for game g: its row of the table,
 * or all zero (the defaults) when it has none. */
tavi_profile tavi_profile_of(const tav_game *g, const char *player);

/* Deadline of a movetime budget started at `start` (a little early, so the
 * answer fits); 0 when movetime_ms is 0. */
double tavi_deadline_after(double start, long movetime_ms);

/* ---- A tree search in jobs (mcts.c). ---- */
typedef struct tavi_mcts tavi_mcts;
tavi_mcts *tavi_mcts_new(const tav_game *g, const void *st, int ai, const tavi_limits *lim, int njobs,
                       double start, double deadline, tav_info_fn info, void *ctx);
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
int tavi_mcts_finish(tavi_mcts *m, tavi_report *out);   /* -2: no job had memory for a tree */
void tavi_mcts_free(tavi_mcts *m);

/* ---- An alpha-beta search in jobs (alphabeta.c). ---- */
typedef struct tavi_ab tavi_ab;
tavi_ab *tavi_ab_new(const tav_game *g, const void *st, const tavi_limits *lim, double start,
                   double deadline, uint64_t max_nodes, int njobs, tav_info_fn info, void *ctx,
                   const _Atomic int *cancel);
/* The table size for a memory budget. */
size_t tavi_ab_table_bytes(size_t memory);
/* The leader's table, of generation `gen`: the entries of other
 * generations never match (the generation's 64-bit mix is folded into
 * every key), so a table needs no clearing between searches; a line of
 * play that goes on with its table keeps its generation. */
void tavi_ab_set_table(tavi_ab *ab, void *table, size_t bytes, uint64_t gen);
void tavi_ab_job(tavi_ab *ab, int i);
void tavi_ab_stop(tavi_ab *ab);
int tavi_ab_finish(tavi_ab *ab, tavi_report *out);
void tavi_ab_free(tavi_ab *ab);

#endif
