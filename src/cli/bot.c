/*
 * bot.c — `tavoliere bot`: connects a program that speaks the engine
 * protocol (docs/protocol.md) to a server as a bot account (SPEC "Bots",
 * docs/bots.md).
 *
 *   tavoliere bot --server URL --token TOKEN [--engine "COMMAND"] [--level N]
 *                 [--games K] [--movetime MS]
 *
 * One thread (this one) runs a libwebsockets client loop: the bot's event
 * socket (/api/bot/events) and a live socket per game it plays
 * (/api/games/ID/live), each with the bearer token.  Challenges in games the
 * engine plays are accepted while fewer than K games run, others declined.
 * Each game has a thread of its own, with an engine process of its own: it
 * waits for the game's JSON (from the live socket, or read with a GET when
 * none came for a while), replays the moves into its engine, asks it for a
 * move within the clock (`go movetime=MS`), and posts it (libcurl).  An
 * engine that exits, answers garbage, an illegal move or nothing in time
 * is reported, and the game is aborted (before the bot's first move) or
 * resigned.  A lost connection is made again (the event socket then lists
 * the bot's unfinished games, which are resumed); so is a restart.
 *
 * The bot sees what a person in its seat sees: the same game JSON.  A game
 * with hidden information (Toscana) cannot be replayed into an engine from
 * what its seat sees, so the bridge declines it.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <curl/curl.h>
#include <jansson.h>
#include <libwebsockets.h>

#include "cli/cli.h"

#define BOT_GAMES_MAX 16
#define BOT_LINE_MAX 65536
#define BOT_RX_MAX (4 * 1024 * 1024)   /* a message from the server, at most */
#define BOT_KINDS_MAX 32   /* games of the registry the bridge knows of */

typedef struct bot bot;

/* A socket's bytes until a whole message is in. */
typedef struct rxbuf {
    char *data;
    size_t len, cap;
} rxbuf;

/* One game the bot plays: shared between the loop (live socket, latest
 * JSON) and its thread (engine, moves). */
typedef struct bgame {
    char id[16];
    bot *B;
    pthread_t th;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    char *latest;        /* (mu) the newest game JSON from the live socket */
    int poke;            /* (mu) look again now (gameFinish, a lost socket) */
    int done;            /* (mu) the thread has ended */
    pid_t engine_pid;    /* (mu) for the stop: killed */
    /* the loop's own */
    struct lws *live;
    int64_t live_retry_ms;
    rxbuf rx;
    struct bgame *next;
} bgame;

struct bot {
    char scheme[8], host[256], prefix[256];
    int port, tls;
    char token[128];
    char auth[160];      /* "Authorization: Bearer ..." for libcurl */
    const char *engine;  /* a command, or NULL: this program's own engine */
    char self[4096];     /* this program (the built-in engine) */
    int level, games_max;
    long movetime_max;
    char name[64];
    int plays[BOT_KINDS_MAX];   /* per game of the registry: the engine plays it */
    char plays_text[512];
    struct lws_context *ctx;
    struct lws *events;
    int64_t events_retry_ms;
    int events_backoff_ms;
    rxbuf erx;
    bgame *list;
    int pending_accepts; /* challenges accepted whose game has not started here yet */
    pthread_mutex_t log_mu;
};

static volatile sig_atomic_t bot_stop;

static void on_signal(int sig)
{
    (void)sig;
    bot_stop = 1;
}

static int64_t now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void blog(bot *B, const char *fmt, ...)
{
    char t[32];
    time_t now = time(NULL);
    struct tm tm;
    gmtime_r(&now, &tm);
    strftime(t, sizeof t, "%H:%M:%S", &tm);
    pthread_mutex_lock(&B->log_mu);
    printf("%s ", t);
    va_list ap;
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    printf("\n");
    fflush(stdout);
    pthread_mutex_unlock(&B->log_mu);
}

/* The games of the library, by their place in its registry. */
static int game_index(const char *name)
{
    for (int i = 0; i < tav_game_count() && i < BOT_KINDS_MAX; i++)
        if (name && strcmp(name, tav_game_at(i)->name) == 0)
            return i;
    return -1;
}

/* ---- HTTP (libcurl) ---- */

typedef struct hbuf {
    char *data;
    size_t len;
} hbuf;

static size_t on_body(char *p, size_t size, size_t n, void *ctx)
{
    hbuf *b = ctx;
    size_t k = size * n;
    if (b->len + k > BOT_RX_MAX)
        return 0;
    char *m = realloc(b->data, b->len + k + 1);
    if (!m)
        return 0;
    memcpy(m + b->len, p, k);
    b->len += k;
    m[b->len] = 0;
    b->data = m;
    return k;
}

