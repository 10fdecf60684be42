/*
 * cli.h — the subcommands of the tavoliere program (the only layer that
 * prints to a terminal or exits).
 */
#ifndef TAV_CLI_H
#define TAV_CLI_H

#include <stdio.h>

int cli_engine(int argc, char **argv);
int cli_test(int argc, char **argv);
int cli_refcheck(int argc, char **argv);
int cli_selftest(int argc, char **argv);
int cli_bench(int argc, char **argv);
int cli_match(int argc, char **argv);
int cli_check(int argc, char **argv);
int cli_replay(int argc, char **argv);
int cli_analyze(int argc, char **argv);
int cli_fuzzrecord(int argc, char **argv);
int cli_play(int argc, char **argv);

/* Read a whole file of at most max bytes (NUL-terminated heap copy; caller
 * frees); NULL with a message on failure. */
char *cli_read_file(const char *path, size_t max, size_t *len, char *err, size_t errlen);

/* Read one line of at most max-1 bytes into buf (without the newline).
 * A line holds at most max-1 bytes, its LF or CR LF ending not counted.
 * Returns 1 for a line, 0 at end of input, 2 for a line that was too long
 * (its rest is consumed and discarded), 3 for a line with a NUL byte in it
 * (buf then holds only the part before the first NUL as a string). */
int cli_read_line(FILE *f, char *buf, size_t max);

/* Monotonic wall-clock seconds. */
double cli_now(void);

#endif
