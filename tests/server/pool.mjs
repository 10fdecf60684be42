// pool.mjs — quick pairing (docs/server-api.md "Quick pairing"): POST
// /api/pool joins a pool (game, standard clock, rated or casual), DELETE
// leaves, GET counts; two players with close ratings are paired at once,
// far ratings only once the window has widened with the wait (the server's
// test clock: --test-clock); one entry per account; an entry keeps its
// place a while after its owner's last lobby socket closes and then lapses;
// nobody is paired twice; both players are told "started" on their lobby
// sockets and the game is an ordinary game between accounts.
import WebSocket from "ws";
import { join } from "node:path";
import { PG, check, eq, main, request, setTestClock, sleep, startServer, tempDir, until } from "./lib.mjs";

async function call(base, method, path, body, cookie) {
  return request(base, method, path, body, { headers: cookie ? { cookie } : {} });
}

async function account(base, name) {
  const r = await call(base, "POST", "/api/account", { name, password: `${name} password` });
  check(r.status === 201, `account ${name}`, JSON.stringify(r.body));
  return (r.headers.get("set-cookie") ?? "").split(";")[0];
}

function lobby(base, cookie) {
  const ws = new WebSocket(base.replace("http", "ws") + "/api/lobby", { headers: cookie ? { cookie } : {} });
  const messages = [];
  ws.on("message", (d) => messages.push(JSON.parse(String(d))));
  ws.on("error", () => {});
  const open = new Promise((res, rej) => { ws.once("open", res); ws.once("error", rej); });
  const closed = new Promise((res) => ws.once("close", res));
  return {
    ws, messages, open, closed,
    started() { return messages.filter((m) => m && m.type === "started").map((m) => m.game); },
  };
}

const RAPID = { initial: 600, increment: 5 }, BLITZ = { initial: 180, increment: 2 };

