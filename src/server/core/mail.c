/*
 * mail.c — e-mail (mail.h): the settings' requests on the loop, the items
 * queued with the batch that made them, and the worker thread that sends
 * them through libcurl's SMTP, off the loop.
 *
 * The queue is in the store, so an item acknowledged with its batch (a move,
 * a challenge, a verification link asked for) survives a SIGKILL; the worker
 * deletes an item once its mail was accepted by the relay.  An account's
 * items are worked under the claim "mail NAME" (with several instances on
 * one PostgreSQL, one instance at a time).  A crash between the relay's
 * acceptance and the delete sends that mail again: at least once.
 */
#include <ctype.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include <curl/curl.h>
#include <sodium.h>

#include "server/core/core.h"
#include "server/core/internal.h"
#include "server/core/mail.h"
#include "server/core/writer.h"

const char *const mail_text_keys[MT_COUNT] = {
    [MT_SUBJ_VERIFY] = "mail.subject.verify",
    [MT_BODY_VERIFY] = "mail.body.verify",
    [MT_SUBJ_TURN] = "mail.subject.turn",
    [MT_SUBJ_CHALLENGE] = "mail.subject.challenge",
    [MT_SUBJ_TOURNAMENT] = "mail.subject.tournament",
    [MT_SUBJ_MANY] = "mail.subject.many",
    [MT_SUBJ_DIGEST] = "mail.subject.digest",
    [MT_HELLO] = "mail.body.hello",
    [MT_ITEM_TURN] = "mail.item.turn",
    [MT_ITEM_CHALLENGE] = "mail.item.challenge",
    [MT_ITEM_TOURNAMENT] = "mail.item.tournament",
    [MT_FOOT_WHY] = "mail.foot.why",
    [MT_FOOT_KIND] = "mail.foot.kind",
    [MT_FOOT_ALL] = "mail.foot.all",
    [MT_KIND_TURN] = "mail.kind.turn",
    [MT_KIND_CHALLENGE] = "mail.kind.challenge",
    [MT_KIND_TOURNAMENT] = "mail.kind.tournament",
};

typedef struct mailer {
    char *smtp, *from, *url, *clock_file;
    char *text[2][MT_COUNT];
    long poll_ms;
    store *st;               /* the worker's own connection */
    pthread_t thread;
    int started;
    pthread_mutex_t lock;
    pthread_cond_t cond;
    int stop;                /* (lock) */
    int64_t verify_hour;     /* (loop) the hour of verify_sent */
    int verify_sent;         /* (loop) links queued this hour, all accounts */
    const core *C;           /* for the log */
} mailer;

static const char *kind_name(int kind)
{
    return kind == MAIL_TURN ? "turn" : kind == MAIL_CHALLENGE ? "challenge"
         : kind == MAIL_TOURNAMENT ? "tournament" : "all";
}

int core_mail_on(const core *C) { return C->mail != NULL; }

int core_mail_address_ok(const char *a)
{
    size_t n = strlen(a);
    if (n < 3 || n > MAIL_ADDRESS_MAX)
        return 0;
    const char *at = strchr(a, '@');
    if (!at || at == a || strchr(at + 1, '@') || at - a > 64)
        return 0;
    for (const char *p = a; p < at; p++) {
        unsigned char c = (unsigned char)*p;
        if (c <= ' ' || c >= 127 || strchr("\"(),:;<>[\\]", c))
            return 0;
    }
    const char *d = at + 1;
    int labels = 0;
    while (*d) {
        const char *e = d;
        while (*e && *e != '.')
            e++;
        size_t len = (size_t)(e - d);
        if (len == 0 || len > 63 || d[0] == '-' || e[-1] == '-')
            return 0;
        for (const char *p = d; p < e; p++)
            if (!isalnum((unsigned char)*p) && *p != '-')
                return 0;
        labels++;
        if (!*e)
            break;
        d = e + 1;
        if (!*d)
            return 0;   /* a trailing dot */
    }
    return labels >= 2;
}

/* ---- the loop: settings ---- */

static void hex_hash(const char *token, char out[68])
{
    unsigned char h[STORE_HASH_LEN];
    core_token_hash(token, h);
    sodium_bin2hex(out, 68, h, sizeof h);
}

