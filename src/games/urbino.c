/*
 * urbino.c — Urbino (Dieter Stein, 2017) on a 9 x 9 board, with the
 * Monuments variant.
 *
 * Data layout.  A square is rank * 9 + file (a1 = 0, i9 = 80).  A set of
 * squares is an ubb: two uint64_t words, squares 0-63 in w[0] and 64-80 in
 * the low 17 bits of w[1].  The state keeps the board twice: a byte per
 * square (cell: 0 empty, 1 + type + 3 * colour for a building, type 0 house,
 * 1 palace, 2 tower) for neighbourhood questions, and bitboards (buildings
 * per colour, palaces and towers of both colours) for set questions.  The
 * two architects are neutral and indistinguishable: arch[] holds their
 * squares in increasing order (URB_NONE while not placed); they are not in
 * cell[].  Placed counts per colour and type give the supply (18 / 6 / 3).
 * phase walks place1 (black places an architect), place2 (white places the
 * other), choose (black says first:black or first:white), first (the chosen
 * player builds without repositioning), play, over.  passes counts the
 * passes in a row (two end the game).  last[] remembers the squares of the
 * last move for the view only: it is not part of the position (not hashed,
 * not in the position text).
 *
 * Move generation.  Whether a building type may stand on an empty square
 * depends only on the buildings and the colour, never on the architects, so
 * legal() first computes allowed[type] (block rule: after placing, every
 * district keeps at most one block per colour; palace/palace and
 * tower/tower orthogonal adjacency forbidden; type still in supply).  Then
 * for each architect configuration (none moved; or one architect moved to
 * any empty square) the building lots are sight(A) & sight(B), sight going
 * through empty squares in 8 directions and stopping before a building or
 * the other architect; moves are lots & allowed[type].  For a moved
 * architect the loop is turned around: for each square z that the architect
 * staying put sees (without the mover) and where some type is allowed, the
 * mover's destinations are the empty squares that see z (sight is
 * symmetric), minus those strictly between the staying architect and z
 * (they would block its view).  Two configurations never leave the same
 * architect pair, so nothing is listed twice.  Cost: at most 2 + 64 sight
 * walks (8 rays, at most 32 squares) plus one bit-scan per listed move.
 *
 * Bound on legal moves (max_moves): a configuration keeps at most 79 empty
 * squares off the architects' own, so there are at most 1 + 2 * 79 = 159
 * configurations; the lots are inside one architect's sight, at most 32
 * squares (a queen on e5 of a 9 x 9 board), each with at most 3 types:
 * 159 * 32 * 3 = 15264 <= TAV_MAX_MOVES.
 *
 * Move value: bits 0-6 building square, 7-8 type, 9-15 architect from,
 * 16-22 architect to, bit 23 repositioning, bits 24-26 kind (build, place
 * architect, first:black, first:white, pass).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/base.h"
#include "games.h"

#define URB_N 9
#define URB_SQ 81
#define URB_NONE 255
#define URB_MAX_MOVES (159 * 32 * 3)

enum { URB_HOUSE, URB_PALACE, URB_TOWER };
enum { PH_PLACE1, PH_PLACE2, PH_CHOOSE, PH_FIRST, PH_PLAY, PH_OVER };
enum { MK_BUILD, MK_ARCH, MK_FIRST_BLACK, MK_FIRST_WHITE, MK_PASS };
enum { VAR_STANDARD, VAR_MONUMENTS };

static const char *const urb_phase_name[] = { "place1", "place2", "choose", "first", "play",
                                              "over" };
static const char urb_type_letter[3] = { 'H', 'P', 'T' };
static const int urb_supply[3] = { 18, 6, 3 };
static const int urb_value[3] = { 1, 2, 3 };

typedef struct ubb { uint64_t w[2]; } ubb;

typedef struct urbino_state {
    ubb bld[2];          /* buildings of white, black */
    ubb pal, tow;        /* palaces, towers of both colours */
    uint8_t cell[URB_SQ]; /* 0 empty, else 1 + type + 3 * colour */
    uint8_t placed[2][3]; /* buildings placed per colour and type */
    uint8_t arch[2];     /* architect squares, ascending; URB_NONE if not placed */
    uint8_t phase;       /* PH_* */
    int8_t tomove;       /* TAV_WHITE, TAV_BLACK, TAV_NONE when over */
    uint8_t passes;      /* passes in a row */
    uint8_t variant;     /* VAR_* */
    uint8_t last[3];     /* view only: architect from, to, built square */
    uint8_t pad;         /* always 0 */
} urbino_state;

/* One district (orthogonally connected buildings) and its scoring. */
typedef struct urb_district {
    int first;          /* its square that comes first by file, then rank */
    int colours;        /* bit c set when colour c has buildings in it */
    int blocks[2];      /* blocks per colour (at most 1 in a legal position) */
    int value[2];       /* block value per colour (monument doubled) */
    int n[2][3];        /* buildings per colour and type */
    int monument[2];    /* base value of the counted monument, 0 if none */
    int scorer;         /* TAV_WHITE, TAV_BLACK, or TAV_NONE */
} urb_district;

/* A set with one square. */
static inline ubb ubb_one(int sq)
{
    ubb r = { { 0, 0 } };
    r.w[sq >> 6] = 1ULL << (sq & 63);
    return r;
}
/* Intersection, union, difference, emptiness, size of sets. */
static inline ubb ubb_and(ubb a, ubb b)
{
    ubb r = { { a.w[0] & b.w[0], a.w[1] & b.w[1] } };
    return r;
}
static inline ubb ubb_or(ubb a, ubb b)
{
    ubb r = { { a.w[0] | b.w[0], a.w[1] | b.w[1] } };
    return r;
}
static inline ubb ubb_andnot(ubb a, ubb b)
{
    ubb r = { { a.w[0] & ~b.w[0], a.w[1] & ~b.w[1] } };
    return r;
}
static inline int ubb_any(ubb a) { return (a.w[0] | a.w[1]) != 0; }
static inline int ubb_count(ubb a) { return tavi_popcount(a.w[0]) + tavi_popcount(a.w[1]); }
static inline int ubb_has(ubb a, int sq) { return (int)(a.w[sq >> 6] >> (sq & 63) & 1); }
static inline void ubb_set(ubb *a, int sq) { a->w[sq >> 6] |= 1ULL << (sq & 63); }
static inline void ubb_clear(ubb *a, int sq) { a->w[sq >> 6] &= ~(1ULL << (sq & 63)); }
static inline int ubb_eq(ubb a, ubb b) { return a.w[0] == b.w[0] && a.w[1] == b.w[1]; }

/* The 81 squares; file a; file i. */
static const ubb urb_board = { { ~0ULL, (1ULL << (URB_SQ - 64)) - 1 } };
static const ubb urb_file_a = { { 0x8040201008040201ULL, 0x100ULL } };
static const ubb urb_file_i = { { 0x4020100804020100ULL, 0x10080ULL } };

/* Direction steps: E, NE, N, NW, W, SW, S, SE. */
static const int urb_df[8] = { 1, 1, 0, -1, -1, -1, 0, 1 };
static const int urb_dr[8] = { 0, 1, 1, 1, 0, -1, -1, -1 };

/* The squares orthogonally next to a square of b. */
static ubb urb_orth(ubb b)
{
    ubb e = ubb_andnot(b, urb_file_i), w = ubb_andnot(b, urb_file_a);
    ubb r = { { e.w[0] << 1 | w.w[0] >> 1 | b.w[0] << 9 | b.w[0] >> 9 | b.w[1] << 55,
                e.w[1] << 1 | e.w[0] >> 63 | w.w[1] >> 1 | b.w[1] << 9 | b.w[0] >> 55 |
                    b.w[1] >> 9 } };
    r.w[0] |= w.w[1] << 63;
    return ubb_and(r, urb_board);
}

/* Squares seen from sq through squares not in occ (8 rays, stopping before occ). */
static ubb urb_sight(int sq, ubb occ)
{
    ubb r = { { 0, 0 } };
    int f0 = sq % URB_N, r0 = sq / URB_N;
    for (int d = 0; d < 8; d++) {
        int f = f0 + urb_df[d], k = r0 + urb_dr[d], step = urb_dr[d] * URB_N + urb_df[d];
        int s = sq + step;
        while ((unsigned)f < URB_N && (unsigned)k < URB_N && !ubb_has(occ, s)) {
            ubb_set(&r, s);
            f += urb_df[d];
            k += urb_dr[d];
            s += step;
        }
    }
    return r;
}

/* The direction index from a to b when they share a line, else -1. */
static int urb_direction(int a, int b)
{
    int df = b % URB_N - a % URB_N, dr = b / URB_N - a / URB_N;
    if (df != 0 && dr != 0 && abs(df) != abs(dr))
        return -1;
    int sf = (df > 0) - (df < 0), sr = (dr > 0) - (dr < 0);
    for (int d = 0; d < 8; d++)
        if (urb_df[d] == sf && urb_dr[d] == sr)
            return d;
    return -1;
}

/* Encode a move. */
static inline tav_move urb_move(int kind, int type, int sq, int from, int to, int rep)
{
    return (tav_move)sq | (tav_move)type << 7 | (tav_move)from << 9 | (tav_move)to << 16 |
           (tav_move)rep << 23 | (tav_move)kind << 24;
}
static inline int mv_sq(tav_move m) { return (int)(m & 127); }
static inline int mv_type(tav_move m) { return (int)(m >> 7 & 3); }
static inline int mv_from(tav_move m) { return (int)(m >> 9 & 127); }
static inline int mv_to(tav_move m) { return (int)(m >> 16 & 127); }
static inline int mv_rep(tav_move m) { return (int)(m >> 23 & 1); }
static inline int mv_kind(tav_move m) { return (int)(m >> 24 & 7); }

