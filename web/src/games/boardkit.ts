// boardkit.ts — what the boards share: small SVG and geometry helpers
// (square names, the screen <-> board mapping for either orientation,
// quarter turns of a shape, outlines of a set of squares, SVG buttons
// reachable by keyboard, keeping focus across a redraw), and the carried-piece
// board of Cathedral and Toscana (CarryBoard): a piece from the hand carried
// over the board as a ghost, turned by quarter turns, placed where its squares
// are those of a legal move's parts.
//
// Screen coordinates: column c to the right, row r downwards, one unit per
// square.  Board coordinates: file f (0 = 'a') to the right, rank k (0 = rank
// "1") upwards, as in docs/server-api.md.  With orientation "white" rank 1 is
// at the bottom; with "black" the board is turned half round.

import type { BoardContext, LegalMove, Side, View } from "../types";
import { t } from "../i18n";

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

// A sentence cut into lines of at most `width` units at font size `font`
// (a character taken as 0.56 of the font size: system sans-serif's average,
// a little over), at spaces; a word longer than a line stays whole.
export function wrapLines(s: string, width: number, font: number): string[] {
  const per = Math.max(4, Math.floor(width / (font * 0.56)));
  const lines: string[] = [];
  let cur = "";
  for (const w of s.split(/\s+/).filter(Boolean)) {
    if (cur && cur.length + 1 + w.length > per) { lines.push(cur); cur = w; } else cur = cur ? `${cur} ${w}` : w;
  }
  if (cur) lines.push(cur);
  return lines;
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

// The screen cells of the view's squares that carry `mark` ("terrWhite").
export function markedCells(view: View, grid: Grid, mark: string): Cells {
  const cells: Cells = [];
  for (const [name, sq] of Object.entries(view.squares)) {
    const c = sq.marks?.includes(mark) ? grid.cell(name) : null;
    if (c) cells.push(c);
  }
  return cells;
}

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

// The focus ring of a focusable SVG element: a thin rectangle in board
// units, shown by app.css only while its parent has keyboard focus.  (A CSS
// outline on an SVG element is drawn in the viewBox's units and scaled up
// with the board: a 3 px outline became 150 px.)
export function focusRing(parent: Element, x: number, y: number, w: number, h: number, width = 0.06): SVGRectElement {
  return el("rect", { x: x - width, y: y - width, width: w + 2 * width, height: h + 2 * width,
    rx: Math.min(0.2, Math.min(w, h) / 4), class: "tav-focus", "stroke-width": width, "aria-hidden": "true" }, parent);
}

// A piece's name for people: a tooltip on hover (an SVG <title>) and, on a
// touch screen, said after a long press (half a second without moving much).
export function pieceName(target: Element, name: string, say?: (t: string) => void): void {
  const t = el("title", {}, target);
  t.textContent = name;
  target.setAttribute("data-name", name);
  if (!say) return;
  let timer = 0, fired = false, at: [number, number] = [0, 0], downAt = 0;
  const stop = () => { if (timer) { window.clearTimeout(timer); timer = 0; } };
  const fire = () => { stop(); fired = true; say(name); };
  target.addEventListener("pointerdown", (ev) => {
    const e = ev as PointerEvent;
    if (e.pointerType !== "touch") return;
    stop();
    at = [e.clientX, e.clientY];
    downAt = e.timeStamp;
    fired = false;
    timer = window.setTimeout(fire, 500);
  });
  // the tap that ends a long press only named the piece
  target.addEventListener("click", (ev) => { if (fired) { fired = false; ev.stopImmediatePropagation(); ev.preventDefault(); } }, true);
  target.addEventListener("pointermove", (ev) => {
    const e = ev as PointerEvent;
    if (timer && Math.hypot(e.clientX - at[0], e.clientY - at[1]) > 10) stop();
  });
  // Held half a second though the timer has not run yet (a busy page): the
  // release itself says the name.
  target.addEventListener("pointerup", (ev) => { if (timer && ev.timeStamp - downAt >= 500) fire(); else stop(); });
  target.addEventListener("pointercancel", stop);
  target.addEventListener("pointerleave", stop);
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
  focusRing(g, x, y, w, h, Math.min(0.07, h * 0.08));
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

// ---- The carried-piece board (Cathedral, Toscana) -----------------------------

const GOOD = "#2e9d46", BAD = "#d9362b", HINT = "#1c7ed6";
const FONT = "system-ui, sans-serif";

// A piece as it is carried: what it is (the parts' piece), its cells on the
// screen in the hand's orientation (quarter turn 0), and which of them are
// marked (Toscana's off-colour cells).
export interface Carried { piece: string; cells: Cells; marked: number[] }

// A placement looked up by what it covers: the piece, its squares and its
// marked squares (in any order).
export function placeKey(piece: string, squares: string[], marked: string[] = []): string {
  return `${piece}|${squares.slice().sort().join(",")}|${marked.slice().sort().join(",")}`;
}

// The piece a placement shows, turned back by its rotation to the hand's
// orientation: its squares on the screen (the hand's shape, wherever it
// lies), or `frame` when the board draws the hand's cells itself in the
// order of the parts' squares (Toscana); the marked cells are where the
// parts' marked squares are.
export function carriedOf(grid: Grid, lm: LegalMove, frame?: Cells): Carried | null {
  const p = lm.parts, cells: Cells = [];
  for (const sq of p.squares) {
    const c = grid.cell(sq);
    if (!c) return null;
    cells.push(c);
  }
  const marked = p.squares.map((sq, i) => ((p.marked ?? []).includes(sq) ? i : -1)).filter((i) => i >= 0);
  return { piece: p.piece ?? "", cells: frame ?? normalise(turn(cells, -(p.rotation ?? 0))), marked };
}

// How a board draws its ghost, the spots where the ghost's handle may go,
// the engine's hint and the keyboard cursor.
export interface CarryLook {
  spot: number;                                          // a spot's radius
  cell(marked: boolean, ok: boolean): [string, number];  // a ghost cell's fill and opacity
  edge: number;                                          // the ghost outline's width
  edgeFill(ok: boolean): string;                         // the fill of the outline path
  hintCell(marked: boolean): [string, number];           // a hinted square's fill and opacity
  hintEdge: number;
  cursor: [number, number];                              // the cursor's inset and line width
  label?(): string;                                      // the letter on the ghost's handle
}

// What a carried-piece board brings of its own.
export interface CarryGame {
  name: string;                    // data-game and the root group's class "tav-NAME"
  n: number;                       // squares on a side
  start: [number, number];         // where the keyboard cursor starts (screen cell)
  look: CarryLook;
  carried(): Carried | null;       // the piece being carried now, or null
  layout(root: SVGGElement, view: View): [number, number];   // draw all but the ghost; the viewBox size
  key?(k: string, ev: KeyboardEvent): boolean;   // its own keys, tried before the common ones
  escape(): boolean;               // Escape: drop what is held; whether it did anything
  idle(): void;                    // a click on the board with nothing carried: say why
  refused(offBoard: boolean): void;   // a ghost that is no legal move was placed: say why
  tapped?(ok: boolean): void;      // a tap moved the ghost (touch)
  submitted?(): void;              // a move went out
}

// The state and the input of a carried-piece board: one per board drawn.
// The pointer input (carryInput), the keys (R, the arrows, Enter, Escape),
// the ghost and its spots, the hint, the turn buttons and placing a piece
// live here once; a game draws its board and hands with it.
export class CarryBoard implements CarryState {
  ctx: BoardContext | null = null;
  view: View | null = null;
  legal: string[] = [];            // the legal moves' texts
  byText = new Map<string, LegalMove>();
  byKey = new Map<string, LegalMove>();   // placements by placeKey
  mover: Side | null = null;       // the side to act (null: no input)
  rot = 0;                         // quarter turns clockwise of the carried piece
  anchor: [number, number] | null = null;   // screen cell under the ghost's handle
  cursor = false;                  // the keyboard moved the anchor: draw the cursor
  pointerType = "mouse";
  pending = false;                 // a move was submitted; wait for the next draw
  grid: Grid;
  bx = 0; by = 0;                  // the board's origin in the viewBox
  wide = true;
  touches = new Map<number, [number, number]>();
  twist: number | null = null;
  hint: LegalMove | null = null;   // the engine's suggestion, shown until the next draw
  private resizeHooked = false;

  constructor(private game: CarryGame) {
    this.grid = new Grid(game.n, game.n, "white");
  }

  // A new position: its legal moves (with their parts) and the side to act.
  take(ctx: BoardContext, view: View, legal: LegalMove[], mover: Side | null): void {
    this.ctx = ctx;
    this.view = view;
    this.legal = legal.map((m) => m.move);
    this.byText = new Map(legal.map((m) => [m.move, m]));
    this.byKey = new Map(legal.filter((m) => m.parts.action === "place")
      .map((m) => [placeKey(m.parts.piece ?? "", m.parts.squares, m.parts.marked), m]));
    this.grid = new Grid(view.width || this.game.n, view.height || this.game.n, ctx.orientation);
    this.pending = false;
    this.hint = null;
    this.mover = legal.length ? mover : null;
    if (!legal.length) this.cursor = false;
  }

  // The legal placements (moves whose parts place a piece).
  placements(): LegalMove[] {
    return [...this.byKey.values()];
  }

  // Turn to a quarter turn with room, draw, and redraw when the screen turns
  // between wide and tall.
  show(): void {
    this.turnToRoom();
    this.render();
    if (!this.resizeHooked && typeof window !== "undefined") {
      this.resizeHooked = true;
      window.addEventListener("resize", () => { if (this.ctx && this.view && wideScreen() !== this.wide) this.render(); });
    }
  }

  // Forget the half-made move.
  reset(): void {
    this.complaint = null;
    this.hint = null;
    this.rot = 0;
    this.anchor = null;
    this.cursor = false;
    this.pending = false;
  }

  // The carried piece's screen cells with its handle at cell a, turned rot.
  cellsAt(a: [number, number], rot: number, c: Carried): Cells {
    const h = handle(c.cells);
    return turn(c.cells.map(([x, y]) => [x - h[0], y - h[1]] as [number, number]), rot)
      .map(([x, y]) => [x + a[0], y + a[1]] as [number, number]);
  }

  // The legal move the carried piece makes with its handle at a, turned rot:
  // null when a square is off the board, undefined when it is no legal move.
  moveAt(a: [number, number], rot: number, c: Carried): LegalMove | null | undefined {
    const names: string[] = [], marked: string[] = [];
    const cells = this.cellsAt(a, rot, c);
    for (let i = 0; i < cells.length; i++) {
      const n = this.grid.square(cells[i][0], cells[i][1]);
      if (!n) return null;
      names.push(n);
      if (c.marked.includes(i)) marked.push(n);
    }
    return this.byKey.get(placeKey(c.piece, names, marked));
  }

  // The ghost at the anchor: its screen cells, the move it makes ("" when
  // none), whether it is legal and whether it lies on the board.
  ghost(): { cells: Cells; move: string; ok: boolean; onBoard: boolean } | null {
    const c = this.game.carried();
    if (!c || !this.anchor || this.pending || !this.mover) return null;
    const m = this.moveAt(this.anchor, this.rot, c);
    return { cells: this.cellsAt(this.anchor, this.rot, c), move: m?.move ?? "", ok: !!m, onBoard: m !== null };
  }

  // The screen cells where the carried piece's handle may go in quarter turn rot.
  spots(rot: number): [number, number][] {
    const out: [number, number][] = [];
    const c = this.game.carried();
    if (!c) return out;
    for (let r = 0; r < this.game.n; r++) for (let x = 0; x < this.game.n; x++) {
      if (this.moveAt([x, r], rot, c)) out.push([x, r]);
    }
    return out;
  }

  // Turn the piece to the first quarter turn that has room, when the one
  // chosen has none (a new piece, or a new position).
  turnToRoom(): void {
    if (!this.game.carried() || this.spots(this.rot).length) return;
    for (let d = 1; d < 4; d++) {
      if (this.spots((this.rot + d) % 4).length) { this.rot = (this.rot + d) % 4; return; }
    }
  }

  rotate(d: number): void {
    if (!this.game.carried() || this.pending) return;
    this.rot = (this.rot + d + 4) % 4;
    this.render();
  }

  submit(move: string): void {
    if (this.pending || !this.byText.has(move) || !this.ctx) return;
    this.pending = true;
    this.cursor = false;
    this.game.submitted?.();
    this.drawGhost();
    this.ctx.submit(move);
  }

  // Place the ghost where it is: submit its move, or say why not.
  place(): void {
    const g = this.ghost();
    if (!g) return;
    if (g.ok) this.submit(g.move);
    else { this.game.refused(!g.onBoard); this.complained(); }
  }

  // The board said why the ghost cannot go where it is: that message holds
  // for this spot and this turn only, and goes once the ghost moves or turns.
  complaint: string | null = null;
  complained(): void {
    this.complaint = `${this.anchor?.join(",")}|${this.rot}|${this.game.carried()?.piece ?? ""}`;
  }
  private forgetComplaint(): void {
    if (this.complaint === null) return;
    if (this.complaint === `${this.anchor?.join(",")}|${this.rot}|${this.game.carried()?.piece ?? ""}`) return;
    this.complaint = null;
    this.ctx?.say("");
  }

  // A click or tap on the board: the mouse places at once; on a touch screen
  // a tap moves the ghost there and a second tap on the same square places it.
  click(ev: MouseEvent): void {
    const c = squareOf(this.grid, ev);
    if (!c || !this.legal.length || this.pending) return;
    if (!this.game.carried()) { this.game.idle(); return; }
    if (this.pointerType === "touch") {
      const g = this.ghost();
      const again = this.anchor && this.anchor[0] === c[0] && this.anchor[1] === c[1];
      if (g && g.ok && again) { this.submit(g.move); return; }
      this.anchor = c;
      this.cursor = false;
      this.drawGhost();
      const g2 = this.ghost();
      if (g2) { this.game.tapped?.(g2.ok); if (!g2.ok) this.complained(); }
      return;
    }
    this.anchor = c;
    this.cursor = false;
    this.drawGhost();
    this.place();
  }

  // A key while the board has focus: the game's own, then R (Shift+R) turns,
  // the arrows carry the ghost, Enter or Space places it (or passes when
  // that is the only move), Escape drops what is held.
  key(ev: KeyboardEvent): boolean {
    if (wasHandled(ev)) return true;
    if (!this.legal.length || this.pending || ev.ctrlKey || ev.metaKey || ev.altKey) return false;
    const k = ev.key;
    const carrying = !!this.game.carried();
    let done = this.game.key?.(k, ev) ?? false;
    if (done) { /* the game's own key */ }
    else if (carrying && (k === "r" || k === "R")) { this.rotate(ev.shiftKey ? -1 : 1); done = true; }
    else if (carrying && arrowStep(this, k, this.game.n, this.game.start, () => this.drawGhost())) done = true;
    else if (k === "Enter" || k === " ") {
      if (carrying && this.anchor) { this.place(); done = true; }
      else if (this.legal.length === 1 && this.legal[0] === "pass") { this.submit("pass"); done = true; }
    } else if (k === "Escape") done = this.game.escape();
    if (done) markHandled(ev);
    return done;
  }

  // Show the engine's suggestion (one of the legal moves) until the next
  // draw: a placement's squares, or the button to press.
  showHint(ctx: BoardContext, move: string): boolean {
    const lm = this.byText.get(move);
    if (ctx !== this.ctx || !lm) return false;
    this.hint = lm;
    if (lm.parts.action !== "place") markHintButton(ctx.svg, move);
    return true;
  }

  // Draw everything: the game's layout, then the ghost; focus stays where it was.
  render(): void {
    const ctx = this.ctx, view = this.view;
    if (!ctx || !view) return;
    const svg = ctx.svg;
    const keep = focusedKey(svg);
    clear(svg);
    this.wide = wideScreen();
    // data-sig names what is drawn (the last move and the legal moves
    // offered), so a test can wait for the drawing of the position it expects
    const root = el("g", { class: `tav-${this.game.name}`, "data-game": this.game.name, "data-sig": drawnSig(view, this.legal) }, svg);
    root.addEventListener("keydown", (ev) => { if (this.key(ev as KeyboardEvent)) { ev.preventDefault(); ev.stopPropagation(); } });
    const [w, h] = this.game.layout(root, view);
    svg.setAttribute("viewBox", `0 0 ${w.toFixed(2)} ${h.toFixed(2)}`);
    this.drawGhost();
    refocus(svg, keep);
  }

  // The board: a focusable group of n x n squares (each a rect with
  // data-square and an aria-label), decorations drawn by `deco` above them,
  // the coordinates around it, the ghost's layer on top, the pointer input.
  drawBoard(root: Element, o: {
    aria: string; fill(name: string): string; stroke(name: string): string; label(name: string): string;
    deco(layer: SVGGElement): void; margin: number; coords: number; piece?(name: string): string;
  }): SVGGElement {
    const { bx, by, grid } = this, n = this.game.n;
    const board = el("g", {
      class: "tav-board", "data-key": "board", tabindex: 0, role: "group", "aria-label": o.aria,
      style: "touch-action:none; outline:none",
    }, root);
    for (let r = 0; r < n; r++) for (let c = 0; c < n; c++) {
      const name = grid.square(c, r)!;
      const sq = el("rect", {
        x: bx + c, y: by + r, width: 1, height: 1, fill: o.fill(name), stroke: o.stroke(name), "stroke-width": 0.03,
        "data-square": name, role: "img", "aria-label": o.label(name),
      }, board);
      const what = o.piece?.(name);
      if (what) pieceName(sq, what);
    }
    o.deco(el("g", { "pointer-events": "none" }, board));
    focusRing(board, bx, by, n, n, 0.06);
    const at = { "text-anchor": "middle", "dominant-baseline": "central", "font-size": o.coords, "font-family": FONT,
      fill: "currentColor", opacity: 0.7 };
    for (let i = 0; i < n; i++) {
      text(root, bx + i + 0.5, by + n + o.margin * 0.5, grid.square(i, n - 1)![0], at);
      text(root, bx - o.margin * 0.5, by + i + 0.5, grid.square(0, i)!.slice(1), at);
    }
    el("g", { class: "tav-ghost", "pointer-events": "none" }, board);
    carryInput(board, this, { carrying: () => !!this.game.carried(), rotate: (d) => this.rotate(d),
      drawGhost: () => this.drawGhost(), click: (ev) => this.click(ev) });
    return board;
  }

  // The two turn buttons (anticlockwise, clockwise) at (x, y), each w x h;
  // returns the x after them.
  turnButtons(parent: Element, x: number, y: number, w: number, h: number, what: string, font: number): number {
    const disabled = !this.game.carried();
    button(parent, x, y, w, h, "⟲", { key: "rot-left", aria: t("kit.turnLeft", { what }),
      disabled, onPress: () => this.rotate(-1), font });
    button(parent, x + w + h * 0.2, y, w, h, "⟳", { key: "rot-right", aria: t("kit.turnRight", { what }),
      disabled, onPress: () => this.rotate(1), font });
    return x + 2 * w + h * 0.2;
  }

  // Redraw the ghost, its spots, the hint and the keyboard cursor only.
  drawGhost(): void {
    const svg = this.ctx?.svg;
    if (!svg) return;
    const layer = svg.querySelector(".tav-ghost");
    const root = svg.querySelector(`.tav-${this.game.name}`);
    if (!layer || !root) return;
    while (layer.firstChild) layer.removeChild(layer.firstChild);
    const { bx, by, grid } = this, n = this.game.n, look = this.game.look;
    this.forgetComplaint();
    const c = this.game.carried();
    const g = this.ghost();
    root.setAttribute("data-ghost", g ? g.move : "");
    root.setAttribute("data-ghost-legal", g && g.ok ? "1" : "0");
    root.setAttribute("data-anchor", this.anchor ? grid.square(this.anchor[0], this.anchor[1]) ?? "" : "");
    root.setAttribute("data-rot", String(this.rot));
    // where the handle may go in this turn: small dots
    if (c && this.mover && !this.pending) {
      for (const [x, y] of this.spots(this.rot)) {
        el("circle", { cx: bx + x + 0.5, cy: by + y + 0.5, r: look.spot, fill: GOOD, opacity: 0.85, class: "tav-spot",
          "data-spot": grid.square(x, y)! }, layer);
      }
    }
    if (g && c) {
      const inside: Cells = [];
      g.cells.forEach(([x, y], i) => {
        if (x < 0 || y < 0 || x >= n || y >= n) return;
        inside.push([x, y]);
        const [fill, opacity] = look.cell(c.marked.includes(i), g.ok);
        el("rect", { x: bx + x, y: by + y, width: 1, height: 1, fill, opacity }, layer);
      });
      el("path", { d: outlinePath(inside, bx, by, 1), stroke: g.ok ? GOOD : BAD, "stroke-width": look.edge,
        fill: look.edgeFill(g.ok) }, layer);
      const a = this.anchor!, label = look.label?.() ?? "";
      if (label && a[0] >= 0 && a[1] >= 0 && a[0] < n && a[1] < n) {
        text(layer, bx + a[0] + 0.5, by + a[1] + 0.5, label, { "text-anchor": "middle", "dominant-baseline": "central",
          "font-size": 0.55, "font-family": FONT, "font-weight": 700, fill: "#fff" });
      }
    }
    if (this.hint && this.hint.parts.action === "place") {
      const p = this.hint.parts;
      const hg = el("g", { class: "tav-hint", "data-move": this.hint.move }, layer);
      const cells: Cells = [];
      for (const sq of p.squares) {
        const xy = grid.cell(sq);
        if (!xy) continue;
        cells.push(xy);
        const [fill, opacity] = look.hintCell((p.marked ?? []).includes(sq));
        el("rect", { x: bx + xy[0], y: by + xy[1], width: 1, height: 1, fill, opacity }, hg);
      }
      el("path", { d: outlinePath(cells, bx, by, 1), stroke: HINT, "stroke-width": look.hintEdge, fill: "none",
        "stroke-dasharray": "0.3 0.15" }, hg);
    }
    if (this.cursor && this.anchor) {
      const [inset, width] = look.cursor;
      el("rect", { x: bx + this.anchor[0] + inset, y: by + this.anchor[1] + inset, width: 1 - 2 * inset,
        height: 1 - 2 * inset, fill: "none", stroke: "#fab005", "stroke-width": width, class: "tav-cursor" }, layer);
    }
  }
}
