/*
 * store_pg.c — the store on PostgreSQL (libpq).
 *
 * --db postgresql://user@host:port/dbname (or postgres://...) opens one
 * connection (application_name=tavoliere, synchronous_commit on: a commit
 * returns once it is durable).  The schema is the SQLite backend's (schema
 * version 9) in PostgreSQL's types; account names are unique ignoring
 * letter case through a unique index on lower(name), kept as chosen.
 * Every statement with data is prepared (PQprepare, lazily, once per
 * connection) and run with parameters; only constant text (transaction
 * control, the schema, LISTEN of a quoted identifier) goes through PQexec.
 *
 * Batches as in SQLite: the first write of a batch sends BEGIN, each
 * operation runs inside SAVEPOINT op ... RELEASE op (ROLLBACK TO op when it
 * fails, so it undoes only itself and the batch goes on), flush sends
 * COMMIT.  Reads inside an open batch see its writes.
 *
 * A lost connection (the database restarted): the call that meets it fails
 * with -1, the next call tries PQreset once (then statements are prepared
 * again, LISTEN repeated; claims were lost with the session), and a batch
 * that was open is reported failed by flush, never committed in part.
 *
 * Many instances on one database: notify joins the batch (pg_notify, sent
 * on commit only), listen/wait_notify receive, try_claim/release_claim are
 * session-level advisory locks on a 64-bit hash of the key
 * (hashtextextended), held once per connection.
 */
#include <errno.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <libpq-fe.h>

#include "server/core/store.h"
#include "server/core/store_pg_internal.h"

/* The schema this program writes. */
#define PG_SCHEMA 17

/* Migrations, in order: `from` version to `to`.  A new database is made at
 * the current schema in one step; never edit one that has shipped, add
 * {9, 10, "..."} after it. */
typedef struct pg_migration {
    int from, to;
    const char *sql;
} pg_migration;

