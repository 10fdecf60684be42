/*
 * toscana.c — Toscana (Niek Neuwahl, 2001): 2x4 tiles on a 17 x 17 board.
 *
 * Tiles.  Each player owns the 16 tiles of SPEC.md: a 2 x 4 frame, cells
 * 0 1 2 3 (top row) and 4 5 6 7 (bottom row), two of them in the other
 * colour.  A tile is kept as its index 0..15 into tos_ids / tos_offcells;
 * the four tiles whose off cells sum to 7 (07 16 25 34) look the same
 * after a half turn.  A placed tile has a rotation 0..3 (quarter turns
 * clockwise): rotations 0 and 2 lie 4 wide and 2 high, 1 and 3 lie 2 wide
 * and 4 high.  A symmetric tile only ever uses rotations 0 and 1, so every
 * distinct placement has exactly one (rotation, square) and one text.
 *
 * Data layout.  The board is kept as 17 rank words of 17 bits (bit f =
 * file f, word r = rank r + 1): `occ` (covered squares) and `light` (light
 * squares; dark = occ & ~light).  `tileat` gives the placement number + 1
 * of each covered square (for scoring: areas count tiles, not squares),
 * `place` lists the placements in order (owner, tile, rotation, origin),
 * the stacks are tile indices top first (unused slots 0).  The state is
 * plain data of 600 bytes; it holds no derived score.
 *
 * Turn structure.  `side` is the player whose turn it is; `phase` is
 * DECIDE (the opponent of `side` answers veto/accept), PLACE (side places
 * or passes) or OVER.  A turn starts with DECIDE when side's stack holds two
 * or more tiles and the opponent's veto is unused, else with PLACE.
 * `passes` counts turns passed in a row (decisions do not touch it); the
 * game ends at two, or when both stacks are empty.
 *
 * Move generation is bit-parallel per rank: with E = empty squares of a
 * rank, F_w = E & E>>1 & ... & E>>(w-1) has bit c when files c..c+w-1 are
 * empty; T = empty squares orthogonally next to a covered square of the
 * mover's colour.  For a rotation of height h and the origin rank r0 (the
 * bottom rank of the rectangle), the candidate origin files are
 *   AND_i F_w[r0+i]  &  OR_i OR_{own cell (i,d)} T[r0+i] >> d
 * (the first tile instead: the rectangle covers i9).  Cost: at most 4 x 16
 * rank steps of a few word operations, plus one bit-scan per move.
 *
 * Scoring floods each colour's squares rank by rank; a region's value is
 * the popcount of the 32-bit set of placement numbers it touches.
 *
 * Hidden information: only the order of each stack below its top tile is
 * unknown, to both players alike (the owner shuffled it face down), except
 * the bottom tile once the opponent has vetoed (it was put under in view of
 * both and stays at the bottom until it is the last).  mask() sorts the
 * unknown range by tile index, determinize() shuffles it; nothing else is
 * hidden, so the masked state lists the same moves.
 *
 * Move value: placement = bit 15 | rot | r0 << 2 | c0 << 7 (origin =
 * bottom-left square of the rectangle); pass, veto and accept are
 * TOS_MOVE_PASS / _VETO / _ACCEPT.  A `place` record adds owner << 16 and
 * tile << 17 to the placement value.
 */
#include <math.h>
#include <string.h>

#include "base/base.h"
#include "games.h"

#define TOS_N 17                 /* files and ranks */
#define TOS_TILES 16             /* tiles per player */
#define TOS_FULL 0x1ffffu        /* the 17 files of a rank word */
#define TOS_CENTRE 8             /* i9: file 8, rank 8 (0-based) */
#define TOS_MAX_MOVES 896        /* 4 rotations x 224 origins */

#define TOS_MOVE_PLACE 0x8000u
#define TOS_MOVE_PASS 0x10000u
#define TOS_MOVE_VETO 0x20000u
#define TOS_MOVE_ACCEPT 0x30000u

enum { TOS_PLACE = 0, TOS_DECIDE = 1, TOS_OVER = 2 };

typedef struct toscana_state {
    uint32_t occ[TOS_N];          /* covered squares per rank */
    uint32_t light[TOS_N];        /* light squares per rank */
    uint32_t place[2 * TOS_TILES];/* placements in order (see top) */
    uint8_t tileat[TOS_N * TOS_N];/* placement number + 1, 0 when empty */
    uint8_t stack[2][TOS_TILES];  /* tile indices, top first; unused 0 */
    uint8_t nstack[2];            /* tiles left in each stack */
    uint8_t nplaced;              /* entries of place[] */
    uint8_t side;                 /* the player whose turn it is */
    uint8_t phase;                /* TOS_PLACE, TOS_DECIDE, TOS_OVER */
    uint8_t veto[2];              /* 1 while the player's veto is unused */
    uint8_t passes;               /* turns passed in a row, 0..2 */
} toscana_state;

/* The 16 tile ids and their off-colour cells (SPEC.md order). */
static const char tos_ids[TOS_TILES][3] = { "01", "02", "03", "04", "05", "06", "07", "12",
                                            "13", "14", "15", "16", "23", "24", "25", "34" };
static const uint8_t tos_offcells[TOS_TILES][2] = {
    { 0, 1 }, { 0, 2 }, { 0, 3 }, { 0, 4 }, { 0, 5 }, { 0, 6 }, { 0, 7 }, { 1, 2 },
    { 1, 3 }, { 1, 4 }, { 1, 5 }, { 1, 6 }, { 2, 3 }, { 2, 4 }, { 2, 5 }, { 3, 4 } };

/* One rotation of a tile: size, and per rank from the bottom the own and
 * off cells as file bits relative to the rectangle's left file. */
typedef struct tos_shape {
    int w, h;
    uint32_t own[4], off[4];
} tos_shape;

/* A placed tile's fields, unpacked from a move or place record. */
typedef struct tos_placed {
    int rot, r0, c0, owner, tile;
} tos_placed;

/* 1 when the tile looks the same after a half turn. */
static inline int tos_symmetric(int tile)
{
    return tos_offcells[tile][0] + tos_offcells[tile][1] == 7;
}

/* Number of distinct rotations of a tile (2 or 4). */
static inline int tos_rotations(int tile) { return tos_symmetric(tile) ? 2 : 4; }

/* Build the shape of a tile in a rotation (quarter turns clockwise). */
static void tos_shape_make(int tile, int rot, tos_shape *sh)
{
    sh->w = (rot & 1) ? 2 : 4;
    sh->h = (rot & 1) ? 4 : 2;
    uint32_t full = (1u << sh->w) - 1;
    for (int i = 0; i < 4; i++) {
        sh->own[i] = i < sh->h ? full : 0;
        sh->off[i] = 0;
    }
    for (int k = 0; k < 2; k++) {
        int c = tos_offcells[tile][k], r = c / 4, col = c % 4, rt, ct;
        switch (rot) {
        case 0: rt = r; ct = col; break;
        case 1: rt = col; ct = 1 - r; break;
        case 2: rt = 1 - r; ct = 3 - col; break;
        default: rt = 3 - col; ct = r; break;
        }
        int rb = sh->h - 1 - rt;   /* rows counted from the bottom */
        sh->off[rb] |= 1u << ct;
        sh->own[rb] &= ~(1u << ct);
    }
}

/* Encode a placement move. */
static inline tav_move tos_move_make(int rot, int r0, int c0)
{
    return TOS_MOVE_PLACE | (uint32_t)rot | (uint32_t)r0 << 2 | (uint32_t)c0 << 7;
}

/* Decode a placement move or place record. */
static inline tos_placed tos_unpack(uint32_t m)
{
    tos_placed p;
    p.rot = (int)(m & 3);
    p.r0 = (int)(m >> 2 & 31);
    p.c0 = (int)(m >> 7 & 31);
    p.owner = (int)(m >> 16 & 1);
    p.tile = (int)(m >> 17 & 15);
    return p;
}

/* The squares of the mover's colour: light for white, dark for black. */
static inline uint32_t tos_colour_rank(const toscana_state *s, int colour, int r)
{
    return colour == TAV_WHITE ? s->light[r] : s->occ[r] & ~s->light[r];
}

/* Start the turn of s->side: decision, placement, or the end. */
static void tos_begin_turn(toscana_state *s)
{
    if (s->nstack[0] == 0 && s->nstack[1] == 0) {
        s->phase = TOS_OVER;
        s->side = TAV_WHITE;   /* canonical once over */
    } else if (s->nstack[s->side] >= 2 && s->veto[s->side ^ 1])
        s->phase = TOS_DECIDE;
    else
        s->phase = TOS_PLACE;
}

