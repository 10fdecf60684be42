/*
 * srv.h — the server's edge (internal to src/server/): HTTP and WebSocket on
 * libwebsockets, JSON with jansson, around the core (server/core/core.h),
 * which holds the games and knows none of that.
 *
 * Threads: everything here belongs to the event loop thread.  The core's
 * workers wake the loop through the `wake` event (lws_cancel_service).
 *
 * Lifetimes: a game the edge points at (its sockets, its messages waiting
 * for a commit) is pinned in the core (core_pin) and stays in memory; its
 * per-game data (gview) hangs off game->edge and is freed when the core
 * lets the game go (the `freeing` event).
 */
#ifndef SERVER_SRV_H
#define SERVER_SRV_H

#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include <libwebsockets.h>

#include "server/core/core.h"

/* Limits (docs/server-api.md "Limits"). */
#define SRV_BODY_MAX (64 * 1024)
#define SRV_RECORD_MAX (1024 * 1024)
#define SRV_WS_MSG_MAX 4096
#define SRV_WS_RATE 20          /* messages a second per socket */
#define SRV_WS_QUEUE_MAX 256    /* unsent messages before a slow socket is dropped */
#define SRV_IDLE_SECS 60
#define SRV_COOKIE "tav_session"   /* the session cookie's name */
#define SRV_CONNS_PER_ADDR 64   /* open connections per client address */
#define SRV_HEADERS_PER_ADDR 16 /* connections per address still sending their first request */
#define SRV_HEADER_POOL 4096    /* requests being read at once (libwebsockets' header pool) */
#define SRV_HEADER_SECS 5       /* a request's headers must arrive within this */
#define SRV_BODY_MEMORY (64L * 1024 * 1024)   /* request bodies held in all */
#define SRV_BODY_PER_ADDR (4L * 1024 * 1024)  /* request bodies held per client address */
#define SRV_HOSTS_MAX 16        /* --allow-host names */
#define SRV_SOCKETS_PER_ACCOUNT 32   /* lobby and game sockets open per signed-in account */
#define SRV_ACCOUNT_SLOTS 8192  /* accounts with sockets open, counted */
#define SRV_STATIC_MAX (32L * 1024 * 1024)    /* web files kept in memory, in all */

typedef struct srv srv;
#define SRV_PROXIES_MAX 8
typedef struct conn conn;

/* What /metrics counts (ops.c): latencies in buckets of at most these
 * microseconds (the last bucket: more). */
#define SRV_LAT_BUCKETS 12
#define SRV_LAT_BOUNDS_US {1000, 2000, 5000, 10000, 25000, 50000, 100000, 250000, 500000, \
                           1000000, 2500000, 10000000}
typedef struct srv_hist {
    long count[SRV_LAT_BUCKETS + 1];
    long n;
    int64_t sum_us;
} srv_hist;
#define SRV_STATUS_KINDS 14   /* statuses counted apart, and "other" */
enum { SRV_MOVE_PLAYED, SRV_MOVE_REFUSED, SRV_MOVE_CONFLICT, SRV_MOVE_LIMITED, SRV_MOVE_UNAVAILABLE,
       SRV_MOVE_FAILED, SRV_MOVE_KINDS };
typedef struct srv_metrics {
    long requests[SRV_STATUS_KINDS];
    long moves[SRV_MOVE_KINDS];
    srv_hist move_latency, api_latency;
} srv_metrics;
#define SRV_HEALTH_LAG_US (2 * 1000000)   /* a loop later than this is not healthy */
#define SRV_METRICS_ALLOW_MAX 16
typedef struct gview gview;

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

/* The edge's data of one game (game->edge). */
struct gview {
    game *g;
    conn *live;          /* WebSocket viewers */
    int nlive;
    char *json[3];       /* the game's JSON per kind of viewer (white, black, spectator) */
    size_t jlen[3];
    unsigned long jstamp[3];  /* ... as of this stamp (core_stamp) */
    int seated[2];       /* live sockets holding each seat (presence) */
    int bcast;           /* messages wait for a commit: tell the viewers after it */
    long bcast_batch;    /* ... the last batch they wait for */
    gview *bnext;
    int rated_told;      /* its new ratings were told to the lobby sockets (lobby_mygame) */
};

