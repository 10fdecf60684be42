/*
 * tournament.c — the pure rules of tournaments (tournament.h,
 * docs/tournaments.md).
 *
 * Round robin: players are ranked (rating, then name, then index), cut into
 * d = ceil(n / 10) consecutive divisions whose sizes differ by at most one,
 * and every pair of a division gets two games, one with each colour.
 * Scores are kept in half-points and Sonneborn–Berger in quarter-points so
 * that nothing is a float.
 *
 * Arena: nothing is stored but the players and the games; every answer
 * (scores, streaks, last opponents, colours, who is free, the pairings) is
 * recomputed from them, so a restarted server pairs exactly as the one that
 * stopped would have.  Pairing is greedy and deterministic: free players in
 * order of score then rating; each takes the closest allowed free partner
 * (score, then rating, then that order); passes repeat until one pairs
 * nobody, because a pair forbidden "while a third is free" may become
 * allowed once the third is paired.  O(n^2) per pass, n the free players.
 *
 * Sorting is an insertion sort over indices with the caller's arrays as
 * context (qsort has none in C11); n is small (a tournament's players).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "server/core/tournament.h"

/* 1 if player a ranks before player b in rating order. */
static int rating_before(const tour_player *p, int a, int b)
{
    if (p[a].rating != p[b].rating)
        return p[a].rating > p[b].rating;
    int c = strcmp(p[a].name, p[b].name);
    if (c)
        return c < 0;
    return a < b;
}

void tour_rank(const tour_player *p, int n, int *order)
{
    for (int i = 0; i < n; i++) {
        int x = i, j = i;
        for (; j > 0 && rating_before(p, x, order[j - 1]); j--)
            order[j] = order[j - 1];
        order[j] = x;
    }
}

int tour_rr_division_sizes(int n, int *sizes)
{
    if (n <= 0)
        return 0;
    int d = (n + TOUR_DIVISION_MAX - 1) / TOUR_DIVISION_MAX;
    if (sizes)
        for (int i = 0; i < d; i++)
            sizes[i] = n / d + (i < n % d);
    return d;
}

int tour_rr_divide(tour_player *p, int n, int *order)
{
    int sizes[1 + 1024], d = tour_rr_division_sizes(n, NULL);
    if (d > 1024)
        return -1;
    tour_rr_division_sizes(n, sizes);
    tour_rank(p, n, order);
    for (int k = 0, at = 0; k < d; k++)
        for (int i = 0; i < sizes[k]; i++, at++) {
            p[order[at]].division = k + 1;
            p[order[at]].seed = at + 1;
        }
    return d;
}

int tour_rr_game_count(int n)
{
    int sizes[1 + 1024], d = tour_rr_division_sizes(n, NULL), count = 0;
    if (d > 1024)
        return -1;
    tour_rr_division_sizes(n, sizes);
    for (int k = 0; k < d; k++)
        count += sizes[k] * (sizes[k] - 1);
    return count;
}

/* The player of seed s, -1 none. */
static int of_seed(const tour_player *p, int n, int s)
{
    for (int i = 0; i < n; i++)
        if (p[i].seed == s)
            return i;
    return -1;
}

int tour_rr_games(const tour_player *p, int n, tour_game *out, int max)
{
    int count = 0;
    /* Seeds run through the divisions in order, so a division's players
     * are consecutive seeds: pairs (s, t), s < t, in seed order. */
    for (int s = 1; s <= n; s++) {
        int a = of_seed(p, n, s);
        if (a < 0 || p[a].division < 1)
            continue;
        for (int t = s + 1; t <= n; t++) {
            int b = of_seed(p, n, t);
            if (b < 0 || p[b].division != p[a].division)
                break;
            if (count + 2 > max)
                return -1;
            out[count++] = (tour_game){.white = a, .black = b, .division = p[a].division};
            out[count++] = (tour_game){.white = b, .black = a, .division = p[a].division};
        }
    }
    return count;
}

int tour_rr_withdraw(tour_player *p, int n, tour_game *g, int ng, int who)
{
    if (who < 0 || who >= n)
        return -1;
    p[who].withdrawn = 1;
    int decided = 0;
    for (int i = 0; i < ng; i++) {
        if (g[i].result != TOUR_RUNNING || (g[i].white != who && g[i].black != who))
            continue;
        g[i].result = g[i].white == who ? TOUR_BLACK_WON : TOUR_WHITE_WON;
        g[i].forfeit = 1;
        decided++;
    }
    return decided;
}

int tour_rr_over(const tour_game *g, int ng)
{
    for (int i = 0; i < ng; i++)
        if (g[i].result == TOUR_RUNNING)
            return 0;
    return 1;
}

