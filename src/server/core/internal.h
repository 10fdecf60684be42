/*
 * internal.h — what the core's files share and nobody else sees: the jobs
 * of the search workers and the slow thread (record checks, password
 * hashes), and a few helpers.
 */
#ifndef SERVER_CORE_INTERNAL_H
#define SERVER_CORE_INTERNAL_H

#include "server/core/core.h"

/* ---- the core's own state (the edge sees core and game as opaque) ---- */


/* A game in memory: the core's own (the edge asks through core.h's accessors). */
struct game {
    char id[STORE_ID_LEN];
    tav_session *s;
    char player[2][STORE_PLAYER_LEN];   /* "human", "random", "ai:level=3" */
    int human[2];
    unsigned char seat_hash[2][STORE_HASH_LEN];
    job *job;            /* the computer seat's search now, or NULL */
    int64_t last_ms;     /* wall clock (unix ms) of the last move, for move times */
    analysis *an;
    unsigned long version;   /* bumped by every change of the session */
    int hints;           /* hint searches under way */
    int jobs_out;        /* searches submitted and not yet drained (they point at it) */
    int pins;            /* the edge holds it (sockets, messages waiting) */
    int unsaved;         /* writes of it not yet committed (it stays in memory) */
    long wbatch;         /* the last batch holding a write of it (core_unsettled) */
    int dead;            /* its creation failed to commit: it leaves memory */
    int cpu_only;        /* both seats are computers */
    int local;           /* two people at one screen: engine help allowed (SPEC "Fair play") */
    char rematch[STORE_ID_LEN];   /* the game that followed this one, "" for none */
    char account[2][STORE_NAME_LEN];   /* each side's account ("" none): the session is the seat */
    int rated;
    char end[12];        /* how it ended beyond the rules: "abort", "time", "agreement",
                            "abandon"; else "" */
    int end_winner;      /* "time", "abandon": the side that won or TAV_DRAW ("agreement": TAV_DRAW) */
    int draw_offer;      /* the side offering a draw, -1 none */
    int takeback_offer;  /* the side asking to take its last move back, -1 none */
    int rematch_offer;   /* a finished game between two accounts: the side offering a rematch */
    int spent[3];        /* per kind (draw, takeback, rematch): bit 1 << side set once that
                            side's offer was withdrawn or declined; draw and take-back clear
                            at the next move (one offer per side per move) */
    int absent;          /* the side whose absence ended it (abort: no first move; abandon), -1 */
    double rating_before[2], rating_after[2];   /* rated and over: each player's rating before
                                                   and after it (0: not known yet) */
    int64_t away_ms[2];  /* games' ms since which the side's account has had no socket open
                            (0: one is open, or not followed: a claim needs it) */
    int claim_told;      /* the viewers were told the game became claimable */
    int64_t seen_real_ms[2];   /* many instances: unix ms another instance last said the
                                  side's account has a socket open there (0: never) */
    /* Clocks (SPEC): real time (initial, increment) or days a move. */
    int64_t clk_initial_ms, clk_inc_ms, clk_days;
    int64_t started_ms;  /* when the game began */
    int64_t left_ms[2];  /* each side's time left at the start of the current turn */
    peer *owner;         /* cpu_only: the address whose cpu_games count it holds */
    int cwaiting;        /* cpu_only: on the list of games waiting to search */
    int64_t touched;     /* unix seconds of the last request or change */
    void *edge;          /* the edge's own data for this game (events.freeing frees it) */
    game *hnext;         /* hash chain */
    game *anext;         /* analysis queue */
    game *cnext;         /* computer-only turn queue */
    game *knext;         /* the games whose clocks run */
    int klisted;
    /* Many instances (shared.c): this instance holds the game's claim (it
     * thinks for its computer seat, judges its clock); when it last tried. */
    int claimed;
    int64_t claim_tried;
    /* ... and whom the players ask (owner.c): when they last asked here,
     * when this one last said it wants the claim, until when it leaves a
     * claim it gave up alone, when another last wanted it, whether it gives
     * it up once idle. */
    int64_t asked_ms, want_sent, yielded_until, wanted_at;
    int yield_pending;
    int64_t stamp;       /* the store's stamp of what this copy holds (0: not kept) */
    int bot[2];          /* each side's account is a bot account (SPEC "Bots") */
    char tour[STORE_ID_LEN];   /* the tournament it is a game of ("" none): read once at its
                                  load (load.c), set when a tournament makes it */
};

