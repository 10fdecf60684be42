/*
 * tournaments.c — tournaments in the server (SPEC "Tournaments", issue 47;
 * docs/tournaments.md): made, joined, withdrawn from, started, paired and
 * ended.  A room above the games and the lobby, as shared.c: it makes its
 * games through core_create_accounts and ends a withdrawn player's boards
 * through core_resign; nothing below calls it (results.c only sets
 * C->tours_nudge when a game between accounts ends), and the edge drives
 * its tick.
 *
 * Nothing here is kept as truth in memory: every decision reads the
 * tournament, its players and its games (with their results, from the games
 * table) from the store, and the pure rules of tournament.c compute scores,
 * standings and pairings from them.  A restarted server reads the same and
 * pairs the same.  With several instances on one database, exactly one
 * instance acts on a tournament: the one holding its claim (the owner claim
 * the clocks use; a dead instance's claims go with its connection, and
 * another takes over at its next tick).  The writes of one step (the games
 * made and their places in the tournament's list) go in one batch, and a
 * tournament is not looked at again until that batch is settled; a place
 * in the list is taken once (the store refuses a second), so a pairing is
 * never made twice.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "server/core/internal.h"
#include "server/core/tournament.h"
#include "server/core/writer.h"
#include "server/core/mail.h"

/* What the tournaments remember between ticks: per tournament, the batch
 * its last writes joined (not looked at before it is settled) and whether
 * this instance holds its claim. */
#define TOURS_SLOTS 256
typedef struct tour_slot {
    char id[STORE_ID_LEN];   /* "" free */
    long batch;
    int claimed;
} tour_slot;

struct core_tours {
    int64_t last_ms;         /* the last tick that looked (unix ms) */
    long nudged;             /* C->tours_nudge as last seen */
    tour_slot slot[TOURS_SLOTS];
};

/* A tournament as read from the store. */
typedef struct tour_state {
    store_tour t;
    int n, cap;
    store_tour_player *sp;
    tour_player *p;
    int ng, gcap;
    store_tour_game *sg;
    tour_game *g;
} tour_state;

static struct core_tours *tours_of(core *C)
{
    if (!C->tours)
        C->tours = calloc(1, sizeof *C->tours);
    return C->tours;
}

static tour_slot *slot_of(core *C, const char *id, int make)
{
    struct core_tours *T = tours_of(C);
    if (!T)
        return NULL;
    tour_slot *free_slot = NULL, *settled = NULL;
    for (int i = 0; i < TOURS_SLOTS; i++) {
        tour_slot *s = &T->slot[i];
        if (s->id[0] && strcmp(s->id, id) == 0)
            return s;
        if (!s->id[0] && !free_slot)
            free_slot = s;
        if (s->id[0] && !s->claimed && s->batch <= C->wsettled && !settled)
            settled = s;
    }
    if (!make)
        return NULL;
    tour_slot *s = free_slot ? free_slot : settled;
    if (!s)
        return NULL;
    memset(s, 0, sizeof *s);
    snprintf(s->id, sizeof s->id, "%s", id);
    return s;
}

/* The writes made now for tournament `id` must be settled before it is
 * looked at again. */
static void tour_wrote(core *C, const char *id)
{
    tour_slot *s = slot_of(C, id, 1);
    if (s)
        s->batch = core_batch(C);
}

/* 1 when nothing written for `id` waits for its commit. */
static int tour_settled(core *C, const char *id)
{
    tour_slot *s = slot_of(C, id, 0);
    return !s || s->batch <= C->wsettled;
}

/* The claim on tournament `id`: 1 this instance acts on it. */
static int tour_claim(core *C, const char *id)
{
    if (!C->shared)
        return 1;
    tour_slot *s = slot_of(C, id, 1);
    if (!s)
        return 0;
    if (s->claimed)
        return 1;
    char key[40], err[256];
    snprintf(key, sizeof key, "%s%s", CORE_TOUR_CLAIM_PREFIX, id);
    int rc = store_try_claim(C->st, key, err, sizeof err);
    if (rc < 0)
        core_log(C, "error: tournament %s: claim: %s", id, err);
    s->claimed = rc == 1;
    return s->claimed;
}

static void tour_release(core *C, const char *id)
{
    tour_slot *s = slot_of(C, id, 0);
    if (!s || !s->claimed)
        return;
    char key[40];
    snprintf(key, sizeof key, "%s%s", CORE_TOUR_CLAIM_PREFIX, id);
    store_release_claim(C->st, key);
    s->claimed = 0;
}

