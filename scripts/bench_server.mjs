// bench_server.mjs — load benchmark of `tavoliere serve` (not a timed test).
//
// N games at once on loopback, two human seats each, every game followed by
// a live WebSocket spectator.  Each game's players take turns: GET the game
// as the seat to act (not timed), POST a random legal move (timed: the
// latency of a human move, from request to answer, includes the durable
// commit).  Reports p50/p99/max latency, moves per second, the live
// messages received, and the server's memory per game (RSS).
//
//   node scripts/bench_server.mjs [--games N] [--moves M] [--think MS] [--bin build/tavoliere]
//                                 [--check]   (exit 1 unless every move and message arrived)
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import http from "node:http";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { monitorEventLoopDelay } from "node:perf_hooks";
import WebSocket from "ws";

const args = process.argv.slice(2);
const opt = (name, dflt) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : dflt;
};
const GAMES = Number(opt("games", 100));
const MOVES = Number(opt("moves", 20));
const BIN = opt("bin", join(process.env.BUILD || "build", "tavoliere"));
const CHECK = args.includes("--check");
const KINDS = (opt("kinds", "urbino,epaminondas,cathedral,toscana")).split(",");
// Think time: each player waits a random 0..2*THINK ms before a move (0: as fast as possible,
// a saturation test; a few seconds: people playing).
const THINK = Number(opt("think", 0));

const agent = new http.Agent({ keepAlive: true, maxSockets: Number(opt("sockets", 512)) });
let port;

