/*
 * sockets.c — the live WebSocket (/api/games/ID/live, /api/lobby/live): each
 * socket has a queue of shared messages (the game's JSON as its viewer sees
 * it); a socket that falls too far behind is dropped.  Presence (who
 * watches a game, who is in the lobby), the lobby's messages, idle sockets.
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

static void bcast_hold(srv *S, gview *gv, long batch);

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
    srv *S = http_server_of(c->wsi);
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
    gview *gv = core_game_edge(g);
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
            m[k] = ws_msg_new(text, len);
            free(text);
            if (!m[k])
                continue;
            m[k]->batch = batch;
        }
        c->sent = stamp;
        if (ws_q_push(&c->q, m[k]) != 0) {
            /* Too far behind: drop the socket; it can reconnect and catch up. */
            lws_set_timeout(c->wsi, PENDING_TIMEOUT_USER_OK, LWS_TO_KILL_ASYNC);
            continue;
        }
        if (!batch)
            lws_callback_on_writable(c->wsi);
    }
    for (int k = 0; k < 3; k++)
        ws_msg_unref(m[k]);
}

/* 1 when `addr` is a proxy whose X-Real-IP is believed: the addresses given
 * with --proxy-addr, else (--proxy, --tls-proxy alone) any loopback peer
 * (nginx on this machine). */
/* ---- the live socket ---- */

/* Who is here (docs/server-api.md, presence): a side played by the computer,
 * or a seat with a live socket open. */
static void presence_send(conn *c)
{
    const gview *gv = c->gv;
    core_facts f;
    core_game_facts(gv->g, &f);
    char text[96];
    snprintf(text, sizeof text, "{\"type\":\"presence\",\"white\":%s,\"black\":%s}",
             !f.human[0] || gv->seated[0] > 0 ? "true" : "false",
             !f.human[1] || gv->seated[1] > 0 ? "true" : "false");
    ws_send_text(c, text);
}

/* One seeks message for a lobby socket, tagged with the batch it waits for. */
static msg *seeks_msg(srv *S, const char *viewer)
{
    char *text = api_seeks_json(S, viewer);
    if (!text)
        return NULL;
    msg *m = ws_msg_new(text, strlen(text));
    free(text);
    if (m && core_pending(S->C)) {
        srv_dirty(S);
        m->batch = core_batch(S->C);
    }
    return m;
}

/* Queue m on lobby socket w (dropped when too far behind: it reconnects). */
static void lobby_queue(srv *S, conn *w, msg *m)
{
    if (ws_q_push(&w->q, m) != 0)
        lws_set_timeout(w->wsi, PENDING_TIMEOUT_USER_OK, LWS_TO_KILL_ASYNC);
    else if (!m->batch)
        lws_callback_on_writable(w->wsi);
    else
        S->lobby_held = 1;
}

/* A text (heap; taken and freed) to the lobby sockets of `account`, or to
 * every lobby socket (NULL), held until what is open is committed. */
static void lobby_send(srv *S, const char *account, char *text)
{
    if (!text)
        return;
    msg *m = ws_msg_new(text, strlen(text));
    free(text);
    if (!m)
        return;
    if (core_pending(S->C)) {
        srv_dirty(S);
        m->batch = core_batch(S->C);
    }
    for (conn *w = S->lobby; w; w = w->next)
        if (!account || (w->account[0] && strcasecmp(w->account, account) == 0))
            lobby_queue(S, w, m);
    ws_msg_unref(m);
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
        lobby_queue(S, w, m);
        if (m != shared)
            ws_msg_unref(m);   /* the socket's own: its queue holds it now */
    }
    ws_msg_unref(shared);
    /* Quick pairing: how many wait in each pool (pool_api.c). */
    lobby_send(S, NULL, api_pool_text(S));
}

void lobby_started(srv *S, const char *account, const char *game_id)
{
    char text[128];
    snprintf(text, sizeof text, "{\"type\":\"started\",\"game\":\"%s\"}", game_id);
    msg *m = ws_msg_new(text, strlen(text));
    if (!m)
        return;
    if (core_pending(S->C)) {
        srv_dirty(S);
        m->batch = core_batch(S->C);
    }
    for (conn *w = S->lobby; w; w = w->next)
        if (w->account[0] && strcasecmp(w->account, account) == 0 && ws_q_push(&w->q, m) == 0) {
            if (!m->batch)
                lws_callback_on_writable(w->wsi);
            else
                S->lobby_held = 1;
        }
    ws_msg_unref(m);
}

