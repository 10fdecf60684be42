/*
 * accounts.c — accounts and their sessions (SPEC "Accounts"): sign up, sign
 * in, sign out, change the password, and which account a session token
 * stands for.
 *
 * Passwords are hashed with Argon2id (libsodium's crypto_pwhash_str, its
 * "interactive" limits: about 0.1 s and 64 MiB a hash) on the slow thread,
 * never on the loop, one at a time; at most CORE_PW_QUEUE wait, of which
 * CORE_PW_PER_ADDR per client address, served round robin between
 * addresses (core_slow_submit).  A session token is 32 random bytes; only
 * its hash is stored, with its expiry, the browser's User-Agent and its
 * last use; an account keeps at most CORE_SESSIONS_PER_ACCOUNT, and a new
 * password ends them all (the caller gets a new one).  Common passwords
 * are refused.
 *
 * Sign-ins are counted per name (SPEC: the 11th failure within 10 minutes
 * is 429 whatever the address) and per address, failed and successful
 * ones; a guess counts from the moment it is accepted for hashing (as a
 * failure until its hash says otherwise).  A name's record lives in a
 * fixed table under a keyed hash (SipHash, a random key per process), so
 * nobody can choose names that push another name's record out, and a
 * record at its limit or with a guess under way is never reused.  With
 * many instances the others are told of every sign-in and sign-up
 * (tav_account), and each guess and sign-up is also counted in the
 * database as it is accepted (login_guard), so raced requests meet one
 * count.  An unknown name costs the same hash as a known one and gets the
 * same answer.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <sodium.h>

#include "server/core/internal.h"
#include "server/core/writer.h"

static void lower(const char *name, char out[STORE_NAME_LEN])
{
    size_t i = 0;
    for (; name[i] && i + 1 < STORE_NAME_LEN; i++)
        out[i] = (char)tolower((unsigned char)name[i]);
    out[i] = 0;
}

/* ---- sign-ins counted per name and per address ---- */

/* A name's slot: a keyed hash (SipHash, its key random per process), so
 * nobody can choose names that land on someone else's slots. */
static unsigned name_slot(core *C, const char *key)
{
    if (!C->fail_keyed) {
        crypto_shorthash_keygen(C->fail_key);
        C->fail_keyed = 1;
    }
    unsigned char h[crypto_shorthash_BYTES];
    crypto_shorthash(h, (const unsigned char *)key, strlen(key), C->fail_key);
    uint64_t v = 0;
    for (int i = 0; i < 8; i++)
        v = v << 8 | h[i];
    return (unsigned)(v % CORE_FAIL_SLOTS);
}

static int in_window(const int64_t *t, int n, int cap, int64_t now)
{
    int k = 0;
    for (int i = 0; i < (n < cap ? n : cap); i++)
        k += now - t[i] <= CORE_LOGIN_WINDOW;
    return k;
}

static int fails_recent(const login_fails *f, int64_t now)
{
    return in_window(f->t, f->n, CORE_LOGIN_FAILS, now);
}

static int oks_recent(const login_fails *f, int64_t now)
{
    return in_window(f->ok, f->nok, CORE_LOGINS_PER_ACCOUNT, now);
}

/* The record of a name (made when `make`), or NULL: none, or (make) every
 * slot it may use holds a record that must stay.  A record is reused only
 * when it counts nothing within the window and no guess of it is being
 * hashed; failing that, the one with the fewest recent failures that is
 * below the limit and has no guess being hashed.  A name at its limit, or
 * with a guess under way, keeps its record. */
static login_fails *fails_of(core *C, const char *name, int make)
{
    char key[STORE_NAME_LEN];
    lower(name, key);
    int64_t now = core_unix_ms() / 1000;
    unsigned h = name_slot(C, key);
    login_fails *free_slot = NULL, *weakest = NULL;
    int weakest_n = CORE_LOGIN_FAILS;
    for (int i = 0; i < CORE_FAIL_PROBES; i++) {
        login_fails *f = &C->fails[(h + (unsigned)i) % CORE_FAIL_SLOTS];
        if (f->key[0] && strcmp(f->key, key) == 0)
            return f;
        if (f->pending)
            continue;
        int nf = f->key[0] ? fails_recent(f, now) : 0;
        if (!free_slot && (!f->key[0] || (nf == 0 && oks_recent(f, now) == 0)))
            free_slot = f;
        if (nf < weakest_n) {
            weakest = f;
            weakest_n = nf;
        }
    }
    if (!make)
        return NULL;
    login_fails *f = free_slot ? free_slot : weakest;
    if (!f)
        return NULL;
    memset(f, 0, sizeof *f);
    memcpy(f->key, key, sizeof f->key);
    return f;
}

