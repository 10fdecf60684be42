/*
 * load.c — a game read from the store: loaded on first use (one replay),
 * read again when a batch of its writes failed or another instance changed
 * it, and the games of an instance that died taken over.  Above the table
 * (games.c) and the clocks; the rooms that change games sit above it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "server/core/core.h"
#include "server/core/internal.h"

typedef struct replay_ctx {
    game *g;
    char err[256];
    int64_t last;
} replay_ctx;

/* The row of a game being loaded: its session, before the moves replay. */
static int replay_row(void *ctx, const store_game *sg)
{
    replay_ctx *rc = ctx;
    game *g = rc->g;
    if (tav_session_new(&g->s, sg->game, sg->options, sg->seed, rc->err, sizeof rc->err) !=
        TAV_OK)
        return -1;
    rc->last = sg->started_ms > 0 ? sg->started_ms : sg->created * 1000;
    return 0;
}

/* Replay one stored move into the session. */
static int replay_move(void *ctx, int ply, const store_move *m)
{
    replay_ctx *rc = ctx;
    if (tav_session_play_text(rc->g->s, m->text, rc->err, sizeof rc->err) != TAV_OK)
        return -1;
    tav_session_set_move_ms(rc->g->s, ply, m->ms);
    rc->last = m->time;
    return 0;
}

/* Read a game from the store into g (zeroed, or a scratch copy): its
 * session and everything kept of it.  1 found, 0 unknown, -1 damaged or
 * the store failed. */
static int read_game(core *C, const char *id, game *g)
{
    store_game sg;
    char err[256];
    replay_ctx rc = {g, "", 0};
    int found = store_load_game(C->st, id, &sg, replay_row, replay_move, &rc, err, sizeof err);
    if (found <= 0) {
        if (found < 0)
            core_log(C, "error: %s%s%s", err, rc.err[0] ? ": " : "", rc.err);
        if (g->s)
            tav_session_free(g->s);
        g->s = NULL;
        return found < 0 ? -1 : 0;
    }
    snprintf(g->id, sizeof g->id, "%s", sg.id);
    for (int side = 0; side < 2; side++) {
        memcpy(g->player[side], sg.player[side], STORE_PLAYER_LEN);
        memcpy(g->account[side], sg.account[side], STORE_NAME_LEN);
        g->bot[side] = sg.account[side][0] && core_is_bot(C, sg.account[side]);
        g->human[side] = sg.has_seat[side] ||
                         (sg.account[side][0] && strcmp(sg.player[side], "human") == 0);
        memcpy(g->seat_hash[side], sg.seat_hash[side], STORE_HASH_LEN);
    }
    if (sg.resigned == TAV_WHITE || sg.resigned == TAV_BLACK)
        tav_session_resign(g->s, sg.resigned);
    g->cpu_only = !g->human[0] && !g->human[1];
    g->local = sg.local;
    g->rated = sg.rated;
    memcpy(g->rating_before, sg.rating_before, sizeof g->rating_before);
    memcpy(g->rating_after, sg.rating_after, sizeof g->rating_after);
    offers_unpack(g, sg.draw_offer, sg.takeback_offer);
    g->end[0] = 0;
    g->end_winner = 0;
    if (strcmp(sg.end, "abort") == 0 || strcmp(sg.end, "time") == 0 ||
        strcmp(sg.end, "agreement") == 0 || strcmp(sg.end, "abandon") == 0)
        snprintf(g->end, sizeof g->end, "%s", sg.end);
    if (strcmp(sg.end, "agreement") == 0)
        g->end_winner = TAV_DRAW;
    if (strcmp(sg.end, "abandon") == 0)
        g->end_winner = strcmp(sg.winner, "white") == 0   ? TAV_WHITE
                        : strcmp(sg.winner, "black") == 0 ? TAV_BLACK
                                                          : TAV_DRAW;
    memcpy(g->rematch, sg.rematch, sizeof g->rematch);
    g->last_ms = rc.last;
    g->clk_initial_ms = sg.clock_initial * 1000;
    g->clk_inc_ms = sg.clock_increment * 1000;
    g->clk_days = sg.clock_days;
    g->started_ms = sg.started_ms;
    g->stamp = sg.stamp;
    if (clock_on(g)) {
        clock_rebuild(g);
        if (strcmp(sg.end, "time") == 0) {
            g->end_winner = strcmp(sg.winner, "white") == 0 ? TAV_WHITE : TAV_BLACK;
            g->left_ms[1 - g->end_winner] = 0;
        }
    }
    store_game_done(&sg);
    return 1;
}

/* Rebuild a game from the store, reading it once: NULL when unknown or
 * damaged. */
