/*
 * core.h — the game server's core: games in play, moves, computer seats,
 * hints, analyses, record checks, the per-address limits and the store.
 * It knows no HTTP, no sockets and no JSON: the edge (the files of src/server:
 * libwebsockets, jansson) calls in with decoded requests and hears back
 * through a small table of events (core_events) that it implements.
 *
 * Threads: everything here belongs to the thread that calls it (the edge's
 * event loop), except the done-queue (qlock), which search workers and the
 * record thread append to before calling events.wake; the loop then calls
 * core_drain.
 *
 * Lifetimes: a game lives while anything points at it — a search (jobs_out),
 * the edge (pins: its sockets and messages), a computer-only game's turn —
 * and otherwise leaves memory after CORE_IDLE_SECS unused (core_tick); the
 * store keeps it and core_get brings it back.
 */
#ifndef SERVER_CORE_CORE_H
#define SERVER_CORE_CORE_H

#include <pthread.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include "tavoliere.h"
#include "tavoliere_search.h"
#include "tavoliere_session.h"
#include "server/core/store.h"

/* Limits (docs/server-api.md "Limits"). */
#define CORE_PLAYER_MAX 32         /* a player spec's length */
#define CORE_PLIES_MAX 1000        /* moves a server game may have (records, maxplies) */
#define CORE_GAMES_PER_HOUR 60     /* games created per client address per hour (default) */
#define CORE_HINTS_PER_ADDR 4      /* hint searches under way per client address */
#define CORE_CPU_GAMES_PER_ADDR 2  /* unfinished computer-only games per client address */
#define CORE_CPU_PACE_MS 1000      /* a computer-only game moves at most once a second (--pace) */
#define CORE_RECORDS_PER_ADDR 2    /* record uploads being checked per client address */
#define CORE_RECORD_QUEUE 16       /* record uploads being checked in all */
#define CORE_IDLE_SECS 300         /* a game untouched this long leaves memory */
#define CORE_TOKEN_LEN 43          /* 32 bytes as unpadded base64url */
#define CORE_ID_CHARS 12           /* 9 bytes as base64url */
/* Accounts (accounts.c; docs/server-api.md "Limits"). */
#define CORE_NAME_MIN 3
#define CORE_NAME_MAX 20
#define CORE_PASSWORD_MIN 8
#define CORE_PASSWORD_MAX 256
#define CORE_SESSION_SECS (30 * 86400)   /* a session lasts 30 days */
#define CORE_LOGIN_FAILS 10        /* failed sign-ins of one name ... */
#define CORE_LOGIN_WINDOW 600      /* ... in this many seconds: 429 (SPEC) */
#define CORE_ADDR_LOGIN_FAILS 30   /* failed sign-ins from one address in the window */
#define CORE_SIGNUPS_PER_HOUR 5    /* accounts made per address an hour */
#define CORE_PW_QUEUE 16           /* password hashes waiting at once, in all */
#define CORE_PW_PER_ADDR 2         /* ... of which per client address (queued or running) */
#define CORE_LOGINS_PER_ADDR 20    /* successful sign-ins per address in CORE_LOGIN_WINDOW */
#define CORE_LOGINS_PER_ACCOUNT 20 /* successful sign-ins of one account in the window */
#define CORE_SESSIONS_PER_ACCOUNT 20   /* sessions an account keeps: a new one ends the oldest */
#define CORE_SESSION_TOUCH 300     /* a session's last use is written at most this often (s) */
#define CORE_FAIL_SLOTS 4096       /* names whose sign-in failures are remembered */
#define CORE_FAIL_PROBES 8         /* ... a name's record is in one of this many slots */
#define CORE_POOL_LAPSE_SECS 10   /* a pool entry whose owner has no lobby socket lapses */
#define CORE_POOL_WINDOW 100      /* quick pairing: the rating window at once (±) ... */
#define CORE_POOL_WIDEN 50        /* ... widened by this much ... */
#define CORE_POOL_WIDEN_SECS 5    /* ... every this many seconds of waiting ... */
#define CORE_POOL_ANYONE_SECS 30  /* ... and anyone after this long */
#define CORE_SEEK_LAPSE_SECS 300   /* a seek whose owner has no lobby socket lapses */
#define CORE_SEEK_GRACE_MS 15000   /* ... and 15 s after its owner's last one closed (a page
                                      changing opens the next within it) */
#define CORE_SEEK_HERE_MS 10000    /* many instances: an owner's presence told this often */
#define CORE_SEEKS_PER_ACCOUNT 5   /* open seeks per account */
#define CORE_CPU_GAMES_PER_ACCOUNT 3   /* unfinished rated games against the computer per account */
#define CORE_SEEKS_MAX 10000       /* open seeks in all */
#define CORE_PLAYER_GAMES 100      /* games a player's page lists */
#define CORE_COMPUTER_RD 100.0     /* a computer level's deviation at its measured rating */
/* Consent and fair endings (SPEC; docs/server-api.md). */
#define CORE_FIRST_MOVE_MS 30000   /* real-time clock: a first move not made this long aborts */
#define CORE_ABANDON_MS 60000      /* the side to move's account gone this long: the other may claim */
#define CORE_SEEN_EVERY_MS 10000   /* many instances: an instance says "seen NAME" this often for
                                      the players of clocked games with a socket open there */
