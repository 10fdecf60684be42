/*
 * tournaments_api.c — the tournaments' requests and live sockets (SPEC
 * "Tournaments"; docs/tournaments.md): POST /api/tournaments, .../join,
 * .../withdraw, .../start, GET /api/tournaments, GET /api/tournaments/T,
 * and GET /api/tournaments/T/live as a WebSocket.
 *
 * A live socket gets the tournament's JSON at once, then again whenever it
 * changes: the edge reads each watched tournament from the store a few
 * times a second (what any instance committed: many instances need no
 * message between them for this) and sends it where it differs from what
 * the socket has.  A signed-in player's sockets are told {"type": "paired",
 * "game": ID} of each new game of theirs that is still being played.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <jansson.h>
#include <libwebsockets.h>

#include "server/srv.h"

#define TOURS_LIVE_MS 500   /* watched tournaments are read again this often */

static json_t *clock_of(const store_tour *t)
{
    if (t->days)
        return json_pack("{s:I}", "days", (json_int_t)t->days);
    return json_pack("{s:I,s:I}", "initial", (json_int_t)t->initial, "increment",
                     (json_int_t)t->increment);
}

static const char *status_word(int status)
{
    return status == STORE_TOUR_OPEN ? "open" : status == STORE_TOUR_RUNNING ? "running" : "over";
}

/* When it ends: an arena at its start + minutes (planned until it starts);
 * a round robin when it ended (null before). */
static json_t *ends_of(const store_tour *t)
{
    if (strcmp(t->kind, "arena") == 0)
        return json_integer(t->status == STORE_TOUR_OPEN ? t->starts + t->minutes * 60000 : t->ends);
    return t->status == STORE_TOUR_OVER && t->ends ? json_integer(t->ends) : json_null();
}

static json_t *summary_json(const store_tour *t)
{
    json_t *o = json_pack("{s:s,s:s,s:s,s:s,s:s,s:i,s:I}", "id", t->id, "name", t->name, "game",
                          t->game, "kind", t->kind, "status", status_word(t->status), "players",
                          t->players, "starts", (json_int_t)t->starts);
    /* beyond the contract: what the list's page shows */
    json_object_set_new(o, "ends", ends_of(t));
    json_object_set_new(o, "rated", json_boolean(t->rated));
    json_object_set_new(o, "clock", clock_of(t));
    if (strcmp(t->kind, "arena") == 0)
        json_object_set_new(o, "minutes", json_integer(t->minutes));
    json_object_set_new(o, "repeat", t->repeat[0] ? json_string(t->repeat) : json_null());
    return o;
}

/* A number as the API shows it: whole numbers as integers. */
static json_t *number(double v)
{
    if (v == (double)(json_int_t)v)
        return json_integer((json_int_t)v);
    return json_real(v);
}

static json_t *view_json(const core_tour_view *v)
{
    const store_tour *t = &v->t;
    json_t *o = json_pack("{s:s,s:s,s:s,s:s,s:s,s:b,s:o,s:s,s:s,s:I,s:o}", "id", t->id, "name",
                          t->name, "game", t->game, "options", t->options, "kind", t->kind,
                          "rated", t->rated, "clock", clock_of(t), "creator", t->creator,
                          "status", status_word(t->status), "starts", (json_int_t)t->starts,
                          "ends", ends_of(t));
    if (strcmp(t->kind, "arena") == 0)
        json_object_set_new(o, "minutes", json_integer(t->minutes));
    json_object_set_new(o, "repeat", t->repeat[0] ? json_string(t->repeat) : json_null());
    json_object_set_new(o, "previous", t->previous[0] ? json_string(t->previous) : json_null());
    json_t *players = json_array();
    for (int i = 0; i < v->n; i++) {
        const core_tour_line *l = &v->players[i];
        json_t *p = json_pack("{s:s,s:i,s:o,s:o,s:i,s:b,s:i}", "name", l->name, "rating",
                              (int)(l->rating + 0.5), "score", number(l->score), "tiebreak",
                              number(l->tiebreak), "division", l->division, "withdrawn",
                              l->withdrawn, "rank", l->rank);
        json_array_append_new(players, p);
    }
    json_object_set_new(o, "players", players);
    json_t *games = json_array();
    for (int i = 0; i < v->ng; i++) {
        const store_tour_game *g = &v->games[i];
        json_t *e = json_pack("{s:s,s:s,s:s,s:i,s:o,s:o}", "id", g->game, "white", g->white,
                              "black", g->black, "division", g->division, "winner",
                              g->winner[0] ? json_string(g->winner) : json_null(), "end",
                              g->end[0] ? json_string(g->end) : json_null());
        json_array_append_new(games, e);
    }
    json_object_set_new(o, "games", games);
    return o;
}

