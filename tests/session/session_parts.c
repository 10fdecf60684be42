/*
 * session_parts.c — move parts: every legal move's parts write its text again and fit the board.
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

int on_board(const int8_t sq[2], const tav_board_view *v)
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
void parts_game(const tav_game *g, const char *options, uint64_t seed)
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