/* All buildings. */
static inline ubb urb_buildings(const urbino_state *s) { return ubb_or(s->bld[0], s->bld[1]); }

/* The four orthogonal neighbours of q (W, E, S, N), -1 off the board. */
static inline void urb_nbr4(int q, int nbr[4])
{
    int qf = q % URB_N;
    nbr[0] = qf > 0 ? q - 1 : -1;
    nbr[1] = qf < URB_N - 1 ? q + 1 : -1;
    nbr[2] = q >= URB_N ? q - URB_N : -1;
    nbr[3] = q + URB_N < URB_SQ ? q + URB_N : -1;
}

/* The monument (base value 3, 5 or 8; 0 when none) of the line of three
 * buildings of one colour starting at q, rightward (dir 0) or upward (dir 1):
 * house-house-house, palace-house-palace, tower-palace-tower. */
static int urb_monument_line(const urbino_state *s, int q, int dir)
{
    int step = dir == 0 ? 1 : URB_N;
    if (!s->cell[q] || (dir == 0 ? q % URB_N > URB_N - 3 : q + 2 * URB_N >= URB_SQ))
        return 0;
    int a = s->cell[q], b = s->cell[q + step], e = s->cell[q + 2 * step], c = (a - 1) / 3;
    if (!b || !e || (b - 1) / 3 != c || (e - 1) / 3 != c)
        return 0;
    int ta = (a - 1) % 3, tb = (b - 1) % 3, te = (e - 1) % 3;
    if (ta == URB_HOUSE && tb == URB_HOUSE && te == URB_HOUSE)
        return 3;
    if (ta == URB_PALACE && tb == URB_HOUSE && te == URB_PALACE)
        return 5;
    if (ta == URB_TOWER && tb == URB_PALACE && te == URB_TOWER)
        return 8;
    return 0;
}

/* Who scores a district holding both colours, from each colour's block value,
 * counted monument and buildings per type: the higher value, then monument,
 * towers, palaces, houses; TAV_NONE when all are equal. */
static int urb_scorer(const int value[2], const int mon[2], const int n[2][3])
{
    int key[2][5];
    for (int c = 0; c < 2; c++) {
        key[c][0] = value[c];
        key[c][1] = mon[c];
        key[c][2] = n[c][URB_TOWER];
        key[c][3] = n[c][URB_PALACE];
        key[c][4] = n[c][URB_HOUSE];
    }
    for (int i = 0; i < 5; i++)
        if (key[0][i] != key[1][i])
            return key[0][i] > key[1][i] ? TAV_WHITE : TAV_BLACK;
    return TAV_NONE;
}

/* The districts orthogonally beside square q, each once, in neighbour order
 * (W, E, S, N): their labels in out[]; returns how many (at most 4).  The one
 * walk the placement rule (urb_allowed_lab) and the evaluation's gain
 * (urb_gain) share. */
static int urb_districts_beside(const urbino_state *s, const int8_t *lab, int q, int out[4])
{
    int nbr[4], ns = 0;
    urb_nbr4(q, nbr);
    for (int i = 0; i < 4; i++) {
        int x = nbr[i];
        if (x < 0 || !s->cell[x])
            continue;
        int L = lab[x], dup = 0;
        for (int j = 0; j < ns; j++)
            dup |= out[j] == L;
        if (!dup)
            out[ns++] = L;
    }
    return ns;
}

/* Label districts (lab[sq] = district index or -1) and describe them; returns the count. */
static int urb_districts(const urbino_state *s, int variant, int8_t *lab, urb_district *dist)
{
    int8_t blk[URB_SQ];
    int stack[URB_SQ];
    int nd = 0, nb = 0;
    memset(lab, -1, URB_SQ);
    memset(blk, -1, URB_SQ);
    /* Files outer, ranks inner: the first square met is the district's first. */
    for (int f = 0; f < URB_N; f++)
        for (int r = 0; r < URB_N; r++) {
            int sq0 = r * URB_N + f;
            if (!s->cell[sq0] || lab[sq0] >= 0)
                continue;
            urb_district *d = &dist[nd];
            memset(d, 0, sizeof *d);
            d->first = sq0;
            d->scorer = TAV_NONE;
            int sp = 0;
            stack[sp++] = sq0;
            lab[sq0] = (int8_t)nd;
            while (sp > 0) {
                int q = stack[--sp];
                int c = (s->cell[q] - 1) / 3, t = (s->cell[q] - 1) % 3;
                d->colours |= 1 << c;
                d->n[c][t]++;
                d->value[c] += urb_value[t];
                int nbr[4];
                urb_nbr4(q, nbr);
                for (int i = 0; i < 4; i++)
                    if (nbr[i] >= 0 && s->cell[nbr[i]] && lab[nbr[i]] < 0) {
                        lab[nbr[i]] = (int8_t)nd;
                        stack[sp++] = nbr[i];
                    }
                /* Blocks: flood the same colour from q if q starts a new block. */
                if (blk[q] < 0) {
                    int bs[URB_SQ], bp = 0;
                    bs[bp++] = q;
                    blk[q] = (int8_t)nb;
                    while (bp > 0) {
                        int x = bs[--bp], nx[4];
                        urb_nbr4(x, nx);
                        for (int i = 0; i < 4; i++)
                            if (nx[i] >= 0 && s->cell[nx[i]] && blk[nx[i]] < 0 &&
                                (s->cell[nx[i]] - 1) / 3 == c) {
                                blk[nx[i]] = (int8_t)nb;
                                bs[bp++] = nx[i];
                            }
                    }
                    nb++;
                    d->blocks[c]++;
                }
                /* Monuments: lines of three starting at q, rightward and upward. */
                if (variant == VAR_MONUMENTS) {
                    for (int dir = 0; dir < 2; dir++) {
                        int m = urb_monument_line(s, q, dir);
                        if (m > d->monument[c])
                            d->monument[c] = m;
                    }
                }
            }
            for (int c = 0; c < 2; c++)
                d->value[c] += d->monument[c];
            /* Who scores a two-colour district: value, monument, towers, palaces, houses. */
            if (d->colours == 3)
                d->scorer = urb_scorer(d->value, d->monument, d->n);
            nd++;
        }
    return nd;
}

/* Score now: points per player, and the winner under the final tie-breaks. */
/* Each colour's points and, for the ties, its towers, palaces and houses in
 * the districts it scores (sc[c][0..3]). */
static void urb_tally(const urbino_state *s, int sc[2][4])
{
    int8_t lab[URB_SQ];
    urb_district dist[URB_SQ];
    int nd = urb_districts(s, s->variant, lab, dist);
    memset(sc, 0, sizeof(int) * 8);
    for (int i = 0; i < nd; i++) {
        int c = dist[i].scorer;
        if (c == TAV_NONE)
            continue;
        sc[c][0] += dist[i].value[c];
        sc[c][1] += dist[i].n[c][URB_TOWER];
        sc[c][2] += dist[i].n[c][URB_PALACE];
        sc[c][3] += dist[i].n[c][URB_HOUSE];
    }
}

/* The first of points, towers, palaces, houses in which the colours differ
 * (4: none). */
static int urb_tier(int sc[2][4])
{
    int i = 0;
    while (i < 4 && sc[0][i] == sc[1][i])
        i++;
    return i;
}

static void urb_score(const urbino_state *s, int score[2], int *leader)
{
    int sc[2][4];
    urb_tally(s, sc);
    score[0] = sc[0][0];
    score[1] = sc[1][0];
    int i = urb_tier(sc);
    *leader = i == 4 ? TAV_DRAW : sc[0][i] > sc[1][i] ? TAV_WHITE : TAV_BLACK;
}

/* Squares where colour c may put a building of each type (ignoring architects and supply). */
static void urb_allowed_lab(const urbino_state *s, int c, ubb allowed[3], const int8_t *lab,
                            const urb_district *dist);
static void urb_allowed(const urbino_state *s, int c, ubb allowed[3])
{
    int8_t lab[URB_SQ];
    urb_district dist[URB_SQ];
    urb_districts(s, VAR_STANDARD, lab, dist);
    urb_allowed_lab(s, c, allowed, lab, dist);
}

/* The same from districts already labelled (only labels and colours are read). */
static void urb_allowed_lab(const urbino_state *s, int c, ubb allowed[3], const int8_t *lab,
                            const urb_district *dist)
{
    ubb pal_nb = urb_orth(s->pal), tow_nb = urb_orth(s->tow);
    int o = 1 - c;
    ubb bld = urb_buildings(s);
    ubb empty = ubb_andnot(urb_board, bld);
    /* Squares with no building beside them are always fine; check the others. */
    ubb front = ubb_and(urb_orth(bld), empty);
    ubb ok = ubb_andnot(empty, front);
    for (int w = 0; w < 2; w++)
        for (uint64_t bits = front.w[w]; bits; bits &= bits - 1) {
            int q = w * 64 + tavi_ctz(bits);
            int nbr[4], beside[4], n_other = 0, good = 1;
            int ns = urb_districts_beside(s, lab, q, beside);
            urb_nbr4(q, nbr);
            for (int i = 0; i < ns; i++) {
                int L = beside[i];
                if (dist[L].colours & (1 << o))
                    n_other++;
                if (dist[L].colours & (1 << c)) {
                    /* The district's block of colour c must touch q. */
                    int touch = 0;
                    for (int j = 0; j < 4; j++)
                        if (nbr[j] >= 0 && s->cell[nbr[j]] && lab[nbr[j]] == L &&
                            (s->cell[nbr[j]] - 1) / 3 == c)
                            touch = 1;
                    good &= touch;
                }
            }
            if (good && n_other <= 1)
                ubb_set(&ok, q);
        }
    allowed[URB_HOUSE] = ok;
    allowed[URB_PALACE] = ubb_andnot(ok, pal_nb);
    allowed[URB_TOWER] = ubb_andnot(ok, tow_nb);
}