/* A request with the bearer token: the status (0: no answer), the body
 * parsed when it is JSON (*out, to json_decref; may be NULL). */
static long http(bot *B, const char *method, const char *path, const char *body, json_t **out)
{
    if (out)
        *out = NULL;
    CURL *h = curl_easy_init();
    if (!h)
        return 0;
    char url[1024];
    snprintf(url, sizeof url, "%s://%s:%d%s%s", B->tls ? "https" : "http", B->host, B->port,
             B->prefix, path);
    struct curl_slist *hd = NULL;
    hd = curl_slist_append(hd, B->auth);
    hd = curl_slist_append(hd, "Content-Type: application/json");
    hbuf b = {NULL, 0};
    curl_easy_setopt(h, CURLOPT_URL, url);
    curl_easy_setopt(h, CURLOPT_HTTPHEADER, hd);
    curl_easy_setopt(h, CURLOPT_CUSTOMREQUEST, method);
    curl_easy_setopt(h, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(h, CURLOPT_TIMEOUT, 30L);
    curl_easy_setopt(h, CURLOPT_CONNECTTIMEOUT, 10L);
    curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, on_body);
    curl_easy_setopt(h, CURLOPT_WRITEDATA, &b);
    curl_easy_setopt(h, CURLOPT_USERAGENT, "tavoliere-bot");
    if (body) {
        curl_easy_setopt(h, CURLOPT_POSTFIELDS, body);
        curl_easy_setopt(h, CURLOPT_POSTFIELDSIZE, (long)strlen(body));
    }
    long status = 0;
    if (curl_easy_perform(h) == CURLE_OK)
        curl_easy_getinfo(h, CURLINFO_RESPONSE_CODE, &status);
    curl_slist_free_all(hd);
    curl_easy_cleanup(h);
    if (out && b.data)
        *out = json_loads(b.data, 0, NULL);
    free(b.data);
    return status;
}

static const char *jstr(json_t *o, const char *key)
{
    const char *s = json_string_value(json_object_get(o, key));
    return s ? s : "";
}

/* ---- an engine process ---- */

typedef struct engine {
    pid_t pid;
    int in, out;         /* its standard input (we write), output (we read) */
    char buf[BOT_LINE_MAX];
    size_t len;
    int builtin;
    char err[256];
} engine;

static int engine_start(bot *B, engine *e)
{
    memset(e, 0, sizeof *e);
    e->in = e->out = -1;
    int to[2], from[2];
    if (pipe(to) != 0)
        return -1;
    if (pipe(from) != 0) {
        close(to[0]);
        close(to[1]);
        return -1;
    }
    pid_t pid = fork();
    if (pid < 0) {
        close(to[0]);
        close(to[1]);
        close(from[0]);
        close(from[1]);
        return -1;
    }
    if (pid == 0) {
        dup2(to[0], 0);
        dup2(from[1], 1);
        close(to[0]);
        close(to[1]);
        close(from[0]);
        close(from[1]);
        for (int fd = 3; fd < 1024; fd++)
            close(fd);
        if (B->engine)
            execl("/bin/sh", "sh", "-c", B->engine, (char *)NULL);
        else
            execl(B->self, B->self, "engine", (char *)NULL);
        _exit(127);
    }
    close(to[0]);
    close(from[1]);
    fcntl(to[1], F_SETFD, FD_CLOEXEC);
    fcntl(from[0], F_SETFD, FD_CLOEXEC);
    e->pid = pid;
    e->in = to[1];
    e->out = from[0];
    e->builtin = !B->engine;
    return 0;
}

static void engine_stop(engine *e)
{
    if (e->pid <= 0)
        return;
    if (e->in >= 0) {
        ssize_t w = write(e->in, "quit\n", 5);
        (void)w;
        close(e->in);
    }
    int st;
    for (int i = 0; i < 20 && waitpid(e->pid, &st, WNOHANG) == 0; i++)
        { struct timespec ts = {0, 10000000L}; nanosleep(&ts, NULL); }
    if (waitpid(e->pid, &st, WNOHANG) == 0) {
        kill(e->pid, SIGKILL);
        waitpid(e->pid, &st, 0);
    }
    if (e->out >= 0)
        close(e->out);
    e->pid = 0;
    e->in = e->out = -1;
    e->len = 0;
}

static int engine_send(engine *e, const char *line)
{
    size_t n = strlen(line);
    char *m = malloc(n + 2);
    if (!m)
        return -1;
    memcpy(m, line, n);
    m[n] = '\n';
    size_t off = 0;
    int rc = 0;
    while (off < n + 1) {
        ssize_t w = write(e->in, m + off, n + 1 - off);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0) {
            snprintf(e->err, sizeof e->err, "the engine stopped reading (it exited?)");
            rc = -1;
            break;
        }
        off += (size_t)w;
    }
    free(m);
    return rc;
}