/* ---- reading a tournament ---- */

static void state_free(tour_state *s)
{
    free(s->sp);
    free(s->p);
    free(s->sg);
    free(s->g);
    memset(s, 0, sizeof *s);
}

static int on_player(void *ctx, const store_tour_player *p)
{
    tour_state *s = ctx;
    if (s->n == s->cap) {
        int nc = s->cap ? s->cap * 2 : 16;
        store_tour_player *sp = realloc(s->sp, sizeof *sp * (size_t)nc);
        if (!sp)
            return 1;
        s->sp = sp;
        s->cap = nc;
    }
    s->sp[s->n++] = *p;
    return 0;
}

static int on_game(void *ctx, const store_tour_game *g)
{
    tour_state *s = ctx;
    if (s->ng == s->gcap) {
        int nc = s->gcap ? s->gcap * 2 : 32;
        store_tour_game *sg = realloc(s->sg, sizeof *sg * (size_t)nc);
        if (!sg)
            return 1;
        s->sg = sg;
        s->gcap = nc;
    }
    s->sg[s->ng++] = *g;
    return 0;
}

static int player_index(const tour_state *s, const char *name)
{
    for (int i = 0; i < s->n; i++)
        if (strcasecmp(s->sp[i].name, name) == 0)
            return i;
    return -1;
}

static int is_arena(const store_tour *t) { return strcmp(t->kind, "arena") == 0; }

/* A game's result for the rules, from what the games table says. */
static void game_result(const store_tour_game *sg, tour_game *g)
{
    g->result = TOUR_RUNNING;
    g->idle = 0;
    g->forfeit = 0;
    if (strcmp(sg->end, "abort") == 0) {
        g->result = TOUR_ABORTED;
        g->idle = sg->plies == 0 ? 0 : 1;   /* white had not moved, else black */
    } else if (strcmp(sg->winner, "white") == 0) {
        g->result = TOUR_WHITE_WON;
    } else if (strcmp(sg->winner, "black") == 0) {
        g->result = TOUR_BLACK_WON;
    } else if (strcmp(sg->winner, "draw") == 0) {
        g->result = TOUR_DRAWN;
    }
}

/* Read tournament `id` whole: 1 found, 0 unknown, -1 the store failed.
 * The rules' players and games are filled: a round robin's withdrawn
 * players' unfinished games are forfeits (tour_rr_withdraw); an arena's
 * players are active unless withdrawn or paused (the side that let its last
 * game abort, until it joins again: `seed` holds the number of games when it
 * last joined). */
static int state_read(core *C, const char *id, tour_state *s)
{
    memset(s, 0, sizeof *s);
    char err[256];
    store *st = C->st;
    int rc = st->ops->get_tour(st, id, &s->t, err, sizeof err);
    if (rc != 1) {
        if (rc < 0)
            core_log(C, "error: tournament %s: %s", id, err);
        return rc;
    }
    if (st->ops->each_tour_player(st, id, on_player, s, err, sizeof err) != 0 ||
        st->ops->each_tour_game(st, id, on_game, s, err, sizeof err) != 0) {
        core_log(C, "error: tournament %s: %s", id, err);
        state_free(s);
        return -1;
    }
    if (!is_arena(&s->t) && s->t.status != STORE_TOUR_OPEN) {
        /* A round robin's players are those divided at its start (one who
         * withdrew before it has no division). */
        int n = 0;
        for (int i = 0; i < s->n; i++)
            if (s->sp[i].division > 0)
                s->sp[n++] = s->sp[i];
        s->n = n;
    }
    s->p = calloc((size_t)s->n + 1, sizeof *s->p);
    s->g = calloc((size_t)s->ng + 1, sizeof *s->g);
    if (!s->p || !s->g) {
        state_free(s);
        return -1;
    }
    for (int i = 0; i < s->n; i++) {
        tour_player *p = &s->p[i];
        snprintf(p->name, sizeof p->name, "%s", s->sp[i].name);
        p->rating = s->sp[i].rating;
        p->withdrawn = s->sp[i].withdrawn;
        p->division = s->sp[i].division;
        p->seed = s->sp[i].seed;
        p->active = !p->withdrawn && s->t.status == STORE_TOUR_RUNNING;
    }
    int ng = 0;
    for (int i = 0; i < s->ng; i++) {
        int w = player_index(s, s->sg[i].white), b = player_index(s, s->sg[i].black);
        if (w < 0 || b < 0)
            continue;   /* never: a game's players joined first */
        s->sg[ng] = s->sg[i];
        tour_game *g = &s->g[ng++];
        g->white = w;
        g->black = b;
        g->division = s->sg[i].division;
        game_result(&s->sg[i], g);
    }
    s->ng = ng;
    if (!is_arena(&s->t)) {
        for (int i = 0; i < s->n; i++)
            if (s->p[i].withdrawn) {
                s->p[i].withdrawn = 0;   /* tour_rr_withdraw marks it again */
                tour_rr_withdraw(s->p, s->n, s->g, s->ng, i);
            }
    } else {
        for (int i = 0; i < s->ng; i++) {
            const tour_game *g = &s->g[i];
            if (g->result != TOUR_ABORTED)
                continue;
            int idle = g->idle ? g->black : g->white;
            /* its last game? (a later one of it clears the pause) */
            int later = 0;
            for (int j = i + 1; j < s->ng && !later; j++)
                later = s->g[j].white == idle || s->g[j].black == idle;
            if (!later && i >= s->sp[idle].seed)
                s->p[idle].active = 0;
        }
    }
    return 1;
}

