/*
 * computer.c — the computer's seats and hints: a seat to act thinks on a
 * worker (a seat someone plays against first, computer-only games in turns
 * at their pace), its answer is played if the game is still where it was,
 * a search that overruns is started again, and a hint is searched for the
 * side to move.  Above the rooms that change a game: they ask for a
 * computer seat through the table (games.c, game_kick).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include "server/core/core.h"
#include "server/core/internal.h"

static void computer_answer(core *C, job *j);
static void hint_made(core *C, job *j);

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
    g->job = jobs_submit(C, JOB_MOVE, g, g->s, name, &b, g->cpu_only ? PRIO_CPU_ONLY : PRIO_SEAT,
                         computer_answer);
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
void computer_kick(core *C, game *g)
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

static void computer_answer(core *C, job *j)
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
            game_after_change(C, g);
        else
            core_log(C, "error: game %s: computer move %s: %s", g->id, j->answer.best_text, err);
    } else if (!j->stale && j->answer.status != TAV_OK && j->answer.status != TAV_E_CANCELLED) {
        core_log(C, "error: game %s: search failed: %s", g->id, tav_status_str(j->answer.status));
    } else {
        computer_kick(C, g);
    }
}

/* A hint's answer for its waiter (none once its request went away). */
static void hint_made(core *C, job *j)
{
    if (!j->waiter)
        return;
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
    job *j = jobs_submit(C, JOB_HINT, g, g->s, "ai", &b, PRIO_HINT, hint_made);
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

/* A search that overruns its budget by far, counted from when it began to
 * run (not from when it was queued), is cancelled and started again: the
 * game must go on even if one search goes wrong.  Computer-only games that
 * have waited their pace take their turns. */
void computer_watchdog(core *C)
{
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
                computer_kick(C, g);
            }
        }
        j = next;
    }
    cpu_pump(C);
}
