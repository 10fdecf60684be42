/*
 * json.c — games as JSON (docs/server-api.md): the game object, the drawing
 * view, errors, the meta answer and analyses.
 *
 * Everything is built from the session's projection for one viewer, so
 * what a viewer may not see never reaches these functions.  The answers
 * built at every change (a game, its view, its legal moves) are written
 * straight into one growing buffer with the library's writer
 * (src/session/json.c, the page's engine's too: no tree of nodes, no
 * allocation per value); the rest with jansson.
 */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "server/srv.h"
#include "session/json.h"

/* Serialize and free. */
static char *dump(json_t *o)
{
    if (!o)
        return NULL;
    char *s = json_dumps(o, JSON_COMPACT);
    json_decref(o);
    return s;
}

/* Make a message valid UTF-8 in place: a byte that begins no valid
 * sequence (a character cut by a length limit, stray bytes) becomes '?'. */
static void utf8_clean(char *s)
{
    unsigned char *p = (unsigned char *)s;
    while (*p) {
        int n = tavi_utf8_seq(p);
        if (n == 0) {
            *p++ = '?';
        } else {
            p += n;
        }
    }
}

char *json_error(const char *fmt, ...)
{
    char buf[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    /* Messages quote what a client sent: they must still be valid JSON. */
    utf8_clean(buf);
    return dump(json_pack("{s:s}", "error", buf));
}

/* ---- an answer's body (every route file answers through these) ---- */

void reply_text(reply *r, int status, char *body)
{
    r->status = status;
    r->body = body;
    r->ctype = "application/json";
}

void reply_json(reply *r, int status, json_t *o)
{
    reply_text(r, status, o ? json_dumps(o, JSON_COMPACT) : NULL);
    json_decref(o);
    if (!r->body)
        reply_text(r, 500, json_error("the answer could not be written"));
}

void reply_refuse(reply *r, int status, const char *text)
{
    reply_text(r, status, json_error("%s", text));
}

/* The view of ply `ply` for viewer (null when there is none). */
static void view_at(tavi_jbuf *b, const tav_session *s, int ply, int viewer)
{
    tav_board_view *v = calloc(1, sizeof *v);
    if (v && tav_session_view(s, ply, viewer, v) == TAV_OK)
        tavi_json_view(b, v);
    else
        TAVI_JB_LIT(b, "null");
    free(v);
}

char *json_view(const tav_session *s, int ply, int viewer)
{
    tavi_jbuf b = {0};
    TAVI_JB_LIT(&b, "{\"ply\":");
    tavi_jb_int(&b, ply);
    TAVI_JB_LIT(&b, ",\"view\":");
    view_at(&b, s, ply, viewer);
    tavi_jb_ch(&b, '}');
    return tavi_jb_done(&b);
}

char *json_game(const tav_session *s, const json_seats *g, int viewer)
{
    int ply = tav_session_ply(s);
    tavi_jbuf b = {0};
    tav_result r;
    tav_session_result(s, &r);
    /* Ended by the server (abort, time): over, the winner it says. */
    int forced = g->end && g->end[0];
    if (forced) {
        r.over = 1;
        r.winner = strcmp(g->end, "abort") == 0 ? TAV_NONE : g->end_winner;
    }
    TAVI_JB_LIT(&b, "{\"id\":");
    tavi_jb_str(&b, g->id);
    tavi_jb_ch(&b, ',');
    tavi_json_game_head(&b, s);
    TAVI_JB_LIT(&b, ",\"white\":");
    tavi_jb_str(&b, g->player[0]);
    TAVI_JB_LIT(&b, ",\"black\":");
    tavi_jb_str(&b, g->player[1]);
    tavi_jb_ch(&b, ',');
    /* The legal moves this viewer may see (none unless it is the seat to
     * act), in groups of the same parts: in the state. */
    tavi_json_state(&b, s, &r, viewer);
    TAVI_JB_LIT(&b, ",\"thinking\":");
    tavi_jb_bool(&b, g->thinking);
    TAVI_JB_LIT(&b, ",\"view\":");
    view_at(&b, s, ply, viewer);
    /* Whether a seat may ever take a move back here: only against a
     * computer seat, and never with hidden information (the core). */
    TAVI_JB_LIT(&b, ",\"undo\":");
    tavi_jb_bool(&b, g->undo);
    TAVI_JB_LIT(&b, ",\"help\":");
    tavi_jb_bool(&b, g->help);
    /* A deal chosen by the game's creator (Toscana's seed or stacks, through
     * the API): still hidden from both sides, but nobody plays it unaware. */
    TAVI_JB_LIT(&b, ",\"dealChosen\":");
    tavi_jb_bool(&b, core_deal_chosen(s));
    TAVI_JB_LIT(&b, ",\"rematch\":");
    if (g->rematch && g->rematch[0])
        tavi_jb_str(&b, g->rematch);
    else
        TAVI_JB_LIT(&b, "null");
    /* Extension: the tournament the game is a game of (only then). */
    if (g->tournament && g->tournament[0]) {
        TAVI_JB_LIT(&b, ",\"tournament\":");
        tavi_jb_str(&b, g->tournament);
    }
    /* SPEC "Accounts, the lobby, clocks and ratings". */
    TAVI_JB_LIT(&b, ",\"accounts\":{\"white\":");
    for (int side = 0; side < 2; side++) {
        if (side)
            TAVI_JB_LIT(&b, ",\"black\":");
        if (g->account[side] && g->account[side][0])
            tavi_jb_str(&b, g->account[side]);
        else
            TAVI_JB_LIT(&b, "null");
    }
    TAVI_JB_LIT(&b, "}");
    if (g->bot[0] || g->bot[1]) {
        /* SPEC "Bots": which sides are bot accounts (only in their games). */
        TAVI_JB_LIT(&b, ",\"bots\":{\"white\":");
        tavi_jb_bool(&b, g->bot[0]);
        TAVI_JB_LIT(&b, ",\"black\":");
        tavi_jb_bool(&b, g->bot[1]);
        TAVI_JB_LIT(&b, "}");
    }
    TAVI_JB_LIT(&b, ",\"rated\":");
    tavi_jb_bool(&b, g->rated);
    /* Extension: a rated game once over, each player's rating before and
     * after it (null until the result is committed, and for other games). */
    TAVI_JB_LIT(&b, ",\"ratings\":");
    if (r.over && g->rated && g->rating_before && g->rating_after && g->rating_after[0] > 0 &&
        g->rating_after[1] > 0) {
        for (int side = 0; side < 2; side++) {
            tavi_jb_lit(&b, side ? ",\"black\":{\"before\":" : "{\"white\":{\"before\":");
            tavi_jb_num(&b, g->rating_before[side]);
            TAVI_JB_LIT(&b, ",\"after\":");
            tavi_jb_num(&b, g->rating_after[side]);
            tavi_jb_ch(&b, '}');
        }
        tavi_jb_ch(&b, '}');
    } else {
        TAVI_JB_LIT(&b, "null");
    }
    TAVI_JB_LIT(&b, ",\"end\":");
    if (!r.over)
        TAVI_JB_LIT(&b, "null");
    else if (forced)
        tavi_jb_str(&b, g->end);
    else
        tavi_jb_str(&b, tav_session_resigned(s) != TAV_NONE ? "resign" : "normal");
    /* Extension: a draw offered, a take-back asked (the side, or null). */
    TAVI_JB_LIT(&b, ",\"offers\":{\"draw\":");
    tavi_jb_side_or_null(&b, g->draw_offer);
    TAVI_JB_LIT(&b, ",\"takeback\":");
    tavi_jb_side_or_null(&b, g->takeback_offer);
    TAVI_JB_LIT(&b, ",\"rematch\":");
    tavi_jb_side_or_null(&b, g->rematch_offer);
    /* Extension: the side whose absence ended it (abort: it did not make
     * its first move; abandon: it left), else null. */
    TAVI_JB_LIT(&b, "},\"absent\":");
    tavi_jb_side_or_null(&b, r.over && forced ? g->absent : -1);
    TAVI_JB_LIT(&b, ",\"clock\":null");
    tavi_jb_ch(&b, '}');
    return tavi_jb_done(&b);
}

char *json_meta(void)
{
    tavi_jbuf b = {0};
    tavi_json_meta(&b);
    return tavi_jb_done(&b);
}

char *json_analysis(const tav_session *s, const analysis *an)
{
    json_t *plies = json_array();
    int done = an && an->done;
    if (done) {
        for (int p = 0; p < an->n; p++) {
            const void *st = tav_session_state_at(s, p);
            int mover = st ? tav_session_game(s)->to_move(st) : TAV_NONE;
            /* The mover's expected score before and after its move. */
            double before = mover == TAV_BLACK ? 1.0 - an->white[p] : an->white[p];
            double after = mover == TAV_BLACK ? 1.0 - an->white[p + 1] : an->white[p + 1];
            double loss = before - after;
            const char *mark = loss > 0.25 ? "??" : loss > 0.12 ? "?" : "";
            json_array_append_new(plies, json_pack("{s:s,s:f,s:s,s:s}", "move",
                                                   tav_session_move_text(s, p), "value",
                                                   an->white[p + 1], "best", an->best[p],
                                                   "mark", mark));
        }
    }
    return dump(json_pack("{s:b,s:o}", "done", done, "plies", plies));
}

/* The edge's data of a game (game->edge): its sockets and its JSON. */
gview *gview_of(game *g)
{
    gview *gv = core_game_edge(g);
    if (!gv) {
        gv = calloc(1, sizeof *gv);
        if (!gv)
            return NULL;
        gv->g = g;
        core_game_set_edge(g, gv);
    }
    return gv;
}

static int viewer_slot(int viewer)
{
    return viewer == TAV_WHITE ? 0 : viewer == TAV_BLACK ? 1 : 2;
}

char *json_game_copy(core *C, game *g, int viewer, size_t *len)
{
    size_t n = 0;
    const char *text = json_game_cached(g, viewer, &n);
    if (!text)
        return NULL;
    int64_t left[2] = {0, 0}, deadline = 0;
    int64_t now = core_game_ms(C);
    int kind = core_clock(g, now, left, &deadline);
    core_facts f;
    core_game_facts(g, &f);
    /* SPEC: "claimable" to the player who may claim now; extension:
     * "claimIn", the ms until then while the opponent is away (else null). */
    int64_t in = core_claim_in(g, viewer, now);
    char claim[80];
    if (in < 0)
        snprintf(claim, sizeof claim, "\"claimable\":false,\"claimIn\":null,");
    else
        snprintf(claim, sizeof claim, "\"claimable\":%s,\"claimIn\":%lld,", in == 0 ? "true" : "false",
                 (long long)in);
    char clock[160] = "null";
    if (kind == 1)
        snprintf(clock, sizeof clock,
                 "{\"initial\":%lld,\"increment\":%lld,\"white\":%lld,\"black\":%lld}",
                 (long long)(f.clk_initial_ms / 1000), (long long)(f.clk_inc_ms / 1000),
                 (long long)left[0], (long long)left[1]);
    else if (kind == 2 && deadline > 0)
        snprintf(clock, sizeof clock, "{\"days\":%lld,\"deadline\":%lld}",
                 (long long)f.clk_days, (long long)deadline);
    else if (kind == 2)
        snprintf(clock, sizeof clock, "{\"days\":%lld,\"deadline\":null}",
                 (long long)f.clk_days);
    /* The cached text ends with "clock":null}: the claim and the clock go
     * in its place. */
    size_t head = n >= 13 ? n - 13 : n, ml = strlen(claim), cl = strlen(clock);
    char *out = malloc(head + ml + 8 + cl + 2);
    if (!out)
        return NULL;
    memcpy(out, text, head);
    memcpy(out + head, claim, ml);
    memcpy(out + head + ml, "\"clock\":", 8);
    memcpy(out + head + ml + 8, clock, cl);
    out[head + ml + 8 + cl] = '}';
    out[head + ml + 8 + cl + 1] = 0;
    if (len)
        *len = head + ml + 8 + cl + 1;
    return out;
}

const char *json_game_cached(game *g, int viewer, size_t *len)
{
    gview *gv = gview_of(g);
    if (!gv) {
        /* No memory for the cache: no answer (the caller says so). */
        return NULL;
    }
    int k = viewer_slot(viewer);
    unsigned long stamp = core_stamp(g);
    if (!gv->json[k] || gv->jstamp[k] != stamp) {
        core_facts f;
        core_game_facts(g, &f);
        json_seats seats = {f.id,
                            {f.player[0], f.player[1]},
                            f.thinking,
                            core_undo_offered(g),
                            core_help_allowed(g),
                            f.rematch,
                            {f.account[0], f.account[1]},
                            f.rated,
                            f.end,
                            f.end_winner,
                            f.draw_offer,
                            f.takeback_offer,
                            f.rematch_offer,
                            f.absent,
                            f.rating_before,
                            f.rating_after,
                            {f.bot[0], f.bot[1]},
                            f.tournament};
        char *text = json_game(core_game_session(g), &seats, viewer);
        if (!text)
            return NULL;
        free(gv->json[k]);
        gv->json[k] = text;
        gv->jlen[k] = strlen(text);
        gv->jstamp[k] = stamp;
    }
    if (len)
        *len = gv->jlen[k];
    return gv->json[k];
}

/* Add a socket's account to the names online, once (seen: every name met,
 * in lower case, so the count is right past `max` names too). */
static void note_online(json_t *seen, json_t *names, int max, const conn *c)
{
    if (!c->account[0])
        return;
    char key[STORE_NAME_LEN];
    size_t i = 0;
    for (; c->account[i] && i + 1 < sizeof key; i++)
        key[i] = (char)tolower((unsigned char)c->account[i]);
    key[i] = 0;
    if (json_object_get(seen, key))
        return;
    json_object_set_new(seen, key, json_true());
    if ((int)json_array_size(names) < max)
        json_array_append_new(names, json_string(c->account));
}

typedef struct online_ctx {
    json_t *seen, *names;
    int max;
} online_ctx;

static void note_game_online(void *ctx, game *g)
{
    online_ctx *o = ctx;
    gview *gv = core_game_edge(g);
    for (conn *c = gv ? gv->live : NULL; c; c = c->next)
        note_online(o->seen, o->names, o->max, c);
}

/* Who is online (GET /api/online): the accounts with a lobby or game socket
 * open, each once, at most `max` names. */
json_t *json_online(srv *S, int max)
{
    json_t *seen = json_object(), *names = json_array();
    for (conn *c = S->lobby; c; c = c->next)
        note_online(seen, names, max, c);
    online_ctx oc = {seen, names, max};
    core_each_game(S->C, note_game_online, &oc);
    json_t *o = json_pack("{s:i,s:o}", "count", (int)json_object_size(seen), "names", names);
    json_decref(seen);
    return o;
}
