// lib.mjs — what the WebAssembly suites share: the page's engine wrapper
// (web/src/engine/tav.ts) bundled for node with the esbuild of node_modules,
// the engine built by make ($BUILD/web/tavoliere.wasm), and a seeded
// generator.

import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import * as esbuild from "esbuild";

const here = path.dirname(fileURLToPath(import.meta.url));
export const root = path.resolve(here, "../..");
export const BUILD = process.env.BUILD || "build";
export const WASM = path.resolve(root, BUILD, "web/tavoliere.wasm");
export const NATIVE = path.resolve(root, BUILD, "tavoliere");

// The wrapper module (Engine, compileEngine, ...), or null with the reason
// when there is no WebAssembly build (no toolchain: see the Makefile).
export async function loadTav() {
  if (!fs.existsSync(WASM)) return { tav: null, why: `no ${WASM} (the wasm32-wasi toolchain is missing: sh scripts/setup.sh)` };
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "tav-wasm-"));
  const out = path.join(dir, "tav.mjs");
  await esbuild.build({
    entryPoints: [path.join(root, "web/src/engine/tav.ts")], bundle: true, format: "esm", platform: "neutral",
    outfile: out, logLevel: "warning",
  });
  const tav = await import(pathToFileURL(out).href);
  fs.rmSync(dir, { recursive: true, force: true });
  return { tav, why: "" };
}

export async function newEngine(tav) {
  const mod = await tav.compileEngine(fs.readFileSync(WASM));
  return { mod, engine: await tav.Engine.create(mod) };
}

// A seeded generator (a failing game can be played again).
export function rng(seed) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 4294967296;
  };
}