/* The standings in the API's units, into v (players in standing order). */
static int standings(const tour_state *s, core_tour_view *v)
{
    tour_standing *out = calloc((size_t)s->n + 1, sizeof *out);
    tour_arena_stat *st = calloc((size_t)s->n + 1, sizeof *st);
    v->players = calloc((size_t)s->n + 1, sizeof *v->players);
    if (!out || !st || !v->players) {
        free(out);
        free(st);
        return -1;
    }
    int arena = is_arena(&s->t);
    if (arena) {
        tour_arena_tally(s->p, s->n, s->g, s->ng, st);
        tour_arena_standings(s->p, st, s->n, out);
    } else {
        tour_rr_standings(s->p, s->n, s->g, s->ng, out);
    }
    for (int i = 0; i < s->n; i++) {
        core_tour_line *l = &v->players[i];
        int k = out[i].player;
        snprintf(l->name, sizeof l->name, "%s", s->sp[k].name);
        l->rating = s->sp[k].rating;
        l->score = arena ? out[i].score : out[i].score / 2.0;
        l->tiebreak = arena ? out[i].tiebreak : out[i].tiebreak / 4.0;
        l->division = out[i].division;
        l->withdrawn = s->sp[k].withdrawn;
        l->rank = out[i].rank;
    }
    v->n = s->n;
    free(out);
    free(st);
    return 0;
}

core_status core_tour_read(core *C, const char *id, core_tour_view *v)
{
    memset(v, 0, sizeof *v);
    tour_state s;
    int rc = state_read(C, id, &s);
    if (rc == 0)
        return CORE_NOTFOUND;
    if (rc < 0)
        return CORE_UNAVAILABLE;
    v->t = s.t;
    if (standings(&s, v) != 0) {
        state_free(&s);
        core_tour_view_free(v);
        return CORE_UNAVAILABLE;
    }
    v->games = s.sg;   /* taken over */
    v->ng = s.ng;
    s.sg = NULL;
    state_free(&s);
    return CORE_OK;
}

void core_tour_view_free(core_tour_view *v)
{
    free(v->players);
    free(v->games);
    memset(v, 0, sizeof *v);
}

int core_tour_list(core *C, int limit, store_tour_fn fn, void *ctx)
{
    char err[256];
    return C->st->ops->each_tour(C->st, 0, limit, fn, ctx, err, sizeof err);
}

/* ---- writes (each joins the open batch) ---- */

typedef struct tour_write {
    int kind;                /* 0 create, 1 status, 2 player, 3 game */
    char id[STORE_ID_LEN];
    store_tour t;
    int from, to;
    int64_t starts, ends;
    store_tour_player p;
    store_tour_game g;
} tour_write;

static int tour_apply(store *st, void *data, char *err, size_t errlen)
{
    const tour_write *w = data;
    switch (w->kind) {
    case 0:
        return st->ops->create_tour(st, &w->t, err, errlen);
    case 1:
        return st->ops->set_tour(st, w->id, w->from, w->to, w->starts, w->ends, err, errlen) == 0
                   ? 0
                   : -1;
    case 2:
        return st->ops->set_tour_player(st, w->id, &w->p, err, errlen);
    default:
        /* A place taken (a pairing made twice) fails the whole batch: the
         * game made with it is not kept either. */
        return st->ops->add_tour_game(st, w->id, &w->g, err, errlen) == 0 ? 0 : -1;
    }
}

