// bots.mjs — SPEC "Bots": an account made a bot (409 after a game), API
// tokens (made with the cookie, shown once, listed, used as Authorization:
// Bearer with no cookie and no Origin check, revoked; a wrong or revoked
// token 401), the event socket (challenges at once, then as they come;
// challengeCanceled; gameStart and gameFinish), declining a challenge (the
// maker told on the lobby socket), bots refused open seeks, a bot moving
// in its game with the token alone; the leaderboard and game JSON marks.
import WebSocket from "ws";
import { PG, check, eq, main, request, sleep, startServer } from "./lib.mjs";

async function call(base, method, path, body, auth) {
  const headers = {};
  if (auth && auth.startsWith("Bearer ")) headers.authorization = auth;
  else if (auth) headers.cookie = auth;
  return request(base, method, path, body, { headers });
}

async function account(base, name) {
  const r = await call(base, "POST", "/api/account", { name, password: `${name} password` });
  check(r.status === 201, `account ${name}`, JSON.stringify(r.body));
  return (r.headers.get("set-cookie") ?? "").split(";")[0];
}

// A socket collecting its messages (headers: a cookie or a bearer token).
function socket(base, path, headers = {}) {
  const ws = new WebSocket(base.replace("http", "ws") + path, { headers });
  const messages = [];
  let closed = false;
  ws.on("message", (d) => messages.push(JSON.parse(String(d))));
  ws.on("close", () => { closed = true; });
  ws.on("error", () => {});
  const open = new Promise((res, rej) => { ws.once("open", res); ws.once("error", rej); });
  return {
    ws, messages, open, closed: () => closed,
    async until(pred, ms = 10000) {
      const t0 = Date.now();
      while (!pred(messages) && Date.now() - t0 < ms) await sleep(20);
      return pred(messages);
    },
    close() { ws.close(); },
  };
}

const CLOCK = { initial: 300, increment: 2 };

