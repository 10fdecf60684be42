/*
 * registry.c — the only place that knows every game.
 */
#include <string.h>

#include "games.h"

static const tav_game *const registry[] = {
    &tavi_urbino_game,
    &tavi_epaminondas_game,
    &tavi_cathedral_game,
    &tavi_toscana_game,
};

_Static_assert(sizeof registry / sizeof registry[0] == TAVI_GAME_COUNT,
               "registry and games.h disagree");

int tav_game_count(void) { return TAVI_GAME_COUNT; }

const tav_game *tav_game_at(int i)
{
    return (i >= 0 && i < TAVI_GAME_COUNT) ? registry[i] : NULL;
}

const tav_game *tav_game_find(const char *name)
{
    for (int i = 0; i < TAVI_GAME_COUNT; i++)
        if (strcmp(registry[i]->name, name) == 0)
            return registry[i];
    return NULL;
}
