/*
 * tavoliere_game.h — what a game is, for the people who write one: the
 * operations table (tav_game), moves, results, the drawing view, the parts
 * of a move, the words for people and the random generator.
 *
 * A game is a const tav_game with abi_version = TAV_GAME_ABI_VERSION and
 * its operations.  The four games of Tavoliere are registered in
 * src/games/registry.c; a program may write a game of its own and play it
 * through a session (tav_session_new_game, tavoliere_session.h) and the
 * search service (tav_service_run_state, tavoliere_search.h), which see only
 * this table, never a concrete board.
 *
 * State ownership: a game state is an opaque block of plain data of
 * `state_size` bytes, owned by the caller.  It holds no pointers, so it is
 * copied with one memcpy (copy-make is the undo mechanism of search) and
 * compared with memcmp after canonical construction.  No operation
 * allocates (list_moves aside), and none touches global mutable state: any
 * number of states may be used on any number of threads at once.
 *
 * Moves are compact 32-bit values whose encoding belongs to the game; the
 * only stable external form is the canonical text produced by move_str
 * (each game's notation: docs/rules/).  A move value is meaningful only for
 * the state it was generated in.
 */
#ifndef TAVOLIERE_GAME_H
#define TAVOLIERE_GAME_H

#include <stddef.h>
#include <stdint.h>

#define TAV_MAX_MOVES 16384   /* bound on legal moves in any position of any game */
#define TAV_MAX_SQUARES 289   /* the largest board: Toscana 17x17 */
#define TAV_MOVE_TEXT 64      /* room for any move's canonical text, with NUL */
#define TAV_PV_MAX 8          /* moves of an expected line (tav_answer.pv) */
#define TAV_POSITION_TEXT 4096 /* room for any position text (get_position) */

typedef uint32_t tav_move;

#define TAV_NOISY 1000          /* move_score at or above this: a noisy move */

/* Receives one line of output (thinking info, drawings); ctx is the caller's. */
typedef void (*tav_info_fn)(void *ctx, const char *line);

/* Sides.  TAV_NONE means "nobody" (game over, or no winner yet). */
enum { TAV_WHITE = 0, TAV_BLACK = 1, TAV_DRAW = 2, TAV_NONE = -1 };
/* Viewers of a projection: TAV_WHITE, TAV_BLACK or a spectator. */
enum { TAV_SPECTATOR = 2 };

/* The outcome and score of a position, as the `state` line shows it. */
typedef struct tav_result {
    int over;      /* 1 when the game has ended */
    int winner;    /* TAV_WHITE, TAV_BLACK, TAV_DRAW, or TAV_NONE while not over */
    int score[2];  /* white's and black's score, as each game's rules define it (docs/rules/) */
} tav_result;

/* ------------------------------------------------------------------------
 * The drawing view (tav_board_view): everything a board renderer (terminal or browser) needs,
 * projected for one viewer.  Squares are indexed rank * width + file, rank 0
 * = rank "1" at the bottom, file 0 = 'a'.
 */

/* What the sides hold (tav_board_view.hands). */
enum {
    TAV_HANDS_NONE = 0,    /* nothing: pieces on the board and lost (Epaminondas) */
    TAV_HANDS_COUNT = 1,   /* kinds with counts and names (Urbino's supply) */
    TAV_HANDS_SHAPES = 2,  /* buildings with their shapes (Cathedral) */
    TAV_HANDS_TILES = 3    /* a stack's visible top tile, its size and the veto (Toscana) */
};

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
    char glyph;        /* the square's character in text drawings (the engine's `show`):
                        * '.' when empty, else a printable letter (Urbino: A H P T, black
                        * h p t; Epaminondas W B; Cathedral the position text's letters;
                        * Toscana W w on white tiles, B b on black ones, upper case in the
                        * owner's colour) */
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
    char name[12];                      /* what it is, plural, for people ("houses"); "" when
                                           its shape says enough */
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
    int captured;     /* pieces of this side lost to captures: Epaminondas' pieces taken,
                         Cathedral's buildings captured so far (each went back to the
                         owner's hand) */
    int score;        /* as the protocol's `state` line (docs/protocol.md) */
    char text[160];   /* what this side holds, as short text for people (`show`) */
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
    char end[256];               /* once the game is over, why it ended and who won, a
                                    sentence or two for people ("White began a turn with
                                    more pieces on the far row, 2 to 1: White wins.");
                                    empty while it runs */
    int light_dark;              /* 1 (Toscana): covered squares are light ('L') or dark
                                    ('D') and are drawn in those colours, the tiles told
                                    apart by their piece number */
    int hands;                   /* what the sides hold, for drawing: TAV_HANDS_* */
} tav_board_view;

