/*
 * records.c — `tavoliere check FILE`, `replay FILE`, `analyze FILE`, and
 * `fuzzrecord`, the bounded fuzz test of the record parser.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "base/base.h"
#include "tavoliere_record.h"
#include "tavoliere_session.h"

char *cli_read_file(const char *path, size_t max, size_t *len, char *err, size_t errlen)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        tavi_bprintf(err, errlen, "%s: cannot open (%s)", path, strerror(errno));
        return NULL;
    }
    char *buf = malloc(max + 1);
    if (!buf) {
        fclose(f);
        tavi_bprintf(err, errlen, "out of memory");
        return NULL;
    }
    size_t n = fread(buf, 1, max + 1, f);
    fclose(f);
    if (n > max) {
        free(buf);
        tavi_bprintf(err, errlen, "%s: larger than %zu bytes", path, max);
        return NULL;
    }
    buf[n] = '\0';
    *len = n;
    /* A record saved mid-game may carry its deal sealed (seal.c). */
    char e2[400];
    if (cli_unseal_record(&buf, len, e2, sizeof e2) != 0) {
        free(buf);
        tavi_bprintf(err, errlen, "%s: %s", path, e2);
        return NULL;
    }
    return buf;
}

/* Load a record file: its tags and comments into r, its game replayed into
 * a session (caller frees both); NULL with a message on stderr. */
static tav_session *load(const char *path, tav_record *r)
{
    char err[512];
    size_t len;
    tav_record_init(r);
    char *text = cli_read_file(path, TAV_RECORD_MAX, &len, err, sizeof err);
    if (!text) {
        fprintf(stderr, "%s\n", err);
        return NULL;
    }
    tav_session *gs = NULL;
    if (tav_record_parse(text, len, r, NULL, err, sizeof err) != TAV_OK ||
        tav_session_from_record(&gs, text, len, err, sizeof err) != TAV_OK) {
        fprintf(stderr, "%s: %s\n", path, err);
        tav_record_free(r);
        gs = NULL;
    }
    free(text);
    return gs;
}

int cli_check(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: tavoliere check FILE ...\n");
        return 2;
    }
    int bad = 0;
    for (int i = 1; i < argc; i++) {
        tav_record r;
        tav_session *gs = load(argv[i], &r);
        if (!gs) {
            bad++;
            continue;
        }
        tav_result res;
        tav_session_result(gs, &res);
        printf("%s: ok, %s, %d moves, %s\n", argv[i], r.game->name, tav_session_ply(gs),
               res.over ? "finished" : "unfinished");
        tav_session_free(gs);
        tav_record_free(&r);
    }
    return bad ? 1 : 0;
}

int cli_replay(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: tavoliere replay FILE [--step]\n");
        return 2;
    }
    int step = argc > 2 && strcmp(argv[2], "--step") == 0 && isatty(0);
    tav_record r;
    tav_session *gs = load(argv[1], &r);
    if (!gs)
        return 1;
    const tav_game *g = r.game;
    cli_style sty = cli_style_for(stdout);
    int n = tav_session_ply(gs);
    int ply = step ? 0 : n;
    for (int shown = 0; shown <= n;) {
        int i = step ? ply : shown;
        const void *st = tav_session_state_at(gs, i);
        if (i > 0)
            printf("\n%d. %s%s%s\n", i, r.moves[i - 1], r.comments[i - 1] ? "  ; " : "",
                   r.comments[i - 1] ? r.comments[i - 1] : "");
        else
            printf("\n%s %s — %s vs %s\n", g->name, r.options, r.white[0] ? r.white : "white",
                   r.black[0] ? r.black : "black");
        /* The same board as `play` draws. */
        cli_draw(stdout, g, st, TAV_SPECTATOR, &sty);
        tav_result res;
        g->result(st, &res);
        if (res.over)
            printf(" game over: %s\n", res.winner == TAV_DRAW ? "a draw" : res.winner == TAV_WHITE ? "white wins"
                                                                                             : "black wins");
        if (!step) {
            shown++;
            continue;
        }
        printf("[Enter] next  [b] back  [q] quit > ");
        fflush(stdout);
        char line[64];
        if (cli_read_line(stdin, line, sizeof line) == 0 || line[0] == 'q')
            break;
        if (line[0] == 'b')
            ply = ply > 0 ? ply - 1 : 0;
        else if (ply < n)
            ply++;
    }
    tav_session_free(gs);
    tav_record_free(&r);
    return 0;
}

