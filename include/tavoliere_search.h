/*
 * tavoliere_search.h — the search service: one front door to every computer
 * player.
 *
 * Players are entries of a table ("random", "uct", "ai"), each with its own
 * init, search, stop and free.  Levels 1..10 map to budgets through one
 * table.  Searches run on a shared pool of worker threads with a global
 * thread budget (no thread is started per search); search memory is pooled
 * per worker, not held per game.  A search has an absolute deadline and can
 * be cancelled from any thread; it then ends within a few milliseconds.
 *
 * A search is asked for a game (its operations table) and a state of it,
 * nothing else: the service knows no session.  Two ways in:
 *   tav_service_run_state     blocks the calling thread until the move is
 *                             found (bench, selftest, record analysis);
 *   tav_service_submit_state  returns at once; a callback on a worker
 *                             thread gets the answer.
 * A game being played in a session is searched through the session's
 * doors, tav_service_run and tav_service_submit (tavoliere_session.h),
 * which hand the service the position as the side to act sees it.
 *
 * Calls that can fail return a tav_status (tavoliere.h).
 */
#ifndef TAVOLIERE_SEARCH_H
#define TAVOLIERE_SEARCH_H

#include <stddef.h>
#include <stdint.h>

#include "tavoliere.h"

typedef struct tav_service tav_service;

/* What one search may spend.  Zero fields mean "no limit of this kind";
 * when no limit at all is given, a small fixed search runs. */
typedef struct tav_budget {
    long movetime_ms;   /* wall-clock budget from the start of the search */
    double deadline;    /* absolute, tav_now() seconds; 0 = none (the earlier of the two wins) */
    uint64_t nodes;     /* playouts (tree) or nodes (alpha-beta) */
    int depth;          /* alpha-beta depth */
    int level;          /* 1 (weakest) .. 10 (strongest), through the level table; 0 = none */
    int threads;        /* workers this search may use (capped by the pool) */
    uint64_t seed;      /* random seed: the same seed, budget and position give the same move
                           with one thread and a node budget */
    size_t memory;      /* search memory this search may use (0 = all of the worker's) */
    uint64_t keep;      /* 0: start from empty memory (deterministic).  Else a key naming a line
                           of play (one player in one game): the next search with the same key
                           goes on with what the previous one left on the worker, when the
                           worker still holds it: the alpha-beta table, and with keep_tree the
                           tree search's subtree of the new position (when the game went on
                           along the tree; see tav_answer.reused).  Answers then depend on what
                           came before. */
    int keep_tree;      /* 1: with keep, tree searches keep their trees too.  Off by default:
                           it did not make Cathedral's player stronger at 50 ms a move, the
                           first versions made it weaker (measured:
                           results/search-service.md). */
    int priority;       /* 0 = normal; higher goes first, lower (negative) last.  A request
                           waiting in the queue is taken by the next free worker before every
                           queued request of a lower priority; equal priorities keep their
                           order of submission.  A running search is never interrupted, and
                           the helper jobs of a search whose leader already runs stay ahead
                           of every request still queued.  Does not change the answer. */
} tav_budget;

typedef struct tav_answer {
    tav_status status;  /* TAV_OK, or TAV_E_OVER, TAV_E_CANCELLED, TAV_E_NOMEM, TAV_E_NOTFOUND,
                           TAV_E_INVALID */
    tav_move best;      /* valid with TAV_OK */
    char best_text[TAV_MOVE_TEXT];
    uint64_t playouts, nodes;
    uint64_t reused;    /* tree search with budget.keep: playouts the kept subtree of this
                           position already held (0: started from an empty tree) */
    tav_move ponder;    /* tree search, have_ponder 1: the opponent's reply the tree expects
                           after `best` (its most visited; a move of the position after best,
                           for a hidden-information game one seen in sampled deals) */
    int have_ponder;
    tav_move pv[TAV_PV_MAX];   /* tree search: the line the tree expects, best first (best,
                                  ponder, then the most visited move at each step while
                                  it has 2 visits); pv_len 0 for alpha-beta */
    int pv_len;
    int depth;
    double value;       /* expected score of the best move for the mover, 0..1 */
    double seconds;
} tav_answer;

