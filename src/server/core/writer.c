/*
 * writer.c — commits off the event loop.
 *
 * The loop never writes to the database itself: each change (a new game, a
 * move, an undo, a resignation) becomes an operation appended to the open
 * batch, with copies of everything it needs.  core_commit hands the open
 * batch to the writer thread, which owns a database connection of its own:
 * it applies the operations in one transaction and commits it with one sync,
 * while the loop goes on serving reads and sockets and gathering the next
 * batch.  The writer hands the result back through the done-queue; the loop
 * then tells the edge (events.committed), which sends the answers and live
 * messages that waited for that batch, or answers 503 if it failed.
 *
 * A batch fails whole (any operation refused, or the commit): nothing of it
 * is on disk, so the games it touched are read back from the store (a game
 * it created is dropped) and their viewers told again.  The server keeps
 * running.  A game with writes not yet committed never leaves memory (its
 * `unsaved` count), so the loop's reads (its own connection: WAL lets them
 * run beside the writer) never miss a write.
 */
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "server/core/core.h"
#include "server/core/internal.h"
#include "server/core/writer.h"

enum { OP_CREATE, OP_MOVE, OP_TRUNCATE, OP_RESULT, OP_REMATCH, OP_CALL, OP_NOTIFY };

typedef struct wop {
    int kind;
    game *g;
    char id[STORE_ID_LEN];
    int ply;
    int status;
    int resigned;
    char *text;          /* OP_MOVE: the move */
    int64_t ms, time;
    store_game row;      /* OP_CREATE (options copied) */
    store_move *moves;   /* OP_CREATE: first moves (texts copied) */
    int nmoves;
    char rematch[STORE_ID_LEN];   /* OP_REMATCH: the game that follows */
    char channel[16];             /* OP_NOTIFY: the channel (the payload is `text`) */
    int64_t stamp;                /* the game's stamp once this batch commits (0: unknown) */
    int there;                    /* OP_MOVE: stored already by another instance (not written) */
    int64_t had;                  /* the game's stamp in memory when queued (0: unknown) */
    int64_t base;                 /* OP_MOVE: the row's stamp just before it (0: unknown) */
    wq_apply_fn apply;            /* OP_CALL: the write, on the writer thread */
    wq_settled_fn settled;        /* ... told on the loop once its batch settled */
    void *data;                   /* ... its own copy of what it writes */
    struct wop *next;
} wop;

struct wbatch {
    long n;
    wop *head, *tail;
    int ok;
    char err[256];
    long ms;             /* how long its commit took */
    int nops;
    int64_t wtrips, wout, win;   /* the writer connection's figures after it (stats) */
    wbatch *next;        /* the done-queue */
};

static void op_free(wop *o)
{
    free(o->data);
    free(o->text);
    free(o->row.options);
    for (int i = 0; i < o->nmoves; i++)
        free((char *)(uintptr_t)o->moves[i].text);
    free(o->moves);
    free(o);
}

static void batch_free(wbatch *b)
{
    while (b && b->head) {
        wop *o = b->head;
        b->head = o->next;
        op_free(o);
    }
    free(b);
}

/* Append an operation to the open batch (made when none is open). */
static int append(core *C, wop *o)
{
    if (!C->wopen) {
        C->wopen = calloc(1, sizeof *C->wopen);
        if (!C->wopen)
            return -1;
        C->wopen->n = ++C->wlast;
    }
    wbatch *b = C->wopen;
    if (b->tail)
        b->tail->next = o;
    else
        b->head = o;
    b->tail = o;
    if (o->g) {
        o->had = o->g->unsaved == 0 ? o->g->stamp : 0;
        o->g->unsaved++;
        o->g->wbatch = b->n;
    }
    if (C->ev.dirty)
        C->ev.dirty(C->ev.ctx);
    return 0;
}

static wop *op_new(int kind, game *g)
{
    wop *o = calloc(1, sizeof *o);
    if (o) {
        o->kind = kind;
        o->g = g;
        if (g)
            snprintf(o->id, sizeof o->id, "%s", g->id);
    }
    return o;
}

