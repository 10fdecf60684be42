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
static volatile sig_atomic_t drain_requested;   /* SIGTERM/SIGINT: drain, then stop */
static volatile sig_atomic_t hup_seen;          /* SIGHUP: said in the log, nothing else */
static struct lws_context *volatile signal_ctx;
static srv *uv_srv;   /* the server a libuv signal callback stops */

static void on_signal(int sig)
{
    if (sig == SIGHUP)
        hup_seen = 1;
    else
        drain_requested = 1;
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
    core_mail_stop(S->C);
    core_stop(S->C);
    if (S->stats) {   /* --stats: the figures a benchmark reads, even when quiet */
        int64_t trips, out, in;
        core_db_stats(S->C, &trips, &out, &in);
        core_ops_figures fig;
        core_figures(S->C, &fig);
        fprintf(stderr, "stats: %ld commits, %lld database round trips, %lld bytes sent, %lld received, "
                "%ld messages heard, %ld games read again, %ld moves heard and played\n",
                S->batches, (long long)trips, (long long)out, (long long)in, fig.notes_seen,
                fig.refreshed, fig.deltas);
    }
    signal_ctx = NULL;
    lws_context_destroy(S->ctx);
}

/* libuv: SIGINT and SIGTERM arrive inside the loop: the drain starts (the
 * tick carries it on). */
static void on_uv_signal(void *handle, int sig)
{
    (void)handle;
    if (sig == SIGINT || sig == SIGTERM)
        drain_requested = 1;
}

/* The drain (SIGTERM, SIGINT): new API requests are answered 503 at once,
 * the answers held (waiting for their commit) go out, then every WebSocket
 * is closed with 1001 "going away" (the page reconnects, through the proxy
 * to another instance), then the server stops.  Each phase waits at most
 * DRAIN_ANSWERS_US / DRAIN_SOCKETS_US. */
#define DRAIN_ANSWERS_US (3 * 1000000)
#define DRAIN_SOCKETS_US (1 * 1000000)
#define DRAIN_FLUSH_US (200 * 1000)

static int drain_step(srv *S, int64_t now)
{
    if (!S->draining) {
        S->draining = 1;
        S->drain_us = now;
        srv_log(S, "draining: new requests refused, %s", "answering what is held");
        srv_flush(S);
    }
    if (!S->closing) {
        if ((http_answers_pending(S) || core_pending(S->C)) && now - S->drain_us < DRAIN_ANSWERS_US)
            return 0;
        S->drain_us = now;
        http_close_sockets(S);
        return 0;
    }
    /* The close frames are queued: give the sockets a moment to write them
     * (and the clients to answer) before the context is torn down. */
    if ((S->socks_live + S->socks_lobby > 0 || now - S->drain_us < DRAIN_FLUSH_US) &&
        now - S->drain_us < DRAIN_SOCKETS_US)
        return 0;
    return 1;
}

