/*
 * store_sqlite_games.c — the SQLite backend's the games: a game made with its seats and first moves, a move, a take-back, a result, a rematch, a game read back with its moves, the unfinished games at start.
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

/* Insert one move row (inside a transaction). */
static int insert_move(sq_store *st, const char *id, int ply, const store_move *m)
{
    sqlite3_stmt *s = st->q[Q_INS_MOVE];
    sqlite3_bind_text(s, 1, id, -1, SQLITE_STATIC);
    sqlite3_bind_int(s, 2, ply);
    sqlite3_bind_text(s, 3, m->text, -1, SQLITE_STATIC);
    sqlite3_bind_int64(s, 4, m->ms);
    sqlite3_bind_int64(s, 5, m->time);
    return sq_step_done(s);
}

int sq_create_game(store *base, const store_game *g, const store_move *moves, int nmoves,
                      char *err, size_t errlen)
{
    sq_store *st = (sq_store *)base;
    if (sq_begin(st) != 0)
        return sq_fail(st, "begin", err, errlen);
    sqlite3_stmt *s = st->q[Q_INS_GAME];
    sqlite3_bind_text(s, 1, g->id, -1, SQLITE_STATIC);
    sqlite3_bind_text(s, 2, g->game, -1, SQLITE_STATIC);
    sqlite3_bind_text(s, 3, g->options ? g->options : "", -1, SQLITE_STATIC);
    sqlite3_bind_int64(s, 4, (sqlite3_int64)g->seed);
    sqlite3_bind_text(s, 5, g->player[0], -1, SQLITE_STATIC);
    sqlite3_bind_text(s, 6, g->player[1], -1, SQLITE_STATIC);
    sqlite3_bind_int64(s, 7, g->created);
    sqlite3_bind_int(s, 8, g->status);
    sqlite3_bind_int(s, 9, g->resigned);
    sqlite3_bind_int(s, 10, g->local != 0);
    sqlite3_bind_text(s, 11, g->account[0], -1, SQLITE_STATIC);
    sqlite3_bind_text(s, 12, g->account[1], -1, SQLITE_STATIC);
    sqlite3_bind_int(s, 13, g->rated != 0);
    sqlite3_bind_int64(s, 14, g->clock_initial);
    sqlite3_bind_int64(s, 15, g->clock_increment);
    sqlite3_bind_int64(s, 16, g->clock_days);
    sqlite3_bind_int64(s, 17, g->started_ms);
    if (sq_step_done(s) != 0)
        return sq_abort_tx(st, NULL, "insert game", err, errlen);
    for (int side = 0; side < 2; side++) {
        if (!g->has_seat[side])
            continue;
        s = st->q[Q_INS_SEAT];
        sqlite3_bind_text(s, 1, g->id, -1, SQLITE_STATIC);
        sqlite3_bind_int(s, 2, side);
        sqlite3_bind_blob(s, 3, g->seat_hash[side], STORE_HASH_LEN, SQLITE_STATIC);
        if (sq_step_done(s) != 0)
            return sq_abort_tx(st, NULL, "insert seat", err, errlen);
    }
    for (int i = 0; i < nmoves; i++)
        if (insert_move(st, g->id, i, &moves[i]) != 0)
            return sq_abort_tx(st, NULL, "insert move", err, errlen);
    return sq_commit(st, err, errlen);
}

/* Set a game's status (inside a transaction). */
static int set_status(sq_store *st, const char *id, int status)
{
    sqlite3_stmt *s = st->q[Q_SET_STATUS];
    sqlite3_bind_text(s, 1, id, -1, SQLITE_STATIC);
    sqlite3_bind_int(s, 2, status);
    return sq_step_done(s);
}

int sq_add_move(store *base, const char *id, int ply, const store_move *m, int status,
                       char *err, size_t errlen)
{
    sq_store *st = (sq_store *)base;
    if (sq_begin(st) != 0)
        return sq_fail(st, "begin", err, errlen);
    if (insert_move(st, id, ply, m) != 0) {
        int taken = sqlite3_errcode(st->db) == SQLITE_CONSTRAINT;
        sq_abort_tx(st, NULL, "insert move", err, errlen);
        return taken ? STORE_CONFLICT : -1;
    }
    if (set_status(st, id, status) != 0)
        return sq_abort_tx(st, NULL, "update game", err, errlen);
    return sq_commit(st, err, errlen);
}

