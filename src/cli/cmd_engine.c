/*
 * cmd_engine.c — `tavoliere engine`: the protocol on standard input/output.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli/cli.h"
#include "protocol/protocol.h"

/* Print an info line and flush, so a GUI sees thinking output at once. */
static void print_info(void *ctx, const char *line)
{
    (void)ctx;
    fputs(line, stdout);
    fputc('\n', stdout);
    fflush(stdout);
}

int cli_engine(int argc, char **argv)
{
    uint64_t seed = (uint64_t)time(NULL);
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--seed") == 0 && i + 1 < argc) {
            seed = strtoull(argv[++i], NULL, 10);
        } else if (strcmp(argv[i], "--commands") == 0) {
            for (const char *const *c = tavi_protocol_commands(); *c; c++)
                printf("%s\n", *c);
            return 0;
        } else {
            fprintf(stderr, "usage: tavoliere engine [--seed N] [--commands]\n");
            return 2;
        }
    }
    tavi_protocol *e = tavi_protocol_new(seed);
    tavi_protocol_set_service(e, cli_service());   /* go searches on the process's service */
    char *line = malloc(TAVI_PROTOCOL_MAX_LINE);
    if (!e || !line) {
        fprintf(stderr, "tavoliere: out of memory\n");
        return 1;
    }
    int r, quit = 0;
    while (!quit && (r = cli_read_line(stdin, line, TAVI_PROTOCOL_MAX_LINE)) != 0) {
        const char *answer;
        if (r == 2)
            answer = "error line too long";
        else if (r == 3)
            answer = "error control character in command";
        else
            answer = tavi_protocol_exec(e, line, print_info, NULL, &quit);
        fputs(answer, stdout);
        fputc('\n', stdout);
        fflush(stdout);
    }
    free(line);
    tavi_protocol_free(e);
    return 0;
}
