// moderation.mjs — closing an account, one's data, reports and the
// operator's tool (issue 51; SPEC "Closing an account, one's data, reports
// and moderation"; docs/server-api.md, docs/deploy.md "Moderation"):
// the export against what the account did, a closed account's every path
// (sign-in, cookie, seeks, games, profile, leaderboard, sign-up, its live
// socket), reports and their limits, and `tavoliere admin` driven as a
// process: reports listed, mute silencing chat, ban refusing sign-in (403)
// and closing a live socket, unban, the audit log with the operator.  With
// TAV_TEST_PG, a ban issued while two instances run closes the socket on the
// other instance.  Run on SQLite, and on PostgreSQL when TAV_TEST_PG is set.
import WebSocket from "ws";
import { join } from "node:path";
import { rmSync, writeFileSync } from "node:fs";
import { userInfo } from "node:os";
import { execFileSync, spawnSync } from "node:child_process";
import { BIN, PG, check, eq, main, request, setTestClock, startServer, tempDir, until } from "./lib.mjs";

function pgUri(srv) {
  const args = srv.child.spawnargs;
  return args[args.indexOf("--db") + 1];
}

async function call(base, method, path, body, cookie) {
  return request(base, method, path, body, { headers: cookie ? { cookie } : {} });
}

async function account(base, name) {
  const r = await call(base, "POST", "/api/account", { name, password: `${name} password` });
  check(r.status === 201, `account ${name}`, JSON.stringify(r.body));
  return (r.headers.get("set-cookie") ?? "").split(";")[0];
}

// A live socket (lobby or game) that records whether it closed.
function sock(url, cookie) {
  const ws = new WebSocket(url, { headers: cookie ? { cookie } : {} });
  const s = { ws, closed: false, messages: [] };
  ws.on("message", (d) => s.messages.push(String(d)));
  ws.on("close", () => { s.closed = true; });
  ws.on("error", () => {});
  s.open = new Promise((res, rej) => { ws.once("open", res); ws.once("error", rej); });
  return s;
}
const lobby = (base, cookie) => sock(base.replace("http", "ws") + "/api/lobby", cookie);
const gameSock = (base, gid, cookie) => sock(base.replace("http", "ws") + `/api/games/${gid}/live`, cookie);

async function newGame(base, white, black, rated = true) {
  const s = await call(base, "POST", "/api/seeks", { game: "urbino", options: "", rated, colour: "white", clock: { days: 2 } }, white);
  check(s.status === 201, "a seek", JSON.stringify(s.body));
  const a = await call(base, "POST", `/api/seeks/${s.body.id}/accept`, {}, black);
  check(a.status === 201, "accepted", JSON.stringify(a.body));
  return a.body.game;
}

