/*
 * create.c — new games: limits per address, sessions from options, games
 * against the computer, rated games and rematches, the computer accounts.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <strings.h>
#include <time.h>

#include <sodium.h>

#include "server/core/core.h"
#include "server/core/internal.h"
#include "server/core/mail.h"
#include "server/core/writer.h"

static core_status create_new_game_as(core *C, tav_session *s, const char *const player[2], peer *by,
                                  int local, const game *seats_of, const char *const *account,
                                  int rated, const store_seek *clock, core_made *m);

/* The limits on making a game from one address (docs/server-api.md
 * "Limits"): games an hour, and unfinished computer-only games at once. */
core_status create_allowed(core *C, peer *by, const char *const player[2], char *err,
                                    size_t errlen)
{
    if (peer_limited(C, by)) {
        int64_t hour = core_unix_ms() / 3600000;
        if (by->hour != hour) {
            by->hour = hour;
            by->games_hour = 0;
        }
        if (by->games_hour >= C->cf.games_per_hour) {
            snprintf(err, errlen, "at most %d new games an hour per address",
                     C->cf.games_per_hour);
            return CORE_LIMIT;
        }
    }
    int cpu_only = strcmp(player[0], "human") != 0 && strcmp(player[1], "human") != 0;
    if (cpu_only && peer_limited(C, by) && by->cpu_games >= CORE_CPU_GAMES_PER_ADDR) {
        snprintf(err, errlen, "at most %d unfinished computer-only games at once per address",
                 CORE_CPU_GAMES_PER_ADDR);
        return CORE_LIMIT;
    }
    return CORE_OK;
}

const char create_players_msg[] =
    "a player is \"human\", \"random\", \"ai\" or \"ai:level=N\" (N 1..10)";
static int plies_ok(const char *options)
{
    const char *p = options;
    while ((p = strstr(p, "maxplies="))) {
        if (p == options || p[-1] == ' ' || p[-1] == '\t') {
            char *end = NULL;
            long v = strtol(p + 9, &end, 10);
            if (end == p + 9 || v > CORE_PLIES_MAX || v < 0 || (end - (p + 9)) > 7)
                return -1;
        }
        p += 9;
    }
    return 0;
}

tav_session *core_new_session(const char *name, const char *options, char *err, size_t errlen)
{
    uint64_t seed;
    randombytes_buf(&seed, sizeof seed);
    tav_session *s = NULL;
    return tav_session_new(&s, name, options, seed, err, errlen) == TAV_OK ? s : NULL;
}

core_status core_create(core *C, peer *by, const char *name, const char *options,
                        const char *const player[2], int local, core_made *m)
{
    memset(m, 0, sizeof *m);
    if (!tav_game_find(name)) {
        snprintf(m->err, sizeof m->err, "unknown game '%.32s'", name);
        return m->status = CORE_BAD;
    }
    if (!core_player_ok(player[0]) || !core_player_ok(player[1])) {
        snprintf(m->err, sizeof m->err, "%s", create_players_msg);
        return m->status = CORE_BAD;
    }
    if (plies_ok(options) != 0) {
        snprintf(m->err, sizeof m->err, "maxplies is at most %d on this server", CORE_PLIES_MAX);
        return m->status = CORE_BAD;
    }
    if ((m->status = create_allowed(C, by, player, m->err, sizeof m->err)) != CORE_OK)
        return m->status;
    tav_session *s = core_new_session(name, options, m->err, sizeof m->err);
    if (!s)
        return m->status = CORE_BAD;
    return create_new_game(C, s, player, by, local, NULL, m);
}

/* The accounts the computer levels play rated games as (their ratings),
 * made at the first start: no password opens them. */
/* A computer level's rating in a game it has not played rated yet: its
 * measured strength (docs/levels.md: self-play ladders anchored on random
 * play at 0, the numbers the page shows as "about N"), with a moderate
 * deviation, so that people's and the computer's ratings speak of one scale
 * from the first game on. */