static void addr_window(peer *by, int64_t now)
{
    if (now - by->fail_since > CORE_LOGIN_WINDOW) {
        by->fail_since = now;
        by->fails = 0;
    }
    if (now - by->ok_since > CORE_LOGIN_WINDOW) {
        by->ok_since = now;
        by->oks = 0;
    }
}

/* A sign-in of `name` ended (ok or not): counted for the name and the address. */
static void note_login(core *C, peer *by, const char *name, int ok)
{
    int64_t now = core_unix_ms() / 1000;
    login_fails *f = name && name[0] ? fails_of(C, name, 1) : NULL;
    if (f && ok)
        f->ok[f->nok++ % CORE_LOGINS_PER_ACCOUNT] = now;
    else if (f)
        f->t[f->n++ % CORE_LOGIN_FAILS] = now;
    if (by) {
        addr_window(by, now);
        if (ok)
            by->oks++;
        else
            by->fails++;
    }
}

/* What another instance told (shared.c): its sign-ins and sign-ups count
 * here too, so the limits hold across instances. */
void core_account_note(core *C, const char *text)
{
    char what[8], a[PEER_ADDR_LEN + 8], b[PEER_ADDR_LEN + 8];
    int n = sscanf(text, "%7s %71s %71s", what, a, b);
    if (n == 3 && (strcmp(what, "fail") == 0 || strcmp(what, "ok") == 0)) {
        peer *by = strcmp(b, "-") != 0 ? peer_get(C, b) : NULL;
        note_login(C, by, core_name_ok(a) ? a : NULL, what[0] == 'o');
    } else if (n == 2 && strcmp(what, "signup") == 0) {
        peer *by = peer_get(C, a);
        int64_t hour = core_unix_ms() / 3600000;
        if (by) {
            if (by->signup_hour != hour) {
                by->signup_hour = hour;
                by->signups = 0;
            }
            by->signups++;
        }
    } else if (n >= 2 && strcmp(what, "gone") == 0 && core_name_ok(a)) {
        if (C->ev.account_gone)   /* closed or banned elsewhere: its sockets here close */
            C->ev.account_gone(C->ev.ctx, a);
    } else if (n == 2 && strcmp(what, "fail") == 0 && core_name_ok(a)) {
        note_login(C, NULL, a, 0);   /* an older instance: the name only */
    }
}

/* Tell the other instances (many instances on one database). */
static void tell_others(core *C, const char *what, const char *name, const peer *by)
{
    if (!C->shared)
        return;
    char told[STORE_NAME_LEN + PEER_ADDR_LEN + 16];
    if (name)
        snprintf(told, sizeof told, "%s %s %s", what, core_name_ok(name) ? name : "-",
                 by && by->addr[0] ? by->addr : "-");
    else
        snprintf(told, sizeof told, "%s %s", what, by && by->addr[0] ? by->addr : "-");
    wq_notify(C, CORE_CH_ACCOUNT, told);
}

/* The refusals every password job meets before it is queued: the queue
 * full, or this address's share of it taken. */
static core_status queue_refusal(core *C, peer *by, char *err, size_t errlen)
{
    if (by && peer_limited(C, by) && by->pw_jobs >= CORE_PW_PER_ADDR) {
        snprintf(err, errlen, "a sign-in from this address is under way: wait for it");
        return CORE_LIMIT;
    }
    if (C->pw_out >= CORE_PW_QUEUE) {
        snprintf(err, errlen, "the server is busy: try again shortly");
        return CORE_UNAVAILABLE;
    }
    return CORE_OK;
}

/* A sign-in (or password change) of `name` may be tried now: CORE_OK, or
 * the refusal.  Counted at once (reserve) when accepted. */
