// gametext.ts — the pure part of the game screen (game.ts): what it says
// and decides from the game's JSON alone, with no DOM: the result, whose
// turn, how a player is named, the legal moves with their parts, the side
// shown at the bottom, the position a step through the moves goes to.
// Tested in node (tests/web/unit).

import { parseSquare, squareName } from "./games/boardkit";
import { playerName } from "./meta";
import type { Game, LegalGroup, LegalMove, Meta, MoveParts, Side } from "./types";

export const other = (s: Side): Side => (s === "white" ? "black" : "white");
export const cap = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

// "White wins", "Drawn", "Black resigned: white wins".
export function resultText(g: Game): string {
  if (g.resigned) return `${cap(g.resigned)} resigned: ${other(g.resigned)} wins`;
  if (g.winner === "draw") return "Drawn";
  if (g.winner === "white" || g.winner === "black") return `${cap(g.winner)} wins`;
  return "Game over";
}

// Whose turn, for a screen holding the seats `mine`.
export function statusText(g: Game, mine: Side[]): string {
  if (g.over) return resultText(g);
  if (g.tomove === "none") return "…";
  if (mine.includes(g.tomove)) return mine.length === 2 ? `${cap(g.tomove)} to move` : "Your turn";
  if (g[g.tomove] !== "human") return g.thinking ? "The computer is thinking…" : `${cap(g.tomove)} (computer) to move`;
  return mine.length ? `Waiting for ${g.tomove}` : `${cap(g.tomove)} to move`;
}

// Who plays a side, for a screen holding the seats `mine`: "You", "on this
// screen", "Friend", or the computer's name.
export function whoText(g: Game, side: Side, mine: Side[], meta: Meta | null): string {
  const p = g[side];
  return p === "human" ? (mine.length === 1 && mine[0] === side ? "You" : mine.length === 2 ? "on this screen" : "Friend") : playerName(p, meta);
}

// The parts of one move of a group, standing on its anchor (null: the group
// has no squares).
function partsAt(grp: LegalGroup, at: string | null): MoveParts {
  const a = at ? parseSquare(at) : null;
  const sq = (d: [number, number]) => (a ? squareName(a[0] + d[0], a[1] + d[1]) : "");
  const p: MoveParts = { action: grp.action, squares: grp.squares.map(sq) };
  if (grp.piece !== undefined) p.piece = grp.piece;
  if (grp.from) p.from = sq(grp.from);
  if (grp.to) p.to = sq(grp.to);
  if (grp.marked) p.marked = grp.marked.map(sq);
  if (grp.rotation !== undefined) p.rotation = grp.rotation;
  if (grp.side) p.side = grp.side;
  return p;
}

// The legal moves with their parts: the server sends `legal` group by group
// and each group's parts once, with one anchor square per move
// (docs/server-api.md, legalGroups).
export function legalMoves(g: Game): LegalMove[] {
  const out: LegalMove[] = [];
  for (const grp of g.legalGroups ?? []) {
    const n = grp.at ? grp.at.length : grp.count ?? 0;
    for (let i = 0; i < n && out.length < g.legal.length; i++)
      out.push({ move: g.legal[out.length], parts: partsAt(grp, grp.at ? grp.at[i] : null) });
  }
  // A server that sent no groups: the moves without parts.
  for (let i = out.length; i < g.legal.length; i++) out.push({ move: g.legal[i], parts: { action: "", squares: [] } });
  return out;
}

// The side shown at the bottom: the one seat held (white for none or both),
// turned when the board is flipped.
export function orientationOf(mine: Side[], flipped: boolean): Side {
  const o: Side = mine.length === 1 ? mine[0] : "white";
  return flipped ? other(o) : o;
}

// The ply a step through the moves shows from ply `cur` of a game of `ply`
// moves, or null when it goes nowhere.
export type StepTo = "first" | "prev" | "next" | "last";
export function stepTarget(where: StepTo, cur: number, ply: number): number | null {
  const target = where === "first" ? 0 : where === "last" ? ply : where === "prev" ? cur - 1 : cur + 1;
  if (target < 0 || target > ply || (target === cur && where !== "last")) return null;
  return target;
}

// The note under the move list while a past position is shown ("" for the current one).
export function historyText(viewPly: number | null, ply: number): string {
  if (viewPly === null) return "";
  return (viewPly === 0 ? "Showing the start position" : `Showing the position after move ${viewPly} of ${ply}`) +
    ". Press End or ▶| to return to the game.";
}
