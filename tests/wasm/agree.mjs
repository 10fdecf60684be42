// agree.mjs — the engine built for the browser agrees with the native one.
//
//  1. Seeded random games of every game (GAMES_EACH of each, through its
//     sample option sets in turn) are played through the engine protocol
//     (docs/protocol.md) of the WebAssembly build in node: at every ply the
//     move list (`moves`), the state line, the hash, the position text and
//     the drawing view (`show`); the same command lines then go to the
//     native `$BUILD/tavoliere engine` with the same --seed, and every answer
//     must be the same, byte for byte (one check per game).
//  2. Searches with a fixed budget and seed (`go nodes=N seed=S`, alpha-beta
//     `go depth=D seed=S`, each player) from positions of those games give
//     the same best move (one check each).
//  3. `bench --scale 0.2` in WebAssembly gives the native signatures (the
//     plies, moves and hashes of its random games and the moves and counts
//     of its searches), one check per line.
//  4. The game object, and the legal moves with their parts: seeded random
//     games of every sample option set (LEGAL_GAMES_EACH each, Toscana dealt
//     by a seed) played at once on `$BUILD/tavoliere serve` (both seats
//     human) and in the page's engine (tw_game): at every ply, for white,
//     black and a spectator, the server's `"game":..,"options":..` and its
//     state from `"moves"` to `"resigned"` (moves, tomove, over, winner,
//     score, legal, legalGroups, ply, seat) and the engine's must be the same
//     bytes (both are written by the library's tavi_json_game_head and
//     tavi_json_state; one check per game and viewer), and the engine's
//     groups must hold one anchor (or count) per legal move.
// Prints "N passed, N failed".  Usage: [BUILD=build] [GAMES_EACH=N] node tests/wasm/agree.mjs

import { spawnSync } from "node:child_process";
import { loadTav, newEngine, NATIVE, rng } from "./lib.mjs";
import { request, startServer } from "../server/lib.mjs";

const GAMES_EACH = Number(process.env.GAMES_EACH || 200);
const LEGAL_GAMES_EACH = Number(process.env.LEGAL_GAMES_EACH || 2);
const SEED = 20261127;
let passed = 0, failed = 0;
function check(name, ok, detail = "") {
  if (ok) passed++;
  else {
    failed++;
    console.log(`FAIL ${name}${detail ? ": " + detail : ""}`);
  }
  return ok;
}

// Split an engine's output into one entry per command: its info lines and
// its answer line.
function answers(text) {
  const out = [];
  let cur = [];
  for (const line of text.split("\n")) {
    if (line === "") continue;
    cur.push(line);
    if (!line.startsWith("info")) {
      out.push(cur);
      cur = [];
    }
  }
  return out;
}

function native(seed, lines) {
  const r = spawnSync(NATIVE, ["engine", "--seed", String(seed)], { input: lines.join("\n") + "\n", maxBuffer: 1 << 30, encoding: "utf8" });
  if (r.status !== 0) throw new Error(`native engine: status ${r.status}: ${r.stderr}`);
  return answers(r.stdout);
}

const { tav, why } = await loadTav();
if (!tav) {
  // Without the toolchain this suite runs nothing: a failure, unless the run
  // allows it by name (TAV_ALLOW_SKIP=wasm; CI never sets it).
  if ((process.env.TAV_ALLOW_SKIP || "").split(",").includes("wasm")) {
    console.log(`skipped (TAV_ALLOW_SKIP=wasm): ${why}`);
    console.log("0 passed, 0 failed");
    process.exit(0);
  }
  console.log(`FAIL the engine for the browser is built: ${why}`);
  console.log("0 passed, 1 failed");
  process.exit(1);
}
const { engine } = await newEngine(tav);
const meta = engine.meta();
const t0 = Date.now();

