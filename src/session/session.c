/*
 * session.c — tav_session: one game being played (include/tavoliere_session.h).
 *
 * Layout.  A session keeps the operations table, its options (a heap copy,
 * may hold secrets such as Toscana's explicit stacks), the seed, and the
 * history as one growing array of states: states[0] is the start, states[i]
 * the position after i moves; moves[i] is the canonical text of move i and
 * ms[i] the time it took.  Undo is dropping the last entry.  Resignation is
 * a flag on top of the history (undo removes it first).
 *
 * Projections.  What a viewer may see is decided by the game: its
 * public_position and board_view operations leave hidden information out;
 * the legal moves are listed only to the side to act (the moves of a masked
 * state are the same, so nothing hidden shows through them); the record
 * leaves the secret options (game->secret_options) and the stacks out until
 * the game is over.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/base.h"
#include "tavoliere_record.h"
#include "session/explain.h"
#include "tavoliere_session.h"

struct tav_session {
    const tav_game *g;
    char *options;
    uint64_t seed;
    unsigned char *states;      /* (cap + 1) states */
    char (*moves)[TAV_MOVE_TEXT];
    int64_t *ms;
    int ply, cap;
    int resigned;
};

static void set_err(char *err, size_t errlen, const char *msg)
{
    if (err && errlen)
        tavi_bprintf(err, errlen, "%s", msg);
}

static unsigned char *state_ptr(const tav_session *s, int ply)
{
    return s->states + (size_t)ply * s->g->state_size;
}

/* Room for at least `need` moves. */
static int reserve(tav_session *s, int need)
{
    if (need <= s->cap)
        return 0;
    int cap = s->cap ? s->cap : 16;
    while (cap < need)
        cap *= 2;
    unsigned char *st = realloc(s->states, (size_t)(cap + 1) * s->g->state_size);
    if (!st)
        return -1;
    s->states = st;
    void *mv = realloc(s->moves, sizeof *s->moves * (size_t)cap);
    if (!mv)
        return -1;
    s->moves = mv;
    int64_t *ms = realloc(s->ms, sizeof *s->ms * (size_t)cap);
    if (!ms)
        return -1;
    s->ms = ms;
    s->cap = cap;
    return 0;
}

/* An empty session of game g with options (copied); NULL on no memory. */
static tav_session *session_alloc(const tav_game *g, const char *options, uint64_t seed)
{
    tav_session *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    s->g = g;
    s->seed = seed;
    s->resigned = TAV_NONE;
    size_t n = strlen(options) + 1;
    s->options = malloc(n);
    s->states = malloc(g->state_size * 17);
    s->moves = malloc(sizeof *s->moves * 16);
    s->ms = malloc(sizeof *s->ms * 16);
    if (!s->options || !s->states || !s->moves || !s->ms) {
        tav_session_free(s);
        return NULL;
    }
    s->cap = 16;
    memcpy(s->options, options, n);
    return s;
}

void tav_session_free(tav_session *s)
{
    if (!s)
        return;
    free(s->options);
    free(s->states);
    free(s->moves);
    free(s->ms);
    free(s);
}

tav_status tav_session_new(tav_session **out, const char *game, const char *options,
                           uint64_t seed, char *err, size_t errlen)
{
    *out = NULL;
    const tav_game *g = game ? tav_game_find(game) : NULL;
    if (!g) {
        char names[128], q[41];
        tavi_quote(q, sizeof q, game ? game : "", 40);
        tavi_bprintf(err, errlen, "unknown game '%s' (expected %s)", q,
                    tav_game_list(names, sizeof names));
        return TAV_E_INVALID;
    }
    return tav_session_new_game(out, g, options, seed, err, errlen);
}

