/*
 * store_sqlite_chat.c — the SQLite backend's chat lines, the block lists, each account's chat flags.
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

/* ---- chat, blocks ---- */

int sq_add_chat(store *base, const char *game, int room, const char *name,
                       const char *text, int64_t ms, char *err, size_t errlen)
{
    sq_store *st = (sq_store *)base;
    return sq_write1(st, sq_bind(st, Q_INS_CHAT, "titti", game, (int64_t)room, name, text, ms), 1,
                  "chat line", err, errlen);
}

int sq_each_chat(store *base, const char *game, int room, int limit, store_chat_fn fn,
                        void *ctx, char *err, size_t errlen)
{
    sq_store *st = (sq_store *)base;
    sqlite3_stmt *s = sq_bind(st, Q_CHAT_OF, "tii", game, (int64_t)room, (int64_t)limit);
    int rc, stop = 0;
    while (!stop && (rc = sqlite3_step(s)) == SQLITE_ROW) {
        const unsigned char *name = sqlite3_column_text(s, 0);
        const unsigned char *text = sqlite3_column_text(s, 1);
        if (name && text)
            stop = fn(ctx, (const char *)name, (const char *)text, sqlite3_column_int64(s, 2));
    }
    sq_done1(s);
    if (!stop && rc != SQLITE_DONE)
        return sq_fail(st, "list chat", err, errlen);
    return 0;
}

int sq_set_block(store *base, const char *owner, const char *name, int on,
                        int64_t created, char *err, size_t errlen)
{
    sq_store *st = (sq_store *)base;
    if (on)
        return sq_write1(st, sq_bind(st, Q_INS_BLOCK, "tti", owner, name, created), -1, "block", err,
                      errlen);
    return sq_write1(st, sq_bind(st, Q_DEL_BLOCK, "tt", owner, name), -1, "unblock", err, errlen);
}

int sq_each_block(store *base, const char *owner, store_name_fn fn, void *ctx, char *err,
                         size_t errlen)
{
    sq_store *st = (sq_store *)base;
    sqlite3_stmt *s = sq_bind(st, Q_BLOCKS_OF, "t", owner);
    int rc, stop = 0;
    while (!stop && (rc = sqlite3_step(s)) == SQLITE_ROW) {
        const unsigned char *name = sqlite3_column_text(s, 0);
        if (name)
            stop = fn(ctx, (const char *)name);
    }
    sq_done1(s);
    if (!stop && rc != SQLITE_DONE)
        return sq_fail(st, "list blocks", err, errlen);
    return 0;
}

int sq_get_chat_flags(store *base, const char *name, int *flags, char *err, size_t errlen)
{
    sq_store *st = (sq_store *)base;
    sqlite3_stmt *s = sq_bind(st, Q_GET_CHAT_FLAGS, "t", name);
    *flags = 0;
    int rc = sq_read1(st, s, "chat flags", err, errlen);
    if (rc != 1)
        return rc;
    *flags = sqlite3_column_int(s, 0);
    sq_done1(s);
    return 1;
}

int sq_set_chat_flag(store *base, const char *name, int bit, int on, char *err,
                            size_t errlen)
{
    sq_store *st = (sq_store *)base;
    return sq_write1(st, sq_bind(st, Q_SET_CHAT_FLAG, "tii", name, (int64_t)bit, (int64_t)(on ? bit : 0)),
                  1, "chat flag", err, errlen);
}
