// harness.mjs — what the browser tests share: start `tavoliere serve` on a
// free port with a temporary database, launch Debian's Chromium headless with
// playwright-core, count checks, collect console errors, save screenshots.
//
// Environment: BUILD (default build) — the build directory holding tavoliere
// and web/; TAV_URL — use an already running server instead (for debugging).

import { spawn } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { chromium } from "playwright-core";

export const BUILD = process.env.BUILD || "build";
export const SHOTS = path.join(BUILD, "screenshots");

export const CHROMIUM_ARGS = [
  "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
  "--disable-background-networking", "--disable-component-update", "--disable-sync",
  "--disable-dev-shm-usage",
];

async function freePort() {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const p = s.address().port;
      s.close(() => resolve(p));
    });
  });
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
export { sleep };

// Start the server; resolves to { url, stop, log }.  `stop(tally)` ends it
// with SIGTERM and, given a tally, checks what server/lib.mjs checks: a clean
// exit (status 0) and no sanitizer report in its output.
export async function startServer() {
  if (process.env.TAV_URL) return { url: process.env.TAV_URL.replace(/\/$/, ""), stop: async () => {}, log: () => "" };
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "tav-web-"));
  const port = await freePort();
  const bin = path.join(BUILD, "tavoliere");
  const args = ["serve", "--host", "127.0.0.1", "--port", String(port), "--db", path.join(dir, "test.db"), "--web", path.join(BUILD, "web")];
  const child = spawn(bin, args, { stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  child.stdout.on("data", (d) => { out += d; });
  child.stderr.on("data", (d) => { out += d; });
  let exited = null;
  child.on("exit", (code, sig) => { exited = code ?? sig; });
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 200; i++) {
    if (exited !== null) throw new Error(`tavoliere serve exited (${exited}):\n${out}`);
    try {
      const r = await fetch(url + "/");
      if (r.ok) break;
    } catch {
      /* not up yet */
    }
    await sleep(50);
    if (i === 199) throw new Error(`tavoliere serve did not answer on ${url}:\n${out}`);
  }
  return {
    url,
    log: () => out,
    stop: async (tally = null) => {
      const wasRunning = exited === null;
      if (wasRunning) {
        child.kill("SIGTERM");
        // a sanitizer build may take a while to write its report and exit
        for (let i = 0; i < 1500 && exited === null; i++) await sleep(20);
        if (exited === null) child.kill("SIGKILL");
        for (let i = 0; i < 250 && exited === null; i++) await sleep(20);
      }
      if (tally) {
        tally.check("the page's server left no sanitizer report", !/AddressSanitizer|LeakSanitizer|runtime error:/.test(out),
          out.split("\n").filter((l) => /Sanitizer|runtime error/.test(l)).slice(0, 10).join("\n"));
        tally.check("the page's server was running until the end and stopped cleanly on SIGTERM",
          wasRunning && exited === 0, `exit ${exited}`);
      }
      fs.rmSync(dir, { recursive: true, force: true });
      return exited;
    },
  };
}

// Launch Chromium (playwright gives every launch a fresh temporary profile,
// the equivalent of a fresh --user-data-dir).
export async function launch() {
  return chromium.launch({ executablePath: process.env.CHROMIUM || "/usr/bin/chromium", headless: true, args: CHROMIUM_ARGS });
}

// Checks and their summary.
export class Tally {
  constructor() {
    this.passed = 0;
    this.failed = 0;
    this.errors = [];       // console errors seen on any page
  }
  check(name, ok, detail = "") {
    if (ok) this.passed++;
    else {
      this.failed++;
      console.log(`FAIL ${name}${detail ? ": " + detail : ""}`);
    }
    return ok;
  }
  // Watch a page for console errors and uncaught exceptions.
  // `allow`: a pattern of console errors this page is expected to log (the
  // browser logs every 4xx answer, e.g. the 409 a stale tab is meant to get).
  watch(page, label, allow = null) {
    page.on("console", (m) => {
      if (m.type() === "error" && !(allow && allow.test(m.text()))) this.errors.push(`${label}: console error: ${m.text()}`);
    });
    page.on("pageerror", (e) => this.errors.push(`${label}: uncaught: ${e.message}`));
    return page;
  }
}

