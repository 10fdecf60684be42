// botcli.mjs — `tavoliere bot` against a test server (SPEC "Bots"): a
// person's challenge accepted, a game played to its end with legal moves
// (the server refuses any other), a second challenge over --games declined,
// the bridge SIGKILLed mid-game and started again resumes the game; broken
// engines (garbage at once, an exit after a few moves) reported, the game
// aborted or resigned cleanly.
import { spawn } from "node:child_process";
import { writeFileSync, chmodSync, rmSync } from "node:fs";
import { join } from "node:path";
import WebSocket from "ws";
import { BIN, check, eq, main, request, sleep, startServer, tempDir, rng } from "./lib.mjs";

async function call(base, method, path, body, auth) {
  const headers = {};
  if (auth && auth.startsWith("Bearer ")) headers.authorization = auth;
  else if (auth) headers.cookie = auth;
  return request(base, method, path, body, { headers });
}

async function account(base, name) {
  const r = await call(base, "POST", "/api/account", { name, password: `${name} password` });
  check(r.status === 201, `account ${name}`, JSON.stringify(r.body));
  return (r.headers.get("set-cookie") ?? "").split(";")[0];
}

function lobby(base, cookie) {
  const ws = new WebSocket(base.replace("http", "ws") + "/api/lobby", { headers: { cookie } });
  const messages = [];
  ws.on("message", (d) => messages.push(JSON.parse(String(d))));
  ws.on("error", () => {});
  return { ws, messages, open: new Promise((res) => ws.once("open", res)) };
}