/* ---- requests ---- */

/* The body of POST /api/tournaments, checked whole: 0, or -1 answered. */
static int parse_new(const char *body, size_t len, store_tour *t, reply *r)
{
    json_error_t jerr;
    json_t *o = len ? json_loadb(body, len, JSON_REJECT_DUPLICATES, &jerr) : NULL;
    if (!o || !json_is_object(o)) {
        reply_refuse(r, 400, "the body must be a JSON object");
        json_decref(o);
        return -1;
    }
    static const char *const known[] = {"name", "game", "options", "kind", "rated", "clock",
                                        "starts", "minutes", "repeat"};
    const char *key;
    json_t *v;
    const char *bad = NULL;
    json_object_foreach(o, key, v) {
        int k = 0;
        for (size_t i = 0; i < sizeof known / sizeof known[0]; i++)
            k |= strcmp(key, known[i]) == 0;
        if (!k)
            bad = "unknown field";
    }
    memset(t, 0, sizeof *t);
    json_t *name = json_object_get(o, "name"), *gname = json_object_get(o, "game"),
           *options = json_object_get(o, "options"), *kind = json_object_get(o, "kind"),
           *rated = json_object_get(o, "rated"), *clock = json_object_get(o, "clock"),
           *starts = json_object_get(o, "starts"), *minutes = json_object_get(o, "minutes"),
           *repeat = json_object_get(o, "repeat");
    if (bad) {
    } else if (!json_is_string(name) || json_string_length(name) >= sizeof t->name) {
        bad = "\"name\" is a string of 1 to 80 bytes";
    } else if (!json_is_string(gname) || json_string_length(gname) >= sizeof t->game) {
        bad = "\"game\" names a game";
    } else if (options && (!json_is_string(options) || json_string_length(options) > 480)) {
        bad = "\"options\" is a string of at most 480 bytes";
    } else if (!json_is_string(kind) || json_string_length(kind) >= sizeof t->kind) {
        bad = "\"kind\" is \"roundrobin\" or \"arena\"";
    } else if (rated && !json_is_boolean(rated)) {
        bad = "\"rated\" is true or false";
    } else if (!json_is_integer(starts) || json_integer_value(starts) <= 0) {
        bad = "\"starts\" is a time in unix ms";
    } else if (minutes && !json_is_null(minutes) &&
               (!json_is_integer(minutes) || json_integer_value(minutes) < 0 ||
                json_integer_value(minutes) > 100000)) {
        bad = "\"minutes\" is a number of minutes";
    } else if (repeat && !json_is_null(repeat) &&
               (!json_is_string(repeat) || json_string_length(repeat) >= sizeof t->repeat)) {
        bad = "\"repeat\" is \"day\" or \"week\"";
    } else if (!json_is_object(clock)) {
        bad = "a tournament needs a clock: {\"initial\": S, \"increment\": S} or {\"days\": D}";
    } else {
        json_object_foreach(clock, key, v) {
            int ok = json_is_integer(v) && json_integer_value(v) >= 0 &&
                     json_integer_value(v) <= 1000000;
            if (!ok || (strcmp(key, "initial") && strcmp(key, "increment") && strcmp(key, "days")))
                bad = "a clock is {\"initial\": S, \"increment\": S} or {\"days\": D}";
            else if (strcmp(key, "initial") == 0)
                t->initial = json_integer_value(v);
            else if (strcmp(key, "increment") == 0)
                t->increment = json_integer_value(v);
            else
                t->days = json_integer_value(v);
        }
    }
    if (bad) {
        reply_refuse(r, 400, bad);
        json_decref(o);
        return -1;
    }
    snprintf(t->name, sizeof t->name, "%s", json_string_value(name));
    snprintf(t->game, sizeof t->game, "%s", json_string_value(gname));
    snprintf(t->options, sizeof t->options, "%s", options ? json_string_value(options) : "");
    snprintf(t->kind, sizeof t->kind, "%s", json_string_value(kind));
    t->rated = rated && json_is_true(rated);
    t->starts = json_integer_value(starts);
    t->minutes = json_is_integer(minutes) ? json_integer_value(minutes) : 0;
    snprintf(t->repeat, sizeof t->repeat, "%s", json_is_string(repeat) ? json_string_value(repeat) : "");
    json_decref(o);
    return 0;
}

