// fixtures.ts — what the unit tests read: the positions run.mjs collected
// from the current server (every position of seeded random games, as the
// seat to act sees it, one JSON file per game), /api/meta, the views of a
// Cathedral record with captures; and the server itself (TAV_URL), still up
// while the tests run.

import fs from "node:fs";
import path from "node:path";
import type { Game, GameName, Meta, View } from "../../../web/src/types";

export interface Played { game: GameName; options: string; seed: number; states: Game[] }
export interface Common { url: string; meta: Meta; captures: View[]; capturesMoves: string[] }

function read<T>(name: string): T {
  const dir = process.env.TAV_UNIT_FIXTURES;
  if (!dir) throw new Error("no TAV_UNIT_FIXTURES: run the unit tests through tests/web/unit/run.mjs");
  return JSON.parse(fs.readFileSync(path.join(dir, name), "utf8")) as T;
}

let common: Common | null = null;
export function fixtures(): Common {
  common ??= read<Common>("common.json");
  return common;
}

// Every position of a game's games (all option sets), with where it came
// from for messages ("cathedral opening=late, random moves 6, ply 12": the
// options, the seed of run.mjs's move choices, the ply).
export interface Position { g: Game; where: string }
const played = new Map<GameName, Played[]>();
export function positions(game: GameName): Position[] {
  if (!played.has(game)) played.set(game, read<Played[]>(`${game}.json`));
  const out: Position[] = [];
  for (const p of played.get(game)!) {
    for (const g of p.states) out.push({ g, where: `${game}${p.options ? " " + p.options : ""}, random moves ${p.seed}, ply ${g.ply}` });
  }
  return out;
}

// The positions with moves to make (as the seat to act sees them).
export function toAct(game: GameName): Position[] {
  return positions(game).filter((p) => p.g.legal.length > 0);
}

// At most n of a list, spread evenly over it (the first and the last kept):
// every move of a short list, a fair sample of a long one.
export function spread<T>(list: T[], n: number): T[] {
  if (list.length <= n) return list;
  const out: T[] = [];
  for (let i = 0; i < n; i++) out.push(list[Math.round((i * (list.length - 1)) / (n - 1))]);
  return out;
}