typedef struct mail_write {
    store_mail m;
    int put;                 /* write m */
    store_mail_item it;
    int add;                 /* queue it */
    int wanted;              /* ... only when m.name's address is verified and wants it.kind */
} mail_write;

static int mail_apply(store *st, void *data, char *err, size_t errlen)
{
    const mail_write *w = data;
    if (!st->ops->mail_put)
        return 0;
    if (w->put && st->ops->mail_put(st, &w->m, err, errlen) != 0)
        return -1;
    if (!w->add)
        return 0;
    if (w->wanted) {
        store_mail m;
        int rc = st->ops->mail_get(st, w->it.name, &m, err, errlen);
        if (rc < 0)
            return -1;
        if (rc == 0 || !m.verified || !m.address[0] || !(m.kinds & w->it.kind))
            return 0;
    }
    /* A verification link is queued even past the limit (its own limit is
     * MAIL_VERIFY_PER_HOUR). */
    int max = w->it.kind == MAIL_VERIFY ? MAIL_QUEUE_MAX + 2 * MAIL_VERIFY_PER_HOUR : MAIL_QUEUE_MAX;
    return st->ops->mail_add(st, &w->it, max, err, errlen) < 0 ? -1 : 0;
}

static void mail_settled(core *C, const void *data, int ok)
{
    (void)C, (void)data, (void)ok;
}

core_status core_mail_get(core *C, const char *name, store_mail *out)
{
    char err[256];
    memset(out, 0, sizeof *out);
    snprintf(out->name, sizeof out->name, "%s", name);
    out->kinds = MAIL_KINDS;
    if (!C->st->ops->mail_get)
        return CORE_UNAVAILABLE;
    int rc = C->st->ops->mail_get(C->st, name, out, err, sizeof err);
    if (rc < 0) {
        core_log(C, "error: mail settings of %s: %s", name, err);
        return CORE_UNAVAILABLE;
    }
    return CORE_OK;
}

/* The games' time in unix seconds on the loop (the test clock included). */
static int64_t loop_now(core *C) { return core_game_ms(C) / 1000; }

core_status core_mail_set(core *C, const char *name, const char *address, int kinds, int digest,
                          int resend, char *err, size_t errlen)
{
    mailer *M = C->mail;
    if (address && address[0] && !core_mail_address_ok(address)) {
        snprintf(err, errlen, "not an e-mail address");
        return CORE_BAD;
    }
    if (kinds > MAIL_KINDS || digest > 1) {
        snprintf(err, errlen, "unknown switches");
        return CORE_BAD;
    }
    mail_write w;
    memset(&w, 0, sizeof w);
    if (core_mail_get(C, name, &w.m) != CORE_OK) {
        snprintf(err, errlen, "the settings could not be read");
        return CORE_UNAVAILABLE;
    }
    int64_t now = loop_now(C);
    if (!w.m.unsub[0])
        core_random_b64(w.m.unsub, 32);
    if (kinds >= 0)
        w.m.kinds = kinds;
    if (digest >= 0)
        w.m.digest = digest;
    int link = 0;
    if (address && strcasecmp(address, w.m.address) != 0) {
        snprintf(w.m.address, sizeof w.m.address, "%s", address);
        w.m.verified = 0;
        w.m.verify_hash[0] = 0;
        link = address[0] != 0;
    } else if (address && strcmp(address, w.m.address) != 0) {
        snprintf(w.m.address, sizeof w.m.address, "%s", address);   /* letter case only */
    }
    if (resend) {
        if (!w.m.address[0] || w.m.verified) {
            snprintf(err, errlen, w.m.address[0] ? "the address is verified already"
                                                 : "no address to verify");
            return CORE_CONFLICT;
        }
        link = 1;
    }
    if (link) {
        if (!M) {
            snprintf(err, errlen, "this server sends no e-mail");
            return CORE_CONFLICT;
        }
        if (now - w.m.verify_since >= 3600) {
            w.m.verify_since = now;
            w.m.verify_count = 0;
        }
        int64_t hour = core_unix_ms() / 3600000;
        if (M->verify_hour != hour) {
            M->verify_hour = hour;
            M->verify_sent = 0;
        }
        if (w.m.verify_count >= MAIL_VERIFY_PER_HOUR || M->verify_sent >= MAIL_VERIFY_ALL_PER_HOUR) {
            snprintf(err, errlen, "at most %d verification mails an hour: try again later",
                     MAIL_VERIFY_PER_HOUR);
            return CORE_LIMIT;
        }
        w.m.verify_count++;
        M->verify_sent++;
        char token[48];
        core_random_b64(token, 32);
        hex_hash(token, w.m.verify_hash);
        w.m.verify_at = now;
        w.add = 1;
        snprintf(w.it.name, sizeof w.it.name, "%s", name);
        w.it.kind = MAIL_VERIFY;
        snprintf(w.it.arg, sizeof w.it.arg, "%s", token);
        w.it.created = w.it.due = now;
        sodium_memzero(token, sizeof token);
    }
    w.put = 1;
    int rc = wq_call(C, mail_apply, mail_settled, &w, sizeof w);
    sodium_memzero(&w, sizeof w);
    if (rc != 0) {
        snprintf(err, errlen, "the settings could not be kept");
        return CORE_UNAVAILABLE;
    }
    return CORE_OK;
}

