/*
 * serve.c — `tavoliere serve`: options, start-up, the event loop, shutdown.
 *
 * Start: open (and migrate) the store, start the search service, open the
 * listening socket, reload every unfinished game (computer seats to move
 * resume thinking), print the address.  Stop on SIGINT/SIGTERM: cancel
 * searches, stop the workers, close every socket, close the database.
 * Nothing is ever half-written: each change is one committed transaction.
 */
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <libwebsockets.h>
#include <sodium.h>

#include "server/server.h"
#include "server/srv.h"

static volatile sig_atomic_t stop_requested;
static struct lws_context *volatile signal_ctx;
static srv *uv_srv;   /* the server a libuv signal callback stops */

static void on_signal(int sig)
{
    (void)sig;
    stop_requested = 1;
    if (signal_ctx)
        lws_cancel_service(signal_ctx);
}

/* Stop: commit what is open, end the searches and the threads, then close
 * every socket (the edge lets go of its games).  Once only. */
static void stop_first(srv *S)
{
    if (S->stopped)
        return;
    S->stopped = 1;
    stop_requested = 1;
    lws_sul_cancel(&S->tick_sul);
    lws_sul_cancel(&S->flush_sul);
    srv_flush(S);   /* core_stop waits for what is still open */
    srv_log(S, "stopping after %ld API requests, %ld commits, %ld failed", S->requests,
            S->batches, S->failed);
    shared_stop(S->C);   /* the listener first: it wakes the loop */
    core_stop(S->C);
    if (S->stats) {   /* --stats: the figures a benchmark reads, even when quiet */
        int64_t trips, out, in;
        core_db_stats(S->C, &trips, &out, &in);
        fprintf(stderr, "stats: %ld commits, %lld database round trips, %lld bytes sent, %lld received, "
                "%ld messages heard, %ld games read again\n",
                S->batches, (long long)trips, (long long)out, (long long)in, S->C->notes_seen,
                S->C->refreshed);
    }
    signal_ctx = NULL;
    lws_context_destroy(S->ctx);
}

/* libuv: SIGINT and SIGTERM arrive inside the loop. */
static void on_uv_signal(void *handle, int sig)
{
    (void)handle;
    if ((sig == SIGINT || sig == SIGTERM) && uv_srv)
        stop_first(uv_srv);
}

static int usage(void)
{
    fprintf(stderr,
            "usage: tavoliere serve [--host ADDR] [--port N] [--db PATH] [--web DIR]\n"
            "                       [--ai-ms MS] [--threads N] [--rate N] [--limit-loopback]\n"
            "                       [--games-per-hour N] [--pace MS] [--allow-host NAME ...]\n"
            "                       [--live-idle SECS] [--proxy] [--tls-proxy] [--proxy-addr ADDR ...]\n"
            "                       [--test-clock FILE] [--seek-lapse SECS]\n"
            "                       [--stats]\n"
            "                       [--poll] [--quiet]\n");
    return 2;
}

/* The build's web folder: <directory of the executable>/web. */
static void default_webdir(char *out, size_t n, const char *argv0)
{
    char exe[PATH_MAX];
    ssize_t len = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (len > 0) {
        exe[len] = 0;
    } else {
        snprintf(exe, sizeof exe, "%s", argv0);
    }
    char *slash = strrchr(exe, '/');
    if (slash)
        *slash = 0;
    else
        snprintf(exe, sizeof exe, ".");
    snprintf(out, n, "%s/web", exe);
}

static int parse_long(const char *s, long lo, long hi, long *out)
{
    char *end = NULL;
    long v = strtol(s, &end, 10);
    if (!s[0] || *end || v < lo || v > hi)
        return -1;
    *out = v;
    return 0;
}

/* Answers from the search workers wake the loop with lws_cancel_service();
 * a wake-up that arrives while the loop is already handling one can be
 * absorbed, so a short tick also drains the queue (a no-op when empty). */
#define TICK_US (20 * LWS_US_PER_MS)

