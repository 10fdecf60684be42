/*
 * store_sqlite_tour.c — the SQLite backend's tournaments: a tournament, its players and its games.
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

/* ---- tournaments (SPEC "Tournaments") ---- */

int sq_create_tour(store *base, const store_tour *t, char *err, size_t errlen)
{
    sq_store *st = (sq_store *)base;
    return sq_write1(st,
                  sq_bind(st, Q_INS_TOUR, "tttttiiiitiiiiitt", t->id, t->name, t->game, t->options,
                       t->kind, (int64_t)t->rated, t->initial, t->increment, t->days, t->creator,
                       (int64_t)t->status, t->starts, t->ends, t->minutes, t->created, t->repeat,
                       t->previous),
                  1, "insert tournament", err, errlen);
}

int sq_set_tour(store *base, const char *id, int from, int to, int64_t starts,
                       int64_t ends, char *err, size_t errlen)
{
    sq_store *st = (sq_store *)base;
    if (sq_write1(st, sq_bind(st, Q_SET_TOUR, "tiiii", id, (int64_t)from, (int64_t)to, starts, ends), 1,
               "tournament status", err, errlen) == 0)
        return 0;
    return strstr(err, "nothing to change") ? STORE_CONFLICT : -1;
}

/* A tournament's row (the columns of Q_GET_TOUR, Q_ALL_TOURS, Q_OPEN_TOURS). */
static int tour_row(sqlite3_stmt *s, store_tour *t)
{
    memset(t, 0, sizeof *t);
    if (sq_col_text(s, 0, t->id, sizeof t->id) != 0 || sq_col_text(s, 1, t->name, sizeof t->name) != 0 ||
        sq_col_text(s, 2, t->game, sizeof t->game) != 0 ||
        sq_col_text(s, 3, t->options, sizeof t->options) != 0 ||
        sq_col_text(s, 4, t->kind, sizeof t->kind) != 0 ||
        sq_col_text(s, 9, t->creator, sizeof t->creator) != 0)
        return -1;
    t->rated = sqlite3_column_int(s, 5);
    t->initial = sqlite3_column_int64(s, 6);
    t->increment = sqlite3_column_int64(s, 7);
    t->days = sqlite3_column_int64(s, 8);
    t->status = sqlite3_column_int(s, 10);
    t->starts = sqlite3_column_int64(s, 11);
    t->ends = sqlite3_column_int64(s, 12);
    t->minutes = sqlite3_column_int64(s, 13);
    t->created = sqlite3_column_int64(s, 14);
    t->players = sqlite3_column_int(s, 15);
    if (sq_col_text(s, 16, t->repeat, sizeof t->repeat) != 0 ||
        sq_col_text(s, 17, t->previous, sizeof t->previous) != 0)
        return -1;
    return 0;
}

int sq_get_tour(store *base, const char *id, store_tour *out, char *err, size_t errlen)
{
    sq_store *st = (sq_store *)base;
    sqlite3_stmt *s = sq_bind(st, Q_GET_TOUR, "t", id);
    int rc = sq_read1(st, s, "load tournament", err, errlen);
    if (rc != 1)
        return rc;
    rc = tour_row(s, out) == 0 ? 1 : -1;
    sq_done1(s);
    if (rc < 0)
        snprintf(err, errlen, "load tournament: a value too long");
    return rc;
}

int sq_each_tour(store *base, int unfinished, int limit, store_tour_fn fn, void *ctx,
                        char *err, size_t errlen)
{
    sq_store *st = (sq_store *)base;
    sqlite3_stmt *s = sq_bind(st, unfinished ? Q_OPEN_TOURS : Q_ALL_TOURS, "i", (int64_t)limit);
    int rc, stop = 0;
    while (!stop && (rc = sqlite3_step(s)) == SQLITE_ROW) {
        store_tour t;
        if (tour_row(s, &t) == 0)
            stop = fn(ctx, &t);
    }
    sq_done1(s);
    if (!stop && rc != SQLITE_DONE)
        return sq_fail(st, "list tournaments", err, errlen);
    return 0;
}

int sq_count_tours(store *base, const char *creator, int64_t since, char *err,
                          size_t errlen)
{
    sq_store *st = (sq_store *)base;
    sqlite3_stmt *s = sq_bind(st, Q_COUNT_TOURS, "ti", creator, since);
    if (sq_read1(st, s, "count tournaments", err, errlen) != 1)
        return -1;
    int n = sqlite3_column_int(s, 0);
    sq_done1(s);
    return n;
}

