/*
 * jobs.c — the core's searches: computer seats scheduled by priority, the
 * watchdog, hints, and the answers of the workers drained on the loop (with
 * the loop's tick and the sweep of idle games).
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
                   tav_budget *b, int priority)
{
    job *j = calloc(1, sizeof *j);
    if (!j)
        return NULL;
    j->kind = kind;
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

/* The budget of a computer seat, its time capped so games go on briskly. */
static void seat_budget(const tav_game *tg, int level, long cap_ms, tav_budget *b)
{
    memset(b, 0, sizeof *b);
    if (level > 0)
        tav_level_budget(tg, level, b);
    if (b->movetime_ms <= 0 || b->movetime_ms > cap_ms)
        b->movetime_ms = cap_ms;
    b->threads = 1;
    randombytes_buf(&b->seed, sizeof b->seed);
}

/* Start the search of the computer seat to act. */
static void start_move(core *C, game *g)
{
    int side = tav_session_to_move(g->s);
    char name[32];
    int level = 0;
    if (tav_player_parse(g->player[side], name, sizeof name, &level) != TAV_OK) {
        core_log(C, "error: game %s: unknown player %s", g->id, g->player[side]);
        return;
    }
    tav_budget b;
    seat_budget(tav_session_game(g->s), level, C->cf.ai_ms, &b);
    g->job = jobs_submit(C, JOB_MOVE, g, g->s, name, &b, g->cpu_only ? PRIO_CPU_ONLY : PRIO_SEAT);
    if (!g->job) {
        core_log(C, "error: game %s: search refused", g->id);
    } else if (g->cpu_only) {
        g->job->cpu = 1;
        C->cpu_running++;
    }
}

/* Computer-only games take turns: at most cpu_cap search at once, each at
 * most once per pace_ms, in the order they became ready. */
static void cpu_pump(core *C)
{
    int64_t now = core_game_ms(C);
    game *prev = NULL, *g = C->cwait_head;
    while (g && C->cpu_running < C->cpu_cap && !C->stopping) {
        game *next = g->cnext;
        if (now < g->last_ms + C->cf.pace_ms) {
            prev = g;
        } else {
            if (prev)
                prev->cnext = next;
            else
                C->cwait_head = next;
            if (C->cwait_tail == g)
                C->cwait_tail = prev;
            g->cwaiting = 0;
            g->cnext = NULL;
            if (!g->job && game_computer_to_act(g))
                start_move(C, g);
        }
        g = next;
    }
}

/* If a computer seat is to act and not yet thinking, start its search (a
 * computer-only game waits for its turn among them). */
void jobs_kick(core *C, game *g)
{
    if (g->job || C->stopping || !game_computer_to_act(g) || g->dead || !game_claim(C, g))
        return;
    if (!g->cpu_only) {
        start_move(C, g);
        return;
    }
    if (!g->cwaiting) {
        g->cwaiting = 1;
        g->cnext = NULL;
        if (C->cwait_tail)
            C->cwait_tail->cnext = g;
        else
            C->cwait_head = g;
        C->cwait_tail = g;
    }
    cpu_pump(C);
}

/* ---- answers from the workers ---- */

static void drain_move(core *C, job *j)
{
    game *g = j->g;
    if (j->cpu)
        C->cpu_running--;
    if (g->job == j)
        g->job = NULL;
    if (!j->stale && j->answer.status == TAV_OK && tav_session_ply(g->s) == j->ply &&
        game_computer_to_act(g)) {
        char err[256];
        if (moves_commit(C, g, j->answer.best_text, err, sizeof err) == TAV_OK)
            moves_after_change(C, g);
        else
            core_log(C, "error: game %s: computer move %s: %s", g->id, j->answer.best_text, err);
    } else if (!j->stale && j->answer.status != TAV_OK && j->answer.status != TAV_E_CANCELLED) {
        core_log(C, "error: game %s: search failed: %s", g->id, tav_status_str(j->answer.status));
    } else {
        jobs_kick(C, g);
    }
}

/* A batch of writes failed: nothing of it is on disk.  A game it created
 * leaves memory (nobody was told its id); a game it changed is read back
 * from the store and its viewers told again. */
void jobs_batch_failed(core *C, game *g, int created)
{
    if (created) {
        g->dead = 1;
        snprintf(g->end, sizeof g->end, "abort");   /* never on anyone's clock */
        clock_list(C, g);
        if (g->job) {
            jobs_cancel(C, g->job);
            g->job = NULL;
        }
        if (g->owner) {
            g->owner->cpu_games--;
            g->owner = NULL;
        }
        return;
    }
    if (g->dead || g->unsaved > 0)
        return;   /* read back once its last write is settled */
    game_refresh(C, g, 1);
}

/* A hint's answer for its waiter. */
static void hint_made(core *C, job *j)
{
    core_answer h;
    memset(&h, 0, sizeof h);
    if (j->answer.status == TAV_OK && tav_session_ply(j->g->s) == j->ply) {
        h.status = CORE_OK;
        snprintf(h.move, sizeof h.move, "%s", j->answer.best_text);
        h.value = j->answer.value;
    } else {
        h.status = CORE_CONFLICT;
        snprintf(h.err, sizeof h.err, "the position changed before a hint was found");
    }
    if (C->ev.hint_done)
        C->ev.hint_done(C->ev.ctx, j->waiter, &h);
}


