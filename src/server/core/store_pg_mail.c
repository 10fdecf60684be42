/*
 * store_pg_mail.c — the PostgreSQL store's e-mail: an account's address and
 * wishes, the queue of mails to send, the log of mails sent (mail.c).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libpq-fe.h>

#include "server/core/store.h"
#include "server/core/store_pg_internal.h"

int pg_mail_get(store *base, const char *name, store_mail *out, char *err, size_t errlen)
{
    PGresult *r;
    int rc = pg_read_rows((pg_store *)base, Q_MAIL_GET, &r, "load mail settings", err, errlen, "t", name);
    if (rc != 1)
        return rc;
    memset(out, 0, sizeof *out);
    snprintf(out->name, sizeof out->name, "%s", name);
    int bad = pg_col_text(r, 0, 0, out->address, sizeof out->address) != 0 ||
              pg_col_text(r, 0, 2, out->verify_hash, sizeof out->verify_hash) != 0 ||
              pg_col_text(r, 0, 8, out->unsub, sizeof out->unsub) != 0;
    out->verified = pg_col_int(r, 0, 1);
    out->verify_at = pg_col_i64(r, 0, 3);
    out->verify_count = pg_col_int(r, 0, 4);
    out->verify_since = pg_col_i64(r, 0, 5);
    out->kinds = pg_col_int(r, 0, 6);
    out->digest = pg_col_int(r, 0, 7);
    PQclear(r);
    if (bad) {
        snprintf(err, errlen, "mail settings: damaged row");
        return -1;
    }
    return 1;
}

int pg_mail_put(store *base, const store_mail *m, char *err, size_t errlen)
{
    return pg_write1((pg_store *)base, Q_MAIL_PUT, 1, "mail settings", err, errlen, "ttitiiiiit",
                     m->name, m->address, (int64_t)m->verified, m->verify_hash, m->verify_at,
                     (int64_t)m->verify_count, m->verify_since, (int64_t)m->kinds,
                     (int64_t)m->digest, m->unsub);
}

int pg_mail_find(store *base, int which, const char *key, char name[STORE_NAME_LEN], char *err,
                 size_t errlen)
{
    PGresult *r;
    int rc = pg_read_rows((pg_store *)base, which ? Q_MAIL_VERIFY : Q_MAIL_UNSUB, &r, "find mail token",
                  err, errlen, "t", key);
    if (rc != 1)
        return rc;
    int bad = pg_col_text(r, 0, 0, name, STORE_NAME_LEN) != 0;
    PQclear(r);
    if (bad) {
        snprintf(err, errlen, "mail settings: damaged row");
        return -1;
    }
    return 1;
}

int pg_mail_add(store *base, const store_mail_item *it, int max, char *err, size_t errlen)
{
    pg_store *st = (pg_store *)base;
    if (pg_wbegin(st, err, errlen) != 0)
        return -1;
    PGresult *r = NULL;
    int rc = pg_run(st, Q_MAIL_ADD, &r, "queue mail", err, errlen, "titiii", it->name,
                    (int64_t)it->kind, it->arg, it->created, it->due, (int64_t)max);
    long n = rc == 0 ? pg_changed(r) : 0;
    PQclear(r);
    if (rc == BAD_TEXT)
        rc = -1;
    if (pg_wend(st, rc, err, errlen) != 0)
        return -1;
    return n > 0;
}

int pg_mail_due(store *base, int64_t now, int limit, store_id_fn fn, void *ctx, char *err,
                size_t errlen)
{
    PGresult *r;
    int rc = pg_read_rows((pg_store *)base, Q_MAIL_DUE, &r, "mail due", err, errlen, "ii", now,
                  (int64_t)limit);
    if (rc != 1)
        return rc;
    for (int i = 0; i < PQntuples(r); i++)
        fn(ctx, PQgetvalue(r, i, 0));
    PQclear(r);
    return 0;
}

int pg_mail_items(store *base, const char *name, store_mail_item_fn fn, void *ctx, char *err,
                  size_t errlen)
{
    PGresult *r;
    int rc = pg_read_rows((pg_store *)base, Q_MAIL_ITEMS, &r, "mail items", err, errlen, "t", name);
    if (rc != 1)
        return rc;
    for (int i = 0; i < PQntuples(r); i++) {
        store_mail_item it;
        memset(&it, 0, sizeof it);
        it.id = pg_col_i64(r, i, 0);
        if (pg_col_text(r, i, 1, it.name, sizeof it.name) != 0 ||
            pg_col_text(r, i, 3, it.arg, sizeof it.arg) != 0)
            continue;
        it.kind = pg_col_int(r, i, 2);
        it.created = pg_col_i64(r, i, 4);
        it.due = pg_col_i64(r, i, 5);
        it.tries = pg_col_int(r, i, 6);
        if (fn(ctx, &it))
            break;
    }
    PQclear(r);
    return 0;
}

int pg_mail_drop(store *base, int64_t id, char *err, size_t errlen)
{
    return pg_write1((pg_store *)base, Q_MAIL_DROP, -1, "drop mail", err, errlen, "i", id);
}

int pg_mail_defer(store *base, int64_t id, int64_t due, int tries, char *err, size_t errlen)
{
    return pg_write1((pg_store *)base, Q_MAIL_DEFER, -1, "defer mail", err, errlen, "iii", id, due,
                     (int64_t)tries);
}

int pg_mail_log(store *base, const char *name, int64_t now, char *err, size_t errlen)
{
    return pg_write1((pg_store *)base, Q_MAIL_LOG, 1, "mail log", err, errlen, "tii", name, now,
                     now - 2 * 86400);
}

int pg_mail_count(store *base, const char *name, int64_t since, char *err, size_t errlen)
{
    PGresult *r;
    int rc = pg_read_rows((pg_store *)base, Q_MAIL_COUNT, &r, "mail count", err, errlen, "ti", name, since);
    if (rc != 1)
        return rc;
    int n = (int)pg_col_i64(r, 0, 0);
    PQclear(r);
    return n;
}
