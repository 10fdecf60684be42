/*
 * ops.c — what the operator reads: the request log, GET /api/health and
 * GET /metrics (Prometheus' text format), docs/deploy.md "Monitoring".
 *
 * Every answer is counted here once its headers go out (ops_answered):
 * by status, and for moves by outcome with their latency.  /metrics adds
 * what the core holds (games in memory, commits, database round trips,
 * searches).  Both pages are cheap: counters already kept, one database
 * round trip for the health check.  /metrics answers only the addresses the
 * operator allows (--metrics-allow; loopback by default), judged by the
 * client's real address (behind the proxy, the one it reports).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "server/srv.h"

static const int lat_le_us[SRV_LAT_BUCKETS] = SRV_LAT_BOUNDS_US;

int64_t ops_now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

/* The index of a status among the ones counted apart (the last: others). */
static const int counted_status[SRV_STATUS_KINDS - 1] = {200, 201, 202, 204, 400, 401, 403, 404,
                                                         409, 413, 429, 500, 503};

static int status_index(int status)
{
    for (int i = 0; i < SRV_STATUS_KINDS - 1; i++)
        if (counted_status[i] == status)
            return i;
    return SRV_STATUS_KINDS - 1;
}

static void lat_add(srv_hist *h, int64_t us)
{
    int k = 0;
    while (k < SRV_LAT_BUCKETS && us > lat_le_us[k])
        k++;
    h->count[k]++;
    h->n++;
    h->sum_us += us;
}

/* A line of the log (the core's writer: time-stamped, on standard error). */
#if defined(__GNUC__)
__attribute__((format(printf, 1, 2)))
#endif
static void ops_log(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    core_vlog(NULL, fmt, ap);
    va_end(ap);
}

/* A move: POST /api/games/ID/moves. */
static int is_move(const conn *c)
{
    size_t n = strlen(c->path);
    return c->method == 'P' && strncmp(c->path, "/api/games/", 11) == 0 && n > 17 &&
           strcmp(c->path + n - 6, "/moves") == 0;
}

void ops_answered(srv *S, conn *c, const char *addr)
{
    int64_t us = c->t0_us ? ops_now_us() - c->t0_us : 0;
    srv_metrics *m = &S->metrics;
    m->requests[status_index(c->status)]++;
    if (strncmp(c->path, "/api/", 5) == 0)
        lat_add(&m->api_latency, us);
    if (is_move(c)) {
        int outcome = c->status == 200   ? SRV_MOVE_PLAYED
                      : c->status == 409 ? SRV_MOVE_CONFLICT
                      : c->status == 429 ? SRV_MOVE_LIMITED
                      : c->status == 503 ? SRV_MOVE_UNAVAILABLE
                      : c->status >= 500 ? SRV_MOVE_FAILED
                                         : SRV_MOVE_REFUSED;
        m->moves[outcome]++;
        lat_add(&m->move_latency, us);
    }
    /* One line a request: who (the real client address behind the proxy),
     * what (the path without its query: never a token), the answer, how
     * long it took, and which instance answered. */
    if (!S->quiet)
        ops_log("%s %s %s %d %.1fms %s", addr && addr[0] ? addr : "-",
            c->method == 'G' ? "GET" : c->method == 'P' ? "POST" : c->method == 'D' ? "DELETE" : "other",
            c->path, c->status, (double)us / 1000.0, S->name);
}

/* ---- text with a growing buffer ---- */

typedef struct obuf {
    char *p;
    size_t len, cap;
    int oom;
} obuf;

#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
static void out(obuf *b, const char *fmt, ...)
{
    if (b->oom)
        return;
    for (;;) {
        va_list ap;
        va_start(ap, fmt);
        int n = vsnprintf(b->p ? b->p + b->len : NULL, b->p ? b->cap - b->len : 0, fmt, ap);
        va_end(ap);
        if (n < 0) {
            b->oom = 1;
            return;
        }
        if (b->p && (size_t)n < b->cap - b->len) {
            b->len += (size_t)n;
            return;
        }
        size_t want = (b->cap ? b->cap * 2 : 8192) + (size_t)n;
        char *q = realloc(b->p, want);
        if (!q) {
            b->oom = 1;
            return;
        }
        b->p = q;
        b->cap = want;
    }
}

static void head(obuf *b, const char *name, const char *type, const char *help)
{
    out(b, "# HELP %s %s\n# TYPE %s %s\n", name, help, name, type);
}