/* A start menu's question about one option of newgame (Urbino's variant,
 * Cathedral's opening). */
typedef struct tav_choice {
    const char *key;                 /* "variant" */
    const char *question;            /* "Which rules?" */
    const char *const *values;       /* NULL-terminated, the default first */
    const char *const *labels;       /* one per value, for people */
    const char *note;                /* (may be NULL) what people should know before they
                                        choose, one sentence or two (Cathedral: how often
                                        the first to build wins in each opening) */
} tav_choice;

/* One section of a game's rules for people (tav_game.rules): a heading and
 * its paragraphs, plain text (no markup), paragraphs separated by "\n\n". */
typedef struct tav_rules_section {
    const char *heading;             /* "The goal" */
    const char *text;
} tav_rules_section;

/* How the score decides the winner at the end (tav_game.score_wins). */
enum {
    TAV_SCORE_SHOWN = 0,             /* it does not: it is shown only (Epaminondas) */
    TAV_SCORE_HIGHER_WINS = 1,
    TAV_SCORE_LOWER_WINS = 2         /* Cathedral */
};

/* ------------------------------------------------------------------------
 * The parts of a move (tav_game.move_parts): what a board needs to build a
 * move out of the squares a player points at, without reading the notation.
 * Squares are (file, rank) pairs, 0-based, rank 0 at the bottom, as in the
 * drawing view; {-1, -1} where there is none.  Nothing in them is hidden:
 * they say what the move's canonical text says, named by its parts, plus
 * what the drawing view already shows (the tile being placed).
 */
#define TAV_PART_SQUARES 16

typedef struct tav_move_parts {
    char action[8];      /* "place" (put a piece on squares: an Urbino architect or building,
                            a Cathedral building, a Toscana tile), "move" (an Epaminondas
                            phalanx), "first" (Urbino: who builds first, see side),
                            "pass", "veto", "accept" */
    char piece[4];       /* what is placed or moved: Urbino A H P T, Cathedral the building
                            code (Y the Cathedral), Toscana the tile id ("07"), Epaminondas
                            M; "" for none */
    int8_t side;         /* "first": the side chosen; else TAV_NONE */
    int8_t rotation;     /* quarter turns clockwise (rank up, file right) from the shape the
                            hand shows in the drawing view (Cathedral, Toscana); -1 where it
                            does not matter */
    int8_t from[2];      /* the square a piece leaves: the architect an Urbino build moves
                            first, the rear piece of an Epaminondas phalanx */
    int8_t to[2];        /* the square it reaches: the architect's new square, the landing
                            square of the phalanx's front piece */
    uint8_t nsquares;
    uint8_t nmarked;
    int8_t squares[TAV_PART_SQUARES][2];  /* the squares the piece covers: the architect's or
                            building's square (Urbino), the building (Cathedral), the tile
                            with squares[i] under cell i of the hand's frame (Toscana), the
                            phalanx from its rear to its front (Epaminondas) */
    int8_t marked[TAV_PART_SQUARES][2];   /* the tile's two off-colour squares (Toscana), the
                            enemy pieces a capture takes off (Epaminondas) */
} tav_move_parts;

/* A small, fast random generator whose state is a value (xoshiro256**-like). */
typedef struct tav_rng { uint64_t s[4]; } tav_rng;
void tav_rng_seed(tav_rng *r, uint64_t seed);
uint64_t tav_rng_next(tav_rng *r);
uint32_t tav_rng_below(tav_rng *r, uint32_t n);   /* uniform in [0, n), n > 0 */

/* The version of the operations table below: a table says which one it was
 * written for in abi_version, and the library refuses a table of another
 * version (tav_session_new_game, the search service, tav_conformance_game).
 * It changes whenever a field is added, removed or changes meaning. */
#define TAV_GAME_ABI_VERSION 2

/*
 * The operations table.  Required: abi_version, name, state_size,
 * max_moves (1..TAV_MAX_MOVES) and the operations init, legal, play,
 * to_move, result, move_str, hash, set_position, get_position and
 * board_view (tav_game_check_table, tavoliere.h, says whether a table has
 * them).  Everything else may be NULL or 0: the operations marked
 * (optional), the samples, the words for people and the ai's hooks.
 * Return conventions of the operations: 0 success, -1 failure with a
 * message in err (the library's own calls return a tav_status).
 */
