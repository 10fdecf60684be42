/*
 * play.c — `tavoliere play [GAME] [KEY=VALUE ...] [--white P] [--black P]
 *          [--load FILE]`: play in the terminal.
 *
 * The game is a tav_session (the same one the protocol and the server keep);
 * the game's view is drawn after every move: a coloured board with
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
#include "base/base.h"
#include "cli/i18n.h"
#include "tavoliere_record.h"
#include "tavoliere_search.h"
#include "tavoliere_session.h"
#include "session/explain.h"

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
    int color, unicode;
    cli_lang lang;        /* the language it speaks (cli/i18n.h) */
    char message[1024];   /* shown under the board once */
} session;

/* ------------------------------------------------------------- drawing */

/* Who looks at the screen: the human player, or everyone when both or
 * neither side is human. */
static int viewer_of(const session *s)
{
    if (s->side[0].human != s->side[1].human)
        return s->side[0].human ? TAV_WHITE : TAV_BLACK;
    return TAV_SPECTATOR;
}

/* Draw the board and the status lines, then the pending message. */
static void draw(session *s)
{
    cli_style sty = {s->color, s->unicode, s->lang};
    cli_draw(stdout, s->g, tav_session_state(s->gs), viewer_of(s), &sty);
    if (s->message[0]) {
        printf(" %s\n", s->message);
        s->message[0] = '\0';
    }
}

