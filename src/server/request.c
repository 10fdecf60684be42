/*
 * request.c — what a connection's request carries, for HTTP (http.c) and
 * the live sockets (sockets.c) alike: its server, its client address (true
 * behind a trusted proxy), whether its Host and Origin are ours, a query
 * argument, the sign-in cookie.
 */
#include <arpa/inet.h>
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <libwebsockets.h>
#include <sodium.h>

#include "server/srv.h"

srv *http_server_of(struct lws *wsi)
{
    return lws_context_user(lws_get_context(wsi));
}

int http_trusted_proxy(const srv *S, const char *addr)
{
    if (!S->behind_proxy)
        return 0;
    if (!S->nproxies)
        return peer_is_loopback(addr);
    const char *a = strncmp(addr, "::ffff:", 7) == 0 ? addr + 7 : addr;
    for (int i = 0; i < S->nproxies; i++)
        if (strcmp(S->proxies[i], addr) == 0 || strcmp(S->proxies[i], a) == 0)
            return 1;
    return 0;
}

peer *http_peer(srv *S, struct lws *wsi)
{
    char addr[64];
    if (!wsi || !lws_get_peer_simple(wsi, addr, sizeof addr))
        return NULL;
    if (http_trusted_proxy(S, addr)) {
        /* The proxy says whose request it is (nginx: proxy_set_header
         * X-Real-IP $remote_addr); the per-address limits count that
         * address.  libwebsockets knows X-Real-IP as a header of its own
         * (it is never a "custom" header).  Only a trusted proxy's header
         * is believed; anyone else's is ignored. */
        char real[64];
        int n = lws_hdr_copy(wsi, real, sizeof real, WSI_TOKEN_HTTP_X_REAL_IP);
        struct in6_addr a6;
        struct in_addr a4;
        if (n > 0 && n < (int)sizeof real &&
            (inet_pton(AF_INET, real, &a4) == 1 || inet_pton(AF_INET6, real, &a6) == 1))
            return peer_get(S->C, real);
    }
    return peer_get(S->C, addr);
}

/* The Host header must name this server (DNS rebinding: a page of another
 * site whose name resolves to this address must not reach it).  Allowed:
 * no Host header (not a browser), an IP address literal, or a name given
 * with --allow-host (and localhost). */
int http_host_allowed(srv *S, struct lws *wsi)
{
    char host[300];
    int n = lws_hdr_copy(wsi, host, sizeof host, WSI_TOKEN_HOST);
    if (n <= 0)
        return lws_hdr_total_length(wsi, WSI_TOKEN_HOST) == 0;
    char name[300];
    if (host[0] == '[') {
        const char *close = strchr(host, ']');
        if (!close || (close[1] && close[1] != ':'))
            return 0;
        size_t k = (size_t)(close - host - 1);
        memcpy(name, host + 1, k);
        name[k] = 0;
        unsigned char a6[16];
        return inet_pton(AF_INET6, name, a6) == 1;
    }
    snprintf(name, sizeof name, "%s", host);
    char *colon = strchr(name, ':');
    if (colon)
        *colon = 0;
    unsigned char a4[4];
    if (inet_pton(AF_INET, name, a4) == 1)
        return 1;
    if (strcasecmp(name, "localhost") == 0)
        return 1;
    for (int i = 0; i < S->nhosts; i++)
        if (strcasecmp(name, S->hosts[i]) == 0 || strcmp(S->hosts[i], "*") == 0)
            return 1;
    return 0;
}

/* The value of query argument `name` ("seat="), or NULL.  Every argument
 * is read whole into a buffer large enough for any (an argument too long
 * for it is skipped, not the end of the search). */
const char *http_url_arg(struct lws *wsi, const char *name, char *out, size_t n)
{
    char buf[1024];
    size_t sl = strlen(name);
    for (int i = 0; i < 64; i++) {
        int len = lws_hdr_copy_fragment(wsi, buf, sizeof buf, WSI_TOKEN_HTTP_URI_ARGS, i);
        if (len < 0)
            break;
        if ((size_t)len >= sl && strncmp(buf, name, sl) == 0) {
            if ((size_t)len - sl >= n)
                return "";   /* too long to be valid: an empty value, refused later */
            memcpy(out, buf + sl, (size_t)len - sl + 1);
            return out;
        }
    }
    return NULL;
}

/* The session cookie's token (tav_session=...), or NULL. */
const char *http_session_token(struct lws *wsi, char *out, size_t n)
{
    char buf[2048];
    if (lws_hdr_copy(wsi, buf, sizeof buf, WSI_TOKEN_HTTP_COOKIE) <= 0)
        return NULL;
    size_t kl = strlen(SRV_COOKIE);
    for (char *p = buf; p && *p;) {
        while (*p == ' ' || *p == ';')
            p++;
        char *semi = strchr(p, ';');
        if (semi)
            *semi = 0;
        if (strncmp(p, SRV_COOKIE, kl) == 0 && p[kl] == '=') {
            if (strlen(p + kl + 1) >= n)
                return NULL;
            snprintf(out, n, "%s", p + kl + 1);
            return out[0] ? out : NULL;
        }
        p = semi ? semi + 1 : NULL;
    }
    return NULL;
}

/* SPEC: a request that changes anything, with the session cookie and an
 * Origin other than the server's own, is refused.  Own: the Origin's host
 * (and port) is the Host the request was sent to. */
int http_foreign_origin(struct lws *wsi)
{
    char origin[512], host[512];
    if (lws_hdr_copy(wsi, origin, sizeof origin, WSI_TOKEN_ORIGIN) <= 0)
        return 0;   /* no Origin: not a browser's cross-site request */
    if (lws_hdr_copy(wsi, host, sizeof host, WSI_TOKEN_HOST) <= 0)
        return 1;
    const char *o = strstr(origin, "://");
    if (!o)
        return 1;
    o += 3;
    return strcasecmp(o, host) != 0;
}

/* SPEC "Bots": `Authorization: Bearer TOKEN`.  1 with the token in out, 0
 * for an Authorization header that is not a bearer token of a sane length
 * (refused: 401), -1 for none.  The token is read from the header only,
 * never from the address (it would end up in logs). */
int http_bearer_token(struct lws *wsi, char *out, size_t n)
{
    char buf[160];
    int len = lws_hdr_total_length(wsi, WSI_TOKEN_HTTP_AUTHORIZATION);
    if (len <= 0)
        return -1;
    if ((size_t)len >= sizeof buf ||
        lws_hdr_copy(wsi, buf, sizeof buf, WSI_TOKEN_HTTP_AUTHORIZATION) <= 0)
        return 0;
    const char *p = buf;
    if (strncasecmp(p, "Bearer ", 7) != 0)
        return 0;
    p += 7;
    while (*p == ' ')
        p++;
    size_t k = strlen(p);
    while (k && (p[k - 1] == ' ' || p[k - 1] == '\t'))
        k--;
    if (k == 0 || k >= n) {
        sodium_memzero(buf, sizeof buf);
        return 0;
    }
    memcpy(out, p, k);
    out[k] = 0;
    sodium_memzero(buf, sizeof buf);
    return 1;
}
