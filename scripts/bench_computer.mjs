// bench_computer.mjs — how many games against the computer one server holds
// at a human pace (issue 37), the engine on the server against the engine in
// the page.  Not a timed test: a measurement for results/wasm.md.
//
// 1. The server plays the computer (today's /games/ID): for each number of
//    games C of a ladder, C games against `ai:level=L` at once on a fresh
//    `tavoliere serve` (its defaults: 2 search workers, --ai-ms 1000), each
//    with its live socket; each human thinks a random THINK_MIN..THINK_MAX
//    ms, posts a random legal move, and the time until the computer's reply
//    arrives on the live socket is the reply time.  A stage lasts SECONDS;
//    the server holds C when 95 % of the replies come in under 2 s.
// 2. The engine in the page (/play/GAME): the server does nothing per move;
//    what it still does per player is serve the page and the engine once
//    (the service worker keeps them after): the players it can start per
//    second, fetching every file the page needs, CONC at a time.
//
//   node scripts/bench_computer.mjs [--level L] [--ladder 2,4,8,...] [--seconds S]
//        [--think-min MS] [--think-max MS] [--kinds urbino,...] [--bin build/tavoliere]
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import http from "node:http";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import WebSocket from "ws";

const args = process.argv.slice(2);
const opt = (name, dflt) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : dflt;
};
const LEVEL = Number(opt("level", 10));
const LADDER = opt("ladder", "4,8,12,16,24,32").split(",").map(Number);
const SECONDS = Number(opt("seconds", 40));
const THINK_MIN = Number(opt("think-min", 3000)), THINK_MAX = Number(opt("think-max", 9000));
const KINDS = opt("kinds", "urbino,epaminondas,cathedral,toscana").split(",");
const BIN = opt("bin", join(process.env.BUILD || "build", "tavoliere"));
const WEB = opt("web", join(process.env.BUILD || "build", "web"));

const agent = new http.Agent({ keepAlive: true, maxSockets: 1024 });
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const pct = (a, p) => a.length ? a[Math.min(a.length - 1, Math.floor(p * a.length))] : NaN;
let seed = 4242;
const random = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
const cpu = (pid) => {
  const f = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
  return (Number(f[11]) + Number(f[12])) * 10;
};
const load = () => readFileSync("/proc/loadavg", "utf8").split(" ")[0];

function req(port, method, path, body, raw = false) {
  return new Promise((resolve, reject) => {
    const data = body === undefined ? null : JSON.stringify(body);
    const r = http.request({ host: "127.0.0.1", port, method, path, agent,
      headers: data ? { "content-type": "application/json", "content-length": Buffer.byteLength(data) } : {} }, (res) => {
      const chunks = [];
      res.on("data", (c) => chunks.push(c));
      res.on("end", () => {
        const buf = Buffer.concat(chunks);
        if (raw) return resolve({ status: res.statusCode, bytes: buf.length });
        const text = buf.toString();
        try { resolve({ status: res.statusCode, body: JSON.parse(text) }); } catch { resolve({ status: res.statusCode, body: text }); }
      });
    });
    r.on("error", reject);
    if (data) r.write(data);
    r.end();
  });
}

const freePort = () => new Promise((resolve) => {
  const s = createServer();
  s.listen(0, "127.0.0.1", () => { const p = s.address().port; s.close(() => resolve(p)); });
});

async function withServer(f) {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), "tav-bench-"));
  const server = spawn(BIN, ["serve", "--port", String(port), "--db", join(dir, "bench.db"), "--web", WEB, "--rate", "0", "--quiet"],
    { stdio: ["ignore", "pipe", "inherit"] });
  await new Promise((resolve, reject) => {
    let out = "";
    server.stdout.on("data", (d) => { out += d; if (out.includes("serving")) resolve(); });
    server.on("exit", () => reject(new Error("server exited")));
  });
  try {
    return await f(port, server.pid);
  } finally {
    server.kill("SIGTERM");
    await new Promise((r) => server.on("exit", r));
    rmSync(dir, { recursive: true, force: true });
  }
}

