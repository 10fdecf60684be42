/*
 * games.c — the core's games: loading from the store, playing, computer
 * seats, hints, analyses and record checks through the search service.
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
 * a worker; job_done (worker thread) queues the answer and wakes the loop,
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

static game *find_loaded(core *C, const char *id)
{
    for (game *g = C->games[hash_id(id)]; g; g = g->hnext)
        if (strcmp(g->id, id) == 0 && !g->dead)
            return g;
    return NULL;
}

static void insert_game(core *C, game *g)
{
    unsigned h = hash_id(g->id);
    g->hnext = C->games[h];
    C->games[h] = g;
    C->ngames++;
}

static void release_claim(core *C, game *g);

static void game_free(core *C, game *g)
{
    release_claim(C, g);
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

static void kick(core *C, game *g);
static void finished(core *C, game *g);
static void after_change(core *C, game *g);
static int claim(core *C, game *g);
static void cancel(core *C, job *j);
static int computer_accounts(core *C, char *err, size_t errlen);
static void clock_list(core *C, game *g);
static core_status create_game_as(core *C, tav_session *s, const char *const player[2], peer *by,
                                  int local, const game *seats_of, const char *const *account,
                                  int rated, const store_seek *clock, core_made *m);
static int clocked(const game *g);
static void clock_rebuild(game *g);
static void offers_unpack(game *g, int draw_col, int takeback_col);
static void test_clock_read(core *C);
static void away_start(core *C, game *g);

/* Whether the side to act is a computer seat. */
static int computer_to_act(const game *g)
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
static int store_status(const game *g)
{
    return core_over(g) ? STORE_OVER : computer_to_act(g) ? STORE_COMPUTER : STORE_PLAYING;
}

/* The session changed: what viewers see is out of date. */
static void changed(game *g)
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
static void tell(core *C, game *g)
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
        g->human[side] = sg.has_seat[side] ||
                         (sg.account[side][0] && strcmp(sg.player[side], "human") == 0);
        memcpy(g->seat_hash[side], sg.seat_hash[side], STORE_HASH_LEN);
    }
    if (sg.resigned == TAV_WHITE || sg.resigned == TAV_BLACK)
        tav_session_resign(g->s, sg.resigned);
    g->cpu_only = !g->human[0] && !g->human[1];
    g->local = sg.local;
    g->rated = sg.rated;
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
    if (clocked(g)) {
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
    changed(g);
    insert_game(C, g);
    clock_list(C, g);
    return g;
}

/* Read g again from the store (a batch of its writes failed, or another
 * instance changed it): what it kept in memory gives way to what is on
 * disk, its viewers are told, and a computer seat to act thinks anew.
 * 0, or -1 when it could not be read: then a copy holding writes that
 * failed (`must`) leaves memory; one merely behind others' stays as it was
 * (what was true a moment ago), to be read again later. */
static int refresh_game(core *C, game *g, int must)
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
        cancel(C, g->job);
        g->job = NULL;
    }
    tav_session_free(g->s);
    g->s = fresh.s;
    memcpy(g->player, fresh.player, sizeof g->player);
    memcpy(g->account, fresh.account, sizeof g->account);
    memcpy(g->human, fresh.human, sizeof g->human);
    memcpy(g->seat_hash, fresh.seat_hash, sizeof g->seat_hash);
    g->cpu_only = fresh.cpu_only;
    g->local = fresh.local;
    g->rated = fresh.rated;
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
    changed(g);
    if (core_over(g)) {   /* ended elsewhere: its results were written there */
        if (g->owner) {
            g->owner->cpu_games--;
            g->owner = NULL;
        }
        release_claim(C, g);
    }
    clock_list(C, g);
    after_change(C, g);
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
        refresh_game(C, g, 0);
    } else if (rc < 0) {
        core_log(C, "error: game %s: %s", g->id, err);
    }
}

game *core_get(core *C, const char *id)
{
    C->get_failed = 0;
    game *g = find_loaded(C, id);
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
            kick(C, g);
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

static void *record_thread(void *arg);

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
    if (!C->st || computer_accounts(C, err, errlen) != 0 || writer_start(C, db, err, errlen) != 0) {
        core_free(C);
        return NULL;
    }
    C->svc = tav_service_new(C->cf.threads, 0);
    if (!C->svc) {
        snprintf(err, errlen, "the search service failed to start");
        core_free(C);
        return NULL;
    }
    if (pthread_create(&C->rthread, NULL, record_thread, C) != 0) {
        snprintf(err, errlen, "the record thread failed to start");
        core_free(C);
        return NULL;
    }
    C->rthread_started = 1;
    if (C->cf.clock_file)   /* the test clock in force before clocks are rebuilt */
        test_clock_read(C);
    if (store_each_unfinished(C->st, load_unfinished, C, err, errlen) != 0) {
        core_stop(C);
        core_free(C);
        return NULL;
    }
    return C;
}

/* ---- jobs ---- */

/* Any thread: queue a finished job for the loop and wake it. */
static void done_push(core *C, job *j)
{
    pthread_mutex_lock(&C->qlock);
    j->next = NULL;
    if (C->done_tail)
        C->done_tail->next = j;
    else
        C->done_head = j;
    C->done_tail = j;
    pthread_mutex_unlock(&C->qlock);
    if (C->ev.wake)
        C->ev.wake(C->ev.ctx);
}

/* Worker thread: keep the answer, hand the job back. */
static void job_done(void *ctx, const tav_answer *a)
{
    job *j = ctx;
    j->answer = *a;
    done_push(j->server, j);
}

/* The watchdog's list of computer moves being searched. */
static void watch(core *C, job *j)
{
    j->wprev = NULL;
    j->wnext = C->running;
    if (C->running)
        C->running->wprev = j;
    C->running = j;
}

static void unwatch(core *C, job *j)
{
    if (j->kind != JOB_MOVE || (!j->wprev && C->running != j))
        return;
    if (j->wprev)
        j->wprev->wnext = j->wnext;
    else
        C->running = j->wnext;
    if (j->wnext)
        j->wnext->wprev = j->wprev;
    j->wprev = j->wnext = NULL;
}

static job *submit(core *C, int kind, game *g, const tav_session *s, const char *player,
                   tav_budget *b, int priority)
{
    job *j = calloc(1, sizeof *j);
    if (!j)
        return NULL;
    j->kind = kind;
    j->g = g;
    j->server = C;
    j->ply = tav_session_ply(s);
    j->budget_ms = b->movetime_ms;
    b->priority = priority;
    if (tav_service_submit(C->svc, s, player, b, job_done, j, &j->handle) != TAV_OK) {
        free(j);
        return NULL;
    }
    g->jobs_out++;
    if (kind == JOB_MOVE)
        watch(C, j);
    return j;
}

static void cancel(core *C, job *j)
{
    if (!j)
        return;
    unwatch(C, j);
    if (!C->svc)
        return;
    j->stale = 1;
    tav_service_cancel(C->svc, j->handle);
}

/* The budget of a computer seat, its time capped so games go on briskly. */
static void seat_budget(const tav_game *tg, int level, long cap_ms, tav_budget *b)
{
    memset(b, 0, sizeof *b);
    if (level > 0)
        tav_level_budget(tg, level, b);
    if (b->movetime_ms <= 0 || b->movetime_ms > cap_ms)
        b->movetime_ms = cap_ms;
    b->threads = 1;
    randombytes_buf(&b->seed, sizeof b->seed);
}

/* Start the search of the computer seat to act. */
static void start_move(core *C, game *g)
{
    int side = tav_session_to_move(g->s);
    char name[32];
    int level = 0;
    if (tav_player_parse(g->player[side], name, sizeof name, &level) != TAV_OK) {
        core_log(C, "error: game %s: unknown player %s", g->id, g->player[side]);
        return;
    }
    tav_budget b;
    seat_budget(tav_session_game(g->s), level, C->cf.ai_ms, &b);
    g->job = submit(C, JOB_MOVE, g, g->s, name, &b, g->cpu_only ? PRIO_CPU_ONLY : PRIO_SEAT);
    if (!g->job) {
        core_log(C, "error: game %s: search refused", g->id);
    } else if (g->cpu_only) {
        g->job->cpu = 1;
        C->cpu_running++;
    }
}

/* Computer-only games take turns: at most cpu_cap search at once, each at
 * most once per pace_ms, in the order they became ready. */
