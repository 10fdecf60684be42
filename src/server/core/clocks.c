/*
 * clocks.c — clocks: time left, flags, no-shows, claims of a game whose
 * opponent went away, and the list of clocks the tick looks at.
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

/* ---- clocks ---- */

int clock_on(const game *g) { return g->clk_initial_ms > 0 || g->clk_days > 0; }

/* Rebuild each side's time from the moves' durations (a loaded game). */
void clock_rebuild(game *g)
{
    g->left_ms[0] = g->left_ms[1] = g->clk_initial_ms;
    for (int i = 0; i < tav_session_ply(g->s); i++) {
        int m = core_mover_at(g, i);
        if (m == TAV_WHITE || m == TAV_BLACK)
            g->left_ms[m] += g->clk_inc_ms - tav_session_move_ms(g->s, i);
    }
}

int core_clock(const game *g, int64_t now_ms, int64_t left[2], int64_t *deadline_ms)
{
    if (!clock_on(g))
        return 0;
    int side = core_over(g) ? TAV_NONE : tav_session_to_move(g->s);
    int64_t since = now_ms > g->last_ms ? now_ms - g->last_ms : 0;
    if (g->clk_days > 0) {
        *deadline_ms = side == TAV_NONE ? 0 : g->last_ms + g->clk_days * 86400000;
        return 2;
    }
    for (int k = 0; k < 2; k++)
        left[k] = g->left_ms[k] - (k == side ? since : 0);
    for (int k = 0; k < 2; k++)
        if (left[k] < 0)
            left[k] = 0;
    return 1;
}

/* Whether `side` has made a move in g. */
static int has_moved(const game *g, int side)
{
    for (int i = 0; i < tav_session_ply(g->s); i++)
        if (core_mover_at(g, i) == side)
            return 1;
    return 0;
}

/* The side whose time ran out at now_ms, or -1; *noshow: that side never
 * made its first move (SPEC "No first move, no game": a real-time clock
 * allows CORE_FIRST_MOVE_MS for it, days a move the first deadline), and
 * the game is aborted instead of lost. */
int clock_flag_fallen(const game *g, int64_t now_ms, int *noshow)
{
    *noshow = 0;
    if (!clock_on(g) || core_over(g))
        return -1;
    int side = tav_session_to_move(g->s);
    if (side != TAV_WHITE && side != TAV_BLACK)
        return -1;
    int64_t since = now_ms - g->last_ms;
    int due = g->clk_days > 0 ? since > g->clk_days * 86400000 : g->left_ms[side] - since <= 0;
    if (!due && g->clk_days == 0 && since >= CORE_FIRST_MOVE_MS)
        due = 2;
    if (!due)
        return -1;
    if (!has_moved(g, side))
        *noshow = 1;
    else if (due == 2)
        return -1;
    return side;
}

/* A flag fell: the game ends on time, the other side winning. */
/* The server ends g beyond its rules ("abort", "time", "agreement") with
 * `winner` (TAV_NONE, a side, TAV_DRAW): stored with the batch, then what
 * any end does.  0, or -1 with nothing changed. */
int clock_end_by_server(core *C, game *g, const char *end, int winner)
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