static core_status login_allowed(core *C, peer *by, const char *name, login_fails **rec,
                                 char *err, size_t errlen)
{
    int64_t now = core_unix_ms() / 1000;
    *rec = NULL;
    if (by && peer_limited(C, by)) {
        addr_window(by, now);
        if (by->fails >= CORE_ADDR_LOGIN_FAILS) {
            snprintf(err, errlen, "too many failed sign-ins from this address: wait a few minutes");
            return CORE_LIMIT;
        }
        if (by->oks + by->pw_jobs >= CORE_LOGINS_PER_ADDR) {
            snprintf(err, errlen, "too many sign-ins from this address: wait a few minutes");
            return CORE_LIMIT;
        }
    }
    core_status q = queue_refusal(C, by, err, errlen);
    if (q != CORE_OK)
        return q;
    login_fails *f = fails_of(C, name, 1);
    if (!f) {
        snprintf(err, errlen, "the server is busy: try again shortly");
        return CORE_UNAVAILABLE;
    }
    if (fails_recent(f, now) + f->pending >= CORE_LOGIN_FAILS) {
        snprintf(err, errlen, "too many failed sign-ins for this name: wait a few minutes");
        return CORE_LIMIT;
    }
    if (oks_recent(f, now) + f->pending >= CORE_LOGINS_PER_ACCOUNT) {
        snprintf(err, errlen, "too many sign-ins to this account: wait a few minutes");
        return CORE_LIMIT;
    }
    *rec = f;
    return CORE_OK;
}

/* Many instances: a guess (or a sign-up) is counted in the database too,
 * at once and atomically, so requests raced to several instances meet one
 * count.  Keys: a name; "addr ADDR" (failed sign-ins of an address);
 * "signup ADDR" (accounts made from an address).  1 counted there, 0
 * refused (at the limit), -1 not counted (no shared store, or it failed:
 * the instance's own count still holds). */
static int guard_reserve(core *C, const char *key, int window, int limit)
{
    if (!C->shared || !C->st->ops->login_guard)
        return -1;
    char e[256];
    int rc = C->st->ops->login_guard(C->st, key, core_unix_ms() / 1000, window, limit, 0, e,
                                     sizeof e);
    if (rc < 0)
        core_log(C, "error: the sign-in guard could not be read: %s", e);
    return rc;
}

/* A reserved one ended: `used` counts it (a failed guess, an account
 * made), else it is released. */
static void guard_settle(core *C, const char *key, int window, int limit, int used)
{
    char e[256];
    if (C->st->ops->login_guard &&
        C->st->ops->login_guard(C->st, key, core_unix_ms() / 1000, window, limit, used ? 1 : 2,
                                e, sizeof e) != 0)
        core_log(C, "error: the sign-in guard could not be written: %s", e);
}

static void guard_key(char *out, size_t n, const char *what, const peer *by)
{
    snprintf(out, n, "%s %s", what, by->addr);
}

/* The name's guess and the address's, reserved together: CORE_OK (flags in
 * *name_g, *addr_g), or the refusal. */
static core_status guard_login(core *C, peer *by, const char *name, int *name_g, int *addr_g,
                               char *err, size_t errlen)
{
    char k[PEER_ADDR_LEN + 8];
    *name_g = *addr_g = 0;
    if (by && peer_limited(C, by)) {
        guard_key(k, sizeof k, "addr", by);
        int a = guard_reserve(C, k, CORE_LOGIN_WINDOW, CORE_ADDR_LOGIN_FAILS);
        if (a == 0) {
            snprintf(err, errlen, "too many failed sign-ins from this address: wait a few minutes");
            return CORE_LIMIT;
        }
        *addr_g = a > 0;
    }
    int g = guard_reserve(C, name, CORE_LOGIN_WINDOW, CORE_LOGIN_FAILS);
    if (g == 0) {
        if (*addr_g)
            guard_settle(C, k, CORE_LOGIN_WINDOW, CORE_ADDR_LOGIN_FAILS, 0);
        *addr_g = 0;
        snprintf(err, errlen, "too many failed sign-ins for this name: wait a few minutes");
        return CORE_LIMIT;
    }
    *name_g = g > 0;
    return CORE_OK;
}