static int lobby_has(srv *S, const char *account)
{
    for (conn *w = S->lobby; w; w = w->next)
        if (w->account[0] && strcasecmp(w->account, account) == 0)
            return 1;
    return 0;
}

/* A game changed: each of its players with a lobby socket here is sent the
 * game as their list of games shows it ("mygame"), and the player offered a
 * rematch in a finished one is told who offers it ("rematch"). */
void lobby_mygame(srv *S, game *g)
{
    core_facts f;
    core_game_facts(g, &f);
    if (f.account[0][0] && f.account[1][0])
        S->now_dirty = 1;   /* the games being played (lobby_now) */
    if (!S->lobby)
        return;
    /* A rated game's new ratings, once committed: every lobby socket is told
     * who (profiles, leaderboards and the seeks' ratings are read again). */
    if (core_over(g) && f.rated && f.rating_after[0] > 0 && f.rating_after[1] > 0) {
        gview *gv = gview_of(g);
        if (gv && !gv->rated_told) {
            gv->rated_told = 1;
            json_t *o = json_pack("{s:s,s:s,s:s,s:[ss]}", "type", "rated", "id", core_game_id(g), "game",
                                  tav_session_game(core_game_session(g))->name, "names", f.account[0],
                                  f.account[1]);
            char *text = o ? json_dumps(o, JSON_COMPACT) : NULL;
            json_decref(o);
            lobby_send(S, NULL, text);
            lobby_broadcast(S);   /* the seeks' ratings */
        }
    }
    for (int side = 0; side < 2; side++) {
        const char *account = f.account[side];
        if (!account[0] || !lobby_has(S, account))
            continue;
        lobby_send(S, account, api_mygame_text(S, g, account));
        if (core_over(g) && f.rematch_offer == 1 - side && !f.rematch[0] &&
            f.account[1 - side][0])
            lobby_send(S, account, api_rematch_text(S, g, f.account[1 - side]));
    }
}

/* The lobby's lists (who is online, the games between accounts being
 * played) to every lobby socket once something in them changed, at most
 * once a second. */
void lobby_now(srv *S, int64_t now)
{
    if (!S->now_dirty || now - S->now_sent < 1000)
        return;
    S->now_dirty = 0;
    S->now_sent = now;
    if (!S->lobby)
        return;
    lobby_send(S, NULL, api_now_text(S));
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
    if (!core_seek_count(S->C))
        return;   /* nothing to lapse (the seeks are read on the lobby's first use) */
    lobby_names l = {NULL, 0};
    size_t cap = 0;
    for (conn *w = S->lobby; w; w = w->next)
        cap += w->account[0] != 0;
    for (conn *w = S->bots; w; w = w->next)
        cap++;   /* a bot's event socket keeps its challenges too */
    if (cap && !(l.name = malloc(cap * sizeof l.name[0])))
        return;   /* no memory now: next time */
    for (conn *w = S->lobby; w; w = w->next)
        if (w->account[0])
            memcpy(l.name[l.n++], w->account, sizeof l.name[0]);
    for (conn *w = S->bots; w; w = w->next)
        memcpy(l.name[l.n++], w->account, sizeof l.name[0]);
    if (l.n)
        qsort(l.name, l.n, sizeof l.name[0], name_cmp);
    core_seeks_lapse(S->C, lobby_present, &l);
    core_pool_match(S->C, lobby_present, &l);   /* quick pairing (pool.c) */
    free(l.name);
}

/* A seat came or went: tell every socket that asked, but `except`. */
static void presence_tell(gview *gv, conn *except)
{
    for (conn *w = gv->live; w; w = w->next)
        if (w->presence && w != except)
            presence_send(w);
}

