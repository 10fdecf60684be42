/*
 * test_tournament.c — the pure rules of tournaments (src/server/core/
 * tournament.c, docs/tournaments.md): round robin divisions, pairings,
 * Sonneborn–Berger worked by hand, withdrawals; arena streak scores, the
 * last-opponent and abort rules, colours, the clock; then property tests
 * over random round robins and random arenas (seeded: the seed is printed,
 * and `test_tournament SEED` runs that one again).
 * Prints "N passed, N failed"; exits 1 on a failure.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "server/core/tournament.h"

static int passed, failed;

static void check(int ok, const char *what, const char *detail)
{
    if (ok) {
        passed++;
    } else {
        failed++;
        printf("FAIL %s%s%s\n", what, detail && detail[0] ? ": " : "", detail ? detail : "");
    }
}

/* A small deterministic generator (xorshift64*): the test's own. */
static uint64_t rng_state;

static unsigned rnd(unsigned n)
{
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return (unsigned)((rng_state * 2685821657736338717ULL) >> 33) % n;
}

#define MAXP 64
#define MAXG (MAXP * 20)

static void make_players(tour_player *p, int n, int random_ratings)
{
    for (int i = 0; i < n; i++) {
        memset(&p[i], 0, sizeof p[i]);
        snprintf(p[i].name, sizeof p[i].name, "p%02d", i);
        p[i].rating = random_ratings ? 1200.0 + rnd(12) * 50.0 : 1500.0 - i;
        p[i].active = 1;
    }
}

/* ---- round robin ---- */

static void divisions(void)
{
    char d[128];
    int ok_all = 1;
    for (int n = 1; n <= 40; n++) {
        int sizes[8], k = tour_rr_division_sizes(n, sizes), sum = 0, lo = 99, hi = 0;
        for (int i = 0; i < k; i++) {
            sum += sizes[i];
            lo = sizes[i] < lo ? sizes[i] : lo;
            hi = sizes[i] > hi ? sizes[i] : hi;
            if (i > 0 && sizes[i] > sizes[i - 1])
                ok_all = 0;
        }
        snprintf(d, sizeof d, "n=%d: %d divisions, sizes %d..%d, sum %d", n, k, lo, hi, sum);
        check(sum == n && hi <= TOUR_DIVISION_MAX && hi - lo <= 1 && k == (n + 9) / 10,
              "divisions: at most 10, sizes within one, fewest divisions", d);

        /* Divided players: division 1 the best-rated, consecutive, seeds 1..n. */
        tour_player p[MAXP];
        int order[MAXP], seen[MAXP + 1] = {0}, ok = 1;
        make_players(p, n, 1);
        int kd = tour_rr_divide(p, n, order);
        for (int i = 0; i < n; i++) {
            int a = order[i];
            if (p[a].seed != i + 1 || seen[p[a].seed]++)
                ok = 0;
            if (i > 0) {
                int b = order[i - 1];
                if (p[b].rating < p[a].rating || p[b].division > p[a].division)
                    ok = 0;
                if (p[b].rating == p[a].rating && strcmp(p[b].name, p[a].name) > 0)
                    ok = 0;
            }
        }
        for (int k2 = 1; k2 <= kd; k2++) {
            int c = 0;
            for (int i = 0; i < n; i++)
                c += p[i].division == k2;
            if (c != sizes[k2 - 1])
                ok = 0;
        }
        snprintf(d, sizeof d, "n=%d", n);
        check(ok && kd == k, "divisions: rating order (ties by name), seeds, sizes", d);
    }
    check(ok_all, "divisions: larger divisions first", "");
    int s[8];
    check(tour_rr_division_sizes(13, s) == 2 && s[0] == 7 && s[1] == 6, "13 players: 7 + 6", "");
    check(tour_rr_division_sizes(10, s) == 1 && s[0] == 10, "10 players: 10", "");
    check(tour_rr_division_sizes(21, s) == 3 && s[0] == 7 && s[1] == 7 && s[2] == 7, "21 players: 7+7+7", "");
    check(tour_rr_division_sizes(3, s) == 1 && s[0] == 3, "3 players: 3", "");
    check(tour_rr_division_sizes(0, s) == 0, "0 players: no division", "");

    /* Equal ratings: by name, whatever the index. */
    tour_player p[3];
    int order[3];
    make_players(p, 3, 0);
    for (int i = 0; i < 3; i++)
        p[i].rating = 1500;
    strcpy(p[0].name, "carla");
    strcpy(p[1].name, "anna");
    strcpy(p[2].name, "bruno");
    tour_rank(p, 3, order);
    check(order[0] == 1 && order[1] == 2 && order[2] == 0, "equal ratings ranked by name", "");
}