core_status core_mail_verify(core *C, const char *token)
{
    char err[256], name[STORE_NAME_LEN], h[68];
    if (!C->st->ops->mail_find || strlen(token) != CORE_TOKEN_LEN)
        return CORE_NOTFOUND;
    hex_hash(token, h);
    int rc = C->st->ops->mail_find(C->st, 1, h, name, err, sizeof err);
    if (rc < 0)
        return CORE_UNAVAILABLE;
    mail_write w;
    memset(&w, 0, sizeof w);
    if (rc == 0 || core_mail_get(C, name, &w.m) != CORE_OK || !w.m.address[0] ||
        loop_now(C) - w.m.verify_at > MAIL_VERIFY_SECS)
        return CORE_NOTFOUND;
    w.m.verified = 1;
    w.m.verify_hash[0] = 0;
    w.put = 1;
    return wq_call(C, mail_apply, mail_settled, &w, sizeof w) == 0 ? CORE_OK : CORE_UNAVAILABLE;
}

core_status core_mail_unsubscribe(core *C, const char *token, int kinds, int *left)
{
    char err[256], name[STORE_NAME_LEN];
    if (!C->st->ops->mail_find || strlen(token) != CORE_TOKEN_LEN)
        return CORE_NOTFOUND;
    int rc = C->st->ops->mail_find(C->st, 0, token, name, err, sizeof err);
    if (rc < 0)
        return CORE_UNAVAILABLE;
    if (rc == 0)
        return CORE_NOTFOUND;
    mail_write w;
    memset(&w, 0, sizeof w);
    if (core_mail_get(C, name, &w.m) != CORE_OK)
        return CORE_UNAVAILABLE;
    w.m.kinds &= ~kinds;
    *left = w.m.kinds;
    w.put = 1;
    return wq_call(C, mail_apply, mail_settled, &w, sizeof w) == 0 ? CORE_OK : CORE_UNAVAILABLE;
}

/* ---- the loop: what happened ---- */

static void queue_item(core *C, const char *name, int kind, const char *arg)
{
    if (!C->mail || !name[0])
        return;
    mail_write w;
    memset(&w, 0, sizeof w);
    w.add = w.wanted = 1;
    snprintf(w.it.name, sizeof w.it.name, "%s", name);
    w.it.kind = kind;
    snprintf(w.it.arg, sizeof w.it.arg, "%s", arg);
    w.it.created = w.it.due = loop_now(C);
    if (wq_call(C, mail_apply, mail_settled, &w, sizeof w) != 0)
        core_log(C, "error: a mail for %s could not be queued", name);
}

void mail_turn(core *C, game *g)
{
    if (!C->mail || g->clk_days <= 0 || !g->account[0][0] || !g->account[1][0] || core_over(g))
        return;
    int side = tav_session_to_move(g->s);
    if (side != TAV_WHITE && side != TAV_BLACK)
        return;
    char arg[STORE_MAIL_ARG];
    snprintf(arg, sizeof arg, "%s\t%s\t%s", g->id, g->account[1 - side],
             tav_session_game(g->s)->name);
    queue_item(C, g->account[side], MAIL_TURN, arg);
}

void mail_challenge(core *C, const char *to, const char *by, const char *game_name,
                    const char *seek_id)
{
    char arg[STORE_MAIL_ARG];
    snprintf(arg, sizeof arg, "%s\t%s\t%s", seek_id, by, game_name);
    queue_item(C, to, MAIL_CHALLENGE, arg);
}

