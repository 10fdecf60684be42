/*
 * offers.c — offers between two people (draw, take-back) and undo.  How
 * offers are kept in the store is the table's (games.c).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <strings.h>
#include <time.h>

#include <sodium.h>

#include "server/core/core.h"
#include "server/core/internal.h"
#include "server/core/writer.h"

/* ---- offers between two people ---- */

/* Take back `side`'s last move and everything after it: 0, or -1 with err. */
static int take_back(core *C, game *g, int side, char *err, size_t errlen);

core_status core_offer(core *C, game *g, const core_cred *who, const char *kind, const char *act,
                       char *err, size_t errlen)
{
    int side = core_side_of(g, who);
    if (side < 0) {
        snprintf(err, errlen, "not a seat of this game");
        return CORE_FORBIDDEN;
    }
    int draw = strcmp(kind, "draw") == 0, tb = strcmp(kind, "takeback") == 0,
        rm = strcmp(kind, "rematch") == 0;
    int offer = strcmp(act, "offer") == 0, accept = strcmp(act, "accept") == 0,
        decline = strcmp(act, "decline") == 0;
    if ((!draw && !tb && !rm) || (!offer && !accept && !decline)) {
        snprintf(err, errlen, "kind is \"draw\", \"takeback\" or \"rematch\"; act \"offer\", "
                              "\"accept\" or \"decline\"");
        return CORE_BAD;
    }
    if (rm) {
        /* A rematch is offered and accepted with POST .../rematch; here it
         * is declined, or withdrawn by its maker, who may not offer it again
         * in this game. */
        if (!decline) {
            snprintf(err, errlen, "a rematch is offered and accepted with POST "
                                  "/api/games/ID/rematch");
            return CORE_BAD;
        }
        if (g->rematch_offer < 0 || g->rematch[0]) {
            snprintf(err, errlen, "no rematch is offered");
            return CORE_CONFLICT;
        }
        offer_keep k = offers_keep(g);
        g->spent[2] |= 1 << g->rematch_offer;
        g->rematch_offer = -1;
        if (offers_store(C, g, &k) != 0) {
            snprintf(err, errlen, "the offer could not be stored");
            return CORE_UNAVAILABLE;
        }
        game_changed(g);
        game_tell(C, g);
        return CORE_OK;
    }
    if (!g->human[0] || !g->human[1]) {
        snprintf(err, errlen, "offers are between two people (against the computer: undo)");
        return CORE_CONFLICT;
    }
    if (core_over(g)) {
        snprintf(err, errlen, "the game is over");
        return CORE_CONFLICT;
    }
    if (tb && tav_session_game(g->s)->mask) {
        snprintf(err, errlen, "moves are not taken back in %s: a move reveals a hidden tile",
                 tav_session_game(g->s)->name);
        return CORE_CONFLICT;
    }
    int cur = draw ? g->draw_offer : g->takeback_offer;
    int nd = g->draw_offer, nt = g->takeback_offer;
    if (offer) {
        if (cur == 1 - side) {
            snprintf(err, errlen, "the other side has offered it: accept it instead");
            return CORE_CONFLICT;
        }
        if (tb) {
            int k = tav_session_ply(g->s) - 1;
            while (k >= 0 && core_mover_at(g, k) != side)
                k--;
            if (k < 0) {
                snprintf(err, errlen, "nothing to take back");
                return CORE_CONFLICT;
            }
        }
        if (cur == side)
            return CORE_OK;   /* offered already */
        if (g->spent[draw ? 0 : 1] & (1 << side)) {
            snprintf(err, errlen, "you have offered this once since the last move: offer it "
                                  "again after a move");
            return CORE_CONFLICT;
        }
        if (offers_counted(C, g->account[side]) != 0) {
            snprintf(err, errlen, "too many offers: at most %d a minute",
                     CORE_OFFERS_PER_WINDOW);
            return CORE_LIMIT;
        }
        if (draw)
            nd = side;
        else
            nt = side;
    } else if (decline) {
        if (cur < 0) {
            snprintf(err, errlen, "nothing is offered");
            return CORE_CONFLICT;
        }
        /* Withdrawn or declined: its maker offers it again after a move. */
        g->spent[draw ? 0 : 1] |= 1 << cur;
        if (draw)
            nd = -1;
        else
            nt = -1;
    } else {
        if (cur != 1 - side) {
            snprintf(err, errlen, "the other side has offered nothing of the kind");
            return CORE_CONFLICT;
        }
        if (draw) {
            if (flags_end(C, g, "agreement", TAV_DRAW) != 0) {
                snprintf(err, errlen, "the draw could not be stored");
                return CORE_UNAVAILABLE;
            }
            offers_write(C, g, -1, -1);   /* nothing stays offered in a finished game */
            game_after_change(C, g);
            return CORE_OK;
        }
        if (take_back(C, g, 1 - side, err, errlen) != 0)
            return CORE_UNAVAILABLE;
        nd = nt = -1;
    }
    if (offers_write(C, g, nd, nt) != 0) {
        snprintf(err, errlen, "the offer could not be stored");
        return CORE_UNAVAILABLE;
    }
    game_changed(g);
    game_after_change(C, g);
    return CORE_OK;
}

