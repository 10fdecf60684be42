/*
 * srv.h — the server's shared structures (internal to src/server/).
 *
 * Threads: everything here belongs to the event loop thread, except the
 * done-queue (srv.qlock), which search workers append to before waking the
 * loop with lws_cancel_service().
 *
 * Lifetimes: a game, once loaded, lives until the server stops, so jobs and
 * sockets may point at it.  A job points at the HTTP connection waiting for
 * it (hints) and the connection at the job; whichever ends first unlinks.
 */
#ifndef SERVER_SRV_H
#define SERVER_SRV_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#include <libwebsockets.h>

#include "tavoliere.h"
#include "tavoliere_search.h"
#include "tavoliere_session.h"
#include "server/store.h"


/* Limits (docs/server-api.md "Limits"). */
#define SRV_BODY_MAX (64 * 1024)
#define SRV_RECORD_MAX (1024 * 1024)
#define SRV_WS_MSG_MAX 4096
#define SRV_WS_RATE 20          /* messages a second per socket */
#define SRV_WS_QUEUE_MAX 256    /* unsent messages before a slow socket is dropped */
#define SRV_IDLE_SECS 60
#define SRV_TOKEN_LEN 43        /* 32 bytes as unpadded base64url */
#define SRV_ID_CHARS 12         /* 9 bytes as base64url */
#define SRV_PLAYER_MAX 32
#define SRV_PLIES_MAX 1000      /* moves a server game may have (records, maxplies) */
#define SRV_CONNS_PER_ADDR 64   /* open connections per client address */
#define SRV_HEADERS_PER_ADDR 16 /* connections per address still sending their first request */
#define SRV_HEADER_POOL 4096    /* requests being read at once (libwebsockets' header pool) */
#define SRV_HEADER_SECS 5       /* a request's headers must arrive within this */
#define SRV_GAMES_PER_HOUR 60   /* games created per client address per hour (default) */
#define SRV_HINTS_PER_ADDR 4    /* hint searches under way per client address */
#define SRV_CPU_GAMES_PER_ADDR 2   /* unfinished computer-only games per client address */
#define SRV_CPU_PACE_MS 1000    /* a computer-only game moves at most once a second (--pace) */
#define SRV_RECORDS_PER_ADDR 2  /* record uploads being checked per client address */
#define SRV_RECORD_QUEUE 16     /* record uploads being checked in all */
#define SRV_BODY_MEMORY (64L * 1024 * 1024)   /* request bodies held in all */
#define SRV_BODY_PER_ADDR (4L * 1024 * 1024)  /* request bodies held per client address */
#define SRV_GAME_IDLE_SECS 300  /* a game untouched this long leaves memory */
#define SRV_HOSTS_MAX 16        /* --allow-host names */

typedef struct srv srv;
typedef struct game game;
typedef struct peer peer;
typedef struct conn conn;
typedef struct job job;

/* A message shared by the sockets it is queued on (reference counted). */
typedef struct msg {
    int refs;
    long batch;       /* sent only once this batch is committed (0: at once) */
    size_t len;
    char data[];      /* LWS_PRE bytes of room, then len bytes */
} msg;

typedef struct msgq {
    msg **item;
    int head, count, cap;
} msgq;

enum { JOB_MOVE, JOB_HINT, JOB_ANALYSIS, JOB_RECORD };

/* Search priorities (tav_budget.priority): someone waits for the first two. */
enum { PRIO_CPU_ONLY = 0, PRIO_ANALYSIS = 1, PRIO_HINT = 2, PRIO_SEAT = 3 };

/* What one client address holds and has used (peers.c). */
#define PEER_ADDR_LEN 64
struct peer {
    char addr[PEER_ADDR_LEN];   /* "" never used; IPv6 as its /64 */
    int loopback;
    int conns;           /* open connections */
    int unready;         /* ... of which still sending their first request */
    int hints;           /* hint searches under way */
    int cpu_games;       /* unfinished computer-only games it created (in memory) */
    int records;         /* record uploads being checked */
    long body_bytes;     /* request-body bytes held */
    int64_t rate_sec;    /* API requests in this second */
    int rate_count;
    int64_t hour;        /* games created in this hour */
    int games_hour;
    int64_t seen;        /* unix seconds of the last lookup */
};
#define SRV_PEER_SLOTS 16384

/* One search handed to the service.  Owned by the loop; the worker only
 * fills `answer` and appends the job to the done-queue. */
struct job {
    int kind;
    game *g;
    int ply;             /* the game's ply when submitted: a stale answer is dropped */
    int stale;           /* cancelled: its answer is ignored */
    uint64_t handle;
    conn *waiter;        /* JOB_HINT: the HTTP request waiting for it */
    srv *server;
    tav_answer answer;
    job *next;           /* done-queue */
    double started;      /* tav_now() at submit */
    long budget_ms;
    job *wprev, *wnext;  /* JOB_MOVE: on the watchdog's list while running */
    peer *by;            /* JOB_HINT, JOB_RECORD: the address it counts against */
    int cpu;             /* JOB_MOVE of a computer-only game (counted in cpu_running) */
    /* JOB_RECORD: checked on the record thread */
    char *text;
    size_t len;
    char player[2][STORE_PLAYER_LEN];
    tav_session *made;   /* the session it makes, or NULL with err */
    int rstatus;         /* HTTP status of a refusal */
    char err[320];
};

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