void core_mail_tournament(core *C, const char *name, const char *tournament_id, const char *title)
{
    char arg[STORE_MAIL_ARG], t[100];
    snprintf(t, sizeof t, "%s", title);
    for (char *p = t; *p; p++)
        if ((unsigned char)*p < ' ')
            *p = ' ';
    snprintf(arg, sizeof arg, "%s\t%s", tournament_id, t);
    queue_item(C, name, MAIL_TOURNAMENT, arg);
}

/* ---- the worker: composing ---- */

typedef struct buf {
    char *p;
    size_t n, cap;
    int oom;
} buf;

static void put(buf *b, const char *s, size_t n)
{
    if (b->oom)
        return;
    if (b->n + n + 1 > b->cap) {
        size_t cap = (b->n + n + 1) * 2;
        char *q = realloc(b->p, cap);
        if (!q) {
            b->oom = 1;
            return;
        }
        b->p = q;
        b->cap = cap;
    }
    memcpy(b->p + b->n, s, n);
    b->n += n;
    b->p[b->n] = 0;
}

static void puts_(buf *b, const char *s) { put(b, s, strlen(s)); }

/* A catalog text with its {names} filled: pairs of name, value, NULL. */
static void fill(buf *b, const char *text, ...)
{
    for (const char *p = text; *p;) {
        if (*p == '{') {
            const char *e = strchr(p, '}');
            if (e) {
                va_list ap;
                va_start(ap, text);
                const char *k, *v = NULL;
                while ((k = va_arg(ap, const char *)) != NULL) {
                    const char *val = va_arg(ap, const char *);
                    if (strlen(k) == (size_t)(e - p - 1) && strncmp(k, p + 1, (size_t)(e - p - 1)) == 0)
                        v = val;
                }
                va_end(ap);
                if (v) {
                    puts_(b, v);
                    p = e + 1;
                    continue;
                }
            }
        }
        if (*p == '\n')
            puts_(b, "\r\n");
        else
            put(b, p, 1);
        p++;
    }
}

static const char *T(const mailer *M, int lang, int key) { return M->text[lang][key]; }

static const char *game_title(const char *g, char out[40])
{
    size_t n = strlen(g) < 39 ? strlen(g) : 39;
    memcpy(out, g, n);
    out[n] = 0;
    if (out[0])
        out[0] = (char)toupper((unsigned char)out[0]);
    return out;
}

/* The fields of an item's arg (tab-separated). */
static int fields(const char *arg, char f[3][STORE_MAIL_ARG])
{
    int n = 0;
    const char *p = arg;
    while (n < 3) {
        const char *e = strchr(p, '\t');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        snprintf(f[n], STORE_MAIL_ARG, "%.*s", (int)len, p);
        n++;
        if (!e)
            break;
        p = e + 1;
    }
    for (int i = n; i < 3; i++)
        f[i][0] = 0;
    return n;
}

static void header(buf *b, const mailer *M, const char *to, const char *subject,
                   const char *unsub_all)
{
    char enc[512], date[64], id[32];
    time_t t = time(NULL);
    struct tm tm;
    gmtime_r(&t, &tm);
    strftime(date, sizeof date, "%a, %d %b %Y %H:%M:%S +0000", &tm);
    sodium_bin2base64(enc, sizeof enc, (const unsigned char *)subject,
                      strlen(subject) > 300 ? 300 : strlen(subject),
                      sodium_base64_VARIANT_ORIGINAL);
    core_random_b64(id, 12);
    const char *dom = strchr(M->from, '@');
    puts_(b, "From: Tavoliere <");
    puts_(b, M->from);
    puts_(b, ">\r\nTo: <");
    puts_(b, to);
    puts_(b, ">\r\nSubject: =?UTF-8?B?");
    puts_(b, enc);
    puts_(b, "?=\r\nDate: ");
    puts_(b, date);
    puts_(b, "\r\nMessage-ID: <");
    puts_(b, id);
    puts_(b, dom ? dom : "@tavoliere");
    puts_(b, ">\r\nMIME-Version: 1.0\r\nContent-Type: text/plain; charset=UTF-8\r\n"
             "Content-Transfer-Encoding: 8bit\r\nAuto-Submitted: auto-generated\r\n");
    if (unsub_all) {
        puts_(b, "List-Unsubscribe: <");
        puts_(b, unsub_all);
        puts_(b, ">\r\nList-Unsubscribe-Post: List-Unsubscribe=One-Click\r\n");
    }
    puts_(b, "\r\n");
}

