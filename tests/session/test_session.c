/*
 * test_session.c — the session API (include/tavoliere_session.h).
 *
 * Run as build/test_session [GAMES_PER_SET]; prints one line per failure and
 * the summary "N passed, N failed".  Checks:
 *   - for every game and sample option set (tav_game.samples), seeded random
 *     games played through the session agree with the raw operations table
 *     at every ply (state bytes, side to act, result, legal moves per
 *     viewer), undo and replay give the same state, a clone is equal, the
 *     board view is filled for every ply and viewer, and the record of the
 *     finished game replays to the same final state;
 *   - errors: unknown game, bad options, empty / malformed / illegal moves
 *     (with a "did you mean"), moves after the end, undo at the start, a
 *     failing call changes nothing;
 *   - resignation: result, side to act, undo, record;
 *   - Toscana's hidden information: two deals that differ only below the
 *     stack tops give byte-identical projections (legal moves, position
 *     text, board view, record, public options) for every viewer at every
 *     ply while the game is unfinished;
 *   - move parts: for every legal move of every position of seeded random
 *     games of every game and sample option set, the parts (squares,
 *     piece, from/to, rotation) write the move's text again (each game's
 *     notation written here independently), fit the board before and after
 *     the move, and turn the hand's shape onto the squares;
 *   - the library's conformance checks (tav_conformance_game) pass for
 *     every game and sample option set;
 *   - fuzzing: damaged move texts, position texts and records for every
 *     game answer a status with a message, and a refusal changes nothing;
 *   - messages that quote input stay valid UTF-8 without control
 *     characters (a strict validator: no overlong forms, no surrogates,
 *     nothing above U+10FFFF): ASCII prefixes of every length 0..80 followed
 *     by multi-byte characters or invalid bytes, and random bytes, as moves,
 *     game names, options, records and positions of every game, with err
 *     buffers of several sizes;
 *   - a game of the embedder's own (tic-tac-toe, written here against
 *     tavoliere_game.h) is played, projected, recorded, checked and
 *     searched through a session made with tav_session_new_game, and tables
 *     of another abi_version or missing an operation are refused;
 *   - tav_session_play_as: a retry, stale plies, the turn, the caller's cap,
 *     the end, in that order, and a refusal changes nothing;
 *   - the public API's statuses: the table helpers, records and the
 *     search service's doors say why they fail (tav_status), and the
 *     version macros agree with each other.
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

static int passed, failed;

static void check(int ok, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void check(int ok, const char *fmt, ...)
{
    if (ok) {
        passed++;
        return;
    }
    if (failed++ < 30) {
        va_list ap;
        printf("FAIL ");
        va_start(ap, fmt);
        vprintf(fmt, ap);
        va_end(ap);
        printf("\n");
    }
}

static const int viewers[3] = {TAV_WHITE, TAV_BLACK, TAV_SPECTATOR};

/* One random game of g/options through a session and the raw table at once. */
static void random_game(const tav_game *g, const char *options, uint64_t seed)
{
    char err[256];
    tav_session *s;
    tav_status st = tav_session_new(&s, g->name, options, seed, err, sizeof err);
    check(st == TAV_OK, "%s [%s]: new: %s", g->name, options, err);
    if (st != TAV_OK)
        return;
    unsigned char *raw = malloc(g->state_size);
    tav_move *list = malloc(sizeof *list * (size_t)g->max_moves);
    tav_move *list2 = malloc(sizeof *list2 * (size_t)g->max_moves);
    tav_board_view *v = malloc(sizeof *v);
    check(tav_game_setup(g, raw, options, seed, err, sizeof err) == TAV_OK, "%s: setup", g->name);
    tav_rng rng;
    tav_rng_seed(&rng, seed * 7 + 3);
    int bad = 0, ply = 0;
    for (; ply < 5000 && !bad; ply++) {
        if (memcmp(raw, tav_session_state(s), g->state_size) != 0 ||
            tav_session_ply(s) != ply || g->to_move(raw) != tav_session_to_move(s)) {
            check(0, "%s [%s] seed %llu ply %d: session and table disagree", g->name, options,
                  (unsigned long long)seed, ply);
            bad = 1;
            break;
        }
        tav_result r1, r2;
        g->result(raw, &r1);
        tav_session_result(s, &r2);
        if (memcmp(&r1, &r2, sizeof r1) != 0) {
            check(0, "%s ply %d: results disagree", g->name, ply);
            bad = 1;
        }
        int tm = g->to_move(raw);
        int n = g->legal(raw, list);
        for (int k = 0; k < 3; k++) {
            int nv = tav_session_legal(s, viewers[k], list2);
            int want = viewers[k] == tm ? n : 0;
            if (nv != want || (nv && memcmp(list, list2, sizeof *list * (size_t)n) != 0)) {
                check(0, "%s ply %d: viewer %d sees %d moves, expected %d", g->name, ply,
                      viewers[k], nv, want);
                bad = 1;
            }
            if (tav_session_view(s, ply, viewers[k], v) != TAV_OK || v->width <= 0 ||
                v->height <= 0 || v->to_move != tm) {
                check(0, "%s ply %d: view for viewer %d", g->name, ply, viewers[k]);
                bad = 1;
            }
            /* Why it ended: said once it is over, to everyone, naming the
             * result; nothing while it runs. */
            const char *want_end = r1.winner == TAV_WHITE   ? "White wins."
                                   : r1.winner == TAV_BLACK ? "Black wins."
                                                            : "a draw.";
            if (!r1.over ? v->end[0] != 0
                         : !strstr(v->end, want_end) || strlen(v->end) < 30) {
                check(0, "%s ply %d: view's end for viewer %d: '%s'", g->name, ply,
                      viewers[k], v->end);
                bad = 1;
            }
        }
        if (ply > 0 && strcmp(v->last_move, tav_session_move_text(s, ply - 1)) != 0) {
            check(0, "%s ply %d: view's last move '%s'", g->name, ply, v->last_move);
            bad = 1;
        }
        if (tm == TAV_NONE)
            break;
        tav_move m = list[tav_rng_below(&rng, (uint32_t)n)];
        char text[TAV_MOVE_TEXT];
        tav_session_move_str(s, m, text, sizeof text);
        /* Now and then: undo and play again, or play by value. */
        if (ply % 7 == 3) {
            st = tav_session_play(s, m);
        } else {
            st = tav_session_play_text(s, text, err, sizeof err);
        }
        if (st != TAV_OK) {
            check(0, "%s ply %d: play '%s': %s", g->name, ply, text, err);
            bad = 1;
            break;
        }
        if (strcmp(tav_session_move_text(s, ply), text) != 0) {
            check(0, "%s ply %d: move text '%s' kept as '%s'", g->name, ply, text,
                  tav_session_move_text(s, ply));
            bad = 1;
        }
        if (ply % 11 == 5) {
            if (tav_session_undo(s) != TAV_OK ||
                memcmp(raw, tav_session_state(s), g->state_size) != 0 ||
                tav_session_play_text(s, text, err, sizeof err) != TAV_OK) {
                check(0, "%s ply %d: undo and replay", g->name, ply);
                bad = 1;
            }
        }
        g->play(raw, m);
        tav_session_set_move_ms(s, ply, ply * 10 + 1);
    }
    check(!bad, "%s [%s] seed %llu: %d plies agree", g->name, options, (unsigned long long)seed,
          ply);

    /* History: every state_at and its move replay. */
    int okh = tav_session_state_at(s, -1) == NULL && tav_session_state_at(s, ply + 1) == NULL &&
              tav_session_move_text(s, ply) == NULL;
    for (int i = 0; i < tav_session_ply(s) && okh; i++)
        okh = tav_session_move_ms(s, i) == i * 10 + 1;
    check(okh, "%s: history bounds and move times", g->name);
    /* Clone. */
    tav_session *c = tav_session_clone(s);
    check(c && tav_session_ply(c) == tav_session_ply(s) &&
              memcmp(tav_session_state(c), tav_session_state(s), g->state_size) == 0 &&
              strcmp(tav_session_options(c), options) == 0 && tav_session_seed(c) == seed,
          "%s: clone", g->name);
    /* Finished: more moves are refused, the record replays exactly. */
    if (tav_session_to_move(s) == TAV_NONE)
        check(tav_session_play_text(c, "a1", err, sizeof err) == TAV_E_OVER,
              "%s: play after end", g->name);
    char *rec = tav_session_record(s, TAV_SPECTATOR, "w", "b");
    check(rec != NULL, "%s: record", g->name);
    if (rec) {
        tav_session *r;
        st = tav_session_from_record(&r, rec, strlen(rec), err, sizeof err);
        check(st == TAV_OK, "%s [%s]: record does not replay: %s\n%s", g->name, options, err, rec);
        if (st == TAV_OK) {
            check(tav_session_ply(r) == tav_session_ply(s) &&
                      memcmp(tav_session_state(r), tav_session_state(s), g->state_size) == 0,
                  "%s: record replays to another state", g->name);
            /* The replayed session writes a record that replays to itself. */
            char *rec2 = tav_session_record(r, TAV_WHITE, "w", "b");
            tav_session *r2 = NULL;
            char *rec3 = NULL;
            if (rec2 && tav_session_from_record(&r2, rec2, strlen(rec2), err, sizeof err) ==
                            TAV_OK)
                rec3 = tav_session_record(r2, TAV_BLACK, "w", "b");
            check(rec3 && strcmp(rec2, rec3) == 0, "%s: record round trip\n%s\n---\n%s",
                  g->name, rec2 ? rec2 : "", rec3 ? rec3 : "");
            tav_session_free(r2);
            free(rec2);
            free(rec3);
            /* Undo all the way back to the start. */
            int k = 0;
            while (tav_session_undo(r) == TAV_OK)
                k++;
            check(k == ply && memcmp(tav_session_state(r), tav_session_state_at(s, 0),
                                     g->state_size) == 0,
                  "%s: undo to the start", g->name);
            tav_session_free(r);
        }
        free(rec);
    }
    tav_session_free(c);
    tav_session_free(s);
    free(raw);
    free(list);
    free(list2);
    free(v);
}