static void hist(obuf *b, const char *name, const char *help, const srv_hist *h)
{
    head(b, name, "histogram", help);
    long cum = 0;
    for (int k = 0; k < SRV_LAT_BUCKETS; k++) {
        cum += h->count[k];
        out(b, "%s_bucket{le=\"%g\"} %ld\n", name, lat_le_us[k] / 1e6, cum);
    }
    cum += h->count[SRV_LAT_BUCKETS];
    out(b, "%s_bucket{le=\"+Inf\"} %ld\n%s_sum %.6f\n%s_count %ld\n", name, cum, name,
        (double)h->sum_us / 1e6, name, h->n);
}

static void core_hist(obuf *b, const char *name, const char *help, const long *count, int nb,
                      const int *bounds, double scale, double sum, long n)
{
    head(b, name, "histogram", help);
    long cum = 0;
    for (int k = 0; k < nb; k++) {
        cum += count[k];
        out(b, "%s_bucket{le=\"%g\"} %ld\n", name, bounds[k] * scale, cum);
    }
    cum += count[nb];
    out(b, "%s_bucket{le=\"+Inf\"} %ld\n%s_sum %g\n%s_count %ld\n", name, cum, name, sum, name, n);
}

static char *metrics_text(srv *S, size_t *len)
{
    obuf b = {0};
    const srv_metrics *m = &S->metrics;
    head(&b, "tavoliere_up", "gauge", "1 while this instance serves (0 while it drains before stopping).");
    out(&b, "tavoliere_up{instance_name=\"%s\"} %d\n", S->name, S->draining ? 0 : 1);
    head(&b, "tavoliere_uptime_seconds", "gauge", "Seconds since this instance started.");
    out(&b, "tavoliere_uptime_seconds %.1f\n", (double)(ops_now_us() - S->started_us) / 1e6);
    head(&b, "tavoliere_requests_total", "counter", "Requests answered, by status.");
    for (int i = 0; i < SRV_STATUS_KINDS; i++) {
        if (i < SRV_STATUS_KINDS - 1)
            out(&b, "tavoliere_requests_total{status=\"%d\"} %ld\n", counted_status[i], m->requests[i]);
        else
            out(&b, "tavoliere_requests_total{status=\"other\"} %ld\n", m->requests[i]);
    }
    static const char *const outcome[SRV_MOVE_KINDS] = {"played",  "refused", "conflict",
                                                        "limited", "unavailable", "failed"};
    head(&b, "tavoliere_moves_total", "counter",
         "Moves asked for (POST .../moves), by outcome: played 200, conflict 409, limited 429, "
         "unavailable 503, failed other 5xx, refused other 4xx.");
    for (int i = 0; i < SRV_MOVE_KINDS; i++)
        out(&b, "tavoliere_moves_total{outcome=\"%s\"} %ld\n", outcome[i], m->moves[i]);
    hist(&b, "tavoliere_move_seconds",
         "Time from a move's request to its answer (a 200 is sent once the move is on disk).",
         &m->move_latency);
    hist(&b, "tavoliere_api_request_seconds", "Time from an API request to its answer.", &m->api_latency);
    head(&b, "tavoliere_sockets", "gauge", "WebSockets open: live (a game's) and lobby.");
    out(&b, "tavoliere_sockets{kind=\"live\"} %ld\ntavoliere_sockets{kind=\"lobby\"} %ld\n", S->socks_live,
        S->socks_lobby);
    core_ops_figures f;
    core_figures(S->C, &f);
    head(&b, "tavoliere_games_in_memory", "gauge", "Games held in memory (the store keeps them all).");
    out(&b, "tavoliere_games_in_memory %ld\n", f.games);
    head(&b, "tavoliere_search_jobs", "gauge", "Computer moves being searched or waiting for a worker.");
    out(&b, "tavoliere_search_jobs %d\n", f.searches);
    head(&b, "tavoliere_commits_total", "counter", "Batches of writes committed or failed.");
    out(&b, "tavoliere_commits_total{result=\"ok\"} %ld\ntavoliere_commits_total{result=\"failed\"} %ld\n",
        f.commits.batches - f.commits.failed, f.commits.failed);
    static const int size_le[CORE_SIZE_BUCKETS] = CORE_SIZE_BOUNDS;
    static const int ms_le[CORE_MS_BUCKETS] = CORE_MS_BOUNDS;
    core_hist(&b, "tavoliere_commit_writes", "Writes per committed batch.", f.commits.size_count,
              CORE_SIZE_BUCKETS, size_le, 1, (double)f.commits.writes, f.commits.batches);
    core_hist(&b, "tavoliere_commit_seconds", "Time a batch's commit took.", f.commits.ms_count,
              CORE_MS_BUCKETS, ms_le, 1e-3, (double)f.commits.ms_sum / 1e3, f.commits.batches);
    head(&b, "tavoliere_db_round_trips_total", "counter",
         "Round trips to the database (PostgreSQL; 0 on SQLite, which is a file).");
    out(&b, "tavoliere_db_round_trips_total %lld\n", (long long)f.trips);
    head(&b, "tavoliere_db_bytes_total", "counter", "Bytes sent to and received from the database.");
    out(&b, "tavoliere_db_bytes_total{direction=\"sent\"} %lld\ntavoliere_db_bytes_total{direction=\"received\"} %lld\n",
        (long long)f.bytes_out, (long long)f.bytes_in);
    head(&b, "tavoliere_peer_changes_total", "counter",
         "Many instances: changes another instance made to a game held here, by how this one "
         "learnt them (its moves heard and played, or the game read again).");
    out(&b, "tavoliere_peer_changes_total{how=\"delta\"} %ld\ntavoliere_peer_changes_total{how=\"reread\"} %ld\n",
        f.deltas, f.refreshed);
    head(&b, "tavoliere_loop_lag_seconds", "gauge",
         "How late the event loop's 20 ms tick ran, at most, over the last 10 s.");
    out(&b, "tavoliere_loop_lag_seconds %.3f\n", (double)S->lag_max_us / 1e6);
    if (b.oom) {
        free(b.p);
        return NULL;
    }
    *len = b.len;
    return b.p;
}

