/*
 * glicko.h — Glicko-2 ratings (glicko.c): one rating per player and game.
 */
#ifndef SERVER_CORE_GLICKO_H
#define SERVER_CORE_GLICKO_H

#define GLICKO_START 1500.0
#define GLICKO_START_RD 350.0
#define GLICKO_START_VOL 0.06
/* A rating is provisional while its deviation is above this (the page marks it). */
#define GLICKO_PROVISIONAL_RD 110.0

typedef struct glicko {
    double rating, rd, vol;
} glicko;

/* A new player's rating. */
void glicko_new(glicko *p);
/* One rating period: p's games against opp[0..n-1] with p's scores (1 win,
 * 0.5 draw, 0 loss).  n = 0: a period without games (the deviation grows). */
void glicko_update(glicko *p, const glicko *opp, const double *score, int n);
/* One rated game, one period for both: white's score 1, 0.5 or 0. */
void glicko_game(glicko *white, glicko *black, double white_score);

#endif
