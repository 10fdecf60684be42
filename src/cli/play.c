/*
 * play.c — `tavoliere play [GAME] [KEY=VALUE ...] [--white P] [--black P]
 *          [--load FILE]`: play in the terminal.
 *
 * The game is a tav_session (its history, undo, resignation and record);
 * this file draws the game's view after every move: a coloured board with
 * coordinates (Unicode when the locale is UTF-8), the last move highlighted,
 * territory, lots and home rows from the view's flags, hands and stacks.
 * Colours are off when NO_COLOR is set or stdout is not a terminal.
 *
 * Players: human, random, ai, ai:level=N (default: a human as white against
 * the AI at level 5).  Humans type moves in the SPEC notation; a wrong or
 * partial entry lists the legal moves that fit it.  Commands: moves, undo,
 * hint, save FILE, resign, help, quit.  While the AI thinks, a spinner with
 * the elapsed time runs on stderr.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli.h"
#include "core/core.h"
#include "engine/engine.h"
#include "engine/record.h"
#include "search/search.h"
#include "tavoliere_session.h"

typedef struct pspec {
    int human;
    char kind[16];   /* ai, random */
    int level;
    char text[32];
} pspec;

typedef struct session {
    tav_session *gs;      /* the game: history, result, record */
    const tav_game *g;
    char options[400];
    pspec side[2];
    tav_searcher *sr;     /* the AI's memory, kept between moves */
    int color, unicode;
    char message[512];    /* shown under the board once */
} session;

/* ------------------------------------------------------------- drawing */

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

/* Draw the board and the status lines. */
static void draw(session *s)
{
    const void *st = tav_session_state(s->gs);
    tav_view *v = calloc(1, sizeof *v);
    if (!v)
        return;
    s->g->view(st, v);
    const char *dot = s->unicode ? "\xc2\xb7" : ".";
    printf("\n");
    for (int r = v->height - 1; r >= 0; r--) {
        printf(" %2d ", r + 1);
        for (int f = 0; f < v->width; f++) {
            const tav_cell *c = &v->cell[r * v->width + f];
            const char *bg = "";
            if (s->color) {
                if (c->flags & TAV_CELL_LAST)
                    bg = "\033[43m";
                else if (c->flags & TAV_CELL_TERR_W)
                    bg = "\033[44m";
                else if (c->flags & TAV_CELL_TERR_B)
                    bg = "\033[41m";
                else if (c->flags & (TAV_CELL_HOME_W | TAV_CELL_HOME_B))
                    bg = "\033[100m";
                else
                    bg = "\033[40m";
            }
            int empty = c->glyph == '.' || c->glyph == '\0' || c->glyph == ' ';
            char g[8];
            if (empty && (c->flags & TAV_CELL_MARK))
                snprintf(g, sizeof g, "%s", s->unicode ? "\xe2\x97\x87" : "*");
            else if (empty && !s->color && (c->flags & TAV_CELL_TERR_W))
                snprintf(g, sizeof g, "+");
            else if (empty && !s->color && (c->flags & TAV_CELL_TERR_B))
                snprintf(g, sizeof g, "-");
            else if (empty)
                snprintf(g, sizeof g, "%s", dot);
            else
                snprintf(g, sizeof g, "%c", c->glyph);
            if (s->color) {
                const char *fg = empty ? ((c->flags & TAV_CELL_MARK) ? "\033[1;92m" : "\033[2;37m")
                                       : fg_owner(c->owner);
                printf("%s%s %s%s", bg, fg, g, C_RESET);
            } else {
                printf(" %s", g);
            }
        }
        printf("  %d\n", r + 1);
    }
    printf("    ");
    for (int f = 0; f < v->width; f++)
        printf(" %c", 'a' + f);
    printf("\n");
    tav_result res;
    s->g->result(st, &res);
    printf(" %s%s%s: %s\n", s->color ? fg_owner(TAV_WHITE) : "", "white", s->color ? C_RESET : "",
           v->hand[0]);
    printf(" %s%s%s: %s\n", s->color ? fg_owner(TAV_BLACK) : "", "black", s->color ? C_RESET : "",
           v->hand[1]);
    if (v->info[0])
        printf(" %s\n", v->info);
    printf(" score %d:%d   last move: %s   phase: %s\n", res.score[0], res.score[1],
           v->last_move[0] ? v->last_move : "-", v->phase[0] ? v->phase : "-");
    if (s->message[0]) {
        printf(" %s\n", s->message);
        s->message[0] = '\0';
    }
    free(v);
}

