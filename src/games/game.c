/*
 * game.c — helpers every user of the operations table shares.
 */
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
