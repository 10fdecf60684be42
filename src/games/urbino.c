/*
 * urbino.c — placeholder until the game lands: newgame answers an error.
 */
#include "core/core.h"
#include "games.h"

typedef struct { int dummy; } urbino_state;

static int urbino_init(void *st, const char *options, char *err, size_t errlen)
{
    (void)st; (void)options;
    tav_bprintf(err, errlen, "urbino is not implemented yet");
    return -1;
}
static int urbino_legal(const void *st, tav_move *out) { (void)st; (void)out; return 0; }
static void urbino_play(void *st, tav_move m) { (void)st; (void)m; }
static int urbino_to_move(const void *st) { (void)st; return TAV_NONE; }
static void urbino_result(const void *st, tav_result *r) { (void)st; r->over = 1; r->winner = TAV_DRAW; r->score[0] = r->score[1] = 0; }
static int urbino_move_str(const void *st, tav_move m, char *buf, size_t n) { (void)st; (void)m; return (int)tav_bprintf(buf, n, "?"); }
static uint64_t urbino_hash(const void *st) { (void)st; return 0; }
static void urbino_view(const void *st, tav_view *v) { (void)st; v->width = v->height = 0; }
static int urbino_set_position(void *st, const char *text, char *err, size_t errlen) { (void)st; (void)text; tav_bprintf(err, errlen, "not implemented"); return -1; }
static int urbino_get_position(const void *st, char *buf, size_t n) { (void)st; tav_bprintf(buf, n, "?"); return 0; }

const tav_game urbino_game = {
    .name = "urbino",
    .state_size = sizeof(urbino_state),
    .max_moves = 1,
    .init = urbino_init,
    .legal = urbino_legal,
    .play = urbino_play,
    .to_move = urbino_to_move,
    .result = urbino_result,
    .move_str = urbino_move_str,
    .hash = urbino_hash,
    .view = urbino_view,
    .set_position = urbino_set_position,
    .get_position = urbino_get_position,
};
