/*
 * store_pg_games.c — the PostgreSQL store's games: created with their moves,
 * a move, a take-back, results, a game read back, the unfinished and
 * unclaimed ones, a game's stamp.
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

/* ---- games ---- */

static int insert_move(pg_store *st, const char *id, int ply, const store_move *m, char *err,
                       size_t errlen)
{
    return pg_run(st, Q_INS_MOVE, NULL, "insert move", err, errlen, "titii", id, (int64_t)ply,
               m->text, m->ms, m->time);
}

int pg_create_game(store *base, const store_game *g, const store_move *moves, int nmoves,
                          char *err, size_t errlen)
{
    pg_store *st = (pg_store *)base;
    if (pg_wbegin(st, err, errlen) != 0)
        return -1;
    int rc = pg_run(st, Q_INS_GAME, NULL, "insert game", err, errlen, "tttittiiiittiiiii", g->id,
                 g->game, g->options ? g->options : "", (int64_t)g->seed, g->player[0],
                 g->player[1], g->created, (int64_t)g->status, (int64_t)g->resigned,
                 (int64_t)(g->local != 0), g->account[0], g->account[1], (int64_t)(g->rated != 0),
                 g->clock_initial, g->clock_increment, g->clock_days, g->started_ms);
    for (int side = 0; rc == 0 && side < 2; side++)
        if (g->has_seat[side])
            rc = pg_run(st, Q_INS_SEAT, NULL, "insert seat", err, errlen, "tih", g->id,
                     (int64_t)side, g->seat_hash[side]);
    for (int i = 0; rc == 0 && i < nmoves; i++)
        rc = insert_move(st, g->id, i, &moves[i], err, errlen);
    /* A game already there is an error, not a conflict (SQLite's answer). */
    return pg_wend(st, rc == 0 ? 0 : -1, err, errlen);
}

int pg_add_move(store *base, const char *id, int ply, const store_move *m, int status,
                       char *err, size_t errlen)
{
    pg_store *st = (pg_store *)base;
    if (pg_wbegin(st, err, errlen) != 0)
        return -1;
    /* A ply taken already (or an unknown game): a constraint, a conflict. */
    PGresult *r = NULL;
    int rc = pg_run(st, Q_ADD_MOVE, &r, "insert move", err, errlen, "titiii", id, (int64_t)ply,
                 m->text, m->ms, m->time, (int64_t)status);
    int64_t stamp = rc == 0 && r && PQntuples(r) == 1 ? pg_col_i64(r, 0, 0) : 0;
    int64_t before = rc == 0 && r && PQntuples(r) == 1 ? pg_col_i64(r, 0, 1) : 0;
    if (r)
        PQclear(r);
    rc = pg_wend(st, rc, err, errlen);
    if (rc == 0 && stamp && strlen(id) < sizeof st->stamp_id) {
        strcpy(st->stamp_id, id);
        st->stamp_val = stamp;
        st->stamp_before = before;
        st->stamp_ok = 1;
    }
    return rc;
}

int pg_move_base(store *base, const char *id, int64_t *before)
{
    pg_store *st = (pg_store *)base;
    if (!st->in_tx || !st->stamp_ok || strcmp(st->stamp_id, id) != 0 || !st->stamp_before)
        return 0;
    *before = st->stamp_before;
    return 1;
}

int pg_truncate(store *base, const char *id, int ply, int status, char *err,
                       size_t errlen)
{
    pg_store *st = (pg_store *)base;
    if (pg_wbegin(st, err, errlen) != 0)
        return -1;
    int rc = pg_run(st, Q_DEL_MOVES, NULL, "delete moves", err, errlen, "ti", id, (int64_t)ply);
    if (rc == 0)
        rc = pg_run(st, Q_SET_RESULT, NULL, "update game", err, errlen, "tii", id, (int64_t)status,
                 (int64_t)-1);
    return pg_wend(st, rc == 0 ? 0 : -1, err, errlen);
}

int pg_set_result(store *base, const char *id, int status, int resigned, char *err,
                         size_t errlen)
{
    return pg_write1((pg_store *)base, Q_SET_RESULT, -1, "update game", err, errlen, "tii", id,
                  (int64_t)status, (int64_t)resigned);
}

int pg_set_rematch(store *base, const char *id, const char *rematch, char *err,
                          size_t errlen)
{
    pg_store *st = (pg_store *)base;
    if (pg_wbegin(st, err, errlen) != 0)
        return -1;
    PGresult *r = NULL;
    int rc = pg_run(st, Q_SET_REMATCH, &r, "update game", err, errlen, "tt", id, rematch);
    if (rc == 0 && pg_changed(r) != 1) {
        snprintf(err, errlen, "game %.16s: unknown, or followed by a rematch already", id);
        rc = STORE_CONFLICT;
    }
    PQclear(r);
    return pg_wend(st, rc == 0 || rc == STORE_CONFLICT ? rc : -1, err, errlen);
}

