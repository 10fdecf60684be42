/*
 * accounts.c — accounts and their sessions (SPEC "Accounts"): sign up, sign
 * in, sign out, change the password, and which account a session token
 * stands for.
 *
 * Passwords are hashed with Argon2id (libsodium's crypto_pwhash_str, its
 * "interactive" limits: about 0.1 s and 64 MiB a hash) on the slow thread,
 * never on the loop, one at a time; at most CORE_PW_QUEUE wait.  A session
 * token is 32 random bytes; only its hash is stored, with its expiry.
 * Failed sign-ins are counted per name (SPEC: the 11th within 10 minutes is
 * 429 whatever the address) and per address; an unknown name costs the
 * same hash as a known one and gets the same answer.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include "server/core/internal.h"
#include "server/core/writer.h"

int core_name_ok(const char *name)
{
    size_t n = strlen(name);
    if (n < CORE_NAME_MIN || n > CORE_NAME_MAX)
        return 0;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)name[i];
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
              c == '_' || c == '-'))
            return 0;
    }
    return 1;
}

static void lower(const char *name, char out[STORE_NAME_LEN])
{
    size_t i = 0;
    for (; name[i] && i + 1 < STORE_NAME_LEN; i++)
        out[i] = (char)tolower((unsigned char)name[i]);
    out[i] = 0;
}

/* ---- failed sign-ins ---- */

static unsigned name_slot(const char *key)
{
    unsigned h = 2166136261u;
    for (const char *p = key; *p; p++)
        h = (h ^ (unsigned char)*p) * 16777619u;
    return h % CORE_FAIL_SLOTS;
}

/* The failures remembered for a name (made when `make`), or NULL. */
static login_fails *fails_of(core *C, const char *name, int make)
{
    char key[STORE_NAME_LEN];
    lower(name, key);
    int64_t now = core_unix_ms() / 1000;
    unsigned h = name_slot(key);
    login_fails *stale = NULL;
    for (int i = 0; i < 8; i++) {
        login_fails *f = &C->fails[(h + (unsigned)i) % CORE_FAIL_SLOTS];
        if (strcmp(f->key, key) == 0)
            return f;
        int64_t newest = f->n ? f->t[(f->n - 1) % CORE_LOGIN_FAILS] : 0;
        if (!stale && (!f->key[0] || now - newest > CORE_LOGIN_WINDOW))
            stale = f;
    }
    if (!make)
        return NULL;
    if (!stale)
        stale = &C->fails[h];   /* all eight busy: the name's own slot */
    memset(stale, 0, sizeof *stale);
    memcpy(stale->key, key, sizeof stale->key);
    return stale;
}

/* The name's failures within the window. */
static int recent_fails(core *C, const char *name)
{
    login_fails *f = fails_of(C, name, 0);
    if (!f)
        return 0;
    int64_t now = core_unix_ms() / 1000;
    int k = 0, n = f->n < CORE_LOGIN_FAILS ? f->n : CORE_LOGIN_FAILS;
    for (int i = 0; i < n; i++)
        k += now - f->t[i] <= CORE_LOGIN_WINDOW;
    return k;
}

static void note_fail(core *C, peer *by, const char *name)
{
    login_fails *f = fails_of(C, name, 1);
    int64_t now = core_unix_ms() / 1000;
    f->t[f->n % CORE_LOGIN_FAILS] = now;
    f->n++;
    if (by) {
        if (now - by->fail_since > CORE_LOGIN_WINDOW) {
            by->fail_since = now;
            by->fails = 0;
        }
        by->fails++;
    }
}

void core_login_failed_elsewhere(core *C, const char *name)
{
    if (core_name_ok(name))
        note_fail(C, NULL, name);
}

static int addr_blocked(core *C, peer *by)
{
    if (!by || !peer_limited(C, by))
        return 0;
    int64_t now = core_unix_ms() / 1000;
    return now - by->fail_since <= CORE_LOGIN_WINDOW && by->fails >= CORE_ADDR_LOGIN_FAILS;
}

/* ---- the slow thread's part ---- */

