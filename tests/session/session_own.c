/*
 * session_own.c — a game of the embedder's own (tic-tac-toe), tav_session_play_as, the
 * public API's statuses, the ways a game ends.
 */
#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tavoliere.h"
#include "tavoliere_game.h"
#include "tavoliere_record.h"
#include "tavoliere_search.h"
#include "tavoliere_session.h"
#include "session_test.h"

/* ---- A game of the embedder's own: tic-tac-toe, written here against
 * tavoliere_game.h alone, played through the public library. ---- */

typedef struct ttt_state {
    uint8_t cell[9];   /* rank * 3 + file: 0 empty, 1 white's X, 2 black's O */
    uint8_t ply;
} ttt_state;

static const uint8_t ttt_lines[8][3] = {{0, 1, 2}, {3, 4, 5}, {6, 7, 8}, {0, 3, 6},
                                        {1, 4, 7}, {2, 5, 8}, {0, 4, 8}, {2, 4, 6}};

/* The side that has a line, else TAV_NONE. */
static int ttt_winner(const ttt_state *t)
{
    for (int i = 0; i < 8; i++) {
        int c = t->cell[ttt_lines[i][0]];
        if (c && c == t->cell[ttt_lines[i][1]] && c == t->cell[ttt_lines[i][2]])
            return c - 1;
    }
    return TAV_NONE;
}

static int ttt_init(void *st, const char *options, char *err, size_t errlen)
{
    memset(st, 0, sizeof(ttt_state));
    for (const char *p = options; p && *p; p++)
        if (*p != ' ') {
            snprintf(err, errlen, "tic-tac-toe has no options");
            return -1;
        }
    return 0;
}

static int ttt_to_move(const void *st)
{
    const ttt_state *t = st;
    return ttt_winner(t) != TAV_NONE || t->ply == 9 ? TAV_NONE : t->ply % 2;
}

static int ttt_legal(const void *st, tav_move *out)
{
    const ttt_state *t = st;
    int n = 0;
    if (ttt_to_move(t) == TAV_NONE)
        return 0;
    for (int i = 0; i < 9; i++)
        if (!t->cell[i])
            out[n++] = (tav_move)i;
    return n;
}

static void ttt_play(void *st, tav_move m)
{
    ttt_state *t = st;
    t->cell[m] = (uint8_t)(t->ply % 2 + 1);
    t->ply++;
}

static void ttt_result(const void *st, tav_result *r)
{
    const ttt_state *t = st;
    int w = ttt_winner(t);
    r->over = w != TAV_NONE || t->ply == 9;
    r->winner = w != TAV_NONE ? w : r->over ? TAV_DRAW : TAV_NONE;
    r->score[0] = w == TAV_WHITE;
    r->score[1] = w == TAV_BLACK;
}

static int ttt_move_str(const void *st, tav_move m, char *buf, size_t n)
{
    (void)st;
    return snprintf(buf, n, "%c%c", 'a' + (int)(m % 3), '1' + (int)(m / 3));
}

static uint64_t ttt_hash(const void *st)
{
    const ttt_state *t = st;
    uint64_t h = 1469598103934665603u;
    for (int i = 0; i < 9; i++)
        h = (h ^ t->cell[i]) * 1099511628211u;
    return h;
}

/* Position text: three lines, rank 3 first, of '.', 'X' and 'O'. */
static int ttt_get_position(const void *st, char *buf, size_t n)
{
    const ttt_state *t = st;
    char text[16];
    int k = 0;
    for (int rank = 2; rank >= 0; rank--) {
        for (int file = 0; file < 3; file++)
            text[k++] = ".XO"[t->cell[rank * 3 + file]];
        text[k++] = '\n';
    }
    text[k] = '\0';
    return snprintf(buf, n, "%s", text);
}

