/*
 * service.c — the search service (include/tavoliere_search.h).
 *
 * 1. The pool.  tav_service_new starts N worker threads once; no thread is
 *    ever started per search.  Each worker owns one block of search memory
 *    (the tree's node array or the alpha-beta table, `memory` bytes),
 *    allocated at its first search and reused by every later one.
 * 2. Requests and jobs.  A request is one search: a copy of the position,
 *    the player, the budget and a cancel flag.  A search that may use k
 *    threads is split into k jobs (k <= workers): root-parallel trees for
 *    tree search, Lazy SMP helpers for alpha-beta.  Jobs wait in one queue,
 *    the jobs of a request next to each other; an idle worker takes the job
 *    at the head (the lowest-numbered idle worker first, so a lone caller
 *    always gets the same workers).  The queue is ordered by the budget's
 *    priority, highest first, and FIFO within a priority: a new request goes
 *    behind the last queued job of its priority or a higher one.  Two kinds
 *    of job stay in front of every priority: a cancelled request still
 *    queued (moved to the head, so it is reported at once; it has no
 *    helpers left and waits for nothing), and the queued helpers of a
 *    request whose leader already runs (see 3).  So a request is overtaken
 *    only while it waits as a whole; a running search is never interrupted.
 * 3. The leader.  Job 0 leads: when its own work ends it stops the helpers
 *    that still run (alpha-beta) or, after a cancel or the deadline, drops
 *    the helpers still queued; it waits for the running ones, sums their
 *    results and calls `done` on its worker thread, exactly once.
 *    A leader never waits for a worker that waits itself: a leader is
 *    dispatched from the head with its helpers right behind it, and no later
 *    request, whatever its priority, is queued ahead of them (only cancelled
 *    leaders are, which wait for nothing), so they are taken before any
 *    leader dispatched after it.  Dropping queued helpers is not enough for
 *    that: a tree search with a node budget and no deadline waits for its
 *    queued helpers to do their part; had a higher priority overtaken them,
 *    two such leaders on two workers could each wait for a helper queued
 *    behind the other's.
 * 4. Cancel.  tav_service_cancel sets the request's atomic flag, which the
 *    tree search reads every iteration and alpha-beta at every interior
 *    node; queued helpers are dropped at once, and a request still queued
 *    as a whole moves to the head of the queue so the next free worker
 *    reports it.
 * 5. Players.  A table of entries with init (on the caller's thread: check
 *    and prepare), search (one job on a worker), stop, finish (the answer)
 *    and free.
 *
 * Nothing here is global: everything hangs off the tav_service.
 *
 * Built with TAV_NO_THREADS (WebAssembly: wasi-libc has no threads, see
 * src/wasm/), the pool starts no thread: tav_service_run and
 * tav_service_submit run the queued jobs on the caller's thread before they
 * return (every search then has one job, so no job ever waits for another),
 * and a cancel can only come from that thread (an info callback).
 */
#ifdef TAV_NO_THREADS
#include "search/nothreads.h"
#else
#include <pthread.h>
#endif
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "search/search_internal.h"
#include "tavoliere_search.h"

#define DEFAULT_MEMORY ((size_t)64 << 20)

typedef struct sreq sreq;
typedef struct sworker sworker;

/* ---- 1. Players. ---- */
typedef struct tav_player_ops {
    const char *name;
    /* Check the request; sets r->njobs (1..r->lim.threads).  On the
     * caller's thread. */
    tav_status (*init)(sreq *r);
    /* (may be NULL) Prepare the search when its leader starts (the deadline
     * is known then), on the leader's worker; helpers wait for it. */
    tav_status (*prepare)(sreq *r);
    /* Run job i on worker w (the leader's job is 0). */
    void (*search)(sreq *r, int i, sworker *w);
    /* Ask the jobs still running to end now (any thread). */
    void (*stop)(sreq *r);
    /* The answer, once every job has ended. */
    void (*finish)(sreq *r, tav_answer *a);
    void (*free)(sreq *r);
} tav_player_ops;

enum { JOB_QUEUED, JOB_RUNNING, JOB_ENDED };

typedef struct sjob {
    sreq *r;
    int index;
    int state;
    struct sjob *prev, *next;   /* in the queue */
} sjob;

/* Where tav_service_run waits: info lines and the answer come here from the
 * workers and are handed to the caller on its own thread. */
typedef struct runwait {
    pthread_mutex_t mu;
    pthread_cond_t cv;
    int done;
    tav_answer ans;
    char **lines;
    int nlines, caplines;
} runwait;

