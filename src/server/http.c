/*
 * http.c — the libwebsockets side: one protocol serves HTTP (the API under
 * /api/, the web UI's files for everything else) and the live WebSocket
 * (/api/games/ID/live).
 *
 * HTTP: LWS_CALLBACK_HTTP reads the request line and headers; a POST body
 * is collected (up to its limit) through LWS_CALLBACK_HTTP_BODY; the answer
 * is built whole, then written from LWS_CALLBACK_HTTP_WRITEABLE in chunks.
 * The live WebSocket lives in sockets.c, the page's files in files.c; this
 * file routes every event of libwebsockets to them (route_event).
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
    if (http_trusted_proxy(S, addr))
        return 0;   /* the proxy: it counts connections per client itself (limit_conn) */
    peer *p = peer_get(S->C, addr);
    if (!p)
        return core_config_of(S->C)->limit_loopback || !peer_is_loopback(addr) ? -1 : 0;
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

void http_respond(conn *c, int status, const char *ctype, char *body, size_t len)
{
    respond_as(c, status, ctype, body, len, 1);
}

/* hold: an answer to a POST waits for the writes pending now, a read's
 * answer for the batch it shows (c->hold) (0: goes at once). */
/* A refusal's body {"error": E} gains its stable "code" (errcode.c), once,
 * here where every answer passes. */
static char *with_code(int status, const char *ctype, char *body, size_t *len)
{
    if (status < 400 || !body || !ctype || strcmp(ctype, "application/json") != 0 ||
        strncmp(body, "{\"error\":", 9) != 0)
        return body;
    json_t *o = json_loadb(body, *len, 0, NULL);
    json_t *e = o ? json_object_get(o, "error") : NULL;
    char *out = NULL;
    if (json_is_string(e) && !json_object_get(o, "code") &&
        json_object_set_new(o, "code", json_string(error_code(status, json_string_value(e)))) == 0)
        out = json_dumps(o, JSON_COMPACT);
    json_decref(o);
    if (!out)
        return body;
    free(body);
    *len = strlen(out);
    return out;
}

static void respond_as(conn *c, int status, const char *ctype, char *body, size_t len,
                       int hold)
{
    body = with_code(status, ctype, body, &len);
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
    srv *S = http_server_of(c->wsi);
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
            ws_msg_unref(m);
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
    /* Bots' event sockets: their messages held for this batch go. */
    for (conn *w = S->bots; w; w = w->next) {
        if (!ok)
            q_drop_batch(&w->q, n);
        lws_callback_on_writable(w->wsi);
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
    http_respond(c, status, "application/json", b, b ? strlen(b) : 0);
}

void http_reply_ready(conn *c, reply *r)
{
    if (!r->body) {
        respond_error(c, 500, "out of memory");
        return;
    }
    memcpy(c->set_cookie, r->set_cookie, sizeof c->set_cookie);
    memcpy(c->disposition, r->disposition, sizeof c->disposition);
    c->hold = r->hold;
    memcpy(c->seek, r->seek, sizeof c->seek);
    http_respond(c, r->status, r->ctype ? r->ctype : "application/json", r->body, strlen(r->body));
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
            (c->disposition[0] &&
             lws_add_http_header_by_name(wsi, (const unsigned char *)"content-disposition:",
                                         (const unsigned char *)c->disposition,
                                         (int)strlen(c->disposition), &p, end)) ||
            lws_finalize_write_http_header(wsi, start, &p, end))
            return -1;
        c->headers_sent = 1;
        c->disposition[0] = 0;   /* this answer's only */
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




static void run_api(srv *S, conn *c)
{
    char seatbuf[128], plybuf[48], tokbuf[96];
    const char *seat = http_url_arg(c->wsi, "seat=", seatbuf, sizeof seatbuf);
    const char *ply = http_url_arg(c->wsi, "ply=", plybuf, sizeof plybuf);
    asker who;
    memset(&who, 0, sizeof who);
    who.by = http_peer(S, c->wsi);
    who.token = http_session_token(c->wsi, tokbuf, sizeof tokbuf);
    who.secure = S->secure_cookies;
    if (c->method == 'P' && lws_hdr_copy(c->wsi, who.ua, sizeof who.ua, WSI_TOKEN_HTTP_USER_AGENT) < 0)
        who.ua[0] = 0;
    /* SPEC "Bots": `Authorization: Bearer TOKEN` acts as the token's
     * account, in place of any cookie; no Origin check (a page of another
     * site cannot send that header without the server's consent, which it
     * never gives); an unknown or revoked token is 401. */
    char bearbuf[96];
    int bearer = http_bearer_token(c->wsi, bearbuf, sizeof bearbuf);
    if (bearer >= 0) {
        sodium_memzero(tokbuf, sizeof tokbuf);
        who.token = NULL;
        who.bearer = 1;
        int known = bearer > 0 && core_token_who(S->C, bearbuf, who.account);
        sodium_memzero(bearbuf, sizeof bearbuf);
        if (!known) {
            S->requests++;
            respond_error(c, 401, "unknown or revoked token");
            return;
        }
    }
    if (who.token && c->method != 'G' && http_foreign_origin(c->wsi)) {
        S->requests++;
        respond_error(c, 403, "a request from another site: refused");
        return;
    }
    if (who.token && !core_signin_who(S->C, who.token, who.account))
        who.account[0] = 0;
    reply r;
    routes_answer(S, c, &who, c->path, c->method, c->body ? c->body : "", c->blen, seat, ply, &r);
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
    if (!http_host_allowed(S, wsi)) {
        c->close_after = 1;
        respond_error(c, 421, "this server does not answer to that host name "
                              "(its operator names it with --allow-host)");
        return 0;
    }
    /* The operator's pages (ops.c): health and metrics, under the same
     * per-address request rate as the API (the health check asks the
     * database: a stranger must not make it do so at will). */
    reply orep;
    peer *who = http_peer(S, wsi);
    if ((strcmp(uri, "/api/health") == 0 || strcmp(uri, "/metrics") == 0) && peer_rate_exceeded(S->C, who)) {
        respond_error(c, 429, "too many requests");
        return 0;
    }
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
        file_answer fa;
        files_answer(S, c->method, uri, &fa);
        http_respond(c, fa.status, fa.ctype, fa.body, fa.len);
        if (fa.shared)
            c->resp_static = 1;   /* the cache's own bytes: not freed with the answer */
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

/* ---- every libwebsockets event of a connection, routed ---- */

/* libwebsockets calls this for every event of every connection (its
 * "protocol callback"): HTTP events go to the handlers above, socket events
 * to sockets.c, static files to files.c. */
static int route_event(struct lws *wsi, enum lws_callback_reasons reason, void *user, void *in,
                       size_t len)
{
    conn *c = user;
    srv *S = http_server_of(wsi);
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
    {"tavoliere", route_event, sizeof(conn), SRV_WS_MSG_MAX, 0, NULL, 0},
    {NULL, NULL, 0, 0, 0, NULL, 0},
};

const struct lws_protocols *const srv_protocols = protocols;

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