static int ttt_set_position(void *st, const char *text, char *err, size_t errlen)
{
    ttt_state t;
    memset(&t, 0, sizeof t);
    int count[3] = {0, 0, 0};
    const char *p = text;
    for (int rank = 2; rank >= 0; rank--) {
        for (int file = 0; file < 3; file++, p++) {
            const char *c = *p ? strchr(".XO", *p) : NULL;
            if (!c) {
                snprintf(err, errlen, "expected '.', 'X' or 'O'");
                return -1;
            }
            t.cell[rank * 3 + file] = (uint8_t)(c - ".XO");
            count[c - ".XO"]++;
        }
        if (*p == '\n')
            p++;
        else if (*p || rank) {
            snprintf(err, errlen, "expected three lines of three squares");
            return -1;
        }
    }
    if (*p || count[1] < count[2] || count[1] > count[2] + 1) {
        snprintf(err, errlen, "not a position of tic-tac-toe");
        return -1;
    }
    t.ply = (uint8_t)(count[1] + count[2]);
    memcpy(st, &t, sizeof t);
    return 0;
}

static void ttt_board_view(const void *st, int viewer, tav_board_view *v)
{
    const ttt_state *t = st;
    (void)viewer;
    v->width = v->height = 3;
    for (int i = 0; i < 9; i++) {
        v->sq[i].kind = t->cell[i] ? "XO"[t->cell[i] - 1] : 0;
        v->sq[i].glyph = ".XO"[t->cell[i]];
        v->sq[i].owner = (int8_t)(t->cell[i] ? t->cell[i] - 1 : TAV_NONE);
        v->sq[i].piece = t->cell[i] ? (uint16_t)(i + 1) : 0;
    }
    v->to_move = ttt_to_move(t);
    snprintf(v->phase, sizeof v->phase, "%s", v->to_move == TAV_NONE ? "over" : "play");
    tav_result r;
    ttt_result(t, &r);
    v->side[0].score = r.score[0];
    v->side[1].score = r.score[1];
}

static const char *const ttt_samples[] = {"", NULL};

static const tav_game ttt_game = {
    .abi_version = TAV_GAME_ABI_VERSION,
    .name = "tictactoe",
    .state_size = sizeof(ttt_state),
    .max_moves = 9,
    .init = ttt_init,
    .legal = ttt_legal,
    .play = ttt_play,
    .to_move = ttt_to_move,
    .result = ttt_result,
    .move_str = ttt_move_str,
    .hash = ttt_hash,
    .set_position = ttt_set_position,
    .get_position = ttt_get_position,
    .board_view = ttt_board_view,
    .samples = ttt_samples,
    .title = "Tic-tac-toe",
    .score_words = "lines",
    .score_wins = TAV_SCORE_HIGHER_WINS,
};

typedef struct ttt_wait {
    pthread_mutex_t mu;
    pthread_cond_t cv;
    int done;
    tav_answer a;
} ttt_wait;

static void ttt_done(void *ctx, const tav_answer *a)
{
    ttt_wait *w = ctx;
    pthread_mutex_lock(&w->mu);
    w->a = *a;
    w->done = 1;
    pthread_cond_signal(&w->cv);
    pthread_mutex_unlock(&w->mu);
}

