// inpage.test.mjs — the computer played in the page (issue 37): the engine
// built for the browser (WebAssembly) and its worker, /play/GAME.
//
//   1. A whole game of Epaminondas against level 1 at /play/epaminondas: the
//      page is opened on a server of its own, which is then stopped; every
//      move is made by clicks (the test chooses them with its own copy of
//      the engine, replaying the moves the page keeps in localStorage); a
//      reload in the middle, with the server gone, comes back from the
//      service worker and resumes the game; no request leaves the page for
//      the network once it was loaded; the record downloads and replays;
//      the analysis runs with its progress bar.
//   2. The manifest and the service worker: the page can be installed and
//      is controlled by the worker that keeps it.
//   3. Undo while the computer thinks (level 9) ends its worker at once (the
//      page stays responsive meanwhile) and the cancelled search plays nothing.
//   4. The home page's "computer" choice opens /play/GAME with the level and
//      colour chosen; the phone-sized screen.

import fs from "node:fs";
import { epaminondasMove } from "./square_input.mjs";
import { sleep, startServer } from "./harness.mjs";
import { loadTav, newEngine } from "../wasm/lib.mjs";

function rng(seed) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 4294967296;
  };
}

// Epaminondas: march forward and take what can be taken, so the game ends.
function epaChoice(legal, side, rand) {
  const rank = (s) => Number(s.slice(1));
  let best = legal[0], bv = -Infinity;
  for (const m of legal) {
    const x = /^([a-n]\d+)(?:([a-n]\d+))?([-x])([a-n]\d+)$/.exec(m);
    const front = x[2] ?? x[1];
    const d = rank(x[4]) - rank(front);
    const gain = side === "white" ? d : -d;
    const far = side === "white" ? rank(x[4]) === 12 : rank(x[4]) === 1;
    const v = (x[3] === "x" ? 20 : 0) + (far ? 30 : 0) + gain * 3 + rand();
    if (v > bv) { bv = v; best = m; }
  }
  return best;
}

const state = (page) => page.evaluate(() => ({
  ply: Number(document.querySelector("[data-ply]")?.getAttribute("data-ply") ?? -1),
  plies: document.querySelectorAll("[data-ply]").length,
  over: document.body.dataset.over === "1",
  thinking: document.body.dataset.thinking === "1",
  status: document.querySelector("#status")?.textContent ?? "",
  saved: JSON.parse(localStorage.getItem("tavoliere.play.epaminondas") ?? "null"),
}));

// Wait for the human's turn (or the end): the page's state.
async function myTurn(page, after, timeout = 30000) {
  const t0 = Date.now();
  for (;;) {
    const s = await state(page);
    if ((s.ply > after && !s.thinking && /Your turn/.test(s.status)) || s.over) return s;
    if (Date.now() - t0 > timeout) throw new Error(`no turn after ply ${after}: ${JSON.stringify({ ...s, saved: undefined })}`);
    await sleep(30);
  }
}

// The legal moves of the page's game, from the test's own engine.
function legalOf(engine, tav, saved) {
  engine.start(saved.game, saved.options, saved.seed);
  for (const m of saved.moves) engine.play(m);
  return engine.legal(saved.human === "white" ? tav.WHITE : tav.BLACK);
}

