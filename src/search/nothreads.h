/*
 * nothreads.h — the few pthread calls of the search service, for a build
 * without threads (TAV_NO_THREADS: WebAssembly, whose wasi-libc has none).
 *
 * There is one thread, so a lock has nothing to exclude and a signal nobody
 * to wake: they do nothing.  A wait would wait forever, so it cannot happen:
 * the service runs every search as one job on the caller's thread
 * (service.c), and nothing ever waits there; reaching one is a bug, and
 * traps.
 */
#ifndef TAV_NOTHREADS_H
#define TAV_NOTHREADS_H

typedef struct { int unused; } pthread_mutex_t;
typedef struct { int unused; } pthread_cond_t;
typedef int pthread_t;

static inline int pthread_mutex_init(pthread_mutex_t *m, const void *a) { (void)m, (void)a; return 0; }
static inline int pthread_mutex_destroy(pthread_mutex_t *m) { (void)m; return 0; }
static inline int pthread_mutex_lock(pthread_mutex_t *m) { (void)m; return 0; }
static inline int pthread_mutex_unlock(pthread_mutex_t *m) { (void)m; return 0; }
static inline int pthread_cond_init(pthread_cond_t *c, const void *a) { (void)c, (void)a; return 0; }
static inline int pthread_cond_destroy(pthread_cond_t *c) { (void)c; return 0; }
static inline int pthread_cond_signal(pthread_cond_t *c) { (void)c; return 0; }
static inline int pthread_cond_broadcast(pthread_cond_t *c) { (void)c; return 0; }
static inline int pthread_cond_wait(pthread_cond_t *c, pthread_mutex_t *m)
{
    (void)c, (void)m;
    __builtin_trap();
}

#endif