enum { CONN_HTTP = 0, CONN_WS = 1 };

/* Per-connection state (libwebsockets' per-session user data). */
struct conn {
    struct lws *wsi;
    int kind;
    /* HTTP */
    int method;          /* 'G' GET, 'P' POST, 'D' DELETE */
    int64_t t0_us;       /* when the request arrived (monotonic; the log's latency) */
    char set_cookie[256];   /* a Set-Cookie header for the answer, "" none */
    char disposition[96];   /* a Content-Disposition header for the answer, "" none */
    char path[256];
    char *body;
    size_t blen, bmax;
    char *resp;          /* the body of the answer */
    size_t rlen, rsent;
    int resp_static;     /* resp is a cached web file: not freed */
    int status;
    const char *ctype;
    int headers_sent;
    int close_after;
    int responding;
    job *waiting;        /* a hint search or record check answering this request */
    int awaiting;        /* the answer waits for the commit of batch `batch` */
    long batch;
    long hold;           /* a read's answer shows the writes of this batch (reply.hold) */
    int rerun;           /* the request is handled again once batch `batch` is committed */
    int reran;           /* ... and was (once is enough: then its answer goes) */
    conn *aprev, *anext;
    peer *bpeer;         /* the address the body's bytes count against */
    char seek[STORE_ID_LEN];   /* an accept of this seek waits for its commit */
    size_t bcap;         /* bytes allocated for the body */
    /* WebSocket */
    gview *gv;
    int viewer;
    msgq q;
    char *rx;
    size_t rxlen;
    int64_t rate_sec;
    int rate_count;
    unsigned long sent;  /* stamp (core_stamp) of the last game JSON queued on it */
    unsigned long resent;   /* ... and of the last one sent again for {"since": N} */
    int presence;        /* asked for presence messages (?presence=1) */
    int64_t heard_ms;    /* unix ms of the last frame from the client (a pong included) */
    int ping_due;        /* a ping waits for the socket to be writable */
    int pinged;          /* a ping went out and no frame came back since */
    int64_t pinged_ms;   /* unix ms when that ping was asked for */
    int idle_jitter_ms;  /* spreads the pings of sockets opened together */
    conn *prev, *next;   /* in gv->live, or in the lobby's list */
    int lobby;           /* a lobby socket (/api/lobby) */
    int counted;         /* counted against its account's sockets */
    int told_closing;    /* SIGTERM's {"type": "restarting"} went out */
    char account[STORE_NAME_LEN];   /* the signed-in account of a lobby socket, "" none */
    /* A bot's event socket (/api/bot/events, bots_api.c): the challenges
     * and unfinished games it was told of. */
    int bot;
    char (*told_seeks)[STORE_ID_LEN];
    int ntold_seeks;
    char (*told_games)[STORE_ID_LEN];
    int ntold_games;
    /* A tournament's live socket (tournaments_api.c): its id ("" none), the
     * hash of the JSON it has, the games it knows of, looked at this pass. */
    char tour[STORE_ID_LEN];
    unsigned long tour_hash;
    int tour_seen;
    int tour_done;
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

/* A web file kept in memory (read once). */
typedef struct sfile {
    char *path;          /* the URL path */
    char *data;
    size_t len;
    const char *type;
    struct sfile *next;
} sfile;

struct srv {
    core *C;
    struct lws_context *ctx;
    char webdir[4200];
    int have_web;
    int quiet;
    sfile *files;        /* web files read so far */
    long files_bytes;
    lws_sorted_usec_list_t flush_sul;   /* commits the open batch */
    lws_sorted_usec_list_t tick_sul;    /* drains answers, watches searches */
    int flush_scheduled;
    conn *await_head;    /* answers waiting for the commit */
    conn *lobby;         /* lobby sockets */
    conn *tours;         /* tournaments' live sockets (tournaments_api.c) */
    int64_t tours_looked;   /* unix ms they were last read again */
    struct { char name[STORE_NAME_LEN]; int n; } acct_socks[SRV_ACCOUNT_SLOTS];   /* sockets per account */
    int lobby_held;      /* lobby messages wait for a commit */
    gview *bcast_head;   /* games to broadcast after the commit */
    long batches;        /* batches committed */
    long failed;         /* batches that failed */
    long batch_done;     /* the last batch settled (committed or failed) */
    long requests;
    wsi_peer *wsi_map[SRV_WSI_BUCKETS];
    peer *accepting;     /* counted at accept, not yet given its connection */
    long body_bytes;     /* request-body bytes held in all */
    char hosts[SRV_HOSTS_MAX][256];   /* host names the Host header may name */
    int nhosts;
    int uv;              /* the loop is libuv's (else poll) */
    int stopped;         /* the first half of the stop is done */
    int secure_cookies;  /* --tls-proxy: served over TLS by a proxy in front */
    int retention_days;  /* --retention-days: chat lines and reports kept this long (0 ever) */
    int behind_proxy;    /* --proxy: the proxy's X-Real-IP names the client */
    char proxies[SRV_PROXIES_MAX][64];   /* --proxy-addr: the proxies believed besides loopback */
    int nproxies;
    int stats;           /* --stats: the database figures at exit (benchmarks) */
    int64_t idle_swept;  /* unix ms of the last sweep of idle live sockets */
    int idle_part;       /* the part of the games' sockets the next sweep looks at */
    /* ops.c: the operator's figures and the instance's name in the log */
    char name[128];      /* --name, else HOST:PORT */
    srv_metrics metrics;
    long socks_live, socks_lobby;   /* WebSockets open */
    int64_t started_us;  /* monotonic time at start */
    int64_t tick_due_us, lag_window_us, lag_cur_us, lag_prev_us, lag_max_us;
    char metrics_allow[SRV_METRICS_ALLOW_MAX][64];   /* --metrics-allow addresses */
    int nmetrics_allow;
    int draining;        /* SIGTERM: new requests are refused while what is held is answered */
    int closing;         /* ... then every WebSocket is closed with 1001 */
    int64_t drain_us;    /* when the drain began (monotonic) */
    int64_t lapse_checked;   /* unix ms of the last look for seeks whose owner left */
    int now_dirty;           /* who is online or a game between accounts changed ... */
    int64_t now_sent;        /* ... told the lobby sockets at most once a second (lobby_now) */
    int64_t live_idle_ms;   /* a silent live socket is pinged after half this, closed after it */
    conn *bots;          /* bots' event sockets (bots_api.c) */
    long socks_bots;
};

/* API actions: each answers an HTTP status and a JSON (or text) body. */
typedef struct reply {
    int status;
    char *body;          /* heap */
    const char *ctype;
    char set_cookie[256];   /* a Set-Cookie header, "" none */
    char disposition[96];   /* a Content-Disposition header (a download), "" none */
    job *pending;        /* hint, record: answered later */
    long hold;           /* sent once this batch is committed: it shows its writes (0: at once) */
    int again;           /* CORE_AGAIN: the request is handled again once the writes pending are committed */
    char seek[STORE_ID_LEN];   /* an accept of this seek: a lost race is 409, not 503 */
} reply;

/* ---- api.c ---- */
/* Who asks: the signed-in account (from the session cookie), if any. */
typedef struct asker {
    peer *by;
    const char *token;              /* the session cookie's token, or NULL */
    char account[STORE_NAME_LEN];   /* its account, "" when none (or expired) */
    int secure;                     /* cookies get Secure (TLS) */
    char ua[STORE_UA_LEN];          /* the User-Agent header ("" none) */
    int bearer;                     /* the account comes from an API token (SPEC "Bots") */
} asker;
void api_account_done(srv *S, core_signed *r, int secure, reply *out);
/* ---- mail_api.c: e-mail (docs/server-api.md "E-mail") ---- */
/* The mail routes: 1 when `path` was one of them. */
int mail_routes(srv *S, const asker *who, const char *path, int method, const char *body,
                size_t blen, reply *r);
/* Start the core's mail worker with the catalogs' words (after core_new). */
int mail_serve_start(srv *S, const char *smtp, const char *from, const char *public_url,
                     const char *db, char *err, size_t errlen);
/* ---- pool_api.c: quick pairing (docs/server-api.md "Quick pairing") ---- */
int pool_routes(srv *S, const asker *who, const char *path, int method, const char *body,
                size_t blen, reply *r);
/* {"type": "pool", "pools": [...]}: how many wait in each pool (heap). */
char *api_pool_text(srv *S);
/* The open seeks as GET /api/seeks answers them (heap). */
char *api_seeks_json(srv *S, const char *viewer);
/* The player's channel: messages for an account's lobby sockets (heap). */
char *api_mygame_text(srv *S, game *g, const char *account);
char *api_rematch_text(srv *S, game *g, const char *by);
char *api_mine_text(srv *S, const char *account);
void lobby_mygame(srv *S, game *g);
char *api_now_text(srv *S);
void lobby_now(srv *S, int64_t now);
/* api.c answers the games, the accounts and the seeks: its groups of
 * requests, each 1 when `path` was one of them (answered in r); api_handle
 * the rest (pages, players, meta, games), 404 for what nobody answers. */
int api_account_routes(srv *S, conn *c, const asker *who, const char *path, int method,
                       const char *body, size_t blen, reply *r);
int api_seek_routes(srv *S, const asker *who, const char *path, int method, const char *body,
                    size_t blen, reply *r);
void api_handle(srv *S, conn *c, const asker *who, const char *path, int method, const char *body,
                size_t blen, const char *query_seat, const char *query_ply, reply *r);

/* ---- routes.c: each request to the file that answers it (the top of the
 * route files: http.c calls it; no route file calls it) ---- */
void routes_answer(srv *S, conn *c, const asker *who, const char *path, int method,
                   const char *body, size_t blen, const char *query_seat, const char *query_ply,
                   reply *r);
void api_hint_done(srv *S, const core_answer *h, reply *r);
void api_record_done(srv *S, core_made *m, reply *r);


/* ---- ops.c ---- */
int64_t ops_now_us(void);
/* An answer's headers went out: count it, log its line (addr: the client's
 * real address). */
void ops_answered(srv *S, conn *c, const char *addr);
/* GET /api/health and GET /metrics: 1 with the answer in r, else 0. */
int ops_route(srv *S, conn *c, const char *uri, const char *addr, reply *r);
void ops_tick(srv *S, int64_t now_us);

/* ---- json.c ---- */
/* What the game's JSON says beside the session: its id, its players,
 * whether a computer seat is thinking, whether undo is ever offered. */
typedef struct json_seats {
    const char *id;
    const char *player[2];
    int thinking;
    int undo;
    int help;            /* engine help (hints) allowed now (SPEC "Fair play") */
    const char *rematch; /* the game that followed, "" for none */
    const char *account[2];   /* each side's account, "" none (SPEC "accounts") */
    int rated;
    const char *end;     /* ended by the server ("abort", "time"), else "" */
    int end_winner;      /* "time": the side that won; "agreement": TAV_DRAW */
    int draw_offer, takeback_offer;   /* the side offering, -1 none */
    int rematch_offer;   /* a finished game between two accounts: the side offering, -1 */
    int absent;          /* "abort" by a first move not made, "abandon": that side, -1 */
    const double *rating_before, *rating_after;   /* [2], 0: not known (not rated, not over) */
    int bot[2];          /* each side's account is a bot (SPEC "Bots") */
    const char *tournament;   /* the tournament it is a game of, "" or NULL none */
} json_seats;
/* A game as `viewer` (TAV_WHITE, TAV_BLACK, TAV_SPECTATOR) sees it, built
 * from its session: nothing the viewer may not see reaches this. */
char *json_game(const tav_session *s, const json_seats *g, int viewer);
char *json_view(const tav_session *s, int ply, int viewer);
char *json_error(const char *fmt, ...);
/* An answer: a JSON body (taken over), a JSON value (taken over; 500 when it
 * cannot be written), a refusal {"error": text} (its code is added where
 * every answer passes: errcode.c). */
void reply_text(reply *r, int status, char *body);
void reply_json(reply *r, int status, json_t *o);
void reply_refuse(reply *r, int status, const char *text);

/* ---- errcode.c ---- */
/* The stable code of a refusal (docs/server-api.md "Refusals and their
 * codes"): its kind when the message is of a known kind, else its status's. */
const char *error_code(int status, const char *message);
const char *error_code_of_status(int status);
/* The HTTP status of a core answer (CORE_CONFLICT: 409, ...). */
int api_http_status(core_status st);
char *json_meta(void);
char *json_analysis(const tav_session *s, const analysis *an);
/* The game's JSON for a viewer, built once per change and kind of viewer
 * (borrowed: valid until the game next changes); NULL on no memory. */
const char *json_game_cached(game *g, int viewer, size_t *len);
/* The game's JSON now (heap): the cached text with the clocks as they are
 * at this moment (SPEC: the side to move's clock running). */
char *json_game_copy(core *C, game *g, int viewer, size_t *len);
/* Who is online (GET /api/online): {"count": N, "names": [...]}, the
 * accounts with a lobby or game socket open, each once, at most max names. */
json_t *json_online(srv *S, int max);

/* ---- flush.c ---- */
/* After a write: hand the batch to the core's writer once the loop has
 * read what is waiting. */
void srv_dirty(srv *S);
void srv_flush(srv *S);
void srv_log(const srv *S, const char *fmt, ...);

/* ---- http.c: requests, answers, connections, the protocol callback ---- */
void http_reply_ready(conn *c, reply *r);
/* Batch n is settled: send what waited for it, or (failed) answer 503 and
 * drop the live messages that would tell of it. */
void http_committed(srv *S, long n, int ok);
void http_conns_free(srv *S);        /* after the loop: the connection counts */
extern const struct lws_protocols *const srv_protocols;
/* SIGTERM's drain: whether answers still wait for a commit; close every
 * WebSocket with 1001 once its queue is sent. */
int http_answers_pending(const srv *S);
void http_close_sockets(srv *S);
void http_respond(conn *c, int status, const char *ctype, char *body, size_t len);

/* ---- moderation_api.c: closing an account, the export, reports ---- */
int moderation_routes(srv *S, conn *c, const asker *who, const char *path, int method,
                      const char *body, size_t blen, reply *r);
/* The core's events.account_gone: the account's live sockets close. */
void srv_account_gone(void *ctx, const char *account);

/* ---- chat_api.c: chat in a game, the block list (docs/server-api.md "Chat") ---- */
/* /api/games/ID/chat, /api/blocks, /api/me/chat: 1 when `path` was one of them. */
int chat_routes(srv *S, const asker *who, const char *path, int method, const char *body,
                size_t blen, reply *r);
/* events.chat: a committed line to the sockets of g that may read it. */
void chat_event(void *ctx, game *g, const core_chat_line *line);
/* A game socket opened: its room's history. */
void chat_socket_open(srv *S, conn *c);

/* ---- request.c: what a request carries (HTTP and live sockets alike) ---- */
srv *http_server_of(struct lws *wsi);
peer *http_peer(srv *S, struct lws *wsi);    /* the connection's client address */
/* Whether addr is the proxy in front (--behind-proxy): its clients count. */
int http_trusted_proxy(const srv *S, const char *addr);
int http_host_allowed(srv *S, struct lws *wsi);
int http_foreign_origin(struct lws *wsi);
const char *http_url_arg(struct lws *wsi, const char *name, char *out, size_t n);
const char *http_session_token(struct lws *wsi, char *out, size_t n);
/* `Authorization: Bearer TOKEN`: 1 with the token, 0 malformed, -1 none. */
int http_bearer_token(struct lws *wsi, char *out, size_t n);

/* ---- files.c: the page's files, from memory ---- */
/* The answer to a request for `path` (method 'G' for GET): its status,
 * type and body; `shared` when the body is the cache's own bytes (never
 * freed with the answer). */
typedef struct file_answer {
    int status;
    const char *ctype;
    char *body;
    size_t len;
    int shared;
} file_answer;
void files_answer(srv *S, int method, const char *path, file_answer *a);
void http_files_free(srv *S);

/* ---- wsq.c: the sockets' message queues, a text on one socket, each
 * account's sockets here (the bottom of the edge: calls none of its callers) ---- */
msg *ws_msg_new(const char *text, size_t len);
void ws_msg_unref(msg *m);
/* Queue m on q (a reference taken): 0, or -1 when the queue is full. */
int ws_q_push(msgq *q, msg *m);
msg *ws_q_pop(msgq *q);
void ws_q_free(msgq *q);
/* Queue a text on one socket, sent once batch `batch` is committed (0: at once). */
void ws_send_held(conn *c, const char *text, size_t len, long batch);
/* Queue a text on one socket (sent at once). */
void ws_send_text(conn *c, const char *text);
/* Count a signed-in socket against its account (c->account): 0, or -1 past
 * the limit; and give the count back when it closes. */
int acct_socket_open(srv *S, conn *c);
void acct_socket_closed(srv *S, conn *c);
/* Whether the account has a lobby or game socket open on this instance. */
int srv_account_present(srv *S, const char *account);

/* ---- sockets.c: the live sockets, presence, the lobby's messages ---- */
gview *gview_of(game *g);   /* (json.c) the edge's data of g, made when new */
void live_broadcast(srv *S, game *g);
/* Live sockets silent for half of --live-idle (SRV_IDLE_SECS) are pinged,
 * and closed after all of it, each a little later than that by its own
 * jitter (called a few times a second). */
void http_idle_sweep(srv *S, int64_t now_ms);
/* The lobby's sockets: the seeks again; a seeker told its game started. */
void lobby_broadcast(srv *S);

void lobby_started(srv *S, const char *account, const char *game_id);
void http_seeks_lapse(srv *S);   /* seeks whose owner has no lobby socket lapse */
/* The socket's side of the protocol callback (http.c). */
void ws_open(srv *S, conn *c, struct lws *wsi);
int ws_receive(srv *S, conn *c, struct lws *wsi, const char *in, size_t len);
int ws_writable(srv *S, conn *c, struct lws *wsi);
void ws_closed(srv *S, conn *c);

/* ---- bots_api.c: SPEC "Bots" (bot accounts, tokens, declines, events) ---- */
/* The bots' requests: 1 when `path` was one of them (answered in r). */
int bots_routes(srv *S, const asker *who, const char *path, int method, const char *body,
                size_t blen, reply *r);
/* GET /api/bot/events opened with the bearer token's account (or refused). */
void bots_ws_open(srv *S, conn *c, const char *account, int bearer);
void bots_ws_closed(srv *S, conn *c);
/* The core's news: the seeks changed (challenges to a bot come and go), a
 * bot's game began or ended, a challenge was declined (its maker told). */
void bots_lobby_changed(srv *S);
void bots_game(srv *S, const char *account, const char *game_id, int finished);
void bots_declined(srv *S, const char *maker, const char *seek_id, const char *by,
                   const char *reason);

/* ---- tournaments_api.c: the tournaments' requests and live sockets ---- */
/* 1 when path is a tournament's request (answered in r), else 0. */
int tours_route(srv *S, const asker *who, const char *path, int method, const char *body,
                size_t blen, reply *r);
/* A socket on /api/tournaments/T/live (uri), for `account` ("" none). */
void tours_ws_open(srv *S, conn *c, const char *uri, const char *account);
void tours_ws_closed(srv *S, conn *c);
/* On the loop: the core's tournaments' tick, then what their sockets see. */
void tours_tick(srv *S);

#endif
