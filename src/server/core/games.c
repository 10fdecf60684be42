/*
 * games.c — the table of games in memory, and what every room asks of a
 * game: its seats and sides, whether it is over, its status for the store,
 * the claim on it between instances, how its offers are kept in the store,
 * and the two ways a room says a game changed: its viewers are told
 * (game_tell) and a computer seat to act is asked to think (game_kick).
 * The core's rooms stand on it, one floor above another (ARCHITECTURE.md,
 * "The server core"): ids.c, jobs.c and the writer below it; then
 * clocks.c; results.c, mail.c, analysis.c (a game that ended); load.c (a
 * game read from the store); flags.c (the server ends a game); moves.c and
 * offers.c; computer.c (computer seats and hints); create.c; records.c;
 * the lobby, chat, bots, pool, moderation, accounts and tournaments; and
 * life.c, which starts, ticks and stops them all.
 *
 * A game is a tav_session plus its seats.  It is loaded from the store on
 * first use (load.c) by replaying its moves once, and leaves memory again
 * once nobody has used it for CORE_IDLE_SECS (games_sweep).  Every change
 * is written to the store before anyone is told about it: the edge commits
 * the batch, then sends.  Searches never run on the loop (jobs.c).
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

int core_side_of(const game *g, const core_cred *who)
{
    if (!who)
        return -1;
    if (who->token && who->token[0])
        return core_seat(g, who->token);
    if (who->account && who->account[0])
        for (int side = 0; side < 2; side++)
            if (g->account[side][0] && strcasecmp(g->account[side], who->account) == 0)
                return side;
    return -1;
}

int core_seat(const game *g, const char *token)
{
    if (!token || strlen(token) != CORE_TOKEN_LEN)
        return -1;
    unsigned char h[STORE_HASH_LEN];
    core_token_hash(token, h);
    int seat = -1;
    /* Compare with both seats, in constant time. */
    for (int side = 0; side < 2; side++)
        if (g->human[side] && sodium_memcmp(h, g->seat_hash[side], STORE_HASH_LEN) == 0)
            seat = side;
    return seat;
}

int core_mover_at(const game *g, int ply)
{
    const void *st = tav_session_state_at(g->s, ply);
    return st ? tav_session_game(g->s)->to_move(st) : TAV_NONE;
}

int core_get_failed(const core *C) { return C->get_failed; }

void core_figures(const core *C, core_ops_figures *f)
{
    memset(f, 0, sizeof *f);
    f->games = C->ngames;
    for (const job *j = C->running; j; j = j->wnext)
        f->searches++;
    f->commits = C->cstats;
    f->notes_seen = C->notes_seen;
    f->refreshed = C->refreshed;
    f->deltas = C->deltas;
    core_db_stats(C, &f->trips, &f->bytes_out, &f->bytes_in);
}

int core_db_reachable(core *C)
{
    if (C->st->ops->game_stamp) {
        int64_t stamp = 0;
        char err[256];
        return C->st->ops->game_stamp(C->st, "health-check", &stamp, err, sizeof err) >= 0;
    }
    return C->cstats.batches == 0 || C->cstats.last_ok;
}

void core_db_stats(const core *C, int64_t *trips, int64_t *out, int64_t *in)
{
    /* The loop's own connection, read here; the writer's as its thread
     * left them after its last batch (never read across threads). */
    *trips = C->wtrips;
    *out = C->wout;
    *in = C->win;
    if (C->st && C->st->ops->stats) {
        int64_t t = 0, o = 0, i = 0;
        C->st->ops->stats(C->st, &t, &o, &i);
        *trips += t;
        *out += o;
        *in += i;
    }
}

void core_pin(game *g) { g->pins++; }
void core_unpin(game *g) { g->pins--; }

/* ---- the table of games ---- */

static unsigned hash_id(const char *id)
{
    unsigned h = 2166136261u;
    for (; *id; id++)
        h = (h ^ (unsigned char)*id) * 16777619u;
    return h % CORE_HASH_SIZE;
}

