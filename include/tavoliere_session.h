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
 * Ownership: a session is a heap object, not thread-safe; independent
 * sessions may be used on any threads at once.  Every call that can fail
 * returns a tav_status and, where it takes one, writes a message into the
 * caller's err buffer; a failing call changes nothing.
 */
#ifndef TAVOLIERE_SESSION_H
#define TAVOLIERE_SESSION_H

#include <stddef.h>
#include <stdint.h>

#include "tavoliere.h"

/* Status of a library call, where callers must tell failures apart. */
typedef enum tav_status {
    TAV_OK = 0,
    TAV_E_INVALID = 1,    /* malformed input: unknown game, bad option, bad text */
    TAV_E_ILLEGAL = 2,    /* a well-formed move that is not legal now */
    TAV_E_OVER = 3,       /* the game is over: nothing more can be played */
    TAV_E_NOMEM = 4,      /* out of memory */
    TAV_E_CANCELLED = 5,  /* a search was cancelled before it found a move */
    TAV_E_NOTFOUND = 6    /* no such thing: no move to undo, unknown player */
} tav_status;

/* A short English name of a status ("ok", "illegal move", ...). */
const char *tav_status_str(tav_status st);

/* Viewers.  TAV_WHITE and TAV_BLACK (tavoliere.h) see their own seat. */
enum { TAV_SPECTATOR = 2 };

/* ------------------------------------------------------------------------
 * The drawing view: everything a board renderer (terminal or browser) needs,
 * projected for one viewer.  Squares are indexed rank * width + file, rank 0
 * = rank "1" at the bottom, file 0 = 'a'.
 */

/* Marks on a square. */
enum {
    TAV_MARK_LAST = 1 << 0,      /* touched by the last move */
    TAV_MARK_LOT = 1 << 1,       /* Urbino: a building lot (seen by both architects) */
    TAV_MARK_TERR_W = 1 << 2,    /* Cathedral: white's territory */
    TAV_MARK_TERR_B = 1 << 3,    /* Cathedral: black's territory */
    TAV_MARK_AREA_W = 1 << 4,    /* Toscana: in white's largest area */
    TAV_MARK_AREA_B = 1 << 5,    /* Toscana: in black's largest area */
    TAV_MARK_HOME_W = 1 << 6,    /* Epaminondas: white's home row (rank 1) */
    TAV_MARK_HOME_B = 1 << 7,    /* Epaminondas: black's home row (rank 12) */
    TAV_MARK_MONUMENT = 1 << 8,  /* Urbino Monuments: part of a counted monument */
    TAV_MARK_CENTRE = 1 << 9     /* Toscana: the square the first tile must cover */
};

/* One square.  kind is a letter naming what stands there, 0 when empty:
 *   Urbino       'A' architect (owner TAV_DRAW), 'H' house, 'P' palace, 'T' tower
 *   Epaminondas  'M' a piece
 *   Cathedral    the building's code (T S I B Q M A D X C W), 'Y' the Cathedral
 *                (owner TAV_DRAW)
 *   Toscana      'L' a light square, 'D' a dark square of a placed tile
 *                (owner: the tile's owner)
 * piece: the identity of the piece or tile covering the square, the same on
 *   every square of one piece and different between pieces (Cathedral: one
 *   number per building on the board; Toscana: the tile's placement number,
 *   1 = first tile placed), 0 when none.
 * region: the district (Urbino) the square belongs to, 1.., matching
 *   tav_region.id; 0 when none. */
typedef struct tav_square {
    char kind;
    int8_t owner;      /* TAV_WHITE, TAV_BLACK, TAV_DRAW (neutral), TAV_NONE (empty) */
    uint16_t piece;
    uint16_t marks;    /* TAV_MARK_* */
    uint16_t region;
} tav_square;

#define TAV_HAND_ITEMS 16
#define TAV_SHAPE_CELLS 8

