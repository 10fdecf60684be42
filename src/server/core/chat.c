/*
 * chat.c — chat in a game between accounts, and each account's block list
 * (docs/server-api.md "Chat", "Blocks").
 *
 * Two rooms a game: the players' (its two accounts only) and the
 * spectators' (anyone else signed in); nobody reads the other room, so no
 * spectator can pass a hint to a player.  A line is checked here (UTF-8,
 * at most CORE_CHAT_MAX characters, no control characters), counted
 * against its writer (CORE_CHAT_BURST lines in CORE_CHAT_BURST_MS in all,
 * CORE_CHAT_PER_GAME in one game), written through the writer like any
 * other change and handed to the edge (events.chat) once committed; many
 * instances hear of it on tav_account ("chat GAME ROOM MS NAME") and read
 * it from the store.  Lines live in their own table, never in a game's
 * record.  The edge asks core_blocks before it hands a line to a socket:
 * a blocked account's lines never reach the account that blocked it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "server/core/internal.h"
#include "server/core/writer.h"

/* One account's recent lines (the burst limit), by lower-case name. */
typedef struct chat_rate {
    char key[STORE_NAME_LEN];
    int64_t t[CORE_CHAT_BURST];
    int n;
} chat_rate;

typedef struct chat_state {
    chat_rate slot[CORE_CHAT_SLOTS];
} chat_state;

void core_chat_free(core *C)
{
    free(C->chat);
    C->chat = NULL;
}

static void lower(const char *in, char out[STORE_NAME_LEN])
{
    size_t i = 0;
    for (; in[i] && i + 1 < STORE_NAME_LEN; i++)
        out[i] = (char)((in[i] >= 'A' && in[i] <= 'Z') ? in[i] + 32 : in[i]);
    out[i] = 0;
}

/* The burst limit: 1 when `account` may post at now_ms (and counts it). */
static int rate_take(core *C, const char *account, int64_t now_ms, int commit)
{
    if (!C->chat && !(C->chat = calloc(1, sizeof(chat_state))))
        return 1;   /* no memory for the table: the per-game limit still holds */
    chat_state *cs = C->chat;
    char key[STORE_NAME_LEN];
    lower(account, key);
    uint32_t h = 2166136261u;
    for (const char *p = key; *p; p++)
        h = (h ^ (unsigned char)*p) * 16777619u;
    chat_rate *free_slot = NULL, *r = NULL;
    for (int i = 0; i < 8 && !r; i++) {
        chat_rate *s = &cs->slot[(h + (uint32_t)i) % CORE_CHAT_SLOTS];
        if (strcmp(s->key, key) == 0)
            r = s;
        else if (!free_slot && (!s->key[0] || (s->n && now_ms - s->t[(s->n - 1) % CORE_CHAT_BURST] >
                                                           CORE_CHAT_BURST_MS)))
            free_slot = s;
    }
    if (!r) {
        if (!free_slot)
            return 0;   /* the table is full near its slot: refuse for now */
        r = free_slot;
        memset(r, 0, sizeof *r);
        snprintf(r->key, sizeof r->key, "%s", key);
    }
    /* The ring holds the last CORE_CHAT_BURST times; the oldest decides. */
    if (r->n >= CORE_CHAT_BURST && now_ms - r->t[r->n % CORE_CHAT_BURST] < CORE_CHAT_BURST_MS)
        return 0;
    if (commit) {
        r->t[r->n % CORE_CHAT_BURST] = now_ms;
        r->n++;
        if (r->n >= 2 * CORE_CHAT_BURST)
            r->n -= CORE_CHAT_BURST;
    }
    return 1;
}

/* A line's text: valid UTF-8, 1..CORE_CHAT_MAX code points, none a control
 * character (C0, DEL, C1, the line and paragraph separators) nor a
 * bidirectional override or isolate (they would turn the rest of the
 * page's line around).  0 or -1 with err. */