/* Half-points of a round robin game for white (0..2), -1 while running.  An
 * abort counts as a forfeit: the side that did not move loses. */
static int rr_white_half(const tour_game *g)
{
    switch (g->result) {
    case TOUR_WHITE_WON: return 2;
    case TOUR_BLACK_WON: return 0;
    case TOUR_DRAWN: return 1;
    case TOUR_ABORTED: return g->idle == 0 ? 0 : 2;
    default: return -1;
    }
}

/* 1 if standing a comes before standing b (round robin). */
static int rr_before(const tour_player *p, const tour_standing *a, const tour_standing *b)
{
    if (a->division != b->division)
        return a->division < b->division;
    if (a->score != b->score)
        return a->score > b->score;
    if (a->tiebreak != b->tiebreak)
        return a->tiebreak > b->tiebreak;
    if (p[a->player].seed != p[b->player].seed)
        return p[a->player].seed < p[b->player].seed;
    return a->player < b->player;
}

int tour_rr_standings(const tour_player *p, int n, const tour_game *g, int ng,
                      tour_standing *out)
{
    /* 1. Scores: out[i] is player i until the sort. */
    for (int i = 0; i < n; i++)
        out[i] = (tour_standing){.player = i, .division = p[i].division};
    for (int k = 0; k < ng; k++) {
        if (g[k].white < 0 || g[k].white >= n || g[k].black < 0 || g[k].black >= n)
            return -1;
        int w = rr_white_half(&g[k]);
        if (w < 0)
            continue;
        out[g[k].white].score += w;
        out[g[k].black].score += 2 - w;
    }
    /* 2. Sonneborn–Berger from the final scores: a win adds the opponent's
     * score, a draw half of it (quarter-points: 2 * half-points, 1 *). */
    for (int k = 0; k < ng; k++) {
        int w = rr_white_half(&g[k]);
        if (w < 0)
            continue;
        out[g[k].white].tiebreak += w * out[g[k].black].score;
        out[g[k].black].tiebreak += (2 - w) * out[g[k].white].score;
    }
    /* 3. Order, then ranks within each division. */
    for (int i = 1; i < n; i++) {
        tour_standing x = out[i];
        int j = i;
        for (; j > 0 && rr_before(p, &x, &out[j - 1]); j--)
            out[j] = out[j - 1];
        out[j] = x;
    }
    for (int i = 0; i < n; i++)
        out[i].rank = i > 0 && out[i - 1].division == out[i].division ? out[i - 1].rank + 1 : 1;
    return 0;
}

int tour_arena_points(int *streak, tour_outcome o)
{
    int fire = *streak >= 2;
    switch (o) {
    case TOUR_WIN:
        ++*streak;
        return fire ? 4 : 2;
    case TOUR_DRAW:
        *streak = 0;
        return fire ? 2 : 1;
    case TOUR_LOSS:
    case TOUR_ABORT_IDLE:
        *streak = 0;
        return 0;
    case TOUR_ABORT_MOVED:
    default:
        return 0;
    }
}

/* The outcome of game g for its side `side` (0 white, 1 black). */
static tour_outcome outcome_of(const tour_game *g, int side)
{
    switch (g->result) {
    case TOUR_WHITE_WON: return side == 0 ? TOUR_WIN : TOUR_LOSS;
    case TOUR_BLACK_WON: return side == 1 ? TOUR_WIN : TOUR_LOSS;
    case TOUR_DRAWN: return TOUR_DRAW;
    default: return g->idle == side ? TOUR_ABORT_IDLE : TOUR_ABORT_MOVED;
    }
}

int tour_arena_tally(const tour_player *p, int n, const tour_game *g, int ng,
                     tour_arena_stat *st)
{
    (void)p;
    for (int i = 0; i < n; i++)
        st[i] = (tour_arena_stat){.last_opp = -1, .last_colour = -1};
    for (int k = 0; k < ng; k++) {
        if (g[k].white < 0 || g[k].white >= n || g[k].black < 0 || g[k].black >= n)
            return -1;
        for (int side = 0; side < 2; side++) {
            tour_arena_stat *s = &st[side ? g[k].black : g[k].white];
            if (g[k].result == TOUR_RUNNING) {
                s->busy = 1;
                continue;
            }
            tour_outcome o = outcome_of(&g[k], side);
            s->score += tour_arena_points(&s->streak, o);
            s->wins += o == TOUR_WIN;
            s->games += g[k].result != TOUR_ABORTED;
            s->last_opp = side ? g[k].white : g[k].black;
            s->last_colour = side;
            s->last_aborted = g[k].result == TOUR_ABORTED;
            if (side)
                s->blacks++;
            else
                s->whites++;
        }
    }
    return 0;
}

