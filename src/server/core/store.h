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

#define STORE_NAME_LEN 24     /* account names: 3 to 20 characters */
#define STORE_PWHASH_LEN 128  /* an Argon2id string (crypto_pwhash_STRBYTES) */

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
    char account[2][STORE_NAME_LEN];   /* each side's account, "" for none (a guest's seat, the computer) */
    int rated;
    int64_t clock_initial, clock_increment;   /* a real-time clock, seconds (0 0: none) */
    int64_t clock_days;            /* correspondence: days a move (0: none) */
    int64_t started_ms;            /* unix ms when the game began (its clocks' start) */
    int draw_offer, takeback_offer;   /* the side offering a draw, asking a take-back; -1 none.
                                         The core packs more into them (games.c, offers_pack):
                                         which sides' offers were spent since the last move, a
                                         rematch offer and the side whose absence ended the game;
                                         with none of that they hold the side, or -1. */
    char winner[8];                /* once over: "white", "black", "draw"; else "" */
    char end[12];                  /* once over: "normal", "resign", "time", "abort", "agreement",
                                      "abandon"; else "" */
    unsigned char seat_hash[2][STORE_HASH_LEN];
    int64_t stamp;                 /* changes whenever the game's row is written (0: not kept) */
    double rating_before[2], rating_after[2];   /* rated and over: each player's rating before
                                                   and after it (0: not known) */
} store_game;

/* One move as stored. */
typedef struct store_move {
    const char *text;
    int64_t ms;        /* time the move took */
    int64_t time;      /* unix milliseconds when it was played */
} store_move;

/* An account: its name as chosen (unique ignoring letter case) and the
 * password's Argon2id hash. */
typedef struct store_account {
    char name[STORE_NAME_LEN];
    char pwhash[STORE_PWHASH_LEN];
    int64_t created;               /* unix seconds */
    char lang[4];                  /* the page's language chosen: "it", "en" or "" (none) */
    int bot;                       /* a bot account (SPEC "Bots"): for good */
    int64_t closed;                /* unix s the account was closed (0: open); for good */
    int banned;                    /* banned by the operator (tavoliere admin) */
} store_account;

/* A session's browser, as its User-Agent said (cut to this many bytes - 1). */
#define STORE_UA_LEN 200
typedef int (*store_session_fn)(void *ctx, const unsigned char *hash, int64_t created,
                                int64_t expires, const char *ua, int64_t last_used);

/* A player's Glicko-2 rating in one game. */
typedef struct store_rating {
    double rating, rd, vol;
    int games;
    int bot;                       /* leaderboard only: the player is a bot account */
} store_rating;

/* An open offer to play (the lobby). */
typedef struct store_seek {
    char id[STORE_ID_LEN];
    char by[STORE_NAME_LEN];
    char game[32];
    char options[512];
    int rated;
    int colour;                    /* 0 white, 1 black, 2 random */
    int64_t initial, increment;    /* real-time clock, seconds (initial 0: none) */
    int64_t days;                  /* correspondence: days a move (0: none) */
    int64_t created;               /* unix seconds */
    char to[STORE_NAME_LEN];       /* a challenge: the only account that may accept ("" anyone) */
} store_seek;

/* One line of a player's games (newest first). */
typedef struct store_player_game {
    char id[STORE_ID_LEN];
    char game[32];
    char white[STORE_PLAYER_LEN], black[STORE_PLAYER_LEN];   /* account names, or the player */
    char winner[8], end[12];
    int rated;
    double rating_after[2];        /* rated: each player's rating after it (0: none) */
    int64_t created;               /* unix seconds */
} store_player_game;

/* An API token (SPEC "Bots"): its id for people, when it was made and last
 * used (unix seconds; 0 never).  The token itself is never stored, only its
 * hash. */
