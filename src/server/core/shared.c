/*
 * shared.c — many instances on one database.
 *
 * When the store is shared (PostgreSQL), any number of `tavoliere serve`
 * processes serve the same games.  The database is the truth: a move is a
 * row keyed by its game and ply, so of two instances storing the same ply
 * one wins (writer.c).  What one instance commits it also tells the others
 * through the store's messages (LISTEN/NOTIFY), sent with the batch:
 *
 *   tav_game   "INSTANCE ID"                game ID changed (read it again)
 *   tav_game   "INSTANCE ID m ..."          ... by these moves alone (writer.c)
 *   tav_game   "INSTANCE ID want"           the players of ID ask INSTANCE,
 *              "INSTANCE ID yield"          ... which the holder of its claim
 *                                           gives way to (owner.c)
 *   tav_lobby  "INSTANCE seeks"             the open seeks changed
 *   tav_lobby  "INSTANCE rated"             a rated game ended there: the seeks
 *                                           (and their owners' ratings) are read again
 *   tav_lobby  "INSTANCE started BY ID"     BY's seek became game ID
 *   tav_lobby  "INSTANCE here BY"           BY has a lobby socket there (their
 *                                           seeks do not lapse)
 *   tav_lobby  "INSTANCE declined BY ID TO WHY" TO declined BY's challenge ID
 *                                           (WHY: core_decline_reason_ok)
 *   tav_lobby  "INSTANCE bot start NAME ID" bot NAME's game ID began (bot
 *              "INSTANCE bot finish NAME ID" ... ended: its event sockets)
 *   tav_account "INSTANCE fail NAME ADDR"   a sign-in of NAME from ADDR ("-"
 *                                           none) failed (the limits count
 *                                           every instance's)
 *   tav_account "INSTANCE ok NAME ADDR"     a sign-in of NAME from ADDR succeeded
 *   tav_account "INSTANCE signup ADDR"      an account was made from ADDR
 *
 * This file sits above the rest of the core (games, lobby, accounts): the
 * edge starts it after core_new, calls shared_drain and shared_tick beside
 * core_drain and core_tick, and stops it before core_stop.
 *
 * This file's listener thread holds a connection of its own, waits for
 * those messages and queues them for the loop (qlock), which reads the games
 * again and tells their viewers (core_game_changed_elsewhere).  A lost
 * connection may have lost messages: once connected again it asks the loop
 * to read everything it holds again (catch_up).
 *
 * A game's computer seat is thought for, and its clock judged, by the one
 * instance holding the game's claim (store try_claim: a lock that ends with
 * its connection, so an instance that dies frees its games at once); every
 * CORE_SCAN_MS each instance looks for games nobody looks after and takes
 * them over (core_take_over).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "server/core/internal.h"

struct core_note {
    int lobby;           /* 0 a game, 1 the lobby, 2 accounts */
    char text[CORE_NOTE_LEN];   /* the payload after the instance's name */
    core_note *next;
};

static void note_push(core *C, int lobby, const char *text)
{
    core_note *n = calloc(1, sizeof *n);
    if (!n) {   /* no memory for it: read everything again instead */
        pthread_mutex_lock(&C->qlock);
        C->catch_up = 1;
        pthread_mutex_unlock(&C->qlock);
        return;
    }
    n->lobby = lobby;
    snprintf(n->text, sizeof n->text, "%s", text);
    pthread_mutex_lock(&C->qlock);
    if (C->notes_tail)
        C->notes_tail->next = n;
    else
        C->notes_head = n;
    C->notes_tail = n;
    pthread_mutex_unlock(&C->qlock);
}

/* On the listener thread: one message. */
static void heard(void *ctx, const char *channel, const char *payload)
{
    core *C = ctx;
    size_t k = strlen(C->instance);
    if (strncmp(payload, C->instance, k) == 0 && payload[k] == ' ')
        return;   /* this instance's own: it knows */
    const char *sp = strchr(payload, ' ');
    if (!sp)
        return;
    note_push(C, strcmp(channel, CORE_CH_LOBBY) == 0     ? 1
                 : strcmp(channel, CORE_CH_ACCOUNT) == 0 ? 2
                                                         : 0,
              sp + 1);
}

static int stopping(core *C)
{
    pthread_mutex_lock(&C->qlock);
    int s = C->lstop;
    pthread_mutex_unlock(&C->qlock);
    return s;
}