void own_game(void)
{
    const tav_game *g = &ttt_game;
    char err[256] = "";
    tav_session *s;
    check(tav_game_check_table(g, err, sizeof err) == TAV_OK, "tictactoe: table: %s", err);
    tav_status st = tav_session_new_game(&s, g, "", 7, err, sizeof err);
    check(st == TAV_OK, "tictactoe: new_game: %s", err);
    if (st != TAV_OK)
        return;
    check(tav_session_game(s) == g && tav_session_to_move(s) == TAV_WHITE, "tictactoe: a new game");
    tav_session *none = s;
    check(tav_session_new_game(&none, g, "size=4", 7, err, sizeof err) == TAV_E_INVALID && !none &&
              strstr(err, "no options"), "tictactoe: the game's own option check (%s)", err);

    /* X a1, O a2, X b1, O b2: X to move, c1 wins and O threatens c2. */
    static const char *const moves[] = {"a1", "a2", "b1", "b2"};
    for (int i = 0; i < 4; i++)
        check(tav_session_play_text(s, moves[i], err, sizeof err) == TAV_OK, "tictactoe: %s: %s",
              moves[i], err);
    check(tav_session_play_text(s, "b2", err, sizeof err) == TAV_E_ILLEGAL &&
              strstr(err, "not a legal move of white"), "tictactoe: a taken square (%s)", err);
    tav_move list[9];
    check(tav_session_legal(s, TAV_WHITE, list) == 5 && tav_session_legal(s, TAV_BLACK, list) == 0,
          "tictactoe: legal moves per viewer");
    char pos[TAV_POSITION_TEXT];
    check(tav_session_position(s, TAV_SPECTATOR, pos, sizeof pos) == TAV_OK &&
              strcmp(pos, "...\nOO.\nXX.\n") == 0, "tictactoe: position text '%s'", pos);
    tav_board_view *v = malloc(sizeof *v);
    check(v && tav_session_view(s, 4, TAV_BLACK, v) == TAV_OK && v->width == 3 &&
              v->sq[4].kind == 'O' && v->sq[0].owner == TAV_WHITE &&
              strcmp(v->last_move, "b2") == 0, "tictactoe: the drawing view");
    free(v);
    tav_move_parts parts;
    check(tav_session_move_parts(s, list[0], &parts) == TAV_E_NOTFOUND,
          "tictactoe: no move parts: TAV_E_NOTFOUND");
    unsigned char copy[sizeof(ttt_state)];
    check(tav_session_search_state(s, TAV_WHITE, copy) == TAV_OK &&
              memcmp(copy, tav_session_state(s), sizeof copy) == 0,
          "tictactoe: nothing hidden, the search state is the state");
    check(tav_session_search_state(s, 5, copy) == TAV_E_INVALID, "search state: a bad viewer");

    /* The search service over the embedder's game, through the session's doors. */
    tav_service *svc = tav_service_new(1, 1u << 20);
    check(svc != NULL, "tictactoe: a service");
    if (svc) {
        tav_budget b;
        memset(&b, 0, sizeof b);
        b.nodes = 2000;
        b.seed = 3;
        tav_answer a;
        st = tav_service_run(svc, s, "uct", &b, NULL, NULL, &a);
        check(st == TAV_OK && strcmp(a.best_text, "c1") == 0, "tictactoe: uct takes the win (%s %s)",
              tav_status_str(st), a.best_text);
        ttt_wait w;
        memset(&w, 0, sizeof w);
        pthread_mutex_init(&w.mu, NULL);
        pthread_cond_init(&w.cv, NULL);
        uint64_t h = 0;
        st = tav_service_submit(svc, s, "ai", &b, ttt_done, &w, &h);
        check(st == TAV_OK && h > 0, "tictactoe: submit: %s", tav_status_str(st));
        if (st == TAV_OK) {
            pthread_mutex_lock(&w.mu);
            while (!w.done)
                pthread_cond_wait(&w.cv, &w.mu);
            pthread_mutex_unlock(&w.mu);
            check(w.a.status == TAV_OK && strcmp(w.a.best_text, "c1") == 0,
                  "tictactoe: ai takes the win (%s)", w.a.best_text);
        }
        h = 5;
        check(tav_service_submit(svc, s, "nobody", &b, ttt_done, &w, &h) == TAV_E_NOTFOUND && h == 0,
              "tictactoe: an unknown player: TAV_E_NOTFOUND");
        pthread_cond_destroy(&w.cv);
        pthread_mutex_destroy(&w.mu);
    }

    check(tav_session_play_text(s, "c1", err, sizeof err) == TAV_OK, "tictactoe: c1: %s", err);
    tav_result r;
    tav_session_result(s, &r);
    check(r.over && r.winner == TAV_WHITE && r.score[0] == 1 && tav_session_to_move(s) == TAV_NONE,
          "tictactoe: white's row wins");
    check(tav_session_play_text(s, "c3", err, sizeof err) == TAV_E_OVER, "tictactoe: over");
    if (svc) {
        tav_budget b;
        memset(&b, 0, sizeof b);
        tav_answer a;
        uint64_t h = 5;
        check(tav_service_run(svc, s, "ai", &b, NULL, NULL, &a) == TAV_E_OVER &&
                  tav_service_submit(svc, s, "ai", &b, ttt_done, NULL, &h) == TAV_E_OVER && h == 0,
              "tictactoe: no search of a finished game");
        tav_service_free(svc);
    }
    char *rec = tav_session_record(s, TAV_SPECTATOR, "me", "you");
    check(rec && strstr(rec, "[Game \"tictactoe\"]") && strstr(rec, "5. c1") &&
              strstr(rec, "[Result \"white\"]"), "tictactoe: the record");
    tav_session *back;
    check(rec && tav_session_from_record(&back, rec, strlen(rec), err, sizeof err) == TAV_E_INVALID &&
              strstr(err, "unknown game"), "tictactoe: records know registered games only (%s)", err);
    free(rec);
    check(tav_session_undo(s) == TAV_OK && tav_session_to_move(s) == TAV_WHITE, "tictactoe: undo");
    tav_session *c = tav_session_clone(s);
    check(c && tav_session_set_position(c, "XOX\n.O.\nX..\n", err, sizeof err) == TAV_OK &&
              tav_session_to_move(c) == TAV_BLACK && tav_session_ply(c) == 0,
          "tictactoe: set position: %s", err);
    check(c && tav_session_set_position(c, "XXX\nXXX\nXXX\n", err, sizeof err) == TAV_E_INVALID &&
              strstr(err, "not a position"), "tictactoe: a bad position refused (%s)", err);
    tav_session_free(c);
    tav_session_free(s);

    /* The library's conformance checks hold for it too. */
    int plies = 0;
    for (uint64_t seed = 1; seed <= 5; seed++)
        check(tav_conformance_game(g, "", seed, NULL, NULL, &plies, err, sizeof err) == TAV_OK &&
                  plies >= 5, "tictactoe: conformance: %s", err);

    /* Tables the library cannot play are refused with the reason. */
    tav_game bad = ttt_game;
    bad.abi_version = TAV_GAME_ABI_VERSION + 1;
    s = NULL;
    check(tav_session_new_game(&s, &bad, "", 1, err, sizeof err) == TAV_E_INVALID && !s &&
              strstr(err, "abi_version"), "another abi_version refused (%s)", err);
    check(tav_conformance_game(&bad, "", 1, NULL, NULL, &plies, err, sizeof err) == TAV_E_INVALID,
          "conformance: another abi_version refused");
    bad = ttt_game;
    bad.legal = NULL;
    check(tav_session_new_game(&s, &bad, "", 1, err, sizeof err) == TAV_E_INVALID &&
              strstr(err, "required operation"), "a table without legal() refused (%s)", err);
    bad = ttt_game;
    bad.state_size = 0;
    check(tav_game_check_table(&bad, err, sizeof err) == TAV_E_INVALID, "a table without state_size");
    check(tav_session_new_game(&s, NULL, "", 1, err, sizeof err) == TAV_E_INVALID, "no table");
    for (int i = 0; i < tav_game_count(); i++)
        check(tav_game_at(i)->abi_version == TAV_GAME_ABI_VERSION &&
                  tav_game_check_table(tav_game_at(i), NULL, 0) == TAV_OK,
              "%s: a table of this version", tav_game_at(i)->name);
}

