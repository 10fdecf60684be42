/*
 * cli.h — the subcommands of the tavoliere program (the only layer that
 * prints to a terminal or exits).
 */
#ifndef TAV_CLI_H
#define TAV_CLI_H

#include <stdarg.h>
#include <stdio.h>

#include "tavoliere_search.h"

#include "tavoliere.h"

int cli_engine(int argc, char **argv);
int cli_test(int argc, char **argv);
int cli_refcheck(int argc, char **argv);
int cli_selftest(int argc, char **argv);
int cli_servicebench(int argc, char **argv);
int cli_match(int argc, char **argv);
int cli_check(int argc, char **argv);
int cli_replay(int argc, char **argv);
int cli_analyze(int argc, char **argv);
int cli_fuzzrecord(int argc, char **argv);
int cli_play(int argc, char **argv);
/* tavoliere bot: an engine plays on a server as a bot account (bot.c, docs/bots.md). */
int cli_bot(int argc, char **argv);

/* Read a whole file of at most max bytes (NUL-terminated heap copy; caller
 * frees); NULL with a message on failure. */
char *cli_read_file(const char *path, size_t max, size_t *len, char *err, size_t errlen);

/* Read one line of at most max-1 bytes into buf (without the newline).
 * A line holds at most max-1 bytes, its LF or CR LF ending not counted.
 * Returns 1 for a line, 0 at end of input, 2 for a line that was too long
 * (its rest is consumed and discarded), 3 for a line with a NUL byte in it
 * (buf then holds only the part before the first NUL as a string). */
int cli_read_line(FILE *f, char *buf, size_t max);

/* Print a message that quotes input (a test file's lines, the engine's
 * answers) to f, no newline added: formatted, then passed whole through
 * tavi_quote (src/base/base.h), so what reaches the terminal is valid UTF-8
 * without control characters; ASCII text prints as it is. */
void cli_vprint_quoted(FILE *f, const char *fmt, va_list ap) __attribute__((format(printf, 2, 0)));
void cli_print_quoted(FILE *f, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* How to draw on a terminal: colours (ANSI) and Unicode glyphs. */
typedef struct cli_style {
    int color, unicode;
    int lang;             /* cli_lang (cli/i18n.h): the language the texts are in */
} cli_style;

/* The style for a stream: colours when it is a terminal and NO_COLOR is not
 * set, Unicode when the locale is UTF-8. */
cli_style cli_style_for(FILE *f);

/* Draw the board of a state as `viewer` (TAV_WHITE, TAV_BLACK or
 * TAV_SPECTATOR) may see it: board, hands, score, game-specific lines. */
void cli_draw(FILE *out, const tav_game *g, const void *st, int viewer, const cli_style *sty);

/* Sealed deals (seal.c): a record text with its WhiteStack/BlackStack tags
 * replaced by one Sealed tag (the stacks encrypted with the user's key) and
 * its Options replaced by `public_options`; a heap copy when nothing is
 * hidden; NULL with a message on failure. */
char *cli_seal_record(const char *text, const char *public_options, char *err, size_t errlen);
/* Put a sealed record's stacks back in place (text is a heap string of len
 * bytes, replaced); 0 when done or nothing was sealed, -1 with a message. */
int cli_unseal_record(char **text, size_t *len, char *err, size_t errlen);

/* The process's search service (cli_service.c): made at the first call,
 * freed at exit; NULL when it cannot be made. */
tav_service *cli_service(void);

/* Monotonic wall-clock seconds. */
double cli_now(void);

#endif
