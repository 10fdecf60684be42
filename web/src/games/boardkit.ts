// boardkit.ts — small SVG and geometry helpers shared by the polyomino
// boards (Cathedral, Toscana): square names, the screen <-> board mapping for
// either orientation, quarter turns of a shape, outlines of a set of squares,
// SVG buttons reachable by keyboard, and keeping focus across a redraw.
//
// Screen coordinates: column c to the right, row r downwards, one unit per
// square.  Board coordinates: file f (0 = 'a') to the right, rank k (0 = rank
// "1") upwards, as in docs/server-api.md.  With orientation "white" rank 1 is
// at the bottom; with "black" the board is turned half round.

import type { Side, View } from "../types";

export const SVGNS = "http://www.w3.org/2000/svg";

// Create an SVG element with attributes (numbers are written as they are).
export function el<K extends keyof SVGElementTagNameMap>(
  tag: K,
  attrs: Record<string, string | number> = {},
  parent?: Element,
): SVGElementTagNameMap[K] {
  const e = document.createElementNS(SVGNS, tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "style") setStyle(e, String(v));
    else e.setAttribute(k, String(v));
  }
  if (parent) parent.appendChild(e);
  return e;
}

// Set "prop: value; ..." through the CSSOM: a style attribute would be
// refused by the page's Content-Security-Policy (no inline styles).
export function setStyle(e: SVGElement, css: string): void {
  for (const decl of css.split(";")) {
    const i = decl.indexOf(":");
    if (i > 0) e.style.setProperty(decl.slice(0, i).trim(), decl.slice(i + 1).trim());
  }
}

export function text(parent: Element, x: number, y: number, s: string,
  attrs: Record<string, string | number> = {}): SVGTextElement {
  const t = el("text", { x, y, ...attrs }, parent);
  // the fill as a style too: a page stylesheet's "svg text { fill }" must not
  // repaint the letters on pieces and buttons
  if (attrs.fill !== undefined) t.style.fill = String(attrs.fill);
  t.textContent = s;
  return t;
}

// "e5" for file 4, rank 4 (0-based).
export function squareName(f: number, k: number): string {
  return String.fromCharCode(97 + f) + String(k + 1);
}

// [file, rank] (0-based) of "e5", or null.
export function parseSquare(s: string): [number, number] | null {
  const m = /^([a-z])([0-9]{1,2})$/.exec(s);
  if (!m) return null;
  return [m[1].charCodeAt(0) - 97, Number(m[2]) - 1];
}

// Sort squares by file, then by rank as a number (SPEC: a2 < a10 < b1).
export function sortSquares(names: string[]): string[] {
  return names.slice().sort((a, b) => {
    const pa = parseSquare(a), pb = parseSquare(b);
    if (!pa || !pb) return a < b ? -1 : 1;
    return pa[0] - pb[0] || pa[1] - pb[1];
  });
}

// The screen <-> board mapping of one board drawing.
export class Grid {
  constructor(public w: number, public h: number, public side: Side) {}
  // Board square of screen cell (c, r), or null outside.
  square(c: number, r: number): string | null {
    if (c < 0 || r < 0 || c >= this.w || r >= this.h) return null;
    return this.side === "white" ? squareName(c, this.h - 1 - r) : squareName(this.w - 1 - c, r);
  }
  // Screen cell [c, r] of a board square name.
  cell(name: string): [number, number] | null {
    const p = parseSquare(name);
    if (!p || p[0] >= this.w || p[1] >= this.h) return null;
    return this.side === "white" ? [p[0], this.h - 1 - p[1]] : [this.w - 1 - p[0], p[1]];
  }
  // A board offset (files right, ranks up) as a screen offset (right, down).
  toScreen(df: number, dk: number): [number, number] {
    return this.side === "white" ? [df, -dk] : [-df, dk];
  }
}

export type Cells = [number, number][];

// One quarter turn clockwise on the screen (right -> down), n times.
export function turn(cells: Cells, n: number): Cells {
  let out = cells.map(([x, y]) => [x, y] as [number, number]);
  for (let i = 0; i < ((n % 4) + 4) % 4; i++) out = out.map(([x, y]) => [-y, x] as [number, number]);
  return out;
}

// Shift cells so the smallest x and y are 0.
export function normalise(cells: Cells): Cells {
  const mx = Math.min(...cells.map((c) => c[0]));
  const my = Math.min(...cells.map((c) => c[1]));
  return cells.map(([x, y]) => [x - mx, y - my] as [number, number]);
}

// The cell nearest the middle of the cells' bounding box: the handle that
// sits under the pointer when a shape is carried over the board.
export function handle(cells: Cells): [number, number] {
  const xs = cells.map((c) => c[0]), ys = cells.map((c) => c[1]);
  const cx = (Math.min(...xs) + Math.max(...xs)) / 2;
  const cy = (Math.min(...ys) + Math.max(...ys)) / 2;
  let best = cells[0], bd = Infinity;
  for (const c of cells) {
    const d = (c[0] - cx) ** 2 + (c[1] - cy) ** 2;
    if (d < bd - 1e-9) { bd = d; best = c; }
  }
  return best;
}

