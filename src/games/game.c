/*
 * game.c — helpers every user of the operations table shares, and the
 * library's status names.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tavoliere.h"

const char *tav_status_str(tav_status st)
{
    switch (st) {
    case TAV_OK: return "ok";
    case TAV_E_INVALID: return "invalid input";
    case TAV_E_ILLEGAL: return "illegal move";
    case TAV_E_OVER: return "game over";
    case TAV_E_NOMEM: return "out of memory";
    case TAV_E_CANCELLED: return "cancelled";
    case TAV_E_NOTFOUND: return "not found";
    }
    return "unknown status";
}

tav_status tav_game_check_table(const tav_game *g, char *err, size_t errlen)
{
    const char *why = NULL;
    if (!g)
        why = "no game table";
    else if (g->abi_version != TAV_GAME_ABI_VERSION)
        why = "the game table was written for another version of tavoliere_game.h "
              "(abi_version is not TAV_GAME_ABI_VERSION)";
    else if (!g->name || !g->name[0])
        why = "the game table has no name";
    else if (g->state_size == 0 || g->max_moves <= 0 || g->max_moves > TAV_MAX_MOVES)
        why = "the game table's state_size or max_moves is out of range";
    else if (!g->init || !g->legal || !g->play || !g->to_move || !g->result || !g->move_str ||
             !g->hash || !g->set_position || !g->get_position || !g->board_view)
        why = "the game table lacks a required operation";
    if (!why)
        return TAV_OK;
    if (err && errlen)
        snprintf(err, errlen, "%s", why);
    return TAV_E_INVALID;
}

tav_status tav_find_move(const tav_game *g, const void *st, const char *text,
                         tav_move *scratch, tav_move *m)
{
    size_t len = strlen(text);
    if (len == 0 || len >= TAV_MOVE_TEXT)
        return TAV_E_INVALID;
    int n = g->legal(st, scratch);
    if (n == 0)
        return TAV_E_OVER;
    char buf[TAV_MOVE_TEXT];
    for (int i = 0; i < n; i++) {
        g->move_str(st, scratch[i], buf, sizeof buf);
        if (strcmp(buf, text) == 0) {
            *m = scratch[i];
            return TAV_OK;
        }
    }
    return TAV_E_ILLEGAL;
}

const char *tav_side_name(int side)
{
    switch (side) {
    case TAV_WHITE: return "white";
    case TAV_BLACK: return "black";
    case TAV_DRAW: return "draw";
    default: return "none";
    }
}

tav_status tav_game_setup(const tav_game *g, void *st, const char *options, uint64_t seed,
                          char *err, size_t errlen)
{
    int rc = g->setup ? g->setup(st, options, seed, err, errlen)
                      : g->init(st, options, err, errlen);
    return rc == 0 ? TAV_OK : TAV_E_INVALID;
}

tav_status tav_game_public_position(const tav_game *g, const void *st, int viewer, char *buf,
                                    size_t n)
{
    if ((viewer != TAV_WHITE && viewer != TAV_BLACK && viewer != TAV_SPECTATOR) || !buf || n == 0)
        return TAV_E_INVALID;
    if (g->public_position)
        g->public_position(st, viewer, buf, n);
    else
        g->get_position(st, buf, n);
    return TAV_OK;
}

void tav_game_board_view(const tav_game *g, const void *st, int viewer, tav_board_view *v)
{
    memset(v, 0, sizeof *v);
    g->board_view(st, viewer, v);
}

tav_status tav_game_move_parts(const tav_game *g, const void *st, tav_move m,
                               tav_move_parts *p)
{
    memset(p, 0, sizeof *p);
    p->side = TAV_NONE;
    p->rotation = -1;
    p->from[0] = p->from[1] = p->to[0] = p->to[1] = -1;
    if (!g->move_parts)
        return TAV_E_NOTFOUND;
    return g->move_parts(st, m, p) == 0 ? TAV_OK : TAV_E_NOTFOUND;
}

const char *tav_score_wins_words(int score_wins)
{
    switch (score_wins) {
    case TAV_SCORE_HIGHER_WINS: return "higher wins";
    case TAV_SCORE_LOWER_WINS: return "lower wins";
    default: return "";
    }
}

char *tav_game_list(char *buf, size_t n)
{
    size_t k = 0;
    int count = tav_game_count();
    if (n)
        buf[0] = '\0';
    for (int i = 0; i < count && k < n; i++) {
        int w = snprintf(buf + k, n - k, "%s%s", i == 0 ? "" : i + 1 < count ? ", " : " or ",
                         tav_game_at(i)->name);
        if (w < 0)
            break;
        k += (size_t)w;
    }
    return buf;
}