static const pg_migration migrations[] = {
    {0, 9,
     "CREATE TABLE games ("
     "  id text PRIMARY KEY,"
     "  seq bigserial NOT NULL,"      /* insertion order (SQLite's rowid) */
     "  game text NOT NULL,"
     "  options text NOT NULL,"
     "  seed bigint NOT NULL,"
     "  white text NOT NULL,"
     "  black text NOT NULL,"
     "  created bigint NOT NULL,"
     "  status integer NOT NULL,"
     "  resigned integer NOT NULL DEFAULT -1,"
     "  local integer NOT NULL DEFAULT 0,"
     "  rematch text NOT NULL DEFAULT '',"
     "  white_account text NOT NULL DEFAULT '',"
     "  black_account text NOT NULL DEFAULT '',"
     "  rated integer NOT NULL DEFAULT 0,"
     "  winner text NOT NULL DEFAULT '',"
     "  end_reason text NOT NULL DEFAULT '',"
     "  clock_initial bigint NOT NULL DEFAULT 0,"
     "  clock_increment bigint NOT NULL DEFAULT 0,"
     "  clock_days bigint NOT NULL DEFAULT 0,"
     "  started_ms bigint NOT NULL DEFAULT 0,"
     "  white_rating double precision NOT NULL DEFAULT 0,"
     "  black_rating double precision NOT NULL DEFAULT 0,"
     "  draw_offer integer NOT NULL DEFAULT -1,"
     "  takeback_offer integer NOT NULL DEFAULT -1"
     ");"
     "CREATE INDEX games_status ON games (status);"
     "CREATE INDEX games_white_account ON games (lower(white_account), created);"
     "CREATE INDEX games_black_account ON games (lower(black_account), created);"
     "CREATE TABLE seats ("
     "  game text NOT NULL REFERENCES games (id),"
     "  side integer NOT NULL,"
     "  token_hash bytea NOT NULL,"
     "  PRIMARY KEY (game, side)"
     ");"
     "CREATE TABLE moves ("
     "  game text NOT NULL REFERENCES games (id),"
     "  ply integer NOT NULL,"
     "  text text NOT NULL,"
     "  ms bigint NOT NULL,"
     "  time bigint NOT NULL,"
     "  PRIMARY KEY (game, ply)"
     ");"
     /* Names unique ignoring case (SQLite: COLLATE NOCASE, ASCII only; so
      * is lower() in the C locale).  The tables naming an account match it
      * ignoring case in their queries (no foreign key: it would compare
      * exactly). */
     "CREATE TABLE accounts ("
     "  name text PRIMARY KEY,"
     "  pwhash text NOT NULL,"
     "  created bigint NOT NULL"
     ");"
     "CREATE UNIQUE INDEX accounts_name_nocase ON accounts (lower(name));"
     "CREATE TABLE sessions ("
     "  hash bytea PRIMARY KEY,"
     "  account text NOT NULL,"
     "  created bigint NOT NULL,"
     "  expires bigint NOT NULL"
     ");"
     "CREATE INDEX sessions_account ON sessions (account);"
     "CREATE TABLE ratings ("
     "  account text NOT NULL,"
     "  game text NOT NULL,"
     "  rating double precision NOT NULL, rd double precision NOT NULL,"
     "  vol double precision NOT NULL,"
     "  games integer NOT NULL,"
     "  PRIMARY KEY (account, game)"
     ");"
     "CREATE TABLE seeks ("
     "  id text PRIMARY KEY,"
     "  account text NOT NULL,"
     "  game text NOT NULL, options text NOT NULL, rated integer NOT NULL,"
     "  colour integer NOT NULL,"
     "  initial bigint NOT NULL, increment bigint NOT NULL, days bigint NOT NULL,"
     "  created bigint NOT NULL,"
     "  state integer NOT NULL DEFAULT 0,"      /* 0 open, 1 taken, 2 withdrawn */
     "  taken_by text NOT NULL DEFAULT '',"     /* the game it became */
     "  challenge text NOT NULL DEFAULT ''"
     ");"
     "CREATE INDEX seeks_open ON seeks (state, created);"},
    /* 9 -> 10: each session's browser (its User-Agent) and last use (the
     * account page lists them). */
    {9, 10,
     "ALTER TABLE sessions ADD COLUMN user_agent text NOT NULL DEFAULT '';"
     "ALTER TABLE sessions ADD COLUMN last_used bigint NOT NULL DEFAULT 0;"
     "ALTER TABLE sessions ADD COLUMN seq bigserial NOT NULL;"   /* the order made (ties) */
     "UPDATE sessions SET last_used = created;"
     /* Sign-in guesses of each name, counted by every instance at once. */
     "CREATE TABLE login_guard ("
     "  name text PRIMARY KEY,"          /* lower case */
     "  since bigint NOT NULL,"          /* the window's start (unix seconds) */
     "  fails integer NOT NULL,"         /* failed guesses since then */
     "  pending integer NOT NULL,"       /* guesses being hashed */
     "  touched bigint NOT NULL"         /* the last reservation */
     ");"},
    /* 10 -> 11: the page's language the account chose ('' none). */
    {10, 11, "ALTER TABLE accounts ADD COLUMN lang text NOT NULL DEFAULT '';"},
    /* 11 -> 12: each player's rating before a rated game (its change is
     * shown with the result). */
    {11, 12,
     "ALTER TABLE games ADD COLUMN white_rating_before double precision NOT NULL DEFAULT 0;"
     "ALTER TABLE games ADD COLUMN black_rating_before double precision NOT NULL DEFAULT 0;"},
    /* 12 -> 13: bots (SPEC "Bots"): bot accounts and their API tokens (the
     * hash of each, never the token). */
    {12, 13,
     "ALTER TABLE accounts ADD COLUMN bot integer NOT NULL DEFAULT 0;"
     "CREATE TABLE tokens ("
     "  id text PRIMARY KEY,"
     "  seq bigserial NOT NULL,"
     "  hash bytea NOT NULL UNIQUE,"
     "  account text NOT NULL,"
     "  created bigint NOT NULL,"
     "  last_used bigint NOT NULL DEFAULT 0"
     ");"
     "CREATE INDEX tokens_account ON tokens (lower(account));"},
    /* 13 -> 14: e-mail: each account's address and wishes, the queue of
     * mails to send (kept until sent) and the log of mails sent (the hourly
     * limit).  Accounts are keyed in lower case. */
    {13, 14,
     "CREATE TABLE mail_prefs ("
     "  account text PRIMARY KEY,"
     "  address text NOT NULL DEFAULT '',"
     "  verified integer NOT NULL DEFAULT 0,"
     "  verify_hash text NOT NULL DEFAULT '',"
     "  verify_at bigint NOT NULL DEFAULT 0,"
     "  verify_count integer NOT NULL DEFAULT 0,"
     "  verify_since bigint NOT NULL DEFAULT 0,"
     "  kinds integer NOT NULL DEFAULT 7,"
     "  digest integer NOT NULL DEFAULT 0,"
     "  unsub text NOT NULL DEFAULT ''"
     ");"
     "CREATE INDEX mail_prefs_unsub ON mail_prefs (unsub);"
     "CREATE INDEX mail_prefs_verify ON mail_prefs (verify_hash);"
     "CREATE TABLE mail_queue ("
     "  id bigserial PRIMARY KEY,"
     "  account text NOT NULL,"
     "  kind integer NOT NULL,"
     "  arg text NOT NULL,"
     "  created bigint NOT NULL,"
     "  due bigint NOT NULL,"
     "  tries integer NOT NULL DEFAULT 0"
     ");"
     "CREATE INDEX mail_queue_due ON mail_queue (due);"
     "CREATE INDEX mail_queue_account ON mail_queue (account, id);"
     "CREATE TABLE mail_log (account text NOT NULL, sent bigint NOT NULL);"
     "CREATE INDEX mail_log_account ON mail_log (account, sent);"},
    /* 14 -> 15: tournaments, their players and their games (SPEC "Tournaments");
     * scores are computed from the games, never stored. */
    {14, 15,
     "CREATE TABLE tournaments ("
     "  id text PRIMARY KEY, name text NOT NULL, game text NOT NULL, options text NOT NULL,"
     "  kind text NOT NULL, rated integer NOT NULL,"
     "  clock_initial bigint NOT NULL, clock_increment bigint NOT NULL,"
     "  clock_days bigint NOT NULL,"
     "  creator text NOT NULL,"
     "  status integer NOT NULL DEFAULT 0,"        /* 0 open, 1 running, 2 over */
     "  starts bigint NOT NULL, ends bigint NOT NULL DEFAULT 0,"
     "  minutes bigint NOT NULL, created bigint NOT NULL,"
     "  repeat text NOT NULL DEFAULT '',"          /* '', 'day', 'week' */
     "  previous text NOT NULL DEFAULT ''"         /* the edition it follows */
     ");"
     "CREATE INDEX tournaments_status ON tournaments (status, starts);"
     "CREATE UNIQUE INDEX tournaments_previous ON tournaments (previous) WHERE previous <> '';"
     "CREATE INDEX tournaments_creator ON tournaments (lower(creator), created);"
     "CREATE TABLE tournament_players ("
     "  tournament text NOT NULL REFERENCES tournaments (id),"
     "  account text NOT NULL,"
     "  rating double precision NOT NULL, withdrawn integer NOT NULL DEFAULT 0,"
     "  division integer NOT NULL DEFAULT 0, seed integer NOT NULL DEFAULT 0,"
     "  joined bigint NOT NULL, once integer NOT NULL DEFAULT 0,"
     "  PRIMARY KEY (tournament, account)"
     ");"
     "CREATE TABLE tournament_games ("
     "  tournament text NOT NULL REFERENCES tournaments (id),"
     "  seq integer NOT NULL,"
     "  game text NOT NULL REFERENCES games (id),"
     "  white text NOT NULL, black text NOT NULL, division integer NOT NULL,"
     "  PRIMARY KEY (tournament, seq)"
     ");"
     "CREATE INDEX tournament_games_game ON tournament_games (game);"},
    /* 15 -> 16: chat in a game (two rooms: 0 the players, 1 the spectators),
     * each account's block list and its chat flags (1 off in rated games,
     * 2 muted by the operator). */
    {15, 16,
     "CREATE TABLE chat ("
     "  seq bigserial PRIMARY KEY,"
     "  game text NOT NULL,"
     "  room integer NOT NULL,"
     "  name text NOT NULL,"
     "  text text NOT NULL,"
     "  ms bigint NOT NULL"
     ");"
     "CREATE INDEX chat_game ON chat (game, room, seq);"
     "CREATE TABLE blocks ("
     "  owner text NOT NULL,"
     "  name text NOT NULL,"
     "  created bigint NOT NULL,"
     "  seq bigserial NOT NULL,"
     "  PRIMARY KEY (owner, name)"
     ");"
     "CREATE TABLE chat_flags (name text PRIMARY KEY, flags integer NOT NULL DEFAULT 0);"},
    /* 16 -> 17: moderation: an account closed (when) or banned, players'
     * reports, the operator's audit log; chat lines found by their writer
     * (the export) and by age (retention). */
    {16, 17,
     "ALTER TABLE accounts ADD COLUMN closed bigint NOT NULL DEFAULT 0;"
     "ALTER TABLE accounts ADD COLUMN banned integer NOT NULL DEFAULT 0;"
     "CREATE TABLE reports ("
     "  id bigserial PRIMARY KEY,"
     "  created bigint NOT NULL,"
     "  reporter text NOT NULL,"
     "  reported text NOT NULL,"
     "  game text NOT NULL DEFAULT '',"
     "  reason text NOT NULL,"
     "  text text NOT NULL"
     ");"
     "CREATE INDEX reports_reporter ON reports (lower(reporter), created);"
     "CREATE INDEX reports_created ON reports (created);"
     "CREATE TABLE audit ("
     "  id bigserial PRIMARY KEY,"
     "  created bigint NOT NULL,"
     "  operator text NOT NULL,"
     "  action text NOT NULL,"
     "  target text NOT NULL,"
     "  note text NOT NULL DEFAULT ''"
     ");"
     "CREATE INDEX chat_name ON chat (lower(name), seq);"
     "CREATE INDEX chat_ms ON chat (ms);"},
};
#define NMIGRATIONS ((int)(sizeof migrations / sizeof migrations[0]))