int sq_set_tour_player(store *base, const char *id, const store_tour_player *p, char *err,
                              size_t errlen)
{
    sq_store *st = (sq_store *)base;
    return sq_write1(st,
                  sq_bind(st, Q_SET_TOUR_PLAYER, "ttdiiiii", id, p->name, p->rating,
                       (int64_t)p->withdrawn, (int64_t)p->division, (int64_t)p->seed, p->joined,
                       (int64_t)p->once),
                  1, "tournament player", err, errlen);
}

int sq_each_tour_player(store *base, const char *id, store_tour_player_fn fn, void *ctx,
                               char *err, size_t errlen)
{
    sq_store *st = (sq_store *)base;
    sqlite3_stmt *s = sq_bind(st, Q_TOUR_PLAYERS, "t", id);
    int rc, stop = 0;
    while (!stop && (rc = sqlite3_step(s)) == SQLITE_ROW) {
        store_tour_player p;
        memset(&p, 0, sizeof p);
        if (sq_col_text(s, 0, p.name, sizeof p.name) != 0)
            continue;
        p.rating = sqlite3_column_double(s, 1);
        p.withdrawn = sqlite3_column_int(s, 2);
        p.division = sqlite3_column_int(s, 3);
        p.seed = sqlite3_column_int(s, 4);
        p.joined = sqlite3_column_int64(s, 5);
        p.once = sqlite3_column_int(s, 6);
        stop = fn(ctx, &p);
    }
    sq_done1(s);
    if (!stop && rc != SQLITE_DONE)
        return sq_fail(st, "list tournament players", err, errlen);
    return 0;
}

int sq_add_tour_game(store *base, const char *id, const store_tour_game *g, char *err,
                            size_t errlen)
{
    sq_store *st = (sq_store *)base;
    if (sq_write1(st,
               sq_bind(st, Q_INS_TOUR_GAME, "tittti", id, (int64_t)g->seq, g->game, g->white,
                    g->black, (int64_t)g->division),
               1, "tournament game", err, errlen) == 0)
        return 0;
    char e2[64];
    sqlite3_stmt *s = sq_bind(st, Q_TOUR_GAME_AT, "ti", id, (int64_t)g->seq);
    int found = sq_read1(st, s, "tournament game", e2, sizeof e2);
    if (found == 1)
        sq_done1(s);
    return found == 1 ? STORE_CONFLICT : -1;
}

int sq_each_tour_game(store *base, const char *id, store_tour_game_fn fn, void *ctx,
                             char *err, size_t errlen)
{
    sq_store *st = (sq_store *)base;
    sqlite3_stmt *s = sq_bind(st, Q_TOUR_GAMES, "t", id);
    int rc, stop = 0;
    while (!stop && (rc = sqlite3_step(s)) == SQLITE_ROW) {
        store_tour_game g;
        memset(&g, 0, sizeof g);
        g.seq = sqlite3_column_int(s, 0);
        if (sq_col_text(s, 1, g.game, sizeof g.game) != 0 ||
            sq_col_text(s, 2, g.white, sizeof g.white) != 0 ||
            sq_col_text(s, 3, g.black, sizeof g.black) != 0 ||
            sq_col_text(s, 5, g.winner, sizeof g.winner) != 0 ||
            sq_col_text(s, 6, g.end, sizeof g.end) != 0)
            continue;
        g.division = sqlite3_column_int(s, 4);
        g.plies = sqlite3_column_int(s, 7);
        stop = fn(ctx, &g);
    }
    sq_done1(s);
    if (!stop && rc != SQLITE_DONE)
        return sq_fail(st, "list tournament games", err, errlen);
    return 0;
}

int sq_game_tour(store *base, const char *game, char tour[STORE_ID_LEN], char *err, size_t errlen)
{
    sq_store *st = (sq_store *)base;
    tour[0] = 0;
    sqlite3_stmt *s = sq_bind(st, Q_GAME_TOUR, "t", game);
    int found = sq_read1(st, s, "a game's tournament", err, errlen);
    if (found != 1)
        return found;
    int rc = sq_col_text(s, 0, tour, STORE_ID_LEN) == 0 ? 1 : 0;
    sq_done1(s);
    return rc;
}
