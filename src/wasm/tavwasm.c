/*
 * tavwasm.c — libtavoliere's small surface for the browser (WebAssembly).
 *
 * Built only for wasm32-wasi (Makefile: $(BUILD)/web/tavoliere.wasm), over
 * the same sources as the native library, with TAV_NO_THREADS (the search
 * service runs a search on the calling thread: src/search/service.c).  The
 * page's TypeScript wrapper is web/src/engine/.
 *
 * Everything hangs off a context (tw_new): one game session, one search
 * service and the last text answer, so nothing here is global either.
 * Strings go in as NUL-terminated UTF-8 in memory the caller got from
 * tw_alloc; text answers (JSON, records, engine lines) are owned by the
 * context and valid until its next call.
 *
 *   tw_new / tw_delete                 a context
 *   tw_start(game, options, seed)      a new game (status)
 *   tw_load(record)                    a game from a record (docs/records.md)
 *   tw_play(move) / tw_undo / tw_resign
 *   tw_game(viewer)                    the game as JSON, the shape of the
 *                                      server's game object (docs/server-api.md)
 *                                      less what only a server knows (id, seats)
 *   tw_view(ply, viewer)               the drawing view of one ply, as JSON
 *   tw_record(white, black)            the record (the whole of it: the page
 *                                      owns its game)
 *   tw_search(player, level, nodes, depth, movetime, seed)
 *                                      the search service on this game: JSON
 *                                      {status, best, value, playouts, nodes, ...}
 *                                      (a search runs to its end on the calling
 *                                      thread: the page runs it in a worker and
 *                                      cancels it by ending the worker)
 *   tw_engine(line)                    one line of the engine protocol
 *                                      (docs/protocol.md), for the agreement tests
 *   tw_meta                            the games' words for people (/api/meta's shape)
 *   tw_bench(scale, search)            `tavoliere bench` (src/bench/bench.c), its
 *                                      lines written to standard output
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/bench.h"
#include "protocol/protocol.h"
#include "tavoliere.h"
#include "tavoliere_record.h"
#include "tavoliere_search.h"
#include "tavoliere_session.h"

/* An exported function (declared below, under the context). */
#define EXPORT(name) __attribute__((export_name(name)))

/* ---- a growing text buffer and a JSON writer over it ---- */

typedef struct tbuf {
    char *p;
    size_t len, cap;
    int failed;
} tbuf;

static void tb_raw(tbuf *b, const char *t, size_t n)
{
    if (b->failed)
        return;
    if (b->len + n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 4096;
        while (cap < b->len + n + 1)
            cap *= 2;
        char *np = realloc(b->p, cap);
        if (!np) {
            b->failed = 1;
            return;
        }
        b->p = np;
        b->cap = cap;
    }
    memcpy(b->p + b->len, t, n);
    b->len += n;
    b->p[b->len] = 0;
}

static void tb_lit(tbuf *b, const char *t) { tb_raw(b, t, strlen(t)); }

static void tb_ch(tbuf *b, char c) { tb_raw(b, &c, 1); }

static void tb_int(tbuf *b, long v)
{
    char t[32];
    int n = snprintf(t, sizeof t, "%ld", v);
    tb_raw(b, t, (size_t)n);
}

static void tb_u64(tbuf *b, uint64_t v)
{
    char t[32];
    int n = snprintf(t, sizeof t, "%llu", (unsigned long long)v);
    tb_raw(b, t, (size_t)n);
}

static void tb_num(tbuf *b, double v)
{
    char t[40];
    int n = snprintf(t, sizeof t, "%.6g", v);
    tb_raw(b, t, (size_t)n);
}

/* A JSON string of at most n bytes (stops at NUL); control characters
 * escaped (the library's texts are ASCII or valid UTF-8). */
