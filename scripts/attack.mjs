// attack.mjs — replays the attacks the server was hardened against (the
// hardening issue's list) against `tavoliere serve` and prints what held, one
// row per attack: `attack | expected | observed | held`.
//
//   node scripts/attack.mjs --check
//       Starts its own servers (lib.mjs startServer: a fresh temporary
//       database each, BUILD=build-san for the sanitizer build), runs every
//       attack, prints the table and "N passed, N failed"; exit 0 only when
//       every attack held (a latency past its limit is marked SLOW and fails
//       only at ten times the limit: FAR below).  This is what tests/run.sh
//       runs.
//   node scripts/attack.mjs --base http://127.0.0.1:PORT [--pid PID] [--db PATH]
//       The same attacks against a server someone started.  The expectations
//       assume it was started with `--limit-loopback` (the per-address limits
//       apply to loopback clients) and otherwise the defaults (--rate 60,
//       --games-per-hour 60, --ai-ms 1000).  --pid lets the stalled-bodies
//       attack read the server's memory (/proc/PID/status), --db lets the
//       database-mode attack stat the file.  Skipped there, with a note:
//       --games-per-hour 5, --allow-host evil.example, the restart (they need
//       flags or control of the process); the scheduling attack uses 16 games
//       instead of 8 since the worker count is unknown (8 on --threads 1).
//   node scripts/attack.mjs --load [--base URL]
//       Figures, not pass/fail: a new player's computer reply latency while
//       computer-only games and 200 outstanding hints run; another client's
//       GET latency during 100,000-ply record uploads and during 3,000
//       slow-header connections.  Each load phase is bounded (<= 60 s).
//   --only WORD   run only the attacks whose name contains WORD (debugging).
//
// Clients appear as different peers by binding their sockets to addresses of
// 127.0.0.0/8 (all of it is this machine); nothing is sent anywhere else.
// Every loop is bounded in count and time.
import crypto from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import http from "node:http";
import net from "node:net";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import WebSocket from "ws";
import { BUILD, SAN, check, engine, sleep, startServer, summary } from "../tests/server/lib.mjs";
import { startNginx } from "../tests/server/nginx.mjs";
import { hogWorker } from "../tests/server/hog.mjs";

// lib.mjs runs $BUILD/tavoliere relative to the working directory: the repository.
process.chdir(join(dirname(fileURLToPath(import.meta.url)), ".."));

const argv = process.argv.slice(2);
const opt = (name) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? argv[i + 1] : undefined;
};
const LOAD = argv.includes("--load");
const BASE = opt("base");
const ONLY = opt("only");
const BASE_PID = opt("pid") ? Number(opt("pid")) : null;
const BASE_DB = opt("db") || null;
const SLOW = SAN ? 3 : 1;     // the sanitizer build is slower: wider time-outs
// Wall-clock limits (a GET answered within 200 ms, ...): the table gives each
// figure with its nominal limit, "SLOW" when past it; --check fails a row on
// time only far past it (FAR times the limit): a loaded machine is not a
// broken server, while a server that stalls its loop for seconds still fails.
const FAR = 10 * SLOW;
const slow = (ms, limit) => (ms >= limit ? ` (SLOW: past ${limit} ms)` : "");
const inTime = (ms, limit) => ms < limit * FAR;

if (BASE) {
  const u = new URL(BASE);
  if (!/^127\.\d+\.\d+\.\d+$/.test(u.hostname) && u.hostname !== "localhost") {
    console.log(`--base must be a loopback address (127.0.0.0/8 or localhost), not ${u.hostname}`);
    process.exit(2);
  }
}

// ---- client addresses: each call a new peer of 127.0.0.0/8 ----
const OCT = BASE ? 10 + crypto.randomInt(240) : 3;   // a fresh range per run against a shared server
let nextAddr = 0;
function addr() {
  const n = nextAddr++;
  return `127.${OCT}.${Math.floor(n / 250) % 250}.${(n % 250) + 2}`;
}
const addrs = (k) => Array.from({ length: k }, addr);

// ---- the table ----
const rows = [];
function row(attack, expected, observed, held) {
  const mark = typeof held === "string" ? held : held ? "yes" : "NO";
  rows.push({ attack, expected, observed: String(observed), held: mark });
  if (typeof held === "boolean") check(held, attack, `expected ${expected}; observed ${observed}`);
  console.log(`# ${attack}: ${mark} (${observed})`);
}
function printTable() {
  const cols = ["attack", "expected", "observed", "held"];
  const w = cols.map((c) => Math.max(c.length, ...rows.map((r) => r[c].length)));
  const line = (r) => cols.map((c, i) => (i === cols.length - 1 ? r[c] : r[c].padEnd(w[i]))).join(" | ");
  console.log("");
  console.log(line({ attack: "attack", expected: "expected", observed: "observed", held: "held" }));
  console.log(cols.map((c, i) => "-".repeat(w[i])).join("-|-"));
  for (const r of rows) console.log(line(r));
  console.log("");
}

// ---- HTTP from a chosen address ----
// Resolves {status, body (parsed JSON when JSON), text, headers, ms}; a
// failed connection gives status "error CODE".
function req(S, method, path, body, { from, headers = {}, timeout = 30000 } = {}) {
  return new Promise((resolve) => {
    const data = body === undefined ? null : typeof body === "string" ? body : JSON.stringify(body);
    const h = { ...headers };
    if (data !== null) {
      if (!h["content-type"]) h["content-type"] = "application/json";
      h["content-length"] = Buffer.byteLength(data);
    }
    const t0 = performance.now();
    let done = false;
    const finish = (r) => { if (!done) { done = true; resolve({ ...r, ms: performance.now() - t0 }); } };
    const r = http.request({ host: S.host, port: S.port, method, path, headers: h, agent: false, localAddress: from }, (res) => {
      const chunks = [];
      res.on("data", (c) => chunks.push(c));
      res.on("error", (e) => finish({ status: `error ${e.code || e.message}`, body: null, text: "", headers: {} }));
      res.on("end", () => {
        const text = Buffer.concat(chunks).toString();
        let parsed = text;
        if ((res.headers["content-type"] || "").includes("application/json")) {
          try { parsed = JSON.parse(text); } catch { parsed = { unparsable: text }; }
        }
        finish({ status: res.statusCode, body: parsed, text, headers: res.headers });
      });
    });
    r.setTimeout(timeout, () => r.destroy(Object.assign(new Error("timeout"), { code: "TIMEOUT" })));
    r.on("error", (e) => finish({ status: `error ${e.code || e.message}`, body: null, text: "", headers: {} }));
    if (data !== null) r.write(data);
    r.end();
  });
}
const GET = (S, path, from, o = {}) => req(S, "GET", path, undefined, { from, ...o });
const POST = (S, path, body, from, o = {}) => req(S, "POST", path, body, { from, ...o });

// A raw TCP connection from an address: what it receives, and when it closed.
function rawConn(S, from) {
  const s = net.connect({ host: S.host, port: S.port, localAddress: from });
  const c = { s, data: Buffer.alloc(0), connectedAt: 0, closedAt: 0, error: null };
  c.connected = new Promise((resolve) => {
    s.once("connect", () => { c.connectedAt = performance.now(); resolve(true); });
    s.once("close", () => resolve(false));
  });
  s.on("data", (d) => (c.data = Buffer.concat([c.data, d])));
  s.on("error", (e) => (c.error = e.code || e.message));
  s.on("close", () => (c.closedAt = performance.now()));
  c.text = () => c.data.toString("latin1");
  c.waitClose = async (ms) => {
    const end = performance.now() + ms;
    while (!c.closedAt && performance.now() < end) await sleep(10);
    return !!c.closedAt;
  };
  return c;
}

// Send bytes on a fresh connection; resolve with what came back once the
// server closes it (or after ms).
async function rawExchange(S, from, bytes, ms = 2000) {
  const c = rawConn(S, from);
  if (await c.connected) c.s.write(bytes);
  await c.waitClose(ms);
  c.s.destroy();
  return { text: c.text(), closed: !!c.closedAt };
}

