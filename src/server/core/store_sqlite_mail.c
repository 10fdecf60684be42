/*
 * store_sqlite_mail.c — the SQLite backend's e-mail: an account's address and settings, the queue of items, the log of mails sent.
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

/* ---- e-mail ---- */

int sq_mail_get(store *base, const char *name, store_mail *out, char *err, size_t errlen)
{
    sq_store *st = (sq_store *)base;
    sqlite3_stmt *s = sq_bind(st, Q_MAIL_GET, "t", name);
    int rc = sq_read1(st, s, "load mail settings", err, errlen);
    if (rc != 1)
        return rc;
    memset(out, 0, sizeof *out);
    snprintf(out->name, sizeof out->name, "%s", name);
    int bad = sq_col_text(s, 0, out->address, sizeof out->address) != 0 ||
              sq_col_text(s, 2, out->verify_hash, sizeof out->verify_hash) != 0 ||
              sq_col_text(s, 8, out->unsub, sizeof out->unsub) != 0;
    out->verified = sqlite3_column_int(s, 1);
    out->verify_at = sqlite3_column_int64(s, 3);
    out->verify_count = sqlite3_column_int(s, 4);
    out->verify_since = sqlite3_column_int64(s, 5);
    out->kinds = sqlite3_column_int(s, 6);
    out->digest = sqlite3_column_int(s, 7);
    sq_done1(s);
    if (bad) {
        snprintf(err, errlen, "mail settings: damaged row");
        return -1;
    }
    return 1;
}

int sq_mail_put(store *base, const store_mail *m, char *err, size_t errlen)
{
    sq_store *st = (sq_store *)base;
    return sq_write1(st, sq_bind(st, Q_MAIL_PUT, "ttitiiiiit", m->name, m->address, (int64_t)m->verified,
                           m->verify_hash, m->verify_at, (int64_t)m->verify_count, m->verify_since,
                           (int64_t)m->kinds, (int64_t)m->digest, m->unsub),
                  1, "mail settings", err, errlen);
}

int sq_mail_find(store *base, int which, const char *key, char name[STORE_NAME_LEN],
                        char *err, size_t errlen)
{
    sq_store *st = (sq_store *)base;
    sqlite3_stmt *s = sq_bind(st, which ? Q_MAIL_VERIFY : Q_MAIL_UNSUB, "t", key);
    int rc = sq_read1(st, s, "find mail token", err, errlen);
    if (rc != 1)
        return rc;
    int bad = sq_col_text(s, 0, name, STORE_NAME_LEN) != 0;
    sq_done1(s);
    if (bad) {
        snprintf(err, errlen, "mail settings: damaged row");
        return -1;
    }
    return 1;
}

int sq_mail_add(store *base, const store_mail_item *it, int max, char *err, size_t errlen)
{
    sq_store *st = (sq_store *)base;
    int rc = sq_write1(st, sq_bind(st, Q_MAIL_ADD, "titiii", it->name, (int64_t)it->kind, it->arg,
                             it->created, it->due, (int64_t)max),
                    -1, "queue mail", err, errlen);
    return rc != 0 ? -1 : sqlite3_changes(st->db) > 0;
}

int sq_mail_due(store *base, int64_t now, int limit, store_id_fn fn, void *ctx, char *err,
                       size_t errlen)
{
    sq_store *st = (sq_store *)base;
    sqlite3_stmt *s = sq_bind(st, Q_MAIL_DUE, "ii", now, (int64_t)limit);
    int rc;
    while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
        const unsigned char *t = sqlite3_column_text(s, 0);
        if (t)
            fn(ctx, (const char *)t);
    }
    sq_done1(s);
    return rc == SQLITE_DONE ? 0 : sq_fail(st, "mail due", err, errlen);
}

int sq_mail_items(store *base, const char *name, store_mail_item_fn fn, void *ctx,
                         char *err, size_t errlen)
{
    sq_store *st = (sq_store *)base;
    sqlite3_stmt *s = sq_bind(st, Q_MAIL_ITEMS, "t", name);
    int rc, stop = 0;
    while (!stop && (rc = sqlite3_step(s)) == SQLITE_ROW) {
        store_mail_item it;
        memset(&it, 0, sizeof it);
        it.id = sqlite3_column_int64(s, 0);
        if (sq_col_text(s, 1, it.name, sizeof it.name) != 0 ||
            sq_col_text(s, 3, it.arg, sizeof it.arg) != 0)
            continue;
        it.kind = sqlite3_column_int(s, 2);
        it.created = sqlite3_column_int64(s, 4);
        it.due = sqlite3_column_int64(s, 5);
        it.tries = sqlite3_column_int(s, 6);
        stop = fn(ctx, &it);
    }
    sq_done1(s);
    return stop || rc == SQLITE_DONE ? 0 : sq_fail(st, "mail items", err, errlen);
}

int sq_mail_drop(store *base, int64_t id, char *err, size_t errlen)
{
    sq_store *st = (sq_store *)base;
    return sq_write1(st, sq_bind(st, Q_MAIL_DROP, "i", id), -1, "drop mail", err, errlen);
}

int sq_mail_defer(store *base, int64_t id, int64_t due, int tries, char *err, size_t errlen)
{
    sq_store *st = (sq_store *)base;
    return sq_write1(st, sq_bind(st, Q_MAIL_DEFER, "iii", id, due, (int64_t)tries), -1, "defer mail",
                  err, errlen);
}

int sq_mail_log(store *base, const char *name, int64_t now, char *err, size_t errlen)
{
    sq_store *st = (sq_store *)base;
    if (sq_write1(st, sq_bind(st, Q_MAIL_PRUNE, "ti", name, now - 2 * 86400), -1, "mail log", err,
               errlen) != 0)
        return -1;
    return sq_write1(st, sq_bind(st, Q_MAIL_LOG, "ti", name, now), 1, "mail log", err, errlen);
}

int sq_mail_count(store *base, const char *name, int64_t since, char *err, size_t errlen)
{
    sq_store *st = (sq_store *)base;
    sqlite3_stmt *s = sq_bind(st, Q_MAIL_COUNT, "ti", name, since);
    int rc = sq_read1(st, s, "mail count", err, errlen);
    if (rc != 1)
        return rc;
    int n = sqlite3_column_int(s, 0);
    sq_done1(s);
    return n;
}