struct game {
    char id[STORE_ID_LEN];
    tav_session *s;
    char player[2][STORE_PLAYER_LEN];   /* "human", "random", "ai:level=3" */
    int human[2];
    unsigned char seat_hash[2][STORE_HASH_LEN];
    job *job;            /* the computer seat's search now, or NULL */
    conn *live;          /* WebSocket viewers */
    int nlive;
    int64_t last_ms;     /* wall clock (unix ms) of the last move, for move times */
    analysis *an;
    game *hnext;         /* hash chain */
    game *anext;         /* analysis queue */
    int bcast;           /* changed in the open batch: tell the viewers after the commit */
    game *bnext;
    unsigned long version;   /* bumped by every change of the session */
    char *json[3];       /* the game's JSON per kind of viewer (white, black, spectator) */
    size_t jlen[3];
    unsigned long jstamp[3];  /* ... as of this stamp (game_stamp) */
    int hints;           /* hint searches under way */
    int jobs_out;        /* searches submitted and not yet drained (they point at it) */
    int cpu_only;        /* both seats are computers */
    peer *owner;         /* cpu_only: the address whose cpu_games count it holds */
    int cwaiting;        /* cpu_only: on the server's list of games waiting to search */
    game *cnext;
    int64_t touched;     /* unix seconds of the last request or change (idle games leave) */
};

enum { CONN_HTTP = 0, CONN_WS = 1 };

/* Per-connection state (libwebsockets' per-session user data). */
struct conn {
    struct lws *wsi;
    int kind;
    /* HTTP */
    int method;          /* 'G' GET, 'P' POST */
    char path[256];
    char *body;
    size_t blen, bmax;
    int body_too_big;
    char *resp;          /* LWS_PRE room, then the body */
    size_t rlen, rsent;
    int status;
    const char *ctype;
    int extra_headers;   /* 1: the page headers (CSP ...) */
    int headers_sent;
    int close_after;
    int responding;
    job *waiting;        /* a hint search answering this request */
    int awaiting;        /* the answer waits for the batch's commit */
    conn *aprev, *anext;
    /* WebSocket */
    game *g;
    int viewer;
    msgq q;
    char *rx;
    size_t rxlen;
    int64_t rate_sec;
    int rate_count;
    unsigned long sent;  /* stamp (game_stamp) of the last game JSON queued on it */
    unsigned long resent;   /* ... and of the last one sent again for {"since": N} */
    conn *prev, *next;   /* in g->live */
    peer *bpeer;         /* HTTP: the address the body's bytes count against */
    size_t bcap;         /* HTTP: bytes allocated for the body */
};

/* Connections counted per address: the libwebsockets connection (wsi) and
 * the peer it counts against, from accept to close. */
typedef struct wsi_peer {
    const void *wsi;
    peer *p;
    int unready;         /* its first request has not arrived whole yet */
    struct wsi_peer *next;
} wsi_peer;
#define SRV_WSI_BUCKETS 4096

/* Games in memory, by id. */
#define SRV_HASH_SIZE 4096

struct srv {
    struct lws_context *ctx;
    store *st;
    tav_service *svc;
    char webdir[4200];
    int have_web;
    int quiet;
    long ai_ms;          /* cap on a computer move's time */
    int rate;            /* API requests a second per client address (0: no limit) */
    int limit_loopback;  /* apply `rate` to loopback clients too */
    game *games[SRV_HASH_SIZE];
    long ngames;
    pthread_mutex_t qlock;
    job *done_head, *done_tail;
    game *an_head, *an_tail;   /* finished games waiting for analysis */
    job *an_job;               /* the analysis search running now */
    job *running;              /* computer moves being searched (the watchdog's list) */
    int stopping;
    peer peers[SRV_PEER_SLOTS];
    wsi_peer *wsi_map[SRV_WSI_BUCKETS];
    peer *accepting;     /* counted at accept, not yet given its connection */
    long body_bytes;     /* request-body bytes held in all */
    int games_per_hour;
    long pace_ms;        /* a computer-only game waits this long between moves */
    char hosts[SRV_HOSTS_MAX][256];   /* host names the Host header may name */
    int nhosts;
    game *cwait_head, *cwait_tail;    /* computer-only games waiting to search */
    int cpu_running;     /* computer-only searches submitted */
    int records_out;     /* record uploads being checked */
    int cpu_cap;         /* ... at most this many at once */
    int workers;
    /* The record thread: checks uploaded records off the loop. */
    pthread_t rthread;
    int rthread_started;
    pthread_mutex_t rlock;
    pthread_cond_t rcond;
    job *rq_head, *rq_tail;
    int rq_count;
    int rstop;
    int64_t last_sweep;
    lws_sorted_usec_list_t flush_sul;   /* commits the open batch */
    lws_sorted_usec_list_t tick_sul;    /* drains answers, watches searches */
    int flush_scheduled;
    conn *await_head;    /* answers waiting for the commit */
    game *bcast_head;    /* games to broadcast after the commit */
    long batches, batched;
    double commit_secs;  /* time spent committing (statistics) */
    double commit_max;
    long batch_open;     /* number of the open batch (while store_pending) */
    long batch_done;     /* last committed batch */
    long requests, moves_played;
};

