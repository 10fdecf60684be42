/*
 * api.c — the requests of docs/server-api.md, one handler each.
 *
 * Every body is parsed and checked completely (types, lengths, no unknown
 * fields) before a game is touched; every refusal is a 4xx with
 * {"error": ...} and changes nothing.  Handlers answer through a reply
 * (status, body); a hint answers later, when its search is done.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>
#include <sodium.h>

#include "server/srv.h"

enum { F_STR, F_INT };

typedef struct field {
    const char *name;
    int type;
    size_t max;          /* strings: longest length; ints: largest value */
    int required;
} field;

static void answer(reply *r, int status, char *body)
{
    r->status = status;
    r->body = body;
    r->ctype = "application/json";
}

static void refuse(reply *r, int status, const char *text)
{
    answer(r, status, json_error("%s", text));
}

/* Parse a body as a JSON object holding exactly the fields described. */
static json_t *parse_body(const char *body, size_t len, const field *f, int nf, reply *r)
{
    json_error_t jerr;
    if (len == 0) {
        refuse(r, 400, "the request needs a JSON body");
        return NULL;
    }
    json_t *o = json_loadb(body, len, JSON_REJECT_DUPLICATES, &jerr);
    if (!o) {
        answer(r, 400, json_error("malformed JSON: %s", jerr.text));
        return NULL;
    }
    if (!json_is_object(o)) {
        refuse(r, 400, "the body must be a JSON object");
        json_decref(o);
        return NULL;
    }
    const char *key;
    json_t *v;
    json_object_foreach(o, key, v) {
        int known = 0;
        for (int i = 0; i < nf; i++)
            if (strcmp(key, f[i].name) == 0)
                known = 1;
        if (!known) {
            answer(r, 400, json_error("unknown field '%.40s'", key));
            json_decref(o);
            return NULL;
        }
    }
    for (int i = 0; i < nf; i++) {
        v = json_object_get(o, f[i].name);
        if (!v) {
            if (f[i].required) {
                answer(r, 400, json_error("missing field '%s'", f[i].name));
                json_decref(o);
                return NULL;
            }
            continue;
        }
        if (f[i].type == F_STR) {
            if (!json_is_string(v)) {
                answer(r, 400, json_error("'%s' must be a string", f[i].name));
                json_decref(o);
                return NULL;
            }
            if (json_string_length(v) > f[i].max) {
                answer(r, 400, json_error("'%s' is too long (at most %zu bytes)", f[i].name,
                                          f[i].max));
                json_decref(o);
                return NULL;
            }
        } else {
            if (!json_is_integer(v) || json_integer_value(v) < 0 ||
                json_integer_value(v) > (json_int_t)f[i].max) {
                answer(r, 400, json_error("'%s' must be an integer from 0 to %zu", f[i].name,
                                          f[i].max));
                json_decref(o);
                return NULL;
            }
        }
    }
    return o;
}

static const char *str_field(json_t *o, const char *name, const char *dflt)
{
    json_t *v = json_object_get(o, name);
    return v ? json_string_value(v) : dflt;
}

/* A player spec: "human" or one the search service knows. */
static int player_ok(const char *p)
{
    if (strcmp(p, "human") == 0)
        return 1;
    char name[32];
    int level = 0;
    return tav_player_parse(p, name, sizeof name, &level) == 0;
}

static void game_answer(reply *r, int status, game *g, int viewer)
{
    size_t len = 0;
    const char *json = game_json(g, viewer, &len);
    char *body = json ? malloc(len + 1) : NULL;
    if (body) {
        memcpy(body, json, len + 1);
        answer(r, status, body);
    } else {
        refuse(r, 500, "the game could not be written as JSON");
    }
}