struct sreq {
    tav_service *svc;
    uint64_t handle;
    const tav_game *g;
    const tav_player_ops *ops;
    unsigned char *root;       /* the position (the caller's copy) */
    tav_budget b;
    tavi_limits lim;            /* the budget as the searchers take it */
    int njobs;
    sjob job[TAVI_MAX_JOBS];
    int pending;               /* jobs not ended (svc->mu) */
    _Atomic int cancel;
    double start, deadline;    /* set when the leader is dispatched */
    tav_done_fn done;
    void *ctx;
    runwait *rw;               /* tav_service_run's waiter, or NULL */
    /* player data */
    tavi_mcts *mcts;
    tavi_ab *ab;
    tav_move quick;            /* random player / single legal move */
    int have_quick;
    int table;                 /* alpha-beta: uses its leader's worker's table */
    int tree;                  /* tree search: KEEP_UCT or KEEP_AI; 0 when its trees are not
                                  kept (one tree per deal, or no tree) */
    uint64_t tt_gen;           /* ... with this generation */
    int prepared;              /* 1 prepared, -1 failed (svc->mu) */
    sreq *prev, *next;         /* among the service's live requests */
};

struct sworker {
    tav_service *svc;
    int id;
    pthread_t tid;
    int started;               /* takes jobs: 0 before creation and once it has left (svc->mu) */
    int joinable;              /* created, not yet joined (only tav_service_new/free touch it) */
    pthread_cond_t cv;
    sjob *job;                 /* assigned job, NULL when idle */
    void *mem;                 /* search memory block (svc->memory bytes) */
    uint64_t tt_gen;           /* the table's generation (svc->mu) */
    uint64_t keep;             /* the line of play whose table or tree the block holds, 0 = none */
    const tav_game *keep_game;
    size_t keep_bytes;
    int keep_kind;             /* KEEP_TABLE, KEEP_UCT or KEEP_AI */
    int keep_job;              /* a tree: the job of its search that grew it */
    tavi_tree_kept kept;       /* a tree: its size and the position it was searched from */
    uint64_t used;             /* when it last took a job (svc->tick) */
};

enum { KEEP_TABLE = 1, KEEP_UCT, KEEP_AI };

struct tav_service {
    pthread_mutex_t mu;
    pthread_cond_t ended;      /* a job ended (leaders wait for their helpers) */
    int nworkers;
    sworker *w;
    size_t memory;
    sjob *qhead, *qtail;
    sreq *live;
    uint64_t next_handle;
    uint64_t tick;             /* jobs dispatched so far */
    int quit;
    _Atomic int alive;         /* worker threads running now */
    _Atomic size_t bytes;      /* search memory held */
    _Atomic int peak;          /* most jobs running at once (tests) */
    int running;
};

double tav_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* The worker's memory block, allocated at its first use. */
static void *worker_mem(sworker *w)
{
    if (!w->mem) {
        w->mem = calloc(1, w->svc->memory);
        if (w->mem)
            atomic_fetch_add(&w->svc->bytes, w->svc->memory);
    }
    return w->mem;
}

/* Info lines: to tav_service_run's caller (queued for its thread). */
static void route_info(void *ctx, const char *line)
{
    sreq *r = ctx;
    runwait *rw = r->rw;
    if (!rw)
        return;
    size_t n = strlen(line) + 1;
    char *copy = malloc(n);
    if (!copy)
        return;
    memcpy(copy, line, n);
    pthread_mutex_lock(&rw->mu);
    if (rw->nlines == rw->caplines) {
        int cap = rw->caplines ? rw->caplines * 2 : 8;
        char **nl = realloc(rw->lines, sizeof(char *) * (size_t)cap);
        if (!nl) {
            pthread_mutex_unlock(&rw->mu);
            free(copy);
            return;
        }
        rw->lines = nl;
        rw->caplines = cap;
    }
    rw->lines[rw->nlines++] = copy;
    pthread_cond_signal(&rw->cv);
    pthread_mutex_unlock(&rw->mu);
}

/* ---- 2. The players. ---- */

static int quick_answer(sreq *r, int random)
{
    const tav_game *g = r->g;
    tav_move *list = malloc(sizeof(tav_move) * (size_t)g->max_moves);
    if (!list)
        return -1;
    int n = g->legal(r->root, list);
    if (n == 0) {
        free(list);
        return -1;
    }
    if (random || n == 1) {
        tav_rng rng;
        tav_rng_seed(&rng, r->lim.seed);
        r->quick = list[n == 1 ? 0 : tav_rng_below(&rng, (uint32_t)n)];
        r->have_quick = 1;
    }
    free(list);
    return 0;
}

static tav_status random_init(sreq *r)
{
    if (quick_answer(r, 1) != 0)
        return TAV_E_NOMEM;
    r->njobs = 1;
    return TAV_OK;
}

static void no_search(sreq *r, int i, sworker *w) { (void)r, (void)i, (void)w; }
static void no_stop(sreq *r) { (void)r; }

static void common_finish(sreq *r, tav_answer *a)
{
    if (r->have_quick) {
        a->best = r->quick;
        a->value = 0.5;
        a->status = TAV_OK;
    }
}

