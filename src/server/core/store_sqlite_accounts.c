/*
 * store_sqlite_accounts.c — the SQLite backend's accounts, sessions, seeks, ratings, a player's games, the leaderboard, bots' tokens.
 *
 * The statements are store_sqlite.c's (prepared once at open, bound here);
 * writes join the open batch through its helpers (store_sqlite_internal.h).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "server/core/store.h"
#include "server/core/store_sqlite_internal.h"

int sq_set_end(store *base, const char *id, const char *winner, const char *end, char *err,
                      size_t errlen)
{
    sq_store *st = (sq_store *)base;
    return sq_write1(st, sq_bind(st, Q_SET_END, "ttt", id, winner, end), 1, "game end", err, errlen);
}

int sq_create_account(store *base, const store_account *a, char *err, size_t errlen)
{
    sq_store *st = (sq_store *)base;
    return sq_write1(st, sq_bind(st, Q_INS_ACCOUNT, "tti", a->name, a->pwhash, a->created), 1,
                  "insert account", err, errlen);
}

int sq_get_account(store *base, const char *name, store_account *out, char *err,
                          size_t errlen)
{
    sq_store *st = (sq_store *)base;
    sqlite3_stmt *s = sq_bind(st, Q_GET_ACCOUNT, "t", name);
    int rc = sq_read1(st, s, "load account", err, errlen);
    if (rc != 1)
        return rc;
    memset(out, 0, sizeof *out);
    int bad = sq_col_text(s, 0, out->name, sizeof out->name) != 0 ||
              sq_col_text(s, 1, out->pwhash, sizeof out->pwhash) != 0 ||
              sq_col_text(s, 3, out->lang, sizeof out->lang) != 0;
    out->created = sqlite3_column_int64(s, 2);
    out->bot = sqlite3_column_int(s, 4) != 0;
    out->closed = sqlite3_column_int64(s, 5);
    out->banned = sqlite3_column_int(s, 6) != 0;
    sq_done1(s);
    if (bad) {
        snprintf(err, errlen, "account: damaged row");
        return -1;
    }
    return 1;
}

int sq_set_password(store *base, const char *name, const char *pwhash, char *err,
                           size_t errlen)
{
    sq_store *st = (sq_store *)base;
    return sq_write1(st, sq_bind(st, Q_SET_PASSWORD, "tt", name, pwhash), 1, "password", err, errlen);
}

int sq_set_lang(store *base, const char *name, const char *lang, char *err, size_t errlen)
{
    sq_store *st = (sq_store *)base;
    return sq_write1(st, sq_bind(st, Q_SET_LANG, "tt", name, lang), 1, "language", err, errlen);
}

int sq_create_session(store *base, const unsigned char hash[STORE_HASH_LEN],
                             const char *name, int64_t created, int64_t expires,
                             const char *ua, char *err, size_t errlen)
{
    sq_store *st = (sq_store *)base;
    char u[STORE_UA_LEN];
    store_cut_ua(ua, u);
    return sq_write1(st, sq_bind(st, Q_INS_SESSION, "htiit", hash, name, created, expires, u), 1,
                  "insert session", err, errlen);
}

int sq_touch_session(store *base, const unsigned char hash[STORE_HASH_LEN], int64_t now,
                            char *err, size_t errlen)
{
    sq_store *st = (sq_store *)base;
    return sq_write1(st, sq_bind(st, Q_TOUCH_SESSION, "hi", hash, now), -1, "touch session", err,
                  errlen);
}

int sq_get_session(store *base, const unsigned char hash[STORE_HASH_LEN], int64_t now,
                          char name[STORE_NAME_LEN], int64_t *last_used, char *err,
                          size_t errlen)
{
    sq_store *st = (sq_store *)base;
    sqlite3_stmt *s = sq_bind(st, Q_GET_SESSION, "hi", hash, now);
    int rc = sq_read1(st, s, "load session", err, errlen);
    if (rc != 1)
        return rc;
    int bad = sq_col_text(s, 0, name, STORE_NAME_LEN) != 0;
    if (last_used)
        *last_used = sqlite3_column_int64(s, 1);
    sq_done1(s);
    return bad ? -1 : 1;
}

int sq_delete_session(store *base, const unsigned char hash[STORE_HASH_LEN], char *err,
                             size_t errlen)
{
    sq_store *st = (sq_store *)base;
    return sq_write1(st, sq_bind(st, Q_DEL_SESSION, "h", hash), -1, "end session", err, errlen);
}

int sq_each_session(store *base, const char *name, int64_t now, store_session_fn fn,
                           void *ctx, char *err, size_t errlen)
{
    sq_store *st = (sq_store *)base;
    sqlite3_stmt *s = sq_bind(st, Q_SESSIONS_OF, "ti", name, now);
    int rc, stop = 0;
    while (!stop && (rc = sqlite3_step(s)) == SQLITE_ROW) {
        const void *h = sqlite3_column_blob(s, 0);
        if (!h || sqlite3_column_bytes(s, 0) != STORE_HASH_LEN)
            continue;
        char u[STORE_UA_LEN] = "";
        const unsigned char *t = sqlite3_column_text(s, 3);
        if (t)
            store_cut_ua((const char *)t, u);
        stop = fn(ctx, h, sqlite3_column_int64(s, 1), sqlite3_column_int64(s, 2), u,
                  sqlite3_column_int64(s, 4));
    }
    sq_done1(s);
    if (!stop && rc != SQLITE_DONE)
        return sq_fail(st, "list sessions", err, errlen);
    return 0;
}

int sq_create_seek(store *base, const store_seek *k, char *err, size_t errlen)
{
    sq_store *st = (sq_store *)base;
    return sq_write1(st,
                  sq_bind(st, Q_INS_SEEK, "ttttiiiiiit", k->id, k->by, k->game, k->options,
                       (int64_t)k->rated, (int64_t)k->colour, k->initial, k->increment, k->days,
                       k->created, k->to),
                  1, "insert seek", err, errlen);
}

int sq_seek_state(store *base, const char *id);

int sq_close_seek(store *base, const char *id, const char *game, char *err, size_t errlen)
{
    sq_store *st = (sq_store *)base;
    if (sq_write1(st, sq_bind(st, Q_CLOSE_SEEK, "tti", id, game, (int64_t)(game[0] ? 1 : 2)), 1,
               "close seek", err, errlen) == 0)
        return 0;
    int state = sq_seek_state(base, id);
    return state == 1 || state == 2 ? STORE_CONFLICT : -1;
}

int sq_seek_state(store *base, const char *id)
{
    sq_store *st = (sq_store *)base;
    char err[64];
    sqlite3_stmt *s = sq_bind(st, Q_SEEK_STATE, "t", id);
    if (sq_read1(st, s, "seek", err, sizeof err) != 1)
        return -1;
    int state = sqlite3_column_int(s, 0);
    sq_done1(s);
    return state;
}

int sq_each_seek(store *base, store_seek_fn fn, void *ctx, char *err, size_t errlen)
{
    sq_store *st = (sq_store *)base;
    sqlite3_stmt *s = st->q[Q_OPEN_SEEKS];
    int rc, stop = 0;
    while (!stop && (rc = sqlite3_step(s)) == SQLITE_ROW) {
        store_seek k;
        memset(&k, 0, sizeof k);
        if (sq_col_text(s, 0, k.id, sizeof k.id) != 0 || sq_col_text(s, 1, k.by, sizeof k.by) != 0 ||
            sq_col_text(s, 2, k.game, sizeof k.game) != 0 ||
            sq_col_text(s, 3, k.options, sizeof k.options) != 0)
            continue;
        k.rated = sqlite3_column_int(s, 4);
        k.colour = sqlite3_column_int(s, 5);
        k.initial = sqlite3_column_int64(s, 6);
        k.increment = sqlite3_column_int64(s, 7);
        k.days = sqlite3_column_int64(s, 8);
        k.created = sqlite3_column_int64(s, 9);
        if (sq_col_text(s, 10, k.to, sizeof k.to) != 0)
            continue;
        stop = fn(ctx, &k);
    }
    sqlite3_reset(s);
    if (!stop && rc != SQLITE_DONE)
        return sq_fail(st, "list seeks", err, errlen);
    return 0;
}

int sq_get_rating(store *base, const char *name, const char *game, store_rating *out,
                         char *err, size_t errlen)
{
    sq_store *st = (sq_store *)base;
    sqlite3_stmt *s = sq_bind(st, Q_GET_RATING, "tt", name, game);
    int rc = sq_read1(st, s, "load rating", err, errlen);
    if (rc != 1)
        return rc;
    out->rating = sqlite3_column_double(s, 0);
    out->rd = sqlite3_column_double(s, 1);
    out->vol = sqlite3_column_double(s, 2);
    out->games = sqlite3_column_int(s, 3);
    sq_done1(s);
    return 1;
}

int sq_set_rating(store *base, const char *name, const char *game, const store_rating *r,
                         char *err, size_t errlen)
{
    sq_store *st = (sq_store *)base;
    return sq_write1(st,
                  sq_bind(st, Q_SET_RATING, "ttdddi", name, game, r->rating, r->rd, r->vol,
                       (int64_t)r->games),
                  1, "rating", err, errlen);
}

int sq_each_rating(store *base, const char *name,
                          int (*fn)(void *ctx, const char *game, const store_rating *r), void *ctx,
                          char *err, size_t errlen)
{
    sq_store *st = (sq_store *)base;
    sqlite3_stmt *s = sq_bind(st, Q_RATINGS, "t", name);
    int rc, stop = 0;
    while (!stop && (rc = sqlite3_step(s)) == SQLITE_ROW) {
        char game[32];
        if (sq_col_text(s, 0, game, sizeof game) != 0)
            continue;
        store_rating r = {sqlite3_column_double(s, 1), sqlite3_column_double(s, 2),
                          sqlite3_column_double(s, 3), sqlite3_column_int(s, 4), 0};
        stop = fn(ctx, game, &r);
    }
    sq_done1(s);
    if (!stop && rc != SQLITE_DONE)
        return sq_fail(st, "list ratings", err, errlen);
    return 0;
}

int sq_set_offers(store *base, const char *id, int draw, int takeback, char *err,
                         size_t errlen)
{
    sq_store *st = (sq_store *)base;
    return sq_write1(st, sq_bind(st, Q_SET_OFFERS, "tii", id, (int64_t)draw, (int64_t)takeback), 1,
                  "offers", err, errlen);
}

int sq_set_game_ratings(store *base, const char *id, const double before[2],
                               const double after[2], char *err, size_t errlen)
{
    sq_store *st = (sq_store *)base;
    return sq_write1(st,
                  sq_bind(st, Q_SET_GAME_RATINGS, "tdddd", id, after[0], after[1], before[0],
                       before[1]),
                  1, "game ratings", err, errlen);
}

int sq_leaderboard(store *base, const char *game, int limit,
                          int (*fn)(void *ctx, const char *name, const store_rating *r),
                          void *ctx, char *err, size_t errlen)
{
    sq_store *st = (sq_store *)base;
    sqlite3_stmt *s = sq_bind(st, Q_LEADERBOARD, "ti", game, (int64_t)limit);
    int rc, stop = 0;
    while (!stop && (rc = sqlite3_step(s)) == SQLITE_ROW) {
        char name[STORE_NAME_LEN];
        if (sq_col_text(s, 0, name, sizeof name) != 0)
            continue;
        store_rating r = {sqlite3_column_double(s, 1), sqlite3_column_double(s, 2),
                          sqlite3_column_double(s, 3), sqlite3_column_int(s, 4),
                          sqlite3_column_int(s, 5) != 0};
        stop = fn(ctx, name, &r);
    }
    sq_done1(s);
    if (!stop && rc != SQLITE_DONE)
        return sq_fail(st, "leaderboard", err, errlen);
    return 0;
}

int sq_player_unfinished(store *base, const char *name, int limit, store_id_fn fn,
                                void *ctx, char *err, size_t errlen)
{
    sq_store *st = (sq_store *)base;
    sqlite3_stmt *s = sq_bind(st, Q_UNFINISHED_OF, "ti", name, (int64_t)limit);
    /* Collect first: fn may use the store. */
    char ids[100][STORE_ID_LEN];
    int n = 0, rc;
    while (n < 100 && (rc = sqlite3_step(s)) == SQLITE_ROW)
        if (sq_col_text(s, 0, ids[n], sizeof ids[n]) == 0)
            n++;
    sq_done1(s);
    if (n < 100 && rc != SQLITE_DONE)
        return sq_fail(st, "list games", err, errlen);
    for (int i = 0; i < n; i++)
        fn(ctx, ids[i]);
    return 0;
}

