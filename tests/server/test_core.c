/*
 * test_core.c — the server's core on its own: no network, no
 * libwebsockets, no JSON.  A core over a temporary database, its events
 * recorded by the test: games made, moves by seats (the wrong seat, a stale
 * ply, a retry), a computer seat answering, hints and their limits, undo's
 * rules (never in a finished game, never in Toscana), a record checked on
 * the record thread, the limits per address, a game leaving memory and
 * coming back, and a restart that resumes the computer seat to act.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include <sodium.h>

#include "server/core/core.h"
#include "server/core/internal.h"   /* the core's own tests see its state */
#include "server/core/glicko.h"

/* A seat token as the credentials of a request. */
#define T(tok) (&(core_cred){(tok), NULL})

static int passed, failed;

static void check(int ok, const char *what, const char *detail)
{
    if (ok) {
        passed++;
    } else {
        failed++;
        printf("FAIL %s%s%s\n", what, detail && detail[0] ? ": " : "", detail ? detail : "");
    }
}

/* What the core told the "edge". */
typedef struct seen {
    int changed, dirty, hints, records, freed, marked;
    long committed, failed;   /* the last batch on disk, the last that failed */
    core_answer hint;
    core_made made;
    void *waiter;
    int accounts;
    void *order[16];     /* the waiters of account events, in the order they came */
    int norder;
    core_signed sig;
    char away[STORE_NAME_LEN];   /* the account with no socket open ("" none) */
} seen;

static void ev_wake(void *ctx) { (void)ctx; }
static void ev_changed(void *ctx, game *g) { (void)g; ((seen *)ctx)->changed++; }
static void ev_dirty(void *ctx) { ((seen *)ctx)->dirty++; }

static void ev_committed(void *ctx, long n, int ok)
{
    seen *s = ctx;
    if (ok)
        s->committed = n;
    else
        s->failed = n;
}

static void ev_hint(void *ctx, void *waiter, const core_answer *h)
{
    seen *s = ctx;
    s->hints++;
    s->hint = *h;
    s->waiter = waiter;
}

static void ev_record(void *ctx, void *waiter, core_made *m)
{
    seen *s = ctx;
    s->records++;
    s->made = *m;
    s->waiter = waiter;
}

static void ev_account(void *ctx, void *waiter, core_signed *r)
{
    seen *s = ctx;
    s->accounts++;
    s->sig = *r;
    s->waiter = waiter;
    if (s->norder < 16)
        s->order[s->norder++] = waiter;
}

static int ev_present(void *ctx, const char *account)
{
    return strcasecmp(((seen *)ctx)->away, account) != 0;
}

static void ev_freeing(void *ctx, game *g)
{
    ((seen *)ctx)->freed++;
    if (g->edge == (void *)0x1)
        ((seen *)ctx)->marked++;
    g->edge = NULL;
}

