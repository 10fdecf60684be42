/*
 * store.h — where games are kept: a narrow interface in front of the database.
 *
 * The server sees games, seats and moves, never SQL: a PostgreSQL backend
 * can be added beside store_sqlite.c without touching the game logic.
 * Writes are grouped into batches committed by store_flush (one sync for
 * many moves); a failing call changes nothing and returns -1 with a message.
 * Seat tokens are never stored, only their hashes.
 *
 * Not thread-safe: the server's event loop is its only user.
 */
#ifndef SERVER_STORE_H
#define SERVER_STORE_H

#include <stddef.h>
#include <stdint.h>

#define STORE_ID_LEN 16       /* game ids are 12 characters; room for NUL */
#define STORE_PLAYER_LEN 40   /* "human", "random", "ai:level=10" ... */
#define STORE_HASH_LEN 32     /* seat token hash */

/* A game's status: unfinished with a person to act (or waiting), over, or
 * unfinished with a computer seat to act (these are reloaded at start). */
enum { STORE_PLAYING = 0, STORE_OVER = 1, STORE_COMPUTER = 2 };

/* One game's row: everything needed to rebuild it, apart from its moves. */
typedef struct store_game {
    char id[STORE_ID_LEN];
    char game[32];
    char *options;                 /* heap (store_game_done frees it); may hold secrets */
    uint64_t seed;
    char player[2][STORE_PLAYER_LEN];
    int64_t created;               /* unix seconds */
    int status;                    /* STORE_PLAYING, STORE_OVER */
    int resigned;                  /* side that resigned, or -1 */
    int has_seat[2];               /* 1 where a human seat (and its hash) exists */
    unsigned char seat_hash[2][STORE_HASH_LEN];
} store_game;

/* One move as stored. */
typedef struct store_move {
    const char *text;
    int64_t ms;        /* time the move took */
    int64_t time;      /* unix milliseconds when it was played */
} store_move;

typedef struct store store;

/* Writes are grouped: each write call joins the open batch (one
 * transaction) and store_flush commits it with one sync to disk.  Nothing
 * written is durable, and nobody may be told about it, before store_flush
 * returns 0.  A failing write undoes only itself. */
int store_pending(const store *st);        /* 1: writes wait for store_flush */
int store_flush(store *st, char *err, size_t errlen);

/* Open (creating and migrating to the current schema) the database at path. */
store *store_open(const char *path, char *err, size_t errlen);
void store_close(store *st);
int store_schema_version(store *st);

/* A new game with its seats and (records) its first moves, in one transaction. */
int store_create_game(store *st, const store_game *g, const store_move *moves, int nmoves,
                      char *err, size_t errlen);
/* Move `ply` of game `id` (0-based), with the game's status after it. */
int store_add_move(store *st, const char *id, int ply, const store_move *m, int status,
                   char *err, size_t errlen);
/* Forget the moves from `ply` on (undo), setting the status. */
int store_truncate(store *st, const char *id, int ply, int status, char *err, size_t errlen);
/* Status and resignation (resign). */
int store_set_result(store *st, const char *id, int status, int resigned, char *err,
                     size_t errlen);

/* Load one game: 1 found, 0 unknown, -1 error.  `move` is called for each
 * move in order (return nonzero to stop with an error). */
typedef int (*store_move_fn)(void *ctx, int ply, const store_move *m);
int store_load_game(store *st, const char *id, store_game *out, store_move_fn move, void *ctx,
                    char *err, size_t errlen);
void store_game_done(store_game *g);
/* The ids of every unfinished game whose computer seat is to act. */
typedef void (*store_id_fn)(void *ctx, const char *id);
int store_each_unfinished(store *st, store_id_fn fn, void *ctx, char *err, size_t errlen);
/* Number of games stored. */
long store_count_games(store *st);

#endif
