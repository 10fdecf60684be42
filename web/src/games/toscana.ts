// toscana.ts — the Toscana board (17 x 17, centre i9) for the game screen.
//
// Drawn from the server's view only: light and dark squares of the placed
// tiles (kind L / D) with each tile outlined in its owner's colour, the centre
// i9 marked, each player's largest area (marks areaWhite / areaBlack) outlined
// with its count (its score), and beside the board both top tiles (the 2x4
// frame with its off-colour cells: view.sides.X.hand, kind 'S'), the stacks'
// sizes (never their order) and whether each veto is still unused.
//
// Input never re-implements a rule: the mover's top tile, in the quarter turn
// the player chose, follows the pointer as a ghost; the ghost's rectangle and
// off-colour squares give a move text ("i10-j7:i8,j10") and it shows green
// only when that text is one of the `legal` moves.  Small green dots mark
// where the ghost's handle may go in the current turn.  `veto` / `accept`
// and `pass` are buttons, offered when they are the legal moves.
//
// Keyboard: arrows carry the ghost, R (Shift+R) turns it, Enter or Space
// places it; V vetoes and A accepts when that decision is due; Tab reaches
// the tile and the buttons.  Mouse: move, R or the wheel turns, click places.
// Touch: tap (or drag) to put the ghost, turn with the buttons or a
// two-finger twist, tap the same square again to place it.

import type { BoardContext, BoardModule, HandItem, Side, View } from "../types";
import {
  arrowStep, button, carryInput, Cells, clear, drawnSig, el, focusedKey, Grid, handle, markHandled,
  markHintButton, moverOf, outlinePath, refocus, sortSquares, squareName, squareOf, text, turn, wasHandled,
  wideScreen,
} from "./boardkit";

const N = 17;
const MARGIN = 0.7;
const PANEL_W = 5.6;
const CONTROLS_H = 1.6;
const FONT = "system-ui, sans-serif";
const FS = 0.48;                  // text size

const COL = {
  empty: "#8fa889", line: "#7a9474",
  L: "#f4e7c8", D: "#6d4a2f",
  whiteEdge: "#ffffff", blackEdge: "#16110d",
  areaWhite: "#1c7ed6", areaBlack: "#ae3ec9",
  good: "#2e9d46", bad: "#d9362b", last: "#f08c00",
};

interface State {
  ctx: BoardContext | null;
  view: View | null;
  legal: string[];
  legalSet: Set<string>;
  place: boolean;              // legal holds placements
  decide: boolean;             // legal = veto / accept
  mover: Side | null;          // whose top tile the placements are
  rot: number;
  anchor: [number, number] | null;
  cursor: boolean;
  pointerType: string;
  pending: boolean;
  grid: Grid;
  bx: number; by: number;
  wide: boolean;
  touches: Map<number, [number, number]>;
  twist: number | null;
  hint: string | null;         // the engine's suggestion, shown until the next draw
  carry: { frame: Cells; off: number[] };   // the tile carried over the board (screen cells, unturned)
}

const st: State = {
  ctx: null, view: null, legal: [], legalSet: new Set(), place: false, decide: false, mover: null, rot: 0,
  anchor: null, cursor: false, pointerType: "mouse", pending: false, grid: new Grid(N, N, "white"),
  bx: 0, by: 0, wide: true, touches: new Map(), twist: null, hint: null,
  carry: { frame: [], off: [] },
};

function topTile(view: View, side: Side): HandItem | undefined {
  return (view.sides[side]?.hand ?? []).find((it) => it.kind === "S");
}

// The frame cells of a tile on the screen, cell i at (i % 4, i >> 2): row 0
// on top, as docs/server-api.md numbers them.
const FRAME: Cells = [0, 1, 2, 3, 4, 5, 6, 7].map((i) => [i % 4, i >> 2] as [number, number]);