#define TOUR_COLS                                                                  \
    "SELECT id, name, game, options, kind, rated, clock_initial, clock_increment," \
    " clock_days, creator, status, starts, ends, minutes, created," \
    " (SELECT count(*) FROM tournament_players p WHERE p.tournament = t.id" \
    " AND p.withdrawn = 0), repeat, previous FROM tournaments t"

static const char *const queries[NQ] = {
    [Q_INS_GAME] = "INSERT INTO games (id, game, options, seed, white, black, created, status,"
                   " resigned, local, white_account, black_account, rated, clock_initial,"
                   " clock_increment, clock_days, started_ms)"
                   " VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15,"
                   " $16, $17)",
    [Q_INS_SEAT] = "INSERT INTO seats (game, side, token_hash) VALUES ($1, $2, $3)",
    [Q_INS_MOVE] = "INSERT INTO moves (game, ply, text, ms, time) VALUES ($1, $2, $3, $4, $5)",
    /* A move and the game's status after it in one statement (one round trip). */
    /* ... and the row's stamp before and after: the row is locked (FOR
     * UPDATE, after the insert, in the order every move writes) and read as
     * its last writer left it, so "before" is what a copy must hold for
     * this move to be the only change (the delta the others are told). */
    [Q_ADD_MOVE] = "WITH m AS (INSERT INTO moves (game, ply, text, ms, time)"
                   " VALUES ($1, $2, $3, $4, $5) RETURNING game),"
                   " o AS (SELECT id, xmin::text::bigint AS before FROM games"
                   " WHERE id = (SELECT game FROM m) FOR UPDATE)"
                   " UPDATE games SET status = $6 FROM o WHERE games.id = o.id"
                   " RETURNING games.xmin::text::bigint, o.before",
    [Q_SET_RESULT] = "UPDATE games SET status = $2, resigned = $3 WHERE id = $1",
    [Q_SET_REMATCH] = "UPDATE games SET rematch = $2 WHERE id = $1 AND rematch = ''",
    [Q_DEL_MOVES] = "DELETE FROM moves WHERE game = $1 AND ply >= $2",
    /* The row and both seats' hashes in one round trip. */
    [Q_GET_GAME] = "SELECT game, options, seed, white, black, created, status, resigned, local,"
                   " rematch, white_account, black_account, rated, winner, end_reason,"
                   " clock_initial, clock_increment, clock_days, started_ms, draw_offer,"
                   " takeback_offer,"
                   " (SELECT token_hash FROM seats WHERE game = $1 AND side = 0),"
                   " (SELECT token_hash FROM seats WHERE game = $1 AND side = 1),"
                   " xmin::text::bigint, white_rating_before, black_rating_before,"
                   " white_rating, black_rating"
                   " FROM games WHERE id = $1",
    /* A game's stamp: the id of the transaction that last wrote its row. */
    [Q_GAME_STAMP] = "SELECT xmin::text::bigint FROM games WHERE id = $1",
    [Q_GET_MOVES] = "SELECT ply, text, ms, time FROM moves WHERE game = $1 ORDER BY ply",
    [Q_UNFINISHED] = "SELECT id FROM games WHERE status = 2 OR (status = 0 AND"
                     " (clock_initial > 0 OR clock_days > 0)) ORDER BY created, id COLLATE \"C\"",
    /* The same games whose claim ($1 || id) no connection holds: the
     * advisory locks held, read once (classid and objid are a bigint key's
     * two halves). */
    [Q_UNCLAIMED] = "WITH held AS MATERIALIZED (SELECT (classid::bigint << 32) | objid::bigint AS k"
                    " FROM pg_locks WHERE locktype = 'advisory' AND objsubid = 1)"
                    " SELECT id FROM games WHERE (status = 2 OR (status = 0 AND"
                    " (clock_initial > 0 OR clock_days > 0)))"
                    " AND hashtextextended($1 || id, 0) NOT IN (SELECT k FROM held)"
                    " ORDER BY created, id COLLATE \"C\"",
    [Q_SET_END] = "UPDATE games SET winner = $2, end_reason = $3 WHERE id = $1",
    [Q_INS_ACCOUNT] = "INSERT INTO accounts (name, pwhash, created) VALUES ($1, $2, $3)",
    [Q_GET_ACCOUNT] = "SELECT name, pwhash, created, lang, bot, closed, banned FROM accounts"
                      " WHERE lower(name) = lower($1)",
    [Q_SET_PASSWORD] = "UPDATE accounts SET pwhash = $2 WHERE lower(name) = lower($1)",
    [Q_SET_LANG] = "UPDATE accounts SET lang = $2 WHERE lower(name) = lower($1)",
    [Q_INS_SESSION] = "INSERT INTO sessions (hash, account, created, expires, user_agent,"
                      " last_used) VALUES ($1, $2, $3, $4, $5, $3)",
    [Q_TOUCH_SESSION] = "UPDATE sessions SET last_used = $2 WHERE hash = $1 AND last_used < $2",
    [Q_GET_SESSION] = "SELECT a.name, s.last_used FROM sessions s JOIN accounts a"
                      " ON lower(a.name) = lower(s.account) WHERE s.hash = $1 AND s.expires > $2"
                      " AND a.closed = 0 AND a.banned = 0",
    [Q_DEL_SESSION] = "DELETE FROM sessions WHERE hash = $1",
    [Q_SESSIONS_OF] = "SELECT hash, created, expires, user_agent, last_used FROM sessions"
                      " WHERE account = $1 AND expires > $2 ORDER BY created DESC, seq DESC",
    [Q_INS_SEEK] = "INSERT INTO seeks (id, account, game, options, rated, colour, initial,"
                   " increment, days, created, challenge)"
                   " VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)",
    [Q_CLOSE_SEEK] = "UPDATE seeks SET state = $3, taken_by = $2 WHERE id = $1 AND state = 0",
    [Q_SEEK_STATE] = "SELECT state FROM seeks WHERE id = $1",
    [Q_OPEN_SEEKS] = "SELECT id, account, game, options, rated, colour, initial, increment, days,"
                     " created, challenge FROM seeks WHERE state = 0"
                     " ORDER BY created, id COLLATE \"C\"",
    [Q_GET_RATING] = "SELECT rating, rd, vol, games FROM ratings WHERE account = $1 AND game = $2",
    [Q_SET_RATING] = "INSERT INTO ratings (account, game, rating, rd, vol, games)"
                     " VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (account, game) DO UPDATE SET"
                     " rating = excluded.rating, rd = excluded.rd, vol = excluded.vol,"
                     " games = excluded.games",
    [Q_RATINGS] = "SELECT game, rating, rd, vol, games FROM ratings WHERE account = $1"
                  " ORDER BY game COLLATE \"C\"",
    [Q_PLAYER_GAMES] = "SELECT id, game, white, black, white_account, black_account, winner,"
                       " end_reason, rated, white_rating, black_rating, created FROM games"
                       " WHERE lower(white_account) = lower($1) OR lower(black_account) = lower($1)"
                       " ORDER BY created DESC, seq DESC LIMIT $2",
    [Q_LEADERBOARD] = "SELECT a.name, r.rating, r.rd, r.vol, r.games, a.bot FROM ratings r"
                      " JOIN accounts a ON lower(a.name) = lower(r.account) WHERE r.game = $1 AND r.games > 0"
                      " AND a.closed = 0 AND a.banned = 0 ORDER BY r.rating DESC, lower(a.name) COLLATE \"C\", a.name COLLATE \"C\""
                      " LIMIT $2",
    [Q_UNFINISHED_OF] = "SELECT id FROM games WHERE status <> 1 AND"
                        " (lower(white_account) = lower($1) OR lower(black_account) = lower($1))"
                        " ORDER BY created DESC, seq DESC LIMIT $2",
    [Q_SET_GAME_RATINGS] = "UPDATE games SET white_rating = $2, black_rating = $3,"
                           " white_rating_before = $4, black_rating_before = $5 WHERE id = $1",
    [Q_SET_OFFERS] = "UPDATE games SET draw_offer = $2, takeback_offer = $3 WHERE id = $1",
    [Q_SET_BOT] = "UPDATE accounts SET bot = 1 WHERE lower(name) = lower($1)",
    [Q_INS_TOKEN] = "INSERT INTO tokens (id, hash, account, created) VALUES ($1, $2, $3, $4)",
    [Q_GET_TOKEN] = "SELECT a.name, t.last_used FROM tokens t JOIN accounts a"
                    " ON lower(a.name) = lower(t.account) WHERE t.hash = $1"
                    " AND a.closed = 0 AND a.banned = 0",
    [Q_TOUCH_TOKEN] = "UPDATE tokens SET last_used = $2 WHERE hash = $1 AND last_used < $2",
    [Q_DEL_TOKEN] = "DELETE FROM tokens WHERE lower(account) = lower($1) AND id = $2",
    [Q_TOKENS_OF] = "SELECT id, created, last_used FROM tokens WHERE lower(account) = lower($1)"
                    " ORDER BY created, seq",
    /* Tournaments. */
    [Q_INS_TOUR] = "INSERT INTO tournaments (id, name, game, options, kind, rated, clock_initial,"
                   " clock_increment, clock_days, creator, status, starts, ends, minutes, created, repeat,"
                   " previous) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14,"
                   " $15, $16, $17)",
    [Q_SET_TOUR] = "UPDATE tournaments SET status = $3, starts = $4, ends = $5"
                   " WHERE id = $1 AND status = $2",
    [Q_GET_TOUR] = TOUR_COLS " WHERE id = $1",
    [Q_ALL_TOURS] = TOUR_COLS " ORDER BY starts DESC, id COLLATE \"C\" LIMIT $1",
    [Q_OPEN_TOURS] = TOUR_COLS " WHERE status < 2 ORDER BY starts, id COLLATE \"C\" LIMIT $1",
    [Q_COUNT_TOURS] = "SELECT count(*) FROM tournaments WHERE lower(creator) = lower($1)"
                      " AND created >= $2 AND previous = ''",
    [Q_SET_TOUR_PLAYER] = "INSERT INTO tournament_players (tournament, account, rating, withdrawn,"
                          " division, seed, joined, once) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)"
                          " ON CONFLICT (tournament, account) DO UPDATE SET"
                          " rating = excluded.rating, withdrawn = excluded.withdrawn,"
                          " division = excluded.division, seed = excluded.seed,"
                          " joined = excluded.joined, once = excluded.once",
    [Q_TOUR_PLAYERS] = "SELECT account, rating, withdrawn, division, seed, joined, once"
                       " FROM tournament_players WHERE tournament = $1"
                       " ORDER BY joined, account COLLATE \"C\"",
    /* A place taken already changes nothing (a pairing made twice). */
    [Q_INS_TOUR_GAME] = "INSERT INTO tournament_games (tournament, seq, game, white, black,"
                        " division) VALUES ($1, $2, $3, $4, $5, $6)"
                        " ON CONFLICT (tournament, seq) DO NOTHING",
    [Q_GAME_TOUR] = "SELECT tournament FROM tournament_games WHERE game = $1",
    [Q_TOUR_GAMES] = "SELECT t.seq, t.game, t.white, t.black, t.division, g.winner, g.end_reason,"
                     " (SELECT count(*) FROM moves m WHERE m.game = t.game)"
                     " FROM tournament_games t JOIN games g ON g.id = t.game"
                     " WHERE t.tournament = $1 ORDER BY t.seq",
    [Q_NOTIFY] = "SELECT pg_notify($1, $2)",
    [Q_INS_CHAT] = "INSERT INTO chat (game, room, name, text, ms) VALUES ($1, $2, $3, $4, $5)",
    [Q_CHAT_OF] = "SELECT name, text, ms FROM (SELECT seq, name, text, ms FROM chat"
                  " WHERE game = $1 AND room = $2 ORDER BY seq DESC LIMIT $3) c ORDER BY seq",
    [Q_INS_BLOCK] = "INSERT INTO blocks (owner, name, created) VALUES ($1, $2, $3)"
                    " ON CONFLICT (owner, name) DO NOTHING",
    [Q_DEL_BLOCK] = "DELETE FROM blocks WHERE owner = $1 AND name = $2",
    [Q_BLOCKS_OF] = "SELECT name FROM blocks WHERE owner = $1 ORDER BY created, seq",
    [Q_GET_CHAT_FLAGS] = "SELECT flags FROM chat_flags WHERE name = $1",
    [Q_SET_CHAT_FLAG] = "INSERT INTO chat_flags AS f (name, flags) VALUES ($1, $3::integer)"
                        " ON CONFLICT (name) DO UPDATE SET flags = (f.flags & ~($2::integer)) | $3::integer",
    [Q_CLOSE_ACCOUNT] = "UPDATE accounts SET closed = $2 WHERE lower(name) = lower($1) AND closed = 0",
    [Q_SET_BANNED] = "UPDATE accounts SET banned = $2 WHERE lower(name) = lower($1)",
    [Q_END_SESSIONS] = "DELETE FROM sessions WHERE lower(account) = lower($1)",
    [Q_INS_REPORT] = "INSERT INTO reports (created, reporter, reported, game, reason, text)"
                     " VALUES ($1, $2, $3, $4, $5, $6)",
    [Q_REPORTS] = "SELECT id, created, reporter, reported, game, reason, text FROM reports"
                  " WHERE $1 = '' OR lower(reporter) = lower($1)"
                  " ORDER BY created DESC, id DESC LIMIT $2",
    [Q_COUNT_REPORTS] = "SELECT count(*) FROM reports WHERE lower(reporter) = lower($1)"
                        " AND ($2 = '' OR lower(reported) = lower($2)) AND created >= $3",
    [Q_INS_AUDIT] = "INSERT INTO audit (created, operator, action, target, note)"
                    " VALUES ($1, $2, $3, $4, $5)",
    [Q_AUDIT] = "SELECT id, created, operator, action, target, note FROM audit WHERE id > $1"
                " ORDER BY id LIMIT $2",
    [Q_AUDIT_LAST] = "SELECT coalesce(max(id), 0) FROM audit",
    [Q_CHAT_BY] = "SELECT game, room, text, ms FROM chat WHERE lower(name) = lower($1)"
                  " ORDER BY seq LIMIT $2",
    [Q_PRUNE_CHAT] = "DELETE FROM chat WHERE ms < $1",
    [Q_PRUNE_REPORTS] = "DELETE FROM reports WHERE created < $1",
    /* One statement: the row locked, the window and a dead instance's
     * reservations forgotten, and the guess counted only below the limit. */
    [Q_GUARD_RESERVE] =
        "INSERT INTO login_guard AS g (name, since, fails, pending, touched)"
        " VALUES (lower($1), $2::bigint, 0, 1, $2::bigint)"
        " ON CONFLICT (name) DO UPDATE SET"
        " since = CASE WHEN g.since <= $2::bigint - $3::bigint THEN $2::bigint ELSE g.since END,"
        " fails = CASE WHEN g.since <= $2::bigint - $3::bigint THEN 0 ELSE g.fails END,"
        " pending = CASE WHEN g.touched <= $2::bigint - 120 THEN 1 ELSE g.pending + 1 END,"
        " touched = $2::bigint"
        " WHERE (CASE WHEN g.since <= $2::bigint - $3::bigint THEN 0 ELSE g.fails END)"
        " + (CASE WHEN g.touched <= $2::bigint - 120 THEN 0 ELSE g.pending END) < $4::bigint"
        " RETURNING pending",
    [Q_GUARD_SETTLE] = "UPDATE login_guard SET pending = greatest(pending - 1, 0),"
                       " fails = fails + $2::integer WHERE name = lower($1)",
    [Q_TRY_CLAIM] = "SELECT pg_try_advisory_lock(hashtextextended($1, 0))",
    [Q_RELEASE_CLAIM] = "SELECT pg_advisory_unlock(hashtextextended($1, 0))",
    [Q_GET_VERSION] = "SELECT version FROM schema_version",
    [Q_INIT_VERSION] = "INSERT INTO schema_version (version) VALUES (0)",
    [Q_SET_VERSION] = "UPDATE schema_version SET version = $1",
    [Q_MAIL_GET] = "SELECT address, verified, verify_hash, verify_at, verify_count, verify_since,"
                   " kinds, digest, unsub FROM mail_prefs WHERE account = lower($1)",
    [Q_MAIL_PUT] = "INSERT INTO mail_prefs (account, address, verified, verify_hash, verify_at,"
                   " verify_count, verify_since, kinds, digest, unsub)"
                   " VALUES (lower($1), $2, $3, $4, $5, $6, $7, $8, $9, $10)"
                   " ON CONFLICT (account) DO UPDATE SET address = excluded.address,"
                   " verified = excluded.verified, verify_hash = excluded.verify_hash,"
                   " verify_at = excluded.verify_at, verify_count = excluded.verify_count,"
                   " verify_since = excluded.verify_since, kinds = excluded.kinds,"
                   " digest = excluded.digest, unsub = excluded.unsub",
    [Q_MAIL_UNSUB] = "SELECT a.name FROM mail_prefs m JOIN accounts a ON lower(a.name) = m.account"
                     " WHERE m.unsub = $1 AND m.unsub <> ''",
    [Q_MAIL_VERIFY] = "SELECT a.name FROM mail_prefs m JOIN accounts a ON lower(a.name) = m.account"
                      " WHERE m.verify_hash = $1 AND m.verify_hash <> ''",
    [Q_MAIL_ADD] = "INSERT INTO mail_queue (account, kind, arg, created, due)"
                   " SELECT lower($1), $2, $3, $4, $5"
                   " WHERE (SELECT count(*) FROM mail_queue WHERE account = lower($1)) < $6"
                   " AND NOT EXISTS (SELECT 1 FROM mail_queue WHERE account = lower($1)"
                   " AND kind = $2 AND arg = $3)",
    [Q_MAIL_DUE] = "SELECT DISTINCT account FROM mail_queue WHERE due <= $1 LIMIT $2",
    [Q_MAIL_ITEMS] = "SELECT id, account, kind, arg, created, due, tries FROM mail_queue"
                     " WHERE account = lower($1) ORDER BY id",
    [Q_MAIL_DROP] = "DELETE FROM mail_queue WHERE id = $1",
    [Q_MAIL_DEFER] = "UPDATE mail_queue SET due = $2, tries = $3 WHERE id = $1",
    [Q_MAIL_LOG] = "WITH p AS (DELETE FROM mail_log WHERE account = lower($1) AND sent < $3)"
                   " INSERT INTO mail_log (account, sent) VALUES (lower($1), $2)",
    [Q_MAIL_COUNT] = "SELECT count(*) FROM mail_log WHERE account = lower($1) AND sent >= $2",
};