/* Every placement of the top tile of `side` (none if the stack is empty). */
static int tos_placements(const toscana_state *s, int side, tav_move *out)
{
    if (s->nstack[side] == 0)
        return 0;
    int tile = s->stack[side][0], n = 0;
    uint32_t empty[TOS_N], f2[TOS_N], f4[TOS_N], t[TOS_N];
    for (int r = 0; r < TOS_N; r++) {
        uint32_t e = ~s->occ[r] & TOS_FULL;
        f2[r] = e & e >> 1;
        f4[r] = f2[r] & f2[r] >> 2;
        empty[r] = e;
    }
    int first = s->nplaced == 0;
    if (!first)
        for (int r = 0; r < TOS_N; r++) {
            uint32_t c = tos_colour_rank(s, side, r);
            uint32_t nb = c << 1 | c >> 1;
            if (r > 0)
                nb |= tos_colour_rank(s, side, r - 1);
            if (r < TOS_N - 1)
                nb |= tos_colour_rank(s, side, r + 1);
            t[r] = nb & empty[r];
        }
    for (int rot = 0; rot < tos_rotations(tile); rot++) {
        tos_shape sh;
        tos_shape_make(tile, rot, &sh);
        const uint32_t *fw = sh.w == 4 ? f4 : f2;
        int rlo = 0, rhi = TOS_N - sh.h;
        uint32_t cover = TOS_FULL;
        if (first) {
            /* the rectangle must cover i9 */
            rlo = TOS_CENTRE - sh.h + 1;
            rhi = TOS_CENTRE;
            cover = ((1u << sh.w) - 1) << (TOS_CENTRE - sh.w + 1);
        }
        for (int r0 = rlo; r0 <= rhi; r0++) {
            uint32_t cand = cover;
            for (int i = 0; i < sh.h; i++)
                cand &= fw[r0 + i];
            if (!first) {
                uint32_t adj = 0;
                for (int i = 0; i < sh.h; i++) {
                    uint32_t own = sh.own[i], tr = t[r0 + i];
                    while (own) {
                        adj |= tr >> tavi_ctz(own);
                        own &= own - 1;
                    }
                }
                cand &= adj;
            }
            while (cand) {
                out[n++] = tos_move_make(rot, r0, tavi_ctz(cand));
                cand &= cand - 1;
            }
        }
    }
    return n;
}

/* Flood-fill the region of `mask` (per rank) containing the seed in `x`. */
static void tos_flood(const uint32_t *mask, uint32_t *x)
{
    int changed = 1;
    while (changed) {
        changed = 0;
        for (int pass = 0; pass < 2; pass++)
            for (int k = 0; k < TOS_N; k++) {
                int r = pass ? TOS_N - 1 - k : k;
                uint32_t v = x[r];
                if (r > 0)
                    v |= x[r - 1] & mask[r];
                if (r < TOS_N - 1)
                    v |= x[r + 1] & mask[r];
                for (;;) {
                    uint32_t g = (v | v << 1 | v >> 1) & mask[r];
                    if (g == v)
                        break;
                    v = g;
                }
                if (v != x[r]) {
                    x[r] = v;
                    changed = 1;
                }
            }
    }
}

/* The next region of a colour: `rest` holds its squares not yet visited;
 * the region of the lowest of them (a1 first, along rank 1, then rank 2,
 * ...) goes to x and leaves rest.  Returns the tiles it touches, 0 when rest
 * is empty. */
static int tos_next_region(const toscana_state *s, uint32_t *rest, uint32_t *x)
{
    int r = 0;
    while (r < TOS_N && !rest[r])
        r++;
    if (r == TOS_N)
        return 0;
    memset(x, 0, sizeof(uint32_t) * TOS_N);
    x[r] = rest[r] & -rest[r];
    tos_flood(rest, x);
    uint32_t tiles = 0;
    for (int q = r; q < TOS_N; q++) {
        uint32_t b = x[q];
        rest[q] &= ~b;
        while (b) {
            tiles |= 1u << (s->tileat[q * TOS_N + tavi_ctz(b)] - 1);
            b &= b - 1;
        }
    }
    return tavi_popcount(tiles);
}

/* The largest area of a colour: its tile count; its squares in `best` (may
 * be NULL).  Ties go to the region holding the lowest square (a1 first,
 * along rank 1, then rank 2, ...). */
static int tos_area(const toscana_state *s, int colour, uint32_t *best)
{
    uint32_t rest[TOS_N], x[TOS_N];
    int top = 0, v;
    for (int r = 0; r < TOS_N; r++) {
        rest[r] = tos_colour_rank(s, colour, r);
        if (best)
            best[r] = 0;
    }
    while ((v = tos_next_region(s, rest, x)) > 0)
        if (v > top) {
            top = v;
            if (best)
                memcpy(best, x, sizeof x);
        }
    return top;
}

/* Put a tile on the board (no rule checks) as placement number nplaced. */
static void tos_put(toscana_state *s, int owner, int tile, int rot, int r0, int c0)
{
    tos_shape sh;
    tos_shape_make(tile, rot, &sh);
    uint32_t full = (1u << sh.w) - 1;
    int id = s->nplaced;
    for (int i = 0; i < sh.h; i++) {
        int r = r0 + i;
        s->occ[r] |= full << c0;
        s->light[r] |= (owner == TAV_WHITE ? sh.own[i] : sh.off[i]) << c0;
        for (int f = c0; f < c0 + sh.w; f++)
            s->tileat[r * TOS_N + f] = (uint8_t)(id + 1);
    }
    s->place[id] = tos_move_make(rot, r0, c0) | (uint32_t)owner << 16 | (uint32_t)tile << 17;
    s->nplaced++;
}

/* Remove the top tile of a stack. */
static void tos_pop(toscana_state *s, int side)
{
    int n = s->nstack[side];
    memmove(s->stack[side], s->stack[side] + 1, (size_t)(n - 1));
    s->stack[side][n - 1] = 0;
    s->nstack[side] = (uint8_t)(n - 1);
}

/* Parse a comma-separated list of tile ids into a stack: distinct valid
 * ids; exactly 16 when `need16`.  Returns the count or -1. */
static int tos_parse_stack(const char *v, uint8_t *out, int need16, char *err, size_t errlen)
{
    int n = 0;
    unsigned seen = 0;
    const char *p = v;
    char at[9], q[61];   /* quoted in messages */
    if (*p == '\0' && !need16)
        return 0;
    for (;;) {
        int t = -1;
        for (int k = 0; k < TOS_TILES; k++)
            if (p[0] == tos_ids[k][0] && p[1] == tos_ids[k][1] &&
                (p[2] == ',' || p[2] == '\0'))
                t = k;
        if (t < 0) {
            tavi_quote(at, sizeof at, p, 8);
            tavi_quote(q, sizeof q, v, 60);
            tavi_bprintf(err, errlen, "bad tile id at '%s' in '%s' (expected two-digit ids "
                        "01 02 03 04 05 06 07 12 13 14 15 16 23 24 25 34, comma-separated)",
                        at, q);
            return -1;
        }
        if (seen >> t & 1) {
            tavi_quote(q, sizeof q, v, 60);
            tavi_bprintf(err, errlen, "tile %s given twice in '%s'", tos_ids[t], q);
            return -1;
        }
        if (n >= TOS_TILES) {
            tavi_quote(q, sizeof q, v, 60);
            tavi_bprintf(err, errlen, "more than 16 tiles in '%s'", q);
            return -1;
        }
        seen |= 1u << t;
        out[n++] = (uint8_t)t;
        if (p[2] == '\0')
            break;
        p += 3;
    }
    if (need16 && n != TOS_TILES) {
        tavi_quote(q, sizeof q, v, 60);
        tavi_bprintf(err, errlen, "%d tiles in '%s' (expected all 16, each once)", n, q);
        return -1;
    }
    return n;
}

/* Write a stack as comma-separated ids, top first. */
static size_t tos_stack_text(const toscana_state *s, int side, char *buf, size_t n)
{
    size_t k = 0;
    buf[0] = '\0';
    for (int i = 0; i < s->nstack[side]; i++)
        k += tavi_bprintf(buf + k, n - k, "%s%s", i ? "," : "", tos_ids[s->stack[side][i]]);
    return k;
}

/* Shuffle the 16 tiles into a stack (Fisher-Yates from the top index down). */
static void tos_shuffle(uint8_t *stack, tav_rng *rng)
{
    for (int i = 0; i < TOS_TILES; i++)
        stack[i] = (uint8_t)i;
    for (int i = TOS_TILES - 1; i > 0; i--) {
        int j = (int)tav_rng_below(rng, (uint32_t)(i + 1));
        uint8_t x = stack[i];
        stack[i] = stack[j];
        stack[j] = x;
    }
}

/* Set up a new game: options seed=N, white=IDS, black=IDS; without seed=
 * the stacks are dealt from `seed`. */
static int toscana_setup(void *st, const char *options, uint64_t seed, char *err, size_t errlen)
{
    toscana_state t;
    memset(&t, 0, sizeof t);
    int have_seed = 0, have[2] = { 0, 0 };
    uint8_t given[2][TOS_TILES];
    tavi_optiter it = { options ? options : "" };
    char key[32], val[256];
    int rc;
    while ((rc = tavi_opt_next(&it, key, sizeof key, val, sizeof val, err, errlen)) == 1) {
        if (strcmp(key, "seed") == 0) {
            if (have_seed) {
                tavi_bprintf(err, errlen, "option 'seed' given twice");
                return -1;
            }
            if (tavi_parse_uint(val, UINT64_MAX, &seed) != 0) {
                char q[41];
                tavi_quote(q, sizeof q, val, 40);
                tavi_bprintf(err, errlen, "bad seed '%s' (expected a non-negative integer)", q);
                return -1;
            }
            have_seed = 1;
        } else if (strcmp(key, "white") == 0 || strcmp(key, "black") == 0) {
            int side = key[0] == 'b';
            if (have[side]) {
                tavi_bprintf(err, errlen, "option '%s' given twice", key);
                return -1;
            }
            char e2[200];
            if (tos_parse_stack(val, given[side], 1, e2, sizeof e2) < 0) {
                tavi_bprintf(err, errlen, "%s: %s", key, e2);
                return -1;
            }
            have[side] = 1;
        } else {
            char q[25];
            tavi_quote(q, sizeof q, key, 24);
            tavi_bprintf(err, errlen, "unknown option '%s' (expected seed=N, white=ID,...,ID "
                        "and black=ID,...,ID)", q);
            return -1;
        }
    }
    if (rc < 0)
        return -1;
    tav_rng rng;
    tav_rng_seed(&rng, seed);
    for (int side = 0; side < 2; side++) {
        tos_shuffle(t.stack[side], &rng);   /* always drawn: same seed, same stacks */
        if (have[side])
            memcpy(t.stack[side], given[side], TOS_TILES);
        t.nstack[side] = TOS_TILES;
        t.veto[side] = 1;
    }
    t.side = TAV_WHITE;
    tos_begin_turn(&t);
    memcpy(st, &t, sizeof t);
    return 0;
}