#define CORE_SEEN_FRESH_MS 25000   /* ... and an account not heard of for this long is gone there */
#define CORE_OFFERS_PER_WINDOW 10  /* offers (draw, take-back, rematch) one account may make ... */
#define CORE_OFFER_WINDOW_MS 60000 /* ... in this many ms */
#define CORE_OFFER_SLOTS 4096      /* accounts whose offers are counted */
/* Bots (SPEC "Bots"; bots.c; docs/bots.md "Limits"). */
#define CORE_TOKENS_PER_ACCOUNT 10 /* API tokens an account may hold */
#define CORE_BOT_GAMES_MAX 20      /* unfinished games a bot account may have at once */
#define CORE_TOKEN_TOUCH 60        /* a token's last use is written at most this often (s) */
#define CORE_API_TOKEN_PREFIX "tvb_"   /* an API token: this, then 32 random bytes (base64url) */

/* What a request comes to: the edge turns these into HTTP statuses. */
typedef enum core_status {
    CORE_OK = 0,
    CORE_CREATED,      /* a new game */
    CORE_BAD,          /* malformed or invalid request */
    CORE_FORBIDDEN,    /* not a seat of this game */
    CORE_NOTFOUND,     /* no such game */
    CORE_CONFLICT,     /* not now: stale ply, not your turn, over, illegal */
    CORE_LIMIT,        /* past a per-address or per-game limit */
    CORE_UNAVAILABLE,  /* the store failed, or the server is too busy */
    CORE_PENDING,      /* the answer comes later through an event */
    CORE_AGAIN,        /* not known yet: ask again once the writes pending now are committed */
    CORE_OFFERED       /* an offer stands, nothing made yet (a rematch: 202) */
} core_status;

typedef struct core core;
typedef struct game game;
typedef struct wbatch wbatch;
typedef struct job job;
typedef struct peer peer;
typedef struct core_chat_line core_chat_line;   /* chat.c */

/* Commits as /metrics counts them (writer.c): batches by their number of
 * writes and by the milliseconds their commit took, each bucket "at most
 * the bound" (the last one: more than every bound). */
#define CORE_SIZE_BUCKETS 7
#define CORE_SIZE_BOUNDS {1, 2, 5, 10, 25, 50, 100}
#define CORE_MS_BUCKETS 10
#define CORE_MS_BOUNDS {1, 2, 5, 10, 25, 50, 100, 250, 500, 1000}
typedef struct core_commit_stats {
    long size_count[CORE_SIZE_BUCKETS + 1];
    long ms_count[CORE_MS_BUCKETS + 1];
    long batches, failed, writes, ms_sum;
    int last_ok;         /* the last batch committed */
} core_commit_stats;

/* What one client address holds and has used (peers.c). */
#define PEER_ADDR_LEN 64
struct peer {
    char addr[PEER_ADDR_LEN];   /* "" never used; IPv6 as its /64 */
    int loopback;
    int conns;           /* open connections (the edge counts them) */
    int unready;         /* ... of which still sending their first request */
    int hints;           /* hint searches under way */
    int cpu_games;       /* unfinished computer-only games it created (in memory) */
    int records;         /* record uploads being checked */
    long body_bytes;     /* request-body bytes held (the edge counts them) */
    int64_t rate_sec;    /* API requests in this second */
    int rate_count;
    int64_t hour;        /* games created in this hour */
    int games_hour;
    int64_t seen;        /* unix seconds of the last lookup */
    int64_t signup_hour; /* accounts made in this hour */
    int signups;
    int64_t fail_since;  /* failed sign-ins since this unix second (a window) */
    int fails;
    int pw_jobs;         /* password hashes queued or running for it */
    int64_t ok_since;    /* successful sign-ins since this unix second (a window) */
    int oks;
};
#define CORE_PEER_SLOTS 16384



/* Analysis of a finished game: one search per ply, newest first. */
typedef struct analysis {
    int n;               /* plies */
    int next;            /* ply searched next (counts down), -1 when done */
    int done;
    double *white;       /* white's expected score before each ply (n + 1 entries) */
    char (*best)[TAV_MOVE_TEXT];
    tav_session *work;   /* a copy being taken back ply by ply */
    int queued;
} analysis;

/* A game in memory is the core's own (its struct is in internal.h): the
 * edge reads it through these.  Pointers stay valid while g is in memory
 * (the edge pins it: core_pin). */
const char *core_game_id(const game *g);
const tav_session *core_game_session(const game *g);
const analysis *core_game_analysis(const game *g);   /* NULL: none asked for yet */
/* What a viewer may be told of a game beyond its session: its seats,
 * offers, end, ratings and clock (a copy of values and pointers into g). */
typedef struct core_facts {
    const char *id;
    const char *player[2];    /* "human", "random", "ai:level=3" */
    const char *account[2];   /* each side's account, "" none */
    int human[2];
    int bot[2];               /* each side's account is a bot (SPEC "Bots") */
    int thinking;             /* a computer seat's search is under way */
    int rated;
    const char *rematch;      /* the game that followed, "" none */
    const char *end;          /* ended by the server ("abort", "time", ...), else "" */
    int end_winner;
    int draw_offer, takeback_offer, rematch_offer;   /* the side offering, -1 none */
    int absent;               /* the side whose absence ended it, -1 */
    const double *rating_before, *rating_after;      /* [2], 0: not known */
    int64_t clk_initial_ms, clk_inc_ms, clk_days;    /* 0 0 0: no clock */
    const char *tournament;   /* the tournament it is a game of, "" none */
} core_facts;
void core_game_facts(const game *g, core_facts *f);
/* The edge's own data for g (freed through events.freeing), and its games
 * in memory one by one (fn must not free or load games). */
