/*
 * alphabeta.c — iterative-deepening alpha-beta (negamax, principal
 * variation search) over the operations table, for games where a good
 * evaluation beats sampling (Epaminondas is the natural case).
 *
 * Scores are integers from the mover's point of view: a finished game is
 * +-AB_WIN adjusted by ply (faster wins score higher), a draw 0, otherwise
 * the game's eval() in [0, 1] is stretched to [-1000, 1000].
 *
 * Move ordering: the transposition-table move, then the game's move_score()
 * (captures and wins first), then killer moves and a history table.  Moves
 * whose move_score is at least TAV_NOISY are "noisy" and are searched in a
 * quiescence search with stand-pat on eval, so exchanges resolve before a
 * position is judged.  In a game with is_legal, nodes near the leaves try
 * the table's move and the killers before listing their moves (most cut off
 * there and never list), in exactly the order a listing node would have
 * (the history journal below); evaluations are cached per position.  Both
 * leave the search's tree unchanged: only its speed differs.
 *
 * Levels 1..9 limit the depth and add a random bonus to each root move
 * (larger at low levels), so weak levels make visible mistakes and games
 * between fixed-depth players vary with the seed.
 *
 * Parallel: Lazy SMP — every thread runs the same iterative deepening on a
 * shared transposition table whose entries are two atomic words (key xor
 * data, data), so a torn entry is detected and ignored.  With one thread the
 * search is deterministic.
 */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/base.h"
#include "search/search_internal.h"

#define AB_WIN 30000
#define AB_INF 32000
#define AB_MAXPLY 64
#define QS_MAXPLY 12

typedef struct tt_entry {
    _Atomic uint64_t key;    /* hash ^ data */
    _Atomic uint64_t data;   /* move:32 | score:16 | depth:8 | flag:2 */
} tt_entry;

enum { TT_EXACT = 1, TT_LOWER = 2, TT_UPPER = 3 };

typedef struct shared {
    const tav_game *g;
    tt_entry *tt;
    uint64_t tt_mask;
    double deadline;           /* 0 = none */
    uint64_t max_nodes;        /* 0 = none */
    int max_depth;
    _Atomic int stop;
    _Atomic uint64_t nodes;
    tav_info_fn info;
    void *ctx;
    double start;
    int noise;                 /* weak levels: random bonus in [0, noise) per root move */
    uint64_t noise_seed;
    uint64_t salt;             /* mixed into every key: entries of other searches never match */
    const _Atomic int *cancel; /* set from any thread: stop now (NULL: none) */
} shared;

/* One change to the history table: entry idx held `old` before it; idx
 * HJ_HALVE marks a halving of the whole table, `old` the snapshot holding
 * the table before it. */
typedef struct hj_entry {
    uint32_t idx, old;
} hj_entry;
#define HJ_HALVE 0xffffffffu
/* Nodes with at most this depth left try the table's move and the killers
 * before they list their moves (staged); deeper nodes list first.  With 3,
 * the journal is bounded: a staged node tries at most 3 moves before it
 * lists, each a subtree of depth 2 or less, which changes the history at
 * most 2 * max_moves + 1 times (its own cut-off and one per search of each
 * depth-1 child, a re-search included): 10,083 for Epaminondas, within
 * HJ_CAP; and those changes (at most 4 each) cannot add up to more than
 * one halving.  Staging deeper nodes saves nothing more (callgrind). */
#ifndef AB_STAGE_DEPTH
#define AB_STAGE_DEPTH 3
#endif
#define HJ_CAP 32768
#define HJ_SNAPS 8
/* The evaluation cache: a direct-mapped table of 2^EV_BITS positions, each
 * entry the key's bits above the index and a 16-bit score. */
#define EV_BITS 16
#define EV_SIZE (1u << EV_BITS)
_Static_assert(EV_BITS >= 16, "the score takes the low 16 bits of an entry");

