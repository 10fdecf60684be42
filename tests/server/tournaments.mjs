// tournaments.mjs — SPEC "Tournaments" through the API (docs/tournaments.md):
//  - refusals: 401 signed out, 400 for bad bodies, 409 for what cannot be
//    done now, 403 a start by someone else, 404 unknown;
//  - a round robin of 4 played to the end (every pair twice, one game with
//    each colour), results chosen game by game, the standings (score and
//    Sonneborn–Berger) checked against a table computed by hand; the live
//    socket follows it and a player's sockets are told of its games;
//  - 13 players in two divisions (7 and 6), each pair of a division paired
//    twice, nobody paired across divisions;
//  - an arena of 4 players playing random legal moves, the server SIGKILLed
//    in the middle and started again on the same database: every game made
//    before is still there in the same place, none made twice, nobody in
//    two games at once; it ends at `ends` (the test clock moves it on) and
//    every score is recomputed here from the games.
import WebSocket from "ws";
import { check, eq, main, request, setTestClock, sleep, startServer, tempDir, until, rng, PG } from "./lib.mjs";
import { join } from "node:path";
import { writeFileSync } from "node:fs";

async function call(base, method, path, body, cookie) {
  return request(base, method, path, body, { headers: cookie ? { cookie } : {} });
}

async function account(base, name) {
  const r = await call(base, "POST", "/api/account", { name, password: `${name} password 1` });
  check(r.status === 201, `account ${name}`, JSON.stringify(r.body));
  return (r.headers.get("set-cookie") ?? "").split(";")[0];
}

// A live socket collecting its messages.
function socket(base, path, cookie) {
  const ws = new WebSocket(base.replace("http", "ws") + path, { headers: cookie ? { cookie } : {} });
  const messages = [];
  ws.on("message", (d) => messages.push(JSON.parse(String(d))));
  ws.on("error", () => {});
  const open = new Promise((res, rej) => { ws.once("open", res); ws.once("error", rej); });
  return {
    ws, messages, open,
    async until(pred, ms = 20000) {
      const t0 = Date.now();
      while (!pred(messages) && Date.now() - t0 < ms) await sleep(20);
      return pred(messages);
    },
  };
}

const NOW = () => Date.now();