void *core_game_edge(const game *g);
void core_game_set_edge(game *g, void *edge);
void core_each_game(core *C, void (*fn)(void *ctx, game *g), void *ctx);
/* The same over one part of `parts` (0 <= part < parts): the parts together
 * are every game once, so a sweep can be spread over several turns. */
void core_each_game_part(core *C, int part, int parts, void (*fn)(void *ctx, game *g), void *ctx);
/* Seeks in memory now (0 before the lobby's first use). */
int core_seek_count(const core *C);

/* A hint's answer, or a record check's. */
typedef struct core_answer {
    core_status status;
    char move[TAV_MOVE_TEXT];
    double value;
    char err[160];
} core_answer;

/* The end of a sign-up or sign-in. */
typedef struct core_signed {
    core_status status;  /* CORE_CREATED (sign-up), CORE_OK, or the refusal */
    char name[STORE_NAME_LEN];
    char token[48];      /* the new session's token: wiped after the event */
    char err[160];
    int banned;          /* refused: the account is banned (403) */
    int closed;          /* core_close_account: the account is closed (no session) */
} core_signed;



typedef struct core_made {
    core_status status;  /* CORE_CREATED with g, else the refusal */
    game *g;
    char tokens[2][48];  /* human seats' tokens ("" for a computer seat): wiped after */
    char err[320];
} core_made;

/* The edge's side of the core: the core calls these, the edge implements
 * them.  `ctx` is the edge's. */
typedef struct core_events {
    void *ctx;
    void (*wake)(void *ctx);                /* any thread: call core_drain on the loop */
    void (*changed)(void *ctx, game *g);    /* g changed: tell its viewers (after the commit) */
    void (*dirty)(void *ctx);               /* a write waits for core_commit */
    /* Batch `n` of writes is on disk (ok), or failed and nothing of it is:
     * send, or refuse with 503, what waited for it. */
    void (*committed)(void *ctx, long n, int ok);
    void (*hint_done)(void *ctx, void *waiter, const core_answer *h);
    void (*record_done)(void *ctx, void *waiter, core_made *m);
    void (*freeing)(void *ctx, game *g);    /* g leaves memory: free g->edge */
    /* A sign-up, sign-in or password change is done (its session on disk). */
    void (*account_done)(void *ctx, void *waiter, struct core_signed *r);
    void (*lobby_changed)(void *ctx);      /* the open seeks changed */
    /* A seek was accepted: its owner (an account) is told (after the commit). */
    void (*started)(void *ctx, const char *account, const char *game_id);
    /* Whether the account has a socket (a lobby or game socket) open on
     * this instance now (NULL: nobody is ever seen away). */
    int (*present)(void *ctx, const char *account);
    /* A game of a bot account started (finished 0) or ended (1), on this
     * instance or another: its event sockets are told (after the commit). */
    void (*bot_game)(void *ctx, const char *account, const char *game_id, int finished);
    /* A challenge of `maker` was declined by `by` (here or elsewhere): the
     * maker's lobby sockets are told. */
    void (*declined)(void *ctx, const char *maker, const char *seek_id, const char *by,
                     const char *reason);
    /* A chat line of g is on disk (or was told by another instance): the
     * edge hands it to the sockets that may read it (NULL: no chat). */
    void (*chat)(void *ctx, game *g, const core_chat_line *line);
    /* The account was closed or banned (here, elsewhere or by the
     * operator's tool): its live sockets close (NULL: none to close). */
    void (*account_gone)(void *ctx, const char *account);
} core_events;


typedef struct core_config {
    long ai_ms;          /* cap on a computer move's time */
    int threads;         /* search workers */
    int rate;            /* API requests a second per client address (0: no limit) */
    int limit_loopback;  /* apply the per-address limits to loopback clients too */
    int games_per_hour;
    long pace_ms;        /* a computer-only game waits this long between moves */
    int quiet;
    int idle_secs;       /* a game untouched this long leaves memory (0: CORE_IDLE_SECS) */
    const char *clock_file;   /* tests only (--test-clock): a file holding an offset in ms
                                 added to the games' time (never set from the network) */
    int seek_lapse_secs; /* a seek whose owner has no lobby socket lapses after this
                            (0: CORE_SEEK_LAPSE_SECS) */
} core_config;
/* The configuration the core was started with. */
const core_config *core_config_of(const core *C);

/* Games in memory, by id. */
#define CORE_HASH_SIZE 4096

/* Many instances on one database (shared.c): the channels they tell each
 * other on, and how often an instance looks for games nobody looks after. */
#define CORE_CH_GAME "tav_game"
#define CORE_CH_LOBBY "tav_lobby"
#define CORE_CH_ACCOUNT "tav_account"
#define CORE_SCAN_MS 2000
#define CORE_CLAIM_PREFIX "game "   /* a game's claim is this + its id */

/* ---- life ---- */
/* Open the store `db` names, start the search workers and the record
 * thread, and load the games whose computer seat is to act.  NULL with a
 * message on failure. */
core *core_new(const core_config *cf, const core_events *ev, const char *db, char *err,
               size_t errlen);
/* Stop searches and threads (before the edge stops), then free everything. */
void core_stop(core *C);
void core_free(core *C);
/* On the loop: answers from the workers and the record thread. */
void core_drain(core *C);
/* On the loop, often (every few tens of ms): drain, watch searches,
 * computer-only turns, and games that leave memory. */
