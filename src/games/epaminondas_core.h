/*
 * epaminondas_core.h — the Epaminondas state, its bitboards and the walk
 * that lists, counts and scores moves (private to src/games).
 *
 * Included by epaminondas.c, which builds the game on it, and by
 * epaminondas_avx2.c, which compiles the hot functions (the walks and the
 * evaluation, the *_in bodies below) a second time for processors with
 * AVX2, where a set of squares is one 256-bit vector (EPA_VEC = 1, set by
 * that file before including this one).  epaminondas.c picks the copy for
 * the processor at every call; both compute exactly the same results.
 */
#ifndef TAV_EPAMINONDAS_CORE_H
#define TAV_EPAMINONDAS_CORE_H

#include <stdint.h>

#include "base/base.h"
#include "games.h"

#ifndef EPA_VEC
#define EPA_VEC 0
#endif
#ifndef EPA_TUNE
#define EPA_TUNE 0
#endif

#define EPA_W 14
#define EPA_H 12
#define EPA_PIECES 28          /* pieces per side at the start */
#define EPA_MAXPLIES_DEFAULT 500
#define EPA_MAXPLIES_MAX 100000
/* Bound on legal moves: lines in one direction partition at most 28 pieces
 * (each line at most 14 long), and a line of n offers at most n(n+1)/2
 * (k, s) pairs: 2 * 105 per direction, 8 directions. */
#define EPA_MAX_MOVES (8 * 210)

/* A set of squares: a plain struct of three words, or, in the AVX2 copy
 * (EPA_VEC), one 256-bit vector of four words (the fourth holds no real
 * square), so that one instruction does a whole set.  The code reads a
 * word through bb_word and builds sets only through the helpers below, so
 * both copies compute the same sets. */
#if EPA_VEC
typedef uint64_t epa_bb __attribute__((vector_size(32)));
typedef uint16_t epa_v16 __attribute__((vector_size(32)));
typedef uint8_t epa_v8 __attribute__((vector_size(32)));
#define EPA_BB(a, b, c) { (a), (b), (c), 0 }
#define bb_word(b, i) ((b)[i])
#else
typedef struct epa_bb { uint64_t w[3]; } epa_bb;
#define EPA_BB(a, b, c) { { (a), (b), (c) } }
#define bb_word(b, i) ((b).w[i])
#endif

/* The bitboard helpers and the walk are always inlined: the walk is large,
 * and a helper left out of line costs a call per step. */
#define EPA_INLINE static inline __attribute__((always_inline))

typedef struct epaminondas_state {
    uint64_t pc[2][3];    /* pieces of white, black: bitboards */
    uint64_t key;         /* Zobrist key of pieces and side to move */
    uint32_t plies;       /* plies played */
    uint32_t maxplies;    /* the draw limit */
    uint32_t last;        /* last move value, 0 if none */
    uint8_t tomove;       /* TAV_WHITE or TAV_BLACK (the side whose turn it is) */
    uint8_t over;         /* 1 when the game has ended */
    int8_t winner;        /* TAV_WHITE, TAV_BLACK, TAV_DRAW, TAV_NONE */
    uint8_t pad;          /* always 0 */
} epaminondas_state;

/* Direction offsets in square indices: E, NE, N, NW, W, SW, S, SE. */
static const int epa_off[8] = { 1, 17, 16, 15, -1, -17, -16, -15 };
/* The 168 real squares: 14 low bits of each 16-bit rank. */
static const epa_bb epa_board = EPA_BB(0x3fff3fff3fff3fffULL, 0x3fff3fff3fff3fffULL,
                                       0x3fff3fff3fff3fffULL);
/* Rank 1 (white's home row) and rank 12 (black's home row). */
static const epa_bb epa_row1 = EPA_BB(0x3fffULL, 0, 0);
static const epa_bb epa_row12 = EPA_BB(0, 0, 0x3fffULL << 48);