static void random_finish(sreq *r, tav_answer *a) { common_finish(r, a); }

static void common_free(sreq *r)
{
    tavi_mcts_free(r->mcts);
    tavi_ab_free(r->ab);
    r->mcts = NULL;
    r->ab = NULL;
}

static tav_status tree_init(sreq *r, int ai)
{
    if (quick_answer(r, 0) != 0)
        return TAV_E_NOMEM;
    r->njobs = r->have_quick ? 1 : r->lim.threads;
    r->table = !r->have_quick && ai && tavi_profile_of(r->g, "ai").algorithm == TAVI_AI_ALPHABETA &&
               r->g->eval;
    /* A tree per deal (uct on a hidden-information game) is not kept. */
    int per_deal = !ai && r->g->mask && r->g->determinize;
    r->tree = r->have_quick || r->table || per_deal || !r->b.keep_tree ? 0 : ai ? KEEP_AI : KEEP_UCT;
    return TAV_OK;
}

static int is_ab(const sreq *r, int ai)
{
    return ai && tavi_profile_of(r->g, "ai").algorithm == TAVI_AI_ALPHABETA && r->g->eval;
}

/* Prepared by the dispatcher when the leader starts (under svc->mu): the
 * deadline is known then. */
static tav_status tree_prepare(sreq *r, int ai)
{
    if (r->have_quick)
        return TAV_OK;
    tav_info_fn info = r->rw ? route_info : NULL;
    if (is_ab(r, ai)) {
        r->ab = tavi_ab_new(r->g, r->root, &r->lim, r->start, r->deadline, r->lim.nodes, r->njobs,
                           info, r, &r->cancel);
        return r->ab ? TAV_OK : TAV_E_NOMEM;
    }
    r->mcts = tavi_mcts_new(r->g, r->root, ai, &r->lim, r->njobs, r->start, r->deadline, info, r);
    return r->mcts ? TAV_OK : TAV_E_NOMEM;
}

/* The alpha-beta table's size for a request. */
static size_t table_bytes(const sreq *r)
{
    size_t cap = r->svc->memory;
    if (r->lim.memory && r->lim.memory < cap)
        cap = r->lim.memory;
    return tavi_ab_table_bytes(cap);
}

static void tree_search(sreq *r, int i, sworker *w)
{
    if (r->have_quick)
        return;
    if (r->ab) {
        if (i == 0) {
            size_t bytes = table_bytes(r);
            void *mem = worker_mem(w);
            if (mem) {
                tavi_ab_set_table(r->ab, mem, bytes, r->tt_gen);
            } else {
                tavi_ab_set_table(r->ab, NULL, 0, 0);
            }
        }
        tavi_ab_job(r->ab, i);
        if (i == 0)
            tavi_ab_stop(r->ab);   /* the leader has its answer: helpers end */
        return;
    }
    if (r->mcts) {
        void *mem = worker_mem(w);
        size_t bytes = r->svc->memory;
        if (r->lim.memory && r->lim.memory < bytes)
            bytes = r->lim.memory;
        tavi_mcts_job(r->mcts, i, mem, bytes, &r->cancel, r->b.keep && r->tree ? &w->kept : NULL);
    }
}

static void tree_stop(sreq *r)
{
    if (r->ab)
        tavi_ab_stop(r->ab);
}

static void tree_finish(sreq *r, tav_answer *a)
{
    common_finish(r, a);
    if (r->have_quick)
        return;
    tavi_report rep;
    memset(&rep, 0, sizeof rep);
    int rc = -1;
    if (r->ab)
        rc = tavi_ab_finish(r->ab, &rep);
    else if (r->mcts)
        rc = tavi_mcts_finish(r->mcts, &rep);
    a->playouts = rep.playouts;
    a->nodes = rep.nodes;
    a->reused = rep.reused;
    a->depth = rep.depth;
    if (rc == 0) {
        a->best = rep.best;
        a->value = rep.value;
        a->ponder = rep.ponder;
        a->have_ponder = rep.have_ponder;
        a->pv_len = rep.pv_len;
        memcpy(a->pv, rep.pv, sizeof a->pv);
        a->status = TAV_OK;
    } else if (rc == -2) {
        a->status = TAV_E_NOMEM;   /* no tree could be grown: not an answer */
    } else if (!atomic_load(&r->cancel)) {
        /* The budget ran out before a first move was searched (a node
         * budget below the alpha-beta check interval): the first legal
         * move. */
        tav_move *list = malloc(sizeof(tav_move) * (size_t)r->g->max_moves);
        if (list && r->g->legal(r->root, list) > 0) {
            a->best = list[0];
            a->value = 0.5;
            a->status = TAV_OK;
        }
        free(list);
    }
}