// A tile's cells, turned rot quarter turns, relative to its handle.
function tileCells(rot: number, frame: Cells = st.carry.frame): Cells {
  const h = handle(frame);
  return turn(frame.map(([x, y]) => [x - h[0], y - h[1]] as [number, number]), rot);
}

// The move text of the tile with its handle on screen cell a, or "" when a
// part is off the board.
function moveAt(a: [number, number], rot: number, off: number[], frame: Cells = st.carry.frame): string {
  const cells = tileCells(rot, frame);
  if (cells.length !== 8) return "";
  let f0 = Infinity, f1 = -Infinity, k0 = Infinity, k1 = -Infinity;
  const offs: string[] = [];
  for (let i = 0; i < 8; i++) {
    const name = st.grid.square(a[0] + cells[i][0], a[1] + cells[i][1]);
    if (!name) return "";
    const f = name.charCodeAt(0) - 97, k = Number(name.slice(1)) - 1;
    f0 = Math.min(f0, f); f1 = Math.max(f1, f); k0 = Math.min(k0, k); k1 = Math.max(k1, k);
    if (off.includes(i)) offs.push(name);
  }
  return `${squareName(f0, k1)}-${squareName(f1, k0)}:${sortSquares(offs).join(",")}`;
}

// The tile as one legal placement shows it (when the hand's frame explains
// none of them): its rectangle's cells on the screen and which are off.
function carryFromMove(m: string): { frame: Cells; off: number[] } {
  const x = /^([a-q])(\d+)-([a-q])(\d+):(.*)$/.exec(m);
  if (!x) return { frame: [], off: [] };
  const offs = x[5].split(","), frame: Cells = [], off: number[] = [];
  const f0 = x[1].charCodeAt(0) - 97, f1 = x[3].charCodeAt(0) - 97, k0 = Number(x[4]) - 1, k1 = Number(x[2]) - 1;
  for (let f = f0; f <= f1; f++) for (let k = k0; k <= k1; k++) {
    if (offs.includes(squareName(f, k))) off.push(frame.length);
    frame.push(st.grid.toScreen(f - f0, k - k0));
  }
  return { frame, off };
}

// Whether side's top tile could have made the legal placements: the first
// placement's off squares sit where some turn of that tile puts them.
function tileFits(view: View, side: Side, legal: string[]): boolean {
  const t = topTile(view, side);
  if (!t || !t.off) return false;
  const m = legal.find((x) => x.includes(":"));
  if (!m) return false;
  const saved = st.grid;
  st.grid = new Grid(view.width || N, view.height || N, "white");
  try {
    for (let r = 0; r < 4; r++) {
      for (let a = 0; a < N; a++) for (let b = 0; b < N; b++) if (moveAt([a, b], r, t.off, FRAME) === m) return true;
    }
    return false;
  } finally { st.grid = saved; }
}

function offOf(): number[] {
  return st.carry.off;
}

function ghost(): { cells: Cells; move: string; ok: boolean } | null {
  if (!st.place || !st.mover || !st.anchor || st.pending) return null;
  const rel = tileCells(st.rot);
  const cells = rel.map(([x, y]) => [x + st.anchor![0], y + st.anchor![1]] as [number, number]);
  const move = moveAt(st.anchor, st.rot, offOf());
  return { cells, move, ok: !!move && st.legalSet.has(move) };
}

// ---- Drawing ---------------------------------------------------------------

function colourName(side: Side): string { return side === "white" ? "light" : "dark"; }

