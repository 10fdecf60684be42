/*
 * store_sqlite_internal.h — what store_sqlite.c shares with the SQLite
 * backend's other files (the games, accounts, mail, tournaments, chat and
 * moderation files: store_sqlite_*.c).
 */
#ifndef SERVER_CORE_STORE_SQLITE_INTERNAL_H
#define SERVER_CORE_STORE_SQLITE_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include <sqlite3.h>

#include "server/core/store.h"

/* The statements, prepared once at open (store_sqlite.c's table). */
enum {
    Q_BEGIN, Q_COMMIT, Q_ROLLBACK, Q_SAVEPOINT, Q_RELEASE, Q_ROLLBACK_TO,
    Q_INS_GAME, Q_INS_SEAT, Q_INS_MOVE, Q_SET_STATUS, Q_SET_RESULT, Q_SET_REMATCH, Q_DEL_MOVES,
    Q_GET_GAME, Q_GET_SEATS, Q_GET_MOVES, Q_UNFINISHED,
    Q_SET_END, Q_INS_ACCOUNT, Q_GET_ACCOUNT, Q_SET_PASSWORD, Q_SET_LANG, Q_INS_SESSION, Q_GET_SESSION,
    Q_DEL_SESSION, Q_SESSIONS_OF, Q_TOUCH_SESSION, Q_INS_SEEK, Q_CLOSE_SEEK, Q_SEEK_STATE, Q_OPEN_SEEKS, Q_GET_RATING, Q_SET_RATING,
    Q_RATINGS, Q_PLAYER_GAMES, Q_LEADERBOARD, Q_UNFINISHED_OF, Q_SET_GAME_RATINGS, Q_SET_OFFERS,
    Q_SET_BOT, Q_INS_TOKEN, Q_GET_TOKEN, Q_TOUCH_TOKEN, Q_DEL_TOKEN, Q_TOKENS_OF,
    Q_MAIL_GET, Q_MAIL_PUT, Q_MAIL_UNSUB, Q_MAIL_VERIFY, Q_MAIL_ADD, Q_MAIL_DUE, Q_MAIL_ITEMS,
    Q_MAIL_DROP, Q_MAIL_DEFER, Q_MAIL_LOG, Q_MAIL_PRUNE, Q_MAIL_COUNT,
    Q_INS_TOUR, Q_SET_TOUR, Q_GET_TOUR, Q_ALL_TOURS, Q_OPEN_TOURS, Q_COUNT_TOURS, Q_SET_TOUR_PLAYER,
    Q_TOUR_PLAYERS, Q_INS_TOUR_GAME, Q_TOUR_GAME_AT, Q_TOUR_GAMES, Q_GAME_TOUR,
    Q_INS_CHAT, Q_CHAT_OF, Q_INS_BLOCK, Q_DEL_BLOCK, Q_BLOCKS_OF, Q_GET_CHAT_FLAGS, Q_SET_CHAT_FLAG,
    NQ
};

typedef struct sq_store {
    store base;          /* first: a sq_store is a store */
    sqlite3 *db;
    sqlite3_stmt *q[NQ];
    int in_tx;          /* a batch is open: writes wait for store_flush */
} sq_store;

/* Shared by the backend's files (store_sqlite.c). */
int sq_fail(sq_store *st, const char *what, char *err, size_t errlen);
int sq_run(sq_store *st, int q);
int sq_begin(sq_store *st);
int sq_commit(sq_store *st, char *err, size_t errlen);
int sq_abort_tx(sq_store *st, sqlite3_stmt *s, const char *what, char *err, size_t errlen);
int sq_step_done(sqlite3_stmt *s);
sqlite3_stmt *sq_bind(sq_store *st, int q, const char *fmt, ...);
int sq_write1(sq_store *st, sqlite3_stmt *s, int want, const char *what, char *err, size_t errlen);
int sq_read1(sq_store *st, sqlite3_stmt *s, const char *what, char *err, size_t errlen);
void sq_done1(sqlite3_stmt *s);
int sq_col_text(sqlite3_stmt *s, int col, char *buf, size_t n);

/* store_sqlite_games.c */
int sq_create_game(store *base, const store_game *g, const store_move *moves, int nmoves,
                      char *err, size_t errlen);
