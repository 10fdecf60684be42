/*
 * conformance.c — the rules-table invariants every game must keep
 * (tav_conformance_game in tavoliere.h), for any test to call.
 *
 * One seeded random game is played through the operations table; at every ply:
 *   1. the legal list is within max_moves, empty exactly when the game is
 *      over, and its texts are non-empty, short, without blanks or '/',
 *      distinct;
 *   2. the game's own invariant checker (recount from scratch) agrees;
 *   3. the position text round-trips: a fresh state set from it has the
 *      same legal moves, result and hash, and prints the same text;
 *   4. play is deterministic: two copies played with the same move are
 *      byte-identical (copy-make undo is exact);
 *   5. for hidden information: masking is idempotent, determinizing then
 *      masking gives the masked state back, and the masked state has the
 *      same legal moves as the real one;
 *   6. the game ends within TAV_CONFORMANCE_MAX_PLIES plies;
 *   7. random_move, when the game has it, chooses the move the legal list
 *      and tav_rng_below would choose, returns the same count and leaves
 *      the generator in the same state (several draws per ply), and returns
 *      0 with the generator untouched when the game is over;
 *   8. noisy, when the game has it, lists exactly the moves of the legal
 *      list whose move_score is at least TAV_NOISY, in the same order;
 *   9. is_legal, when the game has it, accepts every move of the legal list
 *      and refuses every other value tried: each legal move with one bit
 *      flipped, and seeded random values;
 *  10. move_context, when the game has it, is below 2^11 with every legal
 *      move below 2^20 (the room the search's move-average keys give them).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/base.h"
#include "tavoliere.h"

#define TAV_CONFORMANCE_MAX_PLIES 20000

typedef struct conf {
    const tav_game *g;
    const char *options;
    tav_move *list, *list2;
    unsigned char *a, *b, *c;
    char *pos, *pos2;
    uint64_t seed;
    int ply, failed;
    char *err;
    size_t errlen;
} conf;

static void fail(conf *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void fail(conf *c, const char *fmt, ...)
{
    if (c->failed++)
        return;   /* the first failure is the one reported */
    size_t k = tavi_bprintf(c->err, c->errlen, "seed %llu ply %d: ", (unsigned long long)c->seed,
                           c->ply);
    va_list ap;
    va_start(ap, fmt);
    if (k < c->errlen)
        vsnprintf(c->err + k, c->errlen - k, fmt, ap);
    va_end(ap);
}

static uint64_t text_hash(const char *s)
{
    uint64_t h = 1469598103934665603ULL;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 1099511628211ULL;
    return h;
}

static int cmp_u64(const void *x, const void *y)
{
    uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;
    return a < b ? -1 : a > b;
}

/* Order-independent signature of the legal move texts of st; checks the
 * texts on the way (strict).  Returns the count. */
static int legal_signature(conf *c, const void *st, tav_move *list, uint64_t *sig, int strict)
{
    const tav_game *g = c->g;
    int n = g->legal(st, list);
    *sig = 0;
    if (n < 0 || n > g->max_moves) {
        fail(c, "legal returned %d (max_moves %d)", n, g->max_moves);
        return 0;
    }
    uint64_t *h = malloc(sizeof(uint64_t) * (size_t)(n ? n : 1));
    if (!h) {
        fail(c, "out of memory");
        return 0;
    }
    char buf[TAV_MOVE_TEXT];
    for (int i = 0; i < n; i++) {
        int k = g->move_str(st, list[i], buf, sizeof buf);
        if (strict && (k <= 0 || k >= TAV_MOVE_TEXT - 1 || (int)strlen(buf) != k ||
                       strpbrk(buf, " \t/") != NULL))
            fail(c, "bad move text '%s'", buf);
        h[i] = text_hash(buf);
        *sig += tavi_mix64(h[i]);
    }
    if (strict) {
        qsort(h, (size_t)n, sizeof *h, cmp_u64);
        for (int i = 1; i < n; i++)
            if (h[i] == h[i - 1]) {
                fail(c, "a move is listed twice");
                break;
            }
    }
    free(h);
    return n;
}

