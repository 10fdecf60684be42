/*
 * internal.h — what the core's files share and nobody else sees: the jobs
 * of the search workers and the slow thread (record checks, password
 * hashes), and a few helpers.
 */
#ifndef SERVER_CORE_INTERNAL_H
#define SERVER_CORE_INTERNAL_H

#include "server/core/core.h"

enum { JOB_MOVE, JOB_HINT, JOB_ANALYSIS, JOB_RECORD, JOB_SIGNUP, JOB_LOGIN, JOB_PASSWORD,
       JOB_CLOSE };

/* Search priorities (tav_budget.priority): someone waits for the first two. */
enum { PRIO_CPU_ONLY = 0, PRIO_ANALYSIS = 1, PRIO_HINT = 2, PRIO_SEAT = 3 };

/* One search (or record check) under way.  Owned by the loop; a worker only
 * fills `answer` (the record thread `made`/`err`) and appends the job to
 * the done-queue. */
struct job {
    int kind;
    game *g;
    int ply;             /* the game's ply when submitted: a stale answer is dropped */
    int stale;           /* cancelled: its answer is ignored */
    uint64_t handle;
    void *waiter;        /* JOB_HINT, JOB_RECORD: the edge's request waiting for it */
    core *server;
    tav_answer answer;
    job *next;           /* done-queue */
    long budget_ms;
    job *wprev, *wnext;  /* JOB_MOVE: on the watchdog's list while running */
    peer *by;            /* JOB_HINT, JOB_RECORD: the address it counts against */
    int cpu;             /* JOB_MOVE of a computer-only game (counted in cpu_running) */
    /* JOB_RECORD: checked on the record thread */
    char *text;
    size_t len;
    char player[2][STORE_PLAYER_LEN];
    tav_session *made;   /* the session it makes, or NULL with err */
    char err[320];
    /* JOB_SIGNUP, JOB_LOGIN, JOB_PASSWORD: hashed or checked on the same thread */
    char name[STORE_NAME_LEN];
    char *secret;        /* the password (wiped and freed after) */
    char *secret2;       /* JOB_PASSWORD: the new one */
    char pwhash[STORE_PWHASH_LEN];   /* in: the stored hash ("": none); out: the new one */
    int ok;              /* the password matched; the hash was made */
    int banned;          /* JOB_LOGIN: the account is banned (403 once the password matched) */
    char token[48];      /* the session made for it (wiped after) */
    char ua[STORE_UA_LEN];   /* the browser's User-Agent, kept with the session */
    int reserved;        /* counted in its name's pending guesses */
    int guarded;         /* ... and in the database's (many instances) */
    int guarded_addr;    /* its address's failures (sign-in) or sign-ups, counted there too */
    int round;           /* its place in the slow thread's round robin (core_slow_submit) */
    /* Slow-thread jobs of other files: the work on that thread, and its end
     * on the loop (which frees the job).  NULL: a record check. */
    void (*work)(job *j);
    void (*done)(core *C, job *j);
    /* Any other job: its answer on the loop, in the room that asked (the
     * loop frees the job after; not called once the core stops). */
    void (*answered)(core *C, job *j);
};

/* common_passwords.c: passwords too common to accept, lower case, NULL last. */
extern const char *const core_common_passwords[];

/* The core's rooms, floor by floor from the ground up: each calls only
 * those below it (tests/layers.sh, ARCHITECTURE.md "The server core"). */

/* ids.c: random ids and tokens, a token's hash (seat and session tokens),
 * a seek's clock well formed (a real-time one, days a move, or none). */
void core_random_b64(char *out, size_t nbytes);
void core_token_hash(const char *token, unsigned char hash[STORE_HASH_LEN]);
int seek_clock_ok(const store_seek *s);

/* jobs.c: a search on the workers (its answer handed to the room that asked on the
 * loop: `answered`), cancelled; finished jobs queued from any thread, drained on the
 * loop. */
job *jobs_submit(core *C, int kind, game *g, const tav_session *s, const char *player, tav_budget *b,
                 int priority, void (*answered)(core *C, job *j));
