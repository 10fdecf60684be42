/*
 * game.c — helpers every user of the operations table shares.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tavoliere.h"

int tav_find_move(const tav_game *g, const void *st, const char *text,
                  tav_move *scratch, tav_move *m)
{
    size_t len = strlen(text);
    if (len == 0 || len >= TAV_MOVE_TEXT)
        return -1;
    int n = g->legal(st, scratch);
    char buf[TAV_MOVE_TEXT];
    for (int i = 0; i < n; i++) {
        g->move_str(st, scratch[i], buf, sizeof buf);
        if (strcmp(buf, text) == 0) {
            *m = scratch[i];
            return 0;
        }
    }
    return -1;
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

int tav_game_setup(const tav_game *g, void *st, const char *options, uint64_t seed, char *err,
                   size_t errlen)
{
    if (g->setup)
        return g->setup(st, options, seed, err, errlen);
    return g->init(st, options, err, errlen);
}

int tav_game_public_position(const tav_game *g, const void *st, int viewer, char *buf, size_t n)
{
    if (g->public_position)
        return g->public_position(st, viewer, buf, n);
    return g->get_position(st, buf, n);
}

void tav_game_board_view(const tav_game *g, const void *st, int viewer, tav_board_view *v)
{
    memset(v, 0, sizeof *v);
    g->board_view(st, viewer, v);
}

int tav_game_move_parts(const tav_game *g, const void *st, tav_move m, tav_move_parts *p)
{
    memset(p, 0, sizeof *p);
    p->side = TAV_NONE;
    p->rotation = -1;
    p->from[0] = p->from[1] = p->to[0] = p->to[1] = -1;
    if (!g->move_parts)
        return -1;
    return g->move_parts(st, m, p);
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