void core_tick(core *C);
/* Writes: every change joins the open batch; core_commit hands it to the
 * writer thread (when it is not busy with the one before), and
 * events.committed says when it is on disk.  core_pending: 1 while a batch
 * is open or being committed; core_batch (while one is pending): the
 * number of the batch the writes made now belong to, or of the batch
 * being committed when none is open. */
int core_pending(const core *C);
long core_batch(const core *C);
/* What memory holds of g that is not yet committed: the number of the batch
 * whose commit it waits for, or 0 when everything shown of g is committed.
 * Nothing of g is shown (an answer, a live message) before that batch is
 * committed: another instance would not know it yet (docs/deploy.md). */
long core_unsettled(const core *C, const game *g);
void core_commit(core *C);
/* Tests only (never reachable from the network): the next commit fails. */
void core_fail_next_commit(core *C);

/* ---- games ---- */
game *core_get(core *C, const char *id);          /* loads from the store; NULL unknown */
/* After core_get answered NULL: 1 when the store failed (503), not an
 * unknown game (404). */
int core_get_failed(const core *C);
/* Round trips to the database and bytes sent and received by the loop's
 * and the writer's connections (0 where the backend does not count). */
void core_db_stats(const core *C, int64_t *trips, int64_t *out, int64_t *in);
/* What the operator's /metrics shows of the core. */
typedef struct core_ops_figures {
    long games;          /* in memory */
    int searches;        /* computer moves searched or waiting */
    core_commit_stats commits;
    int64_t trips, bytes_out, bytes_in;
    long notes_seen, refreshed;   /* many instances: messages heard, games read again */
    long deltas;                  /* ... moves heard and played without a read */
} core_ops_figures;
void core_figures(const core *C, core_ops_figures *f);
/* Whether the database answers now (one round trip where the backend has
 * a server; SQLite: the last commit went through).  1 or 0. */
int core_db_reachable(core *C);
int core_id_ok(const char *id, size_t n);         /* 12 base64url characters */
/* Which side a token holds in g: TAV_WHITE, TAV_BLACK, or -1. */
int core_seat(const game *g, const char *token);
/* Who acts on a game: a seat token (guests, links), or the signed-in
 * account (games between accounts: the session is the seat). */
typedef struct core_cred {
    const char *token;     /* a seat token, or NULL */
    const char *account;   /* the signed-in account, or NULL / "" */
} core_cred;
/* The side `who` holds in g, or -1. */
int core_side_of(const game *g, const core_cred *who);

/* ---- accounts (accounts.c) ---- */
/* A valid account name: 3 to 20 of A-Z a-z 0-9 _ - */
int core_name_ok(const char *name);
/* Sign up, sign in: CORE_PENDING with the job (the answer comes through
 * events.account_done), or the refusal with err. */
/* `ua`: the browser's User-Agent (kept with the session), or NULL. */
core_status core_signup(core *C, peer *by, void *waiter, const char *name, const char *password,
                        const char *ua, job **handle, char *err, size_t errlen);
core_status core_login(core *C, peer *by, void *waiter, const char *name, const char *password,
                       const char *ua, job **handle, char *err, size_t errlen);
/* Change the signed-in account's password: PENDING, or the refusal.  Once
 * changed, every session of the account ends and a new one is made (the
 * caller's, rotated: a new token). */
core_status core_password(core *C, const char *name, peer *by, void *waiter, const char *old_pw,
                          const char *new_pw, const char *ua, job **handle, char *err,
                          size_t errlen);
/* Close the signed-in account (SPEC "Closing an account"): PENDING (the
 * answer through events.account_done with closed 1, or FORBIDDEN for a
 * wrong password), or the refusal. */
core_status core_close_account(core *C, const char *name, peer *by, void *waiter,
                               const char *password, job **handle, char *err, size_t errlen);
/* ---- moderation (moderation.c) ---- */
#define CORE_REPORT_TEXT_MAX 1000   /* bytes of a report's note */
#define CORE_REPORTS_PER_DAY 10     /* reports an account may file in 24 hours */
#define CORE_REPORTS_PER_PLAYER 3   /* ... of one player in 24 hours */
#define CORE_RETENTION_DAYS 180     /* default: chat lines and reports kept this long */
#define CORE_CLOSE_GAMES 1000       /* unfinished games a close resigns (more: the rest stay) */
/* A report by `reporter` of `name` (game "" none; reason cheating, abuse,
 * other): CORE_CREATED, CORE_BAD (err), CORE_LIMIT, CORE_UNAVAILABLE. */
core_status core_report(core *C, const char *reporter, const char *name, const char *gid,
                        const char *reason, const char *text, char *err, size_t errlen);
/* An account's state: 1 found (closed: when, 0 open; banned), 0 none. */
int core_account_state(core *C, const char *name, int64_t *closed, int *banned);
/* When the account was made (unix s), 0 unknown. */
int64_t core_account_created(core *C, const char *name);
/* What the export gathers (moderation.c reads it from the store). */
int core_reports_by(core *C, const char *reporter, store_report_fn fn, void *ctx);
int core_chat_by(core *C, const char *name, store_chat_by_fn fn, void *ctx);
/* After a close: the account's seeks, pool entry and unfinished games go
 * (resigned), its sockets close here and on every instance. */
void core_account_closed(core *C, const char *name);
/* Once a second: the operator's new actions (bans) reach the sockets; and
 * hourly the old chat lines and reports go (retention_days, 0: never). */
void core_moderation_tick(core *C, int retention_days);
/* A password too common to accept (core_common_passwords, any case), or of
 * one character repeated. */