// Headers of a raw HTTP answer, lower-cased names.
function parseHead(text) {
  const end = text.indexOf("\r\n\r\n");
  const lines = (end >= 0 ? text.slice(0, end) : text).split("\r\n");
  const status = /^HTTP\/1\.[01] (\d{3})/.exec(lines[0] || "");
  const headers = {};
  for (const l of lines.slice(1)) {
    const i = l.indexOf(":");
    if (i > 0) headers[l.slice(0, i).trim().toLowerCase()] = l.slice(i + 1).trim();
  }
  return { status: status ? Number(status[1]) : null, headers };
}

// A live socket from an address: its messages, parsed.
function liveFrom(S, id, from, seat) {
  const url = `ws://${S.host}:${S.port}/api/games/${id}/live` + (seat ? `?seat=${seat}` : "");
  const ws = new WebSocket(url, { localAddress: from });
  const c = { ws, messages: [], times: [], closed: null };
  ws.on("message", (d) => {
    let m;
    try { m = JSON.parse(String(d)); } catch { m = { unparsable: String(d) }; }
    c.messages.push(m);
    c.times.push(performance.now());
  });
  ws.on("close", (code) => (c.closed = { code }));
  ws.on("error", () => {});
  c.open = new Promise((resolve) => {
    ws.once("open", () => resolve(true));
    ws.once("error", () => resolve(false));
    ws.once("close", () => resolve(false));
  });
  c.until = async (pred, ms) => {
    const end = performance.now() + ms;
    while (!pred(c.messages)) {
      if (c.closed || performance.now() > end) return false;
      await sleep(5);
    }
    return true;
  };
  c.send = (o) => ws.send(JSON.stringify(o));
  c.close = () => { try { ws.terminate(); } catch { /* closed */ } };
  return c;
}

// ---- games ----
async function create(S, from, game, white, black, options = "", extra = {}) {
  const r = await POST(S, "/api/games", { game, options, white, black, ...extra }, from);
  return { status: r.status, id: r.body && r.body.id, seats: (r.body && r.body.seats) || {}, error: r.body && r.body.error };
}
async function game(S, from, id, seat) {
  const r = await GET(S, `/api/games/${id}` + (seat ? `?seat=${seat}` : ""), from);
  return r.status === 200 ? r.body : null;
}
// Poll (at most ~7 a second: under --rate 60) until `side` is to act and no
// computer thinks, or the game is over; null on time-out.
async function waitTurn(S, from, id, seat, side, ms) {
  const end = performance.now() + ms;
  while (performance.now() < end) {
    const g = await game(S, from, id, seat);
    if (g && (g.over || (g.tomove === side && !g.thinking))) return g;
    await sleep(150);
  }
  return null;
}
const play = (S, from, id, seat, move, ply) => POST(S, `/api/games/${id}/moves`, { seat, move, ply }, from);

// Play `n` moves of a two-human game, each by the seat to act (its first legal move).
async function playHuman(S, from, c, n) {
  for (let i = 0; i < n; i++) {
    const g0 = await game(S, from, c.id);
    const g = await game(S, from, c.id, c.seats[g0.tomove]);
    const r = await play(S, from, c.id, c.seats[g.tomove], g.legal[0], g.ply);
    if (r.status !== 200) throw new Error(`move ${g.legal[0]}: ${r.status} ${r.text}`);
  }
  return game(S, from, c.id);
}

// ---- measuring ----
const pct = (xs, p) => {
  if (!xs.length) return NaN;
  const a = [...xs].sort((x, y) => x - y);
  return a[Math.min(a.length - 1, Math.floor(p * a.length))];
};
const f1 = (x) => (Number.isFinite(x) ? x.toFixed(1) : "-");
function rssOf(pid) {
  try { return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))[1]) * 1024; } catch { return NaN; }
}

// Another client's GET /api/meta in a loop (new connection each, from a pool
// of addresses so --rate 60 never refuses it) until stopped.
function prober(S, pool, gapMs = 10, maxMs = 120000) {
  const p = { lat: [], bad: [], stopped: false };
  p.done = (async () => {
    const end = performance.now() + maxMs;
    for (let i = 0; !p.stopped && performance.now() < end; i++) {
      const r = await GET(S, "/api/meta", pool[i % pool.length], { timeout: 30000 });
      if (r.status === 200) p.lat.push(r.ms);
      else p.bad.push(r.status);
      await sleep(gapMs);
    }
  })();
  p.stop = async () => { p.stopped = true; await p.done; return p; };
  p.summary = () => `GET n=${p.lat.length} p50 ${f1(pct(p.lat, 0.5))} ms, p99 ${f1(pct(p.lat, 0.99))} ms, max ${f1(Math.max(...p.lat))} ms` +
    (p.bad.length ? `, ${p.bad.length} failed (${[...new Set(p.bad)].join(",")})` : "");
  return p;
}

// ---- records ----
// Epaminondas back-and-forth: each side's move and its reverse (checked with
// `tavoliere engine` before use), so any number of plies is legal.
const CYCLE = ["a2-a3", "a11-a10", "a3-a2", "a10-a11"];
const epaRecord = (plies) => `[Game "epaminondas"]\n[Options "maxplies=100000"]\n\n` +
  Array.from({ length: plies }, (_, i) => CYCLE[i % 4]).join(" ") + "\n";
let cycleChecked = null;
async function checkCycle() {
  if (cycleChecked !== null) return cycleChecked;
  const e = engine();
  let ok = (await e.cmd("newgame epaminondas maxplies=100000")) === "ok";
  for (let i = 0; ok && i < 1004; i++) ok = (await e.cmd(`play ${CYCLE[i % 4]}`)) === "ok";
  const st = await e.cmd("state");
  e.close();
  cycleChecked = ok && /over=no/.test(st);
  return cycleChecked;
}

const stacksOf = (rec) => {
  const w = /\[WhiteStack "([^"]+)"\]/.exec(rec), b = /\[BlackStack "([^"]+)"\]/.exec(rec);
  return w && b ? `${w[1]} / ${b[1]}` : null;
};

// =====================================================================
// The attacks.  Each takes the server S (host, port, pid, db, child ...)
// and adds its rows.
// =====================================================================

// 1. Undo: never after the end, never in Toscana, still against a computer elsewhere.
async function attackUndo(S) {
  const a = addr();
  const c = await create(S, a, "toscana", "human", "ai:level=1");
  if (c.status !== 201) throw new Error(`create toscana: ${c.status} ${c.error}`);
  const W = c.seats.white;
  let g = null;
  for (let i = 0; i < 3; i++) {
    g = await waitTurn(S, a, c.id, W, "white", 30000 * SLOW);
    if (!g || g.over || !g.legal.length) break;
    const r = await play(S, a, c.id, W, g.legal[0], g.ply);
    if (r.status !== 200) throw new Error(`toscana move: ${r.status} ${r.text}`);
  }
  g = await waitTurn(S, a, c.id, W, "white", 30000 * SLOW);
  if (!g || g.over) throw new Error("the Toscana game did not come back to white, or ended");
  // During the game.
  const u1 = await POST(S, `/api/games/${c.id}/undo`, { seat: W, ply: g.ply }, a);
  const g1 = await game(S, a, c.id, W);
  const running = u1.status === 409 && !/stale/.test(u1.body.error || "") &&
    JSON.stringify(g1.moves) === JSON.stringify(g.moves) && !g1.over;
  row("undo during a running Toscana game", "409 (not a stale-ply refusal), moves unchanged",
    `${u1.status} "${u1.body && u1.body.error}", ${g1.moves.length}/${g.moves.length} moves`, running);
  // After the end.
  const rs = await POST(S, `/api/games/${c.id}/resign`, { seat: W }, a);
  const rec = await GET(S, `/api/games/${c.id}/record`, a);
  const over = await game(S, a, c.id, W);
  const u2 = await POST(S, `/api/games/${c.id}/undo`, { seat: W, ply: over.ply }, a);
  const g2 = await game(S, a, c.id, W);
  const held = rs.status === 200 && rec.status === 200 && !!stacksOf(rec.text) && u2.status === 409 &&
    !/stale/.test(u2.body.error || "") && g2.over && g2.resigned === "white" &&
    JSON.stringify(g2.moves) === JSON.stringify(over.moves);
  row("undo after resigning a Toscana game (record shows the stacks)",
    "409, game still over with the same moves",
    `resign ${rs.status}, stacks in record ${!!stacksOf(rec.text)}, undo ${u2.status} "${u2.body && u2.body.error}", ` +
    `after: over=${g2.over} ${g2.moves.length}/${over.moves.length} moves`, held);
  // Urbino against the computer: undo still works.
  const u = await create(S, a, "urbino", "human", "ai:level=1");
  const UW = u.seats.white;
  let ug = await waitTurn(S, a, u.id, UW, "white", 30000 * SLOW);
  const mv = await play(S, a, u.id, UW, ug.legal[0], ug.ply);
  ug = await waitTurn(S, a, u.id, UW, "white", 30000 * SLOW);
  const u3 = await POST(S, `/api/games/${u.id}/undo`, { seat: UW, ply: ug.ply }, a);
  const ok3 = mv.status === 200 && u3.status === 200 && u3.body.ply < ug.ply &&
    JSON.stringify(ug.moves.slice(0, u3.body.ply)) === JSON.stringify(u3.body.moves);
  row("undo in Urbino against ai:level=1", "200, back to before white's move",
    `${u3.status}, ply ${ug.ply} -> ${u3.body && u3.body.ply}`, ok3);
}