int wq_create(core *C, game *g, const store_game *row, const store_move *moves, int n)
{
    wop *o = op_new(OP_CREATE, g);
    if (!o)
        return -1;
    o->row = *row;
    o->row.options = strdup(row->options ? row->options : "");
    o->moves = n > 0 ? calloc((size_t)n, sizeof *o->moves) : NULL;
    int bad = !o->row.options || (n > 0 && !o->moves);
    for (int i = 0; !bad && i < n; i++) {
        o->moves[i] = moves[i];
        o->moves[i].text = strdup(moves[i].text);
        o->nmoves = i + 1;
        bad = !o->moves[i].text;
    }
    if (bad || append(C, o) != 0) {
        op_free(o);
        return -1;
    }
    return 0;
}

int wq_move(core *C, game *g, int ply, const store_move *m, int status)
{
    wop *o = op_new(OP_MOVE, g);
    if (!o || !(o->text = strdup(m->text))) {
        free(o);
        return -1;
    }
    o->ply = ply;
    o->ms = m->ms;
    o->time = m->time;
    o->status = status;
    if (append(C, o) != 0) {
        op_free(o);
        return -1;
    }
    return 0;
}

int wq_truncate(core *C, game *g, int ply, int status)
{
    wop *o = op_new(OP_TRUNCATE, g);
    if (!o)
        return -1;
    o->ply = ply;
    o->status = status;
    if (append(C, o) != 0) {
        op_free(o);
        return -1;
    }
    return 0;
}

int wq_result(core *C, game *g, int status, int resigned)
{
    wop *o = op_new(OP_RESULT, g);
    if (!o)
        return -1;
    o->status = status;
    o->resigned = resigned;
    if (append(C, o) != 0) {
        op_free(o);
        return -1;
    }
    return 0;
}

int wq_rematch(core *C, game *g, const char *rematch)
{
    wop *o = op_new(OP_REMATCH, g);
    if (!o)
        return -1;
    snprintf(o->rematch, sizeof o->rematch, "%s", rematch);
    if (append(C, o) != 0) {
        op_free(o);
        return -1;
    }
    return 0;
}

int wq_call(core *C, wq_apply_fn apply, wq_settled_fn settled, const void *data, size_t len)
{
    wop *o = op_new(OP_CALL, NULL);
    if (!o || !(o->data = malloc(len ? len : 1))) {
        free(o);
        return -1;
    }
    memcpy(o->data, data, len);
    o->apply = apply;
    o->settled = settled;
    if (append(C, o) != 0) {
        op_free(o);
        return -1;
    }
    return 0;
}

int wq_notify(core *C, const char *channel, const char *payload)
{
    if (!C->shared)
        return 0;   /* a lone instance tells nobody */
    wop *o = op_new(OP_NOTIFY, NULL);
    if (!o || !(o->text = strdup(payload))) {
        free(o);
        return -1;
    }
    snprintf(o->channel, sizeof o->channel, "%s", channel);
    if (append(C, o) != 0) {
        op_free(o);
        return -1;
    }
    return 0;
}

/* The operations that change a game's row and moves (the others hear of). */
static int game_write(const wop *o)
{
    return o->kind == OP_MOVE || o->kind == OP_TRUNCATE || o->kind == OP_RESULT ||
           o->kind == OP_REMATCH;
}

/* Whether the batch changes o's game again after o. */
static int later_write(const wop *o)
{
    for (const wop *q = o->next; q; q = q->next)
        if (game_write(q) && strcmp(q->id, o->id) == 0)
            return 1;
    return 0;
}

/* The moves the batch adds to `last`'s game when they are all it changed
 * there, as the others are told them: "m BASE STAMP PLY N (MS TIME TEXT)*N"
 * (a copy holding stamp BASE and PLY moves plays them and then holds
 * STAMP; see load.c).  0 with no delta (anything else changed, or what a
 * copy must hold is unknown): the others read the game again. */
