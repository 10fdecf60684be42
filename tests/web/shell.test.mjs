// shell.test.mjs — the page around the boards: the home page, a friend game
// by link in two browser contexts with a spectator in a third (each sees each
// move live), a reload in mid-game that continues, a stale tab whose move is
// refused with a clear message, two friends on one screen, resigning, and
// loading a record.

import { api, newGameFromHome, pageGame, sleep, waitTurn } from "./harness.mjs";
import { epaminondasMove, urbinoMove } from "./square_input.mjs";

async function boardPly(page) {
  return Number(await page.getAttribute("#board", "data-ply"));
}

async function waitPly(page, ply, timeout = 30000) {
  await page.waitForFunction((p) => Number(document.querySelector("#board")?.getAttribute("data-ply")) === p &&
    document.querySelector("#board")?.getAttribute("data-live") === "1", ply, { timeout });
}

function pick(legal, i) {
  return legal[(i * 7919) % legal.length];
}

async function home(env) {
  const { url, tally } = env;
  const page = await env.newPage("home");
  await page.goto(url + "/");
  await page.waitForSelector(".game-card");
  const cards = await page.$$eval(".game-card", (els) => els.map((e) => e.getAttribute("data-game")));
  tally.check("home: a card for each of the four games", cards.join(",") === "urbino,epaminondas,cathedral,toscana", cards.join(","));
  const pics = await page.$$eval(".game-card svg", (els) => els.length);
  tally.check("home: each game has a picture", pics === 4);
  await page.click('.game-card[data-game="cathedral"]');
  const opts = await page.$$eval('input[name="gopt"]', (els) => els.map((e) => e.value));
  tally.check("home: Cathedral offers classic and late opening", opts.includes("opening=classic") && opts.includes("opening=late"), opts.join(","));
  await page.click('.game-card[data-game="toscana"]');
  const tnote = await page.$eval("#colour-note", (e) => (e.hidden ? "" : e.textContent || ""));
  tally.check("home: Toscana's colour choice says white has the edge", /white/i.test(tnote) && /78%/.test(tnote), tnote);
  await env.shot(page, "home-toscana");
  await page.click('.game-card[data-game="urbino"]');
  const unote = await page.$eval("#colour-note", (e) => e.hidden);
  tally.check("home: no colour note for Urbino", unote);
  const uopts = await page.$$eval('input[name="gopt"]', (els) => els.map((e) => e.value));
  tally.check("home: Urbino offers standard and Monuments", uopts.includes("variant=standard") && uopts.includes("variant=monuments"), uopts.join(","));
  // The ratings come from /api/meta, read after the page is drawn.
  await page.waitForFunction(() => [...document.querySelectorAll("#level option")].some((o) => /about \d+/.test(o.textContent || "")), null, { timeout: 30000 }).catch(() => {});
  const levels = await page.$$eval("#level option", (els) => els.map((e) => e.textContent));
  tally.check("home: Urbino's levels show their ratings", levels.some((l) => /about \d+/.test(l)), levels.join(","));
  tally.check("home: computer levels are named in words", levels.length >= 3 && levels.every((l) => /[a-z]/i.test(l) && !/^\d+$/.test(l)), levels.join(","));
  // Keyboard: Tab reaches the Play button.
  let reached = false;
  for (let i = 0; i < 40 && !reached; i++) {
    await page.keyboard.press("Tab");
    reached = await page.evaluate(() => document.activeElement?.id === "play");
  }
  tally.check("home: the Play button is reachable by keyboard", reached);
  await env.shot(page, "home");
  await page.click("#theme");
  await env.shot(page, "home-dark");
  const theme = await page.evaluate(() => document.documentElement.dataset.theme);
  tally.check("home: the theme toggle switches to dark", theme === "dark", theme);
}

