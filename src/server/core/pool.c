/*
 * pool.c — quick pairing (issue 46): per game a few standard clocks, joined
 * with one click; players are paired by rating, the window widening with
 * the wait.
 *
 * A pool entry is an ordinary open seek of the lobby (lobby.c) whose id
 * begins with '~' (outside the ids' alphabet, so no seek request reaches
 * it, and it is not listed as a seek).  So it is stored like a seek, read
 * again by every instance like a seek, and a pairing closes both entries
 * with the new game in one batch: the store refuses to close a seek twice,
 * so of two instances pairing the same entry one batch fails and makes
 * nothing — nobody is paired twice.
 *
 * Presence: an entry keeps its place while its owner has a lobby socket
 * open on any instance (every page of a signed-in player keeps one); it is
 * not withdrawn when the last one closes (a page being left for another),
 * but lapses after CORE_POOL_LAPSE_SECS (10 s) without one (lobby.c's
 * core_seeks_lapse).  Only owners present now are paired.
 *
 * Limits: one entry per account; each join counts as one of the account's
 * offers (CORE_OFFERS_PER_WINDOW, 10 a minute: 429 past it).
 *
 * The window: ±CORE_POOL_WINDOW (100) at once, +CORE_POOL_WIDEN (50) every
 * CORE_POOL_WIDEN_SECS (5 s) of waiting, anyone after CORE_POOL_ANYONE_SECS
 * (30 s); two entries are paired when their ratings differ by no more than
 * the wider of their two windows (the one who waited longer decides), the
 * nearest rating first.  The wait is measured on the games' time.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "server/core/internal.h"

const struct core_pool_clock core_pool_clocks[CORE_POOL_CLOCKS] = {
    {180, 2, 0},   /* 3+2 */
    {600, 5, 0},   /* 10+5 */
    {0, 0, 1},     /* 1 day a move */
};

/* Present on another instance: said so within this long. */
#define POOL_SEEN_MS 5000

static int same_pool(const store_seek *a, const store_seek *b)
{
    return strcmp(a->game, b->game) == 0 && a->initial == b->initial &&
           a->increment == b->increment && a->days == b->days && !a->rated == !b->rated;
}

static lobby_seek *pool_entry(core *C, const char *account)
{
    for (lobby_seek *k = C->seeks; k; k = k->next)
        if (k->state == 0 && lobby_is_pool(&k->s) && strcasecmp(k->s.by, account) == 0)
            return k;
    return NULL;
}

core_status core_pool_join(core *C, const char *account, const store_seek *want,
                           char id[STORE_ID_LEN], char *err, size_t errlen)
{
    if (!account || !account[0]) {
        snprintf(err, errlen, "sign in to join the pool");
        return CORE_FORBIDDEN;
    }
    lobby_load(C);
    if (!tav_game_find(want->game)) {
        snprintf(err, errlen, "unknown game '%.32s'", want->game);
        return CORE_BAD;
    }
    int standard = 0;
    for (int i = 0; i < CORE_POOL_CLOCKS; i++)
        standard |= want->initial == core_pool_clocks[i].initial &&
                    want->increment == core_pool_clocks[i].increment &&
                    want->days == core_pool_clocks[i].days;
    if (!standard) {
        snprintf(err, errlen, "the pool's clocks are {\"initial\": 180, \"increment\": 2}, "
                              "{\"initial\": 600, \"increment\": 5} and {\"days\": 1}");
        return CORE_BAD;
    }
    if (core_is_bot(C, account)) {
        snprintf(err, errlen, "a bot plays challenges only, not the pool");
        return CORE_FORBIDDEN;
    }
    if (pool_entry(C, account)) {
        snprintf(err, errlen, "you are in the pool already: leave it first");
        return CORE_CONFLICT;
    }
    /* A join is an offer to play: it counts toward the account's offers
     * (CORE_OFFERS_PER_WINDOW a minute, offers.c), so joining and leaving
     * cannot make every lobby socket be told again and again. */
    if (offers_counted(C, account) != 0) {
        snprintf(err, errlen, "at most %d offers (pool joins among them) a minute: wait a little",
                 CORE_OFFERS_PER_WINDOW);
        return CORE_LIMIT;
    }
    store_seek w;
    memset(&w, 0, sizeof w);
    snprintf(w.game, sizeof w.game, "%s", want->game);
    w.rated = !!want->rated;
    w.colour = 2;
    w.initial = want->initial;
    w.increment = want->increment;
    w.days = want->days;
    return lobby_make(C, account, &w, 1, id, err, errlen);
}