static tav_status uct_init(sreq *r) { return tree_init(r, 0); }
static tav_status ai_init(sreq *r) { return tree_init(r, 1); }
static tav_status uct_prepare(sreq *r) { return tree_prepare(r, 0); }
static tav_status ai_prepare(sreq *r) { return tree_prepare(r, 1); }

static const tav_player_ops players[] = {
    {"random", random_init, NULL, no_search, no_stop, random_finish, common_free},
    {"uct", uct_init, uct_prepare, tree_search, tree_stop, tree_finish, common_free},
    {"ai", ai_init, ai_prepare, tree_search, tree_stop, tree_finish, common_free},
};
#define NPLAYERS (sizeof players / sizeof players[0])

static const char *const player_names[NPLAYERS + 1] = {"random", "uct", "ai", NULL};

const char *const *tav_players(void) { return player_names; }

static const tav_player_ops *find_player(const char *name)
{
    for (size_t i = 0; name && i < NPLAYERS; i++)
        if (strcmp(players[i].name, name) == 0)
            return &players[i];
    return NULL;
}

tav_status tav_player_parse(const char *spec, char *name, size_t n, int *level)
{
    if (!spec)
        return TAV_E_INVALID;
    const char *colon = strchr(spec, ':');
    size_t len = colon ? (size_t)(colon - spec) : strlen(spec);
    char buf[32];
    if (len == 0)
        return TAV_E_INVALID;
    if (len >= sizeof buf)
        return TAV_E_NOTFOUND;   /* longer than any player's name */
    memcpy(buf, spec, len);
    buf[len] = '\0';
    if (!find_player(buf))
        return TAV_E_NOTFOUND;
    int lv = 0;
    if (colon) {
        const char *opt = colon + 1;
        if (strncmp(opt, "level=", 6) != 0)
            return TAV_E_INVALID;
        const char *d = opt + 6;
        if (!(d[0] >= '1' && d[0] <= '9'))
            return TAV_E_INVALID;
        lv = d[0] - '0';
        if (d[1] == '0' && lv == 1 && d[2] == '\0')
            lv = 10;
        else if (d[1] != '\0')
            return TAV_E_INVALID;
    }
    if (name && n) {
        if (len >= n)
            return TAV_E_INVALID;
        memcpy(name, buf, len + 1);
    }
    if (level)
        *level = lv;
    return TAV_OK;
}

/* ---- 3. The pool. ---- */

/* Whether a queued job stays in front of every priority: a cancelled
 * request's leader (moved to the head by tav_service_cancel), or a helper
 * whose leader already runs (svc->mu held). */
static int queue_pinned(const sjob *j)
{
    return atomic_load(&j->r->cancel) || (j->index > 0 && j->r->job[0].state != JOB_QUEUED);
}

/* Queue a job (svc->mu held): at the head (`front`: a cancelled request), or
 * behind the last queued job that is pinned (queue_pinned) or of the same
 * or a higher priority.  Behind the pinned jobs the queue is ordered by
 * priority, highest first, FIFO within one; a request's jobs are pushed one
 * after the other, so each lands right behind the one before and they stay
 * next to each other. */
static void queue_push(tav_service *svc, sjob *j, int front)
{
    j->state = JOB_QUEUED;
    sjob *after = NULL;   /* the job to queue behind; NULL: the head */
    if (!front) {
        int pri = j->r->b.priority;
        after = svc->qtail;
        while (after && !queue_pinned(after) && after->r->b.priority < pri)
            after = after->prev;
    }
    j->prev = after;
    j->next = after ? after->next : svc->qhead;
    if (j->next)
        j->next->prev = j;
    else
        svc->qtail = j;
    if (after)
        after->next = j;
    else
        svc->qhead = j;
}

static void queue_remove(tav_service *svc, sjob *j)
{
    if (j->prev)
        j->prev->next = j->next;
    else
        svc->qhead = j->next;
    if (j->next)
        j->next->prev = j->prev;
    else
        svc->qtail = j->prev;
    j->prev = j->next = NULL;
}

/* Drop the request's helpers that have not started (svc->mu held). */
static void drop_queued_helpers(sreq *r)
{
    tav_service *svc = r->svc;
    for (int i = 1; i < r->njobs; i++)
        if (r->job[i].state == JOB_QUEUED) {
            queue_remove(svc, &r->job[i]);
            r->job[i].state = JOB_ENDED;
            r->pending--;
        }
}

/* What a job keeps in its worker's block: KEEP_TABLE (an alpha-beta
 * leader), KEEP_UCT or KEEP_AI (a tree job), 0 (nothing). */
static int job_keeps(const sjob *j)
{
    if (!j->r->b.keep)
        return 0;
    if (j->r->table)
        return j->index == 0 ? KEEP_TABLE : 0;
    return j->r->tree;
}

