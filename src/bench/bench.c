/*
 * bench.c — the deterministic benchmark, `tavoliere bench [GAME] [--scale F]`
 * and the page's tw_bench: below both adapters (src/cli, src/wasm), it
 * writes its lines to the stream it is given.
 *
 * For each game a fixed, seeded workload of uniformly random games is played
 * through the operations table on one thread.  Each line prints the
 * behaviour signature — plies played, legal moves generated, and a hash
 * folding every move chosen and every final position — then the speed:
 * random games per second and legal-move generations per second.  A change
 * that should not alter behaviour must not alter the signature.  A game with
 * random_move draws each move with it instead of listing (the same moves, so
 * the same signature); then a "generation" is one count-and-draw.
 *
 * The search lines then run each player ("uct" and "ai") on one thread with a
 * fixed budget (playouts for tree search, nodes for alpha-beta) from a fixed
 * set of positions per game: the start and positions reached by seeded
 * random plies.  Their signature folds the moves chosen and the iteration
 * counts; their speed is playouts (tree search) or nodes (alpha-beta) per
 * second.  `--no-search` skips them.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/base.h"
#include "bench/bench.h"
#include "tavoliere_search.h"

/* The random-games workload of each game comes from the registry:
 * tav_game.bench_games games with its first sample option set. */

/* Search budgets per game: playouts for tree search, nodes for alpha-beta. */
typedef struct search_load {
    const char *game;
    const char *options;
    uint64_t uct_budget, ai_budget;
} search_load;

static const search_load search_loads[] = {
    {"urbino", "", 1500, 1500},
    {"epaminondas", "", 1500, 300000},
    {"cathedral", "", 4000, 4000},
    {"toscana", "seed=1", 4000, 4000},
};

#define BENCH_POSITIONS 4   /* start, then after 8, 16 and 24 random plies */

/* Run the search lines; returns their folded signature. */
static uint64_t bench_search(const char *only, double scale, FILE *out, FILE *errs)
{
    uint64_t total = 0;
    /* The search service with one worker and 64 MiB of search memory. */
    tav_service *svc = tav_service_new(1, (size_t)64 << 20);
    if (!svc) {
        fprintf(errs, "tavoliere bench: out of memory\n");
        return 0;
    }
    fprintf(out, "\n%-12s %-4s %9s %11s %11s %16s %9s %12s\n", "search", "ai", "budget", "playouts",
           "nodes", "signature", "seconds", "per second");
    for (size_t k = 0; k < sizeof search_loads / sizeof search_loads[0]; k++) {
        const search_load *w = &search_loads[k];
        if (only && strcmp(only, w->game) != 0)
            continue;
        const tav_game *g = tav_game_find(w->game);
        if (!g)
            continue;
        tav_move *list = malloc(sizeof(tav_move) * (size_t)g->max_moves);
        unsigned char *st = malloc(g->state_size);
        unsigned char *pos = malloc(g->state_size * BENCH_POSITIONS);
        char err[256];
        if (!list || !st || !pos || g->init(st, w->options, err, sizeof err) != 0) {
            free(list);
            free(st);
            free(pos);
            continue;
        }
        /* The positions: one seeded random line, sampled every 8 plies. */
        tav_rng rng;
        tav_rng_seed(&rng, 20261122);
        int npos = 0;
        for (int ply = 0; npos < BENCH_POSITIONS; ply++) {
            int n = g->legal(st, list);
            if (n == 0)
                break;
            if (ply % 8 == 0)
                memcpy(pos + g->state_size * (size_t)npos++, st, g->state_size);
            g->play(st, list[tav_rng_below(&rng, (uint32_t)n)]);
        }
        for (int pl = 0; pl < 2; pl++) {
            const char *player = pl ? "ai" : "uct";
            uint64_t budget = (uint64_t)((double)(pl ? w->ai_budget : w->uct_budget) * scale);
            if (budget < 10)
                budget = 10;
            uint64_t sig = 0, playouts = 0, nodes = 0;
            double t0 = tav_now();
            for (int i = 0; i < npos; i++) {
                /* One thread, a node budget, seed 7, nothing kept: the
                 * same moves and counts on any machine. */
                tav_budget b;
                memset(&b, 0, sizeof b);
                b.nodes = budget;
                b.threads = 1;
                b.seed = 7;
                tav_answer a;
                if (tav_service_run_state(svc, g, pos + g->state_size * (size_t)i, player, &b, NULL, NULL,
                                          &a) != TAV_OK)
                    continue;
                sig = tavi_mix64(sig ^ a.best ^ ((a.playouts + (uint64_t)a.depth) << 20) ^ (a.nodes << 40));
                playouts += a.playouts;
                nodes += a.nodes;
            }
            double dt = tav_now() - t0;
            if (dt <= 0)
                dt = 1e-9;
            uint64_t work = playouts ? playouts : nodes;
            fprintf(out, "%-12s %-4s %9" PRIu64 " %11" PRIu64 " %11" PRIu64 " %016" PRIx64 " %9.3f %12.0f %s\n",
                   w->game, player, budget, playouts, nodes, sig, dt, work / dt,
                   playouts ? "playouts/s" : "nodes/s");
            total = tavi_mix64(total ^ sig);
        }
        free(list);
        free(st);
        free(pos);
    }
    tav_service_free(svc);
    fprintf(out, "%-12s %-4s %9s %11s %11s %016" PRIx64 "\n", "search", "all", "", "", "", total);
    return total;
}