/* Invariants 2, 3 and 5 on one state. */
static void check_state(conf *c, const void *st, int n, uint64_t sig)
{
    const tav_game *g = c->g;
    char err[256];
    if (g->check && g->check(st, err, sizeof err) != 0)
        fail(c, "check: %s", err);
    tav_result r1, r2;
    g->result(st, &r1);
    if ((n == 0) != (r1.over != 0))
        fail(c, "%d legal moves but over=%d", n, r1.over);
    if (r1.over && g->to_move(st) != TAV_NONE)
        fail(c, "over but to_move is %d", g->to_move(st));
    /* Position text round trip. */
    g->get_position(st, c->pos, TAV_POSITION_TEXT);
    if (strchr(c->pos, '/'))
        fail(c, "position text contains '/'");
    memset(c->c, 0, g->state_size);
    if (g->init(c->c, c->options, err, sizeof err) != 0 ||
        g->set_position(c->c, c->pos, err, sizeof err) != 0) {
        fail(c, "set_position(get_position) failed: %s", err);
        return;
    }
    uint64_t sig2;
    int n2 = legal_signature(c, c->c, c->list2, &sig2, 0);
    g->result(c->c, &r2);
    if (n2 != n || sig2 != sig)
        fail(c, "position round trip: %d moves vs %d", n2, n);
    if (r1.over != r2.over || r1.winner != r2.winner || r1.score[0] != r2.score[0] ||
        r1.score[1] != r2.score[1])
        fail(c, "position round trip changes the result");
    if (g->hash(c->c) != g->hash(st))
        fail(c, "position round trip changes the hash");
    g->get_position(c->c, c->pos2, TAV_POSITION_TEXT);
    if (strcmp(c->pos, c->pos2) != 0)
        fail(c, "position text not stable:\n%s\n--\n%s", c->pos, c->pos2);
    /* Hidden information. */
    if (g->mask && !r1.over) {
        int viewer = g->to_move(st);
        memcpy(c->c, st, g->state_size);
        g->mask(c->c, viewer);
        memcpy(c->b, c->c, g->state_size);
        g->mask(c->b, viewer);
        if (memcmp(c->b, c->c, g->state_size) != 0)
            fail(c, "mask is not idempotent");
        if (g->determinize) {
            tav_rng rng;
            tav_rng_seed(&rng, sig);
            g->determinize(c->b, viewer, &rng);
            if (g->check && g->check(c->b, err, sizeof err) != 0)
                fail(c, "check after determinize: %s", err);
            g->mask(c->b, viewer);
            if (memcmp(c->b, c->c, g->state_size) != 0)
                fail(c, "determinize then mask differs from mask");
        }
        n2 = legal_signature(c, c->c, c->list2, &sig2, 0);
        if (n2 != n || sig2 != sig)
            fail(c, "masked state has other legal moves");
    }
}

/* Invariant 7 on one state with its legal list (n moves). */
static void check_random_move(conf *c, const void *st, const tav_move *list, int n)
{
    const tav_game *g = c->g;
    for (int i = 0; i < (n ? 4 : 1); i++) {
        tav_rng r1, r2;
        tav_rng_seed(&r1, tavi_mix64(c->seed ^ ((uint64_t)c->ply << 8) ^ (uint64_t)i));
        r2 = r1;
        tav_move m = 0;
        int k = g->random_move(st, &r1, &m);
        if (k != n) {
            fail(c, "random_move counts %d moves, legal %d", k, n);
            return;
        }
        if (n && m != list[tav_rng_below(&r2, (uint32_t)n)]) {
            fail(c, "random_move chose another move than the legal list would");
            return;
        }
        if (memcmp(&r1, &r2, sizeof r1) != 0) {
            fail(c, "random_move drew from the generator differently");
            return;
        }
    }
}

/* Invariant 8 on one state with its legal list (n moves). */
static void check_noisy(conf *c, const void *st, const tav_move *list, int n)
{
    const tav_game *g = c->g;
    int k = g->noisy(st, c->list2), j = 0;
    if (k < 0 || k > n) {
        fail(c, "noisy listed %d moves of %d", k, n);
        return;
    }
    for (int i = 0; i < n; i++)
        if (g->move_score(st, list[i]) >= TAV_NOISY && (j >= k || c->list2[j++] != list[i])) {
            fail(c, "noisy differs from the legal list's noisy moves at %d", j - 1);
            return;
        }
    if (j != k)
        fail(c, "noisy listed %d moves, the legal list has %d noisy ones", k, j);
}

/* Whether m is in list[0..n). */
static int in_list(const tav_move *list, int n, tav_move m)
{
    for (int i = 0; i < n; i++)
        if (list[i] == m)
            return 1;
    return 0;
}

/* Invariant 9 on one state with its legal list (n moves). */
static void check_move_context(conf *c, const void *st, const tav_move *list, int n)
{
    uint32_t x = c->g->move_context(st);
    if (x >= 1u << 11) {
        fail(c, "move_context %#x is not below 2^11", (unsigned)x);
        return;
    }
    for (int i = 0; i < n; i++)
        if (list[i] >= 1u << 20) {
            fail(c, "legal move %#x is not below 2^20 (the game has a move_context)",
                 (unsigned)list[i]);
            return;
        }
}

