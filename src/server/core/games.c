/*
 * games.c — the core's games: the table of games in memory, loading from
 * the store (one replay), claims between instances, start and stop.  The
 * rest of a game's life lives in rooms of one job each, sharing
 * internal.h: moves.c (a move, resign, abort), create.c (new games),
 * clocks.c, offers.c (draw, take-back, undo), jobs.c (searches: computer
 * seats, hints, the workers' answers, the tick), analysis.c, records.c (the
 * slow thread).
 *
 * A game is a tav_session plus its seats.  It is loaded from the store on
 * first use (and at start every unfinished game whose computer seat is to
 * act) by replaying its moves once, and leaves memory again once nobody has
 * used it for CORE_IDLE_SECS (sweep).  Every change is written to the store
 * before anyone is told about it: the edge commits the batch, then sends.
 *
 * Searches are scheduled by priority (a computer seat someone plays
 * against first, then hints, analyses, and computer-only games last); a
 * computer-only game moves at most once per `pace_ms` (--pace) and at most
 * `cpu_cap` of them search at once, so they leave room for people.
 *
 * Searches never run on the loop: tav_service_submit hands the position to
 * a worker; jobs_done (worker thread) queues the answer and wakes the loop,
 * which plays it in core_drain only if the game is still at the ply the
 * search started from.  Records are parsed and replayed on the record
 * thread, off the loop.
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

void core_random_b64(char *out, size_t nbytes)
{
    unsigned char buf[64];
    if (nbytes > sizeof buf)
        nbytes = sizeof buf;
    randombytes_buf(buf, nbytes);
    sodium_bin2base64(out, sodium_base64_ENCODED_LEN(nbytes, sodium_base64_VARIANT_URLSAFE_NO_PADDING),
                      buf, nbytes, sodium_base64_VARIANT_URLSAFE_NO_PADDING);
    sodium_memzero(buf, sizeof buf);
}

void core_token_hash(const char *token, unsigned char hash[STORE_HASH_LEN])
{
    static const unsigned char key[] = "tavoliere seat token v1";
    crypto_generichash(hash, STORE_HASH_LEN, (const unsigned char *)token, strlen(token), key,
                       sizeof key - 1);
}

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

int core_id_ok(const char *id, size_t n)
{
    if (n != CORE_ID_CHARS)
        return 0;
    for (size_t i = 0; i < n; i++) {
        char ch = id[i];
        if (!((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
              ch == '-' || ch == '_'))
            return 0;
    }
    return 1;
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

typedef struct replay_ctx {
    game *g;
    char err[256];
    int64_t last;
} replay_ctx;

/* The row of a game being loaded: its session, before the moves replay. */
static int replay_row(void *ctx, const store_game *sg)
{
    replay_ctx *rc = ctx;
    game *g = rc->g;
    if (tav_session_new(&g->s, sg->game, sg->options, sg->seed, rc->err, sizeof rc->err) !=
        TAV_OK)
        return -1;
    rc->last = sg->started_ms > 0 ? sg->started_ms : sg->created * 1000;
    return 0;
}

/* Replay one stored move into the session. */
static int replay_move(void *ctx, int ply, const store_move *m)
{
    replay_ctx *rc = ctx;
    if (tav_session_play_text(rc->g->s, m->text, rc->err, sizeof rc->err) != TAV_OK)
        return -1;
    tav_session_set_move_ms(rc->g->s, ply, m->ms);
    rc->last = m->time;
    return 0;
}

/* Read a game from the store into g (zeroed, or a scratch copy): its
 * session and everything kept of it.  1 found, 0 unknown, -1 damaged or
 * the store failed. */
