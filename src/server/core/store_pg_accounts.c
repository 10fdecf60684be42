/*
 * store_pg_accounts.c — the PostgreSQL store's people: accounts, sign-in
 * sessions, seeks, ratings, leaderboards, a player's games, offers.
 */
#include <errno.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <libpq-fe.h>

#include "server/core/store.h"
#include "server/core/store_pg_internal.h"

/* ---- accounts, sessions, seeks, ratings ---- */

/* A LIMIT: a negative one is none (SQLite's reading; PostgreSQL refuses it). */
static int64_t nolimit(int limit) { return limit < 0 ? INT64_MAX : (int64_t)limit; }

int pg_set_end(store *base, const char *id, const char *winner, const char *end, char *err,
                      size_t errlen)
{
    return pg_write1((pg_store *)base, Q_SET_END, 1, "game end", err, errlen, "ttt", id, winner, end);
}

int pg_create_account(store *base, const store_account *a, char *err, size_t errlen)
{
    return pg_write1((pg_store *)base, Q_INS_ACCOUNT, 1, "insert account", err, errlen, "tti",
                  a->name, a->pwhash, a->created);
}

int pg_get_account(store *base, const char *name, store_account *out, char *err,
                          size_t errlen)
{
    PGresult *r;
    int rc = pg_read_rows((pg_store *)base, Q_GET_ACCOUNT, &r, "load account", err, errlen, "t",
                       name);
    if (rc != 1)
        return rc;
    memset(out, 0, sizeof *out);
    int bad = pg_col_text(r, 0, 0, out->name, sizeof out->name) != 0 ||
              pg_col_text(r, 0, 1, out->pwhash, sizeof out->pwhash) != 0 ||
              pg_col_text(r, 0, 3, out->lang, sizeof out->lang) != 0;
    out->created = pg_col_i64(r, 0, 2);
    out->bot = pg_col_int(r, 0, 4) != 0;
    out->closed = pg_col_i64(r, 0, 5);
    out->banned = pg_col_int(r, 0, 6) != 0;
    PQclear(r);
    if (bad) {
        snprintf(err, errlen, "account: damaged row");
        return -1;
    }
    return 1;
}

int pg_set_lang(store *base, const char *name, const char *lang, char *err, size_t errlen)
{
    return pg_write1((pg_store *)base, Q_SET_LANG, 1, "language", err, errlen, "tt", name, lang);
}

int pg_set_password(store *base, const char *name, const char *pwhash, char *err,
                           size_t errlen)
{
    return pg_write1((pg_store *)base, Q_SET_PASSWORD, 1, "password", err, errlen, "tt", name,
                  pwhash);
}

int pg_create_session(store *base, const unsigned char hash[STORE_HASH_LEN],
                             const char *name, int64_t created, int64_t expires,
                             const char *ua, char *err, size_t errlen)
{
    char u[STORE_UA_LEN];
    store_cut_ua(ua, u);
    return pg_write1((pg_store *)base, Q_INS_SESSION, 1, "insert session", err, errlen, "htiit",
                  hash, name, created, expires, u);
}

int pg_touch_session(store *base, const unsigned char hash[STORE_HASH_LEN], int64_t now,
                            char *err, size_t errlen)
{
    return pg_write1((pg_store *)base, Q_TOUCH_SESSION, -1, "touch session", err, errlen, "hi",
                  hash, now);
}

int pg_get_session(store *base, const unsigned char hash[STORE_HASH_LEN], int64_t now,
                          char name[STORE_NAME_LEN], int64_t *last_used, char *err,
                          size_t errlen)
{
    PGresult *r;
    int rc = pg_read_rows((pg_store *)base, Q_GET_SESSION, &r, "load session", err, errlen, "hi",
                       hash, now);
    if (rc != 1)
        return rc;
    int bad = pg_col_text(r, 0, 0, name, STORE_NAME_LEN) != 0;
    if (last_used)
        *last_used = pg_col_i64(r, 0, 1);
    PQclear(r);
    return bad ? -1 : 1;
}

