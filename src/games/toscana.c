/*
 * toscana.c — placeholder until the game lands: newgame answers an error.
 */
#include "core/core.h"
#include "games.h"

typedef struct { int dummy; } toscana_state;

static int toscana_init(void *st, const char *options, char *err, size_t errlen)
{
    (void)st; (void)options;
    tav_bprintf(err, errlen, "toscana is not implemented yet");
    return -1;
}
static int toscana_legal(const void *st, tav_move *out) { (void)st; (void)out; return 0; }
static void toscana_play(void *st, tav_move m) { (void)st; (void)m; }
static int toscana_to_move(const void *st) { (void)st; return TAV_NONE; }
static void toscana_result(const void *st, tav_result *r) { (void)st; r->over = 1; r->winner = TAV_DRAW; r->score[0] = r->score[1] = 0; }
static int toscana_move_str(const void *st, tav_move m, char *buf, size_t n) { (void)st; (void)m; return (int)tav_bprintf(buf, n, "?"); }
static uint64_t toscana_hash(const void *st) { (void)st; return 0; }
static void toscana_view(const void *st, tav_view *v) { (void)st; v->width = v->height = 0; }
static int toscana_set_position(void *st, const char *text, char *err, size_t errlen) { (void)st; (void)text; tav_bprintf(err, errlen, "not implemented"); return -1; }
static int toscana_get_position(const void *st, char *buf, size_t n) { (void)st; tav_bprintf(buf, n, "?"); return 0; }

const tav_game toscana_game = {
    .name = "toscana",
    .state_size = sizeof(toscana_state),
    .max_moves = 1,
    .init = toscana_init,
    .legal = toscana_legal,
    .play = toscana_play,
    .to_move = toscana_to_move,
    .result = toscana_result,
    .move_str = toscana_move_str,
    .hash = toscana_hash,
    .view = toscana_view,
    .set_position = toscana_set_position,
    .get_position = toscana_get_position,
};
