/*
 * explain.c — see explain.h.
 */
#include <stdlib.h>
#include <string.h>

#include "base/base.h"
#include "session/explain.h"

static int lower(int c)
{
    return c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c;
}

static int eq_nocase(const char *a, const char *b)
{
    while (*a && lower((unsigned char)*a) == lower((unsigned char)*b)) {
        a++;
        b++;
    }
    return *a == '\0' && *b == '\0';
}

int tavi_explain_move(const tav_game *g, const void *st, const char *text, char *meant, size_t mn,
                     char *why, size_t wn)
{
    meant[0] = '\0';
    why[0] = '\0';
    tav_move *list = malloc(sizeof *list * (size_t)g->max_moves);
    if (!list)
        return -1;
    int n = g->legal(st, list);
    size_t tl = strlen(text);
    char buf[TAV_MOVE_TEXT];
    int found = 0;
    /* 1. Letter case. */
    for (int i = 0; i < n && !found; i++) {
        g->move_str(st, list[i], buf, sizeof buf);
        if (eq_nocase(buf, text)) {
            tavi_bprintf(meant, mn, "%s", buf);
            tavi_bprintf(why, wn, "moves are written '%s' (letter case matters)", buf);
            found = 1;
        }
    }
    /* 2. What the game itself can say. */
    if (!found && g->explain_move) {
        char gm[TAV_MOVE_TEXT] = "", gw[256] = "";
        found = g->explain_move(st, text, list, n, gm, sizeof gm, gw, sizeof gw) == 1;
        if (found)
            tavi_bprintf(meant, mn, "%s", gm);
        tavi_bprintf(why, wn, "%s", gw);
    }
    /* 3. A unique beginning. */
    if (!found && tl > 0) {
        int nprefix = 0;
        char prefix_move[TAV_MOVE_TEXT] = "";
        for (int i = 0; i < n && nprefix < 2; i++) {
            g->move_str(st, list[i], buf, sizeof buf);
            if (strlen(buf) > tl && strncmp(buf, text, tl) == 0 && nprefix++ == 0)
                tavi_bprintf(prefix_move, sizeof prefix_move, "%s", buf);
        }
        if (nprefix == 1) {
            char q[41];
            tavi_quote(q, sizeof q, text, 40);
            tavi_bprintf(meant, mn, "%s", prefix_move);
            tavi_bprintf(why, wn, "the only legal move that starts with '%s' is %s", q,
                        prefix_move);
            found = 1;
        }
    }
    free(list);
    return found;
}
