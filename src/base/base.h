/*
 * base.h — the base of the library (src/base/; once src/core, a name the
 * server's core has too): small shared helpers below every game: bit
 * tricks, square names, option parsing, hashing mixers.  No state, no
 * allocation.
 */
#ifndef TAV_BASE_H
#define TAV_BASE_H

#include <stddef.h>
#include <stdint.h>

#include "tavoliere.h"

/* Bit tricks on 64-bit words (the one place compiler builtins are used). */
static inline int tavi_popcount(uint64_t x) { return __builtin_popcountll(x); }
static inline int tavi_ctz(uint64_t x) { return __builtin_ctzll(x); }     /* x != 0 */

/* A strong 64-bit mixer (splitmix64 finaliser): Zobrist-style keys are
 * computed as tavi_mix64(feature index) instead of read from a global table. */
static inline uint64_t tavi_mix64(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

/* Square names: file letter + rank number, "a1" bottom-left.
 * tavi_square_str writes e.g. "j10" (NUL-terminated), returns its length. */
int tavi_square_str(int file, int rank, char *buf);
/* Parse a square at *s for a board of width x height; on success advances *s
 * and returns 0, setting *file and *rank (0-based).  Rejects leading zeros. */
int tavi_square_parse(const char **s, int width, int height, int *file, int *rank);

/* Option parsing: iterate the space-separated KEY=VALUE pairs of `opts`.
 * Returns 1 and fills key/value (NUL-terminated, truncated to their sizes
 * with an error) for each pair, 0 at the end, -1 on a malformed token
 * (message in err). */
typedef struct tavi_optiter { const char *p; } tavi_optiter;
int tavi_opt_next(tavi_optiter *it, char *key, size_t keyn, char *val, size_t valn,
                 char *err, size_t errlen);

/* Parse a non-negative decimal integer that fills the whole string, at most
 * `max`; returns 0 or -1. */
int tavi_parse_uint(const char *s, uint64_t max, uint64_t *out);

/* snprintf that never fails silently: returns the number of bytes written
 * (truncated output is NUL-terminated).  Output cut by the buffer's size
 * never ends inside a UTF-8 sequence: an incomplete last sequence is left
 * out (so a message quoting tavi_quote'd text stays valid UTF-8). */
size_t tavi_bprintf(char *buf, size_t n, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Untrusted text (a move, an option, a record's tag, a name) quoted in a
 * message: `%.40s` can cut a UTF-8 character in two and passes control
 * characters through, so every message that quotes input copies it with
 * tavi_quote first and prints the copy with plain %s.
 *
 * Copies at most `max` bytes of s (fewer at its NUL) into out, which has
 * room for n bytes (n >= 1), and NUL-terminates it.  The copy is valid
 * UTF-8 without control characters:
 *   - a complete, valid UTF-8 sequence (strict: no overlong form, no
 *     surrogate, nothing above U+10FFFF) is copied as it is;
 *   - a control character (U+0000..U+001F, U+007F, and U+0080..U+009F
 *     written in two bytes) becomes one '?';
 *   - every byte that does not start a valid sequence (a stray continuation
 *     byte, a lead byte without its continuations, 0xc0, 0xc1, 0xf5..0xff)
 *     becomes one '?', and the copy goes on at the next byte;
 *   - a sequence that does not fit whole in the `max` bytes (or in out) is
 *     left out, and the copy ends there: a character is never split.
 * Printable ASCII is copied byte for byte, so for ASCII text
 * tavi_quote(out, n, s, 40) gives the bytes of "%.40s".  The copy is never
 * longer than the bytes it consumed.  Returns the number of bytes of s
 * consumed: s[result] != '\0' means the text was cut.  No allocation, no
 * locale. */
size_t tavi_quote(char *out, size_t n, const char *s, size_t max);

/* One byte of untrusted text for a '%c': itself when it is printable ASCII
 * (0x20..0x7e), else '?'. */
static inline char tavi_quote_char(char c)
{
    return c >= 0x20 && c < 0x7f ? c : '?';
}

#endif
