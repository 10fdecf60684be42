/*
 * bots_api.c — SPEC "Bots" at the edge: making an account a bot, its API
 * tokens (made with the session cookie, shown once), declining a challenge,
 * the bots online, and a bot's event socket (GET /api/bot/events with its
 * bearer token): at once each open challenge to it and each of its
 * unfinished games, then challenge / challengeCanceled / gameStart /
 * gameFinish as they come, here or on another instance (the core's events:
 * lobby_changed, bot_game, declined).  docs/bots.md.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <jansson.h>
#include <libwebsockets.h>
#include <sodium.h>

#include "server/srv.h"

#define BOT_TOLD_MAX 512   /* challenges and games an event socket keeps track of */

/* A body that must be empty or {}: 0, else refused. */
static int empty_body(const char *body, size_t len, reply *r)
{
    if (len == 0)
        return 0;
    json_error_t jerr;
    json_t *o = json_loadb(body, len, JSON_REJECT_DUPLICATES, &jerr);
    int ok = o && json_is_object(o) && json_object_size(o) == 0;
    json_decref(o);
    if (!ok)
        reply_refuse(r, 400, "the body is empty or {}");
    return ok ? 0 : -1;
}

/* The body of a decline: empty, {} or {"reason": CODE} (extension: the
 * maker is told the code; docs/server-api.md).  0, else refused (400). */
static int decline_reason(const char *body, size_t len, char reason[16], reply *r)
{
    snprintf(reason, 16, "generic");
    if (len == 0)
        return 0;
    json_error_t jerr;
    json_t *o = json_loadb(body, len, JSON_REJECT_DUPLICATES, &jerr);
    json_t *why = o ? json_object_get(o, "reason") : NULL;
    int ok = o && json_is_object(o) &&
             (json_object_size(o) == 0 ||
              (json_object_size(o) == 1 && json_is_string(why) &&
               core_decline_reason_ok(json_string_value(why))));
    if (ok && why)
        snprintf(reason, 16, "%s", json_string_value(why));
    json_decref(o);
    if (!ok)
        reply_refuse(r, 400, "the body is empty, {} or {\"reason\": R} with R one of generic, later, "
                       "tooFast, tooSlow, timeControl, rated, casual, variant");
    return ok ? 0 : -1;
}

static int add_token(void *ctx, const store_token *t)
{
    json_t *o = json_pack("{s:s,s:I}", "id", t->id, "created", (json_int_t)t->created);
    json_object_set_new(o, "used", t->last_used ? json_integer((json_int_t)t->last_used)
                                                : json_null());
    json_array_append_new(ctx, o);
    return 0;
}

static void tokens_route(srv *S, const asker *who, const char *path, int method,
                         const char *body, size_t blen, reply *r)
{
    if (!who->account[0]) {
        reply_refuse(r, 401, "not signed in");
        return;
    }
    char err[256];
    if (strcmp(path, "/api/tokens") == 0 && method == 'G') {
        json_t *list = json_array();
        if (core_tokens_each(S->C, who->account, add_token, list) != 0) {
            json_decref(list);
            reply_refuse(r, 503, "the tokens could not be read: try again");
            return;
        }
        reply_json(r, 200, list);
        return;
    }
    if (who->bearer) {
        /* A token never makes or revokes tokens: a leaked one cannot breed. */
        reply_refuse(r, 403, "tokens are made and revoked signed in with the password, not with a token");
        return;
    }
    if (strcmp(path, "/api/tokens") == 0) {
        if (method != 'P') {
            reply_refuse(r, 405, "use GET or POST");
            return;
        }
        if (empty_body(body, blen, r) != 0)
            return;
        char id[STORE_ID_LEN], token[64];
        core_status st = core_token_new(S->C, who->account, id, token, err, sizeof err);
        if (st == CORE_CREATED)
            reply_json(r, 201, json_pack("{s:s,s:s}", "id", id, "token", token));
        else
            reply_text(r, api_http_status(st), json_error("%s", err));
        sodium_memzero(token, sizeof token);
        return;
    }
    if (method != 'D') {
        reply_refuse(r, 405, "use DELETE");
        return;
    }
    const char *id = path + strlen("/api/tokens/");
    if (!core_id_ok(id, strlen(id))) {
        reply_refuse(r, 404, "no such token of yours");
        return;
    }
    core_status st = core_token_revoke(S->C, who->account, id, err, sizeof err);
    reply_text(r, api_http_status(st), st == CORE_OK ? strdup("{}") : json_error("%s", err));
}

