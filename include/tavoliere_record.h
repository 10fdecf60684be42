/*
 * tavoliere_record.h — game records: a documented text format (docs/records.md) that
 * can be saved, shared, replayed and analysed.
 *
 *   [Game "urbino"]
 *   [Options "variant=standard"]
 *   [White "human"]
 *   [Black "ai:level=5"]
 *   [Date "2026-11-22"]
 *   [Result "black"]
 *   [Score "11:13"]
 *
 *   1. Ai9
 *   2. Af5 { a comment }
 *   3. first:black ; a comment to the end of the line
 *
 * Parsing is strict and bounded: every error names the line and column and
 * what was expected; the moves are replayed through the game, so an illegal
 * move is reported at its ply.  The parser never allocates more than the
 * record's move count needs and refuses inputs over TAV_RECORD_MAX bytes.
 *
 * Records know games by their registered names (tav_game_find); calls that
 * can fail return a tav_status (tavoliere.h).
 */
#ifndef TAV_RECORD_H
#define TAV_RECORD_H

#include <stddef.h>

#include "tavoliere.h"

#define TAV_RECORD_MAX (4u << 20)     /* largest record accepted, bytes */
#define TAV_RECORD_MAX_MOVES 100000
#define TAV_RECORD_TAG 256            /* longest tag value */

typedef struct tav_record {
    const tav_game *game;
    char options[TAV_RECORD_TAG];
    char white[TAV_RECORD_TAG], black[TAV_RECORD_TAG];
    char date[TAV_RECORD_TAG], event[TAV_RECORD_TAG];
    char result[TAV_RECORD_TAG], score[TAV_RECORD_TAG];
    char white_stack[TAV_RECORD_TAG], black_stack[TAV_RECORD_TAG];
    char (*moves)[TAV_MOVE_TEXT];     /* heap, nmoves entries */
    char **comments;                  /* heap, nmoves entries, NULL when none */
    int nmoves, cap;
} tav_record;

void tav_record_init(tav_record *r);
void tav_record_free(tav_record *r);

/* Append a move (and optional comment) to a record: TAV_OK, TAV_E_INVALID
 * past TAV_RECORD_MAX_MOVES moves, TAV_E_NOMEM. */
tav_status tav_record_add(tav_record *r, const char *move, const char *comment);

/* The options to start the record's game with: Options, with Toscana's
 * explicit stacks when the record has them. */
void tav_record_start_options(const tav_record *r, char *buf, size_t n);

/* Fill the closing tags from the game: Date (today, UTC), Result, Score
 * and, for a game with hidden stacks, the stacks dealt by `options` (so the
 * game replays exactly).  `final` is the last state (g->state_size bytes). */
void tav_record_finish(tav_record *r, const tav_game *g, const char *options, const void *final);

/* The stack tags of a game with a hidden deal (WhiteStack, BlackStack), from
 * the game's deal_options of its start state; cleared for other games. */
void tav_record_set_deal(tav_record *r, const tav_game *g, const void *start);

/* Parse a record and replay it.  TAV_OK and, when `final` is not NULL, the
 * final state there (g->state_size bytes, caller's).  Else a message
 * "line L, column C: ..." in err and the reason:
 *   TAV_E_INVALID  the text is not a record: a bad byte, tag or token, an
 *                  unknown game, bad Options, a move number out of order,
 *                  too many moves, Result or Score not those of the moves;
 *   TAV_E_ILLEGAL  a move is not a legal move at its ply;
 *   TAV_E_OVER     a move comes after the end of the game;
 *   TAV_E_NOMEM    out of memory. */
tav_status tav_record_parse(const char *text, size_t len, tav_record *r, void *final,
                            char *err, size_t errlen);
/* The same, refusing a record of more than max_moves moves (at most
 * TAV_RECORD_MAX_MOVES) as soon as the parser reaches the first move too
 * many, before replaying it (TAV_E_INVALID). */
tav_status tav_record_parse_max(const char *text, size_t len, tav_record *r, void *final,
                                int max_moves, char *err, size_t errlen);

/* Write a record as text into a heap buffer (caller frees); NULL on no memory. */
char *tav_record_write(const tav_record *r);

#endif