typedef struct store_token {
    char id[STORE_ID_LEN];
    int64_t created, last_used;
} store_token;
typedef int (*store_token_fn)(void *ctx, const store_token *t);
/* E-mail (mail.c): an account's address and wishes, and its queue. */
#define STORE_MAIL_LEN 256        /* an address: at most 254 bytes */
#define STORE_MAIL_ARG 160        /* what an item names (ids, names) */
typedef struct store_mail {
    char name[STORE_NAME_LEN];     /* the account (matched ignoring case) */
    char address[STORE_MAIL_LEN];  /* "" none */
    int verified;                  /* the address's link was followed */
    char verify_hash[68];          /* hex of the verification token's hash, "" none */
    int64_t verify_at;             /* unix s: when that link was made */
    int verify_count;              /* links sent since verify_since (the hour's window) */
    int64_t verify_since;
    int kinds;                     /* the switches: bits of the kinds wanted */
    int digest;                    /* one mail a day instead */
    char unsub[48];                /* the unsubscribe token (in every mail's links) */
} store_mail;
typedef struct store_mail_item {
    int64_t id;
    char name[STORE_NAME_LEN];
    int kind;
    char arg[STORE_MAIL_ARG];
    int64_t created, due;          /* unix s; sent no earlier than due */
    int tries;                     /* failed sends so far */
} store_mail_item;
typedef int (*store_mail_item_fn)(void *ctx, const store_mail_item *it);

/* Tournaments (SPEC "Tournaments"; docs/tournaments.md).  Scores are never
 * stored: they are computed again from the games (tournament.c). */
enum { STORE_TOUR_OPEN = 0, STORE_TOUR_RUNNING = 1, STORE_TOUR_OVER = 2 };
typedef struct store_tour {
    char id[STORE_ID_LEN];
    char name[84];                 /* at most 80 bytes of UTF-8 */
    char game[32];
    char options[512];
    char kind[12];                 /* "roundrobin" or "arena" */
    int rated;
    int64_t initial, increment;    /* real-time clock, seconds (initial 0: none) */
    int64_t days;                  /* correspondence: days a move (0: none) */
    char creator[STORE_NAME_LEN];
    int status;                    /* STORE_TOUR_OPEN, _RUNNING, _OVER */
    int64_t starts, ends;          /* unix ms (ends: an arena's, set when it starts; else 0) */
    int64_t minutes;               /* an arena's length */
    int64_t created;               /* unix ms */
    int players;                   /* read only: players not withdrawn */
    char repeat[8];                /* a recurring event: "day", "week", or "" (once) */
    char previous[STORE_ID_LEN];   /* the edition this one follows ("" none): one next edition each */
} store_tour;

/* A player of a tournament. */
typedef struct store_tour_player {
    char name[STORE_NAME_LEN];
    double rating;                 /* the round robin's at its start; else at joining */
    int withdrawn, division, seed;
    int64_t joined;                /* unix ms of the last join (the order joined) */
    int once;                      /* a recurring event: not joined again in the next edition */
} store_tour_player;

/* A game of a tournament: its place in the list (seq), its board, and what
 * the games table says of it now (read only). */
typedef struct store_tour_game {
    int seq;                       /* 0.. in the order made (round robin: tour_rr_games') */
    char game[STORE_ID_LEN];
    char white[STORE_NAME_LEN], black[STORE_NAME_LEN];
    int division;
    char winner[8], end[12];       /* read: as the games table has them ("" running) */
    int plies;                     /* read: moves played */
} store_tour_game;

typedef int (*store_tour_fn)(void *ctx, const store_tour *t);
typedef int (*store_tour_player_fn)(void *ctx, const store_tour_player *p);
typedef int (*store_tour_game_fn)(void *ctx, const store_tour_game *g);

typedef struct store store;
typedef struct store_ops store_ops;
typedef int (*store_seek_fn)(void *ctx, const store_seek *s);
typedef int (*store_pgame_fn)(void *ctx, const store_player_game *g);

