/*
 * wsq.c — the bottom of the edge's live sockets: a socket's queue of shared
 * messages (a message is made once and queued on every socket it goes to,
 * counted by its references; a socket whose queue is full is dropped), a
 * text sent on one socket, and the count of sockets each account holds here
 * (the limit per account, and presence: the core is told when an account's
 * first socket opens and its last one closes).
 *
 * Every file that answers on a socket (sockets.c, the route files) calls
 * down to this one; it calls nothing of theirs.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include <libwebsockets.h>

#include "server/srv.h"

/* ---- messages ---- */

msg *ws_msg_new(const char *text, size_t len)
{
    msg *m = malloc(sizeof *m + LWS_PRE + len + 1);
    if (!m)
        return NULL;
    m->refs = 1;
    m->batch = 0;
    m->len = len;
    memcpy(m->data + LWS_PRE, text, len);
    m->data[LWS_PRE + len] = 0;
    return m;
}

void ws_msg_unref(msg *m)
{
    if (m && --m->refs == 0)
        free(m);
}

int ws_q_push(msgq *q, msg *m)
{
    if (q->count >= SRV_WS_QUEUE_MAX)
        return -1;
    if (q->count == q->cap) {
        int nc = q->cap ? q->cap * 2 : 4;
        msg **item = malloc(sizeof *item * (size_t)nc);
        if (!item)
            return -1;
        for (int i = 0; i < q->count; i++)
            item[i] = q->item[(q->head + i) % q->cap];
        free(q->item);
        q->item = item;
        q->head = 0;
        q->cap = nc;
    }
    q->item[(q->head + q->count) % q->cap] = m;
    q->count++;
    m->refs++;
    return 0;
}

msg *ws_q_pop(msgq *q)
{
    if (q->count == 0)
        return NULL;
    msg *m = q->item[q->head];
    q->head = (q->head + 1) % q->cap;
    q->count--;
    return m;
}

void ws_q_free(msgq *q)
{
    msg *m;
    while ((m = ws_q_pop(q)))
        ws_msg_unref(m);
    free(q->item);
    memset(q, 0, sizeof *q);
}

void ws_send_held(conn *c, const char *text, size_t len, long batch)
{
    msg *m = ws_msg_new(text, len);
    if (!m)
        return;
    m->batch = batch;
    if (ws_q_push(&c->q, m) != 0)
        lws_set_timeout(c->wsi, PENDING_TIMEOUT_USER_OK, LWS_TO_KILL_ASYNC);
    ws_msg_unref(m);
    lws_callback_on_writable(c->wsi);
}

void ws_send_text(conn *c, const char *text)
{
    ws_send_held(c, text, strlen(text), 0);
}

/* ---- the sockets each account holds here ---- */

/* The count of sockets an account holds (lower-case names, open
 * addressing; a slot at 0 is free to reuse).  NULL when the table is full. */
static int *acct_sockets(srv *S, const char *account)
{
    char key[STORE_NAME_LEN];
    size_t i = 0;
    for (; account[i] && i + 1 < sizeof key; i++)
        key[i] = (char)tolower((unsigned char)account[i]);
    key[i] = 0;
    unsigned h = 2166136261u;
    for (const char *p = key; *p; p++)
        h = (h ^ (unsigned char)*p) * 16777619u;
    int free_slot = -1;
    for (int k = 0; k < 64; k++) {
        int at = (int)((h + (unsigned)k) % SRV_ACCOUNT_SLOTS);
        if (strcmp(S->acct_socks[at].name, key) == 0)
            return &S->acct_socks[at].n;
        if (free_slot < 0 && S->acct_socks[at].n == 0)
            free_slot = at;
    }
    if (free_slot < 0)
        return NULL;
    memcpy(S->acct_socks[free_slot].name, key, sizeof key);
    S->acct_socks[free_slot].n = 0;
    return &S->acct_socks[free_slot].n;
}

/* Count a signed-in socket against its account: 0, or -1 past the limit. */
int acct_socket_open(srv *S, conn *c)
{
    if (!c->account[0])
        return 0;
    int *n = acct_sockets(S, c->account);
    if (!n || *n >= SRV_SOCKETS_PER_ACCOUNT)
        return -1;
    (*n)++;
    c->counted = 1;
    if (*n == 1) {
        core_account_presence(S->C, c->account, 1);   /* back: no claim against it */
        S->now_dirty = 1;   /* who is online (lobby_now) */
    }
    return 0;
}

/* Whether an account has a socket open here (the core's events.present). */
int srv_account_present(srv *S, const char *account)
{
    char key[STORE_NAME_LEN];
    size_t i = 0;
    for (; account[i] && i + 1 < sizeof key; i++)
        key[i] = (char)tolower((unsigned char)account[i]);
    key[i] = 0;
    unsigned h = 2166136261u;
    for (const char *p = key; *p; p++)
        h = (h ^ (unsigned char)*p) * 16777619u;
    for (int k = 0; k < 64; k++) {
        int at = (int)((h + (unsigned)k) % SRV_ACCOUNT_SLOTS);
        if (strcmp(S->acct_socks[at].name, key) == 0)
            return S->acct_socks[at].n > 0;
    }
    return 0;
}

void acct_socket_closed(srv *S, conn *c)
{
    if (!c->counted)
        return;
    c->counted = 0;
    int *n = acct_sockets(S, c->account);
    if (n && *n > 0 && --*n == 0 && !S->stopped) {
        core_account_presence(S->C, c->account, 0);   /* gone: the claim's wait begins */
        S->now_dirty = 1;
    }
}
