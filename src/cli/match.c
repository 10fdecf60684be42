/*
 * match.c — `tavoliere match GAME --a P --b P [--games N] [--movetime MS|own]
 *            [--jobs J] [--seed S] [--options "K=V ..."] [--save DIR]`
 *
 * Plays computer-vs-computer matches with alternating colours: games 2k and
 * 2k+1 share one seed (for Toscana, the same stacks) with the colours
 * swapped, so neither side profits from a lucky deal.  J worker threads play
 * games in parallel, each search single-threaded.  A progress bar with an ETA
 * goes to stderr; the result table (wins, draws, losses, score, Elo
 * difference with its 95% interval, from A's point of view) to stdout,
 * then A's wins-draws-losses and score as white and as black.
 *
 * Players: `random`, `uct`, `ai`, `ai:level=N` / `uct:nodes=N` / `ai:reuse=0` /
 * `ai:tree=1` / `ai:movetime=MS` (options after a colon, comma-separated;
 * reuse=0: nothing kept between moves, not even the alpha-beta table; tree=1:
 * tree searches keep their trees too, budget.keep_tree; movetime: this
 * player's own time per move, overriding --movetime, for time-odds matches),
 * or `engine:COMMAND` — any program that speaks the engine protocol, started
 * with /bin/sh -c COMMAND.
 *
 * With --save DIR every game is written as a record (docs/records.md),
 * DIR/GAME-NNNN.rec, numbered from 1 in the order games were started.
 */
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli/cli.h"
#include "base/base.h"
#include "tavoliere_record.h"
#include "tavoliere_session.h"

typedef struct player_spec {
    char kind[16];        /* random, uct, ai, engine */
    char command[512];    /* engine command */
    int level;
    uint64_t nodes;
    long movetime;        /* movetime=MS: this player's time per move (0: the match's) */
    int no_keep;          /* reuse=0: every search starts from empty memory (budget.keep 0) */
    int keep_tree;        /* tree=1: tree searches keep their trees too (budget.keep_tree) */
} player_spec;

typedef struct extproc {
    pid_t pid;
    FILE *in, *out;       /* we write to in, read from out */
} extproc;

typedef struct match {
    const tav_game *g;
    char options[512];
    player_spec a, b;
    const char *a_text, *b_text;
    const char *save_dir;      /* NULL: do not save */
    int save_errors;
    int games, jobs;
    int opening;               /* random plies before the players move */
    long movetime;
    uint64_t seed;
    int next, done;
    int wins, draws, losses;   /* for A */
    int by_colour[2][3];       /* for A as white [0] / black [1]: wins, draws, losses */
    int errors;
    double start;
    pthread_mutex_t lock;
} match;

/* Parse PLAYER text into a spec; 0 or -1. */
static int parse_player(const char *s, player_spec *p)
{
    memset(p, 0, sizeof *p);
    if (strncmp(s, "engine:", 7) == 0) {
        snprintf(p->kind, sizeof p->kind, "engine");
        snprintf(p->command, sizeof p->command, "%s", s + 7);
        return p->command[0] ? 0 : -1;
    }
    const char *colon = strchr(s, ':');
    size_t kl = colon ? (size_t)(colon - s) : strlen(s);
    if (kl >= sizeof p->kind)
        return -1;
    memcpy(p->kind, s, kl);
    p->kind[kl] = '\0';
    if (strcmp(p->kind, "random") != 0 && strcmp(p->kind, "uct") != 0 && strcmp(p->kind, "ai") != 0)
        return -1;
    if (colon) {
        char buf[128];
        snprintf(buf, sizeof buf, "%s", colon + 1);
        for (char *save, *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
            uint64_t v;
            if (strncmp(tok, "level=", 6) == 0 && tavi_parse_uint(tok + 6, 10, &v) == 0 && v >= 1)
                p->level = (int)v;
            else if (strncmp(tok, "nodes=", 6) == 0 && tavi_parse_uint(tok + 6, 1000000000, &v) == 0)
                p->nodes = v;
            else if (strncmp(tok, "movetime=", 9) == 0 && tavi_parse_uint(tok + 9, 3600000, &v) == 0 && v >= 1)
                p->movetime = (long)v;
            else if (strncmp(tok, "reuse=", 6) == 0 && tavi_parse_uint(tok + 6, 1, &v) == 0)
                p->no_keep = v == 0;
            else if (strncmp(tok, "tree=", 5) == 0 && tavi_parse_uint(tok + 5, 1, &v) == 0)
                p->keep_tree = (int)v;
            else
                return -1;
        }
    }
    return 0;
}

