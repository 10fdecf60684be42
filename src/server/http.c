/*
 * http.c — the libwebsockets side: one protocol serves HTTP (the API under
 * /api/, the web UI's files for everything else) and the live WebSocket
 * (/api/games/ID/live).
 *
 * HTTP: LWS_CALLBACK_HTTP reads the request line and headers; a POST body
 * is collected (up to its limit) through LWS_CALLBACK_HTTP_BODY; the answer
 * is built whole, then written from LWS_CALLBACK_HTTP_WRITEABLE in chunks.
 * WebSocket: each socket has a queue of shared messages (the game's JSON as
 * its viewer sees it); a socket that falls too far behind is dropped.
 */
#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include <jansson.h>
#include <libwebsockets.h>
#include <sodium.h>

#include "server/srv.h"

#define CHUNK 16384

static srv *server_of(struct lws *wsi)
{
    return lws_context_user(lws_get_context(wsi));
}

/* ---- messages ---- */

static msg *msg_new(const char *text, size_t len)
{
    msg *m = malloc(sizeof *m + LWS_PRE + len + 1);
    if (!m)
        return NULL;
    m->refs = 1;
    m->batch = 0;
    m->len = len;
    memcpy(m->data + LWS_PRE, text, len);
    m->data[LWS_PRE + len] = 0;
    return m;
}

static void msg_unref(msg *m)
{
    if (m && --m->refs == 0)
        free(m);
}

static int q_push(msgq *q, msg *m)
{
    if (q->count >= SRV_WS_QUEUE_MAX)
        return -1;
    if (q->count == q->cap) {
        int nc = q->cap ? q->cap * 2 : 4;
        msg **item = malloc(sizeof *item * (size_t)nc);
        if (!item)
            return -1;
        for (int i = 0; i < q->count; i++)
            item[i] = q->item[(q->head + i) % q->cap];
        free(q->item);
        q->item = item;
        q->head = 0;
        q->cap = nc;
    }
    q->item[(q->head + q->count) % q->cap] = m;
    q->count++;
    m->refs++;
    return 0;
}

static msg *q_pop(msgq *q)
{
    if (q->count == 0)
        return NULL;
    msg *m = q->item[q->head];
    q->head = (q->head + 1) % q->cap;
    q->count--;
    return m;
}

static void q_free(msgq *q)
{
    msg *m;
    while ((m = q_pop(q)))
        msg_unref(m);
    free(q->item);
    memset(q, 0, sizeof *q);
}

/* Queue a text on one socket, sent once batch `batch` is committed (0: at once). */
static void ws_send_held(conn *c, const char *text, size_t len, long batch)
{
    msg *m = msg_new(text, len);
    if (!m)
        return;
    m->batch = batch;
    if (q_push(&c->q, m) != 0)
        lws_set_timeout(c->wsi, PENDING_TIMEOUT_USER_OK, LWS_TO_KILL_ASYNC);
    msg_unref(m);
    lws_callback_on_writable(c->wsi);
}

static void ws_send_n(conn *c, const char *text, size_t len)
{
    ws_send_held(c, text, len, 0);
}

static void bcast_hold(srv *S, gview *gv, long batch);

static void ws_send_text(conn *c, const char *text)
{
    ws_send_n(c, text, strlen(text));
}

/* The game as this socket's viewer sees it.  A catch-up request
 * ({"since": N}, again = 1) gets one copy of each version of the game
 * however often it asks; otherwise a socket that has this version queued
 * already gets nothing. */
static void ws_send_game(conn *c, int again)
{
    game *g = c->gv ? c->gv->g : NULL;
    unsigned long stamp = g ? core_stamp(g) : 0;
    if (!g || (again ? c->resent == stamp : c->sent == stamp))
        return;
    srv *S = server_of(c->wsi);
    size_t len = 0;
    char *text = json_game_copy(S->C, g, c->viewer, &len);
    if (!text)
        return;
    c->sent = stamp;
    if (again)
        c->resent = stamp;
    /* What is not yet committed (a computer's move just played) waits for
     * its batch, as a broadcast does. */
    long batch = core_unsettled(S->C, g);
    if (batch)
        bcast_hold(S, c->gv, batch);
    ws_send_held(c, text, len, batch);
    free(text);
}

static int viewer_index(int viewer)
{
    return viewer == TAV_WHITE ? 0 : viewer == TAV_BLACK ? 1 : 2;
}

/* gv's sockets hold messages until batch `batch` is committed: they are
 * woken then (http_committed). */
static void bcast_hold(srv *S, gview *gv, long batch)
{
    srv_dirty(S);
    if (batch > gv->bcast_batch)
        gv->bcast_batch = batch;
    if (!gv->bcast) {
        gv->bcast = 1;
        core_pin(gv->g);     /* stays in memory until its viewers are told */
        gv->bnext = S->bcast_head;
        S->bcast_head = gv;
    }
}

/* One message per change, built now; while the change waits for its
 * commit the messages are held back (tagged with the batch). */
void live_broadcast(srv *S, game *g)
{
    gview *gv = g->edge;
    if (!gv || !gv->live)
        return;
    long batch = 0;
    if (core_pending(S->C)) {
        batch = core_batch(S->C);
        bcast_hold(S, gv, batch);
    }
    msg *m[3] = {NULL, NULL, NULL};
    unsigned long stamp = core_stamp(g);
    for (conn *c = gv->live; c; c = c->next) {
        int k = viewer_index(c->viewer);
        if (c->sent == stamp)
            continue;
        if (!m[k]) {
            size_t len = 0;
            char *text = json_game_copy(S->C, g, c->viewer, &len);
            if (!text)
                continue;
            m[k] = msg_new(text, len);
            free(text);
            if (!m[k])
                continue;
            m[k]->batch = batch;
        }
        c->sent = stamp;
        if (q_push(&c->q, m[k]) != 0) {
            /* Too far behind: drop the socket; it can reconnect and catch up. */
            lws_set_timeout(c->wsi, PENDING_TIMEOUT_USER_OK, LWS_TO_KILL_ASYNC);
            continue;
        }
        if (!batch)
            lws_callback_on_writable(c->wsi);
    }
    for (int k = 0; k < 3; k++)
        msg_unref(m[k]);
}

/* 1 when `addr` is a proxy whose X-Real-IP is believed: the addresses given
 * with --proxy-addr, else (--proxy, --tls-proxy alone) any loopback peer
 * (nginx on this machine). */
static int trusted_proxy(const srv *S, const char *addr)
{
    if (!S->behind_proxy)
        return 0;
    if (!S->nproxies)
        return peer_is_loopback(addr);
    const char *a = strncmp(addr, "::ffff:", 7) == 0 ? addr + 7 : addr;
    for (int i = 0; i < S->nproxies; i++)
        if (strcmp(S->proxies[i], addr) == 0 || strcmp(S->proxies[i], a) == 0)
            return 1;
    return 0;
}

peer *http_peer(srv *S, struct lws *wsi)
{
    char addr[64];
    if (!wsi || !lws_get_peer_simple(wsi, addr, sizeof addr))
        return NULL;
    if (trusted_proxy(S, addr)) {
        /* The proxy says whose request it is (nginx: proxy_set_header
         * X-Real-IP $remote_addr); the per-address limits count that
         * address.  libwebsockets knows X-Real-IP as a header of its own
         * (it is never a "custom" header).  Only a trusted proxy's header
         * is believed; anyone else's is ignored. */
        char real[64];
        int n = lws_hdr_copy(wsi, real, sizeof real, WSI_TOKEN_HTTP_X_REAL_IP);
        struct in6_addr a6;
        struct in_addr a4;
        if (n > 0 && n < (int)sizeof real &&
            (inet_pton(AF_INET, real, &a4) == 1 || inet_pton(AF_INET6, real, &a6) == 1))
            return peer_get(S->C, real);
    }
    return peer_get(S->C, addr);
}