/* ---- Move parts (tav_session_move_parts) ---------------------------------- */

static void sq_name(char *buf, const int8_t sq[2])
{
    sprintf(buf, "%c%d", 'a' + sq[0], sq[1] + 1);
}

/* Squares sorted by file, then rank (the notation's order), names joined by commas. */
static void sorted_names(char *out, int8_t (*sq)[2], int n)
{
    int8_t tmp[TAV_PART_SQUARES][2];
    memcpy(tmp, sq, sizeof tmp[0] * (size_t)n);
    for (int i = 1; i < n; i++)
        for (int j = i; j > 0 && (tmp[j - 1][0] * 64 + tmp[j - 1][1]) > (tmp[j][0] * 64 + tmp[j][1]);
             j--) {
            int8_t t0 = tmp[j][0], t1 = tmp[j][1];
            tmp[j][0] = tmp[j - 1][0], tmp[j][1] = tmp[j - 1][1];
            tmp[j - 1][0] = t0, tmp[j - 1][1] = t1;
        }
    out[0] = '\0';
    for (int i = 0; i < n; i++) {
        char b[8];
        sq_name(b, tmp[i]);
        strcat(out, i ? "," : "");
        strcat(out, b);
    }
}

/* The text the parts name, written the way each game's notation writes it
 * (docs/rules/<game>.md), independently of the games' own code. */
static void text_of_parts(const tav_game *g, const tav_move_parts *p, char *out)
{
    char a[8], b[8], c[8], list[160];
    out[0] = '\0';
    if (strcmp(p->action, "pass") == 0 || strcmp(p->action, "veto") == 0 ||
        strcmp(p->action, "accept") == 0) {
        strcpy(out, p->action);
    } else if (strcmp(p->action, "first") == 0) {
        sprintf(out, "first:%s", tav_side_name(p->side));
    } else if (strcmp(g->name, "urbino") == 0 && p->nsquares == 1) {
        sq_name(c, p->squares[0]);
        if (p->from[0] >= 0) {
            sq_name(a, p->from);
            sq_name(b, p->to);
            sprintf(out, "%s-%s,%s%s", a, b, p->piece, c);
        } else {
            sprintf(out, "%s%s", p->piece, c);
        }
    } else if (strcmp(g->name, "epaminondas") == 0 && p->nsquares >= 1) {
        sq_name(a, p->squares[0]);
        sq_name(b, p->squares[p->nsquares - 1]);
        sq_name(c, p->to);
        char sep = p->nmarked ? 'x' : '-';
        if (p->nsquares == 1)
            sprintf(out, "%s%c%s", b, sep, c);
        else
            sprintf(out, "%s%s%c%s", a, b, sep, c);
    } else if (strcmp(g->name, "cathedral") == 0) {
        sorted_names(list, (int8_t(*)[2])p->squares, p->nsquares);
        sprintf(out, "%s:%s", p->piece, list);
    } else if (strcmp(g->name, "toscana") == 0 && p->nsquares == 8) {
        int8_t tl[2] = {99, -1}, br[2] = {-1, 99};
        for (int i = 0; i < 8; i++) {
            tl[0] = p->squares[i][0] < tl[0] ? p->squares[i][0] : tl[0];
            tl[1] = p->squares[i][1] > tl[1] ? p->squares[i][1] : tl[1];
            br[0] = p->squares[i][0] > br[0] ? p->squares[i][0] : br[0];
            br[1] = p->squares[i][1] < br[1] ? p->squares[i][1] : br[1];
        }
        sq_name(a, tl);
        sq_name(b, br);
        sorted_names(list, (int8_t(*)[2])p->marked, p->nmarked);
        sprintf(out, "%s-%s:%s", a, b, list);
    }
}

static int on_board(const int8_t sq[2], const tav_board_view *v)
{
    return sq[0] >= 0 && sq[1] >= 0 && sq[0] < v->width && sq[1] < v->height;
}

static const tav_square *at(const tav_board_view *v, const int8_t sq[2])
{
    return &v->sq[sq[1] * v->width + sq[0]];
}

/* The hand item a placement takes its shape from (the mover's), or NULL. */
static const tav_hand_item *hand_of(const tav_board_view *v, int side, const tav_move_parts *p)
{
    const tav_side_view *sv = &v->side[side];
    for (int i = 0; i < sv->nitems && i < TAV_HAND_ITEMS; i++) {
        const tav_hand_item *it = &sv->item[i];
        if (it->ncells && (it->kind == p->piece[0] && !p->piece[1] ? 1 : strcmp(it->id, p->piece) == 0))
            return it;
    }
    return NULL;
}

/* The hand's shape turned p->rotation quarter turns clockwise covers the
 * move's squares (in the hand's cell order when `ordered`). */
static int rotation_fits(const tav_hand_item *it, const tav_move_parts *p, int ordered)
{
    if (p->rotation < 0 || p->rotation > 3 || it->ncells != p->nsquares)
        return 0;
    int x[TAV_SHAPE_CELLS], y[TAV_SHAPE_CELLS], mx = 99, my = 99, sx = 99, sy = 99;
    for (int i = 0; i < it->ncells; i++) {
        x[i] = it->cell[i][0];
        y[i] = it->cell[i][1];
        for (int t = 0; t < p->rotation; t++) {   /* (file, rank): clockwise */
            int u = x[i];
            x[i] = y[i];
            y[i] = -u;
        }
        mx = x[i] < mx ? x[i] : mx;
        my = y[i] < my ? y[i] : my;
        sx = p->squares[i][0] < sx ? p->squares[i][0] : sx;
        sy = p->squares[i][1] < sy ? p->squares[i][1] : sy;
    }
    for (int i = 0; i < it->ncells; i++) {
        int found = 0;
        for (int j = 0; j < p->nsquares && !found; j++)
            found = (!ordered || i == j) && x[i] - mx == p->squares[j][0] - sx &&
                    y[i] - my == p->squares[j][1] - sy;
        if (!found)
            return 0;
    }
    if (ordered) {   /* the off-colour cells are the marked squares */
        int k = 0;
        for (int i = 0; i < it->ncells; i++)
            if (it->offcolour[i]) {
                if (k >= p->nmarked || memcmp(p->marked[k], p->squares[i], 2) != 0)
                    return 0;
                k++;
            }
        if (k != p->nmarked)
            return 0;
    }
    return 1;
}

/* What the move did to the board agrees with its parts: before (v0) and
 * after (v1), for the side that moved. */
