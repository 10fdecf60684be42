/*
 * session_play.c — random games through the session against the raw table, errors and
 * refusals, board views.
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

/* One random game of g/options through a session and the raw table at once. */
void random_game(const tav_game *g, const char *options, uint64_t seed)
{
    char err[256];
    tav_session *s;
    tav_status st = tav_session_new(&s, g->name, options, seed, err, sizeof err);
    check(st == TAV_OK, "%s [%s]: new: %s", g->name, options, err);
    if (st != TAV_OK)
        return;
    unsigned char *raw = malloc(g->state_size);
    tav_move *list = malloc(sizeof *list * (size_t)g->max_moves);
    tav_move *list2 = malloc(sizeof *list2 * (size_t)g->max_moves);
    tav_board_view *v = malloc(sizeof *v);
    check(tav_game_setup(g, raw, options, seed, err, sizeof err) == TAV_OK, "%s: setup", g->name);
    tav_rng rng;
    tav_rng_seed(&rng, seed * 7 + 3);
    int bad = 0, ply = 0;
    for (; ply < 5000 && !bad; ply++) {
        if (memcmp(raw, tav_session_state(s), g->state_size) != 0 ||
            tav_session_ply(s) != ply || g->to_move(raw) != tav_session_to_move(s)) {
            check(0, "%s [%s] seed %llu ply %d: session and table disagree", g->name, options,
                  (unsigned long long)seed, ply);
            bad = 1;
            break;
        }
        tav_result r1, r2;
        g->result(raw, &r1);
        tav_session_result(s, &r2);
        if (memcmp(&r1, &r2, sizeof r1) != 0) {
            check(0, "%s ply %d: results disagree", g->name, ply);
            bad = 1;
        }
        int tm = g->to_move(raw);
        int n = g->legal(raw, list);
        for (int k = 0; k < 3; k++) {
            int nv = tav_session_legal(s, viewers[k], list2);
            int want = viewers[k] == tm ? n : 0;
            if (nv != want || (nv && memcmp(list, list2, sizeof *list * (size_t)n) != 0)) {
                check(0, "%s ply %d: viewer %d sees %d moves, expected %d", g->name, ply,
                      viewers[k], nv, want);
                bad = 1;
            }
            if (tav_session_view(s, ply, viewers[k], v) != TAV_OK || v->width <= 0 ||
                v->height <= 0 || v->to_move != tm) {
                check(0, "%s ply %d: view for viewer %d", g->name, ply, viewers[k]);
                bad = 1;
            }
            /* Why it ended: said once it is over, to everyone, naming the
             * result; nothing while it runs. */
            const char *want_end = r1.winner == TAV_WHITE   ? "White wins."
                                   : r1.winner == TAV_BLACK ? "Black wins."
                                                            : "a draw.";
            if (!r1.over ? v->end[0] != 0
                         : !strstr(v->end, want_end) || strlen(v->end) < 30) {
                check(0, "%s ply %d: view's end for viewer %d: '%s'", g->name, ply,
                      viewers[k], v->end);
                bad = 1;
            }
        }
        if (ply > 0 && strcmp(v->last_move, tav_session_move_text(s, ply - 1)) != 0) {
            check(0, "%s ply %d: view's last move '%s'", g->name, ply, v->last_move);
            bad = 1;
        }
        if (tm == TAV_NONE)
            break;
        tav_move m = list[tav_rng_below(&rng, (uint32_t)n)];
        char text[TAV_MOVE_TEXT];
        tav_session_move_str(s, m, text, sizeof text);
        /* Now and then: undo and play again, or play by value. */
        if (ply % 7 == 3) {
            st = tav_session_play(s, m);
        } else {
            st = tav_session_play_text(s, text, err, sizeof err);
        }
        if (st != TAV_OK) {
            check(0, "%s ply %d: play '%s': %s", g->name, ply, text, err);
            bad = 1;
            break;
        }
        if (strcmp(tav_session_move_text(s, ply), text) != 0) {
            check(0, "%s ply %d: move text '%s' kept as '%s'", g->name, ply, text,
                  tav_session_move_text(s, ply));
            bad = 1;
        }
        if (ply % 11 == 5) {
            if (tav_session_undo(s) != TAV_OK ||
                memcmp(raw, tav_session_state(s), g->state_size) != 0 ||
                tav_session_play_text(s, text, err, sizeof err) != TAV_OK) {
                check(0, "%s ply %d: undo and replay", g->name, ply);
                bad = 1;
            }
        }
        g->play(raw, m);
        tav_session_set_move_ms(s, ply, ply * 10 + 1);
    }
    check(!bad, "%s [%s] seed %llu: %d plies agree", g->name, options, (unsigned long long)seed,
          ply);

    /* History: every state_at and its move replay. */
    int okh = tav_session_state_at(s, -1) == NULL && tav_session_state_at(s, ply + 1) == NULL &&
              tav_session_move_text(s, ply) == NULL;
    for (int i = 0; i < tav_session_ply(s) && okh; i++)
        okh = tav_session_move_ms(s, i) == i * 10 + 1;
    check(okh, "%s: history bounds and move times", g->name);
    /* Clone. */
    tav_session *c = tav_session_clone(s);
    check(c && tav_session_ply(c) == tav_session_ply(s) &&
              memcmp(tav_session_state(c), tav_session_state(s), g->state_size) == 0 &&
              strcmp(tav_session_options(c), options) == 0 && tav_session_seed(c) == seed,
          "%s: clone", g->name);
    /* Finished: more moves are refused, the record replays exactly. */
    if (tav_session_to_move(s) == TAV_NONE)
        check(tav_session_play_text(c, "a1", err, sizeof err) == TAV_E_OVER,
              "%s: play after end", g->name);
    char *rec = tav_session_record(s, TAV_SPECTATOR, "w", "b");
    check(rec != NULL, "%s: record", g->name);
    if (rec) {
        tav_session *r;
        st = tav_session_from_record(&r, rec, strlen(rec), err, sizeof err);
        check(st == TAV_OK, "%s [%s]: record does not replay: %s\n%s", g->name, options, err, rec);
        if (st == TAV_OK) {
            check(tav_session_ply(r) == tav_session_ply(s) &&
                      memcmp(tav_session_state(r), tav_session_state(s), g->state_size) == 0,
                  "%s: record replays to another state", g->name);
            /* The replayed session writes a record that replays to itself. */
            char *rec2 = tav_session_record(r, TAV_WHITE, "w", "b");
            tav_session *r2 = NULL;
            char *rec3 = NULL;
            if (rec2 && tav_session_from_record(&r2, rec2, strlen(rec2), err, sizeof err) ==
                            TAV_OK)
                rec3 = tav_session_record(r2, TAV_BLACK, "w", "b");
            check(rec3 && strcmp(rec2, rec3) == 0, "%s: record round trip\n%s\n---\n%s",
                  g->name, rec2 ? rec2 : "", rec3 ? rec3 : "");
            tav_session_free(r2);
            free(rec2);
            free(rec3);
            /* Undo all the way back to the start. */
            int k = 0;
            while (tav_session_undo(r) == TAV_OK)
                k++;
            check(k == ply && memcmp(tav_session_state(r), tav_session_state_at(s, 0),
                                     g->state_size) == 0,
                  "%s: undo to the start", g->name);
            tav_session_free(r);
        }
        free(rec);
    }
    tav_session_free(c);
    tav_session_free(s);
    free(raw);
    free(list);
    free(list2);
    free(v);
}


