/*
 * game.c — the games the server holds: loading from the store, playing,
 * computer seats, hints and analyses through the search service.
 *
 * A game is a tav_session plus its seats.  It is loaded from the store on
 * first use (and at start every unfinished game whose computer seat is to
 * act) by replaying its moves, and leaves memory again once nobody has used
 * it for SRV_GAME_IDLE_SECS (games_sweep).  Every change is written to the
 * store before anyone is told about it.
 *
 * Searches are scheduled by priority (a computer seat someone plays
 * against first, then hints, analyses, and computer-only games last); a
 * computer-only game moves at most once per `pace_ms` (--pace) and at most
 * `cpu_cap` of them search at once, so they leave room for people.
 *
 * Searches never run on the loop: tav_service_submit hands the position to
 * a worker; job_done (worker thread) queues the answer and wakes the loop,
 * which plays it in games_drain only if the game is still at the ply the
 * search started from.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <libwebsockets.h>
#include <sodium.h>

#include "server/srv.h"

int64_t srv_unix_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

void srv_log(const srv *S, const char *fmt, ...)
{
    if (S && S->quiet)
        return;
    char line[600];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    time_t t = time(NULL);
    struct tm tm;
    gmtime_r(&t, &tm);
    fprintf(stderr, "%04d-%02d-%02dT%02d:%02d:%02dZ %s\n", tm.tm_year + 1900, tm.tm_mon + 1,
            tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec, line);
}

void srv_random_b64(char *out, size_t nbytes)
{
    unsigned char buf[64];
    if (nbytes > sizeof buf)
        nbytes = sizeof buf;
    randombytes_buf(buf, nbytes);
    sodium_bin2base64(out, sodium_base64_ENCODED_LEN(nbytes, sodium_base64_VARIANT_URLSAFE_NO_PADDING),
                      buf, nbytes, sodium_base64_VARIANT_URLSAFE_NO_PADDING);
    sodium_memzero(buf, sizeof buf);
}

void srv_token_hash(const char *token, unsigned char hash[STORE_HASH_LEN])
{
    static const unsigned char key[] = "tavoliere seat token v1";
    crypto_generichash(hash, STORE_HASH_LEN, (const unsigned char *)token, strlen(token), key,
                       sizeof key - 1);
}

int game_seat(const game *g, const char *token)
{
    if (!token || strlen(token) != SRV_TOKEN_LEN)
        return -1;
    unsigned char h[STORE_HASH_LEN];
    srv_token_hash(token, h);
    int seat = -1;
    /* Compare with both seats, in constant time. */
    for (int side = 0; side < 2; side++)
        if (g->human[side] && sodium_memcmp(h, g->seat_hash[side], STORE_HASH_LEN) == 0)
            seat = side;
    return seat;
}

int game_mover_at(const game *g, int ply)
{
    const void *st = tav_session_state_at(g->s, ply);
    return st ? tav_session_game(g->s)->to_move(st) : TAV_NONE;
}

/* ---- the table of games ---- */

static unsigned hash_id(const char *id)
{
    unsigned h = 2166136261u;
    for (; *id; id++)
        h = (h ^ (unsigned char)*id) * 16777619u;
    return h % SRV_HASH_SIZE;
}

static game *find_loaded(srv *S, const char *id)
{
    for (game *g = S->games[hash_id(id)]; g; g = g->hnext)
        if (strcmp(g->id, id) == 0)
            return g;
    return NULL;
}

static void insert_game(srv *S, game *g)
{
    unsigned h = hash_id(g->id);
    g->hnext = S->games[h];
    S->games[h] = g;
    S->ngames++;
}

