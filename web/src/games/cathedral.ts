// cathedral.ts — the Cathedral board (10 x 10) for the game screen.
//
// Drawn from the server's view only: buildings are the squares that share a
// `piece` number, joined into one shape in their owner's colour (the
// Cathedral neutral); territory is shaded per player (marks terrWhite /
// terrBlack); each player's hand shows his buildings as their shapes
// (view.sides.X.hand[].cells) with their letters.
//
// Input never re-implements a rule: the player picks a building from his hand,
// turns it by quarter turns, and carries a ghost over the board.  The ghost's
// squares give a move text ("C:d2,e1,e2", squares sorted as the notation
// wants); it shows green only when that text is one of the `legal` moves, and
// only then may it be placed.  `pass` is a button, offered when it is legal.
//
// Keyboard: Tab reaches the hand's buildings (focus picks one) and the
// buttons; the arrows carry the ghost over the board, R (Shift+R) turns it,
// Enter or Space places it, Escape drops the building, and a building's letter
// picks it.  Mouse: click a building, move over the board, turn with R or the
// wheel, click to place.  Touch: tap a building, tap (or drag) on the board to
// put the ghost there, turn with the buttons or a two-finger twist, tap the
// same square again to place it.

import type { BoardContext, BoardModule, HandItem, Side, Square, View } from "../types";
import {
  arrowStep, button, carryInput, Cells, clear, drawnSig, el, focusedKey, Grid, handle, markHandled,
  markHintButton, normalise, outlinePath, parseSquare, refocus, sortSquares, squareName, squareOf, text, turn,
  wasHandled, wideScreen,
} from "./boardkit";

const NAMES: Record<string, string> = {
  T: "Tavern", S: "Stable", I: "Inn", B: "Bridge", Q: "Square", M: "Manor", A: "Abbey",
  D: "Academy", X: "Infirmary", C: "Castle", W: "Tower", Y: "Cathedral",
};

const COLOURS = {
  white: { fill: "#f6eddc", edge: "#7a6444", letter: "#6b5637" },
  black: { fill: "#3d3a45", edge: "#a59fb4", letter: "#ece8f4" },
  neutral: { fill: "#5d7fa8", edge: "#2d4563", letter: "#f4f8ff" },
};
const BOARD = { light: "#d9bb85", line: "#a8894f" };
const GOOD = "#2e9d46", BAD = "#d9362b";

const FONT = "system-ui, sans-serif";
const N = 10;            // board size
const MARGIN = 0.5;      // room for the coordinates
let HAND_CELL = 0.42;    // size of a hand building's square (larger above and below the board)
const HAND_GAP = 0.3;
const PANEL_W = 6.2;     // hand panel width beside the board
const CONTROLS_H = 1.15;

interface Building { kind: string; owner: Side | "neutral"; squares: string[] }

interface State {
  ctx: BoardContext | null;
  view: View | null;
  legal: string[];
  legalSet: Set<string>;
  codes: Set<string>;          // building codes with at least one legal placement
  mover: Side | null;          // whose hand the legal placements come from
  sel: string | null;          // selected building code
  rot: number;                 // quarter turns clockwise
  anchor: [number, number] | null;   // screen cell under the ghost's handle
  cursor: boolean;             // the anchor was moved by keyboard: draw the cursor
  pointerType: string;
  pending: boolean;            // a move was submitted; wait for the next draw
  grid: Grid;
  bx: number; by: number;      // board origin in the viewBox
  wide: boolean;
  slots: Map<string, { x: number; y: number }>;  // hand slot of side:code, for the capture flight
  touches: Map<number, [number, number]>;
  twist: number | null;
  hint: string | null;         // the engine's suggestion, shown until the next draw
}

const st: State = {
  ctx: null, view: null, legal: [], legalSet: new Set(), codes: new Set(), mover: null, sel: null,
  rot: 0, anchor: null, cursor: false, pointerType: "mouse", pending: false,
  grid: new Grid(N, N, "white"), bx: 0, by: 0, wide: true, slots: new Map(), touches: new Map(), twist: null,
  hint: null,
};

// ---- Reading the view ------------------------------------------------------

function buildings(view: View): Building[] {
  const by = new Map<string, Building>();
  for (const [name, sq] of Object.entries(view.squares)) {
    if (!sq.kind) continue;
    const owner = (sq.owner ?? "neutral") as Building["owner"];
    const key = `${sq.piece ?? 0}:${sq.kind}:${owner}`;
    let b = by.get(key);
    if (!b) { b = { kind: sq.kind, owner, squares: [] }; by.set(key, b); }
    b.squares.push(name);
  }
  for (const b of by.values()) b.squares = sortSquares(b.squares);
  return [...by.values()];
}