/* Errors, refusals, resignation, options. */
void errors(void)
{
    char err[256] = "";
    tav_session *s = NULL;
    check(tav_session_new(&s, "chess", "", 1, err, sizeof err) == TAV_E_INVALID && !s &&
              strstr(err, "unknown game"),
          "unknown game: '%s'", err);
    check(tav_session_new(&s, "urbino", "colour=red", 1, err, sizeof err) == TAV_E_INVALID && !s,
          "bad option refused");
    check(tav_session_new(&s, "toscana", "seed=x", 1, err, sizeof err) == TAV_E_INVALID,
          "bad seed refused");
    check(tav_session_from_position(&s, "epaminondas", "nonsense", err, sizeof err) ==
              TAV_E_INVALID,
          "bad position refused");
    check(tav_session_from_record(&s, "[Game \"urbino\"]\n1. zz9\n", 22, err, sizeof err) ==
              TAV_E_INVALID && strstr(err, "line 2"),
          "bad record refused: '%s'", err);
    if (tav_session_new(&s, "epaminondas", "", 1, err, sizeof err) != TAV_OK) {
        check(0, "epaminondas: %s", err);
        return;
    }
    const tav_game *g = tav_session_game(s);
    unsigned char *before = malloc(g->state_size);
    memcpy(before, tav_session_state(s), g->state_size);
    check(tav_session_undo(s) == TAV_E_NOTFOUND, "undo at the start");
    check(tav_session_play_text(s, "", err, sizeof err) == TAV_E_INVALID, "empty move");
    check(tav_session_play_text(s, "a1 a2", err, sizeof err) == TAV_E_INVALID, "blank in a move");
    check(tav_session_play_text(s, "zzzzzz", err, sizeof err) == TAV_E_ILLEGAL, "illegal move");
    tav_move list[TAV_MAX_MOVES];
    int n = tav_session_legal(s, TAV_WHITE, list);
    char text[TAV_MOVE_TEXT], upper[TAV_MOVE_TEXT];
    tav_session_move_str(s, list[0], text, sizeof text);
    for (int i = 0; i < TAV_MOVE_TEXT; i++)
        upper[i] = text[i] >= 'a' && text[i] <= 'z' ? (char)(text[i] - 32) : text[i];
    check(tav_session_play_text(s, upper, err, sizeof err) == TAV_E_ILLEGAL &&
              strstr(err, "did you mean") && strstr(err, text),
          "case near miss: '%s'", err);
    check(n > 0 && tav_session_play(s, 0xffffffffu) == TAV_E_ILLEGAL, "bad move value");
    check(tav_session_ply(s) == 0 && memcmp(before, tav_session_state(s), g->state_size) == 0,
          "refusals change nothing");
    check(tav_session_resign(s, 5) == TAV_E_INVALID, "resign a bad side");
    check(tav_session_play_text(s, text, err, sizeof err) == TAV_OK, "play %s", text);
    check(tav_session_resign(s, TAV_BLACK) == TAV_OK && tav_session_resigned(s) == TAV_BLACK &&
              tav_session_to_move(s) == TAV_NONE,
          "resign");
    tav_result r;
    tav_session_result(s, &r);
    check(r.over && r.winner == TAV_WHITE, "resigned game won by the other side");
    check(tav_session_legal(s, TAV_BLACK, list) == 0, "no moves after resigning");
    check(tav_session_play_text(s, text, err, sizeof err) == TAV_E_OVER &&
              tav_session_resign(s, TAV_WHITE) == TAV_E_OVER,
          "nothing after resigning");
    tav_board_view *v = malloc(sizeof *v);
    check(tav_session_view(s, 1, TAV_SPECTATOR, v) == TAV_OK && v->to_move == TAV_NONE &&
              strcmp(v->phase, "over") == 0 && strcmp(v->last_move, text) == 0,
          "resigned view");
    check(tav_session_view(s, 2, TAV_SPECTATOR, v) == TAV_E_NOTFOUND &&
              tav_session_view(s, 0, 7, v) == TAV_E_INVALID,
          "view outside the history");
    char *rec = tav_session_record(s, TAV_WHITE, "a", "b");
    check(rec && strstr(rec, "[Event \"black resigned\"]") && strstr(rec, "1. "),
          "resigned record:\n%s", rec ? rec : "");
    free(rec);
    check(tav_session_undo(s) == TAV_OK && tav_session_resigned(s) == TAV_NONE &&
              tav_session_ply(s) == 1,
          "undo takes back the resignation first");
    check(tav_session_undo(s) == TAV_OK && tav_session_ply(s) == 0, "undo the move");
    char pos[TAV_POSITION_TEXT];
    check(tav_session_position(s, TAV_SPECTATOR, pos, sizeof pos) == TAV_OK, "position");
    tav_session *p;
    check(tav_session_from_position(&p, "epaminondas", pos, err, sizeof err) == TAV_OK &&
              memcmp(tav_session_state(p), tav_session_state(s), g->state_size) == 0,
          "from_position");
    check(tav_session_play_text(p, text, err, sizeof err) == TAV_OK &&
              tav_session_set_position(p, "nonsense", err, sizeof err) == TAV_E_INVALID &&
              tav_session_ply(p) == 1,
          "set_position refuses bad text, changing nothing");
    check(tav_session_set_position(p, pos, err, sizeof err) == TAV_OK && tav_session_ply(p) == 0 &&
              memcmp(tav_session_state(p), tav_session_state(s), g->state_size) == 0,
          "set_position restarts the history");
    tav_session_free(p);
    check(strcmp(tav_status_str(TAV_E_ILLEGAL), "illegal move") == 0, "status names");
    free(v);
    free(before);
    tav_session_free(s);

    /* Public options: Toscana's deal stays secret until the end. */
    char buf[512];
    if (tav_session_new(&s, "toscana", "seed=5", 9, err, sizeof err) == TAV_OK) {
        tav_session_public_options(s, buf, sizeof buf);
        check(buf[0] == '\0', "toscana public options '%s'", buf);
        tav_session_resign(s, TAV_WHITE);
        tav_session_public_options(s, buf, sizeof buf);
        check(strcmp(buf, "seed=5") == 0, "toscana options once over '%s'", buf);
        tav_session_free(s);
    }
    if (tav_session_new(&s, "urbino", "variant=monuments", 9, err, sizeof err) == TAV_OK) {
        tav_session_public_options(s, buf, sizeof buf);
        check(strcmp(buf, "variant=monuments") == 0, "urbino public options '%s'", buf);
        tav_session_free(s);
    }
    /* The seed deals Toscana's stacks; seed= overrides it. */
    tav_session *a, *b;
    tav_session_new(&a, "toscana", "", 12345, err, sizeof err);
    tav_session_new(&b, "toscana", "seed=12345", 1, err, sizeof err);
    check(a && b && memcmp(tav_session_state(a), tav_session_state(b),
                           tav_session_game(a)->state_size) == 0,
          "toscana: the session seed deals like seed=");
    tav_session_free(b);
    tav_session_new(&b, "toscana", "", 12346, err, sizeof err);
    check(b && memcmp(tav_session_state(a), tav_session_state(b),
                      tav_session_game(a)->state_size) != 0,
          "toscana: another seed, another deal");
    tav_session_free(a);
    tav_session_free(b);
}