typedef struct worker {
    shared *sh;
    int id;
    unsigned char *states;     /* AB_MAXPLY + QS_MAXPLY + 2 states */
    tav_move *lists;           /* per ply move lists */
    int *scores;               /* per ply ordering scores */
    tav_move killers[AB_MAXPLY + QS_MAXPLY + 2][2];
    uint32_t history[4096];
    /* The history journal (staged nodes, see search()): every change to
     * `history` while a staged node has not yet listed its moves. */
    hj_entry *hj;
    uint32_t (*hj_snap)[4096]; /* tables before a halving, HJ_SNAPS at most */
    int hj_len, hj_nsnap, hj_open;
    int hj_over;               /* the journal overflowed: listing is no longer exact */
    uint64_t *evals;           /* EV_SIZE cached evaluations: key's high 48 bits | score */
    uint64_t nodes;
    uint64_t reported;         /* nodes already added to the shared count */
    unsigned tick;             /* nodes since the clock was last read (clock_due) */
    tav_move best;
    int have_best, best_score, depth_done;
} worker;

static double ab_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void tt_store(shared *sh, uint64_t key, tav_move m, int score, int depth, int flag)
{
    tt_entry *e = &sh->tt[key & sh->tt_mask];
    uint64_t data = (uint64_t)m << 32 | (uint64_t)(uint16_t)(int16_t)score << 16 |
                    (uint64_t)(uint8_t)depth << 8 | (uint64_t)flag;
    atomic_store_explicit(&e->key, key ^ sh->salt ^ data, memory_order_relaxed);
    atomic_store_explicit(&e->data, data, memory_order_relaxed);
}

static int tt_probe(shared *sh, uint64_t key, tav_move *m, int *score, int *depth, int *flag)
{
    tt_entry *e = &sh->tt[key & sh->tt_mask];
    uint64_t k = atomic_load_explicit(&e->key, memory_order_relaxed);
    uint64_t data = atomic_load_explicit(&e->data, memory_order_relaxed);
    if ((k ^ data) != (key ^ sh->salt) || data == 0)
        return 0;   /* empty, torn, or left by another search */
    *m = (tav_move)(data >> 32);
    *score = (int16_t)(uint16_t)(data >> 16);
    *depth = (uint8_t)(data >> 8);
    *flag = (int)(data & 3);
    return 1;
}

/* Static score of a live position for the player to move. */
static int evaluate(const tav_game *g, const void *st)
{
    double v = g->eval(st, g->to_move(st));
    return (int)((v - 0.5) * 2000.0);
}

/* evaluate() through the worker's cache.  A position's evaluation depends
 * on the position alone, and its hash names it (as in the table), so a hit
 * gives the same score the evaluation would: the search does not change,
 * it only skips evaluating a position met again (a transposition, or a leaf
 * of the previous iteration): about one evaluation in six from the start. */
static int evaluate_cached(worker *w, const void *st)
{
    const tav_game *g = w->sh->g;
    const uint64_t mask = ~(uint64_t)(EV_SIZE - 1);
    uint64_t key = g->hash(st), *e = &w->evals[key & (EV_SIZE - 1)];
    uint64_t tag = key & mask;
    if ((*e & mask) == tag && *e != 0)
        return (int16_t)(uint16_t)(*e & 0xffff);
    int v = evaluate(g, st);
    *e = tag | (uint16_t)(int16_t)v;
    return v;
}

/* Score of a finished game for the side that would move, from `ply`. */
static int terminal_score(const tav_game *g, const void *st, int side, int ply)
{
    tav_result r;
    g->result(st, &r);
    if (r.winner == TAV_DRAW || r.winner == TAV_NONE)
        return 0;
    return r.winner == side ? AB_WIN - ply : -AB_WIN + ply;
}

/* Every 256 nodes, interior or quiescence, read the clock (a search with a
 * deadline only): a search whose nodes are slow, as a new table's first
 * touches make them, still stops on time.  Sets stop and returns 1 when the
 * time is up; a node budget is not affected. */
static int clock_due(worker *w)
{
    shared *sh = w->sh;
    if (sh->deadline <= 0 || ++w->tick < 256)
        return 0;
    w->tick = 0;
    if (ab_now() >= sh->deadline) {
        atomic_store(&sh->stop, 1);
        return 1;
    }
    return 0;
}

/* Every 1024 nodes (quiescence nodes included), add this worker's nodes to
 * the shared count and check the clock and the node budget. */
static int out_of_time(worker *w)
{
    shared *sh = w->sh;
    if (atomic_load_explicit(&sh->stop, memory_order_relaxed) || clock_due(w))
        return 1;
    if (sh->cancel && atomic_load_explicit(sh->cancel, memory_order_relaxed)) {
        atomic_store(&sh->stop, 1);
        return 1;
    }
    if (w->nodes - w->reported >= 1024) {
        uint64_t delta = w->nodes - w->reported;
        w->reported = w->nodes;
        uint64_t total = atomic_fetch_add_explicit(&sh->nodes, delta, memory_order_relaxed) + delta;
        if ((sh->deadline > 0 && ab_now() >= sh->deadline) ||
            (sh->max_nodes && total >= sh->max_nodes)) {
            atomic_store(&sh->stop, 1);
            return 1;
        }
    }
    return 0;
}

