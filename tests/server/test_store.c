/*
 * test_store.c — the storage conformance suite: every backend of
 * src/server/core/store.h must pass it (SQLite; PostgreSQL too when
 * TAV_TEST_PG names a server: postgresql://user@host:port/db, on which it
 * makes fresh databases, plus PostgreSQL's own checks: notifications
 * delivered on commit only, claims, a restart of the database when
 * TAV_TEST_PG_DIR names a scripts/pg-throwaway.sh folder).  Create, load, append
 * moves, a racing duplicate ply, resign, undo (truncate), the list of games
 * whose computer seat is to act, migrations from an old schema, the file's
 * mode, and a reopen after a crash (a child process killed with SIGKILL in
 * the middle of a batch: what was committed is there, the rest is not).
 * No network, no libwebsockets, no JSON.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <libpq-fe.h>
#include <sqlite3.h>

#include "server/core/store.h"

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

typedef struct loaded {
    int rows;
    int n;
    char moves[64][32];
    int64_t ms[64];
} loaded;

static int on_row(void *ctx, const store_game *g)
{
    (void)g;
    ((loaded *)ctx)->rows++;
    return 0;
}

static int on_move(void *ctx, int ply, const store_move *m)
{
    loaded *l = ctx;
    if (ply != l->n || l->n >= 64)
        return -1;
    snprintf(l->moves[l->n], sizeof l->moves[0], "%s", m->text);
    l->ms[l->n] = m->ms;
    l->n++;
    return 0;
}

static void fill_game(store_game *g, const char *id, const char *white, const char *black,
                      int status)
{
    memset(g, 0, sizeof *g);
    snprintf(g->id, sizeof g->id, "%s", id);
    snprintf(g->game, sizeof g->game, "toscana");
    g->options = (char *)"seed=7";
    g->seed = 7;
    snprintf(g->player[0], STORE_PLAYER_LEN, "%s", white);
    snprintf(g->player[1], STORE_PLAYER_LEN, "%s", black);
    g->created = 1700000000;
    g->status = status;
    g->resigned = -1;
    for (int side = 0; side < 2; side++) {
        g->has_seat[side] = strcmp(g->player[side], "human") == 0;
        memset(g->seat_hash[side], 0x11 * (side + 1), STORE_HASH_LEN);
    }
}

static int flush_ok(store *st)
{
    char err[256];
    return store_flush(st, err, sizeof err) == 0;
}

typedef struct ids {
    int n;
    char id[16][STORE_ID_LEN];
} ids;

static void on_id(void *ctx, const char *id)
{
    ids *l = ctx;
    if (l->n < 16)
        snprintf(l->id[l->n++], STORE_ID_LEN, "%s", id);
}

/* The operations on one fresh database. */
static store_seek first_seek;

static int count_seek(void *ctx, const store_seek *k)
{
    ids *u = ctx;
    if (u->n == 0)
        first_seek = *k;
    if (u->n < 8)
        snprintf(u->id[u->n++], sizeof u->id[0], "%s", k->id);
    return 0;
}

typedef struct lines {
    int n;
    char line[8][128];
} lines;

static int count_pgame(void *ctx, const store_player_game *g)
{
    lines *u = ctx;
    if (u->n < 8)
        snprintf(u->line[u->n++], sizeof u->line[0], "%s %s %s %s %s %d", g->id, g->white, g->black,
                 g->winner, g->end, g->rated);
    return 0;
}

static int count_rating(void *ctx, const char *game, const store_rating *r)
{
    lines *u = ctx;
    if (u->n < 8)
        snprintf(u->line[u->n++], sizeof u->line[0], "%s %.1f %d", game, r->rating, r->games);
    return 0;
}

/* The account operations of one backend. */
/* Sessions as each_session lists them. */
typedef struct sess_seen {
    int n, with_ua;
    int64_t last_max;
} sess_seen;

static int list_session(void *ctx, const unsigned char *hash, int64_t created, int64_t expires,
                        const char *ua, int64_t last_used)
{
    sess_seen *v = ctx;
    (void)hash, (void)created, (void)expires;
    v->n++;
    v->with_ua += strstr(ua, "Firefox/120.0") != NULL;
    if (last_used > v->last_max)
        v->last_max = last_used;
    return 0;
}

static void accounts(store *st, const char *b)
{
    char what[200], err[256];
    const store_ops *o = st->ops;
    store_account a = {"Alice_1", "$argon2id$fake", 100, "", 0, 0, 0};
    snprintf(what, sizeof what, "%s: an account is created", b);
    check(o->create_account(st, &a, err, sizeof err) == 0 && flush_ok(st), what, err);
    store_account dup = {"aLICE_1", "$x", 101, "", 0, 0, 0};
    snprintf(what, sizeof what, "%s: a name taken ignoring case is refused", b);
    check(o->create_account(st, &dup, err, sizeof err) != 0, what, NULL);
    flush_ok(st);
    store_account got;
    snprintf(what, sizeof what, "%s: an account is found ignoring case, its name as chosen", b);
    check(o->get_account(st, "ALICE_1", &got, err, sizeof err) == 1 &&
              strcmp(got.name, "Alice_1") == 0 && strcmp(got.pwhash, "$argon2id$fake") == 0,
          what, err);
    snprintf(what, sizeof what, "%s: an unknown account: 0", b);
    check(o->get_account(st, "bob", &got, err, sizeof err) == 0, what, err);
    snprintf(what, sizeof what, "%s: a password is changed", b);
    check(o->set_password(st, "alice_1", "$new", err, sizeof err) == 0 && flush_ok(st) &&
              o->get_account(st, "Alice_1", &got, err, sizeof err) == 1 &&
              strcmp(got.pwhash, "$new") == 0,
          what, err);
    snprintf(what, sizeof what, "%s: an account has no language until it chooses one, then keeps it", b);
    check(o->get_account(st, "Alice_1", &got, err, sizeof err) == 1 && got.lang[0] == 0 &&
              o->set_lang(st, "ALICE_1", "it", err, sizeof err) == 0 && flush_ok(st) &&
              o->get_account(st, "alice_1", &got, err, sizeof err) == 1 &&
              strcmp(got.lang, "it") == 0 && strcmp(got.pwhash, "$new") == 0 &&
              o->set_lang(st, "Alice_1", "en", err, sizeof err) == 0 && flush_ok(st) &&
              o->get_account(st, "Alice_1", &got, err, sizeof err) == 1 && strcmp(got.lang, "en") == 0,
          what, err);
    unsigned char h1[STORE_HASH_LEN], h2[STORE_HASH_LEN];
    memset(h1, 1, sizeof h1);
    memset(h2, 2, sizeof h2);
    snprintf(what, sizeof what, "%s: sessions are created", b);
    check(o->create_session(st, h1, "Alice_1", 100, 1000, "Mozilla/5.0 (X11; Linux x86_64) Firefox/120.0",
                            err, sizeof err) == 0 &&
              o->create_session(st, h2, "Alice_1", 100, 200, NULL, err, sizeof err) == 0 && flush_ok(st),
          what, err);
    char name[STORE_NAME_LEN] = "";
    int64_t last = -1;
    snprintf(what, sizeof what, "%s: a live session names its account, last used when made", b);
    check(o->get_session(st, h1, 500, name, &last, err, sizeof err) == 1 &&
              strcmp(name, "Alice_1") == 0 && last == 100,
          what, err);
    snprintf(what, sizeof what, "%s: a session's use is kept (never moved back)", b);
    check(o->touch_session(st, h1, 400, err, sizeof err) == 0 &&
              o->touch_session(st, h1, 300, err, sizeof err) == 0 && flush_ok(st) &&
              o->get_session(st, h1, 500, name, &last, err, sizeof err) == 1 && last == 400,
          what, err);
    sess_seen sv = {0};
    snprintf(what, sizeof what, "%s: the sessions list gives the user agent and last use", b);
    check(o->each_session(st, "Alice_1", 150, list_session, &sv, err, sizeof err) == 0 && sv.n == 2 &&
              sv.with_ua == 1 && sv.last_max == 400,
          what, err);
    if (o->login_guard) {
        /* Sign-in guesses counted in the database (many instances). */
        int g[16], k = 0;
        for (int i = 0; i < 4; i++)
            g[k++] = o->login_guard(st, "Guess_1", 1000, 600, 3, 0, err, sizeof err);   /* 1 1 1 0 */
        o->login_guard(st, "guess_1", 1001, 600, 3, 2, err, sizeof err);              /* one succeeded */
        g[k++] = o->login_guard(st, "GUESS_1", 1002, 600, 3, 0, err, sizeof err);      /* 1 */
        for (int i = 0; i < 3; i++)
            o->login_guard(st, "guess_1", 1003, 600, 3, 1, err, sizeof err);          /* three failed */
        g[k++] = o->login_guard(st, "guess_1", 1004, 600, 3, 0, err, sizeof err);      /* 0: 3 failures */
        g[k++] = o->login_guard(st, "guess_1", 1600, 600, 3, 0, err, sizeof err);      /* 1: a new window */
        g[k++] = o->login_guard(st, "guess_1", 1800, 600, 3, 0, err, sizeof err);      /* 1: the last one's forgotten */
        g[k++] = o->login_guard(st, "guess_1", 1800, 600, 3, 0, err, sizeof err);      /* 1 */
        g[k++] = o->login_guard(st, "guess_1", 1800, 600, 3, 0, err, sizeof err);      /* 1 */
        g[k++] = o->login_guard(st, "guess_1", 1800, 600, 3, 0, err, sizeof err);      /* 0 */
        g[k++] = o->login_guard(st, "other_1", 1800, 600, 3, 0, err, sizeof err);      /* 1: another name */
        const int want[] = {1, 1, 1, 0, 1, 0, 1, 1, 1, 1, 0, 1};
        int same = k == 12;
        char seen[64] = "";
        for (int i = 0; i < k; i++) {
            same = same && g[i] == want[i];
            snprintf(seen + strlen(seen), sizeof seen - strlen(seen), "%d", g[i]);
        }
        snprintf(what, sizeof what, "%s: sign-in guesses counted up to the limit, failures in a window", b);
        check(same, what, seen);
    }
    snprintf(what, sizeof what, "%s: an expired session is none", b);
    check(o->get_session(st, h2, 500, name, NULL, err, sizeof err) == 0, what, err);
    snprintf(what, sizeof what, "%s: an ended session is none", b);
    check(o->delete_session(st, h1, err, sizeof err) == 0 && flush_ok(st) &&
              o->get_session(st, h1, 500, name, NULL, err, sizeof err) == 0,
          what, err);

    store_seek k;
    memset(&k, 0, sizeof k);
    snprintf(k.id, sizeof k.id, "SEEK00000001");
    snprintf(k.by, sizeof k.by, "Alice_1");
    snprintf(k.game, sizeof k.game, "urbino");
    snprintf(k.options, sizeof k.options, "variant=monuments");
    snprintf(k.to, sizeof k.to, "Bob_2");
    k.rated = 1;
    k.colour = 2;
    k.initial = 180;
    k.increment = 2;
    k.created = 10;
    store_seek k2 = k;
    snprintf(k2.id, sizeof k2.id, "SEEK00000002");
    k2.created = 11;
    snprintf(what, sizeof what, "%s: seeks are stored and listed oldest first", b);
    ids u = {0};
    check(o->create_seek(st, &k, err, sizeof err) == 0 && o->create_seek(st, &k2, err, sizeof err) == 0 &&
              flush_ok(st) && o->each_seek(st, count_seek, &u, err, sizeof err) == 0 && u.n == 2 &&
              strcmp(u.id[0], "SEEK00000001") == 0,
          what, err);
    snprintf(what, sizeof what, "%s: a seek reads back whole", b);
    check(strcmp(first_seek.by, "Alice_1") == 0 && strcmp(first_seek.game, "urbino") == 0 &&
              strcmp(first_seek.options, "variant=monuments") == 0 &&
              strcmp(first_seek.to, "Bob_2") == 0 && first_seek.rated == 1 &&
              first_seek.colour == 2 && first_seek.initial == 180 && first_seek.increment == 2 &&
              first_seek.days == 0 && first_seek.created == 10,
          what, first_seek.options);
    snprintf(what, sizeof what, "%s: a seek is taken once; a second take is refused", b);
    check(o->close_seek(st, "SEEK00000001", "GAME00000001", err, sizeof err) == 0 &&
              flush_ok(st) &&
              o->close_seek(st, "SEEK00000001", "GAME00000002", err, sizeof err) == STORE_CONFLICT,
          what, err);
    flush_ok(st);
    snprintf(what, sizeof what, "%s: a withdrawn seek is no longer listed", b);
    u.n = 0;
    check(o->close_seek(st, "SEEK00000002", "", err, sizeof err) == 0 && flush_ok(st) &&
              o->each_seek(st, count_seek, &u, err, sizeof err) == 0 && u.n == 0,
          what, err);

    store_rating r = {1612.5, 120.0, 0.06, 3, 0}, rr;
    snprintf(what, sizeof what, "%s: a rating is written and read back, then replaced", b);
    check(o->get_rating(st, "alice_1", "urbino", &rr, err, sizeof err) == 0 &&
              o->set_rating(st, "Alice_1", "urbino", &r, err, sizeof err) == 0 && flush_ok(st) &&
              o->get_rating(st, "Alice_1", "urbino", &rr, err, sizeof err) == 1 &&
              rr.rating == 1612.5 && rr.games == 3,
          what, err);
    r.games = 4;
    lines L = {0};
    check(o->set_rating(st, "Alice_1", "urbino", &r, err, sizeof err) == 0 && flush_ok(st) &&
              o->each_rating(st, "Alice_1", count_rating, &L, err, sizeof err) == 0 && L.n == 1 &&
              strcmp(L.line[0], "urbino 1612.5 4") == 0,
          what, L.n ? L.line[0] : err);

    store_game g;
    fill_game(&g, "GAME00000001", "human", "human", STORE_PLAYING);
    snprintf(g.account[0], STORE_NAME_LEN, "Alice_1");
    g.rated = 1;
    snprintf(what, sizeof what, "%s: a game between accounts reads back with them", b);
    store_game out;
    check(store_create_game(st, &g, NULL, 0, err, sizeof err) == 0 && flush_ok(st) &&
              store_load_game(st, "GAME00000001", &out, NULL, NULL, NULL, err, sizeof err) == 1 &&
              strcmp(out.account[0], "Alice_1") == 0 && out.account[1][0] == 0 && out.rated == 1 &&
              out.winner[0] == 0,
          what, err);
    store_game_done(&out);
    snprintf(what, sizeof what, "%s: its end is stored and listed among the player's games", b);
    L.n = 0;
    check(o->set_end(st, "GAME00000001", "black", "resign", err, sizeof err) == 0 && flush_ok(st) &&
              o->player_games(st, "alice_1", 10, count_pgame, &L, err, sizeof err) == 0 &&
              L.n == 1 && strcmp(L.line[0], "GAME00000001 Alice_1 human black resign 1") == 0,
          what, L.n ? L.line[0] : err);
    snprintf(what, sizeof what, "%s: a rated game keeps each player's rating before and after it", b);
    const double before[2] = {1500, 1612.5}, after[2] = {1662.3125, 1450.25};
    check(o->set_game_ratings(st, "GAME00000001", before, after, err, sizeof err) == 0 &&
              flush_ok(st) &&
              store_load_game(st, "GAME00000001", &out, NULL, NULL, NULL, err, sizeof err) == 1 &&
              out.rating_before[0] == 1500 && out.rating_before[1] == 1612.5 &&
              out.rating_after[0] == 1662.3125 && out.rating_after[1] == 1450.25,
          what, err);
    store_game_done(&out);
}