/* tav_session_play_as: every check before a seat's move, in order, and a
 * refusal changes nothing. */
void play_as(void)
{
    const tav_game *g = &ttt_game;
    char err[256] = "";
    tav_session *s;
    if (tav_session_new_game(&s, g, "", 7, err, sizeof err) != TAV_OK) {
        check(0, "play_as: new_game: %s", err);
        return;
    }
    int rep = -1;
    check(tav_session_play_as(s, TAV_WHITE, 0, 0, "a1", &rep, err, sizeof err) == TAV_OK &&
              rep == 0 && tav_session_ply(s) == 1, "play_as: white a1 at ply 0 (%s)", err);
    check(tav_session_play_as(s, TAV_WHITE, 0, 0, "a1", &rep, err, sizeof err) == TAV_OK &&
              rep == 1 && tav_session_ply(s) == 1, "play_as: the same move again is a retry");
    check(tav_session_play_as(s, TAV_BLACK, 0, 0, "a1", &rep, err, sizeof err) == TAV_E_ILLEGAL &&
              strcmp(err, "stale ply 0: 1 moves were played") == 0,
          "play_as: the same text by the other side is stale (%s)", err);
    check(tav_session_play_as(s, TAV_BLACK, 0, 0, "a2", &rep, err, sizeof err) == TAV_E_ILLEGAL &&
              strstr(err, "stale ply 0"), "play_as: another move at an old ply is stale (%s)", err);
    check(tav_session_play_as(s, TAV_BLACK, 5, 0, "a2", NULL, err, sizeof err) == TAV_E_ILLEGAL &&
              strcmp(err, "stale ply 5: 1 moves were played") == 0,
          "play_as: a future ply is stale (%s)", err);
    check(tav_session_play_as(s, TAV_WHITE, 1, 0, "a2", NULL, err, sizeof err) == TAV_E_ILLEGAL &&
              strcmp(err, "it is not your turn") == 0, "play_as: not white's turn (%s)", err);
    check(tav_session_play_as(s, TAV_BLACK, 1, 1, "a2", NULL, err, sizeof err) == TAV_E_OVER &&
              strcmp(err, "a game on this server has at most 1 moves") == 0,
          "play_as: the caller's cap (%s)", err);
    check(tav_session_play_as(s, TAV_BLACK, 1, 0, "a1", NULL, err, sizeof err) == TAV_E_ILLEGAL &&
              strstr(err, "not a legal move"), "play_as: an illegal move (%s)", err);
    check(tav_session_ply(s) == 1, "play_as: refusals changed nothing");
    static const char *const rest[] = {"a2", "b1", "b2", "c1"};
    for (int i = 0; i < 4; i++)
        check(tav_session_play_as(s, i % 2 ? TAV_WHITE : TAV_BLACK, 1 + i, 0, rest[i], NULL, err,
                                  sizeof err) == TAV_OK, "play_as: %s (%s)", rest[i], err);
    check(tav_session_play_as(s, TAV_BLACK, 5, 0, "c2", NULL, err, sizeof err) == TAV_E_OVER &&
              strcmp(err, "the game is over") == 0, "play_as: after the end (%s)", err);
    tav_session_free(s);
}

