// run.mjs — the page's unit tests: the pure TypeScript of web/src (the
// boards' geometry and input, view helpers, meta, the game screen's texts)
// under node's own test runner.
//
//   1. starts `$BUILD/tavoliere serve` (a free port, a temporary database)
//      and plays seeded random games of every game and sample option set
//      through the API, both seats human, keeping every position as the seat
//      to act sees it (legal, legalParts, view), plus /api/meta and the views
//      of a record with captures: the fixtures, written as JSON files to a
//      temporary directory (TAV_UNIT_FIXTURES) — what the current server
//      says, never stale;
//   2. type-checks the tests against web/src (tsc -p tests/web/unit, in the
//      background: esbuild only strips the types) and bundles each
//      tests/web/unit/*.test.ts with the esbuild of node_modules;
//   3. runs `node --test` on the bundles, the server still up (TAV_URL), and
//      prints node's own report, then "N passed, N failed" (node's pass, and
//      its fail plus cancelled, skipped and todo; a type error, a failed
//      set-up or a run with no pass is one failure more).
//
// Usage: [BUILD=build] node tests/web/unit/run.mjs [NAME...]   (a NAME runs the
// test files whose name contains it).

import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import * as esbuild from "esbuild";
import { startServer } from "../harness.mjs";
import { legalParts } from "../../server/lib.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, "../../..");
const only = process.argv.slice(2);
const files = fs.readdirSync(here).filter((f) => f.endsWith(".test.ts")).sort()
  .filter((f) => !only.length || only.some((o) => f.includes(o)));

let setupFailed = 0;
function failSetup(what, e) {
  setupFailed++;
  console.log(`FAIL ${what}: ${e && e.stack ? e.stack.split("\n").slice(0, 6).join("\n") : e}`);
}

// ---- The fixtures: positions from the current server -------------------------

// A seeded generator, so a failing position can be played again.
function rng(seed) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 4294967296;
  };
}

async function call(url, method, p, body) {
  const r = await fetch(url + p, {
    method, headers: body ? { "Content-Type": "application/json" } : {}, body: body ? JSON.stringify(body) : undefined,
  });
  const text = await r.text();
  if (!r.ok) throw new Error(`${method} ${p}: ${r.status} ${text}`);
  return JSON.parse(text);
}

// The move to play: a random one, but Epaminondas goes forward and captures
// (so its games reach the far rows and end).
function choose(g, rand) {
  const n = g.legal.length;
  if (g.game !== "epaminondas" || rand() < 0.3) return g.legal[Math.floor(rand() * n)];
  const rank = (s) => Number(s.slice(1));
  let best = 0, bv = -Infinity;
  legalParts(g).forEach((p, i) => {
    const front = p.squares[p.squares.length - 1] ?? p.to;
    const gain = (rank(p.to) - rank(front)) * (g.tomove === "white" ? 1 : -1);
    const v = (p.marked?.length ? 20 : 0) + gain * 3 + rand() * 4;
    if (v > bv) { bv = v; best = i; }
  });
  return g.legal[best];
}

// One game, both seats human: every position as the seat to act sees it, and
// the last one (over, or after maxPlies) as white sees it.
async function play(url, game, options, seed, maxPlies) {
  const c = await call(url, "POST", "/api/games", { game, options, white: "human", black: "human" });
  const rand = rng(seed);
  const states = [];
  for (let i = 0; ; i++) {
    const g = await call(url, "GET", `/api/games/${c.id}?seat=${c.seats.white}`);
    if (g.over || i >= maxPlies || g.tomove === "none") {
      states.push(g);
      break;
    }
    const s = g.tomove === "white" ? g : await call(url, "GET", `/api/games/${c.id}?seat=${c.seats.black}`);
    states.push(s);
    await call(url, "POST", `/api/games/${c.id}/moves`, { seat: c.seats[s.tomove], move: choose(s, rand), ply: s.ply });
  }
  return { game, options, seed, states };
}