function handCount(view: View, side: Side, kind: string): number {
  let n = 0;
  for (const it of view.sides[side]?.hand ?? []) if (it.kind === kind) n += it.count;
  return n;
}

function handItem(view: View, side: Side, kind: string): HandItem | undefined {
  return (view.sides[side]?.hand ?? []).find((it) => it.kind === kind && it.cells && it.cells.length);
}

// A shape's signature under quarter turns (board cells, file and rank).
function signature(cells: Cells): string {
  let best = "";
  for (let r = 0; r < 4; r++) {
    const s = normalise(turn(cells, r)).map(([x, y]) => `${x},${y}`).sort().join(" ");
    if (!best || s < best) best = s;
  }
  return best;
}

function moveCells(move: string): Cells {
  const out: Cells = [];
  for (const s of move.slice(2).split(",")) {
    const p = parseSquare(s);
    if (p) out.push(p);
  }
  return out;
}

// How well `side`'s hand explains the legal placements: -1 when a legal
// code is missing from it, else the number of codes whose hand shape is the
// shape of their legal placements (the mirrored Abbey and Academy tell the
// two hands apart).
function handFit(view: View, side: Side, legal: string[]): number {
  let score = 0;
  const seen = new Set<string>();
  for (const m of legal) {
    if (m === "pass") continue;
    const code = m.split(":")[0];
    if (seen.has(code)) continue;
    seen.add(code);
    if (handCount(view, side, code) === 0) return -1;
    const it = handItem(view, side, code);
    if (it && signature(it.cells as Cells) === signature(moveCells(m))) score++;
  }
  return score;
}

function chooseMover(view: View, legal: string[], prefer: Side): Side {
  const other: Side = prefer === "white" ? "black" : "white";
  const a = handFit(view, prefer, legal), b = handFit(view, other, legal);
  return b > a ? other : prefer;
}

// The shape the selected code is carried in (board cells, file and rank):
// its hand shape when that is the shape of its legal placements, else the
// squares of one of those placements (so the ghost can always reach every
// legal move, whatever the hand shows).
function carriedShape(): Cells | null {
  if (!st.view || !st.sel || !st.mover) return null;
  const first = st.legal.find((m) => m.startsWith(st.sel + ":"));
  if (!first) return null;
  const it = handItem(st.view, st.mover, st.sel);
  const placed = moveCells(first);
  if (it && it.cells && signature(it.cells as Cells) === signature(placed)) return it.cells as Cells;
  const mf = Math.min(...placed.map((c) => c[0])), mk = Math.min(...placed.map((c) => c[1]));
  return placed.map(([f, k]) => [f - mf, k - mk] as [number, number]);
}

// The selected building's cells on the screen in the current orientation,
// relative to its handle.
function selCells(): Cells | null {
  const cells = carriedShape();
  if (!cells || !cells.length) return null;
  const screen = cells.map(([f, k]) => st.grid.toScreen(f, k));
  const h = handle(screen);
  return turn(screen.map(([x, y]) => [x - h[0], y - h[1]] as [number, number]), st.rot);
}

// The ghost at the anchor: its screen cells, the move text (when all its
// squares are on the board) and whether that move is legal.
function ghost(): { cells: Cells; move: string; ok: boolean } | null {
  const rel = selCells();
  if (!rel || !st.anchor) return null;
  const cells = rel.map(([x, y]) => [x + st.anchor![0], y + st.anchor![1]] as [number, number]);
  const names: string[] = [];
  for (const [c, r] of cells) {
    const n = st.grid.square(c, r);
    if (!n) return { cells, move: "", ok: false };
    names.push(n);
  }
  const move = `${st.sel}:${sortSquares(names).join(",")}`;
  return { cells, move, ok: st.legalSet.has(move) };
}

// ---- Drawing ---------------------------------------------------------------

function squareLabel(name: string, sq: Square | undefined): string {
  const parts = [name];
  if (sq?.kind) {
    parts.push(sq.kind === "Y" ? "the Cathedral" : `${sq.owner} ${NAMES[sq.kind] ?? sq.kind}`);
  } else parts.push("empty");
  if (sq?.marks?.includes("terrWhite")) parts.push("white territory");
  if (sq?.marks?.includes("terrBlack")) parts.push("black territory");
  if (sq?.marks?.includes("last")) parts.push("last move");
  return parts.join(", ");
}

