// tav.ts — libtavoliere in WebAssembly (src/wasm/tavwasm.c), as a small
// typed object: a game session (start, load a record, play, undo, resign,
// the game and its views as the server's JSON), the search service with a
// budget, the engine protocol line by line, the games' words (meta) and the
// benchmark.  The same object runs on the page (the rules), in its worker
// (the searches) and in node (the agreement tests).  No DOM here.

import { wasiImports } from "./wasi";
import type { Meta } from "../types";

// Viewers (tavoliere_game.h).
export const WHITE = 0, BLACK = 1, SPECTATOR = 2;

// tav_status (tavoliere.h).
export const STATUS = ["ok", "invalid", "illegal", "over", "no memory", "cancelled", "not found"];

export class EngineError extends Error {
  constructor(public status: number, message: string) {
    super(message || STATUS[status] || `error ${status}`);
  }
}

// A search's answer (tw_search).
export interface Answer {
  status: number;
  best: string;
  value: number;
  playouts: number;
  nodes: number;
  depth: number;
  seconds: number;
}

// A search's budget: a level (1..10: its playouts or depth, as on the
// server), or playouts/nodes and depth; movetimeMs caps its time.
export interface Budget {
  player?: string;        // "ai" (default), "uct", "random"
  level?: number;
  nodes?: number;
  depth?: number;
  movetimeMs?: number;
  seed?: number;
}

interface Exports {
  memory: WebAssembly.Memory;
  _initialize(): void;
  tw_alloc(n: number): number;
  tw_dealloc(p: number): void;
  tw_new(): number;
  tw_delete(c: number): void;
  tw_error(c: number): number;
  tw_start(c: number, game: number, options: number, seed: number): number;
  tw_load(c: number, record: number, seed: number): number;
  tw_play(c: number, move: number): number;
  tw_undo(c: number): number;
  tw_resign(c: number, side: number): number;
  tw_ply(c: number): number;
  tw_view(c: number, ply: number, viewer: number): number;
  tw_game(c: number, viewer: number): number;
  tw_record(c: number, white: number, black: number): number;
  tw_search(c: number, player: number, level: number, nodes: number, depth: number, movetime: number, seed: number): number;
  tw_engine(c: number, line: number, seed: number): number;
  tw_meta(c: number): number;
  tw_bench(scale: number, search: number, only: number): number;
}

// The compiled module, from its address (streaming where the server says
// application/wasm) or from bytes.
export async function compileEngine(src: string | BufferSource): Promise<WebAssembly.Module> {
  if (typeof src !== "string") return WebAssembly.compile(src);
  const res = await fetch(src);
  if (!res.ok) throw new Error(`the engine could not be loaded (${res.status})`);
  if (typeof WebAssembly.compileStreaming === "function" && (res.headers.get("content-type") ?? "").startsWith("application/wasm"))
    return WebAssembly.compileStreaming(res);
  return WebAssembly.compile(await res.arrayBuffer());
}

export class Engine {
  private ex: Exports;
  private ctx: number;
  private enc = new TextEncoder();
  private dec = new TextDecoder();
  private out = "";

  private constructor(ex: Exports) {
    this.ex = ex;
    this.ctx = ex.tw_new();
    if (!this.ctx) throw new EngineError(4, "the engine is out of memory");
  }

  // An engine on its own instance of the module (one per thread).
  static async create(mod: WebAssembly.Module): Promise<Engine> {
    let mem: WebAssembly.Memory | null = null;
    let self: Engine | null = null;
    const imports = {
      wasi_snapshot_preview1: wasiImports(() => mem as WebAssembly.Memory, (fd, text) => {
        if (self && fd === 1) self.out += text;
        else if (fd === 2) console.warn(text);
      }),
    };
    const inst = await WebAssembly.instantiate(mod, imports);
    const ex = inst.exports as unknown as Exports;
    mem = ex.memory;
    ex._initialize();
    self = new Engine(ex);
    return self;
  }