static void tb_strn(tbuf *b, const char *t, size_t n)
{
    static const char hex[] = "0123456789abcdef";
    tb_ch(b, '"');
    for (size_t i = 0; t && i < n && t[i]; i++) {
        unsigned char c = (unsigned char)t[i];
        if (c == '"' || c == '\\') {
            char e[2] = {'\\', (char)c};
            tb_raw(b, e, 2);
        } else if (c < 0x20) {
            char e[6] = {'\\', 'u', '0', '0', hex[c >> 4], hex[c & 15]};
            tb_raw(b, e, 6);
        } else {
            tb_ch(b, (char)c);
        }
    }
    tb_ch(b, '"');
}

static void tb_str(tbuf *b, const char *t) { tb_strn(b, t, t ? strlen(t) : 0); }

static void tb_bool(tbuf *b, int v) { tb_lit(b, v ? "true" : "false"); }

static void tb_square(tbuf *b, int file, int rank)
{
    char name[8];
    snprintf(name, sizeof name, "%c%d", 'a' + file, rank + 1);
    tb_str(b, name);
}

static const char *side_or_none(int side)
{
    return side == TAV_WHITE ? "white" : side == TAV_BLACK ? "black" : "none";
}

static void tb_side_or_null(tbuf *b, int side)
{
    if (side == TAV_WHITE || side == TAV_BLACK)
        tb_str(b, side_or_none(side));
    else
        tb_lit(b, "null");
}

/* ---- the drawing view (docs/server-api.md, "view") ---- */

static void marks_write(tbuf *b, unsigned m)
{
    static const struct { unsigned bit; const char *name; } names[] = {
        {TAV_MARK_LAST, "last"}, {TAV_MARK_LOT, "lot"}, {TAV_MARK_TERR_W, "terrWhite"},
        {TAV_MARK_TERR_B, "terrBlack"}, {TAV_MARK_AREA_W, "areaWhite"},
        {TAV_MARK_AREA_B, "areaBlack"}, {TAV_MARK_HOME_W, "homeWhite"},
        {TAV_MARK_HOME_B, "homeBlack"}, {TAV_MARK_MONUMENT, "monument"},
        {TAV_MARK_CENTRE, "centre"},
    };
    tb_ch(b, '[');
    int first = 1;
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (m & names[i].bit) {
            if (!first)
                tb_ch(b, ',');
            first = 0;
            tb_str(b, names[i].name);
        }
    tb_ch(b, ']');
}

static void side_write(tbuf *b, const tav_side_view *sv)
{
    tb_lit(b, "{\"hand\":[");
    int n = sv->nitems > TAV_HAND_ITEMS ? TAV_HAND_ITEMS : sv->nitems;
    for (int i = 0; i < n; i++) {
        const tav_hand_item *it = &sv->item[i];
        char kind[2] = {it->kind, 0};
        if (i)
            tb_ch(b, ',');
        tb_lit(b, "{\"kind\":");
        tb_str(b, kind);
        tb_lit(b, ",\"count\":");
        tb_int(b, it->count);
        if (it->id[0]) {
            tb_lit(b, ",\"id\":");
            tb_strn(b, it->id, sizeof it->id);
        }
        if (it->ncells > 0) {
            int nc = it->ncells > TAV_SHAPE_CELLS ? TAV_SHAPE_CELLS : it->ncells, noff = 0;
            tb_lit(b, ",\"cells\":[");
            for (int c = 0; c < nc; c++) {
                if (c)
                    tb_ch(b, ',');
                tb_ch(b, '[');
                tb_int(b, it->cell[c][0]);
                tb_ch(b, ',');
                tb_int(b, it->cell[c][1]);
                tb_ch(b, ']');
                noff += it->offcolour[c] != 0;
            }
            tb_ch(b, ']');
            if (noff > 0 || it->id[0]) {
                tb_lit(b, ",\"off\":[");
                for (int c = 0, first = 1; c < nc; c++)
                    if (it->offcolour[c]) {
                        if (!first)
                            tb_ch(b, ',');
                        first = 0;
                        tb_int(b, c);
                    }
                tb_ch(b, ']');
            }
        }
        tb_ch(b, '}');
    }
    tb_lit(b, "],\"stack\":");
    tb_int(b, sv->stack);
    tb_lit(b, ",\"veto\":");
    tb_bool(b, sv->veto);
    tb_lit(b, ",\"onBoard\":");
    tb_int(b, sv->on_board);
    tb_lit(b, ",\"captured\":");
    tb_int(b, sv->captured);
    tb_lit(b, ",\"score\":");
    tb_int(b, sv->score);
    tb_ch(b, '}');
}

