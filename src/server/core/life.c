/*
 * life.c — the core's life: started (the store, the writer, the search
 * service, the record thread, the unfinished games loaded), the loop's
 * tick and drain, stopped and freed.  The top of the core: it alone calls
 * every room, and it tells the table which room thinks for a computer seat
 * (games.c, game_kick).
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "server/core/core.h"
#include "server/core/internal.h"
#include "server/core/writer.h"

core *core_new(const core_config *cf, const core_events *ev, const char *db, char *err,
               size_t errlen)
{
    core *C = calloc(1, sizeof *C);
    if (!C) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    C->cf = *cf;
    C->ev = *ev;
    C->kick = computer_kick;   /* the room that thinks for computer seats */
    C->audit_seen = -1;
    C->ratings_epoch = 1;   /* moderation.c: read at the first tick */
    if (C->cf.idle_secs <= 0)
        C->cf.idle_secs = CORE_IDLE_SECS;
    pthread_mutex_init(&C->qlock, NULL);
    pthread_mutex_init(&C->rlock, NULL);
    pthread_cond_init(&C->rcond, NULL);
    C->cpu_cap = C->cf.threads > 1 ? C->cf.threads - 1 : 1;
    C->st = store_open(db, err, errlen);   /* the loop's reads */
    if (C->st) {
        /* Many instances on this database (shared.c, started by the edge)? */
        C->shared = store_shared(C->st);
        core_random_b64(C->instance, 6);
    }
    if (!C->st || create_computer_accounts(C, err, errlen) != 0 || writer_start(C, db, err, errlen) != 0) {
        core_free(C);
        return NULL;
    }
    C->svc = tav_service_new(C->cf.threads, 0);
    if (!C->svc) {
        snprintf(err, errlen, "the search service failed to start");
        core_free(C);
        return NULL;
    }
    if (pthread_create(&C->rthread, NULL, records_thread, C) != 0) {
        snprintf(err, errlen, "the record thread failed to start");
        core_free(C);
        return NULL;
    }
    C->rthread_started = 1;
    if (C->cf.clock_file)   /* the test clock in force before clocks are rebuilt */
        clock_test_read(C);
    if (store_each_unfinished(C->st, load_unfinished, C, err, errlen) != 0) {
        core_stop(C);
        core_free(C);
        return NULL;
    }
    return C;
}

/* Play a move, store it, and only then keep it.  TAV_OK or the refusal. */
void core_stop(core *C)
{
    C->stopping = 1;
    for (int h = 0; h < CORE_HASH_SIZE; h++)
        for (game *g = C->games[h]; g; g = g->hnext)
            if (g->job) {
                jobs_cancel(C, g->job);
                g->job = NULL;
            }
    if (C->an_job)
        jobs_cancel(C, C->an_job);
    writer_stop(C, load_batch_failed);   /* what is still open is committed first */
    if (C->rthread_started) {
        pthread_mutex_lock(&C->rlock);
        C->rstop = 1;
        pthread_cond_signal(&C->rcond);
        pthread_mutex_unlock(&C->rlock);
        pthread_join(C->rthread, NULL);
        C->rthread_started = 0;
    }
    if (C->svc) {
        tav_service_free(C->svc);   /* every search reports before this returns */
        C->svc = NULL;
    }
}

/* After core_stop and the edge's loop. */
void core_free(core *C)
{
    if (!C)
        return;
    if (C->svc || C->rthread_started || C->wstarted)
        core_stop(C);
    core_drain(C);
    while (C->seeks) {   /* the lobby's seeks (lobby.c made them) */
        lobby_seek *k = C->seeks;
        C->seeks = k->next;
        free(k);
    }
    for (int h = 0; h < CORE_HASH_SIZE; h++) {
        game *g = C->games[h];
        while (g) {
            game *next = g->hnext;
            game_free(C, g);
            g = next;
        }
        C->games[h] = NULL;
    }
    free(C->tours);   /* tournaments.c's memory of claims and batches */
    writer_free(C);
    core_chat_free(C);
    store_close(C->st);
    pthread_mutex_destroy(&C->qlock);
    pthread_mutex_destroy(&C->rlock);
    pthread_cond_destroy(&C->rcond);
    free(C);
}

void core_drain(core *C)
{
    writer_drain(C, load_batch_failed);
    jobs_drain(C);
}

void core_tick(core *C)
{
    core_drain(C);
    computer_watchdog(C);
    if (C->cf.clock_file)
        clock_test_read(C);
    core_presence_tick(C);
    if (C->clocked)
        flags_tick(C);
    int64_t sec = core_unix_ms() / 1000;
    if (sec - C->last_sweep >= (C->cf.idle_secs < 5 ? 1 : 5)) {
        C->last_sweep = sec;
        games_sweep(C);
    }
}