static int delta_of(const wbatch *b, wop *last, char *out, size_t outlen)
{
    const wop *first = NULL;
    int n = 0;
    for (const wop *q = b->head; q; q = q->next) {
        if (q->kind == OP_NOTIFY && strcmp(q->channel, CORE_CH_GAME) == 0 &&
            strcmp(q->text, last->id) == 0)
            return 0;   /* its offers changed too */
        if (!game_write(q) || strcmp(q->id, last->id) != 0)
            continue;
        if (q->kind != OP_MOVE || q->there || (first && q->ply != first->ply + n) ||
            ++n > CORE_DELTA_MOVES)
            return 0;
        if (!first)
            first = q;
    }
    if (!first || !first->base || !last->stamp)
        return 0;
    if (first->had && first->had != first->base) {
        /* The copy that made these moves missed another's write: it is not
         * what the store holds, so it is read again at its next look. */
        last->stamp = 0;
        return 0;
    }
    size_t k = (size_t)snprintf(out, outlen, "m %lld %lld %d %d", (long long)first->base,
                                (long long)last->stamp, first->ply, n);
    for (const wop *q = first; q && k < outlen; q = q->next)
        if (q->kind == OP_MOVE && strcmp(q->id, last->id) == 0)
            k += (size_t)snprintf(out + k, outlen - k, " %lld %lld %s", (long long)q->ms,
                                  (long long)q->time, q->text);
    return k < outlen;
}

/* Many instances: the others hear of a change to o's game once the batch
 * is committed: "INSTANCE ID" (read it again) or "INSTANCE ID m ..." (the
 * moves themselves, delta_of).  An instance ignores its own. */
static int notify_game(core *C, store *st, const wbatch *b, wop *o, char *err, size_t errlen)
{
    char delta[CORE_NOTE_LEN - STORE_ID_LEN - 2], payload[CORE_NOTE_LEN + 64];
    if (delta_of(b, o, delta, sizeof delta))
        snprintf(payload, sizeof payload, "%s %s %s", C->instance, o->id, delta);
    else
        snprintf(payload, sizeof payload, "%s %s", C->instance, o->id);
    return store_notify(st, CORE_CH_GAME, payload, err, errlen);
}

typedef struct ply_text {
    int ply;
    char text[TAV_MOVE_TEXT];
} ply_text;

static int seen_move(void *ctx, int ply, const store_move *m)
{
    ply_text *p = ctx;
    if (ply == p->ply)
        snprintf(p->text, sizeof p->text, "%s", m->text);
    return 0;
}

/* Another instance stored move `ply` first: the same move (a retry that
 * reached two instances) is already on disk, so this write is done; any
 * other move fails the batch (the game is read back, the answer is 503
 * and the retry meets the stale ply). */
static int same_move_there(store *st, const wop *o)
{
    ply_text p = {o->ply, ""};
    char err[256];
    if (store_load_game(st, o->id, NULL, NULL, seen_move, &p, err, sizeof err) != 1)
        return 0;
    return strcmp(p.text, o->text) == 0;
}

/* On the writer thread: one batch, one transaction, all or nothing. */
static void apply(core *C, store *st, wbatch *b)
{
    char err[256] = "";
    int rc = 0;
    int64_t t0 = core_unix_ms();
    b->nops = 0;
    for (wop *o = b->head; o && rc == 0; o = o->next, b->nops++) {
        switch (o->kind) {
        case OP_CREATE:
            rc = store_create_game(st, &o->row, o->moves, o->nmoves, err, sizeof err);
            break;
        case OP_MOVE: {
            store_move m = {o->text, o->ms, o->time};
            rc = store_add_move(st, o->id, o->ply, &m, o->status, err, sizeof err);
            if (rc == STORE_CONFLICT && same_move_there(st, o)) {
                rc = 0;
                o->there = 1;   /* the row is another's: its stamp says nothing of this copy */
            } else if (rc == 0 && (!st->ops->move_base || st->ops->move_base(st, o->id, &o->base) != 1)) {
                o->base = 0;
            }
            break;
        }
        case OP_TRUNCATE:
            rc = store_truncate(st, o->id, o->ply, o->status, err, sizeof err);
            break;
        case OP_REMATCH:
            rc = store_set_rematch(st, o->id, o->rematch, err, sizeof err);
            break;
        case OP_CALL:
            rc = o->apply(st, o->data, err, sizeof err);
            break;
        case OP_NOTIFY: {
            char payload[320];
            snprintf(payload, sizeof payload, "%s %s", C->instance, o->text);
            rc = store_notify(st, o->channel, payload, err, sizeof err);
            break;
        }
        default:
            rc = store_set_result(st, o->id, o->status, o->resigned, err, sizeof err);
            break;
        }
    }
    /* Many instances: each game's stamp as this batch leaves it, so the
     * loop knows its own writes from another instance's. */
    for (wop *o = b->head; o && rc == 0 && C->shared && st->ops->game_stamp; o = o->next) {
        if (!o->g || o->kind == OP_NOTIFY)
            continue;
        int seen = 0, there = 0;
        for (wop *q = o->next; q && !seen; q = q->next)
            seen = q->g == o->g;
        for (wop *q = b->head; q && !seen && !there; q = q->next)
            there = q->g == o->g && q->there;
        /* A move another instance stored first was not written here: the
         * game's row (its stamp) is as that instance left it, maybe with
         * more moves than this copy knows; the stamp stays unknown, so the
         * copy is read again at its next look. */
        if (!seen && !there && st->ops->game_stamp(st, o->id, &o->stamp, err, sizeof err) < 0)
            rc = -1;
    }
    /* ... and the others told, once per game the batch changed. */
    for (wop *o = b->head; o && rc == 0 && C->shared; o = o->next)
        if (game_write(o) && !later_write(o))
            rc = notify_game(C, st, b, o, err, sizeof err);
    if (rc == 0)
        rc = store_flush(st, err, sizeof err);
    else
        store_discard(st);
    b->ok = rc == 0;
    b->ms = (long)(core_unix_ms() - t0);
    snprintf(b->err, sizeof b->err, "%s", err);
}

