/*
 * lobby.c — the lobby (SPEC "The lobby"): seeks, their acceptance into a
 * game between two accounts, players and leaderboards.  (What such a game
 * leaves when it ends is results.c's.)
 *
 * Open seeks live in memory (loaded from the store at start) and every
 * change is a write of the open batch: a seek is answered 201 only once it
 * is on disk, and an accept's game and the seek's closing are committed
 * together.  Of two accepts of one seek the loop sees one first: it takes
 * the seek, the other finds it taken (409).  A batch that fails gives the
 * seek back.  The seeks on disk are read on the lobby's first use.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <sodium.h>

#include "server/core/glicko.h"
#include "server/core/internal.h"
#include "server/core/mail.h"
#include "server/core/writer.h"

/* ---- seeks in memory ---- */

static lobby_seek *find_seek(core *C, const char *id)
{
    for (lobby_seek *k = C->seeks; k; k = k->next)
        if (strcmp(k->s.id, id) == 0)
            return k;
    return NULL;
}

static lobby_seek *add_seek(core *C, const store_seek *s)
{
    lobby_seek *k = calloc(1, sizeof *k);
    if (!k)
        return NULL;
    k->s = *s;
    k->present_ms = core_game_ms(C);
    /* Appended: the list stays oldest first. */
    lobby_seek **pp = &C->seeks;
    while (*pp)
        pp = &(*pp)->next;
    *pp = k;
    C->nseeks++;
    return k;
}

static void drop_seek(core *C, lobby_seek *k)
{
    for (lobby_seek **pp = &C->seeks; *pp; pp = &(*pp)->next)
        if (*pp == k) {
            *pp = k->next;
            C->nseeks--;
            free(k);
            return;
        }
}

static int load_seek(void *ctx, const store_seek *s)
{
    add_seek(ctx, s);
    return 0;
}

/* The seeks on disk, read on the lobby's first use. */
static void lobby_ready(core *C)
{
    if (C->seeks_loaded)
        return;
    C->seeks_loaded = 1;
    char err[256];
    if (C->st->ops->each_seek(C->st, load_seek, C, err, sizeof err) != 0)
        core_log(C, "error: the seeks could not be read: %s", err);
}

void lobby_load(core *C) { lobby_ready(C); }

static void lobby_changed(core *C)
{
    if (C->ev.lobby_changed)
        C->ev.lobby_changed(C->ev.ctx);
}

/* Many instances: another changed the seeks; read them again (a seek of
 * this instance's not yet committed comes back with its own message). */
void core_lobby_reload(core *C)
{
    if (!C->seeks_loaded)
        return;   /* read on first use anyway */
    lobby_seek *old = C->seeks;
    C->seeks = NULL;
    C->nseeks = 0;
    C->seeks_loaded = 0;
    lobby_ready(C);
    /* When each owner was last seen stays as it was. */
    for (lobby_seek *k = C->seeks; k; k = k->next)
        for (lobby_seek *o = old; o; o = o->next)
            if (strcmp(o->s.id, k->s.id) == 0) {
                k->present_ms = o->present_ms;
                k->told_ms = o->told_ms;
                k->remote_ms = o->remote_ms;
                break;
            }
    while (old) {
        lobby_seek *k = old;
        old = k->next;
        free(k);
    }
    lobby_changed(C);
}

/* ---- writes ---- */

typedef struct seek_write {
    store_seek s;
    int close;                 /* 0 create, 1 taken by game, 2 withdrawn, 3 lapsed */
    char game[STORE_ID_LEN];
} seek_write;

static int seek_apply(store *st, void *data, char *err, size_t errlen)
{
    const seek_write *w = data;
    if (!w->close)
        return st->ops->create_seek(st, &w->s, err, errlen);
    int rc = st->ops->close_seek(st, w->s.id, w->close == 1 ? w->game : "", err, errlen);
    /* A lapse (3) another instance wrote first, or an accept: already closed
     * is what a lapse wanted. */
    return w->close == 3 && rc == STORE_CONFLICT ? 0 : rc;
}

/* A failed batch: the seek is as the store has it (made: gone; closed:
 * open again). */