/* Every option, a line each (serve --help; docs/server-api.md, docs/deploy.md). */
static const char usage_text[] =
    "usage: tavoliere serve [OPTION...]\n"
    "  --host ADDR            the address to listen on (default 127.0.0.1; ::1 or :: for IPv6)\n"
    "  --port N               the port (default 8080)\n"
    "  --db PATH|URI          a SQLite file or postgresql://... (docs/deploy.md); default: the\n"
    "                         environment's TAVOLIERE_DB, else tavoliere.db\n"
    "  --db-wait SECS         at start, try an unreachable PostgreSQL again for this long (default 300)\n"
    "  --web DIR              the page's files (default: web/ beside the program, else\n"
    "                         ../share/tavoliere/web from it, as make install puts them)\n"
    "  --name NAME            this instance's name in the log, /api/health and /metrics\n"
    "                         (default HOST:PORT)\n"
    "  --ai-ms MS             the computer's time a move, default levels (default 1000)\n"
    "  --threads N            search threads (default 2)\n"
    "  --rate N               API requests a second per client address (default 60; 0: none)\n"
    "  --limit-loopback       apply the per-address limits to loopback clients too\n"
    "  --games-per-hour N     games one address may create an hour\n"
    "  --pace MS              the pace of computer-only games (ms a move)\n"
    "  --allow-host NAME      a host name the Host header may name (repeat it)\n"
    "  --live-idle SECS       a silent live socket is pinged after half this, closed after it\n"
    "  --proxy                behind a proxy on this machine: a loopback peer's X-Real-IP names the client\n"
    "  --proxy-addr ADDR      the proxy's address: only its X-Real-IP is believed (repeat it)\n"
    "  --tls-proxy            behind a proxy that serves TLS (cookies get Secure)\n"
    "  --metrics-allow ADDR   an address that may read /metrics (repeat it; default: loopback)\n"
    "  --stats                print database round trips and bytes at exit\n"
    "  --seek-lapse SECS      a seek lapses when its owner had no lobby socket this long (300)\n"
    "  --retention-days N     chat lines and reports older than N days are deleted (180;\n"
    "                         0: kept for ever)\n"
    "  --smtp URL             send e-mail through this relay (smtp://HOST:PORT, smtps://USER:PASS@HOST);\n"
    "                         default: the environment's TAVOLIERE_SMTP; none: no mail is sent\n"
    "  --mail-from ADDRESS    the mails' sender (TAVOLIERE_MAIL_FROM)\n"
    "  --public-url URL       the site's address in the mails' links, https://play.example.org\n"
    "                         (TAVOLIERE_PUBLIC_URL; default http://HOST:PORT)\n"
    "  --test-clock FILE      tests only: an offset in ms added to the games' time\n"
    "  --poll                 poll() instead of libuv's event loop\n"
    "  --quiet                no log line a request\n"
    "  --help                 this text\n"
    "Signals: SIGTERM or SIGINT drain and stop (new requests 503, held answers sent, sockets\n"
    "closed with 1001); SIGHUP is logged and changes nothing (the log is standard error).\n";

static int usage(void)
{
    fputs(usage_text, stderr);
    return 2;
}

/* The page's folder: <directory of the executable>/web (the build), else
 * <directory of the executable>/../share/tavoliere/web (make install). */
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
    struct stat sb;
    if (stat(out, &sb) == 0 && S_ISDIR(sb.st_mode))
        return;
    char installed[PATH_MAX + 32];
    snprintf(installed, sizeof installed, "%s/../share/tavoliere/web", exe);
    if (stat(installed, &sb) == 0 && S_ISDIR(sb.st_mode))
        snprintf(out, n, "%s", installed);
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
    int64_t now_us = ops_now_us();
    ops_tick(S, now_us);
    if (hup_seen) {
        hup_seen = 0;
        srv_log(S, "SIGHUP: nothing to reopen (the log is standard error); still serving");
    }
    if (drain_requested && drain_step(S, now_us)) {
        stop_requested = 1;
        if (S->uv)
            stop_first(S);   /* as the signal callback did: the loop then ends */
        else
            lws_cancel_service(S->ctx);
        return;
    }
    core_tick(S->C);
    shared_drain(S->C);
    shared_tick(S->C);
    core_moderation_tick(S->C, S->retention_days);
    tours_tick(S);
    if (core_pending(S->C))
        srv_flush(S);
    int64_t now = core_unix_ms();
    lobby_now(S, now);
    if (now - S->lapse_checked >= 1000) {
        S->lapse_checked = now;
        http_seeks_lapse(S);
    }
    if (now - S->idle_swept >= 200) {
        S->idle_swept = now;
        http_idle_sweep(S, now);
    }
    S->tick_due_us = ops_now_us() + TICK_US;
    lws_sul_schedule(S->ctx, 0, &S->tick_sul, on_tick, TICK_US);
}

/* ---- the core's events ---- */

static void ev_wake(void *ctx)
{
    srv *S = ctx;
    if (S->ctx)
        lws_cancel_service(S->ctx);
}

static void ev_changed(void *ctx, game *g)
{
    live_broadcast(ctx, g);
    lobby_mygame(ctx, g);
}
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

static void ev_lobby_changed(void *ctx)
{
    lobby_broadcast(ctx);
    bots_lobby_changed(ctx);
}

static void ev_bot_game(void *ctx, const char *account, const char *game_id, int finished)
{
    bots_game(ctx, account, game_id, finished);
}