static int effect_fits(const tav_game *g, const tav_move_parts *p, int side,
                       const tav_board_view *v0, const tav_board_view *v1)
{
    if (strcmp(p->action, "place") == 0) {
        for (int i = 0; i < p->nsquares; i++) {
            const tav_square *b = at(v0, p->squares[i]), *a = at(v1, p->squares[i]);
            if (b->kind != 0 && !(b->kind == 'A' && p->from[0] >= 0 &&
                                  memcmp(p->squares[i], p->from, 2) == 0))
                return 0;   /* (an Urbino architect may leave the square built on) */
            if (strcmp(g->name, "toscana") == 0) {
                int off = 0;
                for (int k = 0; k < p->nmarked; k++)
                    off |= memcmp(p->marked[k], p->squares[i], 2) == 0;
                char own = side == TAV_WHITE ? 'L' : 'D';
                if (a->owner != side || (a->kind == own) == off)
                    return 0;
            } else if (a->kind != p->piece[0]) {
                return 0;
            }
        }
        if (p->from[0] >= 0 && (at(v0, p->from)->kind != 'A' || at(v1, p->to)->kind != 'A'))
            return 0;
        return 1;
    }
    if (strcmp(p->action, "move") == 0) {
        for (int i = 0; i < p->nsquares; i++)
            if (at(v0, p->squares[i])->kind == 0 || at(v0, p->squares[i])->owner != side)
                return 0;
        if (at(v1, p->to)->kind == 0 || at(v1, p->to)->owner != side)
            return 0;
        for (int k = 0; k < p->nmarked; k++) {
            if (at(v0, p->marked[k])->owner != (side ^ 1))
                return 0;
            if (memcmp(p->marked[k], p->to, 2) != 0 && at(v1, p->marked[k])->kind != 0)
                return 0;
        }
        return 1;
    }
    return p->nsquares == 0;
}

/* Random games of g/options: every legal move of every position has parts
 * that write its text, fit the board before and after it, and (Cathedral,
 * Toscana) turn the hand's shape onto its squares. */
static void parts_game(const tav_game *g, const char *options, uint64_t seed)
{
    char err[256];
    tav_session *s;
    if (tav_session_new(&s, g->name, options, seed, err, sizeof err) != TAV_OK) {
        check(0, "%s [%s]: new: %s", g->name, options, err);
        return;
    }
    tav_move *list = malloc(sizeof *list * (size_t)g->max_moves);
    tav_board_view *v0 = malloc(sizeof *v0), *v1 = malloc(sizeof *v1);
    unsigned char *copy = malloc(g->state_size);
    tav_rng rng;
    tav_rng_seed(&rng, seed * 13 + 5);
    long moves = 0;
    char bad[512] = "";
    for (int ply = 0; ply < 400 && !bad[0]; ply++) {
        int side = tav_session_to_move(s);
        if (side == TAV_NONE)
            break;
        int n = tav_session_legal(s, side, list);
        tav_session_view(s, ply, TAV_SPECTATOR, v0);
        for (int i = 0; i < n && !bad[0]; i++, moves++) {
            char text[TAV_MOVE_TEXT], again[256];
            tav_move_parts p;
            tav_session_move_str(s, list[i], text, sizeof text);
            if (tav_session_move_parts(s, list[i], &p) != TAV_OK) {
                snprintf(bad, sizeof bad, "ply %d %s: no parts", ply, text);
                break;
            }
            text_of_parts(g, &p, again);
            int ok = strcmp(again, text) == 0 && p.nsquares <= TAV_PART_SQUARES &&
                     p.nmarked <= TAV_PART_SQUARES;
            for (int k = 0; k < p.nsquares && ok; k++) {
                ok = on_board(p.squares[k], v0);
                for (int j = 0; j < k && ok; j++)
                    ok = memcmp(p.squares[j], p.squares[k], 2) != 0;
            }
            for (int k = 0; k < p.nmarked && ok; k++)
                ok = on_board(p.marked[k], v0);
            if (ok && (p.from[0] >= 0 || p.to[0] >= 0))
                ok = on_board(p.from, v0) && on_board(p.to, v0);
            if (ok && p.rotation >= 0) {
                const tav_hand_item *it = hand_of(v0, side, &p);
                ok = it && rotation_fits(it, &p, strcmp(g->name, "toscana") == 0);
            }
            if (ok) {
                memcpy(copy, tav_session_state(s), g->state_size);
                g->play(copy, list[i]);
                tav_game_board_view(g, copy, TAV_SPECTATOR, v1);
                ok = effect_fits(g, &p, side, v0, v1);
            }
            if (!ok)
                snprintf(bad, sizeof bad, "ply %d %s: parts action %s piece '%s' %d squares "
                         "rotation %d write '%s' or do not fit the board", ply, text, p.action,
                         p.piece, p.nsquares, p.rotation, again);
        }
        if (n)
            tav_session_play(s, list[tav_rng_below(&rng, (uint32_t)n)]);
    }
    check(!bad[0] && moves > 0, "%s [%s] seed %llu: parts of %ld legal moves agree with their "
          "text%s%s", g->name, options, (unsigned long long)seed, moves, bad[0] ? ": " : "", bad);
    free(list);
    free(v0);
    free(v1);
    free(copy);
    tav_session_free(s);
}

/* Errors, refusals, resignation, options. */
static void errors(void)
{
    char err[256] = "";
    tav_session *s = NULL;
    check(tav_session_new(&s, "chess", "", 1, err, sizeof err) == TAV_E_INVALID && !s &&
              strstr(err, "unknown game"),
          "unknown game: '%s'", err);
    check(tav_session_new(&s, "urbino", "colour=red", 1, err, sizeof err) == TAV_E_INVALID && !s,
          "bad option refused");
    check(tav_session_new(&s, "toscana", "seed=x", 1, err, sizeof err) == TAV_E_INVALID,
          "bad seed refused");
    check(tav_session_from_position(&s, "epaminondas", "nonsense", err, sizeof err) ==
              TAV_E_INVALID,
          "bad position refused");
    check(tav_session_from_record(&s, "[Game \"urbino\"]\n1. zz9\n", 22, err, sizeof err) ==
              TAV_E_INVALID && strstr(err, "line 2"),
          "bad record refused: '%s'", err);
    if (tav_session_new(&s, "epaminondas", "", 1, err, sizeof err) != TAV_OK) {
        check(0, "epaminondas: %s", err);
        return;
    }
    const tav_game *g = tav_session_game(s);
    unsigned char *before = malloc(g->state_size);
    memcpy(before, tav_session_state(s), g->state_size);
    check(tav_session_undo(s) == TAV_E_NOTFOUND, "undo at the start");
    check(tav_session_play_text(s, "", err, sizeof err) == TAV_E_INVALID, "empty move");
    check(tav_session_play_text(s, "a1 a2", err, sizeof err) == TAV_E_INVALID, "blank in a move");
    check(tav_session_play_text(s, "zzzzzz", err, sizeof err) == TAV_E_ILLEGAL, "illegal move");
    tav_move list[TAV_MAX_MOVES];
    int n = tav_session_legal(s, TAV_WHITE, list);
    char text[TAV_MOVE_TEXT], upper[TAV_MOVE_TEXT];
    tav_session_move_str(s, list[0], text, sizeof text);
    for (int i = 0; i < TAV_MOVE_TEXT; i++)
        upper[i] = text[i] >= 'a' && text[i] <= 'z' ? (char)(text[i] - 32) : text[i];
    check(tav_session_play_text(s, upper, err, sizeof err) == TAV_E_ILLEGAL &&
              strstr(err, "did you mean") && strstr(err, text),
          "case near miss: '%s'", err);
    check(n > 0 && tav_session_play(s, 0xffffffffu) == TAV_E_ILLEGAL, "bad move value");
    check(tav_session_ply(s) == 0 && memcmp(before, tav_session_state(s), g->state_size) == 0,
          "refusals change nothing");
    check(tav_session_resign(s, 5) == TAV_E_INVALID, "resign a bad side");
    check(tav_session_play_text(s, text, err, sizeof err) == TAV_OK, "play %s", text);
    check(tav_session_resign(s, TAV_BLACK) == TAV_OK && tav_session_resigned(s) == TAV_BLACK &&
              tav_session_to_move(s) == TAV_NONE,
          "resign");
    tav_result r;
    tav_session_result(s, &r);
    check(r.over && r.winner == TAV_WHITE, "resigned game won by the other side");
    check(tav_session_legal(s, TAV_BLACK, list) == 0, "no moves after resigning");
    check(tav_session_play_text(s, text, err, sizeof err) == TAV_E_OVER &&
              tav_session_resign(s, TAV_WHITE) == TAV_E_OVER,
          "nothing after resigning");
    tav_board_view *v = malloc(sizeof *v);
    check(tav_session_view(s, 1, TAV_SPECTATOR, v) == TAV_OK && v->to_move == TAV_NONE &&
              strcmp(v->phase, "over") == 0 && strcmp(v->last_move, text) == 0,
          "resigned view");
    check(tav_session_view(s, 2, TAV_SPECTATOR, v) == TAV_E_NOTFOUND &&
              tav_session_view(s, 0, 7, v) == TAV_E_INVALID,
          "view outside the history");
    char *rec = tav_session_record(s, TAV_WHITE, "a", "b");
    check(rec && strstr(rec, "[Event \"black resigned\"]") && strstr(rec, "1. "),
          "resigned record:\n%s", rec ? rec : "");
    free(rec);
    check(tav_session_undo(s) == TAV_OK && tav_session_resigned(s) == TAV_NONE &&
              tav_session_ply(s) == 1,
          "undo takes back the resignation first");
    check(tav_session_undo(s) == TAV_OK && tav_session_ply(s) == 0, "undo the move");
    char pos[TAV_POSITION_TEXT];
    check(tav_session_position(s, TAV_SPECTATOR, pos, sizeof pos) == TAV_OK, "position");
    tav_session *p;
    check(tav_session_from_position(&p, "epaminondas", pos, err, sizeof err) == TAV_OK &&
              memcmp(tav_session_state(p), tav_session_state(s), g->state_size) == 0,
          "from_position");
    check(tav_session_play_text(p, text, err, sizeof err) == TAV_OK &&
              tav_session_set_position(p, "nonsense", err, sizeof err) == TAV_E_INVALID &&
              tav_session_ply(p) == 1,
          "set_position refuses bad text, changing nothing");
    check(tav_session_set_position(p, pos, err, sizeof err) == TAV_OK && tav_session_ply(p) == 0 &&
              memcmp(tav_session_state(p), tav_session_state(s), g->state_size) == 0,
          "set_position restarts the history");
    tav_session_free(p);
    check(strcmp(tav_status_str(TAV_E_ILLEGAL), "illegal move") == 0, "status names");
    free(v);
    free(before);
    tav_session_free(s);

    /* Public options: Toscana's deal stays secret until the end. */
    char buf[512];
    if (tav_session_new(&s, "toscana", "seed=5", 9, err, sizeof err) == TAV_OK) {
        tav_session_public_options(s, buf, sizeof buf);
        check(buf[0] == '\0', "toscana public options '%s'", buf);
        tav_session_resign(s, TAV_WHITE);
        tav_session_public_options(s, buf, sizeof buf);
        check(strcmp(buf, "seed=5") == 0, "toscana options once over '%s'", buf);
        tav_session_free(s);
    }
    if (tav_session_new(&s, "urbino", "variant=monuments", 9, err, sizeof err) == TAV_OK) {
        tav_session_public_options(s, buf, sizeof buf);
        check(strcmp(buf, "variant=monuments") == 0, "urbino public options '%s'", buf);
        tav_session_free(s);
    }
    /* The seed deals Toscana's stacks; seed= overrides it. */
    tav_session *a, *b;
    tav_session_new(&a, "toscana", "", 12345, err, sizeof err);
    tav_session_new(&b, "toscana", "seed=12345", 1, err, sizeof err);
    check(a && b && memcmp(tav_session_state(a), tav_session_state(b),
                           tav_session_game(a)->state_size) == 0,
          "toscana: the session seed deals like seed=");
    tav_session_free(b);
    tav_session_new(&b, "toscana", "", 12346, err, sizeof err);
    check(b && memcmp(tav_session_state(a), tav_session_state(b),
                      tav_session_game(a)->state_size) != 0,
          "toscana: another seed, another deal");
    tav_session_free(a);
    tav_session_free(b);
}