/* A text result: copied into err with the URI's password (if any) masked. */
void pg_set_err(pg_store *st, char *err, size_t errlen, const char *what, const char *msg)
{
    if (!err || errlen == 0)
        return;
    snprintf(err, errlen, "%s: %s", what, msg && msg[0] ? msg : "database error");
    size_t n = strlen(err);
    while (n > 0 && (err[n - 1] == '\n' || err[n - 1] == ' '))
        err[--n] = 0;
    const char *pw = st && st->conn ? PQpass(st->conn) : NULL;
    size_t pl = pw ? strlen(pw) : 0;
    if (pl == 0)
        return;
    for (char *p = strstr(err, pw); p; p = strstr(p, pw))
        memset(p, '*', pl);
}

/* The connection is gone: the batch with it, the statements, the claims. */
void pg_lost(pg_store *st)
{
    if (st->in_tx) {
        st->in_tx = 0;
        st->batch_lost = 1;
    }
    st->sp_held = 0;
    memset(st->prepared, 0, sizeof st->prepared);
    for (int i = 0; i < st->nclaims; i++)
        free(st->claims[i]);
    st->nclaims = 0;
    st->was_lost = 1;
}

/* A result that did what was asked (a command, or rows). */
static int res_ok(const PGresult *r)
{
    ExecStatusType s = PQresultStatus(r);
    return s == PGRES_COMMAND_OK || s == PGRES_TUPLES_OK;
}

