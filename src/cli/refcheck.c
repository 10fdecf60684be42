/*
 * refcheck.c — `tavoliere refcheck FILE ...`: replay reference traces.
 *
 * A trace (tests/ref/<game>.txt) holds blocks: a `newgame` line, then one
 * line per ply `COUNT | STATE LINE | MOVE`, then `end | STATE LINE`.  Each
 * block is one test: at every ply the number of legal moves and the state
 * line must match and the move must play.  The runner also asserts that the
 * file held at least one block and counts the plies it checked.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "protocol/protocol.h"

/* Trim blanks at both ends, in place. */
static char *trim(char *s)
{
    while (*s == ' ' || *s == '\t')
        s++;
    size_t n = strlen(s);
    while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t'))
        s[--n] = '\0';
    return s;
}

/* Number of space-separated moves in a `moves` answer. */
static int count_moves(const char *a)
{
    int n = 0;
    for (const char *p = a + 5; *p; p++)
        if (*p == ' ')
            n++;
    return n;
}

typedef struct refrun {
    tavi_protocol *e;
    int passed, failed, plies;
    int in_block, block_failed;
} refrun;

static void ref_close(refrun *r)
{
    if (!r->in_block)
        return;
    if (r->block_failed)
        r->failed++;
    else
        r->passed++;
    r->in_block = 0;
}

/* Check one `COUNT | STATE | MOVE` or `end | STATE` line. */
static void ref_ply(refrun *r, const char *file, int lineno, char *line)
{
    char *bar1 = strchr(line, '|');
    if (!bar1) {
        printf("FAIL %s:%d: expected 'COUNT | STATE | MOVE'\n", file, lineno);
        r->block_failed = 1;
        return;
    }
    *bar1 = '\0';
    char *count = trim(line), *rest = bar1 + 1;
    char *bar2 = strchr(rest, '|');
    char *move = NULL;
    if (bar2) {
        *bar2 = '\0';
        move = trim(bar2 + 1);
    }
    char *state = trim(rest);
    int quit;
    const char *a = tavi_protocol_exec(r->e, "moves", NULL, NULL, &quit);
    int n = strncmp(a, "moves", 5) == 0 ? count_moves(a) : -1;
    if (strcmp(count, "end") == 0) {
        if (n != 0) {
            printf("FAIL %s:%d: %d legal moves at the end, expected none\n", file, lineno, n);
            r->block_failed = 1;
        }
    } else if (n != atoi(count)) {
        cli_print_quoted(stdout, "FAIL %s:%d: %d legal moves, expected %s", file, lineno, n, count);
        putchar('\n');
        r->block_failed = 1;
    }
    a = tavi_protocol_exec(r->e, "state", NULL, NULL, &quit);
    if (strcmp(a, state) != 0) {
        cli_print_quoted(stdout, "FAIL %s:%d: '%s', expected '%s'", file, lineno, a, state);
        putchar('\n');
        r->block_failed = 1;
    }
    r->plies++;
    if (move) {
        char cmd[256];
        snprintf(cmd, sizeof cmd, "play %s", move);
        a = tavi_protocol_exec(r->e, cmd, NULL, NULL, &quit);
        if (strcmp(a, "ok") != 0) {
            cli_print_quoted(stdout, "FAIL %s:%d: play %s answered '%s'", file, lineno, move, a);
            putchar('\n');
            r->block_failed = 1;
        }
    }
}

int cli_refcheck(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: tavoliere refcheck FILE ...\n");
        return 2;
    }
    refrun r = {0};
    r.e = tavi_protocol_new(1);
    char *line = malloc(65536);
    if (!r.e || !line) {
        fprintf(stderr, "tavoliere: out of memory\n");
        return 1;
    }
    for (int i = 1; i < argc; i++) {
        FILE *f = fopen(argv[i], "r");
        if (!f) {
            printf("FAIL %s: cannot open\n", argv[i]);
            r.failed++;
            continue;
        }
        int lineno = 0, blocks = 0, before_p = r.passed, before_f = r.failed, rr;
        while ((rr = cli_read_line(f, line, 65536)) != 0) {
            lineno++;
            char *s = trim(line);
            if (!*s || *s == '#')
                continue;
            if (strncmp(s, "newgame ", 8) == 0 || strcmp(s, "newgame") == 0) {
                ref_close(&r);
                r.in_block = 1;
                r.block_failed = 0;
                blocks++;
                int quit;
                const char *a = tavi_protocol_exec(r.e, s, NULL, NULL, &quit);
                if (strcmp(a, "ok") != 0) {
                    cli_print_quoted(stdout, "FAIL %s:%d: '%s' answered '%s'", argv[i], lineno, s, a);
                    putchar('\n');
                    r.block_failed = 1;
                }
                continue;
            }
            if (!r.in_block) {
                printf("FAIL %s:%d: ply line before any newgame\n", argv[i], lineno);
                r.failed++;
                continue;
            }
            if (!r.block_failed)   /* after the first mismatch the rest is noise */
                ref_ply(&r, argv[i], lineno, s);
        }
        ref_close(&r);
        fclose(f);
        if (blocks == 0) {
            printf("FAIL %s: no games in file\n", argv[i]);
            r.failed++;
        }
        printf("  %-36s %3d games ok, %d failing\n", argv[i], r.passed - before_p, r.failed - before_f);
    }
    printf("reference traces: %d plies checked\n", r.plies);
    printf("%d passed, %d failed\n", r.passed, r.failed);
    free(line);
    tavi_protocol_free(r.e);
    return r.failed ? 1 : 0;
}
