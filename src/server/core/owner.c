/*
 * owner.c — many instances: a game's owner follows the players.
 *
 * One instance at a time holds a game's claim (games.c: it thinks for the
 * computer seat and judges the clock).  nginx sends all of a game's
 * requests and sockets to one instance (deploy/nginx.conf: a consistent
 * hash of the game's id), which may not be the one that made the game or
 * took it over.  So the owner moves to the instance the players ask:
 *
 *   - a request or socket for a game that needs an owner (a computer seat
 *     or a clock, not over) marks it asked here (core_game_asked); when
 *     another instance holds its claim, this one says "ID want" on tav_game
 *     (games.c game_claim, at most every 2 s);
 *   - the holder gives it up ("ID yield") once nobody asked it for
 *     OWNER_ASKED_MS (with requests spread over instances nobody gives way,
 *     and nothing changes hands back and forth) and once idle: no search
 *     running or waiting, no write of it uncommitted (a move not yet on
 *     disk is never thought for twice); it then leaves the claim alone for
 *     OWNER_YIELD_MS.  A want not repeated for OWNER_WANT_MS lapses;
 *   - the instance that wanted it claims it on hearing "yield" and thinks
 *     for its computer seat if that is to act.
 *
 * An instance that dies frees its claims at once; the others take its
 * games over (load.c core_take_over), the asked one first when it asks.
 */
#include <stdio.h>
#include <string.h>

#include "server/core/core.h"
#include "server/core/internal.h"
#include "server/core/writer.h"

#define OWNER_ASKED_MS 3000    /* players asked the holder this recently: it keeps the game */
#define OWNER_WANT_MS 30000    /* "yield" heard this long after "want" was said: claimed */

/* Whether g needs one instance to look after it. */
static int needs_owner(const game *g)
{
    if (g->dead || core_over(g))
        return 0;
    return g->clk_initial_ms > 0 || g->clk_days > 0 || !g->human[0] || !g->human[1];
}

void core_game_asked(core *C, game *g)
{
    if (!C->shared || g->dead)
        return;
    g->asked_ms = core_unix_ms();
    g->yielded_until = 0;   /* the players are here: it may own it again */
    if (!g->claimed && needs_owner(g) && game_claim(C, g) && game_computer_to_act(g))
        game_kick(C, g);
}

static void yield_now(core *C, game *g)
{
    g->yield_pending = 0;
    if (!g->claimed)
        return;
    game_release_claim(C, g);
    g->yielded_until = core_unix_ms() + OWNER_YIELD_MS;
    char told[STORE_ID_LEN + 8];
    snprintf(told, sizeof told, "%s yield", g->id);
    if (wq_notify(C, CORE_CH_GAME, told) == 0 && C->ev.dirty)
        C->ev.dirty(C->ev.ctx);
}

static int idle(const game *g)
{
    return !g->job && !g->cwaiting && !g->unsaved;
}

void owner_wanted(core *C, const char *id)
{
    game *g = games_find(C, id);
    if (!g || !g->claimed)
        return;
    g->wanted_at = core_unix_ms();
    if (g->wanted_at - g->asked_ms >= OWNER_ASKED_MS && idle(g)) {
        yield_now(C, g);
    } else if (!g->yield_pending) {
        g->yield_pending = 1;   /* once idle and not asked here (owner_tick) */
        C->yields_pending++;
    }
}

void owner_yielded(core *C, const char *id)
{
    game *g = games_find(C, id);
    if (!g || g->claimed || !g->want_sent || core_unix_ms() - g->want_sent > OWNER_WANT_MS)
        return;
    g->claim_tried = 0;
    if (needs_owner(g) && game_claim(C, g) && game_computer_to_act(g))
        game_kick(C, g);
}

void owner_tick(core *C)
{
    if (!C->yields_pending)
        return;
    long left = 0;
    int64_t now = core_unix_ms();
    for (int h = 0; h < CORE_HASH_SIZE; h++)
        for (game *g = C->games[h]; g; g = g->hnext) {
            if (!g->yield_pending)
                continue;
            if (!g->claimed || g->dead || now - g->wanted_at > OWNER_WANT_MS)
                g->yield_pending = 0;   /* nothing to give, or wanted no more */
            else if (now - g->asked_ms >= OWNER_ASKED_MS && idle(g))
                yield_now(C, g);
            else
                left++;
        }
    C->yields_pending = left;
}