/* Bytes received: the values of a result (an approximation of the wire:
 * headers and field descriptions are not counted). */
static void count_in(pg_store *st, const PGresult *r)
{
    int rows = PQntuples(r), cols = PQnfields(r);
    for (int i = 0; i < rows; i++)
        for (int j = 0; j < cols; j++)
            st->bytes_in += PQgetlength(r, i, j);
}

/* Run constant SQL text (no data in it): 0, or -1 with a message. */
static int simple(pg_store *st, const char *sql, const char *what, char *err, size_t errlen)
{
    PGresult *r = PQexec(st->conn, sql);
    st->trips++;
    st->bytes_out += (int64_t)strlen(sql);
    int ok = r && res_ok(r);
    if (!ok)
        pg_set_err(st, err, errlen, what,
                r ? PQresultErrorMessage(r) : PQerrorMessage(st->conn));
    if (r)
        count_in(st, r);
    PQclear(r);
    if (!ok && PQstatus(st->conn) != CONNECTION_OK)
        pg_lost(st);
    return ok ? 0 : -1;
}

/* Session settings and LISTENs, on a new connection. */
static int setup(pg_store *st, char *err, size_t errlen);

/* The connection, reset once if it was lost: 0 usable, -1 not (with a message). */
int pg_ensure(pg_store *st, char *err, size_t errlen)
{
    if (PQstatus(st->conn) == CONNECTION_OK)
        return 0;
    pg_lost(st);
    PQreset(st->conn);
    st->trips++;
    if (PQstatus(st->conn) != CONNECTION_OK) {
        pg_set_err(st, err, errlen, "database connection lost", PQerrorMessage(st->conn));
        return -1;
    }
    return setup(st, err, errlen);
}

