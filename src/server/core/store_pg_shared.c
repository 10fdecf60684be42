/*
 * store_pg_shared.c — the PostgreSQL store between many instances:
 * NOTIFY in the batch, LISTEN and waiting, advisory-lock claims, shared
 * sign-in guards, the connection's figures.
 */
#include <errno.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <libpq-fe.h>

#include "server/core/store.h"
#include "server/core/store_pg_internal.h"

/* ---- many instances ---- */

int pg_notify(store *base, const char *channel, const char *payload, char *err,
                     size_t errlen)
{
    pg_store *st = (pg_store *)base;
    if (!st->in_tx || st->batch_lost)
        return pg_write1(st, Q_NOTIFY, -1, "notify", err, errlen, "tt", channel, payload);
    /* Inside the batch, no savepoint of its own (a round trip saved): a
     * message this short does not fail but with the connection, and that
     * fails the batch anyway. */
    return pg_run(st, Q_NOTIFY, NULL, "notify", err, errlen, "tt", channel, payload) == 0 ? 0 : -1;
}

/* Add a string to a list (once). */
static int remember(char ***list, int *n, int *cap, const char *s)
{
    for (int i = 0; i < *n; i++)
        if (strcmp((*list)[i], s) == 0)
            return 0;
    if (*n == *cap) {
        int nc = *cap ? *cap * 2 : 8;
        char **p = realloc(*list, (size_t)nc * sizeof *p);
        if (!p)
            return -1;
        *list = p;
        *cap = nc;
    }
    char *c = strdup(s);
    if (!c)
        return -1;
    (*list)[(*n)++] = c;
    return 0;
}

int pg_listen(store *base, const char *const *channels, int n, char *err, size_t errlen)
{
    pg_store *st = (pg_store *)base;
    if (pg_ensure(st, err, errlen) != 0)
        return -1;
    for (int i = 0; i < n; i++) {
        if (pg_listen1(st, channels[i], err, errlen) != 0)
            return -1;
        if (remember(&st->channels, &st->nchannels, &st->capchannels, channels[i]) != 0) {
            pg_set_err(st, err, errlen, "listen", "out of memory");
            return -1;
        }
    }
    return 0;
}

/* Hand the messages already received to fn. */
static int drain(pg_store *st, void (*fn)(void *ctx, const char *channel, const char *payload),
                 void *ctx)
{
    int n = 0;
    PGnotify *m;
    while ((m = PQnotifies(st->conn)) != NULL) {
        st->bytes_in += (int64_t)(strlen(m->relname) + strlen(m->extra));
        fn(ctx, m->relname, m->extra);
        PQfreemem(m);
        n++;
    }
    return n;
}

static int64_t mono_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

int pg_wait_notify(store *base, int timeout_ms,
                   void (*fn)(void *ctx, const char *channel, const char *payload),
                   void *ctx, char *err, size_t errlen)
{
    pg_store *st = (pg_store *)base;
    if (pg_ensure(st, err, errlen) != 0)
        return -1;
    if (st->was_lost) {
        st->was_lost = 0;
        pg_set_err(st, err, errlen, "wait", "the database connection was lost and made again:"
                " messages may have been missed");
        return -1;
    }
    int n = drain(st, fn, ctx);
    int64_t end = mono_ms() + (timeout_ms > 0 ? timeout_ms : 0);
    while (n == 0) {
        int64_t left = end - mono_ms();
        if (left < 0)
            left = 0;
        struct pollfd p = {PQsocket(st->conn), POLLIN, 0};
        if (p.fd < 0) {
            pg_lost(st);
            st->was_lost = 0;
            pg_set_err(st, err, errlen, "wait", "the database connection was lost");
            return -1;
        }
        int rc = poll(&p, 1, (int)left);
        if (rc < 0 && errno != EINTR) {
            pg_set_err(st, err, errlen, "wait", strerror(errno));
            return -1;
        }
        if (rc > 0) {
            if (!PQconsumeInput(st->conn) || PQstatus(st->conn) != CONNECTION_OK) {
                pg_set_err(st, err, errlen, "wait: the database connection was lost",
                        PQerrorMessage(st->conn));
                pg_lost(st);
                st->was_lost = 0;
                return -1;
            }
            n = drain(st, fn, ctx);
        }
        if (left == 0)
            break;
    }
    return n;
}