int clock_flag(core *C, game *g, int side, int noshow)
{
    if (noshow) {
        /* No first move, no game: unrated, no winner; the side that did
         * not move is kept with the offers (the page says it in words). */
        if (clock_end_by_server(C, g, "abort", TAV_NONE) != 0)
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
    if (clock_end_by_server(C, g, "time", 1 - side) != 0) {
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
void clock_tick(core *C)
{
    int64_t now = core_game_ms(C);
    for (game *g = C->clocked, *next; g; g = next) {
        next = g->knext;
        int noshow = 0;
        int side = clock_flag_fallen(g, now, &noshow);
        if (side >= 0 && game_claim(C, g)) {
            clock_flag(C, g, side, noshow);
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

/* Whether a claim may ever be made in g: a game between two people's
 * accounts with a real-time clock. */
static int claim_kind(const game *g)
{
    return g->clk_initial_ms > 0 && g->human[0] && g->human[1] && g->account[0][0] &&
           g->account[1][0];
}

/* Whether another instance said lately that the side's account has a
 * socket open there. */
static int seen_elsewhere(const core *C, const game *g, int side)
{
    return C->shared && g->seen_real_ms[side] &&
           core_unix_ms() - g->seen_real_ms[side] < CORE_SEEN_FRESH_MS;
}

/* Whether the side's account has a socket open here or (lately) elsewhere. */
static int side_present(core *C, const game *g, int side)
{
    return (C->ev.present && C->ev.present(C->ev.ctx, g->account[side])) || seen_elsewhere(C, g, side);
}

/* g joins the games whose clocks run: whose accounts are away now. */
static void away_start(core *C, game *g)
{
    int64_t now = core_game_ms(C);
    for (int side = 0; side < 2; side++)
        g->away_ms[side] = claim_kind(g) && C->ev.present && !side_present(C, g, side) ? now : 0;
    g->claim_told = 0;
}

/* The side's away time changed: the other side's claim (or its countdown)
 * comes or goes, and the viewers are told. */
static void away_set(core *C, game *g, int side, int64_t away)
{
    if ((g->away_ms[side] != 0) == (away != 0))
        return;
    g->away_ms[side] = away;
    g->claim_told = 0;
    game_changed(g);
    game_tell(C, g);
}

/* Tell the other instances the account has a socket open here. */
static void say_seen(core *C, const char *account)
{
    char told[STORE_NAME_LEN + 8];
    snprintf(told, sizeof told, "seen %s", account);
    if (wq_notify(C, CORE_CH_ACCOUNT, told) == 0 && C->ev.dirty)
        C->ev.dirty(C->ev.ctx);
}

void core_account_seen_elsewhere(core *C, const char *account)
{
    if (!account || !account[0])
        return;
    int64_t real = core_unix_ms();
    for (game *g = C->clocked; g; g = g->knext) {
        if (!claim_kind(g))
            continue;
        for (int side = 0; side < 2; side++) {
            if (strcasecmp(g->account[side], account) != 0)
                continue;
            g->seen_real_ms[side] = real;
            away_set(C, g, side, 0);
        }
    }
}

/* Many instances, on every tick: every CORE_SEEN_EVERY_MS tell the others
 * which players of clocked games between accounts have a socket open here;
 * a side seen nowhere (not here, not told of for CORE_SEEN_FRESH_MS) is
 * away since it was last seen elsewhere. */
void core_presence_tick(core *C)
{
    if (!C->shared || !C->ev.present)
        return;
    int64_t real = core_unix_ms();
    int tell_now = real - C->seen_told_ms >= CORE_SEEN_EVERY_MS;
    if (tell_now)
        C->seen_told_ms = real;
    for (game *g = C->clocked; g; g = g->knext) {
        if (!claim_kind(g) || core_over(g))
            continue;
        for (int side = 0; side < 2; side++) {
            int here = C->ev.present(C->ev.ctx, g->account[side]);
            if (here && tell_now)
                say_seen(C, g->account[side]);
            if (!here && !g->away_ms[side] && g->seen_real_ms[side] && !seen_elsewhere(C, g, side)) {
                /* gone from the other instance: away since it was last seen there */
                int64_t away = core_game_ms(C) - (real - g->seen_real_ms[side]);
                away_set(C, g, side, away > 0 ? away : 1);
            }
        }
    }
}

int64_t core_claim_in(const game *g, int side, int64_t now_ms)
{
    if ((side != TAV_WHITE && side != TAV_BLACK) || !claim_kind(g) || core_over(g))
        return -1;
    int mover = tav_session_to_move(g->s);
    if (mover != 1 - side || !g->away_ms[mover] || !has_moved(g, mover))
        return -1;   /* a first move not made aborts instead */
    int64_t at = g->away_ms[mover] + CORE_ABANDON_MS;
    return now_ms >= at ? 0 : at - now_ms;
}

void core_account_presence(core *C, const char *account, int present)
{
    if (!account || !account[0])
        return;
    int64_t now = core_game_ms(C);
    for (game *g = C->clocked; g; g = g->knext) {
        if (!claim_kind(g))
            continue;
        for (int side = 0; side < 2; side++) {
            if (strcasecmp(g->account[side], account) != 0)
                continue;
            /* Gone from here but seen on another instance lately: not away
             * (core_presence_tick starts the wait once it is seen nowhere). */
            away_set(C, g, side, present || seen_elsewhere(C, g, side) ? 0 : now);
            if (present && C->shared)
                say_seen(C, g->account[side]);   /* back here: the others hear at once */
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
        clock_flag(C, g, fell, noshow);
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
    if (clock_end_by_server(C, g, "abandon", win ? side : TAV_DRAW) != 0) {
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
    moves_after_change(C, g);
    return CORE_OK;
}

/* Keep the list of games whose clocks run (they stay in memory). */
void clock_list(core *C, game *g)
{
    int want = clock_on(g) && !core_over(g);
    if (want == g->klisted)
        return;
    if (want) {
        g->knext = C->clocked;
        C->clocked = g;
        away_start(C, g);
        game_claim(C, g);   /* many instances: the first to hold it judges its flags */
    } else {
        for (game **pp = &C->clocked; *pp; pp = &(*pp)->knext)
            if (*pp == g) {
                *pp = g->knext;
                break;
            }
    }
    g->klisted = want;
}
