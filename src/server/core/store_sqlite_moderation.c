/*
 * store_sqlite_moderation.c — the SQLite backend's moderation: accounts
 * closed or banned, players' reports, the operator's audit log, one's chat
 * lines (the export) and retention (store_ops.close_account ... prune).
 *
 * Each statement is prepared when used and bound; no SQL text is built
 * from input.  Writes join the open batch through store_sqlite.c.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "server/core/store_sqlite_internal.h"

/* Prepare `sql` and bind from a format: 't' text, 'i' int64. */
static sqlite3_stmt *prep(store *st, const char *sql, char *err, size_t errlen, const char *fmt,
                          ...)
{
    sqlite3 *db = sq_db(st);
    sqlite3_stmt *s = NULL;
    if (sqlite3_prepare_v2(db, sql, -1, &s, NULL) != SQLITE_OK) {
        snprintf(err, errlen, "prepare: %s", sqlite3_errmsg(db));
        sqlite3_finalize(s);
        return NULL;
    }
    va_list ap;
    va_start(ap, fmt);
    for (int i = 0; fmt[i]; i++) {
        if (fmt[i] == 't')
            sqlite3_bind_text(s, i + 1, va_arg(ap, const char *), -1, SQLITE_TRANSIENT);
        else
            sqlite3_bind_int64(s, i + 1, (sqlite3_int64)va_arg(ap, int64_t));
    }
    va_end(ap);
    return s;
}

static void text_of(sqlite3_stmt *s, int col, char *buf, size_t n)
{
    const unsigned char *t = sqlite3_column_text(s, col);
    snprintf(buf, n, "%s", t ? (const char *)t : "");
}

/* Run one write statement inside the batch; `want` rows changed (-1 any). */
static int write_one(store *st, sqlite3_stmt *s, int want, const char *what, char *err,
                     size_t errlen)
{
    if (!s)
        return -1;
    if (sq_op_begin(st, err, errlen) != 0) {
        sqlite3_finalize(s);
        return -1;
    }
    int rc = sqlite3_step(s) == SQLITE_DONE ? 0 : -1;
    if (rc != 0)
        snprintf(err, errlen, "%s: %s", what, sqlite3_errmsg(sq_db(st)));
    else if (want >= 0 && sqlite3_changes(sq_db(st)) != want) {
        snprintf(err, errlen, "%s: nothing to change", what);
        rc = -1;
    }
    sqlite3_finalize(s);
    return sq_op_end(st, rc, what, err, errlen);
}

static int end_sessions(store *st, const char *name, char *err, size_t errlen)
{
    sqlite3_stmt *s = prep(st, "DELETE FROM sessions WHERE account = ?1 COLLATE NOCASE", err, errlen, "t", name);
    if (!s)
        return -1;
    int rc = sqlite3_step(s) == SQLITE_DONE ? 0 : -1;
    if (rc != 0)
        snprintf(err, errlen, "end sessions: %s", sqlite3_errmsg(sq_db(st)));
    sqlite3_finalize(s);
    return rc;
}

/* An account's flag and the end of its sessions, in one savepoint. */
static int account_write(store *st, const char *sql, const char *name, int64_t v,
                         const char *what, char *err, size_t errlen)
{
    sqlite3_stmt *s = prep(st, sql, err, errlen, "ti", name, v);
    if (!s)
        return -1;
    if (sq_op_begin(st, err, errlen) != 0) {
        sqlite3_finalize(s);
        return -1;
    }
    int rc = sqlite3_step(s) == SQLITE_DONE ? 0 : -1;
    if (rc != 0)
        snprintf(err, errlen, "%s: %s", what, sqlite3_errmsg(sq_db(st)));
    else if (sqlite3_changes(sq_db(st)) != 1) {
        snprintf(err, errlen, "%s: no such account", what);
        rc = -1;
    }
    sqlite3_finalize(s);
    if (rc == 0 && v)
        rc = end_sessions(st, name, err, errlen);
    return sq_op_end(st, rc, what, err, errlen);
}

int sq_close_account(store *st, const char *name, int64_t at, char *err, size_t errlen)
{
    return account_write(st, "UPDATE accounts SET closed = ?2 WHERE name = ?1 AND closed = 0",
                         name, at > 0 ? at : 1, "close account", err, errlen);
}

int sq_set_banned(store *st, const char *name, int on, char *err, size_t errlen)
{
    return account_write(st, "UPDATE accounts SET banned = ?2 WHERE name = ?1", name,
                         on ? 1 : 0, "ban", err, errlen);
}

int sq_add_report(store *st, const store_report *r, char *err, size_t errlen)
{
    return write_one(st,
                     prep(st,
                          "INSERT INTO reports (created, reporter, reported, game, reason, text)"
                          " VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
                          err, errlen, "ittttt", r->created, r->reporter, r->reported, r->game,
                          r->reason, r->text),
                     1, "report", err, errlen);
}

int sq_each_report(store *st, const char *reporter, int limit, store_report_fn fn, void *ctx,
                   char *err, size_t errlen)
{
    sqlite3_stmt *s = prep(st,
                           "SELECT id, created, reporter, reported, game, reason, text"
                           " FROM reports WHERE ?1 = '' OR reporter = ?1"
                           " ORDER BY created DESC, id DESC LIMIT ?2",
                           err, errlen, "ti", reporter, (int64_t)limit);
    if (!s)
        return -1;
    int rc, stop = 0;
    while (!stop && (rc = sqlite3_step(s)) == SQLITE_ROW) {
        store_report r;
        memset(&r, 0, sizeof r);
        r.id = sqlite3_column_int64(s, 0);
        r.created = sqlite3_column_int64(s, 1);
        text_of(s, 2, r.reporter, sizeof r.reporter);
        text_of(s, 3, r.reported, sizeof r.reported);
        text_of(s, 4, r.game, sizeof r.game);
        text_of(s, 5, r.reason, sizeof r.reason);
        text_of(s, 6, r.text, sizeof r.text);
        stop = fn(ctx, &r);
    }
    if (!stop && rc != SQLITE_DONE) {
        snprintf(err, errlen, "list reports: %s", sqlite3_errmsg(sq_db(st)));
        sqlite3_finalize(s);
        return -1;
    }
    sqlite3_finalize(s);
    return 0;
}

