// lib.mjs — shared helpers of the server test suites: start `tavoliere serve`
// on a free port with a fresh database, speak HTTP and WebSocket to it, count
// checks and print the suite's "N passed, N failed" line.
// With TAV_TEST_PG=postgresql://... (tests/run.sh's throwaway PostgreSQL)
// every server runs on PostgreSQL instead: a fresh database per server,
// the same one again for a server started on the same --db path.
import { execFileSync, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import WebSocket from "ws";

export const BUILD = process.env.BUILD || "build";
export const BIN = join(BUILD, "tavoliere");
export const SAN = BUILD.includes("san");

let passed = 0;
let failed = 0;

export function check(ok, what, detail) {
  if (ok) {
    passed++;
  } else {
    failed++;
    console.log(`FAIL ${what}${detail !== undefined ? ": " + String(detail).slice(0, 400) : ""}`);
  }
  return ok;
}

export function eq(actual, expected, what) {
  const a = JSON.stringify(actual), e = JSON.stringify(expected);
  return check(a === e, what, `got ${a}, expected ${e}`);
}

export function summary() {
  console.log(`${passed} passed, ${failed} failed`);
  process.exitCode = failed === 0 && passed > 0 ? 0 : 1;
}

// Run a suite body; an exception counts as a failure, the summary always prints.
export async function main(body) {
  const cleanups = [];
  try {
    await body((f) => cleanups.push(f));
  } catch (e) {
    check(false, "suite threw", e && e.stack ? e.stack : e);
  }
  for (const f of cleanups.reverse()) {
    try { await f(); } catch (e) { check(false, "cleanup threw", e); }
  }
  summary();
}

export function freePort() {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.unref();
    s.on("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

export function tempDir() {
  return mkdtempSync(join(tmpdir(), "tav-server-"));
}

export function sleep(ms) {
  return new Promise((r) => setTimeout(r, ms));
}

// until(f, ms): poll f (every 25 ms) until it returns something truthy or ms
// pass; resolves to its last value.  Every wait of a functional test is one
// of these with a generous deadline, never a sleep that decides.
export async function until(f, ms = 20000) {
  const t0 = Date.now();
  let v;
  while (!(v = await f()) && Date.now() - t0 < ms) await sleep(25);
  return v;
}

// The server's test clock (--test-clock FILE): set the offset to `ms` and
// wait until every server in `servers` (each {child}) has it in force — each
// writes the line it took to FILE.ack.PID (a sequence number makes each line
// new).  A check fails if one does not within the deadline.
let clockSeq = 0;
export async function setTestClock(file, ms, servers) {
  const line = `${ms} ${process.pid}.${++clockSeq}\n`;
  writeFileSync(file + ".new", line);
  renameSync(file + ".new", file);
  const read = (pid) => { try { return readFileSync(`${file}.ack.${pid}`, "utf8"); } catch { return ""; } };
  const ok = await until(() => servers.every((s) => read(s.child.pid) === line));
  check(!!ok, `every server took the test clock's offset ${ms} ms`,
    servers.map((s) => `${s.child.pid}: ${JSON.stringify(read(s.child.pid))}`).join(", "));
}

// A seeded random generator (mulberry32), so failures replay.
export function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// PostgreSQL (TAV_TEST_PG): the database of each --db path (made on first
// use with psql, dropped when the suite's process exits).
export const PG = process.env.TAV_TEST_PG || "";
const pgDbs = new Map();
let pgCount = 0;

function pgDatabase(key) {
  if (pgDbs.has(key)) return pgDbs.get(key);
  const name = `t${Date.now().toString(36)}_${process.pid}_${++pgCount}`;
  execFileSync("psql", ["-X", "-q", "-v", "ON_ERROR_STOP=1", "-d", PG, "-c", `CREATE DATABASE ${name}`],
    { stdio: ["ignore", "ignore", "pipe"] });
  const u = new URL(PG);
  u.pathname = "/" + name;
  const uri = u.toString();
  pgDbs.set(key, uri);
  if (pgDbs.size === 1) {
    process.on("exit", () => {
      const drops = [...new Set(pgDbs.values())].map((x) => ["-c", `DROP DATABASE IF EXISTS ${new URL(x).pathname.slice(1)} WITH (FORCE)`]);
      try { execFileSync("psql", ["-X", "-q", "-d", PG, ...drops.flat()], { stdio: "ignore" }); } catch { /* the server is thrown away anyway */ }
    });
  }
  return uri;
}

// Start a server; resolves once it prints its address.  `db` is a file path
// (its PostgreSQL database under TAV_TEST_PG); without one, a fresh database.
export async function startServer({ db, args = [], port, quiet = true } = {}) {
  port = port || (await freePort());
  const dir = db || PG ? null : tempDir();
  db = db || (PG ? `fresh-${++pgCount}` : join(dir, "test.db"));
  const dbArg = PG && !/^postgres(ql)?:\/\//.test(db) ? pgDatabase(db) : db;
  const child = spawn(BIN, ["serve", "--port", String(port), "--db", dbArg, ...(quiet ? ["--quiet"] : []), ...args], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  let err = "";
  child.stdout.on("data", (d) => (out += d));
  child.stderr.on("data", (d) => (err += d));
  const exited = new Promise((resolve) => child.on("exit", (code, signal) => resolve({ code, signal })));
  const deadline = Date.now() + 20000;
  while (!out.includes("serving http://")) {
    if (child.exitCode !== null || child.signalCode !== null || Date.now() > deadline)
      throw new Error(`server did not start: ${out} ${err}`);
    await sleep(20);
  }
  const base = `http://127.0.0.1:${port}`;
  return {
    port, db, base, child, exited,
    output: () => out, errors: () => err,
    async stop(signal = "SIGTERM") {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      const r = await exited;
      // A clean stop exits 0 and leaves no sanitizer report.
      check(!/AddressSanitizer|LeakSanitizer|runtime error:/.test(err), "no sanitizer report from the server", err.slice(0, 2000));
      if (signal === "SIGTERM") check(r.code === 0, "server stops cleanly on SIGTERM", JSON.stringify(r));
      if (dir && signal !== "SIGKILL") rmSync(dir, { recursive: true, force: true });
      return r;
    },
    cleanupDir() { if (dir) rmSync(dir, { recursive: true, force: true }); },
  };
}

// HTTP: resolves {status, body (parsed JSON or text), headers}.
export async function request(base, method, path, body, { raw = false, headers = {} } = {}) {
  const init = { method, headers: { ...headers } };
  if (body !== undefined) {
    init.body = raw ? body : JSON.stringify(body);
    if (!init.headers["content-type"]) init.headers["content-type"] = "application/json";
  }
  const res = await fetch(base + path, init);
  const text = await res.text();
  let parsed = text;
  if ((res.headers.get("content-type") || "").includes("application/json")) {
    try { parsed = JSON.parse(text); } catch { parsed = { unparsable: text }; }
  }
  // Every refusal carries its stable code beside the error (docs/server-api.md
  // "Refusals and their codes"): checked on every request of every suite.
  if (res.status >= 400 && parsed && typeof parsed === "object" && typeof parsed.error === "string" &&
      !(typeof parsed.code === "string" && /^[a-z_]+$/.test(parsed.code)))
    check(false, `${method} ${path}: the refusal ${res.status} carries a code`, text);
  return { status: res.status, body: parsed, headers: res.headers, text };
}

export const get = (base, path) => request(base, "GET", path);
export const post = (base, path, body, opts) => request(base, "POST", path, body, opts);

// A live socket that collects its messages.
// The parts of each legal move, in the order of `legal`, expanded from the
// game's legalGroups (docs/server-api.md): a group's squares are offsets
// from each move's anchor.
export function legalParts(g) {
  const name = (f, r) => String.fromCharCode(97 + f) + String(r + 1);
  const out = [];
  for (const grp of g.legalGroups ?? []) {
    const anchors = grp.at ?? Array(grp.count).fill(null);
    for (const at of anchors) {
      const a = at ? [at.charCodeAt(0) - 97, Number(at.slice(1)) - 1] : [0, 0];
      const sq = ([df, dr]) => name(a[0] + df, a[1] + dr);
      const p = { action: grp.action, squares: grp.squares.map(sq) };
      if ("piece" in grp) p.piece = grp.piece;
      if (grp.from) p.from = sq(grp.from);
      if (grp.to) p.to = sq(grp.to);
      if (grp.marked) p.marked = grp.marked.map(sq);
      if ("rotation" in grp) p.rotation = grp.rotation;
      if (grp.side) p.side = grp.side;
      out.push(p);
    }
  }
  return out;
}

export function live(base, id, seat, query = "") {
  const q = [seat ? `seat=${seat}` : "", query].filter(Boolean).join("&");
  const url = base.replace("http", "ws") + `/api/games/${id}/live` + (q ? `?${q}` : "");
  const ws = new WebSocket(url);
  const messages = [];
  const waiters = [];
  let closed = null;
  ws.on("message", (data) => {
    let m;
    try { m = JSON.parse(String(data)); } catch { m = { unparsable: String(data) }; }
    messages.push(m);
    for (const w of waiters.splice(0)) w();
  });
  ws.on("close", (code, reason) => {
    closed = { code, reason: String(reason) };
    for (const w of waiters.splice(0)) w();
  });
  ws.on("error", () => {});
  const open = new Promise((resolve, reject) => {
    ws.once("open", resolve);
    ws.once("error", reject);
  });
  return {
    ws, messages, open,
    closed: () => closed,
    // Wait until pred(messages) holds (or the socket closes, or time runs out).
    async until(pred, ms = 10000) {
      const end = Date.now() + ms;
      while (!pred(messages)) {
        if (closed || Date.now() > end) return false;
        await new Promise((r) => {
          waiters.push(r);
          setTimeout(r, Math.max(1, Math.min(200, end - Date.now())));
        });
      }
      return true;
    },
    send(obj) { ws.send(typeof obj === "string" ? obj : JSON.stringify(obj)); },
    close() { ws.close(); },
  };
}

// The engine protocol (`tavoliere engine`), one answer line per command.
export function engine() {
  const child = spawn(BIN, ["engine", "--seed", "1"], { stdio: ["pipe", "pipe", "ignore"] });
  let buf = "";
  const lines = [];
  const waiters = [];
  child.stdout.on("data", (d) => {
    buf += d;
    let i;
    while ((i = buf.indexOf("\n")) >= 0) {
      lines.push(buf.slice(0, i));
      buf = buf.slice(i + 1);
      for (const w of waiters.splice(0)) w();
    }
  });
  return {
    async cmd(line) {
      child.stdin.write(line + "\n");
      while (lines.length === 0) await new Promise((r) => waiters.push(r));
      return lines.shift();
    },
    close() { child.stdin.end(); },
  };
}

// Parse "state tomove=white over=no winner=none score=0:0".
export function parseState(line) {
  const m = /^state tomove=(\S+) over=(yes|no) winner=(\S+) score=(-?\d+):(-?\d+)$/.exec(line);
  if (!m) return null;
  return { tomove: m[1], over: m[2] === "yes", winner: m[3], score: [Number(m[4]), Number(m[5])] };
}

// Every game and sample option set the server offers.
export async function sampleSets(base) {
  const meta = await get(base, "/api/meta");
  const sets = [];
  for (const g of meta.body.games) for (const o of g.options) sets.push({ game: g.name, options: o });
  return sets;
}
