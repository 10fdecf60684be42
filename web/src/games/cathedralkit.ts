// cathedralkit.ts — the pure part of the Cathedral board (cathedral.ts):
// what it reads from the view, with no DOM: the buildings on the board, the
// shapes in each hand as the screen shows them, the squares' labels, the
// colours, and the buildings a move captured (the capture flight).  Tested in
// node (tests/web/unit).

import type { Side, Square, View } from "../types";
import { Cells, Grid, normalise } from "./boardkit";
import { t, tn, type Key } from "../i18n";

const SIDE = (s: string | undefined): string => (s === "white" ? t("sidel.white") : s === "black" ? t("sidel.black") : s ?? "");

// The buildings' names in the page's language (read when shown).
export const NAMES: Record<string, string> = Object.defineProperties({} as Record<string, string>,
  Object.fromEntries("TSIBQMADXCWY".split("").map((c) => [c, { enumerable: true, get: () => t(`piece.${c}` as Key) }])));

/** A side's building: "white Tavern" / "Taverna del Bianco". */
export function ownedName(owner: string | undefined, code: string): string {
  return t("cat.ownerPiece", { owner: SIDE(owner), name: NAMES[code] ?? code });
}

export const COLOURS = {
  white: { fill: "#f6eddc", edge: "#7a6444", letter: "#6b5637" },
  black: { fill: "#3d3a45", edge: "#a59fb4", letter: "#ece8f4" },
  neutral: { fill: "#5d7fa8", edge: "#2d4563", letter: "#f4f8ff" },
};

export type Colour = { fill: string; edge: string; letter: string };
export interface Building { kind: string; owner: Side | "neutral"; squares: string[] }
export interface HandPiece { code: string; index: number; cells: Cells; w: number; h: number }

// The buildings on the board: the squares that share a piece number, kind
// and owner, each building's squares sorted.
export function buildings(view: View): Building[] {
  const by = new Map<string, Building>();
  for (const [name, sq] of Object.entries(view.squares)) {
    if (!sq.kind) continue;
    const owner = (sq.owner ?? "neutral") as Building["owner"];
    const key = `${sq.piece ?? 0}:${sq.kind}:${owner}`;
    let b = by.get(key);
    if (!b) { b = { kind: sq.kind, owner, squares: [] }; by.set(key, b); }
    b.squares.push(name);
  }
  for (const b of by.values()) b.squares.sort();
  return [...by.values()];
}

// How many buildings of a kind a side holds.
export function handCount(view: View, side: Side, kind: string): number {
  let n = 0;
  for (const it of view.sides[side]?.hand ?? []) if (it.kind === kind) n += it.count;
  return n;
}

// "1 square", "5 squares".
export function squares(n: number): string {
  return tn("cat.squares", n);
}

export function squareLabel(name: string, sq: Square | undefined): string {
  const parts = [name];
  if (sq?.kind) {
    parts.push(sq.kind === "Y" ? t("cat.theCathedral") : ownedName(sq.owner, sq.kind));
  } else parts.push(t("cat.empty"));
  if (sq?.marks?.includes("terrWhite")) parts.push(t("cat.terrWhite"));
  if (sq?.marks?.includes("terrBlack")) parts.push(t("cat.terrBlack"));
  if (sq?.marks?.includes("last")) parts.push(t("sq.last"));
  return parts.join(", ");
}

export function colourOf(owner: string): Colour {
  return owner === "white" ? COLOURS.white : owner === "black" ? COLOURS.black : COLOURS.neutral;
}

// The buildings of a side's hand, one per building (a kind held twice shows
// twice), each its shape as the screen shows it (the hand's (file, rank)
// offsets turned to screen cells by the grid, shifted to 0) and its size.
export function handPieces(view: View, side: Side, grid: Grid): HandPiece[] {
  const out: HandPiece[] = [];
  for (const it of view.sides[side]?.hand ?? []) {
    const base = it.cells && it.cells.length ? it.cells : [[0, 0]] as [number, number][];
    const cells = normalise(base.map(([f, k]) => grid.toScreen(f, k)));
    const w = Math.max(...cells.map((c) => c[0])) + 1, h = Math.max(...cells.map((c) => c[1])) + 1;
    for (let i = 0; i < Math.max(0, it.count); i++) out.push({ code: it.kind, index: i, cells, w, h });
  }
  return out;
}

// The buildings that fly off the board after a move (prev to view): a
// building captured goes back to its owner's hand, a captured Cathedral
// fades away.  None when the move is the same, or more than three left.
export function flown(prev: View, view: View): Building[] {
  if (prev.last === view.last) return [];
  const now = new Set(buildings(view).map((b) => `${b.owner}:${b.kind}:${b.squares.join(",")}`));
  const gone = buildings(prev).filter((b) => !now.has(`${b.owner}:${b.kind}:${b.squares.join(",")}`));
  if (!gone.length || gone.length > 3) return [];
  return gone.filter((b) => {
    const back = b.owner !== "neutral" && handCount(view, b.owner, b.kind) > handCount(prev, b.owner, b.kind);
    if (b.owner !== "neutral" && !back) return false;
    if (b.owner === "neutral" && view.squares[b.squares[0]]?.kind) return false;
    return true;
  });
}