static int read_game(core *C, const char *id, game *g)
{
    store_game sg;
    char err[256];
    replay_ctx rc = {g, "", 0};
    int found = store_load_game(C->st, id, &sg, replay_row, replay_move, &rc, err, sizeof err);
    if (found <= 0) {
        if (found < 0)
            core_log(C, "error: %s%s%s", err, rc.err[0] ? ": " : "", rc.err);
        if (g->s)
            tav_session_free(g->s);
        g->s = NULL;
        return found < 0 ? -1 : 0;
    }
    snprintf(g->id, sizeof g->id, "%s", sg.id);
    for (int side = 0; side < 2; side++) {
        memcpy(g->player[side], sg.player[side], STORE_PLAYER_LEN);
        memcpy(g->account[side], sg.account[side], STORE_NAME_LEN);
        g->bot[side] = sg.account[side][0] && core_is_bot(C, sg.account[side]);
        g->human[side] = sg.has_seat[side] ||
                         (sg.account[side][0] && strcmp(sg.player[side], "human") == 0);
        memcpy(g->seat_hash[side], sg.seat_hash[side], STORE_HASH_LEN);
    }
    if (sg.resigned == TAV_WHITE || sg.resigned == TAV_BLACK)
        tav_session_resign(g->s, sg.resigned);
    g->cpu_only = !g->human[0] && !g->human[1];
    g->local = sg.local;
    g->rated = sg.rated;
    memcpy(g->rating_before, sg.rating_before, sizeof g->rating_before);
    memcpy(g->rating_after, sg.rating_after, sizeof g->rating_after);
    offers_unpack(g, sg.draw_offer, sg.takeback_offer);
    g->end[0] = 0;
    g->end_winner = 0;
    if (strcmp(sg.end, "abort") == 0 || strcmp(sg.end, "time") == 0 ||
        strcmp(sg.end, "agreement") == 0 || strcmp(sg.end, "abandon") == 0)
        snprintf(g->end, sizeof g->end, "%s", sg.end);
    if (strcmp(sg.end, "agreement") == 0)
        g->end_winner = TAV_DRAW;
    if (strcmp(sg.end, "abandon") == 0)
        g->end_winner = strcmp(sg.winner, "white") == 0   ? TAV_WHITE
                        : strcmp(sg.winner, "black") == 0 ? TAV_BLACK
                                                          : TAV_DRAW;
    memcpy(g->rematch, sg.rematch, sizeof g->rematch);
    g->last_ms = rc.last;
    g->clk_initial_ms = sg.clock_initial * 1000;
    g->clk_inc_ms = sg.clock_increment * 1000;
    g->clk_days = sg.clock_days;
    g->started_ms = sg.started_ms;
    g->stamp = sg.stamp;
    if (clock_on(g)) {
        clock_rebuild(g);
        if (strcmp(sg.end, "time") == 0) {
            g->end_winner = strcmp(sg.winner, "white") == 0 ? TAV_WHITE : TAV_BLACK;
            g->left_ms[1 - g->end_winner] = 0;
        }
    }
    store_game_done(&sg);
    return 1;
}

/* Rebuild a game from the store, reading it once: NULL when unknown or
 * damaged. */
static game *load_game(core *C, const char *id)
{
    game *g = calloc(1, sizeof *g);
    if (!g) {
        C->get_failed = 1;
        return NULL;
    }
    int rc = read_game(C, id, g);
    if (rc != 1) {
        C->get_failed = rc < 0;
        free(g);
        return NULL;
    }
    game_changed(g);
    games_insert(C, g);
    clock_list(C, g);
    return g;
}

/* Read g again from the store (a batch of its writes failed, or another
 * instance changed it): what it kept in memory gives way to what is on
 * disk, its viewers are told, and a computer seat to act thinks anew.
 * 0, or -1 when it could not be read: then a copy holding writes that
 * failed (`must`) leaves memory; one merely behind others' stays as it was
 * (what was true a moment ago), to be read again later. */
