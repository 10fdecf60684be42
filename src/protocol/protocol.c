/*
 * protocol.c — the engine protocol: one command line in, one answer line out.
 *
 * Layout.  The engine is a thin adapter over a tav_session (the game, its
 * options, its history: `play`, `undo`, `position` go through it), plus what
 * only the protocol has: the answer buffer, the go defaults and the search
 * memory kept between moves.
 *
 * Commands come from a table with whole-token matching; the same table
 * generates `help`.  Every handler validates its arguments before it changes
 * anything, so a failing command leaves the game as it was.  Answers are
 * built in a growable buffer owned by the session (a Urbino move list can be
 * over 100 kB).
 */
#include "protocol/protocol.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/base.h"
#include "tavoliere_search.h"
#include "tavoliere_session.h"

#define GO_DEFAULT_MS 2000
#define TAVI_PROTOCOL_SHOW_LINE 512   /* a `show` line, before its "info " prefix */

struct tavi_protocol {
    tav_session *s;              /* NULL before the first newgame */
    const tav_game *game;        /* the session's game, NULL before newgame */
    tav_move *scratch;           /* TAV_MAX_MOVES moves */
    char *out;                   /* answer buffer */
    size_t outlen, outcap;
    int out_failed;              /* allocation failed while answering */
    tav_rng rng;
    int threads;                 /* threads for go (1 = deterministic) */
    size_t memory;               /* search memory for go, bytes */
    tav_service *service;        /* the caller's search service, or NULL: own_service */
    tav_service *own_service;    /* made at the first go without the caller's, freed with it */
    uint64_t keep;               /* the service's line of play: new at newgame and position */
    tav_info_fn info;
    void *info_ctx;
};

typedef struct command {
    const char *name;
    void (*run)(tavi_protocol *e, char *args);
    const char *help;
} command;

/* ---------------------------------------------------------------- output */

/* Reset the answer buffer. */
static void out_reset(tavi_protocol *e)
{
    e->outlen = 0;
    e->out_failed = 0;
    e->out[0] = '\0';
}

/* Append bytes to the answer, growing the buffer. */
static void out_add(tavi_protocol *e, const char *s, size_t n)
{
    if (e->out_failed)
        return;
    if (e->outlen + n + 1 > e->outcap) {
        size_t cap = e->outcap * 2;
        while (cap < e->outlen + n + 1)
            cap *= 2;
        char *p = realloc(e->out, cap);
        if (!p) {
            e->out_failed = 1;
            return;
        }
        e->out = p;
        e->outcap = cap;
    }
    memcpy(e->out + e->outlen, s, n);
    e->outlen += n;
    e->out[e->outlen] = '\0';
}