/* Bring the best-scored move of moves[i..n) to position i (lazy selection:
 * a cut-off after a few moves never pays for sorting the whole list). */
static void pick(tav_move *moves, int *scores, int i, int n)
{
    /* The highest score first, four running maxima at a time; then the
     * first place holding it: the same choice as a plain scan keeping the
     * first of equal scores. */
    int m0 = scores[i], m1 = m0, m2 = m0, m3 = m0, j = i + 1;
    for (; j + 4 <= n; j += 4) {
        m0 = scores[j] > m0 ? scores[j] : m0;
        m1 = scores[j + 1] > m1 ? scores[j + 1] : m1;
        m2 = scores[j + 2] > m2 ? scores[j + 2] : m2;
        m3 = scores[j + 3] > m3 ? scores[j + 3] : m3;
    }
    for (; j < n; j++)
        m0 = scores[j] > m0 ? scores[j] : m0;
    m0 = m1 > m0 ? m1 : m0;
    m2 = m3 > m2 ? m3 : m2;
    int mx = m2 > m0 ? m2 : m0;
    if (mx == scores[i])
        return;
    int b = i + 1;
    while (scores[b] != mx)
        b++;
    tav_move m = moves[i];
    int sc = scores[i];
    moves[i] = moves[b];
    scores[i] = scores[b];
    moves[b] = m;
    scores[b] = sc;
}

static int quiesce(worker *w, const void *st, int alpha, int beta, int ply, int qply)
{
    const tav_game *g = w->sh->g;
    w->nodes++;
    /* Out of time: any value will do, the caller drops it (it checks stop). */
    if (clock_due(w) || atomic_load_explicit(&w->sh->stop, memory_order_relaxed))
        return 0;
    int side = g->to_move(st);
    if (side == TAV_NONE)
        return terminal_score(g, st, side, ply);
    int stand = evaluate_cached(w, st);
    if (stand >= beta || qply >= QS_MAXPLY || ply >= AB_MAXPLY + QS_MAXPLY)
        return stand;
    if (stand > alpha)
        alpha = stand;
    tav_move *moves = w->lists + (size_t)ply * (size_t)g->max_moves;
    int *scores = w->scores + (size_t)ply * (size_t)g->max_moves;
    /* the noisy moves in list order: g->noisy lists only those */
    int n = g->noisy ? g->noisy(st, moves) : g->legal(st, moves), k = 0;
    for (int i = 0; i < n; i++) {
        int sc = g->move_score(st, moves[i]);
        if (sc >= TAV_NOISY) {
            moves[k] = moves[i];
            scores[k++] = sc;
        }
    }
    void *child = w->states + (size_t)(ply + 1) * g->state_size;
    for (int i = 0; i < k; i++) {
        pick(moves, scores, i, k);
        memcpy(child, st, g->state_size);
        g->play(child, moves[i]);
        int s;
        if (g->to_move(child) == TAV_NONE)
            s = terminal_score(g, child, side, ply + 1);
        else if (g->to_move(child) == side)
            s = quiesce(w, child, alpha, beta, ply + 1, qply + 1);
        else
            s = -quiesce(w, child, -beta, -alpha, ply + 1, qply + 1);
        if (s >= beta)
            return s;
        if (s > alpha)
            alpha = s;
    }
    return alpha;
}

/* ---- History journal ----
 *
 * A staged node (one with AB_STAGE_DEPTH or less to go, in a game with
 * is_legal) searches the table's move and the killers before it lists its
 * moves, and lists them only if none of those cut off.  Its order must be
 * the one the listing node would have had: the history values as they were
 * when the node was entered, before the subtrees of the moves tried first
 * changed them.  So while a staged node has not listed, every change to the
 * history table is journalled; when it lists, the journal since its entry is
 * swapped back (the table as it was), the moves are scored, and it is swapped
 * forward again.  The search then visits the same nodes in the same order as
 * one that lists every node's moves first, only without listing at the nodes
 * that cut off on a move tried first (most of them). */