static const char *owner_name(int owner)
{
    return owner == TAV_WHITE ? "white" : owner == TAV_BLACK ? "black" : "neutral";
}

static void view_write(tbuf *b, const tav_board_view *v)
{
    int w = v->width, h = v->height;
    if (w < 0 || h < 0 || w * h > TAV_MAX_SQUARES)
        w = h = 0;
    tb_lit(b, "{\"width\":");
    tb_int(b, w);
    tb_lit(b, ",\"height\":");
    tb_int(b, h);
    tb_lit(b, ",\"phase\":");
    tb_strn(b, v->phase, sizeof v->phase);
    tb_lit(b, ",\"last\":");
    tb_strn(b, v->last_move, TAV_MOVE_TEXT);
    tb_lit(b, ",\"info\":");
    tb_strn(b, v->info, sizeof v->info);
    tb_lit(b, ",\"end\":");
    tb_strn(b, v->end, sizeof v->end);
    tb_lit(b, ",\"squares\":{");
    int first = 1;
    for (int r = 0; r < h; r++)
        for (int f = 0; f < w; f++) {
            const tav_square *q = &v->sq[r * w + f];
            if (!q->kind && !q->marks && !q->region)
                continue;
            if (!first)
                tb_ch(b, ',');
            first = 0;
            tb_square(b, f, r);
            tb_lit(b, ":{");
            int any = 0;
            if (q->kind) {
                char kind[2] = {q->kind, 0};
                tb_lit(b, "\"kind\":");
                tb_str(b, kind);
                tb_lit(b, ",\"owner\":");
                tb_str(b, owner_name(q->owner));
                any = 1;
            }
            if (q->piece) {
                tb_lit(b, any ? ",\"piece\":" : "\"piece\":");
                tb_int(b, q->piece);
                any = 1;
            }
            if (q->region) {
                tb_lit(b, any ? ",\"region\":" : "\"region\":");
                tb_int(b, q->region);
                any = 1;
            }
            if (q->marks) {
                tb_lit(b, any ? ",\"marks\":" : "\"marks\":");
                marks_write(b, q->marks);
            }
            tb_ch(b, '}');
        }
    tb_lit(b, "},\"sides\":{\"white\":");
    side_write(b, &v->side[0]);
    tb_lit(b, ",\"black\":");
    side_write(b, &v->side[1]);
    tb_lit(b, "},\"regions\":[");
    int nr = v->nregions > TAV_MAX_REGIONS ? TAV_MAX_REGIONS : v->nregions;
    for (int i = 0; i < nr; i++) {
        const tav_region *rg = &v->region[i];
        if (i)
            tb_ch(b, ',');
        tb_lit(b, "{\"id\":");
        tb_int(b, rg->id);
        tb_lit(b, ",\"white\":");
        tb_int(b, rg->value[0]);
        tb_lit(b, ",\"black\":");
        tb_int(b, rg->value[1]);
        tb_lit(b, ",\"scorer\":");
        tb_str(b, side_or_none(rg->scorer));
        tb_lit(b, ",\"points\":");
        tb_int(b, rg->points);
        tb_ch(b, '}');
    }
    tb_lit(b, "]}");
}

/* ---- the legal moves with their parts ----
 * The page's boards read `legalGroups` (docs/server-api.md); here each move
 * is its own group (anchored at its first square), which the page reads the
 * same way: the server groups them only to make its answers smaller. */

static void offsets_write(tbuf *b, const int8_t (*d)[2], int n, const int a[2])
{
    tb_ch(b, '[');
    for (int i = 0; i < n; i++) {
        if (i)
            tb_ch(b, ',');
        tb_ch(b, '[');
        tb_int(b, d[i][0] - a[0]);
        tb_ch(b, ',');
        tb_int(b, d[i][1] - a[1]);
        tb_ch(b, ']');
    }
    tb_ch(b, ']');
}