static int text_ok(const char *text, char *err, size_t errlen)
{
    const unsigned char *p = (const unsigned char *)text;
    int chars = 0, visible = 0;
    while (*p) {
        uint32_t c;
        int len;
        if (*p < 0x80) {
            c = *p;
            len = 1;
        } else if ((*p & 0xE0) == 0xC0) {
            c = *p & 0x1F;
            len = 2;
        } else if ((*p & 0xF0) == 0xE0) {
            c = *p & 0x0F;
            len = 3;
        } else if ((*p & 0xF8) == 0xF0) {
            c = *p & 0x07;
            len = 4;
        } else {
            snprintf(err, errlen, "the text is not valid UTF-8");
            return -1;
        }
        for (int i = 1; i < len; i++) {
            if ((p[i] & 0xC0) != 0x80) {
                snprintf(err, errlen, "the text is not valid UTF-8");
                return -1;
            }
            c = (c << 6) | (p[i] & 0x3F);
        }
        static const uint32_t least[5] = {0, 0, 0x80, 0x800, 0x10000};
        if (c < least[len] || c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF)) {
            snprintf(err, errlen, "the text is not valid UTF-8");
            return -1;
        }
        if (c < 0x20 || (c >= 0x7F && c <= 0x9F) || c == 0x2028 || c == 0x2029 ||
            (c >= 0x202A && c <= 0x202E) || (c >= 0x2066 && c <= 0x2069)) {
            snprintf(err, errlen, "the text may not hold control characters");
            return -1;
        }
        if (c != ' ')
            visible = 1;
        chars++;
        p += len;
    }
    if (!visible) {
        snprintf(err, errlen, "write something");
        return -1;
    }
    if (chars > CORE_CHAT_MAX) {
        snprintf(err, errlen, "at most %d characters a line", CORE_CHAT_MAX);
        return -1;
    }
    return 0;
}

int core_chat_flags(core *C, const char *account)
{
    int flags = 0;
    char err[160];
    if (!account || !account[0] ||
        C->st->ops->get_chat_flags(C->st, account, &flags, err, sizeof err) < 0)
        return 0;
    return flags;
}

int core_chat_room(core *C, const game *g, const char *account)
{
    if (!account || !account[0] || !g->account[0][0] || !g->account[1][0] || !g->human[0] ||
        !g->human[1])
        return -1;   /* not signed in; a guest's side; a computer's (Computer-N) */
    core_cred who = {NULL, account};
    if (core_side_of(g, &who) < 0)
        return STORE_ROOM_SPECTATORS;
    if (g->rated && (core_chat_flags(C, account) & STORE_CHAT_OFF_RATED))
        return -1;
    return STORE_ROOM_PLAYERS;
}

/* The write: the line itself; once committed the edge hands it out. */
typedef struct chat_write {
    char game[STORE_ID_LEN];
    int room;
    char name[STORE_NAME_LEN];
    char text[CORE_CHAT_MAX * 4 + 1];
    int64_t ms;
} chat_write;

static int chat_apply(store *st, void *data, char *err, size_t errlen)
{
    chat_write *w = data;
    return st->ops->add_chat(st, w->game, w->room, w->name, w->text, w->ms, err, errlen);
}

static void chat_tell(core *C, const chat_write *w)
{
    game *g = games_find(C, w->game);
    if (!g || !C->ev.chat)
        return;   /* out of memory: no socket follows it */
    core_chat_line l = {w->room, w->name, w->text, w->ms};
    C->ev.chat(C->ev.ctx, g, &l);
}

static void chat_settled(core *C, const void *data, int ok)
{
    if (ok)
        chat_tell(C, data);
}

typedef struct count_ctx {
    const char *name;
    int n;
} count_ctx;

static int count_line(void *ctx, const char *name, const char *text, int64_t ms)
{
    count_ctx *k = ctx;
    (void)text;
    (void)ms;
    k->n += strcasecmp(name, k->name) == 0;
    return 0;
}

