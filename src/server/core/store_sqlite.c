/*
 * store_sqlite.c — the store on SQLite.
 *
 * One database file in WAL mode with synchronous=FULL: a write returns once
 * its transaction is on disk, so a move the server acknowledges survives a
 * crash.  Every statement is prepared once at open and bound; no SQL text is
 * ever built from input.
 *
 * Schema versions: the table schema_version holds one row; migrations[i]
 * brings version i to i+1 and runs inside one transaction with the version
 * bump, so an interrupted migration leaves the old version intact.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <stdarg.h>

#include <sqlite3.h>

#include "server/core/store.h"
#include "server/core/store_sqlite_internal.h"

/* Migrations, in order; never edit one that has shipped, add a new one. */
static const char *const migrations[] = {
    /* 0 -> 1: games, seats, moves. */
    "CREATE TABLE games ("
    "  id TEXT PRIMARY KEY,"
    "  game TEXT NOT NULL,"
    "  options TEXT NOT NULL,"
    "  seed INTEGER NOT NULL,"
    "  white TEXT NOT NULL,"
    "  black TEXT NOT NULL,"
    "  created INTEGER NOT NULL,"
    "  status INTEGER NOT NULL,"
    "  resigned INTEGER NOT NULL DEFAULT -1"
    ");"
    "CREATE INDEX games_status ON games(status);"
    "CREATE TABLE seats ("
    "  game TEXT NOT NULL REFERENCES games(id),"
    "  side INTEGER NOT NULL,"
    "  token_hash BLOB NOT NULL,"
    "  PRIMARY KEY (game, side)"
    ");"
    "CREATE TABLE moves ("
    "  game TEXT NOT NULL REFERENCES games(id),"
    "  ply INTEGER NOT NULL,"
    "  text TEXT NOT NULL,"
    "  ms INTEGER NOT NULL,"
    "  time INTEGER NOT NULL,"
    "  PRIMARY KEY (game, ply)"
    ");",
    /* 1 -> 2: status 2 marks an unfinished game whose computer seat is to act
     * (reloaded at start); others stay on disk until someone asks for them. */
    "UPDATE games SET status = 2 WHERE status = 0 AND (white <> 'human' OR black <> 'human');",
    /* 2 -> 3: two people at one screen (SPEC "Fair play": engine help allowed). */
    "ALTER TABLE games ADD COLUMN local INTEGER NOT NULL DEFAULT 0;",
    /* 3 -> 4: the game a finished one was followed by (rematch), '' for none. */
    "ALTER TABLE games ADD COLUMN rematch TEXT NOT NULL DEFAULT '';",
    /* 4 -> 5: accounts, their sessions and ratings, the lobby's seeks, and
     * games between accounts (SPEC "Accounts, the lobby, clocks and ratings"). */
    "CREATE TABLE accounts ("
    "  name TEXT PRIMARY KEY COLLATE NOCASE,"
    "  pwhash TEXT NOT NULL,"
    "  created INTEGER NOT NULL"
    ");"
    "CREATE TABLE sessions ("
    "  hash BLOB PRIMARY KEY,"
    "  account TEXT NOT NULL REFERENCES accounts(name),"
    "  created INTEGER NOT NULL,"
    "  expires INTEGER NOT NULL"
    ");"
    "CREATE INDEX sessions_account ON sessions(account);"
    "CREATE TABLE ratings ("
    "  account TEXT NOT NULL REFERENCES accounts(name),"
    "  game TEXT NOT NULL,"
    "  rating REAL NOT NULL, rd REAL NOT NULL, vol REAL NOT NULL,"
    "  games INTEGER NOT NULL,"
    "  PRIMARY KEY (account, game)"
    ");"
    "CREATE TABLE seeks ("
    "  id TEXT PRIMARY KEY,"
    "  account TEXT NOT NULL REFERENCES accounts(name),"
    "  game TEXT NOT NULL, options TEXT NOT NULL, rated INTEGER NOT NULL, colour INTEGER NOT NULL,"
    "  initial INTEGER NOT NULL, increment INTEGER NOT NULL, days INTEGER NOT NULL,"
    "  created INTEGER NOT NULL,"
    "  state INTEGER NOT NULL DEFAULT 0,"      /* 0 open, 1 taken, 2 withdrawn */
    "  taken_by TEXT NOT NULL DEFAULT ''"      /* the game it became */
    ");"
    "CREATE INDEX seeks_open ON seeks(state, created);"
    "ALTER TABLE games ADD COLUMN white_account TEXT NOT NULL DEFAULT '' COLLATE NOCASE;"
    "ALTER TABLE games ADD COLUMN black_account TEXT NOT NULL DEFAULT '' COLLATE NOCASE;"
    "ALTER TABLE games ADD COLUMN rated INTEGER NOT NULL DEFAULT 0;"
    "ALTER TABLE games ADD COLUMN winner TEXT NOT NULL DEFAULT '';"
    "ALTER TABLE games ADD COLUMN end_reason TEXT NOT NULL DEFAULT '';"
    "CREATE INDEX games_white_account ON games(white_account, created);"
    "CREATE INDEX games_black_account ON games(black_account, created);",
    /* 5 -> 6: clocks (SPEC "clocks"): real time or days a move, and when the
     * game began; each side's time is rebuilt from the moves' times. */
    "ALTER TABLE games ADD COLUMN clock_initial INTEGER NOT NULL DEFAULT 0;"
    "ALTER TABLE games ADD COLUMN clock_increment INTEGER NOT NULL DEFAULT 0;"
    "ALTER TABLE games ADD COLUMN clock_days INTEGER NOT NULL DEFAULT 0;"
    "ALTER TABLE games ADD COLUMN started_ms INTEGER NOT NULL DEFAULT 0;",
    /* 6 -> 7: each player's rating after a rated game (the rating history). */
    "ALTER TABLE games ADD COLUMN white_rating REAL NOT NULL DEFAULT 0;"
    "ALTER TABLE games ADD COLUMN black_rating REAL NOT NULL DEFAULT 0;",
    /* 7 -> 8: challenges: a seek only one named account may accept. */
    "ALTER TABLE seeks ADD COLUMN challenge TEXT NOT NULL DEFAULT '';",
    /* 8 -> 9: a draw offered, a take-back asked (the side, -1 none). */
    "ALTER TABLE games ADD COLUMN draw_offer INTEGER NOT NULL DEFAULT -1;"
    "ALTER TABLE games ADD COLUMN takeback_offer INTEGER NOT NULL DEFAULT -1;",
    /* 9 -> 10: each session's browser (its User-Agent) and last use (the
     * account page lists them). */
    "ALTER TABLE sessions ADD COLUMN user_agent TEXT NOT NULL DEFAULT '';"
    "ALTER TABLE sessions ADD COLUMN last_used INTEGER NOT NULL DEFAULT 0;"
    "UPDATE sessions SET last_used = created;",
    /* 10 -> 11: the page's language the account chose ('' none). */
    "ALTER TABLE accounts ADD COLUMN lang TEXT NOT NULL DEFAULT '';",
    /* 11 -> 12: each player's rating before a rated game (its change is
     * shown with the result). */
    "ALTER TABLE games ADD COLUMN white_rating_before REAL NOT NULL DEFAULT 0;"
    "ALTER TABLE games ADD COLUMN black_rating_before REAL NOT NULL DEFAULT 0;",
    /* 12 -> 13: bots (SPEC "Bots"): bot accounts and their API tokens (the
     * hash of each, never the token). */
    "ALTER TABLE accounts ADD COLUMN bot INTEGER NOT NULL DEFAULT 0;"
    "CREATE TABLE tokens ("
    "  id TEXT PRIMARY KEY,"
    "  hash BLOB NOT NULL UNIQUE,"
    "  account TEXT NOT NULL COLLATE NOCASE REFERENCES accounts(name),"
    "  created INTEGER NOT NULL,"
    "  last_used INTEGER NOT NULL DEFAULT 0"
    ");"
    "CREATE INDEX tokens_account ON tokens(account);",
    /* 13 -> 14: e-mail: each account's address and wishes, the queue of
     * mails to send (kept until sent) and the log of mails sent (the hourly
     * limit).  Accounts are keyed in lower case. */
    "CREATE TABLE mail_prefs ("
    "  account TEXT PRIMARY KEY,"
    "  address TEXT NOT NULL DEFAULT '',"
    "  verified INTEGER NOT NULL DEFAULT 0,"
    "  verify_hash TEXT NOT NULL DEFAULT '',"
    "  verify_at INTEGER NOT NULL DEFAULT 0,"
    "  verify_count INTEGER NOT NULL DEFAULT 0,"
    "  verify_since INTEGER NOT NULL DEFAULT 0,"
    "  kinds INTEGER NOT NULL DEFAULT 7,"
    "  digest INTEGER NOT NULL DEFAULT 0,"
    "  unsub TEXT NOT NULL DEFAULT ''"
    ");"
    "CREATE INDEX mail_prefs_unsub ON mail_prefs(unsub);"
    "CREATE INDEX mail_prefs_verify ON mail_prefs(verify_hash);"
    "CREATE TABLE mail_queue ("
    "  id INTEGER PRIMARY KEY AUTOINCREMENT,"
    "  account TEXT NOT NULL,"
    "  kind INTEGER NOT NULL,"
    "  arg TEXT NOT NULL,"
    "  created INTEGER NOT NULL,"
    "  due INTEGER NOT NULL,"
    "  tries INTEGER NOT NULL DEFAULT 0"
    ");"
    "CREATE INDEX mail_queue_due ON mail_queue(due);"
    "CREATE INDEX mail_queue_account ON mail_queue(account, id);"
    "CREATE TABLE mail_log (account TEXT NOT NULL, sent INTEGER NOT NULL);"
    "CREATE INDEX mail_log_account ON mail_log(account, sent);",
    /* 14 -> 15: tournaments, their players and their games (SPEC "Tournaments");
     * scores are computed from the games, never stored. */
    "CREATE TABLE tournaments ("
    "  id TEXT PRIMARY KEY, name TEXT NOT NULL, game TEXT NOT NULL, options TEXT NOT NULL,"
    "  kind TEXT NOT NULL, rated INTEGER NOT NULL,"
    "  clock_initial INTEGER NOT NULL, clock_increment INTEGER NOT NULL,"
    "  clock_days INTEGER NOT NULL,"
    "  creator TEXT NOT NULL COLLATE NOCASE,"
    "  status INTEGER NOT NULL DEFAULT 0,"        /* 0 open, 1 running, 2 over */
    "  starts INTEGER NOT NULL, ends INTEGER NOT NULL DEFAULT 0,"
    "  minutes INTEGER NOT NULL, created INTEGER NOT NULL,"
    "  repeat TEXT NOT NULL DEFAULT '',"          /* '', 'day', 'week' */
    "  previous TEXT NOT NULL DEFAULT ''"         /* the edition it follows */
    ");"
    "CREATE INDEX tournaments_status ON tournaments(status, starts);"
    "CREATE UNIQUE INDEX tournaments_previous ON tournaments(previous) WHERE previous <> '';"
    "CREATE INDEX tournaments_creator ON tournaments(creator, created);"
    "CREATE TABLE tournament_players ("
    "  tournament TEXT NOT NULL REFERENCES tournaments(id),"
    "  account TEXT NOT NULL COLLATE NOCASE,"
    "  rating REAL NOT NULL, withdrawn INTEGER NOT NULL DEFAULT 0,"
    "  division INTEGER NOT NULL DEFAULT 0, seed INTEGER NOT NULL DEFAULT 0,"
    "  joined INTEGER NOT NULL, once INTEGER NOT NULL DEFAULT 0,"
    "  PRIMARY KEY (tournament, account)"
    ");"
    "CREATE TABLE tournament_games ("
    "  tournament TEXT NOT NULL REFERENCES tournaments(id),"
    "  seq INTEGER NOT NULL,"
    "  game TEXT NOT NULL REFERENCES games(id),"
    "  white TEXT NOT NULL, black TEXT NOT NULL, division INTEGER NOT NULL,"
    "  PRIMARY KEY (tournament, seq)"
    ");"
    "CREATE INDEX tournament_games_game ON tournament_games(game);",
    /* 15 -> 16: chat in a game (two rooms: 0 the players, 1 the spectators),
     * each account's block list and its chat flags (1 off in rated games,
     * 2 muted by the operator). */
    "CREATE TABLE chat ("
    "  seq INTEGER PRIMARY KEY AUTOINCREMENT,"
    "  game TEXT NOT NULL,"
    "  room INTEGER NOT NULL,"
    "  name TEXT NOT NULL,"
    "  text TEXT NOT NULL,"
    "  ms INTEGER NOT NULL"
    ");"
    "CREATE INDEX chat_game ON chat (game, room, seq);"
    "CREATE TABLE blocks ("
    "  owner TEXT NOT NULL,"
    "  name TEXT NOT NULL,"
    "  created INTEGER NOT NULL,"
    "  PRIMARY KEY (owner, name)"
    ");"
    "CREATE TABLE chat_flags (name TEXT PRIMARY KEY, flags INTEGER NOT NULL DEFAULT 0);",
    /* 16 -> 17: moderation: an account closed (when) or banned, players'
     * reports, the operator's audit log; chat lines found by their writer
     * (the export) and by age (retention). */
    "ALTER TABLE accounts ADD COLUMN closed INTEGER NOT NULL DEFAULT 0;"
    "ALTER TABLE accounts ADD COLUMN banned INTEGER NOT NULL DEFAULT 0;"
    "CREATE TABLE reports ("
    "  id INTEGER PRIMARY KEY AUTOINCREMENT,"
    "  created INTEGER NOT NULL,"
    "  reporter TEXT NOT NULL COLLATE NOCASE,"
    "  reported TEXT NOT NULL COLLATE NOCASE,"
    "  game TEXT NOT NULL DEFAULT '',"
    "  reason TEXT NOT NULL,"
    "  text TEXT NOT NULL"
    ");"
    "CREATE INDEX reports_reporter ON reports (reporter, created);"
    "CREATE INDEX reports_created ON reports (created);"
    "CREATE TABLE audit ("
    "  id INTEGER PRIMARY KEY AUTOINCREMENT,"
    "  created INTEGER NOT NULL,"
    "  operator TEXT NOT NULL,"
    "  action TEXT NOT NULL,"
    "  target TEXT NOT NULL,"
    "  note TEXT NOT NULL DEFAULT ''"
    ");"
    "CREATE INDEX chat_name ON chat (name COLLATE NOCASE, seq);"
    "CREATE INDEX chat_ms ON chat (ms);",
};
#define NMIGRATIONS ((int)(sizeof migrations / sizeof migrations[0]))

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
    Q_TOUR_PLAYERS, Q_INS_TOUR_GAME, Q_TOUR_GAME_AT, Q_TOUR_GAMES,
    Q_INS_CHAT, Q_CHAT_OF, Q_INS_BLOCK, Q_DEL_BLOCK, Q_BLOCKS_OF, Q_GET_CHAT_FLAGS, Q_SET_CHAT_FLAG,
    NQ
};

