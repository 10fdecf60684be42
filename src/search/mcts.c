/*
 * mcts.c — Monte Carlo tree search over the operations table.
 *
 * Tree layout.  Nodes live in one array allocated per search (the memory
 * budget fixes its length; the tree never grows past it: when it is full,
 * iterations go on without expanding, which only refines statistics).  A
 * node stores the move that led to it, the player who made that move, its
 * first child and next sibling (children form a linked list, created one at
 * a time), visit count and summed reward for that player (1 win, 0.5 draw,
 * 0 loss).  Positions are not stored: each iteration replays moves from a
 * copy of the root (copy-make), so a node costs 32 bytes.
 *
 * Children are created lazily in a pseudo-random order of the legal list.
 * Plain UCT creates every child before reusing any (classic "try each move
 * once"); the `ai` player widens progressively: a node with v visits may
 * have at most 1 + pw_k * v^pw_alpha children, so Urbino's thousands of moves
 * do not drown the search.  With a profile's order_root the root's children
 * come best-first by move_score instead (one sort at the start), and with
 * order_root 2 the first REPLY_K children of each root child with more than
 * 2 * REPLY_K moves too (the best replies, picked from its list at its first
 * expansion), then the rest in the pseudo-random order; a deeper node with
 * more than 2 * REPLY_K moves is ordered the same way once it has
 * ORDER_DEEP visits (its first few children came in the pseudo-random
 * order; the best moves not among them come next).  (With fewer moves
 * widening soon tries them all, and move_score, blind to captures, would
 * put an endgame's capturing reply last.)
 *
 * Playouts are uniformly random to the end of the game.  Time is checked
 * after every iteration, so a search stops within one iteration of its
 * budget.
 *
 * Hidden information: the root is masked for the player to act; each of
 * `ndet` sampled determinizations gets its own tree and an equal share of the
 * budget, and root statistics are summed by move (perfect-information Monte
 * Carlo over the information set).  Root moves are the same in every
 * determinization because the root's legal moves depend only on what the
 * player sees.
 */
#include <math.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/base.h"
#include "search/search_internal.h"

#define MAX_PLAYOUT 100000
#define INFO_EVERY 0.5   /* seconds between info lines */

typedef struct mnode {
    tav_move move;
    int32_t child;
    int32_t sibling;
    int32_t nlegal;       /* -1 until first expanded; information-set trees:
                             how often this node was available (selectable) */
    uint32_t visits;
    uint32_t ntried;      /* children created */
    float reward;         /* summed reward for `mover` */
    int8_t mover;
    uint8_t salt[3];      /* 0, or 1 + the creation-order salt modulo nlegal of
                             a node moved by a re-root (see perm_salt) */
} mnode;

typedef struct params {
    double c;             /* UCB exploration constant */
    double pw_k, pw_alpha; /* progressive widening; pw_k = 0: full expansion */
    int cutoff;           /* playout plies before eval (0: to the end) */
    int smart;            /* use the game's playout policy and eval */
    int infoset;          /* one tree over the information set (hidden games) */
    double mast;          /* move-average sampling: uniform-move probability (0: off) */
    double margin, margin_scale;   /* score margin in finished playouts' rewards */
    int mast_context;     /* move averages per (move, game's move_context) */
    double (*eval)(const void *st, int side);   /* the game's eval, or eval_full */
    const tav_move *root_order;    /* root moves best first (NULL: pseudo-random) */
    int nroot_order;
    int order_replies;    /* with a root order: the root's children widen their first
                             REPLY_K children best-first by move_score too */
} params;

typedef struct tree {
    const tav_game *g;
    mnode *nodes;
    int32_t count, cap;
    params p;
    tav_rng rng;
    tav_move *list;       /* scratch move list (max_moves) */
    unsigned char *st;    /* scratch state */
    uint64_t playouts;
    int viewer;           /* information-set trees: the player at the root */
    uint64_t *set;        /* information-set trees: hash set of legal moves */
    uint32_t set_mask;
    uint64_t set_gen;     /* generation of the set's live slots (bits 33..63) */
    /* Move-average sampling: average reward of each (move, mover) over all
     * iterations so far, in an open-addressing table that stops taking new
     * keys when 3/4 full; the moves of the current iteration for its update. */
    struct mast_entry { uint32_t key, count; float sum, pad; } *mast;
    uint32_t mast_mask, mast_used;
    uint32_t *trail;      /* key of each move played this iteration */
    int ntrail;
    const _Atomic int *cancel;   /* read every playout ply: a cancel ends a long playout */
    int reused;           /* the root came from an earlier search's tree */
    int root_cursor;      /* reused root: next root_order entry to look at */
    /* Ordered replies (params.order_replies): for each child of the root,
     * its REPLY_K best moves by move_score, in a slot of `rep_pool`, found
     * through an open-addressing table from node index to slot. */
    int32_t *rep_key;     /* node index + 1, 0 = free */
    int32_t *rep_slot;
    tav_move *rep_pool;   /* REPLY_K moves a slot */
    uint8_t *rep_n;       /* moves in each slot */
    int32_t rep_used;
} tree;

#define REPLY_K 32
#define REPLY_SLOTS 16384 /* table size; at most REPLY_SLOTS / 2 slots used */
#ifndef ORDER_DEEP
#define ORDER_DEEP 16     /* deeper nodes are ordered from this many visits (0: never) */
#endif
static const uint32_t order_deep = ORDER_DEEP;

#define MAST_SIZE (1u << 16)
#ifndef MAST_EXPAND
#define MAST_EXPAND 0     /* 1: information-set trees create children best-first by move
                             average (measured for Toscana, results/toscana.md: not kept) */
#endif
#define TRAIL_MAX 1024

#ifndef MAST_CONTEXT
#define MAST_CONTEXT 1    /* 1: the full player (not levels 1-9, which keep the search they
                             were rated with) keeps a move's average per context, the
                             game's move_context (Toscana: the tile being placed): it
                             made Toscana's full player stronger (measured:
                             results/toscana.md, "Move averages per tile").
                             0: one average per (move, mover), as before stop 21 */
#endif

/* The key of a move in the averages: the move, its context (0 when the game
 * has none) and its mover. */
static uint32_t mast_key(tav_move m, uint32_t ctx, int mover)
{
    return (uint32_t)((m ^ ctx << 20) * 2u + (uint32_t)(mover & 1) + 1u);
}

/* The context of the moves of state st (0: none, or switched off). */
static uint32_t mast_context(const tree *t, const void *st)
{
    return t->p.mast_context ? t->g->move_context(st) : 0;
}

static struct mast_entry *mast_find(tree *t, uint32_t key, int insert)
{
    uint32_t h = (key * 2654435761u) & t->mast_mask;
    while (t->mast[h].key) {
        if (t->mast[h].key == key)
            return &t->mast[h];
        h = (h + 1) & t->mast_mask;
    }
    if (!insert || t->mast_used >= (t->mast_mask + 1) / 4 * 3)
        return NULL;
    t->mast_used++;
    t->mast[h].key = key;
    return &t->mast[h];
}

