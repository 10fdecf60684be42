// urbino.ts — the Urbino board (9 x 9) for the game screen.
//
// Drawn from the server's view only: the two architects, houses (a gabled
// house), palaces (a square with a courtyard) and towers (a round keep) in
// their owner's colour, the building lot shaded (mark `lot`), each district
// outlined with a badge saying who scores it now and how much
// (view.regions), Monuments marked (mark `monument`), the last move marked.
// The supply of each player is shown above and below the board.
//
// Input never re-implements a rule nor reads the notation; everything comes
// from the legal moves' parts:
//   setup      an architect placed: the squares offered are those of the
//              legal moves;
//   who first  the side chosen: two buttons;
//   a turn     optionally click an architect (a move's `from`), then its new
//              square (`to`), or keep both, then choose a building kind
//              (buttons or the keys H P T) and click one of the lots offered
//              for it (the move's square);
//   pass       a button, when it is the only move.
// Keyboard: Tab reaches the board (arrows move, Enter or Space clicks a
// square) and the buttons; Escape cancels the half-made move.
//
// What needs no DOM (what a click does and submits, the squares offered, the
// labels and classes) is in urbinokit.ts.

import type { BoardContext, BoardModule, LegalMove, Side, View } from "../types";
import { t } from "../i18n";
import { el, outlinePath, pieceName, text } from "./boardkit";
import { drawCoordinates, drawSquares, squareModule, stripButton } from "./squareboard";
import { builds, Kind, KIND_NAME, KINDS, keyKind, offerLabel, squareClass, supply, urbinoClick, urbinoMarks } from "./urbinokit";

// How to move, for the rules dialog.
const HELP = (): string => t("urb.help");
const SN = (s: string): string => t(s === "white" ? "side.white" : "side.black");
const sn = (s: string): string => t(s === "white" ? "sidel.white" : "sidel.black");

const W = 9.7;           // viewBox width (390 px wide: squares of 40 px)
const OX = 0.5;          // board origin
const OY = 1.15;
const STRIP_Y = OY + 9 + 0.5;
const H = STRIP_Y + 1.3;

// ---- Drawing ---------------------------------------------------------------------------

function drawBuilding(g: Element, kind: string, owner: string): void {
  const cls = `bld ${owner}`;
  if (kind === "A") {
    el("circle", { class: "arch", cx: 0.5, cy: 0.5, r: 0.3 }, g);
    el("path", { class: "arch-mark", d: "M0.5 0.28 L0.68 0.64 L0.32 0.64 Z" }, g);
  } else if (kind === "H") {
    el("path", { class: cls, d: "M0.24 0.48 L0.5 0.22 L0.76 0.48 L0.76 0.8 L0.24 0.8 Z" }, g);
  } else if (kind === "P") {
    el("rect", { class: cls, x: 0.13, y: 0.13, width: 0.74, height: 0.74, rx: 0.04 }, g);
    el("rect", { class: `${cls} court`, x: 0.35, y: 0.35, width: 0.3, height: 0.3 }, g);
  } else if (kind === "T") {
    el("circle", { class: `${cls} tower`, cx: 0.5, cy: 0.5, r: 0.37 }, g);
    el("circle", { class: `${cls} keep`, cx: 0.5, cy: 0.5, r: 0.17 }, g);
  }
}

function drawSupply(parent: Element, view: View, side: Side, x: number, y: number): void {
  const g = el("g", { class: "supply", "aria-label": t("urb.supply", { side: SN(side) }), role: "img" }, parent);
  const s = supply(view, side);
  text(g, x, y + 0.45, SN(side), { class: "strip-label", "dominant-baseline": "central", "font-size": 0.36 });
  let cx = x + 1.35;
  for (const k of KINDS) {
    const ig = el("g", { transform: `translate(${cx} ${y + 0.05}) scale(0.8)` }, g);
    drawBuilding(ig, k, side);
    text(g, cx + 0.85, y + 0.45, `×${s[k]}`, { class: "strip-label", "dominant-baseline": "central", "font-size": 0.36 });
    cx += 1.75;
  }
}

// ---- One board -------------------------------------------------------------------------

