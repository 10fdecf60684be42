/*
 * moves.c — a move (one call into the session, then stored), a resignation
 * and an abort.  After each, the table is told (game_after_change): the
 * viewers see it and a computer seat to act thinks.
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
#include "server/core/mail.h"
#include "server/core/writer.h"

int moves_commit(core *C, game *g, const char *text, char *err, size_t errlen)
{
    int ply = tav_session_ply(g->s);
    tav_status st = tav_session_play_text(g->s, text, err, errlen);
    if (st != TAV_OK)
        return st;
    return moves_record(C, g, ply, err, errlen);
}

/* The move at `ply` was just played in g's session: its time, the store
 * (taken back if the write cannot be queued), offers, clocks, the end. */
int moves_record(core *C, game *g, int ply, char *err, size_t errlen)
{
    int64_t now = core_game_ms(C);
    int64_t ms = g->last_ms > 0 && now > g->last_ms ? now - g->last_ms : 0;
    tav_session_set_move_ms(g->s, ply, ms);
    int mover = core_mover_at(g, ply);
    tav_result r;
    tav_session_result(g->s, &r);
    store_move m = {tav_session_move_text(g->s, ply), ms, now};
    if (wq_move(C, g, ply, &m, game_store_status(g)) != 0) {
        tav_session_undo(g->s);
        snprintf(err, errlen, "the move could not be stored");
        return TAV_E_NOMEM;
    }
    g->last_ms = now;
    mail_turn(C, g);   /* a correspondence game: the side to move may be told by mail */
    /* A move declines the other side's offers; a take-back asked refers to
     * the position it was asked in, so any move ends it. */
    int nd = g->draw_offer == mover ? mover : -1;
    if (nd != g->draw_offer || g->takeback_offer >= 0 || g->spent[0] || g->spent[1]) {
        /* One offer per side per move: what was spent may be offered again. */
        g->spent[0] = g->spent[1] = 0;
        offers_write(C, g, nd, -1);
    }
    if (clock_on(g) && (mover == TAV_WHITE || mover == TAV_BLACK))
        g->left_ms[mover] += g->clk_inc_ms - ms;
    C->moves_played++;
    game_changed(g);
    if (r.over)
        analysis_finished(C, g);
    return TAV_OK;
}

core_status core_move(core *C, game *g, const core_cred *who, const char *move, int ply,
                      char *err, size_t errlen)
{
    int side = core_side_of(g, who);
    if (C->shared && ply > tav_session_ply(g->s) && g->unsaved && !g->dead) {
        /* A ply this copy does not know while writes of its own wait: the
         * store is asked once they settle (never a stale refusal unchecked);
         * the edge asks again then. */
        snprintf(err, errlen, "the game is being stored: try again");
        return CORE_AGAIN;
    }
    if (C->shared && ply != tav_session_ply(g->s) && !g->unsaved && !g->dead) {
        /* Many instances: another may have moved a moment ago (its message
         * not yet here): the store says. */
        if (game_refresh(C, g, 0) != 0) {
            snprintf(err, errlen, "the game could not be read: try again");
            return CORE_UNAVAILABLE;
        }
    }
    if (side < 0) {
        snprintf(err, errlen, "not a seat of this game");
        return CORE_FORBIDDEN;
    }
    if (ply == tav_session_ply(g->s)) {
        /* What only the server knows, before the session's own checks:
         * a flag fallen, an end decided here (abort, agreement, ...). */
        int noshow = 0;
        int fell = clock_flag_fallen(g, core_game_ms(C), &noshow);
        if (fell >= 0) {
            flags_fall(C, g, fell, noshow);
            snprintf(err, errlen, noshow ? "the first move came too late: the game is aborted"
                                         : "time is up: the game is over");
            return CORE_CONFLICT;
        }
        if (g->end[0]) {
            snprintf(err, errlen, "the game is over");
            return CORE_CONFLICT;
        }
    }
    /* The session's checks (stale ply or a retry, over, turn, the cap) and
     * the move itself, once. */
    err[0] = 0;
    int repeated = 0;
    int st = tav_session_play_as(g->s, side, ply, CORE_PLIES_MAX, move, &repeated, err, errlen);
    if (st == TAV_OK && repeated)
        return CORE_OK;
    if (st == TAV_OK)
        st = moves_record(C, g, ply, err, errlen);
    if (st == TAV_OK) {
        game_after_change(C, g);
        return CORE_OK;
    }
    if (st == TAV_E_NOMEM)
        return CORE_UNAVAILABLE;
    /* The session's message names the move and says why. */
    if (!err[0])
        snprintf(err, errlen, "illegal move");
    return CORE_CONFLICT;
}

core_status core_resign(core *C, game *g, const core_cred *who, char *err, size_t errlen)
{
    int side = core_side_of(g, who);
    if (side < 0) {
        snprintf(err, errlen, "not a seat of this game");
        return CORE_FORBIDDEN;
    }
    if (g->end[0] || tav_session_resign(g->s, side) != TAV_OK) {
        snprintf(err, errlen, "the game is over");
        return CORE_CONFLICT;
    }
    if (wq_result(C, g, STORE_OVER, side) != 0) {
        tav_session_undo(g->s);
        snprintf(err, errlen, "the resignation could not be stored");
        return CORE_UNAVAILABLE;
    }
    game_changed(g);
    analysis_finished(C, g);
    game_after_change(C, g);
    return CORE_OK;
}

/* Abort (SPEC): before both sides have moved, either side may end the game,
 * unrated, with no winner. */
core_status core_abort(core *C, game *g, const core_cred *who, char *err, size_t errlen)
{
    int side = core_side_of(g, who);
    if (side < 0) {
        snprintf(err, errlen, "not a seat of this game");
        return CORE_FORBIDDEN;
    }
    if (core_over(g)) {
        snprintf(err, errlen, "the game is over");
        return CORE_CONFLICT;
    }
    int moved[2] = {0, 0};
    for (int i = 0; i < tav_session_ply(g->s); i++) {
        int m = core_mover_at(g, i);
        if (m == TAV_WHITE || m == TAV_BLACK)
            moved[m] = 1;
    }
    if (moved[0] && moved[1]) {
        snprintf(err, errlen, "both sides have moved: too late to abort (resign instead)");
        return CORE_CONFLICT;
    }
    if (flags_end(C, g, "abort", TAV_NONE) != 0) {
        snprintf(err, errlen, "the abort could not be stored");
        return CORE_UNAVAILABLE;
    }
    game_after_change(C, g);
    return CORE_OK;
}