static void seek_settled(core *C, const void *data, int ok)
{
    const seek_write *w = data;
    lobby_seek *k = find_seek(C, w->s.id);
    if (ok) {
        if (k && k->state != 0)
            drop_seek(C, k);
        return;
    }
    if (!w->close && k)
        drop_seek(C, k);
    else if (w->close && k)
        k->state = 0;
    lobby_changed(C);
}

/* ---- requests ---- */

core_status core_seek(core *C, const char *account, const store_seek *want, char id[STORE_ID_LEN],
                      char *err, size_t errlen)
{
    return lobby_make(C, account, want, 0, id, err, errlen);
}

/* A seek, or (pool) an entry of the quick-pairing pool: a seek whose id
 * begins with '~' (pool.c). */
core_status lobby_make(core *C, const char *account, const store_seek *want, int pool,
                       char id[STORE_ID_LEN], char *err, size_t errlen)
{
    if (!account || !account[0]) {
        snprintf(err, errlen, "sign in to offer a game");
        return CORE_FORBIDDEN;
    }
    lobby_ready(C);
    if (!tav_game_find(want->game)) {
        snprintf(err, errlen, "unknown game '%.32s'", want->game);
        return CORE_BAD;
    }
    tav_session *s = NULL;
    char e[256];
    if (tav_session_new(&s, want->game, want->options, 1, e, sizeof e) != TAV_OK) {
        snprintf(err, errlen, "%s", e);
        return CORE_BAD;
    }
    /* Options anyone may see: a seek cannot prepare a hidden deal. */
    char pub[512];
    tav_session_public_options(s, pub, sizeof pub);
    tav_session_free(s);
    if (strcmp(pub, want->options) != 0) {
        snprintf(err, errlen, "a seek's options are public: no chosen deal");
        return CORE_BAD;
    }
    if (want->to[0]) {
        char to[STORE_NAME_LEN];
        if (!core_player(C, want->to, to)) {
            snprintf(err, errlen, "no such player to challenge");
            return CORE_NOTFOUND;
        }
        if (strcasecmp(to, account) == 0) {
            snprintf(err, errlen, "a challenge is for someone else");
            return CORE_BAD;
        }
        if (core_blocks(C, to, account)) {   /* its block list (chat.c) */
            snprintf(err, errlen, "%s does not accept challenges from you", to);
            return CORE_FORBIDDEN;
        }
    }
    /* SPEC "Bots": bots make challenges, never open seeks. */
    if (!want->to[0] && core_is_bot(C, account)) {
        snprintf(err, errlen, "a bot makes challenges only (a seek with \"to\")");
        return CORE_FORBIDDEN;
    }
    if (!seek_clock_ok(want)) {
        snprintf(err, errlen, "a clock is {\"initial\": 30..10800, \"increment\": 0..180} seconds, "
                              "or {\"days\": 1, 2, 3, 5, 7 or 14}");
        return CORE_BAD;
    }
    if (want->rated && !want->initial && !want->days) {
        /* SPEC "Consent and fair endings": a rated game needs a clock. */
        snprintf(err, errlen, "a rated game needs a clock");
        return CORE_BAD;
    }
    int mine = 0;
    for (lobby_seek *k = C->seeks; k; k = k->next)
        mine += k->state == 0 && !lobby_is_pool(&k->s) && strcasecmp(k->s.by, account) == 0;
    if (!pool && mine >= CORE_SEEKS_PER_ACCOUNT) {
        snprintf(err, errlen, "at most %d open seeks per account", CORE_SEEKS_PER_ACCOUNT);
        return CORE_LIMIT;
    }
    if (C->nseeks >= CORE_SEEKS_MAX) {
        snprintf(err, errlen, "the lobby is full: try again shortly");
        return CORE_UNAVAILABLE;
    }
    seek_write w;
    memset(&w, 0, sizeof w);
    w.s = *want;
    if (pool) {
        /* '~' is outside the ids' alphabet: no seek request reaches it. */
        w.s.id[0] = '~';
        core_random_b64(w.s.id + 1, 9);
        w.s.to[0] = 0;
    } else {
        core_random_b64(w.s.id, 9);
    }
    snprintf(w.s.by, sizeof w.s.by, "%s", account);
    if (want->to[0] && !pool)
        core_player(C, want->to, w.s.to);   /* the name as chosen */
    /* A pool entry's wait is measured on the games' time (the test clock). */
    w.s.created = (pool ? core_game_ms(C) : core_unix_ms()) / 1000;
    lobby_seek *k = add_seek(C, &w.s);
    if (!k || wq_call(C, seek_apply, seek_settled, &w, sizeof w) != 0 ||
        wq_notify(C, CORE_CH_LOBBY, "seeks") != 0) {
        if (k)
            drop_seek(C, k);
        snprintf(err, errlen, "the seek could not be stored");
        return CORE_UNAVAILABLE;
    }
    snprintf(id, STORE_ID_LEN, "%s", w.s.id);
    if (w.s.to[0])   /* a challenge: its player may be told by mail */
        mail_challenge(C, w.s.to, w.s.by, w.s.game, w.s.id);
    lobby_changed(C);
    return CORE_CREATED;
}