static int write_status(core *C, const char *id, int from, int to, int64_t starts, int64_t ends)
{
    tour_write w;
    memset(&w, 0, sizeof w);
    w.kind = 1;
    snprintf(w.id, sizeof w.id, "%s", id);
    w.from = from;
    w.to = to;
    w.starts = starts;
    w.ends = ends;
    return wq_call(C, tour_apply, NULL, &w, sizeof w);
}

static int write_player(core *C, const char *id, const store_tour_player *p)
{
    tour_write w;
    memset(&w, 0, sizeof w);
    w.kind = 2;
    snprintf(w.id, sizeof w.id, "%s", id);
    w.p = *p;
    return wq_call(C, tour_apply, NULL, &w, sizeof w);
}

/* A tournament game: an ordinary game between the two accounts (rated if
 * the tournament is, on its clock), and its place `seq` in the list. */
static int new_game(core *C, const store_tour *t, const char *white, const char *black,
                    int division, int seq)
{
    char err[320];
    tav_session *ses = core_new_session(t->game, t->options, err, sizeof err);
    if (!ses) {
        core_log(C, "error: tournament %s: a game: %s", t->id, err);
        return -1;
    }
    store_seek clock;
    memset(&clock, 0, sizeof clock);
    clock.initial = t->initial;
    clock.increment = t->increment;
    clock.days = t->days;
    const char *acc[2] = {white, black};
    core_made m;
    if (core_create_accounts(C, ses, acc, t->rated, &clock, &m) != CORE_CREATED) {
        core_log(C, "error: tournament %s: a game: %s", t->id, m.err);
        return -1;
    }
    snprintf(m.g->tour, sizeof m.g->tour, "%s", t->id);   /* its page links to the tournament */
    tour_write w;
    memset(&w, 0, sizeof w);
    w.kind = 3;
    snprintf(w.id, sizeof w.id, "%s", t->id);
    w.g.seq = seq;
    snprintf(w.g.game, sizeof w.g.game, "%s", m.g->id);
    snprintf(w.g.white, sizeof w.g.white, "%s", white);
    snprintf(w.g.black, sizeof w.g.black, "%s", black);
    w.g.division = division;
    if (wq_call(C, tour_apply, NULL, &w, sizeof w) != 0)
        return -1;
    game_tell(C, m.g);   /* its players' channels list it (and a notice says it begins) */
    return 0;
}

static double rating_now(core *C, const char *name, const char *gname)
{
    store_rating r;
    char err[256];
    if (C->st->ops->get_rating(C->st, name, gname, &r, err, sizeof err) == 1)
        return r.rating;
    return 1500;
}

/* ---- the steps ---- */

static int players_in(const tour_state *s)
{
    int k = 0;
    for (int i = 0; i < s->n; i++)
        k += !s->sp[i].withdrawn;
    return k;
}

static int enough(const tour_state *s) { return players_in(s) >= (is_arena(&s->t) ? 2 : 3); }

/* The arena's pairings now: the games made (0 none), -1 on a failure. */
static int arena_pair(core *C, tour_state *s, int64_t now)
{
    if (s->ng >= CORE_TOUR_ARENA_GAMES_MAX)
        return 0;
    tour_arena_stat *st = calloc((size_t)s->n + 1, sizeof *st);
    tour_pairing *pairs = calloc((size_t)s->n / 2 + 1, sizeof *pairs);
    int *work = calloc(2 * (size_t)s->n + 1, sizeof *work);
    int made = -1;
    if (st && pairs && work) {
        tour_arena_tally(s->p, s->n, s->g, s->ng, st);
        int np = tour_arena_pair(s->p, st, s->n, now, s->t.starts, s->t.ends, pairs, work);
        made = 0;
        for (int k = 0; k < np; k++) {
            if (new_game(C, &s->t, s->sp[pairs[k].white].name, s->sp[pairs[k].black].name, 0,
                         s->ng + k) != 0) {
                made = -1;
                break;
            }
            made++;
        }
    }
    free(st);
    free(pairs);
    free(work);
    return made;
}