/* 1 if free player a comes before b in the arena's pairing order. */
static int arena_before(const tour_player *p, const tour_arena_stat *st, int a, int b)
{
    if (st[a].score != st[b].score)
        return st[a].score > st[b].score;
    return rating_before(p, a, b);
}

/* 1 if a and b just played each other (the last game of either). */
static int last_met(const tour_arena_stat *st, int a, int b)
{
    return st[a].last_opp == b || st[b].last_opp == a;
}

/* 1 if a and b's last game together, the last of either, was an abort. */
static int just_aborted(const tour_arena_stat *st, int a, int b)
{
    return (st[a].last_opp == b && st[a].last_aborted) || (st[b].last_opp == a && st[b].last_aborted);
}

/* Colours for a and b, a before b in pairing order: a player who had white
 * last gets black where the other did not; else the one with more whites
 * than blacks gets black; else a (the higher in order) gets white. */
static tour_pairing colours(const tour_arena_stat *st, int a, int b)
{
    int wa = st[a].last_colour == 0, wb = st[b].last_colour == 0;
    int ba = st[a].last_colour == 1, bb = st[b].last_colour == 1;
    int a_black;
    if (wa != wb)
        a_black = wa;
    else if (ba != bb)
        a_black = bb;
    else if (st[a].whites - st[a].blacks != st[b].whites - st[b].blacks)
        a_black = st[a].whites - st[a].blacks > st[b].whites - st[b].blacks;
    else
        a_black = 0;
    return a_black ? (tour_pairing){b, a} : (tour_pairing){a, b};
}

int tour_arena_pair(const tour_player *p, const tour_arena_stat *st, int n,
                    int64_t now, int64_t starts, int64_t ends,
                    tour_pairing *out, int *work)
{
    if (now < starts || now >= ends)
        return 0;
    int *order = work, *taken = work + n, nf = 0, made = 0;
    /* 1. The free players in pairing order. */
    for (int i = 0; i < n; i++) {
        taken[i] = 0;
        if (!p[i].active || st[i].busy)
            continue;
        int j = nf++;
        for (; j > 0 && arena_before(p, st, i, order[j - 1]); j--)
            order[j] = order[j - 1];
        order[j] = i;
    }
    /* 2. Passes until one pairs nobody: "a third is free" is judged on the
     * players still free when the pass begins. */
    for (;;) {
        int left = 0, pass = 0;
        for (int i = 0; i < nf; i++)
            left += !taken[order[i]];
        for (int i = 0; i < nf; i++) {
            int a = order[i], best = -1;
            if (taken[a])
                continue;
            for (int k = 0; k < nf; k++) {
                int b = order[k];
                if (b == a || taken[b] || just_aborted(st, a, b) || (left > 2 && last_met(st, a, b)))
                    continue;
                if (best < 0) {
                    best = b;
                    continue;
                }
                int ds = abs(st[a].score - st[b].score), dbest = abs(st[a].score - st[best].score);
                double dr = fabs(p[a].rating - p[b].rating), drbest = fabs(p[a].rating - p[best].rating);
                if (ds < dbest || (ds == dbest && dr < drbest))
                    best = b;
            }
            if (best < 0)
                continue;
            taken[a] = taken[best] = 1;
            out[made++] = colours(st, a, best);
            pass++;
        }
        if (!pass)
            return made;
    }
}

int tour_arena_over(const tour_game *g, int ng, int64_t now, int64_t ends)
{
    return now >= ends && tour_rr_over(g, ng);
}

/* 1 if standing a comes before b (arena). */
static int arena_standing_before(const tour_player *p, const tour_standing *a, const tour_standing *b)
{
    if (a->score != b->score)
        return a->score > b->score;
    if (a->tiebreak != b->tiebreak)
        return a->tiebreak > b->tiebreak;
    return rating_before(p, a->player, b->player);
}

void tour_arena_standings(const tour_player *p, const tour_arena_stat *st, int n,
                          tour_standing *out)
{
    for (int i = 0; i < n; i++) {
        tour_standing x = {.player = i, .score = st[i].score, .tiebreak = st[i].wins};
        int j = i;
        for (; j > 0 && arena_standing_before(p, &x, &out[j - 1]); j--)
            out[j] = out[j - 1];
        out[j] = x;
    }
    for (int i = 0; i < n; i++)
        out[i].rank = i + 1;
}