// 2a. Scheduling: every computer reply arrives although the queue is longer
// than the watchdog's 4 s (budget x 2 + 2 s).
async function attackScheduling(S) {
  const n = BASE ? 16 : 8;
  const from = addrs(n);
  const games = [];
  for (let i = 0; i < n; i++) {
    const c = await create(S, from[i], "epaminondas", "human", "ai:level=10");
    if (c.status !== 201) throw new Error(`create ${i}: ${c.status} ${c.error}`);
    const g = await game(S, from[i], c.id, c.seats.white);
    games.push({ c, from: from[i], first: g.legal[0] });
  }
  // Every human move at once: every computer reply is queued at once.
  const t0 = performance.now();
  const moved = await Promise.all(games.map((x) => play(S, x.from, x.c.id, x.c.seats.white, x.first, 0)));
  const bad = moved.filter((r) => r.status !== 200).length;
  const deadline = t0 + 45000 * (SAN ? 1.5 : 1);
  const times = await Promise.all(games.map(async (x) => {
    while (performance.now() < deadline) {
      const g = await game(S, x.from, x.c.id);
      if (g && g.ply >= 2) return (performance.now() - t0) / 1000;
      await sleep(250);
    }
    return null;
  }));
  const got = times.filter((t) => t !== null);
  row(`${n} human-vs-ai:level=10 games, every reply queued at once`,
    `${n}/${n} computer replies arrive (queue > 4 s: ${BASE ? "16 x ai-ms / workers" : "8 x 1 s on 1 worker"})`,
    `${got.length}/${n} replies${bad ? `, ${bad} moves refused` : ""}; first ${f1(Math.min(...got))} s, last ${f1(Math.max(...got))} s`,
    got.length === n && bad === 0);
}

// 2b. Hints: one per game, four per address.
async function attackHints(S) {
  // Keep the workers busy with computer seats (searched before hints) so
  // the hints stay under way while the others arrive.
  const blk = addr();
  for (let i = 0; i < (BASE ? 6 : 3); i++) await create(S, blk, "epaminondas", "ai:level=10", "human");
  const h1 = addr(), h2 = addr();
  // Two people at one screen ("local"): hints are allowed there (fair play).
  const one = await create(S, h1, "epaminondas", "human", "human", "", { local: true });
  const five = [];
  for (let i = 0; i < 5; i++) five.push(await create(S, h2, "epaminondas", "human", "human", "", { local: true }));
  const hint = (from, c) => POST(S, `/api/games/${c.id}/hint`, { seat: c.seats.white }, from, { timeout: 60000 * SLOW });
  const [pair, many] = await Promise.all([
    Promise.all([hint(h1, one), hint(h1, one)]),
    Promise.all(five.map((c) => hint(h2, c))),
  ]);
  const ps = pair.map((r) => r.status).sort();
  const ms = many.map((r) => r.status).sort();
  const e429 = (rs) => (rs.find((r) => r.status === 429) || { body: {} }).body.error;
  row("2 hints at once on one game", "one 200, the other 429",
    `${ps.join(",")}${e429(pair) ? ` ("${e429(pair)}")` : ""}`, ps.join(",") === "200,429");
  row("5 hints at once from one address on 5 games", "four 200, the 5th 429",
    `${ms.join(",")}${e429(many) ? ` ("${e429(many)}")` : ""}`, ms.join(",") === "200,200,200,200,429");
}

// 2c. Computer-only games: two unfinished per address.
async function attackCpuOnly(S) {
  const a = addr();
  const st = [];
  let err = "";
  for (let i = 0; i < 3; i++) {
    const c = await create(S, a, "epaminondas", "ai:level=10", "ai:level=10");
    st.push(c.status);
    if (c.error) err = c.error;
  }
  const other = await create(S, addr(), "epaminondas", "ai:level=10", "ai:level=10");
  row("3 computer-only games (ai:level=10 vs ai:level=10) from one address", "201, 201, 429 (another address 201)",
    `${st.join(", ")}${err ? ` ("${err}")` : ""}; other address ${other.status}`,
    st.join(",") === "201,201,429" && other.status === 201);
}

// 3. Records: the ply limit, off the event loop; maxplies.
async function attackRecords(S) {
  const legal = await checkCycle();
  const a = addr();
  const t0 = performance.now();
  const r1 = await POST(S, "/api/records", { record: epaRecord(1001), white: "human", black: "human" }, a, { timeout: 60000 });
  const s1 = (performance.now() - t0) / 1000;
  row("record of 1,001 legal plies, [Options \"maxplies=100000\"]", "400 too many moves within 2 s",
    `${r1.status} "${r1.body && r1.body.error}" in ${s1.toFixed(2)} s${slow(s1 * 1000, 2000)}${legal ? "" : " (the cycle is NOT legal in the engine)"}`,
    legal && r1.status === 400 && /too many moves/.test((r1.body && r1.body.error) || "") && inTime(s1 * 1000, 2000));

  const big = epaRecord(100000);
  const p = prober(S, addrs(8), 10);
  await sleep(100);
  const t1 = performance.now();
  const r2 = await POST(S, "/api/records", { record: big, white: "human", black: "human" }, addr(), { timeout: 60000 });
  const s2 = performance.now() - t1;
  await sleep(50);
  await p.stop();
  const worst = Math.max(...p.lat);
  row(`record of 100,000 plies (${Math.round(big.length / 1000)} KB) while another client GETs /api/meta`,
    "400; every GET 200 in < 200 ms",
    `${r2.status} "${r2.body && r2.body.error}" in ${s2.toFixed(0)} ms; ${p.summary()}${slow(worst, 200)}`,
    r2.status === 400 && p.lat.length >= 3 && p.bad.length === 0 && inTime(worst, 200));

  const m1 = await create(S, a, "epaminondas", "human", "human", "maxplies=100000");
  const m2 = await create(S, a, "epaminondas", "human", "human", "maxplies=1000");
  row("POST /api/games epaminondas maxplies=100000, then maxplies=1000", "400, then 201",
    `${m1.status}${m1.error ? ` ("${m1.error}")` : ""}, ${m2.status}`, m1.status === 400 && m2.status === 201);
}