static void cpu_pump(core *C)
{
    int64_t now = core_game_ms(C);
    game *prev = NULL, *g = C->cwait_head;
    while (g && C->cpu_running < C->cpu_cap && !C->stopping) {
        game *next = g->cnext;
        if (now < g->last_ms + C->cf.pace_ms) {
            prev = g;
        } else {
            if (prev)
                prev->cnext = next;
            else
                C->cwait_head = next;
            if (C->cwait_tail == g)
                C->cwait_tail = prev;
            g->cwaiting = 0;
            g->cnext = NULL;
            if (!g->job && computer_to_act(g))
                start_move(C, g);
        }
        g = next;
    }
}

/* If a computer seat is to act and not yet thinking, start its search (a
 * computer-only game waits for its turn among them). */
static void kick(core *C, game *g)
{
    if (g->job || C->stopping || !computer_to_act(g) || g->dead || !claim(C, g))
        return;
    if (!g->cpu_only) {
        start_move(C, g);
        return;
    }
    if (!g->cwaiting) {
        g->cwaiting = 1;
        g->cnext = NULL;
        if (C->cwait_tail)
            C->cwait_tail->cnext = g;
        else
            C->cwait_head = g;
        C->cwait_tail = g;
    }
    cpu_pump(C);
}

/* ---- many instances (shared.c) ---- */

/* The claim on g: with many instances, only its holder thinks for g's
 * computer seat and judges its clock.  A lone instance holds every claim;
 * a claim refused is asked again at most once a second. */
static int claim(core *C, game *g)
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

static void release_claim(core *C, game *g)
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
    game *g = find_loaded(C, id);
    if (!g)
        return 0;   /* read from the store when someone asks */
    if (g->unsaved > 0)
        return 1;
    C->refreshed++;
    return refresh_game(C, g, 0) == 0 ? 0 : -1;
}

int core_refresh_all(core *C)
{
    int failed = 0;
    for (int h = 0; h < CORE_HASH_SIZE; h++)
        for (game *g = C->games[h]; g; g = g->hnext)
            if (!g->dead && !g->unsaved && refresh_game(C, g, 0) != 0)
                failed = 1;
    return failed ? -1 : 0;
}

static void take_over_one(void *ctx, const char *id)
{
    core *C = ctx;
    if (!find_loaded(C, id))
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
            if (!g->dead && !g->job && !g->cwaiting && !core_over(g) && computer_to_act(g))
                kick(C, g);
    char err[256];
    int rc = C->st->ops->each_unclaimed
                 ? C->st->ops->each_unclaimed(C->st, CORE_CLAIM_PREFIX, take_over_one, C, err,
                                              sizeof err)
                 : store_each_unfinished(C->st, take_over_one, C, err, sizeof err);
    if (rc != 0)
        core_log(C, "error: looking for games to take over: %s", err);
}

/* Play a move, store it, and only then keep it.  TAV_OK or the refusal. */
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

static void offers_unpack(game *g, int draw_col, int takeback_col)
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

static int offers_apply(store *st, const void *data, char *err, size_t errlen)
{
    const offers_w *w = data;
    return st->ops->set_offers(st, w->id, w->draw, w->takeback, err, errlen);
}

/* What offers_store writes, kept to put back when it fails. */
typedef struct offer_keep {
    int draw, takeback, rematch, absent, spent[3];
} offer_keep;

static offer_keep offers_keep(const game *g)
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
static int offers_store(core *C, game *g, const offer_keep *k)
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
static int offers_write(core *C, game *g, int draw, int takeback)
{
    offer_keep k = offers_keep(g);
    g->draw_offer = draw;
    g->takeback_offer = takeback;
    return offers_store(C, g, &k);
}

/* The offer rate limit: one more offer by `account` (none for a guest's
 * seat: one offer per side per move bounds those).  0, or -1 past
 * CORE_OFFERS_PER_WINDOW in the window. */
static int offer_counted(core *C, const char *account)
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

/* ---- clocks ---- */

static int clocked(const game *g) { return g->clk_initial_ms > 0 || g->clk_days > 0; }

/* Rebuild each side's time from the moves' durations (a loaded game). */
static void clock_rebuild(game *g)
{
    g->left_ms[0] = g->left_ms[1] = g->clk_initial_ms;
    for (int i = 0; i < tav_session_ply(g->s); i++) {
        int m = core_mover_at(g, i);
        if (m == TAV_WHITE || m == TAV_BLACK)
            g->left_ms[m] += g->clk_inc_ms - tav_session_move_ms(g->s, i);
    }
}

int core_clock(const game *g, int64_t now_ms, int64_t left[2], int64_t *deadline_ms)
{
    if (!clocked(g))
        return 0;
    int side = core_over(g) ? TAV_NONE : tav_session_to_move(g->s);
    int64_t since = now_ms > g->last_ms ? now_ms - g->last_ms : 0;
    if (g->clk_days > 0) {
        *deadline_ms = side == TAV_NONE ? 0 : g->last_ms + g->clk_days * 86400000;
        return 2;
    }
    for (int k = 0; k < 2; k++)
        left[k] = g->left_ms[k] - (k == side ? since : 0);
    for (int k = 0; k < 2; k++)
        if (left[k] < 0)
            left[k] = 0;
    return 1;
}

/* Whether `side` has made a move in g. */
static int has_moved(const game *g, int side)
{
    for (int i = 0; i < tav_session_ply(g->s); i++)
        if (core_mover_at(g, i) == side)
            return 1;
    return 0;
}

/* The side whose time ran out at now_ms, or -1; *noshow: that side never
 * made its first move (SPEC "No first move, no game": a real-time clock
 * allows CORE_FIRST_MOVE_MS for it, days a move the first deadline), and
 * the game is aborted instead of lost. */
static int flag_fallen(const game *g, int64_t now_ms, int *noshow)
{
    *noshow = 0;
    if (!clocked(g) || core_over(g))
        return -1;
    int side = tav_session_to_move(g->s);
    if (side != TAV_WHITE && side != TAV_BLACK)
        return -1;
    int64_t since = now_ms - g->last_ms;
    int due = g->clk_days > 0 ? since > g->clk_days * 86400000 : g->left_ms[side] - since <= 0;
    if (!due && g->clk_days == 0 && since >= CORE_FIRST_MOVE_MS)
        due = 2;
    if (!due)
        return -1;
    if (!has_moved(g, side))
        *noshow = 1;
    else if (due == 2)
        return -1;
    return side;
}

/* A flag fell: the game ends on time, the other side winning. */
/* The server ends g beyond its rules ("abort", "time", "agreement") with
 * `winner` (TAV_NONE, a side, TAV_DRAW): stored with the batch, then what
 * any end does.  0, or -1 with nothing changed. */
static int end_by_server(core *C, game *g, const char *end, int winner)
{
    snprintf(g->end, sizeof g->end, "%s", end);
    g->end_winner = winner;
    if (wq_result(C, g, STORE_OVER, -1) != 0) {
        g->end[0] = 0;
        return -1;
    }
    changed(g);
    finished(C, g);
    return 0;
}

static int flag(core *C, game *g, int side, int noshow)
{
    if (noshow) {
        /* No first move, no game: unrated, no winner; the side that did
         * not move is kept with the offers (the page says it in words). */
        if (end_by_server(C, g, "abort", TAV_NONE) != 0)
            return -1;
        offer_keep k = offers_keep(g);
        g->absent = side;
        g->draw_offer = g->takeback_offer = -1;
        if (offers_store(C, g, &k) != 0)
            core_log(C, "error: game %s: who did not move could not be stored", g->id);
        core_log(C, "game %s: aborted, %s did not move", g->id,
                 side == TAV_WHITE ? "white" : "black");
        tell(C, g);
        return 0;
    }
    int64_t kept = g->left_ms[side];
    g->left_ms[side] = 0;
    if (end_by_server(C, g, "time", 1 - side) != 0) {
        g->left_ms[side] = kept;
        return -1;
    }
    core_log(C, "game %s: %s's time is up", g->id, side == TAV_WHITE ? "white" : "black");
    tell(C, g);
    return 0;
}

/* The server's own timer: every game in memory whose clock runs.  A game
 * that became claimable (its side to move gone long enough) is shown anew
 * to its viewers once. */
static void clock_tick(core *C)
{
    int64_t now = core_game_ms(C);
    for (game *g = C->clocked, *next; g; g = next) {
        next = g->knext;
        int noshow = 0;
        int side = flag_fallen(g, now, &noshow);
        if (side >= 0 && claim(C, g)) {
            flag(C, g, side, noshow);
            continue;
        }
        int mover = tav_session_to_move(g->s);
        if (!g->claim_told && (mover == TAV_WHITE || mover == TAV_BLACK) &&
            core_claim_in(g, 1 - mover, now) == 0) {
            g->claim_told = 1;
            changed(g);
            tell(C, g);
        }
    }
}