/* Start an external engine; 0 or -1. */
static int ext_start(extproc *x, const char *command)
{
    int to[2], from[2];
    if (pipe(to) != 0)
        return -1;
    if (pipe(from) != 0) {
        close(to[0]);
        close(to[1]);
        return -1;
    }
    pid_t pid = fork();
    if (pid < 0)
        return -1;
    if (pid == 0) {
        dup2(to[0], 0);
        dup2(from[1], 1);
        close(to[0]);
        close(to[1]);
        close(from[0]);
        close(from[1]);
        execl("/bin/sh", "sh", "-c", command, (char *)NULL);
        _exit(127);
    }
    close(to[0]);
    close(from[1]);
    x->pid = pid;
    x->in = fdopen(to[1], "w");
    x->out = fdopen(from[0], "r");
    return x->in && x->out ? 0 : -1;
}

/* Send a command and read its answer line (skipping info lines). */
static int ext_call(extproc *x, const char *cmd, char *ans, size_t n)
{
    if (fprintf(x->in, "%s\n", cmd) < 0 || fflush(x->in) != 0)
        return -1;
    for (;;) {
        int r = cli_read_line(x->out, ans, n);
        if (r != 1)
            return -1;
        if (strncmp(ans, "info", 4) != 0 || (ans[4] != ' ' && ans[4] != '\0'))
            return 0;
    }
}

static void ext_stop(extproc *x)
{
    if (x->in) {
        fprintf(x->in, "quit\n");
        fclose(x->in);
    }
    if (x->out)
        fclose(x->out);
    if (x->pid > 0)
        waitpid(x->pid, NULL, 0);
    memset(x, 0, sizeof *x);
}

/* "200 ms/move", or the levels' own budgets for --movetime own (0). */
static void movetime_text(long movetime, char *buf, size_t n)
{
    if (movetime)
        tavi_bprintf(buf, n, "%ld ms/move", movetime);
    else
        tavi_bprintf(buf, n, "levels' own budgets");
}

/* Ask a player for its move; 0 or -1 (external engine failure). */
static int choose(match *mt, const player_spec *p, extproc *x, uint64_t keep, const tav_session *gs,
                  uint64_t seed, tav_move *scratch, tav_move *m)
{
    const void *st = tav_session_state(gs);
    if (strcmp(p->kind, "engine") == 0) {
        char cmd[64], ans[512];
        snprintf(cmd, sizeof cmd, "go movetime=%ld", mt->movetime ? mt->movetime : 200);
        if (ext_call(x, cmd, ans, sizeof ans) != 0 || strncmp(ans, "bestmove ", 9) != 0)
            return -1;
        return tav_find_move(mt->g, st, ans + 9, scratch, m) == TAV_OK ? 0 : -1;
    }
    /* The process's search service: one worker per search. */
    tav_budget b;
    memset(&b, 0, sizeof b);
    /* The player's own movetime= first; then --movetime; --movetime own (0):
     * a level plays with its own budget (levels.c), any other player with the
     * default 200 ms. */
    b.movetime_ms = p->movetime ? p->movetime : mt->movetime ? mt->movetime : p->level ? 0 : 200;
    b.level = p->level;
    b.nodes = p->nodes;
    b.seed = seed;
    b.threads = 1;
    b.memory = 32u << 20;
    b.keep = p->no_keep ? 0 : keep;
    b.keep_tree = p->keep_tree;
    tav_answer a;
    tav_service *svc = cli_service();
    if (!svc || tav_service_run(svc, gs, p->kind, &b, NULL, NULL, &a) != TAV_OK)
        return -1;
    *m = a.best;
    return 0;
}

/* Write game i as a record in the save directory; 0 or -1. */
static int save_game(match *mt, int i, int a_white, const tav_session *gs)
{
    char path[1200];
    snprintf(path, sizeof path, "%s/%s-%04d.rec", mt->save_dir, mt->g->name, i + 1);
    char *text = tav_session_record_all(gs, a_white ? mt->a_text : mt->b_text,
                                        a_white ? mt->b_text : mt->a_text);
    if (!text)
        return -1;
    /* The Event tag tells the match, seed, game and time per move. */
    char event[256];
    char per_move[48];
    movetime_text(mt->movetime, per_move, sizeof per_move);
    tavi_bprintf(event, sizeof event, "[Event \"tavoliere match, seed %llu, game %d, %s\"]\n",
                (unsigned long long)mt->seed, i + 1, per_move);
    char *at = strstr(text, "\n[White ");
    FILE *f = fopen(path, "w");
    int bad = !f || !at;
    if (!bad) {
        bad = fwrite(text, 1, (size_t)(at + 1 - text), f) != (size_t)(at + 1 - text) ||
              fputs(event, f) < 0 || fputs(at + 1, f) < 0;
    }
    if (f && fclose(f) != 0)
        bad = 1;
    free(text);
    return bad ? -1 : 0;
}

