/*
 * searcher.c — the memory a player keeps between moves (search.h).
 *
 * A searcher owns one block per slot: the node arrays of up to eight tree
 * threads and the alpha-beta table.  A block is allocated at the first
 * search that needs it and handed back, contents and all, to the next one
 * that asks for the same size; a different size (another memory budget)
 * replaces it.  Without a searcher every search allocates and frees its own.
 */
#include <stdlib.h>
#include <string.h>

#include "search/search.h"
#include "search/search_internal.h"

tavi_searcher *tavi_searcher_new(void) { return calloc(1, sizeof(tavi_searcher)); }

void tavi_searcher_free(tavi_searcher *s)
{
    if (!s)
        return;
    for (int i = 0; i < TAVI_SEARCHER_SLOTS; i++)
        free(s->block[i]);
    free(s);
}

void tavi_searcher_clear(tavi_searcher *s)
{
    if (s)
        s->tt_game = NULL;
}

size_t tavi_searcher_bytes(const tavi_searcher *s)
{
    size_t n = 0;
    for (int i = 0; s && i < TAVI_SEARCHER_SLOTS; i++)
        n += s->size[i];
    return n;
}

void *tavi_searcher_take(tavi_searcher *s, int slot, size_t bytes, int *reused)
{
    if (reused)
        *reused = 0;
    if (bytes == 0)
        bytes = 1;
    if (!s)
        return calloc(1, bytes);
    if (slot < 0 || slot >= TAVI_SEARCHER_SLOTS)
        return NULL;
    if (s->block[slot] && s->size[slot] == bytes) {
        if (reused)
            *reused = 1;
        return s->block[slot];
    }
    free(s->block[slot]);
    s->block[slot] = calloc(1, bytes);
    s->size[slot] = s->block[slot] ? bytes : 0;
    if (slot == TAVI_SEARCHER_TT)
        s->tt_game = NULL;
    return s->block[slot];
}

void tavi_searcher_release(tavi_searcher *s, void *block)
{
    if (!s)
        free(block);
}