/* A recurring event that starts opens its next edition (in the same
 * batch): the same tournament a period after the start planned (later
 * than now), its players joined again but those who joined "once" or
 * withdrew.  The store takes one next edition of each (`previous` is
 * unique), so it is never made twice. */
static int next_edition(core *C, const tour_state *s, int64_t planned, int64_t now)
{
    if (!s->t.repeat[0])
        return 0;
    int64_t period = strcmp(s->t.repeat, "week") == 0 ? 7 * 86400000LL : 86400000LL;
    tour_write w;
    memset(&w, 0, sizeof w);
    w.kind = 0;
    w.t = s->t;
    core_random_b64(w.t.id, 9);
    snprintf(w.t.previous, sizeof w.t.previous, "%s", s->t.id);
    w.t.status = STORE_TOUR_OPEN;
    w.t.starts = planned + period;
    while (w.t.starts <= now)
        w.t.starts += period;
    w.t.ends = 0;
    w.t.created = core_unix_ms();
    w.t.players = 0;
    if (wq_call(C, tour_apply, NULL, &w, sizeof w) != 0)
        return -1;
    for (int i = 0; i < s->n; i++) {
        if (s->sp[i].withdrawn || s->sp[i].once)
            continue;
        store_tour_player p;
        memset(&p, 0, sizeof p);
        snprintf(p.name, sizeof p.name, "%s", s->sp[i].name);
        p.rating = s->sp[i].rating;
        p.joined = s->sp[i].joined;
        if (write_player(C, w.t.id, &p) != 0)
            return -1;
    }
    core_log(C, "tournament %s: its next edition is %s", s->t.id, w.t.id);
    return 0;
}

/* Start tournament s now: a round robin's divisions and every game at
 * once; an arena's end and first pairings.  0, or -1 (nothing was done
 * that the batch's failure would not undo). */
/* Its players who asked for it are told by mail that it starts (queued
 * with the batch that starts it). */
static void mail_start(core *C, const tour_state *s)
{
    for (int i = 0; i < s->n; i++)
        if (!s->sp[i].withdrawn)
            core_mail_tournament(C, s->sp[i].name, s->t.id, s->t.name);
}

static int tour_begin(core *C, tour_state *s, int64_t now)
{
    if (next_edition(C, s, s->t.starts, now) != 0)
        return -1;
    if (!is_arena(&s->t)) {
        /* The players in, with their ratings in this game now. */
        int n = 0;
        for (int i = 0; i < s->n; i++)
            if (!s->sp[i].withdrawn) {
                s->sp[n] = s->sp[i];
                s->p[n] = s->p[i];
                s->sp[n].rating = s->p[n].rating = rating_now(C, s->sp[n].name, s->t.game);
                n++;
            }
        s->n = n;
        int *order = calloc((size_t)n + 1, sizeof *order);
        int count = tour_rr_game_count(n);
        tour_game *g = calloc((size_t)count + 1, sizeof *g);
        if (!order || !g || tour_rr_divide(s->p, n, order) < 0 ||
            tour_rr_games(s->p, n, g, count) != count) {
            free(order);
            free(g);
            return -1;
        }
        free(order);
        int rc = write_status(C, s->t.id, STORE_TOUR_OPEN, STORE_TOUR_RUNNING, now, 0);
        for (int i = 0; rc == 0 && i < n; i++) {
            s->sp[i].division = s->p[i].division;
            s->sp[i].seed = s->p[i].seed;
            rc = write_player(C, s->t.id, &s->sp[i]);
        }
        for (int i = 0; rc == 0 && i < count; i++)
            rc = new_game(C, &s->t, s->sp[g[i].white].name, s->sp[g[i].black].name,
                          g[i].division, i);
        free(g);
        if (rc == 0)
            mail_start(C, s);
        tour_wrote(C, s->t.id);
        core_log(C, "tournament %s: a round robin of %d players started, %d games", s->t.id, n,
                 count);
        return rc;
    }
    s->t.starts = now;
    s->t.ends = now + s->t.minutes * 60000;
    s->t.status = STORE_TOUR_RUNNING;
    int rc = write_status(C, s->t.id, STORE_TOUR_OPEN, STORE_TOUR_RUNNING, s->t.starts, s->t.ends);
    for (int i = 0; i < s->n; i++)
        s->p[i].active = !s->p[i].withdrawn;
    if (rc == 0 && arena_pair(C, s, now) < 0)
        rc = -1;
    if (rc == 0)
        mail_start(C, s);
    tour_wrote(C, s->t.id);
    core_log(C, "tournament %s: an arena of %d players started", s->t.id, players_in(s));
    return rc;
}