int bots_routes(srv *S, const asker *who, const char *path, int method, const char *body,
                size_t blen, reply *r)
{
    char err[256];
    if (who->bearer && (strcmp(path, "/api/password") == 0 ||
                        strncmp(path, "/api/sessions", 13) == 0)) {
        reply_refuse(r, 403, "the password and sign-ins are not for tokens");
        return 1;
    }
    if (strcmp(path, "/api/account/bot") == 0) {
        if (method != 'P')
            reply_refuse(r, 405, "use POST");
        else if (!who->account[0])
            reply_refuse(r, 401, "not signed in");
        else if (empty_body(body, blen, r) == 0) {
            core_status st = core_bot_make(S->C, who->account, err, sizeof err);
            if (st == CORE_OK)
                reply_json(r, 200, json_pack("{s:s,s:b}", "name", who->account, "bot", 1));
            else
                reply_text(r, api_http_status(st), json_error("%s", err));
        }
        return 1;
    }
    if (strcmp(path, "/api/tokens") == 0 || strncmp(path, "/api/tokens/", 12) == 0) {
        tokens_route(S, who, path, method, body, blen, r);
        return 1;
    }
    if (strcmp(path, "/api/bots") == 0) {
        /* The bots online here: an event socket open on this instance. */
        if (method != 'G') {
            reply_refuse(r, 405, "use GET");
            return 1;
        }
        json_t *list = json_array();
        for (conn *w = S->bots; w; w = w->next) {
            int seen = 0;
            for (conn *v = S->bots; v != w; v = v->next)
                seen |= strcasecmp(v->account, w->account) == 0;
            if (!seen && json_array_size(list) < 100)
                json_array_append_new(list, json_pack("{s:s}", "name", w->account));
        }
        reply_json(r, 200, list);
        return 1;
    }
    size_t n = strlen(path);
    if (strncmp(path, "/api/seeks/", 11) == 0 && n > 19 &&
        strcmp(path + n - 8, "/decline") == 0) {
        const char *id = path + 11;
        size_t idlen = n - 11 - 8;
        char sid[STORE_ID_LEN], reason[16];
        if (method != 'P') {
            reply_refuse(r, 405, "use POST");
        } else if (!who->account[0]) {
            reply_refuse(r, 401, "sign in to decline a challenge");
        } else if (!core_id_ok(id, idlen)) {
            reply_refuse(r, 404, "no such challenge");
        } else if (decline_reason(body, blen, reason, r) == 0) {
            memcpy(sid, id, idlen);
            sid[idlen] = 0;
            core_status st = core_decline(S->C, who->account, sid, reason, err, sizeof err);
            reply_text(r, api_http_status(st), st == CORE_OK ? strdup("{}") : json_error("%s", err));
        }
        return 1;
    }
    return 0;
}

/* ---- the event socket ---- */

static long held_batch(srv *S)
{
    if (!core_pending(S->C))
        return 0;
    srv_dirty(S);
    return core_batch(S->C);
}

static void send_obj(srv *S, conn *c, json_t *o)
{
    char *t = json_dumps(o, JSON_COMPACT);
    json_decref(o);
    if (t)
        ws_send_held(c, t, strlen(t), held_batch(S));
    free(t);
}

static int told_has(char (*list)[STORE_ID_LEN], int n, const char *id)
{
    for (int i = 0; i < n; i++)
        if (strcmp(list[i], id) == 0)
            return i;
    return -1;
}

static void told_add(char (**list)[STORE_ID_LEN], int *n, const char *id)
{
    if (told_has(*list, *n, id) >= 0 || *n >= BOT_TOLD_MAX)
        return;
    char(*grown)[STORE_ID_LEN] = realloc(*list, sizeof **list * (size_t)(*n + 1));
    if (!grown)
        return;
    *list = grown;
    snprintf(grown[*n], STORE_ID_LEN, "%s", id);
    (*n)++;
}

static void told_drop(char (*list)[STORE_ID_LEN], int *n, int at)
{
    memmove(list[at], list[at + 1], sizeof list[0] * (size_t)(*n - at - 1));
    (*n)--;
}

/* The open challenges to `account` as GET /api/seeks shows them (a list). */
static json_t *challenges_to(srv *S, const char *account)
{
    char *text = api_seeks_json(S, account);
    json_t *all = text ? json_loads(text, 0, NULL) : NULL;
    free(text);
    json_t *mine = json_array();
    size_t i;
    json_t *k;
    json_array_foreach(all, i, k) {
        const char *to = json_string_value(json_object_get(k, "to"));
        if (to && strcasecmp(to, account) == 0)
            json_array_append(mine, k);
    }
    json_decref(all);
    return mine;
}

/* Tell one socket what changed among the challenges to its bot. */
static void challenges_tell(srv *S, conn *c)
{
    json_t *now = challenges_to(S, c->account);
    size_t i;
    json_t *k;
    json_array_foreach(now, i, k) {
        const char *id = json_string_value(json_object_get(k, "id"));
        if (!id || told_has(c->told_seeks, c->ntold_seeks, id) >= 0)
            continue;
        told_add(&c->told_seeks, &c->ntold_seeks, id);
        send_obj(S, c, json_pack("{s:s,s:O}", "type", "challenge", "seek", k));
    }
    for (int t = 0; t < c->ntold_seeks;) {
        int still = 0;
        json_array_foreach(now, i, k) {
            const char *id = json_string_value(json_object_get(k, "id"));
            still |= id && strcmp(id, c->told_seeks[t]) == 0;
        }
        if (still) {
            t++;
            continue;
        }
        /* Gone: taken (its gameStart follows), or withdrawn, declined, lapsed. */
        if (!core_seek_taken(S->C, c->told_seeks[t]))
            send_obj(S, c, json_pack("{s:s,s:s}", "type", "challengeCanceled", "seek",
                                     c->told_seeks[t]));
        told_drop(c->told_seeks, &c->ntold_seeks, t);
    }
    json_decref(now);
}