/* One kind of piece a player still holds, or a tile he will place.
 *   Urbino       kind 'H' / 'P' / 'T', count left in the supply
 *   Cathedral    kind = building code (and 'Y' for the Cathedral in white's
 *                hand, classic, or black's, late, until it is placed), count,
 *                and its shape in the orientation the notation starts from:
 *                ncells cells as (file, rank) offsets, rank up
 *   Toscana      kind 'S' (the visible top of the stack): id = the tile id
 *                ("07"), count 1, ncells 8: the 2x4 frame in cell order 0..7
 *                (row 0 on top), offcolour[] marking its two off-colour cells
 *   Epaminondas  nothing (see on_board/captured) */
typedef struct tav_hand_item {
    char kind;
    char id[4];                         /* Toscana tile id, else "" */
    uint8_t count;
    uint8_t ncells;
    int8_t cell[TAV_SHAPE_CELLS][2];    /* (file, rank) offsets */
    uint8_t offcolour[TAV_SHAPE_CELLS]; /* Toscana: 1 where the cell shows the off colour */
} tav_hand_item;

typedef struct tav_side_view {
    int nitems;
    tav_hand_item item[TAV_HAND_ITEMS];
    int stack;        /* Toscana: tiles left in the stack (their order is never shown) */
    int veto;         /* Toscana: 1 while the veto is unused */
    int on_board;     /* pieces on the board (Epaminondas, Urbino buildings, Cathedral buildings) */
    int captured;     /* Epaminondas: pieces lost; Cathedral: buildings captured so far */
    int score;        /* as SPEC.md's state line */
} tav_side_view;

#define TAV_MAX_REGIONS 64

/* A scored region: an Urbino district (value[] = each colour's total,
 * scorer/points = who scores it now and how much), a Toscana largest area
 * (one per side: value[side] = tiles touched). */
typedef struct tav_region {
    uint16_t id;
    int value[2];
    int scorer;       /* TAV_WHITE, TAV_BLACK, TAV_NONE */
    int points;
} tav_region;

typedef struct tav_board_view {
    int width, height;
    tav_square sq[TAV_MAX_SQUARES];
    int to_move;                 /* TAV_WHITE, TAV_BLACK or TAV_NONE */
    char phase[32];              /* "setup", "choose", "play", "decision", "cathedral", "opening", "over" */
    tav_side_view side[2];
    int nregions;
    tav_region region[TAV_MAX_REGIONS];
    char last_move[TAV_MOVE_TEXT];
    char info[256];              /* one line of game-specific text for people */
} tav_board_view;

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
/* A session starting from a position text (get_position's format). */
tav_status tav_session_from_position(tav_session **out, const char *game, const char *text,
                                     char *err, size_t errlen);
/* A session replaying a record (records.md): every move is replayed and
 * checked; errors are "line L, column C: ...". */
tav_status tav_session_from_record(tav_session **out, const char *text, size_t len,
                                   char *err, size_t errlen);
tav_session *tav_session_clone(const tav_session *s);   /* NULL: out of memory */
void tav_session_free(tav_session *s);

const tav_game *tav_session_game(const tav_session *s);
const char *tav_session_options(const tav_session *s);  /* as given: may hold secrets */
uint64_t tav_session_seed(const tav_session *s);
/* The options anyone may see now: Toscana's seed, white= and black= are
 * left out until the game is over. */
void tav_session_public_options(const tav_session *s, char *buf, size_t n);

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
/* Position text as `viewer` may see it (hidden tiles shown as unknown). */
tav_status tav_session_position(const tav_session *s, int viewer, char *buf, size_t n);
/* The drawing view of the state after `ply` moves (ply = tav_session_ply(s)
 * for the current one), as `viewer` may see it. */
tav_status tav_session_view(const tav_session *s, int ply, int viewer, tav_board_view *v);

/* ---- Records (docs/records.md). ---- */

/* The record as `viewer` may see it, into a heap buffer (caller frees);
 * NULL on no memory.  Tags White/Black name the players; until the game is
 * over nothing hidden appears (no Toscana stacks); once it is over the
 * stacks are written so the game replays exactly. */
char *tav_session_record(const tav_session *s, int viewer, const char *white_name,
                         const char *black_name);

#endif