/* On the slow thread: the hash, or its check. */
static void accounts_work(job *j)
{
    if (j->kind == JOB_SIGNUP) {
        j->ok = crypto_pwhash_str(j->pwhash, j->secret, strlen(j->secret),
                                  crypto_pwhash_OPSLIMIT_INTERACTIVE,
                                  crypto_pwhash_MEMLIMIT_INTERACTIVE) == 0;
        return;
    }
    if (!j->pwhash[0]) {
        /* An unknown name: the same work as a known one, and no. */
        char dummy[STORE_PWHASH_LEN];
        if (crypto_pwhash_str(dummy, j->secret, strlen(j->secret),
                              crypto_pwhash_OPSLIMIT_INTERACTIVE,
                              crypto_pwhash_MEMLIMIT_INTERACTIVE) == 0)
            sodium_memzero(dummy, sizeof dummy);
        j->ok = 0;
        return;
    }
    j->ok = crypto_pwhash_str_verify(j->pwhash, j->secret, strlen(j->secret)) == 0;
    if (j->ok && j->kind == JOB_PASSWORD)
        j->ok = crypto_pwhash_str(j->pwhash, j->secret2, strlen(j->secret2),
                                  crypto_pwhash_OPSLIMIT_INTERACTIVE,
                                  crypto_pwhash_MEMLIMIT_INTERACTIVE) == 0;
}

/* ---- writes ---- */

typedef struct acct_write {
    store_account a;          /* sign-up: the account */
    int make_account;
    unsigned char hash[STORE_HASH_LEN];   /* the session's token hash */
    int64_t now, expires;
    int make_session;         /* 1 make it, 0 none, -1 end it */
    int set_password;
    char key[STORE_NAME_LEN]; /* sign-up: the pending name to forget once settled */
} acct_write;

static int acct_apply(store *st, const void *data, char *err, size_t errlen)
{
    const acct_write *w = data;
    int rc = 0;
    if (w->make_account)
        rc = st->ops->create_account(st, &w->a, err, errlen);
    if (rc == 0 && w->set_password)
        rc = st->ops->set_password(st, w->a.name, w->a.pwhash, err, errlen);
    if (rc == 0 && w->make_session > 0)
        rc = st->ops->create_session(st, w->hash, w->a.name, w->now, w->expires, err, errlen);
    if (rc == 0 && w->make_session < 0)
        rc = st->ops->delete_session(st, w->hash, err, errlen);
    return rc;
}

static void acct_settled(core *C, const void *data, int ok)
{
    const acct_write *w = data;
    (void)ok;
    for (int i = 0; w->key[0] && i < CORE_PW_QUEUE; i++)
        if (strcmp(C->pending_names[i], w->key) == 0) {
            C->pending_names[i][0] = 0;
            break;
        }
}

static int name_pending(core *C, const char *key)
{
    for (int i = 0; i < CORE_PW_QUEUE; i++)
        if (C->pending_names[i][0] && strcmp(C->pending_names[i], key) == 0)
            return 1;
    return 0;
}

/* A new session for the account: its token in r->token, its write queued. */
static int new_session(core *C, acct_write *w, core_signed *r)
{
    core_random_b64(r->token, 32);
    core_token_hash(r->token, w->hash);
    w->now = core_unix_ms() / 1000;
    w->expires = w->now + CORE_SESSION_SECS;
    w->make_session = 1;
    int rc = wq_call(C, acct_apply, acct_settled, w, sizeof *w);
    sodium_memzero(w->hash, sizeof w->hash);
    return rc;
}

/* ---- on the loop ---- */

static void accounts_done(core *C, job *j);

static job *pw_job(core *C, int kind, peer *by, void *waiter, const char *name, const char *pw,
                   const char *pw2)
{
    job *j = calloc(1, sizeof *j);
    if (!j)
        return NULL;
    j->secret = strdup(pw);
    j->secret2 = pw2 ? strdup(pw2) : NULL;
    if (!j->secret || (pw2 && !j->secret2)) {
        free(j->secret);
        free(j->secret2);
        free(j);
        return NULL;
    }
    j->kind = kind;
    j->by = by;
    j->waiter = waiter;
    j->work = accounts_work;
    j->done = accounts_done;
    snprintf(j->name, sizeof j->name, "%s", name);
    C->pw_out++;
    return j;
}