/* Emit lots & allowed[type] for one architect configuration. */
static int urb_emit(ubb lots, const ubb allowed[3], int from, int to, int rep, tav_move *out,
                    int n)
{
    for (int t = 0; t < 3; t++) {
        ubb b = ubb_and(lots, allowed[t]);
        for (int w = 0; w < 2; w++) {
            uint64_t x = b.w[w];
            while (x) {
                int sq = w * 64 + tavi_ctz(x);
                x &= x - 1;
                out[n++] = urb_move(MK_BUILD, t, sq, from, to, rep);
            }
        }
    }
    return n;
}

/* Emit, for one lot z, every type allowed there with the mover going to each of `to`. */
static int urb_emit_to(ubb to, const ubb allowed[3], int z, int from, tav_move *out, int n)
{
    for (int t = 0; t < 3; t++) {
        if (!ubb_has(allowed[t], z))
            continue;
        tav_move base = urb_move(MK_BUILD, t, z, from, 0, 1);
        for (int w = 0; w < 2; w++) {
            uint64_t x = to.w[w];
            while (x) {
                out[n++] = base | (tav_move)(w * 64 + tavi_ctz(x)) << 16;
                x &= x - 1;
            }
        }
    }
    return n;
}

/* The squares strictly between a and b when they share a line (else none). */
static ubb urb_between(int a, int b)
{
    ubb r = { { 0, 0 } };
    int d = urb_direction(a, b);
    if (d < 0)
        return r;
    int step = urb_dr[d] * URB_N + urb_df[d];
    for (int q = a + step; q != b; q += step)
        ubb_set(&r, q);
    return r;
}

/* The building lots of architects on a and b over the buildings. */
static ubb urb_lots(ubb bld, int a, int b)
{
    return ubb_and(urb_sight(a, ubb_or(bld, ubb_one(b))), urb_sight(b, ubb_or(bld, ubb_one(a))));
}

/* List every legal move (see the essay at the top). */
static int urbino_legal(const void *st, tav_move *out)
{
    const urbino_state *s = st;
    int n = 0;
    switch (s->phase) {
    case PH_PLACE1:
    case PH_PLACE2:
        for (int q = 0; q < URB_SQ; q++)
            if (q != s->arch[0])
                out[n++] = urb_move(MK_ARCH, 0, q, 0, 0, 0);
        return n;
    case PH_CHOOSE:
        out[n++] = urb_move(MK_FIRST_BLACK, 0, 0, 0, 0, 0);
        out[n++] = urb_move(MK_FIRST_WHITE, 0, 0, 0, 0, 0);
        return n;
    case PH_OVER:
        return 0;
    default:
        break;
    }
    int c = s->tomove;
    ubb allowed[3], any = { { 0, 0 } };
    urb_allowed(s, c, allowed);
    for (int t = 0; t < 3; t++) {
        if (s->placed[c][t] >= urb_supply[t])
            allowed[t].w[0] = allowed[t].w[1] = 0;
        any = ubb_or(any, allowed[t]);
    }
    ubb bld = urb_buildings(s);
    int a0 = s->arch[0], a1 = s->arch[1];
    if (ubb_any(any)) {
        /* 1. Architects where they stand. */
        n = urb_emit(urb_lots(bld, a0, a1), allowed, 0, 0, 0, out, n);
        /* 2. One architect moved (not in the first building turn). */
        if (s->phase == PH_PLAY) {
            ubb empty = { { ~bld.w[0], ~bld.w[1] & ((1ULL << (URB_SQ - 64)) - 1) } };
            ubb_clear(&empty, a0);
            ubb_clear(&empty, a1);
            for (int i = 0; i < 2; i++) {
                int from = s->arch[i], stay = s->arch[1 - i];
                ubb stay_occ = ubb_or(bld, ubb_one(stay));
                ubb targets = empty; /* neither architect's square */
                ubb cand = ubb_and(urb_sight(stay, bld), any);
                for (int w = 0; w < 2; w++) {
                    uint64_t x = cand.w[w];
                    while (x) {
                        int z = w * 64 + tavi_ctz(x);
                        x &= x - 1;
                        /* Squares from which the mover sees z, off the stay-z segment. */
                        ubb to = ubb_and(urb_sight(z, stay_occ), targets);
                        to = ubb_andnot(to, urb_between(stay, z));
                        n = urb_emit_to(to, allowed, z, from, out, n);
                    }
                }
            }
        }
    }
    if (n == 0)
        out[n++] = urb_move(MK_PASS, 0, 0, 0, 0, 0);
    return n;
}

/* Put a building on the board (no legality check). */
static void urb_put(urbino_state *s, int c, int t, int sq)
{
    s->cell[sq] = (uint8_t)(1 + t + 3 * c);
    ubb_set(&s->bld[c], sq);
    if (t == URB_PALACE)
        ubb_set(&s->pal, sq);
    if (t == URB_TOWER)
        ubb_set(&s->tow, sq);
    s->placed[c][t]++;
}

/* Keep the architects in ascending order (URB_NONE last). */
static void urb_sort_arch(urbino_state *s)
{
    if (s->arch[0] > s->arch[1]) {
        uint8_t t = s->arch[0];
        s->arch[0] = s->arch[1];
        s->arch[1] = t;
    }
}

/* Play a listed move. */
static void urbino_play(void *st, tav_move m)
{
    urbino_state *s = st;
    s->last[0] = s->last[1] = s->last[2] = URB_NONE;
    switch (mv_kind(m)) {
    case MK_ARCH:
        s->arch[s->phase == PH_PLACE1 ? 0 : 1] = (uint8_t)mv_sq(m);
        urb_sort_arch(s);
        s->last[1] = (uint8_t)mv_sq(m);
        s->phase = s->phase == PH_PLACE1 ? PH_PLACE2 : PH_CHOOSE;
        s->tomove = s->phase == PH_PLACE2 ? TAV_WHITE : TAV_BLACK;
        return;
    case MK_FIRST_BLACK:
    case MK_FIRST_WHITE:
        s->phase = PH_FIRST;
        s->tomove = mv_kind(m) == MK_FIRST_BLACK ? TAV_BLACK : TAV_WHITE;
        return;
    case MK_PASS:
        s->phase = PH_PLAY;
        if (++s->passes >= 2) {
            s->phase = PH_OVER;
            s->tomove = TAV_NONE;
        } else {
            s->tomove = (int8_t)(1 - s->tomove);
        }
        return;
    default:
        break;
    }
    if (mv_rep(m)) {
        int i = s->arch[0] == mv_from(m) ? 0 : 1;
        s->arch[i] = (uint8_t)mv_to(m);
        urb_sort_arch(s);
        s->last[0] = (uint8_t)mv_from(m);
        s->last[1] = (uint8_t)mv_to(m);
    }
    urb_put(s, s->tomove, mv_type(m), mv_sq(m));
    s->last[2] = (uint8_t)mv_sq(m);
    s->passes = 0;
    s->phase = PH_PLAY;
    s->tomove = (int8_t)(1 - s->tomove);
}

/* Who acts now. */
static int urbino_to_move(const void *st)
{
    const urbino_state *s = st;
    return s->phase == PH_OVER ? TAV_NONE : s->tomove;
}

/* Over, winner, and the score if the game were scored now. */
static void urbino_result(const void *st, tav_result *r)
{
    const urbino_state *s = st;
    int leader;
    urb_score(s, r->score, &leader);
    r->over = s->phase == PH_OVER;
    r->winner = r->over ? leader : TAV_NONE;
}

/* Canonical text: Ae5, first:black, pass, Hd4, e5-g7,Hd4. */
static int urbino_move_str(const void *st, tav_move m, char *buf, size_t n)
{
    (void)st;
    char a[4], b[4], c[4];
    int sq = mv_sq(m);
    switch (mv_kind(m)) {
    case MK_ARCH:
        tavi_square_str(sq % URB_N, sq / URB_N, a);
        return (int)tavi_bprintf(buf, n, "A%s", a);
    case MK_FIRST_BLACK:
        return (int)tavi_bprintf(buf, n, "first:black");
    case MK_FIRST_WHITE:
        return (int)tavi_bprintf(buf, n, "first:white");
    case MK_PASS:
        return (int)tavi_bprintf(buf, n, "pass");
    default:
        break;
    }
    tavi_square_str(sq % URB_N, sq / URB_N, c);
    if (!mv_rep(m))
        return (int)tavi_bprintf(buf, n, "%c%s", urb_type_letter[mv_type(m)], c);
    tavi_square_str(mv_from(m) % URB_N, mv_from(m) / URB_N, a);
    tavi_square_str(mv_to(m) % URB_N, mv_to(m) / URB_N, b);
    return (int)tavi_bprintf(buf, n, "%s-%s,%c%s", a, b, urb_type_letter[mv_type(m)], c);
}

/* The parts of a move: an architect placed, who builds first, a pass, or a
 * building (after the architect it moves, if any). */
