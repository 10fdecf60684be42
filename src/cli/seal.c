/*
 * seal.c — sealed deals in saved records (docs/records.md, "Sealed deals").
 *
 * A Toscana game saved before it ends must resume exactly, so the record
 * needs both stacks; but a player against the computer must not read the
 * computer's tiles with `cat`.  `play` therefore writes the stacks sealed:
 * the WhiteStack and BlackStack tags are replaced by one Sealed tag holding
 * them encrypted and authenticated (libsodium secretbox, XSalsa20-Poly1305)
 * with a key kept in the user's configuration directory
 * ($XDG_CONFIG_HOME/tavoliere/seal.key, else ~/.config/tavoliere/seal.key,
 * created at the first save, mode 0600).  Reading a record (check, replay,
 * analyze, play --load) puts the two tags back before parsing.  The seed
 * and explicit stacks are also left out of the Options tag.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <sodium.h>

#include "cli/cli.h"
#include "base/base.h"

#define KEY_BYTES crypto_secretbox_KEYBYTES

/* The key file's path; 0, or -1 when no directory is known. */
static int key_path(char *buf, size_t n, char *dir, size_t dn)
{
    const char *x = getenv("XDG_CONFIG_HOME");
    const char *home = getenv("HOME");
    if (x && x[0] == '/')
        tavi_bprintf(dir, dn, "%s/tavoliere", x);
    else if (home && home[0])
        tavi_bprintf(dir, dn, "%s/.config/tavoliere", home);
    else
        return -1;
    tavi_bprintf(buf, n, "%s/seal.key", dir);
    return 0;
}

/* Read the key (64 hex digits), creating it when `create` and missing; 0 or
 * -1 with a message. */
static int get_key(unsigned char key[KEY_BYTES], int create, char *err, size_t errlen)
{
    char path[1024], dir[1024], hex[2 * KEY_BYTES + 2];
    if (key_path(path, sizeof path, dir, sizeof dir) != 0) {
        tavi_bprintf(err, errlen, "no configuration directory (set HOME or XDG_CONFIG_HOME)");
        return -1;
    }
    FILE *f = fopen(path, "r");
    if (!f && create && errno == ENOENT) {
        /* Create the directory (and ~/.config) and a fresh key, readable by the user only. */
        char parent[1024];
        tavi_bprintf(parent, sizeof parent, "%s", dir);
        char *slash = strrchr(parent, '/');
        if (slash && slash != parent) {
            *slash = '\0';
            mkdir(parent, 0700);
        }
        mkdir(dir, 0700);
        unsigned char k[KEY_BYTES];
        randombytes_buf(k, sizeof k);
        sodium_bin2hex(hex, sizeof hex, k, sizeof k);
        sodium_memzero(k, sizeof k);
        int fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0600);
        if (fd >= 0) {
            size_t len = strlen(hex);
            int bad = write(fd, hex, len) != (ssize_t)len || write(fd, "\n", 1) != 1;
            if (close(fd) != 0 || bad) {
                tavi_bprintf(err, errlen, "cannot write the seal key %s", path);
                unlink(path);
                return -1;
            }
        }
        f = fopen(path, "r");
    }
    if (!f) {
        tavi_bprintf(err, errlen, "no seal key %s (%s)", path, strerror(errno));
        return -1;
    }
    size_t n = fread(hex, 1, sizeof hex - 1, f);
    fclose(f);
    hex[n] = '\0';
    size_t got = 0;
    if (n < 2 * KEY_BYTES || sodium_hex2bin(key, KEY_BYTES, hex, 2 * KEY_BYTES, NULL, &got, NULL) != 0 ||
        got != KEY_BYTES) {
        tavi_bprintf(err, errlen, "the seal key %s is damaged", path);
        return -1;
    }
    return 0;
}

/* The value of the tag line starting at p ("[Name \"value\"]"), into buf. */
static int tag_value(const char *p, char *buf, size_t n)
{
    const char *q = strchr(p, '"');
    const char *e = q ? strchr(q + 1, '"') : NULL;
    const char *nl = strchr(p, '\n');
    if (!q || !e || (nl && e > nl) || (size_t)(e - q - 1) >= n)
        return -1;
    memcpy(buf, q + 1, (size_t)(e - q - 1));
    buf[e - q - 1] = '\0';
    return 0;
}

/* The start of the line that begins with `prefix`, or NULL. */
static char *find_line(char *text, const char *prefix)
{
    size_t pl = strlen(prefix);
    for (char *p = text; p && *p;) {
        if (strncmp(p, prefix, pl) == 0)
            return p;
        p = strchr(p, '\n');
        if (p)
            p++;
    }
    return NULL;
}

/* Remove the whole line at p (with its newline). */
static void drop_line(char *p)
{
    char *nl = strchr(p, '\n');
    if (nl)
        memmove(p, nl + 1, strlen(nl + 1) + 1);
    else
        *p = '\0';
}