await main(async (defer) => {
  const srv = await startServer();
  defer(() => srv.stop());
  const base = srv.base;
  const ann = await account(base, "Ann"), robo = await account(base, "Robo"), played = await account(base, "Played");

  // ---- a bot account ----
  eq((await call(base, "POST", "/api/account/bot", {})).status, 401, "making a bot signed out: 401");
  const made = await call(base, "POST", "/api/account/bot", {}, robo);
  eq([made.status, made.body.bot], [200, true], "POST /api/account/bot: 200, the account is a bot");
  eq((await call(base, "GET", "/api/players/Robo")).body.bot, true, "GET /api/players/Robo says \"bot\": true");
  eq((await call(base, "GET", "/api/players/Ann")).body.bot, undefined, "a person's profile says nothing of bots");
  eq((await call(base, "POST", "/api/account/bot", {}, robo)).status, 200, "making a bot a bot again: 200");
  // An account that has played: a game against the computer, rated.
  const cpu = await call(base, "POST", "/api/games", { game: "urbino", white: "human", black: "ai:level=1", rated: true, clock: CLOCK }, played);
  check(cpu.status === 201, "an account plays a rated game against the computer", JSON.stringify(cpu.body));
  eq((await call(base, "POST", "/api/account/bot", {}, played)).status, 409, "an account that has played a game cannot become a bot: 409");
  eq((await call(base, "GET", "/api/players/Played")).body.bot, undefined, "... and is no bot");

  // ---- tokens ----
  eq((await call(base, "POST", "/api/tokens", {})).status, 401, "a token signed out: 401");
  const t1 = await call(base, "POST", "/api/tokens", {}, robo);
  check(t1.status === 201 && typeof t1.body.id === "string" && /^tvb_[A-Za-z0-9_-]{43}$/.test(t1.body.token),
    "POST /api/tokens: 201 {id, token}", JSON.stringify(t1.body));
  const bearer = `Bearer ${t1.body.token}`;
  const list = await call(base, "GET", "/api/tokens", undefined, robo);
  check(list.status === 200 && list.body.length === 1 && list.body[0].id === t1.body.id &&
    typeof list.body[0].created === "number" && "used" in list.body[0] && !JSON.stringify(list.body).includes(t1.body.token),
  "GET /api/tokens lists it ({id, created, used}) without the token", JSON.stringify(list.body));
  const me = await call(base, "GET", "/api/me", undefined, bearer);
  eq([me.status, me.body.name, me.body.bot], [200, "Robo", true], "a bearer request acts as the account (GET /api/me)");
  let used;
  for (let i = 0; i < 100; i++) {
    used = await call(base, "GET", "/api/tokens", undefined, robo);
    if (typeof used.body[0].used === "number") break;
    await sleep(50);
  }
  check(typeof used.body[0].used === "number" && used.body[0].used > 0, "the token's last use is listed once used", JSON.stringify(used.body));
  eq((await call(base, "GET", "/api/me", undefined, "Bearer tvb_" + "A".repeat(43))).status, 401, "an unknown token: 401");
  eq((await call(base, "GET", "/api/me", undefined, "Bearer nonsense")).status, 401, "a malformed token: 401");
  eq((await request(base, "GET", "/api/me", undefined, { headers: { authorization: "Basic abc" } })).status, 401,
    "an Authorization header that is not a bearer token: 401");
  eq((await request(base, "GET", "/api/seeks", undefined, { headers: { authorization: "Bearer tvb_x" } })).status, 401,
    "a wrong token is refused even where no sign-in is needed");
  // No Origin check for a bearer request (a program, not a page).
  const originReq = await request(base, "POST", "/api/tokens", {}, { headers: { authorization: bearer, origin: "http://evil.example" } });
  eq(originReq.status, 403, "a token cannot make tokens (403), whatever its Origin");
  const seekByOrigin = await request(base, "POST", "/api/seeks", { game: "urbino", options: "", rated: false, colour: "white", clock: CLOCK, to: "Ann" },
    { headers: { authorization: bearer, origin: "http://evil.example" } });
  eq(seekByOrigin.status, 201, "a bearer request with a foreign Origin is no cookie request: a challenge is made (201)");
  eq((await call(base, "DELETE", `/api/seeks/${seekByOrigin.body.id}`, undefined, bearer)).status, 200, "the bot withdraws its challenge with its token");
  eq((await call(base, "POST", "/api/password", { old: "Robo password", new: "another password 1" }, bearer)).status, 403,
    "a token cannot change the password");
  // The limit: at most 10 tokens.
  const more = [];
  for (let i = 0; i < 9; i++) more.push(await call(base, "POST", "/api/tokens", {}, robo));
  check(more.every((r) => r.status === 201), "nine more tokens: 201 each");
  eq((await call(base, "POST", "/api/tokens", {}, robo)).status, 429, "an eleventh token: 429 (at most 10)");
  for (const r of more) eq((await call(base, "DELETE", `/api/tokens/${r.body.id}`, undefined, robo)).status, 200, "a spare token revoked: 200");
  eq((await call(base, "DELETE", `/api/tokens/${t1.body.id}`, undefined, ann)).status, 404, "another account cannot revoke it: 404");
  eq((await call(base, "GET", "/api/me", undefined, bearer)).status, 200, "... and it still works");

  // ---- bots and the lobby ----
  eq((await call(base, "POST", "/api/seeks", { game: "urbino", options: "", rated: false, colour: "white", clock: CLOCK }, bearer)).status, 403,
    "a bot's open seek: 403");
  const open = await call(base, "POST", "/api/seeks", { game: "urbino", options: "", rated: false, colour: "white", clock: CLOCK }, ann);
  eq((await call(base, "POST", `/api/seeks/${open.body.id}/accept`, {}, bearer)).status, 403, "a bot accepting an open seek: 403");
  eq((await call(base, "DELETE", `/api/seeks/${open.body.id}`, undefined, ann)).status, 200, "Ann withdraws her open seek");

  // ---- the event socket ----
  const L = socket(base, "/api/lobby", { cookie: ann });
  await L.open;
  const c1 = await call(base, "POST", "/api/seeks", { game: "urbino", options: "", rated: true, colour: "white", clock: CLOCK, to: "Robo" }, ann);
  eq(c1.status, 201, "Ann challenges Robo (rated, white)");
  const noTok = socket(base, "/api/bot/events");
  await noTok.open.catch(() => {});
  check(await noTok.until((m) => m.some((x) => x.type === "error")) && await noTok.until(() => noTok.closed()),
    "the event socket without a token: an error, then closed");
  const badTok = socket(base, "/api/bot/events", { authorization: "Bearer tvb_" + "B".repeat(43) });
  await badTok.open.catch(() => {});
  check(await badTok.until((m) => m.some((x) => x.type === "error" && x.status === 401)), "the event socket with an unknown token: 401 error");
  const annTok = await call(base, "POST", "/api/tokens", {}, ann);
  const personEv = socket(base, "/api/bot/events", { authorization: `Bearer ${annTok.body.token}` });
  await personEv.open.catch(() => {});
  check(await personEv.until((m) => m.some((x) => x.type === "error")), "a person's token opens no event socket");
  await call(base, "DELETE", `/api/tokens/${annTok.body.id}`, undefined, ann);

  const E = socket(base, "/api/bot/events", { authorization: bearer });
  await E.open;
  check(await E.until((m) => m.some((x) => x.type === "challenge" && x.seek.id === c1.body.id)), "at once: the open challenge to the bot");
  const ch = E.messages.find((x) => x.type === "challenge");
  eq([ch.seek.by, ch.seek.to, ch.seek.game, ch.seek.rated, ch.seek.colour, ch.seek.clock], ["Ann", "Robo", "urbino", true, "white", CLOCK],
    "the challenge is the seek's JSON as GET /api/seeks shows it");
  const c2 = await call(base, "POST", "/api/seeks", { game: "epaminondas", options: "", rated: false, colour: "black", clock: CLOCK, to: "Robo" }, ann);
  check(await E.until((m) => m.some((x) => x.type === "challenge" && x.seek.id === c2.body.id)), "a new challenge comes as it is made");
  eq((await call(base, "DELETE", `/api/seeks/${c2.body.id}`, undefined, ann)).status, 200, "Ann withdraws the second challenge");
  check(await E.until((m) => m.some((x) => x.type === "challengeCanceled" && x.seek === c2.body.id)), "challengeCanceled when it is withdrawn");
  const c3 = await call(base, "POST", "/api/seeks", { game: "cathedral", options: "", rated: false, colour: "random", clock: CLOCK, to: "Robo" }, ann);
  check(await E.until((m) => m.some((x) => x.type === "challenge" && x.seek.id === c3.body.id)), "a third challenge comes");
  eq((await call(base, "POST", `/api/seeks/${c3.body.id}/decline`, {}, ann)).status, 403, "the maker cannot decline: 403");
  eq((await call(base, "POST", `/api/seeks/${c3.body.id}/decline`, {})).status, 401, "declining signed out: 401");
  eq((await call(base, "POST", "/api/seeks/AAAAAAAAAAAA/decline", {}, bearer)).status, 404, "declining an unknown seek: 404");
  eq((await call(base, "POST", `/api/seeks/${c3.body.id}/decline`, {}, bearer)).status, 200, "the bot declines it: 200");
  check(await L.until((m) => m.some((x) => x.type === "declined" && x.seek === c3.body.id && x.by === "Robo")),
    "the maker is told on the lobby socket: declined");
  check(await E.until((m) => m.some((x) => x.type === "challengeCanceled" && x.seek === c3.body.id)), "the bot's socket: challengeCanceled");
  check(!(await call(base, "GET", "/api/seeks", undefined, ann)).body.some((k) => k.id === c3.body.id), "the declined challenge is gone");

  // Accepting with the token: gameStart; the bot plays with its token alone.
  const acc = await call(base, "POST", `/api/seeks/${c1.body.id}/accept`, {}, bearer);
  eq(acc.status, 201, "the bot accepts the challenge with its token: 201");
  const gid = acc.body.game;
  check(await E.until((m) => m.some((x) => x.type === "gameStart" && x.game === gid)), "gameStart on the event socket");
  check(!E.messages.some((x) => x.type === "challengeCanceled" && x.seek === c1.body.id), "an accepted challenge is not 'canceled'");
  check(await L.until((m) => m.some((x) => x.type === "started" && x.game === gid)), "Ann is told the game started");
  eq((await call(base, "POST", "/api/account/bot", {}, ann)).status, 409, "Ann, who has a game now, cannot become a bot");
  let g = (await call(base, "GET", `/api/games/${gid}`, undefined, bearer)).body;
  eq([g.accounts, g.bots, g.seat], [{ white: "Ann", black: "Robo" }, { white: false, black: true }, "black"],
    "the game's JSON: accounts, which side is a bot; the bot sees it as black");
  const live = socket(base, `/api/games/${gid}/live`, { authorization: bearer });
  await live.open;
  check(await live.until((m) => m.some((x) => x.id === gid && x.seat === "black")), "the bot follows its game live with its token, as its side");
  // Urbino: black places the first architect.
  const mv = await call(base, "POST", `/api/games/${gid}/moves`, { move: g.legal[0], ply: 0 }, bearer);
  eq(mv.status, 200, "the bot moves with its token alone");
  check(await live.until((m) => m.some((x) => x.id === gid && x.moves && x.moves.length === 1)), "the live socket shows its move");
  // A second event socket opened now lists the unfinished game at once.
  const E2 = socket(base, "/api/bot/events", { authorization: bearer });
  await E2.open;
  check(await E2.until((m) => m.some((x) => x.type === "gameStart" && x.game === gid)), "a new event socket: the unfinished game at once");
  eq((await call(base, "GET", "/api/bots")).body, [{ name: "Robo" }], "GET /api/bots: the bots online");
  eq((await call(base, "POST", `/api/games/${gid}/resign`, {}, ann)).status, 200, "Ann resigns");
  check(await E.until((m) => m.some((x) => x.type === "gameFinish" && x.game === gid)), "gameFinish on the event socket");
  check(await E2.until((m) => m.some((x) => x.type === "gameFinish" && x.game === gid)), "... and on the second");
  const lb = await call(base, "GET", "/api/leaderboard/urbino");
  check(lb.body.players.some((p) => p.name === "Robo" && p.bot === true) && lb.body.players.some((p) => p.name === "Ann" && p.bot === undefined),
    "the leaderboard marks the bot", JSON.stringify(lb.body.players));

  // A bot challenges a person: the person accepts; the bot hears gameStart.
  const bc = await call(base, "POST", "/api/seeks", { game: "urbino", options: "", rated: false, colour: "black", clock: CLOCK, to: "Ann" }, bearer);
  eq(bc.status, 201, "a bot challenges a person with its token");
  check(!E.messages.some((x) => x.type === "challenge" && x.seek.id === bc.body.id), "its own challenge is not told to it as one to accept");
  const pa = await call(base, "POST", `/api/seeks/${bc.body.id}/accept`, {}, ann);
  eq(pa.status, 201, "Ann accepts the bot's challenge");
  check(await E.until((m) => m.some((x) => x.type === "gameStart" && x.game === pa.body.game)), "gameStart for the bot's own challenge");
  await call(base, "POST", `/api/games/${pa.body.game}/abort`, {}, ann);
  check(await E.until((m) => m.some((x) => x.type === "gameFinish" && x.game === pa.body.game)), "gameFinish once aborted");

  // Revoked: refused at once, on requests and sockets.
  eq((await call(base, "DELETE", `/api/tokens/${t1.body.id}`, undefined, robo)).status, 200, "DELETE /api/tokens/ID: 200");
  eq((await call(base, "GET", "/api/me", undefined, bearer)).status, 401, "a revoked token: 401");
  eq((await call(base, "GET", "/api/tokens", undefined, robo)).body, [], "no token left");
  const E3 = socket(base, "/api/bot/events", { authorization: bearer });
  await E3.open.catch(() => {});
  check(await E3.until((m) => m.some((x) => x.type === "error" && x.status === 401)), "the event socket with a revoked token: 401 error");
  for (const s of [L, E, E2, live, noTok, badTok, personEv, E3]) s.close();
  check(!/tvb_/.test(srv.output() + srv.errors()), "no token in the server's output");

  // ---- a bot plays at most 20 games at once (CORE_BOT_GAMES_MAX) ----
  const volley = await account(base, "Volley");
  eq((await call(base, "POST", "/api/account/bot", {}, volley)).status, 200, "Volley becomes a bot");
  const vt = `Bearer ${(await call(base, "POST", "/api/tokens", {}, volley)).body.token}`;
  const people = [await account(base, "Pam"), await account(base, "Pia"), await account(base, "Pol")];
  const codes = [];
  for (let i = 0; i < 21; i++) {
    const c = await call(base, "POST", "/api/seeks", { game: "urbino", options: "", rated: false, colour: "white", clock: { days: 3 }, to: "Volley" }, people[i % 3]);
    codes.push(c.status === 201 ? (await call(base, "POST", `/api/seeks/${c.body.id}/accept`, {}, vt)).status : `seek ${c.status}`);
  }
  eq([codes.slice(0, 20).every((x) => x === 201), codes[20]], [true, 429], "20 games at once accepted; the 21st is 429 until one ends");
  // ---- two instances on one PostgreSQL: what one knows, the other tells ----
  if (PG) {
    const A = await startServer({ db: "bots-shared" }), Bs = await startServer({ db: "bots-shared" });
    defer(() => A.stop());
    defer(() => Bs.stop());
    const zed = await account(A.base, "Zed"), bob = await account(A.base, "Bob");
    eq((await call(A.base, "POST", "/api/account/bot", {}, zed)).status, 200, "two instances: Zed made a bot on A");
    eq((await call(Bs.base, "GET", "/api/players/Zed")).body.bot, true, "... B says Zed is a bot");
    const zt = await call(A.base, "POST", "/api/tokens", {}, zed);
    const zb = `Bearer ${zt.body.token}`;
    eq((await call(Bs.base, "GET", "/api/me", undefined, zb)).status, 200, "a token made on A works on B");
    const EB = socket(Bs.base, "/api/bot/events", { authorization: zb });
    await EB.open;
    const LA = socket(A.base, "/api/lobby", { cookie: bob });
    await LA.open;
    const x1 = await call(A.base, "POST", "/api/seeks", { game: "urbino", options: "", rated: false, colour: "white", clock: CLOCK, to: "Zed" }, bob);
    check(await EB.until((m) => m.some((x) => x.type === "challenge" && x.seek.id === x1.body.id)), "a challenge made on A reaches the bot's socket on B");
    const x2 = await call(A.base, "POST", "/api/seeks", { game: "cathedral", options: "", rated: false, colour: "white", clock: CLOCK, to: "Zed" }, bob);
    check(await EB.until((m) => m.some((x) => x.type === "challenge" && x.seek.id === x2.body.id)), "a second one too");
    eq((await call(Bs.base, "POST", `/api/seeks/${x2.body.id}/decline`, {}, zb)).status, 200, "the bot declines on B");
    check(await LA.until((m) => m.some((x) => x.type === "declined" && x.seek === x2.body.id)), "the maker's lobby socket on A is told");
    const xa = await call(A.base, "POST", `/api/seeks/${x1.body.id}/accept`, {}, zb);
    eq(xa.status, 201, "the bot accepts on A");
    check(await EB.until((m) => m.some((x) => x.type === "gameStart" && x.game === xa.body.game)), "gameStart on B's socket for a game made on A");
    eq((await call(A.base, "POST", `/api/games/${xa.body.game}/abort`, {}, bob)).status, 200, "Bob aborts on A");
    check(await EB.until((m) => m.some((x) => x.type === "gameFinish" && x.game === xa.body.game)), "gameFinish on B's socket");
    eq((await call(A.base, "DELETE", `/api/tokens/${zt.body.id}`, undefined, zed)).status, 200, "the token revoked on A");
    eq((await call(Bs.base, "GET", "/api/me", undefined, zb)).status, 401, "... is refused by B at once");
    EB.close();
    LA.ws.close();
  }
});
