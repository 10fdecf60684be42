// cluster_offline.mjs — the game in the page (/play/epaminondas) opened in
// Chromium through nginx in front of the instances (cluster.mjs, section
// 10): once the page was loaded, nginx is stopped (the site is gone), the
// page is reloaded and moves are played with nothing answering; then the
// browser is set offline as well, reloaded again, and the game goes on.
// Every move is made by clicks (tests/web/square_input.mjs), chosen with
// the test's own copy of the engine (tests/wasm/lib.mjs) from the moves the
// page keeps in localStorage.
import { launch } from "../web/harness.mjs";
import { epaminondasMove } from "../web/square_input.mjs";
import { loadTav, newEngine } from "../wasm/lib.mjs";

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

const state = (page) => page.evaluate(() => ({
  ply: Number(document.querySelector("[data-ply]")?.getAttribute("data-ply") ?? -1),
  over: document.body.dataset.over === "1",
  thinking: document.body.dataset.thinking === "1",
  status: document.querySelector("#status")?.textContent ?? "",
  saved: JSON.parse(localStorage.getItem("tavoliere.play.epaminondas") ?? "null"),
}));

// The person's turn (or the end), polled with a generous deadline.
async function myTurn(page, after, ms = 60000) {
  const end = Date.now() + ms;
  for (;;) {
    const s = await state(page);
    if ((s.ply > after && !s.thinking && /Your turn/.test(s.status) && s.saved) || s.over) return s;
    if (Date.now() > end) throw new Error(`no turn after ply ${after}: ${JSON.stringify({ ...s, saved: undefined })}`);
    await sleep(50);
  }
}

// n moves by clicks: each must show in the page's kept game.
async function playMoves(page, engine, tav, n, check, what) {
  let s = await myTurn(page, -1);
  let played = 0;
  for (; played < n && !s.over; played++) {
    engine.start(s.saved.game, s.saved.options, s.saved.seed);
    for (const m of s.saved.moves) engine.play(m);
    const legal = engine.legal(tav.WHITE);
    const move = legal[(s.ply * 7) % legal.length];
    await epaminondasMove(page, move, "mouse");
    const before = s.ply;
    s = await myTurn(page, before);
    if (!check(s.saved.moves[before] === move || s.over, `${what}: move ${move} played in the page`, s.saved.moves.slice(-3).join(" "))) break;
  }
  return { s, played };
}

export async function offlineThroughNginx({ nginx, check }) {
  const { tav, why } = await loadTav();
  if (!tav) {
    console.log(`offline through nginx: skipped: ${why}`);
    return;
  }
  const { engine } = await newEngine(tav);
  const browser = await launch();
  const errors = [];
  try {
    const context = await browser.newContext();
    const page = await context.newPage();
    page.on("pageerror", (e) => errors.push(e.message));
    await page.goto(`${nginx.base}/play/epaminondas?level=1&colour=white`);
    await page.waitForSelector("#board [data-square]", { timeout: 30000 });
    const controlled = await page.waitForFunction(() => !!navigator.serviceWorker?.controller, null, { timeout: 30000 })
      .then(() => true, () => false);
    check(controlled, "offline through nginx: the service worker (from nginx) controls the page");
    const kept = await page.evaluate(async () => {
      const keys = await caches.keys();
      return keys.length ? (await (await caches.open(keys[0])).keys()).map((r) => new URL(r.url).pathname) : [];
    });
    check(["/index.html", "/app.js", "/tavoliere.wasm", "/engine-worker.js"].every((f) => kept.includes(f)),
      "offline through nginx: the service worker keeps the page and the engine", kept.join(" "));
    let r = await playMoves(page, engine, tav, 2, check, "online");

    // The site gone: nginx stopped (nothing listens on its port).
    await nginx.stop();
    const refused = await fetch(nginx.base + "/index.html").then(() => false, () => true);
    check(refused, "offline through nginx: nginx is stopped (its port refuses)");
    const movesBefore = r.s.saved.moves.join(" ");
    await page.reload();
    await page.waitForSelector("#board [data-square]", { timeout: 30000 });
    let s = await myTurn(page, -1);
    check(s.saved.moves.join(" ") === movesBefore && s.ply === s.saved.moves.length,
      "offline through nginx: a reload with nginx stopped resumes the game", JSON.stringify({ ply: s.ply, n: s.saved.moves.length }));
    r = await playMoves(page, engine, tav, 4, check, "nginx stopped");
    check(r.played === 4 || r.s.over, "offline through nginx: moves played with nginx stopped", r.played);

    // The browser offline too: reload again and go on.
    await context.setOffline(true);
    const movesOff = r.s.saved.moves.join(" ");
    await page.reload();
    await page.waitForSelector("#board [data-square]", { timeout: 30000 });
    s = await myTurn(page, -1);
    check(s.saved.moves.join(" ") === movesOff, "offline through nginx: a reload with the browser offline resumes the game", s.ply);
    r = await playMoves(page, engine, tav, 3, check, "browser offline");
    check(r.played === 3 || r.s.over, "offline through nginx: moves played with the browser offline", r.played);
    check(errors.length === 0, "offline through nginx: no uncaught error in the page", errors.join("\n"));
  } finally {
    await browser.close();
    engine.free();
  }
}