function drawShape(parent: Element, cells: Cells, x: number, y: number, s: number,
  colour: { fill: string; edge: string; letter: string }, letter: string, opts: { last?: boolean } = {}): void {
  for (const [c, r] of cells) {
    el("rect", { x: x + c * s - 0.005, y: y + r * s - 0.005, width: s + 0.01, height: s + 0.01, fill: colour.fill }, parent);
  }
  el("path", {
    d: outlinePath(cells, x, y, s), stroke: opts.last ? "#e8590c" : colour.edge,
    "stroke-width": opts.last ? s * 0.1 : s * 0.06, fill: "none", "stroke-linecap": "square",
  }, parent);
  const h = handle(cells);
  text(parent, x + (h[0] + 0.5) * s, y + (h[1] + 0.5) * s, letter, {
    "text-anchor": "middle", "dominant-baseline": "central", "font-size": s * 0.55,
    "font-family": FONT, "font-weight": 700, fill: colour.letter, "pointer-events": "none",
  });
}

function colourOf(owner: string): { fill: string; edge: string; letter: string } {
  return owner === "white" ? COLOURS.white : owner === "black" ? COLOURS.black : COLOURS.neutral;
}

// Lay out a hand's pieces in rows of width w; returns positions and height.
function flow(items: { w: number; h: number }[], w: number): { pos: [number, number][]; height: number } {
  const pos: [number, number][] = [];
  let x = 0, y = 0, rowH = 0;
  for (const it of items) {
    const iw = it.w * HAND_CELL, ih = it.h * HAND_CELL;
    if (x > 0 && x + iw > w) { x = 0; y += rowH + HAND_GAP; rowH = 0; }
    pos.push([x, y]);
    x += iw + HAND_GAP;
    rowH = Math.max(rowH, ih);
  }
  return { pos, height: y + rowH };
}

interface HandPiece { code: string; index: number; cells: Cells; w: number; h: number }

function handPieces(view: View, side: Side): HandPiece[] {
  const out: HandPiece[] = [];
  for (const it of view.sides[side]?.hand ?? []) {
    const base = it.cells && it.cells.length ? it.cells : [[0, 0]] as [number, number][];
    const cells = normalise(base.map(([f, k]) => st.grid.toScreen(f, k)));
    const w = Math.max(...cells.map((c) => c[0])) + 1, h = Math.max(...cells.map((c) => c[1])) + 1;
    for (let i = 0; i < Math.max(0, it.count); i++) out.push({ code: it.kind, index: i, cells, w, h });
  }
  return out;
}

const HEADER_H = 0.6;

function panelHeight(view: View, side: Side, w: number): number {
  const ps = handPieces(view, side);
  return HEADER_H + (ps.length ? flow(ps, w).height : 0.5) + 0.2;
}