int sq_add_move(store *base, const char *id, int ply, const store_move *m, int status,
                       char *err, size_t errlen);
int sq_truncate(store *base, const char *id, int ply, int status, char *err,
                       size_t errlen);
int sq_set_result(store *base, const char *id, int status, int resigned, char *err,
                         size_t errlen);
int sq_set_rematch(store *base, const char *id, const char *rematch, char *err,
                          size_t errlen);
int sq_load_game(store *base, const char *id, store_game *outp, store_row_fn row,
                        store_move_fn move, void *ctx, char *err, size_t errlen);
int sq_each_unfinished(store *base, store_id_fn fn, void *ctx, char *err, size_t errlen);

/* store_sqlite_accounts.c */
int sq_set_end(store *base, const char *id, const char *winner, const char *end, char *err,
                      size_t errlen);
int sq_create_account(store *base, const store_account *a, char *err, size_t errlen);
int sq_get_account(store *base, const char *name, store_account *out, char *err,
                          size_t errlen);
int sq_set_password(store *base, const char *name, const char *pwhash, char *err,
                           size_t errlen);
int sq_set_lang(store *base, const char *name, const char *lang, char *err, size_t errlen);
int sq_create_session(store *base, const unsigned char hash[STORE_HASH_LEN],
                             const char *name, int64_t created, int64_t expires,
                             const char *ua, char *err, size_t errlen);
int sq_touch_session(store *base, const unsigned char hash[STORE_HASH_LEN], int64_t now,
                            char *err, size_t errlen);
int sq_get_session(store *base, const unsigned char hash[STORE_HASH_LEN], int64_t now,
                          char name[STORE_NAME_LEN], int64_t *last_used, char *err,
                          size_t errlen);
int sq_delete_session(store *base, const unsigned char hash[STORE_HASH_LEN], char *err,
                             size_t errlen);
int sq_each_session(store *base, const char *name, int64_t now, store_session_fn fn,
                           void *ctx, char *err, size_t errlen);
int sq_create_seek(store *base, const store_seek *k, char *err, size_t errlen);
int sq_seek_state(store *base, const char *id);
int sq_close_seek(store *base, const char *id, const char *game, char *err, size_t errlen);
int sq_each_seek(store *base, store_seek_fn fn, void *ctx, char *err, size_t errlen);
int sq_get_rating(store *base, const char *name, const char *game, store_rating *out,
                         char *err, size_t errlen);
int sq_set_rating(store *base, const char *name, const char *game, const store_rating *r,
                         char *err, size_t errlen);
int sq_each_rating(store *base, const char *name,
                          int (*fn)(void *ctx, const char *game, const store_rating *r), void *ctx,
                          char *err, size_t errlen);
int sq_set_offers(store *base, const char *id, int draw, int takeback, char *err,
                         size_t errlen);
int sq_set_game_ratings(store *base, const char *id, const double before[2],
                               const double after[2], char *err, size_t errlen);
int sq_leaderboard(store *base, const char *game, int limit,
                          int (*fn)(void *ctx, const char *name, const store_rating *r),
                          void *ctx, char *err, size_t errlen);
int sq_player_unfinished(store *base, const char *name, int limit, store_id_fn fn,
                                void *ctx, char *err, size_t errlen);
int sq_player_games(store *base, const char *name, int limit, store_pgame_fn fn, void *ctx,
                           char *err, size_t errlen);
int sq_set_bot(store *base, const char *name, char *err, size_t errlen);
int sq_create_token(store *base, const char *id, const unsigned char hash[STORE_HASH_LEN],
                           const char *name, int64_t created, char *err, size_t errlen);
int sq_get_token(store *base, const unsigned char hash[STORE_HASH_LEN],
                        char name[STORE_NAME_LEN], int64_t *last_used, char *err, size_t errlen);
int sq_touch_token(store *base, const unsigned char hash[STORE_HASH_LEN], int64_t now,
                          char *err, size_t errlen);
int sq_delete_token(store *base, const char *name, const char *id, char *err,
                           size_t errlen);
int sq_each_token(store *base, const char *name, store_token_fn fn, void *ctx, char *err,
                         size_t errlen);