/* Remember a move of this iteration for the update. */
static void trail_add(tree *t, tav_move m, uint32_t ctx, int mover)
{
    if (t->mast && t->ntrail < TRAIL_MAX)
        t->trail[t->ntrail++] = mast_key(m, ctx, mover);
}

/* After an iteration: add its rewards to the averages of its moves. */
static void mast_update(tree *t, const float rw[2])
{
    for (int i = 0; i < t->ntrail; i++) {
        struct mast_entry *e = mast_find(t, t->trail[i], 1);
        if (e) {
            e->count++;
            e->sum += rw[(t->trail[i] - 1) & 1];
        }
    }
    t->ntrail = 0;
}

/* The playout move under move-average sampling. */
static tav_move mast_pick(tree *t, const tav_move *list, int n, uint32_t ctx, int mover)
{
    uint32_t r = tav_rng_below(&t->rng, 1u << 20);
    if (r < (uint32_t)(t->p.mast * (1 << 20)))
        return list[tav_rng_below(&t->rng, (uint32_t)n)];
    int best = (int)tav_rng_below(&t->rng, (uint32_t)n);
    float bestq = -1;
    for (int i = 0; i < n; i++) {
        int k = (best + i) % n;
        const struct mast_entry *e = mast_find(t, mast_key(list[k], ctx, mover), 0);
        float q = e && e->count ? e->sum / (float)e->count : 0.5f;
        if (q > bestq) {
            bestq = q;
            best = k;
        }
    }
    return list[best];
}

typedef struct job {
    const tav_game *g;
    const unsigned char *root;    /* masked root (or the real one) */
    int hidden;                   /* determinize per tree */
    int viewer;
    params p;
    size_t memory;
    uint64_t max_playouts;        /* 0 = none */
    double deadline;              /* monotonic seconds; 0 = none */
    uint64_t seed;
    int ndet;                     /* determinizations this job runs */
    mnode *tree_mem;              /* the tree's node array (memory bytes) */
    /* results: root statistics summed over this job's trees */
    tav_move *moves;
    uint32_t *visits;
    double *reward;
    tav_move *reply;              /* the most visited reply to each root move (one tree) */
    uint32_t *reply_visits;       /*   and its visits (0: none) */
    tav_move *line;               /* TAV_PV_MAX - 1 moves a root move: the reply and the
                                     most visited path below it, in the reply's tree */
    uint8_t *line_len;
    int nroot;
    uint64_t playouts, nodes;
    tav_info_fn info;
    void *ctx;
    int report;                   /* this job prints info lines */
    double start;
    const _Atomic int *cancel;    /* set from any thread: stop now (NULL: none) */
    const unsigned char *real;    /* the position as given (unmasked): where reuse looks */
    tavi_tree_kept *kept;         /* the block's kept tree (NULL: start empty, keep nothing) */
    uint64_t reused;              /* playouts the reused subtree held */
    int nomem;                    /* no memory for its tree (or its scratch): it did nothing */
} job;

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Create a node; returns its index or -1 when the tree is full. */
static int32_t node_new(tree *t, tav_move m, int mover)
{
    if (t->count >= t->cap)
        return -1;
    mnode *n = &t->nodes[t->count];
    memset(n, 0, sizeof *n);
    n->move = m;
    n->child = -1;
    n->sibling = -1;
    n->nlegal = -1;
    n->mover = (int8_t)mover;
    return t->count++;
}

/* Reward of a finished game for `side`. */
static float reward_for(const tav_result *r, int side)
{
    if (r->winner == TAV_DRAW || r->winner == TAV_NONE)
        return 0.5f;
    return r->winner == side ? 1.0f : 0.0f;
}

/* Play out the game from t->st: uniformly random moves (plain UCT) or the
 * game's policy; with a cutoff, eval() decides after that many plies.
 * Sets rw[] to each side's reward in [0, 1]. */
static void playout(tree *t, float rw[2])
{
    const tav_game *g = t->g;
    int smart = t->p.smart;
    int limit = smart && t->p.cutoff > 0 && t->p.eval ? t->p.cutoff : MAX_PLAYOUT;
    int ply;
    for (ply = 0; ply < limit; ply++) {
        tav_move m;
        if (t->cancel && atomic_load_explicit(t->cancel, memory_order_relaxed))
            break;   /* the answer will not be used */
        if (t->mast) {
            int n = g->legal(t->st, t->list);
            if (n == 0)
                break;
            int mover = g->to_move(t->st);
            uint32_t ctx = mast_context(t, t->st);
            m = mast_pick(t, t->list, n, ctx, mover);
            trail_add(t, m, ctx, mover);
        } else if (smart && g->playout_move) {
            if (!g->playout_move(t->st, &t->rng, t->list, &m))
                break;
        } else if (g->random_move) {
            /* the move the list and tav_rng_below would give, not listed */
            if (g->random_move(t->st, &t->rng, &m) == 0)
                break;
        } else {
            int n = g->legal(t->st, t->list);
            if (n == 0)
                break;
            m = t->list[tav_rng_below(&t->rng, (uint32_t)n)];
        }
        g->play(t->st, m);
    }
    tav_result r;
    g->result(t->st, &r);
    if (!r.over && ply >= limit) {
        double v = t->p.eval(t->st, TAV_WHITE);
        rw[TAV_WHITE] = (float)v;
        rw[TAV_BLACK] = (float)(1.0 - v);
        return;
    }
    rw[TAV_WHITE] = reward_for(&r, TAV_WHITE);
    rw[TAV_BLACK] = reward_for(&r, TAV_BLACK);
    if (t->p.margin > 0 && r.over) {
        double d = tanh((double)(r.score[TAV_WHITE] - r.score[TAV_BLACK]) / t->p.margin_scale);
        float mw = (float)(0.5 + 0.5 * d);
        float m = (float)t->p.margin;
        rw[TAV_WHITE] = (1 - m) * rw[TAV_WHITE] + m * mw;
        rw[TAV_BLACK] = (1 - m) * rw[TAV_BLACK] + m * (1 - mw);
    }
}

/* The i-th child in this node's creation order: a permutation of the legal
 * list, a + i*b mod n with b coprime to n. */
static int perm_index(uint32_t salt, int i, int n)
{
    static const uint32_t strides[] = {7919, 104729, 1299709, 15485863, 179424673};
    uint32_t b = 1;
    for (size_t k = 0; k < sizeof strides / sizeof strides[0]; k++) {
        if ((uint32_t)n % strides[k] != 0) {
            b = strides[k];
            break;
        }
    }
    return (int)(((uint64_t)salt + (uint64_t)i * b) % (uint64_t)n);
}

/* The salt of a node's creation order: its index, unless a re-root moved
 * it (then the salt of its first index was kept in the node). */
static uint32_t perm_salt(const mnode *n, int32_t cur)
{
    uint32_t kept = (uint32_t)n->salt[0] | (uint32_t)n->salt[1] << 8 | (uint32_t)n->salt[2] << 16;
    return kept ? kept - 1 : (uint32_t)(cur * 2654435761u);
}