/* SPEC "Bots": a bot account; API tokens stored by their hash, found,
 * listed, touched and revoked, each only by its own account. */
static int list_token(void *ctx, const store_token *t)
{
    char *out = ctx;
    size_t n = strlen(out);
    snprintf(out + n, 256 - n, "%s%s:%lld", n ? " " : "", t->id, (long long)t->last_used);
    return 0;
}

static void bots(store *st, const char *b)
{
    char what[200], err[256];
    const store_ops *o = st->ops;
    store_account a = {"Robo_1", "$x", 5, "", 0, 0, 0}, got;
    o->create_account(st, &a, err, sizeof err);
    flush_ok(st);
    snprintf(what, sizeof what, "%s: an account is no bot until made one", b);
    check(o->get_account(st, "robo_1", &got, err, sizeof err) == 1 && got.bot == 0, what, err);
    snprintf(what, sizeof what, "%s: an account made a bot (any case) reads back as one", b);
    check(o->set_bot(st, "ROBO_1", err, sizeof err) == 0 && flush_ok(st) &&
              o->get_account(st, "Robo_1", &got, err, sizeof err) == 1 && got.bot == 1,
          what, err);
    unsigned char h1[STORE_HASH_LEN], h2[STORE_HASH_LEN], h3[STORE_HASH_LEN];
    memset(h1, 1, sizeof h1);
    memset(h2, 2, sizeof h2);
    memset(h3, 3, sizeof h3);
    snprintf(what, sizeof what, "%s: two tokens are stored", b);
    check(o->create_token(st, "TOKEN0000001", h1, "Robo_1", 10, err, sizeof err) == 0 &&
              o->create_token(st, "TOKEN0000002", h2, "Robo_1", 11, err, sizeof err) == 0 &&
              flush_ok(st),
          what, err);
    snprintf(what, sizeof what, "%s: the same token hash twice is refused", b);
    check(o->create_token(st, "TOKEN0000003", h1, "Robo_1", 12, err, sizeof err) != 0, what, NULL);
    flush_ok(st);
    char name[STORE_NAME_LEN] = "";
    int64_t used = -1;
    snprintf(what, sizeof what, "%s: a token's hash names its account (as chosen)", b);
    check(o->get_token(st, h2, name, &used, err, sizeof err) == 1 &&
              strcmp(name, "Robo_1") == 0 && used == 0,
          what, err);
    snprintf(what, sizeof what, "%s: an unknown hash names nobody", b);
    check(o->get_token(st, h3, name, &used, err, sizeof err) == 0, what, err);
    char list[256] = "";
    snprintf(what, sizeof what, "%s: a touched token lists its last use, oldest first", b);
    check(o->touch_token(st, h1, 99, err, sizeof err) == 0 && flush_ok(st) &&
              o->each_token(st, "robo_1", list_token, list, err, sizeof err) == 0 &&
              strcmp(list, "TOKEN0000001:99 TOKEN0000002:0") == 0,
          what, list);
    snprintf(what, sizeof what, "%s: another account cannot revoke it", b);
    list[0] = 0;
    check(o->delete_token(st, "Alice_1", "TOKEN0000001", err, sizeof err) == 0 && flush_ok(st) &&
              o->each_token(st, "Robo_1", list_token, list, err, sizeof err) == 0 &&
              strcmp(list, "TOKEN0000001:99 TOKEN0000002:0") == 0,
          what, list);
    snprintf(what, sizeof what, "%s: a revoked token names nobody", b);
    list[0] = 0;
    check(o->delete_token(st, "robo_1", "TOKEN0000001", err, sizeof err) == 0 && flush_ok(st) &&
              o->get_token(st, h1, name, &used, err, sizeof err) == 0 &&
              o->each_token(st, "Robo_1", list_token, list, err, sizeof err) == 0 &&
              strcmp(list, "TOKEN0000002:0") == 0,
          what, list);
}

/* E-mail: settings, tokens, the queue, the log (mail.c). */
typedef struct mail_seen {
    int n;
    char names[8][STORE_NAME_LEN];
    store_mail_item it[8];
} mail_seen;

static void mail_name(void *ctx, const char *name)
{
    mail_seen *m = ctx;
    if (m->n < 8)
        snprintf(m->names[m->n++], STORE_NAME_LEN, "%s", name);
}

static int mail_item(void *ctx, const store_mail_item *it)
{
    mail_seen *m = ctx;
    if (m->n < 8)
        m->it[m->n++] = *it;
    return 0;
}