static void *writer_thread(void *arg)
{
    core *C = arg;
    pthread_mutex_lock(&C->wlock);
    for (;;) {
        while (!C->wtodo && !C->wstop)
            pthread_cond_wait(&C->wcond, &C->wlock);
        if (!C->wtodo)
            break;
        wbatch *b = C->wtodo;
        C->wtodo = NULL;
        int fail = C->wfail_next;
        C->wfail_next = 0;
        pthread_mutex_unlock(&C->wlock);
        if (fail) {      /* tests: this batch's commit fails */
            store_discard(C->wst);
            b->ok = 0;
            snprintf(b->err, sizeof b->err, "a commit failure made by a test");
        } else {
            apply(C, C->wst, b);
        }
        if (C->wst->ops->stats)   /* read here, on the writer's own thread */
            C->wst->ops->stats(C->wst, &b->wtrips, &b->wout, &b->win);
        pthread_mutex_lock(&C->qlock);
        b->next = NULL;
        if (C->wdone_tail)
            C->wdone_tail->next = b;
        else
            C->wdone_head = b;
        C->wdone_tail = b;
        pthread_mutex_unlock(&C->qlock);
        if (C->ev.wake)
            C->ev.wake(C->ev.ctx);
        pthread_mutex_lock(&C->wlock);
    }
    pthread_mutex_unlock(&C->wlock);
    return NULL;
}

int writer_start(core *C, const char *db, char *err, size_t errlen)
{
    pthread_mutex_init(&C->wlock, NULL);
    pthread_cond_init(&C->wcond, NULL);
    C->wst = store_open(db, err, errlen);
    if (!C->wst)
        return -1;
    if (pthread_create(&C->wthread, NULL, writer_thread, C) != 0) {
        snprintf(err, errlen, "the writer thread failed to start");
        return -1;
    }
    C->wstarted = 1;
    return 0;
}

long core_unsettled(const core *C, const game *g)
{
    return g->wbatch > C->wsettled ? g->wbatch : 0;
}

int core_pending(const core *C)
{
    return (C->wopen && C->wopen->head) || C->wflight;
}

long core_batch(const core *C)
{
    /* With no batch open, what is pending is the batch being committed
     * (the last opened): an answer waits for that one, not for a batch
     * that may never be opened. */
    return C->wopen ? C->wopen->n : C->wlast;
}

void core_commit(core *C)
{
    if (C->wflight || !C->wopen || !C->wopen->head || !C->wstarted)
        return;
    wbatch *b = C->wopen;
    C->wopen = NULL;
    C->wflight = b;
    pthread_mutex_lock(&C->wlock);
    C->wtodo = b;
    pthread_cond_signal(&C->wcond);
    pthread_mutex_unlock(&C->wlock);
}

/* The writes of a batch are settled (committed or not). */
static void settle(wbatch *b)
{
    for (wop *o = b ? b->head : NULL; o; o = o->next)
        if (o->g)
            o->g->unsaved--;
}

/* Tell the calls of a settled batch how it went. */
static void tell_calls(core *C, wbatch *b, int ok)
{
    for (wop *o = b ? b->head : NULL; o; o = o->next)
        if (o->settled)
            o->settled(C, o->data, ok);
}