/* A reused root widened best-first: the next move of the root order that
 * is not a child yet (the children came in another order when it was not
 * the root).  0 with *found 0 when every ordered move is a child. */
static tav_move next_root_move(tree *t, int *found)
{
    *found = 0;
    while (t->root_cursor < t->p.nroot_order) {
        tav_move m = t->p.root_order[t->root_cursor++];
        int32_t c = t->nodes[0].child;
        while (c >= 0 && t->nodes[c].move != m)
            c = t->nodes[c].sibling;
        if (c < 0) {
            *found = 1;
            return m;
        }
    }
    return 0;
}

/* How many children a node with v visits may have. */
static uint32_t widen_limit(const params *p, uint32_t v, int32_t nlegal)
{
    if (p->pw_k <= 0)
        return (uint32_t)nlegal;
    double k = 1.0 + p->pw_k * pow((double)v + 1.0, p->pw_alpha);
    return k >= nlegal ? (uint32_t)nlegal : (uint32_t)k;
}

/* The end of an iteration: play out from t->st, then add the rewards to
 * every node on the path (and to the move averages). */
static void simulate_and_backup(tree *t, const int32_t *path, const uint32_t *ctx, int depth)
{
    float rw[2];
    if (t->mast)
        for (int i = 1; i < depth; i++)
            trail_add(t, t->nodes[path[i]].move, ctx[i], t->nodes[path[i]].mover);
    playout(t, rw);
    if (t->mast)
        mast_update(t, rw);
    t->playouts++;
    for (int i = 0; i < depth; i++) {
        mnode *n = &t->nodes[path[i]];
        n->visits++;
        if (i > 0 && n->mover >= 0 && n->mover <= 1)
            n->reward += rw[n->mover];
    }
}

/* Ordered replies: the slot of node `cur` (a child of the root), made on
 * its first expansion from its legal list `list` (cnt moves): the REPLY_K
 * best by move_score, ties in an order drawn from the tree's random
 * generator (one draw a node).  -1 when the table is full (the node then
 * widens pseudo-randomly). */
static int32_t reply_slot(tree *t, int32_t cur, const unsigned char *st, const tav_move *list, int cnt)
{
    uint32_t h = (uint32_t)cur * 2654435761u & (REPLY_SLOTS - 1);
    while (t->rep_key[h]) {
        if (t->rep_key[h] == cur + 1)
            return t->rep_slot[h];
        h = (h + 1) & (REPLY_SLOTS - 1);
    }
    if (t->rep_used >= REPLY_SLOTS / 2)
        return -1;
    int32_t slot = t->rep_used++;
    t->rep_key[h] = cur + 1;
    t->rep_slot[h] = slot;
    tav_move *best = t->rep_pool + (size_t)slot * REPLY_K;
    int64_t key[REPLY_K];
    int nb = 0;
    uint64_t salt = tav_rng_next(&t->rng);
    for (int i = 0; i < cnt; i++) {
        int64_t k = (int64_t)t->g->move_score(st, list[i]) * 65536 +
                    (int64_t)(tavi_mix64(salt ^ list[i]) & 0xffff);
        if (nb == REPLY_K && k <= key[nb - 1])
            continue;
        int j = nb < REPLY_K ? nb++ : nb - 1;
        while (j > 0 && key[j - 1] < k) {
            key[j] = key[j - 1];
            best[j] = best[j - 1];
            j--;
        }
        key[j] = k;
        best[j] = list[i];
    }
    t->rep_n[slot] = (uint8_t)nb;
    return slot;
}

/* Whether m is among the ordered moves of a slot. */
static int reply_has(const tree *t, int32_t slot, tav_move m)
{
    const tav_move *b = t->rep_pool + (size_t)slot * REPLY_K;
    for (int i = 0; i < t->rep_n[slot]; i++)
        if (b[i] == m)
            return 1;
    return 0;
}

/* Whether m is already a child of node cur. */
static int is_child(const tree *t, int32_t cur, tav_move m)
{
    for (int32_t c = t->nodes[cur].child; c >= 0; c = t->nodes[c].sibling)
        if (t->nodes[c].move == m)
            return 1;
    return 0;
}

/* The next child of an ordered node: the best ordered move that is not a
 * child yet, then the node's pseudo-random creation order, skipping the
 * ordered moves and the children it has.  A child of the root is ordered
 * at its first expansion, so its first REPLY_K children are the ordered
 * moves; a deeper node is ordered once it has ORDER_DEEP visits, after some
 * children came in the pseudo-random order. */
static tav_move ordered_next(tree *t, int32_t cur, int32_t slot, int cnt)
{
    const tav_move *b = t->rep_pool + (size_t)slot * REPLY_K;
    for (int i = 0; i < t->rep_n[slot]; i++)
        if (!is_child(t, cur, b[i]))
            return b[i];
    uint32_t salt = perm_salt(&t->nodes[cur], cur);
    for (int j = 0; j < cnt; j++) {
        tav_move c = t->list[perm_index(salt, j, cnt)];
        if (!reply_has(t, slot, c) && !is_child(t, cur, c))
            return c;
    }
    return t->list[perm_index(salt, (int)t->nodes[cur].ntried, cnt)];
}

/* One iteration: select, expand one child, play out, back up. */
static void iterate(tree *t, const unsigned char *root)
{
    const tav_game *g = t->g;
    int32_t path[1024];
    uint32_t pctx[1024];  /* the move context of each path node's move */
    int depth = 0;
    memcpy(t->st, root, g->state_size);
    int32_t cur = 0;
    path[depth++] = cur;
    for (;;) {
        mnode *n = &t->nodes[cur];
        int listed = 0;   /* t->list holds this node's legal moves */
        if (n->nlegal < 0) {
            n->nlegal = g->legal(t->st, t->list);
            listed = 1;
        }
        if (n->nlegal == 0)
            break;   /* terminal */
        int mover = g->to_move(t->st);
        uint32_t ctx = mast_context(t, t->st);
        /* A reused root widened best-first: the first `limit` moves of the
         * root order are to be children, as at a fresh root, whatever
         * children it already had (made in another order below the old
         * root). */
        uint32_t have = n->ntried;
        if (cur == 0 && t->reused && t->p.root_order)
            have = n->ntried < (uint32_t)n->nlegal ? (uint32_t)t->root_cursor : (uint32_t)n->nlegal;
        if (have < widen_limit(&t->p, n->visits, n->nlegal)) {
            int cnt = listed ? n->nlegal : g->legal(t->st, t->list);
            if (cnt != n->nlegal)   /* cannot happen for a consistent game */
                n->nlegal = cnt;
            tav_move m = 0;
            int ordered = 0;
            if (cur == 0 && t->p.root_order && t->reused) {
                m = next_root_move(t, &ordered);
            } else if (cur == 0 && t->p.root_order && (int)n->ntried < t->p.nroot_order) {
                m = t->p.root_order[n->ntried];
                ordered = 1;
            }
            if (!ordered && depth >= 2 && t->p.order_replies && !t->reused && cnt > 2 * REPLY_K &&
                (depth == 2 || (order_deep && n->visits >= order_deep))) {
                int32_t slot = reply_slot(t, cur, t->st, t->list, cnt);
                if (slot >= 0) {
                    m = ordered_next(t, cur, slot, cnt);
                    ordered = 1;
                }
            }
            if (!ordered)
                m = t->list[perm_index(perm_salt(n, cur), (int)n->ntried, cnt)];
            int32_t c = node_new(t, m, mover);
            if (c >= 0) {
                n = &t->nodes[cur];   /* (array is not reallocated; kept for clarity) */
                t->nodes[c].sibling = n->child;
                n->child = c;
                n->ntried++;
                g->play(t->st, m);
                if (depth < 1024) {
                    pctx[depth] = ctx;
                    path[depth++] = c;
                }
                break;
            }
            /* Tree full: fall through to selection among existing children. */
            if (n->child < 0) {
                g->play(t->st, m);
                break;
            }
        }
        /* UCB1 selection among the created children. */
        double logv = log((double)n->visits + 1.0);
        int32_t best = -1;
        double bestv = -1e300;
        for (int32_t c = n->child; c >= 0; c = t->nodes[c].sibling) {
            const mnode *ch = &t->nodes[c];
            double v = ch->visits ? ch->reward / ch->visits + t->p.c * sqrt(logv / ch->visits) : 1e9;
            if (v > bestv) {
                bestv = v;
                best = c;
            }
        }
        g->play(t->st, t->nodes[best].move);
        cur = best;
        if (depth < 1024) {
            pctx[depth] = ctx;
            path[depth++] = cur;
        } else {
            break;
        }
    }
    simulate_and_backup(t, path, pctx, depth);
}