tav_status tav_session_new_game(tav_session **out, const tav_game *g, const char *options,
                                uint64_t seed, char *err, size_t errlen)
{
    *out = NULL;
    char e2[256] = "";
    if (tav_game_check_table(g, e2, sizeof e2) != TAV_OK) {
        set_err(err, errlen, e2);
        return TAV_E_INVALID;
    }
    if (!options)
        options = "";
    if (strlen(options) >= TAV_POSITION_TEXT) {
        set_err(err, errlen, "options too long");
        return TAV_E_INVALID;
    }
    tav_session *s = session_alloc(g, options, seed);
    if (!s) {
        set_err(err, errlen, "out of memory");
        return TAV_E_NOMEM;
    }
    if (tav_game_setup(g, s->states, options, seed, e2, sizeof e2) != TAV_OK) {
        set_err(err, errlen, e2[0] ? e2 : "bad options");
        tav_session_free(s);
        return TAV_E_INVALID;
    }
    *out = s;
    return TAV_OK;
}

tav_status tav_session_from_position(tav_session **out, const char *game, const char *text,
                                     char *err, size_t errlen)
{
    *out = NULL;
    tav_session *s;
    tav_status st = tav_session_new(&s, game, "", 0, err, errlen);
    if (st != TAV_OK)
        return st;
    char e2[256] = "";
    if (!text || s->g->set_position(s->states, text, e2, sizeof e2) != 0) {
        set_err(err, errlen, e2[0] ? e2 : "bad position");
        tav_session_free(s);
        return TAV_E_INVALID;
    }
    *out = s;
    return TAV_OK;
}

tav_status tav_session_set_position(tav_session *s, const char *text, char *err, size_t errlen)
{
    unsigned char *tmp = malloc(s->g->state_size);
    if (!tmp) {
        set_err(err, errlen, "out of memory");
        return TAV_E_NOMEM;
    }
    char e2[256] = "";
    if (!text || tav_game_setup(s->g, tmp, s->options, s->seed, e2, sizeof e2) != TAV_OK ||
        s->g->set_position(tmp, text, e2, sizeof e2) != 0) {
        set_err(err, errlen, e2[0] ? e2 : "bad position");
        free(tmp);
        return TAV_E_INVALID;
    }
    memcpy(s->states, tmp, s->g->state_size);
    free(tmp);
    s->ply = 0;
    s->resigned = TAV_NONE;
    return TAV_OK;
}

tav_status tav_session_from_record(tav_session **out, const char *text, size_t len, char *err,
                                   size_t errlen)
{
    return tav_session_from_record_ex(out, text, len, 1, TAV_RECORD_MAX_MOVES, err, errlen);
}

tav_status tav_session_from_record_ex(tav_session **out, const char *text, size_t len,
                                      uint64_t seed, int max_plies, char *err, size_t errlen)
{
    *out = NULL;
    tav_record r;
    tav_record_init(&r);
    if (max_plies < 0 || max_plies > TAV_RECORD_MAX_MOVES)
        max_plies = TAV_RECORD_MAX_MOVES;
    /* A record that does not replay is bad input, whatever went wrong in it
     * (an illegal move, a move after the end): TAV_E_INVALID. */
    tav_status parsed = text ? tav_record_parse_max(text, len, &r, NULL, max_plies, err, errlen)
                             : TAV_E_INVALID;
    if (parsed != TAV_OK) {
        if (!text)
            set_err(err, errlen, "no record");
        tav_record_free(&r);
        return parsed == TAV_E_NOMEM ? TAV_E_NOMEM : TAV_E_INVALID;
    }
    char opts[2 * TAV_RECORD_TAG + 64];
    tav_record_start_options(&r, opts, sizeof opts);
    tav_session *s;
    tav_status st = tav_session_new(&s, r.game->name, opts, seed, err, errlen);
    for (int i = 0; st == TAV_OK && i < r.nmoves; i++) {
        char e2[256];
        st = tav_session_play_text(s, r.moves[i], e2, sizeof e2);
        if (st != TAV_OK) {
            tavi_bprintf(err, errlen, "ply %d: %s", i + 1, e2);
            tav_session_free(s);
        }
    }
    tav_record_free(&r);
    if (st == TAV_OK)
        *out = s;
    return st == TAV_OK ? TAV_OK : st == TAV_E_NOMEM ? TAV_E_NOMEM : TAV_E_INVALID;
}

