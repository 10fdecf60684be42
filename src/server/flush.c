/*
 * flush.c — group commit and the request log, for every file of the edge:
 * the writes of one pass of the loop go to the core's writer as one batch.
 */
#include <stdarg.h>

#include <libwebsockets.h>

#include "server/srv.h"

/* Group commit: the writes of everything the loop handled in one pass go
 * to the core's writer thread as one batch, committed with one sync while
 * the loop goes on; their answers and live messages go out when it says the
 * batch is on disk (ev_committed). */
void srv_flush(srv *S)
{
    S->flush_scheduled = 0;
    core_commit(S->C);
}

void srv_log(const srv *S, const char *fmt, ...)
{
    if (S && S->quiet)
        return;
    va_list ap;
    va_start(ap, fmt);
    core_vlog(NULL, fmt, ap);
    va_end(ap);
}

/* The commit runs right after the pass of the loop that made the changes
 * (a longer window did not make batches larger in the load benchmark). */
#define FLUSH_US 1

static void on_flush(lws_sorted_usec_list_t *sul)
{
    srv_flush(lws_container_of(sul, srv, flush_sul));
}

void srv_dirty(srv *S)
{
    if (S->flush_scheduled || !S->ctx)
        return;
    S->flush_scheduled = 1;
    lws_sul_schedule(S->ctx, 0, &S->flush_sul, on_flush, FLUSH_US);
}