/* Called once with a game's row, before its moves (return nonzero to stop
 * with an error). */
typedef int (*store_row_fn)(void *ctx, const store_game *g);
/* Called for each move in order (return nonzero to stop with an error). */
typedef int (*store_move_fn)(void *ctx, int ply, const store_move *m);
typedef void (*store_id_fn)(void *ctx, const char *id);
/* Chat (store_ops.add_chat): one line of a game's room, oldest first. */
typedef int (*store_chat_fn)(void *ctx, const char *name, const char *text, int64_t ms);
typedef int (*store_name_fn)(void *ctx, const char *name);
/* Chat rooms and an account's chat flags (store_ops.get_chat_flags). */
enum { STORE_ROOM_PLAYERS = 0, STORE_ROOM_SPECTATORS = 1 };
enum { STORE_CHAT_OFF_RATED = 1, STORE_CHAT_MUTED = 2 };

/* Moderation (docs/server-api.md "Closing an account, reports, moderation"). */
#define STORE_REPORT_TEXT 1001    /* a report's note: at most 1000 bytes */
typedef struct store_report {
    int64_t id;
    int64_t created;               /* unix s */
    char reporter[STORE_NAME_LEN], reported[STORE_NAME_LEN];
    char game[STORE_ID_LEN];       /* "" none */
    char reason[12];               /* "cheating", "abuse", "other" */
    char text[STORE_REPORT_TEXT];
} store_report;
typedef int (*store_report_fn)(void *ctx, const store_report *r);
/* One action of the operator's (tavoliere admin): kept in the audit log. */
typedef struct store_audit {
    int64_t id;                    /* grows with each entry */
    int64_t created;               /* unix s */
    char op[40];                   /* the operator (a Unix user name) */
    char action[16];               /* "mute", "unmute", "ban", "unban" */
    char target[STORE_NAME_LEN];
    char note[128];
} store_audit;
typedef int (*store_audit_fn)(void *ctx, const store_audit *a);
/* One chat line an account wrote (the export). */
typedef int (*store_chat_by_fn)(void *ctx, const char *game, int room, const char *text,
                                int64_t ms);

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
    /* The ids of every unfinished game whose computer seat is to act, or
     * whose clock runs (their flags fall on the server's own timer). */
    int (*each_unfinished)(store *st, store_id_fn fn, void *ctx, char *err, size_t errlen);

    /* Accounts, sessions, seeks and ratings (SPEC "Accounts, the lobby,
     * clocks and ratings").  Reads answer 1 found, 0 not, -1 error. */
    /* The winner ("white", "black", "draw") and how it ended, once over. */
    int (*set_end)(store *st, const char *id, const char *winner, const char *end, char *err,
                   size_t errlen);
    int (*create_account)(store *st, const store_account *a, char *err, size_t errlen);
    int (*get_account)(store *st, const char *name, store_account *out, char *err, size_t errlen);
    int (*set_password)(store *st, const char *name, const char *pwhash, char *err, size_t errlen);
    /* The account's language ("it", "en"; SPEC "Languages"). */
    int (*set_lang)(store *st, const char *name, const char *lang, char *err, size_t errlen);
    /* A session: the hash of its token, the account, when it expires, the
     * browser's User-Agent (at most STORE_UA_LEN - 1 bytes; its last use is
     * `created`). */
    int (*create_session)(store *st, const unsigned char hash[STORE_HASH_LEN], const char *name,
                          int64_t created, int64_t expires, const char *ua, char *err,
                          size_t errlen);
    /* The account of an unexpired session (its name as chosen), and its
     * last use (unix seconds) when last_used is not NULL. */
    int (*get_session)(store *st, const unsigned char hash[STORE_HASH_LEN], int64_t now,
                       char name[STORE_NAME_LEN], int64_t *last_used, char *err,
                       size_t errlen);
    /* A session was used at `now` (its last use; none changed is no error). */
    int (*touch_session)(store *st, const unsigned char hash[STORE_HASH_LEN], int64_t now,
                         char *err, size_t errlen);
    int (*delete_session)(store *st, const unsigned char hash[STORE_HASH_LEN], char *err,
                          size_t errlen);
    /* An account's unexpired sessions, newest first: fn(ctx, hash, created,
     * expires, user agent, last use); fn answering nonzero stops. */
    int (*each_session)(store *st, const char *name, int64_t now, store_session_fn fn, void *ctx,
                        char *err, size_t errlen);
    int (*create_seek)(store *st, const store_seek *s, char *err, size_t errlen);
    /* A seek is taken by a game, or withdrawn (game ""): once; -1 when it
     * is unknown or gone already. */
    int (*close_seek)(store *st, const char *id, const char *game, char *err, size_t errlen);
    /* A seek's state: 0 open, 1 taken, 2 withdrawn; -1 unknown (or an error). */
    int (*seek_state)(store *st, const char *id);
    /* The open seeks, oldest first. */
    int (*each_seek)(store *st, store_seek_fn fn, void *ctx, char *err, size_t errlen);
    int (*get_rating)(store *st, const char *name, const char *game, store_rating *out, char *err,
                      size_t errlen);
    int (*set_rating)(store *st, const char *name, const char *game, const store_rating *r,
                      char *err, size_t errlen);
    /* Every rating of a player: fn(ctx, game, rating) (return nonzero to stop). */
    int (*each_rating)(store *st, const char *name,
                       int (*fn)(void *ctx, const char *game, const store_rating *r), void *ctx,
                       char *err, size_t errlen);
    /* The best ratings in a game, at most `limit`: fn(ctx, name, rating). */
    int (*leaderboard)(store *st, const char *game, int limit,
                       int (*fn)(void *ctx, const char *name, const store_rating *r), void *ctx,
                       char *err, size_t errlen);
    /* The ids of a player's unfinished games, newest first. */
    int (*player_unfinished)(store *st, const char *name, int limit, store_id_fn fn, void *ctx,
                             char *err, size_t errlen);
    /* A player's games, newest first, at most `limit`. */
    int (*player_games)(store *st, const char *name, int limit, store_pgame_fn fn, void *ctx,
                        char *err, size_t errlen);
    /* Each player's rating after a rated game (the rating history). */
    int (*set_game_ratings)(store *st, const char *id, const double before[2],
                            const double after[2], char *err, size_t errlen);
    /* The side offering a draw and the side asking to take a move back (-1: none). */
    int (*set_offers)(store *st, const char *id, int draw, int takeback, char *err,
                      size_t errlen);

    /* Many instances on one database (SPEC-free: the operator's choice).
     * A backend that serves only one instance (SQLite) leaves these NULL;
     * the wrappers below then answer as a lone instance would. */
    /* A message joining the open batch: every listener on every instance
     * receives it once the batch commits, never if it rolls back. */
    int (*notify)(store *st, const char *channel, const char *payload, char *err, size_t errlen);
    /* This connection receives the messages of these channels from now on. */
    int (*listen)(store *st, const char *const *channels, int n, char *err, size_t errlen);
    /* Wait up to timeout_ms for messages, handing each to fn: the number
     * handed, 0 on time-out, -1 when the connection is lost (messages may
     * have been missed: reopen, listen again and catch up from the tables). */
    int (*wait_notify)(store *st, int timeout_ms,
                       void (*fn)(void *ctx, const char *channel, const char *payload),
                       void *ctx, char *err, size_t errlen);
    /* A claim on `key` (a game whose computer seat or clock one instance
     * looks after): 1 this connection holds it now (until release_claim or
     * until the connection ends: an instance that dies loses its claims at
     * once), 0 another connection holds it, -1 error.  Claiming a key held
     * already by this connection answers 1 and holds it once. */
    int (*try_claim)(store *st, const char *key, char *err, size_t errlen);
    void (*release_claim)(store *st, const char *key);
    /* Round trips to the database and bytes sent and received so far on
     * this connection (the benchmark's figures); NULL where not counted. */
    void (*stats)(const store *st, int64_t *round_trips, int64_t *bytes_out, int64_t *bytes_in);
    /* A game's stamp now (store_game.stamp): 1 found, 0 unknown, -1 error.
     * With many instances a game in memory is read again when its stamp
     * moved (another instance wrote it). */
    int (*game_stamp)(store *st, const char *id, int64_t *stamp, char *err, size_t errlen);
    /* The games each_unfinished lists whose claim (the key prefix + id) no
     * connection holds: the ones an instance may take over. */
    int (*each_unclaimed)(store *st, const char *prefix, store_id_fn fn, void *ctx, char *err,
                          size_t errlen);
    /* Sign-in guesses of a name counted in the database, for many instances
     * (one statement each, outside any batch, atomic across connections);
     * NULL where one instance counts alone (SQLite).  `op` 0: reserve a
     * guess when fewer than `limit` failures (within a window of `window`
     * seconds from the first) plus guesses reserved are counted: 1
     * reserved, 0 at the limit, -1 error (reservations untouched for 120 s
     * are forgotten: an instance that died).  `op` 1: a reserved guess
     * failed, 2: it succeeded (0, or -1). */
    int (*login_guard)(store *st, const char *name, int64_t now, int window, int limit, int op,
                       char *err, size_t errlen);

    /* Bots (SPEC "Bots"): an account becomes a bot for good; its API
     * tokens, each stored as the hash of the token with an id for people.
     * get_token: the account (name as chosen) of a token's hash, and its
     * last use; delete_token: the account's token `id` (none is no error). */
    int (*set_bot)(store *st, const char *name, char *err, size_t errlen);
    int (*create_token)(store *st, const char *id, const unsigned char hash[STORE_HASH_LEN],
                        const char *name, int64_t created, char *err, size_t errlen);
    int (*get_token)(store *st, const unsigned char hash[STORE_HASH_LEN],
                     char name[STORE_NAME_LEN], int64_t *last_used, char *err, size_t errlen);
    int (*touch_token)(store *st, const unsigned char hash[STORE_HASH_LEN], int64_t now,
                       char *err, size_t errlen);
    int (*delete_token)(store *st, const char *name, const char *id, char *err, size_t errlen);
    /* An account's tokens, oldest first. */
    int (*each_token)(store *st, const char *name, store_token_fn fn, void *ctx, char *err,
                      size_t errlen);
    /* E-mail (mail.c; docs/server-api.md "E-mail").  An account's settings:
     * get 1 found, 0 none; put makes or replaces the row. */
    int (*mail_get)(store *st, const char *name, store_mail *out, char *err, size_t errlen);
    int (*mail_put)(store *st, const store_mail *m, char *err, size_t errlen);
    /* The account whose unsubscribe token (which 0) or verification hash
     * (which 1) is `key`: 1 with its name, 0 none. */
    int (*mail_find)(store *st, int which, const char *key, char name[STORE_NAME_LEN], char *err,
                     size_t errlen);
    /* Queue an item unless the account has `max` waiting already or the same
     * (kind, arg) waits: 1 queued, 0 not. */
    int (*mail_add)(store *st, const store_mail_item *it, int max, char *err, size_t errlen);
    /* The accounts with an item due at `now`, at most `limit`. */
    int (*mail_due)(store *st, int64_t now, int limit, store_id_fn fn, void *ctx, char *err,
                    size_t errlen);
    /* An account's waiting items, oldest first (fn answering nonzero stops). */
    int (*mail_items)(store *st, const char *name, store_mail_item_fn fn, void *ctx, char *err,
                      size_t errlen);
    int (*mail_drop)(store *st, int64_t id, char *err, size_t errlen);
    int (*mail_defer)(store *st, int64_t id, int64_t due, int tries, char *err, size_t errlen);
    /* A mail sent to the account at `now` (older entries are forgotten), and
     * how many were sent since `since`. */
    int (*mail_log)(store *st, const char *name, int64_t now, char *err, size_t errlen);
    int (*mail_count)(store *st, const char *name, int64_t since, char *err, size_t errlen);
    /* Tournaments (SPEC "Tournaments").  Writes join the open batch. */
    int (*create_tour)(store *st, const store_tour *t, char *err, size_t errlen);
    /* A tournament moves from status `from` to `to` (with its start and
     * end): 0, STORE_CONFLICT when it is not at `from` (another got there
     * first), -1 error. */
    int (*set_tour)(store *st, const char *id, int from, int to, int64_t starts, int64_t ends,
                    char *err, size_t errlen);
    int (*get_tour)(store *st, const char *id, store_tour *out, char *err, size_t errlen);
    /* unfinished 1: those open or running, by start; 0: all, newest start
     * first; at most `limit`. */
    int (*each_tour)(store *st, int unfinished, int limit, store_tour_fn fn, void *ctx, char *err,
                     size_t errlen);
    /* How many tournaments `creator` made from `since` (unix ms) on (next
     * editions of recurring ones not counted), or -1. */
    int (*count_tours)(store *st, const char *creator, int64_t since, char *err, size_t errlen);
    /* A player joins (or joins again, or changes: withdrawn, division, seed). */
    int (*set_tour_player)(store *st, const char *id, const store_tour_player *p, char *err,
                           size_t errlen);
    /* The players in the order they (last) joined. */
    int (*each_tour_player)(store *st, const char *id, store_tour_player_fn fn, void *ctx,
                            char *err, size_t errlen);
    /* A game joins the tournament's list at g->seq: STORE_CONFLICT when that
     * place is taken (a pairing made twice). */
    int (*add_tour_game)(store *st, const char *id, const store_tour_game *g, char *err,
                         size_t errlen);
    /* The games by seq, with what the games table says of each now. */
    int (*each_tour_game)(store *st, const char *id, store_tour_game_fn fn, void *ctx, char *err,
                          size_t errlen);
    /* Chat in a game and the block list (docs/server-api.md "Chat"); every
     * backend implements them.  A line of game `game`'s room (STORE_ROOM_*)
     * written by account `name` at unix ms `ms`; never part of a record. */
    int (*add_chat)(store *st, const char *game, int room, const char *name, const char *text,
                    int64_t ms, char *err, size_t errlen);
    /* The last `limit` lines of a room, oldest first: fn(ctx, name, text, ms). */
    int (*each_chat)(store *st, const char *game, int room, int limit, store_chat_fn fn,
                     void *ctx, char *err, size_t errlen);
    /* `owner` blocks `name` (on 1, at `created` unix seconds; twice is no
     * error) or unblocks it (on 0; none is no error). */
    int (*set_block)(store *st, const char *owner, const char *name, int on, int64_t created,
                     char *err, size_t errlen);
    /* The names `owner` blocks, in the order blocked: fn(ctx, name). */
    int (*each_block)(store *st, const char *owner, store_name_fn fn, void *ctx, char *err,
                      size_t errlen);
    /* An account's chat flags (STORE_CHAT_*; 0 when never set). */
    int (*get_chat_flags)(store *st, const char *name, int *flags, char *err, size_t errlen);
    /* Set (on 1) or clear one flag bit of an account. */
    int (*set_chat_flag)(store *st, const char *name, int bit, int on, char *err, size_t errlen);

    /* Moderation (schema 17); every backend implements them.  An account is
     * closed at `at` (unix s; for good: its sessions end, get_session no
     * longer finds them), or banned (on 1; its sessions end) or unbanned. */
    int (*close_account)(store *st, const char *name, int64_t at, char *err, size_t errlen);
    int (*set_banned)(store *st, const char *name, int on, char *err, size_t errlen);
    /* A report (r->id and r->created as given are ignored / kept). */
    int (*add_report)(store *st, const store_report *r, char *err, size_t errlen);
    /* Reports, newest first, at most `limit`; by `reporter` only unless
     * it is "" (all). */
    int (*each_report)(store *st, const char *reporter, int limit, store_report_fn fn, void *ctx,
                       char *err, size_t errlen);
    /* How many reports `reporter` filed from `since` (unix s) on, of
     * `reported` only unless it is "" (any): the count, or -1. */
    int (*count_reports)(store *st, const char *reporter, const char *reported, int64_t since,
                         char *err, size_t errlen);
    /* An entry of the audit log (a->id ignored). */
    int (*add_audit)(store *st, const store_audit *a, char *err, size_t errlen);
    /* Entries with an id above `after`, oldest first, at most `limit`. */
    int (*each_audit)(store *st, int64_t after, int limit, store_audit_fn fn, void *ctx,
                      char *err, size_t errlen);
    /* The last entry's id (0 none), or -1. */
    int64_t (*audit_last)(store *st, char *err, size_t errlen);
    /* The chat lines `name` wrote, oldest first, at most `limit`. */
    int (*each_chat_by)(store *st, const char *name, int limit, store_chat_by_fn fn, void *ctx,
                        char *err, size_t errlen);
    /* Retention: chat lines and reports older than `before` (unix s) go;
     * the number of rows deleted, or -1. */
    int64_t (*prune)(store *st, int64_t before, char *err, size_t errlen);
    /* The tournament game `game` belongs to: 1 with its id in `tour`, 0 when
     * none (tour ""), -1 with err. */
    int (*game_tour)(store *st, const char *game, char tour[STORE_ID_LEN], char *err,
                     size_t errlen);
    /* Many instances: the stamp game `id`'s row had just before the open
     * batch's last add_move wrote it (read under the row's lock, so no
     * other writer came between): what a copy must hold for that move to be
     * all that changed.  1 known, 0 not (the last write was not a move of
     * `id`); NULL where not kept (one instance). */
    int (*move_base)(store *st, const char *id, int64_t *before);
};

