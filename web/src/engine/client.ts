// client.ts — the page's side of the engine: the compiled module (loaded
// once from /tavoliere.wasm), an engine on the page's own thread for the
// rules (legal moves, playing, views: quick), and the worker that searches
// (worker.ts).  Cancel ends the worker at once and starts a fresh one from
// the same module, so a search is never waited for after an undo, a new
// game or leaving the page.

import { compileEngine, Engine } from "./tav";
import type { WorkerReply, WorkerRequest } from "./protocol";

export const ENGINE_URL = "/tavoliere.wasm";
export const WORKER_URL = "/engine-worker.js";

let modP: Promise<WebAssembly.Module> | null = null;

export function engineModule(): Promise<WebAssembly.Module> {
  modP ??= compileEngine(ENGINE_URL).catch((e) => {
    modP = null;
    throw e;
  });
  return modP;
}

// Whether this browser can run the engine (WebAssembly and workers).
export function engineSupported(): boolean {
  return typeof WebAssembly === "object" && typeof Worker === "function";
}

export async function pageEngine(): Promise<Engine> {
  return Engine.create(await engineModule());
}

export class Cancelled extends Error {
  constructor() {
    super("cancelled");
  }
}

type Req = WorkerRequest extends infer R ? (R extends { id: number } ? Omit<R, "id"> : never) : never;

interface Pending {
  resolve(r: WorkerReply): void;
  reject(e: Error): void;
  progress?: (done: number, total: number) => void;
}

export class EngineWorker {
  private w: Worker | null = null;
  private ready: Promise<void> | null = null;
  private next = 1;
  private pending = new Map<number, Pending>();
  // How many workers were ended by a cancel (for the page's tests).
  cancels = 0;

  constructor(private mod: WebAssembly.Module) {}

  private start(): Promise<void> {
    if (this.ready) return this.ready;
    const w = new Worker(WORKER_URL);
    this.w = w;
    w.onmessage = (ev: MessageEvent<WorkerReply>) => {
      const r = ev.data;
      const p = this.pending.get(r.id);
      if (!p) return;
      if (r.type === "progress") {
        p.progress?.(r.done, r.total);
        return;
      }
      this.pending.delete(r.id);
      if (r.type === "error") p.reject(new Error(r.message));
      else p.resolve(r);
    };
    w.onerror = (ev) => {
      ev.preventDefault();
      const err = new Error(ev.message || "the engine's worker failed");
      for (const p of this.pending.values()) p.reject(err);
      this.pending.clear();
      this.end();
    };
    this.ready = this.send({ type: "init", module: this.mod }).then(() => undefined);
    return this.ready;
  }

  private send(req: Req, progress?: Pending["progress"]): Promise<WorkerReply> {
    const id = this.next++;
    return new Promise<WorkerReply>((resolve, reject) => {
      this.pending.set(id, { resolve, reject, progress });
      (this.w as Worker).postMessage({ ...req, id } as WorkerRequest);
    });
  }

  async request(req: Req, progress?: Pending["progress"]): Promise<WorkerReply> {
    await this.start();
    return this.send(req, progress);
  }

  // Start the worker (and load its script) now.
  warm(): Promise<void> {
    return this.start();
  }

  get busy(): boolean {
    return this.pending.size > 0;
  }

  private end(): void {
    this.w?.terminate();
    this.w = null;
    this.ready = null;
  }

  // Stop whatever runs now: its promise is rejected with Cancelled.
  cancel(): void {
    if (!this.w) return;
    if (this.pending.size) this.cancels++;
    const waiting = [...this.pending.values()];
    this.pending.clear();
    this.end();
    for (const p of waiting) p.reject(new Cancelled());
  }
}