/* init: the deal of seed 1 unless the options give one. */
static int toscana_init(void *st, const char *options, char *err, size_t errlen)
{
    return toscana_setup(st, options, 1, err, errlen);
}

/* Every legal action of the player to act. */
static int toscana_legal(const void *st, tav_move *out)
{
    const toscana_state *s = st;
    if (s->phase == TOS_OVER)
        return 0;
    if (s->phase == TOS_DECIDE) {
        out[0] = TOS_MOVE_VETO;
        out[1] = TOS_MOVE_ACCEPT;
        return 2;
    }
    int n = tos_placements(s, s->side, out);
    if (n == 0)
        out[n++] = TOS_MOVE_PASS;
    return n;
}

/* Play a listed action. */
static void toscana_play(void *st, tav_move m)
{
    toscana_state *s = st;
    int side = s->side;
    if (m == TOS_MOVE_ACCEPT) {
        s->phase = TOS_PLACE;
    } else if (m == TOS_MOVE_VETO) {
        /* the vetoed tile goes under; the next one is placed at once */
        int n = s->nstack[side];
        uint8_t top = s->stack[side][0];
        memmove(s->stack[side], s->stack[side] + 1, (size_t)(n - 1));
        s->stack[side][n - 1] = top;
        s->veto[side ^ 1] = 0;
        s->phase = TOS_PLACE;
    } else if (m == TOS_MOVE_PASS) {
        if (++s->passes >= 2) {
            s->phase = TOS_OVER;
            s->side = TAV_WHITE;   /* canonical once over */
        } else {
            s->side = (uint8_t)(side ^ 1);
            tos_begin_turn(s);
        }
    } else {
        tos_placed p = tos_unpack(m);
        tos_put(s, side, s->stack[side][0], p.rot, p.r0, p.c0);
        tos_pop(s, side);
        s->passes = 0;
        s->side = (uint8_t)(side ^ 1);
        tos_begin_turn(s);
    }
}

/* The player who acts: the decider during a decision. */
static int toscana_to_move(const void *st)
{
    const toscana_state *s = st;
    if (s->phase == TOS_OVER)
        return TAV_NONE;
    return s->phase == TOS_DECIDE ? s->side ^ 1 : s->side;
}

/* Scores (largest areas in tiles) and, at the end, the winner. */
static void toscana_result(const void *st, tav_result *r)
{
    const toscana_state *s = st;
    r->score[0] = tos_area(s, TAV_WHITE, NULL);
    r->score[1] = tos_area(s, TAV_BLACK, NULL);
    r->over = s->phase == TOS_OVER;
    if (!r->over)
        r->winner = TAV_NONE;
    else
        r->winner = r->score[0] > r->score[1]   ? TAV_WHITE
                    : r->score[1] > r->score[0] ? TAV_BLACK
                                                : TAV_DRAW;
}

/* Text of a placement: rectangle corners, then the off squares sorted. */
static int tos_place_text(int tile, int rot, int r0, int c0, char *buf, size_t n)
{
    tos_shape sh;
    tos_shape_make(tile, rot, &sh);
    char a[8], b[8], o[2][8];
    int k = 0;
    tavi_square_str(c0, r0 + sh.h - 1, a);
    tavi_square_str(c0 + sh.w - 1, r0, b);
    /* files left to right, ranks bottom up within a file: sorted order */
    for (int d = 0; d < sh.w; d++)
        for (int i = 0; i < sh.h; i++)
            if (sh.off[i] >> d & 1 && k < 2)
                tavi_square_str(c0 + d, r0 + i, o[k++]);
    return (int)tavi_bprintf(buf, n, "%s-%s:%s,%s", a, b, o[0], o[1]);
}

/* Canonical text of a legal action. */
static int toscana_move_str(const void *st, tav_move m, char *buf, size_t n)
{
    const toscana_state *s = st;
    if (m == TOS_MOVE_PASS)
        return (int)tavi_bprintf(buf, n, "pass");
    if (m == TOS_MOVE_VETO)
        return (int)tavi_bprintf(buf, n, "veto");
    if (m == TOS_MOVE_ACCEPT)
        return (int)tavi_bprintf(buf, n, "accept");
    tos_placed p = tos_unpack(m);
    return tos_place_text(s->stack[s->side][0], p.rot, p.r0, p.c0, buf, n);
}

/* The square (file, rank) under frame cell c (row c / 4 from the top,
 * column c % 4) of a tile in rotation rot with origin (c0, r0). */
static void tos_cell_square(int c, int rot, int r0, int c0, int *file, int *rank)
{
    int r = c / 4, col = c % 4, rt, ct;
    switch (rot) {   /* as tos_shape_make turns the off cells */
    case 0: rt = r; ct = col; break;
    case 1: rt = col; ct = 1 - r; break;
    case 2: rt = 1 - r; ct = 3 - col; break;
    default: rt = 3 - col; ct = r; break;
    }
    int h = (rot & 1) ? 4 : 2;
    *file = c0 + ct;
    *rank = r0 + h - 1 - rt;
}

/* The parts of an action: the tile (the mover's top tile, which everyone
 * sees), its rotation, its squares in frame order and its off squares. */
static int toscana_move_parts(const void *st, tav_move m, tav_move_parts *p)
{
    const toscana_state *s = st;
    if (m == TOS_MOVE_PASS || m == TOS_MOVE_VETO || m == TOS_MOVE_ACCEPT) {
        tavi_parts_action(p, m == TOS_MOVE_PASS ? "pass" : m == TOS_MOVE_VETO ? "veto" : "accept");
        return 0;
    }
    if (!(m & TOS_MOVE_PLACE) || s->nstack[s->side] == 0)
        return -1;
    tos_placed pl = tos_unpack(m);
    int tile = s->stack[s->side][0];
    tavi_parts_action(p, "place");
    memcpy(p->piece, tos_ids[tile], 3);
    p->rotation = (int8_t)pl.rot;
    for (int c = 0; c < 8; c++) {
        int f, r;
        tos_cell_square(c, pl.rot, pl.r0, pl.c0, &f, &r);
        tavi_parts_square(p, f, r);
    }
    for (int k = 0; k < 2; k++) {
        int f, r;
        tos_cell_square(tos_offcells[tile][k], pl.rot, pl.r0, pl.c0, &f, &r);
        tavi_parts_mark(p, f, r);
    }
    return 0;
}

/* Zobrist-style hash: placed tiles (order-free), stacks, turn data. */
static uint64_t toscana_hash(const void *st)
{
    const toscana_state *s = st;
    uint64_t h = 0;
    for (int i = 0; i < s->nplaced; i++)
        h ^= tavi_mix64(0x7100000000ULL | (s->place[i] & 0x1fffffu));
    for (int side = 0; side < 2; side++) {
        for (int i = 0; i < s->nstack[side]; i++)
            h ^= tavi_mix64(0x7200000000ULL | (uint64_t)side << 12 | (uint64_t)i << 4 |
                           s->stack[side][i]);
        h ^= tavi_mix64(0x7300000000ULL | (uint64_t)side << 4 | s->nstack[side]);
        if (s->veto[side])
            h ^= tavi_mix64(0x7400000000ULL | (uint64_t)side);
    }
    h ^= tavi_mix64(0x7500000000ULL | (uint64_t)s->side << 8 | (uint64_t)s->phase << 4 |
                   s->passes);
    return h;
}

/* The glyph of a covered square: W/w on white tiles, B/b on black ones,
 * upper case in the owner's colour, lower case in the off colour. */
static char tos_glyph(const toscana_state *s, int r, int f)
{
    int id = s->tileat[r * TOS_N + f];
    if (!id)
        return '.';
    int owner = (int)(s->place[id - 1] >> 16 & 1);
    int light = (int)(s->light[r] >> f & 1);
    if (owner == TAV_WHITE)
        return light ? 'W' : 'w';
    return light ? 'b' : 'B';
}

/* The drawing view for any viewer: tiles as light / dark squares with their
 * placement number, the largest areas, the centre before the first tile,
 * and of each stack only its visible top (with its 2x4 frame), its size and
 * the veto: never the order below the top. */