/* ---- peers.c ---- */
/* The peer of an address, made when new; NULL when the table has no room
 * near its slot (the caller refuses the request). */
peer *peer_get(srv *S, const char *addr);
peer *peer_of(srv *S, struct lws *wsi);          /* the connection's peer */
int peer_is_loopback(const char *addr);
/* 1 when the per-address limits apply to p (loopback only with --limit-loopback). */
int peer_limited(const srv *S, const peer *p);
int peer_rate_exceeded(srv *S, peer *p);         /* counts this request */
int peer_game_allowed(srv *S, peer *p);          /* under the games-per-hour limit */
void peer_game_created(srv *S, peer *p);

/* ---- game.c ---- */
int games_init(srv *S, char *err, size_t errlen);
void games_shutdown(srv *S);
game *game_get(srv *S, const char *id);          /* loads from the store; NULL unknown */
/* Which side a token holds in g: TAV_WHITE, TAV_BLACK, or -1. */
int game_seat(const game *g, const char *token);
int game_mover_at(const game *g, int ply);
void games_drain(srv *S);                        /* answers from the workers */
void games_tick(srv *S);                         /* drain, and retry overdue searches */
void games_free(srv *S);                         /* after the loop and workers stopped */
void game_analyse(srv *S, game *g);              /* a finished game's analysis, if not yet */
/* Play, store, keep (in that order): TAV_OK or the refusal with a message. */
int game_commit_move(srv *S, game *g, const char *text, char *err, size_t errlen);
/* After any change: tell the viewers, let a computer seat think. */
void game_changed(srv *S, game *g);
/* NULL: refused (status 409 or 429 and a message). */
job *game_hint(srv *S, game *g, conn *waiter, peer *by, int *status, char *err, size_t errlen);
/* A record upload, checked on the record thread: NULL refused (status, message). */
job *game_record_submit(srv *S, conn *waiter, peer *by, const char *text, size_t len,
                        const char *const player[2], int *status, char *err, size_t errlen);
void game_job_abandon(srv *S, job *j);           /* its request went away */
/* 1 when s runs on a deal its creator chose (a seed or explicit stacks):
 * hidden from both sides until the end, but the game's JSON says so. */
int game_deal_chosen(const tav_session *s);
/* The game's JSON for a viewer, built once per change and kind of viewer
 * (borrowed: valid until the game next changes); NULL on no memory. */
const char *game_json(game *g, int viewer, size_t *len);
/* A stamp that changes whenever the game's JSON may change. */
unsigned long game_stamp(const game *g);
/* Sweep games nobody has used for SRV_GAME_IDLE_SECS out of memory. */
void games_sweep(srv *S);
/* 0, -1 refused (message), -2 storage failure. */
int game_resign(srv *S, game *g, int side, char *err, size_t errlen);
int game_undo(srv *S, game *g, int side, char *err, size_t errlen);
/* A new game from a session (taken over on success); tokens of human seats. */
game *game_create(srv *S, tav_session *s, const char *const player[2], peer *by,
                  char tokens[2][48], char *err, size_t errlen);
int64_t srv_unix_ms(void);
void srv_random_b64(char *out, size_t nbytes);   /* out: 4*ceil(nbytes/3)+1 */
void srv_token_hash(const char *token, unsigned char hash[STORE_HASH_LEN]);
void srv_log(const srv *S, const char *fmt, ...);

/* API actions: each answers an HTTP status and a JSON (or text) body. */
typedef struct reply {
    int status;
    char *body;          /* heap */
    const char *ctype;
    job *pending;        /* hint: answer later */
} reply;
void api_handle(srv *S, conn *c, peer *by, const char *path, int method, const char *body,
                size_t blen, const char *query_seat, const char *query_ply, reply *r);
void api_hint_done(srv *S, job *j, reply *r);
void api_record_done(srv *S, job *j, reply *r);

/* ---- json.c ---- */
char *json_game(const game *g, int viewer);      /* viewer TAV_WHITE/TAV_BLACK/TAV_SPECTATOR */
char *json_view(const tav_session *s, int ply, int viewer);
char *json_error(const char *fmt, ...);
char *json_meta(void);
char *json_analysis(const game *g);

/* ---- serve.c ---- */
/* After a write: commit the batch once the loop has read what is waiting. */
void srv_dirty(srv *S);
/* Commit the batch, then send the answers and live messages that waited. */
void srv_flush(srv *S);

/* ---- http.c ---- */
void live_broadcast(srv *S, game *g);
void live_close_all(srv *S, game *g);
void http_reply_ready(conn *c, reply *r);
void http_release(srv *S);           /* after a commit: send what waited */
void http_conns_free(srv *S);        /* after the loop: the connection counts */
extern const struct lws_protocols *const srv_protocols;

#endif