await main(async (defer) => {
  const dir = tempDir();
  const clockFile = join(dir, "clock");
  writeFileSync(clockFile, "0 start\n");
  const db = PG ? "tournaments-main" : join(dir, "t.db");
  let srv = await startServer({ db, args: ["--test-clock", clockFile] });
  defer(() => srv.stop());
  let base = srv.base;

  const names = ["Ann", "Bob", "Cat", "Dan"];
  const ck = {};
  for (const n of names) ck[n] = await account(base, n);

  // ---- refusals ----
  const rr = { name: "Club round robin", game: "urbino", options: "", kind: "roundrobin", rated: true,
    clock: { initial: 600, increment: 5 }, starts: NOW() + 3600000 };
  eq((await call(base, "POST", "/api/tournaments", rr)).status, 401, "making a tournament signed out: 401");
  for (const [bad, why] of [
    [{ ...rr, kind: "swiss" }, "an unknown kind"], [{ ...rr, game: "chess" }, "an unknown game"],
    [{ ...rr, name: "" }, "an empty name"], [{ ...rr, clock: undefined }, "no clock"],
    [{ ...rr, kind: "arena", minutes: 30, clock: { days: 3 } }, "an arena on days a move"],
    [{ ...rr, kind: "arena" }, "an arena without minutes"], [{ ...rr, starts: "soon" }, "a start that is no time"],
    [{ ...rr, colour: "white" }, "an unknown field"], [{ ...rr, game: "toscana", options: "seed=4" }, "a chosen deal"]])
    eq((await call(base, "POST", "/api/tournaments", bad, ck.Ann)).status, 400, `a tournament with ${why}: 400`);
  const made = await call(base, "POST", "/api/tournaments", rr, ck.Ann);
  check(made.status === 201 && typeof made.body.id === "string", "a round robin: 201 and its id", JSON.stringify(made.body));
  const T = made.body.id;
  eq((await call(base, "POST", `/api/tournaments/${T}/join`, {})).status, 401, "joining signed out: 401");
  eq((await call(base, "POST", "/api/tournaments/AAAAAAAAAAAA/join", {}, ck.Ann)).status, 404, "joining an unknown tournament: 404");
  eq((await call(base, "POST", `/api/tournaments/${T}/withdraw`, {}, ck.Ann)).status, 409, "withdrawing without having joined: 409");
  for (const n of ["Ann", "Bob"]) eq((await call(base, "POST", `/api/tournaments/${T}/join`, {}, ck[n])).status, 200, `${n} joins`);
  eq((await call(base, "POST", `/api/tournaments/${T}/start`, {}, ck.Ann)).status, 409, "a round robin of 2 cannot start: 409");
  eq((await call(base, "POST", `/api/tournaments/${T}/start`, {}, ck.Bob)).status, 403, "a start by someone else than its creator: 403");
  eq((await call(base, "POST", `/api/tournaments/${T}/start`, {})).status, 401, "a start signed out: 401");
  for (const n of ["Cat", "Dan"]) eq((await call(base, "POST", `/api/tournaments/${T}/join`, {}, ck[n])).status, 200, `${n} joins`);
  eq((await call(base, "POST", `/api/tournaments/${T}/join`, {}, ck.Dan)).status, 200, "joining twice: 200, one line");
  let view = (await call(base, "GET", `/api/tournaments/${T}`)).body;
  check(view.status === "open" && view.players.length === 4 && view.games.length === 0 && view.creator === "Ann" &&
    view.kind === "roundrobin" && view.rated === true && view.clock.initial === 600, "an open round robin with its 4 players", JSON.stringify(view));
  const list = (await call(base, "GET", "/api/tournaments")).body;
  check(Array.isArray(list) && list.some((t) => t.id === T && t.players === 4 && t.status === "open" && t.kind === "roundrobin" &&
    t.name === "Club round robin" && t.game === "urbino" && t.starts === rr.starts), "GET /api/tournaments lists it", JSON.stringify(list));

  // ---- a round robin of 4, played to the end ----
  const live = socket(base, `/api/tournaments/${T}/live`, ck.Cat);
  await live.open;
  check(await live.until((m) => m.some((x) => x.id === T && x.status === "open")), "the live socket: the tournament at once");
  eq((await call(base, "POST", `/api/tournaments/${T}/start`, {}, ck.Ann)).status, 200, "its creator starts it: 200");
  eq((await call(base, "POST", `/api/tournaments/${T}/start`, {}, ck.Ann)).status, 409, "starting it again: 409");
  eq((await call(base, "POST", `/api/tournaments/${T}/join`, {}, ck.Ann)).status, 409, "joining a running round robin: 409");
  view = (await call(base, "GET", `/api/tournaments/${T}`)).body;
  check(view.status === "running" && view.games.length === 12, "running, with all its 12 games at once", JSON.stringify(view).slice(0, 300));
  const pairs = new Set(view.games.map((g) => `${g.white}-${g.black}`));
  check(pairs.size === 12 && names.every((a) => names.every((b) => a === b || pairs.has(`${a}-${b}`))),
    "every pair plays twice, one game with each colour", [...pairs].join(" "));
  check(view.players.every((p) => p.division === 1 && p.score === 0 && p.withdrawn === false), "one division, nobody scored yet");
  // Extension: a tournament's game names its tournament (its page links back).
  eq((await call(base, "GET", `/api/games/${view.games[0].id}`)).body.tournament, T,
    "a tournament's game names its tournament (\"tournament\": its id)");
  const lone = await call(base, "POST", "/api/games", { game: "urbino", options: "", white: "human", black: "random" });
  eq((await call(base, "GET", `/api/games/${lone.body.id}`)).body.tournament, undefined, "... and another game has no such field");
  check(await live.until((m) => m.some((x) => x.status === "running" && x.games?.length === 12)), "the live socket sees it start");
  check(await live.until((m) => m.filter((x) => x.type === "paired").length === 6),
    "Cat's socket is told of each of its 6 games", JSON.stringify(live.messages.filter((x) => x.type)));

  // Results chosen game by game (white-black: the winner, or "draw").
  const want = {
    "Ann-Bob": "Ann", "Bob-Ann": "draw", "Ann-Cat": "Ann", "Cat-Ann": "Cat", "Ann-Dan": "Ann", "Dan-Ann": "Ann",
    "Bob-Cat": "Bob", "Cat-Bob": "Bob", "Bob-Dan": "draw", "Dan-Bob": "Dan", "Cat-Dan": "Cat", "Dan-Cat": "draw",
  };
  for (const g of view.games) {
    const key = `${g.white}-${g.black}`, result = want[key];
    // Two moves, then the result: a resignation or a draw agreed.
    for (let ply = 0; ply < 2; ply++) {
      // The side to act (which one begins is the game's rule).
      let done = false;
      for (const side of [g.white, g.black]) {
        const gv = (await call(base, "GET", `/api/games/${g.id}`, undefined, ck[side])).body;
        if (done || !gv.legal?.length) continue;
        const r = await call(base, "POST", `/api/games/${g.id}/moves`, { move: gv.legal[0], ply }, ck[side]);
        done = check(r.status === 200, `${key}: move ${ply}`, JSON.stringify(r.body).slice(0, 200));
      }
      check(done, `${key}: a side to act at ply ${ply}`);
    }
    if (result === "draw") {
      const a = await call(base, "POST", `/api/games/${g.id}/offer`, { kind: "draw", act: "offer" }, ck[g.white]);
      const b = await call(base, "POST", `/api/games/${g.id}/offer`, { kind: "draw", act: "accept" }, ck[g.black]);
      check(a.status === 200 && b.status === 200, `${key}: a draw agreed`, JSON.stringify([a.body, b.body]).slice(0, 200));
    } else {
      const loser = result === g.white ? g.black : g.white;
      const r = await call(base, "POST", `/api/games/${g.id}/resign`, {}, ck[loser]);
      check(r.status === 200, `${key}: ${loser} resigns`, JSON.stringify(r.body).slice(0, 200));
    }
  }
  view = await until(async () => { const v = (await call(base, "GET", `/api/tournaments/${T}`)).body; return v.status === "over" ? v : null; });
  check(!!view, "the round robin is over once all its games are");
  // By hand: Ann 1+½+1+0+1+1 = 4½, Bob 0+½+1+1+½+0 = 3, Cat 0+1+0+0+1+½ = 2½,
  // Dan 0+0+½+1+0+½ = 2.  Sonneborn–Berger: Ann 3+2½+2+2 (wins) + 3/2 (draw)
  // = 11; Bob 2½+2½ + 4½/2 + 2/2 = 8¼; Cat 4½+2 + 2/2 = 7½; Dan 3 + 3/2 + 2½/2 = 5¾.
  if (view) {
    eq(view.players.map((p) => [p.name, p.score, p.tiebreak, p.division]),
      [["Ann", 4.5, 11, 1], ["Bob", 3, 8.25, 1], ["Cat", 2.5, 7.5, 1], ["Dan", 2, 5.75, 1]], "the standings, as computed by hand");
    check(view.games.every((g) => g.winner === (want[`${g.white}-${g.black}`] === "draw" ? "draw" : want[`${g.white}-${g.black}`] === g.white ? "white" : "black") &&
      ["resign", "agreement"].includes(g.end)), "every game's winner and end as played");
    check(typeof view.ends === "number" && view.ends >= view.starts, "an over round robin says when it ended");
  }
  check(await live.until((m) => m.some((x) => x.status === "over")), "the live socket sees it end");
  const me = (await call(base, "GET", "/api/players/Ann")).body;
  check(me.ratings?.urbino?.games === 6, "the games were rated (Ann: 6 rated games)", JSON.stringify(me.ratings));
  eq((await call(base, "POST", `/api/tournaments/${T}/withdraw`, {}, ck.Bob)).status, 409, "withdrawing from a finished tournament: 409");
  live.ws.close();

  // ---- 13 players in two divisions; a withdrawal forfeits the rest ----
  const many = [...names];
  for (let i = 0; i < 9; i++) { const n = `P${i}x`; ck[n] = await account(base, n); many.push(n); }
  const big = (await call(base, "POST", "/api/tournaments", { ...rr, name: "Big one", clock: { days: 3 } }, ck.Bob)).body.id;
  for (const n of many) await call(base, "POST", `/api/tournaments/${big}/join`, {}, ck[n]);
  eq((await call(base, "POST", `/api/tournaments/${big}/start`, {}, ck.Bob)).status, 200, "13 players: started");
  const bv = (await call(base, "GET", `/api/tournaments/${big}`)).body;
  const div = (d) => bv.players.filter((p) => p.division === d).map((p) => p.name);
  check(div(1).length === 7 && div(2).length === 6 && bv.players.length === 13, "two divisions of 7 and 6", JSON.stringify(bv.players.map((p) => [p.name, p.division])));
  // Division 1 holds the best-rated: Ann (who won the round robin) is in it, Dan (who lost) too? by rating
  const rating = Object.fromEntries(bv.players.map((p) => [p.name, p.rating]));
  check(Math.min(...div(1).map((n) => rating[n])) >= Math.max(...div(2).map((n) => rating[n])), "division 1 holds the best-rated players");
  check(bv.games.length === 7 * 6 + 6 * 5, "7·6 + 6·5 = 72 games at once", bv.games.length);
  const where = Object.fromEntries(bv.players.map((p) => [p.name, p.division]));
  check(bv.games.every((g) => where[g.white] === where[g.black] && where[g.white] === g.division), "nobody paired across divisions");
  const seen = new Set(bv.games.map((g) => `${g.white}-${g.black}`));
  check(seen.size === 72, "no game twice");
  // Ann withdraws: her 12 games are lost, her opponents win them.
  eq((await call(base, "POST", `/api/tournaments/${big}/withdraw`, {}, ck.Ann)).status, 200, "a withdrawal from a running round robin: 200");
  const after = await until(async () => {
    const v = (await call(base, "GET", `/api/tournaments/${big}`)).body;
    return v.games.filter((g) => (g.white === "Ann" || g.black === "Ann") && g.end === "resign").length === 12 ? v : null;
  });
  check(!!after, "her 12 boards end (resigned for her)");
  if (after) {
    const ann = after.players.find((p) => p.name === "Ann");
    check(ann.withdrawn === true && ann.score === 0, "she stays in the standings, withdrawn, with 0", JSON.stringify(ann));
    check(after.players.filter((p) => where[p.name] === where.Ann && p.name !== "Ann").every((p) => p.score === 2),
      "each of her division's others scored her two games", JSON.stringify(after.players));
  }

  // ---- an arena of 4, random players, SIGKILL in the middle ----
  const arenaBody = { name: "Evening arena", game: "cathedral", options: "", kind: "arena", rated: false,
    clock: { initial: 60, increment: 0 }, starts: NOW() + 3600000, minutes: 10 };
  eq((await call(base, "POST", "/api/tournaments", { ...arenaBody, clock: { days: 1 } }, ck.Cat)).status, 400, "an arena needs a real-time clock: 400");
  const A = (await call(base, "POST", "/api/tournaments", arenaBody, ck.Cat)).body.id;
  for (const n of ["Ann", "Bob"]) eq((await call(base, "POST", `/api/tournaments/${A}/join`, {}, ck[n])).status, 200, `${n} joins the arena`);
  eq((await call(base, "POST", `/api/tournaments/${A}/start`, {}, ck.Cat)).status, 200, "an arena of 2 starts: 200");
  let av = (await call(base, "GET", `/api/tournaments/${A}`)).body;
  check(av.status === "running" && av.games.length === 1 && av.ends === av.starts + 600000, "running, the two paired at once, ends = start + minutes",
    JSON.stringify(av).slice(0, 300));
  for (const n of ["Cat", "Dan"]) eq((await call(base, "POST", `/api/tournaments/${A}/join`, {}, ck[n])).status, 200, `${n} joins the running arena`);
  check(await until(async () => (await call(base, "GET", `/api/tournaments/${A}`)).body.games.length === 2), "the two newcomers are paired");
  const paired = socket(base, `/api/tournaments/${A}/live`, ck.Dan);
  await paired.open;

  // Each player: find its running game, play random legal moves on it.
  const random = rng(47);
  let stop = false, moves = 0, errors = [];
  async function player(n) {
    while (!stop) {
      let v;
      try { v = (await call(base, "GET", `/api/tournaments/${A}`)).body; } catch { await sleep(100); continue; }
      if (!v || v.status === "over") return;
      const g = v.games?.find((x) => x.winner === null && (x.white === n || x.black === n));
      if (!g) { await sleep(50); continue; }
      try {
        const gv = (await call(base, "GET", `/api/games/${g.id}`, undefined, ck[n])).body;
        if (gv.over || !gv.legal || gv.legal.length === 0) { await sleep(30); continue; }
        const mv = gv.legal[Math.floor(random() * gv.legal.length)];
        const r = await call(base, "POST", `/api/games/${g.id}/moves`, { move: mv, ply: gv.moves.length }, ck[n]);
        if (r.status === 200) moves++;
        else if (r.status !== 409) errors.push(`${r.status} ${JSON.stringify(r.body)}`);
      } catch { await sleep(100); }
    }
  }
  let players = names.map(player);
  check(await until(async () => (await call(base, "GET", `/api/tournaments/${A}`)).body.games.filter((g) => g.winner !== null).length >= 6, 60000),
    "random players finish games and are paired again");
  check(await paired.until((m) => m.filter((x) => x.type === "paired").length >= 1), "Dan's socket is told {type: paired}",
    JSON.stringify(paired.messages.filter((x) => x.type)));
  paired.ws.close();

  // SIGKILL in the middle, then the same database again.
  const before = (await call(base, "GET", `/api/tournaments/${A}`)).body;
  await srv.stop("SIGKILL");
  stop = true;
  await Promise.all(players);
  srv = await startServer({ db, args: ["--test-clock", clockFile], port: srv.port });
  base = srv.base;
  const back = (await call(base, "GET", `/api/tournaments/${A}`)).body;
  check(back.status === "running" && back.games.length >= before.games.length &&
    before.games.every((g, i) => back.games[i].id === g.id && back.games[i].white === g.white && back.games[i].black === g.black),
    "after SIGKILL: every game made before is there, in its place", `${before.games.length} ${back.games.length}`);
  eq((await call(base, "GET", `/api/games/${back.games[0].id}`)).body.tournament, A,
    "after the restart a game read from the store names its tournament");
  const running = names.map((n) => back.games.filter((g) => g.winner === null && (g.white === n || g.black === n)).length);
  check(running.every((k) => k <= 1), "after the restart nobody is in two games at once", running.join(" "));
  stop = false;
  players = names.map(player);
  check(await until(async () => (await call(base, "GET", `/api/tournaments/${A}`)).body.games.length >= back.games.length + 2, 60000),
    "after the restart the arena pairs again");
  // The end: the test clock moves past `ends`; no pairing starts after it,
  // the games running then end (their clocks fall) and count.
  await setTestClock(clockFile, 11 * 60000, [srv]);
  const endedAt = (await call(base, "GET", `/api/tournaments/${A}`)).body.games.length;
  const over = await until(async () => { const v = (await call(base, "GET", `/api/tournaments/${A}`)).body; return v.status === "over" ? v : null; }, 60000);
  stop = true;
  await Promise.all(players);
  check(!!over, "the arena is over after its end once its games are");
  check(errors.length === 0, "no move refused other than a stale ply", errors.slice(0, 3).join("; "));
  check(moves > 20, "the random players played", moves);
  if (over) {
    console.log(`arena: ${before.games.length} games before the SIGKILL, ${back.games.length} after the restart, ${over.games.length} in all ` +
      `(${over.games.filter((g) => g.end === "abort").length} aborted, ${over.games.filter((g) => g.end === "time").length} on time), ${moves} moves; ` +
      over.players.map((p) => `${p.name} ${p.score}/${p.tiebreak}`).join(", "));
    check(over.games.length <= endedAt + 0, "no pairing after its end", `${over.games.length} ${endedAt}`);
    const ids = over.games.map((g) => g.id);
    check(new Set(ids).size === ids.length, "no game twice");
    // Nobody in two games at once: a player's games end in the order made
    // (each made only when its previous one was over).
    check(over.games.every((g) => g.white !== g.black && names.includes(g.white) && names.includes(g.black)), "every game between two of its players");
    // The scores recomputed here: 2/1/0, after two wins in a row 4 and 2;
    // an abort 0, ending the idle side's streak.
    const score = {}, wins = {}, streak = {};
    for (const n of names) { score[n] = 0; wins[n] = 0; streak[n] = 0; }
    for (const g of over.games) {
      let idle = null;
      if (g.end === "abort") {
        const gv = (await call(base, "GET", `/api/games/${g.id}`)).body;
        idle = gv.moves.length === 0 ? g.white : g.black;   // the side that had not moved
      }
      for (const [n, side] of [[g.white, "white"], [g.black, "black"]]) {
        if (g.end === "abort") { if (n === idle) streak[n] = 0; continue; }   // 0 both; the idle side's streak ends
        const fire = streak[n] >= 2;
        if (g.winner === side) { score[n] += fire ? 4 : 2; wins[n]++; streak[n]++; }
        else if (g.winner === "draw") { score[n] += fire ? 2 : 1; streak[n] = 0; }
        else streak[n] = 0;
      }
    }
    const got = Object.fromEntries(over.players.map((p) => [p.name, [p.score, p.tiebreak]]));
    eq(names.map((n) => [n, ...got[n]]), names.map((n) => [n, score[n], wins[n]]), "every arena score recomputed from the games");
    const sorted = [...over.players].sort((a, b) => b.score - a.score || b.tiebreak - a.tiebreak);
    eq(over.players.map((p) => p.name), sorted.map((p) => p.name), "standings by score, then wins");
  }
  eq((await call(base, "POST", `/api/tournaments/${A}/join`, {}, ck.Ann)).status, 409, "joining a finished arena: 409");

  // ---- a recurring event: the next edition opens when one starts ----
  const planned = NOW() + 7200000;
  const weekly = { name: "Weekly round robin", game: "urbino", options: "", kind: "roundrobin", rated: false,
    clock: { days: 7 }, starts: planned, repeat: "week" };
  eq((await call(base, "POST", "/api/tournaments", { ...weekly, repeat: "month" }, ck.Dan)).status, 400, "repeat \"month\": 400");
  const W = (await call(base, "POST", "/api/tournaments", weekly, ck.Dan)).body.id;
  eq((await call(base, "POST", `/api/tournaments/${W}/join`, { once: "yes" }, ck.Ann)).status, 400, "a join's body {once: \"yes\"}: 400");
  eq((await call(base, "POST", `/api/tournaments/${W}/join`, {}, ck.Ann)).status, 200, "Ann joins the weekly one");
  eq((await call(base, "POST", `/api/tournaments/${W}/join`, { once: true }, ck.Bob)).status, 200, "Bob joins this edition only");
  eq((await call(base, "POST", `/api/tournaments/${W}/join`, {}, ck.Dan)).status, 200, "Dan joins");
  eq((await call(base, "POST", `/api/tournaments/${W}/join`, {}, ck.Cat)).status, 200, "Cat joins");
  eq((await call(base, "POST", `/api/tournaments/${W}/withdraw`, {}, ck.Cat)).status, 200, "Cat withdraws before the start");
  eq((await call(base, "POST", `/api/tournaments/${W}/start`, {}, ck.Dan)).status, 200, "the weekly one starts");
  const wv = (await call(base, "GET", `/api/tournaments/${W}`)).body;
  check(wv.status === "running" && wv.players.length === 3 && wv.games.length === 6 && wv.repeat === "week",
    "it runs with its 3 players (Cat, withdrawn before, is not in it)", JSON.stringify(wv.players));
  const nextOne = (await call(base, "GET", "/api/tournaments")).body.find((x) => x.name === "Weekly round robin" && x.status === "open");
  check(!!nextOne && nextOne.starts === planned + 7 * 86400000 && nextOne.repeat === "week", "its next edition opens a week after the planned start",
    JSON.stringify(nextOne));
  if (nextOne) {
    const nv = (await call(base, "GET", `/api/tournaments/${nextOne.id}`)).body;
    eq(nv.players.map((p) => p.name).sort(), ["Ann", "Dan"], "its players joined again, but not Bob (this edition only) nor Cat (withdrawn)");
    check(nv.previous === W && nv.creator === "Dan", "it names the edition it follows");
  }

  // ---- the limit: 5 tournaments an account a day (next editions not counted) ----
  const codes = [];
  for (let i = 0; i < 5; i++)
    codes.push((await call(base, "POST", "/api/tournaments", { ...weekly, name: `Dan's ${i}`, repeat: undefined }, ck.Dan)).status);
  eq(codes, [201, 201, 201, 201, 429], "Dan made the weekly one (its next edition not counted): 4 more, then 429");

  // ---- two instances on one PostgreSQL: one pairs, the other takes over ----
  if (PG) await twoInstances(defer);
});