/* Whether a claim may ever be made in g: a game between two people's
 * accounts with a real-time clock. */
static int claim_kind(const game *g)
{
    return g->clk_initial_ms > 0 && g->human[0] && g->human[1] && g->account[0][0] &&
           g->account[1][0];
}

/* Whether another instance said lately that the side's account has a
 * socket open there. */
static int seen_elsewhere(const core *C, const game *g, int side)
{
    return C->shared && g->seen_real_ms[side] &&
           core_unix_ms() - g->seen_real_ms[side] < CORE_SEEN_FRESH_MS;
}

/* Whether the side's account has a socket open here or (lately) elsewhere. */
static int side_present(core *C, const game *g, int side)
{
    return (C->ev.present && C->ev.present(C->ev.ctx, g->account[side])) || seen_elsewhere(C, g, side);
}

/* g joins the games whose clocks run: whose accounts are away now. */
static void away_start(core *C, game *g)
{
    int64_t now = core_game_ms(C);
    for (int side = 0; side < 2; side++)
        g->away_ms[side] = claim_kind(g) && C->ev.present && !side_present(C, g, side) ? now : 0;
    g->claim_told = 0;
}

/* The side's away time changed: the other side's claim (or its countdown)
 * comes or goes, and the viewers are told. */
static void away_set(core *C, game *g, int side, int64_t away)
{
    if ((g->away_ms[side] != 0) == (away != 0))
        return;
    g->away_ms[side] = away;
    g->claim_told = 0;
    changed(g);
    tell(C, g);
}

void core_account_seen_elsewhere(core *C, const char *account)
{
    if (!account || !account[0])
        return;
    int64_t real = core_unix_ms();
    for (game *g = C->clocked; g; g = g->knext) {
        if (!claim_kind(g))
            continue;
        for (int side = 0; side < 2; side++) {
            if (strcasecmp(g->account[side], account) != 0)
                continue;
            g->seen_real_ms[side] = real;
            away_set(C, g, side, 0);
        }
    }
}

/* Many instances, on every tick: every CORE_SEEN_EVERY_MS tell the others
 * which players of clocked games between accounts have a socket open here;
 * a side seen nowhere (not here, not told of for CORE_SEEN_FRESH_MS) is
 * away since it was last seen elsewhere. */
void core_presence_tick(core *C)
{
    if (!C->shared || !C->ev.present)
        return;
    int64_t real = core_unix_ms();
    int tell_now = real - C->seen_told_ms >= CORE_SEEN_EVERY_MS;
    if (tell_now)
        C->seen_told_ms = real;
    for (game *g = C->clocked; g; g = g->knext) {
        if (!claim_kind(g) || core_over(g))
            continue;
        for (int side = 0; side < 2; side++) {
            int here = C->ev.present(C->ev.ctx, g->account[side]);
            if (here && tell_now) {
                char told[STORE_NAME_LEN + 8];
                snprintf(told, sizeof told, "seen %s", g->account[side]);
                if (wq_notify(C, CORE_CH_ACCOUNT, told) == 0 && C->ev.dirty)
                    C->ev.dirty(C->ev.ctx);
            }
            if (!here && !g->away_ms[side] && g->seen_real_ms[side] && !seen_elsewhere(C, g, side)) {
                /* gone from the other instance: away since it was last seen there */
                int64_t away = core_game_ms(C) - (real - g->seen_real_ms[side]);
                away_set(C, g, side, away > 0 ? away : 1);
            }
        }
    }
}

int64_t core_claim_in(const game *g, int side, int64_t now_ms)
{
    if ((side != TAV_WHITE && side != TAV_BLACK) || !claim_kind(g) || core_over(g))
        return -1;
    int mover = tav_session_to_move(g->s);
    if (mover != 1 - side || !g->away_ms[mover] || !has_moved(g, mover))
        return -1;   /* a first move not made aborts instead */
    int64_t at = g->away_ms[mover] + CORE_ABANDON_MS;
    return now_ms >= at ? 0 : at - now_ms;
}

void core_account_presence(core *C, const char *account, int present)
{
    if (!account || !account[0])
        return;
    int64_t now = core_game_ms(C);
    for (game *g = C->clocked; g; g = g->knext) {
        if (!claim_kind(g))
            continue;
        for (int side = 0; side < 2; side++) {
            if (strcasecmp(g->account[side], account) != 0)
                continue;
            /* Gone from here but seen on another instance lately: not away
             * (core_presence_tick starts the wait once it is seen nowhere). */
            int64_t want = present || seen_elsewhere(C, g, side) ? 0 : now;
            away_set(C, g, side, want);
            if (present && C->shared && C->ev.present) {
                /* Back here: the other instances hear of it at once. */
                char told[STORE_NAME_LEN + 8];
                snprintf(told, sizeof told, "seen %s", g->account[side]);
                if (wq_notify(C, CORE_CH_ACCOUNT, told) == 0 && C->ev.dirty)
                    C->ev.dirty(C->ev.ctx);
            }
        }
    }
}

core_status core_claim(core *C, game *g, const core_cred *who, const char *result, char *err,
                       size_t errlen)
{
    int side = core_side_of(g, who);
    if (side < 0) {
        snprintf(err, errlen, "not a seat of this game");
        return CORE_FORBIDDEN;
    }
    int win = strcmp(result, "win") == 0;
    if (!win && strcmp(result, "draw") != 0) {
        snprintf(err, errlen, "result is \"win\" or \"draw\"");
        return CORE_BAD;
    }
    if (core_over(g)) {
        snprintf(err, errlen, "the game is over");
        return CORE_CONFLICT;
    }
    int64_t now = core_game_ms(C);
    int noshow = 0;
    int fell = flag_fallen(g, now, &noshow);
    if (fell >= 0) {
        flag(C, g, fell, noshow);
        snprintf(err, errlen, "the game is over");
        return CORE_CONFLICT;
    }
    int64_t in = core_claim_in(g, side, now);
    if (in != 0) {
        if (in > 0)
            snprintf(err, errlen, "the other player may still come back: claim in %lld s",
                     (long long)((in + 999) / 1000));
        else
            snprintf(err, errlen, "nothing to claim: the other player is here, or it is your turn");
        return CORE_CONFLICT;
    }
    int gone = 1 - side;
    if (end_by_server(C, g, "abandon", win ? side : TAV_DRAW) != 0) {
        snprintf(err, errlen, "the claim could not be stored");
        return CORE_UNAVAILABLE;
    }
    offer_keep k = offers_keep(g);
    g->absent = gone;
    g->draw_offer = g->takeback_offer = -1;
    if (offers_store(C, g, &k) != 0)
        core_log(C, "error: game %s: who left could not be stored", g->id);
    core_log(C, "game %s: %s left, %s claimed %s", g->id, gone == TAV_WHITE ? "white" : "black",
             side == TAV_WHITE ? "white" : "black", win ? "the win" : "a draw");
    after_change(C, g);
    return CORE_OK;
}

/* Keep the list of games whose clocks run (they stay in memory). */
static void clock_list(core *C, game *g)
{
    int want = clocked(g) && !core_over(g);
    if (want == g->klisted)
        return;
    if (want) {
        g->knext = C->clocked;
        C->clocked = g;
        away_start(C, g);
        claim(C, g);   /* many instances: the first to hold it judges its flags */
    } else {
        for (game **pp = &C->clocked; *pp; pp = &(*pp)->knext)
            if (*pp == g) {
                *pp = g->knext;
                break;
            }
    }
    g->klisted = want;
}