// One stage: C games against the computer for SECONDS.
async function stage(C) {
  return withServer(async (port, pid) => {
    const replies = [];
    let moves = 0, errors = 0;
    const cpu0 = cpu(pid);
    const end = performance.now() + SECONDS * 1000;
    await Promise.all(Array.from({ length: C }, async (_, i) => {
      const game = KINDS[i % KINDS.length];
      const r = await req(port, "POST", "/api/games", { game, options: "", white: "human", black: `ai:level=${LEVEL}` });
      if (r.status !== 201) { errors++; return; }
      const id = r.body.id, seat = r.body.seats.white;
      let cur = null, wake = null;
      const ws = new WebSocket(`ws://127.0.0.1:${port}/api/games/${id}/live?seat=${encodeURIComponent(seat)}`);
      ws.on("message", (d) => {
        try {
          const g = JSON.parse(d.toString());
          if (typeof g.ply === "number" && (!cur || g.ply >= cur.ply)) cur = g;
          if (wake) wake();
        } catch { /* not a game */ }
      });
      await new Promise((res, rej) => { ws.on("open", res); ws.on("error", rej); });
      const next = (pred, ms) => new Promise((res) => {
        const t = setTimeout(() => { wake = null; res(false); }, ms);
        const check = () => { if (cur && pred(cur)) { clearTimeout(t); wake = null; res(true); } };
        wake = check;
        check();
      });
      await sleep(random() * THINK_MAX);   // players arrive spread out
      while (performance.now() < end) {
        if (!(await next((g) => g.over || (g.tomove === "white" && !g.thinking), 30000))) { errors++; break; }
        if (cur.over) {
          const n = await req(port, "POST", "/api/games", { game, options: "", white: "human", black: `ai:level=${LEVEL}` });
          ws.close();
          if (n.status !== 201) { errors++; break; }
          return;   // one game each is enough within a stage
        }
        await sleep(THINK_MIN + random() * (THINK_MAX - THINK_MIN));
        if (performance.now() >= end) break;
        const move = cur.legal[Math.floor(random() * cur.legal.length)];
        const ply = cur.ply;
        const t = performance.now();
        const pr = await req(port, "POST", `/api/games/${id}/moves`, { seat, move, ply });
        if (pr.status !== 200) { errors++; break; }
        moves++;
        const got = await next((g) => g.over || (g.ply > ply + 1 && g.tomove === "white") || (g.ply > ply && g.over), 30000);
        if (got && !(cur.over && cur.ply === ply + 1)) replies.push(performance.now() - t);
      }
      ws.close();
    }));
    const cpuMs = cpu(pid) - cpu0;
    replies.sort((a, b) => a - b);
    return { C, moves, replies: replies.length, p50: pct(replies, 0.5), p95: pct(replies, 0.95), max: replies.at(-1) ?? NaN,
      cpuPerSec: cpuMs / 1000 / SECONDS, errors, load: load() };
  });
}

// The engine in the page: players started per second (every file of /play/GAME).
async function pageStarts(conc, seconds) {
  return withServer(async (port, pid) => {
    const files = ["/play/urbino", "/app.js", "/app.css", "/favicon.svg", "/tavoliere.wasm", "/engine-worker.js", "/sw.js",
      "/manifest.webmanifest", "/icon-192.png", "/icon-512.png", "/index.html"];
    let players = 0, bytes = 0, bad = 0;
    const cpu0 = cpu(pid);
    const end = performance.now() + seconds * 1000;
    await Promise.all(Array.from({ length: conc }, async () => {
      while (performance.now() < end) {
        for (const f of files) {
          const r = await req(port, "GET", f, undefined, true);
          if (r.status !== 200) bad++;
          bytes += r.bytes;
        }
        players++;
      }
    }));
    const cpuMs = cpu(pid) - cpu0;
    return { players, perSec: players / seconds, mbPerPlayer: bytes / players / 1048576, cpuMsPerPlayer: cpuMs / players, bad, load: load() };
  });
}

console.log(`engine on the server: level ${LEVEL}, human think ${THINK_MIN}..${THINK_MAX} ms, ${SECONDS} s a stage, games ${KINDS.join(",")}`);
console.log("games  moves  replies  p50 ms  p95 ms  max ms  server CPU (cores)  errors  load");
let holds = 0;
for (const C of LADDER) {
  const r = await stage(C);
  console.log(`${String(C).padStart(5)}  ${String(r.moves).padStart(5)}  ${String(r.replies).padStart(7)}  ${r.p50.toFixed(0).padStart(6)}  ${r.p95.toFixed(0).padStart(6)}  ` +
    `${r.max.toFixed(0).padStart(6)}  ${r.cpuPerSec.toFixed(2).padStart(18)}  ${String(r.errors).padStart(6)}  ${r.load}`);
  if (r.p95 < 2000 && r.errors === 0) holds = C;
  else break;
}
console.log(`holds: ${holds} games at level ${LEVEL} with 95 % of replies under 2 s (the largest stage that did)`);
const p = await pageStarts(16, 10);
console.log(`engine in the page: the server starts ${p.perSec.toFixed(0)} players/s (${p.mbPerPlayer.toFixed(2)} MiB, ${p.cpuMsPerPlayer.toFixed(2)} ms of server CPU each, ` +
  `${p.bad} errors, load ${p.load}); then nothing per move`);
agent.destroy();