/* ---- who may connect, and under which host name ---- */

/* Accept: count the connection against its address (refused past
 * SRV_CONNS_PER_ADDR).  The connection object made right after it takes
 * the count over (conn_created), and gives it back when destroyed. */
static int conn_accept(srv *S, const struct lws_filter_network_conn_args *a)
{
    if (S->accepting) {           /* the last accept made no connection */
        S->accepting->conns--;
        S->accepting->unready--;
        S->accepting = NULL;
    }
    char addr[INET6_ADDRSTRLEN + 8] = "";
    const struct sockaddr_storage *ss = &a->cli_addr;
    if (ss->ss_family == AF_INET)
        inet_ntop(AF_INET, &((const struct sockaddr_in *)ss)->sin_addr, addr, sizeof addr);
    else if (ss->ss_family == AF_INET6)
        inet_ntop(AF_INET6, &((const struct sockaddr_in6 *)ss)->sin6_addr, addr, sizeof addr);
    if (trusted_proxy(S, addr))
        return 0;   /* the proxy: it counts connections per client itself (limit_conn) */
    peer *p = peer_get(S->C, addr);
    if (!p)
        return S->C->cf.limit_loopback || !peer_is_loopback(addr) ? -1 : 0;
    /* A connection holds one of libwebsockets' request buffers (the header
     * pool) while its request comes in: one address may not hold many of
     * them with requests it never finishes. */
    if (peer_limited(S->C, p) &&
        (p->conns >= SRV_CONNS_PER_ADDR || p->unready >= SRV_HEADERS_PER_ADDR))
        return -1;
    p->conns++;
    p->unready++;
    S->accepting = p;
    return 0;
}

static unsigned wsi_bucket(const void *wsi)
{
    uintptr_t v = (uintptr_t)wsi;
    return (unsigned)((v >> 4) ^ (v >> 16)) % SRV_WSI_BUCKETS;
}

static void conn_created(srv *S, struct lws *wsi)
{
    if (!S->accepting)
        return;
    wsi_peer *e = malloc(sizeof *e);
    if (!e) {
        S->accepting->conns--;
        S->accepting->unready--;
        S->accepting = NULL;
        return;
    }
    unsigned b = wsi_bucket(wsi);
    e->wsi = wsi;
    e->p = S->accepting;
    e->unready = 1;
    e->next = S->wsi_map[b];
    S->wsi_map[b] = e;
    S->accepting = NULL;
}

static void conn_destroyed(srv *S, struct lws *wsi)
{
    for (wsi_peer **pp = &S->wsi_map[wsi_bucket(wsi)]; *pp; pp = &(*pp)->next)
        if ((*pp)->wsi == wsi) {
            wsi_peer *e = *pp;
            *pp = e->next;
            e->p->conns--;
            if (e->unready)
                e->p->unready--;
            free(e);
            return;
        }
}

/* The connection's first request has arrived whole. */
static void conn_ready(srv *S, struct lws *wsi)
{
    for (wsi_peer *e = S->wsi_map[wsi_bucket(wsi)]; e; e = e->next)
        if (e->wsi == wsi) {
            if (e->unready) {
                e->unready = 0;
                e->p->unready--;
            }
            return;
        }
}

void http_conns_free(srv *S)
{
    for (int b = 0; b < SRV_WSI_BUCKETS; b++)
        while (S->wsi_map[b]) {
            wsi_peer *e = S->wsi_map[b];
            S->wsi_map[b] = e->next;
            free(e);
        }
}

/* The Host header must name this server (DNS rebinding: a page of another
 * site whose name resolves to this address must not reach it).  Allowed:
 * no Host header (not a browser), an IP address literal, or a name given
 * with --allow-host (and localhost). */
static int host_allowed(srv *S, struct lws *wsi)
{
    char host[300];
    int n = lws_hdr_copy(wsi, host, sizeof host, WSI_TOKEN_HOST);
    if (n <= 0)
        return lws_hdr_total_length(wsi, WSI_TOKEN_HOST) == 0;
    char name[300];
    if (host[0] == '[') {
        const char *close = strchr(host, ']');
        if (!close || (close[1] && close[1] != ':'))
            return 0;
        size_t k = (size_t)(close - host - 1);
        memcpy(name, host + 1, k);
        name[k] = 0;
        unsigned char a6[16];
        return inet_pton(AF_INET6, name, a6) == 1;
    }
    snprintf(name, sizeof name, "%s", host);
    char *colon = strchr(name, ':');
    if (colon)
        *colon = 0;
    unsigned char a4[4];
    if (inet_pton(AF_INET, name, a4) == 1)
        return 1;
    if (strcasecmp(name, "localhost") == 0)
        return 1;
    for (int i = 0; i < S->nhosts; i++)
        if (strcasecmp(name, S->hosts[i]) == 0 || strcmp(S->hosts[i], "*") == 0)
            return 1;
    return 0;
}

/* ---- HTTP answers ---- */

/* Give back the bytes a body held. */
static void body_release(srv *S, conn *c)
{
    if (c->bcap && S) {
        S->body_bytes -= (long)c->bcap;
        if (c->bpeer)
            c->bpeer->body_bytes -= (long)c->bcap;
    }
    c->bcap = 0;
    c->bpeer = NULL;
}

static void http_reset(conn *c)
{
    body_release(c->wsi ? lws_context_user(lws_get_context(c->wsi)) : NULL, c);
    free(c->body);
    if (!c->resp_static)
        free(c->resp);
    c->body = NULL;
    c->resp = NULL;
    c->resp_static = 0;
    c->blen = c->bmax = c->rlen = c->rsent = 0;
    c->headers_sent = c->close_after = c->responding = 0;
    c->status = 0;
    c->ctype = NULL;
    c->hold = 0;
    c->rerun = c->reran = 0;
}

/* c's answer (or, c->rerun, its request again) waits for batch `batch`. */
static void await_commit(srv *S, conn *c, long batch)
{
    c->batch = batch;
    if (!c->awaiting) {
        c->awaiting = 1;
        c->aprev = NULL;
        c->anext = S->await_head;
        if (S->await_head)
            S->await_head->aprev = c;
        S->await_head = c;
    }
    srv_dirty(S);
}

/* Queue an answer whose body is a heap string of `len` bytes (taken over). */
static void respond_as(conn *c, int status, const char *ctype, char *body, size_t len,
                       int hold);

static void respond(conn *c, int status, const char *ctype, char *body, size_t len)
{
    respond_as(c, status, ctype, body, len, 1);
}

/* hold: an answer to a POST waits for the writes pending now, a read's
 * answer for the batch it shows (c->hold) (0: goes at once). */