/* history[idx] is about to change: journal its value if a staged node needs it. */
static inline void hj_note(worker *w, uint32_t idx)
{
    if (!w->hj_open)
        return;
    if (w->hj_len == HJ_CAP) {
        w->hj_over = 1;
        return;
    }
    w->hj[w->hj_len].idx = idx;
    w->hj[w->hj_len++].old = w->history[idx];
}

/* A quiet move cut off at `depth`: credit it in the history table. */
static void history_add(worker *w, tav_move m, int depth)
{
    uint32_t idx = (uint32_t)(tavi_mix64(m) & 4095);
    hj_note(w, idx);
    uint32_t *h = &w->history[idx];
    *h += (uint32_t)(depth * depth);
    if (*h > (1u << 20)) {
        if (w->hj_open) {
            if (w->hj_nsnap < HJ_SNAPS && w->hj_len < HJ_CAP) {
                memcpy(w->hj_snap[w->hj_nsnap], w->history, sizeof w->history);
                w->hj[w->hj_len].idx = HJ_HALVE;
                w->hj[w->hj_len++].old = (uint32_t)w->hj_nsnap++;
            } else {
                w->hj_over = 1;
            }
        }
        for (int k = 0; k < 4096; k++)
            w->history[k] >>= 1;
    }
}

/* Swap journal entry j with the table: undoes it if it was done, redoes it
 * if it was undone. */
static void hj_swap(worker *w, int j)
{
    hj_entry *e = &w->hj[j];
    if (e->idx == HJ_HALVE) {
        uint32_t *snap = w->hj_snap[e->old];
        for (int k = 0; k < 4096; k++) {
            uint32_t t = w->history[k];
            w->history[k] = snap[k];
            snap[k] = t;
        }
    } else {
        uint32_t t = w->history[e->idx];
        w->history[e->idx] = e->old;
        e->old = t;
    }
}

/* A staged node begins (returns its place in the journal) and ends. */
static int hj_open(worker *w)
{
    if (w->hj_open++ == 0) {
        w->hj_len = 0;
        w->hj_nsnap = 0;
        w->hj_over = 0;
    }
    return w->hj_len;
}

static void hj_close(worker *w)
{
    w->hj_open--;
}

/* Order scores of moves[0..n): the table's move first, then the killers,
 * then move_score and the history table. */
static void score_moves(worker *w, const void *st, int ply, tav_move ttm, const tav_move *moves,
                        int *scores, int n)
{
    const tav_game *g = w->sh->g;
    for (int i = 0; i < n; i++) {
        tav_move m = moves[i];
        int sc = g->move_score ? g->move_score(st, m) * 16 : 0;
        if (m == ttm && ttm)
            sc = 1 << 29;
        else if (m == w->killers[ply][0])
            sc += 1 << 20;
        else if (m == w->killers[ply][1])
            sc += 1 << 19;
        sc += (int)(w->history[tavi_mix64(m) & 4095] >> 4);
        scores[i] = sc;
    }
}