/* The 201 answer to a new game. */
static void created(reply *r, const game *g, char tokens[2][48])
{
    json_t *seats = json_object();
    for (int side = 0; side < 2; side++)
        if (tokens[side][0])
            json_object_set_new(seats, side ? "black" : "white", json_string(tokens[side]));
    json_t *o = json_pack("{s:s,s:o}", "id", g->id, "seats", seats);
    char *body = json_dumps(o, JSON_COMPACT);
    json_decref(o);
    answer(r, 201, body);
}

static const field new_game_fields[] = {
    {"game", F_STR, 32, 1}, {"options", F_STR, 2048, 0},
    {"white", F_STR, SRV_PLAYER_MAX, 1}, {"black", F_STR, SRV_PLAYER_MAX, 1},
};

/* Register a new game for session s (taken over, freed on failure) and
 * answer 201 with its seat tokens, which are wiped afterwards. */
static void create_game(srv *S, tav_session *s, const char *const player[2], peer *by,
                        reply *r)
{
    char err[256], tokens[2][48];
    game *g = game_create(S, s, player, by, tokens, err, sizeof err);
    if (!g) {
        tav_session_free(s);
        refuse(r, 500, err);
        return;
    }
    created(r, g, tokens);
    sodium_memzero(tokens, sizeof tokens);
}

/* The limits on making a game from one address (docs/server-api.md
 * "Limits"): games an hour, and unfinished computer-only games at once.
 * 0, or the refusal answered. */
static int creation_allowed(srv *S, peer *by, const char *const player[2], reply *r)
{
    if (!peer_game_allowed(S, by)) {
        answer(r, 429, json_error("at most %d new games an hour per address",
                                  S->games_per_hour));
        return -1;
    }
    int cpu_only = strcmp(player[0], "human") != 0 && strcmp(player[1], "human") != 0;
    if (cpu_only && peer_limited(S, by) && by->cpu_games >= SRV_CPU_GAMES_PER_ADDR) {
        answer(r, 429, json_error("at most %d unfinished computer-only games at once per "
                                  "address", SRV_CPU_GAMES_PER_ADDR));
        return -1;
    }
    return 0;
}

/* The server keeps games short enough to replay at once: an option
 * maxplies=N above SRV_PLIES_MAX is refused.  0 or -1. */
static int plies_ok(const char *options)
{
    const char *p = options;
    while ((p = strstr(p, "maxplies="))) {
        if (p == options || p[-1] == ' ' || p[-1] == '\t') {
            char *end = NULL;
            long v = strtol(p + 9, &end, 10);
            if (end == p + 9 || v > SRV_PLIES_MAX || v < 0 || (end - (p + 9)) > 7)
                return -1;
        }
        p += 9;
    }
    return 0;
}

static void api_new_game(srv *S, peer *by, const char *body, size_t len, reply *r)
{
    json_t *o = parse_body(body, len, new_game_fields, 4, r);
    if (!o)
        return;
    const char *name = str_field(o, "game", "");
    const char *options = str_field(o, "options", "");
    const char *player[2] = {str_field(o, "white", ""), str_field(o, "black", "")};
    char err[256];
    tav_session *s = NULL;
    uint64_t seed;
    if (!tav_game_find(name)) {
        answer(r, 400, json_error("unknown game '%.32s'", name));
    } else if (!player_ok(player[0]) || !player_ok(player[1])) {
        refuse(r, 400, "a player is \"human\", \"random\", \"ai\" or \"ai:level=N\" (N 1..10)");
    } else if (plies_ok(options) != 0) {
        answer(r, 400, json_error("maxplies is at most %d on this server", SRV_PLIES_MAX));
    } else if (creation_allowed(S, by, player, r) == 0) {
        randombytes_buf(&seed, sizeof seed);
        if (tav_session_new(&s, name, options, seed, err, sizeof err) != TAV_OK) {
            answer(r, 400, json_error("%s", err));
        } else {
            create_game(S, s, player, by, r);
        }
    }
    json_decref(o);
}

