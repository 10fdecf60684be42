/*
 * bench.c — `tavoliere bench [GAME] [--scale F]`: the deterministic benchmark.
 *
 * For each game a fixed, seeded workload of uniformly random games is played
 * through the operations table on one thread.  Each line prints the
 * behaviour signature — plies played, legal moves generated, and a hash
 * folding every move chosen and every final position — then the speed:
 * random games per second and legal-move generations per second.  A change
 * that should not alter behaviour must not alter the signature.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "core/core.h"

typedef struct workload {
    const char *game;
    const char *options;
    int games;
} workload;

static const workload workloads[] = {
    {"urbino", "", 200},
    {"epaminondas", "", 200},
    {"cathedral", "", 2000},
    {"toscana", "seed=1", 1000},
};

int cli_bench(int argc, char **argv)
{
    const char *only = NULL;
    double scale = 1.0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--scale") == 0 && i + 1 < argc)
            scale = atof(argv[++i]);
        else
            only = argv[i];
    }
    if (scale <= 0)
        scale = 1.0;
    uint64_t total_sig = 0, total_gens = 0, total_moves = 0;
    double total_time = 0;
    printf("%-12s %7s %9s %11s %16s %9s %12s %12s\n", "game", "games", "plies", "moves",
           "signature", "seconds", "games/s", "movegen/s");
    for (size_t k = 0; k < sizeof workloads / sizeof workloads[0]; k++) {
        const workload *w = &workloads[k];
        if (only && strcmp(only, w->game) != 0)
            continue;
        const tav_game *g = tav_game_find(w->game);
        if (!g)
            continue;
        int games = (int)(w->games * scale);
        if (games < 1)
            games = 1;
        tav_move *list = malloc(sizeof(tav_move) * (size_t)g->max_moves);
        unsigned char *st = malloc(g->state_size);
        if (!list || !st) {
            fprintf(stderr, "tavoliere: out of memory\n");
            return 1;
        }
        char err[256];
        if (g->init(st, w->options, err, sizeof err) != 0) {
            printf("%-12s not available: %s\n", w->game, err);
            free(list);
            free(st);
            continue;
        }
        tav_rng rng;
        tav_rng_seed(&rng, 20261122);
        uint64_t gens = 0, moves = 0, plies = 0, sig = 0;
        double t0 = cli_now();
        for (int i = 0; i < games; i++) {
            memset(st, 0, g->state_size);
            g->init(st, w->options, err, sizeof err);
            for (;;) {
                int n = g->legal(st, list);
                gens++;
                moves += (uint64_t)n;
                if (n == 0)
                    break;
                uint32_t pick = tav_rng_below(&rng, (uint32_t)n);
                sig = tav_mix64(sig ^ list[pick]);
                g->play(st, list[pick]);
                plies++;
            }
            tav_result r;
            g->result(st, &r);
            sig = tav_mix64(sig ^ g->hash(st) ^ ((uint64_t)r.winner << 8) ^
                            ((uint64_t)(uint32_t)r.score[0] << 16) ^ ((uint64_t)(uint32_t)r.score[1] << 40));
        }
        double dt = cli_now() - t0;
        if (dt <= 0)
            dt = 1e-9;
        printf("%-12s %7d %9" PRIu64 " %11" PRIu64 " %016" PRIx64 " %9.3f %12.0f %12.0f\n", w->game,
               games, plies, moves, sig, dt, games / dt, gens / dt);
        total_sig = tav_mix64(total_sig ^ sig);
        total_gens += gens;
        total_moves += moves;
        total_time += dt;
        free(list);
        free(st);
    }
    printf("%-12s %7s %9s %11" PRIu64 " %016" PRIx64 " %9.3f %12s %12.0f\n", "total", "", "",
           total_moves, total_sig, total_time, "", total_gens / (total_time > 0 ? total_time : 1));
    return 0;
}
