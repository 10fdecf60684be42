/*
 * cathedral.c — placeholder until the game lands: newgame answers an error.
 */
#include "core/core.h"
#include "games.h"

typedef struct { int dummy; } cathedral_state;

static int cathedral_init(void *st, const char *options, char *err, size_t errlen)
{
    (void)st; (void)options;
    tav_bprintf(err, errlen, "cathedral is not implemented yet");
    return -1;
}
static int cathedral_legal(const void *st, tav_move *out) { (void)st; (void)out; return 0; }
static void cathedral_play(void *st, tav_move m) { (void)st; (void)m; }
static int cathedral_to_move(const void *st) { (void)st; return TAV_NONE; }
static void cathedral_result(const void *st, tav_result *r) { (void)st; r->over = 1; r->winner = TAV_DRAW; r->score[0] = r->score[1] = 0; }
static int cathedral_move_str(const void *st, tav_move m, char *buf, size_t n) { (void)st; (void)m; return (int)tav_bprintf(buf, n, "?"); }
static uint64_t cathedral_hash(const void *st) { (void)st; return 0; }
static void cathedral_view(const void *st, tav_view *v) { (void)st; v->width = v->height = 0; }
static int cathedral_set_position(void *st, const char *text, char *err, size_t errlen) { (void)st; (void)text; tav_bprintf(err, errlen, "not implemented"); return -1; }
static int cathedral_get_position(const void *st, char *buf, size_t n) { (void)st; tav_bprintf(buf, n, "?"); return 0; }

const tav_game cathedral_game = {
    .name = "cathedral",
    .state_size = sizeof(cathedral_state),
    .max_moves = 1,
    .init = cathedral_init,
    .legal = cathedral_legal,
    .play = cathedral_play,
    .to_move = cathedral_to_move,
    .result = cathedral_result,
    .move_str = cathedral_move_str,
    .hash = cathedral_hash,
    .view = cathedral_view,
    .set_position = cathedral_set_position,
    .get_position = cathedral_get_position,
};
