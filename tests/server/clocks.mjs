// clocks.mjs — SPEC "clocks" over HTTP, with the server's test clock
// (--test-clock FILE: an offset added to the games' time, which the server
// acknowledges in FILE.ack.PID once in force: lib.mjs setTestClock; a
// test-only option, nothing from the network sets it):
//  - the clock in the game's JSON, the side to move's running, increments added;
//  - a flag falls on the server's own timer with nobody connected: the game
//    ends on time, the other side wins, ratings move;
//  - SIGKILL, the time passing while the server is down, a restart: the
//    flag falls on the rebuilt clock;
//  - correspondence: a deadline days ahead, passed by the faked clock.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { check, eq, main, request, setTestClock, sleep, startServer, tempDir, until as poll } from "./lib.mjs";

async function call(base, method, path, body, cookie) {
  return request(base, method, path, body, { headers: cookie ? { cookie } : {} });
}

async function account(base, name) {
  const r = await call(base, "POST", "/api/account", { name, password: `${name} password` });
  return (r.headers.get("set-cookie") ?? "").split(";")[0];
}

// A game between two accounts from a seek with `clock`: {id, white, black} cookies.
async function game(base, a, b, clock, gname = "epaminondas") {
  const s = await call(base, "POST", "/api/seeks", { game: gname, options: "", rated: true, colour: "white", clock }, a);
  const acc = await call(base, "POST", `/api/seeks/${s.body.id}/accept`, {}, b);
  check(acc.status === 201, "a game from a seek", JSON.stringify(acc.body));
  return { id: acc.body.game, white: a, black: b };
}

async function play(base, g, cookie) {
  const v = (await call(base, "GET", `/api/games/${g.id}`, undefined, cookie)).body;
  const r = await call(base, "POST", `/api/games/${g.id}/moves`, { move: v.legal[0], ply: v.ply }, cookie);
  check(r.status === 200, "a move", JSON.stringify(r.body).slice(0, 200));
  return r.body;
}

const until = (f) => poll(f, 20000);