async function friends(env) {
  const { url, tally } = env;
  const a = await env.newPage("friend A");
  await newGameFromHome(a, url, { game: "epaminondas", opponent: "link", colour: "white" });
  await a.waitForSelector("#friend-link");
  const friendLink = await a.inputValue("#friend-link");
  const watchLink = await a.inputValue("#watch-link");
  tally.check("friend: the opponent's link holds a seat", /\/games\/[^?]+\?seat=/.test(friendLink), friendLink);
  tally.check("friend: the spectator link holds no seat", /\/games\/[^?]+$/.test(watchLink), watchLink);
  await a.click('[data-copy="friend-link"]');
  await env.shot(a, "friend-links");
  const b = await env.newPage("friend B");
  await b.goto(friendLink);
  await b.waitForSelector("#board [data-square]");
  const c = await env.newPage("spectator");
  await c.goto(watchLink);
  await c.waitForSelector("#board [data-square]");
  const resignHidden = await c.isHidden("#resign");
  tally.check("spectator: no resign button", resignHidden);
  // issue 34: a spectator is told so, and sees no "Friend"
  const watching = await c.evaluate(() => { const w = document.querySelector("#watching"); return w && !w.hidden ? w.textContent : ""; });
  tally.check("spectator: told they are watching", /watching/i.test(watching), watching);
  const rows = await c.evaluate(() => ["#player-white", "#player-black"].map((q) => document.querySelector(q)?.textContent ?? ""));
  tally.check("spectator: neither player is called Friend", rows.every((r) => !/Friend/.test(r) && /a player/.test(r)), rows.join(" | "));
  const bRows = await b.evaluate(() => ["#player-white", "#player-black"].map((q) => document.querySelector(q)?.textContent ?? ""));
  tally.check("friend: the player sees You and Friend", /You/.test(bRows[1]) && /Friend/.test(bRows[0]), bRows.join(" | "));
  tally.check("friend: a player is not told they watch", await b.isHidden("#watching"));

  // Four moves, alternating; each side and the spectator see each one live.
  let g = await waitTurn(a, url, -1);
  const pages = { white: a, black: b };
  for (let i = 0; i < 4; i++) {
    const mover = pages[g.tomove];
    const move = pick(g.legal, i);
    await epaminondasMove(mover, move, i === 1 ? "keys" : "mouse");
    const ply = g.ply + 1;
    try {
      await waitPly(a, ply);
      await waitPly(b, ply);
      await waitPly(c, ply);
      tally.check(`friend: move ${i + 1} seen by both players and the spectator`, true);
    } catch {
      tally.check(`friend: move ${i + 1} seen by both players and the spectator`, false,
        `plies ${await boardPly(a)} ${await boardPly(b)} ${await boardPly(c)}`);
    }
    g = await waitTurn(pages[i % 2 ? "white" : "black"], url, g.ply);
  }
  await env.shot(c, "friend-spectator");

  // A reload in mid-game continues the same game, and the reloaded page can move.
  await b.reload();
  await b.waitForSelector("#board [data-square]");
  await a.reload();
  await a.waitForSelector("#board [data-square]");
  tally.check("reload: the same position comes back", (await boardPly(a)) === g.ply, `${await boardPly(a)} vs ${g.ply}`);
  g = await waitTurn(a, url, g.ply - 1);
  const m = pick(g.legal, 5);
  await epaminondasMove(a, m, "mouse");
  await waitPly(b, g.ply + 1);
  await waitPly(c, g.ply + 1);
  tally.check("reload: a move after the reload reaches the others", true);

  // A stale tab: a second tab of black whose live socket never delivers.
  const b2 = await b.context().newPage();
  env.tally.watch(b2, "stale tab", /status of 409/);
  await b2.routeWebSocket(/\/live/, () => { /* never connected to the server: the tab goes stale */ });
  await b2.goto(friendLink);
  await b2.waitForSelector("#board [data-square]");
  g = await waitTurn(b, url, g.ply);
  const staleMove = pick(g.legal, 3);
  // Black moves in its first tab...
  await epaminondasMove(b, staleMove, "mouse");
  await waitPly(a, g.ply + 1);
  // ...then tries a move in the stale tab, which still shows the old position.
  const stalePly = await boardPly(b2);
  tally.check("stale: the second tab still shows the old position", stalePly === g.ply, `${stalePly}`);
  const other = g.legal.find((x) => x !== staleMove && !x.startsWith(staleMove.slice(0, 2))) ?? g.legal[0];
  await epaminondasMove(b2, other, "mouse");
  await b2.waitForFunction(() => /moved on/.test(document.querySelector("#message")?.textContent ?? ""), null, { timeout: 30000 })
    .then(() => tally.check("stale: a clear message says the game moved on", true))
    .catch(async () => tally.check("stale: a clear message says the game moved on", false, await b2.textContent("#message")));
  await waitPly(b2, g.ply + 1).then(() => tally.check("stale: the tab shows the current position", true))
    .catch(async () => tally.check("stale: the tab shows the current position", false, String(await boardPly(b2))));
  await env.shot(b2, "stale-tab");
  const after = (await api(url, "GET", `/api/games/${pageGame(a).id}`)).data;
  tally.check("stale: the stale move was not played", after.ply === g.ply + 1, `ply ${after.ply}`);
  await b2.close();

  // Black resigns (the button asks to confirm); everyone sees the result.
  await b.click("#resign");
  await b.click("#resign");
  for (const [p, name] of [[a, "white"], [b, "black"], [c, "spectator"]]) {
    await p.waitForFunction(() => document.body.dataset.over === "1", null, { timeout: 30000 })
      .then(async () => tally.check(`resign: ${name} sees the end`, /resigned/.test(await p.textContent("#status"))))
      .catch(() => tally.check(`resign: ${name} sees the end`, false));
  }
  await env.shot(c, "friend-resigned");
  return pageGame(a).id;
}

