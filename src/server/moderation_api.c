/*
 * moderation_api.c — (edge) closing an account, one's data and reports as
 * HTTP and JSON (SPEC "Closing an account, one's data, reports and
 * moderation"; docs/server-api.md):
 *
 *   GET  /api/me/export                 200 everything kept about the account
 *   POST /api/account/close {"password"} 200 {"closed": true}, signed out; 401
 *   POST /api/reports {"name", "game", "reason", "text"}   201 {"ok": true}
 *
 * The rules (limits, who may be reported, what a close does) are the
 * core's (core/moderation.c, core/accounts.c).  The operator's side is
 * `tavoliere admin` (src/cli/admin.c), never reachable from the network.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <jansson.h>

#include "server/srv.h"

#define SRV_EXPORT_GAMES 1000   /* games the export lists (with their records) */

/* A body that is a JSON object; NULL (and r answered 400) otherwise. */
static json_t *object_body(const char *body, size_t blen, reply *r)
{
    json_error_t jerr;
    json_t *o = blen ? json_loadb(body, blen, JSON_REJECT_DUPLICATES, &jerr) : NULL;
    if (!json_is_object(o)) {
        json_decref(o);
        reply_refuse(r, 400, "the request needs a JSON object");
        return NULL;
    }
    return o;
}

/* ---- the export ---- */

typedef struct export_ctx {
    srv *S;
    const char *name;
    json_t *list;
} export_ctx;

static int add_rating(void *ctx, const char *gname, const store_rating *sr)
{
    json_object_set_new(ctx, gname,
                        json_pack("{s:f,s:f,s:f,s:i,s:b}", "rating", sr->rating, "rd", sr->rd,
                                  "volatility", sr->vol, "games", sr->games, "provisional",
                                  core_rating_provisional(sr)));
    return 0;
}

static int add_game(void *ctx, const store_player_game *pg)
{
    export_ctx *x = ctx;
    json_t *o = json_pack("{s:s,s:s,s:s,s:s,s:s,s:s,s:b,s:I}", "id", pg->id, "game", pg->game,
                          "white", pg->white, "black", pg->black, "winner",
                          pg->winner[0] ? pg->winner : "none", "end", pg->end, "rated",
                          pg->rated, "created", (json_int_t)pg->created);
    game *g = core_get(x->S->C, pg->id);
    char *record = NULL;
    if (g) {
        core_cred cred = {NULL, x->name};
        int side = core_side_of(g, &cred);
        core_facts f;
        core_game_facts(g, &f);
        record = tav_session_record(core_game_session(g), side >= 0 ? side : TAV_NONE, f.player[0],
                                    f.player[1]);
    }
    json_object_set_new(o, "record", record ? json_string(record) : json_null());
    free(record);
    json_array_append_new(x->list, o);
    return 0;
}

static int add_chat(void *ctx, const char *gid, int room, const char *text, int64_t ms)
{
    json_array_append_new(ctx, json_pack("{s:s,s:s,s:s,s:I}", "game", gid, "room",
                                         room == STORE_ROOM_PLAYERS ? "players" : "spectators",
                                         "text", text, "time", (json_int_t)ms));
    return 0;
}

static int add_report(void *ctx, const store_report *rp)
{
    json_array_append_new(ctx, json_pack("{s:I,s:s,s:s*,s:s,s:s}", "time",
                                         (json_int_t)rp->created, "name", rp->reported, "game",
                                         rp->game[0] ? rp->game : NULL, "reason", rp->reason,
                                         "text", rp->text));
    return 0;
}

static void add_block(void *ctx, const char *name)
{
    json_array_append_new(ctx, json_string(name));
}

static int add_token(void *ctx, const store_token *t)
{
    json_array_append_new(ctx, json_pack("{s:s,s:I,s:I}", "id", t->id, "created",
                                         (json_int_t)t->created, "lastUsed",
                                         (json_int_t)t->last_used));
    return 0;
}

static void api_export(srv *S, const asker *who, reply *r)
{
    core *C = S->C;
    const char *name = who->account;
    int64_t closed = 0;
    int banned = 0;
    if (!core_account_state(C, name, &closed, &banned)) {
        reply_refuse(r, 503, "the account could not be read");
        return;
    }
    json_t *o = json_object();
    json_object_set_new(o, "name", json_string(name));
    json_object_set_new(o, "created", json_integer(core_account_created(C, name)));
    json_t *ratings = json_object();
    core_ratings_each(C, name, add_rating, ratings);
    json_object_set_new(o, "ratings", ratings);
    export_ctx x = {S, name, json_array()};
    core_player_games(C, name, SRV_EXPORT_GAMES, add_game, &x);
    json_object_set_new(o, "games", x.list);
    char lang[4];
    core_account_lang(C, name, lang);
    json_object_set_new(o, "lang", lang[0] ? json_string(lang) : json_null());
    store_mail m;
    if (core_mail_get(C, name, &m) == CORE_OK && m.address[0])
        json_object_set_new(o, "email",
                            json_pack("{s:s,s:b,s:i,s:b}", "address", m.address, "verified",
                                      m.verified, "kinds", m.kinds, "digest", m.digest));
    else
        json_object_set_new(o, "email", json_null());
    int flags = core_chat_flags(C, name);
    json_object_set_new(o, "chatSettings",
                        json_pack("{s:b,s:b}", "offRated", (flags & STORE_CHAT_OFF_RATED) != 0,
                                  "muted", (flags & STORE_CHAT_MUTED) != 0));
    json_t *chat = json_array();
    core_chat_by(C, name, add_chat, chat);
    json_object_set_new(o, "chat", chat);
    json_t *reports = json_array();
    core_reports_by(C, name, add_report, reports);
    json_object_set_new(o, "reports", reports);
    json_t *blocks = json_array();
    core_blocks_each(C, name, add_block, blocks);
    json_object_set_new(o, "blocks", blocks);
    json_t *tokens = json_array();
    core_tokens_each(C, name, add_token, tokens);
    json_object_set_new(o, "tokens", tokens);
    json_object_set_new(o, "bot", json_boolean(core_is_bot(C, name)));
    reply_json(r, 200, o);
    snprintf(r->disposition, sizeof r->disposition,
             "attachment; filename=\"tavoliere-%s.json\"", name);
}