static const char *const queries[NQ] = {
    [Q_BEGIN] = "BEGIN IMMEDIATE",
    [Q_COMMIT] = "COMMIT",
    [Q_ROLLBACK] = "ROLLBACK",
    [Q_SAVEPOINT] = "SAVEPOINT op",
    [Q_RELEASE] = "RELEASE op",
    [Q_ROLLBACK_TO] = "ROLLBACK TO op",
    [Q_INS_GAME] = "INSERT INTO games (id, game, options, seed, white, black, created, status,"
                   " resigned, local, white_account, black_account, rated, clock_initial,"
                   " clock_increment, clock_days, started_ms)"
                   " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15,"
                   " ?16, ?17)",
    [Q_INS_SEAT] = "INSERT INTO seats (game, side, token_hash) VALUES (?1, ?2, ?3)",
    [Q_INS_MOVE] = "INSERT INTO moves (game, ply, text, ms, time) VALUES (?1, ?2, ?3, ?4, ?5)",
    [Q_SET_STATUS] = "UPDATE games SET status = ?2 WHERE id = ?1",
    [Q_SET_RESULT] = "UPDATE games SET status = ?2, resigned = ?3 WHERE id = ?1",
    [Q_SET_REMATCH] = "UPDATE games SET rematch = ?2 WHERE id = ?1 AND rematch = ''",
    [Q_DEL_MOVES] = "DELETE FROM moves WHERE game = ?1 AND ply >= ?2",
    [Q_GET_GAME] = "SELECT game, options, seed, white, black, created, status, resigned, local,"
                   " rematch, white_account, black_account, rated, winner, end_reason,"
                   " clock_initial, clock_increment, clock_days, started_ms, draw_offer,"
                   " takeback_offer, white_rating_before, black_rating_before, white_rating,"
                   " black_rating FROM games WHERE id = ?1",
    [Q_GET_SEATS] = "SELECT side, token_hash FROM seats WHERE game = ?1",
    [Q_GET_MOVES] = "SELECT ply, text, ms, time FROM moves WHERE game = ?1 ORDER BY ply",
    [Q_UNFINISHED] = "SELECT id FROM games WHERE status = 2 OR (status = 0 AND"
                     " (clock_initial > 0 OR clock_days > 0)) ORDER BY created, id",
    [Q_SET_END] = "UPDATE games SET winner = ?2, end_reason = ?3 WHERE id = ?1",
    [Q_INS_ACCOUNT] = "INSERT INTO accounts (name, pwhash, created) VALUES (?1, ?2, ?3)",
    [Q_GET_ACCOUNT] = "SELECT name, pwhash, created, lang, bot, closed, banned FROM accounts"
                      " WHERE name = ?1",
    [Q_SET_PASSWORD] = "UPDATE accounts SET pwhash = ?2 WHERE name = ?1",
    [Q_SET_LANG] = "UPDATE accounts SET lang = ?2 WHERE name = ?1",
    [Q_INS_SESSION] = "INSERT INTO sessions (hash, account, created, expires, user_agent, last_used)"
                      " VALUES (?1, ?2, ?3, ?4, ?5, ?3)",
    [Q_TOUCH_SESSION] = "UPDATE sessions SET last_used = ?2 WHERE hash = ?1 AND last_used < ?2",
    [Q_GET_SESSION] = "SELECT a.name, s.last_used FROM sessions s JOIN accounts a ON a.name = s.account"
                      " WHERE s.hash = ?1 AND s.expires > ?2 AND a.closed = 0 AND a.banned = 0",
    [Q_DEL_SESSION] = "DELETE FROM sessions WHERE hash = ?1",
    [Q_SESSIONS_OF] = "SELECT hash, created, expires, user_agent, last_used FROM sessions"
                      " WHERE account = ?1 AND expires > ?2 ORDER BY created DESC, rowid DESC",
    [Q_INS_SEEK] = "INSERT INTO seeks (id, account, game, options, rated, colour, initial,"
                   " increment, days, created, challenge)"
                   " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)",
    [Q_CLOSE_SEEK] = "UPDATE seeks SET state = ?3, taken_by = ?2 WHERE id = ?1 AND state = 0",
    [Q_SEEK_STATE] = "SELECT state FROM seeks WHERE id = ?1",
    [Q_OPEN_SEEKS] = "SELECT id, account, game, options, rated, colour, initial, increment, days,"
                     " created, challenge FROM seeks WHERE state = 0 ORDER BY created, id",
    [Q_GET_RATING] = "SELECT rating, rd, vol, games FROM ratings WHERE account = ?1 AND game = ?2",
    [Q_SET_RATING] = "INSERT INTO ratings (account, game, rating, rd, vol, games)"
                     " VALUES (?1, ?2, ?3, ?4, ?5, ?6) ON CONFLICT (account, game) DO UPDATE SET"
                     " rating = excluded.rating, rd = excluded.rd, vol = excluded.vol,"
                     " games = excluded.games",
    [Q_RATINGS] = "SELECT game, rating, rd, vol, games FROM ratings WHERE account = ?1 ORDER BY game",
    [Q_SET_OFFERS] = "UPDATE games SET draw_offer = ?2, takeback_offer = ?3 WHERE id = ?1",
    [Q_SET_GAME_RATINGS] = "UPDATE games SET white_rating = ?2, black_rating = ?3,"
                           " white_rating_before = ?4, black_rating_before = ?5 WHERE id = ?1",
    [Q_LEADERBOARD] = "SELECT a.name, r.rating, r.rd, r.vol, r.games, a.bot FROM ratings r"
                      " JOIN accounts a ON a.name = r.account WHERE r.game = ?1 AND r.games > 0"
                      " AND a.closed = 0 AND a.banned = 0 ORDER BY r.rating DESC, a.name LIMIT ?2",
    [Q_UNFINISHED_OF] = "SELECT id FROM games WHERE status <> 1 AND"
                        " (white_account = ?1 OR black_account = ?1)"
                        " ORDER BY created DESC, rowid DESC LIMIT ?2",
    /* Tournaments. */
    [Q_INS_TOUR] = "INSERT INTO tournaments (id, name, game, options, kind, rated, clock_initial,"
                   " clock_increment, clock_days, creator, status, starts, ends, minutes, created, repeat,"
                   " previous) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14,"
                   " ?15, ?16, ?17)",
    [Q_SET_TOUR] = "UPDATE tournaments SET status = ?3, starts = ?4, ends = ?5"
                   " WHERE id = ?1 AND status = ?2",
    [Q_GET_TOUR] = "SELECT id, name, game, options, kind, rated, clock_initial, clock_increment,"
                   " clock_days, creator, status, starts, ends, minutes, created,"
                   " (SELECT count(*) FROM tournament_players p WHERE p.tournament = t.id"
                   " AND p.withdrawn = 0), repeat, previous FROM tournaments t WHERE id = ?1",
    [Q_ALL_TOURS] = "SELECT id, name, game, options, kind, rated, clock_initial, clock_increment,"
                    " clock_days, creator, status, starts, ends, minutes, created,"
                    " (SELECT count(*) FROM tournament_players p WHERE p.tournament = t.id"
                    " AND p.withdrawn = 0), repeat, previous FROM tournaments t ORDER BY starts DESC, id LIMIT ?1",
    [Q_OPEN_TOURS] = "SELECT id, name, game, options, kind, rated, clock_initial, clock_increment,"
                     " clock_days, creator, status, starts, ends, minutes, created,"
                     " (SELECT count(*) FROM tournament_players p WHERE p.tournament = t.id"
                     " AND p.withdrawn = 0), repeat, previous FROM tournaments t WHERE status < 2"
                     " ORDER BY starts, id LIMIT ?1",
    [Q_COUNT_TOURS] = "SELECT count(*) FROM tournaments WHERE creator = ?1 AND created >= ?2"
                      " AND previous = ''",
    [Q_SET_TOUR_PLAYER] = "INSERT INTO tournament_players (tournament, account, rating, withdrawn,"
                          " division, seed, joined, once) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)"
                          " ON CONFLICT (tournament, account) DO UPDATE SET"
                          " rating = excluded.rating, withdrawn = excluded.withdrawn,"
                          " division = excluded.division, seed = excluded.seed,"
                          " joined = excluded.joined, once = excluded.once",
    [Q_TOUR_PLAYERS] = "SELECT account, rating, withdrawn, division, seed, joined, once"
                       " FROM tournament_players WHERE tournament = ?1 ORDER BY joined, account",
    [Q_INS_TOUR_GAME] = "INSERT INTO tournament_games (tournament, seq, game, white, black,"
                        " division) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
    [Q_TOUR_GAME_AT] = "SELECT game FROM tournament_games WHERE tournament = ?1 AND seq = ?2",
    [Q_TOUR_GAMES] = "SELECT t.seq, t.game, t.white, t.black, t.division, g.winner, g.end_reason,"
                     " (SELECT count(*) FROM moves m WHERE m.game = t.game)"
                     " FROM tournament_games t JOIN games g ON g.id = t.game"
                     " WHERE t.tournament = ?1 ORDER BY t.seq",
    [Q_PLAYER_GAMES] = "SELECT id, game, white, black, white_account, black_account, winner,"
                       " end_reason, rated, white_rating, black_rating, created FROM games WHERE white_account = ?1 OR black_account = ?1"
                       " ORDER BY created DESC, rowid DESC LIMIT ?2",
    [Q_SET_BOT] = "UPDATE accounts SET bot = 1 WHERE name = ?1",
    [Q_INS_TOKEN] = "INSERT INTO tokens (id, hash, account, created) VALUES (?1, ?2, ?3, ?4)",
    [Q_GET_TOKEN] = "SELECT a.name, t.last_used FROM tokens t JOIN accounts a ON a.name = t.account"
                    " WHERE t.hash = ?1 AND a.closed = 0 AND a.banned = 0",
    [Q_TOUCH_TOKEN] = "UPDATE tokens SET last_used = ?2 WHERE hash = ?1 AND last_used < ?2",
    [Q_DEL_TOKEN] = "DELETE FROM tokens WHERE account = ?1 AND id = ?2",
    [Q_TOKENS_OF] = "SELECT id, created, last_used FROM tokens WHERE account = ?1"
                    " ORDER BY created, rowid",
    [Q_MAIL_GET] = "SELECT address, verified, verify_hash, verify_at, verify_count, verify_since,"
                   " kinds, digest, unsub FROM mail_prefs WHERE account = lower(?1)",
    [Q_MAIL_PUT] = "INSERT INTO mail_prefs (account, address, verified, verify_hash, verify_at,"
                   " verify_count, verify_since, kinds, digest, unsub)"
                   " VALUES (lower(?1), ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)"
                   " ON CONFLICT (account) DO UPDATE SET address = excluded.address,"
                   " verified = excluded.verified, verify_hash = excluded.verify_hash,"
                   " verify_at = excluded.verify_at, verify_count = excluded.verify_count,"
                   " verify_since = excluded.verify_since, kinds = excluded.kinds,"
                   " digest = excluded.digest, unsub = excluded.unsub",
    [Q_MAIL_UNSUB] = "SELECT a.name FROM mail_prefs m JOIN accounts a ON lower(a.name) = m.account"
                     " WHERE m.unsub = ?1 AND m.unsub <> ''",
    [Q_MAIL_VERIFY] = "SELECT a.name FROM mail_prefs m JOIN accounts a ON lower(a.name) = m.account"
                      " WHERE m.verify_hash = ?1 AND m.verify_hash <> ''",
    [Q_MAIL_ADD] = "INSERT INTO mail_queue (account, kind, arg, created, due)"
                   " SELECT lower(?1), ?2, ?3, ?4, ?5"
                   " WHERE (SELECT count(*) FROM mail_queue WHERE account = lower(?1)) < ?6"
                   " AND NOT EXISTS (SELECT 1 FROM mail_queue WHERE account = lower(?1)"
                   " AND kind = ?2 AND arg = ?3)",
    [Q_MAIL_DUE] = "SELECT DISTINCT account FROM mail_queue WHERE due <= ?1 LIMIT ?2",
    [Q_MAIL_ITEMS] = "SELECT id, account, kind, arg, created, due, tries FROM mail_queue"
                     " WHERE account = lower(?1) ORDER BY id",
    [Q_MAIL_DROP] = "DELETE FROM mail_queue WHERE id = ?1",
    [Q_MAIL_DEFER] = "UPDATE mail_queue SET due = ?2, tries = ?3 WHERE id = ?1",
    [Q_MAIL_LOG] = "INSERT INTO mail_log (account, sent) VALUES (lower(?1), ?2)",
    [Q_MAIL_PRUNE] = "DELETE FROM mail_log WHERE account = lower(?1) AND sent < ?2",
    [Q_MAIL_COUNT] = "SELECT count(*) FROM mail_log WHERE account = lower(?1) AND sent >= ?2",
    [Q_INS_CHAT] = "INSERT INTO chat (game, room, name, text, ms) VALUES (?1, ?2, ?3, ?4, ?5)",
    [Q_CHAT_OF] = "SELECT name, text, ms FROM (SELECT seq, name, text, ms FROM chat"
                  " WHERE game = ?1 AND room = ?2 ORDER BY seq DESC LIMIT ?3) ORDER BY seq",
    [Q_INS_BLOCK] = "INSERT INTO blocks (owner, name, created) VALUES (?1, ?2, ?3)"
                    " ON CONFLICT (owner, name) DO NOTHING",
    [Q_DEL_BLOCK] = "DELETE FROM blocks WHERE owner = ?1 AND name = ?2",
    [Q_BLOCKS_OF] = "SELECT name FROM blocks WHERE owner = ?1 ORDER BY created, rowid",
    [Q_GET_CHAT_FLAGS] = "SELECT flags FROM chat_flags WHERE name = ?1",
    [Q_SET_CHAT_FLAG] = "INSERT INTO chat_flags (name, flags) VALUES (?1, ?3)"
                        " ON CONFLICT (name) DO UPDATE SET flags = (flags & ~?2) | ?3",
};