static game *load_game(core *C, const char *id)
{
    game *g = calloc(1, sizeof *g);
    if (!g) {
        C->get_failed = 1;
        return NULL;
    }
    int rc = read_game(C, id, g);
    if (rc != 1) {
        C->get_failed = rc < 0;
        free(g);
        return NULL;
    }
    char err[256];
    if (C->st->ops->game_tour && C->st->ops->game_tour(C->st, id, g->tour, err, sizeof err) < 0)
        core_log(C, "error: game %s: its tournament could not be read: %s", id, err);
    game_changed(g);
    games_insert(C, g);
    clock_list(C, g);
    return g;
}

/* Read g again from the store (a batch of its writes failed, or another
 * instance changed it): what it kept in memory gives way to what is on
 * disk, its viewers are told, and a computer seat to act thinks anew.
 * 0, or -1 when it could not be read: then a copy holding writes that
 * failed (`must`) leaves memory; one merely behind others' stays as it was
 * (what was true a moment ago), to be read again later. */
int game_refresh(core *C, game *g, int must)
{
    game fresh;
    memset(&fresh, 0, sizeof fresh);
    int rc = read_game(C, g->id, &fresh);
    if (rc != 1) {
        core_log(C, "error: game %s could not be read again", g->id);
        if (must || rc == 0)
            g->dead = 1;
        return -1;
    }
    if (!must && fresh.stamp && fresh.stamp == g->stamp) {
        tav_session_free(fresh.s);   /* read again already (a request's look came first) */
        return 0;
    }
    if (g->job) {
        jobs_cancel(C, g->job);
        g->job = NULL;
    }
    tav_session_free(g->s);
    g->s = fresh.s;
    memcpy(g->player, fresh.player, sizeof g->player);
    memcpy(g->account, fresh.account, sizeof g->account);
    memcpy(g->bot, fresh.bot, sizeof g->bot);
    memcpy(g->human, fresh.human, sizeof g->human);
    memcpy(g->seat_hash, fresh.seat_hash, sizeof g->seat_hash);
    g->cpu_only = fresh.cpu_only;
    g->local = fresh.local;
    g->rated = fresh.rated;
    memcpy(g->rating_before, fresh.rating_before, sizeof g->rating_before);
    memcpy(g->rating_after, fresh.rating_after, sizeof g->rating_after);
    g->draw_offer = fresh.draw_offer;
    g->takeback_offer = fresh.takeback_offer;
    g->rematch_offer = fresh.rematch_offer;
    memcpy(g->spent, fresh.spent, sizeof g->spent);
    g->absent = fresh.absent;
    memcpy(g->end, fresh.end, sizeof g->end);
    g->end_winner = fresh.end_winner;
    memcpy(g->rematch, fresh.rematch, sizeof g->rematch);
    g->last_ms = fresh.last_ms;
    g->clk_initial_ms = fresh.clk_initial_ms;
    g->clk_inc_ms = fresh.clk_inc_ms;
    g->clk_days = fresh.clk_days;
    g->started_ms = fresh.started_ms;
    memcpy(g->left_ms, fresh.left_ms, sizeof g->left_ms);
    g->stamp = fresh.stamp;
    game_changed(g);
    if (core_over(g)) {   /* ended elsewhere: its results were written there */
        game_drop_owner(g);
        game_release_claim(C, g);
    }
    clock_list(C, g);
    game_after_change(C, g);
    return 0;
}

/* Many instances: whether another wrote g since this copy was read (one
 * look at its stamp); then it is read again.  Not while g's own writes
 * wait (they settle first, and then its stamp is theirs). */
static void freshen(core *C, game *g)
{
    if (!C->shared || g->unsaved || g->dead || !C->st->ops->game_stamp)
        return;
    int64_t now = 0;
    char err[256];
    int rc = C->st->ops->game_stamp(C->st, g->id, &now, err, sizeof err);
    if (rc == 1 && now != g->stamp) {
        C->refreshed++;
        game_refresh(C, g, 0);
    } else if (rc < 0) {
        core_log(C, "error: game %s: %s", g->id, err);
    }
}

game *core_get(core *C, const char *id)
{
    C->get_failed = 0;
    game *g = games_find(C, id);
    if (g) {
        g->touched = core_unix_ms() / 1000;
        freshen(C, g);
        if (!g->dead)
            return g;
        C->get_failed = 1;   /* it could not be read again: not an unknown game */
        return NULL;
    }
    g = load_game(C, id);
    if (g) {
        tav_result r;
        tav_session_result(g->s, &r);
        if (!r.over)
            game_kick(C, g);
    }
    return g;
}

/* Load every unfinished game whose computer seat is to act, at start. */
void load_unfinished(void *ctx, const char *id)
{
    core *C = ctx;
    if (!core_get(C, id))
        core_log(C, "error: game %s could not be loaded", id);
}