static int urbino_move_parts(const void *st, tav_move m, tav_move_parts *p)
{
    (void)st;
    int sq = mv_sq(m);
    switch (mv_kind(m)) {
    case MK_ARCH:
        tavi_parts_action(p, "place");
        p->piece[0] = 'A';
        tavi_parts_square(p, sq % URB_N, sq / URB_N);
        return 0;
    case MK_FIRST_BLACK:
    case MK_FIRST_WHITE:
        tavi_parts_action(p, "first");
        p->side = (int8_t)(mv_kind(m) == MK_FIRST_BLACK ? TAV_BLACK : TAV_WHITE);
        return 0;
    case MK_PASS:
        tavi_parts_action(p, "pass");
        return 0;
    case MK_BUILD:
        break;
    default:
        return -1;
    }
    tavi_parts_action(p, "place");
    p->piece[0] = urb_type_letter[mv_type(m)];
    tavi_parts_square(p, sq % URB_N, sq / URB_N);
    if (mv_rep(m)) {
        p->from[0] = (int8_t)(mv_from(m) % URB_N);
        p->from[1] = (int8_t)(mv_from(m) / URB_N);
        p->to[0] = (int8_t)(mv_to(m) % URB_N);
        p->to[1] = (int8_t)(mv_to(m) / URB_N);
    }
    return 0;
}

/* Zobrist-style hash of buildings, architects, phase, side, passes, variant. */
static uint64_t urbino_hash(const void *st)
{
    const urbino_state *s = st;
    uint64_t h = tavi_mix64(0x7572626900000000ULL + s->phase) ^
                 tavi_mix64(0x7572626910000000ULL + (uint64_t)(s->tomove + 1)) ^
                 tavi_mix64(0x7572626920000000ULL + s->passes) ^
                 tavi_mix64(0x7572626930000000ULL + s->variant);
    for (int q = 0; q < URB_SQ; q++)
        if (s->cell[q])
            h ^= tavi_mix64(0x7572626940000000ULL + (uint64_t)s->cell[q] * 128 + (uint64_t)q);
    for (int i = 0; i < 2; i++)
        if (s->arch[i] != URB_NONE)
            h ^= tavi_mix64(0x7572626950000000ULL + s->arch[i]);
    return h;
}

/* The board letter of a square: . A H P T (white) h p t (black). */
static char urb_letter(const urbino_state *s, int q)
{
    if (q == s->arch[0] || q == s->arch[1])
        return 'A';
    if (!s->cell[q])
        return '.';
    int c = (s->cell[q] - 1) / 3, t = (s->cell[q] - 1) % 3;
    return (char)(c == TAV_WHITE ? urb_type_letter[t] : urb_type_letter[t] + ('a' - 'A'));
}

/* Current building lots (none until both architects stand). */
static ubb urb_current_lots(const urbino_state *s)
{
    ubb none = { { 0, 0 } };
    if (s->arch[1] == URB_NONE)
        return none;
    return urb_lots(urb_buildings(s), s->arch[0], s->arch[1]);
}

/* The text of the last move (view only), "" when none. */
static void urb_last_text(const urbino_state *s, char *buf, size_t n)
{
    buf[0] = '\0';
    if (s->last[2] != URB_NONE) {
        char a[4], b[4], c[4];
        tavi_square_str(s->last[2] % URB_N, s->last[2] / URB_N, c);
        int t = (s->cell[s->last[2]] - 1) % 3;
        if (s->last[0] != URB_NONE) {
            tavi_square_str(s->last[0] % URB_N, s->last[0] / URB_N, a);
            tavi_square_str(s->last[1] % URB_N, s->last[1] / URB_N, b);
            tavi_bprintf(buf, n, "%s-%s,%c%s", a, b, urb_type_letter[t], c);
        } else {
            tavi_bprintf(buf, n, "%c%s", urb_type_letter[t], c);
        }
    } else if (s->last[1] != URB_NONE) {
        char a[4];
        tavi_square_str(s->last[1] % URB_N, s->last[1] / URB_N, a);
        tavi_bprintf(buf, n, "A%s", a);
    }
}

/* The drawing view for any viewer (Urbino hides nothing): buildings with
 * their district, architects, lots, counted monuments, supplies, districts
 * with who scores them now. */
static void urbino_board_view(const void *st, int viewer, tav_board_view *v)
{
    const urbino_state *s = st;
    (void)viewer;
    memset(v, 0, sizeof *v);
    v->width = v->height = URB_N;
    v->hands = TAV_HANDS_COUNT;
    int8_t lab[URB_SQ];
    urb_district dist[URB_SQ];
    int nd = urb_districts(s, s->variant, lab, dist);
    ubb lots = urb_current_lots(s);
    ubb monument = { { 0, 0 } };
    if (s->variant == VAR_MONUMENTS)
        for (int q = 0; q < URB_SQ; q++) {
            if (!s->cell[q])
                continue;
            int c = (s->cell[q] - 1) / 3;
            const urb_district *d = &dist[lab[q]];
            for (int dir = 0; dir < 2 && d->monument[c]; dir++) {
                int step = dir == 0 ? 1 : URB_N, m = urb_monument_line(s, q, dir);
                if (m && m == d->monument[c])
                    for (int k = 0; k < 3; k++)
                        ubb_set(&monument, q + k * step);
            }
        }
    for (int q = 0; q < URB_SQ; q++) {
        tav_square *sq = &v->sq[q];
        sq->glyph = urb_letter(s, q);
        if (q == s->arch[0] || q == s->arch[1]) {
            sq->kind = 'A';
            sq->owner = TAV_DRAW;
        } else if (s->cell[q]) {
            sq->kind = urb_type_letter[(s->cell[q] - 1) % 3];
            sq->owner = (int8_t)((s->cell[q] - 1) / 3);
            sq->region = (uint16_t)(lab[q] + 1);
        } else {
            sq->owner = TAV_NONE;
        }
        if (q == s->last[0] || q == s->last[1] || q == s->last[2])
            sq->marks |= TAV_MARK_LAST;
        if (ubb_has(lots, q) && s->phase != PH_OVER)
            sq->marks |= TAV_MARK_LOT;
        if (ubb_has(monument, q))
            sq->marks |= TAV_MARK_MONUMENT;
    }
    v->to_move = urbino_to_move(s);
    static const char *const phase[] = { "setup", "setup", "choose", "play", "play", "over" };
    tavi_bprintf(v->phase, sizeof v->phase, "%s", phase[s->phase]);
    int score[2], leader;
    urb_score(s, score, &leader);
    for (int c = 0; c < 2; c++) {
        tav_side_view *sv = &v->side[c];
        sv->nitems = 3;
        for (int t = 0; t < 3; t++) {
            sv->item[t].kind = urb_type_letter[t];
            sv->item[t].count = (uint8_t)(urb_supply[t] - s->placed[c][t]);
            tavi_bprintf(sv->item[t].name, sizeof sv->item[t].name, "%s",
                        t == URB_HOUSE ? "houses" : t == URB_PALACE ? "palaces" : "towers");
            sv->on_board += s->placed[c][t];
        }
        sv->score = score[c];
        tavi_bprintf(sv->text, sizeof sv->text, "H%d P%d T%d", sv->item[0].count,
                    sv->item[1].count, sv->item[2].count);
    }
    for (int i = 0; i < nd && i < TAV_MAX_REGIONS; i++) {
        tav_region *r = &v->region[v->nregions++];
        r->id = (uint16_t)(i + 1);
        r->value[0] = dist[i].value[0];
        r->value[1] = dist[i].value[1];
        r->scorer = dist[i].scorer;
        r->points = dist[i].scorer == TAV_NONE ? 0 : dist[i].value[dist[i].scorer];
    }
    tavi_bprintf(v->info, sizeof v->info, "%s, score %d:%d, %d lots, passes %d",
                s->variant == VAR_MONUMENTS ? "monuments" : "standard", score[0], score[1],
                ubb_count(lots), s->passes);
    if (s->phase == PH_OVER) {
        int sc[2][4];
        urb_tally(s, sc);
        int i = urb_tier(sc);
        static const char *const what[4] = {"points", "towers", "palaces", "houses"};
        const char *win = i == 4 ? NULL : sc[0][i] > sc[1][i] ? "White" : "Black";
        char tie[160] = "";
        static const char *const equal[4] = {"", "points", "points and towers",
                                             "points, towers and palaces"};
        if (i > 0 && i < 4)
            tavi_bprintf(tie, sizeof tie, " Equal %s; %s has more %s in the districts it "
                        "scores, %d to %d.", equal[i], win, what[i],
                        sc[0][i] > sc[1][i] ? sc[0][i] : sc[1][i],
                        sc[0][i] > sc[1][i] ? sc[1][i] : sc[0][i]);
        if (!win)
            tavi_bprintf(v->end, sizeof v->end,
                        "Neither player could build any more. %d points each, and equal towers, "
                        "palaces and houses in the districts each scores: a draw.", score[0]);
        else
            tavi_bprintf(v->end, sizeof v->end,
                        "Neither player could build any more. White scores %d point%s, Black "
                        "%d.%s %s wins.", score[0], score[0] == 1 ? "" : "s", score[1], tie, win);
    }
    urb_last_text(s, v->last_move, sizeof v->last_move);
}

/* Parse the options: variant=standard|monuments. */
static int urb_options(const char *options, int *variant, char *err, size_t errlen)
{
    tavi_optiter it = { options ? options : "" };
    char key[32], val[32];
    int r;
    *variant = VAR_STANDARD;
    while ((r = tavi_opt_next(&it, key, sizeof key, val, sizeof val, err, errlen)) == 1) {
        char q[32];
        if (strcmp(key, "variant") != 0) {
            tavi_quote(q, sizeof q, key, sizeof q - 1);
            tavi_bprintf(err, errlen, "unknown option '%s' (expected variant=standard|monuments)",
                        q);
            return -1;
        }
        if (strcmp(val, "standard") == 0)
            *variant = VAR_STANDARD;
        else if (strcmp(val, "monuments") == 0)
            *variant = VAR_MONUMENTS;
        else {
            tavi_quote(q, sizeof q, val, sizeof q - 1);
            tavi_bprintf(err, errlen, "bad value '%s' for variant (expected standard|monuments)",
                        q);
            return -1;
        }
    }
    return r;
}

