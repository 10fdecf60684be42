/*
 * board.c — draw a game's board view on a terminal, the same for `play` and
 * `replay`: the board with coordinates, each game's marks (Urbino's lots,
 * Cathedral's territories, Toscana's light and dark squares and largest
 * areas, Epaminondas' home rows), what each player holds (Cathedral's
 * buildings and Toscana's top tiles drawn as shapes), the score once with
 * what it counts, and Urbino's districts as they score now.  Everything
 * comes from the drawing view (its hands style, light / dark squares) and
 * the game's words for people (score_words, describe): no game is named.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "base/base.h"
#include "cli/i18n.h"

#define C_RESET "\033[0m"

static const char *fg_owner(int owner)
{
    switch (owner) {
    case TAV_WHITE: return "\033[1;97m";
    case TAV_BLACK: return "\033[1;91m";
    case TAV_DRAW: return "\033[1;96m";
    default: return "\033[2;37m";
    }
}

/* Toscana's colours: light squares (white's, they score for white) and dark
 * squares (black's), the empty board, and the largest areas brighter. */
#define TOS_EMPTY "\033[42m"
#define TOS_LIGHT "\033[48;5;223m\033[38;5;94m"
#define TOS_DARK "\033[48;5;94m\033[38;5;223m"
#define TOS_LIGHT_AREA "\033[48;5;230m\033[1;38;5;88m"
#define TOS_DARK_AREA "\033[48;5;52m\033[1;38;5;230m"

/* One square of a light / dark view (Toscana), two columns wide. */
static void tos_cell(FILE *out, const tav_square *q, const cli_style *sty)
{
    int light = q->kind == 'L';
    int area = (q->marks & (light ? TAV_MARK_AREA_W : TAV_MARK_AREA_B)) != 0;
    if (!q->kind) {
        const char *g = (q->marks & TAV_MARK_CENTRE) ? (sty->unicode ? "\xe2\x97\x87" : "*")
                                                     : (sty->unicode ? "\xc2\xb7" : ".");
        if (sty->color)
            fprintf(out, "%s\033[2;30m %s" C_RESET, TOS_EMPTY, g);
        else
            fprintf(out, " %s", g);
        return;
    }
    /* The tile's placement number (last digit) tells neighbouring tiles apart;
     * the last tile placed is shown with a star. */
    char d = (q->marks & TAV_MARK_LAST) ? '*' : (char)('0' + q->piece % 10);
    if (sty->color)
        fprintf(out, "%s %c" C_RESET, light ? (area ? TOS_LIGHT_AREA : TOS_LIGHT) : (area ? TOS_DARK_AREA : TOS_DARK), d);
    else
        fprintf(out, " %c", light ? (area ? 'O' : 'o') : (area ? 'X' : 'x'));
}

/* One square of the other games, two columns wide. */
static void cell(FILE *out, const tav_square *q, const cli_style *sty)
{
    const char *bg = "";
    if (sty->color) {
        if (q->marks & TAV_MARK_LAST)
            bg = "\033[43m";
        else if (q->marks & TAV_MARK_MONUMENT)
            bg = "\033[45m";
        else if (q->marks & TAV_MARK_TERR_W)
            bg = "\033[44m";
        else if (q->marks & TAV_MARK_TERR_B)
            bg = "\033[41m";
        else if (q->marks & (TAV_MARK_HOME_W | TAV_MARK_HOME_B))
            bg = "\033[100m";
        else
            bg = "\033[40m";
    }
    char g[8];
    int empty = q->kind == 0;
    if (empty && (q->marks & TAV_MARK_LOT))
        snprintf(g, sizeof g, "%s", sty->unicode ? "\xe2\x97\x87" : "*");
    else if (empty && !sty->color && (q->marks & TAV_MARK_TERR_W))
        snprintf(g, sizeof g, "+");
    else if (empty && !sty->color && (q->marks & TAV_MARK_TERR_B))
        snprintf(g, sizeof g, "-");
    else if (empty)
        snprintf(g, sizeof g, "%s", sty->unicode ? "\xc2\xb7" : ".");
    else if (!sty->color && q->owner == TAV_BLACK)
        snprintf(g, sizeof g, "%c", q->kind >= 'A' && q->kind <= 'Z' ? q->kind - 'A' + 'a' : q->kind);
    else
        snprintf(g, sizeof g, "%c", q->kind);
    if (sty->color) {
        const char *fg = empty ? ((q->marks & TAV_MARK_LOT) ? "\033[1;92m" : "\033[2;37m") : fg_owner(q->owner);
        fprintf(out, "%s%s %s" C_RESET, bg, fg, g);
    } else {
        fprintf(out, " %s", g);
    }
}

