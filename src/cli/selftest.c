/*
 * selftest.c — `tavoliere selftest [GAMES] [--games N] [--seed S]`:
 * random-playout invariants for every registered game.
 *
 * For each game and each of its sample option sets (tav_game.samples),
 * seeded random games are played through the operations table by the
 * library's conformance checks (tav_conformance_game, src/games/
 * conformance.c), with every player asked for a move every fifth ply.
 * At every ply:
 *   1. the legal list is within max_moves, empty exactly when the game is
 *      over, and its texts are non-empty, short, without blanks, distinct;
 *   2. the game's own invariant checker (recount from scratch) agrees;
 *   3. the position text round-trips: a fresh state set from it has the
 *      same legal moves, result and hash, and prints the same text;
 *   4. play is deterministic: two copies played with the same move are
 *      byte-identical, and the parent is untouched (copy-make undo is exact);
 *   5. for hidden information: masking is idempotent, determinizing then
 *      masking gives the masked state back, and the masked state has the
 *      same legal moves as the real one;
 *   6. the game ends within a bound of plies.
 * Then a protocol fuzz: mutated move strings are refused unless they are
 * legal, and a refusal changes nothing.
 * Each (game, option set) is one test; the summary is `N passed, N failed`.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "base/base.h"
#include "protocol/protocol.h"
#include "tavoliere_record.h"
#include "tavoliere_search.h"

#define MAX_PLIES 20000

/* The option sets come from the registry: each game's samples. */

typedef struct ctx {
    const tav_game *g;
    const char *options;
    tav_move *list, *list2;
    unsigned char *a, *b;
    int failed;
    char where[128];
    tav_service *svc;      /* every search goes through the service (two workers) */
    uint64_t seed;         /* search_hook's seed */
} ctx;