/* Encode a move from its front square, direction, size and distance. */
static inline tav_move epa_move_make(int front, int d, int k, int s, int cap)
{
    return (tav_move)front | (tav_move)d << 8 | (tav_move)k << 11 | (tav_move)s << 15 |
           (tav_move)cap << 20;
}
static inline int epa_move_front(tav_move m) { return (int)(m & 0xff); }
static inline int epa_move_dir(tav_move m) { return (int)(m >> 8 & 7); }
static inline int epa_move_k(tav_move m) { return (int)(m >> 11 & 15); }
static inline int epa_move_s(tav_move m) { return (int)(m >> 15 & 31); }
static inline int epa_move_cap(tav_move m) { return (int)(m >> 20 & 1); }

/* Population count, inline SWAR (without -mpopcnt, __builtin_popcountll is
 * a library call, a hot spot in search).  GCC turns this exact sequence into
 * the processor's popcnt instruction where that is enabled: in a -mpopcnt
 * build, in the popcnt clones of the hot functions (EPA_HOT, epaminondas.c)
 * and in their AVX2 copy. */
EPA_INLINE int epa_popcnt(uint64_t x)
{
    x = x - (x >> 1 & 0x5555555555555555ULL);
    x = (x & 0x3333333333333333ULL) + (x >> 2 & 0x3333333333333333ULL);
    x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0fULL;
    return (int)((x * 0x0101010101010101ULL) >> 56);
}

/* Whether square sq (any int; outside 0..191 is empty) is set in words w. */
static inline int bb_test(const uint64_t *w, int sq)
{
    return sq >= 0 && sq < 192 && (w[sq >> 6] >> (sq & 63) & 1);
}

/* Emptiness and number of squares: of the three words (the vector's fourth
 * may hold squares pushed off the top rank, never counted). */
EPA_INLINE int bb_any(epa_bb a) { return (bb_word(a, 0) | bb_word(a, 1) | bb_word(a, 2)) != 0; }
EPA_INLINE int bb_count(epa_bb a)
{
    return epa_popcnt(bb_word(a, 0)) + epa_popcnt(bb_word(a, 1)) + epa_popcnt(bb_word(a, 2));
}

/* Bitwise and / or / and-not of bitboards, and a step in direction d.
 *
 * bb_shift moves every square one step in direction d.  Exact on the real
 * squares for a set of real squares; a padding bit of the result may be set
 * (or, for the vector, a bit of the fourth word or none where a word would
 * carry into padding), so the result is always intersected with a set of
 * real squares.  Words: along a rank (d = E, W) no bit crosses a word: a
 * word's top bit is padding (file 15), so the carry up is 0 and the carry
 * down would land on padding.  Vector: a rank is one 16-bit lane, so a step
 * along a file moves whole lanes (two bytes across the vector) and a step
 * along a rank shifts every lane by one bit. */