/* The board view's content per game, at the start and after a few moves. */
static void views(void)
{
    char err[256];
    tav_board_view *v = malloc(sizeof *v);
    tav_session *s;
    /* Epaminondas: 28 pieces a side on the two home-most rows, home rows marked. */
    tav_session_new(&s, "epaminondas", "", 1, err, sizeof err);
    tav_session_view(s, 0, TAV_SPECTATOR, v);
    int n[2] = {0, 0};
    for (int i = 0; i < v->width * v->height; i++)
        if (v->sq[i].kind == 'M')
            n[v->sq[i].owner]++;
    check(v->width == 14 && v->height == 12 && n[0] == 28 && n[1] == 28 &&
              v->side[0].on_board == 28 && v->side[1].captured == 0 &&
              (v->sq[0].marks & TAV_MARK_HOME_W) && (v->sq[11 * 14].marks & TAV_MARK_HOME_B) &&
              strcmp(v->phase, "play") == 0 && v->to_move == TAV_WHITE,
          "epaminondas view");
    tav_session_free(s);
    /* Urbino: architects neutral, supplies, lots, districts. */
    tav_session_new(&s, "urbino", "", 1, err, sizeof err);
    tav_session_view(s, 0, TAV_SPECTATOR, v);
    check(strcmp(v->phase, "setup") == 0 && v->side[0].nitems == 3 &&
              v->side[0].item[0].kind == 'H' && v->side[0].item[0].count == 18 &&
              v->side[1].item[2].kind == 'T' && v->side[1].item[2].count == 3,
          "urbino start view");
    const char *moves[] = {"Ae5", "Ae7", "first:white", "Hd6", "Hf6"};
    for (int i = 0; i < 5; i++)
        check(tav_session_play_text(s, moves[i], err, sizeof err) == TAV_OK, "urbino %s: %s",
              moves[i], err);
    tav_session_view(s, 5, TAV_BLACK, v);
    int lots = 0;
    for (int i = 0; i < 81; i++)
        lots += (v->sq[i].marks & TAV_MARK_LOT) != 0;
    check(v->sq[4 * 9 + 4].kind == 'A' && v->sq[4 * 9 + 4].owner == TAV_DRAW &&
              v->sq[5 * 9 + 3].kind == 'H' && v->sq[5 * 9 + 3].owner == TAV_WHITE &&
              v->sq[5 * 9 + 3].region >= 1 && v->sq[5 * 9 + 5].owner == TAV_BLACK &&
              (v->sq[5 * 9 + 5].marks & TAV_MARK_LAST) && v->nregions == 2 &&
              v->side[0].item[0].count == 17 && v->side[0].on_board == 1 && lots > 0 &&
              strcmp(v->phase, "play") == 0 && strcmp(v->last_move, "Hf6") == 0,
          "urbino view after 5 moves (%d regions, %d lots)", v->nregions, lots);
    tav_session_free(s);
    /* Urbino Monuments: three white houses in a row are a counted monument. */
    const char *mon = ".........\n.........\n....A....\n.........\n....A....\n.........\n"
                      ".........\n.........\nHHHh.....\nphase=play\ntomove=black\npasses=0\n"
                      "variant=monuments\n";
    check(tav_session_from_position(&s, "urbino", mon, err, sizeof err) == TAV_OK,
          "urbino monuments position: %s", err);
    if (s) {
        tav_session_view(s, 0, TAV_SPECTATOR, v);
        check((v->sq[0].marks & TAV_MARK_MONUMENT) && (v->sq[2].marks & TAV_MARK_MONUMENT) &&
                  !(v->sq[3].marks & TAV_MARK_MONUMENT) && v->nregions == 1 &&
                  v->region[0].value[0] == 6 && v->region[0].value[1] == 1 &&
                  v->region[0].scorer == TAV_WHITE && v->region[0].points == 6 &&
                  v->sq[3].region == 1 && v->side[0].score == 6,
              "urbino monument marks and district (%d regions, %d:%d)", v->nregions,
              v->region[0].value[0], v->region[0].value[1]);
        tav_session_free(s);
    }
    /* Cathedral: the Cathedral waits in white's hand (classic), black's (late). */
    tav_session_new(&s, "cathedral", "", 1, err, sizeof err);
    tav_session_view(s, 0, TAV_WHITE, v);
    check(v->side[0].nitems == 12 && v->side[0].item[0].kind == 'Y' &&
              v->side[0].item[0].ncells == 6 && v->side[1].nitems == 11 &&
              v->side[1].item[0].kind == 'T' && v->side[1].item[0].count == 2 &&
              v->side[1].item[0].ncells == 1 && strcmp(v->phase, "cathedral") == 0,
          "cathedral start view");
    tav_move list[TAV_MAX_MOVES];
    int nm = tav_session_legal(s, TAV_WHITE, list);
    tav_session_play(s, list[nm / 2]);
    nm = tav_session_legal(s, tav_session_to_move(s), list);
    tav_session_play(s, list[nm / 2]);
    tav_session_view(s, 2, TAV_SPECTATOR, v);
    int y = 0, pieces[64] = {0};
    for (int i = 0; i < 100; i++) {
        y += v->sq[i].kind == 'Y' && v->sq[i].owner == TAV_DRAW;
        if (v->sq[i].piece < 64)
            pieces[v->sq[i].piece]++;
    }
    check(y == 6 && pieces[1] == 6 && v->side[0].nitems == 11 && v->side[0].on_board +
              v->side[1].on_board == 1,
          "cathedral view after the Cathedral and a building");
    tav_session_free(s);
    tav_session_new(&s, "cathedral", "opening=late", 1, err, sizeof err);
    tav_session_view(s, 0, TAV_WHITE, v);
    check(v->side[1].item[0].kind == 'Y' && v->side[0].item[0].kind == 'T', "cathedral late view");
    tav_session_free(s);
    /* Cathedral captures (docs/rules/cathedral.md's example, PerGioco #33): black's
     * I:d2,e1,e2 closes a region holding white's Stable alone; the Stable goes back
     * to white's hand and the view counts it as captured, at that ply and after. */
    static const char cap[] = "..........\n..........\n..........\n..........\n..........\n"
                              ".......CCC\nbbbs..BCYC\nS..s..BYYY\nS.....B.Y.\n........Y.\n"
                              "opening=classic\ntomove=black\ncathedral=board\nbuilt=both\n"
                              "passes=0\nlast=none\n";
    check(tav_session_from_position(&s, "cathedral", cap, err, sizeof err) == TAV_OK,
          "cathedral capture position: %s", err);
    if (s) {
        tav_session_view(s, 0, TAV_SPECTATOR, v);
        int before_w = v->side[0].on_board, stables = 0;
        for (int k = 0; k < v->side[0].nitems; k++)
            stables += v->side[0].item[k].kind == 'S' ? v->side[0].item[k].count : 0;
        check(v->side[0].captured == 0 && v->side[1].captured == 0 && stables == 1,
              "cathedral: nothing captured yet (%d:%d)", v->side[0].captured, v->side[1].captured);
        check(tav_session_play_text(s, "I:d2,e1,e2", err, sizeof err) == TAV_OK,
              "cathedral: black captures the Stable: %s", err);
        tav_session_view(s, 1, TAV_SPECTATOR, v);
        int stables2 = 0, a1 = v->sq[0].kind, a2 = v->sq[10].kind;
        for (int k = 0; k < v->side[0].nitems; k++)
            stables2 += v->side[0].item[k].kind == 'S' ? v->side[0].item[k].count : 0;
        const tav_game *cg = tav_game_find("cathedral");
        char hand[64] = "";
        cg->probe(tav_session_state(s), "hand white", hand, sizeof hand);
        check(v->side[0].captured == 1 && v->side[1].captured == 0 &&
                  v->side[0].on_board == before_w - 1 && stables2 == 2 && strchr(hand, 'S') &&
                  strchr(hand, 'S') != strrchr(hand, 'S') && a1 != 'S' && a2 != 'S' &&
                  (v->sq[0].marks & TAV_MARK_TERR_B),
              "cathedral: the captured Stable is counted (%d:%d), back in white's hand (%s)",
              v->side[0].captured, v->side[1].captured, hand);
        /* The count survives the position text, and the view of ply 0 still says 0. */
        char pos[TAV_POSITION_TEXT];
        tav_session_position(s, TAV_SPECTATOR, pos, sizeof pos);
        tav_session *t = NULL;
        check(strstr(pos, "\nlost=1:0\n") && tav_session_from_position(&t, "cathedral", pos, err,
                                                                        sizeof err) == TAV_OK,
              "cathedral: lost=1:0 in the position text: %s", err);
        if (t) {
            tav_session_view(t, 0, TAV_SPECTATOR, v);
            check(v->side[0].captured == 1, "cathedral: captured count from the position text");
            tav_session_free(t);
        }
        tav_session_view(s, 0, TAV_SPECTATOR, v);
        check(v->side[0].captured == 0, "cathedral: the view of the ply before the capture");
        tav_session_free(s);
    }
    /* Toscana: the visible top with its frame, the stack size, the centre. */
    tav_session_new(&s, "toscana", "white=07,01,02,03,04,05,06,12,13,14,15,16,23,24,25,34", 1,
                    err, sizeof err);
    tav_session_view(s, 0, TAV_BLACK, v);
    const tav_hand_item *it = &v->side[0].item[0];
    check(v->side[0].nitems == 1 && it->kind == 'S' && strcmp(it->id, "07") == 0 &&
              it->ncells == 8 && it->offcolour[0] && it->offcolour[7] && !it->offcolour[3] &&
              it->cell[0][1] == 1 && it->cell[7][0] == 3 && it->cell[7][1] == 0 &&
              v->side[0].stack == 16 && v->side[0].veto == 1 &&
              (v->sq[8 * 17 + 8].marks & TAV_MARK_CENTRE),
          "toscana start view");
    while (tav_session_ply(s) < 3) {
        nm = tav_session_legal(s, tav_session_to_move(s), list);
        tav_session_play(s, list[0]);
    }
    tav_session_view(s, 3, TAV_SPECTATOR, v);
    int cov = 0, last = 0;
    for (int i = 0; i < 289; i++) {
        cov += v->sq[i].kind == 'L' || v->sq[i].kind == 'D';
        last += (v->sq[i].marks & TAV_MARK_LAST) != 0;
    }
    check(cov % 8 == 0 && cov > 0 && last == 8 && v->nregions == 2 &&
              v->side[0].on_board + v->side[1].on_board == cov / 8,
          "toscana view after 3 moves (%d squares covered)", cov);
    tav_session_free(s);
    free(v);
}