function drawTile(parent: Element, x: number, y: number, s: number, side: Side, off: number[], rot: number): Cells {
  const cells = tileCells(rot, FRAME);
  const mx = Math.min(...cells.map((c) => c[0])), my = Math.min(...cells.map((c) => c[1]));
  const own = side === "white" ? COL.L : COL.D, other = side === "white" ? COL.D : COL.L;
  cells.forEach(([cx, cy], i) => {
    el("rect", { x: x + (cx - mx) * s, y: y + (cy - my) * s, width: s, height: s,
      fill: off.includes(i) ? other : own, stroke: "#0003", "stroke-width": s * 0.03 }, parent);
  });
  const norm = cells.map(([cx, cy]) => [cx - mx, cy - my] as [number, number]);
  el("path", { d: outlinePath(norm, x, y, s), fill: "none", "stroke-width": s * 0.08,
    stroke: side === "white" ? "#b9ab8c" : COL.blackEdge }, parent);
  return norm;
}

const PANEL_H = 3.6;   // a panel's height at scale 1

// A side's panel at (x0, y0), drawn at `scale` (larger on a tall screen).
function drawPanel(root: Element, view: View, side: Side, x0: number, y0: number, scale: number): void {
  const sv = view.sides[side];
  const g = el("g", { class: `tav-hand tav-hand-${side}`, "data-side": side, role: "group",
    "aria-label": `${side}'s tiles (${colourName(side)})`, transform: `translate(${x0} ${y0}) scale(${scale})` }, root);
  const x = 0, y = 0;
  const score = sv?.score ?? 0;   // the tiles his largest area touches
  el("rect", { x: x + 0.05, y: y + 0.12, width: 0.5, height: 0.5, rx: 0.08, fill: side === "white" ? COL.L : COL.D,
    stroke: side === "white" ? COL.areaWhite : COL.areaBlack, "stroke-width": 0.08 }, g);
  const mine = st.mover === side && st.place;
  text(g, x + 0.8, y + 0.4, `${side === "white" ? "White" : "Black"} · area ${score}`, {
    "font-size": FS, "font-family": FONT, fill: "currentColor", "dominant-baseline": "central",
    "font-weight": mine ? 700 : 400, class: "tav-score", "data-score": score,
  });
  const t = topTile(view, side);
  const s = 0.62;
  const ty = y + 0.95;
  if (t) {
    const rot = mine ? st.rot : 0;
    const tg = el("g", {
      class: "tav-tile", "data-side": side, "data-tile": t.id ?? "", "data-key": `tile-${side}`,
      role: mine ? "button" : "img", tabindex: mine ? 0 : -1,
      "aria-label": `${side}'s top tile ${t.id ?? ""}` + (mine ? ", yours to place: Enter to carry it to the board" : ""),
      style: mine ? "cursor:pointer" : "",
    }, g);
    const cells = drawTile(tg, x + 0.1, ty, s, side, t.off ?? [], rot);
    const tw = (Math.max(...cells.map((c) => c[0])) + 1) * s;
    const decided = st.decide && st.mover === null && side !== st.ctx?.orientation;
    if (mine || decided) {
      el("rect", { x: x + 0.1 - 0.1, y: ty - 0.1, width: tw + 0.2,
        height: (Math.max(...cells.map((c) => c[1])) + 1) * s + 0.2, fill: "none", stroke: "#f59f00",
        "stroke-width": 0.08, rx: 0.1, "pointer-events": "none" }, tg);
    }
    if (mine) {
      tg.addEventListener("keydown", (ev) => {
        if (ev.key === "Enter" || ev.key === " ") {
          ev.preventDefault(); ev.stopPropagation(); markHandled(ev);
          if (!st.anchor) st.anchor = [8, 8];
          st.cursor = true;
          drawGhost();
          refocus(st.ctx!.svg, "board");
        }
      });
    }
    const lx = x + 0.1 + Math.max(tw, 4 * s) + 0.35;
    text(g, lx, ty + 0.3, `tile ${t.id ?? "?"}`, { "font-size": FS * 0.85, "font-family": FONT, fill: "currentColor",
      "dominant-baseline": "central", opacity: 0.8 });
    text(g, lx, ty + 0.95, `${sv?.stack ?? 0} in stack`, { "font-size": FS * 0.85, "font-family": FONT,
      fill: "currentColor", "dominant-baseline": "central", class: "tav-stack", "data-stack": sv?.stack ?? 0 });
    text(g, lx, ty + 1.6, sv?.veto ? "veto unused" : "veto used", { "font-size": FS * 0.85, "font-family": FONT,
      fill: "currentColor", "dominant-baseline": "central", opacity: sv?.veto ? 1 : 0.6 });
  } else {
    text(g, x + 0.1, ty + 0.6, `no tiles left (${sv?.stack ?? 0} in stack)`, { "font-size": FS * 0.85,
      "font-family": FONT, fill: "currentColor", "dominant-baseline": "central", class: "tav-stack",
      "data-stack": sv?.stack ?? 0 });
  }
}

