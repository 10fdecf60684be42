/*
 * search_internal.h — shared between the searchers of src/search.
 */
#ifndef TAV_SEARCH_INTERNAL_H
#define TAV_SEARCH_INTERNAL_H

#include "search/search.h"

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

#endif