/* An empty board, black to place the first architect. */
static void urb_clear(urbino_state *s, int variant)
{
    memset(s, 0, sizeof *s);
    s->arch[0] = s->arch[1] = URB_NONE;
    s->last[0] = s->last[1] = s->last[2] = URB_NONE;
    s->phase = PH_PLACE1;
    s->tomove = TAV_BLACK;
    s->variant = (uint8_t)variant;
}

/* Set up a new game. */
static int urbino_init(void *st, const char *options, char *err, size_t errlen)
{
    int variant;
    if (urb_options(options, &variant, err, errlen) != 0)
        return -1;
    urb_clear(st, variant);
    return 0;
}

/* Verify the building rules on the whole board: blocks per district, palace and tower contacts. */
static int urb_board_ok(const urbino_state *s, char *err, size_t errlen)
{
    int8_t lab[URB_SQ];
    urb_district dist[URB_SQ];
    int nd = urb_districts(s, VAR_STANDARD, lab, dist);
    char a[4];
    for (int i = 0; i < nd; i++)
        for (int c = 0; c < 2; c++)
            if (dist[i].blocks[c] > 1) {
                tavi_square_str(dist[i].first % URB_N, dist[i].first / URB_N, a);
                tavi_bprintf(err, errlen, "the district at %s has %d %s blocks (at most 1)", a,
                            dist[i].blocks[c], tav_side_name(c));
                return -1;
            }
    for (int q = 0; q < URB_SQ; q++) {
        int qf = q % URB_N;
        int right = qf < URB_N - 1 ? q + 1 : -1, up = q + URB_N < URB_SQ ? q + URB_N : -1;
        int nb[2] = { right, up };
        for (int i = 0; i < 2; i++) {
            int x = nb[i];
            if (x < 0)
                continue;
            if ((ubb_has(s->pal, q) && ubb_has(s->pal, x)) ||
                (ubb_has(s->tow, q) && ubb_has(s->tow, x))) {
                tavi_square_str(q % URB_N, q / URB_N, a);
                tavi_bprintf(err, errlen, "two %s side by side at %s",
                            ubb_has(s->pal, q) ? "palaces" : "towers", a);
                return -1;
            }
        }
    }
    return 0;
}

/* Parse the position text (see docs/rules/urbino.md). */
static int urbino_set_position(void *st, const char *text, char *err, size_t errlen)
{
    urbino_state t;
    urb_clear(&t, ((const urbino_state *)st)->variant);
    int narch = 0, line = 0, have[4] = { 0, 0, 0, 0 };
    int phase = -1, tomove = -2, passes = -1, variant = t.variant;
    const char *p = text ? text : "";
    while (*p) {
        const char *e = strchr(p, '\n');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        /* Trim blanks and a carriage return. */
        const char *b = p;
        while (len > 0 && (*b == ' ' || *b == '\t')) {
            b++;
            len--;
        }
        while (len > 0 && (b[len - 1] == ' ' || b[len - 1] == '\t' || b[len - 1] == '\r'))
            len--;
        p = e ? e + 1 : p + strlen(p);
        if (len == 0)
            continue;
        line++;
        if (line <= URB_N) {
            int r = URB_N - line;
            if (len != URB_N) {
                tavi_bprintf(err, errlen, "line %d (rank %d): expected 9 squares, got %zu", line,
                            r + 1, len);
                return -1;
            }
            for (int f = 0; f < URB_N; f++) {
                char ch = b[f];
                int q = r * URB_N + f;
                const char *lt = strchr("HPThpt", ch);
                if (ch == '.')
                    continue;
                if (ch == 'A') {
                    if (narch >= 2) {
                        tavi_bprintf(err, errlen, "line %d column %d: a third architect", line,
                                    f + 1);
                        return -1;
                    }
                    t.arch[narch++] = (uint8_t)q;
                    continue;
                }
                if (!lt || !ch) {
                    tavi_bprintf(err, errlen,
                                "line %d column %d: unexpected '%c' (expected . A H P T h p t)",
                                line, f + 1, tavi_quote_char(ch));
                    return -1;
                }
                int k = (int)(lt - "HPThpt"), c = k / 3, ty = k % 3;
                if (t.placed[c][ty] >= urb_supply[ty]) {
                    tavi_bprintf(err, errlen, "line %d column %d: more than %d %s %s", line, f + 1,
                                urb_supply[ty], tav_side_name(c),
                                ty == 0 ? "houses" : ty == 1 ? "palaces" : "towers");
                    return -1;
                }
                urb_put(&t, c, ty, q);
            }
            continue;
        }
        const char *eq = memchr(b, '=', len);
        char key[16], val[16];
        size_t kl = eq ? (size_t)(eq - b) : 0, vl = eq ? len - kl - 1 : 0;
        if (!eq || kl == 0 || kl >= sizeof key || vl >= sizeof val) {
            tavi_bprintf(err, errlen,
                        "line %d: expected key=value (phase, tomove, passes, variant)", line);
            return -1;
        }
        memcpy(key, b, kl);
        key[kl] = '\0';
        memcpy(val, eq + 1, vl);
        val[vl] = '\0';
        int which = strcmp(key, "phase") == 0     ? 0
                    : strcmp(key, "tomove") == 0  ? 1
                    : strcmp(key, "passes") == 0  ? 2
                    : strcmp(key, "variant") == 0 ? 3
                                                  : -1;
        char q[sizeof key + sizeof val];   /* either, quoted whole */
        if (which < 0) {
            tavi_quote(q, sizeof q, key, sizeof q - 1);
            tavi_bprintf(err, errlen,
                        "line %d: unknown key '%s' (expected phase, tomove, passes, variant)",
                        line, q);
            return -1;
        }
        if (have[which]++) {
            tavi_bprintf(err, errlen, "line %d: '%s' given twice", line, key);
            return -1;
        }
        int bad = 0;
        if (which == 0) {
            for (int i = 0; i < 6; i++)
                if (strcmp(val, urb_phase_name[i]) == 0)
                    phase = i;
            bad = phase < 0;
        } else if (which == 1) {
            tomove = strcmp(val, "white") == 0   ? TAV_WHITE
                     : strcmp(val, "black") == 0 ? TAV_BLACK
                     : strcmp(val, "none") == 0  ? TAV_NONE
                                                 : -2;
            bad = tomove == -2;
        } else if (which == 2) {
            passes = strcmp(val, "0") == 0 ? 0 : strcmp(val, "1") == 0 ? 1
                     : strcmp(val, "2") == 0 ? 2 : -1;
            bad = passes < 0;
        } else {
            variant = strcmp(val, "standard") == 0    ? VAR_STANDARD
                      : strcmp(val, "monuments") == 0 ? VAR_MONUMENTS
                                                      : -1;
            bad = variant < 0;
        }
        if (bad) {
            static const char *const expect[4] = {
                "place1|place2|choose|first|play|over", "white|black|none", "0|1|2",
                "standard|monuments" };
            tavi_quote(q, sizeof q, val, sizeof q - 1);
            tavi_bprintf(err, errlen, "line %d: bad value '%s' for %s (expected %s)", line, q,
                        key, expect[which]);
            return -1;
        }
    }
    if (line < URB_N) {
        tavi_bprintf(err, errlen, "the board needs 9 lines (rank 9 first), got %d", line);
        return -1;
    }
    if (!have[0] || !have[1] || !have[2]) {
        tavi_bprintf(err, errlen, "missing %s= line", !have[0] ? "phase" : !have[1] ? "tomove"
                                                                                   : "passes");
        return -1;
    }
    /* Consistency of phase, side, architects, buildings and passes. */
    int nbld = ubb_count(urb_buildings(&t));
    static const int want_arch[6] = { 0, 1, 2, 2, 2, 2 };
    if (narch != want_arch[phase]) {
        tavi_bprintf(err, errlen, "phase %s needs %d architect(s) on the board, found %d",
                    urb_phase_name[phase], want_arch[phase], narch);
        return -1;
    }
    if (phase <= PH_FIRST && nbld > 0) {
        tavi_bprintf(err, errlen, "phase %s needs an empty board, found %d building(s)",
                    urb_phase_name[phase], nbld);
        return -1;
    }
    int tm_ok = phase == PH_PLACE1 || phase == PH_CHOOSE ? tomove == TAV_BLACK
                : phase == PH_PLACE2                     ? tomove == TAV_WHITE
                : phase == PH_OVER                       ? tomove == TAV_NONE
                                                         : tomove != TAV_NONE;
    if (!tm_ok) {
        tavi_bprintf(err, errlen, "tomove=%s does not fit phase %s", tav_side_name(tomove),
                    urb_phase_name[phase]);
        return -1;
    }
    int ps_ok = phase == PH_OVER ? passes == 2 : phase == PH_PLAY ? passes <= 1 : passes == 0;
    if (!ps_ok) {
        tavi_bprintf(err, errlen, "passes=%d does not fit phase %s", passes,
                    urb_phase_name[phase]);
        return -1;
    }
    if (urb_board_ok(&t, err, errlen) != 0)
        return -1;
    t.phase = (uint8_t)phase;
    t.tomove = (int8_t)tomove;
    t.passes = (uint8_t)passes;
    t.variant = (uint8_t)variant;
    urb_sort_arch(&t);
    memcpy(st, &t, sizeof t);
    return 0;
}