game *games_find(core *C, const char *id)
{
    for (game *g = C->games[hash_id(id)]; g; g = g->hnext)
        if (strcmp(g->id, id) == 0 && !g->dead)
            return g;
    return NULL;
}

void games_insert(core *C, game *g)
{
    unsigned h = hash_id(g->id);
    g->hnext = C->games[h];
    C->games[h] = g;
    C->ngames++;
}


void game_free(core *C, game *g)
{
    game_release_claim(C, g);
    if (g->edge && C->ev.freeing)
        C->ev.freeing(C->ev.ctx, g);
    if (g->an) {
        free(g->an->white);
        free(g->an->best);
        if (g->an->work)
            tav_session_free(g->an->work);
        free(g->an);
    }
    tav_session_free(g->s);
    free(g);
}


/* Whether the side to act is a computer seat. */
int game_computer_to_act(const game *g)
{
    int side = tav_session_to_move(g->s);
    return (side == TAV_WHITE || side == TAV_BLACK) && !g->human[side];
}

int64_t core_game_ms(const core *C)
{
    return core_unix_ms() + C->time_offset_ms;
}

int core_over(const game *g)
{
    if (g->end[0])
        return 1;
    tav_result r;
    tav_session_result(g->s, &r);
    return r.over;
}

/* A computer-only game no longer counts against the address that made it
 * (it ended, or never was). */
void game_drop_owner(game *g)
{
    if (g->owner) {
        g->owner->cpu_games--;
        g->owner = NULL;
    }
}

/* The status the store keeps for g now. */
int game_store_status(const game *g)
{
    return core_over(g) ? STORE_OVER : game_computer_to_act(g) ? STORE_COMPUTER : STORE_PLAYING;
}

/* The session changed: what viewers see is out of date. */
void game_changed(game *g)
{
    g->version++;
    g->touched = core_unix_ms() / 1000;
}

unsigned long core_stamp(const game *g)
{
    return g->version * 2 + (g->job != NULL);
}

int core_undo_offered(const game *g)
{
    return g->human[0] != g->human[1] && !tav_session_game(g->s)->mask && !g->rated;
}

/* Tell the edge: its viewers see g anew (after the batch's commit). */
void game_tell(core *C, game *g)
{
    if (C->ev.changed)
        C->ev.changed(C->ev.ctx, g);
}



/* ---- many instances (shared.c) ---- */

/* The claim on g: with many instances, only its holder thinks for g's
 * computer seat and judges its clock.  A lone instance holds every claim;
 * a claim refused is asked again at most once a second. */
int game_claim(core *C, game *g)
{
    if (!C->shared || g->claimed)
        return 1;
    int64_t now = core_unix_ms();
    if (now < g->yielded_until)
        return 0;   /* given to the instance the players ask (owner.c) */
    if (g->claim_tried && now - g->claim_tried < 1000)
        return 0;
    g->claim_tried = now;
    char key[32], err[256];
    snprintf(key, sizeof key, "%s%s", CORE_CLAIM_PREFIX, g->id);
    int rc = store_try_claim(C->st, key, err, sizeof err);
    if (rc < 0)
        core_log(C, "error: game %s: claim: %s", g->id, err);
    g->claimed = rc == 1;
    if (rc == 0 && g->asked_ms && now - g->asked_ms < 2000 && now - g->want_sent >= 2000) {
        /* Another holds it while the players ask here: it is asked to give
         * it up (owner.c). */
        char told[STORE_ID_LEN + 8];
        snprintf(told, sizeof told, "%s want", g->id);
        if (wq_notify(C, CORE_CH_GAME, told) == 0) {
            g->want_sent = now;
            if (C->ev.dirty)
                C->ev.dirty(C->ev.ctx);
        }
    }
    return g->claimed;
}

void game_release_claim(core *C, game *g)
{
    if (!g->claimed)
        return;
    char key[32];
    snprintf(key, sizeof key, "%s%s", CORE_CLAIM_PREFIX, g->id);
    store_release_claim(C->st, key);
    g->claimed = 0;
}