/* The engine's next line that is not `info ...`, within timeout_ms: 1 with
 * it in out, -1 with e->err (exited, silent, too long a line). */
static int engine_line(engine *e, int timeout_ms, char *out, size_t outlen)
{
    int64_t end = now_ms() + timeout_ms;
    for (;;) {
        char *nl = memchr(e->buf, '\n', e->len);
        if (nl) {
            size_t k = (size_t)(nl - e->buf);
            int info = k >= 5 && strncmp(e->buf, "info ", 5) == 0;
            if (!info) {
                size_t c = k < outlen - 1 ? k : outlen - 1;
                memcpy(out, e->buf, c);
                out[c] = 0;
                if (c && out[c - 1] == '\r')
                    out[c - 1] = 0;
            }
            memmove(e->buf, nl + 1, e->len - k - 1);
            e->len -= k + 1;
            if (!info)
                return 1;
            continue;
        }
        if (e->len == sizeof e->buf) {
            snprintf(e->err, sizeof e->err, "the engine wrote a line longer than %d bytes",
                     BOT_LINE_MAX);
            return -1;
        }
        int64_t left = end - now_ms();
        if (left <= 0 || bot_stop) {
            snprintf(e->err, sizeof e->err, "the engine did not answer in time");
            return -1;
        }
        struct pollfd p = {e->out, POLLIN, 0};
        int r = poll(&p, 1, left > 200 ? 200 : (int)left);
        if (r < 0 && errno != EINTR) {
            snprintf(e->err, sizeof e->err, "poll: %s", strerror(errno));
            return -1;
        }
        if (r <= 0)
            continue;
        ssize_t n = read(e->out, e->buf + e->len, sizeof e->buf - e->len);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            snprintf(e->err, sizeof e->err, "the engine exited");
            return -1;
        }
        e->len += (size_t)n;
    }
}

/* A command whose answer must be `ok`. */
static int engine_ok(engine *e, const char *cmd)
{
    char line[512];
    if (engine_send(e, cmd) != 0 || engine_line(e, 10000, line, sizeof line) != 1)
        return -1;
    if (strcmp(line, "ok") != 0) {
        snprintf(e->err, sizeof e->err, "'%.60s' answered '%.120s'", cmd, line);
        return -1;
    }
    return 0;
}

/* ---- one game ---- */

static char *game_wait(bgame *G, int timeout_ms)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    ts.tv_sec += timeout_ms / 1000;
    ts.tv_nsec += (long)(timeout_ms % 1000) * 1000000L;
    if (ts.tv_nsec >= 1000000000L) {
        ts.tv_sec++;
        ts.tv_nsec -= 1000000000L;
    }
    pthread_mutex_lock(&G->mu);
    while (!G->latest && !G->poke && !bot_stop)
        if (pthread_cond_timedwait(&G->cv, &G->mu, &ts) == ETIMEDOUT)
            break;
    char *text = G->latest;
    G->latest = NULL;
    G->poke = 0;
    pthread_mutex_unlock(&G->mu);
    return text;
}

/* The think time for the side to move: a share of its time left and most
 * of its increment, within --movetime. */
static long think_ms(bot *B, json_t *g, const char *seat)
{
    long t = 2000;
    json_t *clock = json_object_get(g, "clock");
    if (json_is_object(clock) && json_object_get(clock, seat)) {
        double left = json_number_value(json_object_get(clock, seat));
        double inc = json_number_value(json_object_get(clock, "increment")) * 1000.0;
        double x = left / 25.0 + inc * 0.75;
        if (x > left / 3.0)
            x = left / 3.0;
        x -= 200;   /* the way to the server and back */
        t = x < 50 ? 50 : (long)x;
    }
    if (t > B->movetime_max)
        t = B->movetime_max;
    return t;
}

/* Give the game up cleanly after the engine failed: abort it if the server
 * still allows (SPEC: before both sides have moved), else resign. */
static void give_up(bot *B, bgame *G, const char *why)
{
    blog(B, "game %s: the engine is broken (%s): giving the game up", G->id, why);
    char path[96];
    snprintf(path, sizeof path, "/api/games/%s/abort", G->id);
    long st = http(B, "POST", path, "{}", NULL);
    if (st == 200) {
        blog(B, "game %s: aborted", G->id);
        return;
    }
    snprintf(path, sizeof path, "/api/games/%s/resign", G->id);
    st = http(B, "POST", path, "{}", NULL);
    blog(B, "game %s: %s (%ld)", G->id, st == 200 ? "resigned" : "could not resign", st);
}

