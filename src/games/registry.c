/*
 * registry.c — the only place that knows every game.
 */
#include <string.h>

#include "games.h"

static const tav_game *const registry[] = {
    &urbino_game,
    &epaminondas_game,
    &cathedral_game,
    &toscana_game,
};

_Static_assert(sizeof registry / sizeof registry[0] == TAV_GAME_COUNT,
               "registry and games.h disagree");

int tav_game_count(void) { return TAV_GAME_COUNT; }

const tav_game *tav_game_at(int i)
{
    return (i >= 0 && i < TAV_GAME_COUNT) ? registry[i] : NULL;
}

const tav_game *tav_game_find(const char *name)
{
    for (int i = 0; i < TAV_GAME_COUNT; i++)
        if (strcmp(registry[i]->name, name) == 0)
            return registry[i];
    return NULL;
}