// The bridge as a child process, its output kept.
function bridge(base, token, args) {
  const child = spawn(BIN, ["bot", "--server", base, "--token", token, ...args], { stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  child.stdout.on("data", (d) => (out += d));
  child.stderr.on("data", (d) => (out += d));
  const exited = new Promise((res) => child.on("exit", (code, signal) => res({ code, signal })));
  return {
    child, exited, output: () => out,
    async until(re, ms = 30000) {
      const t0 = Date.now();
      while (!re.test(out) && Date.now() - t0 < ms && child.exitCode === null) await sleep(25);
      return re.test(out);
    },
    async stop(signal = "SIGTERM") {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
}

async function waitFor(f, ms = 30000) {
  const t0 = Date.now();
  for (;;) {
    const v = await f();
    if (v || Date.now() - t0 > ms) return v;
    await sleep(50);
  }
}

const CLOCK = { initial: 600, increment: 0 };

await main(async (defer) => {
  const srv = await startServer();
  defer(() => srv.stop());
  const base = srv.base;
  const dir = tempDir();
  defer(() => rmSync(dir, { recursive: true, force: true }));
  const ann = await account(base, "Ann"), robo = await account(base, "Robo");
  eq((await call(base, "POST", "/api/account/bot", {}, robo)).status, 200, "Robo is a bot");
  const tok = (await call(base, "POST", "/api/tokens", {}, robo)).body.token;
  const random = rng(48);
  const L = lobby(base, ann);
  await L.open;

  // A person's token: the bridge refuses to start.
  const annTok = (await call(base, "POST", "/api/tokens", {}, ann)).body.token;
  const notBot = bridge(base, annTok, ["--level", "1"]);
  const nb = await notBot.exited;
  check(nb.code === 1 && /not a bot account/.test(notBot.output()), "a person's token: the bridge says it is no bot and exits 1", notBot.output());
  const badTok = bridge(base, "tvb_" + "C".repeat(43), ["--level", "1"]);
  const bt = await badTok.exited;
  check(bt.code === 1 && /unknown or revoked/.test(badTok.output()), "an unknown token: the bridge says so and exits 1", badTok.output());

  let B = bridge(base, tok, ["--level", "1", "--games", "1", "--movetime", "60"]);
  defer(() => B.stop("SIGKILL"));
  check(await B.until(/event socket is open/), "the bridge connects its event socket", B.output());

  // Toscana: declined (its hidden stacks cannot be replayed into an engine).
  const ct = await call(base, "POST", "/api/seeks", { game: "toscana", options: "", rated: false, colour: "white", clock: CLOCK, to: "Robo" }, ann);
  check(!!(await waitFor(() => L.messages.find((m) => m.type === "declined" && m.seek === ct.body.id))), "a Toscana challenge is declined");
  // A challenge: accepted, the game starts.
  const c1 = await call(base, "POST", "/api/seeks", { game: "urbino", options: "", rated: true, colour: "white", clock: CLOCK, to: "Robo" }, ann);
  eq(c1.status, 201, "Ann challenges Robo (rated Urbino, Ann white)");
  const started = await waitFor(() => L.messages.find((m) => m.type === "started"));
  check(!!started, "the bridge accepts: the game starts (Ann told on the lobby socket)");
  const gid = started.game;
  // A second challenge while the first game runs: over --games 1, declined.
  const c2 = await call(base, "POST", "/api/seeks", { game: "urbino", options: "", rated: false, colour: "white", clock: CLOCK, to: "Robo" }, ann);
  eq(c2.status, 201, "Ann challenges Robo again");
  check(!!(await waitFor(() => L.messages.find((m) => m.type === "declined" && m.seek === c2.body.id))),
    "a second challenge over --games 1 is declined (Ann told)", B.output());
  // Play the game: Ann plays random legal moves; the bot answers.
  let g, killed = false, botMovesBefore = 0;
  const deadline = Date.now() + 240000;
  for (;;) {
    g = (await call(base, "GET", `/api/games/${gid}`, undefined, ann)).body;
    if (g.over || Date.now() > deadline) break;
    if (!killed && g.moves.length >= 8) {
      // SIGKILL the bridge mid-game, then start it again: it resumes.
      killed = true;
      await B.stop("SIGKILL");
      botMovesBefore = g.moves.length;
      B = bridge(base, tok, ["--level", "1", "--games", "1", "--movetime", "60"]);
      check(await B.until(/event socket is open/), "the bridge started again connects");
      check(await B.until(new RegExp(`game ${gid}: urbino`)), "... and picks its unfinished game up (gameStart at once)", B.output());
    }
    if (g.tomove === "white" && g.legal.length) {
      const m = g.legal[Math.floor(random() * g.legal.length)];
      const r = await call(base, "POST", `/api/games/${gid}/moves`, { move: m, ply: g.moves.length }, ann);
      check(r.status === 200 || r.status === 409, "Ann's move", JSON.stringify(r.body));
    } else {
      await sleep(30);
    }
  }
  check(killed && g.moves.length > botMovesBefore + 2, "after the restart the game went on", `${botMovesBefore} -> ${g.moves.length}`);
  eq([g.over, g.end], [true, "normal"], "the game is played to its end by the rules (every move legal: the server refuses others)");
  check(!/refused|broken/.test(B.output()), "the bridge had no move refused", B.output().slice(-2000));
  check(await B.until(new RegExp(`game ${gid}: over after \\d+ moves: winner`)), "the bridge logs the game's end", B.output().slice(-1000));
  const r1 = await B.stop("SIGTERM");
  check(r1.code === 0 && !/Sanitizer|runtime error:/.test(B.output()), "SIGTERM: the bridge stops cleanly", `${JSON.stringify(r1)} ${B.output().slice(-3000)}`);

  // Broken engines.
  const garbage = join(dir, "garbage.sh");
  writeFileSync(garbage, "#!/bin/sh\nwhile read l; do case \"$l\" in go*) echo 'what is a move';; quit) exit 0;; *) echo ok;; esac; done\n");
  chmodSync(garbage, 0o755);
  B = bridge(base, tok, ["--engine", garbage, "--games", "1", "--movetime", "60"]);
  check(await B.until(/event socket is open/), "a bridge with an engine that answers garbage starts");
  const n0 = L.messages.filter((m) => m.type === "started").length;
  eq((await call(base, "POST", "/api/seeks", { game: "urbino", options: "", rated: false, colour: "white", clock: CLOCK, to: "Robo" }, ann)).status, 201,
    "Ann challenges again (the bot moves first)");
  const st2 = await waitFor(() => L.messages.filter((m) => m.type === "started")[n0]);
  check(!!st2, "accepted");
  const g2 = await waitFor(async () => { const x = (await call(base, "GET", `/api/games/${st2.game}`, undefined, ann)).body; return x.over ? x : null; });
  check(g2 && g2.end === "abort", "an engine answering garbage: reported, the game aborted (the bot had not moved)", JSON.stringify(g2 && [g2.end, g2.moves.length]));
  // The game is over on the server before the bridge has written its log line: wait for it.
  check(await B.until(/engine is broken[\s\S]*aborted|aborted[\s\S]*engine is broken/), "the bridge reports the broken engine", B.output().slice(-1500));
  await B.stop("SIGTERM");

  // An engine that plays a few moves, then exits: resigned.
  const dies = join(dir, "dies.py");
  writeFileSync(dies, `import subprocess, sys
e = subprocess.Popen([${JSON.stringify(BIN)}, "engine"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
gos = 0
for line in sys.stdin:
    if line.startswith("go"):
        gos += 1
        if gos == 3:
            sys.exit(3)
    e.stdin.write(line); e.stdin.flush()
    while True:
        out = e.stdout.readline()
        sys.stdout.write(out); sys.stdout.flush()
        if not out.startswith("info "):
            break
`);
  B = bridge(base, tok, ["--engine", `python3 ${dies}`, "--games", "1", "--movetime", "60"]);
  check(await B.until(/event socket is open/), "a bridge with an engine that dies at its third move starts", B.output());
  const n1 = L.messages.filter((m) => m.type === "started").length;
  eq((await call(base, "POST", "/api/seeks", { game: "cathedral", options: "", rated: false, colour: "white", clock: CLOCK, to: "Robo" }, ann)).status, 201,
    "Ann challenges to Cathedral");
  const st3 = await waitFor(() => L.messages.filter((m) => m.type === "started")[n1]);
  check(!!st3, "accepted");
  let g3;
  const d3 = Date.now() + 120000;
  for (;;) {
    g3 = (await call(base, "GET", `/api/games/${st3.game}`, undefined, ann)).body;
    if (g3.over || Date.now() > d3) break;
    if (g3.seat === g3.tomove && g3.legal.length) {
      const m = g3.legal[Math.floor(random() * g3.legal.length)];
      await call(base, "POST", `/api/games/${st3.game}/moves`, { move: m, ply: g3.moves.length }, ann);
    } else await sleep(30);
  }
  eq([g3.over, g3.end, g3.winner], [true, "resign", "white"], "an engine that exits mid-game: the bot resigns (Ann wins)");
  check(await B.until(/the engine is broken \(the engine exited|engine is broken \(the engine stopped/), "the bridge reports the engine's exit", B.output().slice(-1500));
  await B.stop("SIGTERM");
  L.ws.close();
});
