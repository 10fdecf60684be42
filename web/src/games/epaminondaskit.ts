// epaminondaskit.ts — the pure part of the Epaminondas board
// (epaminondas.ts): what it reads from the view and from the legal moves'
// parts, with no DOM: the phalanx moves, what a click on a square does to
// the half-made move (and which move it submits), which squares are offered,
// the crossing warning, the squares' labels and classes.  Tested in node
// (tests/web/unit).

import type { LegalMove, Side, View } from "../types";
import { parseSquare } from "./boardkit";
import { t as tr } from "../i18n";

export const FW = 14, FH = 12;    // files, ranks

// A move, from its parts: the phalanx (line, rear to front), where its front
// piece lands, and the enemy pieces a capture takes.
export interface Mv { rear: string; front: string; line: string[]; to: string; captured: string[]; move: string }

export function phalanxMoves(legal: LegalMove[]): Mv[] {
  const out: Mv[] = [];
  for (const { move, parts: p } of legal) {
    if (p.action !== "move" || !p.squares.length || !p.to) continue;
    out.push({ rear: p.squares[0], front: p.squares[p.squares.length - 1], line: p.squares, to: p.to,
      captured: p.marked ?? [], move });
  }
  return out;
}

// Pieces of each side standing on the other's home row.
export function farRows(view: View): { white: number; black: number } {
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

// The warning when one side leads on the far rows ("" when none, or over).
export function crossingWarning(view: View): string {
  const far = farRows(view);
  if (view.phase === "over") return "";
  if (far.white > far.black) return tr("epa.leads", { side: tr("side.white"), a: far.white, b: far.black, other: tr("sidel.black") });
  if (far.black > far.white) return tr("epa.leads", { side: tr("side.black"), a: far.black, b: far.white, other: tr("sidel.white") });
  return "";
}

// The owner of the piece on a square, or null.
export function pieceOwner(view: View | null, name: string): Side | null {
  const sq = view?.squares?.[name];
  return sq?.kind && (sq.owner === "white" || sq.owner === "black") ? sq.owner : null;
}

// The half-made move: the rear piece picked, then the front piece.
export interface EpaminondasPick { rear: string | null; front: string | null }

// What a click does: the move to submit, whether the half-made move is
// dropped (reset), what to say, whether to redraw.
export interface Step { submit?: string; reset?: boolean; say?: string; render?: boolean }

// What to click once the rear piece `rear` is picked, named by what the
// board draws: the front pieces it may lead are the player's own pieces ringed
// with a dashed circle; the squares it may reach alone are dotted (a red ring:
// a capture, which only a phalanx makes).
export function afterRear(moves: Mv[], rear: string): string {
  const fronts = moves.some((m) => m.rear === rear && m.front !== rear);
  const alone = moves.some((m) => m.rear === rear && m.front === rear);
  if (fronts && alone) return tr("epa.clickFrontOrAlone");
  if (fronts) return tr("epa.clickFront");
  return tr("epa.clickDotThis");
}

// A click (or Enter) on square `name`: changes `pick` and says what follows.
export function epaminondasClick(pick: EpaminondasPick, legal: LegalMove[], view: View | null, name: string): Step {
  if (!legal.length) return {};
  const moves = phalanxMoves(legal);
  const rears = new Set(moves.map((m) => m.rear));
  const drop = (): Step => {
    pick.rear = null;
    pick.front = null;
    return { reset: true, say: "", render: true };
  };
  if (pick.rear && pick.front) {
    const hit = moves.find((m) => m.rear === pick.rear && m.front === pick.front && m.to === name);
    if (hit) return { submit: hit.move };
    if (name === pick.front) { pick.front = null; return { render: true }; }
    if (name === pick.rear) return drop();
    if (moves.some((m) => m.rear === pick.rear && m.front === name && m.front !== m.rear)) { pick.front = name; return { render: true }; }
    if (rears.has(name)) { pick.rear = name; pick.front = null; return { render: true }; }
    return { say: tr("epa.clickDotPhalanx") };
  }
  if (pick.rear) {
    if (name === pick.rear) return drop();
    const single = moves.find((m) => m.rear === pick.rear && m.front === pick.rear && m.to === name);
    if (single) return { submit: single.move };
    if (moves.some((m) => m.rear === pick.rear && m.front === name && m.front !== m.rear)) {
      pick.front = name;
      return { say: tr("epa.nowLand"), render: true };
    }
    if (rears.has(name)) { pick.rear = name; return { say: afterRear(moves, name), render: true }; }
    return { say: afterRear(moves, pick.rear) };
  }
  if (rears.has(name)) {
    pick.rear = name;
    return { say: afterRear(moves, name), render: true };
  }
  return { say: pieceOwner(view, name) ? tr("epa.cannotMove") : tr("epa.clickYours") };
}

// What the board shows for the half-made move: the pieces that may lead a
// move (rears), the pieces picked, the landing squares and their moves, the
// front pieces to choose from, the enemy pieces a landing would capture.
export interface EpaminondasMarks {
  moves: Mv[];
  rears: Set<string>;
  picked: Set<string>;
  targets: Map<string, Mv>;
  fronts: Set<string>;
  doomed: Set<string>;
}

export function epaminondasMarks(pick: EpaminondasPick, legal: LegalMove[]): EpaminondasMarks {
  const moves = phalanxMoves(legal);
  const rears = new Set(moves.map((m) => m.rear));
  const picked = new Set<string>();
  const targets = new Map<string, Mv>();
  const fronts = new Set<string>();
  const doomed = new Set<string>();
  if (pick.rear && pick.front) {
    for (const m of moves) {
      if (m.rear !== pick.rear || m.front !== pick.front) continue;
      targets.set(m.to, m);
      for (const s of m.line) picked.add(s);
    }
  } else if (pick.rear) {
    picked.add(pick.rear);
    for (const m of moves) {
      if (m.rear !== pick.rear) continue;
      if (m.front === m.rear) targets.set(m.to, m);
      else fronts.add(m.front);
    }
  }
  for (const m of targets.values()) for (const s of m.captured) doomed.add(s);
  return { moves, rears, picked, targets, fronts, doomed };
}

// The line above the board when there is no warning: what to click next.
export function prompt(pick: EpaminondasPick, legal: LegalMove[], view: View | null, mk: EpaminondasMarks): string {
  const mover = legal.length ? pieceOwner(view, mk.moves[0]?.rear ?? "") : null;
  if (!mover) return "";
  if (!pick.rear) return tr("epa.clickRear");
  if (pick.front) return tr("epa.clickLand");
  const fronts = mk.fronts.size > 0, alone = [...mk.targets.values()].length > 0;
  return fronts && alone ? tr("epa.ringedOrDot") : fronts ? tr("epa.ringed") :
    tr("epa.dot");
}

// A square's aria-label: what stands there, its marks, what the half-made move offers.
export function squareLabel(name: string, view: View, mk: EpaminondasMarks, pick: EpaminondasPick): string {
  const sq = view.squares?.[name];
  let l = name + (sq?.kind ? tr("epa.sqPiece", { owner: sq.owner === "white" ? tr("sidel.white") : sq.owner === "black" ? tr("sidel.black") : sq.owner ?? "" }) : tr("urb.sqEmpty"));
  const marks = sq?.marks ?? [];
  if (marks.includes("homeWhite")) l += tr("epa.homeWhite");
  if (marks.includes("homeBlack")) l += tr("epa.homeBlack");
  if (marks.includes("last")) l += tr("urb.sqLast");
  if (mk.picked.has(name)) l += tr("epa.picked");
  const t = mk.targets.get(name);
  if (t) l += t.captured.length ? tr("epa.captureHere") : tr("epa.landHere");
  else if (mk.fronts.has(name)) l += tr("epa.frontChoice");
  else if (!pick.rear && mk.rears.has(name)) l += tr("epa.canMove");
  if (mk.doomed.has(name)) l += tr("epa.wouldBeCaptured");
  return l;
}

// A square's classes (app.css): light or dark, home rows, last, target, movable.
export function squareClass(name: string, view: View, mk: EpaminondasMarks, pick: EpaminondasPick): string {
  const sq = view.squares?.[name];
  const p = parseSquare(name) as [number, number];
  const c: string[] = [(p[0] + p[1]) % 2 ? "light" : "dark"];
  const marks = sq?.marks ?? [];
  if (marks.includes("homeWhite")) c.push("home-white");
  if (marks.includes("homeBlack")) c.push("home-black");
  if (marks.includes("last")) c.push("last");
  if (mk.targets.has(name)) c.push("target");
  if (mk.rears.has(name) && !pick.rear) c.push("movable");
  return c.join(" ");
}