void core_seeks_each(core *C, const char *viewer,
                     void (*fn)(void *ctx, const store_seek *s, double rating, int provisional),
                     void *ctx)
{
    lobby_ready(C);
    for (lobby_seek *k = C->seeks; k; k = k->next) {
        if (k->state != 0 || lobby_is_pool(&k->s))
            continue;   /* the quick-pairing pool (pool.c) is not listed as seeks */
        /* A challenge is seen by its two players only. */
        if (k->s.to[0] && (!viewer || !viewer[0] ||
                           (strcasecmp(viewer, k->s.to) != 0 && strcasecmp(viewer, k->s.by) != 0)))
            continue;
        if (k->rating_epoch != C->ratings_epoch) {
            /* Read once, not at every look at the lobby: again only after
             * a rated game ended (here, or elsewhere: the lobby is read
             * again then, shared.c). */
            store_rating sr;
            char err[256];
            k->rating = 1500;
            k->provisional = 1;   /* a new player's 1500 is a guess */
            if (C->st->ops->get_rating(C->st, k->s.by, k->s.game, &sr, err, sizeof err) == 1) {
                k->rating = sr.rating;
                k->provisional = core_rating_provisional(&sr);
            }
            k->rating_epoch = C->ratings_epoch;
        }
        fn(ctx, &k->s, k->rating, k->provisional);
    }
}

void core_ratings_each(core *C, const char *name,
                       int (*fn)(void *ctx, const char *game, const store_rating *r), void *ctx)
{
    char err[256];
    C->st->ops->each_rating(C->st, name, fn, ctx, err, sizeof err);
}

int core_rating_provisional(const store_rating *r) { return r->rd > GLICKO_PROVISIONAL_RD; }

core_status core_unseek(core *C, const char *account, const char *id, char *err, size_t errlen)
{
    lobby_ready(C);
    lobby_seek *k = find_seek(C, id);
    if (!k && C->st->ops->seek_state(C->st, id) == 1) {
        snprintf(err, errlen, "the seek was accepted already");
        return CORE_CONFLICT;
    }
    if (!k || k->state == 2) {
        snprintf(err, errlen, "no such seek");
        return CORE_NOTFOUND;
    }
    if (!account || strcasecmp(k->s.by, account) != 0) {
        snprintf(err, errlen, "not your seek");
        return CORE_FORBIDDEN;
    }
    if (k->state == 1) {
        snprintf(err, errlen, "the seek was accepted already");
        return CORE_CONFLICT;
    }
    seek_write w;
    memset(&w, 0, sizeof w);
    w.s = k->s;
    w.close = 2;
    if (wq_call(C, seek_apply, seek_settled, &w, sizeof w) != 0 ||
        wq_notify(C, CORE_CH_LOBBY, "seeks") != 0) {
        snprintf(err, errlen, "the seek could not be withdrawn");
        return CORE_UNAVAILABLE;
    }
    k->state = 2;
    lobby_changed(C);
    return CORE_OK;
}