/* One offset pair [dx,dy]. */
static void offset_write(tbuf *b, const int8_t d[2], const int a[2])
{
    tb_ch(b, '[');
    tb_int(b, d[0] - a[0]);
    tb_ch(b, ',');
    tb_int(b, d[1] - a[1]);
    tb_ch(b, ']');
}

/* The parts of one move as a group of one (see above). */
static void move_group_write(tbuf *b, const tav_move_parts *p, int have)
{
    if (!have) {
        tb_lit(b, "{\"action\":\"\",\"squares\":[],\"count\":1}");
        return;
    }
    int a[2] = {0, 0}, anchored = 1;
    const int8_t *q = p->nsquares ? p->squares[0] : p->from[0] >= 0 ? p->from
                      : p->to[0] >= 0                               ? p->to
                      : p->nmarked                                  ? p->marked[0]
                                                                    : NULL;
    if (q) {
        a[0] = q[0];
        a[1] = q[1];
    } else {
        anchored = 0;
    }
    int ns = p->nsquares > TAV_PART_SQUARES ? TAV_PART_SQUARES : p->nsquares;
    int nm = p->nmarked > TAV_PART_SQUARES ? TAV_PART_SQUARES : p->nmarked;
    tb_lit(b, "{\"action\":");
    tb_strn(b, p->action, sizeof p->action);
    tb_lit(b, ",\"squares\":");
    offsets_write(b, (const int8_t(*)[2])p->squares, ns, a);
    if (p->piece[0]) {
        tb_lit(b, ",\"piece\":");
        tb_strn(b, p->piece, sizeof p->piece);
    }
    if (p->from[0] >= 0) {
        tb_lit(b, ",\"from\":");
        offset_write(b, p->from, a);
    }
    if (p->to[0] >= 0) {
        tb_lit(b, ",\"to\":");
        offset_write(b, p->to, a);
    }
    if (nm) {
        tb_lit(b, ",\"marked\":");
        offsets_write(b, (const int8_t(*)[2])p->marked, nm, a);
    }
    if (p->rotation >= 0) {
        tb_lit(b, ",\"rotation\":");
        tb_int(b, p->rotation);
    }
    if (p->side == TAV_WHITE || p->side == TAV_BLACK) {
        tb_lit(b, ",\"side\":");
        tb_str(b, side_or_none(p->side));
    }
    if (anchored) {
        tb_lit(b, ",\"at\":[");
        tb_square(b, a[0], a[1]);
        tb_lit(b, "]}");
    } else {
        tb_lit(b, ",\"count\":1}");
    }
}

/* ---- the context ---- */

typedef struct tw_ctx {
    tav_session *s;
    tav_service *svc;
    tavi_protocol *engine;
    tbuf out;             /* the last text answer */
    tbuf lines;           /* engine info lines */
    char err[512];
    tav_move *legal;      /* room for the game's max_moves */
    int legal_cap;
    tav_board_view view;
} tw_ctx;

/* The exported surface (each function's comment is at its definition). */
void *tw_alloc(size_t n);
void tw_dealloc(void *p);
tw_ctx *tw_new(void);
void tw_delete(tw_ctx *c);
const char *tw_error(tw_ctx *c);
int tw_start(tw_ctx *c, const char *game, const char *options, double seed);
int tw_load(tw_ctx *c, const char *record, double seed);
int tw_play(tw_ctx *c, const char *move);
int tw_undo(tw_ctx *c);
int tw_resign(tw_ctx *c, int side);
int tw_ply(tw_ctx *c);
const char *tw_legal(tw_ctx *c, int viewer);
const char *tw_view(tw_ctx *c, int ply, int viewer);
const char *tw_game(tw_ctx *c, int viewer);
const char *tw_record(tw_ctx *c, const char *white, const char *black);
const char *tw_search(tw_ctx *c, const char *player, int level, double nodes, int depth, double movetime_ms, double seed);
const char *tw_engine(tw_ctx *c, const char *line, double seed);
const char *tw_meta(tw_ctx *c);
int tw_bench(double scale, int search, const char *only);

