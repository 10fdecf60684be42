/*
 * store_pg_chat.c — the PostgreSQL backend's chat lines, block lists and
 * chat flags (store_ops.add_chat ... set_chat_flag; docs/server-api.md
 * "Chat").  Prepared statements only (queries[] in store_pg.c).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libpq-fe.h>

#include "server/core/store.h"
#include "server/core/store_pg_internal.h"

int pg_add_chat(store *base, const char *game, int room, const char *name, const char *text,
                int64_t ms, char *err, size_t errlen)
{
    return pg_write1((pg_store *)base, Q_INS_CHAT, 1, "chat line", err, errlen, "titti", game,
                     (int64_t)room, name, text, ms);
}

int pg_each_chat(store *base, const char *game, int room, int limit, store_chat_fn fn, void *ctx,
                 char *err, size_t errlen)
{
    PGresult *r;
    int rc = pg_read_rows((pg_store *)base, Q_CHAT_OF, &r, "list chat", err, errlen, "tii", game,
                       (int64_t)room, (int64_t)(limit < 0 ? 0 : limit));
    if (rc != 1)
        return rc;
    int n = PQntuples(r), stop = 0;
    for (int i = 0; i < n && !stop; i++)
        stop = fn(ctx, PQgetvalue(r, i, 0), PQgetvalue(r, i, 1), pg_col_i64(r, i, 2));
    PQclear(r);
    return 0;
}

int pg_set_block(store *base, const char *owner, const char *name, int on, int64_t created,
                 char *err, size_t errlen)
{
    if (on)
        return pg_write1((pg_store *)base, Q_INS_BLOCK, -1, "block", err, errlen, "tti", owner,
                         name, created);
    return pg_write1((pg_store *)base, Q_DEL_BLOCK, -1, "unblock", err, errlen, "tt", owner, name);
}

int pg_each_block(store *base, const char *owner, store_name_fn fn, void *ctx, char *err,
                  size_t errlen)
{
    PGresult *r;
    int rc = pg_read_rows((pg_store *)base, Q_BLOCKS_OF, &r, "list blocks", err, errlen, "t", owner);
    if (rc != 1)
        return rc;
    int n = PQntuples(r), stop = 0;
    for (int i = 0; i < n && !stop; i++)
        stop = fn(ctx, PQgetvalue(r, i, 0));
    PQclear(r);
    return 0;
}

int pg_get_chat_flags(store *base, const char *name, int *flags, char *err, size_t errlen)
{
    PGresult *r;
    *flags = 0;
    int rc = pg_read_rows((pg_store *)base, Q_GET_CHAT_FLAGS, &r, "chat flags", err, errlen, "t",
                       name);
    if (rc != 1)
        return rc;
    *flags = pg_col_int(r, 0, 0);
    PQclear(r);
    return 1;
}

int pg_set_chat_flag(store *base, const char *name, int bit, int on, char *err, size_t errlen)
{
    return pg_write1((pg_store *)base, Q_SET_CHAT_FLAG, 1, "chat flag", err, errlen, "tii", name,
                     (int64_t)bit, (int64_t)(on ? bit : 0));
}
