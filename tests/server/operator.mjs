// operator.mjs — what an operator relies on (docs/deploy.md), run for real:
//  - `make install` into a temporary DESTDIR: the installed program, started
//    with no --web, serves the page from ../share/tavoliere/web; the systemd
//    unit verifies (systemd-analyze) with the installed program's path;
//  - `serve --help` prints every option and exits 0;
//  - SIGHUP: the server keeps serving; SIGTERM drains: a live socket is
//    closed with 1001 "going away", the process exits 0;
//  - an instance started before its PostgreSQL: it tries again and serves
//    once the database is up;
//  - GET /api/health: 200, then 503 while PostgreSQL is down, 200 again;
//  - GET /metrics: Prometheus text, parsed, its counters moving with moves
//    played; refused to an address not allowed;
//  - the request log: the client's address, status, latency and instance
//    name, never a seat token;
//  - docs/deploy.md's backup and restore blocks run as written (with a runuser
//    and a systemctl of the test's own): a private dump, a database owned by
//    the role tavoliere, the instances started on it.
import { execFileSync, spawn } from "node:child_process";
import { chmodSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { request as httpRequest } from "node:http";
import { join, resolve } from "node:path";
import WebSocket from "ws";
import { BIN, BUILD, SAN, check, eq, freePort, get, main, post, startServer, tempDir, until } from "./lib.mjs";

const PGSH = "scripts/pg-throwaway.sh";
const RUNUSER = ["/usr/sbin/runuser", "/sbin/runuser"].find((p) => existsSync(p)) || "runuser";
const pgsh = (args) => execFileSync("sh", [PGSH, ...args], { encoding: "utf8" }).trim();

// A GET from a chosen loopback source address: {status, text}.
function getFrom(port, path, localAddress) {
  return new Promise((res) => {
    const r = httpRequest({ host: "127.0.0.1", port, path, localAddress, method: "GET" }, (a) => {
      let text = "";
      a.on("data", (d) => (text += d));
      a.on("end", () => res({ status: a.statusCode, text }));
    });
    r.on("error", (e) => res({ status: 0, text: String(e) }));
    r.end();
  });
}

// Prometheus text: name{labels} -> value.
function parseMetrics(text) {
  const m = new Map();
  for (const line of text.split("\n")) {
    if (!line || line.startsWith("#")) continue;
    const x = /^([a-z_:]+(?:\{[^}]*\})?) ([0-9.eE+-]+|NaN|\+Inf)$/.exec(line);
    if (!x) return null;   // not the text format
    m.set(x[1], Number(x[2]));
  }
  return m;
}

// A server process of our own (for what startServer does not do: no --web,
// an installed binary, a database that is not up yet).
function spawnServer(bin, args) {
  const child = spawn(bin, ["serve", ...args], { stdio: ["ignore", "pipe", "pipe"] });
  const s = { child, out: "", exit: null };
  child.stdout.on("data", (d) => (s.out += d));
  child.stderr.on("data", (d) => (s.out += d));
  s.exited = new Promise((r) => child.on("exit", (code, signal) => { s.exit = { code, signal }; r(s.exit); }));
  return s;
}