for (const gm of meta.games) {
  // a fresh protocol engine per game, seeded as the native one
  const { engine: e } = await newEngine(tav);
  const seed = SEED + gm.name.length;
  const lines = [], mine = [], searches = [];
  const send = (line, isSearch = false) => {
    lines.push(line);
    const a = e.engine(line, seed).split("\n");
    if (isSearch) searches.push(mine.length);
    mine.push(a);
    return a[a.length - 1];
  };
  const rand = rng(SEED ^ gm.name.charCodeAt(0));
  const gameStart = [];
  let plies = 0;
  for (let i = 0; i < GAMES_EACH; i++) {
    const opts = gm.options[i % gm.options.length] ?? "";
    gameStart.push(lines.length);
    const ok = send(`newgame ${gm.name}${opts ? " " + opts : ""}`);
    if (ok !== "ok") {
      check(`${gm.name} newgame ${opts}`, false, ok);
      break;
    }
    for (let ply = 0; ply < 2000; ply++) {
      const moves = send("moves").split(" ").slice(1);
      send("state");
      send("hash");
      send("getposition");
      send("show");
      if (!moves.length) break;
      // a few searches along the first games: tree search by playouts, the
      // "ai" player by its own budget kind (playouts or alpha-beta nodes)
      if (i < 3 && ply % 20 === 7) {
        send("go player=uct nodes=300 seed=11", true);
        send(gm.name === "epaminondas" ? "go player=ai depth=3 seed=5" : "go player=ai nodes=400 seed=5", true);
      }
      send(`play ${moves[Math.floor(rand() * moves.length)]}`);
      plies++;
    }
  }
  gameStart.push(lines.length);
  const theirs = native(seed, lines);
  check(`${gm.name}: one answer per command`, theirs.length === mine.length, `${theirs.length} vs ${mine.length}`);
  const isSearch = new Set(searches);
  const same = (k) => isSearch.has(k)
    ? mine[k][mine[k].length - 1] === theirs[k]?.[theirs[k].length - 1]
    : mine[k].join("\n") === (theirs[k] ?? []).join("\n");
  for (let i = 0; i + 1 < gameStart.length; i++) {
    let bad = -1;
    for (let k = gameStart[i]; k < gameStart[i + 1] && bad < 0; k++) if (!isSearch.has(k) && !same(k)) bad = k;
    check(`${gm.name} game ${i}: the same move lists, states, hashes, positions and views`, bad < 0,
      bad < 0 ? "" : `command ${bad} "${lines[bad]}":\nwasm:   ${mine[bad].join("\n        ")}\nnative: ${(theirs[bad] ?? []).join("\n        ")}`);
  }
  for (const k of searches)
    check(`${gm.name} "${lines[k]}" (command ${k}): the same best move`, same(k),
      `wasm ${mine[k][mine[k].length - 1]}, native ${theirs[k]?.[theirs[k].length - 1]}`);
  console.log(`${gm.name}: ${GAMES_EACH} games, ${plies} plies, ${lines.length} commands, ${searches.length} searches`);
  e.free();
}

// The benchmark's signatures (its workload is seeded: the same on any machine).
const sigs = (text) => text.split("\n").map((l) => l.trim().split(/\s+/)).filter((w) => /^[0-9a-f]{16}$/.test(w.find((x) => /^[0-9a-f]{16}$/.test(x)) ?? ""))
  .map((w) => `${w[0]} ${w[1]} ${w.find((x) => /^[0-9a-f]{16}$/.test(x))}`);
const nb = spawnSync(NATIVE, ["bench", "--scale", "0.2"], { encoding: "utf8" });
const mineSigs = sigs(engine.bench(0.2, true)), theirSigs = sigs(nb.stdout);
check("bench: as many signature lines", mineSigs.length === theirSigs.length && mineSigs.length >= 10, `${mineSigs.length} vs ${theirSigs.length}`);
for (let i = 0; i < theirSigs.length; i++) check(`bench line "${theirSigs[i]}"`, mineSigs[i] === theirSigs[i], `wasm "${mineSigs[i]}"`);