EXPORT("tw_alloc") void *tw_alloc(size_t n) { return malloc(n ? n : 1); }

EXPORT("tw_dealloc") void tw_dealloc(void *p) { free(p); }

EXPORT("tw_new") tw_ctx *tw_new(void) { return calloc(1, sizeof(tw_ctx)); }

EXPORT("tw_delete") void tw_delete(tw_ctx *c)
{
    if (!c)
        return;
    tav_session_free(c->s);
    tav_service_free(c->svc);
    tavi_protocol_free(c->engine);
    free(c->out.p);
    free(c->lines.p);
    free(c->legal);
    free(c);
}

/* Make the answer buffer empty (kept allocated). */
static tbuf *answer(tw_ctx *c)
{
    c->out.len = 0;
    c->out.failed = 0;
    tb_raw(&c->out, "", 0);
    return &c->out;
}

static const char *done(tw_ctx *c) { return c->out.failed ? NULL : c->out.p; }

EXPORT("tw_error") const char *tw_error(tw_ctx *c) { return c->err; }

static int set_session(tw_ctx *c, tav_session *s)
{
    const tav_game *g = tav_session_game(s);
    if (g->max_moves > c->legal_cap) {
        tav_move *nl = realloc(c->legal, sizeof *nl * (size_t)g->max_moves);
        if (!nl) {
            tav_session_free(s);
            snprintf(c->err, sizeof c->err, "out of memory");
            return TAV_E_NOMEM;
        }
        c->legal = nl;
        c->legal_cap = g->max_moves;
    }
    tav_session_free(c->s);
    c->s = s;
    return TAV_OK;
}

/* A new game: its status (TAV_OK, or an error with tw_error's message).
 * The seed is a double (JavaScript's numbers) holding an integer below 2^53. */
EXPORT("tw_start") int tw_start(tw_ctx *c, const char *game, const char *options, double seed)
{
    tav_session *s = NULL;
    c->err[0] = 0;
    tav_status st = tav_session_new(&s, game, options ? options : "", (uint64_t)seed, c->err,
                                    sizeof c->err);
    return st != TAV_OK ? (int)st : set_session(c, s);
}

EXPORT("tw_load") int tw_load(tw_ctx *c, const char *record, double seed)
{
    tav_session *s = NULL;
    c->err[0] = 0;
    tav_status st = tav_session_from_record_ex(&s, record, strlen(record), (uint64_t)seed,
                                               TAV_RECORD_MAX_MOVES, c->err, sizeof c->err);
    return st != TAV_OK ? (int)st : set_session(c, s);
}

EXPORT("tw_play") int tw_play(tw_ctx *c, const char *move)
{
    c->err[0] = 0;
    if (!c->s)
        return TAV_E_INVALID;
    return tav_session_play_text(c->s, move, c->err, sizeof c->err);
}

EXPORT("tw_undo") int tw_undo(tw_ctx *c) { return c->s ? (int)tav_session_undo(c->s) : TAV_E_INVALID; }

EXPORT("tw_resign") int tw_resign(tw_ctx *c, int side)
{
    return c->s ? (int)tav_session_resign(c->s, side) : TAV_E_INVALID;
}

EXPORT("tw_ply") int tw_ply(tw_ctx *c) { return c->s ? tav_session_ply(c->s) : -1; }

/* The legal moves' texts for viewer, one per line. */
EXPORT("tw_legal") const char *tw_legal(tw_ctx *c, int viewer)
{
    tbuf *b = answer(c);
    if (!c->s)
        return done(c);
    int n = tav_session_legal(c->s, viewer, c->legal);
    for (int i = 0; i < n; i++) {
        char text[TAV_MOVE_TEXT];
        int k = tav_session_move_str(c->s, c->legal[i], text, sizeof text);
        if (i)
            tb_ch(b, '\n');
        tb_raw(b, text, k > 0 ? (size_t)k : 0);
    }
    return done(c);
}