/* A seek in memory (lobby.c). */
typedef struct lobby_seek {
    store_seek s;
    int state;           /* 0 open, 1 taken, 2 withdrawn (gone once on disk) */
    int64_t present_ms;  /* games' time its owner was last seen with a lobby socket (any instance) */
    int64_t told_ms;     /* ... when this instance last told the others so */
    int64_t left_ms;     /* games' time its owner's last lobby socket here closed (0: none
                            since it was seen) */
    int64_t elsewhere_ms;   /* ... another instance last said its owner is there (0: never) */
    int64_t remote_ms;   /* ... when another instance last said its owner is there (pool.c) */
    /* Its owner's rating in the seek's game as the lobby shows it, read from
     * the store once, and again after a rated game ended (ratings_epoch). */
    double rating;
    int provisional;
    long rating_epoch;   /* the core's ratings_epoch when read; 0: not read */
    struct lobby_seek *next;
} lobby_seek;

/* One name's sign-ins: failed ones and successful ones (rings of their
 * times), and guesses being hashed now (each counted as a failure until
 * its hash says otherwise). */
typedef struct login_fails {
    char key[STORE_NAME_LEN];       /* the name in lower case, "" free */
    int64_t t[CORE_LOGIN_FAILS];
    int n;
    int64_t ok[CORE_LOGINS_PER_ACCOUNT];
    int nok;
    int pending;
} login_fails;

/* One account's offers in the current window (the offer rate limit). */
typedef struct offer_count {
    char key[STORE_NAME_LEN];   /* the name in lower case, "" free */
    int64_t since;              /* unix ms the window began */
    int n;
} offer_count;

typedef struct core_note core_note;
/* A message heard from another instance, after its name (shared.c): room
 * for a game's delta (writer.c: at most CORE_DELTA_MOVES moves, played by
 * load.c) with the game's id. */
#define CORE_NOTE_LEN 512
#define CORE_DELTA_MOVES 4

