// cathedral.ts — the Cathedral board (10 x 10) for the game screen.
//
// Drawn from the server's view only: buildings are the squares that share a
// `piece` number, joined into one shape in their owner's colour (the
// Cathedral neutral); territory is shaded per player (marks terrWhite /
// terrBlack); each player's hand shows his buildings as their shapes
// (view.sides.X.hand[].cells) with their letters.
//
// Input never re-implements a rule, nor reads the notation: the player picks
// a building from his hand, turns it by quarter turns, and carries a ghost
// over the board (boardkit's CarryBoard).  The ghost's squares are looked up
// among the squares of the legal placements (the moves' parts); it shows
// green only when they are those of one, and only then may it be placed.
// `pass` is a button, offered when it is legal.
//
// Keyboard: Tab reaches the hand's buildings (focus picks one) and the
// buttons; the arrows carry the ghost over the board, R (Shift+R) turns it,
// Enter or Space places it, Escape drops the building, and a building's letter
// picks it.  Mouse: click a building, move over the board, turn with R or the
// wheel, click to place.  Touch: tap a building, tap (or drag) on the board to
// put the ghost there, turn with the buttons or a two-finger twist, tap the
// same square again to place it.
//
// What needs no DOM (the buildings, the hands' shapes, labels, colours, the
// captured buildings) is in cathedralkit.ts.

import type { BoardContext, BoardModule, LegalMove, Side, View } from "../types";
import {
  button, Carried, carriedOf, focusRing, pieceName, CarryBoard, Cells, el, markedCells, handle, markHandled, normalise, outlinePath, refocus, text, wrapLines,
} from "./boardkit";
import { buildings, Colour, colourOf, COLOURS, flown, handPieces, NAMES, ownedName, squareLabel, squares } from "./cathedralkit";
import { t } from "../i18n";

const SN = (s: Side): string => t(s === "white" ? "side.white" : "side.black");
const sn = (s: Side): string => t(s === "white" ? "sidel.white" : "sidel.black");

const BOARD = { light: "#d9bb85", line: "#a8894f" };
const GOOD = "#2e9d46", BAD = "#d9362b";

const FONT = "system-ui, sans-serif";
const N = 10;            // board size
const MARGIN = 0.5;      // room for the coordinates
const HAND_GAP = 0.3;
const PANEL_W = 6.2;     // hand panel width beside the board
const CONTROLS_H = 1.15;
const HEADER_H = 0.6;

function drawShape(parent: Element, cells: Cells, x: number, y: number, s: number, colour: Colour, letter: string,
  opts: { last?: boolean } = {}): void {
  for (const [c, r] of cells) {
    el("rect", { x: x + c * s - 0.005, y: y + r * s - 0.005, width: s + 0.01, height: s + 0.01, fill: colour.fill }, parent);
  }
  el("path", {
    d: outlinePath(cells, x, y, s), stroke: opts.last ? "#e8590c" : colour.edge,
    "stroke-width": opts.last ? s * 0.1 : s * 0.06, fill: "none", "stroke-linecap": "square",
  }, parent);
  const h = handle(cells);
  text(parent, x + (h[0] + 0.5) * s, y + (h[1] + 0.5) * s, letter, {
    "text-anchor": "middle", "dominant-baseline": "central", "font-size": Math.max(s * 0.55, 0.33),
    "font-family": FONT, "font-weight": 700, fill: colour.letter, "pointer-events": "none",
  });
}

// ---- One board -------------------------------------------------------------

