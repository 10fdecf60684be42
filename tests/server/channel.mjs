// channel.mjs — the player's channel (issue 46): a signed-in page keeps the
// lobby socket open on every page, and it tells its account what happened:
// {"type": "mine", "games": [...]} at once (its unfinished games, as GET
// /api/me/games), {"type": "mygame", "game": {...}} each time one of them
// changes (your turn, the opponent's move, the end: "over": true), and
// {"type": "rematch", "game": ID, "by": NAME} when the opponent of a finished
// game offers a rematch.  Nobody else is told; a Toscana game's messages hold
// no deal.  Run on SQLite, and on PostgreSQL when TAV_TEST_PG is set.
import WebSocket from "ws";
import { check, eq, main, request, sleep, startServer } from "./lib.mjs";

async function call(base, method, path, body, cookie) {
  return request(base, method, path, body, { headers: cookie ? { cookie } : {} });
}

async function account(base, name) {
  const r = await call(base, "POST", "/api/account", { name, password: `${name} password` });
  check(r.status === 201, `account ${name}`, JSON.stringify(r.body));
  return (r.headers.get("set-cookie") ?? "").split(";")[0];
}

// A lobby socket (with a cookie) collecting its messages, raw and parsed.
function channel(base, cookie) {
  const ws = new WebSocket(base.replace("http", "ws") + "/api/lobby", { headers: cookie ? { cookie } : {} });
  const messages = [], raw = [];
  ws.on("message", (d) => { raw.push(String(d)); messages.push(JSON.parse(String(d))); });
  ws.on("error", () => {});
  const open = new Promise((res, rej) => { ws.once("open", res); ws.once("error", rej); });
  const c = {
    ws, messages, raw, open,
    async until(pred, ms = 15000) {
      const t0 = Date.now();
      while (!pred(messages) && Date.now() - t0 < ms) await sleep(20);
      return pred(messages);
    },
    // Every message queued for this socket before the pong comes first.
    async barrier() {
      const pongs = () => messages.filter((m) => m.type === "pong").length;
      const n = pongs();
      ws.send(JSON.stringify({ type: "ping" }));
      return c.until(() => pongs() > n);
    },
    mygames: (id) => messages.filter((m) => m.type === "mygame" && m.game.id === id).map((m) => m.game),
  };
  return c;
}