core_status core_signup(core *C, peer *by, void *waiter, const char *name, const char *password,
                        job **handle, char *err, size_t errlen)
{
    *handle = NULL;
    size_t pl = strlen(password);
    if (!core_name_ok(name)) {
        snprintf(err, errlen, "a name is %d to %d of A-Z a-z 0-9 _ -", CORE_NAME_MIN,
                 CORE_NAME_MAX);
        return CORE_BAD;
    }
    if (pl < CORE_PASSWORD_MIN || pl > CORE_PASSWORD_MAX) {
        snprintf(err, errlen, "a password is %d to %d bytes", CORE_PASSWORD_MIN,
                 CORE_PASSWORD_MAX);
        return CORE_BAD;
    }
    char key[STORE_NAME_LEN];
    lower(name, key);
    if (strncmp(key, "computer-", 9) == 0) {
        snprintf(err, errlen, "names Computer-... are the computer's");
        return CORE_CONFLICT;
    }
    store_account a;
    char e[256];
    int found = C->st->ops->get_account(C->st, name, &a, e, sizeof e);
    if (found < 0) {
        snprintf(err, errlen, "the accounts could not be read");
        return CORE_UNAVAILABLE;
    }
    if (found || name_pending(C, key)) {
        snprintf(err, errlen, "the name is taken");
        return CORE_CONFLICT;
    }
    int64_t hour = core_unix_ms() / 3600000;
    if (by && peer_limited(C, by)) {
        if (by->signup_hour != hour) {
            by->signup_hour = hour;
            by->signups = 0;
        }
        if (by->signups >= CORE_SIGNUPS_PER_HOUR) {
            snprintf(err, errlen, "at most %d new accounts an hour per address",
                     CORE_SIGNUPS_PER_HOUR);
            return CORE_LIMIT;
        }
    }
    int slot = -1;
    for (int i = 0; i < CORE_PW_QUEUE && slot < 0; i++)
        if (!C->pending_names[i][0])
            slot = i;
    if (slot < 0 || C->pw_out >= CORE_PW_QUEUE) {
        snprintf(err, errlen, "the server is busy: try again shortly");
        return CORE_UNAVAILABLE;
    }
    job *j = pw_job(C, JOB_SIGNUP, by, waiter, name, password, NULL);
    if (!j) {
        snprintf(err, errlen, "out of memory");
        return CORE_UNAVAILABLE;
    }
    memcpy(C->pending_names[slot], key, sizeof key);
    if (by && peer_limited(C, by))
        by->signups++;
    core_slow_submit(C, j);
    *handle = j;
    return CORE_PENDING;
}

core_status core_login(core *C, peer *by, void *waiter, const char *name, const char *password,
                       job **handle, char *err, size_t errlen)
{
    *handle = NULL;
    if (strlen(name) > CORE_NAME_MAX || strlen(password) > CORE_PASSWORD_MAX) {
        snprintf(err, errlen, "wrong name or password");
        return CORE_FORBIDDEN;
    }
    if (recent_fails(C, name) >= CORE_LOGIN_FAILS) {
        snprintf(err, errlen, "too many failed sign-ins for this name: wait a few minutes");
        return CORE_LIMIT;
    }
    if (addr_blocked(C, by)) {
        snprintf(err, errlen, "too many failed sign-ins from this address: wait a few minutes");
        return CORE_LIMIT;
    }
    if (C->pw_out >= CORE_PW_QUEUE) {
        snprintf(err, errlen, "the server is busy: try again shortly");
        return CORE_UNAVAILABLE;
    }
    store_account a;
    char e[256];
    int found = core_name_ok(name) ? C->st->ops->get_account(C->st, name, &a, e, sizeof e) : 0;
    if (found < 0) {
        snprintf(err, errlen, "the accounts could not be read");
        return CORE_UNAVAILABLE;
    }
    job *j = pw_job(C, JOB_LOGIN, by, waiter, found ? a.name : name, password, NULL);
    if (!j) {
        snprintf(err, errlen, "out of memory");
        return CORE_UNAVAILABLE;
    }
    if (found)
        memcpy(j->pwhash, a.pwhash, sizeof j->pwhash);
    sodium_memzero(&a, sizeof a);
    core_slow_submit(C, j);
    *handle = j;
    return CORE_PENDING;
}