int core_password_common(const char *pw);
/* A User-Agent for people: "Firefox on Linux", "Chrome on Android", ... */
void core_device(const char *ua, char *out, size_t outlen);
/* End a session (its token): CORE_OK once queued, CORE_UNAVAILABLE. */
core_status core_logout(core *C, const char *token);
/* Sign-ins (the cookie's sessions, not a game's tav_session).
 * An account's unexpired sign-ins, newest first: each with an id for
 * people (its hash's first 8 bytes in hex) and whether it is `token`'s. */
typedef struct core_signin_info {
    const char *id;
    int64_t created, expires, last_used;
    const char *ua;      /* as the browser said it ("" unknown) */
    int current;
} core_signin_info;
int core_signins_each(core *C, const char *name, const char *token,
                      void (*fn)(void *ctx, const core_signin_info *s), void *ctx);
/* End one of the account's sign-ins by its id: CORE_OK, CORE_NOTFOUND. */
core_status core_signin_end(core *C, const char *name, const char *id);
/* The account's language (SPEC "Languages"): set ("it" or "en"; else
 * CORE_BADREQ), read ("" for none). */
core_status core_set_lang(core *C, const char *name, const char *lang);
void core_account_lang(core *C, const char *name, char out[4]);
/* The account a sign-in token stands for: 1 with its name, 0 none. */
int core_signin_who(core *C, const char *token, char name[STORE_NAME_LEN]);
int core_mover_at(const game *g, int ply);
/* A stamp that changes whenever what a viewer sees of g may change. */
unsigned long core_stamp(const game *g);
/* 1 when g runs on a deal its creator chose (a seed or explicit stacks):
 * hidden from both sides until the end, but said to them. */
int core_deal_chosen(const tav_session *s);
/* Whether a seat may ever take a move back in g (never with hidden
 * information, only against a computer seat). */
int core_undo_offered(const game *g);
void core_pin(game *g);                           /* the edge holds g */
void core_unpin(game *g);

/* ---- requests (each fills err with a message for people on refusal) ---- */
/* A player spec: "human" or one the search service knows. */
int core_player_ok(const char *p);
/* A new game; tokens of its human seats in m. */
core_status core_create(core *C, peer *by, const char *name, const char *options,
                        const char *const player[2], int local, core_made *m);
/* Whether engine help (hints) may be given in g now: in a game between two
 * people on separate screens, not until it is over (SPEC "Fair play"). */
int core_help_allowed(const game *g);
/* A new session of game `name` with `options`, dealt from a random seed of
 * the OS; NULL with err. */
tav_session *core_new_session(const char *name, const char *options, char *err, size_t errlen);
/* The games' time: unix ms (plus --test-clock's offset in tests). */
int64_t core_game_ms(const core *C);
/* Over by its rules, or ended by the server (abort, time). */
int core_over(const game *g);
/* A new game from a record: checked on the record thread, then
 * events.record_done(waiter, ...); CORE_PENDING (*handle lets the edge
 * abandon it), or the refusal in m. */
core_status core_record(core *C, peer *by, void *waiter, const char *text, size_t len,
                        const char *const player[2], job **handle, core_made *m);
/* The seat `token` plays `move` at `ply`. */
core_status core_move(core *C, game *g, const core_cred *who, const char *move, int ply,
                      char *err, size_t errlen);
core_status core_resign(core *C, game *g, const core_cred *who, char *err, size_t errlen);
/* ---- the lobby (lobby.c) ---- */
/* A seek by the signed-in account (want: game, options, rated, colour,
 * clock): CORE_CREATED with its id, or the refusal. */
core_status core_seek(core *C, const char *account, const store_seek *want, char id[STORE_ID_LEN],
                      char *err, size_t errlen);
/* The open seeks `viewer` (an account, or NULL) may see: all but others'
 * challenges, each with its owner's rating in its game (1500 unrated). */
void core_seeks_each(core *C, const char *viewer,
                     void (*fn)(void *ctx, const store_seek *s, double rating, int provisional),
                     void *ctx);
/* An account's ratings, one per game played rated. */
void core_ratings_each(core *C, const char *name,
                       int (*fn)(void *ctx, const char *game, const store_rating *r), void *ctx);
/* Whether a rating is still provisional (its deviation is large). */
int core_rating_provisional(const store_rating *r);
core_status core_unseek(core *C, const char *account, const char *id, char *err, size_t errlen);
/* Whether an open challenge (seen by its two players only) involves
 * `account` (NULL: any). */
int core_challenges_open(core *C, const char *account);
/* Seeks lapse: those whose owner `present` says has no lobby socket here,
 * and no other instance said has one, for cf.seek_lapse_secs (default
 * CORE_SEEK_LAPSE_SECS) are withdrawn.  The edge calls it about once a second. */
void core_seeks_lapse(core *C, int (*present)(void *ctx, const char *account), void *ctx);
/* shared.c: another instance said `account` has a lobby socket there. */
void core_seek_owner_present(core *C, const char *account);
/* The edge: an owner's last lobby socket here closed (its seeks lapse after
 * CORE_SEEK_GRACE_MS unless it comes back, here or elsewhere), or one opened. */
void core_seek_owner_left(core *C, const char *account);
void core_seek_owner_here(core *C, const char *account);
/* After a failed commit: 1 when seek `id` is taken or withdrawn in the store
 * (an accept lost a race: 409, not 503). */
int core_seek_gone(core *C, const char *id);
/* Withdraw every open seek of an account (its owner left the lobby). */
void core_unseek_all(core *C, const char *account);
/* The challenges made to `account` (it is closing), withdrawn as their
 * makers would withdraw them. */