void game_tell_bots(core *C, game *g, int finished)
{
    for (int side = 0; side < 2; side++) {
        if (!g->account[side][0] || !g->bot[side])
            continue;
        char told[80];
        snprintf(told, sizeof told, "bot %s %s %s", finished ? "finish" : "start",
                 g->account[side], g->id);
        wq_notify(C, CORE_CH_LOBBY, told);
        if (C->ev.bot_game)
            C->ev.bot_game(C->ev.ctx, g->account[side], g->id, finished);
    }
}

/* Games nobody uses leave memory; the store keeps them. */
void games_sweep(core *C)
{
    int64_t now = core_unix_ms() / 1000;
    for (int h = 0; h < CORE_HASH_SIZE; h++) {
        game **pp = &C->games[h];
        while (*pp) {
            game *g = *pp;
            int busy = g->pins || g->job || g->jobs_out || g->cwaiting || g->unsaved ||
                       (g->an && g->an->queued) || g->owner || g->klisted;
            if (!busy && (g->dead || now - g->touched >= C->cf.idle_secs)) {
                *pp = g->hnext;
                C->ngames--;
                game_free(C, g);
            } else {
                pp = &g->hnext;
            }
        }
    }
}

/* ---- a game's offers, as the store keeps them ---- */

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

int core_help_allowed(const game *g)
{
    if (g->rated)
        return core_over(g);   /* no engine help in a rated game, against anyone */
    if (!g->human[0] || !g->human[1] || g->local)
        return 1;
    return core_over(g);
}

/* A computer seat of g may have to act: the room that thinks for computer
 * seats (computer.c, which life.c names at the start) is asked.  The
 * table names no room above it. */
void game_kick(core *C, game *g)
{
    if (C->kick)
        C->kick(C, g);
}

/* After any change: tell the viewers, let a computer seat think. */
void game_after_change(core *C, game *g)
{
    game_tell(C, g);
    game_kick(C, g);
}

/* ---- what the edge reads of a game (core.h) ---- */

const char *core_game_id(const game *g) { return g->id; }
const tav_session *core_game_session(const game *g) { return g->s; }
const analysis *core_game_analysis(const game *g) { return g->an; }
void *core_game_edge(const game *g) { return g->edge; }
void core_game_set_edge(game *g, void *edge) { g->edge = edge; }

void core_game_facts(const game *g, core_facts *f)
{
    memset(f, 0, sizeof *f);
    f->id = g->id;
    for (int side = 0; side < 2; side++) {
        f->player[side] = g->player[side];
        f->account[side] = g->account[side];
        f->human[side] = g->human[side];
        f->bot[side] = g->bot[side];
    }
    f->thinking = g->job != NULL;
    f->rated = g->rated;
    f->rematch = g->rematch;
    f->end = g->end;
    f->end_winner = g->end_winner;
    f->draw_offer = g->draw_offer;
    f->takeback_offer = g->takeback_offer;
    f->rematch_offer = g->rematch_offer;
    f->absent = g->absent;
    f->rating_before = g->rating_before;
    f->rating_after = g->rating_after;
    f->clk_initial_ms = g->clk_initial_ms;
    f->clk_inc_ms = g->clk_inc_ms;
    f->clk_days = g->clk_days;
    f->tournament = g->tour;
}

void core_each_game_part(core *C, int part, int parts, void (*fn)(void *ctx, game *g), void *ctx)
{
    for (int h = part; h < CORE_HASH_SIZE; h += parts)
        for (game *g = C->games[h], *next; g; g = next) {
            next = g->hnext;
            fn(ctx, g);
        }
}

void core_each_game(core *C, void (*fn)(void *ctx, game *g), void *ctx)
{
    core_each_game_part(C, 0, 1, fn, ctx);
}

const core_config *core_config_of(const core *C) { return &C->cf; }
