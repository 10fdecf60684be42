/*
 * explain.c — see explain.h.
 */
#include <stdlib.h>
#include <string.h>

#include "core/core.h"
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

/* Cathedral's "X:sq,sq,..." with its squares sorted, lower-cased (for
 * comparing moves whose squares are given in any order); 0, or -1. */
static int sorted_squares(const char *text, char *out, size_t n)
{
    const char *colon = strchr(text, ':');
    if (!colon || colon == text || (size_t)(colon - text) > 2 || strlen(text) >= n)
        return -1;
    char sq[16][8];
    int k = 0;
    const char *p = colon + 1;
    while (*p) {
        const char *e = strchr(p, ',');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        if (k == 16 || len == 0 || len >= sizeof sq[0])
            return -1;
        for (size_t i = 0; i < len; i++)
            sq[k][i] = (char)lower((unsigned char)p[i]);
        sq[k++][len] = '\0';
        p += len + (e ? 1 : 0);
        if (e && !*p)
            return -1;
    }
    /* Insertion sort: at most 16 squares. */
    for (int i = 1; i < k; i++)
        for (int j = i; j > 0 && strcmp(sq[j - 1], sq[j]) > 0; j--) {
            char t[8];
            memcpy(t, sq[j], sizeof t);
            memcpy(sq[j], sq[j - 1], sizeof t);
            memcpy(sq[j - 1], t, sizeof t);
        }
    size_t o = 0;
    for (const char *c = text; c <= colon; c++)
        out[o++] = (char)lower((unsigned char)*c);
    for (int i = 0; i < k; i++)
        o += tavi_bprintf(out + o, n - o, "%s%s", i ? "," : "", sq[i]);
    return 0;
}

/* Urbino: the square of a build ("Td4", "e5-g7,Td4") and its type. */
static int urbino_build(const char *text, char *type, int *file, int *rank)
{
    const char *b = strchr(text, ',');
    b = b ? b + 1 : text;
    char t = (char)(*b >= 'a' && *b <= 'z' ? *b - 'a' + 'A' : *b);
    if ((t != 'H' && t != 'P' && t != 'T') || b[1] < 'a' || b[1] > 'i' || b[2] < '1' || b[2] > '9' || b[3])
        return -1;
    *type = t;
    *file = b[1] - 'a';
    *rank = b[2] - '1';
    return 0;
}

/* Urbino: why a building may not stand where it was typed. */
static void urbino_why(const tav_game *g, const void *st, const char *text, char *why, size_t wn)
{
    char t;
    int f, r;
    if (urbino_build(text, &t, &f, &r) != 0)
        return;
    tav_board_view *v = calloc(1, sizeof *v);
    if (!v)
        return;
    tav_game_board_view(g, st, TAV_SPECTATOR, v);
    const tav_square *q = &v->sq[r * v->width + f];
    if (q->kind) {
        tavi_bprintf(why, wn, "%c%d is taken", 'a' + f, r + 1);
        free(v);
        return;
    }
    if (!strchr(text, ',') && !(q->marks & TAV_MARK_LOT)) {
        tavi_bprintf(why, wn, "%c%d is not a building lot now (a lot is a square both architects see); "
                    "moving an architect first can make it one", 'a' + f, r + 1);
        free(v);
        return;
    }
    if (t == 'H') {
        free(v);
        return;
    }
    static const int d[4][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};
    for (int k = 0; k < 4; k++) {
        int ff = f + d[k][0], rr = r + d[k][1];
        if (ff < 0 || rr < 0 || ff >= v->width || rr >= v->height)
            continue;
        if (v->sq[rr * v->width + ff].kind == t) {
            tavi_bprintf(why, wn, "a %s may not stand beside a %s (%c%d has one, of either colour)",
                        t == 'T' ? "tower" : "palace", t == 'T' ? "tower" : "palace", 'a' + ff, rr + 1);
            break;
        }
    }
    free(v);
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
    char buf[TAV_MOVE_TEXT], want[TAV_MOVE_TEXT * 2], have[TAV_MOVE_TEXT * 2];
    int is_cat = strcmp(g->name, "cathedral") == 0, is_epa = strcmp(g->name, "epaminondas") == 0;
    int cat_ok = is_cat && sorted_squares(text, want, sizeof want) == 0;
    /* Epaminondas: `-` typed for a capture. */
    char capture[TAV_MOVE_TEXT] = "";
    if (is_epa && tl < sizeof capture) {
        const char *dash = strrchr(text, '-');
        if (dash) {
            memcpy(capture, text, tl + 1);
            capture[dash - text] = 'x';
        }
    }
    int found = 0, nprefix = 0;
    char prefix_move[TAV_MOVE_TEXT] = "";
    for (int i = 0; i < n && !found; i++) {
        g->move_str(st, list[i], buf, sizeof buf);
        if (eq_nocase(buf, text)) {
            tavi_bprintf(meant, mn, "%s", buf);
            tavi_bprintf(why, wn, "moves are written '%s' (letter case matters)", buf);
            found = 1;
        } else if (cat_ok && sorted_squares(buf, have, sizeof have) == 0 && strcmp(want, have) == 0) {
            tavi_bprintf(meant, mn, "%s", buf);
            tavi_bprintf(why, wn, "the same squares in the canonical order are '%s'", buf);
            found = 1;
        } else if (capture[0] && eq_nocase(buf, capture)) {
            /* Not played: a capture is asked for in so many words. */
            tavi_bprintf(why, wn, "a capture is written with x: did you mean %s?", buf);
            capture[0] = '\0';
        } else if (tl > 0 && strlen(buf) > tl && strncmp(buf, text, tl) == 0) {
            if (nprefix++ == 0)
                tavi_bprintf(prefix_move, sizeof prefix_move, "%s", buf);
        }
    }
    if (!found && nprefix == 1) {
        tavi_bprintf(meant, mn, "%s", prefix_move);
        tavi_bprintf(why, wn, "the only legal move that starts with '%.40s' is %s", text, prefix_move);
        found = 1;
    }
    if (!found && strcmp(g->name, "urbino") == 0)
        urbino_why(g, st, text, why, wn);
    if (!found && is_epa && !why[0] && strchr(text, 'x') && tl < sizeof capture) {
        /* An `x` for a plain move. */
        memcpy(capture, text, tl + 1);
        capture[strrchr(text, 'x') - text] = '-';
        for (int i = 0; i < n; i++) {
            g->move_str(st, list[i], buf, sizeof buf);
            if (strcmp(buf, capture) == 0) {
                tavi_bprintf(why, wn, "that move captures nothing: did you mean %s?", buf);
                break;
            }
        }
    }
    free(list);
    return found;
}