static void mail_checks(store *st, const char *b)
{
    char err[256], what[160], name[STORE_NAME_LEN];
    const store_ops *o = st->ops;
    store_account a;
    memset(&a, 0, sizeof a);
    snprintf(a.name, sizeof a.name, "Mailer_1");
    snprintf(a.pwhash, sizeof a.pwhash, "x");
    a.created = 1;
    check(o->create_account(st, &a, err, sizeof err) == 0 && flush_ok(st), "mail: an account", err);
    store_mail m, out;
    snprintf(what, sizeof what, "%s: no mail settings until some are kept", b);
    check(o->mail_get(st, "Mailer_1", &out, err, sizeof err) == 0, what, err);
    memset(&m, 0, sizeof m);
    snprintf(m.name, sizeof m.name, "Mailer_1");
    snprintf(m.address, sizeof m.address, "mailer@example.org");
    snprintf(m.verify_hash, sizeof m.verify_hash, "%064d", 7);
    m.verify_at = 1000;
    m.verify_count = 2;
    m.verify_since = 900;
    m.kinds = 5;
    m.digest = 1;
    snprintf(m.unsub, sizeof m.unsub, "UNSUB-token-0123456789");
    snprintf(what, sizeof what, "%s: mail settings read back (the name in any case)", b);
    check(o->mail_put(st, &m, err, sizeof err) == 0 && flush_ok(st) &&
              o->mail_get(st, "mailer_1", &out, err, sizeof err) == 1 &&
              strcmp(out.address, m.address) == 0 && out.verified == 0 &&
              strcmp(out.verify_hash, m.verify_hash) == 0 && out.verify_at == 1000 &&
              out.verify_count == 2 && out.verify_since == 900 && out.kinds == 5 &&
              out.digest == 1 && strcmp(out.unsub, m.unsub) == 0,
          what, err);
    snprintf(what, sizeof what, "%s: mail settings are replaced, not added", b);
    m.verified = 1;
    m.verify_hash[0] = 0;
    m.kinds = 2;
    check(o->mail_put(st, &m, err, sizeof err) == 0 && flush_ok(st) &&
              o->mail_get(st, "MAILER_1", &out, err, sizeof err) == 1 && out.verified == 1 &&
              out.verify_hash[0] == 0 && out.kinds == 2,
          what, err);
    snprintf(what, sizeof what, "%s: the unsubscribe token names its account (as chosen)", b);
    check(o->mail_find(st, 0, "UNSUB-token-0123456789", name, err, sizeof err) == 1 &&
              strcmp(name, "Mailer_1") == 0,
          what, err);
    snprintf(what, sizeof what, "%s: an unknown or empty token names nobody", b);
    check(o->mail_find(st, 0, "UNSUB-token-012345678", name, err, sizeof err) == 0 &&
              o->mail_find(st, 1, "", name, err, sizeof err) == 0 &&
              o->mail_find(st, 0, "", name, err, sizeof err) == 0,
          what, err);
    m.verified = 0;
    snprintf(m.verify_hash, sizeof m.verify_hash, "%064d", 8);
    snprintf(what, sizeof what, "%s: a verification hash names its account", b);
    check(o->mail_put(st, &m, err, sizeof err) == 0 && flush_ok(st) &&
              o->mail_find(st, 1, m.verify_hash, name, err, sizeof err) == 1 &&
              strcmp(name, "Mailer_1") == 0,
          what, err);

    store_mail_item it;
    memset(&it, 0, sizeof it);
    snprintf(it.name, sizeof it.name, "MAILER_1");
    it.kind = 1;
    snprintf(it.arg, sizeof it.arg, "GAME1\tbob\turbino");
    it.created = 100;
    it.due = 100;
    snprintf(what, sizeof what, "%s: an item is queued, the same one again is not", b);
    int r1 = o->mail_add(st, &it, 3, err, sizeof err), r2 = o->mail_add(st, &it, 3, err, sizeof err);
    check(r1 == 1 && r2 == 0 && flush_ok(st), what, err);
    snprintf(it.arg, sizeof it.arg, "GAME2\tbob\turbino");
    it.due = 500;
    int r3 = o->mail_add(st, &it, 3, err, sizeof err);
    snprintf(it.arg, sizeof it.arg, "GAME3\tbob\turbino");
    int r4 = o->mail_add(st, &it, 3, err, sizeof err);
    snprintf(it.arg, sizeof it.arg, "GAME4\tbob\turbino");
    int r5 = o->mail_add(st, &it, 3, err, sizeof err);
    snprintf(what, sizeof what, "%s: at most `max` items wait per account", b);
    check(r3 == 1 && r4 == 1 && r5 == 0 && flush_ok(st), what, err);
    snprintf(what, sizeof what, "%s: a batch discarded queues nothing", b);
    snprintf(it.name, sizeof it.name, "Other_1");
    o->mail_add(st, &it, 3, err, sizeof err);
    store_discard(st);
    mail_seen seen;
    memset(&seen, 0, sizeof seen);
    check(o->mail_items(st, "Other_1", mail_item, &seen, err, sizeof err) == 0 && seen.n == 0,
          what, err);
    memset(&seen, 0, sizeof seen);
    snprintf(what, sizeof what, "%s: the accounts with an item due, once each", b);
    check(o->mail_due(st, 200, 10, mail_name, &seen, err, sizeof err) == 0 && seen.n == 1 &&
              strcmp(seen.names[0], "mailer_1") == 0,
          what, seen.n ? seen.names[0] : err);
    memset(&seen, 0, sizeof seen);
    snprintf(what, sizeof what, "%s: none due before the first item's time", b);
    check(o->mail_due(st, 99, 10, mail_name, &seen, err, sizeof err) == 0 && seen.n == 0, what,
          err);
    memset(&seen, 0, sizeof seen);
    snprintf(what, sizeof what, "%s: an account's items, oldest first, as queued", b);
    check(o->mail_items(st, "Mailer_1", mail_item, &seen, err, sizeof err) == 0 && seen.n == 3 &&
              strcmp(seen.it[0].arg, "GAME1\tbob\turbino") == 0 && seen.it[0].kind == 1 &&
              seen.it[0].created == 100 && seen.it[0].due == 100 && seen.it[0].tries == 0 &&
              strcmp(seen.it[2].arg, "GAME3\tbob\turbino") == 0 && seen.it[0].id < seen.it[1].id &&
              seen.it[1].id < seen.it[2].id,
          what, err);
    int64_t first = seen.it[0].id, second = seen.it[1].id;
    snprintf(what, sizeof what, "%s: an item deferred and one dropped", b);
    check(o->mail_defer(st, first, 700, 2, err, sizeof err) == 0 &&
              o->mail_drop(st, second, err, sizeof err) == 0 && flush_ok(st),
          what, err);
    memset(&seen, 0, sizeof seen);
    o->mail_items(st, "Mailer_1", mail_item, &seen, err, sizeof err);
    check(seen.n == 2 && seen.it[0].id == first && seen.it[0].due == 700 && seen.it[0].tries == 2 &&
              seen.it[1].id != second,
          what, err);
    memset(&seen, 0, sizeof seen);
    snprintf(what, sizeof what, "%s: a deferred item is not due before its new time", b);
    check(o->mail_due(st, 600, 10, mail_name, &seen, err, sizeof err) == 0 && seen.n == 1 &&
              (seen.n = 0, o->mail_due(st, 499, 10, mail_name, &seen, err, sizeof err)) == 0 &&
              seen.n == 0,
          what, err);
    snprintf(what, sizeof what, "%s: mails sent are counted since a time", b);
    check(o->mail_log(st, "Mailer_1", 1000, err, sizeof err) == 0 &&
              o->mail_log(st, "mailer_1", 2000, err, sizeof err) == 0 && flush_ok(st) &&
              o->mail_count(st, "MAILER_1", 1000, err, sizeof err) == 2 &&
              o->mail_count(st, "Mailer_1", 1500, err, sizeof err) == 1 &&
              o->mail_count(st, "Other_1", 0, err, sizeof err) == 0,
          what, err);
    snprintf(what, sizeof what, "%s: the log forgets what is two days old", b);
    check(o->mail_log(st, "Mailer_1", 1000 + 3 * 86400, err, sizeof err) == 0 && flush_ok(st) &&
              o->mail_count(st, "Mailer_1", 0, err, sizeof err) == 1,
          what, err);
}

/* ---- tournaments (SPEC "Tournaments") ---- */

typedef struct tours_seen {
    int n;
    char line[8][160];
} tours_seen;

static int on_tour(void *ctx, const store_tour *t)
{
    tours_seen *l = ctx;
    if (l->n < 8)
        snprintf(l->line[l->n++], sizeof l->line[0], "%s %s %s %s %d %d %lld %lld %d", t->id,
                 t->name, t->kind, t->creator, t->status, t->rated, (long long)t->starts,
                 (long long)t->ends, t->players);
    return 0;
}

static int on_tour_player(void *ctx, const store_tour_player *p)
{
    tours_seen *l = ctx;
    if (l->n < 8)
        snprintf(l->line[l->n++], sizeof l->line[0], "%s %.0f %d %d %d%s", p->name, p->rating,
                 p->withdrawn, p->division, p->seed, p->once ? " once" : "");
    return 0;
}

static int on_tour_game(void *ctx, const store_tour_game *g)
{
    tours_seen *l = ctx;
    if (l->n < 8)
        snprintf(l->line[l->n++], sizeof l->line[0], "%d %s %s %s %d %s %s %d", g->seq, g->game,
                 g->white, g->black, g->division, g->winner[0] ? g->winner : "-",
                 g->end[0] ? g->end : "-", g->plies);
    return 0;
}