await main(async (defer) => {
  // ---- serve --help ----
  const help = spawnServer(BIN, ["--help"]);
  const hx = await help.exited;
  const opts = ["--host", "--port", "--db", "--db-wait", "--web", "--name", "--rate", "--proxy", "--tls-proxy",
    "--metrics-allow", "--stats", "--live-idle", "--quiet", "--allow-host", "--threads", "--ai-ms", "--help"];
  check(hx.code === 0 && opts.every((o) => new RegExp(`^  ${o} `, "m").test(help.out)),
    "serve --help exits 0 and lists every option, a line each", `${JSON.stringify(hx)} ${help.out.slice(0, 200)}`);

  // ---- make install into a DESTDIR; the installed program finds its page ----
  const dest = tempDir();
  defer(() => rmSync(dest, { recursive: true, force: true }));
  const make = execFileSync("make", ["-s", "install", `BUILD=${BUILD}`, ...(SAN ? ["SAN=1"] : []), `DESTDIR=${dest}`, "PREFIX=/usr"],
    { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
  const ibin = join(dest, "usr/bin/tavoliere");
  check(existsSync(ibin) && existsSync(join(dest, "usr/share/tavoliere/web/index.html")) &&
    existsSync(join(dest, "usr/share/tavoliere/web/app.js")) && existsSync(join(dest, "usr/share/tavoliere/deploy/nginx.conf")) &&
    existsSync(join(dest, "usr/share/tavoliere/deploy/systemd/tavoliere@.service")) && existsSync(join(dest, "usr/share/doc/tavoliere/deploy.md")),
  "make install DESTDIR=... PREFIX=/usr: the program, the page, the deploy files, the docs", make.slice(0, 300));
  {
    const port = await freePort();
    const dir = tempDir();
    const s = spawnServer(ibin, ["--port", String(port), "--db", join(dir, "i.db"), "--quiet"]);
    const up = await until(() => s.out.includes("serving http://") || s.exit);
    check(up && !s.out.includes("not built"), "the installed program starts with no --web and has its page", s.out);
    const page = await get(`http://127.0.0.1:${port}`, "/");
    check(page.status === 200 && /<html/i.test(page.text), "... GET / answers the page", `${page.status} ${String(page.text).slice(0, 80)}`);
    const app = await get(`http://127.0.0.1:${port}`, "/app.js");
    eq(app.status, 200, "... and its script");
    s.child.kill("SIGTERM");
    eq((await s.exited).code, 0, "... and stops cleanly");
    rmSync(dir, { recursive: true, force: true });
  }
  // The unit, as installed, pointed at the installed program.
  const unit = readFileSync(join(dest, "usr/share/tavoliere/deploy/systemd/tavoliere@.service"), "utf8")
    .replace("/usr/local/bin/tavoliere", ibin);
  const unitDir = tempDir();
  writeFileSync(join(unitDir, "tavoliere@8081.service"), unit);
  let verify = "";
  try {
    verify = execFileSync("systemd-analyze", ["verify", "--man=no", join(unitDir, "tavoliere@8081.service")],
      { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
    check(true, "systemd-analyze verify accepts tavoliere@.service");
  } catch (e) {
    check(false, "systemd-analyze verify accepts tavoliere@.service", String(e.stderr || e.message).slice(0, 500));
  }
  check(/NoNewPrivileges=yes/.test(unit) && /ProtectSystem=strict/.test(unit) && /Restart=on-failure/.test(unit) &&
    /EnvironmentFile=/.test(unit) && /User=tavoliere/.test(unit), "the unit: a user of its own, Restart=, hardening, an environment file", verify);
  rmSync(unitDir, { recursive: true, force: true });

  // ---- SIGHUP, the log, /metrics, SIGTERM's drain (SQLite) ----
  const srv = await startServer({ quiet: false, args: ["--name", "inst-a", "--metrics-allow", "127.0.0.9"] });
  const base = srv.base;
  const c = await post(base, "/api/games", { game: "epaminondas", white: "human", black: "human" });
  const { id, seats } = c.body;
  const before = parseMetrics((await getFrom(srv.port, "/metrics", "127.0.0.9")).text);
  check(before && before.get("tavoliere_up{instance_name=\"inst-a\"}") === 1, "GET /metrics: Prometheus' text format, up", JSON.stringify(before && [...before].slice(0, 3)));
  srv.child.kill("SIGHUP");
  let g = (await get(base, `/api/games/${id}?seat=${seats.white}`)).body;
  for (let i = 0; i < 3; i++) {
    const side = g.tomove;
    const mine = (await get(base, `/api/games/${id}?seat=${seats[side]}`)).body;
    const r = await post(base, `/api/games/${id}/moves`, { seat: seats[side], move: mine.legal[0], ply: mine.ply });
    eq(r.status, 200, `after SIGHUP the server still serves: move ${i + 1}`);
    g = r.body;
  }
  eq((await post(base, `/api/games/${id}/moves`, { seat: seats.white, move: "a1-a2", ply: 0 })).status, 409, "a stale move: 409");
  check(srv.child.exitCode === null && srv.child.signalCode === null, "SIGHUP did not stop it");
  const after = parseMetrics((await getFrom(srv.port, "/metrics", "127.0.0.9")).text);
  const d = (k) => (after.get(k) ?? NaN) - (before.get(k) ?? 0);
  eq([d('tavoliere_moves_total{outcome="played"}'), d('tavoliere_moves_total{outcome="conflict"}'), d("tavoliere_move_seconds_count"),
    d('tavoliere_move_seconds_bucket{le="+Inf"}')], [3, 1, 4, 4], "the counters moved: 3 moves played, 1 conflict, 4 latencies");
  check(d("tavoliere_commits_total{result=\"ok\"}") >= 1 && after.get("tavoliere_games_in_memory") >= 1 &&
    d('tavoliere_requests_total{status="200"}') >= 3, "commits counted, the game in memory, requests by status");
  check([...after.keys()].some((k) => k.startsWith("tavoliere_commit_seconds_bucket")) && after.has("tavoliere_search_jobs") &&
    after.has('tavoliere_sockets{kind="live"}') && after.has("tavoliere_db_round_trips_total"), "commit durations, searches, sockets, round trips");
  eq((await getFrom(srv.port, "/metrics", "127.0.0.1")).status, 403, "/metrics refused to an address not allowed (--metrics-allow)");
  const h = await get(base, "/api/health");
  eq([h.status, h.body.status, h.body.database, h.body.instance], [200, "ok", true, "inst-a"], "GET /api/health: 200, database reached");
  // The log: address, method, path, status, latency, instance; no token.
  const lines = srv.errors().split("\n").filter((l) => l.includes("/moves"));
  check(lines.length >= 4 && lines.every((l) => /Z 127\.0\.0\.1 POST \/api\/games\/[A-Za-z0-9_-]+\/moves (200|409) [0-9.]+ms inst-a$/.test(l)),
    "a log line a request: client address, method, path, status, latency, instance", lines.slice(0, 2).join(" | "));
  check(!srv.output().includes(seats.white) && !srv.errors().includes(seats.white), "no seat token in the log");
  // SIGTERM drains: the live socket is closed with 1001, the process exits 0.
  const ws = new WebSocket(base.replace("http", "ws") + `/api/games/${id}/live?seat=${seats.white}`);
  const got = [];
  ws.on("message", (m) => got.push(JSON.parse(String(m))));
  const closed = new Promise((r) => ws.on("close", (code, reason) => r({ code, reason: String(reason) })));
  await until(() => got.length >= 1);
  const stopped = srv.stop("SIGTERM");
  const cl = await closed;
  check(got.at(-1)?.type === "restarting" && [1001, 1006].includes(cl.code),
    "SIGTERM: the live socket is told {type: restarting} (the page reconnects at once, elsewhere), then closed",
    JSON.stringify([got.at(-1), cl]));
  eq((await stopped).code, 0, "... and the process exits 0");
  check(/draining/.test(srv.errors()), "the drain is logged");

  // ---- PostgreSQL: started after the instance; health follows it ----
  const pgdir = join(mkdtempSync("/tmp/tav-ops-"), "pg");
  chmodSync(join(pgdir, ".."), 0o755);
  pgsh(["start", pgdir]);
  defer(() => { try { pgsh(["stop", pgdir]); } catch { /* gone */ } });
  const uri = pgsh(["createdb", pgdir, "ops"]);
  pgsh(["down", pgdir]);
  const port = await freePort();
  const late = spawnServer(BIN, ["--port", String(port), "--db", uri, "--name", "inst-pg", "--db-wait", "120"]);
  defer(() => { if (late.exit === null) late.child.kill("SIGKILL"); });
  const tried = await until(() => /trying again/.test(late.out) || late.exit, 30000);
  check(tried && late.exit === null, "an instance started before PostgreSQL waits for it (trying again)", late.out.slice(0, 300));
  pgsh(["up", pgdir]);
  const served = await until(() => late.out.includes("serving http://") || late.exit, 60000);
  check(served && late.exit === null, "... and serves once the database is up", late.out.slice(-300));
  const pbase = `http://127.0.0.1:${port}`;
  const h1 = await get(pbase, "/api/health");
  eq([h1.status, h1.body.database], [200, true], "/api/health on PostgreSQL: 200");
  pgsh(["down", pgdir]);
  const h2 = await until(async () => { const x = await get(pbase, "/api/health"); return x.status === 503 ? x : null; }, 20000);
  check(h2 && h2.body.database === false, "/api/health: 503 with the database stopped", JSON.stringify(h2 && h2.body));
  pgsh(["up", pgdir]);
  const h3 = await until(async () => { const x = await get(pbase, "/api/health"); return x.status === 200 ? x : null; }, 30000);
  check(!!h3, "/api/health: 200 again once it is back");
  const made = await until(async () => { const x = await post(pbase, "/api/games", { game: "urbino", white: "human", black: "human" }); return x.status === 201 ? x : null; }, 30000);
  check(!!made, "and the instance works again (a game created)");
  late.child.kill("SIGTERM");
  eq((await late.exited).code, 0, "the PostgreSQL instance stops cleanly");
  check(!/AddressSanitizer|LeakSanitizer|runtime error:/.test(late.out), "no sanitizer report from it", late.out.slice(-500));

  // ---- docs/deploy.md's backup and restore, run as written ----
  await backupAndRestore(defer, pgdir, uri);
});

// The shell blocks of docs/deploy.md that follow a "<!-- NAME: run as
// written ... -->" line.
function guideBlock(name) {
  const doc = readFileSync("docs/deploy.md", "utf8");
  const m = new RegExp(`<!-- ${name}: run as written[^>]*-->\\n\`\`\`sh\\n([\\s\\S]*?)\`\`\``).exec(doc);
  return m ? m[1] : null;
}

// The guide's commands need root, PostgreSQL's superuser and systemd: the
// test gives them a `runuser` that runs `-u postgres --` commands as the
// postgres user against the throwaway server, and a `systemctl` that starts and stops
// instances of the test (tavoliere@PORT -> a free port of the test's own).
async function backupAndRestore(defer, pgdir, uri) {
  const u = new URL(uri);
  const pgport = u.port;
  const psql = (db, sql) => execFileSync("psql", ["-X", "-q", "-v", "ON_ERROR_STOP=1", "-At", "-h", "127.0.0.1", "-p", pgport, "-U", "tav", "-d", db, "-c", sql],
    { encoding: "utf8" }).trim();
  // What the guide's PostgreSQL section makes: a role with a password, a database it owns.
  psql("postgres", "CREATE ROLE tavoliere LOGIN PASSWORD 'a long random password'");
  psql("postgres", "CREATE DATABASE tavoliere OWNER tavoliere");
  const appDb = `postgresql://tavoliere:a%20long%20random%20password@127.0.0.1:${pgport}/tavoliere`;
  const work = mkdtempSync("/tmp/tav-guide-");
  chmodSync(work, 0o755);
  defer(() => rmSync(work, { recursive: true, force: true }));
  const shim = join(work, "bin");
  execFileSync("mkdir", ["-p", shim, join(work, "run")]);
  const ports = {};
  for (const p of [8001, 8002, 8003]) ports[p] = await freePort();
  writeFileSync(join(shim, "runuser"), `#!/bin/sh
# runuser -u USER -- CMD...: CMD as USER (the real runuser), aimed at the
# test's PostgreSQL (the throwaway server's superuser is "tav"; Debian's
# postgres user connects to its database "postgres" by default)
[ "$1" = -u ] && [ "$3" = -- ] || { echo "shim runuser: only -u USER -- CMD" >&2; exit 2; }
user=$2; shift 3
if [ "$(id -u)" -eq 0 ]; then
  exec ${RUNUSER} -u "$user" -- env PGHOST=127.0.0.1 PGPORT=${pgport} PGUSER=tav PGDATABASE=postgres "$@"
fi
exec env PGHOST=127.0.0.1 PGPORT=${pgport} PGUSER=tav PGDATABASE=postgres "$@"
`, { mode: 0o755 });
  writeFileSync(join(shim, "systemctl"), `#!/bin/sh
# systemctl start|stop tavoliere@PORT...: the test's instances
act=$1; shift
run=${join(work, "run")}
case $act in
stop)
  for f in "$run"/*.pid; do
    [ -e "$f" ] || continue
    pid=$(cat "$f"); kill -TERM "$pid" 2>/dev/null
    i=0; while kill -0 "$pid" 2>/dev/null && [ $i -lt 300 ]; do sleep 0.1; i=$((i+1)); done
    rm -f "$f"
  done ;;
start)
  for unit; do
    n=\${unit#tavoliere@}
    case $n in ${Object.entries(ports).map(([k, v]) => `${k}) port=${v} ;;`).join(" ")} *) echo "shim systemctl: $unit?" >&2; exit 2 ;; esac
    TAVOLIERE_DB='${appDb}' nohup ${resolve(BIN)} serve --host 127.0.0.1 --port $port --name guide-$n --quiet >"$run/$n.log" 2>&1 &
    echo $! >"$run/$n.pid"
  done ;;
*) echo "shim systemctl: $act?" >&2; exit 2 ;;
esac
`, { mode: 0o755 });
  const env = { ...process.env, PATH: `${shim}:${process.env.PATH}` };
  const runGuide = (script) => execFileSync("sh", ["-e", "-c", script], { encoding: "utf8", env, stdio: ["ignore", "pipe", "pipe"] });

  // The site runs (through the guide's own systemctl start) and a game is played.
  runGuide("systemctl start tavoliere@8001");
  const base = `http://127.0.0.1:${ports[8001]}`;
  const up = await until(async () => (await get(base, "/api/health").catch(() => ({ status: 0 }))).status === 200, 30000);
  check(up, "the guide's instance runs as the role tavoliere (password, its own database)");
  const made = await post(base, "/api/games", { game: "epaminondas", white: "human", black: "human" });
  const { id, seats } = made.body;
  const play = async () => {
    const g = (await get(base, `/api/games/${id}`)).body;
    const mine = (await get(base, `/api/games/${id}?seat=${seats[g.tomove]}`)).body;
    return (await post(base, `/api/games/${id}/moves`, { seat: seats[g.tomove], move: mine.legal[0], ply: mine.ply })).status;
  };
  eq([await play(), await play()], [200, 200], "two moves before the backup");

  // The backup block, as written (its folder in the test's place).
  const backup = guideBlock("backup");
  const backups = join(work, "backups");
  check(!!backup && backup.startsWith("BACKUPS=/var/backups/tavoliere\n"), "docs/deploy.md has the backup block", backup);
  try {
    runGuide(backup.replace("BACKUPS=/var/backups/tavoliere", `BACKUPS=${backups}`));
    check(true, "the guide's backup commands run as written");
  } catch (e) {
    check(false, "the guide's backup commands run as written", String(e.stderr || e.message).slice(0, 600));
  }
  const dumps = existsSync(backups) ? readdirSync(backups).filter((f) => /^tavoliere-\d{4}-\d\d-\d\d\.dump$/.test(f)) : [];
  check(dumps.length === 1, "a dump named by the date", dumps.join(" "));
  const dump = dumps.length ? join(backups, dumps[0]) : "";
  check(dump && (statSync(dump).mode & 0o077) === 0 && (statSync(backups).mode & 0o077) === 0,
    "the dump and its folder are private (no access for group or others)", dump && (statSync(dump).mode & 0o777).toString(8));
  eq(await play(), 200, "a move after the backup (the restore takes the game back before it)");

  // The restore block, as written (the dump's name in the test's place).
  const restore = guideBlock("restore");
  check(!!restore && /^DUMP=\S+\n/.test(restore), "docs/deploy.md has the restore block", restore);
  try {
    runGuide(restore.replace(/^DUMP=\S+\n/, `DUMP=${dump}\n`));
    check(true, "the guide's restore commands run as written");
  } catch (e) {
    check(false, "the guide's restore commands run as written", String(e.stderr || e.message).slice(0, 600));
  }
  const bases = [8001, 8002, 8003].map((p) => `http://127.0.0.1:${ports[p]}`);
  const all = await until(async () => {
    const st = await Promise.all(bases.map((b) => get(b, "/api/health").then((x) => x.status, () => 0)));
    return st.every((x) => x === 200);
  }, 30000);
  check(all, "after the restore the three instances start and serve on the restored database",
    ["8001", "8002", "8003"].map((n) => { try { return readFileSync(join(work, "run", `${n}.log`), "utf8").slice(-300); } catch { return ""; } }).join(" | "));
  const back = (await get(bases[1], `/api/games/${id}`)).body;
  eq(back.moves && back.moves.length, 2, "the restored game is as it was at the backup");
  eq((await post(bases[2], "/api/games", { game: "urbino", white: "human", black: "human" })).status, 201,
    "the instances write to the restored database (it belongs to tavoliere)");
  eq(psql("postgres", "SELECT datname FROM pg_database WHERE datname LIKE 'tavoliere%' ORDER BY 1"), "tavoliere\ntavoliere_before_restore",
    "the database as it was is kept under another name");
  eq(psql("tavoliere", "SELECT DISTINCT tableowner FROM pg_tables WHERE schemaname = 'public'"), "tavoliere", "every restored table belongs to tavoliere");
  runGuide("systemctl stop tavoliere@8001");
}