core_status core_pool_leave(core *C, const char *account, char *err, size_t errlen)
{
    lobby_load(C);
    lobby_seek *k = account && account[0] ? pool_entry(C, account) : NULL;
    if (!k) {
        snprintf(err, errlen, "you are not in the pool");
        return CORE_NOTFOUND;
    }
    return core_unseek(C, account, k->s.id, err, errlen);
}

int core_pool_mine(core *C, const char *account, store_seek *out)
{
    lobby_load(C);
    lobby_seek *k = account && account[0] ? pool_entry(C, account) : NULL;
    if (k)
        *out = k->s;
    return k != NULL;
}

void core_pool_each(core *C, void (*fn)(void *ctx, const store_seek *s, int waiting), void *ctx)
{
    lobby_load(C);
    for (lobby_seek *k = C->seeks; k; k = k->next) {
        if (k->state != 0 || !lobby_is_pool(&k->s))
            continue;
        /* Counted at the first entry of its pool. */
        int first = 1, n = 0;
        for (lobby_seek *o = C->seeks; o; o = o->next)
            if (o->state == 0 && lobby_is_pool(&o->s) && same_pool(&o->s, &k->s)) {
                if (o == k)
                    first = n == 0;
                n++;
            }
        if (first)
            fn(ctx, &k->s, n);
    }
}

typedef struct pool_one {
    lobby_seek *k;
    double rating;
    int64_t waited_s;
    int here, seen, done;
} pool_one;

/* How far from one's rating an opponent may be after waiting `s` seconds
 * (-1: anyone). */
static double pool_window(int64_t s)
{
    if (s >= CORE_POOL_ANYONE_SECS)
        return -1;
    return CORE_POOL_WINDOW + (double)CORE_POOL_WIDEN * (double)(s / CORE_POOL_WIDEN_SECS);
}

void core_pool_match(core *C, int (*present)(void *ctx, const char *account), void *ctx)
{
    if (!C->seeks_loaded)
        return;
    size_t n = 0;
    for (lobby_seek *k = C->seeks; k; k = k->next)
        n += k->state == 0 && lobby_is_pool(&k->s);
    if (n < 2)
        return;
    pool_one *p = calloc(n, sizeof *p);
    if (!p)
        return;   /* next time */
    int64_t now = core_game_ms(C);
    size_t i = 0;
    for (lobby_seek *k = C->seeks; k && i < n; k = k->next) {
        if (k->state != 0 || !lobby_is_pool(&k->s))
            continue;
        pool_one *e = &p[i++];
        e->k = k;
        e->here = present(ctx, k->s.by);
        /* Here, or on another instance (said so lately): a player between
         * two pages here (no socket for a moment) waits for the next round,
         * so that both are told "started". */
        e->seen = e->here || (k->remote_ms && now - k->remote_ms <= POOL_SEEN_MS);
        e->waited_s = now / 1000 - k->s.created;
        if (e->waited_s < 0)
            e->waited_s = 0;
        store_rating sr;
        char err[256];
        e->rating = C->st->ops->get_rating(C->st, k->s.by, k->s.game, &sr, err, sizeof err) == 1
                        ? sr.rating
                        : 1500;
    }
    n = i;
    /* Oldest first (the list's order): each entry whose owner is here takes
     * the nearest rating its window (or the other's) allows. */
    for (i = 0; i < n; i++) {
        pool_one *a = &p[i];
        if (a->done || !a->here)
            continue;
        double wa = pool_window(a->waited_s);
        pool_one *best = NULL;
        double bestd = 0;
        for (size_t j = 0; j < n; j++) {
            pool_one *b = &p[j];
            if (j == i || b->done || !b->seen || !same_pool(&a->k->s, &b->k->s) ||
                strcasecmp(a->k->s.by, b->k->s.by) == 0)
                continue;
            double d = a->rating > b->rating ? a->rating - b->rating : b->rating - a->rating;
            double wb = pool_window(b->waited_s);
            int ok = wa < 0 || wb < 0 || d <= (wa > wb ? wa : wb);
            if (ok && (!best || d < bestd)) {
                best = b;
                bestd = d;
            }
        }
        if (!best)
            continue;
        char gid[STORE_ID_LEN], err[320];
        core_status st = lobby_pair(C, a->k, best->k, gid, err, sizeof err);
        a->done = best->done = 1;
        if (st != CORE_CREATED)
            core_log(C, "pool: %s and %s not paired: %s", a->k->s.by, best->k->s.by, err);
    }
    free(p);
}
