// views.test.ts — what the Cathedral and Toscana boards read from the view
// (cathedralkit.ts, toscanakit.ts) on the fixture games: buildings and
// tiles, the hands, the squares' labels and colours, and what a placement
// leaves on the board (the next position's view) against what the ghost
// showed; the buildings a capture sends flying, on a record with captures.

import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { Grid, normalise, turn, type Cells } from "../../../web/src/games/boardkit";
import {
  buildings, colourOf, COLOURS, flown, handCount, handPieces, NAMES, squareLabel as cathedralLabel,
} from "../../../web/src/games/cathedralkit";
import {
  canArm, COL, colourName, decision, FRAME, frameTurned, squareFill, squareLabel as toscanaLabel, tileColour, topTile,
} from "../../../web/src/games/toscanakit";
import { legalMoves, movers } from "../../../web/src/gametext";
import type { Game, GameName, MoveParts, Side } from "../../../web/src/types";
import { fixtures, positions } from "./fixtures";

const key = (c: Cells) => c.map(([x, y]) => `${x},${y}`).sort().join(" ");
const other = (s: Side): Side => (s === "white" ? "black" : "white");

// Each move played in the fixture games: the position before (as the mover
// saw it, with the move's parts) and the one after.
function played(game: GameName): { before: Game; parts: MoveParts; after: Game; where: string }[] {
  const ps = positions(game), out = [];
  for (let i = 0; i + 1 < ps.length; i++) {
    const before = ps[i].g, after = ps[i + 1].g;
    if (after.ply !== before.ply + 1 || after.id !== before.id) continue;
    const move = after.moves[after.moves.length - 1];
    const j = before.legal.indexOf(move);
    assert.ok(j >= 0, `${ps[i].where}: ${move} was legal`);
    out.push({ before, parts: legalMoves(before)[j].parts, after, where: `${ps[i].where}: ${move}` });
  }
  return out;
}

