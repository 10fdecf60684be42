/*
 * internal.h — what the core's files share and nobody else sees: the jobs
 * of the search workers and the slow thread (record checks, password
 * hashes), and a few helpers.
 */
#ifndef SERVER_CORE_INTERNAL_H
#define SERVER_CORE_INTERNAL_H

#include "server/core/core.h"

enum { JOB_MOVE, JOB_HINT, JOB_ANALYSIS, JOB_RECORD, JOB_SIGNUP, JOB_LOGIN, JOB_PASSWORD };

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

#endif