int sq_count_reports(store *st, const char *reporter, const char *reported, int64_t since,
                     char *err, size_t errlen)
{
    sqlite3_stmt *s = prep(st,
                           "SELECT count(*) FROM reports WHERE reporter = ?1"
                           " AND (?2 = '' OR reported = ?2) AND created >= ?3",
                           err, errlen, "tti", reporter, reported, since);
    if (!s)
        return -1;
    int n = -1;
    if (sqlite3_step(s) == SQLITE_ROW)
        n = sqlite3_column_int(s, 0);
    else
        snprintf(err, errlen, "count reports: %s", sqlite3_errmsg(sq_db(st)));
    sqlite3_finalize(s);
    return n;
}

int sq_add_audit(store *st, const store_audit *a, char *err, size_t errlen)
{
    return write_one(st,
                     prep(st,
                          "INSERT INTO audit (created, operator, action, target, note)"
                          " VALUES (?1, ?2, ?3, ?4, ?5)",
                          err, errlen, "itttt", a->created, a->op, a->action, a->target, a->note),
                     1, "audit", err, errlen);
}

int sq_each_audit(store *st, int64_t after, int limit, store_audit_fn fn, void *ctx, char *err,
                  size_t errlen)
{
    sqlite3_stmt *s = prep(st,
                           "SELECT id, created, operator, action, target, note FROM audit"
                           " WHERE id > ?1 ORDER BY id LIMIT ?2",
                           err, errlen, "ii", after, (int64_t)limit);
    if (!s)
        return -1;
    int rc, stop = 0;
    while (!stop && (rc = sqlite3_step(s)) == SQLITE_ROW) {
        store_audit a;
        memset(&a, 0, sizeof a);
        a.id = sqlite3_column_int64(s, 0);
        a.created = sqlite3_column_int64(s, 1);
        text_of(s, 2, a.op, sizeof a.op);
        text_of(s, 3, a.action, sizeof a.action);
        text_of(s, 4, a.target, sizeof a.target);
        text_of(s, 5, a.note, sizeof a.note);
        stop = fn(ctx, &a);
    }
    if (!stop && rc != SQLITE_DONE) {
        snprintf(err, errlen, "audit log: %s", sqlite3_errmsg(sq_db(st)));
        sqlite3_finalize(s);
        return -1;
    }
    sqlite3_finalize(s);
    return 0;
}

int64_t sq_audit_last(store *st, char *err, size_t errlen)
{
    sqlite3_stmt *s = prep(st, "SELECT coalesce(max(id), 0) FROM audit", err, errlen, "");
    if (!s)
        return -1;
    int64_t n = -1;
    if (sqlite3_step(s) == SQLITE_ROW)
        n = sqlite3_column_int64(s, 0);
    else
        snprintf(err, errlen, "audit log: %s", sqlite3_errmsg(sq_db(st)));
    sqlite3_finalize(s);
    return n;
}

int sq_each_chat_by(store *st, const char *name, int limit, store_chat_by_fn fn, void *ctx,
                    char *err, size_t errlen)
{
    sqlite3_stmt *s = prep(st,
                           "SELECT game, room, text, ms FROM chat WHERE name = ?1 COLLATE NOCASE"
                           " ORDER BY seq LIMIT ?2",
                           err, errlen, "ti", name, (int64_t)limit);
    if (!s)
        return -1;
    int rc, stop = 0;
    while (!stop && (rc = sqlite3_step(s)) == SQLITE_ROW) {
        const unsigned char *g = sqlite3_column_text(s, 0), *t = sqlite3_column_text(s, 2);
        if (g && t)
            stop = fn(ctx, (const char *)g, sqlite3_column_int(s, 1), (const char *)t,
                      sqlite3_column_int64(s, 3));
    }
    if (!stop && rc != SQLITE_DONE) {
        snprintf(err, errlen, "list chat: %s", sqlite3_errmsg(sq_db(st)));
        sqlite3_finalize(s);
        return -1;
    }
    sqlite3_finalize(s);
    return 0;
}

int64_t sq_prune(store *st, int64_t before, char *err, size_t errlen)
{
    static const char *const sql[] = {"DELETE FROM chat WHERE ms < ?1",
                                      "DELETE FROM reports WHERE created < ?1"};
    if (sq_op_begin(st, err, errlen) != 0)
        return -1;
    int64_t n = 0;
    int rc = 0;
    for (int i = 0; i < 2 && rc == 0; i++) {
        sqlite3_stmt *s = prep(st, sql[i], err, errlen, "i", i == 0 ? before * 1000 : before);
        if (!s) {
            rc = -1;
            break;
        }
        if (sqlite3_step(s) != SQLITE_DONE) {
            snprintf(err, errlen, "prune: %s", sqlite3_errmsg(sq_db(st)));
            rc = -1;
        } else {
            n += sqlite3_changes(sq_db(st));
        }
        sqlite3_finalize(s);
    }
    return sq_op_end(st, rc, "prune", err, errlen) == 0 ? n : -1;
}