static void pairings(void)
{
    char d[128];
    for (int n = 1; n <= 40; n++) {
        tour_player p[MAXP];
        int order[MAXP];
        static tour_game g[MAXG];
        static int times[MAXP][MAXP];
        make_players(p, n, 1);
        tour_rr_divide(p, n, order);
        int ng = tour_rr_games(p, n, g, MAXG), ok = 1;
        memset(times, 0, sizeof times);
        for (int k = 0; k < ng; k++) {
            if (g[k].white == g[k].black || p[g[k].white].division != p[g[k].black].division ||
                g[k].division != p[g[k].white].division || g[k].result != TOUR_RUNNING)
                ok = 0;
            times[g[k].white][g[k].black]++;
            if (k > 0 && g[k].division < g[k - 1].division)
                ok = 0;
        }
        for (int a = 0; a < n; a++)
            for (int b = 0; b < n; b++)
                if (a != b && times[a][b] != (p[a].division == p[b].division))
                    ok = 0;
        snprintf(d, sizeof d, "n=%d: %d games, expected %d", n, ng, tour_rr_game_count(n));
        check(ok && ng == tour_rr_game_count(n),
              "pairings: each pair of a division twice, one with each colour", d);
        if (n >= 2)
            check(tour_rr_games(p, n, g, ng - 1) == -1, "pairings: too small a list is refused", d);
    }
}

static void play(tour_game *g, int ng, int white, int black, tour_result r)
{
    for (int k = 0; k < ng; k++)
        if (g[k].white == white && g[k].black == black) {
            g[k].result = r;
            return;
        }
    check(0, "test: no such game", "");
}

