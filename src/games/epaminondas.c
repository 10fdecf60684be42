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
 * The state, the sets and the walk below live in epaminondas_core.h, shared
 * with the AVX2 copy of the hot functions (epaminondas_avx2.c).
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

#include "base/base.h"
#include "epaminondas_core.h"
#include "games.h"

/* The same directions as file and rank steps. */
static const int epa_df[8] = { 1, 1, 0, -1, -1, -1, 0, 1 };
static const int epa_dr[8] = { 0, 1, 1, 1, 0, -1, -1, -1 };

/* The hot functions (the walks and the evaluation): the bodies of
 * epaminondas_core.h, compiled here for any x86-64 processor (twice with
 * GCC when the build does not already assume popcnt: a copy using the
 * popcnt instruction and a plain one, the loader picking one, GCC's
 * target_clones) and in epaminondas_avx2.c for processors with AVX2, which
 * every call below prefers when the processor has it. */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) && defined(__linux__) && \
    !defined(__POPCNT__) && !defined(__SANITIZE_ADDRESS__)
#define EPA_HOT __attribute__((target_clones("popcnt", "default")))
#else
#define EPA_HOT
#endif

#if EPA_AVX2
/* Whether this processor runs the AVX2 copy (libgcc reads the processor's
 * features once, at start-up). */
static inline int epa_avx2(void)
{
    return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("popcnt");
}
#endif

EPA_HOT static int epa_generate_plain(const epaminondas_state *st, int side, tav_move *out)
{
    return epa_generate_in(st, side, out);
}
EPA_HOT static int epa_noisy_plain(const epaminondas_state *s, tav_move *out)
{
    return epa_noisy_in(s, out);
}
EPA_HOT static int epa_count_plain(const epaminondas_state *st, int side, int per[8])
{
    return epa_count_in(st, side, per);
}
EPA_HOT static tav_move epa_find_plain(const epaminondas_state *st, int side, const int per[8],
                                       int idx)
{
    return epa_find_in(st, side, per, idx);
}
EPA_HOT static int epa_score_plain(const epaminondas_state *s)
{
    return epa_score_in(s);
}

#if EPA_AVX2
#define EPA_PICK(avx2, plain) (epa_avx2() ? (avx2) : (plain))
#else
#define EPA_PICK(avx2, plain) (plain)
#endif

/* List the moves of `side` into out (room for EPA_MAX_MOVES); their count. */
static int epa_generate(const epaminondas_state *st, int side, tav_move *out)
{
    return EPA_PICK(tavi_epa_generate_avx2(st, side, out), epa_generate_plain(st, side, out));
}

/* List the noisy moves of the player to move (captures and plain moves onto
 * the far row), in list order; their count. */
static int epaminondas_noisy(const void *st, tav_move *out)
{
    return EPA_PICK(tavi_epa_noisy_avx2(st, out), epa_noisy_plain(st, out));
}

/* Count the moves of `side`; per[d] (may be NULL) gets those of each direction. */
static int epa_count(const epaminondas_state *st, int side, int per[8])
{
    return EPA_PICK(tavi_epa_count_avx2(st, side, per), epa_count_plain(st, side, per));
}

/* The move of index idx (0 <= idx < count) of `side` in list order, with the
 * per-direction counts of epa_count. */
static tav_move epa_find(const epaminondas_state *st, int side, const int per[8], int idx)
{
    return EPA_PICK(tavi_epa_find_avx2(st, side, per, idx), epa_find_plain(st, side, per, idx));
}