int game_refresh(core *C, game *g, int must)
{
    game fresh;
    memset(&fresh, 0, sizeof fresh);
    int rc = read_game(C, g->id, &fresh);
    if (rc != 1) {
        core_log(C, "error: game %s could not be read again", g->id);
        if (must || rc == 0)
            g->dead = 1;
        return -1;
    }
    if (!must && fresh.stamp && fresh.stamp == g->stamp) {
        tav_session_free(fresh.s);   /* read again already (a request's look came first) */
        return 0;
    }
    if (g->job) {
        jobs_cancel(C, g->job);
        g->job = NULL;
    }
    tav_session_free(g->s);
    g->s = fresh.s;
    memcpy(g->player, fresh.player, sizeof g->player);
    memcpy(g->account, fresh.account, sizeof g->account);
    memcpy(g->bot, fresh.bot, sizeof g->bot);
    memcpy(g->human, fresh.human, sizeof g->human);
    memcpy(g->seat_hash, fresh.seat_hash, sizeof g->seat_hash);
    g->cpu_only = fresh.cpu_only;
    g->local = fresh.local;
    g->rated = fresh.rated;
    memcpy(g->rating_before, fresh.rating_before, sizeof g->rating_before);
    memcpy(g->rating_after, fresh.rating_after, sizeof g->rating_after);
    g->draw_offer = fresh.draw_offer;
    g->takeback_offer = fresh.takeback_offer;
    g->rematch_offer = fresh.rematch_offer;
    memcpy(g->spent, fresh.spent, sizeof g->spent);
    g->absent = fresh.absent;
    memcpy(g->end, fresh.end, sizeof g->end);
    g->end_winner = fresh.end_winner;
    memcpy(g->rematch, fresh.rematch, sizeof g->rematch);
    g->last_ms = fresh.last_ms;
    g->clk_initial_ms = fresh.clk_initial_ms;
    g->clk_inc_ms = fresh.clk_inc_ms;
    g->clk_days = fresh.clk_days;
    g->started_ms = fresh.started_ms;
    memcpy(g->left_ms, fresh.left_ms, sizeof g->left_ms);
    g->stamp = fresh.stamp;
    game_changed(g);
    if (core_over(g)) {   /* ended elsewhere: its results were written there */
        if (g->owner) {
            g->owner->cpu_games--;
            g->owner = NULL;
        }
        game_release_claim(C, g);
    }
    clock_list(C, g);
    moves_after_change(C, g);
    return 0;
}

/* Many instances: whether another wrote g since this copy was read (one
 * look at its stamp); then it is read again.  Not while g's own writes
 * wait (they settle first, and then its stamp is theirs). */
static void freshen(core *C, game *g)
{
    if (!C->shared || g->unsaved || g->dead || !C->st->ops->game_stamp)
        return;
    int64_t now = 0;
    char err[256];
    int rc = C->st->ops->game_stamp(C->st, g->id, &now, err, sizeof err);
    if (rc == 1 && now != g->stamp) {
        C->refreshed++;
        game_refresh(C, g, 0);
    } else if (rc < 0) {
        core_log(C, "error: game %s: %s", g->id, err);
    }
}

game *core_get(core *C, const char *id)
{
    C->get_failed = 0;
    game *g = games_find(C, id);
    if (g) {
        g->touched = core_unix_ms() / 1000;
        freshen(C, g);
        if (!g->dead)
            return g;
        C->get_failed = 1;   /* it could not be read again: not an unknown game */
        return NULL;
    }
    g = load_game(C, id);
    if (g) {
        tav_result r;
        tav_session_result(g->s, &r);
        if (!r.over)
            jobs_kick(C, g);
    }
    return g;
}

/* Load every unfinished game whose computer seat is to act, at start. */
static void load_unfinished(void *ctx, const char *id)
{
    core *C = ctx;
    if (!core_get(C, id))
        core_log(C, "error: game %s could not be loaded", id);
}


