/*
 * engine.h — the engine protocol of SPEC.md as a library object.
 *
 * A tavi_engine holds one game session: the game's operations table, its
 * options, the history of states (for undo) and a random generator.  It
 * executes one command line at a time and returns exactly one answer line;
 * `info` lines (thinking output, drawings) go to a callback.  Bad input never
 * changes the game: every failure answers `error ...` or `illegal ...`.
 *
 * Not thread-safe per object; independent objects may run on any threads.
 */
#ifndef TAV_ENGINE_H
#define TAV_ENGINE_H

#include <stddef.h>
#include <stdint.h>

#include "tavoliere.h"

#define TAVI_ENGINE_MAX_LINE 65536   /* longest command line accepted */

typedef struct tavi_engine tavi_engine;

/* Create a session (no game yet); NULL when out of memory. */
tavi_engine *tavi_engine_new(uint64_t seed);
void tavi_engine_free(tavi_engine *e);
/* Search `go` on a search service (the caller's, it outlives the engine);
 * NULL: on the engine's own service of two workers, made at the first go
 * and freed with the engine.  Either way `go threads=` is capped by the
 * service's pool: no search starts threads of its own. */
struct tav_service;
void tavi_engine_set_service(tavi_engine *e, struct tav_service *svc);

/* Execute one command line (no newline needed).  Returns the answer line,
 * without newline, valid until the next call.  Sets *quit on `quit`.
 * `info` may be NULL. */
const char *tavi_engine_exec(tavi_engine *e, const char *line, tav_info_fn info, void *ctx,
                            int *quit);

/* The command names, for help and coverage tests; NULL-terminated. */
const char *const *tavi_engine_commands(void);

#endif
