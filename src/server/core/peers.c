/*
 * peers.c — what each client address holds and has used, for the limits of
 * docs/server-api.md ("Limits"): open connections, requests this second,
 * games created this hour, hint searches and record checks under way,
 * unfinished computer-only games, request-body bytes held.
 *
 * An address is the peer's IP address; an IPv6 address counts by its /64
 * (one customer's network), since a single host may hold a whole /64.
 *
 * The table has a fixed number of slots and never allocates.  A slot is
 * found by hashing the address and probing a few slots on; slots never
 * become empty again, so probe chains stay whole: a slot is instead taken
 * over by another address once its peer is idle (holds nothing now), the
 * longest-unseen idle slot first.  Everything that points at a peer holds
 * one of its counters, so an idle peer is pointed at by nothing.
 */
#include <arpa/inet.h>
#include <stdio.h>
#include <string.h>

#include "server/core/core.h"
#include "server/core/internal.h"

#define PROBES 64

/* Idle: holds nothing now, and no count of a window still running (sign-ups
 * this hour, sign-ins these 10 minutes) would be lost by reusing it. */
static int peer_idle(const peer *p)
{
    int64_t now = core_unix_ms() / 1000;
    return p->conns == 0 && p->unready == 0 && p->hints == 0 && p->cpu_games == 0 && p->records == 0 &&
           p->body_bytes == 0 && p->pw_jobs == 0 && (p->signups == 0 || p->signup_hour != now / 3600) &&
           (p->fails == 0 || now - p->fail_since > CORE_LOGIN_WINDOW) &&
           (p->oks == 0 || now - p->ok_since > CORE_LOGIN_WINDOW);
}

int peer_is_loopback(const char *addr)
{
    return strncmp(addr, "127.", 4) == 0 || strcmp(addr, "::1") == 0 ||
           strncmp(addr, "::ffff:127.", 11) == 0;
}

/* The key of an address: IPv4 as it is, IPv6 cut to its /64. */
static void peer_key(const char *addr, char key[PEER_ADDR_LEN])
{
    unsigned char a6[16];
    if (strchr(addr, ':') && strncmp(addr, "::ffff:", 7) != 0 &&
        inet_pton(AF_INET6, addr, a6) == 1 && strcmp(addr, "::1") != 0) {
        memset(a6 + 8, 0, 8);
        char buf[INET6_ADDRSTRLEN];
        if (inet_ntop(AF_INET6, a6, buf, sizeof buf)) {
            snprintf(key, PEER_ADDR_LEN, "%s/64", buf);
            return;
        }
    }
    snprintf(key, PEER_ADDR_LEN, "%s", addr);
}

peer *peer_get(core *C, const char *addr)
{
    if (!addr || !addr[0])
        return NULL;
    char key[PEER_ADDR_LEN];
    peer_key(addr, key);
    unsigned h = 5381;
    for (const char *p = key; *p; p++)
        h = h * 33 + (unsigned char)*p;
    peer *reuse = NULL;
    for (int i = 0; i < PROBES; i++) {
        peer *p = &C->peers[(h + (unsigned)i) % CORE_PEER_SLOTS];
        if (strcmp(p->addr, key) == 0) {
            p->seen = core_unix_ms() / 1000;
            return p;
        }
        if (!p->addr[0]) {
            reuse = p;  /* never used: the address is not further on */
            break;
        }
        if (peer_idle(p) && (!reuse || p->seen < reuse->seen))
            reuse = p;
    }
    if (!reuse)
        return NULL;   /* every slot nearby is busy: the caller refuses */
    memset(reuse, 0, sizeof *reuse);
    snprintf(reuse->addr, sizeof reuse->addr, "%s", key);
    reuse->loopback = peer_is_loopback(addr);
    reuse->seen = core_unix_ms() / 1000;
    return reuse;
}

int peer_limited(const core *C, const peer *p)
{
    return p && (!p->loopback || C->cf.limit_loopback);
}

int peer_rate_exceeded(core *C, peer *p)
{
    if (C->cf.rate <= 0 || !peer_limited(C, p))
        return 0;
    int64_t sec = core_unix_ms() / 1000;
    if (p->rate_sec != sec) {
        p->rate_sec = sec;
        p->rate_count = 0;
    }
    return ++p->rate_count > C->cf.rate;
}