core *core_new(const core_config *cf, const core_events *ev, const char *db, char *err,
               size_t errlen)
{
    core *C = calloc(1, sizeof *C);
    if (!C) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    C->cf = *cf;
    C->ev = *ev;
    C->audit_seen = -1;   /* moderation.c: read at the first tick */
    if (C->cf.idle_secs <= 0)
        C->cf.idle_secs = CORE_IDLE_SECS;
    pthread_mutex_init(&C->qlock, NULL);
    pthread_mutex_init(&C->rlock, NULL);
    pthread_cond_init(&C->rcond, NULL);
    C->cpu_cap = C->cf.threads > 1 ? C->cf.threads - 1 : 1;
    C->st = store_open(db, err, errlen);   /* the loop's reads */
    if (C->st) {
        /* Many instances on this database (shared.c, started by the edge)? */
        C->shared = store_shared(C->st);
        core_random_b64(C->instance, 6);
    }
    if (!C->st || create_computer_accounts(C, err, errlen) != 0 || writer_start(C, db, err, errlen) != 0) {
        core_free(C);
        return NULL;
    }
    C->svc = tav_service_new(C->cf.threads, 0);
    if (!C->svc) {
        snprintf(err, errlen, "the search service failed to start");
        core_free(C);
        return NULL;
    }
    if (pthread_create(&C->rthread, NULL, records_thread, C) != 0) {
        snprintf(err, errlen, "the record thread failed to start");
        core_free(C);
        return NULL;
    }
    C->rthread_started = 1;
    if (C->cf.clock_file)   /* the test clock in force before clocks are rebuilt */
        jobs_test_clock_read(C);
    if (store_each_unfinished(C->st, load_unfinished, C, err, errlen) != 0) {
        core_stop(C);
        core_free(C);
        return NULL;
    }
    return C;
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
    if (g->claim_tried && now - g->claim_tried < 1000)
        return 0;
    g->claim_tried = now;
    char key[32], err[256];
    snprintf(key, sizeof key, "%s%s", CORE_CLAIM_PREFIX, g->id);
    int rc = store_try_claim(C->st, key, err, sizeof err);
    if (rc < 0)
        core_log(C, "error: game %s: claim: %s", g->id, err);
    g->claimed = rc == 1;
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

int core_game_changed_elsewhere(core *C, const char *id)
{
    game *g = games_find(C, id);
    if (!g)
        return 0;   /* read from the store when someone asks */
    if (g->unsaved > 0)
        return 1;
    C->refreshed++;
    return game_refresh(C, g, 0) == 0 ? 0 : -1;
}

int core_refresh_all(core *C)
{
    int failed = 0;
    for (int h = 0; h < CORE_HASH_SIZE; h++)
        for (game *g = C->games[h]; g; g = g->hnext)
            if (!g->dead && !g->unsaved && game_refresh(C, g, 0) != 0)
                failed = 1;
    return failed ? -1 : 0;
}

static void take_over_one(void *ctx, const char *id)
{
    core *C = ctx;
    if (!games_find(C, id))
        core_get(C, id);   /* loads it; its computer seat, if to act, is claimed */
}

/* Games whose instance died (their claims ended with its connection): a
 * computer seat to act that nobody thinks for is claimed here; a game not
 * in memory whose computer seat is to act or whose clock runs is loaded
 * (clock_tick claims a game whose flag fell when nobody judged it). */
void core_take_over(core *C)
{
    for (int h = 0; h < CORE_HASH_SIZE; h++)
        for (game *g = C->games[h]; g; g = g->hnext)
            if (!g->dead && !g->job && !g->cwaiting && !core_over(g) && game_computer_to_act(g))
                jobs_kick(C, g);
    char err[256];
    int rc = C->st->ops->each_unclaimed
                 ? C->st->ops->each_unclaimed(C->st, CORE_CLAIM_PREFIX, take_over_one, C, err,
                                              sizeof err)
                 : store_each_unfinished(C->st, take_over_one, C, err, sizeof err);
    if (rc != 0)
        core_log(C, "error: looking for games to take over: %s", err);
}

/* Play a move, store it, and only then keep it.  TAV_OK or the refusal. */
void core_stop(core *C)
{
    C->stopping = 1;
    for (int h = 0; h < CORE_HASH_SIZE; h++)
        for (game *g = C->games[h]; g; g = g->hnext)
            if (g->job) {
                jobs_cancel(C, g->job);
                g->job = NULL;
            }
    if (C->an_job)
        jobs_cancel(C, C->an_job);
    writer_stop(C, jobs_batch_failed);   /* what is still open is committed first */
    if (C->rthread_started) {
        pthread_mutex_lock(&C->rlock);
        C->rstop = 1;
        pthread_cond_signal(&C->rcond);
        pthread_mutex_unlock(&C->rlock);
        pthread_join(C->rthread, NULL);
        C->rthread_started = 0;
    }
    if (C->svc) {
        tav_service_free(C->svc);   /* every search reports before this returns */
        C->svc = NULL;
    }
}

/* After core_stop and the edge's loop. */
void core_free(core *C)
{
    if (!C)
        return;
    if (C->svc || C->rthread_started || C->wstarted)
        core_stop(C);
    core_drain(C);
    while (C->seeks) {   /* the lobby's seeks (lobby.c made them) */
        lobby_seek *k = C->seeks;
        C->seeks = k->next;
        free(k);
    }
    for (int h = 0; h < CORE_HASH_SIZE; h++) {
        game *g = C->games[h];
        while (g) {
            game *next = g->hnext;
            game_free(C, g);
            g = next;
        }
        C->games[h] = NULL;
    }
    free(C->tours);   /* tournaments.c's memory of claims and batches */
    writer_free(C);
    core_chat_free(C);
    store_close(C->st);
    pthread_mutex_destroy(&C->qlock);
    pthread_mutex_destroy(&C->rlock);
    pthread_cond_destroy(&C->rcond);
    free(C);
}
