/*
 * moderation.c — closing an account, players' reports, and the operator's
 * actions reaching a running server (SPEC "Closing an account, one's data,
 * reports and moderation"; docs/server-api.md).
 *
 * The operator's tool (`tavoliere admin`, src/cli/admin.c) writes to the
 * store directly: the account's flags, and an entry of the audit log.  A
 * session of a closed or banned account is no longer found (the store's
 * get_session), so every request of it is signed out at once; its live
 * sockets close when this file reads the new audit entries (once a second,
 * on every instance, whatever the backend) or, with many instances, as soon
 * as the tool's message on the accounts channel arrives (shared.c).
 */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include <sodium.h>

#include "server/core/internal.h"
#include "server/core/writer.h"

int core_account_state(core *C, const char *name, int64_t *closed, int *banned)
{
    store_account a;
    char err[256];
    int rc = core_name_ok(name) ? C->st->ops->get_account(C->st, name, &a, err, sizeof err) : 0;
    if (rc != 1)
        return 0;
    *closed = a.closed;
    *banned = a.banned;
    sodium_memzero(&a, sizeof a);
    return 1;
}

int64_t core_account_created(core *C, const char *name)
{
    store_account a;
    char err[256];
    if (!core_name_ok(name) || C->st->ops->get_account(C->st, name, &a, err, sizeof err) != 1)
        return 0;
    int64_t t = a.created;
    sodium_memzero(&a, sizeof a);
    return t;
}

int core_reports_by(core *C, const char *reporter, store_report_fn fn, void *ctx)
{
    char err[256];
    return C->st->ops->each_report(C->st, reporter, 1000, fn, ctx, err, sizeof err);
}

int core_chat_by(core *C, const char *name, store_chat_by_fn fn, void *ctx)
{
    char err[256];
    return C->st->ops->each_chat_by(C->st, name, 10000, fn, ctx, err, sizeof err);
}

/* ---- reports ---- */

typedef struct report_write {
    store_report r;
} report_write;

static int report_apply(store *st, void *data, char *err, size_t errlen)
{
    const report_write *w = data;
    return st->ops->add_report(st, &w->r, err, errlen);
}

core_status core_report(core *C, const char *reporter, const char *name, const char *gid,
                        const char *reason, const char *text, char *err, size_t errlen)
{
    if (!reporter || !reporter[0]) {
        snprintf(err, errlen, "sign in to report a player");
        return CORE_FORBIDDEN;
    }
    if (strcmp(reason, "cheating") != 0 && strcmp(reason, "abuse") != 0 &&
        strcmp(reason, "other") != 0) {
        snprintf(err, errlen, "reason is \"cheating\", \"abuse\" or \"other\"");
        return CORE_BAD;
    }
    if (strlen(text) > CORE_REPORT_TEXT_MAX) {
        snprintf(err, errlen, "at most %d bytes of text", CORE_REPORT_TEXT_MAX);
        return CORE_BAD;
    }
    report_write w;
    memset(&w, 0, sizeof w);
    if (!core_player(C, name, w.r.reported)) {
        snprintf(err, errlen, "no such player");
        return CORE_BAD;
    }
    if (strcasecmp(w.r.reported, reporter) == 0) {
        snprintf(err, errlen, "you cannot report yourself");
        return CORE_BAD;
    }
    if (gid && gid[0]) {
        if (!core_id_ok(gid, strlen(gid))) {
            snprintf(err, errlen, "no such game");
            return CORE_BAD;
        }
        snprintf(w.r.game, sizeof w.r.game, "%s", gid);
    }
    int64_t now = core_unix_ms() / 1000, day = now - 86400;
    char e[256];
    int all = C->st->ops->count_reports(C->st, reporter, "", day, e, sizeof e);
    int them = all < 0 ? -1 : C->st->ops->count_reports(C->st, reporter, w.r.reported, day, e,
                                                         sizeof e);
    if (all < 0 || them < 0) {
        snprintf(err, errlen, "the reports could not be read");
        return CORE_UNAVAILABLE;
    }
    if (all >= CORE_REPORTS_PER_DAY || them >= CORE_REPORTS_PER_PLAYER) {
        snprintf(err, errlen, "at most %d reports a day, %d of one player",
                 CORE_REPORTS_PER_DAY, CORE_REPORTS_PER_PLAYER);
        return CORE_LIMIT;
    }
    w.r.created = now;
    snprintf(w.r.reporter, sizeof w.r.reporter, "%s", reporter);
    snprintf(w.r.reason, sizeof w.r.reason, "%s", reason);
    snprintf(w.r.text, sizeof w.r.text, "%s", text);
    if (wq_call(C, report_apply, NULL, &w, sizeof w) != 0) {
        snprintf(err, errlen, "the report could not be stored");
        return CORE_UNAVAILABLE;
    }
    if (C->ev.dirty)
        C->ev.dirty(C->ev.ctx);
    return CORE_CREATED;
}

