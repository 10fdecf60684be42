/*
 * pool_api.c — quick pairing at the edge (docs/server-api.md "Quick
 * pairing"): POST /api/pool joins, DELETE /api/pool leaves, GET /api/pool
 * the standard clocks, how many wait in each pool and one's own entry; the
 * same counts are pushed on the lobby sockets as {"type": "pool"} whenever
 * the lobby changes.  The pairing itself is the core's (core/pool.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "server/core/core.h"
#include "server/srv.h"

static json_t *pool_clock_json(const store_seek *k)
{
    if (k->days)
        return json_pack("{s:I}", "days", (json_int_t)k->days);
    return json_pack("{s:I,s:I}", "initial", (json_int_t)k->initial, "increment",
                     (json_int_t)k->increment);
}

static void add_count(void *ctx, const store_seek *k, int waiting)
{
    json_array_append_new(ctx, json_pack("{s:s,s:o,s:b,s:i}", "game", k->game, "clock",
                                         pool_clock_json(k), "rated", k->rated, "waiting",
                                         waiting));
}

static json_t *pool_counts(srv *S)
{
    json_t *a = json_array();
    core_pool_each(S->C, add_count, a);
    return a;
}

char *api_pool_text(srv *S)
{
    json_t *o = json_pack("{s:s,s:o}", "type", "pool", "pools", pool_counts(S));
    char *text = json_dumps(o, JSON_COMPACT);
    json_decref(o);
    return text;
}

static void pool_get(srv *S, const asker *who, reply *r)
{
    json_t *clocks = json_array();
    for (int i = 0; i < CORE_POOL_CLOCKS; i++) {
        store_seek k;
        memset(&k, 0, sizeof k);
        k.initial = core_pool_clocks[i].initial;
        k.increment = core_pool_clocks[i].increment;
        k.days = core_pool_clocks[i].days;
        json_array_append_new(clocks, pool_clock_json(&k));
    }
    store_seek m;
    json_t *mine = json_null();
    if (who->account[0] && core_pool_mine(S->C, who->account, &m))
        mine = json_pack("{s:s,s:s,s:o,s:b}", "id", m.id, "game", m.game, "clock",
                         pool_clock_json(&m), "rated", m.rated);
    reply_json(r, 200,
                json_pack("{s:o,s:o,s:o,s:{s:i,s:i,s:i,s:i}}", "clocks", clocks, "pools",
                          pool_counts(S), "mine", mine, "window", "initial", CORE_POOL_WINDOW,
                          "widen", CORE_POOL_WIDEN, "every", CORE_POOL_WIDEN_SECS, "anyone",
                          CORE_POOL_ANYONE_SECS));
}

static void pool_join(srv *S, const asker *who, const char *body, size_t len, reply *r)
{
    if (!who->account[0]) {
        reply_refuse(r, 401, "sign in to join the pool");
        return;
    }
    json_error_t jerr;
    json_t *o = len && len <= 1024 ? json_loadb(body, len, JSON_REJECT_DUPLICATES, &jerr) : NULL;
    if (!o || !json_is_object(o)) {
        reply_refuse(r, 400, "the request needs a JSON object body");
        json_decref(o);
        return;
    }
    store_seek k;
    memset(&k, 0, sizeof k);
    const char *key;
    json_t *v;
    int bad = 0;
    json_object_foreach(o, key, v) {
        if (strcmp(key, "game") == 0 && json_is_string(v) && strlen(json_string_value(v)) < 32) {
            snprintf(k.game, sizeof k.game, "%s", json_string_value(v));
        } else if (strcmp(key, "rated") == 0 && json_is_boolean(v)) {
            k.rated = json_is_true(v);
        } else if (strcmp(key, "clock") == 0 && json_is_object(v)) {
            const char *ck;
            json_t *cv;
            json_object_foreach(v, ck, cv) {
                if (!json_is_integer(cv) || json_integer_value(cv) < 0 ||
                    json_integer_value(cv) > 1000000)
                    bad = 1;
                else if (strcmp(ck, "initial") == 0)
                    k.initial = json_integer_value(cv);
                else if (strcmp(ck, "increment") == 0)
                    k.increment = json_integer_value(cv);
                else if (strcmp(ck, "days") == 0)
                    k.days = json_integer_value(cv);
                else
                    bad = 1;
            }
        } else {
            bad = 1;
        }
    }
    json_decref(o);
    if (bad || !k.game[0]) {
        reply_refuse(r, 400, "the body is {\"game\": G, \"clock\": C, \"rated\": true|false}");
        return;
    }
    char id[STORE_ID_LEN], err[320];
    core_status st = core_pool_join(S->C, who->account, &k, id, err, sizeof err);
    if (st == CORE_CREATED)
        reply_json(r, 201, json_pack("{s:s}", "id", id));
    else
        reply_refuse(r, api_http_status(st), err);
}

int pool_routes(srv *S, const asker *who, const char *path, int method, const char *body,
                size_t blen, reply *r)
{
    if (strcmp(path, "/api/pool") != 0)
        return 0;
    char err[320];
    if (method == 'G') {
        pool_get(S, who, r);
    } else if (method == 'P') {
        pool_join(S, who, body, blen, r);
    } else if (method == 'D') {
        core_status st = core_pool_leave(S->C, who->account, err, sizeof err);
        if (st == CORE_OK)
            reply_json(r, 200, json_object());
        else
            reply_refuse(r, api_http_status(st), err);
    } else {
        reply_refuse(r, 405, "use GET, POST or DELETE");
    }
    return 1;
}
