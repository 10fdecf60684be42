// lobby.mjs — SPEC "The lobby" and "Ratings" over HTTP and the lobby
// socket: two accounts, a seek, two accepts at once (exactly one wins), the
// seeker told on the lobby socket, a rated game moved by session cookies
// alone (others refused), the ratings after it exactly as Glicko-2 says for
// two new players, both profiles listing the game; withdrawing seeks; abort.
import WebSocket from "ws";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { check, eq, main, request, setTestClock, sleep, startServer, tempDir, until } from "./lib.mjs";

async function call(base, method, path, body, cookie) {
  return request(base, method, path, body, { headers: cookie ? { cookie } : {} });
}

async function account(base, name) {
  const r = await call(base, "POST", "/api/account", { name, password: `${name} password` });
  check(r.status === 201, `account ${name}`, JSON.stringify(r.body));
  return (r.headers.get("set-cookie") ?? "").split(";")[0];
}

// A lobby socket (with a cookie) collecting its messages.
function lobby(base, cookie) {
  const ws = new WebSocket(base.replace("http", "ws") + "/api/lobby", { headers: cookie ? { cookie } : {} });
  const messages = [];
  ws.on("message", (d) => messages.push(JSON.parse(String(d))));
  ws.on("error", () => {});
  const open = new Promise((res, rej) => { ws.once("open", res); ws.once("error", rej); });
  return {
    ws, messages, open,
    async until(pred, ms = 10000) {
      const t0 = Date.now();
      while (!pred(messages) && Date.now() - t0 < ms) await sleep(20);
      return pred(messages);
    },
  };
}

