/*
 * store_pg_internal.h — what the PostgreSQL store's files share
 * (store_pg.c: the connection, statements, batches, schema; store_pg_games.c,
 * store_pg_accounts.c, store_pg_shared.c: the operations by what they
 * serve).  Nobody else includes it.
 */
#ifndef SERVER_CORE_STORE_PG_INTERNAL_H
#define SERVER_CORE_STORE_PG_INTERNAL_H

#include <stdarg.h>
#include <stdint.h>

#include <libpq-fe.h>

#include "server/core/store.h"

/* The prepared statements (their text: queries[] in store_pg.c). */
enum {
    Q_INS_GAME, Q_INS_SEAT, Q_INS_MOVE, Q_ADD_MOVE, Q_SET_RESULT, Q_SET_REMATCH, Q_DEL_MOVES,
    Q_GET_GAME, Q_GET_MOVES, Q_UNFINISHED,
    Q_SET_END, Q_INS_ACCOUNT, Q_GET_ACCOUNT, Q_SET_PASSWORD, Q_SET_LANG, Q_INS_SESSION, Q_GET_SESSION,
    Q_DEL_SESSION, Q_SESSIONS_OF, Q_TOUCH_SESSION, Q_INS_SEEK, Q_CLOSE_SEEK, Q_SEEK_STATE, Q_OPEN_SEEKS,
    Q_GET_RATING, Q_SET_RATING, Q_RATINGS, Q_PLAYER_GAMES, Q_LEADERBOARD, Q_UNFINISHED_OF,
    Q_SET_GAME_RATINGS, Q_SET_OFFERS,
    Q_SET_BOT, Q_INS_TOKEN, Q_GET_TOKEN, Q_TOUCH_TOKEN, Q_DEL_TOKEN, Q_TOKENS_OF,
    Q_INS_CHAT, Q_CHAT_OF, Q_INS_BLOCK, Q_DEL_BLOCK, Q_BLOCKS_OF, Q_GET_CHAT_FLAGS, Q_SET_CHAT_FLAG,
    Q_GAME_STAMP, Q_UNCLAIMED,
    Q_GUARD_RESERVE, Q_GUARD_SETTLE,
    Q_NOTIFY, Q_TRY_CLAIM, Q_RELEASE_CLAIM, Q_GET_VERSION, Q_INIT_VERSION, Q_SET_VERSION,
    Q_MAIL_GET, Q_MAIL_PUT, Q_MAIL_UNSUB, Q_MAIL_VERIFY, Q_MAIL_ADD, Q_MAIL_DUE, Q_MAIL_ITEMS,
    Q_MAIL_DROP, Q_MAIL_DEFER, Q_MAIL_LOG, Q_MAIL_COUNT,
    Q_INS_TOUR, Q_SET_TOUR, Q_GET_TOUR, Q_ALL_TOURS, Q_OPEN_TOURS, Q_COUNT_TOURS, Q_SET_TOUR_PLAYER,
    Q_TOUR_PLAYERS, Q_INS_TOUR_GAME, Q_TOUR_GAMES, Q_GAME_TOUR,
    Q_CLOSE_ACCOUNT, Q_SET_BANNED, Q_END_SESSIONS, Q_INS_REPORT, Q_REPORTS, Q_COUNT_REPORTS,
    Q_INS_AUDIT, Q_AUDIT, Q_AUDIT_LAST, Q_CHAT_BY, Q_PRUNE_CHAT, Q_PRUNE_REPORTS,
    NQ
};

