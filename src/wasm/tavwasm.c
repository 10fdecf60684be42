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
 *                                      less what only a server knows (id, seats);
 *                                      its legal moves (`legal`, `legalGroups`)
 *                                      the server's very bytes
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
#include "session/json.h"
#include "protocol/protocol.h"
#include "tavoliere.h"
#include "tavoliere_record.h"
#include "tavoliere_search.h"
#include "tavoliere_session.h"

/* An exported function (declared below, under the context). */
#define EXPORT(name) __attribute__((export_name(name)))

/* The JSON is written with the library's writer (src/session/json.c), the
 * game server's too: the same view, the same legal moves in the same
 * groups (legalGroups), the same bytes. */

/* ---- the context ---- */

typedef struct tw_ctx {
    tav_session *s;
    tav_service *svc;
    tavi_protocol *engine;
    tavi_jbuf out;             /* the last text answer */
    tavi_jbuf lines;           /* engine info lines */
    char err[512];
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
    free(c);
}

/* Make the answer buffer empty (kept allocated). */
static tavi_jbuf *answer(tw_ctx *c)
{
    c->out.len = 0;
    c->out.failed = 0;
    tavi_jb_raw(&c->out, "", 0);
    return &c->out;
}

static const char *done(tw_ctx *c) { return c->out.failed ? NULL : c->out.p; }

EXPORT("tw_error") const char *tw_error(tw_ctx *c) { return c->err; }

static int set_session(tw_ctx *c, tav_session *s)
{
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

EXPORT("tw_view") const char *tw_view(tw_ctx *c, int ply, int viewer)
{
    tavi_jbuf *b = answer(c);
    memset(&c->view, 0, sizeof c->view);
    if (!c->s || tav_session_view(c->s, ply, viewer, &c->view) != TAV_OK)
        tavi_jb_lit(b, "null");
    else
        tavi_json_view(b, &c->view);
    return done(c);
}

/* The game for viewer: the server's game object (docs/server-api.md) less
 * id, players, seats and the server's flags, which the page adds. */
EXPORT("tw_game") const char *tw_game(tw_ctx *c, int viewer)
{
    tavi_jbuf *b = answer(c);
    if (!c->s) {
        tavi_jb_lit(b, "null");
        return done(c);
    }
    tav_session *s = c->s;
    int ply = tav_session_ply(s);
    tav_result r;
    tav_session_result(s, &r);
    tavi_jb_ch(b, '{');
    tavi_json_game_head(b, s);
    tavi_jb_ch(b, ',');
    tavi_json_state(b, s, &r, viewer);
    tavi_jb_lit(b, ",\"end\":");
    if (!r.over)
        tavi_jb_lit(b, "null");
    else
        tavi_jb_str(b, tav_session_resigned(s) != TAV_NONE ? "resign" : "normal");
    tavi_jb_lit(b, ",\"view\":");
    memset(&c->view, 0, sizeof c->view);
    if (tav_session_view(s, ply, viewer, &c->view) == TAV_OK)
        tavi_json_view(b, &c->view);
    else
        tavi_jb_lit(b, "null");
    tavi_jb_ch(b, '}');
    return done(c);
}

/* The whole record (the page owns the game it plays). */
EXPORT("tw_record") const char *tw_record(tw_ctx *c, const char *white, const char *black)
{
    tavi_jbuf *b = answer(c);
    char *rec = c->s ? tav_session_record_all(c->s, white, black) : NULL;
    if (rec)
        tavi_jb_lit(b, rec);
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
    tavi_jbuf *b = answer(c);
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
    tavi_jb_lit(b, "{\"status\":");
    tavi_jb_int(b, a.status);
    tavi_jb_lit(b, ",\"best\":");
    tavi_jb_str(b, a.status == TAV_OK ? a.best_text : "");
    tavi_jb_lit(b, ",\"value\":");
    tavi_jb_num(b, a.value);
    tavi_jb_lit(b, ",\"playouts\":");
    tavi_jb_u64(b, a.playouts);
    tavi_jb_lit(b, ",\"nodes\":");
    tavi_jb_u64(b, a.nodes);
    tavi_jb_lit(b, ",\"depth\":");
    tavi_jb_int(b, a.depth);
    tavi_jb_lit(b, ",\"seconds\":");
    tavi_jb_num(b, a.seconds);
    tavi_jb_ch(b, '}');
    return done(c);
}

/* ---- the engine protocol, line by line ---- */

static void engine_info(void *ctx, const char *line)
{
    tw_ctx *c = ctx;
    tavi_jb_lit(&c->lines, line);
    tavi_jb_ch(&c->lines, '\n');
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
    tavi_jb_raw(&c->lines, "", 0);
    int quit = 0;
    const char *ans = tavi_protocol_exec(c->engine, line, engine_info, c, &quit);
    tavi_jbuf *b = answer(c);
    tavi_jb_raw(b, c->lines.p, c->lines.len);
    tavi_jb_lit(b, ans ? ans : "");
    return done(c);
}

/* ---- the games' words for people: /api/meta's shape (docs/server-api.md) ---- */

EXPORT("tw_meta") const char *tw_meta(tw_ctx *c)
{
    tavi_json_meta(answer(c));
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