// 4. Deals and the database file.
async function attackDeals(S) {
  const a = addr();
  const meta = await GET(S, "/api/meta", a);
  const stacks = meta.body.games.find((g) => g.name === "toscana").options.find((o) => o.includes("white="));
  const cases = [["seed=7", true], [stacks, true], ["", false]];
  const seen = [];
  let ok = true;
  for (const [options, want] of cases) {
    const c = await create(S, a, "toscana", "human", "human", options);
    const g = c.status === 201 ? await game(S, a, c.id) : null;
    const v = g ? g.dealChosen : `create ${c.status}`;
    seen.push(v);
    ok = ok && v === want;
  }
  row("Toscana dealChosen: options seed=7 / white=..black=.. / none", "true / true / false", seen.join(" / "), ok);

  // A stackless record, twice: each dealt at random.
  const deals = [];
  const chosen = [];
  for (let i = 0; i < 2; i++) {
    const r = await POST(S, "/api/records", { record: `[Game "toscana"]\n[Result "*"]\n`, white: "human", black: "human" }, a);
    if (r.status !== 201) { deals.push(`upload ${r.status}`); continue; }
    const g = await game(S, a, r.body.id);
    chosen.push(g && g.dealChosen);
    const rs = await POST(S, `/api/games/${r.body.id}/resign`, { seat: r.body.seats.white }, a);
    const rec = await GET(S, `/api/games/${r.body.id}/record`, a);
    deals.push(rs.status === 200 ? stacksOf(rec.text) : `resign ${rs.status}`);
  }
  const differ = deals.length === 2 && deals.every((d) => d && d.includes(" / ")) && deals[0] !== deals[1];
  row("stackless Toscana record uploaded twice, both resigned", "two different deals in the records (dealChosen false)",
    `${differ ? "different" : "SAME or missing"}: ${deals.map((d) => String(d).slice(0, 23) + "...").join(" vs ")}; dealChosen ${chosen.join(",")}`,
    differ && chosen.every((x) => x === false));

  if (!S.db) {
    row("database file and -wal mode", "0600", "skipped: give --db PATH", "skipped");
    return;
  }
  const mode = (p) => { try { return (statSync(p).mode & 0o777).toString(8).padStart(4, "0"); } catch { return "absent"; } };
  const m = [mode(S.db), mode(S.db + "-wal"), mode(S.db + "-shm")];
  row("database file, -wal, -shm mode (server running)", "0600, 0600, 0600 (-shm 0600 or absent)",
    m.join(", "), m[0] === "0600" && m[1] === "0600" && (m[2] === "0600" || m[2] === "absent"));
}

// 5a. Slow headers: 100 connections from one address.
async function attackSlowHeaders(S) {
  const a = addr();
  const p = prober(S, addrs(8), 20);
  const conns = [];
  for (let i = 0; i < 100; i++) {
    const c = rawConn(S, a);
    conns.push(c);
    if (await Promise.race([c.connected, sleep(3000).then(() => false)])) c.s.write("GET / HTTP/1.1\r\n");
  }
  // Those past 16 unfinished first requests are closed at once; give the last
  // ones a moment (on a loaded machine, more: the loop ends once 84 closed).
  const end = performance.now() + 1500 * FAR;
  while (performance.now() < end && conns.filter((c) => c.closedAt).length < 84) await sleep(20);
  await sleep(300);
  await p.stop();
  const closed = conns.filter((c) => c.closedAt);
  const slowest = Math.max(0, ...closed.map((c) => c.closedAt - (c.connectedAt || c.closedAt)));
  const open = conns.length - closed.length;
  for (const c of conns) c.s.destroy();
  const worst = Math.max(...p.lat);
  row("100 slow-header connections from one address (\"GET / HTTP/1.1\\r\\n\" then nothing)",
    "84 closed at once (< 1 s), 16 held (16 unfinished first requests per address); other address: GETs 200 in < 200 ms",
    `${closed.length} closed (slowest ${f1(slowest)} ms after connect${slow(slowest, 1000)}), ${open} held; ${p.summary()}${slow(worst, 200)}`,
    closed.length === 84 && open === 16 && inTime(slowest, 1000) && p.bad.length === 0 && p.lat.length >= 3 &&
    inTime(worst, 200));
  await sleep(200);
}

// 5a'. Slow headers from many addresses: 3,000 connections from 50 addresses
// (60 each, under the 64 connections per address) would fill libwebsockets'
// header pool if each address could hold 60 unfinished requests.
async function attackSlowHeadersMany(S) {
  const conns = [];
  const t0 = performance.now();
  const opening = [];
  for (let i = 0; i < 50; i++) {
    const a = addr();
    opening.push((async () => {
      for (let k = 0; k < 60 && performance.now() - t0 < 15000 * SLOW; k++) {
        const c = rawConn(S, a);
        conns.push(c);
        if (await Promise.race([c.connected, sleep(3000).then(() => false)])) c.s.write("GET / HTTP/1.1\r\n");
      }
    })());
  }
  await Promise.all(opening);
  const p = prober(S, addrs(8), 20);
  await sleep(1500);
  await p.stop();
  const held = conns.filter((c) => c.connectedAt && !c.closedAt).length;
  for (const c of conns) c.s.destroy();
  const worst = Math.max(...p.lat);
  row("3,000 slow-header connections from 50 addresses (60 each)",
    "at most 16 held per address (800); other addresses: GETs 200 in < 200 ms",
    `${held} held; ${p.summary()}${slow(worst, 200)}`,
    held <= 800 && p.bad.length === 0 && p.lat.length >= 3 && inTime(worst, 200));
  await sleep(300);
}

// 5b. 30 stalled 1 MB record bodies from one address.
async function attackStalledBodies(S) {
  const a = addr();
  const pid = S.pid;
  const rss0 = pid ? rssOf(pid) : NaN;
  let peak = rss0;
  const p = prober(S, addrs(8), 20);
  const LEN = 1000000, HALF = 500000;
  const head = `POST /api/records HTTP/1.1\r\nHost: ${S.host}:${S.port}\r\nContent-Type: application/json\r\nContent-Length: ${LEN}\r\n\r\n`;
  const half = '{"record":"' + "x".repeat(HALF - 11);
  const conns = [];
  for (let i = 0; i < 30; i++) {
    const c = rawConn(S, a);
    conns.push(c);
    if (await Promise.race([c.connected, sleep(3000).then(() => false)])) c.s.write(head + half);
    if (pid) peak = Math.max(peak, rssOf(pid));
  }
  const end = performance.now() + 2000 * SLOW;
  while (performance.now() < end) {
    if (pid) peak = Math.max(peak, rssOf(pid));
    await sleep(50);
  }
  await p.stop();
  const st = conns.map((c) => {
    const h = parseHead(c.text());
    return h.status ? String(h.status) : c.closedAt ? "closed" : "held";
  });
  const count = (k) => st.filter((x) => x === k).length;
  const others = st.filter((x) => !["503", "closed", "held"].includes(x));
  for (const c of conns) c.s.destroy();
  const grow = (peak - rss0) / 1048576;
  const held = count("held");
  row("30 stalled 1 MB record bodies from one address (headers + half the body)",
    "at most 8 held (4 MiB / 512 KiB), the rest 503 or closed; RSS +< 100 MB; other address served",
    `${count("503")} x 503, ${count("closed")} closed, ${held} held${others.length ? `, other: ${others.join(",")}` : ""}; ` +
    `RSS ${pid ? `+${f1(grow)} MB (peak)` : "not measured (no --pid)"}; ${p.summary()}`,
    held <= 8 && count("503") + count("closed") >= 22 && others.length === 0 && (!pid || grow < 100) &&
    p.bad.length === 0 && p.lat.length >= 3);
  await sleep(200);
}

// 5c. {"since": 0} spam: one catch-up copy per version.
async function attackSince(S) {
  const a = addr();
  const c = await create(S, a, "epaminondas", "human", "human");
  await playHuman(S, a, c, 2);
  // Opened one after another, as a browser does (it has one handshake under
  // way per server at a time): the server refuses more than 16 unfinished
  // handshakes at once from one address.
  const socks = [];
  const opened = [];
  for (let i = 0; i < 20; i++) {
    const s = liveFrom(S, c.id, a);
    socks.push(s);
    opened.push(await s.open);
  }
  await Promise.all(socks.map((s) => s.until((m) => m.length >= 1, 5000 * SLOW)));
  for (let i = 0; i < 20; i++) {
    for (const s of socks) if (!s.closed) s.send({ since: 0 });
    await sleep(55);
  }
  await sleep(500 * SLOW);
  const counts = socks.map((s) => s.messages.filter((m) => m && m.id === c.id).length);
  const closed = socks.filter((s) => s.closed).length;
  for (const s of socks) s.close();
  row("20 sockets x 20 {\"since\": 0} on one game (2 moves played)", "each socket: at most 2 game messages, none closed",
    `game messages per socket: min ${Math.min(...counts)}, max ${Math.max(...counts)}; ${closed} closed; ${opened.filter(Boolean).length}/20 opened`,
    opened.every(Boolean) && Math.max(...counts) <= 2 && Math.min(...counts) >= 1 && closed === 0);
}