export function cathedral(): BoardModule {
  let sel: string | null = null;          // selected building code
  let selIndex = 0;                       // which copy of it in the hand (the two Taverns, Stables, Inns)
  let codes = new Set<string>();          // building codes with at least one legal placement
  let carried: Carried | null = null;     // the selected building as it is carried
  let handCell = 0.42;                    // a hand building's square (larger above and below the board)
  const slots = new Map<string, { x: number; y: number }>();  // hand slot of side:code, for the capture flight

  const cb: CarryBoard = new CarryBoard({
    name: "cathedral", n: N, start: [4, 5],
    look: {
      spot: 0.1, edge: 0.1, hintEdge: 0.12, cursor: [0.05, 0.12],
      cell: (_m, ok) => [ok ? GOOD : BAD, 0.55],
      edgeFill: () => "none",
      hintCell: () => ["#1c7ed6", 0.3],
      label: () => sel ?? "",
    },
    carried: () => carried,
    layout,
    key: (k) => {
      if (!/^[tsibqmadxcwy]$/i.test(k) || !codes.has(k.toUpperCase())) return false;
      select(k.toUpperCase(), true);
      return true;
    },
    escape: () => {
      if (!sel) return false;
      choose(null);
      cb.cursor = false;
      cb.render();
      return true;
    },
    idle: () => {
      cb.ctx?.say(cb.legal.every((m) => m === "pass") ? t("cat.noFitPass") : t("cat.pickFirst"));
      cb.complained();
    },
    refused: (off) => cb.ctx?.say(off ? t("cat.offBoard") :
      t("cat.cannotStand", { name: NAMES[sel!] ?? sel ?? "" })),
    tapped: (ok) => { if (!ok) cb.ctx?.say(t("cat.cannotStandTurn", { name: NAMES[sel!] ?? sel ?? "" })); },
    submitted: () => choose(null),
  });

  // Select a building (or none): it is carried in its hand's shape, as its
  // first legal placement shows it turned back.
  function choose(code: string | null): void {
    if (code !== sel) selIndex = 0;
    sel = code;
    const first = code ? cb.placements().find((m) => m.parts.piece === code) : undefined;
    carried = first ? carriedOf(cb.grid, first) : null;
  }

  // Lay out a hand's pieces in rows of width w; returns positions and height.
  function flow(items: { w: number; h: number }[], w: number): { pos: [number, number][]; height: number } {
    const pos: [number, number][] = [];
    let x = 0, y = 0, rowH = 0;
    for (const it of items) {
      const iw = it.w * handCell, ih = it.h * handCell;
      if (x > 0 && x + iw > w) { x = 0; y += rowH + HAND_GAP; rowH = 0; }
      pos.push([x, y]);
      x += iw + HAND_GAP;
      rowH = Math.max(rowH, ih);
    }
    return { pos, height: y + rowH };
  }

  function panelHeight(view: View, side: Side, w: number): number {
    const ps = handPieces(view, side, cb.grid);
    return HEADER_H + (ps.length ? flow(ps, w).height : 0.5) + 0.2;
  }

  function drawPanel(root: Element, view: View, side: Side, x: number, y: number, w: number): void {
    const g = el("g", { class: `tav-hand tav-hand-${side}`, "data-side": side, role: "group",
      "aria-label": t("cat.hand", { side: SN(side) }) }, root);
    const sv = view.sides[side];
    const mine = cb.mover === side;
    if (mine) {
      el("rect", { x: x - 0.08, y: y - 0.02, width: w + 0.16, height: panelHeight(view, side, w), rx: 0.15,
        fill: "#ffd43b22", stroke: "#f59f0088", "stroke-width": 0.04, class: "tav-turn" }, g);
    }
    el("circle", { cx: x + 0.22, cy: y + 0.3, r: 0.17, fill: COLOURS[side].fill, stroke: COLOURS[side].edge,
      "stroke-width": 0.04 }, g);
    // buildings of this side captured so far (each went back to the hand)
    const lost = sv?.captured ?? 0;
    text(g, x + 0.5, y + 0.3, t("cat.handHead", { side: SN(side), n: sv?.score ?? 0 }) +
      (lost > 0 ? t("cat.captured", { n: lost }) : ""), {
      "font-size": 0.36, "font-family": FONT, "dominant-baseline": "central", fill: "currentColor",
      "font-weight": mine ? 700 : 400,
    });
    const ps = handPieces(view, side, cb.grid);
    if (!ps.length) {
      text(g, x + 0.1, y + HEADER_H + 0.25, t("cat.allBuilt"), { "font-size": 0.33, "font-family": FONT,
        fill: "currentColor", opacity: 0.7, "dominant-baseline": "central" });
      return;
    }
    const { pos } = flow(ps, w);
    ps.forEach((p, i) => {
      const px = x + pos[i][0], py = y + HEADER_H + pos[i][1];
      const usable = mine && codes.has(p.code);
      const selected = usable && sel === p.code && p.index === selIndex;
      const pg = el("g", {
        class: "tav-piece" + (selected ? " selected" : ""), "data-piece": p.code, "data-side": side,
        "data-key": `hand-${side}-${p.code}-${p.index}`,
        "aria-label": `${ownedName(side, p.code)} (${p.code}), ${squares(p.cells.length)}` +
          (selected ? t("cat.selected") : usable ? "" : mine ? t("cat.noRoom") : ""),
        role: usable ? "button" : "img", tabindex: usable ? 0 : -1,
        "aria-pressed": usable ? String(selected) : "false",
        style: usable ? "cursor:pointer" : "",
        opacity: mine && !usable ? 0.35 : 1,
      }, g);
      if (!slots.has(`${side}:${p.code}`)) slots.set(`${side}:${p.code}`, { x: px, y: py });
      // a hit area, so a click between a shape's squares still picks it
      el("rect", { x: px - 0.08, y: py - 0.08, width: p.w * handCell + 0.16, height: p.h * handCell + 0.16,
        rx: 0.08, fill: selected ? "#ffd43b66" : "transparent", stroke: selected ? "#f59f00" : "none",
        "stroke-width": 0.06 }, pg);
      drawShape(pg, p.cells, px, py, handCell, colourOf(p.code === "Y" ? "neutral" : side), p.code);
      focusRing(pg, px - 0.08, py - 0.08, p.w * handCell + 0.16, p.h * handCell + 0.16, 0.05);
      pieceName(pg, `${NAMES[p.code] ?? p.code} (${p.code}), ${squares(p.cells.length)}`, (t) => cb.ctx?.say(t));
      if (usable) {
        pg.addEventListener("click", (ev) => { ev.stopPropagation(); select(p.code, false, p.index); });
        pg.addEventListener("focus", () => select(p.code, false, p.index));
        pg.addEventListener("keydown", (ev) => {
          if (ev.key === "Enter" || ev.key === " ") {
            ev.preventDefault(); ev.stopPropagation(); markHandled(ev);
            select(p.code, true, p.index);
          }
        });
      }
    });
  }

  function drawBoard(root: Element, view: View): void {
    const { bx, by, grid } = cb;
    cb.drawBoard(root, {
      aria: t("cat.boardAria"),
      fill: () => BOARD.light, stroke: () => BOARD.line, label: (name) => squareLabel(name, view.squares[name]),
      margin: MARGIN, coords: 0.33,
      piece: (name) => {
        const sq = view.squares[name];
        return sq?.kind ? (sq.kind === "Y" ? t("cat.theCathedral") : t("cat.ownersPiece", { owner: sq.owner ? sn(sq.owner as Side) : "", name: NAMES[sq.kind] ?? sq.kind })) : "";
      },
      deco: (deco) => {
        // territory
        for (const [mark, fill, dot, edge] of [
          ["terrWhite", "#ffffff4d", COLOURS.white.fill, COLOURS.white.edge],
          ["terrBlack", "#2a1d1433", COLOURS.black.fill, COLOURS.black.fill]] as const) {
          const cells = markedCells(view, grid, mark);
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
      },
    });
    el("g", { class: "tav-fly", "pointer-events": "none" }, root);
  }

  function drawControls(root: Element, x: number, y: number, w: number): void {
    const g = el("g", { class: "tav-controls" }, root);
    const onlyPass = cb.legal.length > 0 && cb.legal.every((m) => m === "pass");
    let msg = "";
    if (onlyPass) {
      msg = t("cat.mustPass");
      button(g, x + w - 2.2, y + 0.15, 2.2, 0.8, t("pass"), { key: "pass", primary: true,
        aria: t("cat.passAria"), onPress: () => cb.submit("pass") });
    } else if (cb.legal.length && cb.mover) {
      let px = cb.turnButtons(g, x, y + 0.15, 0.9, 0.8, t("kit.buildingThe"), 0.5) + 0.25;
      if (carried && sel) {
        const cells = normalise(cb.cellsAt([0, 0], cb.rot, carried));
        const cw = Math.max(...cells.map((c) => c[0])) + 1, ch = Math.max(...cells.map((c) => c[1])) + 1;
        const s = Math.min(0.26, 0.9 / Math.max(cw, ch));
        drawShape(g, cells, px, y + 0.1 + (0.9 - ch * s) / 2, s, colourOf(sel === "Y" ? "neutral" : cb.mover), "");
        px += cw * s + 0.25;
        msg = `${NAMES[sel]}: ${!cb.spots(cb.rot).length ? t("cat.noRoomTurn") :
          cb.pointerType === "touch" ? t("cat.tapPlace") : t("cat.wheelPlace")}`;
      } else {
        msg = codes.size === 1 && codes.has("Y") ? t("cat.placeCathedral") :
          t("cat.pickBuilding");
      }
      // cut into lines where the room beside the buttons is short (a phone)
      const lines = wrapLines(msg, x + w - px, 0.33).slice(0, 2);
      lines.forEach((l, i) => text(g, px, y + 0.55 + (i - (lines.length - 1) / 2) * 0.4, l, { "font-size": 0.33,
        "font-family": FONT, fill: "currentColor", "dominant-baseline": "central", class: "tav-msg" }));
      return;
    } else if (cb.view?.phase === "over") {
      msg = t("gameOver");
    }
    if (msg) text(g, x, y + 0.55, msg, { "font-size": 0.33, "font-family": FONT, fill: "currentColor",
      "dominant-baseline": "central", class: "tav-msg" });
  }

  // The capture flight: buildings that left the board for their owner's hand
  // fly there; a captured Cathedral fades away.
  function animateCaptures(prev: View, view: View): void {
    const fly = flown(prev, view);
    if (!fly.length) return;
    const layer = cb.ctx!.svg.querySelector(".tav-fly");
    if (!layer) return;
    for (const b of fly) {
      const cells = b.squares.map((s) => cb.grid.cell(s)).filter((c): c is [number, number] => !!c);
      if (!cells.length) continue;
      const mx = Math.min(...cells.map((c) => c[0])), my = Math.min(...cells.map((c) => c[1]));
      const g = el("g", { class: "tav-flying", "data-kind": b.kind, "data-owner": b.owner }, layer);
      drawShape(g, normalise(cells), 0, 0, 1, colourOf(b.owner), b.kind);
      const x0 = cb.bx + mx, y0 = cb.by + my;
      const slot = b.owner === "neutral" ? null : slots.get(`${b.owner}:${b.kind}`);
      const frames: Keyframe[] = slot ? [
        { transform: `translate(${x0}px, ${y0}px) scale(1)`, opacity: 1 },
        { transform: `translate(${x0}px, ${y0 - 0.6}px) scale(1.1)`, opacity: 1, offset: 0.2 },
        { transform: `translate(${slot.x}px, ${slot.y}px) scale(${handCell})`, opacity: 0.9 },
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

  // The board and both hands: on a wide screen the hands beside the board
  // (the opponent's at the top, the player's at the bottom), else above and
  // below it.  Returns the viewBox size.
  function layout(root: SVGGElement, view: View): [number, number] {
    const ctx = cb.ctx!;
    slots.clear();
    handCell = cb.wide ? 0.42 : 0.5;
    const me: Side = ctx.orientation;
    const other: Side = me === "white" ? "black" : "white";
    if (cb.wide) {
      cb.bx = MARGIN + 0.1; cb.by = 0.2;
      drawBoard(root, view);
      drawControls(root, cb.bx, cb.by + N + MARGIN, N);
      const px = cb.bx + N + 0.5;
      const h1 = panelHeight(view, other, PANEL_W), h2 = panelHeight(view, me, PANEL_W);
      const bottom = cb.by + N + MARGIN + CONTROLS_H;
      const y2 = Math.max(cb.by + h1 + 0.4, bottom - h2);
      drawPanel(root, view, other, px, cb.by, PANEL_W);
      drawPanel(root, view, me, px, y2, PANEL_W);
      return [px + PANEL_W + 0.2, Math.max(bottom, y2 + h2 + 0.1)];
    }
    const w = N + MARGIN;
    // On a phone whose board scrolls sideways, the hands and the controls
    // only as wide as the screen, around the board's middle (in view).
    const room = ctx.room;
    const pw = room !== undefined && room < w + 0.3 ? Math.max(4, room - 0.3) : w;
    const lx = pw < w ? MARGIN + 0.1 + N / 2 - pw / 2 : 0.1;
    const h1 = panelHeight(view, other, pw);
    cb.bx = MARGIN + 0.1; cb.by = h1 + 0.2;
    drawPanel(root, view, other, lx, 0.1, pw);
    drawBoard(root, view);
    drawControls(root, lx, cb.by + N + MARGIN, pw);
    drawPanel(root, view, me, lx, cb.by + N + MARGIN + CONTROLS_H, pw);
    return [w + 0.3, cb.by + N + MARGIN + CONTROLS_H + panelHeight(view, me, pw) + 0.1];
  }

  function select(code: string, toBoard: boolean, index = 0): void {
    if (cb.pending || !codes.has(code)) return;
    const changed = sel !== code || selIndex !== index;
    if (sel !== code) {
      choose(code);
      cb.turnToRoom();
    }
    selIndex = index;
    if (toBoard) {
      if (!cb.anchor) cb.anchor = [4, 5];
      cb.cursor = true;
    }
    if (changed || toBoard) cb.render();
    if (toBoard) refocus(cb.ctx!.svg, "board");
  }

  return {
    get help() { return t("cat.help"); },
    draw(ctx: BoardContext, view: View, legal: LegalMove[], mover: Side | null): void {
      const prev = cb.view;
      cb.take(ctx, view, legal, mover);
      codes = new Set(cb.placements().map((m) => m.parts.piece ?? ""));
      const keep = sel && codes.has(sel) ? sel : codes.size === 1 ? [...codes][0] : null;
      choose(keep);
      cb.show();
      if (prev && prev !== view) animateCaptures(prev, view);
    },
    key: (_ctx, ev) => cb.key(ev),
    // Show the engine's suggestion: the squares of a placement (its building
    // picked), or the Pass button (the game screen names it).
    hint(ctx: BoardContext, move: string): void {
      if (!cb.showHint(ctx, move)) return;
      const code = cb.hint?.parts.action === "place" ? cb.hint.parts.piece ?? "" : "";
      if (codes.has(code) && sel !== code) { choose(code); cb.render(); }
      else cb.drawGhost();
    },
    reset(): void {
      cb.reset();
      choose(null);
    },
  };
}