/* Mutate text in place (at most n bytes with its NUL): a changed, removed,
 * inserted or random byte, or a cut. */
static void mutate(char *t, size_t cap, tav_rng *rng)
{
    size_t len = strlen(t);
    size_t at = len ? tav_rng_below(rng, (uint32_t)len) : 0;
    static const char pool[] = "abcdefghijkl0123456789:-,x/=?\n ?.WBHPTA";
    switch (tav_rng_below(rng, 5)) {
    case 0:
        if (len)
            t[at] = pool[tav_rng_below(rng, sizeof pool - 1)];
        break;
    case 1:
        if (len)
            memmove(t + at, t + at + 1, len - at);
        break;
    case 2:
        if (len + 2 < cap) {
            memmove(t + at + 1, t + at, len - at + 1);
            t[at] = pool[tav_rng_below(rng, sizeof pool - 1)];
        }
        break;
    case 3:
        if (len)
            t[at] = (char)(1 + tav_rng_below(rng, 255));
        break;
    default:
        t[at] = '\0';
        break;
    }
}

/* Fuzz the session API with damaged moves, positions and records: every
 * call answers a status, a refusal changes nothing, nothing crashes. */
static void fuzz(const tav_game *g, uint64_t seed)
{
    char err[256];
    tav_session *s;
    if (tav_session_new(&s, g->name, g->samples[0], seed, err, sizeof err) != TAV_OK) {
        check(0, "%s: %s", g->name, err);
        return;
    }
    tav_rng rng;
    tav_rng_seed(&rng, seed);
    tav_move *list = malloc(sizeof *list * (size_t)g->max_moves);
    unsigned char *before = malloc(g->state_size);
    char *pos = malloc(TAV_POSITION_TEXT + 8);
    int bad = 0, accepted = 0, tries = 0;
    for (int ply = 0; ply < 60 && !bad; ply++) {
        int tm = tav_session_to_move(s);
        if (tm == TAV_NONE)
            break;
        int n = tav_session_legal(s, tm, list);
        memcpy(before, tav_session_state(s), g->state_size);
        int p0 = tav_session_ply(s);
        for (int k = 0; k < 20 && !bad; k++) {
            char text[TAV_MOVE_TEXT + 8];
            tav_session_move_str(s, list[tav_rng_below(&rng, (uint32_t)n)], text, TAV_MOVE_TEXT);
            mutate(text, sizeof text, &rng);
            tries++;
            tav_status st = tav_session_play_text(s, text, err, sizeof err);
            if (st == TAV_OK) {
                accepted++;
                if (tav_session_ply(s) != p0 + 1 ||
                    strcmp(tav_session_move_text(s, p0), text) != 0) {
                    check(0, "%s: '%s' accepted but kept as '%s'", g->name, text,
                          tav_session_move_text(s, p0));
                    bad = 1;
                }
                tav_session_undo(s);
            } else if ((st != TAV_E_ILLEGAL && st != TAV_E_INVALID) || !err[0] ||
                       tav_session_ply(s) != p0 ||
                       memcmp(before, tav_session_state(s), g->state_size) != 0) {
                check(0, "%s ply %d: refusing '%s' (status %d) changed the game or said "
                      "nothing", g->name, ply, text, st);
                bad = 1;
            }
        }
        /* A damaged position text: refused with a message and no change, or
         * accepted and then printed back the same way it reads. */
        if (ply % 5 == 0) {
            tav_session *c = tav_session_clone(s);
            g->get_position(tav_session_state(s), pos, TAV_POSITION_TEXT);
            for (int k = 0, m = 1 + (int)tav_rng_below(&rng, 3); k < m; k++)
                mutate(pos, TAV_POSITION_TEXT, &rng);
            tav_status st = tav_session_set_position(c, pos, err, sizeof err);
            if (st == TAV_OK) {
                char again[TAV_POSITION_TEXT];
                tav_session *d;
                tav_session_position(c, TAV_SPECTATOR, again, sizeof again);
                g->get_position(tav_session_state(c), again, sizeof again);
                if (tav_session_from_position(&d, g->name, again, err, sizeof err) != TAV_OK ||
                    g->hash(tav_session_state(d)) != g->hash(tav_session_state(c))) {
                    check(0, "%s: an accepted damaged position does not read back: %s", g->name,
                          err);
                    bad = 1;
                }
                tav_session_free(d);
            } else if (st != TAV_E_INVALID || !err[0] || tav_session_ply(c) != tav_session_ply(s)) {
                check(0, "%s: damaged position refused badly (status %d)", g->name, st);
                bad = 1;
            }
            tav_session_free(c);
        }
        tav_session_play(s, list[tav_rng_below(&rng, (uint32_t)n)]);
    }
    /* Damaged records: refused with "line L, column C", or replayed. */
    char *rec = tav_session_record_all(s, "w", "b");
    for (int k = 0; rec && k < 40 && !bad; k++) {
        size_t len = strlen(rec);
        char *t = malloc(len + 16);
        memcpy(t, rec, len + 1);
        for (int j = 0, m = 1 + (int)tav_rng_below(&rng, 3); j < m; j++)
            mutate(t, len + 16, &rng);
        tav_session *r = NULL;
        tav_status st = tav_session_from_record(&r, t, strlen(t), err, sizeof err);
        if (st == TAV_OK ? r == NULL : (st != TAV_E_INVALID || r != NULL || !err[0])) {
            check(0, "%s: damaged record answered status %d", g->name, st);
            bad = 1;
        }
        tav_session_free(r);
        free(t);
    }
    free(rec);
    check(!bad && tries > 0, "%s: fuzzed session input (%d damaged moves, %d legal)", g->name,
          tries, accepted);
    free(list);
    free(before);
    free(pos);
    tav_session_free(s);
}