static void sleep_ms(long ms)
{
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

/* Tick the core (and commit) until cond holds or ms pass. */
#define WAIT_UNTIL(C, cond, ms)                                                                  \
    do {                                                                                         \
        for (long t_ = 0; !(cond) && t_ < (ms); t_ += 10) {                                      \
            core_tick(C);                                                                        \
            core_commit(C);                                                                      \
            sleep_ms(10);                                                                        \
        }                                                                                        \
    } while (0)

static core *new_core(const char *db, seen *s, int limit, int idle)
{
    core_config cf = {100, 2, 0, limit, 3, 50, 1, idle, NULL, 0};
    core_events ev = {s, ev_wake, ev_changed, ev_dirty, ev_committed, ev_hint, ev_record,
                      ev_freeing, ev_account, NULL, NULL, ev_present, NULL, NULL, NULL, NULL};
    char err[256];
    core *C = core_new(&cf, &ev, db, err, sizeof err);
    check(C != NULL, "a core over a new database", err);
    return C;
}

/* Hand the open batch to the writer and wait until nothing is pending:
 * 0 when the last batch settled was committed. */
static int commit(core *C)
{
    core_commit(C);
    for (int i = 0; i < 1000 && core_pending(C); i++) {
        sleep_ms(2);
        core_drain(C);
    }
    return core_pending(C) ? -1 : 0;
}

/* A failed commit: 503 for its requests (the edge), nothing on disk, the
 * game read back as it is on disk, and the server goes on. */
static void failures(core *C, seen *s)
{
    const char *pl[2] = {"human", "human"};
    core_made m;
    core_create(C, NULL, "epaminondas", "", pl, 0, &m);
    check(commit(C) == 0, "a game committed", NULL);
    game *g = m.g;
    core_pin(g);
    char err[320], text[TAV_MOVE_TEXT];
    tav_move legal[512];
    tav_session_legal(g->s, TAV_WHITE, legal);
    tav_session_move_str(g->s, legal[0], text, sizeof text);
    check(core_move(C, g, T(m.tokens[0]), text, 0, err, sizeof err) == CORE_OK, "a move", err);
    long batch = core_batch(C);
    int changed = s->changed;
    core_fail_next_commit(C);
    commit(C);
    check(s->failed == batch, "the edge hears that the batch failed", NULL);
    check(tav_session_ply(g->s) == 0 && s->changed > changed,
          "the move is taken back in memory (read back from the store) and viewers told", NULL);
    check(core_move(C, g, T(m.tokens[0]), text, 0, err, sizeof err) == CORE_OK, "the move again",
          err);
    long again = core_batch(C);
    core_commit(C);
    /* While it is being committed and nothing else is open, an answer
     * (e.g. a refusal) waits for that batch, not for one never opened. */
    check(!core_pending(C) || core_batch(C) == again,
          "with no batch open, core_batch names the one being committed", NULL);
    check(commit(C) == 0 && s->committed >= again,
          "the server goes on: the same move again, committed", err);
    /* A game made in a failed batch does not exist. */
    core_made d;
    core_create(C, NULL, "urbino", "", pl, 0, &d);
    char id[STORE_ID_LEN];
    snprintf(id, sizeof id, "%s", d.g->id);
    core_fail_next_commit(C);
    commit(C);
    for (int i = 0; i < 20; i++)
        core_tick(C);
    check(core_get(C, id) == NULL, "a game whose creation failed is not there", NULL);
    core_unpin(g);
    sodium_memzero(m.tokens, sizeof m.tokens);
    sodium_memzero(d.tokens, sizeof d.tokens);
}

static char rematch_of[STORE_ID_LEN], rematch_id[STORE_ID_LEN];

static void moves(core *C, seen *s)
{
    const char *pl[2] = {"human", "human"};
    core_made m;
    peer *p = peer_get(C, "10.0.0.1");
    check(core_create(C, p, "urbino", "", pl, 0, &m) == CORE_CREATED && m.g, "create urbino", m.err);
    check(strlen(m.tokens[0]) == CORE_TOKEN_LEN && strlen(m.tokens[1]) == CORE_TOKEN_LEN,
          "two seat tokens", NULL);
    check(core_pending(C) && commit(C) == 0, "the new game is committed", NULL);
    game *g = m.g;
    core_pin(g);   /* held across ticks, as the edge holds the games it shows */
    check(core_get(C, g->id) == g, "the game is found by its id", NULL);
    char err[320];
    int side = tav_session_to_move(g->s);   /* Urbino: black places the first architect */
    tav_move legal[512];
    int n = tav_session_legal(g->s, side, legal);
    char text[TAV_MOVE_TEXT] = "";
    if (n > 0)
        tav_session_move_str(g->s, legal[0], text, sizeof text);
    check(core_move(C, g, T(m.tokens[1 - side]), text, 0, err, sizeof err) == CORE_CONFLICT,
          "the other seat may not move", err);
    check(core_move(C, g, T("x"), text, 0, err, sizeof err) == CORE_FORBIDDEN,
          "a token of no seat", err);
    check(core_move(C, g, T(m.tokens[side]), text, 3, err, sizeof err) == CORE_CONFLICT,
          "a stale ply", err);
    check(core_move(C, g, T(m.tokens[side]), "zz99", 0, err, sizeof err) == CORE_CONFLICT,
          "an illegal move, with why", err);
    int changed = s->changed, dirty = s->dirty;
    unsigned long stamp = core_stamp(g);
    check(n > 0 && core_move(C, g, T(m.tokens[side]), text, 0, err, sizeof err) == CORE_OK,
          "the first move", err);
    check(s->changed == changed + 1 && s->dirty > dirty && core_stamp(g) != stamp,
          "the edge is told (changed, dirty), the stamp moves", NULL);
    check(commit(C) == 0, "commit", NULL);
    check(core_move(C, g, T(m.tokens[side]), text, 0, err, sizeof err) == CORE_OK &&
              tav_session_ply(g->s) == 1,
          "a retry of the same move at the same ply: OK, played once", err);
    check(core_undo(C, g, T(m.tokens[side]), 1, err, sizeof err) == CORE_CONFLICT,
          "no undo between two people", err);
    job *hj = NULL;
    int other = tav_session_to_move(g->s);
    check(core_hint(C, g, T(m.tokens[other]), NULL, (void *)0x3, &hj, err, sizeof err) ==
              CORE_FORBIDDEN && !core_help_allowed(g),
          "fair play: no hint between two people on separate screens", err);
    core_made lm;
    check(core_create(C, p, "urbino", "", pl, 1, &lm) == CORE_CREATED && lm.g->local &&
              core_help_allowed(lm.g),
          "two people at one screen (local): engine help allowed", lm.err);
    commit(C);
    sodium_memzero(lm.tokens, sizeof lm.tokens);
    core_made rm;
    check(core_rematch(C, g, T(m.tokens[0]), p, &rm) == CORE_CONFLICT,
          "no rematch before the game is over", rm.err);
    check(core_resign(C, g, T(m.tokens[1]), err, sizeof err) == CORE_OK && commit(C) == 0,
          "black resigns", err);
    check(core_resign(C, g, T(m.tokens[0]), err, sizeof err) == CORE_CONFLICT,
          "no resigning a finished game", err);
    check(core_rematch(C, g, T("x"), p, &rm) == CORE_FORBIDDEN, "a rematch needs a seat", rm.err);
    int ch = s->changed;
    check(core_rematch(C, g, T(m.tokens[1]), p, &rm) == CORE_CREATED && rm.g && rm.g != g &&
              strcmp(g->rematch, rm.g->id) == 0 && s->changed > ch && commit(C) == 0,
          "a rematch: a new game, linked from the old one (its viewers told)", rm.err);
    check(rm.g && core_seat(rm.g, m.tokens[1]) == TAV_WHITE &&
              core_seat(rm.g, m.tokens[0]) == TAV_BLACK && !rm.tokens[0][0] && !rm.tokens[1][0],
          "each person's token is their seat in it, colours swapped (no new tokens)", NULL);
    check(rm.g && tav_session_ply(rm.g->s) == 0 &&
              strcmp(tav_session_game(rm.g->s)->name, "urbino") == 0 && !rm.g->local,
          "the same game, from the start", NULL);
    game *first = rm.g;
    check(core_rematch(C, g, T(m.tokens[0]), p, &rm) == CORE_OK && rm.g == first,
          "asked again (by the other side): the same game", rm.err);
    snprintf(rematch_of, sizeof rematch_of, "%s", g->id);
    snprintf(rematch_id, sizeof rematch_id, "%s", first ? first->id : "");
    core_unpin(g);
    sodium_memzero(m.tokens, sizeof m.tokens);
}

static void computer(core *C, seen *s)
{
    const char *pl[2] = {"human", "ai:level=1"};
    core_made m;
    check(core_create(C, NULL, "urbino", "", pl, 0, &m) == CORE_CREATED, "create against ai", m.err);
    commit(C);
    game *g = m.g;
    core_pin(g);
    char err[320];
    /* Black (the computer) places the first architect by itself. */
    WAIT_UNTIL(C, tav_session_to_move(g->s) == TAV_WHITE, 10000);
    check(tav_session_ply(g->s) == 1, "the computer seat acts first by itself", NULL);
    tav_move legal[512];
    int n = tav_session_legal(g->s, TAV_WHITE, legal);
    char text[TAV_MOVE_TEXT] = "";
    if (n > 0)
        tav_session_move_str(g->s, legal[0], text, sizeof text);
    check(core_move(C, g, T(m.tokens[0]), text, 1, err, sizeof err) == CORE_OK, "white moves", err);
    WAIT_UNTIL(C, tav_session_ply(g->s) >= 3 && tav_session_to_move(g->s) == TAV_WHITE, 10000);
    check(tav_session_ply(g->s) >= 3 && tav_session_to_move(g->s) == TAV_WHITE,
          "the computer seat answers", NULL);

    /* Hints: one at a time per game. */
    job *h1 = NULL, *h2 = NULL;
    int hints = s->hints;
    check(core_hint(C, g, T(m.tokens[0]), NULL, (void *)0x1, &h1, err, sizeof err) == CORE_PENDING,
          "a hint is searched", err);
    check(core_hint(C, g, T(m.tokens[0]), NULL, (void *)0x2, &h2, err, sizeof err) == CORE_LIMIT,
          "a second hint for the same game at once is refused", err);
    WAIT_UNTIL(C, s->hints > hints, 10000);
    check(s->hints == hints + 1 && s->hint.status == CORE_OK && s->hint.move[0] &&
              s->waiter == (void *)0x1,
          "the hint answers its waiter", s->hint.err);

    /* Undo against the computer, then never once over. */
    int ply = tav_session_ply(g->s);
    core_status us = core_undo(C, g, T(m.tokens[0]), ply, err, sizeof err);
    check(us == CORE_OK && tav_session_ply(g->s) <= ply - 2 &&
              tav_session_to_move(g->s) == TAV_WHITE,
          "undo takes back white's move and the computer's answer", us == CORE_OK ? "" : err);
    commit(C);
    check(core_resign(C, g, T(m.tokens[0]), err, sizeof err) == CORE_OK, "resign", err);
    commit(C);
    check(core_undo(C, g, T(m.tokens[0]), tav_session_ply(g->s), err, sizeof err) == CORE_CONFLICT,
          "a finished game never reopens", err);
    tav_result r;
    tav_session_result(g->s, &r);
    check(r.over, "still over", NULL);
    core_analyse(C, g);
    WAIT_UNTIL(C, g->an && g->an->done, 20000);
    check(g->an && g->an->done, "the finished game is analysed", NULL);
    core_unpin(g);
    sodium_memzero(m.tokens, sizeof m.tokens);
}

static void toscana(core *C)
{
    const char *pl[2] = {"human", "ai:level=1"};
    core_made m;
    check(core_create(C, NULL, "toscana", "", pl, 0, &m) == CORE_CREATED, "create toscana", m.err);
    commit(C);
    game *g = m.g;
    core_pin(g);
    check(!core_deal_chosen(g->s) && !core_undo_offered(g), "dealt by the server; no undo offered",
          NULL);
    char err[320];
    WAIT_UNTIL(C, tav_session_to_move(g->s) == TAV_WHITE, 5000);
    tav_move legal[4096];
    int n = tav_session_legal(g->s, TAV_WHITE, legal);
    char text[TAV_MOVE_TEXT];
    tav_session_move_str(g->s, legal[0], text, sizeof text);
    check(n > 0 && core_move(C, g, T(m.tokens[0]), text, tav_session_ply(g->s), err, sizeof err) ==
                       CORE_OK,
          "white places", err);
    commit(C);
    check(core_undo(C, g, T(m.tokens[0]), tav_session_ply(g->s), err, sizeof err) == CORE_CONFLICT,
          "no undo in Toscana: a move reveals a hidden tile", err);
    core_made c;
    const char *hh[2] = {"human", "human"};
    check(core_create(C, NULL, "toscana", "seed=5", hh, 0, &c) == CORE_CREATED &&
              core_deal_chosen(c.g->s),
          "a chosen deal is accepted and said", c.err);
    commit(C);
    core_unpin(g);
    sodium_memzero(m.tokens, sizeof m.tokens);
    sodium_memzero(c.tokens, sizeof c.tokens);
}

static void records(core *C, seen *s)
{
    const char *rec = "[Game \"toscana\"]\n\n1. accept\n";
    const char *pl[2] = {"human", "human"};
    core_made m;
    job *j = NULL;
    int before = s->records;
    check(core_record(C, NULL, (void *)0x7, rec, strlen(rec), pl, &j, &m) == CORE_PENDING && j,
          "a record is checked off the loop", m.err);
    WAIT_UNTIL(C, s->records > before, 10000);
    /* (the made game is looked at before any further tick could let it go) */
    check(s->records == before + 1 && s->made.status == CORE_CREATED && s->made.g &&
              s->waiter == (void *)0x7 && tav_session_ply(s->made.g->s) == 1,
          "the record's game is made for its waiter", s->made.err);
    check(s->made.g && !core_deal_chosen(s->made.g->s), "a stackless record is dealt at random",
          NULL);
    commit(C);
    /* A record of too many moves is refused by the parser. */
    size_t cap = 64 + 1001 * 10;
    char *big = malloc(cap);
    size_t k = (size_t)snprintf(big, cap, "[Game \"epaminondas\"]\n[Options \"maxplies=100000\"]\n\n");
    static const char *cycle[4] = {"a2-a3", "a11-a10", "a3-a2", "a10-a11"};
    for (int i = 0; i < 1001; i++)
        k += (size_t)snprintf(big + k, cap - k, "%s ", cycle[i % 4]);
    before = s->records;
    check(core_record(C, NULL, (void *)0x8, big, k, pl, &j, &m) == CORE_PENDING,
          "a 1,001-move record is queued", m.err);
    WAIT_UNTIL(C, s->records > before, 10000);
    check(s->made.status == CORE_BAD && strstr(s->made.err, "too many moves"),
          "... and refused: too many moves", s->made.err);
    free(big);
    core_made x;
    check(core_create(C, NULL, "epaminondas", "maxplies=100000", pl, 0, &x) == CORE_BAD,
          "maxplies past 1000 is refused", x.err);
}

static void limits(core *C)
{
    const char *pl[2] = {"human", "human"};
    const char *cc[2] = {"ai:level=10", "ai:level=10"};
    peer *p = peer_get(C, "10.0.0.9");
    peer *q = peer_get(C, "2001:db8:1:2::7");
    peer *q2 = peer_get(C, "2001:db8:1:2::99");
    check(q && q == q2, "an IPv6 address counts by its /64", NULL);
    core_made m;
    core_status a = core_create(C, p, "urbino", "", cc, 0, &m);
    core_status b = core_create(C, p, "urbino", "", cc, 0, &m);
    core_status c = core_create(C, p, "urbino", "", cc, 0, &m);
    check(a == CORE_CREATED && b == CORE_CREATED && c == CORE_LIMIT,
          "two unfinished computer-only games per address", m.err);
    check(core_create(C, p, "urbino", "", pl, 0, &m) == CORE_CREATED &&
              core_create(C, p, "urbino", "", pl, 0, &m) == CORE_LIMIT,
          "games an hour per address (3 in this test)", m.err);
    check(core_create(C, q, "urbino", "", pl, 0, &m) == CORE_CREATED, "another address may", m.err);
    commit(C);
    sodium_memzero(m.tokens, sizeof m.tokens);
}

/* A game nobody uses leaves memory and comes back with its moves. */
static void idle(core *C, seen *s)
{
    const char *pl[2] = {"human", "human"};
    core_made m;
    core_create(C, NULL, "cathedral", "", pl, 0, &m);
    commit(C);
    game *g = m.g;
    char id[STORE_ID_LEN], err[320], text[TAV_MOVE_TEXT];
    snprintf(id, sizeof id, "%s", g->id);
    tav_move legal[4096];
    tav_session_legal(g->s, TAV_WHITE, legal);
    tav_session_move_str(g->s, legal[3], text, sizeof text);
    core_move(C, g, T(m.tokens[0]), text, 0, err, sizeof err);
    commit(C);
    core_pin(g);
    g->edge = (void *)0x1;   /* the edge's data: freed through the event */
    for (int i = 0; i < 25; i++) {
        core_tick(C);
        sleep_ms(100);
    }
    check(s->marked == 0, "a pinned game stays in memory", NULL);
    core_unpin(g);
    WAIT_UNTIL(C, s->marked > 0, 5000);
    check(s->marked == 1, "an idle game leaves memory (its edge data freed through the event)",
          NULL);
    game *back = core_get(C, id);
    check(back && tav_session_ply(back->s) == 1 &&
              strcmp(tav_session_move_text(back->s, 0), text) == 0,
          "and comes back from the store with its moves", NULL);
    check(back && core_seat(back, m.tokens[1]) == TAV_BLACK, "with its seats", NULL);
    sodium_memzero(m.tokens, sizeof m.tokens);
}

/* Glicko-2: the worked example of Glickman's paper (a 1500 player, RD 200,
 * volatility 0.06, beats a 1400/30 and loses to 1550/100 and 1700/300:
 * 1464.06, 151.52, 0.05999), and one game between new players. */
static void glicko2(void)
{
    glicko p = {1500, 200, 0.06};
    glicko opp[3] = {{1400, 30, 0.06}, {1550, 100, 0.06}, {1700, 300, 0.06}};
    double sc[3] = {1, 0, 0};
    glicko_update(&p, opp, sc, 3);
    char d[128];
    snprintf(d, sizeof d, "%.4f %.4f %.6f", p.rating, p.rd, p.vol);
    check(fabs(p.rating - 1464.06) < 0.01 && fabs(p.rd - 151.52) < 0.01 &&
              fabs(p.vol - 0.05999) < 0.00001,
          "Glicko-2: the paper's example (1464.06, 151.52, 0.05999)", d);
    glicko w, b;
    glicko_new(&w);
    glicko_new(&b);
    glicko_game(&w, &b, 1.0);
    snprintf(d, sizeof d, "%.2f/%.2f %.2f/%.2f", w.rating, w.rd, b.rating, b.rd);
    check(fabs(w.rating - 1662.31) < 0.01 && fabs(b.rating - 1337.69) < 0.01 &&
              fabs(w.rd - 290.32) < 0.01 && fabs(b.rd - 290.32) < 0.01,
          "Glicko-2: two new players, white wins: 1662.31 and 1337.69, deviation 290.32", d);
    glicko x = {1500, 50, 0.06};
    glicko_update(&x, NULL, NULL, 0);
    snprintf(d, sizeof d, "%.4f", x.rd);
    check(x.rating == 1500 && fabs(x.rd - sqrt(50.0 * 50.0 + pow(0.06 * 173.7178, 2))) < 1e-9,
          "Glicko-2: a period without games only widens the deviation", d);
}

static int count_sessions(void *ctx, const unsigned char *hash, int64_t created, int64_t expires,
                          const char *ua, int64_t last_used)
{
    (void)hash, (void)created, (void)expires, (void)ua, (void)last_used;
    ++*(int *)ctx;
    return 0;
}

/* One account call through the slow thread: its result. */
static core_signed account_call(core *C, seen *s, core_status st, const char *err)
{
    core_signed r;
    memset(&r, 0, sizeof r);
    if (st != CORE_PENDING) {
        r.status = st;
        snprintf(r.err, sizeof r.err, "%s", err);
        return r;
    }
    int before = s->accounts;
    WAIT_UNTIL(C, s->accounts > before, 20000);
    commit(C);
    return s->sig;
}

/* Accounts: sign up, the session it makes, sign in with a wrong and the
 * right password, the limit on failures, sign out, names taken and invalid. */
static void accounts(core *C, seen *s)
{
    char err[256] = "";
    job *j;
    peer *p = peer_get(C, "10.0.0.9");
    core_signed r = account_call(C, s, core_signup(C, p, (void *)0x5, "Ann-1", "correct horse", NULL, &j,
                                                   err, sizeof err), err);
    check(r.status == CORE_CREATED && strcmp(r.name, "Ann-1") == 0 && strlen(r.token) == 43 &&
              s->waiter == (void *)0x5,
          "sign up: an account and a session token", r.err);
    char name[STORE_NAME_LEN] = "";
    check(core_signin_who(C, r.token, name) == 1 && strcmp(name, "Ann-1") == 0,
          "the session stands for the account", name);
    check(core_signin_who(C, "nonsense", name) == 0, "a made-up token stands for nobody", NULL);
    store_account a;
    check(C->st->ops->get_account(C->st, "ann-1", &a, err, sizeof err) == 1 &&
              strncmp(a.pwhash, "$argon2id$", 10) == 0,
          "the password is stored as an Argon2id hash", a.pwhash);
    r = account_call(C, s, core_signup(C, p, (void *)0x7, "ANN-1", "another one", NULL, &j, err, sizeof err),
                     err);
    check(r.status == CORE_CONFLICT, "a name taken ignoring case: refused", r.err);
    r = account_call(C, s, core_signup(C, p, (void *)0x7, "a b", "long enough", NULL, &j, err, sizeof err), err);
    check(r.status == CORE_BAD, "a name with a space: refused", r.err);
    r = account_call(C, s, core_signup(C, p, (void *)0x7, "Bo", "long enough", NULL, &j, err, sizeof err), err);
    check(r.status == CORE_BAD, "a name of 2 characters: refused", r.err);
    r = account_call(C, s, core_signup(C, p, (void *)0x7, "Bob", "short", NULL, &j, err, sizeof err), err);
    check(r.status == CORE_BAD, "a password of 5 bytes: refused", r.err);
    r = account_call(C, s, core_login(C, p, (void *)0x7, "ann-1", "wrong password", NULL, &j, err, sizeof err),
                     err);
    check(r.status == CORE_FORBIDDEN, "a wrong password: refused", r.err);
    core_signed unknown = account_call(
        C, s, core_login(C, p, (void *)0x7, "nobody", "wrong password", NULL, &j, err, sizeof err), err);
    check(unknown.status == CORE_FORBIDDEN && strcmp(unknown.err, r.err) == 0,
          "an unknown name: the same answer", unknown.err);
    r = account_call(C, s, core_login(C, p, (void *)0x6, "ANN-1", "correct horse", NULL, &j, err,
                                      sizeof err),
                     err);
    char tok2[48];
    snprintf(tok2, sizeof tok2, "%s", r.token);
    check(r.status == CORE_OK && strcmp(r.name, "Ann-1") == 0 && core_signin_who(C, tok2, name) == 1,
          "sign in (any letter case): a second session", r.err);
    check(core_logout(C, tok2) == CORE_OK && commit(C) == 0 && core_signin_who(C, tok2, name) == 0,
          "sign out: that session no longer works", NULL);
    peer *q = peer_get(C, "10.0.0.10");
    for (int i = 0; i < 9; i++)
        account_call(C, s, core_login(C, i % 2 ? p : q, (void *)0x7, "Ann-1", "guess", NULL, &j, err, sizeof err),
                     err);
    r = account_call(C, s, core_login(C, q, (void *)0x7, "Ann-1", "correct horse", NULL, &j, err, sizeof err),
                     err);
    check(r.status == CORE_LIMIT, "after 10 failures in 10 minutes: 429, even with the password",
          r.err);
    sodium_memzero(&r, sizeof r);
}


/* Sign-in limits (issue 42): the failure table keyed so that chosen names
 * cannot push a name's record out; guesses counted when accepted; each
 * address's share of the hashing queue; sessions per account; a password
 * change ending every session; common passwords; devices. */
static void signin_limits(core *C, seen *s)
{
    char err[256] = "";
    job *j;
    /* Common passwords. */
    check(core_password_common("password") && core_password_common("PassWord1") &&
              core_password_common("12345678") && core_password_common("qwertyui") &&
              core_password_common("        ") && core_password_common("zzzzzzzzzz") &&
              !core_password_common("correct horse") && !core_password_common("aaaaaaab"),
          "common passwords and one character repeated are known; others are not", NULL);
    peer *p = peer_get(C, "10.2.0.1");
    core_signed r = account_call(C, s, core_signup(C, p, (void *)0x7, "Common-1", "Password123",
                                                   NULL, &j, err, sizeof err), err);
    check(r.status == CORE_BAD && strstr(r.err, "common") != NULL,
          "sign-up with a common password: refused (400) with a message", r.err);
    /* Devices. */
    char d[64];
    core_device("Mozilla/5.0 (X11; Linux x86_64; rv:121.0) Gecko/20100101 Firefox/121.0", d, sizeof d);
    int ok = strcmp(d, "Firefox on Linux") == 0;
    core_device("Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) "
                "Chrome/120.0.0.0 Mobile Safari/537.36", d, sizeof d);
    ok = ok && strcmp(d, "Chrome on Android") == 0;
    core_device("Mozilla/5.0 (iPhone; CPU iPhone OS 17_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, "
                "like Gecko) Version/17.1 Mobile/15E148 Safari/604.1", d, sizeof d);
    ok = ok && strcmp(d, "Safari on iOS") == 0;
    core_device("Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) "
                "Chrome/120.0.0.0 Safari/537.36 Edg/120.0.0.0", d, sizeof d);
    ok = ok && strcmp(d, "Edge on Windows") == 0;
    core_device("Mozilla/5.0 (Macintosh; Intel Mac OS X 14_1) AppleWebKit/605.1.15 (KHTML, like "
                "Gecko) Version/17.1 Safari/605.1.15", d, sizeof d);
    ok = ok && strcmp(d, "Safari on macOS") == 0;
    core_device("", d, sizeof d);
    ok = ok && strcmp(d, "an unknown device") == 0;
    check(ok, "user agents read as Firefox on Linux, Chrome on Android, Safari on iOS, ...", d);

    /* A victim at its limit; then names that land on its slots (found with
     * the table's key, which an attacker does not have) fail many times. */
    for (int i = 0; i < CORE_LOGIN_FAILS; i++)
        core_account_note(C, "fail Victim-1 -");
    peer *vp = peer_get(C, "10.2.0.2");
    r = account_call(C, s, core_login(C, vp, (void *)0x7, "Victim-1", "anything at all", NULL, &j,
                                      err, sizeof err), err);
    check(r.status == CORE_LIMIT, "a name at its limit: 429", r.err);
    unsigned char hv[crypto_shorthash_BYTES];
    crypto_shorthash(hv, (const unsigned char *)"victim-1", 8, C->fail_key);
    uint64_t v = 0;
    for (int i = 0; i < 8; i++)
        v = v << 8 | hv[i];
    unsigned home = (unsigned)(v % CORE_FAIL_SLOTS);
    int colliding = 0;
    for (long n = 0; n < 2000000 && colliding < 40; n++) {
        char nm[24], key[24];
        snprintf(nm, sizeof nm, "Col%ld", n);
        snprintf(key, sizeof key, "col%ld", n);
        unsigned char hh[crypto_shorthash_BYTES];
        crypto_shorthash(hh, (const unsigned char *)key, strlen(key), C->fail_key);
        uint64_t u = 0;
        for (int i = 0; i < 8; i++)
            u = u << 8 | hh[i];
        unsigned slot = (unsigned)(u % CORE_FAIL_SLOTS);
        if ((slot + CORE_FAIL_SLOTS - home) % CORE_FAIL_SLOTS < CORE_FAIL_PROBES ||
            (home + CORE_FAIL_SLOTS - slot) % CORE_FAIL_SLOTS < CORE_FAIL_PROBES) {
            char told[64];
            snprintf(told, sizeof told, "fail %s -", nm);
            for (int k = 0; k < 3; k++)
                core_account_note(C, told);
            colliding++;
        }
    }
    r = account_call(C, s, core_login(C, vp, (void *)0x7, "Victim-1", "anything at all", NULL, &j,
                                      err, sizeof err), err);
    char what[160];
    snprintf(what, sizeof what, "%d colliding names failing 3 times each: the victim's record stays (429)",
             colliding);
    check(colliding == 40 && r.status == CORE_LIMIT, what, r.err);

    /* 16 guesses of one name at once from 16 addresses: counted when
     * accepted, so 10 are hashed and 6 refused at once. */
    int pending = 0, limited = 0;
    int before = s->accounts;
    for (int i = 0; i < 16; i++) {
        char a[32];
        snprintf(a, sizeof a, "10.3.0.%d", i + 1);
        core_status st = core_login(C, peer_get(C, a), (void *)0x9, "Racer-1", "wrong guess!", NULL,
                                    &j, err, sizeof err);
        pending += st == CORE_PENDING;
        limited += st == CORE_LIMIT;
    }
    snprintf(what, sizeof what, "16 guesses of one name at once: %d hashed, %d refused (10 + 6)",
             pending, limited);
    check(pending == CORE_LOGIN_FAILS && limited == 16 - CORE_LOGIN_FAILS, what, NULL);
    WAIT_UNTIL(C, s->accounts >= before + pending, 60000);
    commit(C);
    /* One address: at most CORE_PW_PER_ADDR hashes under way. */
    peer *one = peer_get(C, "10.4.0.1");
    pending = limited = 0;
    before = s->accounts;
    for (int i = 0; i < 3; i++) {
        char nm[16];
        snprintf(nm, sizeof nm, "Queue-%d", i % 10);
        core_status st = core_login(C, one, (void *)0x9, nm, "wrong guess!", NULL, &j, err, sizeof err);
        pending += st == CORE_PENDING;
        limited += st == CORE_LIMIT;
    }
    check(pending == CORE_PW_PER_ADDR && limited == 3 - CORE_PW_PER_ADDR,
          "3 sign-ins at once from one address: 2 hashed, the 3rd 429", err);
    WAIT_UNTIL(C, s->accounts >= before + pending, 60000);
    commit(C);

    /* Round robin: one address's two jobs, then another's: the other's goes
     * before the first address's second. */
    peer *hog = peer_get(C, "10.4.1.1"), *person = peer_get(C, "10.4.1.2");
    before = s->accounts;
    s->norder = 0;
    core_status q1 = core_login(C, hog, (void *)0x11, "Rr-1", "wrong guess!", NULL, &j, err, sizeof err);
    core_status q2 = core_login(C, hog, (void *)0x12, "Rr-2", "wrong guess!", NULL, &j, err, sizeof err);
    core_status q3 = core_login(C, person, (void *)0x21, "Rr-3", "wrong guess!", NULL, &j, err, sizeof err);
    WAIT_UNTIL(C, s->accounts >= before + 3, 60000);
    commit(C);
    check(q1 == CORE_PENDING && q2 == CORE_PENDING && q3 == CORE_PENDING && s->norder == 3 &&
              s->order[0] == (void *)0x11 && s->order[1] == (void *)0x21 && s->order[2] == (void *)0x12,
          "the hashing queue is round robin: another address's job before one address's second", NULL);

    /* Sessions per account: a sign-up and 20 sign-ins make 21; the oldest ends. */
    r = account_call(C, s, core_signup(C, peer_get(C, "10.5.0.1"), (void *)0x7, "Many-1",
                                       "a long password", "curl/8.0", &j, err, sizeof err), err);
    char first[48], last[48] = "", name[STORE_NAME_LEN];
    snprintf(first, sizeof first, "%s", r.token);
    int signed_in = 0;
    for (int i = 0; i < CORE_LOGINS_PER_ACCOUNT; i++) {
        char a[32];
        snprintf(a, sizeof a, "10.5.1.%d", i + 1);
        r = account_call(C, s, core_login(C, peer_get(C, a), (void *)0x7, "Many-1", "a long password",
                                          NULL, &j, err, sizeof err), err);
        signed_in += r.status == CORE_OK;
        if (r.status == CORE_OK)
            snprintf(last, sizeof last, "%s", r.token);
    }
    int nsess = 0;
    C->st->ops->each_session(C->st, "Many-1", core_unix_ms() / 1000, count_sessions, &nsess, err,
                             sizeof err);
    snprintf(what, sizeof what, "%d sign-ins after the sign-up: %d sessions kept (at most %d), the "
             "oldest ended", signed_in, nsess, CORE_SESSIONS_PER_ACCOUNT);
    check(signed_in == CORE_LOGINS_PER_ACCOUNT && nsess == CORE_SESSIONS_PER_ACCOUNT &&
              core_signin_who(C, first, name) == 0 && core_signin_who(C, last, name) == 1,
          what, err);
    r = account_call(C, s, core_login(C, peer_get(C, "10.5.2.1"), (void *)0x7, "Many-1",
                                      "a long password", NULL, &j, err, sizeof err), err);
    check(r.status == CORE_LIMIT, "the 21st successful sign-in of one account in 10 minutes: 429",
          r.err);

    /* A password change ends every session and makes a new one. */
    r = account_call(C, s, core_signup(C, peer_get(C, "10.6.0.1"), (void *)0x7, "Change-1",
                                       "a long password", NULL, &j, err, sizeof err), err);
    char t1[48], t2[48];
    snprintf(t1, sizeof t1, "%s", r.token);
    r = account_call(C, s, core_login(C, peer_get(C, "10.6.0.2"), (void *)0x7, "Change-1",
                                      "a long password", NULL, &j, err, sizeof err), err);
    snprintf(t2, sizeof t2, "%s", r.token);
    r = account_call(C, s, core_password(C, "Change-1", peer_get(C, "10.6.0.1"), (void *)0x7,
                                         "a long password", "qwertyuiop", NULL, &j, err, sizeof err),
                     err);
    check(r.status == CORE_BAD && strstr(r.err, "common") != NULL,
          "a password change to a common password: refused", r.err);
    r = account_call(C, s, core_password(C, "Change-1", peer_get(C, "10.6.0.1"), (void *)0x7,
                                         "a long password", "an even longer one", NULL, &j, err,
                                         sizeof err),
                     err);
    check(r.status == CORE_OK && r.token[0] && strcmp(r.token, t1) != 0 &&
              core_signin_who(C, t1, name) == 0 && core_signin_who(C, t2, name) == 0 &&
              core_signin_who(C, r.token, name) == 1,
          "a password change: both old sessions end, the new token works", r.err);
    sodium_memzero(&r, sizeof r);
}


/* ---- consent and fair endings (SPEC) ---- */

#define A(name) (&(core_cred){NULL, (name)})

static void sign_up(core *C, seen *s, const char *name, const char *addr)
{
    char err[256] = "";
    job *j;
    core_signed r = account_call(C, s, core_signup(C, peer_get(C, addr), (void *)0x9, name,
                                                   "correct horse", NULL, &j, err, sizeof err),
                                 err);
    check(r.status == CORE_CREATED, "an account for the consent tests", r.err);
}

/* A game between two accounts with a clock (initial, increment) or days. */
static game *duel(core *C, const char *white, const char *black, int rated, int64_t initial,
                  int64_t days)
{
    char err[256];
    tav_session *ses = core_new_session("epaminondas", "", err, sizeof err);
    store_seek clock;
    memset(&clock, 0, sizeof clock);
    clock.initial = initial;
    clock.days = days;
    const char *acc[2] = {white, black};
    core_made m;
    core_status st = core_create_accounts(C, ses, acc, rated, &clock, &m);
    check(st == CORE_CREATED && m.g, "a game between two accounts", m.err);
    commit(C);
    return m.g;
}

/* The first legal move of g's side to move, played by `who`. */
static core_status move_first(core *C, game *g, const char *who)
{
    tav_move *mv = malloc(sizeof *mv * (size_t)tav_session_game(g->s)->max_moves);
    int n = mv ? tav_session_legal(g->s, tav_session_to_move(g->s), mv) : 0;
    char text[TAV_MOVE_TEXT] = "", err[256];
    if (n > 0)
        tav_session_move_str(g->s, mv[0], text, sizeof text);
    free(mv);
    if (!text[0])
        return CORE_BAD;
    core_status st = core_move(C, g, A(who), text, tav_session_ply(g->s), err, sizeof err);
    commit(C);
    return st;
}

static int rating_games(void *ctx, const char *gname, const store_rating *r)
{
    if (strcmp(gname, "epaminondas") == 0)
        *(int *)ctx = r->games;
    return 0;
}

static void consent(core *C, seen *s)
{
    sign_up(C, s, "Cora", "10.0.2.1");
    sign_up(C, s, "Dino", "10.0.2.2");
    sign_up(C, s, "Elsa", "10.0.2.3");
    sign_up(C, s, "Fede", "10.0.2.4");
    char err[256];
    core_made m;

    /* A rematch between two accounts is an offer: nothing is made until
     * the other accepts. */
    game *g = duel(C, "Cora", "Dino", 1, 60, 0);
    check(core_resign(C, g, A("Cora"), err, sizeof err) == CORE_OK, "Cora resigns", err);
    commit(C);
    long batches = s->committed;
    check(core_rematch(C, g, A("Cora"), NULL, &m) == CORE_OFFERED && !g->rematch[0] &&
              g->rematch_offer == TAV_WHITE,
          "a rematch asked by one player: offered, nothing made", m.err);
    commit(C);
    check(s->committed > batches, "... the offer is stored", NULL);
    long ngames = C->ngames;
    check(core_rematch(C, g, A("Cora"), NULL, &m) == CORE_OFFERED && C->ngames == ngames,
          "asked again by the same player: still an offer", m.err);
    check(core_offer(C, g, A("Dino"), "rematch", "decline", err, sizeof err) == CORE_OK &&
              g->rematch_offer == -1,
          "the other declines it", err);
    commit(C);
    check(core_rematch(C, g, A("Cora"), NULL, &m) == CORE_CONFLICT,
          "a declined rematch is not offered again by its maker", m.err);
    check(core_offer(C, g, A("Cora"), "rematch", "decline", err, sizeof err) == CORE_CONFLICT,
          "nothing to decline", err);
    check(core_rematch(C, g, A("Dino"), NULL, &m) == CORE_OFFERED && g->rematch_offer == TAV_BLACK,
          "the other may offer one", m.err);
    commit(C);
    core_status st = core_rematch(C, g, A("Cora"), NULL, &m);
    check(st == CORE_CREATED && m.g && strcmp(g->rematch, m.g->id) == 0 && g->rematch_offer == -1,
          "accepted by the other: the rematch is made", m.err);
    if (st == CORE_CREATED && m.g)
        check(strcmp(m.g->account[0], "Dino") == 0 && strcmp(m.g->account[1], "Cora") == 0 &&
                  m.g->rated && m.g->clk_initial_ms == 60000,
              "... colours swapped, rated and clock as before", NULL);
    commit(C);
    game *re = m.g;
    check(core_rematch(C, g, A("Dino"), NULL, &m) == CORE_OK && m.g == re,
          "asked again once made: the same game", m.err);

    /* No first move, no game. */
    game *a = duel(C, "Elsa", "Fede", 1, 60, 0);
    C->time_offset_ms += 29000;
    core_tick(C);
    check(!core_over(a), "29 s without a first move: the game goes on", NULL);
    C->time_offset_ms += 2000;
    WAIT_UNTIL(C, core_over(a), 2000);
    check(core_over(a) && strcmp(a->end, "abort") == 0 && a->absent == TAV_WHITE,
          "31 s without White's first move: aborted, White did not move", a->end);
    commit(C);
    game *b = duel(C, "Elsa", "Fede", 1, 60, 0);
    check(move_first(C, b, "Elsa") == CORE_OK, "White moves at once", NULL);
    C->time_offset_ms += 31000;
    WAIT_UNTIL(C, core_over(b), 2000);
    check(core_over(b) && strcmp(b->end, "abort") == 0 && b->absent == TAV_BLACK,
          "... Black's first move never comes: aborted", b->end);
    game *c = duel(C, "Elsa", "Fede", 1, 60, 0);
    move_first(C, c, "Elsa");
    move_first(C, c, "Fede");
    C->time_offset_ms += 31000;
    core_tick(C);
    check(!core_over(c), "both moved: 31 s is only time off the clock", NULL);
    game *d = duel(C, "Elsa", "Fede", 0, 0, 1);
    move_first(C, d, "Elsa");
    C->time_offset_ms += 86400000 + 1000;
    WAIT_UNTIL(C, core_over(d), 2000);
    check(core_over(d) && strcmp(d->end, "abort") == 0 && d->absent == TAV_BLACK,
          "correspondence: the first deadline passed: aborted", d->end);
    commit(C);

    /* An opponent who left: the claim. */
    game *e = duel(C, "Cora", "Dino", 1, 600, 0);
    move_first(C, e, "Cora");
    move_first(C, e, "Dino");
    move_first(C, e, "Cora");
    int before = 0, after = 0;
    core_ratings(C, "Cora", rating_games, &before);
    check(core_claim(C, e, A("Cora"), "win", err, sizeof err) == CORE_CONFLICT,
          "a claim while the other is here: 409", err);
    snprintf(s->away, sizeof s->away, "Dino");
    core_account_presence(C, "dino", 0);
    check(core_claim_in(e, TAV_WHITE, core_game_ms(C)) > 59000, "Dino gone: the wait begins",
          NULL);
    check(core_claim(C, e, A("Cora"), "win", err, sizeof err) == CORE_CONFLICT,
          "a claim before 60 s: 409", err);
    C->time_offset_ms += 30000;
    core_account_presence(C, "Dino", 1);
    check(core_claim_in(e, TAV_WHITE, core_game_ms(C)) == -1, "Dino back: no claim", NULL);
    core_account_presence(C, "Dino", 0);
    C->time_offset_ms += 59000;
    check(core_claim(C, e, A("Cora"), "win", err, sizeof err) == CORE_CONFLICT,
          "gone again: the wait starts again", err);
    C->time_offset_ms += 2000;
    int told = s->changed;
    core_tick(C);
    check(e->claim_told && s->changed > told, "claimable: the viewers are told", NULL);
    check(core_claim_in(e, TAV_BLACK, core_game_ms(C)) == -1, "the absent side has no claim",
          NULL);
    check(core_claim(C, e, A("Dino"), "win", err, sizeof err) == CORE_CONFLICT,
          "... its claim: 409", err);
    check(core_claim(C, e, A("Cora"), "lose", err, sizeof err) == CORE_BAD, "a bad result: 400",
          err);
    check(core_claim(C, e, A("Cora"), "win", err, sizeof err) == CORE_OK && core_over(e) &&
              strcmp(e->end, "abandon") == 0 && e->end_winner == TAV_WHITE &&
              e->absent == TAV_BLACK,
          "after 60 s: the claim ends the game, abandon, Cora wins", err);
    commit(C);
    core_ratings(C, "Cora", rating_games, &after);
    check(after == before + 1, "... rated like any ending", NULL);
    s->away[0] = 0;

    /* One offer per side per move, and the rate limit. */
    game *f = duel(C, "Elsa", "Fede", 0, 600, 0);
    move_first(C, f, "Elsa");
    move_first(C, f, "Fede");
    check(core_offer(C, f, A("Elsa"), "draw", "offer", err, sizeof err) == CORE_OK,
          "a draw offered", err);
    check(core_offer(C, f, A("Elsa"), "draw", "decline", err, sizeof err) == CORE_OK,
          "... withdrawn", err);
    commit(C);
    int ch = s->changed, dirty = s->dirty;
    for (int i = 0; i < 20; i++)
        check(core_offer(C, f, A("Elsa"), "draw", "offer", err, sizeof err) == CORE_CONFLICT,
              "offered again before a move: 409", err);
    check(s->changed == ch && s->dirty == dirty && !core_pending(C),
          "... nothing stored, nobody told", NULL);
    check(core_offer(C, f, A("Fede"), "draw", "offer", err, sizeof err) == CORE_OK &&
              core_offer(C, f, A("Elsa"), "draw", "decline", err, sizeof err) == CORE_OK,
          "the other side's offer, declined", err);
    check(core_offer(C, f, A("Fede"), "draw", "offer", err, sizeof err) == CORE_CONFLICT,
          "... not offered again before a move", err);
    move_first(C, f, "Elsa");
    check(core_offer(C, f, A("Elsa"), "draw", "offer", err, sizeof err) == CORE_OK &&
              f->spent[0] == 0,
          "after a move: offered again", err);
    commit(C);
    /* The rate limit: offers by Fede until the window's count is spent. */
    int limited = 0;
    for (int i = 0; i < 2 * CORE_OFFERS_PER_WINDOW && !limited; i++) {
        game *h = duel(C, "Fede", "Cora", 0, 600, 0);
        move_first(C, h, "Fede");
        move_first(C, h, "Cora");
        st = core_offer(C, h, A("Fede"), "draw", "offer", err, sizeof err);
        limited = st == CORE_LIMIT;
        core_resign(C, h, A("Fede"), err, sizeof err);
        commit(C);
    }
    check(limited, "past the offers an account may make in a minute: 429", NULL);
}

/* The lobby's seeks with their owners' ratings (core_seeks_each) come from
 * memory: one store read per seek, and again only after a rated game's end
 * (issue 44: no database read per seek at every look at the lobby). */
static int rating_reads;
static int (*real_get_rating)(store *st, const char *name, const char *game, store_rating *out,
                              char *err, size_t errlen);
static int counted_get_rating(store *st, const char *name, const char *gname, store_rating *out,
                              char *err, size_t errlen)
{
    rating_reads++;
    return real_get_rating(st, name, gname, out, err, errlen);
}

static void count_seek(void *ctx, const store_seek *s, double rating, int provisional)
{
    (void)s;
    (void)provisional;
    int *n = ctx;
    n[0]++;
    if (rating >= 1400 && rating <= 1600)
        n[1]++;
}

static void seek_ratings(core *C)
{
    store_ops counting = *C->st->ops;
    const store_ops *was = C->st->ops;
    real_get_rating = was->get_rating;
    counting.get_rating = counted_get_rating;
    C->st->ops = &counting;
    char err[256], id[3][STORE_ID_LEN];
    const char *games[3] = {"urbino", "epaminondas", "cathedral"};
    int made = 0;
    for (int i = 0; i < 3; i++) {
        store_seek w;
        memset(&w, 0, sizeof w);
        snprintf(w.game, sizeof w.game, "%s", games[i]);
        w.colour = 2;
        w.initial = 300;
        made += core_seek(C, "Ann-1", &w, id[i], err, sizeof err) == CORE_CREATED;
    }
    commit(C);
    check(made == 3, "three seeks made for the ratings' test", err);
    int n[2] = {0, 0};
    rating_reads = 0;
    core_seeks_each(C, NULL, count_seek, n);
    int first = rating_reads;
    check(n[0] >= 3 && n[1] >= 3, "the seeks are listed with a rating", NULL);
    check(first <= n[0], "at most one rating read per seek at the first look", NULL);
    for (int k = 0; k < 5; k++)
        core_seeks_each(C, "Ann-1", count_seek, n);
    check(rating_reads == first, "no rating read at the next five looks (kept with the seek)", NULL);
    C->ratings_epoch++;   /* as results.c does once a rated game's end is committed */
    core_seeks_each(C, NULL, count_seek, n);
    check(rating_reads == 2 * first && first > 0, "read again once after a rated game ended", NULL);
    for (int i = 0; i < 3; i++)
        core_unseek(C, "Ann-1", id[i], err, sizeof err);
    commit(C);
    C->st->ops = was;
}

int main(void)
{
    if (sodium_init() < 0) {
        printf("0 passed, 1 failed\n");
        return 1;
    }
    char dir[] = "/tmp/tav-core-XXXXXX";
    if (!mkdtemp(dir)) {
        printf("0 passed, 1 failed\n");
        return 1;
    }
    glicko2();
    char db[256];
    snprintf(db, sizeof db, "%s/core.db", dir);
    seen s;
    memset(&s, 0, sizeof s);
    core *C = new_core(db, &s, 1, 1);
    if (C) {
        moves(C, &s);
        accounts(C, &s);
        seek_ratings(C);
        signin_limits(C, &s);
        computer(C, &s);
        toscana(C);
        records(C, &s);
        limits(C);
        idle(C, &s);
        failures(C, &s);
        consent(C, &s);
        /* A computer seat to act when the core stops resumes at the restart. */
        const char *pl[2] = {"ai:level=1", "human"};
        core_made m;
        core_create(C, NULL, "epaminondas", "", pl, 0, &m);
        char id[STORE_ID_LEN];
        snprintf(id, sizeof id, "%s", m.g->id);
        commit(C);
        core_stop(C);
        core_free(C);
        seen s2;
        memset(&s2, 0, sizeof s2);
        C = new_core(db, &s2, 1, 1);
        if (C) {
            check(C->ngames >= 1, "the restart loads the games whose computer seat is to act",
                  NULL);
            game *g = core_get(C, id);
            WAIT_UNTIL(C, g && tav_session_ply(g->s) >= 1, 10000);
            check(g && tav_session_ply(g->s) >= 1, "... and that seat plays", NULL);
            game *old = core_get(C, rematch_of);
            check(old && rematch_id[0] && strcmp(old->rematch, rematch_id) == 0,
                  "a rematch link is kept across the restart", NULL);
            core_stop(C);
            core_free(C);
        }
    }
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    if (system(cmd) != 0)
        printf("could not remove %s\n", dir);
    printf("%d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}