static int metrics_allowed(const srv *S, const char *addr)
{
    if (!addr || !addr[0])
        return 0;
    for (int i = 0; i < S->nmetrics_allow; i++)
        if (strcmp(S->metrics_allow[i], addr) == 0)
            return 1;
    return S->nmetrics_allow == 0 && (strncmp(addr, "127.", 4) == 0 || strcmp(addr, "::1") == 0 ||
                                      strncmp(addr, "::ffff:127.", 11) == 0);
}

int ops_route(srv *S, conn *c, const char *uri, const char *addr, reply *r)
{
    memset(r, 0, sizeof *r);
    if (strcmp(uri, "/api/health") == 0) {
        if (c->method != 'G') {
            r->status = 405;
            r->body = json_error("use GET");
            return 1;
        }
        int db = core_db_reachable(S->C);
        int lag_ok = S->lag_max_us < SRV_HEALTH_LAG_US;
        const char *state = S->draining ? "draining" : !db ? "database unreachable"
                                                     : !lag_ok ? "event loop late" : "ok";
        r->status = strcmp(state, "ok") == 0 ? 200 : 503;
        json_t *o = json_pack("{s:s, s:b, s:I, s:s}", "status", state, "database", db,
                              "loopLagMs", (json_int_t)(S->lag_max_us / 1000), "instance", S->name);
        r->body = o ? json_dumps(o, JSON_COMPACT) : NULL;
        json_decref(o);
        r->ctype = "application/json";
        return 1;
    }
    if (strcmp(uri, "/metrics") == 0) {
        if (!metrics_allowed(S, addr)) {
            r->status = 403;
            r->body = json_error("the metrics are for the operator's addresses (--metrics-allow)");
            return 1;
        }
        size_t len = 0;
        r->body = metrics_text(S, &len);
        r->status = r->body ? 200 : 503;
        r->ctype = "text/plain; version=0.0.4; charset=utf-8";
        return 1;
    }
    return 0;
}

/* The loop's lateness: each tick is due TICK_US after the last one was
 * scheduled; the most it ran late over the last two 5 s windows. */
void ops_tick(srv *S, int64_t now_us)
{
    int64_t late = S->tick_due_us ? now_us - S->tick_due_us : 0;
    if (late < 0)
        late = 0;
    if (now_us - S->lag_window_us >= 5 * 1000000) {
        S->lag_prev_us = S->lag_cur_us;
        S->lag_cur_us = 0;
        S->lag_window_us = now_us;
    }
    if (late > S->lag_cur_us)
        S->lag_cur_us = late;
    S->lag_max_us = S->lag_cur_us > S->lag_prev_us ? S->lag_cur_us : S->lag_prev_us;
}