core_status core_chat_post(core *C, game *g, const char *account, const char *text, int64_t *ms,
                           char *err, size_t errlen)
{
    if (!account || !account[0]) {
        snprintf(err, errlen, "sign in to chat");
        return CORE_FORBIDDEN;
    }
    int room = core_chat_room(C, g, account);
    if (room < 0) {
        snprintf(err, errlen, !g->account[0][0] || !g->account[1][0] || !g->human[0] ||
                                      !g->human[1]
                                  ? "this game has no chat (a game with a guest or the computer)"
                                  : "your chat is off in rated games (your account's setting)");
        return CORE_FORBIDDEN;
    }
    if (core_chat_flags(C, account) & STORE_CHAT_MUTED) {
        snprintf(err, errlen, "your chat has been stopped by the site's operator");
        return CORE_FORBIDDEN;
    }
    if (text_ok(text, err, errlen) != 0)
        return CORE_BAD;
    int64_t now = core_unix_ms();
    if (!rate_take(C, account, now, 0)) {
        snprintf(err, errlen, "at most %d lines in %d seconds: wait a moment", CORE_CHAT_BURST,
                 CORE_CHAT_BURST_MS / 1000);
        return CORE_LIMIT;
    }
    count_ctx k = {account, 0};
    char serr[160];
    if (C->st->ops->each_chat(C->st, g->id, room, 100000, count_line, &k, serr, sizeof serr) < 0) {
        snprintf(err, errlen, "the chat could not be read: try again");
        return CORE_UNAVAILABLE;
    }
    if (k.n >= CORE_CHAT_PER_GAME) {
        snprintf(err, errlen, "at most %d lines per game", CORE_CHAT_PER_GAME);
        return CORE_LIMIT;
    }
    chat_write w;
    memset(&w, 0, sizeof w);
    snprintf(w.game, sizeof w.game, "%s", g->id);
    w.room = room;
    /* The name as the game knows it (as chosen), for a player. */
    core_cred who = {NULL, account};
    int side = core_side_of(g, &who);
    snprintf(w.name, sizeof w.name, "%s", side >= 0 ? g->account[side] : account);
    snprintf(w.text, sizeof w.text, "%s", text);
    w.ms = now;
    char told[160];
    snprintf(told, sizeof told, "chat %s %d %lld %s", w.game, w.room, (long long)w.ms, w.name);
    if (wq_call(C, chat_apply, chat_settled, &w, sizeof w) != 0 ||
        wq_notify(C, CORE_CH_ACCOUNT, told) != 0) {
        snprintf(err, errlen, "the line could not be stored");
        return CORE_UNAVAILABLE;
    }
    if (C->ev.dirty)
        C->ev.dirty(C->ev.ctx);
    rate_take(C, account, now, 1);
    *ms = now;
    return CORE_CREATED;
}

typedef struct hist_ctx {
    core *C;
    const char *viewer;
    int room;
    void (*fn)(void *ctx, const core_chat_line *l);
    void *ctx;
    char blocked[64][STORE_NAME_LEN];
    int nblocked, many;
} hist_ctx;

static int hist_block(void *ctx, const char *name)
{
    hist_ctx *h = ctx;
    if (h->nblocked < 64)
        snprintf(h->blocked[h->nblocked++], STORE_NAME_LEN, "%s", name);
    else
        h->many = 1;
    return 0;
}

static int hist_line(void *ctx, const char *name, const char *text, int64_t ms)
{
    hist_ctx *h = ctx;
    int hide = 0;
    for (int i = 0; i < h->nblocked && !hide; i++)
        hide = strcasecmp(h->blocked[i], name) == 0;
    if (!hide && h->many)
        hide = core_blocks(h->C, h->viewer, name);
    if (!hide) {
        core_chat_line l = {h->room, name, text, ms};
        h->fn(h->ctx, &l);
    }
    return 0;
}

void core_chat_history(core *C, const game *g, const char *account, int *room,
                       void (*fn)(void *ctx, const core_chat_line *l), void *ctx)
{
    *room = core_chat_room(C, g, account);
    if (*room < 0)
        return;
    hist_ctx *h = calloc(1, sizeof *h);
    if (!h)
        return;
    h->C = C;
    h->viewer = account;
    h->room = *room;
    h->fn = fn;
    h->ctx = ctx;
    char err[160];
    C->st->ops->each_block(C->st, account, hist_block, h, err, sizeof err);
    C->st->ops->each_chat(C->st, g->id, *room, CORE_CHAT_HISTORY, hist_line, h, err, sizeof err);
    free(h);
}

typedef struct find_ctx {
    const char *name;
    int found;
} find_ctx;

static int find_block(void *ctx, const char *name)
{
    find_ctx *f = ctx;
    if (strcasecmp(name, f->name) == 0) {
        f->found = 1;
        return 1;
    }
    return 0;
}

int core_blocks(core *C, const char *owner, const char *name)
{
    if (!owner || !owner[0] || !name || !name[0])
        return 0;
    char o[STORE_NAME_LEN];
    if (!core_player(C, owner, o))
        return 0;
    find_ctx f = {name, 0};
    char err[160];
    C->st->ops->each_block(C->st, o, find_block, &f, err, sizeof err);
    return f.found;
}

static int count_block(void *ctx, const char *name)
{
    (void)name;
    (*(int *)ctx)++;
    return 0;
}

