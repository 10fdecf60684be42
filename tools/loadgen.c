/* tools/loadgen.c — the load client of scripts/bench_server.mjs (--client c).
 *
 * The benchmark measures the server; a client that costs more than the
 * server a move measures itself (results/scaling.md: the node client spent
 * about 2 ms of CPU a move, twice the server's, and held answers back for
 * up to 0.9 s while it collected its garbage).  This one does the same
 * thing as bench_server.mjs's own loop for about 0.25 ms of CPU a move (its
 * three requests and the spectator's message, the kernel's part included):
 *
 *   - makes N games (POST /api/games, two human seats), the four kinds in
 *     turn, game i on instance (i / kinds) mod K, so each instance gets the
 *     same mix;
 *   - opens a live WebSocket spectator on each (answering the server's pings);
 *   - plays: each game's players take turns: GET the game as the seat to act
 *     (its legal moves), think 0..2*THINK ms, POST a random legal move (timed:
 *     from the moment it is sent to its whole answer);
 *   - waits (up to 10 s) until every spectator has seen its game's last move.
 *
 * One thread, epoll, HTTP/1.1 keep-alive connections (at most --sockets per
 * instance, one request at a time each).  It prints "ready" once the games
 * and their spectators are set up, "played" when the last move is answered,
 * then one line of JSON with the figures; scripts/bench_server.mjs reads
 * them.  Not a test: no assertion here, only counts.
 *
 *   build/loadgen --ports P[,P...] [--games N] [--moves M] [--think MS]
 *                 [--route spread|owner] [--kinds a,b] [--sockets S]
 */
#define _GNU_SOURCE   /* memmem */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define MAX_INST 8
#define MAX_KINDS 8

typedef struct game game;

typedef struct conn {
    int fd, inst, ws, connecting, dead;
    game *g;               /* http: the game whose request is in flight; ws: the watched game */
    char *out;             /* bytes still to write */
    size_t outlen, outoff;
    char *in;              /* bytes read and not yet consumed */
    size_t inlen, incap;
    int upgraded;          /* ws: the 101 came */
    struct conn *next;     /* http: the instance's free list */
    struct conn *all;      /* every connection made, to free them at the end */
} conn;

enum { G_CREATE, G_FIRST, G_MINE, G_THINK, G_POST, G_DONE };

struct game {
    int k, state, tomove, over, moves_done, plies, seen, messages, ply, failed;
    char id[32], seat[2][96], move[128];
    char *req;             /* the request waiting for a connection */
    size_t reqlen;
    int req_inst;
    double sent_ms;
    game *qnext;           /* an instance's queue of games waiting for a connection */
};

typedef struct inst {
    int port, nconns;
    conn *free;
    game *qhead, *qtail;
} inst;

static int K, GAMES = 100, MOVES = 20, SOCKETS = 256, owner_route;
static double THINK;
static int nkinds;
static const char *kinds[MAX_KINDS];
static inst I[MAX_INST];
static game *G;
static int ep;
static uint64_t seed = 12345;
static double *lat;
static int nlat;
static int created, opened, finished, failures;
static double loop_max_ms;
static conn *conns;

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1000.0 + ts.tv_nsec / 1e6;
}

static double rnd(void)
{
    seed = (seed * 1103515245u + 12345u) % 2147483648u;
    return (double)seed / 2147483648.0;
}

static void die(const char *what)
{
    fprintf(stderr, "loadgen: %s: %s\n", what, strerror(errno));
    exit(2);
}

/* ---- timers: a binary heap of (due, game) ---- */

typedef struct tmr {
    double due;
    game *g;
} tmr;
static tmr *heap;
static int nheap;