function drawPanel(root: Element, view: View, side: Side, x: number, y: number, w: number): void {
  const g = el("g", { class: `tav-hand tav-hand-${side}`, "data-side": side, role: "group",
    "aria-label": `${side}'s hand` }, root);
  const sv = view.sides[side];
  const mine = st.mover === side && st.legal.length > 0;
  if (mine) {
    el("rect", { x: x - 0.08, y: y - 0.02, width: w + 0.16, height: panelHeight(view, side, w), rx: 0.15,
      fill: "#ffd43b22", stroke: "#f59f0088", "stroke-width": 0.04, class: "tav-turn" }, g);
  }
  el("circle", { cx: x + 0.22, cy: y + 0.3, r: 0.17, fill: COLOURS[side].fill, stroke: COLOURS[side].edge,
    "stroke-width": 0.04 }, g);
  // buildings of this side captured so far (each went back to the hand)
  const lost = sv?.captured ?? 0;
  text(g, x + 0.5, y + 0.3, `${side === "white" ? "White" : "Black"} · ${sv?.score ?? 0} left` +
    (lost > 0 ? ` · ${lost} captured` : ""), {
    "font-size": 0.36, "font-family": FONT, "dominant-baseline": "central", fill: "currentColor",
    "font-weight": mine ? 700 : 400,
  });
  const ps = handPieces(view, side);
  if (!ps.length) {
    text(g, x + 0.1, y + HEADER_H + 0.25, "all built", { "font-size": 0.3, "font-family": FONT,
      fill: "currentColor", opacity: 0.7, "dominant-baseline": "central" });
    return;
  }
  const { pos } = flow(ps, w);
  ps.forEach((p, i) => {
    const px = x + pos[i][0], py = y + HEADER_H + pos[i][1];
    const usable = mine && st.codes.has(p.code);
    const selected = usable && st.sel === p.code;
    const pg = el("g", {
      class: "tav-piece" + (selected ? " selected" : ""), "data-piece": p.code, "data-side": side,
      "data-key": `hand-${side}-${p.code}-${p.index}`,
      "aria-label": `${side} ${NAMES[p.code] ?? p.code} (${p.code}), ${p.cells.length} squares` +
        (selected ? ", selected" : usable ? "" : mine ? ", no room" : ""),
      role: usable ? "button" : "img", tabindex: usable ? 0 : -1,
      "aria-pressed": usable ? String(selected) : "false",
      style: usable ? "cursor:pointer" : "",
      opacity: mine && !usable ? 0.35 : 1,
    }, g);
    if (!st.slots.has(`${side}:${p.code}`)) st.slots.set(`${side}:${p.code}`, { x: px, y: py });
    // a hit area, so a click between a shape's squares still picks it
    el("rect", { x: px - 0.08, y: py - 0.08, width: p.w * HAND_CELL + 0.16, height: p.h * HAND_CELL + 0.16,
      rx: 0.08, fill: selected ? "#ffd43b66" : "transparent", stroke: selected ? "#f59f00" : "none",
      "stroke-width": 0.06 }, pg);
    drawShape(pg, p.cells, px, py, HAND_CELL, colourOf(p.code === "Y" ? "neutral" : side), p.code);
    if (usable) {
      pg.addEventListener("click", (ev) => { ev.stopPropagation(); select(p.code, false); });
      pg.addEventListener("focus", () => select(p.code, false));
      pg.addEventListener("keydown", (ev) => {
        if (ev.key === "Enter" || ev.key === " ") {
          ev.preventDefault(); ev.stopPropagation(); markHandled(ev);
          select(p.code, true);
        }
      });
    }
  });
}

function drawBoard(root: Element, view: View): void {
  const { bx, by, grid } = st;
  const board = el("g", {
    class: "tav-board", "data-key": "board", tabindex: 0, role: "group",
    "aria-label": "Cathedral board, 10 by 10. Arrows move the ghost, R turns it, Enter places it.",
    style: "touch-action:none; outline:none",
  }, root);
  // squares (the click targets)
  for (let r = 0; r < N; r++) for (let c = 0; c < N; c++) {
    const name = grid.square(c, r)!;
    el("rect", {
      x: bx + c, y: by + r, width: 1, height: 1, fill: BOARD.light, stroke: BOARD.line, "stroke-width": 0.03,
      "data-square": name, role: "img", "aria-label": squareLabel(name, view.squares[name]),
    }, board);
  }
  const deco = el("g", { "pointer-events": "none" }, board);
  // territory
  for (const [mark, fill, dot, edge] of [
    ["terrWhite", "#ffffff4d", COLOURS.white.fill, COLOURS.white.edge],
    ["terrBlack", "#2a1d1433", COLOURS.black.fill, COLOURS.black.fill]] as const) {
    const cells: Cells = [];
    for (const [name, sq] of Object.entries(view.squares)) {
      if (!sq.marks?.includes(mark)) continue;
      const c = grid.cell(name);
      if (c) cells.push(c);
    }
    if (!cells.length) continue;
    const tg = el("g", { class: `tav-${mark}` }, deco);
    for (const [c, r] of cells) {
      el("rect", { x: bx + c, y: by + r, width: 1, height: 1, fill }, tg);
      el("circle", { cx: bx + c + 0.5, cy: by + r + 0.5, r: 0.14, fill: dot, stroke: edge, "stroke-width": 0.04 }, tg);
    }
    el("path", { d: outlinePath(cells, bx, by, 1), stroke: dot, "stroke-width": 0.08, fill: "none",
      "stroke-dasharray": "0.2 0.12" }, tg);
  }
  // buildings
  for (const b of buildings(view)) {
    const cells = b.squares.map((s) => grid.cell(s)).filter((c): c is [number, number] => !!c);
    if (!cells.length) continue;
    const last = b.squares.some((s) => view.squares[s]?.marks?.includes("last"));
    const bg = el("g", { class: "tav-building", "data-kind": b.kind, "data-owner": b.owner }, deco);
    drawShape(bg, cells, bx, by, 1, colourOf(b.owner), b.kind, { last });
  }
  // coordinates
  for (let i = 0; i < N; i++) {
    const file = grid.square(i, N - 1)![0];
    text(root, bx + i + 0.5, by + N + MARGIN * 0.55, file, { "text-anchor": "middle", "dominant-baseline": "central",
      "font-size": 0.3, "font-family": FONT, fill: "currentColor", opacity: 0.7 });
    const rank = grid.square(0, i)!.slice(1);
    text(root, bx - MARGIN * 0.5, by + i + 0.5, rank, { "text-anchor": "middle", "dominant-baseline": "central",
      "font-size": 0.3, "font-family": FONT, fill: "currentColor", opacity: 0.7 });
  }
  el("g", { class: "tav-ghost", "pointer-events": "none" }, board);
  el("g", { class: "tav-fly", "pointer-events": "none" }, root);

  carryInput(board, st, { carrying: () => !!st.sel, rotate, drawGhost, click: onClick });
}