/* --------------------------------------------------------------- moves */

/* Play a move text; 0 or -1. */
static int do_play(session *s, const char *mv)
{
    char err[256];
    return tav_session_play_text(s->gs, mv, err, sizeof err) == TAV_OK ? 0 : -1;
}

/* Take back one ply; 0 or -1. */
static int do_undo(session *s)
{
    return tav_session_undo(s->gs) == TAV_OK ? 0 : -1;
}

/* The legal moves as "moves M1 M2 ..." (heap, caller frees; NULL: no memory). */
static char *moves_text(session *s)
{
    tav_move *list = malloc(sizeof *list * (size_t)s->g->max_moves);
    int n = list ? tav_session_legal(s->gs, tav_session_to_move(s->gs), list) : 0;
    size_t cap = 8 + (size_t)n * TAV_MOVE_TEXT, k = 5;
    char *out = list ? malloc(cap) : NULL;
    if (out) {
        memcpy(out, "moves", 6);
        for (int i = 0; i < n; i++) {
            out[k++] = ' ';
            k += (size_t)tav_session_move_str(s->gs, list[i], out + k, cap - k);
        }
        out[k] = '\0';
    }
    free(list);
    return out;
}

typedef struct think {
    tav_searcher *sr;
    const tav_game *g;
    const void *st;
    const char *player;
    tav_limits lim;
    tav_report rep;
    int rc;
    volatile int done;
} think;

static void *think_run(void *arg)
{
    think *t = arg;
    t->rc = tav_search_with(t->sr, t->g, t->st, t->player, &t->lim, NULL, NULL, &t->rep);
    t->done = 1;
    return NULL;
}

/* Run a search with a spinner; returns 0 and the move text. */
static int search_move(session *s, const char *player, int level, char *mv, size_t n)
{
    think t;
    memset(&t, 0, sizeof t);
    t.sr = s->sr;
    t.g = s->g;
    t.st = tav_session_state(s->gs);
    t.player = player;
    tav_limits_default(&t.lim);
    t.lim.level = level;
    t.lim.movetime_ms = level >= 1 ? 200 + 250L * level : 1500;
    t.lim.seed = (uint64_t)time(NULL) ^ (uint64_t)tav_session_ply(s->gs);
    t.lim.threads = 2;
    pthread_t tid;
    int tty = isatty(2);
    if (pthread_create(&tid, NULL, think_run, &t) != 0) {
        think_run(&t);
    } else {
        static const char *spin_u[] = {"\xe2\xa0\x8b", "\xe2\xa0\x99", "\xe2\xa0\xb9", "\xe2\xa0\xb8",
                                       "\xe2\xa0\xbc", "\xe2\xa0\xb4", "\xe2\xa0\xa6", "\xe2\xa0\xa7"};
        static const char *spin_a[] = {"|", "/", "-", "\\", "|", "/", "-", "\\"};
        double t0 = cli_now();
        int k = 0;
        while (!t.done) {
            if (tty) {
                fprintf(stderr, "\r thinking %s %.1fs ", s->unicode ? spin_u[k % 8] : spin_a[k % 8],
                        cli_now() - t0);
                fflush(stderr);
            }
            k++;
            struct timespec ts = {0, 80 * 1000 * 1000};
            nanosleep(&ts, NULL);
        }
        pthread_join(tid, NULL);
        if (tty)
            fprintf(stderr, "\r                         \r");
    }
    if (t.rc != 0)
        return -1;
    s->g->move_str(t.st, t.rep.best, mv, n);
    return 0;
}

/* Whether `needle` (nl bytes) occurs in the len bytes at p. */
static int contains(const char *p, size_t len, const char *needle, size_t nl)
{
    for (size_t i = 0; i + nl <= len; i++)
        if (memcmp(p + i, needle, nl) == 0)
            return 1;
    return 0;
}

