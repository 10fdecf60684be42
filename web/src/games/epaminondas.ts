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

import type { BoardContext, BoardModule, LegalMove, Side, View } from "../types";
import { el, parseSquare, text } from "./boardkit";
import { drawCoordinates, drawSquares, squareModule } from "./squareboard";

// How to move, for the rules dialog.
const HELP = "click the rear stone of the phalanx you move, then its front stone, then the landing square (a single " +
  "stone: click it, then its target). Captures are ringed in red, the stones they take crossed out. Tab reaches " +
  "the board; the arrows move between squares and Enter clicks.";

const FW = 14, FH = 12;
const OX = 0.7, OY = 1.05;
const W = OX + FW + 0.3;
const H = OY + FH + 0.6;

// A move, from its parts: the phalanx (line, rear to front), where its front
// piece lands, and the enemy pieces a capture takes.
interface Mv { rear: string; front: string; line: string[]; to: string; captured: string[]; move: string }

function phalanxMoves(legal: LegalMove[]): Mv[] {
  const out: Mv[] = [];
  for (const { move, parts: p } of legal) {
    if (p.action !== "move" || !p.squares.length || !p.to) continue;
    out.push({ rear: p.squares[0], front: p.squares[p.squares.length - 1], line: p.squares, to: p.to,
      captured: p.marked ?? [], move });
  }
  return out;
}

// ---- Drawing ----------------------------------------------------------------------------

function farRows(view: View): { white: number; black: number } {
  // Pieces of each side standing on the other's home row.
  let white = 0, black = 0;
  for (const [n, sq] of Object.entries(view.squares ?? {})) {
    if (sq.kind !== "M") continue;
    const p = parseSquare(n);
    if (!p) continue;
    if (sq.owner === "white" && p[1] === FH - 1) white++;
    if (sq.owner === "black" && p[1] === 0) black++;
  }
  return { white, black };
}

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

  function owner(name: string): Side | null {
    const sq = st.view?.squares?.[name];
    return sq?.kind && (sq.owner === "white" || sq.owner === "black") ? sq.owner : null;
  }

  function activate(name: string): void {
    const ctx = st.ctx;
    if (!ctx || !st.legal.length) return;
    const moves = phalanxMoves(st.legal);
    const rears = new Set(moves.map((m) => m.rear));
    if (st.rear && st.front) {
      const hit = moves.find((m) => m.rear === st.rear && m.front === st.front && m.to === name);
      if (hit) return ctx.submit(hit.move);
      if (name === st.front) { st.front = null; return render(); }
      if (name === st.rear) { board.reset(); ctx.say(""); return render(); }
      if (moves.some((m) => m.rear === st.rear && m.front === name && m.front !== m.rear)) { st.front = name; return render(); }
      if (rears.has(name)) { st.rear = name; st.front = null; return render(); }
      ctx.say("Click a dotted square to move the phalanx there, or pick other pieces.");
      return;
    }
    if (st.rear) {
      if (name === st.rear) { board.reset(); ctx.say(""); return render(); }
      const single = moves.find((m) => m.rear === st.rear && m.front === st.rear && m.to === name);
      if (single) return ctx.submit(single.move);
      if (moves.some((m) => m.rear === st.rear && m.front === name && m.front !== m.rear)) {
        st.front = name;
        ctx.say("Now click where the front piece lands.");
        return render();
      }
      if (rears.has(name)) { st.rear = name; return render(); }
      ctx.say("Click the front piece of the phalanx, or a dotted square to move this piece alone.");
      return;
    }
    if (rears.has(name)) {
      st.rear = name;
      ctx.say("Click the front piece of the phalanx, or a dotted square to move this piece alone.");
      return render();
    }
    ctx.say(owner(name) ? "That piece cannot move." : "Click one of your pieces.");
  }

  function paint(ctx: BoardContext, view: View, svg: SVGSVGElement): void {
    const root = el("g", { class: "tav-epaminondas" }, svg);
    const squares = view.squares ?? {};
    const moves = phalanxMoves(st.legal);
    const rears = new Set(moves.map((m) => m.rear));
    const picked = new Set<string>();
    const targets = new Map<string, Mv>();
    const fronts = new Set<string>();
    const doomed = new Set<string>();
    if (st.rear && st.front) {
      for (const m of moves) {
        if (m.rear !== st.rear || m.front !== st.front) continue;
        targets.set(m.to, m);
        for (const s of m.line) picked.add(s);
      }
    } else if (st.rear) {
      picked.add(st.rear);
      for (const m of moves) {
        if (m.rear !== st.rear) continue;
        if (m.front === m.rear) targets.set(m.to, m);
        else fronts.add(m.front);
      }
    }
    for (const m of targets.values()) for (const s of m.captured) doomed.add(s);
    const hint = new Set(st.hint);

    // The crossing warning.
    const far = farRows(view);
    let warn = "";
    if (view.phase !== "over") {
      if (far.white > far.black) warn = `White leads ${far.white}:${far.black} on the far rows: black must capture or cross now, or lose.`;
      else if (far.black > far.white) warn = `Black leads ${far.black}:${far.white} on the far rows: white must capture or cross now, or lose.`;
    }
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
      const mover = st.legal.length ? owner(moves[0]?.rear ?? "") : null;
      const msg = mover ? (st.rear ? (st.front ? "Click a dotted square to land." : "Click the front piece, or a dotted square.") : "Click the rear piece of the phalanx you move.") : "";
      if (msg) text(root, OX + FW / 2, 0.49, msg, { class: "strip-label", "text-anchor": "middle", "dominant-baseline": "central", "font-size": 0.34 });
    }

    const board = drawSquares(root, FW, FH, ctx.orientation, OX, OY, {
      prefix: "e",
      cursor: st.cursor,
      onCursor: (n) => { st.cursor = n; },
      activate,
      label: (n) => {
        const sq = squares[n];
        let l = n + (sq?.kind ? `, ${sq.owner} piece` : ", empty");
        const marks = sq?.marks ?? [];
        if (marks.includes("homeWhite")) l += ", white's home row";
        if (marks.includes("homeBlack")) l += ", black's home row";
        if (marks.includes("last")) l += ", last move";
        if (picked.has(n)) l += ", picked";
        const t = targets.get(n);
        if (t) l += t.captured.length ? ", capture here" : ", land here";
        else if (fronts.has(n)) l += ", front piece choice";
        else if (!st.rear && rears.has(n)) l += ", can move";
        if (doomed.has(n)) l += ", would be captured";
        return l;
      },
      cls: (n) => {
        const sq = squares[n];
        const p = parseSquare(n) as [number, number];
        const c: string[] = [(p[0] + p[1]) % 2 ? "light" : "dark"];
        const marks = sq?.marks ?? [];
        if (marks.includes("homeWhite")) c.push("home-white");
        if (marks.includes("homeBlack")) c.push("home-black");
        if (marks.includes("last")) c.push("last");
        if (targets.has(n)) c.push("target");
        if (rears.has(n) && !st.rear) c.push("movable");
        return c.join(" ");
      },
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
    drawCoordinates(root, board.grid, OX, OY, 0.3);
  }

  // Forget the pieces picked.
  const board = squareModule(st, { help: HELP, size: [W, H], paint, reset: () => { st.rear = null; st.front = null; } });
  const render = board.render;
  return board;
}