static void undo_all(core *C, wbatch *b, void (*failed)(core *C, game *g, int created))
{
    for (wop *o = b ? b->head : NULL; o && failed; o = o->next)
        if (o->g)
            failed(C, o->g, o->kind == OP_CREATE);
}

/* On the loop: the writer's results, in order.  When a batch fails, the
 * batch gathered meanwhile fails with it (its writes may build on the
 * failed ones): both are refused, and their games read back. */
/* The figures of /metrics: batches by size and by how long their commit
 * took (the bucket bounds are core.h's). */
static void commit_stats_add(core_commit_stats *cs, int nops, long ms, int ok)
{
    static const int size_le[CORE_SIZE_BUCKETS] = CORE_SIZE_BOUNDS;
    static const int ms_le[CORE_MS_BUCKETS] = CORE_MS_BOUNDS;
    int k = 0;
    while (k < CORE_SIZE_BUCKETS && nops > size_le[k])
        k++;
    cs->size_count[k]++;
    k = 0;
    while (k < CORE_MS_BUCKETS && ms > ms_le[k])
        k++;
    cs->ms_count[k]++;
    cs->batches++;
    cs->writes += nops;
    cs->ms_sum += ms;
    if (!ok)
        cs->failed++;
    cs->last_ok = ok;
}

void writer_drain(core *C, void (*failed)(core *C, game *g, int created))
{
    pthread_mutex_lock(&C->qlock);
    wbatch *list = C->wdone_head;
    C->wdone_head = C->wdone_tail = NULL;
    pthread_mutex_unlock(&C->qlock);
    while (list) {
        wbatch *b = list;
        list = b->next;
        if (C->wflight == b)
            C->wflight = NULL;
        settle(b);
        C->wsettled = b->n;
        commit_stats_add(&C->cstats, b->nops, b->ms, b->ok);
        if (C->wst && C->wst->ops->stats) {
            C->wtrips = b->wtrips;
            C->wout = b->wout;
            C->win = b->win;
        }
        if (b->ms >= 250)
            core_log(C, "slow commit: batch %ld of %d writes took %ld ms", b->n, b->nops, b->ms);
        if (b->ok) {
            for (wop *o = b->head; o; o = o->next)
                if (o->g && o->stamp)
                    o->g->stamp = o->stamp;
            tell_calls(C, b, 1);
            if (C->ev.committed)
                C->ev.committed(C->ev.ctx, b->n, 1);
        } else {
            core_log(C, "error: batch %ld could not be committed: %s", b->n, b->err);
            wbatch *next = C->wopen;
            C->wopen = NULL;
            settle(next);
            if (next)
                C->wsettled = next->n;
            tell_calls(C, b, 0);
            tell_calls(C, next, 0);
            undo_all(C, b, failed);
            undo_all(C, next, failed);
            if (C->ev.committed) {
                C->ev.committed(C->ev.ctx, b->n, 0);
                if (next)
                    C->ev.committed(C->ev.ctx, next->n, 0);
            }
            batch_free(next);
        }
        batch_free(b);
    }
    core_commit(C);   /* the next batch, gathered meanwhile */
}

/* Commit everything still open and stop the thread (the loop has stopped). */
void writer_stop(core *C, void (*failed)(core *C, game *g, int created))
{
    if (!C->wstarted)
        return;
    for (int round = 0; round < 2; round++) {
        core_commit(C);
        while (C->wflight) {
            pthread_mutex_lock(&C->qlock);
            int any = C->wdone_head != NULL;
            pthread_mutex_unlock(&C->qlock);
            if (any)
                writer_drain(C, failed);
            else
                sched_yield();
        }
    }
    pthread_mutex_lock(&C->wlock);
    C->wstop = 1;
    pthread_cond_signal(&C->wcond);
    pthread_mutex_unlock(&C->wlock);
    pthread_join(C->wthread, NULL);
    C->wstarted = 0;
}

void writer_free(core *C)
{
    batch_free(C->wopen);
    C->wopen = NULL;
    store_close(C->wst);
    C->wst = NULL;
    pthread_mutex_destroy(&C->wlock);
    pthread_cond_destroy(&C->wcond);
}

void core_fail_next_commit(core *C)
{
    pthread_mutex_lock(&C->wlock);
    C->wfail_next = 1;
    pthread_mutex_unlock(&C->wlock);
}
