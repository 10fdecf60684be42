/*
 * json.h — the library's JSON writer (json.c), shared by the game server's
 * edge and the WebAssembly surface: a buffer that grows, and the drawing
 * view of a game as docs/server-api.md shows it.  Internal (tavi_).
 */
#ifndef TAV_SESSION_JSON_H
#define TAV_SESSION_JSON_H

#include <stddef.h>
#include <stdint.h>

#include "tavoliere_game.h"
#include "tavoliere_session.h"

/* A growing text; `failed` once memory ran out (then every write is a no-op). */
typedef struct tavi_jbuf {
    char *p;
    size_t len, cap;
    int failed;
} tavi_jbuf;

#define TAVI_JB_LIT(b, lit) tavi_jb_raw((b), (lit), sizeof(lit) - 1)

int tavi_utf8_seq(const unsigned char *s);
const char *tavi_json_side_name(int side);
void tavi_jb_grow(tavi_jbuf *b, size_t more);
void tavi_jb_raw(tavi_jbuf *b, const char *t, size_t n);
void tavi_jb_ch(tavi_jbuf *b, char c);
void tavi_jb_int(tavi_jbuf *b, long v);
void tavi_jb_strn(tavi_jbuf *b, const char *t, size_t n);
void tavi_jb_str(tavi_jbuf *b, const char *t);
void tavi_jb_bool(tavi_jbuf *b, int v);
void tavi_jb_square(tavi_jbuf *b, int file, int rank);
void tavi_jb_side_or_null(tavi_jbuf *b, int side);
void tavi_json_view(tavi_jbuf *b, const tav_board_view *v);
void tavi_jb_lit(tavi_jbuf *b, const char *t);
void tavi_jb_u64(tavi_jbuf *b, uint64_t v);
void tavi_jb_num(tavi_jbuf *b, double v);
char *tavi_jb_done(tavi_jbuf *b);
/* `"legal":[...],"legalGroups":[...]`: viewer's legal moves, in groups of
 * the same parts (docs/server-api.md; the server's game and tw_game). */
void tavi_json_legal(tavi_jbuf *b, const tav_session *s, int viewer);
/* The game object's opening fields, written once for the server's game
 * (json_game) and the page's engine (tw_game): `"game":..,"options":..`,
 * and the state as viewer sees it with the result r (moves, tomove, over,
 * winner, score, legal, legalGroups, ply, seat, resigned). */
void tavi_json_game_head(tavi_jbuf *b, const tav_session *s);
void tavi_json_state(tavi_jbuf *b, const tav_session *s, const tav_result *r, int viewer);
/* The meta answer (/api/meta, the page engine's tw_meta). */
void tavi_json_meta(tavi_jbuf *b);

#endif