await main(async (defer) => {
  const srv = await startServer();
  defer(() => srv.stop());
  const base = srv.base;
  const ann = await account(base, "Ann"), ben = await account(base, "Ben"), cat = await account(base, "Cat");

  const A = channel(base, ann), G = channel(base), C = channel(base, cat);
  await Promise.all([A.open, G.open, C.open]);
  check(await A.until((m) => m.some((x) => x.type === "mine")), "a signed-in socket: its games at once");
  const first = A.messages.findIndex((x) => x.type === "mine");
  check(Array.isArray(A.messages[0]) && first === 1, "... after the seeks, as the second message", JSON.stringify(A.messages).slice(0, 200));
  eq(A.messages[first].games, [], "Ann has no game yet: an empty list");
  await G.barrier();
  check(!G.messages.some((x) => x.type === "mine"), "a guest's socket gets no list of games");

  // A correspondence game: Ann white (Epaminondas: white moves first).
  const s = await call(base, "POST", "/api/seeks", { game: "epaminondas", options: "", rated: false, colour: "white", clock: { days: 2 } }, ann);
  const gid = (await call(base, "POST", `/api/seeks/${s.body.id}/accept`, {}, ben)).body.game;
  check(await A.until(() => A.mygames(gid).length > 0), "the game that began is sent to Ann");
  const g0 = A.mygames(gid).at(-1);
  eq([g0.white, g0.black, g0.tomove, g0.ply, g0.yourTurn, typeof g0.clock.deadline], ["Ann", "Ben", "white", 0, true, "number"],
    "... as her list shows it: her turn, its deadline");
  const B = channel(base, ben);
  await B.open;
  check(await B.until((m) => m.some((x) => x.type === "mine")), "Ben's socket: his games at once");
  const bl = B.messages.find((x) => x.type === "mine").games;
  eq(bl.map((x) => [x.id, x.yourTurn]), [[gid, false]], "... listing the game, not his turn");

  let g = (await call(base, "GET", `/api/games/${gid}`, undefined, ann)).body;
  eq((await call(base, "POST", `/api/games/${gid}/moves`, { move: g.legal[0], ply: 0 }, ann)).status, 200, "Ann moves");
  check(await B.until(() => B.mygames(gid).some((x) => x.ply === 1 && x.yourTurn)), "Ben is told at once: his turn, ply 1");
  check(await A.until(() => A.mygames(gid).some((x) => x.ply === 1 && !x.yourTurn)), "Ann is told it is no longer hers");
  g = (await call(base, "GET", `/api/games/${gid}`, undefined, ben)).body;
  await call(base, "POST", `/api/games/${gid}/moves`, { move: g.legal[0], ply: 1 }, ben);
  check(await A.until(() => A.mygames(gid).some((x) => x.ply === 2 && x.yourTurn)), "Ben moves: Ann is told it is her turn again");

  // The lobby's lists move by themselves: every lobby socket (a guest's too)
  // is sent the games being played and who is online when they change.
  check(await G.until((m) => m.some((x) => x.type === "now" && x.playing.some((p) => p.id === gid && p.ply === 2))),
    "a guest's lobby socket is sent the games being played, at the ply reached", JSON.stringify(G.messages.filter((x) => x.type === "now").at(-1)));
  const lastNow = G.messages.filter((x) => x.type === "now").at(-1);
  check(lastNow.online.names.includes("Ann") && lastNow.online.names.includes("Ben") && lastNow.online.count === lastNow.online.names.length,
    "... and who is online", JSON.stringify(lastNow.online));
  await Promise.all([C.barrier(), G.barrier()]);
  check(!C.messages.some((x) => x.type === "mygame" || x.type === "rematch"), "a third player is told nothing of their game");
  check(!G.messages.some((x) => x.type === "mygame" || x.type === "rematch"), "nor is a guest");

  // The end, then a rematch offered by Ben.
  eq((await call(base, "POST", `/api/games/${gid}/resign`, {}, ann)).status, 200, "Ann resigns");
  check(await A.until(() => A.mygames(gid).some((x) => x.over === true)), "Ann is told the game is over");
  check(await B.until(() => B.mygames(gid).some((x) => x.over === true)), "... and Ben");
  eq((await call(base, "POST", `/api/games/${gid}/rematch`, {}, ben)).status, 202, "Ben offers a rematch");
  check(await A.until((m) => m.some((x) => x.type === "rematch" && x.game === gid && x.by === "Ben" && x.name === "epaminondas")),
    "Ann is told: Ben offers a rematch of that game");
  await B.barrier();
  check(!B.messages.some((x) => x.type === "rematch"), "Ben is not told of his own offer");

  // A challenge to Ann comes on her socket (the seeks list, hers).
  const ch = await call(base, "POST", "/api/seeks", { game: "urbino", options: "", rated: false, colour: "random", clock: { days: 1 }, to: "Ann" }, cat);
  check(await A.until((m) => m.some((x) => Array.isArray(x) && x.some((k) => k.id === ch.body.id && k.to === "Ann" && k.by === "Cat"))),
    "a challenge to Ann reaches her socket");
  await G.barrier();
  check(!G.messages.some((x) => Array.isArray(x) && x.some((k) => k.id === ch.body.id)), "a guest does not see it");
  // Declined with a reason: the maker is told it (a code the page words).
  const Cc = channel(base, cat);
  await Cc.open;
  eq((await call(base, "POST", `/api/seeks/${ch.body.id}/decline`, { reason: "whatever" }, ann)).status, 400, "an unknown reason: 400");
  eq((await call(base, "POST", `/api/seeks/${ch.body.id}/decline`, { reason: "later", note: "x" }, ann)).status, 400, "another field: 400");
  eq((await call(base, "POST", `/api/seeks/${ch.body.id}/decline`, { reason: "later" }, ann)).status, 200, "Ann declines: not now");
  check(await Cc.until((m) => m.some((x) => x.type === "declined" && x.seek === ch.body.id && x.by === "Ann" && x.reason === "later")),
    "Cat is told: declined by Ann, reason later", JSON.stringify(Cc.messages.filter((x) => x.type)));
  const ch2 = await call(base, "POST", "/api/seeks", { game: "urbino", options: "", rated: false, colour: "random", clock: { days: 1 }, to: "Ann" }, cat);
  eq((await call(base, "POST", `/api/seeks/${ch2.body.id}/decline`, {}, ann)).status, 200, "declined without a reason");
  check(await Cc.until((m) => m.some((x) => x.type === "declined" && x.seek === ch2.body.id && x.reason === "generic")), "... the reason is generic");
  Cc.ws.close();

  // Toscana: the messages about a game hold no deal.
  const ts = await call(base, "POST", "/api/seeks", { game: "toscana", options: "", rated: false, colour: "white", clock: { days: 2 } }, ann);
  const tid = (await call(base, "POST", `/api/seeks/${ts.body.id}/accept`, {}, cat)).body.game;
  check(await A.until(() => A.mygames(tid).length > 0), "a Toscana game is sent too");
  check(A.raw.every((t) => !/seed|white=\d|black=\d|stack/.test(t)), "no seed or stack in any message of Ann's channel");

  // A socket opened later lists the games where it is one's turn first.
  const A2 = channel(base, ann);
  await A2.open;
  check(await A2.until((m) => m.some((x) => x.type === "mine")), "a second page of Ann's gets the list");
  const l2 = A2.messages.find((x) => x.type === "mine").games;
  eq(l2.map((x) => x.id), [tid], "... her one unfinished game (the resigned one is gone)");
  for (const c of [A, A2, B, C, G]) c.ws.close();
});