function squareLabel(name: string, view: View): string {
  const sq = view.squares[name];
  const parts = [name];
  if (sq?.kind) {
    parts.push(`${sq.kind === "L" ? "light" : "dark"} square of ${sq.owner}'s tile ${sq.piece ?? ""}`.trim());
  } else parts.push("empty");
  if (sq?.marks?.includes("centre")) parts.push("centre");
  if (sq?.marks?.includes("areaWhite")) parts.push("in white's largest area");
  if (sq?.marks?.includes("areaBlack")) parts.push("in black's largest area");
  if (sq?.marks?.includes("last")) parts.push("last move");
  return parts.join(", ");
}

function drawBoard(root: Element, view: View): void {
  const { bx, by, grid } = st;
  const board = el("g", {
    class: "tav-board", "data-key": "board", tabindex: 0, role: "group",
    "aria-label": "Toscana board, 17 by 17. Arrows move the tile, R turns it, Enter places it.",
    style: "touch-action:none; outline:none",
  }, root);
  for (let r = 0; r < N; r++) for (let c = 0; c < N; c++) {
    const name = grid.square(c, r)!;
    const sq = view.squares[name];
    el("rect", {
      x: bx + c, y: by + r, width: 1, height: 1,
      fill: sq?.kind === "L" ? COL.L : sq?.kind === "D" ? COL.D : COL.empty,
      stroke: sq?.kind ? "#0002" : COL.line, "stroke-width": 0.03,
      "data-square": name, role: "img", "aria-label": squareLabel(name, view),
    }, board);
  }
  const deco = el("g", { "pointer-events": "none" }, board);
  // the centre
  const centre = Object.keys(view.squares).find((n) => view.squares[n].marks?.includes("centre")) ?? "i9";
  const ci = grid.cell(centre);
  if (ci && !view.squares[centre]?.kind) {
    el("circle", { cx: bx + ci[0] + 0.5, cy: by + ci[1] + 0.5, r: 0.22, fill: "none", stroke: "#fff",
      "stroke-width": 0.08, class: "tav-centre" }, deco);
  }
  // tiles: outlines by owner, the last one marked
  const tiles = new Map<string, { owner: string; cells: Cells; last: boolean }>();
  for (const [name, sq] of Object.entries(view.squares)) {
    if (!sq.kind) continue;
    const key = `${sq.piece ?? 0}:${sq.owner}`;
    let t = tiles.get(key);
    if (!t) { t = { owner: sq.owner ?? "white", cells: [], last: false }; tiles.set(key, t); }
    const c = grid.cell(name);
    if (c) t.cells.push(c);
    if (sq.marks?.includes("last")) t.last = true;
  }
  for (const t of tiles.values()) {
    if (!t.cells.length) continue;
    const xs = t.cells.map((c) => c[0]), ys = t.cells.map((c) => c[1]);
    const x0 = Math.min(...xs), y0 = Math.min(...ys);
    const w = Math.max(...xs) - x0 + 1, h = Math.max(...ys) - y0 + 1;
    el("rect", { x: bx + x0 + 0.07, y: by + y0 + 0.07, width: w - 0.14, height: h - 0.14, rx: 0.08, fill: "none",
      stroke: t.owner === "white" ? COL.whiteEdge : COL.blackEdge, "stroke-width": 0.1,
      class: "tav-tile-outline", "data-owner": t.owner }, deco);
    if (t.last) {
      el("rect", { x: bx + x0 + 0.2, y: by + y0 + 0.2, width: w - 0.4, height: h - 0.4, rx: 0.06, fill: "none",
        stroke: COL.last, "stroke-width": 0.08, "stroke-dasharray": "0.25 0.15", class: "tav-last" }, deco);
    }
  }
  // the largest areas with their counts
  for (const side of ["white", "black"] as Side[]) {
    const mark = side === "white" ? "areaWhite" : "areaBlack";
    const cells: Cells = [];
    for (const [name, sq] of Object.entries(view.squares)) {
      if (!sq.marks?.includes(mark)) continue;
      const c = grid.cell(name);
      if (c) cells.push(c);
    }
    if (!cells.length) continue;
    const colour = side === "white" ? COL.areaWhite : COL.areaBlack;
    const ag = el("g", { class: `tav-area tav-area-${side}` }, deco);
    el("path", { d: outlinePath(cells, bx, by, 1), stroke: colour, "stroke-width": 0.14, fill: "none",
      "stroke-linecap": "round" }, ag);
    const count = view.sides[side]?.score ?? 0;
    // the badge on the area's top-left square (white) or bottom-right (black)
    const pick = cells.slice().sort((a, b) => side === "white" ? (a[1] - b[1] || a[0] - b[0]) : (b[1] - a[1] || b[0] - a[0]))[0];
    const px = bx + pick[0] + 0.5, py = by + pick[1] + 0.5;
    el("circle", { cx: px, cy: py, r: 0.42, fill: colour, stroke: "#fff", "stroke-width": 0.06 }, ag);
    text(ag, px, py, String(count), { "text-anchor": "middle", "dominant-baseline": "central", "font-size": 0.5,
      "font-family": FONT, "font-weight": 700, fill: "#fff", class: "tav-area-count" });
  }
  // coordinates
  for (let i = 0; i < N; i++) {
    text(root, bx + i + 0.5, by + N + MARGIN * 0.5, grid.square(i, N - 1)![0], { "text-anchor": "middle",
      "dominant-baseline": "central", "font-size": 0.4, "font-family": FONT, fill: "currentColor", opacity: 0.7 });
    text(root, bx - MARGIN * 0.5, by + i + 0.5, grid.square(0, i)!.slice(1), { "text-anchor": "middle",
      "dominant-baseline": "central", "font-size": 0.4, "font-family": FONT, fill: "currentColor", opacity: 0.7 });
  }
  el("g", { class: "tav-ghost", "pointer-events": "none" }, board);

  carryInput(board, st, { carrying: () => st.place, rotate, drawGhost, click: onClick });
}