typedef struct open_games {
    srv *S;
    conn *c;
} open_games;

static void tell_open_game(void *ctx, game *g)
{
    open_games *o = ctx;
    if (told_has(o->c->told_games, o->c->ntold_games, core_game_id(g)) >= 0)
        return;
    told_add(&o->c->told_games, &o->c->ntold_games, core_game_id(g));
    send_obj(o->S, o->c, json_pack("{s:s,s:s}", "type", "gameStart", "game", core_game_id(g)));
}

static void refuse_socket(conn *c, const char *why)
{
    json_t *e = json_pack("{s:s,s:s,s:s}", "type", "error", "error", why, "code", error_code(400, why));
    char *t = json_dumps(e, JSON_COMPACT);
    json_decref(e);
    if (t)
        ws_send_held(c, t, strlen(t), 0);
    free(t);
    c->close_after = 1;
}

void bots_ws_open(srv *S, conn *c, const char *account, int bearer)
{
    if (!bearer || !account[0]) {
        refuse_socket(c, "the event socket needs an API token (Authorization: Bearer TOKEN)");
        return;
    }
    if (!core_is_bot(S->C, account)) {
        refuse_socket(c, "only a bot account has an event socket (POST /api/account/bot)");
        return;
    }
    memcpy(c->account, account, sizeof c->account);
    if (acct_socket_open(S, c) != 0) {
        c->account[0] = 0;
        refuse_socket(c, "too many sockets open for this account");
        return;
    }
    c->bot = 1;
    c->prev = NULL;
    c->next = S->bots;
    if (S->bots)
        S->bots->prev = c;
    S->bots = c;
    S->socks_bots++;
    c->heard_ms = core_unix_ms();
    c->idle_jitter_ms = (int)randombytes_uniform((uint32_t)(S->live_idle_ms / 4 + 1));
    challenges_tell(S, c);
    open_games o = {S, c};
    core_my_games(S->C, account, tell_open_game, &o);
    srv_log(S, "WS bot events open");
}

void bots_ws_closed(srv *S, conn *c)
{
    acct_socket_closed(S, c);
    if (c->prev)
        c->prev->next = c->next;
    else
        S->bots = c->next;
    if (c->next)
        c->next->prev = c->prev;
    c->bot = 0;
    S->socks_bots--;
    free(c->told_seeks);
    free(c->told_games);
    c->told_seeks = c->told_games = NULL;
    c->ntold_seeks = c->ntold_games = 0;
    msg *m;
    while (c->q.count > 0) {
        m = c->q.item[c->q.head];
        c->q.head = (c->q.head + 1) % c->q.cap;
        c->q.count--;
        ws_msg_unref(m);
    }
    free(c->q.item);
    memset(&c->q, 0, sizeof c->q);
    free(c->rx);
    c->rx = NULL;
}

void bots_lobby_changed(srv *S)
{
    for (conn *c = S->bots; c; c = c->next)
        challenges_tell(S, c);
}

void bots_game(srv *S, const char *account, const char *game_id, int finished)
{
    for (conn *c = S->bots; c; c = c->next) {
        if (strcasecmp(c->account, account) != 0)
            continue;
        int at = told_has(c->told_games, c->ntold_games, game_id);
        if (!finished) {
            if (at >= 0)
                continue;
            told_add(&c->told_games, &c->ntold_games, game_id);
            send_obj(S, c, json_pack("{s:s,s:s}", "type", "gameStart", "game", game_id));
        } else {
            if (at >= 0)
                told_drop(c->told_games, &c->ntold_games, at);
            send_obj(S, c, json_pack("{s:s,s:s}", "type", "gameFinish", "game", game_id));
        }
    }
}

void bots_declined(srv *S, const char *maker, const char *seek_id, const char *by,
                   const char *reason)
{
    long batch = held_batch(S);
    json_t *o = json_pack("{s:s,s:s,s:s,s:s}", "type", "declined", "seek", seek_id, "by", by,
                          "reason", reason);
    char *t = json_dumps(o, JSON_COMPACT);
    json_decref(o);
    if (!t)
        return;
    for (conn *w = S->lobby; w; w = w->next)
        if (w->account[0] && strcasecmp(w->account, maker) == 0) {
            ws_send_held(w, t, strlen(t), batch);
            if (batch)
                S->lobby_held = 1;
        }
    for (conn *w = S->bots; w; w = w->next)
        if (strcasecmp(w->account, maker) == 0)
            ws_send_held(w, t, strlen(t), batch);
    free(t);
}