static void timer_add(game *g, double due)
{
    int i = nheap++;
    while (i > 0 && heap[(i - 1) / 2].due > due) {
        heap[i] = heap[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    heap[i] = (tmr){due, g};
}

static game *timer_pop(void)
{
    game *g = heap[0].g;
    tmr last = heap[--nheap];
    int i = 0;
    for (;;) {
        int c = 2 * i + 1;
        if (c >= nheap)
            break;
        if (c + 1 < nheap && heap[c + 1].due < heap[c].due)
            c++;
        if (heap[c].due >= last.due)
            break;
        heap[i] = heap[c];
        i = c;
    }
    if (nheap)
        heap[i] = last;
    return g;
}

/* ---- connections ---- */

static void watch(conn *c)
{
    struct epoll_event e = {.events = EPOLLIN | (c->connecting || c->outoff < c->outlen ? EPOLLOUT : 0),
                            .data.ptr = c};
    if (epoll_ctl(ep, EPOLL_CTL_MOD, c->fd, &e) != 0)
        die("epoll_ctl");
}

static conn *conn_open(int k, int ws)
{
    conn *c = calloc(1, sizeof *c);
    if (!c)
        die("calloc");
    c->inst = k;
    c->ws = ws;
    c->all = conns;
    conns = c;
    c->fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (c->fd < 0)
        die("socket");
    int one = 1;
    setsockopt(c->fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons((uint16_t)I[k].port)};
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (connect(c->fd, (struct sockaddr *)&a, sizeof a) != 0 && errno != EINPROGRESS)
        die("connect");
    c->connecting = 1;
    struct epoll_event e = {.events = EPOLLIN | EPOLLOUT, .data.ptr = c};
    if (epoll_ctl(ep, EPOLL_CTL_ADD, c->fd, &e) != 0)
        die("epoll_ctl");
    return c;
}

static void conn_close(conn *c)
{
    epoll_ctl(ep, EPOLL_CTL_DEL, c->fd, NULL);
    close(c->fd);
    c->dead = 1;
}

static void flush_out(conn *c)
{
    while (c->outoff < c->outlen) {
        ssize_t n = write(c->fd, c->out + c->outoff, c->outlen - c->outoff);
        if (n < 0) {
            if (errno == EAGAIN)
                break;
            c->outoff = c->outlen;   /* the read side sees the end */
            break;
        }
        c->outoff += (size_t)n;
    }
    if (c->outoff == c->outlen) {
        free(c->out);
        c->out = NULL;
        c->outlen = c->outoff = 0;
    }
    watch(c);
}

static void send_bytes(conn *c, const char *p, size_t n)
{
    char *o = realloc(c->out, c->outlen + n);
    if (!o)
        die("realloc");
    memcpy(o + c->outlen, p, n);
    c->out = o;
    c->outlen += n;
    if (!c->connecting)
        flush_out(c);
}

/* ---- requests ---- */

/* The request is kept until its answer: a keep-alive connection the server
 * closed just as it was sent carries it again on another. */
static void http_send(conn *c, game *g)
{
    c->g = g;
    g->sent_ms = now_ms();
    send_bytes(c, g->req, g->reqlen);
}

static void dispatch(game *g)
{
    inst *in = &I[g->req_inst];
    if (in->free) {
        conn *c = in->free;
        in->free = c->next;
        http_send(c, g);
    } else if (in->nconns < SOCKETS) {
        in->nconns++;
        http_send(conn_open(g->req_inst, 0), g);
    } else {
        g->qnext = NULL;
        if (in->qtail)
            in->qtail->qnext = g;
        else
            in->qhead = g;
        in->qtail = g;
    }
}

static void request(game *g, int k, const char *method, const char *path, const char *body)
{
    free(g->req);
    size_t blen = body ? strlen(body) : 0;
    size_t cap = strlen(path) + blen + 256;
    g->req = malloc(cap);
    if (!g->req)
        die("malloc");
    int n = snprintf(g->req, cap,
                     "%s %s HTTP/1.1\r\nHost: 127.0.0.1\r\n%s%zu\r\n\r\n%s", method, path,
                     body ? "Content-Type: application/json\r\nContent-Length: " : "Content-Length: ", blen,
                     body ? body : "");
    g->reqlen = (size_t)n;
    g->req_inst = k % K;
    dispatch(g);
}

static void conn_idle(conn *c)
{
    inst *in = &I[c->inst];
    c->g = NULL;
    if (in->qhead) {
        game *g = in->qhead;
        in->qhead = g->qnext;
        if (!in->qhead)
            in->qtail = NULL;
        http_send(c, g);
        return;
    }
    c->next = in->free;
    in->free = c;
}

/* The instance a game's white player (0), black player (1), spectator (2) asks. */
static int via(const game *g, int who)
{
    return g->k + (owner_route ? 0 : who);
}

static void ask_mine(game *g)
{
    char path[192];
    snprintf(path, sizeof path, "/api/games/%s?seat=%s", g->id, g->seat[g->tomove]);
    g->state = G_MINE;
    request(g, via(g, g->tomove), "GET", path, NULL);
}

static void post_move(game *g)
{
    char path[96];
    snprintf(path, sizeof path, "/api/games/%s/moves", g->id);
    json_t *b = json_pack("{s:s, s:s, s:i}", "seat", g->seat[g->tomove], "move", g->move, "ply", g->ply);
    char *body = json_dumps(b, JSON_COMPACT);
    json_decref(b);
    g->state = G_POST;
    request(g, via(g, g->tomove), "POST", path, body);
    free(body);
}

static void game_fail(game *g, int status, const char *body)
{
    if (failures < 5)
        fprintf(stderr, "loadgen: game %d (state %d): %d %.200s\n", g->k, g->state, status, body);
    failures++;
    g->failed = 1;
    g->state = G_DONE;
    finished++;
}

/* A game's answer is large (its view, its legal moves: tens of kilobytes in
 * Cathedral's opening) and only four of its fields matter here, so it is not
 * parsed whole: a scan that skips values finds a top-level field's text. */
static const char *skip_value(const char *p, const char *end)
{
    int depth = 0;
    while (p < end) {
        char ch = *p;
        if (ch == '"') {
            for (p++; p < end && *p != '"'; p++)
                if (*p == '\\')
                    p++;
            p++;
            if (depth == 0)
                return p;   /* a string value: just after its closing quote */
        } else if (ch == '{' || ch == '[') {
            depth++;
            p++;
        } else if (ch == '}' || ch == ']') {
            if (depth == 0)
                return p;
            depth--;
            p++;
            if (depth == 0)
                return p;
        } else if (ch == ',' && depth == 0) {
            return p;
        } else {
            p++;
        }
    }
    return end;
}

static const char *field(const char *body, size_t len, const char *key, const char **vend)
{
    const char *p = body, *end = body + len;
    size_t kl = strlen(key);
    while (p < end && *p != '{')
        p++;
    p++;
    while (p < end) {
        while (p < end && (*p == ' ' || *p == ','))
            p++;
        if (p >= end || *p != '"')
            return NULL;
        const char *k = p + 1, *v = skip_value(p, end);   /* the key, a string */
        int match = (size_t)(v - k - 1) == kl && memcmp(k, key, kl) == 0;
        while (v < end && (*v == ':' || *v == ' '))
            v++;
        const char *e = skip_value(v, end);
        if (match) {
            *vend = e;
            return v;
        }
        p = e;
    }
    return NULL;
}

/* The state an answer tells (tomove, over). */
static int read_state(game *g, const char *body, size_t len)
{
    const char *e, *tm = field(body, len, "tomove", &e), *ov = field(body, len, "over", &e);
    if (!tm || !ov)
        return -1;
    g->tomove = strncmp(tm, "\"black\"", 7) == 0;
    g->over = strncmp(ov, "true", 4) == 0;
    return 0;
}

/* The seat's own view: a random one of its legal moves, and the ply. */
static int read_mine(game *g, const char *body, size_t len)
{
    const char *lend, *legal = field(body, len, "legal", &lend), *pe, *ply = field(body, len, "ply", &pe);
    if (!legal || !ply || *legal != '[')
        return -1;
    int n = 0;
    for (const char *p = legal + 1; p < lend && *p == '"'; n++) {
        p = skip_value(p, lend);
        while (p < lend && *p == ',')
            p++;
    }
    if (n == 0)
        return -1;
    int pick = (int)(rnd() * n), i = 0;
    for (const char *p = legal + 1; p < lend && *p == '"'; i++) {
        const char *q = skip_value(p, lend);
        if (i == pick) {
            json_t *s = json_loadb(p, (size_t)(q - p), JSON_DECODE_ANY, NULL);
            snprintf(g->move, sizeof g->move, "%s", s && json_is_string(s) ? json_string_value(s) : "");
            json_decref(s);
            break;
        }
        p = q;
        while (p < lend && *p == ',')
            p++;
    }
    g->ply = atoi(ply);
    return 0;
}

static void next_or_done(game *g)
{
    if (g->over || g->moves_done >= MOVES) {
        g->state = G_DONE;
        finished++;
    } else {
        ask_mine(g);
    }
}

static void answered(game *g, int status, const char *body, size_t len)
{
    switch (g->state) {
    case G_CREATE: {
        json_t *j = json_loadb(body, len, 0, NULL);
        const char *id = json_string_value(json_object_get(j, "id"));
        json_t *seats = json_object_get(j, "seats");
        const char *w = json_string_value(json_object_get(seats, "white"));
        const char *b = json_string_value(json_object_get(seats, "black"));
        if (status != 201 || !id || !w || !b) {
            fprintf(stderr, "loadgen: create: %d %.200s\n", status, body);
            exit(2);
        }
        snprintf(g->id, sizeof g->id, "%s", id);
        snprintf(g->seat[0], sizeof g->seat[0], "%s", w);
        snprintf(g->seat[1], sizeof g->seat[1], "%s", b);
        g->state = G_FIRST;
        created++;
        json_decref(j);
        break;
    }
    case G_FIRST:
        if (status != 200 || read_state(g, body, len) != 0)
            game_fail(g, status, body);
        else
            next_or_done(g);
        break;
    case G_MINE: {
        if (status != 200 || read_mine(g, body, len) != 0) {
            game_fail(g, status, body);
            break;
        }
        if (THINK > 0) {
            g->state = G_THINK;
            timer_add(g, now_ms() + rnd() * 2 * THINK);
        } else {
            post_move(g);
        }
        break;
    }
    case G_POST:
        lat[nlat++] = now_ms() - g->sent_ms;
        if (status != 200 || read_state(g, body, len) != 0) {
            game_fail(g, status, body);
            break;
        }
        g->plies++;
        g->moves_done++;
        next_or_done(g);
        break;
    default:
        break;
    }
}

/* ---- reading ---- */

static void ws_frame(conn *c, int op, char *p, size_t n)
{
    game *g = c->g;
    if (op == 1 || op == 0) {   /* text (a state): the newest ply the spectator saw */
        g->messages += op == 1;
        const char *last = NULL;
        for (char *s = p; (s = memmem(s, n - (size_t)(s - p), "\"ply\":", 6)) != NULL; s += 6)
            last = s;
        if (last) {
            int ply = atoi(last + 6);
            if (ply > g->seen)
                g->seen = ply;
        }
    } else if (op == 9) {       /* ping: a masked pong with its payload */
        unsigned char h[8 + 125];
        size_t m = n > 125 ? 125 : n;
        h[0] = 0x8A;
        h[1] = (unsigned char)(0x80 | m);
        h[2] = h[3] = h[4] = h[5] = 0;   /* the mask: zero, so the payload is as it is */
        memcpy(h + 6, p, m);
        send_bytes(c, (char *)h, 6 + m);
    } else if (op == 8) {
        conn_close(c);
    }
}

/* Consume what can be consumed of c->in; returns how much. */
static size_t parse_in(conn *c)
{
    char *p = c->in;
    size_t n = c->inlen;
    if (!c->ws || !c->upgraded) {
        char *end = memmem(p, n, "\r\n\r\n", 4);
        if (!end)
            return 0;
        size_t hlen = (size_t)(end - p) + 4;
        int status = n > 12 ? atoi(p + 9) : 0;
        if (c->ws) {
            if (status != 101) {
                fprintf(stderr, "loadgen: live socket refused: %d\n", status);
                exit(2);
            }
            c->upgraded = 1;
            opened++;
            return hlen;
        }
        size_t clen = 0;
        for (char *s = p; s < end; s++)
            if ((s == p || s[-1] == '\n') && strncasecmp(s, "content-length:", 15) == 0)
                clen = (size_t)strtoul(s + 15, NULL, 10);
        if (n < hlen + clen)
            return 0;
        game *g = c->g;
        if (!g) {   /* an answer to no request: a server that misbehaves */
            fprintf(stderr, "loadgen: an answer nobody asked for: %d\n", status);
            exit(2);
        }
        char save = p[hlen + clen];
        p[hlen + clen] = 0;   /* the buffer always has a byte more */
        conn_idle(c);
        answered(g, status, p + hlen, clen);
        p[hlen + clen] = save;
        return hlen + clen;
    }
    if (n < 2)
        return 0;
    unsigned char *u = (unsigned char *)p;
    int op = u[0] & 0x0f;
    size_t len = u[1] & 0x7f, off = 2;
    if (len == 126) {
        if (n < 4)
            return 0;
        len = (size_t)u[2] << 8 | u[3];
        off = 4;
    } else if (len == 127) {
        if (n < 10)
            return 0;
        len = 0;
        for (int i = 2; i < 10; i++)
            len = len << 8 | u[i];
        off = 10;
    }
    if (n < off + len)
        return 0;
    ws_frame(c, op, p + off, len);
    return off + len;
}

static void on_readable(conn *c)
{
    for (;;) {
        if (c->incap - c->inlen < 4097) {
            size_t cap = c->incap ? c->incap * 2 : 8192;
            char *q = realloc(c->in, cap);
            if (!q)
                die("realloc");
            c->in = q;
            c->incap = cap;
        }
        ssize_t n = read(c->fd, c->in + c->inlen, c->incap - c->inlen - 1);
        if (n < 0 && errno == EAGAIN)
            break;
        if (n <= 0) {
            if (!c->ws) {   /* a keep-alive connection the server closed */
                inst *in = &I[c->inst];
                in->nconns--;
                for (conn **q = &in->free; *q; q = &(*q)->next)
                    if (*q == c) {
                        *q = c->next;
                        break;
                    }
                game *g = c->g;
                conn_close(c);
                if (g && c->inlen == 0)
                    dispatch(g);   /* sent as the server closed: again, on another */
                else if (g)
                    game_fail(g, 0, "the connection closed mid-answer");
                return;
            }
            conn_close(c);
            return;
        }
        c->inlen += (size_t)n;
        size_t used;
        while (!c->dead && c->inlen && (used = parse_in(c)) > 0) {
            memmove(c->in, c->in + used, c->inlen - used);
            c->inlen -= used;
        }
        if (c->dead)
            return;
    }
}

static void on_event(conn *c, uint32_t ev)
{
    if (c->dead)
        return;
    if (c->connecting && (ev & (EPOLLOUT | EPOLLERR | EPOLLHUP))) {
        int err = 0;
        socklen_t l = sizeof err;
        getsockopt(c->fd, SOL_SOCKET, SO_ERROR, &err, &l);
        if (err) {
            errno = err;
            die("connect");
        }
        c->connecting = 0;
        flush_out(c);
    } else if (ev & EPOLLOUT) {
        flush_out(c);
    }
    if (ev & (EPOLLIN | EPOLLHUP | EPOLLERR))
        on_readable(c);
}

static void turn(double until_ms)
{
    struct epoll_event evs[256];
    double t = now_ms();
    int timeout = until_ms > t ? (int)(until_ms - t) + 1 : 0;
    if (nheap) {
        double d = heap[0].due - t;
        if (d < timeout)
            timeout = d > 0 ? (int)d + 1 : 0;
    }
    if (timeout > 20)
        timeout = 20;
    int n = epoll_wait(ep, evs, 256, timeout);
    if (n < 0 && errno != EINTR)
        die("epoll_wait");
    double t0 = now_ms();
    for (int i = 0; i < n; i++)
        on_event(evs[i].data.ptr, evs[i].events);
    while (nheap && heap[0].due <= now_ms()) {
        game *g = timer_pop();
        if (g->state == G_THINK)
            post_move(g);
        else {   /* a player arriving */
            char path[192];
            snprintf(path, sizeof path, "/api/games/%s?seat=%s", g->id, g->seat[0]);
            request(g, g->k, "GET", path, NULL);
        }
    }
    double busy = now_ms() - t0;
    if (busy > loop_max_ms)
        loop_max_ms = busy;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double pct(double p)
{
    if (!nlat)
        return 0;
    int i = (int)(p * nlat);
    return lat[i < nlat ? i : nlat - 1];
}

static double cpu_ms(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return ru.ru_utime.tv_sec * 1000.0 + ru.ru_utime.tv_usec / 1000.0 + ru.ru_stime.tv_sec * 1000.0 +
           ru.ru_stime.tv_usec / 1000.0;
}

int main(int argc, char **argv)
{
    const char *ports = NULL, *kindlist = "urbino,epaminondas,cathedral,toscana";
    for (int i = 1; i + 1 < argc; i += 2) {
        const char *a = argv[i], *v = argv[i + 1];
        if (strcmp(a, "--ports") == 0)
            ports = v;
        else if (strcmp(a, "--games") == 0)
            GAMES = atoi(v);
        else if (strcmp(a, "--moves") == 0)
            MOVES = atoi(v);
        else if (strcmp(a, "--think") == 0)
            THINK = atof(v);
        else if (strcmp(a, "--sockets") == 0)
            SOCKETS = atoi(v);
        else if (strcmp(a, "--route") == 0)
            owner_route = strcmp(v, "owner") == 0;
        else if (strcmp(a, "--kinds") == 0)
            kindlist = v;
        else {
            fprintf(stderr, "loadgen: unknown option %s\n", a);
            return 2;
        }
    }
    if (!ports || GAMES <= 0 || MOVES < 0 || SOCKETS <= 0) {
        fprintf(stderr, "usage: loadgen --ports P[,P...] [--games N] [--moves M] [--think MS] "
                        "[--route spread|owner] [--kinds a,b] [--sockets S]\n");
        return 2;
    }
    for (const char *s = ports; *s && K < MAX_INST; K++) {
        I[K].port = atoi(s);
        s = strchr(s, ',') ? strchr(s, ',') + 1 : s + strlen(s);
    }
    static char kbuf[256];
    snprintf(kbuf, sizeof kbuf, "%s", kindlist);
    for (char *s = strtok(kbuf, ","); s && nkinds < MAX_KINDS; s = strtok(NULL, ","))
        kinds[nkinds++] = s;
    struct rlimit rl;
    if (getrlimit(RLIMIT_NOFILE, &rl) == 0) {
        rl.rlim_cur = rl.rlim_max;
        setrlimit(RLIMIT_NOFILE, &rl);
    }
    ep = epoll_create1(EPOLL_CLOEXEC);
    G = calloc((size_t)GAMES, sizeof *G);
    heap = calloc((size_t)GAMES + 1, sizeof *heap);
    lat = calloc((size_t)GAMES * (size_t)(MOVES + 1) + 1, sizeof *lat);
    if (ep < 0 || !G || !heap || !lat)
        die("setup");

    /* The games, a few dozen requests at a time. */
    int next = 0;
    while (created < GAMES) {
        while (next < GAMES && next - created < 64) {
            game *g = &G[next];
            /* Its instance: the kinds cycle within each instance's games, so
             * that every instance gets the same mix (game i on instance i mod
             * K gave one of two instances all the Cathedral games, whose
             * legal moves cost the most to answer). */
            g->k = next / nkinds;
            g->state = G_CREATE;
            char opts[32] = "";
            const char *kind = kinds[next % nkinds];
            if (strcmp(kind, "toscana") == 0)
                snprintf(opts, sizeof opts, "seed=%d", next + 1);
            json_t *b = json_pack("{s:s, s:s, s:s, s:s}", "game", kind, "options", opts, "white", "human",
                                  "black", "human");
            char *body = json_dumps(b, JSON_COMPACT);
            json_decref(b);
            request(g, g->k, "POST", "/api/games", body);
            free(body);
            next++;
        }
        turn(now_ms() + 20);
    }
    /* Their spectators, a few hundred handshakes at a time. */
    next = 0;
    while (opened < GAMES) {
        while (next < GAMES && next - opened < 256) {
            game *g = &G[next++];
            conn *c = conn_open(via(g, 2) % K, 1);
            c->g = g;
            char hs[256];
            int n = snprintf(hs, sizeof hs,
                             "GET /api/games/%s/live HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\n"
                             "Connection: Upgrade\r\nSec-WebSocket-Key: dGF2b2xpZXJlLWxvYWRnZW4=\r\n"
                             "Sec-WebSocket-Version: 13\r\n\r\n",
                             g->id);
            send_bytes(c, hs, (size_t)n);
        }
        turn(now_ms() + 20);
    }
    printf("ready\n");
    fflush(stdout);

    /* Play. */
    double t0 = now_ms(), cpu0 = cpu_ms();
    loop_max_ms = 0;
    for (int i = 0; i < GAMES; i++) {
        if (THINK > 0) {
            timer_add(&G[i], t0 + rnd() * 2 * THINK);   /* players arrive spread out */
        } else {
            char path[192];
            snprintf(path, sizeof path, "/api/games/%s?seat=%s", G[i].id, G[i].seat[0]);
            request(&G[i], G[i].k, "GET", path, NULL);
        }
    }
    while (finished < GAMES)
        turn(now_ms() + 20);
    double secs = (now_ms() - t0) / 1000.0, cpu = cpu_ms() - cpu0;
    printf("played\n");
    fflush(stdout);

    /* The spectators' last messages (300 ms at least, at most 10 s). */
    double settle = now_ms();
    for (;;) {
        int behind = 0;
        for (int i = 0; i < GAMES; i++)
            behind += G[i].seen < G[i].plies;
        double t = now_ms() - settle;
        if (t >= 10000 || (t >= 300 && !behind))
            break;
        turn(now_ms() + 20);
    }
    int missing = 0;
    long messages = 0;
    for (int i = 0; i < GAMES; i++) {
        messages += G[i].messages;
        if (G[i].seen != G[i].plies || (K == 1 && G[i].messages != G[i].plies + 1))
            missing++;
    }
    qsort(lat, (size_t)nlat, sizeof *lat, cmp_double);
    printf("{\"moves\":%d,\"secs\":%.3f,\"p50\":%.3f,\"p99\":%.3f,\"max\":%.3f,\"failures\":%d,"
           "\"messages\":%ld,\"missing\":%d,\"cpu_ms\":%.0f,\"loop_max_ms\":%.1f}\n",
           nlat, secs, pct(0.5), pct(0.99), nlat ? lat[nlat - 1] : 0.0, failures, messages, missing, cpu,
           loop_max_ms);
    fflush(stdout);
    while (conns) {
        conn *c = conns;
        conns = c->all;
        if (!c->dead)
            close(c->fd);
        free(c->out);
        free(c->in);
        free(c);
    }
    for (int i = 0; i < GAMES; i++)
        free(G[i].req);
    free(G);
    free(heap);
    free(lat);
    close(ep);
    return 0;
}