int sq_player_games(store *base, const char *name, int limit, store_pgame_fn fn, void *ctx,
                           char *err, size_t errlen)
{
    sq_store *st = (sq_store *)base;
    sqlite3_stmt *s = sq_bind(st, Q_PLAYER_GAMES, "ti", name, (int64_t)limit);
    int rc, stop = 0;
    while (!stop && (rc = sqlite3_step(s)) == SQLITE_ROW) {
        store_player_game g;
        memset(&g, 0, sizeof g);
        char acc[2][STORE_NAME_LEN];
        if (sq_col_text(s, 0, g.id, sizeof g.id) != 0 || sq_col_text(s, 1, g.game, sizeof g.game) != 0 ||
            sq_col_text(s, 2, g.white, sizeof g.white) != 0 ||
            sq_col_text(s, 3, g.black, sizeof g.black) != 0 ||
            sq_col_text(s, 4, acc[0], sizeof acc[0]) != 0 ||
            sq_col_text(s, 5, acc[1], sizeof acc[1]) != 0 ||
            sq_col_text(s, 6, g.winner, sizeof g.winner) != 0 ||
            sq_col_text(s, 7, g.end, sizeof g.end) != 0)
            continue;
        if (acc[0][0])
            snprintf(g.white, sizeof g.white, "%s", acc[0]);
        if (acc[1][0])
            snprintf(g.black, sizeof g.black, "%s", acc[1]);
        g.rated = sqlite3_column_int(s, 8);
        g.rating_after[0] = sqlite3_column_double(s, 9);
        g.rating_after[1] = sqlite3_column_double(s, 10);
        g.created = sqlite3_column_int64(s, 11);
        stop = fn(ctx, &g);
    }
    sq_done1(s);
    if (!stop && rc != SQLITE_DONE)
        return sq_fail(st, "list games", err, errlen);
    return 0;
}

