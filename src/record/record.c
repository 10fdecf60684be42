/*
 * record.c — parse, replay and write game records (docs/records.md).
 *
 * The parser is a single pass over the text with a cursor that tracks line
 * and column.  Tags come first, then move tokens, optional move numbers
 * ("12.") that must match the ply, and comments ({...} or ; to the end of
 * the line).  Every move is checked against the legal moves of the replayed
 * position, so a record that parses is a record that replays.
 */
#include "tavoliere_record.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/base.h"

typedef struct cursor {
    const char *p, *end;
    int line, col;
} cursor;

static void cur_adv(cursor *c)
{
    if (*c->p == '\n') {
        c->line++;
        c->col = 1;
    } else {
        c->col++;
    }
    c->p++;
}

static int cur_eof(const cursor *c) { return c->p >= c->end; }

/* Format an error with the cursor's position: TAV_E_INVALID (nonzero). */
static int fail_at(const cursor *c, char *err, size_t n, const char *what, const char *detail)
{
    tavi_bprintf(err, n, "line %d, column %d: %s%s", c->line, c->col, what, detail ? detail : "");
    return TAV_E_INVALID;
}

void tav_record_init(tav_record *r) { memset(r, 0, sizeof *r); }

void tav_record_free(tav_record *r)
{
    if (r->comments)
        for (int i = 0; i < r->nmoves; i++)
            free(r->comments[i]);
    free(r->comments);
    free(r->moves);
    r->moves = NULL;
    r->comments = NULL;
    r->nmoves = r->cap = 0;
}

tav_status tav_record_add(tav_record *r, const char *move, const char *comment)
{
    if (r->nmoves >= TAV_RECORD_MAX_MOVES)
        return TAV_E_INVALID;
    if (r->nmoves == r->cap) {
        int cap = r->cap ? r->cap * 2 : 64;
        void *m = realloc(r->moves, sizeof *r->moves * (size_t)cap);
        if (!m)
            return TAV_E_NOMEM;
        r->moves = m;
        void *cm = realloc(r->comments, sizeof *r->comments * (size_t)cap);
        if (!cm)
            return TAV_E_NOMEM;
        r->comments = cm;
        r->cap = cap;
    }
    tavi_bprintf(r->moves[r->nmoves], TAV_MOVE_TEXT, "%s", move);
    r->comments[r->nmoves] = NULL;
    if (comment && *comment) {
        size_t n = strlen(comment);
        r->comments[r->nmoves] = malloc(n + 1);
        if (r->comments[r->nmoves])
            memcpy(r->comments[r->nmoves], comment, n + 1);
    }
    r->nmoves++;
    return TAV_OK;
}

void tav_record_start_options(const tav_record *r, char *buf, size_t n)
{
    size_t k = 0;
    buf[0] = '\0';
    /* Explicit stacks replace a seed: copy the other options through. */
    int stacks = r->white_stack[0] && r->black_stack[0];
    tavi_optiter it = {r->options};
    char key[64], val[TAV_RECORD_TAG], e[64];
    while (tavi_opt_next(&it, key, sizeof key, val, sizeof val, e, sizeof e) == 1) {
        if (stacks && (strcmp(key, "seed") == 0 || strcmp(key, "white") == 0 || strcmp(key, "black") == 0))
            continue;
        k += tavi_bprintf(buf + k, n - k, "%s%s=%s", k ? " " : "", key, val);
    }
    if (stacks)
        tavi_bprintf(buf + k, n - k, "%swhite=%s black=%s", k ? " " : "", r->white_stack, r->black_stack);
}

void tav_record_set_deal(tav_record *r, const tav_game *g, const void *start)
{
    r->white_stack[0] = r->black_stack[0] = '\0';
    if (!g->deal_options)
        return;
    char opts[2 * TAV_RECORD_TAG + 32], key[32], val[TAV_RECORD_TAG], e[64];
    g->deal_options(start, opts, sizeof opts);
    tavi_optiter it = {opts};
    while (tavi_opt_next(&it, key, sizeof key, val, sizeof val, e, sizeof e) == 1) {
        if (strcmp(key, "white") == 0)
            tavi_bprintf(r->white_stack, sizeof r->white_stack, "%s", val);
        else if (strcmp(key, "black") == 0)
            tavi_bprintf(r->black_stack, sizeof r->black_stack, "%s", val);
    }
    if (!r->white_stack[0] || !r->black_stack[0])
        r->white_stack[0] = r->black_stack[0] = '\0';
}