static void ev_declined(void *ctx, const char *maker, const char *seek_id, const char *by,
                        const char *reason)
{
    bots_declined(ctx, maker, seek_id, by, reason);
}

static void ev_started(void *ctx, const char *account, const char *game_id)
{
    lobby_started(ctx, account, game_id);
}

static int ev_present(void *ctx, const char *account)
{
    return srv_account_present(ctx, account);
}

static void ev_freeing(void *ctx, game *g)
{
    (void)ctx;
    gview *gv = core_game_edge(g);
    for (int k = 0; k < 3; k++)
        free(gv->json[k]);
    free(gv);
    core_game_set_edge(g, NULL);
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
    const char *name = NULL;
    const char *smtp = getenv("TAVOLIERE_SMTP"), *mail_from = getenv("TAVOLIERE_MAIL_FROM");
    const char *public_url = getenv("TAVOLIERE_PUBLIC_URL");
    const char *mallow[SRV_METRICS_ALLOW_MAX];
    int nmallow = 0;
    long db_wait = 300;
    const char *hosts[SRV_HOSTS_MAX];
    int nhosts = 0;
    const char *proxies[SRV_PROXIES_MAX];
    int nproxies = 0;
    long seek_lapse = CORE_SEEK_LAPSE_SECS;
    long retention = CORE_RETENTION_DAYS;
    long port = 8080, ai_ms = 1000, threads = 2, rate = 60, per_hour = CORE_GAMES_PER_HOUR;
    long pace = CORE_CPU_PACE_MS, live_idle = SRV_IDLE_SECS;
    int quiet = 0, limit_loopback = 0, use_poll = 0, secure_cookies = 0, behind_proxy = 0, stats = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            fputs(usage_text, stdout);
            return 0;
        }
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
        else if (strcmp(a, "--smtp") == 0)   /* e-mail (docs/deploy.md "E-mail") */
            smtp = v;
        else if (strcmp(a, "--mail-from") == 0)
            mail_from = v;
        else if (strcmp(a, "--public-url") == 0)
            public_url = v;
        else if (strcmp(a, "--name") == 0 && strlen(v) < 100 && v[0])
            name = v;
        else if (strcmp(a, "--db-wait") == 0 && parse_long(v, 0, 86400, &db_wait) == 0)
            ;
        else if (strcmp(a, "--metrics-allow") == 0 && nmallow < SRV_METRICS_ALLOW_MAX && strlen(v) < 64 &&
                 v[0])
            mallow[nmallow++] = v;
        else if (strcmp(a, "--proxy-addr") == 0 && nproxies < SRV_PROXIES_MAX && strlen(v) < 64 &&
                 v[0]) {
            proxies[nproxies++] = v;
            behind_proxy = 1;
        } else if (strcmp(a, "--seek-lapse") == 0 && parse_long(v, 1, 86400, &seek_lapse) == 0)
            ;
        else if (strcmp(a, "--retention-days") == 0 && parse_long(v, 0, 36500, &retention) == 0)
            ;
        else if (strcmp(a, "--allow-host") == 0 && nhosts < SRV_HOSTS_MAX && strlen(v) < 256 &&
                 v[0])
            hosts[nhosts++] = v;
        else
            return usage();
    }
    /* --db, else TAVOLIERE_DB from the environment (the service's private
     * environment file: no password on a command line), else the file. */
    int db_given = 0;
    for (int i = 1; i + 1 < argc; i++)
        db_given |= strcmp(argv[i], "--db") == 0;
    const char *env_db = getenv("TAVOLIERE_DB");
    if (!db_given && env_db && env_db[0])
        db = env_db;
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
    S->retention_days = (int)retention;
    S->behind_proxy = behind_proxy;
    for (int i = 0; i < nproxies; i++)
        snprintf(S->proxies[S->nproxies++], sizeof S->proxies[0], "%s", proxies[i]);
    S->stats = stats;
    S->live_idle_ms = live_idle * 1000;
    S->started_us = ops_now_us();
    if (name)
        snprintf(S->name, sizeof S->name, "%s", name);
    else
        snprintf(S->name, sizeof S->name, "%.100s:%ld", host, port);
    for (int i = 0; i < nmallow; i++)
        snprintf(S->metrics_allow[S->nmetrics_allow++], sizeof S->metrics_allow[0], "%s", mallow[i]);
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
    /* No libwebsockets validity timer on the sockets: it lives in one list
     * sorted by time, and each pong moved the socket's entry to the list's
     * end, a walk along every open socket (18% of the server's CPU with
     * 10,000 live sockets).  The server's own idle check (sockets.c) pings
     * and closes silent sockets instead.  A policy whose hang-up is 0
     * schedules none. */
    static const lws_retry_bo_t no_validity = {.secs_since_valid_ping = 0,
                                               .secs_since_valid_hangup = 0};
    info.retry_and_idle_policy = &no_validity;
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
                      ev_account_done, ev_lobby_changed, ev_started, ev_present,
                      ev_bot_game, ev_declined, chat_event, srv_account_gone};
    char err[512], dblabel[512];
    store_db_label(db, dblabel, sizeof dblabel);   /* no password in what is printed */
    /* PostgreSQL may not be up yet (a machine starting): try again with a
     * growing pause, for --db-wait seconds; a file opens or fails at once. */
    int server_db = strncmp(db, "postgres://", 11) == 0 || strncmp(db, "postgresql://", 13) == 0;
    int64_t wait_until = ops_now_us() + (int64_t)db_wait * 1000000;
    long pause_ms = 250;
    /* SIGINT and SIGTERM start the drain, on either loop: a flag and a
     * wake-up (libuv's own signal watchers would stop its loop before the
     * sockets' close frames are out). */
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    signal_ctx = S->ctx;
    for (;;) {
        S->C = core_new(&cf, &ev, db, err, sizeof err);
        if (S->C && shared_start(S->C, db, err, sizeof err) != 0) {   /* many instances */
            shared_stop(S->C);
            core_free(S->C);
            S->C = NULL;
        }
        if (S->C || !server_db || drain_requested || ops_now_us() >= wait_until)
            break;
        fprintf(stderr, "tavoliere serve: database %s: %s (trying again in %ld ms)\n", dblabel, err,
                pause_ms);
        struct timespec ts = {pause_ms / 1000, (pause_ms % 1000) * 1000000L};
        nanosleep(&ts, NULL);
        pause_ms = pause_ms * 2 > 5000 ? 5000 : pause_ms * 2;
    }
    if (S->C && smtp && smtp[0]) {   /* e-mail: the worker and its own connection */
        char url[300];
        snprintf(url, sizeof url, "http://%s:%ld", strchr(host, ':') ? "[::1]" : host, port);
        if (mail_serve_start(S, smtp, mail_from && mail_from[0] ? mail_from : "",
                             public_url && public_url[0] ? public_url : url, db, err,
                             sizeof err) != 0) {
            fprintf(stderr, "tavoliere serve: e-mail: %s\n", err);
            shared_stop(S->C);
            core_free(S->C);
            lws_context_destroy(S->ctx);
            free(S);
            return 1;
        }
    }
    if (!S->C) {
        fprintf(stderr, "tavoliere serve: database %s: %s\n", dblabel, err);
        lws_context_destroy(S->ctx);
        free(S);
        return 1;
    }

    /* SIGHUP (a log rotation's usual signal) never stops the server. */
    struct sigaction hup;
    memset(&hup, 0, sizeof hup);
    hup.sa_handler = on_signal;
    sigemptyset(&hup.sa_mask);
    sigaction(SIGHUP, &hup, NULL);
    signal(SIGPIPE, SIG_IGN);

    core_ops_figures fig;
    core_figures(S->C, &fig);
    printf("tavoliere: serving http://%s:%ld/ (database %s, %ld games loaded%s%s)\n",
           strchr(host, ':') ? "[::1]" : host, port, dblabel, fig.games,
           S->have_web ? "" : ", web UI not built", core_mail_on(S->C) ? ", e-mail on" : "");
    fflush(stdout);

    lws_sul_schedule(S->ctx, 0, &S->tick_sul, on_tick, TICK_US);
    /* With libuv, lws_service runs the loop until the signal callback has
     * stopped the server; with poll(), one turn at a time. */
    S->tick_due_us = ops_now_us() + TICK_US;
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