#if EPA_VEC
EPA_INLINE epa_bb bb_and(epa_bb a, epa_bb b) { return a & b; }
EPA_INLINE epa_bb bb_or(epa_bb a, epa_bb b) { return a | b; }
EPA_INLINE epa_bb bb_andnot(epa_bb a, epa_bb b) { return a & ~b; }
/* Every rank one rank up (lane i to i + 1) / down (lane i to i - 1). */
EPA_INLINE epa_bb bb_rank_up(epa_bb b)
{
    const epa_v8 z = { 0 };
    return (epa_bb)__builtin_shuffle(z, (epa_v8)b,
                                     (epa_v8){ 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40,
                                               41, 42, 43, 44, 45, 46, 47, 48, 49, 50, 51,
                                               52, 53, 54, 55, 56, 57, 58, 59, 60, 61 });
}
EPA_INLINE epa_bb bb_rank_down(epa_bb b)
{
    const epa_v8 z = { 0 };
    return (epa_bb)__builtin_shuffle((epa_v8)b, z,
                                     (epa_v8){ 2,  3,  4,  5,  6,  7,  8,  9,  10, 11, 12,
                                               13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23,
                                               24, 25, 26, 27, 28, 29, 30, 31, 32, 33 });
}
EPA_INLINE epa_bb bb_file_up(epa_bb b) { return (epa_bb)((epa_v16)b << 1); }
EPA_INLINE epa_bb bb_file_down(epa_bb b) { return (epa_bb)((epa_v16)b >> 1); }
EPA_INLINE epa_bb bb_shift(epa_bb b, int d)
{
    switch (epa_off[d]) {
    case 1: return bb_file_up(b);
    case -1: return bb_file_down(b);
    case 16: return bb_rank_up(b);
    case -16: return bb_rank_down(b);
    case 17: return bb_file_up(bb_rank_up(b));
    case 15: return bb_file_down(bb_rank_up(b));
    case -17: return bb_file_down(bb_rank_down(b));
    default: return bb_file_up(bb_rank_down(b));
    }
}
#else
EPA_INLINE epa_bb bb_and(epa_bb a, epa_bb b)
{
    epa_bb r = { { a.w[0] & b.w[0], a.w[1] & b.w[1], a.w[2] & b.w[2] } };
    return r;
}
EPA_INLINE epa_bb bb_or(epa_bb a, epa_bb b)
{
    epa_bb r = { { a.w[0] | b.w[0], a.w[1] | b.w[1], a.w[2] | b.w[2] } };
    return r;
}
EPA_INLINE epa_bb bb_andnot(epa_bb a, epa_bb b)
{
    epa_bb r = { { a.w[0] & ~b.w[0], a.w[1] & ~b.w[1], a.w[2] & ~b.w[2] } };
    return r;
}
/* Move every square of a bitboard n places up (0 < n < 64). */
EPA_INLINE epa_bb bb_up(epa_bb b, int n)
{
    epa_bb r = { { b.w[0] << n, b.w[1] << n | b.w[0] >> (64 - n),
                   b.w[2] << n | b.w[1] >> (64 - n) } };
    return r;
}
/* Move every square of a bitboard n places down (0 < n < 64). */
EPA_INLINE epa_bb bb_down(epa_bb b, int n)
{
    epa_bb r = { { b.w[0] >> n | b.w[1] << (64 - n), b.w[1] >> n | b.w[2] << (64 - n),
                   b.w[2] >> n } };
    return r;
}
EPA_INLINE epa_bb bb_shift(epa_bb b, int d)
{
    int o = epa_off[d];
    if (o == 1) {
        epa_bb r = { { b.w[0] << 1, b.w[1] << 1, b.w[2] << 1 } };
        return r;
    }
    if (o == -1) {
        epa_bb r = { { b.w[0] >> 1, b.w[1] >> 1, b.w[2] >> 1 } };
        return r;
    }
    return o > 0 ? bb_up(b, o) : bb_down(b, -o);
}
#endif

/* The pieces of one side as a bitboard. */
EPA_INLINE epa_bb epa_side(const epaminondas_state *s, int side)
{
    epa_bb r = EPA_BB(s->pc[side][0], s->pc[side][1], s->pc[side][2]);
    return r;
}

/* Whether square sq (any int; outside 0..191 is empty) is in b. */
EPA_INLINE int bb_has(epa_bb b, int sq)
{
    return sq >= 0 && sq < 192 && (bb_word(b, sq >> 6) >> (sq & 63) & 1);
}

/* A bitboard with one more square. */
EPA_INLINE void bb_set(epa_bb *b, int sq)
{
#if EPA_VEC
    (*b)[sq >> 6] |= 1ULL << (sq & 63);
#else
    b->w[sq >> 6] |= 1ULL << (sq & 63);
#endif
}

/* ---- The walk: every move of one side, in list order ----
 *
 * epa_walk_dir is the only enumeration of moves in this file.  What it does
 * with each set of targets depends on its mode, a constant at every call
 * (the function is always inlined, so each use gets its own specialised
 * copy with nothing left of the other modes):
 *   EPA_LIST   write the moves (legal, the eval's answer check);
 *   EPA_COUNT  count them (has_move, the sampler's first pass);
 *   EPA_FIND   stop at the move of a given index in list order (the sampler);
 *   EPA_FEAT   count them and collect the squares they reach (the eval);
 *   EPA_NOISY  write only the captures and the plain moves onto w->far (the
 *              far row): the moves move_score calls noisy, for quiescence.
 * List order: direction d, then k, then s; at each s the captures before
 * the plain moves; within one set, ascending target square.
 *
 * Counting needs one popcount per (d, k), not one per (d, k, s): for a given
 * d and k the targets of all s are different squares (two fronts on one line
 * cannot reach the same square, the nearer front blocks the other's path,
 * and a capture lands on an enemy square, a plain move on an empty one), so
 * the union of the sets has exactly as many squares as there are moves.
 */