static int seed_computer_ratings(core *C, const char *name, int level, char *err, size_t errlen)
{
    for (int i = 0; i < tav_game_count(); i++) {
        const tav_game *g = tav_game_at(i);
        int measured = tav_level_rating(g, level);
        if (measured <= 0)
            continue;   /* no measured rating: the players' default */
        store_rating r;
        int found = C->st->ops->get_rating(C->st, name, g->name, &r, err, errlen);
        if (found < 0)
            return -1;
        if (found)
            continue;
        store_rating seed = {(double)measured, CORE_COMPUTER_RD, 0.06, 0, 0};
        if (C->st->ops->set_rating(C->st, name, g->name, &seed, err, errlen) != 0 ||
            store_flush(C->st, err, errlen) != 0) {
            store_discard(C->st);   /* another instance seeded it first: theirs stands */
        }
    }
    return 0;
}

int create_computer_accounts(core *C, char *err, size_t errlen)
{
    for (int level = 1; level <= 10; level++) {
        store_account a;
        memset(&a, 0, sizeof a);
        snprintf(a.name, sizeof a.name, "Computer-%d", level);
        int found = C->st->ops->get_account(C->st, a.name, &a, err, errlen);
        if (found < 0)
            return -1;
        if (found) {
            if (seed_computer_ratings(C, a.name, level, err, errlen) != 0)
                return -1;
            continue;
        }
        snprintf(a.pwhash, sizeof a.pwhash, "!");
        a.created = core_unix_ms() / 1000;
        if (C->st->ops->create_account(C->st, &a, err, errlen) == 0 &&
            store_flush(C->st, err, errlen) == 0) {
            if (seed_computer_ratings(C, a.name, level, err, errlen) != 0)
                return -1;
            continue;
        }
        store_discard(C->st);
        /* Another instance starting at the same moment made it first. */
        store_account b;
        if (C->st->ops->get_account(C->st, a.name, &b, err, errlen) != 1 ||
            seed_computer_ratings(C, a.name, level, err, errlen) != 0)
            return -1;
    }
    err[0] = 0;
    return 0;
}

/* The account a computer level plays as (its rating): "Computer-N". */
int core_computer_account(const char *player, char out[STORE_NAME_LEN])
{
    char name[32];
    int level = 0;
    if (tav_player_parse(player, name, sizeof name, &level) != TAV_OK || strcmp(name, "ai") != 0 ||
        level <= 0)
        return 0;
    snprintf(out, STORE_NAME_LEN, "Computer-%d", level);
    return 1;
}