int pg_load_game(store *base, const char *id, store_game *outp, store_row_fn row,
                        store_move_fn move, void *ctx, char *err, size_t errlen)
{
    pg_store *st = (pg_store *)base;
    store_game mine, *out = outp ? outp : &mine;
    memset(out, 0, sizeof *out);
    if (strlen(id) >= STORE_ID_LEN)
        return 0;
    strcpy(out->id, id);
    PGresult *r = NULL;
    int rc = pg_run(st, Q_GET_GAME, &r, "load game", err, errlen, "t", id);
    if (rc == BAD_TEXT)
        return 0;
    if (rc != 0)
        return -1;
    if (PQntuples(r) == 0) {
        PQclear(r);
        return 0;
    }
    out->options = PQgetisnull(r, 0, 1) ? NULL : strdup(PQgetvalue(r, 0, 1));
    int bad = !out->options || pg_col_text(r, 0, 0, out->game, sizeof out->game) != 0 ||
              pg_col_text(r, 0, 3, out->player[0], STORE_PLAYER_LEN) != 0 ||
              pg_col_text(r, 0, 4, out->player[1], STORE_PLAYER_LEN) != 0 ||
              pg_col_text(r, 0, 9, out->rematch, sizeof out->rematch) != 0 ||
              pg_col_text(r, 0, 10, out->account[0], STORE_NAME_LEN) != 0 ||
              pg_col_text(r, 0, 11, out->account[1], STORE_NAME_LEN) != 0 ||
              pg_col_text(r, 0, 13, out->winner, sizeof out->winner) != 0 ||
              pg_col_text(r, 0, 14, out->end, sizeof out->end) != 0;
    out->seed = (uint64_t)pg_col_i64(r, 0, 2);
    out->created = pg_col_i64(r, 0, 5);
    out->status = pg_col_int(r, 0, 6);
    out->resigned = pg_col_int(r, 0, 7);
    out->local = pg_col_int(r, 0, 8);
    out->rated = pg_col_int(r, 0, 12);
    out->clock_initial = pg_col_i64(r, 0, 15);
    out->clock_increment = pg_col_i64(r, 0, 16);
    out->clock_days = pg_col_i64(r, 0, 17);
    out->started_ms = pg_col_i64(r, 0, 18);
    out->draw_offer = pg_col_int(r, 0, 19);
    out->takeback_offer = pg_col_int(r, 0, 20);
    out->stamp = pg_col_i64(r, 0, 23);
    for (int side = 0; side < 2; side++) {
        out->rating_before[side] = pg_col_double(r, 0, 24 + side);
        out->rating_after[side] = pg_col_double(r, 0, 26 + side);
    }
    for (int side = 0; side < 2; side++)
        if (!PQgetisnull(r, 0, 21 + side)) {
            if (pg_col_hash(r, 0, 21 + side, out->seat_hash[side]) != 0)
                bad = 1;
            else
                out->has_seat[side] = 1;
        }
    PQclear(r);
    if (bad) {
        snprintf(err, errlen, "game %s: damaged row", id);
        store_game_done(out);
        return -1;
    }
    if (row && row(ctx, out) != 0) {
        snprintf(err, errlen, "game %s: its row was refused", id);
        store_game_done(out);
        return -1;
    }
    if (pg_run(st, Q_GET_MOVES, &r, "load moves", err, errlen, "t", id) != 0) {
        store_game_done(out);
        return -1;
    }
    int n = PQntuples(r), stop = 0;
    for (int i = 0; i < n && !stop; i++) {
        store_move m;
        int ply = pg_col_int(r, i, 0);
        m.text = PQgetvalue(r, i, 1);
        m.ms = pg_col_i64(r, i, 2);
        m.time = pg_col_i64(r, i, 3);
        if (ply != i) {
            snprintf(err, errlen, "game %s: moves out of order at ply %d", id, ply);
            stop = 1;
        } else if (move && move(ctx, ply, &m) != 0) {
            snprintf(err, errlen, "game %s: move %d (%s) does not replay", id, ply, m.text);
            stop = 1;
        }
    }
    PQclear(r);
    if (stop) {
        store_game_done(out);
        return -1;
    }
    if (!outp)
        store_game_done(out);
    return 1;
}

/* The ids in column 0 of a result, each handed to fn (the result is ours:
 * fn may use the store). */
void pg_each_id(PGresult *r, int max, store_id_fn fn, void *ctx)
{
    int n = PQntuples(r);
    for (int i = 0; i < n && i < max; i++) {
        char id[STORE_ID_LEN];
        if (pg_col_text(r, i, 0, id, sizeof id) == 0)
            fn(ctx, id);
    }
}

int pg_each_unfinished(store *base, store_id_fn fn, void *ctx, char *err, size_t errlen)
{
    PGresult *r = NULL;
    if (pg_run((pg_store *)base, Q_UNFINISHED, &r, "list games", err, errlen, "") != 0)
        return -1;
    pg_each_id(r, PQntuples(r), fn, ctx);
    PQclear(r);
    return 0;
}

int pg_each_unclaimed(store *base, const char *prefix, store_id_fn fn, void *ctx, char *err,
                             size_t errlen)
{
    PGresult *r = NULL;
    if (pg_run((pg_store *)base, Q_UNCLAIMED, &r, "list unclaimed games", err, errlen, "t", prefix) != 0)
        return -1;
    pg_each_id(r, PQntuples(r), fn, ctx);
    PQclear(r);
    return 0;
}

int pg_game_stamp(store *base, const char *id, int64_t *stamp, char *err, size_t errlen)
{
    pg_store *st = (pg_store *)base;
    if (st->in_tx && st->stamp_ok && strcmp(st->stamp_id, id) == 0) {
        *stamp = st->stamp_val;   /* the move just written returned it */
        return 1;
    }
    PGresult *r = NULL;
    int rc = pg_run(st, Q_GAME_STAMP, &r, "game stamp", err, errlen, "t", id);
    if (rc == BAD_TEXT)
        return 0;
    if (rc != 0)
        return -1;
    int found = PQntuples(r) == 1;
    if (found)
        *stamp = pg_col_i64(r, 0, 0);
    PQclear(r);
    return found;
}
