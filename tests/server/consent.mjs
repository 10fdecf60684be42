// consent.mjs — SPEC "Consent and fair endings" over HTTP, with the
// server's test clock (--test-clock FILE, read once a second):
//  - a rated seek without a clock is 400;
//  - a rematch between two accounts is an offer: 202, nothing made, the old
//    game's JSON and its live sockets say so (kept across SIGKILL); declined
//    (its maker cannot offer it again), offered by the other, accepted: 201,
//    colours swapped, rated and clock as before;
//  - no first move, no game: 30 s of the test clock without White's first
//    move aborts (unrated, no winner, "absent"), also after a restart; a
//    correspondence game whose first deadline passes likewise;
//  - an opponent who left: 409 before 60 s without a socket of its account,
//    "claimable" once it may, 200 after, end "abandon", ratings moved;
//  - one offer per side per move: toggling stores and pushes nothing; the
//    offers an account may make in a minute.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import WebSocket from "ws";
import { check, eq, main, request, setTestClock, sleep, startServer, tempDir } from "./lib.mjs";

async function call(base, method, path, body, cookie) {
  return request(base, method, path, body, { headers: cookie ? { cookie } : {} });
}

async function account(base, name) {
  const r = await call(base, "POST", "/api/account", { name, password: `${name} password` });
  check(r.status === 201, `account ${name}`, JSON.stringify(r.body));
  return (r.headers.get("set-cookie") ?? "").split(";")[0];
}

// A socket (a game's live socket or the lobby) opened with a cookie.
function socket(base, path, cookie) {
  const ws = new WebSocket(base.replace("http", "ws") + path, { headers: cookie ? { cookie } : {} });
  const messages = [];
  let closed = false;
  ws.on("message", (d) => messages.push(JSON.parse(String(d))));
  ws.on("close", () => { closed = true; });
  ws.on("error", () => {});
  const open = new Promise((res, rej) => { ws.once("open", res); ws.once("error", rej); });
  return {
    messages, open,
    async until(pred, ms = 10000) {
      const t0 = Date.now();
      while (!pred(messages) && Date.now() - t0 < ms) await sleep(20);
      return pred(messages);
    },
    async close() {
      ws.close();
      const t0 = Date.now();
      while (!closed && Date.now() - t0 < 5000) await sleep(20);
    },
  };
}

// A game between two accounts from a seek: a plays white.
async function game(base, a, b, clock, rated = true) {
  const s = await call(base, "POST", "/api/seeks", { game: "epaminondas", options: "", rated, colour: "white", clock }, a);
  const acc = await call(base, "POST", `/api/seeks/${s.body.id}/accept`, {}, b);
  check(acc.status === 201, "a game from a seek", JSON.stringify(acc.body));
  return acc.body.game;
}

async function play(base, id, cookie) {
  const v = (await call(base, "GET", `/api/games/${id}`, undefined, cookie)).body;
  const r = await call(base, "POST", `/api/games/${id}/moves`, { move: v.legal[0], ply: v.ply }, cookie);
  check(r.status === 200, "a move", JSON.stringify(r.body).slice(0, 200));
  return r.body;
}

const until = async (f, ms = 10000) => { const t0 = Date.now(); let v; while (!(v = await f()) && Date.now() - t0 < ms) await sleep(50); return v; };