/* The idle worker for a job: the one whose block holds the job's line of
 * play (its table, or the tree this job grew), else the first one holding
 * nothing kept, else the idle one used least recently, whose line is the
 * least likely to come back (svc->mu held).  NULL when every worker is
 * busy, or when the one holding the line still ends the line's previous
 * search (it has answered and is freeing it: the job waits for it). */
static sworker *pick_worker(tav_service *svc, const sjob *j)
{
    sworker *first = NULL, *free_one = NULL;
    int kind = job_keeps(j);
    uint64_t keep = kind ? j->r->b.keep : 0;
    for (int i = 0; i < svc->nworkers; i++) {
        sworker *w = &svc->w[i];
        if (!w->started)
            continue;
        int mine = keep && w->keep == keep && w->keep_game == j->r->g && w->keep_kind == kind &&
                   w->keep_job == j->index;
        if (w->job) {
            if (mine && w->job->r->b.keep == keep && w->job->r->g == j->r->g)
                return NULL;
            continue;
        }
        if (mine)
            return w;
        if (!first || w->used < first->used)
            first = w;
        if (!free_one && !w->keep)
            free_one = w;
    }
    return free_one ? free_one : first;
}

/* Hand queued jobs to idle workers (svc->mu held).  The worker's block
 * changes hands here: a tree job overwrites it; an alpha-beta leader takes
 * it as its table, with a new generation (what earlier searches wrote, or a
 * tree's nodes left in the block, never matches) unless the block holds the
 * table of the same line of play (budget.keep), which it then goes on
 * with. */
static void dispatch(tav_service *svc)
{
    while (svc->qhead) {
        sjob *j = svc->qhead;
        sworker *w = pick_worker(svc, j);
        if (!w)
            return;
        queue_remove(svc, j);
        j->state = JOB_RUNNING;
        sreq *r = j->r;
        int kind = job_keeps(j);
        if (r->table && j->index == 0) {
            size_t bytes = table_bytes(r);
            if (!(kind && w->keep == r->b.keep && w->keep_game == r->g && w->keep_kind == kind &&
                  w->keep_bytes == bytes))
                w->tt_gen++;
            r->tt_gen = w->tt_gen;
            w->keep = r->b.keep;
            w->keep_game = r->g;
            w->keep_bytes = bytes;
            w->keep_kind = KEEP_TABLE;
            w->keep_job = 0;
            w->kept.count = 0;
        } else if (!r->table && !r->have_quick && r->ops->prepare) {
            /* A tree will fill the block: the one this job's line grew there
             * stays for it to go on from; any other is forgotten. */
            if (!(kind && w->keep == r->b.keep && w->keep_game == r->g && w->keep_kind == kind &&
                  w->keep_job == j->index))
                w->kept.count = 0;
            w->keep = kind ? r->b.keep : 0;
            w->keep_game = r->g;
            w->keep_kind = kind;
            w->keep_job = j->index;
        }
        if (j->index == 0) {
            r->start = tav_now();
            double d = tavi_deadline_after(r->start, r->lim.movetime_ms);
            if (r->b.deadline > 0 && (d == 0 || r->b.deadline < d))
                d = r->b.deadline;
            r->deadline = d;
        }
        w->job = j;
        w->used = ++svc->tick;
        svc->running++;
        if (svc->running > atomic_load(&svc->peak))
            atomic_store(&svc->peak, svc->running);
        pthread_cond_signal(&w->cv);
    }
}

static void request_free(sreq *r)
{
    if (!r)
        return;
    if (r->ops)
        r->ops->free(r);
    free(r->root);
    free(r);
}

static void live_remove(tav_service *svc, sreq *r)
{
    if (r->prev)
        r->prev->next = r->next;
    else
        svc->live = r->next;
    if (r->next)
        r->next->prev = r->prev;
    r->prev = r->next = NULL;
}

/* The answer to the caller (without svc->mu). */
static void report(sreq *r, int cancelled_early)
{
    tav_answer a;
    memset(&a, 0, sizeof a);
    if (cancelled_early) {
        a.status = TAV_E_CANCELLED;   /* helpers may still be ending: no move */
    } else {
        a.status = TAV_E_NOMEM;
        r->ops->finish(r, &a);
        if (a.status == TAV_OK)
            r->g->move_str(r->root, a.best, a.best_text, sizeof a.best_text);
        if (atomic_load(&r->cancel))
            a.status = TAV_E_CANCELLED;   /* best/best_text: the move found so far, if any */
    }
    a.seconds = r->start > 0 ? tav_now() - r->start : 0;
    if (r->done)
        r->done(r->ctx, &a);
}

/* The leader's end (svc->mu held on entry and exit).  A cancelled search
 * reports as soon as its leader sees the cancel, then waits for its helpers
 * (they use the request, and alpha-beta helpers the leader's table) before
 * the request is freed and the worker takes another job. */