static void fail(ctx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void fail(ctx *c, const char *fmt, ...)
{
    if (c->failed++ > 5)
        return;
    va_list ap;
    printf("FAIL selftest %s [%s] %s: ", c->g->name, c->options, c->where);
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    printf("\n");
}

/* Every player answers a legal move in a random position (every fifth
 * ply of the conformance games). */
static int search_hook(void *ctxp, const tav_game *g, const void *st, int ply,
                       const tav_move *list, int n, char *err, size_t errlen)
{
    const ctx *c = ctxp;
    if (ply % 5 != 2)
        return 0;
    static const char *const players[] = {"random", "uct", "ai"};
    const char *player = players[(ply / 5) % 3];
    tav_budget b;
    memset(&b, 0, sizeof b);
    b.nodes = 40;
    b.memory = 1u << 20;
    b.threads = 1;
    b.seed = c->seed + (uint64_t)ply;
    tav_answer a;
    tav_status rc = tav_service_run_state(c->svc, g, st, player, &b, NULL, NULL, &a);
    if (rc != TAV_OK) {
        tavi_bprintf(err, errlen, "%s: no answer in a live position (status %d)", player, (int)rc);
        return -1;
    }
    int k;
    for (k = 0; k < n && list[k] != a.best; k++)
        ;
    if (k == n) {
        tavi_bprintf(err, errlen, "%s answered an illegal move", player);
        return -1;
    }
    return 0;
}

/* One random game with all invariants (tav_conformance_game) and the
 * players' answers; returns the number of plies. */
static int play_game(ctx *c, uint64_t seed)
{
    char err[1024];
    int plies = 0;
    c->seed = seed;
    if (tav_conformance_game(c->g, c->options, seed, search_hook, c, &plies, err, sizeof err) !=
        TAV_OK) {
        snprintf(c->where, sizeof c->where, "conformance");
        fail(c, "%s", err);
    }
    return plies;
}

/* Search memory through the service: the same seed gives the same move;
 * a tree never grows past its memory budget; a line of play (budget.keep)
 * starts from empty memory and then goes on with what it kept (the
 * alpha-beta table makes the same search cheaper, the tree search goes on
 * from the whole tree of the same position); with no memory for a tree the
 * answer is TAV_E_NOMEM, never "the game is over". */
static int is_legal(ctx *c, const void *st, tav_move m)
{
    int n = c->g->legal(st, c->list2);
    for (int i = 0; i < n; i++)
        if (c->list2[i] == m)
            return 1;
    return 0;
}

/* Put a live position reached by `plies` seeded random moves in c->a;
 * 0, or -1 when there is none. */
static int random_position(ctx *c, uint64_t seed, int plies)
{
    const tav_game *g = c->g;
    char err[256];
    if (g->init(c->a, c->options, err, sizeof err) != 0)
        return -1;
    tav_rng rng;
    tav_rng_seed(&rng, seed);
    for (int ply = 0; ply < plies; ply++) {
        int n = g->legal(c->a, c->list);
        if (n == 0)
            return -1;
        g->play(c->a, c->list[tav_rng_below(&rng, (uint32_t)n)]);
    }
    return g->to_move(c->a) == TAV_NONE ? -1 : 0;
}

static tav_status run(ctx *c, const char *player, const tav_budget *b, tav_answer *a)
{
    return tav_service_run_state(c->svc, c->g, c->a, player, b, NULL, NULL, a);
}

static void check_memory(ctx *c, uint64_t seed)
{
    const tav_game *g = c->g;
    if (random_position(c, seed, 6) != 0)
        return;
    snprintf(c->where, sizeof c->where, "search memory, seed %llu", (unsigned long long)seed);
    static const char *const players[] = {"uct", "ai"};
    for (int p = 0; p < 2; p++) {
        tav_budget lb;   /* the level table says which algorithm the ai player uses */
        memset(&lb, 0, sizeof lb);
        tav_level_budget(g, 5, &lb);
        int ab = p == 1 && lb.depth > 0;
        int per_deal = p == 0 && g->mask && g->determinize;   /* uct: a tree per deal, not kept */
        tav_budget b;
        memset(&b, 0, sizeof b);
        b.seed = seed;
        b.threads = 1;
        b.memory = 16u << 10;   /* 512 tree nodes */
        if (ab) {
            b.depth = 3;
            b.memory = 1u << 20;
        } else {
            b.nodes = 1000;
        }
        tav_answer fresh, again, kept1, kept2;
        tav_budget kb = b;
        kb.keep = 1000 + (uint64_t)p + seed * 4;
        kb.keep_tree = 1;
        if (run(c, players[p], &b, &fresh) != TAV_OK || run(c, players[p], &b, &again) != TAV_OK ||
            run(c, players[p], &kb, &kept1) != TAV_OK || run(c, players[p], &kb, &kept2) != TAV_OK) {
            fail(c, "%s: search failed", players[p]);
            break;
        }
        if (!is_legal(c, c->a, fresh.best) || !is_legal(c, c->a, kept2.best))
            fail(c, "%s: illegal move", players[p]);
        if (again.best != fresh.best || again.nodes != fresh.nodes || again.playouts != fresh.playouts)
            fail(c, "%s: the same seed gave another search", players[p]);
        if (kept1.best != fresh.best || kept1.nodes != fresh.nodes || kept1.reused != 0)
            fail(c, "%s: a new line of play did not start from empty memory", players[p]);
        if (ab) {
            if (!(kept2.nodes < kept1.nodes))
                fail(c, "alpha-beta: the kept table did not save work (%llu then %llu nodes)",
                     (unsigned long long)kept1.nodes, (unsigned long long)kept2.nodes);
            continue;
        }
        uint64_t cap = per_deal ? 8 * 512 : 512;   /* uct on hidden information: 8 deals, a tree each */
        if (fresh.nodes > cap || kept2.nodes > cap)
            fail(c, "%s: tree of %llu nodes past a %llu-node budget", players[p],
                 (unsigned long long)(fresh.nodes > kept2.nodes ? fresh.nodes : kept2.nodes),
                 (unsigned long long)cap);
        if (fresh.playouts < 1000 && fresh.nodes >= 512)
            fail(c, "%s: a full tree stopped the search", players[p]);
        if (kept2.playouts != fresh.playouts)
            fail(c, "%s: the playout budget counts %llu new playouts, not %llu", players[p],
                 (unsigned long long)kept2.playouts, (unsigned long long)fresh.playouts);
        uint64_t want = per_deal ? 0 : kept1.playouts;   /* the same position: the whole tree */
        if (kept2.reused != want)
            fail(c, "%s: the kept tree held %llu playouts, %llu expected", players[p],
                 (unsigned long long)kept2.reused, (unsigned long long)want);
        /* No memory for a tree: out of memory, not the end of the game. */
        tav_budget nb = b;
        nb.memory = 1;
        tav_answer none;
        tav_status rc = run(c, players[p], &nb, &none);
        if (rc != TAV_E_NOMEM || none.status != TAV_E_NOMEM)
            fail(c, "%s: a search without memory answered status %d, not TAV_E_NOMEM", players[p], (int)rc);
    }
}

/* `go movetime=MS` answers a legal move, for every player, one thread and
 * two.  How soon (within MS + 5% + 20 ms, issue 6) is the timing suite's:
 * tests/search/test_timing.c. */
static void check_movetime(ctx *c, uint64_t seed)
{
    if (random_position(c, seed, 4) != 0)
        return;
    static const char *const players[] = {"uct", "ai"};
    for (int p = 0; p < 2; p++)
        for (int threads = 1; threads <= 2; threads++) {
            tav_budget b;
            memset(&b, 0, sizeof b);
            b.movetime_ms = 100;
            b.threads = threads;
            b.seed = seed;
            tav_answer a;
            tav_status rc = run(c, players[p], &b, &a);
            snprintf(c->where, sizeof c->where, "go movetime=100, %s, %d thread(s)", players[p], threads);
            if (rc != TAV_OK || !is_legal(c, c->a, a.best))
                fail(c, "no legal move");
        }
}

/* Protocol fuzz: mutations of legal moves, through a real session. */
static void fuzz_protocol(ctx *c, uint64_t seed)
{
    tavi_protocol *e = tavi_protocol_new(seed);
    if (!e)
        return;
    char cmd[640];
    int quit;
    snprintf(cmd, sizeof cmd, "newgame %s %s", c->g->name, c->options);
    if (strcmp(tavi_protocol_exec(e, cmd, NULL, NULL, &quit), "ok") != 0) {
        fail(c, "fuzz: %s refused", cmd);
        tavi_protocol_free(e);
        return;
    }
    tav_rng rng;
    tav_rng_seed(&rng, seed);
    static const char junk[] = "abcdefghijklmnopqrstuvwxyzHPTAYIQSBMDXCW0123456789-,:x";
    for (int ply = 0; ply < 400; ply++) {
        snprintf(c->where, sizeof c->where, "fuzz seed %llu ply %d", (unsigned long long)seed, ply);
        const char *a = tavi_protocol_exec(e, "moves", NULL, NULL, &quit);
        size_t alen = strlen(a);
        if (alen <= 5)
            break;
        /* Pick a random legal move text. */
        char *copy = malloc(alen + 1);
        memcpy(copy, a, alen + 1);
        int n = 0;
        for (char *p = copy + 5; *p; p++)
            n += *p == ' ';
        int pick = (int)tav_rng_below(&rng, (uint32_t)n), k = -1;
        char *mv = NULL;
        for (char *p = copy + 5; *p; p++)
            if (*p == ' ' && ++k == pick)
                mv = p + 1;
        char *end = strchr(mv, ' ');
        if (end)
            *end = '\0';
        char legal_mv[TAV_MOVE_TEXT];
        snprintf(legal_mv, sizeof legal_mv, "%s", mv);
        /* Mutate it a few times: each mutation is legal only if listed. */
        for (int t = 0; t < 4; t++) {
            char m[TAV_MOVE_TEXT + 8];
            snprintf(m, sizeof m, "%s", legal_mv);
            size_t ml = strlen(m);
            switch (tav_rng_below(&rng, 4)) {
            case 0: m[tav_rng_below(&rng, (uint32_t)ml)] = junk[tav_rng_below(&rng, sizeof junk - 1)]; break;
            case 1: m[tav_rng_below(&rng, (uint32_t)ml)] = '\0'; break;
            case 2: m[ml] = junk[tav_rng_below(&rng, sizeof junk - 1)]; m[ml + 1] = '\0'; break;
            default: if (ml > 1) { char x = m[0]; m[0] = m[ml - 1]; m[ml - 1] = x; } break;
            }
            /* Is the mutation listed?  Search the answer copy (restore it). */
            const char *moves_again = tavi_protocol_exec(e, "moves", NULL, NULL, &quit);
            int listed = 0;
            size_t L = strlen(m);
            if (L > 0 && !strchr(m, ' ')) {
                for (const char *p = moves_again + 5; (p = strstr(p, m)) != NULL; p++)
                    if (p[-1] == ' ' && (p[L] == ' ' || p[L] == '\0')) {
                        listed = 1;
                        break;
                    }
            }
            char before[128];
            snprintf(before, sizeof before, "%s", tavi_protocol_exec(e, "hash", NULL, NULL, &quit));
            snprintf(cmd, sizeof cmd, "play %s", m);
            a = tavi_protocol_exec(e, cmd, NULL, NULL, &quit);
            if (listed) {
                if (strcmp(a, "ok") != 0)
                    fail(c, "fuzz: listed move '%s' answered '%s'", m, a);
                else
                    tavi_protocol_exec(e, "undo", NULL, NULL, &quit);
            } else if (strncmp(a, "illegal", 7) != 0 && strncmp(a, "error", 5) != 0) {
                fail(c, "fuzz: unlisted '%s' answered '%s'", m, a);
            }
            if (strcmp(tavi_protocol_exec(e, "hash", NULL, NULL, &quit), before) != 0)
                fail(c, "fuzz: '%s' changed the position", m);
        }
        snprintf(cmd, sizeof cmd, "play %s", legal_mv);
        a = tavi_protocol_exec(e, cmd, NULL, NULL, &quit);
        if (strcmp(a, "ok") != 0)
            fail(c, "fuzz: play %s answered '%s'", legal_mv, a);
        free(copy);
        if (c->failed)
            break;
    }
    tavi_protocol_free(e);
}

/* Records: a random game saved and parsed back replays to the same bytes;
 * damaged copies are refused with a line/column message. */
static void check_records(ctx *c, uint64_t seed)
{
    const tav_game *g = c->g;
    char err[512];
    snprintf(c->where, sizeof c->where, "records seed %llu", (unsigned long long)seed);
    memset(c->a, 0, g->state_size);
    if (g->init(c->a, c->options, err, sizeof err) != 0)
        return;
    tav_record r;
    tav_record_init(&r);
    r.game = g;
    snprintf(r.options, sizeof r.options, "%s", c->options);
    snprintf(r.white, sizeof r.white, "random");
    snprintf(r.black, sizeof r.black, "random \"quoted\" \\ name");
    tav_rng rng;
    tav_rng_seed(&rng, seed);
    for (int ply = 0; ply < MAX_PLIES; ply++) {
        int n = g->legal(c->a, c->list);
        if (n == 0)
            break;
        tav_move m = c->list[tav_rng_below(&rng, (uint32_t)n)];
        char mv[TAV_MOVE_TEXT];
        g->move_str(c->a, m, mv, sizeof mv);
        tav_record_add(&r, mv, ply % 7 == 3 ? "a comment" : NULL);
        g->play(c->a, m);
    }
    char *text = tav_record_write(&r);
    tav_record back;
    tav_record_init(&back);
    if (!text || tav_record_parse(text, strlen(text), &back, c->b, err, sizeof err) != TAV_OK) {
        fail(c, "record round trip: %s", text ? err : "no text");
    } else {
        if (memcmp(c->a, c->b, g->state_size) != 0)
            fail(c, "record round trip: different final state");
        if (back.nmoves != r.nmoves || strcmp(back.black, r.black) != 0)
            fail(c, "record round trip: moves or tags differ");
        for (int i = 0; i < r.nmoves && i < back.nmoves; i++)
            if (strcmp(r.moves[i], back.moves[i]) != 0 ||
                (r.comments[i] != NULL) != (back.comments[i] != NULL)) {
                fail(c, "record round trip: move %d differs", i + 1);
                break;
            }
    }
    /* Damaged records: each must be refused with a located message. */
    if (text && r.nmoves > 3) {
        size_t len = strlen(text);
        char *bad = malloc(len + 64);
        const char *cases[4] = {"truncated", "unknown tag", "illegal move", "wrong game"};
        for (int k = 0; k < 4; k++) {
            memcpy(bad, text, len + 1);
            if (k == 0) {
                /* cut inside the last move line, leaving a partial token */
                char *last = strrchr(bad, '.');
                if (last)
                    last[3] = '\0';
            } else if (k == 1) {
                snprintf(bad, len + 64, "[Colour \"x\"]\n%s", text);
            } else if (k == 2) {
                char *p = strstr(bad, "\n3. ");
                if (p)
                    memcpy(p + 4, "zz", 2);
            } else {
                /* Another game of the registry (the next one). */
                int gi = 0;
                while (tav_game_at(gi) != g)
                    gi++;
                const char *other = tav_game_at((gi + 1) % tav_game_count())->name;
                char *p = strstr(bad, g->name);
                size_t gl = strlen(g->name);
                memmove(p + strlen(other), p + gl, strlen(p + gl) + 1);
                memcpy(p, other, strlen(other));
            }
            if (k == 0 && tav_record_parse(bad, strlen(bad), &back, NULL, err, sizeof err) == TAV_OK)
                continue;   /* a cut that leaves a legal prefix is a valid record */
            if (tav_record_parse(bad, strlen(bad), &back, NULL, err, sizeof err) == TAV_OK)
                fail(c, "damaged record (%s) accepted", cases[k]);
            else if (strncmp(err, "line ", 5) != 0)
                fail(c, "damaged record (%s): message without a line: %s", cases[k], err);
        }
        free(bad);
    }
    free(text);
    tav_record_free(&back);
    tav_record_free(&r);
}

int cli_selftest(int argc, char **argv)
{
    int games = 8;
    uint64_t seed = 1;
    const char *only = NULL;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--games") == 0 && i + 1 < argc)
            games = atoi(argv[++i]);
        else if (strcmp(argv[i], "--seed") == 0 && i + 1 < argc)
            seed = strtoull(argv[++i], NULL, 10);
        else
            only = argv[i];
    }
    int passed = 0, failed = 0;
    /* One service for every search: two workers (the movetime checks use
     * both), 1 MiB of search memory each. */
    tav_service *svc = tav_service_new(2, 1u << 20);
    if (!svc) {
        fprintf(stderr, "tavoliere: out of memory\n");
        return 1;
    }
    for (int gi = 0; gi < tav_game_count(); gi++)
    for (int k = 0; tav_game_at(gi)->samples && tav_game_at(gi)->samples[k]; k++) {
        const tav_game *g = tav_game_at(gi);
        if (only && strcmp(only, g->name) != 0)
            continue;
        ctx c = {0};
        c.g = g;
        c.svc = svc;
        c.options = g->samples[k];
        c.list = malloc(sizeof(tav_move) * (size_t)g->max_moves);
        c.list2 = malloc(sizeof(tav_move) * (size_t)g->max_moves);
        c.a = malloc(g->state_size);
        c.b = malloc(g->state_size);
        if (!c.list || !c.list2 || !c.a || !c.b) {
            fprintf(stderr, "tavoliere: out of memory\n");
            tav_service_free(svc);
            return 1;
        }
        long plies = 0;
        double t0 = cli_now();
        for (int i = 0; i < games && !c.failed; i++)
            plies += play_game(&c, seed * 1000003ULL + (uint64_t)i);
        for (int i = 0; i < 2 && !c.failed; i++)
            fuzz_protocol(&c, seed * 7919ULL + (uint64_t)i);
        for (int i = 0; i < 2 && !c.failed; i++)
            check_records(&c, seed * 31ULL + (uint64_t)i);
        if (!c.failed)
            check_memory(&c, seed);
        if (!c.failed)
            check_movetime(&c, seed);
        printf("  selftest %-12s %-20s %d games, %ld plies, %.2fs: %s\n", g->name,
               c.options[0] ? c.options : "(defaults)", games, plies, cli_now() - t0,
               c.failed ? "FAILED" : "ok");
        if (c.failed)
            failed++;
        else
            passed++;
        free(c.list);
        free(c.list2);
        free(c.a);
        free(c.b);
    }
    tav_service_free(svc);
    printf("%d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}
