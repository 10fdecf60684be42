/*
 * epaminondas.c — placeholder until the game lands: newgame answers an error.
 */
#include "core/core.h"
#include "games.h"

typedef struct { int dummy; } epaminondas_state;

static int epaminondas_init(void *st, const char *options, char *err, size_t errlen)
{
    (void)st; (void)options;
    tav_bprintf(err, errlen, "epaminondas is not implemented yet");
    return -1;
}
static int epaminondas_legal(const void *st, tav_move *out) { (void)st; (void)out; return 0; }
static void epaminondas_play(void *st, tav_move m) { (void)st; (void)m; }
static int epaminondas_to_move(const void *st) { (void)st; return TAV_NONE; }
static void epaminondas_result(const void *st, tav_result *r) { (void)st; r->over = 1; r->winner = TAV_DRAW; r->score[0] = r->score[1] = 0; }
static int epaminondas_move_str(const void *st, tav_move m, char *buf, size_t n) { (void)st; (void)m; return (int)tav_bprintf(buf, n, "?"); }
static uint64_t epaminondas_hash(const void *st) { (void)st; return 0; }
static void epaminondas_view(const void *st, tav_view *v) { (void)st; v->width = v->height = 0; }
static int epaminondas_set_position(void *st, const char *text, char *err, size_t errlen) { (void)st; (void)text; tav_bprintf(err, errlen, "not implemented"); return -1; }
static int epaminondas_get_position(const void *st, char *buf, size_t n) { (void)st; tav_bprintf(buf, n, "?"); return 0; }

const tav_game epaminondas_game = {
    .name = "epaminondas",
    .state_size = sizeof(epaminondas_state),
    .max_moves = 1,
    .init = epaminondas_init,
    .legal = epaminondas_legal,
    .play = epaminondas_play,
    .to_move = epaminondas_to_move,
    .result = epaminondas_result,
    .move_str = epaminondas_move_str,
    .hash = epaminondas_hash,
    .view = epaminondas_view,
    .set_position = epaminondas_set_position,
    .get_position = epaminondas_get_position,
};