static int commit_move(core *C, game *g, const char *text, char *err, size_t errlen)
{
    int ply = tav_session_ply(g->s);
    tav_status st = tav_session_play_text(g->s, text, err, errlen);
    if (st != TAV_OK)
        return st;
    int64_t now = core_game_ms(C);
    int64_t ms = g->last_ms > 0 && now > g->last_ms ? now - g->last_ms : 0;
    tav_session_set_move_ms(g->s, ply, ms);
    int mover = core_mover_at(g, ply);
    tav_result r;
    tav_session_result(g->s, &r);
    store_move m = {tav_session_move_text(g->s, ply), ms, now};
    if (wq_move(C, g, ply, &m, store_status(g)) != 0) {
        tav_session_undo(g->s);
        snprintf(err, errlen, "the move could not be stored");
        return TAV_E_NOMEM;
    }
    g->last_ms = now;
    /* A move declines the other side's offers; a take-back asked refers to
     * the position it was asked in, so any move ends it. */
    int nd = g->draw_offer == mover ? mover : -1;
    if (nd != g->draw_offer || g->takeback_offer >= 0 || g->spent[0] || g->spent[1]) {
        /* One offer per side per move: what was spent may be offered again. */
        g->spent[0] = g->spent[1] = 0;
        offers_write(C, g, nd, -1);
    }
    if (clocked(g) && (mover == TAV_WHITE || mover == TAV_BLACK))
        g->left_ms[mover] += g->clk_inc_ms - ms;
    C->moves_played++;
    changed(g);
    if (r.over)
        finished(C, g);
    return TAV_OK;
}

/* After any change: tell the viewers, let a computer seat think. */
static void after_change(core *C, game *g)
{
    tell(C, g);
    kick(C, g);
}

/* ---- analysis ---- */

static void analysis_pump(core *C);

/* The game ended: its computer seat stops, and a computer-only game no
 * longer counts against its creator.  (Its analysis starts when someone
 * first asks for it: a busy server does not analyse every game.) */
static void finished(core *C, game *g)
{
    if (g->job) {
        cancel(C, g->job);
        g->job = NULL;
    }
    if (g->owner) {
        g->owner->cpu_games--;
        g->owner = NULL;
    }
    results_game_ended(C, g);
    clock_list(C, g);
    release_claim(C, g);
}

void core_analyse(core *C, game *g)
{
    tav_result res;
    tav_session_result(g->s, &res);
    if (!res.over)
        return;
    if (g->an || C->stopping)
        return;
    analysis *an = calloc(1, sizeof *an);
    if (!an)
        return;
    an->n = tav_session_ply(g->s);
    an->white = calloc((size_t)an->n + 1, sizeof *an->white);
    an->best = calloc((size_t)an->n + 1, sizeof *an->best);
    an->work = tav_session_clone(g->s);
    if (!an->white || !an->best || !an->work) {
        free(an->white);
        free(an->best);
        if (an->work)
            tav_session_free(an->work);
        free(an);
        return;
    }
    tav_result r;
    tav_session_result(g->s, &r);
    an->white[an->n] = r.winner == TAV_WHITE ? 1.0 : r.winner == TAV_BLACK ? 0.0 : 0.5;
    if (tav_session_resigned(an->work) != TAV_NONE)
        tav_session_undo(an->work);   /* takes the resignation back, not a move */
    an->next = an->n - 1;
    g->an = an;
    an->queued = 1;
    g->anext = NULL;
    if (C->an_tail)
        C->an_tail->anext = g;
    else
        C->an_head = g;
    C->an_tail = g;
    analysis_pump(C);
}

/* Start the next analysis search, one at a time for the whole server. */
static void analysis_pump(core *C)
{
    while (!C->an_job && C->an_head && !C->stopping) {
        game *g = C->an_head;
        analysis *an = g->an;
        if (an->next < 0) {
            an->done = 1;
            tav_session_free(an->work);
            an->work = NULL;
            an->queued = 0;
            C->an_head = g->anext;
            if (!C->an_head)
                C->an_tail = NULL;
            continue;
        }
        while (tav_session_ply(an->work) > an->next)
            tav_session_undo(an->work);
        tav_budget b;
        memset(&b, 0, sizeof b);
        b.movetime_ms = C->cf.ai_ms / 10 > 20 ? C->cf.ai_ms / 10 : 20;
        b.threads = 1;
        b.seed = (uint64_t)an->next + 1;
        C->an_job = submit(C, JOB_ANALYSIS, g, an->work, "ai", &b, PRIO_ANALYSIS);
        if (!C->an_job) {
            /* Cannot search this ply: carry the next value back. */
            an->white[an->next] = an->white[an->next + 1];
            an->next--;
        }
    }
}

static void analysis_answer(core *C, job *j)
{
    C->an_job = NULL;
    game *g = j->g;
    analysis *an = g->an;
    if (!an || an->next != j->ply)
        return;
    int p = j->ply;
    if (j->answer.status == TAV_OK) {
        int mover = core_mover_at(g, p);
        double v = j->answer.value;
        an->white[p] = mover == TAV_BLACK ? 1.0 - v : v;
        snprintf(an->best[p], TAV_MOVE_TEXT, "%s", j->answer.best_text);
    } else {
        an->white[p] = an->white[p + 1];
    }
    an->next--;
    analysis_pump(C);
}

/* ---- records, checked off the loop ---- */

/* A deal chosen by whoever made the game (Toscana's seed or explicit
 * stacks): options that stay hidden from both sides while it runs. */
int core_deal_chosen(const tav_session *s)
{
    const tav_game *tg = tav_session_game(s);
    const char *o = tav_session_options(s);
    for (const char *const *k = tg->secret_options; k && *k; k++) {
        size_t n = strlen(*k);
        for (const char *p = o; (p = strstr(p, *k)); p += n)
            if ((p == o || p[-1] == ' ' || p[-1] == '\t') && p[n] == '=')
                return 1;
    }
    return 0;
}

/* On the record thread: parse and replay, then check that the stored form
 * (options, seed, moves) rebuilds the same game. */
static void record_check(job *j)
{
    uint64_t seed;
    randombytes_buf(&seed, sizeof seed);
    tav_session *s = NULL;
    char err[256];
    if (tav_session_from_record_ex(&s, j->text, j->len, seed, CORE_PLIES_MAX, err, sizeof err) !=
        TAV_OK) {
        snprintf(j->err, sizeof j->err, "%s", err);
        return;
    }
    tav_session *check = NULL;
    int ok = tav_session_new(&check, tav_session_game(s)->name, tav_session_options(s),
                             tav_session_seed(s), err, sizeof err) == TAV_OK;
    for (int i = 0; ok && i < tav_session_ply(s); i++)
        ok = tav_session_play_text(check, tav_session_move_text(s, i), err, sizeof err) == TAV_OK;
    if (check)
        tav_session_free(check);
    if (!ok) {
        snprintf(j->err, sizeof j->err, "the record cannot be continued: %s", err);
        tav_session_free(s);
        return;
    }
    j->made = s;
}

static void *record_thread(void *arg)
{
    core *C = arg;
    pthread_mutex_lock(&C->rlock);
    for (;;) {
        while (!C->rq_head && !C->rstop)
            pthread_cond_wait(&C->rcond, &C->rlock);
        if (!C->rq_head)
            break;
        job *j = C->rq_head;
        C->rq_head = j->next;
        if (!C->rq_head)
            C->rq_tail = NULL;
        int stop = C->rstop;
        pthread_mutex_unlock(&C->rlock);
        if (stop)
            snprintf(j->err, sizeof j->err, "the server is stopping");
        else if (j->work)
            j->work(j);
        else
            record_check(j);
        free(j->text);
        j->text = NULL;
        done_push(C, j);
        pthread_mutex_lock(&C->rlock);
    }
    pthread_mutex_unlock(&C->rlock);
    return NULL;
}

/* The limits on making a game from one address (docs/server-api.md
 * "Limits"): games an hour, and unfinished computer-only games at once. */
static core_status creation_allowed(core *C, peer *by, const char *const player[2], char *err,
                                    size_t errlen)
{
    if (peer_limited(C, by)) {
        int64_t hour = core_unix_ms() / 3600000;
        if (by->hour != hour) {
            by->hour = hour;
            by->games_hour = 0;
        }
        if (by->games_hour >= C->cf.games_per_hour) {
            snprintf(err, errlen, "at most %d new games an hour per address",
                     C->cf.games_per_hour);
            return CORE_LIMIT;
        }
    }
    int cpu_only = strcmp(player[0], "human") != 0 && strcmp(player[1], "human") != 0;
    if (cpu_only && peer_limited(C, by) && by->cpu_games >= CORE_CPU_GAMES_PER_ADDR) {
        snprintf(err, errlen, "at most %d unfinished computer-only games at once per address",
                 CORE_CPU_GAMES_PER_ADDR);
        return CORE_LIMIT;
    }
    return CORE_OK;
}

int core_player_ok(const char *p)
{
    if (strcmp(p, "human") == 0)
        return 1;
    char name[32];
    int level = 0;
    return strlen(p) <= CORE_PLAYER_MAX && tav_player_parse(p, name, sizeof name, &level) == TAV_OK;
}

static const char players_msg[] =
    "a player is \"human\", \"random\", \"ai\" or \"ai:level=N\" (N 1..10)";

