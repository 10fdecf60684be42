/*
 * results.c — what a game between accounts leaves when it ends (SPEC
 * "Ratings"): its winner and how it ended, and for a rated game both
 * players' Glicko-2 ratings, written in the batch (one transaction) that
 * ends it.  The ratings are computed on the writer thread from the ratings
 * as the store has them then: games ending one after the other in one
 * batch each see the last one's result.
 */
#include <stdio.h>
#include <string.h>

#include "server/core/glicko.h"
#include "server/core/internal.h"
#include "server/core/writer.h"

typedef struct end_write {
    char id[STORE_ID_LEN];
    char winner[8], end[12];
    int rate;                          /* rated and not aborted: both ratings move */
    char game[32];
    char account[2][STORE_NAME_LEN];
    double white_score;
    double before[2], after[2];        /* written by end_apply: each player's rating */
} end_write;

static void rating_of(store *st, const char *name, const char *gname, glicko *g, int *games)
{
    store_rating r;
    char err[256];
    if (st->ops->get_rating(st, name, gname, &r, err, sizeof err) == 1) {
        g->rating = r.rating;
        g->rd = r.rd;
        g->vol = r.vol;
        *games = r.games;
    } else {
        glicko_new(g);
        *games = 0;
    }
}

static int end_apply(store *st, void *data, char *err, size_t errlen)
{
    end_write *w = data;
    if (st->ops->set_end(st, w->id, w->winner, w->end, err, errlen) != 0)
        return -1;
    if (!w->rate)
        return 0;
    glicko p[2];
    int games[2];
    for (int side = 0; side < 2; side++)
        rating_of(st, w->account[side], w->game, &p[side], &games[side]);
    for (int side = 0; side < 2; side++)
        w->before[side] = p[side].rating;
    glicko_game(&p[0], &p[1], w->white_score);
    for (int side = 0; side < 2; side++)
        w->after[side] = p[side].rating;
    if (st->ops->set_game_ratings(st, w->id, w->before, w->after, err, errlen) != 0)
        return -1;
    for (int side = 0; side < 2; side++) {
        store_rating r = {p[side].rating, p[side].rd, p[side].vol, games[side] + 1, 0};
        if (st->ops->set_rating(st, w->account[side], w->game, &r, err, errlen) != 0)
            return -1;
    }
    return 0;
}

/* On the loop, once the end is committed: the game shows both players'
 * ratings before and after it (its JSON, at once on its sockets). */
static void end_settled(core *C, const void *data, int ok)
{
    const end_write *w = data;
    if (!ok || !w->rate)
        return;
    C->ratings_epoch++;   /* the lobby shows its seeks' ratings anew */
    game *g = games_find(C, w->id);
    if (!g)
        return;
    memcpy(g->rating_before, w->before, sizeof g->rating_before);
    memcpy(g->rating_after, w->after, sizeof g->rating_after);
    game_changed(g);
    game_tell(C, g);
}

void results_game_ended(core *C, game *g)
{
    if (!g->account[0][0] && !g->account[1][0])
        return;
    end_write w;
    memset(&w, 0, sizeof w);
    snprintf(w.id, sizeof w.id, "%s", g->id);
    snprintf(w.game, sizeof w.game, "%s", tav_session_game(g->s)->name);
    int resigned = tav_session_resigned(g->s);
    int winner;
    if (g->end[0]) {
        snprintf(w.end, sizeof w.end, "%s", g->end);
        winner = strcmp(g->end, "abort") == 0 ? TAV_NONE : g->end_winner;   /* time, agreement */
    } else {
        snprintf(w.end, sizeof w.end, "%s", resigned != TAV_NONE ? "resign" : "normal");
        tav_result r;
        tav_session_result(g->s, &r);
        winner = r.winner;
    }
    snprintf(w.winner, sizeof w.winner, "%s",
             winner == TAV_WHITE   ? "white"
             : winner == TAV_BLACK ? "black"
             : winner == TAV_DRAW  ? "draw"
                                   : "none");
    w.rate = g->rated && g->account[0][0] && g->account[1][0] && strcmp(w.end, "abort") != 0 &&
             winner != TAV_NONE;
    w.white_score = winner == TAV_WHITE ? 1.0 : winner == TAV_BLACK ? 0.0 : 0.5;
    memcpy(w.account, g->account, sizeof w.account);
    if (wq_call(C, end_apply, end_settled, &w, sizeof w) != 0)
        core_log(C, "error: the end of game %s could not be queued", g->id);
    else if (w.rate && C->shared)
        wq_notify(C, CORE_CH_LOBBY, "rated");   /* the others read their seeks (and ratings) again */
    game_tell_bots(C, g, 1);   /* SPEC "Bots": its event sockets are told */
    /* A tournament game may have ended: the tournaments look again once this
     * is committed (tournaments.c reads the result from the store). */
    C->tours_nudge = core_batch(C);
}