static void tournaments(store *st, const char *b)
{
    const store_ops *o = st->ops;
    char err[256], what[160];
    store_tour t;
    memset(&t, 0, sizeof t);
    snprintf(t.id, sizeof t.id, "TOUR00000001");
    snprintf(t.name, sizeof t.name, "Spring cup");
    snprintf(t.game, sizeof t.game, "urbino");
    snprintf(t.kind, sizeof t.kind, "roundrobin");
    snprintf(t.creator, sizeof t.creator, "Alice_1");
    t.rated = 1;
    t.days = 3;
    t.starts = 5000;
    t.created = 1000;
    store_tour a = t;
    snprintf(a.id, sizeof a.id, "TOUR00000002");
    snprintf(a.name, sizeof a.name, "Evening arena");
    snprintf(a.kind, sizeof a.kind, "arena");
    a.days = 0;
    a.initial = 180;
    a.increment = 2;
    a.minutes = 30;
    a.starts = 9000;
    a.created = 2000;
    snprintf(what, sizeof what, "%s: tournaments are stored and read back whole", b);
    store_tour out;
    check(o->create_tour(st, &t, err, sizeof err) == 0 && o->create_tour(st, &a, err, sizeof err) == 0 &&
              flush_ok(st) && o->get_tour(st, "TOUR00000002", &out, err, sizeof err) == 1 &&
              strcmp(out.name, "Evening arena") == 0 && strcmp(out.kind, "arena") == 0 &&
              strcmp(out.game, "urbino") == 0 && out.initial == 180 && out.increment == 2 &&
              out.minutes == 30 && out.starts == 9000 && out.status == STORE_TOUR_OPEN &&
              out.rated == 1 && out.players == 0 && strcmp(out.creator, "Alice_1") == 0,
          what, err);
    snprintf(what, sizeof what, "%s: an unknown tournament is 0", b);
    check(o->get_tour(st, "TOUR00000009", &out, err, sizeof err) == 0, what, err);
    snprintf(what, sizeof what, "%s: a second tournament with the same id is refused", b);
    check(o->create_tour(st, &t, err, sizeof err) != 0, what, NULL);
    flush_ok(st);
    snprintf(what, sizeof what, "%s: tournaments made by an account since a time are counted", b);
    check(o->count_tours(st, "alice_1", 1500, err, sizeof err) == 1 &&
              o->count_tours(st, "Alice_1", 0, err, sizeof err) == 2 &&
              o->count_tours(st, "Bob_2", 0, err, sizeof err) == 0,
          what, err);

    /* A recurring event's next edition: it names the one it follows, once. */
    store_tour nx = t;
    snprintf(nx.id, sizeof nx.id, "TOUR00000003");
    snprintf(nx.repeat, sizeof nx.repeat, "day");
    snprintf(nx.previous, sizeof nx.previous, "TOUR00000001");
    nx.created = 3000;
    store_tour twice2 = nx;
    snprintf(twice2.id, sizeof twice2.id, "TOUR00000004");
    snprintf(what, sizeof what, "%s: a next edition reads back with its repeat and the one it follows", b);
    check(o->create_tour(st, &nx, err, sizeof err) == 0 && flush_ok(st) &&
              o->get_tour(st, "TOUR00000003", &out, err, sizeof err) == 1 &&
              strcmp(out.repeat, "day") == 0 && strcmp(out.previous, "TOUR00000001") == 0,
          what, err);
    snprintf(what, sizeof what, "%s: a second next edition of the same one is refused", b);
    check(o->create_tour(st, &twice2, err, sizeof err) != 0, what, NULL);
    flush_ok(st);
    snprintf(what, sizeof what, "%s: next editions do not count as made by their creator", b);
    check(o->count_tours(st, "Alice_1", 0, err, sizeof err) == 2, what, err);

    /* Players: joined, listed in the order joined, changed in place. */
    store_tour_player p1 = {"Bob_2", 1600, 0, 0, 0, 100, 1};
    store_tour_player p2 = {"Alice_1", 1500, 0, 0, 0, 200, 0};
    tours_seen l = {0};
    snprintf(what, sizeof what, "%s: players join and are listed in the order they joined", b);
    check(o->set_tour_player(st, "TOUR00000001", &p2, err, sizeof err) == 0 &&
              o->set_tour_player(st, "TOUR00000001", &p1, err, sizeof err) == 0 && flush_ok(st) &&
              o->each_tour_player(st, "TOUR00000001", on_tour_player, &l, err, sizeof err) == 0 &&
              l.n == 2 && strcmp(l.line[0], "Bob_2 1600 0 0 0 once") == 0 &&
              strcmp(l.line[1], "Alice_1 1500 0 0 0") == 0,
          what, l.n ? l.line[0] : err);
    p2.withdrawn = 1;
    p2.division = 1;
    p2.seed = 2;
    l.n = 0;
    snprintf(what, sizeof what, "%s: a player joining again changes its line, never doubles it", b);
    check(o->set_tour_player(st, "TOUR00000001", &p2, err, sizeof err) == 0 && flush_ok(st) &&
              o->each_tour_player(st, "TOUR00000001", on_tour_player, &l, err, sizeof err) == 0 &&
              l.n == 2 && strcmp(l.line[1], "Alice_1 1500 1 1 2") == 0 &&
              o->get_tour(st, "TOUR00000001", &out, err, sizeof err) == 1 && out.players == 1,
          what, l.n > 1 ? l.line[1] : err);

    /* Status: moves once from the status named. */
    snprintf(what, sizeof what, "%s: a tournament starts once; a second start is a conflict", b);
    check(o->set_tour(st, "TOUR00000002", STORE_TOUR_OPEN, STORE_TOUR_RUNNING, 9500, 9500 + 1800000,
                      err, sizeof err) == 0 &&
              o->set_tour(st, "TOUR00000002", STORE_TOUR_OPEN, STORE_TOUR_RUNNING, 9600, 9600, err,
                          sizeof err) == STORE_CONFLICT &&
              flush_ok(st) && o->get_tour(st, "TOUR00000002", &out, err, sizeof err) == 1 &&
              out.status == STORE_TOUR_RUNNING && out.starts == 9500 && out.ends == 1809500,
          what, err);
    l.n = 0;
    snprintf(what, sizeof what, "%s: the unfinished tournaments by start, all by start newest first", b);
    int ok = o->each_tour(st, 1, 10, on_tour, &l, err, sizeof err) == 0 && l.n == 3 &&
             strncmp(l.line[0], "TOUR00000001 Spring cup roundrobin Alice_1 0 1 5000 0 1", 60) == 0 &&
             strncmp(l.line[1], "TOUR00000003", 12) == 0 && strncmp(l.line[2], "TOUR00000002", 12) == 0;
    l.n = 0;
    ok = ok && o->set_tour(st, "TOUR00000001", STORE_TOUR_OPEN, STORE_TOUR_OVER, 5000, 0, err,
                           sizeof err) == 0 && flush_ok(st) &&
         o->each_tour(st, 1, 10, on_tour, &l, err, sizeof err) == 0 && l.n == 2 &&
         strncmp(l.line[1], "TOUR00000002", 12) == 0;
    l.n = 0;
    ok = ok && o->each_tour(st, 0, 10, on_tour, &l, err, sizeof err) == 0 && l.n == 3 &&
         strncmp(l.line[0], "TOUR00000002", 12) == 0 && strncmp(l.line[1], "TOUR00000001", 12) == 0 &&
         strncmp(l.line[2], "TOUR00000003", 12) == 0;
    check(ok, what, l.n ? l.line[0] : err);

    /* Games: a place in the list is taken once; results come from the games. */
    store_game g;
    fill_game(&g, "TGAME0000001", "human", "human", STORE_PLAYING);
    snprintf(g.account[0], STORE_NAME_LEN, "Bob_2");
    snprintf(g.account[1], STORE_NAME_LEN, "Alice_1");
    store_game g2 = g;
    snprintf(g2.id, sizeof g2.id, "TGAME0000002");
    snprintf(g2.account[0], STORE_NAME_LEN, "Alice_1");
    snprintf(g2.account[1], STORE_NAME_LEN, "Bob_2");
    store_tour_game tg = {0, "TGAME0000001", "Bob_2", "Alice_1", 0, "", "", 0};
    store_tour_game tg2 = {1, "TGAME0000002", "Alice_1", "Bob_2", 0, "", "", 0};
    store_tour_game twice = {1, "TGAME0000001", "Bob_2", "Alice_1", 0, "", "", 0};
    store_move mv = {"a1", 1, 1};
    snprintf(what, sizeof what, "%s: a tournament's games are listed in order with their results", b);
    l.n = 0;
    check(store_create_game(st, &g, NULL, 0, err, sizeof err) == 0 &&
              store_create_game(st, &g2, NULL, 0, err, sizeof err) == 0 &&
              o->add_tour_game(st, "TOUR00000002", &tg2, err, sizeof err) == 0 &&
              o->add_tour_game(st, "TOUR00000002", &tg, err, sizeof err) == 0 && flush_ok(st) &&
              store_add_move(st, "TGAME0000002", 0, &mv, STORE_PLAYING, err, sizeof err) == 0 &&
              o->set_end(st, "TGAME0000001", "black", "abort", err, sizeof err) == 0 &&
              flush_ok(st) &&
              o->each_tour_game(st, "TOUR00000002", on_tour_game, &l, err, sizeof err) == 0 &&
              l.n == 2 && strcmp(l.line[0], "0 TGAME0000001 Bob_2 Alice_1 0 black abort 0") == 0 &&
              strcmp(l.line[1], "1 TGAME0000002 Alice_1 Bob_2 0 - - 1") == 0,
          what, l.n ? l.line[l.n - 1] : err);
    snprintf(what, sizeof what, "%s: a pairing made twice (a place taken) is a conflict, the batch commits", b);
    l.n = 0;
    check(o->add_tour_game(st, "TOUR00000002", &twice, err, sizeof err) == STORE_CONFLICT &&
              flush_ok(st) &&
              o->each_tour_game(st, "TOUR00000002", on_tour_game, &l, err, sizeof err) == 0 &&
              l.n == 2 && strncmp(l.line[1], "1 TGAME0000002", 14) == 0,
          what, err);
    char tour[STORE_ID_LEN] = "x";
    snprintf(what, sizeof what, "%s: a tournament game names its tournament (game_tour)", b);
    check(o->game_tour(st, "TGAME0000002", tour, err, sizeof err) == 1 &&
              strcmp(tour, "TOUR00000002") == 0,
          what, tour);
    snprintf(what, sizeof what, "%s: a game of no tournament names none", b);
    check(o->game_tour(st, "NOSUCHGAME00", tour, err, sizeof err) == 0 && tour[0] == 0, what, err);
}

/* Chat lines, block lists and chat flags (store_ops.add_chat ...). */
typedef struct chatlines {
    int n;
    char line[8][200];
} chatlines;

static int on_chat(void *ctx, const char *name, const char *text, int64_t ms)
{
    chatlines *c = ctx;
    if (c->n < 8)
        snprintf(c->line[c->n++], sizeof c->line[0], "%s|%s|%lld", name, text, (long long)ms);
    return 0;
}

static int on_name(void *ctx, const char *name)
{
    chatlines *c = ctx;
    if (c->n < 8)
        snprintf(c->line[c->n++], sizeof c->line[0], "%s", name);
    return 0;
}

static void chat_checks(store *st, const char *b)
{
    char what[200], err[256];
    const store_ops *o = st->ops;
    chatlines c = {0};
    snprintf(what, sizeof what, "%s: chat lines are kept per game and room, oldest first", b);
    check(o->add_chat(st, "CHATGAME0001", STORE_ROOM_PLAYERS, "Alice_1", "Good luck", 1000, err,
                      sizeof err) == 0 &&
              o->add_chat(st, "CHATGAME0001", STORE_ROOM_SPECTATORS, "Carol", "<b>hi</b> & \"x\"",
                          1001, err, sizeof err) == 0 &&
              o->add_chat(st, "CHATGAME0001", STORE_ROOM_PLAYERS, "Bob", "Grazie, \u00e8 \u2665", 1002,
                          err, sizeof err) == 0 &&
              o->add_chat(st, "CHATGAME0002", STORE_ROOM_PLAYERS, "Bob", "other game", 1003, err,
                          sizeof err) == 0 &&
              flush_ok(st) &&
              o->each_chat(st, "CHATGAME0001", STORE_ROOM_PLAYERS, 100, on_chat, &c, err,
                           sizeof err) == 0 &&
              c.n == 2 && strcmp(c.line[0], "Alice_1|Good luck|1000") == 0 &&
              strcmp(c.line[1], "Bob|Grazie, \u00e8 \u2665|1002") == 0,
          what, c.n ? c.line[0] : err);
    memset(&c, 0, sizeof c);
    snprintf(what, sizeof what, "%s: the spectators' room is its own, text kept as written", b);
    check(o->each_chat(st, "CHATGAME0001", STORE_ROOM_SPECTATORS, 100, on_chat, &c, err,
                       sizeof err) == 0 &&
              c.n == 1 && strcmp(c.line[0], "Carol|<b>hi</b> & \"x\"|1001") == 0,
          what, c.n ? c.line[0] : err);
    memset(&c, 0, sizeof c);
    snprintf(what, sizeof what, "%s: a history's limit keeps the newest lines", b);
    check(o->each_chat(st, "CHATGAME0001", STORE_ROOM_PLAYERS, 1, on_chat, &c, err,
                       sizeof err) == 0 &&
              c.n == 1 && strncmp(c.line[0], "Bob|", 4) == 0,
          what, c.n ? c.line[0] : err);
    memset(&c, 0, sizeof c);
    snprintf(what, sizeof what, "%s: a game without chat lists none", b);
    check(o->each_chat(st, "NOCHAT000001", STORE_ROOM_PLAYERS, 100, on_chat, &c, err,
                       sizeof err) == 0 && c.n == 0,
          what, err);
    snprintf(what, sizeof what, "%s: blocks are kept in order, twice is once, unblock removes", b);
    check(o->set_block(st, "Alice_1", "Bob", 1, 10, err, sizeof err) == 0 &&
              o->set_block(st, "Alice_1", "Carol", 1, 11, err, sizeof err) == 0 &&
              o->set_block(st, "Alice_1", "Bob", 1, 12, err, sizeof err) == 0 &&
              o->set_block(st, "Bob", "Alice_1", 1, 12, err, sizeof err) == 0 && flush_ok(st) &&
              o->each_block(st, "Alice_1", on_name, &c, err, sizeof err) == 0 && c.n == 2 &&
              strcmp(c.line[0], "Bob") == 0 && strcmp(c.line[1], "Carol") == 0,
          what, err);
    memset(&c, 0, sizeof c);
    check(o->set_block(st, "Alice_1", "Bob", 0, 0, err, sizeof err) == 0 &&
              o->set_block(st, "Alice_1", "Nobody", 0, 0, err, sizeof err) == 0 && flush_ok(st) &&
              o->each_block(st, "Alice_1", on_name, &c, err, sizeof err) == 0 && c.n == 1 &&
              strcmp(c.line[0], "Carol") == 0,
          what, err);
    int flags = -1;
    snprintf(what, sizeof what, "%s: chat flags are 0 until set, then set and cleared bit by bit", b);
    check(o->get_chat_flags(st, "Alice_1", &flags, err, sizeof err) == 0 && flags == 0 &&
              o->set_chat_flag(st, "Alice_1", STORE_CHAT_OFF_RATED, 1, err, sizeof err) == 0 &&
              o->set_chat_flag(st, "Alice_1", STORE_CHAT_MUTED, 1, err, sizeof err) == 0 &&
              flush_ok(st) && o->get_chat_flags(st, "Alice_1", &flags, err, sizeof err) == 1 &&
              flags == (STORE_CHAT_OFF_RATED | STORE_CHAT_MUTED) &&
              o->set_chat_flag(st, "Alice_1", STORE_CHAT_OFF_RATED, 0, err, sizeof err) == 0 &&
              flush_ok(st) && o->get_chat_flags(st, "Alice_1", &flags, err, sizeof err) == 1 &&
              flags == STORE_CHAT_MUTED,
          what, err);
}

