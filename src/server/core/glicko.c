/*
 * glicko.c — Glicko-2 ratings (Glickman, "Example of the Glicko-2 system",
 * 2013), as SPEC "Ratings" asks: a new player starts at 1500, deviation
 * 350, volatility 0.06; tau = 0.5; each rated game is one rating period for
 * both players.
 *
 * The steps follow the paper's numbering: ratings are moved to the Glicko-2
 * scale (step 2), the estimated variance v and improvement delta computed
 * from the period's games (3, 4), the new volatility found by the Illinois
 * algorithm on f(x) (5), and the deviation and rating updated (6, 7) and
 * moved back (8).
 */
#include <math.h>

#include "server/core/glicko.h"

#define SCALE 173.7178
#define TAU 0.5
#define EPSILON 0.000001
#define GLICKO_PI 3.14159265358979323846

static double g_of(double phi) { return 1.0 / sqrt(1.0 + 3.0 * phi * phi / (GLICKO_PI * GLICKO_PI)); }

static double e_of(double mu, double mu_j, double phi_j)
{
    return 1.0 / (1.0 + exp(-g_of(phi_j) * (mu - mu_j)));
}

void glicko_new(glicko *p)
{
    p->rating = GLICKO_START;
    p->rd = GLICKO_START_RD;
    p->vol = GLICKO_START_VOL;
}

/* The volatility after the period (step 5). */
static double new_volatility(double phi, double sigma, double v, double delta)
{
    double a = log(sigma * sigma);
    double d2 = delta * delta, p2 = phi * phi;
    /* f(x) = e^x (d2 - p2 - v - e^x) / (2 (p2 + v + e^x)^2) - (x - a) / tau^2 */
#define F(x) (exp(x) * (d2 - p2 - v - exp(x)) / (2.0 * (p2 + v + exp(x)) * (p2 + v + exp(x))) - \
              ((x) - a) / (TAU * TAU))
    double A = a, B;
    if (d2 > p2 + v) {
        B = log(d2 - p2 - v);
    } else {
        int k = 1;
        while (F(a - k * TAU) < 0 && k < 1000)
            k++;
        B = a - k * TAU;
    }
    double fa = F(A), fb = F(B);
    for (int i = 0; i < 1000 && fabs(B - A) > EPSILON; i++) {
        double C = A + (A - B) * fa / (fb - fa);
        double fc = F(C);
        if (fc * fb <= 0) {
            A = B;
            fa = fb;
        } else {
            fa /= 2.0;
        }
        B = C;
        fb = fc;
    }
#undef F
    return exp(A / 2.0);
}

void glicko_update(glicko *p, const glicko *opp, const double *score, int n)
{
    double mu = (p->rating - GLICKO_START) / SCALE, phi = p->rd / SCALE;
    if (n <= 0) {
        /* Step 6 alone: the deviation grows over a period without games. */
        double phi_star = sqrt(phi * phi + p->vol * p->vol);
        p->rd = fmin(phi_star * SCALE, GLICKO_START_RD);
        return;
    }
    double vinv = 0.0, sum = 0.0;
    for (int j = 0; j < n; j++) {
        double mu_j = (opp[j].rating - GLICKO_START) / SCALE, phi_j = opp[j].rd / SCALE;
        double g = g_of(phi_j), e = e_of(mu, mu_j, phi_j);
        vinv += g * g * e * (1.0 - e);
        sum += g * (score[j] - e);
    }
    double v = 1.0 / vinv, delta = v * sum;
    double sigma = new_volatility(phi, p->vol, v, delta);
    double phi_star = sqrt(phi * phi + sigma * sigma);
    double phi_new = 1.0 / sqrt(1.0 / (phi_star * phi_star) + 1.0 / v);
    double mu_new = mu + phi_new * phi_new * sum;
    p->rating = mu_new * SCALE + GLICKO_START;
    p->rd = phi_new * SCALE;
    p->vol = sigma;
}

void glicko_game(glicko *white, glicko *black, double white_score)
{
    glicko w = *white, b = *black;
    double bs = 1.0 - white_score;
    glicko_update(white, &b, &white_score, 1);
    glicko_update(black, &w, &bs, 1);
}
