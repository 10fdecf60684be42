/*
 * base.c — square names, option parsing, random numbers.
 */
#include "base.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

int tavi_square_str(int file, int rank, char *buf)
{
    /* By hand, not sprintf: move texts are written for every legal move. */
    int n = 0, r = rank + 1;
    buf[n++] = (char)('a' + file);
    if (r < 0 || r >= 1000)
        return sprintf(buf, "%c%d", 'a' + file, r);
    if (r >= 100)
        buf[n++] = (char)('0' + r / 100);
    if (r >= 10)
        buf[n++] = (char)('0' + r / 10 % 10);
    buf[n++] = (char)('0' + r % 10);
    buf[n] = 0;
    return n;
}

int tavi_square_parse(const char **s, int width, int height, int *file, int *rank)
{
    const char *p = *s;
    if (*p < 'a' || *p >= 'a' + width)
        return -1;
    int f = *p++ - 'a';
    if (*p < '1' || *p > '9')
        return -1;
    int r = 0;
    int digits = 0;
    while (*p >= '0' && *p <= '9' && digits < 3) {
        r = r * 10 + (*p++ - '0');
        digits++;
    }
    if (r < 1 || r > height)
        return -1;
    *file = f;
    *rank = r - 1;
    *s = p;
    return 0;
}

int tavi_opt_next(tavi_optiter *it, char *key, size_t keyn, char *val, size_t valn,
                 char *err, size_t errlen)
{
    const char *p = it->p;
    while (*p == ' ' || *p == '\t')
        p++;
    if (*p == '\0') {
        it->p = p;
        return 0;
    }
    const char *start = p;
    while (*p && *p != ' ' && *p != '\t')
        p++;
    size_t len = (size_t)(p - start);
    it->p = p;
    const char *eq = memchr(start, '=', len);
    char q[41];
    if (!eq || eq == start) {
        tavi_quote(q, sizeof q, start, len > 40 ? 40 : len);
        tavi_bprintf(err, errlen, "expected KEY=VALUE, got '%s'", q);
        return -1;
    }
    size_t kl = (size_t)(eq - start), vl = len - kl - 1;
    if (kl >= keyn || vl >= valn) {
        tavi_quote(q, sizeof q, start, 20);
        tavi_bprintf(err, errlen, "option too long: '%s...'", q);
        return -1;
    }
    memcpy(key, start, kl);
    key[kl] = '\0';
    memcpy(val, eq + 1, vl);
    val[vl] = '\0';
    return 1;
}

int tavi_parse_uint(const char *s, uint64_t max, uint64_t *out)
{
    if (!*s)
        return -1;
    uint64_t v = 0;
    for (; *s; s++) {
        if (*s < '0' || *s > '9')
            return -1;
        uint64_t d = (uint64_t)(*s - '0');
        if (v > max / 10 || v * 10 > max - (d > max ? max : d) || d > max)
            return -1;
        v = v * 10 + d;
    }
    *out = v;
    return 0;
}

/* The length of the UTF-8 sequence that lead byte c starts (1 for ASCII),
 * 0 for a byte that cannot start one. */
static int utf8_len(unsigned char c)
{
    return c < 0x80 ? 1 : c < 0xc2 ? 0 : c < 0xe0 ? 2 : c < 0xf0 ? 3 : c < 0xf5 ? 4 : 0;
}

/* Cut text of length len before an incomplete UTF-8 sequence at its end;
 * returns the new length.  Only the last sequence is looked at. */
static size_t utf8_trim_end(char *buf, size_t len)
{
    size_t i = len;
    while (i > 0 && len - i < 3 && ((unsigned char)buf[i - 1] & 0xc0) == 0x80)
        i--;
    if (i > 0) {
        int want = utf8_len((unsigned char)buf[i - 1]);
        if (want > 1 && (size_t)want > len - (i - 1))
            len = i - 1;
    }
    buf[len] = '\0';
    return len;
}

size_t tavi_bprintf(char *buf, size_t n, const char *fmt, ...)
{
    if (n == 0)
        return 0;
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(buf, n, fmt, ap);
    va_end(ap);
    if (k < 0) {
        buf[0] = '\0';
        return 0;
    }
    return (size_t)k < n ? (size_t)k : utf8_trim_end(buf, n - 1);
}

size_t tavi_quote(char *out, size_t n, const char *s, size_t max)
{
    const unsigned char *p = (const unsigned char *)s;
    size_t i = 0, k = 0;
    if (n == 0)
        return 0;
    while (i < max && p[i] && k + 1 < n) {
        unsigned char c = p[i];
        int len = utf8_len(c);
        if (len == 1) {
            out[k++] = c < 0x20 || c == 0x7f ? '?' : (char)c;
            i++;
            continue;
        }
        /* The bytes after a lead byte: continuations, the second one in the
         * range that rules out overlong forms, surrogates and > U+10FFFF. */
        int have = 0;
        if (len > 0) {
            unsigned char lo = c == 0xe0 ? 0xa0 : c == 0xf0 ? 0x90 : 0x80;
            unsigned char hi = c == 0xed ? 0x9f : c == 0xf4 ? 0x8f : 0xbf;
            for (have = 1; have < len && i + (size_t)have < max; have++) {
                unsigned char b = p[i + (size_t)have];
                if (have == 1 ? (b < lo || b > hi) : (b & 0xc0) != 0x80)
                    break;
            }
        }
        if (len > 0 && have == len) {
            if (c == 0xc2 && p[i + 1] < 0xa0) {          /* C1 control */
                out[k++] = '?';
            } else {
                if (k + (size_t)len >= n)
                    break;                                /* no room: stop whole */
                memcpy(out + k, p + i, (size_t)len);
                k += (size_t)len;
            }
            i += (size_t)len;
        } else if (len > 0 && i + (size_t)have >= max) {
            break;                                        /* cut by max: stop whole */
        } else {
            out[k++] = '?';                               /* not a valid sequence */
            i++;
        }
    }
    out[k] = '\0';
    return i;
}

/* xoshiro256** seeded through splitmix64. */
void tav_rng_seed(tav_rng *r, uint64_t seed)
{
    for (int i = 0; i < 4; i++) {
        seed += 0x9e3779b97f4a7c15ULL;
        r->s[i] = tavi_mix64(seed);
    }
}

static inline uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

uint64_t tav_rng_next(tav_rng *r)
{
    uint64_t *s = r->s;
    uint64_t result = rotl(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return result;
}

uint32_t tav_rng_below(tav_rng *r, uint32_t n)
{
    /* Lemire's multiply-shift with rejection: unbiased. */
    uint64_t m = (uint64_t)(uint32_t)(tav_rng_next(r) >> 32) * n;
    uint32_t low = (uint32_t)m;
    if (low < n) {
        uint32_t thresh = (uint32_t)(-n) % n;
        while (low < thresh) {
            m = (uint64_t)(uint32_t)(tav_rng_next(r) >> 32) * n;
            low = (uint32_t)m;
        }
    }
    return (uint32_t)(m >> 32);
}