// SVG path data of the outline of a set of unit cells at (x, y) (screen
// units, origin ox/oy, cell size s): only the edges between a cell of the
// set and one outside it.
export function outlinePath(cells: Cells, ox = 0, oy = 0, s = 1): string {
  const has = new Set(cells.map(([x, y]) => x + "," + y));
  const parts: string[] = [];
  const r = (v: number) => Math.round(v * 1000) / 1000;
  const seg = (x1: number, y1: number, x2: number, y2: number) =>
    parts.push(`M${r(ox + x1 * s)} ${r(oy + y1 * s)}L${r(ox + x2 * s)} ${r(oy + y2 * s)}`);
  for (const [x, y] of cells) {
    if (!has.has(x + "," + (y - 1))) seg(x, y, x + 1, y);
    if (!has.has(x + "," + (y + 1))) seg(x, y + 1, x + 1, y + 1);
    if (!has.has((x - 1) + "," + y)) seg(x, y, x, y + 1);
    if (!has.has((x + 1) + "," + y)) seg(x + 1, y, x + 1, y + 1);
  }
  return parts.join("");
}

// A keyboard- and pointer-usable SVG button.  `key` identifies it so focus
// can come back to it after a redraw.
export function button(parent: Element, x: number, y: number, w: number, h: number, label: string,
  opts: { key: string; aria?: string; onPress: () => void; primary?: boolean; font?: number; disabled?: boolean }): SVGGElement {
  const g = el("g", {
    class: "tav-btn" + (opts.primary ? " tav-btn-primary" : ""), role: "button",
    tabindex: opts.disabled ? -1 : 0, "data-key": opts.key, "aria-label": opts.aria ?? label,
    "aria-disabled": opts.disabled ? "true" : "false", style: "cursor:pointer",
  }, parent);
  el("rect", {
    x, y, width: w, height: h, rx: Math.min(h / 4, 0.25),
    fill: opts.disabled ? "#9993" : opts.primary ? "#2f7d32" : "#5f6f86",
    stroke: "#0005", "stroke-width": 0.04,
  }, g);
  text(g, x + w / 2, y + h / 2, label, {
    "text-anchor": "middle", "dominant-baseline": "central", "font-size": opts.font ?? h * 0.45,
    fill: "#fff", "font-family": "system-ui, sans-serif", "font-weight": 600, "pointer-events": "none",
  });
  if (!opts.disabled) {
    g.addEventListener("click", (ev) => { ev.stopPropagation(); opts.onPress(); });
    g.addEventListener("keydown", (ev) => {
      if (ev.key === "Enter" || ev.key === " ") {
        ev.preventDefault(); ev.stopPropagation(); markHandled(ev); opts.onPress();
      }
    });
  }
  return g;
}

// Key events handled once even when both the module's own listener and the
// game screen's call of key() see them.
const handled = new WeakSet<Event>();
export function markHandled(ev: Event): void { handled.add(ev); }
export function wasHandled(ev: Event): boolean { return handled.has(ev); }

// The data-key of the focused element inside svg (to focus it again after
// the children are rebuilt), or null.
export function focusedKey(svg: SVGSVGElement): string | null {
  const a = document.activeElement;
  if (!a || !svg.contains(a)) return null;
  return a.getAttribute("data-key");
}

export function refocus(svg: SVGSVGElement, key: string | null): void {
  if (!key) return;
  // a control that went away (a building placed, a decision made) leaves the
  // focus on the board, so keyboard play goes on
  const e = (svg.querySelector(`[data-key="${CSS.escape(key)}"]`) ??
    svg.querySelector(`[data-key="board"]`)) as SVGElement | null;
  if (e && typeof e.focus === "function") e.focus({ preventScroll: true });
}

// Remove every child of the svg.
export function clear(svg: SVGSVGElement): void {
  while (svg.firstChild) svg.removeChild(svg.firstChild);
}

// Which side's shape produced the legal moves: `fits(side)` says whether a
// side's piece matches; prefer the side shown at the bottom when both fit.
export function moverOf(fits: (s: Side) => boolean, prefer: Side): Side | null {
  const other: Side = prefer === "white" ? "black" : "white";
  if (fits(prefer)) return prefer;
  if (fits(other)) return other;
  return null;
}

// A wide screen gets the hands beside the board, a tall one above and below.
export function wideScreen(): boolean {
  return typeof window !== "undefined" && window.innerWidth > window.innerHeight * 1.15;
}

// ---- Carrying a piece over the board ----------------------------------------

// The fields of a board's state that the carried-piece input reads and sets:
// the anchor (screen cell under the ghost's handle), whether the keyboard
// moved it (cursor), the last pointer type and the touches of a twist.
export interface CarryState {
  ctx: { svg: SVGSVGElement } | null;
  grid: Grid;
  legal: string[];
  pending: boolean;
  anchor: [number, number] | null;
  cursor: boolean;
  pointerType: string;
  touches: Map<number, [number, number]>;
  twist: number | null;
}

