/*
 * ids.c — what every room of the core checks or makes: ids, names and
 * players well formed, an account's name as stored and whether it is a bot,
 * random ids and tokens and a token's hash.  Below everything but the store
 * and util.c.
 */
#include <stdio.h>
#include <string.h>

#include <sodium.h>

#include "server/core/core.h"
#include "server/core/internal.h"

void core_random_b64(char *out, size_t nbytes)
{
    unsigned char buf[64];
    if (nbytes > sizeof buf)
        nbytes = sizeof buf;
    randombytes_buf(buf, nbytes);
    sodium_bin2base64(out, sodium_base64_ENCODED_LEN(nbytes, sodium_base64_VARIANT_URLSAFE_NO_PADDING),
                      buf, nbytes, sodium_base64_VARIANT_URLSAFE_NO_PADDING);
    sodium_memzero(buf, sizeof buf);
}

void core_token_hash(const char *token, unsigned char hash[STORE_HASH_LEN])
{
    static const unsigned char key[] = "tavoliere seat token v1";
    crypto_generichash(hash, STORE_HASH_LEN, (const unsigned char *)token, strlen(token), key,
                       sizeof key - 1);
}

int core_id_ok(const char *id, size_t n)
{
    if (n != CORE_ID_CHARS)
        return 0;
    for (size_t i = 0; i < n; i++) {
        char ch = id[i];
        if (!((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
              ch == '-' || ch == '_'))
            return 0;
    }
    return 1;
}

int core_name_ok(const char *name)
{
    size_t n = strlen(name);
    if (n < CORE_NAME_MIN || n > CORE_NAME_MAX)
        return 0;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)name[i];
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
              c == '_' || c == '-'))
            return 0;
    }
    return 1;
}

int core_player_ok(const char *p)
{
    if (strcmp(p, "human") == 0)
        return 1;
    char name[32];
    int level = 0;
    return strlen(p) <= CORE_PLAYER_MAX && tav_player_parse(p, name, sizeof name, &level) == TAV_OK;
}

int core_player(core *C, const char *name, char out[STORE_NAME_LEN])
{
    store_account a;
    char err[256];
    if (!core_name_ok(name) || C->st->ops->get_account(C->st, name, &a, err, sizeof err) != 1)
        return 0;
    snprintf(out, STORE_NAME_LEN, "%s", a.name);
    sodium_memzero(&a, sizeof a);
    return 1;
}

int core_is_bot(core *C, const char *name)
{
    store_account a;
    char err[256];
    if (!name || !core_name_ok(name) ||
        C->st->ops->get_account(C->st, name, &a, err, sizeof err) != 1)
        return 0;
    int bot = a.bot;
    sodium_memzero(&a, sizeof a);
    return bot;
}

/* A seek's clock well formed: a real-time one, days a move, or none (0 0 0). */
int seek_clock_ok(const store_seek *s)
{
    if (s->days)
        return !s->initial && !s->increment &&
               (s->days == 1 || s->days == 2 || s->days == 3 || s->days == 5 || s->days == 7 ||
                s->days == 14);
    if (!s->initial && !s->increment)
        return 1;   /* no clock */
    return s->initial >= 30 && s->initial <= 3 * 3600 && s->increment >= 0 && s->increment <= 180;
}
