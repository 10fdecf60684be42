/*
 * epaminondas.c — Epaminondas (Robert Abbott, 1975) on a 14 x 12 board.
 *
 * Data layout.  The board is 14 files by 12 ranks.  A square is the index
 * rank * 16 + file: every rank is padded to 16 bits, so the 12 ranks fill
 * 192 bits = three uint64_t words (ranks 0-3, 4-7, 8-11).  The two padding
 * files (14, 15) are always zero, so shifting a set of squares by a
 * direction offset (+-1 along a rank, +-16 along a file, +-15 / +-17 along a
 * diagonal) never wraps a piece onto the other side of the board: it lands on
 * a padding bit or falls off the ends of the 192 bits, and every result is
 * intersected with a set of real squares (own, enemy or empty) afterwards.
 *
 * State: one bitboard per side, the side to move, plies played, the ply
 * limit (option maxplies), the last move (for the view only), and the
 * result, computed at the end of every play (and by init / set_position):
 * at the start of each turn the mover wins if he has more pieces on the
 * opponent's home row than the opponent has on his, else loses if he has no
 * legal move, else the game is drawn when maxplies plies have been played.
 * A Zobrist key of pieces and side to move is kept incrementally; hash()
 * adds the ply counter and the ply limit, which decide the result too.
 *
 * Move generation, fully bit-parallel, per direction d (8 of them):
 *   F   = own pieces whose next square in d is not own (fronts);
 *   P_k = own squares with k own pieces in a row ending there (toward d);
 *   Q_k = enemy squares starting a run of k enemy pieces in direction d.
 * A phalanx part of k pieces ending at front f exists iff f is in F & P_k.
 * Pushing the set R = F & P_k forward one square at a time, s = 1..k, gives
 * plain moves (the square reached is empty, R keeps only those) and, for
 * k >= 2, captures (the square reached is enemy and not in Q_k, i.e. that
 * enemy line is shorter than k).  Every (front, d, k, s) is a different
 * move leaving a different state (the vacated rear squares differ with k,
 * the squares reached differ with d and s), so nothing is listed twice.
 * Cost: O(sum over d of longest line^2) word operations, plus one bit-scan
 * per move listed.  A single piece is the case k = 1 in any direction.
 *
 * Move value: bits 0-7 front square, 8-10 direction, 11-14 k, 15-19 s,
 * bit 20 capture.  Never 0 (k >= 1), so 0 means "no last move".
 *
 * Position text (docs/rules/epaminondas.md): 12 board lines, rank 12
 * first, '.', 'W', 'B'; then tomove=, plies=, maxplies=, last= lines.
 * set_position parses into a local state and copies it out only when the
 * whole text is valid, so a failure leaves the caller's state untouched.
 */
#include <string.h>

#include "core/core.h"
#include "games.h"

#define EPA_W 14
#define EPA_H 12
#define EPA_PIECES 28          /* pieces per side at the start */
#define EPA_MAXPLIES_DEFAULT 500
#define EPA_MAXPLIES_MAX 100000
/* Bound on legal moves: lines in one direction partition at most 28 pieces
 * (each line at most 14 long), and a line of n offers at most n(n+1)/2
 * (k, s) pairs: 2 * 105 per direction, 8 directions. */
#define EPA_MAX_MOVES (8 * 210)

typedef struct epa_bb { uint64_t w[3]; } epa_bb;

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
/* The same directions as file and rank steps. */
static const int epa_df[8] = { 1, 1, 0, -1, -1, -1, 0, 1 };
static const int epa_dr[8] = { 0, 1, 1, 1, 0, -1, -1, -1 };

/* The 168 real squares: 14 low bits of each 16-bit rank. */
static const epa_bb epa_board = { { 0x3fff3fff3fff3fffULL, 0x3fff3fff3fff3fffULL,
                                     0x3fff3fff3fff3fffULL } };
/* Rank 1 (white's home row) and rank 12 (black's home row). */
static const epa_bb epa_row1 = { { 0x3fffULL, 0, 0 } };
static const epa_bb epa_row12 = { { 0, 0, 0x3fffULL << 48 } };

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

/* Bitwise and / or / and-not / emptiness of bitboards. */
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
EPA_INLINE int bb_any(epa_bb a) { return (a.w[0] | a.w[1] | a.w[2]) != 0; }
/* Population count, inline SWAR (without -mpopcnt, __builtin_popcountll is
 * a library call, a hot spot in search).  GCC turns this exact sequence into
 * the processor's popcnt instruction where that is enabled: in a -mpopcnt
 * build, and in the popcnt clones of the hot functions (EPA_HOT below). */
EPA_INLINE int epa_popcnt(uint64_t x)
{
    x = x - (x >> 1 & 0x5555555555555555ULL);
    x = (x & 0x3333333333333333ULL) + (x >> 2 & 0x3333333333333333ULL);
    x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0fULL;
    return (int)((x * 0x0101010101010101ULL) >> 56);
}
/* Number of squares in a bitboard. */
EPA_INLINE int bb_count(epa_bb a)
{
    return epa_popcnt(a.w[0]) + epa_popcnt(a.w[1]) + epa_popcnt(a.w[2]);
}

/* The hot functions (the walks and the evaluation) are compiled twice on
 * x86-64 with GCC when the build does not already assume popcnt: a copy
 * using the popcnt instruction and a plain one, the loader picking one for
 * the processor (GCC's target_clones, an ifunc).  Elsewhere: one copy. */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) && defined(__linux__) && \
    !defined(__POPCNT__) && !defined(__SANITIZE_ADDRESS__)
