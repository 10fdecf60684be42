/*
 * main.c — `tavoliere COMMAND ...`: dispatch to the subcommands.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli/cli.h"
#include "base/base.h"
#include "bench/bench.h"
#include "server/server.h"

typedef struct subcommand {
    const char *name;
    int (*run)(int argc, char **argv);
    const char *help;
} subcommand;

static int cli_help(int argc, char **argv);
static int cmd_bench(int argc, char **argv);

static const subcommand subcommands[] = {
    {"play", cli_play, "play in the terminal: tavoliere play [GAME] [K=V ...] [--white P] [--black P] [--load FILE]"},
    {"engine", cli_engine, "speak the engine protocol on standard input/output (docs/protocol.md)"},
    {"bench", cmd_bench, "deterministic benchmark: signature and speed per game"},
    {"servicebench", cli_servicebench, "many sessions, searches on a small pool: tavoliere servicebench [--sessions N] [--workers N]"},
    {"match", cli_match, "computer-vs-computer match: tavoliere match GAME --a P --b P ..."},
    {"check", cli_check, "validate game records: tavoliere check FILE ..."},
    {"replay", cli_replay, "step through a game record: tavoliere replay FILE [--step]"},
    {"analyze", cli_analyze, "annotate a record with the engine's evaluation: tavoliere analyze FILE"},
    {"fuzzrecord", cli_fuzzrecord, "fuzz the record parser: tavoliere fuzzrecord [--seconds S] [--seed N]"},
    {"bot", cli_bot, "an engine plays on a server as a bot: tavoliere bot --server URL --token TOKEN [--engine CMD] [--level N] [--games K]"},
    {"serve", server_main, "the game server and web UI: tavoliere serve [--host ADDR] [--port N] [--db PATH] [--web DIR]"},
    {"admin", admin_main, "the operator's tool: tavoliere admin --db URL reports|log|mute|unmute|ban|unban [NAME]"},
    {"test", cli_test, "run rules fixtures: tavoliere test FILE.t ..."},
    {"refcheck", cli_refcheck, "replay reference traces: tavoliere refcheck FILE ..."},
    {"selftest", cli_selftest, "random-playout invariants for every game"},
    {"help", cli_help, "this list"},
};

static int cli_help(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    printf("usage: tavoliere COMMAND [ARGS]\n\ncommands:\n");
    for (size_t i = 0; i < sizeof subcommands / sizeof subcommands[0]; i++)
        printf("  %-9s %s\n", subcommands[i].name, subcommands[i].help);
    return 0;
}

int cli_read_line(FILE *f, char *buf, size_t max)
{
    size_t n = 0;
    int c, nul = 0;
    while ((c = getc(f)) != EOF && c != '\n') {
        if (n + 1 >= max) {
            /* Full: only the line's end (LF or CR LF) may follow. */
            if (c == '\r' && (c = getc(f)) == '\n')
                break;
            while (c != EOF && c != '\n')
                c = getc(f);
            buf[n] = '\0';
            return 2;
        }
        if (c == '\0')
            nul = 1;
        buf[n++] = (char)c;
    }
    buf[n] = '\0';
    if (c == EOF && n == 0)
        return 0;
    if (n > 0 && buf[n - 1] == '\r')
        buf[--n] = '\0';
    return nul ? 3 : 1;
}

void cli_vprint_quoted(FILE *f, const char *fmt, va_list ap)
{
    va_list aq;
    va_copy(aq, ap);
    int k = vsnprintf(NULL, 0, fmt, aq);
    va_end(aq);
    if (k < 0)
        return;
    char *raw = malloc(2 * ((size_t)k + 1));
    if (!raw) {
        fputs("(a message was lost: out of memory)", f);
        return;
    }
    char *clean = raw + (size_t)k + 1;
    vsnprintf(raw, (size_t)k + 1, fmt, ap);
    tavi_quote(clean, (size_t)k + 1, raw, (size_t)k);
    fputs(clean, f);
    free(raw);
}

void cli_print_quoted(FILE *f, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    cli_vprint_quoted(f, fmt, ap);
    va_end(ap);
}

/* `tavoliere bench`: the shared benchmark (src/bench), on the terminal. */
static int cmd_bench(int argc, char **argv) { return bench_run(argc, argv, stdout, stderr); }

double cli_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        cli_help(argc, argv);
        return 2;
    }
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)
        return cli_help(argc - 1, argv + 1);
    for (size_t i = 0; i < sizeof subcommands / sizeof subcommands[0]; i++)
        if (strcmp(argv[1], subcommands[i].name) == 0)
            return subcommands[i].run(argc - 1, argv + 1);
    char q[256];
    tavi_quote(q, sizeof q, argv[1], sizeof q - 1);
    fprintf(stderr, "tavoliere: unknown command '%s' (try: tavoliere help)\n", q);
    return 2;
}