/* ---- the worker: sending ---- */

typedef struct upload {
    const char *p;
    size_t left;
} upload;

static size_t read_cb(char *out, size_t size, size_t nitems, void *ud)
{
    upload *u = ud;
    size_t n = size * nitems;
    if (n > u->left)
        n = u->left;
    memcpy(out, u->p, n);
    u->p += n;
    u->left -= n;
    return n;
}

static int smtp_send(const mailer *M, const char *to, const buf *msg, char *err, size_t errlen)
{
    CURL *c = curl_easy_init();
    if (!c) {
        snprintf(err, errlen, "libcurl failed to start");
        return -1;
    }
    char from[STORE_MAIL_LEN + 4], rcpt[STORE_MAIL_LEN + 4];
    snprintf(from, sizeof from, "<%s>", M->from);
    snprintf(rcpt, sizeof rcpt, "<%s>", to);
    struct curl_slist *list = curl_slist_append(NULL, rcpt);
    upload u = {msg->p, msg->n};
    char cerr[CURL_ERROR_SIZE];
    cerr[0] = 0;
    curl_easy_setopt(c, CURLOPT_URL, M->smtp);
    curl_easy_setopt(c, CURLOPT_MAIL_FROM, from);
    curl_easy_setopt(c, CURLOPT_MAIL_RCPT, list);
    curl_easy_setopt(c, CURLOPT_READFUNCTION, read_cb);
    curl_easy_setopt(c, CURLOPT_READDATA, &u);
    curl_easy_setopt(c, CURLOPT_UPLOAD, 1L);
    curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(c, CURLOPT_CONNECTTIMEOUT, 10L);
    curl_easy_setopt(c, CURLOPT_TIMEOUT, 20L);   /* within a drain's time (the unit: 20 s) */
    curl_easy_setopt(c, CURLOPT_USE_SSL, (long)CURLUSESSL_TRY);   /* STARTTLS when offered */
    curl_easy_setopt(c, CURLOPT_ERRORBUFFER, cerr);
    CURLcode rc = list ? curl_easy_perform(c) : CURLE_OUT_OF_MEMORY;
    if (rc != CURLE_OK)
        snprintf(err, errlen, "%s", cerr[0] ? cerr : curl_easy_strerror(rc));
    curl_slist_free_all(list);
    curl_easy_cleanup(c);
    return rc == CURLE_OK ? 0 : -1;
}

/* The worker's clock: unix seconds plus the test clock's offset. */
static int64_t worker_now(const mailer *M)
{
    int64_t off = 0;
    if (M->clock_file) {
        FILE *f = fopen(M->clock_file, "r");
        long long o = 0;
        if (f) {
            if (fscanf(f, "%lld", &o) == 1)
                off = o;
            fclose(f);
        }
    }
    return (core_unix_ms() + off) / 1000;
}

#define ITEMS_MAX 64
typedef struct items {
    store_mail_item it[ITEMS_MAX];
    int n;
} items;

static int collect(void *ctx, const store_mail_item *it)
{
    items *l = ctx;
    if (l->n == ITEMS_MAX)
        return 1;
    l->it[l->n++] = *it;
    return 0;
}

static int64_t backoff(int tries)
{
    int64_t s = 60;
    for (int i = 1; i < tries && s < 3600; i++)
        s *= 2;
    return s > 3600 ? 3600 : s;
}

static void link_to(buf *b, const mailer *M, const char *path, const char *a, const char *v)
{
    puts_(b, M->url);
    puts_(b, path);
    if (a) {
        puts_(b, a);
        puts_(b, v);
    }
}

