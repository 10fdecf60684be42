/*
 * fixture.c — `tavoliere test FILE.t ...`: the rules-fixture runner.
 *
 * A fixture reads like a bug report (docs/testing.md): `test TITLE`, a
 * position or some moves, then assertions in the players' notation.  Every
 * directive goes through an in-process engine session, so fixtures test the
 * protocol path that outside tools use.  A case passes when all its checks
 * pass; a file without any check fails, so an empty file cannot pass.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "base/base.h"
#include "protocol/protocol.h"

#define FX_LINE 65536

typedef struct fixture {
    tavi_protocol *e;
    const char *file;
    int line;
    char title[256];
    int case_open, case_failed, case_checks;
    int passed, failed, checks;
} fixture;

/* Report a failed check of the current case (it quotes the fixture's text
 * and the engine's answers: printed through tavi_quote). */
static void fx_fail(fixture *fx, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void fx_fail(fixture *fx, const char *fmt, ...)
{
    va_list ap;
    cli_print_quoted(stdout, "FAIL %s:%d [%s]: ", fx->file, fx->line, fx->title);
    va_start(ap, fmt);
    cli_vprint_quoted(stdout, fmt, ap);
    va_end(ap);
    fputc('\n', stdout);
    fx->case_failed = 1;
}

/* An answer cut to at most max bytes for a message, whole characters only
 * (tavi_quote); q has room for max + 1 bytes. */
static const char *fx_cut(char *q, size_t max, const char *a)
{
    tavi_quote(q, max + 1, a, max);
    return q;
}

/* Close the current case, counting it. */
static void fx_close_case(fixture *fx)
{
    if (!fx->case_open)
        return;
    if (fx->case_checks == 0)
        fx_fail(fx, "case has no checks");
    if (fx->case_failed)
        fx->failed++;
    else
        fx->passed++;
    fx->case_open = 0;
}

/* Make sure a case is open (lines before the first `test` form one). */
static void fx_open_case(fixture *fx, const char *title)
{
    fx_close_case(fx);
    snprintf(fx->title, sizeof fx->title, "%s", title);
    fx->case_open = 1;
    fx->case_failed = 0;
    fx->case_checks = 0;
}

/* Run one engine command; returns the answer (valid until the next call). */
static const char *fx_exec(fixture *fx, const char *cmd)
{
    int quit;
    return tavi_protocol_exec(fx->e, cmd, NULL, NULL, &quit);
}

/* Run a command and copy its answer into a fresh heap string. */
static char *fx_exec_dup(fixture *fx, const char *cmd)
{
    const char *a = fx_exec(fx, cmd);
    char *d = malloc(strlen(a) + 1);
    if (d)
        strcpy(d, a);
    return d;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The current legal moves as a sorted array of strings (pointing into
 * *storage, which the caller frees); returns the count, -1 on error. */
static int fx_moves(fixture *fx, char **storage, char ***list)
{
    *storage = fx_exec_dup(fx, "moves");
    *list = NULL;
    if (!*storage || strncmp(*storage, "moves", 5) != 0) {
        char q[81];
        fx_fail(fx, "moves answered '%s'", fx_cut(q, 80, *storage ? *storage : "(null)"));
        return -1;
    }
    int cap = 64, n = 0;
    char **v = malloc(sizeof(char *) * (size_t)cap);
    char *p = *storage + 5;
    while (v && *p) {
        while (*p == ' ')
            *p++ = '\0';
        if (!*p)
            break;
        if (n == cap) {
            cap *= 2;
            char **nv = realloc(v, sizeof(char *) * (size_t)cap);
            if (!nv) {
                free(v);
                v = NULL;
                break;
            }
            v = nv;
        }
        v[n++] = p;
        while (*p && *p != ' ')
            p++;
    }
    if (!v)
        return -1;
    qsort(v, (size_t)n, sizeof(char *), cmp_str);
    *list = v;
    return n;
}

static int in_list(char **list, int n, const char *m)
{
    return bsearch(&m, list, (size_t)n, sizeof(char *), cmp_str) != NULL;
}

/* Snapshot of state + position, to prove a command changed nothing. */
static char *fx_snapshot(fixture *fx)
{
    char *s = fx_exec_dup(fx, "state");
    char *p = fx_exec_dup(fx, "getposition");
    char *h = fx_exec_dup(fx, "hash");
    size_t n = (s ? strlen(s) : 0) + (p ? strlen(p) : 0) + (h ? strlen(h) : 0) + 3;
    char *all = malloc(n);
    if (all)
        snprintf(all, n, "%s|%s|%s", s ? s : "", p ? p : "", h ? h : "");
    free(s);
    free(p);
    free(h);
    return all;
}

/* Split "LEFT => RIGHT"; returns 0 and sets pointers (in place) or -1. */
static int split_arrow(char *s, char **left, char **right)
{
    char *a = strstr(s, " => ");
    if (!a) {
        size_t n = strlen(s);
        if (n >= 3 && strcmp(s + n - 3, " =>") == 0) {   /* empty right side */
            s[n - 3] = '\0';
            *left = s;
            *right = s + n;
            return 0;
        }
        return -1;
    }
    *a = '\0';
    *left = s;
    *right = a + 4;
    return 0;
}

/* Check a command answers exactly `want`. */
/* Run a command; its answer must be `want`, or one of the alternatives
 * `want` lists separated by " | ". */
static void fx_expect(fixture *fx, const char *cmd, const char *want)
{
    const char *got = fx_exec(fx, cmd);
    size_t glen = strlen(got);
    for (const char *alt = want;;) {
        const char *bar = strstr(alt, " | ");
        size_t len = bar ? (size_t)(bar - alt) : strlen(alt);
        if (len == glen && strncmp(alt, got, len) == 0)
            return;
        if (!bar)
            break;
        alt = bar + 3;
    }
    char qg[301], qw[301];
    fx_fail(fx, "'%s' answered '%s', expected '%s'", cmd, fx_cut(qg, 300, got), fx_cut(qw, 300, want));
}

/* Apply a sequence of moves with `play`. */
static void fx_play(fixture *fx, char *args)
{
    char *save, *tok = strtok_r(args, " \t", &save);
    if (!tok)
        fx_fail(fx, "play needs moves");
    for (; tok; tok = strtok_r(NULL, " \t", &save)) {
        char cmd[256];
        snprintf(cmd, sizeof cmd, "play %s", tok);
        const char *a = fx_exec(fx, cmd);
        if (strcmp(a, "ok") != 0) {
            char q[201];
            fx_fail(fx, "play %s answered '%s'", tok, fx_cut(q, 200, a));
            return;
        }
    }
}

/* legal / illegal / count / moves. */
static void fx_moves_check(fixture *fx, const char *what, char *args)
{
    char *storage, **list;
    int n = fx_moves(fx, &storage, &list);
    if (n < 0) {
        free(storage);
        return;
    }
    if (strcmp(what, "count") == 0) {
        long want = strtol(args, NULL, 10);
        if (n != want)
            fx_fail(fx, "%d legal moves, expected %ld", n, want);
        for (int i = 1; i < n; i++)
            if (strcmp(list[i - 1], list[i]) == 0)
                fx_fail(fx, "move %s listed twice", list[i]);
    } else if (strcmp(what, "moves") == 0) {
        int want_n = 0;
        char *save, *tok;
        char *copy = malloc(strlen(args) + 1);
        strcpy(copy, args);
        for (tok = strtok_r(copy, " \t", &save); tok; tok = strtok_r(NULL, " \t", &save)) {
            want_n++;
            if (!in_list(list, n, tok))
                fx_fail(fx, "expected move %s is not legal", tok);
        }
        free(copy);
        if (want_n != n)
            fx_fail(fx, "%d legal moves, expected the %d listed", n, want_n);
    } else {
        int want_legal = strcmp(what, "legal") == 0;
        char *save, *tok = strtok_r(args, " \t", &save);
        if (!tok)
            fx_fail(fx, "%s needs moves", what);
        for (; tok; tok = strtok_r(NULL, " \t", &save)) {
            int is = in_list(list, n, tok);
            if (want_legal && !is)
                fx_fail(fx, "%s should be legal but is not listed", tok);
            if (!want_legal) {
                if (is)
                    fx_fail(fx, "%s should be illegal but is listed", tok);
                char *before = fx_snapshot(fx);
                char cmd[256];
                snprintf(cmd, sizeof cmd, "play %s", tok);
                const char *a = fx_exec(fx, cmd);
                if (strncmp(a, "illegal", 7) != 0 && strncmp(a, "error", 5) != 0) {
                    char q[101];
                    fx_fail(fx, "play %s answered '%s', expected illegal", tok, fx_cut(q, 100, a));
                    if (strcmp(a, "ok") == 0)
                        fx_exec(fx, "undo");
                }
                char *after = fx_snapshot(fx);
                if (before && after && strcmp(before, after) != 0)
                    fx_fail(fx, "refusing %s changed the game", tok);
                free(before);
                free(after);
            }
        }
    }
    free(list);
    free(storage);
}

/* Execute one directive line. */
static void fx_directive(fixture *fx, char *line)
{
    char *sp = line;
    while (*sp && *sp != ' ' && *sp != '\t')
        sp++;
    char *args = sp;
    if (*sp) {
        *sp = '\0';
        args = sp + 1;
        while (*args == ' ' || *args == '\t')
            args++;
    }
    const char *d = line;
    if (!fx->case_open)
        fx_open_case(fx, "(preamble)");
    fx->case_checks++;
    fx->checks++;
    if (strcmp(d, "newgame") == 0 || strcmp(d, "undo") == 0) {
        char cmd[1024];
        snprintf(cmd, sizeof cmd, "%s %s", d, args);
        const char *a = fx_exec(fx, cmd);
        char q[201];
        if (strcmp(a, "ok") != 0)
            fx_fail(fx, "'%s' answered '%s'", cmd, fx_cut(q, 200, a));
    } else if (strcmp(d, "play") == 0) {
        fx_play(fx, args);
    } else if (strcmp(d, "legal") == 0 || strcmp(d, "illegal") == 0 || strcmp(d, "count") == 0 ||
               strcmp(d, "moves") == 0) {
        fx_moves_check(fx, d, args);
    } else if (strcmp(d, "state") == 0) {
        char t[32], o[32], w[32], s[64], want[256];
        if (sscanf(args, "%31s %31s %31s %63s", t, o, w, s) != 4) {
            fx_fail(fx, "state needs T O W A:B");
            return;
        }
        snprintf(want, sizeof want, "state tomove=%s over=%s winner=%s score=%s", t, o, w, s);
        fx_expect(fx, "state", want);
    } else if (strcmp(d, "score") == 0) {
        int a, b;
        if (sscanf(args, "%d %d", &a, &b) != 2) {
            fx_fail(fx, "score needs A B");
            return;
        }
        const char *st = fx_exec(fx, "state");
        const char *sc = strstr(st, "score=");
        char want[64];
        snprintf(want, sizeof want, "score=%d:%d", a, b);
        if (!sc || strcmp(sc, want) != 0)
            fx_fail(fx, "state is '%s', expected %s", st, want);
    } else if (strcmp(d, "probe") == 0 || strcmp(d, "expect") == 0) {
        char *l, *r;
        if (split_arrow(args, &l, &r) != 0) {
            fx_fail(fx, "%s needs 'X => Y'", d);
            return;
        }
        char cmd[1024], want[8192];
        if (strcmp(d, "probe") == 0) {
            snprintf(cmd, sizeof cmd, "probe %s", l);
            snprintf(want, sizeof want, "probe %s", r);
        } else {
            snprintf(cmd, sizeof cmd, "%s", l);
            snprintf(want, sizeof want, "%s", r);
        }
        fx_expect(fx, cmd, want);
    } else if (strcmp(d, "error") == 0) {
        char *before = fx_snapshot(fx);
        const char *a = fx_exec(fx, args);
        char q[201];
        if (strncmp(a, "error", 5) != 0 && strncmp(a, "illegal", 7) != 0)
            fx_fail(fx, "'%s' answered '%s', expected error or illegal", args, fx_cut(q, 200, a));
        char *after = fx_snapshot(fx);
        if (before && after && strcmp(before, after) != 0)
            fx_fail(fx, "'%s' changed the game", args);
        free(before);
        free(after);
    } else if (strcmp(d, "perft") == 0) {
        int depth;
        char want[64], cmd[64], count[40];
        if (sscanf(args, "%d %39s", &depth, count) != 2) {
            fx_fail(fx, "perft needs D N");
            return;
        }
        snprintf(cmd, sizeof cmd, "perft %d", depth);
        snprintf(want, sizeof want, "perft %s", count);
        fx_expect(fx, cmd, want);
    } else {
        fx->case_checks--;
        fx->checks--;
        fx_fail(fx, "unknown directive '%s'", d);
    }
}

/* Run one fixture file; returns 0 when it could be read. */
static int fx_run_file(fixture *fx, const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        printf("FAIL %s: cannot open\n", path);
        fx->failed++;
        return -1;
    }
    fx->file = path;
    fx->line = 0;
    fx->case_open = 0;
    fx->title[0] = '\0';
    int checks_before = fx->checks;
    char *line = malloc(FX_LINE);
    char *block = malloc(FX_LINE);
    int r;
    while ((r = cli_read_line(f, line, FX_LINE)) != 0) {
        fx->line++;
        if (r == 2) {
            fx_fail(fx, "line too long");
            continue;
        }
        char *s = line;
        while (*s == ' ' || *s == '\t')
            s++;
        size_t n = strlen(s);
        while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t'))
            s[--n] = '\0';
        if (*s == '\0' || *s == '#')
            continue;
        if (strncmp(s, "test ", 5) == 0 || strcmp(s, "test") == 0) {
            fx_open_case(fx, s[4] ? s + 5 : "(untitled)");
            continue;
        }
        if (strcmp(s, "position") == 0) {
            int start = fx->line, closed = 0;
            size_t len = (size_t)snprintf(block, FX_LINE, "position ");
            while ((r = cli_read_line(f, line, FX_LINE)) != 0) {
                fx->line++;
                char *t = line;
                while (*t == ' ' || *t == '\t')
                    t++;
                size_t tn = strlen(t);
                while (tn > 0 && (t[tn - 1] == ' ' || t[tn - 1] == '\t'))
                    t[--tn] = '\0';
                if (strcmp(t, "end") == 0) {
                    closed = 1;
                    break;
                }
                if (len + tn + 2 < FX_LINE) {
                    if (len > 9)
                        block[len++] = '/';
                    memcpy(block + len, t, tn);
                    len += tn;
                    block[len] = '\0';
                }
            }
            if (!fx->case_open)
                fx_open_case(fx, "(preamble)");
            fx->case_checks++;
            fx->checks++;
            if (!closed) {
                fx->line = start;
                fx_fail(fx, "position block without end");
                break;
            }
            const char *a = fx_exec(fx, block);
            char q[301];
            if (strcmp(a, "ok") != 0)
                fx_fail(fx, "position answered '%s'", fx_cut(q, 300, a));
            continue;
        }
        fx_directive(fx, s);
    }
    fx_close_case(fx);
    if (fx->checks == checks_before) {
        printf("FAIL %s: no checks in file\n", path);
        fx->failed++;
    }
    free(line);
    free(block);
    fclose(f);
    return 0;
}

int cli_test(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: tavoliere test FILE.t ...\n");
        return 2;
    }
    fixture fx = {0};
    fx.e = tavi_protocol_new(1);
    if (!fx.e) {
        fprintf(stderr, "tavoliere: out of memory\n");
        return 1;
    }
    for (int i = 1; i < argc; i++) {
        int before_p = fx.passed, before_f = fx.failed;
        fx_run_file(&fx, argv[i]);
        printf("  %-36s %3d cases ok, %d failing\n", argv[i], fx.passed - before_p, fx.failed - before_f);
    }
    tavi_protocol_free(fx.e);
    printf("fixtures: %d checks\n", fx.checks);
    printf("%d passed, %d failed\n", fx.passed, fx.failed);
    return fx.failed ? 1 : 0;
}