core_status core_record(core *C, peer *by, void *waiter, const char *text, size_t len,
                        const char *const player[2], job **handle, core_made *m)
{
    memset(m, 0, sizeof *m);
    *handle = NULL;
    if (!core_player_ok(player[0]) || !core_player_ok(player[1])) {
        snprintf(m->err, sizeof m->err, "%s", players_msg);
        return m->status = CORE_BAD;
    }
    if ((m->status = creation_allowed(C, by, player, m->err, sizeof m->err)) != CORE_OK)
        return m->status;
    if (C->records_out >= CORE_RECORD_QUEUE) {
        snprintf(m->err, sizeof m->err,
                 "the server is checking too many records: try again shortly");
        return m->status = CORE_UNAVAILABLE;
    }
    if (by && peer_limited(C, by) && by->records >= CORE_RECORDS_PER_ADDR) {
        snprintf(m->err, sizeof m->err, "at most %d record uploads at once per address",
                 CORE_RECORDS_PER_ADDR);
        return m->status = CORE_LIMIT;
    }
    job *j = calloc(1, sizeof *j);
    if (!j || !(j->text = malloc(len + 1))) {
        free(j);
        snprintf(m->err, sizeof m->err, "out of memory");
        return m->status = CORE_UNAVAILABLE;
    }
    memcpy(j->text, text, len);
    j->text[len] = 0;
    j->len = len;
    j->kind = JOB_RECORD;
    j->server = C;
    j->waiter = waiter;
    j->by = by;
    for (int side = 0; side < 2; side++)
        snprintf(j->player[side], STORE_PLAYER_LEN, "%s", player[side]);
    if (by)
        by->records++;
    C->records_out++;
    core_slow_submit(C, j);
    *handle = j;
    return m->status = CORE_PENDING;
}

/* The slow thread's queue is shared fairly between client addresses (round
 * robin): a job's round is how many jobs of its address wait before it, and
 * it goes after every job of its round or an earlier one, so one address's
 * second job waits behind everyone else's first. */
void core_slow_submit(core *C, job *j)
{
    j->server = C;
    pthread_mutex_lock(&C->rlock);
    j->next = NULL;
    j->round = 0;
    job *after = NULL;
    for (job *q = C->rq_head; q && j->by; q = q->next)
        j->round += q->by == j->by;
    for (job *q = C->rq_head; q; q = q->next)
        if (q->round <= j->round)
            after = q;
    if (!after) {
        j->next = C->rq_head;
        C->rq_head = j;
    } else {
        j->next = after->next;
        after->next = j;
    }
    if (!j->next)
        C->rq_tail = j;
    pthread_cond_signal(&C->rcond);
    pthread_mutex_unlock(&C->rlock);
}

static core_status create_game(core *C, tav_session *s, const char *const player[2], peer *by,
                               int local, const game *seats_of, core_made *m);


/* A record checked: make its game (the waiter may have gone: then not). */
static void record_made(core *C, job *j)
{
    core_made m;
    memset(&m, 0, sizeof m);
    if (!j->made) {
        m.status = CORE_BAD;
        snprintf(m.err, sizeof m.err, "%s", j->err);
    } else {
        const char *player[2] = {j->player[0], j->player[1]};
        if ((m.status = creation_allowed(C, j->by, player, m.err, sizeof m.err)) == CORE_OK) {
            tav_session *s = j->made;
            j->made = NULL;
            create_game(C, s, player, j->by, 0, NULL, &m);
        }
    }
    if (C->ev.record_done)
        C->ev.record_done(C->ev.ctx, j->waiter, &m);
    sodium_memzero(m.tokens, sizeof m.tokens);
}

/* ---- answers from the workers ---- */

static void drain_move(core *C, job *j)
{
    game *g = j->g;
    if (j->cpu)
        C->cpu_running--;
    if (g->job == j)
        g->job = NULL;
    if (!j->stale && j->answer.status == TAV_OK && tav_session_ply(g->s) == j->ply &&
        computer_to_act(g)) {
        char err[256];
        if (commit_move(C, g, j->answer.best_text, err, sizeof err) == TAV_OK)
            after_change(C, g);
        else
            core_log(C, "error: game %s: computer move %s: %s", g->id, j->answer.best_text, err);
    } else if (!j->stale && j->answer.status != TAV_OK && j->answer.status != TAV_E_CANCELLED) {
        core_log(C, "error: game %s: search failed: %s", g->id, tav_status_str(j->answer.status));
    } else {
        kick(C, g);
    }
}

/* A batch of writes failed: nothing of it is on disk.  A game it created
 * leaves memory (nobody was told its id); a game it changed is read back
 * from the store and its viewers told again. */
static void batch_failed(core *C, game *g, int created)
{
    if (created) {
        g->dead = 1;
        snprintf(g->end, sizeof g->end, "abort");   /* never on anyone's clock */
        clock_list(C, g);
        if (g->job) {
            cancel(C, g->job);
            g->job = NULL;
        }
        if (g->owner) {
            g->owner->cpu_games--;
            g->owner = NULL;
        }
        return;
    }
    if (g->dead || g->unsaved > 0)
        return;   /* read back once its last write is settled */
    refresh_game(C, g, 1);
}

/* A hint's answer for its waiter. */
static void hint_made(core *C, job *j)
{
    core_answer h;
    memset(&h, 0, sizeof h);
    if (j->answer.status == TAV_OK && tav_session_ply(j->g->s) == j->ply) {
        h.status = CORE_OK;
        snprintf(h.move, sizeof h.move, "%s", j->answer.best_text);
        h.value = j->answer.value;
    } else {
        h.status = CORE_CONFLICT;
        snprintf(h.err, sizeof h.err, "the position changed before a hint was found");
    }
    if (C->ev.hint_done)
        C->ev.hint_done(C->ev.ctx, j->waiter, &h);
}

static void batch_failed(core *C, game *g, int created);

void core_drain(core *C)
{
    writer_drain(C, batch_failed);
    pthread_mutex_lock(&C->qlock);
    if (!C->done_head) {
        pthread_mutex_unlock(&C->qlock);
        return;
    }
    job *list = C->done_head;
    C->done_head = C->done_tail = NULL;
    pthread_mutex_unlock(&C->qlock);
    while (list) {
        job *j = list;
        list = j->next;
        unwatch(C, j);
        if (j->g)
            j->g->jobs_out--;
        if (j->kind == JOB_HINT) {
            j->g->hints--;
            if (j->by)
                j->by->hints--;
        } else if (j->kind == JOB_RECORD) {
            C->records_out--;
            if (j->by)
                j->by->records--;
        }
        if (j->done) {
            j->done(C, j);   /* frees it */
            continue;
        }
        if (C->stopping) {
            if (j->made)
                tav_session_free(j->made);
            free(j->text);
            free(j);
            continue;
        }
        if (j->kind == JOB_MOVE)
            drain_move(C, j);
        else if (j->kind == JOB_HINT && j->waiter)
            hint_made(C, j);
        else if (j->kind == JOB_RECORD && j->waiter)
            record_made(C, j);
        else if (j->kind == JOB_ANALYSIS)
            analysis_answer(C, j);
        if (j->made)
            tav_session_free(j->made);   /* not taken: its request went away */
        free(j->text);
        free(j);
    }
}

/* A search that overruns its budget by far, counted from when it began to
 * run (not from when it was queued), is cancelled and started again: the
 * game must go on even if one search goes wrong.  Computer-only games that
 * have waited their pace take their turns. */
static void sweep(core *C);

/* The test clock (--test-clock FILE, tests only): the file's first line
 * starts with an offset in ms (what follows it, e.g. a sequence number, is
 * the test's own), read on every tick; once a new line is in force it is
 * written back to FILE.ack.PID (whole, by a rename; PID this process's, so
 * that each of several instances says so), and a test waits for its
 * own line there instead of guessing when the server read it.  Clocks are
 * judged right after. */
static void test_clock_read(core *C)
{
    FILE *f = fopen(C->cf.clock_file, "r");
    if (!f)
        return;
    char line[sizeof C->clock_line];
    int ok = fgets(line, sizeof line, f) != NULL;
    fclose(f);
    long long off = 0;
    if (!ok || strcmp(line, C->clock_line) == 0 || sscanf(line, "%lld", &off) != 1)
        return;
    memcpy(C->clock_line, line, sizeof line);
    C->time_offset_ms = off;
    char path[4096], tmp[4096 + 8];
    if (snprintf(path, sizeof path, "%s.ack.%ld", C->cf.clock_file, (long)getpid()) >= (int)sizeof path)
        return;
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    FILE *a = fopen(tmp, "w");
    if (!a)
        return;
    int w = fputs(line, a) >= 0;
    if (fclose(a) == 0 && w)
        rename(tmp, path);
}