static void toscana_board_view(const void *st, int viewer, tav_board_view *v)
{
    const toscana_state *s = st;
    (void)viewer;
    memset(v, 0, sizeof *v);
    v->light_dark = 1;
    v->hands = TAV_HANDS_TILES;
    v->width = v->height = TOS_N;
    uint32_t area[2][TOS_N];
    int sc[2];
    sc[0] = tos_area(s, TAV_WHITE, area[0]);
    sc[1] = tos_area(s, TAV_BLACK, area[1]);
    for (int r = 0; r < TOS_N; r++)
        for (int f = 0; f < TOS_N; f++) {
            tav_square *q = &v->sq[r * TOS_N + f];
            int id = s->tileat[r * TOS_N + f];
            q->owner = TAV_NONE;
            q->glyph = tos_glyph(s, r, f);
            if (id) {
                q->kind = (s->light[r] >> f & 1) ? 'L' : 'D';
                q->owner = (int8_t)(s->place[id - 1] >> 16 & 1);
                q->piece = (uint16_t)id;
                if (id == s->nplaced)
                    q->marks |= TAV_MARK_LAST;
            }
            if (area[0][r] >> f & 1)
                q->marks |= TAV_MARK_AREA_W;
            if (area[1][r] >> f & 1)
                q->marks |= TAV_MARK_AREA_B;
            if (s->nplaced == 0 && r == TOS_CENTRE && f == TOS_CENTRE)
                q->marks |= TAV_MARK_CENTRE;
        }
    for (int side = 0; side < 2; side++) {
        tav_side_view *sv = &v->side[side];
        sv->stack = s->nstack[side];
        sv->veto = s->veto[side] ? 1 : 0;
        sv->score = sc[side];
        for (int i = 0; i < s->nplaced; i++)
            sv->on_board += (int)(s->place[i] >> 16 & 1) == side;
        if (s->nstack[side]) {
            tav_hand_item *it = &sv->item[sv->nitems++];
            int tile = s->stack[side][0];
            it->kind = 'S';
            memcpy(it->id, tos_ids[tile], 3);
            it->count = 1;
            it->ncells = 8;
            for (int c = 0; c < 8; c++) {
                it->cell[c][0] = (int8_t)(c % 4);
                it->cell[c][1] = (int8_t)(c < 4 ? 1 : 0);
                it->offcolour[c] = c == tos_offcells[tile][0] || c == tos_offcells[tile][1];
            }
        }
        if (s->nstack[side])
            tavi_bprintf(sv->text, sizeof sv->text, "top %s, %d tiles left, veto %s",
                        tos_ids[s->stack[side][0]], s->nstack[side],
                        s->veto[side] ? "unused" : "used");
        else
            tavi_bprintf(sv->text, sizeof sv->text, "no tiles left, veto %s",
                        s->veto[side] ? "unused" : "used");
        tav_region *rg = &v->region[v->nregions++];
        rg->id = (uint16_t)(side + 1);
        rg->value[side] = sc[side];
        rg->scorer = side;
        rg->points = sc[side];
    }
    v->to_move = toscana_to_move(st);
    tavi_bprintf(v->phase, sizeof v->phase, "%s",
                s->phase == TOS_OVER ? "over" : s->phase == TOS_DECIDE ? "decision" : "play");
    tavi_bprintf(v->info, sizeof v->info, "largest areas %d:%d tiles, %d tiles placed, %d pass%s "
                "in a row", sc[0], sc[1], s->nplaced, s->passes, s->passes == 1 ? "" : "es");
    if (s->phase == TOS_OVER) {
        char why[128];
        if (s->nstack[0] == 0 && s->nstack[1] == 0)
            tavi_bprintf(why, sizeof why, "Every tile was played.");
        else
            tavi_bprintf(why, sizeof why,
                        "No tile could be placed: both passed, with %d tile%s left to White and "
                        "%d to Black.", s->nstack[0], s->nstack[0] == 1 ? "" : "s", s->nstack[1]);
        if (sc[0] == sc[1])
            tavi_bprintf(v->end, sizeof v->end, "%s Both largest areas touch %d tiles: a draw.",
                        why, sc[0]);
        else
            tavi_bprintf(v->end, sizeof v->end,
                        "%s White's largest area touches %d tiles, Black's %d: %s wins.", why,
                        sc[0], sc[1], sc[0] > sc[1] ? "White" : "Black");
    }
    if (s->nplaced) {
        tos_placed p = tos_unpack(s->place[s->nplaced - 1]);
        tos_place_text(p.tile, p.rot, p.r0, p.c0, v->last_move, sizeof v->last_move);
    }
}

/* Parse one placement "W:i10-j7:i8,j10" and put it on t; -1 with err. */
static int tos_parse_tile(toscana_state *t, const char *tok, int line, char *err, size_t errlen)
{
    const char *p = tok;
    int owner, f[4], r[4];
    char q[25];   /* the tile as quoted in messages */
    tavi_quote(q, sizeof q, tok, 24);
    if ((p[0] != 'W' && p[0] != 'B') || p[1] != ':') {
        tavi_bprintf(err, errlen, "line %d: tile '%s' must start with W: or B:", line, q);
        return -1;
    }
    owner = p[0] == 'B';
    p += 2;
    static const char sep[4] = { '-', ':', ',', '\0' };
    for (int k = 0; k < 4; k++) {
        if (tavi_square_parse(&p, TOS_N, TOS_N, &f[k], &r[k]) != 0 || *p != sep[k]) {
            tavi_bprintf(err, errlen, "line %d: tile '%s' is not OWNER:TOPLEFT-BOTTOMRIGHT:"
                        "SQ,SQ on a..q, 1..17", line, q);
            return -1;
        }
        if (*p)
            p++;
    }
    int w = f[1] - f[0] + 1, h = r[0] - r[1] + 1;
    if (!((w == 4 && h == 2) || (w == 2 && h == 4))) {
        tavi_bprintf(err, errlen, "line %d: tile '%s' does not cover 2 x 4 squares", line, q);
        return -1;
    }
    int r0 = r[1], c0 = f[0];
    for (int tile = 0; tile < TOS_TILES; tile++)
        for (int rot = 0; rot < tos_rotations(tile); rot++) {
            if (((rot & 1) ? 2 : 4) != w)
                continue;
            char txt[TAV_MOVE_TEXT];
            tos_place_text(tile, rot, r0, c0, txt, sizeof txt);
            if (strcmp(txt, tok + 2) != 0)
                continue;
            for (int i = 0; i < h; i++)
                if (t->occ[r0 + i] & ((1u << w) - 1) << c0) {
                    tavi_bprintf(err, errlen, "line %d: tile '%s' overlaps another tile",
                                line, q);
                    return -1;
                }
            if (t->nplaced >= 2 * TOS_TILES) {
                tavi_bprintf(err, errlen, "line %d: more than 32 tiles", line);
                return -1;
            }
            for (int i = 0; i < t->nplaced; i++)
                if ((int)(t->place[i] >> 16 & 1) == owner && (int)(t->place[i] >> 17 & 15) == tile) {
                    tavi_bprintf(err, errlen, "line %d: %s tile %s placed twice", line,
                                tav_side_name(owner), tos_ids[tile]);
                    return -1;
                }
            tos_put(t, owner, tile, rot, r0, c0);
            return 0;
        }
    tavi_bprintf(err, errlen, "line %d: tile '%s': no tile shows its off colour on exactly "
                "those two squares (listed sorted)", line, q);
    return -1;
}

/* The position keys, in the order get_position writes them. */
static const char *const tos_keys[7] = { "tomove", "phase", "white", "black", "veto", "passes",
                                         "tiles" };