int core_decline_reason_ok(const char *reason)
{
    static const char *const reasons[] = {"generic", "later", "tooFast", "tooSlow", "timeControl",
                                          "rated", "casual", "variant"};
    for (size_t i = 0; i < sizeof reasons / sizeof reasons[0]; i++)
        if (strcmp(reason, reasons[i]) == 0)
            return 1;
    return 0;
}

core_status core_decline(core *C, const char *account, const char *id, const char *reason,
                         char *err, size_t errlen)
{
    if (!reason || !core_decline_reason_ok(reason))
        reason = "generic";
    lobby_ready(C);
    lobby_seek *k = find_seek(C, id);
    if (!k && C->st->ops->seek_state(C->st, id) > 0) {
        snprintf(err, errlen, "the challenge is gone: taken or withdrawn");
        return CORE_CONFLICT;
    }
    if (!k || k->state == 2) {
        snprintf(err, errlen, "no such challenge");
        return CORE_NOTFOUND;
    }
    if (!account || !k->s.to[0] || strcasecmp(k->s.to, account) != 0) {
        snprintf(err, errlen, "only the player challenged may decline");
        return CORE_FORBIDDEN;
    }
    if (k->state == 1) {
        snprintf(err, errlen, "the challenge was accepted already");
        return CORE_CONFLICT;
    }
    seek_write w;
    memset(&w, 0, sizeof w);
    w.s = k->s;
    w.close = 2;
    char told[112];
    snprintf(told, sizeof told, "declined %s %s %s %s", k->s.by, k->s.id, k->s.to, reason);
    if (wq_call(C, seek_apply, seek_settled, &w, sizeof w) != 0 ||
        wq_notify(C, CORE_CH_LOBBY, told) != 0) {
        snprintf(err, errlen, "the challenge could not be declined");
        return CORE_UNAVAILABLE;
    }
    k->state = 2;
    if (C->ev.declined)
        C->ev.declined(C->ev.ctx, k->s.by, k->s.id, k->s.to, reason);
    lobby_changed(C);
    return CORE_OK;
}

int core_challenges_open(core *C, const char *account)
{
    for (lobby_seek *k = C->seeks; k; k = k->next)
        if (k->state == 0 && k->s.to[0] &&
            (!account || strcasecmp(k->s.to, account) == 0 || strcasecmp(k->s.by, account) == 0))
            return 1;
    return 0;
}

void core_unseek_all(core *C, const char *account)
{
    lobby_ready(C);
    char err[160];
    for (lobby_seek *k = C->seeks; k; k = k->next)
        if (k->state == 0 && !lobby_is_pool(&k->s) && strcasecmp(k->s.by, account) == 0)
            core_unseek(C, account, k->s.id, err, sizeof err);   /* the pool keeps its place */
}

void core_unseek_challenges_to(core *C, const char *account)
{
    lobby_ready(C);
    char err[160], by[STORE_NAME_LEN];
    for (lobby_seek *k = C->seeks; k; k = k->next)
        if (k->state == 0 && k->s.to[0] && strcasecmp(k->s.to, account) == 0) {
            snprintf(by, sizeof by, "%s", k->s.by);
            core_unseek(C, by, k->s.id, err, sizeof err);   /* as its maker withdraws it */
        }
}

static void count_id(void *ctx, const char *id)
{
    (void)id;
    (*(int *)ctx)++;
}

/* An account's unfinished games, up to one past the bots' limit. */
static int unfinished_count(core *C, const char *name)
{
    int n = 0;
    char err[256];
    if (C->st->ops->player_unfinished(C->st, name, CORE_BOT_GAMES_MAX + 1, count_id, &n, err,
                                      sizeof err) != 0)
        return 0;
    return n;
}

