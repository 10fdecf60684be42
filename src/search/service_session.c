/*
 * service_session.c — the service's doors for sessions: the position
 * searched is the session's current state, masked for the side to act when
 * the game hides information, so no player can read what that side may not
 * see.  (Kept apart from service.c so programs that search bare states do
 * not need the session layer.)
 */
#include <stdlib.h>
#include <string.h>

#include "tavoliere_search.h"

/* A copy of the session's current state as its side to act sees it. */
static void *masked_copy(const tav_session *s, const tav_game **g)
{
    *g = tav_session_game(s);
    const void *st = tav_session_state(s);
    if (!*g || !st)
        return NULL;
    void *copy = malloc((*g)->state_size);
    if (!copy)
        return NULL;
    memcpy(copy, st, (*g)->state_size);
    int side = (*g)->to_move(copy);
    if ((*g)->mask && (*g)->determinize && side != TAV_NONE)
        (*g)->mask(copy, side);
    return copy;
}

tav_status tav_service_run(tav_service *svc, const tav_session *s, const char *player,
                           const tav_budget *b, tav_info_fn info, void *ctx, tav_answer *out)
{
    if (!s) {
        if (out) {
            memset(out, 0, sizeof *out);
            out->status = TAV_E_INVALID;
        }
        return TAV_E_INVALID;
    }
    if (tav_session_to_move(s) == TAV_NONE) {
        if (out) {
            memset(out, 0, sizeof *out);
            out->status = TAV_E_OVER;
        }
        return TAV_E_OVER;
    }
    const tav_game *g;
    void *st = masked_copy(s, &g);
    if (!st) {
        if (out) {
            memset(out, 0, sizeof *out);
            out->status = TAV_E_NOMEM;
        }
        return TAV_E_NOMEM;
    }
    tav_status rc = tav_service_run_state(svc, g, st, player, b, info, ctx, out);
    free(st);
    return rc;
}

uint64_t tav_service_submit(tav_service *svc, const tav_session *s, const char *player,
                            const tav_budget *b, tav_done_fn done, void *ctx)
{
    if (!s || tav_session_to_move(s) == TAV_NONE)
        return 0;
    const tav_game *g;
    void *st = masked_copy(s, &g);
    if (!st)
        return 0;
    uint64_t h = tav_service_submit_state(svc, g, st, player, b, done, ctx);
    free(st);
    return h;
}