static void lead_end(sworker *w, sreq *r)
{
    tav_service *svc = w->svc;
    if (atomic_load(&r->cancel) || r->ab || (r->deadline > 0 && tav_now() >= r->deadline)) {
        r->ops->stop(r);
        drop_queued_helpers(r);
    }
    r->pending--;   /* the leader itself */
    int reported = 0;
    while (r->pending > 0) {
        if (atomic_load(&r->cancel)) {
            r->ops->stop(r);
            drop_queued_helpers(r);
            if (!reported) {
                live_remove(svc, r);
                pthread_mutex_unlock(&svc->mu);
                report(r, 1);
                pthread_mutex_lock(&svc->mu);
                reported = 1;
                continue;
            }
            if (r->pending == 0)
                break;
        }
        pthread_cond_wait(&svc->ended, &svc->mu);
    }
    if (!reported)
        live_remove(svc, r);   /* a cancel from now on finds nothing */
    pthread_mutex_unlock(&svc->mu);
    if (!reported)
        report(r, 0);
    request_free(r);
    pthread_mutex_lock(&svc->mu);
}

/* Run the job assigned to worker w (svc->mu held on entry and exit). */
static void worker_job(sworker *w)
{
    tav_service *svc = w->svc;
    sjob *j = w->job;
    sreq *r = j->r;
    int go = 1;
    if (j->index == 0) {
        pthread_mutex_unlock(&svc->mu);
        tav_status ps = TAV_OK;
        if (r->ops->prepare && !atomic_load(&r->cancel))
            ps = r->ops->prepare(r);
        pthread_mutex_lock(&svc->mu);
        r->prepared = ps == TAV_OK ? 1 : -1;
        go = ps == TAV_OK;
        pthread_cond_broadcast(&svc->ended);
    } else {
        /* A helper starts once its leader has prepared the search. */
        while (!r->prepared && !atomic_load(&r->cancel))
            pthread_cond_wait(&svc->ended, &svc->mu);
        go = r->prepared == 1;
    }
    pthread_mutex_unlock(&svc->mu);
    if (go && !atomic_load(&r->cancel))
        r->ops->search(r, j->index, w);
    pthread_mutex_lock(&svc->mu);
    if (j->index == 0) {
        lead_end(w, r);
    } else {
        j->state = JOB_ENDED;
        r->pending--;
        pthread_cond_broadcast(&svc->ended);
    }
    w->job = NULL;
    svc->running--;
    dispatch(svc);
}

#ifdef TAV_NO_THREADS
/* No threads: the caller's thread runs every job dispatched to a worker
 * until none is left (svc->mu is a no-op here). */
static void run_jobs(tav_service *svc)
{
    for (int again = 1; again;) {
        again = 0;
        for (int i = 0; i < svc->nworkers; i++)
            if (svc->w[i].job) {
                worker_job(&svc->w[i]);
                again = 1;
            }
    }
}
#else
static void *worker_main(void *arg)
{
    sworker *w = arg;
    tav_service *svc = w->svc;
    pthread_mutex_lock(&svc->mu);
    for (;;) {
        while (!w->job && !svc->quit)
            pthread_cond_wait(&w->cv, &svc->mu);
        if (!w->job)
            break;
        worker_job(w);
    }
    w->started = 0;   /* gone: dispatch gives it nothing more */
    pthread_mutex_unlock(&svc->mu);
    atomic_fetch_sub(&svc->alive, 1);
    return NULL;
}
#endif

tav_service *tav_service_new(int threads, size_t memory)
{
    if (threads < 1 || threads > 256)
        return NULL;
    tav_service *svc = calloc(1, sizeof *svc);
    if (!svc)
        return NULL;
    svc->w = calloc((size_t)threads, sizeof(sworker));
    if (!svc->w) {
        free(svc);
        return NULL;
    }
    svc->memory = memory ? memory : DEFAULT_MEMORY;
    if (svc->memory < 4096)
        svc->memory = 4096;
    svc->nworkers = threads;
    svc->next_handle = 1;
    pthread_mutex_init(&svc->mu, NULL);
    pthread_cond_init(&svc->ended, NULL);
    for (int i = 0; i < threads; i++) {
        svc->w[i].svc = svc;
        svc->w[i].id = i;
        pthread_cond_init(&svc->w[i].cv, NULL);
    }
    pthread_mutex_lock(&svc->mu);
    int ok = 1;
#ifdef TAV_NO_THREADS
    /* Workers without threads: the caller's thread runs their jobs. */
    for (int i = 0; i < threads; i++)
        svc->w[i].started = 1;
#else
    for (int i = 0; i < threads && ok; i++) {
        ok = pthread_create(&svc->w[i].tid, NULL, worker_main, &svc->w[i]) == 0;
        svc->w[i].started = ok;
        svc->w[i].joinable = ok;
        if (ok)
            atomic_fetch_add(&svc->alive, 1);   /* down again when it returns */
    }
#endif
    pthread_mutex_unlock(&svc->mu);
    if (!ok) {
        tav_service_free(svc);
        return NULL;
    }
    return svc;
}