/* ---- closing, reports ---- */

static void api_close(srv *S, conn *c, const asker *who, const char *body, size_t blen,
                      reply *r)
{
    json_t *o = object_body(body, blen, r);
    if (!o)
        return;
    json_t *pw = json_object_get(o, "password");
    if (!json_is_string(pw) || json_object_size(o) != 1) {
        json_decref(o);
        reply_refuse(r, 400, "the body must be {\"password\": \"...\"}");
        return;
    }
    char err[256] = "";
    job *j = NULL;
    core_status st = core_close_account(S->C, who->account, who->by, c, json_string_value(pw), &j,
                                        err, sizeof err);
    json_decref(o);
    if (st == CORE_PENDING)
        r->pending = j;
    else
        reply_refuse(r, st == CORE_FORBIDDEN ? 401 : api_http_status(st), err);
}

static void api_report(srv *S, const asker *who, const char *body, size_t blen, reply *r)
{
    json_t *o = object_body(body, blen, r);
    if (!o)
        return;
    json_t *name = json_object_get(o, "name"), *gid = json_object_get(o, "game"),
           *reason = json_object_get(o, "reason"), *text = json_object_get(o, "text");
    size_t known = (name != NULL) + (gid != NULL) + (reason != NULL) + (text != NULL);
    if (!json_is_string(name) || !json_is_string(reason) ||
        (gid && !json_is_string(gid) && !json_is_null(gid)) ||
        (text && !json_is_string(text)) || known != json_object_size(o)) {
        json_decref(o);
        reply_refuse(r, 400, "the body must be {\"name\": N, \"game\": ID or null, \"reason\": R, "
                    "\"text\": T}");
        return;
    }
    char err[256] = "";
    core_status st = core_report(S->C, who->account, json_string_value(name),
                                 json_is_string(gid) ? json_string_value(gid) : "",
                                 json_string_value(reason), text ? json_string_value(text) : "",
                                 err, sizeof err);
    json_decref(o);
    if (st == CORE_CREATED) {
        reply_json(r, 201, json_pack("{s:b}", "ok", 1));
        r->hold = core_pending(S->C) ? core_batch(S->C) : 0;   /* answered once on disk */
    } else {
        reply_refuse(r, st == CORE_FORBIDDEN ? 401 : api_http_status(st), err);
    }
}

int moderation_routes(srv *S, conn *c, const asker *who, const char *path, int method,
                      const char *body, size_t blen, reply *r)
{
    int export = strcmp(path, "/api/me/export") == 0,
        close = strcmp(path, "/api/account/close") == 0,
        report = strcmp(path, "/api/reports") == 0;
    if (!export && !close && !report)
        return 0;
    int want = export ? 'G' : 'P';
    if (method != want) {
        reply_refuse(r, 405, want == 'G' ? "use GET" : "use POST");
        return 1;
    }
    if (!who->account[0]) {
        reply_refuse(r, 401, "not signed in");
        return 1;
    }
    if (export)
        api_export(S, who, r);
    else if (close)
        api_close(S, c, who, body, blen, r);
    else
        api_report(S, who, body, blen, r);
    return 1;
}

/* ---- the sockets of an account closed or banned ---- */

static void close_conn(conn *w, const char *account)
{
    if (w->account[0] && strcasecmp(w->account, account) == 0 && !w->close_after) {
        w->close_after = 1;
        lws_callback_on_writable(w->wsi);
    }
}

typedef struct gone_ctx {
    const char *account;
} gone_ctx;

static void close_game_conns(void *ctx, game *g)
{
    const char *account = ((const gone_ctx *)ctx)->account;
    gview *gv = core_game_edge(g);
    for (conn *w = gv ? gv->live : NULL; w; w = w->next)
        close_conn(w, account);
}

void srv_account_gone(void *ctx, const char *account)
{
    srv *S = ctx;
    for (conn *w = S->lobby; w; w = w->next)
        close_conn(w, account);
    for (conn *w = S->bots; w; w = w->next)
        close_conn(w, account);
    for (conn *w = S->tours; w; w = w->next)
        close_conn(w, account);
    gone_ctx gc = {account};
    core_each_game(S->C, close_game_conns, &gc);
    S->now_dirty = 1;   /* who is online (lobby_now) */
}