describe("Cathedral view helpers (cathedralkit)", () => {
  test("buildings: one per piece, as many squares as its shape in the hand", () => {
    const start = positions("cathedral")[0].g.view;
    const size = new Map(start.sides.white.hand.concat(start.sides.black.hand).map((it) => [it.kind, it.cells!.length]));
    for (const { g, where } of positions("cathedral")) {
      const bs = buildings(g.view);
      const onBoard = Object.values(g.view.squares).filter((sq) => sq.kind).length;
      assert.equal(bs.reduce((n, b) => n + b.squares.length, 0), onBoard, where);
      for (const b of bs) {
        assert.equal(b.squares.length, size.get(b.kind), `${where}: ${b.owner} ${b.kind} ${b.squares}`);
        assert.equal(b.owner === "neutral", b.kind === "Y", `${where}: only the Cathedral is neutral`);
        assert.deepEqual(b.squares, b.squares.slice().sort());
      }
      for (const side of ["white", "black"] as Side[]) {
        assert.equal(bs.filter((b) => b.owner === side).length, g.view.sides[side].onBoard, `${where}: ${side} on the board`);
      }
    }
  });

  test("a placement leaves its building on its squares, in the mover's colour", () => {
    let n = 0;
    for (const { before, parts, after, where } of played("cathedral")) {
      if (parts.action !== "place") continue;
      n++;
      const owner = parts.piece === "Y" ? "neutral" : before.tomove;
      const b = buildings(after.view).find((x) => x.kind === parts.piece && x.owner === owner &&
        x.squares.join() === parts.squares.slice().sort().join());
      assert.ok(b, where);
      assert.equal(handCount(after.view, before.tomove as Side, parts.piece!), handCount(before.view, before.tomove as Side, parts.piece!) - 1, where);
      assert.ok(parts.squares.every((s) => after.view.squares[s].marks?.includes("last")), `${where}: marked last`);
    }
    assert.ok(n > 0);
  });

  test("the hands: one piece per building held, each its shape on the screen", () => {
    for (const { g, where } of positions("cathedral")) {
      for (const side of ["white", "black"] as Side[]) {
        for (const o of ["white", "black"] as Side[]) {
          const grid = new Grid(10, 10, o);
          const ps = handPieces(g.view, side, grid);
          const hand = g.view.sides[side].hand;
          assert.equal(ps.length, hand.reduce((a, it) => a + it.count, 0), where);
          for (const p of ps) {
            const it = hand.find((x) => x.kind === p.code)!;
            // white below: the (file, rank) shape upside down on the screen; black below: turned half round too
            const want = normalise(it.cells!.map(([f, k]) => (o === "white" ? [f, -k] : [-f, k]) as [number, number]));
            assert.equal(key(p.cells), key(want), `${where} ${side} ${p.code} (${o} below)`);
            assert.equal(p.w, Math.max(...p.cells.map((c) => c[0])) + 1);
            assert.equal(p.h, Math.max(...p.cells.map((c) => c[1])) + 1);
            assert.equal(handCount(g.view, side, p.code), it.count);
          }
        }
      }
    }
  });

  test("labels name the building and its owner, territory and the last move; colours by owner", () => {
    for (const { g, where } of positions("cathedral")) {
      for (let f = 0; f < 10; f++) for (let k = 0; k < 10; k++) {
        const n = String.fromCharCode(97 + f) + (k + 1);
        const sq = g.view.squares[n];
        const l = cathedralLabel(n, sq);
        if (!sq?.kind) assert.ok(l.startsWith(`${n}, empty`), l);
        else if (sq.kind === "Y") assert.ok(l.startsWith(`${n}, the Cathedral`), l);
        else assert.ok(l.startsWith(`${n}, ${sq.owner} ${NAMES[sq.kind]}`), `${where}: ${l}`);
        assert.equal(l.includes("white territory"), !!sq?.marks?.includes("terrWhite"), `${where}: ${l}`);
        assert.equal(l.includes("black territory"), !!sq?.marks?.includes("terrBlack"), `${where}: ${l}`);
        assert.equal(l.endsWith(", last move"), !!sq?.marks?.includes("last"), `${where}: ${l}`);
      }
    }
    assert.equal(colourOf("white"), COLOURS.white);
    assert.equal(colourOf("black"), COLOURS.black);
    assert.equal(colourOf("neutral"), COLOURS.neutral);
    assert.equal(new Set([COLOURS.white.fill, COLOURS.black.fill, COLOURS.neutral.fill]).size, 3);
    assert.equal(Object.keys(NAMES).length, 12);
  });

  test("captures: the buildings taken fly back to their owner's hand", () => {
    const { captures: views, capturesMoves } = fixtures();
    assert.equal(views.length, capturesMoves.length + 1);
    let flights = 0;
    for (let p = 1; p < views.length; p++) {
      const [prev, view] = [views[p - 1], views[p]];
      const fly = flown(prev, view);
      const where = `the captures record, move ${p} ${capturesMoves[p - 1]}`;
      for (const side of ["white", "black"] as Side[]) {
        const lost = view.sides[side].captured - prev.sides[side].captured;
        assert.equal(fly.filter((b) => b.owner === side).length, lost, `${where}: ${side} lost ${lost}`);
        for (const b of fly.filter((x) => x.owner === side)) {
          assert.equal(handCount(view, side, b.kind), handCount(prev, side, b.kind) + 1, `${where}: ${b.kind} back in hand`);
          assert.ok(b.squares.every((s) => !view.squares[s]?.kind || view.squares[s].owner !== side), where);
        }
      }
      flights += fly.length;
      assert.deepEqual(flown(view, view), [], "the same position: nothing flies");
    }
    assert.equal(flights, 3, "white lost two buildings and black one");
    assert.deepEqual(flown(views[views.length - 1], views[0]).length, 0, "more than three gone (a jump back): no flight");
  });
});