await main(async (defer) => {
  const dir = tempDir();
  const clockFile = join(dir, "offset");
  writeFileSync(clockFile, "0");
  const srv = await startServer({ args: ["--test-clock", clockFile] });
  defer(() => srv.stop());
  const base = srv.base;
  const ann = await account(base, "Ann"), ben = await account(base, "Ben"), cat = await account(base, "Cat");

  eq((await call(base, "POST", "/api/seeks", { game: "urbino", options: "", rated: true, colour: "white", clock: { initial: 300, increment: 5 } })).status,
    401, "a seek signed out: 401");
  const L = lobby(base, ann), spect = lobby(base);
  await L.open; await spect.open;
  check(await L.until((m) => m.length >= 1) && Array.isArray(L.messages[0]), "the lobby socket: the seeks at once");
  const s1 = await call(base, "POST", "/api/seeks", { game: "urbino", options: "", rated: true, colour: "white", clock: { initial: 300, increment: 5 } }, ann);
  check(s1.status === 201 && typeof s1.body.id === "string", "a seek: 201 and its id", JSON.stringify(s1.body));
  const list = (await call(base, "GET", "/api/seeks")).body;
  eq(list, [{ id: s1.body.id, game: "urbino", options: "", rated: true, colour: "white", clock: { initial: 300, increment: 5 }, by: "Ann", rating: 1500, provisional: true }],
    "GET /api/seeks lists it");
  check(await spect.until((m) => m.some((x) => Array.isArray(x) && x.some((k) => k.id === s1.body.id))), "a guest's lobby socket sees it come");
  for (const [bad, why] of [[{ game: "chess", options: "" }, "an unknown game"], [{ game: "toscana", options: "seed=4" }, "a chosen deal"],
    [{ game: "urbino", clock: { initial: 5, increment: 0 } }, "a 5 s clock"], [{ game: "urbino", clock: { days: 4 } }, "4 days a move"],
    [{ game: "urbino", colour: "green" }, "a colour"], [{ game: "urbino", clock: { minutes: 3 } }, "an unknown clock field"]])
    eq((await call(base, "POST", "/api/seeks", bad, ben)).status, 400, `a seek with ${why}: 400`);

  eq((await call(base, "POST", `/api/seeks/${s1.body.id}/accept`, {}, ann)).status, 409, "accepting one's own seek: 409");
  eq((await call(base, "POST", `/api/seeks/${s1.body.id}/accept`, {})).status, 401, "accepting signed out: 401");
  eq((await call(base, "POST", "/api/seeks/AAAAAAAAAAAA/accept", {}, ben)).status, 404, "an unknown seek: 404");
  const [a1, a2] = await Promise.all([call(base, "POST", `/api/seeks/${s1.body.id}/accept`, {}, ben), call(base, "POST", `/api/seeks/${s1.body.id}/accept`, {}, cat)]);
  const won = a1.status === 201 ? a1 : a2, lost = a1.status === 201 ? a2 : a1;
  const winnerCookie = a1.status === 201 ? ben : cat, winnerName = a1.status === 201 ? "Ben" : "Cat";
  eq([won.status, lost.status].sort(), [201, 409], "two accepts at once: exactly one gets the game (201), the other 409");
  const gid = won.body.game;
  eq((await call(base, "POST", `/api/seeks/${s1.body.id}/accept`, {}, won === a1 ? cat : ben)).status, 409, "accepting a seek taken earlier: 409");
  check(await L.until((m) => m.some((x) => x.type === "started" && x.game === gid)), "the seeker is told on the lobby socket: started");
  check(!spect.messages.some((x) => x.type === "started"), "a guest's socket is not told of others' games");
  eq((await call(base, "GET", "/api/seeks")).body, [], "the seek is gone");
  const other = winnerName === "Ben" ? cat : ben;

  let g = (await call(base, "GET", `/api/games/${gid}`, undefined, ann)).body;
  eq([g.accounts, g.rated, g.end, g.clock === null || typeof g.clock === "object", g.seat], [{ white: "Ann", black: winnerName }, true, null, true, "white"],
    "the game: accounts, rated, not ended; Ann (the seeker, white) sees it as white");
  // Urbino: black places the first architect.
  const bv = (await call(base, "GET", `/api/games/${gid}`, undefined, winnerCookie)).body;
  eq(bv.seat, "black", "the accepter sees it as black");
  eq((await call(base, "POST", `/api/games/${gid}/moves`, { move: bv.legal[0], ply: 0 }, other)).status, 403, "another signed-in player cannot move: 403");
  eq((await call(base, "POST", `/api/games/${gid}/moves`, { move: bv.legal[0], ply: 0 })).status, 400, "nobody signed in, no seat: 400");
  eq((await call(base, "POST", `/api/games/${gid}/moves`, { move: bv.legal[0], ply: 0 }, ann)).status, 409, "the other player, not their turn: 409");
  const mv = await call(base, "POST", `/api/games/${gid}/moves`, { move: bv.legal[0], ply: 0 }, winnerCookie);
  eq([mv.status, mv.body.ply], [200, 1], "the accepter moves with the session cookie alone");
  eq((await call(base, "POST", `/api/games/${gid}/hint`, {}, ann)).status, 403, "no hint in a game between people");
  eq((await call(base, "POST", `/api/games/${gid}/resign`, {}, other)).status, 403, "another signed-in player cannot resign: 403");
  eq((await call(base, "POST", `/api/games/${gid}/abort`, {}, ann)).status, 200, "abort before both sides moved: 200");
  g = (await call(base, "GET", `/api/games/${gid}`)).body;
  eq([g.over, g.end, g.winner], [true, "abort", "none"], "aborted: over, end abort, no winner");
  eq((await call(base, "GET", "/api/players/Ann")).body.ratings, {}, "an aborted game moves no rating");

  // A second seek, accepted, played a little, then resigned: rated.
  const s2 = await call(base, "POST", "/api/seeks", { game: "epaminondas", options: "", rated: true, colour: "black", clock: { days: 3 } }, ann);
  const acc = await call(base, "POST", `/api/seeks/${s2.body.id}/accept`, {}, ben);
  const g2 = acc.body.game;
  let w = (await call(base, "GET", `/api/games/${g2}`, undefined, ben)).body;
  eq([w.seat, w.accounts.white, w.accounts.black], ["white", "Ben", "Ann"], "colour black: the seeker plays black");
  await call(base, "POST", `/api/games/${g2}/moves`, { move: w.legal[0], ply: 0 }, ben);
  const bl = (await call(base, "GET", `/api/games/${g2}`, undefined, ann)).body;
  await call(base, "POST", `/api/games/${g2}/moves`, { move: bl.legal[0], ply: 1 }, ann);
  eq((await call(base, "POST", `/api/games/${g2}/abort`, {}, ben)).status, 409, "abort after both sides moved: 409");
  const rs = await call(base, "POST", `/api/games/${g2}/resign`, {}, ann);
  eq([rs.status, rs.body.end, rs.body.winner], [200, "resign", "white"], "Ann resigns: Ben (white) wins");
  // A rematch between accounts: colours swapped, rated, the same clock.
  // (SPEC "Consent and fair endings": Ann's ask is an offer, Ben's accepts it.)
  const offered = await call(base, "POST", `/api/games/${g2}/rematch`, {}, ann);
  eq([offered.status, offered.body], [202, { offered: true }], "a rematch between accounts asked by Ann: 202, offered");
  const rm = await call(base, "POST", `/api/games/${g2}/rematch`, {}, ben);
  check(rm.status === 201 && rm.body.seat === "black", "accepted by Ben: 201, Ben now black", JSON.stringify(rm.body));
  const rg = (await call(base, "GET", `/api/games/${rm.body.id}`, undefined, ann)).body;
  eq([rg.accounts, rg.rated, rg.clock && rg.clock.days, rg.seat], [{ white: "Ann", black: "Ben" }, true, 3, "white"], "the rematch: accounts swapped, rated, 3 days a move");
  eq((await call(base, "POST", `/api/games/${g2}/rematch`, {}, ann)).body.id, rm.body.id, "Ann asking again gets the same rematch");
  eq((await call(base, "POST", `/api/games/${g2}/rematch`, {}, cat)).status, 403, "a third player cannot ask for it");
  const playing = (await call(base, "GET", "/api/playing")).body;
  check(playing.some((x) => x.id === rm.body.id && x.white === "Ann" && x.black === "Ben"), "games being played now list it", JSON.stringify(playing));
  const online = (await call(base, "GET", "/api/online")).body;
  check(online.names.includes("Ann") && !online.names.includes("Ben") && online.count === online.names.length, "who is online: Ann (her lobby socket), not Ben", JSON.stringify(online));
  await call(base, "POST", `/api/games/${rm.body.id}/abort`, {}, ann);

  // A challenge: only the named player sees it and may accept it.
  const ch = await call(base, "POST", "/api/seeks", { game: "urbino", options: "", rated: false, colour: "random", clock: { days: 1 }, to: "cat" }, ann);
  eq(ch.status, 201, "a challenge to Cat: 201");
  eq((await call(base, "POST", "/api/seeks", { game: "urbino", to: "Nobody" }, ann)).status, 404, "a challenge to nobody: 404");
  eq((await call(base, "POST", "/api/seeks", { game: "urbino", to: "ann" }, ann)).status, 400, "a challenge to oneself: 400");
  eq((await call(base, "GET", "/api/seeks")).body.filter((k) => k.id === ch.body.id).length, 0, "a guest does not see it");
  eq((await call(base, "GET", "/api/seeks", undefined, ben)).body.filter((k) => k.id === ch.body.id).length, 0, "nor does Ben");
  const seenByCat = (await call(base, "GET", "/api/seeks", undefined, cat)).body.find((k) => k.id === ch.body.id);
  eq(seenByCat && seenByCat.to, "Cat", "Cat sees it, naming her");
  eq((await call(base, "POST", `/api/seeks/${ch.body.id}/accept`, {}, ben)).status, 403, "Ben cannot accept Cat's challenge: 403");
  eq((await call(base, "POST", `/api/seeks/${ch.body.id}/accept`, {}, cat)).status, 201, "Cat accepts it: 201");

  const pa = (await call(base, "GET", "/api/players/ann")).body, pb = (await call(base, "GET", "/api/players/Ben")).body;
  const r2 = (x) => Math.round(x * 100) / 100;
  eq([r2(pb.ratings.epaminondas.rating), r2(pb.ratings.epaminondas.rd), pb.ratings.epaminondas.games], [1662.31, 290.32, 1],
    "the winner's rating: exactly Glicko-2's 1662.31, deviation 290.32 (from 1500/350/0.06)");
  eq([r2(pa.ratings.epaminondas.rating), r2(pa.ratings.epaminondas.rd)], [1337.69, 290.32], "the loser's: 1337.69, 290.32");
  eq(pa.name, "Ann", "a player by name, any letter case");
  eq(pa.games.slice(2).map((x) => [x.id, x.game, x.white, x.black, x.winner, x.end, x.rated]),
    [[g2, "epaminondas", "Ben", "Ann", "white", "resign", true], [gid, "urbino", "Ann", winnerName, "none", "abort", true]],
    "the player's games, newest first (after the challenge and the rematch)");
  eq(pb.games[1].id, g2, "on both profiles");
  eq([r2(pb.games[1].ratingAfter), r2(pa.games[2].ratingAfter), "ratingAfter" in pa.games[3]], [1662.31, 1337.69, false],
    "each rated game says the player's rating after it (the history); an aborted one none");
  eq((await call(base, "GET", "/api/me", undefined, ben)).body.ratings.epaminondas.games, 1, "/api/me shows the rating");
  // The end of a rated game shows both players' ratings before and after it
  // (to the players and to anyone watching), an unrated or aborted one none.
  for (const [who, label] of [[ann, "to Ann"], [undefined, "to a guest"]]) {
    const ended = (await call(base, "GET", `/api/games/${g2}`, undefined, who)).body.ratings;
    eq(ended && [r2(ended.white.before), r2(ended.white.after), r2(ended.black.before), r2(ended.black.after)],
      [1500, 1662.31, 1500, 1337.69], `the ended rated game says each player's rating before and after it, ${label}`);
  }
  eq((await call(base, "GET", `/api/games/${gid}`, undefined, ann)).body.ratings, null, "an aborted rated game: ratings null");
  eq((await call(base, "GET", `/api/games/${rm.body.id}`, undefined, ann)).body.ratings, null, "a game aborted before a move: ratings null");
  eq((await call(base, "GET", "/api/players/Nobody")).status, 404, "an unknown player: 404");
  const lb = (await call(base, "GET", "/api/leaderboard/epaminondas")).body;
  eq(lb.players.map((p) => [p.name, Math.round(p.rating * 100) / 100, p.games, p.provisional]),
    [["Ben", 1662.31, 1, true], ["Ann", 1337.69, 1, true]], "the leaderboard: best first, provisional while the deviation is high");
  eq((await call(base, "GET", "/api/leaderboard/chess")).status, 404, "no leaderboard of an unknown game");
  // Your turn: a game where it is Ann's turn comes first.
  const s5 = await call(base, "POST", "/api/seeks", { game: "urbino", options: "", rated: false, colour: "white", clock: { days: 7 } }, ann);
  const g5 = (await call(base, "POST", `/api/seeks/${s5.body.id}/accept`, {}, cat)).body.game;
  const s6 = await call(base, "POST", "/api/seeks", { game: "epaminondas", options: "", rated: false, colour: "white", clock: { days: 7 } }, ann);
  const g6 = (await call(base, "POST", `/api/seeks/${s6.body.id}/accept`, {}, cat)).body.game;
  const mineA = (await call(base, "GET", "/api/me/games", undefined, ann)).body;
  const turns = mineA.map((x) => x.yourTurn);
  check(turns.indexOf(false) === -1 || turns.lastIndexOf(true) < turns.indexOf(false), "Ann's games: those where it is her turn first", JSON.stringify(turns));
  check(mineA.some((x) => x.id === g6 && x.yourTurn) && mineA.some((x) => x.id === g5 && !x.yourTurn),
    "Epaminondas (white moves first) is her turn, Urbino (black first) is not", JSON.stringify(mineA.map((x) => [x.id, x.yourTurn])));
  const e6 = mineA.find((x) => x.id === g6);
  check(e6 && e6.clock && e6.clock.deadline > Date.now(), "with the deadline", JSON.stringify(e6 && e6.clock));
  eq((await call(base, "GET", "/api/me/games")).status, 401, "signed out: 401");
  eq((await call(base, "GET", "/api/players/%3Cscript%3E")).status, 404, "a name that is no name: 404");

  // Withdraw: one's own 200, another's 403; an owner leaving the lobby takes its seeks.
  const s3 = await call(base, "POST", "/api/seeks", { game: "cathedral", options: "", rated: false, colour: "random", clock: { initial: 600, increment: 0 } }, ben);
  eq((await call(base, "DELETE", `/api/seeks/${s3.body.id}`, undefined, ann)).status, 403, "withdrawing another's seek: 403");
  eq((await call(base, "DELETE", `/api/seeks/${s3.body.id}`, undefined, ben)).status, 200, "withdrawing one's own: 200");
  eq((await call(base, "GET", "/api/seeks")).body, [], "gone from the list");
  const s4 = await call(base, "POST", "/api/seeks", { game: "cathedral", options: "", rated: false, colour: "random", clock: { initial: 600, increment: 0 } }, ann);
  check(s4.status === 201, "another seek");
  L.ws.close();
  // Going from one page to the next closes one socket and opens another:
  // the seek stays through such a gap (15 s of the games' time) ...
  const L2 = lobby(base, ann);
  await L2.open;
  await L2.until((m) => m.length >= 1);
  L2.ws.close();
  await until(async () => (await call(base, "GET", "/api/online")).body.names.includes("Ann") === false);
  eq((await call(base, "GET", "/api/seeks")).body.map((k) => k.id), [s4.body.id], "its owner's last page closed: the seek stays for a moment");
  // ... and goes once its owner stayed away longer.
  await setTestClock(clockFile, 16000, [srv]);
  check(await until(async () => (await call(base, "GET", "/api/seeks")).body.length === 0), "a seek disappears 15 s after its owner left");
  spect.ws.close();

  // What an attacker would try: SQL in every field, a lobby flood, a logged-out cookie.
  const sql = "x'); DROP TABLE accounts; --";
  const evil = await call(base, "POST", "/api/account", { name: "Mallory", password: sql });
  eq(evil.status, 201, "a password full of SQL is just a password");
  const evilCookie = (evil.headers.get("set-cookie") ?? "").split(";")[0];
  eq((await call(base, "POST", "/api/login", { name: "Mallory", password: sql })).status, 200, "... and signs in (the accounts table is there)");
  eq((await call(base, "POST", "/api/account", { name: "a'--", password: "long enough!" })).status, 400, "SQL in a name: 400");
  eq((await call(base, "POST", "/api/login", { name: "' OR 1=1 --", password: "whatever1" })).status, 401, "SQL in a sign-in name: 401");
  eq((await call(base, "POST", "/api/seeks", { game: "urbino", options: sql }, evilCookie)).status, 400, "SQL in a seek's options: 400");
  eq((await call(base, "POST", "/api/seeks", { game: sql }, evilCookie)).status, 400, "SQL in a seek's game: 400");
  eq((await call(base, "GET", `/api/players/${encodeURIComponent(sql)}`)).status, 404, "SQL in a player's name: 404");
  const seekStatuses = [];
  for (let i = 0; i < 6; i++) seekStatuses.push((await call(base, "POST", "/api/seeks", { game: "urbino", options: "" }, evilCookie)).status);
  eq(seekStatuses, [201, 201, 201, 201, 201, 429], "a lobby flood: five open seeks of one account, the sixth is 429");
  eq((await call(base, "GET", "/api/seeks")).body.filter((k) => k.by === "Mallory").length, 5, "five stay open");
  await call(base, "POST", "/api/logout", {}, evilCookie);
  eq((await call(base, "POST", "/api/seeks", { game: "urbino", options: "" }, evilCookie)).status, 401, "a signed-out session's cookie: 401");
  eq((await call(base, "GET", "/api/players/Ann")).status, 200, "everything still answers");

  // Offers between two people: a draw offered and accepted, a take-back asked
  // and accepted, declined, withdrawn, answered by a move.
  const ofs = await call(base, "POST", "/api/seeks", { game: "epaminondas", options: "", rated: true, colour: "white", clock: { days: 7 } }, cat);
  const og = (await call(base, "POST", `/api/seeks/${ofs.body.id}/accept`, {}, ben)).body.game;   // Cat white, Ben black
  const offer = (cookie, kind, act) => call(base, "POST", `/api/games/${og}/offer`, { kind, act }, cookie);
  const play = async (id, cookie) => {
    const v = (await call(base, "GET", `/api/games/${id}`, undefined, cookie)).body;
    const r = await call(base, "POST", `/api/games/${id}/moves`, { move: v.legal[0], ply: v.ply }, cookie);
    check(r.status === 200, "a move", JSON.stringify(r.body).slice(0, 120));
  };
  eq((await offer(cat, "takeback", "offer")).status, 409, "a take-back before one's first move: 409 (nothing to take back)");
  await play(og, cat); await play(og, ben);
  let o = await offer(cat, "takeback", "offer");
  eq([o.status, o.body.offers], [200, { draw: null, takeback: "white", rematch: null }], "Cat asks to take her move back: the offer in the game's JSON");
  eq((await offer(cat, "takeback", "accept")).status, 409, "one cannot accept one's own request");
  eq((await offer(ann, "takeback", "accept")).status, 403, "a third player cannot answer it");
  o = await offer(ben, "takeback", "accept");
  eq([o.status, o.body.ply, o.body.tomove, o.body.offers.takeback], [200, 0, "white", null], "Ben allows it: Cat's move and Ben's answer are taken back");
  await play(og, cat);
  o = await offer(ben, "draw", "offer");
  eq(o.body.offers.draw, "black", "Ben offers a draw");
  await play(og, ben);
  eq((await call(base, "GET", `/api/games/${og}`)).body.offers.draw, "black", "Ben's draw offer stands after his own move");
  await play(og, cat);
  eq((await call(base, "GET", `/api/games/${og}`)).body.offers.draw, null, "Cat moved instead of accepting: declined");
  await offer(ben, "draw", "offer");
  eq((await offer(ben, "draw", "decline")).body.offers.draw, null, "Ben withdraws his offer");
  eq((await offer(ben, "draw", "offer")).status, 409, "one offer per side per move: Ben cannot offer again before a move");
  await play(og, ben);
  eq((await offer(ben, "draw", "offer")).body.offers.draw, "black", "after his move Ben offers again");
  o = await offer(cat, "draw", "accept");
  eq([o.status, o.body.over, o.body.winner, o.body.end], [200, true, "draw", "agreement"], "Cat accepts the draw: over, drawn, end agreement");
  const catR = (await call(base, "GET", "/api/players/cat")).body.ratings.epaminondas;
  check(catR && catR.rating > 1500 && catR.rating < 1662 && catR.rd < 350 && catR.games === 1,
    "a rated draw: Cat (new) rises against Ben (1662), her deviation shrinks", JSON.stringify(catR));
  eq((await offer(ben, "draw", "offer")).status, 409, "no offers once over");
  const cg = await call(base, "POST", "/api/games", { game: "urbino", options: "", white: "human", black: "random" });
  eq((await call(base, "POST", `/api/games/${cg.body.id}/offer`, { seat: cg.body.seats.white, kind: "draw", act: "offer" })).status, 409, "no offers against the computer");
  const tg = await call(base, "POST", "/api/games", { game: "toscana", options: "", white: "human", black: "human" });
  eq((await call(base, "POST", `/api/games/${tg.body.id}/offer`, { seat: tg.body.seats.white, kind: "takeback", act: "offer" })).status, 409, "no take-back in Toscana (hidden tiles)");
  eq((await call(base, "POST", `/api/games/${tg.body.id}/offer`, { seat: tg.body.seats.white, kind: "truce", act: "offer" })).status, 400, "an unknown kind: 400");

  // The computer levels are players with ratings: a rated game against level 1.
  eq((await call(base, "POST", "/api/account", { name: "computer-3", password: "long enough!" })).status, 409, "the names Computer-N are the computer's");
  const comps = (await call(base, "GET", "/api/computers")).body;
  eq([comps.length, comps[0].name, comps[0].player, comps[9].name], [10, "Computer-1", "ai:level=1", "Computer-10"], "the ten levels as players");
  // One scale: each level starts from its measured strength (docs/levels.md,
  // the "about N" the page shows), deviation 100, no game yet.
  const seeded = comps.map((c) => c.ratings.epaminondas && [Math.round(c.ratings.epaminondas.rating), c.ratings.epaminondas.rd, c.ratings.epaminondas.games, c.ratings.epaminondas.provisional]);
  eq(seeded.map((x) => x && x[0]), [1041, 1240, 1464, 2120, 2246, 2380, 2515, 2695, 2802, 2913], "Epaminondas: the levels start at their measured ratings");
  check(seeded.every((x) => x && x[1] === 100 && x[2] === 0 && x[3] === false), "... deviation 100, no game, not provisional", JSON.stringify(seeded));
  eq(Math.round(comps[2].ratings.urbino.rating), 857, "Urbino's level 3 starts at 857 (the home page's 'about 857')");
  eq((await call(base, "GET", "/api/leaderboard/cathedral")).body.players.filter((p) => /^Computer-/.test(p.name)).length, 0,
    "a level that has played no rated game is not on the leaderboard");
  eq((await call(base, "POST", "/api/games", { game: "urbino", white: "human", black: "ai:level=1", rated: true })).status, 403, "rated signed out: 403");
  eq((await call(base, "POST", "/api/games", { game: "urbino", white: "human", black: "random", rated: true }, ann)).status, 400, "rated against 'random': 400");
  eq((await call(base, "POST", "/api/games", { game: "urbino", white: "human", black: "human", rated: true }, ann)).status, 400, "rated between two seats: 400 (the lobby is for that)");
  eq((await call(base, "POST", "/api/games", { game: "epaminondas", white: "human", black: "ai:level=1", rated: true }, ann)).status, 400, "rated against the computer without a clock: 400");
  eq((await call(base, "POST", "/api/games", { game: "epaminondas", white: "human", black: "ai:level=1", clock: { initial: 600, increment: 5 } }, ann)).status, 400, "a clock on an unrated game: 400");
  const rc = await call(base, "POST", "/api/games", { game: "epaminondas", white: "human", black: "ai:level=1", rated: true, clock: { initial: 600, increment: 5 } }, ann);
  eq([rc.status, rc.body.seats], [201, {}], "a rated game against level 1: 201, no seat token (the cookie is the seat)");
  let cg2 = (await call(base, "GET", `/api/games/${rc.body.id}`, undefined, ann)).body;
  eq([cg2.seat, cg2.accounts, cg2.rated, cg2.undo, cg2.help], ["white", { white: "Ann", black: "Computer-1" }, true, false, false],
    "Ann is white, the computer plays as Computer-1, rated, no undo, no help");
  eq((await call(base, "POST", `/api/games/${rc.body.id}/hint`, {}, ann)).status, 403, "no hint in a rated game");
  await call(base, "POST", `/api/games/${rc.body.id}/moves`, { move: cg2.legal[0], ply: 0 }, ann);
  for (let i = 0; i < 100 && cg2.ply < 2; i++) { await sleep(50); cg2 = (await call(base, "GET", `/api/games/${rc.body.id}`, undefined, ann)).body; }
  eq(cg2.ply, 2, "the computer answers");
  eq((await call(base, "POST", `/api/games/${rc.body.id}/undo`, { ply: 2 }, ann)).status, 409, "no undo in a rated game");
  await call(base, "POST", `/api/games/${rc.body.id}/resign`, {}, ann);
  const c1 = (await call(base, "GET", "/api/computers")).body[0].ratings.epaminondas;
  check(c1 && c1.rating > 1041 && c1.rating < 1300 && c1.games === 1, "level 1 won: its Epaminondas rating rose from 1041, a little (deviation 100)", JSON.stringify(c1));
  eq((await call(base, "GET", "/api/players/Computer-1")).body.games[0].id, rc.body.id, "the game on the computer's profile");
  eq((await call(base, "POST", "/api/login", { name: "Computer-1", password: "anything at all" })).status, 401, "nobody signs in as the computer");

  // Sockets per account: 32 lobby and game sockets at once; the 33rd is refused.
  const socks = [];
  for (let i = 0; i < 32; i++) { const l = lobby(base, ben); socks.push(l); await l.open; }
  const served = () => socks.every((l) => l.messages.length >= 1 && Array.isArray(l.messages[0]));
  check(await until(served), "32 lobby sockets for one account: each gets the seeks",
    JSON.stringify(socks.map((l) => l.messages[0]).filter((m) => !Array.isArray(m))).slice(0, 300));
  const extra = lobby(base, ben);
  await extra.open;
  check(await extra.until((m) => m.some((x) => x.type === "error" && /too many sockets/.test(x.error))), "the 33rd is refused", JSON.stringify(extra.messages));
  const other33 = lobby(base, cat);
  await other33.open;
  check(await other33.until((m) => m.length >= 1 && Array.isArray(m[0])), "another account is not affected");
  for (const l of socks) l.ws.close();
  // Once the server has counted them closed, a new socket is served: try
  // until one is (each refused try is closed again), within a deadline.
  const again = await until(async () => {
    const l = lobby(base, ben);
    await l.open;
    await l.until((m) => m.length >= 1, 5000);
    if (Array.isArray(l.messages[0])) return l;
    l.ws.close();
    return null;
  });
  check(!!again, "once they close, the account may open sockets again");
  if (again) again.ws.close();
  extra.ws.close(); other33.ws.close();

  // Toscana's stacks stay hidden in games from the lobby: the game's JSON,
  // the lists and the record show no deal while it runs.
  const ts = await call(base, "POST", "/api/seeks", { game: "toscana", options: "", rated: false, colour: "white", clock: { days: 2 } }, ann);
  const tgid = (await call(base, "POST", `/api/seeks/${ts.body.id}/accept`, {}, cat)).body.game;
  const views = [await call(base, "GET", `/api/games/${tgid}`, undefined, ann), await call(base, "GET", `/api/games/${tgid}`, undefined, cat),
    await call(base, "GET", `/api/games/${tgid}`), await call(base, "GET", "/api/me/games", undefined, ann),
    await call(base, "GET", "/api/playing"), await call(base, "GET", `/api/games/${tgid}/record`)];
  check(views.every((v) => !/seed=|white=\d|black=\d/.test(typeof v.body === "string" ? v.body : JSON.stringify(v.body))),
    "no seed or stack in any answer about a Toscana game from the lobby", views.map((v) => JSON.stringify(v.body).slice(0, 80)).join(" | "));
  eq(views[0].body.options, "", "its options as anyone may see them");
});