await main(async (defer) => {
  const dir = tempDir();
  const clockFile = join(dir, "clock");
  const srv = await startServer({ args: ["--test-clock", clockFile] });
  defer(() => srv.stop());
  const base = srv.base;
  const names = ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus"];
  const ck = {};
  for (const n of names) ck[n] = await account(base, n);
  const L = {};
  for (const n of names) { L[n] = lobby(base, ck[n]); await L[n].open; }

  // Refusals.
  eq((await call(base, "POST", "/api/pool", { game: "urbino", clock: RAPID, rated: true })).status, 401, "joining signed out: 401");
  for (const [bad, why] of [[{ game: "chess", clock: RAPID }, "an unknown game"], [{ game: "urbino", clock: { initial: 300, increment: 5 } }, "a clock that is not standard"],
    [{ game: "urbino" }, "no clock"], [{ game: "urbino", clock: RAPID, colour: "white" }, "an unknown field"], [{ game: "urbino", clock: { days: 2 } }, "2 days a move"]])
    eq((await call(base, "POST", "/api/pool", bad, ck.Ann)).status, 400, `joining with ${why}: 400`);
  eq((await call(base, "DELETE", "/api/pool", undefined, ck.Ann)).status, 404, "leaving when not in the pool: 404");
  const g0 = await call(base, "GET", "/api/pool", undefined, ck.Ann);
  eq([g0.status, g0.body.clocks, g0.body.pools, g0.body.mine, g0.body.window],
    [200, [BLITZ, RAPID, { days: 1 }], [], null, { initial: 100, widen: 50, every: 5, anyone: 30 }], "GET /api/pool: the standard clocks, nobody waiting, the window");

  // Close ratings (two new players): paired at once; both told "started".
  const j1 = await call(base, "POST", "/api/pool", { game: "urbino", clock: RAPID, rated: true }, ck.Ann);
  check(j1.status === 201 && typeof j1.body.id === "string", "Ann joins the rated 10+5 Urbino pool: 201 with an id", JSON.stringify(j1.body));
  eq((await call(base, "POST", "/api/pool", { game: "urbino", clock: BLITZ, rated: false }, ck.Ann)).status, 409, "a second entry of one account: 409");
  eq((await call(base, "GET", "/api/seeks")).body, [], "a pool entry is not listed as a seek");
  const mine = (await call(base, "GET", "/api/pool", undefined, ck.Ann)).body;
  eq([mine.mine && mine.mine.game, mine.mine && mine.mine.clock, mine.mine && mine.mine.rated, mine.pools],
    ["urbino", RAPID, true, [{ game: "urbino", clock: RAPID, rated: true, waiting: 1 }]], "GET /api/pool: Ann's entry and one waiting");
  check(await until(() => L.Ben.messages.some((m) => m.type === "pool" && m.pools.some((p) => p.waiting === 1))),
    "the lobby sockets are told how many wait ({\"type\": \"pool\"})");
  eq((await call(base, "POST", "/api/pool", { game: "urbino", clock: RAPID, rated: true }, ck.Ben)).status, 201, "Ben joins the same pool");
  check(await until(() => L.Ann.started().length === 1 && L.Ben.started().length === 1), "both are told \"started\" on their lobby sockets",
    JSON.stringify([L.Ann.messages, L.Ben.messages]).slice(-600));
  const gid = L.Ann.started()[0];
  eq(L.Ben.started()[0], gid, "... the same game");
  const g = (await call(base, "GET", `/api/games/${gid}`, undefined, ck.Ann)).body;
  eq([g.game, g.rated, g.clock && g.clock.initial, g.clock && g.clock.increment, [g.accounts.white, g.accounts.black].sort()],
    ["urbino", true, 600, 5, ["Ann", "Ben"]], "an ordinary rated game between Ann and Ben on 10+5");
  eq((await call(base, "GET", "/api/pool", undefined, ck.Ann)).body.mine, null, "Ann is no longer in the pool");
  eq((await call(base, "GET", "/api/pool")).body.pools, [], "nobody waits");

  // A rated result moves the ratings apart (about 1662 and 1338).
  eq((await call(base, "POST", `/api/games/${gid}/resign`, {}, ck.Ben)).status, 200, "Ben resigns");
  const rA = await until(async () => {
    const p = (await call(base, "GET", "/api/players/Ann")).body;
    return p.ratings && p.ratings.urbino && p.ratings.urbino.rating > 1600 ? p.ratings.urbino.rating : 0;
  });
  const rB = (await call(base, "GET", "/api/players/Ben")).body.ratings.urbino.rating;
  check(rA - rB > 250 && rA - rB < 350, "Ann and Ben are now about 320 apart", `${rA} ${rB}`);

  // Far ratings: not at once; paired once the window has widened.
  eq((await call(base, "POST", "/api/pool", { game: "urbino", clock: RAPID, rated: true }, ck.Ann)).status, 201, "Ann joins again");
  eq((await call(base, "POST", "/api/pool", { game: "urbino", clock: RAPID, rated: true }, ck.Ben)).status, 201, "Ben joins again");
  await sleep(2500);   // a few of the pool's one-second rounds
  check(L.Ann.started().length === 1 && (await call(base, "GET", "/api/pool", undefined, ck.Ben)).body.mine !== null,
    "~320 apart: not paired at once (±100)");
  await setTestClock(clockFile, 15000, [srv]);
  await sleep(2500);
  check(L.Ann.started().length === 1, "... nor after 15 s (±250)");
  eq((await call(base, "GET", "/api/pool")).body.pools, [{ game: "urbino", clock: RAPID, rated: true, waiting: 2 }], "two wait in the pool");
  await setTestClock(clockFile, 26000, [srv]);
  check(await until(() => L.Ann.started().length === 2 && L.Ben.started().length === 2), "... paired after 25 s (±350)");
  eq(L.Ann.started()[1], L.Ben.started()[1], "... in one game");
  const g2 = L.Ann.started()[1];
  eq((await call(base, "POST", `/api/games/${g2}/abort`, {}, ck.Ann)).status, 200, "that game aborted");

  // Rated and casual are separate pools; leaving.
  eq((await call(base, "POST", "/api/pool", { game: "toscana", clock: BLITZ, rated: false }, ck.Cat)).status, 201, "Cat joins casual 3+2 Toscana");
  eq((await call(base, "POST", "/api/pool", { game: "toscana", clock: BLITZ, rated: true }, ck.Dan)).status, 201, "Dan joins rated 3+2 Toscana");
  await sleep(2500);
  check(!L.Cat.started().length && !L.Dan.started().length, "casual and rated are not paired together");
  eq((await call(base, "GET", "/api/pool")).body.pools.length, 2, "two pools with one waiting each");
  eq((await call(base, "DELETE", "/api/pool", undefined, ck.Dan)).status, 200, "Dan leaves: 200");
  eq((await call(base, "GET", "/api/pool", undefined, ck.Dan)).body.mine, null, "... and is not in the pool");
  eq((await call(base, "DELETE", "/api/pool", undefined, ck.Dan)).status, 404, "leaving again: 404");
  // Joining and leaving over and over: a join counts as one of the account's 10 offers a minute.
  let joins = 1, last = 0;
  for (let i = 0; i < 15; i++) {
    last = (await call(base, "POST", "/api/pool", { game: "toscana", clock: RAPID, rated: false }, ck.Dan)).status;
    if (last !== 201) break;
    joins++;
    await call(base, "DELETE", "/api/pool", undefined, ck.Dan);
  }
  eq([joins, last], [10, 429], "Dan's 11th join within a minute: 429");

  // Presence: Cat's last lobby socket closes; her entry keeps its place a
  // while (a page being left for another), then lapses.
  L.Cat.ws.close();
  await L.Cat.closed;
  check((await call(base, "GET", "/api/pool", undefined, ck.Cat)).body.mine !== null, "right after her last lobby socket closed, Cat keeps her place");
  await setTestClock(clockFile, 40000, [srv]);
  check(await until(async () => (await call(base, "GET", "/api/pool", undefined, ck.Cat)).body.mine === null),
    "10 s of games' time later without a lobby socket her entry lapsed");
  eq((await call(base, "GET", "/api/pool")).body.pools, [], "nobody waits");

  // Three join one pool at once: one game, the third still waits; nobody twice.
  const three = await Promise.all(["Eve", "Fay", "Gus"].map((n) => call(base, "POST", "/api/pool", { game: "cathedral", clock: { days: 1 }, rated: false }, ck[n])));
  eq(three.map((r) => r.status), [201, 201, 201], "Eve, Fay and Gus join the 1-day Cathedral pool");
  check(await until(() => ["Eve", "Fay", "Gus"].filter((n) => L[n].started().length).length === 2), "two of them are paired");
  await sleep(2500);
  const told = ["Eve", "Fay", "Gus"].map((n) => L[n].started());
  eq(told.map((t) => t.length).sort(), [0, 1, 1], "... exactly two told, once each");
  const left = ["Eve", "Fay", "Gus"].find((n, i) => !told[i].length);
  check((await call(base, "GET", "/api/pool", undefined, ck[left])).body.mine !== null, "the third still waits");
  const gc = (await call(base, "GET", `/api/games/${told.flat()[0]}`)).body;
  eq([gc.game, gc.rated, gc.clock && gc.clock.days], ["cathedral", false, 1], "a casual Cathedral game, 1 day a move");
  // A game begun otherwise (a seek accepted) takes its players out of the pool.
  const sk = await call(base, "POST", "/api/seeks", { game: "urbino", options: "", rated: false, colour: "random" }, ck.Ann);
  eq((await call(base, "POST", `/api/seeks/${sk.body.id}/accept`, {}, ck[left])).status, 201, `${left} accepts a seek of Ann's`);
  eq((await call(base, "GET", "/api/pool", undefined, ck[left])).body.mine, null, `... and is out of the pool`);

  for (const n of names) L[n].ws.close();

  // Two instances on one PostgreSQL: entries are paired across them, and an
  // entry both could pair (its owner has a lobby socket on each) is paired
  // once: the store closes a seek once, the other batch makes nothing.
  if (PG) {
    const srv2 = await startServer({ db: srv.db, args: ["--test-clock", clockFile] });
    defer(() => srv2.stop());
    const b2 = srv2.base;
    const more = ["Hal", "Ida", "Jon", "Kim", "Lou", "Max"];
    for (const n of more) ck[n] = await account(base, n);
    // Hal and Kim on both instances; Ida and Lou on the first; Jon and Max on the second.
    const where = { Hal: [base, b2], Kim: [base, b2], Ida: [base], Lou: [base], Jon: [b2], Max: [b2] };
    const socks = {};
    for (const n of more) { socks[n] = where[n].map((b) => lobby(b, ck[n])); for (const s of socks[n]) await s.open; }
    await sleep(2500);   // each instance has told the other who is here
    const joins = await Promise.all(more.map((n, i) => call(i % 2 ? b2 : base, "POST", "/api/pool", { game: "epaminondas", clock: BLITZ, rated: false }, ck[n])));
    eq(joins.map((r) => r.status), more.map(() => 201), "six players join one pool through two instances");
    const told = (n) => [...new Set(socks[n].flatMap((s) => s.started()))];
    check(await until(() => more.every((n) => told(n).length === 1), 30000), "all six are paired",
      JSON.stringify(more.map((n) => [n, told(n)])));
    await sleep(3000);
    eq(more.map((n) => told(n).length), more.map(() => 1), "... each into exactly one game (nobody paired twice)");
    const byGame = new Map();
    for (const n of more) byGame.set(told(n)[0], [...(byGame.get(told(n)[0]) ?? []), n]);
    eq([...byGame.values()].map((v) => v.length), [2, 2, 2], "three games of two players each");
    for (const [id, who] of byGame) {
      const gg = (await call(b2, "GET", `/api/games/${id}`)).body;
      eq([gg.accounts.white, gg.accounts.black].sort(), [...who].sort(), `game ${id}: its accounts are the two told`);
    }
    for (const n of ["Hal", "Kim"])
      check(socks[n].every((s) => s.started().length >= 1), `${n}'s sockets on both instances are told`);
    eq((await call(b2, "GET", "/api/pool")).body.pools, [], "nobody waits");
    for (const n of more) for (const s of socks[n]) s.ws.close();
  }
});