static void on_tick(lws_sorted_usec_list_t *sul)
{
    srv *S = lws_container_of(sul, srv, tick_sul);
    core_tick(S->C);
    shared_drain(S->C);
    shared_tick(S->C);
    if (core_pending(S->C))
        srv_flush(S);
    int64_t now = core_unix_ms();
    if (now - S->lapse_checked >= 1000) {
        S->lapse_checked = now;
        http_seeks_lapse(S);
    }
    if (now - S->idle_swept >= 200) {
        S->idle_swept = now;
        http_idle_sweep(S, now);
    }
    lws_sul_schedule(S->ctx, 0, &S->tick_sul, on_tick, TICK_US);
}

/* ---- the core's events ---- */

static void ev_wake(void *ctx)
{
    srv *S = ctx;
    if (S->ctx)
        lws_cancel_service(S->ctx);
}

static void ev_changed(void *ctx, game *g) { live_broadcast(ctx, g); }
static void ev_dirty(void *ctx) { srv_dirty(ctx); }

static void ev_committed(void *ctx, long n, int ok)
{
    srv *S = ctx;
    if (ok)
        S->batches++;
    else
        S->failed++;
    http_committed(S, n, ok);
}

static void ev_hint_done(void *ctx, void *waiter, const core_answer *h)
{
    conn *c = waiter;
    reply r;
    api_hint_done(ctx, h, &r);
    c->waiting = NULL;
    http_reply_ready(c, &r);
}

static void ev_record_done(void *ctx, void *waiter, core_made *m)
{
    conn *c = waiter;
    reply r;
    api_record_done(ctx, m, &r);
    c->waiting = NULL;
    http_reply_ready(c, &r);
}

static void ev_account_done(void *ctx, void *waiter, core_signed *sg)
{
    srv *S = ctx;
    conn *c = waiter;
    reply r;
    api_account_done(S, sg, S->secure_cookies, &r);
    c->waiting = NULL;
    http_reply_ready(c, &r);
}

static void ev_lobby_changed(void *ctx) { lobby_broadcast(ctx); }

static void ev_started(void *ctx, const char *account, const char *game_id)
{
    lobby_started(ctx, account, game_id);
}

static void ev_freeing(void *ctx, game *g)
{
    (void)ctx;
    gview *gv = g->edge;
    for (int k = 0; k < 3; k++)
        free(gv->json[k]);
    free(gv);
    g->edge = NULL;
}

/* Sent with every answer, libwebsockets' own error pages included. */
static const struct lws_protocol_vhost_options security_headers[] = {
    {&security_headers[1], NULL, "referrer-policy:", "no-referrer"},
    {&security_headers[2], NULL, "x-content-type-options:", "nosniff"},
    {&security_headers[3], NULL, "x-frame-options:", "DENY"},   /* browsers without frame-ancestors */
    {&security_headers[4], NULL, "content-security-policy:",
     "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; img-src 'self' data:; "
     "object-src 'none'; base-uri 'none'; "
     "form-action 'self'; frame-ancestors 'none'"},
    {NULL, NULL, "cache-control:", "no-store"},
};