struct core {
    core_config cf;
    core_events ev;
    /* The room that thinks for a computer seat to act (life.c names
     * computer.c's): the table asks it through game_kick. */
    void (*kick)(core *C, game *g);
    store *st;
    tav_service *svc;
    game *games[CORE_HASH_SIZE];
    long ngames;
    pthread_mutex_t qlock;
    job *done_head, *done_tail;
    game *an_head, *an_tail;   /* finished games waiting for analysis */
    job *an_job;               /* the analysis search running now */
    job *running;              /* computer moves being searched (the watchdog's list) */
    int stopping;
    peer peers[CORE_PEER_SLOTS];
    game *cwait_head, *cwait_tail;    /* computer-only games waiting to search */
    int cpu_running;     /* computer-only searches submitted */
    int cpu_cap;         /* ... at most this many at once */
    int records_out;     /* record uploads being checked */
    pthread_t rthread;   /* the record thread: checks uploaded records */
    int rthread_started;
    pthread_mutex_t rlock;
    pthread_cond_t rcond;
    job *rq_head, *rq_tail;
    const peer *rrunning_by;   /* the address of the job the slow thread runs (rlock) */
    int rstop;
    int64_t last_sweep;
    long moves_played;
    login_fails fails[CORE_FAIL_SLOTS];
    offer_count offers[CORE_OFFER_SLOTS];
    unsigned char fail_key[16];   /* the failure table's hash key (random, made at first use) */
    int fail_keyed;
    int pw_out;          /* password jobs queued or running */
    lobby_seek *seeks;   /* the lobby, oldest first */
    int seeks_loaded;    /* read from the store (on the lobby's first use) */
    game *clocked;       /* games whose clocks run (the server's timer checks them) */
    int64_t time_offset_ms;   /* --test-clock's offset */
    char clock_line[80]; /* the test clock file's line in force (--test-clock) */
    int64_t seen_told_ms;   /* unix ms this instance last said who it sees (many instances) */
    core_commit_stats cstats;   /* commits so far (/metrics) */
    int64_t wtrips, wout, win;  /* the writer connection's figures after its last batch */
    int nseeks;
    char pending_names[CORE_PW_QUEUE][STORE_NAME_LEN];   /* sign-ups under way (lower case) */
    /* The writer (writer.c): the open batch, the one being committed, and
     * the writer thread with its own connection. */
    store *wst;
    wbatch *wopen;       /* gathering writes (loop) */
    wbatch *wflight;     /* handed to the writer (loop) */
    long wlast;          /* number of the last batch opened */
    long wsettled;       /* number of the last batch settled (committed or failed) */
    pthread_t wthread;
    int wstarted;
    pthread_mutex_t wlock;
    pthread_cond_t wcond;
    wbatch *wtodo;       /* (wlock) the batch the writer takes next */
    int wstop;           /* (wlock) */
    int wfail_next;      /* (wlock) tests: fail the next commit */
    wbatch *wdone_head, *wdone_tail;   /* (qlock) results for the loop */
    /* Many instances (shared.c): set when the store is shared (PostgreSQL).
     * The listener thread, with a connection of its own, queues what the
     * other instances tell (qlock); the loop reads the games again. */
    int shared;
    char instance[16];   /* this instance's random name, in its messages */
    pthread_t lthread;
    int lstarted;
    int lstop;           /* (qlock) */
    char *ldb;           /* the database, for the listener's connection */
    core_note *notes_head, *notes_tail;   /* (qlock) */
    int catch_up;        /* (qlock) messages may have been missed: read everything again */
    int64_t last_scan;   /* unix ms of the last look for unclaimed games */
    long notes_seen, refreshed;   /* counters (the log at exit, the benchmark) */
    long deltas;                  /* ... moves heard and played here, no read */
    long yields_pending;          /* claims to give up once their games are idle (owner.c) */
    int get_failed;      /* the last core_get found nothing because the store failed */
    int64_t catch_up_at; /* (loop) unix ms to read everything again (a read failed), 0 none */
    struct mailer *mail; /* e-mail (mail.c): NULL when the server sends none */
    /* Tournaments (tournaments.c): its own state, and the batch of the last
     * game between accounts that ended (results.c sets it; the tournaments
     * look again once it is committed). */
    struct core_tours *tours;
    long tours_nudge;
    void *chat;          /* chat.c's own: each account's recent lines (the rate limit) */
    /* Moderation (moderation.c): the audit log's last entry acted on
     * (-1: not read yet), when it was last read and the last pruning. */
    int64_t audit_seen;
    /* Bumped when a rated game's end is committed (results.c): the lobby
     * reads its seeks' ratings again (lobby.c); starts at 1. */
    long ratings_epoch;
    int64_t audit_polled, pruned_at;
};


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
void game_drop_owner(game *g);
void game_changed(game *g);
int game_store_status(const game *g);
int game_computer_to_act(const game *g);
int game_claim(core *C, game *g);
void game_release_claim(core *C, game *g);
/* owner.c: "ID want" heard (give the claim up once idle), "ID yield"
 * heard (claim it), gave-ups waiting for their games to be idle. */
#define OWNER_YIELD_MS 5000   /* a claim given up is left alone this long */
void owner_wanted(core *C, const char *id);
void owner_yielded(core *C, const char *id);
void owner_tick(core *C);
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