int cli_analyze(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: tavoliere analyze FILE [--movetime MS]\n");
        return 2;
    }
    long movetime = 500;
    for (int i = 2; i + 1 < argc; i += 2)
        if (strcmp(argv[i], "--movetime") == 0)
            movetime = atol(argv[i + 1]);
    tav_record r;
    tav_session *gs = load(argv[1], &r);
    if (!gs)
        return 1;
    const tav_game *g = r.game;
    tav_move *scratch = malloc(sizeof(tav_move) * (size_t)g->max_moves);
    if (!scratch)
        return 1;
    tav_record out;
    tav_record_init(&out);
    out = r;
    out.moves = NULL;
    out.comments = NULL;
    out.nmoves = out.cap = 0;
    int mistakes[2] = {0, 0};
    /* The process's search service; one line of play (one alpha-beta table
     * kept) for the whole game. */
    tav_service *svc = cli_service();
    int tty = isatty(2);
    for (int i = 0; i < r.nmoves; i++) {
        const void *st = tav_session_state_at(gs, i), *after = tav_session_state_at(gs, i + 1);
        int mover = g->to_move(st);
        tav_budget lim;
        memset(&lim, 0, sizeof lim);
        lim.movetime_ms = movetime;
        lim.seed = (uint64_t)i + 1;
        lim.threads = 1;
        lim.keep = 1;
        tav_answer best;
        char comment[256] = "";
        tav_move played;
        tav_find_move(g, st, r.moves[i], scratch, &played);
        if (svc && tav_service_run_state(svc, g, st, "ai", &lim, NULL, NULL, &best) == TAV_OK) {
            char bm[TAV_MOVE_TEXT];
            g->move_str(st, best.best, bm, sizeof bm);
            double played_value = best.value;
            if (best.best != played) {
                tav_answer rep;
                if (g->to_move(after) == TAV_NONE) {
                    tav_result res;
                    g->result(after, &res);
                    played_value = res.winner == mover ? 1.0 : res.winner == TAV_DRAW ? 0.5 : 0.0;
                } else if (tav_service_run_state(svc, g, after, "ai", &lim, NULL, NULL, &rep) == TAV_OK) {
                    played_value = g->to_move(after) == mover ? rep.value : 1.0 - rep.value;
                }
            }
            double loss = best.value - played_value;
            const char *mark = loss > 0.25 ? "?? blunder" : loss > 0.10 ? "? mistake" : "";
            if (loss > 0.10 && mover >= 0 && mover < 2)
                mistakes[mover]++;
            tavi_bprintf(comment, sizeof comment, "%s%s%.2f for %s; engine prefers %s (%.2f)",
                        mark, mark[0] ? ": " : "", played_value, tav_side_name(mover), bm, best.value);
        }
        tav_record_add(&out, r.moves[i], comment);
        /* Progress: in place on a terminal, one line each otherwise (a log). */
        fprintf(stderr, tty ? "\ranalysed %d/%d" : "analysed %d/%d\n", i + 1, r.nmoves);
    }
    if (tty)
        fprintf(stderr, "\n");
    char *text = tav_record_write(&out);
    if (text)
        fputs(text, stdout);
    printf("; mistakes: white %d, black %d\n", mistakes[0], mistakes[1]);
    free(text);
    tav_record_free(&out);
    tav_record_free(&r);
    tav_session_free(gs);
    free(scratch);
    return 0;
}

/* Fuzz the record parser for a bounded time: mutations of valid records
 * and random bytes must give 0 or -1 with a message, never a crash. */
int cli_fuzzrecord(int argc, char **argv)
{
    double seconds = 5;
    unsigned long long seed = 42;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (strcmp(argv[i], "--seconds") == 0)
            seconds = atof(argv[i + 1]);
        else if (strcmp(argv[i], "--seed") == 0)
            seed = strtoull(argv[i + 1], NULL, 10);
    }
    static const char *seeds[] = {
        "[Game \"epaminondas\"]\n[Result \"*\"]\n\n1. a2-a3\n2. a11-a10 { c }\n3. b2-b3 ; x\n",
        "[Game \"urbino\"]\n[Options \"variant=monuments\"]\n1. Ae5\n2. Af2\n3. first:black\n",
        "[Game \"cathedral\"]\n[Options \"opening=late\"]\n\n",
        "[Game \"toscana\"]\n[Options \"seed=3\"]\n1. accept\n",
    };
    tav_rng rng;
    tav_rng_seed(&rng, seed);
    double t0 = cli_now();
    long runs = 0, ok = 0;
    char buf[4096], err[512];
    tav_record r;
    tav_record_init(&r);
    while (cli_now() - t0 < seconds) {
        size_t n;
        if (tav_rng_below(&rng, 4) == 0) {
            n = tav_rng_below(&rng, sizeof buf);
            for (size_t i = 0; i < n; i++)
                buf[i] = (char)tav_rng_next(&rng);
        } else {
            const char *s = seeds[tav_rng_below(&rng, 4)];
            n = strlen(s);
            memcpy(buf, s, n);
            int muts = 1 + (int)tav_rng_below(&rng, 6);
            for (int k = 0; k < muts && n > 0; k++) {
                size_t at = tav_rng_below(&rng, (uint32_t)n);
                switch (tav_rng_below(&rng, 4)) {
                case 0: buf[at] = "[]{}\";.\n 0123456789abcxyz-:,"[tav_rng_below(&rng, 26)]; break;
                case 1: n = at; break;
                case 2: if (n + 1 < sizeof buf) { memmove(buf + at + 1, buf + at, n - at); buf[at] = (char)tav_rng_next(&rng); n++; } break;
                default: if (n > at + 1) { memmove(buf + at, buf + at + 1, n - at - 1); n--; } break;
                }
            }
        }
        if (tav_record_parse(buf, n, &r, NULL, err, sizeof err) == TAV_OK) {
            ok++;
            char *w = tav_record_write(&r);
            free(w);
        } else if (err[0] == '\0') {
            printf("FAIL fuzzrecord: input %ld of seed %llu (--seed %llu replays it): a refusal without a message\n",
                   runs, seed, seed);
            printf("0 passed, 1 failed\n");
            return 1;
        }
        runs++;
    }
    tav_record_free(&r);
    printf("fuzzrecord: seed %llu (--seed N), %ld inputs in %.1f s, %ld accepted, no crash\n", seed, runs, seconds,
           ok);
    printf("1 passed, 0 failed\n");
    return 0;
}