core_status core_create_rated(core *C, peer *by, const char *name, const char *options,
                              const char *const player[2], const char *account,
                              const store_seek *clock, core_made *m)
{
    memset(m, 0, sizeof *m);
    int human = strcmp(player[0], "human") == 0 ? 0 : strcmp(player[1], "human") == 0 ? 1 : -1;
    char cpu[STORE_NAME_LEN];
    if (human < 0 || strcmp(player[1 - human], "human") == 0 ||
        !core_computer_account(player[1 - human], cpu)) {
        snprintf(m->err, sizeof m->err, "a rated game is against a computer level (\"ai:level=N\") "
                                        "or between accounts (the lobby)");
        return m->status = CORE_BAD;
    }
    if (!account || !account[0]) {
        snprintf(m->err, sizeof m->err, "sign in to play rated");
        return m->status = CORE_FORBIDDEN;
    }
    if (!clock || (!clock->initial && !clock->days) || !seek_clock_ok(clock)) {
        /* SPEC "Consent and fair endings": a rated game needs a clock. */
        snprintf(m->err, sizeof m->err,
                 !clock || (!clock->initial && !clock->days)
                     ? "a rated game needs a clock"
                     : "a clock is {\"initial\": 30..10800, \"increment\": 0..180} seconds, "
                       "or {\"days\": 1, 2, 3, 5, 7 or 14}");
        return m->status = CORE_BAD;
    }
    /* The account's unfinished rated games against the computer in memory
     * (a game in play with a computer seat stays there while it runs). */
    int mine = 0;
    for (int h = 0; h < CORE_HASH_SIZE; h++)
        for (game *g = C->games[h]; g; g = g->hnext)
            mine += !core_over(g) && !g->dead && (!g->human[0] || !g->human[1]) &&
                    (strcasecmp(g->account[0], account) == 0 ||
                     strcasecmp(g->account[1], account) == 0);
    if (mine >= CORE_CPU_GAMES_PER_ACCOUNT) {
        snprintf(m->err, sizeof m->err, "at most %d unfinished rated games against the computer "
                                        "at once per account", CORE_CPU_GAMES_PER_ACCOUNT);
        return m->status = CORE_LIMIT;
    }
    if (!tav_game_find(name) || plies_ok(options) != 0) {
        snprintf(m->err, sizeof m->err, "unknown game '%.32s' or options", name);
        return m->status = CORE_BAD;
    }
    if ((m->status = create_allowed(C, by, player, m->err, sizeof m->err)) != CORE_OK)
        return m->status;
    tav_session *s = core_new_session(name, options, m->err, sizeof m->err);
    if (!s)
        return m->status = CORE_BAD;
    /* Options anyone may see: a rated game is not played on a chosen deal. */
    char pub[1024];
    tav_session_public_options(s, pub, sizeof pub);
    if (strcmp(pub, tav_session_options(s)) != 0) {
        tav_session_free(s);
        snprintf(m->err, sizeof m->err, "a rated game's options are public: no chosen deal");
        return m->status = CORE_BAD;
    }
    const char *acc[2];
    acc[human] = account;
    acc[1 - human] = cpu;
    return create_new_game_as(C, s, player, by, 0, NULL, acc, 1, clock, m);
}

/* A rematch of a finished game (docs/server-api.md): colours swapped, the
 * same players, options and screen, a new deal; each person's seat token
 * is their seat in the new game too.  Made once: asked again (by either
 * side) it is the same game. */