static void *game_thread(void *arg)
{
    bgame *G = arg;
    bot *B = G->B;
    engine e;
    memset(&e, 0, sizeof e);
    e.in = e.out = -1;
    int synced = -1;          /* moves the engine has played (-1: no game in it) */
    int posted = -1;          /* the ply of the move posted last */
    int announced = 0;
    char path[96];
    snprintf(path, sizeof path, "/api/games/%s", G->id);
    while (!bot_stop) {
        char *text = game_wait(G, 3000);
        json_t *g = NULL;
        if (text) {
            g = json_loads(text, 0, NULL);
            free(text);
        } else {
            long st = http(B, "GET", path, NULL, &g);
            if (st == 404) {
                blog(B, "game %s: unknown to the server", G->id);
                json_decref(g);
                break;
            }
        }
        if (!json_is_object(g) || strcmp(jstr(g, "id"), G->id) != 0) {
            json_decref(g);
            continue;
        }
        const char *seat = jstr(g, "seat");
        json_t *acc = json_object_get(g, "accounts");
        if (!announced) {
            announced = 1;
            blog(B, "game %s: %s, %s (white) against %s (black), the bot plays %s", G->id,
                 jstr(g, "game"), jstr(acc, "white"), jstr(acc, "black"), seat);
        }
        if (json_is_true(json_object_get(g, "over"))) {
            json_t *sc = json_object_get(g, "score");
            blog(B, "game %s: over after %zu moves: winner %s (%s), score %lld:%lld", G->id,
                 json_array_size(json_object_get(g, "moves")), jstr(g, "winner"), jstr(g, "end"),
                 (long long)json_integer_value(json_array_get(sc, 0)),
                 (long long)json_integer_value(json_array_get(sc, 1)));
            json_decref(g);
            break;
        }
        json_t *legal = json_object_get(g, "legal");
        json_t *moves = json_object_get(g, "moves");
        int ply = (int)json_array_size(moves);
        if (strcmp(jstr(g, "tomove"), seat) != 0 || json_array_size(legal) == 0 || ply == posted) {
            json_decref(g);
            continue;
        }
        /* The engine: started, and brought to the game's position. */
        const char *why = NULL;
        if (e.pid <= 0) {
            if (engine_start(B, &e) != 0)
                why = "it could not be started";
            else {
                pthread_mutex_lock(&G->mu);
                G->engine_pid = e.pid;
                pthread_mutex_unlock(&G->mu);
            }
            synced = -1;
        }
        if (!why && synced > ply)
            synced = -1;
        if (!why && synced < 0) {
            char cmd[700];
            snprintf(cmd, sizeof cmd, "newgame %s %s", jstr(g, "game"), jstr(g, "options"));
            if (engine_ok(&e, cmd) != 0)
                why = e.err;
            else
                synced = 0;
        }
        for (int i = synced; !why && i < ply; i++) {
            char cmd[300];
            snprintf(cmd, sizeof cmd, "play %s", json_string_value(json_array_get(moves, (size_t)i)));
            if (engine_ok(&e, cmd) != 0)
                why = e.err;
            else
                synced = i + 1;
        }
        char best[512] = "";
        long ms = think_ms(B, g, seat);
        if (!why) {
            char cmd[96], line[512];
            if (e.builtin)
                snprintf(cmd, sizeof cmd, "go movetime=%ld level=%d", ms, B->level);
            else
                snprintf(cmd, sizeof cmd, "go movetime=%ld", ms);
            if (engine_send(&e, cmd) != 0 || engine_line(&e, (int)ms + 15000, line, sizeof line) != 1)
                why = e.err;
            else if (strncmp(line, "bestmove ", 9) != 0) {
                snprintf(e.err, sizeof e.err, "it answered '%.120s' to go", line);
                why = e.err;
            } else {
                snprintf(best, sizeof best, "%s", line + 9);
                int ok = 0;
                size_t i;
                json_t *m;
                json_array_foreach(legal, i, m)
                    ok |= json_is_string(m) && strcmp(json_string_value(m), best) == 0;
                if (!ok) {
                    snprintf(e.err, sizeof e.err, "it chose '%.120s', not a legal move", best);
                    why = e.err;
                }
            }
        }
        if (why) {
            give_up(B, G, why);
            json_decref(g);
            break;
        }
        json_t *body = json_pack("{s:s,s:i}", "move", best, "ply", ply);
        char *btext = json_dumps(body, JSON_COMPACT);
        json_decref(body);
        char mpath[112];
        snprintf(mpath, sizeof mpath, "/api/games/%s/moves", G->id);
        long st = btext ? http(B, "POST", mpath, btext, NULL) : 0;
        free(btext);
        if (st == 200) {
            posted = ply;
            blog(B, "game %s: move %d %s (%ld ms)", G->id, ply + 1, best, ms);
            char cmd[600];
            snprintf(cmd, sizeof cmd, "play %s", best);
            synced = engine_ok(&e, cmd) == 0 ? ply + 1 : -1;   /* -1: replayed next time */
        } else {
            blog(B, "game %s: the move %s at ply %d was refused (%ld): looking again", G->id,
                 best, ply, st);
            synced = -1;
            pthread_mutex_lock(&G->mu);
            G->poke = 1;   /* read the game again at once */
            pthread_mutex_unlock(&G->mu);
            if (st == 0 || st >= 500) {
                struct timespec ts = {0, 500000000L};
                nanosleep(&ts, NULL);
            }
        }
        json_decref(g);
    }
    engine_stop(&e);
    pthread_mutex_lock(&G->mu);
    G->engine_pid = 0;
    G->done = 1;
    pthread_mutex_unlock(&G->mu);
    if (B->ctx)
        lws_cancel_service(B->ctx);
    return NULL;
}