void jobs_cancel(core *C, job *j);
void jobs_done(void *ctx, const tav_answer *a);
void jobs_done_push(core *C, job *j);
void jobs_drain(core *C);

/* games.c: the table, a game's state, its claim, its offers in the store,
 * and what a room says after a change. */
typedef struct offer_keep {   /* what offers_store writes, kept to put back when it fails */
    int draw, takeback, rematch, absent, spent[3];
} offer_keep;
game *games_find(core *C, const char *id);
void games_insert(core *C, game *g);
void games_sweep(core *C);   /* games nobody uses leave memory */
void game_free(core *C, game *g);
void game_changed(game *g);
int game_store_status(const game *g);
int game_computer_to_act(const game *g);
int game_claim(core *C, game *g);
void game_release_claim(core *C, game *g);
void game_tell(core *C, game *g);
/* A game between accounts began or ended: its bot sides' event sockets are
 * told, here and on the other instances. */
void game_tell_bots(core *C, game *g, int finished);
void game_kick(core *C, game *g);
void game_after_change(core *C, game *g);   /* game_tell, then game_kick */
int offers_store(core *C, game *g, const offer_keep *k);
offer_keep offers_keep(const game *g);
void offers_unpack(game *g, int draw_col, int takeback_col);
int offers_write(core *C, game *g, int draw, int takeback);
int offers_counted(core *C, const char *account);

/* clocks.c: time left, a flag fallen, the list of games whose clocks run,
 * who is present; the test clock. */
int clock_on(const game *g);
void clock_rebuild(game *g);
int clock_flag_fallen(const game *g, int64_t now_ms, int *noshow);
void clock_list(core *C, game *g);
void clock_test_read(core *C);

/* results.c: a game between accounts ended: its winner, how, and the
 * ratings, written with it. */
void results_game_ended(core *C, game *g);
/* analysis.c: a game that ends (its results, its clock off the list). */
void analysis_finished(core *C, game *g);

/* load.c: a game read from the store, again, or taken over. */
int game_refresh(core *C, game *g, int must);
void load_batch_failed(core *C, game *g, int created);
void load_unfinished(void *ctx, const char *id);

/* flags.c: the server ends a game ("abort", "time", "agreement",
 * "abandon"); a flag fell; the tick's look at every running clock. */
int flags_end(core *C, game *g, const char *end, int winner);
int flags_fall(core *C, game *g, int side, int noshow);
void flags_tick(core *C);

/* moves.c: a move played and stored. */
int moves_commit(core *C, game *g, const char *text, char *err, size_t errlen);
int moves_record(core *C, game *g, int ply, char *err, size_t errlen);

/* computer.c: a computer seat to act thinks; overrunning searches. */
void computer_kick(core *C, game *g);
void computer_watchdog(core *C);

/* create.c: new games */
core_status create_allowed(core *C, peer *by, const char *const player[2], char *err,
                           size_t errlen);
extern const char create_players_msg[];
int create_computer_accounts(core *C, char *err, size_t errlen);
core_status create_new_game(core *C, tav_session *s, const char *const player[2], peer *by, int local,
                        const game *seats_of, core_made *m);

/* records.c: the slow thread (records checked, passwords hashed), shared
 * fairly between addresses. */
void *records_thread(void *arg);
void core_slow_submit(core *C, job *j);

/* lobby.c, for pool.c: whether a seek is an entry of the quick-pairing pool
 * (its id begins with '~', outside the ids' alphabet); a seek or a pool
 * entry made; the seeks read from the store if not yet; two pool entries
 * made one game (CORE_CREATED with its id). */
static inline int lobby_is_pool(const store_seek *s) { return s->id[0] == '~'; }
core_status lobby_make(core *C, const char *account, const store_seek *want, int pool,
                       char id[STORE_ID_LEN], char *err, size_t errlen);
void lobby_load(core *C);
void lobby_pool_drop(core *C, const char *account);   /* its pool entry withdrawn */
core_status lobby_pair(core *C, lobby_seek *a, lobby_seek *b, char game_id[STORE_ID_LEN],
                       char *err, size_t errlen);

#endif
