/*
 * core.h — small shared helpers below every game: bit tricks, square
 * names, option parsing, hashing mixers.  No state, no allocation.
 */
#ifndef TAV_CORE_H
#define TAV_CORE_H

#include <stddef.h>
#include <stdint.h>

#include "tavoliere.h"

/* Bit tricks on 64-bit words (the one place compiler builtins are used). */
static inline int tavi_popcount(uint64_t x) { return __builtin_popcountll(x); }
static inline int tavi_ctz(uint64_t x) { return __builtin_ctzll(x); }     /* x != 0 */
static inline int tavi_clz(uint64_t x) { return __builtin_clzll(x); }     /* x != 0 */

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
 * (truncated output is NUL-terminated). */
size_t tavi_bprintf(char *buf, size_t n, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

#endif