/* ---- the loop: sockets, challenges, games ---- */

static bgame *game_find(bot *B, const char *id)
{
    for (bgame *G = B->list; G; G = G->next)
        if (strcmp(G->id, id) == 0)
            return G;
    return NULL;
}

static int games_running(bot *B)
{
    int n = 0;
    for (bgame *G = B->list; G; G = G->next)
        n++;
    return n;
}

static struct lws *connect_socket(bot *B, const char *path, void *user)
{
    char full[600];
    snprintf(full, sizeof full, "%s%s", B->prefix, path);
    struct lws_client_connect_info ci;
    memset(&ci, 0, sizeof ci);
    ci.context = B->ctx;
    ci.address = B->host;
    ci.port = B->port;
    ci.path = full;
    ci.host = B->host;
    ci.origin = NULL;
    ci.ssl_connection = B->tls ? LCCSCF_USE_SSL : 0;
    ci.local_protocol_name = "tavoliere-bot";
    ci.opaque_user_data = user;
    return lws_client_connect_via_info(&ci);
}

static void game_start(bot *B, const char *id)
{
    if (game_find(B, id))
        return;
    bgame *G = calloc(1, sizeof *G);
    if (!G)
        return;
    snprintf(G->id, sizeof G->id, "%s", id);
    G->B = B;
    pthread_mutex_init(&G->mu, NULL);
    pthread_cond_init(&G->cv, NULL);
    if (pthread_create(&G->th, NULL, game_thread, G) != 0) {
        blog(B, "game %s: no thread for it", id);
        free(G);
        return;
    }
    G->next = B->list;
    B->list = G;
    char path[96];
    snprintf(path, sizeof path, "/api/games/%s/live", id);
    G->live = connect_socket(B, path, G);
    G->live_retry_ms = now_ms() + 2000;
}

/* Games whose thread ended leave; lost live sockets are made again. */
static void games_tend(bot *B)
{
    int64_t now = now_ms();
    for (bgame **pp = &B->list; *pp;) {
        bgame *G = *pp;
        pthread_mutex_lock(&G->mu);
        int done = G->done;
        pthread_mutex_unlock(&G->mu);
        if (done) {
            pthread_join(G->th, NULL);
            if (G->live) {
                lws_set_opaque_user_data(G->live, NULL);
                lws_set_timeout(G->live, PENDING_TIMEOUT_USER_OK, LWS_TO_KILL_ASYNC);
            }
            *pp = G->next;
            free(G->latest);
            free(G->rx.data);
            pthread_mutex_destroy(&G->mu);
            pthread_cond_destroy(&G->cv);
            free(G);
            continue;
        }
        if (!G->live && now >= G->live_retry_ms) {
            char path[96];
            snprintf(path, sizeof path, "/api/games/%s/live", G->id);
            G->live = connect_socket(B, path, G);
            G->live_retry_ms = now + 2000;
        }
        pp = &G->next;
    }
}

static void decline(bot *B, const char *seek, const char *why)
{
    char path[96];
    snprintf(path, sizeof path, "/api/seeks/%s/decline", seek);
    long st = http(B, "POST", path, "{}", NULL);
    blog(B, "challenge %s declined (%s): %ld", seek, why, st);
}

