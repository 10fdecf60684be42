// bench_server.mjs — load benchmark of `tavoliere serve` (not a timed test).
//
// N games at once on loopback, two human seats each, every game followed by
// a live WebSocket spectator.  Each game's players take turns: GET the game
// as the seat to act (not timed), POST a random legal move (timed: the
// latency of a human move, from request to answer, includes the durable
// commit).  Reports p50/p99/max latency, moves per second, the live
// messages received, and the server's memory per game (RSS).
//
// With `--db pg` the database is a throwaway PostgreSQL (scripts/pg-throwaway.sh)
// and `--instances K` starts K servers on it: game i is made on instance
// (i / 4) mod K (the four kinds in turn within each instance), its white
// player speaks to that instance, its black player to the next and its
// spectator to the one after (so each move reaches the others through
// the database's notifications).  With `--route owner` all of game i's
// requests and its spectator go to that instance instead, as nginx's
// consistent hash on the game's id sends them (deploy/nginx.conf), without
// nginx's own CPU in the measurement.  Then also: database round trips and
// bytes per move (the servers' --stats), PostgreSQL's own CPU.
//
//   node scripts/bench_server.mjs [--games N] [--moves M] [--think MS] [--bin build/tavoliere]
//                                 [--db sqlite|pg] [--instances K] [--client-nice N]
//                                 [--cpu-server Q] [--cpu-client Q] [--cpu-period US] [--route spread|owner]
//                                 [--client node|c] [--sockets S]
//                                 [--check]   (exit 1 unless every move and message arrived)
//
// --client c drives the servers with build/loadgen (tools/loadgen.c) instead
// of this process: the same games and requests for an eighth of the CPU, and
// no garbage collector holding answers back (results/scaling.md).
//
// --cpu-server Q puts each instance in a CPU cgroup of its own limited to Q
// cores (e.g. 0.4), --cpu-client Q this client likewise (cgroup v1's
// cpu.cfs_quota_us under /sys/fs/cgroup/cpu/tav-bench-*; root only); what is
// not confined (PostgreSQL) shares the rest.  So the instances' throughput
// can be compared on two cores without the client and the database fighting
// them for the same CPU (results/scaling.md).
import { execFileSync, spawn } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmdirSync, rmSync, writeFileSync } from "node:fs";
import http from "node:http";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
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
const DB = opt("db", "sqlite");
const K = Number(opt("instances", 1));
const ROUTE = opt("route", "spread");
if (!["spread", "owner"].includes(ROUTE)) throw new Error("--route spread|owner");
// The instance a game's white player (0), black player (1) and spectator (2) ask.
const via = (g, who) => g.k + (ROUTE === "owner" ? 0 : who);

const agent = new http.Agent({ keepAlive: true, maxSockets: Number(opt("sockets", 512)) });
const ports = [];