int bench_run(int argc, char **argv, FILE *out, FILE *errs)
{
    const char *only = NULL;
    double scale = 1.0;
    int search = 1;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--scale") == 0 && i + 1 < argc)
            scale = atof(argv[++i]);
        else if (strcmp(argv[i], "--no-search") == 0)
            search = 0;
        else
            only = argv[i];
    }
    if (scale <= 0)
        scale = 1.0;
    uint64_t total_sig = 0, total_gens = 0, total_moves = 0;
    double total_time = 0;
    fprintf(out, "%-12s %7s %9s %11s %16s %9s %12s %12s\n", "game", "games", "plies", "moves",
           "signature", "seconds", "games/s", "movegen/s");
    for (int k = 0; k < tav_game_count(); k++) {
        const tav_game *g = tav_game_at(k);
        if ((only && strcmp(only, g->name) != 0) || !g->samples || g->bench_games <= 0)
            continue;
        const char *options = g->samples[0];
        int games = (int)(g->bench_games * scale);
        if (games < 1)
            games = 1;
        tav_move *list = malloc(sizeof(tav_move) * (size_t)g->max_moves);
        unsigned char *st = malloc(g->state_size);
        if (!list || !st) {
            fprintf(errs, "tavoliere: out of memory\n");
            return 1;
        }
        char err[256];
        if (g->init(st, options, err, sizeof err) != 0) {
            fprintf(out, "%-12s not available: %s\n", g->name, err);
            free(list);
            free(st);
            continue;
        }
        tav_rng rng;
        tav_rng_seed(&rng, 20261122);
        uint64_t gens = 0, moves = 0, plies = 0, sig = 0;
        double t0 = tav_now();
        for (int i = 0; i < games; i++) {
            memset(st, 0, g->state_size);
            g->init(st, options, err, sizeof err);
            for (;;) {
                /* the same move either way (tav_game.random_move) */
                tav_move m = 0;
                int n = g->random_move ? g->random_move(st, &rng, &m) : g->legal(st, list);
                gens++;
                moves += (uint64_t)n;
                if (n == 0)
                    break;
                if (!g->random_move)
                    m = list[tav_rng_below(&rng, (uint32_t)n)];
                sig = tavi_mix64(sig ^ m);
                g->play(st, m);
                plies++;
            }
            tav_result r;
            g->result(st, &r);
            sig = tavi_mix64(sig ^ g->hash(st) ^ ((uint64_t)r.winner << 8) ^
                            ((uint64_t)(uint32_t)r.score[0] << 16) ^ ((uint64_t)(uint32_t)r.score[1] << 40));
        }
        double dt = tav_now() - t0;
        if (dt <= 0)
            dt = 1e-9;
        fprintf(out, "%-12s %7d %9" PRIu64 " %11" PRIu64 " %016" PRIx64 " %9.3f %12.0f %12.0f\n", g->name,
               games, plies, moves, sig, dt, games / dt, gens / dt);
        total_sig = tavi_mix64(total_sig ^ sig);
        total_gens += gens;
        total_moves += moves;
        total_time += dt;
        free(list);
        free(st);
    }
    fprintf(out, "%-12s %7s %9s %11" PRIu64 " %016" PRIx64 " %9.3f %12s %12.0f\n", "total", "", "",
           total_moves, total_sig, total_time, "", total_gens / (total_time > 0 ? total_time : 1));
    if (search)
        bench_search(only, scale, out, errs);
    return 0;
}