/* List the legal moves that fit a partial or wrong entry. */
static void suggest(session *s, const char *entry)
{
    char *a = moves_text(s);
    if (!a)
        return;
    size_t el = strlen(entry);
    char out[400];
    size_t k = 0;
    int shown = 0, total = 0;
    /* Prefix matches first; if none, matches anywhere. */
    for (int pass = 0; pass < 2 && total == 0; pass++) {
        const char *p = a + 5;
        while (*p == ' ')
            p++;
        while (*p) {
            const char *end = strchr(p, ' ');
            size_t len = end ? (size_t)(end - p) : strlen(p);
            int fit = pass == 0 ? (len >= el && strncmp(p, entry, el) == 0)
                                : (el > 0 && contains(p, len, entry, el));
            if (fit) {
                total++;
                if (shown < 24 && k + len + 2 < sizeof out) {
                    k += (size_t)snprintf(out + k, sizeof out - k, " %.*s", (int)len, p);
                    shown++;
                }
            }
            if (!end)
                break;
            p = end + 1;
        }
    }
    out[k] = '\0';
    free(a);
    if (total == 0)
        snprintf(s->message, sizeof s->message,
                 "'%.40s' is not a legal move and no legal move fits it. Type 'moves' for the list, 'help' for help.",
                 entry);
    else
        snprintf(s->message, sizeof s->message, "'%.40s' is not a legal move. Moves that fit (%d):%s%s",
                 entry, total, out, total > shown ? " ..." : "");
}

/* Save the game as a record; 0 or -1 with a message. */
static int save(session *s, const char *path)
{
    char *text = tav_session_record_all(s->gs, s->side[0].text, s->side[1].text);
    if (!text)
        return -1;
    FILE *f = fopen(path, "w");
    if (!f) {
        free(text);
        snprintf(s->message, sizeof s->message, "cannot write %.200s", path);
        return -1;
    }
    fputs(text, f);
    int bad = fclose(f) != 0;
    free(text);
    snprintf(s->message, sizeof s->message, bad ? "error writing %.200s" : "saved to %.200s", path);
    return bad ? -1 : 0;
}

static void help(session *s)
{
    snprintf(s->message, sizeof s->message,
             "Type a move in the game's notation (see docs/rules/%s.md), or: moves, undo, hint, "
             "save FILE, resign, help, quit.",
             s->g->name);
}

/* The human's turn: returns 1 to go on, 0 to quit. */
static int human_turn(session *s, int side)
{
    char line[512];
    for (;;) {
        printf(" %s to move> ", tav_side_name(side));
        fflush(stdout);
        int r = cli_read_line(stdin, line, sizeof line);
        if (r == 0)
            return 0;
        char *p = line;
        while (*p == ' ' || *p == '\t')
            p++;
        size_t n = strlen(p);
        while (n > 0 && (p[n - 1] == ' ' || p[n - 1] == '\t'))
            p[--n] = '\0';
        if (r == 2 || n == 0) {
            if (r == 2)
                printf(" line too long\n");
            continue;
        }
        if (strcmp(p, "quit") == 0 || strcmp(p, "exit") == 0)
            return 0;
        if (strcmp(p, "help") == 0 || strcmp(p, "?") == 0) {
            help(s);
            return 1;
        }
        if (strcmp(p, "moves") == 0) {
            char *a = moves_text(s);
            if (a)
                printf("%s\n", a[5] ? a + 6 : "(none)");
            free(a);
            continue;
        }
        if (strcmp(p, "undo") == 0) {
            /* Back to this player's previous turn (at least one ply). */
            int undone = 0;
            while (do_undo(s) == 0) {
                undone++;
                int tm = tav_session_to_move(s->gs);
                if (tm >= 0 && s->side[tm].human)
                    break;
            }
            snprintf(s->message, sizeof s->message, undone ? "took back %d move%s" : "nothing to undo",
                     undone, undone == 1 ? "" : "s");
            return 1;
        }
        if (strcmp(p, "hint") == 0) {
            char mv[TAV_MOVE_TEXT];
            if (search_move(s, "ai", 7, mv, sizeof mv) == 0)
                snprintf(s->message, sizeof s->message, "hint: %s", mv);
            return 1;
        }
        if (strncmp(p, "save", 4) == 0 && (p[4] == ' ' || p[4] == '\0')) {
            const char *path = p + 4;
            while (*path == ' ')
                path++;
            if (!*path)
                snprintf(s->message, sizeof s->message, "save needs a file name: save FILE");
            else
                save(s, path);
            return 1;
        }
        if (strcmp(p, "resign") == 0) {
            tav_session_resign(s->gs, side);
            return 1;
        }
        if (do_play(s, p) == 0)
            return 1;
        suggest(s, p);
        return 1;
    }
}