/* Play game i; returns the result for A: 1 win, 0 draw, -1 loss, -2 error. */
static int play_one(match *mt, int i)
{
    const tav_game *g = mt->g;
    int a_white = (i % 2) == 0;
    uint64_t gseed = tavi_mix64(mt->seed + (uint64_t)(i / 2));
    char err[256];
    tav_move *scratch = malloc(sizeof(tav_move) * (size_t)g->max_moves);
    extproc x[2] = {{0}, {0}};
    int outcome = -2;
    /* Games 2k and 2k+1 share the seed, so the same deal (Toscana's stacks). */
    tav_session *gs = NULL;
    /* Each side keeps its alpha-beta table from move to move (when the
     * service's worker still holds it): a line of play per game and side. */
    uint64_t keep[2] = {(uint64_t)i * 2 + 1, (uint64_t)i * 2 + 2};
    if (!scratch ||
        tav_session_new(&gs, g->name, mt->options, gseed % 1000000007ULL, err, sizeof err) != TAV_OK)
        goto out;
    const player_spec *side[2];
    side[TAV_WHITE] = a_white ? &mt->a : &mt->b;
    side[TAV_BLACK] = a_white ? &mt->b : &mt->a;
    for (int s = 0; s < 2; s++)
        if (strcmp(side[s]->kind, "engine") == 0) {
            char cmd[1400], ans[512], opts[1200];
            tav_session_start_options(gs, opts, sizeof opts);
            snprintf(cmd, sizeof cmd, "newgame %s %s", g->name, opts);
            if (ext_start(&x[s], side[s]->command) != 0 || ext_call(&x[s], cmd, ans, sizeof ans) != 0 ||
                strcmp(ans, "ok") != 0)
                goto out;
        }
    tav_rng rng, orng;
    tav_rng_seed(&rng, gseed ^ (uint64_t)i);
    /* --opening N: the first N plies are uniformly random legal moves drawn
     * from the pair's seed, so games 2k and 2k+1 start from the same
     * position with the colours swapped. */
    tav_rng_seed(&orng, gseed ^ 0x6f70656e696e67ULL);
    for (int ply = 0; ply < 100000; ply++) {
        int tm = tav_session_to_move(gs);
        if (tm == TAV_NONE)
            break;
        tav_move m;
        if (ply < mt->opening) {
            int n = tav_session_legal(gs, tm, scratch);
            if (n <= 0)
                goto out;
            m = scratch[tav_rng_below(&orng, (uint32_t)n)];
            if (tav_session_play(gs, m) != TAV_OK)
                goto out;
        } else if (choose(mt, side[tm], &x[tm], keep[tm], gs, tav_rng_next(&rng), scratch, &m) != 0 ||
                   tav_session_play(gs, m) != TAV_OK)
            goto out;
        char cmd[TAV_MOVE_TEXT + 8], ans[512];
        snprintf(cmd, sizeof cmd, "play %s", tav_session_move_text(gs, tav_session_ply(gs) - 1));
        for (int s = 0; s < 2; s++)
            if (x[s].pid && (ext_call(&x[s], cmd, ans, sizeof ans) != 0 || strcmp(ans, "ok") != 0))
                goto out;
    }
    tav_result r;
    tav_session_result(gs, &r);
    if (!r.over)
        goto out;
    int a_side = a_white ? TAV_WHITE : TAV_BLACK;
    outcome = r.winner == TAV_DRAW ? 0 : r.winner == a_side ? 1 : -1;
    if (mt->save_dir && save_game(mt, i, a_white, gs) != 0) {
        pthread_mutex_lock(&mt->lock);
        mt->save_errors++;
        pthread_mutex_unlock(&mt->lock);
    }
out:
    tav_session_free(gs);
    for (int s = 0; s < 2; s++)
        if (x[s].pid)
            ext_stop(&x[s]);
    free(scratch);
    return outcome;
}