core_status core_accept(core *C, const char *account, const char *id, char game_id[STORE_ID_LEN],
                        char *err, size_t errlen)
{
    if (!account || !account[0]) {
        snprintf(err, errlen, "sign in to accept a seek");
        return CORE_FORBIDDEN;
    }
    lobby_ready(C);
    lobby_seek *k = find_seek(C, id);
    int state = k ? 0 : C->st->ops->seek_state(C->st, id);
    if (!k && state == 0 && C->shared) {
        /* Open in the store but not in this instance's lobby (read again
         * while it was being made, or made a moment ago elsewhere): read
         * the lobby again rather than call it unknown. */
        core_lobby_reload(C);
        k = find_seek(C, id);
        if (!k)
            state = C->st->ops->seek_state(C->st, id);
    }
    if (!k && state > 0) {
        snprintf(err, errlen, "the seek is gone: taken or withdrawn");
        return CORE_CONFLICT;
    }
    if (!k || lobby_is_pool(&k->s)) {
        snprintf(err, errlen, "no such seek");
        return CORE_NOTFOUND;
    }
    if (k->state == 0 && C->shared && C->st->ops->seek_state(C->st, id) != 0) {
        k->state = 2;   /* taken or withdrawn on another instance: its message is on its way */
        lobby_changed(C);
    }
    if (k->state != 0) {
        snprintf(err, errlen, "the seek is gone: taken or withdrawn");
        return CORE_CONFLICT;
    }
    if (strcasecmp(k->s.by, account) == 0) {
        snprintf(err, errlen, "that is your own seek");
        return CORE_CONFLICT;
    }
    if (k->s.to[0] && strcasecmp(k->s.to, account) != 0) {
        snprintf(err, errlen, "this challenge is for %s", k->s.to);
        return CORE_FORBIDDEN;
    }
    if (!k->s.to[0] && (core_is_bot(C, account) || core_is_bot(C, k->s.by))) {
        /* SPEC "Bots": bots accept challenges, never open seeks. */
        snprintf(err, errlen, "a bot plays challenges only, not open seeks");
        return CORE_FORBIDDEN;
    }
    /* A bot plays at most CORE_BOT_GAMES_MAX games at once (docs/bots.md). */
    for (int i = 0; i < 2; i++) {
        const char *who = i ? k->s.by : account;
        if (core_is_bot(C, who) && unfinished_count(C, who) >= CORE_BOT_GAMES_MAX) {
            snprintf(err, errlen, "%s plays %d games at once already", who, CORE_BOT_GAMES_MAX);
            return CORE_LIMIT;
        }
    }
    int seeker = k->s.colour == 0   ? TAV_WHITE
                 : k->s.colour == 1 ? TAV_BLACK
                                    : (int)(randombytes_uniform(2));
    const char *acc[2];
    acc[seeker] = k->s.by;
    acc[1 - seeker] = account;
    tav_session *s = core_new_session(k->s.game, k->s.options, err, errlen);
    if (!s)
        return CORE_BAD;
    k->state = 1;   /* taken now: a second accept, even in this batch, is refused */
    core_made m;
    core_status st = core_create_accounts(C, s, acc, k->s.rated, &k->s, &m);
    if (st != CORE_CREATED) {
        k->state = 0;
        snprintf(err, errlen, "%s", m.err);
        return st;
    }
    seek_write w;
    memset(&w, 0, sizeof w);
    w.s = k->s;
    w.close = 1;
    snprintf(w.game, sizeof w.game, "%s", m.g->id);
    char told[80];
    snprintf(told, sizeof told, "started %s %s", k->s.by, m.g->id);
    if (wq_call(C, seek_apply, seek_settled, &w, sizeof w) != 0 ||
        wq_notify(C, CORE_CH_LOBBY, told) != 0) {
        snprintf(err, errlen, "the seek could not be closed");
        return CORE_UNAVAILABLE;
    }
    snprintf(game_id, STORE_ID_LEN, "%s", m.g->id);
    /* A player whose game begins leaves the quick-pairing pool (pool.c):
     * one game at a time from it. */
    lobby_pool_drop(C, k->s.by);
    lobby_pool_drop(C, account);
    game_tell(C, m.g);   /* its players' channels list it */
    if (C->ev.started)
        C->ev.started(C->ev.ctx, k->s.by, m.g->id);
    lobby_changed(C);
    return CORE_CREATED;
}

void lobby_pool_drop(core *C, const char *account)
{
    char err[160];
    for (lobby_seek *k = C->seeks; k; k = k->next)
        if (k->state == 0 && lobby_is_pool(&k->s) && strcasecmp(k->s.by, account) == 0)
            core_unseek(C, account, k->s.id, err, sizeof err);
}

