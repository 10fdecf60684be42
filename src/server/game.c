/*
 * game.c — the games the server holds: loading from the store, playing,
 * computer seats, hints and analyses through the search service.
 *
 * A game is a tav_session plus its seats.  It is loaded from the store on
 * first use (and every unfinished game at start) by replaying its moves,
 * and stays in memory until the server stops.  Every change is written to
 * the store before anyone is told about it.
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
    g->last_ms = rc.last;
    store_game_done(&sg);
    insert_game(S, g);
    return g;
}

game *game_get(srv *S, const char *id)
{
    game *g = find_loaded(S, id);
    if (g)
        return g;
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

int games_init(srv *S, char *err, size_t errlen)
{
    pthread_mutex_init(&S->qlock, NULL);
    if (store_each_unfinished(S->st, load_unfinished, S, err, errlen) != 0)
        return -1;
    return 0;
}

/* ---- jobs ---- */

/* Worker thread: queue the answer and wake the loop. */
static void job_done(void *ctx, const tav_answer *a)
{
    job *j = ctx;
    srv *S = j->server;
    j->answer = *a;
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
                   const tav_budget *b)
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
    j->handle = tav_service_submit(S->svc, s, player, b, job_done, j);
    if (!j->handle) {
        free(j);
        return NULL;
    }
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
static void seat_budget(srv *S, const tav_game *tg, int level, long cap_ms, tav_budget *b)
{
    memset(b, 0, sizeof *b);
    if (level > 0)
        tav_level_budget(tg, level, b);
    if (b->movetime_ms <= 0 || b->movetime_ms > cap_ms)
        b->movetime_ms = cap_ms;
    b->threads = 1;
    randombytes_buf(&b->seed, sizeof b->seed);
    (void)S;
}

/* If a computer seat is to act and not yet thinking, start its search. */
static void kick(srv *S, game *g)
{
    if (g->job || S->stopping)
        return;
    int side = tav_session_to_move(g->s);
    if (side != TAV_WHITE && side != TAV_BLACK)
        return;
    if (g->human[side])
        return;
    char name[32];
    int level = 0;
    if (tav_player_parse(g->player[side], name, sizeof name, &level) != 0) {
        srv_log(S, "error: game %s: unknown player %s", g->id, g->player[side]);
        return;
    }
    tav_budget b;
    seat_budget(S, tav_session_game(g->s), level, S->ai_ms, &b);
    g->job = submit(S, JOB_MOVE, g, g->s, name, &b);
    if (!g->job)
        srv_log(S, "error: game %s: search refused", g->id);
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
    if (store_add_move(S->st, g->id, ply, &m, r.over ? STORE_OVER : STORE_PLAYING, serr,
                       sizeof serr) != 0) {
        srv_log(S, "error: game %s: %s", g->id, serr);
        tav_session_undo(g->s);
        snprintf(err, errlen, "the move could not be stored");
        return TAV_E_NOMEM;
    }
    g->last_ms = now;
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

/* The game ended: its computer seat stops.  (Its analysis starts when
 * someone first asks for it: a busy server does not analyse every game.) */
static void finished(srv *S, game *g)
{
    if (g->job) {
        cancel(S, g->job);
        g->job = NULL;
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
        S->an_job = submit(S, JOB_ANALYSIS, g, an->work, "ai", &b);
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

/* ---- answers from the workers ---- */

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
        if (S->stopping) {
            if (j->waiter)
                j->waiter->waiting = NULL;
            free(j);
            continue;
        }
        game *g = j->g;
        unwatch(S, j);
        if (j->kind == JOB_MOVE) {
            if (g->job == j)
                g->job = NULL;
            int side = tav_session_to_move(g->s);
            if (!j->stale && j->answer.status == TAV_OK && tav_session_ply(g->s) == j->ply &&
                side >= 0 && !g->human[side]) {
                char err[256];
                if (game_commit_move(S, g, j->answer.best_text, err, sizeof err) == TAV_OK)
                    game_changed(S, g);
                else
                    srv_log(S, "error: game %s: computer move %s: %s", g->id,
                            j->answer.best_text, err);
            } else if (!j->stale && j->answer.status != TAV_OK &&
                       j->answer.status != TAV_E_CANCELLED) {
                srv_log(S, "error: game %s: search failed: %s", g->id,
                        tav_status_str(j->answer.status));
            } else {
                kick(S, g);
            }
        } else if (j->kind == JOB_HINT) {
            if (j->waiter) {
                reply r;
                api_hint_done(S, j, &r);
                conn *c = j->waiter;
                c->waiting = NULL;
                http_reply_ready(c, &r);
            }
        } else if (j->kind == JOB_ANALYSIS) {
            analysis_answer(S, j);
        }
        free(j);
    }
}

/* A search that overruns its budget by far is cancelled and started again
 * (the game must go on even if one search goes wrong). */
void games_tick(srv *S)
{
    games_drain(S);
    double now = tav_now();
    job *j = S->running;
    while (j) {
        job *next = j->wnext;
        if (now - j->started > (double)j->budget_ms / 1000.0 * 2 + 2.0) {
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
}

/* ---- actions used by the API ---- */

job *game_hint(srv *S, game *g, conn *waiter)
{
    tav_budget b;
    seat_budget(S, tav_session_game(g->s), 5, S->ai_ms, &b);
    job *j = submit(S, JOB_HINT, g, g->s, "ai", &b);
    if (j)
        j->waiter = waiter;
    return j;
}

void game_hint_abandon(srv *S, job *j)
{
    j->waiter = NULL;
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
    finished(S, g);
    return 0;
}

/* Take back `side`'s last move and everything after it. */
int game_undo(srv *S, game *g, int side, char *err, size_t errlen)
{
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
    if (tav_session_resigned(copy) != TAV_NONE)
        tav_session_undo(copy);
    while (tav_session_ply(copy) > k)
        if (tav_session_undo(copy) != TAV_OK)
            break;
    tav_result r;
    tav_session_result(copy, &r);
    char serr[256];
    if (store_truncate(S->st, g->id, k, r.over ? STORE_OVER : STORE_PLAYING, serr,
                       sizeof serr) != 0) {
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
    return 0;
}

/* A new game (create or record upload): stored first, then kept. */
game *game_create(srv *S, tav_session *s, const char *const player[2], char tokens[2][48],
                  char *err, size_t errlen)
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
    tav_result r;
    tav_session_result(s, &r);
    sg.status = r.over ? STORE_OVER : STORE_PLAYING;
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
    insert_game(S, g);
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
}