/* The projections of s for viewer into one text (legal moves, position,
 * view bytes, record, public options). */
static char *projection(const tav_session *s, int ply_view, int viewer, size_t *len)
{
    const tav_game *g = tav_session_game(s);
    size_t cap = TAV_POSITION_TEXT * 4 + sizeof(tav_board_view) + (size_t)g->max_moves * 40 +
                 65536;
    char *out = malloc(cap), *rec;
    size_t k = 0;
    tav_move *list = malloc(sizeof *list * (size_t)g->max_moves);
    int n = tav_session_legal(s, viewer, list);
    for (int i = 0; i < n; i++) {
        char t[TAV_MOVE_TEXT];
        tav_session_move_str(s, list[i], t, sizeof t);
        k += (size_t)snprintf(out + k, cap - k, "%s ", t);
    }
    k += (size_t)snprintf(out + k, cap - k, "\n");
    tav_session_position(s, viewer, out + k, TAV_POSITION_TEXT);
    k += strlen(out + k);
    tav_session_public_options(s, out + k, 512);
    k += strlen(out + k);
    rec = tav_session_record(s, viewer, "w", "b");
    k += (size_t)snprintf(out + k, cap - k, "\n%s\n", rec ? rec : "(null)");
    free(rec);
    tav_board_view v;
    tav_session_view(s, ply_view, viewer, &v);
    memcpy(out + k, &v, sizeof v);
    k += sizeof v;
    *len = k;
    free(list);
    return out;
}

/* Toscana: deals that differ only below the tops look the same. */
static void hidden(uint64_t seed)
{
    char err[256], ws[128], bs[128], opts[300];
    tav_session *a;
    if (tav_session_new(&a, "toscana", "", seed, err, sizeof err) != TAV_OK) {
        check(0, "toscana: %s", err);
        return;
    }
    const tav_game *g = tav_session_game(a);
    /* A random game, stopped before its end at a random ply P. */
    tav_rng rng;
    tav_rng_seed(&rng, seed);
    tav_move list[TAV_MAX_MOVES];
    int target = 2 + (int)tav_rng_below(&rng, 22);
    while (tav_session_ply(a) < target) {
        int tm = tav_session_to_move(a);
        int n = tav_session_legal(a, tm, list);
        if (n == 0)
            break;
        tav_move m = list[tav_rng_below(&rng, (uint32_t)n)];
        tav_session_play(a, m);
        tav_result r;
        tav_session_result(a, &r);
        if (r.over) {
            tav_session_undo(a);
            break;
        }
    }
    int P = tav_session_ply(a);
    /* The two hidden tiles of a side at P (the '?' of the public text). */
    char pos[TAV_POSITION_TEXT], real[TAV_POSITION_TEXT];
    tav_session_position(a, TAV_SPECTATOR, pos, sizeof pos);
    g->get_position(tav_session_state(a), real, sizeof real);
    char start[2][128];
    g->probe(tav_session_state_at(a, 0), "stack white", start[0], sizeof start[0]);
    g->probe(tav_session_state_at(a, 0), "stack black", start[1], sizeof start[1]);
    int swapped = 0;
    for (int side = 0; side < 2 && !swapped; side++) {
        const char *key = side ? "\nblack=" : "\nwhite=";
        const char *pp = strstr(pos, key), *rp = strstr(real, key);
        if (!pp || !rp)
            break;
        pp += strlen(key);
        rp += strlen(key);
        char hid[16][3];
        int nh = 0;
        while (*pp && *pp != '\n') {
            if (*pp == '?' && nh < 16) {
                memcpy(hid[nh], rp, 2);
                hid[nh++][2] = '\0';
            }
            pp += *pp == '?' ? 1 : 2;
            rp += 2;
            if (*pp == ',') {
                pp++;
                rp++;
            }
        }
        if (nh >= 2) {
            int i = (int)tav_rng_below(&rng, (uint32_t)nh), j = (i + 1) % nh;
            char *x = strstr(start[side], hid[i]), *y = strstr(start[side], hid[j]);
            if (x && y) {
                memcpy(x, hid[j], 2);
                memcpy(y, hid[i], 2);
                swapped = 1;
            }
        }
    }
    if (!swapped) {
        tav_session_free(a);
        check(0, "toscana seed %llu: no hidden tiles at ply %d", (unsigned long long)seed, P);
        return;
    }
    snprintf(ws, sizeof ws, "%s", start[0]);
    snprintf(bs, sizeof bs, "%s", start[1]);
    snprintf(opts, sizeof opts, "white=%s black=%s", ws, bs);
    tav_session *b;
    if (tav_session_new(&b, "toscana", opts, 0, err, sizeof err) != TAV_OK) {
        check(0, "toscana: %s (%s)", err, opts);
        tav_session_free(a);
        return;
    }
    check(memcmp(tav_session_state_at(a, 0), tav_session_state(b), g->state_size) != 0,
          "toscana: the two deals differ");
    int same = 1;
    for (int ply = 0; ply <= P && same; ply++) {
        tav_session *ca = tav_session_clone(a);
        while (tav_session_ply(ca) > ply)
            tav_session_undo(ca);
        for (int k = 0; k < 3 && same; k++) {
            size_t la, lb;
            char *pa = projection(ca, ply, viewers[k], &la);
            char *pb = projection(b, ply, viewers[k], &lb);
            if (la != lb || memcmp(pa, pb, la) != 0) {
                size_t at = 0;
                while (at < la && at < lb && pa[at] == pb[at])
                    at++;
                check(0, "toscana seed %llu ply %d viewer %d: projections differ at byte %zu "
                      "of %zu (%zu bytes of view)", (unsigned long long)seed, ply, viewers[k],
                      at, la, sizeof(tav_board_view));
                same = 0;
            }
            free(pa);
            free(pb);
            /* What a search of this viewer gets: the same bytes for both deals. */
            unsigned char *sa = malloc(g->state_size), *sb = malloc(g->state_size);
            if (same && sa && sb && (tav_session_search_state(ca, viewers[k], sa) != TAV_OK ||
                                     tav_session_search_state(b, viewers[k], sb) != TAV_OK ||
                                     memcmp(sa, sb, g->state_size) != 0)) {
                check(0, "toscana seed %llu ply %d viewer %d: search states differ",
                      (unsigned long long)seed, ply, viewers[k]);
                same = 0;
            }
            free(sa);
            free(sb);
        }
        tav_session_free(ca);
        if (ply < P && same &&
            tav_session_play_text(b, tav_session_move_text(a, ply), err, sizeof err) != TAV_OK) {
            check(0, "toscana: move %d of one deal is illegal in the other: %s", ply, err);
            same = 0;
        }
    }
    check(same && P > 0, "toscana seed %llu: %d plies look the same for every viewer",
          (unsigned long long)seed, P);
    /* Once the game is over, the records differ (the deals are written). */
    tav_session_resign(a, TAV_WHITE);
    tav_session_resign(b, TAV_WHITE);
    char *ra = tav_session_record(a, TAV_SPECTATOR, "w", "b");
    char *rb = tav_session_record(b, TAV_SPECTATOR, "w", "b");
    check(ra && rb && strcmp(ra, rb) != 0 && strstr(ra, "WhiteStack"),
          "toscana: finished records show the deals");
    free(ra);
    free(rb);
    tav_session_free(a);
    tav_session_free(b);
}