/* Set the whole state from position text (see docs/rules/toscana.md). */
static int toscana_set_position(void *st, const char *text, char *err, size_t errlen)
{
    toscana_state t;
    memset(&t, 0, sizeof t);
    char board[TOS_N][TOS_N + 1];
    char val[7][600];
    int vline[7] = { 0 };
    int nboard = 0, line = 0;
    const char *p = text ? text : "";
    while (*p) {
        char buf[600];
        const char *e = strchr(p, '\n');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        line++;
        while (len > 0 && (p[len - 1] == ' ' || p[len - 1] == '\t' || p[len - 1] == '\r'))
            len--;
        const char *q = p;
        while (len > 0 && (*q == ' ' || *q == '\t')) {
            q++;
            len--;
        }
        p = e ? e + 1 : p + strlen(p);
        if (len == 0)
            continue;
        if (len >= sizeof buf) {
            tavi_bprintf(err, errlen, "line %d: too long", line);
            return -1;
        }
        memcpy(buf, q, len);
        buf[len] = '\0';
        if (nboard < TOS_N) {
            int rank = TOS_N - nboard;
            if (len != TOS_N) {
                tavi_bprintf(err, errlen, "line %d (rank %d): expected 17 squares, got %zu", line,
                            rank, len);
                return -1;
            }
            for (int f = 0; f < TOS_N; f++)
                if (!strchr(".WwBb", buf[f]) || buf[f] == '\0') {
                    tavi_bprintf(err, errlen, "line %d, column %d: expected '.', 'W', 'w', 'B' or "
                                "'b', got '%c'", line, f + 1,
                                (buf[f] > ' ' && buf[f] < 127) ? buf[f] : '?');
                    return -1;
                }
            memcpy(board[nboard++], buf, TOS_N + 1);
            continue;
        }
        char *eq = strchr(buf, '=');
        int k = -1;
        if (eq) {
            *eq = '\0';
            for (int i = 0; i < 7; i++)
                if (strcmp(buf, tos_keys[i]) == 0)
                    k = i;
        }
        if (k < 0 || vline[k]) {
            char kq[21];
            tavi_quote(kq, sizeof kq, buf, 20);
            tavi_bprintf(err, errlen, "line %d: %s '%s' (expected KEY=VALUE with keys tomove, "
                        "phase, white, black, veto, passes, tiles, each once)", line,
                        k < 0 ? "unknown key" : "repeated key", kq);
            return -1;
        }
        vline[k] = line;
        memcpy(val[k], eq + 1, strlen(eq + 1) + 1);
    }
    if (nboard < TOS_N) {
        tavi_bprintf(err, errlen, "expected 17 board lines, got %d", nboard);
        return -1;
    }
    for (int k = 0; k < 7; k++)
        if (!vline[k]) {
            tavi_bprintf(err, errlen, "missing line %s=...", tos_keys[k]);
            return -1;
        }
    /* stacks */
    for (int side = 0; side < 2; side++) {
        char e2[200];
        int n = tos_parse_stack(val[2 + side], t.stack[side], 0, e2, sizeof e2);
        if (n < 0) {
            tavi_bprintf(err, errlen, "line %d: %s", vline[2 + side], e2);
            return -1;
        }
        t.nstack[side] = (uint8_t)n;
    }
    /* tiles, in placement order */
    if (strcmp(val[6], "-") != 0 && val[6][0]) {
        char *tok = val[6];
        for (;;) {
            char *sp = strchr(tok, ' ');
            if (sp)
                *sp = '\0';
            if (*tok && tos_parse_tile(&t, tok, vline[6], err, errlen) != 0)
                return -1;
            if (!sp)
                break;
            tok = sp + 1;
        }
    }
    /* each player's placed and stacked tiles are his 16 tiles */
    for (int side = 0; side < 2; side++) {
        unsigned seen = 0;
        for (int i = 0; i < t.nstack[side]; i++)
            seen |= 1u << t.stack[side][i];
        for (int i = 0; i < t.nplaced; i++)
            if ((int)(t.place[i] >> 16 & 1) == side) {
                unsigned b = 1u << (t.place[i] >> 17 & 15);
                if (seen & b) {
                    tavi_bprintf(err, errlen, "line %d: %s tile %s is both placed and in the "
                                "stack", vline[2 + side], tav_side_name(side),
                                tos_ids[t.place[i] >> 17 & 15]);
                    return -1;
                }
                seen |= b;
            }
        if (seen != 0xffffu) {
            tavi_bprintf(err, errlen, "line %d: %s's stack and placed tiles are %d of his 16 "
                        "tiles (expected all 16)", vline[2 + side], tav_side_name(side),
                        tavi_popcount(seen));
            return -1;
        }
    }
    /* the board lines agree with the tiles */
    for (int i = 0; i < TOS_N; i++)
        for (int f = 0; f < TOS_N; f++) {
            char g = tos_glyph(&t, TOS_N - 1 - i, f);
            if (board[i][f] != g) {
                tavi_bprintf(err, errlen, "board line %d, column %d: shows '%c' but the tiles "
                            "give '%c'", i + 1, f + 1, board[i][f], g);
                return -1;
            }
        }
    char vq[21];   /* a bad value as quoted in messages */
    /* veto */
    if (strcmp(val[4], "white,black") == 0)
        t.veto[0] = t.veto[1] = 1;
    else if (strcmp(val[4], "white") == 0)
        t.veto[0] = 1;
    else if (strcmp(val[4], "black") == 0)
        t.veto[1] = 1;
    else if (strcmp(val[4], "none") != 0) {
        tavi_quote(vq, sizeof vq, val[4], 20);
        tavi_bprintf(err, errlen, "line %d: bad veto '%s' (expected the players whose veto is "
                    "unused: white,black | white | black | none)", vline[4], vq);
        return -1;
    }
    /* passes */
    if (strlen(val[5]) != 1 || val[5][0] < '0' || val[5][0] > '2') {
        tavi_quote(vq, sizeof vq, val[5], 20);
        tavi_bprintf(err, errlen, "line %d: bad passes '%s' (expected 0, 1 or 2)", vline[5], vq);
        return -1;
    }
    t.passes = (uint8_t)(val[5][0] - '0');
    /* phase and tomove */
    int tomove;
    if (strcmp(val[0], "white") == 0)
        tomove = TAV_WHITE;
    else if (strcmp(val[0], "black") == 0)
        tomove = TAV_BLACK;
    else if (strcmp(val[0], "none") == 0)
        tomove = TAV_NONE;
    else {
        tavi_quote(vq, sizeof vq, val[0], 20);
        tavi_bprintf(err, errlen, "line %d: bad tomove '%s' (expected white, black or none)",
                    vline[0], vq);
        return -1;
    }
    int ended = (t.nstack[0] == 0 && t.nstack[1] == 0) || t.passes == 2;
    if (strcmp(val[1], "over") == 0) {
        if (!ended || tomove != TAV_NONE) {
            tavi_bprintf(err, errlen, "line %d: phase=over needs tomove=none and both stacks "
                        "empty or passes=2", vline[1]);
            return -1;
        }
        t.phase = TOS_OVER;
        /* side: who would have moved next; kept canonical as white */
        t.side = TAV_WHITE;
    } else if (strcmp(val[1], "place") == 0 || strcmp(val[1], "decide") == 0) {
        if (ended) {
            tavi_bprintf(err, errlen, "line %d: the game is over (both stacks empty or passes=2): "
                        "expected phase=over", vline[1]);
            return -1;
        }
        if (tomove == TAV_NONE) {
            tavi_bprintf(err, errlen, "line %d: tomove=none while the game goes on", vline[0]);
            return -1;
        }
        if (val[1][0] == 'p') {
            t.phase = TOS_PLACE;
            t.side = (uint8_t)tomove;
        } else {
            t.phase = TOS_DECIDE;
            t.side = (uint8_t)(tomove ^ 1);
            if (!t.veto[tomove] || t.nstack[t.side] < 2) {
                tavi_bprintf(err, errlen, "line %d: phase=decide needs the decider's veto unused "
                            "and two or more tiles in the other stack", vline[1]);
                return -1;
            }
        }
    } else {
        tavi_quote(vq, sizeof vq, val[1], 20);
        tavi_bprintf(err, errlen, "line %d: bad phase '%s' (expected decide, place or over)",
                    vline[1], vq);
        return -1;
    }
    memcpy(st, &t, sizeof t);
    return 0;
}

static int tos_hidden_end(const toscana_state *s, int side);

/* A stack as the players see it: the top, '?' for each tile whose place is
 * unknown, and the bottom tile once it is known (put under after a veto). */
static void tos_public_stack_text(const toscana_state *s, int side, char *buf, size_t n)
{
    size_t k = 0;
    int end = tos_hidden_end(s, side);
    buf[0] = '\0';
    for (int i = 0; i < s->nstack[side]; i++)
        k += tavi_bprintf(buf + k, n - k, "%s%s", i ? "," : "",
                         i >= 1 && i < end ? "?" : tos_ids[s->stack[side][i]]);
}

static int tos_position(const toscana_state *s, int public, char *buf, size_t n);

/* Write the position text: 17 ranks (rank 17 first), then the key lines. */
static int toscana_get_position(const void *st, char *buf, size_t n)
{
    return tos_position(st, 0, buf, n);
}

/* The position text anyone may see: the order below the stack tops is
 * written as '?' (nobody knows it; see toscana_mask). */
static int toscana_public_position(const void *st, int viewer, char *buf, size_t n)
{
    (void)viewer;
    return tos_position(st, 1, buf, n);
}

static int tos_position(const toscana_state *s, int public, char *buf, size_t n)
{
    const void *st = s;
    char text[TAV_POSITION_TEXT], ws[64], bs[64];
    size_t k = 0;
    for (int r = TOS_N - 1; r >= 0; r--) {
        for (int f = 0; f < TOS_N; f++)
            text[k++] = tos_glyph(s, r, f);
        text[k++] = '\n';
    }
    if (public) {
        tos_public_stack_text(s, TAV_WHITE, ws, sizeof ws);
        tos_public_stack_text(s, TAV_BLACK, bs, sizeof bs);
    } else {
        tos_stack_text(s, TAV_WHITE, ws, sizeof ws);
        tos_stack_text(s, TAV_BLACK, bs, sizeof bs);
    }
    int tm = toscana_to_move(st);
    k += tavi_bprintf(text + k, sizeof text - k,
                     "tomove=%s\nphase=%s\nwhite=%s\nblack=%s\nveto=%s\npasses=%d\ntiles=",
                     tm == TAV_NONE ? "none" : tav_side_name(tm),
                     s->phase == TOS_OVER ? "over" : s->phase == TOS_DECIDE ? "decide" : "place",
                     ws, bs,
                     s->veto[0] && s->veto[1] ? "white,black"
                     : s->veto[0]             ? "white"
                     : s->veto[1]             ? "black"
                                              : "none",
                     s->passes);
    if (s->nplaced == 0)
        k += tavi_bprintf(text + k, sizeof text - k, "-");
    for (int i = 0; i < s->nplaced; i++) {
        tos_placed p = tos_unpack(s->place[i]);
        char mv[TAV_MOVE_TEXT];
        tos_place_text(p.tile, p.rot, p.r0, p.c0, mv, sizeof mv);
        k += tavi_bprintf(text + k, sizeof text - k, "%s%c:%s", i ? " " : "",
                         p.owner ? 'B' : 'W', mv);
    }
    return (int)tavi_bprintf(buf, n, "%s", text);
}

/* The hidden part of a stack: [1, end) — the top is public, and so is the
 * bottom tile once the opponent has vetoed (it is the vetoed tile). */
static int tos_hidden_end(const toscana_state *s, int side)
{
    int n = s->nstack[side];
    if (n >= 2 && !s->veto[side ^ 1])
        return n - 1;
    return n;
}

/* Canonical hidden information: the hidden part of each stack sorted. */
static void toscana_mask(void *st, int viewer)
{
    toscana_state *s = st;
    (void)viewer;   /* both players see the same: nobody knows the order */
    for (int side = 0; side < 2; side++) {
        uint8_t *a = s->stack[side];
        int end = tos_hidden_end(s, side);
        for (int i = 2; i < end; i++)
            for (int j = i; j > 1 && a[j - 1] > a[j]; j--) {
                uint8_t x = a[j];
                a[j] = a[j - 1];
                a[j - 1] = x;
            }
    }
}

/* Shuffle the hidden part of each stack. */
static void toscana_determinize(void *st, int viewer, tav_rng *rng)
{
    toscana_state *s = st;
    (void)viewer;
    for (int side = 0; side < 2; side++) {
        uint8_t *a = s->stack[side];
        int end = tos_hidden_end(s, side);
        for (int i = end - 1; i > 1; i--) {
            int j = 1 + (int)tav_rng_below(rng, (uint32_t)i);
            uint8_t x = a[i];
            a[i] = a[j];
            a[j] = x;
        }
    }
}

/* Parse "white"/"black" (also "W"/"B"); -1 otherwise. */
static int tos_side_arg(const char *a)
{
    if (strcmp(a, "white") == 0 || strcmp(a, "W") == 0)
        return TAV_WHITE;
    if (strcmp(a, "black") == 0 || strcmp(a, "B") == 0)
        return TAV_BLACK;
    return -1;
}

