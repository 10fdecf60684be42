/*
 * store.h — where games are kept: a table of operations in front of the
 * database.
 *
 * The server sees games, seats and moves, never SQL.  Each backend (today
 * store_sqlite.c) fills a store_ops table; store_open picks the backend
 * from the --db argument, and every backend passes the same conformance
 * suite (tests/server/test_store.c).  Writes are grouped into batches
 * committed by store_flush (one sync for many moves); a failing call
 * changes nothing and returns -1 with a message.  Seat tokens are never
 * stored, only their hashes.
 *
 * Not thread-safe: one thread uses a store at a time.
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
    int local;                     /* two people at one screen: engine help allowed */
    char rematch[STORE_ID_LEN];    /* the game that followed this one (rematch), "" for none */
    unsigned char seat_hash[2][STORE_HASH_LEN];
} store_game;

/* One move as stored. */
typedef struct store_move {
    const char *text;
    int64_t ms;        /* time the move took */
    int64_t time;      /* unix milliseconds when it was played */
} store_move;

typedef struct store store;
typedef struct store_ops store_ops;

/* Called once with a game's row, before its moves (return nonzero to stop
 * with an error). */
typedef int (*store_row_fn)(void *ctx, const store_game *g);
/* Called for each move in order (return nonzero to stop with an error). */
typedef int (*store_move_fn)(void *ctx, int ply, const store_move *m);
typedef void (*store_id_fn)(void *ctx, const char *id);

/* The operations every backend implements.  Writes join the open batch
 * (one transaction) and flush commits it with one sync to disk: nothing
 * written is durable, and nobody may be told about it, before flush
 * returns 0.  A failing write undoes only itself. */
struct store_ops {
    const char *name;                          /* "sqlite" */
    store *(*open)(const char *path, char *err, size_t errlen);   /* creates and migrates */
    void (*close)(store *st);
    int (*pending)(const store *st);           /* 1: writes wait for flush */
    int (*flush)(store *st, char *err, size_t errlen);
    /* Roll the open batch back: none of its writes happened. */
    void (*discard)(store *st);
    /* A new game with its seats and (records) its first moves. */
    int (*create_game)(store *st, const store_game *g, const store_move *moves, int nmoves,
                       char *err, size_t errlen);
    /* Move `ply` of game `id` (0-based), with the game's status after it. */
    int (*add_move)(store *st, const char *id, int ply, const store_move *m, int status,
                    char *err, size_t errlen);
    /* Forget the moves from `ply` on (undo), setting the status. */
    int (*truncate)(store *st, const char *id, int ply, int status, char *err, size_t errlen);
    /* Status and resignation (resign). */
    int (*set_result)(store *st, const char *id, int status, int resigned, char *err,
                      size_t errlen);
    /* The game that follows a finished one (rematch); once only: -1 when
     * `id` is unknown or has one already. */
    int (*set_rematch)(store *st, const char *id, const char *rematch, char *err, size_t errlen);
    /* Load one game in one pass: 1 found, 0 unknown, -1 error.  `row` (may
     * be NULL) sees the row before `move` sees each move; out (may be NULL)
     * receives the row (store_game_done frees it). */
    int (*load_game)(store *st, const char *id, store_game *out, store_row_fn row,
                     store_move_fn move, void *ctx, char *err, size_t errlen);
    /* The ids of every unfinished game whose computer seat is to act. */
    int (*each_unfinished)(store *st, store_id_fn fn, void *ctx, char *err, size_t errlen);
};

/* Every backend's store begins with this. */
struct store {
    const store_ops *ops;
};

extern const store_ops store_sqlite_ops;

/* The backend a --db argument names (today: a file path, SQLite). */
const store_ops *store_backend(const char *db);

/* Open (creating and migrating to the current schema) the database `db`
 * names, through its backend. */
store *store_open(const char *db, char *err, size_t errlen);
void store_close(store *st);
int store_pending(const store *st);
int store_flush(store *st, char *err, size_t errlen);
void store_discard(store *st);
int store_create_game(store *st, const store_game *g, const store_move *moves, int nmoves,
                      char *err, size_t errlen);
int store_add_move(store *st, const char *id, int ply, const store_move *m, int status,
                   char *err, size_t errlen);
int store_truncate(store *st, const char *id, int ply, int status, char *err, size_t errlen);
int store_set_result(store *st, const char *id, int status, int resigned, char *err,
                     size_t errlen);
int store_set_rematch(store *st, const char *id, const char *rematch, char *err, size_t errlen);
int store_load_game(store *st, const char *id, store_game *out, store_row_fn row,
                    store_move_fn move, void *ctx, char *err, size_t errlen);
void store_game_done(store_game *g);
int store_each_unfinished(store *st, store_id_fn fn, void *ctx, char *err, size_t errlen);

#endif