void tav_record_finish(tav_record *r, const tav_game *g, const char *options, const void *final)
{
    tav_result res;
    g->result(final, &res);
    time_t now = time(NULL);
    struct tm tmv;
    if (gmtime_r(&now, &tmv))
        strftime(r->date, sizeof r->date, "%Y-%m-%d", &tmv);
    tavi_bprintf(r->result, sizeof r->result, "%s", res.over ? tav_side_name(res.winner) : "*");
    tavi_bprintf(r->score, sizeof r->score, "%d:%d", res.score[0], res.score[1]);
    r->white_stack[0] = r->black_stack[0] = '\0';
    if (g->deal_options) {
        void *init = calloc(1, g->state_size);
        char err[256];
        if (init && g->init(init, options, err, sizeof err) == 0)
            tav_record_set_deal(r, g, init);
        free(init);
    }
}

/* Skip blanks and comments; a comment's text goes to *comment (appended). */
static int skip_space(cursor *c, char *comment, size_t cn, char *err, size_t errlen)
{
    for (;;) {
        while (!cur_eof(c) && (*c->p == ' ' || *c->p == '\t' || *c->p == '\n' || *c->p == '\r'))
            cur_adv(c);
        if (cur_eof(c))
            return 0;
        if (*c->p == ';') {
            while (!cur_eof(c) && *c->p != '\n')
                cur_adv(c);
            continue;
        }
        if (*c->p == '{') {
            cursor start = *c;
            cur_adv(c);
            size_t k = comment ? strlen(comment) : 0;
            if (comment && k && k + 1 < cn)
                comment[k++] = ' ';
            while (!cur_eof(c) && *c->p != '}') {
                if (*c->p == '{')
                    return fail_at(c, err, errlen, "'{' inside a comment", " (comments do not nest)");
                if (comment && k + 1 < cn && *c->p != '\n' && *c->p != '\r')
                    comment[k++] = *c->p;
                cur_adv(c);
            }
            if (comment)
                comment[k < cn ? k : cn - 1] = '\0';
            if (cur_eof(c))
                return fail_at(&start, err, errlen, "comment not closed", " (expected '}')");
            cur_adv(c);
            continue;
        }
        return 0;
    }
}

typedef struct tagdef {
    const char *name;
    size_t offset;
} tagdef;

static const tagdef tagdefs[] = {
    {"Game", 0},
    {"Options", offsetof(tav_record, options)},
    {"White", offsetof(tav_record, white)},
    {"Black", offsetof(tav_record, black)},
    {"Date", offsetof(tav_record, date)},
    {"Event", offsetof(tav_record, event)},
    {"Result", offsetof(tav_record, result)},
    {"Score", offsetof(tav_record, score)},
    {"WhiteStack", offsetof(tav_record, white_stack)},
    {"BlackStack", offsetof(tav_record, black_stack)},
};
#define NTAGS ((int)(sizeof tagdefs / sizeof tagdefs[0]))