function drawControls(root: Element, x: number, y: number, w: number): void {
  const g = el("g", { class: "tav-controls" }, root);
  const onlyPass = st.legal.length > 0 && st.legal.every((m) => m === "pass");
  let msg = "";
  if (onlyPass) {
    msg = "No building fits anywhere: you must pass.";
    button(g, x + w - 2.2, y + 0.15, 2.2, 0.8, "Pass", { key: "pass", primary: true,
      aria: "Pass (no building fits)", onPress: () => submit("pass") });
  } else if (st.legal.length && st.mover) {
    const bw = 0.9;
    button(g, x, y + 0.15, bw, 0.8, "⟲", { key: "rot-left", aria: "Turn the building anticlockwise (Shift+R)",
      disabled: !st.sel, onPress: () => rotate(-1), font: 0.5 });
    button(g, x + bw + 0.15, y + 0.15, bw, 0.8, "⟳", { key: "rot-right", aria: "Turn the building clockwise (R)",
      disabled: !st.sel, onPress: () => rotate(1), font: 0.5 });
    const rel = selCells();
    let px = x + 2 * bw + 0.4;
    if (rel && st.sel) {
      const cells = normalise(rel);
      const cw = Math.max(...cells.map((c) => c[0])) + 1, ch = Math.max(...cells.map((c) => c[1])) + 1;
      const s = Math.min(0.26, 0.9 / Math.max(cw, ch));
      drawShape(g, cells, px, y + 0.1 + (0.9 - ch * s) / 2, s, colourOf(st.sel === "Y" ? "neutral" : st.mover), "");
      px += cw * s + 0.25;
      msg = `${NAMES[st.sel]}: ${!spots(st.rot).length ? "no room turned this way: turn it" :
        st.pointerType === "touch" ? "tap a square, tap again to place" : "R or wheel turns, click places"}`;
    } else {
      msg = st.codes.size === 1 && st.codes.has("Y") ? "Place the Cathedral: pick it from your hand." :
        "Pick a building from your hand.";
    }
    text(g, px, y + 0.55, msg, { "font-size": 0.28, "font-family": FONT, fill: "currentColor",
      "dominant-baseline": "central", class: "tav-msg" });
    return;
  } else if (st.view?.phase === "over") {
    msg = "Game over.";
  }
  if (msg) text(g, x, y + 0.55, msg, { "font-size": 0.3, "font-family": FONT, fill: "currentColor",
    "dominant-baseline": "central", class: "tav-msg" });
}

// The screen cells where the selected building's handle may go in quarter
// turn rot.
function spots(rot: number): [number, number][] {
  const out: [number, number][] = [];
  if (!st.sel) return out;
  const saved = st.rot;
  st.rot = rot;
  const rel = selCells();
  st.rot = saved;
  if (!rel) return out;
  for (let r = 0; r < N; r++) for (let c = 0; c < N; c++) {
    const names: string[] = [];
    for (const [x, y] of rel) {
      const n = st.grid.square(c + x, r + y);
      if (!n) break;
      names.push(n);
    }
    if (names.length === rel.length && st.legalSet.has(`${st.sel}:${sortSquares(names).join(",")}`)) out.push([c, r]);
  }
  return out;
}

// Turn the building to the first quarter turn that has room, when the one
// chosen has none.
function turnToRoom(): void {
  if (!st.sel || spots(st.rot).length) return;
  for (let d = 1; d < 4; d++) {
    if (spots((st.rot + d) % 4).length) { st.rot = (st.rot + d) % 4; return; }
  }
}

