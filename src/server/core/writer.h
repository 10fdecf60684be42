/*
 * writer.h — commits off the event loop (writer.c), inside the core.
 */
#ifndef SERVER_CORE_WRITER_H
#define SERVER_CORE_WRITER_H

#include "server/core/core.h"

/* Each appends one write to the open batch (copying what it needs);
 * 0, or -1 on no memory (nothing appended). */
int wq_create(core *C, game *g, const store_game *row, const store_move *moves, int n);
int wq_move(core *C, game *g, int ply, const store_move *m, int status);
int wq_truncate(core *C, game *g, int ply, int status);
int wq_result(core *C, game *g, int status, int resigned);
int wq_rematch(core *C, game *g, const char *rematch);
/* Any other write: apply(st, data) on the writer thread inside the batch,
 * then settled(C, data, ok) on the loop once the batch is committed (ok) or
 * failed, before the edge hears of it.  data is copied (len bytes); apply
 * may write results into the copy for settled. */
typedef int (*wq_apply_fn)(store *st, void *data, char *err, size_t errlen);
typedef void (*wq_settled_fn)(core *C, const void *data, int ok);
int wq_call(core *C, wq_apply_fn apply, wq_settled_fn settled, const void *data, size_t len);

/* Many instances (core.shared): a message to every other instance, sent
 * when the batch commits ("INSTANCE payload"); nothing for a lone one. */
int wq_notify(core *C, const char *channel, const char *payload);

/* The writer thread with its own connection to the database `db`. */
int writer_start(core *C, const char *db, char *err, size_t errlen);
/* On the loop: take the writer's results; `failed` is called for every
 * write of a failed batch (created: the write made the game). */
void writer_drain(core *C, void (*failed)(core *C, game *g, int created));
/* Commit what is open, wait for it, stop the thread. */
void writer_stop(core *C, void (*failed)(core *C, game *g, int created));
void writer_free(core *C);

#endif
