/*
 * json.c — games as JSON (docs/server-api.md): the game object, the drawing
 * view, errors, the meta answer and analyses.
 *
 * Everything is built from the session's projection for one viewer, so
 * what a viewer may not see never reaches these functions.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "server/srv.h"

/* Serialize and free. */
static char *dump(json_t *o)
{
    if (!o)
        return NULL;
    char *s = json_dumps(o, JSON_COMPACT);
    json_decref(o);
    return s;
}

/* Length of the valid UTF-8 sequence at s (1..4), or 0 when invalid (an
 * overlong form, a surrogate, past U+10FFFF, or cut short). */
static int utf8_seq(const unsigned char *s)
{
    unsigned c = s[0];
    int n = c < 0x80 ? 1 : (c & 0xe0) == 0xc0 ? 2 : (c & 0xf0) == 0xe0 ? 3 : (c & 0xf8) == 0xf0 ? 4 : 0;
    if (n <= 1)
        return n;
    unsigned cp = c & (0x7fu >> n);
    for (int i = 1; i < n; i++) {
        if ((s[i] & 0xc0) != 0x80)
            return 0;
        cp = (cp << 6) | (s[i] & 0x3f);
    }
    static const unsigned least[5] = {0, 0, 0x80, 0x800, 0x10000};
    if (cp < least[n] || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
        return 0;
    return n;
}

/* Make a message valid UTF-8 in place: a byte that begins no valid
 * sequence (a character cut by a length limit, stray bytes) becomes '?'. */
static void utf8_clean(char *s)
{
    unsigned char *p = (unsigned char *)s;
    while (*p) {
        int n = utf8_seq(p);
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

static const char *owner_name(int owner)
{
    switch (owner) {
    case TAV_WHITE: return "white";
    case TAV_BLACK: return "black";
    default: return "neutral";
    }
}

static const char *side_or_none(int side)
{
    return side == TAV_WHITE ? "white" : side == TAV_BLACK ? "black" : "none";
}

/* Square name: file letter, rank number from 1 ("e5", "q17"). */
static void square_name(int file, int rank, char *buf, size_t n)
{
    snprintf(buf, n, "%c%d", 'a' + file, rank + 1);
}

static json_t *marks_json(unsigned m)
{
    static const struct { unsigned bit; const char *name; } names[] = {
        {TAV_MARK_LAST, "last"}, {TAV_MARK_LOT, "lot"}, {TAV_MARK_TERR_W, "terrWhite"},
        {TAV_MARK_TERR_B, "terrBlack"}, {TAV_MARK_AREA_W, "areaWhite"},
        {TAV_MARK_AREA_B, "areaBlack"}, {TAV_MARK_HOME_W, "homeWhite"},
        {TAV_MARK_HOME_B, "homeBlack"}, {TAV_MARK_MONUMENT, "monument"},
        {TAV_MARK_CENTRE, "centre"},
    };
    json_t *a = json_array();
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (m & names[i].bit)
            json_array_append_new(a, json_string(names[i].name));
    return a;
}

static json_t *hand_item_json(const tav_hand_item *it)
{
    char kind[2] = {it->kind, 0};
    json_t *o = json_pack("{s:s,s:i}", "kind", kind, "count", (int)it->count);
    if (it->id[0]) {
        char id[sizeof it->id + 1];
        memcpy(id, it->id, sizeof it->id);
        id[sizeof it->id] = 0;
        json_object_set_new(o, "id", json_string(id));
    }
    if (it->ncells > 0) {
        json_t *cells = json_array(), *off = json_array();
        int nc = it->ncells > TAV_SHAPE_CELLS ? TAV_SHAPE_CELLS : it->ncells;
        for (int i = 0; i < nc; i++) {
            json_array_append_new(cells, json_pack("[i,i]", it->cell[i][0], it->cell[i][1]));
            if (it->offcolour[i])
                json_array_append_new(off, json_integer(i));
        }
        json_object_set_new(o, "cells", cells);
        if (json_array_size(off) > 0 || it->id[0])
            json_object_set_new(o, "off", off);
        else
            json_decref(off);
    }
    return o;
}

static json_t *side_json(const tav_side_view *sv)
{
    json_t *hand = json_array();
    int n = sv->nitems > TAV_HAND_ITEMS ? TAV_HAND_ITEMS : sv->nitems;
    for (int i = 0; i < n; i++)
        json_array_append_new(hand, hand_item_json(&sv->item[i]));
    return json_pack("{s:o,s:i,s:b,s:i,s:i,s:i}", "hand", hand, "stack", sv->stack, "veto",
                     sv->veto != 0, "onBoard", sv->on_board, "captured", sv->captured, "score",
                     sv->score);
}

/* The drawing view object of docs/server-api.md. */
static json_t *view_object(const tav_board_view *v)
{
    json_t *squares = json_object();
    int w = v->width, h = v->height;
    if (w < 0 || h < 0 || w * h > TAV_MAX_SQUARES)
        w = h = 0;
    for (int r = 0; r < h; r++)
        for (int f = 0; f < w; f++) {
            const tav_square *q = &v->sq[r * w + f];
            if (!q->kind && !q->marks && !q->region)
                continue;
            char name[16];
            square_name(f, r, name, sizeof name);
            json_t *o = json_object();
            if (q->kind) {
                char kind[2] = {q->kind, 0};
                json_object_set_new(o, "kind", json_string(kind));
                json_object_set_new(o, "owner", json_string(owner_name(q->owner)));
            }
            if (q->piece)
                json_object_set_new(o, "piece", json_integer(q->piece));
            if (q->region)
                json_object_set_new(o, "region", json_integer(q->region));
            if (q->marks)
                json_object_set_new(o, "marks", marks_json(q->marks));
            json_object_set_new(squares, name, o);
        }
    json_t *regions = json_array();
    int nr = v->nregions > TAV_MAX_REGIONS ? TAV_MAX_REGIONS : v->nregions;
    for (int i = 0; i < nr; i++) {
        const tav_region *rg = &v->region[i];
        json_array_append_new(regions,
                              json_pack("{s:i,s:i,s:i,s:s,s:i}", "id", (int)rg->id, "white",
                                        rg->value[0], "black", rg->value[1], "scorer",
                                        side_or_none(rg->scorer), "points", rg->points));
    }
    char phase[sizeof v->phase + 1], last[TAV_MOVE_TEXT + 1], info[sizeof v->info + 1];
    snprintf(phase, sizeof phase, "%.*s", (int)sizeof v->phase, v->phase);
    snprintf(last, sizeof last, "%.*s", TAV_MOVE_TEXT, v->last_move);
    snprintf(info, sizeof info, "%.*s", (int)sizeof v->info, v->info);
    return json_pack("{s:i,s:i,s:s,s:s,s:s,s:o,s:{s:o,s:o},s:o}", "width", w, "height", h,
                     "phase", phase, "last", last, "info", info, "squares", squares, "sides",
                     "white", side_json(&v->side[0]), "black", side_json(&v->side[1]),
                     "regions", regions);
}

/* The view of ply `ply` for viewer, or NULL. */
static json_t *view_at(const tav_session *s, int ply, int viewer)
{
    tav_board_view *v = calloc(1, sizeof *v);
    if (!v)
        return NULL;
    json_t *o = NULL;
    if (tav_session_view(s, ply, viewer, v) == TAV_OK)
        o = view_object(v);
    free(v);
    return o;
}

char *json_view(const tav_session *s, int ply, int viewer)
{
    json_t *v = view_at(s, ply, viewer);
    if (!v)
        return NULL;
    return dump(json_pack("{s:i,s:o}", "ply", ply, "view", v));
}

/* Square names of the first n of a parts list. */
static json_t *parts_squares(const int8_t (*sq)[2], int n)
{
    json_t *a = json_array();
    for (int i = 0; i < n && i < TAV_PART_SQUARES; i++) {
        char name[16];
        square_name(sq[i][0], sq[i][1], name, sizeof name);
        json_array_append_new(a, json_string(name));
    }
    return a;
}

/* A legal move's parts (docs/server-api.md, legalParts): what is absent is
 * left out, but "action" and "squares" are always there. */
static json_t *parts_json(const tav_session *s, tav_move m)
{
    tav_move_parts p;
    if (tav_session_move_parts(s, m, &p) != TAV_OK)
        return json_pack("{s:s,s:[]}", "action", "", "squares");
    char action[sizeof p.action + 1], piece[sizeof p.piece + 1], name[16];
    snprintf(action, sizeof action, "%.*s", (int)sizeof p.action, p.action);
    snprintf(piece, sizeof piece, "%.*s", (int)sizeof p.piece, p.piece);
    json_t *o = json_pack("{s:s,s:o}", "action", action, "squares",
                          parts_squares((const int8_t(*)[2])p.squares, p.nsquares));
    if (piece[0])
        json_object_set_new(o, "piece", json_string(piece));
    if (p.from[0] >= 0) {
        square_name(p.from[0], p.from[1], name, sizeof name);
        json_object_set_new(o, "from", json_string(name));
    }
    if (p.to[0] >= 0) {
        square_name(p.to[0], p.to[1], name, sizeof name);
        json_object_set_new(o, "to", json_string(name));
    }
    if (p.nmarked)
        json_object_set_new(o, "marked",
                            parts_squares((const int8_t(*)[2])p.marked, p.nmarked));
    if (p.rotation >= 0)
        json_object_set_new(o, "rotation", json_integer(p.rotation));
    if (p.side == TAV_WHITE || p.side == TAV_BLACK)
        json_object_set_new(o, "side", json_string(tav_side_name(p.side)));
    return o;
}

char *json_game(const game *g, int viewer)
{
    const tav_session *s = g->s;
    const tav_game *tg = tav_session_game(s);
    int ply = tav_session_ply(s);
    json_t *moves = json_array();
    for (int i = 0; i < ply; i++)
        json_array_append_new(moves, json_string(tav_session_move_text(s, i)));
    /* The legal moves this viewer may see (none unless it is the seat to
     * act), and beside each its parts, in the same order. */
    json_t *legal = json_array(), *legal_parts = json_array();
    tav_move *lm = malloc(sizeof *lm * (size_t)(tg->max_moves > 0 ? tg->max_moves : 1));
    if (lm) {
        int n = tav_session_legal(s, viewer, lm);
        for (int i = 0; i < n; i++) {
            char text[TAV_MOVE_TEXT];
            if (tav_session_move_str(s, lm[i], text, sizeof text) > 0) {
                json_array_append_new(legal, json_string(text));
                json_array_append_new(legal_parts, parts_json(s, lm[i]));
            }
        }
        free(lm);
    }
    tav_result r;
    tav_session_result(s, &r);
    char opts[1024];
    tav_session_public_options(s, opts, sizeof opts);
    int resigned = tav_session_resigned(s);
    json_t *view = view_at(s, ply, viewer);
    json_t *o = json_pack(
        "{s:s,s:s,s:s,s:s,s:s,s:o,s:s,s:b,s:s,s:[i,i],s:o,s:i,s:o,s:o,s:b,s:o}", "id", g->id,
        "game", tg->name, "options", opts, "white", g->player[0], "black", g->player[1],
        "moves", moves, "tomove", side_or_none(tav_session_to_move(s)), "over", r.over != 0,
        "winner", r.over ? tav_side_name(r.winner) : "none", "score", r.score[0], r.score[1],
        "legal", legal, "ply", ply, "seat",
        viewer == TAV_WHITE ? json_string("white")
                            : viewer == TAV_BLACK ? json_string("black") : json_null(),
        "resigned",
        resigned == TAV_WHITE ? json_string("white")
                              : resigned == TAV_BLACK ? json_string("black") : json_null(),
        "thinking", g->job != NULL, "view", view ? view : json_null());
    /* Whether a seat may ever take a move back here: only against a
     * computer seat, and never with hidden information (game.c). */
    json_object_set_new(o, "undo", json_boolean(core_undo_offered(g)));
    /* A deal chosen by the game's creator (Toscana's seed or stacks, through
     * the API): still hidden from both sides, but nobody plays it unaware. */
    json_object_set_new(o, "dealChosen", json_boolean(core_deal_chosen(s)));
    json_object_set_new(o, "legalParts", legal_parts);
    return dump(o);
}

/* Levels named in words, 1..10. */
static const char *const level_names[] = {
    "beginner", "novice", "casual", "club player", "good club player",
    "strong", "expert", "master", "grandmaster", "full strength",
};

/* A string, or null for none. */
static json_t *string_or_null(const char *t)
{
    return t ? json_string(t) : json_null();
}

/* What a game's table says for people (docs/server-api.md, /api/meta): its
 * title, pitch, score words, its option menu, the note on sides and the
 * rules, added to the game's meta object o. */
static void meta_words(json_t *o, const tav_game *g)
{
    json_object_set_new(o, "title", json_string(g->title ? g->title : g->name));
    json_object_set_new(o, "pitch", json_string(g->pitch ? g->pitch : ""));
    json_object_set_new(o, "scoreWords", json_string(g->score_words ? g->score_words : ""));
    json_object_set_new(o, "scoreWins",
                        json_string(g->score_wins == TAV_SCORE_HIGHER_WINS  ? "higher"
                                    : g->score_wins == TAV_SCORE_LOWER_WINS ? "lower"
                                                                            : "none"));
    json_t *menu = json_null();
    const tav_choice *ch = g->menu;
    if (ch && ch->key && ch->values) {
        json_t *choices = json_array();
        for (int k = 0; ch->values[k]; k++)
            json_array_append_new(choices, json_pack("{s:s,s:s}", "value", ch->values[k], "label",
                                                     ch->labels && ch->labels[k] ? ch->labels[k]
                                                                                 : ch->values[k]));
        menu = json_pack("{s:s,s:s,s:o,s:o}", "key", ch->key, "question",
                         ch->question ? ch->question : "", "note", string_or_null(ch->note),
                         "choices", choices);
    }
    json_object_set_new(o, "menu", menu);
    json_object_set_new(o, "sideNote", string_or_null(g->side_note));
    json_t *rules = json_array();
    for (int k = 0; g->rules && g->rules[k].heading; k++)
        json_array_append_new(rules, json_pack("{s:s,s:s}", "heading", g->rules[k].heading, "text",
                                               g->rules[k].text ? g->rules[k].text : ""));
    json_object_set_new(o, "rules", rules);
}

char *json_meta(void)
{
    json_t *games = json_array();
    for (int i = 0; i < tav_game_count(); i++) {
        const tav_game *g = tav_game_at(i);
        json_t *samples = json_array();
        if (g->samples)
            for (int k = 0; g->samples[k]; k++)
                json_array_append_new(samples, json_string(g->samples[k]));
        /* The levels' measured ratings (random = 0; null: not rated yet). */
        json_t *ratings = json_array();
        for (int l = 1; l <= 10; l++) {
            int r = tav_level_rating(g, l);
            json_array_append_new(ratings, r >= 0 ? json_integer(r) : json_null());
        }
        json_t *o = json_pack("{s:s,s:o,s:o}", "name", g->name, "options", samples, "ratings",
                              ratings);
        meta_words(o, g);
        json_array_append_new(games, o);
    }
    json_t *players = json_array();
    json_array_append_new(players, json_string("human"));
    const char *const *tp = tav_players();
    for (int i = 0; tp && tp[i]; i++)
        json_array_append_new(players, json_string(tp[i]));
    json_t *levels = json_array();
    for (int i = 0; i < 10; i++)
        json_array_append_new(levels, json_pack("{s:i,s:s,s:s}", "level", i + 1, "name",
                                                level_names[i], "player", ""));
    for (int i = 0; i < 10; i++) {
        char spec[24];
        snprintf(spec, sizeof spec, "ai:level=%d", i + 1);
        json_object_set_new(json_array_get(levels, (size_t)i), "player", json_string(spec));
    }
    return dump(json_pack("{s:o,s:o,s:o}", "games", games, "players", players, "levels",
                          levels));
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

static int viewer_slot(int viewer)
{
    return viewer == TAV_WHITE ? 0 : viewer == TAV_BLACK ? 1 : 2;
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
        char *text = json_game(g, viewer);
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