void tav_service_free(tav_service *svc)
{
    if (!svc)
        return;
    pthread_mutex_lock(&svc->mu);
    /* Cancel everything: queued requests are reported by the workers as
     * they drain the queue, running ones stop within milliseconds. */
    for (sreq *r = svc->live; r; r = r->next) {
        atomic_store(&r->cancel, 1);
        if (r->ops)
            r->ops->stop(r);
    }
    svc->quit = 1;
    dispatch(svc);
    for (int i = 0; i < svc->nworkers; i++)
        pthread_cond_signal(&svc->w[i].cv);
    pthread_cond_broadcast(&svc->ended);
    pthread_mutex_unlock(&svc->mu);
    /* Workers leave only when idle and the queue is empty.  Every created
     * worker is joined, also one that has already cleared `started` on its
     * way out: it still touches the service until it returns. */
    for (int i = 0; i < svc->nworkers; i++)
        if (svc->w[i].joinable) {
#ifndef TAV_NO_THREADS
            pthread_join(svc->w[i].tid, NULL);
#endif
            svc->w[i].joinable = 0;
        }
    for (int i = 0; i < svc->nworkers; i++) {
        pthread_cond_destroy(&svc->w[i].cv);
        free(svc->w[i].mem);
        free(svc->w[i].kept.root);
    }
    pthread_cond_destroy(&svc->ended);
    pthread_mutex_destroy(&svc->mu);
    free(svc->w);
    free(svc);
}

int tav_service_threads(const tav_service *svc) { return svc ? atomic_load(&svc->alive) : 0; }

size_t tav_service_bytes(const tav_service *svc) { return svc ? atomic_load(&svc->bytes) : 0; }

int tav_service_workers(const tav_service *svc) { return svc ? svc->nworkers : 0; }

int tav_service_peak_jobs(const tav_service *svc) { return svc ? atomic_load(&svc->peak) : 0; }

/* ---- 4. Requests. ---- */

/* A new request for a copy of `st` (not yet queued). */
static tav_status request_new(tav_service *svc, const tav_game *g, const void *st, const char *player,
                              const tav_budget *b, sreq **out)
{
    *out = NULL;
    if (!svc || !g || !st || !player || tav_game_check_table(g, NULL, 0) != TAV_OK)
        return TAV_E_INVALID;
    const tav_player_ops *ops = find_player(player);
    if (!ops)
        return TAV_E_NOTFOUND;
    if (g->to_move(st) == TAV_NONE)
        return TAV_E_OVER;
    sreq *r = calloc(1, sizeof *r);
    if (!r)
        return TAV_E_NOMEM;
    r->svc = svc;
    r->g = g;
    r->root = malloc(g->state_size);
    if (!r->root) {
        free(r);
        return TAV_E_NOMEM;
    }
    memcpy(r->root, st, g->state_size);
    tav_budget bb;
    memset(&bb, 0, sizeof bb);
    if (b)
        bb = *b;
    r->b = bb;
    tavi_limits *lim = &r->lim;
    memset(lim, 0, sizeof *lim);
    lim->movetime_ms = bb.movetime_ms > 0 ? bb.movetime_ms : 0;
    lim->nodes = bb.nodes;
    lim->depth = bb.depth > 0 ? bb.depth : 0;
    lim->level = tavi_level_of(bb.level) ? bb.level : 0;
    lim->threads = bb.threads < 1 ? 1 : bb.threads;
    if (lim->threads > svc->nworkers)
        lim->threads = svc->nworkers;
    if (lim->threads > TAVI_MAX_JOBS)
        lim->threads = TAVI_MAX_JOBS;
#ifdef TAV_NO_THREADS
    lim->threads = 1;   /* one job: nothing may wait for another */
#endif
    lim->memory = bb.memory;
    lim->seed = bb.seed;
    /* A level alone plays with its own time. */
    if (lim->level && !lim->movetime_ms && bb.deadline <= 0 && !lim->nodes && !lim->depth)
        lim->movetime_ms = tavi_level_of(lim->level)->movetime_ms;
    r->ops = ops;
    tav_status s = ops->init(r);
    if (s != TAV_OK) {
        request_free(r);
        return s;
    }
    if (r->njobs < 1)
        r->njobs = 1;
    *out = r;
    return TAV_OK;
}

/* Queue a request; its handle goes to *handle (may be NULL) before any
 * worker can take the request. */