export function urbino(): BoardModule {
  const st = {
    arch: null as string | null,     // architect picked to move
    dest: null as string | null,     // its new square
    kind: null as Kind | null,       // building kind chosen
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
    const r = urbinoClick(st, st.legal, name);
    if (r.submit !== undefined) ctx.submit(r.submit);
    if (r.say !== undefined) ctx.say(r.say);
    if (r.render) render();
  }

  function chooseKind(k: Kind): void {
    st.kind = k;
    render();
  }

  // H, P, T choose a building kind.
  function key(_ctx: BoardContext, ev: KeyboardEvent): boolean {
    const k = keyKind(st, st.legal, ev.key);
    if (k === undefined) return false;
    if (k) chooseKind(k);
    return true;
  }

  function paint(ctx: BoardContext, view: View, svg: SVGSVGElement): void {
    const me = ctx.orientation;
    const them: Side = me === "white" ? "black" : "white";
    const root = el("g", { class: "tav-urbino" }, svg);
    const legal = st.legal;
    const mk = urbinoMarks(st, legal);
    const { all, setupSquares, avail, kind, targets, dests, repositioned } = mk;
    const hint = new Set(st.hint);
    const squares = view.squares ?? {};

    drawSupply(root, view, them, OX, 0.2);

    const board = drawSquares(root, 9, 9, me, OX, OY, {
      prefix: "u",
      cursor: st.cursor,
      onCursor: (n) => { st.cursor = n; },
      activate,
      label: (n) => offerLabel(n, view, mk),
      cls: (n) => squareClass(n, view, mk, st, hint),
    });

    // What stands on each square (inside the square's group, so a click on a
    // building is a click on its square).
    for (const [n, g] of board.cells) {
      const sq = squares[n];
      const marks = sq?.marks ?? [];
      if (marks.includes("last")) el("rect", { class: "last-frame", x: 0.04, y: 0.04, width: 0.92, height: 0.92 }, g);
      if (marks.includes("monument")) el("rect", { class: "monument", x: 0.08, y: 0.08, width: 0.84, height: 0.84, rx: 0.1 }, g);
      let kindHere = sq?.kind;
      if (repositioned && n === st.arch) kindHere = undefined;
      if (repositioned && n === st.dest) kindHere = "A";
      if (kindHere) {
        drawBuilding(g, kindHere, sq?.owner ?? "neutral");
        pieceName(g, kindHere === "A" ? t("urb.anArchitect") : t("cat.ownersPiece", { owner: sq?.owner ? sn(sq.owner) : "", name: KIND_NAME[kindHere] ?? kindHere }).trim(), (t) => ctx.say(t));
      }
      if (repositioned && n === st.arch) el("circle", { class: "arch ghost", cx: 0.5, cy: 0.5, r: 0.3 }, g);
      if (!kindHere && (targets.has(n) || setupSquares.has(n) || dests.has(n))) el("circle", { class: "dot", cx: 0.5, cy: 0.5, r: 0.13 }, g);
      if (hint.has(n)) el("rect", { class: "hint-frame", x: 0.06, y: 0.06, width: 0.88, height: 0.88, rx: 0.12 }, g);
    }

    // Districts: outline and badge.
    const over = el("g", { class: "districts", "pointer-events": "none", "aria-hidden": "true", transform: `translate(${OX} ${OY})` }, root);
    const byRegion = new Map<number, [number, number][]>();
    for (const [n, sq] of Object.entries(squares)) {
      if (!sq.region) continue;
      const c = board.grid.cell(n);
      if (!c) continue;
      if (!byRegion.has(sq.region)) byRegion.set(sq.region, []);
      (byRegion.get(sq.region) as [number, number][]).push(c);
    }
    for (const r of view.regions ?? []) {
      const cells = byRegion.get(r.id);
      if (!cells || !cells.length) continue;
      const contested = r.white > 0 && r.black > 0;
      // A district of one colour scores nothing: a faint outline when it has
      // grown past one building, no badge.
      if (!contested) {
        if (cells.length > 1) el("path", { class: "district single", d: outlinePath(cells) }, over);
        continue;
      }
      const scorer = r.scorer === "white" || r.scorer === "black" ? r.scorer : "none";
      el("path", { class: `district ${scorer}`, d: outlinePath(cells) }, over);
      // The badge on the top-right corner of the district's top-most, right-most square.
      const top = cells.slice().sort((a, b) => a[1] - b[1] || b[0] - a[0])[0];
      const bx = top[0] + 0.7, by = top[1] + 0.3;
      const label = scorer === "none" ? "0" : String(r.points);
      el("circle", { class: `badge ${scorer}`, cx: bx, cy: by, r: 0.28 }, over);
      text(over, bx, by, label, { class: `badge-text ${scorer}`, "text-anchor": "middle", "dominant-baseline": "central", "font-size": 0.36 });
    }

    drawCoordinates(root, board.grid, OX, OY);

    // The strip below the board: my supply, or the choices of this step.
    const sy = STRIP_Y;
    const firstMoves = legal.filter((m) => m.parts.action === "first");
    const pass = legal.find((m) => m.parts.action === "pass");
    if (firstMoves.length) {
      text(root, OX, sy + 0.5, t("urb.whoFirst"), { class: "strip-label", "dominant-baseline": "central", "font-size": 0.36 });
      let x = OX + 3.1;
      for (const m of firstMoves) {
        const who = m.parts.side ?? "white";
        stripButton(root, x, sy + 0.05, 2.9, 1, t("urb.sideFirst", { side: SN(who) }), { key: m.move, onPress: () => ctx.submit(m.move), aria: t("urb.sideBuildsFirst", { side: sn(who) }) });
        x += 3.05;
      }
    } else if (pass) {
      text(root, OX, sy + 0.5, t("urb.noFit"), { class: "strip-label", "dominant-baseline": "central", "font-size": 0.36 });
      stripButton(root, OX + 5.4, sy + 0.05, 2.6, 1, t("pass"), { key: pass.move, onPress: () => ctx.submit(pass.move) });
    } else if (all.length) {
      const s = supply(view, me);
      let x = OX;
      for (const k of KINDS) {
        const ok = avail.some((b) => b.kind === k);
        const g = stripButton(root, x, sy + 0.05, 2.05, 1, "", {
          key: `kind-${k}`, selected: k === kind && ok, disabled: !ok, onPress: () => chooseKind(k),
          aria: t("urb.left", { name: KIND_NAME[k], n: s[k] }) + (ok ? "" : t("urb.noLotFor")),
        });
        const ig = el("g", { transform: `translate(${x + 0.1} ${sy + 0.1}) scale(0.8)`, "pointer-events": "none" }, g);
        drawBuilding(ig, k, me);
        pieceName(g, t("urb.worth", { name: KIND_NAME[k], k, v: k === "H" ? 1 : k === "P" ? 2 : 3 }), (t) => ctx.say(t));
        text(g, x + 1.35, sy + 0.5, `${k} ×${s[k]}`, { "dominant-baseline": "central", "text-anchor": "middle", "font-size": 0.36, "pointer-events": "none" });
        x += 2.2;
      }
      if (st.arch) {
        stripButton(root, x + 0.05, sy + 0.05, 2.1, 1, t("urb.keepBoth"), { key: "keep", onPress: () => { st.arch = null; st.dest = null; ctx.say(""); render(); }, aria: t("urb.keepBothAria") });
      }
    } else {
      drawSupply(root, view, me, OX, sy);
    }
  }

  const board = squareModule(st, {
    get help() { return HELP(); },
    size: [W, H],
    paint,
    // Forget the architect picked and its new square.
    reset: () => { st.arch = null; st.dest = null; },
    key,
    // Said once for a new position, not on every redraw (a hint stays shown).
    drawn: (ctx, fresh) => {
      const all = builds(st.legal);
      if (fresh && all.length && !all.some((b) => !b.from)) ctx.say(t("urb.noLot"));
    },
    // The engine's suggestion: its building chosen.
    hinted: (p) => { if (p.piece && KINDS.includes(p.piece as Kind)) st.kind = p.piece as Kind; },
  });
  const render = board.render;
  return board;
}
