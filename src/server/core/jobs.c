/*
 * jobs.c — the core's jobs on other threads: a search handed to the search
 * service's workers (and cancelled), the watchdog's list of computer moves
 * being searched, and the finished jobs drained on the loop, each handed
 * back to the room that asked for it (its `answer` or `done`).  Below the
 * table of games: it knows no room above it.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <strings.h>
#include <time.h>

#include <sodium.h>

#include "server/core/core.h"
#include "server/core/internal.h"
#include "server/core/writer.h"

/* ---- jobs ---- */

/* Any thread: queue a finished job for the loop and wake it. */
void jobs_done_push(core *C, job *j)
{
    pthread_mutex_lock(&C->qlock);
    j->next = NULL;
    if (C->done_tail)
        C->done_tail->next = j;
    else
        C->done_head = j;
    C->done_tail = j;
    pthread_mutex_unlock(&C->qlock);
    if (C->ev.wake)
        C->ev.wake(C->ev.ctx);
}

/* Worker thread: keep the answer, hand the job back. */
void jobs_done(void *ctx, const tav_answer *a)
{
    job *j = ctx;
    j->answer = *a;
    jobs_done_push(j->server, j);
}

/* The watchdog's list of computer moves being searched. */
static void watch(core *C, job *j)
{
    j->wprev = NULL;
    j->wnext = C->running;
    if (C->running)
        C->running->wprev = j;
    C->running = j;
}

static void unwatch(core *C, job *j)
{
    if (j->kind != JOB_MOVE || (!j->wprev && C->running != j))
        return;
    if (j->wprev)
        j->wprev->wnext = j->wnext;
    else
        C->running = j->wnext;
    if (j->wnext)
        j->wnext->wprev = j->wprev;
    j->wprev = j->wnext = NULL;
}

job *jobs_submit(core *C, int kind, game *g, const tav_session *s, const char *player,
                 tav_budget *b, int priority, void (*answered)(core *C, job *j))
{
    job *j = calloc(1, sizeof *j);
    if (!j)
        return NULL;
    j->kind = kind;
    j->answered = answered;
    j->g = g;
    j->server = C;
    j->ply = tav_session_ply(s);
    j->budget_ms = b->movetime_ms;
    b->priority = priority;
    if (tav_service_submit(C->svc, s, player, b, jobs_done, j, &j->handle) != TAV_OK) {
        free(j);
        return NULL;
    }
    g->jobs_out++;
    if (kind == JOB_MOVE)
        watch(C, j);
    return j;
}

void jobs_cancel(core *C, job *j)
{
    if (!j)
        return;
    unwatch(C, j);
    if (!C->svc)
        return;
    j->stale = 1;
    tav_service_cancel(C->svc, j->handle);
}

/* ---- answers from the workers ---- */


/* ---- requests ---- */

void core_abandon(core *C, job *j)
{
    j->waiter = NULL;
    if (j->kind != JOB_RECORD)
        jobs_cancel(C, j);
}

/* The loop: every finished job, each handed to its own room (its `done`,
 * which frees it, or its `answered`; none once the core stops). */
void jobs_drain(core *C)
{
    pthread_mutex_lock(&C->qlock);
    if (!C->done_head) {
        pthread_mutex_unlock(&C->qlock);
        return;
    }
    job *list = C->done_head;
    C->done_head = C->done_tail = NULL;
    pthread_mutex_unlock(&C->qlock);
    while (list) {
        job *j = list;
        list = j->next;
        unwatch(C, j);
        if (j->g)
            j->g->jobs_out--;
        if (j->kind == JOB_HINT) {
            j->g->hints--;
            if (j->by)
                j->by->hints--;
        } else if (j->kind == JOB_RECORD) {
            C->records_out--;
            if (j->by)
                j->by->records--;
        }
        if (j->done) {
            j->done(C, j);   /* frees it */
            continue;
        }
        if (C->stopping) {
            if (j->made)
                tav_session_free(j->made);
            free(j->text);
            free(j);
            continue;
        }
        if (j->answered)
            j->answered(C, j);
        if (j->made)
            tav_session_free(j->made);   /* not taken: its request went away */
        free(j->text);
        free(j);
    }
}

