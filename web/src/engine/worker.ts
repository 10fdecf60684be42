// worker.ts — the engine's Web Worker: the page's searches (the computer's
// moves, hints, the analysis of a finished game) run here, so the page never
// freezes.  The page sends the compiled module once, then one request at a
// time: the game (name, options, seed, moves) and what to do with it.  A
// search is cancelled by ending the worker (the page starts another from
// the same module): the engine runs each search to its end on this thread.

import { BLACK, Engine, WHITE, type Answer, type Budget } from "./tav";
import type { WorkerReply, WorkerRequest } from "./protocol";

let engine: Engine | null = null;

function post(m: WorkerReply): void {
  (self as unknown as Worker).postMessage(m);
}

// The game of a request, replayed.
function replay(r: { game: string; options: string; seed: number; moves: string[] }): Engine {
  const e = engine as Engine;
  e.start(r.game, r.options, r.seed);
  for (const m of r.moves) e.play(m);
  return e;
}

function analyse(id: number, r: Extract<WorkerRequest, { type: "analyse" }>): void {
  const e = replay(r);
  const n = r.moves.length;
  const game = JSON.parse(e.gameJson(2)) as { over: boolean; winner: string };
  // white's expected score after each ply (white[n]: the end's result)
  const white: number[] = new Array(n + 1).fill(0.5);
  const best: string[] = new Array(n).fill("");
  const mover: number[] = new Array(n).fill(WHITE);
  white[n] = game.over ? (game.winner === "white" ? 1 : game.winner === "black" ? 0 : 0.5) : 0.5;
  for (let p = n - 1; p >= 0; p--) {
    e.undo();
    const g = JSON.parse(e.gameJson(2)) as { tomove: string };
    mover[p] = g.tomove === "black" ? BLACK : WHITE;
    const a: Answer = e.search({ player: "ai", movetimeMs: r.movetimeMs, seed: p + 1 });
    if (a.status === 0) {
      white[p] = mover[p] === BLACK ? 1 - a.value : a.value;
      best[p] = a.best;
    } else {
      white[p] = white[p + 1];
    }
    post({ type: "progress", id, done: n - p, total: n });
  }
  // the marks as the server gives them (src/server/json.c): the mover's loss
  const plies = r.moves.map((move, p) => {
    const before = mover[p] === BLACK ? 1 - white[p] : white[p];
    const after = mover[p] === BLACK ? 1 - white[p + 1] : white[p + 1];
    const loss = before - after;
    return { move, value: white[p + 1], best: best[p], mark: loss > 0.25 ? "??" : loss > 0.12 ? "?" : "" };
  });
  post({ type: "analysis", id, plies });
}

self.onmessage = async (ev: MessageEvent<WorkerRequest>) => {
  const r = ev.data;
  try {
    if (r.type === "init") {
      engine = await Engine.create(r.module);
      post({ type: "ready", id: r.id });
    } else if (r.type === "search") {
      const e = replay(r);
      const a = e.search(r.budget as Budget);
      post({ type: "answer", id: r.id, answer: a });
    } else if (r.type === "analyse") {
      analyse(r.id, r);
    }
  } catch (e) {
    post({ type: "error", id: r.id, message: (e as Error).message });
  }
};