// What the board does for the carried-piece input: whether a piece is being
// carried, turn it (+1 clockwise, -1 back), redraw the ghost, and a click.
export interface CarryHooks {
  carrying(): boolean;
  rotate(d: number): void;
  drawGhost(): void;
  click(ev: MouseEvent): void;
}

// Screen cell of the board square an event hit, or null.
export function squareOf(grid: Grid, ev: Event): [number, number] | null {
  const t = ev.target as Element | null;
  const name = t?.closest?.("[data-square]")?.getAttribute("data-square");
  return name ? grid.cell(name) : null;
}

// The pointer input of a board: a mouse moves the anchor, one finger drags
// the ghost, a two-finger twist turns it, the wheel turns it, leaving the
// board (mouse) drops the ghost.
export function carryInput(board: SVGElement, st: CarryState, hooks: CarryHooks): void {
  const twistAngle = (): number => {
    const [a, b] = [...st.touches.values()];
    return Math.atan2(b[1] - a[1], b[0] - a[0]);
  };
  const onPointerDown = (ev: PointerEvent): void => {
    st.pointerType = ev.pointerType || "mouse";
    if (ev.pointerType === "touch") {
      st.touches.set(ev.pointerId, [ev.clientX, ev.clientY]);
      if (st.touches.size === 2) st.twist = twistAngle();
    }
  };
  const onPointerMove = (ev: PointerEvent): void => {
    if (ev.pointerType === "touch") {
      if (!st.touches.has(ev.pointerId)) return;
      st.touches.set(ev.pointerId, [ev.clientX, ev.clientY]);
      if (st.touches.size === 2 && st.twist !== null) {
        let d = twistAngle() - st.twist;
        while (d > Math.PI) d -= 2 * Math.PI;
        while (d < -Math.PI) d += 2 * Math.PI;
        if (Math.abs(d) > Math.PI / 4) { st.twist = twistAngle(); hooks.rotate(d > 0 ? 1 : -1); }
        return;
      }
      // one finger drags the ghost
      const e = document.elementFromPoint(ev.clientX, ev.clientY);
      const name = e?.closest?.("[data-square]")?.getAttribute("data-square");
      const c = name ? st.grid.cell(name) : null;
      if (c && hooks.carrying() && (!st.anchor || c[0] !== st.anchor[0] || c[1] !== st.anchor[1])) {
        st.anchor = c; hooks.drawGhost();
      }
      return;
    }
    st.pointerType = ev.pointerType || "mouse";
    const c = squareOf(st.grid, ev);
    if (!c) return;
    // R and the arrows should work at once: take the focus when nobody has it
    if (st.legal.length && (!document.activeElement || document.activeElement === document.body)) {
      refocus(st.ctx!.svg, "board");
    }
    if (st.anchor && c[0] === st.anchor[0] && c[1] === st.anchor[1] && !st.cursor) return;
    st.anchor = c;
    st.cursor = false;
    hooks.drawGhost();
  };
  const onPointerUp = (ev: PointerEvent): void => {
    st.touches.delete(ev.pointerId);
    if (st.touches.size < 2) st.twist = null;
  };
  board.addEventListener("pointerdown", onPointerDown);
  board.addEventListener("pointermove", onPointerMove);
  board.addEventListener("pointerup", onPointerUp);
  board.addEventListener("pointercancel", onPointerUp);
  board.addEventListener("pointerleave", () => {
    if (st.pointerType === "mouse" && !st.cursor) { st.anchor = null; hooks.drawGhost(); }
  });
  board.addEventListener("click", (ev) => hooks.click(ev));
  board.addEventListener("wheel", (ev) => {
    if (!hooks.carrying()) return;
    ev.preventDefault();
    hooks.rotate(ev.deltaY > 0 ? 1 : -1);
  }, { passive: false });
}

// An arrow key moves the anchor one square (from `start` when there is none),
// kept on an n x n board, and shows the keyboard cursor.  False for other keys.
export function arrowStep(st: CarryState, k: string, n: number, start: [number, number], drawGhost: () => void): boolean {
  const d = ({ ArrowUp: [0, -1], ArrowDown: [0, 1], ArrowLeft: [-1, 0], ArrowRight: [1, 0] } as
    Record<string, number[]>)[k];
  if (!d) return false;
  const a = st.anchor ?? start;
  st.anchor = [Math.min(n - 1, Math.max(0, a[0] + d[0])), Math.min(n - 1, Math.max(0, a[1] + d[1]))];
  st.cursor = true;
  drawGhost();
  refocus(st.ctx!.svg, "board");
  return true;
}

// What a drawing shows (the last move and the legal moves offered), for its
// data-sig: a test can wait for the drawing of the position it expects.
export function drawnSig(view: View, legal: string[]): string {
  return `${view.last}|${legal.length}|${legal.slice().sort()[0] ?? ""}`;
}

// Ring the button the engine suggests (its data-key is the move).
export function markHintButton(svg: SVGSVGElement, move: string): void {
  const b = svg.querySelector(`[data-key="${move}"] rect`);
  b?.setAttribute("stroke", "#1c7ed6");
  b?.setAttribute("stroke-width", "0.14");
}