/* Take back the seat's last move and everything after it.  Never in a
 * finished game (it never reopens: its record shows everything, Toscana's
 * stacks included), and never in a game with hidden information: the tile
 * a Toscana move reveals cannot be hidden again, so taking the move back
 * would hand out the next tile of the stack for free. */
core_status core_undo(core *C, game *g, const core_cred *who, int ply, char *err, size_t errlen)
{
    int side = core_side_of(g, who);
    if (side < 0) {
        snprintf(err, errlen, "not a seat of this game");
        return CORE_FORBIDDEN;
    }
    if (g->human[1 - side]) {
        snprintf(err, errlen, "moves are taken back only against a computer seat");
        return CORE_CONFLICT;
    }
    if (g->rated) {
        snprintf(err, errlen, "no undo in a rated game");
        return CORE_CONFLICT;
    }
    if (ply != tav_session_ply(g->s)) {
        snprintf(err, errlen, "stale ply %d: %d moves were played", ply, tav_session_ply(g->s));
        return CORE_CONFLICT;
    }
    if (core_over(g)) {
        snprintf(err, errlen, "the game is over: a finished game is never reopened");
        return CORE_CONFLICT;
    }
    if (tav_session_game(g->s)->mask) {
        snprintf(err, errlen, "moves are not taken back in %s: a move reveals a hidden tile",
                 tav_session_game(g->s)->name);
        return CORE_CONFLICT;
    }
    int k = tav_session_ply(g->s) - 1;
    while (k >= 0 && core_mover_at(g, k) != side)
        k--;
    if (k < 0) {
        snprintf(err, errlen, "nothing to take back");
        return CORE_CONFLICT;
    }
    if (take_back(C, g, side, err, errlen) != 0)
        return CORE_UNAVAILABLE;
    game_changed(g);
    game_after_change(C, g);
    return CORE_OK;
}

static int take_back(core *C, game *g, int side, char *err, size_t errlen)
{
    int k = tav_session_ply(g->s) - 1;
    while (k >= 0 && core_mover_at(g, k) != side)
        k--;
    if (k < 0) {
        snprintf(err, errlen, "nothing to take back");
        return -1;
    }
    tav_session *copy = tav_session_clone(g->s);
    if (!copy) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    while (tav_session_ply(copy) > k)
        if (tav_session_undo(copy) != TAV_OK)
            break;
    tav_session *old = g->s;
    g->s = copy;
    int status = game_store_status(g);
    g->s = old;
    if (wq_truncate(C, g, k, status) != 0) {
        tav_session_free(copy);
        snprintf(err, errlen, "the undo could not be stored");
        return -1;
    }
    if (g->job) {
        jobs_cancel(C, g->job);
        g->job = NULL;
    }
    tav_session_free(g->s);
    g->s = copy;
    g->last_ms = core_game_ms(C);
    if (clock_on(g))
        clock_rebuild(g);
    return 0;
}

/* The server keeps games short enough to replay at once: an option
 * maxplies=N above CORE_PLIES_MAX is refused.  0 or -1. */