static void guard_login_end(core *C, peer *by, const char *name, int name_g, int addr_g,
                            int failed)
{
    if (name_g)
        guard_settle(C, name, CORE_LOGIN_WINDOW, CORE_LOGIN_FAILS, failed);
    if (addr_g && by) {
        char k[PEER_ADDR_LEN + 8];
        guard_key(k, sizeof k, "addr", by);
        guard_settle(C, k, CORE_LOGIN_WINDOW, CORE_ADDR_LOGIN_FAILS, failed);
    }
}

/* ---- passwords nobody should use ---- */

int core_password_common(const char *pw)
{
    size_t n = strlen(pw);
    size_t i = 1;
    while (i < n && pw[i] == pw[0])
        i++;
    if (n > 0 && i == n)
        return 1;   /* one character repeated: "aaaaaaaa", eight spaces */
    for (const char *const *c = core_common_passwords; *c; c++)
        if (strcasecmp(*c, pw) == 0)
            return 1;
    return 0;
}

static core_status password_refusal(const char *pw, char *err, size_t errlen)
{
    size_t pl = strlen(pw);
    if (pl < CORE_PASSWORD_MIN || pl > CORE_PASSWORD_MAX) {
        snprintf(err, errlen, "a password is %d to %d bytes", CORE_PASSWORD_MIN,
                 CORE_PASSWORD_MAX);
        return CORE_BAD;
    }
    if (core_password_common(pw)) {
        snprintf(err, errlen, "that password is one of the most common ones (or one character "
                              "repeated): choose another");
        return CORE_BAD;
    }
    return CORE_OK;
}

/* ---- devices ---- */

static int has(const char *s, const char *w)
{
    return strstr(s, w) != NULL;
}

void core_device(const char *ua, char *out, size_t outlen)
{
    if (!ua || !ua[0]) {
        snprintf(out, outlen, "an unknown device");
        return;
    }
    /* The browser: the more specific names first (Edge and Opera say Chrome
     * too, Chrome says Safari too). */
    const char *b = has(ua, "Edg/") || has(ua, "Edge/") ? "Edge"
                    : has(ua, "OPR/") || has(ua, "Opera") ? "Opera"
                    : has(ua, "SamsungBrowser/") ? "Samsung Internet"
                    : has(ua, "Firefox/") || has(ua, "FxiOS/") ? "Firefox"
                    : has(ua, "Chrome/") || has(ua, "CriOS/") || has(ua, "Chromium/") ? "Chrome"
                    : has(ua, "Safari/") && has(ua, "Version/") ? "Safari"
                    : has(ua, "curl/") ? "curl"
                    : has(ua, "node") || has(ua, "Node") ? "Node.js"
                                                                                : NULL;
    const char *os = has(ua, "Android") ? "Android"
                     : has(ua, "iPhone") || has(ua, "iPad") || has(ua, "iPod") ? "iOS"
                     : has(ua, "CrOS") ? "ChromeOS"
                     : has(ua, "Windows") ? "Windows"
                     : has(ua, "Mac OS X") || has(ua, "Macintosh") ? "macOS"
                     : has(ua, "Linux") || has(ua, "X11") ? "Linux"
                                                            : NULL;
    if (b && os)
        snprintf(out, outlen, "%s on %s", b, os);
    else if (b)
        snprintf(out, outlen, "%s", b);
    else if (os)
        snprintf(out, outlen, "a browser on %s", os);
    else
        snprintf(out, outlen, "an unknown device");
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
    int set_password;         /* ... and end every other session of the account */
    int set_lang;             /* a.lang: the account's language */
    int touch;                /* the session `hash` was used at `now` */
    char ua[STORE_UA_LEN];
    char key[STORE_NAME_LEN]; /* sign-up: the pending name to forget once settled */
} acct_write;

typedef struct sess_list {
    const unsigned char *keep;   /* never this one */
    int skip;                    /* the newest this many (others) stay */
    unsigned char (*h)[STORE_HASH_LEN];
    int n, cap, oom;
} sess_list;

