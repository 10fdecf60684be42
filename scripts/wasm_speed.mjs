// wasm_speed.mjs — the engine's speed, native against WebAssembly in node
// and in Chromium (issue 37; figures in results/wasm.md).  Each runs the
// same deterministic workload, `tavoliere bench --scale S` (src/cli/bench.c:
// seeded random games through each game's table, then fixed-budget searches
// of each player on one thread), and the signatures must agree.  Prints one
// table: random games/s and search playouts (or nodes)/s, and wasm's share
// of native speed.  Each side runs ROUNDS times; the best round counts (the
// machine is shared: see the load average printed).
//
//   node scripts/wasm_speed.mjs [--scale S] [--rounds N] [--markdown]
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { chromium } from "playwright-core";
import * as esbuild from "esbuild";
import { loadTav, newEngine, NATIVE, WASM, root } from "../tests/wasm/lib.mjs";

const args = process.argv.slice(2);
const opt = (name, dflt) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : dflt;
};
const SCALE = Number(opt("scale", 1));
const ROUNDS = Number(opt("rounds", 3));
const MD = args.includes("--markdown");

// "game games plies moves signature seconds games/s movegen/s" and
// "search player budget playouts nodes signature seconds rate unit" lines.
function parse(text) {
  const rows = {};
  let search = false;
  for (const line of text.split("\n")) {
    const w = line.trim().split(/\s+/);
    if (w[0] === "search" && w[1] === "ai") { search = true; continue; }
    if (!search && w.length === 8 && /^[0-9a-f]{16}$/.test(w[4])) rows[`${w[0]} random games`] = { sig: w[4], rate: Number(w[6]), unit: "games/s" };
    if (search && w.length === 9 && /^[0-9a-f]{16}$/.test(w[5])) rows[`${w[0]} ${w[1]} search`] = { sig: w[5], rate: Number(w[7]), unit: w[8] };
  }
  return rows;
}

function best(runs) {
  const out = {};
  for (const r of runs) for (const [k, v] of Object.entries(r)) if (!out[k] || v.rate > out[k].rate) out[k] = v;
  return out;
}

const { tav, why } = await loadTav();
if (!tav) {
  console.log(why);
  process.exit(1);
}
const loads = [];
const native = [], node = [], chrome = [];
for (let i = 0; i < ROUNDS; i++) {
  loads.push(fs.readFileSync("/proc/loadavg", "utf8").split(" ")[0]);
  native.push(parse(spawnSync(NATIVE, ["bench", "--scale", String(SCALE)], { encoding: "utf8" }).stdout));
  const { engine } = await newEngine(tav);
  node.push(parse(engine.bench(SCALE, true)));
  engine.free();
}
// Chromium: the same wrapper bundled for a page, the engine's bytes handed in
// (about:blank: no server, nothing else running on the page).
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "tav-speed-"));
await esbuild.build({ entryPoints: [path.join(root, "web/src/engine/tav.ts")], bundle: true, format: "iife", globalName: "Tav",
  outfile: path.join(dir, "tav.js"), logLevel: "warning" });
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM || "/usr/bin/chromium", headless: true, args: ["--no-sandbox"] });
const page = await browser.newPage();
await page.addScriptTag({ content: fs.readFileSync(path.join(dir, "tav.js"), "utf8") });
const bytes = [...fs.readFileSync(WASM)];
const chromeVersion = browser.version();
for (let i = 0; i < ROUNDS; i++) {
  const text = await page.evaluate(async ([b, scale]) => {
    const mod = await WebAssembly.compile(new Uint8Array(b));
    const e = await globalThis.Tav.Engine.create(mod);
    const t = e.bench(scale, true);
    e.free();
    return t;
  }, [bytes, SCALE]);
  chrome.push(parse(text));
}
await browser.close();
fs.rmSync(dir, { recursive: true, force: true });

const N = best(native), W = best(node), C = best(chrome);
let agree = true;
const lines = [];
const fmt = (x) => (x >= 100 ? x.toFixed(0) : x.toFixed(1));
for (const k of Object.keys(N)) {
  const same = W[k]?.sig === N[k].sig && C[k]?.sig === N[k].sig;
  agree &&= same;
  lines.push([k, N[k].unit, fmt(N[k].rate), fmt(W[k]?.rate ?? NaN), fmt(C[k]?.rate ?? NaN),
    `${Math.round((100 * (W[k]?.rate ?? 0)) / N[k].rate)} %`, `${Math.round((100 * (C[k]?.rate ?? 0)) / N[k].rate)} %`, same ? "same" : "DIFFERENT"]);
}
const head = ["workload", "unit", "native", "wasm node", "wasm Chromium", "node/native", "Chromium/native", "signature"];
if (MD) {
  console.log(`| ${head.join(" | ")} |`);
  console.log(`|${head.map(() => "---").join("|")}|`);
  for (const l of lines) console.log(`| ${l.join(" | ")} |`);
} else {
  console.log(head.join("\t"));
  for (const l of lines) console.log(l.join("\t"));
}
console.log(`\nbench --scale ${SCALE}, best of ${ROUNDS} rounds each; load average at each round: ${loads.join(", ")}; ` +
  `node ${process.version}, Chromium ${chromeVersion}, ${os.cpus()[0].model}`);
console.log(agree ? "signatures: all the same" : "signatures: SOME DIFFER");
process.exit(agree ? 0 : 1);