/* store_sqlite_mail.c */
int sq_mail_get(store *base, const char *name, store_mail *out, char *err, size_t errlen);
int sq_mail_put(store *base, const store_mail *m, char *err, size_t errlen);
int sq_mail_find(store *base, int which, const char *key, char name[STORE_NAME_LEN],
                        char *err, size_t errlen);
int sq_mail_add(store *base, const store_mail_item *it, int max, char *err, size_t errlen);
int sq_mail_due(store *base, int64_t now, int limit, store_id_fn fn, void *ctx, char *err,
                       size_t errlen);
int sq_mail_items(store *base, const char *name, store_mail_item_fn fn, void *ctx,
                         char *err, size_t errlen);
int sq_mail_drop(store *base, int64_t id, char *err, size_t errlen);
int sq_mail_defer(store *base, int64_t id, int64_t due, int tries, char *err, size_t errlen);
int sq_mail_log(store *base, const char *name, int64_t now, char *err, size_t errlen);
int sq_mail_count(store *base, const char *name, int64_t since, char *err, size_t errlen);

/* store_sqlite_tour.c */
int sq_create_tour(store *base, const store_tour *t, char *err, size_t errlen);
int sq_set_tour(store *base, const char *id, int from, int to, int64_t starts,
                       int64_t ends, char *err, size_t errlen);
int sq_get_tour(store *base, const char *id, store_tour *out, char *err, size_t errlen);
int sq_each_tour(store *base, int unfinished, int limit, store_tour_fn fn, void *ctx,
                        char *err, size_t errlen);
int sq_count_tours(store *base, const char *creator, int64_t since, char *err,
                          size_t errlen);
int sq_set_tour_player(store *base, const char *id, const store_tour_player *p, char *err,
                              size_t errlen);
int sq_each_tour_player(store *base, const char *id, store_tour_player_fn fn, void *ctx,
                               char *err, size_t errlen);
int sq_add_tour_game(store *base, const char *id, const store_tour_game *g, char *err,
                            size_t errlen);
int sq_each_tour_game(store *base, const char *id, store_tour_game_fn fn, void *ctx,
                             char *err, size_t errlen);
int sq_game_tour(store *base, const char *game, char tour[STORE_ID_LEN], char *err, size_t errlen);

/* store_sqlite_chat.c */
int sq_add_chat(store *base, const char *game, int room, const char *name,
                       const char *text, int64_t ms, char *err, size_t errlen);
int sq_each_chat(store *base, const char *game, int room, int limit, store_chat_fn fn,
                        void *ctx, char *err, size_t errlen);
int sq_set_block(store *base, const char *owner, const char *name, int on,
                        int64_t created, char *err, size_t errlen);
int sq_each_block(store *base, const char *owner, store_name_fn fn, void *ctx, char *err,
                         size_t errlen);
int sq_get_chat_flags(store *base, const char *name, int *flags, char *err, size_t errlen);
int sq_set_chat_flag(store *base, const char *name, int bit, int on, char *err,
                            size_t errlen);

sqlite3 *sq_db(store *base);
/* A write joins the open batch: sq_op_begin, the statements, then
 * sq_op_end(rc) releases its savepoint (rc 0) or undoes only it. */
int sq_op_begin(store *base, char *err, size_t errlen);
int sq_op_end(store *base, int rc, const char *what, char *err, size_t errlen);

int sq_close_account(store *st, const char *name, int64_t at, char *err, size_t errlen);
int sq_set_banned(store *st, const char *name, int on, char *err, size_t errlen);
int sq_add_report(store *st, const store_report *r, char *err, size_t errlen);
int sq_each_report(store *st, const char *reporter, int limit, store_report_fn fn, void *ctx,
                   char *err, size_t errlen);
int sq_count_reports(store *st, const char *reporter, const char *reported, int64_t since,
                     char *err, size_t errlen);
int sq_add_audit(store *st, const store_audit *a, char *err, size_t errlen);
int sq_each_audit(store *st, int64_t after, int limit, store_audit_fn fn, void *ctx, char *err,
                  size_t errlen);
int64_t sq_audit_last(store *st, char *err, size_t errlen);
int sq_each_chat_by(store *st, const char *name, int limit, store_chat_by_fn fn, void *ctx,
                    char *err, size_t errlen);
int64_t sq_prune(store *st, int64_t before, char *err, size_t errlen);

#endif