static void *listener(void *arg)
{
    core *C = arg;
    static const char *const channels[] = {CORE_CH_GAME, CORE_CH_LOBBY, CORE_CH_ACCOUNT};
    store *st = NULL;
    int lost = 0;
    while (!stopping(C)) {
        char err[256];
        if (!st) {
            st = store_open(C->ldb, err, sizeof err);
            if (st && st->ops->listen(st, channels, 3, err, sizeof err) != 0) {
                store_close(st);
                st = NULL;
            }
            if (!st) {
                if (!lost)
                    core_log(C, "error: the listener's connection failed: %s", err);
                lost = 1;
                struct timespec ts = {0, 500 * 1000000L};
                nanosleep(&ts, NULL);
                continue;
            }
            if (lost) {
                core_log(C, "the listener is connected again: reading the games again");
                pthread_mutex_lock(&C->qlock);
                C->catch_up = 1;
                pthread_mutex_unlock(&C->qlock);
            }
            lost = 0;
        }
        int n = st->ops->wait_notify(st, 200, heard, C, err, sizeof err);
        if (n < 0) {
            core_log(C, "error: the listener's connection was lost: %s", err);
            store_close(st);
            st = NULL;
            lost = 1;
            continue;
        }
        if (n > 0 && C->ev.wake)
            C->ev.wake(C->ev.ctx);
    }
    store_close(st);
    return NULL;
}

int shared_start(core *C, const char *db, char *err, size_t errlen)
{
    if (!C->shared || C->lstarted)
        return 0;
    C->ldb = strdup(db);
    if (!C->ldb) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    if (pthread_create(&C->lthread, NULL, listener, C) != 0) {
        snprintf(err, errlen, "the listener thread failed to start");
        return -1;
    }
    C->lstarted = 1;
    return 0;
}

void shared_stop(core *C)
{
    if (C->lstarted) {
        pthread_mutex_lock(&C->qlock);
        C->lstop = 1;
        pthread_mutex_unlock(&C->qlock);
        pthread_join(C->lthread, NULL);
        C->lstarted = 0;
    }
    while (C->notes_head) {
        core_note *n = C->notes_head;
        C->notes_head = n->next;
        free(n);
    }
    C->notes_tail = NULL;
    free(C->ldb);
    C->ldb = NULL;
}

/* On the loop: what the others told since the last time. */
void shared_drain(core *C)
{
    if (!C->shared)
        return;
    pthread_mutex_lock(&C->qlock);
    core_note *list = C->notes_head;
    int catch_up = C->catch_up;
    C->notes_head = C->notes_tail = NULL;
    C->catch_up = 0;
    pthread_mutex_unlock(&C->qlock);
    int64_t now = core_unix_ms();
    if (C->catch_up_at && now >= C->catch_up_at) {
        C->catch_up_at = 0;
        catch_up = 1;
    }
    if (catch_up) {
        core_lobby_reload(C);
        if (core_refresh_all(C) != 0)
            C->catch_up_at = now + 500;   /* the store failed: again in a moment */
    }
    int lobby = 0;
    while (list) {
        core_note *n = list;
        list = n->next;
        C->notes_seen++;
        if (!n->lobby) {
            char id[STORE_ID_LEN], what[8];
            int told = sscanf(n->text, "%15s %7s", id, what) == 2;
            if (told && (strcmp(what, "want") == 0 || strcmp(what, "yield") == 0)) {
                /* the players ask another instance, or the holder gave way (owner.c) */
                if (what[0] == 'w')
                    owner_wanted(C, id);
                else
                    owner_yielded(C, id);
                free(n);
                continue;
            }
            int rc = core_game_changed_elsewhere(C, n->text);
            if (rc > 0) {
                note_push(C, 0, n->text);   /* its own writes settle first */
                free(n);
                continue;
            }
            if (rc < 0 && !C->catch_up_at)
                C->catch_up_at = now + 500;   /* read again in a moment */
        } else if (n->lobby == 2) {
            if (strncmp(n->text, "seen ", 5) == 0) {
                if (core_name_ok(n->text + 5))   /* a player with a socket open there */
                    core_account_seen_elsewhere(C, n->text + 5);
            } else if (strncmp(n->text, "chat ", 5) == 0) {
                core_chat_note(C, n->text + 5);   /* a chat line (chat.c) */
            } else {
                core_account_note(C, n->text);
            }
        } else if (strncmp(n->text, "here ", 5) == 0) {
            core_seek_owner_present(C, n->text + 5);
        } else if (strncmp(n->text, "bot ", 4) == 0) {
            bots_note(C, n->text + 4);   /* a bot's game began or ended there */
        } else {
            char by[STORE_NAME_LEN + 8], id[STORE_ID_LEN + 8], to[STORE_NAME_LEN + 8], why[16];
            if (sscanf(n->text, "started %27s %23s", by, id) == 2 && C->ev.started)
                C->ev.started(C->ev.ctx, by, id);
            int k = sscanf(n->text, "declined %27s %23s %27s %15s", by, id, to, why);
            if (k >= 3 && C->ev.declined && core_name_ok(by) && core_name_ok(to))
                C->ev.declined(C->ev.ctx, by, id, to,
                               k == 4 && core_decline_reason_ok(why) ? why : "generic");
            lobby = 1;
        }
        free(n);
    }
    if (lobby)
        core_lobby_reload(C);
}

void shared_tick(core *C)
{
    if (!C->shared)
        return;
    owner_tick(C);   /* claims given up once their games are idle */
    int64_t now = core_unix_ms();
    if (now - C->last_scan < CORE_SCAN_MS)
        return;
    C->last_scan = now;
    core_take_over(C);
}