/* Game queries: stack, area, masked, veto, passes, tiles, symmetric, tile ID. */
static int toscana_probe(const void *st, const char *key, char *out, size_t n)
{
    const toscana_state *s = st;
    char word[16], arg[32];
    const char *sp = strchr(key, ' ');
    size_t wl = sp ? (size_t)(sp - key) : strlen(key);
    if (wl >= sizeof word)
        return -1;
    memcpy(word, key, wl);
    word[wl] = '\0';
    const char *a = sp ? sp + 1 : "";
    while (*a == ' ')
        a++;
    if (strlen(a) >= sizeof arg)
        return -1;
    memcpy(arg, a, strlen(a) + 1);
    int side = tos_side_arg(arg);
    if (strcmp(word, "stack") == 0 && side >= 0) {
        if (!s->nstack[side])
            tavi_bprintf(out, n, "-");
        else
            tos_stack_text(s, side, out, n);
    } else if (strcmp(word, "area") == 0 && side >= 0) {
        uint32_t best[TOS_N];
        int v = tos_area(s, side, best);
        size_t k = tavi_bprintf(out, n, "%d", v);
        for (int i = 0; i < s->nplaced; i++) {
            int hit = 0;
            for (int r = 0; r < TOS_N && !hit; r++)
                for (uint32_t b = best[r]; b && !hit; b &= b - 1)
                    hit = s->tileat[r * TOS_N + tavi_ctz(b)] == i + 1;
            if (hit) {
                tos_placed p = tos_unpack(s->place[i]);
                char mv[TAV_MOVE_TEXT];
                tos_place_text(p.tile, p.rot, p.r0, p.c0, mv, sizeof mv);
                *strchr(mv, ':') = '\0';
                k += tavi_bprintf(out + k, n - k, " %s", mv);
            }
        }
    } else if (strcmp(word, "masked") == 0 && (side >= 0 || !arg[0])) {
        toscana_state m;
        memcpy(&m, s, sizeof m);
        toscana_mask(&m, side >= 0 ? side : TAV_WHITE);
        char ws[64], bs[64];
        tos_stack_text(&m, TAV_WHITE, ws, sizeof ws);
        tos_stack_text(&m, TAV_BLACK, bs, sizeof bs);
        tavi_bprintf(out, n, "white=%s black=%s hash=%016llx", ws, bs,
                    (unsigned long long)toscana_hash(&m));
    } else if (strcmp(word, "veto") == 0 && !arg[0]) {
        tavi_bprintf(out, n, "white=%s black=%s", s->veto[0] ? "unused" : "used",
                    s->veto[1] ? "unused" : "used");
    } else if (strcmp(word, "passes") == 0 && !arg[0]) {
        tavi_bprintf(out, n, "%d", s->passes);
    } else if (strcmp(word, "placed") == 0 && !arg[0]) {
        int w = 0;
        for (int i = 0; i < s->nplaced; i++)
            w += !(s->place[i] >> 16 & 1);
        tavi_bprintf(out, n, "%d:%d", w, s->nplaced - w);
    } else if (strcmp(word, "tiles") == 0 && !arg[0]) {
        size_t k = 0;
        for (int t = 0; t < TOS_TILES; t++)
            k += tavi_bprintf(out + k, n - k, "%s%s", t ? " " : "", tos_ids[t]);
    } else if (strcmp(word, "symmetric") == 0 && !arg[0]) {
        size_t k = 0;
        for (int t = 0; t < TOS_TILES; t++)
            if (tos_symmetric(t))
                k += tavi_bprintf(out + k, n - k, "%s%s", k ? " " : "", tos_ids[t]);
    } else if (strcmp(word, "tile") == 0) {
        /* tile ID [ROT]: the shape, top row first, o own colour, x off colour */
        int t = -1, rot = 0;
        for (int i = 0; i < TOS_TILES; i++)
            if (strncmp(arg, tos_ids[i], 2) == 0)
                t = i;
        if (t < 0 || (arg[2] && (arg[2] != ' ' || arg[3] < '0' || arg[3] > '3' || arg[4])))
            return -1;
        if (arg[2])
            rot = arg[3] - '0';
        tos_shape sh;
        tos_shape_make(t, rot, &sh);
        size_t k = 0;
        for (int i = sh.h - 1; i >= 0; i--) {
            for (int d = 0; d < sh.w; d++)
                k += tavi_bprintf(out + k, n - k, "%c", sh.off[i] >> d & 1 ? 'x' : 'o');
            if (i)
                k += tavi_bprintf(out + k, n - k, "|");
        }
    } else {
        return -1;
    }
    return 0;
}

/* Recompute the board from the placements and compare every field. */
static int toscana_check(const void *st, char *err, size_t errlen)
{
    const toscana_state *s = st;
    toscana_state t;
    memset(&t, 0, sizeof t);
    if (s->nplaced > 2 * TOS_TILES || s->nstack[0] > TOS_TILES || s->nstack[1] > TOS_TILES) {
        tavi_bprintf(err, errlen, "counts out of range");
        return -1;
    }
    for (int i = 0; i < s->nplaced; i++) {
        tos_placed p = tos_unpack(s->place[i]);
        tos_shape sh;
        tos_shape_make(p.tile, p.rot, &sh);
        if ((s->place[i] & ~0x1fffffu) || !(s->place[i] & TOS_MOVE_PLACE) ||
            p.r0 + sh.h > TOS_N || p.c0 + sh.w > TOS_N || p.rot >= tos_rotations(p.tile)) {
            tavi_bprintf(err, errlen, "placement %d is malformed", i + 1);
            return -1;
        }
        for (int k = 0; k < sh.h; k++)
            if (t.occ[p.r0 + k] & ((1u << sh.w) - 1) << p.c0) {
                tavi_bprintf(err, errlen, "placement %d overlaps", i + 1);
                return -1;
            }
        tos_put(&t, p.owner, p.tile, p.rot, p.r0, p.c0);
    }
    if (memcmp(t.occ, s->occ, sizeof t.occ) || memcmp(t.light, s->light, sizeof t.light) ||
        memcmp(t.tileat, s->tileat, sizeof t.tileat)) {
        tavi_bprintf(err, errlen, "board words disagree with the placements");
        return -1;
    }
    for (int i = s->nplaced; i < 2 * TOS_TILES; i++)
        if (s->place[i]) {
            tavi_bprintf(err, errlen, "unused placement slot %d is not zero", i + 1);
            return -1;
        }
    for (int side = 0; side < 2; side++) {
        unsigned seen = 0;
        int count = 0;
        for (int i = 0; i < TOS_TILES; i++) {
            if (i >= s->nstack[side]) {
                if (s->stack[side][i]) {
                    tavi_bprintf(err, errlen, "unused stack slot not zero");
                    return -1;
                }
                continue;
            }
            if (s->stack[side][i] >= TOS_TILES) {
                tavi_bprintf(err, errlen, "bad tile index in stack");
                return -1;
            }
            seen |= 1u << s->stack[side][i];
            count++;
        }
        for (int i = 0; i < s->nplaced; i++)
            if ((int)(s->place[i] >> 16 & 1) == side) {
                seen |= 1u << (s->place[i] >> 17 & 15);
                count++;
            }
        if (seen != 0xffffu || count != TOS_TILES) {
            tavi_bprintf(err, errlen, "%s's tiles are not his 16 tiles once each",
                        tav_side_name(side));
            return -1;
        }
        if (s->veto[side] > 1) {
            tavi_bprintf(err, errlen, "bad veto flag");
            return -1;
        }
    }
    int ended = (s->nstack[0] == 0 && s->nstack[1] == 0) || s->passes >= 2;
    if (s->passes > 2 || s->side > 1 || s->phase > TOS_OVER || ended != (s->phase == TOS_OVER) ||
        (s->phase == TOS_DECIDE && (s->nstack[s->side] < 2 || !s->veto[s->side ^ 1]))) {
        tavi_bprintf(err, errlen, "turn fields inconsistent (side %d phase %d passes %d)",
                    s->side, s->phase, s->passes);
        return -1;
    }
    return 0;
}

/* ---- The `ai` player (docs/ai/toscana.md) ----
 *
 * MCTS over determinizations (the search layer masks and re-deals the hidden
 * stack order), with a greedy playout policy and, after `cutoff` playout
 * plies, a logistic evaluation.  Everything below reads only the state it is
 * given (a determinized copy during search) and allocates nothing.
 *
 * Tuning constants are macros so variants can be built with -D for matches.
 */
#ifndef TOS_W_FRONT
#define TOS_W_FRONT 0.25   /* eval: tiles per square of open frontier (capped) */
#endif
#ifndef TOS_FRONT_CAP
#define TOS_FRONT_CAP 8    /* eval: frontier squares that count */
#endif
#ifndef TOS_W_DEAD
#define TOS_W_DEAD 1.5     /* eval: penalty (tiles) for a closed largest area */
#endif
#ifndef TOS_W_VETO
#define TOS_W_VETO 0.3     /* eval: value (tiles) of an unused veto */
#endif
#ifndef TOS_SCALE0
#define TOS_SCALE0 0.8     /* eval: logistic scale in tiles, at the end */
#endif
#ifndef TOS_SCALE1
#define TOS_SCALE1 0.35    /* eval: scale growth per sqrt(tile left) */
#endif
#ifndef TOS_P_JOIN
#define TOS_P_JOIN 100     /* policy: an own square touches the largest area */
#endif
#ifndef TOS_P_CONTACT
#define TOS_P_CONTACT 10   /* policy: per own square next to own colour */
#endif
#ifndef TOS_P_BLOCK
#define TOS_P_BLOCK 15     /* policy: per own square on the opponent's frontier */
#endif
#ifndef TOS_P_GIFT
#define TOS_P_GIFT 80      /* policy: an off square extends the opponent's area */
#endif
#ifndef TOS_P_SELF
#define TOS_P_SELF 5       /* policy: per off square on the mover's own frontier */
#endif
#ifndef TOS_P_NOISE
#define TOS_P_NOISE 12     /* policy: random tie-break range */
#endif
#ifndef TOS_P_EPS
#define TOS_P_EPS 1        /* policy: one move in EPS is uniform (0: never) */
#endif
#ifndef TOS_P_VETO
#define TOS_P_VETO 12      /* policy: a decision is veto once in VETO */
#endif
#ifndef TOS_P_FLOOD
#define TOS_P_FLOOD 0      /* policy: 1 = find the largest areas (slow), 0 = colour contacts */
#endif