void ws_open(srv *S, conn *c, struct lws *wsi)
{
    memset(c, 0, sizeof *c);
    c->wsi = wsi;
    c->kind = CONN_WS;
    char uri[256], seatbuf[128];
    int n = lws_hdr_copy(wsi, uri, sizeof uri, WSI_TOKEN_GET_URI);
    const char *seat = http_url_arg(wsi, "seat=", seatbuf, sizeof seatbuf);
    const char *err = NULL;
    game *g = NULL;
    size_t ulen = n > 0 ? (size_t)n : 0;
    char tokbuf[96], account[STORE_NAME_LEN] = "";
    const char *token = http_session_token(wsi, tokbuf, sizeof tokbuf);
    if (peer_rate_exceeded(S->C, http_peer(S, wsi))) {
        /* An upgrade is a request like any other: it counts against the
         * client's address (behind a proxy the one X-Real-IP names).  The
         * socket is closed with a message, never dropped unanswered (a proxy
         * would take that for an instance down). */
        sodium_memzero(tokbuf, sizeof tokbuf);
        ws_send_text(c, "{\"type\":\"error\",\"error\":\"too many requests\",\"code\":\"rate_limited\"}");
        c->close_after = 1;
        return;
    }
    /* SPEC "Bots": an API token in the Authorization header stands for its
     * account instead of the cookie (and needs no Origin check). */
    char bearbuf[96];
    int bearer = http_bearer_token(wsi, bearbuf, sizeof bearbuf);
    if (bearer >= 0) {
        token = NULL;
        if (bearer == 0 || !core_token_who(S->C, bearbuf, account)) {
            sodium_memzero(bearbuf, sizeof bearbuf);
            sodium_memzero(tokbuf, sizeof tokbuf);
            ws_send_text(c, "{\"type\":\"error\",\"status\":401,\"error\":\"unknown or revoked token\",\"code\":\"unauthorized\"}");
            c->close_after = 1;
            return;
        }
        sodium_memzero(bearbuf, sizeof bearbuf);
    }
    if (token && !core_signin_who(S->C, token, account))
        account[0] = 0;
    sodium_memzero(tokbuf, sizeof tokbuf);
    if (n > 0 && strcmp(uri, "/api/bot/events") == 0) {
        if (!http_host_allowed(S, wsi)) {
            ws_send_text(c, "{\"type\":\"error\",\"error\":\"this server does not answer to that host name\",\"code\":\"forbidden\"}");
            c->close_after = 1;
            return;
        }
        bots_ws_open(S, c, account, bearer > 0);
        return;
    }
    if (n > 0 && strcmp(uri, "/api/lobby") == 0) {
        if (!http_host_allowed(S, wsi)) {
            ws_send_text(c, "{\"type\":\"error\",\"error\":\"this server does not answer to that host name\",\"code\":\"forbidden\"}");
            c->close_after = 1;
            return;
        }
        if (bearer < 0 && http_foreign_origin(wsi)) {
            /* The lobby socket acts with the session cookie: a page of
             * another site may not open it (as every cookie request). */
            ws_send_text(c, "{\"type\":\"error\",\"error\":\"a socket from another site: refused\",\"code\":\"forbidden\"}");
            c->close_after = 1;
            return;
        }
        memcpy(c->account, account, sizeof c->account);
        if (acct_socket_open(S, c) != 0) {
            ws_send_text(c, "{\"type\":\"error\",\"error\":\"too many sockets open for this account\",\"code\":\"too_many_sockets\"}");
            c->close_after = 1;
            return;
        }
        c->lobby = 1;
        if (account[0])
            core_seek_owner_here(S->C, account);
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
        if (account[0]) {
            /* The player's channel: their games at once, then each change. */
            char *mine = api_mine_text(S, account);
            if (mine)
                ws_send_text(c, mine);
            free(mine);
        }
        char *pool = api_pool_text(S);   /* quick pairing: how many wait (after "mine") */
        if (pool)
            ws_send_text(c, pool);
        free(pool);
        S->socks_lobby++;
        srv_log(S, "WS lobby open");
        return;
    }
    if (n > 0 && strncmp(uri, "/api/tournaments/", 17) == 0) {
        if (!http_host_allowed(S, wsi)) {
            ws_send_text(c, "{\"type\":\"error\",\"error\":\"this server does not answer to that host name\",\"code\":\"forbidden\"}");
            c->close_after = 1;
            return;
        }
        c->idle_jitter_ms = (int)randombytes_uniform((uint32_t)(S->live_idle_ms / 4 + 1));
        tours_ws_open(S, c, uri, account);
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
        if (g)
            core_game_asked(S->C, g);
        if (!g)
            err = core_id_ok(id, CORE_ID_CHARS) && core_get_failed(S->C)
                      ? "the game could not be read: try again"
                      : "no such game";
    }
    int viewer = TAV_SPECTATOR;
    if (!err && !http_host_allowed(S, wsi)) {
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
        ws_send_text(c, "{\"type\":\"error\",\"error\":\"too many sockets open for this account\",\"code\":\"too_many_sockets\"}");
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
    c->presence = http_url_arg(wsi, "presence=", pbuf, sizeof pbuf) && strcmp(pbuf, "1") == 0;
    if (viewer == TAV_WHITE || viewer == TAV_BLACK)
        gv->seated[viewer]++;
    ws_send_game(c, 0);
    chat_socket_open(S, c);   /* the chat room's history (chat_api.c) */
    if (c->presence)
        presence_send(c);
    /* A seat came: those who asked see it present. */
    if ((viewer == TAV_WHITE || viewer == TAV_BLACK) && gv->seated[viewer] == 1)
        presence_tell(gv, c);
}

void ws_closed(srv *S, conn *c)
{
    if (c->kind != CONN_WS)
        return;
    if (c->bot) {
        bots_ws_closed(S, c);
        return;
    }
    acct_socket_closed(S, c);
    if (c->tour[0]) {
        tours_ws_closed(S, c);
        ws_q_free(&c->q);
        free(c->rx);
        c->rx = NULL;
        return;
    }
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
            core_seek_owner_left(S->C, c->account);   /* they lapse unless it comes back */
        ws_q_free(&c->q);
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
    ws_q_free(&c->q);
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
        if (c->gv && tav_session_ply(core_game_session(c->gv->g)) != since)
            ws_send_game(c, 1);
    } else {
        err = "messages are {\"type\": \"ping\"} or {\"since\": N}";
    }
    json_decref(o);
    if (err) {
        json_t *e = json_pack("{s:s,s:s,s:s}", "type", "error", "error", err, "code", error_code(400, err));
        char *t = json_dumps(e, JSON_COMPACT);
        json_decref(e);
        if (t)
            ws_send_text(c, t);
        free(t);
    }
}