void core_unseek_challenges_to(core *C, const char *account);
/* Accept a seek: CORE_CREATED with the game's id; CORE_CONFLICT for one's
 * own or one taken; CORE_NOTFOUND. */
core_status core_accept(core *C, const char *account, const char *id, char game_id[STORE_ID_LEN],
                        char *err, size_t errlen);
/* ---- quick pairing (pool.c) ---- */
/* The standard clocks of the pool, the same for every game. */
#define CORE_POOL_CLOCKS 3
extern const struct core_pool_clock {
    int initial, increment, days;
} core_pool_clocks[CORE_POOL_CLOCKS];
/* Join the pool of `game` on a standard clock (want: game, rated,
 * initial/increment or days): CORE_CREATED with the entry's id;
 * CORE_CONFLICT when the account has an entry already. */
core_status core_pool_join(core *C, const char *account, const store_seek *want,
                           char id[STORE_ID_LEN], char *err, size_t errlen);
/* Leave the pool: CORE_OK, CORE_NOTFOUND when not in it. */
core_status core_pool_leave(core *C, const char *account, char *err, size_t errlen);
/* The account's entry: 1 with it in *out, 0 none. */
int core_pool_mine(core *C, const char *account, store_seek *out);
/* How many wait in each pool: fn once for each (game, clock, rated) with
 * someone waiting. */
void core_pool_each(core *C, void (*fn)(void *ctx, const store_seek *s, int waiting), void *ctx);
/* Pair what can be paired: entries whose owner `present` says has a lobby
 * socket here, with any other entry whose owner is present (here or on
 * another instance).  The edge calls it about once a second. */
void core_pool_match(core *C, int (*present)(void *ctx, const char *account), void *ctx);

/* A rated game of the signed-in account against a computer level
 * ("ai:level=N"), which plays as the account "Computer-N" (its rating),
 * on `clock` (initial and increment, or days; SPEC: a rated game needs
 * one: CORE_BAD without). */
core_status core_create_rated(core *C, peer *by, const char *name, const char *options,
                              const char *const player[2], const char *account,
                              const store_seek *clock, core_made *m);
/* The account of a computer level: 1 and "Computer-N", 0 for no level. */
int core_computer_account(const char *player, char out[STORE_NAME_LEN]);
/* A game between two accounts (the lobby), colours as given. Takes s over. */
core_status core_create_accounts(core *C, tav_session *s, const char *const account[2], int rated,
                                 const store_seek *clock, core_made *m);
/* A player by name: 1 with the name as chosen, 0 unknown. */
int core_player(core *C, const char *name, char out[STORE_NAME_LEN]);
int core_ratings(core *C, const char *name,
                 int (*fn)(void *ctx, const char *game, const store_rating *r), void *ctx);
int core_player_games(core *C, const char *name, int limit, store_pgame_fn fn, void *ctx);
/* The best-rated players of a game (-1: no such game). */
int core_leaderboard(core *C, const char *gname, int limit,
                     int (*fn)(void *ctx, const char *name, const store_rating *r), void *ctx);
/* Games between two accounts being played now (in memory), at most max. */
void core_playing(core *C, int max, void (*fn)(void *ctx, game *g), void *ctx);
/* A player's unfinished games (brought into memory), newest first. */
void core_my_games(core *C, const char *name, void (*fn)(void *ctx, game *g), void *ctx);

/* A game's clocks now: 0 for none; else 1 with each side's time left in ms
 * (the side to move's running), or for days a move 2 with the deadline. */
int core_clock(const game *g, int64_t now_ms, int64_t left[2], int64_t *deadline_ms);

/* Offers between two people (extension): kind "draw" or "takeback", act
 * "offer", "accept" or "decline" (an offer's maker withdraws it with
 * "decline").  Accepting a draw ends the game drawn (end "agreement");
 * accepting a take-back takes back the asker's last move and what came
 * after it (never in a game with hidden information). */
core_status core_offer(core *C, game *g, const core_cred *who, const char *kind, const char *act,
                       char *err, size_t errlen);
/* The side to move left (SPEC "Consent and fair endings"): once its
 * account has had no socket open for CORE_ABANDON_MS, the other side may
 * end the game, result "win" or "draw" (end "abandon", rated); else
 * CORE_CONFLICT. */
core_status core_claim(core *C, game *g, const core_cred *who, const char *result, char *err,
                       size_t errlen);
/* Milliseconds until `side` may claim g at now_ms (0: it may now), or -1
 * when it may not (not its opponent's turn, the opponent present, ...). */
int64_t core_claim_in(const game *g, int side, int64_t now_ms);
/* The edge: an account's first socket opened (present 1) or its last one
 * closed (0) on this instance. */
void core_account_presence(core *C, const char *account, int present);
/* Many instances: another instance said the account has a socket open
 * there ("seen NAME" on tav_account); and the tick that says so of this
 * instance's accounts and starts the wait of those no longer seen anywhere. */
void core_account_seen_elsewhere(core *C, const char *account);
void core_presence_tick(core *C);
/* End a game before both sides have moved: unrated, no winner (SPEC). */
core_status core_abort(core *C, game *g, const core_cred *who, char *err, size_t errlen);
/* A finished game's rematch (m->g): CORE_CREATED, or CORE_OK when it was
 * made already; the seat's token is a seat of it too, on the other side. */