EXPORT("tw_view") const char *tw_view(tw_ctx *c, int ply, int viewer)
{
    tbuf *b = answer(c);
    memset(&c->view, 0, sizeof c->view);
    if (!c->s || tav_session_view(c->s, ply, viewer, &c->view) != TAV_OK)
        tb_lit(b, "null");
    else
        view_write(b, &c->view);
    return done(c);
}

/* The game for viewer: the server's game object (docs/server-api.md) less
 * id, players, seats and the server's flags, which the page adds. */
EXPORT("tw_game") const char *tw_game(tw_ctx *c, int viewer)
{
    tbuf *b = answer(c);
    if (!c->s) {
        tb_lit(b, "null");
        return done(c);
    }
    tav_session *s = c->s;
    const tav_game *tg = tav_session_game(s);
    int ply = tav_session_ply(s);
    char opts[1024];
    tav_session_public_options(s, opts, sizeof opts);
    tav_result r;
    tav_session_result(s, &r);
    tb_lit(b, "{\"game\":");
    tb_str(b, tg->name);
    tb_lit(b, ",\"options\":");
    tb_str(b, opts);
    tb_lit(b, ",\"moves\":[");
    for (int i = 0; i < ply; i++) {
        if (i)
            tb_ch(b, ',');
        tb_str(b, tav_session_move_text(s, i));
    }
    tb_lit(b, "],\"tomove\":");
    tb_str(b, side_or_none(tav_session_to_move(s)));
    tb_lit(b, ",\"over\":");
    tb_bool(b, r.over);
    tb_lit(b, ",\"winner\":");
    tb_str(b, r.over && r.winner != TAV_NONE ? tav_side_name(r.winner) : "none");
    tb_lit(b, ",\"score\":[");
    tb_int(b, r.score[0]);
    tb_ch(b, ',');
    tb_int(b, r.score[1]);
    tb_lit(b, "],\"legal\":[");
    int n = tav_session_legal(s, viewer, c->legal);
    for (int i = 0; i < n; i++) {
        char text[TAV_MOVE_TEXT];
        int k = tav_session_move_str(s, c->legal[i], text, sizeof text);
        if (i)
            tb_ch(b, ',');
        tb_strn(b, text, k > 0 ? (size_t)k : 0);
    }
    tb_lit(b, "],\"legalGroups\":[");
    for (int i = 0; i < n; i++) {
        tav_move_parts p;
        int have = tav_session_move_parts(s, c->legal[i], &p) == TAV_OK;
        if (i)
            tb_ch(b, ',');
        move_group_write(b, &p, have);
    }
    tb_lit(b, "],\"ply\":");
    tb_int(b, ply);
    tb_lit(b, ",\"seat\":");
    tb_side_or_null(b, viewer);
    tb_lit(b, ",\"resigned\":");
    tb_side_or_null(b, tav_session_resigned(s));
    tb_lit(b, ",\"end\":");
    if (!r.over)
        tb_lit(b, "null");
    else
        tb_str(b, tav_session_resigned(s) != TAV_NONE ? "resign" : "normal");
    tb_lit(b, ",\"view\":");
    memset(&c->view, 0, sizeof c->view);
    if (tav_session_view(s, ply, viewer, &c->view) == TAV_OK)
        view_write(b, &c->view);
    else
        tb_lit(b, "null");
    tb_ch(b, '}');
    return done(c);
}

/* The whole record (the page owns the game it plays). */
EXPORT("tw_record") const char *tw_record(tw_ctx *c, const char *white, const char *black)
{
    tbuf *b = answer(c);
    char *rec = c->s ? tav_session_record_all(c->s, white, black) : NULL;
    if (rec)
        tb_lit(b, rec);
    free(rec);
    return rec ? done(c) : NULL;
}