enum { EPA_LIST, EPA_COUNT, EPA_FIND, EPA_FEAT, EPA_NOISY };

typedef struct epa_walk {
    tav_move *out;     /* EPA_LIST: where the moves go */
    int n;             /* moves listed or counted so far */
    int big;           /* EPA_FEAT: moves of phalanxes of 3 or more */
    int idx;           /* EPA_FIND: index (in list order) of the move wanted */
    tav_move found;    /* EPA_FIND: that move, 0 until found */
    epa_bb far;        /* EPA_NOISY: the far row */
    epa_bb attacked;   /* EPA_FEAT: enemy squares a capture can land on */
    epa_bb reach;      /* EPA_FEAT: empty squares a plain move can land on */
} epa_walk;

/* Emit a move for every bit of `t`, whose values are base + target square. */
EPA_INLINE int epa_emit(epa_bb t, tav_move base, tav_move *out, int n)
{
    for (int i = 0; i < 3; i++)
        for (uint64_t w = bb_word(t, i); w; w &= w - 1)
            out[n++] = base + (tav_move)(i * 64 + tavi_ctz(w));
    return n;
}

/* The j-th square (0 = lowest) of a bitboard with more than j squares. */
static inline int bb_nth(epa_bb t, int j)
{
    for (int i = 0; i < 3; i++) {
        int c = epa_popcnt(bb_word(t, i));
        if (j < c) {
            uint64_t w = bb_word(t, i);
            while (j-- > 0)
                w &= w - 1;
            return i * 64 + tavi_ctz(w);
        }
        j -= c;
    }
    return -1;
}

/* Value of move (d, k, s, cap) whose target square is t: the front is t - s * off. */
static inline tav_move epa_move_base(int d, int k, int s, int cap)
{
    return epa_move_make(0, d, k, s, cap) - (tav_move)(s * epa_off[d]);
}

/* EPA_FIND inside one (d, k): the move of index j among those of the fronts
 * r (lines of k or more), pushed s = 1..k squares as the walk does. */
static inline tav_move epa_find_k(epa_bb r, epa_bb opp, epa_bb q, epa_bb empty, int d, int k, int j)
{
    for (int s = 1; s <= k; s++) {
        epa_bb nx = bb_shift(r, d);
        if (k >= 2) {
            epa_bb c = bb_andnot(bb_and(nx, opp), q);
            int nc = bb_count(c);
            if (j < nc)
                return epa_move_base(d, k, s, 1) + (tav_move)bb_nth(c, j);
            j -= nc;
        }
        r = bb_and(nx, empty);
        int nr = bb_count(r);
        if (j < nr)
            return epa_move_base(d, k, s, 0) + (tav_move)bb_nth(r, j);
        j -= nr;
    }
    return 0;   /* not reached: j is below the count of this (d, k) */
}

/* Walk the moves of `own` (against `opp`) in direction d.  EPA_FIND: returns
 * 1 when the move was found (the walk stops), else 0 with w->idx lowered by
 * the moves passed. */