/* Squares orthogonally next to `m` (not m itself unless adjacent to it). */
static void tos_dilate(const uint32_t *m, uint32_t *out)
{
    for (int r = 0; r < TOS_N; r++) {
        uint32_t v = m[r] << 1 | m[r] >> 1;
        if (r > 0)
            v |= m[r - 1];
        if (r < TOS_N - 1)
            v |= m[r + 1];
        out[r] = v & TOS_FULL;
    }
}

/* What the policy knows of the position, for the player `side`. */
typedef struct tos_aifeat {
    uint32_t myfront[TOS_N];   /* empty squares next to side's largest area */
    uint32_t oppfront[TOS_N];  /* empty squares next to the opponent's largest area */
    uint32_t ownnb[TOS_N];     /* empty squares next to any square of side's colour */
} tos_aifeat;

static void tos_aifeat_make(const toscana_state *s, int side, tos_aifeat *a)
{
    uint32_t best[TOS_N], col[TOS_N];
    if (TOS_P_FLOOD) {
        tos_area(s, side, best);
        tos_dilate(best, a->myfront);
        tos_area(s, side ^ 1, best);
    } else {
        /* cheap stand-ins: every square of each colour */
        for (int r = 0; r < TOS_N; r++)
            best[r] = tos_colour_rank(s, side, r);
        tos_dilate(best, a->myfront);
        for (int r = 0; r < TOS_N; r++)
            best[r] = tos_colour_rank(s, side ^ 1, r);
    }
    tos_dilate(best, a->oppfront);
    for (int r = 0; r < TOS_N; r++)
        col[r] = tos_colour_rank(s, side, r);
    tos_dilate(col, a->ownnb);
    for (int r = 0; r < TOS_N; r++) {
        uint32_t e = ~s->occ[r] & TOS_FULL;
        a->myfront[r] &= e;
        a->oppfront[r] &= e;
        a->ownnb[r] &= e;
    }
}

/* Policy score of placing shape sh with origin (r0, c0). */
static int tos_cand_score(const tos_aifeat *a, const tos_shape *sh, int r0, int c0)
{
    uint32_t join = 0, gift = 0;
    int contact = 0, block = 0, self = 0;
    for (int i = 0; i < sh->h; i++) {
        int r = r0 + i;
        uint32_t own = sh->own[i] << c0, off = sh->off[i] << c0;
        join |= own & a->myfront[r];
        gift |= off & a->oppfront[r];
        contact += tavi_popcount(own & a->ownnb[r]);
        block += tavi_popcount(own & a->oppfront[r]);
        self += tavi_popcount(off & a->myfront[r]);
    }
    return (join ? TOS_P_JOIN : 0) + TOS_P_CONTACT * contact + TOS_P_BLOCK * block -
           (gift ? TOS_P_GIFT : 0) - TOS_P_SELF * self;
}

/* The context of a move for the search's move averages: the tile being
 * placed (or decided on), as 1 + its index; 0 when the placer has none. */
static uint32_t toscana_move_context(const void *st)
{
    const toscana_state *s = st;
    return s->nstack[s->side] ? 1u + s->stack[s->side][0] : 0u;
}

/* ---- Features of a position, for an evaluation fitted to game outcomes ----
 *
 * Per colour: its regions (orthogonally connected squares of the colour),
 * each with the tiles it touches and its usable frontier (empty squares next
 * to it that some empty 2x4 or 4x2 rectangle covers: where a tile could still
 * touch it).  The features of a colour (TOS_F_*) are read from its largest
 * region (most tiles; on a tie the one with the larger usable frontier). */
enum {
    TOS_F_AREA,     /* tiles touched by the largest region (the score now) */
    TOS_F_AREA2,    /* tiles touched by the second largest region */
    TOS_F_FRONT,    /* sqrt(usable frontier of the largest region) */
    TOS_F_DEAD,     /* 1: largest region has no usable frontier, tiles still to place */
    TOS_F_REACH,    /* sqrt(coverable empty squares within 3 steps of the largest region) */
    TOS_F_GROW,     /* sqrt(coverable empty squares next to any square of the colour) */
    TOS_F_VETO,     /* 1: veto unused and the opponent has 2 tiles or more */
    TOS_F_COUNT
};

/* Empty squares that some empty 2x4 or 4x2 rectangle covers. */
static void tos_coverable(const toscana_state *s, uint32_t *cov)
{
    uint32_t f2[TOS_N], f4[TOS_N];
    for (int r = 0; r < TOS_N; r++) {
        uint32_t e = ~s->occ[r] & TOS_FULL;
        f2[r] = e & e >> 1;
        f4[r] = f2[r] & f2[r] >> 2;
        cov[r] = 0;
    }
    for (int r = 0; r + 1 < TOS_N; r++) {
        uint32_t o = f4[r] & f4[r + 1];   /* 2 ranks x 4 files from file bit */
        o |= o << 1 | o << 2 | o << 3;
        cov[r] |= o;
        cov[r + 1] |= o;
    }
    for (int r = 0; r + 3 < TOS_N; r++) {
        uint32_t o = f2[r] & f2[r + 1] & f2[r + 2] & f2[r + 3];   /* 4 ranks x 2 files */
        o |= o << 1;
        for (int i = 0; i < 4; i++)
            cov[r + i] |= o;
    }
}

/* The features of colour c (TOS_F_COUNT values) given the coverable squares. */
static void tos_colour_features(const toscana_state *s, int c, const uint32_t *cov, double *f)
{
    uint32_t rest[TOS_N], best[TOS_N] = { 0 }, col[TOS_N], nb[TOS_N], x[TOS_N];
    int top = 0, second = 0, topfront = -1, v;
    for (int r = 0; r < TOS_N; r++)
        rest[r] = col[r] = tos_colour_rank(s, c, r);
    while ((v = tos_next_region(s, rest, x)) > 0) {
        if (v < top && v <= second)
            continue;
        tos_dilate(x, nb);
        int front = 0;
        for (int q = 0; q < TOS_N; q++)
            front += tavi_popcount(nb[q] & cov[q]);
        if (v > top || (v == top && front > topfront)) {
            second = top;
            top = v;
            topfront = front;
            memcpy(best, x, sizeof x);
        } else if (v > second) {
            second = v;
        }
    }
    /* reach: three dilations of the largest region through empty squares */
    uint32_t reach[TOS_N];
    memcpy(reach, best, sizeof reach);
    for (int k = 0; k < 3; k++) {
        tos_dilate(reach, nb);
        for (int q = 0; q < TOS_N; q++)
            reach[q] = best[q] | (nb[q] & ~s->occ[q] & TOS_FULL);
    }
    int nreach = 0, grow = 0;
    tos_dilate(col, nb);
    for (int q = 0; q < TOS_N; q++) {
        nreach += tavi_popcount(reach[q] & cov[q]);
        grow += tavi_popcount(nb[q] & cov[q]);
    }
    if (topfront < 0)
        topfront = 0;
    f[TOS_F_AREA] = top;
    f[TOS_F_AREA2] = second;
    f[TOS_F_FRONT] = sqrt((double)topfront);
    f[TOS_F_DEAD] = topfront == 0 && s->nstack[c] > 0;
    f[TOS_F_REACH] = sqrt((double)nreach);
    f[TOS_F_GROW] = sqrt((double)grow);
    f[TOS_F_VETO] = s->veto[c] && s->nstack[c ^ 1] >= 2;
}

int tavi_toscana_left(const void *st)
{
    const toscana_state *s = st;
    return s->nstack[0] + s->nstack[1];
}

/* The fitted evaluation's inputs for `side` (TOSCANA_FEATURES values):
 * each feature of side minus the other colour's, then the same times the
 * phase (tiles left in both stacks / 32), then the turn (+1 when side places
 * next, -1 when the other does, 0 once over) and the turn times the phase. */
int tavi_toscana_features(const void *st, int side, double *out, int max)
{
    const toscana_state *s = st;
    if (max < TOSCANA_FEATURES || side < 0 || side > 1)
        return -1;
    uint32_t cov[TOS_N];
    double f[2][TOS_F_COUNT];
    tos_coverable(s, cov);
    tos_colour_features(s, side, cov, f[0]);
    tos_colour_features(s, side ^ 1, cov, f[1]);
    double phase = (double)(s->nstack[0] + s->nstack[1]) / (2.0 * TOS_TILES);
    for (int k = 0; k < TOS_F_COUNT; k++) {
        out[k] = f[0][k] - f[1][k];
        out[TOS_F_COUNT + k] = out[k] * phase;
    }
    double turn = s->phase == TOS_OVER ? 0 : s->side == side ? 1 : -1;
    out[2 * TOS_F_COUNT] = turn;
    out[2 * TOS_F_COUNT + 1] = turn * phase;
    return TOSCANA_FEATURES;
}

