/*
 * tournament.h — the pure rules of tournaments (SPEC "Tournaments", issue
 * 47): round robin divisions, pairings, scores and Sonneborn–Berger
 * standings; arena scores ("on fire" streaks) and pairings.
 *
 * Everything here is a function of its arguments: plain structs owned by
 * the caller, no I/O, no allocation, no global state (thread-safe; every
 * call may run on any thread).  Players are named by their index in the
 * caller's array; games are listed by the caller in a stable order (the
 * round robin's as tour_rr_games made them, the arena's in the order they
 * started — docs/tournaments.md).  Recomputing after a restart from the
 * same stored players and games gives the same answers.
 *
 * Units: a round robin's score is in half-points (win 2, draw 1) and its
 * tiebreak in quarter-points; an arena's score is in points (win 2, draw 1,
 * on fire 4 and 2) and its tiebreak is its number of wins.
 */
#ifndef SERVER_CORE_TOURNAMENT_H
#define SERVER_CORE_TOURNAMENT_H

#include <stdint.h>

#define TOUR_NAME_LEN 24      /* as STORE_NAME_LEN: account names */
#define TOUR_DIVISION_MAX 10  /* players in a round robin's division */

/* A player as the tournament knows it. */
typedef struct tour_player {
    char name[TOUR_NAME_LEN];  /* unique in the tournament: the last tiebreak */
    double rating;             /* at the start (round robin) or now (arena) */
    int withdrawn;             /* round robin: set by tour_rr_withdraw */
    int active;                /* arena: joined, not withdrawn, may be paired */
    int division;              /* round robin: 1.. (tour_rr_divide), 0 before */
    int seed;                  /* round robin: 1.. rank in rating order (tour_rr_divide) */
} tour_player;

typedef enum tour_result {
    TOUR_RUNNING = 0,  /* not over yet */
    TOUR_WHITE_WON,
    TOUR_BLACK_WON,
    TOUR_DRAWN,
    TOUR_ABORTED       /* a first move not made: `idle` says whose */
} tour_result;

/* One game of a tournament. */
typedef struct tour_game {
    int white, black;    /* player indices */
    int division;        /* round robin: 1..; arena: 0 */
    tour_result result;
    int idle;            /* TOUR_ABORTED: the side that did not move (0 white, 1 black) */
    int forfeit;         /* round robin: decided by a withdrawal (tour_rr_withdraw) */
} tour_game;

/* A line of the standings. */
typedef struct tour_standing {
    int player;     /* index */
    int score;      /* round robin: half-points; arena: points */
    int tiebreak;   /* round robin: Sonneborn–Berger in quarter-points; arena: wins */
    int division;   /* round robin: 1..; arena: 0 */
    int rank;       /* 1.. within the division (arena: overall) */
} tour_standing;

/* Players in rating order: best first, equal ratings by name (strcmp), then
 * by index.  order[0..n-1] receives indices. */
void tour_rank(const tour_player *p, int n, int *order);

/* Division sizes for n players: consecutive divisions of at most 10 whose
 * sizes differ by at most one, the larger first.  Writes sizes[0..d-1]
 * (sizes may be NULL) and returns d (0 for n <= 0). */
int tour_rr_division_sizes(int n, int *sizes);

/* Sets every player's seed (1.. in rating order) and division (1 the
 * best-rated).  order: n ints of the caller's scratch.  Returns the number
 * of divisions (-1 beyond 10,240 players). */
int tour_rr_divide(tour_player *p, int n, int *order);

/* How many games a round robin of n players has (two per pair in each
 * division). */
int tour_rr_game_count(int n);

/* The games of a round robin whose players are divided (tour_rr_divide):
 * division by division, then by seed: for seeds i < j, (i white, j black)
 * then (j white, i black); all RUNNING.  Returns the count, or -1 if max is
 * too small (tour_rr_game_count). */
int tour_rr_games(const tour_player *p, int n, tour_game *out, int max);

/* Player `who` withdraws from a running round robin: it is marked withdrawn
 * and each of its RUNNING games is decided as a loss for it, a win for its
 * opponent (forfeit = 1).  Returns how many games it decided, -1 for a bad
 * index.  The server ends the boards of those games itself. */
int tour_rr_withdraw(tour_player *p, int n, tour_game *g, int ng, int who);

/* A round robin is over when none of its games is RUNNING (1), else 0. */
int tour_rr_over(const tour_game *g, int ng);

/* The round robin's standings: out[0..n-1] by division, then score, then
 * Sonneborn–Berger, then seed (lower first).  Returns 0, or -1 if a game
 * names a player out of range. */
int tour_rr_standings(const tour_player *p, int n, const tour_game *g, int ng,
                      tour_standing *out);

/* A player's outcome in an arena game, for the streak rule. */
typedef enum tour_outcome {
    TOUR_LOSS,
    TOUR_DRAW,
    TOUR_WIN,
    TOUR_ABORT_IDLE,    /* aborted: this side did not move */
    TOUR_ABORT_MOVED    /* aborted: the other side did not move */
} tour_outcome;

/* Points of one arena game and the new streak (consecutive wins): win 2,
 * draw 1, loss 0; after two wins in a row a win 4 and a draw 2.  An abort
 * scores 0; for the idle side it ends the streak, for the other it changes
 * nothing. */
int tour_arena_points(int *streak, tour_outcome o);

/* What the games so far say of an arena player. */
typedef struct tour_arena_stat {
    int score, wins, games;   /* games: finished and not aborted */
    int streak;               /* consecutive wins up to now */
    int busy;                 /* in a RUNNING game */
    int last_opp;             /* the opponent of its last finished game, -1 none */
    int last_colour;          /* of that game: 0 white, 1 black, -1 none */
    int last_aborted;         /* that game was aborted */
    int whites, blacks;       /* colours of its finished games, aborts included */
} tour_arena_stat;

/* An arena's stats from its games, in the order they started (a player is in
 * at most one RUNNING game, so its own games end in that order too).
 * Returns 0, or -1 if a game names a player out of range. */
int tour_arena_tally(const tour_player *p, int n, const tour_game *g, int ng,
                     tour_arena_stat *st);

/* A pairing to start. */
typedef struct tour_pairing {
    int white, black;
} tour_pairing;

/* The arena's pairings to start now, from players, their stats
 * (tour_arena_tally) and the clock (UNIX ms): none before `starts` or from
 * `ends` on.  Free players (active, not busy) are paired by score then
 * rating (docs/tournaments.md), never with the opponent of their last game
 * while a third is free, never right after an abort between them; colours
 * alternate where they can.  out: room for n / 2 pairings; work: 2 * n ints
 * of scratch.  Returns how many pairings it wrote. */
int tour_arena_pair(const tour_player *p, const tour_arena_stat *st, int n,
                    int64_t now, int64_t starts, int64_t ends,
                    tour_pairing *out, int *work);

/* An arena is over from `ends` on once none of its games is RUNNING (1),
 * else 0. */
int tour_arena_over(const tour_game *g, int ng, int64_t now, int64_t ends);

/* The arena's standings: out[0..n-1] by score, then wins, then rating,
 * then name. */
void tour_arena_standings(const tour_player *p, const tour_arena_stat *st, int n,
                          tour_standing *out);

#endif
