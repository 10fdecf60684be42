/*
 * store.c — the storage interface (store.h): the backend a --db argument
 * names, and the calls that go through its operations table.
 */
#include <stdlib.h>
#include <string.h>

#include "server/core/store.h"

/* A connection URI names PostgreSQL; anything else is an SQLite file. */
const store_ops *store_backend(const char *db)
{
    if (strncmp(db, "postgresql://", 13) == 0 || strncmp(db, "postgres://", 11) == 0)
        return &store_pg_ops;
    return &store_sqlite_ops;
}

void store_db_label(const char *db, char *out, size_t outlen)
{
    if (outlen == 0)
        return;
    out[0] = 0;
    size_t o = 0;
    const char *p = db, *scheme = strstr(db, "://");
    const char *auth = scheme ? scheme + 3 : NULL;
    size_t alen = auth ? strcspn(auth, "/?#") : 0;
    const char *at = NULL;
    for (size_t i = 0; auth && i < alen; i++)
        if (auth[i] == '@')
            at = auth + i;   /* the last '@' ends the user part */
    const char *colon = at ? memchr(auth, ':', (size_t)(at - auth)) : NULL;
    int masking = 0;
    while (*p && o + 1 < outlen) {
        if (colon && p == colon + 1) {
            p = at;                       /* skip the password */
            for (const char *m = "***"; *m && o + 1 < outlen; m++)
                out[o++] = *m;
            continue;
        }
        /* A password= parameter (after ? or &): its value masked. */
        if (auth && p > db && (p[-1] == '?' || p[-1] == '&') && strncmp(p, "password=", 9) == 0) {
            for (int i = 0; i < 9 && o + 1 < outlen; i++)
                out[o++] = *p++;
            masking = 1;
            for (const char *m = "***"; *m && o + 1 < outlen; m++)
                out[o++] = *m;
            continue;
        }
        if (masking && *p != '&' && *p != '#') {
            p++;
            continue;
        }
        masking = 0;
        out[o++] = *p++;
    }
    out[o] = 0;
}

store *store_open(const char *db, char *err, size_t errlen)
{
    return store_backend(db)->open(db, err, errlen);
}

void store_close(store *st)
{
    if (st)
        st->ops->close(st);
}

int store_pending(const store *st) { return st->ops->pending(st); }

int store_flush(store *st, char *err, size_t errlen) { return st->ops->flush(st, err, errlen); }

void store_discard(store *st) { st->ops->discard(st); }

int store_create_game(store *st, const store_game *g, const store_move *moves, int nmoves,
                      char *err, size_t errlen)
{
    return st->ops->create_game(st, g, moves, nmoves, err, errlen);
}

int store_add_move(store *st, const char *id, int ply, const store_move *m, int status,
                   char *err, size_t errlen)
{
    return st->ops->add_move(st, id, ply, m, status, err, errlen);
}

int store_truncate(store *st, const char *id, int ply, int status, char *err, size_t errlen)
{
    return st->ops->truncate(st, id, ply, status, err, errlen);
}

int store_set_result(store *st, const char *id, int status, int resigned, char *err,
                     size_t errlen)
{
    return st->ops->set_result(st, id, status, resigned, err, errlen);
}

int store_set_rematch(store *st, const char *id, const char *rematch, char *err, size_t errlen)
{
    return st->ops->set_rematch(st, id, rematch, err, errlen);
}

int store_load_game(store *st, const char *id, store_game *out, store_row_fn row,
                    store_move_fn move, void *ctx, char *err, size_t errlen)
{
    return st->ops->load_game(st, id, out, row, move, ctx, err, errlen);
}

void store_game_done(store_game *g)
{
    free(g->options);
    g->options = NULL;
}

int store_each_unfinished(store *st, store_id_fn fn, void *ctx, char *err, size_t errlen)
{
    return st->ops->each_unfinished(st, fn, ctx, err, errlen);
}

int store_shared(const store *st) { return st->ops->listen != NULL; }

int store_notify(store *st, const char *channel, const char *payload, char *err, size_t errlen)
{
    return st->ops->notify ? st->ops->notify(st, channel, payload, err, errlen) : 0;
}

int store_try_claim(store *st, const char *key, char *err, size_t errlen)
{
    return st->ops->try_claim ? st->ops->try_claim(st, key, err, errlen) : 1;
}

void store_release_claim(store *st, const char *key)
{
    if (st->ops->release_claim)
        st->ops->release_claim(st, key);
}

void store_cut_ua(const char *ua, char out[STORE_UA_LEN])
{
    size_t i = 0;
    for (; ua && ua[i] && i + 1 < STORE_UA_LEN; i++) {
        unsigned char c = (unsigned char)ua[i];
        out[i] = c >= 0x20 && c < 0x7f ? (char)c : '?';
    }
    out[i] = 0;
}