/* ---- bots (SPEC "Bots") ---- */

int sq_set_bot(store *base, const char *name, char *err, size_t errlen)
{
    sq_store *st = (sq_store *)base;
    return sq_write1(st, sq_bind(st, Q_SET_BOT, "t", name), 1, "bot", err, errlen);
}

int sq_create_token(store *base, const char *id, const unsigned char hash[STORE_HASH_LEN],
                           const char *name, int64_t created, char *err, size_t errlen)
{
    sq_store *st = (sq_store *)base;
    return sq_write1(st, sq_bind(st, Q_INS_TOKEN, "thti", id, hash, name, created), 1, "insert token",
                  err, errlen);
}

int sq_get_token(store *base, const unsigned char hash[STORE_HASH_LEN],
                        char name[STORE_NAME_LEN], int64_t *last_used, char *err, size_t errlen)
{
    sq_store *st = (sq_store *)base;
    sqlite3_stmt *s = sq_bind(st, Q_GET_TOKEN, "h", hash);
    int rc = sq_read1(st, s, "load token", err, errlen);
    if (rc != 1)
        return rc;
    int bad = sq_col_text(s, 0, name, STORE_NAME_LEN) != 0;
    if (last_used)
        *last_used = sqlite3_column_int64(s, 1);
    sq_done1(s);
    return bad ? -1 : 1;
}