/* The board view's content per game, at the start and after a few moves. */
void views(void)
{
    char err[256];
    tav_board_view *v = malloc(sizeof *v);
    tav_session *s;
    /* Epaminondas: 28 pieces a side on the two home-most rows, home rows marked. */
    tav_session_new(&s, "epaminondas", "", 1, err, sizeof err);
    tav_session_view(s, 0, TAV_SPECTATOR, v);
    int n[2] = {0, 0};
    for (int i = 0; i < v->width * v->height; i++)
        if (v->sq[i].kind == 'M')
            n[v->sq[i].owner]++;
    check(v->width == 14 && v->height == 12 && n[0] == 28 && n[1] == 28 &&
              v->side[0].on_board == 28 && v->side[1].captured == 0 &&
              (v->sq[0].marks & TAV_MARK_HOME_W) && (v->sq[11 * 14].marks & TAV_MARK_HOME_B) &&
              strcmp(v->phase, "play") == 0 && v->to_move == TAV_WHITE,
          "epaminondas view");
    tav_session_free(s);
    /* Urbino: architects neutral, supplies, lots, districts. */
    tav_session_new(&s, "urbino", "", 1, err, sizeof err);
    tav_session_view(s, 0, TAV_SPECTATOR, v);
    check(strcmp(v->phase, "setup") == 0 && v->side[0].nitems == 3 &&
              v->side[0].item[0].kind == 'H' && v->side[0].item[0].count == 18 &&
              v->side[1].item[2].kind == 'T' && v->side[1].item[2].count == 3,
          "urbino start view");
    const char *moves[] = {"Ae5", "Ae7", "first:white", "Hd6", "Hf6"};
    for (int i = 0; i < 5; i++)
        check(tav_session_play_text(s, moves[i], err, sizeof err) == TAV_OK, "urbino %s: %s",
              moves[i], err);
    tav_session_view(s, 5, TAV_BLACK, v);
    int lots = 0;
    for (int i = 0; i < 81; i++)
        lots += (v->sq[i].marks & TAV_MARK_LOT) != 0;
    check(v->sq[4 * 9 + 4].kind == 'A' && v->sq[4 * 9 + 4].owner == TAV_DRAW &&
              v->sq[5 * 9 + 3].kind == 'H' && v->sq[5 * 9 + 3].owner == TAV_WHITE &&
              v->sq[5 * 9 + 3].region >= 1 && v->sq[5 * 9 + 5].owner == TAV_BLACK &&
              (v->sq[5 * 9 + 5].marks & TAV_MARK_LAST) && v->nregions == 2 &&
              v->side[0].item[0].count == 17 && v->side[0].on_board == 1 && lots > 0 &&
              strcmp(v->phase, "play") == 0 && strcmp(v->last_move, "Hf6") == 0,
          "urbino view after 5 moves (%d regions, %d lots)", v->nregions, lots);
    tav_session_free(s);
    /* Urbino Monuments: three white houses in a row are a counted monument. */
    const char *mon = ".........\n.........\n....A....\n.........\n....A....\n.........\n"
                      ".........\n.........\nHHHh.....\nphase=play\ntomove=black\npasses=0\n"
                      "variant=monuments\n";
    check(tav_session_from_position(&s, "urbino", mon, err, sizeof err) == TAV_OK,
          "urbino monuments position: %s", err);
    if (s) {
        tav_session_view(s, 0, TAV_SPECTATOR, v);
        check((v->sq[0].marks & TAV_MARK_MONUMENT) && (v->sq[2].marks & TAV_MARK_MONUMENT) &&
                  !(v->sq[3].marks & TAV_MARK_MONUMENT) && v->nregions == 1 &&
                  v->region[0].value[0] == 6 && v->region[0].value[1] == 1 &&
                  v->region[0].scorer == TAV_WHITE && v->region[0].points == 6 &&
                  v->sq[3].region == 1 && v->side[0].score == 6,
              "urbino monument marks and district (%d regions, %d:%d)", v->nregions,
              v->region[0].value[0], v->region[0].value[1]);
        tav_session_free(s);
    }
    /* Cathedral: the Cathedral waits in white's hand (classic), black's (late). */
    tav_session_new(&s, "cathedral", "", 1, err, sizeof err);
    tav_session_view(s, 0, TAV_WHITE, v);
    check(v->side[0].nitems == 12 && v->side[0].item[0].kind == 'Y' &&
              v->side[0].item[0].ncells == 6 && v->side[1].nitems == 11 &&
              v->side[1].item[0].kind == 'T' && v->side[1].item[0].count == 2 &&
              v->side[1].item[0].ncells == 1 && strcmp(v->phase, "cathedral") == 0,
          "cathedral start view");
    tav_move list[TAV_MAX_MOVES];
    int nm = tav_session_legal(s, TAV_WHITE, list);
    tav_session_play(s, list[nm / 2]);
    nm = tav_session_legal(s, tav_session_to_move(s), list);
    tav_session_play(s, list[nm / 2]);
    tav_session_view(s, 2, TAV_SPECTATOR, v);
    int y = 0, pieces[64] = {0};
    for (int i = 0; i < 100; i++) {
        y += v->sq[i].kind == 'Y' && v->sq[i].owner == TAV_DRAW;
        if (v->sq[i].piece < 64)
            pieces[v->sq[i].piece]++;
    }
    check(y == 6 && pieces[1] == 6 && v->side[0].nitems == 11 && v->side[0].on_board +
              v->side[1].on_board == 1,
          "cathedral view after the Cathedral and a building");
    tav_session_free(s);
    tav_session_new(&s, "cathedral", "opening=late", 1, err, sizeof err);
    tav_session_view(s, 0, TAV_WHITE, v);
    check(v->side[1].item[0].kind == 'Y' && v->side[0].item[0].kind == 'T', "cathedral late view");
    tav_session_free(s);
    /* Cathedral captures (docs/rules/cathedral.md's example, PerGioco #33): black's
     * I:d2,e1,e2 closes a region holding white's Stable alone; the Stable goes back
     * to white's hand and the view counts it as captured, at that ply and after. */
    static const char cap[] = "..........\n..........\n..........\n..........\n..........\n"
                              ".......CCC\nbbbs..BCYC\nS..s..BYYY\nS.....B.Y.\n........Y.\n"
                              "opening=classic\ntomove=black\ncathedral=board\nbuilt=both\n"
                              "passes=0\nlast=none\n";
    check(tav_session_from_position(&s, "cathedral", cap, err, sizeof err) == TAV_OK,
          "cathedral capture position: %s", err);
    if (s) {
        tav_session_view(s, 0, TAV_SPECTATOR, v);
        int before_w = v->side[0].on_board, stables = 0;
        for (int k = 0; k < v->side[0].nitems; k++)
            stables += v->side[0].item[k].kind == 'S' ? v->side[0].item[k].count : 0;
        check(v->side[0].captured == 0 && v->side[1].captured == 0 && stables == 1,
              "cathedral: nothing captured yet (%d:%d)", v->side[0].captured, v->side[1].captured);
        check(tav_session_play_text(s, "I:d2,e1,e2", err, sizeof err) == TAV_OK,
              "cathedral: black captures the Stable: %s", err);
        tav_session_view(s, 1, TAV_SPECTATOR, v);
        int stables2 = 0, a1 = v->sq[0].kind, a2 = v->sq[10].kind;
        for (int k = 0; k < v->side[0].nitems; k++)
            stables2 += v->side[0].item[k].kind == 'S' ? v->side[0].item[k].count : 0;
        const tav_game *cg = tav_game_find("cathedral");
        char hand[64] = "";
        cg->probe(tav_session_state(s), "hand white", hand, sizeof hand);
        check(v->side[0].captured == 1 && v->side[1].captured == 0 &&
                  v->side[0].on_board == before_w - 1 && stables2 == 2 && strchr(hand, 'S') &&
                  strchr(hand, 'S') != strrchr(hand, 'S') && a1 != 'S' && a2 != 'S' &&
                  (v->sq[0].marks & TAV_MARK_TERR_B),
              "cathedral: the captured Stable is counted (%d:%d), back in white's hand (%s)",
              v->side[0].captured, v->side[1].captured, hand);
        /* The count survives the position text, and the view of ply 0 still says 0. */
        char pos[TAV_POSITION_TEXT];
        tav_session_position(s, TAV_SPECTATOR, pos, sizeof pos);
        tav_session *t = NULL;
        check(strstr(pos, "\nlost=1:0\n") && tav_session_from_position(&t, "cathedral", pos, err,
                                                                        sizeof err) == TAV_OK,
              "cathedral: lost=1:0 in the position text: %s", err);
        if (t) {
            tav_session_view(t, 0, TAV_SPECTATOR, v);
            check(v->side[0].captured == 1, "cathedral: captured count from the position text");
            tav_session_free(t);
        }
        tav_session_view(s, 0, TAV_SPECTATOR, v);
        check(v->side[0].captured == 0, "cathedral: the view of the ply before the capture");
        tav_session_free(s);
    }
    /* Toscana: the visible top with its frame, the stack size, the centre. */
    tav_session_new(&s, "toscana", "white=07,01,02,03,04,05,06,12,13,14,15,16,23,24,25,34", 1,
                    err, sizeof err);
    tav_session_view(s, 0, TAV_BLACK, v);
    const tav_hand_item *it = &v->side[0].item[0];
    check(v->side[0].nitems == 1 && it->kind == 'S' && strcmp(it->id, "07") == 0 &&
              it->ncells == 8 && it->offcolour[0] && it->offcolour[7] && !it->offcolour[3] &&
              it->cell[0][1] == 1 && it->cell[7][0] == 3 && it->cell[7][1] == 0 &&
              v->side[0].stack == 16 && v->side[0].veto == 1 &&
              (v->sq[8 * 17 + 8].marks & TAV_MARK_CENTRE),
          "toscana start view");
    while (tav_session_ply(s) < 3) {
        nm = tav_session_legal(s, tav_session_to_move(s), list);
        tav_session_play(s, list[0]);
    }
    tav_session_view(s, 3, TAV_SPECTATOR, v);
    int cov = 0, last = 0;
    for (int i = 0; i < 289; i++) {
        cov += v->sq[i].kind == 'L' || v->sq[i].kind == 'D';
        last += (v->sq[i].marks & TAV_MARK_LAST) != 0;
    }
    check(cov % 8 == 0 && cov > 0 && last == 8 && v->nregions == 2 &&
              v->side[0].on_board + v->side[1].on_board == cov / 8,
          "toscana view after 3 moves (%d squares covered)", cov);
    tav_session_free(s);
    free(v);
}
