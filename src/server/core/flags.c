/*
 * flags.c — the server ends a game beyond its rules: a flag that fell (on
 * time, or a first move never made), an abandoned game claimed, an abort,
 * a draw agreed.  The tick judges the flags of the games whose clocks run.
 * Above the clocks and the end of a game (analysis.c, results.c); the
 * rooms of moves and offers call it.
 */
#include <stdio.h>
#include <string.h>

#include "server/core/core.h"
#include "server/core/internal.h"
#include "server/core/writer.h"

/* The server ends g beyond its rules ("abort", "time", "agreement") with
 * `winner` (TAV_NONE, a side, TAV_DRAW): stored with the batch, then what
 * any end does.  0, or -1 with nothing changed. */
int flags_end(core *C, game *g, const char *end, int winner)
{
    snprintf(g->end, sizeof g->end, "%s", end);
    g->end_winner = winner;
    if (wq_result(C, g, STORE_OVER, -1) != 0) {
        g->end[0] = 0;
        return -1;
    }
    game_changed(g);
    analysis_finished(C, g);
    return 0;
}

/* A flag fell: the game ends on time, the other side winning (or, no first
 * move made, it is aborted). */
int flags_fall(core *C, game *g, int side, int noshow)
{
    if (noshow) {
        /* No first move, no game: unrated, no winner; the side that did
         * not move is kept with the offers (the page says it in words). */
        if (flags_end(C, g, "abort", TAV_NONE) != 0)
            return -1;
        offer_keep k = offers_keep(g);
        g->absent = side;
        g->draw_offer = g->takeback_offer = -1;
        if (offers_store(C, g, &k) != 0)
            core_log(C, "error: game %s: who did not move could not be stored", g->id);
        core_log(C, "game %s: aborted, %s did not move", g->id,
                 side == TAV_WHITE ? "white" : "black");
        game_tell(C, g);
        return 0;
    }
    int64_t kept = g->left_ms[side];
    g->left_ms[side] = 0;
    if (flags_end(C, g, "time", 1 - side) != 0) {
        g->left_ms[side] = kept;
        return -1;
    }
    core_log(C, "game %s: %s's time is up", g->id, side == TAV_WHITE ? "white" : "black");
    game_tell(C, g);
    return 0;
}

/* The server's own timer: every game in memory whose clock runs.  A game
 * that became claimable (its side to move gone long enough) is shown anew
 * to its viewers once. */
void flags_tick(core *C)
{
    int64_t now = core_game_ms(C);
    for (game *g = C->clocked, *next; g; g = next) {
        next = g->knext;
        int noshow = 0;
        int side = clock_flag_fallen(g, now, &noshow);
        if (side >= 0 && game_claim(C, g)) {
            flags_fall(C, g, side, noshow);
            continue;
        }
        int mover = tav_session_to_move(g->s);
        if (!g->claim_told && (mover == TAV_WHITE || mover == TAV_BLACK) &&
            core_claim_in(g, 1 - mover, now) == 0) {
            g->claim_told = 1;
            game_changed(g);
            game_tell(C, g);
        }
    }
}

core_status core_claim(core *C, game *g, const core_cred *who, const char *result, char *err,
                       size_t errlen)
{
    int side = core_side_of(g, who);
    if (side < 0) {
        snprintf(err, errlen, "not a seat of this game");
        return CORE_FORBIDDEN;
    }
    int win = strcmp(result, "win") == 0;
    if (!win && strcmp(result, "draw") != 0) {
        snprintf(err, errlen, "result is \"win\" or \"draw\"");
        return CORE_BAD;
    }
    if (core_over(g)) {
        snprintf(err, errlen, "the game is over");
        return CORE_CONFLICT;
    }
    int64_t now = core_game_ms(C);
    int noshow = 0;
    int fell = clock_flag_fallen(g, now, &noshow);
    if (fell >= 0) {
        flags_fall(C, g, fell, noshow);
        snprintf(err, errlen, "the game is over");
        return CORE_CONFLICT;
    }
    int64_t in = core_claim_in(g, side, now);
    if (in != 0) {
        if (in > 0)
            snprintf(err, errlen, "the other player may still come back: claim in %lld s",
                     (long long)((in + 999) / 1000));
        else
            snprintf(err, errlen, "nothing to claim: the other player is here, or it is your turn");
        return CORE_CONFLICT;
    }
    int gone = 1 - side;
    if (flags_end(C, g, "abandon", win ? side : TAV_DRAW) != 0) {
        snprintf(err, errlen, "the claim could not be stored");
        return CORE_UNAVAILABLE;
    }
    offer_keep k = offers_keep(g);
    g->absent = gone;
    g->draw_offer = g->takeback_offer = -1;
    if (offers_store(C, g, &k) != 0)
        core_log(C, "error: game %s: who left could not be stored", g->id);
    core_log(C, "game %s: %s left, %s claimed %s", g->id, gone == TAV_WHITE ? "white" : "black",
             side == TAV_WHITE ? "white" : "black", win ? "the win" : "a draw");
    game_after_change(C, g);
    return CORE_OK;
}
