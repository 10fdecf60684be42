/*
 * search.h — computer players over the operations table.
 *
 * The search sees games only through tav_game: it never includes a concrete
 * game.  All its memory (the tree) belongs to the call; nothing is global,
 * so any number of searches may run at once on different threads.
 *
 * Players:
 *   "random"  a uniformly random legal move;
 *   "uct"     plain UCT: full expansion, UCB1, uniformly random playouts —
 *             the baseline every stronger player is measured against;
 *   "ai"      the strongest player for each game (see docs/ai/).
 *
 * Hidden information: when the game has mask/determinize, the search first
 * masks the position for the player to act, then searches sampled
 * determinizations of that view and sums their root statistics, so it never
 * reads what the player may not see.
 */
#ifndef TAV_SEARCH_H
#define TAV_SEARCH_H

#include <stddef.h>
#include <stdint.h>

#include "tavoliere.h"

typedef struct tavi_limits {
    long movetime_ms;   /* wall-clock budget; 0 = none */
    uint64_t nodes;     /* playout (or node) budget; 0 = none */
    int depth;          /* depth budget for alpha-beta players; 0 = none */
    int level;          /* 1 (weakest) .. 10 (strongest); 0 = unrestricted */
    int threads;        /* 1 = deterministic single thread; 2 = both cores */
    size_t memory;      /* bytes the tree may use; 0 = default */
    uint64_t seed;      /* random seed */
} tavi_limits;

typedef struct tavi_report {
    tav_move best;
    uint64_t playouts;  /* tree search: iterations run (alpha-beta: 0) */
    uint64_t nodes;     /* tree nodes created, or alpha-beta nodes searched */
    uint64_t reused;    /* tree search: playouts of the kept subtree it went on from */
    tav_move ponder;    /* tree search: the reply the tree expects (have_ponder) */
    int have_ponder;
    int depth;          /* alpha-beta: the last depth completed (tree search: 0) */
    double value;       /* expected score of the best move for the mover, 0..1 */
    double seconds;
} tavi_report;

/* The memory a player keeps between moves: its trees' node arrays and the
 * alpha-beta transposition table, allocated at the first search and reused
 * by the next ones (the table keeps what it learnt, so the next move of the
 * same game starts from it).  One searcher serves one search at a time;
 * give each game (or each player of a match) its own. */
typedef struct tavi_searcher tavi_searcher;

tavi_searcher *tavi_searcher_new(void);
void tavi_searcher_free(tavi_searcher *s);
/* Forget what was learnt (a new game or position); the memory stays. */
void tavi_searcher_clear(tavi_searcher *s);
/* Bytes the searcher holds now. */
size_t tavi_searcher_bytes(const tavi_searcher *s);

/* Fill limits with defaults (2 s, 1 thread, 64 MiB, seed 1). */
void tavi_limits_default(tavi_limits *lim);

/* Choose a move for the player to act with the named player ("random",
 * "uct", "ai").  Returns 0, or -1 if the game is over or the player is
 * unknown.  `info` (may be NULL) receives "info ..." lines while thinking. */
int tavi_search(const tav_game *g, const void *st, const char *player, const tavi_limits *lim,
               tav_info_fn info, void *ctx, tavi_report *out);

/* The same with a searcher's memory (NULL: temporary memory, as tavi_search). */
int tavi_search_with(tavi_searcher *s, const tav_game *g, const void *st, const char *player,
                    const tavi_limits *lim, tav_info_fn info, void *ctx, tavi_report *out);

#endif