int server_main(int argc, char **argv)
{
    const char *host = "127.0.0.1", *db = "tavoliere.db", *web = NULL, *clock_file = NULL;
    const char *hosts[SRV_HOSTS_MAX];
    int nhosts = 0;
    const char *proxies[SRV_PROXIES_MAX];
    int nproxies = 0;
    long seek_lapse = CORE_SEEK_LAPSE_SECS;
    long port = 8080, ai_ms = 1000, threads = 2, rate = 60, per_hour = CORE_GAMES_PER_HOUR;
    long pace = CORE_CPU_PACE_MS, live_idle = SRV_IDLE_SECS;
    int quiet = 0, limit_loopback = 0, use_poll = 0, secure_cookies = 0, behind_proxy = 0, stats = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(a, "--quiet") == 0) {
            quiet = 1;
            continue;
        }
        if (strcmp(a, "--limit-loopback") == 0) {
            limit_loopback = 1;
            continue;
        }
        if (strcmp(a, "--poll") == 0) {
            use_poll = 1;
            continue;
        }
        if (strcmp(a, "--tls-proxy") == 0) {
            secure_cookies = 1;
            behind_proxy = 1;
            continue;
        }
        if (strcmp(a, "--proxy") == 0) {
            behind_proxy = 1;
            continue;
        }
        if (strcmp(a, "--stats") == 0) {
            stats = 1;
            continue;
        }
        if (!v)
            return usage();
        i++;
        if (strcmp(a, "--host") == 0)
            host = v;
        else if (strcmp(a, "--db") == 0)
            db = v;
        else if (strcmp(a, "--web") == 0)
            web = v;
        else if (strcmp(a, "--port") == 0 && parse_long(v, 1, 65535, &port) == 0)
            ;
        else if (strcmp(a, "--ai-ms") == 0 && parse_long(v, 10, 600000, &ai_ms) == 0)
            ;
        else if (strcmp(a, "--threads") == 0 && parse_long(v, 1, 64, &threads) == 0)
            ;
        else if (strcmp(a, "--rate") == 0 && parse_long(v, 0, 1000000, &rate) == 0)
            ;
        else if (strcmp(a, "--games-per-hour") == 0 && parse_long(v, 1, 1000000, &per_hour) == 0)
            ;
        else if (strcmp(a, "--pace") == 0 && parse_long(v, 0, 600000, &pace) == 0)
            ;
        else if (strcmp(a, "--live-idle") == 0 && parse_long(v, 2, 86400, &live_idle) == 0)
            ;
        else if (strcmp(a, "--test-clock") == 0)
            clock_file = v;
        else if (strcmp(a, "--proxy-addr") == 0 && nproxies < SRV_PROXIES_MAX && strlen(v) < 64 &&
                 v[0]) {
            proxies[nproxies++] = v;
            behind_proxy = 1;
        } else if (strcmp(a, "--seek-lapse") == 0 && parse_long(v, 1, 86400, &seek_lapse) == 0)
            ;
        else if (strcmp(a, "--allow-host") == 0 && nhosts < SRV_HOSTS_MAX && strlen(v) < 256 &&
                 v[0])
            hosts[nhosts++] = v;
        else
            return usage();
    }
    if (sodium_init() < 0) {
        fprintf(stderr, "tavoliere serve: libsodium failed to start\n");
        return 1;
    }
    srv *S = calloc(1, sizeof *S);
    if (!S) {
        fprintf(stderr, "tavoliere serve: out of memory\n");
        return 1;
    }
    S->quiet = quiet;
    S->secure_cookies = secure_cookies;
    S->behind_proxy = behind_proxy;
    for (int i = 0; i < nproxies; i++)
        snprintf(S->proxies[S->nproxies++], sizeof S->proxies[0], "%s", proxies[i]);
    S->stats = stats;
    S->live_idle_ms = live_idle * 1000;
    for (int i = 0; i < nhosts; i++)
        snprintf(S->hosts[S->nhosts++], sizeof S->hosts[0], "%s", hosts[i]);
    /* The address it listens on is a name it answers to. */
    if (S->nhosts < SRV_HOSTS_MAX && strlen(host) < sizeof S->hosts[0])
        snprintf(S->hosts[S->nhosts++], sizeof S->hosts[0], "%s", host);
    if (web)
        snprintf(S->webdir, sizeof S->webdir, "%s", web);
    else
        default_webdir(S->webdir, sizeof S->webdir, argv[0]);
    struct stat sb;
    S->have_web = stat(S->webdir, &sb) == 0 && S_ISDIR(sb.st_mode);

    /* Every socket is a file: allow as many as the system lets this process have. */
    struct rlimit rl;
    if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < rl.rlim_max) {
        rl.rlim_cur = rl.rlim_max;
        setrlimit(RLIMIT_NOFILE, &rl);
    }
    lws_set_log_level(LLL_ERR, NULL);
    struct lws_context_creation_info info;
    memset(&info, 0, sizeof info);
    info.port = (int)port;
    info.iface = host;
    info.protocols = srv_protocols;
    info.user = S;
    info.options = LWS_SERVER_OPTION_VALIDATE_UTF8 | LWS_SERVER_OPTION_DISABLE_IPV6;
    if (strchr(host, ':'))
        info.options &= ~(uint64_t)LWS_SERVER_OPTION_DISABLE_IPV6;
    info.keepalive_timeout = SRV_IDLE_SECS;
    info.timeout_secs = 20;
    info.max_http_header_data = 4096;
    info.max_http_header_pool = SRV_HEADER_POOL;
    info.timeout_secs_ah_idle = SRV_HEADER_SECS;
    info.vhost_name = "tavoliere";
    info.headers = &security_headers[0];
    /* The event loop: libuv (epoll: the cost of a turn of the loop does not
     * grow with the number of open sockets) through libwebsockets' event
     * library plugin, else poll().  Signals then come through libuv. */
    info.options |= LWS_SERVER_OPTION_LIBUV | LWS_SERVER_OPTION_UV_NO_SIGSEGV_SIGFPE_SPIN;
    info.signal_cb = on_uv_signal;
    uv_srv = S;
    S->ctx = use_poll ? NULL : lws_create_context(&info);
    S->uv = S->ctx != NULL;
    if (!S->ctx) {
        info.options &= ~(uint64_t)(LWS_SERVER_OPTION_LIBUV |
                                    LWS_SERVER_OPTION_UV_NO_SIGSEGV_SIGFPE_SPIN);
        info.signal_cb = NULL;
        S->ctx = lws_create_context(&info);
    }
    if (!S->ctx) {
        fprintf(stderr, "tavoliere serve: cannot listen on %s:%ld\n", host, port);
        free(S);
        return 1;
    }

    /* The core: the store, the search workers, the games to resume. */
    core_config cf = {ai_ms,          (int)threads, (int)rate, limit_loopback,
                      (int)per_hour, pace,         quiet,      CORE_IDLE_SECS,
                      clock_file,     (int)seek_lapse};
    core_events ev = {S,           ev_wake,      ev_changed,     ev_dirty,
                      ev_committed, ev_hint_done, ev_record_done, ev_freeing,
                      ev_account_done, ev_lobby_changed, ev_started};
    char err[512], dblabel[512];
    store_db_label(db, dblabel, sizeof dblabel);   /* no password in what is printed */
    S->C = core_new(&cf, &ev, db, err, sizeof err);
    if (S->C && shared_start(S->C, db, err, sizeof err) != 0) {   /* many instances */
        shared_stop(S->C);
        core_free(S->C);
        S->C = NULL;
    }
    if (!S->C) {
        fprintf(stderr, "tavoliere serve: database %s: %s\n", dblabel, err);
        lws_context_destroy(S->ctx);
        free(S);
        return 1;
    }

    if (!S->uv) {
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = on_signal;
        sigemptyset(&sa.sa_mask);
        signal_ctx = S->ctx;
        sigaction(SIGINT, &sa, NULL);
        sigaction(SIGTERM, &sa, NULL);
    }
    signal(SIGPIPE, SIG_IGN);

    printf("tavoliere: serving http://%s:%ld/ (database %s, %ld games loaded%s)\n",
           strchr(host, ':') ? "[::1]" : host, port, dblabel, S->C->ngames,
           S->have_web ? "" : ", web UI not built");
    fflush(stdout);

    lws_sul_schedule(S->ctx, 0, &S->tick_sul, on_tick, TICK_US);
    /* With libuv, lws_service runs the loop until the signal callback has
     * stopped the server; with poll(), one turn at a time. */
    while (!stop_requested)
        if (lws_service(S->ctx, 0) != 0 && S->uv)
            break;
    stop_first(S);
    if (S->uv)
        lws_context_destroy(S->ctx);   /* libuv: the second half, once the loop ended */
    S->ctx = NULL;
    core_free(S->C);
    http_conns_free(S);
    http_files_free(S);
    printf("tavoliere: stopped\n");
    fflush(stdout);
    free(S);
    return 0;
}