/* Draw the progress bar on stderr. */
static void progress(match *mt)
{
    double el = cli_now() - mt->start;
    double eta = mt->done ? el / mt->done * (mt->games - mt->done) : 0;
    int width = 30, fill = mt->games ? mt->done * width / mt->games : width;
    char bar[64];
    for (int i = 0; i < width; i++)
        bar[i] = i < fill ? '#' : '.';
    bar[width] = '\0';
    fprintf(stderr, "\r[%s] %d/%d  +%d =%d -%d  %.0fs elapsed, ETA %.0fs   ", bar, mt->done, mt->games,
            mt->wins, mt->draws, mt->losses, el, eta);
    if (mt->done == mt->games)
        fputc('\n', stderr);
    fflush(stderr);
}

static void *worker(void *arg)
{
    match *mt = arg;
    for (;;) {
        pthread_mutex_lock(&mt->lock);
        int i = mt->next < mt->games ? mt->next++ : -1;
        pthread_mutex_unlock(&mt->lock);
        if (i < 0)
            return NULL;
        int o = play_one(mt, i);
        pthread_mutex_lock(&mt->lock);
        if (o >= -1)
            mt->by_colour[i % 2][o == 1 ? 0 : o == 0 ? 1 : 2]++;   /* A is white in even games */
        if (o == 1)
            mt->wins++;
        else if (o == 0)
            mt->draws++;
        else if (o == -1)
            mt->losses++;
        else
            mt->errors++;
        mt->done++;
        progress(mt);
        pthread_mutex_unlock(&mt->lock);
    }
}

/* Elo difference of a score fraction strictly between 0 and 1. */
static double elo_of(double s)
{
    return -400.0 * log10(1.0 / s - 1.0);
}

/* The Elo difference of a score fraction s over n games (standard error se)
 * and its 95% interval, as text.  A clean sweep (or a whitewash) has no
 * finite estimate: it is shown as a bound, "> +N", with an open interval
 * whose finite end is the Wilson bound n / (n + z^2) of the score. */
static void elo_text(double s, double se, int n, char *diff, size_t dn, char *iv, size_t ivn)
{
    const double z = 1.96;
    double lo = s - z * se, hi = s + z * se;
    if (n > 0 && s >= 1.0)
        lo = n / (n + z * z);
    if (n > 0 && s <= 0.0)
        hi = z * z / (n + z * z);
    char l[32], h[32];
    if (lo <= 0.0)
        snprintf(l, sizeof l, "-inf");
    else
        snprintf(l, sizeof l, "%+.0f", elo_of(lo < 1.0 ? lo : 1.0 - 1e-9));
    if (hi >= 1.0)
        snprintf(h, sizeof h, "+inf");
    else
        snprintf(h, sizeof h, "%+.0f", elo_of(hi > 0.0 ? hi : 1e-9));
    if (n == 0)
        snprintf(diff, dn, "-");
    else if (s >= 1.0)
        snprintf(diff, dn, "> %s", l);
    else if (s <= 0.0)
        snprintf(diff, dn, "< %s", h);
    else
        snprintf(diff, dn, "%+.0f", elo_of(s));
    snprintf(iv, ivn, "%s%s, %s%s", lo <= 0.0 ? "(" : "[", l, h, hi >= 1.0 ? ")" : "]");
}