await main(async (defer) => {
  const dir = tempDir();
  const clockFile = join(dir, "offset");
  let offset = 0;
  // The test clock moved on, and waited for until the server has it in force.
  const advance = async (ms) => { offset += ms; await setTestClock(clockFile, offset, [srv]); };
  writeFileSync(clockFile, "0");
  const db = join(dir, "consent.db");
  let srv = await startServer({ db, args: ["--test-clock", clockFile] });
  defer(() => srv.stop());
  let base = srv.base;
  const restart = async () => {
    await srv.stop("SIGKILL");
    srv = await startServer({ db, args: ["--test-clock", clockFile] });
    base = srv.base;
  };
  const ann = await account(base, "Ann"), bob = await account(base, "Bob"), cat = await account(base, "Cat");
  const gameOf = async (id, cookie) => (await call(base, "GET", `/api/games/${id}`, undefined, cookie)).body;

  // A rated seek needs a clock.
  eq((await call(base, "POST", "/api/seeks", { game: "urbino", options: "", rated: true, colour: "white" }, ann)).status, 400, "a rated seek without a clock: 400");
  const casual = await call(base, "POST", "/api/seeks", { game: "urbino", options: "", rated: false, colour: "white" }, ann);
  eq(casual.status, 201, "a casual seek without a clock: 201");
  await call(base, "DELETE", `/api/seeks/${casual.body.id}`, undefined, ann);

  // ---- A rematch is an offer. ----
  const g1 = await game(base, ann, bob, { initial: 60, increment: 0 });
  await play(base, g1, ann);
  await play(base, g1, bob);
  eq((await call(base, "POST", `/api/games/${g1}/resign`, {}, ann)).status, 200, "Ann resigns");
  const bobLive = socket(base, `/api/games/${g1}/live`, bob);
  await bobLive.open;
  check(await bobLive.until((m) => m.some((x) => x.id === g1)), "Bob follows the finished game");
  const myGames = async (cookie) => (await call(base, "GET", "/api/me/games", undefined, cookie)).body.length;
  const bobBefore = await myGames(bob);
  let r = await call(base, "POST", `/api/games/${g1}/rematch`, {}, ann);
  eq([r.status, r.body], [202, { offered: true }], "Ann asks for a rematch: 202, offered");
  eq(await myGames(bob), bobBefore, "... nothing is made: Bob has no new game");
  let j = await gameOf(g1, bob);
  eq([j.offers.rematch, j.rematch], ["white", null], "the old game's JSON: offers.rematch white, no rematch yet");
  check(await bobLive.until((m) => m.some((x) => x.offers && x.offers.rematch === "white")), "Bob's live socket is told of the offer");
  eq((await call(base, "POST", `/api/games/${g1}/rematch`, {}, ann)).status, 202, "Ann asking again: still 202");
  eq((await call(base, "POST", `/api/games/${g1}/rematch`, {}, cat)).status, 403, "a third player: 403");
  await bobLive.close();
  await restart();
  eq((await gameOf(g1)).offers.rematch, "white", "after SIGKILL the acknowledged offer stands");
  r = await call(base, "POST", `/api/games/${g1}/offer`, { kind: "rematch", act: "decline" }, bob);
  eq([r.status, r.body.offers && r.body.offers.rematch], [200, null], "Bob declines it: 200, no offer");
  eq((await call(base, "POST", `/api/games/${g1}/rematch`, {}, ann)).status, 409, "Ann cannot offer it again: 409");
  eq((await call(base, "POST", `/api/games/${g1}/offer`, { kind: "rematch", act: "decline" }, ann)).status, 409, "nothing to decline: 409");
  eq((await call(base, "POST", `/api/games/${g1}/offer`, { kind: "rematch", act: "offer" }, ann)).status, 400, "offered through /offer: 400 (POST /rematch)");
  eq((await call(base, "POST", `/api/games/${g1}/rematch`, {}, bob)).status, 202, "Bob offers one: 202");
  eq((await gameOf(g1, ann)).offers.rematch, "black", "... Ann sees it");
  r = await call(base, "POST", `/api/games/${g1}/rematch`, {}, ann);
  check(r.status === 201 && typeof r.body.id === "string", "Ann accepts: 201 with the new game", JSON.stringify(r.body));
  const re = await gameOf(r.body.id, ann);
  eq([re.accounts, re.rated, re.clock && re.clock.initial, re.clock && re.clock.increment, re.seat], [{ white: "Bob", black: "Ann" }, true, 60, 0, "black"], "the rematch: colours swapped, rated, the same clock");
  j = await gameOf(g1);
  eq([j.rematch, j.offers.rematch], [r.body.id, null], "the old game's JSON names it");
  eq((await call(base, "POST", `/api/games/${r.body.id}/abort`, {}, ann)).status, 200, "(the rematch aborted)");
  // Against the computer and by link the rematch is made at once, as before.
  const link = await call(base, "POST", "/api/games", { game: "urbino", white: "human", black: "human" });
  await call(base, "POST", `/api/games/${link.body.id}/resign`, { seat: link.body.seats.white });
  eq((await call(base, "POST", `/api/games/${link.body.id}/rematch`, { seat: link.body.seats.black })).status, 201, "a game by link: the rematch is made at once (201)");

  // ---- No first move, no game. ----
  const annRating = (await call(base, "GET", "/api/players/Ann")).body.ratings.epaminondas;
  const g2 = await game(base, ann, bob, { initial: 60, increment: 0 });
  await advance(20000);
  check(!(await gameOf(g2)).over, "20 s without White's first move: the game goes on");
  await advance(11000);
  j = await until(async () => { const x = await gameOf(g2); return x.over ? x : null; });
  eq(j && [j.end, j.winner, j.absent], ["abort", "none", "white"], "31 s without White's first move: aborted by the server, White absent");
  eq((await call(base, "GET", "/api/players/Ann")).body.ratings.epaminondas, annRating, "... unrated");
  const listed = (await call(base, "GET", "/api/players/Bob")).body.games.find((x) => x.id === g2);
  eq(listed && [listed.end, listed.winner], ["abort", "none"], "... listed as aborted");
  const g3 = await game(base, ann, bob, { initial: 60, increment: 0 });
  await play(base, g3, ann);
  await restart();
  await advance(31000);
  j = await until(async () => { const x = await gameOf(g3); return x.over ? x : null; });
  eq(j && [j.end, j.absent], ["abort", "black"], "after a restart: Black's first move never came, aborted");
  const g4 = await game(base, ann, bob, { days: 1 });
  await play(base, g4, ann);
  await advance(86400000 + 60000);
  j = await until(async () => { const x = await gameOf(g4); return x.over ? x : null; });
  eq(j && [j.end, j.winner, j.absent], ["abort", "none", "black"], "correspondence: the first deadline passed, aborted");

  // ---- An opponent who left. ----
  const g5 = await game(base, ann, bob, { initial: 600, increment: 0 });
  const bobSock = socket(base, `/api/games/${g5}/live`, bob);
  await bobSock.open;
  await play(base, g5, ann);
  await play(base, g5, bob);
  await play(base, g5, ann);                 // Bob to move, his socket open
  j = await gameOf(g5, ann);
  eq([j.claimable, j.claimIn], [false, null], "Bob is here: nothing to claim");
  eq((await call(base, "POST", `/api/games/${g5}/claim`, { result: "win" }, ann)).status, 409, "a claim while he is here: 409");
  await bobSock.close();
  j = await until(async () => { const x = await gameOf(g5, ann); return x.claimIn !== null ? x : null; });
  check(j && j.claimable === false && j.claimIn > 50000 && j.claimIn <= 60000, "Bob's socket closed: Ann's countdown to a claim", JSON.stringify(j && [j.claimable, j.claimIn]));
  eq((await gameOf(g5, bob)).claimable, false, "Bob has nothing to claim");
  eq((await call(base, "POST", `/api/games/${g5}/claim`, { result: "win" }, ann)).status, 409, "a claim before 60 s: 409");
  eq((await call(base, "POST", `/api/games/${g5}/claim`, { result: "lose" }, ann)).status, 400, "a claim of something else: 400");
  const annLive = socket(base, `/api/games/${g5}/live`, ann);
  await annLive.open;
  await advance(61000);
  check(await annLive.until((m) => m.some((x) => x.claimable === true)), "60 s later Ann's live socket says claimable");
  eq((await call(base, "POST", `/api/games/${g5}/claim`, { result: "win" }, bob)).status, 409, "the absent side's claim: 409");
  const before = (await call(base, "GET", "/api/players/Ann")).body.ratings.epaminondas;
  r = await call(base, "POST", `/api/games/${g5}/claim`, { result: "win" }, ann);
  eq([r.status, r.body.over, r.body.end, r.body.winner, r.body.absent], [200, true, "abandon", "white", "black"], "Ann claims the win: 200, end abandon");
  await annLive.close();
  const after = (await call(base, "GET", "/api/players/Ann")).body.ratings.epaminondas;
  check(after && before && after.games === before.games + 1, "... counted like any ending", JSON.stringify([before, after]));
  await restart();
  j = await gameOf(g5);
  eq([j.end, j.winner, j.absent], ["abandon", "white", "black"], "after SIGKILL the abandon is kept");
  // A claimed draw, rated.
  const g6 = await game(base, cat, bob, { initial: 600, increment: 0 });
  await play(base, g6, cat);
  await play(base, g6, bob);
  await play(base, g6, cat);
  await restart();   // nobody has a socket after a restart: the wait starts
  const catBefore = (await call(base, "GET", "/api/players/Cat")).body.ratings.epaminondas;
  await advance(61000);
  j = await until(async () => { const x = await gameOf(g6, cat); return x.claimable ? x : null; });
  check(j && j.claimable, "after a restart, Bob gone 60 s: Cat may claim");
  r = await call(base, "POST", `/api/games/${g6}/claim`, { result: "draw" }, cat);
  eq([r.status, r.body.end, r.body.winner], [200, "abandon", "draw"], "Cat calls it a draw: 200, abandon, drawn");
  const catAfter = (await call(base, "GET", "/api/players/Cat")).body.ratings.epaminondas;
  check(catAfter && catAfter.games === (catBefore ? catBefore.games : 0) + 1, "... a rated draw", JSON.stringify([catBefore, catAfter]));

  // ---- Offers: one per side per move, and the rate limit. ----
  const g7 = await game(base, cat, bob, { initial: 600, increment: 0 }, false);
  await play(base, g7, cat);
  await play(base, g7, bob);
  const watch = socket(base, `/api/games/${g7}/live`, bob);
  await watch.open;
  check(await watch.until((m) => m.length >= 1), "Bob watches");
  const offer = (cookie, kind, act) => call(base, "POST", `/api/games/${g7}/offer`, { kind, act }, cookie);
  eq((await offer(cat, "draw", "offer")).status, 200, "Cat offers a draw");
  eq((await offer(cat, "draw", "decline")).status, 200, "... and withdraws it");
  check(await watch.until((m) => m.some((x) => x.offers && x.offers.draw === "white") && m[m.length - 1].offers.draw === null), "Bob saw the offer come and go");
  const seen = watch.messages.length;
  const codes = [];
  for (let i = 0; i < 20; i++) codes.push((await offer(cat, "draw", "offer")).status);
  eq([...new Set(codes)], [409], "offered again 20 times before a move: 409 each");
  await play(base, g7, cat);
  check(await watch.until((m) => m.some((x) => x.ply === 3)), "Cat's move reaches Bob");
  const since = watch.messages.slice(seen).map((x) => [x.ply, x.offers && x.offers.draw, x.claimIn]);
  // (With many instances' PostgreSQL the game may be read again once after
  // its own last write, which shows it once more: at most that.)
  check(since.length <= 2 && since.every((x) => x[1] === null) && since[since.length - 1][0] === 3,
    "... the 20 refused offers were not pushed (no message shows one)", JSON.stringify(since));
  eq((await offer(cat, "draw", "offer")).body.offers.draw, "white", "after a move Cat may offer again");
  await watch.close();
  // Offers counted per account: 10 a minute (docs/server-api.md "Limits").
  let status = 200, n = 2;   // two draw offers so far
  while (status === 200 && n < 30) {
    await offer(cat, "draw", "decline");
    await play(base, g7, bob);
    await play(base, g7, cat);
    status = (await offer(cat, "takeback", "offer")).status;
    if (status === 200) { n++; await offer(cat, "takeback", "decline"); }
  }
  eq([status, n], [429, 10], "Cat's 11th offer within a minute: 429");
});