int pg_login_guard(store *base, const char *name, int64_t now, int window, int limit,
                          int op, char *err, size_t errlen)
{
    pg_store *st = (pg_store *)base;
    PGresult *r = NULL;
    if (op == 0) {
        if (pg_run(st, Q_GUARD_RESERVE, &r, "sign-in guard", err, errlen, "tiii", name, now,
                (int64_t)window, (int64_t)limit) != 0)
            return -1;
        int got = PQntuples(r) == 1;
        PQclear(r);
        return got;
    }
    return pg_run(st, Q_GUARD_SETTLE, NULL, "sign-in guard", err, errlen, "ti", name,
               (int64_t)(op == 1)) != 0 ? -1 : 0;
}

int pg_try_claim(store *base, const char *key, char *err, size_t errlen)
{
    pg_store *st = (pg_store *)base;
    if (pg_ensure(st, err, errlen) != 0)
        return -1;
    for (int i = 0; i < st->nclaims; i++)
        if (strcmp(st->claims[i], key) == 0)
            return 1;
    PGresult *r = NULL;
    if (pg_run(st, Q_TRY_CLAIM, &r, "claim", err, errlen, "t", key) != 0)
        return -1;
    int got = PQntuples(r) == 1 && PQgetvalue(r, 0, 0)[0] == 't';
    PQclear(r);
    if (got && remember(&st->claims, &st->nclaims, &st->capclaims, key) != 0) {
        char e2[128];
        pg_run(st, Q_RELEASE_CLAIM, NULL, "release claim", e2, sizeof e2, "t", key);
        pg_set_err(st, err, errlen, "claim", "out of memory");
        return -1;
    }
    return got;
}

void pg_release_claim(store *base, const char *key)
{
    pg_store *st = (pg_store *)base;
    for (int i = 0; i < st->nclaims; i++)
        if (strcmp(st->claims[i], key) == 0) {
            char e2[128];
            if (PQstatus(st->conn) == CONNECTION_OK)
                pg_run(st, Q_RELEASE_CLAIM, NULL, "release claim", e2, sizeof e2, "t", key);
            free(st->claims[i]);
            st->claims[i] = st->claims[--st->nclaims];
            return;
        }
}

/* Round trips: every PQexec, PQprepare, PQexecPrepared and PQreset on this
 * connection.  Bytes: the SQL text and parameter values sent and the
 * result values (and notifications) received: an approximation of the
 * traffic, without the protocol's framing. */
void pg_stats(const store *base, int64_t *round_trips, int64_t *bytes_out,
                     int64_t *bytes_in)
{
    const pg_store *st = (const pg_store *)base;
    if (round_trips)
        *round_trips = st->trips;
    if (bytes_out)
        *bytes_out = st->bytes_out;
    if (bytes_in)
        *bytes_in = st->bytes_in;
}

/* A read: 1 rows (in *r), 0 none (a text PostgreSQL refuses, which no row
 * can hold, included), -1 error. */
int pg_read_rows(pg_store *st, int q, PGresult **r, const char *what, char *err, size_t errlen,
                 const char *fmt, ...)
{
    params p;
    va_list ap;
    va_start(ap, fmt);
    pg_params_v(&p, fmt, ap);
    va_end(ap);
    int rc = pg_run_p(st, q, r, what, err, errlen, &p);
    if (rc == BAD_TEXT)
        return 0;
    if (rc != 0)
        return -1;
    if (PQntuples(*r) == 0) {
        PQclear(*r);
        *r = NULL;
        return 0;
    }
    return 1;
}