describe("Toscana view helpers (toscanakit)", () => {
  test("the frame: 4 x 2, cell i at (i % 4, i >> 2); its turns 2 x 4 and back", () => {
    assert.deepEqual(FRAME, [[0, 0], [1, 0], [2, 0], [3, 0], [0, 1], [1, 1], [2, 1], [3, 1]]);
    for (let r = 0; r < 4; r++) {
      const c = frameTurned(r);
      const w = Math.max(...c.map((x) => x[0])) + 1, h = Math.max(...c.map((x) => x[1])) + 1;
      assert.deepEqual([w, h], r % 2 ? [2, 4] : [4, 2]);
      assert.equal(Math.min(...c.flat()), 0);
      assert.equal(key(c), key(normalise(turn(FRAME, r))));
    }
    // a quarter turn clockwise: cell 0 (top left) goes to the top right
    assert.deepEqual(frameTurned(1)[0].map((v) => v + 0), [1, 0]);
  });

  test("a placement leaves its tile: own colour, the marked squares the other, as the ghost showed them", () => {
    let n = 0;
    for (const { before, parts, after, where } of played("toscana")) {
      if (parts.action !== "place") continue;
      n++;
      const side = before.tomove as Side;
      const tile = topTile(before.view, side)!;
      parts.squares.forEach((s, i) => {
        const sq = after.view.squares[s];
        assert.equal(sq?.owner, side, `${where}: ${s}`);
        const off = parts.marked!.includes(s);
        assert.equal(off, tile.off!.includes(i), `${where}: cell ${i} on ${s}`);
        // the ghost's and the panel's colour of the cell is the board's afterwards
        assert.equal(tileColour(side, off), squareFill(after.view, s), `${where}: ${s}`);
        assert.equal(sq.kind, (side === "white") !== off ? "L" : "D", `${where}: ${s}`);
        assert.ok(toscanaLabel(s, after.view).startsWith(`${s}, ${sq.kind === "L" ? "light" : "dark"} square of ${side}'s tile`));
      });
    }
    assert.ok(n > 0);
  });

  test("labels and fills: empty squares, the centre, the largest areas, the last move", () => {
    for (const { g, where } of positions("toscana")) {
      for (let f = 0; f < 17; f++) for (let k = 0; k < 17; k++) {
        const n = String.fromCharCode(97 + f) + (k + 1);
        const sq = g.view.squares[n];
        const l = toscanaLabel(n, g.view);
        if (!sq?.kind) {
          assert.ok(l.startsWith(`${n}, empty`), l);
          assert.equal(squareFill(g.view, n), COL.empty);
        } else assert.equal(squareFill(g.view, n), sq.kind === "L" ? COL.L : COL.D);
        assert.equal(l.includes(", centre"), !!sq?.marks?.includes("centre"), `${where}: ${l}`);
        if (sq?.marks?.includes("centre")) assert.equal(n, "i9", where);
        assert.equal(l.includes("in white's largest area"), !!sq?.marks?.includes("areaWhite"), `${where}: ${l}`);
        assert.equal(l.includes("in black's largest area"), !!sq?.marks?.includes("areaBlack"), `${where}: ${l}`);
        assert.equal(l.endsWith(", last move"), !!sq?.marks?.includes("last"), `${where}: ${l}`);
      }
    }
  });

  test("top tiles and colours: each side's visible tile, white light, black dark", () => {
    for (const { g, where } of positions("toscana")) {
      for (const side of ["white", "black"] as Side[]) {
        const t = topTile(g.view, side);
        const hand = g.view.sides[side].hand;
        assert.equal(t, hand.find((it) => it.kind === "S"), where);
        if (t) assert.ok(/^\d\d$/.test(t.id!) && t.off!.length === 2, `${where}: ${JSON.stringify(t)}`);
      }
    }
    assert.equal(colourName("white"), "light");
    assert.equal(colourName("black"), "dark");
    for (const side of ["white", "black"] as Side[]) {
      assert.equal(tileColour(side, false), side === "white" ? COL.L : COL.D);
      assert.equal(tileColour(side, true), tileColour(other(side), false));
    }
  });
});

describe("Toscana's veto as a toggle (toscanakit, issue 34)", () => {
  test("a decision always follows the decider's own move (or opens the game), so the page may answer it", () => {
    let n = 0;
    for (const { g, where } of positions("toscana")) {
      if (!g.legal.includes("veto")) continue;
      n++;
      const me = g.tomove as Side, opp = other(me);
      if (g.ply === 0) assert.equal(me, "black", where);
      else assert.equal(movers(g.game, g.options, g.moves)[g.ply - 1], me, `${where}: the decider made the move before`);
      const tile = topTile(g.view, opp)?.id ?? "";
      assert.equal(decision(g.view, g.legal, me, [me], null), g.ply === 0 ? "ask" : "accept", where);
      assert.equal(decision(g.view, g.legal, me, [me], tile), g.ply === 0 ? "ask" : "veto", where);
      assert.equal(decision(g.view, g.legal, me, [me], tile === "01" ? "02" : "01"), g.ply === 0 ? "ask" : "accept",
        `${where}: a veto armed for another tile is not sent`);
      assert.equal(decision(g.view, g.legal, me, [], tile), "ask", `${where}: a screen without the seat is asked`);
      assert.ok(canArm(g.view, me), `${where}: the decider could have armed his veto`);
    }
    assert.ok(n > 5, String(n));
    for (const { g, where } of positions("toscana")) {
      if (g.legal.includes("veto") || g.tomove === "none") continue;
      assert.equal(decision(g.view, g.legal, g.tomove as Side, [g.tomove as Side], "01"), null, where);
    }
  });

  test("the toggle is offered only while the veto is unused and a decision may still come", () => {
    for (const { g, where } of positions("toscana")) {
      for (const side of ["white", "black"] as Side[]) {
        const opp = other(side);
        const want = g.view.phase !== "over" && g.view.sides[side].veto && g.view.sides[opp].stack >= 2;
        assert.equal(canArm(g.view, side), want, `${where} ${side}`);
      }
    }
  });
});