static void sonneborn_berger(void)
{
    char d[160];
    /* Four players; B (index 1) is the best-rated, so seed alone would put
     * B first.  Results, two games per pair:
     *   A-B A wins both    A-C one each    A-D drawn both
     *   B-C B wins both    B-D B wins both C-D D wins both
     * Scores: A 4, B 4, C 1, D 3 (12 games).  Sonneborn–Berger:
     *   A: 2 wins over B (2 x 4) + 1 win over C (1) + 2 draws with D (2 x 3/2) = 12
     *   B: 2 wins over C (2 x 1) + 2 wins over D (2 x 3)                      = 8
     *   C: 1 win over A (4)                                                    = 4
     *   D: 2 draws with A (2 x 4/2) + 2 wins over C (2 x 1)                    = 6
     * Standings: A (4, 12), B (4, 8), D (3, 6), C (1, 4). */
    tour_player p[4];
    int order[4];
    tour_game g[12];
    tour_standing st[4];
    make_players(p, 4, 0);
    p[1].rating = 2000;
    tour_rr_divide(p, 4, order);
    int ng = tour_rr_games(p, 4, g, 12);
    check(ng == 12, "4 players: 12 games", "");
    play(g, ng, 0, 1, TOUR_WHITE_WON);
    play(g, ng, 1, 0, TOUR_BLACK_WON);
    play(g, ng, 0, 2, TOUR_WHITE_WON);
    play(g, ng, 2, 0, TOUR_WHITE_WON);
    play(g, ng, 0, 3, TOUR_DRAWN);
    play(g, ng, 3, 0, TOUR_DRAWN);
    play(g, ng, 1, 2, TOUR_WHITE_WON);
    play(g, ng, 2, 1, TOUR_BLACK_WON);
    play(g, ng, 1, 3, TOUR_WHITE_WON);
    play(g, ng, 3, 1, TOUR_BLACK_WON);
    play(g, ng, 2, 3, TOUR_BLACK_WON);
    play(g, ng, 3, 2, TOUR_WHITE_WON);
    check(tour_rr_over(g, ng), "all games done: the round robin is over", "");
    check(tour_rr_standings(p, 4, g, ng, st) == 0, "standings computed", "");
    int want_p[4] = {0, 1, 3, 2}, want_s[4] = {8, 8, 6, 2}, want_t[4] = {48, 32, 24, 16};
    for (int i = 0; i < 4; i++) {
        snprintf(d, sizeof d, "place %d: player %d score %d/2 SB %d/4 (want %d %d %d)", i + 1,
                 st[i].player, st[i].score, st[i].tiebreak, want_p[i], want_s[i], want_t[i]);
        check(st[i].player == want_p[i] && st[i].score == want_s[i] && st[i].tiebreak == want_t[i] &&
                  st[i].rank == i + 1 && st[i].division == 1,
              "SB by hand (4 players)", d);
    }

    /* A cycle: A beats B twice, B beats C twice, C beats A twice: all 2
     * points, SB 2 x 2 = 4 each: seed order decides (A, B, C). */
    tour_player q[3];
    tour_game h[6];
    make_players(q, 3, 0);
    tour_rr_divide(q, 3, order);
    ng = tour_rr_games(q, 3, h, 6);
    play(h, ng, 0, 1, TOUR_WHITE_WON);
    play(h, ng, 1, 0, TOUR_BLACK_WON);
    play(h, ng, 1, 2, TOUR_WHITE_WON);
    play(h, ng, 2, 1, TOUR_BLACK_WON);
    play(h, ng, 2, 0, TOUR_WHITE_WON);
    check(!tour_rr_over(h, ng), "a game running: not over", "");
    play(h, ng, 0, 2, TOUR_BLACK_WON);
    tour_rr_standings(q, 3, h, ng, st);
    check(st[0].player == 0 && st[1].player == 1 && st[2].player == 2 && st[0].score == 4 &&
              st[2].score == 4 && st[0].tiebreak == 16 && st[2].tiebreak == 16,
          "equal score and SB: seed order", "");

    /* A draw against a player of 3 points gives 1.5 (6 quarters). */
    for (int k = 0; k < ng; k++)
        h[k].result = TOUR_RUNNING;
    play(h, ng, 0, 1, TOUR_WHITE_WON);
    play(h, ng, 1, 0, TOUR_BLACK_WON);
    play(h, ng, 0, 2, TOUR_DRAWN);
    play(h, ng, 2, 0, TOUR_DRAWN);
    tour_rr_standings(q, 3, h, ng, st);
    /* A: 3 points, SB 0 (B has 0) + 2 x 1/2 x 1 (C has 1) = 1 -> 4 quarters.
     * C: 1 point, SB 2 x 1/2 x 3 = 3 -> 12 quarters.  B: 0. */
    check(st[0].player == 0 && st[0].score == 6 && st[0].tiebreak == 4 && st[1].player == 2 &&
              st[1].score == 2 && st[1].tiebreak == 12 && st[2].player == 1 && st[2].score == 0,
          "SB of draws: half the opponent's score", "");

    /* An abort in a round robin: the side that did not move loses. */
    for (int k = 0; k < ng; k++)
        h[k].result = TOUR_RUNNING;
    h[0].result = TOUR_ABORTED;
    h[0].idle = 1;
    tour_rr_standings(q, 3, h, ng, st);
    int sw = -1, sb = -1;
    for (int i = 0; i < 3; i++) {
        if (st[i].player == h[0].white)
            sw = st[i].score;
        if (st[i].player == h[0].black)
            sb = st[i].score;
    }
    check(sw == 2 && sb == 0, "round robin abort: a loss for the side that did not move", "");
}

static void withdrawal(void)
{
    tour_player p[4];
    int order[4];
    tour_game g[12];
    tour_standing st[4];
    make_players(p, 4, 0);
    tour_rr_divide(p, 4, order);
    int ng = tour_rr_games(p, 4, g, 12);
    play(g, ng, 0, 1, TOUR_WHITE_WON);  /* player 1 lost this one, */
    play(g, ng, 1, 2, TOUR_WHITE_WON);  /* won this one, */
    play(g, ng, 3, 1, TOUR_DRAWN);      /* drew this one */
    play(g, ng, 2, 3, TOUR_DRAWN);
    check(tour_rr_withdraw(p, 4, g, ng, 1) == 3, "withdrawal decides its 3 unfinished games", "");
    check(p[1].withdrawn, "withdrawn player marked", "");
    int ok = 1, forfeits = 0;
    for (int k = 0; k < ng; k++) {
        if (g[k].forfeit) {
            forfeits++;
            if ((g[k].white == 1 && g[k].result != TOUR_BLACK_WON) ||
                (g[k].black == 1 && g[k].result != TOUR_WHITE_WON) ||
                (g[k].white != 1 && g[k].black != 1))
                ok = 0;
        } else if ((g[k].white == 1 || g[k].black == 1) && g[k].result == TOUR_RUNNING) {
            ok = 0;
        }
    }
    check(ok && forfeits == 3, "withdrawal: its unfinished games lost, opponents win", "");
    check(g[0].result == TOUR_WHITE_WON && !g[0].forfeit, "withdrawal: finished games kept", "");
    check(!tour_rr_over(g, ng), "others' games still running: not over", "");
    check(tour_rr_withdraw(p, 4, g, ng, 1) == 0, "withdrawing again decides nothing", "");
    check(tour_rr_withdraw(p, 4, g, ng, 4) == -1, "withdrawal of no such player refused", "");
    tour_rr_standings(p, 4, g, ng, st);
    /* Player 1: won 1 game (2 halves) + drew 1 (1 half) = 3 halves. */
    for (int i = 0; i < 4; i++)
        if (st[i].player == 1)
            check(st[i].score == 3, "withdrawn player keeps the points it made", "");
    for (int k = 0; k < ng; k++)
        if (g[k].result == TOUR_RUNNING)
            g[k].result = TOUR_DRAWN;
    check(tour_rr_over(g, ng), "then over when all games are", "");
}

