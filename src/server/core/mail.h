/*
 * mail.h — e-mail for players whose tab is closed (mail.c): an address
 * verified by a link, a switch per kind of message, a daily digest, an
 * unsubscribe link in every mail, at most MAIL_PER_HOUR mails an hour.
 * The mails wait in the store (mail_queue) until a worker thread with its
 * own connection sends them through libcurl's SMTP; with several instances
 * an account's queue is worked by the one holding its claim ("mail NAME").
 */
#ifndef SERVER_CORE_MAIL_H
#define SERVER_CORE_MAIL_H

#include "server/core/core.h"

#define MAIL_PER_HOUR 4            /* mails an hour per account; the rest wait and fold
                                      into the next mail */
#define MAIL_VERIFY_PER_HOUR 3     /* verification links sent per account an hour */
#define MAIL_VERIFY_ALL_PER_HOUR 200   /* ... per instance, all accounts */
#define MAIL_VERIFY_SECS (2 * 86400)   /* a verification link works this long */
#define MAIL_QUEUE_MAX 50          /* items waiting per account (more are not queued) */
#define MAIL_DIGEST_SECS 86400     /* a digest goes once its oldest item waited this long */
#define MAIL_HOUR_WAIT 300         /* past the hourly limit: look again after this (s) */
#define MAIL_TRIES 8               /* failed sends before a mail is given up */
#define MAIL_ADDRESS_MAX 254

/* Kinds of message (bits of store_mail.kinds); MAIL_VERIFY is not a switch. */
enum { MAIL_VERIFY = 0, MAIL_TURN = 1, MAIL_CHALLENGE = 2, MAIL_TOURNAMENT = 4 };
#define MAIL_KINDS 7

/* The mails' words: keys of the page's catalogs (web/i18n), read by the edge. */
enum {
    MT_SUBJ_VERIFY, MT_BODY_VERIFY, MT_SUBJ_TURN, MT_SUBJ_CHALLENGE, MT_SUBJ_TOURNAMENT,
    MT_SUBJ_MANY, MT_SUBJ_DIGEST, MT_HELLO, MT_ITEM_TURN, MT_ITEM_CHALLENGE, MT_ITEM_TOURNAMENT,
    MT_FOOT_WHY, MT_FOOT_KIND, MT_FOOT_ALL, MT_KIND_TURN, MT_KIND_CHALLENGE, MT_KIND_TOURNAMENT,
    MT_COUNT
};
extern const char *const mail_text_keys[MT_COUNT];

typedef struct mail_config {
    const char *smtp;        /* smtp://host:port or smtps://user:pass@host (never logged) */
    const char *from;        /* the sender's address */
    const char *public_url;  /* the site's address for links: https://play.example.org */
    const char *const *text[2];   /* [0] English, [1] Italian: MT_COUNT strings each */
    long poll_ms;            /* how often the queue is looked at (0: 1000) */
} mail_config;

/* Start the worker (its own connection to `db`); the texts are copied.
 * Without this, no mail is queued or sent and core_mail_on answers 0. */
int core_mail_start(core *C, const mail_config *cf, const char *db, char *err, size_t errlen);
void core_mail_stop(core *C);   /* before core_stop */
int core_mail_on(const core *C);

/* A plausible address: 3 to 254 bytes, local@domain.tld, no spaces or
 * quotes or angle brackets or control characters. */
int core_mail_address_ok(const char *a);

/* The account's settings (a zeroed row with every switch on when none):
 * CORE_OK, CORE_UNAVAILABLE. */
core_status core_mail_get(core *C, const char *name, store_mail *out);
/* Change them: address (NULL: keep; "": none), kinds (-1 keep), digest (-1
 * keep), resend (a new verification link).  A new address is unverified
 * and gets a link (CORE_LIMIT past MAIL_VERIFY_PER_HOUR). */
core_status core_mail_set(core *C, const char *name, const char *address, int kinds, int digest,
                          int resend, char *err, size_t errlen);
/* A verification link's token: CORE_OK (the address is verified),
 * CORE_NOTFOUND (unknown or expired). */
core_status core_mail_verify(core *C, const char *token);
/* An unsubscribe link's token: turn off `kinds` (bits); CORE_NOTFOUND. */
core_status core_mail_unsubscribe(core *C, const char *token, int kinds, int *left);

/* What happened, for whom (queued with the open batch: on disk with it). */
void mail_turn(core *C, game *g);      /* a correspondence game: the side to move's turn */
void mail_challenge(core *C, const char *to, const char *by, const char *game_name,
                    const char *seek_id);
/* A tournament starts for `name` (wired once tournaments exist). */
void core_mail_tournament(core *C, const char *name, const char *tournament_id,
                          const char *title);

#endif
