/*
 * session_test.h — what the session API's test files share: the check
 * counter (test_session.c) and each topic's entry points.
 */
#ifndef TESTS_SESSION_TEST_H
#define TESTS_SESSION_TEST_H

#include <stdint.h>

#include "tavoliere.h"
#include "tavoliere_session.h"

/* Count a check; print the first 30 failures. */
void check(int ok, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* White, black and a spectator. */
extern const int viewers[3];

/* session_play.c */
void errors(void);
void random_game(const tav_game *g, const char *options, uint64_t seed);
void views(void);
/* session_parts.c */
int on_board(const int8_t sq[2], const tav_board_view *v);
void parts_game(const tav_game *g, const char *options, uint64_t seed);
/* session_fuzz.c */
void fuzz(const tav_game *g, uint64_t seed);
/* session_hidden.c */
void hidden(uint64_t seed);
/* session_utf8.c */
void messages_utf8(const tav_game *g, uint64_t seed);
void utf8_validator(void);
/* session_own.c */
void end_reasons(void);
void own_game(void);
void play_as(void);
void statuses(void);

#endif