typedef struct sq_store {
    store base;          /* first: a sq_store is a store */
    sqlite3 *db;
    sqlite3_stmt *q[NQ];
    int in_tx;          /* a batch is open: writes wait for store_flush */
} sq_store;

/* Copy SQLite's last message into err. */
static int fail(sq_store *st, const char *what, char *err, size_t errlen)
{
    snprintf(err, errlen, "%s: %s", what, st->db ? sqlite3_errmsg(st->db) : "no database");
    return -1;
}

/* Run a one-shot statement without parameters. */
static int run(sq_store *st, int q)
{
    sqlite3_stmt *s = st->q[q];
    int rc = sqlite3_step(s);
    sqlite3_reset(s);
    return rc == SQLITE_DONE ? 0 : -1;
}

/* Group commit: writes join one open transaction (the batch), each
 * operation inside a savepoint so a failing one leaves the others intact;
 * store_flush commits the batch with one sync to disk. */
static int begin(sq_store *st)
{
    if (!st->in_tx) {
        if (run(st, Q_BEGIN) != 0)
            return -1;
        st->in_tx = 1;
    }
    return run(st, Q_SAVEPOINT);
}

static int commit(sq_store *st, char *err, size_t errlen)
{
    if (run(st, Q_RELEASE) == 0)
        return 0;
    fail(st, "release", err, errlen);
    return -1;
}

/* Undo a failed operation (not the batch), keeping the step's message. */
static int abort_tx(sq_store *st, sqlite3_stmt *s, const char *what, char *err, size_t errlen)
{
    fail(st, what, err, errlen);
    if (s)
        sqlite3_reset(s);
    if (!sqlite3_get_autocommit(st->db)) {
        run(st, Q_ROLLBACK_TO);
        run(st, Q_RELEASE);
    }
    return -1;
}

static int sq_pending(const store *base) { return ((const sq_store *)base)->in_tx; }

static int sq_flush(store *base, char *err, size_t errlen)
{
    sq_store *st = (sq_store *)base;
    if (!st->in_tx)
        return 0;
    st->in_tx = 0;
    if (sqlite3_get_autocommit(st->db)) {
        snprintf(err, errlen, "the transaction was rolled back by the database");
        return -1;
    }
    if (run(st, Q_COMMIT) == 0)
        return 0;
    fail(st, "commit", err, errlen);
    run(st, Q_ROLLBACK);
    return -1;
}

static void sq_discard(store *base)
{
    sq_store *st = (sq_store *)base;
    if (!st->in_tx)
        return;
    st->in_tx = 0;
    if (!sqlite3_get_autocommit(st->db))
        run(st, Q_ROLLBACK);
}

/* For store_sqlite_moderation.c (store_sqlite_internal.h). */
sqlite3 *sq_db(store *base) { return ((sq_store *)base)->db; }

int sq_op_begin(store *base, char *err, size_t errlen)
{
    sq_store *st = (sq_store *)base;
    return begin(st) == 0 ? 0 : fail(st, "begin", err, errlen);
}

int sq_op_end(store *base, int rc, const char *what, char *err, size_t errlen)
{
    sq_store *st = (sq_store *)base;
    if (rc != 0) {
        char keep[256];
        snprintf(keep, sizeof keep, "%s", err);
        abort_tx(st, NULL, what, err, errlen);
        if (keep[0])
            snprintf(err, errlen, "%s", keep);
        return -1;
    }
    return commit(st, err, errlen);
}

/* Step a bound write statement once. */
static int step_done(sqlite3_stmt *s)
{
    int rc = sqlite3_step(s);
    sqlite3_reset(s);
    sqlite3_clear_bindings(s);
    return rc == SQLITE_DONE ? 0 : -1;
}