/* ---- closing ---- */

typedef struct id_list {
    char id[CORE_CLOSE_GAMES][STORE_ID_LEN];
    int n;
} id_list;

static void add_id(void *ctx, const char *id)
{
    id_list *l = ctx;
    if (l->n < CORE_CLOSE_GAMES)
        snprintf(l->id[l->n++], STORE_ID_LEN, "%s", id);
}

void core_account_closed(core *C, const char *name)
{
    char err[256];
    core_unseek_all(C, name);
    core_pool_leave(C, name, err, sizeof err);
    /* Challenges made by it are seeks of its own (gone above); those made
     * to it go as their makers would withdraw them. */
    core_unseek_challenges_to(C, name);
    id_list l;
    memset(&l, 0, sizeof l);
    if (C->st->ops->player_unfinished(C->st, name, CORE_CLOSE_GAMES, add_id, &l, err, sizeof err) != 0)
        core_log(C, "error: the games of a closed account could not be read: %s", err);
    for (int i = 0; i < l.n; i++) {
        game *g = core_get(C, l.id[i]);
        if (!g)
            continue;
        core_cred who = {NULL, name};
        if (core_resign(C, g, &who, err, sizeof err) != CORE_OK)
            core_log(C, "a game of a closed account was not resigned: %s", err);
    }
    if (C->ev.dirty)
        C->ev.dirty(C->ev.ctx);
}

/* ---- the operator's actions, retention ---- */

static int prune_apply(store *st, void *data, char *err, size_t errlen)
{
    const int64_t *before = data;
    return st->ops->prune(st, *before, err, errlen) < 0 ? -1 : 0;
}

static void prune_settled(core *C, const void *data, int ok)
{
    (void)data;
    if (!ok)
        core_log(C, "error: old chat lines and reports could not be deleted");
}

static int audit_seen_fn(void *ctx, const store_audit *a)
{
    core *C = ctx;
    C->audit_seen = a->id;
    if ((strcmp(a->action, "ban") == 0 || strcmp(a->action, "close") == 0) && C->ev.account_gone)
        C->ev.account_gone(C->ev.ctx, a->target);
    return 0;
}

void core_moderation_tick(core *C, int retention_days)
{
    int64_t now = core_unix_ms();
    char err[256];
    if (now - C->audit_polled >= 1000) {
        C->audit_polled = now;
        if (C->audit_seen < 0) {
            int64_t last = C->st->ops->audit_last(C->st, err, sizeof err);
            if (last >= 0)
                C->audit_seen = last;
        } else {
            C->st->ops->each_audit(C->st, C->audit_seen, 100, audit_seen_fn, C, err, sizeof err);
        }
    }
    /* Retention: at the start, then hourly, on the games' time (the test
     * clock moves it in the tests; it is the wall clock otherwise). */
    int64_t game_now = core_game_ms(C);
    if (retention_days > 0 && (C->pruned_at == 0 || game_now - C->pruned_at >= 3600 * 1000)) {
        C->pruned_at = game_now;
        int64_t before = game_now / 1000 - (int64_t)retention_days * 86400;
        if (wq_call(C, prune_apply, prune_settled, &before, sizeof before) == 0 && C->ev.dirty)
            C->ev.dirty(C->ev.ctx);
    }
}