tav_session *tav_session_clone(const tav_session *s)
{
    tav_session *c = session_alloc(s->g, s->options, s->seed);
    if (!c || reserve(c, s->ply) != 0) {
        tav_session_free(c);
        return NULL;
    }
    memcpy(c->states, s->states, (size_t)(s->ply + 1) * s->g->state_size);
    if (s->ply) {
        memcpy(c->moves, s->moves, sizeof *s->moves * (size_t)s->ply);
        memcpy(c->ms, s->ms, sizeof *s->ms * (size_t)s->ply);
    }
    c->ply = s->ply;
    c->resigned = s->resigned;
    return c;
}

const tav_game *tav_session_game(const tav_session *s) { return s->g; }
const char *tav_session_options(const tav_session *s) { return s->options; }
uint64_t tav_session_seed(const tav_session *s) { return s->seed; }
int tav_session_ply(const tav_session *s) { return s->ply; }
const void *tav_session_state(const tav_session *s) { return state_ptr(s, s->ply); }
int tav_session_resigned(const tav_session *s) { return s->resigned; }

const void *tav_session_state_at(const tav_session *s, int ply)
{
    return ply >= 0 && ply <= s->ply ? state_ptr(s, ply) : NULL;
}

const char *tav_session_move_text(const tav_session *s, int i)
{
    return i >= 0 && i < s->ply ? s->moves[i] : NULL;
}

int tav_session_to_move(const tav_session *s)
{
    if (s->resigned != TAV_NONE)
        return TAV_NONE;
    return s->g->to_move(state_ptr(s, s->ply));
}

void tav_session_result(const tav_session *s, tav_result *r)
{
    s->g->result(state_ptr(s, s->ply), r);
    if (s->resigned != TAV_NONE && !r->over) {
        r->over = 1;
        r->winner = 1 - s->resigned;
    }
}

/* 1 when the game is over (resignation included). */
static int session_over(const tav_session *s)
{
    tav_result r;
    tav_session_result(s, &r);
    return r.over;
}

void tav_session_public_options(const tav_session *s, char *buf, size_t n)
{
    size_t k = 0;
    buf[0] = '\0';
    int over = session_over(s);
    tavi_optiter it = {s->options};
    char key[64], val[TAV_POSITION_TEXT], e[64];
    while (tavi_opt_next(&it, key, sizeof key, val, sizeof val, e, sizeof e) == 1) {
        int secret = 0;
        for (const char *const *p = s->g->secret_options; !over && p && *p; p++)
            if (strcmp(*p, key) == 0)
                secret = 1;
        if (!secret)
            k += tavi_bprintf(buf + k, n - k, "%s%s=%s", k ? " " : "", key, val);
    }
}

void tav_session_start_options(const tav_session *s, char *buf, size_t n)
{
    if (!s->g->deal_options) {
        tavi_bprintf(buf, n, "%s", s->options);
        return;
    }
    size_t k = 0;
    buf[0] = '\0';
    tavi_optiter it = {s->options};
    char key[64], val[TAV_POSITION_TEXT], e[64];
    while (tavi_opt_next(&it, key, sizeof key, val, sizeof val, e, sizeof e) == 1) {
        int secret = 0;
        for (const char *const *p = s->g->secret_options; p && *p; p++)
            if (strcmp(*p, key) == 0)
                secret = 1;
        if (!secret)
            k += tavi_bprintf(buf + k, n - k, "%s=%s ", key, val);
    }
    s->g->deal_options(state_ptr(s, 0), buf + k, n - k);
}

/* Append the state after move m to the history; the caller checked m. */
static tav_status push_move(tav_session *s, tav_move m)
{
    char text[TAV_MOVE_TEXT];
    if (reserve(s, s->ply + 1) != 0)
        return TAV_E_NOMEM;
    const unsigned char *cur = state_ptr(s, s->ply);
    s->g->move_str(cur, m, text, sizeof text);
    unsigned char *next = state_ptr(s, s->ply + 1);
    memcpy(next, cur, s->g->state_size);
    s->g->play(next, m);
#ifdef TAV_DEBUG
    if (s->g->check) {
        char e[256];
        if (s->g->check(next, e, sizeof e) != 0)
            abort();
    }
#endif
    memcpy(s->moves[s->ply], text, sizeof text);
    s->ms[s->ply] = 0;
    s->ply++;
    return TAV_OK;
}