static const field record_fields[] = {
    {"record", F_STR, SRV_RECORD_MAX, 1},
    {"white", F_STR, SRV_PLAYER_MAX, 1}, {"black", F_STR, SRV_PLAYER_MAX, 1},
};

static void api_new_from_record(srv *S, conn *c, peer *by, const char *body, size_t len,
                                reply *r)
{
    json_t *o = parse_body(body, len, record_fields, 3, r);
    if (!o)
        return;
    json_t *rec = json_object_get(o, "record");
    const char *player[2] = {str_field(o, "white", ""), str_field(o, "black", "")};
    char err[256];
    int status = 400;
    if (!player_ok(player[0]) || !player_ok(player[1])) {
        refuse(r, 400, "a player is \"human\", \"random\", \"ai\" or \"ai:level=N\" (N 1..10)");
    } else if (creation_allowed(S, by, player, r) == 0) {
        /* Parsing and replaying a record is long work: the record thread
         * does it, and api_record_done answers. */
        job *j = game_record_submit(S, c, by, json_string_value(rec), json_string_length(rec),
                                    player, &status, err, sizeof err);
        if (j)
            r->pending = j;
        else
            answer(r, status, json_error("%s", err));
    }
    json_decref(o);
}

void api_record_done(srv *S, job *j, reply *r)
{
    memset(r, 0, sizeof *r);
    if (!j->made) {
        answer(r, j->rstatus ? j->rstatus : 400, json_error("%s", j->err));
        return;
    }
    const char *player[2] = {j->player[0], j->player[1]};
    if (creation_allowed(S, j->by, player, r) != 0)
        return;
    tav_session *s = j->made;
    j->made = NULL;
    create_game(S, s, player, j->by, r);
}

static const field move_fields[] = {
    {"seat", F_STR, 64, 1}, {"move", F_STR, TAV_MOVE_TEXT - 1, 1}, {"ply", F_INT, 1000000, 1},
};

static void api_move(srv *S, game *g, const char *body, size_t len, reply *r)
{
    json_t *o = parse_body(body, len, move_fields, 3, r);
    if (!o)
        return;
    const char *text = str_field(o, "move", "");
    int ply = (int)json_integer_value(json_object_get(o, "ply"));
    int side = game_seat(g, str_field(o, "seat", ""));
    int now = tav_session_ply(g->s);
    char err[256];
    tav_result res;
    tav_session_result(g->s, &res);
    if (side < 0) {
        refuse(r, 403, "not a seat of this game");
    } else if (ply < now && ply >= 0) {
        /* A retry of a move already played answers as the first time. */
        if (strcmp(tav_session_move_text(g->s, ply), text) == 0 &&
            game_mover_at(g, ply) == side)
            game_answer(r, 200, g, side);
        else
            answer(r, 409, json_error("stale ply %d: %d moves were played", ply, now));
    } else if (ply > now) {
        answer(r, 409, json_error("stale ply %d: %d moves were played", ply, now));
    } else if (res.over) {
        refuse(r, 409, "the game is over");
    } else if (tav_session_to_move(g->s) != side) {
        refuse(r, 409, "it is not your turn");
    } else if (now >= SRV_PLIES_MAX) {
        answer(r, 409, json_error("a game on this server has at most %d moves", SRV_PLIES_MAX));
    } else {
        int st = game_commit_move(S, g, text, err, sizeof err);
        if (st == TAV_OK) {
            game_answer(r, 200, g, side);
            game_changed(S, g);
        } else if (st == TAV_E_NOMEM) {
            refuse(r, 503, err);
        } else {
            /* The session's message names the move and says why. */
            answer(r, 409, err[0] ? json_error("%s", err) : json_error("illegal move"));
        }
    }
    json_decref(o);
}

static const field seat_fields[] = {{"seat", F_STR, 64, 1}};
static const field undo_fields[] = {{"seat", F_STR, 64, 1}, {"ply", F_INT, 1000000, 1}};

