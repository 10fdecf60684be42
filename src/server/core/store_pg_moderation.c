/*
 * store_pg_moderation.c — the PostgreSQL backend's moderation: accounts
 * closed or banned, players' reports, the operator's audit log, one's chat
 * lines (the export) and retention (store_ops.close_account ... prune).
 * Prepared statements only (queries[] in store_pg.c).
 */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libpq-fe.h>

#include "server/core/store.h"
#include "server/core/store_pg_internal.h"

/* The account's flag, then (v nonzero) the end of its sessions: one operation. */
static int account_write(pg_store *st, int q, const char *name, int64_t v, const char *what,
                         char *err, size_t errlen)
{
    if (pg_wbegin(st, err, errlen) != 0)
        return -1;
    PGresult *r = NULL;
    int rc = pg_run(st, q, &r, what, err, errlen, "ti", name, v);
    if (rc == 0 && pg_changed(r) != 1) {
        rc = -1;
        pg_set_err(st, err, errlen, what, "no such account");
    }
    PQclear(r);
    r = NULL;
    if (rc == 0 && v) {
        rc = pg_run(st, Q_END_SESSIONS, &r, "end sessions", err, errlen, "t", name);
        PQclear(r);
    }
    return pg_wend(st, rc == 0 ? 0 : -1, err, errlen);
}

int pg_close_account(store *base, const char *name, int64_t at, char *err, size_t errlen)
{
    return account_write((pg_store *)base, Q_CLOSE_ACCOUNT, name, at > 0 ? at : 1,
                         "close account", err, errlen);
}

int pg_set_banned(store *base, const char *name, int on, char *err, size_t errlen)
{
    return account_write((pg_store *)base, Q_SET_BANNED, name, on ? 1 : 0, "ban", err, errlen);
}

int pg_add_report(store *base, const store_report *r, char *err, size_t errlen)
{
    return pg_write1((pg_store *)base, Q_INS_REPORT, 1, "report", err, errlen, "ittttt",
                     r->created, r->reporter, r->reported, r->game, r->reason, r->text);
}

int pg_each_report(store *base, const char *reporter, int limit, store_report_fn fn, void *ctx,
                   char *err, size_t errlen)
{
    PGresult *r;
    int rc = pg_read_rows((pg_store *)base, Q_REPORTS, &r, "list reports", err, errlen, "ti",
                      reporter, (int64_t)limit);
    if (rc != 1)
        return rc;
    int n = PQntuples(r), stop = 0;
    for (int i = 0; i < n && !stop; i++) {
        store_report x;
        memset(&x, 0, sizeof x);
        x.id = pg_col_i64(r, i, 0);
        x.created = pg_col_i64(r, i, 1);
        snprintf(x.reporter, sizeof x.reporter, "%s", PQgetvalue(r, i, 2));
        snprintf(x.reported, sizeof x.reported, "%s", PQgetvalue(r, i, 3));
        snprintf(x.game, sizeof x.game, "%s", PQgetvalue(r, i, 4));
        snprintf(x.reason, sizeof x.reason, "%s", PQgetvalue(r, i, 5));
        snprintf(x.text, sizeof x.text, "%s", PQgetvalue(r, i, 6));
        stop = fn(ctx, &x);
    }
    PQclear(r);
    return 0;
}

int pg_count_reports(store *base, const char *reporter, const char *reported, int64_t since,
                     char *err, size_t errlen)
{
    PGresult *r;
    int rc = pg_read_rows((pg_store *)base, Q_COUNT_REPORTS, &r, "count reports", err, errlen, "tti",
                      reporter, reported, since);
    if (rc < 0)
        return -1;
    if (rc == 0)
        return 0;
    int n = pg_col_int(r, 0, 0);
    PQclear(r);
    return n;
}

int pg_add_audit(store *base, const store_audit *a, char *err, size_t errlen)
{
    return pg_write1((pg_store *)base, Q_INS_AUDIT, 1, "audit", err, errlen, "itttt", a->created,
                     a->op, a->action, a->target, a->note);
}

int pg_each_audit(store *base, int64_t after, int limit, store_audit_fn fn, void *ctx, char *err,
                  size_t errlen)
{
    PGresult *r;
    int rc = pg_read_rows((pg_store *)base, Q_AUDIT, &r, "audit log", err, errlen, "ii", after,
                      (int64_t)limit);
    if (rc != 1)
        return rc;
    int n = PQntuples(r), stop = 0;
    for (int i = 0; i < n && !stop; i++) {
        store_audit a;
        memset(&a, 0, sizeof a);
        a.id = pg_col_i64(r, i, 0);
        a.created = pg_col_i64(r, i, 1);
        snprintf(a.op, sizeof a.op, "%s", PQgetvalue(r, i, 2));
        snprintf(a.action, sizeof a.action, "%s", PQgetvalue(r, i, 3));
        snprintf(a.target, sizeof a.target, "%s", PQgetvalue(r, i, 4));
        snprintf(a.note, sizeof a.note, "%s", PQgetvalue(r, i, 5));
        stop = fn(ctx, &a);
    }
    PQclear(r);
    return 0;
}

int64_t pg_audit_last(store *base, char *err, size_t errlen)
{
    PGresult *r;
    int rc = pg_read_rows((pg_store *)base, Q_AUDIT_LAST, &r, "audit log", err, errlen, "");
    if (rc < 0)
        return -1;
    if (rc == 0)
        return 0;
    int64_t n = pg_col_i64(r, 0, 0);
    PQclear(r);
    return n;
}

int pg_each_chat_by(store *base, const char *name, int limit, store_chat_by_fn fn, void *ctx,
                    char *err, size_t errlen)
{
    PGresult *r;
    int rc = pg_read_rows((pg_store *)base, Q_CHAT_BY, &r, "list chat", err, errlen, "ti", name,
                      (int64_t)limit);
    if (rc != 1)
        return rc;
    int n = PQntuples(r), stop = 0;
    for (int i = 0; i < n && !stop; i++)
        stop = fn(ctx, PQgetvalue(r, i, 0), pg_col_int(r, i, 1), PQgetvalue(r, i, 2),
                  pg_col_i64(r, i, 3));
    PQclear(r);
    return 0;
}

int64_t pg_prune(store *base, int64_t before, char *err, size_t errlen)
{
    pg_store *st = (pg_store *)base;
    if (pg_wbegin(st, err, errlen) != 0)
        return -1;
    int64_t n = 0;
    PGresult *r = NULL;
    int rc = pg_run(st, Q_PRUNE_CHAT, &r, "prune chat", err, errlen, "i", before * 1000);
    if (rc == 0)
        n += pg_changed(r);
    PQclear(r);
    r = NULL;
    if (rc == 0) {
        rc = pg_run(st, Q_PRUNE_REPORTS, &r, "prune reports", err, errlen, "i", before);
        if (rc == 0)
            n += pg_changed(r);
        PQclear(r);
    }
    return pg_wend(st, rc == 0 ? 0 : -1, err, errlen) == 0 ? n : -1;
}