void core_drain(core *C)
{
    writer_drain(C, jobs_batch_failed);
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
        if (j->kind == JOB_MOVE)
            drain_move(C, j);
        else if (j->kind == JOB_HINT && j->waiter)
            hint_made(C, j);
        else if (j->kind == JOB_RECORD && j->waiter)
            records_made(C, j);
        else if (j->kind == JOB_ANALYSIS)
            analysis_answer(C, j);
        if (j->made)
            tav_session_free(j->made);   /* not taken: its request went away */
        free(j->text);
        free(j);
    }
}

/* A search that overruns its budget by far, counted from when it began to
 * run (not from when it was queued), is cancelled and started again: the
 * game must go on even if one search goes wrong.  Computer-only games that
 * have waited their pace take their turns. */

/* The test clock (--test-clock FILE, tests only): the file's first line
 * starts with an offset in ms (what follows it, e.g. a sequence number, is
 * the test's own), read on every tick; once a new line is in force it is
 * written back to FILE.ack.PID (whole, by a rename; PID this process's, so
 * that each of several instances says so), and a test waits for its
 * own line there instead of guessing when the server read it.  Clocks are
 * judged right after. */
void jobs_test_clock_read(core *C)
{
    FILE *f = fopen(C->cf.clock_file, "r");
    if (!f)
        return;
    char line[sizeof C->clock_line];
    int ok = fgets(line, sizeof line, f) != NULL;
    fclose(f);
    long long off = 0;
    if (!ok || strcmp(line, C->clock_line) == 0 || sscanf(line, "%lld", &off) != 1)
        return;
    memcpy(C->clock_line, line, sizeof line);
    C->time_offset_ms = off;
    char path[4096], tmp[4096 + 8];
    if (snprintf(path, sizeof path, "%s.ack.%ld", C->cf.clock_file, (long)getpid()) >= (int)sizeof path)
        return;
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    FILE *a = fopen(tmp, "w");
    if (!a)
        return;
    int w = fputs(line, a) >= 0;
    if (fclose(a) == 0 && w)
        rename(tmp, path);
}

void core_tick(core *C)
{
    core_drain(C);
    double now = tav_now();
    job *j = C->running;
    while (j) {
        job *next = j->wnext;
        double began = C->svc ? tav_service_started(C->svc, j->handle) : 0;
        if (began > 0 && now - began > (double)j->budget_ms / 1000.0 * 2 + 2.0) {
            game *g = j->g;
            core_log(C, "error: game %s: search overran its time, started again", g->id);
            jobs_cancel(C, j);
            if (g->job == j) {
                g->job = NULL;
                jobs_kick(C, g);
            }
        }
        j = next;
    }
    cpu_pump(C);
    if (C->cf.clock_file)
        jobs_test_clock_read(C);
    core_presence_tick(C);
    if (C->clocked)
        clock_tick(C);
    int64_t sec = core_unix_ms() / 1000;
    if (sec - C->last_sweep >= (C->cf.idle_secs < 5 ? 1 : 5)) {
        C->last_sweep = sec;
        jobs_sweep(C);
    }
}

/* Games nobody uses leave memory; the store keeps them. */
void jobs_sweep(core *C)
{
    int64_t now = core_unix_ms() / 1000;
    for (int h = 0; h < CORE_HASH_SIZE; h++) {
        game **pp = &C->games[h];
        while (*pp) {
            game *g = *pp;
            int busy = g->pins || g->job || g->jobs_out || g->cwaiting || g->unsaved ||
                       (g->an && g->an->queued) || g->owner || g->klisted;
            if (!busy && (g->dead || now - g->touched >= C->cf.idle_secs)) {
                *pp = g->hnext;
                C->ngames--;
                game_free(C, g);
            } else {
                pp = &g->hnext;
            }
        }
    }
}

/* ---- requests ---- */

core_status core_hint(core *C, game *g, const core_cred *who, peer *by, void *waiter,
                      job **handle, char *err, size_t errlen)
{
    *handle = NULL;
    int side = core_side_of(g, who);
    if (side < 0) {
        snprintf(err, errlen, "not a seat of this game");
        return CORE_FORBIDDEN;
    }
    if (!core_help_allowed(g)) {
        snprintf(err, errlen, g->rated ? "no engine help in a rated game until it is over" :
                              "no engine help in a game between two people until it is over "
                              "(fair play; a game for two people at one screen is created with "
                              "\"local\": true)");
        return CORE_FORBIDDEN;
    }
    if (tav_session_to_move(g->s) != side) {
        snprintf(err, errlen, "it is not your turn");
        return CORE_CONFLICT;
    }
    if (g->hints > 0) {
        snprintf(err, errlen, "a hint for this game is being searched already");
        return CORE_LIMIT;
    }
    if (by && peer_limited(C, by) && by->hints >= CORE_HINTS_PER_ADDR) {
        snprintf(err, errlen, "at most %d hints at once per address", CORE_HINTS_PER_ADDR);
        return CORE_LIMIT;
    }
    tav_budget b;
    seat_budget(tav_session_game(g->s), 5, C->cf.ai_ms, &b);
    job *j = jobs_submit(C, JOB_HINT, g, g->s, "ai", &b, PRIO_HINT);
    if (!j) {
        snprintf(err, errlen, "no hint for this position");
        return CORE_CONFLICT;
    }
    j->waiter = waiter;
    j->by = by;
    g->hints++;
    if (by)
        by->hints++;
    *handle = j;
    return CORE_PENDING;
}

void core_abandon(core *C, job *j)
{
    j->waiter = NULL;
    if (j->kind != JOB_RECORD)
        jobs_cancel(C, j);
}
