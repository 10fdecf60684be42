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
 *
 * This file holds the schema, the statements, the batch (group commit),
 * opening and closing, and the helpers the backend's other files share; the
 * operations themselves are in a file per what they serve, as for
 * PostgreSQL: store_sqlite_games.c, _accounts.c, _mail.c, _tour.c, _chat.c
 * and _moderation.c.
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
    [Q_GAME_TOUR] = "SELECT tournament FROM tournament_games WHERE game = ?1",
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


/* Copy SQLite's last message into err. */
int sq_fail(sq_store *st, const char *what, char *err, size_t errlen)
{
    snprintf(err, errlen, "%s: %s", what, st->db ? sqlite3_errmsg(st->db) : "no database");
    return -1;
}

/* Run a one-shot statement without parameters. */
int sq_run(sq_store *st, int q)
{
    sqlite3_stmt *s = st->q[q];
    int rc = sqlite3_step(s);
    sqlite3_reset(s);
    return rc == SQLITE_DONE ? 0 : -1;
}

/* Group commit: writes join one open transaction (the batch), each
 * operation inside a savepoint so a failing one leaves the others intact;
 * store_flush commits the batch with one sync to disk. */
int sq_begin(sq_store *st)
{
    if (!st->in_tx) {
        if (sq_run(st, Q_BEGIN) != 0)
            return -1;
        st->in_tx = 1;
    }
    return sq_run(st, Q_SAVEPOINT);
}

int sq_commit(sq_store *st, char *err, size_t errlen)
{
    if (sq_run(st, Q_RELEASE) == 0)
        return 0;
    sq_fail(st, "release", err, errlen);
    return -1;
}

/* Undo a failed operation (not the batch), keeping the step's message. */
int sq_abort_tx(sq_store *st, sqlite3_stmt *s, const char *what, char *err, size_t errlen)
{
    sq_fail(st, what, err, errlen);
    if (s)
        sqlite3_reset(s);
    if (!sqlite3_get_autocommit(st->db)) {
        sq_run(st, Q_ROLLBACK_TO);
        sq_run(st, Q_RELEASE);
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
    if (sq_run(st, Q_COMMIT) == 0)
        return 0;
    sq_fail(st, "commit", err, errlen);
    sq_run(st, Q_ROLLBACK);
    return -1;
}

static void sq_discard(store *base)
{
    sq_store *st = (sq_store *)base;
    if (!st->in_tx)
        return;
    st->in_tx = 0;
    if (!sqlite3_get_autocommit(st->db))
        sq_run(st, Q_ROLLBACK);
}

/* For store_sqlite_moderation.c (store_sqlite_internal.h). */
sqlite3 *sq_db(store *base) { return ((sq_store *)base)->db; }

int sq_op_begin(store *base, char *err, size_t errlen)
{
    sq_store *st = (sq_store *)base;
    return sq_begin(st) == 0 ? 0 : sq_fail(st, "begin", err, errlen);
}

int sq_op_end(store *base, int rc, const char *what, char *err, size_t errlen)
{
    sq_store *st = (sq_store *)base;
    if (rc != 0) {
        char keep[256];
        snprintf(keep, sizeof keep, "%s", err);
        sq_abort_tx(st, NULL, what, err, errlen);
        if (keep[0])
            snprintf(err, errlen, "%s", keep);
        return -1;
    }
    return sq_commit(st, err, errlen);
}

/* Step a bound write statement once. */
int sq_step_done(sqlite3_stmt *s)
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
        sq_fail(st, path, err, errlen);
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
            sq_fail(st, queries[i], err, errlen);
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

/* ---- helpers the backend's files share (store_sqlite_internal.h) ---- */

/* Bind a statement's parameters from a format: 't' text, 'i' int64, 'd'
 * double, 'h' a STORE_HASH_LEN blob. */
sqlite3_stmt *sq_bind(sq_store *st, int q, const char *fmt, ...)
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
int sq_write1(sq_store *st, sqlite3_stmt *s, int want, const char *what, char *err,
                  size_t errlen)
{
    if (sq_begin(st) != 0) {
        sqlite3_reset(s);
        sqlite3_clear_bindings(s);
        return sq_fail(st, "begin", err, errlen);
    }
    if (sq_step_done(s) != 0)
        return sq_abort_tx(st, NULL, what, err, errlen);
    if (want >= 0 && sqlite3_changes(st->db) != want) {
        sq_abort_tx(st, NULL, what, err, errlen);
        snprintf(err, errlen, "%s: nothing to change", what);
        return -1;
    }
    return sq_commit(st, err, errlen);
}

/* Step a read: 1 a row (left for the caller to read and reset), 0 none, -1 error. */
int sq_read1(sq_store *st, sqlite3_stmt *s, const char *what, char *err, size_t errlen)
{
    int rc = sqlite3_step(s);
    if (rc == SQLITE_ROW)
        return 1;
    sqlite3_reset(s);
    sqlite3_clear_bindings(s);
    if (rc == SQLITE_DONE)
        return 0;
    return sq_fail(st, what, err, errlen);
}

void sq_done1(sqlite3_stmt *s)
{
    sqlite3_reset(s);
    sqlite3_clear_bindings(s);
}


/* A text column copied into a fixed buffer; -1 when it does not fit. */
int sq_col_text(sqlite3_stmt *s, int col, char *buf, size_t n)
{
    const unsigned char *t = sqlite3_column_text(s, col);
    if (!t || strlen((const char *)t) >= n)
        return -1;
    strcpy(buf, (const char *)t);
    return 0;
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
    .game_tour = sq_game_tour,
};