core_status core_rematch(core *C, game *g, const core_cred *who, peer *by, core_made *m)
{
    memset(m, 0, sizeof *m);
    int side = core_side_of(g, who);
    if (side < 0) {
        snprintf(m->err, sizeof m->err, "not a seat of this game");
        return m->status = CORE_FORBIDDEN;
    }
    if (!core_over(g)) {
        snprintf(m->err, sizeof m->err, "the game is not over");
        return m->status = CORE_CONFLICT;
    }
    if (g->rematch[0]) {
        m->g = core_get(C, g->rematch);
        if (!m->g) {
            snprintf(m->err, sizeof m->err, "the rematch could not be read");
            return m->status = CORE_UNAVAILABLE;
        }
        return m->status = CORE_OK;
    }
    /* Between two people's accounts a rematch is an offer (SPEC "Consent
     * and fair endings"): the first to ask offers it, nothing is made; the
     * other asking accepts it.  Nobody is seated in a game they did not
     * agree to. */
    int consent = g->human[0] && g->human[1] && g->account[0][0] && g->account[1][0];
    if (consent && g->rematch_offer != 1 - side) {
        if (g->rematch_offer == side)
            return m->status = CORE_OFFERED;   /* offered already */
        if (g->spent[2] & (1 << side)) {
            snprintf(m->err, sizeof m->err, "your rematch offer in this game was withdrawn or declined: it is not made again");
            return m->status = CORE_CONFLICT;
        }
        if (offers_counted(C, g->account[side]) != 0) {
            snprintf(m->err, sizeof m->err, "too many offers: at most %d a minute",
                     CORE_OFFERS_PER_WINDOW);
            return m->status = CORE_LIMIT;
        }
        offer_keep k = offers_keep(g);
        g->rematch_offer = side;
        if (offers_store(C, g, &k) != 0) {
            snprintf(m->err, sizeof m->err, "the offer could not be stored");
            return m->status = CORE_UNAVAILABLE;
        }
        game_changed(g);
        game_tell(C, g);
        return m->status = CORE_OFFERED;
    }
    const char *player[2] = {g->player[1], g->player[0]};
    if ((m->status = create_allowed(C, by, player, m->err, sizeof m->err)) != CORE_OK)
        return m->status;
    /* The options anyone may see: a chosen Toscana deal is not dealt again. */
    char opts[1024];
    tav_session_public_options(g->s, opts, sizeof opts);
    tav_session *s = core_new_session(tav_session_game(g->s)->name, opts, m->err, sizeof m->err);
    if (!s)
        return m->status = CORE_BAD;
    core_status st;
    if (g->account[0][0] || g->account[1][0]) {
        /* Between accounts: the accounts swap colours, the clock and
         * rating stay as they were. */
        const char *acc[2] = {g->account[1], g->account[0]};
        store_seek clock;
        memset(&clock, 0, sizeof clock);
        clock.initial = g->clk_initial_ms / 1000;
        clock.increment = g->clk_inc_ms / 1000;
        clock.days = g->clk_days;
        memset(m, 0, sizeof *m);
        st = create_new_game_as(C, s, player, by, 0, NULL, acc, g->rated, &clock, m);
    } else {
        st = create_new_game(C, s, player, by, g->local, g, m);
    }
    if (st != CORE_CREATED)
        return st;
    if (wq_rematch(C, g, m->g->id) != 0) {
        /* The new game is on its way to the disk but the link is not: it
         * stays an ordinary game, and the request is refused. */
        snprintf(m->err, sizeof m->err, "the rematch could not be stored");
        m->g = NULL;
        return m->status = CORE_UNAVAILABLE;
    }
    memcpy(g->rematch, m->g->id, sizeof g->rematch);
    if (g->rematch_offer >= 0) {
        offer_keep k = offers_keep(g);
        g->rematch_offer = -1;   /* accepted: the game says its rematch instead */
        if (offers_store(C, g, &k) != 0)
            core_log(C, "error: game %s: the accepted offer could not be cleared", g->id);
    }
    game_changed(g);
    game_after_change(C, g);
    return st;
}

/* A new game (create or record upload): stored first, then kept.  A
 * computer-only game counts against the address that made it until it ends.
 * Takes s over (freed on failure). */

core_status create_new_game(core *C, tav_session *s, const char *const player[2], peer *by,
                               int local, const game *seats_of, core_made *m)
{
    return create_new_game_as(C, s, player, by, local, seats_of, NULL, 0, NULL, m);
}

/* A game between two accounts (the lobby): no seat tokens, the accounts are
 * the seats.  Takes s over. */
core_status core_create_accounts(core *C, tav_session *s, const char *const account[2], int rated,
                                 const store_seek *clock, core_made *m)
{
    memset(m, 0, sizeof *m);
    const char *player[2] = {"human", "human"};
    return create_new_game_as(C, s, player, NULL, 0, NULL, account, rated, clock, m);
}