void core_tick(core *C)
{
    core_drain(C);
    double now = tav_now();
    job *j = C->running;
    while (j) {
        job *next = j->wnext;
        double began = C->svc ? tav_service_started(C->svc, j->handle) : 0;
        if (began > 0 && now - began > (double)j->budget_ms / 1000.0 * 2 + 2.0) {
            game *g = j->g;
            core_log(C, "error: game %s: search overran its time, started again", g->id);
            cancel(C, j);
            if (g->job == j) {
                g->job = NULL;
                kick(C, g);
            }
        }
        j = next;
    }
    cpu_pump(C);
    if (C->cf.clock_file)
        test_clock_read(C);
    core_presence_tick(C);
    if (C->clocked)
        clock_tick(C);
    int64_t sec = core_unix_ms() / 1000;
    if (sec - C->last_sweep >= (C->cf.idle_secs < 5 ? 1 : 5)) {
        C->last_sweep = sec;
        sweep(C);
    }
}

/* Games nobody uses leave memory; the store keeps them. */
static void sweep(core *C)
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

/* ---- requests ---- */

core_status core_hint(core *C, game *g, const core_cred *who, peer *by, void *waiter,
                      job **handle, char *err, size_t errlen)
{
    *handle = NULL;
    int side = core_side_of(g, who);
    if (side < 0) {
        snprintf(err, errlen, "not a seat of this game");
        return CORE_FORBIDDEN;
    }
    if (!core_help_allowed(g)) {
        snprintf(err, errlen, g->rated ? "no engine help in a rated game until it is over" :
                              "no engine help in a game between two people until it is over "
                              "(fair play; a game for two people at one screen is created with "
                              "\"local\": true)");
        return CORE_FORBIDDEN;
    }
    if (tav_session_to_move(g->s) != side) {
        snprintf(err, errlen, "it is not your turn");
        return CORE_CONFLICT;
    }
    if (g->hints > 0) {
        snprintf(err, errlen, "a hint for this game is being searched already");
        return CORE_LIMIT;
    }
    if (by && peer_limited(C, by) && by->hints >= CORE_HINTS_PER_ADDR) {
        snprintf(err, errlen, "at most %d hints at once per address", CORE_HINTS_PER_ADDR);
        return CORE_LIMIT;
    }
    tav_budget b;
    seat_budget(tav_session_game(g->s), 5, C->cf.ai_ms, &b);
    job *j = submit(C, JOB_HINT, g, g->s, "ai", &b, PRIO_HINT);
    if (!j) {
        snprintf(err, errlen, "no hint for this position");
        return CORE_CONFLICT;
    }
    j->waiter = waiter;
    j->by = by;
    g->hints++;
    if (by)
        by->hints++;
    *handle = j;
    return CORE_PENDING;
}

void core_abandon(core *C, job *j)
{
    j->waiter = NULL;
    if (j->kind != JOB_RECORD)
        cancel(C, j);
}

core_status core_move(core *C, game *g, const core_cred *who, const char *move, int ply,
                      char *err, size_t errlen)
{
    int side = core_side_of(g, who);
    if (C->shared && ply > tav_session_ply(g->s) && g->unsaved && !g->dead) {
        /* A ply this copy does not know while writes of its own wait: the
         * store is asked once they settle (never a stale refusal unchecked);
         * the edge asks again then. */
        snprintf(err, errlen, "the game is being stored: try again");
        return CORE_AGAIN;
    }
    if (C->shared && ply != tav_session_ply(g->s) && !g->unsaved && !g->dead) {
        /* Many instances: another may have moved a moment ago (its message
         * not yet here): the store says. */
        if (refresh_game(C, g, 0) != 0) {
            snprintf(err, errlen, "the game could not be read: try again");
            return CORE_UNAVAILABLE;
        }
    }
    int now = tav_session_ply(g->s);
    tav_result res;
    tav_session_result(g->s, &res);
    if (side < 0) {
        snprintf(err, errlen, "not a seat of this game");
        return CORE_FORBIDDEN;
    }
    if (ply < now && ply >= 0) {
        /* A retry of a move already played answers as the first time. */
        if (strcmp(tav_session_move_text(g->s, ply), move) == 0 && core_mover_at(g, ply) == side)
            return CORE_OK;
        snprintf(err, errlen, "stale ply %d: %d moves were played", ply, now);
        return CORE_CONFLICT;
    }
    if (ply != now) {
        snprintf(err, errlen, "stale ply %d: %d moves were played", ply, now);
        return CORE_CONFLICT;
    }
    int noshow = 0;
    int fell = flag_fallen(g, core_game_ms(C), &noshow);
    if (fell >= 0) {
        flag(C, g, fell, noshow);
        snprintf(err, errlen, noshow ? "the first move came too late: the game is aborted"
                                     : "time is up: the game is over");
        return CORE_CONFLICT;
    }
    if (res.over || g->end[0]) {
        snprintf(err, errlen, "the game is over");
        return CORE_CONFLICT;
    }
    if (tav_session_to_move(g->s) != side) {
        snprintf(err, errlen, "it is not your turn");
        return CORE_CONFLICT;
    }
    if (now >= CORE_PLIES_MAX) {
        snprintf(err, errlen, "a game on this server has at most %d moves", CORE_PLIES_MAX);
        return CORE_CONFLICT;
    }
    err[0] = 0;
    int st = commit_move(C, g, move, err, errlen);
    if (st == TAV_OK) {
        after_change(C, g);
        return CORE_OK;
    }
    if (st == TAV_E_NOMEM)
        return CORE_UNAVAILABLE;
    /* The session's message names the move and says why. */
    if (!err[0])
        snprintf(err, errlen, "illegal move");
    return CORE_CONFLICT;
}

core_status core_resign(core *C, game *g, const core_cred *who, char *err, size_t errlen)
{
    int side = core_side_of(g, who);
    if (side < 0) {
        snprintf(err, errlen, "not a seat of this game");
        return CORE_FORBIDDEN;
    }
    if (g->end[0] || tav_session_resign(g->s, side) != TAV_OK) {
        snprintf(err, errlen, "the game is over");
        return CORE_CONFLICT;
    }
    if (wq_result(C, g, STORE_OVER, side) != 0) {
        tav_session_undo(g->s);
        snprintf(err, errlen, "the resignation could not be stored");
        return CORE_UNAVAILABLE;
    }
    changed(g);
    finished(C, g);
    after_change(C, g);
    return CORE_OK;
}

/* Abort (SPEC): before both sides have moved, either side may end the game,
 * unrated, with no winner. */