core_status core_rematch(core *C, game *g, const core_cred *who, peer *by, core_made *m);
core_status core_undo(core *C, game *g, const core_cred *who, int ply, char *err, size_t errlen);
/* A hint: CORE_PENDING (events.hint_done later) or the refusal.  *handle
 * lets the edge abandon it. */
core_status core_hint(core *C, game *g, const core_cred *who, peer *by, void *waiter,
                      job **handle, char *err, size_t errlen);
/* The waiter of a hint or record check went away. */
void core_abandon(core *C, job *j);
/* Start a finished game's analysis if not yet started. */
void core_analyse(core *C, game *g);

/* ---- many instances (shared.c, above games, lobby and accounts: the
 * edge calls it beside core_new, core_drain, core_tick and core_stop) ---- */
/* When the store is shared (core.shared): start the listener thread. */
int shared_start(core *C, const char *db, char *err, size_t errlen);
void shared_stop(core *C);
/* On the loop: what the other instances told, and (every CORE_SCAN_MS) the
 * games whose instance died, taken over. */
void shared_drain(core *C);
void shared_tick(core *C);
/* owner.c: a player's request or socket for g came here (many instances:
 * the game's owner moves to the instance its players ask). */
void core_game_asked(core *C, game *g);
/* load.c, for shared.c: a game changed elsewhere, as the message told it
 * ("ID", or "ID m ..." its moves: writer.c); if in memory its moves are
 * played, or it is read again; every game in memory read again; games
 * nobody looks after. */
/* 1: not yet (its writes wait); -1: it could not be read */
int core_game_changed_elsewhere(core *C, const char *note);
int core_refresh_all(core *C);   /* -1: some could not be read */
void core_take_over(core *C);
/* lobby.c, for shared.c: the seeks changed elsewhere (read them again);
 * a seek of `account` was accepted elsewhere as game `game_id`. */
void core_lobby_reload(core *C);
/* accounts.c, for shared.c: what another instance told on tav_account
 * ("fail NAME ADDR", "signup ADDR"). */
void core_account_note(core *C, const char *text);

/* ---- bots (bots.c; SPEC "Bots") ---- */
/* Whether an account is a bot account (0 for none or unknown). */
int core_is_bot(core *C, const char *name);
/* Make the signed-in account a bot, for good: CORE_OK (also when it is one
 * already), CORE_CONFLICT once it has played a game. */
core_status core_bot_make(core *C, const char *name, char *err, size_t errlen);
/* A new API token of the account: CORE_CREATED with its id and the token
 * (shown this once: the store keeps its hash), CORE_LIMIT past
 * CORE_TOKENS_PER_ACCOUNT. */
core_status core_token_new(core *C, const char *name, char id[STORE_ID_LEN], char token[64],
                           char *err, size_t errlen);
int core_tokens_each(core *C, const char *name, store_token_fn fn, void *ctx);
/* Revoke one of the account's tokens: CORE_OK, CORE_NOTFOUND. */
core_status core_token_revoke(core *C, const char *name, const char *id, char *err,
                              size_t errlen);
/* The account an API token stands for: 1 with its name, 0 unknown or
 * revoked (read from the store each time: a token revoked on any instance
 * is refused by all). */
int core_token_who(core *C, const char *token, char name[STORE_NAME_LEN]);
/* The challenged player declines a challenge (lobby.c): CORE_OK (its maker
 * is told: events.declined), CORE_FORBIDDEN for anyone else, CORE_NOTFOUND. */
core_status core_decline(core *C, const char *account, const char *id, const char *reason,
                         char *err, size_t errlen);
/* The reasons one may give for declining (a code the page words in the
 * maker's language): 1 for one of them. */
int core_decline_reason_ok(const char *reason);
/* Whether seek `id` became a game (in memory or in the store). */
int core_seek_taken(core *C, const char *id);
/* shared.c: another instance told "bot start|finish NAME ID". */
void bots_note(core *C, const char *text);
/* ---- tournaments (tournaments.c, above games and the lobby; the edge
 * drives it: SPEC "Tournaments", docs/tournaments.md) ---- */
#define CORE_TOURS_PER_DAY 5           /* tournaments one account may make in 24 hours */
#define CORE_TOUR_PLAYERS_MAX 100      /* players a tournament may hold (withdrawn ones count) */
#define CORE_TOUR_NAME_MAX 80          /* a tournament's name: bytes of UTF-8 */
#define CORE_TOUR_MINUTES_MAX 720      /* an arena's length */
#define CORE_TOUR_AHEAD_DAYS 365       /* how far ahead a tournament may start */
#define CORE_TOUR_ARENA_GAMES_MAX 5000 /* games an arena may pair in all */
#define CORE_TOUR_TICK_MS 1000         /* the owner looks at its tournaments this often */
#define CORE_TOUR_LIST_MAX 200         /* tournaments GET /api/tournaments lists */
#define CORE_TOUR_CLAIM_PREFIX "tour " /* a tournament's claim: this + its id */

/* A line of the standings, in the API's units (score: points; tiebreak:
 * Sonneborn–Berger for a round robin, wins for an arena). */
typedef struct core_tour_line {
    char name[STORE_NAME_LEN];
    double rating, score, tiebreak;
    int division, withdrawn, rank;
} core_tour_line;

/* A tournament as GET /api/tournaments/T shows it, computed from its
 * players and games (core_tour_view_free frees it). */
typedef struct core_tour_view {
    store_tour t;
    int n;
    core_tour_line *players;     /* in standing order */
    int ng;
    store_tour_game *games;      /* in the order made */
} core_tour_view;