int sq_touch_token(store *base, const unsigned char hash[STORE_HASH_LEN], int64_t now,
                          char *err, size_t errlen)
{
    sq_store *st = (sq_store *)base;
    return sq_write1(st, sq_bind(st, Q_TOUCH_TOKEN, "hi", hash, now), -1, "touch token", err, errlen);
}

int sq_delete_token(store *base, const char *name, const char *id, char *err,
                           size_t errlen)
{
    sq_store *st = (sq_store *)base;
    return sq_write1(st, sq_bind(st, Q_DEL_TOKEN, "tt", name, id), -1, "revoke token", err, errlen);
}

int sq_each_token(store *base, const char *name, store_token_fn fn, void *ctx, char *err,
                         size_t errlen)
{
    sq_store *st = (sq_store *)base;
    sqlite3_stmt *s = sq_bind(st, Q_TOKENS_OF, "t", name);
    int rc, stop = 0;
    while (!stop && (rc = sqlite3_step(s)) == SQLITE_ROW) {
        store_token t;
        memset(&t, 0, sizeof t);
        if (sq_col_text(s, 0, t.id, sizeof t.id) != 0)
            continue;
        t.created = sqlite3_column_int64(s, 1);
        t.last_used = sqlite3_column_int64(s, 2);
        stop = fn(ctx, &t);
    }
    sq_done1(s);
    if (!stop && rc != SQLITE_DONE)
        return sq_fail(st, "list tokens", err, errlen);
    return 0;
}