/* ---- arena ---- */

static void streaks(void)
{
    char d[160];
    struct {
        const char *seq;   /* W win, D draw, L loss, I abort (idle), M abort (moved) */
        int points[12];
    } cases[] = {
        {"WWWWDWWWLW", {2, 2, 4, 4, 2, 2, 2, 4, 0, 2}},
        {"DWDWWD", {1, 2, 1, 2, 2, 2}},
        {"WWMW", {2, 2, 0, 4}},
        {"WWIW", {2, 2, 0, 2}},
        {"LLWWWWW", {0, 0, 2, 2, 4, 4, 4}},
        {"WWDD", {2, 2, 2, 1}},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        int streak = 0, ok = 1;
        for (int i = 0; cases[c].seq[i]; i++) {
            char ch = cases[c].seq[i];
            tour_outcome o = ch == 'W' ? TOUR_WIN : ch == 'D' ? TOUR_DRAW : ch == 'L' ? TOUR_LOSS
                             : ch == 'I' ? TOUR_ABORT_IDLE : TOUR_ABORT_MOVED;
            if (tour_arena_points(&streak, o) != cases[c].points[i])
                ok = 0;
        }
        snprintf(d, sizeof d, "%s", cases[c].seq);
        check(ok, "arena streak scoring", d);
    }

    /* The same through tally: games listed in the order they started. */
    tour_player p[2];
    tour_game g[6];
    tour_arena_stat st[2];
    make_players(p, 2, 0);
    tour_result r[6] = {TOUR_WHITE_WON, TOUR_BLACK_WON, TOUR_WHITE_WON, TOUR_DRAWN, TOUR_ABORTED,
                        TOUR_RUNNING};
    for (int k = 0; k < 6; k++)   /* player 0 white in even games */
        g[k] = (tour_game){.white = k % 2, .black = 1 - k % 2, .result = r[k], .idle = 1};
    /* Player 0: W W W D, abort (black idle: game 4 has player 0 white, moved).
     * 2 + 2 + 4 + 2 + 0 = 10, streak 0.  Player 1: L L L D, abort idle = 1. */
    check(tour_arena_tally(p, 2, g, 6, st) == 0, "tally", "");
    snprintf(d, sizeof d, "scores %d %d, wins %d %d, games %d %d", st[0].score, st[1].score,
             st[0].wins, st[1].wins, st[0].games, st[1].games);
    check(st[0].score == 10 && st[1].score == 1 && st[0].wins == 3 && st[0].games == 4 &&
              st[0].busy && st[1].busy && st[0].last_opp == 1 && st[0].last_aborted,
          "arena tally: streaks, aborts, running games", d);
}

/* An arena state built from a list of finished games. */
static int arena(tour_player *p, int n, const tour_game *g, int ng, int64_t now, tour_pairing *out)
{
    tour_arena_stat st[MAXP];
    int work[2 * MAXP];
    tour_arena_tally(p, n, g, ng, st);
    return tour_arena_pair(p, st, n, now, 0, 1000, out, work);
}

static int has_pair(const tour_pairing *o, int np, int a, int b)
{
    for (int i = 0; i < np; i++)
        if ((o[i].white == a && o[i].black == b) || (o[i].white == b && o[i].black == a))
            return 1;
    return 0;
}