static void on_challenge(bot *B, json_t *seek)
{
    const char *id = jstr(seek, "id"), *gname = jstr(seek, "game");
    int gi = game_index(gname);
    blog(B, "challenge %s from %s: %s%s%s, %s", id, jstr(seek, "by"), gname,
         jstr(seek, "options")[0] ? " " : "", jstr(seek, "options"),
         json_is_true(json_object_get(seek, "rated")) ? "rated" : "casual");
    if (gi < 0 || !B->plays[gi]) {
        decline(B, id, "a game this engine does not play");
        return;
    }
    if (games_running(B) + B->pending_accepts >= B->games_max) {
        decline(B, id, "busy: --games games at once");
        return;
    }
    char path[96];
    snprintf(path, sizeof path, "/api/seeks/%s/accept", id);
    json_t *a = NULL;
    long st = http(B, "POST", path, "{}", &a);
    if (st == 201 && json_is_string(json_object_get(a, "game"))) {
        blog(B, "challenge %s accepted: game %s", id, jstr(a, "game"));
        game_start(B, jstr(a, "game"));
    } else {
        blog(B, "challenge %s could not be accepted (%ld)", id, st);
    }
    json_decref(a);
}

static void on_event(bot *B, const char *text)
{
    json_t *m = json_loads(text, 0, NULL);
    const char *type = jstr(m, "type");
    if (strcmp(type, "challenge") == 0) {
        on_challenge(B, json_object_get(m, "seek"));
    } else if (strcmp(type, "challengeCanceled") == 0) {
        blog(B, "challenge %s canceled", jstr(m, "seek"));
    } else if (strcmp(type, "gameStart") == 0) {
        const char *id = jstr(m, "game");
        if (!game_find(B, id) && games_running(B) < BOT_GAMES_MAX)
            game_start(B, id);
    } else if (strcmp(type, "gameFinish") == 0) {
        bgame *G = game_find(B, jstr(m, "game"));
        if (G) {
            pthread_mutex_lock(&G->mu);
            G->poke = 1;
            pthread_cond_signal(&G->cv);
            pthread_mutex_unlock(&G->mu);
        }
    } else if (strcmp(type, "error") == 0) {
        blog(B, "the server refused the event socket: %s", jstr(m, "error"));
        if (json_integer_value(json_object_get(m, "status")) == 401) {
            blog(B, "the token is unknown or revoked: stopping");
            bot_stop = 1;
        }
    }
    json_decref(m);
}

static int rx_add(rxbuf *r, const void *in, size_t len)
{
    if (r->len + len + 1 > BOT_RX_MAX)
        return -1;
    if (r->len + len + 1 > r->cap) {
        size_t cap = r->cap ? r->cap : 8192;
        while (cap < r->len + len + 1)
            cap *= 2;
        char *d = realloc(r->data, cap);
        if (!d)
            return -1;
        r->data = d;
        r->cap = cap;
    }
    memcpy(r->data + r->len, in, len);
    r->len += len;
    r->data[r->len] = 0;
    return 0;
}

static bot *the_bot(struct lws *wsi)
{
    return lws_context_user(lws_get_context(wsi));
}

static int on_lws(struct lws *wsi, enum lws_callback_reasons reason, void *user, void *in,
                  size_t len)
{
    (void)user;
    bot *B = the_bot(wsi);
    void *who = lws_get_opaque_user_data(wsi);
    int is_events = B && who == (void *)B;
    bgame *G = B && !is_events ? who : NULL;
    switch (reason) {
    case LWS_CALLBACK_CLIENT_APPEND_HANDSHAKE_HEADER: {
        unsigned char **p = in, *end = *p + len;
        char v[160];
        snprintf(v, sizeof v, "Bearer %s", B->token);
        if (lws_add_http_header_by_token(wsi, WSI_TOKEN_HTTP_AUTHORIZATION, (unsigned char *)v,
                                         (int)strlen(v), p, end))
            return -1;
        return 0;
    }
    case LWS_CALLBACK_CLIENT_ESTABLISHED:
        if (is_events) {
            blog(B, "connected: the event socket is open");
            B->events_backoff_ms = 500;
            B->erx.len = 0;
        } else if (G) {
            G->rx.len = 0;
        }
        return 0;
    case LWS_CALLBACK_CLIENT_RECEIVE: {
        rxbuf *r = is_events ? &B->erx : G ? &G->rx : NULL;
        if (!r)
            return 0;
        if (lws_is_first_fragment(wsi))
            r->len = 0;
        if (rx_add(r, in, len) != 0)
            return -1;
        if (!lws_is_final_fragment(wsi) || lws_remaining_packet_payload(wsi) != 0)
            return 0;
        if (is_events) {
            char *copy = strdup(r->data);
            r->len = 0;
            if (copy)
                on_event(B, copy);
            free(copy);
        } else {
            json_t *m = json_loads(r->data, 0, NULL);
            int game_json = json_is_object(m) && json_object_get(m, "moves");
            json_decref(m);
            if (game_json) {
                pthread_mutex_lock(&G->mu);
                free(G->latest);
                G->latest = strdup(r->data);
                pthread_cond_signal(&G->cv);
                pthread_mutex_unlock(&G->mu);
            }
            r->len = 0;
        }
        return 0;
    }
    case LWS_CALLBACK_CLIENT_CONNECTION_ERROR:
    case LWS_CALLBACK_CLIENT_CLOSED:
        if (is_events) {
            if (bot_stop) {
                B->events = NULL;
            } else if (B->events == wsi || reason == LWS_CALLBACK_CLIENT_CONNECTION_ERROR) {
                B->events = NULL;
                blog(B, "the event socket is closed (%s): connecting again in %d ms",
                     in && reason == LWS_CALLBACK_CLIENT_CONNECTION_ERROR ? (const char *)in
                                                                         : "closed",
                     B->events_backoff_ms);
                B->events_retry_ms = now_ms() + B->events_backoff_ms;
                if (B->events_backoff_ms < 10000)
                    B->events_backoff_ms *= 2;
            }
        } else if (G) {
            if (G->live == wsi || reason == LWS_CALLBACK_CLIENT_CONNECTION_ERROR)
                G->live = NULL;
            pthread_mutex_lock(&G->mu);
            G->poke = 1;   /* read with a GET meanwhile */
            pthread_cond_signal(&G->cv);
            pthread_mutex_unlock(&G->mu);
        }
        return 0;
    default:
        break;
    }
    return 0;
}