// Redraw the ghost and the keyboard cursor only.
function drawGhost(): void {
  const svg = st.ctx?.svg;
  if (!svg) return;
  const layer = svg.querySelector(".tav-ghost");
  const root = svg.querySelector(".tav-cathedral");
  if (!layer || !root) return;
  while (layer.firstChild) layer.removeChild(layer.firstChild);
  const g = st.legal.length && !st.pending ? ghost() : null;
  root.setAttribute("data-ghost", g ? g.move : "");
  root.setAttribute("data-ghost-legal", g && g.ok ? "1" : "0");
  root.setAttribute("data-anchor", st.anchor ? st.grid.square(st.anchor[0], st.anchor[1]) ?? "" : "");
  root.setAttribute("data-rot", String(st.rot));
  const { bx, by } = st;
  // where the handle may go in this turn: small dots
  if (st.legal.length && !st.pending) {
    for (const [c, r] of spots(st.rot)) {
      el("circle", { cx: bx + c + 0.5, cy: by + r + 0.5, r: 0.1, fill: GOOD, opacity: 0.8, class: "tav-spot",
        "data-spot": st.grid.square(c, r)! }, layer);
    }
  }
  if (g) {
    const inside = g.cells.filter(([c, r]) => c >= 0 && r >= 0 && c < N && r < N);
    const colour = g.ok ? GOOD : BAD;
    for (const [c, r] of inside) {
      el("rect", { x: bx + c, y: by + r, width: 1, height: 1, fill: colour, opacity: 0.55 }, layer);
    }
    el("path", { d: outlinePath(inside, bx, by, 1), stroke: colour, "stroke-width": 0.1, fill: "none" }, layer);
    if (st.sel) {
      const h = st.anchor!;
      if (h[0] >= 0 && h[1] >= 0 && h[0] < N && h[1] < N) {
        text(layer, bx + h[0] + 0.5, by + h[1] + 0.5, st.sel, { "text-anchor": "middle", "dominant-baseline": "central",
          "font-size": 0.55, "font-family": FONT, "font-weight": 700, fill: "#fff" });
      }
    }
  }
  if (st.hint && st.hint.includes(":")) {
    const cells = moveCells(st.hint).map(([f, k]) => st.grid.cell(squareName(f, k)))
      .filter((c): c is [number, number] => !!c);
    const hg = el("g", { class: "tav-hint", "data-move": st.hint }, layer);
    for (const [c, r] of cells) el("rect", { x: bx + c, y: by + r, width: 1, height: 1, fill: "#1c7ed6", opacity: 0.3 }, hg);
    el("path", { d: outlinePath(cells, bx, by, 1), stroke: "#1c7ed6", "stroke-width": 0.12, fill: "none",
      "stroke-dasharray": "0.3 0.15" }, hg);
  }
  if (st.cursor && st.anchor) {
    el("rect", { x: bx + st.anchor[0] + 0.05, y: by + st.anchor[1] + 0.05, width: 0.9, height: 0.9, fill: "none",
      stroke: "#fab005", "stroke-width": 0.12, class: "tav-cursor" }, layer);
  }
}

// The capture flight: buildings that left the board for their owner's hand
// fly there; a captured Cathedral fades away.
function animateCaptures(prev: View, view: View): void {
  if (prev.last === view.last) return;
  const now = new Set(buildings(view).map((b) => `${b.owner}:${b.kind}:${b.squares.join(",")}`));
  const gone = buildings(prev).filter((b) => !now.has(`${b.owner}:${b.kind}:${b.squares.join(",")}`));
  if (!gone.length || gone.length > 3) return;
  const layer = st.ctx!.svg.querySelector(".tav-fly");
  if (!layer) return;
  for (const b of gone) {
    const back = b.owner !== "neutral" && handCount(view, b.owner, b.kind) > handCount(prev, b.owner, b.kind);
    if (b.owner !== "neutral" && !back) continue;
    if (b.owner === "neutral" && view.squares[b.squares[0]]?.kind) continue;
    const cells = b.squares.map((s) => st.grid.cell(s)).filter((c): c is [number, number] => !!c);
    if (!cells.length) continue;
    const mx = Math.min(...cells.map((c) => c[0])), my = Math.min(...cells.map((c) => c[1]));
    const g = el("g", { class: "tav-flying", "data-kind": b.kind, "data-owner": b.owner }, layer);
    drawShape(g, normalise(cells), 0, 0, 1, colourOf(b.owner), b.kind);
    const x0 = st.bx + mx, y0 = st.by + my;
    const slot = b.owner === "neutral" ? null : st.slots.get(`${b.owner}:${b.kind}`);
    const frames: Keyframe[] = slot ? [
      { transform: `translate(${x0}px, ${y0}px) scale(1)`, opacity: 1 },
      { transform: `translate(${x0}px, ${y0 - 0.6}px) scale(1.1)`, opacity: 1, offset: 0.2 },
      { transform: `translate(${slot.x}px, ${slot.y}px) scale(${HAND_CELL})`, opacity: 0.9 },
    ] : [
      { transform: `translate(${x0}px, ${y0}px) scale(1)`, opacity: 1 },
      { transform: `translate(${x0}px, ${y0 - 1}px) scale(1)`, opacity: 0 },
    ];
    g.style.transform = frames[0].transform as string;
    if (typeof g.animate !== "function") { g.remove(); continue; }
    const a = g.animate(frames, { duration: 900, easing: "ease-in-out", fill: "forwards" });
    a.onfinish = () => g.remove();
  }
}