await main(async (defer) => {
  const dir = tempDir();
  const clockFile = join(dir, "offset");
  writeFileSync(clockFile, "0");
  const db = join(dir, "clocks.db");
  let srv = await startServer({ db, args: ["--test-clock", clockFile] });
  defer(() => srv.stop());
  let base = srv.base;
  const ann = await account(base, "Ann"), bob = await account(base, "Bob");

  // Real time 60+5: the JSON's clock, the running side, the increment.
  const g1 = await game(base, ann, bob, { initial: 60, increment: 5 });
  let j = (await call(base, "GET", `/api/games/${g1.id}`)).body;
  check(j.clock && j.clock.initial === 60 && j.clock.increment === 5 && j.clock.black === 60000 && j.clock.white <= 60000 && j.clock.white > 55000,
    "the clock: initial, increment, each side's ms; white's running from the start", JSON.stringify(j.clock));
  await sleep(300);
  const after = await play(base, g1, ann);
  check(after.clock.white > 60000 && after.clock.white <= 65000 - 250 && after.clock.black > 59000 && after.clock.black <= 60000,
    "white moved after about 0.3 s: 60 s - that + the 5 s increment", JSON.stringify(after.clock));
  await sleep(200);
  j = (await call(base, "GET", `/api/games/${g1.id}`)).body;
  check(j.clock.black < 60000 && j.clock.white === after.clock.white, "now black's clock runs, white's stands", JSON.stringify(j.clock));

  // The flag falls with nobody connected: black makes its first move (a
  // first move never made aborts instead: consent.mjs), white answers, and
  // 70 s pass on the test clock.
  await play(base, g1, bob);
  await play(base, g1, ann);
  await setTestClock(clockFile, 70000, [srv]);
  const flagged = await until(async () => {
    const x = (await call(base, "GET", `/api/games/${g1.id}`)).body;
    return x.over ? x : null;
  });
  check(flagged && flagged.end === "time" && flagged.winner === "white" && flagged.clock.black === 0,
    "black's flag fell on the server's timer: over on time, white wins", JSON.stringify(flagged && [flagged.end, flagged.winner, flagged.clock]));
  eq((await call(base, "POST", `/api/games/${g1.id}/moves`, { move: "x", ply: 1 }, bob)).status, 409, "no move after the flag");
  const pa = (await call(base, "GET", "/api/players/Ann")).body;
  check(pa.ratings.epaminondas && pa.ratings.epaminondas.rating > 1500 && pa.games[0].end === "time",
    "a game lost on time is rated, listed with end time", JSON.stringify(pa.games[0]));

  // SIGKILL, time passes while the server is down, restart: the clock is honest.
  await setTestClock(clockFile, 0, [srv]);
  const g2 = await game(base, ann, bob, { initial: 60, increment: 0 });
  await play(base, g2, ann);
  await play(base, g2, bob);                  // both moved: white's clock runs
  const before = (await call(base, "GET", `/api/games/${g2.id}`)).body.clock;
  await srv.stop("SIGKILL");
  srv = await startServer({ db, args: ["--test-clock", clockFile] });
  base = srv.base;
  let back = (await call(base, "GET", `/api/games/${g2.id}`)).body;
  check(!back.over && Math.abs(back.clock.black - before.black) < 50 && back.clock.white <= before.white,
    "after SIGKILL and restart the clocks are as they were (time passing counts)", JSON.stringify([before, back.clock]));
  await setTestClock(clockFile, 70000, [srv]);   // 70 s more went by while it was down
  back = await until(async () => {
    const x = (await call(base, "GET", `/api/games/${g2.id}`)).body;
    return x.over ? x : null;
  });
  check(back && back.end === "time" && back.winner === "black", "the flag falls on the rebuilt clock, nobody connected", JSON.stringify(back && [back.end, back.winner]));

  // Correspondence: 3 days a move.
  await setTestClock(clockFile, 0, [srv]);
  const g3 = await game(base, ann, bob, { days: 3 });
  j = (await call(base, "GET", `/api/games/${g3.id}`)).body;
  const now = Date.now();
  check(j.clock.days === 3 && Math.abs(j.clock.deadline - (now + 3 * 86400000)) < 5000, "correspondence: a deadline 3 days ahead", JSON.stringify(j.clock));
  await play(base, g3, ann);
  await play(base, g3, bob);
  await play(base, g3, ann);
  await setTestClock(clockFile, 2 * 86400000, [srv]);   // two days later black has not moved again: still on
  j = (await call(base, "GET", `/api/games/${g3.id}`)).body;
  check(!j.over, "two days later: the game goes on", JSON.stringify(j.end));
  await setTestClock(clockFile, 3 * 86400000 + 60000, [srv]);
  j = await until(async () => {
    const x = (await call(base, "GET", `/api/games/${g3.id}`)).body;
    return x.over ? x : null;
  });
  check(j && j.end === "time" && j.winner === "white", "past the deadline: black loses on time", JSON.stringify(j && [j.end, j.winner]));
  await setTestClock(clockFile, 0, [srv]);

  // Nothing acknowledged is lost: a seek, an accept and a rating survive SIGKILL.
  const sk = await call(base, "POST", "/api/seeks", { game: "urbino", options: "", rated: true, colour: "white", clock: { days: 5 } }, ann);
  check(sk.status === 201, "a seek acknowledged");
  await srv.stop("SIGKILL");
  srv = await startServer({ db, args: ["--test-clock", clockFile] });
  base = srv.base;
  eq((await call(base, "GET", "/api/seeks")).body.map((k) => k.id), [sk.body.id], "after SIGKILL the acknowledged seek is there");
  const ac = await call(base, "POST", `/api/seeks/${sk.body.id}/accept`, {}, bob);
  check(ac.status === 201, "accepted");
  await srv.stop("SIGKILL");
  srv = await startServer({ db, args: ["--test-clock", clockFile] });
  base = srv.base;
  const ag = (await call(base, "GET", `/api/games/${ac.body.game}`, undefined, bob)).body;
  eq([ag.accounts, ag.rated, ag.clock && ag.clock.days, ag.seat], [{ white: "Ann", black: "Bob" }, true, 5, "black"], "after SIGKILL the accepted game is there, with its accounts and clock");
  eq((await call(base, "GET", "/api/seeks")).body, [], "and the seek is gone");
  const before2 = (await call(base, "GET", "/api/players/Ann")).body.ratings.urbino;
  const rz = await call(base, "POST", `/api/games/${ac.body.game}/resign`, {}, bob);
  check(rz.status === 200, "Bob resigns");
  await srv.stop("SIGKILL");
  srv = await startServer({ db, args: ["--test-clock", clockFile] });
  base = srv.base;
  const after2 = (await call(base, "GET", "/api/players/Ann")).body.ratings.urbino;
  check(!before2 && after2 && after2.rating > 1500 && after2.games === 1, "after SIGKILL the rating written with the game's end is there", JSON.stringify(after2));
  eq((await call(base, "GET", `/api/games/${ac.body.game}`)).body.end, "resign", "and the game's end");
});