/* A write refused because another writer got there first (a ply already
 * played, a seek already taken, a rematch already made): only that write is
 * undone, the batch still commits, and the caller reads the game again. */
#define STORE_CONFLICT (-2)

/* A User-Agent as stored: printable ASCII (anything else '?'), at most
 * STORE_UA_LEN - 1 bytes. */
void store_cut_ua(const char *ua, char out[STORE_UA_LEN]);

/* Every backend's store begins with this. */
struct store {
    const store_ops *ops;
};

extern const store_ops store_sqlite_ops;
extern const store_ops store_pg_ops;

/* The backend a --db argument names: postgresql://... or postgres://...
 * (a connection URI: PostgreSQL), anything else a file path (SQLite). */
const store_ops *store_backend(const char *db);

/* The --db argument as it may be shown (logs, the start line): a URI's
 * password, in its user part or a password= parameter, masked as ***. */
void store_db_label(const char *db, char *out, size_t outlen);

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
/* The account operations go through st->ops directly (store.c keeps the
 * game ones' wrappers for the code written before them). */
int store_each_unfinished(store *st, store_id_fn fn, void *ctx, char *err, size_t errlen);
/* 1 when the backend lets many instances share the database (it listens). */
int store_shared(const store *st);
/* notify: nothing to do (0) for a lone instance's backend. */
int store_notify(store *st, const char *channel, const char *payload, char *err, size_t errlen);
/* try_claim: a lone instance holds every claim (1). */
int store_try_claim(store *st, const char *key, char *err, size_t errlen);
void store_release_claim(store *st, const char *key);

#endif