/* Send one mail (its body) or defer its items; 1 sent. */
static int send_or_defer(mailer *M, const store_mail *m, const char *subject, buf *body,
                         const char *unsub_all, const int64_t *ids, int n, int tries, int64_t now)
{
    store *st = M->st;
    char err[256];
    /* Nothing of this connection's stays open while the relay is talked to
     * (SQLite: the writer would wait for its lock). */
    if (store_flush(st, err, sizeof err) != 0)
        core_log(M->C, "error: mail queue: %s", err);
    buf msg = {0};
    header(&msg, M, m->address, subject, unsub_all);
    put(&msg, body->p ? body->p : "", body->n);
    if (msg.oom) {
        free(msg.p);
        return 0;
    }
    int ok = smtp_send(M, m->address, &msg, err, sizeof err) == 0;
    free(msg.p);
    if (!ok)
        core_log(M->C, "error: mail to %s's address: %s (try %d)", m->name, err, tries + 1);
    for (int i = 0; i < n; i++) {
        if (ok || tries + 1 >= MAIL_TRIES)
            st->ops->mail_drop(st, ids[i], err, sizeof err);
        else
            st->ops->mail_defer(st, ids[i], now + backoff(tries + 1), tries + 1, err, sizeof err);
    }
    if (ok && unsub_all)   /* verification links do not count in the hourly limit */
        st->ops->mail_log(st, m->name, now, err, sizeof err);
    return ok;
}