static void api_resign(srv *S, game *g, const char *body, size_t len, reply *r)
{
    json_t *o = parse_body(body, len, seat_fields, 1, r);
    if (!o)
        return;
    int side = game_seat(g, str_field(o, "seat", ""));
    char err[256];
    if (side < 0) {
        refuse(r, 403, "not a seat of this game");
    } else {
        int rc = game_resign(S, g, side, err, sizeof err);
        if (rc == 0) {
            game_answer(r, 200, g, side);
            game_changed(S, g);
        } else {
            refuse(r, rc == -1 ? 409 : 503, err);
        }
    }
    json_decref(o);
}

static void api_undo(srv *S, game *g, const char *body, size_t len, reply *r)
{
    json_t *o = parse_body(body, len, undo_fields, 2, r);
    if (!o)
        return;
    int side = game_seat(g, str_field(o, "seat", ""));
    int ply = (int)json_integer_value(json_object_get(o, "ply"));
    char err[256];
    tav_result res;
    tav_session_result(g->s, &res);
    if (side < 0) {
        refuse(r, 403, "not a seat of this game");
    } else if (g->human[1 - side]) {
        refuse(r, 409, "moves are taken back only against a computer seat");
    } else if (ply != tav_session_ply(g->s)) {
        answer(r, 409, json_error("stale ply %d: %d moves were played", ply,
                                  tav_session_ply(g->s)));
    } else {
        int rc = game_undo(S, g, side, err, sizeof err);
        if (rc == 0) {
            game_answer(r, 200, g, side);
            game_changed(S, g);
        } else {
            refuse(r, rc == -1 ? 409 : 503, err);
        }
    }
    json_decref(o);
}

static void api_hint(srv *S, conn *c, peer *by, game *g, const char *body, size_t len,
                     reply *r)
{
    json_t *o = parse_body(body, len, seat_fields, 1, r);
    if (!o)
        return;
    int side = game_seat(g, str_field(o, "seat", ""));
    if (side < 0) {
        refuse(r, 403, "not a seat of this game");
    } else if (tav_session_to_move(g->s) != side) {
        refuse(r, 409, "it is not your turn");
    } else {
        char err[160];
        int status = 409;
        job *j = game_hint(S, g, c, by, &status, err, sizeof err);
        if (j)
            r->pending = j;
        else
            refuse(r, status, err);
    }
    json_decref(o);
}

void api_hint_done(srv *S, job *j, reply *r)
{
    (void)S;
    memset(r, 0, sizeof *r);
    if (j->answer.status == TAV_OK && tav_session_ply(j->g->s) == j->ply) {
        json_t *o = json_pack("{s:s,s:f}", "move", j->answer.best_text, "value",
                              j->answer.value);
        char *body = json_dumps(o, JSON_COMPACT);
        json_decref(o);
        answer(r, 200, body);
    } else {
        refuse(r, 409, "the position changed before a hint was found");
    }
}

/* The viewer a ?seat= token names: a side, TAV_SPECTATOR without one, -1 wrong. */
static int query_viewer(const game *g, const char *seat)
{
    if (!seat)
        return TAV_SPECTATOR;
    return game_seat(g, seat);
}

