// squareboard.ts — what the Urbino and Epaminondas boards share: a board of
// square cells drawn in SVG where every square is a focusable group with
// data-square and an aria-label, coordinates around it, one square reachable
// by Tab at a time (the arrows move between squares, Enter or Space acts like a
// click), and focus kept on the same square across a redraw.
//
// Colours come from CSS classes (app.css), so the light and dark themes apply.

import type { BoardContext, BoardModule, LegalMove, MoveParts, Side, View } from "../types";
import { el, focusRing, Grid, text } from "./boardkit";

export interface SquareBoard {
  grid: Grid;
  root: SVGGElement;       // the board's group (origin at the top-left square)
  cells: Map<string, SVGGElement>;
}

// The square that had keyboard focus inside svg, to focus it again after a redraw.
export function focusedSquare(svg: SVGSVGElement): string | null {
  const a = document.activeElement;
  if (!a || !svg.contains(a)) return null;
  return a.getAttribute("data-square");
}

// Draw the squares of a w x h board at (ox, oy) in `parent`, one unit each.
// `cls(name)` gives extra classes, `label(name)` the aria-label, `activate`
// is called on click / Enter / Space.  `cursor` is the square that takes Tab.
export function drawSquares(parent: Element, w: number, h: number, side: Side, ox: number, oy: number,
  opts: {
    cls: (name: string) => string;
    label: (name: string) => string;
    activate: (name: string) => void;
    cursor: string | null;
    onCursor: (name: string) => void;
    prefix: string;
  }): SquareBoard {
  const grid = new Grid(w, h, side);
  const root = el("g", { class: `${opts.prefix}-board`, transform: `translate(${ox} ${oy})`, role: "grid" }, parent);
  const cells = new Map<string, SVGGElement>();
  const cursor = opts.cursor && grid.cell(opts.cursor) ? opts.cursor : grid.square(0, h - 1);
  for (let r = 0; r < h; r++) {
    const row = el("g", { role: "row" }, root);
    for (let c = 0; c < w; c++) {
      const name = grid.square(c, r) as string;
      const g = el("g", {
        class: `sq ${opts.cls(name)}`, "data-square": name, "data-key": `sq-${name}`, role: "gridcell",
        tabindex: name === cursor ? 0 : -1, "aria-label": opts.label(name), transform: `translate(${c} ${r})`,
      }, row);
      el("rect", { class: "sq-bg", x: 0, y: 0, width: 1, height: 1 }, g);
      focusRing(g, 0.08, 0.08, 0.84, 0.84, 0.06);
      g.addEventListener("click", (ev) => {
        ev.preventDefault();
        opts.onCursor(name);
        opts.activate(name);
      });
      g.addEventListener("keydown", (ev) => {
        const k = (ev as KeyboardEvent).key;
        const d: Record<string, [number, number]> = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
        if (d[k]) {
          ev.preventDefault();
          ev.stopPropagation();
          const nc = Math.max(0, Math.min(w - 1, c + d[k][0]));
          const nr = Math.max(0, Math.min(h - 1, r + d[k][1]));
          const next = grid.square(nc, nr) as string;
          const ng = cells.get(next);
          if (ng) {
            g.setAttribute("tabindex", "-1");
            ng.setAttribute("tabindex", "0");
            ng.focus({ preventScroll: true });
            opts.onCursor(next);
          }
        } else if (k === "Enter" || k === " ") {
          ev.preventDefault();
          ev.stopPropagation();
          opts.onCursor(name);
          opts.activate(name);
        }
      });
      cells.set(name, g);
    }
  }
  return { grid, root, cells };
}

// File letters under the board and rank numbers to its left.
export function drawCoordinates(parent: Element, grid: Grid, ox: number, oy: number, size = 0.36): void {
  const g = el("g", { class: "coords", "aria-hidden": "true", "pointer-events": "none" }, parent);
  for (let c = 0; c < grid.w; c++) {
    const name = grid.square(c, grid.h - 1) as string;
    text(g, ox + c + 0.5, oy + grid.h + size * 1.05, name.charAt(0), { "text-anchor": "middle", "font-size": size });
  }
  for (let r = 0; r < grid.h; r++) {
    const name = grid.square(0, r) as string;
    text(g, ox - size * 0.9, oy + r + 0.5, name.slice(1), { "text-anchor": "middle", "dominant-baseline": "central", "font-size": size });
  }
}

