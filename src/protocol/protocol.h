/*
 * protocol.h — the engine protocol (docs/protocol.md) as a library object:
 * what `tavoliere engine` speaks on standard input and output.
 *
 * A tavi_protocol holds one game session: the game's operations table, its
 * options, the history of states (for undo) and a random generator.  It
 * executes one command line at a time and returns exactly one answer line;
 * `info` lines (thinking output, drawings) go to a callback.  Bad input never
 * changes the game: every failure answers `error ...` or `illegal ...`.
 *
 * Not thread-safe per object; independent objects may run on any threads.
 */
#ifndef TAV_PROTOCOL_H
#define TAV_PROTOCOL_H

#include <stddef.h>
#include <stdint.h>

#include "tavoliere.h"

#define TAVI_PROTOCOL_MAX_LINE 65536   /* longest command line accepted */

typedef struct tavi_protocol tavi_protocol;

/* Create a session (no game yet); NULL when out of memory. */
tavi_protocol *tavi_protocol_new(uint64_t seed);
void tavi_protocol_free(tavi_protocol *e);
/* Search `go` on a search service (the caller's, it outlives the engine);
 * NULL: on the engine's own service of two workers, made at the first go
 * and freed with the engine.  Either way `go threads=` is capped by the
 * service's pool: no search starts threads of its own. */
struct tav_service;
void tavi_protocol_set_service(tavi_protocol *e, struct tav_service *svc);

/* Execute one command line (no newline needed).  Returns the answer line,
 * without newline, valid until the next call.  Sets *quit on `quit`.
 * `info` may be NULL. */
const char *tavi_protocol_exec(tavi_protocol *e, const char *line, tav_info_fn info, void *ctx,
                              int *quit);

/* The command names, for help and coverage tests; NULL-terminated. */
const char *const *tavi_protocol_commands(void);

#endif