/* Search the current position for its side to act with player ("ai",
 * "uct", "random"): level 1..10 (its playouts or depth, as on the server,
 * tav_level_budget), else nodes / depth; movetime_ms caps the time (0 =
 * none but the level's own when nothing else limits); seed makes it
 * repeatable.  JSON: {"status": N, "best": TEXT, "value": V, "playouts",
 * "nodes", "depth", "seconds"}. */
EXPORT("tw_search") const char *tw_search(tw_ctx *c, const char *player, int level, double nodes,
                                          int depth, double movetime_ms, double seed)
{
    tbuf *b = answer(c);
    if (!c->svc)
        c->svc = tav_service_new(1, 0);
    tav_answer a;
    memset(&a, 0, sizeof a);
    a.status = TAV_E_NOMEM;
    if (c->s && c->svc) {
        tav_budget bud;
        memset(&bud, 0, sizeof bud);
        if (level > 0)
            tav_level_budget(tav_session_game(c->s), level, &bud);
        if (nodes > 0)
            bud.nodes = (uint64_t)nodes;
        if (depth > 0)
            bud.depth = depth;
        if (movetime_ms > 0)
            bud.movetime_ms = (long)movetime_ms;
        else if (level > 0 && (bud.nodes || bud.depth))
            bud.movetime_ms = 0;   /* a level is its playouts or depth, whatever the machine */
        bud.threads = 1;
        bud.seed = (uint64_t)seed;
        tav_service_run(c->svc, c->s, player, &bud, NULL, NULL, &a);
    } else if (!c->s) {
        a.status = TAV_E_INVALID;
    }
    tb_lit(b, "{\"status\":");
    tb_int(b, a.status);
    tb_lit(b, ",\"best\":");
    tb_str(b, a.status == TAV_OK ? a.best_text : "");
    tb_lit(b, ",\"value\":");
    tb_num(b, a.value);
    tb_lit(b, ",\"playouts\":");
    tb_u64(b, a.playouts);
    tb_lit(b, ",\"nodes\":");
    tb_u64(b, a.nodes);
    tb_lit(b, ",\"depth\":");
    tb_int(b, a.depth);
    tb_lit(b, ",\"seconds\":");
    tb_num(b, a.seconds);
    tb_ch(b, '}');
    return done(c);
}

/* ---- the engine protocol, line by line ---- */

static void engine_info(void *ctx, const char *line)
{
    tw_ctx *c = ctx;
    tb_lit(&c->lines, line);
    tb_ch(&c->lines, '\n');
}

/* One command line: the info lines it printed, then its answer line. */
EXPORT("tw_engine") const char *tw_engine(tw_ctx *c, const char *line, double seed)
{
    if (!c->engine) {
        c->engine = tavi_protocol_new((uint64_t)seed);
        if (!c->engine)
            return NULL;
    }
    c->lines.len = 0;
    c->lines.failed = 0;
    tb_raw(&c->lines, "", 0);
    int quit = 0;
    const char *ans = tavi_protocol_exec(c->engine, line, engine_info, c, &quit);
    tbuf *b = answer(c);
    tb_raw(b, c->lines.p, c->lines.len);
    tb_lit(b, ans ? ans : "");
    return done(c);
}

/* ---- the games' words for people: /api/meta's shape (docs/server-api.md) ---- */

static const char *const level_names[] = {
    "beginner", "novice", "casual", "club player", "good club player",
    "strong", "expert", "master", "grandmaster", "full strength",
};