static const struct lws_protocols bot_protocols[] = {
    {"tavoliere-bot", on_lws, 0, 0, 0, NULL, 0},
    {NULL, NULL, 0, 0, 0, NULL, 0},
};

/* --server URL: http[s]://HOST[:PORT][/PREFIX] */
static int parse_server(bot *B, const char *url)
{
    const char *p = url;
    if (strncmp(p, "http://", 7) == 0) {
        B->tls = 0;
        p += 7;
    } else if (strncmp(p, "https://", 8) == 0) {
        B->tls = 1;
        p += 8;
    } else {
        return -1;
    }
    B->port = B->tls ? 443 : 80;
    size_t hl = strcspn(p, ":/");
    if (hl == 0 || hl >= sizeof B->host)
        return -1;
    memcpy(B->host, p, hl);
    B->host[hl] = 0;
    p += hl;
    if (*p == ':') {
        char *end;
        long port = strtol(p + 1, &end, 10);
        if (port <= 0 || port > 65535)
            return -1;
        B->port = (int)port;
        p = end;
    }
    snprintf(B->prefix, sizeof B->prefix, "%s", p);
    size_t n = strlen(B->prefix);
    while (n && B->prefix[n - 1] == '/')
        B->prefix[--n] = 0;
    return 0;
}

/* Which games the engine plays: `newgame GAME` answered ok.  Never a game
 * with hidden information (Toscana's stacks): what the bot's seat sees
 * cannot be replayed into an engine that needs the whole deal. */
static int probe_engine(bot *B)
{
    engine e;
    if (engine_start(B, &e) != 0) {
        fprintf(stderr, "tavoliere bot: the engine could not be started\n");
        return -1;
    }
    int any = 0;
    for (int i = 0; i < tav_game_count() && i < BOT_KINDS_MAX; i++) {
        const tav_game *gm = tav_game_at(i);
        if (gm->mask)
            continue;   /* hidden information */
        char cmd[64];
        snprintf(cmd, sizeof cmd, "newgame %s", gm->name);
        B->plays[i] = engine_ok(&e, cmd) == 0;
        if (B->plays[i]) {
            size_t n = strlen(B->plays_text);
            snprintf(B->plays_text + n, sizeof B->plays_text - n, "%s%s", any ? " " : "", gm->name);
        }
        any |= B->plays[i];
        if (!B->plays[i] && strstr(e.err, "exited"))
            break;
    }
    engine_stop(&e);
    if (!any)
        fprintf(stderr, "tavoliere bot: warning: the engine plays none of the games (%s); "
                        "every challenge will be declined\n", e.err);
    return 0;
}

static int bot_usage(void)
{
    fprintf(stderr, "usage: tavoliere bot --server URL --token TOKEN [--engine \"COMMAND\"] "
                    "[--level N] [--games K] [--movetime MS]\n"
                    "  (the token may also come from the environment: TAVOLIERE_TOKEN)\n");
    return 2;
}