// The buttons and the one-line explanation; on a tall screen (twoLines) the
// line goes under the buttons and everything is drawn larger.
function drawControls(root: Element, x0: number, y0: number, twoLines: boolean): void {
  const scale = twoLines ? 1.3 : 1;
  const g = el("g", { class: "tav-controls", transform: `translate(${x0} ${y0}) scale(${scale})` }, root);
  const x = 0, y = 0;
  const line = (s: string, lx: number) => text(g, twoLines ? x : lx, twoLines ? y + 1.6 : y + 0.65, s, {
    "font-size": FS, "font-family": FONT, fill: "currentColor", "dominant-baseline": "central", class: "tav-msg" });
  if (st.legal.length === 1 && st.legal[0] === "pass") {
    button(g, x, y + 0.2, 2.6, 0.95, "Pass", { key: "pass", primary: true, aria: "Pass (your tile fits nowhere)",
      onPress: () => submit("pass") });
    line("Your tile fits nowhere: you must pass.", x + 2.9);
  } else if (st.decide) {
    button(g, x, y + 0.2, 2.6, 0.95, "Veto", { key: "veto", aria: "Veto the opponent's tile (V)",
      onPress: () => submit("veto") });
    button(g, x + 2.8, y + 0.2, 2.6, 0.95, "Accept", { key: "accept", primary: true,
      aria: "Accept the opponent's tile (A)", onPress: () => submit("accept") });
    line("Veto: their tile goes under their stack (once a game).", x + 5.7);
  } else if (st.place) {
    button(g, x, y + 0.2, 1.3, 0.95, "⟲", { key: "rot-left", aria: "Turn the tile anticlockwise (Shift+R)",
      onPress: () => rotate(-1), font: 0.7 });
    button(g, x + 1.5, y + 0.2, 1.3, 0.95, "⟳", { key: "rot-right", aria: "Turn the tile clockwise (R)",
      onPress: () => rotate(1), font: 0.7 });
    line(!spots(st.rot).length ? "No room for the tile turned this way: turn it." :
      st.pointerType === "touch" ? "Tap a green dot; tap it again to place the tile." :
      "Put the tile on a green dot: R or wheel turns, click places.", x + 3.1);
  } else if (st.view?.phase === "over") {
    line("Game over.", x);
  }
}