static void work_account(mailer *M, const char *key, int64_t now)
{
    store *st = M->st;
    char err[256];
    items *l = calloc(1, sizeof *l);
    if (!l)
        return;
    store_mail m;
    store_account a;
    int rc = st->ops->mail_items(st, key, collect, l, err, sizeof err);
    int have = rc == 0 ? st->ops->mail_get(st, key, &m, err, sizeof err) : -1;
    int acct = have == 1 ? st->ops->get_account(st, key, &a, err, sizeof err) : have;
    if (rc != 0 || have < 0 || acct < 0) {
        core_log(M->C, "error: mail queue: %s", err);
        free(l);
        return;
    }
    if (have == 0 || acct == 0) {   /* no settings or no account: nothing can be sent */
        for (int i = 0; i < l->n; i++)
            st->ops->mail_drop(st, l->it[i].id, err, sizeof err);
        free(l);
        return;
    }
    snprintf(m.name, sizeof m.name, "%s", a.name);
    int lang = strcmp(a.lang, "it") == 0;
    char all[512];
    snprintf(all, sizeof all, "%s/mail/unsubscribe?t=%s&k=all", M->url, m.unsub);
    /* Verification links: each its own mail, to the address it verifies. */
    int64_t ids[ITEMS_MAX];
    int n = 0, due = 0, kinds = 0, tries = 0;
    int64_t oldest = 0;
    for (int i = 0; i < l->n; i++) {
        store_mail_item *it = &l->it[i];
        if (it->kind == MAIL_VERIFY) {
            char h[68];
            hex_hash(it->arg, h);
            if (!m.address[0] || m.verified || strcmp(h, m.verify_hash) != 0) {
                st->ops->mail_drop(st, it->id, err, sizeof err);
                continue;
            }
            if (it->due > now)
                continue;
            buf body = {0};
            buf lk = {0};
            link_to(&lk, M, "/mail/verify?t=", NULL, NULL);
            puts_(&lk, it->arg);
            fill(&body, T(M, lang, MT_BODY_VERIFY), "name", m.name, "link", lk.p ? lk.p : "",
                 "address", m.address, (const char *)NULL);
            puts_(&body, "\r\n");
            int64_t one = it->id;
            send_or_defer(M, &m, T(M, lang, MT_SUBJ_VERIFY), &body, NULL, &one, 1, it->tries, now);
            free(body.p);
            free(lk.p);
            continue;
        }
        if (!m.verified || !m.address[0] || !(m.kinds & it->kind)) {
            st->ops->mail_drop(st, it->id, err, sizeof err);
            continue;
        }
        if (!n || it->created < oldest)
            oldest = it->created;
        l->it[n] = *it;   /* n <= i: the kept items move to the front */
        ids[n++] = it->id;
        due |= it->due <= now;
        kinds |= it->kind;
        if (it->tries > tries)
            tries = it->tries;
    }
    if (!n || !due) {
        free(l);
        return;
    }
    int64_t later = 0;
    if (m.digest && now < oldest + MAIL_DIGEST_SECS)   /* looked at again now and then: the
                                                          digest may be switched off */
        later = oldest + MAIL_DIGEST_SECS < now + MAIL_HOUR_WAIT ? oldest + MAIL_DIGEST_SECS
                                                                 : now + MAIL_HOUR_WAIT;
    else if (st->ops->mail_count(st, m.name, now - 3600, err, sizeof err) >= MAIL_PER_HOUR)
        later = now + MAIL_HOUR_WAIT;
    if (later) {
        for (int i = 0; i < n; i++)
            if (l->it[i].due < later)
                st->ops->mail_defer(st, l->it[i].id, later, l->it[i].tries, err, sizeof err);
        free(l);
        return;
    }
    /* One mail for every item waiting (folded past the limit, or a digest). */
    buf body = {0};
    char subj[256], num[16], f[3][STORE_MAIL_ARG], title[40];
    snprintf(num, sizeof num, "%d", n);
    fields(l->it[0].arg, f);
    buf s = {0};
    if (m.digest)
        fill(&s, T(M, lang, MT_SUBJ_DIGEST), "n", num, (const char *)NULL);
    else if (n > 1)
        fill(&s, T(M, lang, MT_SUBJ_MANY), "n", num, (const char *)NULL);
    else
        fill(&s, T(M, lang, l->it[0].kind == MAIL_TURN ? MT_SUBJ_TURN
                          : l->it[0].kind == MAIL_CHALLENGE ? MT_SUBJ_CHALLENGE
                                                            : MT_SUBJ_TOURNAMENT),
             "other", f[1], "title", f[1], "game", game_title(f[2], title), (const char *)NULL);
    snprintf(subj, sizeof subj, "%s", s.p ? s.p : "Tavoliere");
    free(s.p);
    fill(&body, T(M, lang, MT_HELLO), "name", m.name, (const char *)NULL);
    puts_(&body, "\r\n\r\n");
    for (int i = 0; i < n; i++) {
        store_mail_item *it = &l->it[i];
        fields(it->arg, f);
        buf lk = {0};
        if (it->kind == MAIL_TURN)
            link_to(&lk, M, "/games/", f[0], "");
        else if (it->kind == MAIL_CHALLENGE)
            link_to(&lk, M, "/lobby", NULL, NULL);
        else
            link_to(&lk, M, "/tournaments/", f[0], "");
        fill(&body, T(M, lang, it->kind == MAIL_TURN ? MT_ITEM_TURN
                              : it->kind == MAIL_CHALLENGE ? MT_ITEM_CHALLENGE
                                                           : MT_ITEM_TOURNAMENT),
             "other", f[1], "title", f[1], "game", game_title(f[2], title), "link",
             lk.p ? lk.p : "", (const char *)NULL);
        puts_(&body, "\r\n");
        free(lk.p);
    }
    puts_(&body, "\r\n-- \r\n");
    fill(&body, T(M, lang, MT_FOOT_WHY), "account", m.name, (const char *)NULL);
    puts_(&body, "\r\n");
    static const int kind_of[3] = {MAIL_TURN, MAIL_CHALLENGE, MAIL_TOURNAMENT};
    static const int kind_text[3] = {MT_KIND_TURN, MT_KIND_CHALLENGE, MT_KIND_TOURNAMENT};
    for (int k = 0; k < 3; k++) {
        if (!(kinds & kind_of[k]))
            continue;
        char lk[512];
        snprintf(lk, sizeof lk, "%s/mail/unsubscribe?t=%s&k=%s", M->url, m.unsub,
                 kind_name(kind_of[k]));
        fill(&body, T(M, lang, MT_FOOT_KIND), "kind", T(M, lang, kind_text[k]), "link", lk,
             (const char *)NULL);
        puts_(&body, "\r\n");
    }
    fill(&body, T(M, lang, MT_FOOT_ALL), "link", all, (const char *)NULL);
    puts_(&body, "\r\n");
    if (!body.oom)
        send_or_defer(M, &m, subj, &body, all, ids, n, tries, now);
    free(body.p);
    free(l);
}

typedef struct names {
    char n[32][STORE_NAME_LEN];
    int count;
} names;

static void add_name(void *ctx, const char *name)
{
    names *l = ctx;
    if (l->count < 32)
        snprintf(l->n[l->count++], STORE_NAME_LEN, "%s", name);
}

