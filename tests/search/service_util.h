/*
 * service_util.h — helpers of the search service's test programs
 * (test_service.c: what the service does; test_timing.c: how fast): checks
 * counted in npass / nfail, sleeps, awaited answers, seeded positions.
 * Each program includes it once (static inline definitions: a program
 * need not use them all).
 */
#ifndef TAV_TEST_SERVICE_UTIL_H
#define TAV_TEST_SERVICE_UTIL_H

#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tavoliere.h"
#include "tavoliere_search.h"
#include "tavoliere_session.h"

static int npass, nfail;

static inline void check(int ok, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static inline void check(int ok, const char *fmt, ...)
{
    if (ok) {
        npass++;
        return;
    }
    nfail++;
    va_list ap;
    va_start(ap, fmt);
    printf("FAIL ");
    vprintf(fmt, ap);
    printf("\n");
    va_end(ap);
}

static inline void sleep_ms(double ms)
{
    struct timespec ts;
    ts.tv_sec = (time_t)(ms / 1000);
    ts.tv_nsec = (long)((ms - (double)ts.tv_sec * 1000) * 1e6);
    nanosleep(&ts, NULL);
}

/* One awaited answer. */
typedef struct waiter {
    pthread_mutex_t mu;
    pthread_cond_t cv;
    int calls;
    double when;
    tav_answer ans;
} waiter;

static inline void waiter_init(waiter *w)
{
    memset(w, 0, sizeof *w);
    pthread_mutex_init(&w->mu, NULL);
    pthread_cond_init(&w->cv, NULL);
}

static inline void waiter_done(waiter *w)
{
    pthread_cond_destroy(&w->cv);
    pthread_mutex_destroy(&w->mu);
}

static inline void on_done(void *ctx, const tav_answer *a)
{
    waiter *w = ctx;
    double t = tav_now();
    pthread_mutex_lock(&w->mu);
    w->calls++;
    w->when = t;
    w->ans = *a;
    pthread_cond_broadcast(&w->cv);
    pthread_mutex_unlock(&w->mu);
}

/* Wait until the callback came (at most `secs`); 1 if it did. */
static inline int waiter_wait(waiter *w, double secs)
{
    double end = tav_now() + secs;
    pthread_mutex_lock(&w->mu);
    while (!w->calls && tav_now() < end) {
        pthread_mutex_unlock(&w->mu);
        sleep_ms(0.2);
        pthread_mutex_lock(&w->mu);
    }
    int got = w->calls;
    pthread_mutex_unlock(&w->mu);
    return got;
}

/* Whether the callback has come (now). */
static inline int waiter_called(waiter *w)
{
    pthread_mutex_lock(&w->mu);
    int got = w->calls;
    pthread_mutex_unlock(&w->mu);
    return got;
}

/* A session of game g after `plies` seeded random moves. */
static inline tav_session *session_at(const tav_game *g, uint64_t seed, int plies)
{
    tav_session *s = NULL;
    char err[256];
    if (tav_session_new(&s, g->name, "", seed, err, sizeof err) != TAV_OK)
        return NULL;
    tav_move *list = malloc(sizeof(tav_move) * (size_t)g->max_moves);
    tav_rng rng;
    tav_rng_seed(&rng, seed);
    for (int i = 0; list && i < plies; i++) {
        int n = tav_session_legal(s, tav_session_to_move(s), list);
        if (n <= 0 || tav_session_to_move(s) == TAV_NONE)
            break;
        tav_session_play(s, list[tav_rng_below(&rng, (uint32_t)n)]);
    }
    free(list);
    return s;
}

static inline int legal_in(const tav_game *g, const void *st, tav_move m)
{
    tav_move *list = malloc(sizeof(tav_move) * (size_t)g->max_moves);
    int n = list ? g->legal(st, list) : 0, ok = 0;
    for (int i = 0; i < n; i++)
        ok |= list[i] == m;
    free(list);
    return ok;
}

/* Submit a 10 s search, cancel it after 100 ms: the milliseconds from the
 * cancel call to the done callback (0 when it finished first), or -1 after
 * a failure (counted). */
static inline double cancel_once(tav_service *svc, const tav_game *g, tav_session *s,
                                 const char *player, int threads, uint64_t keep)
{
    waiter w;
    waiter_init(&w);
    tav_budget b;
    memset(&b, 0, sizeof b);
    b.movetime_ms = 10000;
    b.threads = threads;
    b.seed = 3;
    b.keep = keep;
    b.keep_tree = keep != 0;
    uint64_t h = 0;
    tav_service_submit(svc, s, player, &b, on_done, &w, &h);
    check(h > 0, "cancel %s %s: submit refused", g->name, player);
    if (!h) {
        waiter_done(&w);
        return -1;
    }
    sleep_ms(100);
    double t0 = tav_now();
    tav_service_cancel(svc, h);
    int got = waiter_wait(&w, 5.0);
    check(got == 1, "cancel %s %s threads=%d: done called %d times", g->name, player, threads, w.calls);
    if (!got)
        return -1;   /* the waiter stays: a live search may still call it */
    double ms = (w.when - t0) * 1000.0;
    if (ms < 0)
        ms = 0;   /* finished before the cancel (random) */
    if (strcmp(player, "random") != 0)
        check(w.ans.status == TAV_E_CANCELLED, "cancel %s %s: status %d", g->name, player,
              (int)w.ans.status);
    else
        check(w.ans.status == TAV_OK && legal_in(g, tav_session_state(s), w.ans.best),
              "random %s: status %d", g->name, (int)w.ans.status);
    sleep_ms(1);
    check(w.calls == 1, "cancel %s %s: done called %d times", g->name, player, w.calls);
    waiter_done(&w);
    return ms;
}


#endif