static int exec(sqlite3 *db, const char *sql, char *err, size_t errlen)
{
    char *msg = NULL;
    if (sqlite3_exec(db, sql, NULL, NULL, &msg) == SQLITE_OK)
        return 0;
    snprintf(err, errlen, "%s", msg ? msg : "sqlite error");
    sqlite3_free(msg);
    return -1;
}

/* Current schema version (0 for a new file). */
static int read_version(sqlite3 *db)
{
    sqlite3_stmt *s = NULL;
    int v = -1;
    if (sqlite3_prepare_v2(db, "SELECT version FROM schema_version", -1, &s, NULL) != SQLITE_OK)
        return -1;
    if (sqlite3_step(s) == SQLITE_ROW)
        v = sqlite3_column_int(s, 0);
    sqlite3_finalize(s);
    return v;
}

/* Bring the schema to the newest version. */
static int migrate(sqlite3 *db, char *err, size_t errlen)
{
    if (exec(db, "CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL);",
             err, errlen) != 0)
        return -1;
    int v = read_version(db);
    if (v < 0) {
        if (exec(db, "INSERT INTO schema_version (version) VALUES (0);", err, errlen) != 0)
            return -1;
        v = 0;
    }
    if (v > NMIGRATIONS) {
        snprintf(err, errlen, "database schema version %d is newer than this program (%d)", v,
                 NMIGRATIONS);
        return -1;
    }
    for (; v < NMIGRATIONS; v++) {
        char bump[96];
        snprintf(bump, sizeof bump, "UPDATE schema_version SET version = %d;", v + 1);
        if (exec(db, "BEGIN IMMEDIATE;", err, errlen) != 0)
            return -1;
        if (exec(db, migrations[v], err, errlen) != 0 || exec(db, bump, err, errlen) != 0) {
            char e2[64];
            exec(db, "ROLLBACK;", e2, sizeof e2);
            return -1;
        }
        if (exec(db, "COMMIT;", err, errlen) != 0)
            return -1;
    }
    return 0;
}

/* The database holds the seeds of running games: it and its WAL and
 * shared-memory files are for the server's own user only (0600).  SQLite
 * gives the -wal and -shm files the mode of the database file. */
static int owner_only(const char *path, char *err, size_t errlen)
{
    /* Only a new file is opened here: closing a descriptor of a database
     * this process has open already (another connection: the writer's,
     * the listener's) would drop that connection's POSIX locks, and another
     * process (tavoliere admin) could then checkpoint the WAL away under
     * it.  An existing file is changed by its path. */
    struct stat sb;
    if (stat(path, &sb) != 0) {
        int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
        if (fd < 0) {
            snprintf(err, errlen, "%s: cannot open", path);
            return -1;
        }
        close(fd);
    } else if (S_ISREG(sb.st_mode) && (sb.st_mode & 077)) {
        chmod(path, sb.st_mode & 0700);
    }
    static const char *const ext[] = {"-wal", "-shm"};
    for (int i = 0; i < 2; i++) {
        char side[4200];
        snprintf(side, sizeof side, "%s%s", path, ext[i]);
        if (stat(side, &sb) == 0 && S_ISREG(sb.st_mode) && (sb.st_mode & 077))
            chmod(side, sb.st_mode & 0700);
    }
    return 0;
}

static void sq_close(store *base);

static store *sq_open(const char *path, char *err, size_t errlen)
{
    sq_store *st = calloc(1, sizeof *st);
    if (!st) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    if (owner_only(path, err, errlen) != 0) {
        free(st);
        return NULL;
    }
    if (sqlite3_open_v2(path, &st->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE |
                        SQLITE_OPEN_NOMUTEX, NULL) != SQLITE_OK) {
        fail(st, path, err, errlen);
        sq_close(&st->base);
        return NULL;
    }
    sqlite3_busy_timeout(st->db, 5000);
    if (exec(st->db, "PRAGMA journal_mode=WAL;", err, errlen) != 0 ||
        exec(st->db, "PRAGMA synchronous=FULL;", err, errlen) != 0 ||
        exec(st->db, "PRAGMA foreign_keys=ON;", err, errlen) != 0 ||
        migrate(st->db, err, errlen) != 0) {
        sq_close(&st->base);
        return NULL;
    }
    for (int i = 0; i < NQ; i++)
        if (sqlite3_prepare_v3(st->db, queries[i], -1, SQLITE_PREPARE_PERSISTENT, &st->q[i],
                               NULL) != SQLITE_OK) {
            fail(st, queries[i], err, errlen);
            sq_close(&st->base);
            return NULL;
        }
    st->base.ops = &store_sqlite_ops;
    return &st->base;
}

static void sq_close(store *base)
{
    sq_store *st = (sq_store *)base;
    if (!st)
        return;
    if (st->in_tx) {
        char err[128];
        sq_flush(base, err, sizeof err);
    }
    for (int i = 0; i < NQ; i++)
        sqlite3_finalize(st->q[i]);
    sqlite3_close(st->db);
    free(st);
}

/* Insert one move row (inside a transaction). */
static int insert_move(sq_store *st, const char *id, int ply, const store_move *m)
{
    sqlite3_stmt *s = st->q[Q_INS_MOVE];
    sqlite3_bind_text(s, 1, id, -1, SQLITE_STATIC);
    sqlite3_bind_int(s, 2, ply);
    sqlite3_bind_text(s, 3, m->text, -1, SQLITE_STATIC);
    sqlite3_bind_int64(s, 4, m->ms);
    sqlite3_bind_int64(s, 5, m->time);
    return step_done(s);
}

static int sq_create_game(store *base, const store_game *g, const store_move *moves, int nmoves,
                      char *err, size_t errlen)
{
    sq_store *st = (sq_store *)base;
    if (begin(st) != 0)
        return fail(st, "begin", err, errlen);
    sqlite3_stmt *s = st->q[Q_INS_GAME];
    sqlite3_bind_text(s, 1, g->id, -1, SQLITE_STATIC);
    sqlite3_bind_text(s, 2, g->game, -1, SQLITE_STATIC);
    sqlite3_bind_text(s, 3, g->options ? g->options : "", -1, SQLITE_STATIC);
    sqlite3_bind_int64(s, 4, (sqlite3_int64)g->seed);
    sqlite3_bind_text(s, 5, g->player[0], -1, SQLITE_STATIC);
    sqlite3_bind_text(s, 6, g->player[1], -1, SQLITE_STATIC);
    sqlite3_bind_int64(s, 7, g->created);
    sqlite3_bind_int(s, 8, g->status);
    sqlite3_bind_int(s, 9, g->resigned);
    sqlite3_bind_int(s, 10, g->local != 0);
    sqlite3_bind_text(s, 11, g->account[0], -1, SQLITE_STATIC);
    sqlite3_bind_text(s, 12, g->account[1], -1, SQLITE_STATIC);
    sqlite3_bind_int(s, 13, g->rated != 0);
    sqlite3_bind_int64(s, 14, g->clock_initial);
    sqlite3_bind_int64(s, 15, g->clock_increment);
    sqlite3_bind_int64(s, 16, g->clock_days);
    sqlite3_bind_int64(s, 17, g->started_ms);
    if (step_done(s) != 0)
        return abort_tx(st, NULL, "insert game", err, errlen);
    for (int side = 0; side < 2; side++) {
        if (!g->has_seat[side])
            continue;
        s = st->q[Q_INS_SEAT];
        sqlite3_bind_text(s, 1, g->id, -1, SQLITE_STATIC);
        sqlite3_bind_int(s, 2, side);
        sqlite3_bind_blob(s, 3, g->seat_hash[side], STORE_HASH_LEN, SQLITE_STATIC);
        if (step_done(s) != 0)
            return abort_tx(st, NULL, "insert seat", err, errlen);
    }
    for (int i = 0; i < nmoves; i++)
        if (insert_move(st, g->id, i, &moves[i]) != 0)
            return abort_tx(st, NULL, "insert move", err, errlen);
    return commit(st, err, errlen);
}

/* Set a game's status (inside a transaction). */
static int set_status(sq_store *st, const char *id, int status)
{
    sqlite3_stmt *s = st->q[Q_SET_STATUS];
    sqlite3_bind_text(s, 1, id, -1, SQLITE_STATIC);
    sqlite3_bind_int(s, 2, status);
    return step_done(s);
}

static int sq_add_move(store *base, const char *id, int ply, const store_move *m, int status,
                       char *err, size_t errlen)
{
    sq_store *st = (sq_store *)base;
    if (begin(st) != 0)
        return fail(st, "begin", err, errlen);
    if (insert_move(st, id, ply, m) != 0) {
        int taken = sqlite3_errcode(st->db) == SQLITE_CONSTRAINT;
        abort_tx(st, NULL, "insert move", err, errlen);
        return taken ? STORE_CONFLICT : -1;
    }
    if (set_status(st, id, status) != 0)
        return abort_tx(st, NULL, "update game", err, errlen);
    return commit(st, err, errlen);
}

static int sq_truncate(store *base, const char *id, int ply, int status, char *err,
                       size_t errlen)
{
    sq_store *st = (sq_store *)base;
    if (begin(st) != 0)
        return fail(st, "begin", err, errlen);
    sqlite3_stmt *s = st->q[Q_DEL_MOVES];
    sqlite3_bind_text(s, 1, id, -1, SQLITE_STATIC);
    sqlite3_bind_int(s, 2, ply);
    if (step_done(s) != 0)
        return abort_tx(st, NULL, "delete moves", err, errlen);
    s = st->q[Q_SET_RESULT];
    sqlite3_bind_text(s, 1, id, -1, SQLITE_STATIC);
    sqlite3_bind_int(s, 2, status);
    sqlite3_bind_int(s, 3, -1);
    if (step_done(s) != 0)
        return abort_tx(st, NULL, "update game", err, errlen);
    return commit(st, err, errlen);
}

static int sq_set_result(store *base, const char *id, int status, int resigned, char *err,
                         size_t errlen)
{
    sq_store *st = (sq_store *)base;
    if (begin(st) != 0)
        return fail(st, "begin", err, errlen);
    sqlite3_stmt *s = st->q[Q_SET_RESULT];
    sqlite3_bind_text(s, 1, id, -1, SQLITE_STATIC);
    sqlite3_bind_int(s, 2, status);
    sqlite3_bind_int(s, 3, resigned);
    if (step_done(s) != 0)
        return abort_tx(st, NULL, "update game", err, errlen);
    return commit(st, err, errlen);
}

static int sq_set_rematch(store *base, const char *id, const char *rematch, char *err,
                          size_t errlen)
{
    sq_store *st = (sq_store *)base;
    if (begin(st) != 0)
        return fail(st, "begin", err, errlen);
    sqlite3_stmt *s = st->q[Q_SET_REMATCH];
    sqlite3_bind_text(s, 1, id, -1, SQLITE_STATIC);
    sqlite3_bind_text(s, 2, rematch, -1, SQLITE_STATIC);
    if (step_done(s) != 0)
        return abort_tx(st, NULL, "update game", err, errlen);
    if (sqlite3_changes(st->db) != 1) {
        abort_tx(st, NULL, "update game", err, errlen);
        snprintf(err, errlen, "game %.16s: unknown, or followed by a rematch already", id);
        return STORE_CONFLICT;
    }
    return commit(st, err, errlen);
}