/* Edit distance of a and b, or a value > limit when it is larger. */
static int edit_distance(const char *a, const char *b, int limit)
{
    int la = (int)strlen(a), lb = (int)strlen(b);
    if (la - lb > limit || lb - la > limit)
        return limit + 1;
    int row[TAV_MOVE_TEXT + 1];
    for (int j = 0; j <= lb; j++)
        row[j] = j;
    for (int i = 1; i <= la; i++) {
        int diag = row[0], best;
        row[0] = best = i;
        for (int j = 1; j <= lb; j++) {
            int up = row[j];
            int v = diag + (a[i - 1] != b[j - 1]);
            if (up + 1 < v)
                v = up + 1;
            if (row[j - 1] + 1 < v)
                v = row[j - 1] + 1;
            row[j] = v;
            diag = up;
            if (v < best)
                best = v;
        }
        if (best > limit)
            return limit + 1;
    }
    return row[lb];
}

static int lower_eq(const char *a, const char *b)
{
    for (; *a && *b; a++, b++) {
        char x = *a >= 'A' && *a <= 'Z' ? (char)(*a + 32) : *a;
        char y = *b >= 'A' && *b <= 'Z' ? (char)(*b + 32) : *b;
        if (x != y)
            return 0;
    }
    return *a == *b;
}

tav_status tav_session_play_text(tav_session *s, const char *text, char *err, size_t errlen)
{
    if (!text || !text[0]) {
        set_err(err, errlen, "empty move");
        return TAV_E_INVALID;
    }
    size_t len = strlen(text);
    if (len >= TAV_MOVE_TEXT) {
        set_err(err, errlen, "move text too long");
        return TAV_E_INVALID;
    }
    for (const char *p = text; *p; p++)
        if ((unsigned char)*p <= ' ' || (unsigned char)*p >= 127) {
            char q[41];
            tavi_quote(q, sizeof q, text, 40);
            tavi_bprintf(err, errlen, "bad character in move '%s' (a move is one word of "
                        "printable ASCII)", q);
            return TAV_E_INVALID;
        }
    if (tav_session_to_move(s) == TAV_NONE) {
        set_err(err, errlen, "the game is over");
        return TAV_E_OVER;
    }
    const void *cur = state_ptr(s, s->ply);
    tav_move *list = malloc(sizeof *list * (size_t)s->g->max_moves);
    if (!list) {
        set_err(err, errlen, "out of memory");
        return TAV_E_NOMEM;
    }
    int n = s->g->legal(cur, list);
    char buf[TAV_MOVE_TEXT], near[TAV_MOVE_TEXT] = "";
    int best = 2, found = -1;   /* near misses: letter case, or one edit */
    for (int i = 0; i < n && found < 0; i++) {
        s->g->move_str(cur, list[i], buf, sizeof buf);
        if (strcmp(buf, text) == 0) {
            found = i;
            break;
        }
        if (lower_eq(buf, text)) {
            best = 0;
            memcpy(near, buf, sizeof buf);
        } else if (best > 1) {
            int d = edit_distance(buf, text, best - 1);
            if (d < best) {
                best = d;
                memcpy(near, buf, sizeof buf);
            }
        }
    }
    tav_status st;
    if (found >= 0) {
        st = push_move(s, list[found]);
        if (st == TAV_E_NOMEM)
            set_err(err, errlen, "out of memory");
    } else {
        st = TAV_E_ILLEGAL;
        char q[TAV_MOVE_TEXT];   /* printable ASCII by now: copied as it is */
        tavi_quote(q, sizeof q, text, sizeof q - 1);
        size_t k = tavi_bprintf(err, errlen, "illegal move '%s' (not a legal move of %s now", q,
                               tav_side_name(s->g->to_move(cur)));
        /* The game-aware explanation first (explain.c), then the near miss. */
        char meant[TAV_MOVE_TEXT] = "", why[256] = "";
        if (tavi_explain_move(s->g, cur, text, meant, sizeof meant, why, sizeof why) == 1)
            memcpy(near, meant, sizeof near);
        if (why[0])
            k += tavi_bprintf(err + k, errlen - k, ": %s", why);
        if (near[0])
            tavi_bprintf(err + k, errlen - k, "; did you mean %s?)", near);
        else
            tavi_bprintf(err + k, errlen - k, ")");
    }
    free(list);
    return st;
}

