// boards.test.mjs — browser tests of the Cathedral and Toscana boards
// (run by tests/web/run.mjs, which starts `$BUILD/tavoliere serve` and
// Chromium; see tests/web/harness.mjs).
//
// For each game, complete games as a human seat against the "random" player:
// the game is created with POST /api/games and opened at /games/ID?seat=TOKEN;
// the test reads the game from the API to choose a move among `legal`, then
// makes it on the page the way a player does, by clicks, keys or taps only
// (tests/web/polyomino_input.mjs).  One game on a desktop-sized page (mouse
// and keyboard, white), one on a phone-sized touch page (taps, black).
// Screenshots of the start, middle and end of each go to $BUILD/screenshots/.

import { api, pageGame, waitTurn } from "./harness.mjs";
import { coveredSquares, makeMove } from "./polyomino_input.mjs";

// A small deterministic generator, so a failing game can be replayed.
function rng(seed) {
  let s = seed >>> 0;
  return () => { s = (s * 1664525 + 1013904223) >>> 0; return s / 4294967296; };
}

// What the board draws for a position (see data-sig in the board modules).
function sig(g) {
  const legal = g.over ? [] : g.legal;
  return `${g.view.last}|${legal.length}|${legal.slice().sort()[0] ?? ""}`;
}

const ROOT = { cathedral: ".tav-cathedral", toscana: ".tav-toscana" };

// Wait until the page shows the game g (a drawing made after the last move).
async function waitDrawn(page, game, g) {
  await page.waitForFunction(([sel, want]) => {
    const r = document.querySelector(sel);
    return r && !r.__tavStale && r.getAttribute("data-sig") === want;
  }, [ROOT[game], sig(g)], { timeout: 15000 });
}

async function markStale(page, game) {
  await page.evaluate((sel) => { const r = document.querySelector(sel); if (r) r.__tavStale = true; }, ROOT[game]);
}

// Captures between two views, counted from the API's views: buildings that
// left the board for their owner's hand, and the Cathedral leaving the board.
function capturesBetween(a, b) {
  const pieces = (v) => {
    const m = new Map();
    for (const [sq, x] of Object.entries(v.squares)) {
      if (!x.kind) continue;
      const k = `${x.piece}`;
      if (!m.has(k)) m.set(k, { kind: x.kind, owner: x.owner, squares: [] });
      m.get(k).squares.push(sq);
    }
    return new Set([...m.values()].map((p) => `${p.owner}:${p.kind}:${p.squares.sort().join(",")}`));
  };
  const hand = (v, side, kind) => v.sides[side].hand.filter((h) => h.kind === kind).reduce((t, h) => t + h.count, 0);
  const now = pieces(b);
  let n = 0;
  for (const p of pieces(a)) {
    const [owner, kind] = p.split(":");
    if (now.has(p)) continue;
    if (kind === "Y" ? !Object.values(b.squares).some((x) => x.kind === "Y") : hand(b, owner, kind) > hand(a, owner, kind)) n++;
  }
  return n;
}

// Checks on a drawn position, against the API's view.
async function checkDrawing(env, page, game, g, label) {
  const check = (name, ok, detail) => env.tally.check(`${label}: ${name}`, ok, detail);
  const n = game === "cathedral" ? 100 : 289;
  const sq = await page.$$eval(`${ROOT[game]} [data-square]`, (els) => els.map((e) => [e.getAttribute("data-square"),
    e.getAttribute("aria-label") ?? ""]));
  const names = new Set(sq.map((x) => x[0]));
  check(`${n} squares with data-square`, sq.length === n && names.size === n, `${sq.length}, ${names.size} distinct`);
  check("every square has an aria-label naming it", sq.every(([name, aria]) => aria.startsWith(name + ",")));
  const occupied = Object.entries(g.view.squares).filter(([, x]) => x.kind).length;
  const labelled = sq.filter(([, aria]) => !aria.includes("empty")).length;
  check("the labels name what stands on each square", occupied === labelled, `${occupied} vs ${labelled}`);
  if (game === "toscana") {
    for (const side of ["white", "black"]) {
      const shown = await page.getAttribute(`.tav-hand-${side} .tav-stack`, "data-stack");
      check(`${side}'s stack size shown`, Number(shown) === g.view.sides[side].stack, `${shown} vs ${g.view.sides[side].stack}`);
    }
    const marked = ["areaWhite", "areaBlack"].filter((m) => Object.values(g.view.squares).some((x) => x.marks?.includes(m)));
    const counts = await page.$$eval(".tav-area-count", (els) => els.map((e) => Number(e.textContent)));
    check("one count per largest area", counts.length === marked.length, `${counts} vs ${marked}`);
    for (const side of ["white", "black"]) {
      if (!marked.includes(side === "white" ? "areaWhite" : "areaBlack")) continue;
      const shown = Number(await page.textContent(`.tav-area-${side} .tav-area-count`));
      check(`${side}'s area count is the score`, shown === g.view.sides[side].score && shown === g.score[side === "white" ? 0 : 1],
        `${shown} vs ${g.view.sides[side].score}, regions ${JSON.stringify(g.view.regions)}`);
    }
  } else {
    for (const side of ["white", "black"]) {
      const want = g.view.sides[side].hand.reduce((a, h) => a + h.count, 0);
      const got = await page.locator(`.tav-hand-${side} .tav-piece`).count();
      check(`${side}'s hand shows its ${want} buildings`, got === want, String(got));
    }
    const placed = new Set(Object.values(g.view.squares).filter((x) => x.kind).map((x) => `${x.piece}:${x.kind}:${x.owner}`));
    const drawn = await page.locator(".tav-building").count();
    check("one joined shape per building", drawn === placed.size, `${drawn} vs ${placed.size}`);
  }
}

