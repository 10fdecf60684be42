/*
 * session_fuzz.c — fuzzing: damaged move texts, positions and records.
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

/* Mutate text in place (at most n bytes with its NUL): a changed, removed,
 * inserted or random byte, or a cut. */
static void mutate(char *t, size_t cap, tav_rng *rng)
{
    size_t len = strlen(t);
    size_t at = len ? tav_rng_below(rng, (uint32_t)len) : 0;
    static const char pool[] = "abcdefghijkl0123456789:-,x/=?\n ?.WBHPTA";
    switch (tav_rng_below(rng, 5)) {
    case 0:
        if (len)
            t[at] = pool[tav_rng_below(rng, sizeof pool - 1)];
        break;
    case 1:
        if (len)
            memmove(t + at, t + at + 1, len - at);
        break;
    case 2:
        if (len + 2 < cap) {
            memmove(t + at + 1, t + at, len - at + 1);
            t[at] = pool[tav_rng_below(rng, sizeof pool - 1)];
        }
        break;
    case 3:
        if (len)
            t[at] = (char)(1 + tav_rng_below(rng, 255));
        break;
    default:
        t[at] = '\0';
        break;
    }
}

/* Fuzz the session API with damaged moves, positions and records: every
 * call answers a status, a refusal changes nothing, nothing crashes. */
void fuzz(const tav_game *g, uint64_t seed)
{
    char err[256];
    tav_session *s;
    if (tav_session_new(&s, g->name, g->samples[0], seed, err, sizeof err) != TAV_OK) {
        check(0, "%s: %s", g->name, err);
        return;
    }
    tav_rng rng;
    tav_rng_seed(&rng, seed);
    tav_move *list = malloc(sizeof *list * (size_t)g->max_moves);
    unsigned char *before = malloc(g->state_size);
    char *pos = malloc(TAV_POSITION_TEXT + 8);
    int bad = 0, accepted = 0, tries = 0;
    for (int ply = 0; ply < 60 && !bad; ply++) {
        int tm = tav_session_to_move(s);
        if (tm == TAV_NONE)
            break;
        int n = tav_session_legal(s, tm, list);
        memcpy(before, tav_session_state(s), g->state_size);
        int p0 = tav_session_ply(s);
        for (int k = 0; k < 20 && !bad; k++) {
            char text[TAV_MOVE_TEXT + 8];
            tav_session_move_str(s, list[tav_rng_below(&rng, (uint32_t)n)], text, TAV_MOVE_TEXT);
            mutate(text, sizeof text, &rng);
            tries++;
            tav_status st = tav_session_play_text(s, text, err, sizeof err);
            if (st == TAV_OK) {
                accepted++;
                if (tav_session_ply(s) != p0 + 1 ||
                    strcmp(tav_session_move_text(s, p0), text) != 0) {
                    check(0, "%s: '%s' accepted but kept as '%s'", g->name, text,
                          tav_session_move_text(s, p0));
                    bad = 1;
                }
                tav_session_undo(s);
            } else if ((st != TAV_E_ILLEGAL && st != TAV_E_INVALID) || !err[0] ||
                       tav_session_ply(s) != p0 ||
                       memcmp(before, tav_session_state(s), g->state_size) != 0) {
                check(0, "%s ply %d: refusing '%s' (status %d) changed the game or said "
                      "nothing", g->name, ply, text, st);
                bad = 1;
            }
        }
        /* A damaged position text: refused with a message and no change, or
         * accepted and then printed back the same way it reads. */
        if (ply % 5 == 0) {
            tav_session *c = tav_session_clone(s);
            g->get_position(tav_session_state(s), pos, TAV_POSITION_TEXT);
            for (int k = 0, m = 1 + (int)tav_rng_below(&rng, 3); k < m; k++)
                mutate(pos, TAV_POSITION_TEXT, &rng);
            tav_status st = tav_session_set_position(c, pos, err, sizeof err);
            if (st == TAV_OK) {
                char again[TAV_POSITION_TEXT];
                tav_session *d;
                tav_session_position(c, TAV_SPECTATOR, again, sizeof again);
                g->get_position(tav_session_state(c), again, sizeof again);
                if (tav_session_from_position(&d, g->name, again, err, sizeof err) != TAV_OK ||
                    g->hash(tav_session_state(d)) != g->hash(tav_session_state(c))) {
                    check(0, "%s: an accepted damaged position does not read back: %s", g->name,
                          err);
                    bad = 1;
                }
                tav_session_free(d);
            } else if (st != TAV_E_INVALID || !err[0] || tav_session_ply(c) != tav_session_ply(s)) {
                check(0, "%s: damaged position refused badly (status %d)", g->name, st);
                bad = 1;
            }
            tav_session_free(c);
        }
        tav_session_play(s, list[tav_rng_below(&rng, (uint32_t)n)]);
    }
    /* Damaged records: refused with "line L, column C", or replayed. */
    char *rec = tav_session_record_all(s, "w", "b");
    for (int k = 0; rec && k < 40 && !bad; k++) {
        size_t len = strlen(rec);
        char *t = malloc(len + 16);
        memcpy(t, rec, len + 1);
        for (int j = 0, m = 1 + (int)tav_rng_below(&rng, 3); j < m; j++)
            mutate(t, len + 16, &rng);
        tav_session *r = NULL;
        tav_status st = tav_session_from_record(&r, t, strlen(t), err, sizeof err);
        if (st == TAV_OK ? r == NULL : (st != TAV_E_INVALID || r != NULL || !err[0])) {
            check(0, "%s: damaged record answered status %d", g->name, st);
            bad = 1;
        }
        tav_session_free(r);
        free(t);
    }
    free(rec);
    check(!bad && tries > 0, "%s: fuzzed session input (%d damaged moves, %d legal)", g->name,
          tries, accepted);
    free(list);
    free(before);
    free(pos);
    tav_session_free(s);
}