/* One look at an unfinished tournament this instance owns. */
static void tour_step(core *C, const char *id, int64_t now)
{
    if (!tour_settled(C, id) || !tour_claim(C, id))
        return;
    tour_state s;
    if (state_read(C, id, &s) != 1)
        return;
    if (s.t.status == STORE_TOUR_OPEN) {
        if (now >= s.t.starts && enough(&s))
            tour_begin(C, &s, now);
    } else if (s.t.status == STORE_TOUR_RUNNING) {
        if (is_arena(&s.t)) {
            if (tour_arena_over(s.g, s.ng, now, s.t.ends)) {
                write_status(C, id, STORE_TOUR_RUNNING, STORE_TOUR_OVER, s.t.starts, s.t.ends);
                tour_wrote(C, id);
                tour_release(C, id);
            } else if (arena_pair(C, &s, now) > 0) {
                tour_wrote(C, id);
            }
        } else if (tour_rr_over(s.g, s.ng)) {
            write_status(C, id, STORE_TOUR_RUNNING, STORE_TOUR_OVER, s.t.starts, now);
            tour_wrote(C, id);
            tour_release(C, id);
        }
    }
    state_free(&s);
}

typedef struct id_list {
    int n;
    char id[CORE_TOUR_LIST_MAX][STORE_ID_LEN];
} id_list;

static int on_unfinished(void *ctx, const store_tour *t)
{
    id_list *l = ctx;
    if (l->n < CORE_TOUR_LIST_MAX)
        snprintf(l->id[l->n++], STORE_ID_LEN, "%s", t->id);
    return 0;
}

void core_tour_tick(core *C)
{
    struct core_tours *T = tours_of(C);
    if (!T)
        return;
    int64_t wall = core_unix_ms();
    /* Every CORE_TOUR_TICK_MS, and at once when a game ended (its end
     * committed). */
    int nudged = C->tours_nudge != T->nudged && C->tours_nudge <= C->wsettled;
    if (!nudged && wall - T->last_ms < CORE_TOUR_TICK_MS)
        return;
    T->last_ms = wall;
    if (nudged)
        T->nudged = C->tours_nudge;
    id_list *l = calloc(1, sizeof *l);
    if (!l)
        return;
    char err[256];
    if (C->st->ops->each_tour(C->st, 1, CORE_TOUR_LIST_MAX, on_unfinished, l, err, sizeof err) != 0)
        core_log(C, "error: tournaments: %s", err);
    int64_t now = core_game_ms(C);
    for (int i = 0; i < l->n; i++)
        tour_step(C, l->id[i], now);
    free(l);
}

/* ---- requests ---- */

static int name_ok(const char *s)
{
    size_t n = strlen(s);
    if (n == 0 || n > CORE_TOUR_NAME_MAX)
        return 0;
    for (size_t i = 0; i < n; i++)
        if ((unsigned char)s[i] < 0x20 || s[i] == 0x7f)
            return 0;
    return s[0] != ' ' && s[n - 1] != ' ';
}

