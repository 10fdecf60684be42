// toscana.ts — the Toscana board (17 x 17, centre i9) for the game screen.
//
// Drawn from the server's view only: light and dark squares of the placed
// tiles (kind L / D) with each tile outlined in its owner's colour, the centre
// i9 marked, each player's largest area (marks areaWhite / areaBlack) outlined
// with its count (its score), and beside the board both top tiles (the 2x4
// frame with its off-colour cells: view.sides.X.hand, kind 'S'), the stacks'
// sizes (never their order) and whether each veto is still unused.
//
// Input never re-implements a rule, nor reads the notation: the mover's top
// tile, in the quarter turn the player chose, follows the pointer as a ghost
// (boardkit's CarryBoard); the ghost's squares and off-colour squares are
// looked up among those of the legal placements (the moves' parts), and it
// shows green only when they are those of one.  Small green dots mark where
// the ghost's handle may go in the current turn.  `veto` / `accept` and
// `pass` are buttons, offered when they are the legal moves.
//
// Keyboard: arrows carry the ghost, R (Shift+R) turns it, Enter or Space
// places it; V vetoes and A accepts when that decision is due; Tab reaches
// the tile and the buttons.  Mouse: move, R or the wheel turns, click places.
// Touch: tap (or drag) to put the ghost, turn with the buttons or a
// two-finger twist, tap the same square again to place it.
//
// What needs no DOM (the tile frame, the top tiles, labels, colours) is in
// toscanakit.ts.

import type { BoardContext, BoardModule, LegalMove, Side, View } from "../types";
import { button, Carried, carriedOf, CarryBoard, focusRing, Cells, el, markedCells, markHandled, outlinePath, refocus, text, wrapLines } from "./boardkit";
import { t as tr } from "../i18n";
const SN = (s: string): string => tr(s === "white" ? "side.white" : "side.black");
const sn = (s: string): string => tr(s === "white" ? "sidel.white" : "sidel.black");
import { canArm, COL, colourName, decision, FRAME, frameTurned, squareFill, squareLabel, tileColour, topTile } from "./toscanakit";

const N = 17;
const MARGIN = 0.7;
const PANEL_W = 5.6;
const CONTROLS_H = 1.6;
const FONT = "system-ui, sans-serif";
const FS = 0.48;                  // text size
const PANEL_H = 3.6;              // a panel's height at scale 1

function drawTile(parent: Element, x: number, y: number, s: number, side: Side, off: number[], rot: number): Cells {
  const norm = frameTurned(rot);
  norm.forEach(([cx, cy], i) => {
    el("rect", { x: x + cx * s, y: y + cy * s, width: s, height: s,
      fill: tileColour(side, off.includes(i)), stroke: "#0003", "stroke-width": s * 0.03 }, parent);
  });
  el("path", { d: outlinePath(norm, x, y, s), fill: "none", "stroke-width": s * 0.08,
    stroke: side === "white" ? "#b9ab8c" : COL.blackEdge }, parent);
  return norm;
}

// ---- One board -------------------------------------------------------------

