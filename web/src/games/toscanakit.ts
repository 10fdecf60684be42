// toscanakit.ts — the pure part of the Toscana board (toscana.ts): what it
// reads from the view, with no DOM: the tile frame and its quarter turns,
// each side's top tile, the squares' labels and colours.  Tested in node
// (tests/web/unit).

import type { HandItem, Side, View } from "../types";
import { Cells, turn } from "./boardkit";
import { t } from "../i18n";

export const COL = {
  empty: "#8fa889", line: "#7a9474",
  L: "#f4e7c8", D: "#6d4a2f",
  whiteEdge: "#ffffff", blackEdge: "#16110d",
  areaWhite: "#1c7ed6", areaBlack: "#ae3ec9",
  good: "#2e9d46", bad: "#d9362b", last: "#f08c00",
};

// A side's top tile (the hand's kind S), when it has one.
export function topTile(view: View, side: Side): HandItem | undefined {
  return (view.sides[side]?.hand ?? []).find((it) => it.kind === "S");
}

// The frame cells of a tile on the screen, cell i at (i % 4, i >> 2): row 0
// on top, as docs/server-api.md numbers them (a placement's parts list its
// squares in this order).
export const FRAME: Cells = [0, 1, 2, 3, 4, 5, 6, 7].map((i) => [i % 4, i >> 2] as [number, number]);

// The frame turned rot quarter turns clockwise, shifted so its smallest x
// and y are 0 (cell i stays at index i): how a panel draws the tile.
export function frameTurned(rot: number): Cells {
  const cells = turn(FRAME, rot);
  const mx = Math.min(...cells.map((c) => c[0])), my = Math.min(...cells.map((c) => c[1]));
  return cells.map(([cx, cy]) => [cx - mx, cy - my] as [number, number]);
}

// A tile cell's colour: the owner's own colour (white light, black dark),
// the other one on its off-colour cells.
export function tileColour(side: Side, off: boolean): string {
  const own = side === "white" ? COL.L : COL.D, other = side === "white" ? COL.D : COL.L;
  return off ? other : own;
}

export function colourName(side: Side): string { return side === "white" ? t("tos.light") : t("tos.dark"); }

// A board square's fill: the light or dark square of a tile, else empty.
export function squareFill(view: View, name: string): string {
  return view.squares[name]?.kind === "L" ? COL.L : view.squares[name]?.kind === "D" ? COL.D : COL.empty;
}

export function squareLabel(name: string, view: View): string {
  const sq = view.squares[name];
  const parts = [name];
  if (sq?.kind) {
    parts.push(t("tos.sqOf", { shade: sq.kind === "L" ? t("tos.lightSq") : t("tos.darkSq"),
      owner: sq.owner === "white" ? t("sidel.white") : sq.owner === "black" ? t("sidel.black") : sq.owner ?? "", id: sq.piece ?? "" }).trim());
  } else parts.push(t("cat.empty"));
  if (sq?.marks?.includes("centre")) parts.push(t("tos.centre"));
  if (sq?.marks?.includes("areaWhite")) parts.push(t("tos.areaWhite"));
  if (sq?.marks?.includes("areaBlack")) parts.push(t("tos.areaBlack"));
  if (sq?.marks?.includes("last")) parts.push(t("sq.last"));
  return parts.join(", ");
}

// The veto as a one-time toggle (issue 34).  The decision on a player's
// tile (veto or accept) belongs to his opponent and always comes right after
// that opponent's own placement (or pass), when the tile has been on show
// for a whole turn; only the game's very first decision (black's, on white's
// first tile) comes before anything was played.  So a screen that holds the
// deciding seat decides by itself: veto when the player armed "veto this
// tile" for that very tile, else accept; the first decision is asked.
export type Decision = "veto" | "accept" | "ask" | null;
export function decision(view: View, legal: string[], mover: Side | null, seats: Side[], armed: string | null): Decision {
  if (!mover || !legal.includes("veto") || !legal.includes("accept")) return null;
  if (!seats.includes(mover) || view.last === "") return "ask";
  const tile = topTile(view, mover === "white" ? "black" : "white");
  return armed !== null && tile?.id === armed ? "veto" : "accept";
}

// Whether `side` may arm its veto against the opponent's top tile now: the
// veto unused and a decision still to come (the opponent's stack holds two
// tiles or more: a last tile is never vetoed), the game running.
export function canArm(view: View, side: Side): boolean {
  const opp: Side = side === "white" ? "black" : "white";
  return view.phase !== "over" && !!view.sides[side]?.veto && (view.sides[opp]?.stack ?? 0) >= 2 && !!topTile(view, opp);
}