/* Text valid as UTF-8 (the database refuses anything else, and a refused
 * read would spoil the open batch). */
static int utf8_ok(const char *s)
{
    const unsigned char *p = (const unsigned char *)s;
    while (*p) {
        unsigned c = p[0], cp, min;
        int n;
        if (c < 0x80) {
            p++;
            continue;
        }
        if (c >= 0xc2 && c <= 0xdf) {
            n = 1, cp = c & 0x1f, min = 0x80;
        } else if ((c & 0xf0) == 0xe0) {
            n = 2, cp = c & 0x0f, min = 0x800;
        } else if (c >= 0xf0 && c <= 0xf4) {
            n = 3, cp = c & 0x07, min = 0x10000;
        } else {
            return 0;
        }
        for (int i = 1; i <= n; i++) {
            if ((p[i] & 0xc0) != 0x80)   /* also stops at the NUL */
                return 0;
            cp = cp << 6 | (p[i] & 0x3f);
        }
        if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
            return 0;
        p += n + 1;
    }
    return 1;
}


void pg_params_v(params *p, const char *fmt, va_list ap)
{
    p->n = 0;
    for (; fmt[p->n] && p->n < MAXP; p->n++) {
        int n = p->n;
        p->len[n] = 0;
        p->form[n] = 0;
        switch (fmt[n]) {
        case 't':
            p->val[n] = va_arg(ap, const char *);
            break;
        case 'i':
            snprintf(p->num[n], sizeof p->num[n], "%lld", (long long)va_arg(ap, int64_t));
            p->val[n] = p->num[n];
            break;
        case 'd':
            snprintf(p->num[n], sizeof p->num[n], "%.17g", va_arg(ap, double));
            p->val[n] = p->num[n];
            break;
        default:
            p->val[n] = (const char *)va_arg(ap, const unsigned char *);
            p->len[n] = STORE_HASH_LEN;
            p->form[n] = 1;
            break;
        }
    }
}

/* Run prepared query q: 0 done (the result in *out when asked, to
 * PQclear), STORE_CONFLICT when a constraint refused it (a key taken),
 * BAD_TEXT for text that is not UTF-8 (nothing sent), -1 an error with a
 * message. */
int pg_run_p(pg_store *st, int q, PGresult **out, const char *what, char *err, size_t errlen,
                 const params *p)
{
    if (out)
        *out = NULL;
    for (int i = 0; i < p->n; i++)
        if (p->form[i] == 0 && !utf8_ok(p->val[i])) {
            pg_set_err(st, err, errlen, what, "text that is not UTF-8");
            return BAD_TEXT;
        }
    if (pg_ensure(st, err, errlen) != 0)
        return -1;
    char name[16];
    snprintf(name, sizeof name, "tav%d", q);
    if (!st->prepared[q]) {
        PGresult *pr = PQprepare(st->conn, name, queries[q], 0, NULL);
        st->trips++;
        st->bytes_out += (int64_t)strlen(queries[q]);
        int ok = pr && res_ok(pr);
        if (!ok)
            pg_set_err(st, err, errlen, what, pr ? PQresultErrorMessage(pr) : PQerrorMessage(st->conn));
        PQclear(pr);
        if (!ok) {
            if (PQstatus(st->conn) != CONNECTION_OK)
                pg_lost(st);
            return -1;
        }
        st->prepared[q] = 1;
    }
    for (int i = 0; i < p->n; i++)
        st->bytes_out += p->form[i] ? p->len[i] : (int64_t)strlen(p->val[i]);
    PGresult *r = PQexecPrepared(st->conn, name, p->n, p->val, p->len, p->form, 0);
    st->trips++;
    if (r && res_ok(r)) {
        count_in(st, r);
        if (out)
            *out = r;
        else
            PQclear(r);
        return 0;
    }
    const char *state = r ? PQresultErrorField(r, PG_DIAG_SQLSTATE) : NULL;
    int conflict = state && strncmp(state, "23", 2) == 0;   /* integrity constraint */
    pg_set_err(st, err, errlen, what, r ? PQresultErrorMessage(r) : PQerrorMessage(st->conn));
    PQclear(r);
    if (PQstatus(st->conn) != CONNECTION_OK)
        pg_lost(st);
    return conflict ? STORE_CONFLICT : -1;
}

int pg_run(pg_store *st, int q, PGresult **out, const char *what, char *err, size_t errlen,
               const char *fmt, ...)
{
    params p;
    va_list ap;
    va_start(ap, fmt);
    pg_params_v(&p, fmt, ap);
    va_end(ap);
    return pg_run_p(st, q, out, what, err, errlen, &p);
}

/* Rows changed by a write. */
long pg_changed(PGresult *r) { return r ? strtol(PQcmdTuples(r), NULL, 10) : 0; }

/* ---- batches ---- */

/* Open the batch (BEGIN on its first write) and this operation's
 * savepoint.  The savepoint of the operation before, when it succeeded, is
 * released in the same round trip (RELEASE op; SAVEPOINT op): two round
 * trips an operation (savepoint, statement), and COMMIT releases the last. */
int pg_wbegin(pg_store *st, char *err, size_t errlen)
{
    if (pg_ensure(st, err, errlen) != 0)
        return -1;
    if (st->batch_lost) {
        pg_set_err(st, err, errlen, "write",
                "the open batch was lost with the database connection (flush reports it)");
        return -1;
    }
    st->stamp_ok = 0;
    const char *sql = !st->in_tx ? "BEGIN; SAVEPOINT op"
                      : st->sp_held ? "RELEASE op; SAVEPOINT op" : "SAVEPOINT op";
    int was = st->in_tx;
    st->sp_held = 0;
    if (simple(st, sql, "begin", err, errlen) != 0) {
        if (!was && PQstatus(st->conn) == CONNECTION_OK &&
            PQtransactionStatus(st->conn) != PQTRANS_IDLE) {
            char e2[128];
            simple(st, "ROLLBACK", "rollback", e2, sizeof e2);
        }
        return -1;
    }
    st->in_tx = 1;
    return 0;
}

/* Close the operation: kept (rc 0: its savepoint released with the next
 * one's, or by COMMIT) or undone alone (the batch goes on); the
 * operation's answer: 0, STORE_CONFLICT or -1. */