/* A text column copied into a fixed buffer; -1 when it does not fit. */
static int col_text(sqlite3_stmt *s, int col, char *buf, size_t n)
{
    const unsigned char *t = sqlite3_column_text(s, col);
    if (!t || strlen((const char *)t) >= n)
        return -1;
    strcpy(buf, (const char *)t);
    return 0;
}

static int sq_load_game(store *base, const char *id, store_game *outp, store_row_fn row,
                        store_move_fn move, void *ctx, char *err, size_t errlen)
{
    sq_store *st = (sq_store *)base;
    store_game mine, *out = outp ? outp : &mine;
    memset(out, 0, sizeof *out);
    if (strlen(id) >= STORE_ID_LEN)
        return 0;
    strcpy(out->id, id);
    sqlite3_stmt *s = st->q[Q_GET_GAME];
    sqlite3_bind_text(s, 1, id, -1, SQLITE_TRANSIENT);
    int rc = sqlite3_step(s);
    if (rc == SQLITE_DONE) {
        sqlite3_reset(s);
        sqlite3_clear_bindings(s);
        return 0;
    }
    if (rc != SQLITE_ROW) {
        fail(st, "load game", err, errlen);
        sqlite3_reset(s);
        return -1;
    }
    const unsigned char *opt = sqlite3_column_text(s, 1);
    out->options = strdup(opt ? (const char *)opt : "");
    int bad = !out->options || col_text(s, 0, out->game, sizeof out->game) != 0 ||
              col_text(s, 3, out->player[0], STORE_PLAYER_LEN) != 0 ||
              col_text(s, 4, out->player[1], STORE_PLAYER_LEN) != 0;
    out->seed = (uint64_t)sqlite3_column_int64(s, 2);
    out->created = sqlite3_column_int64(s, 5);
    out->status = sqlite3_column_int(s, 6);
    out->resigned = sqlite3_column_int(s, 7);
    out->local = sqlite3_column_int(s, 8);
    bad = bad || col_text(s, 9, out->rematch, sizeof out->rematch) != 0 ||
          col_text(s, 10, out->account[0], STORE_NAME_LEN) != 0 ||
          col_text(s, 11, out->account[1], STORE_NAME_LEN) != 0 ||
          col_text(s, 13, out->winner, sizeof out->winner) != 0 ||
          col_text(s, 14, out->end, sizeof out->end) != 0;
    out->rated = sqlite3_column_int(s, 12);
    out->clock_initial = sqlite3_column_int64(s, 15);
    out->clock_increment = sqlite3_column_int64(s, 16);
    out->clock_days = sqlite3_column_int64(s, 17);
    out->started_ms = sqlite3_column_int64(s, 18);
    out->draw_offer = sqlite3_column_int(s, 19);
    out->takeback_offer = sqlite3_column_int(s, 20);
    for (int side = 0; side < 2; side++) {
        out->rating_before[side] = sqlite3_column_double(s, 21 + side);
        out->rating_after[side] = sqlite3_column_double(s, 23 + side);
    }
    sqlite3_reset(s);
    sqlite3_clear_bindings(s);
    if (bad) {
        snprintf(err, errlen, "game %s: damaged row", id);
        store_game_done(out);
        return -1;
    }
    s = st->q[Q_GET_SEATS];
    sqlite3_bind_text(s, 1, id, -1, SQLITE_TRANSIENT);
    while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
        int side = sqlite3_column_int(s, 0);
        const void *h = sqlite3_column_blob(s, 1);
        if (side >= 0 && side <= 1 && h && sqlite3_column_bytes(s, 1) == STORE_HASH_LEN) {
            memcpy(out->seat_hash[side], h, STORE_HASH_LEN);
            out->has_seat[side] = 1;
        }
    }
    sqlite3_reset(s);
    sqlite3_clear_bindings(s);
    if (rc != SQLITE_DONE) {
        store_game_done(out);
        return fail(st, "load seats", err, errlen);
    }
    if (row && row(ctx, out) != 0) {
        snprintf(err, errlen, "game %s: its row was refused", id);
        store_game_done(out);
        return -1;
    }
    s = st->q[Q_GET_MOVES];
    sqlite3_bind_text(s, 1, id, -1, SQLITE_TRANSIENT);
    int expect = 0, stop = 0;
    while (!stop && (rc = sqlite3_step(s)) == SQLITE_ROW) {
        store_move m;
        int ply = sqlite3_column_int(s, 0);
        m.text = (const char *)sqlite3_column_text(s, 1);
        m.ms = sqlite3_column_int64(s, 2);
        m.time = sqlite3_column_int64(s, 3);
        if (ply != expect || !m.text) {
            snprintf(err, errlen, "game %s: moves out of order at ply %d", id, ply);
            stop = 1;
        } else if (move && move(ctx, ply, &m) != 0) {
            snprintf(err, errlen, "game %s: move %d (%s) does not replay", id, ply, m.text);
            stop = 1;
        }
        expect++;
    }
    sqlite3_reset(s);
    sqlite3_clear_bindings(s);
    if (stop || rc != SQLITE_DONE) {
        if (!stop)
            fail(st, "load moves", err, errlen);
        store_game_done(out);
        return -1;
    }
    if (!outp)
        store_game_done(out);
    return 1;
}

static int sq_each_unfinished(store *base, store_id_fn fn, void *ctx, char *err, size_t errlen)
{
    sq_store *st = (sq_store *)base;
    /* Collect first: fn may use the store. */
    sqlite3_stmt *s = st->q[Q_UNFINISHED];
    char (*ids)[STORE_ID_LEN] = NULL;
    size_t n = 0, cap = 0;
    int rc;
    while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
        const unsigned char *t = sqlite3_column_text(s, 0);
        if (!t || strlen((const char *)t) >= STORE_ID_LEN)
            continue;
        if (n == cap) {
            size_t nc = cap ? cap * 2 : 64;
            void *p = realloc(ids, nc * sizeof *ids);
            if (!p) {
                free(ids);
                sqlite3_reset(s);
                snprintf(err, errlen, "out of memory");
                return -1;
            }
            ids = p;
            cap = nc;
        }
        strcpy(ids[n++], (const char *)t);
    }
    sqlite3_reset(s);
    if (rc != SQLITE_DONE) {
        free(ids);
        return fail(st, "list games", err, errlen);
    }
    for (size_t i = 0; i < n; i++)
        fn(ctx, ids[i]);
    free(ids);
    return 0;
}

/* ---- accounts, sessions, seeks, ratings ---- */

/* Bind a statement's parameters from a format: 't' text, 'i' int64, 'd'
 * double, 'h' a STORE_HASH_LEN blob. */
static sqlite3_stmt *bind(sq_store *st, int q, const char *fmt, ...)
{
    sqlite3_stmt *s = st->q[q];
    va_list ap;
    va_start(ap, fmt);
    for (int i = 0; fmt[i]; i++) {
        switch (fmt[i]) {
        case 't':
            sqlite3_bind_text(s, i + 1, va_arg(ap, const char *), -1, SQLITE_TRANSIENT);
            break;
        case 'i':
            sqlite3_bind_int64(s, i + 1, (sqlite3_int64)va_arg(ap, int64_t));
            break;
        case 'd':
            sqlite3_bind_double(s, i + 1, va_arg(ap, double));
            break;
        default:
            sqlite3_bind_blob(s, i + 1, va_arg(ap, const unsigned char *), STORE_HASH_LEN,
                              SQLITE_TRANSIENT);
            break;
        }
    }
    va_end(ap);
    return s;
}

/* One write of the open batch: begin, the statement, and `want` rows
 * changed (-1: any). */
static int write1(sq_store *st, sqlite3_stmt *s, int want, const char *what, char *err,
                  size_t errlen)
{
    if (begin(st) != 0) {
        sqlite3_reset(s);
        sqlite3_clear_bindings(s);
        return fail(st, "begin", err, errlen);
    }
    if (step_done(s) != 0)
        return abort_tx(st, NULL, what, err, errlen);
    if (want >= 0 && sqlite3_changes(st->db) != want) {
        abort_tx(st, NULL, what, err, errlen);
        snprintf(err, errlen, "%s: nothing to change", what);
        return -1;
    }
    return commit(st, err, errlen);
}

/* Step a read: 1 a row (left for the caller to read and reset), 0 none, -1 error. */
static int read1(sq_store *st, sqlite3_stmt *s, const char *what, char *err, size_t errlen)
{
    int rc = sqlite3_step(s);
    if (rc == SQLITE_ROW)
        return 1;
    sqlite3_reset(s);
    sqlite3_clear_bindings(s);
    if (rc == SQLITE_DONE)
        return 0;
    return fail(st, what, err, errlen);
}

static void done1(sqlite3_stmt *s)
{
    sqlite3_reset(s);
    sqlite3_clear_bindings(s);
}

static int sq_set_end(store *base, const char *id, const char *winner, const char *end, char *err,
                      size_t errlen)
{
    sq_store *st = (sq_store *)base;
    return write1(st, bind(st, Q_SET_END, "ttt", id, winner, end), 1, "game end", err, errlen);
}

static int sq_create_account(store *base, const store_account *a, char *err, size_t errlen)
{
    sq_store *st = (sq_store *)base;
    return write1(st, bind(st, Q_INS_ACCOUNT, "tti", a->name, a->pwhash, a->created), 1,
                  "insert account", err, errlen);
}

static int sq_get_account(store *base, const char *name, store_account *out, char *err,
                          size_t errlen)
{
    sq_store *st = (sq_store *)base;
    sqlite3_stmt *s = bind(st, Q_GET_ACCOUNT, "t", name);
    int rc = read1(st, s, "load account", err, errlen);
    if (rc != 1)
        return rc;
    memset(out, 0, sizeof *out);
    int bad = col_text(s, 0, out->name, sizeof out->name) != 0 ||
              col_text(s, 1, out->pwhash, sizeof out->pwhash) != 0 ||
              col_text(s, 3, out->lang, sizeof out->lang) != 0;
    out->created = sqlite3_column_int64(s, 2);
    out->bot = sqlite3_column_int(s, 4) != 0;
    out->closed = sqlite3_column_int64(s, 5);
    out->banned = sqlite3_column_int(s, 6) != 0;
    done1(s);
    if (bad) {
        snprintf(err, errlen, "account: damaged row");
        return -1;
    }
    return 1;
}

static int sq_set_password(store *base, const char *name, const char *pwhash, char *err,
                           size_t errlen)
{
    sq_store *st = (sq_store *)base;
    return write1(st, bind(st, Q_SET_PASSWORD, "tt", name, pwhash), 1, "password", err, errlen);
}

