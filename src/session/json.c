/*
 * json.c — the library's one JSON writer for a game (docs/server-api.md):
 * a growing buffer with escaped, valid UTF-8 strings, the drawing view
 * (squares, sides and their hands, regions), the legal moves with their
 * parts in groups (legal, legalGroups) and the meta answer.  The game server's edge
 * (src/server/json.c) and the page's engine (src/wasm/tavwasm.c) both write
 * with it, so both speak the same bytes.  No jansson, no global state.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "session/json.h"
#include "tavoliere.h"
#include "tavoliere_search.h"
#include "tavoliere_session.h"

/* Length of the valid UTF-8 sequence at s (1..4), or 0 when invalid (an
 * overlong form, a surrogate, past U+10FFFF, or cut short). */
int tavi_utf8_seq(const unsigned char *s)
{
    unsigned c = s[0];
    int n = c < 0x80 ? 1 : (c & 0xe0) == 0xc0 ? 2 : (c & 0xf0) == 0xe0 ? 3 : (c & 0xf8) == 0xf0 ? 4 : 0;
    if (n <= 1)
        return n;
    unsigned cp = c & (0x7fu >> n);
    for (int i = 1; i < n; i++) {
        if ((s[i] & 0xc0) != 0x80)
            return 0;
        cp = (cp << 6) | (s[i] & 0x3f);
    }
    static const unsigned least[5] = {0, 0, 0x80, 0x800, 0x10000};
    if (cp < least[n] || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
        return 0;
    return n;
}

static const char *owner_name(int owner)
{
    switch (owner) {
    case TAV_WHITE: return "white";
    case TAV_BLACK: return "black";
    default: return "neutral";
    }
}

const char *tavi_json_side_name(int side)
{
    return side == TAV_WHITE ? "white" : side == TAV_BLACK ? "black" : "none";
}

/* ---- a direct writer for the answers built at every change ----
 *
 * A game's JSON is built once per change and kind of viewer, and its legal
 * moves can be thousands: it is written straight into one growing buffer
 * (no tree of nodes, no allocation per value), which is several times
 * cheaper than building it with jansson.  Every string is escaped, and
 * kept valid UTF-8. */

void tavi_jb_grow(tavi_jbuf *b, size_t more)
{
    if (b->failed || b->len + more + 1 <= b->cap)
        return;
    size_t cap = b->cap ? b->cap : 4096;
    while (cap < b->len + more + 1)
        cap *= 2;
    char *np = realloc(b->p, cap);
    if (!np) {
        b->failed = 1;
        return;
    }
    b->p = np;
    b->cap = cap;
}

void tavi_jb_raw(tavi_jbuf *b, const char *t, size_t n)
{
    tavi_jb_grow(b, n);
    if (b->failed)
        return;
    memcpy(b->p + b->len, t, n);
    b->len += n;
    b->p[b->len] = 0;
}

void tavi_jb_ch(tavi_jbuf *b, char c)
{
    if (b->len + 2 > b->cap) {
        tavi_jb_grow(b, 1);
        if (b->failed)
            return;
    }
    b->p[b->len++] = c;
    b->p[b->len] = 0;
}

void tavi_jb_int(tavi_jbuf *b, long v)
{
    char t[24];
    int k = 23;
    t[k] = 0;
    unsigned long u = v < 0 ? 0UL - (unsigned long)v : (unsigned long)v;
    do
        t[--k] = (char)('0' + u % 10);
    while ((u /= 10) && k > 1);
    if (v < 0)
        t[--k] = '-';
    tavi_jb_raw(b, t + k, (size_t)(23 - k));
}

/* A string of at most n bytes (stops at NUL), quoted and escaped; bytes
 * that begin no valid UTF-8 sequence become '?'. */
void tavi_jb_strn(tavi_jbuf *b, const char *t, size_t n)
{
    static const char hex[] = "0123456789abcdef";
    if (!t)
        t = "", n = 0;
    tavi_jb_grow(b, n + 2);
    tavi_jb_ch(b, '"');
    size_t i = 0, run = 0;
    const unsigned char *u = (const unsigned char *)t;
    while (i < n && u[i]) {
        unsigned char c = u[i];
        if (c >= 0x20 && c != '"' && c != '\\' && c < 0x80) {
            i++;
            continue;
        }
        tavi_jb_raw(b, t + run, i - run);
        if (c == '"' || c == '\\') {
            char e[2] = {'\\', (char)c};
            tavi_jb_raw(b, e, 2);
            i++;
        } else if (c && strchr("\b\f\n\r\t", c)) {
            /* The short forms, as jansson writes them (the meta's texts). */
            char e[2] = {'\\', "bfnrt"[strchr("\b\f\n\r\t", c) - "\b\f\n\r\t"]};
            tavi_jb_raw(b, e, 2);
            i++;
        } else if (c < 0x20) {
            char e[6] = {'\\', 'u', '0', '0', hex[c >> 4], hex[c & 15]};
            tavi_jb_raw(b, e, 6);
            i++;
        } else {
            int k = tavi_utf8_seq(u + i);
            if (k == 0 || i + (size_t)k > n) {
                tavi_jb_ch(b, '?');
                i++;
            } else {
                tavi_jb_raw(b, t + i, (size_t)k);
                i += (size_t)k;
            }
        }
        run = i;
    }
    tavi_jb_raw(b, t + run, i - run);
    tavi_jb_ch(b, '"');
}

void tavi_jb_str(tavi_jbuf *b, const char *t) { tavi_jb_strn(b, t, t ? strlen(t) : 0); }

void tavi_jb_bool(tavi_jbuf *b, int v)
{
    if (v)
        TAVI_JB_LIT(b, "true");
    else
        TAVI_JB_LIT(b, "false");
}

/* A square's name, quoted: file letter, rank number from 1 ("e5", "q17"). */
void tavi_jb_square(tavi_jbuf *b, int file, int rank)
{
    char name[8];
    int n = 0, r = rank + 1;
    name[n++] = '"';
    name[n++] = (char)('a' + file);
    if (r >= 10)
        name[n++] = (char)('0' + r / 10 % 10);
    name[n++] = (char)('0' + r % 10);
    name[n++] = '"';
    tavi_jb_raw(b, name, (size_t)n);
}

void tavi_jb_side_or_null(tavi_jbuf *b, int side)
{
    if (side == TAV_WHITE)
        TAVI_JB_LIT(b, "\"white\"");
    else if (side == TAV_BLACK)
        TAVI_JB_LIT(b, "\"black\"");
    else
        TAVI_JB_LIT(b, "null");
}

static void marks_write(tavi_jbuf *b, unsigned m)
{
    static const struct { unsigned bit; const char *name; } names[] = {
        {TAV_MARK_LAST, "last"}, {TAV_MARK_LOT, "lot"}, {TAV_MARK_TERR_W, "terrWhite"},
        {TAV_MARK_TERR_B, "terrBlack"}, {TAV_MARK_AREA_W, "areaWhite"},
        {TAV_MARK_AREA_B, "areaBlack"}, {TAV_MARK_HOME_W, "homeWhite"},
        {TAV_MARK_HOME_B, "homeBlack"}, {TAV_MARK_MONUMENT, "monument"},
        {TAV_MARK_CENTRE, "centre"},
    };
    tavi_jb_ch(b, '[');
    int first = 1;
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (m & names[i].bit) {
            if (!first)
                tavi_jb_ch(b, ',');
            first = 0;
            tavi_jb_str(b, names[i].name);
        }
    tavi_jb_ch(b, ']');
}

static void hand_item_write(tavi_jbuf *b, const tav_hand_item *it)
{
    char kind[2] = {it->kind, 0};
    TAVI_JB_LIT(b, "{\"kind\":");
    tavi_jb_str(b, kind);
    TAVI_JB_LIT(b, ",\"count\":");
    tavi_jb_int(b, it->count);
    if (it->id[0]) {
        TAVI_JB_LIT(b, ",\"id\":");
        tavi_jb_strn(b, it->id, sizeof it->id);
    }
    if (it->ncells > 0) {
        int nc = it->ncells > TAV_SHAPE_CELLS ? TAV_SHAPE_CELLS : it->ncells;
        TAVI_JB_LIT(b, ",\"cells\":[");
        int noff = 0;
        for (int i = 0; i < nc; i++) {
            if (i)
                tavi_jb_ch(b, ',');
            tavi_jb_ch(b, '[');
            tavi_jb_int(b, it->cell[i][0]);
            tavi_jb_ch(b, ',');
            tavi_jb_int(b, it->cell[i][1]);
            tavi_jb_ch(b, ']');
            noff += it->offcolour[i] != 0;
        }
        tavi_jb_ch(b, ']');
        if (noff > 0 || it->id[0]) {
            TAVI_JB_LIT(b, ",\"off\":[");
            int first = 1;
            for (int i = 0; i < nc; i++)
                if (it->offcolour[i]) {
                    if (!first)
                        tavi_jb_ch(b, ',');
                    first = 0;
                    tavi_jb_int(b, i);
                }
            tavi_jb_ch(b, ']');
        }
    }
    tavi_jb_ch(b, '}');
}

static void side_write(tavi_jbuf *b, const tav_side_view *sv)
{
    TAVI_JB_LIT(b, "{\"hand\":[");
    int n = sv->nitems > TAV_HAND_ITEMS ? TAV_HAND_ITEMS : sv->nitems;
    for (int i = 0; i < n; i++) {
        if (i)
            tavi_jb_ch(b, ',');
        hand_item_write(b, &sv->item[i]);
    }
    TAVI_JB_LIT(b, "],\"stack\":");
    tavi_jb_int(b, sv->stack);
    TAVI_JB_LIT(b, ",\"veto\":");
    if (sv->veto)
        TAVI_JB_LIT(b, "true");
    else
        TAVI_JB_LIT(b, "false");
    TAVI_JB_LIT(b, ",\"onBoard\":");
    tavi_jb_int(b, sv->on_board);
    TAVI_JB_LIT(b, ",\"captured\":");
    tavi_jb_int(b, sv->captured);
    TAVI_JB_LIT(b, ",\"score\":");
    tavi_jb_int(b, sv->score);
    tavi_jb_ch(b, '}');
}

/* The drawing view object of docs/server-api.md. */
void tavi_json_view(tavi_jbuf *b, const tav_board_view *v)
{
    int w = v->width, h = v->height;
    if (w < 0 || h < 0 || w * h > TAV_MAX_SQUARES)
        w = h = 0;
    TAVI_JB_LIT(b, "{\"width\":");
    tavi_jb_int(b, w);
    TAVI_JB_LIT(b, ",\"height\":");
    tavi_jb_int(b, h);
    TAVI_JB_LIT(b, ",\"phase\":");
    tavi_jb_strn(b, v->phase, sizeof v->phase);
    TAVI_JB_LIT(b, ",\"last\":");
    tavi_jb_strn(b, v->last_move, TAV_MOVE_TEXT);
    TAVI_JB_LIT(b, ",\"info\":");
    tavi_jb_strn(b, v->info, sizeof v->info);
    TAVI_JB_LIT(b, ",\"end\":");
    tavi_jb_strn(b, v->end, sizeof v->end);
    TAVI_JB_LIT(b, ",\"squares\":{");
    int first = 1;
    for (int r = 0; r < h; r++)
        for (int f = 0; f < w; f++) {
            const tav_square *q = &v->sq[r * w + f];
            if (!q->kind && !q->marks && !q->region)
                continue;
            if (!first)
                tavi_jb_ch(b, ',');
            first = 0;
            tavi_jb_square(b, f, r);
            TAVI_JB_LIT(b, ":{");
            int any = 0;
            if (q->kind) {
                char kind[2] = {q->kind, 0};
                TAVI_JB_LIT(b, "\"kind\":");
                tavi_jb_str(b, kind);
                TAVI_JB_LIT(b, ",\"owner\":");
                tavi_jb_str(b, owner_name(q->owner));
                any = 1;
            }
            if (q->piece) {
                if (any)
                    tavi_jb_ch(b, ',');
                TAVI_JB_LIT(b, "\"piece\":");
                tavi_jb_int(b, q->piece);
                any = 1;
            }
            if (q->region) {
                if (any)
                    tavi_jb_ch(b, ',');
                TAVI_JB_LIT(b, "\"region\":");
                tavi_jb_int(b, q->region);
                any = 1;
            }
            if (q->marks) {
                if (any)
                    tavi_jb_ch(b, ',');
                TAVI_JB_LIT(b, "\"marks\":");
                marks_write(b, q->marks);
            }
            tavi_jb_ch(b, '}');
        }
    TAVI_JB_LIT(b, "},\"sides\":{\"white\":");
    side_write(b, &v->side[0]);
    TAVI_JB_LIT(b, ",\"black\":");
    side_write(b, &v->side[1]);
    TAVI_JB_LIT(b, "},\"regions\":[");
    int nr = v->nregions > TAV_MAX_REGIONS ? TAV_MAX_REGIONS : v->nregions;
    for (int i = 0; i < nr; i++) {
        const tav_region *rg = &v->region[i];
        if (i)
            tavi_jb_ch(b, ',');
        TAVI_JB_LIT(b, "{\"id\":");
        tavi_jb_int(b, rg->id);
        TAVI_JB_LIT(b, ",\"white\":");
        tavi_jb_int(b, rg->value[0]);
        TAVI_JB_LIT(b, ",\"black\":");
        tavi_jb_int(b, rg->value[1]);
        TAVI_JB_LIT(b, ",\"scorer\":");
        tavi_jb_str(b, tavi_json_side_name(rg->scorer));
        TAVI_JB_LIT(b, ",\"points\":");
        tavi_jb_int(b, rg->points);
        tavi_jb_ch(b, '}');
    }
    TAVI_JB_LIT(b, "]}");
}

/* ---- the legal moves' parts, in groups (docs/server-api.md, legalGroups) ----
 *
 * Moves whose parts are the same up to where they stand on the board (one
 * building turned one way, anywhere; one kind of phalanx step) form a group:
 * the parts once, their squares as offsets from the move's anchor (its first
 * square), and each move's anchor.  `legal` is written group by group, so
 * the i-th anchor overall belongs to legal[i]. */

typedef struct pgroup {
    tav_move_parts key;   /* squares, from, to, marked relative to the anchor */
    int anchored;         /* the moves have squares (else: "count") */
    int count;
} pgroup;

/* The move's anchor: its first square of any kind; 0 when it has none. */
static int parts_anchor(const tav_move_parts *p, int a[2])
{
    const int8_t *q = p->nsquares ? p->squares[0] : p->from[0] >= 0 ? p->from
                      : p->to[0] >= 0                               ? p->to
                      : p->nmarked                                  ? p->marked[0]
                                                                    : NULL;
    if (!q)
        return 0;
    a[0] = q[0];
    a[1] = q[1];
    return 1;
}

/* The parts with every square made relative to a, all else zeroed (keys
 * are compared whole). */
static void parts_key(const tav_move_parts *p, const int a[2], tav_move_parts *k)
{
    memset(k, 0, sizeof *k);
    memcpy(k->action, p->action, sizeof k->action);
    memcpy(k->piece, p->piece, sizeof k->piece);
    k->side = p->side;
    k->rotation = p->rotation;
    k->nsquares = p->nsquares > TAV_PART_SQUARES ? TAV_PART_SQUARES : p->nsquares;
    k->nmarked = p->nmarked > TAV_PART_SQUARES ? TAV_PART_SQUARES : p->nmarked;
    for (int i = 0; i < k->nsquares; i++) {
        k->squares[i][0] = (int8_t)(p->squares[i][0] - a[0]);
        k->squares[i][1] = (int8_t)(p->squares[i][1] - a[1]);
    }
    for (int i = 0; i < k->nmarked; i++) {
        k->marked[i][0] = (int8_t)(p->marked[i][0] - a[0]);
        k->marked[i][1] = (int8_t)(p->marked[i][1] - a[1]);
    }
    /* 127 stands for "none" (offsets stay within -14..14). */
    k->from[0] = k->from[1] = k->to[0] = k->to[1] = 127;
    if (p->from[0] >= 0) {
        k->from[0] = (int8_t)(p->from[0] - a[0]);
        k->from[1] = (int8_t)(p->from[1] - a[1]);
    }
    if (p->to[0] >= 0) {
        k->to[0] = (int8_t)(p->to[0] - a[0]);
        k->to[1] = (int8_t)(p->to[1] - a[1]);
    }
}

static void offset_write(tavi_jbuf *b, const int8_t d[2])
{
    tavi_jb_ch(b, '[');
    tavi_jb_int(b, d[0]);
    tavi_jb_ch(b, ',');
    tavi_jb_int(b, d[1]);
    tavi_jb_ch(b, ']');
}

static void offsets_write(tavi_jbuf *b, const int8_t (*d)[2], int n)
{
    tavi_jb_ch(b, '[');
    for (int i = 0; i < n; i++) {
        if (i)
            tavi_jb_ch(b, ',');
        offset_write(b, d[i]);
    }
    tavi_jb_ch(b, ']');
}

/* One group's parts (what is absent is left out; "action" and "squares"
 * always there). */
static void group_write(tavi_jbuf *b, const pgroup *g)
{
    const tav_move_parts *k = &g->key;
    TAVI_JB_LIT(b, "{\"action\":");
    tavi_jb_strn(b, k->action, sizeof k->action);
    TAVI_JB_LIT(b, ",\"squares\":");
    offsets_write(b, (const int8_t(*)[2])k->squares, k->nsquares);
    if (k->piece[0]) {
        TAVI_JB_LIT(b, ",\"piece\":");
        tavi_jb_strn(b, k->piece, sizeof k->piece);
    }
    if (k->from[0] != 127) {
        TAVI_JB_LIT(b, ",\"from\":");
        offset_write(b, k->from);
    }
    if (k->to[0] != 127) {
        TAVI_JB_LIT(b, ",\"to\":");
        offset_write(b, k->to);
    }
    if (k->nmarked) {
        TAVI_JB_LIT(b, ",\"marked\":");
        offsets_write(b, (const int8_t(*)[2])k->marked, k->nmarked);
    }
    if (k->rotation >= 0) {
        TAVI_JB_LIT(b, ",\"rotation\":");
        tavi_jb_int(b, k->rotation);
    }
    if (k->side == TAV_WHITE || k->side == TAV_BLACK) {
        TAVI_JB_LIT(b, ",\"side\":");
        tavi_jb_str(b, tavi_json_side_name(k->side));
    }
}

/* `legal` and `legalGroups` for the n moves lm: 0, or -1 on no memory. */
static int legal_write(tavi_jbuf *b, const tav_session *s, const tav_move *lm, int n)
{
    TAVI_JB_LIT(b, "\"legal\":[");
    if (n == 0) {
        TAVI_JB_LIT(b, "],\"legalGroups\":[]");
        return 0;
    }
    pgroup *grp = malloc(sizeof *grp * (size_t)n);
    int *of = malloc(sizeof *of * (size_t)n), *order = malloc(sizeof *order * (size_t)n);
    int (*anchor)[2] = malloc(sizeof *anchor * (size_t)n);
    int *start = malloc(sizeof *start * (size_t)(n + 1));
    if (!grp || !of || !order || !anchor || !start) {
        free(grp), free(of), free(order), free(anchor), free(start);
        return -1;
    }
    /* Groups found through an open-addressing table of their keys' hashes. */
    size_t cap = 16;
    while (cap < (size_t)n * 2)
        cap <<= 1;
    int *slot = malloc(sizeof *slot * cap);
    if (!slot) {
        free(grp), free(of), free(order), free(anchor), free(start);
        return -1;
    }
    for (size_t h = 0; h < cap; h++)
        slot[h] = -1;
    int ng = 0;
    for (int i = 0; i < n; i++) {
        tav_move_parts p;
        if (tav_session_move_parts(s, lm[i], &p) != TAV_OK) {
            memset(&p, 0, sizeof p);
            p.from[0] = p.to[0] = -1;
            p.rotation = -1;
            p.side = TAV_NONE;
        }
        int a[2] = {0, 0};
        int anchored = parts_anchor(&p, a);
        tav_move_parts k;
        parts_key(&p, a, &k);
        uint64_t hv = 1469598103934665603ull ^ (uint64_t)anchored;
        const unsigned char *kb = (const unsigned char *)&k;
        for (size_t j = 0; j < sizeof k; j++)
            hv = (hv ^ kb[j]) * 1099511628211ull;
        size_t h = (size_t)hv & (cap - 1);
        int gi;
        while ((gi = slot[h]) >= 0 &&
               (grp[gi].anchored != anchored || memcmp(&grp[gi].key, &k, sizeof k) != 0))
            h = (h + 1) & (cap - 1);
        if (gi < 0) {
            gi = slot[h] = ng++;
            grp[gi].key = k;
            grp[gi].anchored = anchored;
            grp[gi].count = 0;
        }
        grp[gi].count++;
        of[i] = gi;
        anchor[i][0] = a[0];
        anchor[i][1] = a[1];
    }
    /* The moves group by group, each group's in the order generated. */
    start[0] = 0;
    for (int gi = 0; gi < ng; gi++)
        start[gi + 1] = start[gi] + grp[gi].count;
    for (int i = 0; i < n; i++)
        order[start[of[i]]++] = i;
    for (int i = 0; i < n; i++) {
        char text[TAV_MOVE_TEXT];
        int k = tav_session_move_str(s, lm[order[i]], text, sizeof text);
        if (i)
            tavi_jb_ch(b, ',');
        tavi_jb_strn(b, text, k > 0 ? (size_t)k : 0);
    }
    TAVI_JB_LIT(b, "],\"legalGroups\":[");
    for (int gi = 0, i = 0; gi < ng; gi++) {
        if (gi)
            tavi_jb_ch(b, ',');
        group_write(b, &grp[gi]);
        if (grp[gi].anchored) {
            TAVI_JB_LIT(b, ",\"at\":[");
            for (int m = 0; m < grp[gi].count; m++, i++) {
                if (m)
                    tavi_jb_ch(b, ',');
                tavi_jb_square(b, anchor[order[i]][0], anchor[order[i]][1]);
            }
            tavi_jb_ch(b, ']');
        } else {
            TAVI_JB_LIT(b, ",\"count\":");
            tavi_jb_int(b, grp[gi].count);
            i += grp[gi].count;
        }
        tavi_jb_ch(b, '}');
    }
    tavi_jb_ch(b, ']');
    free(grp), free(of), free(order), free(anchor), free(start), free(slot);
    return 0;
}

/* `"legal":[...],"legalGroups":[...]` for viewer (docs/server-api.md): the
 * moves it may play now, group by group (none unless it is the side to
 * act).  The server's game object and the page's engine (tw_game) both
 * write them here.  Out of memory: b->failed. */
void tavi_json_legal(tavi_jbuf *b, const tav_session *s, int viewer)
{
    const tav_game *tg = tav_session_game(s);
    tav_move *lm = malloc(sizeof *lm * (size_t)(tg->max_moves > 0 ? tg->max_moves : 1));
    int n = lm ? tav_session_legal(s, viewer, lm) : 0;
    if (!lm || legal_write(b, s, lm, n) != 0)
        b->failed = 1;
    free(lm);
}

/* `"game":NAME,"options":OPTS`: the game's name and its public options. */
void tavi_json_game_head(tavi_jbuf *b, const tav_session *s)
{
    char opts[1024];
    tav_session_public_options(s, opts, sizeof opts);
    tavi_jb_lit(b, "\"game\":");
    tavi_jb_str(b, tav_session_game(s)->name);
    tavi_jb_lit(b, ",\"options\":");
    tavi_jb_str(b, opts);
}

/* `"moves":[...],"tomove":..,"over":..,"winner":..,"score":[w,b],` the
 * legal moves, `"ply":..,"seat":..,"resigned":..`: the game's state as
 * viewer sees it, with its result as the caller judges it (the server's
 * own ends: time, abort).  The server's game object and the page's engine
 * (tw_game) both write it here. */
void tavi_json_state(tavi_jbuf *b, const tav_session *s, const tav_result *r, int viewer)
{
    int ply = tav_session_ply(s);
    tavi_jb_lit(b, "\"moves\":[");
    for (int i = 0; i < ply; i++) {
        if (i)
            tavi_jb_ch(b, ',');
        tavi_jb_str(b, tav_session_move_text(s, i));
    }
    tavi_jb_lit(b, "],\"tomove\":");
    tavi_jb_str(b, tavi_json_side_name(tav_session_to_move(s)));
    tavi_jb_lit(b, ",\"over\":");
    tavi_jb_bool(b, r->over);
    tavi_jb_lit(b, ",\"winner\":");
    tavi_jb_str(b, r->over && r->winner != TAV_NONE ? tav_side_name(r->winner) : "none");
    tavi_jb_lit(b, ",\"score\":[");
    tavi_jb_int(b, r->score[0]);
    tavi_jb_ch(b, ',');
    tavi_jb_int(b, r->score[1]);
    tavi_jb_lit(b, "],");
    tavi_json_legal(b, s, viewer);
    tavi_jb_lit(b, ",\"ply\":");
    tavi_jb_int(b, ply);
    tavi_jb_lit(b, ",\"seat\":");
    tavi_jb_side_or_null(b, viewer);
    tavi_jb_lit(b, ",\"resigned\":");
    tavi_jb_side_or_null(b, tav_session_resigned(s));
}

void tavi_jb_lit(tavi_jbuf *b, const char *t) { tavi_jb_raw(b, t, strlen(t)); }

void tavi_jb_u64(tavi_jbuf *b, uint64_t v)
{
    char t[32];
    int n = snprintf(t, sizeof t, "%llu", (unsigned long long)v);
    tavi_jb_raw(b, t, (size_t)n);
}

/* A number as %.6g (figures of searches, never a rule's value). */
void tavi_jb_num(tavi_jbuf *b, double v)
{
    char t[40];
    int n = snprintf(t, sizeof t, "%.6g", v);
    tavi_jb_raw(b, t, (size_t)n);
}

/* Finish a buffer: the text (caller frees), or NULL when memory ran out. */
char *tavi_jb_done(tavi_jbuf *b)
{
    if (b->failed || !b->p) {
        free(b->p);
        return NULL;
    }
    return b->p;
}

/* The computer's levels in words, 1 to 10. */
static const char *const level_names[] = {
    "beginner", "novice", "casual", "club player", "good club player",
    "strong", "expert", "master", "grandmaster", "full strength",
};

/* What /api/meta answers (docs/server-api.md): every game's name, sample
 * option sets, levels' ratings and words for people, the players, the
 * levels with their names. */
void tavi_json_meta(tavi_jbuf *b)
{
    tavi_jb_lit(b, "{\"games\":[");
    for (int i = 0; i < tav_game_count(); i++) {
        const tav_game *g = tav_game_at(i);
        if (i)
            tavi_jb_ch(b, ',');
        tavi_jb_lit(b, "{\"name\":");
        tavi_jb_str(b, g->name);
        tavi_jb_lit(b, ",\"options\":[");
        for (int k = 0; g->samples && g->samples[k]; k++) {
            if (k)
                tavi_jb_ch(b, ',');
            tavi_jb_str(b, g->samples[k]);
        }
        tavi_jb_lit(b, "],\"ratings\":[");
        for (int l = 1; l <= 10; l++) {
            int r = tav_level_rating(g, l);
            if (l > 1)
                tavi_jb_ch(b, ',');
            if (r >= 0)
                tavi_jb_int(b, r);
            else
                tavi_jb_lit(b, "null");
        }
        tavi_jb_lit(b, "],\"title\":");
        tavi_jb_str(b, g->title ? g->title : g->name);
        tavi_jb_lit(b, ",\"pitch\":");
        tavi_jb_str(b, g->pitch ? g->pitch : "");
        tavi_jb_lit(b, ",\"scoreWords\":");
        tavi_jb_str(b, g->score_words ? g->score_words : "");
        tavi_jb_lit(b, ",\"scoreWins\":");
        tavi_jb_str(b, g->score_wins == TAV_SCORE_HIGHER_WINS  ? "higher"
                       : g->score_wins == TAV_SCORE_LOWER_WINS ? "lower"
                                                               : "none");
        tavi_jb_lit(b, ",\"menu\":");
        const tav_choice *ch = g->menu;
        if (ch && ch->key && ch->values) {
            tavi_jb_lit(b, "{\"key\":");
            tavi_jb_str(b, ch->key);
            tavi_jb_lit(b, ",\"question\":");
            tavi_jb_str(b, ch->question ? ch->question : "");
            tavi_jb_lit(b, ",\"note\":");
            if (ch->note)
                tavi_jb_str(b, ch->note);
            else
                tavi_jb_lit(b, "null");
            tavi_jb_lit(b, ",\"choices\":[");
            for (int k = 0; ch->values[k]; k++) {
                if (k)
                    tavi_jb_ch(b, ',');
                tavi_jb_lit(b, "{\"value\":");
                tavi_jb_str(b, ch->values[k]);
                tavi_jb_lit(b, ",\"label\":");
                tavi_jb_str(b, ch->labels && ch->labels[k] ? ch->labels[k] : ch->values[k]);
                tavi_jb_ch(b, '}');
            }
            tavi_jb_lit(b, "]}");
        } else {
            tavi_jb_lit(b, "null");
        }
        tavi_jb_lit(b, ",\"sideNote\":");
        if (g->side_note)
            tavi_jb_str(b, g->side_note);
        else
            tavi_jb_lit(b, "null");
        tavi_jb_lit(b, ",\"rules\":[");
        for (int k = 0; g->rules && g->rules[k].heading; k++) {
            if (k)
                tavi_jb_ch(b, ',');
            tavi_jb_lit(b, "{\"heading\":");
            tavi_jb_str(b, g->rules[k].heading);
            tavi_jb_lit(b, ",\"text\":");
            tavi_jb_str(b, g->rules[k].text ? g->rules[k].text : "");
            tavi_jb_ch(b, '}');
        }
        tavi_jb_lit(b, "]}");
    }
    tavi_jb_lit(b, "],\"players\":[\"human\"");
    for (const char *const *tp = tav_players(); tp && *tp; tp++) {
        tavi_jb_ch(b, ',');
        tavi_jb_str(b, *tp);
    }
    tavi_jb_lit(b, "],\"levels\":[");
    for (int i = 0; i < 10; i++) {
        char spec[24];
        snprintf(spec, sizeof spec, "ai:level=%d", i + 1);
        if (i)
            tavi_jb_ch(b, ',');
        tavi_jb_lit(b, "{\"level\":");
        tavi_jb_int(b, i + 1);
        tavi_jb_lit(b, ",\"name\":");
        tavi_jb_str(b, level_names[i]);
        tavi_jb_lit(b, ",\"player\":");
        tavi_jb_str(b, spec);
        tavi_jb_ch(b, '}');
    }
    tavi_jb_lit(b, "]}");
}