/* Information-set trees (single-observer ISMCTS).  The tree is keyed by
 * move sequences from the masked root; every iteration deals a fresh
 * determinization of the hidden information and walks the tree with it.  A
 * child is available when its move is legal in this deal; UCB then uses the
 * number of times the child was available instead of the parent's visits.
 * One tree gets the whole budget, so it sees many more playouts per root move
 * than a set of small per-deal trees, and chance below the root is sampled
 * afresh each time instead of being fixed per tree.
 *
 * The set holds each legal move once: key move+1 in bits 0..31, a "has a
 * child" flag in bit 32, and the generation of the build in bits 33..63; a
 * slot of an older generation is empty, so a build costs the moves it
 * inserts, not a clear of the whole table. */
#define SET_GEN_SHIFT 33

static int set_live(const tree *t, uint32_t h) { return (t->set[h] >> SET_GEN_SHIFT) == t->set_gen; }

static void set_build(tree *t, const tav_move *list, int n)
{
    if (++t->set_gen >= (1ull << (64 - SET_GEN_SHIFT))) {
        memset(t->set, 0, sizeof(uint64_t) * ((size_t)t->set_mask + 1));
        t->set_gen = 1;
    }
    for (int i = 0; i < n; i++) {
        uint64_t key = (uint64_t)list[i] + 1;
        uint32_t h = (uint32_t)(list[i] * 2654435761u) & t->set_mask;
        while (set_live(t, h) && (t->set[h] & 0xffffffffu) != key)
            h = (h + 1) & t->set_mask;
        t->set[h] = key | t->set_gen << SET_GEN_SHIFT;
    }
}

/* Find a move in the set: its slot, or -1 when it is not legal. */
static int64_t set_find(const tree *t, tav_move m)
{
    uint64_t key = (uint64_t)m + 1;
    uint32_t h = (uint32_t)(m * 2654435761u) & t->set_mask;
    while (set_live(t, h)) {
        if ((t->set[h] & 0xffffffffu) == key)
            return h;
        h = (h + 1) & t->set_mask;
    }
    return -1;
}

static void iterate_is(tree *t, const unsigned char *root)
{
    const tav_game *g = t->g;
    int32_t path[1024];
    uint32_t pctx[1024];  /* the move context of each path node's move */
    int depth = 0;
    memcpy(t->st, root, g->state_size);
    g->determinize(t->st, t->viewer, &t->rng);
    int32_t cur = 0;
    path[depth++] = cur;
    for (;;) {
        mnode *n = &t->nodes[cur];
        int cnt = g->legal(t->st, t->list);
        if (cnt == 0)
            break;   /* terminal */
        int mover = g->to_move(t->st);
        uint32_t ctx = mast_context(t, t->st);
        set_build(t, t->list, cnt);
        /* Mark the children legal in this deal and count them. */
        int navail = 0;
        for (int32_t c = n->child; c >= 0; c = t->nodes[c].sibling) {
            int64_t h = set_find(t, t->nodes[c].move);
            if (h >= 0) {
                t->set[h] |= 1ull << 32;
                t->nodes[c].nlegal++;
                navail++;
            }
        }
        if (navail < cnt && n->ntried < widen_limit(&t->p, n->visits, cnt)) {
            /* Expand an untried legal move, scanning from a random offset. */
            int start = (int)tav_rng_below(&t->rng, (uint32_t)cnt);
            tav_move m = 0;
            float bestq = -1;
            for (int i = 0; i < cnt; i++) {
                tav_move x = t->list[(start + i) % cnt];
                if (!(t->set[set_find(t, x)] & 1ull << 32)) {
                    if (!MAST_EXPAND || !t->mast) {
                        m = x;
                        break;
                    }
                    const struct mast_entry *e = mast_find(t, mast_key(x, ctx, mover), 0);
                    float q = e && e->count ? e->sum / (float)e->count : 0.5f;
                    if (q > bestq) {
                        bestq = q;
                        m = x;
                    }
                }
            }
            int32_t c = node_new(t, m, mover);
            if (c >= 0) {
                n = &t->nodes[cur];
                t->nodes[c].sibling = n->child;
                t->nodes[c].nlegal = 1;
                n->child = c;
                n->ntried++;
                g->play(t->st, m);
                if (depth < 1024) {
                    pctx[depth] = ctx;
                    path[depth++] = c;
                }
                break;
            }
            if (navail == 0) {   /* tree full, nothing to select */
                g->play(t->st, m);
                break;
            }
        } else if (navail == 0) {
            /* Widening forbids a new child and none is legal in this deal. */
            g->play(t->st, t->list[tav_rng_below(&t->rng, (uint32_t)cnt)]);
            break;
        }
        /* UCB1 among the available children, by availability counts. */
        int32_t best = -1;
        double bestv = -1e300;
        for (int32_t c = n->child; c >= 0; c = t->nodes[c].sibling) {
            const mnode *ch = &t->nodes[c];
            int64_t h = set_find(t, ch->move);
            if (h < 0)
                continue;
            double v = ch->visits ? ch->reward / ch->visits +
                                        t->p.c * sqrt(log((double)ch->nlegal) / ch->visits)
                                  : 1e9;
            if (v > bestv) {
                bestv = v;
                best = c;
            }
        }
        g->play(t->st, t->nodes[best].move);
        cur = best;
        if (depth < 1024) {
            pctx[depth] = ctx;
            path[depth++] = cur;
        } else {
            break;
        }
    }
    simulate_and_backup(t, path, pctx, depth);
}