static int sq_set_lang(store *base, const char *name, const char *lang, char *err, size_t errlen)
{
    sq_store *st = (sq_store *)base;
    return write1(st, bind(st, Q_SET_LANG, "tt", name, lang), 1, "language", err, errlen);
}

static int sq_create_session(store *base, const unsigned char hash[STORE_HASH_LEN],
                             const char *name, int64_t created, int64_t expires,
                             const char *ua, char *err, size_t errlen)
{
    sq_store *st = (sq_store *)base;
    char u[STORE_UA_LEN];
    store_cut_ua(ua, u);
    return write1(st, bind(st, Q_INS_SESSION, "htiit", hash, name, created, expires, u), 1,
                  "insert session", err, errlen);
}

static int sq_touch_session(store *base, const unsigned char hash[STORE_HASH_LEN], int64_t now,
                            char *err, size_t errlen)
{
    sq_store *st = (sq_store *)base;
    return write1(st, bind(st, Q_TOUCH_SESSION, "hi", hash, now), -1, "touch session", err,
                  errlen);
}

static int sq_get_session(store *base, const unsigned char hash[STORE_HASH_LEN], int64_t now,
                          char name[STORE_NAME_LEN], int64_t *last_used, char *err,
                          size_t errlen)
{
    sq_store *st = (sq_store *)base;
    sqlite3_stmt *s = bind(st, Q_GET_SESSION, "hi", hash, now);
    int rc = read1(st, s, "load session", err, errlen);
    if (rc != 1)
        return rc;
    int bad = col_text(s, 0, name, STORE_NAME_LEN) != 0;
    if (last_used)
        *last_used = sqlite3_column_int64(s, 1);
    done1(s);
    return bad ? -1 : 1;
}

static int sq_delete_session(store *base, const unsigned char hash[STORE_HASH_LEN], char *err,
                             size_t errlen)
{
    sq_store *st = (sq_store *)base;
    return write1(st, bind(st, Q_DEL_SESSION, "h", hash), -1, "end session", err, errlen);
}

static int sq_each_session(store *base, const char *name, int64_t now, store_session_fn fn,
                           void *ctx, char *err, size_t errlen)
{
    sq_store *st = (sq_store *)base;
    sqlite3_stmt *s = bind(st, Q_SESSIONS_OF, "ti", name, now);
    int rc, stop = 0;
    while (!stop && (rc = sqlite3_step(s)) == SQLITE_ROW) {
        const void *h = sqlite3_column_blob(s, 0);
        if (!h || sqlite3_column_bytes(s, 0) != STORE_HASH_LEN)
            continue;
        char u[STORE_UA_LEN] = "";
        const unsigned char *t = sqlite3_column_text(s, 3);
        if (t)
            store_cut_ua((const char *)t, u);
        stop = fn(ctx, h, sqlite3_column_int64(s, 1), sqlite3_column_int64(s, 2), u,
                  sqlite3_column_int64(s, 4));
    }
    done1(s);
    if (!stop && rc != SQLITE_DONE)
        return fail(st, "list sessions", err, errlen);
    return 0;
}

static int sq_create_seek(store *base, const store_seek *k, char *err, size_t errlen)
{
    sq_store *st = (sq_store *)base;
    return write1(st,
                  bind(st, Q_INS_SEEK, "ttttiiiiiit", k->id, k->by, k->game, k->options,
                       (int64_t)k->rated, (int64_t)k->colour, k->initial, k->increment, k->days,
                       k->created, k->to),
                  1, "insert seek", err, errlen);
}

static int sq_seek_state(store *base, const char *id);

static int sq_close_seek(store *base, const char *id, const char *game, char *err, size_t errlen)
{
    sq_store *st = (sq_store *)base;
    if (write1(st, bind(st, Q_CLOSE_SEEK, "tti", id, game, (int64_t)(game[0] ? 1 : 2)), 1,
               "close seek", err, errlen) == 0)
        return 0;
    int state = sq_seek_state(base, id);
    return state == 1 || state == 2 ? STORE_CONFLICT : -1;
}

static int sq_seek_state(store *base, const char *id)
{
    sq_store *st = (sq_store *)base;
    char err[64];
    sqlite3_stmt *s = bind(st, Q_SEEK_STATE, "t", id);
    if (read1(st, s, "seek", err, sizeof err) != 1)
        return -1;
    int state = sqlite3_column_int(s, 0);
    done1(s);
    return state;
}

static int sq_each_seek(store *base, store_seek_fn fn, void *ctx, char *err, size_t errlen)
{
    sq_store *st = (sq_store *)base;
    sqlite3_stmt *s = st->q[Q_OPEN_SEEKS];
    int rc, stop = 0;
    while (!stop && (rc = sqlite3_step(s)) == SQLITE_ROW) {
        store_seek k;
        memset(&k, 0, sizeof k);
        if (col_text(s, 0, k.id, sizeof k.id) != 0 || col_text(s, 1, k.by, sizeof k.by) != 0 ||
            col_text(s, 2, k.game, sizeof k.game) != 0 ||
            col_text(s, 3, k.options, sizeof k.options) != 0)
            continue;
        k.rated = sqlite3_column_int(s, 4);
        k.colour = sqlite3_column_int(s, 5);
        k.initial = sqlite3_column_int64(s, 6);
        k.increment = sqlite3_column_int64(s, 7);
        k.days = sqlite3_column_int64(s, 8);
        k.created = sqlite3_column_int64(s, 9);
        if (col_text(s, 10, k.to, sizeof k.to) != 0)
            continue;
        stop = fn(ctx, &k);
    }
    sqlite3_reset(s);
    if (!stop && rc != SQLITE_DONE)
        return fail(st, "list seeks", err, errlen);
    return 0;
}

static int sq_get_rating(store *base, const char *name, const char *game, store_rating *out,
                         char *err, size_t errlen)
{
    sq_store *st = (sq_store *)base;
    sqlite3_stmt *s = bind(st, Q_GET_RATING, "tt", name, game);
    int rc = read1(st, s, "load rating", err, errlen);
    if (rc != 1)
        return rc;
    out->rating = sqlite3_column_double(s, 0);
    out->rd = sqlite3_column_double(s, 1);
    out->vol = sqlite3_column_double(s, 2);
    out->games = sqlite3_column_int(s, 3);
    done1(s);
    return 1;
}

static int sq_set_rating(store *base, const char *name, const char *game, const store_rating *r,
                         char *err, size_t errlen)
{
    sq_store *st = (sq_store *)base;
    return write1(st,
                  bind(st, Q_SET_RATING, "ttdddi", name, game, r->rating, r->rd, r->vol,
                       (int64_t)r->games),
                  1, "rating", err, errlen);
}

static int sq_each_rating(store *base, const char *name,
                          int (*fn)(void *ctx, const char *game, const store_rating *r), void *ctx,
                          char *err, size_t errlen)
{
    sq_store *st = (sq_store *)base;
    sqlite3_stmt *s = bind(st, Q_RATINGS, "t", name);
    int rc, stop = 0;
    while (!stop && (rc = sqlite3_step(s)) == SQLITE_ROW) {
        char game[32];
        if (col_text(s, 0, game, sizeof game) != 0)
            continue;
        store_rating r = {sqlite3_column_double(s, 1), sqlite3_column_double(s, 2),
                          sqlite3_column_double(s, 3), sqlite3_column_int(s, 4), 0};
        stop = fn(ctx, game, &r);
    }
    done1(s);
    if (!stop && rc != SQLITE_DONE)
        return fail(st, "list ratings", err, errlen);
    return 0;
}

static int sq_set_offers(store *base, const char *id, int draw, int takeback, char *err,
                         size_t errlen)
{
    sq_store *st = (sq_store *)base;
    return write1(st, bind(st, Q_SET_OFFERS, "tii", id, (int64_t)draw, (int64_t)takeback), 1,
                  "offers", err, errlen);
}

static int sq_set_game_ratings(store *base, const char *id, const double before[2],
                               const double after[2], char *err, size_t errlen)
{
    sq_store *st = (sq_store *)base;
    return write1(st,
                  bind(st, Q_SET_GAME_RATINGS, "tdddd", id, after[0], after[1], before[0],
                       before[1]),
                  1, "game ratings", err, errlen);
}

static int sq_leaderboard(store *base, const char *game, int limit,
                          int (*fn)(void *ctx, const char *name, const store_rating *r),
                          void *ctx, char *err, size_t errlen)
{
    sq_store *st = (sq_store *)base;
    sqlite3_stmt *s = bind(st, Q_LEADERBOARD, "ti", game, (int64_t)limit);
    int rc, stop = 0;
    while (!stop && (rc = sqlite3_step(s)) == SQLITE_ROW) {
        char name[STORE_NAME_LEN];
        if (col_text(s, 0, name, sizeof name) != 0)
            continue;
        store_rating r = {sqlite3_column_double(s, 1), sqlite3_column_double(s, 2),
                          sqlite3_column_double(s, 3), sqlite3_column_int(s, 4),
                          sqlite3_column_int(s, 5) != 0};
        stop = fn(ctx, name, &r);
    }
    done1(s);
    if (!stop && rc != SQLITE_DONE)
        return fail(st, "leaderboard", err, errlen);
    return 0;
}

static int sq_player_unfinished(store *base, const char *name, int limit, store_id_fn fn,
                                void *ctx, char *err, size_t errlen)
{
    sq_store *st = (sq_store *)base;
    sqlite3_stmt *s = bind(st, Q_UNFINISHED_OF, "ti", name, (int64_t)limit);
    /* Collect first: fn may use the store. */
    char ids[100][STORE_ID_LEN];
    int n = 0, rc;
    while (n < 100 && (rc = sqlite3_step(s)) == SQLITE_ROW)
        if (col_text(s, 0, ids[n], sizeof ids[n]) == 0)
            n++;
    done1(s);
    if (n < 100 && rc != SQLITE_DONE)
        return fail(st, "list games", err, errlen);
    for (int i = 0; i < n; i++)
        fn(ctx, ids[i]);
    return 0;
}

static int sq_player_games(store *base, const char *name, int limit, store_pgame_fn fn, void *ctx,
                           char *err, size_t errlen)
{
    sq_store *st = (sq_store *)base;
    sqlite3_stmt *s = bind(st, Q_PLAYER_GAMES, "ti", name, (int64_t)limit);
    int rc, stop = 0;
    while (!stop && (rc = sqlite3_step(s)) == SQLITE_ROW) {
        store_player_game g;
        memset(&g, 0, sizeof g);
        char acc[2][STORE_NAME_LEN];
        if (col_text(s, 0, g.id, sizeof g.id) != 0 || col_text(s, 1, g.game, sizeof g.game) != 0 ||
            col_text(s, 2, g.white, sizeof g.white) != 0 ||
            col_text(s, 3, g.black, sizeof g.black) != 0 ||
            col_text(s, 4, acc[0], sizeof acc[0]) != 0 ||
            col_text(s, 5, acc[1], sizeof acc[1]) != 0 ||
            col_text(s, 6, g.winner, sizeof g.winner) != 0 ||
            col_text(s, 7, g.end, sizeof g.end) != 0)
            continue;
        if (acc[0][0])
            snprintf(g.white, sizeof g.white, "%s", acc[0]);
        if (acc[1][0])
            snprintf(g.black, sizeof g.black, "%s", acc[1]);
        g.rated = sqlite3_column_int(s, 8);
        g.rating_after[0] = sqlite3_column_double(s, 9);
        g.rating_after[1] = sqlite3_column_double(s, 10);
        g.created = sqlite3_column_int64(s, 11);
        stop = fn(ctx, &g);
    }
    done1(s);
    if (!stop && rc != SQLITE_DONE)
        return fail(st, "list games", err, errlen);
    return 0;
}