function render(): void {
  const ctx = st.ctx, view = st.view;
  if (!ctx || !view) return;
  const svg = ctx.svg;
  const keep = focusedKey(svg);
  clear(svg);
  st.slots.clear();
  st.wide = wideScreen();
  HAND_CELL = st.wide ? 0.42 : 0.5;
  const me: Side = ctx.orientation;
  const other: Side = me === "white" ? "black" : "white";
  // data-sig names what is drawn (the last move and the legal moves offered),
  // so a test can wait for the drawing of the position it expects
  const root = el("g", { class: "tav-cathedral", "data-game": "cathedral", "data-sig": drawnSig(view, st.legal) }, svg);
  root.addEventListener("keydown", (ev) => { if (handleKey(ev as KeyboardEvent)) { ev.preventDefault(); ev.stopPropagation(); } });
  let vbW: number, vbH: number;
  if (st.wide) {
    // the board on the left, both hands on its right (the opponent's at the
    // top, the player's at the bottom)
    st.bx = MARGIN + 0.1; st.by = 0.2;
    drawBoard(root, view);
    drawControls(root, st.bx, st.by + N + MARGIN, N);
    const px = st.bx + N + 0.5;
    const h1 = panelHeight(view, other, PANEL_W), h2 = panelHeight(view, me, PANEL_W);
    const bottom = st.by + N + MARGIN + CONTROLS_H;
    const y2 = Math.max(st.by + h1 + 0.4, bottom - h2);
    drawPanel(root, view, other, px, st.by, PANEL_W);
    drawPanel(root, view, me, px, y2, PANEL_W);
    vbW = px + PANEL_W + 0.2;
    vbH = Math.max(bottom, y2 + h2 + 0.1);
  } else {
    const w = N + MARGIN;
    const h1 = panelHeight(view, other, w);
    st.bx = MARGIN + 0.1; st.by = h1 + 0.2;
    drawPanel(root, view, other, 0.1, 0.1, w);
    drawBoard(root, view);
    drawControls(root, 0.1, st.by + N + MARGIN, w);
    drawPanel(root, view, me, 0.1, st.by + N + MARGIN + CONTROLS_H, w);
    vbW = w + 0.3;
    vbH = st.by + N + MARGIN + CONTROLS_H + panelHeight(view, me, w) + 0.1;
  }
  svg.setAttribute("viewBox", `0 0 ${vbW.toFixed(2)} ${vbH.toFixed(2)}`);
  drawGhost();
  refocus(svg, keep);
}

// ---- Input -----------------------------------------------------------------

function select(code: string, toBoard: boolean): void {
  if (st.pending || !st.codes.has(code)) return;
  const changed = st.sel !== code;
  st.sel = code;
  if (changed) turnToRoom();
  if (toBoard) {
    if (!st.anchor) st.anchor = [4, 5];
    st.cursor = true;
  }
  if (changed || toBoard) render();
  if (toBoard) refocus(st.ctx!.svg, "board");
}

function rotate(d: number): void {
  if (!st.sel || st.pending) return;
  st.rot = (st.rot + d + 4) % 4;
  render();
}

function submit(move: string): void {
  if (st.pending || !st.legalSet.has(move) || !st.ctx) return;
  st.pending = true;
  st.sel = null;
  st.cursor = false;
  drawGhost();
  st.ctx.submit(move);
}