typedef struct modlist {
    int n;
    store_report r[8];
    store_audit a[8];
    char chat[8][40];
} modlist;

static int on_report(void *ctx, const store_report *r)
{
    modlist *l = ctx;
    if (l->n < 8)
        l->r[l->n++] = *r;
    return 0;
}

static int on_audit(void *ctx, const store_audit *a)
{
    modlist *l = ctx;
    if (l->n < 8)
        l->a[l->n++] = *a;
    return 0;
}

static int on_leader_count(void *ctx, const char *name, const store_rating *r)
{
    (void)r;
    if (strcmp(name, "Mod_1") == 0)
        (*(int *)ctx)++;
    return 0;
}

static int on_chat_by(void *ctx, const char *game, int room, const char *text, int64_t ms)
{
    modlist *l = ctx;
    (void)game, (void)room, (void)ms;
    if (l->n < 8)
        snprintf(l->chat[l->n++], sizeof l->chat[0], "%s", text);
    return 0;
}

/* Schema 17: closed and banned accounts, reports, the audit log, one's
 * chat lines and retention (after chat_checks: its lines are there). */
static void moderation_checks(store *st, const char *b)
{
    char what[200], err[256], who[STORE_NAME_LEN];
    const store_ops *o = st->ops;
    store_account a = {"Mod_1", "$x", 7, "", 0, 0, 0}, got;
    unsigned char h[STORE_HASH_LEN];
    memset(h, 0x5a, sizeof h);
    snprintf(what, sizeof what, "%s: a new account is neither closed nor banned", b);
    check(o->create_account(st, &a, err, sizeof err) == 0 &&
              o->create_session(st, h, "Mod_1", 10, 4000000000, "ua", err, sizeof err) == 0 &&
              flush_ok(st) && o->get_account(st, "mod_1", &got, err, sizeof err) == 1 &&
              got.closed == 0 && got.banned == 0 &&
              o->get_session(st, h, 20, who, NULL, err, sizeof err) == 1,
          what, err);
    snprintf(what, sizeof what, "%s: a ban is kept and ends the account's sessions; unban", b);
    int ok = o->set_banned(st, "MOD_1", 1, err, sizeof err) == 0 && flush_ok(st) &&
             o->get_account(st, "Mod_1", &got, err, sizeof err) == 1 && got.banned == 1 &&
             o->get_session(st, h, 20, who, NULL, err, sizeof err) == 0;
    ok = ok && o->create_session(st, h, "Mod_1", 10, 4000000000, "ua", err, sizeof err) == 0 &&
         flush_ok(st) && o->get_session(st, h, 20, who, NULL, err, sizeof err) == 0;
    ok = ok && o->set_banned(st, "Mod_1", 0, err, sizeof err) == 0 && flush_ok(st) &&
         o->get_account(st, "Mod_1", &got, err, sizeof err) == 1 && got.banned == 0 &&
         o->get_session(st, h, 20, who, NULL, err, sizeof err) == 1;
    check(ok, what, err);
    unsigned char th[STORE_HASH_LEN];
    memset(th, 0x6b, sizeof th);
    snprintf(what, sizeof what, "%s: an API token of a banned account is not found", b);
    ok = o->create_token(st, "TOKMOD000001", th, "Mod_1", 11, err, sizeof err) == 0 && flush_ok(st) &&
         o->get_token(st, th, who, NULL, err, sizeof err) == 1 &&
         o->set_banned(st, "Mod_1", 1, err, sizeof err) == 0 && flush_ok(st) &&
         o->get_token(st, th, who, NULL, err, sizeof err) == 0 &&
         o->set_banned(st, "Mod_1", 0, err, sizeof err) == 0 && flush_ok(st) &&
         o->get_token(st, th, who, NULL, err, sizeof err) == 1;
    check(ok, what, err);
    snprintf(what, sizeof what, "%s: an unknown account cannot be banned", b);
    check(o->set_banned(st, "Nobody_9", 1, err, sizeof err) != 0, what, NULL);
    flush_ok(st);
    store_rating rt = {1900, 60, 0.06, 12, 0};
    snprintf(what, sizeof what,
             "%s: a closed account keeps its name, loses its sessions and tokens, leaves the leaderboard", b);
    ok = o->set_rating(st, "Mod_1", "tablut", &rt, err, sizeof err) == 0 && flush_ok(st);
    int listed = 0;
    ok = ok && o->leaderboard(st, "tablut", 50, on_leader_count, &listed, err, sizeof err) == 0 &&
         listed == 1;
    ok = ok && o->close_account(st, "mod_1", 500, err, sizeof err) == 0 && flush_ok(st) &&
         o->get_account(st, "Mod_1", &got, err, sizeof err) == 1 && got.closed == 500 &&
         o->get_session(st, h, 20, who, NULL, err, sizeof err) == 0 &&
         o->get_token(st, th, who, NULL, err, sizeof err) == 0;
    listed = 0;
    ok = ok && o->leaderboard(st, "tablut", 50, on_leader_count, &listed, err, sizeof err) == 0 &&
         listed == 0;
    check(ok, what, err);
    snprintf(what, sizeof what, "%s: closing twice, or an unknown account, is refused", b);
    check(o->close_account(st, "Mod_1", 600, err, sizeof err) != 0 &&
              o->close_account(st, "Nobody_9", 600, err, sizeof err) != 0,
          what, NULL);
    flush_ok(st);

    store_report r1 = {0, 1000, "Alice_1", "Bob", "CHATGAME0001", "abuse", "rude <b>words</b>"};
    store_report r2 = {0, 2000, "Alice_1", "Carol", "", "cheating", "engine?"};
    store_report r3 = {0, 3000, "Carol", "Bob", "", "other", ""};
    snprintf(what, sizeof what, "%s: reports are kept and listed newest first", b);
    modlist l;
    memset(&l, 0, sizeof l);
    check(o->add_report(st, &r1, err, sizeof err) == 0 &&
              o->add_report(st, &r2, err, sizeof err) == 0 &&
              o->add_report(st, &r3, err, sizeof err) == 0 && flush_ok(st) &&
              o->each_report(st, "", 10, on_report, &l, err, sizeof err) == 0 && l.n == 3 &&
              strcmp(l.r[0].reporter, "Carol") == 0 && strcmp(l.r[2].text, r1.text) == 0 &&
              strcmp(l.r[2].game, "CHATGAME0001") == 0 && strcmp(l.r[1].reason, "cheating") == 0 &&
              l.r[1].created == 2000,
          what, err);
    snprintf(what, sizeof what, "%s: one reporter's reports, and counts per day and player", b);
    memset(&l, 0, sizeof l);
    check(o->each_report(st, "alice_1", 10, on_report, &l, err, sizeof err) == 0 && l.n == 2 &&
              o->count_reports(st, "ALICE_1", "", 0, err, sizeof err) == 2 &&
              o->count_reports(st, "Alice_1", "", 1500, err, sizeof err) == 1 &&
              o->count_reports(st, "Alice_1", "bob", 0, err, sizeof err) == 1 &&
              o->count_reports(st, "Bob", "", 0, err, sizeof err) == 0,
          what, err);

    snprintf(what, sizeof what, "%s: the audit log grows in order from any point", b);
    int64_t last = o->audit_last(st, err, sizeof err);
    store_audit e1 = {0, 50, "root", "ban", "Bob", ""}, e2 = {0, 60, "ops", "unban", "Bob", "x"};
    memset(&l, 0, sizeof l);
    check(last >= 0 && o->add_audit(st, &e1, err, sizeof err) == 0 &&
              o->add_audit(st, &e2, err, sizeof err) == 0 && flush_ok(st) &&
              o->each_audit(st, last, 10, on_audit, &l, err, sizeof err) == 0 && l.n == 2 &&
              l.a[0].id > last && l.a[1].id > l.a[0].id && strcmp(l.a[0].op, "root") == 0 &&
              strcmp(l.a[1].action, "unban") == 0 && l.a[1].created == 60 &&
              o->audit_last(st, err, sizeof err) == l.a[1].id,
          what, err);

    snprintf(what, sizeof what, "%s: the lines an account wrote, oldest first", b);
    memset(&l, 0, sizeof l);
    check(o->each_chat_by(st, "bob", 100, on_chat_by, &l, err, sizeof err) == 0 && l.n == 2 &&
              strcmp(l.chat[1], "other game") == 0,
          what, err);
    snprintf(what, sizeof what, "%s: retention deletes only chat lines and reports older", b);
    memset(&l, 0, sizeof l);
    int64_t n1 = o->prune(st, 2, err, sizeof err);   /* chat ms < 2000: all four lines */
    int ok1 = n1 == 4 && flush_ok(st) &&
              o->each_chat_by(st, "Bob", 100, on_chat_by, &l, err, sizeof err) == 0 && l.n == 0;
    memset(&l, 0, sizeof l);
    int64_t n2 = o->prune(st, 2500, err, sizeof err);   /* reports before 2500 s: two */
    ok1 = ok1 && n2 == 2 && flush_ok(st) &&
          o->each_report(st, "", 10, on_report, &l, err, sizeof err) == 0 && l.n == 1 &&
          l.r[0].created == 3000;
    check(ok1, what, err);
}

