/*
 * store_pg_tour.c — tournaments on PostgreSQL (SPEC "Tournaments"): their
 * rows, players and games.  Scores are never stored: the games' results are
 * read from the games table with the list.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "server/core/store_pg_internal.h"

int pg_create_tour(store *base, const store_tour *t, char *err, size_t errlen)
{
    return pg_write1((pg_store *)base, Q_INS_TOUR, 1, "insert tournament", err, errlen,
                     "tttttiiiitiiiiitt", t->id, t->name, t->game, t->options, t->kind,
                     (int64_t)t->rated, t->initial, t->increment, t->days, t->creator,
                     (int64_t)t->status, t->starts, t->ends, t->minutes, t->created, t->repeat,
                     t->previous);
}

int pg_set_tour(store *base, const char *id, int from, int to, int64_t starts, int64_t ends,
                char *err, size_t errlen)
{
    if (pg_write1((pg_store *)base, Q_SET_TOUR, 1, "tournament status", err, errlen, "tiiii", id,
                  (int64_t)from, (int64_t)to, starts, ends) == 0)
        return 0;
    return strstr(err, "nothing to change") ? STORE_CONFLICT : -1;
}

static int tour_row(const PGresult *r, int i, store_tour *t)
{
    memset(t, 0, sizeof *t);
    if (pg_col_text(r, i, 0, t->id, sizeof t->id) != 0 ||
        pg_col_text(r, i, 1, t->name, sizeof t->name) != 0 ||
        pg_col_text(r, i, 2, t->game, sizeof t->game) != 0 ||
        pg_col_text(r, i, 3, t->options, sizeof t->options) != 0 ||
        pg_col_text(r, i, 4, t->kind, sizeof t->kind) != 0 ||
        pg_col_text(r, i, 9, t->creator, sizeof t->creator) != 0)
        return -1;
    t->rated = pg_col_int(r, i, 5);
    t->initial = pg_col_i64(r, i, 6);
    t->increment = pg_col_i64(r, i, 7);
    t->days = pg_col_i64(r, i, 8);
    t->status = pg_col_int(r, i, 10);
    t->starts = pg_col_i64(r, i, 11);
    t->ends = pg_col_i64(r, i, 12);
    t->minutes = pg_col_i64(r, i, 13);
    t->created = pg_col_i64(r, i, 14);
    t->players = pg_col_int(r, i, 15);
    if (pg_col_text(r, i, 16, t->repeat, sizeof t->repeat) != 0 ||
        pg_col_text(r, i, 17, t->previous, sizeof t->previous) != 0)
        return -1;
    return 0;
}

int pg_get_tour(store *base, const char *id, store_tour *out, char *err, size_t errlen)
{
    PGresult *r;
    int rc = pg_read_rows((pg_store *)base, Q_GET_TOUR, &r, "load tournament", err, errlen, "t", id);
    if (rc != 1)
        return rc;
    rc = tour_row(r, 0, out) == 0 ? 1 : -1;
    PQclear(r);
    if (rc < 0)
        snprintf(err, errlen, "load tournament: a value too long");
    return rc;
}

int pg_each_tour(store *base, int unfinished, int limit, store_tour_fn fn, void *ctx, char *err,
                 size_t errlen)
{
    PGresult *r;
    int rc = pg_read_rows((pg_store *)base, unfinished ? Q_OPEN_TOURS : Q_ALL_TOURS, &r,
                  "list tournaments", err, errlen, "i", (int64_t)limit);
    if (rc != 1)
        return rc;
    int n = PQntuples(r), stop = 0;
    for (int i = 0; i < n && !stop; i++) {
        store_tour t;
        if (tour_row(r, i, &t) == 0)
            stop = fn(ctx, &t);
    }
    PQclear(r);
    return 0;
}

int pg_count_tours(store *base, const char *creator, int64_t since, char *err, size_t errlen)
{
    PGresult *r;
    if (pg_read_rows((pg_store *)base, Q_COUNT_TOURS, &r, "count tournaments", err, errlen, "ti", creator,
             since) != 1)
        return -1;
    int n = pg_col_int(r, 0, 0);
    PQclear(r);
    return n;
}

int pg_set_tour_player(store *base, const char *id, const store_tour_player *p, char *err,
                       size_t errlen)
{
    return pg_write1((pg_store *)base, Q_SET_TOUR_PLAYER, 1, "tournament player", err, errlen,
                     "ttdiiiii", id, p->name, p->rating, (int64_t)p->withdrawn,
                     (int64_t)p->division, (int64_t)p->seed, p->joined, (int64_t)p->once);
}

int pg_each_tour_player(store *base, const char *id, store_tour_player_fn fn, void *ctx,
                        char *err, size_t errlen)
{
    PGresult *r;
    int rc = pg_read_rows((pg_store *)base, Q_TOUR_PLAYERS, &r, "list tournament players", err, errlen,
                  "t", id);
    if (rc != 1)
        return rc;
    int n = PQntuples(r), stop = 0;
    for (int i = 0; i < n && !stop; i++) {
        store_tour_player p;
        memset(&p, 0, sizeof p);
        if (pg_col_text(r, i, 0, p.name, sizeof p.name) != 0)
            continue;
        p.rating = pg_col_double(r, i, 1);
        p.withdrawn = pg_col_int(r, i, 2);
        p.division = pg_col_int(r, i, 3);
        p.seed = pg_col_int(r, i, 4);
        p.joined = pg_col_i64(r, i, 5);
        p.once = pg_col_int(r, i, 6);
        stop = fn(ctx, &p);
    }
    PQclear(r);
    return 0;
}

int pg_add_tour_game(store *base, const char *id, const store_tour_game *g, char *err,
                     size_t errlen)
{
    if (pg_write1((pg_store *)base, Q_INS_TOUR_GAME, 1, "tournament game", err, errlen, "tittti",
                  id, (int64_t)g->seq, g->game, g->white, g->black, (int64_t)g->division) == 0)
        return 0;
    return strstr(err, "nothing to change") ? STORE_CONFLICT : -1;
}

int pg_each_tour_game(store *base, const char *id, store_tour_game_fn fn, void *ctx, char *err,
                      size_t errlen)
{
    PGresult *r;
    int rc = pg_read_rows((pg_store *)base, Q_TOUR_GAMES, &r, "list tournament games", err, errlen, "t",
                  id);
    if (rc != 1)
        return rc;
    int n = PQntuples(r), stop = 0;
    for (int i = 0; i < n && !stop; i++) {
        store_tour_game g;
        memset(&g, 0, sizeof g);
        g.seq = pg_col_int(r, i, 0);
        if (pg_col_text(r, i, 1, g.game, sizeof g.game) != 0 ||
            pg_col_text(r, i, 2, g.white, sizeof g.white) != 0 ||
            pg_col_text(r, i, 3, g.black, sizeof g.black) != 0 ||
            pg_col_text(r, i, 5, g.winner, sizeof g.winner) != 0 ||
            pg_col_text(r, i, 6, g.end, sizeof g.end) != 0)
            continue;
        g.division = pg_col_int(r, i, 4);
        g.plies = pg_col_int(r, i, 7);
        stop = fn(ctx, &g);
    }
    PQclear(r);
    return 0;
}

int pg_game_tour(store *base, const char *game, char tour[STORE_ID_LEN], char *err, size_t errlen)
{
    PGresult *r;
    tour[0] = 0;
    int rc = pg_read_rows((pg_store *)base, Q_GAME_TOUR, &r, "a game's tournament", err, errlen, "t",
                          game);
    if (rc != 1)
        return rc;
    int found = PQntuples(r) > 0 && pg_col_text(r, 0, 0, tour, STORE_ID_LEN) == 0;
    PQclear(r);
    return found;
}