/* The next node of the line a tree expects after node `cur`: its most
 * visited child (the first created on a tie), -1 when it has none with 2
 * visits. */
static int32_t line_next(const tree *t, int32_t cur)
{
    int32_t best = -1;
    for (int32_t c = t->nodes[cur].child; c >= 0; c = t->nodes[c].sibling)
        if (best < 0 || t->nodes[c].visits > t->nodes[best].visits)
            best = c;
    return best >= 0 && t->nodes[best].visits >= 2 ? best : -1;
}

/* Principal variation text from a tree's root, most-visited children. */
static void pv_text(const tree *t, const unsigned char *root, char *buf, size_t n)
{
    const tav_game *g = t->g;
    unsigned char *st = malloc(g->state_size);
    size_t len = 0;
    buf[0] = '\0';
    if (!st)
        return;
    memcpy(st, root, g->state_size);
    tav_move *list = NULL;
    if (t->p.infoset) {
        /* The root is masked: show the line in one fixed deal, and stop at
         * the first move that deal does not allow. */
        tav_rng rng;
        tav_rng_seed(&rng, 1);
        g->determinize(st, t->viewer, &rng);
        list = malloc(sizeof(tav_move) * (size_t)g->max_moves);
        if (!list) {
            free(st);
            return;
        }
    }
    int32_t cur = 0;
    for (int d = 0; d < 8; d++) {
        int32_t best = line_next(t, cur);
        if (best < 0)
            break;
        if (list) {
            int cnt = g->legal(st, list), k;
            for (k = 0; k < cnt && list[k] != t->nodes[best].move; k++)
                ;
            if (k == cnt)
                break;
        }
        char mv[TAV_MOVE_TEXT];
        g->move_str(st, t->nodes[best].move, mv, sizeof mv);
        len += tavi_bprintf(buf + len, n - len, "%s%s", len ? " " : "", mv);
        g->play(st, t->nodes[best].move);
        cur = best;
    }
    free(list);
    free(st);
}

/* ------------------------------------------------------------------------
 * Tree reuse (budget.keep).  A worker's block keeps the tree of its last
 * search of a line of play, with the position that search started from.
 * The next search of the line looks for its own position below that root:
 * it replays the tree's moves from the old position, depth by depth (the
 * new root is usually two plies below: our move and the reply), comparing
 * the hash with the new position's.  The real (unmasked) positions are
 * compared: the moves between them are public, and a hidden-information
 * tree's moves are checked for legality before they are replayed.  Found:
 * the subtree is moved to the front of the block and becomes the tree. */

#define FIND_DEPTH 4          /* plies below the old root looked at */
#define FIND_PLAYS 4000       /* moves replayed at most while looking (and at most the
                                 tree's node count): a reply the tree never explored
                                 must not eat a short move's time */

typedef struct finder {
    const tav_game *g;
    const mnode *nodes;
    const unsigned char *target;
    uint64_t target_hash;
    int check_legal;
    unsigned char *st;        /* FIND_DEPTH + 1 states */
    tav_move *list;
    long plays, max_plays;
} finder;

/* The same position: by hash (a state's padding bytes need not agree,
 * so memcmp could miss it), or by bytes for a game without one. */
static int same_position(const tav_game *g, const unsigned char *st, const unsigned char *target,
                         uint64_t target_hash)
{
    if (g->hash)
        return g->hash(st) == target_hash;
    return memcmp(st, target, g->state_size) == 0;
}

/* Depth-first below node `cur` (its state at level d): a node exactly
 * `want` plies below the old root whose position is the target; -1. */
static int32_t find_at(finder *f, int32_t cur, int d, int want)
{
    const tav_game *g = f->g;
    const unsigned char *st = f->st + (size_t)d * g->state_size;
    if (d == want)
        return same_position(g, st, f->target, f->target_hash) ? cur : -1;
    int n = -1;
    if (f->check_legal) {
        if (f->nodes[cur].child < 0)
            return -1;
        n = g->legal(st, f->list);
    }
    unsigned char *next = f->st + (size_t)(d + 1) * g->state_size;
    /* The most visited child first (usually the move the last search
     * chose, or the reply it expected), then the others. */
    int32_t top = -1;
    for (int32_t c = f->nodes[cur].child; c >= 0; c = f->nodes[c].sibling)
        if (top < 0 || f->nodes[c].visits > f->nodes[top].visits)
            top = c;
    for (int32_t k = -1, c = top; c >= 0; c = (k = k < 0 ? f->nodes[cur].child : f->nodes[k].sibling)) {
        if (k >= 0 && c == top)
            continue;   /* done first */
        if (f->nodes[c].visits == 0)
            continue;
        if (f->check_legal) {
            int i = 0;
            while (i < n && f->list[i] != f->nodes[c].move)
                i++;
            if (i == n)
                continue;   /* another deal's move */
        }
        if (++f->plays > f->max_plays)
            return -1;
        memcpy(next, st, g->state_size);
        g->play(next, f->nodes[c].move);
        int32_t r = find_at(f, c, d + 1, want);
        if (r >= 0)
            return r;
        if (f->check_legal)   /* the list was overwritten below */
            n = g->legal(st, f->list);
    }
    return -1;
}

/* The node of `target` in the tree of `count` nodes searched from `old`;
 * -1 when it is not there (or no memory to look). */
static int32_t find_root(const tav_game *g, const mnode *nodes, int32_t count, const unsigned char *old,
                         const unsigned char *target, int hidden)
{
    if (count < 1)
        return -1;
    /* A hidden-information tree holds what its viewer knows: never another
     * viewer's (a line of play is one player; this keeps it so). */
    if (hidden && g->to_move(old) != g->to_move(target))
        return -1;
    uint64_t th = g->hash ? g->hash(target) : 0;
    if (same_position(g, old, target, th))
        return 0;
    finder f;
    memset(&f, 0, sizeof f);
    f.g = g;
    f.nodes = nodes;
    f.target = target;
    f.target_hash = th;
    f.check_legal = hidden;
    f.max_plays = count + 64 < FIND_PLAYS ? count + 64 : FIND_PLAYS;
    f.st = malloc(g->state_size * (FIND_DEPTH + 1));
    f.list = hidden ? malloc(sizeof(tav_move) * (size_t)g->max_moves) : NULL;
    int32_t r = -1;
    if (f.st && (!hidden || f.list)) {
        memcpy(f.st, old, g->state_size);
        for (int want = 1; want <= FIND_DEPTH && r < 0 && f.plays <= f.max_plays; want++)
            r = find_at(&f, 0, 0, want);
    }
    free(f.st);
    free(f.list);
    return r;
}

/* Make node `root` the root: its subtree moves to the front of the array
 * (in index order, so no node lands on one not yet moved), everything else
 * is dropped.  Returns the new node count, or -1 (no memory; the tree is
 * untouched). */