static int search(worker *w, const void *st, int depth, int alpha, int beta, int ply)
{
    shared *sh = w->sh;
    const tav_game *g = sh->g;
    int side = g->to_move(st);
    if (side == TAV_NONE)
        return terminal_score(g, st, side, ply);
    if (depth <= 0 || ply >= AB_MAXPLY)
        return g->move_score ? quiesce(w, st, alpha, beta, ply, 0) : evaluate_cached(w, st);
    w->nodes++;
    if (out_of_time(w))
        return 0;
    uint64_t key = g->hash(st);
    tav_move ttm = 0;
    int tts, ttd, ttf, alpha0 = alpha;
    if (tt_probe(sh, key, &ttm, &tts, &ttd, &ttf) && ttd >= depth && ply > 0) {
        if (ttf == TT_EXACT || (ttf == TT_LOWER && tts >= beta) || (ttf == TT_UPPER && tts <= alpha))
            return tts;
    }
    tav_move *moves = w->lists + (size_t)ply * (size_t)g->max_moves;
    int *scores = w->scores + (size_t)ply * (size_t)g->max_moves;
    void *child = w->states + (size_t)(ply + 1) * g->state_size;
    /* A staged node tries the table's move and the killers (stages 0-2)
     * before listing (stage 3); a node that lists first starts at stage 3. */
    int staged = g->is_legal && ply > 0 && depth <= AB_STAGE_DEPTH;
    int stage = staged ? 0 : 3, open = staged, j0 = staged ? hj_open(w) : 0;
    int n = 0, li = 0, listed = 0, ndone = 0;
    tav_move done[3];
    int best = -AB_INF;
    tav_move bestm = 0;
    int first = 1;             /* no move searched yet */
    for (;;) {
        /* The next move m, its place i in the listing order and its score. */
        tav_move m;
        int i, sc;
        if (stage < 3) {
            int st_ = stage++;
            m = st_ == 0 ? ttm : w->killers[ply][st_ - 1];
            if (!m || (st_ >= 1 && m == ttm) || (st_ == 2 && m == w->killers[ply][0]) ||
                !g->is_legal(st, m))
                continue;
            done[ndone++] = m;
            i = ndone - 1;
            sc = st_ == 0 ? 1 << 29 : 1 << 19;
        } else {
            if (!listed) {
                listed = 1;
                n = g->legal(st, moves);
                if (open) {
                    /* the history as it was when this node was entered (an
                     * overflowed journal cannot say: the table as it is) */
                    int back = w->hj_over ? w->hj_len : j0;
                    for (int j = w->hj_len - 1; j >= back; j--)
                        hj_swap(w, j);
                    score_moves(w, st, ply, ttm, moves, scores, n);
                    for (int j = back; j < w->hj_len; j++)
                        hj_swap(w, j);
                    hj_close(w);
                    open = 0;
                } else {
                    score_moves(w, st, ply, ttm, moves, scores, n);
                }
            }
            if (li >= n)
                break;
            pick(moves, scores, li, n);
            i = li++;
            m = moves[i];
            sc = scores[i];
            int seen = 0;
            for (int j = 0; j < ndone; j++)
                seen |= done[j] == m;
            if (seen)
                continue;   /* tried before the list was made, at this same place */
        }
        if (first) {
            bestm = m;
            first = 0;
        }
        memcpy(child, st, g->state_size);
        g->play(child, m);
        int s;
        int same = g->to_move(child) == side;   /* the mover moves again */
        if (ply == 0 && sh->noise > 0) {
            /* Weak levels: each root move gets a random bonus below
             * `noise`.  A move can only be chosen if its exact score is
             * above (best so far - noise), so that is its window's floor;
             * below it the bound is enough.  alpha is never raised by a
             * noisy score, and the noisy root is not stored. */
            int lo = best > -AB_INF ? best - sh->noise : -AB_INF;
            if (g->to_move(child) == TAV_NONE)
                s = terminal_score(g, child, side, ply + 1);
            else if (same)
                s = search(w, child, depth - 1, lo, beta, ply + 1);
            else
                s = -search(w, child, depth - 1, -beta, -lo, ply + 1);
            if (atomic_load_explicit(&sh->stop, memory_order_relaxed))
                return 0;
            if (s <= lo)
                continue;
            if (s > -AB_WIN + AB_MAXPLY && s < AB_WIN - AB_MAXPLY)
                s += (int)(tavi_mix64(sh->noise_seed ^ m) % (uint64_t)sh->noise);
            if (s > best) {
                best = s;
                bestm = m;
                w->best = bestm;
                w->best_score = best;
                w->have_best = 1;
            }
            continue;
        }
        if (g->to_move(child) == TAV_NONE) {
            s = terminal_score(g, child, side, ply + 1);
        } else if (same) {
            s = search(w, child, depth - 1, alpha, beta, ply + 1);
        } else if (i == 0) {
            s = -search(w, child, depth - 1, -beta, -alpha, ply + 1);
        } else {
            /* Late move reduction for quiet moves far down the list. */
            int r = (depth >= 3 && i >= 4 && sc < (1 << 19)) ? 1 : 0;
            s = -search(w, child, depth - 1 - r, -alpha - 1, -alpha, ply + 1);
            if (s > alpha && (r || s < beta))
                s = -search(w, child, depth - 1, -beta, -alpha, ply + 1);
        }
        if (atomic_load_explicit(&sh->stop, memory_order_relaxed)) {
            if (open)
                hj_close(w);
            return 0;
        }
        if (s > best) {
            best = s;
            bestm = m;
            if (ply == 0) {
                w->best = bestm;
                w->best_score = best;
                w->have_best = 1;
            }
        }
        if (s > alpha)
            alpha = s;
        if (alpha >= beta) {
            if (sc < (1 << 29) && (!g->move_score || g->move_score(st, m) < TAV_NOISY)) {
                w->killers[ply][1] = w->killers[ply][0];
                w->killers[ply][0] = m;
                history_add(w, m, depth);
            }
            break;
        }
    }
    if (open)
        hj_close(w);
    if (ply == 0 && sh->noise > 0)
        return best;
    int flag = best <= alpha0 ? TT_UPPER : best >= beta ? TT_LOWER : TT_EXACT;
    tt_store(sh, key, bestm, best, depth, flag);
    return best;
}