EPA_INLINE int epa_walk_dir(epa_bb own, epa_bb opp, epa_bb empty, const int d, const int mode,
                            epa_walk *w)
{
    const int od = (d + 4) & 7;
    /* 1. fronts: own pieces whose next square toward d is not own */
    epa_bb front = bb_andnot(own, bb_shift(own, od));
    /* p = P_k: own squares ending a row of k own pieces toward d;
     * q = Q_k: enemy squares starting a row of k enemy pieces toward d */
    epa_bb p = own, q = opp;
    for (int k = 1;; k++) {
        /* 2. fronts of lines at least k long: P_k & F */
        epa_bb r = bb_and(front, p);
        if (!bb_any(r))
            return 0;
        /* No front of a line this long can take its first step (every one
         * faces its own piece or the edge): neither can the fronts of
         * longer lines, which are among these.  (Pays in the walks of the
         * search, the evaluation's and quiescence's, which meet the long
         * lines of the opening; costs more than it saves in the others.) */
        if ((mode == EPA_FEAT || mode == EPA_NOISY) && !bb_any(bb_and(bb_shift(r, d), bb_or(empty, opp))))
            return 0;
        epa_bb fk = r, all = EPA_BB(0, 0, 0);
        /* 3. push them s = 1..k squares; capture on enemy lines < k */
        if (mode == EPA_LIST || mode == EPA_NOISY) {
            for (int s = 1; s <= k; s++) {
                epa_bb nx = bb_shift(r, d);
                if (k >= 2)
                    w->n = epa_emit(bb_andnot(bb_and(nx, opp), q), epa_move_base(d, k, s, 1),
                                    w->out, w->n);
                r = bb_and(nx, empty);
                if (!bb_any(r))
                    break;
                w->n = epa_emit(mode == EPA_NOISY ? bb_and(r, w->far) : r,
                                epa_move_base(d, k, s, 0), w->out, w->n);
            }
        } else {
            /* only the union of the targets: captures and plain moves at once */
            epa_bb tgt = k >= 2 ? bb_or(bb_andnot(opp, q), empty) : empty;
            for (int s = 1; s <= k; s++) {
                epa_bb nx = bb_shift(r, d);
                all = bb_or(all, bb_and(nx, tgt));
                r = bb_and(nx, empty);
                if (!bb_any(r))
                    break;
            }
            if (mode == EPA_FEAT) {
                w->attacked = bb_or(w->attacked, bb_and(all, opp));
                w->reach = bb_or(w->reach, bb_and(all, empty));
            }
        }
        if (mode != EPA_LIST && mode != EPA_NOISY) {
            int c = bb_count(all);
            if (mode == EPA_FIND) {
                if (w->idx < c) {
                    w->found = epa_find_k(fk, opp, q, empty, d, k, w->idx);
                    return 1;
                }
                w->idx -= c;
            }
            w->n += c;
            if (mode == EPA_FEAT && k >= 3)
                w->big += c;
        }
        p = bb_and(own, bb_shift(p, d));
        q = bb_and(opp, bb_shift(q, od));
    }
}

/* Walk every direction in list order; per[d] (may be NULL) gets the moves
 * of each direction. */
EPA_INLINE void epa_walk_all(epa_bb own, epa_bb opp, const int mode, epa_walk *w, int per[8])
{
    epa_bb empty = bb_andnot(epa_board, bb_or(own, opp));
#define EPA_DIR(d)                                                   \
    do {                                                             \
        int n0 = w->n;                                               \
        if (epa_walk_dir(own, opp, empty, d, mode, w))               \
            return;                                                  \
        if (per)                                                     \
            per[d] = w->n - n0;                                      \
    } while (0)
    EPA_DIR(0);
    EPA_DIR(1);
    EPA_DIR(2);
    EPA_DIR(3);
    EPA_DIR(4);
    EPA_DIR(5);
    EPA_DIR(6);
    EPA_DIR(7);
#undef EPA_DIR
}

/* Walk one direction d (0..7, known only at run time): each direction gets
 * its own specialised copy of the walk, as in epa_walk_all. */
EPA_INLINE void epa_walk_one(epa_bb own, epa_bb opp, epa_bb empty, int d, const int mode,
                             epa_walk *w)
{
    switch (d) {
    case 0: epa_walk_dir(own, opp, empty, 0, mode, w); break;
    case 1: epa_walk_dir(own, opp, empty, 1, mode, w); break;
    case 2: epa_walk_dir(own, opp, empty, 2, mode, w); break;
    case 3: epa_walk_dir(own, opp, empty, 3, mode, w); break;
    case 4: epa_walk_dir(own, opp, empty, 4, mode, w); break;
    case 5: epa_walk_dir(own, opp, empty, 5, mode, w); break;
    case 6: epa_walk_dir(own, opp, empty, 6, mode, w); break;
    default: epa_walk_dir(own, opp, empty, 7, mode, w); break;
    }
}

