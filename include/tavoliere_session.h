/*
 * tavoliere_session.h — a game being played: the layer programs stand on.
 *
 * A tav_session owns one game: its operations table, its options and an
 * explicit seed (every random deal comes from it), the start state, the
 * history of states and moves, the result (resignation included) and room
 * for clocks.  It imports and exports records, and it projects the game for
 * a viewer (white, black or a spectator): the legal moves that viewer may
 * see, a public position text and a drawing view with nothing hidden leaked.
 *
 * The engine protocol, terminal play, the match runner, the record tools
 * and the server are thin adapters over it.  Nothing here knows HTTP, JSON,
 * SQL or a terminal.
 *
 * The session stands above the search service and the records: it gives a
 * search the position as the side to act sees it (tav_session_search_state)
 * and has the doors through which programs search a session's game
 * (tav_service_run, tav_service_submit, at the end of this header).
 *
 * Ownership: a session is a heap object, not thread-safe; independent
 * sessions may be used on any threads at once.  Every call that can fail
 * returns a tav_status (tavoliere.h) and, where it takes one, writes a
 * message into the caller's err buffer; a failing call changes nothing.
 */
#ifndef TAVOLIERE_SESSION_H
#define TAVOLIERE_SESSION_H

#include <stddef.h>
#include <stdint.h>

#include "tavoliere.h"
#include "tavoliere_search.h"

/* Viewers: TAV_WHITE and TAV_BLACK see their own seat, TAV_SPECTATOR
 * (tavoliere.h) sees what anyone may see. */

/* The drawing view (tav_board_view, tav_square, TAV_MARK_*) is declared in
 * tavoliere.h: every game fills it with its board_view operation. */

/* ------------------------------------------------------------------------
 * Sessions.
 */
typedef struct tav_session tav_session;

/* A new game of `game` with KEY=VALUE options ("" for the defaults) and a
 * seed for every random deal of the game (Toscana's stacks, unless the
 * options give them).  TAV_E_INVALID with a message for an unknown game or a
 * bad option; TAV_E_NOMEM. */
tav_status tav_session_new(tav_session **out, const char *game, const char *options,
                           uint64_t seed, char *err, size_t errlen);
/* The same over a game table of the caller's (tavoliere_game.h), registered
 * or not: an embedder's own game is played, projected, searched and
 * recorded like the four of the library.  g must outlive the session.
 * TAV_E_INVALID with a message for a table this library cannot play (see
 * tav_game_check_table: another abi_version, a required operation missing)
 * or a bad option; TAV_E_NOMEM.  (Records are read back by game name, so
 * tav_session_from_record knows registered games only.) */
tav_status tav_session_new_game(tav_session **out, const tav_game *g, const char *options,
                                uint64_t seed, char *err, size_t errlen);
/* A session starting from a position text (get_position's format). */
tav_status tav_session_from_position(tav_session **out, const char *game, const char *text,
                                     char *err, size_t errlen);
/* A session replaying a record (docs/records.md): every move is replayed and
 * checked; errors are "line L, column C: ...". */
tav_status tav_session_from_record(tav_session **out, const char *text, size_t len,
                                   char *err, size_t errlen);
/* The same with the seed of a deal the record does not give (a Toscana
 * record without stacks or seed; tav_session_from_record deals those from
 * seed 1) and at most max_plies moves (a longer record is refused before
 * its moves past the limit are replayed; at most TAV_RECORD_MAX_MOVES). */
tav_status tav_session_from_record_ex(tav_session **out, const char *text, size_t len,
                                      uint64_t seed, int max_plies, char *err, size_t errlen);
/* Restart s from a position text of its game, set up from a fresh game with
 * s's options and seed (the history restarts at ply 0 there).  A failure
 * (TAV_E_INVALID with the game's message) changes nothing. */
tav_status tav_session_set_position(tav_session *s, const char *text, char *err, size_t errlen);
tav_session *tav_session_clone(const tav_session *s);   /* NULL: out of memory */
void tav_session_free(tav_session *s);

const tav_game *tav_session_game(const tav_session *s);
const char *tav_session_options(const tav_session *s);  /* as given: may hold secrets */
uint64_t tav_session_seed(const tav_session *s);
/* The options anyone may see now: Toscana's seed, white= and black= are
 * left out until the game is over. */
void tav_session_public_options(const tav_session *s, char *buf, size_t n);
/* Options that set up the same start without the seed: the options as given
 * with the secret ones replaced by the game's deal_options (Toscana:
 * "white=IDS black=IDS"), for another engine that must play the same deal. */
void tav_session_start_options(const tav_session *s, char *buf, size_t n);

int tav_session_ply(const tav_session *s);              /* moves played */
const void *tav_session_state(const tav_session *s);    /* the current state */
const void *tav_session_state_at(const tav_session *s, int ply);   /* 0..ply; NULL outside */
const char *tav_session_move_text(const tav_session *s, int i);    /* move i (0-based) */
int tav_session_to_move(const tav_session *s);          /* TAV_NONE when over */
/* Result now, resignation included (a resigned game is over, the other side wins). */
void tav_session_result(const tav_session *s, tav_result *r);
int tav_session_resigned(const tav_session *s);         /* side that resigned, or TAV_NONE */

/* Play the move whose canonical text is `text`.  TAV_E_OVER when the game is
 * over; TAV_E_ILLEGAL with, when one is close, an explanation ("a tower
 * may not stand beside a tower", "did you mean d3d4xd5?"). */
