/*
 * admin.c — `tavoliere admin --db URL COMMAND [NAME]`: the operator's tool
 * (SPEC "Closing an account, one's data, reports and moderation";
 * docs/deploy.md "Moderation").
 *
 *   reports      the players' reports, newest first
 *   mute NAME    the account's chat is silenced (the chat flag the server
 *   unmute NAME  reads at every line: at once on every instance)
 *   ban NAME     the account's sessions end and its sign-ins are refused
 *   unban NAME   (403) until unban; its live sockets close (below)
 *   log          the audit log: every action above, with time and operator
 *
 * It opens the database itself, never through the network: only someone
 * who may read the database on the server machine can run it.  Every action
 * is kept in the audit log with the operator (the Unix user running the
 * tool).  Running servers act at once: a session of a banned account is no
 * longer found by any instance (the store refuses it), and each instance
 * reads the audit log once a second and closes the banned account's live
 * sockets; with PostgreSQL the tool also tells every instance on the
 * accounts channel (LISTEN/NOTIFY), which closes them sooner.
 */
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "server/core/core.h"
#include "server/server.h"

static int admin_usage(void)
{
    fprintf(stderr,
            "usage: tavoliere admin --db URL COMMAND [NAME]\n"
            "commands:\n"
            "  reports      the reports, newest first (time, reporter, reported, game, reason, text)\n"
            "  mute NAME    stop the account's chat        unmute NAME  let it chat again\n"
            "  ban NAME     end its sessions, refuse its sign-ins (403)   unban NAME\n"
            "  log          the audit log (time, operator, action, target)\n"
            "--db: the server's database (a file path: SQLite; postgresql://...: PostgreSQL)\n");
    return 2;
}

static void when(int64_t t, char out[32])
{
    time_t tt = (time_t)t;
    struct tm tm;
    if (gmtime_r(&tt, &tm))
        strftime(out, 32, "%Y-%m-%dT%H:%M:%SZ", &tm);
    else
        snprintf(out, 32, "%lld", (long long)t);
}

/* Text from players, printed on one line: control characters as '?',
 * tabs and line breaks as spaces. */
static void print_clean(const char *s)
{
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        putchar(c == '\t' || c == '\n' || c == '\r' ? ' ' : c < 0x20 || c == 0x7f ? '?' : c);
    }
}

static int print_report(void *ctx, const store_report *r)
{
    char t[32];
    (void)ctx;
    when(r->created, t);
    printf("%s\t%s\t%s\t%s\t%s\t", t, r->reporter, r->reported, r->game[0] ? r->game : "-",
           r->reason);
    print_clean(r->text);
    putchar('\n');
    return 0;
}

static int print_audit(void *ctx, const store_audit *a)
{
    char t[32];
    (void)ctx;
    when(a->created, t);
    printf("%s\t%s\t%s\t%s\n", t, a->op, a->action, a->target);
    return 0;
}

static void operator_name(char out[40])
{
    struct passwd *pw = getpwuid(geteuid());
    if (pw && pw->pw_name && pw->pw_name[0])
        snprintf(out, 40, "%s", pw->pw_name);
    else
        snprintf(out, 40, "uid %ld", (long)geteuid());
}

/* One action on an account, its audit entry and (shared) the message to
 * the instances, in one batch. */
static int act(store *st, const char *command, const char *name)
{
    char err[256];
    store_account a;
    int found = st->ops->get_account(st, name, &a, err, sizeof err);
    if (found < 0) {
        fprintf(stderr, "tavoliere admin: the accounts could not be read: %s\n", err);
        return 1;
    }
    if (found == 0) {
        fprintf(stderr, "tavoliere admin: no account named '%s'\n", name);
        return 1;
    }
    memset(a.pwhash, 0, sizeof a.pwhash);
    int rc, on = strncmp(command, "un", 2) != 0;
    if (strstr(command, "mute"))
        rc = st->ops->set_chat_flag(st, a.name, STORE_CHAT_MUTED, on, err, sizeof err);
    else
        rc = st->ops->set_banned(st, a.name, on, err, sizeof err);
    store_audit e;
    memset(&e, 0, sizeof e);
    e.created = time(NULL);
    operator_name(e.op);
    snprintf(e.action, sizeof e.action, "%s", command);
    snprintf(e.target, sizeof e.target, "%s", a.name);
    if (rc == 0)
        rc = st->ops->add_audit(st, &e, err, sizeof err);
    if (rc == 0 && on && strcmp(command, "ban") == 0 && store_shared(st)) {
        char payload[96];
        snprintf(payload, sizeof payload, "admin-%ld gone %s", (long)getpid(), a.name);
        rc = store_notify(st, CORE_CH_ACCOUNT, payload, err, sizeof err);
    }
    if (rc == 0)
        rc = store_flush(st, err, sizeof err);
    else
        store_discard(st);
    if (rc != 0) {
        fprintf(stderr, "tavoliere admin: %s %s failed: %s\n", command, a.name, err);
        return 1;
    }
    printf("%s: %s\n", command, a.name);
    return 0;
}

int admin_main(int argc, char **argv)
{
    const char *db = NULL, *pos[3] = {NULL, NULL, NULL};
    int npos = 0;
    for (int i = 1; i < argc; i++) {   /* --db URL anywhere; the rest in order */
        if (strcmp(argv[i], "--db") == 0 && i + 1 < argc) {
            db = argv[++i];
        } else if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            admin_usage();
            return 0;
        } else if (strncmp(argv[i], "--", 2) == 0 || npos == 3) {
            return admin_usage();
        } else {
            pos[npos++] = argv[i];
        }
    }
    if (!db || npos == 0)
        return admin_usage();
    const char *command = pos[0], *name = pos[1];
    int needs_name = strcmp(command, "mute") == 0 || strcmp(command, "unmute") == 0 ||
                     strcmp(command, "ban") == 0 || strcmp(command, "unban") == 0;
    int listing = strcmp(command, "reports") == 0 || strcmp(command, "log") == 0;
    if ((!needs_name && !listing) || (needs_name && npos != 2) || (listing && npos != 1))
        return admin_usage();
    char err[256], label[512];
    if (store_backend(db) == &store_sqlite_ops && access(db, F_OK) != 0) {
        /* A mistyped path would be a new, empty database: say so instead. */
        fprintf(stderr, "tavoliere admin: no database at %s\n", db);
        return 1;
    }
    store *st = store_open(db, err, sizeof err);
    if (!st) {
        store_db_label(db, label, sizeof label);
        fprintf(stderr, "tavoliere admin: %s: %s\n", label, err);
        return 1;
    }
    int rc = 0;
    if (strcmp(command, "reports") == 0)
        rc = st->ops->each_report(st, "", 100000, print_report, NULL, err, sizeof err) == 0 ? 0 : 1;
    else if (strcmp(command, "log") == 0)
        rc = st->ops->each_audit(st, 0, 100000, print_audit, NULL, err, sizeof err) == 0 ? 0 : 1;
    else
        rc = act(st, command, name);
    if (rc != 0 && listing)
        fprintf(stderr, "tavoliere admin: %s: %s\n", command, err);
    store_close(st);
    return rc;
}