static int add_summary(void *ctx, const store_tour *t)
{
    json_array_append_new(ctx, summary_json(t));
    return 0;
}

static void send_view(srv *S, const char *id, reply *r)
{
    core_tour_view v;
    core_status st = core_tour_read(S->C, id, &v);
    if (st != CORE_OK) {
        reply_refuse(r, api_http_status(st),
               st == CORE_NOTFOUND ? "no such tournament" : "the tournament could not be read");
        return;
    }
    json_t *o = view_json(&v);
    json_object_set_new(o, "now", json_integer(core_game_ms(S->C)));
    reply_text(r, 200, json_dumps(o, JSON_COMPACT));
    json_decref(o);
    core_tour_view_free(&v);
}

int tours_route(srv *S, const asker *who, const char *path, int method, const char *body,
                size_t blen, reply *r)
{
    if (strcmp(path, "/api/tournaments") == 0) {
        if (method == 'G') {
            json_t *list = json_array();
            core_tour_list(S->C, CORE_TOUR_LIST_MAX, add_summary, list);
            reply_text(r, 200, json_dumps(list, JSON_COMPACT));
            json_decref(list);
        } else if (method != 'P') {
            reply_refuse(r, 405, "use GET or POST");
        } else if (!who->account[0]) {
            reply_refuse(r, 401, "sign in to make a tournament");
        } else {
            store_tour t;
            if (parse_new(body, blen, &t, r) != 0)
                return 1;
            char id[STORE_ID_LEN], err[320];
            core_status st = core_tour_create(S->C, who->account, &t, id, err, sizeof err);
            if (st == CORE_CREATED) {
                json_t *o = json_pack("{s:s}", "id", id);
                reply_text(r, 201, json_dumps(o, JSON_COMPACT));
                json_decref(o);
            } else {
                reply_text(r, api_http_status(st), json_error("%s", err));
            }
        }
        return 1;
    }
    if (strncmp(path, "/api/tournaments/", 17) != 0)
        return 0;
    const char *id = path + 17;
    const char *slash = strchr(id, '/');
    size_t idlen = slash ? (size_t)(slash - id) : strlen(id);
    const char *action = slash ? slash + 1 : "";
    if (!core_id_ok(id, idlen) || strchr(action, '/')) {
        reply_refuse(r, 404, "no such tournament");
        return 1;
    }
    char tid[STORE_ID_LEN];
    memcpy(tid, id, idlen);
    tid[idlen] = 0;
    if (action[0] == 0) {
        if (method != 'G')
            reply_refuse(r, 405, "use GET");
        else
            send_view(S, tid, r);
        return 1;
    }
    if (strcmp(action, "live") == 0) {
        reply_refuse(r, 400, "this address is a WebSocket");
        return 1;
    }
    int join = strcmp(action, "join") == 0;
    core_status (*fn)(core *, const char *, const char *, char *, size_t) =
        strcmp(action, "withdraw") == 0 ? core_tour_withdraw
        : strcmp(action, "start") == 0 ? core_tour_start
                                       : NULL;
    if (!fn && !join) {
        reply_refuse(r, 404, "no such request");
        return 1;
    }
    if (method != 'P') {
        reply_refuse(r, 405, "use POST");
        return 1;
    }
    if (!who->account[0]) {
        reply_refuse(r, 401, "sign in first");
        return 1;
    }
    char err[320];
    core_status st;
    if (join) {
        /* An optional body: {"once": true} (a recurring event: this edition only). */
        int once = 0;
        if (blen > 0) {
            json_error_t jerr;
            json_t *o = json_loadb(body, blen, JSON_REJECT_DUPLICATES, &jerr);
            json_t *v = json_is_object(o) ? json_object_get(o, "once") : NULL;
            int ok = json_is_object(o) && json_object_size(o) == (v ? 1u : 0u) &&
                     (!v || json_is_boolean(v));
            once = v && json_is_true(v);
            json_decref(o);
            if (!ok) {
                reply_refuse(r, 400, "a join's body is {} or {\"once\": true}");
                return 1;
            }
        }
        st = core_tour_join(S->C, who->account, tid, once, err, sizeof err);
    } else {
        st = fn(S->C, who->account, tid, err, sizeof err);
    }
    if (st == CORE_OK)
        reply_text(r, 200, strdup("{}"));
    else
        reply_text(r, api_http_status(st), json_error("%s", err));
    return 1;
}