// The screen cells where the tile's handle may go in quarter turn rot.
function spots(rot: number): [number, number][] {
  const out: [number, number][] = [];
  const off = offOf();
  for (let r = 0; r < N; r++) for (let c = 0; c < N; c++) {
    if (st.legalSet.has(moveAt([c, r], rot, off))) out.push([c, r]);
  }
  return out;
}

// Turn the tile to the first quarter turn that has room, when the one chosen
// has none (a new tile, or a new position).
function turnToRoom(): void {
  if (!st.place || spots(st.rot).length) return;
  for (let d = 1; d < 4; d++) {
    if (spots((st.rot + d) % 4).length) { st.rot = (st.rot + d) % 4; return; }
  }
}

function drawGhost(): void {
  const svg = st.ctx?.svg;
  if (!svg) return;
  const layer = svg.querySelector(".tav-ghost");
  const root = svg.querySelector(".tav-toscana");
  if (!layer || !root) return;
  while (layer.firstChild) layer.removeChild(layer.firstChild);
  const { bx, by } = st;
  // where the handle may go in this turn
  if (st.place && st.mover && !st.pending) {
    for (const [c, r] of spots(st.rot)) {
      {
        el("circle", { cx: bx + c + 0.5, cy: by + r + 0.5, r: 0.16, fill: COL.good, opacity: 0.85,
          class: "tav-spot", "data-spot": st.grid.square(c, r)! }, layer);
      }
    }
  }
  const g = ghost();
  root.setAttribute("data-ghost", g ? g.move : "");
  root.setAttribute("data-ghost-legal", g && g.ok ? "1" : "0");
  root.setAttribute("data-anchor", st.anchor ? st.grid.square(st.anchor[0], st.anchor[1]) ?? "" : "");
  root.setAttribute("data-rot", String(st.rot));
  if (g) {
    const off = offOf();
    const own = st.mover === "white" ? COL.L : COL.D, other = st.mover === "white" ? COL.D : COL.L;
    const inside: Cells = [];
    g.cells.forEach(([c, r], i) => {
      if (c < 0 || r < 0 || c >= N || r >= N) return;
      inside.push([c, r]);
      el("rect", { x: bx + c, y: by + r, width: 1, height: 1, fill: off.includes(i) ? other : own, opacity: 0.8 }, layer);
    });
    el("path", { d: outlinePath(inside, bx, by, 1), stroke: g.ok ? COL.good : COL.bad, "stroke-width": 0.16,
      fill: g.ok ? "#2e9d4633" : "#d9362b40" }, layer);
  }
  if (st.hint && st.hint.includes(":")) {
    const m = /^([a-q])(\d+)-([a-q])(\d+):(.*)$/.exec(st.hint);
    if (m) {
      const offs = m[5].split(",");
      const cells: Cells = [];
      const hg = el("g", { class: "tav-hint", "data-move": st.hint }, layer);
      for (let f = m[1].charCodeAt(0) - 97; f <= m[3].charCodeAt(0) - 97; f++) {
        for (let k = Number(m[4]) - 1; k <= Number(m[2]) - 1; k++) {
          const c = st.grid.cell(squareName(f, k));
          if (!c) continue;
          cells.push(c);
          const own = st.mover === "black" ? COL.D : COL.L, other = st.mover === "black" ? COL.L : COL.D;
          el("rect", { x: bx + c[0], y: by + c[1], width: 1, height: 1, opacity: 0.7,
            fill: offs.includes(squareName(f, k)) ? other : own }, hg);
        }
      }
      el("path", { d: outlinePath(cells, bx, by, 1), stroke: "#1c7ed6", "stroke-width": 0.16, fill: "none",
        "stroke-dasharray": "0.3 0.15" }, hg);
    }
  }
  if (st.cursor && st.anchor) {
    el("rect", { x: bx + st.anchor[0] + 0.06, y: by + st.anchor[1] + 0.06, width: 0.88, height: 0.88, fill: "none",
      stroke: "#fab005", "stroke-width": 0.14, class: "tav-cursor" }, layer);
  }
}