/* Two entries of the quick-pairing pool (pool.c) become one game, as an
 * accept does: colours random, both entries closed with the game in the
 * same batch (the store refuses a second close: of two instances pairing
 * one entry, one batch fails and makes nothing), both owners told
 * "started". */
core_status lobby_pair(core *C, lobby_seek *a, lobby_seek *b, char game_id[STORE_ID_LEN],
                       char *err, size_t errlen)
{
    if (a->state != 0 || b->state != 0) {
        snprintf(err, errlen, "taken already");
        return CORE_CONFLICT;
    }
    if (C->shared) {
        int gone = 0;
        lobby_seek *both[2] = {a, b};
        for (int i = 0; i < 2; i++)
            if (C->st->ops->seek_state(C->st, both[i]->s.id) > 0) {   /* -1: not yet committed */
                both[i]->state = 2;   /* taken or withdrawn elsewhere: its message is on its way */
                gone = 1;
            }
        if (gone) {
            lobby_changed(C);
            snprintf(err, errlen, "taken on another instance");
            return CORE_CONFLICT;
        }
    }
    int first = (int)randombytes_uniform(2);
    const char *acc[2];
    acc[first] = a->s.by;
    acc[1 - first] = b->s.by;
    tav_session *s = core_new_session(a->s.game, a->s.options, err, errlen);
    if (!s)
        return CORE_BAD;
    a->state = 1;
    b->state = 1;
    core_made m;
    core_status st = core_create_accounts(C, s, acc, a->s.rated, &a->s, &m);
    if (st != CORE_CREATED) {
        a->state = b->state = 0;
        snprintf(err, errlen, "%s", m.err);
        return st;
    }
    lobby_seek *both[2] = {a, b};
    for (int i = 0; i < 2; i++) {
        seek_write w;
        memset(&w, 0, sizeof w);
        w.s = both[i]->s;
        w.close = 1;
        snprintf(w.game, sizeof w.game, "%s", m.g->id);
        char told[80];
        snprintf(told, sizeof told, "started %s %s", both[i]->s.by, m.g->id);
        if (wq_call(C, seek_apply, seek_settled, &w, sizeof w) != 0 ||
            wq_notify(C, CORE_CH_LOBBY, told) != 0) {
            snprintf(err, errlen, "the pool entries could not be closed");
            return CORE_UNAVAILABLE;
        }
    }
    snprintf(game_id, STORE_ID_LEN, "%s", m.g->id);
    game_tell(C, m.g);
    for (int i = 0; i < 2; i++)
        if (C->ev.started)
            C->ev.started(C->ev.ctx, both[i]->s.by, m.g->id);
    core_log(C, "pool: %s and %s paired in %s", a->s.by, b->s.by, m.g->id);
    lobby_changed(C);
    return CORE_CREATED;
}

/* ---- players ---- */

int core_ratings(core *C, const char *name,
                 int (*fn)(void *ctx, const char *game, const store_rating *r), void *ctx)
{
    char err[256];
    return C->st->ops->each_rating(C->st, name, fn, ctx, err, sizeof err);
}

int core_player_games(core *C, const char *name, int limit, store_pgame_fn fn, void *ctx)
{
    char err[256];
    return C->st->ops->player_games(C->st, name, limit, fn, ctx, err, sizeof err);
}

int core_leaderboard(core *C, const char *gname, int limit,
                     int (*fn)(void *ctx, const char *name, const store_rating *r), void *ctx)
{
    char err[256];
    if (!tav_game_find(gname))
        return -1;
    return C->st->ops->leaderboard(C->st, gname, limit, fn, ctx, err, sizeof err);
}

typedef struct mine_ctx {
    core *C;
    void (*fn)(void *ctx, game *g);
    void *ctx;
} mine_ctx;

static void one_of_mine(void *ctx, const char *id)
{
    mine_ctx *m = ctx;
    game *g = core_get(m->C, id);
    if (g && !core_over(g))
        m->fn(m->ctx, g);
}

void core_my_games(core *C, const char *name, void (*fn)(void *ctx, game *g), void *ctx)
{
    mine_ctx m = {C, fn, ctx};
    char err[256];
    C->st->ops->player_unfinished(C->st, name, CORE_PLAYER_GAMES, one_of_mine, &m, err,
                                  sizeof err);
}