char *cli_seal_record(const char *text, const char *public_options, char *err, size_t errlen)
{
    size_t len = strlen(text);
    char *out = malloc(len + 600);
    if (!out || sodium_init() < 0) {
        free(out);
        tavi_bprintf(err, errlen, "out of memory");
        return NULL;
    }
    memcpy(out, text, len + 1);
    char *w = find_line(out, "[WhiteStack \""), *b = find_line(out, "[BlackStack \"");
    char wv[256], bv[256];
    if (!w || !b || tag_value(w, wv, sizeof wv) != 0 || tag_value(b, bv, sizeof bv) != 0)
        return out;   /* nothing hidden: written as it is */
    unsigned char key[KEY_BYTES];
    if (get_key(key, 1, err, errlen) != 0) {
        free(out);
        return NULL;
    }
    char plain[520];
    size_t pn = tavi_bprintf(plain, sizeof plain, "%s\n%s", wv, bv);
    unsigned char box[crypto_secretbox_NONCEBYTES + crypto_secretbox_MACBYTES + sizeof plain];
    randombytes_buf(box, crypto_secretbox_NONCEBYTES);
    crypto_secretbox_easy(box + crypto_secretbox_NONCEBYTES, (const unsigned char *)plain, pn, box, key);
    sodium_memzero(key, sizeof key);
    size_t bn = crypto_secretbox_NONCEBYTES + crypto_secretbox_MACBYTES + pn;
    char b64[sizeof box * 2];
    sodium_bin2base64(b64, sizeof b64, box, bn, sodium_base64_VARIANT_URLSAFE_NO_PADDING);
    /* Drop the stacks and the Options (it may hold the seed), then put the
     * public options and the Sealed tag after the Game tag. */
    drop_line(find_line(out, "[WhiteStack \""));
    drop_line(find_line(out, "[BlackStack \""));
    char *o = find_line(out, "[Options \"");
    if (o)
        drop_line(o);
    char *g = find_line(out, "[Game \"");
    char *at = g ? strchr(g, '\n') : NULL;
    at = at ? at + 1 : out;
    char ins[600];
    size_t k = 0;
    if (public_options && public_options[0])
        k += tavi_bprintf(ins, sizeof ins, "[Options \"%s\"]\n", public_options);
    k += tavi_bprintf(ins + k, sizeof ins - k, "[Sealed \"%s\"]\n", b64);
    memmove(at + k, at, strlen(at) + 1);
    memcpy(at, ins, k);
    return out;
}

int cli_unseal_record(char **text, size_t *len, char *err, size_t errlen)
{
    char *s = find_line(*text, "[Sealed \"");
    if (!s)
        return 0;
    char b64[512];
    if (tag_value(s, b64, sizeof b64) != 0) {
        tavi_bprintf(err, errlen, "a Sealed tag that cannot be read");
        return -1;
    }
    if (sodium_init() < 0) {
        tavi_bprintf(err, errlen, "out of memory");
        return -1;
    }
    unsigned char box[512], key[KEY_BYTES];
    size_t bn = 0;
    if (sodium_base642bin(box, sizeof box, b64, strlen(b64), NULL, &bn, NULL,
                          sodium_base64_VARIANT_URLSAFE_NO_PADDING) != 0 ||
        bn < crypto_secretbox_NONCEBYTES + crypto_secretbox_MACBYTES) {
        tavi_bprintf(err, errlen, "a Sealed tag that is not a sealed deal");
        return -1;
    }
    char kerr[300];
    if (get_key(key, 0, kerr, sizeof kerr) != 0) {
        tavi_bprintf(err, errlen, "the deal is sealed and cannot be opened here: %s", kerr);
        return -1;
    }
    unsigned char plain[512];
    size_t pn = bn - crypto_secretbox_NONCEBYTES - crypto_secretbox_MACBYTES;
    int bad = crypto_secretbox_open_easy(plain, box + crypto_secretbox_NONCEBYTES,
                                         bn - crypto_secretbox_NONCEBYTES, box, key) != 0;
    sodium_memzero(key, sizeof key);
    if (bad) {
        tavi_bprintf(err, errlen, "the deal is sealed with another key, or the Sealed tag was changed");
        return -1;
    }
    plain[pn] = '\0';
    char *nl = strchr((char *)plain, '\n');
    if (!nl || strchr((char *)plain, '"') || strchr((char *)plain, '\\')) {
        tavi_bprintf(err, errlen, "a sealed deal that is not two stacks");
        return -1;
    }
    *nl = '\0';
    char tags[600];
    size_t k = tavi_bprintf(tags, sizeof tags, "[WhiteStack \"%s\"]\n[BlackStack \"%s\"]\n", (char *)plain, nl + 1);
    sodium_memzero(plain, sizeof plain);
    /* Replace the Sealed line by the two tags. */
    size_t off = (size_t)(s - *text);
    char *e = strchr(s, '\n');
    size_t old = e ? (size_t)(e + 1 - s) : strlen(s);
    char *out = malloc(*len - old + k + 1);
    if (!out) {
        tavi_bprintf(err, errlen, "out of memory");
        return -1;
    }
    memcpy(out, *text, off);
    memcpy(out + off, tags, k);
    memcpy(out + off + k, s + old, *len - off - old + 1);
    sodium_memzero(tags, sizeof tags);
    free(*text);
    *text = out;
    *len = *len - old + k;
    return 0;
}