static void conformance(const store_ops *ops, const char *path)
{
    char err[256], what[160];
    const char *b = ops->name;
    store *st = store_open(path, err, sizeof err);
    snprintf(what, sizeof what, "%s: open a new database", b);
    check(st != NULL, what, err);
    if (!st)
        return;
    snprintf(what, sizeof what, "%s: the backend is the one --db names", b);
    check(st->ops == ops && store_backend(path) == ops, what, NULL);
    struct stat sb;
    if (ops == &store_sqlite_ops) {
        snprintf(what, sizeof what, "%s: the database is the server's user's only (0600)", b);
        check(stat(path, &sb) == 0 && (sb.st_mode & 0777) == 0600, what, NULL);
    }

    store_game g;
    fill_game(&g, "AAAAAAAAAAAA", "human", "ai:level=3", STORE_PLAYING);
    store_move m0[2] = {{"accept", 5, 1700000000001}, {"i10-j7:i8,j10", 7, 1700000000002}};
    snprintf(what, sizeof what, "%s: create a game with two moves", b);
    check(store_create_game(st, &g, m0, 2, err, sizeof err) == 0, what, err);
    snprintf(what, sizeof what, "%s: a write waits for the flush", b);
    check(store_pending(st) == 1, what, NULL);
    snprintf(what, sizeof what, "%s: flush", b);
    check(flush_ok(st) && !store_pending(st), what, NULL);

    /* Load once: the row, then the moves, in one pass. */
    loaded l = {0};
    store_game out;
    snprintf(what, sizeof what, "%s: load finds the game", b);
    check(store_load_game(st, "AAAAAAAAAAAA", &out, on_row, on_move, &l, err, sizeof err) == 1,
          what, err);
    snprintf(what, sizeof what, "%s: the row once, then its moves", b);
    check(l.rows == 1 && l.n == 2 && strcmp(l.moves[1], "i10-j7:i8,j10") == 0 && l.ms[0] == 5,
          what, NULL);
    snprintf(what, sizeof what, "%s: the row as stored (options with secrets, seed, seats)", b);
    check(strcmp(out.options, "seed=7") == 0 && out.seed == 7 && out.has_seat[0] &&
              !out.has_seat[1] && out.seat_hash[0][0] == 0x11 &&
              strcmp(out.player[1], "ai:level=3") == 0 && out.resigned == -1,
          what, NULL);
    store_game_done(&out);
    snprintf(what, sizeof what, "%s: an unknown game is 0", b);
    check(store_load_game(st, "BBBBBBBBBBBB", NULL, NULL, NULL, NULL, err, sizeof err) == 0, what,
          NULL);

    /* Append, then a racing duplicate of the same ply: refused, the first kept. */
    store_move m2 = {"veto", 9, 1700000000003};
    snprintf(what, sizeof what, "%s: append ply 2 (computer to act)", b);
    check(store_add_move(st, "AAAAAAAAAAAA", 2, &m2, STORE_COMPUTER, err, sizeof err) == 0, what,
          err);
    store_move dup = {"accept", 1, 1700000000004};
    snprintf(what, sizeof what, "%s: a second move at the same ply is refused as a conflict", b);
    check(store_add_move(st, "AAAAAAAAAAAA", 2, &dup, STORE_PLAYING, err, sizeof err) ==
              STORE_CONFLICT,
          what, NULL);
    snprintf(what, sizeof what, "%s: the batch still commits", b);
    check(flush_ok(st), what, NULL);
    memset(&l, 0, sizeof l);
    store_load_game(st, "AAAAAAAAAAAA", NULL, NULL, on_move, &l, err, sizeof err);
    snprintf(what, sizeof what, "%s: the first move at the ply is the one kept", b);
    check(l.n == 3 && strcmp(l.moves[2], "veto") == 0, what, NULL);

    /* The games whose computer seat is to act. */
    store_game h;
    fill_game(&h, "CCCCCCCCCCCC", "human", "human", STORE_PLAYING);
    store_create_game(st, &h, NULL, 0, err, sizeof err);
    flush_ok(st);
    ids u = {0};
    snprintf(what, sizeof what, "%s: only games with a computer seat to act are listed", b);
    check(store_each_unfinished(st, on_id, &u, err, sizeof err) == 0 && u.n == 1 &&
              strcmp(u.id[0], "AAAAAAAAAAAA") == 0,
          what, NULL);

    /* Undo: forget the moves from a ply on. */
    snprintf(what, sizeof what, "%s: truncate to ply 1", b);
    check(store_truncate(st, "AAAAAAAAAAAA", 1, STORE_PLAYING, err, sizeof err) == 0 &&
              flush_ok(st),
          what, err);
    memset(&l, 0, sizeof l);
    store_load_game(st, "AAAAAAAAAAAA", NULL, NULL, on_move, &l, err, sizeof err);
    snprintf(what, sizeof what, "%s: one move left after the truncate", b);
    check(l.n == 1, what, NULL);
    u.n = 0;
    store_each_unfinished(st, on_id, &u, err, sizeof err);
    snprintf(what, sizeof what, "%s: a person to act: no longer listed", b);
    check(u.n == 0, what, NULL);

    /* Resign. */
    snprintf(what, sizeof what, "%s: resign", b);
    check(store_set_result(st, "CCCCCCCCCCCC", STORE_OVER, 1, err, sizeof err) == 0 &&
              flush_ok(st),
          what, err);
    store_load_game(st, "CCCCCCCCCCCC", &out, NULL, NULL, NULL, err, sizeof err);
    snprintf(what, sizeof what, "%s: the resignation is stored", b);
    check(out.status == STORE_OVER && out.resigned == 1, what, NULL);
    store_game_done(&out);

    /* A rematch: the link is stored once, read back, and never replaced. */
    snprintf(what, sizeof what, "%s: a rematch link is stored", b);
    check(store_set_rematch(st, "CCCCCCCCCCCC", "AAAAAAAAAAAA", err, sizeof err) == 0 &&
              flush_ok(st),
          what, err);
    store_load_game(st, "CCCCCCCCCCCC", &out, NULL, NULL, NULL, err, sizeof err);
    snprintf(what, sizeof what, "%s: the rematch link reads back", b);
    check(strcmp(out.rematch, "AAAAAAAAAAAA") == 0 && out.status == STORE_OVER, what, out.rematch);
    store_game_done(&out);
    snprintf(what, sizeof what, "%s: a second rematch link is refused and changes nothing", b);
    check(store_set_rematch(st, "CCCCCCCCCCCC", "BBBBBBBBBBBB", err, sizeof err) == STORE_CONFLICT, what, NULL);
    flush_ok(st);
    store_load_game(st, "CCCCCCCCCCCC", &out, NULL, NULL, NULL, err, sizeof err);
    check(strcmp(out.rematch, "AAAAAAAAAAAA") == 0, what, out.rematch);
    store_game_done(&out);
    snprintf(what, sizeof what, "%s: a rematch link of an unknown game is refused", b);
    check(store_set_rematch(st, "ZZZZZZZZZZZZ", "AAAAAAAAAAAA", err, sizeof err) != 0, what, NULL);
    flush_ok(st);
    store_load_game(st, "AAAAAAAAAAAA", &out, NULL, NULL, NULL, err, sizeof err);
    snprintf(what, sizeof what, "%s: a game without a rematch reads back none", b);
    check(out.rematch[0] == 0, what, out.rematch);
    store_game_done(&out);

    /* Accounts, sessions, seeks, ratings, a player's games. */
    accounts(st, b);
    bots(st, b);
    mail_checks(st, b);
    tournaments(st, b);
    chat_checks(st, b);
    moderation_checks(st, b);

    /* A game created twice (same id) is refused and changes nothing. */
    snprintf(what, sizeof what, "%s: a second game with the same id is refused", b);
    check(store_create_game(st, &h, NULL, 0, err, sizeof err) != 0, what, NULL);
    flush_ok(st);
    store_close(st);

    /* Reopen: everything committed is there. */
    st = store_open(path, err, sizeof err);
    memset(&l, 0, sizeof l);
    snprintf(what, sizeof what, "%s: reopen keeps every committed write", b);
    check(st && store_load_game(st, "AAAAAAAAAAAA", NULL, NULL, on_move, &l, err, sizeof err) == 1 &&
              l.n == 1,
          what, err);
    store_close(st);
}

/* A crash in the middle of a batch: a child commits one batch, writes a
 * second and is killed before its flush. */
static void crash(const store_ops *ops, const char *path)
{
    char what[160], err[256];
    pid_t pid = fork();
    if (pid == 0) {
        store *st = store_open(path, err, sizeof err);
        if (!st)
            _exit(2);
        store_game g;
        fill_game(&g, "DDDDDDDDDDDD", "human", "human", STORE_PLAYING);
        store_move m = {"accept", 1, 1};
        store_create_game(st, &g, &m, 1, err, sizeof err);
        if (store_flush(st, err, sizeof err) != 0)
            _exit(3);
        store_move m1 = {"i10-j7:i8,j10", 2, 2};
        store_add_move(st, "DDDDDDDDDDDD", 1, &m1, STORE_PLAYING, err, sizeof err);
        kill(getpid(), SIGKILL);   /* before the second batch's flush */
        _exit(4);
    }
    int status = 0;
    waitpid(pid, &status, 0);
    snprintf(what, sizeof what, "%s: the writer died by SIGKILL", ops->name);
    check(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL, what, NULL);
    store *st = store_open(path, err, sizeof err);
    loaded l = {0};
    snprintf(what, sizeof what, "%s: after the crash: the committed batch, not the other", ops->name);
    check(st && store_load_game(st, "DDDDDDDDDDDD", NULL, NULL, on_move, &l, err, sizeof err) == 1 &&
              l.n == 1 && strcmp(l.moves[0], "accept") == 0,
          what, err);
    store_close(st);
}

/* Migrations: a database of schema 1 (before the computer-to-act status)
 * opens at the newest schema, its unfinished games with a computer seat
 * listed for the restart. */
static void migration(const char *path)
{
    char what[160], err[256];
    sqlite3 *db = NULL;
    sqlite3_open(path, &db);
    const char *v1 =
        "CREATE TABLE schema_version (version INTEGER NOT NULL);"
        "INSERT INTO schema_version VALUES (1);"
        "CREATE TABLE games (id TEXT PRIMARY KEY, game TEXT NOT NULL, options TEXT NOT NULL,"
        " seed INTEGER NOT NULL, white TEXT NOT NULL, black TEXT NOT NULL,"
        " created INTEGER NOT NULL, status INTEGER NOT NULL, resigned INTEGER NOT NULL DEFAULT -1);"
        "CREATE INDEX games_status ON games(status);"
        "CREATE TABLE seats (game TEXT NOT NULL REFERENCES games(id), side INTEGER NOT NULL,"
        " token_hash BLOB NOT NULL, PRIMARY KEY (game, side));"
        "CREATE TABLE moves (game TEXT NOT NULL REFERENCES games(id), ply INTEGER NOT NULL,"
        " text TEXT NOT NULL, ms INTEGER NOT NULL, time INTEGER NOT NULL, PRIMARY KEY (game, ply));"
        "INSERT INTO games VALUES ('EEEEEEEEEEEE','urbino','',1,'human','ai',1,0,-1);"
        "INSERT INTO games VALUES ('FFFFFFFFFFFF','urbino','',1,'human','human',1,0,-1);"
        "INSERT INTO games VALUES ('GGGGGGGGGGGG','urbino','',1,'random','ai',1,1,-1);";
    int rc = sqlite3_exec(db, v1, NULL, NULL, NULL);
    sqlite3_close(db);
    check(rc == SQLITE_OK, "sqlite: a schema-1 database made", NULL);
    chmod(path, 0644);
    store *st = store_open(path, err, sizeof err);
    snprintf(what, sizeof what, "sqlite: a schema-1 database opens (migrated)");
    check(st != NULL, what, err);
    if (!st)
        return;
    ids u = {0};
    store_each_unfinished(st, on_id, &u, err, sizeof err);
    check(u.n == 1 && strcmp(u.id[0], "EEEEEEEEEEEE") == 0,
          "sqlite: after the migration the unfinished game with a computer seat is listed", NULL);
    struct stat sb;
    check(stat(path, &sb) == 0 && (sb.st_mode & 0777) == 0600,
          "sqlite: an old database readable by all is made the server's user's only", NULL);
    store_close(st);
    st = store_open(path, err, sizeof err);
    check(st != NULL, "sqlite: the migrated database opens again (migrations run once)", err);
    store_game out;
    check(st && store_load_game(st, "GGGGGGGGGGGG", &out, NULL, NULL, NULL, err, sizeof err) == 1 &&
              out.rematch[0] == 0 && out.local == 0,
          "sqlite: a migrated game reads back with no rematch and not local", err);
    if (st)
        store_game_done(&out);
    store_close(st);
}

