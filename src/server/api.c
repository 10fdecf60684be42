/*
 * api.c — the requests of docs/server-api.md, one handler each.
 *
 * Every body is parsed and checked completely (types, lengths, no unknown
 * fields) before a game is touched; every refusal is a 4xx with
 * {"error": ...} and changes nothing.  Handlers decode the request, hand
 * it to the core (server/core/core.h), and answer through a reply (status,
 * body); a hint or a record answers later, when the core is done with it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <jansson.h>
#include <sodium.h>

#include "server/srv.h"

enum { F_STR, F_INT, F_BOOL, F_OBJ };

typedef struct field {
    const char *name;
    int type;
    size_t max;          /* strings: longest length; ints: largest value */
    int required;
} field;

/* Refused unless the method is `want` (and, with `signed_in`, someone is
 * signed in): 1 when refused. */
static int refused(reply *r, int method, int want, const char *account, int signed_in)
{
    if (method != want)
        reply_refuse(r, 405, want == 'G' ? "use GET" : want == 'P' ? "use POST" : "use DELETE");
    else if (signed_in && !account[0])
        reply_refuse(r, 401, "not signed in");
    else
        return 0;
    return 1;
}

/* Parse a body as a JSON object holding exactly the fields described. */
static json_t *parse_body(const char *body, size_t len, const field *f, int nf, reply *r)
{
    json_error_t jerr;
    if (len == 0) {
        reply_refuse(r, 400, "the request needs a JSON body");
        return NULL;
    }
    json_t *o = json_loadb(body, len, JSON_REJECT_DUPLICATES, &jerr);
    if (!o) {
        reply_text(r, 400, json_error("malformed JSON: %s", jerr.text));
        return NULL;
    }
    if (!json_is_object(o)) {
        reply_refuse(r, 400, "the body must be a JSON object");
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
            reply_text(r, 400, json_error("unknown field '%.40s'", key));
            json_decref(o);
            return NULL;
        }
    }
    for (int i = 0; i < nf; i++) {
        v = json_object_get(o, f[i].name);
        if (!v) {
            if (f[i].required) {
                reply_text(r, 400, json_error("missing field '%s'", f[i].name));
                json_decref(o);
                return NULL;
            }
            continue;
        }
        if (f[i].type == F_STR) {
            if (!json_is_string(v)) {
                reply_text(r, 400, json_error("'%s' must be a string", f[i].name));
                json_decref(o);
                return NULL;
            }
            if (json_string_length(v) > f[i].max) {
                reply_text(r, 400, json_error("'%s' is too long (at most %zu bytes)", f[i].name,
                                          f[i].max));
                json_decref(o);
                return NULL;
            }
        } else if (f[i].type == F_OBJ) {
            if (!json_is_object(v) && !json_is_null(v)) {
                reply_text(r, 400, json_error("'%s' must be an object", f[i].name));
                json_decref(o);
                return NULL;
            }
        } else if (f[i].type == F_BOOL) {
            if (!json_is_boolean(v)) {
                reply_text(r, 400, json_error("'%s' must be true or false", f[i].name));
                json_decref(o);
                return NULL;
            }
        } else {
            if (!json_is_integer(v) || json_integer_value(v) < 0 ||
                json_integer_value(v) > (json_int_t)f[i].max) {
                reply_text(r, 400, json_error("'%s' must be an integer from 0 to %zu", f[i].name,
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

static void game_answer(srv *S, reply *r, int status, game *g, int viewer)
{
    size_t len = 0;
    char *body = json_game_copy(S->C, g, viewer, &len);
    if (body) {
        reply_text(r, status, body);
    } else {
        reply_refuse(r, 500, "the game could not be written as JSON");
    }
}

/* The answer to a new game: 201 with its seat tokens, or the refusal. */
static void made(reply *r, core_made *m)
{
    if (m->status != CORE_CREATED) {
        reply_text(r, api_http_status(m->status), json_error("%s", m->err));
        return;
    }
    json_t *seats = json_object();
    for (int side = 0; side < 2; side++)
        if (m->tokens[side][0])
            json_object_set_new(seats, side ? "black" : "white", json_string(m->tokens[side]));
    json_t *o = json_pack("{s:s,s:o}", "id", core_game_id(m->g), "seats", seats);
    char *body = json_dumps(o, JSON_COMPACT);
    json_decref(o);
    reply_text(r, 201, body);
}

static const field new_game_fields[] = {
    {"game", F_STR, 32, 1}, {"options", F_STR, 2048, 0},
    {"white", F_STR, CORE_PLAYER_MAX, 1}, {"black", F_STR, CORE_PLAYER_MAX, 1},
    {"local", F_BOOL, 0, 0}, {"rated", F_BOOL, 0, 0}, {"clock", F_OBJ, 0, 0},
};

static int seek_clock(json_t *clock, store_seek *k, reply *r);

static void api_new_game(srv *S, const asker *who, const char *body, size_t len, reply *r)
{
    json_t *o = parse_body(body, len, new_game_fields, 7, r);
    if (!o)
        return;
    const char *player[2] = {str_field(o, "white", ""), str_field(o, "black", "")};
    core_made m;
    int rated = json_is_true(json_object_get(o, "rated"));
    json_t *clock = json_object_get(o, "clock");
    if (clock && !json_is_null(clock) && !rated) {
        reply_refuse(r, 400, "a clock is for rated games against the computer (and the lobby's)");
        json_decref(o);
        return;
    }
    store_seek k;
    memset(&k, 0, sizeof k);
    if (rated && seek_clock(clock, &k, r) != 0) {
        json_decref(o);
        return;
    }
    if (rated)   /* extension: rated, against a level, on a clock */
        core_create_rated(S->C, who->by, str_field(o, "game", ""), str_field(o, "options", ""),
                          player, who->account, &k, &m);
    else
        core_create(S->C, who->by, str_field(o, "game", ""), str_field(o, "options", ""), player,
                    json_is_true(json_object_get(o, "local")), &m);
    made(r, &m);
    sodium_memzero(m.tokens, sizeof m.tokens);
    json_decref(o);
}

static const field record_fields[] = {
    {"record", F_STR, SRV_RECORD_MAX, 1},
    {"white", F_STR, CORE_PLAYER_MAX, 1}, {"black", F_STR, CORE_PLAYER_MAX, 1},
};

/* Parsing and replaying a record is long work: the core's record thread
 * does it, and api_record_done answers. */
static void api_new_from_record(srv *S, conn *c, peer *by, const char *body, size_t len,
                                reply *r)
{
    json_t *o = parse_body(body, len, record_fields, 3, r);
    if (!o)
        return;
    json_t *rec = json_object_get(o, "record");
    const char *player[2] = {str_field(o, "white", ""), str_field(o, "black", "")};
    core_made m;
    job *j = NULL;
    if (core_record(S->C, by, c, json_string_value(rec), json_string_length(rec), player, &j,
                    &m) == CORE_PENDING)
        r->pending = j;
    else
        made(r, &m);
    json_decref(o);
}

void api_record_done(srv *S, core_made *m, reply *r)
{
    (void)S;
    memset(r, 0, sizeof *r);
    made(r, m);
}

/* The answer to a seat's action: the game as that seat sees it, or the refusal. */
static void acted(srv *S, reply *r, game *g, const core_cred *cred, core_status st,
                  const char *err)
{
    if (st == CORE_OK)
        game_answer(S, r, 200, g, core_side_of(g, cred));
    else
        reply_text(r, api_http_status(st), json_error("%s", err));
}

static const field move_fields[] = {
    {"seat", F_STR, 64, 0}, {"move", F_STR, TAV_MOVE_TEXT - 1, 1}, {"ply", F_INT, 1000000, 1},
};

/* The seat a body names ("seat"), or else the signed-in account (games
 * between accounts: SPEC, the session cookie is the seat). */
static core_cred cred_of(json_t *o, const asker *who)
{
    json_t *v = json_object_get(o, "seat");
    core_cred c = {v ? json_string_value(v) : NULL, v ? NULL : who->account};
    return c;
}

/* A seat's request body, parsed and checked, and who acts (its "seat", or
 * the signed-in account): NULL when refused (a body without "seat" from
 * someone not signed in is 400, as before accounts).  empty_ok: no body at
 * all stands for {}. */
static json_t *seat_body(const char *body, size_t len, const field *f, int nf, const asker *who,
                         int empty_ok, core_cred *cred, reply *r)
{
    json_t *o = empty_ok && len == 0 ? json_object() : parse_body(body, len, f, nf, r);
    if (!o)
        return NULL;
    *cred = cred_of(o, who);
    if (cred->token || (cred->account && cred->account[0]))
        return o;
    reply_text(r, 400, json_error("missing field 'seat'"));
    json_decref(o);
    return NULL;
}

static void api_move(srv *S, const asker *who, game *g, const char *body, size_t len, reply *r)
{
    core_cred cred;
    json_t *o = seat_body(body, len, move_fields, 3, who, 0, &cred, r);
    if (!o)
        return;
    char err[320];
    core_status st = core_move(S->C, g, &cred, str_field(o, "move", ""),
                               (int)json_integer_value(json_object_get(o, "ply")), err, sizeof err);
    r->again = st == CORE_AGAIN;
    acted(S, r, g, &cred, st, err);
    json_decref(o);
}

static const field seat_fields[] = {{"seat", F_STR, 64, 0}};
static const field undo_fields[] = {{"seat", F_STR, 64, 0}, {"ply", F_INT, 1000000, 1}};

static void api_resign(srv *S, const asker *who, game *g, const char *body, size_t len, reply *r)
{
    core_cred cred;
    json_t *o = seat_body(body, len, seat_fields, 1, who, 0, &cred, r);
    if (!o)
        return;
    char err[320];
    acted(S, r, g, &cred, core_resign(S->C, g, &cred, err, sizeof err), err);
    json_decref(o);
}

/* A rematch: 201 {"id": NEW, "seat": SIDE}, the side the same token holds
 * in the new game (200 when it was made already). */
static void api_rematch(srv *S, const asker *who, game *g, const char *body, size_t len,
                        reply *r)
{
    core_cred cred;
    json_t *o = seat_body(body, len, seat_fields, 1, who, 0, &cred, r);
    if (!o)
        return;
    core_made m;
    core_status st = core_rematch(S->C, g, &cred, who->by, &m);
    if (st == CORE_OFFERED) {
        /* Between two accounts: offered, nothing made yet (SPEC). */
        reply_json(r, 202, json_pack("{s:b}", "offered", 1));
    } else if (st == CORE_OK || st == CORE_CREATED) {
        int side = core_side_of(m.g, &cred);
        json_t *a = json_pack("{s:s,s:s}", "id", core_game_id(m.g), "seat",
                              side == TAV_WHITE ? "white" : "black");
        reply_json(r, st == CORE_CREATED ? 201 : 200, a);
    } else {
        reply_text(r, api_http_status(st), json_error("%s", m.err));
    }
    json_decref(o);
}

static void api_abort(srv *S, const asker *who, game *g, const char *body, size_t len, reply *r)
{
    core_cred cred;
    json_t *o = seat_body(body, len, seat_fields, 1, who, 1, &cred, r);
    if (!o)
        return;
    char err[320];
    acted(S, r, g, &cred, core_abort(S->C, g, &cred, err, sizeof err), err);
    json_decref(o);
}

static const field offer_fields[] = {
    {"seat", F_STR, 64, 0}, {"kind", F_STR, 16, 1}, {"act", F_STR, 16, 1},
};

static void api_offer(srv *S, const asker *who, game *g, const char *body, size_t len, reply *r)
{
    core_cred cred;
    json_t *o = seat_body(body, len, offer_fields, 3, who, 0, &cred, r);
    if (!o)
        return;
    char err[320];
    acted(S, r, g, &cred,
          core_offer(S->C, g, &cred, str_field(o, "kind", ""), str_field(o, "act", ""), err,
                     sizeof err),
          err);
    json_decref(o);
}

static const field claim_fields[] = {{"seat", F_STR, 64, 0}, {"result", F_STR, 8, 1}};

/* The opponent left (SPEC "Consent and fair endings"): the win or a draw. */
static void api_claim(srv *S, const asker *who, game *g, const char *body, size_t len, reply *r)
{
    core_cred cred;
    json_t *o = seat_body(body, len, claim_fields, 2, who, 0, &cred, r);
    if (!o)
        return;
    char err[320];
    acted(S, r, g, &cred, core_claim(S->C, g, &cred, str_field(o, "result", ""), err, sizeof err),
          err);
    json_decref(o);
}

static void api_undo(srv *S, const asker *who, game *g, const char *body, size_t len, reply *r)
{
    core_cred cred;
    json_t *o = seat_body(body, len, undo_fields, 2, who, 0, &cred, r);
    if (!o)
        return;
    char err[320];
    core_status st = core_undo(S->C, g, &cred, (int)json_integer_value(json_object_get(o, "ply")),
                               err, sizeof err);
    acted(S, r, g, &cred, st, err);
    json_decref(o);
}

static void api_hint(srv *S, conn *c, const asker *who, game *g, const char *body, size_t len,
                     reply *r)
{
    core_cred cred;
    json_t *o = seat_body(body, len, seat_fields, 1, who, 0, &cred, r);
    if (!o)
        return;
    char err[320];
    job *j = NULL;
    core_status st = core_hint(S->C, g, &cred, who->by, c, &j, err, sizeof err);
    if (st == CORE_PENDING)
        r->pending = j;
    else
        reply_text(r, api_http_status(st), json_error("%s", err));
    json_decref(o);
}

void api_hint_done(srv *S, const core_answer *h, reply *r)
{
    (void)S;
    memset(r, 0, sizeof *r);
    if (h->status == CORE_OK) {
        json_t *o = json_pack("{s:s,s:f}", "move", h->move, "value", h->value);
        char *body = json_dumps(o, JSON_COMPACT);
        json_decref(o);
        reply_text(r, 200, body);
    } else {
        reply_text(r, api_http_status(h->status), json_error("%s", h->err));
    }
}

/* The viewer a ?seat= token names: a side, TAV_SPECTATOR without one, -1 wrong. */
static int query_viewer(const game *g, const char *seat, const asker *who)
{
    if (!seat) {
        /* A signed-in player sees their own game as their side. */
        core_cred cred = {NULL, who->account};
        int side = core_side_of(g, &cred);
        return side >= 0 ? side : TAV_SPECTATOR;
    }
    return core_seat(g, seat);
}

/* ---- accounts (SPEC "Accounts") ---- */

static const field account_fields[] = {
    {"name", F_STR, 64, 1}, {"password", F_STR, CORE_PASSWORD_MAX + 64, 1},
};

static const field lang_fields[] = {{"lang", F_STR, 8, 1}};

/* The session cookie: HttpOnly, SameSite=Lax, Path=/ (Secure over TLS). */
static void set_session_cookie(reply *r, const char *token, int secure)
{
    snprintf(r->set_cookie, sizeof r->set_cookie,
             "%s=%s; Path=/; HttpOnly; SameSite=Lax; Max-Age=%d%s", SRV_COOKIE, token,
             token[0] ? CORE_SESSION_SECS : 0, secure ? "; Secure" : "");
}

static void api_signup(srv *S, conn *c, const asker *who, const char *body, size_t len, int login,
                       reply *r)
{
    json_t *o = parse_body(body, len, account_fields, 2, r);
    if (!o)
        return;
    char err[256] = "";
    job *j = NULL;
    const char *name = str_field(o, "name", ""), *pw = str_field(o, "password", "");
    core_status st = login ? core_login(S->C, who->by, c, name, pw, who->ua, &j, err, sizeof err)
                           : core_signup(S->C, who->by, c, name, pw, who->ua, &j, err, sizeof err);
    if (st == CORE_PENDING)
        r->pending = j;
    else
        reply_text(r, st == CORE_FORBIDDEN ? 401 : api_http_status(st), json_error("%s", err));
    json_decref(o);
}

void api_account_done(srv *S, core_signed *sg, int secure, reply *r)
{
    (void)S;
    memset(r, 0, sizeof *r);
    if (sg->status == CORE_OK && sg->closed) {   /* the account closed: signed out */
        reply_text(r, 200, strdup("{\"closed\":true}"));
        set_session_cookie(r, "", secure);
    } else if (sg->banned) {
        reply_text(r, 403, json_error("%s", sg->err));
    } else if (sg->status == CORE_OK || sg->status == CORE_CREATED) {
        json_t *a = json_pack("{s:s}", "name", sg->name);
        reply_json(r, sg->status == CORE_CREATED ? 201 : 200, a);
        set_session_cookie(r, sg->token, secure);
    } else {
        reply_text(r, sg->status == CORE_FORBIDDEN ? 401 : api_http_status(sg->status),
               json_error("%s", sg->err));
    }
}

static const field password_fields[] = {
    {"old", F_STR, CORE_PASSWORD_MAX + 64, 1}, {"new", F_STR, CORE_PASSWORD_MAX + 64, 1},
};

static void api_password(srv *S, conn *c, const asker *who, const char *body, size_t len,
                         reply *r)
{
    json_t *o = parse_body(body, len, password_fields, 2, r);
    if (!o)
        return;
    char err[256] = "";
    job *j = NULL;
    core_status st = core_password(S->C, who->account, who->by, c, str_field(o, "old", ""),
                                   str_field(o, "new", ""), who->ua, &j, err, sizeof err);
    if (st == CORE_PENDING)
        r->pending = j;
    else
        reply_text(r, api_http_status(st), json_error("%s", err));
    json_decref(o);
}

static int add_rating(void *ctx, const char *gname, const store_rating *sr)
{
    json_t *ratings = ctx;
    json_object_set_new(ratings, gname,
                        json_pack("{s:f,s:f,s:i,s:b}", "rating", sr->rating, "rd", sr->rd,
                                  "games", sr->games, "provisional",
                                  core_rating_provisional(sr)));
    return 0;
}

/* {"name": N, "ratings": {...}}: the account's ratings per game played rated. */
static json_t *player_json(srv *S, const char *name)
{
    json_t *ratings = json_object();
    core_ratings_each(S->C, name, add_rating, ratings);
    json_t *p = json_pack("{s:s,s:o}", "name", name, "ratings", ratings);
    if (core_is_bot(S->C, name))   /* SPEC "Bots" */
        json_object_set_new(p, "bot", json_true());
    int64_t closed = 0;
    int banned = 0;
    if (core_account_state(S->C, name, &closed, &banned) && closed)
        json_object_set_new(p, "closed", json_true());   /* SPEC "Closing an account" */
    return p;
}

static void add_session(void *ctx, const core_signin_info *s)
{
    char device[64];
    core_device(s->ua, device, sizeof device);
    json_array_append_new(ctx, json_pack("{s:s,s:I,s:I,s:I,s:s,s:b}", "id", s->id, "created",
                                         (json_int_t)s->created, "expires", (json_int_t)s->expires,
                                         "lastUsed", (json_int_t)s->last_used, "device", device,
                                         "current", s->current));
}

/* The account routes: 1 when `path` was one of them. */
int api_account_routes(srv *S, conn *c, const asker *who, const char *path, int method,
                          const char *body, size_t blen, reply *r)
{
    int signup = strcmp(path, "/api/account") == 0, login = strcmp(path, "/api/login") == 0;
    if (signup || login) {
        if (method != 'P')
            reply_refuse(r, 405, "use POST");
        else
            api_signup(S, c, who, body, blen, login, r);
        return 1;
    }
    if (strcmp(path, "/api/logout") == 0) {
        if (method != 'P') {
            reply_refuse(r, 405, "use POST");
            return 1;
        }
        if (who->token && who->account[0] && core_logout(S->C, who->token) != CORE_OK) {
            reply_refuse(r, 503, "the session could not be ended");
            return 1;
        }
        reply_text(r, 200, strdup("{}"));
        set_session_cookie(r, "", who->secure);
        return 1;
    }
    if (strcmp(path, "/api/me") == 0) {
        if (!refused(r, method, 'G', who->account, 1)) {
            json_t *me = player_json(S, who->account);
            char lang[4];
            core_account_lang(S->C, who->account, lang);
            json_object_set_new(me, "lang", lang[0] ? json_string(lang) : json_null());
            reply_json(r, 200, me);
        }
        return 1;
    }
    if (strcmp(path, "/api/me/lang") == 0) {   /* SPEC "Languages" */
        if (!refused(r, method, 'P', who->account, 1)) {
            json_t *o = parse_body(body, blen, lang_fields, 1, r);
            if (o) {
                core_status st = core_set_lang(S->C, who->account, str_field(o, "lang", ""));
                if (st == CORE_OK)
                    reply_text(r, 200, strdup("{}"));
                else if (st == CORE_BAD)
                    reply_refuse(r, 400, "lang is \"it\" or \"en\"");
                else
                    reply_refuse(r, api_http_status(st), "the language could not be kept");
                json_decref(o);
            }
        }
        return 1;
    }
    if (strcmp(path, "/api/sessions") == 0) {
        if (!refused(r, method, 'G', who->account, 1)) {
            json_t *list = json_array();
            core_signins_each(S->C, who->account, who->token, add_session, list);
            reply_json(r, 200, list);
        }
        return 1;
    }
    if (strncmp(path, "/api/sessions/", 14) == 0) {
        if (!refused(r, method, 'D', who->account, 1)) {
            core_status st = core_signin_end(S->C, who->account, path + 14);
            if (st == CORE_OK)
                reply_text(r, 200, strdup("{}"));
            else
                reply_refuse(r, api_http_status(st), st == CORE_NOTFOUND ? "no such session of yours"
                                                                   : "the session could not be ended");
        }
        return 1;
    }
    if (strcmp(path, "/api/password") == 0) {
        if (!refused(r, method, 'P', who->account, 1))
            api_password(S, c, who, body, blen, r);
        return 1;
    }
    return 0;
}

/* ---- the lobby (SPEC "The lobby") ---- */

static const field seek_fields[] = {
    {"game", F_STR, 32, 1}, {"options", F_STR, 480, 0}, {"rated", F_BOOL, 0, 0},
    {"colour", F_STR, 8, 0}, {"clock", F_OBJ, 0, 0}, {"to", F_STR, 64, 0},
};

/* A seek's clock: {"initial": S, "increment": S} or {"days": D}; 0 when valid. */
static int seek_clock(json_t *clock, store_seek *k, reply *r)
{
    if (!clock || json_is_null(clock))
        return 0;
    const char *key;
    json_t *v;
    json_object_foreach(clock, key, v) {
        int ok = json_is_integer(v) && json_integer_value(v) >= 0 &&
                 json_integer_value(v) <= 1000000;
        if (!ok || (strcmp(key, "initial") && strcmp(key, "increment") && strcmp(key, "days"))) {
            reply_refuse(r, 400, "a clock is {\"initial\": S, \"increment\": S} or {\"days\": D}");
            return -1;
        }
        if (strcmp(key, "initial") == 0)
            k->initial = json_integer_value(v);
        else if (strcmp(key, "increment") == 0)
            k->increment = json_integer_value(v);
        else
            k->days = json_integer_value(v);
    }
    return 0;
}

static json_t *clock_json(const store_seek *k)
{
    if (k->days)
        return json_pack("{s:I}", "days", (json_int_t)k->days);
    if (k->initial || k->increment)
        return json_pack("{s:I,s:I}", "initial", (json_int_t)k->initial, "increment",
                         (json_int_t)k->increment);
    return json_null();
}

static void add_seek_json(void *ctx, const store_seek *k, double rating, int provisional)
{
    json_t *list = ctx;
    static const char *const colours[3] = {"white", "black", "random"};
    json_t *o = json_pack("{s:s,s:s,s:s,s:b,s:s,s:o,s:s,s:i}", "id", k->id, "game", k->game,
                          "options", k->options, "rated", k->rated, "colour",
                          colours[k->colour < 0 || k->colour > 2 ? 2 : k->colour], "clock",
                          clock_json(k), "by", k->by, "rating", (int)(rating + 0.5));
    if (k->to[0])
        json_object_set_new(o, "to", json_string(k->to));   /* extension: a challenge */
    /* Extension: the maker's rating is provisional (shown "1500?" as elsewhere). */
    json_object_set_new(o, "provisional", json_boolean(provisional));
    json_array_append_new(list, o);
}

char *api_seeks_json(srv *S, const char *viewer)
{
    json_t *list = json_array();
    core_seeks_each(S->C, viewer, add_seek_json, list);
    char *text = json_dumps(list, JSON_COMPACT);
    json_decref(list);
    return text;
}

static void api_new_seek(srv *S, const asker *who, const char *body, size_t len, reply *r)
{
    if (!who->account[0]) {
        reply_refuse(r, 401, "sign in to offer a game");
        return;
    }
    json_t *o = parse_body(body, len, seek_fields, 6, r);
    if (!o)
        return;
    store_seek k;
    memset(&k, 0, sizeof k);
    snprintf(k.game, sizeof k.game, "%s", str_field(o, "game", ""));
    snprintf(k.options, sizeof k.options, "%s", str_field(o, "options", ""));
    snprintf(k.to, sizeof k.to, "%s", str_field(o, "to", ""));
    if (json_object_get(o, "to") && !core_name_ok(k.to)) {
        reply_refuse(r, 400, "\"to\" is the name of the player challenged");
        json_decref(o);
        return;
    }
    json_t *rated = json_object_get(o, "rated");
    k.rated = rated && json_is_true(rated);
    const char *colour = str_field(o, "colour", "random");
    k.colour = strcmp(colour, "white") == 0 ? 0 : strcmp(colour, "black") == 0 ? 1 : 2;
    if (strcmp(colour, "white") && strcmp(colour, "black") && strcmp(colour, "random")) {
        reply_refuse(r, 400, "colour is \"white\", \"black\" or \"random\"");
        json_decref(o);
        return;
    }
    if (seek_clock(json_object_get(o, "clock"), &k, r) != 0) {
        json_decref(o);
        return;
    }
    char id[STORE_ID_LEN], err[320];
    core_status st = core_seek(S->C, who->account, &k, id, err, sizeof err);
    if (st == CORE_CREATED) {
        json_t *a = json_pack("{s:s}", "id", id);
        reply_json(r, 201, a);
    } else {
        reply_text(r, api_http_status(st), json_error("%s", err));
    }
    json_decref(o);
}

int api_seek_routes(srv *S, const asker *who, const char *path, int method, const char *body,
                       size_t blen, reply *r)
{
    if (strcmp(path, "/api/seeks") == 0) {
        if (method == 'G')
            reply_text(r, 200, api_seeks_json(S, who->account));
        else if (method == 'P')
            api_new_seek(S, who, body, blen, r);
        else
            reply_refuse(r, 405, "use GET or POST");
        return 1;
    }
    if (strncmp(path, "/api/seeks/", 11) != 0)
        return 0;
    const char *id = path + 11;
    const char *slash = strchr(id, '/');
    size_t idlen = slash ? (size_t)(slash - id) : strlen(id);
    char sid[STORE_ID_LEN];
    if (!core_id_ok(id, idlen)) {
        reply_refuse(r, 404, "no such seek");
        return 1;
    }
    memcpy(sid, id, idlen);
    sid[idlen] = 0;
    char err[320];
    if (slash && strcmp(slash, "/accept") == 0) {
        if (method != 'P') {
            reply_refuse(r, 405, "use POST");
            return 1;
        }
        if (!who->account[0]) {
            reply_refuse(r, 401, "sign in to accept a seek");
            return 1;
        }
        char gid[STORE_ID_LEN];
        core_status st = core_accept(S->C, who->account, sid, gid, err, sizeof err);
        if (st == CORE_CREATED) {
            json_t *a = json_pack("{s:s}", "game", gid);
            reply_json(r, 201, a);
            snprintf(r->seek, sizeof r->seek, "%s", sid);
        } else {
            reply_text(r, api_http_status(st), json_error("%s", err));
        }
        return 1;
    }
    if (slash) {
        reply_refuse(r, 404, "no such request");
        return 1;
    }
    if (method != 'D') {
        reply_refuse(r, 405, "use DELETE");
        return 1;
    }
    core_status st = core_unseek(S->C, who->account, sid, err, sizeof err);
    reply_text(r, api_http_status(st), st == CORE_OK ? strdup("{}") : json_error("%s", err));
    return 1;
}

/* ---- players (SPEC "Ratings") ---- */

typedef struct pgames {
    const char *name;
    json_t *list;
} pgames;

static int add_pgame(void *ctx, const store_player_game *g)
{
    pgames *p = ctx;
    json_t *o = json_pack("{s:s,s:s,s:s,s:s,s:s,s:s,s:b,s:I}", "id", g->id, "game", g->game,
                          "white", g->white, "black", g->black, "winner",
                          g->winner[0] ? g->winner : "none", "end", g->end[0] ? g->end : "",
                          "rated", g->rated, "created", (json_int_t)g->created);
    /* Extension: the player's rating after a rated game (its history). */
    int side = strcasecmp(g->white, p->name) == 0 ? 0 : 1;
    if (g->rated && g->rating_after[side] > 0)
        json_object_set_new(o, "ratingAfter", json_real(g->rating_after[side]));
    json_array_append_new(p->list, o);
    return 0;
}

static void api_player(srv *S, const char *path, reply *r)
{
    char name[STORE_NAME_LEN];
    if (!core_player(S->C, path + 13, name)) {
        reply_refuse(r, 404, "no such player");
        return;
    }
    json_t *p = player_json(S, name);
    pgames pg = {name, json_array()};
    core_player_games(S->C, name, CORE_PLAYER_GAMES, add_pgame, &pg);
    json_object_set_new(p, "games", pg.list);
    reply_json(r, 200, p);
}

static int add_leader(void *ctx, const char *name, const store_rating *sr)
{
    json_array_append_new(ctx, json_pack("{s:s,s:f,s:f,s:i,s:b}", "name", name, "rating",
                                         sr->rating, "rd", sr->rd, "games", sr->games,
                                         "provisional", core_rating_provisional(sr)));
    if (sr->bot)   /* SPEC "Bots": marked, ranked among people (docs/bots.md) */
        json_object_set_new(json_array_get(ctx, json_array_size(ctx) - 1), "bot", json_true());
    return 0;
}

typedef struct mine_list {
    srv *S;
    const char *name;
    json_t *yours, *theirs;
} mine_list;

static void add_mine(void *ctx, game *g)
{
    mine_list *m = ctx;
    core_cred cred = {NULL, m->name};
    int side = core_side_of(g, &cred);
    int tomove = tav_session_to_move(core_game_session(g));
    core_facts f;
    core_game_facts(g, &f);
    int64_t left[2] = {0, 0}, deadline = 0;
    int kind = core_clock(g, core_game_ms(m->S->C), left, &deadline);
    json_t *clock = kind == 1   ? json_pack("{s:I,s:I}", "white", (json_int_t)left[0], "black",
                                            (json_int_t)left[1])
                    : kind == 2 ? json_pack("{s:I}", "deadline", (json_int_t)deadline)
                                : json_null();
    json_t *o = json_pack("{s:s,s:s,s:s?,s:s?,s:s,s:i,s:b,s:o}", "id", core_game_id(g), "game",
                          tav_session_game(core_game_session(g))->name, "white",
                          f.account[0][0] ? f.account[0] : NULL, "black",
                          f.account[1][0] ? f.account[1] : NULL, "tomove",
                          tomove == TAV_WHITE ? "white" : tomove == TAV_BLACK ? "black" : "none",
                          "ply", tav_session_ply(core_game_session(g)), "yourTurn", side >= 0 && side == tomove,
                          "clock", clock);
    json_array_append_new(side >= 0 && side == tomove ? m->yours : m->theirs, o);
}

static void add_playing(void *ctx, game *g);

/* Serialize and free. */
static char *dump_free(json_t *o)
{
    if (!o)
        return NULL;
    char *text = json_dumps(o, JSON_COMPACT);
    json_decref(o);
    return text;
}

/* The player's channel (the lobby socket of a signed-in page): one of the
 * account's games as /api/me/games lists it, or {"id", "over": true} once
 * it ended; a rematch offered to the account in a finished one. */
char *api_mygame_text(srv *S, game *g, const char *account)
{
    json_t *o;
    if (!core_over(g)) {
        mine_list m = {S, account, json_array(), json_array()};
        add_mine(&m, g);
        json_array_extend(m.yours, m.theirs);
        json_decref(m.theirs);
        o = json_pack("{s:s,s:O}", "type", "mygame", "game", json_array_get(m.yours, 0));
        json_decref(m.yours);
    } else {
        o = json_pack("{s:s,s:{s:s,s:s,s:b}}", "type", "mygame", "game", "id", core_game_id(g), "game",
                      tav_session_game(core_game_session(g))->name, "over", 1);
    }
    return dump_free(o);
}

char *api_rematch_text(srv *S, game *g, const char *by)
{
    (void)S;
    return dump_free(json_pack("{s:s,s:s,s:s,s:s}", "type", "rematch", "game", core_game_id(g), "name",
                          tav_session_game(core_game_session(g))->name, "by", by));
}

/* {"type": "now", "playing": [...], "online": {...}}: the lobby's lists of
 * the games between accounts being played and who is online (as GET
 * /api/playing and GET /api/online answer). */
char *api_now_text(srv *S)
{
    json_t *list = json_array();
    core_playing(S->C, 100, add_playing, list);
    return dump_free(json_pack("{s:s,s:o,s:o}", "type", "now", "playing", list, "online",
                               json_online(S, 100)));
}

/* {"type": "mine", "games": [...]}: the account's unfinished games, those
 * where it is their turn first (as GET /api/me/games). */
char *api_mine_text(srv *S, const char *account)
{
    mine_list m = {S, account, json_array(), json_array()};
    core_my_games(S->C, account, add_mine, &m);
    json_array_extend(m.yours, m.theirs);
    json_decref(m.theirs);
    return dump_free(json_pack("{s:s,s:o}", "type", "mine", "games", m.yours));
}

static void add_playing(void *ctx, game *g)
{
    core_facts f;
    core_game_facts(g, &f);
    json_array_append_new(ctx, json_pack("{s:s,s:s,s:s,s:s,s:i,s:b,s:s}", "id", core_game_id(g), "game",
                                         tav_session_game(core_game_session(g))->name, "white", f.account[0],
                                         "black", f.account[1], "ply", tav_session_ply(core_game_session(g)),
                                         "rated", f.rated, "timing",
                                         f.clk_days           ? "days"
                                         : f.clk_initial_ms ? "real time"
                                                             : "none"));
}

/* Extensions for the page: the leaderboard of a game, and the signed-in
 * player's unfinished games, those where it is their turn first. */
static int page_routes(srv *S, const asker *who, const char *path, int method, reply *r)
{
    if (strncmp(path, "/api/leaderboard/", 17) == 0) {
        if (method != 'G') {
            reply_refuse(r, 405, "use GET");
            return 1;
        }
        json_t *list = json_array();
        if (core_leaderboard(S->C, path + 17, 100, add_leader, list) != 0) {
            json_decref(list);
            reply_refuse(r, 404, "no such game");
            return 1;
        }
        json_t *o = json_pack("{s:s,s:o}", "game", path + 17, "players", list);
        reply_json(r, 200, o);
        return 1;
    }
    if (strcmp(path, "/api/computers") == 0) {
        if (!refused(r, method, 'G', "", 0)) {
            json_t *list = json_array();
            for (int level = 1; level <= 10; level++) {
                char name[STORE_NAME_LEN], spec[24];
                snprintf(name, sizeof name, "Computer-%d", level);
                snprintf(spec, sizeof spec, "ai:level=%d", level);
                json_t *p = player_json(S, name);
                json_object_set_new(p, "player", json_string(spec));
                json_object_set_new(p, "level", json_integer(level));
                json_array_append_new(list, p);
            }
            reply_json(r, 200, list);
        }
        return 1;
    }
    if (strcmp(path, "/api/online") == 0) {
        if (!refused(r, method, 'G', "", 0))
            reply_json(r, 200, json_online(S, 100));
        return 1;
    }
    if (strcmp(path, "/api/playing") == 0) {
        if (!refused(r, method, 'G', "", 0)) {
            json_t *list = json_array();
            core_playing(S->C, 100, add_playing, list);
            reply_json(r, 200, list);
            r->hold = core_pending(S->C) ? core_batch(S->C) : 0;
        }
        return 1;
    }
    if (strcmp(path, "/api/me/games") == 0) {
        if (!refused(r, method, 'G', who->account, 1)) {
            mine_list m = {S, who->account, json_array(), json_array()};
            core_my_games(S->C, who->account, add_mine, &m);
            json_array_extend(m.yours, m.theirs);
            json_decref(m.theirs);
            reply_text(r, 200, json_dumps(m.yours, JSON_COMPACT));
            json_decref(m.yours);
            r->hold = core_pending(S->C) ? core_batch(S->C) : 0;
        }
        return 1;
    }
    return 0;
}

/* /api/meta: the library's, with the server's retention (the privacy page). */
static char *meta_answer(srv *S)
{
    char *m = json_meta();
    json_t *o = m ? json_loads(m, 0, NULL) : NULL;
    if (!json_is_object(o)) {
        json_decref(o);
        return m;
    }
    free(m);
    json_object_set_new(o, "retentionDays", json_integer(S->retention_days));
    char *out = json_dumps(o, JSON_COMPACT);
    json_decref(o);
    return out;
}

void api_handle(srv *S, conn *c, const asker *who, const char *path, int method, const char *body,
                size_t blen, const char *query_seat, const char *query_ply, reply *r)
{
    peer *by = who->by;
    if (page_routes(S, who, path, method, r))
        return;
    if (strncmp(path, "/api/players/", 13) == 0) {
        if (method != 'G')
            reply_refuse(r, 405, "use GET");
        else
            api_player(S, path, r);
        return;
    }
    if (strcmp(path, "/api/meta") == 0) {
        if (method != 'G')
            reply_refuse(r, 405, "use GET");
        else
            reply_text(r, 200, meta_answer(S));
        return;
    }
    if (strcmp(path, "/api/games") == 0 || strcmp(path, "/api/games/") == 0) {
        if (method != 'P')
            reply_refuse(r, 405, "use POST");
        else
            api_new_game(S, who, body, blen, r);
        return;
    }
    if (strcmp(path, "/api/records") == 0) {
        if (method != 'P')
            reply_refuse(r, 405, "use POST");
        else
            api_new_from_record(S, c, by, body, blen, r);
        return;
    }
    if (strncmp(path, "/api/games/", 11) != 0) {
        reply_refuse(r, 404, "no such request");
        return;
    }
    const char *id = path + 11;
    const char *slash = strchr(id, '/');
    size_t idlen = slash ? (size_t)(slash - id) : strlen(id);
    const char *action = slash ? slash + 1 : "";
    if (strchr(action, '/')) {
        reply_refuse(r, 404, "no such request");
        return;
    }
    static const struct { const char *name; int method; } actions[] = {
        {"", 'G'}, {"moves", 'P'}, {"record", 'G'}, {"live", 'G'}, {"resign", 'P'},
        {"undo", 'P'}, {"hint", 'P'}, {"view", 'G'}, {"analysis", 'G'}, {"rematch", 'P'},
        {"abort", 'P'}, {"offer", 'P'}, {"claim", 'P'},
    };
    int a = -1;
    for (int i = 0; i < (int)(sizeof actions / sizeof actions[0]); i++)
        if (strcmp(action, actions[i].name) == 0)
            a = i;
    if (a < 0) {
        reply_refuse(r, 404, "no such request");
        return;
    }
    if (method != actions[a].method) {
        reply_refuse(r, 405, actions[a].method == 'G' ? "use GET" : "use POST");
        return;
    }
    char gid[CORE_ID_CHARS + 1];
    game *g = NULL;
    if (core_id_ok(id, idlen)) {
        memcpy(gid, id, idlen);
        gid[idlen] = 0;
        g = core_get(S->C, gid);
    }
    if (!g) {
        if (core_id_ok(id, idlen) && core_get_failed(S->C))
            reply_refuse(r, 503, "the game could not be read: try again");
        else
            reply_refuse(r, 404, "no such game");
        return;
    }
    core_game_asked(S->C, g);   /* its owner follows its players (many instances) */
    const char *name = actions[a].name;
    if (method == 'P') {
        if (strcmp(name, "moves") == 0)
            api_move(S, who, g, body, blen, r);
        else if (strcmp(name, "resign") == 0)
            api_resign(S, who, g, body, blen, r);
        else if (strcmp(name, "undo") == 0)
            api_undo(S, who, g, body, blen, r);
        else if (strcmp(name, "rematch") == 0)
            api_rematch(S, who, g, body, blen, r);
        else if (strcmp(name, "abort") == 0)
            api_abort(S, who, g, body, blen, r);
        else if (strcmp(name, "offer") == 0)
            api_offer(S, who, g, body, blen, r);
        else if (strcmp(name, "claim") == 0)
            api_claim(S, who, g, body, blen, r);
        else
            api_hint(S, c, who, g, body, blen, r);
        return;
    }
    int viewer = query_viewer(g, query_seat, who);
    if (viewer < 0) {
        reply_refuse(r, 403, "not a seat of this game");
        return;
    }
    r->hold = core_unsettled(S->C, g);   /* shown only once committed */
    if (name[0] == 0) {
        game_answer(S, r, 200, g, viewer);
    } else if (strcmp(name, "record") == 0) {
        core_facts f;
        core_game_facts(g, &f);
        char *text = tav_session_record(core_game_session(g), viewer, f.player[0], f.player[1]);
        if (!text) {
            reply_refuse(r, 500, "the record could not be written");
            return;
        }
        r->status = 200;
        r->body = text;
        r->ctype = "text/plain; charset=utf-8";
    } else if (strcmp(name, "live") == 0) {
        reply_refuse(r, 400, "this address is a WebSocket");
    } else if (strcmp(name, "view") == 0) {
        char *end = NULL;
        long ply = query_ply ? strtol(query_ply, &end, 10) : tav_session_ply(core_game_session(g));
        if (query_ply && (end == query_ply || *end || ply < 0 || ply > tav_session_ply(core_game_session(g)))) {
            reply_text(r, 400, json_error("ply must be a number from 0 to %d",
                                      tav_session_ply(core_game_session(g))));
            return;
        }
        char *v = json_view(core_game_session(g), (int)ply, viewer);
        if (v)
            reply_text(r, 200, v);
        else
            reply_refuse(r, 500, "no view");
    } else if (strcmp(name, "analysis") == 0) {
        core_analyse(S->C, g);
        char *text = json_analysis(core_game_session(g), core_game_analysis(g));
        if (text)
            reply_text(r, 200, text);
        else
            reply_refuse(r, 500, "the analysis could not be written as JSON");
    }
}