core_status core_password(core *C, const char *name, void *waiter, const char *old_pw,
                          const char *new_pw, job **handle, char *err, size_t errlen)
{
    *handle = NULL;
    size_t pl = strlen(new_pw);
    if (pl < CORE_PASSWORD_MIN || pl > CORE_PASSWORD_MAX) {
        snprintf(err, errlen, "a password is %d to %d bytes", CORE_PASSWORD_MIN,
                 CORE_PASSWORD_MAX);
        return CORE_BAD;
    }
    if (recent_fails(C, name) >= CORE_LOGIN_FAILS) {
        snprintf(err, errlen, "too many failed sign-ins for this name: wait a few minutes");
        return CORE_LIMIT;
    }
    store_account a;
    char e[256];
    if (C->pw_out >= CORE_PW_QUEUE ||
        C->st->ops->get_account(C->st, name, &a, e, sizeof e) != 1) {
        snprintf(err, errlen, "the server is busy: try again shortly");
        return CORE_UNAVAILABLE;
    }
    job *j = pw_job(C, JOB_PASSWORD, NULL, waiter, a.name, old_pw, new_pw);
    if (!j) {
        snprintf(err, errlen, "out of memory");
        return CORE_UNAVAILABLE;
    }
    memcpy(j->pwhash, a.pwhash, sizeof j->pwhash);
    sodium_memzero(&a, sizeof a);
    core_slow_submit(C, j);
    *handle = j;
    return CORE_PENDING;
}

static void accounts_done(core *C, job *j)
{
    C->pw_out--;
    core_signed r;
    memset(&r, 0, sizeof r);
    snprintf(r.name, sizeof r.name, "%s", j->name);
    acct_write w;
    memset(&w, 0, sizeof w);
    snprintf(w.a.name, sizeof w.a.name, "%s", j->name);
    if (j->kind == JOB_SIGNUP) {
        lower(j->name, w.key);
        if (!j->ok || C->stopping) {
            r.status = CORE_UNAVAILABLE;
            snprintf(r.err, sizeof r.err, "the password could not be hashed");
            acct_settled(C, &w, 0);
        } else {
            memcpy(w.a.pwhash, j->pwhash, sizeof w.a.pwhash);
            w.a.created = core_unix_ms() / 1000;
            w.make_account = 1;
            r.status = new_session(C, &w, &r) == 0 ? CORE_CREATED : CORE_UNAVAILABLE;
            if (r.status != CORE_CREATED) {
                acct_settled(C, &w, 0);
                snprintf(r.err, sizeof r.err, "the account could not be stored");
            }
        }
    } else if (!j->ok) {
        note_fail(C, j->by, j->name);
        if (C->shared && core_name_ok(j->name)) {
            /* Many instances: the others count it too (SPEC: 10 failures of a
             * name, whatever the address, whichever instance). */
            char told[STORE_NAME_LEN + 8];
            snprintf(told, sizeof told, "fail %s", j->name);
            wq_notify(C, CORE_CH_ACCOUNT, told);
        }
        r.status = CORE_FORBIDDEN;
        snprintf(r.err, sizeof r.err, "wrong name or password");
    } else {
        if (j->kind == JOB_PASSWORD) {
            memcpy(w.a.pwhash, j->pwhash, sizeof w.a.pwhash);
            w.set_password = 1;
        }
        r.status = new_session(C, &w, &r) == 0 ? CORE_OK : CORE_UNAVAILABLE;
        if (r.status != CORE_OK)
            snprintf(r.err, sizeof r.err, "the session could not be stored");
    }
    sodium_memzero(&w, sizeof w);
    if (j->waiter && C->ev.account_done && !C->stopping)
        C->ev.account_done(C->ev.ctx, j->waiter, &r);
    sodium_memzero(&r, sizeof r);
    if (j->secret) {
        sodium_memzero(j->secret, strlen(j->secret));
        free(j->secret);
    }
    if (j->secret2) {
        sodium_memzero(j->secret2, strlen(j->secret2));
        free(j->secret2);
    }
    sodium_memzero(j->pwhash, sizeof j->pwhash);
    free(j);
}