async function sameScreen(env) {
  const { url, tally } = env;
  const page = await env.newPage("same screen");
  await newGameFromHome(page, url, { game: "urbino", option: "Monuments", opponent: "local" });
  const { id } = pageGame(page);
  // Both seats play from this page: the setup and a few buildings.  The
  // test reads the legal moves with the token of the side to move (this
  // browser holds both, in localStorage).
  const seats = await page.evaluate((gid) => JSON.parse(localStorage.getItem("tavoliere.games")).find((x) => x.id === gid).seats, id);
  tally.check("same screen: this browser holds both seats", !!(seats.white && seats.black));
  for (let i = 0; i < 7; i++) {
    const g0 = (await api(url, "GET", `/api/games/${id}`)).data;
    const side = g0.tomove;
    await page.waitForFunction((s) => document.querySelector("#status")?.textContent === `${s[0].toUpperCase()}${s.slice(1)} to move`, side);
    const g = (await api(url, "GET", `/api/games/${id}?seat=${seats[side]}`)).data;
    await urbinoMove(page, pick(g.legal, i), i === 4 ? "keys" : "mouse");
    await waitPly(page, g.ply + 1);
  }
  const g = (await api(url, "GET", `/api/games/${id}`)).data;
  tally.check("same screen: both sides moved from one page", g.ply === 7 && g.options.includes("monuments"), `ply ${g.ply} ${g.options}`);
  await env.shot(page, "urbino-same-screen");
}

// Epaminondas on one screen: a white phalanx marches up the n-file and
// captures onto black's home row.  Before the capture is made the page marks
// it (the landing ringed, the enemy piece crossed out); after it, the page
// warns that black must answer the crossing.
async function crossing(env) {
  const { url, tally } = env;
  const page = await env.newPage("crossing");
  await newGameFromHome(page, url, { game: "epaminondas", opponent: "local" });
  const moves = ["n1n2-n4", "n11-m10", "n3n4-n6", "a11-a10", "n5n6-n8", "a10-a9", "n7n8-n10", "a9-a8"];
  for (let i = 0; i < moves.length; i++) {
    await epaminondasMove(page, moves[i], i % 3 === 2 ? "keys" : "mouse");
    await waitPly(page, i + 1);
  }
  tally.check("crossing: no warning before the crossing", !(await page.$('#board [data-warning="crossing"]')));
  await page.waitForSelector("#board .sq.movable");
  await page.click('#board [data-square="n9"]');
  await page.click('#board [data-square="n10"]');
  const ring = await page.$('#board [data-square="n12"] .capture-ring');
  const doomed = await page.$('#board [data-square="n12"] .doomed');
  const land = await page.$$eval("#board .sq.target", (els) => els.map((e) => e.getAttribute("data-square")).sort());
  tally.check("crossing: the capture is marked before it is made", !!ring && !!doomed, `ring ${!!ring} doomed ${!!doomed}`);
  tally.check("crossing: the phalanx's landing squares are offered", land.join(",") === "n11,n12", land.join(","));
  await env.shot(page, "epaminondas-capture-preview");
  await page.click('#board [data-square="n12"]');
  await waitPly(page, 9);
  const warn = await page.getAttribute('#board [data-warning="crossing"]', "aria-label").catch(() => null);
  tally.check("crossing: black is warned to answer the crossing", !!warn && /black must/.test(warn), String(warn));
  await env.shot(page, "epaminondas-crossing");
}