typedef struct tav_game {
    int abi_version;          /* TAV_GAME_ABI_VERSION, as the game was written for */
    const char *name;         /* "urbino", ... as in `newgame NAME` */
    size_t state_size;        /* bytes of one state */
    int max_moves;            /* bound on the length of the legal move list */

    /* Set up a new game.  `options` is the rest of the newgame line:
     * space-separated KEY=VALUE pairs (may be ""), validated strictly:
     * unknown keys and bad values fail with a clear message. */
    int (*init)(void *st, const char *options, char *err, size_t errlen);

    /* Every legal move of the player to act, each once; returns the count.
     * `out` has room for max_moves.  0 when the game is over. */
    int (*legal)(const void *st, tav_move *out);

    /* Play a move that legal() listed for this state. */
    void (*play)(void *st, tav_move m);

    /* Who acts now (TAV_WHITE or TAV_BLACK); TAV_NONE when over. */
    int (*to_move)(const void *st);

    /* Over, winner and scores now (the protocol's `state` line, docs/protocol.md). */
    void (*result)(const void *st, tav_result *r);

    /* Canonical text of a legal move of this state; returns its length. */
    int (*move_str)(const void *st, tav_move m, char *buf, size_t n);

    /* A hash of everything that defines the position (not its history
     * beyond what the rules need): equal positions give equal hashes. */
    uint64_t (*hash)(const void *st);

    /* Position text: a game-specific, documented, line-based format holding
     * the whole state (lines separated by '\n'; never contains '/').
     * set_position(get_position(s)) gives back a state with the same legal
     * moves, result and hash. */
    int (*set_position)(void *st, const char *text, char *err, size_t errlen);
    int (*get_position)(const void *st, char *buf, size_t n);

    /* (optional) Set up a new game like init, with `seed` for every random
     * deal the options do not fix (Toscana: the stacks, unless seed=,
     * white= or black= are given).  NULL: the game has no random setup and
     * init is used.  Called through tav_game_setup() (tavoliere.h). */
    int (*setup)(void *st, const char *options, uint64_t seed, char *err, size_t errlen);

    /* (optional) Position text as `viewer` (TAV_WHITE, TAV_BLACK,
     * TAV_SPECTATOR) may see it: hidden information written as unknown.
     * NULL: nothing is hidden, get_position is public. */
    int (*public_position)(const void *st, int viewer, char *buf, size_t n);

    /* Fill the drawing view for `viewer`, nothing hidden in it (the one
     * drawing view: terminal, `show`, server and browser all draw from it). */
    void (*board_view)(const void *st, int viewer, tav_board_view *v);
    /* (optional) The parts of a legal move m of st (tav_move_parts), for
     * boards that build moves out of squares.  Called through
     * tav_game_move_parts, which clears p first (no squares, from, to and
     * rotation -1, side TAV_NONE).  0, or -1 for a move it cannot describe.
     * No allocation. */
    int (*move_parts)(const void *st, tav_move m, tav_move_parts *p);

    /* Sample option sets, NULL-terminated ("" = the defaults first): the
     * sets tests, benchmarks and menus go through. */
    const char *const *samples;
    /* Random games `tavoliere bench` plays with samples[0] (its workload;
     * the benchmark signature depends on it). */
    int bench_games;
    /* (optional) Option keys that carry secrets (Toscana: seed, white,
     * black), NULL-terminated: left out of public options until the game
     * is over. */
    const char *const *secret_options;

    /* (optional) The options that set up this start state's random deal
     * explicitly, with no seed (Toscana: "white=IDS black=IDS"): what a
     * record or another engine needs to replay the game exactly. */
    int (*deal_options)(const void *st, char *buf, size_t n);

    /* (optional) A uniformly random legal move without listing them all:
     * exactly the move list[tav_rng_below(rng, n)] would be after
     * n = legal(st, list), drawing from rng exactly as that call does, so a
     * caller may use either and replay the same games.  Returns n (the
     * number of legal moves) with *m set, or 0 when the game is over (rng
     * untouched).  NULL: callers list with legal() and draw the index. */
    int (*random_move)(const void *st, tav_rng *rng, tav_move *m);

    /* (optional) Game-specific queries for tests and tools, e.g. Urbino's
     * "lots".  Writes a single-line answer; returns -1 for an unknown key. */
    int (*probe)(const void *st, const char *key, char *out, size_t n);

    /* (optional) Recompute all derived data from scratch and compare:
     * 0 when consistent, else -1 with a message.  Tests call it every ply. */
    int (*check)(const void *st, char *err, size_t errlen);

    /* (optional, hidden information) Replace what `viewer` may not see
     * with a canonical form, so that two states that differ only in hidden
     * information become byte-identical (memcmp) with equal hashes.  The
     * masked state is still playable up to the point where hidden
     * information is revealed; determinize() fills it in again. */
    void (*mask)(void *st, int viewer);
    /* (optional) Fill hidden information at random, consistent with
     * what `viewer` sees. */
    void (*determinize)(void *st, int viewer, tav_rng *rng);

    /* ---- For people: menus and explanations (terminal play, the server's
     * /api/meta).  Generic code asks these, never a game's name.  All
     * optional. ---- */

    /* The game's name for people ("Urbino"), one line that says what it is
     * about, what its score counts ("district points") and whether the
     * higher or the lower score wins by it (TAV_SCORE_*). */
    const char *title;
    const char *pitch;
    const char *score_words;
    int score_wins;
    /* The rules for people, in short sections (the goal, the setup, a turn,
     * the end; what was measured about them), terminated by {NULL, NULL}. */
    const tav_rules_section *rules;
    /* What people should know when they choose a side, or NULL (Toscana:
     * white's measured edge). */
    const char *side_note;
    /* The option a start menu asks about (its values, the default first). */
    const tav_choice *menu;
    /* Explain a move text that is not a legal move's text, beyond what
     * generic code sees (letter case, a unique beginning): returns 1 with
     * `meant` set to the canonical text of the legal move it means
     * (Cathedral: the same squares in another order), else 0, with `why`
     * (may be left "") saying what is wrong.  `legal` holds the n legal
     * moves of st. */
    int (*explain_move)(const void *st, const char *text, const tav_move *legal, int n,
                        char *meant, size_t mn, char *why, size_t wn);
    /* Lines for people about the position beyond the drawing (Urbino: its
     * districts as they score now), each ending in '\n', public (anyone may
     * read them); returns the length written, 0 when there is nothing to say. */
    int (*describe)(const void *st, char *buf, size_t n);
    /* Why a finished game ended as it did, in lines for people (each ending
     * in '\n'); returns the length written. */
    int (*explain_result)(const void *st, char *buf, size_t n);
    /* The group a move is listed under in a long move list (Cathedral: the
     * building code, Epaminondas: the rear square), at most kn bytes with
     * its NUL; "" when none. */
    void (*move_group)(const char *move, char *key, size_t kn);
    /* A long move list laid out for people by the game itself (Urbino: by
     * architect move, then building), one `out` call per line; the first
     * line continues the sentence " N legal moves".  When set, used instead
     * of move_group.  (The one operation that may allocate: its work lists;
     * it prints less when memory runs out.) */
    void (*list_moves)(char *const *moves, int n, tav_info_fn out, void *ctx);

    /* ---- Hooks for the `ai` player (all optional; see docs/ai/).  How the
     * player searches each game (algorithm, UCB constant, widening, cut-off,
     * ...) is search tuning, kept in the search layer's per-(game, player)
     * profiles (src/search/profiles.c), not here. ---- */

    /* Heuristic value of the position for `side`, in [0, 1] (1 = sure win).
     * Cheap; the search uses it to end playouts early (after `cutoff`
     * plies) and, when the game is over, it must agree with the result. */
    double (*eval)(const void *st, int side);
    /* A playout move by a cheap game-specific policy (smarter or faster than
     * uniform over legal()).  `scratch` has room for max_moves.  Returns 0
     * when the game is over, else 1 with *m set to a legal move. */
    int (*playout_move)(const void *st, tav_rng *rng, tav_move *scratch, tav_move *m);
    /* Move-ordering score for alpha-beta (higher first).  Moves scoring at
     * least TAV_NOISY (captures, immediate wins) are searched in quiescence. */
    int (*move_score)(const void *st, tav_move m);
    /* (optional) The noisy moves alone: exactly the moves of legal(st) whose
     * move_score is at least TAV_NOISY, in the order legal() lists them;
     * returns their count (out has room for max_moves).  The quiescence
     * search uses it when present, else lists with legal() and filters. */
    int (*noisy)(const void *st, tav_move *out);
    /* (optional) Whether m is one of the moves legal(st) lists, for any value
     * of m (a stale or colliding table entry), without listing them all.
     * The alpha-beta search uses it to try the transposition table's move
     * and the killer moves before it lists any move. */
    int (*is_legal)(const void *st, tav_move m);
    /* (optional) What, beside the move itself, decides what a move of st is
     * worth, as a number below 2^11 (Toscana: the tile being placed, or being
     * decided on): the tree search keeps its move averages per (move,
     * context), so a square that suits one tile is not credited to another.
     * NULL: the move alone. */
    uint32_t (*move_context)(const void *st);
    /* (optional) The full player's evaluation (the `ai` with no level, or
     * level 10), with eval's contract: a newer one that levels 1-9, rated
     * with eval, do not use.  NULL: eval for every level. */
    double (*eval_full)(const void *st, int side);
} tav_game;

#endif