// ---- 4: the legal moves' groups, the server's and the page engine's ----

// What both writers write of a game's JSON: `"game":..,"options":..` (the
// server puts the players after it) and the state from `"moves":[` to
// `"resigned":..` (the server goes on with "thinking", the engine with "end").
function legalBytes(text) {
  const g = text.indexOf('"game":'), o = text.indexOf(',"', text.indexOf('"options":'));
  const a = text.indexOf('"moves":['), r = text.indexOf('"resigned":', a), z = text.indexOf(',"', r);
  return g >= 0 && o > g && a > o && r > a && z > r ? text.slice(g, o) + " " + text.slice(a, z)
    : `(no game state in ${text.slice(0, 200)})`;
}

const srv = await startServer();
let positions = 0;
try {
  const { engine: e } = await newEngine(tav);
  let seed = 1;
  for (const gm of meta.games) {
    for (const options of gm.options) {
      for (let k = 0; k < LEGAL_GAMES_EACH; k++, seed++) {
        const opts = gm.name === "toscana" && !/seed=|white=/.test(options) ? [options, `seed=${seed}`].filter(Boolean).join(" ") : options;
        const what = `legalGroups ${gm.name} [${opts}] game ${k}`;
        const c = await request(srv.base, "POST", "/api/games", { game: gm.name, options: opts, white: "human", black: "human" });
        if (!check(`${what}: made on the server`, c.status === 201, c.text)) continue;
        const { id, seats } = c.body;
        e.start(gm.name, opts, seed);
        const rand = rng(SEED + seed);
        const bad = { white: "", black: "", spectator: "" };
        let counts = "";
        for (let ply = 0; ply < 300; ply++) {
          let mine = null;
          for (const [who, viewer, q] of [["white", tav.WHITE, `?seat=${seats.white}`], ["black", tav.BLACK, `?seat=${seats.black}`], ["spectator", tav.SPECTATOR, ""]]) {
            const theirs = legalBytes((await request(srv.base, "GET", `/api/games/${id}${q}`)).text);
            const json = e.gameJson(viewer), ours = legalBytes(json);
            if (!bad[who] && ours !== theirs) bad[who] = `ply ${ply}:\nwasm:   ${ours.slice(0, 400)}\nserver: ${theirs.slice(0, 400)}`;
            const g = JSON.parse(json);
            if (g.legal.length) mine = g;
            const n = g.legalGroups.reduce((t, grp) => t + (grp.at ? grp.at.length : grp.count), 0);
            if (!counts && n !== g.legal.length) counts = `ply ${ply} ${who}: ${n} anchors for ${g.legal.length} moves`;
            positions++;
          }
          if (!mine) break;
          const move = mine.legal[Math.floor(rand() * mine.legal.length)];
          e.play(move);
          const r = await request(srv.base, "POST", `/api/games/${id}/moves`, { seat: seats[mine.tomove], move, ply });
          if (r.status !== 200) {
            check(`${what}: ply ${ply} ${move} played on the server`, false, r.text);
            break;
          }
        }
        for (const who of Object.keys(bad))
          check(`${what}, ${who}: the same game, options, moves, tomove, over, winner, score, legal, legalGroups, ply, seat and resigned, byte for byte`, !bad[who], bad[who]);
        check(`${what}: one anchor or count per legal move`, !counts, counts);
      }
    }
  }
  e.free();
} finally {
  srv.child.kill("SIGTERM");
  const r = await srv.exited;
  check("legalGroups: the server stopped cleanly, no sanitizer report", r.code === 0 && !/AddressSanitizer|LeakSanitizer|runtime error:/.test(srv.errors()),
    `${JSON.stringify(r)} ${srv.errors().slice(0, 500)}`);
  srv.cleanupDir();
}
console.log(`legalGroups: ${positions} positions and viewers, the server's and the page engine's`);

console.log(`agreement: ${((Date.now() - t0) / 1000).toFixed(1)} s`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
