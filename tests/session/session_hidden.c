/*
 * session_hidden.c — Toscana's hidden information: projections that leak nothing.
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

/* The projections of s for viewer into one text (legal moves, position,
 * view bytes, record, public options). */
static char *projection(const tav_session *s, int ply_view, int viewer, size_t *len)
{
    const tav_game *g = tav_session_game(s);
    size_t cap = TAV_POSITION_TEXT * 4 + sizeof(tav_board_view) + (size_t)g->max_moves * 40 +
                 65536;
    char *out = malloc(cap), *rec;
    size_t k = 0;
    tav_move *list = malloc(sizeof *list * (size_t)g->max_moves);
    int n = tav_session_legal(s, viewer, list);
    for (int i = 0; i < n; i++) {
        char t[TAV_MOVE_TEXT];
        tav_session_move_str(s, list[i], t, sizeof t);
        k += (size_t)snprintf(out + k, cap - k, "%s ", t);
    }
    k += (size_t)snprintf(out + k, cap - k, "\n");
    tav_session_position(s, viewer, out + k, TAV_POSITION_TEXT);
    k += strlen(out + k);
    tav_session_public_options(s, out + k, 512);
    k += strlen(out + k);
    rec = tav_session_record(s, viewer, "w", "b");
    k += (size_t)snprintf(out + k, cap - k, "\n%s\n", rec ? rec : "(null)");
    free(rec);
    tav_board_view v;
    tav_session_view(s, ply_view, viewer, &v);
    memcpy(out + k, &v, sizeof v);
    k += sizeof v;
    *len = k;
    free(list);
    return out;
}

/* Toscana: deals that differ only below the tops look the same. */
void hidden(uint64_t seed)
{
    char err[256], ws[128], bs[128], opts[300];
    tav_session *a;
    if (tav_session_new(&a, "toscana", "", seed, err, sizeof err) != TAV_OK) {
        check(0, "toscana: %s", err);
        return;
    }
    const tav_game *g = tav_session_game(a);
    /* A random game, stopped before its end at a random ply P. */
    tav_rng rng;
    tav_rng_seed(&rng, seed);
    tav_move list[TAV_MAX_MOVES];
    int target = 2 + (int)tav_rng_below(&rng, 22);
    while (tav_session_ply(a) < target) {
        int tm = tav_session_to_move(a);
        int n = tav_session_legal(a, tm, list);
        if (n == 0)
            break;
        tav_move m = list[tav_rng_below(&rng, (uint32_t)n)];
        tav_session_play(a, m);
        tav_result r;
        tav_session_result(a, &r);
        if (r.over) {
            tav_session_undo(a);
            break;
        }
    }
    int P = tav_session_ply(a);
    /* The two hidden tiles of a side at P (the '?' of the public text). */
    char pos[TAV_POSITION_TEXT], real[TAV_POSITION_TEXT];
    tav_session_position(a, TAV_SPECTATOR, pos, sizeof pos);
    g->get_position(tav_session_state(a), real, sizeof real);
    char start[2][128];
    g->probe(tav_session_state_at(a, 0), "stack white", start[0], sizeof start[0]);
    g->probe(tav_session_state_at(a, 0), "stack black", start[1], sizeof start[1]);
    int swapped = 0;
    for (int side = 0; side < 2 && !swapped; side++) {
        const char *key = side ? "\nblack=" : "\nwhite=";
        const char *pp = strstr(pos, key), *rp = strstr(real, key);
        if (!pp || !rp)
            break;
        pp += strlen(key);
        rp += strlen(key);
        char hid[16][3];
        int nh = 0;
        while (*pp && *pp != '\n') {
            if (*pp == '?' && nh < 16) {
                memcpy(hid[nh], rp, 2);
                hid[nh++][2] = '\0';
            }
            pp += *pp == '?' ? 1 : 2;
            rp += 2;
            if (*pp == ',') {
                pp++;
                rp++;
            }
        }
        if (nh >= 2) {
            int i = (int)tav_rng_below(&rng, (uint32_t)nh), j = (i + 1) % nh;
            char *x = strstr(start[side], hid[i]), *y = strstr(start[side], hid[j]);
            if (x && y) {
                memcpy(x, hid[j], 2);
                memcpy(y, hid[i], 2);
                swapped = 1;
            }
        }
    }
    if (!swapped) {
        tav_session_free(a);
        check(0, "toscana seed %llu: no hidden tiles at ply %d", (unsigned long long)seed, P);
        return;
    }
    snprintf(ws, sizeof ws, "%s", start[0]);
    snprintf(bs, sizeof bs, "%s", start[1]);
    snprintf(opts, sizeof opts, "white=%s black=%s", ws, bs);
    tav_session *b;
    if (tav_session_new(&b, "toscana", opts, 0, err, sizeof err) != TAV_OK) {
        check(0, "toscana: %s (%s)", err, opts);
        tav_session_free(a);
        return;
    }
    check(memcmp(tav_session_state_at(a, 0), tav_session_state(b), g->state_size) != 0,
          "toscana: the two deals differ");
    int same = 1;
    for (int ply = 0; ply <= P && same; ply++) {
        tav_session *ca = tav_session_clone(a);
        while (tav_session_ply(ca) > ply)
            tav_session_undo(ca);
        for (int k = 0; k < 3 && same; k++) {
            size_t la, lb;
            char *pa = projection(ca, ply, viewers[k], &la);
            char *pb = projection(b, ply, viewers[k], &lb);
            if (la != lb || memcmp(pa, pb, la) != 0) {
                size_t at = 0;
                while (at < la && at < lb && pa[at] == pb[at])
                    at++;
                check(0, "toscana seed %llu ply %d viewer %d: projections differ at byte %zu "
                      "of %zu (%zu bytes of view)", (unsigned long long)seed, ply, viewers[k],
                      at, la, sizeof(tav_board_view));
                same = 0;
            }
            free(pa);
            free(pb);
            /* What a search of this viewer gets: the same bytes for both deals. */
            unsigned char *sa = malloc(g->state_size), *sb = malloc(g->state_size);
            if (same && sa && sb && (tav_session_search_state(ca, viewers[k], sa) != TAV_OK ||
                                     tav_session_search_state(b, viewers[k], sb) != TAV_OK ||
                                     memcmp(sa, sb, g->state_size) != 0)) {
                check(0, "toscana seed %llu ply %d viewer %d: search states differ",
                      (unsigned long long)seed, ply, viewers[k]);
                same = 0;
            }
            free(sa);
            free(sb);
        }
        tav_session_free(ca);
        if (ply < P && same &&
            tav_session_play_text(b, tav_session_move_text(a, ply), err, sizeof err) != TAV_OK) {
            check(0, "toscana: move %d of one deal is illegal in the other: %s", ply, err);
            same = 0;
        }
    }
    check(same && P > 0, "toscana seed %llu: %d plies look the same for every viewer",
          (unsigned long long)seed, P);
    /* Once the game is over, the records differ (the deals are written). */
    tav_session_resign(a, TAV_WHITE);
    tav_session_resign(b, TAV_WHITE);
    char *ra = tav_session_record(a, TAV_SPECTATOR, "w", "b");
    char *rb = tav_session_record(b, TAV_SPECTATOR, "w", "b");
    check(ra && rb && strcmp(ra, rb) != 0 && strstr(ra, "WhiteStack"),
          "toscana: finished records show the deals");
    free(ra);
    free(rb);
    tav_session_free(a);
    tav_session_free(b);
}