static void mail_pass(mailer *M)
{
    store *st = M->st;
    char err[256];
    int64_t now = worker_now(M);
    names l;
    l.count = 0;
    if (st->ops->mail_due(st, now, 32, add_name, &l, err, sizeof err) != 0) {
        core_log(M->C, "error: mail queue: %s", err);
        return;
    }
    for (int i = 0; i < l.count; i++) {
        char key[STORE_NAME_LEN + 8];
        snprintf(key, sizeof key, "mail %s", l.n[i]);
        if (store_try_claim(st, key, err, sizeof err) != 1)
            continue;
        work_account(M, l.n[i], now);
        if (store_flush(st, err, sizeof err) != 0)
            core_log(M->C, "error: mail queue: %s", err);
        store_release_claim(st, key);
    }
}

static void *mail_main(void *arg)
{
    mailer *M = arg;
    pthread_mutex_lock(&M->lock);
    while (!M->stop) {
        pthread_mutex_unlock(&M->lock);
        mail_pass(M);
        pthread_mutex_lock(&M->lock);
        if (M->stop)
            break;
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        ts.tv_sec += M->poll_ms / 1000;
        ts.tv_nsec += (M->poll_ms % 1000) * 1000000L;
        if (ts.tv_nsec >= 1000000000L) {
            ts.tv_sec++;
            ts.tv_nsec -= 1000000000L;
        }
        pthread_cond_timedwait(&M->cond, &M->lock, &ts);
    }
    pthread_mutex_unlock(&M->lock);
    return NULL;
}

static void mailer_free(mailer *M)
{
    if (!M)
        return;
    if (M->st)
        store_close(M->st);
    free(M->smtp);
    free(M->from);
    free(M->url);
    free(M->clock_file);
    for (int l = 0; l < 2; l++)
        for (int k = 0; k < MT_COUNT; k++)
            free(M->text[l][k]);
    free(M);
}

int core_mail_start(core *C, const mail_config *cf, const char *db, char *err, size_t errlen)
{
    if (!core_mail_address_ok(cf->from)) {
        snprintf(err, errlen, "--mail-from: not an e-mail address");
        return -1;
    }
    if (strncmp(cf->public_url, "http://", 7) != 0 && strncmp(cf->public_url, "https://", 8) != 0) {
        snprintf(err, errlen, "--public-url: an http:// or https:// address");
        return -1;
    }
    if (curl_global_init(CURL_GLOBAL_DEFAULT) != 0) {
        snprintf(err, errlen, "libcurl failed to start");
        return -1;
    }
    mailer *M = calloc(1, sizeof *M);
    if (!M) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    M->C = C;
    M->poll_ms = cf->poll_ms > 0 ? cf->poll_ms : 1000;
    M->smtp = strdup(cf->smtp);
    M->from = strdup(cf->from);
    M->url = strdup(cf->public_url);
    M->clock_file = C->cf.clock_file ? strdup(C->cf.clock_file) : NULL;
    int oom = !M->smtp || !M->from || !M->url || (C->cf.clock_file && !M->clock_file);
    for (int l = 0; l < 2; l++)
        for (int k = 0; k < MT_COUNT; k++)
            oom |= !(M->text[l][k] = strdup(cf->text[l][k]));
    if (!oom) {
        size_t n = strlen(M->url);
        while (n > 0 && M->url[n - 1] == '/')
            M->url[--n] = 0;
    }
    if (oom || !(M->st = store_open(db, err, errlen))) {
        if (oom)
            snprintf(err, errlen, "out of memory");
        mailer_free(M);
        return -1;
    }
    if (!M->st->ops->mail_get) {
        snprintf(err, errlen, "this database keeps no mail");
        mailer_free(M);
        return -1;
    }
    pthread_mutex_init(&M->lock, NULL);
    pthread_cond_init(&M->cond, NULL);
    if (pthread_create(&M->thread, NULL, mail_main, M) != 0) {
        snprintf(err, errlen, "the mail thread could not start");
        pthread_mutex_destroy(&M->lock);
        pthread_cond_destroy(&M->cond);
        mailer_free(M);
        return -1;
    }
    M->started = 1;
    C->mail = M;
    return 0;
}

void core_mail_stop(core *C)
{
    mailer *M = C->mail;
    if (!M)
        return;
    pthread_mutex_lock(&M->lock);
    M->stop = 1;
    pthread_cond_signal(&M->cond);
    pthread_mutex_unlock(&M->lock);
    pthread_join(M->thread, NULL);
    pthread_mutex_destroy(&M->lock);
    pthread_cond_destroy(&M->cond);
    C->mail = NULL;
    mailer_free(M);
    curl_global_cleanup();
}
