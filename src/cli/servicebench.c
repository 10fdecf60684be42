/*
 * servicebench.c — `tavoliere servicebench`: many sessions alive at once in
 * one process, searches running on a small pool (results/search-service.md).
 *
 *   tavoliere servicebench [--sessions N] [--workers N] [--plies P]
 *                          [--nodes N] [--memory MB] [--seed S]
 *
 * Measures the resident memory of N idle sessions (delta / N), then submits
 * one `ai` search per session at once and samples, while they run, the
 * process's threads (/proc/self/task) and the service's worker count; the
 * thread count must never pass the pool plus the main thread.
 */
#include <dirent.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli.h"
#include "base/base.h"
#include "tavoliere.h"
#include "tavoliere_search.h"
#include "tavoliere_session.h"

static long rss_kib(void)
{
    FILE *f = fopen("/proc/self/statm", "r");
    long size = 0, res = 0;
    if (!f)
        return -1;
    if (fscanf(f, "%ld %ld", &size, &res) != 2)
        res = -1;
    fclose(f);
    return res < 0 ? -1 : res * (sysconf(_SC_PAGESIZE) / 1024);
}

static int task_count(void)
{
    DIR *d = opendir("/proc/self/task");
    if (!d)
        return -1;
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)))
        if (e->d_name[0] != '.')
            n++;
    closedir(d);
    return n;
}

typedef struct tally {
    pthread_mutex_t mu;
    int done, ok;
} tally;

static void on_done(void *ctx, const tav_answer *a)
{
    tally *t = ctx;
    pthread_mutex_lock(&t->mu);
    t->done++;
    t->ok += a->status == TAV_OK;
    pthread_mutex_unlock(&t->mu);
}

int cli_servicebench(int argc, char **argv)
{
    uint64_t sessions = 1000, workers = 2, plies = 20, nodes = 200, memory = 64, seed = 1;
    for (int i = 1; i < argc; i++) {
        uint64_t *dst = NULL, max = 0;
        if (strcmp(argv[i], "--sessions") == 0)
            dst = &sessions, max = 1000000;
        else if (strcmp(argv[i], "--workers") == 0)
            dst = &workers, max = 64;
        else if (strcmp(argv[i], "--plies") == 0)
            dst = &plies, max = 400;
        else if (strcmp(argv[i], "--nodes") == 0)
            dst = &nodes, max = 100000000;
        else if (strcmp(argv[i], "--memory") == 0)
            dst = &memory, max = 4096;
        else if (strcmp(argv[i], "--seed") == 0)
            dst = &seed, max = UINT64_MAX;
        if (!dst || i + 1 >= argc || tavi_parse_uint(argv[i + 1], max, dst) != 0 ||
            (dst != &seed && dst != &plies && *dst == 0)) {
            fprintf(stderr, "usage: tavoliere servicebench [--sessions N] [--workers N] [--plies P] "
                            "[--nodes N] [--memory MB] [--seed S]\n");
            return 2;
        }
        i++;
    }
    int threads0 = task_count();
    long rss0 = rss_kib();
    tav_service *svc = tav_service_new((int)workers, (size_t)memory << 20);
    if (!svc) {
        fprintf(stderr, "servicebench: no service\n");
        return 1;
    }
    long rss1 = rss_kib();
    tav_session **s = calloc((size_t)sessions, sizeof *s);
    tav_move *list = malloc(sizeof(tav_move) * TAV_MAX_MOVES);
    if (!s || !list) {
        fprintf(stderr, "servicebench: out of memory\n");
        tav_service_free(svc);
        return 1;
    }
    tav_rng rng;
    tav_rng_seed(&rng, seed);
    double t0 = cli_now();
    for (uint64_t i = 0; i < sessions; i++) {
        const tav_game *g = tav_game_at((int)(i % (uint64_t)tav_game_count()));
        char err[256];
        if (tav_session_new(&s[i], g->name, "", seed + i, err, sizeof err) != TAV_OK) {
            fprintf(stderr, "servicebench: %s: %s\n", g->name, err);
            s[i] = NULL;
            continue;
        }
        for (uint64_t p = 0; p < plies; p++) {
            int side = tav_session_to_move(s[i]);
            if (side == TAV_NONE)
                break;
            int n = tav_session_legal(s[i], side, list);
            if (n <= 0)
                break;
            tav_session_play(s[i], list[tav_rng_below(&rng, (uint32_t)n)]);
        }
    }
    double t_setup = cli_now() - t0;
    long rss2 = rss_kib();
    printf("sessions: %llu alive (%llu random plies each, every game in turn), set up in %.2f s\n",
           (unsigned long long)sessions, (unsigned long long)plies, t_setup);
    printf("rss: %ld KiB at start, %ld KiB with the service (%llu workers), %ld KiB with the sessions\n",
           rss0, rss1, (unsigned long long)workers, rss2);
    printf("memory per idle session: %.1f KiB (RSS delta / %llu)\n",
           (double)(rss2 - rss1) / (double)sessions, (unsigned long long)sessions);

    tally t;
    memset(&t, 0, sizeof t);
    pthread_mutex_init(&t.mu, NULL);
    int submitted = 0, max_tasks = task_count(), max_workers = tav_service_threads(svc);
    long max_rss = rss2;
    t0 = cli_now();
    for (uint64_t i = 0; i < sessions; i++) {
        tav_budget b;
        memset(&b, 0, sizeof b);
        b.nodes = nodes;
        b.depth = 3;
        b.threads = 2;
        b.seed = seed + i;
        if (s[i] && tav_session_to_move(s[i]) != TAV_NONE &&
            tav_service_submit(svc, s[i], "ai", &b, on_done, &t, NULL) == TAV_OK)
            submitted++;
    }
    double t_submit = cli_now() - t0;
    for (;;) {
        pthread_mutex_lock(&t.mu);
        int done = t.done;
        pthread_mutex_unlock(&t.mu);
        int tc = task_count();
        if (tc > max_tasks)
            max_tasks = tc;
        if (tav_service_threads(svc) > max_workers)
            max_workers = tav_service_threads(svc);
        long r = rss_kib();
        if (r > max_rss)
            max_rss = r;
        if (done >= submitted)
            break;
        struct timespec ts = {0, 5000000};
        nanosleep(&ts, NULL);
    }
    double t_search = cli_now() - t0;
    printf("searches: %d submitted at once in %.3f s (ai, %llu nodes or depth 3, threads=2), %d answered "
           "in %.2f s (%.0f searches/s)\n",
           submitted, t_submit, (unsigned long long)nodes, t.ok, t_search, submitted / t_search);
    printf("threads: %d in the process at most (%d before the service; budget %llu workers), "
           "%d workers alive at most, %d jobs at once at most\n",
           max_tasks, threads0, (unsigned long long)workers, max_workers, tav_service_peak_jobs(svc));
    printf("rss: %ld KiB at most while searching; search memory held by the workers: %zu KiB\n", max_rss,
           tav_service_bytes(svc) / 1024);
    int bad = max_tasks > threads0 + (int)workers || max_workers > (int)workers || t.ok != submitted;
    for (uint64_t i = 0; i < sessions; i++)
        tav_session_free(s[i]);
    free(s);
    free(list);
    tav_service_free(svc);
    pthread_mutex_destroy(&t.mu);
    printf("%s\n", bad ? "FAILED: the thread budget was passed or a search failed" : "ok");
    return bad ? 1 : 0;
}