static void request_queue(tav_service *svc, sreq *r, uint64_t *handle)
{
    pthread_mutex_lock(&svc->mu);
    r->handle = svc->next_handle++;
    if (handle)
        *handle = r->handle;
    r->next = svc->live;
    if (svc->live)
        svc->live->prev = r;
    svc->live = r;
    r->pending = r->njobs;
    for (int i = 0; i < r->njobs; i++) {
        r->job[i].r = r;
        r->job[i].index = i;
        queue_push(svc, &r->job[i], 0);
    }
    dispatch(svc);
#ifdef TAV_NO_THREADS
    run_jobs(svc);
#endif
    pthread_mutex_unlock(&svc->mu);
}

tav_status tav_service_submit_state(tav_service *svc, const tav_game *g, const void *st,
                                    const char *player, const tav_budget *b, tav_done_fn done,
                                    void *ctx, uint64_t *handle)
{
    if (handle)
        *handle = 0;
    sreq *r;
    tav_status s = request_new(svc, g, st, player, b, &r);
    if (s != TAV_OK)
        return s;
    pthread_mutex_lock(&svc->mu);
    int quit = svc->quit;
    pthread_mutex_unlock(&svc->mu);
    if (quit) {
        request_free(r);
        return TAV_E_CANCELLED;
    }
    r->done = done;
    r->ctx = ctx;
    request_queue(svc, r, handle);
    return TAV_OK;
}

void tav_service_cancel(tav_service *svc, uint64_t handle)
{
    if (!svc || handle == 0)
        return;
    pthread_mutex_lock(&svc->mu);
    for (sreq *r = svc->live; r; r = r->next) {
        if (r->handle != handle)
            continue;
        atomic_store(&r->cancel, 1);
        r->ops->stop(r);
        if (r->job[0].state == JOB_QUEUED) {
            /* Not started: the next free worker reports it at once. */
            for (int i = 0; i < r->njobs; i++)
                if (r->job[i].state == JOB_QUEUED)
                    queue_remove(svc, &r->job[i]);
            for (int i = 1; i < r->njobs; i++)
                if (r->job[i].state == JOB_QUEUED) {
                    r->job[i].state = JOB_ENDED;
                    r->pending--;
                }
            queue_push(svc, &r->job[0], 1);
            dispatch(svc);
        } else {
            drop_queued_helpers(r);
            pthread_cond_broadcast(&svc->ended);
        }
        break;
    }
    pthread_mutex_unlock(&svc->mu);
}

double tav_service_started(tav_service *svc, uint64_t handle)
{
    if (!svc || handle == 0)
        return -1;
    double t = -1;
    pthread_mutex_lock(&svc->mu);
    for (sreq *r = svc->live; r; r = r->next)
        if (r->handle == handle) {
            /* r->start is set by dispatch (svc->mu held) with the leader. */
            t = r->job[0].state == JOB_QUEUED ? 0 : r->start;
            break;
        }
    pthread_mutex_unlock(&svc->mu);
    return t;
}

static void run_done(void *ctx, const tav_answer *a)
{
    runwait *rw = ctx;
    pthread_mutex_lock(&rw->mu);
    rw->ans = *a;
    rw->done = 1;
    pthread_cond_signal(&rw->cv);
    pthread_mutex_unlock(&rw->mu);
}

tav_status tav_service_run_state(tav_service *svc, const tav_game *g, const void *st,
                                 const char *player, const tav_budget *b, tav_info_fn info,
                                 void *ctx, tav_answer *out)
{
    tav_answer dummy;
    if (!out)
        out = &dummy;
    memset(out, 0, sizeof *out);
    sreq *r;
    tav_status s = request_new(svc, g, st, player, b, &r);
    if (s != TAV_OK) {
        out->status = s;
        return s;
    }
    runwait rw;
    memset(&rw, 0, sizeof rw);
    pthread_mutex_init(&rw.mu, NULL);
    pthread_cond_init(&rw.cv, NULL);
    r->done = run_done;
    r->ctx = &rw;
    r->rw = info ? &rw : NULL;
    request_queue(svc, r, NULL);
    pthread_mutex_lock(&rw.mu);
    for (;;) {
        while (rw.nlines > 0) {
            /* Hand the lines over on this thread, without the lock. */
            char **lines = rw.lines;
            int n = rw.nlines;
            rw.lines = NULL;
            rw.nlines = rw.caplines = 0;
            pthread_mutex_unlock(&rw.mu);
            for (int i = 0; i < n; i++) {
                info(ctx, lines[i]);
                free(lines[i]);
            }
            free(lines);
            pthread_mutex_lock(&rw.mu);
        }
        if (rw.done)
            break;
        pthread_cond_wait(&rw.cv, &rw.mu);
    }
    *out = rw.ans;
    pthread_mutex_unlock(&rw.mu);
    for (int i = 0; i < rw.nlines; i++)
        free(rw.lines[i]);
    free(rw.lines);
    pthread_cond_destroy(&rw.cv);
    pthread_mutex_destroy(&rw.mu);
    return out->status;
}