static void board(FILE *out, const tav_board_view *v, const cli_style *sty)
{
    int tos = v->light_dark;
    fprintf(out, "\n");
    for (int r = v->height - 1; r >= 0; r--) {
        fprintf(out, " %2d ", r + 1);
        for (int f = 0; f < v->width; f++) {
            const tav_square *q = &v->sq[r * v->width + f];
            if (tos)
                tos_cell(out, q, sty);
            else
                cell(out, q, sty);
        }
        fprintf(out, "  %d\n", r + 1);
    }
    fprintf(out, "    ");
    for (int f = 0; f < v->width; f++)
        fprintf(out, " %c", 'a' + f);
    fprintf(out, "\n");
}

/* ------------------------------------------------------------ hands */

/* A shape drawn in a block of text rows: its cells as (file, rank) offsets. */
typedef struct shape_box {
    const tav_hand_item *it;
    int minf, minr, w, h;
} shape_box;

static shape_box box_of(const tav_hand_item *it)
{
    shape_box b = {it, 0, 0, 0, 0};
    int maxf = -100, maxr = -100;
    b.minf = b.minr = 100;
    for (int c = 0; c < it->ncells; c++) {
        int f = it->cell[c][0], r = it->cell[c][1];
        b.minf = f < b.minf ? f : b.minf;
        b.minr = r < b.minr ? r : b.minr;
        maxf = f > maxf ? f : maxf;
        maxr = r > maxr ? r : maxr;
    }
    b.w = it->ncells ? maxf - b.minf + 1 : 1;
    b.h = it->ncells ? maxr - b.minr + 1 : 1;
    return b;
}

/* The cell of a shape at (column x, text row y, top row 0), or -1. */
static int shape_cell(const shape_box *b, int x, int y)
{
    for (int c = 0; c < b->it->ncells; c++)
        if (b->it->cell[c][0] - b->minf == x && b->minr + b->h - 1 - b->it->cell[c][1] == y)
            return c;
    return -1;
}

/* Hands of shapes (Cathedral): the buildings a player holds, drawn as shapes
 * of their letter, side by side, with the count under each. */
