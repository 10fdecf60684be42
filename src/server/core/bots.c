/*
 * bots.c — programs that play as accounts (SPEC "Bots"): an account made a
 * bot for good (before any game), its API tokens (a token is shown once and
 * only its hash is kept; `Authorization: Bearer` stands for the account),
 * and the news a bot's event sockets get of its games (their start and end,
 * on this instance or, through tav_lobby, another).
 *
 * A token is read from the store on every request: one revoked on any
 * instance is refused by every instance at once.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <sodium.h>

#include "server/core/internal.h"
#include "server/core/writer.h"

/* ---- writes ---- */

typedef struct bot_write {
    int kind;                  /* 0 make a bot, 1 new token, 2 revoke, 3 touch */
    char name[STORE_NAME_LEN];
    char id[STORE_ID_LEN];
    unsigned char hash[STORE_HASH_LEN];
    int64_t now;
} bot_write;

static int bot_apply(store *st, void *data, char *err, size_t errlen)
{
    const bot_write *w = data;
    switch (w->kind) {
    case 0: return st->ops->set_bot(st, w->name, err, errlen);
    case 1: return st->ops->create_token(st, w->id, w->hash, w->name, w->now, err, errlen);
    case 2: return st->ops->delete_token(st, w->name, w->id, err, errlen);
    default: return st->ops->touch_token(st, w->hash, w->now, err, errlen);
    }
}

static int bot_queue(core *C, bot_write *w)
{
    int rc = wq_call(C, bot_apply, NULL, w, sizeof *w);
    sodium_memzero(w, sizeof *w);
    return rc;
}

static int one_game(void *ctx, const store_player_game *g)
{
    (void)g;
    ++*(int *)ctx;
    return 1;
}

core_status core_bot_make(core *C, const char *name, char *err, size_t errlen)
{
    store_account a;
    char e[256];
    if (!name || !name[0] || C->st->ops->get_account(C->st, name, &a, e, sizeof e) != 1) {
        snprintf(err, errlen, "sign in first");
        return CORE_FORBIDDEN;
    }
    int bot = a.bot;
    sodium_memzero(&a, sizeof a);
    if (bot)
        return CORE_OK;
    int games = 0;
    if (C->st->ops->player_games(C->st, name, 1, one_game, &games, e, sizeof e) != 0) {
        snprintf(err, errlen, "the account's games could not be read: try again");
        return CORE_UNAVAILABLE;
    }
    if (games > 0) {
        snprintf(err, errlen, "only an account that has played no game may become a bot");
        return CORE_CONFLICT;
    }
    bot_write w;
    memset(&w, 0, sizeof w);
    w.kind = 0;
    snprintf(w.name, sizeof w.name, "%s", name);
    if (bot_queue(C, &w) != 0) {
        snprintf(err, errlen, "the account could not be changed");
        return CORE_UNAVAILABLE;
    }
    /* The account's open seeks (not its challenges) go: a bot makes none. */
    for (lobby_seek *k = C->seeks; k; k = k->next)
        if (k->state == 0 && !k->s.to[0] && strcasecmp(k->s.by, name) == 0)
            core_unseek(C, name, k->s.id, e, sizeof e);
    return CORE_OK;
}

/* ---- tokens ---- */

static int count_token(void *ctx, const store_token *t)
{
    (void)t;
    ++*(int *)ctx;
    return 0;
}

