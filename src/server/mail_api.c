/*
 * mail_api.c — e-mail at the edge (docs/server-api.md "E-mail"): the
 * account's mail settings, the verification and unsubscribe links' requests,
 * the mails' words read from the page's catalogs, and the options that start
 * the core's mail worker (--smtp, --mail-from, --public-url).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "server/core/core.h"
#include "server/srv.h"

/* A JSON object body whose fields are all among `known` (NULL last). */
static json_t *mail_body(const char *body, size_t len, const char *const *known, reply *r)
{
    json_error_t jerr;
    json_t *o = len ? json_loadb(body, len, JSON_REJECT_DUPLICATES, &jerr) : NULL;
    if (!o || !json_is_object(o)) {
        reply_refuse(r, 400, "the request needs a JSON object body");
        json_decref(o);
        return NULL;
    }
    const char *key;
    json_t *v;
    json_object_foreach(o, key, v) {
        int ok = 0;
        for (int i = 0; known[i]; i++)
            ok |= strcmp(key, known[i]) == 0;
        if (!ok) {
            reply_refuse(r, 400, "unknown field");
            json_decref(o);
            return NULL;
        }
    }
    return o;
}

static const struct {
    const char *name;
    int bit;
} kinds[] = {{"turn", MAIL_TURN}, {"challenge", MAIL_CHALLENGE}, {"tournament", MAIL_TOURNAMENT}};

static json_t *kinds_json(int bits)
{
    json_t *k = json_object();
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
        json_object_set_new(k, kinds[i].name, json_boolean(bits & kinds[i].bit));
    return k;
}

static void settings(srv *S, const char *name, reply *r)
{
    store_mail m;
    if (core_mail_get(S->C, name, &m) != CORE_OK) {
        reply_refuse(r, 503, "the settings could not be read");
        return;
    }
    json_t *o = json_pack("{s:b,s:o,s:b,s:o,s:b,s:i,s:i}", "on", core_mail_on(S->C), "address",
                          m.address[0] ? json_string(m.address) : json_null(), "verified",
                          m.verified && m.address[0], "kinds", kinds_json(m.kinds), "digest",
                          m.digest, "perHour", MAIL_PER_HOUR, "verifyPerHour",
                          MAIL_VERIFY_PER_HOUR);
    reply_json(r, 200, o);
}

static void change(srv *S, const char *name, const char *body, size_t blen, reply *r)
{
    static const char *const known[] = {"address", "kinds", "digest", "resend", NULL};
    json_t *o = mail_body(body, blen, known, r);
    if (!o)
        return;
    json_t *a = json_object_get(o, "address"), *k = json_object_get(o, "kinds"),
           *d = json_object_get(o, "digest"), *re = json_object_get(o, "resend");
    int bad = (a && !json_is_string(a) && !json_is_null(a)) || (k && !json_is_object(k)) ||
              (d && !json_is_boolean(d)) || (re && !json_is_boolean(re));
    int bits = -1;
    if (!bad && k) {
        store_mail m;
        if (core_mail_get(S->C, name, &m) != CORE_OK) {
            json_decref(o);
            reply_refuse(r, 503, "the settings could not be read");
            return;
        }
        bits = m.kinds;
        const char *key;
        json_t *v;
        json_object_foreach(k, key, v) {
            int bit = 0;
            for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
                if (strcmp(key, kinds[i].name) == 0)
                    bit = kinds[i].bit;
            if (!bit || !json_is_boolean(v))
                bad = 1;
            else if (json_is_true(v))
                bits |= bit;
            else
                bits &= ~bit;
        }
    }
    if (bad) {
        json_decref(o);
        reply_refuse(r, 400, "address is a string, kinds an object of true/false, digest and "
                            "resend true or false");
        return;
    }
    const char *addr = a ? (json_is_null(a) ? "" : json_string_value(a)) : NULL;
    if (addr && strlen(addr) > MAIL_ADDRESS_MAX) {
        json_decref(o);
        reply_refuse(r, 400, "the address is too long (at most 254 bytes)");
        return;
    }
    char err[160];
    core_status st = core_mail_set(S->C, name, addr, bits, d ? json_is_true(d) : -1,
                                   re && json_is_true(re), err, sizeof err);
    json_decref(o);
    if (st == CORE_OK)
        reply_json(r, 200, json_pack("{s:b}", "ok", 1));
    else
        reply_refuse(r, api_http_status(st), err);
}