/* Write the position text: 9 board lines, rank 9 first, then key=value lines. */
static int urbino_get_position(const void *st, char *buf, size_t n)
{
    const urbino_state *s = st;
    char text[256];
    size_t k = 0;
    for (int r = URB_N - 1; r >= 0; r--) {
        for (int f = 0; f < URB_N; f++)
            text[k++] = urb_letter(s, r * URB_N + f);
        text[k++] = '\n';
    }
    text[k] = '\0';
    tavi_bprintf(buf, n, "%sphase=%s\ntomove=%s\npasses=%d\nvariant=%s\n", text,
                urb_phase_name[s->phase], tav_side_name(s->tomove), s->passes,
                s->variant == VAR_MONUMENTS ? "monuments" : "standard");
    return 0;
}

/* Append squares of a set, sorted by file then rank, to out ("-" when empty). */
static void urb_squares(ubb set, char *out, size_t n)
{
    size_t k = 0;
    out[0] = '\0';
    for (int f = 0; f < URB_N; f++)
        for (int r = 0; r < URB_N; r++)
            if (ubb_has(set, r * URB_N + f)) {
                char a[4];
                tavi_square_str(f, r, a);
                k += tavi_bprintf(out + k, n - k, "%s%s", k ? " " : "", a);
                if (k + 1 >= n)
                    return;
            }
    if (k == 0)
        tavi_bprintf(out, n, "-");
}

/* The districts holding both colours as they would score now: "SQ
 * white=V(TnPnHn[Mm]) black=V(...) -> SIDE POINTS; ..." ("-> none" when
 * tied), "-" when there is none (the probe `districts`). */
static void urb_districts_text(const urbino_state *s, char *out, size_t n)
{
    int8_t lab[URB_SQ];
    urb_district dist[URB_SQ];
    int nd = urb_districts(s, s->variant, lab, dist);
    size_t k = 0;
    out[0] = '\0';
    for (int i = 0; i < nd; i++) {
        const urb_district *d = &dist[i];
        if (d->colours != 3)
            continue;
        char a[4];
        tavi_square_str(d->first % URB_N, d->first / URB_N, a);
        k += tavi_bprintf(out + k, n - k, "%s%s", k ? "; " : "", a);
        for (int c = 0; c < 2; c++) {
            k += tavi_bprintf(out + k, n - k, " %s=%d(T%dP%dH%d", tav_side_name(c),
                             d->value[c], d->n[c][2], d->n[c][1], d->n[c][0]);
            if (d->monument[c])
                k += tavi_bprintf(out + k, n - k, "M%d", d->monument[c]);
            k += tavi_bprintf(out + k, n - k, ")");
        }
        if (d->scorer == TAV_NONE)
            k += tavi_bprintf(out + k, n - k, " -> none");
        else
            k += tavi_bprintf(out + k, n - k, " -> %s %d", tav_side_name(d->scorer),
                             d->value[d->scorer]);
        if (k + 1 >= n)
            return;
    }
    if (k == 0)
        tavi_bprintf(out, n, "-");
}

/* Game queries: lots, allowed H|P|T [white|black], districts, supply. */
static int urbino_probe(const void *st, const char *key, char *out, size_t n)
{
    const urbino_state *s = st;
    if (strcmp(key, "lots") == 0) {
        urb_squares(urb_current_lots(s), out, n);
        return 0;
    }
    if (strncmp(key, "allowed ", 8) == 0) {
        const char *a = key + 8;
        int t = a[0] == 'H' ? 0 : a[0] == 'P' ? 1 : a[0] == 'T' ? 2 : -1;
        int c = s->tomove == TAV_NONE ? TAV_WHITE : s->tomove;
        if (t < 0)
            return -1;
        if (a[1] == ' ' && strcmp(a + 2, "white") == 0)
            c = TAV_WHITE;
        else if (a[1] == ' ' && strcmp(a + 2, "black") == 0)
            c = TAV_BLACK;
        else if (a[1] != '\0')
            return -1;
        ubb allowed[3];
        urb_allowed(s, c, allowed);
        urb_squares(allowed[t], out, n);
        return 0;
    }
    if (strcmp(key, "districts") == 0) {
        urb_districts_text(s, out, n);
        return 0;
    }
    if (strcmp(key, "supply") == 0) {
        tavi_bprintf(out, n, "white H%d P%d T%d black H%d P%d T%d",
                    urb_supply[0] - s->placed[0][0], urb_supply[1] - s->placed[0][1],
                    urb_supply[2] - s->placed[0][2], urb_supply[0] - s->placed[1][0],
                    urb_supply[1] - s->placed[1][1], urb_supply[2] - s->placed[1][2]);
        return 0;
    }
    if (strcmp(key, "phase") == 0) {
        tavi_bprintf(out, n, "%s", urb_phase_name[s->phase]);
        return 0;
    }
    return -1;
}

/* Recompute bitboards and counts from the cells and verify every invariant. */
static int urbino_check(const void *st, char *err, size_t errlen)
{
    const urbino_state *s = st;
    urbino_state t;
    urb_clear(&t, s->variant);
    for (int q = 0; q < URB_SQ; q++) {
        if (s->cell[q] > 6) {
            tavi_bprintf(err, errlen, "bad cell value %d at square %d", s->cell[q], q);
            return -1;
        }
        if (s->cell[q])
            urb_put(&t, (s->cell[q] - 1) / 3, (s->cell[q] - 1) % 3, q);
    }
    if (!ubb_eq(t.bld[0], s->bld[0]) || !ubb_eq(t.bld[1], s->bld[1]) ||
        !ubb_eq(t.pal, s->pal) || !ubb_eq(t.tow, s->tow) ||
        memcmp(t.placed, s->placed, sizeof t.placed) != 0) {
        tavi_bprintf(err, errlen, "bitboards or counts differ from the cells");
        return -1;
    }
    for (int c = 0; c < 2; c++)
        for (int ty = 0; ty < 3; ty++)
            if (s->placed[c][ty] > urb_supply[ty]) {
                tavi_bprintf(err, errlen, "%s has placed too many of type %d", tav_side_name(c),
                            ty);
                return -1;
            }
    static const int want_arch[6] = { 0, 1, 2, 2, 2, 2 };
    int narch = (s->arch[0] != URB_NONE) + (s->arch[1] != URB_NONE);
    if (s->phase > PH_OVER || narch != want_arch[s->phase] ||
        (narch >= 1 && (s->arch[0] >= URB_SQ || s->cell[s->arch[0]])) ||
        (narch == 2 && (s->arch[1] >= URB_SQ || s->cell[s->arch[1]] ||
                        s->arch[0] >= s->arch[1]))) {
        tavi_bprintf(err, errlen, "architects inconsistent with phase %d", s->phase);
        return -1;
    }
    if ((s->phase == PH_OVER) != (s->tomove == TAV_NONE) || s->passes > 2 ||
        (s->phase == PH_OVER) != (s->passes == 2) || s->pad != 0) {
        tavi_bprintf(err, errlen, "phase, side or passes inconsistent");
        return -1;
    }
    return urb_board_ok(s, err, errlen);
}

/* ---- The ai player (docs/ai/urbino.md) ----------------------------------------------- */

#ifndef URB_AI_CAND
#define URB_AI_CAND 4        /* random repositionings tried per playout move */
#endif
#ifndef URB_AI_SINGLE
#define URB_AI_SINGLE 0.35   /* weight of a one-colour district's value (future points) */
#endif
#ifndef URB_AI_SCALE0
#define URB_AI_SCALE0 3.0    /* squash scale at the end of the game */
#endif
#ifndef URB_AI_SCALE1
#define URB_AI_SCALE1 0.12   /* extra scale per point of building value left in both supplies */
#endif

/* Material of the position for `side`, in points: score now, plus a share of each one-colour
 * district (points it may score once the other colour joins it).  Sets *leader to the player
 * ahead under the final tie-breaks. */
static double urb_material(const urbino_state *s, int side, int *leader)
{
    int8_t lab[URB_SQ];
    urb_district dist[URB_SQ];
    int nd = urb_districts(s, s->variant, lab, dist);
    int sc[2][4] = { { 0, 0, 0, 0 }, { 0, 0, 0, 0 } };
    double single[2] = { 0, 0 };
    for (int i = 0; i < nd; i++) {
        const urb_district *d = &dist[i];
        if (d->colours != 3) {
            int c = d->colours == 1 ? 0 : 1;
            single[c] += d->value[c];
            continue;
        }
        int c = d->scorer;
        if (c == TAV_NONE)
            continue;
        sc[c][0] += d->value[c];
        sc[c][1] += d->n[c][URB_TOWER];
        sc[c][2] += d->n[c][URB_PALACE];
        sc[c][3] += d->n[c][URB_HOUSE];
    }
    *leader = TAV_DRAW;
    for (int i = 0; i < 4 && *leader == TAV_DRAW; i++)
        if (sc[0][i] != sc[1][i])
            *leader = sc[0][i] > sc[1][i] ? TAV_WHITE : TAV_BLACK;
    int o = 1 - side;
    return (double)(sc[side][0] - sc[o][0]) + URB_AI_SINGLE * (single[side] - single[o]);
}

/* Building value left in a player's supply. */
static int urb_left(const urbino_state *s, int c)
{
    int v = 0;
    for (int t = 0; t < 3; t++)
        v += (urb_supply[t] - s->placed[c][t]) * urb_value[t];
    return v;
}

/* Heuristic value for `side` in [0, 1]: material squashed by a scale that shrinks as the
 * supplies empty; exact on a finished game. */