static void shapes_hand(FILE *out, int side, const tav_side_view *sv, const cli_style *sty)
{
    const char *col = sty->color ? fg_owner(side) : "";
    const char *rst = sty->color ? C_RESET : "";
    fprintf(out, " %s%s%s: %s\n", col, cli_side((cli_lang)sty->lang, side), rst,
             sv->nitems ? cli_tr((cli_lang)sty->lang, "buildings in hand") : cli_tr((cli_lang)sty->lang, "no building left in hand"));
    int i = 0;
    while (i < sv->nitems) {
        /* As many shapes as fit in 100 columns. */
        shape_box bx[TAV_HAND_ITEMS];
        int n = 0, width = 3, hmax = 0;
        while (i + n < sv->nitems) {
            shape_box b = box_of(&sv->item[i + n]);
            if (n > 0 && width + 2 * b.w + 3 > 100)
                break;
            bx[n++] = b;
            width += 2 * (b.w > 2 ? b.w : 2) + 3;
            hmax = b.h > hmax ? b.h : hmax;
        }
        for (int y = 0; y <= hmax; y++) {
            fprintf(out, "   ");
            for (int k = 0; k < n; k++) {
                const shape_box *b = &bx[k];
                int cols = b->w > 2 ? b->w : 2;
                int yy = y - (hmax - b->h);   /* shapes stand on one base line */
                for (int x = 0; x < cols; x++) {
                    if (y == hmax) {
                        /* The label row: letter and count. */
                        if (x == 0) {
                            char lab[8];
                            if (b->it->count > 1)
                                snprintf(lab, sizeof lab, "x%d", b->it->count);
                            else
                                snprintf(lab, sizeof lab, "  ");
                            fprintf(out, "%-4s", lab);
                        } else if (x > 1) {
                            fprintf(out, "  ");
                        }
                        continue;
                    }
                    int c = yy >= 0 && yy < b->h && x < b->w ? shape_cell(b, x, yy) : -1;
                    char letter = b->it->kind;
                    if (c >= 0 && sty->color)
                        fprintf(out, "%s\033[40m%c%c" C_RESET, b->it->kind == 'Y' ? fg_owner(TAV_DRAW) : col,
                                letter, ' ');
                    else if (c >= 0)
                        fprintf(out, "%c ", side == TAV_BLACK && letter != 'Y' ? letter - 'A' + 'a' : letter);
                    else
                        fprintf(out, "  ");
                }
                fprintf(out, "   ");
            }
            fprintf(out, "\n");
        }
        i += n;
    }
}

/* Hands of tiles (Toscana): the top tile of each stack as its 2 x 4 frame,
 * light and dark squares as on the board, beside the stack count and the veto. */
static void tiles_hands(FILE *out, const tav_board_view *v, const cli_style *sty)
{
    const cli_lang L = (cli_lang)sty->lang;
    const char *name[2] = {cli_tr(L, "white (light)"), cli_tr(L, "black (dark)")};
    fprintf(out, " ");
    for (int side = 0; side < 2; side++)
        fprintf(out, "%-30s", name[side]);
    fprintf(out, "\n");
    for (int row = 0; row < 2; row++) {
        fprintf(out, " ");
        for (int side = 0; side < 2; side++) {
            const tav_side_view *sv = &v->side[side];
            const tav_hand_item *it = NULL;
            for (int k = 0; k < sv->nitems; k++)
                if (sv->item[k].kind == 'S')
                    it = &sv->item[k];
            int used = 0;
            if (it) {
                fprintf(out, " ");
                for (int x = 0; x < 4; x++) {
                    int c = row * 4 + x;   /* cell order 0..7, row 0 on top */
                    int light = (side == TAV_WHITE) != (it->offcolour[c] != 0);
                    if (sty->color)
                        fprintf(out, "%s %s" C_RESET, light ? TOS_LIGHT : TOS_DARK,
                                sty->unicode ? "\xc2\xb7" : " ");
                    else
                        fprintf(out, " %c", light ? 'o' : 'x');
                }
                used = 9;
            }
            char t[40];
            if (row == 0)
                snprintf(t, sizeof t, " %s%s", it ? cli_tr(L, "top tile ") : cli_tr(L, "stack empty"), it ? it->id : "");
            else
                snprintf(t, sizeof t, sv->veto ? cli_tr(L, " %d left, veto unused") : cli_tr(L, " %d left, veto used"), sv->stack);
            fprintf(out, "%-*s", 30 - used, t);
        }
        fprintf(out, "\n");
    }
}