  // ---- strings in and out ----

  private withStrings<T>(texts: string[], f: (ptrs: number[]) => T): T {
    const ptrs: number[] = [];
    try {
      for (const t of texts) {
        const b = this.enc.encode(t);
        const p = this.ex.tw_alloc(b.length + 1);
        if (!p) throw new EngineError(4, "the engine is out of memory");
        const m = new Uint8Array(this.ex.memory.buffer, p, b.length + 1);
        m.set(b);
        m[b.length] = 0;
        ptrs.push(p);
      }
      return f(ptrs);
    } finally {
      for (const p of ptrs) this.ex.tw_dealloc(p);
    }
  }

  private str(p: number): string {
    if (!p) throw new EngineError(4, "the engine is out of memory");
    const m = new Uint8Array(this.ex.memory.buffer);
    let e = p;
    while (m[e]) e++;
    return this.dec.decode(m.subarray(p, e));
  }

  private check(st: number): void {
    if (st !== 0) throw new EngineError(st, this.str(this.ex.tw_error(this.ctx)));
  }

  // ---- the game ----

  // A new game; seed: an integer below 2^53 (every random deal comes from it).
  start(game: string, options: string, seed: number): void {
    this.check(this.withStrings([game, options], ([g, o]) => this.ex.tw_start(this.ctx, g, o, seed)));
  }

  // A game from a record (docs/records.md).
  load(record: string, seed = 1): void {
    this.check(this.withStrings([record], ([r]) => this.ex.tw_load(this.ctx, r, seed)));
  }

  play(move: string): void {
    this.check(this.withStrings([move], ([m]) => this.ex.tw_play(this.ctx, m)));
  }

  undo(): void {
    this.check(this.ex.tw_undo(this.ctx));
  }

  resign(side: number): void {
    this.check(this.ex.tw_resign(this.ctx, side));
  }

  ply(): number {
    return this.ex.tw_ply(this.ctx);
  }

  // The texts of viewer's legal moves: the game's `legal` (in legalGroups' order).
  legal(viewer: number): string[] {
    return (JSON.parse(this.gameJson(viewer)) as { legal: string[] }).legal;
  }

  // The game's JSON for viewer (the server's game object less id, players and flags).
  gameJson(viewer: number): string {
    return this.str(this.ex.tw_game(this.ctx, viewer));
  }

  viewJson(ply: number, viewer: number): string {
    return this.str(this.ex.tw_view(this.ctx, ply, viewer));
  }

  record(white: string, black: string): string {
    return this.withStrings([white, black], ([w, b]) => this.str(this.ex.tw_record(this.ctx, w, b)));
  }

  // ---- the search (blocks this thread: on the page, run it in the worker) ----

  search(b: Budget): Answer {
    return JSON.parse(this.withStrings([b.player ?? "ai"], ([p]) =>
      this.str(this.ex.tw_search(this.ctx, p, b.level ?? 0, b.nodes ?? 0, b.depth ?? 0, b.movetimeMs ?? 0, b.seed ?? 1)))) as Answer;
  }

  // ---- the engine protocol (docs/protocol.md): info lines, then the answer ----

  engine(line: string, seed = 1): string {
    return this.withStrings([line], ([l]) => this.str(this.ex.tw_engine(this.ctx, l, seed)));
  }

  meta(): Meta {
    return JSON.parse(this.str(this.ex.tw_meta(this.ctx))) as Meta;
  }

  // `tavoliere bench` (src/cli/bench.c): its lines.
  bench(scale: number, search: boolean, only = ""): string {
    this.out = "";
    this.withStrings([only], ([o]) => this.ex.tw_bench(scale, search ? 1 : 0, o));
    const t = this.out;
    this.out = "";
    return t;
  }

  free(): void {
    if (this.ctx) this.ex.tw_delete(this.ctx);
    this.ctx = 0;
  }
}