function req(method, path, body) {
  return new Promise((resolve, reject) => {
    const data = body === undefined ? null : JSON.stringify(body);
    const r = http.request({ host: "127.0.0.1", port, method, path, agent,
      headers: data ? { "content-type": "application/json", "content-length": Buffer.byteLength(data) } : {} }, (res) => {
      const chunks = [];
      res.on("data", (c) => chunks.push(c));
      res.on("end", () => {
        const text = Buffer.concat(chunks).toString();
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
const rss = (pid) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))[1]) * 1024;
const cpu = (pid) => {
  const f = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
  return (Number(f[11]) + Number(f[12])) * 10;   // utime + stime, ms (100 Hz ticks)
};
const pct = (a, p) => a.length ? a[Math.min(a.length - 1, Math.floor(p * a.length))] : NaN;

port = await freePort();
const dir = mkdtempSync(join(tmpdir(), "tav-bench-"));
const server = spawn(BIN, ["serve", "--port", String(port), "--db", join(dir, "bench.db"), "--rate", "0", ...(process.env.BENCH_LOG ? [] : ["--quiet"]), ...(process.env.BENCH_ARGS ? process.env.BENCH_ARGS.split(" ") : [])],
  { stdio: ["ignore", "pipe", "inherit"] });
await new Promise((resolve, reject) => {
  let out = "";
  server.stdout.on("data", (d) => { out += d; if (out.includes("serving")) resolve(); });
  server.on("exit", () => reject(new Error("server exited")));
});
let failures = 0;
try {
  const rss0 = rss(server.pid);
  // Create the games and their spectators.
  const games = [];
  for (let i = 0; i < GAMES; i++) {
    const game = KINDS[i % KINDS.length];
    const options = game === "toscana" ? `seed=${i + 1}` : "";
    const r = await req("POST", "/api/games", { game, options, white: "human", black: "human" });
    if (r.status !== 201) throw new Error(`create: ${r.status} ${JSON.stringify(r.body)}`);
    games.push({ id: r.body.id, seats: r.body.seats, messages: 0, plies: 0 });
  }
  await Promise.all(games.map((g) => new Promise((resolve, reject) => {
    g.ws = new WebSocket(`ws://127.0.0.1:${port}/api/games/${g.id}/live`);
    g.ws.on("message", () => g.messages++);
    g.ws.on("open", resolve);
    g.ws.on("error", reject);
  })));
  const rssGames = rss(server.pid);
  // Play: every game at once, each one move after the other.
  const lat = [];
  let seed = 12345;
  const random = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
  // The client's own delays (a busy client makes the server look slow).
  const loopDelay = monitorEventLoopDelay({ resolution: 10 });
  loopDelay.enable();
  const t0 = performance.now();
  const cpu0 = cpu(server.pid);
  const client0 = process.cpuUsage();
  await Promise.all(games.map(async (g) => {
    if (THINK > 0) await new Promise((r) => setTimeout(r, random() * 2 * THINK));   // players arrive spread out
    let cur = (await req("GET", `/api/games/${g.id}?seat=${g.seats.white}`)).body;
    for (let m = 0; m < MOVES && !cur.over; m++) {
      const seat = g.seats[cur.tomove];
      const mine = (await req("GET", `/api/games/${g.id}?seat=${seat}`)).body;
      const move = mine.legal[Math.floor(random() * mine.legal.length)];
      if (THINK > 0) await new Promise((r) => setTimeout(r, random() * 2 * THINK));
      const t = performance.now();
      const r = await req("POST", `/api/games/${g.id}/moves`, { seat, move, ply: mine.ply });
      lat.push(performance.now() - t);
      if (r.status !== 200) { failures++; break; }
      g.plies++;
      cur = r.body;
    }
  }));
  const secs = (performance.now() - t0) / 1000;
  loopDelay.disable();
  const cpuMs = cpu(server.pid) - cpu0;
  const cu = process.cpuUsage(client0);
  const clientMs = (cu.user + cu.system) / 1000;
  // The live messages of the last moves may still be on their way: wait for
  // them (300 ms at least, as before; on a loaded machine up to 10 s) rather
  // than count them at a fixed moment.
  const settle = performance.now();
  while (performance.now() - settle < 10000 &&
         (performance.now() - settle < 300 || games.some((g) => g.messages < g.plies + 1)))
    await new Promise((r) => setTimeout(r, 20));
  const rssEnd = rss(server.pid);
  const moves = lat.length;
  lat.sort((a, b) => a - b);
  const missing = games.filter((g) => g.messages !== g.plies + 1).length;
  if (missing) failures += missing;
  console.log(`games ${GAMES}  think ${THINK} ms  moves ${moves}  in ${secs.toFixed(2)} s  = ${(moves / secs).toFixed(0)} moves/s`);
  console.log(`human move latency ms: p50 ${pct(lat, 0.5).toFixed(2)}  p99 ${pct(lat, 0.99).toFixed(2)}  max ${lat.at(-1).toFixed(2)}`);
  console.log(`server CPU: ${(cpuMs / 1000).toFixed(2)} s for ${moves} moves and ${2 * moves} reads = ${(cpuMs / moves).toFixed(2)} ms per move (with its read)` +
    `; client CPU ${(clientMs / 1000).toFixed(2)} s; machine load average ${readFileSync("/proc/loadavg", "utf8").split(" ")[0]}`);
  console.log(`client event-loop delay ms: p99 ${(loopDelay.percentile(99) / 1e6).toFixed(1)}  max ${(loopDelay.max / 1e6).toFixed(1)}` +
    " (time the client itself held a response back)");
  console.log(`live messages: ${games.reduce((s, g) => s + g.messages, 0)} (${missing} games missing some)`);
  console.log(`server RSS: ${(rss0 / 1048576).toFixed(1)} MiB empty, ${(rssGames / 1048576).toFixed(1)} MiB with ${GAMES} games ` +
    `(${((rssGames - rss0) / GAMES / 1024).toFixed(1)} KiB/game at start), ${(rssEnd / 1048576).toFixed(1)} MiB after play ` +
    `(${((rssEnd - rss0) / GAMES / 1024).toFixed(1)} KiB/game)`);
  for (const g of games) g.ws.close();
} catch (e) {
  console.log(`bench failed: ${e && e.stack ? e.stack : e}`);
  failures++;
} finally {
  server.kill("SIGTERM");
  await new Promise((r) => server.on("exit", r));
  rmSync(dir, { recursive: true, force: true });
  agent.destroy();
}
if (CHECK) {
  console.log(failures === 0 ? "1 passed, 0 failed" : "0 passed, 1 failed");
  process.exitCode = failures === 0 ? 0 : 1;
}