static double urbino_eval(const void *st, int side)
{
    const urbino_state *s = st;
    if (side != TAV_WHITE && side != TAV_BLACK)
        return 0.5;
    if (s->phase == PH_OVER) {
        tav_result r;
        urbino_result(s, &r);
        return r.winner == side ? 1.0 : r.winner == 1 - side ? 0.0 : 0.5;
    }
    if (s->phase < PH_PLAY)
        return 0.5;
    int leader;
    double m = urb_material(s, side, &leader);
    if (leader == side)
        m += 0.25;
    else if (leader == 1 - side)
        m -= 0.25;
    double scale = URB_AI_SCALE0 + URB_AI_SCALE1 * (urb_left(s, 0) + urb_left(s, 1));
    return 1.0 / (1.0 + exp(-m / scale));
}

/* A random square of a non-empty set. */
static int urb_pick(ubb b, tav_rng *rng)
{
    int n0 = tavi_popcount(b.w[0]), n = n0 + tavi_popcount(b.w[1]);
    int k = (int)tav_rng_below(rng, (uint32_t)n), w = 0;
    uint64_t x = b.w[0];
    if (k >= n0) {
        k -= n0;
        w = 1;
        x = b.w[1];
    }
    while (k-- > 0)
        x &= x - 1;
    return w * 64 + tavi_ctz(x);
}

/* Material contribution of one district for `side` (see urb_material). */
static double urb_contrib(int colours, const int value[2], const int mon[2], const int n[2][3],
                          int side)
{
    if (colours == 0)
        return 0;
    if (colours != 3) {
        int c = colours == 1 ? 0 : 1;
        return (c == side ? URB_AI_SINGLE : -URB_AI_SINGLE) * value[c];
    }
    int w = urb_scorer(value, mon, n);
    if (w == TAV_NONE)
        return 0;
    return w == side ? value[w] : -value[w];
}

/* Change of urb_material for colour c when c builds type t on empty square sq, from the
 * districts of the position (monuments: approximated, the new building forms none). */
static double urb_gain(const urbino_state *s, const int8_t *lab, const urb_district *dist, int c,
                       int t, int sq)
{
    int beside[4], ns = urb_districts_beside(s, lab, sq, beside);
    int colours = 1 << c, value[2] = { 0, 0 }, mon[2] = { 0, 0 };
    int n[2][3] = { { 0, 0, 0 }, { 0, 0, 0 } };
    double before = 0;
    value[c] = urb_value[t];
    n[c][t] = 1;
    for (int i = 0; i < ns; i++) {
        const urb_district *d = &dist[beside[i]];
        before += urb_contrib(d->colours, d->value, d->monument, d->n, c);
        colours |= d->colours;
        for (int k = 0; k < 2; k++) {
            value[k] += d->value[k];
            if (d->monument[k] > mon[k])
                mon[k] = d->monument[k];
            for (int y = 0; y < 3; y++)
                n[k][y] += d->n[k][y];
        }
    }
    return urb_contrib(colours, value, mon, n, c) - before;
}

/* Playout policy: look at every building lot of the architects where they stand and of
 * URB_AI_CAND random repositionings (one architect to a random empty square), every type
 * allowed on each, and play the move that raises the mover's material most (urb_gain; ties
 * broken at random).  Legal by construction: lots of a reachable configuration intersected
 * with the squares where the type may stand.  Falls back on the full list when no sampled
 * configuration has a lot (then pass may be the only move). */
static int urbino_playout_move(const void *st, tav_rng *rng, tav_move *scratch, tav_move *m)
{
    const urbino_state *s = st;
    if (s->phase == PH_OVER)
        return 0;
    if (s->phase < PH_FIRST) {
        int n = urbino_legal(s, scratch);
        *m = scratch[tav_rng_below(rng, (uint32_t)n)];
        return 1;
    }
    int c = s->tomove;
    int8_t lab[URB_SQ];
    urb_district dist[URB_SQ];
    urb_districts(s, s->variant, lab, dist);
    ubb allowed[3], any = { { 0, 0 } };
    urb_allowed_lab(s, c, allowed, lab, dist);
    for (int t = 0; t < 3; t++) {
        if (s->placed[c][t] >= urb_supply[t])
            allowed[t].w[0] = allowed[t].w[1] = 0;
        any = ubb_or(any, allowed[t]);
    }
    if (!ubb_any(any)) {
        *m = urb_move(MK_PASS, 0, 0, 0, 0, 0);
        return 1;
    }
    ubb bld = urb_buildings(s);
    ubb empty = ubb_andnot(urb_board, bld);
    ubb_clear(&empty, s->arch[0]);
    ubb_clear(&empty, s->arch[1]);
    tav_move best = 0;
    double bestv = -1e9;
    int found = 0, nties = 0;
    int configs = s->phase == PH_PLAY && ubb_any(empty) ? 1 + URB_AI_CAND : 1;
    for (int k = 0; k < configs; k++) {
        int a = s->arch[0], b = s->arch[1], from = 0, to = 0, rep = k > 0;
        if (rep) {
            int i = (int)tav_rng_below(rng, 2);
            from = s->arch[i];
            to = urb_pick(empty, rng);
            a = to;
            b = s->arch[1 - i];
        }
        ubb cand = ubb_and(urb_lots(bld, a, b), any);
        for (int w = 0; w < 2; w++)
            for (uint64_t x = cand.w[w]; x; x &= x - 1) {
                int sq = w * 64 + tavi_ctz(x);
                found = 1;
                for (int t = 0; t < 3; t++) {
                    if (!ubb_has(allowed[t], sq))
                        continue;
                    double v = urb_gain(s, lab, dist, c, t, sq);
                    tav_move mv = urb_move(MK_BUILD, t, sq, from, to, rep);
                    if (v > bestv + 1e-9) {
                        bestv = v;
                        nties = 1;
                        best = mv;
                    } else if (v > bestv - 1e-9 &&
                               tav_rng_below(rng, (uint32_t)++nties) == 0) {
                        best = mv;
                    }
                }
            }
    }
    if (!found) {
        int n = urbino_legal(s, scratch);
        *m = scratch[tav_rng_below(rng, (uint32_t)n)];
        return 1;
    }
    *m = best;
    return 1;
}

/* Move ordering for alpha-beta: material gained by the move (no move is noisy). */
static int urbino_move_score(const void *st, tav_move m)
{
    const urbino_state *s = st;
    if (mv_kind(m) != MK_BUILD)
        return 0;
    int leader, c = s->tomove;
    urbino_state tmp = *s;
    urb_put(&tmp, c, mv_type(m), mv_sq(m));
    return (int)(10.0 * urb_material(&tmp, c, &leader)) - mv_rep(m);
}

/* ---- for people ---------------------------------------------------------- */

/* Why a building may not stand where it was typed ("Td4", "e5-g7,Td4"). */
static int urbino_explain_move(const void *st, const char *text, const tav_move *legal, int n,
                               char *meant, size_t mn, char *why, size_t wn)
{
    const urbino_state *s = st;
    (void)legal;
    (void)n;
    (void)meant;
    (void)mn;
    const char *b = strchr(text, ',');
    b = b ? b + 1 : text;
    char t = (char)(*b >= 'a' && *b <= 'z' ? *b - 'a' + 'A' : *b);
    if ((t != 'H' && t != 'P' && t != 'T') || b[1] < 'a' || b[1] > 'i' || b[2] < '1' ||
        b[2] > '9' || b[3])
        return 0;
    int f = b[1] - 'a', r = b[2] - '1', q = r * URB_N + f;
    if (s->cell[q] || q == s->arch[0] || q == s->arch[1]) {
        tavi_bprintf(why, wn, "%c%d is taken", 'a' + f, r + 1);
        return 0;
    }
    if (!strchr(text, ',') && !(ubb_has(urb_current_lots(s), q) && s->phase != PH_OVER)) {
        tavi_bprintf(why, wn, "%c%d is not a building lot now (a lot is a square both architects "
                    "see); moving an architect first can make it one", 'a' + f, r + 1);
        return 0;
    }
    if (t == 'H')
        return 0;
    static const int d[4][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};
    for (int k = 0; k < 4; k++) {
        int ff = f + d[k][0], rr = r + d[k][1], x = rr * URB_N + ff;
        if (ff < 0 || rr < 0 || ff >= URB_N || rr >= URB_N)
            continue;
        if (s->cell[x] && x != s->arch[0] && x != s->arch[1] &&
            urb_type_letter[(s->cell[x] - 1) % 3] == t) {
            const char *nm = t == 'T' ? "tower" : "palace";
            tavi_bprintf(why, wn, "a %s may not stand beside a %s (%c%d has one, of either colour)",
                        nm, nm, 'a' + ff, rr + 1);
            break;
        }
    }
    return 0;
}

/* The districts as they score now, for people. */
static int urbino_describe(const void *st, char *buf, size_t n)
{
    char d[2048];
    urb_districts_text(st, d, sizeof d);
    if (strcmp(d, "-") == 0)
        return (int)tavi_bprintf(buf, n, " districts: none scores yet (a district scores once both "
                                         "colours build in it)\n");
    size_t k = tavi_bprintf(buf, n, " districts (square, block values, who scores now):\n");
    char *save = NULL;
    for (char *p = strtok_r(d, ";", &save); p; p = strtok_r(NULL, ";", &save))
        k += tavi_bprintf(buf + k, n - k, "   %s\n", p + strspn(p, " "));
    return (int)k;
}