export async function run(env) {
  const { tally } = env;
  const { tav, why } = await loadTav();
  if (!tav) {
    // A missing engine is a failure unless the run allows it by name
    // (TAV_ALLOW_SKIP=wasm, never set by CI: docs/testing.md).
    const allowed = (process.env.TAV_ALLOW_SKIP || "").split(",").includes("wasm");
    if (allowed) {
      console.log(`inpage: skipped (TAV_ALLOW_SKIP=wasm): ${why}`);
      return "skipped";
    }
    tally.check("inpage: the engine for the page is built", false, why);
    return;
  }
  const { engine } = await newEngine(tav);

  // ---- 1 and 2: a whole game with the server gone ----
  const srv = await startServer();
  const page = await env.newPage("in-page game");
  await page.goto(`${srv.url}/play/epaminondas?level=1&colour=white`);
  await page.waitForSelector("#board [data-square]");
  await page.waitForFunction(() => !!navigator.serviceWorker?.controller, null, { timeout: 15000 })
    .then(() => tally.check("inpage: the service worker controls the page", true))
    .catch(() => tally.check("inpage: the service worker controls the page", false));
  const man = await page.evaluate(async () => {
    const href = document.querySelector('link[rel="manifest"]')?.getAttribute("href");
    const m = href ? await (await fetch(href)).json() : null;
    const keys = await caches.keys();
    const kept = keys.length ? (await (await caches.open(keys[0])).keys()).map((r) => new URL(r.url).pathname) : [];
    return { m, kept };
  });
  tally.check("inpage: an installable manifest (name, start_url, standalone, 192 and 512 px icons)",
    !!man.m && !!man.m.name && man.m.start_url === "/" && man.m.display === "standalone" &&
    ["192x192", "512x512"].every((s) => man.m.icons.some((i) => i.sizes === s)), JSON.stringify(man.m));
  tally.check("inpage: the service worker keeps the page and the engine",
    ["/index.html", "/app.js", "/tavoliere.wasm", "/engine-worker.js"].every((f) => man.kept.includes(f)), man.kept.join(" "));
  let s0 = await state(page);
  tally.check("inpage: one element has data-ply", s0.plies === 1 && s0.ply === 0, JSON.stringify({ plies: s0.plies, ply: s0.ply }));
  tally.check("inpage: the game is kept in the browser", s0.saved && s0.saved.game === "epaminondas" && s0.saved.level === 1, JSON.stringify(s0.saved));

  // From here on the server is gone: nothing may go to the network.
  const net = [], failed = [], any = [];
  let counting = true;
  page.on("request", (r) => { if (counting) any.push(r.url()); });
  page.on("requestfinished", async (r) => {
    const res = await r.response().catch(() => null);
    if (!/^(blob|data):/.test(r.url()) && !(res && res.fromServiceWorker())) net.push(r.url());
  });
  page.on("requestfailed", (r) => failed.push(r.url()));
  await srv.stop(tally);

  const rand = rng(37);
  let s = await myTurn(page, -1), n = 0, reloaded = false;
  while (!s.over) {
    if (n > 250) throw new Error("epaminondas in the page: no end after 250 moves");
    const move = epaChoice(legalOf(engine, tav, s.saved), "white", rand);
    await epaminondasMove(page, move, "mouse");
    const before = s.ply;
    s = await myTurn(page, before);
    if (!tally.check(`inpage: move ${move} was played`, s.saved.moves[before] === move || s.over, s.saved.moves.slice(-3).join(" "))) break;
    n++;
    if (n === 3) await env.shot(page, "inpage-middle");
    if (n === 8 && !s.over) {
      // a reload with the server gone: the service worker serves the page, the game resumes
      const moves = s.saved.moves.join(" ");
      tally.check("inpage: no request at all while the game was played", any.length === 0, any.join(" "));
      counting = false;
      await page.reload();
      await page.waitForSelector("#board [data-square]");
      s = await myTurn(page, -1);
      reloaded = tally.check("inpage: a reload with the server stopped resumes the game", s.ply === s.saved.moves.length && s.saved.moves.join(" ") === moves &&
        (await page.$$eval("#moves button", (b) => b.length)) === s.ply + 1, JSON.stringify({ ply: s.ply, n: s.saved.moves.length }));
    }
  }
  tally.check("inpage: the reload was tried", reloaded);
  tally.check("inpage: the game against the computer ended", s.over, JSON.stringify({ ply: s.ply }));
  tally.check("inpage: the result is shown", /wins|Drawn/.test(s.status), s.status);
  tally.check("inpage: data-ply is the number of moves", s.ply === s.saved.moves.length, `${s.ply} vs ${s.saved.moves.length}`);
  await env.shot(page, "inpage-end");

  // the record (a blob: address) replays to the same game
  const [dl] = await Promise.all([page.waitForEvent("download"), page.click("#download")]);
  const rec = fs.readFileSync(await dl.path(), "utf8");
  let replayed = -1;
  try {
    engine.load(rec);
    replayed = engine.ply();
  } catch (e) {
    replayed = -2;
  }
  tally.check("inpage: the downloaded record replays the game", replayed === s.saved.moves.length, `${replayed} vs ${s.saved.moves.length}: ${rec.slice(0, 120)}`);

  // the analysis, with its progress bar
  await page.click("#analysis-btn");
  const sawBar = await page.waitForFunction(() => {
    const b = document.querySelector("#analysis-progress");
    return b && !b.hidden && Number(b.value) > 0;
  }, null, { timeout: 20000 }).then(() => true).catch(() => false);
  tally.check("inpage: the analysis shows its progress", sawBar);
  await page.waitForSelector(".analysis-graph .an-pt", { timeout: 120000 });
  const pts = await page.$$eval(".analysis-graph .an-pt", (e) => e.length);
  tally.check("inpage: the analysis has a point per move", pts === s.saved.moves.length, `${pts} vs ${s.saved.moves.length}`);
  await env.shot(page, "inpage-analysis");
  const st = await state(page);
  tally.check("inpage: still one element with data-ply after the analysis", st.plies === 1, String(st.plies));
  await sleep(200);
  tally.check("inpage: no request went to the network after the page was loaded", net.length === 0 && failed.length === 0,
    `network: ${net.join(" ")} failed: ${failed.join(" ")}`);

  // ---- 3: undo while the computer thinks ----
  const p2 = await env.newPage("in-page undo");
  await p2.goto(`${env.url}/play/epaminondas?level=9&colour=white&new=1`);
  await p2.waitForSelector("#board [data-square]");
  let u = await myTurn(p2, -1);
  tally.check("inpage: ?new=1 starts a new game", u.ply === 0, String(u.ply));
  const first = legalOf(engine, tav, u.saved)[0];
  await epaminondasMove(p2, first, "mouse");
  await p2.waitForFunction(() => document.body.dataset.thinking === "1", null, { timeout: 20000 });
  // The page answers while the worker searches: a script run on the page
  // now finds the search still going (a page frozen by the search would run
  // it only once the search had ended and the computer had moved).  How
  // long the answer took is a figure, not a check.
  const t0 = Date.now();
  const during = await p2.evaluate(() => ({
    thinking: document.body.dataset.thinking, ply: document.querySelector("#board")?.getAttribute("data-ply"),
  }));
  const lag = Date.now() - t0;
  console.log(`inpage: the page answered in ${lag} ms while the computer thought (nominal 1000 ms${lag >= 1000 ? ", SLOW" : ""})`);
  tally.check("inpage: the page answers while the computer thinks (the search still running when it does)",
    during.thinking === "1" && during.ply === "1", JSON.stringify(during));
  const still = await state(p2);
  tally.check("inpage: the computer (level 9) was still thinking", still.thinking && still.ply === 1, JSON.stringify({ ...still, saved: undefined }));
  await p2.click("#undo");
  const t1 = Date.now();
  const ended = await p2.waitForFunction(() => document.body.dataset.workerCancels === "1" && document.body.dataset.thinking === "0", null, { timeout: 30000 })
    .then(() => true).catch(() => false);
  const took = Date.now() - t1;
  console.log(`inpage: undo ended the worker in ${took} ms (nominal 1500 ms${took >= 1500 ? ", SLOW" : ""})`);
  tally.check("inpage: undo ends the computer's worker", ended, `${took} ms`);
  // The worker is gone (terminated), so nothing it searched can be played.
  u = await state(p2);
  tally.check("inpage: after the undo the position is the start, and the cancelled search played nothing", u.ply === 0 && u.saved.moves.length === 0 && /Your turn/.test(u.status),
    JSON.stringify({ ply: u.ply, moves: u.saved.moves, status: u.status }));

  // the game in the page goes to the server when asked (POST /api/records)
  await Promise.all([p2.waitForURL(/\/games\//), p2.click("#upload")]);
  await p2.waitForSelector("#board [data-square]");
  tally.check("inpage: 'Put it on the server' opens the game there", /\/games\/[^/?]+\?seat=/.test(p2.url()), p2.url());

  // the home page lists the unfinished game of this browser, with its address
  await p2.goto(`${env.url}/`);
  const href = await p2.waitForSelector('#local-games li[data-game="epaminondas"] a', { timeout: 30000 })
    .then((a) => a.getAttribute("href")).catch(() => null);
  await p2.locator("#local-games").scrollIntoViewIfNeeded().catch(() => {});
  await env.shot(p2, "inpage-home-local");
  tally.check("inpage: the home page lists the unfinished game in this browser", href === "/play/epaminondas?level=9&colour=white", String(href));

  // ---- 4: from the home page; the phone ----
  const p3 = await env.newPage("in-page from home", { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  await p3.goto(`${env.url}/`);
  await p3.click('.game-card[data-game="cathedral"]');
  await p3.click('.choice:has(input[name="opponent"][value="computer"])');
  await p3.selectOption("#level", "ai:level=2");
  await p3.click('.choice:has(input[name="colour"][value="black"])');
  tally.check("inpage: the home page offers the game in the browser", await p3.isChecked("#in-page"));
  await env.shot(p3, "inpage-home-phone");
  await Promise.all([p3.waitForURL(/\/play\/cathedral\?/), p3.click("#play")]);
  const q = new URL(p3.url()).searchParams;
  tally.check("inpage: home opens /play/GAME with the level and colour", q.get("level") === "2" && q.get("colour") === "black", p3.url());
  await p3.waitForSelector("#board [data-square]");
  // black: the computer (white) moves first, in the page
  await p3.waitForFunction(() => Number(document.querySelector("[data-ply]")?.getAttribute("data-ply")) >= 1, null, { timeout: 20000 })
    .then(() => tally.check("inpage: the computer made the first move in the page", true))
    .catch(() => tally.check("inpage: the computer made the first move in the page", false));
  tally.check("inpage: the address has no new=1 after the start (a reload resumes)", !new URL(p3.url()).searchParams.has("new"), p3.url());
  await env.shot(p3, "inpage-cathedral-phone");
  engine.free();
}
