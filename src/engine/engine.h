/*
 * engine.h — the engine protocol of SPEC.md as a library object.
 *
 * A tav_engine holds one game session: the game's operations table, its
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

#define TAV_ENGINE_MAX_LINE 65536   /* longest command line accepted */

typedef struct tav_engine tav_engine;

/* Create a session (no game yet); NULL when out of memory. */
tav_engine *tav_engine_new(uint64_t seed);
void tav_engine_free(tav_engine *e);
/* Search `go` on a search service (the caller's, it outlives the engine);
 * NULL: each go runs its own threads (tav_search). */
struct tav_service;
void tav_engine_set_service(tav_engine *e, struct tav_service *svc);

/* Execute one command line (no newline needed).  Returns the answer line,
 * without newline, valid until the next call.  Sets *quit on `quit`.
 * `info` may be NULL. */
const char *tav_engine_exec(tav_engine *e, const char *line, tav_info_fn info, void *ctx,
                            int *quit);

/* Read-only access for tools built on a session (tests, terminal play). */
const tav_game *tav_engine_game(const tav_engine *e);        /* NULL before newgame */
const void *tav_engine_state(const tav_engine *e);           /* current state or NULL */
int tav_engine_ply(const tav_engine *e);                     /* moves played since newgame/position */
/* The session the engine plays in (NULL before newgame); owned by the engine. */
struct tav_session;
struct tav_session *tav_engine_session(tav_engine *e);

/* Draw a view as ASCII lines, one callback per line (used by `show`). */
void tav_render_ascii(const tav_view *v, tav_info_fn out, void *ctx);

/* The command names, for help and coverage tests; NULL-terminated. */
const char *const *tav_engine_commands(void);

#endif