static core_status create_new_game_as(core *C, tav_session *s, const char *const player[2], peer *by,
                                  int local, const game *seats_of, const char *const *account,
                                  int rated, const store_seek *clock, core_made *m)
{
    game *g = calloc(1, sizeof *g);
    store_move *moves = NULL;
    int n = tav_session_ply(s);
    if (!g || (n > 0 && !(moves = calloc((size_t)n, sizeof *moves)))) {
        free(g);
        tav_session_free(s);
        snprintf(m->err, sizeof m->err, "out of memory");
        return m->status = CORE_UNAVAILABLE;
    }
    do
        core_random_b64(g->id, 9);
    while (games_find(C, g->id));
    g->s = s;
    store_game sg;
    memset(&sg, 0, sizeof sg);
    memcpy(sg.id, g->id, sizeof sg.id);
    snprintf(sg.game, sizeof sg.game, "%s", tav_session_game(s)->name);
    sg.options = (char *)(uintptr_t)tav_session_options(s);
    sg.seed = tav_session_seed(s);
    sg.created = core_unix_ms() / 1000;
    sg.resigned = -1;
    for (int side = 0; side < 2; side++) {
        snprintf(g->player[side], STORE_PLAYER_LEN, "%s", player[side]);
        memcpy(sg.player[side], g->player[side], STORE_PLAYER_LEN);
        m->tokens[side][0] = 0;
        if (account && account[side] && account[side][0]) {
            /* A person's account is the seat (no token); a computer level's
             * account only carries its rating. */
            snprintf(g->account[side], STORE_NAME_LEN, "%s", account[side]);
            memcpy(sg.account[side], g->account[side], STORE_NAME_LEN);
            g->human[side] = strcmp(player[side], "human") == 0;
            g->bot[side] = g->human[side] && core_is_bot(C, account[side]);
        } else if (strcmp(player[side], "human") == 0) {
            if (seats_of) {
                /* A rematch: each person keeps their token, on the other side. */
                memcpy(g->seat_hash[side], seats_of->seat_hash[1 - side], STORE_HASH_LEN);
            } else {
                core_random_b64(m->tokens[side], 32);
                core_token_hash(m->tokens[side], g->seat_hash[side]);
            }
            g->human[side] = 1;
            sg.has_seat[side] = 1;
            memcpy(sg.seat_hash[side], g->seat_hash[side], STORE_HASH_LEN);
        }
    }
    g->cpu_only = !g->human[0] && !g->human[1];
    g->local = local && g->human[0] && g->human[1];
    sg.local = g->local;
    g->draw_offer = g->takeback_offer = g->rematch_offer = g->absent = -1;
    sg.draw_offer = sg.takeback_offer = -1;
    g->rated = sg.rated = rated && account;
    sg.status = game_store_status(g);
    int64_t now = core_game_ms(C);
    sg.started_ms = g->started_ms = now;
    if (clock) {
        sg.clock_initial = clock->initial;
        sg.clock_increment = clock->increment;
        sg.clock_days = clock->days;
        g->clk_initial_ms = clock->initial * 1000;
        g->clk_inc_ms = clock->increment * 1000;
        g->clk_days = clock->days;
        g->left_ms[0] = g->left_ms[1] = g->clk_initial_ms;
    }
    for (int i = 0; i < n; i++) {
        moves[i].text = tav_session_move_text(s, i);
        moves[i].ms = tav_session_move_ms(s, i);
        moves[i].time = now;
    }
    int rc = wq_create(C, g, &sg, moves, n);
    free(moves);
    if (rc != 0) {
        snprintf(m->err, sizeof m->err, "the game could not be stored");
        sodium_memzero(m->tokens, sizeof m->tokens);
        tav_session_free(s);
        free(g);
        return m->status = CORE_UNAVAILABLE;
    }
    g->last_ms = now;
    mail_turn(C, g);   /* a correspondence game: the first to move may be told by mail */
    game_changed(g);
    games_insert(C, g);
    clock_list(C, g);
    if (by) {
        int64_t hour = now / 3600000;
        if (by->hour != hour) {
            by->hour = hour;
            by->games_hour = 0;
        }
        by->games_hour++;
    }
    tav_result r;
    tav_session_result(s, &r);
    if (g->cpu_only && !r.over && by) {
        g->owner = by;
        by->cpu_games++;
    }
    if (r.over)
        analysis_finished(C, g);
    else
        game_kick(C, g);
    if (account && !r.over)
        game_tell_bots(C, g, 0);   /* SPEC "Bots": its event sockets are told */
    m->g = g;
    return m->status = CORE_CREATED;
}