/* Monotonic clock in seconds. */
double tav_now(void);

/* A service with a pool of `threads` workers (the global thread budget,
 * >= 1) and at most `memory` bytes of search memory per worker (0 = the
 * default, 64 MiB).  NULL on failure. */
tav_service *tav_service_new(int threads, size_t memory);
/* Cancels every search, joins the workers, frees everything. */
void tav_service_free(tav_service *svc);
int tav_service_threads(const tav_service *svc);       /* workers alive now */
size_t tav_service_bytes(const tav_service *svc);      /* search memory held now */

/* The player table: names of the registered players, NULL-terminated. */
const char *const *tav_players(void);
/* Parse a player spec as seats and options name them: "random", "uct",
 * "ai", "ai:level=N" (N 1..10), into its name (n bytes, may be NULL) and
 * level (0 when none; may be NULL).  TAV_OK; TAV_E_NOTFOUND for a name
 * that is not a player's; TAV_E_INVALID for a malformed spec (empty, an
 * option other than level=1..10, a name longer than n - 1). */
tav_status tav_player_parse(const char *spec, char *name, size_t n, int *level);
/* The budget of a level for a game (one table for every game): fills
 * movetime/nodes/depth. */
void tav_level_budget(const tav_game *g, int level, tav_budget *b);
/* The measured strength of level 1..10 of the `ai` player in a game: an
 * Elo rating on one scale per game on which random play is 0, from the
 * level ladder (docs/levels.md); -1 for a level not rated yet (or an
 * unknown game or level).  Compare levels of one game only. */
int tav_level_rating(const tav_game *g, int level);

/* Search state st of game g (g->state_size bytes, copied at once) for its
 * side to act with `player` ("random", "uct", "ai").  Blocks until done;
 * `info` (may be NULL) receives "info ..." lines on the calling thread.
 * The answer goes to *out (may be NULL) and its status is returned:
 * TAV_OK; TAV_E_INVALID (no state, a game table this library cannot play:
 * tav_game_check_table); TAV_E_NOTFOUND (unknown player); TAV_E_OVER;
 * TAV_E_NOMEM; TAV_E_CANCELLED.  The state is searched as it is: a caller
 * that must not let the player see hidden information passes a masked
 * state (tav_session_search_state). */
tav_status tav_service_run_state(tav_service *svc, const tav_game *g, const void *st,
                                 const char *player, const tav_budget *b, tav_info_fn info,
                                 void *ctx, tav_answer *out);

/* Asynchronous search of state st of game g: the state is copied, so the
 * caller may change or free it at once.  TAV_OK with the search's handle
 * (> 0) in *handle (may be NULL), written before the search can start;
 * `done` is then called exactly once, on a worker thread, with the answer
 * (TAV_E_CANCELLED after a cancel).  Refused (*handle 0, `done` never
 * called): TAV_E_INVALID, TAV_E_NOTFOUND (unknown player), TAV_E_OVER,
 * TAV_E_NOMEM as tav_service_run_state, TAV_E_CANCELLED when the service
 * is being freed. */
typedef void (*tav_done_fn)(void *ctx, const tav_answer *a);
tav_status tav_service_submit_state(tav_service *svc, const tav_game *g, const void *st,
                                    const char *player, const tav_budget *b, tav_done_fn done,
                                    void *ctx, uint64_t *handle);
/* Cancel a search (any thread, any time; a finished or unknown handle is
 * ignored).  The search stops within a few milliseconds and reports. */
void tav_service_cancel(tav_service *svc, uint64_t handle);
/* When a search began to run (any thread): the tav_now() time at which its
 * leader was handed to a worker (budget.movetime_ms runs from then, and
 * tav_answer.seconds too); 0 while it still waits in the queue; -1 for an
 * unknown handle, or one whose search has ended (its `done` is being or has
 * been called). */
double tav_service_started(tav_service *svc, uint64_t handle);

/* The pool's size (the global thread budget), and the most jobs that ever
 * ran at once (never more than the workers; for tests). */
int tav_service_workers(const tav_service *svc);
int tav_service_peak_jobs(const tav_service *svc);

#endif