static int32_t reroot(mnode *nodes, int32_t count, int32_t root, int keep_salt)
{
    if (root == 0)
        return count;
    int32_t *map = malloc(sizeof(int32_t) * (size_t)(count - root));
    if (!map)
        return -1;
    /* Mark: a child always has a larger index than its parent. */
    for (int32_t i = 0; i < count - root; i++)
        map[i] = -1;
    map[0] = 0;
    for (int32_t i = root; i < count; i++) {
        if (map[i - root] < 0)
            continue;
        for (int32_t c = nodes[i].child; c >= 0; c = nodes[c].sibling)
            map[c - root] = 0;
    }
    int32_t n = 0;
    for (int32_t i = root; i < count; i++)
        if (map[i - root] >= 0)
            map[i - root] = n++;
    for (int32_t i = root; i < count; i++) {
        int32_t k = map[i - root];
        if (k < 0)
            continue;
        mnode nd = nodes[i];
        if (keep_salt && nd.nlegal > 0 && !nd.salt[0] && !nd.salt[1] && !nd.salt[2]) {
            uint32_t s = (uint32_t)(i * 2654435761u) % (uint32_t)nd.nlegal + 1;
            nd.salt[0] = (uint8_t)s;
            nd.salt[1] = (uint8_t)(s >> 8);
            nd.salt[2] = (uint8_t)(s >> 16);
        }
        nd.child = nd.child >= 0 ? map[nd.child - root] : -1;
        nd.sibling = nd.sibling >= 0 && k > 0 ? map[nd.sibling - root] : -1;
        nodes[k] = nd;
    }
    nodes[0].move = 0;
    nodes[0].mover = TAV_NONE;
    nodes[0].reward = 0;
    free(map);
    return n;
}

/* A root widened best-first keeps, of the children the found node had,
 * only those among the first moves of its order that its visits allow: the
 * others were made in a pseudo-random order below the old root, and their
 * statistics would draw the search away from the ordered moves (kept, they
 * cost Cathedral's ai more than the reuse gave; measured:
 * results/search-service.md).  Their visits leave the node's count; their
 * subtrees are dropped by the re-root. */
static void prune_unordered(tree *t, int32_t node)
{
    mnode *r = &t->nodes[node];
    if (r->nlegal <= 0)
        return;
    uint32_t lim = widen_limit(&t->p, r->visits, r->nlegal);
    int32_t prev = -1;
    for (int32_t c = r->child; c >= 0;) {
        int32_t next = t->nodes[c].sibling;
        int keep = 0;
        for (uint32_t k = 0; k < lim && (int)k < t->p.nroot_order && !keep; k++)
            keep = t->p.root_order[k] == t->nodes[c].move;
        if (keep) {
            prev = c;
        } else {
            if (prev < 0)
                r->child = next;
            else
                t->nodes[prev].sibling = next;
            r->ntried--;
            r->visits -= t->nodes[c].visits;
        }
        c = next;
    }
}

/* Add a tree's root statistics to the job's totals. */
static void merge_root(job *jb, const tree *t)
{
    for (int32_t c = t->nodes[0].child; c >= 0; c = t->nodes[c].sibling) {
        const mnode *ch = &t->nodes[c];
        int k;
        for (k = 0; k < jb->nroot; k++)
            if (jb->moves[k] == ch->move)
                break;
        if (k == jb->nroot) {
            if (jb->nroot >= jb->g->max_moves)
                continue;
            jb->moves[k] = ch->move;
            jb->visits[k] = 0;
            jb->reward[k] = 0;
            jb->reply_visits[k] = 0;
            jb->nroot++;
        }
        jb->visits[k] += ch->visits;
        for (int32_t r = ch->child; r >= 0; r = t->nodes[r].sibling)
            if (t->nodes[r].visits > jb->reply_visits[k]) {
                jb->reply_visits[k] = t->nodes[r].visits;
                jb->reply[k] = t->nodes[r].move;
                /* The line the tree expects: the reply, then the most
                 * visited child at each step while it has 2 visits. */
                tav_move *ln = jb->line + (size_t)k * (TAV_PV_MAX - 1);
                int len = 0;
                for (int32_t at = r; at >= 0 && len < TAV_PV_MAX - 1; at = line_next(t, at))
                    ln[len++] = t->nodes[at].move;
                jb->line_len[k] = (uint8_t)len;
            }
        jb->reward[k] += ch->reward;
    }
}

/* Remember the tree left in the block and the position it was searched
 * from (a failed copy keeps nothing). */
static void kept_store(tavi_tree_kept *k, const unsigned char *st, size_t size, int32_t count)
{
    if (k->size != size) {
        free(k->root);
        k->root = malloc(size);
        k->size = k->root ? size : 0;
    }
    if (!k->root) {
        k->count = 0;
        return;
    }
    memcpy(k->root, st, size);
    k->count = count;
}

/* Run a job: its determinizations one after the other, each with an equal
 * share of the remaining time and playouts. */