/* Principal variation from the transposition table. */
static void ab_pv(shared *sh, const void *root, char *buf, size_t n)
{
    const tav_game *g = sh->g;
    unsigned char *st = malloc(g->state_size);
    tav_move *list = malloc(sizeof(tav_move) * (size_t)g->max_moves);
    size_t len = 0;
    buf[0] = '\0';
    if (st && list) {
        memcpy(st, root, g->state_size);
        for (int d = 0; d < 12 && g->to_move(st) != TAV_NONE; d++) {
            tav_move m;
            int s, dd, f;
            if (!tt_probe(sh, g->hash(st), &m, &s, &dd, &f))
                break;
            int nl = g->legal(st, list), ok = 0;
            for (int i = 0; i < nl; i++)
                ok |= list[i] == m;
            if (!ok)
                break;
            char mv[TAV_MOVE_TEXT];
            g->move_str(st, m, mv, sizeof mv);
            len += tavi_bprintf(buf + len, n - len, "%s%s", len ? " " : "", mv);
            g->play(st, m);
        }
    }
    free(st);
    free(list);
}

typedef struct thread_arg {
    worker *w;
    const void *root;
} thread_arg;

static void *ab_thread(void *arg)
{
    thread_arg *ta = arg;
    worker *w = ta->w;
    shared *sh = w->sh;
    int maxd = sh->max_depth > 0 ? sh->max_depth : AB_MAXPLY - 1;
    for (int d = 1 + (w->id & 1); d <= maxd; d++) {
        tav_move prev = w->best;
        int prev_score = w->best_score;
        w->hj_open = 0;
        int s = search(w, ta->root, d, -AB_INF, AB_INF, 0);
        if (atomic_load_explicit(&sh->stop, memory_order_relaxed)) {
            /* An interrupted iteration is trusted only for its first, fully
             * searched move order; keep the last complete answer. */
            if (w->depth_done) {
                w->best = prev;
                w->best_score = prev_score;
            }
            break;
        }
        w->depth_done = d;
        if (w->id == 0 && sh->info) {
            char pv[512], line[700];
            ab_pv(sh, ta->root, pv, sizeof pv);
            snprintf(line, sizeof line, "info depth %d score %d nodes %llu time %.0f pv %s", d, s,
                     (unsigned long long)(atomic_load(&sh->nodes) + (w->nodes - w->reported)),
                     (ab_now() - sh->start) * 1000.0, pv);
            sh->info(sh->ctx, line);
        }
        if (s > AB_WIN - AB_MAXPLY || s < -AB_WIN + AB_MAXPLY)
            break;   /* a forced result is known */
        if (sh->deadline > 0 && ab_now() > sh->start + (sh->deadline - sh->start) * 0.6)
            break;   /* the next iteration would not finish */
    }
    if (w->id == 0)
        atomic_store(&sh->stop, 1);
    return NULL;
}

/* ------------------------------------------------------------------------
 * An alpha-beta search split into jobs (Lazy SMP: job 0 leads, the others
 * help through the shared table).  The table is given by whoever runs job
 * 0 (tavi_ab_set_table); helpers wait for it.
 */
struct tavi_ab {
    shared sh;
    worker ws[TAVI_MAX_JOBS];
    thread_arg ta[TAVI_MAX_JOBS];
    int njobs;
    _Atomic int ready;         /* the table is set */
};