int pg_wend(pg_store *st, int rc, char *err, size_t errlen)
{
    if (rc == 0) {
        st->sp_held = st->in_tx;
        return 0;
    }
    char e2[128];
    if (st->in_tx)
        simple(st, "ROLLBACK TO op; RELEASE op", "rollback", e2, sizeof e2);
    return rc == STORE_CONFLICT ? rc : -1;
}

/* One write statement as a whole operation: `want` rows pg_changed (-1 any). */
int pg_write1(pg_store *st, int q, int want, const char *what, char *err, size_t errlen,
                  const char *fmt, ...)
{
    params p;
    va_list ap;
    va_start(ap, fmt);
    pg_params_v(&p, fmt, ap);
    va_end(ap);
    if (pg_wbegin(st, err, errlen) != 0)
        return -1;
    PGresult *r = NULL;
    int rc = pg_run_p(st, q, &r, what, err, errlen, &p);
    if (rc == 0 && want >= 0 && pg_changed(r) != want) {
        rc = -1;
        pg_set_err(st, err, errlen, what, "nothing to change");
    }
    PQclear(r);
    return pg_wend(st, rc, err, errlen);
}

static int pg_pending(const store *base)
{
    const pg_store *st = (const pg_store *)base;
    return st->in_tx || st->batch_lost;
}

static int pg_flush(store *base, char *err, size_t errlen)
{
    pg_store *st = (pg_store *)base;
    st->stamp_ok = 0;
    if (st->batch_lost) {
        st->batch_lost = 0;
        pg_set_err(st, err, errlen, "commit", "the batch was lost with the database connection");
        return -1;
    }
    if (!st->in_tx)
        return 0;
    st->in_tx = 0;
    st->sp_held = 0;
    char e2[128];
    if (PQtransactionStatus(st->conn) == PQTRANS_INERROR) {
        simple(st, "ROLLBACK", "rollback", e2, sizeof e2);
        pg_set_err(st, err, errlen, "commit", "the transaction failed and was rolled back");
        return -1;
    }
    PGresult *r = PQexec(st->conn, "COMMIT");
    st->trips++;
    st->bytes_out += 6;
    /* A COMMIT of a failed transaction answers ROLLBACK. */
    int ok = r && PQresultStatus(r) == PGRES_COMMAND_OK && strcmp(PQcmdStatus(r), "COMMIT") == 0;
    if (!ok)
        pg_set_err(st, err, errlen, "commit",
                r && PQresultStatus(r) != PGRES_COMMAND_OK ? PQresultErrorMessage(r)
                : r ? "the transaction was rolled back by the database"
                    : PQerrorMessage(st->conn));
    PQclear(r);
    if (!ok) {
        if (PQstatus(st->conn) != CONNECTION_OK)
            pg_lost(st);
        else if (PQtransactionStatus(st->conn) != PQTRANS_IDLE)
            simple(st, "ROLLBACK", "rollback", e2, sizeof e2);
        st->batch_lost = 0;
        return -1;
    }
    return 0;
}

static void pg_discard(store *base)
{
    pg_store *st = (pg_store *)base;
    st->stamp_ok = 0;
    st->batch_lost = 0;
    if (!st->in_tx)
        return;
    st->in_tx = 0;
    st->sp_held = 0;
    char e2[128];
    if (PQstatus(st->conn) == CONNECTION_OK)
        simple(st, "ROLLBACK", "rollback", e2, sizeof e2);
}


/* ---- results ---- */

/* A text column copied into a fixed buffer; -1 when NULL or it does not fit. */
int pg_col_text(const PGresult *r, int row, int col, char *buf, size_t n)
{
    if (PQgetisnull(r, row, col))
        return -1;
    size_t len = (size_t)PQgetlength(r, row, col);
    if (len >= n)
        return -1;
    memcpy(buf, PQgetvalue(r, row, col), len);
    buf[len] = 0;
    return 0;
}

int64_t pg_col_i64(const PGresult *r, int row, int col)
{
    return (int64_t)strtoll(PQgetvalue(r, row, col), NULL, 10);
}

int pg_col_int(const PGresult *r, int row, int col)
{
    return (int)strtol(PQgetvalue(r, row, col), NULL, 10);
}

double pg_col_double(const PGresult *r, int row, int col)
{
    return strtod(PQgetvalue(r, row, col), NULL);
}