/* List the moves of `side` into out (room for EPA_MAX_MOVES); their count. */
EPA_INLINE int epa_generate_in(const epaminondas_state *st, int side, tav_move *out)
{
    epa_walk w = { .out = out };
    epa_walk_all(epa_side(st, side), epa_side(st, side ^ 1), EPA_LIST, &w, NULL);
    return w.n;
}

/* List the noisy moves of the player to move (captures and plain moves onto
 * the far row), in list order; their count. */
EPA_INLINE int epa_noisy_in(const epaminondas_state *s, tav_move *out)
{
    if (s->over)
        return 0;
    epa_walk w = { .out = out, .far = s->tomove == TAV_WHITE ? epa_row12 : epa_row1 };
    epa_walk_all(epa_side(s, s->tomove), epa_side(s, s->tomove ^ 1), EPA_NOISY, &w, NULL);
    return w.n;
}

/* Count the moves of `side`; per[d] (may be NULL) gets those of each direction. */
EPA_INLINE int epa_count_in(const epaminondas_state *st, int side, int per[8])
{
    epa_walk w = { .n = 0 };
    epa_walk_all(epa_side(st, side), epa_side(st, side ^ 1), EPA_COUNT, &w, per);
    return w.n;
}

/* The move of index idx (0 <= idx < count) of `side` in list order, with the
 * per-direction counts of epa_count: only direction d is walked. */
EPA_INLINE tav_move epa_find_in(const epaminondas_state *st, int side, const int per[8], int idx)
{
    epa_bb own = epa_side(st, side), opp = epa_side(st, side ^ 1);
    epa_bb empty = bb_andnot(epa_board, bb_or(own, opp));
    int d = 0;
    while (d < 7 && idx >= per[d])
        idx -= per[d++];
    epa_walk w = { .idx = idx };
    epa_walk_one(own, opp, empty, d, EPA_FIND, &w);
    return w.found;
}

/* Pieces of a side on each rank, as seen from that side (index 0 = home). */
static inline void epa_rank_counts(const epaminondas_state *s, int side, int cnt[EPA_H])
{
    for (int i = 0; i < 3; i++) {
        /* SWAR count of the four 16-bit ranks of word i, one count per lane */
        uint64_t x = s->pc[side][i];
        x = x - (x >> 1 & 0x5555555555555555ULL);
        x = (x & 0x3333333333333333ULL) + (x >> 2 & 0x3333333333333333ULL);
        x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0fULL;
        x = (x + (x >> 8)) & 0x00ff00ff00ff00ffULL;
        for (int j = 0; j < 4; j++) {
            int r = 4 * i + j;
            cnt[side == TAV_WHITE ? r : EPA_H - 1 - r] = (int)(x >> (16 * j) & 0xff);
        }
    }
}

/* Weights of the evaluation (centipawn-like units, 100 = one piece). */
static const int epa_adv[EPA_H] = { 0, 0, 2, 4, 6, 9, 12, 15, 19, 24, 30, 30 };
#ifndef EPA_ADV_MUL
#define EPA_ADV_MUL 60        /* percent applied to epa_adv */
#endif
#ifndef EPA_W_MATERIAL
#define EPA_W_MATERIAL 100
#endif
#ifndef EPA_W_MOBILITY
#define EPA_W_MOBILITY 1
#endif
#ifndef EPA_W_BIG
#define EPA_W_BIG 1
#endif
#ifndef EPA_W_ATTACK
#define EPA_W_ATTACK 12       /* each enemy piece attacked, by the side not to move */
#endif
#ifndef EPA_W_ATTACK_MOVER
#define EPA_W_ATTACK_MOVER 30 /* each enemy piece attacked by the mover */
#endif
#ifndef EPA_W_HOME
#define EPA_W_HOME 10         /* each of the first few pieces kept on the home row */
#endif
#ifndef EPA_HOME_KEEP
#define EPA_HOME_KEEP 4
#endif
#ifndef EPA_W_REACH
#define EPA_W_REACH 150       /* a crossing square reachable next move */
#endif
#ifndef EPA_W_REACH_MOVER
#define EPA_W_REACH_MOVER EPA_W_REACH   /* the same, for the side to move */
#endif
#ifndef EPA_W_REACH2
#define EPA_W_REACH2 0        /* a second crossing square */
#endif
#ifndef EPA_SCALE
#define EPA_SCALE 350.0
#endif

