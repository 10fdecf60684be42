// protocol.ts — the messages between the page and the engine's worker
// (worker.ts).

import type { Answer, Budget } from "./tav";

export interface GameRef { game: string; options: string; seed: number; moves: string[] }

export type WorkerRequest =
  | { type: "init"; id: number; module: WebAssembly.Module }
  | ({ type: "search"; id: number; budget: Budget } & GameRef)
  | ({ type: "analyse"; id: number; movetimeMs: number } & GameRef);

export interface AnalysedPly { move: string; value: number; best: string; mark: string }

export type WorkerReply =
  | { type: "ready"; id: number }
  | { type: "answer"; id: number; answer: Answer }
  | { type: "progress"; id: number; done: number; total: number }
  | { type: "analysis"; id: number; plies: AnalysedPly[] }
  | { type: "error"; id: number; message: string };