int sq_truncate(store *base, const char *id, int ply, int status, char *err,
                       size_t errlen)
{
    sq_store *st = (sq_store *)base;
    if (sq_begin(st) != 0)
        return sq_fail(st, "begin", err, errlen);
    sqlite3_stmt *s = st->q[Q_DEL_MOVES];
    sqlite3_bind_text(s, 1, id, -1, SQLITE_STATIC);
    sqlite3_bind_int(s, 2, ply);
    if (sq_step_done(s) != 0)
        return sq_abort_tx(st, NULL, "delete moves", err, errlen);
    s = st->q[Q_SET_RESULT];
    sqlite3_bind_text(s, 1, id, -1, SQLITE_STATIC);
    sqlite3_bind_int(s, 2, status);
    sqlite3_bind_int(s, 3, -1);
    if (sq_step_done(s) != 0)
        return sq_abort_tx(st, NULL, "update game", err, errlen);
    return sq_commit(st, err, errlen);
}

int sq_set_result(store *base, const char *id, int status, int resigned, char *err,
                         size_t errlen)
{
    sq_store *st = (sq_store *)base;
    if (sq_begin(st) != 0)
        return sq_fail(st, "begin", err, errlen);
    sqlite3_stmt *s = st->q[Q_SET_RESULT];
    sqlite3_bind_text(s, 1, id, -1, SQLITE_STATIC);
    sqlite3_bind_int(s, 2, status);
    sqlite3_bind_int(s, 3, resigned);
    if (sq_step_done(s) != 0)
        return sq_abort_tx(st, NULL, "update game", err, errlen);
    return sq_commit(st, err, errlen);
}

int sq_set_rematch(store *base, const char *id, const char *rematch, char *err,
                          size_t errlen)
{
    sq_store *st = (sq_store *)base;
    if (sq_begin(st) != 0)
        return sq_fail(st, "begin", err, errlen);
    sqlite3_stmt *s = st->q[Q_SET_REMATCH];
    sqlite3_bind_text(s, 1, id, -1, SQLITE_STATIC);
    sqlite3_bind_text(s, 2, rematch, -1, SQLITE_STATIC);
    if (sq_step_done(s) != 0)
        return sq_abort_tx(st, NULL, "update game", err, errlen);
    if (sqlite3_changes(st->db) != 1) {
        sq_abort_tx(st, NULL, "update game", err, errlen);
        snprintf(err, errlen, "game %.16s: unknown, or followed by a rematch already", id);
        return STORE_CONFLICT;
    }
    return sq_commit(st, err, errlen);
}