/* Append formatted text to the answer. */
static void out_printf(tavi_protocol *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void out_printf(tavi_protocol *e, const char *fmt, ...)
{
    char buf[1024];
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    if (k < 0)
        return;
    out_add(e, buf, (size_t)k < sizeof buf ? (size_t)k : sizeof buf - 1);
}

/* Copy at most 40 bytes of untrusted text, for echoing it: tavi_quote (whole
 * UTF-8 characters, '?' for control characters and bad bytes), then "..."
 * when the text goes on.  dst has room for n >= 4 bytes. */
static void quote(char *dst, size_t n, const char *src)
{
    size_t used = tavi_quote(dst, n - 3, src, 40);
    if (src[used])
        memcpy(dst + strlen(dst), "...", 4);
}

/* ---------------------------------------------------------------- states */

static const void *cur_state(const tavi_protocol *e) { return tav_session_state(e->s); }

/* ------------------------------------------------------------- arguments */

/* Split off the first whitespace-separated token of *s (NUL-terminated in
 * place); returns NULL when there is none. */
static char *next_token(char **s)
{
    char *p = *s;
    while (*p == ' ' || *p == '\t')
        p++;
    if (!*p) {
        *s = p;
        return NULL;
    }
    char *tok = p;
    while (*p && *p != ' ' && *p != '\t')
        p++;
    if (*p)
        *p++ = '\0';
    *s = p;
    return tok;
}

/* Answer an error when a game must exist; returns 1 if there is none. */
static int need_game(tavi_protocol *e)
{
    if (e->game)
        return 0;
    out_printf(e, "error no game: start one with newgame GAME");
    return 1;
}

/* ------------------------------------------------------------- commands */

static void cmd_newgame(tavi_protocol *e, char *args)
{
    char *name = next_token(&args);
    char games[128];
    tav_game_list(games, sizeof games);
    if (!name) {
        out_printf(e, "error newgame needs a game: %s", games);
        return;
    }
    const tav_game *g = tav_game_find(name);
    if (!g) {
        char q[64];
        quote(q, sizeof q, name);
        out_printf(e, "error unknown game '%s' (expected %s)", q, games);
        return;
    }
    while (*args == ' ' || *args == '\t')
        args++;
    if (strlen(args) >= 512) {
        out_printf(e, "error options too long");
        return;
    }
    /* A new session replaces the old one only when it could be made. The
     * deal's seed is 1, as SPEC.md's default for seed=. */
    char err[256] = "";
    tav_session *s;
    tav_status st = tav_session_new(&s, g->name, args, 1, err, sizeof err);
    if (st != TAV_OK) {
        out_printf(e, "error %s", st == TAV_E_NOMEM ? "out of memory" : err[0] ? err : "bad options");
        return;
    }
    tav_session_free(e->s);
    e->s = s;
    e->game = g;
    e->keep++;
    out_printf(e, "ok");
}

static void cmd_moves(tavi_protocol *e, char *args)
{
    (void)args;
    if (need_game(e))
        return;
    const void *st = cur_state(e);
    int n = e->game->legal(st, e->scratch);
    char buf[TAV_MOVE_TEXT];
    out_add(e, "moves", 5);
    for (int i = 0; i < n; i++) {
        int k = e->game->move_str(st, e->scratch[i], buf, sizeof buf);
        out_add(e, " ", 1);
        out_add(e, buf, (size_t)k);
    }
}

static void cmd_play(tavi_protocol *e, char *args)
{
    if (need_game(e))
        return;
    while (*args == ' ' || *args == '\t')
        args++;
    size_t len = strlen(args);
    while (len > 0 && (args[len - 1] == ' ' || args[len - 1] == '\t'))
        args[--len] = '\0';
    if (len == 0) {
        out_printf(e, "error play needs a move");
        return;
    }
    char q[64];
    quote(q, sizeof q, args);
    char err[256];
    tav_status st = tav_session_play_text(e->s, args, err, sizeof err);
    if (st == TAV_OK)
        out_printf(e, "ok");
    else if (st == TAV_E_OVER)
        out_printf(e, "illegal %s: the game is over", q);
    else if (st == TAV_E_NOMEM)
        out_printf(e, "error out of memory");
    else
        out_printf(e, "illegal %s is not a legal move here", q);
}

static void cmd_state(tavi_protocol *e, char *args)
{
    (void)args;
    if (need_game(e))
        return;
    tav_result r;
    tav_session_result(e->s, &r);
    int tm = r.over ? TAV_NONE : tav_session_to_move(e->s);
    out_printf(e, "state tomove=%s over=%s winner=%s score=%d:%d", tav_side_name(tm),
               r.over ? "yes" : "no", r.over ? tav_side_name(r.winner) : "none", r.score[0],
               r.score[1]);
}

static void cmd_undo(tavi_protocol *e, char *args)
{
    (void)args;
    if (need_game(e))
        return;
    if (tav_session_undo(e->s) != TAV_OK) {
        out_printf(e, "error no move to undo");
        return;
    }
    out_printf(e, "ok");
}

/* Parse `go` options into a search budget; returns 0 or answers an error. */
static int parse_go(tavi_protocol *e, char *args, tav_budget *lim, char *player, size_t pn)
{
    tavi_optiter it = {args};
    char key[32], val[32], err[128];
    int k, timed = 0;
    memset(lim, 0, sizeof *lim);
    lim->movetime_ms = GO_DEFAULT_MS;
    lim->seed = tav_rng_next(&e->rng);
    lim->threads = e->threads;
    lim->memory = e->memory;
    snprintf(player, pn, "ai");
    while ((k = tavi_opt_next(&it, key, sizeof key, val, sizeof val, err, sizeof err)) == 1) {
        uint64_t v;
        if (strcmp(key, "player") == 0) {
            if (strcmp(val, "ai") != 0 && strcmp(val, "uct") != 0 && strcmp(val, "random") != 0) {
                out_printf(e, "error go: player is ai, uct or random");
                return -1;
            }
            snprintf(player, pn, "%s", val);
            continue;
        }
        if (tavi_parse_uint(val, 1000000000, &v) != 0) {
            char q[64];
            quote(q, sizeof q, key);
            out_printf(e, "error go: '%s' needs a whole number", q);
            return -1;
        }
        if (strcmp(key, "movetime") == 0) {
            lim->movetime_ms = (long)v;
            timed = 1;
        } else if (strcmp(key, "nodes") == 0) {
            lim->nodes = v;
        } else if (strcmp(key, "depth") == 0) {
            lim->depth = (int)v;
        } else if (strcmp(key, "level") == 0) {
            if (v < 1 || v > 10) {
                out_printf(e, "error go: level goes from 1 to 10");
                return -1;
            }
            lim->level = (int)v;
        } else if (strcmp(key, "threads") == 0) {
            if (v < 1 || v > 8) {
                out_printf(e, "error go: threads goes from 1 to 8");
                return -1;
            }
            lim->threads = (int)v;
        } else if (strcmp(key, "memory") == 0) {
            if (v < 1 || v > 4096) {
                out_printf(e, "error go: memory goes from 1 to 4096 (MiB)");
                return -1;
            }
            lim->memory = (size_t)v << 20;
        } else if (strcmp(key, "seed") == 0) {
            lim->seed = v;
        } else {
            char q[64];
            quote(q, sizeof q, key);
            out_printf(e, "error go: unknown option '%s' (expected movetime, nodes, depth, level, threads, memory, seed, player)", q);
            return -1;
        }
    }
    if (k < 0) {
        out_printf(e, "error go: %s", err);
        return -1;
    }
    /* A node, depth or level budget alone is not also limited by the default time. */
    if (!timed && (lim->nodes || lim->depth || lim->level))
        lim->movetime_ms = lim->level ? GO_DEFAULT_MS : 0;
    return 0;
}

/* The service go searches on: the caller's, else the engine's own (two
 * workers, made at the first go): no search starts threads of its own. */
static tav_service *go_service(tavi_protocol *e)
{
    if (e->service)
        return e->service;
    if (!e->own_service)
        e->own_service = tav_service_new(2, 0);
    return e->own_service;
}

static void cmd_go(tavi_protocol *e, char *args)
{
    if (need_game(e))
        return;
    tav_budget b;
    char player[32];
    if (parse_go(e, args, &b, player, sizeof player) != 0)
        return;
    e->memory = b.memory;   /* a valid go's memory= stays for the next moves */
    const void *st = cur_state(e);
    if (tav_session_to_move(e->s) == TAV_NONE) {
        out_printf(e, "error the game is over");
        return;
    }
    /* The service: its workers' memory (go memory= caps it), threads up
     * to its pool, the table or tree kept from move to move of this game. */
    tav_service *svc = go_service(e);
    if (!svc) {
        out_printf(e, "error out of memory");
        return;
    }
    b.keep = e->keep;
    tav_answer a;
    tav_status rc = tav_service_run_state(svc, e->game, st, player, &b, e->info, e->info_ctx, &a);
    if (rc != TAV_OK) {
        out_printf(e, "error %s", rc == TAV_E_OVER ? "the game is over"
                                  : rc == TAV_E_NOMEM ? "out of memory"
                                                      : "search failed");
        return;
    }
    if (e->info) {
        char line[256];
        if (a.depth > 0)
            snprintf(line, sizeof line, "info depth %d nodes %llu time %.0f value %.3f", a.depth,
                     (unsigned long long)a.nodes, a.seconds * 1000.0, a.value);
        else
            snprintf(line, sizeof line, "info playouts %llu nodes %llu time %.0f value %.3f",
                     (unsigned long long)a.playouts, (unsigned long long)a.nodes, a.seconds * 1000.0,
                     a.value);
        e->info(e->info_ctx, line);
    }
    out_printf(e, "bestmove %s", a.best_text);
}

static void cmd_quit(tavi_protocol *e, char *args)
{
    (void)args;
    out_printf(e, "ok");
}

static void cmd_position(tavi_protocol *e, char *args)
{
    if (need_game(e))
        return;
    while (*args == ' ' || *args == '\t')
        args++;
    if (!*args) {
        out_printf(e, "error position needs the position text (lines separated by /)");
        return;
    }
    for (char *p = args; *p; p++)
        if (*p == '/')
            *p = '\n';
    /* Start from a fresh game with the same options, then set the position. */
    char err[256] = "";
    tav_status st = tav_session_set_position(e->s, args, err, sizeof err);
    if (st != TAV_OK) {
        out_printf(e, "error position: %s", st == TAV_E_NOMEM ? "out of memory" : err[0] ? err : "invalid");
        return;
    }
    e->keep++;
    out_printf(e, "ok");
}

static void cmd_getposition(tavi_protocol *e, char *args)
{
    (void)args;
    if (need_game(e))
        return;
    char buf[TAV_POSITION_TEXT];
    e->game->get_position(cur_state(e), buf, sizeof buf);
    for (char *p = buf; *p; p++)
        if (*p == '\n')
            *p = '/';
    size_t n = strlen(buf);
    while (n > 0 && buf[n - 1] == '/')
        buf[--n] = '\0';
    out_printf(e, "position ");
    out_add(e, buf, n);
}

static void cmd_probe(tavi_protocol *e, char *args)
{
    if (need_game(e))
        return;
    while (*args == ' ' || *args == '\t')
        args++;
    if (!e->game->probe) {
        out_printf(e, "error %s has no probes", e->game->name);
        return;
    }
    char buf[8192];
    if (e->game->probe(cur_state(e), args, buf, sizeof buf) != 0) {
        char q[64];
        quote(q, sizeof q, args);
        out_printf(e, "error unknown probe '%s'", q);
        return;
    }
    out_printf(e, "probe ");
    out_add(e, buf, strlen(buf));
}

/* Count leaf sequences of length depth (bulk-counting the last level). */
static uint64_t perft(const tav_game *g, const void *st, int depth, tav_move *lists,
                      unsigned char *states)
{
    int n = g->legal(st, lists);
    if (depth == 1)
        return (uint64_t)n;
    uint64_t total = 0;
    void *child = states;
    for (int i = 0; i < n; i++) {
        memcpy(child, st, g->state_size);
        g->play(child, lists[i]);
        total += perft(g, child, depth - 1, lists + g->max_moves, states + g->state_size);
    }
    return total;
}

static void cmd_perft(tavi_protocol *e, char *args)
{
    if (need_game(e))
        return;
    char *tok = next_token(&args);
    uint64_t d;
    if (!tok || tavi_parse_uint(tok, 8, &d) != 0 || d < 1 || next_token(&args)) {
        out_printf(e, "error perft needs a depth from 1 to 8");
        return;
    }
    tav_move *lists = malloc(sizeof(tav_move) * (size_t)e->game->max_moves * d);
    unsigned char *states = malloc(e->game->state_size * d);
    if (!lists || !states) {
        free(lists);
        free(states);
        out_printf(e, "error out of memory");
        return;
    }
    uint64_t n = perft(e->game, cur_state(e), (int)d, lists, states);
    free(lists);
    free(states);
    out_printf(e, "perft %" PRIu64, n);
}

/* Forward one rendered line to the info callback with the "info " prefix. */
static void show_line(void *ctx, const char *line)
{
    tavi_protocol *e = ctx;
    if (!e->info)
        return;
    char buf[TAVI_PROTOCOL_SHOW_LINE + 8];
    snprintf(buf, sizeof buf, "info %s", line);
    e->info(e->info_ctx, buf);
}

static void render_ascii(const tav_board_view *v, tav_info_fn out, void *ctx);

static void cmd_show(tavi_protocol *e, char *args)
{
    (void)args;
    if (need_game(e))
        return;
    tav_board_view *v = calloc(1, sizeof *v);
    if (!v) {
        out_printf(e, "error out of memory");
        return;
    }
    /* The session's projection for a spectator: nothing hidden is drawn. */
    tav_session_view(e->s, tav_session_ply(e->s), TAV_SPECTATOR, v);
    render_ascii(v, show_line, e);
    free(v);
    out_printf(e, "ok");
}

static void cmd_hash(tavi_protocol *e, char *args)
{
    (void)args;
    if (need_game(e))
        return;
    out_printf(e, "hash %016" PRIx64, e->game->hash(cur_state(e)));
}

static void cmd_help(tavi_protocol *e, char *args);

static const command commands[] = {
    {"newgame", cmd_newgame, "newgame GAME [KEY=VALUE ...]  start a game"},
    {"moves", cmd_moves, "moves  list the legal moves"},
    {"play", cmd_play, "play MOVE  play a legal move"},
    {"state", cmd_state, "state  who moves, whether over, winner, score"},
    {"undo", cmd_undo, "undo  take back the last move"},
    {"go", cmd_go, "go [movetime=MS] [nodes=N] [depth=N] [level=1..10] [threads=N] [memory=MB] [player=ai|uct|random]  the engine's move"},
    {"quit", cmd_quit, "quit  end the program"},
    {"position", cmd_position, "position TEXT  set the position (lines separated by /)"},
    {"getposition", cmd_getposition, "getposition  the position text"},
    {"probe", cmd_probe, "probe KEY  a game-specific query"},
    {"perft", cmd_perft, "perft D  count move sequences of depth D"},
    {"show", cmd_show, "show  draw the board as info lines"},
    {"hash", cmd_hash, "hash  the position hash"},
    {"help", cmd_help, "help  this list"},
};
#define NCOMMANDS ((int)(sizeof commands / sizeof commands[0]))

static void cmd_help(tavi_protocol *e, char *args)
{
    (void)args;
    for (int i = 0; i < NCOMMANDS && e->info; i++) {
        char buf[160];
        snprintf(buf, sizeof buf, "info %s", commands[i].help);
        e->info(e->info_ctx, buf);
    }
    out_printf(e, "ok");
}

const char *const *tavi_protocol_commands(void)
{
    static const char *const names[] = {"newgame", "moves", "play", "state", "undo",
                                        "go", "quit", "position", "getposition", "probe",
                                        "perft", "show", "hash", "help", NULL};
    _Static_assert(sizeof names / sizeof names[0] == NCOMMANDS + 1, "command names");
    return names;
}

/* ------------------------------------------------------------- sessions */

tavi_protocol *tavi_protocol_new(uint64_t seed)
{
    tavi_protocol *e = calloc(1, sizeof *e);
    if (!e)
        return NULL;
    e->scratch = malloc(sizeof(tav_move) * TAV_MAX_MOVES);
    e->outcap = 4096;
    e->out = malloc(e->outcap);
    e->memory = 64u << 20;
    if (!e->scratch || !e->out) {
        tavi_protocol_free(e);
        return NULL;
    }
    e->out[0] = '\0';
    tav_rng_seed(&e->rng, seed);
    e->threads = 1;
    return e;
}

void tavi_protocol_set_service(tavi_protocol *e, tav_service *svc)
{
    if (e)
        e->service = svc;
}

void tavi_protocol_free(tavi_protocol *e)
{
    if (!e)
        return;
    tav_session_free(e->s);
    free(e->scratch);
    free(e->out);
    tav_service_free(e->own_service);
    free(e);
}

const char *tavi_protocol_exec(tavi_protocol *e, const char *line, tav_info_fn info, void *ctx,
                              int *quit)
{
    out_reset(e);
    e->info = info;
    e->info_ctx = ctx;
    *quit = 0;
    size_t len = strlen(line);
    if (len >= TAVI_PROTOCOL_MAX_LINE) {
        out_printf(e, "error line too long (at most %d bytes)", TAVI_PROTOCOL_MAX_LINE - 1);
        return e->out;
    }
    char *buf = malloc(len + 1);
    if (!buf) {
        out_printf(e, "error out of memory");
        return e->out;
    }
    memcpy(buf, line, len + 1);
    /* Strip a trailing CR/LF and refuse control characters. */
    while (len > 0 && (buf[len - 1] == '\n' || buf[len - 1] == '\r'))
        buf[--len] = '\0';
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)buf[i];
        if ((c < 32 && c != '\t') || c == 127) {
            out_printf(e, "error control character in command");
            free(buf);
            return e->out;
        }
    }
    char *args = buf;
    char *name = next_token(&args);
    if (!name) {
        out_printf(e, "error empty command");
        free(buf);
        return e->out;
    }
    const command *c = NULL;
    for (int i = 0; i < NCOMMANDS; i++)
        if (strcmp(commands[i].name, name) == 0)
            c = &commands[i];
    if (!c) {
        char q[64];
        quote(q, sizeof q, name);
        out_printf(e, "error unknown command '%s' (try help)", q);
    } else {
        c->run(e, args);
        if (c->run == cmd_quit)
            *quit = 1;
    }
    free(buf);
    if (e->out_failed) {
        out_reset(e);
        out_printf(e, "error out of memory");
    }
    return e->out;
}