/* Supplies as one line each: named counts, or pieces on the board and lost. */
static void plain_hands(FILE *out, const tav_board_view *v, const cli_style *sty)
{
    for (int side = 0; side < 2; side++) {
        const tav_side_view *sv = &v->side[side];
        char line[256];
        size_t k = 0;
        line[0] = '\0';
        if (v->hands == TAV_HANDS_COUNT) {
            for (int i = 0; i < sv->nitems; i++) {
                const tav_hand_item *it = &sv->item[i];
                if (it->name[0])
                    k += tavi_bprintf(line + k, sizeof line - k, "%s%s %d", i ? ", " : "", cli_tr((cli_lang)sty->lang, it->name), it->count);
                else
                    k += tavi_bprintf(line + k, sizeof line - k, "%s%c %d", i ? ", " : "", it->kind, it->count);
            }
            if (!sv->nitems)
                tavi_bprintf(line, sizeof line, "%s", cli_tr((cli_lang)sty->lang, "nothing left"));
        } else {
            tavi_bprintf(line, sizeof line, cli_tr((cli_lang)sty->lang, "%d pieces on the board, %d lost"), sv->on_board, sv->captured);
        }
        fprintf(out, " %s%s%s: %s\n", sty->color ? fg_owner(side) : "", cli_side((cli_lang)sty->lang, side),
                 sty->color ? C_RESET : "", line);
    }
}

/* ------------------------------------------------------------ status */

/* The info line without the part that repeats the score. */
static void info_without_score(const char *info, char *out, size_t n)
{
    static const char *const prefixes[] = {"score ", "largest areas ", NULL};
    tavi_bprintf(out, n, "%s", info);
    for (int i = 0; prefixes[i]; i++) {
        char *p = strstr(out, prefixes[i]);
        if (!p)
            continue;
        char *end = strstr(p, ", ");
        if (end)
            memmove(p, end + 2, strlen(end + 2) + 1);
        else
            *p = '\0';
    }
    size_t len = strlen(out);
    while (len > 0 && (out[len - 1] == ' ' || out[len - 1] == ','))
        out[--len] = '\0';
}

cli_style cli_style_for(FILE *f)
{
    cli_style s;
    const char *lang = getenv("LC_ALL");
    if (!lang || !*lang)
        lang = getenv("LC_CTYPE");
    if (!lang || !*lang)
        lang = getenv("LANG");
    s.unicode = lang && (strstr(lang, "UTF-8") || strstr(lang, "utf8") || strstr(lang, "UTF8") ||
                         strstr(lang, "utf-8"));
    s.color = isatty(fileno(f)) && !getenv("NO_COLOR");
    s.lang = cli_lang_from_env();
    return s;
}

void cli_draw(FILE *out, const tav_game *g, const void *st, int viewer, const cli_style *sty)
{
    tav_board_view *v = calloc(1, sizeof *v);
    if (!v)
        return;
    tav_game_board_view(g, st, viewer, v);
    board(out, v, sty);
    if (v->hands == TAV_HANDS_SHAPES) {
        for (int side = 0; side < 2; side++)
            shapes_hand(out, side, &v->side[side], sty);
    } else if (v->hands == TAV_HANDS_TILES) {
        tiles_hands(out, v, sty);
    } else {
        plain_hands(out, v, sty);
    }
    /* What the game says about the position beyond the drawing (Urbino's districts). */
    char text[4096], said[6144];
    if (g->describe && g->describe(st, text, sizeof text) > 0) {
        cli_tr_text((cli_lang)sty->lang, text, said, sizeof said);
        fputs(said, out);
    }
    char info[256], info_said[384];
    info_without_score(v->info, info, sizeof info);
    cli_tr_text((cli_lang)sty->lang, info, info_said, sizeof info_said);
    fprintf(out, cli_tr((cli_lang)sty->lang, " score white %d, black %d"), v->side[0].score, v->side[1].score);
    if (g->score_words) {
        const char *wins = tav_score_wins_words(g->score_wins);
        fprintf(out, " (%s%s%s)", cli_tr((cli_lang)sty->lang, g->score_words), wins[0] ? ", " : "",
                cli_tr((cli_lang)sty->lang, wins));
    }
    fprintf(out, "\n");
    fprintf(out, cli_tr((cli_lang)sty->lang, " %s%slast move: %s\n"), info_said, info_said[0] ? "; " : "", v->last_move[0] ? v->last_move : "-");
    free(v);
}