core_status core_tour_create(core *C, const char *account, const store_tour *want,
                             char id[STORE_ID_LEN], char *err, size_t errlen)
{
    if (!account || !account[0]) {
        snprintf(err, errlen, "sign in to make a tournament");
        return CORE_FORBIDDEN;
    }
    if (!name_ok(want->name)) {
        snprintf(err, errlen, "a name is 1 to %d bytes, no control characters, no spaces at its ends",
                 CORE_TOUR_NAME_MAX);
        return CORE_BAD;
    }
    if (!tav_game_find(want->game)) {
        snprintf(err, errlen, "unknown game '%.32s'", want->game);
        return CORE_BAD;
    }
    int arena = strcmp(want->kind, "arena") == 0;
    if (!arena && strcmp(want->kind, "roundrobin") != 0) {
        snprintf(err, errlen, "kind is \"roundrobin\" or \"arena\"");
        return CORE_BAD;
    }
    tav_session *s = NULL;
    char e[256];
    if (tav_session_new(&s, want->game, want->options, 1, e, sizeof e) != TAV_OK) {
        snprintf(err, errlen, "%s", e);
        return CORE_BAD;
    }
    char pub[512];
    tav_session_public_options(s, pub, sizeof pub);
    tav_session_free(s);
    if (strcmp(pub, want->options) != 0) {
        snprintf(err, errlen, "a tournament's options are public: no chosen deal");
        return CORE_BAD;
    }
    store_seek clock;
    memset(&clock, 0, sizeof clock);
    clock.initial = want->initial;
    clock.increment = want->increment;
    clock.days = want->days;
    if (!seek_clock_ok(&clock) || (!clock.initial && !clock.increment && !clock.days)) {
        snprintf(err, errlen, "a tournament needs a clock: {\"initial\": 30..10800, \"increment\": "
                              "0..180} seconds, or {\"days\": 1, 2, 3, 5, 7 or 14}");
        return CORE_BAD;
    }
    if (arena && (clock.days || !clock.initial)) {
        snprintf(err, errlen, "an arena needs a real-time clock");
        return CORE_BAD;
    }
    if (want->repeat[0] && strcmp(want->repeat, "day") != 0 && strcmp(want->repeat, "week") != 0) {
        snprintf(err, errlen, "repeat is \"day\" or \"week\"");
        return CORE_BAD;
    }
    if (arena && (want->minutes < 1 || want->minutes > CORE_TOUR_MINUTES_MAX)) {
        snprintf(err, errlen, "an arena lasts 1 to %d minutes", CORE_TOUR_MINUTES_MAX);
        return CORE_BAD;
    }
    int64_t now = core_game_ms(C);
    if (want->starts <= 0 || want->starts > now + (int64_t)CORE_TOUR_AHEAD_DAYS * 86400000) {
        snprintf(err, errlen, "starts is a time in unix ms, at most %d days ahead",
                 CORE_TOUR_AHEAD_DAYS);
        return CORE_BAD;
    }
    int64_t wall = core_unix_ms();
    char e2[256];
    int made = C->st->ops->count_tours(C->st, account, wall - 86400000, e2, sizeof e2);
    if (made < 0) {
        snprintf(err, errlen, "the tournaments could not be counted: try again");
        return CORE_UNAVAILABLE;
    }
    if (made >= CORE_TOURS_PER_DAY) {
        snprintf(err, errlen, "at most %d tournaments a day per account", CORE_TOURS_PER_DAY);
        return CORE_LIMIT;
    }
    tour_write w;
    memset(&w, 0, sizeof w);
    w.kind = 0;
    w.t = *want;
    core_random_b64(w.t.id, 9);
    snprintf(w.t.creator, sizeof w.t.creator, "%s", account);
    w.t.status = STORE_TOUR_OPEN;
    w.t.ends = 0;
    if (!arena)
        w.t.minutes = 0;
    w.t.created = wall;
    w.t.players = 0;
    w.t.previous[0] = 0;
    if (wq_call(C, tour_apply, NULL, &w, sizeof w) != 0) {
        snprintf(err, errlen, "the tournament could not be stored");
        return CORE_UNAVAILABLE;
    }
    tour_wrote(C, w.t.id);
    snprintf(id, STORE_ID_LEN, "%s", w.t.id);
    core_log(C, "tournament %s made (%s)", w.t.id, w.t.kind);
    return CORE_CREATED;
}

/* Read a tournament for a request: CORE_OK, or the refusal with err. */
static core_status request_state(core *C, const char *account, const char *id, tour_state *s,
                                 char *err, size_t errlen)
{
    if (!account || !account[0]) {
        snprintf(err, errlen, "sign in first");
        return CORE_FORBIDDEN;
    }
    int rc = state_read(C, id, s);
    if (rc == 0) {
        snprintf(err, errlen, "no such tournament");
        return CORE_NOTFOUND;
    }
    if (rc < 0) {
        snprintf(err, errlen, "the tournament could not be read: try again");
        return CORE_UNAVAILABLE;
    }
    return CORE_OK;
}