void core_playing(core *C, int max, void (*fn)(void *ctx, game *g), void *ctx)
{
    int n = 0;
    for (int h = 0; h < CORE_HASH_SIZE && n < max; h++)
        for (game *g = C->games[h]; g && n < max; g = g->hnext)
            if (g->account[0][0] && g->account[1][0] && !g->dead && !core_over(g)) {
                fn(ctx, g);
                n++;
            }
}

/* ---- seeks whose owner left ---- */

void core_seek_owner_present(core *C, const char *account)
{
    int64_t now = core_game_ms(C);
    for (lobby_seek *k = C->seeks; k; k = k->next)
        if (strcasecmp(k->s.by, account) == 0) {
            k->present_ms = k->remote_ms = now;
            k->elsewhere_ms = now;
        }
}

void core_seek_owner_left(core *C, const char *account)
{
    int64_t now = core_game_ms(C);
    for (lobby_seek *k = C->seeks; k; k = k->next)
        if (k->state == 0 && strcasecmp(k->s.by, account) == 0)
            k->left_ms = now;
}

void core_seek_owner_here(core *C, const char *account)
{
    for (lobby_seek *k = C->seeks; k; k = k->next)
        if (strcasecmp(k->s.by, account) == 0) {
            k->left_ms = 0;
            k->told_ms = 0;   /* the other instances are told at the next look */
        }
}

void core_seeks_lapse(core *C, int (*present)(void *ctx, const char *account), void *ctx)
{
    if (!C->seeks_loaded)
        return;
    int64_t now = core_game_ms(C);
    int64_t seek_lapse = (int64_t)(C->cf.seek_lapse_secs > 0 ? C->cf.seek_lapse_secs
                                                             : CORE_SEEK_LAPSE_SECS) * 1000;
    int changed = 0;
    for (lobby_seek *k = C->seeks; k; k = k->next) {
        if (k->state != 0)
            continue;
        /* A pool entry keeps its place only while a page is open (pool.c). */
        int64_t lapse = lobby_is_pool(&k->s) ? (int64_t)CORE_POOL_LAPSE_SECS * 1000 : seek_lapse;
        if (present(ctx, k->s.by)) {
            k->present_ms = now;
            k->left_ms = 0;
            if (C->shared && now - k->told_ms >= CORE_SEEK_HERE_MS) {
                /* The other instances: its owner is here (once for all of
                 * the owner's seeks). */
                char told[STORE_NAME_LEN + 8];
                snprintf(told, sizeof told, "here %s", k->s.by);
                if (wq_notify(C, CORE_CH_LOBBY, told) == 0)
                    for (lobby_seek *o = k; o; o = o->next)
                        if (strcasecmp(o->s.by, k->s.by) == 0)
                            o->told_ms = now;
            }
            continue;
        }
        /* Its owner left (their last page closed): a short grace, for the
         * next page's socket; never seen here: the long lapse. */
        int64_t grace = lobby_is_pool(&k->s) ? lapse : CORE_SEEK_GRACE_MS;
        if (k->left_ms ? now - k->left_ms < grace ||
                             (k->elsewhere_ms && now - k->elsewhere_ms < 2 * CORE_SEEK_HERE_MS + 5000)
                       : now - k->present_ms < lapse)
            continue;
        seek_write w;
        memset(&w, 0, sizeof w);
        w.s = k->s;
        w.close = 3;
        if (wq_call(C, seek_apply, seek_settled, &w, sizeof w) != 0 ||
            wq_notify(C, CORE_CH_LOBBY, "seeks") != 0)
            continue;
        k->state = 2;
        changed = 1;
        core_log(C, "%s %s of %s lapsed: no lobby socket for %lld s",
                 lobby_is_pool(&k->s) ? "pool entry" : "seek", k->s.id, k->s.by,
                 (long long)(lapse / 1000));
    }
    if (changed)
        lobby_changed(C);
}

int core_seek_gone(core *C, const char *id)
{
    return C->st->ops->seek_state(C->st, id) > 0;
}

int core_seek_count(const core *C) { return C->nseeks; }