/* ---- bots (SPEC "Bots") ---- */

static int sq_set_bot(store *base, const char *name, char *err, size_t errlen)
{
    sq_store *st = (sq_store *)base;
    return write1(st, bind(st, Q_SET_BOT, "t", name), 1, "bot", err, errlen);
}

static int sq_create_token(store *base, const char *id, const unsigned char hash[STORE_HASH_LEN],
                           const char *name, int64_t created, char *err, size_t errlen)
{
    sq_store *st = (sq_store *)base;
    return write1(st, bind(st, Q_INS_TOKEN, "thti", id, hash, name, created), 1, "insert token",
                  err, errlen);
}

static int sq_get_token(store *base, const unsigned char hash[STORE_HASH_LEN],
                        char name[STORE_NAME_LEN], int64_t *last_used, char *err, size_t errlen)
{
    sq_store *st = (sq_store *)base;
    sqlite3_stmt *s = bind(st, Q_GET_TOKEN, "h", hash);
    int rc = read1(st, s, "load token", err, errlen);
    if (rc != 1)
        return rc;
    int bad = col_text(s, 0, name, STORE_NAME_LEN) != 0;
    if (last_used)
        *last_used = sqlite3_column_int64(s, 1);
    done1(s);
    return bad ? -1 : 1;
}

static int sq_touch_token(store *base, const unsigned char hash[STORE_HASH_LEN], int64_t now,
                          char *err, size_t errlen)
{
    sq_store *st = (sq_store *)base;
    return write1(st, bind(st, Q_TOUCH_TOKEN, "hi", hash, now), -1, "touch token", err, errlen);
}

static int sq_delete_token(store *base, const char *name, const char *id, char *err,
                           size_t errlen)
{
    sq_store *st = (sq_store *)base;
    return write1(st, bind(st, Q_DEL_TOKEN, "tt", name, id), -1, "revoke token", err, errlen);
}

static int sq_each_token(store *base, const char *name, store_token_fn fn, void *ctx, char *err,
                         size_t errlen)
{
    sq_store *st = (sq_store *)base;
    sqlite3_stmt *s = bind(st, Q_TOKENS_OF, "t", name);
    int rc, stop = 0;
    while (!stop && (rc = sqlite3_step(s)) == SQLITE_ROW) {
        store_token t;
        memset(&t, 0, sizeof t);
        if (col_text(s, 0, t.id, sizeof t.id) != 0)
            continue;
        t.created = sqlite3_column_int64(s, 1);
        t.last_used = sqlite3_column_int64(s, 2);
        stop = fn(ctx, &t);
    }
    done1(s);
    if (!stop && rc != SQLITE_DONE)
        return fail(st, "list tokens", err, errlen);
    return 0;
}

/* ---- e-mail ---- */

static int sq_mail_get(store *base, const char *name, store_mail *out, char *err, size_t errlen)
{
    sq_store *st = (sq_store *)base;
    sqlite3_stmt *s = bind(st, Q_MAIL_GET, "t", name);
    int rc = read1(st, s, "load mail settings", err, errlen);
    if (rc != 1)
        return rc;
    memset(out, 0, sizeof *out);
    snprintf(out->name, sizeof out->name, "%s", name);
    int bad = col_text(s, 0, out->address, sizeof out->address) != 0 ||
              col_text(s, 2, out->verify_hash, sizeof out->verify_hash) != 0 ||
              col_text(s, 8, out->unsub, sizeof out->unsub) != 0;
    out->verified = sqlite3_column_int(s, 1);
    out->verify_at = sqlite3_column_int64(s, 3);
    out->verify_count = sqlite3_column_int(s, 4);
    out->verify_since = sqlite3_column_int64(s, 5);
    out->kinds = sqlite3_column_int(s, 6);
    out->digest = sqlite3_column_int(s, 7);
    done1(s);
    if (bad) {
        snprintf(err, errlen, "mail settings: damaged row");
        return -1;
    }
    return 1;
}

static int sq_mail_put(store *base, const store_mail *m, char *err, size_t errlen)
{
    sq_store *st = (sq_store *)base;
    return write1(st, bind(st, Q_MAIL_PUT, "ttitiiiiit", m->name, m->address, (int64_t)m->verified,
                           m->verify_hash, m->verify_at, (int64_t)m->verify_count, m->verify_since,
                           (int64_t)m->kinds, (int64_t)m->digest, m->unsub),
                  1, "mail settings", err, errlen);
}

static int sq_mail_find(store *base, int which, const char *key, char name[STORE_NAME_LEN],
                        char *err, size_t errlen)
{
    sq_store *st = (sq_store *)base;
    sqlite3_stmt *s = bind(st, which ? Q_MAIL_VERIFY : Q_MAIL_UNSUB, "t", key);
    int rc = read1(st, s, "find mail token", err, errlen);
    if (rc != 1)
        return rc;
    int bad = col_text(s, 0, name, STORE_NAME_LEN) != 0;
    done1(s);
    if (bad) {
        snprintf(err, errlen, "mail settings: damaged row");
        return -1;
    }
    return 1;
}

static int sq_mail_add(store *base, const store_mail_item *it, int max, char *err, size_t errlen)
{
    sq_store *st = (sq_store *)base;
    int rc = write1(st, bind(st, Q_MAIL_ADD, "titiii", it->name, (int64_t)it->kind, it->arg,
                             it->created, it->due, (int64_t)max),
                    -1, "queue mail", err, errlen);
    return rc != 0 ? -1 : sqlite3_changes(st->db) > 0;
}

static int sq_mail_due(store *base, int64_t now, int limit, store_id_fn fn, void *ctx, char *err,
                       size_t errlen)
{
    sq_store *st = (sq_store *)base;
    sqlite3_stmt *s = bind(st, Q_MAIL_DUE, "ii", now, (int64_t)limit);
    int rc;
    while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
        const unsigned char *t = sqlite3_column_text(s, 0);
        if (t)
            fn(ctx, (const char *)t);
    }
    done1(s);
    return rc == SQLITE_DONE ? 0 : fail(st, "mail due", err, errlen);
}

static int sq_mail_items(store *base, const char *name, store_mail_item_fn fn, void *ctx,
                         char *err, size_t errlen)
{
    sq_store *st = (sq_store *)base;
    sqlite3_stmt *s = bind(st, Q_MAIL_ITEMS, "t", name);
    int rc, stop = 0;
    while (!stop && (rc = sqlite3_step(s)) == SQLITE_ROW) {
        store_mail_item it;
        memset(&it, 0, sizeof it);
        it.id = sqlite3_column_int64(s, 0);
        if (col_text(s, 1, it.name, sizeof it.name) != 0 ||
            col_text(s, 3, it.arg, sizeof it.arg) != 0)
            continue;
        it.kind = sqlite3_column_int(s, 2);
        it.created = sqlite3_column_int64(s, 4);
        it.due = sqlite3_column_int64(s, 5);
        it.tries = sqlite3_column_int(s, 6);
        stop = fn(ctx, &it);
    }
    done1(s);
    return stop || rc == SQLITE_DONE ? 0 : fail(st, "mail items", err, errlen);
}

static int sq_mail_drop(store *base, int64_t id, char *err, size_t errlen)
{
    sq_store *st = (sq_store *)base;
    return write1(st, bind(st, Q_MAIL_DROP, "i", id), -1, "drop mail", err, errlen);
}

static int sq_mail_defer(store *base, int64_t id, int64_t due, int tries, char *err, size_t errlen)
{
    sq_store *st = (sq_store *)base;
    return write1(st, bind(st, Q_MAIL_DEFER, "iii", id, due, (int64_t)tries), -1, "defer mail",
                  err, errlen);
}

static int sq_mail_log(store *base, const char *name, int64_t now, char *err, size_t errlen)
{
    sq_store *st = (sq_store *)base;
    if (write1(st, bind(st, Q_MAIL_PRUNE, "ti", name, now - 2 * 86400), -1, "mail log", err,
               errlen) != 0)
        return -1;
    return write1(st, bind(st, Q_MAIL_LOG, "ti", name, now), 1, "mail log", err, errlen);
}

static int sq_mail_count(store *base, const char *name, int64_t since, char *err, size_t errlen)
{
    sq_store *st = (sq_store *)base;
    sqlite3_stmt *s = bind(st, Q_MAIL_COUNT, "ti", name, since);
    int rc = read1(st, s, "mail count", err, errlen);
    if (rc != 1)
        return rc;
    int n = sqlite3_column_int(s, 0);
    done1(s);
    return n;
}

/* ---- tournaments (SPEC "Tournaments") ---- */

static int sq_create_tour(store *base, const store_tour *t, char *err, size_t errlen)
{
    sq_store *st = (sq_store *)base;
    return write1(st,
                  bind(st, Q_INS_TOUR, "tttttiiiitiiiiitt", t->id, t->name, t->game, t->options,
                       t->kind, (int64_t)t->rated, t->initial, t->increment, t->days, t->creator,
                       (int64_t)t->status, t->starts, t->ends, t->minutes, t->created, t->repeat,
                       t->previous),
                  1, "insert tournament", err, errlen);
}

static int sq_set_tour(store *base, const char *id, int from, int to, int64_t starts,
                       int64_t ends, char *err, size_t errlen)
{
    sq_store *st = (sq_store *)base;
    if (write1(st, bind(st, Q_SET_TOUR, "tiiii", id, (int64_t)from, (int64_t)to, starts, ends), 1,
               "tournament status", err, errlen) == 0)
        return 0;
    return strstr(err, "nothing to change") ? STORE_CONFLICT : -1;
}