core_status core_tour_join(core *C, const char *account, const char *id, int once, char *err,
                           size_t errlen)
{
    tour_state s;
    core_status st = request_state(C, account, id, &s, err, errlen);
    if (st != CORE_OK)
        return st;
    int arena = is_arena(&s.t);
    int k = player_index(&s, account);
    if (s.t.status == STORE_TOUR_OVER) {
        snprintf(err, errlen, "the tournament is over");
        st = CORE_CONFLICT;
    } else if (s.t.status == STORE_TOUR_RUNNING && !arena) {
        snprintf(err, errlen, "a round robin that has started takes no new players");
        st = CORE_CONFLICT;
    } else if (k >= 0 && !s.sp[k].withdrawn && !(arena && !s.p[k].active &&
                                                  s.t.status == STORE_TOUR_RUNNING) &&
               s.sp[k].once == once) {
        st = CORE_OK;   /* in already */
    } else if (k < 0 && s.n >= CORE_TOUR_PLAYERS_MAX) {
        snprintf(err, errlen, "the tournament is full (%d players)", CORE_TOUR_PLAYERS_MAX);
        st = CORE_CONFLICT;
    } else {
        store_tour_player p;
        memset(&p, 0, sizeof p);
        if (k >= 0)
            p = s.sp[k];
        else
            snprintf(p.name, sizeof p.name, "%s", account);
        p.withdrawn = 0;
        p.once = once;
        p.rating = rating_now(C, p.name, s.t.game);
        p.seed = arena ? s.ng : 0;   /* an arena: a pause before this ends (state_read) */
        p.joined = k >= 0 ? s.sp[k].joined : core_game_ms(C);
        if (write_player(C, id, &p) != 0) {
            snprintf(err, errlen, "the join could not be stored");
            st = CORE_UNAVAILABLE;
        } else {
            tour_wrote(C, id);
        }
    }
    state_free(&s);
    return st;
}

core_status core_tour_withdraw(core *C, const char *account, const char *id, char *err,
                               size_t errlen)
{
    tour_state s;
    core_status st = request_state(C, account, id, &s, err, errlen);
    if (st != CORE_OK)
        return st;
    int k = player_index(&s, account);
    if (k < 0) {
        snprintf(err, errlen, "not a player of this tournament");
        st = CORE_CONFLICT;
    } else if (s.t.status == STORE_TOUR_OVER) {
        snprintf(err, errlen, "the tournament is over");
        st = CORE_CONFLICT;
    } else if (!s.sp[k].withdrawn) {
        store_tour_player p = s.sp[k];
        p.withdrawn = 1;
        if (write_player(C, id, &p) != 0) {
            snprintf(err, errlen, "the withdrawal could not be stored");
            st = CORE_UNAVAILABLE;
        } else {
            tour_wrote(C, id);
            /* A running round robin: its boards still in play are lost
             * (resigned for the player: the forfeit tour_rr_withdraw
             * counts). */
            for (int i = 0; i < s.ng && !is_arena(&s.t) && s.t.status == STORE_TOUR_RUNNING; i++) {
                if (s.sg[i].winner[0] || s.sg[i].end[0] ||
                    (s.g[i].white != k && s.g[i].black != k))
                    continue;
                game *g = core_get(C, s.sg[i].game);
                core_cred cred = {NULL, s.sp[k].name};
                char e[160];
                if (g && !core_over(g))
                    core_resign(C, g, &cred, e, sizeof e);
            }
        }
    }
    state_free(&s);
    return st;
}

core_status core_tour_start(core *C, const char *account, const char *id, char *err,
                            size_t errlen)
{
    tour_state s;
    core_status st = request_state(C, account, id, &s, err, errlen);
    if (st != CORE_OK)
        return st;
    if (strcasecmp(s.t.creator, account) != 0) {
        snprintf(err, errlen, "only its creator starts a tournament");
        st = CORE_FORBIDDEN;
    } else if (s.t.status != STORE_TOUR_OPEN) {
        snprintf(err, errlen, "the tournament has started already");
        st = CORE_CONFLICT;
    } else if (!enough(&s)) {
        snprintf(err, errlen, "a %s needs %d players to start", is_arena(&s.t) ? "arena" : "round robin",
                 is_arena(&s.t) ? 2 : 3);
        st = CORE_CONFLICT;
    } else if (!tour_settled(C, id)) {
        snprintf(err, errlen, "the tournament is changing: try again");
        st = CORE_CONFLICT;
    } else {
        int64_t now = core_game_ms(C);
        int rc;
        if (tour_claim(C, id)) {
            rc = tour_begin(C, &s, now);
        } else {
            /* Another instance owns it: it starts it at its next look. */
            rc = write_status(C, id, STORE_TOUR_OPEN, STORE_TOUR_OPEN, now, 0);
            tour_wrote(C, id);
        }
        if (rc != 0) {
            snprintf(err, errlen, "the tournament could not be started");
            st = CORE_UNAVAILABLE;
        }
    }
    state_free(&s);
    return st;
}