int pg_delete_session(store *base, const unsigned char hash[STORE_HASH_LEN], char *err,
                             size_t errlen)
{
    return pg_write1((pg_store *)base, Q_DEL_SESSION, -1, "end session", err, errlen, "h", hash);
}

int pg_each_session(store *base, const char *name, int64_t now, store_session_fn fn,
                           void *ctx, char *err, size_t errlen)
{
    PGresult *r;
    int rc = pg_read_rows((pg_store *)base, Q_SESSIONS_OF, &r, "list sessions", err, errlen, "ti",
                       name, now);
    if (rc != 1)
        return rc;
    int n = PQntuples(r), stop = 0;
    for (int i = 0; i < n && !stop; i++) {
        unsigned char h[STORE_HASH_LEN];
        if (pg_col_hash(r, i, 0, h) != 0)
            continue;
        char u[STORE_UA_LEN] = "";
        store_cut_ua(PQgetvalue(r, i, 3), u);
        stop = fn(ctx, h, pg_col_i64(r, i, 1), pg_col_i64(r, i, 2), u, pg_col_i64(r, i, 4));
    }
    PQclear(r);
    return 0;
}

int pg_create_seek(store *base, const store_seek *k, char *err, size_t errlen)
{
    return pg_write1((pg_store *)base, Q_INS_SEEK, 1, "insert seek", err, errlen, "ttttiiiiiit",
                  k->id, k->by, k->game, k->options, (int64_t)k->rated, (int64_t)k->colour,
                  k->initial, k->increment, k->days, k->created, k->to);
}

int pg_seek_state(store *base, const char *id)
{
    char err[128];
    PGresult *r;
    if (pg_read_rows((pg_store *)base, Q_SEEK_STATE, &r, "seek", err, sizeof err, "t", id) != 1)
        return -1;
    int state = pg_col_int(r, 0, 0);
    PQclear(r);
    return state;
}

int pg_close_seek(store *base, const char *id, const char *game, char *err, size_t errlen)
{
    pg_store *st = (pg_store *)base;
    if (pg_write1(st, Q_CLOSE_SEEK, 1, "close seek", err, errlen, "tti", id, game,
               (int64_t)(game[0] ? 1 : 2)) == 0)
        return 0;
    int state = pg_seek_state(base, id);
    return state == 1 || state == 2 ? STORE_CONFLICT : -1;
}

int pg_each_seek(store *base, store_seek_fn fn, void *ctx, char *err, size_t errlen)
{
    PGresult *r;
    int rc = pg_read_rows((pg_store *)base, Q_OPEN_SEEKS, &r, "list seeks", err, errlen, "");
    if (rc != 1)
        return rc;
    int n = PQntuples(r), stop = 0;
    for (int i = 0; i < n && !stop; i++) {
        store_seek k;
        memset(&k, 0, sizeof k);
        if (pg_col_text(r, i, 0, k.id, sizeof k.id) != 0 || pg_col_text(r, i, 1, k.by, sizeof k.by) != 0 ||
            pg_col_text(r, i, 2, k.game, sizeof k.game) != 0 ||
            pg_col_text(r, i, 3, k.options, sizeof k.options) != 0 ||
            pg_col_text(r, i, 10, k.to, sizeof k.to) != 0)
            continue;
        k.rated = pg_col_int(r, i, 4);
        k.colour = pg_col_int(r, i, 5);
        k.initial = pg_col_i64(r, i, 6);
        k.increment = pg_col_i64(r, i, 7);
        k.days = pg_col_i64(r, i, 8);
        k.created = pg_col_i64(r, i, 9);
        stop = fn(ctx, &k);
    }
    PQclear(r);
    return 0;
}