int ws_receive(srv *S, conn *c, struct lws *wsi, const char *in, size_t len)
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
 * them: 17% of the server's CPU with 5,000 games; serve.c gives the sockets
 * none at all, since each pong rescheduled one too).  Each socket's jitter
 * spreads the pings: sockets opened together and pinged together held the
 * loop for a second or two with 10,000 of them. */
/* One live socket: pinged when silent too long, closed when silent longer,
 * and never closed before a ping has had the time between the two to be
 * answered (a loop held up past both, a machine paused, would otherwise close
 * every socket unasked). */
static void idle_check(conn *c, int64_t now_ms, int64_t ping_after, int64_t close_after)
{
    int64_t quiet = now_ms - c->heard_ms - c->idle_jitter_ms;
    if (!c->pinged) {
        if (quiet > ping_after) {
            c->pinged = 1;
            c->pinged_ms = now_ms;
            c->ping_due = 1;
            lws_callback_on_writable(c->wsi);
        }
    } else if (quiet > close_after && now_ms - c->pinged_ms >= close_after - ping_after) {
        lws_set_timeout(c->wsi, PENDING_TIMEOUT_USER_OK, LWS_TO_KILL_ASYNC);
    }
}

typedef struct idle_ctx {
    int64_t now_ms, ping_after, close_after;
} idle_ctx;

static void idle_game(void *ctx, game *g)
{
    const idle_ctx *ic = ctx;
    gview *gv = core_game_edge(g);
    for (conn *c = gv ? gv->live : NULL; c; c = c->next)
        idle_check(c, ic->now_ms, ic->ping_after, ic->close_after);
}

/* Every 200 ms: the lobby's, bots' and tournaments' sockets, and one part of
 * the games' (a game's sockets are looked at every live_idle/20, 3 s by
 * default: walking every game each time held the loop 5-18 ms every 200 ms
 * with 10,000 games). */
void http_idle_sweep(srv *S, int64_t now_ms)
{
    const int64_t ping_after = S->live_idle_ms / 2, close_after = S->live_idle_ms;
    int parts = (int)(S->live_idle_ms / 4000);
    if (parts < 1)
        parts = 1;
    if (parts > 64)
        parts = 64;
    S->idle_part = (S->idle_part + 1) % parts;
    for (conn *c = S->lobby; c; c = c->next)
        idle_check(c, now_ms, ping_after, close_after);
    for (conn *c = S->bots; c; c = c->next)
        idle_check(c, now_ms, ping_after, close_after);
    for (conn *c = S->tours; c; c = c->next)
        idle_check(c, now_ms, ping_after, close_after);
    idle_ctx ic = {now_ms, ping_after, close_after};
    core_each_game_part(S->C, S->idle_part, parts, idle_game, &ic);
}

int ws_writable(srv *S, conn *c, struct lws *wsi)
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
    msg *m = ws_q_pop(&c->q);
    if (m) {
        int n = lws_write(wsi, (unsigned char *)m->data + LWS_PRE, m->len, LWS_WRITE_TEXT);
        ws_msg_unref(m);
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
        static const char bye[] = "{\"type\":\"restarting\",\"error\":\"the server is restarting\",\"code\":\"stopping\"}";
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
