/*
 * session_search.c — the search service's doors for sessions
 * (include/tavoliere_session.h): the position handed to the service is the
 * session's current state as its side to act knows it
 * (tav_session_search_state: Toscana's hidden stacks masked), so no player
 * can read what that side may not see.  The service itself takes a game
 * and a state and knows no session: the arrow runs from the session down
 * to the search, never back.
 */
#include <stdlib.h>
#include <string.h>

#include "tavoliere_search.h"
#include "tavoliere_session.h"

/* A heap copy of the session's current state as its side to act sees it:
 * TAV_OK, TAV_E_INVALID (no session), TAV_E_OVER or TAV_E_NOMEM. */
static tav_status search_copy(const tav_session *s, void **out)
{
    *out = NULL;
    if (!s)
        return TAV_E_INVALID;
    int side = tav_session_to_move(s);
    if (side == TAV_NONE)
        return TAV_E_OVER;
    void *copy = malloc(tav_session_game(s)->state_size);
    if (!copy)
        return TAV_E_NOMEM;
    tav_status st = tav_session_search_state(s, side, copy);
    if (st != TAV_OK) {
        free(copy);
        return st;
    }
    *out = copy;
    return TAV_OK;
}

tav_status tav_service_run(tav_service *svc, const tav_session *s, const char *player,
                           const tav_budget *b, tav_info_fn info, void *ctx, tav_answer *out)
{
    void *st;
    tav_status rc = search_copy(s, &st);
    if (rc != TAV_OK) {
        if (out) {
            memset(out, 0, sizeof *out);
            out->status = rc;
        }
        return rc;
    }
    rc = tav_service_run_state(svc, tav_session_game(s), st, player, b, info, ctx, out);
    free(st);
    return rc;
}

tav_status tav_service_submit(tav_service *svc, const tav_session *s, const char *player,
                              const tav_budget *b, tav_done_fn done, void *ctx,
                              uint64_t *handle)
{
    if (handle)
        *handle = 0;
    void *st;
    tav_status rc = search_copy(s, &st);
    if (rc != TAV_OK)
        return rc;
    rc = tav_service_submit_state(svc, tav_session_game(s), st, player, b, done, ctx, handle);
    free(st);
    return rc;
}