tav_status tav_session_play_text(tav_session *s, const char *text, char *err, size_t errlen);
/* A move as a seat sends it (a server, a second screen): every check before
 * a move, then tav_session_play_text.  `ply` is the ply the sender saw:
 * a smaller one names a move already played, and the same text by the same
 * side is a retry (TAV_OK, *repeated set, nothing played); any other ply
 * is stale (TAV_E_ILLEGAL).  Then the game over (TAV_E_OVER), `side` not to
 * move (TAV_E_ILLEGAL), `max_plies` (> 0) plies already played (TAV_E_OVER),
 * and the move itself as tav_session_play_text.  `repeated` may be NULL. */
tav_status tav_session_play_as(tav_session *s, int side, int ply, int max_plies,
                               const char *text, int *repeated, char *err, size_t errlen);
/* Play a move value listed by tav_session_legal for the current state. */
tav_status tav_session_play(tav_session *s, tav_move m);
/* Take back the last move (and a resignation first, if there is one);
 * TAV_E_NOTFOUND when nothing was played. */
tav_status tav_session_undo(tav_session *s);
tav_status tav_session_resign(tav_session *s, int side);

/* Room for clocks: milliseconds each side has left and the time each move
 * took, kept with the history (0 when nobody keeps time). */
void tav_session_set_move_ms(tav_session *s, int i, int64_t ms);
int64_t tav_session_move_ms(const tav_session *s, int i);

/* ---- Projections for a viewer (TAV_WHITE, TAV_BLACK, TAV_SPECTATOR). ---- */

/* The legal moves `viewer` may see: every legal move when viewer is the side
 * to act, none otherwise.  `out` has room for tav_session_game(s)->max_moves. */
int tav_session_legal(const tav_session *s, int viewer, tav_move *out);
/* Canonical text of a move of the current state. */
int tav_session_move_str(const tav_session *s, tav_move m, char *buf, size_t n);
/* The parts of a move of the current state (tav_move_parts: its squares,
 * piece, from and to, rotation) beside its text, for a board that builds
 * moves out of squares: TAV_OK, or TAV_E_NOTFOUND when the game does not
 * describe its moves (p then says nothing: no action, no squares).  They
 * say nothing the move's text and the drawing view do not already show. */
tav_status tav_session_move_parts(const tav_session *s, tav_move m, tav_move_parts *p);
/* Position text as `viewer` may see it (hidden tiles shown as unknown). */
tav_status tav_session_position(const tav_session *s, int viewer, char *buf, size_t n);
/* The drawing view of the state after `ply` moves (ply = tav_session_ply(s)
 * for the current one), as `viewer` may see it. */
tav_status tav_session_view(const tav_session *s, int ply, int viewer, tav_board_view *v);
/* The current state as `viewer` knows it, for a search: a copy into `out`
 * (tav_session_game(s)->state_size bytes, caller's) in which everything
 * hidden from viewer is in the game's canonical form (its mask operation),
 * so that every deal viewer cannot tell apart gives the same bytes; the
 * search fills the hidden part in again with the game's determinize.  A
 * game that hides nothing (or cannot determinize), or a game that is over,
 * gives the state as it is.  TAV_OK; TAV_E_INVALID for another viewer. */
tav_status tav_session_search_state(const tav_session *s, int viewer, void *out);

/* ---- Records (docs/records.md). ---- */

/* The record as `viewer` may see it, into a heap buffer (caller frees);
 * NULL on no memory.  Tags White/Black name the players; until the game is
 * over nothing hidden appears (no Toscana stacks); once it is over the
 * stacks are written so the game replays exactly. */
char *tav_session_record(const tav_session *s, int viewer, const char *white_name,
                         const char *black_name);
/* The whole record for the game's owner (a local tool saving its own game):
 * the options as given and, for a game with hidden stacks, the stacks even
 * while it is unfinished, so it always replays exactly. */
char *tav_session_record_all(const tav_session *s, const char *white_name,
                             const char *black_name);

/* ---- Searching a session's game (the search service, tavoliere_search.h).
 * Thin doors over tav_service_run_state / tav_service_submit_state: the
 * position searched is tav_session_search_state(s, side to act), so no
 * player reads what that side may not see, and it is copied, so the
 * session may change or be freed as soon as the call returns. ---- */

/* Search the current position for its side to act; blocks until done (see
 * tav_service_run_state: `info`, *out).  TAV_E_INVALID without a session,
 * TAV_E_OVER when the game is over (resignation included), TAV_E_NOMEM,
 * else the search's status. */
tav_status tav_service_run(tav_service *svc, const tav_session *s, const char *player,
                           const tav_budget *b, tav_info_fn info, void *ctx, tav_answer *out);
/* Asynchronous search of the current position: TAV_OK with the handle in
 * *handle (may be NULL; written before the search can start), `done` then
 * called exactly once on a worker thread; or the reason it was refused
 * (*handle 0, `done` never called): TAV_E_INVALID without a session,
 * TAV_E_OVER, TAV_E_NOMEM, or as tav_service_submit_state (TAV_E_NOTFOUND
 * for an unknown player, ...). */
tav_status tav_service_submit(tav_service *svc, const tav_session *s, const char *player,
                              const tav_budget *b, tav_done_fn done, void *ctx,
                              uint64_t *handle);

#endif