typedef struct pg_store {
    store base;              /* first: a pg_store is a store */
    PGconn *conn;
    char prepared[NQ];       /* prepared on this connection (cleared by a reset) */
    int in_tx;               /* a batch is open: BEGIN sent, writes wait for flush */
    int sp_held;             /* the last operation's savepoint is not released yet */
    int batch_lost;          /* the open batch died with the connection: flush says so */
    int was_lost;            /* the connection was reset since wait_notify last looked */
    char **claims;           /* the keys this connection holds */
    int nclaims, capclaims;
    char **channels;         /* LISTENed (again after a reset) */
    int nchannels, capchannels;
    int64_t trips, bytes_out, bytes_in;
    /* The stamp (xmin) of the game the open batch's last write left, when
     * that write was a move (it returns it): the writer's game_stamp then
     * costs no round trip.  Any other write forgets it. */
    char stamp_id[STORE_ID_LEN];
    int64_t stamp_val;
    int64_t stamp_before;    /* ... and the stamp its row had just before that move */
    int stamp_ok;
} pg_store;

#define MAXP 17
#define BAD_TEXT (-3)

/* A statement's parameters, built from a format: 't' text, 'i' int64_t,
 * 'd' double, 'h' a STORE_HASH_LEN hash (sent as binary bytea). */
typedef struct params {
    int n;
    const char *val[MAXP];
    int len[MAXP], form[MAXP];
    char num[MAXP][32];
} params;


/* store_pg.c: helpers over the connection, results, batches */
long pg_changed(PGresult *r);
double pg_col_double(const PGresult *r, int row, int col);
int pg_col_hash(const PGresult *r, int row, int col, unsigned char out[STORE_HASH_LEN]);
int64_t pg_col_i64(const PGresult *r, int row, int col);
int pg_col_int(const PGresult *r, int row, int col);
int pg_col_text(const PGresult *r, int row, int col, char *buf, size_t n);
int pg_ensure(pg_store *st, char *err, size_t errlen);
int pg_listen1(pg_store *st, const char *channel, char *err, size_t errlen);
void pg_lost(pg_store *st);
void pg_params_v(params *p, const char *fmt, va_list ap);
int pg_run(pg_store *st, int q, PGresult **out, const char *what, char *err, size_t errlen,
           const char *fmt, ...);
int pg_run_p(pg_store *st, int q, PGresult **out, const char *what, char *err, size_t errlen,
             const params *p);
void pg_set_err(pg_store *st, char *err, size_t errlen, const char *what, const char *msg);
int pg_wbegin(pg_store *st, char *err, size_t errlen);
int pg_wend(pg_store *st, int rc, char *err, size_t errlen);
int pg_write1(pg_store *st, int q, int want, const char *what, char *err, size_t errlen,
              const char *fmt, ...);

/* store_pg_games.c */
void pg_each_id(PGresult *r, int max, store_id_fn fn, void *ctx);
int pg_add_move(store *base, const char *id, int ply, const store_move *m, int status, char *err,
                size_t errlen);
int pg_create_game(store *base, const store_game *g, const store_move *moves, int nmoves, char *err,
                   size_t errlen);
int pg_each_unclaimed(store *base, const char *prefix, store_id_fn fn, void *ctx, char *err,
                      size_t errlen);
int pg_each_unfinished(store *base, store_id_fn fn, void *ctx, char *err, size_t errlen);
int pg_move_base(store *base, const char *id, int64_t *before);
int pg_game_stamp(store *base, const char *id, int64_t *stamp, char *err, size_t errlen);
int pg_load_game(store *base, const char *id, store_game *outp, store_row_fn row, store_move_fn move,
                 void *ctx, char *err, size_t errlen);
int pg_set_rematch(store *base, const char *id, const char *rematch, char *err, size_t errlen);
int pg_set_result(store *base, const char *id, int status, int resigned, char *err, size_t errlen);
int pg_truncate(store *base, const char *id, int ply, int status, char *err, size_t errlen);

/* store_pg_accounts.c */
int pg_close_seek(store *base, const char *id, const char *game, char *err, size_t errlen);
int pg_create_account(store *base, const store_account *a, char *err, size_t errlen);
int pg_create_seek(store *base, const store_seek *k, char *err, size_t errlen);
int pg_create_session(store *base, const unsigned char hash[STORE_HASH_LEN], const char *name,
                      int64_t created, int64_t expires, const char *ua, char *err, size_t errlen);
int pg_delete_session(store *base, const unsigned char hash[STORE_HASH_LEN], char *err,
                      size_t errlen);