static int collect(void *ctx, const unsigned char *hash, int64_t created, int64_t expires,
                   const char *ua, int64_t last_used)
{
    sess_list *l = ctx;
    (void)created, (void)expires, (void)ua, (void)last_used;
    if (l->keep && sodium_memcmp(hash, l->keep, STORE_HASH_LEN) == 0)
        return 0;
    if (l->skip > 0) {
        l->skip--;
        return 0;
    }
    if (l->n == l->cap) {
        int cap = l->cap ? l->cap * 2 : 16;
        void *m = realloc(l->h, (size_t)cap * STORE_HASH_LEN);
        if (!m) {
            l->oom = 1;
            return 1;
        }
        l->h = m;
        l->cap = cap;
    }
    memcpy(l->h[l->n++], hash, STORE_HASH_LEN);
    return 0;
}

/* On the writer: end the account's sessions but `keep` and the newest
 * `skip` others. */
static int end_sessions(store *st, const char *name, int64_t now, const unsigned char *keep,
                        int skip, char *err, size_t errlen)
{
    sess_list l;
    memset(&l, 0, sizeof l);
    l.keep = keep;
    l.skip = skip;
    int rc = st->ops->each_session(st, name, now, collect, &l, err, errlen);
    if (rc == 0 && l.oom) {
        snprintf(err, errlen, "out of memory");
        rc = -1;
    }
    for (int i = 0; rc == 0 && i < l.n; i++)
        rc = st->ops->delete_session(st, l.h[i], err, errlen);
    if (l.h)
        sodium_memzero(l.h, (size_t)l.cap * STORE_HASH_LEN);
    free(l.h);
    return rc;
}

static int acct_apply(store *st, void *data, char *err, size_t errlen)
{
    const acct_write *w = data;
    int rc = 0;
    if (w->touch)
        return st->ops->touch_session ? st->ops->touch_session(st, w->hash, w->now, err, errlen)
                                      : 0;
    if (w->make_account)
        rc = st->ops->create_account(st, &w->a, err, errlen);
    if (rc == 0 && w->set_password) {
        rc = st->ops->set_password(st, w->a.name, w->a.pwhash, err, errlen);
        if (rc == 0)   /* a new password ends every session (the caller gets a new one) */
            rc = end_sessions(st, w->a.name, w->now, NULL, 0, err, errlen);
    }
    if (rc == 0 && w->set_lang)
        rc = st->ops->set_lang(st, w->a.name, w->a.lang, err, errlen);
    if (rc == 0 && w->make_session > 0) {
        rc = st->ops->create_session(st, w->hash, w->a.name, w->now, w->expires, w->ua, err,
                                     errlen);
        /* At most CORE_SESSIONS_PER_ACCOUNT: the oldest end. */
        if (rc == 0)
            rc = end_sessions(st, w->a.name, w->now, w->hash, CORE_SESSIONS_PER_ACCOUNT - 1, err,
                              errlen);
    }
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
static int new_session(core *C, acct_write *w, core_signed *r, const char *ua)
{
    core_random_b64(r->token, 32);
    core_token_hash(r->token, w->hash);
    w->now = core_unix_ms() / 1000;
    w->expires = w->now + CORE_SESSION_SECS;
    w->make_session = 1;
    store_cut_ua(ua, w->ua);
    int rc = wq_call(C, acct_apply, acct_settled, w, sizeof *w);
    sodium_memzero(w->hash, sizeof w->hash);
    return rc;
}

/* ---- on the loop ---- */

static void accounts_done(core *C, job *j);

static job *pw_job(core *C, int kind, peer *by, void *waiter, const char *name, const char *pw,
                   const char *pw2, const char *ua)
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
    store_cut_ua(ua, j->ua);
    C->pw_out++;
    if (by)
        by->pw_jobs++;
    return j;
}

