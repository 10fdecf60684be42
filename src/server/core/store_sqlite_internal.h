/*
 * store_sqlite_internal.h — what store_sqlite.c shares with the SQLite
 * backend's other files (store_sqlite_moderation.c).
 */
#ifndef SERVER_CORE_STORE_SQLITE_INTERNAL_H
#define SERVER_CORE_STORE_SQLITE_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include <sqlite3.h>

#include "server/core/store.h"

sqlite3 *sq_db(store *base);
/* A write joins the open batch: sq_op_begin, the statements, then
 * sq_op_end(rc) releases its savepoint (rc 0) or undoes only it. */
int sq_op_begin(store *base, char *err, size_t errlen);
int sq_op_end(store *base, int rc, const char *what, char *err, size_t errlen);

int sq_close_account(store *st, const char *name, int64_t at, char *err, size_t errlen);
int sq_set_banned(store *st, const char *name, int on, char *err, size_t errlen);
int sq_add_report(store *st, const store_report *r, char *err, size_t errlen);
int sq_each_report(store *st, const char *reporter, int limit, store_report_fn fn, void *ctx,
                   char *err, size_t errlen);
int sq_count_reports(store *st, const char *reporter, const char *reported, int64_t since,
                     char *err, size_t errlen);
int sq_add_audit(store *st, const store_audit *a, char *err, size_t errlen);
int sq_each_audit(store *st, int64_t after, int limit, store_audit_fn fn, void *ctx, char *err,
                  size_t errlen);
int64_t sq_audit_last(store *st, char *err, size_t errlen);
int sq_each_chat_by(store *st, const char *name, int limit, store_chat_by_fn fn, void *ctx,
                    char *err, size_t errlen);
int64_t sq_prune(store *st, int64_t before, char *err, size_t errlen);

#endif
