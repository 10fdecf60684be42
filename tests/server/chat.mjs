// chat.mjs — chat in a game and the block list (issue 46; docs/server-api.md
// "Chat"): the players' room reaches the two players only, the spectators'
// room every signed-in viewer but the players; the history at a socket's
// open and by GET, per room; at most 140 characters, no control characters,
// 5 lines in 10 s; stored (a restart keeps them), escaped as JSON, never in
// /record; a blocked player's lines never reach the one who blocked, nor may
// they challenge them; "chat off in rated games"; a guest's game has none;
// an account muted by the operator (its flag in the database) may not post.
// With TAV_TEST_PG, a line posted on one instance reaches a socket on
// another on the same database.  Run on SQLite, and on PostgreSQL when
// TAV_TEST_PG is set.
import WebSocket from "ws";
import { join } from "node:path";
import { rmSync } from "node:fs";
import { execFileSync } from "node:child_process";
import { PG, check, eq, main, request, sleep, startServer, tempDir } from "./lib.mjs";

// The PostgreSQL database a server runs on (its --db argument).
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

// A game socket (with a cookie) collecting its messages.
function sock(base, gid, cookie) {
  const ws = new WebSocket(base.replace("http", "ws") + `/api/games/${gid}/live`, { headers: cookie ? { cookie } : {} });
  const messages = [];
  ws.on("message", (d) => messages.push(JSON.parse(String(d))));
  ws.on("error", () => {});
  const open = new Promise((res, rej) => { ws.once("open", res); ws.once("error", rej); });
  const s = {
    ws, messages, open,
    async until(pred, ms = 15000) {
      const t0 = Date.now();
      while (!pred() && Date.now() - t0 < ms) await sleep(20);
      return pred();
    },
    // Every message queued for this socket before the pong comes first.
    async barrier() {
      const pongs = () => messages.filter((m) => m.type === "pong").length;
      const n = pongs();
      ws.send(JSON.stringify({ type: "ping" }));
      return s.until(() => pongs() > n);
    },
    lines: (room) => messages.filter((m) => m.type === "chat" && m.line && (!room || m.room === room)).map((m) => m.line.text),
    history: () => messages.find((m) => m.type === "chat" && m.history),
  };
  return s;
}

async function newGame(base, white, black, rated = false) {
  const s = await call(base, "POST", "/api/seeks", { game: "urbino", options: "", rated, colour: "white", clock: { days: 2 } }, white);
  check(s.status === 201, "a seek", JSON.stringify(s.body));
  const a = await call(base, "POST", `/api/seeks/${s.body.id}/accept`, {}, black);
  check(a.status === 201, "accepted", JSON.stringify(a.body));
  return a.body.game;
}

