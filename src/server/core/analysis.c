/*
 * analysis.c — a game that ends, and the analysis of a finished game run
 * ply by ply on the search service.
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

static void analysis_pump(core *C);
static void analysis_answer(core *C, job *j);

/* ---- analysis ---- */


/* The game ended: its computer seat stops, and a computer-only game no
 * longer counts against its creator.  (Its analysis starts when someone
 * first asks for it: a busy server does not analyse every game.) */
void analysis_finished(core *C, game *g)
{
    if (g->job) {
        jobs_cancel(C, g->job);
        g->job = NULL;
    }
    game_drop_owner(g);
    results_game_ended(C, g);
    clock_list(C, g);
    game_release_claim(C, g);
}

void core_analyse(core *C, game *g)
{
    tav_result res;
    tav_session_result(g->s, &res);
    if (!res.over)
        return;
    if (g->an || C->stopping)
        return;
    analysis *an = calloc(1, sizeof *an);
    if (!an)
        return;
    an->n = tav_session_ply(g->s);
    an->white = calloc((size_t)an->n + 1, sizeof *an->white);
    an->best = calloc((size_t)an->n + 1, sizeof *an->best);
    an->work = tav_session_clone(g->s);
    if (!an->white || !an->best || !an->work) {
        free(an->white);
        free(an->best);
        if (an->work)
            tav_session_free(an->work);
        free(an);
        return;
    }
    tav_result r;
    tav_session_result(g->s, &r);
    an->white[an->n] = r.winner == TAV_WHITE ? 1.0 : r.winner == TAV_BLACK ? 0.0 : 0.5;
    if (tav_session_resigned(an->work) != TAV_NONE)
        tav_session_undo(an->work);   /* takes the resignation back, not a move */
    an->next = an->n - 1;
    g->an = an;
    an->queued = 1;
    g->anext = NULL;
    if (C->an_tail)
        C->an_tail->anext = g;
    else
        C->an_head = g;
    C->an_tail = g;
    analysis_pump(C);
}

/* Start the next analysis search, one at a time for the whole server. */
static void analysis_pump(core *C)
{
    while (!C->an_job && C->an_head && !C->stopping) {
        game *g = C->an_head;
        analysis *an = g->an;
        if (an->next < 0) {
            an->done = 1;
            tav_session_free(an->work);
            an->work = NULL;
            an->queued = 0;
            C->an_head = g->anext;
            if (!C->an_head)
                C->an_tail = NULL;
            continue;
        }
        while (tav_session_ply(an->work) > an->next)
            tav_session_undo(an->work);
        tav_budget b;
        memset(&b, 0, sizeof b);
        b.movetime_ms = C->cf.ai_ms / 10 > 20 ? C->cf.ai_ms / 10 : 20;
        b.threads = 1;
        b.seed = (uint64_t)an->next + 1;
        C->an_job = jobs_submit(C, JOB_ANALYSIS, g, an->work, "ai", &b, PRIO_ANALYSIS,
                                analysis_answer);
        if (!C->an_job) {
            /* Cannot search this ply: carry the next value back. */
            an->white[an->next] = an->white[an->next + 1];
            an->next--;
        }
    }
}

static void analysis_answer(core *C, job *j)
{
    C->an_job = NULL;
    game *g = j->g;
    analysis *an = g->an;
    if (!an || an->next != j->ply)
        return;
    int p = j->ply;
    if (j->answer.status == TAV_OK) {
        int mover = core_mover_at(g, p);
        double v = j->answer.value;
        an->white[p] = mover == TAV_BLACK ? 1.0 - v : v;
        snprintf(an->best[p], TAV_MOVE_TEXT, "%s", j->answer.best_text);
    } else {
        an->white[p] = an->white[p + 1];
    }
    an->next--;
    analysis_pump(C);
}