static void respond_as(conn *c, int status, const char *ctype, char *body, size_t len,
                       int hold)
{
    if (!c->resp_static)
        free(c->resp);
    c->resp_static = 0;
    c->resp = body;
    c->rlen = body ? len : 0;
    c->rsent = 0;
    c->status = status;
    c->ctype = ctype;
    c->responding = 1;
    c->headers_sent = 0;
    srv *S = server_of(c->wsi);
    long wait = 0;
    if (S && hold && (c->method == 'P' || c->method == 'D') && core_pending(S->C))
        wait = core_batch(S->C);
    else if (S && hold && c->hold > S->batch_done)
        wait = c->hold;
    if (wait) {
        /* A change is acknowledged only once it is on disk: the answer to
         * a POST waits for the commit of the batch.  A read goes at once,
         * unless it shows writes not yet committed (a computer's move just
         * played): then it waits for them too, since another instance
         * would not know them yet (docs/deploy.md). */
        await_commit(S, c, wait);
        return;
    }
    lws_callback_on_writable(c->wsi);
}

static void unawait(srv *S, conn *c)
{
    if (!c->awaiting)
        return;
    if (c->aprev)
        c->aprev->anext = c->anext;
    else
        S->await_head = c->anext;
    if (c->anext)
        c->anext->aprev = c->aprev;
    c->awaiting = 0;
    c->aprev = c->anext = NULL;
}

/* Drop the messages of batch n from a socket's queue (it failed). */
static void q_drop_batch(msgq *q, long n)
{
    int kept = 0;
    for (int i = 0; i < q->count; i++) {
        msg *m = q->item[(q->head + i) % q->cap];
        if (m->batch == n)
            msg_unref(m);
        else
            q->item[(q->head + kept++) % q->cap] = m;
    }
    q->count = kept;
}

static void respond_error(conn *c, int status, const char *message);
static void run_api(srv *S, conn *c);

void http_committed(srv *S, long n, int ok)
{
    if (n > S->batch_done)
        S->batch_done = n;
    conn *c = S->await_head;
    while (c) {
        conn *next = c->anext;
        if (c->batch <= n) {
            unawait(S, c);
            if (c->rerun) {
                c->rerun = 0;
                run_api(S, c);   /* its game's writes settled: now the store says */
            } else if (!ok && c->batch == n && c->seek[0] && core_seek_gone(S->C, c->seek)) {
                /* An accept that lost the race to another instance. */
                char *b = json_error("the seek is gone: taken or withdrawn");
                respond_as(c, 409, "application/json", b, b ? strlen(b) : 0, 0);
            } else if (!ok && c->batch == n) {
                /* Nothing of it is on disk: the change it answers (or the
                 * state a read shows) did not happen. */
                char *b = json_error(c->method == 'G' ? "the game could not be read: try again"
                                                      : "the change could not be stored: try again");
                respond_as(c, 503, "application/json", b, b ? strlen(b) : 0, 0);
            } else {
                lws_callback_on_writable(c->wsi);
            }
        }
        c = next;
    }
    /* Lobby messages held for this batch go (or, failed, are dropped). */
    if (S->lobby_held) {
        for (conn *w = S->lobby; w; w = w->next) {
            if (!ok)
                q_drop_batch(&w->q, n);
            lws_callback_on_writable(w->wsi);
        }
        if (!core_pending(S->C))
            S->lobby_held = 0;
    }
    gview **pp = &S->bcast_head;
    while (*pp) {
        gview *gv = *pp;
        if (!ok)
            for (conn *w = gv->live; w; w = w->next)
                q_drop_batch(&w->q, n);
        if (gv->bcast_batch <= n) {
            *pp = gv->bnext;
            gv->bcast = 0;
            gv->bnext = NULL;
            for (conn *w = gv->live; w; w = w->next)
                lws_callback_on_writable(w->wsi);
            core_unpin(gv->g);
        } else {
            pp = &gv->bnext;
        }
    }
}

static void respond_error(conn *c, int status, const char *message)
{
    char *b = json_error("%s", message);
    respond(c, status, "application/json", b, b ? strlen(b) : 0);
}

void http_reply_ready(conn *c, reply *r)
{
    if (!r->body) {
        respond_error(c, 500, "out of memory");
        return;
    }
    memcpy(c->set_cookie, r->set_cookie, sizeof c->set_cookie);
    c->hold = r->hold;
    memcpy(c->seek, r->seek, sizeof c->seek);
    respond(c, r->status, r->ctype ? r->ctype : "application/json", r->body, strlen(r->body));
}

/* Write the headers, then the body in chunks; then end the transaction. */
static int http_write(srv *S, conn *c, struct lws *wsi)
{
    if (!c->responding)
        return 0;
    if (!c->headers_sent) {
        unsigned char buf[LWS_PRE + 2048];
        unsigned char *start = buf + LWS_PRE, *p = start, *end = buf + sizeof buf - 1;
        /* The security headers (Referrer-Policy, CSP, ...) are the vhost's
         * own (serve.c): libwebsockets adds them to every answer, its own
         * error pages included. */
        if (lws_add_http_common_headers(wsi, (unsigned)c->status, c->ctype, c->rlen, &p, end) ||
            (c->set_cookie[0] &&
             lws_add_http_header_by_token(wsi, WSI_TOKEN_HTTP_SET_COOKIE,
                                          (const unsigned char *)c->set_cookie,
                                          (int)strlen(c->set_cookie), &p, end)) ||
            lws_finalize_write_http_header(wsi, start, &p, end))
            return -1;
        c->headers_sent = 1;
        peer *who = http_peer(S, wsi);
        ops_answered(S, c, who ? who->addr : "");
        if (c->rlen > 0) {
            lws_callback_on_writable(wsi);
            return 0;
        }
    } else {
        unsigned char buf[LWS_PRE + CHUNK];
        size_t n = c->rlen - c->rsent;
        if (n > CHUNK)
            n = CHUNK;
        memcpy(buf + LWS_PRE, c->resp + c->rsent, n);
        int final = c->rsent + n == c->rlen;
        if (lws_write(wsi, buf + LWS_PRE, n, final ? LWS_WRITE_HTTP_FINAL : LWS_WRITE_HTTP) !=
            (int)n)
            return -1;
        c->rsent += n;
        if (!final) {
            lws_callback_on_writable(wsi);
            return 0;
        }
    }
    int close_after = c->close_after;
    http_reset(c);
    if (close_after)
        return -1;
    return lws_http_transaction_completed(wsi) ? -1 : 0;
}

/* ---- static files ---- */

static const char *mime_of(const char *path)
{
    static const struct { const char *ext, *type; } types[] = {
        {".html", "text/html; charset=utf-8"}, {".js", "text/javascript; charset=utf-8"},
        {".mjs", "text/javascript; charset=utf-8"}, {".css", "text/css; charset=utf-8"},
        {".svg", "image/svg+xml"}, {".json", "application/json"}, {".map", "application/json"},
        {".png", "image/png"}, {".ico", "image/x-icon"}, {".txt", "text/plain; charset=utf-8"},
        {".woff2", "font/woff2"}, {".webmanifest", "application/manifest+json"},
        {".wasm", "application/wasm"},
    };
    const char *dot = strrchr(path, '.');
    if (dot)
        for (size_t i = 0; i < sizeof types / sizeof types[0]; i++)
            if (strcmp(dot, types[i].ext) == 0)
                return types[i].type;
    return "application/octet-stream";
}