// A screenshot of the page from its top (taps may have scrolled it).
async function shot(env, page, name) {
  await page.evaluate(() => window.scrollTo(0, 0));
  await env.shot(page, name);
}

// Play one complete game as `side` against "random".
async function playGame(env, game, { side, phone, seed, name }) {
  const { url, tally } = env;
  const rand = rng(seed);
  const page = await env.newPage(name, phone
    ? { viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, hasTouch: true, isMobile: true }
    : { viewport: { width: 1280, height: 860 } });
  const other = side === "white" ? "black" : "white";
  const made = await api(url, "POST", "/api/games", { game, options: "", [side]: "human", [other]: "random" });
  if (!tally.check(`${name}: the game is created`, made.status === 201 && made.data.seats?.[side], JSON.stringify(made.data))) return;
  await page.goto(`${url}/games/${encodeURIComponent(made.data.id)}?seat=${encodeURIComponent(made.data.seats[side])}`);
  await page.waitForSelector(`${ROOT[game]} [data-square]`, { timeout: 15000 });
  tally.check(`${name}: the page is the seat's`, pageGame(page).id === made.data.id);

  // count the capture flights (a building flying back to its hand)
  await page.evaluate(() => {
    window.__tavFlights = 0;
    new MutationObserver((ms) => {
      for (const m of ms) for (const n of m.addedNodes) if (n.classList?.contains("tav-flying")) window.__tavFlights++;
    }).observe(document.body, { childList: true, subtree: true });
  });
  let g = await waitTurn(page, url, -1);
  await waitDrawn(page, game, g);
  await checkDrawing(env, page, game, g, `${name} start`);
  await shot(env, page, `${name}-start`);
  const counts = { mouse: 0, keys: 0, touch: 0, buttons: 0 };
  let n = 0, middle = false, dark = false, captures = 0, vetoed = false;
  while (!g.over) {
    if (n >= 200) throw new Error(`${name}: no end after 200 moves`);
    const move = g.legal[Math.floor(rand() * g.legal.length)];
    const keys = !phone && n % 3 === 1;
    const how = ["pass", "veto", "accept"].includes(move) ? "buttons" : phone ? "touch" : keys ? "keys" : "mouse";
    counts[how]++;
    if (how !== "buttons") tally.check(`${name}: ${move} covers squares`, coveredSquares(game, move).length > 0);
    // Toscana: now and then arm the veto against the opponent's next tile
    // ("Veto this tile"); the page sends it after the placement by itself
    let armed = false;
    if (game === "toscana" && move.includes(":") && rand() < 0.3) {
      const t = `[data-key="veto-toggle-${side}"]`;
      if (await page.$(t)) {
        if (phone) await page.tap(t); else await page.click(t);
        await page.waitForSelector(`${t}[aria-pressed="true"]`);
        armed = true;
        counts.buttons++;
      }
    }
    await markStale(page, game);
    const before = g.ply;
    await makeMove(page, game, move, { keys, touch: phone, turnHow: n % 2 ? ["wheel", "key"] : ["button", "key"] });
    const was = g;
    g = await waitTurn(page, url, before);
    // Toscana: a decision after the player's own placement is the page's to
    // answer (accept, or the veto armed): wait for the turn after it
    while (game === "toscana" && !g.over && g.legal.includes("accept") && g.view.last !== "") g = await waitTurn(page, url, g.ply);
    if (armed) {
      tally.check(`${name}: the armed veto went out after the placement`, g.moves[before + 1] === "veto", g.moves.slice(before).join(" "));
      vetoed = true;
    }
    if (game === "cathedral") {
      // ply by ply (a building captured and placed again at once still flew)
      let a = was.view;
      for (let p = before + 1; p <= g.ply; p++) {
        const r = p === g.ply ? { status: 200, data: { view: g.view } }
          : await api(url, "GET", `/api/games/${encodeURIComponent(made.data.id)}/view?ply=${p}`);
        if (r.status !== 200) { a = g.view; break; }
        captures += capturesBetween(a, r.data.view);
        a = r.data.view;
      }
    }
    if (!tally.check(`${name}: ${move} (${how}) was played`, g.moves[before] === move,
      `moves from ${before}: ${g.moves.slice(before, before + 3)}`)) break;
    await waitDrawn(page, game, g);
    n++;
    if (!middle && g.ply >= (game === "cathedral" ? 16 : 24) && !g.over) {
      middle = true;
      await checkDrawing(env, page, game, g, `${name} middle`);
      await shot(env, page, `${name}-middle`);
      if (!phone && (await page.$("#hint"))) {
        // the engine's hint is drawn on the board
        await page.click("#hint");
        await page.waitForFunction(() => /^Hint: /.test(document.querySelector("#message")?.textContent ?? ""));
        const hint = (await page.textContent("#message")).replace("Hint: ", "").trim();
        const shown = hint.includes(":")
          ? await page.getAttribute(`${ROOT[game]} .tav-hint`, "data-move").catch(() => null)
          : await page.getAttribute(`[data-key="${hint}"] rect`, "stroke");
        tally.check(`${name}: the hint ${hint} is legal and drawn`, g.legal.includes(hint) && (shown === hint || shown === "#1c7ed6"),
          String(shown));
        await shot(env, page, `${name}-hint`);
      }
      if (phone && (await page.$("#theme"))) {
        // the dark theme, by the page's toggle, and back
        await page.click("#theme");
        await shot(env, page, `${name}-middle-dark`);
        await page.click("#theme");
        dark = true;
      }
    }
  }
  tally.check(`${name}: the game ended`, g.over, `ply ${g.ply}`);
  let flights = "";
  if (game === "cathedral") {
    const flown = await page.evaluate(() => window.__tavFlights);
    flights = `, ${captures} captures, ${flown} flights`;
    tally.check(`${name}: captured buildings fly back to their hands`, (captures > 0) === (flown > 0), flights);
    // each hand's header counts that side's buildings captured so far
    for (const side of ["white", "black"]) {
      const lost = g.view.sides[side]?.captured ?? 0;
      const head = await page.textContent(`.tav-hand-${side} text`);
      const m = /· (\d+) captured/.exec(head ?? "");
      tally.check(`${name}: ${side}'s hand says ${lost} captured`, lost > 0 ? m && Number(m[1]) === lost : !m, head);
    }
  }
  await page.waitForTimeout(300);
  await checkDrawing(env, page, game, g, `${name} end`);
  await shot(env, page, `${name}-end`);
  if (phone) tally.check(`${name}: moves made by taps`, counts.touch > 0, JSON.stringify(counts));
  else {
    tally.check(`${name}: moves made by the mouse`, counts.mouse > 0, JSON.stringify(counts));
    tally.check(`${name}: moves made by the keyboard alone`, counts.keys > 0, JSON.stringify(counts));
  }
  if (game === "toscana") {
    tally.check(`${name}: the page answered decisions by itself`, g.moves.filter((m, i) => (m === "accept" || m === "veto") && i > 0).length > 0, g.moves.join(" "));
  }
  console.log(`${name}: ${n} moves by the page ${JSON.stringify(counts)}, ply ${g.ply}, vetoed ${vetoed}, ` +
    `score ${g.score.join(":")}, winner ${g.winner}${flights}${dark ? ", dark theme shot" : ""}`);
  await page.context().close();
}

export async function run(env) {
  let seed = 1;
  for (const game of ["cathedral", "toscana"]) {
    await playGame(env, game, { side: "white", phone: false, seed: seed++, name: game });
    await playGame(env, game, { side: "black", phone: true, seed: seed++, name: `${game}-phone` });
  }
}
