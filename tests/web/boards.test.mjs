// boards.test.mjs — browser tests of the Cathedral and Toscana boards.
//
// Starts `$BUILD/tavoliere serve` on a free port with a temporary database,
// drives Debian's Chromium (playwright-core), and for each game plays complete
// games as a human seat against the "random" player, by clicks, keys and taps
// only: the test reads the game from the API to choose a move among `legal`,
// then makes it on the page the way a player does (tests/web/polyomino_input.mjs).
// Screenshots of every game's start, middle and end (and a phone-size game)
// go to $BUILD/screenshots/.  Prints "N passed, N failed".
//
// Usage: BUILD=build node tests/web/boards.test.mjs [cathedral|toscana ...]
//        (WEB_TEST_URL=http://host:port uses a server already running)

import { spawn } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { chromium } from "playwright-core";
import { coveredSquares, makeMove } from "./polyomino_input.mjs";

const BUILD = process.env.BUILD || "build";
const SHOTS = path.join(BUILD, "screenshots");
const GAMES = process.argv.slice(2).length ? process.argv.slice(2) : ["cathedral", "toscana"];
const CHROMIUM = process.env.CHROMIUM || "/usr/bin/chromium";

let passed = 0, failed = 0;
function check(ok, what) {
  if (ok) passed++;
  else { failed++; console.log(`FAIL ${what}`); }
}

// A small deterministic generator, so a failing game can be replayed.
function rng(seed) {
  let s = seed >>> 0;
  return () => { s = (s * 1664525 + 1013904223) >>> 0; return s / 4294967296; };
}

async function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once("error", reject);
    srv.listen(0, "127.0.0.1", () => { const p = srv.address().port; srv.close(() => resolve(p)); });
  });
}

async function startServer(tmp) {
  if (process.env.WEB_TEST_URL) return { base: process.env.WEB_TEST_URL, stop: () => {} };
  const port = await freePort();
  const bin = path.join(BUILD, "tavoliere");
  const log = fs.openSync(path.join(tmp, "serve.log"), "w");
  const child = spawn(bin, ["serve", "--port", String(port), "--db", path.join(tmp, "test.db")], {
    stdio: ["ignore", log, log],
  });
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 100; i++) {
    try {
      const r = await fetch(`${base}/api/meta`);
      if (r.status < 500) return { base, stop: () => child.kill("SIGTERM") };
    } catch { /* not listening yet */ }
    if (child.exitCode !== null) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  child.kill("SIGKILL");
  throw new Error(`tavoliere serve did not start: ${fs.readFileSync(path.join(tmp, "serve.log"), "utf8")}`);
}