/* Parse a player: human, random, ai, ai:level=N; 0 or -1. */
static int parse_pspec(const char *t, pspec *p)
{
    memset(p, 0, sizeof *p);
    snprintf(p->text, sizeof p->text, "%s", t);
    if (strcmp(t, "human") == 0) {
        p->human = 1;
        return 0;
    }
    if (strcmp(t, "random") == 0) {
        snprintf(p->kind, sizeof p->kind, "random");
        return 0;
    }
    if (strcmp(t, "ai") == 0 || strcmp(t, "uct") == 0) {
        snprintf(p->kind, sizeof p->kind, "%s", t);
        p->level = 5;
        return 0;
    }
    uint64_t v;
    if (strncmp(t, "ai:level=", 9) == 0 && tav_parse_uint(t + 9, 10, &v) == 0 && v >= 1 && v <= 10) {
        snprintf(p->kind, sizeof p->kind, "ai");
        p->level = (int)v;
        return 0;
    }
    return -1;
}

/* Ask a question on the terminal; returns the trimmed answer. */
static void ask(const char *q, char *ans, size_t n)
{
    printf("%s", q);
    fflush(stdout);
    if (cli_read_line(stdin, ans, n) != 1)
        ans[0] = '\0';
}

int cli_play(int argc, char **argv)
{
    session s;
    memset(&s, 0, sizeof s);
    const char *load_path = NULL, *game = NULL;
    const char *white = NULL, *black = NULL;
    size_t ol = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--white") == 0 && i + 1 < argc)
            white = argv[++i];
        else if (strcmp(argv[i], "--black") == 0 && i + 1 < argc)
            black = argv[++i];
        else if (strcmp(argv[i], "--load") == 0 && i + 1 < argc)
            load_path = argv[++i];
        else if (!game && !strchr(argv[i], '=') && argv[i][0] != '-')
            game = argv[i];
        else if (strchr(argv[i], '=') && ol + strlen(argv[i]) + 2 < sizeof s.options)
            ol += (size_t)snprintf(s.options + ol, sizeof s.options - ol, "%s%s", ol ? " " : "", argv[i]);
        else {
            fprintf(stderr, "usage: tavoliere play [GAME] [KEY=VALUE ...] [--white P] [--black P] [--load FILE]\n"
                            "  P is human, random, ai, ai:level=1..10 or uct\n");
            return 2;
        }
    }
    const char *lang = getenv("LC_ALL");
    if (!lang || !*lang)
        lang = getenv("LC_CTYPE");
    if (!lang || !*lang)
        lang = getenv("LANG");
    s.unicode = lang && (strstr(lang, "UTF-8") || strstr(lang, "utf8") || strstr(lang, "UTF8"));
    s.color = isatty(1) && !getenv("NO_COLOR");
    s.sr = tav_searcher_new();
    if (!s.sr)
        return 1;
    char ans[128];
    tav_record loaded;
    tav_record_init(&loaded);
    if (load_path) {
        char err[512];
        size_t len;
        char *text = cli_read_file(load_path, TAV_RECORD_MAX, &len, err, sizeof err);
        if (!text) {
            fprintf(stderr, "%s\n", err);   /* names the file already */
            return 1;
        }
        if (tav_record_parse(text, len, &loaded, NULL, err, sizeof err) != 0) {
            fprintf(stderr, "%s: %s\n", load_path, err);
            free(text);
            return 1;
        }
        free(text);
        game = loaded.game->name;
        tav_record_start_options(&loaded, s.options, sizeof s.options);
        if (!white && loaded.white[0] && parse_pspec(loaded.white, &s.side[0]) == 0)
            white = loaded.white;
        if (!black && loaded.black[0] && parse_pspec(loaded.black, &s.side[1]) == 0)
            black = loaded.black;
    }
    if (!game) {
        printf("Tavoliere — which game?\n  1) Urbino\n  2) Epaminondas\n  3) Cathedral\n  4) Toscana\n");
        ask("game [1]: ", ans, sizeof ans);
        static const char *names[] = {"urbino", "epaminondas", "cathedral", "toscana"};
        int k = atoi(ans);
        game = ans[0] == '\0' ? names[0] : (k >= 1 && k <= 4) ? names[k - 1] : ans;
        if (!tav_game_find(game)) {
            fprintf(stderr, "unknown game '%s'\n", ans);
            return 2;
        }
        ask("play white or black? [w]: ", ans, sizeof ans);
        int as_black = ans[0] == 'b' || ans[0] == 'B';
        ask("AI level 1 (weakest) to 10 (strongest) [5]: ", ans, sizeof ans);
        static char aispec[32];
        int lvl = atoi(ans);
        snprintf(aispec, sizeof aispec, "ai:level=%d", lvl >= 1 && lvl <= 10 ? lvl : 5);
        white = as_black ? aispec : "human";
        black = as_black ? "human" : aispec;
    }
    if (parse_pspec(white ? white : "human", &s.side[0]) != 0 ||
        parse_pspec(black ? black : "ai:level=5", &s.side[1]) != 0) {
        fprintf(stderr, "tavoliere play: unknown player '%s' (a player is human, random, ai, ai:level=1..10 or uct)\n",
                parse_pspec(white ? white : "human", &s.side[0]) != 0 ? white : black);
        return 2;
    }
    s.g = tav_game_find(game);
    if (!s.g) {
        fprintf(stderr, "unknown game '%s' (urbino, epaminondas, cathedral, toscana)\n", game);
        return 2;
    }
    /* A fresh deal each game (Toscana's stacks) unless the options give one. */
    char err[256];
    if (tav_session_new(&s.gs, s.g->name, s.options, (uint64_t)time(NULL), err, sizeof err) !=
        TAV_OK) {
        fprintf(stderr, "error %s\n", err);
        tav_searcher_free(s.sr);
        return 2;
    }
    for (int i = 0; i < loaded.nmoves; i++)
        if (do_play(&s, loaded.moves[i]) != 0) {
            fprintf(stderr, "cannot replay move %d\n", i + 1);
            return 1;
        }
    tav_record_free(&loaded);
    printf("%s: white is %s, black is %s. Type 'help' for help.\n", game, s.side[0].text, s.side[1].text);
    int running = 1;
    while (running) {
        int tm = tav_session_to_move(s.gs);
        if (tm == TAV_NONE)
            break;
        draw(&s);
        if (s.side[tm].human) {
            running = human_turn(&s, tm);
        } else {
            char mv[TAV_MOVE_TEXT];
            if (search_move(&s, s.side[tm].kind, s.side[tm].level, mv, sizeof mv) != 0 || do_play(&s, mv) != 0)
                break;
            snprintf(s.message, sizeof s.message, "%s (%s) plays %s", tav_side_name(tm), s.side[tm].text, mv);
        }
    }
    draw(&s);
    const void *st = tav_session_state(s.gs);
    tav_result res;
    tav_session_result(s.gs, &res);
    int resigned = tav_session_resigned(s.gs);
    if (resigned != TAV_NONE)
        printf(" %s resigns: %s wins.\n", tav_side_name(resigned), tav_side_name(1 - resigned));
    else if (res.over) {
        printf(" Game over: %s. Final score white %d, black %d.\n",
               res.winner == TAV_DRAW ? "a draw" : res.winner == TAV_WHITE ? "white wins" : "black wins",
               res.score[0], res.score[1]);
        /* The game's own breakdown, through its probes. */
        static const char *const keys[] = {"districts", "hand white", "hand black", "area white",
                                           "area black", "home", NULL};
        for (int k = 0; s.g->probe && keys[k]; k++) {
            char buf[2048];
            if (s.g->probe(st, keys[k], buf, sizeof buf) == 0)
                printf(" %s: %s\n", keys[k], buf);
        }
    } else {
        printf(" Game left unfinished.\n");
    }
    tav_session_free(s.gs);
    tav_searcher_free(s.sr);
    return 0;
}
