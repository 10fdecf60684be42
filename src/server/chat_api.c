/*
 * chat_api.c — (edge) chat in a game and the block list as HTTP, JSON and
 * live messages (docs/server-api.md "Chat"):
 *
 *   POST /api/games/ID/chat {"text": T}   201 {"line": L} once on disk
 *   GET  /api/games/ID/chat               200 {"room": R|null, "lines": [L, ...]}
 *   GET  /api/blocks                      200 {"blocks": [NAME, ...]}
 *   POST /api/blocks {"name": N}          200 {"blocks": [...]}
 *   DELETE /api/blocks/NAME               200 {"blocks": [...]}
 *   GET  /api/me/chat                     200 {"off_rated": bool, "muted": bool}
 *   POST /api/me/chat {"off_rated": bool} 200 {"off_rated": bool, "muted": bool}
 *
 * L is {"name", "text", "time"}; R "players" or "spectators".  On a game's
 * live socket: {"type": "chat", "room": R, "lines": [...], "history": true}
 * at open (the room the viewer may read), then {"type": "chat", "room": R,
 * "line": L} for each line committed.  The rules (who reads which room,
 * limits, blocks) are the core's (core/chat.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <jansson.h>

#include "server/srv.h"

static const char *room_name(int room)
{
    return room == STORE_ROOM_PLAYERS ? "players" : "spectators";
}

static json_t *line_json(const core_chat_line *l)
{
    return json_pack("{s:s, s:s, s:I}", "name", l->name, "text", l->text, "time",
                     (json_int_t)l->ms);
}

/* A body that is an object with exactly the one field `name` of JSON type
 * `type`; NULL (and r answered 400) otherwise. */
static json_t *one_field(const char *body, size_t blen, const char *name, json_type type,
                         reply *r)
{
    json_error_t jerr;
    json_t *o = blen ? json_loadb(body, blen, JSON_REJECT_DUPLICATES, &jerr) : NULL;
    json_t *v = o && json_is_object(o) ? json_object_get(o, name) : NULL;
    int ok = v && json_object_size(o) == 1 &&
             (json_typeof(v) == type || (type == JSON_TRUE && json_is_boolean(v)));
    if (!ok) {
        r->status = 400;
        r->body = json_error("the body must be {\"%s\": %s}", name,
                             type == JSON_STRING ? "\"...\"" : "true or false");
        r->ctype = "application/json";
        json_decref(o);
        return NULL;
    }
    return o;
}

static void add_line(void *ctx, const core_chat_line *l)
{
    json_array_append_new(ctx, line_json(l));
}

static void add_name(void *ctx, const char *name)
{
    json_array_append_new(ctx, json_string(name));
}

static void blocks_answer(srv *S, const char *account, reply *r)
{
    json_t *list = json_array();
    core_blocks_each(S->C, account, add_name, list);
    reply_json(r, 200, json_pack("{s:o}", "blocks", list));
}

static void flags_answer(srv *S, const char *account, reply *r)
{
    int f = core_chat_flags(S->C, account);
    reply_json(r, 200, json_pack("{s:b, s:b}", "off_rated", (f & STORE_CHAT_OFF_RATED) != 0, "muted",
                          (f & STORE_CHAT_MUTED) != 0));
}

static void game_chat(srv *S, const asker *who, const char *id, int method, const char *body,
                      size_t blen, reply *r)
{
    game *g = core_get(S->C, id);
    if (!g) {
        reply_refuse(r, core_get_failed(S->C) ? 503 : 404,
            core_get_failed(S->C) ? "the game could not be read: try again" : "no such game");
        return;
    }
    if (method == 'G') {
        json_t *lines = json_array();
        int room = -1;
        core_chat_history(S->C, g, who->account, &room, add_line, lines);
        json_t *o = json_pack("{s:o, s:o}", "room",
                              room < 0 ? json_null() : json_string(room_name(room)), "lines",
                              lines);
        reply_json(r, 200, o);
        return;
    }
    if (method != 'P') {
        reply_refuse(r, 405, "use GET or POST");
        return;
    }
    if (!who->account[0]) {
        reply_refuse(r, 401, "sign in to chat");
        return;
    }
    json_t *o = one_field(body, blen, "text", JSON_STRING, r);
    if (!o)
        return;
    const char *text = json_string_value(json_object_get(o, "text"));
    char err[200];
    int64_t ms = 0;
    if (strlen(text) != json_string_length(json_object_get(o, "text"))) {
        reply_refuse(r, 400, "the text may not hold control characters");
        json_decref(o);
        return;
    }
    core_status st = core_chat_post(S->C, g, who->account, text, &ms, err, sizeof err);
    if (st != CORE_CREATED) {
        reply_refuse(r, api_http_status(st), err);
        json_decref(o);
        return;
    }
    core_cred cred = {NULL, who->account};
    int side = core_side_of(g, &cred);
    core_facts f;
    core_game_facts(g, &f);
    core_chat_line l = {core_chat_room(S->C, g, who->account),
                        side >= 0 ? f.account[side] : who->account, text, ms};
    reply_json(r, 201, json_pack("{s:s, s:o}", "room", room_name(l.room), "line", line_json(&l)));
    r->hold = core_pending(S->C) ? core_batch(S->C) : 0;   /* answered once on disk */
    json_decref(o);
}