/* Print a message at once, without redrawing the board. */
static void say(session *s)
{
    if (s->message[0]) {
        printf(" %s\n", s->message);
        s->message[0] = '\0';
    }
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

/* A search on the process's service: the answer comes on a worker. */
typedef struct think {
    pthread_mutex_t mu;
    int done;
    tav_answer ans;
} think;

static void think_done(void *ctx, const tav_answer *a)
{
    think *t = ctx;
    pthread_mutex_lock(&t->mu);
    t->ans = *a;
    t->done = 1;
    pthread_mutex_unlock(&t->mu);
}

static int think_over(think *t)
{
    pthread_mutex_lock(&t->mu);
    int d = t->done;
    pthread_mutex_unlock(&t->mu);
    return d;
}

/* Run a search on the process's service with a spinner; returns 0 and the
 * move text.  Each side keeps its alpha-beta table from move to move. */
static int search_move(session *s, const char *player, int level, char *mv, size_t n)
{
    tav_service *svc = cli_service();
    if (!svc)
        return -1;
    think t;
    memset(&t, 0, sizeof t);
    pthread_mutex_init(&t.mu, NULL);
    tav_budget b;
    memset(&b, 0, sizeof b);
    b.level = level;
    b.movetime_ms = level >= 1 ? 200 + 250L * level : 1500;
    b.seed = (uint64_t)time(NULL) ^ (uint64_t)tav_session_ply(s->gs);
    b.threads = 2;
    b.keep = (uint64_t)(uintptr_t)s->gs * 2 + (uint64_t)tav_session_to_move(s->gs) + 1;
    if (tav_service_submit(svc, s->gs, player, &b, think_done, &t, NULL) != TAV_OK) {
        pthread_mutex_destroy(&t.mu);
        return -1;
    }
    static const char *spin_u[] = {"\xe2\xa0\x8b", "\xe2\xa0\x99", "\xe2\xa0\xb9", "\xe2\xa0\xb8",
                                   "\xe2\xa0\xbc", "\xe2\xa0\xb4", "\xe2\xa0\xa6", "\xe2\xa0\xa7"};
    static const char *spin_a[] = {"|", "/", "-", "\\", "|", "/", "-", "\\"};
    int tty = isatty(2);
    double t0 = cli_now();
    int k = 0;
    while (!think_over(&t)) {
        if (tty && k >= 16 && k % 8 == 0) {
            fprintf(stderr, "\r thinking %s %.1fs ", s->unicode ? spin_u[k / 8 % 8] : spin_a[k / 8 % 8],
                    cli_now() - t0);
            fflush(stderr);
        }
        k++;
        struct timespec ts = {0, (k < 16 ? 1 : 10) * 1000 * 1000};
        nanosleep(&ts, NULL);
    }
    if (tty)
        fprintf(stderr, "\r                         \r");
    pthread_mutex_destroy(&t.mu);
    if (t.ans.status != TAV_OK)
        return -1;
    tav_session_move_str(s->gs, t.ans.best, mv, n);
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

/* List the legal moves that fit a partial or wrong entry, after the
 * explanation `why` (may be ""). */
static void suggest(session *s, const char *entry, const char *why)
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
    char head[400], qe[41], qw[301], said[300];
    cli_tr_text(s->lang, why, said, sizeof said);
    size_t wl = strlen(said);
    tavi_quote(qe, sizeof qe, entry, 40);
    tavi_quote(qw, sizeof qw, said, 300);
    tavi_bprintf(head, sizeof head, cli_tr(s->lang, "'%s' is not a legal move%s%s%s"), qe, why[0] ? ": " : "", qw,
                wl && why[wl - 1] == '?' ? "" : ".");
    if (total == 0)
        snprintf(s->message, sizeof s->message,
                 cli_tr(s->lang, "%s No legal move fits it. Type 'moves' for the list, 'help' for help."), head);
    else
        tavi_bprintf(s->message, sizeof s->message, cli_tr(s->lang, "%s Moves that fit (%d):%s%s"), head, total, out,
                 total > shown ? " ..." : "");
}

/* Save the game as a record; 0 or -1 with a message. */
static int save(session *s, const char *path)
{
    char *all = tav_session_record_all(s->gs, s->side[0].text, s->side[1].text);
    if (!all)
        return -1;
    /* Before the end, a hidden deal is written sealed (docs/records.md). */
    char *text = all, pub[400], err[400];
    if (tav_session_to_move(s->gs) != TAV_NONE) {
        tav_session_public_options(s->gs, pub, sizeof pub);
        text = cli_seal_record(all, pub, err, sizeof err);
        free(all);
        if (!text) {
            char qe[301];
            tavi_quote(qe, sizeof qe, err, 300);
            tavi_bprintf(s->message, sizeof s->message, cli_tr(s->lang, "not saved: %s"), qe);
            return -1;
        }
    }
    char qp[201];   /* the path as quoted in messages */
    tavi_quote(qp, sizeof qp, path, 200);
    FILE *f = fopen(path, "w");
    if (!f) {
        free(text);
        tavi_bprintf(s->message, sizeof s->message, cli_tr(s->lang, "cannot write %s"), qp);
        return -1;
    }
    fputs(text, f);
    int bad = fclose(f) != 0;
    free(text);
    tavi_bprintf(s->message, sizeof s->message, bad ? cli_tr(s->lang, "error writing %s") : cli_tr(s->lang, "saved to %s"), qp);
    return bad ? -1 : 0;
}

static void help(session *s)
{
    snprintf(s->message, sizeof s->message,
             cli_tr(s->lang, "Type a move in the game's notation (docs/rules/%s.md; a unique beginning is enough), or: "
                             "moves, undo, hint, save FILE, resign, help, quit."),
             s->g->name);
}

/* Ask a yes/no/save question: 'y', 'n' or 's'; 'y' at the end of input. */
static int confirm(cli_lang lang, const char *q)
{
    char ans[64];
    for (;;) {
        printf(" %s", q);
        fflush(stdout);
        int r = cli_read_line(stdin, ans, sizeof ans);
        if (r == 0) {
            printf("\n");
            return 'y';
        }
        char c = r == 1 ? ans[strspn(ans, " \t")] : '?';
        if (c == 'y' || c == 'Y')
            return 'y';
        if (c == 'n' || c == 'N' || c == '\0')
            return 'n';
        if (c == 's' || c == 'S')
            return 's';
        printf("%s", cli_tr(lang, " Please answer y, n or s.\n"));
    }
}

/* Ask for a file name and save; 0 when saved. */
static int save_asking(session *s)
{
    char ans[300], q[128];
    snprintf(q, sizeof q, cli_tr(s->lang, " file name [%s.rec]: "), s->g->name);
    printf("%s", q);
    fflush(stdout);
    if (cli_read_line(stdin, ans, sizeof ans) != 1)
        ans[0] = '\0';
    char *p = ans + strspn(ans, " \t");
    size_t n = strlen(p);
    while (n > 0 && (p[n - 1] == ' ' || p[n - 1] == '\t'))
        p[--n] = '\0';
    char def[64];
    snprintf(def, sizeof def, "%s.rec", s->g->name);
    int rc = save(s, n ? p : def);
    say(s);
    return rc;
}

/* One line of a game's own move list layout (the first one continues the
 * sentence " N legal moves"). */
static void print_line(void *ctx, const char *line)
{
    (void)ctx;
    printf("%s\n", line);
}

/* Print the legal moves, grouped so a long list can be read: by the game's
 * own layout (list_moves: Urbino by architect move and building) or by its
 * move groups (move_group: Cathedral by building, Epaminondas by the rear
 * square). */
static void print_moves(session *s)
{
    char *a = moves_text(s);
    if (!a)
        return;
    if (!a[5]) {
        free(a);
        printf("%s", cli_tr(s->lang, " (no legal move)\n"));
        return;
    }
    char *list = a;
    memmove(list, a + 6, strlen(a + 6) + 1);
    int n = 0;
    for (char *c = list; *c; c++)
        n += *c == ' ';
    n++;
    printf(n == 1 ? cli_tr(s->lang, " %d legal move") : cli_tr(s->lang, " %d legal moves"), n);
    if (s->g->list_moves && n > 12) {
        char **mv = malloc(sizeof *mv * (size_t)n);
        if (mv) {
            int k = 0;
            char *save_ptr = NULL;
            for (char *m = strtok_r(list, " ", &save_ptr); m && k < n; m = strtok_r(NULL, " ", &save_ptr))
                mv[k++] = m;
            s->g->list_moves(mv, k, print_line, NULL);
            free(mv);
        }
        free(list);
        return;
    }
    printf(":\n");
    /* Group key and rest of each move. */
    char cur[TAV_MOVE_TEXT] = "\x01";
    int col = 0;
    char *save_ptr = NULL;
    for (char *mv = strtok_r(list, " ", &save_ptr); mv; mv = strtok_r(NULL, " ", &save_ptr)) {
        char key[TAV_MOVE_TEXT] = "", rest[TAV_MOVE_TEXT];
        snprintf(rest, sizeof rest, "%s", mv);
        if (n > 12 && s->g->move_group)
            s->g->move_group(mv, key, sizeof key);
        if (strcmp(key, cur) != 0) {
            snprintf(cur, sizeof cur, "%s", key);
            printf("%s  %s%s", col ? "\n" : "", key, key[0] ? ":" : "");
            col = 2 + (int)strlen(key) + 1;
        }
        if (col + 1 + (int)strlen(rest) > 100) {
            printf("\n     ");
            col = 5;
        }
        printf(" %s", rest);
        col += 1 + (int)strlen(rest);
    }
    printf("\n");
    free(list);
}

/* Toscana's decision, in plain words, before the deciding player's prompt. */
static void explain_decision(session *s, int side)
{
    tav_board_view *v = calloc(1, sizeof *v);
    if (!v)
        return;
    tav_game_board_view(s->g, tav_session_state(s->gs), viewer_of(s), v);
    if (strcmp(v->phase, "decision") == 0) {
        const char *id = "";
        for (int k = 0; k < v->side[1 - side].nitems; k++)
            if (v->side[1 - side].item[k].kind == 'S')
                id = v->side[1 - side].item[k].id;
        const char *me = cli_side(s->lang, side), *them = cli_side(s->lang, 1 - side);
        printf(cli_tr(s->lang, " Decision for %s: %s is about to place tile %s (drawn above).\n"
                               "   accept: %s places it; you keep your veto.\n"
                               "   veto:   it goes to the bottom of %s's stack and %s places the next tile instead;\n"
                               "           you can veto only once in the game.\n"),
               me, them, id, them, them, them);
    }
    free(v);
}

enum { TURN_MOVED, TURN_QUIT };

/* The human's turn: reads until a move is played (or undone, or the game is
 * resigned): TURN_MOVED; TURN_QUIT to leave.  Help, refused moves, hints
 * and saves answer under the prompt without drawing the board again. */
static int human_turn(session *s, int side)
{
    char line[512];
    explain_decision(s, side);
    for (;;) {
        printf(cli_tr(s->lang, " %s to move> "), cli_side(s->lang, side));
        fflush(stdout);
        int r = cli_read_line(stdin, line, sizeof line);
        if (r == 0)
            return TURN_QUIT;
        char *p = line;
        while (*p == ' ' || *p == '\t')
            p++;
        size_t n = strlen(p);
        while (n > 0 && (p[n - 1] == ' ' || p[n - 1] == '\t'))
            p[--n] = '\0';
        if (r == 2 || r == 3) {
            printf("%s", r == 2 ? cli_tr(s->lang, " That line is too long.\n") : cli_tr(s->lang, " That line holds a control character.\n"));
            continue;
        }
        if (n == 0)
            continue;
        if (strcmp(p, "quit") == 0 || strcmp(p, "exit") == 0) {
            int c = confirm(s->lang, cli_tr(s->lang, "Leave this game? y = leave without saving, s = save it first, n = go on [n]: "));
            if (c == 'y' || (c == 's' && save_asking(s) == 0))
                return TURN_QUIT;
            continue;
        }
        if (strcmp(p, "help") == 0 || strcmp(p, "?") == 0) {
            help(s);
            say(s);
            continue;
        }
        if (strcmp(p, "moves") == 0) {
            print_moves(s);
            continue;
        }
        if (strcmp(p, "board") == 0)
            return TURN_MOVED;
        if (strcmp(p, "undo") == 0) {
            /* Back to this player's previous turn (at least one ply). */
            int undone = 0;
            while (do_undo(s) == 0) {
                undone++;
                int tm = tav_session_to_move(s->gs);
                if (tm >= 0 && s->side[tm].human)
                    break;
            }
            if (undone)
                snprintf(s->message, sizeof s->message,
                         undone == 1 ? cli_tr(s->lang, "took back %d move") : cli_tr(s->lang, "took back %d moves"), undone);
            else
                snprintf(s->message, sizeof s->message, "%s", cli_tr(s->lang, "nothing to undo"));
            if (!undone) {
                say(s);
                continue;
            }
            return TURN_MOVED;
        }
        if (strcmp(p, "hint") == 0) {
            char mv[TAV_MOVE_TEXT];
            if (search_move(s, "ai", 7, mv, sizeof mv) == 0)
                snprintf(s->message, sizeof s->message, cli_tr(s->lang, "hint: %s"), mv);
            say(s);
            continue;
        }
        if (strncmp(p, "save", 4) == 0 && (p[4] == ' ' || p[4] == '\0')) {
            const char *path = p + 4;
            while (*path == ' ')
                path++;
            if (!*path)
                snprintf(s->message, sizeof s->message, "%s", cli_tr(s->lang, "save needs a file name: save FILE"));
            else
                save(s, path);
            say(s);
            continue;
        }
        if (strcmp(p, "resign") == 0) {
            int c = confirm(s->lang, cli_tr(s->lang, "Resign this game? y = resign, s = save it first, n = go on [n]: "));
            if (c == 'y' || (c == 's' && save_asking(s) == 0)) {
                tav_session_resign(s->gs, side);
                return TURN_MOVED;
            }
            continue;
        }
        if (do_play(s, p) == 0)
            return TURN_MOVED;
        char meant[TAV_MOVE_TEXT], why[200];
        int k = tavi_explain_move(s->g, tav_session_state(s->gs), p, meant, sizeof meant, why, sizeof why);
        if (k == 1 && do_play(s, meant) == 0) {
            char said[300];
            cli_tr_text(s->lang, why, said, sizeof said);
            snprintf(s->message, sizeof s->message, cli_tr(s->lang, "played %s (%s)"), meant, said);
            return TURN_MOVED;
        }
        suggest(s, p, k == 0 ? why : "");
        say(s);
    }
}

/* ------------------------------------------------------------ the end */

/* Explain the result in plain words, with the game's own breakdown. */
static void end_screen(session *s)
{
    const void *st = tav_session_state(s->gs);
    tav_result res;
    tav_session_result(s->gs, &res);
    int resigned = tav_session_resigned(s->gs);
    if (resigned != TAV_NONE) {
        printf(cli_tr(s->lang, " %s resigned: %s wins.\n"), cli_side(s->lang, resigned), cli_side(s->lang, 1 - resigned));
        return;
    }
    if (!res.over) {
        printf("%s", cli_tr(s->lang, " Game left unfinished.\n"));
        return;
    }
    int w = res.winner;
    if (w == TAV_DRAW)
        printf("%s", cli_tr(s->lang, " Game over: a draw.\n"));
    else
        printf(cli_tr(s->lang, " Game over: %s wins.\n"), cli_side(s->lang, w == TAV_WHITE ? 0 : 1));
    /* The game's own breakdown. */
    char buf[4096], said[6144];
    if (s->g->explain_result && s->g->explain_result(st, buf, sizeof buf) > 0) {
        cli_tr_text(s->lang, buf, said, sizeof said);
        fputs(said, stdout);
    }
}

/* A player as the start line names it: "human" / "una persona", else as typed. */
static const char *player_text(cli_lang lang, const pspec *p)
{
    if (strcmp(p->text, "human") == 0)
        return cli_tr(lang, "human");
    if (strcmp(p->text, "random") == 0)
        return cli_tr(lang, "random");
    return p->text;
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
    if (strncmp(t, "ai:level=", 9) == 0 && tavi_parse_uint(t + 9, 10, &v) == 0 && v >= 1 && v <= 10) {
        snprintf(p->kind, sizeof p->kind, "ai");
        p->level = (int)v;
        return 0;
    }
    return -1;
}

/* Ask a question on the terminal: the answer trimmed and lower-cased, 0;
 * -1 at the end of input. */
static int ask(cli_lang lang, const char *q, char *ans, size_t n)
{
    printf("%s", q);
    fflush(stdout);
    int r;
    while ((r = cli_read_line(stdin, ans, n)) == 2 || r == 3) {
        printf(cli_tr(lang, "That answer is not readable. %s"), q);
        fflush(stdout);
    }
    if (r == 0) {
        printf("\n");
        return -1;
    }
    char *p = ans;
    while (*p == ' ' || *p == '\t')
        p++;
    size_t len = strlen(p);
    memmove(ans, p, len + 1);
    while (len > 0 && (ans[len - 1] == ' ' || ans[len - 1] == '\t'))
        ans[--len] = '\0';
    for (char *c = ans; *c; c++)
        if (*c >= 'A' && *c <= 'Z')
            *c = (char)(*c - 'A' + 'a');
    return 0;
}

/* Ask to choose one of n answers, by number or by name (or a prefix of a
 * name); Enter picks the first.  The chosen index, or -1 at the end of input.
 * A wrong answer is explained and the question asked again. */
static int choose(cli_lang lang, const char *q, const char *const *names, const char *const *labels, int n)
{
    char ans[128];
    for (int i = 0; i < n; i++)
        printf("  %d) %s\n", i + 1, labels[i]);
    for (;;) {
        if (ask(lang, q, ans, sizeof ans) != 0)
            return -1;
        if (!ans[0])
            return 0;
        uint64_t v;
        if (tavi_parse_uint(ans, 10, &v) == 0 && v >= 1 && v <= (uint64_t)n)
            return (int)v - 1;
        int hit = -1, hits = 0;
        for (int i = 0; i < n; i++) {
            if (strcmp(ans, names[i]) == 0) {
                hit = i;
                hits = 1;
                break;
            }
            if (strncmp(ans, names[i], strlen(ans)) == 0) {
                hit = i;
                hits++;
            }
        }
        if (hits == 1)
            return hit;
        char qa[41];
        tavi_quote(qa, sizeof qa, ans, 40);
        printf(cli_tr(lang, "'%s' is not one of the choices: type a number from 1 to %d, a name, or Enter for %s.\n"),
               qa, n, names[0]);
    }
}

/* The start menu: game, its variant, opponent, side and level.  Fills the
 * game name, options and both players; 0, or -1 when the input ended. */
static int menu(cli_lang lang, char *game, size_t gn, char *options, size_t on, char *white, char *black, size_t pn)
{
    /* The games and their labels come from the registry. */
    enum { MAX_GAMES = 16 };
    const char *games[MAX_GAMES], *game_labels[MAX_GAMES];
    int ng = 0;
    for (int i = 0; i < tav_game_count() && ng < MAX_GAMES; i++) {
        const tav_game *gi = tav_game_at(i);
        games[ng] = gi->name;
        game_labels[ng++] = gi->title ? gi->title : gi->name;
    }
    printf("%s", cli_tr(lang, "Tavoliere \xe2\x80\x94 which game?\n"));
    int k = choose(lang, cli_tr(lang, "game [1]: "), games, game_labels, ng);
    if (k < 0)
        return -1;
    snprintf(game, gn, "%s", games[k]);
    options[0] = '\0';
    /* The option the game's menu asks about (Urbino's variant, Cathedral's opening). */
    const tav_choice *ch = tav_game_at(k)->menu;
    if (ch) {
        int nv = 0;
        while (ch->values[nv])
            nv++;
        char q[64];
        snprintf(q, sizeof q, "%s [1]: ", ch->key);
        printf("%s\n", ch->question);
        if (ch->note)
            printf("%s\n", ch->note);
        int c = choose(lang, q, ch->values, ch->labels, nv);
        if (c < 0)
            return -1;
        snprintf(options, on, "%s=%s", ch->key, ch->values[c]);
    }
    static const char *const opp[] = {"computer", "people"};
    const char *const oppl[] = {cli_tr(lang, "against the computer"), cli_tr(lang, "two people at one screen")};
    printf("%s", cli_tr(lang, "Who plays?\n"));
    int o = choose(lang, cli_tr(lang, "players [1]: "), opp, oppl, 2);
    if (o < 0)
        return -1;
    if (o == 1) {
        snprintf(white, pn, "human");
        snprintf(black, pn, "human");
        return 0;
    }
    static const char *const sides[] = {"white", "black"};
    /* Who moves first depends on the game (Urbino: black places the first
     * architect) and may depend on its options: ask the rules. */
    const tav_game *g0 = tav_game_at(k);
    int first = TAV_WHITE;
    void *st0 = malloc(g0->state_size);
    char err0[128];
    if (st0 && tav_game_setup(g0, st0, options, 1, err0, sizeof err0) == TAV_OK)
        first = g0->to_move(st0);
    free(st0);
    const char *sidel[] = {first == TAV_WHITE ? cli_tr(lang, "white (moves first)") : cli_tr(lang, "white"),
                           first == TAV_BLACK ? cli_tr(lang, "black (moves first)") : cli_tr(lang, "black")};
    printf("%s", cli_tr(lang, "Which side do you play?\n"));
    if (g0->side_note)
        printf("%s\n", g0->side_note);
    int sd = choose(lang, cli_tr(lang, "side [1]: "), sides, sidel, 2);
    if (sd < 0)
        return -1;
    char ans[128];
    uint64_t lvl = 5;
    /* The levels' measured strength in this game (docs/levels.md). */
    const tav_game *gk = tav_game_at(k);
    printf("%s", cli_tr(lang, "Levels, rated on a scale where random moves are 0 (docs/levels.md):\n"));
    for (int l = 1; l <= 10; l++) {
        int r = tav_level_rating(gk, l);
        if (r >= 0)
            printf(cli_tr(lang, "  level %2d \xe2\x80\x94 about %d\n"), l, (r + 25) / 50 * 50);
        else
            printf(cli_tr(lang, "  level %2d \xe2\x80\x94 not rated yet\n"), l);
    }
    for (;;) {
        if (ask(lang, cli_tr(lang, "AI level, 1 (weakest) to 10 (strongest) [5]: "), ans, sizeof ans) != 0)
            return -1;
        if (!ans[0])
            break;
        if (tavi_parse_uint(ans, 10, &lvl) == 0 && lvl >= 1 && lvl <= 10)
            break;
        char qa[41];
        tavi_quote(qa, sizeof qa, ans, 40);
        printf(cli_tr(lang, "'%s' is not a level: type a number from 1 to 10, or Enter for 5.\n"), qa);
        lvl = 5;
    }
    char ai[32];
    snprintf(ai, sizeof ai, "ai:level=%d", (int)lvl);
    snprintf(white, pn, "%s", sd == 0 ? "human" : ai);
    snprintf(black, pn, "%s", sd == 0 ? ai : "human");
    return 0;
}

int cli_play(int argc, char **argv)
{
    session s;
    memset(&s, 0, sizeof s);
    const char *load_path = NULL, *game = NULL;
    const char *white = NULL, *black = NULL, *lang_arg = NULL;
    size_t ol = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--white") == 0 && i + 1 < argc)
            white = argv[++i];
        else if (strcmp(argv[i], "--black") == 0 && i + 1 < argc)
            black = argv[++i];
        else if (strcmp(argv[i], "--lang") == 0 && i + 1 < argc && cli_lang_parse(argv[i + 1]) >= 0)
            lang_arg = argv[++i];
        else if (strcmp(argv[i], "--load") == 0 && i + 1 < argc)
            load_path = argv[++i];
        else if (!game && !strchr(argv[i], '=') && argv[i][0] != '-')
            game = argv[i];
        else if (strchr(argv[i], '=') && ol + strlen(argv[i]) + 2 < sizeof s.options)
            ol += (size_t)snprintf(s.options + ol, sizeof s.options - ol, "%s%s", ol ? " " : "", argv[i]);
        else {
            fprintf(stderr, "usage: tavoliere play [GAME] [KEY=VALUE ...] [--white P] [--black P] [--load FILE] [--lang it|en]\n"
                            "  P is human, random, ai, ai:level=1..10 or uct\n");
            return 2;
        }
    }
    cli_style sty = cli_style_for(stdout);
    s.lang = (cli_lang)(lang_arg ? cli_lang_parse(lang_arg) : sty.lang);
    s.unicode = sty.unicode;
    s.color = sty.color;
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
        if (tav_record_parse(text, len, &loaded, NULL, err, sizeof err) != TAV_OK) {
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
    char menu_game[32], menu_white[32], menu_black[32], menu_opts[64];
    if (!game) {
        if (menu(s.lang, menu_game, sizeof menu_game, menu_opts, sizeof menu_opts, menu_white, menu_black,
                 sizeof menu_white) != 0)
            return 0;
        game = menu_game;
        if (menu_opts[0] && ol + strlen(menu_opts) + 2 < sizeof s.options)
            ol += (size_t)snprintf(s.options + ol, sizeof s.options - ol, "%s%s", ol ? " " : "", menu_opts);
        if (!white)
            white = menu_white;
        if (!black)
            black = menu_black;
    }
    if (parse_pspec(white ? white : "human", &s.side[0]) != 0 ||
        parse_pspec(black ? black : "ai:level=5", &s.side[1]) != 0) {
        char q[256];
        tavi_quote(q, sizeof q, parse_pspec(white ? white : "human", &s.side[0]) != 0 ? white : black,
                   sizeof q - 1);
        fprintf(stderr, "tavoliere play: unknown player '%s' (a player is human, random, ai, ai:level=1..10 or uct)\n",
                q);
        tav_record_free(&loaded);
        return 2;
    }
    s.g = tav_game_find(game);
    if (!s.g) {
        char names[128], q[256];
        tavi_quote(q, sizeof q, game, sizeof q - 1);
        fprintf(stderr, "unknown game '%s' (%s)\n", q, tav_game_list(names, sizeof names));
        tav_record_free(&loaded);
        return 2;
    }
    char *base_options = s.options;
    for (int round = 0;; round++) {
        /* A fresh deal each game (Toscana's stacks) unless the options give one. */
        char err[256];
        tav_session_free(s.gs);
        s.gs = NULL;
        if (tav_session_new(&s.gs, s.g->name, s.options, (uint64_t)time(NULL) + (uint64_t)round * 7919u, err,
                            sizeof err) != TAV_OK) {
            fprintf(stderr, "error %s\n", err);
            return 2;
        }
        s.message[0] = '\0';
        for (int i = 0; i < loaded.nmoves; i++)
            if (do_play(&s, loaded.moves[i]) != 0) {
                fprintf(stderr, "cannot replay move %d\n", i + 1);
                return 1;
            }
        tav_record_free(&loaded);
        tav_record_init(&loaded);
        printf(cli_tr(s.lang, "%s%s%s%s: white is %s, black is %s. Type 'help' for help.\n"), game, base_options[0] ? " (" : "",
               base_options, base_options[0] ? ")" : "", player_text(s.lang, &s.side[0]), player_text(s.lang, &s.side[1]));
        int left = 0, drawn = 0;
        for (;;) {
            int tm = tav_session_to_move(s.gs);
            if (tm == TAV_NONE)
                break;
            if (!drawn) {
                draw(&s);
                drawn = 1;
            }
            if (s.side[tm].human) {
                if (human_turn(&s, tm) == TURN_QUIT) {
                    left = 1;
                    break;
                }
                drawn = 0;
            } else {
                char mv[TAV_MOVE_TEXT];
                if (search_move(&s, s.side[tm].kind, s.side[tm].level, mv, sizeof mv) != 0 || do_play(&s, mv) != 0)
                    break;
                snprintf(s.message, sizeof s.message, cli_tr(s.lang, "%s (%s) plays %s"), cli_side(s.lang, tm), s.side[tm].text, mv);
                drawn = 0;
            }
        }
        if (left)
            break;
        draw(&s);
        end_screen(&s);
        /* Another game, save this one, or leave. */
        int again = 0;
        for (;;) {
            char ans[64];
            printf("%s", cli_tr(s.lang, " n = another game (same players), s = save this game, q = quit [q]: "));
            fflush(stdout);
            int r = cli_read_line(stdin, ans, sizeof ans);
            char c = r == 1 ? ans[strspn(ans, " \t")] : r == 0 ? 'q' : '?';
            if (r == 0)
                printf("\n");
            if (c == 'n' || c == 'N' || c == 'y' || c == 'Y') {
                again = 1;
                break;
            }
            if (c == 's' || c == 'S') {
                save_asking(&s);
                continue;
            }
            if (c == 'q' || c == 'Q' || c == '\0')
                break;
            printf("%s", cli_tr(s.lang, " Please answer n, s or q.\n"));
        }
        if (!again)
            break;
    }
    tav_session_free(s.gs);
    return 0;
}
