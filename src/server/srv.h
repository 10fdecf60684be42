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

typedef struct srv srv;
typedef struct game game;
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

enum { JOB_MOVE, JOB_HINT, JOB_ANALYSIS };

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
    conn *prev, *next;   /* in g->live */
};

/* Requests counted per client address and second (the API's rate limit). */
typedef struct rate_slot {
    char addr[48];
    int64_t sec;
    int count;
} rate_slot;
#define SRV_RATE_SLOTS 1024

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
    rate_slot rates[SRV_RATE_SLOTS];
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
job *game_hint(srv *S, game *g, conn *waiter);   /* NULL: refused */
void game_hint_abandon(srv *S, job *j);          /* its request went away */
/* 0, -1 refused (message), -2 storage failure. */
int game_resign(srv *S, game *g, int side, char *err, size_t errlen);
int game_undo(srv *S, game *g, int side, char *err, size_t errlen);
/* A new game from a session (taken over on success); tokens of human seats. */
game *game_create(srv *S, tav_session *s, const char *const player[2], char tokens[2][48],
                  char *err, size_t errlen);
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
void api_handle(srv *S, conn *c, const char *path, int method, const char *body, size_t blen,
                const char *query_seat, const char *query_ply, reply *r);
void api_hint_done(srv *S, job *j, reply *r);

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
extern const struct lws_protocols *const srv_protocols;

#endif
