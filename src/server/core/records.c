/*
 * records.c — records checked off the loop on the slow thread (parsed and
 * replayed), and that thread's queue (records, password hashes).
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

static void records_made(core *C, job *j);

/* ---- records, checked off the loop ---- */

/* A deal chosen by whoever made the game (Toscana's seed or explicit
 * stacks): options that stay hidden from both sides while it runs. */
int core_deal_chosen(const tav_session *s)
{
    const tav_game *tg = tav_session_game(s);
    const char *o = tav_session_options(s);
    for (const char *const *k = tg->secret_options; k && *k; k++) {
        size_t n = strlen(*k);
        for (const char *p = o; (p = strstr(p, *k)); p += n)
            if ((p == o || p[-1] == ' ' || p[-1] == '\t') && p[n] == '=')
                return 1;
    }
    return 0;
}

/* On the record thread: parse and replay, then check that the stored form
 * (options, seed, moves) rebuilds the same game. */
static void record_check(job *j)
{
    uint64_t seed;
    randombytes_buf(&seed, sizeof seed);
    tav_session *s = NULL;
    char err[256];
    if (tav_session_from_record_ex(&s, j->text, j->len, seed, CORE_PLIES_MAX, err, sizeof err) !=
        TAV_OK) {
        snprintf(j->err, sizeof j->err, "%s", err);
        return;
    }
    tav_session *check = NULL;
    int ok = tav_session_new(&check, tav_session_game(s)->name, tav_session_options(s),
                             tav_session_seed(s), err, sizeof err) == TAV_OK;
    for (int i = 0; ok && i < tav_session_ply(s); i++)
        ok = tav_session_play_text(check, tav_session_move_text(s, i), err, sizeof err) == TAV_OK;
    if (check)
        tav_session_free(check);
    if (!ok) {
        snprintf(j->err, sizeof j->err, "the record cannot be continued: %s", err);
        tav_session_free(s);
        return;
    }
    j->made = s;
}

void *records_thread(void *arg)
{
    core *C = arg;
    pthread_mutex_lock(&C->rlock);
    for (;;) {
        while (!C->rq_head && !C->rstop)
            pthread_cond_wait(&C->rcond, &C->rlock);
        if (!C->rq_head)
            break;
        job *j = C->rq_head;
        C->rq_head = j->next;
        if (!C->rq_head)
            C->rq_tail = NULL;
        C->rrunning_by = j->by;   /* its address's share counts this one too */
        int stop = C->rstop;
        pthread_mutex_unlock(&C->rlock);
        if (stop)
            snprintf(j->err, sizeof j->err, "the server is stopping");
        else if (j->work)
            j->work(j);
        else
            record_check(j);
        free(j->text);
        j->text = NULL;
        jobs_done_push(C, j);
        pthread_mutex_lock(&C->rlock);
        C->rrunning_by = NULL;
    }
    pthread_mutex_unlock(&C->rlock);
    return NULL;
}

core_status core_record(core *C, peer *by, void *waiter, const char *text, size_t len,
                        const char *const player[2], job **handle, core_made *m)
{
    memset(m, 0, sizeof *m);
    *handle = NULL;
    if (!core_player_ok(player[0]) || !core_player_ok(player[1])) {
        snprintf(m->err, sizeof m->err, "%s", create_players_msg);
        return m->status = CORE_BAD;
    }
    if ((m->status = create_allowed(C, by, player, m->err, sizeof m->err)) != CORE_OK)
        return m->status;
    if (C->records_out >= CORE_RECORD_QUEUE) {
        snprintf(m->err, sizeof m->err,
                 "the server is checking too many records: try again shortly");
        return m->status = CORE_UNAVAILABLE;
    }
    if (by && peer_limited(C, by) && by->records >= CORE_RECORDS_PER_ADDR) {
        snprintf(m->err, sizeof m->err, "at most %d record uploads at once per address",
                 CORE_RECORDS_PER_ADDR);
        return m->status = CORE_LIMIT;
    }
    job *j = calloc(1, sizeof *j);
    if (!j || !(j->text = malloc(len + 1))) {
        free(j);
        snprintf(m->err, sizeof m->err, "out of memory");
        return m->status = CORE_UNAVAILABLE;
    }
    memcpy(j->text, text, len);
    j->text[len] = 0;
    j->len = len;
    j->kind = JOB_RECORD;
    j->answered = records_made;
    j->server = C;
    j->waiter = waiter;
    j->by = by;
    for (int side = 0; side < 2; side++)
        snprintf(j->player[side], STORE_PLAYER_LEN, "%s", player[side]);
    if (by)
        by->records++;
    C->records_out++;
    core_slow_submit(C, j);
    *handle = j;
    return m->status = CORE_PENDING;
}

/* The slow thread's queue is shared fairly between client addresses (round
 * robin): a job's round is how many jobs of its address wait before it or
 * are being run, and it goes after every job of its round or an earlier one,
 * so one address's second job waits behind everyone else's first (also when
 * the thread had already taken the first before the second came). */
void core_slow_submit(core *C, job *j)
{
    j->server = C;
    pthread_mutex_lock(&C->rlock);
    j->next = NULL;
    j->round = 0;
    job *after = NULL;
    for (job *q = C->rq_head; q && j->by; q = q->next)
        j->round += q->by == j->by;
    j->round += j->by && C->rrunning_by == j->by;
    for (job *q = C->rq_head; q; q = q->next)
        if (q->round <= j->round)
            after = q;
    if (!after) {
        j->next = C->rq_head;
        C->rq_head = j;
    } else {
        j->next = after->next;
        after->next = j;
    }
    if (!j->next)
        C->rq_tail = j;
    pthread_cond_signal(&C->rcond);
    pthread_mutex_unlock(&C->rlock);
}



/* A record checked: make its game (the waiter may have gone: then not). */
static void records_made(core *C, job *j)
{
    if (!j->waiter)
        return;
    core_made m;
    memset(&m, 0, sizeof m);
    if (!j->made) {
        m.status = CORE_BAD;
        snprintf(m.err, sizeof m.err, "%s", j->err);
    } else {
        const char *player[2] = {j->player[0], j->player[1]};
        if ((m.status = create_allowed(C, j->by, player, m.err, sizeof m.err)) == CORE_OK) {
            tav_session *s = j->made;
            j->made = NULL;
            create_new_game(C, s, player, j->by, 0, NULL, &m);
        }
    }
    if (C->ev.record_done)
        C->ev.record_done(C->ev.ctx, j->waiter, &m);
    sodium_memzero(m.tokens, sizeof m.tokens);
}
