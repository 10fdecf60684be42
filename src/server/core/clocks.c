/*
 * clocks.c — clocks: time left, whether a flag fell (or a first move never
 * came), the list of games whose clocks run, who of their players is
 * present (and how long until a claim on an absent one), and the test
 * clock.  What the server does when a flag falls is flags.c's.
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

/* The test clock (--test-clock FILE, tests only): the file's first line
 * starts with an offset in ms (what follows it, e.g. a sequence number, is
 * the test's own), read on every tick; once a new line is in force it is
 * written back to FILE.ack.PID (whole, by a rename; PID this process's, so
 * that each of several instances says so), and a test waits for its
 * own line there instead of guessing when the server read it.  Clocks are
 * judged right after. */
void clock_test_read(core *C)
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