static void *job_run(void *arg)
{
    job *jb = arg;
    const tav_game *g = jb->g;
    tree t = {0};
    t.g = g;
    t.p = jb->p;
    t.cap = (int32_t)(jb->memory / sizeof(mnode));
    t.nodes = jb->tree_mem;
    t.list = malloc(sizeof(tav_move) * (size_t)g->max_moves);
    t.st = malloc(g->state_size);
    unsigned char *root = malloc(g->state_size);
    t.viewer = jb->viewer;
    t.cancel = jb->cancel;
    if (t.p.infoset) {
        uint32_t size = 16;
        while (size < 2u * (uint32_t)g->max_moves)
            size <<= 1;
        t.set_mask = size - 1;
        t.set = calloc(size, sizeof(uint64_t));
    }
    if (t.p.order_replies) {
        t.rep_key = malloc(sizeof(int32_t) * REPLY_SLOTS);
        t.rep_slot = malloc(sizeof(int32_t) * REPLY_SLOTS);
        t.rep_pool = malloc(sizeof(tav_move) * REPLY_K * (REPLY_SLOTS / 2));
        t.rep_n = malloc(REPLY_SLOTS / 2);
    }
    if (t.p.mast > 0) {
        t.mast = calloc(MAST_SIZE, sizeof *t.mast);
        t.mast_mask = MAST_SIZE - 1;
        t.trail = malloc(sizeof(uint32_t) * TRAIL_MAX);
    }
    if (!jb->moves) {
        jb->moves = malloc(sizeof(tav_move) * (size_t)g->max_moves);
        jb->visits = malloc(sizeof(uint32_t) * (size_t)g->max_moves);
        jb->reward = malloc(sizeof(double) * (size_t)g->max_moves);
        jb->reply = malloc(sizeof(tav_move) * (size_t)g->max_moves);
        jb->reply_visits = malloc(sizeof(uint32_t) * (size_t)g->max_moves);
        jb->line = malloc(sizeof(tav_move) * (TAV_PV_MAX - 1) * (size_t)g->max_moves);
        jb->line_len = malloc((size_t)g->max_moves);
    }
    if (!jb->moves || !jb->visits || !jb->reward || !jb->reply || !jb->reply_visits || !jb->line || !jb->line_len ||
        t.cap < 1 ||
        !t.nodes || !t.list || !t.st || !root || (t.p.infoset && !t.set) ||
        (t.p.mast > 0 && (!t.mast || !t.trail)) ||
        (t.p.order_replies && (!t.rep_key || !t.rep_slot || !t.rep_pool || !t.rep_n))) {
        jb->nomem = 1;
        goto out;
    }
    tav_rng_seed(&t.rng, jb->seed);
    double last_info = jb->start;
    /* One tree from one position: a tree per deal is not kept. */
    int keepable = jb->kept && jb->ndet == 1 && !(jb->hidden && !t.p.infoset);
    for (int d = 0; d < jb->ndet; d++) {
        memcpy(root, jb->root, g->state_size);
        if (jb->hidden && !t.p.infoset)
            g->determinize(root, jb->viewer, &t.rng);
        t.count = 0;
        t.reused = 0;
        t.root_cursor = 0;
        if (t.rep_key) {
            memset(t.rep_key, 0, sizeof(int32_t) * REPLY_SLOTS);
            t.rep_used = 0;
        }
        if (d == 0 && keepable && jb->kept->count > 0 && jb->kept->count <= t.cap && jb->kept->root &&
            jb->kept->size == g->state_size) {
            int32_t r = find_root(g, t.nodes, jb->kept->count, jb->kept->root, jb->real, jb->hidden);
            if (r >= 0 && t.p.root_order)
                prune_unordered(&t, r);
            int32_t n = r >= 0 ? reroot(t.nodes, jb->kept->count, r, !t.p.infoset) : -1;
            if (n > 0) {
                t.count = n;
                t.reused = 1;
                jb->reused += t.nodes[0].visits;
            }
        }
        if (keepable)
            jb->kept->count = 0;   /* the block is being rewritten */
        if (t.count == 0)
            node_new(&t, 0, TAV_NONE);
        uint64_t share = jb->max_playouts ? (jb->max_playouts - jb->playouts) / (uint64_t)(jb->ndet - d) : 0;
        double dl = 0;
        if (jb->deadline > 0) {
            double nowt = now_seconds();
            dl = nowt + (jb->deadline - nowt) / (jb->ndet - d);
        }
        t.playouts = 0;
        for (;;) {
            if (share && t.playouts >= share)
                break;
            if (jb->cancel && atomic_load_explicit(jb->cancel, memory_order_relaxed))
                break;
            if (t.p.infoset)
                iterate_is(&t, root);
            else
                iterate(&t, root);
            double nowt = (dl > 0 || jb->report) ? now_seconds() : 0;
            if (dl > 0 && nowt >= dl)
                break;
            if (jb->report && jb->info && nowt - last_info >= INFO_EVERY) {
                last_info = nowt;
                char pv[512], line[768];
                pv_text(&t, root, pv, sizeof pv);
                const mnode *r0 = &t.nodes[0];
                int32_t best = -1;
                for (int32_t c = r0->child; c >= 0; c = t.nodes[c].sibling)
                    if (best < 0 || t.nodes[c].visits > t.nodes[best].visits)
                        best = c;
                double wr = best >= 0 && t.nodes[best].visits ? t.nodes[best].reward / t.nodes[best].visits : 0.5;
                snprintf(line, sizeof line, "info playouts %llu nodes %d time %.0f winrate %.3f pv %s",
                         (unsigned long long)(jb->playouts + t.playouts), t.count,
                         (nowt - jb->start) * 1000.0, wr, pv);
                jb->info(jb->ctx, line);
            }
        }
        jb->playouts += t.playouts;
        jb->nodes += (uint64_t)t.count;
        merge_root(jb, &t);
        if (keepable)
            kept_store(jb->kept, jb->real, g->state_size, t.count);
        if (jb->cancel && atomic_load_explicit(jb->cancel, memory_order_relaxed))
            break;
    }
out:
    free(t.mast);
    free(t.trail);
    free(t.rep_key);
    free(t.rep_slot);
    free(t.rep_pool);
    free(t.rep_n);
    free(t.set);
    free(t.list);
    free(t.st);
    free(root);
    return NULL;
}

/* ------------------------------------------------------------------------
 * A tree search split into jobs: the service runs each job on a worker of
 * its pool with that worker's memory.  Job i always gets the same seed and
 * share of the budget, so
 * one job with a playout budget gives the same move wherever it runs.
 */
struct tavi_mcts {
    const tav_game *g;
    unsigned char *root;
    unsigned char *real;   /* the position as given (NULL: root, nothing masked) */
    tav_move *order;
    int njobs;
    job jobs[TAVI_MAX_JOBS];
};

static int cmp_desc_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? 1 : x > y ? -1 : 0;
}

void tavi_mcts_free(tavi_mcts *m)
{
    if (!m)
        return;
    for (int i = 0; i < m->njobs; i++) {
        free(m->jobs[i].moves);
        free(m->jobs[i].visits);
        free(m->jobs[i].reward);
        free(m->jobs[i].reply);
        free(m->jobs[i].line);
        free(m->jobs[i].line_len);
        free(m->jobs[i].reply_visits);
    }
    free(m->order);
    free(m->root);
    free(m->real);
    free(m);
}