int pg_get_rating(store *base, const char *name, const char *game, store_rating *out,
                         char *err, size_t errlen)
{
    PGresult *r;
    int rc = pg_read_rows((pg_store *)base, Q_GET_RATING, &r, "load rating", err, errlen, "tt", name,
                       game);
    if (rc != 1)
        return rc;
    out->rating = pg_col_double(r, 0, 0);
    out->rd = pg_col_double(r, 0, 1);
    out->vol = pg_col_double(r, 0, 2);
    out->games = pg_col_int(r, 0, 3);
    PQclear(r);
    return 1;
}

int pg_set_rating(store *base, const char *name, const char *game, const store_rating *r,
                         char *err, size_t errlen)
{
    return pg_write1((pg_store *)base, Q_SET_RATING, 1, "rating", err, errlen, "ttdddi", name, game,
                  r->rating, r->rd, r->vol, (int64_t)r->games);
}

int pg_each_rating(store *base, const char *name,
                   int (*fn)(void *ctx, const char *game, const store_rating *r), void *ctx,
                   char *err, size_t errlen)
{
    PGresult *r;
    int rc = pg_read_rows((pg_store *)base, Q_RATINGS, &r, "list ratings", err, errlen, "t", name);
    if (rc != 1)
        return rc;
    int n = PQntuples(r), stop = 0;
    for (int i = 0; i < n && !stop; i++) {
        char game[32];
        if (pg_col_text(r, i, 0, game, sizeof game) != 0)
            continue;
        store_rating x = {pg_col_double(r, i, 1), pg_col_double(r, i, 2), pg_col_double(r, i, 3),
                          pg_col_int(r, i, 4), 0};
        stop = fn(ctx, game, &x);
    }
    PQclear(r);
    return 0;
}

int pg_leaderboard(store *base, const char *game, int limit,
                   int (*fn)(void *ctx, const char *name, const store_rating *r),
                   void *ctx, char *err, size_t errlen)
{
    PGresult *r;
    int rc = pg_read_rows((pg_store *)base, Q_LEADERBOARD, &r, "leaderboard", err, errlen, "ti",
                       game, nolimit(limit));
    if (rc != 1)
        return rc;
    int n = PQntuples(r), stop = 0;
    for (int i = 0; i < n && !stop; i++) {
        char name[STORE_NAME_LEN];
        if (pg_col_text(r, i, 0, name, sizeof name) != 0)
            continue;
        store_rating x = {pg_col_double(r, i, 1), pg_col_double(r, i, 2), pg_col_double(r, i, 3),
                          pg_col_int(r, i, 4), pg_col_int(r, i, 5) != 0};
        stop = fn(ctx, name, &x);
    }
    PQclear(r);
    return 0;
}

int pg_player_unfinished(store *base, const char *name, int limit, store_id_fn fn,
                                void *ctx, char *err, size_t errlen)
{
    PGresult *r;
    int rc = pg_read_rows((pg_store *)base, Q_UNFINISHED_OF, &r, "list games", err, errlen, "ti",
                       name, nolimit(limit));
    if (rc != 1)
        return rc;
    pg_each_id(r, 100, fn, ctx);
    PQclear(r);
    return 0;
}

int pg_player_games(store *base, const char *name, int limit, store_pgame_fn fn, void *ctx,
                           char *err, size_t errlen)
{
    PGresult *r;
    int rc = pg_read_rows((pg_store *)base, Q_PLAYER_GAMES, &r, "list games", err, errlen, "ti",
                       name, nolimit(limit));
    if (rc != 1)
        return rc;
    int n = PQntuples(r), stop = 0;
    for (int i = 0; i < n && !stop; i++) {
        store_player_game g;
        memset(&g, 0, sizeof g);
        char acc[2][STORE_NAME_LEN];
        if (pg_col_text(r, i, 0, g.id, sizeof g.id) != 0 ||
            pg_col_text(r, i, 1, g.game, sizeof g.game) != 0 ||
            pg_col_text(r, i, 2, g.white, sizeof g.white) != 0 ||
            pg_col_text(r, i, 3, g.black, sizeof g.black) != 0 ||
            pg_col_text(r, i, 4, acc[0], sizeof acc[0]) != 0 ||
            pg_col_text(r, i, 5, acc[1], sizeof acc[1]) != 0 ||
            pg_col_text(r, i, 6, g.winner, sizeof g.winner) != 0 ||
            pg_col_text(r, i, 7, g.end, sizeof g.end) != 0)
            continue;
        if (acc[0][0])
            snprintf(g.white, sizeof g.white, "%s", acc[0]);
        if (acc[1][0])
            snprintf(g.black, sizeof g.black, "%s", acc[1]);
        g.rated = pg_col_int(r, i, 8);
        g.rating_after[0] = pg_col_double(r, i, 9);
        g.rating_after[1] = pg_col_double(r, i, 10);
        g.created = pg_col_i64(r, i, 11);
        stop = fn(ctx, &g);
    }
    PQclear(r);
    return 0;
}

