/*
 * profiles.c — search settings per (game, player).
 *
 * `uct` is the same plain baseline for every game (its settings live in
 * mcts.c); the `ai` player's settings are tuned per game.
 */
#include <string.h>

#include "search/search_internal.h"

tavi_profile tavi_profile_of(const tav_game *g, const char *player)
{
    tavi_profile p;
    memset(&p, 0, sizeof p);
    if (!g || !player || strcmp(player, "ai") != 0)
        return p;
    p.algorithm = g->ai.algorithm;
    p.ucb_c = g->ai.ucb_c;
    p.widen_k = g->ai.widen_k;
    p.widen_alpha = g->ai.widen_alpha;
    p.cutoff = g->ai.cutoff;
    p.mast = g->ai.mast;
    p.margin = g->ai.margin;
    p.margin_scale = g->ai.margin_scale;
    p.order_root = g->ai.order_root;
    return p;
}
