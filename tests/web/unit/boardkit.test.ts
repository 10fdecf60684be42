// boardkit.test.ts — the boards' shared geometry (boardkit.ts) and the square
// boards' position bookkeeping (squareboard.ts): square names, the screen <->
// board mapping in both orientations, quarter turns, the handle, outlines,
// placement keys, marked cells and the drawing's signature on real views.

import assert from "node:assert/strict";
import { describe, test } from "node:test";
import {
  Cells, drawnSig, Grid, handle, markedCells, normalise, outlinePath, parseSquare, placeKey, squareName, turn,
} from "../../../web/src/games/boardkit";
import { takePosition, type SquareState } from "../../../web/src/games/squareboard";
import { legalMoves } from "../../../web/src/gametext";
import type { BoardContext, GameName, LegalMove, Side } from "../../../web/src/types";
import { positions } from "./fixtures";

const key = (c: Cells) => c.map(([x, y]) => `${x},${y}`).sort().join(" ");
// -0 as 0 (a turn negates coordinates; deepStrictEqual tells -0 from 0)
const z = (c: number[][]) => c.map((p) => p.map((v) => v + 0));

describe("square names and the screen <-> board mapping", () => {
  test("squareName and parseSquare are inverse, for boards up to 17 x 17", () => {
    for (let f = 0; f < 17; f++) for (let k = 0; k < 17; k++) assert.deepEqual(parseSquare(squareName(f, k)), [f, k]);
    assert.equal(squareName(4, 4), "e5");
    assert.equal(squareName(16, 16), "q17");
    for (const bad of ["", "e", "5e", "E5", "e123", "e5 "]) assert.equal(parseSquare(bad), null, bad);
  });

  test("Grid: white has a1 bottom left, black top right; square and cell are inverse", () => {
    for (const [w, h] of [[9, 9], [14, 12], [10, 10], [17, 17]]) {
      const white = new Grid(w, h, "white"), black = new Grid(w, h, "black");
      assert.deepEqual(white.cell("a1"), [0, h - 1]);
      assert.deepEqual(black.cell("a1"), [w - 1, 0]);
      assert.equal(white.square(0, 0), squareName(0, h - 1));
      assert.equal(black.square(0, 0), squareName(w - 1, 0));
      for (const g of [white, black]) {
        for (let c = 0; c < w; c++) for (let r = 0; r < h; r++) assert.deepEqual(g.cell(g.square(c, r)!), [c, r]);
        assert.equal(g.square(-1, 0), null);
        assert.equal(g.square(w, 0), null);
        assert.equal(g.square(0, h), null);
        assert.equal(g.cell(squareName(w, 0)), null);
        assert.equal(g.cell("zz"), null);
      }
    }
  });

  test("Grid.toScreen turns board offsets the way cell() places the squares", () => {
    for (const side of ["white", "black"] as Side[]) {
      const g = new Grid(14, 12, side);
      const [c0, r0] = g.cell("e5")!;
      for (const [df, dk] of [[1, 0], [0, 1], [2, -3], [-1, -1]]) {
        const [c1, r1] = g.cell(squareName(4 + df, 4 + dk))!;
        assert.deepEqual(z([g.toScreen(df, dk)])[0], [c1 - c0, r1 - r0], `${side} ${df},${dk}`);
      }
    }
  });
});