static void check_is_legal(conf *c, const void *st, const tav_move *list, int n)
{
    const tav_game *g = c->g;
    tav_rng r;
    tav_rng_seed(&r, tavi_mix64(c->seed ^ 0x69736c6567616cULL ^ (uint64_t)c->ply));
    for (int i = 0; i < n; i++) {
        if (!g->is_legal(st, list[i])) {
            fail(c, "is_legal refuses the legal move %d of %d", i, n);
            return;
        }
        /* the same move with one bit flipped: legal only if listed */
        tav_move m = list[i] ^ ((tav_move)1 << tav_rng_below(&r, 32));
        if (g->is_legal(st, m) && !in_list(list, n, m)) {
            fail(c, "is_legal accepts %#x, not a legal move", (unsigned)m);
            return;
        }
    }
    for (int i = 0; i < 16; i++) {
        tav_move m = (tav_move)tav_rng_next(&r);
        if (i & 1)
            m &= 0xffffff;   /* small values, where the moves of most games live */
        if (g->is_legal(st, m) && !in_list(list, n, m)) {
            fail(c, "is_legal accepts %#x, not a legal move", (unsigned)m);
            return;
        }
    }
}

tav_status tav_conformance_game(const tav_game *g, const char *options, uint64_t seed,
                                tav_conformance_hook hook, void *ctx, int *plies, char *err,
                                size_t errlen)
{
    if (plies)
        *plies = 0;
    if (tav_game_check_table(g, err, errlen) != TAV_OK)
        return TAV_E_INVALID;
    conf c;
    memset(&c, 0, sizeof c);
    c.g = g;
    c.options = options ? options : "";
    c.seed = seed;
    c.err = err;
    c.errlen = errlen;
    if (err && errlen)
        err[0] = '\0';
    c.list = malloc(sizeof(tav_move) * (size_t)g->max_moves);
    c.list2 = malloc(sizeof(tav_move) * (size_t)g->max_moves);
    c.a = calloc(1, g->state_size);
    c.b = calloc(1, g->state_size);
    c.c = calloc(1, g->state_size);
    c.pos = malloc(TAV_POSITION_TEXT);
    c.pos2 = malloc(TAV_POSITION_TEXT);
    char e2[256];
    int nomem = !c.list || !c.list2 || !c.a || !c.b || !c.c || !c.pos || !c.pos2;
    if (nomem)
        fail(&c, "out of memory");
    else if (g->init(c.a, c.options, e2, sizeof e2) != 0)
        fail(&c, "init: %s", e2);
    tav_rng rng;
    tav_rng_seed(&rng, seed);
    for (c.ply = 0; !c.failed; c.ply++) {
        uint64_t sig;
        int n = legal_signature(&c, c.a, c.list, &sig, 1);
        check_state(&c, c.a, n, sig);
        if (g->random_move && !c.failed)
            check_random_move(&c, c.a, c.list, n);
        if (g->noisy && g->move_score && !c.failed)
            check_noisy(&c, c.a, c.list, n);
        if (g->is_legal && !c.failed)
            check_is_legal(&c, c.a, c.list, n);
        if (g->move_context && !c.failed)
            check_move_context(&c, c.a, c.list, n);
        if (n == 0 || c.failed)
            break;
        if (c.ply >= TAV_CONFORMANCE_MAX_PLIES) {
            fail(&c, "game does not end");
            break;
        }
        if (hook && hook(ctx, g, c.a, c.ply, c.list, n, e2, sizeof e2) != 0) {
            fail(&c, "%s", e2);
            break;
        }
        tav_move m = c.list[tav_rng_below(&rng, (uint32_t)n)];
        memcpy(c.b, c.a, g->state_size);
        memcpy(c.c, c.a, g->state_size);
        g->play(c.b, m);
        g->play(c.c, m);
        if (memcmp(c.b, c.c, g->state_size) != 0)
            fail(&c, "play is not deterministic");
        memcpy(c.a, c.b, g->state_size);
    }
    if (plies)
        *plies = c.ply;
    free(c.list);
    free(c.list2);
    free(c.a);
    free(c.b);
    free(c.c);
    free(c.pos);
    free(c.pos2);
    return nomem ? TAV_E_NOMEM : c.failed ? TAV_E_INVALID : TAV_OK;
}
