// diagrams.ts — the rules pages' diagrams as data (rules-diagrams.json): for
// each game the options and moves of one short record and the plies it is
// shown after, with their captions; and that record's text, which the rules
// page (rules.ts) loads through POST /api/records.  No DOM: tested in node
// (tests/web/unit) against the server.

import DIAGRAMS from "./rules-diagrams.json";
import type { GameName } from "./types";

// `shows`: the marks its caption speaks of, which the diagram must draw
// (tests/web/rules.test.mjs): "badge" (an Urbino district's score),
// "terrWhite" / "terrBlack" (Cathedral territory), "areaWhite" / "areaBlack".
export interface Diagram { ply: number; caption: string; shows?: string[] }
export interface RulesPage { options: string; moves: string; diagrams: Diagram[] }

// Each page's diagrams: the options and moves of one short record, and the
// plies it is shown after, with their captions (data, in rules-diagrams.json).
export const PAGES: Record<GameName, RulesPage> = DIAGRAMS;

// The record of game g's diagrams (docs/records.md).
export function recordText(g: GameName): string {
  const p = PAGES[g];
  const tags = [`[Game "${g}"]`];
  if (p.options) tags.push(`[Options "${p.options}"]`);
  tags.push(`[White "human"]`, `[Black "human"]`, `[Result "*"]`);
  return tags.join("\n") + "\n\n" + p.moves.split(" ").map((m, i) => `${i + 1}. ${m}`).join("\n") + "\n";
}