function render(): void {
  const ctx = st.ctx, view = st.view;
  if (!ctx || !view) return;
  const svg = ctx.svg;
  const keep = focusedKey(svg);
  clear(svg);
  st.wide = wideScreen();
  const me: Side = ctx.orientation;
  const other: Side = me === "white" ? "black" : "white";
  // data-sig names what is drawn (the last move and the legal moves offered),
  // so a test can wait for the drawing of the position it expects
  const root = el("g", { class: "tav-toscana", "data-game": "toscana", "data-sig": drawnSig(view, st.legal) }, svg);
  root.addEventListener("keydown", (ev) => { if (handleKey(ev as KeyboardEvent)) { ev.preventDefault(); ev.stopPropagation(); } });
  let vbW: number, vbH: number;
  if (st.wide) {
    // the board on the left, both panels on its right (the opponent's at
    // the top, the player's at the bottom): the 17 x 17 board gets the room
    st.bx = MARGIN + 0.1; st.by = 0.3;
    drawBoard(root, view);
    drawControls(root, st.bx, st.by + N + MARGIN, false);
    drawPanel(root, view, other, st.bx + N + 0.5, st.by, 1);
    drawPanel(root, view, me, st.bx + N + 0.5, st.by + N - PANEL_H, 1);
    vbW = st.bx + N + 0.6 + PANEL_W;
    vbH = st.by + N + MARGIN + CONTROLS_H;
  } else {
    // both panels side by side above the board, the controls below it
    const w = N + MARGIN, ps = 1.5;
    st.bx = MARGIN + 0.1; st.by = PANEL_H * ps + 0.2;
    drawPanel(root, view, other, 0.1, 0.1, ps);
    drawPanel(root, view, me, 0.1 + w / 2 + 0.2, 0.1, ps);
    drawBoard(root, view);
    drawControls(root, 0.1, st.by + N + MARGIN, true);
    vbW = w + 0.3;
    vbH = st.by + N + MARGIN + 2.9;
  }
  svg.setAttribute("viewBox", `0 0 ${vbW.toFixed(2)} ${vbH.toFixed(2)}`);
  drawGhost();
  refocus(svg, keep);
}

// ---- Input -----------------------------------------------------------------

function rotate(d: number): void {
  if (!st.place || st.pending) return;
  st.rot = (st.rot + d + 4) % 4;
  render();
}

function submit(move: string): void {
  if (st.pending || !st.legalSet.has(move) || !st.ctx) return;
  st.pending = true;
  st.cursor = false;
  drawGhost();
  st.ctx.submit(move);
}

