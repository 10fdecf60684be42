/*
 * test_session.c — the session API (include/tavoliere_session.h): the
 * runner; the checks live in tests/session/session_*.c by topic.
 *
 * Run as build/test_session [GAMES_PER_SET]; prints one line per failure and
 * the summary "N passed, N failed".  Checks:
 *   - for every game and sample option set (tav_game.samples), seeded random
 *     games played through the session agree with the raw operations table
 *     at every ply (state bytes, side to act, result, legal moves per
 *     viewer), undo and replay give the same state, a clone is equal, the
 *     board view is filled for every ply and viewer, and the record of the
 *     finished game replays to the same final state;
 *   - errors: unknown game, bad options, empty / malformed / illegal moves
 *     (with a "did you mean"), moves after the end, undo at the start, a
 *     failing call changes nothing;
 *   - resignation: result, side to act, undo, record;
 *   - Toscana's hidden information: two deals that differ only below the
 *     stack tops give byte-identical projections (legal moves, position
 *     text, board view, record, public options) for every viewer at every
 *     ply while the game is unfinished;
 *   - move parts: for every legal move of every position of seeded random
 *     games of every game and sample option set, the parts (squares,
 *     piece, from/to, rotation) write the move's text again (each game's
 *     notation written here independently), fit the board before and after
 *     the move, and turn the hand's shape onto the squares;
 *   - the library's conformance checks (tav_conformance_game) pass for
 *     every game and sample option set;
 *   - fuzzing: damaged move texts, position texts and records for every
 *     game answer a status with a message, and a refusal changes nothing;
 *   - messages that quote input stay valid UTF-8 without control
 *     characters (a strict validator: no overlong forms, no surrogates,
 *     nothing above U+10FFFF): ASCII prefixes of every length 0..80 followed
 *     by multi-byte characters or invalid bytes, and random bytes, as moves,
 *     game names, options, records and positions of every game, with err
 *     buffers of several sizes;
 *   - a game of the embedder's own (tic-tac-toe, written here against
 *     tavoliere_game.h) is played, projected, recorded, checked and
 *     searched through a session made with tav_session_new_game, and tables
 *     of another abi_version or missing an operation are refused;
 *   - tav_session_play_as: a retry, stale plies, the turn, the caller's cap,
 *     the end, in that order, and a refusal changes nothing;
 *   - the public API's statuses: the table helpers, records and the
 *     search service's doors say why they fail (tav_status), and the
 *     version macros agree with each other.
 */
#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tavoliere.h"
#include "tavoliere_game.h"
#include "tavoliere_record.h"
#include "tavoliere_search.h"
#include "tavoliere_session.h"
#include "session_test.h"

static int passed, failed;

void check(int ok, const char *fmt, ...)
{
    if (ok) {
        passed++;
        return;
    }
    if (failed++ < 30) {
        va_list ap;
        printf("FAIL ");
        va_start(ap, fmt);
        vprintf(fmt, ap);
        va_end(ap);
        printf("\n");
    }
}

const int viewers[3] = {TAV_WHITE, TAV_BLACK, TAV_SPECTATOR};


int main(int argc, char **argv)
{
    int per = argc > 1 ? atoi(argv[1]) : 2;
    if (per < 1)
        per = 1;
    errors();
    views();
    for (int i = 0; i < tav_game_count(); i++) {
        const tav_game *g = tav_game_at(i);
        check(g->samples && g->samples[0], "%s: sample option sets", g->name);
        for (int k = 0; g->samples && g->samples[k]; k++) {
            for (int j = 0; j < per; j++)
                random_game(g, g->samples[k], (uint64_t)(j * 1000 + k + 1));
            for (int j = 0; j < per + 1; j++)
                parts_game(g, g->samples[k], (uint64_t)(j * 31 + k + 5));
            /* The library's conformance checks, callable from any test. */
            char err[1024];
            int plies = 0;
            check(tav_conformance_game(g, g->samples[k], 99, NULL, NULL, &plies, err,
                                       sizeof err) == TAV_OK && plies > 0,
                  "%s [%s]: conformance: %s", g->name, g->samples[k], err);
        }
    }
    for (uint64_t seed = 1; seed <= 12; seed++)
        hidden(seed);
    own_game();
    play_as();
    end_reasons();
    statuses();
    for (int i = 0; i < tav_game_count(); i++)
        for (uint64_t seed = 1; seed <= 3; seed++)
            fuzz(tav_game_at(i), seed);
    utf8_validator();
    for (int i = 0; i < tav_game_count(); i++)
        messages_utf8(tav_game_at(i), 7);
    printf("%d passed, %d failed\n", passed, failed);
    return failed != 0;
}