int pg_each_seek(store *base, store_seek_fn fn, void *ctx, char *err, size_t errlen);
int pg_each_session(store *base, const char *name, int64_t now, store_session_fn fn, void *ctx,
                    char *err, size_t errlen);
int pg_get_account(store *base, const char *name, store_account *out, char *err, size_t errlen);
int pg_get_rating(store *base, const char *name, const char *game, store_rating *out, char *err,
                  size_t errlen);
int pg_get_session(store *base, const unsigned char hash[STORE_HASH_LEN], int64_t now,
                   char name[STORE_NAME_LEN], int64_t *last_used, char *err, size_t errlen);
int pg_player_games(store *base, const char *name, int limit, store_pgame_fn fn, void *ctx,
                    char *err, size_t errlen);
int pg_player_unfinished(store *base, const char *name, int limit, store_id_fn fn, void *ctx,
                         char *err, size_t errlen);
int pg_seek_state(store *base, const char *id);
int pg_set_end(store *base, const char *id, const char *winner, const char *end, char *err,
               size_t errlen);
int pg_set_game_ratings(store *base, const char *id, const double before[2],
                        const double after[2], char *err, size_t errlen);
int pg_set_offers(store *base, const char *id, int draw, int takeback, char *err, size_t errlen);
int pg_set_password(store *base, const char *name, const char *pwhash, char *err, size_t errlen);
/* store_pg_chat.c: chat lines, blocks, chat flags */
int pg_add_chat(store *base, const char *game, int room, const char *name, const char *text,
                int64_t ms, char *err, size_t errlen);
int pg_each_chat(store *base, const char *game, int room, int limit, store_chat_fn fn, void *ctx,
                 char *err, size_t errlen);
int pg_set_block(store *base, const char *owner, const char *name, int on, int64_t created,
                 char *err, size_t errlen);
int pg_each_block(store *base, const char *owner, store_name_fn fn, void *ctx, char *err,
                  size_t errlen);
int pg_get_chat_flags(store *base, const char *name, int *flags, char *err, size_t errlen);
int pg_set_chat_flag(store *base, const char *name, int bit, int on, char *err, size_t errlen);
/* store_pg_moderation.c */
int pg_close_account(store *base, const char *name, int64_t at, char *err, size_t errlen);
int pg_set_banned(store *base, const char *name, int on, char *err, size_t errlen);
int pg_add_report(store *base, const store_report *r, char *err, size_t errlen);
int pg_each_report(store *base, const char *reporter, int limit, store_report_fn fn, void *ctx,
                   char *err, size_t errlen);
int pg_count_reports(store *base, const char *reporter, const char *reported, int64_t since,
                     char *err, size_t errlen);
int pg_add_audit(store *base, const store_audit *a, char *err, size_t errlen);
int pg_each_audit(store *base, int64_t after, int limit, store_audit_fn fn, void *ctx, char *err,
                  size_t errlen);
int64_t pg_audit_last(store *base, char *err, size_t errlen);
int pg_each_chat_by(store *base, const char *name, int limit, store_chat_by_fn fn, void *ctx,
                    char *err, size_t errlen);
int64_t pg_prune(store *base, int64_t before, char *err, size_t errlen);
int pg_set_lang(store *base, const char *name, const char *lang, char *err, size_t errlen);
/* Bots (SPEC "Bots"): store_pg_accounts.c. */
int pg_set_bot(store *base, const char *name, char *err, size_t errlen);
int pg_create_token(store *base, const char *id, const unsigned char hash[STORE_HASH_LEN],
                    const char *name, int64_t created, char *err, size_t errlen);
int pg_get_token(store *base, const unsigned char hash[STORE_HASH_LEN], char name[STORE_NAME_LEN],
                 int64_t *last_used, char *err, size_t errlen);
int pg_touch_token(store *base, const unsigned char hash[STORE_HASH_LEN], int64_t now, char *err,
                   size_t errlen);
