/*
 * session_utf8.c — messages that quote input stay valid UTF-8 without control characters.
 */
#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tavoliere.h"
#include "tavoliere_game.h"
#include "tavoliere_record.h"
#include "tavoliere_search.h"
#include "tavoliere_session.h"
#include "session_test.h"

/* ---- Messages that quote input: valid UTF-8, no control characters. ---- */

/* The offset of the first byte of text that is not strict UTF-8 (an
 * overlong form, a surrogate, above U+10FFFF, a bad or missing continuation)
 * or that starts a control character (U+0000..U+001F, U+007F..U+009F);
 * -1 when the whole text is clean. */
static long bad_utf8_at(const char *text)
{
    static const uint32_t least[5] = {0, 0, 0x80, 0x800, 0x10000};
    const unsigned char *s = (const unsigned char *)text;
    size_t i = 0;
    while (s[i]) {
        unsigned c = s[i];
        int len = c < 0x80 ? 1 : c >= 0xc2 && c <= 0xdf ? 2 : c >= 0xe0 && c <= 0xef ? 3
                : c >= 0xf0 && c <= 0xf4 ? 4 : 0;
        if (len == 0)
            return (long)i;
        uint32_t cp = len == 1 ? c : c & (0x7fu >> len);
        for (int k = 1; k < len; k++) {
            if ((s[i + k] & 0xc0) != 0x80)   /* also stops at the NUL */
                return (long)i;
            cp = cp << 6 | (s[i + k] & 0x3fu);
        }
        if (cp < least[len] || (cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff || cp < 0x20 ||
            (cp >= 0x7f && cp <= 0x9f))
            return (long)i;
        i += (size_t)len;
    }
    return -1;
}

/* The validator itself: what it must refuse and accept. */
void utf8_validator(void)
{
    static const char *const bad[] = {
        "\xc0\xaf", "\xc1\xbf", "\xe0\x80\xaf", "\xe0\x9f\xbf", "\xf0\x80\x80\xaf",
        "\xf0\x8f\xbf\xbf", "\xed\xa0\x80", "\xed\xbf\xbf", "\xf4\x90\x80\x80", "\xf5\x80\x80\x80",
        "\xff", "\xfe", "\x80", "\xbf", "\xc3", "a\xc3", "\xe2\x82", "\xf0\x9f\x98", "\xc3(",
        "\x1b[31m", "\t", "\r", "\x7f", "\xc2\x80", "\xc2\x9f", NULL};
    static const char *const good[] = {
        "", "abc '~'", "\xc3\xa9", "\xe2\x82\xac", "\xf0\x9f\x98\x80", "\xc2\xa0", "\xed\x9f\xbf",
        "\xee\x80\x80", "\xf4\x8f\xbf\xbf", "\xef\xbf\xbd", NULL};
    int ok = 1;
    for (int i = 0; bad[i]; i++)
        if (bad_utf8_at(bad[i]) < 0) {
            check(0, "utf-8 validator accepts bad text %d", i);
            ok = 0;
        }
    for (int i = 0; good[i]; i++)
        if (bad_utf8_at(good[i]) >= 0) {
            check(0, "utf-8 validator refuses good text %d", i);
            ok = 0;
        }
    check(ok, "utf-8 validator");
}

/* Text with every byte outside printable ASCII as \xNN, for a report. */
static void escaped(char *out, size_t n, const char *s)
{
    size_t k = 0;
    for (; *s && k + 5 < n; s++) {
        unsigned char c = (unsigned char)*s;
        if (c >= 0x20 && c < 0x7f && c != '\\')
            out[k++] = (char)c;
        else
            k += (size_t)snprintf(out + k, n - k, "\\x%02x", c);
    }
    out[k] = '\0';
}

enum { API_PLAY, API_GAME, API_OPTIONS, API_RECORD, API_POSITION, API_N };
static const char *const api_names[API_N] = {"tav_session_play_text", "tav_session_new (game)",
                                             "tav_session_new (options)", "tav_session_from_record",
                                             "tav_session_set_position"};

typedef struct msg_stats {
    int calls[API_N], bad[API_N];
    char first[API_N][440];
    unsigned turn;      /* picks the err buffer's size */
} msg_stats;

/* The size of the next err buffer: messages cut by a small buffer too. */
static size_t next_errlen(msg_stats *ms)
{
    static const size_t sizes[] = {256, 64, 41, 23, 200, 9};
    return sizes[ms->turn++ % (sizeof sizes / sizeof sizes[0])];
}

/* Record one message answered to `input`. */
static void msg_seen(msg_stats *ms, int api, const char *input, const char *err)
{
    ms->calls[api]++;
    long at = bad_utf8_at(err);
    if (at < 0)
        return;
    if (ms->bad[api]++ == 0) {
        char in[160], msg[220];
        escaped(in, sizeof in, input);
        escaped(msg, sizeof msg, err);
        snprintf(ms->first[api], sizeof ms->first[api], "input \"%s\" gave \"%s\" (byte %ld)", in,
                 msg, at);
    }
}

/* Replace the value of line `line` (0-based, KEY=VALUE or a board line:
 * the whole line) of a position with text; out has room for it. */
static void position_with(char *out, size_t n, const char *pos, int line, const char *text)
{
    size_t k = 0;
    int l = 0;
    for (const char *p = pos; *p;) {
        const char *e = strchr(p, '\n');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        if (l == line) {
            const char *eq = memchr(p, '=', len);
            size_t keep = eq ? (size_t)(eq - p) + 1 : 0;
            k += (size_t)snprintf(out + k, n - k, "%.*s%s\n", (int)keep, p, text);
        } else {
            k += (size_t)snprintf(out + k, n - k, "%.*s\n", (int)len, p);
        }
        l++;
        p = e ? e + 1 : p + len;
    }
    if (line >= l)
        snprintf(out + k, n - k, "%s\n", text);
}

/* Feed one text to every session call that reads input, as a move, a game
 * name, an option (each key of the game's samples), a record (game, options,
 * result, score, tag name, move) and a position (each line's value, an extra
 * line); every message must be clean. */
static void feed_text(const tav_game *g, tav_session *s, tav_session *ps, const char *start_pos,
                      int nlines, const char *finished, const char *text, int deep,
                      msg_stats *ms)
{
    char err[256];
    size_t big = strlen(text) + (finished ? strlen(finished) : 0) + TAV_POSITION_TEXT + 512;
    char *buf = malloc(big);
    tav_session *x;
    size_t el;
    /* A move. */
    err[0] = '\0';
    el = next_errlen(ms);
    if (tav_session_play_text(s, text, err, el) == TAV_OK)
        tav_session_undo(s);
    msg_seen(ms, API_PLAY, text, err);
    /* A game name. */
    err[0] = '\0';
    el = next_errlen(ms);
    if (tav_session_new(&x, text, "", 1, err, el) == TAV_OK)
        tav_session_free(x);
    msg_seen(ms, API_GAME, text, err);
    /* Options: as a word, as a key, as the value of each key of the samples. */
    char keys[8][32];
    int nkeys = 0;
    for (int i = 0; g->samples[i]; i++)
        for (const char *p = g->samples[i]; *p;) {
            size_t len = strcspn(p, " ");
            const char *eq = memchr(p, '=', len);
            if (eq && (size_t)(eq - p) < sizeof keys[0]) {
                int seen = 0;
                for (int k = 0; k < nkeys; k++)
                    seen |= strncmp(keys[k], p, (size_t)(eq - p)) == 0 && !keys[k][eq - p];
                if (!seen && nkeys < 8) {
                    memcpy(keys[nkeys], p, (size_t)(eq - p));
                    keys[nkeys++][eq - p] = '\0';
                }
            }
            p += len;
            p += strspn(p, " ");
        }
    for (int k = -2; k < nkeys; k++) {
        if (k == -2)
            snprintf(buf, big, "%s", text);
        else if (k == -1)
            snprintf(buf, big, "%s=1", text);
        else
            snprintf(buf, big, "%s=%s", keys[k], text);
        err[0] = '\0';
        el = next_errlen(ms);
        if (tav_session_new(&x, g->name, buf, 1, err, el) == TAV_OK)
            tav_session_free(x);
        msg_seen(ms, API_OPTIONS, buf, err);
    }
    /* Records. */
    for (int v = 0; v < 6; v++) {
        if (v == 0)
            snprintf(buf, big, "[Game \"%s\"]\n", text);
        else if (v == 1)
            snprintf(buf, big, "[Game \"%s\"]\n[Options \"%s\"]\n", g->name, text);
        else if (v == 2)
            snprintf(buf, big, "[Game \"%s\"]\n[Result \"%s\"]\n", g->name, text);
        else if (v == 3)
            snprintf(buf, big, "[Game \"%s\"]\n[%s \"x\"]\n", g->name, text);
        else if (v == 4)
            snprintf(buf, big, "[Game \"%s\"]\n\n1. %s\n", g->name, text);
        else if (deep && finished && strstr(finished, "[Score \"")) {
            /* A finished game whose Score tag is the text. */
            const char *sc = strstr(finished, "[Score \"") + 8, *end = strstr(sc, "\"]");
            snprintf(buf, big, "%.*s%s%s", (int)(sc - finished), finished, text, end);
        } else
            continue;
        err[0] = '\0';
        el = next_errlen(ms);
        if (tav_session_from_record(&x, buf, strlen(buf), err, el) == TAV_OK)
            tav_session_free(x);
        msg_seen(ms, API_RECORD, buf, err);
    }
    /* Positions: each line's value, the first board line, an extra line. */
    for (int line = 0; line <= nlines; line++) {
        if (line > 0 && line < nlines) {
            const char *p = start_pos;
            for (int l = 0; l < line && p; l++) {
                p = strchr(p, '\n');
                p = p ? p + 1 : NULL;
            }
            if (!p || !memchr(p, '=', strcspn(p, "\n")))
                continue;   /* board lines: the first one is enough */
        }
        position_with(buf, big, start_pos, line, text);
        err[0] = '\0';
        el = next_errlen(ms);
        tav_session_set_position(ps, buf, err, el);
        msg_seen(ms, API_POSITION, buf, err);
    }
    free(buf);
}

/* Every message that quotes input is valid UTF-8 without control
 * characters: texts of ASCII prefixes of every length 0..80 (a printf
 * precision such as '%.40s' cuts somewhere in there) followed by a
 * multi-byte character or an invalid byte, and texts of random bytes, fed
 * to every call that reads input, for every game. */
void messages_utf8(const tav_game *g, uint64_t seed)
{
    static const char *const tails[] = {"\xc3\xa9", "\xe2\x82\xac", "\xf0\x9f\x98\x80",
                                        "\xff", "\xc3", "\x80", "\xc3\xa9\xe2\x82\xac"};
    static const char *const fills[] = {
        "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
        "11111111111111111111111111111111111111111111111111111111111111111111111111111111111",
        "W:a1-b4:c2,d3W:a1-b4:c2,d3W:a1-b4:c2,d3W:a1-b4:c2,d3W:a1-b4:c2,d3W:a1-b4:c2,d3W:a1-",
        "01,02,03,04,05,06,07,12,13,14,15,16,23,24,25,34,01,02,03,04,05,06,07,12,13,14,15,16,"};
    char err[256];
    tav_session *s, *ps;
    if (tav_session_new(&s, g->name, g->samples[0], seed, err, sizeof err) != TAV_OK ||
        tav_session_new(&ps, g->name, g->samples[0], seed, err, sizeof err) != TAV_OK) {
        check(0, "%s: %s", g->name, err);
        return;
    }
    char *pos = malloc(TAV_POSITION_TEXT);
    g->get_position(tav_session_state(s), pos, TAV_POSITION_TEXT);
    int nlines = 0;
    for (const char *p = pos; *p; p++)
        nlines += *p == '\n';
    if (pos[0] && pos[strlen(pos) - 1] != '\n')
        nlines++;
    /* A finished game's record, for its Score tag. */
    tav_session *f = tav_session_clone(s);
    tav_move *list = malloc(sizeof *list * (size_t)g->max_moves);
    tav_rng rng;
    tav_rng_seed(&rng, seed);
    for (int ply = 0; f && ply < 3000 && tav_session_to_move(f) != TAV_NONE; ply++) {
        int n = tav_session_legal(f, tav_session_to_move(f), list);
        tav_session_play(f, list[tav_rng_below(&rng, (uint32_t)n)]);
    }
    char *finished = f && tav_session_to_move(f) == TAV_NONE ? tav_session_record_all(f, "w", "b")
                                                              : NULL;
    check(finished != NULL, "%s: a finished game for the Score tag", g->name);
    msg_stats *ms = calloc(1, sizeof *ms);
    char text[200];
    for (size_t fi = 0; fi < sizeof fills / sizeof fills[0]; fi++)
        for (int len = 0; len <= 80; len++)
            for (size_t ti = 0; ti < sizeof tails / sizeof tails[0]; ti++) {
                snprintf(text, sizeof text, "%.*s%s", len, fills[fi], tails[ti]);
                feed_text(g, s, ps, pos, nlines, finished, text, len % 20 == 0, ms);
            }
    for (int k = 0; k < 300; k++) {
        size_t len = 1 + tav_rng_below(&rng, 100);
        for (size_t i = 0; i < len; i++)
            text[i] = (char)(1 + tav_rng_below(&rng, 255));
        text[len] = '\0';
        feed_text(g, s, ps, pos, nlines, finished, text, k % 10 == 0, ms);
    }
    for (int api = 0; api < API_N; api++)
        check(ms->bad[api] == 0 && ms->calls[api] > 0,
              "%s: %s: %d of %d messages not clean UTF-8; first: %s", g->name, api_names[api],
              ms->bad[api], ms->calls[api], ms->first[api]);
    free(ms);
    free(finished);
    free(list);
    free(pos);
    tav_session_free(f);
    tav_session_free(s);
    tav_session_free(ps);
}
