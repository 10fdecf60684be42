/*
 * test_timing.c — the wall-clock figures of the search service, reported:
 *   - `go movetime=100` answers within 100 ms + 5% + 20 ms (issue 6), for
 *     every game and sample option set, players uct and ai, one thread and
 *     two;
 *   - a 700 ms search with info lines answers within 0.9 s;
 *   - a search given 10 s and cancelled after 100 ms reports within 20 ms
 *     of the cancel, for every game, player, thread count, kept tree or not;
 *   - a queued search cancelled reports within 20 ms of its worker freeing;
 *   - tav_service_free with searches in flight returns within a second.
 * Each figure is printed with its nominal limit; a figure past the limit is
 * said (SLOW) but passes: a loaded machine is not a broken one.  Only in the
 * timing tier (`make timing`, TAV_TIMING_STRICT=1: a quiet machine) does the
 * wall clock decide; in `make test` the figures are reported, and what the
 * searches answer is checked.  There a figure fails only far outside: a latency (nominally 0) past ten times its limit,
 * a search given a time that overruns it by more than ten times the margin
 * it is allowed (three times that again in the sanitizer build).  What the
 * service does (the answers, their status, their order) is test_service.c's.
 * Prints "N passed, N failed": one test per figure (a cancelled search
 * that does not answer, or answers wrongly, fails as well).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "service_util.h"

#if defined(TAV_DEBUG)
#define FAR 30.0   /* the sanitizer build: its slowdown is not the service's */
#else
#define FAR 10.0
#endif

/* The slowest case of a figure. */
typedef struct figure {
    const char *what;
    double budget_ms;   /* the time the searches were given (0: a latency) */
    double limit_ms;    /* nominal limit */
    double worst_ms;
    char worst_case[96];
    int cases, over;
} figure;

