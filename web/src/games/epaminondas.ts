// epaminondas.ts — the Epaminondas board (14 files x 12 ranks).
//
// Drawn from the server's view only: the pieces, both home rows (marks
// homeWhite / homeBlack), the last move, and a warning when one side leads on
// the far rows (its pieces on the other's home row outnumber the other's on
// its own): the side to move must answer that crossing at once.
//
// Input is built only out of the legal moves' parts (never the notation):
//   a phalanx   click its rear piece, then its front piece, then a landing
//               square (the landings are dotted, captures ringed in red with
//               the enemy pieces they would take, the parts' marked squares,
//               crossed out);
//   one piece   click it, then its target square.
// Clicking a picked piece again drops it; Escape drops everything.  Keyboard:
// Tab reaches the board, the arrows move between squares, Enter or Space
// clicks.
//
// What needs no DOM (what a click does and submits, the squares offered, the
// crossing warning, the labels and classes) is in epaminondaskit.ts.

import type { BoardContext, BoardModule, LegalMove, View } from "../types";
import { el, text } from "./boardkit";
import { t as tr } from "../i18n";
import { drawCoordinates, drawSquares, squareModule } from "./squareboard";
import { crossingWarning, epaminondasClick, epaminondasMarks, FH, FW, prompt, squareClass, squareLabel } from "./epaminondaskit";

// How to move, for the rules dialog.
const HELP = (): string => tr("epa.help");

const OX = 0.7, OY = 1.05;
const W = OX + FW + 0.3;
const H = OY + FH + 0.6;

// ---- One board -------------------------------------------------------------------------

export function epaminondas(): BoardModule {
  const st = {
    rear: null as string | null,
    front: null as string | null,
    cursor: null as string | null,
    hint: [] as string[],
    ctx: null as BoardContext | null,
    view: null as View | null,
    legal: [] as LegalMove[],
  };

  // A click (or Enter) on a square: the half-made move goes on, or a move is submitted.
  function activate(name: string): void {
    const ctx = st.ctx;
    if (!ctx) return;
    const r = epaminondasClick(st, st.legal, st.view, name);
    if (r.submit !== undefined) ctx.submit(r.submit);
    if (r.reset) board.reset();
    if (r.say !== undefined) ctx.say(r.say);
    if (r.render) render();
  }

  function paint(ctx: BoardContext, view: View, svg: SVGSVGElement): void {
    const root = el("g", { class: "tav-epaminondas" }, svg);
    const squares = view.squares ?? {};
    const mk = epaminondasMarks(st, st.legal);
    const { picked, targets, fronts, doomed } = mk;
    const hint = new Set(st.hint);

    // The crossing warning.
    const warn = crossingWarning(view);
    if (warn) {
      const g = el("g", { class: "warning", role: "alert", "aria-label": warn, "data-warning": "crossing" }, root);
      el("rect", { x: OX, y: 0.12, width: FW, height: 0.74, rx: 0.15 }, g);
      const t = text(g, OX + FW / 2, 0.49, "⚠ " + warn, { "text-anchor": "middle", "dominant-baseline": "central", "font-size": 0.3 });
      // Squeezed into the box on a narrow font.
      try {
        if (t.getComputedTextLength() > FW - 0.5) {
          t.setAttribute("textLength", (FW - 0.5).toFixed(2));
          t.setAttribute("lengthAdjust", "spacingAndGlyphs");
        }
      } catch {
        /* not laid out */
      }
    } else {
      const msg = prompt(st, st.legal, st.view, mk);
      if (msg) text(root, OX + FW / 2, 0.49, msg, { class: "strip-label", "text-anchor": "middle", "dominant-baseline": "central", "font-size": 0.34 });
    }

    const board = drawSquares(root, FW, FH, ctx.orientation, OX, OY, {
      prefix: "e",
      cursor: st.cursor,
      onCursor: (n) => { st.cursor = n; },
      activate,
      label: (n) => squareLabel(n, view, mk, st),
      cls: (n) => squareClass(n, view, mk, st),
    });

    for (const [n, g] of board.cells) {
      const sq = squares[n];
      if ((sq?.marks ?? []).includes("last")) el("rect", { class: "last-frame", x: 0.04, y: 0.04, width: 0.92, height: 0.92 }, g);
      if (sq?.kind) {
        el("circle", { class: `stone ${sq.owner}` + (picked.has(n) ? " picked" : ""), cx: 0.5, cy: 0.5, r: 0.38 }, g);
        if (picked.has(n)) el("circle", { class: "pick-ring", cx: 0.5, cy: 0.5, r: 0.45 }, g);
        if (fronts.has(n)) el("circle", { class: "front-ring", cx: 0.5, cy: 0.5, r: 0.45 }, g);
        if (doomed.has(n)) el("path", { class: "doomed", d: "M0.22 0.22L0.78 0.78M0.78 0.22L0.22 0.78" }, g);
      }
      const t = targets.get(n);
      if (t) {
        if (t.captured.length) el("circle", { class: "capture-ring", cx: 0.5, cy: 0.5, r: 0.44 }, g);
        else el("circle", { class: "dot", cx: 0.5, cy: 0.5, r: 0.14 }, g);
      }
      if (hint.has(n)) el("rect", { class: "hint-frame", x: 0.06, y: 0.06, width: 0.88, height: 0.88, rx: 0.12 }, g);
    }
    drawCoordinates(root, board.grid, OX, OY, 0.34);
  }

  // Forget the pieces picked.
  const board = squareModule(st, { get help() { return HELP(); }, size: [W, H], paint, reset: () => { st.rear = null; st.front = null; } });
  const render = board.render;
  return board;
}