int pg_delete_token(store *base, const char *name, const char *id, char *err, size_t errlen);
int pg_each_token(store *base, const char *name, store_token_fn fn, void *ctx, char *err,
                  size_t errlen);
int pg_set_rating(store *base, const char *name, const char *game, const store_rating *r, char *err,
                  size_t errlen);
int pg_touch_session(store *base, const unsigned char hash[STORE_HASH_LEN], int64_t now, char *err,
                     size_t errlen);

/* store_pg_mail.c */
int pg_mail_get(store *base, const char *name, store_mail *out, char *err, size_t errlen);
int pg_mail_put(store *base, const store_mail *m, char *err, size_t errlen);
int pg_mail_find(store *base, int which, const char *key, char name[STORE_NAME_LEN], char *err,
                 size_t errlen);
int pg_mail_add(store *base, const store_mail_item *it, int max, char *err, size_t errlen);
int pg_mail_due(store *base, int64_t now, int limit, store_id_fn fn, void *ctx, char *err,
                size_t errlen);
int pg_mail_items(store *base, const char *name, store_mail_item_fn fn, void *ctx, char *err,
                  size_t errlen);
int pg_mail_drop(store *base, int64_t id, char *err, size_t errlen);
int pg_mail_defer(store *base, int64_t id, int64_t due, int tries, char *err, size_t errlen);
int pg_mail_log(store *base, const char *name, int64_t now, char *err, size_t errlen);
int pg_mail_count(store *base, const char *name, int64_t since, char *err, size_t errlen);

/* store_pg_shared.c */
int pg_listen(store *base, const char *const *channels, int n, char *err, size_t errlen);
int pg_login_guard(store *base, const char *name, int64_t now, int window, int limit, int op,
                   char *err, size_t errlen);
int pg_notify(store *base, const char *channel, const char *payload, char *err, size_t errlen);
void pg_release_claim(store *base, const char *key);
void pg_stats(const store *base, int64_t *round_trips, int64_t *bytes_out, int64_t *bytes_in);
int pg_try_claim(store *base, const char *key, char *err, size_t errlen);
int pg_each_rating(store *base, const char *name, int (*fn)(void *ctx, const char *game,
                   const store_rating *r), void *ctx, char *err, size_t errlen);
int pg_leaderboard(store *base, const char *game, int limit, int (*fn)(void *ctx, const char *name,
                   const store_rating *r), void *ctx, char *err, size_t errlen);
int pg_wait_notify(store *base, int timeout_ms, void (*fn)(void *ctx, const char *channel,
                   const char *payload), void *ctx, char *err, size_t errlen);

/* store_pg_tour.c */
int pg_create_tour(store *base, const store_tour *t, char *err, size_t errlen);
int pg_set_tour(store *base, const char *id, int from, int to, int64_t starts, int64_t ends,
                char *err, size_t errlen);
int pg_get_tour(store *base, const char *id, store_tour *out, char *err, size_t errlen);
int pg_each_tour(store *base, int unfinished, int limit, store_tour_fn fn, void *ctx, char *err,
                 size_t errlen);
int pg_count_tours(store *base, const char *creator, int64_t since, char *err, size_t errlen);
int pg_set_tour_player(store *base, const char *id, const store_tour_player *p, char *err,
                       size_t errlen);
int pg_each_tour_player(store *base, const char *id, store_tour_player_fn fn, void *ctx,
                        char *err, size_t errlen);
int pg_add_tour_game(store *base, const char *id, const store_tour_game *g, char *err,
                     size_t errlen);
int pg_each_tour_game(store *base, const char *id, store_tour_game_fn fn, void *ctx, char *err,
                      size_t errlen);
int pg_game_tour(store *base, const char *game, char tour[STORE_ID_LEN], char *err, size_t errlen);

/* A read bound from a format (pg_params_v): 1 rows (in *r), 0 none, -1
 * error (store_pg_shared.c). */
int pg_read_rows(pg_store *st, int q, PGresult **r, const char *what, char *err, size_t errlen,
                 const char *fmt, ...);

#endif