int cli_match(int argc, char **argv)
{
    match mt;
    memset(&mt, 0, sizeof mt);
    mt.games = 100;
    mt.jobs = 1;
    mt.movetime = 200;
    mt.seed = 1;
    const char *a = "ai", *b = "uct";
    if (argc < 2) {
        fprintf(stderr, "usage: tavoliere match GAME --a PLAYER --b PLAYER [--games N] "
                        "[--movetime MS|own] [--jobs J] [--seed S] [--options \"K=V ...\"] [--save DIR]\n");
        return 2;
    }
    char q[256];   /* an argument as quoted in messages */
    mt.g = tav_game_find(argv[1]);
    if (!mt.g) {
        tavi_quote(q, sizeof q, argv[1], sizeof q - 1);
        fprintf(stderr, "tavoliere match: unknown game '%s'\n", q);
        return 2;
    }
    for (int i = 2; i < argc; i++) {
        const char *k = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!v) {
            tavi_quote(q, sizeof q, k, sizeof q - 1);
            fprintf(stderr, "tavoliere match: %s needs a value\n", q);
            return 2;
        }
        i++;
        if (strcmp(k, "--a") == 0)
            a = v;
        else if (strcmp(k, "--b") == 0)
            b = v;
        else if (strcmp(k, "--games") == 0)
            mt.games = atoi(v);
        else if (strcmp(k, "--movetime") == 0)
            mt.movetime = strcmp(v, "own") == 0 ? 0 : atol(v) > 0 ? atol(v) : -1;
        else if (strcmp(k, "--jobs") == 0)
            mt.jobs = atoi(v);
        else if (strcmp(k, "--seed") == 0)
            mt.seed = strtoull(v, NULL, 10);
        else if (strcmp(k, "--options") == 0)
            snprintf(mt.options, sizeof mt.options, "%s", v);
        else if (strcmp(k, "--save") == 0)
            mt.save_dir = v;
        else if (strcmp(k, "--opening") == 0)
            mt.opening = atoi(v) >= 0 && atoi(v) <= 1000 ? atoi(v) : -1;
        else {
            tavi_quote(q, sizeof q, k, sizeof q - 1);
            fprintf(stderr, "tavoliere match: unknown option %s\n", q);
            return 2;
        }
    }
    if (parse_player(a, &mt.a) != 0 || parse_player(b, &mt.b) != 0) {
        fprintf(stderr, "tavoliere match: a player is random, uct, ai, ai:level=N, uct:nodes=N, ai:reuse=0, ai:tree=1, ai:movetime=MS or engine:COMMAND\n");
        return 2;
    }
    if (mt.games < 1 || mt.jobs < 1 || mt.jobs > 64 || mt.movetime < 0 || mt.opening < 0) {
        fprintf(stderr, "tavoliere match: --games, --jobs (1..64) and --movetime (or --movetime own) must be positive, --opening 0..1000\n");
        return 2;
    }
    mt.a_text = a;
    mt.b_text = b;
    if (mt.save_dir && mkdir(mt.save_dir, 0777) != 0 && errno != EEXIST) {
        fprintf(stderr, "tavoliere match: cannot create %s: %s\n", mt.save_dir, strerror(errno));
        return 2;
    }
    signal(SIGPIPE, SIG_IGN);
    pthread_mutex_init(&mt.lock, NULL);
    mt.start = cli_now();
    pthread_t tid[64];
    for (int i = 0; i < mt.jobs; i++)
        pthread_create(&tid[i], NULL, worker, &mt);
    for (int i = 0; i < mt.jobs; i++)
        pthread_join(tid[i], NULL);
    pthread_mutex_destroy(&mt.lock);
    int n = mt.wins + mt.draws + mt.losses;
    double s = n ? (mt.wins + 0.5 * mt.draws) / n : 0.5;
    double var = n ? (mt.wins * pow(1 - s, 2) + mt.draws * pow(0.5 - s, 2) + mt.losses * pow(s, 2)) / n : 0;
    double se = n ? sqrt(var / n) : 0;
    char per_move[48];
    movetime_text(mt.movetime, per_move, sizeof per_move);
    char opening[48] = "";
    if (mt.opening)
        snprintf(opening, sizeof opening, ", %d random opening plies", mt.opening);
    printf("match %s %s: %s (A) vs %s (B), %d games, %s%s, seed %llu\n", mt.g->name,
           mt.options[0] ? mt.options : "", a, b, mt.games, per_move, opening, (unsigned long long)mt.seed);
    printf("| player A | player B | games | A wins | draws | A losses | A score | Elo diff | 95%% interval |\n");
    printf("|---|---|---|---|---|---|---|---|---|\n");
    char diff[48], iv[80];
    elo_text(s, se, n, diff, sizeof diff, iv, sizeof iv);
    printf("| %s | %s | %d | %d | %d | %d | %.1f%% | %s | %s |\n", a, b, n, mt.wins, mt.draws,
           mt.losses, 100 * s, diff, iv);
    /* A's results by colour: a game's first-player edge (Toscana's white,
     * Cathedral's first builder) shows here, where the table mixes it away. */
    double pct[2];
    for (int c = 0; c < 2; c++) {
        const int *k = mt.by_colour[c];
        int m = k[0] + k[1] + k[2];
        pct[c] = m ? 100.0 * (k[0] + 0.5 * k[1]) / m : 0.0;
    }
    printf("A as white %d-%d-%d (%.1f%%), as black %d-%d-%d (%.1f%%)\n", mt.by_colour[0][0],
           mt.by_colour[0][1], mt.by_colour[0][2], pct[0], mt.by_colour[1][0], mt.by_colour[1][1],
           mt.by_colour[1][2], pct[1]);
    if (mt.errors)
        printf("%d games could not be played (engine failure)\n", mt.errors);
    if (mt.save_dir)
        printf("records saved in %s/%s-NNNN.rec%s\n", mt.save_dir, mt.g->name,
               mt.save_errors ? " (some could not be written)" : "");
    printf("time %.1f s\n", cli_now() - mt.start);
    return mt.errors || mt.save_errors ? 1 : 0;
}