core_status core_token_new(core *C, const char *name, char id[STORE_ID_LEN], char token[64],
                           char *err, size_t errlen)
{
    char e[256];
    int n = 0;
    if (C->st->ops->each_token(C->st, name, count_token, &n, e, sizeof e) != 0) {
        snprintf(err, errlen, "the tokens could not be read: try again");
        return CORE_UNAVAILABLE;
    }
    if (n >= CORE_TOKENS_PER_ACCOUNT) {
        snprintf(err, errlen, "at most %d tokens per account: revoke one first",
                 CORE_TOKENS_PER_ACCOUNT);
        return CORE_LIMIT;
    }
    bot_write w;
    memset(&w, 0, sizeof w);
    w.kind = 1;
    snprintf(w.name, sizeof w.name, "%s", name);
    core_random_b64(w.id, 9);
    char secret[48];
    core_random_b64(secret, 32);
    snprintf(token, 64, "%s%s", CORE_API_TOKEN_PREFIX, secret);
    sodium_memzero(secret, sizeof secret);
    core_token_hash(token, w.hash);
    w.now = core_unix_ms() / 1000;
    snprintf(id, STORE_ID_LEN, "%s", w.id);
    if (bot_queue(C, &w) != 0) {
        sodium_memzero(token, 64);
        snprintf(err, errlen, "the token could not be stored");
        return CORE_UNAVAILABLE;
    }
    return CORE_CREATED;
}

int core_tokens_each(core *C, const char *name, store_token_fn fn, void *ctx)
{
    char e[256];
    return C->st->ops->each_token(C->st, name, fn, ctx, e, sizeof e);
}

typedef struct token_find {
    const char *id;
    int found;
} token_find;

static int find_token(void *ctx, const store_token *t)
{
    token_find *f = ctx;
    if (strcmp(t->id, f->id) == 0)
        f->found = 1;
    return f->found;
}

core_status core_token_revoke(core *C, const char *name, const char *id, char *err,
                              size_t errlen)
{
    token_find f = {id, 0};
    if (core_tokens_each(C, name, find_token, &f) != 0) {
        snprintf(err, errlen, "the tokens could not be read: try again");
        return CORE_UNAVAILABLE;
    }
    if (!f.found) {
        snprintf(err, errlen, "no such token of yours");
        return CORE_NOTFOUND;
    }
    bot_write w;
    memset(&w, 0, sizeof w);
    w.kind = 2;
    snprintf(w.name, sizeof w.name, "%s", name);
    snprintf(w.id, sizeof w.id, "%s", id);
    if (bot_queue(C, &w) != 0) {
        snprintf(err, errlen, "the token could not be revoked");
        return CORE_UNAVAILABLE;
    }
    return CORE_OK;
}

int core_token_who(core *C, const char *token, char name[STORE_NAME_LEN])
{
    size_t plen = strlen(CORE_API_TOKEN_PREFIX);
    if (!token || strncmp(token, CORE_API_TOKEN_PREFIX, plen) != 0 || strlen(token) > 63)
        return 0;
    unsigned char h[STORE_HASH_LEN];
    core_token_hash(token, h);
    char e[256];
    int64_t now = core_unix_ms() / 1000, last = now;
    int rc = C->st->ops->get_token(C->st, h, name, &last, e, sizeof e);
    if (rc == 1 && now - last >= CORE_TOKEN_TOUCH) {
        bot_write w;
        memset(&w, 0, sizeof w);
        w.kind = 3;
        memcpy(w.hash, h, sizeof w.hash);
        w.now = now;
        bot_queue(C, &w);
    }
    sodium_memzero(h, sizeof h);
    return rc == 1;
}

/* ---- a bot's games, told to its event sockets ---- */

void bots_note(core *C, const char *text)
{
    char kind[8], name[STORE_NAME_LEN + 8], id[STORE_ID_LEN + 8];
    if (sscanf(text, "%7s %27s %23s", kind, name, id) != 3 || !core_name_ok(name) ||
        !core_id_ok(id, strlen(id)))
        return;
    if (C->ev.bot_game)
        C->ev.bot_game(C->ev.ctx, name, id, strcmp(kind, "finish") == 0);
}

int core_seek_taken(core *C, const char *id)
{
    for (lobby_seek *k = C->seeks; k; k = k->next)
        if (strcmp(k->s.id, id) == 0 && k->state != 2)
            return k->state == 1;
    return C->st->ops->seek_state(C->st, id) == 1;
}