static int urbino_explain_result(const void *st, char *buf, size_t n)
{
    const urbino_state *s = st;
    tav_result r;
    urbino_result(st, &r);
    size_t k = tavi_bprintf(buf, n, " Urbino is won by the higher sum of district points: white %d, "
                                    "black %d.\n", r.score[0], r.score[1]);
    if (r.score[0] == r.score[1])
        k += tavi_bprintf(buf + k, n - k, " The sums are equal, so the scored buildings decide: more "
                                          "towers, then more palaces,\n then more houses; %s.\n",
                         r.winner == TAV_DRAW ? "they are equal too" : "that decided it");
    char d[2048];
    urb_districts_text(s, d, sizeof d);
    if (strcmp(d, "-") != 0) {
        k += tavi_bprintf(buf + k, n - k, " Districts (square, block values, who scores):\n");
        char *save = NULL;
        for (char *p = strtok_r(d, ";", &save); p; p = strtok_r(NULL, ";", &save))
            k += tavi_bprintf(buf + k, n - k, "   %s\n", p + strspn(p, " "));
    }
    return (int)k;
}

/* Long move lists: each architect move (or none) with the buildings it
 * allows, and architect moves that allow the same buildings on one line. */
typedef struct urb_listed {
    char key[16];     /* "g3-a1", or "" for no architect move */
    char type;        /* H, P, T */
    char sq[4];
} urb_listed;

static int urb_listed_cmp(const void *a, const void *b)
{
    const urb_listed *x = a, *y = b;
    int c = strcmp(x->key, y->key);
    if (c)
        return c;
    static const char order[] = "HPT";
    c = (int)(strchr(order, x->type) - order) - (int)(strchr(order, y->type) - order);
    if (c)
        return c;
    if (x->sq[1] != y->sq[1] || x->sq[2] != y->sq[2])   /* by rank, then file */
        return strcmp(x->sq + 1, y->sq + 1);
    return x->sq[0] - y->sq[0];
}

/* One line "  HEAD TEXT" wrapped at 100 columns, continuation lines indented. */
static void urb_wrapped(const char *head, const char *text, tav_info_fn out, void *ctx)
{
    size_t cap = strlen(head) + 128;
    char *line = malloc(cap);
    if (!line)
        return;
    size_t col = tavi_bprintf(line, cap, "  %s", head);
    const char *p = text;
    while (*p) {
        size_t w = strcspn(p, " ");
        if (col + 1 + w > 100 && col > 8) {
            out(ctx, line);
            col = tavi_bprintf(line, cap, "       ");
        }
        if (col + 1 + w < cap)
            col += tavi_bprintf(line + col, cap - col, " %.*s", (int)w, p);
        p += w;
        while (*p == ' ')
            p++;
    }
    out(ctx, line);
    free(line);
}

/* (Allocates its work lists; prints nothing more when memory runs out.) */
static void urbino_list_moves(char *const *moves, int n, tav_info_fn out, void *ctx)
{
    out(ctx, ", by architect move (or none), then building and square; architect moves that "
             "allow the same");
    out(ctx, " buildings share a line:");
    urb_listed *u = calloc((size_t)n + 1, sizeof *u);
    char (*keys)[16] = calloc((size_t)n + 1, sizeof *keys);
    char **opts = calloc((size_t)n + 1, sizeof *opts);
    int k = 0, ng = 0;
    char line[TAV_MOVE_TEXT + 8];
    for (int i = 0; u && keys && opts && i < n; i++) {
        const char *mv = moves[i], *comma = strchr(mv, ',');
        const char *b = comma ? comma + 1 : mv;
        if (b[0] != 'H' && b[0] != 'P' && b[0] != 'T') {
            tavi_bprintf(line, sizeof line, "  %s", mv);   /* placements, first:..., pass */
            out(ctx, line);
            continue;
        }
        if (comma)
            tavi_bprintf(u[k].key, sizeof u[k].key, "%.*s", (int)(comma - mv), mv);
        u[k].type = b[0];
        tavi_bprintf(u[k].sq, sizeof u[k].sq, "%s", b + 1);
        k++;
    }
    if (u)
        qsort(u, (size_t)k, sizeof *u, urb_listed_cmp);
    /* One option text per architect move: the squares for each type, types
     * with the same squares sharing them. */
    for (int i = 0; u && keys && opts && i < k;) {
        int j = i;
        size_t cap = 64 + 3 * 512, len = 0;
        char *o = malloc(cap);
        if (!o)
            break;
        o[0] = '\0';
        char sqs[3][512];
        static const char types[] = "HPT";
        static const char *const tnames[] = {"house", "palace", "tower"};
        for (int t = 0; t < 3; t++)
            sqs[t][0] = '\0';
        while (j < k && strcmp(u[j].key, u[i].key) == 0) {
            int t = (int)(strchr(types, u[j].type) - types);
            size_t l = strlen(sqs[t]);
            if (l + 5 < sizeof sqs[t])
                tavi_bprintf(sqs[t] + l, sizeof sqs[t] - l, " %s", u[j].sq);
            j++;
        }
        int done[3] = {0, 0, 0};
        for (int t = 0; t < 3; t++) {
            if (done[t] || !sqs[t][0])
                continue;
            len += tavi_bprintf(o + len, cap - len, "%s%s", len ? "; " : "", tnames[t]);
            for (int t2 = t + 1; t2 < 3; t2++)
                if (!done[t2] && strcmp(sqs[t], sqs[t2]) == 0) {
                    done[t2] = 1;
                    len += tavi_bprintf(o + len, cap - len, "/%s", tnames[t2]);
                }
            len += tavi_bprintf(o + len, cap - len, "%s", sqs[t]);
        }
        tavi_bprintf(keys[ng], sizeof keys[ng], "%s", u[i].key);
        opts[ng++] = o;
        i = j;
    }
    /* Architect moves with the same options share a line. */
    for (int g = 0; keys && opts && g < ng; g++) {
        if (!opts[g])
            continue;
        size_t hcap = 16 * (size_t)ng + 32, hl = 0;
        char *head = malloc(hcap);
        if (!head)
            break;
        head[0] = '\0';
        for (int h = g; h < ng; h++) {
            if (!opts[h] || strcmp(opts[h], opts[g]) != 0)
                continue;
            hl += tavi_bprintf(head + hl, hcap - hl, "%s%s", hl ? " " : "",
                              keys[h][0] ? keys[h] : "(no architect move)");
            if (h != g) {
                free(opts[h]);
                opts[h] = NULL;
            }
        }
        tavi_bprintf(head + hl, hcap - hl, ":");
        urb_wrapped(head, opts[g], out, ctx);
        free(head);
        free(opts[g]);
        opts[g] = NULL;
    }
    for (int g = 0; opts && g < ng; g++)
        free(opts[g]);
    free(keys);
    free(opts);
    free(u);
}

static const char *const urb_menu_values[] = {"standard", "monuments", NULL};
static const char *const urb_menu_labels[] = {
    "standard", "monuments (three buildings in a row form a monument that doubles its value)"};
static const tav_choice urb_menu = {"variant", "Which rules?", urb_menu_values, urb_menu_labels,
                                    NULL};

/* The rules for people (docs/rules/urbino.md has them as implemented). */
static const tav_rules_section urb_rules[] = {
    {"The goal",
     "Two players build one town on a 9\u00d79 board. Buildings that touch edge to edge form a "
     "district. At the end, in every district where both colours stand, the player whose "
     "buildings there are worth more scores them. The higher total wins."},
    {"Setup",
     "The board starts empty. Black puts down the first architect (a marker shared by both "
     "players), white the second, then black decides who builds first."},
    {"A turn",
     "You may first move one architect to any empty square. Then you must put one of your "
     "buildings on a lot: an empty square that both architects see along a straight line (in "
     "any of the 8 directions; sight stops at the first occupied square).\n\n"
     "A house is worth 1, a palace 2, a tower 3. In a district each colour may form only one "
     "connected group, and no two palaces and no two towers may touch: a lot where this would "
     "break is not offered."},
    {"The end and the score",
     "A player who cannot build passes; when both pass in a row the game is over. Each district "
     "holding both colours goes to the player with the higher total there (ties: more towers, "
     "then palaces, then houses), who scores that total.\n\n"
     "In the Monuments variant, three buildings of one colour in a straight line "
     "(house-house-house, palace-house-palace or tower-palace-tower) count double."},
    {NULL, NULL},
};

static const char *const urbino_samples[] = {"", "variant=monuments", NULL};

const tav_game tavi_urbino_game = {
    .abi_version = TAV_GAME_ABI_VERSION,
    .name = "urbino",
    .state_size = sizeof(urbino_state),
    .max_moves = URB_MAX_MOVES,
    .init = urbino_init,
    .samples = urbino_samples,
    .bench_games = 200,
    .board_view = urbino_board_view,
    .legal = urbino_legal,
    .play = urbino_play,
    .to_move = urbino_to_move,
    .result = urbino_result,
    .move_str = urbino_move_str,
    .hash = urbino_hash,
    .set_position = urbino_set_position,
    .get_position = urbino_get_position,
    .probe = urbino_probe,
    .check = urbino_check,
    .move_parts = urbino_move_parts,
    .title = "Urbino",
    .pitch = "Two shared architects, one town: build where both can see, win the districts.",
    .score_words = "district points",
    .score_wins = TAV_SCORE_HIGHER_WINS,
    .rules = urb_rules,
    .menu = &urb_menu,
    .explain_move = urbino_explain_move,
    .describe = urbino_describe,
    .explain_result = urbino_explain_result,
    .list_moves = urbino_list_moves,
    .eval = urbino_eval,
    .playout_move = urbino_playout_move,
    .move_score = urbino_move_score,
};