/* The links' requests (no session needed: the token stands for the account). */
static void link_request(srv *S, int unsub, const char *body, size_t blen, reply *r)
{
    static const char *const known[] = {"token", "kind", NULL};
    json_t *o = mail_body(body, blen, known, r);
    if (!o)
        return;
    const char *token = json_string_value(json_object_get(o, "token"));
    const char *kind = json_string_value(json_object_get(o, "kind"));
    if (!token || strlen(token) > 64 || (unsub && (!kind || strlen(kind) > 16))) {
        json_decref(o);
        reply_refuse(r, 400, unsub ? "token and kind are strings" : "token is a string");
        return;
    }
    core_status st;
    if (!unsub) {
        st = core_mail_verify(S->C, token);
        if (st == CORE_OK)
            reply_json(r, 200, json_pack("{s:b}", "verified", 1));
    } else {
        int bits = strcmp(kind, "all") == 0 ? MAIL_KINDS : 0, left = 0;
        for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
            if (strcmp(kind, kinds[i].name) == 0)
                bits = kinds[i].bit;
        if (!bits) {
            json_decref(o);
            reply_refuse(r, 400, "kind is turn, challenge, tournament or all");
            return;
        }
        st = core_mail_unsubscribe(S->C, token, bits, &left);
        if (st == CORE_OK)
            reply_json(r, 200, json_pack("{s:o}", "kinds", kinds_json(left)));
    }
    json_decref(o);
    if (st != CORE_OK)
        reply_refuse(r, api_http_status(st), st == CORE_NOTFOUND ? "this link is not valid (any more)"
                                                                : "try again shortly");
}

int mail_routes(srv *S, const asker *who, const char *path, int method, const char *body,
                size_t blen, reply *r)
{
    if (strcmp(path, "/api/me/mail") == 0) {
        if (method != 'G' && method != 'P')
            reply_refuse(r, 405, "use GET or POST");
        else if (!who->account[0])
            reply_refuse(r, 401, "not signed in");
        else if (method == 'G')
            settings(S, who->account, r);
        else
            change(S, who->account, body, blen, r);
        return 1;
    }
    int verify = strcmp(path, "/api/mail/verify") == 0;
    if (verify || strcmp(path, "/api/mail/unsubscribe") == 0) {
        if (method != 'P')
            reply_refuse(r, 405, "use POST");
        else
            link_request(S, !verify, body, blen, r);
        return 1;
    }
    return 0;
}

/* ---- starting ---- */

/* The mails' words from the page's catalogs (WEBDIR/i18n/en.json, it.json). */
static int load_texts(const char *webdir, char *text[2][MT_COUNT], char *err, size_t errlen)
{
    static const char *const langs[2] = {"en", "it"};
    for (int l = 0; l < 2; l++) {
        char path[4300];
        snprintf(path, sizeof path, "%s/i18n/%s.json", webdir, langs[l]);
        json_error_t jerr;
        json_t *cat = json_load_file(path, 0, &jerr);
        if (!cat) {
            snprintf(err, errlen, "%s: %s (the mails' words)", path, jerr.text);
            return -1;
        }
        for (int k = 0; k < MT_COUNT; k++) {
            const char *v = json_string_value(json_object_get(cat, mail_text_keys[k]));
            if (!v || !(text[l][k] = strdup(v))) {
                snprintf(err, errlen, "%s: no \"%s\"", path, mail_text_keys[k]);
                json_decref(cat);
                return -1;
            }
        }
        json_decref(cat);
    }
    return 0;
}

int mail_serve_start(srv *S, const char *smtp, const char *from, const char *public_url,
                     const char *db, char *err, size_t errlen)
{
    char *text[2][MT_COUNT];
    memset(text, 0, sizeof text);
    int rc = load_texts(S->webdir, text, err, errlen);
    if (rc == 0) {
        mail_config cf;
        memset(&cf, 0, sizeof cf);
        cf.smtp = smtp;
        cf.from = from;
        cf.public_url = public_url;
        cf.text[0] = (const char *const *)text[0];
        cf.text[1] = (const char *const *)text[1];
        const char *poll = getenv("TAVOLIERE_MAIL_POLL_MS");   /* tests: look more often */
        cf.poll_ms = poll ? atol(poll) : 0;
        rc = core_mail_start(S->C, &cf, db, err, errlen);
    }
    for (int l = 0; l < 2; l++)
        for (int k = 0; k < MT_COUNT; k++)
            free(text[l][k]);
    return rc;
}