core_status core_signup(core *C, peer *by, void *waiter, const char *name, const char *password,
                        const char *ua, job **handle, char *err, size_t errlen)
{
    *handle = NULL;
    if (!core_name_ok(name)) {
        snprintf(err, errlen, "a name is %d to %d of A-Z a-z 0-9 _ -", CORE_NAME_MIN,
                 CORE_NAME_MAX);
        return CORE_BAD;
    }
    core_status pr = password_refusal(password, err, errlen);
    if (pr != CORE_OK)
        return pr;
    char key[STORE_NAME_LEN];
    lower(name, key);
    if (strncmp(key, "computer-", 9) == 0) {
        snprintf(err, errlen, "names Computer-... are the computer's");
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
    store_account a;
    char e[256];
    int found = C->st->ops->get_account(C->st, name, &a, e, sizeof e);
    if (found < 0) {
        snprintf(err, errlen, "the accounts could not be read");
        return CORE_UNAVAILABLE;
    }
    sodium_memzero(&a, sizeof a);
    if (found || name_pending(C, key)) {
        snprintf(err, errlen, "the name is taken");
        return CORE_CONFLICT;
    }
    core_status q = queue_refusal(C, by, err, errlen);
    if (q != CORE_OK)
        return q;
    int slot = -1;
    for (int i = 0; i < CORE_PW_QUEUE && slot < 0; i++)
        if (!C->pending_names[i][0])
            slot = i;
    if (slot < 0) {
        snprintf(err, errlen, "the server is busy: try again shortly");
        return CORE_UNAVAILABLE;
    }
    int signup_g = 0;
    char gk[PEER_ADDR_LEN + 8];
    if (by && peer_limited(C, by)) {
        guard_key(gk, sizeof gk, "signup", by);
        int g = guard_reserve(C, gk, 3600, CORE_SIGNUPS_PER_HOUR);
        if (g == 0) {
            snprintf(err, errlen, "at most %d new accounts an hour per address",
                     CORE_SIGNUPS_PER_HOUR);
            return CORE_LIMIT;
        }
        signup_g = g > 0;
    }
    job *j = pw_job(C, JOB_SIGNUP, by, waiter, name, password, NULL, ua);
    if (!j) {
        if (signup_g)
            guard_settle(C, gk, 3600, CORE_SIGNUPS_PER_HOUR, 0);
        snprintf(err, errlen, "out of memory");
        return CORE_UNAVAILABLE;
    }
    j->guarded_addr = signup_g;
    memcpy(C->pending_names[slot], key, sizeof key);
    if (by && peer_limited(C, by)) {
        by->signups++;
        tell_others(C, "signup", NULL, by);
    }
    core_slow_submit(C, j);
    *handle = j;
    return CORE_PENDING;
}

core_status core_login(core *C, peer *by, void *waiter, const char *name, const char *password,
                       const char *ua, job **handle, char *err, size_t errlen)
{
    *handle = NULL;
    if (strlen(name) > CORE_NAME_MAX || strlen(password) > CORE_PASSWORD_MAX) {
        snprintf(err, errlen, "wrong name or password");
        return CORE_FORBIDDEN;
    }
    login_fails *f;
    core_status st = login_allowed(C, by, name, &f, err, errlen);
    if (st != CORE_OK)
        return st;
    store_account a;
    char e[256];
    int found = core_name_ok(name) ? C->st->ops->get_account(C->st, name, &a, e, sizeof e) : 0;
    if (found < 0) {
        snprintf(err, errlen, "the accounts could not be read");
        return CORE_UNAVAILABLE;
    }
    int name_g, addr_g;
    if (guard_login(C, by, name, &name_g, &addr_g, err, errlen) != CORE_OK) {
        sodium_memzero(&a, sizeof a);
        return CORE_LIMIT;
    }
    job *j = pw_job(C, JOB_LOGIN, by, waiter, found ? a.name : name, password, NULL, ua);
    if (!j) {
        guard_login_end(C, by, name, name_g, addr_g, 0);
        sodium_memzero(&a, sizeof a);
        snprintf(err, errlen, "out of memory");
        return CORE_UNAVAILABLE;
    }
    j->guarded = name_g;
    j->guarded_addr = addr_g;
    if (found && !a.closed)   /* a closed account answers as an unknown name */
        memcpy(j->pwhash, a.pwhash, sizeof j->pwhash);
    j->banned = found && a.banned;
    sodium_memzero(&a, sizeof a);
    f->pending++;      /* counted now, as a failure until its hash says otherwise */
    j->reserved = 1;
    core_slow_submit(C, j);
    *handle = j;
    return CORE_PENDING;
}

/* A job that checks `password` against the account's hash on the slow
 * thread (a password change, closing the account): the sign-in limits
 * apply, as to a sign-in of the name. */
static core_status checked_job(core *C, int kind, const char *name, peer *by, void *waiter,
                               const char *password, const char *new_pw, const char *ua,
                               job **handle, char *err, size_t errlen)
{
    login_fails *f;
    core_status st = login_allowed(C, by, name, &f, err, errlen);
    if (st != CORE_OK)
        return st;
    store_account a;
    char e[256];
    if (C->st->ops->get_account(C->st, name, &a, e, sizeof e) != 1) {
        snprintf(err, errlen, "the server is busy: try again shortly");
        return CORE_UNAVAILABLE;
    }
    int name_g, addr_g;
    if (guard_login(C, by, name, &name_g, &addr_g, err, errlen) != CORE_OK) {
        sodium_memzero(&a, sizeof a);
        return CORE_LIMIT;
    }
    job *j = pw_job(C, kind, by, waiter, a.name, password, new_pw, ua);
    if (!j) {
        guard_login_end(C, by, name, name_g, addr_g, 0);
        sodium_memzero(&a, sizeof a);
        snprintf(err, errlen, "out of memory");
        return CORE_UNAVAILABLE;
    }
    j->guarded = name_g;
    j->guarded_addr = addr_g;
    memcpy(j->pwhash, a.pwhash, sizeof j->pwhash);
    sodium_memzero(&a, sizeof a);
    f->pending++;
    j->reserved = 1;
    core_slow_submit(C, j);
    *handle = j;
    return CORE_PENDING;
}

core_status core_password(core *C, const char *name, peer *by, void *waiter, const char *old_pw,
                          const char *new_pw, const char *ua, job **handle, char *err,
                          size_t errlen)
{
    *handle = NULL;
    core_status pr = password_refusal(new_pw, err, errlen);
    if (pr != CORE_OK)
        return pr;
    return checked_job(C, JOB_PASSWORD, name, by, waiter, old_pw, new_pw, ua, handle, err, errlen);
}

core_status core_close_account(core *C, const char *name, peer *by, void *waiter,
                               const char *password, job **handle, char *err, size_t errlen)
{
    *handle = NULL;
    if (strlen(password) > CORE_PASSWORD_MAX) {
        snprintf(err, errlen, "wrong password");
        return CORE_FORBIDDEN;
    }
    return checked_job(C, JOB_CLOSE, name, by, waiter, password, NULL, NULL, handle, err, errlen);
}

/* On the writer: the account closed (its sessions end with it). */
static int close_apply(store *st, void *data, char *err, size_t errlen)
{
    const acct_write *w = data;
    return st->ops->close_account(st, w->a.name, w->now, err, errlen);
}

static void accounts_done(core *C, job *j)
{
    C->pw_out--;
    if (j->by)
        j->by->pw_jobs--;
    if (j->reserved) {
        login_fails *f = fails_of(C, j->name, 0);   /* kept while pending */
        if (f && f->pending > 0)
            f->pending--;
    }
    if (j->kind == JOB_SIGNUP && j->guarded_addr && j->by) {
        char k[PEER_ADDR_LEN + 8];
        guard_key(k, sizeof k, "signup", j->by);
        guard_settle(C, k, 3600, CORE_SIGNUPS_PER_HOUR, 1);   /* made or not, it counts */
    } else if (j->kind != JOB_SIGNUP) {
        guard_login_end(C, j->by, j->name, j->guarded, j->guarded_addr, !j->ok);
    }
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
            r.status = new_session(C, &w, &r, j->ua) == 0 ? CORE_CREATED : CORE_UNAVAILABLE;
            if (r.status != CORE_CREATED) {
                acct_settled(C, &w, 0);
                snprintf(r.err, sizeof r.err, "the account could not be stored");
            }
        }
    } else if (!j->ok) {
        note_login(C, j->by, j->name, 0);
        /* Many instances: the others count it too (SPEC: 10 failures of a
         * name, whatever the address, whichever instance). */
        tell_others(C, "fail", j->name, j->by);
        r.status = CORE_FORBIDDEN;
        snprintf(r.err, sizeof r.err, j->kind == JOB_CLOSE ? "wrong password"
                                                           : "wrong name or password");
    } else if (j->kind == JOB_CLOSE) {
        note_login(C, j->by, j->name, 1);
        /* Seeks, pool, unfinished games (resigned) first, then the account
         * and its sessions: one batch after the resignations. */
        core_account_closed(C, j->name);
        w.now = core_unix_ms() / 1000;
        if (wq_call(C, close_apply, acct_settled, &w, sizeof w) == 0) {
            r.status = CORE_OK;
            r.closed = 1;
            tell_others(C, "gone", j->name, NULL);
            if (C->ev.account_gone)
                C->ev.account_gone(C->ev.ctx, j->name);
        } else {
            r.status = CORE_UNAVAILABLE;
            snprintf(r.err, sizeof r.err, "the account could not be closed: try again");
        }
    } else if (j->banned) {
        note_login(C, j->by, j->name, 1);
        r.status = CORE_FORBIDDEN;
        r.banned = 1;
        snprintf(r.err, sizeof r.err, "this account is banned: it cannot sign in");
    } else {
        note_login(C, j->by, j->name, 1);
        tell_others(C, "ok", j->name, j->by);
        if (j->kind == JOB_PASSWORD) {
            memcpy(w.a.pwhash, j->pwhash, sizeof w.a.pwhash);
            w.set_password = 1;
        }
        r.status = new_session(C, &w, &r, j->ua) == 0 ? CORE_OK : CORE_UNAVAILABLE;
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

int core_signin_who(core *C, const char *token, char name[STORE_NAME_LEN])
{
    if (!token || !token[0] || strlen(token) > 64)
        return 0;
    unsigned char h[STORE_HASH_LEN];
    core_token_hash(token, h);
    char e[256];
    int64_t now = core_unix_ms() / 1000, last = now;
    int rc = C->st->ops->get_session(C->st, h, now, name, &last, e, sizeof e);
    if (rc == 1 && now - last >= CORE_SESSION_TOUCH) {
        /* Its last use, for the account page (written now and then). */
        acct_write w;
        memset(&w, 0, sizeof w);
        memcpy(w.hash, h, sizeof w.hash);
        w.now = now;
        w.touch = 1;
        wq_call(C, acct_apply, acct_settled, &w, sizeof w);
        sodium_memzero(&w, sizeof w);
    }
    sodium_memzero(h, sizeof h);
    return rc == 1;
}

/* ---- an account's sessions (its account page lists them, ends others) ---- */

typedef struct sess_ctx {
    unsigned char current[STORE_HASH_LEN];
    int has_current;
    const char *want;          /* core_signin_end: the id sought */
    unsigned char found[STORE_HASH_LEN];
    int hit;
    void (*fn)(void *ctx, const core_signin_info *s);
    void *ctx;
} sess_ctx;

/* A session's id for people: its hash's first 8 bytes in hex (the hash of
 * a secret, not the secret). */
static void session_id(const unsigned char *hash, char out[17])
{
    sodium_bin2hex(out, 17, hash, 8);
}

static int sess_each(void *ctx, const unsigned char *hash, int64_t created, int64_t expires,
                     const char *ua, int64_t last_used)
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
    core_signin_info s = {id, created, expires, last_used > created ? last_used : created, ua,
                           x->has_current &&
                               sodium_memcmp(hash, x->current, STORE_HASH_LEN) == 0};
    x->fn(x->ctx, &s);
    return 0;
}

int core_signins_each(core *C, const char *name, const char *token,
                      void (*fn)(void *ctx, const core_signin_info *s), void *ctx)
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

/* The account's language, "it" or "en" (SPEC "Languages"). */
core_status core_set_lang(core *C, const char *name, const char *lang)
{
    if (strcmp(lang, "it") != 0 && strcmp(lang, "en") != 0)
        return CORE_BAD;
    acct_write w;
    memset(&w, 0, sizeof w);
    snprintf(w.a.name, sizeof w.a.name, "%s", name);
    snprintf(w.a.lang, sizeof w.a.lang, "%s", lang);
    w.set_lang = 1;
    return wq_call(C, acct_apply, acct_settled, &w, sizeof w) == 0 ? CORE_OK : CORE_UNAVAILABLE;
}

/* The account's language: "it", "en", or "" when it chose none. */
void core_account_lang(core *C, const char *name, char out[4])
{
    store_account a;
    char e[256];
    out[0] = 0;
    if (C->st->ops->get_account(C->st, name, &a, e, sizeof e) == 1)
        snprintf(out, 4, "%s", a.lang);
}

core_status core_signin_end(core *C, const char *name, const char *id)
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