/* ---- PostgreSQL ---- */

/* The databases made on the server, dropped at the end. */
typedef struct pgdbs {
    const char *base;   /* TAV_TEST_PG */
    int n;
    char name[16][32];
} pgdbs;

/* A fresh database on the server: its URI in out (base with its database
 * name replaced), 0; -1 when it cannot be made. */
static int pg_newdb(pgdbs *d, char *out, size_t outlen)
{
    if (d->n >= 16)
        return -1;
    char *name = d->name[d->n];
    snprintf(name, sizeof d->name[0], "tav_store_%d_%d", (int)getpid(), d->n);
    PGconn *c = PQconnectdb(d->base);
    char sql[96];
    snprintf(sql, sizeof sql, "CREATE DATABASE %s", name);   /* [a-z0-9_] only */
    PGresult *r = PQstatus(c) == CONNECTION_OK ? PQexec(c, sql) : NULL;
    int ok = r && PQresultStatus(r) == PGRES_COMMAND_OK;
    if (!ok)
        printf("cannot make a database: %s", PQerrorMessage(c));
    PQclear(r);
    PQfinish(c);
    if (!ok)
        return -1;
    d->n++;
    const char *host = strstr(d->base, "://");
    host = host ? host + 3 : d->base;
    size_t end = strcspn(host, "/?");
    const char *query = strchr(host + end, '?');
    snprintf(out, outlen, "%.*s/%s%s", (int)(host - d->base + end), d->base, name,
             query ? query : "");
    return 0;
}

static void pg_dropdbs(pgdbs *d)
{
    PGconn *c = PQconnectdb(d->base);
    for (int i = 0; i < d->n && PQstatus(c) == CONNECTION_OK; i++) {
        char sql[96];
        snprintf(sql, sizeof sql, "DROP DATABASE IF EXISTS %s WITH (FORCE)", d->name[i]);
        PQclear(PQexec(c, sql));
    }
    PQfinish(c);
}

typedef struct heard {
    int n;
    char channel[4][32], payload[4][64];
} heard;

static void on_notify(void *ctx, const char *channel, const char *payload)
{
    heard *h = ctx;
    if (h->n < 4) {
        snprintf(h->channel[h->n], sizeof h->channel[0], "%s", channel);
        snprintf(h->payload[h->n], sizeof h->payload[0], "%s", payload);
    }
    h->n++;
}

/* Wait up to ms for messages (several waits: one may end early). */
static int wait_for(store *st, heard *h, int ms)
{
    char err[256];
    for (int waited = 0; waited < ms && h->n == 0; waited += 100)
        if (st->ops->wait_notify(st, 100, on_notify, h, err, sizeof err) < 0)
            return -1;
    return h->n;
}

/* Notifications join the batch: delivered to a listener on another
 * connection once it commits, never when it is discarded. */
static void pg_notify_checks(const char *uri)
{
    char err[256];
    store *a = store_open(uri, err, sizeof err), *b = store_open(uri, err, sizeof err);
    check(a && b, "postgresql: two connections to one database", err);
    if (!a || !b) {
        store_close(a);
        store_close(b);
        return;
    }
    check(store_shared(a) == 1, "postgresql: the backend is shared (it listens)", NULL);
    const char *chans[] = {"tav_test", "tav_other"};
    check(b->ops->listen(b, chans, 2, err, sizeof err) == 0, "postgresql: listen", err);
    heard h = {0};
    check(store_notify(a, "tav_test", "first", err, sizeof err) == 0 && store_pending(a) == 1,
          "postgresql: a notification joins the open batch", err);
    check(wait_for(b, &h, 300) == 0, "postgresql: nothing is delivered before the flush", NULL);
    check(flush_ok(a), "postgresql: the batch with the notification commits", NULL);
    check(wait_for(b, &h, 5000) == 1 && strcmp(h.channel[0], "tav_test") == 0 &&
              strcmp(h.payload[0], "first") == 0,
          "postgresql: the listener receives it after the flush", h.payload[0]);
    memset(&h, 0, sizeof h);
    check(store_notify(a, "tav_test", "never", err, sizeof err) == 0, "postgresql: a second notification",
          err);
    store_discard(a);
    check(wait_for(b, &h, 400) == 0 && store_pending(a) == 0,
          "postgresql: a discarded batch's notification is never delivered", h.payload[0]);
    /* A write and its notification commit together. */
    store_game g;
    fill_game(&g, "NNNNNNNNNNNN", "human", "human", STORE_PLAYING);
    check(store_create_game(a, &g, NULL, 0, err, sizeof err) == 0 &&
              store_notify(a, "tav_other", "NNNNNNNNNNNN", err, sizeof err) == 0 && flush_ok(a) &&
              wait_for(b, &h, 5000) == 1 && strcmp(h.channel[0], "tav_other") == 0 &&
              store_load_game(b, h.payload[0], NULL, NULL, NULL, NULL, err, sizeof err) == 1,
          "postgresql: the listener reads the game the notification names", err);

    /* Round trips: one move in a batch, and its flush. */
    int64_t t0, t1, t2, out, in;
    a->ops->stats(a, &t0, &out, &in);
    store_move m = {"accept", 1, 1};
    store_add_move(a, "NNNNNNNNNNNN", 0, &m, STORE_PLAYING, err, sizeof err);
    a->ops->stats(a, &t1, NULL, NULL);
    store_move m1 = {"veto", 1, 2};
    store_add_move(a, "NNNNNNNNNNNN", 1, &m1, STORE_PLAYING, err, sizeof err);
    flush_ok(a);
    a->ops->stats(a, &t2, NULL, NULL);
    store_load_game(a, "NNNNNNNNNNNN", NULL, NULL, NULL, NULL, err, sizeof err);
    a->ops->stats(a, NULL, &out, &in);
    printf("postgresql: round trips: the first move of a batch %lld, the next with the flush %lld"
           " (%lld bytes out, %lld in so far)\n",
           (long long)(t1 - t0), (long long)(t2 - t1), (long long)out, (long long)in);
    check(t0 > 0 && out > 0 && in > 0 && t1 - t0 >= 2 && t2 - t1 >= 2 && t2 - t1 <= 4,
          "postgresql: round trips and bytes are counted", NULL);

    /* A move's base (writer.c's delta): the row's stamp just before the
     * move, as the last writer left it, even when that writer was another
     * connection after this one last looked; a second move in one batch
     * builds on the first. */
    int64_t s0 = 0, s1 = 0, s2 = 0, base = 0, base2 = 0;
    check(a->ops->game_stamp(a, "NNNNNNNNNNNN", &s0, err, sizeof err) == 1 && s0 > 0,
          "postgresql: a game's stamp", err);
    store_move m2 = {"accept", 1, 3};
    check(store_add_move(a, "NNNNNNNNNNNN", 2, &m2, STORE_PLAYING, err, sizeof err) == 0 &&
              a->ops->move_base(a, "NNNNNNNNNNNN", &base) == 1 && base == s0 &&
              a->ops->move_base(a, "OTHEROTHEROT", &base2) == 0,
          "postgresql: a move's base is the stamp before it (and only for its game)", err);
    check(flush_ok(a) && a->ops->game_stamp(a, "NNNNNNNNNNNN", &s1, err, sizeof err) == 1 && s1 != s0,
          "postgresql: the move moved the stamp", err);
    check(store_set_result(b, "NNNNNNNNNNNN", STORE_PLAYING, -1, err, sizeof err) == 0 && flush_ok(b) &&
              b->ops->game_stamp(b, "NNNNNNNNNNNN", &s2, err, sizeof err) == 1 && s2 != s1,
          "postgresql: another connection writes the game", err);
    store_move m3 = {"veto", 1, 4}, m4 = {"accept", 1, 5};
    base = base2 = 0;
    int ok3 = store_add_move(a, "NNNNNNNNNNNN", 3, &m3, STORE_PLAYING, err, sizeof err) == 0 &&
              a->ops->move_base(a, "NNNNNNNNNNNN", &base) == 1;
    int ok4 = store_add_move(a, "NNNNNNNNNNNN", 4, &m4, STORE_PLAYING, err, sizeof err) == 0 &&
              a->ops->move_base(a, "NNNNNNNNNNNN", &base2) == 1;
    check(ok3 && base == s2, "postgresql: the base is the other connection's stamp, not the one seen last here",
          err);
    /* (Each write of a batch is a savepoint of its own: its stamp is its
     * subtransaction's, so the second move's base is the first's stamp.) */
    check(ok4 && flush_ok(a) && a->ops->game_stamp(a, "NNNNNNNNNNNN", &s1, err, sizeof err) == 1 &&
              base2 > s2 && base2 < s1,
          "postgresql: a second move in one batch builds on the first one's stamp", NULL);
    store_close(a);
    store_close(b);
}

/* Claims: held by one connection, refused to another, released by
 * release_claim or when the holder's connection ends. */
static void pg_claim_checks(const char *uri)
{
    char err[256];
    store *a = store_open(uri, err, sizeof err), *b = store_open(uri, err, sizeof err);
    if (!a || !b) {
        check(0, "postgresql: two connections for the claims", err);
        store_close(a);
        store_close(b);
        return;
    }
    check(store_try_claim(a, "game:AAAA", err, sizeof err) == 1, "postgresql: a claim is taken", err);
    check(store_try_claim(a, "game:AAAA", err, sizeof err) == 1,
          "postgresql: claiming it again on the same connection answers 1", err);
    check(store_try_claim(b, "game:AAAA", err, sizeof err) == 0,
          "postgresql: another connection is refused the claim", err);
    check(store_try_claim(b, "game:BBBB", err, sizeof err) == 1,
          "postgresql: another key is free", err);
    store_release_claim(a, "game:AAAA");
    check(store_try_claim(b, "game:AAAA", err, sizeof err) == 1,
          "postgresql: released once (held once), the other connection gets it", err);
    check(store_try_claim(a, "game:AAAA", err, sizeof err) == 0,
          "postgresql: and the first is refused it now", err);
    check(store_try_claim(a, "game:CCCC", err, sizeof err) == 1, "postgresql: a third claim", err);
    store_close(a);
    int got = 0;
    for (int i = 0; i < 50 && got != 1; i++) {
        got = store_try_claim(b, "game:CCCC", err, sizeof err);
        if (got != 1)
            nanosleep(&(struct timespec){0, 100000000}, NULL);
    }
    check(got == 1, "postgresql: a closed connection's claims are free", err);
    store_close(b);
}

/* Bytes from outside that PostgreSQL would refuse (not UTF-8) answer "not
 * found" without spoiling the open batch; a negative limit is none. */