/* Parse one [Name "value"] tag at the cursor. */
static int parse_tag(cursor *c, tav_record *r, unsigned *seen, char *err, size_t errlen)
{
    cur_adv(c);   /* '[' */
    char name[32];
    size_t k = 0;
    cursor at = *c;
    while (!cur_eof(c) && ((*c->p >= 'A' && *c->p <= 'Z') || (*c->p >= 'a' && *c->p <= 'z'))) {
        if (k + 1 >= sizeof name)
            return fail_at(&at, err, errlen, "tag name too long", NULL);
        name[k++] = *c->p;
        cur_adv(c);
    }
    name[k] = '\0';
    if (k == 0)
        return fail_at(c, err, errlen, "expected a tag name after '['", NULL);
    int t;
    for (t = 0; t < NTAGS; t++)
        if (strcmp(tagdefs[t].name, name) == 0)
            break;
    if (t == NTAGS) {
        char d[128];
        tavi_bprintf(d, sizeof d, " '%s' (expected Game, Options, White, Black, Date, Event, Result, "
                                 "Score, WhiteStack or BlackStack)", name);
        return fail_at(&at, err, errlen, "unknown tag", d);
    }
    if (*seen & (1u << t))
        return fail_at(&at, err, errlen, "tag given twice: ", name);
    *seen |= 1u << t;
    if (cur_eof(c) || *c->p != ' ')
        return fail_at(c, err, errlen, "expected a space after the tag name", NULL);
    cur_adv(c);
    if (cur_eof(c) || *c->p != '"')
        return fail_at(c, err, errlen, "expected '\"' to open the tag value", NULL);
    cur_adv(c);
    char val[TAV_RECORD_TAG];
    k = 0;
    while (!cur_eof(c) && *c->p != '"') {
        if (*c->p == '\n')
            return fail_at(c, err, errlen, "tag value not closed on its line", " (expected '\"')");
        if (*c->p == '\\') {
            cur_adv(c);
            if (cur_eof(c) || (*c->p != '"' && *c->p != '\\'))
                return fail_at(c, err, errlen, "bad escape in tag value", " (expected \\\" or \\\\)");
        }
        if (k + 1 >= sizeof val)
            return fail_at(c, err, errlen, "tag value too long", NULL);
        val[k++] = *c->p;
        cur_adv(c);
    }
    val[k] = '\0';
    if (cur_eof(c))
        return fail_at(c, err, errlen, "tag value not closed", " (expected '\"')");
    cur_adv(c);
    if (cur_eof(c) || *c->p != ']')
        return fail_at(c, err, errlen, "expected ']' to close the tag", NULL);
    cur_adv(c);
    if (t == 0) {
        r->game = tav_game_find(val);
        if (!r->game) {
            char names[128], what[160], q[sizeof val];
            tavi_bprintf(what, sizeof what, "unknown game (expected %s): ",
                        tav_game_list(names, sizeof names));
            tavi_quote(q, sizeof q, val, sizeof q - 1);
            return fail_at(&at, err, errlen, what, q);
        }
    } else {
        memcpy((char *)r + tagdefs[t].offset, val, k + 1);
    }
    return 0;
}

tav_status tav_record_parse(const char *text, size_t len, tav_record *r, void *final,
                            char *err, size_t errlen)
{
    return tav_record_parse_max(text, len, r, final, TAV_RECORD_MAX_MOVES, err, errlen);
}