function place(): void {
  const g = ghost();
  if (!g) return;
  if (g.ok) submit(g.move);
  else st.ctx?.say(g.move ? "Your tile cannot go there: look for the green dots." : "Part of the tile is off the board.");
}

function onClick(ev: MouseEvent): void {
  const c = squareOf(st.grid, ev);
  if (!c || !st.legal.length || st.pending) return;
  if (!st.place) {
    if (st.decide) st.ctx?.say("First decide: veto or accept the opponent's tile.");
    else if (st.legal.includes("pass")) st.ctx?.say("Your tile fits nowhere: press Pass.");
    return;
  }
  if (st.pointerType === "touch") {
    const g = ghost();
    // a second tap on the same square places the tile
    const again = st.anchor && st.anchor[0] === c[0] && st.anchor[1] === c[1];
    if (g && g.ok && again) { submit(g.move); return; }
    st.anchor = c;
    st.cursor = false;
    drawGhost();
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
  if (st.decide && (k === "v" || k === "V")) { submit("veto"); done = true; }
  else if (st.decide && (k === "a" || k === "A")) { submit("accept"); done = true; }
  else if (st.place && (k === "r" || k === "R")) { rotate(ev.shiftKey ? -1 : 1); done = true; }
  else if (st.place && arrowStep(st, k, N, [8, 8], drawGhost)) done = true;
  else if (k === "Enter" || k === " ") {
    if (st.place && st.anchor) { place(); done = true; }
    else if (st.legal.length === 1 && st.legal[0] === "pass") { submit("pass"); done = true; }
  } else if (k === "Escape" && st.cursor) {
    st.cursor = false; st.anchor = null; drawGhost(); done = true;
  }
  if (done) markHandled(ev);
  return done;
}

// ---- The module ------------------------------------------------------------

let resizeHooked = false;

function draw(ctx: BoardContext, view: View, legal: string[]): void {
  st.ctx = ctx;
  st.view = view;
  st.legal = legal.slice();
  st.legalSet = new Set(legal);
  st.place = legal.some((m) => m.includes(":"));
  st.decide = legal.includes("veto") || legal.includes("accept");
  st.grid = new Grid(view.width || N, view.height || N, ctx.orientation);
  st.pending = false;
  st.hint = null;
  st.mover = st.place ? moverOf((s) => tileFits(view, s, legal), ctx.orientation) : null;
  const top = st.mover ? topTile(view, st.mover) : undefined;
  st.carry = { frame: FRAME, off: top?.off ?? [] };
  if (st.place && !st.mover) {
    // the hand's frame explains no legal placement: carry the tile as the
    // first placement shows it (its colours those of the side shown below)
    st.mover = ctx.orientation;
    st.carry = carryFromMove(legal.find((m) => m.includes(":"))!);
  }
  if (!legal.length) st.cursor = false;
  turnToRoom();
  render();
  if (!resizeHooked && typeof window !== "undefined") {
    resizeHooked = true;
    window.addEventListener("resize", () => { if (st.ctx && st.view && wideScreen() !== st.wide) render(); });
  }
}

function key(_ctx: BoardContext, ev: KeyboardEvent): boolean {
  return handleKey(ev);
}

// Show the engine's suggestion (one of the legal moves) until the next draw:
// the tile on its squares, or the button to press (the game screen names it).
function hint(ctx: BoardContext, move: string): void {
  if (ctx !== st.ctx || !st.legalSet.has(move)) return;
  st.hint = move;
  if (move.includes(":")) drawGhost();
  else markHintButton(ctx.svg, move);
}

function reset(): void {
  st.hint = null;
  st.rot = 0;
  st.anchor = null;
  st.cursor = false;
  st.pending = false;
}

export const toscana: BoardModule & { hint(ctx: BoardContext, move: string): void } = { draw, key, reset, hint };
export default toscana;
