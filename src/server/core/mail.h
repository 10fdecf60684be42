/*
 * mail.h — the core's own side of e-mail (mail.c; its face to the edge is
 * core.h's "e-mail" block): what happened, queued for whom.
 *
 * E-mail for players whose tab is closed: an address
 * verified by a link, a switch per kind of message, a daily digest, an
 * unsubscribe link in every mail, at most MAIL_PER_HOUR mails an hour.
 * The mails wait in the store (mail_queue) until a worker thread with its
 * own connection sends them through libcurl's SMTP; with several instances
 * an account's queue is worked by the one holding its claim ("mail NAME").
 */
#ifndef SERVER_CORE_MAIL_H
#define SERVER_CORE_MAIL_H

#include "server/core/core.h"

/* What happened, for whom (queued with the open batch: on disk with it). */
void mail_turn(core *C, game *g);      /* a correspondence game: the side to move's turn */
void mail_challenge(core *C, const char *to, const char *by, const char *game_name,
                    const char *seek_id);
/* A tournament starts for `name` (tournaments.c, in the batch that starts it). */
void core_mail_tournament(core *C, const char *name, const char *tournament_id,
                          const char *title);

#endif