#define EPA_HOT __attribute__((target_clones("popcnt", "default")))
#else
#define EPA_HOT
#endif

/* Whether square sq (any int; outside 0..191 is empty) is set in words w. */
static inline int bb_test(const uint64_t *w, int sq)
{
    return sq >= 0 && sq < 192 && (w[sq >> 6] >> (sq & 63) & 1);
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
/* Move every square one step in direction d.  Exact on the real squares
 * for a set of real squares; a padding bit of the result may be set, so the
 * result is always intersected with a set of real squares.  Along a rank
 * (d = E, W) no bit crosses a word: a word's top bit is padding (file 15),
 * so the carry up is 0 and the carry down would land on padding. */
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

/* The pieces of one side as a bitboard. */
EPA_INLINE epa_bb epa_side(const epaminondas_state *s, int side)
{
    epa_bb r = { { s->pc[side][0], s->pc[side][1], s->pc[side][2] } };
    return r;
}

/* Zobrist feature of a piece of `side` on `sq`. */
static inline uint64_t epa_zpiece(int side, int sq)
{
    return tavi_mix64(0x4570610000ULL + (uint64_t)(side * 256 + sq));
}
static const uint64_t epa_zblack = 0x6b1f3c2d9e8a7765ULL;   /* black to move */

/* Flip one square of one side, keeping the key. */
static inline void epa_toggle(epaminondas_state *s, int side, int sq)
{
    s->pc[side][sq >> 6] ^= 1ULL << (sq & 63);
    s->key ^= epa_zpiece(side, sq);
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
        for (uint64_t w = t.w[i]; w; w &= w - 1)
            out[n++] = base + (tav_move)(i * 64 + tavi_ctz(w));
    return n;
}

/* The j-th square (0 = lowest) of a bitboard with more than j squares. */
static int bb_nth(epa_bb t, int j)
{
    for (int i = 0; i < 3; i++) {
        int c = epa_popcnt(t.w[i]);
        if (j < c) {
            uint64_t w = t.w[i];
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
static tav_move epa_find_k(epa_bb r, epa_bb opp, epa_bb q, epa_bb empty, int d, int k, int j)
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
        epa_bb fk = r, all = { { 0, 0, 0 } };
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
EPA_HOT static int epa_generate(const epaminondas_state *st, int side, tav_move *out)
{
    epa_walk w = { .out = out };
    epa_walk_all(epa_side(st, side), epa_side(st, side ^ 1), EPA_LIST, &w, NULL);
    return w.n;
}

/* List the noisy moves of the player to move (captures and plain moves onto
 * the far row), in list order; their count. */
EPA_HOT static int epaminondas_noisy(const void *st, tav_move *out)
{
    const epaminondas_state *s = st;
    if (s->over)
        return 0;
    epa_walk w = { .out = out, .far = s->tomove == TAV_WHITE ? epa_row12 : epa_row1 };
    epa_walk_all(epa_side(s, s->tomove), epa_side(s, s->tomove ^ 1), EPA_NOISY, &w, NULL);
    return w.n;
}

/* Count the moves of `side`; per[d] (may be NULL) gets those of each direction. */
EPA_HOT static int epa_count(const epaminondas_state *st, int side, int per[8])
{
    epa_walk w = { .n = 0 };
    epa_walk_all(epa_side(st, side), epa_side(st, side ^ 1), EPA_COUNT, &w, per);
    return w.n;
}

/* The move of index idx (0 <= idx < count) of `side` in list order, with the
 * per-direction counts of epa_count: only direction d is walked. */
EPA_HOT static tav_move epa_find(const epaminondas_state *st, int side, const int per[8], int idx)
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

/* Whether m is a legal move of the player to move, for any value of m,
 * checked square by square along its one line as the walk would list it:
 * its front ends a line of k own pieces toward d and is that line's front
 * (no own piece ahead), the s - 1 squares ahead are empty, and the target is
 * empty (a plain move) or an enemy square starting an enemy line shorter than
 * k (a capture, k >= 2).  Squares off the board (the padding files, outside
 * 0..191) are neither own, enemy nor empty, as in the walk. */
static int epaminondas_is_legal(const void *st, tav_move m)
{
    const epaminondas_state *s = st;
    int f = epa_move_front(m), d = epa_move_dir(m), k = epa_move_k(m), sd = epa_move_s(m);
    if (s->over || m >> 21 || k < 1 || sd < 1 || sd > k || (epa_move_cap(m) && k < 2))
        return 0;
    const uint64_t *own = s->pc[s->tomove], *opp = s->pc[s->tomove ^ 1];
    int off = epa_off[d];
    if (!bb_test(epa_board.w, f) || bb_test(own, f + off))
        return 0;   /* not a square, or not a front */
    for (int j = 0; j < k; j++)
        if (!bb_test(own, f - j * off))
            return 0;
    for (int j = 1; j < sd; j++) {
        int t = f + j * off;
        if (!bb_test(epa_board.w, t) || bb_test(own, t) || bb_test(opp, t))
            return 0;
    }
    int t = f + sd * off;
    if (!bb_test(epa_board.w, t) || bb_test(own, t))
        return 0;
    if (!epa_move_cap(m))
        return !bb_test(opp, t);
    if (!bb_test(opp, t))
        return 0;
    for (int j = 1; j < k; j++)
        if (!bb_test(opp, t + j * off))
            return 1;   /* the enemy line is shorter than k */
    return 0;
}

/* Whether `side` has any legal move (fast: a free neighbour suffices). */
static int epa_has_move(const epaminondas_state *st, int side)
{
    epa_bb own = epa_side(st, side), opp = epa_side(st, side ^ 1);
    epa_bb empty = bb_andnot(epa_board, bb_or(own, opp));
    for (int d = 0; d < 8; d++)
        if (bb_any(bb_and(bb_shift(own, d), empty)))
            return 1;   /* usually the first direction tried */
    return epa_count(st, side, NULL) > 0;
}

/* Recompute over / winner for the start of the turn of s->tomove. */
static void epa_status(epaminondas_state *s)
{
    int me = s->tomove, op = me ^ 1;
    epa_bb w = epa_side(s, TAV_WHITE), b = epa_side(s, TAV_BLACK);
    int far[2] = { bb_count(bb_and(w, epa_row12)), bb_count(bb_and(b, epa_row1)) };
    s->over = 1;
    if (far[me] > far[op])
        s->winner = (int8_t)me;
    else if (!epa_has_move(s, me))
        s->winner = (int8_t)op;
    else if (s->plies >= s->maxplies)
        s->winner = TAV_DRAW;
    else {
        s->over = 0;
        s->winner = TAV_NONE;
    }
}

/* Compute the Zobrist key of pieces and side to move from scratch. */
static uint64_t epa_key(const epaminondas_state *s)
{
    uint64_t key = s->tomove == TAV_BLACK ? epa_zblack : 0;
    for (int side = 0; side < 2; side++)
        for (int i = 0; i < 3; i++)
            for (uint64_t w = s->pc[side][i]; w; w &= w - 1)
                key ^= epa_zpiece(side, i * 64 + tavi_ctz(w));
    return key;
}

/* Parse the options (maxplies=N) into *maxplies. */
static int epa_options(const char *options, uint32_t *maxplies, char *err, size_t errlen)
{
    tavi_optiter it = { options ? options : "" };
    char key[32], val[32];
    int r;
    *maxplies = EPA_MAXPLIES_DEFAULT;
    while ((r = tavi_opt_next(&it, key, sizeof key, val, sizeof val, err, errlen)) == 1) {
        uint64_t v;
        if (strcmp(key, "maxplies") != 0) {
            tavi_bprintf(err, errlen, "unknown option '%s' (expected maxplies=N, 1..%d)", key,
                        EPA_MAXPLIES_MAX);
            return -1;
        }
        if (tavi_parse_uint(val, EPA_MAXPLIES_MAX, &v) != 0 || v < 1) {
            tavi_bprintf(err, errlen, "bad value '%s' for maxplies (expected 1..%d)", val,
                        EPA_MAXPLIES_MAX);
            return -1;
        }
        *maxplies = (uint32_t)v;
    }
    return r;
}

/* Set up the initial position: white on ranks 1-2, black on ranks 11-12. */
static int epaminondas_init(void *st, const char *options, char *err, size_t errlen)
{
    uint32_t maxplies;
    if (epa_options(options, &maxplies, err, errlen) != 0)
        return -1;
    epaminondas_state *s = st;
    memset(s, 0, sizeof *s);
    s->pc[TAV_WHITE][0] = 0x3fff3fffULL;
    s->pc[TAV_BLACK][2] = 0x3fff3fffULL << 32;
    s->maxplies = maxplies;
    s->tomove = TAV_WHITE;
    s->key = epa_key(s);
    epa_status(s);
    return 0;
}

/* List every legal move of the player to move. */
static int epaminondas_legal(const void *st, tav_move *out)
{
    const epaminondas_state *s = st;
    if (s->over)
        return 0;
    return epa_generate(s, s->tomove, out);
}

/* The capture walk: the enemy line a capture landing on dest in direction
 * `off` removes (dest and the enemy pieces right behind it), as a
 * bitboard; play() removes it, move_score() values it. */
static inline epa_bb epa_captured(const epaminondas_state *s, int op, int dest, int off, int *n)
{
    epa_bb line = { { 0, 0, 0 } };
    int c = 0;
    for (int t = dest; bb_test(s->pc[op], t); t += off, c++)
        line.w[t >> 6] |= 1ULL << (t & 63);
    *n = c;
    return line;
}

/* A uniformly random legal move, the one legal() and tav_rng_below would
 * pick: count the moves (per direction), draw the index, walk only the
 * direction holding it. */
static int epaminondas_random_move(const void *st, tav_rng *rng, tav_move *m)
{
    const epaminondas_state *s = st;
    if (s->over)
        return 0;
    int per[8];
    int n = epa_count(s, s->tomove, per);
    if (n == 0)
        return 0;
    *m = epa_find(s, s->tomove, per, (int)tav_rng_below(rng, (uint32_t)n));
    return n;
}

/* Play a legal move: shift the moving part, remove a captured line. */
static void epaminondas_play(void *st, tav_move m)
{
    epaminondas_state *s = st;
    int me = s->tomove, op = me ^ 1;
    int f = epa_move_front(m), d = epa_move_dir(m), k = epa_move_k(m), sd = epa_move_s(m);
    int off = epa_off[d];
    int rear = f - (k - 1) * off, dest = f + sd * off;
    if (epa_move_cap(m)) {
        int n;
        epa_bb line = epa_captured(s, op, dest, off, &n);
        for (int i = 0; i < 3; i++)
            for (uint64_t w = line.w[i]; w; w &= w - 1)
                epa_toggle(s, op, i * 64 + tavi_ctz(w));
    }
    for (int i = 0; i < sd; i++) {
        epa_toggle(s, me, rear + i * off);
        epa_toggle(s, me, f + (i + 1) * off);
    }
    s->last = m;
    s->plies++;
    s->tomove = (uint8_t)op;
    s->key ^= epa_zblack;
    epa_status(s);
}

/* The side to move, or TAV_NONE when the game is over. */
static int epaminondas_to_move(const void *st)
{
    const epaminondas_state *s = st;
    return s->over ? TAV_NONE : s->tomove;
}

/* Over, winner and scores (pieces on the board). */
static void epaminondas_result(const void *st, tav_result *r)
{
    const epaminondas_state *s = st;
    r->over = s->over;
    r->winner = s->winner;
    r->score[0] = bb_count(epa_side(s, TAV_WHITE));
    r->score[1] = bb_count(epa_side(s, TAV_BLACK));
}

/* Write a square index as its name; returns the length. */
static int epa_sq_str(int sq, char *buf)
{
    return tavi_square_str(sq & 15, sq >> 4, buf);
}

/* Canonical text: rear front - or x destination; one square for a single piece. */
static int epa_move_text(tav_move m, char *buf, size_t n)
{
    int f = epa_move_front(m), d = epa_move_dir(m), k = epa_move_k(m), sd = epa_move_s(m);
    char a[8], b[8], c[8];
    epa_sq_str(f - (k - 1) * epa_off[d], a);
    epa_sq_str(f, b);
    epa_sq_str(f + sd * epa_off[d], c);
    char sep = epa_move_cap(m) ? 'x' : '-';
    if (k == 1)
        return (int)tavi_bprintf(buf, n, "%s%c%s", b, sep, c);
    return (int)tavi_bprintf(buf, n, "%s%s%c%s", a, b, sep, c);
}

/* Canonical text of a legal move. */
static int epaminondas_move_str(const void *st, tav_move m, char *buf, size_t n)
{
    (void)st;
    return epa_move_text(m, buf, n);
}

/* Hash: pieces, side to move, plies and ply limit. */
static uint64_t epaminondas_hash(const void *st)
{
    const epaminondas_state *s = st;
    return s->key ^ tavi_mix64(0x706c696573000000ULL + s->plies) ^
           tavi_mix64(0x6d61787000000000ULL + s->maxplies);
}

/* Squares touched by the last move, as a bitboard (vacated and reached). */
static epa_bb epa_last_squares(const epaminondas_state *s)
{
    epa_bb r = { { 0, 0, 0 } };
    if (!s->last)
        return r;
    int f = epa_move_front(s->last), d = epa_move_dir(s->last);
    int k = epa_move_k(s->last), sd = epa_move_s(s->last);
    for (int i = -(k - 1); i <= sd; i++) {
        int sq = f + i * epa_off[d];
        r.w[sq >> 6] |= 1ULL << (sq & 63);
    }
    return r;
}

/* The drawing view for any viewer (nothing is hidden): pieces 'M' (glyphs W
 * and B), home rows, the last move, pieces on the board and lost. */
static void epaminondas_board_view(const void *st, int viewer, tav_board_view *v)
{
    const epaminondas_state *s = st;
    (void)viewer;
    epa_bb last = epa_last_squares(s);
    memset(v, 0, sizeof *v);
    v->width = EPA_W;
    v->height = EPA_H;
    for (int r = 0; r < EPA_H; r++)
        for (int f = 0; f < EPA_W; f++) {
            int sq = r * 16 + f;
            tav_square *q = &v->sq[r * EPA_W + f];
            q->glyph = '.';
            q->owner = TAV_NONE;
            for (int c = 0; c < 2; c++)
                if (bb_test(s->pc[c], sq)) {
                    q->kind = 'M';
                    q->glyph = c == TAV_WHITE ? 'W' : 'B';
                    q->owner = (int8_t)c;
                }
            if (bb_test(last.w, sq))
                q->marks |= TAV_MARK_LAST;
            if (r == 0)
                q->marks |= TAV_MARK_HOME_W;
            if (r == EPA_H - 1)
                q->marks |= TAV_MARK_HOME_B;
        }
    v->to_move = epaminondas_to_move(s);
    tavi_bprintf(v->phase, sizeof v->phase, "%s", s->over ? "over" : "play");
    tav_result r;
    epaminondas_result(st, &r);
    for (int c = 0; c < 2; c++) {
        tav_side_view *sv = &v->side[c];
        int n = bb_count(epa_side(s, c));
        sv->on_board = n;
        sv->captured = EPA_PIECES - n < 0 ? 0 : EPA_PIECES - n;
        sv->score = r.score[c];
        tavi_bprintf(sv->text, sizeof sv->text, "%d on board, %d captured", n, sv->captured);
    }
    tavi_bprintf(v->info, sizeof v->info, "ply %u of %u; far row white %d, black %d", s->plies,
                s->maxplies, bb_count(bb_and(epa_side(s, TAV_WHITE), epa_row12)),
                bb_count(bb_and(epa_side(s, TAV_BLACK), epa_row1)));
    if (s->last)
        epa_move_text(s->last, v->last_move, sizeof v->last_move);
}

/* Parse the value of `last=`: a move's text, checked against the board. */
static int epa_parse_last(epaminondas_state *s, const char *p, int line, char *err,
                          size_t errlen)
{
    int f1, r1, f2, r2, f3, r3, cap;
    const char *start = p;
    if (tavi_square_parse(&p, EPA_W, EPA_H, &f1, &r1) != 0)
        goto bad;
    f2 = f1;
    r2 = r1;
    int two = *p >= 'a' && *p <= 'z';
    if (two && tavi_square_parse(&p, EPA_W, EPA_H, &f2, &r2) != 0)
        goto bad;
    if (*p != '-' && *p != 'x')
        goto bad;
    cap = *p++ == 'x';
    if (tavi_square_parse(&p, EPA_W, EPA_H, &f3, &r3) != 0 || *p != '\0')
        goto bad;
    int df = f3 - f2, dr = r3 - r2;
    int adf = df < 0 ? -df : df, adr = dr < 0 ? -dr : dr;
    int sd = adf > adr ? adf : adr;
    if (sd == 0 || (adf != 0 && adr != 0 && adf != adr))
        goto bad;
    int d = 0;
    while (epa_df[d] * sd != df || epa_dr[d] * sd != dr)
        d++;
    /* rear to front: k - 1 steps in the same direction (none for a single piece) */
    int bf = f2 - f1, br = r2 - r1;
    int k = (bf < 0 ? -bf : bf) > (br < 0 ? -br : br) ? (bf < 0 ? -bf : bf) : (br < 0 ? -br : br);
    k += 1;
    if (bf != (k - 1) * epa_df[d] || br != (k - 1) * epa_dr[d] || (two && k == 1) ||
        sd > k || (k == 1 && cap))
        goto bad;
    /* the k pieces must now stand at rear+s .. dest, the s vacated squares be empty */
    int mover = s->tomove ^ 1, off = epa_off[d], front = r2 * 16 + f2, rear = r1 * 16 + f1;
    for (int i = 0; i < k; i++)
        if (!bb_test(s->pc[mover], rear + (sd + i) * off)) {
            tavi_bprintf(err, errlen, "line %d: last move %s does not match the board "
                        "(the %s pieces that moved are not there)", line, start,
                        tav_side_name(mover));
            return -1;
        }
    for (int i = 0; i < sd; i++) {
        int sq = rear + i * off;
        if (bb_test(s->pc[0], sq) || bb_test(s->pc[1], sq)) {
            tavi_bprintf(err, errlen, "line %d: last move %s does not match the board "
                        "(a square it left is occupied)", line, start);
            return -1;
        }
    }
    s->last = epa_move_make(front, d, k, sd, cap);
    return 0;
bad:
    tavi_bprintf(err, errlen, "line %d: bad last move '%s' (expected none, or e.g. c3-d4, "
                "a1a3-a5, b2d4xf6)", line, start);
    return -1;
}

/* Read a decimal value of a key line into *out, within lo..hi. */
static int epa_parse_num(const char *val, const char *key, uint32_t lo, uint32_t hi,
                         uint32_t *out, int line, char *err, size_t errlen)
{
    uint64_t v;
    if (tavi_parse_uint(val, hi, &v) != 0 || v < lo) {
        tavi_bprintf(err, errlen, "line %d: bad %s '%s' (expected %u..%u)", line, key, val, lo,
                    hi);
        return -1;
    }
    *out = (uint32_t)v;
    return 0;
}

/* Set the whole state from position text (see docs/rules/epaminondas.md). */
static int epaminondas_set_position(void *st, const char *text, char *err, size_t errlen)
{
    epaminondas_state t;
    uint32_t keep = ((const epaminondas_state *)st)->maxplies;
    memset(&t, 0, sizeof t);
    /* without a maxplies line the game keeps its option (set by init) */
    t.maxplies = keep >= 1 && keep <= EPA_MAXPLIES_MAX ? keep : EPA_MAXPLIES_DEFAULT;
    int have_tomove = 0, have_plies = 0, have_max = 0, have_last = 0;
    char lastbuf[TAV_MOVE_TEXT] = "";
    int lastline = 0;
    const char *p = text ? text : "";
    int line = 0;
    while (*p || line < EPA_H) {
        char buf[128];
        const char *e = strchr(p, '\n');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        line++;
        if (len >= sizeof buf) {
            tavi_bprintf(err, errlen, "line %d: too long", line);
            return -1;
        }
        memcpy(buf, p, len);
        buf[len] = '\0';
        p = e ? e + 1 : p + len;
        if (line <= EPA_H) {
            /* board: rank 12 first, 14 squares per rank */
            int rank = EPA_H - line;
            if (len != EPA_W) {
                tavi_bprintf(err, errlen, "line %d (rank %d): expected %d squares, got %zu",
                            line, rank + 1, EPA_W, len);
                return -1;
            }
            for (int f = 0; f < EPA_W; f++) {
                int sq = rank * 16 + f;
                if (buf[f] == 'W')
                    t.pc[TAV_WHITE][sq >> 6] |= 1ULL << (sq & 63);
                else if (buf[f] == 'B')
                    t.pc[TAV_BLACK][sq >> 6] |= 1ULL << (sq & 63);
                else if (buf[f] != '.') {
                    tavi_bprintf(err, errlen, "line %d, column %d: expected '.', 'W' or 'B', "
                                "got '%c'", line, f + 1,
                                (buf[f] > ' ' && buf[f] < 127) ? buf[f] : '?');
                    return -1;
                }
            }
            continue;
        }
        if (len == 0 && !*p)
            break;   /* a final newline */
        char *eq = strchr(buf, '=');
        if (!eq) {
            tavi_bprintf(err, errlen, "line %d: expected KEY=VALUE (tomove, plies, maxplies, "
                        "last), got '%.40s'", line, buf);
            return -1;
        }
        *eq = '\0';
        const char *val = eq + 1;
        if (strcmp(buf, "tomove") == 0 && !have_tomove) {
            have_tomove = 1;
            if (strcmp(val, "white") == 0)
                t.tomove = TAV_WHITE;
            else if (strcmp(val, "black") == 0)
                t.tomove = TAV_BLACK;
            else {
                tavi_bprintf(err, errlen, "line %d: bad tomove '%.20s' (expected white or black)",
                            line, val);
                return -1;
            }
        } else if (strcmp(buf, "plies") == 0 && !have_plies) {
            have_plies = 1;
            if (epa_parse_num(val, "plies", 0, EPA_MAXPLIES_MAX, &t.plies, line, err, errlen))
                return -1;
        } else if (strcmp(buf, "maxplies") == 0 && !have_max) {
            have_max = 1;
            if (epa_parse_num(val, "maxplies", 1, EPA_MAXPLIES_MAX, &t.maxplies, line, err,
                              errlen))
                return -1;
        } else if (strcmp(buf, "last") == 0 && !have_last) {
            have_last = 1;
            lastline = line;
            tavi_bprintf(lastbuf, sizeof lastbuf, "%s", val);
        } else {
            tavi_bprintf(err, errlen, "line %d: %s key '%.20s' (expected tomove, plies, "
                        "maxplies, last, each once)",
                        line, (strcmp(buf, "tomove") && strcmp(buf, "plies") &&
                               strcmp(buf, "maxplies") && strcmp(buf, "last")) ? "unknown"
                                                                               : "repeated",
                        buf);
            return -1;
        }
    }
    if (!have_tomove) {
        tavi_bprintf(err, errlen, "line %d: missing tomove=white|black", line + 1);
        return -1;
    }
    for (int side = 0; side < 2; side++) {
        int n = bb_count(epa_side(&t, side));
        if (n > EPA_PIECES) {
            tavi_bprintf(err, errlen, "%s has %d pieces (at most %d)", tav_side_name(side), n,
                        EPA_PIECES);
            return -1;
        }
    }
    if (t.plies > t.maxplies) {
        tavi_bprintf(err, errlen, "plies=%u exceeds maxplies=%u", t.plies, t.maxplies);
        return -1;
    }
    if (have_last && strcmp(lastbuf, "none") != 0) {
        if (t.plies == 0) {
            tavi_bprintf(err, errlen, "line %d: a last move needs plies >= 1", lastline);
            return -1;
        }
        if (epa_parse_last(&t, lastbuf, lastline, err, errlen) != 0)
            return -1;
    }
    t.key = epa_key(&t);
    epa_status(&t);
    memcpy(st, &t, sizeof t);
    return 0;
}

/* Write the position text: 12 ranks (rank 12 first), then the key lines. */
static int epaminondas_get_position(const void *st, char *buf, size_t n)
{
    const epaminondas_state *s = st;
    char text[TAV_POSITION_TEXT];
    size_t k = 0;
    for (int r = EPA_H - 1; r >= 0; r--) {
        for (int f = 0; f < EPA_W; f++) {
            int sq = r * 16 + f;
            text[k++] = bb_test(s->pc[TAV_WHITE], sq)   ? 'W'
                        : bb_test(s->pc[TAV_BLACK], sq) ? 'B'
                                                        : '.';
        }
        text[k++] = '\n';
    }
    char last[TAV_MOVE_TEXT] = "none";
    if (s->last)
        epa_move_text(s->last, last, sizeof last);
    tavi_bprintf(text + k, sizeof text - k, "tomove=%s\nplies=%u\nmaxplies=%u\nlast=%s",
                tav_side_name(s->tomove), s->plies, s->maxplies, last);
    return (int)tavi_bprintf(buf, n, "%s", text);
}

/* Game queries for tests: home, pieces, plies, maxplies, hasmove. */
static int epaminondas_probe(const void *st, const char *key, char *out, size_t n)
{
    const epaminondas_state *s = st;
    epa_bb w = epa_side(s, TAV_WHITE), b = epa_side(s, TAV_BLACK);
    if (strcmp(key, "home") == 0)
        tavi_bprintf(out, n, "%d:%d", bb_count(bb_and(w, epa_row12)),
                    bb_count(bb_and(b, epa_row1)));
    else if (strcmp(key, "pieces") == 0)
        tavi_bprintf(out, n, "%d:%d", bb_count(w), bb_count(b));
    else if (strcmp(key, "plies") == 0)
        tavi_bprintf(out, n, "%u", s->plies);
    else if (strcmp(key, "maxplies") == 0)
        tavi_bprintf(out, n, "%u", s->maxplies);
    else if (strcmp(key, "hasmove") == 0)
        tavi_bprintf(out, n, "%s:%s", epa_has_move(s, TAV_WHITE) ? "yes" : "no",
                    epa_has_move(s, TAV_BLACK) ? "yes" : "no");
    else
        return -1;
    return 0;
}

/* Invariant checker: recompute key, result and legality from scratch. */
static int epaminondas_check(const void *st, char *err, size_t errlen)
{
    const epaminondas_state *s = st;
    epa_bb w = epa_side(s, TAV_WHITE), b = epa_side(s, TAV_BLACK);
    if (bb_any(bb_andnot(bb_or(w, b), epa_board)) || bb_any(bb_and(w, b))) {
        tavi_bprintf(err, errlen, "pieces off the board or on one square twice");
        return -1;
    }
    if (bb_count(w) > EPA_PIECES || bb_count(b) > EPA_PIECES) {
        tavi_bprintf(err, errlen, "more than %d pieces for one side", EPA_PIECES);
        return -1;
    }
    if (s->tomove > 1 || s->pad || s->maxplies < 1 || s->maxplies > EPA_MAXPLIES_MAX ||
        s->plies > s->maxplies) {
        tavi_bprintf(err, errlen, "bad tomove/plies/maxplies (%d, %u, %u)", s->tomove,
                    s->plies, s->maxplies);
        return -1;
    }
    if (s->key != epa_key(s)) {
        tavi_bprintf(err, errlen, "incremental key differs from the recomputed one");
        return -1;
    }
    epaminondas_state t = *s;
    epa_status(&t);
    if (t.over != s->over || t.winner != s->winner) {
        tavi_bprintf(err, errlen, "stored result differs from the recomputed one");
        return -1;
    }
    /* has_move's shortcut agrees with the full generator */
    for (int side = 0; side < 2; side++)
        if (epa_has_move(s, side) != (epa_count(s, side, NULL) > 0)) {
            tavi_bprintf(err, errlen, "has_move disagrees with the generator");
            return -1;
        }
    return 0;
}

/* ---- The ai player's hooks: evaluation, move ordering, playout policy ----
 *
 * See docs/ai/epaminondas.md.  Everything is computed from the mover's point
 * of view (the side whose turn it is) and flipped for the other side.  All
 * scratch is on the stack; nothing is global or allocated.
 */

#ifndef EPA_TUNE
#define EPA_TUNE 0
#endif

/* Pieces of a side on each rank, as seen from that side (index 0 = home). */
static void epa_rank_counts(const epaminondas_state *s, int side, int cnt[EPA_H])
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

/* Pieces of `side` on the opponent's home row. */
static int epa_far(const epaminondas_state *s, int side)
{
    return bb_count(bb_and(epa_side(s, side), side == TAV_WHITE ? epa_row12 : epa_row1));
}

/* The mover faces a crossing (the opponent leads on the far rows): whether
 * some move of his levels the count (a capture on his home row, or a
 * crossing of his own), so that the opponent does not win at once. */
static int epa_answer_exists(const epaminondas_state *s)
{
    tav_move list[EPA_MAX_MOVES];
    int me = s->tomove, n = epa_generate(s, me, list);
    int farrank = me == TAV_WHITE ? EPA_H - 1 : 0;
    for (int i = 0; i < n; i++) {
        tav_move m = list[i];
        int dest = epa_move_front(m) + epa_move_s(m) * epa_off[epa_move_dir(m)];
        if (!epa_move_cap(m) && (dest >> 4) != farrank)
            continue;
        epaminondas_state t = *s;
        epaminondas_play(&t, m);
        if (!(t.over && t.winner == (me ^ 1)))
            return 1;
    }
    return 0;
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
EPA_HOT static int epa_score(const epaminondas_state *s)
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

/* Heuristic value for `side` in [0, 1]. */
static double epaminondas_eval(const void *st, int side)
{
    const epaminondas_state *s = st;
    if (s->over)
        return s->winner == TAV_DRAW ? 0.5 : s->winner == side ? 1.0 : 0.0;
    int me = s->tomove;
    double v;
    if (epa_far(s, me ^ 1) > epa_far(s, me) && !epa_answer_exists(s)) {
        v = 0.002;   /* the opponent's crossing cannot be answered: lost */
    } else {
        double x = epa_score(s) / EPA_SCALE;
        v = 1.0 / (1.0 + __builtin_exp(-x));
        v = 0.01 + 0.98 * v;
    }
    return side == me ? v : 1.0 - v;
}

/* Ordering score: captures (by size, answers to a crossing first) and
 * crossings are noisy; quiet moves by advance and phalanx size. */
static int epaminondas_move_score(const void *st, tav_move m)
{
    const epaminondas_state *s = st;
    int me = s->tomove, op = me ^ 1;
    int d = epa_move_dir(m), k = epa_move_k(m), sd = epa_move_s(m), off = epa_off[d];
    int dest = epa_move_front(m) + sd * off;
    int farrank = me == TAV_WHITE ? EPA_H - 1 : 0;
    int fwd = me == TAV_WHITE ? epa_dr[d] : -epa_dr[d];
    int score;
    if (epa_move_cap(m)) {
        int n;
        epa_bb line = epa_captured(s, op, dest, off, &n);
        /* pieces taken on one's own home row (rank 1 in word 0, rank 12 in word 2) */
        int home = me == TAV_WHITE ? epa_popcnt(line.w[0] & epa_row1.w[0])
                                   : epa_popcnt(line.w[2] & epa_row12.w[2]);
        score = TAV_NOISY + 100 * n + 400 * home + ((dest >> 4) == farrank ? 300 : 0) - k;
    } else if ((dest >> 4) == farrank) {
        score = TAV_NOISY + 50;
    } else {
        score = 500 + fwd * sd * 20 + k * 4;
        if (score < 0)
            score = 0;
        if (score >= TAV_NOISY)
            score = TAV_NOISY - 1;
    }
    return score;
}

/* Playout policy: a capture or a crossing when one exists (most of the
 * time), else a random move preferring forward ones. */
static int epaminondas_playout_move(const void *st, tav_rng *rng, tav_move *scratch,
                                    tav_move *m)
{
    const epaminondas_state *s = st;
    if (s->over)
        return 0;
    int n = epa_generate(s, s->tomove, scratch);
    if (n == 0)
        return 0;
    tav_move best = scratch[tav_rng_below(rng, (uint32_t)n)];
    int bs = epaminondas_move_score(s, best) + (int)tav_rng_below(rng, 200);
    for (int i = 0; i < 6; i++) {
        tav_move c = scratch[tav_rng_below(rng, (uint32_t)n)];
        int cs = epaminondas_move_score(s, c) + (int)tav_rng_below(rng, 200);
        if (cs > bs) {
            best = c;
            bs = cs;
        }
    }
    *m = best;
    return 1;
}

/* ---- for people ---------------------------------------------------------- */

static int epa_lower(int c)
{
    return c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c;
}

/* `-` typed for a capture, `x` for a plain move: says which was meant (the
 * move is not played: a capture is asked for in so many words). */
static int epaminondas_explain_move(const void *st, const char *text, const tav_move *legal, int n,
                                    char *meant, size_t mn, char *why, size_t wn)
{
    (void)meant;
    (void)mn;
    char other[TAV_MOVE_TEXT], buf[TAV_MOVE_TEXT];
    size_t tl = strlen(text);
    if (tl >= sizeof other)
        return 0;
    const char *dash = strrchr(text, '-');
    if (dash) {
        memcpy(other, text, tl + 1);
        other[dash - text] = 'x';
        for (int i = 0; i < n; i++) {
            epaminondas_move_str(st, legal[i], buf, sizeof buf);
            size_t k = 0;
            while (buf[k] && epa_lower((unsigned char)buf[k]) == epa_lower((unsigned char)other[k]))
                k++;
            if (!buf[k] && !other[k]) {
                tavi_bprintf(why, wn, "a capture is written with x: did you mean %s?", buf);
                return 0;
            }
        }
    }
    const char *x = strrchr(text, 'x');
    if (x) {
        memcpy(other, text, tl + 1);
        other[x - text] = '-';
        for (int i = 0; i < n; i++) {
            epaminondas_move_str(st, legal[i], buf, sizeof buf);
            if (strcmp(buf, other) == 0) {
                tavi_bprintf(why, wn, "that move captures nothing: did you mean %s?", buf);
                return 0;
            }
        }
    }
    return 0;
}

/* Long move lists are grouped by the rear square. */
static void epaminondas_move_group(const char *move, char *key, size_t kn)
{
    tavi_bprintf(key, kn, "%.*s", 1 + (int)strspn(move + 1, "0123456789"), move);
}

static int epaminondas_explain_result(const void *st, char *buf, size_t n)
{
    const epaminondas_state *s = st;
    tav_result r;
    epaminondas_result(st, &r);
    int far[2] = { bb_count(bb_and(epa_side(s, TAV_WHITE), epa_row12)),
                   bb_count(bb_and(epa_side(s, TAV_BLACK), epa_row1)) };
    int w = r.winner;
    size_t k = 0;
    if (w == TAV_WHITE || w == TAV_BLACK) {
        if (far[w] > far[1 - w])
            k += tavi_bprintf(buf + k, n - k,
                             " %s reached the far row: %d of its pieces stand on %s's home row "
                             "against %d, and\n %s could not level the count in its turn.\n",
                             tav_side_name(w), far[w], tav_side_name(1 - w), far[1 - w],
                             tav_side_name(1 - w));
        else
            k += tavi_bprintf(buf + k, n - k,
                             " %s has no legal move left (no piece, or every piece blocked), and "
                             "loses.\n", tav_side_name(1 - w));
    } else {
        k += tavi_bprintf(buf + k, n - k, " The ply limit was reached with no winner: a draw.\n");
    }
    k += tavi_bprintf(buf + k, n - k, " Pieces left: white %d, black %d.\n", r.score[0], r.score[1]);
    return (int)k;
}

static const char *const epaminondas_samples[] = {"", "maxplies=30", NULL};

const tav_game tavi_epaminondas_game = {
    .name = "epaminondas",
    .state_size = sizeof(epaminondas_state),
    .max_moves = EPA_MAX_MOVES,
    .init = epaminondas_init,
    .samples = epaminondas_samples,
    .bench_games = 200,
    .board_view = epaminondas_board_view,
    .legal = epaminondas_legal,
    .random_move = epaminondas_random_move,
    .play = epaminondas_play,
    .to_move = epaminondas_to_move,
    .result = epaminondas_result,
    .move_str = epaminondas_move_str,
    .hash = epaminondas_hash,
    .set_position = epaminondas_set_position,
    .get_position = epaminondas_get_position,
    .probe = epaminondas_probe,
    .check = epaminondas_check,
    .title = "Epaminondas",
    .score_words = "pieces on the board",
    .explain_move = epaminondas_explain_move,
    .explain_result = epaminondas_explain_result,
    .move_group = epaminondas_move_group,
    .eval = epaminondas_eval,
    .playout_move = epaminondas_playout_move,
    .move_score = epaminondas_move_score,
    .noisy = epaminondas_noisy,
    .is_legal = epaminondas_is_legal,
};