core_status core_abort(core *C, game *g, const core_cred *who, char *err, size_t errlen)
{
    int side = core_side_of(g, who);
    if (side < 0) {
        snprintf(err, errlen, "not a seat of this game");
        return CORE_FORBIDDEN;
    }
    if (core_over(g)) {
        snprintf(err, errlen, "the game is over");
        return CORE_CONFLICT;
    }
    int moved[2] = {0, 0};
    for (int i = 0; i < tav_session_ply(g->s); i++) {
        int m = core_mover_at(g, i);
        if (m == TAV_WHITE || m == TAV_BLACK)
            moved[m] = 1;
    }
    if (moved[0] && moved[1]) {
        snprintf(err, errlen, "both sides have moved: too late to abort (resign instead)");
        return CORE_CONFLICT;
    }
    if (end_by_server(C, g, "abort", TAV_NONE) != 0) {
        snprintf(err, errlen, "the abort could not be stored");
        return CORE_UNAVAILABLE;
    }
    after_change(C, g);
    return CORE_OK;
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
        changed(g);
        tell(C, g);
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
        if (offer_counted(C, g->account[side]) != 0) {
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
            if (end_by_server(C, g, "agreement", TAV_DRAW) != 0) {
                snprintf(err, errlen, "the draw could not be stored");
                return CORE_UNAVAILABLE;
            }
            offers_write(C, g, -1, -1);   /* nothing stays offered in a finished game */
            after_change(C, g);
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
    changed(g);
    after_change(C, g);
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
    changed(g);
    after_change(C, g);
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
    int status = store_status(g);
    g->s = old;
    if (wq_truncate(C, g, k, status) != 0) {
        tav_session_free(copy);
        snprintf(err, errlen, "the undo could not be stored");
        return -1;
    }
    if (g->job) {
        cancel(C, g->job);
        g->job = NULL;
    }
    tav_session_free(g->s);
    g->s = copy;
    g->last_ms = core_game_ms(C);
    if (clocked(g))
        clock_rebuild(g);
    return 0;
}

/* The server keeps games short enough to replay at once: an option
 * maxplies=N above CORE_PLIES_MAX is refused.  0 or -1. */
static int plies_ok(const char *options)
{
    const char *p = options;
    while ((p = strstr(p, "maxplies="))) {
        if (p == options || p[-1] == ' ' || p[-1] == '\t') {
            char *end = NULL;
            long v = strtol(p + 9, &end, 10);
            if (end == p + 9 || v > CORE_PLIES_MAX || v < 0 || (end - (p + 9)) > 7)
                return -1;
        }
        p += 9;
    }
    return 0;
}

tav_session *core_new_session(const char *name, const char *options, char *err, size_t errlen)
{
    uint64_t seed;
    randombytes_buf(&seed, sizeof seed);
    tav_session *s = NULL;
    return tav_session_new(&s, name, options, seed, err, errlen) == TAV_OK ? s : NULL;
}

int core_help_allowed(const game *g)
{
    if (g->rated)
        return core_over(g);   /* no engine help in a rated game, against anyone */
    if (!g->human[0] || !g->human[1] || g->local)
        return 1;
    return core_over(g);
}

core_status core_create(core *C, peer *by, const char *name, const char *options,
                        const char *const player[2], int local, core_made *m)
{
    memset(m, 0, sizeof *m);
    if (!tav_game_find(name)) {
        snprintf(m->err, sizeof m->err, "unknown game '%.32s'", name);
        return m->status = CORE_BAD;
    }
    if (!core_player_ok(player[0]) || !core_player_ok(player[1])) {
        snprintf(m->err, sizeof m->err, "%s", players_msg);
        return m->status = CORE_BAD;
    }
    if (plies_ok(options) != 0) {
        snprintf(m->err, sizeof m->err, "maxplies is at most %d on this server", CORE_PLIES_MAX);
        return m->status = CORE_BAD;
    }
    if ((m->status = creation_allowed(C, by, player, m->err, sizeof m->err)) != CORE_OK)
        return m->status;
    tav_session *s = core_new_session(name, options, m->err, sizeof m->err);
    if (!s)
        return m->status = CORE_BAD;
    return create_game(C, s, player, by, local, NULL, m);
}

/* The accounts the computer levels play rated games as (their ratings),
 * made at the first start: no password opens them. */
static int computer_accounts(core *C, char *err, size_t errlen)
{
    for (int level = 1; level <= 10; level++) {
        store_account a;
        memset(&a, 0, sizeof a);
        snprintf(a.name, sizeof a.name, "Computer-%d", level);
        int found = C->st->ops->get_account(C->st, a.name, &a, err, errlen);
        if (found < 0)
            return -1;
        if (found)
            continue;
        snprintf(a.pwhash, sizeof a.pwhash, "!");
        a.created = core_unix_ms() / 1000;
        if (C->st->ops->create_account(C->st, &a, err, errlen) == 0 &&
            store_flush(C->st, err, errlen) == 0)
            continue;
        store_discard(C->st);
        /* Another instance starting at the same moment made it first. */
        store_account b;
        if (C->st->ops->get_account(C->st, a.name, &b, err, errlen) != 1)
            return -1;
    }
    err[0] = 0;
    return 0;
}

/* The account a computer level plays as (its rating): "Computer-N". */
int core_computer_account(const char *player, char out[STORE_NAME_LEN])
{
    char name[32];
    int level = 0;
    if (tav_player_parse(player, name, sizeof name, &level) != TAV_OK || strcmp(name, "ai") != 0 ||
        level <= 0)
        return 0;
    snprintf(out, STORE_NAME_LEN, "Computer-%d", level);
    return 1;
}

core_status core_create_rated(core *C, peer *by, const char *name, const char *options,
                              const char *const player[2], const char *account,
                              const store_seek *clock, core_made *m)
{
    memset(m, 0, sizeof *m);
    int human = strcmp(player[0], "human") == 0 ? 0 : strcmp(player[1], "human") == 0 ? 1 : -1;
    char cpu[STORE_NAME_LEN];
    if (human < 0 || strcmp(player[1 - human], "human") == 0 ||
        !core_computer_account(player[1 - human], cpu)) {
        snprintf(m->err, sizeof m->err, "a rated game is against a computer level (\"ai:level=N\") "
                                        "or between accounts (the lobby)");
        return m->status = CORE_BAD;
    }
    if (!account || !account[0]) {
        snprintf(m->err, sizeof m->err, "sign in to play rated");
        return m->status = CORE_FORBIDDEN;
    }
    if (!clock || (!clock->initial && !clock->days) || !lobby_clock_ok(clock)) {
        /* SPEC "Consent and fair endings": a rated game needs a clock. */
        snprintf(m->err, sizeof m->err,
                 !clock || (!clock->initial && !clock->days)
                     ? "a rated game needs a clock"
                     : "a clock is {\"initial\": 30..10800, \"increment\": 0..180} seconds, "
                       "or {\"days\": 1, 2, 3, 5, 7 or 14}");
        return m->status = CORE_BAD;
    }
    /* The account's unfinished rated games against the computer in memory
     * (a game in play with a computer seat stays there while it runs). */
    int mine = 0;
    for (int h = 0; h < CORE_HASH_SIZE; h++)
        for (game *g = C->games[h]; g; g = g->hnext)
            mine += !core_over(g) && !g->dead && (!g->human[0] || !g->human[1]) &&
                    (strcasecmp(g->account[0], account) == 0 ||
                     strcasecmp(g->account[1], account) == 0);
    if (mine >= CORE_CPU_GAMES_PER_ACCOUNT) {
        snprintf(m->err, sizeof m->err, "at most %d unfinished rated games against the computer "
                                        "at once per account", CORE_CPU_GAMES_PER_ACCOUNT);
        return m->status = CORE_LIMIT;
    }
    if (!tav_game_find(name) || plies_ok(options) != 0) {
        snprintf(m->err, sizeof m->err, "unknown game '%.32s' or options", name);
        return m->status = CORE_BAD;
    }
    if ((m->status = creation_allowed(C, by, player, m->err, sizeof m->err)) != CORE_OK)
        return m->status;
    tav_session *s = core_new_session(name, options, m->err, sizeof m->err);
    if (!s)
        return m->status = CORE_BAD;
    /* Options anyone may see: a rated game is not played on a chosen deal. */
    char pub[1024];
    tav_session_public_options(s, pub, sizeof pub);
    if (strcmp(pub, tav_session_options(s)) != 0) {
        tav_session_free(s);
        snprintf(m->err, sizeof m->err, "a rated game's options are public: no chosen deal");
        return m->status = CORE_BAD;
    }
    const char *acc[2];
    acc[human] = account;
    acc[1 - human] = cpu;
    return create_game_as(C, s, player, by, 0, NULL, acc, 1, clock, m);
}

/* A rematch of a finished game (docs/server-api.md): colours swapped, the
 * same players, options and screen, a new deal; each person's seat token
 * is their seat in the new game too.  Made once: asked again (by either
 * side) it is the same game. */

core_status core_rematch(core *C, game *g, const core_cred *who, peer *by, core_made *m)
{
    memset(m, 0, sizeof *m);
    int side = core_side_of(g, who);
    if (side < 0) {
        snprintf(m->err, sizeof m->err, "not a seat of this game");
        return m->status = CORE_FORBIDDEN;
    }
    if (!core_over(g)) {
        snprintf(m->err, sizeof m->err, "the game is not over");
        return m->status = CORE_CONFLICT;
    }
    if (g->rematch[0]) {
        m->g = core_get(C, g->rematch);
        if (!m->g) {
            snprintf(m->err, sizeof m->err, "the rematch could not be read");
            return m->status = CORE_UNAVAILABLE;
        }
        return m->status = CORE_OK;
    }
    /* Between two people's accounts a rematch is an offer (SPEC "Consent
     * and fair endings"): the first to ask offers it, nothing is made; the
     * other asking accepts it.  Nobody is seated in a game they did not
     * agree to. */
    int consent = g->human[0] && g->human[1] && g->account[0][0] && g->account[1][0];
    if (consent && g->rematch_offer != 1 - side) {
        if (g->rematch_offer == side)
            return m->status = CORE_OFFERED;   /* offered already */
        if (g->spent[2] & (1 << side)) {
            snprintf(m->err, sizeof m->err, "your rematch offer in this game was withdrawn or declined: it is not made again");
            return m->status = CORE_CONFLICT;
        }
        if (offer_counted(C, g->account[side]) != 0) {
            snprintf(m->err, sizeof m->err, "too many offers: at most %d a minute",
                     CORE_OFFERS_PER_WINDOW);
            return m->status = CORE_LIMIT;
        }
        offer_keep k = offers_keep(g);
        g->rematch_offer = side;
        if (offers_store(C, g, &k) != 0) {
            snprintf(m->err, sizeof m->err, "the offer could not be stored");
            return m->status = CORE_UNAVAILABLE;
        }
        changed(g);
        tell(C, g);
        return m->status = CORE_OFFERED;
    }
    const char *player[2] = {g->player[1], g->player[0]};
    if ((m->status = creation_allowed(C, by, player, m->err, sizeof m->err)) != CORE_OK)
        return m->status;
    /* The options anyone may see: a chosen Toscana deal is not dealt again. */
    char opts[1024];
    tav_session_public_options(g->s, opts, sizeof opts);
    tav_session *s = core_new_session(tav_session_game(g->s)->name, opts, m->err, sizeof m->err);
    if (!s)
        return m->status = CORE_BAD;
    core_status st;
    if (g->account[0][0] || g->account[1][0]) {
        /* Between accounts: the accounts swap colours, the clock and
         * rating stay as they were. */
        const char *acc[2] = {g->account[1], g->account[0]};
        store_seek clock;
        memset(&clock, 0, sizeof clock);
        clock.initial = g->clk_initial_ms / 1000;
        clock.increment = g->clk_inc_ms / 1000;
        clock.days = g->clk_days;
        memset(m, 0, sizeof *m);
        st = create_game_as(C, s, player, by, 0, NULL, acc, g->rated, &clock, m);
    } else {
        st = create_game(C, s, player, by, g->local, g, m);
    }
    if (st != CORE_CREATED)
        return st;
    if (wq_rematch(C, g, m->g->id) != 0) {
        /* The new game is on its way to the disk but the link is not: it
         * stays an ordinary game, and the request is refused. */
        snprintf(m->err, sizeof m->err, "the rematch could not be stored");
        m->g = NULL;
        return m->status = CORE_UNAVAILABLE;
    }
    memcpy(g->rematch, m->g->id, sizeof g->rematch);
    if (g->rematch_offer >= 0) {
        offer_keep k = offers_keep(g);
        g->rematch_offer = -1;   /* accepted: the game says its rematch instead */
        if (offers_store(C, g, &k) != 0)
            core_log(C, "error: game %s: the accepted offer could not be cleared", g->id);
    }
    changed(g);
    after_change(C, g);
    return st;
}

/* A new game (create or record upload): stored first, then kept.  A
 * computer-only game counts against the address that made it until it ends.
 * Takes s over (freed on failure). */

static core_status create_game(core *C, tav_session *s, const char *const player[2], peer *by,
                               int local, const game *seats_of, core_made *m)
{
    return create_game_as(C, s, player, by, local, seats_of, NULL, 0, NULL, m);
}

/* A game between two accounts (the lobby): no seat tokens, the accounts are
 * the seats.  Takes s over. */
core_status core_create_accounts(core *C, tav_session *s, const char *const account[2], int rated,
                                 const store_seek *clock, core_made *m)
{
    memset(m, 0, sizeof *m);
    const char *player[2] = {"human", "human"};
    return create_game_as(C, s, player, NULL, 0, NULL, account, rated, clock, m);
}

static core_status create_game_as(core *C, tav_session *s, const char *const player[2], peer *by,
                                  int local, const game *seats_of, const char *const *account,
                                  int rated, const store_seek *clock, core_made *m)
{
    game *g = calloc(1, sizeof *g);
    store_move *moves = NULL;
    int n = tav_session_ply(s);
    if (!g || (n > 0 && !(moves = calloc((size_t)n, sizeof *moves)))) {
        free(g);
        tav_session_free(s);
        snprintf(m->err, sizeof m->err, "out of memory");
        return m->status = CORE_UNAVAILABLE;
    }
    do
        core_random_b64(g->id, 9);
    while (find_loaded(C, g->id));
    g->s = s;
    store_game sg;
    memset(&sg, 0, sizeof sg);
    memcpy(sg.id, g->id, sizeof sg.id);
    snprintf(sg.game, sizeof sg.game, "%s", tav_session_game(s)->name);
    sg.options = (char *)(uintptr_t)tav_session_options(s);
    sg.seed = tav_session_seed(s);
    sg.created = core_unix_ms() / 1000;
    sg.resigned = -1;
    for (int side = 0; side < 2; side++) {
        snprintf(g->player[side], STORE_PLAYER_LEN, "%s", player[side]);
        memcpy(sg.player[side], g->player[side], STORE_PLAYER_LEN);
        m->tokens[side][0] = 0;
        if (account && account[side] && account[side][0]) {
            /* A person's account is the seat (no token); a computer level's
             * account only carries its rating. */
            snprintf(g->account[side], STORE_NAME_LEN, "%s", account[side]);
            memcpy(sg.account[side], g->account[side], STORE_NAME_LEN);
            g->human[side] = strcmp(player[side], "human") == 0;
        } else if (strcmp(player[side], "human") == 0) {
            if (seats_of) {
                /* A rematch: each person keeps their token, on the other side. */
                memcpy(g->seat_hash[side], seats_of->seat_hash[1 - side], STORE_HASH_LEN);
            } else {
                core_random_b64(m->tokens[side], 32);
                core_token_hash(m->tokens[side], g->seat_hash[side]);
            }
            g->human[side] = 1;
            sg.has_seat[side] = 1;
            memcpy(sg.seat_hash[side], g->seat_hash[side], STORE_HASH_LEN);
        }
    }
    g->cpu_only = !g->human[0] && !g->human[1];
    g->local = local && g->human[0] && g->human[1];
    sg.local = g->local;
    g->draw_offer = g->takeback_offer = g->rematch_offer = g->absent = -1;
    sg.draw_offer = sg.takeback_offer = -1;
    g->rated = sg.rated = rated && account;
    sg.status = store_status(g);
    int64_t now = core_game_ms(C);
    sg.started_ms = g->started_ms = now;
    if (clock) {
        sg.clock_initial = clock->initial;
        sg.clock_increment = clock->increment;
        sg.clock_days = clock->days;
        g->clk_initial_ms = clock->initial * 1000;
        g->clk_inc_ms = clock->increment * 1000;
        g->clk_days = clock->days;
        g->left_ms[0] = g->left_ms[1] = g->clk_initial_ms;
    }
    for (int i = 0; i < n; i++) {
        moves[i].text = tav_session_move_text(s, i);
        moves[i].ms = tav_session_move_ms(s, i);
        moves[i].time = now;
    }
    int rc = wq_create(C, g, &sg, moves, n);
    free(moves);
    if (rc != 0) {
        snprintf(m->err, sizeof m->err, "the game could not be stored");
        sodium_memzero(m->tokens, sizeof m->tokens);
        tav_session_free(s);
        free(g);
        return m->status = CORE_UNAVAILABLE;
    }
    g->last_ms = now;
    changed(g);
    insert_game(C, g);
    clock_list(C, g);
    if (by) {
        int64_t hour = now / 3600000;
        if (by->hour != hour) {
            by->hour = hour;
            by->games_hour = 0;
        }
        by->games_hour++;
    }
    tav_result r;
    tav_session_result(s, &r);
    if (g->cpu_only && !r.over && by) {
        g->owner = by;
        by->cpu_games++;
    }
    if (r.over)
        finished(C, g);
    else
        kick(C, g);
    m->g = g;
    return m->status = CORE_CREATED;
}


void core_stop(core *C)
{
    C->stopping = 1;
    for (int h = 0; h < CORE_HASH_SIZE; h++)
        for (game *g = C->games[h]; g; g = g->hnext)
            if (g->job) {
                cancel(C, g->job);
                g->job = NULL;
            }
    if (C->an_job)
        cancel(C, C->an_job);
    writer_stop(C, batch_failed);   /* what is still open is committed first */
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
    writer_free(C);
    store_close(C->st);
    pthread_mutex_destroy(&C->qlock);
    pthread_mutex_destroy(&C->rlock);
    pthread_cond_destroy(&C->rcond);
    free(C);
}