/* A new tournament by `account` (want: name, game, options, kind, rated,
 * clock, starts, minutes, repeat): CORE_CREATED with its id, or the
 * refusal.  A recurring one ("day", "week") opens its next edition when it
 * starts, its players joined again unless they joined "once". */
core_status core_tour_create(core *C, const char *account, const store_tour *want,
                             char id[STORE_ID_LEN], char *err, size_t errlen);
/* once: in a recurring event, not joined again in the next edition. */
core_status core_tour_join(core *C, const char *account, const char *id, int once, char *err,
                           size_t errlen);
core_status core_tour_withdraw(core *C, const char *account, const char *id, char *err,
                               size_t errlen);
/* Its creator starts it now (CORE_CONFLICT when it cannot). */
core_status core_tour_start(core *C, const char *account, const char *id, char *err,
                            size_t errlen);
/* CORE_OK with v filled, CORE_NOTFOUND, CORE_UNAVAILABLE. */
core_status core_tour_read(core *C, const char *id, core_tour_view *v);
void core_tour_view_free(core_tour_view *v);
/* The tournaments, newest start first, at most `limit`. */
int core_tour_list(core *C, int limit, store_tour_fn fn, void *ctx);
/* On the loop, often: start the tournaments due, pair the arenas, end what
 * is over (each tournament by the one instance holding its claim). */
void core_tour_tick(core *C);
/* ---- chat in a game and the block list (chat.c; docs/server-api.md "Chat") ---- */
#define CORE_CHAT_MAX 140          /* characters (code points) a line */
#define CORE_CHAT_BURST 5          /* lines one account may post ... */
#define CORE_CHAT_BURST_MS 10000   /* ... in this many ms (any games) */
#define CORE_CHAT_PER_GAME 100     /* lines one account may post in one game */
#define CORE_CHAT_HISTORY 200      /* a room's newest lines sent as its history */
#define CORE_BLOCKS_MAX 500        /* names one account may block */
#define CORE_CHAT_SLOTS 4096       /* accounts whose recent lines are counted */
struct core_chat_line {
    int room;            /* STORE_ROOM_PLAYERS, STORE_ROOM_SPECTATORS */
    const char *name;    /* the account that wrote it */
    const char *text;    /* valid UTF-8, 1 to CORE_CHAT_MAX characters, no control characters */
    int64_t ms;          /* unix ms */
};
/* The room `account` reads and writes in g: STORE_ROOM_PLAYERS for its two
 * players, STORE_ROOM_SPECTATORS for anyone else signed in; -1 for none (not
 * signed in, g not between two people's accounts (a guest, the computer), or a
 * player whose chat is off in rated games and g is rated). */
int core_chat_room(core *C, const game *g, const char *account);
/* Post a line as `account` (its room by core_chat_room): CORE_CREATED with
 * the line's time in *ms, CORE_BAD (text), CORE_FORBIDDEN (no room, muted),
 * CORE_LIMIT (rate), CORE_UNAVAILABLE.  The line reaches the sockets through
 * events.chat once committed. */
core_status core_chat_post(core *C, game *g, const char *account, const char *text, int64_t *ms,
                           char *err, size_t errlen);
/* The newest lines of the room `account` may read in g (none for -1),
 * oldest first, without those of names `account` blocks; the room in *room. */
void core_chat_history(core *C, const game *g, const char *account, int *room,
                       void (*fn)(void *ctx, const core_chat_line *l), void *ctx);
/* 1 when `owner` blocks `name` (letter case ignored). */
int core_blocks(core *C, const char *owner, const char *name);
/* Block (on 1) or unblock (0) a player: CORE_OK, CORE_NOTFOUND (no such
 * player), CORE_BAD (oneself), CORE_LIMIT (CORE_BLOCKS_MAX), CORE_UNAVAILABLE. */
core_status core_block(core *C, const char *owner, const char *name, int on, char *err,
                       size_t errlen);
/* The names `owner` blocks, in the order blocked. */
void core_blocks_each(core *C, const char *owner, void (*fn)(void *ctx, const char *name),
                      void *ctx);
/* An account's chat flags (STORE_CHAT_OFF_RATED, STORE_CHAT_MUTED); set one
 * (the account page: off in rated games; the operator's `mute NAME`). */
int core_chat_flags(core *C, const char *account);
core_status core_chat_set_flag(core *C, const char *account, int flag, int on);
/* shared.c: another instance committed a line ("GAME ROOM MS NAME"). */
void core_chat_note(core *C, const char *text);
void core_chat_free(core *C);

/* ---- client addresses (peers.c) ---- */
/* The peer of an address, made when new; NULL when the table has no room
 * near its slot (the caller refuses the request). */
peer *peer_get(core *C, const char *addr);
int peer_is_loopback(const char *addr);
/* 1 when the per-address limits apply to p (loopback only with limit_loopback). */
int peer_limited(const core *C, const peer *p);
int peer_rate_exceeded(core *C, peer *p);         /* counts this request */

/* ---- small things shared with the edge ---- */
int64_t core_unix_ms(void);
void core_log(const core *C, const char *fmt, ...);
void core_vlog(const core *C, const char *fmt, va_list ap);

/* ---- e-mail (mail.c; docs/server-api.md "E-mail") ----
 * An address verified by a link, a switch per kind of message, a daily
 * digest, an unsubscribe link in every mail, at most MAIL_PER_HOUR mails an
 * hour; queued in the store, sent by a worker thread through libcurl's SMTP. */
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


#endif