async function fixtures(url) {
  const meta = await call(url, "GET", "/api/meta");
  const played = [];
  let seed = 1;
  // every game at once (each its own seed, in a fixed order): the server
  // answers them side by side
  const games = [];
  for (const g of meta.games) {
    const cap = g.name === "epaminondas" ? 150 : 200;
    for (const options of g.options) games.push(play(url, g.name, options, seed++, cap));
  }
  played.push(...(await Promise.all(games)));
  // A Cathedral game with captures (a record): its view after every ply.
  const rec = fs.readFileSync(path.join(root, "tests/web/fixtures/cathedral-captures.rec"), "utf8");
  const c = await call(url, "POST", "/api/records", { record: rec, white: "human", black: "human" });
  const last = await call(url, "GET", `/api/games/${c.id}`);
  const captures = [];
  for (let ply = 0; ply <= last.ply; ply++) captures.push((await call(url, "GET", `/api/games/${c.id}/view?ply=${ply}`)).view);
  return { url, meta, played, captures, capturesMoves: last.moves };
}

// ---- Bundle, run, count ---------------------------------------------------------

// Run a program; resolves to its exit code and output (shown as it comes when `show`).
function run(cmd, args, opts, show) {
  return new Promise((resolve) => {
    let text = "";
    const child = spawn(cmd, args, { ...opts, stdio: ["ignore", "pipe", "pipe"] });
    const take = (d) => { text += d; if (show) process.stdout.write(d); };
    child.stdout.on("data", take);
    child.stderr.on("data", take);
    child.on("error", (e) => { text += String(e); resolve({ code: -1, text }); });
    child.on("close", (code) => resolve({ code, text }));
  });
}

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "tav-unit-"));
let server = null;
let out = "";
const t0 = Date.now();
// The tests type-check against web/src (esbuild only strips the types): in
// the background, while the fixtures are made and the tests run.
const typecheck = run(path.join(root, "node_modules/.bin/tsc"), ["--noEmit", "-p", path.join(here, "tsconfig.json")],
  { cwd: root }, false);
try {
  // (node --test with no file would run every test file it finds)
  if (!files.length) throw new Error(`no tests/web/unit/*.test.ts matches ${only.join(" ")}`);
  server = await startServer();
  const fx = await fixtures(server.url);
  // One file per game (a test file reads only what it needs), one for the rest.
  const fxDir = path.join(tmp, "fixtures");
  fs.mkdirSync(fxDir);
  for (const g of fx.meta.games) {
    fs.writeFileSync(path.join(fxDir, `${g.name}.json`), JSON.stringify(fx.played.filter((p) => p.game === g.name)));
  }
  fs.writeFileSync(path.join(fxDir, "common.json"),
    JSON.stringify({ url: fx.url, meta: fx.meta, captures: fx.captures, capturesMoves: fx.capturesMoves }));
  const positions = fx.played.reduce((n, p) => n + p.states.length, 0);
  console.log(`fixtures: ${fx.played.length} games, ${positions} positions (${((Date.now() - t0) / 1000).toFixed(1)} s)`);

  await esbuild.build({
    entryPoints: files.map((f) => path.join(here, f)), bundle: true, platform: "node", format: "esm",
    target: "node20", outdir: tmp, outExtension: { ".js": ".mjs" }, sourcemap: "inline", logLevel: "warning",
  });
  const bundles = files.map((f) => path.join(tmp, f.replace(/\.ts$/, ".mjs")));
  const tsc = await typecheck;
  if (tsc.code !== 0) failSetup("the unit tests type-check (tsc -p tests/web/unit/tsconfig.json)", tsc.text);
  out = (await run(process.execPath, ["--enable-source-maps", "--test", "--test-concurrency=2", "--test-reporter=spec", ...bundles],
    { cwd: root, env: { ...process.env, TAV_UNIT_FIXTURES: fxDir, TAV_URL: server.url } }, true)).text;
} catch (e) {
  failSetup("unit suite set up", e);
} finally {
  if (server) await server.stop();
  fs.rmSync(tmp, { recursive: true, force: true });
}

const count = (what) => Number(new RegExp(`^\\S* ?${what} (\\d+)$`, "m").exec(out)?.[1] ?? 0);
const passed = count("pass");
let failed = count("fail") + count("cancelled") + setupFailed;
// A skipped or todo test checked nothing: each is a failure here (remove the
// skip, or the test).
for (const what of ["skipped", "todo"]) {
  const n = count(what);
  if (n) {
    console.log(`FAIL ${n} test(s) ${what} (a test that does not run counts as failed)`);
    failed += n;
  }
}
if (passed === 0 && !setupFailed) {
  console.log("FAIL no unit test passed (none ran?)");
  failed++;
}
if (!/^\S* ?tests \d+$/m.test(out) && !setupFailed) {
  console.log("FAIL node --test printed no summary");
  failed++;
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