/* Another instance's moves, as writer.c tells them ("m BASE STAMP PLY N"
 * and N times "MS TIME TEXT"): played into g when it holds exactly what
 * they were played on (the store's stamp BASE, PLY moves), so nothing is
 * read.  0 played (or held already), -1 not (then g is read again). */
static int play_delta(core *C, game *g, const char *d)
{
    long long base, stamp;
    int ply, n, k = 0;
    if (sscanf(d, "m %lld %lld %d %d%n", &base, &stamp, &ply, &n, &k) != 4 || n < 1 ||
        n > CORE_DELTA_MOVES)
        return -1;
    if (g->stamp && g->stamp == stamp)
        return 0;   /* read since (a request's look came first) */
    if (g->dead || !g->stamp || g->stamp != base || tav_session_ply(g->s) != ply || g->end[0])
        return -1;
    struct { long long ms, time; char text[TAV_MOVE_TEXT]; } m[CORE_DELTA_MOVES];
    d += k;
    for (int i = 0; i < n; i++, d += k) {
        k = 0;
        if (sscanf(d, " %lld %lld %63s%n", &m[i].ms, &m[i].time, m[i].text, &k) != 3 || !k)
            return -1;
    }
    if (g->job) {
        jobs_cancel(C, g->job);
        g->job = NULL;
    }
    replay_ctx rc = {g, "", g->last_ms};   /* played as a load replays them */
    for (int i = 0; i < n; i++) {
        store_move sm = {m[i].text, m[i].ms, m[i].time};
        if (replay_move(&rc, ply + i, &sm) != 0) {
            core_log(C, "error: game %s: a move heard does not play here: %s", g->id, rc.err);
            return -1;   /* read again: its stamp is still BASE */
        }
    }
    g->last_ms = rc.last;
    if (core_over(g))
        return -1;   /* the end's results were written there: read them */
    if (clock_on(g))
        clock_rebuild(g);
    g->stamp = stamp;
    C->deltas++;
    game_changed(g);
    clock_list(C, g);
    game_after_change(C, g);
    return 0;
}

int core_game_changed_elsewhere(core *C, const char *note)
{
    char id[STORE_ID_LEN];
    int k = 0;
    if (sscanf(note, "%15s%n", id, &k) != 1)
        return 0;
    game *g = games_find(C, id);
    if (!g)
        return 0;   /* read from the store when someone asks */
    if (g->unsaved > 0)
        return 1;
    if (note[k] == ' ' && play_delta(C, g, note + k + 1) == 0)
        return 0;
    C->refreshed++;
    return game_refresh(C, g, 0) == 0 ? 0 : -1;
}

int core_refresh_all(core *C)
{
    int failed = 0;
    for (int h = 0; h < CORE_HASH_SIZE; h++)
        for (game *g = C->games[h]; g; g = g->hnext)
            if (!g->dead && !g->unsaved && game_refresh(C, g, 0) != 0)
                failed = 1;
    return failed ? -1 : 0;
}

static void take_over_one(void *ctx, const char *id)
{
    core *C = ctx;
    if (!games_find(C, id))
        core_get(C, id);   /* loads it; its computer seat, if to act, is claimed */
}

/* Games whose instance died (their claims ended with its connection): a
 * computer seat to act that nobody thinks for is claimed here; a game not
 * in memory whose computer seat is to act or whose clock runs is loaded
 * (flags_tick claims a game whose flag fell when nobody judged it). */
void core_take_over(core *C)
{
    for (int h = 0; h < CORE_HASH_SIZE; h++)
        for (game *g = C->games[h]; g; g = g->hnext)
            if (!g->dead && !g->job && !g->cwaiting && !core_over(g) && game_computer_to_act(g))
                game_kick(C, g);
    char err[256];
    int rc = C->st->ops->each_unclaimed
                 ? C->st->ops->each_unclaimed(C->st, CORE_CLAIM_PREFIX, take_over_one, C, err,
                                              sizeof err)
                 : store_each_unfinished(C->st, take_over_one, C, err, sizeof err);
    if (rc != 0)
        core_log(C, "error: looking for games to take over: %s", err);
}

/* A batch of writes failed: nothing of it is on disk.  A game it created
 * leaves memory (nobody was told its id); a game it changed is read back
 * from the store and its viewers told again. */
void load_batch_failed(core *C, game *g, int created)
{
    if (created) {
        g->dead = 1;
        snprintf(g->end, sizeof g->end, "abort");   /* never on anyone's clock */
        clock_list(C, g);
        if (g->job) {
            jobs_cancel(C, g->job);
            g->job = NULL;
        }
        game_drop_owner(g);
        return;
    }
    if (g->dead || g->unsaved > 0)
        return;   /* read back once its last write is settled */
    game_refresh(C, g, 1);
}
