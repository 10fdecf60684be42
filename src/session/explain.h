/*
 * explain.h — why a typed move is not legal, and which legal move was meant.
 * Used by terminal play; meant for any front end (the session's play_text
 * and the server can give the same explanations).  No I/O, no global state.
 */
#ifndef TAV_EXPLAIN_H
#define TAV_EXPLAIN_H

#include <stddef.h>

#include "tavoliere.h"

/* `text` is not a legal move of st (the caller tried it).  Looks for the
 * legal move it most likely means:
 *   - the same move in another letter case (`he4` for `He4`);
 *   - what the game's explain_move operation finds (Cathedral squares in
 *     another order, `-` typed for an Epaminondas capture, why an Urbino
 *     building may not stand there, ...);
 *   - a partial entry that exactly one legal move starts with.
 * Returns 1 with that move's canonical text in `meant` (the caller may play
 * it), else 0; either way `why` says in plain words what was wrong (an
 * Urbino tower beside a tower, a palace beside a palace, ...), or is "" when
 * nothing better than "not a legal move" can be said.  -1: out of memory. */
int tavi_explain_move(const tav_game *g, const void *st, const char *text, char *meant, size_t mn,
                     char *why, size_t wn);

#endif
