/*
 * levels.c — the one table from levels 1..10 to budgets, for every game and
 * player.  Levels 1-9 cap the search (tree search: playouts; alpha-beta:
 * depth, with random root preferences that shrink as the level grows);
 * level 10 is the full player.  Alpha-beta's depths climb by a ply from
 * level 6 to 9 (3, 4, 5, 6), so that each of those steps is a ply stronger
 * (depth 5 at both 7 and 8 left 8 not shown stronger; depth 7 at level 9 would
 * mostly be ended by its time; measured: docs/levels.md,
 * results/levels/epaminondas_depths.md).  movetime_ms is the time a
 * level plays with when nothing else limits it (terminal play's 200 + 250 *
 * level).
 */
#include <string.h>

#include "search/search_internal.h"
#include "tavoliere_search.h"

static const tavi_level_row levels[11] = {
    {0, 0, 0, 0},
    {20, 1, 500, 450},
    {60, 1, 300, 700},
    {150, 1, 180, 950},
    {400, 3, 110, 1200},
    {1000, 3, 70, 1450},
    {2500, 3, 40, 1700},
    {6000, 4, 20, 1950},
    {15000, 5, 10, 2200},
    {40000, 6, 5, 2450},
    {0, 0, 0, 2700},
};

const tavi_level_row *tavi_level_of(int level)
{
    return level >= 1 && level <= 10 ? &levels[level] : NULL;
}

void tav_level_budget(const tav_game *g, int level, tav_budget *b)
{
    const tavi_level_row *lv = tavi_level_of(level);
    if (!b)
        return;
    b->level = lv ? level : 0;
    if (!lv)
        return;
    b->movetime_ms = lv->movetime_ms;
    if (g && tavi_profile_of(g, "ai").algorithm == TAVI_AI_ALPHABETA)
        b->depth = lv->depth;
    else
        b->nodes = lv->playouts;
}