/* A path made only of safe characters, no "..", no empty segment. */
static int path_safe(const char *p)
{
    if (p[0] != '/' || strstr(p, "..") || strstr(p, "//"))
        return 0;
    for (; *p; p++) {
        char ch = *p;
        if (!((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
              ch == '/' || ch == '.' || ch == '-' || ch == '_'))
            return 0;
    }
    return 1;
}

/* Read a regular file whole (web assets are small). */
static char *read_file(const char *path, size_t *len)
{
    struct stat sb;
    if (stat(path, &sb) != 0 || !S_ISREG(sb.st_mode) || sb.st_size > 32 * 1024 * 1024)
        return NULL;
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    char *buf = malloc((size_t)sb.st_size + 1);
    size_t n = buf ? fread(buf, 1, (size_t)sb.st_size, f) : 0;
    fclose(f);
    if (!buf || n != (size_t)sb.st_size) {
        free(buf);
        return NULL;
    }
    buf[n] = 0;
    *len = n;
    return buf;
}

/* A web file, read once and kept in memory; NULL when there is none (or
 * when the files kept would pass SRV_STATIC_MAX: then it is not served).
 * A path that names no file is not remembered, so asking for many of them
 * costs one stat() each and no memory. */
static const sfile *web_file(srv *S, const char *path)
{
    for (sfile *f = S->files; f; f = f->next)
        if (strcmp(f->path, path) == 0)
            return f;
    char file[4400];
    snprintf(file, sizeof file, "%s%s", S->webdir, path);
    size_t len = 0;
    char *data = read_file(file, &len);
    if (!data)
        return NULL;
    sfile *f = calloc(1, sizeof *f);
    if (!f || S->files_bytes + (long)len > SRV_STATIC_MAX || !(f->path = strdup(path))) {
        free(f);
        free(data);
        return NULL;
    }
    f->data = data;
    f->len = len;
    f->type = mime_of(path);
    f->next = S->files;
    S->files = f;
    S->files_bytes += (long)len;
    return f;
}

void http_files_free(srv *S)
{
    while (S->files) {
        sfile *f = S->files;
        S->files = f->next;
        free(f->path);
        free(f->data);
        free(f);
    }
    S->files_bytes = 0;
}

static const char not_built[] =
    "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>Tavoliere</title>"
    "</head><body><h1>Tavoliere</h1><p>The web UI is not built: run <code>make</code> (it "
    "fills the build's <code>web</code> folder) or start the server with <code>--web DIR</code>."
    "</p><p>The API is at <code>/api/</code> (docs/server-api.md).</p></body></html>\n";

static void serve_static(srv *S, conn *c, const char *path)
{
    if (c->method != 'G') {
        respond(c, 405, "text/plain; charset=utf-8", strdup("use GET\n"), 8);
        return;
    }
    const char *last = strrchr(path, '/');
    int page = strcmp(path, "/") == 0 || (last && !strchr(last, '.'));
    if (!path_safe(path)) {
        respond(c, 404, "text/plain; charset=utf-8", strdup("not found\n"), 10);
        return;
    }
    if (!S->have_web) {
        if (page)
            respond(c, 200, "text/html; charset=utf-8", strdup(not_built), sizeof not_built - 1);
        else
            respond(c, 404, "text/plain; charset=utf-8", strdup("not found\n"), 10);
        return;
    }
    const sfile *f = NULL;
    if (strcmp(path, "/") != 0)
        f = web_file(S, path);
    if (!f && page)
        f = web_file(S, "/index.html");   /* the page's own routes (/, /games/ID) */
    if (!f) {
        respond(c, 404, "text/plain; charset=utf-8", strdup("not found\n"), 10);
        return;
    }
    respond(c, 200, f->type, f->data, f->len);
    c->resp_static = 1;   /* the cache's own bytes: not freed with the answer */
}

/* ---- request bodies ---- */

/* Keep `len` more bytes of a body, growing its buffer as it arrives,
 * within the memory all bodies (SRV_BODY_MEMORY) and one address's bodies
 * (SRV_BODY_PER_ADDR) may hold. */
static int body_add(srv *S, conn *c, const void *in, size_t len)
{
    if (c->blen + len > c->bmax) {
        c->close_after = 1;
        respond_error(c, 413, "the body is longer than its Content-Length");
        return 0;
    }
    if (c->blen + len + 1 > c->bcap) {
        size_t cap = c->bcap ? c->bcap * 2 : 16384;
        while (cap < c->blen + len + 1)
            cap *= 2;
        if (cap > c->bmax + 1)
            cap = c->bmax + 1;
        long more = (long)(cap - c->bcap);
        int per_addr = c->bpeer && peer_limited(S->C, c->bpeer) &&
                       c->bpeer->body_bytes + more > SRV_BODY_PER_ADDR;
        char *nb = per_addr || S->body_bytes + more > SRV_BODY_MEMORY ? NULL
                                                                       : realloc(c->body, cap);
        if (!nb) {
            c->close_after = 1;
            respond_error(c, 503, per_addr ? "too many request bodies under way from this "
                                             "address: try again shortly"
                                           : "the server is busy: try again shortly");
            return 0;
        }
        c->body = nb;
        S->body_bytes += more;
        if (c->bpeer)
            c->bpeer->body_bytes += more;
        c->bcap = cap;
    }
    memcpy(c->body + c->blen, in, len);
    c->blen += len;
    return 0;
}

/* ---- API requests ---- */

/* The value of query argument `name` ("seat="), or NULL.  Every argument
 * is read whole into a buffer large enough for any (an argument too long
 * for it is skipped, not the end of the search). */
static const char *url_arg(struct lws *wsi, const char *name, char *out, size_t n)
{
    char buf[1024];
    size_t sl = strlen(name);
    for (int i = 0; i < 64; i++) {
        int len = lws_hdr_copy_fragment(wsi, buf, sizeof buf, WSI_TOKEN_HTTP_URI_ARGS, i);
        if (len < 0)
            break;
        if ((size_t)len >= sl && strncmp(buf, name, sl) == 0) {
            if ((size_t)len - sl >= n)
                return "";   /* too long to be valid: an empty value, refused later */
            memcpy(out, buf + sl, (size_t)len - sl + 1);
            return out;
        }
    }
    return NULL;
}

/* The session cookie's token (tav_session=...), or NULL. */
static const char *session_token(struct lws *wsi, char *out, size_t n)
{
    char buf[2048];
    if (lws_hdr_copy(wsi, buf, sizeof buf, WSI_TOKEN_HTTP_COOKIE) <= 0)
        return NULL;
    size_t kl = strlen(SRV_COOKIE);
    for (char *p = buf; p && *p;) {
        while (*p == ' ' || *p == ';')
            p++;
        char *semi = strchr(p, ';');
        if (semi)
            *semi = 0;
        if (strncmp(p, SRV_COOKIE, kl) == 0 && p[kl] == '=') {
            if (strlen(p + kl + 1) >= n)
                return NULL;
            snprintf(out, n, "%s", p + kl + 1);
            return out[0] ? out : NULL;
        }
        p = semi ? semi + 1 : NULL;
    }
    return NULL;
}

/* SPEC: a request that changes anything, with the session cookie and an
 * Origin other than the server's own, is refused.  Own: the Origin's host
 * (and port) is the Host the request was sent to. */
static int foreign_origin(struct lws *wsi)
{
    char origin[512], host[512];
    if (lws_hdr_copy(wsi, origin, sizeof origin, WSI_TOKEN_ORIGIN) <= 0)
        return 0;   /* no Origin: not a browser's cross-site request */
    if (lws_hdr_copy(wsi, host, sizeof host, WSI_TOKEN_HOST) <= 0)
        return 1;
    const char *o = strstr(origin, "://");
    if (!o)
        return 1;
    o += 3;
    return strcasecmp(o, host) != 0;
}

static void run_api(srv *S, conn *c)
{
    char seatbuf[128], plybuf[48], tokbuf[96];
    const char *seat = url_arg(c->wsi, "seat=", seatbuf, sizeof seatbuf);
    const char *ply = url_arg(c->wsi, "ply=", plybuf, sizeof plybuf);
    asker who;
    memset(&who, 0, sizeof who);
    who.by = http_peer(S, c->wsi);
    who.token = session_token(c->wsi, tokbuf, sizeof tokbuf);
    who.secure = S->secure_cookies;
    if (c->method == 'P' && lws_hdr_copy(c->wsi, who.ua, sizeof who.ua, WSI_TOKEN_HTTP_USER_AGENT) < 0)
        who.ua[0] = 0;
    if (who.token && c->method != 'G' && foreign_origin(c->wsi)) {
        S->requests++;
        respond_error(c, 403, "a request from another site: refused");
        return;
    }
    if (who.token && !core_session(S->C, who.token, who.account))
        who.account[0] = 0;
    reply r;
    api_handle(S, c, &who, c->path, c->method, c->body ? c->body : "", c->blen, seat, ply, &r);
    sodium_memzero(tokbuf, sizeof tokbuf);
    S->requests++;
    if (r.pending) {
        c->waiting = r.pending;
        return;
    }
    if (r.again && !c->reran && core_pending(S->C)) {
        /* A ply this instance does not know while writes of the game wait:
         * the request is handled again once they are committed. */
        free(r.body);
        c->reran = c->rerun = 1;
        await_commit(S, c, core_batch(S->C));
        return;
    }
    http_reply_ready(c, &r);
}

static int http_request(srv *S, conn *c, struct lws *wsi, const char *uri)
{
    http_reset(c);
    c->t0_us = ops_now_us();
    c->wsi = wsi;
    c->kind = CONN_HTTP;
    c->method = lws_hdr_total_length(wsi, WSI_TOKEN_GET_URI) > 0      ? 'G'
                : lws_hdr_total_length(wsi, WSI_TOKEN_POST_URI) > 0   ? 'P'
                : lws_hdr_total_length(wsi, WSI_TOKEN_DELETE_URI) > 0 ? 'D'
                                                                      : 'O';
    if (!uri || strlen(uri) >= sizeof c->path) {
        snprintf(c->path, sizeof c->path, "(long)");
        c->close_after = 1;
        respond_error(c, 414, "the address is too long");
        return 0;
    }
    snprintf(c->path, sizeof c->path, "%s", uri);
    if (!host_allowed(S, wsi)) {
        c->close_after = 1;
        respond_error(c, 421, "this server does not answer to that host name "
                              "(its operator names it with --allow-host)");
        return 0;
    }
    /* The operator's pages (ops.c): health and metrics. */
    reply orep;
    peer *who = http_peer(S, wsi);
    if (ops_route(S, c, uri, who ? who->addr : "", &orep)) {
        S->requests++;
        http_reply_ready(c, &orep);
        return 0;
    }
    if (S->draining && strncmp(uri, "/api/", 5) == 0) {
        /* SIGTERM: what is held is being answered; nothing new is taken. */
        c->close_after = 1;
        respond_error(c, 503, "the server is restarting: try again in a moment");
        return 0;
    }
    if (strncmp(uri, "/api/", 5) != 0 && strcmp(uri, "/api") != 0) {
        serve_static(S, c, uri);
        return 0;
    }
    if (peer_rate_exceeded(S->C, http_peer(S, wsi))) {
        respond_error(c, 429, "too many requests");
        return 0;
    }
    if (c->method == 'O') {
        c->close_after = 1;
        respond_error(c, 405, "use GET, POST or DELETE");
        return 0;
    }
    if (c->method == 'P') {
        char cl[32];
        size_t max = strcmp(uri, "/api/records") == 0 ? SRV_RECORD_MAX + SRV_BODY_MAX
                                                      : SRV_BODY_MAX;
        if (lws_hdr_copy(wsi, cl, sizeof cl, WSI_TOKEN_HTTP_CONTENT_LENGTH) <= 0) {
            if (lws_hdr_total_length(wsi, WSI_TOKEN_HTTP_TRANSFER_ENCODING) > 0) {
                c->close_after = 1;
                respond_error(c, 411, "send the body with a Content-Length");
                return 0;
            }
            run_api(S, c);
            return 0;
        }
        char *end = NULL;
        errno = 0;
        unsigned long long n = strtoull(cl, &end, 10);
        if (end == cl || *end || errno) {
            c->close_after = 1;
            respond_error(c, 400, "bad Content-Length");
            return 0;
        }
        if (n > max) {
            c->close_after = 1;
            char m[96];
            snprintf(m, sizeof m, "the body is too large (at most %zu bytes)", max);
            respond_error(c, 413, m);
            return 0;
        }
        if (n == 0) {
            run_api(S, c);
            return 0;
        }
        /* The body is read as it arrives (body_add): nothing is set aside
         * for a body that has not come. */
        c->bmax = (size_t)n;
        c->bpeer = http_peer(S, wsi);
        lws_set_timeout(wsi, PENDING_TIMEOUT_HTTP_CONTENT, 20);
        return 0;   /* the body follows */
    }
    run_api(S, c);
    return 0;
}

/* ---- the live socket ---- */

/* The count of sockets an account holds (lower-case names, open
 * addressing; a slot at 0 is free to reuse).  NULL when the table is full. */
static int *acct_sockets(srv *S, const char *account)
{
    char key[STORE_NAME_LEN];
    size_t i = 0;
    for (; account[i] && i + 1 < sizeof key; i++)
        key[i] = (char)tolower((unsigned char)account[i]);
    key[i] = 0;
    unsigned h = 2166136261u;
    for (const char *p = key; *p; p++)
        h = (h ^ (unsigned char)*p) * 16777619u;
    int free_slot = -1;
    for (int k = 0; k < 64; k++) {
        int at = (int)((h + (unsigned)k) % SRV_ACCOUNT_SLOTS);
        if (strcmp(S->acct_socks[at].name, key) == 0)
            return &S->acct_socks[at].n;
        if (free_slot < 0 && S->acct_socks[at].n == 0)
            free_slot = at;
    }
    if (free_slot < 0)
        return NULL;
    memcpy(S->acct_socks[free_slot].name, key, sizeof key);
    S->acct_socks[free_slot].n = 0;
    return &S->acct_socks[free_slot].n;
}

/* Count a signed-in socket against its account: 0, or -1 past the limit. */
static int acct_socket_open(srv *S, conn *c)
{
    if (!c->account[0])
        return 0;
    int *n = acct_sockets(S, c->account);
    if (!n || *n >= SRV_SOCKETS_PER_ACCOUNT)
        return -1;
    (*n)++;
    c->counted = 1;
    if (*n == 1)
        core_account_presence(S->C, c->account, 1);   /* back: no claim against it */
    return 0;
}

/* Whether an account has a socket open here (the core's events.present). */
int srv_account_present(srv *S, const char *account)
{
    char key[STORE_NAME_LEN];
    size_t i = 0;
    for (; account[i] && i + 1 < sizeof key; i++)
        key[i] = (char)tolower((unsigned char)account[i]);
    key[i] = 0;
    unsigned h = 2166136261u;
    for (const char *p = key; *p; p++)
        h = (h ^ (unsigned char)*p) * 16777619u;
    for (int k = 0; k < 64; k++) {
        int at = (int)((h + (unsigned)k) % SRV_ACCOUNT_SLOTS);
        if (strcmp(S->acct_socks[at].name, key) == 0)
            return S->acct_socks[at].n > 0;
    }
    return 0;
}

static void acct_socket_closed(srv *S, conn *c)
{
    if (!c->counted)
        return;
    c->counted = 0;
    int *n = acct_sockets(S, c->account);
    if (n && *n > 0 && --*n == 0 && !S->stopped)
        core_account_presence(S->C, c->account, 0);   /* gone: the claim's wait begins */
}


/* Who is here (docs/server-api.md, presence): a side played by the computer,
 * or a seat with a live socket open. */
static void presence_send(conn *c)
{
    const gview *gv = c->gv;
    const game *g = gv->g;
    char text[96];
    snprintf(text, sizeof text, "{\"type\":\"presence\",\"white\":%s,\"black\":%s}",
             !g->human[0] || gv->seated[0] > 0 ? "true" : "false",
             !g->human[1] || gv->seated[1] > 0 ? "true" : "false");
    ws_send_text(c, text);
}

/* One seeks message for a lobby socket, tagged with the batch it waits for. */
static msg *seeks_msg(srv *S, const char *viewer)
{
    char *text = api_seeks_json(S, viewer);
    if (!text)
        return NULL;
    msg *m = msg_new(text, strlen(text));
    free(text);
    if (m && core_pending(S->C)) {
        srv_dirty(S);
        m->batch = core_batch(S->C);
    }
    return m;
}

/* The seeks to every lobby socket, held until what is open is committed.
 * One message for all, but a socket whose account an open challenge
 * involves gets its own list (a challenge is seen by its two players). */
void lobby_broadcast(srv *S)
{
    if (!S->lobby)
        return;
    int personal = core_challenges_open(S->C, NULL);
    msg *shared = seeks_msg(S, NULL);
    for (conn *w = S->lobby; w; w = w->next) {
        msg *m = personal && w->account[0] && core_challenges_open(S->C, w->account)
                     ? seeks_msg(S, w->account)
                     : shared;
        if (!m)
            continue;
        if (q_push(&w->q, m) != 0)
            lws_set_timeout(w->wsi, PENDING_TIMEOUT_USER_OK, LWS_TO_KILL_ASYNC);
        else if (!m->batch)
            lws_callback_on_writable(w->wsi);
        else
            S->lobby_held = 1;
        if (m != shared)
            msg_unref(m);   /* the socket's own: its queue holds it now */
    }
    msg_unref(shared);
}

void lobby_started(srv *S, const char *account, const char *game_id)
{
    char text[128];
    snprintf(text, sizeof text, "{\"type\":\"started\",\"game\":\"%s\"}", game_id);
    msg *m = msg_new(text, strlen(text));
    if (!m)
        return;
    if (core_pending(S->C)) {
        srv_dirty(S);
        m->batch = core_batch(S->C);
    }
    for (conn *w = S->lobby; w; w = w->next)
        if (w->account[0] && strcasecmp(w->account, account) == 0 && q_push(&w->q, m) == 0) {
            if (!m->batch)
                lws_callback_on_writable(w->wsi);
            else
                S->lobby_held = 1;
        }
    msg_unref(m);
}

/* Seeks whose owner left (core_seeks_lapse): the accounts with a lobby
 * socket here, sorted once, then looked up for each seek (binary search). */
typedef struct lobby_names {
    char (*name)[STORE_NAME_LEN];
    size_t n;
} lobby_names;

static int name_cmp(const void *a, const void *b)
{
    return strcasecmp(a, b);
}

static int lobby_present(void *ctx, const char *account)
{
    const lobby_names *l = ctx;
    return l->n && bsearch(account, l->name, l->n, sizeof l->name[0], name_cmp) != NULL;
}

void http_seeks_lapse(srv *S)
{
    if (!S->C->nseeks)
        return;   /* nothing to lapse (the seeks are read on the lobby's first use) */
    lobby_names l = {NULL, 0};
    size_t cap = 0;
    for (conn *w = S->lobby; w; w = w->next)
        cap += w->account[0] != 0;
    if (cap && !(l.name = malloc(cap * sizeof l.name[0])))
        return;   /* no memory now: next time */
    for (conn *w = S->lobby; w; w = w->next)
        if (w->account[0])
            memcpy(l.name[l.n++], w->account, sizeof l.name[0]);
    if (l.n)
        qsort(l.name, l.n, sizeof l.name[0], name_cmp);
    core_seeks_lapse(S->C, lobby_present, &l);
    free(l.name);
}

/* A seat came or went: tell every socket that asked, but `except`. */
static void presence_tell(gview *gv, conn *except)
{
    for (conn *w = gv->live; w; w = w->next)
        if (w->presence && w != except)
            presence_send(w);
}

static void ws_open(srv *S, conn *c, struct lws *wsi)
{
    memset(c, 0, sizeof *c);
    c->wsi = wsi;
    c->kind = CONN_WS;
    char uri[256], seatbuf[128];
    int n = lws_hdr_copy(wsi, uri, sizeof uri, WSI_TOKEN_GET_URI);
    const char *seat = url_arg(wsi, "seat=", seatbuf, sizeof seatbuf);
    const char *err = NULL;
    game *g = NULL;
    size_t ulen = n > 0 ? (size_t)n : 0;
    char tokbuf[96], account[STORE_NAME_LEN] = "";
    const char *token = session_token(wsi, tokbuf, sizeof tokbuf);
    if (peer_rate_exceeded(S->C, http_peer(S, wsi))) {
        /* An upgrade is a request like any other: it counts against the
         * client's address (behind a proxy the one X-Real-IP names).  The
         * socket is closed with a message, never dropped unanswered (a proxy
         * would take that for an instance down). */
        sodium_memzero(tokbuf, sizeof tokbuf);
        ws_send_text(c, "{\"type\":\"error\",\"error\":\"too many requests\"}");
        c->close_after = 1;
        return;
    }
    if (token && !core_session(S->C, token, account))
        account[0] = 0;
    sodium_memzero(tokbuf, sizeof tokbuf);
    if (n > 0 && strcmp(uri, "/api/lobby") == 0) {
        if (!host_allowed(S, wsi)) {
            ws_send_text(c, "{\"type\":\"error\",\"error\":\"this server does not answer to that host name\"}");
            c->close_after = 1;
            return;
        }
        if (foreign_origin(wsi)) {
            /* The lobby socket acts with the session cookie: a page of
             * another site may not open it (as every cookie request). */
            ws_send_text(c, "{\"type\":\"error\",\"error\":\"a socket from another site: refused\"}");
            c->close_after = 1;
            return;
        }
        memcpy(c->account, account, sizeof c->account);
        if (acct_socket_open(S, c) != 0) {
            ws_send_text(c, "{\"type\":\"error\",\"error\":\"too many sockets open for this account\"}");
            c->close_after = 1;
            return;
        }
        c->lobby = 1;
        c->next = S->lobby;
        if (S->lobby)
            S->lobby->prev = c;
        S->lobby = c;
        c->heard_ms = core_unix_ms();
        c->idle_jitter_ms = (int)randombytes_uniform((uint32_t)(S->live_idle_ms / 4 + 1));
        char *seeks = api_seeks_json(S, account);
        if (seeks)
            ws_send_text(c, seeks);
        free(seeks);
        S->socks_lobby++;
        srv_log(S, "WS lobby open");
        return;
    }
    if (ulen < 11 + CORE_ID_CHARS + 5 || strncmp(uri, "/api/games/", 11) != 0 ||
        strcmp(uri + 11 + CORE_ID_CHARS, "/live") != 0) {
        err = "no such socket";
    } else {
        char id[CORE_ID_CHARS + 1];
        memcpy(id, uri + 11, CORE_ID_CHARS);
        id[CORE_ID_CHARS] = 0;
        g = core_id_ok(id, CORE_ID_CHARS) ? core_get(S->C, id) : NULL;
        if (!g)
            err = core_id_ok(id, CORE_ID_CHARS) && core_get_failed(S->C)
                      ? "the game could not be read: try again"
                      : "no such game";
    }
    int viewer = TAV_SPECTATOR;
    if (!err && !host_allowed(S, wsi)) {
        err = "this server does not answer to that host name";
        g = NULL;
    }
    if (!err && seat) {
        viewer = core_seat(g, seat);
        if (viewer < 0)
            err = "not a seat of this game";
    } else if (!err && account[0]) {
        /* A signed-in player follows their own game as their side. */
        core_cred cred = {NULL, account};
        int side = core_side_of(g, &cred);
        if (side >= 0)
            viewer = side;
    }
    srv_log(S, "WS %s", err ? "refused" : "open");
    if (err) {
        char *e = json_error("%s", err);
        if (e)
            ws_send_text(c, e);
        free(e);
        c->close_after = 1;
        return;
    }
    gview *gv = gview_of(g);
    if (!gv) {
        c->close_after = 1;
        return;
    }
    memcpy(c->account, account, sizeof c->account);   /* who is online */
    if (acct_socket_open(S, c) != 0) {
        ws_send_text(c, "{\"type\":\"error\",\"error\":\"too many sockets open for this account\"}");
        c->close_after = 1;
        return;
    }
    core_pin(g);
    c->gv = gv;
    c->viewer = viewer;
    c->next = gv->live;
    if (gv->live)
        gv->live->prev = c;
    gv->live = c;
    gv->nlive++;
    S->socks_live++;
    c->heard_ms = core_unix_ms();
    c->idle_jitter_ms = (int)randombytes_uniform((uint32_t)(S->live_idle_ms / 4 + 1));
    char pbuf[8];
    c->presence = url_arg(wsi, "presence=", pbuf, sizeof pbuf) && strcmp(pbuf, "1") == 0;
    if (viewer == TAV_WHITE || viewer == TAV_BLACK)
        gv->seated[viewer]++;
    ws_send_game(c, 0);
    if (c->presence)
        presence_send(c);
    /* A seat came: those who asked see it present. */
    if ((viewer == TAV_WHITE || viewer == TAV_BLACK) && gv->seated[viewer] == 1)
        presence_tell(gv, c);
}

static void ws_closed(srv *S, conn *c)
{
    if (c->kind != CONN_WS)
        return;
    acct_socket_closed(S, c);
    if (c->lobby) {
        if (c->prev)
            c->prev->next = c->next;
        else
            S->lobby = c->next;
        if (c->next)
            c->next->prev = c->prev;
        c->lobby = 0;
        S->socks_lobby--;
        /* A seek disappears when its owner leaves: their last lobby socket. */
        int others = 0;
        for (conn *w = S->lobby; w && c->account[0]; w = w->next)
            others += strcasecmp(w->account, c->account) == 0;
        if (c->account[0] && !others && !S->stopped)
            core_unseek_all(S->C, c->account);
        q_free(&c->q);
        free(c->rx);
        c->rx = NULL;
        return;
    }
    gview *gv = c->gv;
    if (gv) {
        if (c->prev)
            c->prev->next = c->next;
        else
            gv->live = c->next;
        if (c->next)
            c->next->prev = c->prev;
        gv->nlive--;
        S->socks_live--;
        if (c->viewer == TAV_WHITE || c->viewer == TAV_BLACK) {
            /* The seat's last socket went: the others see it gone. */
            if (--gv->seated[c->viewer] == 0 && !S->stopped)
                presence_tell(gv, NULL);
        }
        core_unpin(gv->g);
    }
    c->gv = NULL;
    q_free(&c->q);
    free(c->rx);
    c->rx = NULL;
}

/* Close with a code and reason: returns -1 for the callback to return. */
static int ws_close(struct lws *wsi, enum lws_close_status code, const char *why)
{
    lws_close_reason(wsi, code, (unsigned char *)(uintptr_t)why, strlen(why));
    return -1;
}

static void ws_message(conn *c, const char *text, size_t len)
{
    json_error_t jerr;
    json_t *o = json_loadb(text, len, JSON_REJECT_DUPLICATES, &jerr);
    const char *err = NULL;
    if (!o || !json_is_object(o)) {
        err = "a message is a JSON object";
    } else if (json_object_size(o) == 1 && json_is_string(json_object_get(o, "type")) &&
               strcmp(json_string_value(json_object_get(o, "type")), "ping") == 0) {
        ws_send_text(c, "{\"type\":\"pong\"}");
    } else if (json_object_size(o) == 1 && json_is_integer(json_object_get(o, "since")) &&
               json_integer_value(json_object_get(o, "since")) >= 0) {
        json_int_t since = json_integer_value(json_object_get(o, "since"));
        if (c->gv && tav_session_ply(c->gv->g->s) != since)
            ws_send_game(c, 1);
    } else {
        err = "messages are {\"type\": \"ping\"} or {\"since\": N}";
    }
    json_decref(o);
    if (err) {
        json_t *e = json_pack("{s:s,s:s}", "type", "error", "error", err);
        char *t = json_dumps(e, JSON_COMPACT);
        json_decref(e);
        if (t)
            ws_send_text(c, t);
        free(t);
    }
}

static int ws_receive(srv *S, conn *c, struct lws *wsi, const char *in, size_t len)
{
    (void)S;
    c->heard_ms = core_unix_ms();
    c->pinged = 0;
    if (c->close_after)
        return 0;
    if (lws_frame_is_binary(wsi))
        return ws_close(wsi, LWS_CLOSE_STATUS_UNACCEPTABLE_OPCODE, "text only");
    if (lws_is_first_fragment(wsi)) {
        int64_t sec = core_unix_ms() / 1000;
        if (sec != c->rate_sec) {
            c->rate_sec = sec;
            c->rate_count = 0;
        }
        if (++c->rate_count > SRV_WS_RATE)
            return ws_close(wsi, LWS_CLOSE_STATUS_POLICY_VIOLATION, "too many messages");
        c->rxlen = 0;
    }
    if (c->rxlen + len > SRV_WS_MSG_MAX)
        return ws_close(wsi, LWS_CLOSE_STATUS_MESSAGE_TOO_LARGE, "message too large");
    if (!c->rx && !(c->rx = malloc(SRV_WS_MSG_MAX)))
        return -1;
    memcpy(c->rx + c->rxlen, in, len);
    c->rxlen += len;
    if (lws_is_final_fragment(wsi) && lws_remaining_packet_payload(wsi) == 0) {
        ws_message(c, c->rx, c->rxlen);
        c->rxlen = 0;
    }
    return 0;
}

/* Idle live sockets (the server's own check: libwebsockets' validity timers
 * are kept in one sorted list, and rescheduling one per frame walked all of
 * them: 17% of the server's CPU with 5,000 games).  Each socket's jitter
 * spreads the pings: sockets opened together and pinged together held the
 * loop for a second or two with 10,000 of them. */
/* One live socket: pinged when silent too long, closed when silent longer. */
static void idle_check(conn *c, int64_t now_ms, int64_t ping_after, int64_t close_after)
{
    int64_t quiet = now_ms - c->heard_ms - c->idle_jitter_ms;
    if (quiet > close_after) {
        lws_set_timeout(c->wsi, PENDING_TIMEOUT_USER_OK, LWS_TO_KILL_ASYNC);
    } else if (quiet > ping_after && !c->pinged) {
        c->pinged = 1;
        c->ping_due = 1;
        lws_callback_on_writable(c->wsi);
    }
}

void http_idle_sweep(srv *S, int64_t now_ms)
{
    const int64_t ping_after = S->live_idle_ms / 2, close_after = S->live_idle_ms;
    for (conn *c = S->lobby; c; c = c->next)
        idle_check(c, now_ms, ping_after, close_after);
    for (int h = 0; h < CORE_HASH_SIZE; h++)
        for (game *g = S->C->games[h]; g; g = g->hnext) {
            gview *gv = g->edge;
            for (conn *c = gv ? gv->live : NULL; c; c = c->next)
                idle_check(c, now_ms, ping_after, close_after);
        }
}

static int ws_writable(srv *S, conn *c, struct lws *wsi)
{
    if (c->ping_due) {
        /* A payload, so that the pong has one too (an empty pong reaches
         * no callback). */
        unsigned char ping[LWS_PRE + 1];
        ping[LWS_PRE] = 't';
        c->ping_due = 0;
        if (lws_write(wsi, ping + LWS_PRE, 1, LWS_WRITE_PING) < 0)
            return -1;
        if (c->q.count > 0 || c->close_after)
            lws_callback_on_writable(wsi);
        return 0;
    }
    if (c->q.count > 0 && c->q.item[c->q.head]->batch > S->batch_done)
        return 0;   /* held until its batch is committed */
    msg *m = q_pop(&c->q);
    if (m) {
        int n = lws_write(wsi, (unsigned char *)m->data + LWS_PRE, m->len, LWS_WRITE_TEXT);
        msg_unref(m);
        if (n < 0)
            return -1;
        if (c->q.count > 0 || c->close_after)
            lws_callback_on_writable(wsi);
        return 0;
    }
    if (c->close_after)
        return ws_close(wsi, LWS_CLOSE_STATUS_POLICY_VIOLATION, "refused");
    if (S->closing && !c->told_closing) {
        /* SIGTERM: the page is told in words it reads, then the socket is
         * closed with 1001; the page reconnects at once (to another
         * instance, or this one back). */
        static const char bye[] = "{\"type\":\"restarting\",\"error\":\"the server is restarting\"}";
        unsigned char buf[LWS_PRE + sizeof bye];
        memcpy(buf + LWS_PRE, bye, sizeof bye - 1);
        c->told_closing = 1;
        if (lws_write(wsi, buf + LWS_PRE, sizeof bye - 1, LWS_WRITE_TEXT) < 0)
            return -1;
        lws_callback_on_writable(wsi);
        return 0;
    }
    if (S->closing)
        return ws_close(wsi, LWS_CLOSE_STATUS_GOINGAWAY, "the server is restarting");
    return 0;
}

/* ---- the protocol callback ---- */

static int callback(struct lws *wsi, enum lws_callback_reasons reason, void *user, void *in,
                    size_t len)
{
    conn *c = user;
    srv *S = server_of(wsi);
    switch (reason) {
    case LWS_CALLBACK_FILTER_NETWORK_CONNECTION:
        return S && user ? conn_accept(S, user) : 0;
    case LWS_CALLBACK_WSI_CREATE:
        if (S)
            conn_created(S, wsi);
        return 0;
    case LWS_CALLBACK_WSI_DESTROY:
        if (S)
            conn_destroyed(S, wsi);
        return 0;
    case LWS_CALLBACK_FILTER_PROTOCOL_CONNECTION:
        if (S)
            conn_ready(S, wsi);
        return 0;
    case LWS_CALLBACK_EVENT_WAIT_CANCELLED:
        if (S) {
            core_drain(S->C);
            shared_drain(S->C);
        }
        return 0;
    case LWS_CALLBACK_HTTP:
        conn_ready(S, wsi);
        return http_request(S, c, wsi, in);
    case LWS_CALLBACK_HTTP_BODY:
        if (c->responding || !c->bmax)
            return 0;
        return body_add(S, c, in, len);
    case LWS_CALLBACK_HTTP_BODY_COMPLETION:
        lws_set_timeout(wsi, NO_PENDING_TIMEOUT, 0);
        if (!c->responding)
            run_api(S, c);
        return 0;
    case LWS_CALLBACK_HTTP_WRITEABLE:
        return http_write(S, c, wsi);
    case LWS_CALLBACK_CLOSED_HTTP:
        if (c) {
            unawait(S, c);
            if (c->waiting) {
                core_abandon(S->C, c->waiting);
                c->waiting = NULL;
            }
            http_reset(c);
        }
        return 0;
    case LWS_CALLBACK_ESTABLISHED:
        ws_open(S, c, wsi);
        return 0;
    case LWS_CALLBACK_RECEIVE:
        return ws_receive(S, c, wsi, in, len);
    case LWS_CALLBACK_RECEIVE_PONG:
        c->heard_ms = core_unix_ms();
        c->pinged = 0;
        return 0;
    case LWS_CALLBACK_SERVER_WRITEABLE:
        return ws_writable(S, c, wsi);
    case LWS_CALLBACK_CLOSED:
        ws_closed(S, c);
        return 0;
    default:
        break;
    }
    return lws_callback_http_dummy(wsi, reason, user, in, len);
}

static const struct lws_protocols protocols[] = {
    {"tavoliere", callback, sizeof(conn), SRV_WS_MSG_MAX, 0, NULL, 0},
    {NULL, NULL, 0, 0, 0, NULL, 0},
};

const struct lws_protocols *const srv_protocols = protocols;

/* ---- group commit ---- */

/* Group commit: the writes of everything the loop handled in one pass go
 * to the core's writer thread as one batch, committed with one sync while
 * the loop goes on; their answers and live messages go out when it says the
 * batch is on disk (ev_committed). */
void srv_flush(srv *S)
{
    S->flush_scheduled = 0;
    core_commit(S->C);
}

void srv_log(const srv *S, const char *fmt, ...)
{
    if (S && S->quiet)
        return;
    va_list ap;
    va_start(ap, fmt);
    core_vlog(NULL, fmt, ap);
    va_end(ap);
}

/* The commit runs right after the pass of the loop that made the changes
 * (a longer window did not make batches larger in the load benchmark). */
#define FLUSH_US 1

static void on_flush(lws_sorted_usec_list_t *sul)
{
    srv_flush(lws_container_of(sul, srv, flush_sul));
}

void srv_dirty(srv *S)
{
    if (S->flush_scheduled || !S->ctx)
        return;
    S->flush_scheduled = 1;
    lws_sul_schedule(S->ctx, 0, &S->flush_sul, on_flush, FLUSH_US);
}

/* SIGTERM, once the answers are out: every WebSocket is closed with 1001
 * "going away" as soon as what is queued on it is sent. */
void http_close_sockets(srv *S)
{
    S->closing = 1;
    lws_callback_on_writable_all_protocol(S->ctx, &protocols[0]);
}

int http_answers_pending(const srv *S)
{
    return S->await_head != NULL;
}
