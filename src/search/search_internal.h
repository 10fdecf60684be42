/*
 * search_internal.h — shared between the searchers of src/search.
 */
#ifndef TAV_SEARCH_INTERNAL_H
#define TAV_SEARCH_INTERNAL_H

#include "search/search.h"

/* Alpha-beta with iterative deepening (alphabeta.c).  deadline is a
 * monotonic time in seconds (0 = none), max_nodes a node budget (0 = none). */
int tav_alphabeta(const tav_game *g, const void *st, const tav_limits *lim, double deadline,
                  uint64_t max_nodes, tav_info_fn info, void *ctx, tav_report *out);

#endif