/* --------------------------------------------------------------- render */

/* Draw a view as ASCII lines, one callback per line (`show`): each square's
 * glyph, '+' / '-' on empty territory, '*' on an empty lot, '<' after a
 * square the last move touched; then the turn, what each side holds and the
 * game's info line. */
static void render_ascii(const tav_board_view *v, tav_info_fn out, void *ctx)
{
    char line[TAVI_PROTOCOL_SHOW_LINE];
    size_t k;
    for (int r = v->height - 1; r >= 0; r--) {
        k = (size_t)snprintf(line, sizeof line, "%2d ", r + 1);
        for (int f = 0; f < v->width && k + 3 < sizeof line; f++) {
            const tav_square *q = &v->sq[r * v->width + f];
            char g = q->glyph ? q->glyph : '.';
            if (g == '.' && (q->marks & TAV_MARK_TERR_W))
                g = '+';
            else if (g == '.' && (q->marks & TAV_MARK_TERR_B))
                g = '-';
            else if (g == '.' && (q->marks & TAV_MARK_LOT))
                g = '*';
            line[k++] = g;
            line[k++] = (q->marks & TAV_MARK_LAST) ? '<' : ' ';
        }
        line[k] = '\0';
        out(ctx, line);
    }
    k = (size_t)snprintf(line, sizeof line, "   ");
    for (int f = 0; f < v->width && k + 3 < sizeof line; f++) {
        line[k++] = (char)('a' + f);
        line[k++] = ' ';
    }
    line[k] = '\0';
    out(ctx, line);
    snprintf(line, sizeof line, "to move: %s  phase: %s  last: %s", tav_side_name(v->to_move),
             v->phase[0] ? v->phase : "-", v->last_move[0] ? v->last_move : "-");
    out(ctx, line);
    snprintf(line, sizeof line, "white: %s", v->side[0].text);
    out(ctx, line);
    snprintf(line, sizeof line, "black: %s", v->side[1].text);
    out(ctx, line);
    if (v->info[0]) {
        snprintf(line, sizeof line, "%s", v->info);
        out(ctx, line);
    }
}