/* Every check before a seat's move, in the order a seat hears of them. */
tav_status tav_session_play_as(tav_session *s, int side, int ply, int max_plies,
                               const char *text, int *repeated, char *err, size_t errlen)
{
    if (repeated)
        *repeated = 0;
    int now = s->ply;
    if (ply < now && ply >= 0) {
        /* A retry of a move already played answers as the first time. */
        const void *then = state_ptr(s, ply);
        if (text && strcmp(tav_session_move_text(s, ply), text) == 0 &&
            s->g->to_move(then) == side) {
            if (repeated)
                *repeated = 1;
            return TAV_OK;
        }
    }
    if (ply != now) {
        tavi_bprintf(err, errlen, "stale ply %d: %d moves were played", ply, now);
        return TAV_E_ILLEGAL;
    }
    tav_result r;
    tav_session_result(s, &r);
    if (r.over) {
        set_err(err, errlen, "the game is over");
        return TAV_E_OVER;
    }
    if (tav_session_to_move(s) != side) {
        set_err(err, errlen, "it is not your turn");
        return TAV_E_ILLEGAL;
    }
    if (max_plies > 0 && now >= max_plies) {
        tavi_bprintf(err, errlen, "a game on this server has at most %d moves", max_plies);
        return TAV_E_OVER;
    }
    return tav_session_play_text(s, text, err, errlen);
}

tav_status tav_session_play(tav_session *s, tav_move m)
{
    if (tav_session_to_move(s) == TAV_NONE)
        return TAV_E_OVER;
    const void *cur = state_ptr(s, s->ply);
    tav_move *list = malloc(sizeof *list * (size_t)s->g->max_moves);
    if (!list)
        return TAV_E_NOMEM;
    int n = s->g->legal(cur, list), ok = 0;
    for (int i = 0; i < n && !ok; i++)
        ok = list[i] == m;
    free(list);
    return ok ? push_move(s, m) : TAV_E_ILLEGAL;
}

tav_status tav_session_undo(tav_session *s)
{
    if (s->resigned != TAV_NONE) {
        s->resigned = TAV_NONE;
        return TAV_OK;
    }
    if (s->ply == 0)
        return TAV_E_NOTFOUND;
    s->ply--;
    return TAV_OK;
}

tav_status tav_session_resign(tav_session *s, int side)
{
    if (side != TAV_WHITE && side != TAV_BLACK)
        return TAV_E_INVALID;
    if (tav_session_to_move(s) == TAV_NONE)
        return TAV_E_OVER;
    s->resigned = side;
    return TAV_OK;
}

void tav_session_set_move_ms(tav_session *s, int i, int64_t ms)
{
    if (i >= 0 && i < s->ply)
        s->ms[i] = ms;
}

int64_t tav_session_move_ms(const tav_session *s, int i)
{
    return i >= 0 && i < s->ply ? s->ms[i] : 0;
}

int tav_session_legal(const tav_session *s, int viewer, tav_move *out)
{
    int tm = tav_session_to_move(s);
    if (tm == TAV_NONE || viewer != tm)
        return 0;
    return s->g->legal(state_ptr(s, s->ply), out);
}

int tav_session_move_str(const tav_session *s, tav_move m, char *buf, size_t n)
{
    return s->g->move_str(state_ptr(s, s->ply), m, buf, n);
}

