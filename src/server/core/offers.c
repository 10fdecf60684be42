/*
 * offers.c — offers between two people (draw, take-back), kept packed in
 * the store, and undo.
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

/* The store keeps a game's offers in its two offer columns (no schema
 * change): each kind is a code of 4 bits, (side + 1) | spent << 2, where
 * spent has a bit per side whose offer of that kind was withdrawn or
 * declined.  draw_offer holds draw's code - 1; takeback_offer holds
 * takeback's code + 16 * rematch's code + 256 * (absent + 1) - 1.  With
 * nothing spent the columns hold what they always held: the side, or -1. */
static int offer_code(int side, int spent)
{
    return (side >= 0 && side <= 1 ? side + 1 : 0) | (spent & 3) << 2;
}

static void offer_decode(int code, int *side, int *spent)
{
    int k = code & 3;
    *side = k == 1 ? 0 : k == 2 ? 1 : -1;
    *spent = (code >> 2) & 3;
}

static void offers_pack(const game *g, int *draw_col, int *takeback_col)
{
    *draw_col = offer_code(g->draw_offer, g->spent[0]) - 1;
    int ab = g->absent == TAV_WHITE || g->absent == TAV_BLACK ? g->absent + 1 : 0;
    *takeback_col = offer_code(g->takeback_offer, g->spent[1]) +
                    16 * offer_code(g->rematch_offer, g->spent[2]) + 256 * ab - 1;
}

void offers_unpack(game *g, int draw_col, int takeback_col)
{
    unsigned d = draw_col < 0 ? 0u : (unsigned)draw_col + 1u;
    unsigned t = takeback_col < 0 ? 0u : (unsigned)takeback_col + 1u;
    offer_decode((int)(d & 15), &g->draw_offer, &g->spent[0]);
    offer_decode((int)(t & 15), &g->takeback_offer, &g->spent[1]);
    offer_decode((int)((t >> 4) & 15), &g->rematch_offer, &g->spent[2]);
    int ab = (int)((t >> 8) & 3);
    g->absent = ab == 1 ? TAV_WHITE : ab == 2 ? TAV_BLACK : -1;
}

typedef struct offers_w {
    char id[STORE_ID_LEN];
    int draw, takeback;
} offers_w;

static int offers_apply(store *st, void *data, char *err, size_t errlen)
{
    const offers_w *w = data;
    return st->ops->set_offers(st, w->id, w->draw, w->takeback, err, errlen);
}

offer_keep offers_keep(const game *g)
{
    offer_keep k = {g->draw_offer, g->takeback_offer, g->rematch_offer, g->absent,
                    {g->spent[0], g->spent[1], g->spent[2]}};
    return k;
}

static void offers_restore(game *g, const offer_keep *k)
{
    g->draw_offer = k->draw;
    g->takeback_offer = k->takeback;
    g->rematch_offer = k->rematch;
    g->absent = k->absent;
    memcpy(g->spent, k->spent, sizeof g->spent);
}

/* Store g's offers as they are in memory now (in the open batch): 0, or
 * -1 with them put back as `k` held them. */
int offers_store(core *C, game *g, const offer_keep *k)
{
    offers_w w;
    memset(&w, 0, sizeof w);
    snprintf(w.id, sizeof w.id, "%s", g->id);
    offers_pack(g, &w.draw, &w.takeback);
    if (wq_call(C, offers_apply, NULL, &w, sizeof w) != 0 ||
        wq_notify(C, CORE_CH_GAME, g->id) != 0) {
        offers_restore(g, k);
        return -1;
    }
    g->wbatch = core_batch(C);   /* shown once committed (core_unsettled) */
    return 0;
}

/* Set the draw and take-back offers (memory now, the store in the open
 * batch): 0, or -1 with nothing changed. */
int offers_write(core *C, game *g, int draw, int takeback)
{
    offer_keep k = offers_keep(g);
    g->draw_offer = draw;
    g->takeback_offer = takeback;
    return offers_store(C, g, &k);
}

/* The offer rate limit: one more offer by `account` (none for a guest's
 * seat: one offer per side per move bounds those).  0, or -1 past
 * CORE_OFFERS_PER_WINDOW in the window. */
int offers_counted(core *C, const char *account)
{
    if (!account || !account[0])
        return 0;
    char key[STORE_NAME_LEN];
    size_t i = 0;
    for (; account[i] && i + 1 < sizeof key; i++)
        key[i] = (char)(account[i] >= 'A' && account[i] <= 'Z' ? account[i] + 32 : account[i]);
    key[i] = 0;
    unsigned h = 2166136261u;
    for (const char *p = key; *p; p++)
        h = (h ^ (unsigned char)*p) * 16777619u;
    int64_t now = core_unix_ms();
    offer_count *slot = NULL, *oldest = NULL;
    for (int k = 0; k < 16; k++) {
        offer_count *c = &C->offers[(h + (unsigned)k) % CORE_OFFER_SLOTS];
        if (strcmp(c->key, key) == 0) {
            slot = c;
            break;
        }
        if (!oldest || !c->key[0] || (oldest->key[0] && c->since < oldest->since))
            oldest = c;
    }
    if (!slot) {
        slot = oldest;   /* a free slot, or the one whose window began longest ago */
        memcpy(slot->key, key, sizeof key);
        slot->since = now;
        slot->n = 0;
    }
    if (now - slot->since >= CORE_OFFER_WINDOW_MS) {
        slot->since = now;
        slot->n = 0;
    }
    if (slot->n >= CORE_OFFERS_PER_WINDOW)
        return -1;
    slot->n++;
    return 0;
}

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
            if (clock_end_by_server(C, g, "agreement", TAV_DRAW) != 0) {
                snprintf(err, errlen, "the draw could not be stored");
                return CORE_UNAVAILABLE;
            }
            offers_write(C, g, -1, -1);   /* nothing stays offered in a finished game */
            moves_after_change(C, g);
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
    moves_after_change(C, g);
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
    moves_after_change(C, g);
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