tav_status tav_record_parse_max(const char *text, size_t len, tav_record *r, void *final,
                                int max_moves, char *err, size_t errlen)
{
    tav_record_free(r);
    tav_record_init(r);
    cursor c = {text, text + len, 1, 1};
    if (len > TAV_RECORD_MAX)
        return fail_at(&c, err, errlen, "record too large", NULL);
    /* Bytes: text only (UTF-8 allowed), no NUL or other control characters. */
    for (cursor s = c; !cur_eof(&s); cur_adv(&s)) {
        unsigned char b = (unsigned char)*s.p;
        if ((b < 32 && b != '\n' && b != '\r' && b != '\t') || b == 127) {
            char d[48];
            tavi_bprintf(d, sizeof d, " 0x%02x (a record is text)", b);
            return fail_at(&s, err, errlen, "unexpected byte", d);
        }
    }
    unsigned seen = 0;
    char comment[1024];
    for (;;) {
        if (skip_space(&c, NULL, 0, err, errlen) != 0)
            return TAV_E_INVALID;
        if (cur_eof(&c) || *c.p != '[')
            break;
        if (parse_tag(&c, r, &seen, err, errlen) != 0)
            return TAV_E_INVALID;
    }
    if (!r->game)
        return fail_at(&c, err, errlen, "expected the [Game \"...\"] tag before the moves", NULL);
    const tav_game *g = r->game;
    char opts[2 * TAV_RECORD_TAG + 64], e2[256];
    tav_record_start_options(r, opts, sizeof opts);
    unsigned char *st = malloc(g->state_size);
    tav_move *scratch = malloc(sizeof(tav_move) * (size_t)g->max_moves);
    tav_status rc = TAV_E_INVALID;   /* the reason, until the record is through */
    if (!st || !scratch) {
        tavi_bprintf(err, errlen, "out of memory");
        rc = TAV_E_NOMEM;
        goto out;
    }
    if (g->init(st, opts, e2, sizeof e2) != 0) {
        tavi_bprintf(err, errlen, "line 1, column 1: bad Options for %s: %s", g->name, e2);
        goto out;
    }
    for (;;) {
        comment[0] = '\0';
        if (skip_space(&c, NULL, 0, err, errlen) != 0)
            goto out;
        if (cur_eof(&c))
            break;
        cursor at = c;
        char tok[TAV_MOVE_TEXT + 8];
        size_t k = 0;
        while (!cur_eof(&c) && *c.p != ' ' && *c.p != '\t' && *c.p != '\n' && *c.p != '\r' &&
               *c.p != '{' && *c.p != ';') {
            if (k + 1 >= sizeof tok) {
                fail_at(&at, err, errlen, "token too long (expected a move)", NULL);
                goto out;
            }
            tok[k++] = *c.p;
            cur_adv(&c);
        }
        tok[k] = '\0';
        if (tok[0] == '[') {
            fail_at(&at, err, errlen, "tag after the moves", " (tags come first)");
            goto out;
        }
        /* A move number "N." must be the ply of the next move. */
        if (k >= 2 && tok[k - 1] == '.' && tok[0] >= '0' && tok[0] <= '9') {
            tok[k - 1] = '\0';
            uint64_t num;
            if (tavi_parse_uint(tok, 1000000, &num) != 0) {
                fail_at(&at, err, errlen, "bad move number", NULL);
                goto out;
            }
            if (num != (uint64_t)r->nmoves + 1) {
                char d[64];
                tavi_bprintf(d, sizeof d, " %llu (expected %d)", (unsigned long long)num, r->nmoves + 1);
                fail_at(&at, err, errlen, "move number out of order:", d);
                goto out;
            }
            continue;
        }
        char q[sizeof tok];   /* the token as quoted in messages */
        if (g->to_move(st) == TAV_NONE) {
            tavi_quote(q, sizeof q, tok, sizeof q - 1);
            fail_at(&at, err, errlen, "move after the end of the game: ", q);
            rc = TAV_E_OVER;
            goto out;
        }
        if (r->nmoves >= max_moves) {
            char d[64];
            tavi_bprintf(d, sizeof d, " (at most %d)", max_moves);
            fail_at(&at, err, errlen, "too many moves", d);
            goto out;
        }
        tav_move m;
        if (tav_find_move(g, st, tok, scratch, &m) != TAV_OK) {
            char d[160];
            tavi_quote(q, sizeof q, tok, sizeof q - 1);
            tavi_bprintf(d, sizeof d, "illegal move '%s' at ply %d (expected a legal move of %s)", q,
                        r->nmoves + 1, tav_side_name(g->to_move(st)));
            fail_at(&at, err, errlen, d, NULL);
            rc = TAV_E_ILLEGAL;
            goto out;
        }
        g->play(st, m);
        if (skip_space(&c, comment, sizeof comment, err, errlen) != 0)
            goto out;
        tav_status added = tav_record_add(r, tok, comment);
        if (added != TAV_OK) {
            if (added == TAV_E_NOMEM)
                tavi_bprintf(err, errlen, "out of memory");
            else
                fail_at(&at, err, errlen, "too many moves", NULL);
            rc = added;
            goto out;
        }
    }
    /* The Result and Score tags, when given, must match the moves. */
    tav_result res;
    g->result(st, &res);
    char q[TAV_RECORD_TAG];   /* a tag as quoted in messages */
    if (r->result[0] && strcmp(r->result, "*") != 0) {
        const char *want = res.over ? tav_side_name(res.winner) : "*";
        if (strcmp(r->result, want) != 0) {
            tavi_quote(q, sizeof q, r->result, sizeof q - 1);
            tavi_bprintf(err, errlen, "line %d, column %d: Result says '%s' but the moves give '%s'",
                        c.line, c.col, q, want);
            goto out;
        }
    } else if (r->result[0] == '\0' && res.over) {
        tavi_bprintf(r->result, sizeof r->result, "%s", tav_side_name(res.winner));
    }
    if (r->score[0] && res.over) {
        char want[32];
        tavi_bprintf(want, sizeof want, "%d:%d", res.score[0], res.score[1]);
        if (strcmp(r->score, want) != 0) {
            tavi_quote(q, sizeof q, r->score, sizeof q - 1);
            tavi_bprintf(err, errlen, "line %d, column %d: Score says '%s' but the moves give '%s'",
                        c.line, c.col, q, want);
            goto out;
        }
    }
    if (final)
        memcpy(final, st, g->state_size);
    rc = TAV_OK;
out:
    free(st);
    free(scratch);
    return rc;
}