tav_status tav_session_move_parts(const tav_session *s, tav_move m, tav_move_parts *p)
{
    return tav_game_move_parts(s->g, state_ptr(s, s->ply), m, p);
}

tav_status tav_session_position(const tav_session *s, int viewer, char *buf, size_t n)
{
    if (viewer != TAV_WHITE && viewer != TAV_BLACK && viewer != TAV_SPECTATOR)
        return TAV_E_INVALID;
    const void *st = state_ptr(s, s->ply);
    if (session_over(s)) {
        s->g->get_position(st, buf, n);
        return TAV_OK;
    }
    return tav_game_public_position(s->g, st, viewer, buf, n);
}

tav_status tav_session_view(const tav_session *s, int ply, int viewer, tav_board_view *v)
{
    if (ply < 0 || ply > s->ply)
        return TAV_E_NOTFOUND;
    if (viewer != TAV_WHITE && viewer != TAV_BLACK && viewer != TAV_SPECTATOR)
        return TAV_E_INVALID;
    tav_game_board_view(s->g, state_ptr(s, ply), viewer, v);
    tavi_bprintf(v->last_move, sizeof v->last_move, "%s", ply ? s->moves[ply - 1] : "");
    if (ply == s->ply && s->resigned != TAV_NONE) {
        v->to_move = TAV_NONE;
        tavi_bprintf(v->phase, sizeof v->phase, "over");
    }
    return TAV_OK;
}

tav_status tav_session_search_state(const tav_session *s, int viewer, void *out)
{
    if (viewer != TAV_WHITE && viewer != TAV_BLACK && viewer != TAV_SPECTATOR)
        return TAV_E_INVALID;
    memcpy(out, state_ptr(s, s->ply), s->g->state_size);
    if (s->g->mask && s->g->determinize && !session_over(s))
        s->g->mask(out, viewer);
    return TAV_OK;
}

/* The record: public (what anyone may see now) or all (options as given,
 * stacks always). */
static char *write_record(const tav_session *s, int all, const char *white_name,
                          const char *black_name)
{
    tav_record r;
    tav_record_init(&r);
    r.game = s->g;
    if (all)
        tavi_bprintf(r.options, sizeof r.options, "%s", s->options);
    else
        tav_session_public_options(s, r.options, sizeof r.options);
    tavi_bprintf(r.white, sizeof r.white, "%s", white_name ? white_name : "");
    tavi_bprintf(r.black, sizeof r.black, "%s", black_name ? black_name : "");
    for (int i = 0; i < s->ply; i++)
        if (tav_record_add(&r, s->moves[i], NULL) != TAV_OK) {
            tav_record_free(&r);
            return NULL;
        }
    time_t now = time(NULL);
    struct tm tmv;
    if (gmtime_r(&now, &tmv))
        strftime(r.date, sizeof r.date, "%Y-%m-%d", &tmv);
    /* Result and Score are those of the moves (a record is checked against
     * them); a resignation is told in the Event tag. */
    tav_result res;
    s->g->result(state_ptr(s, s->ply), &res);
    tavi_bprintf(r.result, sizeof r.result, "%s", res.over ? tav_side_name(res.winner) : "*");
    tavi_bprintf(r.score, sizeof r.score, "%d:%d", res.score[0], res.score[1]);
    if (s->resigned != TAV_NONE)
        tavi_bprintf(r.event, sizeof r.event, "%s resigned", tav_side_name(s->resigned));
    if (all || session_over(s))
        tav_record_set_deal(&r, s->g, state_ptr(s, 0));
    char *text = tav_record_write(&r);
    tav_record_free(&r);
    return text;
}

char *tav_session_record(const tav_session *s, int viewer, const char *white_name,
                         const char *black_name)
{
    (void)viewer;   /* every viewer sees the same record */
    return write_record(s, 0, white_name, black_name);
}

char *tav_session_record_all(const tav_session *s, const char *white_name, const char *black_name)
{
    return write_record(s, 1, white_name, black_name);
}