// 5d. Games per hour (server started with --games-per-hour 5).
async function attackGamesPerHour(S) {
  const a = addr(), b = addr();
  const st = [];
  let err = "";
  for (let i = 0; i < 6; i++) {
    const c = await create(S, a, "urbino", "human", "human");
    st.push(c.status);
    if (c.error) err = c.error;
  }
  const other = await create(S, b, "urbino", "human", "human");
  row("--games-per-hour 5: 6 games from one address, then one from another", "201 x5, 429; other address 201",
    `${st.join(",")}${err ? ` ("${err}")` : ""}; other ${other.status}`,
    st.join(",") === "201,201,201,201,201,429" && other.status === 201);
}

// 5e. Restart: only games whose computer seat is to act are loaded at start.
async function attackRestart() {
  const dir = mkdtempSync(join(tmpdir(), "tav-attack-"));
  const db = join(dir, "restart.db");
  try {
    let S = await serverOn({ db, args: ["--limit-loopback"] });
    const a = addr();
    const made = [];
    for (let i = 0; i < 4; i++) {
      const c = await create(S, a, "epaminondas", "human", "human");
      await playHuman(S, a, c, 2 + i);
      made.push(c);
    }
    const cpu = await create(S, a, "epaminondas", "random", "random");
    made.push(cpu);
    await sleep(1200);
    const before = [];
    for (const c of made) before.push((await game(S, a, c.id)).moves);
    await S.stop();
    S = await serverOn({ db, args: ["--limit-loopback"] });
    const loaded = /(\d+) games loaded/.exec(S.output());
    const after = [];
    for (const c of made) {
      const g = await game(S, a, c.id);
      after.push(g ? g.moves : null);
    }
    await S.stop();
    const same = after.slice(0, 4).every((m, i) => JSON.stringify(m) === JSON.stringify(before[i]));
    const cpuOk = after[4] && JSON.stringify(after[4].slice(0, before[4].length)) === JSON.stringify(before[4]);
    row("restart on a database of 4 human-vs-human games + 1 random-vs-random", "\"1 games loaded\"; every game answers with its moves",
      `"${loaded ? loaded[0] : "no count"}"; human games ${same ? "same moves" : "DIFFER"}; random game ${before[4].length} -> ${after[4] ? after[4].length : "none"} moves${cpuOk ? " (same start)" : " (DIFFERS)"}`,
      !!loaded && loaded[1] === "1" && same && !!cpuOk);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

// 6a. view?seat=T&ply=0 honours ply whatever the order.
async function attackView(S) {
  const a = addr();
  const c = await create(S, a, "urbino", "human", "human");
  const g = await playHuman(S, a, c, 3);
  const T = c.seats.white;
  const v1 = await GET(S, `/api/games/${c.id}/view?seat=${T}&ply=0`, a);
  const v2 = await GET(S, `/api/games/${c.id}/view?ply=0&seat=${T}`, a);
  const v3 = await GET(S, `/api/games/${c.id}/view?seat=${T}&ply=${g.ply}`, a);
  const same = v1.status === 200 && v1.text === v2.text;
  row("view?seat=T&ply=0 vs view?ply=0&seat=T after 3 moves", "equal, ply 0 (not the current position)",
    `${v1.status}/${v2.status}, ${same ? "equal" : "DIFFERENT"}, ply ${v1.body && v1.body.ply}/${v2.body && v2.body.ply}, current view ${v3.text === v1.text ? "the same (ply ignored)" : "differs"}`,
    same && v1.body.ply === 0 && v2.body.ply === 0 && v3.text !== v1.text);
}

// 6b. Host header.
async function attackHost(S, allowS) {
  const a = addr();
  const evil = await GET(S, "/api/meta", a, { headers: { host: "evil.example" } });
  const ours = await GET(S, "/api/meta", a, { headers: { host: `127.0.0.1:${S.port}` } });
  const local = await GET(S, "/api/meta", a, { headers: { host: `localhost:${S.port}` } });
  const wsEvil = await rawExchange(S, a, `GET /api/games/AAAAAAAAAAAA/live HTTP/1.1\r\nHost: evil.example\r\nUpgrade: websocket\r\n` +
    `Connection: Upgrade\r\nSec-WebSocket-Key: ${crypto.randomBytes(16).toString("base64")}\r\nSec-WebSocket-Version: 13\r\n\r\n`, 1500);
  let allowed = "skipped (needs --allow-host evil.example)";
  let allowOk = true;
  if (allowS) {
    const r = await GET(allowS, "/api/meta", a, { headers: { host: "evil.example" } });
    const r2 = await GET(allowS, "/api/meta", a, { headers: { host: "other.example" } });
    allowed = `${r.status} (other.example ${r2.status})`;
    allowOk = r.status === 200 && r2.status === 421;
  }
  row("Host: evil.example / 127.0.0.1:PORT / localhost:PORT; with --allow-host evil.example",
    "421 / 200 / 200; 200 (another name still 421)",
    `${evil.status} / ${ours.status} / ${local.status}; ${allowed}; WebSocket with Host evil.example: ${/^HTTP\/1\.1 101/.test(wsEvil.text) ? "upgraded (refused inside)" : "not upgraded"}`,
    evil.status === 421 && ours.status === 200 && local.status === 200 && allowOk);
}

// 6c. libwebsockets' own error answers carry the security headers.
const SEC = { "x-content-type-options": /^nosniff$/i, "content-security-policy": /default-src 'self'/, "referrer-policy": /^no-referrer$/i };
const secOk = (h) => Object.entries(SEC).every(([k, re]) => re.test(h.headers[k] || ""));
async function attackLwsErrors(S) {
  const a = addr();
  const bad = await rawExchange(S, a, "GET\r\n\r\n");
  const h = parseHead(bad.text);
  row("malformed request line (\"GET\\r\\n\\r\\n\"): libwebsockets' own error answer",
    "a 4xx carrying nosniff, CSP, Referrer-Policy",
    `${h.status || "no answer"}, ${Object.keys(SEC).filter((k) => h.headers[k]).length}/3 security headers`,
    h.status >= 400 && h.status < 500 && secOk(h));
  const long = await rawExchange(S, a, `GET /api/meta HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: ${"a".repeat(5000)}\r\n\r\n`);
  const lh = parseHead(long.text);
  row("header line of 5,000 bytes (limit 4096)", "refused: an error answer with the security headers, or closed unanswered",
    lh.status ? `${lh.status}, ${Object.keys(SEC).filter((k) => lh.headers[k]).length}/3 security headers` :
      long.closed ? "closed without an answer" : "no answer, still open",
    lh.status ? lh.status >= 400 && secOk(lh) : long.closed && long.text === "");
}

// 6d. An unmasked client frame (RFC 6455 says: close with 1002).  Informational.
async function attackUnmasked(S) {
  const a = addr();
  const c = await create(S, a, "urbino", "human", "human");
  const k = rawConn(S, a);
  await k.connected;
  k.s.write(`GET /api/games/${c.id}/live HTTP/1.1\r\nHost: 127.0.0.1:${S.port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
    `Sec-WebSocket-Key: ${crypto.randomBytes(16).toString("base64")}\r\nSec-WebSocket-Version: 13\r\n\r\n`);
  const end = performance.now() + 3000 * SLOW;
  while (performance.now() < end && !(k.text().includes("\r\n\r\n") && k.data.length > k.text().indexOf("\r\n\r\n") + 10)) await sleep(10);
  const upgraded = /^HTTP\/1\.1 101/.test(k.text());
  await sleep(100);
  const mark = k.data.length;
  const payload = Buffer.from('{"type":"ping"}');
  k.s.write(Buffer.concat([Buffer.from([0x81, payload.length]), payload]));
  await k.waitClose(1000 * SLOW);
  const tail = k.data.subarray(mark);
  let observed;
  let held;
  if (!upgraded) {
    observed = "no WebSocket handshake";
    held = "error";
  } else if (tail.length >= 4 && (tail[0] & 0x0f) === 8) {
    observed = `closed with ${tail.readUInt16BE(2)}`;
    held = tail.readUInt16BE(2) === 1002 ? "yes" : "other close";
  } else if (tail.includes(Buffer.from('"pong"'))) {
    observed = "accepted: answered pong";
    held = "not enforced";
  } else if (k.closedAt) {
    observed = "connection closed without a close frame";
    held = "closed";
  } else {
    observed = `nothing (${tail.length} bytes)`;
    held = "not enforced";
  }
  k.s.destroy();
  row("unmasked client WebSocket frame (informational)", "closed with 1002", observed, held);
}

// 6e. Multi-byte characters across byte boundaries 30..70 in a move text.
async function attackUtf8(S) {
  const pool = addrs(8);
  const c = await create(S, pool[0], "urbino", "human", "human");
  const g = await game(S, pool[0], c.id);
  const seat = c.seats[g.tomove];
  const tally = {};
  let bad = [];
  let i = 0;
  let first = null;
  for (const ch of ["é", "€", "😀"]) {
    for (let n = 26; n <= 70; n++) {
      for (const text of ["a".repeat(n) + ch, "a".repeat(n) + ch + "b"]) {
        const bytes = Buffer.byteLength(text);
        if (bytes < 30 || bytes > 72) continue;
        const r = await play(S, pool[i++ % pool.length], c.id, seat, text, 0);
        const want = bytes <= 63 ? 409 : 400;   // "move" holds at most 63 bytes
        let json = false;
        try { json = typeof JSON.parse(r.text).error === "string"; } catch { json = false; }
        tally[r.status] = (tally[r.status] || 0) + 1;
        if (r.status !== want || !json) bad.push(`${bytes} bytes: ${r.status}${json ? "" : " (not JSON)"}`);
        if (text === "a".repeat(39) + "é") first = `${r.status} ${json ? "JSON" : "NOT JSON"}`;
      }
    }
  }
  const after = await game(S, pool[0], c.id);
  row("move texts \"a\"x39+\"é\" and 2-4 byte characters across bytes 30..72",
    "409 with JSON {error} (400 past the 63-byte field), never 500",
    `a x39+é: ${first}; ${Object.entries(tally).map(([k, v]) => `${v} x ${k}`).join(", ")}${bad.length ? `; unexpected: ${bad.slice(0, 4).join("; ")}` : ""}; game ply ${after && after.ply}`,
    bad.length === 0 && first && first.startsWith("409") && after && after.ply === 0);
}

// =====================================================================
// Servers and the run.
// =====================================================================


// ---- sign-ins and the limits behind nginx (issue 42) ----
// N: nginx with deploy/nginx.conf in front of S (started with --proxy-addr
// 127.0.0.1 --limit-loopback --seek-lapse 3): every client is a loopback
// address of its own, as real clients behind the proxy are.
const cookieOf = (r) => String((r.headers["set-cookie"] || [""])[0]).split(";")[0];
let acctN = 0;
async function newAccount(N, name, password = "a long password") {
  const r = await POST(N, "/api/account", { name, password }, addr());
  if (r.status !== 201) throw new Error(`account ${name}: ${r.status} ${JSON.stringify(r.body)}`);
  return cookieOf(r);
}

async function attackProxyLimits(N) {
  const a = addr(), b = addr();
  const su = [];
  for (let i = 0; i < 8; i++) su.push((await POST(N, "/api/account", { name: `Px${++acctN}`, password: "a long password" }, a)).status);
  const other = (await POST(N, "/api/account", { name: `Px${++acctN}`, password: "a long password" }, b)).status;
  const want = [201, 201, 201, 201, 201, 429, 429, 429];
  row("8 sign-ups from one client through nginx (deploy/nginx.conf)", "201 x5, then 429; another client 201",
    `${su.join(" ")}; other ${other}`, su.join() === want.join() && other === 201);
  const c = addr();
  const fails = [];
  for (let i = 0; i < 35; i++) fails.push((await POST(N, "/api/login", { name: `Nobody${i}`, password: "not the password" }, c)).status);
  const first429 = fails.indexOf(429);
  row("35 failed sign-ins (35 names) from one client through nginx", "401 x30, then 429",
    `first 429 at #${first429 + 1}; ${fails.filter((x) => x === 401).length} x 401`,
    first429 === 30 && fails.slice(30).every((x) => x === 429));
  const d = addr();
  const t0 = performance.now();
  const burst = await Promise.all(Array.from({ length: 200 }, () => GET(N, "/api/meta", d)));
  const ms = performance.now() - t0;
  const n200 = burst.filter((r) => r.status === 200).length, n429 = burst.filter((r) => r.status === 429).length;
  const nOther = burst.length - n200 - n429;
  row("200 requests at once from one client through nginx", "at most 60 a second answered 200, the rest 429 (or nginx's 503 past 64 connections)",
    `${n200} x 200, ${n429} x 429, ${nOther} other (nginx limit_conn) in ${Math.round(ms)} ms`, n429 > 0 && n200 <= 60 * Math.ceil(ms / 1000 + 1));
}

async function attackNameRace(N) {
  await newAccount(N, "Raced-1");
  const rs = await Promise.all(Array.from({ length: 16 }, () =>
    POST(N, "/api/login", { name: "Raced-1", password: "not the password" }, addr())));
  const c401 = rs.filter((r) => r.status === 401).length, c429 = rs.filter((r) => r.status === 429).length;
  row("16 guesses of one name at once from 16 clients", "10 x 401 (counted when accepted), 6 x 429",
    `${c401} x 401, ${c429} x 429`, c401 === 10 && c429 === 6);
}

async function attackFairness(N) {
  const hogName = "Hog-1";
  await newAccount(N, hogName);
  const people = [];
  for (let i = 0; i < 8; i++) { people.push({ name: `Other-${i}`, from: addr() }); await newAccount(N, people[i].name); }
  const hogFrom = addr();
  const hogger = hogWorker(`http://${N.host}:${N.port}`, hogName, "a long password", hogFrom, 16);
  const mine = [];
  const t0 = performance.now();
  let k = 0;
  while (performance.now() - t0 < 15000) {
    const p = people[k++ % people.length];
    mine.push(await POST(N, "/api/login", { name: p.name, password: "a long password" }, p.from));
    await sleep(150);
  }
  const hog = await hogger.stop();
  const ok = mine.filter((r) => r.status === 200 && r.ms < 2000).length;
  const sorted = mine.map((r) => r.ms).sort((x, y) => x - y);
  const p50 = sorted[Math.floor(sorted.length / 2)], worst = sorted[sorted.length - 1];
  const succeeded = mine.filter((r) => r.status === 200).length;
  const inFar = mine.filter((r) => r.status === 200 && inTime(r.ms, 2000)).length;
  row("one client signs in 16-wide to its own account for 15 s; others sign in from their own addresses",
    ">= 90% of the others' sign-ins 200 within 2 s",
    `${ok}/${mine.length} (${Math.round((100 * ok) / mine.length)}%) within 2 s, median ${Math.round(p50)} ms, slowest ${Math.round(worst)} ms; ` +
    `the hog: ${hog.ok} x 200, ${hog.limited} x 429` + (ok >= 0.9 * mine.length ? "" : " (SLOW: fewer than 90% within 2 s)"),
    succeeded >= 0.9 * mine.length && inFar >= 0.9 * mine.length);
  // The sessions one account gathers: at most 20.
  const cookie = await newAccount(N, "Sessions-1");
  const st = [];
  for (let i = 0; i < 24; i++) st.push((await POST(N, "/api/login", { name: "Sessions-1", password: "a long password" }, addr())).status);
  const list = await GET(N, "/api/sessions", addr(), { headers: { cookie } });
  row("24 sign-ins to one account (24 clients) after its sign-up", "20 x 200 then 429; its first session ended; 20 sessions",
    `${st.filter((x) => x === 200).length} x 200, ${st.filter((x) => x === 429).length} x 429; first session: ${list.status}`,
    st.filter((x) => x === 200).length === 20 && st.slice(20).every((x) => x === 429) && list.status === 401);
}

async function attackPasswordChange(N) {
  const c1 = await newAccount(N, "Pw-1");
  const c2 = cookieOf(await POST(N, "/api/login", { name: "Pw-1", password: "a long password" }, addr()));
  const ch = await POST(N, "/api/password", { old: "a long password", new: "a longer password" }, addr(), { headers: { cookie: c1 } });
  const c3 = cookieOf(ch);
  const me = async (c) => (await GET(N, "/api/me", addr(), { headers: { cookie: c } })).status;
  const got = [ch.status, c3 !== c1 && c3 !== "", await me(c1), await me(c2), await me(c3)];
  row("password change with another session open", "200 + new cookie; old cookie 401, other session 401, new 200",
    got.join(" "), got.join() === [200, true, 401, 401, 200].join());
  const weak = [];
  for (const pw of ["password", "12345678", "qwertyui", "        ", "Password1"])
    weak.push((await POST(N, "/api/account", { name: `Weak${++acctN}`, password: pw }, addr())).status);
  const wc = await POST(N, "/api/password", { old: "a longer password", new: "iloveyou" }, addr(), { headers: { cookie: c3 } });
  row("sign-up with password / 12345678 / qwertyui / 8 spaces / Password1; change to iloveyou", "400 each",
    `${weak.join(" ")}; change ${wc.status}`, weak.every((x) => x === 400) && wc.status === 400);
}

async function attackLobbyEtc(N, S) {
  const cookie = await newAccount(N, "Lob-1");
  const open = (origin) => new Promise((resolve) => {
    const ws = new WebSocket(`ws://${N.host}:${N.port}/api/lobby`, { headers: { cookie, origin }, localAddress: addr() });
    const got = [];
    ws.on("message", (d) => { try { got.push(JSON.parse(String(d))); } catch { got.push(String(d)); } });
    ws.on("close", () => resolve(got));
    ws.on("error", () => resolve(got));
    setTimeout(() => { ws.terminate(); resolve(got); }, 5000);
  });
  const bad = await open("http://evil.example");
  row("lobby socket with the session cookie and Origin http://evil.example", "refused: an error, closed, no seeks",
    JSON.stringify(bad).slice(0, 120), bad.length >= 1 && bad.every((m) => m && m.type === "error"));
  const heads = [];
  for (const p of ["/index.html", "/tavoliere.wasm", "/no-such-file.js"]) {
    const r = await GET(N, p, addr());
    const h = r.headers;
    heads.push(`${p} ${r.status} ${/frame-ancestors 'none'/.test(h["content-security-policy"] || "") && h["x-frame-options"] === "DENY" &&
      h["x-content-type-options"] === "nosniff" && h["referrer-policy"] === "no-referrer" ? "all" : "MISSING"}`);
  }
  row("security headers on the files nginx serves itself", "CSP (frame-ancestors 'none'), X-Frame-Options DENY, nosniff, no-referrer on each",
    heads.join("; "), heads.every((x) => x.endsWith("all")));
  const seeker = await newAccount(N, "Seek-1");
  const takers = [await newAccount(N, "Take-1"), await newAccount(N, "Take-2")];
  const sk = await POST(N, "/api/seeks", { game: "urbino", options: "", rated: false, colour: "white" }, addr(), { headers: { cookie: seeker } });
  const rs = await Promise.all(takers.map((c) => POST(N, `/api/seeks/${sk.body.id}/accept`, {}, addr(), { headers: { cookie: c } })));
  row("one seek accepted twice at once", "one 201, one 409 (never 503)", rs.map((r) => r.status).sort().join(" "),
    rs.map((r) => r.status).sort().join() === "201,409");
  const lone = await POST(N, "/api/seeks", { game: "urbino", options: "", rated: false, colour: "black" }, addr(), { headers: { cookie: seeker } });
  const t0 = performance.now();
  let gone = false;
  while (!gone && performance.now() - t0 < 20000) {
    const l = await GET(N, "/api/seeks", addr());
    gone = Array.isArray(l.body) && !l.body.some((x) => x.id === lone.body.id);
    if (!gone) await sleep(200);
  }
  row("a seek made by POST, its owner never opening a lobby socket (--seek-lapse 3)", "withdrawn after 3 s",
    gone ? `gone after ${((performance.now() - t0) / 1000).toFixed(1)} s` : "still open after 20 s", gone && performance.now() - t0 > 1500);
}

// A server of ours: lib.mjs startServer plus what the attacks read.
const started = [];
async function serverOn(opts) {
  const s = await startServer(opts);
  started.push(s.child);
  return { ...s, host: "127.0.0.1", pid: s.child.pid, stop: s.stop.bind(s) };
}

function baseServer() {
  const u = new URL(BASE);
  return {
    host: u.hostname === "localhost" ? "127.0.0.1" : u.hostname,
    port: Number(u.port || 80),
    pid: BASE_PID,
    db: BASE_DB,
    async stop() {},
  };
}

const want = (name) => !ONLY || name.includes(ONLY);

async function guarded(name, fn) {
  if (!want(name)) return;
  const t0 = performance.now();
  try {
    await fn();
  } catch (e) {
    row(name, "the attack runs", `threw: ${String(e && e.stack ? e.stack : e).split("\n").slice(0, 2).join(" ")}`, false);
  }
  if (process.env.ATTACK_TIMES) console.log(`# ${name}: ${((performance.now() - t0) / 1000).toFixed(1)} s`);
}

async function runChecks() {
  const t0 = performance.now();
  const mainAttacks = [
    ["undo", attackUndo], ["records", attackRecords], ["deals", attackDeals],
    ["slowheaders", attackSlowHeaders], ["manyslowheaders", attackSlowHeadersMany], ["stalledbodies", attackStalledBodies], ["since", attackSince],
    ["view", attackView], ["lwserrors", attackLwsErrors], ["unmasked", attackUnmasked], ["utf8", attackUtf8],
  ];
  const schedAttacks = [["scheduling", attackScheduling], ["hints", attackHints], ["cpuonly", attackCpuOnly]];
  if (BASE) {
    const S = baseServer();
    for (const [name, fn] of mainAttacks) await guarded(name, () => fn(S));
    await guarded("host", () => attackHost(S, null));
    for (const [name, fn] of schedAttacks) await guarded(name, () => fn(S));
    if (want("gamesperhour")) row("--games-per-hour 5: 6 games from one address", "201 x5, 429", "skipped: needs --games-per-hour 5", "skipped");
    if (want("restart")) row("restart on a database of 4 human + 1 computer-only games", "\"1 games loaded\"", "skipped: needs control of the server process", "skipped");
  } else {
    // One server per set of flags, each on a fresh database, run one after
    // the other (timings are measured: nothing else runs meanwhile).
    if ([...mainAttacks.map(([n]) => n), "host", "gamesperhour"].some(want)) {
      const S = await serverOn({ args: ["--limit-loopback"] });
      const H = await serverOn({ args: ["--games-per-hour", "5", "--allow-host", "evil.example", "--limit-loopback"] });
      try {
        for (const [name, fn] of mainAttacks) await guarded(name, () => fn(S));
        await guarded("host", () => attackHost(S, H));
        await guarded("gamesperhour", () => attackGamesPerHour(H));
      } finally {
        await H.stop();
        await S.stop();
      }
    }
    if (schedAttacks.some(([n]) => want(n))) {
      const S = await serverOn({ args: ["--threads", "1", "--ai-ms", "1000", "--limit-loopback"] });
      try {
        for (const [name, fn] of schedAttacks) await guarded(name, () => fn(S));
      } finally {
        await S.stop();
      }
    }
    await guarded("restart", attackRestart);
    const limitAttacks = [["proxylimits", attackProxyLimits], ["namerace", attackNameRace], ["fairness", attackFairness],
      ["password", attackPasswordChange], ["lobbyetc", attackLobbyEtc]];
    if (limitAttacks.some(([n]) => want(n))) {
      const S = await serverOn({ args: ["--proxy-addr", "127.0.0.1", "--limit-loopback", "--seek-lapse", "3"] });
      const ng = await startNginx([S.port]);
      const N = { host: "127.0.0.1", port: Number(new URL(ng.base).port) };
      try {
        for (const [name, fn] of limitAttacks) await guarded(name, () => fn(N, S));
      } finally {
        await ng.stop();
        await S.stop();
      }
    }
  }
  printTable();
  console.log(`# ${((performance.now() - t0) / 1000).toFixed(1)} s (${BUILD}${BASE ? `, against ${BASE}` : ""})`);
}

// =====================================================================
// --load: figures.
// =====================================================================
async function loadPhaseA(S) {
  const stats = (xs) => `p50 ${f1(pct(xs, 0.5))} ms, max ${f1(Math.max(...xs))} ms (n=${xs.length})`;
  // A new player's 5 moves against ai:level=1: the reply latency, from sending
  // the move to the computer's answer arriving on the player's live socket.
  async function newPlayer(from) {
    const c = await create(S, from, "epaminondas", "human", "ai:level=1");
    if (c.status !== 201) return { lat: [], note: `create ${c.status} ${c.error}` };
    const L = liveFrom(S, c.id, from, c.seats.white);
    await L.open;
    const lat = [];
    for (let i = 0; i < 5; i++) {
      const g = await game(S, from, c.id, c.seats.white);
      if (!g || g.over || g.tomove !== "white") break;
      const t = performance.now();
      const r = await play(S, from, c.id, c.seats.white, g.legal[Math.floor(g.legal.length / 2)], g.ply);
      if (r.status !== 200) break;
      if (!(await L.until((m) => m.some((x) => x.ply >= g.ply + 2), 30000))) break;
      lat.push(L.times[L.messages.findIndex((x) => x.ply >= g.ply + 2)] - t);
    }
    L.close();
    return { lat };
  }
  const idle = await newPlayer(addr());
  console.log(`load (a) idle server: new player's computer reply ${stats(idle.lat)}`);
  const phaseEnd = performance.now() + 60000;
  // 10 computer-only games from 5 addresses.
  let cpu = 0;
  for (let i = 0; i < 5; i++) {
    const a = addr();
    for (let k = 0; k < 2; k++) if ((await create(S, a, "epaminondas", "ai:level=10", "ai:level=10")).status === 201) cpu++;
  }
  // 200 human-vs-ai games, 4 per address, each with a hint always under way.
  const hintGames = [];
  for (let i = 0; i < 50; i++) {
    const a = addr();
    for (let k = 0; k < 4; k++) {
      const c = await create(S, a, "epaminondas", "human", "ai:level=5");
      if (c.status === 201) hintGames.push({ a, c });
    }
  }
  let stop = false;
  const hintStats = { ok: 0, other: {} };
  const hintLoops = hintGames.map(async ({ a, c }) => {
    while (!stop && performance.now() < phaseEnd) {
      const r = await POST(S, `/api/games/${c.id}/hint`, { seat: c.seats.white }, a, { timeout: 60000 });
      if (r.status === 200) hintStats.ok++;
      else { hintStats.other[r.status] = (hintStats.other[r.status] || 0) + 1; await sleep(200); }
    }
  });
  await sleep(2000);
  const t0 = performance.now();
  const busy = await newPlayer(addr());
  const secs = (performance.now() - t0) / 1000;
  stop = true;
  await Promise.all(hintLoops);
  console.log(`load (a) ${cpu} computer-only ai:level=10 games + ${hintGames.length} games with a hint always under way ` +
    `(${hintStats.ok} hints answered${Object.keys(hintStats.other).length ? `, refused ${JSON.stringify(hintStats.other)}` : ""}): ` +
    `new player's computer reply ${stats(busy.lat)}${busy.note ? ` (${busy.note})` : ""} over ${secs.toFixed(1)} s`);
}

// Another client's GETs at a fixed pace whatever the answers take (open
// loop: a stalled server shows as long answers, not as fewer GETs), from a
// pool of addresses; resolves once every GET has answered or timed out.
async function openProbe(S, pool, everyMs, durMs) {
  const lat = [], bad = [];
  const pending = [];
  const t0 = performance.now();
  for (let i = 0; performance.now() - t0 < durMs; i++) {
    pending.push(GET(S, "/api/meta", pool[i % pool.length], { timeout: 40000 }).then((r) => {
      if (r.status === 200) lat.push(r.ms);
      else bad.push(r.status);
    }));
    await sleep(everyMs);
  }
  await Promise.all(pending);
  return `GET n=${lat.length} p50 ${f1(pct(lat, 0.5))} ms, p99 ${f1(pct(lat, 0.99))} ms, max ${f1(Math.max(...lat))} ms, ` +
    `${lat.filter((x) => x > 1000).length} over 1 s` + (bad.length ? `, ${bad.length} failed (${[...new Set(bad)].join(",")})` : "");
}

async function loadPhaseB(S) {
  // Repeated 100,000-ply records from 4 addresses, two at once each (the per-address limit).
  const big = epaRecord(100000);
  const tally = {};
  let stop = false;
  const uploaders = [];
  for (let i = 0; i < 4; i++) {
    const a = addr();
    for (let k = 0; k < 2; k++) {
      uploaders.push((async () => {
        const end = performance.now() + 30000;
        while (!stop && performance.now() < end) {
          const r = await POST(S, "/api/records", { record: big, white: "human", black: "human" }, a, { timeout: 60000 });
          tally[r.status] = (tally[r.status] || 0) + 1;
        }
      })());
    }
  }
  await sleep(500);
  const during = await openProbe(S, addrs(16), 40, 10000);
  stop = true;
  await Promise.all(uploaders);
  console.log(`load (b) during 100,000-ply record uploads from 4 addresses, 2 at once each (${Object.entries(tally).map(([k, v]) => `${v} x ${k}`).join(", ")}): ${during}`);

  // 3,000 slow-header connections from 50 addresses (60 each: under the 64 per address,
  // past the 8 unfinished first requests per address).
  const conns = [];
  const t0 = performance.now();
  const opening = [];
  for (let i = 0; i < 50; i++) {
    const a = addr();
    opening.push((async () => {
      for (let k = 0; k < 60 && performance.now() - t0 < 15000; k++) {
        const c = rawConn(S, a);
        conns.push(c);
        if (await Promise.race([c.connected, sleep(5000).then(() => false)])) c.s.write("GET / HTTP/1.1\r\n");
      }
    })());
  }
  await Promise.all(opening);
  const opened = (performance.now() - t0) / 1000;
  const connected = conns.filter((c) => c.connectedAt).length;
  const during2 = await openProbe(S, addrs(16), 40, 10000);
  const closed = conns.filter((c) => c.closedAt).length;
  const secs = (performance.now() - t0) / 1000;
  for (const c of conns) c.s.destroy();
  console.log(`load (b) during ${conns.length} slow-header connections from 50 addresses (${connected} connected in ${opened.toFixed(1)} s; ` +
    `${closed} closed by the server ${secs.toFixed(0)} s after the first): ${during2}`);
}

async function runLoad() {
  if (BASE) {
    const S = baseServer();
    await loadPhaseA(S);
    await loadPhaseB(S);
    return;
  }
  let S = await serverOn({ args: ["--threads", "2", "--limit-loopback"] });
  try { await loadPhaseA(S); } finally { await S.stop(); }
  S = await serverOn({ args: ["--limit-loopback"] });
  try { await loadPhaseB(S); } finally { await S.stop(); }
}

try {
  if (LOAD) await runLoad();
  else await runChecks();
} catch (e) {
  check(false, "attack.mjs threw", e && e.stack ? e.stack : e);
  printTable();
}
// A server left running by an attack that threw is stopped (ours only).
for (const child of started) if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
summary();
// Sockets left by an attack that failed must not keep the process alive.
setTimeout(() => process.exit(process.exitCode || 0), 200).unref();