tavi_ab *tavi_ab_new(const tav_game *g, const void *st, const tavi_limits *lim, double start,
                   double deadline, uint64_t max_nodes, int njobs, tav_info_fn info, void *ctx,
                   const _Atomic int *cancel)
{
    tavi_ab *ab = calloc(1, sizeof *ab);
    if (!ab)
        return NULL;
    if (njobs < 1)
        njobs = 1;
    if (njobs > TAVI_MAX_JOBS)
        njobs = TAVI_MAX_JOBS;
    ab->njobs = njobs;
    shared *sh = &ab->sh;
    sh->g = g;
    sh->deadline = deadline;
    sh->max_nodes = max_nodes;
    sh->max_depth = lim->depth;
    sh->info = info;
    sh->ctx = ctx;
    sh->start = start;
    sh->cancel = cancel;
    const tavi_level_row *lv = tavi_level_of(lim->level);
    if (lv && lv->depth && (!sh->max_depth || sh->max_depth > lv->depth))
        sh->max_depth = lv->depth;
    if (deadline == 0 && max_nodes == 0 && sh->max_depth == 0)
        sh->max_depth = 4;   /* no budget given: a small fixed search */
    if (lv && lv->noise > 0) {
        /* Weaker levels: random root preferences worth up to a few pieces. */
        sh->noise = lv->noise;
        sh->noise_seed = tavi_mix64(lim->seed);
    }
    for (int i = 0; i < njobs; i++) {
        ab->ws[i].sh = sh;
        ab->ws[i].id = i;
        ab->ta[i].w = &ab->ws[i];
        ab->ta[i].root = st;
    }
    return ab;
}

size_t tavi_ab_table_bytes(size_t memory)
{
    uint64_t entries = 1;
    while (entries * 2 * sizeof(tt_entry) <= memory)
        entries *= 2;
    return (size_t)entries * sizeof(tt_entry);
}

void tavi_ab_set_table(tavi_ab *ab, void *table, size_t bytes, uint64_t gen)
{
    ab->sh.tt = table;
    ab->sh.tt_mask = bytes / sizeof(tt_entry) - 1;
    ab->sh.salt = gen ? tavi_mix64(gen) : 0;
    atomic_store(&ab->ready, 1);
}

void tavi_ab_stop(tavi_ab *ab) { atomic_store(&ab->sh.stop, 1); }

void tavi_ab_job(tavi_ab *ab, int i)
{
    if (i < 0 || i >= ab->njobs)
        return;
    shared *sh = &ab->sh;
    const tav_game *g = sh->g;
    while (!atomic_load(&ab->ready)) {
        /* A helper started before the leader set the table up. */
        if (atomic_load(&sh->stop) || (sh->cancel && atomic_load(sh->cancel)))
            return;
        struct timespec ts = {0, 100000};
        nanosleep(&ts, NULL);
    }
    if (!sh->tt)
        return;
    worker *w = &ab->ws[i];
    int plies = AB_MAXPLY + QS_MAXPLY + 2;
    w->states = malloc(g->state_size * (size_t)plies);
    w->lists = malloc(sizeof(tav_move) * (size_t)g->max_moves * (size_t)plies);
    w->scores = malloc(sizeof(int) * (size_t)g->max_moves * (size_t)plies);
    w->hj = g->is_legal ? malloc(sizeof(hj_entry) * HJ_CAP) : NULL;
    w->hj_snap = g->is_legal ? malloc(sizeof *w->hj_snap * HJ_SNAPS) : NULL;
    w->evals = calloc(EV_SIZE, sizeof(uint64_t));
    w->hj_open = 0;
    if (w->evals && w->states && w->lists && w->scores && (!g->is_legal || (w->hj && w->hj_snap)))
        ab_thread(&ab->ta[i]);
    else if (i == 0)
        atomic_store(&sh->stop, 1);
    free(w->states);
    free(w->lists);
    free(w->scores);
    free(w->hj);
    free(w->hj_snap);
    free(w->evals);
    w->evals = NULL;
    w->hj = NULL;
    w->hj_snap = NULL;
    w->states = NULL;
    w->lists = NULL;
    w->scores = NULL;
}

int tavi_ab_finish(tavi_ab *ab, tavi_report *out)
{
    int rc = -1;
    worker *w0 = &ab->ws[0];
    if (w0->have_best) {
        out->best = w0->best;
        double v = w0->best_score > AB_WIN - 1000 ? 1.0
                 : w0->best_score < -AB_WIN + 1000 ? 0.0
                 : 0.5 + w0->best_score / 2000.0;
        out->value = v < 0 ? 0 : v > 1 ? 1 : v;
        rc = 0;
    }
    uint64_t total = 0;
    for (int i = 0; i < ab->njobs; i++)
        total += ab->ws[i].nodes;
    out->nodes = total;
    out->depth = w0->depth_done;
    return rc;
}

void tavi_ab_free(tavi_ab *ab) { free(ab); }