function place(): boolean {
  const g = ghost();
  if (!g) return false;
  if (g.ok) { submit(g.move); return true; }
  st.ctx?.say(g.move ? `The ${NAMES[st.sel!] ?? st.sel} cannot stand there.` : "Part of the building is off the board.");
  return false;
}

function onClick(ev: MouseEvent): void {
  const c = squareOf(st.grid, ev);
  if (!c || !st.legal.length || st.pending) return;
  if (!st.sel) {
    if (st.legal.every((m) => m === "pass")) st.ctx?.say("No building fits: press Pass.");
    else st.ctx?.say("Pick a building from your hand first.");
    return;
  }
  if (st.pointerType === "touch") {
    const g = ghost();
    // a second tap on the same square places the building
    const again = st.anchor && st.anchor[0] === c[0] && st.anchor[1] === c[1];
    if (g && g.ok && again) { submit(g.move); return; }
    st.anchor = c;
    st.cursor = false;
    drawGhost();
    const g2 = ghost();
    if (g2 && !g2.ok) st.ctx?.say(`The ${NAMES[st.sel]} cannot stand there; turn it or move it.`);
    return;
  }
  st.anchor = c;
  st.cursor = false;
  drawGhost();
  place();
}

function handleKey(ev: KeyboardEvent): boolean {
  if (wasHandled(ev)) return true;
  if (!st.legal.length || st.pending || ev.ctrlKey || ev.metaKey || ev.altKey) return false;
  const k = ev.key;
  let done = false;
  if (k === "r" || k === "R") {
    if (st.sel) { rotate(ev.shiftKey ? -1 : 1); done = true; }
  } else if (k === "ArrowUp" || k === "ArrowDown" || k === "ArrowLeft" || k === "ArrowRight") {
    if (st.sel) done = arrowStep(st, k, N, [4, 5], drawGhost);
  } else if (k === "Enter" || k === " ") {
    if (st.sel && st.anchor) { place(); done = true; }
    else if (st.legal.length === 1 && st.legal[0] === "pass") { submit("pass"); done = true; }
  } else if (k === "Escape") {
    if (st.sel) { st.sel = null; st.cursor = false; render(); done = true; }
  } else if (/^[tsibqmadxcwy]$/i.test(k)) {
    const code = k.toUpperCase();
    if (st.codes.has(code)) { select(code, true); done = true; }
  }
  if (done) markHandled(ev);
  return done;
}

// ---- The module ------------------------------------------------------------

let resizeHooked = false;

function draw(ctx: BoardContext, view: View, legal: string[]): void {
  const prev = st.view;
  st.ctx = ctx;
  st.view = view;
  st.legal = legal.slice();
  st.legalSet = new Set(legal);
  st.codes = new Set(legal.filter((m) => m !== "pass").map((m) => m.split(":")[0]));
  st.grid = new Grid(view.width || N, view.height || N, ctx.orientation);
  st.pending = false;
  st.hint = null;
  st.mover = st.codes.size ? chooseMover(view, legal, ctx.orientation) : null;
  if (st.sel && !st.codes.has(st.sel)) st.sel = null;
  if (!st.sel && st.codes.size === 1) st.sel = [...st.codes][0];
  if (!legal.length) st.cursor = false;
  turnToRoom();
  render();
  if (prev && prev !== view) animateCaptures(prev, view);
  if (!resizeHooked && typeof window !== "undefined") {
    resizeHooked = true;
    window.addEventListener("resize", () => { if (st.ctx && st.view && wideScreen() !== st.wide) render(); });
  }
}

function key(_ctx: BoardContext, ev: KeyboardEvent): boolean {
  return handleKey(ev);
}

// Show the engine's suggestion (one of the legal moves) until the next draw:
// the squares of a placement, or the Pass button (the game screen names it).
function hint(ctx: BoardContext, move: string): void {
  if (ctx !== st.ctx || !st.legalSet.has(move)) return;
  st.hint = move;
  if (move.includes(":")) {
    const code = move.split(":")[0];
    if (st.codes.has(code) && st.sel !== code) { st.sel = code; render(); }
    else drawGhost();
  } else {
    markHintButton(ctx.svg, move);
  }
}

function reset(): void {
  st.hint = null;
  st.sel = null;
  st.rot = 0;
  st.anchor = null;
  st.cursor = false;
  st.pending = false;
}

export const cathedral: BoardModule & { hint(ctx: BoardContext, move: string): void } = { draw, key, reset, hint };
export default cathedral;