int chat_routes(srv *S, const asker *who, const char *path, int method, const char *body,
                size_t blen, reply *r)
{
    if (strncmp(path, "/api/games/", 11) == 0) {
        const char *id = path + 11;
        if (strlen(id) != CORE_ID_CHARS + 5 || strcmp(id + CORE_ID_CHARS, "/chat") != 0 ||
            !core_id_ok(id, CORE_ID_CHARS))
            return 0;
        char gid[CORE_ID_CHARS + 1];
        memcpy(gid, id, CORE_ID_CHARS);
        gid[CORE_ID_CHARS] = 0;
        game_chat(S, who, gid, method, body, blen, r);
        return 1;
    }
    if (strcmp(path, "/api/me/chat") == 0) {
        if (method != 'G' && method != 'P') {
            reply_refuse(r, 405, "use GET or POST");
        } else if (!who->account[0]) {
            reply_refuse(r, 401, "not signed in");
        } else if (method == 'G') {
            flags_answer(S, who->account, r);
        } else {
            json_t *o = one_field(body, blen, "off_rated", JSON_TRUE, r);
            if (!o)
                return 1;
            int off = json_is_true(json_object_get(o, "off_rated"));
            json_decref(o);
            core_status st = core_chat_set_flag(S->C, who->account, STORE_CHAT_OFF_RATED, off);
            if (st != CORE_OK) {
                reply_refuse(r, api_http_status(st), "the setting could not be kept");
                return 1;
            }
            reply_json(r, 200, json_pack("{s:b, s:b}", "off_rated", off, "muted",
                                  (core_chat_flags(S->C, who->account) & STORE_CHAT_MUTED) != 0));
            r->hold = core_pending(S->C) ? core_batch(S->C) : 0;
        }
        return 1;
    }
    if (strcmp(path, "/api/blocks") == 0 || strncmp(path, "/api/blocks/", 12) == 0) {
        const char *name = path[11] == '/' ? path + 12 : NULL;
        if (!who->account[0]) {
            reply_refuse(r, 401, "not signed in");
            return 1;
        }
        char err[200];
        core_status st = CORE_OK;
        char given[STORE_NAME_LEN] = "";
        int on = 1;
        if (!name && method == 'G') {
            blocks_answer(S, who->account, r);
            return 1;
        } else if (!name && method == 'P') {
            json_t *o = one_field(body, blen, "name", JSON_STRING, r);
            if (!o)
                return 1;
            const char *n = json_string_value(json_object_get(o, "name"));
            if (core_name_ok(n))
                snprintf(given, sizeof given, "%s", n);
            json_decref(o);
        } else if (name && method == 'D') {
            if (core_name_ok(name))
                snprintf(given, sizeof given, "%s", name);
            on = 0;
        } else {
            reply_refuse(r, 405, name ? "use DELETE" : "use GET or POST");
            return 1;
        }
        char chosen[STORE_NAME_LEN] = "";
        if (!given[0] || !core_player(S->C, given, chosen)) {
            reply_refuse(r, 404, "no such player");
            return 1;
        }
        st = core_block(S->C, who->account, chosen, on, err, sizeof err);
        if (st != CORE_OK) {
            reply_refuse(r, api_http_status(st), err);
            return 1;
        }
        reply_json(r, 200, json_pack("{s:s, s:b}", "name", chosen, "blocked", on));
        r->hold = core_pending(S->C) ? core_batch(S->C) : 0;   /* answered once on disk */
        return 1;
    }
    return 0;
}

void chat_event(void *ctx, game *g, const core_chat_line *l)
{
    srv *S = ctx;
    gview *gv = core_game_edge(g);
    if (!gv || !gv->live)
        return;
    json_t *o = json_pack("{s:s, s:s, s:o}", "type", "chat", "room", room_name(l->room), "line",
                          line_json(l));
    char *text = o ? json_dumps(o, JSON_COMPACT) : NULL;
    json_decref(o);
    if (!text)
        return;
    for (conn *c = gv->live; c; c = c->next) {
        if (!c->account[0] || core_chat_room(S->C, g, c->account) != l->room ||
            core_blocks(S->C, c->account, l->name))
            continue;
        ws_send_text(c, text);
    }
    free(text);
}

void chat_socket_open(srv *S, conn *c)
{
    game *g = c->gv ? c->gv->g : NULL;
    if (!g || !c->account[0])
        return;
    json_t *lines = json_array();
    int room = -1;
    core_chat_history(S->C, g, c->account, &room, add_line, lines);
    if (room < 0) {
        json_decref(lines);
        return;
    }
    json_t *o = json_pack("{s:s, s:s, s:o, s:b}", "type", "chat", "room", room_name(room),
                          "lines", lines, "history", 1);
    char *text = o ? json_dumps(o, JSON_COMPACT) : NULL;
    json_decref(o);
    if (text)
        ws_send_text(c, text);
    free(text);
}
