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
};

/* common_passwords.c: passwords too common to accept, lower case, NULL last. */
extern const char *const core_common_passwords[];

/* Random bytes as unpadded base64url (ids, tokens). */
void core_random_b64(char *out, size_t nbytes);
/* A token's hash, as stored (seat tokens, session tokens). */
void core_token_hash(const char *token, unsigned char hash[STORE_HASH_LEN]);
/* Queue a job for the slow thread (records, passwords). */
void core_slow_submit(core *C, job *j);
/* results.c: a game between accounts ended: its winner, how, and the
 * ratings, written with it. */
void results_game_ended(core *C, game *g);
/* lobby.c: a valid clock (a real-time one, days a move, or none: 0 0 0). */
int lobby_clock_ok(const store_seek *s);
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

/* ---- shared between the core's files (games.c and its rooms) ---- */

/* What offers_store writes, kept to put back when it fails. */
typedef struct offer_keep {
    int draw, takeback, rematch, absent, spent[3];
} offer_keep;

/* games.c: the table of games in memory, loading, claims between instances */
void game_changed(game *g);
int game_claim(core *C, game *g);
int game_refresh(core *C, game *g, int must);
int game_store_status(const game *g);
int game_computer_to_act(const game *g);
void game_tell(core *C, game *g);
void game_free(core *C, game *g);
void game_release_claim(core *C, game *g);
void games_insert(core *C, game *g);
game *games_find(core *C, const char *id);
/* jobs.c: searches on the workers, the watchdog, the loop's tick */
void jobs_batch_failed(core *C, game *g, int created);
void jobs_kick(core *C, game *g);
void jobs_done(void *ctx, const tav_answer *a);
void jobs_cancel(core *C, job *j);
job *jobs_submit(core *C, int kind, game *g, const tav_session *s, const char *player, tav_budget *b,
                 int priority);
void jobs_sweep(core *C);
void jobs_test_clock_read(core *C);
void jobs_done_push(core *C, job *j);
/* offers.c: offers between two people */
int offers_store(core *C, game *g, const offer_keep *k);
offer_keep offers_keep(const game *g);
void offers_unpack(game *g, int draw_col, int takeback_col);
int offers_write(core *C, game *g, int draw, int takeback);
int offers_counted(core *C, const char *account);
/* clocks.c: clocks, flags and claims */
void clock_list(core *C, game *g);
void clock_tick(core *C);
int clock_flag(core *C, game *g, int side, int noshow);
int clock_on(const game *g);
int clock_flag_fallen(const game *g, int64_t now_ms, int *noshow);
int clock_end_by_server(core *C, game *g, const char *end, int winner);
void clock_rebuild(game *g);
/* moves.c: a move committed, what follows a change */
int moves_commit(core *C, game *g, const char *text, char *err, size_t errlen);
int moves_record(core *C, game *g, int ply, char *err, size_t errlen);
void moves_after_change(core *C, game *g);
/* analysis.c: a game that ends, analyses */
void analysis_finished(core *C, game *g);
void analysis_answer(core *C, job *j);
/* records.c: the slow thread, records checked on it */
void records_made(core *C, job *j);
void *records_thread(void *arg);
/* create.c: new games */
core_status create_allowed(core *C, peer *by, const char *const player[2], char *err,
                           size_t errlen);
extern const char create_players_msg[];
int create_computer_accounts(core *C, char *err, size_t errlen);
core_status create_game(core *C, tav_session *s, const char *const player[2], peer *by, int local,
                        const game *seats_of, core_made *m);

#endif