export function toscana(): BoardModule {
  let place = false;                   // legal holds placements
  let decide = false;                  // legal = veto / accept, and the player is asked (the first decision)
  // the veto armed by each side this screen holds: the id of the opponent's
  // tile it is meant for ("veto this tile"), or absent
  const armed: Partial<Record<Side, string>> = {};
  let decided = "";                    // the decision position already answered by itself
  let carried: Carried | null = null;  // the tile carried over the board (frame cells, unturned)
  const own = (): [string, string] => (cb.mover === "black" ? [COL.D, COL.L] : [COL.L, COL.D]);

  const cb: CarryBoard = new CarryBoard({
    name: "toscana", n: N, start: [8, 8],
    look: {
      spot: 0.16, edge: 0.16, hintEdge: 0.16, cursor: [0.06, 0.14],
      cell: (marked) => [own()[marked ? 1 : 0], 0.8],
      edgeFill: (ok) => (ok ? "#2e9d4633" : "#d9362b40"),
      hintCell: (marked) => [own()[marked ? 1 : 0], 0.7],
    },
    carried: () => (place ? carried : null),
    layout,
    key: (k) => {
      if ((k === "v" || k === "V") && !decide) {
        // V arms (or disarms) the veto against the opponent's tile
        const b = cb.ctx?.svg.querySelector('[data-key^="veto-toggle-"]') as SVGGElement | null;
        if (!b) return false;
        b.dispatchEvent(new MouseEvent("click", { bubbles: false }));
        return true;
      }
      if (!decide || (k !== "v" && k !== "V" && k !== "a" && k !== "A")) return false;
      cb.submit(k === "v" || k === "V" ? "veto" : "accept");
      return true;
    },
    escape: () => {
      if (!cb.cursor) return false;
      cb.cursor = false;
      cb.anchor = null;
      cb.drawGhost();
      return true;
    },
    idle: () => {
      if (decide) cb.ctx?.say(tr("tos.decideFirst"));
      else if (cb.legal.includes("pass")) cb.ctx?.say(tr("tos.fitsNowherePress"));
    },
    refused: (off) => cb.ctx?.say(off ? tr("tos.offBoard") :
      tr("tos.cannotGo")),
  });

  // A side's panel at (x0, y0), drawn at `scale` (larger on a tall screen).
  function drawPanel(root: Element, view: View, side: Side, x0: number, y0: number, scale: number): void {
    const sv = view.sides[side];
    const g = el("g", { class: `tav-hand tav-hand-${side}`, "data-side": side, role: "group",
      "aria-label": tr("tos.tilesAria", { side: SN(side), colour: colourName(side) }), transform: `translate(${x0} ${y0}) scale(${scale})` }, root);
    const x = 0, y = 0;
    const score = sv?.score ?? 0;   // the tiles his largest area touches
    el("rect", { x: x + 0.05, y: y + 0.12, width: 0.5, height: 0.5, rx: 0.08, fill: side === "white" ? COL.L : COL.D,
      stroke: side === "white" ? COL.areaWhite : COL.areaBlack, "stroke-width": 0.08 }, g);
    const mine = cb.mover === side && place;
    text(g, x + 0.8, y + 0.4, tr("tos.area", { side: SN(side), score }), {
      "font-size": FS, "font-family": FONT, fill: "currentColor", "dominant-baseline": "central",
      "font-weight": mine ? 700 : 400, class: "tav-score", "data-score": score,
    });
    const t = topTile(view, side);
    const s = 0.62;
    const ty = y + 0.95;
    if (t) {
      const rot = mine ? cb.rot : 0;
      const tg = el("g", {
        class: "tav-tile", "data-side": side, "data-tile": t.id ?? "", "data-key": `tile-${side}`,
        role: mine ? "button" : "img", tabindex: mine ? 0 : -1,
        "aria-label": tr("tos.topTile", { side: SN(side), id: t.id ?? "" }) + (mine ? tr("tos.yoursToPlace") : ""),
        style: mine ? "cursor:pointer" : "",
      }, g);
      const cells = drawTile(tg, x + 0.1, ty, s, side, t.off ?? [], rot);
      const tw = (Math.max(...cells.map((c) => c[0])) + 1) * s;
      const th = (Math.max(...cells.map((c) => c[1])) + 1) * s;
      if (mine) focusRing(tg, x, ty - 0.1, tw + 0.2, th + 0.2, 0.06);
      const decided = decide && side !== cb.mover;
      if (mine || decided) {
        el("rect", { x: x + 0.1 - 0.1, y: ty - 0.1, width: tw + 0.2,
          height: (Math.max(...cells.map((c) => c[1])) + 1) * s + 0.2, fill: "none", stroke: "#f59f00",
          "stroke-width": 0.08, rx: 0.1, "pointer-events": "none" }, tg);
      }
      if (mine) {
        tg.addEventListener("keydown", (ev) => {
          if (ev.key === "Enter" || ev.key === " ") {
            ev.preventDefault(); ev.stopPropagation(); markHandled(ev);
            if (!cb.anchor) cb.anchor = [8, 8];
            cb.cursor = true;
            cb.drawGhost();
            refocus(cb.ctx!.svg, "board");
          }
        });
      }
      // "veto this tile": the one-time toggle of the opponent's veto, on his side of this screen
      const owner: Side = side === "white" ? "black" : "white";
      const seats = cb.ctx?.seats ?? [];
      if (seats.includes(owner) && canArm(view, owner)) {
        const on = armed[owner] === t.id;
        const b = button(g, x + 0.1, ty + 1.95, 3.9, 0.62, on ? tr("tos.vetoArmed") : tr("tos.vetoThis"), {
          key: `veto-toggle-${owner}`, primary: on, font: 0.34,
          aria: on ? tr("tos.vetoArmedAria", { side: sn(side), id: t.id ?? "" }) :
            tr("tos.vetoAria", { side: sn(side), id: t.id ?? "" }),
          onPress: () => {
            if (armed[owner] === t.id) delete armed[owner]; else armed[owner] = t.id ?? "";
            cb.ctx?.say(armed[owner] !== undefined ? tr("tos.vetoArmedSay", { side: sn(side), id: t.id ?? "" }) :
              tr("tos.vetoKept"));
            cb.render();
          },
        });
        b.setAttribute("aria-pressed", String(on));
        b.setAttribute("data-armed", on ? "1" : "0");
      }
      const lx = x + 0.1 + Math.max(tw, 4 * s) + 0.35;
      text(g, lx, ty + 0.3, tr("tos.tileN", { id: t.id ?? "?" }), { "font-size": FS * 0.85, "font-family": FONT, fill: "currentColor",
        "dominant-baseline": "central", opacity: 0.8 });
      text(g, lx, ty + 0.95, tr("tos.inStack", { n: sv?.stack ?? 0 }), { "font-size": FS * 0.85, "font-family": FONT,
        fill: "currentColor", "dominant-baseline": "central", class: "tav-stack", "data-stack": sv?.stack ?? 0 });
      text(g, lx, ty + 1.6, sv?.veto ? tr("tos.vetoUnused") : tr("tos.vetoUsed"), { "font-size": FS * 0.85, "font-family": FONT,
        fill: "currentColor", "dominant-baseline": "central", opacity: sv?.veto ? 1 : 0.6 });
    } else {
      text(g, x + 0.1, ty + 0.6, tr("tos.noTiles", { n: sv?.stack ?? 0 }), { "font-size": FS * 0.85,
        "font-family": FONT, fill: "currentColor", "dominant-baseline": "central", class: "tav-stack",
        "data-stack": sv?.stack ?? 0 });
    }
  }

  function drawBoard(root: Element, view: View): void {
    const { bx, by, grid } = cb;
    cb.drawBoard(root, {
      aria: tr("tos.boardAria"),
      fill: (name) => squareFill(view, name),
      stroke: (name) => (view.squares[name]?.kind ? "#0002" : COL.line),
      label: (name) => squareLabel(name, view),
      margin: MARGIN, coords: 0.4,
      deco: (deco) => {
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
          const cells = markedCells(view, grid, mark);
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

      },
    });
  }

  // The buttons and the one-line explanation; on a tall screen (twoLines) the
  // line goes under the buttons and everything is drawn larger.
  // On a phone (room: the units in view), the line is cut to fit the screen.
  function drawControls(root: Element, x0: number, y0: number, twoLines: boolean, room?: number): void {
    const scale = room !== undefined ? 1 : twoLines ? 1.3 : 1;
    const g = el("g", { class: "tav-controls", transform: `translate(${x0} ${y0}) scale(${scale})` }, root);
    const x = 0, y = 0;
    const line = (s: string, lx: number) => {
      if (room === undefined) {
        text(g, twoLines ? x : lx, twoLines ? y + 1.6 : y + 0.65, s, {
          "font-size": FS, "font-family": FONT, fill: "currentColor", "dominant-baseline": "central", class: "tav-msg" });
        return;
      }
      const fs = 0.38;
      wrapLines(s, room - 0.4, fs).slice(0, 3).forEach((l, i) => text(g, x, y + 1.55 + i * fs * 1.3, l, {
        "font-size": fs, "font-family": FONT, fill: "currentColor", "dominant-baseline": "central", class: "tav-msg" }));
    };
    if (cb.legal.length === 1 && cb.legal[0] === "pass") {
      button(g, x, y + 0.2, 2.6, 0.95, tr("pass"), { key: "pass", primary: true, aria: tr("tos.passAria"),
        onPress: () => cb.submit("pass") });
      line(tr("tos.mustPass"), x + 2.9);
    } else if (decide) {
      // the game's first decision, asked: nothing was on show before it
      button(g, x, y + 0.2, 2.6, 0.95, tr("tos.veto"), { key: "veto", aria: tr("tos.vetoFirstAria"),
        onPress: () => cb.submit("veto") });
      button(g, x + 2.8, y + 0.2, 2.6, 0.95, tr("tos.letItBe"), { key: "accept", primary: true,
        aria: tr("tos.keepVetoAria"), onPress: () => cb.submit("accept") });
      line(tr("tos.vetoQuestion"), x + 5.7);
    } else if (place) {
      const after = cb.turnButtons(g, x, y + 0.2, 1.3, 0.95, tr("kit.tile"), 0.7);
      line(!cb.spots(cb.rot).length ? tr("tos.noRoomTurn") :
        cb.pointerType === "touch" ? tr("tos.tapDot") :
        tr("tos.putOnDot"), after + 0.3);
    } else if (cb.view?.phase === "over") {
      line(tr("gameOver"), x);
    }
  }

  // The board on the left and both panels on its right (the opponent's at
  // the top, the player's at the bottom) on a wide screen, where the 17 x 17
  // board gets the room; else both panels side by side above the board, the
  // controls below it.  Returns the viewBox size.
  function layout(root: SVGGElement, view: View): [number, number] {
    const me: Side = cb.ctx!.orientation;
    const other: Side = me === "white" ? "black" : "white";
    if (cb.wide) {
      cb.bx = MARGIN + 0.1; cb.by = 0.3;
      drawBoard(root, view);
      drawControls(root, cb.bx, cb.by + N + MARGIN, false);
      drawPanel(root, view, other, cb.bx + N + 0.5, cb.by, 1);
      drawPanel(root, view, me, cb.bx + N + 0.5, cb.by + N - PANEL_H, 1);
      return [cb.bx + N + 0.6 + PANEL_W, cb.by + N + MARGIN + CONTROLS_H];
    }
    const w = N + MARGIN, ps = 1.5;
    const room = cb.ctx!.room;
    if (room !== undefined && room < w + 0.3) {
      // a phone, the board scrolling sideways: the panels one above the
      // other and the controls, all around the board's middle (in view)
      const lx = Math.max(0.1, MARGIN + 0.1 + N / 2 - room / 2 + 0.15);
      const px = MARGIN + 0.1 + N / 2 - PANEL_W / 2;
      cb.bx = MARGIN + 0.1; cb.by = 2 * PANEL_H + 0.3;
      drawPanel(root, view, other, px, 0.1, 1);
      drawPanel(root, view, me, px, PANEL_H + 0.2, 1);
      drawBoard(root, view);
      drawControls(root, lx, cb.by + N + MARGIN, true, room);
      return [w + 0.3, cb.by + N + MARGIN + 2.9];
    }
    cb.bx = MARGIN + 0.1; cb.by = PANEL_H * ps + 0.2;
    drawPanel(root, view, other, 0.1, 0.1, ps);
    drawPanel(root, view, me, 0.1 + w / 2 + 0.2, 0.1, ps);
    drawBoard(root, view);
    drawControls(root, 0.1, cb.by + N + MARGIN, true);
    return [w + 0.3, cb.by + N + MARGIN + 2.9];
  }

  return {
    get help() { return tr("tos.help"); },
    draw(ctx: BoardContext, view: View, legal: LegalMove[], mover: Side | null): void {
      cb.take(ctx, view, legal, mover);
      const first = cb.placements()[0];
      place = !!first;
      for (const side of ["white", "black"] as Side[]) {
        // an armed veto holds for the tile it was armed against only
        const opp: Side = side === "white" ? "black" : "white";
        if (armed[side] !== undefined && (!canArm(view, side) || topTile(view, opp)?.id !== armed[side])) delete armed[side];
      }
      const d = decision(view, cb.legal, mover, ctx.seats ?? [], mover ? armed[mover] ?? null : null);
      decide = d === "ask";
      if ((d === "veto" || d === "accept") && mover) {
        // answered by itself, once per position (a redraw of the same one sends nothing)
        const key = `${view.last}|${view.sides.white?.stack}|${view.sides.black?.stack}|${mover}`;
        if (decided !== key) {
          decided = key;
          if (d === "veto") delete armed[mover];
          queueMicrotask(() => cb.submit(d));
        }
      }
      // the tile in its hand's frame, its off-colour cells where the parts mark them
      carried = first ? carriedOf(cb.grid, first, FRAME) : null;
      cb.show();
    },
    key: (_ctx, ev) => cb.key(ev),
    // Show the engine's suggestion until the next draw: the tile on its
    // squares, or the button to press (the game screen names it).
    hint(ctx: BoardContext, move: string): void {
      if (cb.showHint(ctx, move)) cb.drawGhost();
    },
    reset: () => cb.reset(),
  };
}
