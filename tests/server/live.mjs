// live.mjs — the live socket and computer seats: the first message, one
// message per move for seats and spectators, reconnect and catch up with
// {"since": N}, ping; games against "random" and "ai:level=1" reach the end
// by themselves; hints, undo, resign, views and analysis of the extensions.
import { check, eq, get, live, main, post, sampleSets, sleep, startServer } from "./lib.mjs";

// The game messages a socket got (not pongs, presence or errors).
const gameMsgs = (s) => s.messages.filter((m) => !m.type);
// A barrier: ping and wait for this ping's pong; every message the server
// queued for the socket before it came first (one socket keeps its order).
async function barrier(s) {
  const pongs = () => s.messages.filter((m) => m.type === "pong").length;
  const n = pongs();
  s.send({ type: "ping" });
  return s.until(() => pongs() > n);
}

await main(async (defer) => {
  const srv = await startServer({ args: ["--ai-ms", "40"] });
  defer(() => srv.stop());
  const base = srv.base;

  // ---- two humans, two seat sockets and three spectators ----
  const c = await post(base, "/api/games", { game: "urbino", options: "", white: "human", black: "human" });
  const { id, seats } = c.body;
  const W = live(base, id, seats.white), B = live(base, id, seats.black);
  const specs = [live(base, id), live(base, id), live(base, id)];
  for (const s of [W, B, ...specs]) await s.open;
  check(await W.until((m) => m.length >= 1), "white's socket: first message");
  for (const s of [B, ...specs]) check(await s.until((m) => m.length >= 1), "first message on every socket");
  eq([W.messages[0].seat, W.messages[0].ply, W.messages[0].id], ["white", 0, id], "white's first message is the game as white");
  const first = W.messages[0].tomove === "white" ? [W, B] : [B, W];
  check(first[0].messages[0].legal.length > 0 && first[1].messages[0].legal.length === 0 && specs[0].messages[0].legal.length === 0,
    "legal only on the socket of the seat to act");
  let g = W.messages[0];
  const N = 8;
  for (let i = 0; i < N; i++) {
    const side = g.tomove;
    const view = (await get(base, `/api/games/${id}?seat=${seats[side]}`)).body;
    const r = await post(base, `/api/games/${id}/moves`, { seat: seats[side], move: view.legal[0], ply: view.ply });
    check(r.status === 200, "move", JSON.stringify(r.body));
    g = r.body;
  }
  for (const [name, s] of [["white", W], ["black", B], ["spectator", specs[2]]]) {
    check(await s.until((m) => m.length >= N + 1), `${name}: one message per move`, s.messages.length);
    // A barrier instead of a pause: whatever the moves made the server send
    // comes before its answer to a ping sent now.
    check(await barrier(s), `${name}: a ping answered after the moves`);
    eq(gameMsgs(s).map((m) => m.ply), Array.from({ length: N + 1 }, (_, i) => i), `${name}: exactly one message per move, in order`);
    eq(s.messages[N].moves, g.moves, `${name}: the last message has every move`);
  }
  const side = g.tomove;
  const sock = side === "white" ? W : B;
  check(sock.messages[N].legal.length > 0 && (side === "white" ? B : W).messages[N].legal.length === 0, "live legal for the seat to act only");

  // ping, since, bad messages
  W.send({ type: "ping" });
  check(await W.until((m) => m.some((x) => x.type === "pong")), "ping answered by pong");
  const before = gameMsgs(W).length;
  W.send({ since: N });
  check(await barrier(W), "a ping answered after since = current ply");
  eq(gameMsgs(W).length, before + 0, "since = current ply: nothing sent");
  W.send({ since: 3 });
  check(await W.until(() => gameMsgs(W).length === before + 1), "since = 3: the game again");
  eq(gameMsgs(W).at(-1).ply, N, "catch-up message is the current game");
  W.send({ hello: 1 });
  check(await W.until((m) => m.some((x) => x.type === "error")), "unknown message answered with an error");
  W.send("not json");
  check(await barrier(W) && W.closed() === null, "socket stays open after a bad message (and answers a ping after it)");

  // reconnect: a new socket catches up at once
  B.close();
  const mv = (await get(base, `/api/games/${id}?seat=${seats[g.tomove]}`)).body;
  g = (await post(base, `/api/games/${id}/moves`, { seat: seats[g.tomove], move: mv.legal[0], ply: mv.ply })).body;
  const B2 = live(base, id, seats.black);
  await B2.open;
  check(await B2.until((m) => m.length >= 1), "reconnected socket: first message");
  eq(B2.messages[0].ply, N + 1, "reconnected socket sees the move it missed");
  B2.send({ since: N });
  check(await B2.until((m) => m.length >= 2), "since after reconnect");

  // unknown game, wrong seat
  const bad = live(base, "AAAAAAAAAAAA");
  await bad.open.catch(() => {});
  check(await bad.until(() => false, 2000) === false && bad.closed() !== null, "socket for an unknown game is closed");
  check(bad.messages.length === 1 && typeof bad.messages[0].error === "string", "with an error message", JSON.stringify(bad.messages));
  const wrong = live(base, id, "x".repeat(43));
  await wrong.open.catch(() => {});
  await wrong.until(() => false, 2000);
  check(wrong.closed() !== null && wrong.messages.length === 1 && wrong.messages[0].error, "socket with a wrong seat token is refused");
  for (const s of [W, B2, ...specs]) s.close();

  // ---- computer seats reach the end, for every game ----
  const games = [...new Set((await sampleSets(base)).map((s) => s.game))];
  const started = [];
  for (const game of games) {
    for (const [white, black] of [["random", "random"], ["ai:level=1", "random"]]) {
      const options = game === "epaminondas" ? "maxplies=40" : game === "toscana" ? "seed=5" : "";
      const r = await post(base, "/api/games", { game, options, white, black });
      if (check(r.status === 201, `create ${game} ${white}/${black}`, JSON.stringify(r.body))) {
        eq(Object.keys(r.body.seats).length, 0, `${game}: computer seats have no token`);
        started.push({ game, white, black, id: r.body.id, sock: live(base, r.body.id) });
      }
    }
  }
  for (const s of started) {
    const ok = await s.sock.until((m) => m.length > 0 && m.at(-1).over, 120000);
    const last = s.sock.messages.at(-1) || {};
    check(ok, `${s.game} ${s.white} vs ${s.black} ends by itself`, `ply ${last.ply}`);
    const plies = s.sock.messages.map((m) => m.ply);
    check(plies.every((p, i) => i === 0 || p === plies[i - 1] + 1), `${s.game}: one live message per computer move`, plies.slice(0, 20).join(","));
    s.sock.close();
  }

  // ---- human against the computer: the computer answers; undo; hint; resign ----
  const h = await post(base, "/api/games", { game: "epaminondas", options: "", white: "human", black: "ai:level=1" });
  const hid = h.body.id, ht = h.body.seats.white;
  check(h.body.seats.black === undefined && typeof ht === "string", "human vs computer: one token");
  let hg = (await get(base, `/api/games/${hid}?seat=${ht}`)).body;
  const hint = await post(base, `/api/games/${hid}/hint`, { seat: ht });
  check(hint.status === 200 && hg.legal.includes(hint.body.move), "hint is a legal move", JSON.stringify(hint.body));
  check(hg.help === true, "against the computer: engine help allowed (help: true)");
  // Fair play (SPEC): between two people on separate screens, no hint until the game is over;
  // two people at one screen ("local": true) may have them.
  const link = await post(base, "/api/games", { game: "epaminondas", white: "human", black: "human" });
  const lg = (await get(base, `/api/games/${link.body.id}?seat=${link.body.seats.white}`)).body;
  const refused = await post(base, `/api/games/${link.body.id}/hint`, { seat: link.body.seats.white });
  check(refused.status === 403 && lg.help === false, "a game by link: hint refused with 403, help: false", `${refused.status} ${lg.help}`);
  const local = await post(base, "/api/games", { game: "epaminondas", white: "human", black: "human", local: true });
  const allowed = await post(base, `/api/games/${local.body.id}/hint`, { seat: local.body.seats.white });
  check(allowed.status === 200, "two people at one screen (local): hint allowed", allowed.status);
  const r1 = await post(base, `/api/games/${hid}/moves`, { seat: ht, move: hg.legal[0], ply: 0 });
  eq(r1.status, 200, "human move against the computer");
  const HS = live(base, hid, ht);
  check(await HS.until((m) => m.some((x) => x.ply === 2)), "computer answers by itself");
  hg = (await get(base, `/api/games/${hid}?seat=${ht}`)).body;
  eq([hg.ply, hg.tomove, hg.thinking], [2, "white", false], "after the computer's answer it is white's turn");
  const u = await post(base, `/api/games/${hid}/undo`, { seat: ht, ply: 2 });
  check(u.status === 200 && u.body.ply === 0 && u.body.tomove === "white", "undo takes back the move and the answer", JSON.stringify([u.status, u.body.ply]));
  eq((await post(base, `/api/games/${hid}/undo`, { seat: ht, ply: 0 })).status, 409, "nothing to undo: 409");
  eq((await post(base, `/api/games/${hid}/undo`, { seat: ht, ply: 5 })).status, 409, "undo at a stale ply: 409");
  eq((await post(base, `/api/games/${id}/undo`, { seat: seats.white, ply: g.ply })).status, 409, "undo between two humans: 409");
  const rs = await post(base, `/api/games/${hid}/resign`, { seat: ht });
  check(rs.status === 200 && rs.body.over && rs.body.winner === "black" && rs.body.resigned === "white", "resign: over, the other side wins", JSON.stringify(rs.body).slice(0, 200));
  eq((await post(base, `/api/games/${hid}/resign`, { seat: ht })).status, 409, "resign twice: 409");
  HS.close();

  // views of past plies, analysis of a finished game
  const v0 = await get(base, `/api/games/${id}/view?ply=0`);
  check(v0.status === 200 && v0.body.ply === 0 && v0.body.view.width === 9, "view of ply 0", JSON.stringify(v0.body).slice(0, 100));
  eq((await get(base, `/api/games/${id}/view?ply=999`)).status, 400, "view of a ply not played: 400");
  eq((await get(base, `/api/games/${id}/view?ply=x`)).status, 400, "view of a bad ply: 400");
  const fin = started[0];
  let an;
  for (let i = 0; i < 200; i++) {
    an = (await get(base, `/api/games/${fin.id}/analysis`)).body;
    if (an.done) break;
    await sleep(100);
  }
  const fg = (await get(base, `/api/games/${fin.id}`)).body;
  check(an.done && an.plies.length === fg.ply, "analysis of a finished game is done with one entry per ply", JSON.stringify([an.done, an.plies.length, fg.ply]));
  check(an.plies.every((p, i) => p.move === fg.moves[i] && p.value >= 0 && p.value <= 1 && ["", "?", "??"].includes(p.mark)), "analysis entries");
  const unf = (await get(base, `/api/games/${id}/analysis`)).body;
  eq(unf, { done: false, plies: [] }, "no analysis while the game goes on");

  // presence (asked for with ?presence=1): who has a seat's socket open; a
  // socket that did not ask gets only the game
  {
    const p = await post(base, "/api/games", { game: "epaminondas", options: "", white: "human", black: "human" });
    const pid = p.body.id, ps = p.body.seats;
    const pres = (s) => s.messages.filter((m) => m.type === "presence");
    const PW = live(base, pid, ps.white, "presence=1");
    await PW.open;
    check(await PW.until((m) => pres(PW).length >= 1), "presence: told at once");
    eq(pres(PW)[0], { type: "presence", white: true, black: false }, "presence: white here, black not yet");
    const PS = live(base, pid, null, "presence=1"), plain = live(base, pid);
    await PS.open; await plain.open;
    const PB = live(base, pid, ps.black);
    await PB.open;
    check(await PW.until((m) => pres(PW).length >= 2), "presence: black's socket is seen");
    eq(pres(PW)[1], { type: "presence", white: true, black: true }, "presence: both here");
    check(await PS.until((m) => pres(PS).some((x) => x.black)), "a spectator who asked sees it too");
    PB.close();
    check(await PW.until((m) => pres(PW).length >= 3), "presence: black's tab closed is seen");
    eq(pres(PW)[2], { type: "presence", white: true, black: false }, "presence: black gone");
    check(await barrier(plain), "a ping answered on the socket that did not ask, after black came and went");
    check(gameMsgs(plain).length === 1 && gameMsgs(plain)[0].id === pid && plain.messages.every((m) => !m.type || m.type === "pong"),
      "a socket that did not ask: the game only", JSON.stringify(plain.messages.map((m) => m.type ?? "game")));
    const c2 = await post(base, "/api/games", { game: "urbino", options: "", white: "human", black: "ai:level=1" });
    const AW = live(base, c2.body.id, c2.body.seats.white, "presence=1");
    check(await AW.until((m) => pres(AW).length >= 1), "presence in a game against the computer");
    eq(pres(AW)[0], { type: "presence", white: true, black: true }, "the computer is always here");
    for (const s of [PW, PS, plain, AW]) s.close();
  }

  // rematch: a finished game's seats play again, colours swapped, with the
  // same tokens; made once, whoever asks first
  {
    const r0 = await post(base, "/api/games", { game: "cathedral", options: "opening=late", white: "human", black: "human" });
    const rid = r0.body.id, rs = r0.body.seats;
    const RL = live(base, rid);
    await RL.open;
    eq((await post(base, `/api/games/${rid}/rematch`, { seat: rs.white })).status, 409, "no rematch while the game goes on");
    await post(base, `/api/games/${rid}/resign`, { seat: rs.white });
    eq((await post(base, `/api/games/${rid}/rematch`, { seat: "nope" })).status, 403, "a rematch needs a seat");
    eq((await post(base, `/api/games/${rid}/rematch`, {})).status, 400, "a rematch without a seat: 400");
    const m1 = await post(base, `/api/games/${rid}/rematch`, { seat: rs.black });
    check(m1.status === 201 && typeof m1.body.id === "string" && m1.body.seat === "white", "rematch: 201, the new game, black now plays white", JSON.stringify(m1.body));
    const m2 = await post(base, `/api/games/${rid}/rematch`, { seat: rs.white });
    check(m2.status === 200 && m2.body.id === m1.body.id && m2.body.seat === "black", "asked by the other side: the same game, 200", JSON.stringify(m2.body));
    const ng = (await get(base, `/api/games/${m1.body.id}?seat=${rs.black}`)).body;
    check(ng.seat === "white" && ng.ply === 0 && ng.game === "cathedral" && ng.options === "opening=late", "the new game keeps the game and its options", JSON.stringify([ng.seat, ng.ply, ng.options]));
    eq((await get(base, `/api/games/${m1.body.id}?seat=${rs.white}`)).body.seat, "black", "white's old token is black's seat now");
    check(await RL.until((m) => m.some((x) => x.rematch === m1.body.id)), "the old game's viewers are told (rematch)");
    eq((await get(base, `/api/games/${rid}`)).body.rematch, m1.body.id, "the old game names its rematch");
    eq((await get(base, `/api/games/${m1.body.id}`)).body.rematch, null, "a game without one: null");
    RL.close();
  }

  // idle live sockets (--live-idle 2): pinged after 1 s of silence, closed
  // after 2 s unless something comes back; a client that answers pings stays
  {
    const idleSrv = await startServer({ args: ["--live-idle", "2"] });
    const ig = await post(idleSrv.base, "/api/games", { game: "urbino", options: "", white: "human", black: "human" });
    const polite = live(idleSrv.base, ig.body.id);   // node's ws answers pings by itself
    await polite.open;
    let pings = 0;
    polite.ws.on("ping", () => pings++);
    // A client that never answers: the handshake by hand, then silence.
    const net = await import("node:net");
    const port = Number(new URL(idleSrv.base).port);
    const rude = net.connect(port, "127.0.0.1");
    let rudeData = "", rudeClosed = false;
    rude.on("data", (d) => { rudeData += d.toString("latin1"); });
    rude.on("close", () => { rudeClosed = true; });
    rude.on("error", () => {});
    await new Promise((r) => rude.once("connect", r));
    rude.write(`GET /api/games/${ig.body.id}/live HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
      "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n");
    const t0 = Date.now();
    while (!rudeClosed && Date.now() - t0 < 8000) await sleep(100);
    check(rudeData.startsWith("HTTP/1.1 101"), "a hand-made live socket opened", rudeData.slice(0, 40));
    check(rudeClosed && Date.now() - t0 >= 1500, "a live socket that never answers is closed after --live-idle", `${Date.now() - t0} ms`);
    check(/\x89\x01t/.test(rudeData), "... after a ping it did not answer");
    check(polite.closed() === null && pings >= 1, "a socket that answers pings stays open", JSON.stringify([polite.closed(), pings]));
    // A server held up past both limits (stopped 3 s, as a loaded or paused
    // machine can be) pings before it closes: the socket that answers stays.
    const before = pings;
    idleSrv.child.kill("SIGSTOP");
    await sleep(3000);
    idleSrv.child.kill("SIGCONT");
    const t1 = Date.now();
    while (pings === before && polite.closed() === null && Date.now() - t1 < 5000) await sleep(50);
    await sleep(1500);   // past the grace a ping has (live-idle / 2)
    check(polite.closed() === null && pings > before, "after a 3 s stop the server pinged before closing, and the socket that answered stays",
      JSON.stringify([polite.closed(), pings - before]));
    polite.close();
    rude.destroy();
    await idleSrv.stop();
  }

  // With a longer --live-idle the sweep looks at one part of the games each
  // 200 ms (a game's sockets every live-idle/20): silent sockets on games all
  // over the server are still each pinged, and closed no sooner than
  // --live-idle and no later than its jitter (a quarter) and a pass after.
  {
    const idleSrv = await startServer({ args: ["--live-idle", "12"] });
    const net = await import("node:net");
    const port = Number(new URL(idleSrv.base).port);
    const rudes = [];
    for (let i = 0; i < 12; i++) {
      const g = await post(idleSrv.base, "/api/games", { game: "urbino", options: "", white: "human", black: "human" });
      const r = { data: "", closedAt: 0, sock: net.connect(port, "127.0.0.1") };
      r.sock.on("data", (d) => { r.data += d.toString("latin1"); });
      r.sock.on("close", () => { r.closedAt = Date.now(); });
      r.sock.on("error", () => {});
      await new Promise((res) => r.sock.once("connect", res));
      r.sock.write(`GET /api/games/${g.body.id}/live HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
        "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n");
      rudes.push(r);
    }
    const t0 = Date.now();
    while (rudes.some((r) => !r.closedAt) && Date.now() - t0 < 25000) await sleep(100);
    const after = rudes.map((r) => (r.closedAt ? r.closedAt - t0 : -1));
    check(rudes.every((r) => r.data.startsWith("HTTP/1.1 101")), "twelve silent live sockets opened (--live-idle 12)");
    check(rudes.every((r) => /\x89\x01t/.test(r.data)), "each of them was pinged", JSON.stringify(rudes.map((r) => /\x89\x01t/.test(r.data))));
    check(after.every((ms) => ms >= 11500 && ms <= 12000 + 3000 + 600 + 2000), "each closed after 12 s and within its jitter and a pass more",
      JSON.stringify(after));
    for (const r of rudes) r.sock.destroy();
    await idleSrv.stop();
  }
});