// An SVG button for the board's strip (keyboard and pointer).
export function stripButton(parent: Element, x: number, y: number, w: number, hgt: number, label: string,
  opts: { key: string; onPress: () => void; selected?: boolean; disabled?: boolean; aria?: string }): SVGGElement {
  const g = el("g", {
    class: "sb-btn" + (opts.selected ? " selected" : "") + (opts.disabled ? " disabled" : ""),
    role: "button", tabindex: opts.disabled ? -1 : 0, "data-key": opts.key,
    "aria-label": opts.aria ?? label, "aria-disabled": opts.disabled ? "true" : "false",
    "aria-pressed": opts.selected ? "true" : "false",
  }, parent);
  el("rect", { x, y, width: w, height: hgt, rx: 0.14 }, g);
  text(g, x + w / 2, y + hgt / 2, label, { "text-anchor": "middle", "dominant-baseline": "central", "font-size": Math.max(hgt * 0.42, 0.36), "pointer-events": "none" });
  focusRing(g, x, y, w, hgt, 0.06);
  if (!opts.disabled) {
    g.addEventListener("click", (ev) => { ev.stopPropagation(); opts.onPress(); });
    g.addEventListener("keydown", (ev) => {
      const k = (ev as KeyboardEvent).key;
      if (k === "Enter" || k === " ") { ev.preventDefault(); ev.stopPropagation(); opts.onPress(); }
    });
  }
  return g;
}

// Focus again the element of the same data-key after a redraw.
export function refocusKey(svg: SVGSVGElement, key: string | null): void {
  if (!key) return;
  const e = svg.querySelector(`[data-key="${CSS.escape(key)}"]`) as SVGElement | null;
  if (e) {
    if (e.getAttribute("tabindex") !== "0") {
      svg.querySelectorAll('[data-square][tabindex="0"]').forEach((x) => x.setAttribute("tabindex", "-1"));
      e.setAttribute("tabindex", "0");
    }
    e.focus({ preventScroll: true });
  }
}

export function focusedKeyIn(svg: SVGSVGElement): string | null {
  const a = document.activeElement;
  if (!a || !svg.contains(a)) return null;
  return a.getAttribute("data-key");
}

export function clearSvg(svg: SVGSVGElement): void {
  while (svg.firstChild) svg.removeChild(svg.firstChild);
}

// What every square board keeps: the position drawn, its legal moves, and
// the squares of the engine's hint (framed until the next new position).
export interface SquareState { ctx: BoardContext | null; view: View | null; legal: LegalMove[]; hint: string[] }

// Take a position to draw.  True when it is a new one (other legal moves
// than the last drawing's): the half-made move is forgotten then (reset).
export function takePosition(st: SquareState, ctx: BoardContext, view: View, legal: LegalMove[],
  reset: () => void): boolean {
  const fresh = st.legal.length !== legal.length || st.legal.some((m, i) => m.move !== legal[i].move);
  st.ctx = ctx;
  st.view = view;
  if (fresh) reset();
  st.legal = legal;
  return fresh;
}

// A square board as a module: each draw takes the position (a new one
// forgets the half-made move and the hint: reset) and paints it into the
// cleared svg of the given size, focus kept on the same element; Escape
// forgets the half-made move; a hint frames every square of the move's parts
// (and tells `hinted`).  `render` repaints.
export function squareModule(st: SquareState, o: {
  help: string;
  size: [number, number];
  paint(ctx: BoardContext, view: View, svg: SVGSVGElement): void;
  reset(): void;
  drawn?(ctx: BoardContext, fresh: boolean): void;
  key?(ctx: BoardContext, ev: KeyboardEvent): boolean;
  hinted?(p: MoveParts): void;
}): BoardModule & { render(): void } {
  const reset = (): void => {
    st.hint = [];
    o.reset();
  };
  const render = (): void => {
    const ctx = st.ctx, view = st.view;
    if (!ctx || !view) return;
    const svg = ctx.svg;
    const focusKey = focusedKeyIn(svg);
    clearSvg(svg);
    svg.setAttribute("viewBox", `0 0 ${o.size[0].toFixed(2)} ${o.size[1].toFixed(2)}`);
    o.paint(ctx, view, svg);
    refocusKey(svg, focusKey);
  };
  return {
    help: o.help,
    render,
    draw(ctx: BoardContext, view: View, legal: LegalMove[]): void {
      const fresh = takePosition(st, ctx, view, legal, reset);
      render();
      o.drawn?.(ctx, fresh);
    },
    key(ctx: BoardContext, ev: KeyboardEvent): boolean {
      if (o.key?.(ctx, ev)) return true;
      if (ev.key !== "Escape") return false;
      reset();
      ctx.say("");
      render();
      return true;
    },
    reset,
    hint(_ctx: BoardContext, move: string): void {
      const p = st.legal.find((m) => m.move === move)?.parts;
      st.hint = p ? [p.from, p.to, ...p.squares].filter((x): x is string => !!x) : [];
      if (p) o.hinted?.(p);
      render();
    },
  };
}