static void arena_rules(void)
{
    tour_player p[4];
    tour_pairing o[4];
    make_players(p, 4, 0);

    /* A (0) and B (1) just played; C (2) free too: A-B never. */
    tour_game g1[] = {{.white = 0, .black = 1, .result = TOUR_DRAWN}};
    p[3].active = 0;
    int np = arena(p, 4, g1, 1, 10, o);
    check(np == 1 && !has_pair(o, np, 0, 1), "last opponents not paired while a third is free", "");
    /* Only A and B free: they may play again. */
    p[2].active = 0;
    np = arena(p, 4, g1, 1, 10, o);
    check(np == 1 && has_pair(o, np, 0, 1), "last opponents paired when no third is free", "");
    /* After an abort between them: not at once, even alone. */
    tour_game g2[] = {{.white = 0, .black = 1, .result = TOUR_ABORTED, .idle = 1}};
    np = arena(p, 4, g2, 1, 10, o);
    check(np == 0, "an abort: those two not paired again at once", "");
    p[2].active = 1;
    np = arena(p, 4, g2, 1, 10, o);
    check(np == 1 && !has_pair(o, np, 0, 1), "after an abort each may meet a third", "");
    /* After A played C since, A-B is allowed again. */
    tour_game g3[] = {{.white = 0, .black = 1, .result = TOUR_ABORTED, .idle = 1},
                      {.white = 0, .black = 2, .result = TOUR_DRAWN},
                      {.white = 1, .black = 2, .result = TOUR_DRAWN}};
    p[2].active = 0;
    np = arena(p, 4, g3, 3, 10, o);
    check(np == 1 && has_pair(o, np, 0, 1), "an abort's pair allowed again once both played others", "");

    /* Four free, A-B and C-D last: the pairs cross. */
    for (int i = 0; i < 4; i++)
        p[i].active = 1;
    tour_game g4[] = {{.white = 0, .black = 1, .result = TOUR_WHITE_WON},
                      {.white = 2, .black = 3, .result = TOUR_WHITE_WON}};
    np = arena(p, 4, g4, 2, 10, o);
    check(np == 2 && !has_pair(o, np, 0, 1) && !has_pair(o, np, 2, 3), "four free: no rematch", "");
    check(np == 2 && has_pair(o, np, 0, 2) && has_pair(o, np, 1, 3), "four free: closest scores", "");
    /* Colours: 0 had white last, 3 black: 0 gets black. */
    p[1].active = p[2].active = 0;
    np = arena(p, 4, g4, 2, 10, o);
    check(np == 1 && o[0].white == 3 && o[0].black == 0, "colours alternate: white last gets black", "");
    p[1].active = p[2].active = 1;
    /* Both had white last: the one with more whites than blacks gets black. */
    tour_game g5[] = {{.white = 1, .black = 2, .result = TOUR_DRAWN},
                      {.white = 0, .black = 2, .result = TOUR_DRAWN},
                      {.white = 1, .black = 3, .result = TOUR_DRAWN}};
    p[2].active = p[3].active = 0;
    np = arena(p, 4, g5, 3, 10, o);
    check(np == 1 && o[0].black == 1 && o[0].white == 0, "both white last: more whites gets black", "");
    /* Nobody has played: the higher in order (score, rating) gets white. */
    np = arena(p, 4, NULL, 0, 10, o);
    check(np == 1 && o[0].white == 0 && o[0].black == 1, "first game: the higher-rated gets white", "");

    /* The clock: none before the start, none from `ends` on. */
    p[2].active = p[3].active = 1;
    check(arena(p, 4, NULL, 0, -1, o) == 0, "no pairing before the start", "");
    check(arena(p, 4, NULL, 0, 1000, o) == 0, "no pairing at ends", "");
    check(arena(p, 4, NULL, 0, 5000, o) == 0, "no pairing after ends", "");
    check(arena(p, 4, NULL, 0, 999, o) == 2, "pairing just before ends", "");
    /* A game running at `ends` counts when it ends. */
    tour_game g6[] = {{.white = 0, .black = 1, .result = TOUR_RUNNING}};
    tour_arena_stat st[4];
    tour_arena_tally(p, 4, g6, 1, st);
    check(st[0].busy && st[0].score == 0, "running at ends: busy, nothing yet", "");
    g6[0].result = TOUR_BLACK_WON;
    tour_arena_tally(p, 4, g6, 1, st);
    check(!st[1].busy && st[1].score == 2, "ended after ends: it counts", "");
    check(tour_arena_over(g6, 1, 1000, 1000) && !tour_arena_over(g6, 1, 999, 1000),
          "arena over from ends once no game runs", "");
    g6[0].result = TOUR_RUNNING;
    check(!tour_arena_over(g6, 1, 5000, 1000), "arena not over while a game runs", "");
    /* Busy and inactive players are not paired. */
    g6[0].result = TOUR_RUNNING;
    np = arena(p, 4, g6, 1, 10, o);
    check(np == 1 && has_pair(o, np, 2, 3), "players in a game are not paired", "");
    p[3].active = 0;
    np = arena(p, 4, g6, 1, 10, o);
    check(np == 0, "a free player waits while nobody else is free", "");

    /* By score, then rating: scores 8, 6, 2, 1 -> (8, 6) and (2, 1). */
    tour_player q[4];
    make_players(q, 4, 0);
    tour_game g7[] = {{.white = 0, .black = 2, .result = TOUR_WHITE_WON},
                      {.white = 1, .black = 3, .result = TOUR_WHITE_WON},
                      {.white = 2, .black = 1, .result = TOUR_DRAWN},
                      {.white = 3, .black = 0, .result = TOUR_DRAWN}};
    /* 0: 2+1 = 3, 1: 2+1 = 3, 2: 1, 3: 1. Ratings 1500, 1499, 1498, 1497. */
    np = arena(q, 4, g7, 4, 10, o);
    check(np == 2 && has_pair(o, np, 0, 1) && has_pair(o, np, 2, 3), "pairing by closest scores", "");
    q[1].rating = 1000;   /* scores equal in pairs; ratings pick among equals */
    tour_game g8[] = {{.white = 0, .black = 3, .result = TOUR_DRAWN},
                      {.white = 1, .black = 2, .result = TOUR_DRAWN}};
    /* All 1 point; ratings 1500, 1000, 1498, 1497; 0 and 3 last met, 1 and 2 last met.
     * 0 (first in order) takes 2 (closest rating, 3 barred); 3 takes 1. */
    np = arena(q, 4, g8, 2, 10, o);
    check(np == 2 && has_pair(o, np, 0, 2) && has_pair(o, np, 1, 3), "equal scores: closest rating", "");

    /* Standings: score, then wins, then rating. */
    tour_standing s[4];
    tour_arena_tally(q, 4, g7, 4, st);
    tour_arena_standings(q, st, 4, s);
    check(s[0].player == 0 && s[1].player == 1 && s[0].score == 3 && s[0].tiebreak == 1 &&
              s[3].player == 3 && s[3].rank == 4,
          "arena standings", "");
}

