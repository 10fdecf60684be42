/* i18n.h — the terminal's two languages (SPEC "Languages"): `tavoliere play`
 * speaks Italian when LC_ALL, else LC_MESSAGES, else LANG starts with "it"
 * (or with --lang it), English otherwise.  The catalog (i18n.c) is keyed by
 * the English text, so that the compiler checks every format string against
 * its arguments (format_arg); tests/cli_i18n.mjs checks that each Italian
 * text has the same conversions as its English one.  Move notation and the
 * commands typed (moves, undo, hint, save, resign, help, quit) stay the same
 * in both languages. */
#ifndef TAV_CLI_I18N_H
#define TAV_CLI_I18N_H

typedef enum cli_lang { CLI_EN = 0, CLI_IT = 1 } cli_lang;

/* The language the environment asks for (LC_ALL, LC_MESSAGES, LANG). */
cli_lang cli_lang_from_env(void);

/* "it" or "en" (anything else: -1). */
int cli_lang_parse(const char *s);

#if defined(__GNUC__)
__attribute__((format_arg(2)))
#endif
const char *cli_tr(cli_lang lang, const char *en);

/* The library's English sentences for people (explanations, status lines,
 * how a game was won) in `lang`: each part written by one of the library's
 * formats known to i18n_lib.c is said again in that language; the rest is
 * kept.  English: copied. */
void cli_tr_text(cli_lang lang, const char *text, char *out, size_t n);

/* A side's name in a sentence: "white" / "Bianco". */
const char *cli_side(cli_lang lang, int side);

#endif
