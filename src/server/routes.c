/*
 * routes.c — each request of the API to the file that answers it, tried in
 * turn (the order matters where two files' paths share a beginning): the
 * bots (bots_api.c), chat (chat_api.c), closing an account, one's data and
 * reports (moderation_api.c), accounts (api.c), e-mail
 * (mail_api.c), seeks (api.c), tournaments (tournaments_api.c), quick
 * pairing (pool_api.c), then api.c's games, players, pages and meta, which
 * answers 404 for what nobody answers.
 *
 * This is the top of the route files: http.c calls it, and it calls them;
 * none of them calls it or each other through it.
 */
#include <string.h>

#include "server/srv.h"

void routes_answer(srv *S, conn *c, const asker *who, const char *path, int method,
                   const char *body, size_t blen, const char *query_seat, const char *query_ply,
                   reply *r)
{
    memset(r, 0, sizeof *r);
    if (bots_routes(S, who, path, method, body, blen, r) ||
        chat_routes(S, who, path, method, body, blen, r) ||
        moderation_routes(S, c, who, path, method, body, blen, r) ||
        api_account_routes(S, c, who, path, method, body, blen, r) ||
        mail_routes(S, who, path, method, body, blen, r) ||
        api_seek_routes(S, who, path, method, body, blen, r) ||
        tours_route(S, who, path, method, body, blen, r) ||
        pool_routes(S, who, path, method, body, blen, r))
        return;
    api_handle(S, c, who, path, method, body, blen, query_seat, query_ply, r);
}