typedef struct block_write {
    char owner[STORE_NAME_LEN], name[STORE_NAME_LEN];
    int on;
    int64_t created;
} block_write;

static int block_apply(store *st, void *data, char *err, size_t errlen)
{
    block_write *w = data;
    return st->ops->set_block(st, w->owner, w->name, w->on, w->created, err, errlen);
}

core_status core_block(core *C, const char *owner, const char *name, int on, char *err,
                       size_t errlen)
{
    block_write w;
    memset(&w, 0, sizeof w);
    if (!core_player(C, owner, w.owner)) {
        snprintf(err, errlen, "sign in first");
        return CORE_FORBIDDEN;
    }
    if (!core_name_ok(name) || !core_player(C, name, w.name)) {
        snprintf(err, errlen, "no such player");
        return CORE_NOTFOUND;
    }
    if (strcasecmp(w.owner, w.name) == 0) {
        snprintf(err, errlen, "one cannot block oneself");
        return CORE_BAD;
    }
    if (on && !core_blocks(C, w.owner, w.name)) {
        int n = 0;
        char serr[160];
        C->st->ops->each_block(C->st, w.owner, count_block, &n, serr, sizeof serr);
        if (n >= CORE_BLOCKS_MAX) {
            snprintf(err, errlen, "at most %d blocked players", CORE_BLOCKS_MAX);
            return CORE_LIMIT;
        }
    }
    w.on = on;
    w.created = core_unix_ms() / 1000;
    if (wq_call(C, block_apply, NULL, &w, sizeof w) != 0) {
        snprintf(err, errlen, "the block list could not be stored");
        return CORE_UNAVAILABLE;
    }
    if (C->ev.dirty)
        C->ev.dirty(C->ev.ctx);
    return CORE_OK;
}

typedef struct each_ctx {
    void (*fn)(void *ctx, const char *name);
    void *ctx;
} each_ctx;

static int each_block(void *ctx, const char *name)
{
    each_ctx *e = ctx;
    e->fn(e->ctx, name);
    return 0;
}

void core_blocks_each(core *C, const char *owner, void (*fn)(void *ctx, const char *name),
                      void *ctx)
{
    char o[STORE_NAME_LEN], err[160];
    if (!core_player(C, owner, o))
        return;
    each_ctx e = {fn, ctx};
    C->st->ops->each_block(C->st, o, each_block, &e, err, sizeof err);
}

typedef struct flag_write {
    char name[STORE_NAME_LEN];
    int flag, on;
} flag_write;

static int flag_apply(store *st, void *data, char *err, size_t errlen)
{
    flag_write *w = data;
    return st->ops->set_chat_flag(st, w->name, w->flag, w->on, err, errlen);
}

core_status core_chat_set_flag(core *C, const char *account, int flag, int on)
{
    flag_write w;
    memset(&w, 0, sizeof w);
    if (!core_player(C, account, w.name))
        return CORE_NOTFOUND;
    w.flag = flag;
    w.on = on;
    if (wq_call(C, flag_apply, NULL, &w, sizeof w) != 0)
        return CORE_UNAVAILABLE;
    if (C->ev.dirty)
        C->ev.dirty(C->ev.ctx);
    return CORE_OK;
}

/* Another instance's line: read it back from the store (the newest lines of
 * its room) and hand it to the edge. */
typedef struct note_ctx {
    chat_write *w;
    int found;
} note_ctx;

static int note_line(void *ctx, const char *name, const char *text, int64_t ms)
{
    note_ctx *n = ctx;
    if (ms == n->w->ms && strcmp(name, n->w->name) == 0) {
        snprintf(n->w->text, sizeof n->w->text, "%s", text);
        n->found = 1;
    }
    return 0;
}

void core_chat_note(core *C, const char *text)
{
    chat_write w;
    memset(&w, 0, sizeof w);
    long long ms = 0;
    if (sscanf(text, "%12s %d %lld %20s", w.game, &w.room, &ms, w.name) != 4 ||
        !core_id_ok(w.game, strlen(w.game)) || (w.room != 0 && w.room != 1) ||
        !core_name_ok(w.name))
        return;
    w.ms = ms;
    if (!games_find(C, w.game))
        return;   /* not in memory here: no socket of this instance follows it */
    note_ctx n = {&w, 0};
    char err[160];
    C->st->ops->each_chat(C->st, w.game, w.room, 20, note_line, &n, err, sizeof err);
    if (n.found)
        chat_tell(C, &w);
}