/* A tournament's row (the columns of Q_GET_TOUR, Q_ALL_TOURS, Q_OPEN_TOURS). */
static int tour_row(sqlite3_stmt *s, store_tour *t)
{
    memset(t, 0, sizeof *t);
    if (col_text(s, 0, t->id, sizeof t->id) != 0 || col_text(s, 1, t->name, sizeof t->name) != 0 ||
        col_text(s, 2, t->game, sizeof t->game) != 0 ||
        col_text(s, 3, t->options, sizeof t->options) != 0 ||
        col_text(s, 4, t->kind, sizeof t->kind) != 0 ||
        col_text(s, 9, t->creator, sizeof t->creator) != 0)
        return -1;
    t->rated = sqlite3_column_int(s, 5);
    t->initial = sqlite3_column_int64(s, 6);
    t->increment = sqlite3_column_int64(s, 7);
    t->days = sqlite3_column_int64(s, 8);
    t->status = sqlite3_column_int(s, 10);
    t->starts = sqlite3_column_int64(s, 11);
    t->ends = sqlite3_column_int64(s, 12);
    t->minutes = sqlite3_column_int64(s, 13);
    t->created = sqlite3_column_int64(s, 14);
    t->players = sqlite3_column_int(s, 15);
    if (col_text(s, 16, t->repeat, sizeof t->repeat) != 0 ||
        col_text(s, 17, t->previous, sizeof t->previous) != 0)
        return -1;
    return 0;
}

static int sq_get_tour(store *base, const char *id, store_tour *out, char *err, size_t errlen)
{
    sq_store *st = (sq_store *)base;
    sqlite3_stmt *s = bind(st, Q_GET_TOUR, "t", id);
    int rc = read1(st, s, "load tournament", err, errlen);
    if (rc != 1)
        return rc;
    rc = tour_row(s, out) == 0 ? 1 : -1;
    done1(s);
    if (rc < 0)
        snprintf(err, errlen, "load tournament: a value too long");
    return rc;
}

static int sq_each_tour(store *base, int unfinished, int limit, store_tour_fn fn, void *ctx,
                        char *err, size_t errlen)
{
    sq_store *st = (sq_store *)base;
    sqlite3_stmt *s = bind(st, unfinished ? Q_OPEN_TOURS : Q_ALL_TOURS, "i", (int64_t)limit);
    int rc, stop = 0;
    while (!stop && (rc = sqlite3_step(s)) == SQLITE_ROW) {
        store_tour t;
        if (tour_row(s, &t) == 0)
            stop = fn(ctx, &t);
    }
    done1(s);
    if (!stop && rc != SQLITE_DONE)
        return fail(st, "list tournaments", err, errlen);
    return 0;
}

static int sq_count_tours(store *base, const char *creator, int64_t since, char *err,
                          size_t errlen)
{
    sq_store *st = (sq_store *)base;
    sqlite3_stmt *s = bind(st, Q_COUNT_TOURS, "ti", creator, since);
    if (read1(st, s, "count tournaments", err, errlen) != 1)
        return -1;
    int n = sqlite3_column_int(s, 0);
    done1(s);
    return n;
}

static int sq_set_tour_player(store *base, const char *id, const store_tour_player *p, char *err,
                              size_t errlen)
{
    sq_store *st = (sq_store *)base;
    return write1(st,
                  bind(st, Q_SET_TOUR_PLAYER, "ttdiiiii", id, p->name, p->rating,
                       (int64_t)p->withdrawn, (int64_t)p->division, (int64_t)p->seed, p->joined,
                       (int64_t)p->once),
                  1, "tournament player", err, errlen);
}

static int sq_each_tour_player(store *base, const char *id, store_tour_player_fn fn, void *ctx,
                               char *err, size_t errlen)
{
    sq_store *st = (sq_store *)base;
    sqlite3_stmt *s = bind(st, Q_TOUR_PLAYERS, "t", id);
    int rc, stop = 0;
    while (!stop && (rc = sqlite3_step(s)) == SQLITE_ROW) {
        store_tour_player p;
        memset(&p, 0, sizeof p);
        if (col_text(s, 0, p.name, sizeof p.name) != 0)
            continue;
        p.rating = sqlite3_column_double(s, 1);
        p.withdrawn = sqlite3_column_int(s, 2);
        p.division = sqlite3_column_int(s, 3);
        p.seed = sqlite3_column_int(s, 4);
        p.joined = sqlite3_column_int64(s, 5);
        p.once = sqlite3_column_int(s, 6);
        stop = fn(ctx, &p);
    }
    done1(s);
    if (!stop && rc != SQLITE_DONE)
        return fail(st, "list tournament players", err, errlen);
    return 0;
}

static int sq_add_tour_game(store *base, const char *id, const store_tour_game *g, char *err,
                            size_t errlen)
{
    sq_store *st = (sq_store *)base;
    if (write1(st,
               bind(st, Q_INS_TOUR_GAME, "tittti", id, (int64_t)g->seq, g->game, g->white,
                    g->black, (int64_t)g->division),
               1, "tournament game", err, errlen) == 0)
        return 0;
    char e2[64];
    sqlite3_stmt *s = bind(st, Q_TOUR_GAME_AT, "ti", id, (int64_t)g->seq);
    int found = read1(st, s, "tournament game", e2, sizeof e2);
    if (found == 1)
        done1(s);
    return found == 1 ? STORE_CONFLICT : -1;
}

static int sq_each_tour_game(store *base, const char *id, store_tour_game_fn fn, void *ctx,
                             char *err, size_t errlen)
{
    sq_store *st = (sq_store *)base;
    sqlite3_stmt *s = bind(st, Q_TOUR_GAMES, "t", id);
    int rc, stop = 0;
    while (!stop && (rc = sqlite3_step(s)) == SQLITE_ROW) {
        store_tour_game g;
        memset(&g, 0, sizeof g);
        g.seq = sqlite3_column_int(s, 0);
        if (col_text(s, 1, g.game, sizeof g.game) != 0 ||
            col_text(s, 2, g.white, sizeof g.white) != 0 ||
            col_text(s, 3, g.black, sizeof g.black) != 0 ||
            col_text(s, 5, g.winner, sizeof g.winner) != 0 ||
            col_text(s, 6, g.end, sizeof g.end) != 0)
            continue;
        g.division = sqlite3_column_int(s, 4);
        g.plies = sqlite3_column_int(s, 7);
        stop = fn(ctx, &g);
    }
    done1(s);
    if (!stop && rc != SQLITE_DONE)
        return fail(st, "list tournament games", err, errlen);
    return 0;
}

/* ---- chat, blocks ---- */

static int sq_add_chat(store *base, const char *game, int room, const char *name,
                       const char *text, int64_t ms, char *err, size_t errlen)
{
    sq_store *st = (sq_store *)base;
    return write1(st, bind(st, Q_INS_CHAT, "titti", game, (int64_t)room, name, text, ms), 1,
                  "chat line", err, errlen);
}

static int sq_each_chat(store *base, const char *game, int room, int limit, store_chat_fn fn,
                        void *ctx, char *err, size_t errlen)
{
    sq_store *st = (sq_store *)base;
    sqlite3_stmt *s = bind(st, Q_CHAT_OF, "tii", game, (int64_t)room, (int64_t)limit);
    int rc, stop = 0;
    while (!stop && (rc = sqlite3_step(s)) == SQLITE_ROW) {
        const unsigned char *name = sqlite3_column_text(s, 0);
        const unsigned char *text = sqlite3_column_text(s, 1);
        if (name && text)
            stop = fn(ctx, (const char *)name, (const char *)text, sqlite3_column_int64(s, 2));
    }
    done1(s);
    if (!stop && rc != SQLITE_DONE)
        return fail(st, "list chat", err, errlen);
    return 0;
}

static int sq_set_block(store *base, const char *owner, const char *name, int on,
                        int64_t created, char *err, size_t errlen)
{
    sq_store *st = (sq_store *)base;
    if (on)
        return write1(st, bind(st, Q_INS_BLOCK, "tti", owner, name, created), -1, "block", err,
                      errlen);
    return write1(st, bind(st, Q_DEL_BLOCK, "tt", owner, name), -1, "unblock", err, errlen);
}

static int sq_each_block(store *base, const char *owner, store_name_fn fn, void *ctx, char *err,
                         size_t errlen)
{
    sq_store *st = (sq_store *)base;
    sqlite3_stmt *s = bind(st, Q_BLOCKS_OF, "t", owner);
    int rc, stop = 0;
    while (!stop && (rc = sqlite3_step(s)) == SQLITE_ROW) {
        const unsigned char *name = sqlite3_column_text(s, 0);
        if (name)
            stop = fn(ctx, (const char *)name);
    }
    done1(s);
    if (!stop && rc != SQLITE_DONE)
        return fail(st, "list blocks", err, errlen);
    return 0;
}

static int sq_get_chat_flags(store *base, const char *name, int *flags, char *err, size_t errlen)
{
    sq_store *st = (sq_store *)base;
    sqlite3_stmt *s = bind(st, Q_GET_CHAT_FLAGS, "t", name);
    *flags = 0;
    int rc = read1(st, s, "chat flags", err, errlen);
    if (rc != 1)
        return rc;
    *flags = sqlite3_column_int(s, 0);
    done1(s);
    return 1;
}

static int sq_set_chat_flag(store *base, const char *name, int bit, int on, char *err,
                            size_t errlen)
{
    sq_store *st = (sq_store *)base;
    return write1(st, bind(st, Q_SET_CHAT_FLAG, "tii", name, (int64_t)bit, (int64_t)(on ? bit : 0)),
                  1, "chat flag", err, errlen);
}

const store_ops store_sqlite_ops = {
    "sqlite",      sq_open,       sq_close,     sq_pending,   sq_flush,
    sq_discard,    sq_create_game, sq_add_move, sq_truncate,  sq_set_result,
    sq_set_rematch, sq_load_game,  sq_each_unfinished,
    sq_set_end,    sq_create_account, sq_get_account, sq_set_password, sq_set_lang,
    sq_create_session, sq_get_session, sq_touch_session, sq_delete_session, sq_each_session,
    sq_create_seek, sq_close_seek, sq_seek_state, sq_each_seek,
    sq_get_rating, sq_set_rating, sq_each_rating, sq_leaderboard, sq_player_unfinished,
    sq_player_games, sq_set_game_ratings, sq_set_offers,
    /* One instance per database file: no messages, no claims, no counts. */
    NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
    sq_set_bot, sq_create_token, sq_get_token, sq_touch_token, sq_delete_token, sq_each_token,
    .mail_get = sq_mail_get, .mail_put = sq_mail_put, .mail_find = sq_mail_find,
    .mail_add = sq_mail_add, .mail_due = sq_mail_due, .mail_items = sq_mail_items,
    .mail_drop = sq_mail_drop, .mail_defer = sq_mail_defer, .mail_log = sq_mail_log,
    .mail_count = sq_mail_count,
    sq_create_tour, sq_set_tour, sq_get_tour, sq_each_tour, sq_count_tours, sq_set_tour_player,
    sq_each_tour_player, sq_add_tour_game, sq_each_tour_game,
    sq_add_chat, sq_each_chat, sq_set_block, sq_each_block, sq_get_chat_flags, sq_set_chat_flag,
    sq_close_account, sq_set_banned, sq_add_report, sq_each_report, sq_count_reports,
    sq_add_audit, sq_each_audit, sq_audit_last, sq_each_chat_by, sq_prune,
};