static void figure_add(figure *f, double ms, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void figure_add(figure *f, double ms, const char *fmt, ...)
{
    f->cases++;
    f->over += ms > f->limit_ms;
    if (f->cases == 1 || ms > f->worst_ms) {
        f->worst_ms = ms;
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(f->worst_case, sizeof f->worst_case, fmt, ap);
        va_end(ap);
    }
}

/* Print the figure and count it: fails only past FAR times the allowed
 * margin (budget + FAR * (limit - budget)). */
static void figure_end(const figure *f)
{
    double fail_ms = f->budget_ms + FAR * (f->limit_ms - f->budget_ms);
    if (!f->cases) {
        check(0, "%s: nothing measured", f->what);
        return;
    }
    const char *strict = getenv("TAV_TIMING_STRICT");
    int judged = strict && strcmp(strict, "1") == 0;
    printf("%-44s worst %8.1f ms (%s); limit %.0f ms, %d of %d cases over%s; %s %.0f ms\n", f->what,
           f->worst_ms, f->worst_case, f->limit_ms, f->over, f->cases, f->over ? " (SLOW)" : "",
           judged ? "fails past" : "reported only; `make timing` fails past", fail_ms);
    /* Wall clock decides pass or fail only in the timing tier (`make timing`,
     * TAV_TIMING_STRICT=1, on a quiet machine): in `make test` another
     * process may hold the cores for seconds, and that says nothing of the
     * service.  What the searches answer is checked either way. */
    if (judged)
        check(f->worst_ms <= fail_ms, "%s: %.1f ms (%s), far past the limit of %.0f ms", f->what,
              f->worst_ms, f->worst_case, f->limit_ms);
    else   /* its searches answered (a wrong or missing answer fails where it is met) */
        check(1, "%s: %d searches measured", f->what, f->cases);
}

/* A live state of game g with `options` after `plies` seeded random moves in
 * st (g->state_size bytes); 0, or -1 when there is none. */
static int random_state(const tav_game *g, const char *options, uint64_t seed, int plies, void *st)
{
    char err[256];
    if (g->init(st, options, err, sizeof err) != 0)
        return -1;
    tav_move *list = malloc(sizeof(tav_move) * (size_t)g->max_moves);
    tav_rng rng;
    tav_rng_seed(&rng, seed);
    int ok = list != NULL;
    for (int i = 0; ok && i < plies; i++) {
        int n = g->legal(st, list);
        if (n == 0)
            ok = 0;
        else
            g->play(st, list[tav_rng_below(&rng, (uint32_t)n)]);
    }
    free(list);
    return ok && g->to_move(st) != TAV_NONE ? 0 : -1;
}

/* `go movetime=100` (as selftest ran it before: every game and sample
 * option set, uct and ai, one thread and two, on a service of two workers
 * with 1 MiB each). */
static void time_movetime(void)
{
    figure f = {"go movetime=100", 100, 100 * 1.05 + 20, 0, "", 0, 0};
    tav_service *svc = tav_service_new(2, 1u << 20);
    if (!svc) {
        check(0, "movetime: no service");
        return;
    }
    static const char *const players[] = {"uct", "ai"};
    for (int gi = 0; gi < tav_game_count(); gi++) {
        const tav_game *g = tav_game_at(gi);
        unsigned char *st = malloc(g->state_size);
        for (int k = 0; st && g->samples && g->samples[k]; k++) {
            if (random_state(g, g->samples[k], 1, 4, st) != 0)
                continue;
            for (int p = 0; p < 2; p++)
                for (int threads = 1; threads <= 2; threads++) {
                    tav_budget b;
                    memset(&b, 0, sizeof b);
                    b.movetime_ms = 100;
                    b.threads = threads;
                    b.seed = 1;
                    tav_answer a;
                    double t0 = tav_now();
                    tav_status rc = tav_service_run_state(svc, g, st, players[p], &b, NULL, NULL, &a);
                    double ms = (tav_now() - t0) * 1000.0;
                    if (rc != TAV_OK) {
                        check(0, "movetime %s %s: status %d", g->name, players[p], (int)rc);
                        continue;
                    }
                    figure_add(&f, ms, "%s (option set %d) %s, %d thread%s", g->name, k + 1, players[p],
                               threads, threads > 1 ? "s" : "");
                }
        }
        free(st);
    }
    tav_service_free(svc);
    figure_end(&f);
}

/* A 700 ms search with info lines (test_service's info test). */
static void ignore_info(void *ctx, const char *line)
{
    (void)ctx;
    (void)line;
}

static void time_info(tav_service *svc)
{
    figure f = {"movetime 700 with info lines", 700, 900, 0, "", 0, 0};
    const tav_game *g = tav_game_find("urbino");
    tav_session *s = g ? session_at(g, 1, 4) : NULL;
    if (!s) {
        check(0, "info: no session");
        return;
    }
    tav_budget b;
    memset(&b, 0, sizeof b);
    b.movetime_ms = 700;
    tav_answer a;
    if (tav_service_run(svc, s, "uct", &b, ignore_info, NULL, &a) == TAV_OK)
        figure_add(&f, a.seconds * 1000, "urbino uct");
    tav_session_free(s);
    figure_end(&f);
}

/* Cancel latency: every game, player, thread count, kept or not. */
static void time_cancel(tav_service *svc)
{
    figure f = {"cancel -> answer", 0, 20, 0, "", 0, 0};
    const char *const *players = tav_players();
    int passed = npass;   /* cancel_once's own checks: only their failures count here */
    for (int gi = 0; gi < tav_game_count(); gi++) {
        const tav_game *g = tav_game_at(gi);
        tav_session *s = session_at(g, 7, 6);
        if (!s) {
            check(0, "cancel: no session for %s", g->name);
            continue;
        }
        for (int p = 0; players[p]; p++)
            for (int threads = 1; threads <= 2; threads++)
                for (int kept = 0; kept <= 1; kept++) {
                    uint64_t keep = kept ? 5000 + (uint64_t)gi * 10 + (uint64_t)p : 0;
                    double ms = cancel_once(svc, g, s, players[p], threads, keep);
                    if (ms >= 0)
                        figure_add(&f, ms, "%s %s %d thread%s%s", g->name, players[p], threads,
                                   threads > 1 ? "s" : "", kept ? ", kept tree" : "");
                }
        tav_session_free(s);
    }
    npass = passed;
    figure_end(&f);
}

/* A queued search cancelled: reported when the worker frees. */
static void time_cancel_queued(void)
{
    figure f = {"queued cancel -> answer after worker frees", 0, 20, 0, "", 0, 0};
    for (int round = 0; round < 3; round++) {
        tav_service *svc = tav_service_new(1, 1u << 20);
        const tav_game *g = tav_game_find("cathedral");
        tav_session *s = g ? session_at(g, 2, 3) : NULL;
        if (!svc || !s) {
            check(0, "queued: no service or session");
            tav_service_free(svc);
            tav_session_free(s);
            return;
        }
        waiter a, b2;
        waiter_init(&a);
        waiter_init(&b2);
        tav_budget b;
        memset(&b, 0, sizeof b);
        b.movetime_ms = 300;
        tav_service_submit(svc, s, "uct", &b, on_done, &a, NULL);
        b.movetime_ms = 10000;
        uint64_t h2 = 0;
        tav_service_submit(svc, s, "ai", &b, on_done, &b2, &h2);
        sleep_ms(50);
        tav_service_cancel(svc, h2);
        if (waiter_wait(&a, 10) && waiter_wait(&b2, 10))
            figure_add(&f, (b2.when - a.when) * 1000, "cathedral, round %d", round + 1);
        else
            check(0, "queued: no answer");
        tav_service_free(svc);
        waiter_done(&a);
        waiter_done(&b2);
        tav_session_free(s);
    }
    figure_end(&f);
}

/* tav_service_free with 12 searches of 20 s in flight. */
static void time_free(void)
{
    figure f = {"free with searches in flight", 0, 1000, 0, "", 0, 0};
    for (int round = 0; round < 3; round++) {
        tav_service *svc = tav_service_new(2, 1u << 20);
        if (!svc) {
            check(0, "free: no service");
            return;
        }
        enum { N = 12 };
        waiter w[N];
        for (int i = 0; i < N; i++) {
            waiter_init(&w[i]);
            const tav_game *g = tav_game_at(i % tav_game_count());
            tav_session *s = session_at(g, (uint64_t)i, 3);
            tav_budget b;
            memset(&b, 0, sizeof b);
            b.movetime_ms = 20000;
            b.threads = 1 + i % 2;
            if (s)
                tav_service_submit(svc, s, i % 2 ? "ai" : "uct", &b, on_done, &w[i], NULL);
            tav_session_free(s);
        }
        sleep_ms(20.0 * round);
        double t0 = tav_now();
        tav_service_free(svc);
        figure_add(&f, (tav_now() - t0) * 1000, "round %d", round + 1);
        for (int i = 0; i < N; i++)
            waiter_done(&w[i]);
    }
    figure_end(&f);
}

int main(void)
{
    double t0 = tav_now();
    time_movetime();
    tav_service *svc = tav_service_new(2, 8u << 20);
    if (!svc) {
        printf("no service\n0 passed, 1 failed\n");
        return 1;
    }
    time_info(svc);
    time_cancel(svc);
    tav_service_free(svc);
    time_cancel_queued();
    time_free();
    printf("timing: %.1f s in all\n", tav_now() - t0);
    printf("%d passed, %d failed\n", npass, nfail);
    return nfail ? 1 : 0;
}
