/*
 * tosfeat.c — the data for Toscana's fitted evaluation: replays saved game
 * records (`tavoliere match toscana ... --save DIR`) and writes one CSV line
 * per position before the end, from white's side:
 *
 *   game,left,result,margin,hand,f0,...,f15
 *
 * game: the record's number on the command line (from 0); left: tiles in
 * both stacks; result: the game's outcome for white (1, 0.5, 0); margin:
 * white's final score minus black's; hand: the shipped evaluation's value
 * for white (for comparison); f0..: tavi_toscana_features(white).
 * scripts/fit_toscana_eval.mjs fits the weights.
 *
 *   build/tosfeat DIR/toscana-*.rec > features.csv
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "games/games.h"
#include "tavoliere_record.h"

static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    char *buf = malloc(TAV_RECORD_MAX + 1);
    size_t n = buf ? fread(buf, 1, TAV_RECORD_MAX + 1, f) : 0;
    fclose(f);
    if (!buf || n > TAV_RECORD_MAX) {
        free(buf);
        return NULL;
    }
    buf[n] = '\0';
    *len = n;
    return buf;
}

static int one_record(const tav_game *g, const char *path, int id, void *st, tav_move *scratch)
{
    size_t len;
    char *text = slurp(path, &len), err[256], opts[2 * TAV_RECORD_TAG];
    if (!text) {
        fprintf(stderr, "tosfeat: cannot read %s\n", path);
        return -1;
    }
    tav_record r;
    tav_record_init(&r);
    tav_status rc = tav_record_parse(text, len, &r, st, err, sizeof err);
    free(text);
    if (rc != TAV_OK) {
        fprintf(stderr, "tosfeat: %s: %s\n", path, err);
        tav_record_free(&r);
        return -1;
    }
    tav_result res;
    g->result(st, &res);
    double result = res.winner == TAV_WHITE ? 1 : res.winner == TAV_BLACK ? 0 : 0.5;
    int margin = res.score[TAV_WHITE] - res.score[TAV_BLACK];
    tav_record_start_options(&r, opts, sizeof opts);
    if (tav_game_setup(g, st, opts, 0, err, sizeof err) != TAV_OK) {
        fprintf(stderr, "tosfeat: %s: %s\n", path, err);
        tav_record_free(&r);
        return -1;
    }
    for (int i = 0; i <= r.nmoves; i++) {
        g->result(st, &res);
        if (res.over)
            break;
        double f[TOSCANA_FEATURES];
        tavi_toscana_features(st, TAV_WHITE, f, TOSCANA_FEATURES);
        printf("%d,%d,%g,%d,%.4f", id, tavi_toscana_left(st), result, margin, g->eval(st, TAV_WHITE));
        for (int k = 0; k < TOSCANA_FEATURES; k++)
            printf(",%.4f", f[k]);
        printf("\n");
        if (i == r.nmoves)
            break;
        tav_move m;
        if (tav_find_move(g, st, r.moves[i], scratch, &m) != TAV_OK) {
            fprintf(stderr, "tosfeat: %s: move %d (%s) not legal\n", path, i + 1, r.moves[i]);
            tav_record_free(&r);
            return -1;
        }
        g->play(st, m);
    }
    tav_record_free(&r);
    return 0;
}

int main(int argc, char **argv)
{
    const tav_game *g = tav_game_find("toscana");
    void *st = malloc(g->state_size);
    tav_move *scratch = malloc(sizeof(tav_move) * (size_t)g->max_moves);
    if (!st || !scratch)
        return 1;
    int bad = 0;
    for (int i = 1; i < argc; i++)
        bad += one_record(g, argv[i], i - 1, st, scratch) != 0;
    free(st);
    free(scratch);
    return bad ? 1 : 0;
}