/* Static score (mover's view) in centipawn-like units. */
EPA_INLINE int epa_score_in(const epaminondas_state *s)
{
    int me = s->tomove, op = me ^ 1;
#if EPA_TUNE == 1
    {   /* tuning baseline: material and distance to goal only */
        int cb[EPA_H], cw[EPA_H], sc = 0;
        epa_rank_counts(s, me, cb);
        epa_rank_counts(s, op, cw);
        for (int r = 0; r < EPA_H; r++)
            sc += (100 + 10 * r) * (cb[r] - cw[r]);
        return sc;
    }
#endif
    epa_bb own = epa_side(s, me), opp = epa_side(s, op);
    epa_walk fm = { .n = 0 }, fo = { .n = 0 };
    epa_walk_all(own, opp, EPA_FEAT, &fm, NULL);
    epa_walk_all(opp, own, EPA_FEAT, &fo, NULL);
    int cm[EPA_H], co[EPA_H];
    epa_rank_counts(s, me, cm);
    epa_rank_counts(s, op, co);
    int score = 0, nm = 0, no = 0;
    for (int r = 0; r < EPA_H; r++) {
        nm += cm[r];
        no += co[r];
        score += epa_adv[r] * EPA_ADV_MUL / 100 * (cm[r] - co[r]);
    }
    score += EPA_W_MATERIAL * (nm - no);
    score += EPA_W_MOBILITY * (fm.n - fo.n) + EPA_W_BIG * (fm.big - fo.big);
    score += EPA_W_ATTACK_MOVER * bb_count(fm.attacked) - EPA_W_ATTACK * bb_count(fo.attacked);
    score += EPA_W_HOME * ((cm[0] < EPA_HOME_KEEP ? cm[0] : EPA_HOME_KEEP) -
                           (co[0] < EPA_HOME_KEEP ? co[0] : EPA_HOME_KEEP));
    epa_bb farm = me == TAV_WHITE ? epa_row12 : epa_row1;
    epa_bb faro = me == TAV_WHITE ? epa_row1 : epa_row12;
    int xm = bb_count(bb_and(bb_or(fm.reach, fm.attacked), farm));
    int xo = bb_count(bb_and(bb_or(fo.reach, fo.attacked), faro));
    score += EPA_W_REACH_MOVER * (xm > 0) + EPA_W_REACH2 * (xm > 1);
    score -= EPA_W_REACH * (xo > 0) + EPA_W_REACH2 * (xo > 1);
    return score;
}


/* The hot functions compiled for AVX2 (epaminondas_avx2.c): the *_in
 * bodies above with EPA_VEC = 1.  Built with GCC on x86-64 unless the build
 * says EPA_AVX2=0 (`make CC="cc -DEPA_AVX2=0"`: the plain copy alone, for
 * comparison); call them only when the processor has AVX2 and popcnt. */
#ifndef EPA_AVX2
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define EPA_AVX2 1
#else
#define EPA_AVX2 0
#endif
#endif
#if EPA_AVX2
int tavi_epa_generate_avx2(const epaminondas_state *st, int side, tav_move *out);
int tavi_epa_noisy_avx2(const epaminondas_state *s, tav_move *out);
int tavi_epa_count_avx2(const epaminondas_state *st, int side, int per[8]);
tav_move tavi_epa_find_avx2(const epaminondas_state *st, int side, const int per[8], int idx);
int tavi_epa_score_avx2(const epaminondas_state *s);
#endif

#endif