static void game_free(game *g)
{
    for (int k = 0; k < 3; k++)
        free(g->json[k]);
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

static void kick(srv *S, game *g);
static void finished(srv *S, game *g);

/* Whether the side to act is a computer seat. */
static int computer_to_act(const game *g)
{
    int side = tav_session_to_move(g->s);
    return (side == TAV_WHITE || side == TAV_BLACK) && !g->human[side];
}

/* The status the store keeps for g now. */
static int store_status(const game *g)
{
    tav_result r;
    tav_session_result(g->s, &r);
    return r.over ? STORE_OVER : computer_to_act(g) ? STORE_COMPUTER : STORE_PLAYING;
}

/* The session changed: every cached JSON is out of date. */
static void changed(game *g)
{
    g->version++;
    g->touched = srv_unix_ms() / 1000;
}

unsigned long game_stamp(const game *g)
{
    return g->version * 2 + (g->job != NULL);
}

static int viewer_slot(int viewer)
{
    return viewer == TAV_WHITE ? 0 : viewer == TAV_BLACK ? 1 : 2;
}

const char *game_json(game *g, int viewer, size_t *len)
{
    int k = viewer_slot(viewer);
    unsigned long stamp = game_stamp(g);
    if (!g->json[k] || g->jstamp[k] != stamp) {
        char *text = json_game(g, viewer);
        if (!text)
            return NULL;
        free(g->json[k]);
        g->json[k] = text;
        g->jlen[k] = strlen(text);
        g->jstamp[k] = stamp;
    }
    if (len)
        *len = g->jlen[k];
    return g->json[k];
}

typedef struct replay_ctx {
    game *g;
    int64_t last;
} replay_ctx;

/* Replay one stored move into the session. */
static int replay_move(void *ctx, int ply, const store_move *m)
{
    replay_ctx *rc = ctx;
    char err[256];
    if (tav_session_play_text(rc->g->s, m->text, err, sizeof err) != TAV_OK)
        return -1;
    tav_session_set_move_ms(rc->g->s, ply, m->ms);
    rc->last = m->time;
    return 0;
}

/* Rebuild a game from the store: NULL when unknown or damaged. */
static game *load_game(srv *S, const char *id)
{
    store_game sg;
    char err[256];
    game *g = calloc(1, sizeof *g);
    if (!g)
        return NULL;
    /* The session must exist before moves replay: read the row first. */
    int found = store_load_game(S->st, id, &sg, NULL, NULL, err, sizeof err);
    if (found <= 0) {
        if (found < 0)
            srv_log(S, "error: %s", err);
        free(g);
        return NULL;
    }
    if (tav_session_new(&g->s, sg.game, sg.options, sg.seed, err, sizeof err) != TAV_OK) {
        srv_log(S, "error: game %s: %s", id, err);
        store_game_done(&sg);
        free(g);
        return NULL;
    }
    store_game_done(&sg);
    replay_ctx rc = {g, sg.created * 1000};
    found = store_load_game(S->st, id, &sg, replay_move, &rc, err, sizeof err);
    if (found <= 0) {
        srv_log(S, "error: %s", found < 0 ? err : "game vanished");
        tav_session_free(g->s);
        free(g);
        return NULL;
    }
    snprintf(g->id, sizeof g->id, "%s", sg.id);
    for (int side = 0; side < 2; side++) {
        memcpy(g->player[side], sg.player[side], STORE_PLAYER_LEN);
        g->human[side] = sg.has_seat[side];
        memcpy(g->seat_hash[side], sg.seat_hash[side], STORE_HASH_LEN);
    }
    if (sg.resigned == TAV_WHITE || sg.resigned == TAV_BLACK)
        tav_session_resign(g->s, sg.resigned);
    g->cpu_only = !g->human[0] && !g->human[1];
    g->last_ms = rc.last;
    changed(g);
    store_game_done(&sg);
    insert_game(S, g);
    return g;
}

game *game_get(srv *S, const char *id)
{
    game *g = find_loaded(S, id);
    if (g) {
        g->touched = srv_unix_ms() / 1000;
        return g;
    }
    g = load_game(S, id);
    if (g) {
        tav_result r;
        tav_session_result(g->s, &r);
        if (!r.over)
            kick(S, g);
    }
    return g;
}

/* Load every unfinished game at start; computer seats to move resume. */
static void load_unfinished(void *ctx, const char *id)
{
    srv *S = ctx;
    if (!game_get(S, id))
        srv_log(S, "error: game %s could not be loaded", id);
}

static void *record_thread(void *arg);

int games_init(srv *S, char *err, size_t errlen)
{
    pthread_mutex_init(&S->qlock, NULL);
    pthread_mutex_init(&S->rlock, NULL);
    pthread_cond_init(&S->rcond, NULL);
    S->cpu_cap = S->workers > 1 ? S->workers - 1 : 1;
    if (pthread_create(&S->rthread, NULL, record_thread, S) != 0) {
        snprintf(err, errlen, "the record thread failed to start");
        return -1;
    }
    S->rthread_started = 1;
    if (store_each_unfinished(S->st, load_unfinished, S, err, errlen) != 0)
        return -1;
    return 0;
}

/* ---- jobs ---- */

/* Any thread: queue a finished job for the loop and wake it. */
static void done_push(srv *S, job *j)
{
    pthread_mutex_lock(&S->qlock);
    j->next = NULL;
    if (S->done_tail)
        S->done_tail->next = j;
    else
        S->done_head = j;
    S->done_tail = j;
    pthread_mutex_unlock(&S->qlock);
    if (S->ctx)
        lws_cancel_service(S->ctx);
}

/* Worker thread: keep the answer, hand the job back. */
static void job_done(void *ctx, const tav_answer *a)
{
    job *j = ctx;
    j->answer = *a;
    done_push(j->server, j);
}

/* The watchdog's list of computer moves being searched. */
static void watch(srv *S, job *j)
{
    j->wprev = NULL;
    j->wnext = S->running;
    if (S->running)
        S->running->wprev = j;
    S->running = j;
}

static void unwatch(srv *S, job *j)
{
    if (j->kind != JOB_MOVE || (!j->wprev && S->running != j))
        return;
    if (j->wprev)
        j->wprev->wnext = j->wnext;
    else
        S->running = j->wnext;
    if (j->wnext)
        j->wnext->wprev = j->wprev;
    j->wprev = j->wnext = NULL;
}

static job *submit(srv *S, int kind, game *g, const tav_session *s, const char *player,
                   tav_budget *b, int priority)
{
    job *j = calloc(1, sizeof *j);
    if (!j)
        return NULL;
    j->kind = kind;
    j->g = g;
    j->server = S;
    j->ply = tav_session_ply(s);
    j->started = tav_now();
    j->budget_ms = b->movetime_ms;
    b->priority = priority;
    j->handle = tav_service_submit(S->svc, s, player, b, job_done, j);
    if (!j->handle) {
        free(j);
        return NULL;
    }
    g->jobs_out++;
    if (kind == JOB_MOVE)
        watch(S, j);
    return j;
}

static void cancel(srv *S, job *j)
{
    if (!j)
        return;
    unwatch(S, j);
    if (!S->svc)
        return;
    j->stale = 1;
    tav_service_cancel(S->svc, j->handle);
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
static void start_move(srv *S, game *g)
{
    int side = tav_session_to_move(g->s);
    char name[32];
    int level = 0;
    if (tav_player_parse(g->player[side], name, sizeof name, &level) != 0) {
        srv_log(S, "error: game %s: unknown player %s", g->id, g->player[side]);
        return;
    }
    tav_budget b;
    seat_budget(tav_session_game(g->s), level, S->ai_ms, &b);
    g->job = submit(S, JOB_MOVE, g, g->s, name, &b, g->cpu_only ? PRIO_CPU_ONLY : PRIO_SEAT);
    if (!g->job) {
        srv_log(S, "error: game %s: search refused", g->id);
    } else if (g->cpu_only) {
        g->job->cpu = 1;
        S->cpu_running++;
    }
}

/* Computer-only games take turns: at most cpu_cap search at once, each at
 * most once per pace_ms, in the order they became ready. */
static void cpu_pump(srv *S)
{
    int64_t now = srv_unix_ms();
    game *prev = NULL, *g = S->cwait_head;
    while (g && S->cpu_running < S->cpu_cap && !S->stopping) {
        game *next = g->cnext;
        if (now < g->last_ms + S->pace_ms) {
            prev = g;
        } else {
            if (prev)
                prev->cnext = next;
            else
                S->cwait_head = next;
            if (S->cwait_tail == g)
                S->cwait_tail = prev;
            g->cwaiting = 0;
            g->cnext = NULL;
            if (!g->job && computer_to_act(g))
                start_move(S, g);
        }
        g = next;
    }
}

/* If a computer seat is to act and not yet thinking, start its search (a
 * computer-only game waits for its turn among them). */
static void kick(srv *S, game *g)
{
    if (g->job || S->stopping || !computer_to_act(g))
        return;
    if (!g->cpu_only) {
        start_move(S, g);
        return;
    }
    if (!g->cwaiting) {
        g->cwaiting = 1;
        g->cnext = NULL;
        if (S->cwait_tail)
            S->cwait_tail->cnext = g;
        else
            S->cwait_head = g;
        S->cwait_tail = g;
    }
    cpu_pump(S);
}

/* Play a move, store it, and only then keep it.  TAV_OK or the refusal. */
int game_commit_move(srv *S, game *g, const char *text, char *err, size_t errlen)
{
    int ply = tav_session_ply(g->s);
    tav_status st = tav_session_play_text(g->s, text, err, errlen);
    if (st != TAV_OK)
        return st;
    int64_t now = srv_unix_ms();
    int64_t ms = g->last_ms > 0 && now > g->last_ms ? now - g->last_ms : 0;
    tav_session_set_move_ms(g->s, ply, ms);
    tav_result r;
    tav_session_result(g->s, &r);
    store_move m = {tav_session_move_text(g->s, ply), ms, now};
    char serr[256];
    if (store_add_move(S->st, g->id, ply, &m, store_status(g), serr, sizeof serr) != 0) {
        srv_log(S, "error: game %s: %s", g->id, serr);
        tav_session_undo(g->s);
        snprintf(err, errlen, "the move could not be stored");
        return TAV_E_NOMEM;
    }
    g->last_ms = now;
    changed(g);
    if (r.over)
        finished(S, g);
    return TAV_OK;
}

/* After any change: tell the viewers, let a computer seat think. */
void game_changed(srv *S, game *g)
{
    live_broadcast(S, g);
    kick(S, g);
}

/* ---- analysis ---- */

static void analysis_pump(srv *S);

/* The game ended: its computer seat stops, and a computer-only game no
 * longer counts against its creator.  (Its analysis starts when someone
 * first asks for it: a busy server does not analyse every game.) */
static void finished(srv *S, game *g)
{
    if (g->job) {
        cancel(S, g->job);
        g->job = NULL;
    }
    if (g->owner) {
        g->owner->cpu_games--;
        g->owner = NULL;
    }
}

void game_analyse(srv *S, game *g)
{
    if (g->an || S->stopping)
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
    if (S->an_tail)
        S->an_tail->anext = g;
    else
        S->an_head = g;
    S->an_tail = g;
    analysis_pump(S);
}

/* Start the next analysis search, one at a time for the whole server. */
static void analysis_pump(srv *S)
{
    while (!S->an_job && S->an_head && !S->stopping) {
        game *g = S->an_head;
        analysis *an = g->an;
        if (an->next < 0) {
            an->done = 1;
            tav_session_free(an->work);
            an->work = NULL;
            an->queued = 0;
            S->an_head = g->anext;
            if (!S->an_head)
                S->an_tail = NULL;
            continue;
        }
        while (tav_session_ply(an->work) > an->next)
            tav_session_undo(an->work);
        tav_budget b;
        memset(&b, 0, sizeof b);
        b.movetime_ms = S->ai_ms / 10 > 20 ? S->ai_ms / 10 : 20;
        b.threads = 1;
        b.seed = (uint64_t)an->next + 1;
        S->an_job = submit(S, JOB_ANALYSIS, g, an->work, "ai", &b, PRIO_ANALYSIS);
        if (!S->an_job) {
            /* Cannot search this ply: carry the next value back. */
            an->white[an->next] = an->white[an->next + 1];
            an->next--;
        }
    }
}

static void analysis_answer(srv *S, job *j)
{
    S->an_job = NULL;
    game *g = j->g;
    analysis *an = g->an;
    if (!an || an->next != j->ply)
        return;
    int p = j->ply;
    if (j->answer.status == TAV_OK) {
        int mover = game_mover_at(g, p);
        double v = j->answer.value;
        an->white[p] = mover == TAV_BLACK ? 1.0 - v : v;
        snprintf(an->best[p], TAV_MOVE_TEXT, "%s", j->answer.best_text);
    } else {
        an->white[p] = an->white[p + 1];
    }
    an->next--;
    analysis_pump(S);
}

/* ---- records, checked off the loop ---- */

/* A deal chosen by whoever made the game (Toscana's seed or explicit
 * stacks): options that stay hidden from both sides while it runs. */
int game_deal_chosen(const tav_session *s)
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
    j->rstatus = 400;
    if (tav_session_from_record_ex(&s, j->text, j->len, seed, SRV_PLIES_MAX, err, sizeof err) !=
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
    j->rstatus = 201;
}

static void *record_thread(void *arg)
{
    srv *S = arg;
    pthread_mutex_lock(&S->rlock);
    for (;;) {
        while (!S->rq_head && !S->rstop)
            pthread_cond_wait(&S->rcond, &S->rlock);
        if (!S->rq_head)
            break;
        job *j = S->rq_head;
        S->rq_head = j->next;
        if (!S->rq_head)
            S->rq_tail = NULL;
        int stop = S->rstop;
        pthread_mutex_unlock(&S->rlock);
        if (stop) {
            j->rstatus = 503;
            snprintf(j->err, sizeof j->err, "the server is stopping");
        } else {
            record_check(j);
        }
        free(j->text);
        j->text = NULL;
        done_push(S, j);
        pthread_mutex_lock(&S->rlock);
    }
    pthread_mutex_unlock(&S->rlock);
    return NULL;
}

job *game_record_submit(srv *S, conn *waiter, peer *by, const char *text, size_t len,
                        const char *const player[2], int *status, char *err, size_t errlen)
{
    if (S->records_out >= SRV_RECORD_QUEUE) {
        *status = 503;
        snprintf(err, errlen, "the server is checking too many records: try again shortly");
        return NULL;
    }
    if (by && peer_limited(S, by) && by->records >= SRV_RECORDS_PER_ADDR) {
        *status = 429;
        snprintf(err, errlen, "at most %d record uploads at once per address",
                 SRV_RECORDS_PER_ADDR);
        return NULL;
    }
    job *j = calloc(1, sizeof *j);
    if (!j || !(j->text = malloc(len + 1))) {
        free(j);
        *status = 503;
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    memcpy(j->text, text, len);
    j->text[len] = 0;
    j->len = len;
    j->kind = JOB_RECORD;
    j->server = S;
    j->waiter = waiter;
    j->by = by;
    for (int side = 0; side < 2; side++)
        snprintf(j->player[side], STORE_PLAYER_LEN, "%s", player[side]);
    if (by)
        by->records++;
    S->records_out++;
    pthread_mutex_lock(&S->rlock);
    j->next = NULL;
    if (S->rq_tail)
        S->rq_tail->next = j;
    else
        S->rq_head = j;
    S->rq_tail = j;
    pthread_cond_signal(&S->rcond);
    pthread_mutex_unlock(&S->rlock);
    return j;
}

/* ---- answers from the workers ---- */

static void drain_move(srv *S, job *j)
{
    game *g = j->g;
    if (j->cpu)
        S->cpu_running--;
    if (g->job == j)
        g->job = NULL;
    if (!j->stale && j->answer.status == TAV_OK && tav_session_ply(g->s) == j->ply &&
        computer_to_act(g)) {
        char err[256];
        if (game_commit_move(S, g, j->answer.best_text, err, sizeof err) == TAV_OK)
            game_changed(S, g);
        else
            srv_log(S, "error: game %s: computer move %s: %s", g->id, j->answer.best_text, err);
    } else if (!j->stale && j->answer.status != TAV_OK && j->answer.status != TAV_E_CANCELLED) {
        srv_log(S, "error: game %s: search failed: %s", g->id, tav_status_str(j->answer.status));
    } else {
        kick(S, g);
    }
}

void games_drain(srv *S)
{
    pthread_mutex_lock(&S->qlock);
    if (!S->done_head) {
        pthread_mutex_unlock(&S->qlock);
        return;
    }
    job *list = S->done_head;
    S->done_head = S->done_tail = NULL;
    pthread_mutex_unlock(&S->qlock);
    while (list) {
        job *j = list;
        list = j->next;
        unwatch(S, j);
        if (j->g)
            j->g->jobs_out--;
        if (j->kind == JOB_HINT) {
            j->g->hints--;
            if (j->by)
                j->by->hints--;
        } else if (j->kind == JOB_RECORD) {
            S->records_out--;
            if (j->by)
                j->by->records--;
        }
        if (S->stopping) {
            if (j->waiter)
                j->waiter->waiting = NULL;
            if (j->made)
                tav_session_free(j->made);
            free(j->text);
            free(j);
            continue;
        }
        if (j->kind == JOB_MOVE) {
            drain_move(S, j);
        } else if (j->kind == JOB_HINT || j->kind == JOB_RECORD) {
            if (j->waiter) {
                reply r;
                if (j->kind == JOB_HINT)
                    api_hint_done(S, j, &r);
                else
                    api_record_done(S, j, &r);
                conn *c = j->waiter;
                c->waiting = NULL;
                http_reply_ready(c, &r);
            }
            if (j->made)
                tav_session_free(j->made);   /* not taken: its request went away */
        } else if (j->kind == JOB_ANALYSIS) {
            analysis_answer(S, j);
        }
        free(j);
    }
}

/* A search that overruns its budget by far, counted from when it began to
 * run (not from when it was queued), is cancelled and started again: the
 * game must go on even if one search goes wrong.  Computer-only games that
 * have waited their pace take their turns. */
void games_tick(srv *S)
{
    games_drain(S);
    double now = tav_now();
    job *j = S->running;
    while (j) {
        job *next = j->wnext;
        double began = S->svc ? tav_service_started(S->svc, j->handle) : 0;
        if (began > 0 && now - began > (double)j->budget_ms / 1000.0 * 2 + 2.0) {
            game *g = j->g;
            srv_log(S, "error: game %s: search overran its time, started again", g->id);
            cancel(S, j);
            if (g->job == j) {
                g->job = NULL;
                kick(S, g);
            }
        }
        j = next;
    }
    cpu_pump(S);
    int64_t sec = srv_unix_ms() / 1000;
    if (sec - S->last_sweep >= 5) {
        S->last_sweep = sec;
        games_sweep(S);
    }
}

/* Games nobody uses leave memory; the store keeps them. */
void games_sweep(srv *S)
{
    int64_t now = srv_unix_ms() / 1000;
    for (int h = 0; h < SRV_HASH_SIZE; h++) {
        game **pp = &S->games[h];
        while (*pp) {
            game *g = *pp;
            int busy = g->live || g->job || g->jobs_out || g->cwaiting || g->bcast ||
                       (g->an && g->an->queued) || g->owner;
            if (!busy && now - g->touched >= SRV_GAME_IDLE_SECS) {
                *pp = g->hnext;
                S->ngames--;
                game_free(g);
            } else {
                pp = &g->hnext;
            }
        }
    }
}

/* ---- actions used by the API ---- */

job *game_hint(srv *S, game *g, conn *waiter, peer *by, int *status, char *err, size_t errlen)
{
    if (g->hints > 0) {
        *status = 429;
        snprintf(err, errlen, "a hint for this game is being searched already");
        return NULL;
    }
    if (by && peer_limited(S, by) && by->hints >= SRV_HINTS_PER_ADDR) {
        *status = 429;
        snprintf(err, errlen, "at most %d hints at once per address", SRV_HINTS_PER_ADDR);
        return NULL;
    }
    tav_budget b;
    seat_budget(tav_session_game(g->s), 5, S->ai_ms, &b);
    job *j = submit(S, JOB_HINT, g, g->s, "ai", &b, PRIO_HINT);
    if (!j) {
        *status = 409;
        snprintf(err, errlen, "no hint for this position");
        return NULL;
    }
    j->waiter = waiter;
    j->by = by;
    g->hints++;
    if (by)
        by->hints++;
    return j;
}

void game_job_abandon(srv *S, job *j)
{
    j->waiter = NULL;
    if (j->kind != JOB_RECORD)
        cancel(S, j);
}

int game_resign(srv *S, game *g, int side, char *err, size_t errlen)
{
    if (tav_session_resign(g->s, side) != TAV_OK) {
        snprintf(err, errlen, "the game is over");
        return -1;
    }
    char serr[256];
    if (store_set_result(S->st, g->id, STORE_OVER, side, serr, sizeof serr) != 0) {
        srv_log(S, "error: game %s: %s", g->id, serr);
        tav_session_undo(g->s);
        snprintf(err, errlen, "the resignation could not be stored");
        return -2;
    }
    changed(g);
    finished(S, g);
    return 0;
}

/* Take back `side`'s last move and everything after it.  Never in a
 * finished game (it never reopens: its record shows everything, Toscana's
 * stacks included), and never in a game with hidden information: the tile
 * a Toscana move reveals cannot be hidden again, so taking the move back
 * would hand out the next tile of the stack for free. */
int game_undo(srv *S, game *g, int side, char *err, size_t errlen)
{
    tav_result res;
    tav_session_result(g->s, &res);
    if (res.over) {
        snprintf(err, errlen, "the game is over: a finished game is never reopened");
        return -1;
    }
    if (tav_session_game(g->s)->mask) {
        snprintf(err, errlen, "moves are not taken back in %s: a move reveals a hidden tile",
                 tav_session_game(g->s)->name);
        return -1;
    }
    int ply = tav_session_ply(g->s);
    int k = ply - 1;
    while (k >= 0 && game_mover_at(g, k) != side)
        k--;
    if (k < 0) {
        snprintf(err, errlen, "nothing to take back");
        return -1;
    }
    tav_session *copy = tav_session_clone(g->s);
    if (!copy) {
        snprintf(err, errlen, "out of memory");
        return -2;
    }
    while (tav_session_ply(copy) > k)
        if (tav_session_undo(copy) != TAV_OK)
            break;
    tav_session *old = g->s;
    g->s = copy;
    int status = store_status(g);
    g->s = old;
    char serr[256];
    if (store_truncate(S->st, g->id, k, status, serr, sizeof serr) != 0) {
        srv_log(S, "error: game %s: %s", g->id, serr);
        tav_session_free(copy);
        snprintf(err, errlen, "the undo could not be stored");
        return -2;
    }
    if (g->job) {
        cancel(S, g->job);
        g->job = NULL;
    }
    tav_session_free(g->s);
    g->s = copy;
    g->last_ms = srv_unix_ms();
    changed(g);
    return 0;
}

/* A new game (create or record upload): stored first, then kept.  A
 * computer-only game counts against the address that made it until it ends. */
game *game_create(srv *S, tav_session *s, const char *const player[2], peer *by,
                  char tokens[2][48], char *err, size_t errlen)
{
    game *g = calloc(1, sizeof *g);
    store_move *moves = NULL;
    int n = tav_session_ply(s);
    if (!g || (n > 0 && !(moves = calloc((size_t)n, sizeof *moves)))) {
        free(g);
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    do
        srv_random_b64(g->id, 9);
    while (find_loaded(S, g->id));
    g->s = s;
    store_game sg;
    memset(&sg, 0, sizeof sg);
    memcpy(sg.id, g->id, sizeof sg.id);
    snprintf(sg.game, sizeof sg.game, "%s", tav_session_game(s)->name);
    sg.options = (char *)(uintptr_t)tav_session_options(s);
    sg.seed = tav_session_seed(s);
    sg.created = srv_unix_ms() / 1000;
    sg.resigned = -1;
    for (int side = 0; side < 2; side++) {
        snprintf(g->player[side], STORE_PLAYER_LEN, "%s", player[side]);
        memcpy(sg.player[side], g->player[side], STORE_PLAYER_LEN);
        tokens[side][0] = 0;
        if (strcmp(player[side], "human") == 0) {
            srv_random_b64(tokens[side], 32);
            srv_token_hash(tokens[side], g->seat_hash[side]);
            g->human[side] = 1;
            sg.has_seat[side] = 1;
            memcpy(sg.seat_hash[side], g->seat_hash[side], STORE_HASH_LEN);
        }
    }
    g->cpu_only = !g->human[0] && !g->human[1];
    sg.status = store_status(g);
    int64_t now = srv_unix_ms();
    for (int i = 0; i < n; i++) {
        moves[i].text = tav_session_move_text(s, i);
        moves[i].ms = tav_session_move_ms(s, i);
        moves[i].time = now;
    }
    char serr[256];
    int rc = store_create_game(S->st, &sg, moves, n, serr, sizeof serr);
    free(moves);
    if (rc != 0) {
        srv_log(S, "error: new game: %s", serr);
        snprintf(err, errlen, "the game could not be stored");
        free(g);
        return NULL;
    }
    g->last_ms = now;
    changed(g);
    insert_game(S, g);
    peer_game_created(S, by);
    tav_result r;
    tav_session_result(s, &r);
    if (g->cpu_only && !r.over && by) {
        g->owner = by;
        by->cpu_games++;
    }
    if (r.over)
        finished(S, g);
    else
        kick(S, g);
    return g;
}

void games_shutdown(srv *S)
{
    S->stopping = 1;
    for (int h = 0; h < SRV_HASH_SIZE; h++)
        for (game *g = S->games[h]; g; g = g->hnext)
            if (g->job) {
                cancel(S, g->job);
                g->job = NULL;
            }
    if (S->an_job)
        cancel(S, S->an_job);
    if (S->rthread_started) {
        pthread_mutex_lock(&S->rlock);
        S->rstop = 1;
        pthread_cond_signal(&S->rcond);
        pthread_mutex_unlock(&S->rlock);
        pthread_join(S->rthread, NULL);
        S->rthread_started = 0;
    }
}

/* After the loop and the workers have stopped. */
void games_free(srv *S)
{
    games_drain(S);
    for (int h = 0; h < SRV_HASH_SIZE; h++) {
        game *g = S->games[h];
        while (g) {
            game *next = g->hnext;
            game_free(g);
            g = next;
        }
        S->games[h] = NULL;
    }
    pthread_mutex_destroy(&S->qlock);
    pthread_mutex_destroy(&S->rlock);
    pthread_cond_destroy(&S->rcond);
}