#ifndef TOS_EVAL
#define TOS_EVAL 1   /* 1: the full player evaluates with the weights fitted to game outcomes */
#endif

/* The fitted evaluation's weights (scripts/fit_toscana_eval.mjs), in the
 * order of tavi_toscana_features. */
static const double tos_fit_w[TOSCANA_FEATURES] = {
    1.14414, -0.03709, 0.13802, 0.76894, 0.48500, 0.37491, 0.22496, -0.84459,
    0.13708, -0.28330, 0.17970, 0.30648, 0.16345, 0.00250, 0.06410, 0.91356};

/* The value for the over state, from the result. */
static double tos_final_value(const void *st, int side)
{
    tav_result r;
    toscana_result(st, &r);
    return r.winner == TAV_DRAW ? 0.5 : r.winner == side ? 1.0 : 0.0;
}

/* The full player's evaluation: the weighted features through the logistic
 * function, fitted to the outcomes of self-play games. */
static double toscana_eval_fit(const void *st, int side)
{
    const toscana_state *s = st;
    if (s->phase == TOS_OVER)
        return tos_final_value(st, side);
    double f[TOSCANA_FEATURES], z = 0;
    tavi_toscana_features(st, side, f, TOSCANA_FEATURES);
    for (int k = 0; k < TOSCANA_FEATURES; k++)
        z += tos_fit_w[k] * f[k];
    return 1.0 / (1.0 + exp(-z));
}

/* Heuristic value for `side`: largest areas, their open frontier, vetoes. */
static double toscana_eval(const void *st, int side)
{
    const toscana_state *s = st;
    if (s->phase == TOS_OVER)
        return tos_final_value(st, side);
    double v[2];
    for (int c = 0; c < 2; c++) {
        uint32_t best[TOS_N], nb[TOS_N];
        int area = tos_area(s, c, best);
        tos_dilate(best, nb);
        int front = 0;
        for (int r = 0; r < TOS_N; r++)
            front += tavi_popcount(nb[r] & ~s->occ[r] & TOS_FULL);
        int fc = front < TOS_FRONT_CAP ? front : TOS_FRONT_CAP;
        v[c] = area + TOS_W_FRONT * fc;
        if (front == 0 && s->nstack[c] > 0)
            v[c] -= TOS_W_DEAD;
        if (s->veto[c] && s->nstack[c ^ 1] >= 2)
            v[c] += TOS_W_VETO;
    }
    double left = (double)(s->nstack[0] + s->nstack[1]);
    double scale = TOS_SCALE0 + TOS_SCALE1 * sqrt(left);
    double d = v[side] - v[side ^ 1];
    return 1.0 / (1.0 + exp(-d / scale));
}

/* Playout policy: decisions mostly accept; a placement is the best by
 * tos_cand_score (with a little noise), now and then a uniform one. */
static int toscana_playout_move(const void *st, tav_rng *rng, tav_move *scratch, tav_move *m)
{
    const toscana_state *s = st;
    if (s->phase == TOS_OVER)
        return 0;
    if (s->phase == TOS_DECIDE) {
        *m = tav_rng_below(rng, TOS_P_VETO) == 0 ? TOS_MOVE_VETO : TOS_MOVE_ACCEPT;
        return 1;
    }
    int n = tos_placements(s, s->side, scratch);
    if (n == 0) {
        *m = TOS_MOVE_PASS;
        return 1;
    }
    if (n == 1 || (TOS_P_EPS > 0 && tav_rng_below(rng, TOS_P_EPS) == 0)) {
        *m = scratch[n == 1 ? 0 : tav_rng_below(rng, (uint32_t)n)];
        return 1;
    }
    tos_aifeat a;
    tos_aifeat_make(s, s->side, &a);
    int tile = s->stack[s->side][0];
    tos_shape sh[4];
    for (int rot = 0; rot < tos_rotations(tile); rot++)
        tos_shape_make(tile, rot, &sh[rot]);
    int bestv = -1000000;
    tav_move bm = scratch[0];
    for (int i = 0; i < n; i++) {
        tos_placed p = tos_unpack(scratch[i]);
        int v = tos_cand_score(&a, &sh[p.rot], p.r0, p.c0) +
                (TOS_P_NOISE > 0 ? (int)tav_rng_below(rng, TOS_P_NOISE) : 0);
        if (v > bestv) {
            bestv = v;
            bm = scratch[i];
        }
    }
    *m = bm;
    return 1;
}

/* Move ordering (alpha-beta only): own squares touching own colour. */
static int toscana_move_score(const void *st, tav_move m)
{
    const toscana_state *s = st;
    if (!(m & TOS_MOVE_PLACE) || m > 0xffffu || s->phase != TOS_PLACE)
        return 0;
    tos_placed p = tos_unpack(m);
    tos_shape sh;
    tos_shape_make(s->stack[s->side][0], p.rot, &sh);
    int contact = 0;
    for (int i = 0; i < sh.h; i++) {
        int r = p.r0 + i;
        uint32_t own = sh.own[i] << p.c0, nb = tos_colour_rank(s, s->side, r);
        nb = nb << 1 | nb >> 1;
        if (r > 0)
            nb |= tos_colour_rank(s, s->side, r - 1);
        if (r < TOS_N - 1)
            nb |= tos_colour_rank(s, s->side, r + 1);
        contact += tavi_popcount(own & nb);
    }
    return contact;
}

/* The options that deal this start state's stacks. */
static int toscana_deal_options(const void *st, char *buf, size_t n)
{
    const toscana_state *s = st;
    char ws[64], bs[64];
    tos_stack_text(s, TAV_WHITE, ws, sizeof ws);
    tos_stack_text(s, TAV_BLACK, bs, sizeof bs);
    return (int)tavi_bprintf(buf, n, "white=%s black=%s", ws, bs);
}

/* ---- for people ---------------------------------------------------------- */

static int toscana_explain_result(const void *st, char *buf, size_t n)
{
    tav_result r;
    toscana_result(st, &r);
    return (int)tavi_bprintf(buf, n,
                            " Toscana is won by the larger largest area (the tiles touched by one "
                            "connected region of\n a player's colour): white %d tiles, black %d.\n",
                            r.score[0], r.score[1]);
}

static const char *const tos_samples[] = {
    "seed=1", "seed=12345", "seed=777",
    "white=34,25,16,07,01,02,03,04,05,06,12,13,14,15,23,24 "
    "black=07,16,25,34,24,23,15,14,13,12,06,05,04,03,02,01",
    NULL};
static const char *const tos_secret_options[] = {"seed", "white", "black", NULL};

/* The rules for people (docs/rules/toscana.md has them as implemented; the
 * figures of the last section: results/toscana.md, "White's edge"). */
static const tav_rules_section tos_rules[] = {
    {"The goal",
     "Grow the largest connected area of your colour. Your score is the number of tiles that "
     "this area touches; the higher score wins."},
    {"Setup",
     "Each player has 16 tiles of 2\u00d74 squares, mostly in his own colour (light for white, "
     "dark for black), stacked in a hidden order. Only the top tile of each stack is shown."},
    {"A turn",
     "Lay your top tile, turned as you like. The first tile must cover the centre square; every "
     "later tile must touch, with a square of your colour, a square of your colour already on "
     "the board. Tiles may not overlap. A player whose tile fits nowhere must pass: the tile "
     "stays on top of his stack, and the other player goes on.\n\n"
     "Once per game each player may veto the opponent's top tile: it goes to the bottom of his "
     "stack and he plays the next one."},
    {"The end",
     "The game ends in one of two ways: when both stacks are empty, or as soon as the two players "
     "pass one right after the other (neither top tile fits anywhere), even with tiles left in the "
     "stacks, which are then never played. A veto does not count as a turn here. Each player then "
     "counts the tiles touched by his largest area of his colour. The higher count wins."},
    {"Who has the edge?",
     "White, who lays the first tile, has a large edge. We measured it: in 200 games between two "
     "equal computer players (100 deals, each played twice with the colours swapped), white won "
     "142, drew 28 and lost 30, a score of 78%, by 2.5 tiles on average. The rules offer no way "
     "to balance it: if you are the stronger player, take black, or play each deal twice with "
     "the colours swapped."},
    {NULL, NULL},
};

const tav_game tavi_toscana_game = {
    .abi_version = TAV_GAME_ABI_VERSION,
    .name = "toscana",
    .state_size = sizeof(toscana_state),
    .max_moves = TOS_MAX_MOVES,
    .init = toscana_init,
    .setup = toscana_setup,
    .public_position = toscana_public_position,
    .samples = tos_samples,
    .bench_games = 1000,
    .board_view = toscana_board_view,
    .deal_options = toscana_deal_options,
    .secret_options = tos_secret_options,
    .legal = toscana_legal,
    .play = toscana_play,
    .to_move = toscana_to_move,
    .result = toscana_result,
    .move_str = toscana_move_str,
    .hash = toscana_hash,
    .set_position = toscana_set_position,
    .get_position = toscana_get_position,
    .probe = toscana_probe,
    .check = toscana_check,
    .mask = toscana_mask,
    .determinize = toscana_determinize,
    .move_parts = toscana_move_parts,
    .title = "Toscana",
    .pitch = "Lay two-coloured tiles to grow the largest area of your colour; one veto each.",
    .score_words = "tiles touched by each largest area",
    .score_wins = TAV_SCORE_HIGHER_WINS,
    .rules = tos_rules,
    .side_note = "White places first and has a large edge: 78% between equal players.",
    .explain_result = toscana_explain_result,
    .eval = toscana_eval,
    .playout_move = toscana_playout_move,
    .move_score = toscana_move_score,
    .move_context = toscana_move_context,
    .eval_full = TOS_EVAL ? toscana_eval_fit : NULL,
};