/* Game ids are 12 base64url characters. */
static int id_ok(const char *id, size_t n)
{
    if (n != SRV_ID_CHARS)
        return 0;
    for (size_t i = 0; i < n; i++) {
        char ch = id[i];
        if (!((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
              ch == '-' || ch == '_'))
            return 0;
    }
    return 1;
}

void api_handle(srv *S, conn *c, peer *by, const char *path, int method, const char *body,
                size_t blen, const char *query_seat, const char *query_ply, reply *r)
{
    memset(r, 0, sizeof *r);
    if (strcmp(path, "/api/meta") == 0) {
        if (method != 'G')
            refuse(r, 405, "use GET");
        else
            answer(r, 200, json_meta());
        return;
    }
    if (strcmp(path, "/api/games") == 0 || strcmp(path, "/api/games/") == 0) {
        if (method != 'P')
            refuse(r, 405, "use POST");
        else
            api_new_game(S, by, body, blen, r);
        return;
    }
    if (strcmp(path, "/api/records") == 0) {
        if (method != 'P')
            refuse(r, 405, "use POST");
        else
            api_new_from_record(S, c, by, body, blen, r);
        return;
    }
    if (strncmp(path, "/api/games/", 11) != 0) {
        refuse(r, 404, "no such request");
        return;
    }
    const char *id = path + 11;
    const char *slash = strchr(id, '/');
    size_t idlen = slash ? (size_t)(slash - id) : strlen(id);
    const char *action = slash ? slash + 1 : "";
    if (strchr(action, '/')) {
        refuse(r, 404, "no such request");
        return;
    }
    static const struct { const char *name; int method; } actions[] = {
        {"", 'G'}, {"moves", 'P'}, {"record", 'G'}, {"live", 'G'}, {"resign", 'P'},
        {"undo", 'P'}, {"hint", 'P'}, {"view", 'G'}, {"analysis", 'G'},
    };
    int a = -1;
    for (int i = 0; i < (int)(sizeof actions / sizeof actions[0]); i++)
        if (strcmp(action, actions[i].name) == 0)
            a = i;
    if (a < 0) {
        refuse(r, 404, "no such request");
        return;
    }
    if (method != actions[a].method) {
        refuse(r, 405, actions[a].method == 'G' ? "use GET" : "use POST");
        return;
    }
    char gid[SRV_ID_CHARS + 1];
    game *g = NULL;
    if (id_ok(id, idlen)) {
        memcpy(gid, id, idlen);
        gid[idlen] = 0;
        g = game_get(S, gid);
    }
    if (!g) {
        refuse(r, 404, "no such game");
        return;
    }
    const char *name = actions[a].name;
    if (method == 'P') {
        if (strcmp(name, "moves") == 0)
            api_move(S, g, body, blen, r);
        else if (strcmp(name, "resign") == 0)
            api_resign(S, g, body, blen, r);
        else if (strcmp(name, "undo") == 0)
            api_undo(S, g, body, blen, r);
        else
            api_hint(S, c, by, g, body, blen, r);
        return;
    }
    int viewer = query_viewer(g, query_seat);
    if (viewer < 0) {
        refuse(r, 403, "not a seat of this game");
        return;
    }
    if (name[0] == 0) {
        game_answer(r, 200, g, viewer);
    } else if (strcmp(name, "record") == 0) {
        char *text = tav_session_record(g->s, viewer, g->player[0], g->player[1]);
        if (!text) {
            refuse(r, 500, "the record could not be written");
            return;
        }
        r->status = 200;
        r->body = text;
        r->ctype = "text/plain; charset=utf-8";
    } else if (strcmp(name, "live") == 0) {
        refuse(r, 400, "this address is a WebSocket");
    } else if (strcmp(name, "view") == 0) {
        char *end = NULL;
        long ply = query_ply ? strtol(query_ply, &end, 10) : tav_session_ply(g->s);
        if (query_ply && (end == query_ply || *end || ply < 0 || ply > tav_session_ply(g->s))) {
            answer(r, 400, json_error("ply must be a number from 0 to %d",
                                      tav_session_ply(g->s)));
            return;
        }
        char *v = json_view(g->s, (int)ply, viewer);
        if (v)
            answer(r, 200, v);
        else
            refuse(r, 500, "no view");
    } else if (strcmp(name, "analysis") == 0) {
        tav_result res;
        tav_session_result(g->s, &res);
        if (res.over)
            game_analyse(S, g);
        char *text = json_analysis(g);
        if (text)
            answer(r, 200, text);
        else
            refuse(r, 500, "the analysis could not be written as JSON");
    }
}