core_status core_logout(core *C, const char *token)
{
    acct_write w;
    memset(&w, 0, sizeof w);
    core_token_hash(token, w.hash);
    w.make_session = -1;
    int rc = wq_call(C, acct_apply, acct_settled, &w, sizeof w);
    sodium_memzero(&w, sizeof w);
    return rc == 0 ? CORE_OK : CORE_UNAVAILABLE;
}

int core_session(core *C, const char *token, char name[STORE_NAME_LEN])
{
    if (!token || !token[0] || strlen(token) > 64)
        return 0;
    unsigned char h[STORE_HASH_LEN];
    core_token_hash(token, h);
    char e[256];
    int rc = C->st->ops->get_session(C->st, h, core_unix_ms() / 1000, name, e, sizeof e);
    return rc == 1;
}

/* ---- an account's sessions (its account page lists them, ends others) ---- */

typedef struct sess_ctx {
    unsigned char current[STORE_HASH_LEN];
    int has_current;
    const char *want;          /* core_end_session: the id sought */
    unsigned char found[STORE_HASH_LEN];
    int hit;
    void (*fn)(void *ctx, const char *id, int64_t created, int64_t expires, int current);
    void *ctx;
} sess_ctx;

/* A session's id for people: its hash's first 8 bytes in hex (the hash of
 * a secret, not the secret). */
static void session_id(const unsigned char *hash, char out[17])
{
    sodium_bin2hex(out, 17, hash, 8);
}

static int sess_each(void *ctx, const unsigned char *hash, int64_t created, int64_t expires)
{
    sess_ctx *x = ctx;
    char id[17];
    session_id(hash, id);
    if (x->want) {
        if (strcmp(id, x->want) == 0) {
            memcpy(x->found, hash, STORE_HASH_LEN);
            x->hit = 1;
            return 1;
        }
        return 0;
    }
    x->fn(x->ctx, id, created, expires,
          x->has_current && sodium_memcmp(hash, x->current, STORE_HASH_LEN) == 0);
    return 0;
}

int core_sessions(core *C, const char *name, const char *token,
                  void (*fn)(void *ctx, const char *id, int64_t created, int64_t expires,
                             int current),
                  void *ctx)
{
    sess_ctx x;
    memset(&x, 0, sizeof x);
    if (token) {
        core_token_hash(token, x.current);
        x.has_current = 1;
    }
    x.fn = fn;
    x.ctx = ctx;
    char err[256];
    return C->st->ops->each_session(C->st, name, core_unix_ms() / 1000, sess_each, &x, err,
                                    sizeof err);
}

core_status core_end_session(core *C, const char *name, const char *id)
{
    sess_ctx x;
    memset(&x, 0, sizeof x);
    x.want = id;
    char err[256];
    if (strlen(id) != 16 ||
        C->st->ops->each_session(C->st, name, core_unix_ms() / 1000, sess_each, &x, err,
                                 sizeof err) != 0)
        return CORE_NOTFOUND;
    if (!x.hit)
        return CORE_NOTFOUND;
    acct_write w;
    memset(&w, 0, sizeof w);
    memcpy(w.hash, x.found, sizeof w.hash);
    w.make_session = -1;
    int rc = wq_call(C, acct_apply, acct_settled, &w, sizeof w);
    sodium_memzero(&w, sizeof w);
    return rc == 0 ? CORE_OK : CORE_UNAVAILABLE;
}