describe("shapes: turns, normalising, the handle, outlines", () => {
  const L: Cells = [[0, 0], [0, 1], [0, 2], [1, 2]];

  test("a quarter turn is clockwise on the screen (right -> down); four are none", () => {
    assert.deepEqual(z(turn([[1, 0]], 1)), [[0, 1]]);
    assert.deepEqual(z(turn([[0, 1]], 1)), [[-1, 0]]);
    assert.deepEqual(z(turn(L, 4)), L);
    assert.deepEqual(z(turn(L, -1)), z(turn(L, 3)));
    assert.deepEqual(z(turn(L, 6)), z(turn(L, 2)));
    assert.deepEqual(z(turn(turn(L, 1), 1)), z(turn(L, 2)));
    // the cells keep their order (a tile's cell i stays cell i)
    assert.deepEqual(z(turn(L, 2)), z(L.map(([x, y]) => [-x, -y])));
  });

  test("normalise shifts to 0 and keeps order; the L's four turns are four shapes", () => {
    assert.deepEqual(normalise([[3, 5], [4, 5], [3, 6]]), [[0, 0], [1, 0], [0, 1]]);
    const shapes = new Set([0, 1, 2, 3].map((r) => key(normalise(turn(L, r)))));
    assert.equal(shapes.size, 4);
    const square: Cells = [[0, 0], [1, 0], [0, 1], [1, 1]];
    assert.equal(new Set([0, 1, 2, 3].map((r) => key(normalise(turn(square, r))))).size, 1);
  });

  test("the handle is the cell nearest the middle, one of the cells", () => {
    assert.deepEqual(handle([[0, 0]]), [0, 0]);
    assert.deepEqual(handle([[0, 0], [1, 0], [2, 0]]), [1, 0]);
    assert.deepEqual(handle([[0, 1], [1, 0], [1, 1], [1, 2], [2, 1]]), [1, 1]);
    for (const r of [0, 1, 2, 3]) {
      const c = turn(L, r);
      assert.ok(c.some((x) => x[0] === handle(c)[0] && x[1] === handle(c)[1]));
    }
  });

  test("outlines: only the edges between a cell of the set and one outside", () => {
    const segs = (d: string) => d.split("M").filter(Boolean);
    assert.equal(outlinePath([[0, 0]]), "M0 0L1 0M0 1L1 1M0 0L0 1M1 0L1 1");
    assert.equal(segs(outlinePath([[0, 0], [1, 0]])).length, 6);
    assert.equal(segs(outlinePath([[0, 0], [1, 0], [0, 1], [1, 1]])).length, 8);
    assert.equal(outlinePath([[0, 0]], 1, 2, 0.5), "M1 2L1.5 2M1 2.5L1.5 2.5M1 2L1 2.5M1.5 2L1.5 2.5");
    assert.equal(outlinePath([]), "");
  });

  test("placeKey: the squares and marked squares in any order", () => {
    assert.equal(placeKey("C", ["e2", "d2", "e1"]), placeKey("C", ["d2", "e1", "e2"]));
    assert.equal(placeKey("07", ["a1", "b1"], ["b1", "a1"]), placeKey("07", ["b1", "a1"], ["a1", "b1"]));
    assert.notEqual(placeKey("07", ["a1", "b1"], ["a1"]), placeKey("07", ["a1", "b1"], ["b1"]));
    assert.notEqual(placeKey("C", ["a1"]), placeKey("T", ["a1"]));
  });
});

describe("real views", () => {
  const games: GameName[] = ["urbino", "epaminondas", "cathedral", "toscana"];
  const marks: Record<GameName, string[]> = {
    urbino: ["lot", "last", "monument"], epaminondas: ["homeWhite", "homeBlack", "last"],
    cathedral: ["terrWhite", "terrBlack", "last"], toscana: ["areaWhite", "areaBlack", "centre", "last"],
  };

  test("markedCells: the screen cells of the squares with a mark, in both orientations", () => {
    for (const game of games) {
      const seen = new Set<string>();
      for (const { g, where } of positions(game)) {
        for (const side of ["white", "black"] as Side[]) {
          const grid = new Grid(g.view.width, g.view.height, side);
          for (const mark of marks[game]) {
            const want = Object.entries(g.view.squares).filter(([, sq]) => sq.marks?.includes(mark)).map(([n]) => grid.cell(n)!);
            assert.equal(key(markedCells(g.view, grid, mark)), key(want), `${where} ${mark}`);
            if (want.length) seen.add(mark);
          }
        }
      }
      assert.ok(seen.has("last") && seen.size >= 2, `${game}: the fixtures show marks (${[...seen]})`);
    }
  });

  test("drawnSig tells positions apart by the last move and the moves offered", () => {
    for (const game of games) {
      const ps = positions(game);
      for (let i = 1; i < ps.length; i++) {
        const [a, b] = [ps[i - 1].g, ps[i].g];
        if (a.view.last !== b.view.last) assert.notEqual(drawnSig(a.view, a.legal), drawnSig(b.view, b.legal), ps[i].where);
      }
      const g = ps[0].g;
      assert.equal(drawnSig(g.view, g.legal), drawnSig(g.view, g.legal.slice().reverse()), "the order of the moves does not matter");
      assert.ok(drawnSig(g.view, []).endsWith("|0|"));
    }
  });

  test("takePosition: other legal moves are a new position (the half-made move forgotten)", () => {
    const ctx = { orientation: "white" } as BoardContext;
    for (const game of ["urbino", "epaminondas"] as GameName[]) {
      const ps = positions(game);
      const st: SquareState = { ctx: null, view: null, legal: [], hint: [] };
      let resets = 0;
      const reset = () => { resets++; };
      let prev: LegalMove[] = [];
      for (const { g, where } of ps) {
        const legal = legalMoves(g);
        const fresh = takePosition(st, ctx, g.view, legal, reset);
        const same = prev.length === legal.length && prev.every((m, i) => m.move === legal[i].move);
        assert.equal(fresh, !same, where);
        assert.equal(st.view, g.view);
        assert.equal(st.legal, legal);
        // the same position again (a redraw) is not new
        assert.equal(takePosition(st, ctx, g.view, legalMoves(g), reset), false, where);
        prev = legal;
      }
      assert.ok(resets > ps.length / 2, `${game}: new positions reset the board`);
    }
  });
});