int cli_bot(int argc, char **argv)
{
    bot *B = calloc(1, sizeof *B);
    if (!B)
        return 1;
    pthread_mutex_init(&B->log_mu, NULL);
    B->level = 5;
    B->games_max = 1;
    B->movetime_max = 10000;
    const char *server = NULL, *token = getenv("TAVOLIERE_TOKEN");
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(a, "--server") == 0 && v)
            server = v, i++;
        else if (strcmp(a, "--token") == 0 && v)
            token = v, i++;
        else if (strcmp(a, "--engine") == 0 && v)
            B->engine = v, i++;
        else if (strcmp(a, "--level") == 0 && v)
            B->level = atoi(v), i++;
        else if (strcmp(a, "--games") == 0 && v)
            B->games_max = atoi(v), i++;
        else if (strcmp(a, "--movetime") == 0 && v)
            B->movetime_max = atol(v), i++;
        else {
            free(B);
            return bot_usage();
        }
    }
    if (!server || !token || parse_server(B, server) != 0 || B->level < 1 || B->level > 10 ||
        B->games_max < 1 || B->games_max > BOT_GAMES_MAX || B->movetime_max < 10 ||
        strlen(token) >= sizeof B->token) {
        free(B);
        return bot_usage();
    }
    snprintf(B->token, sizeof B->token, "%s", token);
    snprintf(B->auth, sizeof B->auth, "Authorization: Bearer %s", token);
    ssize_t n = readlink("/proc/self/exe", B->self, sizeof B->self - 1);
    if (n <= 0)
        snprintf(B->self, sizeof B->self, "%s", argv[0]);
    else
        B->self[n] = 0;
    signal(SIGPIPE, SIG_IGN);
    signal(SIGINT, on_signal);
    signal(SIGTERM, on_signal);
    curl_global_init(CURL_GLOBAL_DEFAULT);
    if (probe_engine(B) != 0) {
        free(B);
        return 1;
    }
    /* Who the token is: a bot account, or nothing works. */
    json_t *me = NULL;
    long st = 0;
    for (int tries = 0; tries < 30 && !bot_stop; tries++) {
        st = http(B, "GET", "/api/me", NULL, &me);
        if (st && st != 503)
            break;
        json_decref(me);
        me = NULL;
        sleep(1);
    }
    if (st != 200) {
        fprintf(stderr, "tavoliere bot: %s\n", st == 401 ? "the token is unknown or revoked"
                                               : st ? "the server refused the token"
                                                    : "the server does not answer");
        json_decref(me);
        free(B);
        return 1;
    }
    snprintf(B->name, sizeof B->name, "%s", jstr(me, "name"));
    int is_bot = json_is_true(json_object_get(me, "bot"));
    json_decref(me);
    if (!is_bot) {
        fprintf(stderr, "tavoliere bot: %s is not a bot account (POST /api/account/bot, or the "
                        "account page)\n", B->name);
        free(B);
        return 1;
    }
    lws_set_log_level(LLL_ERR, NULL);
    struct lws_context_creation_info info;
    memset(&info, 0, sizeof info);
    info.port = CONTEXT_PORT_NO_LISTEN;
    info.protocols = bot_protocols;
    info.user = B;
    info.options = LWS_SERVER_OPTION_DO_SSL_GLOBAL_INIT;
    B->ctx = lws_create_context(&info);
    if (!B->ctx) {
        fprintf(stderr, "tavoliere bot: no client context\n");
        free(B);
        return 1;
    }
    blog(B, "playing as %s on %s (%s; %s), at most %d game%s at once", B->name, server,
         B->plays_text, B->engine ? "engine: a command" : "the built-in engine", B->games_max,
         B->games_max == 1 ? "" : "s");
    B->events_backoff_ms = 500;
    while (!bot_stop) {
        if (!B->events && now_ms() >= B->events_retry_ms) {
            B->events = connect_socket(B, "/api/bot/events", B);
            B->events_retry_ms = now_ms() + B->events_backoff_ms;
        }
        lws_service(B->ctx, 100);
        games_tend(B);
    }
    blog(B, "stopping");
    /* The games' threads end (their engines with them); the games go on on
     * the server, and a bot started again resumes them. */
    for (bgame *G = B->list; G; G = G->next) {
        pthread_mutex_lock(&G->mu);
        pthread_cond_signal(&G->cv);
        pthread_mutex_unlock(&G->mu);
    }
    for (bgame *G = B->list; G; G = G->next) {
        pthread_join(G->th, NULL);
        if (G->live)
            lws_set_opaque_user_data(G->live, NULL);
    }
    lws_context_destroy(B->ctx);   /* its sockets' last callbacks find no game */
    B->ctx = NULL;
    while (B->list) {
        bgame *G = B->list;
        B->list = G->next;
        free(G->latest);
        free(G->rx.data);
        pthread_mutex_destroy(&G->mu);
        pthread_cond_destroy(&G->cv);
        free(G);
    }
    free(B->erx.data);
    curl_global_cleanup();
    free(B);
    return 0;
}