/* ---- The public API's statuses: the reason is never lost. ---- */
void statuses(void)
{
    char version[32];
    snprintf(version, sizeof version, "%d.%d.%d", TAV_VERSION_MAJOR, TAV_VERSION_MINOR,
             TAV_VERSION_PATCH);
    check(strcmp(version, TAV_VERSION) == 0, "TAV_VERSION %s is %s", TAV_VERSION, version);
    check(strcmp(tav_status_str(TAV_OK), "ok") == 0 &&
              strcmp(tav_status_str(TAV_E_NOMEM), "out of memory") == 0, "tav_status_str");

    const tav_game *g = tav_game_find("epaminondas");
    char err[256];
    unsigned char *st = malloc(g->state_size);
    tav_move *scratch = malloc(sizeof *scratch * (size_t)g->max_moves), m;
    check(tav_game_setup(g, st, "nosuch=1", 1, err, sizeof err) == TAV_E_INVALID,
          "tav_game_setup: a bad option");
    check(tav_game_setup(g, st, "", 1, err, sizeof err) == TAV_OK, "tav_game_setup");
    check(tav_find_move(g, st, "", scratch, &m) == TAV_E_INVALID, "tav_find_move: empty text");
    check(tav_find_move(g, st, "a1-a9", scratch, &m) == TAV_E_ILLEGAL, "tav_find_move: not legal");
    int n = g->legal(st, scratch);
    char text[TAV_MOVE_TEXT];
    g->move_str(st, scratch[n - 1], text, sizeof text);
    tav_move want = scratch[n - 1];
    check(tav_find_move(g, st, text, scratch, &m) == TAV_OK && m == want, "tav_find_move");
    char pos[TAV_POSITION_TEXT];
    check(tav_game_public_position(g, st, TAV_SPECTATOR, pos, sizeof pos) == TAV_OK && pos[0],
          "tav_game_public_position");
    check(tav_game_public_position(g, st, 9, pos, sizeof pos) == TAV_E_INVALID,
          "tav_game_public_position: a bad viewer");
    tav_move_parts p;
    check(tav_game_move_parts(g, st, want, &p) == TAV_OK && p.nsquares > 0, "tav_game_move_parts");
    free(st);
    free(scratch);

    /* Records: why a record does not replay. */
    static const struct {
        const char *text;
        tav_status want;
    } recs[] = {
        {"[Game \"epaminondas\"]\n\n1. a1-a9\n", TAV_E_ILLEGAL},
        {"[Game \"nosuch\"]\n", TAV_E_INVALID},
        {"[Game \"epaminondas\"]\n[Options \"x=1\"]\n", TAV_E_INVALID},
        {"[Game \"epaminondas\"]\n\n2. a1-a9\n", TAV_E_INVALID},
        {"1. a1-a9\n", TAV_E_INVALID},
    };
    for (size_t i = 0; i < sizeof recs / sizeof recs[0]; i++) {
        tav_record r;
        tav_record_init(&r);
        err[0] = '\0';
        tav_status got = tav_record_parse(recs[i].text, strlen(recs[i].text), &r, NULL, err,
                                          sizeof err);
        check(got == recs[i].want && strncmp(err, "line ", 5) == 0, "record %zu: %s (%s), want %s",
              i, tav_status_str(got), err, tav_status_str(recs[i].want));
        tav_record_free(&r);
    }
    /* A move after the end: a finished game's record with one move more. */
    tav_session *s;
    tav_session_new(&s, "urbino", "", 1, err, sizeof err);
    tav_rng rng;
    tav_rng_seed(&rng, 11);
    tav_move *list = malloc(sizeof *list * (size_t)tav_session_game(s)->max_moves);
    for (int ply = 0; ply < 5000 && tav_session_to_move(s) != TAV_NONE; ply++) {
        int k = tav_session_legal(s, tav_session_to_move(s), list);
        tav_session_play(s, list[tav_rng_below(&rng, (uint32_t)k)]);
    }
    free(list);
    char *rec = tav_session_record_all(s, "w", "b");
    size_t len = rec ? strlen(rec) : 0;
    char *more = malloc(len + 64);
    snprintf(more, len + 64, "%s%d. Ai9\n", rec ? rec : "", tav_session_ply(s) + 1);
    tav_session_free(s);
    tav_record r;
    tav_record_init(&r);
    check(rec && tav_record_parse(rec, len, &r, NULL, err, sizeof err) == TAV_OK, "a record: %s",
          err);
    tav_record_free(&r);
    check(tav_record_parse(more, strlen(more), &r, NULL, err, sizeof err) == TAV_E_OVER &&
              strstr(err, "after the end"), "a move after the end: TAV_E_OVER (%s)", err);
    tav_record_free(&r);
    free(rec);
    free(more);
    tav_record_init(&r);
    for (int i = 0; i < 3; i++)
        check(tav_record_add(&r, "x", NULL) == TAV_OK, "tav_record_add");
    tav_record_free(&r);
}