/* ---- properties ---- */

static void random_round_robins(int rounds)
{
    char d[160];
    int bad_sum = 0, bad_order = 0, bad_sb = 0, bad_over = 0, bad_rank = 0;
    for (int r = 0; r < rounds; r++) {
        int n = 3 + (int)rnd(38);
        tour_player p[MAXP];
        int order[MAXP];
        static tour_game g[MAXG];
        tour_standing st[MAXP];
        make_players(p, n, 1);
        tour_rr_divide(p, n, order);
        int ng = tour_rr_games(p, n, g, MAXG);
        int running_wanted = rnd(3) == 0;
        for (int k = 0; k < ng; k++) {
            unsigned x = rnd(running_wanted ? 5 : 4);
            g[k].result = x == 0 ? TOUR_WHITE_WON : x == 1 ? TOUR_BLACK_WON : x == 2 ? TOUR_DRAWN
                        : x == 3 ? (rnd(10) ? TOUR_DRAWN : TOUR_ABORTED) : TOUR_RUNNING;
            g[k].idle = (int)rnd(2);
        }
        if (rnd(2))
            tour_rr_withdraw(p, n, g, ng, (int)rnd((unsigned)n));
        int finished = 0;
        for (int k = 0; k < ng; k++)
            finished += g[k].result != TOUR_RUNNING;
        tour_rr_standings(p, n, g, ng, st);
        int sum = 0;
        for (int i = 0; i < n; i++)
            sum += st[i].score;
        bad_sum += sum != 2 * finished;
        bad_over += tour_rr_over(g, ng) != (finished == ng);

        /* Naively, in floating point: scores and SB. */
        double score[MAXP] = {0}, sb[MAXP] = {0};
        for (int k = 0; k < ng; k++) {
            double w;
            switch (g[k].result) {
            case TOUR_WHITE_WON: w = 1; break;
            case TOUR_BLACK_WON: w = 0; break;
            case TOUR_DRAWN: w = 0.5; break;
            case TOUR_ABORTED: w = g[k].idle ? 1 : 0; break;
            default: continue;
            }
            score[g[k].white] += w;
            score[g[k].black] += 1 - w;
        }
        for (int k = 0; k < ng; k++) {
            int a = g[k].white, b = g[k].black;
            if (g[k].result == TOUR_RUNNING)
                continue;
            int wa = g[k].result == TOUR_WHITE_WON || (g[k].result == TOUR_ABORTED && g[k].idle);
            int wb = g[k].result == TOUR_BLACK_WON || (g[k].result == TOUR_ABORTED && !g[k].idle);
            if (wa)
                sb[a] += score[b];
            else if (wb)
                sb[b] += score[a];
            else {
                sb[a] += score[b] / 2;
                sb[b] += score[a] / 2;
            }
        }
        int seen[MAXP] = {0};
        for (int i = 0; i < n; i++) {
            int x = st[i].player;
            seen[x]++;
            if (fabs(st[i].score / 2.0 - score[x]) > 1e-9 || fabs(st[i].tiebreak / 4.0 - sb[x]) > 1e-9)
                bad_sb++;
            if (st[i].division != p[x].division)
                bad_order++;
            if (i > 0) {
                const tour_standing *a = &st[i - 1], *b = &st[i];
                int ok = a->division < b->division ||
                         (a->division == b->division &&
                          (a->score > b->score ||
                           (a->score == b->score &&
                            (a->tiebreak > b->tiebreak ||
                             (a->tiebreak == b->tiebreak && p[a->player].seed < p[b->player].seed)))));
                bad_order += !ok;
                bad_rank += b->rank != (a->division == b->division ? a->rank + 1 : 1);
            }
        }
        for (int i = 0; i < n; i++)
            bad_order += seen[i] != 1;
    }
    snprintf(d, sizeof d, "%d round robins", rounds);
    check(!bad_sum, "random round robins: scores add up to the finished games", d);
    check(!bad_over, "random round robins: over iff no game running", d);
    check(!bad_sb, "random round robins: scores and SB as recomputed naively", d);
    check(!bad_order, "random round robins: standings sorted, every player once", d);
    check(!bad_rank, "random round robins: ranks within divisions", d);
}