export async function screenshot(page, name) {
  fs.mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SHOTS, `${name}.png`) });
}

// ---- The game API, read directly (to choose moves; the moves themselves are
// made on the page by clicks and keys) ------------------------------------------

export async function api(url, method, p, body) {
  const r = await fetch(url + p, {
    method, headers: body ? { "Content-Type": "application/json" } : {}, body: body ? JSON.stringify(body) : undefined,
  });
  const text = await r.text();
  let data = null;
  try { data = JSON.parse(text); } catch { data = text; }
  return { status: r.status, data };
}

// The game id and seat token from the page's address.
export function pageGame(page) {
  const u = new URL(page.url());
  const m = /^\/games\/([^/]+)/.exec(u.pathname);
  return { id: m ? decodeURIComponent(m[1]) : null, seat: u.searchParams.get("seat") };
}

// Start a game from the home page: game, option label, opponent
// ("computer" | "local" | "link"), level value ("random", "ai:level=N"), colour.
export async function newGameFromHome(page, url, { game, option = null, opponent = "computer", level = "random", colour = "white" }) {
  await page.goto(url + "/");
  await page.click(`.game-card[data-game="${game}"]`);
  if (option) await page.click(`.choice:has-text("${option}")`);
  await page.click(`.choice:has(input[name="opponent"][value="${opponent}"])`);
  if (opponent === "computer") await page.selectOption("#level", level);
  // the server's computer here (the computer in the page: inpage.test.mjs)
  if (opponent === "computer" && await page.isChecked("#in-page")) await page.uncheck("#in-page");
  if (opponent !== "local") await page.click(`.choice:has(input[name="colour"][value="${colour}"])`);
  await Promise.all([page.waitForURL(/\/games\//), page.click("#play")]);
  await page.waitForSelector("#board [data-square]");
}

// Wait until the page shows a position where this seat may move (the board's
// ply is past `afterPly`) or the game is over.  Returns the game's JSON.
export async function waitTurn(page, url, afterPly, timeout = 20000) {
  const { id, seat } = pageGame(page);
  const t0 = Date.now();
  for (;;) {
    const state = await page.evaluate(() => ({
      ply: Number(document.querySelector("#board")?.getAttribute("data-ply") ?? -1),
      live: document.querySelector("#board")?.getAttribute("data-live"),
      over: document.body.dataset.over === "1",
      status: document.querySelector("#status")?.textContent ?? "",
    }));
    if (state.ply > afterPly || state.over) {
      const g = (await api(url, "GET", `/api/games/${encodeURIComponent(id)}?seat=${encodeURIComponent(seat ?? "")}`)).data;
      if (g.over && state.over) return g;
      if (g.ply === state.ply && g.legal.length && !g.thinking) {
        // The page draws the same position and offers input.
        const ok = await page.evaluate(() => document.querySelector("#status")?.textContent);
        if (ok && !/thinking/i.test(ok)) return g;
      }
    }
    if (Date.now() - t0 > timeout) throw new Error(`no turn after ply ${afterPly} (page ${JSON.stringify(state)})`);
    await sleep(40);
  }
}

// Poll fn until it gives a truthy value (or ms pass): that value, or the last.
export async function until(fn, ms = 30000) {
  const t0 = Date.now();
  for (;;) {
    const v = await fn().catch(() => null);
    if (v || Date.now() - t0 > ms) return v;
    await sleep(100);
  }
}

// Sign up in the page (the sign-up form), then wait for the account menu.
export async function signUp(page, url, name, password = "correct horse") {
  await page.goto(`${url}/signup`);
  await page.fill("#auth-name", name);
  await page.fill("#auth-password", password);
  await page.fill("#auth-again", password);
  await Promise.all([page.waitForURL((u) => !u.pathname.startsWith("/signup")), page.click("#auth-submit")]);
  await page.waitForSelector("#account-name");
}

// The API from inside a page (its session cookie): {status, body}.
export const pageCall = (page, method, path, body) => page.evaluate(async ([m, p, b]) => {
  const r = await fetch(p, { method: m, headers: b ? { "Content-Type": "application/json" } : {}, body: b ? JSON.stringify(b) : undefined });
  return { status: r.status, body: await r.json().catch(() => null) };
}, [method, path, body]);