/* Static score (mover's view) in centipawn-like units. */
static int epa_score(const epaminondas_state *s)
{
    return EPA_PICK(tavi_epa_score_avx2(s), epa_score_plain(s));
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
    if (!bb_has(epa_board, f) || bb_test(own, f + off))
        return 0;   /* not a square, or not a front */
    for (int j = 0; j < k; j++)
        if (!bb_test(own, f - j * off))
            return 0;
    for (int j = 1; j < sd; j++) {
        int t = f + j * off;
        if (!bb_has(epa_board, t) || bb_test(own, t) || bb_test(opp, t))
            return 0;
    }
    int t = f + sd * off;
    if (!bb_has(epa_board, t) || bb_test(own, t))
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
        char q[32];
        if (strcmp(key, "maxplies") != 0) {
            tavi_quote(q, sizeof q, key, sizeof q - 1);
            tavi_bprintf(err, errlen, "unknown option '%s' (expected maxplies=N, 1..%d)", q,
                        EPA_MAXPLIES_MAX);
            return -1;
        }
        if (tavi_parse_uint(val, EPA_MAXPLIES_MAX, &v) != 0 || v < 1) {
            tavi_quote(q, sizeof q, val, sizeof q - 1);
            tavi_bprintf(err, errlen, "bad value '%s' for maxplies (expected 1..%d)", q,
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
EPA_INLINE epa_bb epa_captured(const epaminondas_state *s, int op, int dest, int off, int *n)
{
    epa_bb line = EPA_BB(0, 0, 0);
    int c = 0;
    for (int t = dest; bb_test(s->pc[op], t); t += off, c++)
        bb_set(&line, t);
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
            for (uint64_t w = bb_word(line, i); w; w &= w - 1)
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

/* The parts of a move: the phalanx from rear to front, the front piece's
 * landing square, and the enemy line a capture takes off. */
static int epaminondas_move_parts(const void *st, tav_move m, tav_move_parts *p)
{
    const epaminondas_state *s = st;
    int f = epa_move_front(m), d = epa_move_dir(m), k = epa_move_k(m), sd = epa_move_s(m);
    if (k < 1 || k > TAV_PART_SQUARES || d < 0 || d > 7)
        return -1;
    int off = epa_off[d], rear = f - (k - 1) * off, dest = f + sd * off;
    tavi_parts_action(p, "move");
    p->piece[0] = 'M';
    for (int i = 0; i < k; i++) {
        int sq = rear + i * off;
        tavi_parts_square(p, sq & 15, sq >> 4);
    }
    p->from[0] = (int8_t)(rear & 15);
    p->from[1] = (int8_t)(rear >> 4);
    p->to[0] = (int8_t)(dest & 15);
    p->to[1] = (int8_t)(dest >> 4);
    if (epa_move_cap(m)) {
        int n;
        (void)epa_captured(s, s->tomove ^ 1, dest, off, &n);   /* dest and the n - 1 behind it */
        for (int i = 0, t = dest; i < n; i++, t += off)
            tavi_parts_mark(p, t & 15, t >> 4);
    }
    return 0;
}

/* Hash: pieces, side to move, plies and ply limit. */
static uint64_t epaminondas_hash(const void *st)
{
    const epaminondas_state *s = st;
    return s->key ^ tavi_mix64(0x706c696573000000ULL + s->plies) ^
           tavi_mix64(0x6d61787000000000ULL + s->maxplies);
}

/* Squares touched by the last move, as a bitboard (vacated and reached). */
EPA_INLINE epa_bb epa_last_squares(const epaminondas_state *s)
{
    epa_bb r = EPA_BB(0, 0, 0);
    if (!s->last)
        return r;
    int f = epa_move_front(s->last), d = epa_move_dir(s->last);
    int k = epa_move_k(s->last), sd = epa_move_s(s->last);
    for (int i = -(k - 1); i <= sd; i++) {
        int sq = f + i * epa_off[d];
        bb_set(&r, sq);
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
            if (bb_has(last, sq))
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
    if (s->over) {
        /* Why, in the order epa_status judges it at the start of a turn. */
        static const char *const names[2] = {"White", "Black"};
        int me = s->tomove, op = me ^ 1;
        int far[2] = {bb_count(bb_and(epa_side(s, TAV_WHITE), epa_row12)),
                      bb_count(bb_and(epa_side(s, TAV_BLACK), epa_row1))};
        if (s->winner == me)
            tavi_bprintf(v->end, sizeof v->end,
                        "%s began a turn with more pieces on the far row than %s had on "
                        "theirs, %d to %d: %s wins.", names[me], names[op], far[me], far[op],
                        names[me]);
        else if (s->winner == op)
            tavi_bprintf(v->end, sizeof v->end, "%s had no move left: %s wins.", names[me],
                        names[op]);
        else
            tavi_bprintf(v->end, sizeof v->end,
                        "The game reached its limit of %u moves without a winner: a draw.",
                        s->maxplies);
    }
    if (s->last)
        epa_move_text(s->last, v->last_move, sizeof v->last_move);
}

/* Parse the value of `last=`: a move's text, checked against the board. */
static int epa_parse_last(epaminondas_state *s, const char *p, int line, char *err,
                          size_t errlen)
{
    int f1, r1, f2, r2, f3, r3, cap;
    const char *start = p;
    char q[TAV_MOVE_TEXT];
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
    tavi_quote(q, sizeof q, start, sizeof q - 1);
    tavi_bprintf(err, errlen, "line %d: bad last move '%s' (expected none, or e.g. c3-d4, "
                "a1a3-a5, b2d4xf6)", line, q);
    return -1;
}

/* Read a decimal value of a key line into *out, within lo..hi. */
static int epa_parse_num(const char *val, const char *key, uint32_t lo, uint32_t hi,
                         uint32_t *out, int line, char *err, size_t errlen)
{
    uint64_t v;
    if (tavi_parse_uint(val, hi, &v) != 0 || v < lo) {
        char q[128];
        tavi_quote(q, sizeof q, val, sizeof q - 1);
        tavi_bprintf(err, errlen, "line %d: bad %s '%s' (expected %u..%u)", line, key, q, lo,
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
        char q[41];
        if (!eq) {
            tavi_quote(q, sizeof q, buf, 40);
            tavi_bprintf(err, errlen, "line %d: expected KEY=VALUE (tomove, plies, maxplies, "
                        "last), got '%s'", line, q);
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
                tavi_quote(q, sizeof q, val, 20);
                tavi_bprintf(err, errlen, "line %d: bad tomove '%s' (expected white or black)",
                            line, q);
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
            tavi_quote(q, sizeof q, buf, 20);
            tavi_bprintf(err, errlen, "line %d: %s key '%s' (expected tomove, plies, "
                        "maxplies, last, each once)",
                        line, (strcmp(buf, "tomove") && strcmp(buf, "plies") &&
                               strcmp(buf, "maxplies") && strcmp(buf, "last")) ? "unknown"
                                                                               : "repeated",
                        q);
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

/* Where the processor runs the AVX2 copy of the hot functions: it agrees
 * with the plain copy on this state (every move listed, counted and found,
 * the noisy moves and the evaluation's score). */
static int epa_check_copies(const epaminondas_state *s, char *err, size_t errlen)
{
#if EPA_AVX2
    if (!epa_avx2())
        return 0;
    tav_move a[EPA_MAX_MOVES], b[EPA_MAX_MOVES];
    for (int side = 0; side < 2; side++) {
        int pa[8], pb[8];
        int na = tavi_epa_generate_avx2(s, side, a), nb = epa_generate_plain(s, side, b);
        int ca = tavi_epa_count_avx2(s, side, pa), cb = epa_count_plain(s, side, pb);
        if (na != nb || memcmp(a, b, (size_t)na * sizeof a[0]) != 0 || ca != cb ||
            memcmp(pa, pb, sizeof pa) != 0 || ca != na) {
            tavi_bprintf(err, errlen, "the AVX2 walk lists or counts other moves");
            return -1;
        }
        for (int i = 0; i < na; i++)
            if (tavi_epa_find_avx2(s, side, pa, i) != b[i] || epa_find_plain(s, side, pb, i) != b[i]) {
                tavi_bprintf(err, errlen, "the AVX2 walk finds another move of index %d", i);
                return -1;
            }
    }
    int na = tavi_epa_noisy_avx2(s, a), nb = epa_noisy_plain(s, b);
    if (na != nb || memcmp(a, b, (size_t)na * sizeof a[0]) != 0) {
        tavi_bprintf(err, errlen, "the AVX2 walk lists other noisy moves");
        return -1;
    }
    if (tavi_epa_score_avx2(s) != epa_score_plain(s)) {
        tavi_bprintf(err, errlen, "the AVX2 evaluation differs");
        return -1;
    }
#else
    (void)s;
    (void)err;
    (void)errlen;
#endif
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
    return epa_check_copies(s, err, errlen);
}

/* ---- The ai player's hooks: evaluation, move ordering, playout policy ----
 *
 * See docs/ai/epaminondas.md.  Everything is computed from the mover's point
 * of view (the side whose turn it is) and flipped for the other side.  All
 * scratch is on the stack; nothing is global or allocated.
 */


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
        int home = me == TAV_WHITE ? epa_popcnt(bb_word(line, 0) & bb_word(epa_row1, 0))
                                   : epa_popcnt(bb_word(line, 2) & bb_word(epa_row12, 2));
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

/* The rules for people (docs/rules/epaminondas.md has them as implemented). */
static const tav_rules_section epa_rules[] = {
    {"The goal",
     "Get more of your stones onto your opponent's home row than he has on yours, and keep them "
     "there for a whole turn. Or leave him without a legal move."},
    {"Setup",
     "Each player has 28 stones on his two back rows of a 14\u00d712 board. White moves first."},
    {"A turn",
     "A phalanx is a straight line (along a row, a column or a diagonal) of your own stones next "
     "to each other. A phalanx of k stones moves 1 to k squares along its own line, forwards or "
     "backwards, over empty squares. You may move only part of a line. A single stone moves one "
     "square in any direction.\n\n"
     "Capture: the front stone may stop on the first enemy stone in its way if the enemy's line "
     "from there on, in the same direction, is shorter than the moving phalanx. That whole enemy "
     "line is removed. A single stone never captures."},
    {"The end",
     "At the start of your turn, if you have more stones on the opponent's home row than he has "
     "on yours, you win. So a crossing must be answered at once: capture the intruder or cross "
     "yourself. A player with no legal move loses. A game that reaches its ply limit (500 plies "
     "unless the option maxplies says otherwise) is drawn."},
    {NULL, NULL},
};

const tav_game tavi_epaminondas_game = {
    .abi_version = TAV_GAME_ABI_VERSION,
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
    .move_parts = epaminondas_move_parts,
    .title = "Epaminondas",
    .pitch = "Phalanxes of stones march across a wide board: outnumber to capture, cross to win.",
    .score_words = "pieces on the board",
    .score_wins = TAV_SCORE_SHOWN,
    .rules = epa_rules,
    .explain_move = epaminondas_explain_move,
    .explain_result = epaminondas_explain_result,
    .move_group = epaminondas_move_group,
    .eval = epaminondas_eval,
    .playout_move = epaminondas_playout_move,
    .move_score = epaminondas_move_score,
    .noisy = epaminondas_noisy,
    .is_legal = epaminondas_is_legal,
};