/* ---- Messages that quote input: valid UTF-8, no control characters. ---- */

/* The offset of the first byte of text that is not strict UTF-8 (an
 * overlong form, a surrogate, above U+10FFFF, a bad or missing continuation)
 * or that starts a control character (U+0000..U+001F, U+007F..U+009F);
 * -1 when the whole text is clean. */
static long bad_utf8_at(const char *text)
{
    static const uint32_t least[5] = {0, 0, 0x80, 0x800, 0x10000};
    const unsigned char *s = (const unsigned char *)text;
    size_t i = 0;
    while (s[i]) {
        unsigned c = s[i];
        int len = c < 0x80 ? 1 : c >= 0xc2 && c <= 0xdf ? 2 : c >= 0xe0 && c <= 0xef ? 3
                : c >= 0xf0 && c <= 0xf4 ? 4 : 0;
        if (len == 0)
            return (long)i;
        uint32_t cp = len == 1 ? c : c & (0x7fu >> len);
        for (int k = 1; k < len; k++) {
            if ((s[i + k] & 0xc0) != 0x80)   /* also stops at the NUL */
                return (long)i;
            cp = cp << 6 | (s[i + k] & 0x3fu);
        }
        if (cp < least[len] || (cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff || cp < 0x20 ||
            (cp >= 0x7f && cp <= 0x9f))
            return (long)i;
        i += (size_t)len;
    }
    return -1;
}

/* The validator itself: what it must refuse and accept. */
static void utf8_validator(void)
{
    static const char *const bad[] = {
        "\xc0\xaf", "\xc1\xbf", "\xe0\x80\xaf", "\xe0\x9f\xbf", "\xf0\x80\x80\xaf",
        "\xf0\x8f\xbf\xbf", "\xed\xa0\x80", "\xed\xbf\xbf", "\xf4\x90\x80\x80", "\xf5\x80\x80\x80",
        "\xff", "\xfe", "\x80", "\xbf", "\xc3", "a\xc3", "\xe2\x82", "\xf0\x9f\x98", "\xc3(",
        "\x1b[31m", "\t", "\r", "\x7f", "\xc2\x80", "\xc2\x9f", NULL};
    static const char *const good[] = {
        "", "abc '~'", "\xc3\xa9", "\xe2\x82\xac", "\xf0\x9f\x98\x80", "\xc2\xa0", "\xed\x9f\xbf",
        "\xee\x80\x80", "\xf4\x8f\xbf\xbf", "\xef\xbf\xbd", NULL};
    int ok = 1;
    for (int i = 0; bad[i]; i++)
        if (bad_utf8_at(bad[i]) < 0) {
            check(0, "utf-8 validator accepts bad text %d", i);
            ok = 0;
        }
    for (int i = 0; good[i]; i++)
        if (bad_utf8_at(good[i]) >= 0) {
            check(0, "utf-8 validator refuses good text %d", i);
            ok = 0;
        }
    check(ok, "utf-8 validator");
}

/* Text with every byte outside printable ASCII as \xNN, for a report. */
static void escaped(char *out, size_t n, const char *s)
{
    size_t k = 0;
    for (; *s && k + 5 < n; s++) {
        unsigned char c = (unsigned char)*s;
        if (c >= 0x20 && c < 0x7f && c != '\\')
            out[k++] = (char)c;
        else
            k += (size_t)snprintf(out + k, n - k, "\\x%02x", c);
    }
    out[k] = '\0';
}

enum { API_PLAY, API_GAME, API_OPTIONS, API_RECORD, API_POSITION, API_N };
static const char *const api_names[API_N] = {"tav_session_play_text", "tav_session_new (game)",
                                             "tav_session_new (options)", "tav_session_from_record",
                                             "tav_session_set_position"};

typedef struct msg_stats {
    int calls[API_N], bad[API_N];
    char first[API_N][440];
    unsigned turn;      /* picks the err buffer's size */
} msg_stats;

/* The size of the next err buffer: messages cut by a small buffer too. */
static size_t next_errlen(msg_stats *ms)
{
    static const size_t sizes[] = {256, 64, 41, 23, 200, 9};
    return sizes[ms->turn++ % (sizeof sizes / sizeof sizes[0])];
}

/* Record one message answered to `input`. */
static void msg_seen(msg_stats *ms, int api, const char *input, const char *err)
{
    ms->calls[api]++;
    long at = bad_utf8_at(err);
    if (at < 0)
        return;
    if (ms->bad[api]++ == 0) {
        char in[160], msg[220];
        escaped(in, sizeof in, input);
        escaped(msg, sizeof msg, err);
        snprintf(ms->first[api], sizeof ms->first[api], "input \"%s\" gave \"%s\" (byte %ld)", in,
                 msg, at);
    }
}

/* Replace the value of line `line` (0-based, KEY=VALUE or a board line:
 * the whole line) of a position with text; out has room for it. */
static void position_with(char *out, size_t n, const char *pos, int line, const char *text)
{
    size_t k = 0;
    int l = 0;
    for (const char *p = pos; *p;) {
        const char *e = strchr(p, '\n');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        if (l == line) {
            const char *eq = memchr(p, '=', len);
            size_t keep = eq ? (size_t)(eq - p) + 1 : 0;
            k += (size_t)snprintf(out + k, n - k, "%.*s%s\n", (int)keep, p, text);
        } else {
            k += (size_t)snprintf(out + k, n - k, "%.*s\n", (int)len, p);
        }
        l++;
        p = e ? e + 1 : p + len;
    }
    if (line >= l)
        snprintf(out + k, n - k, "%s\n", text);
}

/* Feed one text to every session call that reads input, as a move, a game
 * name, an option (each key of the game's samples), a record (game, options,
 * result, score, tag name, move) and a position (each line's value, an extra
 * line); every message must be clean. */
static void feed_text(const tav_game *g, tav_session *s, tav_session *ps, const char *start_pos,
                      int nlines, const char *finished, const char *text, int deep,
                      msg_stats *ms)
{
    char err[256];
    size_t big = strlen(text) + (finished ? strlen(finished) : 0) + TAV_POSITION_TEXT + 512;
    char *buf = malloc(big);
    tav_session *x;
    size_t el;
    /* A move. */
    err[0] = '\0';
    el = next_errlen(ms);
    if (tav_session_play_text(s, text, err, el) == TAV_OK)
        tav_session_undo(s);
    msg_seen(ms, API_PLAY, text, err);
    /* A game name. */
    err[0] = '\0';
    el = next_errlen(ms);
    if (tav_session_new(&x, text, "", 1, err, el) == TAV_OK)
        tav_session_free(x);
    msg_seen(ms, API_GAME, text, err);
    /* Options: as a word, as a key, as the value of each key of the samples. */
    char keys[8][32];
    int nkeys = 0;
    for (int i = 0; g->samples[i]; i++)
        for (const char *p = g->samples[i]; *p;) {
            size_t len = strcspn(p, " ");
            const char *eq = memchr(p, '=', len);
            if (eq && (size_t)(eq - p) < sizeof keys[0]) {
                int seen = 0;
                for (int k = 0; k < nkeys; k++)
                    seen |= strncmp(keys[k], p, (size_t)(eq - p)) == 0 && !keys[k][eq - p];
                if (!seen && nkeys < 8) {
                    memcpy(keys[nkeys], p, (size_t)(eq - p));
                    keys[nkeys++][eq - p] = '\0';
                }
            }
            p += len;
            p += strspn(p, " ");
        }
    for (int k = -2; k < nkeys; k++) {
        if (k == -2)
            snprintf(buf, big, "%s", text);
        else if (k == -1)
            snprintf(buf, big, "%s=1", text);
        else
            snprintf(buf, big, "%s=%s", keys[k], text);
        err[0] = '\0';
        el = next_errlen(ms);
        if (tav_session_new(&x, g->name, buf, 1, err, el) == TAV_OK)
            tav_session_free(x);
        msg_seen(ms, API_OPTIONS, buf, err);
    }
    /* Records. */
    for (int v = 0; v < 6; v++) {
        if (v == 0)
            snprintf(buf, big, "[Game \"%s\"]\n", text);
        else if (v == 1)
            snprintf(buf, big, "[Game \"%s\"]\n[Options \"%s\"]\n", g->name, text);
        else if (v == 2)
            snprintf(buf, big, "[Game \"%s\"]\n[Result \"%s\"]\n", g->name, text);
        else if (v == 3)
            snprintf(buf, big, "[Game \"%s\"]\n[%s \"x\"]\n", g->name, text);
        else if (v == 4)
            snprintf(buf, big, "[Game \"%s\"]\n\n1. %s\n", g->name, text);
        else if (deep && finished && strstr(finished, "[Score \"")) {
            /* A finished game whose Score tag is the text. */
            const char *sc = strstr(finished, "[Score \"") + 8, *end = strstr(sc, "\"]");
            snprintf(buf, big, "%.*s%s%s", (int)(sc - finished), finished, text, end);
        } else
            continue;
        err[0] = '\0';
        el = next_errlen(ms);
        if (tav_session_from_record(&x, buf, strlen(buf), err, el) == TAV_OK)
            tav_session_free(x);
        msg_seen(ms, API_RECORD, buf, err);
    }
    /* Positions: each line's value, the first board line, an extra line. */
    for (int line = 0; line <= nlines; line++) {
        if (line > 0 && line < nlines) {
            const char *p = start_pos;
            for (int l = 0; l < line && p; l++) {
                p = strchr(p, '\n');
                p = p ? p + 1 : NULL;
            }
            if (!p || !memchr(p, '=', strcspn(p, "\n")))
                continue;   /* board lines: the first one is enough */
        }
        position_with(buf, big, start_pos, line, text);
        err[0] = '\0';
        el = next_errlen(ms);
        tav_session_set_position(ps, buf, err, el);
        msg_seen(ms, API_POSITION, buf, err);
    }
    free(buf);
}

/* Every message that quotes input is valid UTF-8 without control
 * characters: texts of ASCII prefixes of every length 0..80 (a printf
 * precision such as '%.40s' cuts somewhere in there) followed by a
 * multi-byte character or an invalid byte, and texts of random bytes, fed
 * to every call that reads input, for every game. */
static void messages_utf8(const tav_game *g, uint64_t seed)
{
    static const char *const tails[] = {"\xc3\xa9", "\xe2\x82\xac", "\xf0\x9f\x98\x80",
                                        "\xff", "\xc3", "\x80", "\xc3\xa9\xe2\x82\xac"};
    static const char *const fills[] = {
        "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
        "11111111111111111111111111111111111111111111111111111111111111111111111111111111111",
        "W:a1-b4:c2,d3W:a1-b4:c2,d3W:a1-b4:c2,d3W:a1-b4:c2,d3W:a1-b4:c2,d3W:a1-b4:c2,d3W:a1-",
        "01,02,03,04,05,06,07,12,13,14,15,16,23,24,25,34,01,02,03,04,05,06,07,12,13,14,15,16,"};
    char err[256];
    tav_session *s, *ps;
    if (tav_session_new(&s, g->name, g->samples[0], seed, err, sizeof err) != TAV_OK ||
        tav_session_new(&ps, g->name, g->samples[0], seed, err, sizeof err) != TAV_OK) {
        check(0, "%s: %s", g->name, err);
        return;
    }
    char *pos = malloc(TAV_POSITION_TEXT);
    g->get_position(tav_session_state(s), pos, TAV_POSITION_TEXT);
    int nlines = 0;
    for (const char *p = pos; *p; p++)
        nlines += *p == '\n';
    if (pos[0] && pos[strlen(pos) - 1] != '\n')
        nlines++;
    /* A finished game's record, for its Score tag. */
    tav_session *f = tav_session_clone(s);
    tav_move *list = malloc(sizeof *list * (size_t)g->max_moves);
    tav_rng rng;
    tav_rng_seed(&rng, seed);
    for (int ply = 0; f && ply < 3000 && tav_session_to_move(f) != TAV_NONE; ply++) {
        int n = tav_session_legal(f, tav_session_to_move(f), list);
        tav_session_play(f, list[tav_rng_below(&rng, (uint32_t)n)]);
    }
    char *finished = f && tav_session_to_move(f) == TAV_NONE ? tav_session_record_all(f, "w", "b")
                                                              : NULL;
    check(finished != NULL, "%s: a finished game for the Score tag", g->name);
    msg_stats *ms = calloc(1, sizeof *ms);
    char text[200];
    for (size_t fi = 0; fi < sizeof fills / sizeof fills[0]; fi++)
        for (int len = 0; len <= 80; len++)
            for (size_t ti = 0; ti < sizeof tails / sizeof tails[0]; ti++) {
                snprintf(text, sizeof text, "%.*s%s", len, fills[fi], tails[ti]);
                feed_text(g, s, ps, pos, nlines, finished, text, len % 20 == 0, ms);
            }
    for (int k = 0; k < 300; k++) {
        size_t len = 1 + tav_rng_below(&rng, 100);
        for (size_t i = 0; i < len; i++)
            text[i] = (char)(1 + tav_rng_below(&rng, 255));
        text[len] = '\0';
        feed_text(g, s, ps, pos, nlines, finished, text, k % 10 == 0, ms);
    }
    for (int api = 0; api < API_N; api++)
        check(ms->bad[api] == 0 && ms->calls[api] > 0,
              "%s: %s: %d of %d messages not clean UTF-8; first: %s", g->name, api_names[api],
              ms->bad[api], ms->calls[api], ms->first[api]);
    free(ms);
    free(finished);
    free(list);
    free(pos);
    tav_session_free(f);
    tav_session_free(s);
    tav_session_free(ps);
}

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

static void own_game(void)
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
static void play_as(void)
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
static void statuses(void)
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
static void end_reasons(void)
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

int main(int argc, char **argv)
{
    int per = argc > 1 ? atoi(argv[1]) : 2;
    if (per < 1)
        per = 1;
    errors();
    views();
    for (int i = 0; i < tav_game_count(); i++) {
        const tav_game *g = tav_game_at(i);
        check(g->samples && g->samples[0], "%s: sample option sets", g->name);
        for (int k = 0; g->samples && g->samples[k]; k++) {
            for (int j = 0; j < per; j++)
                random_game(g, g->samples[k], (uint64_t)(j * 1000 + k + 1));
            for (int j = 0; j < per + 1; j++)
                parts_game(g, g->samples[k], (uint64_t)(j * 31 + k + 5));
            /* The library's conformance checks, callable from any test. */
            char err[1024];
            int plies = 0;
            check(tav_conformance_game(g, g->samples[k], 99, NULL, NULL, &plies, err,
                                       sizeof err) == TAV_OK && plies > 0,
                  "%s [%s]: conformance: %s", g->name, g->samples[k], err);
        }
    }
    for (uint64_t seed = 1; seed <= 12; seed++)
        hidden(seed);
    own_game();
    play_as();
    end_reasons();
    statuses();
    for (int i = 0; i < tav_game_count(); i++)
        for (uint64_t seed = 1; seed <= 3; seed++)
            fuzz(tav_game_at(i), seed);
    utf8_validator();
    for (int i = 0; i < tav_game_count(); i++)
        messages_utf8(tav_game_at(i), 7);
    printf("%d passed, %d failed\n", passed, failed);
    return failed != 0;
}