static void pg_input_checks(const char *uri)
{
    char err[256];
    store *st = store_open(uri, err, sizeof err);
    if (!st) {
        check(0, "postgresql: open for the input checks", err);
        return;
    }
    store_game g;
    fill_game(&g, "UUUUUUUUUUUU", "human", "human", STORE_PLAYING);
    store_account a;
    lines L = {0};
    check(store_create_game(st, &g, NULL, 0, err, sizeof err) == 0 &&
              st->ops->get_account(st, "\xff\xfe", &a, err, sizeof err) == 0 &&
              store_load_game(st, "\xc3\x28", NULL, NULL, NULL, NULL, err, sizeof err) == 0 &&
              st->ops->player_games(st, "ab\xed\xa0\x80", 10, count_pgame, &L, err, sizeof err) == 0 &&
              flush_ok(st) &&
              store_load_game(st, "UUUUUUUUUUUU", NULL, NULL, NULL, NULL, err, sizeof err) == 1,
          "postgresql: text that is not UTF-8 is not found, and the batch commits", err);
    store_move m = {"bad\xffmove", 1, 1};
    check(store_add_move(st, "UUUUUUUUUUUU", 0, &m, STORE_PLAYING, err, sizeof err) == -1 &&
              flush_ok(st),
          "postgresql: a write of text that is not UTF-8 is refused alone", err);
    store_account acc = {"Carol_3", "$x", 1, "", 0, 0, 0};
    st->ops->create_account(st, &acc, err, sizeof err);
    flush_ok(st);
    snprintf(g.id, sizeof g.id, "VVVVVVVVVVVV");
    snprintf(g.account[0], STORE_NAME_LEN, "carol_3");
    store_create_game(st, &g, NULL, 0, err, sizeof err);
    flush_ok(st);
    L.n = 0;
    check(st->ops->player_games(st, "CAROL_3", -1, count_pgame, &L, err, sizeof err) == 0 && L.n == 1,
          "postgresql: a negative limit is none; accounts match ignoring case", err);
    store_close(st);
}

/* Several instances opening a new database at once: one migrates, the
 * others wait for it and find the schema made. */
static void pg_concurrent_open(const char *uri)
{
    pid_t kids[4];
    for (int i = 0; i < 4; i++) {
        kids[i] = fork();
        if (kids[i] == 0) {
            char err[256];
            store *st = store_open(uri, err, sizeof err);
            if (!st) {
                printf("child: %s\n", err);
                _exit(1);
            }
            int rc = store_load_game(st, "XXXXXXXXXXXX", NULL, NULL, NULL, NULL, err, sizeof err);
            store_close(st);
            _exit(rc == 0 ? 0 : 2);
        }
    }
    int ok = 1;
    for (int i = 0; i < 4; i++) {
        int status = 0;
        waitpid(kids[i], &status, 0);
        ok = ok && WIFEXITED(status) && WEXITSTATUS(status) == 0;
    }
    check(ok, "postgresql: four instances opening a new database at once all succeed", NULL);
}

/* No password from the URI in any message. */
static void pg_password_checks(const char *uri)
{
    char err[512] = "", bad[512];
    const char *pw = "Sup3rSecretPw";
    snprintf(bad, sizeof bad, "postgresql://tav:%s@127.0.0.1:1/nodb", pw);
    store *st = store_open(bad, err, sizeof err);
    check(!st && err[0] && !strstr(err, pw), "postgresql: a refused connection's message hides the password", err);
    store_close(st);
    snprintf(bad, sizeof bad, "postgresql://tav:%s@127.0.0.1:1/nodb?sslmode=%%zz%s", pw, pw);
    st = store_open(bad, err, sizeof err);
    check(!st && err[0] && !strstr(err, pw), "postgresql: an unparsable URI's message hides the password", err);
    store_close(st);
    (void)uri;
}

/* The database restarts: every call answers -1 while it is down (an open
 * batch is reported failed by flush), then the store works again by
 * itself. */
static void pg_restart_checks(const char *uri, const char *dir)
{
    char err[512], cmd[600];
    /* The password is ignored (trust), but must not appear in messages. */
    char withpw[512];
    const char *at = strstr(uri, "://");
    const char *pw = "Sup3rSecretPw";
    snprintf(withpw, sizeof withpw, "postgresql://tav:%s@%s", pw, strchr(at + 3, '@') ? strchr(at + 3, '@') + 1 : at + 3);
    store *st = store_open(withpw, err, sizeof err);
    store *l = store_open(uri, err, sizeof err);
    check(st && l, "postgresql: open before the restart", err);
    if (!st || !l) {
        store_close(st);
        store_close(l);
        return;
    }
    const char *chans[] = {"tav_restart"};
    l->ops->listen(l, chans, 1, err, sizeof err);
    store_game g;
    fill_game(&g, "RRRRRRRRRRRR", "human", "human", STORE_PLAYING);
    store_move m = {"accept", 1, 1};
    check(store_create_game(st, &g, &m, 1, err, sizeof err) == 0 && flush_ok(st),
          "postgresql: a game before the restart", err);
    store_move m1 = {"veto", 2, 2};
    check(store_add_move(st, "RRRRRRRRRRRR", 1, &m1, STORE_PLAYING, err, sizeof err) == 0,
          "postgresql: a move in a batch left open", err);
    snprintf(cmd, sizeof cmd, "sh scripts/pg-throwaway.sh down '%s'", dir);
    check(system(cmd) == 0, "postgresql: the database stops", cmd);
    err[0] = 0;
    int r1 = store_load_game(st, "RRRRRRRRRRRR", NULL, NULL, NULL, NULL, err, sizeof err);
    check(r1 == -1 && err[0] && !strstr(err, pw), "postgresql: while it is down a read answers -1",
          err);
    err[0] = 0;
    int r2 = store_load_game(st, "RRRRRRRRRRRR", NULL, NULL, NULL, NULL, err, sizeof err);
    check(r2 == -1 && err[0] && !strstr(err, pw), "postgresql: and again (the reset fails)", err);
    store_move m2 = {"veto", 3, 3};
    check(store_add_move(st, "RRRRRRRRRRRR", 1, &m2, STORE_PLAYING, err, sizeof err) == -1,
          "postgresql: a write answers -1", NULL);
    check(store_flush(st, err, sizeof err) == -1 && !store_pending(st),
          "postgresql: the batch open when it went down is reported failed by flush", err);
    snprintf(cmd, sizeof cmd, "sh scripts/pg-throwaway.sh up '%s'", dir);
    check(system(cmd) == 0, "postgresql: the database starts again", cmd);
    loaded ld = {0};
    int r3 = store_load_game(st, "RRRRRRRRRRRR", NULL, NULL, on_move, &ld, err, sizeof err);
    check(r3 == 1 && ld.n == 1, "postgresql: the store works again: the committed move, not the lost one",
          err);
    check(store_add_move(st, "RRRRRRRRRRRR", 1, &m1, STORE_PLAYING, err, sizeof err) == 0 &&
              store_add_move(st, "RRRRRRRRRRRR", 1, &m2, STORE_PLAYING, err, sizeof err) ==
                  STORE_CONFLICT &&
              store_notify(st, "tav_restart", "back", err, sizeof err) == 0 && flush_ok(st),
          "postgresql: writes and conflicts after the restart", err);
    memset(&ld, 0, sizeof ld);
    store_load_game(st, "RRRRRRRRRRRR", NULL, NULL, on_move, &ld, err, sizeof err);
    check(ld.n == 2 && strcmp(ld.moves[1], "veto") == 0, "postgresql: the new move reads back", NULL);
    /* The listener: told the connection was lost, then listening again. */
    heard h = {0};
    int lostseen = 0;
    for (int i = 0; i < 50 && h.n == 0; i++) {
        int rc = l->ops->wait_notify(l, 100, on_notify, &h, err, sizeof err);
        if (rc < 0)
            lostseen = 1;
    }
    check(lostseen, "postgresql: the listener is told its connection was lost", NULL);
    memset(&h, 0, sizeof h);
    check(store_notify(st, "tav_restart", "again", err, sizeof err) == 0 && flush_ok(st) &&
              wait_for(l, &h, 5000) == 1 && strcmp(h.payload[0], "again") == 0,
          "postgresql: the listener listens again after the restart", h.payload[0]);
    store_close(st);
    store_close(l);
}

int main(void)
{
    char dir[] = "/tmp/tav-store-XXXXXX";
    if (!mkdtemp(dir)) {
        printf("no temporary folder\n0 passed, 1 failed\n");
        return 1;
    }
    const store_ops *backends[] = {&store_sqlite_ops};
    for (size_t i = 0; i < sizeof backends / sizeof backends[0]; i++) {
        char path[256];
        snprintf(path, sizeof path, "%s/%s-1.db", dir, backends[i]->name);
        conformance(backends[i], path);
        snprintf(path, sizeof path, "%s/%s-2.db", dir, backends[i]->name);
        crash(backends[i], path);
    }
    char path[256];
    snprintf(path, sizeof path, "%s/old.db", dir);
    migration(path);
    check(store_backend("postgresql://u@h/db") == &store_pg_ops &&
              store_backend("postgres://u@h/db") == &store_pg_ops &&
              store_backend("postgres.db") == &store_sqlite_ops,
          "a URI names PostgreSQL, anything else an SQLite file", NULL);
    static const char *const labels[][2] = {
        {"postgresql://tav:s3cret@db.example:5432/tav?sslmode=require",
         "postgresql://tav:***@db.example:5432/tav?sslmode=require"},
        {"postgres://u:p@ss@h/d", "postgres://u:***@h/d"},
        {"postgresql://h/d?user=u&password=s3cret&sslmode=verify-full",
         "postgresql://h/d?user=u&password=***&sslmode=verify-full"},
        {"postgresql://tav@127.0.0.1:5432/postgres", "postgresql://tav@127.0.0.1:5432/postgres"},
        {"/var/lib/tav/password=x.db", "/var/lib/tav/password=x.db"},
    };
    for (size_t i = 0; i < sizeof labels / sizeof labels[0]; i++) {
        char label[256];
        store_db_label(labels[i][0], label, sizeof label);
        check(strcmp(label, labels[i][1]) == 0, "a --db shown has its password masked", label);
    }
    pgdbs pg = {getenv("TAV_TEST_PG"), 0, {{0}}};
    if (pg.base && pg.base[0]) {
        char uri[4][512];
        int ok = 1;
        for (int i = 0; i < 4 && ok; i++)
            ok = pg_newdb(&pg, uri[i], sizeof uri[i]) == 0;
        check(ok, "postgresql: fresh databases on the test server", pg.base);
        if (ok) {
            conformance(&store_pg_ops, uri[0]);
            crash(&store_pg_ops, uri[1]);
            pg_notify_checks(uri[2]);
            pg_claim_checks(uri[2]);
            pg_input_checks(uri[2]);
            pg_concurrent_open(uri[3]);
            pg_password_checks(uri[0]);
            const char *pgdir = getenv("TAV_TEST_PG_DIR");
            if (pgdir && pgdir[0])
                pg_restart_checks(uri[2], pgdir);
            else
                printf("postgresql: no TAV_TEST_PG_DIR: the restart checks are skipped\n");
        }
        pg_dropdbs(&pg);
    }
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    if (system(cmd) != 0)
        printf("could not remove %s\n", dir);
    printf("%d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}