EXPORT("tw_meta") const char *tw_meta(tw_ctx *c)
{
    tbuf *b = answer(c);
    tb_lit(b, "{\"games\":[");
    for (int i = 0; i < tav_game_count(); i++) {
        const tav_game *g = tav_game_at(i);
        if (i)
            tb_ch(b, ',');
        tb_lit(b, "{\"name\":");
        tb_str(b, g->name);
        tb_lit(b, ",\"options\":[");
        for (int k = 0; g->samples && g->samples[k]; k++) {
            if (k)
                tb_ch(b, ',');
            tb_str(b, g->samples[k]);
        }
        tb_lit(b, "],\"ratings\":[");
        for (int l = 1; l <= 10; l++) {
            int r = tav_level_rating(g, l);
            if (l > 1)
                tb_ch(b, ',');
            if (r >= 0)
                tb_int(b, r);
            else
                tb_lit(b, "null");
        }
        tb_lit(b, "],\"title\":");
        tb_str(b, g->title ? g->title : g->name);
        tb_lit(b, ",\"pitch\":");
        tb_str(b, g->pitch ? g->pitch : "");
        tb_lit(b, ",\"scoreWords\":");
        tb_str(b, g->score_words ? g->score_words : "");
        tb_lit(b, ",\"scoreWins\":");
        tb_str(b, g->score_wins == TAV_SCORE_HIGHER_WINS  ? "higher"
                  : g->score_wins == TAV_SCORE_LOWER_WINS ? "lower"
                                                          : "none");
        tb_lit(b, ",\"menu\":");
        const tav_choice *ch = g->menu;
        if (ch && ch->key && ch->values) {
            tb_lit(b, "{\"key\":");
            tb_str(b, ch->key);
            tb_lit(b, ",\"question\":");
            tb_str(b, ch->question ? ch->question : "");
            tb_lit(b, ",\"note\":");
            if (ch->note)
                tb_str(b, ch->note);
            else
                tb_lit(b, "null");
            tb_lit(b, ",\"choices\":[");
            for (int k = 0; ch->values[k]; k++) {
                if (k)
                    tb_ch(b, ',');
                tb_lit(b, "{\"value\":");
                tb_str(b, ch->values[k]);
                tb_lit(b, ",\"label\":");
                tb_str(b, ch->labels && ch->labels[k] ? ch->labels[k] : ch->values[k]);
                tb_ch(b, '}');
            }
            tb_lit(b, "]}");
        } else {
            tb_lit(b, "null");
        }
        tb_lit(b, ",\"sideNote\":");
        if (g->side_note)
            tb_str(b, g->side_note);
        else
            tb_lit(b, "null");
        tb_lit(b, ",\"rules\":[");
        for (int k = 0; g->rules && g->rules[k].heading; k++) {
            if (k)
                tb_ch(b, ',');
            tb_lit(b, "{\"heading\":");
            tb_str(b, g->rules[k].heading);
            tb_lit(b, ",\"text\":");
            tb_str(b, g->rules[k].text ? g->rules[k].text : "");
            tb_ch(b, '}');
        }
        tb_lit(b, "]}");
    }
    tb_lit(b, "],\"players\":[\"human\"");
    for (const char *const *tp = tav_players(); tp && *tp; tp++) {
        tb_ch(b, ',');
        tb_str(b, *tp);
    }
    tb_lit(b, "],\"levels\":[");
    for (int i = 0; i < 10; i++) {
        char spec[24];
        snprintf(spec, sizeof spec, "ai:level=%d", i + 1);
        if (i)
            tb_ch(b, ',');
        tb_lit(b, "{\"level\":");
        tb_int(b, i + 1);
        tb_lit(b, ",\"name\":");
        tb_str(b, level_names[i]);
        tb_lit(b, ",\"player\":");
        tb_str(b, spec);
        tb_ch(b, '}');
    }
    tb_lit(b, "]}");
    return done(c);
}

/* ---- the benchmark (src/bench/bench.c, printing to standard output) ---- */

EXPORT("tw_bench") int tw_bench(double scale, int search, const char *only)
{
    char s[32];
    snprintf(s, sizeof s, "%g", scale > 0 ? scale : 1.0);
    char game[32], a0[] = "bench", a1[] = "--scale", a3[] = "--no-search";
    snprintf(game, sizeof game, "%s", only ? only : "");
    char *argv[6] = {a0, a1, s, NULL, NULL, NULL};
    int argc = 3;
    if (!search)
        argv[argc++] = a3;
    if (game[0])
        argv[argc++] = game;
    int r = bench_run(argc, argv, stdout, stderr);
    fflush(stdout);
    return r;
}