tavi_mcts *tavi_mcts_new(const tav_game *g, const void *st, int ai, const tavi_limits *lim, int njobs,
                       double start, double deadline, tav_info_fn info, void *ctx)
{
    params p;
    memset(&p, 0, sizeof p);
    if (!ai) {
        p.c = 0.7;
    } else {
        tavi_profile pf = tavi_profile_of(g, "ai");
        p.c = pf.ucb_c > 0 ? pf.ucb_c : 0.5;
        p.pw_k = pf.widen_k != 0 ? (pf.widen_k < 0 ? 0 : pf.widen_k) : 2.0;
        p.pw_alpha = pf.widen_alpha > 0 ? pf.widen_alpha : 0.5;
        p.cutoff = pf.cutoff;
        p.smart = 1;
        p.mast = pf.mast;
        p.margin = pf.margin;
        p.margin_scale = pf.margin_scale > 0 ? pf.margin_scale : 1.0;
    }
    if (njobs < 1)
        njobs = 1;
    if (njobs > TAVI_MAX_JOBS)
        njobs = TAVI_MAX_JOBS;
    uint64_t max_playouts = lim->nodes;
    const tavi_level_row *lv = tavi_level_of(lim->level);
    if (lv && lv->playouts && (!max_playouts || lv->playouts < max_playouts))
        max_playouts = lv->playouts;
    if (deadline == 0 && max_playouts == 0)
        max_playouts = 1000;   /* neither budget given: a small fixed search */
    tavi_mcts *m = calloc(1, sizeof *m);
    tav_move *list = malloc(sizeof(tav_move) * (size_t)g->max_moves);
    if (!m || !list || !(m->root = malloc(g->state_size))) {
        free(list);
        tavi_mcts_free(m);
        return NULL;
    }
    m->g = g;
    m->njobs = njobs;
    memcpy(m->root, st, g->state_size);
    int hidden = g->mask && g->determinize;
    int viewer = g->to_move(st);
    if (hidden) {
        m->real = malloc(g->state_size);
        if (!m->real) {
            free(list);
            tavi_mcts_free(m);
            return NULL;
        }
        memcpy(m->real, st, g->state_size);
        g->mask(m->root, viewer);
    }
    if (hidden && ai)
        p.infoset = 1;   /* one information-set tree per job */
    p.mast_context = MAST_CONTEXT && ai && p.mast > 0 && g->move_context &&
                     !(lim->level >= 1 && lim->level <= 9);
    /* The full player's evaluation: levels 1-9 keep the one they were rated with. */
    p.eval = ai && g->eval_full && !(lim->level >= 1 && lim->level <= 9) ? g->eval_full : g->eval;
    if (ai && p.eval && p.eval == g->eval_full && tavi_profile_of(g, "ai").cutoff_full > 0)
        p.cutoff = tavi_profile_of(g, "ai").cutoff_full;
    /* Levels 1-3 keep the pseudo-random root order: they are meant to miss
     * good moves now and then. */
    int weak = lim->level >= 1 && lim->level <= 3;
    if (ai && tavi_profile_of(g, "ai").order_root && g->move_score && p.pw_k > 0 && !hidden && !weak) {
        /* Widen the root best-first: sort by move_score, ties by a seeded
         * random key so generation order does not decide. */
        int n = g->legal(st, list);
        tav_rng rng;
        tav_rng_seed(&rng, lim->seed);
        uint64_t *key = malloc(sizeof(uint64_t) * (size_t)n);
        m->order = malloc(sizeof(tav_move) * (size_t)n);
        if (key && m->order) {
            for (int i = 0; i < n; i++) {
                int sc = g->move_score(st, list[i]);
                key[i] = (uint64_t)(uint32_t)(sc ^ INT32_MIN) << 32 |
                         (tav_rng_next(&rng) & 0xffff0000u) | (uint64_t)i;
            }
            qsort(key, (size_t)n, sizeof *key, cmp_desc_u64);
            for (int i = 0; i < n; i++)
                m->order[i] = list[key[i] & 0xffff];
            p.root_order = m->order;
            p.nroot_order = n;
            /* Replies best-first too (order_root 2) for the full player
             * only: levels 1-9 keep the search they were rated with. */
            p.order_replies = tavi_profile_of(g, "ai").order_root >= 2 &&
                              !(lim->level >= 1 && lim->level <= 9);
        }
        free(key);
    }
    free(list);
    int ndet_total = hidden && !p.infoset ? 8 : njobs;
    for (int i = 0; i < njobs; i++) {
        job *jb = &m->jobs[i];
        jb->g = g;
        jb->root = m->root;
        jb->real = m->real ? m->real : m->root;
        jb->hidden = hidden;
        jb->viewer = viewer;
        jb->p = p;
        jb->max_playouts = max_playouts ? (max_playouts + (uint64_t)njobs - 1) / (uint64_t)njobs : 0;
        jb->deadline = deadline;
        jb->seed = tavi_mix64(lim->seed + (uint64_t)i * 0x9e37ULL);
        jb->ndet = ndet_total / njobs + (i < ndet_total % njobs);
        if (jb->ndet < 1)
            jb->ndet = 1;
        jb->info = info;
        jb->ctx = ctx;
        jb->report = i == 0;
        jb->start = start;
    }
    return m;
}

void tavi_mcts_job(tavi_mcts *m, int i, void *mem, size_t bytes, const _Atomic int *cancel,
                  tavi_tree_kept *kept)
{
    if (i < 0 || i >= m->njobs)
        return;
    job *jb = &m->jobs[i];
    if (!mem) {
        jb->nomem = 1;
        return;
    }
    jb->tree_mem = mem;
    jb->memory = bytes - bytes % sizeof(mnode);
    jb->cancel = cancel;
    jb->kept = kept;
    job_run(jb);
}

int tavi_mcts_finish(tavi_mcts *m, tavi_report *out)
{
    /* Sum the root statistics of every job (in job order); the most
     * visited move wins. */
    const tav_game *g = m->g;
    job *j0 = &m->jobs[0];
    tav_move *moves = malloc(sizeof(tav_move) * (size_t)g->max_moves);
    uint32_t *visits = malloc(sizeof(uint32_t) * (size_t)g->max_moves);
    double *reward = malloc(sizeof(double) * (size_t)g->max_moves);
    int nroot = 0, found = 0;
    if (moves && visits && reward) {
        for (int i = 0; i < m->njobs; i++) {
            const job *jb = &m->jobs[i];
            for (int j = 0; j < jb->nroot; j++) {
                int k;
                for (k = 0; k < nroot; k++)
                    if (moves[k] == jb->moves[j])
                        break;
                if (k == nroot) {
                    if (k >= g->max_moves)
                        continue;
                    moves[k] = jb->moves[j];
                    visits[k] = 0;
                    reward[k] = 0;
                    nroot++;
                }
                visits[k] += jb->visits[j];
                reward[k] += jb->reward[j];
            }
        }
    }
    (void)j0;
    uint32_t bestv = 0;
    double bestr = 0;
    for (int k = 0; k < nroot; k++) {
        if (!found || visits[k] > bestv) {
            found = 1;
            bestv = visits[k];
            bestr = reward[k];
            out->best = moves[k];
        }
    }
    out->value = bestv ? bestr / bestv : 0.5;
    /* The expected reply: the most visited one in any job's tree (after
     * several deals per tree, the last deal's). */
    uint32_t rv = 0;
    for (int i = 0; found && i < m->njobs; i++) {
        const job *jb = &m->jobs[i];
        for (int j = 0; j < jb->nroot; j++)
            if (jb->moves[j] == out->best && jb->reply_visits[j] > rv) {
                rv = jb->reply_visits[j];
                out->ponder = jb->reply[j];
                out->pv_len = 1 + jb->line_len[j];
                out->pv[0] = out->best;
                memcpy(out->pv + 1, jb->line + (size_t)j * (TAV_PV_MAX - 1),
                       sizeof(tav_move) * jb->line_len[j]);
            }
    }
    out->have_ponder = rv > 0;
    if (found && !rv) {
        out->pv[0] = out->best;
        out->pv_len = 1;
    }
    for (int i = 0; i < m->njobs; i++) {
        out->playouts += m->jobs[i].playouts;
        out->nodes += m->jobs[i].nodes;
        out->reused += m->jobs[i].reused;
    }
    free(moves);
    free(visits);
    free(reward);
    if (found)
        return 0;
    for (int i = 0; i < m->njobs; i++)
        if (!m->jobs[i].nomem)
            return -1;
    return -2;   /* no job had memory for a tree */
}

/* Deadline of a movetime budget (search_internal.h). */
double tavi_deadline_after(double start, long movetime_ms)
{
    /* Stop a little early: the last iteration and the answer must fit too. */
    if (movetime_ms <= 0)
        return 0;
    double ms = (double)movetime_ms;
    double margin = ms * 0.02 + 3.0;
    if (margin > ms * 0.5)
        margin = ms * 0.5;
    return start + (ms - margin) / 1000.0;
}