// Two instances on one database: requests go to either; exactly one pairs
// the arena (the one holding its claim: it says so in its log); nobody is
// ever in two games at once; the owner SIGKILLed, the other takes it over.
async function twoInstances(defer) {
  const one = await startServer({ db: "tournaments-two", quiet: false });
  const two = await startServer({ db: "tournaments-two", quiet: false });
  let alive = [one, two];
  defer(async () => { for (const s of alive) await s.stop(); });
  const who = ["Wan", "Wbo", "Wcy", "Wdu"], ck = {};
  for (const n of who) ck[n] = await account(one.base, n);
  const A = (await call(two.base, "POST", "/api/tournaments", { name: "Two instances", game: "cathedral", options: "", kind: "arena",
    rated: false, clock: { initial: 60, increment: 0 }, starts: Date.now() + 1500, minutes: 10 }, ck.Wan)).body.id;
  for (const [i, n] of who.entries()) eq((await call((i % 2 ? two : one).base, "POST", `/api/tournaments/${A}/join`, {}, ck[n])).status, 200, `${n} joins on instance ${i % 2 + 1}`);
  const started = await until(async () => { const v = (await call(one.base, "GET", `/api/tournaments/${A}`)).body; return v.status === "running" && v.games.length === 2 ? v : null; });
  check(!!started, "two instances: the arena starts at its time, its 4 players paired once (2 games)", JSON.stringify(started));
  const owners = [one, two].filter((s) => s.errors().includes(`tournament ${A}: an arena of`));
  check(owners.length === 1, "exactly one instance started it", owners.length);
  const owner = owners[0] ?? one, other = owner === one ? two : one;
  const random = rng(7);
  let stop = false, bad = [];
  const sample = async (base) => {
    const v = (await call(base, "GET", `/api/tournaments/${A}`)).body;
    if (!v?.games) return v;
    for (const n of who) if (v.games.filter((g) => g.winner === null && (g.white === n || g.black === n)).length > 1) bad.push(`${n} in two games`);
    if (new Set(v.games.map((g) => g.id)).size !== v.games.length) bad.push("a game twice");
    return v;
  };
  const bases = () => alive.map((s) => s.base);
  async function player(n) {
    for (let k = 0; !stop; k++) {
      const base = bases()[k % bases().length];
      try {
        const v = await sample(base);
        const g = v?.games?.find((x) => x.winner === null && (x.white === n || x.black === n));
        if (!g) { await sleep(50); continue; }
        const gv = (await call(base, "GET", `/api/games/${g.id}`, undefined, ck[n])).body;
        if (gv.over || !gv.legal?.length) { await sleep(30); continue; }
        await call(base, "POST", `/api/games/${g.id}/moves`, { move: gv.legal[Math.floor(random() * gv.legal.length)], ply: gv.moves.length }, ck[n]);
      } catch { await sleep(100); }
    }
  }
  let players = who.map(player);
  check(await until(async () => (await sample(other.base)).games.length >= 6, 90000), "two instances: games end and the owner pairs again");
  const before = (await call(other.base, "GET", `/api/tournaments/${A}`)).body;
  await owner.stop("SIGKILL");
  alive = [other];
  check(await until(async () => (await sample(other.base)).games.length >= before.games.length + 2, 90000),
    "the owner SIGKILLed: the other instance takes the arena over and pairs");
  stop = true;
  await Promise.all(players);
  const after = (await call(other.base, "GET", `/api/tournaments/${A}`)).body;
  check(before.games.every((g, i) => after.games[i]?.id === g.id), "every game made before the kill kept in its place");
  check(bad.length === 0, "two instances: nobody ever in two games at once, no game twice", bad.slice(0, 3).join("; "));
  console.log(`two instances: ${before.games.length} games before the kill, ${after.games.length} after`);
}