/* The test's own arena points (independent of tour_arena_points). */
static int naive_points(int *run, int won, int drawn)
{
    int fire = *run >= 2, pts = won ? (fire ? 4 : 2) : drawn ? (fire ? 2 : 1) : 0;
    *run = won ? *run + 1 : 0;
    return pts;
}

static void random_arenas(int rounds)
{
    char d[200];
    int bad_busy = 0, bad_free = 0, bad_score = 0, bad_repeat = 0, bad_abort = 0, bad_clock = 0,
        bad_det = 0, bad_colour = 0, bad_wait = 0, pairs_made = 0, waits = 0;
    for (int r = 0; r < rounds; r++) {
        int n = 2 + (int)rnd(30);
        tour_player p[MAXP];
        static tour_game g[4096];
        int ng = 0, score[MAXP] = {0}, run[MAXP] = {0};
        int64_t ends = 200 + rnd(200);
        make_players(p, n, 1);
        for (int i = 0; i < n; i++)
            p[i].active = rnd(4) != 0;
        for (int64_t now = 0; now < ends + 50; now++) {
            /* Some running games end: finish order is random. */
            for (int k = 0; k < ng; k++) {
                if (g[k].result != TOUR_RUNNING || rnd(3))
                    continue;
                unsigned x = rnd(20);
                g[k].result = x < 8 ? TOUR_WHITE_WON : x < 15 ? TOUR_BLACK_WON : x < 18 ? TOUR_DRAWN
                                                                              : TOUR_ABORTED;
                g[k].idle = (int)rnd(2);
                for (int side = 0; side < 2; side++) {
                    int who = side ? g[k].black : g[k].white;
                    if (g[k].result == TOUR_ABORTED) {
                        if (g[k].idle == side)
                            run[who] = 0;
                        continue;
                    }
                    int won = g[k].result == (side ? TOUR_BLACK_WON : TOUR_WHITE_WON);
                    score[who] += naive_points(&run[who], won, g[k].result == TOUR_DRAWN);
                }
            }
            /* Players come and go. */
            if (rnd(10) == 0) {
                int who = (int)rnd((unsigned)n);
                p[who].active = !p[who].active;
            }
            /* A "restart": everything from the stored players and games. */
            tour_arena_stat st[MAXP];
            tour_pairing o[MAXP], o2[MAXP];
            int work[2 * MAXP];
            tour_arena_tally(p, n, g, ng, st);
            for (int i = 0; i < n; i++)
                bad_score += st[i].score != score[i];
            int np = tour_arena_pair(p, st, n, now, 0, ends, o, work);
            int np2 = tour_arena_pair(p, st, n, now, 0, ends, o2, work);
            bad_det += np != np2 || memcmp(o, o2, (size_t)np * sizeof o[0]) != 0;
            bad_clock += now >= ends && np > 0;
            int nfree = 0, in_pair[MAXP] = {0};
            for (int i = 0; i < n; i++)
                nfree += p[i].active && !st[i].busy;
            for (int i = 0; i < np; i++) {
                int a = o[i].white, b = o[i].black;
                if (a == b || !p[a].active || !p[b].active || st[a].busy || st[b].busy ||
                    in_pair[a]++ || in_pair[b]++)
                    bad_free++;
                if ((st[a].last_opp == b && st[a].last_aborted) || (st[b].last_opp == a && st[b].last_aborted))
                    bad_abort++;
                /* A rematch only as the last pair, every other free player paired. */
                if ((st[a].last_opp == b || st[b].last_opp == a) && (i != np - 1 || 2 * np != nfree))
                    bad_repeat++;
                /* White last and the other not: black now. */
                if (st[a].last_colour == 0 && st[b].last_colour != 0)
                    bad_colour++;
                if (ng < (int)(sizeof g / sizeof g[0]))
                    g[ng++] = (tour_game){.white = a, .black = b};
            }
            /* Nobody left waiting beside a partner they could have had:
             * two left over are barred by an abort, or by a rematch while
             * a third is left free too. */
            int left[MAXP], nleft = 0;
            for (int i = 0; i < n; i++)
                if (p[i].active && !st[i].busy && !in_pair[i])
                    left[nleft++] = i;
            for (int i = 0; i < nleft && now < ends; i++)
                for (int j = i + 1; j < nleft; j++) {
                    int a = left[i], b = left[j];
                    int met = st[a].last_opp == b || st[b].last_opp == a;
                    int aborted = (st[a].last_opp == b && st[a].last_aborted) ||
                                  (st[b].last_opp == a && st[b].last_aborted);
                    if (!aborted && !(met && nleft > 2))
                        bad_wait++;
                }
            waits += now < ends && nleft >= 2;
            pairs_made += np;
            /* No player in two running games. */
            int running[MAXP] = {0};
            for (int k = 0; k < ng; k++)
                if (g[k].result == TOUR_RUNNING && (running[g[k].white]++ || running[g[k].black]++))
                    bad_busy++;
        }
        /* Finish everything: running games at `ends` still count. */
        for (int k = 0; k < ng; k++)
            if (g[k].result == TOUR_RUNNING) {
                g[k].result = TOUR_DRAWN;
                for (int side = 0; side < 2; side++) {
                    int who = side ? g[k].black : g[k].white;
                    score[who] += naive_points(&run[who], 0, 1);
                }
            }
        tour_arena_stat st[MAXP];
        tour_arena_tally(p, n, g, ng, st);
        for (int i = 0; i < n; i++)
            bad_score += st[i].score != score[i];
    }
    snprintf(d, sizeof d, "%d arenas, %d pairings, %d waits with two or more left", rounds, pairs_made,
             waits);
    printf("  %s\n", d);
    check(pairs_made > 0, "random arenas: pairings were made", d);
    check(!bad_score, "random arenas: tallied scores match the incremental ones", d);
    check(!bad_busy, "random arenas: no player in two games at once", d);
    check(!bad_free, "random arenas: only free active players, once each", d);
    check(!bad_repeat, "random arenas: no rematch while a third is free", d);
    check(!bad_abort, "random arenas: no pair again right after an abort", d);
    check(!bad_clock, "random arenas: no pairing from ends on", d);
    check(!bad_det, "random arenas: the same state gives the same pairings", d);
    check(!bad_wait, "random arenas: a free player waits only when every partner is barred", d);
    check(!bad_colour, "random arenas: white last gets black when the other had not", d);
}

int main(int argc, char **argv)
{
    unsigned long seed = argc > 1 ? strtoul(argv[1], NULL, 10) : (unsigned long)time(NULL);
    printf("test_tournament seed %lu\n", seed);
    rng_state = seed * 0x9E3779B97F4A7C15ULL + 1;

    divisions();
    pairings();
    sonneborn_berger();
    withdrawal();
    streaks();
    arena_rules();
    random_round_robins(300);
    random_arenas(60);

    printf("%d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}