function req(method, path, body, k = 0) {
  return new Promise((resolve, reject) => {
    const data = body === undefined ? null : JSON.stringify(body);
    const r = http.request({ host: "127.0.0.1", port: ports[k % K], method, path, agent,
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

const dir = mkdtempSync(join(tmpdir(), "tav-bench-"));
chmodSync(dir, 0o755);   // the postgres user reaches its folder inside
let dbArg = join(dir, "bench.db");
if (DB === "pg") {
  const pg = (a) => execFileSync("sh", ["scripts/pg-throwaway.sh", ...a], { encoding: "utf8" }).trim();
  pg(["start", join(dir, "pg")]);
  dbArg = pg(["createdb", join(dir, "pg"), "bench"]);
}
// Every postgres process, when the database is ours (a backend's command line
// names no folder; the bench runs on a machine with no other PostgreSQL).
const pgPids = () => DB !== "pg" ? [] : readdirSync("/proc").filter((p) => {
  try { return /^\d+$/.test(p) && readFileSync(`/proc/${p}/comm`, "utf8").trim() === "postgres"; } catch { return false; }
});
// Their CPU time (ms).
const pgCpu = () => pgPids().reduce((sum, p) => { try { return sum + cpu(p); } catch { return sum; } }, 0);
// CPU cgroups (v1): a group limited to `cores` cores (null: no limit) holding
// `pid`, with a large weight (cpu.shares) so that a busy machine still gives
// it that much (other work on the machine gets what the groups leave).  When
// the instances are confined, PostgreSQL and the client get groups of their
// own with the same weight and no limit: with the machine's default weight
// they waited behind the instances' groups, and the instances behind them.
const CG = "/sys/fs/cgroup/cpu";
// --cpu-period US: the quota's period (100,000 µs by default, the kernel's).
// A group that spent its quota is frozen until the period ends: with 0.4 of
// a core in 100 ms periods that is 60 ms at a time, which a server's
// latency then shows; a 10 ms period freezes it 6 ms at a time.
const PERIOD = Number(opt("cpu-period", 100000));
const cgroups = [];
function confine(name, cores, pid) {
  const dir = `${CG}/tav-bench-${process.pid}-${name}`;
  mkdirSync(dir, { recursive: true });
  writeFileSync(`${dir}/cpu.cfs_period_us`, String(PERIOD));
  writeFileSync(`${dir}/cpu.cfs_quota_us`, cores === null ? "-1" : String(Math.round(cores * PERIOD)));
  writeFileSync(`${dir}/cpu.shares`, "16384");
  writeFileSync(`${dir}/cgroup.procs`, String(pid));
  cgroups.push(dir);
  // every thread of the process (the server's workers and writer too)
  try {
    for (const t of readdirSync(`/proc/${pid}/task`)) writeFileSync(`${dir}/tasks`, t);
  } catch { /* threads that ended */ }
}
function unconfine() {
  for (const dir of cgroups.splice(0)) {
    try {
      for (const t of readFileSync(`${dir}/tasks`, "utf8").split("\n").filter(Boolean)) writeFileSync(`${CG}/tasks`, t);
      rmdirSync(dir);
    } catch { /* gone already */ }
  }
}
const CPU_SERVER = opt("cpu-server", null), CPU_CLIENT = opt("cpu-client", null);
const servers = [];
const statLines = [];
for (let k = 0; k < K; k++) {
  const port = await freePort();
  ports.push(port);
  const server = spawn(BIN, ["serve", "--port", String(port), "--db", dbArg, "--rate", "0", "--stats", ...(process.env.BENCH_LOG ? [] : ["--quiet"]), ...(process.env.BENCH_ARGS ? process.env.BENCH_ARGS.split(" ") : [])],
    { stdio: ["ignore", "pipe", "pipe"] });
  server.stderr.on("data", (d) => {
    for (const line of String(d).split("\n")) {
      if (line.startsWith("stats: ")) statLines.push(line);
      else if (line.trim()) process.stderr.write(line + "\n");
    }
  });
  await new Promise((resolve, reject) => {
    let out = "";
    server.stdout.on("data", (d) => { out += d; if (out.includes("serving")) resolve(); });
    server.on("exit", () => reject(new Error("server exited")));
  });
  servers.push(server);
  if (CPU_SERVER !== null) confine(`server${k}`, Number(CPU_SERVER), server.pid);
}
if (DB === "pg" && (CPU_SERVER !== null || CPU_CLIENT !== null)) {
  // every postgres process: the server and the backends it has forked (the
  // instances' connections, made above); later ones are born in the group
  const [first, ...rest] = pgPids();
  if (first !== undefined) confine("pg", null, Number(first));
  for (const p of rest) {
    try { writeFileSync(`${cgroups.at(-1)}/cgroup.procs`, p); } catch { /* gone */ }
  }
}
const CLIENT = opt("client", "node");
if (!["node", "c"].includes(CLIENT)) throw new Error("--client node|c");
if (CPU_CLIENT !== null && CLIENT === "node") confine("client", Number(CPU_CLIENT), process.pid);
if (CPU_SERVER !== null || CPU_CLIENT !== null)
  console.log(`cpu: each instance at most ${CPU_SERVER ?? "unlimited"} core(s), the client ${CPU_CLIENT ?? "unlimited"}` +
    (DB === "pg" ? ", PostgreSQL unlimited" : "") + "; each in a group of its own, all of the same weight");
const server = { pids: servers.map((s) => s.pid) };
// --client-nice N: the client (this process) gives the cores to the servers
// and PostgreSQL first (they were started at the usual priority), so that
// its own delays weigh less in the latencies it measures.
if (opt("client-nice", null) !== null) (await import("node:os")).setPriority(Number(opt("client-nice", 0)));
const rssAll = () => server.pids.reduce((a, p) => a + rss(p), 0);
const cpuAll = () => server.pids.reduce((a, p) => a + cpu(p), 0);
let failures = 0;
let movesDone = 0;
// The node client (this process): returns the figures of the run.
async function nodeClient(marks) {
  // Create the games and their spectators.
  const games = [];
  for (let i = 0; i < GAMES; i++) {
    const game = KINDS[i % KINDS.length];
    const options = game === "toscana" ? `seed=${i + 1}` : "";
    // game i on instance (i / kinds) mod K: each instance gets the same mix of kinds
    const k = Math.floor(i / KINDS.length);
    const r = await req("POST", "/api/games", { game, options, white: "human", black: "human" }, k);
    if (r.status !== 201) throw new Error(`create: ${r.status} ${JSON.stringify(r.body)}`);
    games.push({ id: r.body.id, seats: r.body.seats, messages: 0, plies: 0, k });
  }
  await Promise.all(games.map((g) => new Promise((resolve, reject) => {
    g.ws = new WebSocket(`ws://127.0.0.1:${ports[via(g, 2) % K]}/api/games/${g.id}/live`);
    g.ws.on("message", (d) => {
      g.messages++;
      // The newest ply the spectator has seen (with several instances two
      // quick moves may come in one message: what counts is the last state).
      const m = /"ply":(\d+)/.exec(String(d));
      if (m) g.seen = Math.max(g.seen ?? 0, Number(m[1]));
    });
    g.ws.on("open", resolve);
    g.ws.on("error", reject);
  })));
  marks.ready();
  // Play: every game at once, each one move after the other.
  const lat = [];
  let refused = 0;
  let seed = 12345;
  const random = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
  // The client's own delays (a busy client makes the server look slow).
  const loopDelay = monitorEventLoopDelay({ resolution: 10 });
  loopDelay.enable();
  const t0 = performance.now();
  const client0 = process.cpuUsage();
  await Promise.all(games.map(async (g) => {
    if (THINK > 0) await new Promise((r) => setTimeout(r, random() * 2 * THINK));   // players arrive spread out
    let cur = (await req("GET", `/api/games/${g.id}?seat=${g.seats.white}`, undefined, g.k)).body;
    for (let m = 0; m < MOVES && !cur.over; m++) {
      const seat = g.seats[cur.tomove];
      const at = via(g, cur.tomove === "white" ? 0 : 1);   // each player on an instance of its own (spread)
      const mine = (await req("GET", `/api/games/${g.id}?seat=${seat}`, undefined, at)).body;
      const move = mine.legal[Math.floor(random() * mine.legal.length)];
      if (THINK > 0) await new Promise((r) => setTimeout(r, random() * 2 * THINK));
      const t = performance.now();
      const r = await req("POST", `/api/games/${g.id}/moves`, { seat, move, ply: mine.ply }, at);
      lat.push(performance.now() - t);
      if (r.status !== 200) { refused++; break; }
      g.plies++;
      cur = r.body;
    }
  }));
  const secs = (performance.now() - t0) / 1000;
  loopDelay.disable();
  marks.played();
  const cu = process.cpuUsage(client0);
  const clientMs = (cu.user + cu.system) / 1000;
  // The live messages of the last moves may still be on their way: wait for
  // them (300 ms at least, as before; on a loaded machine up to 10 s) rather
  // than count them at a fixed moment.
  const settle = performance.now();
  while (performance.now() - settle < 10000 &&
         (performance.now() - settle < 300 || games.some((g) => (g.seen ?? 0) < g.plies)))
    await new Promise((r) => setTimeout(r, 20));
  const moves = lat.length;
  lat.sort((a, b) => a - b);
  // A game is missing messages when its spectator never saw its last move
  // (or, with one instance, got other than one message a move).
  const missing = games.filter((g) => (g.seen ?? 0) !== g.plies || (K === 1 && g.messages !== g.plies + 1)).length;
  for (const g of games) g.ws.close();
  return { moves, secs, p50: pct(lat, 0.5), p99: pct(lat, 0.99), max: lat.at(-1), failures: refused, missing, clientMs,
    messages: games.reduce((s, g) => s + g.messages, 0),
    loop: `client event-loop delay ms: p99 ${(loopDelay.percentile(99) / 1e6).toFixed(1)}  max ${(loopDelay.max / 1e6).toFixed(1)}` +
      " (time the client itself held a response back)" };
}

// The C client (build/loadgen, tools/loadgen.c): the same games, requests and
// spectators, at about 0.25 ms of CPU a move (this client: about 2), in a
// process of its own (so --cpu-client confines it and not this script).
async function cClient(marks) {
  const args = ["--ports", ports.join(","), "--games", String(GAMES), "--moves", String(MOVES),
    "--think", String(THINK), "--route", ROUTE, "--kinds", KINDS.join(","), "--sockets", opt("sockets", "256")];
  const lg = spawn(join(dirname(BIN), "loadgen"), args, { stdio: ["ignore", "pipe", "inherit"] });
  if (CPU_CLIENT !== null || CPU_SERVER !== null)
    confine("client", CPU_CLIENT === null ? null : Number(CPU_CLIENT), lg.pid);
  let out = "", result = null;
  await new Promise((resolve, reject) => {
    lg.stdout.on("data", (d) => {
      out += d;
      let nl;
      while ((nl = out.indexOf("\n")) >= 0) {
        const line = out.slice(0, nl);
        out = out.slice(nl + 1);
        if (line === "ready") marks.ready();
        else if (line === "played") marks.played();
        else if (line.startsWith("{")) result = JSON.parse(line);
      }
    });
    lg.on("exit", (code) => (code === 0 && result ? resolve() : reject(new Error(`loadgen exited ${code}`))));
  });
  return { moves: result.moves, secs: result.secs, p50: result.p50, p99: result.p99, max: result.max,
    failures: result.failures, missing: result.missing, clientMs: result.cpu_ms, messages: result.messages,
    loop: `client's longest turn of its loop: ${result.loop_max_ms.toFixed(1)} ms (time it could have held a response back)` };
}

try {
  const rss0 = rssAll();
  let rssGames = 0, cpu0 = 0, pg0 = 0, cpuMs = 0, pgMs = 0, each0 = [], eachMs = [];
  const marks = {
    ready() { rssGames = rssAll(); cpu0 = cpuAll(); pg0 = pgCpu(); each0 = server.pids.map(cpu); },
    played() { cpuMs = cpuAll() - cpu0; pgMs = pgCpu() - pg0; eachMs = server.pids.map((p, k) => cpu(p) - each0[k]); },
  };
  const r = CLIENT === "c" ? await cClient(marks) : await nodeClient(marks);
  const { moves, secs, missing, clientMs } = r;
  failures += r.failures + missing;
  movesDone = moves;
  const rssEnd = rssAll();
  // The servers' own view of the same moves (/metrics: from a request's
  // arrival to its answer, client delays left out): the bucket that holds
  // their p99, and the share answered within 50 ms.
  const buckets = new Map();
  const commitLines = [];
  for (let k = 0; k < K; k++) {
    const text = String((await req("GET", "/metrics", undefined, k)).body);
    for (const m of text.matchAll(/^tavoliere_move_seconds_bucket\{le="([^"]+)"\} (\d+)/gm))
      buckets.set(m[1], (buckets.get(m[1]) ?? 0) + Number(m[2]));
    const num = (name) => Number((new RegExp(`^${name} (\\S+)`, "m").exec(text) || [0, 0])[1]);
    const n = num("tavoliere_commit_seconds_count");
    commitLines.push(`instance ${k}: ${n} commits, ${(num("tavoliere_commit_writes_sum") / (n || 1)).toFixed(1)} writes ` +
      `and ${(1000 * num("tavoliere_commit_seconds_sum") / (n || 1)).toFixed(1)} ms each`);
  }
  const total = buckets.get("+Inf") ?? 0;
  const p99le = [...buckets].find(([, n]) => n >= 0.99 * total)?.[0];
  const within50 = buckets.get("0.05") ?? 0;
  console.log(`backend ${DB}  instances ${K}  route ${ROUTE}  client ${CLIENT}`);
  console.log(`games ${GAMES}  think ${THINK} ms  moves ${moves}  in ${secs.toFixed(2)} s  = ${(moves / secs).toFixed(0)} moves/s`);
  console.log(`human move latency ms: p50 ${r.p50.toFixed(2)}  p99 ${r.p99.toFixed(2)}  max ${r.max.toFixed(2)}`);
  console.log(`server CPU: ${(cpuMs / 1000).toFixed(2)} s for ${moves} moves and ${2 * moves} reads = ${(cpuMs / moves).toFixed(2)} ms per move (with its read)` +
    (DB === "pg" ? `; PostgreSQL CPU ${(pgMs / 1000).toFixed(2)} s = ${(pgMs / moves).toFixed(2)} ms per move` : "") +
    (K > 1 ? ` (${eachMs.map((ms) => (ms / 1000).toFixed(2)).join(" + ")} s)` : "") +
    `; client CPU ${(clientMs / 1000).toFixed(2)} s; machine load average ${readFileSync("/proc/loadavg", "utf8").split(" ")[0]}`);
  console.log(r.loop);
  if (total)
    console.log(`server-side move latency (its /metrics): p99 at most ${p99le} s; ` +
      `${(100 * within50 / total).toFixed(2)}% of ${total} moves within 50 ms`);
  console.log(`commits (setup included): ${commitLines.join("; ")}`);
  console.log(`live messages: ${r.messages} (${missing} games whose spectator missed a move)`);
  console.log(`server RSS: ${(rss0 / 1048576).toFixed(1)} MiB empty, ${(rssGames / 1048576).toFixed(1)} MiB with ${GAMES} games ` +
    `(${((rssGames - rss0) / GAMES / 1024).toFixed(1)} KiB/game at start), ${(rssEnd / 1048576).toFixed(1)} MiB after play ` +
    `(${((rssEnd - rss0) / GAMES / 1024).toFixed(1)} KiB/game)`);
} catch (e) {
  console.log(`bench failed: ${e && e.stack ? e.stack : e}`);
  failures++;
} finally {
  for (const s2 of servers) {
    s2.kill("SIGTERM");
    await new Promise((r) => (s2.exitCode !== null ? r() : s2.on("exit", r)));
  }
  // The servers' --stats: database round trips and bytes (setup included).
  const sum = (re) => statLines.reduce((a, l) => a + Number((re.exec(l) || [0, 0])[1]), 0);
  const trips = sum(/(\d+) database round trips/), sent = sum(/(\d+) bytes sent/), got = sum(/(\d+) received/);
  const heard = sum(/(\d+) messages heard/), reread = sum(/(\d+) games read again/);
  const deltas = sum(/(\d+) moves heard and played/);
  if (DB === "pg" && movesDone > 0)
    console.log(`database: ${trips} round trips (${(trips / movesDone).toFixed(1)} per move, setup included), ` +
      `${(sent / movesDone).toFixed(0)} bytes sent and ${(got / movesDone).toFixed(0)} received per move; ` +
      `${heard} messages heard, ${reread} games read again, ${deltas} moves heard and played without a read`);
  // PostgreSQL first: a backend it forks meanwhile would keep its group from going
  if (DB === "pg") execFileSync("sh", ["scripts/pg-throwaway.sh", "stop", join(dir, "pg")]);
  unconfine();
  rmSync(dir, { recursive: true, force: true });
  agent.destroy();
}
if (CHECK) {
  console.log(failures === 0 ? "1 passed, 0 failed" : "0 passed, 1 failed");
  process.exitCode = failures === 0 ? 0 : 1;
}