await main(async (defer) => {
  // A database the restart below opens again: a file of its own (SQLite), or
  // one database for the suite (PostgreSQL, shared by the second instance).
  const dir = PG ? null : tempDir();
  if (dir) defer(() => rmSync(dir, { recursive: true, force: true }));
  const srv = await startServer({ db: dir ? join(dir, "chat.db") : "chat-main" });
  defer(() => srv.stop());
  const base = srv.base;
  const ann = await account(base, "Ann"), ben = await account(base, "Ben");
  const cat = await account(base, "Cat"), dan = await account(base, "Dan");
  const gid = await newGame(base, ann, ben);

  const A = sock(base, gid, ann), B = sock(base, gid, ben), C = sock(base, gid, cat), G = sock(base, gid);
  await Promise.all([A.open, B.open, C.open, G.open]);
  check(await A.until(() => A.history()), "a player's socket: the players' room's history at open");
  eq([A.history().room, A.history().lines], ["players", []], "... empty so far");
  check(await C.until(() => C.history()), "a spectator's socket: the spectators' room's history");
  eq(C.history().room, "spectators", "... the spectators' room");
  await G.barrier();
  check(!G.history(), "a socket not signed in: no chat at all");

  // The players' room.
  let r = await call(base, "POST", `/api/games/${gid}/chat`, { text: "Good luck" }, ann);
  eq([r.status, r.body.room, r.body.line.name, r.body.line.text], [201, "players", "Ann", "Good luck"], "Ann writes in the players' room: 201");
  check(await B.until(() => B.lines("players").includes("Good luck")), "Ben's socket gets Ann's line");
  check(await A.until(() => A.lines("players").includes("Good luck")), "... and Ann's own socket");
  const live = B.messages.find((m) => m.type === "chat" && m.line);
  eq(Object.keys(live).sort(), ["line", "room", "type"], "a live line: {type, room, line}");
  eq(Object.keys(live.line).sort(), ["name", "text", "time"], "... line {name, text, time}");
  // The spectators' room.
  r = await call(base, "POST", `/api/games/${gid}/chat`, { text: "nice <b>move</b> & \"co\"" }, cat);
  eq([r.status, r.body.room], [201, "spectators"], "Cat (not a player) writes in the spectators' room");
  check(await C.until(() => C.lines("spectators").includes("nice <b>move</b> & \"co\"")), "Cat's socket gets it, text as written");
  await Promise.all([A.barrier(), B.barrier(), C.barrier(), G.barrier()]);
  eq([A.lines("spectators"), B.lines("spectators")], [[], []], "no player sees the spectators' room");
  eq(C.lines("players"), [], "no spectator sees the players' room");
  eq(G.lines(), [], "a guest's socket sees neither");
  // GET: the asker's room only.
  r = await call(base, "GET", `/api/games/${gid}/chat`, undefined, ben);
  eq([r.body.room, r.body.lines.map((l) => l.text)], ["players", ["Good luck"]], "GET as a player: the players' room");
  r = await call(base, "GET", `/api/games/${gid}/chat`, undefined, dan);
  eq([r.body.room, r.body.lines.map((l) => l.text)], ["spectators", ["nice <b>move</b> & \"co\""]], "GET as a spectator: the spectators' room");
  r = await call(base, "GET", `/api/games/${gid}/chat`);
  eq([r.status, r.body.room, r.body.lines], [200, null, []], "GET without an account: no room");
  // The history at a socket's open, per room.
  const B2 = sock(base, gid, ben), D = sock(base, gid, dan);
  await Promise.all([B2.open, D.open]);
  check(await B2.until(() => B2.history()) && await D.until(() => D.history()), "new sockets get a history");
  eq(B2.history().lines.map((l) => l.text), ["Good luck"], "... a player's: the players' lines only");
  eq(D.history().lines.map((l) => l.text), ["nice <b>move</b> & \"co\""], "... a spectator's: the spectators' lines only");
  B2.ws.close(); D.ws.close();

  // Limits.
  r = await call(base, "POST", `/api/games/${gid}/chat`, { text: "é".repeat(140) }, ben);
  eq(r.status, 201, "140 characters (280 bytes of UTF-8) are accepted");
  r = await call(base, "POST", `/api/games/${gid}/chat`, { text: "x".repeat(141) }, ben);
  eq(r.status, 400, "141 characters: 400");
  check(/140/.test(r.body.error), "... saying the limit", r.body.error);
  for (const bad of ["line\nbreak", "tab\there", "bell\u0007", "\u202eevil", "para\u2029graph", "c1\u0085", "   ", ""]) {
    r = await call(base, "POST", `/api/games/${gid}/chat`, { text: bad }, ben);
    eq(r.status, 400, `a control character or nothing to say is refused: ${JSON.stringify(bad)}`);
  }
  r = await call(base, "POST", `/api/games/${gid}/chat`, { text: "hi", room: "players" }, ben);
  eq(r.status, 400, "an unknown field: 400");
  r = await call(base, "POST", `/api/games/${gid}/chat`, { text: "hi" });
  eq(r.status, 401, "not signed in: 401");
  const statuses = [];
  for (let i = 0; i < 6; i++) statuses.push((await call(base, "POST", `/api/games/${gid}/chat`, { text: `line ${i}` }, dan)).status);
  eq(statuses, [201, 201, 201, 201, 201, 429], "5 lines in 10 s, the 6th: 429");
  // Stored, escaped as JSON, never in the record.
  const rec = await call(base, "GET", `/api/games/${gid}/record`);
  check(rec.status === 200 && !rec.text.includes("Good luck") && !rec.text.includes("nice"), "the record holds no chat", rec.text.slice(0, 300));
  const gj = await call(base, "GET", `/api/games/${gid}`, undefined, ann);
  check(!gj.text.includes("Good luck"), "the game's JSON holds no chat");

  // Blocks.
  r = await call(base, "POST", "/api/blocks", { name: "ben" }, ann);
  eq([r.status, r.body.name, r.body.blocked], [200, "Ben", true], "Ann blocks Ben (name as chosen)");
  eq((await call(base, "GET", "/api/blocks", undefined, ann)).body, { blocks: ["Ben"] }, "GET /api/blocks lists him");
  eq((await call(base, "POST", "/api/blocks", { name: "Ann" }, ann)).status, 400, "blocking oneself: 400");
  eq((await call(base, "POST", "/api/blocks", { name: "Nobody" }, ann)).status, 404, "an unknown player: 404");
  eq((await call(base, "GET", "/api/blocks")).status, 401, "not signed in: 401");
  r = await call(base, "POST", `/api/games/${gid}/chat`, { text: "can you hear me" }, ben);
  eq(r.status, 201, "Ben may still write (he is not told of the block)");
  check(await B.until(() => B.lines().includes("can you hear me")), "... his own socket has it");
  await A.barrier();
  check(!A.lines().includes("can you hear me"), "... but it never reaches Ann's socket");
  r = await call(base, "GET", `/api/games/${gid}/chat`, undefined, ann);
  check(!r.body.lines.some((l) => l.name === "Ben"), "... nor her history", JSON.stringify(r.body.lines));
  r = await call(base, "POST", "/api/seeks", { game: "urbino", options: "", rated: false, colour: "white", clock: { days: 2 }, to: "Ann" }, ben);
  eq(r.status, 403, "a blocked player's challenge: 403");
  check(/Ann/.test(r.body.error), "... saying she does not accept his challenges", r.body.error);
  r = await call(base, "POST", "/api/seeks", { game: "urbino", options: "", rated: false, colour: "white", clock: { days: 2 }, to: "Ann" }, cat);
  eq(r.status, 201, "another player's challenge still goes");
  await call(base, "DELETE", `/api/seeks/${r.body.id}`, undefined, cat);
  r = await call(base, "DELETE", "/api/blocks/Ben", undefined, ann);
  eq([r.status, r.body.blocked], [200, false], "Ann unblocks Ben");
  eq((await call(base, "GET", "/api/blocks", undefined, ann)).body, { blocks: [] }, "... the list is empty");
  r = await call(base, "POST", `/api/games/${gid}/chat`, { text: "Well played" }, ben);
  check(await A.until(() => A.lines().includes("Well played")), "after unblocking, his lines reach her again");

  // Chat off in rated games.
  eq((await call(base, "GET", "/api/me/chat", undefined, ann)).body, { off_rated: false, muted: false }, "the setting is off at first");
  r = await call(base, "POST", "/api/me/chat", { off_rated: true }, ann);
  eq([r.status, r.body.off_rated], [200, true], "Ann turns chat off in rated games");
  eq((await call(base, "GET", "/api/me/chat", undefined, ann)).body.off_rated, true, "... kept in her account");
  const rid = await newGame(base, ann, ben, true);
  const RA = sock(base, rid, ann), RB = sock(base, rid, ben);
  await Promise.all([RA.open, RB.open]);
  check(await RB.until(() => RB.history()), "Ben's socket in the rated game has the players' room");
  await RA.barrier();
  check(!RA.history(), "Ann's has no chat in a rated game");
  r = await call(base, "POST", `/api/games/${rid}/chat`, { text: "hello" }, ann);
  eq(r.status, 403, "she cannot write in it: 403");
  r = await call(base, "POST", `/api/games/${rid}/chat`, { text: "hello Ann" }, ben);
  eq(r.status, 201, "Ben can write");
  await RA.barrier();
  eq(RA.lines(), [], "... but his line never reaches her");
  eq((await call(base, "GET", `/api/games/${rid}/chat`, undefined, ann)).body.room, null, "GET: no room for her");
  r = await call(base, "POST", `/api/games/${gid}/chat`, { text: "casual still on" }, ann);
  eq(r.status, 201, "in a casual game her chat is on");
  await call(base, "POST", "/api/me/chat", { off_rated: false }, ann);
  RA.ws.close(); RB.ws.close();

  // A game against the computer (rated: Computer-1 is an account) has none.
  const cpu = await call(base, "POST", "/api/games", { game: "urbino", options: "", white: "human", black: "ai:level=1", rated: true, clock: { days: 2 } }, cat);
  check(cpu.status === 201, "Cat plays the computer, rated", JSON.stringify(cpu.body));
  r = await call(base, "POST", `/api/games/${cpu.body.id}/chat`, { text: "hi" }, cat);
  eq(r.status, 403, "a game against the computer: no chat (403)");
  eq((await call(base, "GET", `/api/games/${cpu.body.id}/chat`, undefined, dan)).body.room, null, "... nor a spectators' room");

  // A game by link (guests) has no chat.
  const link = await call(base, "POST", "/api/games", { game: "urbino", white: "human", black: "human" });
  r = await call(base, "POST", `/api/games/${link.body.id}/chat`, { text: "hi" }, ann);
  eq(r.status, 403, "a game with guests: no chat (403)");

  for (const s of [A, B, C, G]) s.ws.close();

  // A restart keeps the lines.
  await srv.stop();
  // The operator's mute (SPEC "moderation"; the admin command is not built
  // yet): the account's flag, set in the database while the server is down.
  const mute = "INSERT INTO chat_flags (name, flags) VALUES ('Dan', 2) ON CONFLICT (name) DO UPDATE SET flags = 2";
  if (PG) execFileSync("psql", ["-X", "-q", "-v", "ON_ERROR_STOP=1", "-d", pgUri(srv), "-c", mute]);
  else execFileSync("sqlite3", [srv.db, mute]);
  const srv2 = await startServer({ db: srv.db });
  defer(() => srv2.stop());
  r = await call(srv2.base, "POST", `/api/games/${gid}/chat`, { text: "hello" }, dan);
  eq(r.status, 403, "a muted account's line: 403");
  check(/operator/.test(r.body.error), "... saying the operator stopped its chat", r.body.error);
  eq((await call(srv2.base, "GET", "/api/me/chat", undefined, dan)).body.muted, true, "GET /api/me/chat says muted");
  r = await call(srv2.base, "GET", `/api/games/${gid}/chat`, undefined, ben);
  check(r.body.lines.map((l) => l.text).includes("Good luck") && r.body.lines.map((l) => l.text).includes("Well played"),
    "a restarted server still has the lines", JSON.stringify(r.body).slice(0, 300));

  // Two instances on one PostgreSQL: a line posted on one reaches a socket on the other.
  if (PG) {
    const other = await startServer({ db: srv.db });
    defer(() => other.stop());
    const far = sock(other.base, gid, ann);
    await far.open;
    check(await far.until(() => far.history()), "a socket on the second instance");
    r = await call(srv2.base, "POST", `/api/games/${gid}/chat`, { text: "across instances" }, ben);
    eq(r.status, 201, "Ben writes on the first instance");
    check(await far.until(() => far.lines("players").includes("across instances")), "Ann's socket on the second instance gets it");
    far.ws.close();
  } else {
    console.log("(no TAV_TEST_PG: the check across instances runs on PostgreSQL only)");
  }
});