/* Append text to a growing buffer. */
typedef struct sbuf {
    char *p;
    size_t len, cap;
    int failed;
} sbuf;

static void sb_add(sbuf *b, const char *s)
{
    size_t n = strlen(s);
    if (b->failed)
        return;
    if (b->len + n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap * 2 : 1024;
        while (cap < b->len + n + 1)
            cap *= 2;
        char *q = realloc(b->p, cap);
        if (!q) {
            b->failed = 1;
            return;
        }
        b->p = q;
        b->cap = cap;
    }
    memcpy(b->p + b->len, s, n + 1);
    b->len += n;
}

/* Write one tag with escaping, skipped when empty. */
static void sb_tag(sbuf *b, const char *name, const char *val)
{
    if (!val[0])
        return;
    char esc[2 * TAV_RECORD_TAG + 8];
    size_t k = 0;
    for (const char *s = val; *s && k + 3 < sizeof esc; s++) {
        if (*s == '"' || *s == '\\')
            esc[k++] = '\\';
        esc[k++] = *s;
    }
    esc[k] = '\0';
    sb_add(b, "[");
    sb_add(b, name);
    sb_add(b, " \"");
    sb_add(b, esc);
    sb_add(b, "\"]\n");
}

char *tav_record_write(const tav_record *r)
{
    sbuf b = {0};
    sb_tag(&b, "Game", r->game ? r->game->name : "");
    sb_tag(&b, "Options", r->options);
    sb_tag(&b, "WhiteStack", r->white_stack);
    sb_tag(&b, "BlackStack", r->black_stack);
    sb_tag(&b, "Event", r->event);
    sb_tag(&b, "White", r->white);
    sb_tag(&b, "Black", r->black);
    sb_tag(&b, "Date", r->date);
    sb_tag(&b, "Result", r->result[0] ? r->result : "*");
    sb_tag(&b, "Score", r->score);
    sb_add(&b, "\n");
    for (int i = 0; i < r->nmoves; i++) {
        char line[TAV_MOVE_TEXT + 32];
        tavi_bprintf(line, sizeof line, "%d. %s", i + 1, r->moves[i]);
        sb_add(&b, line);
        if (r->comments && r->comments[i]) {
            sb_add(&b, " { ");
            /* Braces cannot appear inside a comment. */
            char cm[1024];
            size_t k = 0;
            for (const char *s = r->comments[i]; *s && k + 1 < sizeof cm; s++)
                cm[k++] = (*s == '{' || *s == '}') ? '(' + (*s == '}') : *s;
            cm[k] = '\0';
            sb_add(&b, cm);
            sb_add(&b, " }");
        }
        sb_add(&b, "\n");
    }
    if (b.failed) {
        free(b.p);
        return NULL;
    }
    return b.p;
}