int pg_set_game_ratings(store *base, const char *id, const double before[2],
                        const double after[2], char *err, size_t errlen)
{
    return pg_write1((pg_store *)base, Q_SET_GAME_RATINGS, 1, "game ratings", err, errlen, "tdddd",
                     id, after[0], after[1], before[0], before[1]);
}

int pg_set_offers(store *base, const char *id, int draw, int takeback, char *err,
                         size_t errlen)
{
    return pg_write1((pg_store *)base, Q_SET_OFFERS, 1, "offers", err, errlen, "tii", id,
                  (int64_t)draw, (int64_t)takeback);
}

/* ---- bots (SPEC "Bots") ---- */

int pg_set_bot(store *base, const char *name, char *err, size_t errlen)
{
    return pg_write1((pg_store *)base, Q_SET_BOT, 1, "bot", err, errlen, "t", name);
}

int pg_create_token(store *base, const char *id, const unsigned char hash[STORE_HASH_LEN],
                    const char *name, int64_t created, char *err, size_t errlen)
{
    return pg_write1((pg_store *)base, Q_INS_TOKEN, 1, "insert token", err, errlen, "thti", id,
                     hash, name, created);
}

int pg_get_token(store *base, const unsigned char hash[STORE_HASH_LEN], char name[STORE_NAME_LEN],
                 int64_t *last_used, char *err, size_t errlen)
{
    PGresult *r;
    int rc = pg_read_rows((pg_store *)base, Q_GET_TOKEN, &r, "load token", err, errlen, "h", hash);
    if (rc != 1)
        return rc;
    int bad = pg_col_text(r, 0, 0, name, STORE_NAME_LEN) != 0;
    if (last_used)
        *last_used = pg_col_i64(r, 0, 1);
    PQclear(r);
    return bad ? -1 : 1;
}

int pg_touch_token(store *base, const unsigned char hash[STORE_HASH_LEN], int64_t now, char *err,
                   size_t errlen)
{
    return pg_write1((pg_store *)base, Q_TOUCH_TOKEN, -1, "touch token", err, errlen, "hi", hash,
                     now);
}

int pg_delete_token(store *base, const char *name, const char *id, char *err, size_t errlen)
{
    return pg_write1((pg_store *)base, Q_DEL_TOKEN, -1, "revoke token", err, errlen, "tt", name,
                     id);
}

int pg_each_token(store *base, const char *name, store_token_fn fn, void *ctx, char *err,
                  size_t errlen)
{
    PGresult *r;
    int rc = pg_read_rows((pg_store *)base, Q_TOKENS_OF, &r, "list tokens", err, errlen, "t", name);
    if (rc != 1)
        return rc;
    int n = PQntuples(r), stop = 0;
    for (int i = 0; i < n && !stop; i++) {
        store_token t;
        memset(&t, 0, sizeof t);
        if (pg_col_text(r, i, 0, t.id, sizeof t.id) != 0)
            continue;
        t.created = pg_col_i64(r, i, 1);
        t.last_used = pg_col_i64(r, i, 2);
        stop = fn(ctx, &t);
    }
    PQclear(r);
    return 0;
}