function admin(db, ...args) {
  const r = spawnSync(BIN, ["admin", "--db", db, ...args], { encoding: "utf8", timeout: 30000 });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

await main(async (defer) => {
  const dir = PG ? null : tempDir();
  if (dir) defer(() => rmSync(dir, { recursive: true, force: true }));
  const srv = await startServer({ db: dir ? join(dir, "mod.db") : "mod-main", args: ["--retention-days", "30"] });
  defer(() => srv.stop());
  const base = srv.base;
  const db = PG ? pgUri(srv) : srv.db;
  const me = userInfo().username;

  const ann = await account(base, "Ann"), ben = await account(base, "Ben"), cat = await account(base, "Cat");
  const dan = await account(base, "Dan"), eve = await account(base, "Eve");
  for (const n of ["Fay", "Gus", "Hal"]) await account(base, n);

  eq((await call(base, "GET", "/api/meta")).body.retentionDays, 30, "/api/meta says the retention (--retention-days)");

  // What Ann does: a finished rated game (Ben resigns), an unfinished one
  // with Cat, an open seek, a chat line, a report, a block.
  const done = await newGame(base, ann, ben);
  let r = await call(base, "POST", `/api/games/${done}/resign`, {}, ben);
  eq(r.status, 200, "Ben resigns the first game");
  const open = await newGame(base, cat, ann);
  r = await call(base, "POST", `/api/games/${open}/chat`, { text: "hello <Cat>" }, ann);
  eq(r.status, 201, "Ann writes a chat line");
  const seek = await call(base, "POST", "/api/seeks", { game: "urbino", options: "", rated: true, colour: "random", clock: { days: 3 } }, ann);
  eq(seek.status, 201, "Ann's open seek");
  const toAnn = await call(base, "POST", "/api/seeks", { game: "urbino", options: "", rated: false, colour: "random", clock: { days: 3 }, to: "Ann" }, ben);
  eq(toAnn.status, 201, "Ben challenges Ann");
  r = await call(base, "POST", "/api/reports", { name: "Dan", game: null, reason: "abuse", text: "rude in chat" }, ann);
  eq([r.status, r.body.ok], [201, true], "a report: 201");
  r = await call(base, "POST", "/api/blocks", { name: "Eve" }, ann);
  eq(r.status, 200, "Ann blocks Eve");

  // The export.
  r = await call(base, "GET", "/api/me/export");
  eq(r.status, 401, "the export without a session: 401");
  r = await call(base, "GET", "/api/me/export", undefined, ann);
  eq(r.status, 200, "GET /api/me/export: 200");
  check(/attachment/.test(r.headers.get("content-disposition") || "") && /Ann/.test(r.headers.get("content-disposition")),
    "... a download (Content-Disposition: attachment, the name in the file's)", r.headers.get("content-disposition"));
  const ex = r.body;
  for (const k of ["name", "created", "ratings", "games"]) check(k in ex, `the export has "${k}"`, Object.keys(ex).join(","));
  eq(ex.name, "Ann", "... the name");
  const mine = await call(base, "GET", "/api/players/Ann");
  check(typeof ex.created === "number" && ex.created > 1600000000 && ex.created <= Date.now() / 1000 + 5, "... when it was made", String(ex.created));
  eq(Object.keys(ex.ratings).sort(), Object.keys(mine.body.ratings).sort(), "... the ratings the profile shows");
  eq(ex.games.map((g) => g.id).sort(), [done, open].sort(), "... every game Ann played");
  const g1 = ex.games.find((g) => g.id === done);
  eq(Object.keys(g1).filter((k) => ["id", "game", "white", "black", "winner", "end", "rated", "record"].includes(k)).length, 8,
    "... each with id, game, white, black, winner, end, rated, record");
  eq([g1.game, g1.white, g1.black, g1.winner, g1.end, g1.rated], ["urbino", "Ann", "Ben", "white", "resign", true], "... the finished game as it ended");
  const rec = await call(base, "GET", `/api/games/${done}/record`);
  eq(g1.record, rec.text, "... its record, as GET /record gives it");
  eq(ex.chat.map((l) => l.text), ["hello <Cat>"], "... the chat lines it wrote");
  eq(ex.reports.map((x) => [x.name, x.reason, x.text]), [["Dan", "abuse", "rude in chat"]], "... the reports it filed");
  eq(ex.blocks, ["Eve"], "... its blocks");
  const token = ann.split("=")[1];
  check(!r.text.includes("argon2") && !r.text.includes(token) && !/pwhash|password|unsub|verify/i.test(r.text),
    "... and no secret: no password hash, no session token, no verification or unsubscribe token", r.text.slice(0, 400));

  // Closing: a lobby socket open, Ben's socket on the game.
  const annLobby = lobby(base, ann);
  await annLobby.open;
  r = await call(base, "POST", "/api/account/close", { password: "wrong one" }, ann);
  eq(r.status, 401, "close with a wrong password: 401");
  r = await call(base, "GET", "/api/me", undefined, ann);
  eq(r.status, 200, "... and the account is still there");
  r = await call(base, "POST", "/api/account/close", { password: "Ann password" });
  eq(r.status, 401, "close without a session: 401");
  const catBefore = (await call(base, "GET", "/api/players/Cat")).body.ratings.urbino;
  r = await call(base, "POST", "/api/account/close", { password: "Ann password" }, ann);
  eq([r.status, r.body.closed], [200, true], "POST /api/account/close: 200");
  check(/Max-Age=0/.test(r.headers.get("set-cookie") || ""), "... the cookie is cleared", r.headers.get("set-cookie"));
  check(await until(() => annLobby.closed, 10000), "... its live lobby socket closes");
  r = await call(base, "GET", "/api/me", undefined, ann);
  eq(r.status, 401, "its cookie no longer signs in");
  const wrong = await call(base, "POST", "/api/login", { name: "Ben", password: "not Ben's" });
  r = await call(base, "POST", "/api/login", { name: "Ann", password: "Ann password" });
  eq([r.status, r.body.error], [401, wrong.body.error], "sign-in: 401, as for a wrong password");
  r = await call(base, "POST", "/api/account", { name: "ann", password: "another password 1" });
  eq(r.status, 409, "the name stays taken: 409 to a new sign-up");
  r = await call(base, "GET", "/api/players/Ann");
  eq([r.status, r.body.closed], [200, true], "GET /api/players/Ann: \"closed\": true");
  eq((await call(base, "GET", "/api/players/Ben")).body.closed, undefined, "... an open account's profile has no \"closed\"");
  r = await call(base, "GET", `/api/games/${done}`);
  eq([r.body.winner, r.body.end], ["white", "resign"], "the finished game keeps its result");
  r = await call(base, "GET", `/api/games/${open}`);
  eq([r.body.winner, r.body.end], ["white", "resign"], "the unfinished game is resigned: Cat wins");
  const catAfter = (await call(base, "GET", "/api/players/Cat")).body.ratings.urbino;
  check(catAfter && catAfter.games === (catBefore?.games ?? 0) + 1 && catAfter.rating > (catBefore?.rating ?? 1500),
    "... rated as a resignation (Cat's rating rises)", JSON.stringify([catBefore, catAfter]));
  r = await call(base, "GET", "/api/seeks", undefined, ben);
  const seeks = Array.isArray(r.body) ? r.body : r.body.seeks || [];
  check(!JSON.stringify(seeks).includes(seek.body.id), "its open seek is gone", JSON.stringify(r.body).slice(0, 300));
  check(!JSON.stringify(seeks).includes(toAnn.body.id), "a challenge made to it is gone too", JSON.stringify(r.body).slice(0, 300));
  r = await call(base, "GET", "/api/leaderboard/urbino");
  const board = Array.isArray(r.body) ? r.body : r.body.players || r.body.list || [];
  check(r.status === 200 && !JSON.stringify(board).includes("\"Ann\"") && JSON.stringify(board).includes("\"Ben\""),
    "the leaderboard leaves it out (Ben stays)", JSON.stringify(r.body).slice(0, 300));
  r = await call(base, "GET", "/api/online");
  check(!JSON.stringify(r.body.names || []).includes("Ann"), "... and so does the list of who is online", JSON.stringify(r.body));

  // Reports: validation and limits (10 a day, 3 of one player).
  const rep = (body, cookie = ben) => call(base, "POST", "/api/reports", body, cookie);
  r = await rep({ name: "Cat", game: null, reason: "cheating", text: "x" }, null);
  eq(r.status, 401, "a report without a session: 401");
  eq((await rep({ name: "Cat", game: null, reason: "spam", text: "x" })).status, 400, "an unknown reason: 400");
  eq((await rep({ name: "Cat", game: null, reason: "other", text: "x".repeat(1001) })).status, 400, "a text over 1000 bytes: 400");
  eq((await rep({ name: "Nobody_1", game: null, reason: "other", text: "x" })).status, 400, "an unknown name: 400");
  eq((await rep({ name: "ben", game: null, reason: "other", text: "x" })).status, 400, "reporting oneself: 400");
  eq((await rep({ name: "Cat", reason: "other", text: "x", extra: 1 })).status, 400, "an unknown field: 400");
  eq((await rep({ name: "Cat", game: done, reason: "cheating", text: "x".repeat(1000) })).status, 201, "1000 bytes, a game: 201");
  const st = [];
  for (let i = 0; i < 3; i++) st.push((await rep({ name: "Cat", game: null, reason: "abuse", text: `again ${i}` })).status);
  eq(st, [201, 201, 429], "the fourth report of one player in a day: 429");
  const more = [];
  for (const n of ["Dan", "Dan", "Dan", "Eve", "Eve", "Eve", "Fay", "Gus"]) more.push((await rep({ name: n, game: null, reason: "other", text: "" })).status);
  eq(more, [201, 201, 201, 201, 201, 201, 201, 429], "ten reports a day in all, then 429");
  r = await rep({ name: "Dan", game: null, reason: "other", text: "" }, cat);
  eq(r.status, 201, "... another account has its own count");

  // The operator's tool.
  let a = admin(db, "reports");
  eq(a.code, 0, "admin reports: exit 0");
  const lines = a.out.trim().split("\n");
  check(lines.length === 12 && /\tCat\tDan\t-\tother\t/.test(lines[0]) && /\tAnn\tDan\t-\tabuse\trude in chat$/.test(lines[11]),
    "... every report, newest first: time, reporter, reported, game, reason, text", a.out.slice(0, 600));
  check(lines.some((l) => l.includes(`\tBen\tCat\t${done}\tcheating\t`)), "... a report's game", a.out.slice(0, 600));
  a = admin(db, "mute", "Nobody_1");
  check(a.code !== 0 && /no account/.test(a.err), "admin mute of an unknown name: non-zero, saying so", JSON.stringify(a));
  a = admin(db, "frobnicate");
  check(a.code !== 0, "an unknown command: non-zero", JSON.stringify(a));
  a = admin(db, "mute");
  check(a.code !== 0 && /usage/.test(a.err), "mute without a name: the usage, non-zero", JSON.stringify(a));
  if (!PG) {
    a = admin(join(dir, "no-such.db"), "log");
    check(a.code !== 0 && /no database/.test(a.err), "a path with no database: non-zero, none made", JSON.stringify(a));
  }

  const g2 = await newGame(base, ben, cat, false);
  a = admin(db, "mute", "ben");
  eq(a.code, 0, "admin mute ben: exit 0");
  r = await call(base, "POST", `/api/games/${g2}/chat`, { text: "hi" }, ben);
  eq(r.status, 403, "a muted account's line: 403 at once on the running server");
  eq((await call(base, "POST", `/api/games/${g2}/chat`, { text: "hi" }, cat)).status, 201, "... others still chat");
  a = admin(db, "unmute", "Ben");
  eq(a.code, 0, "admin unmute Ben");
  eq((await call(base, "POST", `/api/games/${g2}/chat`, { text: "back" }, ben)).status, 201, "... Ben chats again");

  // A ban while Ben has sockets open (and, on PostgreSQL, one on another instance).
  const other = PG ? await startServer({ db: srv.db }) : null;
  if (other) defer(() => other.stop());
  const benLobby = lobby(base, ben), benGame = gameSock(base, g2, ben);
  const benFar = other ? lobby(other.base, ben) : null;
  await Promise.all([benLobby.open, benGame.open, ...(benFar ? [benFar.open] : [])]);
  eq((await call(base, "GET", "/api/me", undefined, ben)).status, 200, "Ben is signed in before the ban");
  a = admin(db, "ban", "Ben");
  eq(a.code, 0, "admin ban Ben: exit 0");
  eq((await call(base, "GET", "/api/me", undefined, ben)).status, 401, "the ban ends Ben's session at once");
  check(await until(() => benLobby.closed && benGame.closed, 10000), "... and closes his lobby and game sockets");
  if (benFar) {
    check(await until(() => benFar.closed, 10000), "... and his socket on the other instance (PostgreSQL)");
    eq((await call(other.base, "GET", "/api/me", undefined, ben)).status, 401, "... whose session ends there too");
  } else {
    console.log("(no TAV_TEST_PG: the ban across instances runs on PostgreSQL only)");
  }
  r = await call(base, "POST", "/api/login", { name: "Ben", password: "Ben password" });
  eq(r.status, 403, "a banned account's sign-in: 403");
  check(/banned/.test(r.body.error), "... saying the account is banned", r.body.error);
  r = await call(base, "POST", "/api/login", { name: "Ben", password: "not Ben's" });
  eq(r.status, 401, "... a wrong password still 401");
  a = admin(db, "unban", "Ben");
  eq(a.code, 0, "admin unban Ben");
  r = await call(base, "POST", "/api/login", { name: "Ben", password: "Ben password" });
  eq(r.status, 200, "after unban Ben signs in again");

  a = admin(db, "log");
  eq(a.code, 0, "admin log: exit 0");
  const log = a.out.trim().split("\n").map((l) => l.split("\t"));
  eq(log.map((l) => [l[1], l[2], l[3]]), [[me, "mute", "Ben"], [me, "unmute", "Ben"], [me, "ban", "Ben"], [me, "unban", "Ben"]],
    "the audit log: each action with the operator (the Unix user) and target, in order");
  check(log.every((l) => /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/.test(l[0])), "... and its time", a.out);

  // Retention: a chat line and a report older than --retention-days go
  // when a server starts (and hourly after); newer ones stay.
  if (other) await other.stop();
  await srv.stop();
  const old = Math.floor(Date.now() / 1000) - 40 * 86400;
  const sql = `INSERT INTO chat (game, room, name, text, ms) VALUES ('${g2}', 0, 'Cat', 'an old line', ${old * 1000});` +
    `INSERT INTO reports (created, reporter, reported, game, reason, text) VALUES (${old}, 'Cat', 'Ben', '', 'other', 'an old report');`;
  if (PG) execFileSync("psql", ["-X", "-q", "-v", "ON_ERROR_STOP=1", "-d", db, "-c", sql]);
  else execFileSync("sqlite3", [db, sql]);
  eq(admin(db, "reports").out.split("\n").filter((l) => l.includes("an old report")).length, 1, "an old report is in the database");
  const clockDir = tempDir();
  defer(() => rmSync(clockDir, { recursive: true, force: true }));
  const clockFile = join(clockDir, "offset");
  writeFileSync(clockFile, "0\n");
  const srv2 = await startServer({ db: srv.db, args: ["--retention-days", "30", "--test-clock", clockFile] });
  defer(() => srv2.stop());
  check(await until(() => !admin(db, "reports").out.includes("an old report"), 15000), "a server started with --retention-days 30 deletes the 40-day-old report");
  eq(admin(db, "reports").out.trim().split("\n").length, 12, "... and keeps the newer ones");
  // ... and hourly after: a report 30 days old less one hour stays at the
  // start; two hours later (the test clock) it is past 30 days, and the next
  // hourly pruning takes it, without a restart; one 29 days old stays.
  const now = Math.floor(Date.now() / 1000);
  const sql2 = `INSERT INTO reports (created, reporter, reported, game, reason, text) VALUES (${now - 30 * 86400 + 3600}, 'Cat', 'Ben', '', 'other', 'nearly old');` +
    `INSERT INTO reports (created, reporter, reported, game, reason, text) VALUES (${now - 29 * 86400}, 'Cat', 'Ben', '', 'other', 'a month less a day');`;
  if (PG) execFileSync("psql", ["-X", "-q", "-v", "ON_ERROR_STOP=1", "-d", db, "-c", sql2]);
  else execFileSync("sqlite3", ["-cmd", ".timeout 10000", db, sql2]);
  eq(admin(db, "reports").out.trim().split("\n").length, 14, "two more reports, not yet 30 days old");
  await setTestClock(clockFile, 2 * 3600 * 1000, [srv2]);
  check(await until(() => !admin(db, "reports").out.includes("nearly old"), 15000),
    "two hours later (test clock) the hourly pruning deletes the report now past 30 days, no restart");
  const left = admin(db, "reports").out;
  check(left.includes("a month less a day") && left.trim().split("\n").length === 13, "... and keeps the one 29 days old", left);
  const catEx = await call(srv2.base, "POST", "/api/login", { name: "Cat", password: "Cat password" });
  const catCookie = (catEx.headers.get("set-cookie") ?? "").split(";")[0];
  const cx = await call(srv2.base, "GET", "/api/me/export", undefined, catCookie);
  eq(cx.body.chat.map((l) => l.text), ["hi"], "... and the old chat line (Cat's newer line stays)");
});