async function api(base, method, url, body) {
  const r = await fetch(base + url, {
    method, headers: body ? { "content-type": "application/json" } : {},
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await r.text();
  if (r.status >= 300) throw new Error(`${method} ${url}: ${r.status} ${text}`);
  return JSON.parse(text);
}

// Poll the game until the seat may act (legal not empty) or it is over.
async function waitTurn(base, id, seat, minPly) {
  for (let i = 0; i < 600; i++) {
    const g = await api(base, "GET", `/api/games/${id}?seat=${encodeURIComponent(seat)}`);
    if (g.over || (g.ply >= minPly && g.legal.length && !g.thinking)) return g;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error("the computer never answered");
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

// Checks on a drawn position, against the API's view.
async function checkDrawing(page, game, g, label) {
  const n = game === "cathedral" ? 100 : 289;
  const sq = await page.$$eval(`${ROOT[game]} [data-square]`, (els) => els.map((e) => [e.getAttribute("data-square"),
    e.getAttribute("aria-label") ?? ""]));
  const names = new Set(sq.map((x) => x[0]));
  check(sq.length === n && names.size === n, `${label}: ${n} squares with data-square (got ${sq.length}, ${names.size} distinct)`);
  check(sq.every(([name, aria]) => aria.startsWith(name)), `${label}: every square has an aria-label naming it`);
  const kinds = await page.$$eval(`${ROOT[game]} [data-square]`, (els) => els.map((e) => e.getAttribute("aria-label")));
  const occupied = Object.entries(g.view.squares).filter(([, s]) => s.kind).length;
  const labelled = kinds.filter((a) => a && !a.includes("empty")).length;
  check(occupied === labelled, `${label}: the labels name what stands on ${occupied} squares (got ${labelled})`);
  if (game === "toscana") {
    for (const side of ["white", "black"]) {
      const shown = await page.getAttribute(`.tav-hand-${side} .tav-stack`, "data-stack");
      check(Number(shown) === g.view.sides[side].stack, `${label}: ${side}'s stack size shown (${shown} vs ${g.view.sides[side].stack})`);
    }
    const areas = await page.$$eval(".tav-area-count", (els) => els.map((e) => Number(e.textContent)));
    const marked = ["areaWhite", "areaBlack"].filter((m) => Object.values(g.view.squares).some((s) => s.marks?.includes(m)));
    check(areas.length === marked.length, `${label}: one count per largest area (${areas.length} vs ${marked.length})`);
  } else {
    for (const side of ["white", "black"]) {
      const want = g.view.sides[side].hand.reduce((a, h) => a + h.count, 0);
      const got = await page.locator(`.tav-hand-${side} .tav-piece`).count();
      check(got === want, `${label}: ${side}'s hand shows ${want} buildings (got ${got})`);
    }
  }
}

// Play one complete game as `side` against "random".
async function playGame(browser, base, game, { side = "white", phone = false, seed = 1, name }) {
  const rand = rng(seed);
  const context = await browser.newContext(phone
    ? { viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, hasTouch: true, isMobile: true }
    : { viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  const errors = [];
  page.on("console", (m) => { if (m.type() === "error") errors.push(m.text()); });
  page.on("pageerror", (e) => errors.push(String(e)));
  const other = side === "white" ? "black" : "white";
  const made = await api(base, "POST", "/api/games", { game, options: "", [side]: "human", [other]: "random" });
  const seat = made.seats[side];
  check(typeof seat === "string" && seat.length > 10, `${name}: a seat token for the human side`);
  await page.goto(`${base}/games/${made.id}?seat=${encodeURIComponent(seat)}`);
  await page.waitForSelector(`${ROOT[game]} [data-square]`, { timeout: 15000 });

  let g = await waitTurn(base, made.id, seat, 0);
  await waitDrawn(page, game, g);
  await checkDrawing(page, game, g, `${name} start`);
  await page.screenshot({ path: path.join(SHOTS, `${name}-start.png`) });
  const counts = { mouse: 0, keys: 0, touch: 0, buttons: 0 };
  let moves = 0, shotMiddle = false;
  const stats = { decisions: 0, passes: 0 };
  while (!g.over && moves < 200) {
    const move = g.legal[Math.floor(rand() * g.legal.length)];
    if (move === "veto" || move === "accept") stats.decisions++;
    if (move === "pass") stats.passes++;
    const keys = !phone && moves % 3 === 1;
    const kind = ["pass", "veto", "accept"].includes(move) ? "buttons" : phone ? "touch" : keys ? "keys" : "mouse";
    counts[kind]++;
    await markStale(page, game);
    if (kind === "mouse" || kind === "keys" || kind === "touch") {
      // the ghost may stand only where the move is legal
      check(coveredSquares(game, move).length > 0, `${name}: ${move} covers squares`);
    }
    await makeMove(page, game, move, { keys, touch: phone, turnHow: moves % 2 ? ["wheel", "key"] : ["button", "key"] });
    moves++;
    g = await waitTurn(base, made.id, seat, g.ply + 1);
    await waitDrawn(page, game, g);
    if (!shotMiddle && g.ply >= (game === "cathedral" ? 16 : 24)) {
      shotMiddle = true;
      await checkDrawing(page, game, g, `${name} middle`);
      await page.screenshot({ path: path.join(SHOTS, `${name}-middle.png`) });
    }
  }
  check(g.over, `${name}: the game ended (${moves} moves by the page, ply ${g.ply}, winner ${g.winner})`);
  await page.waitForTimeout(300);
  await checkDrawing(page, game, g, `${name} end`);
  await page.screenshot({ path: path.join(SHOTS, `${name}-end.png`) });
  if (phone) check(counts.touch > 0, `${name}: moves made by taps (${counts.touch})`);
  else {
    check(counts.mouse > 0, `${name}: moves made by the mouse (${counts.mouse})`);
    check(counts.keys > 0, `${name}: moves made by the keyboard alone (${counts.keys})`);
  }
  check(errors.length === 0, `${name}: no console errors (${errors.slice(0, 3).join(" | ")})`);
  console.log(`${name}: ${moves} moves (${JSON.stringify(counts)}), ${stats.decisions} decisions, ${stats.passes} passes, ` +
    `ply ${g.ply}, score ${g.score.join(":")}, winner ${g.winner}`);
  await context.close();
}

async function main() {
  fs.mkdirSync(SHOTS, { recursive: true });
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "tav-boards-"));
  let server = null, browser = null;
  try {
    server = await startServer(tmp);
    // playwright gives the browser a fresh temporary --user-data-dir of its own
    browser = await chromium.launch({
      executablePath: CHROMIUM, headless: true,
      args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
        "--disable-component-update", "--disable-sync"],
    });
    let seed = 1;
    for (const game of GAMES) {
      for (const opts of [{ side: "white" }, { side: "black", phone: true }]) {
        const name = `${game}${opts.phone ? "-phone" : ""}`;
        try {
          await playGame(browser, server.base, game, { ...opts, seed: seed++, name });
        } catch (e) {
          check(false, `${name}: ${e.message.split("\n")[0]}`);
        }
      }
    }
  } catch (e) {
    check(false, `setup: ${e.message}`);
  } finally {
    if (browser) await browser.close();
    if (server) server.stop();
    fs.rmSync(tmp, { recursive: true, force: true });
  }
  console.log(`${passed} passed, ${failed} failed`);
  process.exit(failed ? 1 : 0);
}

main();