int sq_load_game(store *base, const char *id, store_game *outp, store_row_fn row,
                        store_move_fn move, void *ctx, char *err, size_t errlen)
{
    sq_store *st = (sq_store *)base;
    store_game mine, *out = outp ? outp : &mine;
    memset(out, 0, sizeof *out);
    if (strlen(id) >= STORE_ID_LEN)
        return 0;
    strcpy(out->id, id);
    sqlite3_stmt *s = st->q[Q_GET_GAME];
    sqlite3_bind_text(s, 1, id, -1, SQLITE_TRANSIENT);
    int rc = sqlite3_step(s);
    if (rc == SQLITE_DONE) {
        sqlite3_reset(s);
        sqlite3_clear_bindings(s);
        return 0;
    }
    if (rc != SQLITE_ROW) {
        sq_fail(st, "load game", err, errlen);
        sqlite3_reset(s);
        return -1;
    }
    const unsigned char *opt = sqlite3_column_text(s, 1);
    out->options = strdup(opt ? (const char *)opt : "");
    int bad = !out->options || sq_col_text(s, 0, out->game, sizeof out->game) != 0 ||
              sq_col_text(s, 3, out->player[0], STORE_PLAYER_LEN) != 0 ||
              sq_col_text(s, 4, out->player[1], STORE_PLAYER_LEN) != 0;
    out->seed = (uint64_t)sqlite3_column_int64(s, 2);
    out->created = sqlite3_column_int64(s, 5);
    out->status = sqlite3_column_int(s, 6);
    out->resigned = sqlite3_column_int(s, 7);
    out->local = sqlite3_column_int(s, 8);
    bad = bad || sq_col_text(s, 9, out->rematch, sizeof out->rematch) != 0 ||
          sq_col_text(s, 10, out->account[0], STORE_NAME_LEN) != 0 ||
          sq_col_text(s, 11, out->account[1], STORE_NAME_LEN) != 0 ||
          sq_col_text(s, 13, out->winner, sizeof out->winner) != 0 ||
          sq_col_text(s, 14, out->end, sizeof out->end) != 0;
    out->rated = sqlite3_column_int(s, 12);
    out->clock_initial = sqlite3_column_int64(s, 15);
    out->clock_increment = sqlite3_column_int64(s, 16);
    out->clock_days = sqlite3_column_int64(s, 17);
    out->started_ms = sqlite3_column_int64(s, 18);
    out->draw_offer = sqlite3_column_int(s, 19);
    out->takeback_offer = sqlite3_column_int(s, 20);
    for (int side = 0; side < 2; side++) {
        out->rating_before[side] = sqlite3_column_double(s, 21 + side);
        out->rating_after[side] = sqlite3_column_double(s, 23 + side);
    }
    sqlite3_reset(s);
    sqlite3_clear_bindings(s);
    if (bad) {
        snprintf(err, errlen, "game %s: damaged row", id);
        store_game_done(out);
        return -1;
    }
    s = st->q[Q_GET_SEATS];
    sqlite3_bind_text(s, 1, id, -1, SQLITE_TRANSIENT);
    while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
        int side = sqlite3_column_int(s, 0);
        const void *h = sqlite3_column_blob(s, 1);
        if (side >= 0 && side <= 1 && h && sqlite3_column_bytes(s, 1) == STORE_HASH_LEN) {
            memcpy(out->seat_hash[side], h, STORE_HASH_LEN);
            out->has_seat[side] = 1;
        }
    }
    sqlite3_reset(s);
    sqlite3_clear_bindings(s);
    if (rc != SQLITE_DONE) {
        store_game_done(out);
        return sq_fail(st, "load seats", err, errlen);
    }
    if (row && row(ctx, out) != 0) {
        snprintf(err, errlen, "game %s: its row was refused", id);
        store_game_done(out);
        return -1;
    }
    s = st->q[Q_GET_MOVES];
    sqlite3_bind_text(s, 1, id, -1, SQLITE_TRANSIENT);
    int expect = 0, stop = 0;
    while (!stop && (rc = sqlite3_step(s)) == SQLITE_ROW) {
        store_move m;
        int ply = sqlite3_column_int(s, 0);
        m.text = (const char *)sqlite3_column_text(s, 1);
        m.ms = sqlite3_column_int64(s, 2);
        m.time = sqlite3_column_int64(s, 3);
        if (ply != expect || !m.text) {
            snprintf(err, errlen, "game %s: moves out of order at ply %d", id, ply);
            stop = 1;
        } else if (move && move(ctx, ply, &m) != 0) {
            snprintf(err, errlen, "game %s: move %d (%s) does not replay", id, ply, m.text);
            stop = 1;
        }
        expect++;
    }
    sqlite3_reset(s);
    sqlite3_clear_bindings(s);
    if (stop || rc != SQLITE_DONE) {
        if (!stop)
            sq_fail(st, "load moves", err, errlen);
        store_game_done(out);
        return -1;
    }
    if (!outp)
        store_game_done(out);
    return 1;
}

int sq_each_unfinished(store *base, store_id_fn fn, void *ctx, char *err, size_t errlen)
{
    sq_store *st = (sq_store *)base;
    /* Collect first: fn may use the store. */
    sqlite3_stmt *s = st->q[Q_UNFINISHED];
    char (*ids)[STORE_ID_LEN] = NULL;
    size_t n = 0, cap = 0;
    int rc;
    while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
        const unsigned char *t = sqlite3_column_text(s, 0);
        if (!t || strlen((const char *)t) >= STORE_ID_LEN)
            continue;
        if (n == cap) {
            size_t nc = cap ? cap * 2 : 64;
            void *p = realloc(ids, nc * sizeof *ids);
            if (!p) {
                free(ids);
                sqlite3_reset(s);
                snprintf(err, errlen, "out of memory");
                return -1;
            }
            ids = p;
            cap = nc;
        }
        strcpy(ids[n++], (const char *)t);
    }
    sqlite3_reset(s);
    if (rc != SQLITE_DONE) {
        free(ids);
        return sq_fail(st, "list games", err, errlen);
    }
    for (size_t i = 0; i < n; i++)
        fn(ctx, ids[i]);
    free(ids);
    return 0;
}