static int hexval(int c)
{
    return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10
                                          : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

/* A bytea column (text form, hex: \x...) of exactly STORE_HASH_LEN bytes. */
int pg_col_hash(const PGresult *r, int row, int col, unsigned char out[STORE_HASH_LEN])
{
    if (PQgetisnull(r, row, col) || PQgetlength(r, row, col) != 2 + 2 * STORE_HASH_LEN)
        return -1;
    const char *v = PQgetvalue(r, row, col);
    if (v[0] != '\\' || v[1] != 'x')
        return -1;
    for (int i = 0; i < STORE_HASH_LEN; i++) {
        int hi = hexval(v[2 + 2 * i]), lo = hexval(v[3 + 2 * i]);
        if (hi < 0 || lo < 0)
            return -1;
        out[i] = (unsigned char)(hi << 4 | lo);
    }
    return 0;
}

/* ---- open, migrate, close ---- */

/* LISTEN on one channel (its name quoted as an identifier). */
int pg_listen1(pg_store *st, const char *channel, char *err, size_t errlen)
{
    char *id = PQescapeIdentifier(st->conn, channel, strlen(channel));
    if (!id) {
        pg_set_err(st, err, errlen, "listen", PQerrorMessage(st->conn));
        return -1;
    }
    char sql[256];
    int fits = snprintf(sql, sizeof sql, "LISTEN %s", id) < (int)sizeof sql;
    PQfreemem(id);
    if (!fits) {
        pg_set_err(st, err, errlen, "listen", "channel name too long");
        return -1;
    }
    return simple(st, sql, "listen", err, errlen);
}

static int setup(pg_store *st, char *err, size_t errlen)
{
    /* Durable at commit whatever the database's default. */
    if (simple(st, "SET synchronous_commit = on", "settings", err, errlen) != 0)
        return -1;
    for (int i = 0; i < st->nchannels; i++)
        if (pg_listen1(st, st->channels[i], err, errlen) != 0)
            return -1;
    return 0;
}

/* Bring the schema to the current version, one instance at a time (an
 * advisory lock held to the end of the migration's transaction). */
static int migrate(pg_store *st, char *err, size_t errlen)
{
    char e2[128];
    if (simple(st, "BEGIN", "migrate", err, errlen) != 0)
        return -1;
    PGresult *r = NULL;
    int v = -1;
    if (simple(st, "SELECT pg_advisory_xact_lock(hashtextextended('tavoliere schema', 0))",
               "migrate: lock", err, errlen) != 0 ||
        simple(st, "CREATE TABLE IF NOT EXISTS schema_version (version integer NOT NULL)",
               "migrate", err, errlen) != 0 ||
        pg_run(st, Q_GET_VERSION, &r, "schema version", err, errlen, "") != 0)
        goto fail;
    if (PQntuples(r) > 0)
        v = pg_col_int(r, 0, 0);
    PQclear(r);
    r = NULL;
    if (v < 0) {
        if (pg_run(st, Q_INIT_VERSION, NULL, "schema version", err, errlen, "") != 0)
            goto fail;
        v = 0;
    }
    if (v > PG_SCHEMA) {
        snprintf(err, errlen, "database schema version %d is newer than this program (%d)", v,
                 PG_SCHEMA);
        goto fail;
    }
    int from = v;
    for (int i = 0; i < NMIGRATIONS; i++)
        if (migrations[i].from == v) {
            if (simple(st, migrations[i].sql, "migrate", err, errlen) != 0)
                goto fail;
            v = migrations[i].to;
        }
    if (v != PG_SCHEMA) {
        snprintf(err, errlen, "database schema version %d: no migration to %d", v, PG_SCHEMA);
        goto fail;
    }
    if (v != from && pg_run(st, Q_SET_VERSION, NULL, "schema version", err, errlen, "i",
                         (int64_t)v) != 0)
        goto fail;
    r = PQexec(st->conn, "COMMIT");
    st->trips++;
    int ok = r && PQresultStatus(r) == PGRES_COMMAND_OK && strcmp(PQcmdStatus(r), "COMMIT") == 0;
    if (!ok)
        pg_set_err(st, err, errlen, "migrate: commit",
                r ? PQresultErrorMessage(r) : PQerrorMessage(st->conn));
    PQclear(r);
    return ok ? 0 : -1;
fail:
    PQclear(r);
    if (PQstatus(st->conn) == CONNECTION_OK)
        simple(st, "ROLLBACK", "rollback", e2, sizeof e2);
    return -1;
}

static void pg_close(store *base);

/* The database's notices (a table there already, a connection ended by
 * the administrator) are not the server's output. */
static void no_notice(void *arg, const char *message)
{
    (void)arg;
    (void)message;
}

static store *pg_open(const char *uri, char *err, size_t errlen)
{
    pg_store *st = calloc(1, sizeof *st);
    if (!st) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    /* A URI that does not parse: libpq's message may quote it (and its
     * password), so it is not repeated. */
    char *perr = NULL;
    PQconninfoOption *opt = PQconninfoParse(uri, &perr);
    if (!opt) {
        PQfreemem(perr);
        snprintf(err, errlen, "the PostgreSQL connection URI does not parse");
        free(st);
        return NULL;
    }
    PQconninfoFree(opt);
    /* Before the URI: defaults it may change; after: what it may not. */
    const char *const kw[] = {"connect_timeout", "dbname", "application_name", NULL};
    const char *const val[] = {"10", uri, "tavoliere", NULL};
    st->conn = PQconnectdbParams(kw, val, 1);
    st->trips++;
    if (!st->conn || PQstatus(st->conn) != CONNECTION_OK) {
        pg_set_err(st, err, errlen, "cannot connect to PostgreSQL",
                st->conn ? PQerrorMessage(st->conn) : "out of memory");
        pg_close(&st->base);
        return NULL;
    }
    PQsetNoticeProcessor(st->conn, no_notice, NULL);
    st->base.ops = &store_pg_ops;
    if (setup(st, err, errlen) != 0 || migrate(st, err, errlen) != 0) {
        pg_close(&st->base);
        return NULL;
    }
    return &st->base;
}

static void pg_close(store *base)
{
    pg_store *st = (pg_store *)base;
    if (!st)
        return;
    if (st->conn && (st->in_tx || st->batch_lost)) {
        char err[128];
        pg_flush(base, err, sizeof err);
    }
    PQfinish(st->conn);
    for (int i = 0; i < st->nclaims; i++)
        free(st->claims[i]);
    free(st->claims);
    for (int i = 0; i < st->nchannels; i++)
        free(st->channels[i]);
    free(st->channels);
    free(st);
}


const store_ops store_pg_ops = {
    .name = "postgresql",
    .open = pg_open,
    .close = pg_close,
    .pending = pg_pending,
    .flush = pg_flush,
    .discard = pg_discard,
    .create_game = pg_create_game,
    .add_move = pg_add_move,
    .truncate = pg_truncate,
    .set_result = pg_set_result,
    .set_rematch = pg_set_rematch,
    .load_game = pg_load_game,
    .each_unfinished = pg_each_unfinished,
    .set_end = pg_set_end,
    .create_account = pg_create_account,
    .get_account = pg_get_account,
    .set_password = pg_set_password,
    .set_lang = pg_set_lang,
    .create_session = pg_create_session,
    .get_session = pg_get_session,
    .touch_session = pg_touch_session,
    .delete_session = pg_delete_session,
    .each_session = pg_each_session,
    .create_seek = pg_create_seek,
    .close_seek = pg_close_seek,
    .seek_state = pg_seek_state,
    .game_tour = pg_game_tour,
    .each_seek = pg_each_seek,
    .get_rating = pg_get_rating,
    .set_rating = pg_set_rating,
    .each_rating = pg_each_rating,
    .leaderboard = pg_leaderboard,
    .player_unfinished = pg_player_unfinished,
    .player_games = pg_player_games,
    .set_game_ratings = pg_set_game_ratings,
    .set_offers = pg_set_offers,
    .notify = pg_notify,
    .listen = pg_listen,
    .wait_notify = pg_wait_notify,
    .try_claim = pg_try_claim,
    .release_claim = pg_release_claim,
    .stats = pg_stats,
    .game_stamp = pg_game_stamp,
    .move_base = pg_move_base,
    .each_unclaimed = pg_each_unclaimed,
    .login_guard = pg_login_guard,
    .set_bot = pg_set_bot,
    .create_token = pg_create_token,
    .get_token = pg_get_token,
    .touch_token = pg_touch_token,
    .delete_token = pg_delete_token,
    .each_token = pg_each_token,
    .mail_get = pg_mail_get,
    .mail_put = pg_mail_put,
    .mail_find = pg_mail_find,
    .mail_add = pg_mail_add,
    .mail_due = pg_mail_due,
    .mail_items = pg_mail_items,
    .mail_drop = pg_mail_drop,
    .mail_defer = pg_mail_defer,
    .mail_log = pg_mail_log,
    .mail_count = pg_mail_count,
    .create_tour = pg_create_tour,
    .set_tour = pg_set_tour,
    .get_tour = pg_get_tour,
    .each_tour = pg_each_tour,
    .count_tours = pg_count_tours,
    .set_tour_player = pg_set_tour_player,
    .each_tour_player = pg_each_tour_player,
    .add_tour_game = pg_add_tour_game,
    .each_tour_game = pg_each_tour_game,
    .add_chat = pg_add_chat,
    .each_chat = pg_each_chat,
    .set_block = pg_set_block,
    .each_block = pg_each_block,
    .get_chat_flags = pg_get_chat_flags,
    .set_chat_flag = pg_set_chat_flag,
    .close_account = pg_close_account,
    .set_banned = pg_set_banned,
    .add_report = pg_add_report,
    .each_report = pg_each_report,
    .count_reports = pg_count_reports,
    .add_audit = pg_add_audit,
    .each_audit = pg_each_audit,
    .audit_last = pg_audit_last,
    .each_chat_by = pg_each_chat_by,
    .prune = pg_prune,
};