/* ---- live sockets ---- */

static unsigned long text_hash(const char *s)
{
    unsigned long h = 1469598103934665603ul;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 1099511628211ul;
    return h ? h : 1;
}

/* The tournament's live message: its JSON (with the game time now); *hash
 * of it without the time (what changes it). */
static char *live_text(srv *S, const core_tour_view *v, unsigned long *hash)
{
    json_t *o = view_json(v);
    char *plain = json_dumps(o, JSON_COMPACT);
    *hash = plain ? text_hash(plain) : 0;
    free(plain);
    json_object_set_new(o, "now", json_integer(core_game_ms(S->C)));
    char *text = json_dumps(o, JSON_COMPACT);
    json_decref(o);
    return text;
}

/* New games of the socket's account since it last looked: {"type":"paired"}. */
static void tell_paired(conn *c, const core_tour_view *v)
{
    for (int i = c->tour_seen; i < v->ng; i++) {
        const store_tour_game *g = &v->games[i];
        if (!c->account[0] || g->winner[0] || g->end[0] ||
            (strcasecmp(g->white, c->account) != 0 && strcasecmp(g->black, c->account) != 0))
            continue;
        char text[96];
        snprintf(text, sizeof text, "{\"type\":\"paired\",\"game\":\"%s\"}", g->game);
        ws_send_text(c, text);
    }
    c->tour_seen = v->ng;
}

void tours_ws_open(srv *S, conn *c, const char *uri, const char *account)
{
    size_t n = strlen(uri);
    const char *id = uri + 17;
    core_tour_view v;
    if (n != 17 + CORE_ID_CHARS + 5 || strcmp(uri + 17 + CORE_ID_CHARS, "/live") != 0 ||
        !core_id_ok(id, CORE_ID_CHARS)) {
        ws_send_text(c, "{\"type\":\"error\",\"error\":\"no such tournament\",\"code\":\"no_such_tournament\"}");
        c->close_after = 1;
        return;
    }
    memcpy(c->tour, id, CORE_ID_CHARS);
    c->tour[CORE_ID_CHARS] = 0;
    core_status st = core_tour_read(S->C, c->tour, &v);
    if (st != CORE_OK) {
        c->tour[0] = 0;
        ws_send_text(c, st == CORE_NOTFOUND
                              ? "{\"type\":\"error\",\"error\":\"no such tournament\",\"code\":\"no_such_tournament\"}"
                              : "{\"type\":\"error\",\"error\":\"the tournament could not be read\",\"code\":\"server_error\"}");
        c->close_after = 1;
        return;
    }
    snprintf(c->account, sizeof c->account, "%s", account);
    char *text = live_text(S, &v, &c->tour_hash);
    if (text)
        ws_send_text(c, text);
    free(text);
    c->tour_seen = v.ng;
    core_tour_view_free(&v);
    c->heard_ms = core_unix_ms();
    c->next = S->tours;
    c->prev = NULL;
    if (S->tours)
        S->tours->prev = c;
    S->tours = c;
    srv_log(S, "WS tournament open");
}

void tours_ws_closed(srv *S, conn *c)
{
    if (c->prev)
        c->prev->next = c->next;
    else if (S->tours == c)
        S->tours = c->next;
    if (c->next)
        c->next->prev = c->prev;
    c->prev = c->next = NULL;
    c->tour[0] = 0;
}

void tours_tick(srv *S)
{
    core_tour_tick(S->C);
    int64_t now = core_unix_ms();
    if (!S->tours || now - S->tours_looked < TOURS_LIVE_MS)
        return;
    S->tours_looked = now;
    /* Each tournament watched, read once: its sockets are marked as done. */
    for (conn *c = S->tours; c; c = c->next)
        c->tour_done = 0;
    for (conn *c = S->tours; c; c = c->next) {
        if (c->tour_done)
            continue;
        core_tour_view v;
        if (core_tour_read(S->C, c->tour, &v) != CORE_OK) {
            c->tour_done = 1;
            continue;
        }
        unsigned long hash = 0;
        char *text = NULL;
        for (conn *w = c; w; w = w->next) {
            if (w->tour_done || strcmp(w->tour, c->tour) != 0)
                continue;
            w->tour_done = 1;
            if (!text)
                text = live_text(S, &v, &hash);
            if (text && hash != w->tour_hash) {
                w->tour_hash = hash;
                ws_send_text(w, text);
            }
            tell_paired(w, &v);
        }
        free(text);
        core_tour_view_free(&v);
    }
}
