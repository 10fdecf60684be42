/*
 * files.c — the web page's files: read once from the web directory, kept in
 * memory, served with their type (the page's routes fall back to index.html).
 */
#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include <jansson.h>
#include <libwebsockets.h>
#include <sodium.h>

#include "server/srv.h"

/* ---- static files ---- */

static const char *mime_of(const char *path)
{
    static const struct { const char *ext, *type; } types[] = {
        {".html", "text/html; charset=utf-8"}, {".js", "text/javascript; charset=utf-8"},
        {".mjs", "text/javascript; charset=utf-8"}, {".css", "text/css; charset=utf-8"},
        {".svg", "image/svg+xml"}, {".json", "application/json"}, {".map", "application/json"},
        {".png", "image/png"}, {".ico", "image/x-icon"}, {".txt", "text/plain; charset=utf-8"},
        {".woff2", "font/woff2"}, {".webmanifest", "application/manifest+json"},
        {".wasm", "application/wasm"},
    };
    const char *dot = strrchr(path, '.');
    if (dot)
        for (size_t i = 0; i < sizeof types / sizeof types[0]; i++)
            if (strcmp(dot, types[i].ext) == 0)
                return types[i].type;
    return "application/octet-stream";
}

/* A path made only of safe characters, no "..", no empty segment. */
static int path_safe(const char *p)
{
    if (p[0] != '/' || strstr(p, "..") || strstr(p, "//"))
        return 0;
    for (; *p; p++) {
        char ch = *p;
        if (!((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
              ch == '/' || ch == '.' || ch == '-' || ch == '_'))
            return 0;
    }
    return 1;
}

/* Read a regular file whole (web assets are small). */
static char *read_file(const char *path, size_t *len)
{
    struct stat sb;
    if (stat(path, &sb) != 0 || !S_ISREG(sb.st_mode) || sb.st_size > 32 * 1024 * 1024)
        return NULL;
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    char *buf = malloc((size_t)sb.st_size + 1);
    size_t n = buf ? fread(buf, 1, (size_t)sb.st_size, f) : 0;
    fclose(f);
    if (!buf || n != (size_t)sb.st_size) {
        free(buf);
        return NULL;
    }
    buf[n] = 0;
    *len = n;
    return buf;
}

/* A web file, read once and kept in memory; NULL when there is none (or
 * when the files kept would pass SRV_STATIC_MAX: then it is not served).
 * A path that names no file is not remembered, so asking for many of them
 * costs one stat() each and no memory. */
static const sfile *web_file(srv *S, const char *path)
{
    for (sfile *f = S->files; f; f = f->next)
        if (strcmp(f->path, path) == 0)
            return f;
    char file[4400];
    snprintf(file, sizeof file, "%s%s", S->webdir, path);
    size_t len = 0;
    char *data = read_file(file, &len);
    if (!data)
        return NULL;
    sfile *f = calloc(1, sizeof *f);
    if (!f || S->files_bytes + (long)len > SRV_STATIC_MAX || !(f->path = strdup(path))) {
        free(f);
        free(data);
        return NULL;
    }
    f->data = data;
    f->len = len;
    f->type = mime_of(path);
    f->next = S->files;
    S->files = f;
    S->files_bytes += (long)len;
    return f;
}

void http_files_free(srv *S)
{
    while (S->files) {
        sfile *f = S->files;
        S->files = f->next;
        free(f->path);
        free(f->data);
        free(f);
    }
    S->files_bytes = 0;
}

static const char not_built[] =
    "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>Tavoliere</title>"
    "</head><body><h1>Tavoliere</h1><p>The web UI is not built: run <code>make</code> (it "
    "fills the build's <code>web</code> folder) or start the server with <code>--web DIR</code>."
    "</p><p>The API is at <code>/api/</code> (docs/server-api.md).</p></body></html>\n";

/* An answer of files_answer. */
static void set(file_answer *a, int status, const char *ctype, char *body, size_t len)
{
    a->status = status;
    a->ctype = ctype;
    a->body = body;
    a->len = len;
}

void files_answer(srv *S, int method, const char *path, file_answer *a)
{
    memset(a, 0, sizeof *a);
    if (method != 'G') {
        set(a, 405, "text/plain; charset=utf-8", strdup("use GET\n"), 8);
        return;
    }
    const char *last = strrchr(path, '/');
    int page = strcmp(path, "/") == 0 || (last && !strchr(last, '.'));
    if (!path_safe(path)) {
        set(a, 404, "text/plain; charset=utf-8", strdup("not found\n"), 10);
        return;
    }
    if (!S->have_web) {
        if (page)
            set(a, 200, "text/html; charset=utf-8", strdup(not_built), sizeof not_built - 1);
        else
            set(a, 404, "text/plain; charset=utf-8", strdup("not found\n"), 10);
        return;
    }
    const sfile *f = NULL;
    if (strcmp(path, "/") != 0)
        f = web_file(S, path);
    if (!f && page)
        f = web_file(S, "/index.html");   /* the page's own routes (/, /games/ID) */
    if (!f) {
        set(a, 404, "text/plain; charset=utf-8", strdup("not found\n"), 10);
        return;
    }
    set(a, 200, f->type, f->data, f->len);
    a->shared = 1;   /* the cache's own bytes: not freed with the answer */
}