async function loadRecord(env, gameId) {
  const { url, tally } = env;
  const rec = await api(url, "GET", `/api/games/${gameId}/record`);
  const page = await env.newPage("load record", {}, /status of 400/);
  await page.goto(url + "/");
  await page.click(".record-loader summary");
  await page.fill("#record-text", "this is not a record");
  await page.click("#record-load");
  await page.waitForFunction(() => /could not be read/.test(document.querySelector(".record-loader .error")?.textContent ?? ""));
  tally.check("record: a bad record is refused with the parser's message", true);
  await page.fill("#record-text", rec.data);
  await Promise.all([page.waitForURL(/\/games\//), page.click("#record-load")]);
  await page.waitForSelector("#board [data-square]");
  const id = pageGame(page).id;
  const g = (await api(url, "GET", `/api/games/${id}`)).data;
  const orig = (await api(url, "GET", `/api/games/${gameId}`)).data;
  tally.check("record: the loaded game has the record's moves", g.moves.join(" ") === orig.moves.join(" "), `${g.moves.length} vs ${orig.moves.length}`);
  const items = await page.$$eval("#moves [data-step]", (els) => els.length);
  tally.check("record: the move list shows every move", items === g.moves.length + 1, String(items));
  await page.click('#moves [data-step="2"]');
  await page.waitForSelector('#board[data-ply="2"][data-live="0"]');
  tally.check("record: a past position of the record can be shown", true);
}

// Toscana: a deal chosen by the game's creator is said on the page (still
// hidden), a dealt one is not; Undo is never offered (a move reveals a tile).
async function toscanaNotes(env) {
  const { url, tally } = env;
  const chosen = await api(url, "POST", "/api/games", { game: "toscana", options: "seed=5", white: "human", black: "human" });
  const dealt = await api(url, "POST", "/api/games", { game: "toscana", white: "human", black: "ai:level=1" });
  tally.check("toscana: games created", chosen.status === 201 && dealt.status === 201, `${chosen.status} ${dealt.status}`);
  const page = await env.newPage("toscana notes");
  await page.goto(`${url}/games/${chosen.data.id}?seat=${chosen.data.seats.black}`);
  await page.waitForSelector("#board [data-square]");
  const note = await page.$eval("#deal-note", (e) => (e.hidden ? "" : e.textContent || ""));
  tally.check("toscana: the opponent is told the deal was chosen", /chose its deal/.test(note), note);
  const text = await page.textContent("body");
  tally.check("toscana: the chosen seed is not on the page", !/seed=5/.test(text || ""));
  await env.shot(page, "toscana-deal-chosen");
  await page.goto(`${url}/games/${dealt.data.id}?seat=${dealt.data.seats.white}`);
  await page.waitForSelector("#board [data-square]");
  await page.waitForFunction(() => document.querySelector("#status")?.textContent !== "Loading…");
  const state = await page.evaluate(() => ({ note: document.querySelector("#deal-note")?.hidden, undo: document.querySelector("#undo")?.hidden }));
  tally.check("toscana: no note for a deal the server dealt", state.note === true, JSON.stringify(state));
  tally.check("toscana: no Undo button against the computer", state.undo === true, JSON.stringify(state));
}

// Fair play: no Hint between two people on separate screens; Hint against
// the computer and for two people at one screen.
async function fairPlay(env) {
  const { url, tally } = env;
  const cases = [
    ["by link", { game: "urbino", white: "human", black: "human" }, true],
    ["one screen", { game: "urbino", white: "human", black: "human", local: true }, false],
    ["computer", { game: "urbino", white: "human", black: "ai:level=1" }, false],
  ];
  const page = await env.newPage("fair play");
  for (const [what, body, hidden] of cases) {
    const g = await api(url, "POST", "/api/games", body);
    await page.goto(`${url}/games/${g.data.id}?seat=${g.data.seats.white}`);
    await page.waitForSelector("#board [data-square]");
    await page.waitForFunction(() => document.querySelector("#status")?.textContent !== "Loading…");
    const h = await page.$eval("#hint", (e) => e.hidden);
    tally.check(`fair play: Hint ${hidden ? "hidden" : "offered"} (${what})`, h === hidden, String(h));
  }
}

export async function run(env) {
  await home(env);
  await toscanaNotes(env);
  await fairPlay(env);
  const id = await friends(env);
  await sameScreen(env);
  await crossing(env);
  await loadRecord(env, id);
}
