/*
 * tavoliere.h — the public face of the Tavoliere library.
 *
 * Every game is an operations table (tav_game, declared in
 * tavoliere_game.h for the people who write games) registered in one
 * place (src/games/registry.c).  Search, the engine protocol, the CLI and
 * the server see only this table, never a concrete board.  This header
 * adds the library's version, its status codes, the registry and the
 * helpers over the table; tavoliere_session.h (a game being played),
 * tavoliere_search.h (the computer players) and tavoliere_record.h (game
 * records) build on it.
 *
 * Errors: every call of the library that can fail returns a tav_status
 * (TAV_OK, or the reason it failed) and, where it takes an err buffer,
 * writes a message there; results come back through out-parameters.
 */
#ifndef TAVOLIERE_H
#define TAVOLIERE_H

#include <stddef.h>
#include <stdint.h>

#include "tavoliere_game.h"

/* The library's version (semantic versioning: a new MAJOR breaks the API;
 * while MAJOR is 0 a new MINOR may).  TAV_VERSION is the same as a string,
 * and the version `make` writes into its pkg-config file (`pkg-config
 * --modversion tavoliere`). */
#define TAV_VERSION_MAJOR 0
#define TAV_VERSION_MINOR 2
#define TAV_VERSION_PATCH 0
#define TAV_VERSION "0.2.0"

/* Status of a library call: TAV_OK, or why it failed. */
typedef enum tav_status {
    TAV_OK = 0,
    TAV_E_INVALID = 1,    /* malformed input: unknown game, bad option, bad text, a game
                             table of another abi_version */
    TAV_E_ILLEGAL = 2,    /* a well-formed move that is not legal now */
    TAV_E_OVER = 3,       /* the game is over: nothing more can be played */
    TAV_E_NOMEM = 4,      /* out of memory */
    TAV_E_CANCELLED = 5,  /* a search was cancelled before it found a move */
    TAV_E_NOTFOUND = 6    /* no such thing: no move to undo, unknown player, no parts */
} tav_status;

/* A short English name of a status ("ok", "illegal move", ...). */
const char *tav_status_str(tav_status st);

/* The registry: every game known to Tavoliere. */
int tav_game_count(void);
const tav_game *tav_game_at(int i);
const tav_game *tav_game_find(const char *name);   /* NULL if unknown */

/* Helpers on top of the table (src/games/game.c). */
/* Find the legal move whose canonical text is exactly `text`: TAV_OK with *m
 * set; TAV_E_INVALID for a text no move can have (empty, TAV_MOVE_TEXT bytes
 * or more), TAV_E_OVER when the game is over (no legal move), TAV_E_ILLEGAL
 * when no legal move has that text.  `scratch` has room for g->max_moves
 * moves. */
tav_status tav_find_move(const tav_game *g, const void *st, const char *text,
                         tav_move *scratch, tav_move *m);
/* Set up a new game with a seed: g->setup, or g->init when the game has no
 * random setup.  TAV_OK, or TAV_E_INVALID with the game's message (a bad
 * option). */
tav_status tav_game_setup(const tav_game *g, void *st, const char *options, uint64_t seed,
                          char *err, size_t errlen);
/* The drawing view for `viewer` (g->board_view on a cleared view). */
void tav_game_board_view(const tav_game *g, const void *st, int viewer, tav_board_view *v);
/* The parts of a legal move m of st (g->move_parts on cleared parts):
 * TAV_OK, or TAV_E_NOTFOUND when the game does not describe its moves or
 * not this one. */
tav_status tav_game_move_parts(const tav_game *g, const void *st, tav_move m,
                               tav_move_parts *p);
/* "higher wins", "lower wins", or "" when the score does not decide (TAV_SCORE_*). */
const char *tav_score_wins_words(int score_wins);
/* Position text for `viewer` (TAV_WHITE, TAV_BLACK, TAV_SPECTATOR) into buf
 * (n bytes, n > 0): g->public_position, or g->get_position when the game
 * hides nothing.  TAV_OK, or TAV_E_INVALID for another viewer or no room. */
tav_status tav_game_public_position(const tav_game *g, const void *st, int viewer, char *buf,
                                    size_t n);
/* Conformance checks (src/games/conformance.c): one seeded random game of g
 * played through the table with every invariant checked at every ply (the
 * table's abi_version and required operations, legal lists and their texts,
 * check(), position text round trip, deterministic play, mask/determinize,
 * an end within 20000 plies).  `hook` (may be NULL) is called at every live
 * ply with the legal list, for checks of its own (nonzero with a message in
 * err: a failure).  TAV_OK; TAV_E_INVALID with the first failure in err
 * ("seed S ply P: ...": a broken invariant, options init refuses, a table
 * of another version); TAV_E_NOMEM.  *plies (may be NULL) gets the plies
 * played. */
typedef int (*tav_conformance_hook)(void *ctx, const tav_game *g, const void *st, int ply,
                                    const tav_move *legal, int n, char *err, size_t errlen);
tav_status tav_conformance_game(const tav_game *g, const char *options, uint64_t seed,
                                tav_conformance_hook hook, void *ctx, int *plies, char *err,
                                size_t errlen);
/* Whether a table can be played by this library: TAV_OK, or TAV_E_INVALID
 * with a message (another abi_version, a required operation missing, no
 * name, state_size or max_moves).  Sessions and searches check it. */
tav_status tav_game_check_table(const tav_game *g, char *err, size_t errlen);
/* The registered games' names for messages, "urbino, epaminondas, cathedral
 * or toscana" (registry order); returns buf. */
char *tav_game_list(char *buf, size_t n);
/* "white" / "black" / "draw" / "none" */
const char *tav_side_name(int side);

#endif