/* Why a game ended (tav_board_view.end), for the ends random games rarely
 * reach: Epaminondas won by the far row and by leaving no move. */
void end_reasons(void)
{
    static const struct {
        const char *pos, *move, *want;
    } cases[] = {
        {"..............\nW......B.....B\n..............\n..............\n..............\n"
         "..............\n..............\n..............\n..............\n..............\n"
         "......W.......\n..............\ntomove=white\n",
         "a11-a12", "White began a turn with more pieces on the far row than Black had on theirs, "
                    "1 to 0: White wins."},
        {"..............\n..............\n..............\n..............\n..............\n"
         "..............\n..............\n..............\n..............\n..............\n"
         "BB............\nWB............\ntomove=white\n",
         NULL, "White had no move left: Black wins."},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char err[256];
        tav_session *s;
        tav_status st = tav_session_from_position(&s, "epaminondas", cases[i].pos, err, sizeof err);
        check(st == TAV_OK, "end reasons %zu: position: %s", i, err);
        if (st != TAV_OK)
            continue;
        tav_board_view *v = malloc(sizeof *v);
        if (cases[i].move) {
            check(tav_session_play_text(s, cases[i].move, err, sizeof err) == TAV_OK &&
                      tav_session_play_text(s, "n11-n10", err, sizeof err) == TAV_OK,
                  "end reasons %zu: moves: %s", i, err);
        }
        tav_result r;
        tav_session_result(s, &r);
        check(r.over && tav_session_view(s, tav_session_ply(s), TAV_SPECTATOR, v) == TAV_OK &&
                  strcmp(v->end, cases[i].want) == 0,
              "epaminondas: why the game ended, case %zu: '%s'", i, v->end);
        free(v);
        tav_session_free(s);
    }
}
