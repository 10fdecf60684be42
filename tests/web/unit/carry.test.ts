// carry.test.ts — the carried-piece boards (boardkit's CarryBoard, with
// Cathedral's and Toscana's helpers) on every position of the fixture games,
// in both orientations: the hand's shape turned by a placement's rotation
// lands on the placement's squares; the piece carried (carriedOf), turned
// by that rotation with its handle on the right square, is that placement's
// ghost, shown legal, and Enter there submits its text; the handle's spots;
// a turn with no room is skipped; pass by Enter.

import assert from "node:assert/strict";
import { describe, test } from "node:test";
import {
  Carried, carriedOf, CarryBoard, Cells, Grid, normalise, placeKey, turn,
} from "../../../web/src/games/boardkit";
import { handPieces } from "../../../web/src/games/cathedralkit";
import { FRAME, frameTurned, topTile } from "../../../web/src/games/toscanakit";
import { legalMoves } from "../../../web/src/gametext";
import type { BoardContext, Game, LegalMove, Side } from "../../../web/src/types";
import { toAct, type Position } from "./fixtures";

const key = (c: Cells) => c.map(([x, y]) => `${x},${y}`).sort().join(" ");
const sameSet = (a: Cells, b: Cells) => key(a) === key(b);
const shift = (c: Cells, d: [number, number]): Cells => c.map(([x, y]) => [x + d[0], y + d[1]] as [number, number]);

// A board as the game screen drives it, with a context that records what is
// submitted (no svg: the ghost is not drawn) and the piece carried now.
function board(game: "cathedral" | "toscana", g: Game, side: Side) {
  const sent: string[] = [];
  let carried: Carried | null = null;
  const n = game === "cathedral" ? 10 : 17;
  const cb = new CarryBoard({
    name: game, n, start: [0, 0],
    look: { spot: 0, cell: () => ["", 0], edge: 0, edgeFill: () => "", hintCell: () => ["", 0], hintEdge: 0, cursor: [0, 0] },
    carried: () => carried,
    layout: () => [0, 0], escape: () => false, idle: () => {}, refused: () => {},
  });
  const ctx = { orientation: side, submit: (m: string) => sent.push(m), say: () => {} } as unknown as BoardContext;
  const legal = legalMoves(g);
  cb.take(ctx, g.view, legal, g.seat);
  return { cb, legal, sent, carry: (c: Carried | null) => { carried = c; } };
}

// The anchor (screen cell under the handle) that puts the carried piece,
// turned rot, on the placement's squares; with the cells it then covers.
function anchorFor(cb: CarryBoard, c: Carried, rot: number, m: LegalMove): [number, number] {
  const at0 = cb.cellsAt([0, 0], rot, c);
  const want = m.parts.squares.map((s) => cb.grid.cell(s)!);
  const d: [number, number] = [Math.min(...want.map((x) => x[0])) - Math.min(...at0.map((x) => x[0])),
    Math.min(...want.map((x) => x[1])) - Math.min(...at0.map((x) => x[1]))];
  return d;
}

// The quarter turns on the screen that carry a piece to a placement of the
// parts' rotation.  Cathedral's hand draws each building as the board shows
// it (turned half round with black below), so they are the parts' rotation.
// Toscana's panel draws the tile in its frame whichever side is below: on a
// board turned half round the tile as carried is the hand's (as the board is
// drawn with rank 1 at the bottom) turned two quarter turns more.
const screenTurn = (game: "cathedral" | "toscana", side: Side, m: LegalMove): number =>
  ((m.parts.rotation ?? 0) + (game === "toscana" && side === "black" ? 2 : 0)) % 4;

// Place every legal placement by carrying the piece there: the ghost is that
// move, legal, on the board, and Enter submits it.
function placeAll(cb: CarryBoard, sent: string[], c: Carried, ms: LegalMove[], where: string,
  turnOf: (m: LegalMove) => number): void {
  for (const m of ms) {
    const rot = turnOf(m);
    const a = anchorFor(cb, c, rot, m);
    assert.equal(cb.moveAt(a, rot, c), m, `${where}: ${m.move} turned ${rot} with its handle on ${cb.grid.square(...a)}`);
    cb.rot = rot;
    cb.anchor = a;
    assert.deepEqual(cb.ghost(), { cells: cb.cellsAt(a, rot, c), move: m.move, ok: true, onBoard: true }, where);
    const ev = { key: "Enter", ctrlKey: false, metaKey: false, altKey: false, shiftKey: false } as KeyboardEvent;
    assert.equal(cb.key(ev), true, where);
    assert.equal(sent.pop(), m.move, `${where}: Enter places ${m.move}`);
    cb.pending = false;   // what the next draw does
  }
}

// Every turn of the piece that has room has its spots where the handle goes,
// and a turn with none is skipped to one that has.
function spotsAndRoom(cb: CarryBoard, c: Carried, ms: LegalMove[], where: string): void {
  for (let rot = 0; rot < 4; rot++) {
    const spots = new Set(cb.spots(rot).map((s) => s.join(",")));
    const want = new Set(ms.map((m) => ({ m, a: anchorFor(cb, c, rot, m) }))
      .filter(({ m, a }) => cb.moveAt(a, rot, c) === m).map(({ a }) => a.join(",")));
    assert.deepEqual(spots, want, `${where}: the spots of turn ${rot}`);
    cb.rot = rot;
    cb.turnToRoom();
    assert.ok(cb.spots(cb.rot).length > 0, `${where}: turn ${rot} goes on to a turn with room`);
    if (spots.size) assert.equal(cb.rot, rot, `${where}: a turn with room is kept`);
  }
}

// Where pass is the only move, Enter passes (nothing is carried then).
function passAlone(game: "cathedral" | "toscana", ps: Position[]): void {
  let n = 0;
  for (const { g, where } of ps) {
    if (g.legal.length !== 1 || g.legal[0] !== "pass") continue;
    n++;
    const { cb, sent } = board(game, g, g.seat!);
    assert.equal(cb.placements().length, 0, where);
    cb.key({ key: "Enter" } as KeyboardEvent);
    assert.deepEqual(sent, ["pass"], where);
  }
  assert.ok(n > 0, `the ${game} fixtures have a position where pass is the only move`);
}

function check(game: "cathedral" | "toscana", positions: Position[], test: (p: Position, side: Side) => void): void {
  for (const p of positions) for (const side of ["white", "black"] as Side[]) test(p, side);
}

describe("Cathedral: the carried building (CarryBoard, cathedralkit)", () => {
  const ps = toAct("cathedral");

  test("each placement: the hand's shape turned by its rotation lands on its squares", () => {
    const rots = new Set<number>();
    check("cathedral", ps, ({ g, where }, side) => {
      const grid = new Grid(10, 10, side);
      const hand = handPieces(g.view, g.seat!, grid);
      for (const m of legalMoves(g)) {
        if (m.parts.action !== "place") continue;
        const h = hand.find((x) => x.code === m.parts.piece);
        assert.ok(h, `${where}: ${m.parts.piece} is in the hand`);
        const rot = m.parts.rotation ?? 0;
        rots.add(rot);
        const cells = m.parts.squares.map((s) => grid.cell(s)!);
        assert.ok(sameSet(normalise(turn(h.cells, rot)), normalise(cells)),
          `${where} (${side} below): ${m.move} is the hand's ${m.parts.piece} turned ${rot}`);
      }
    });
    assert.deepEqual([...rots].sort(), [0, 1, 2, 3], "the fixtures turn buildings every way");
  });

  test("each placement is one ghost: its building carried, turned, placed by Enter", () => {
    check("cathedral", ps, ({ g, where }, side) => {
      const { cb, legal, sent, carry } = board("cathedral", g, side);
      const places = legal.filter((m) => m.parts.action === "place");
      assert.equal(cb.placements().length, places.length, `${where}: every placement has its own squares`);
      for (const code of new Set(places.map((m) => m.parts.piece!))) {
        // the board carries the building as its first placement shows it, turned back
        const ms = places.filter((m) => m.parts.piece === code);
        const c = carriedOf(cb.grid, ms[0])!;
        const h = handPieces(g.view, g.seat!, cb.grid).find((x) => x.code === code)!;
        assert.ok(sameSet(c.cells, h.cells), `${where} (${side} below): ${code} is carried as the hand shows it`);
        carry(c);
        placeAll(cb, sent, c, ms, `${where} (${side} below)`, (m) => screenTurn("cathedral", side, m));
      }
    });
  });

  test("the handle's spots in each turn, and a turn without room skipped", () => {
    check("cathedral", ps.filter((_, i) => i % 3 === 0), ({ g, where }, side) => {
      const { cb, legal, carry } = board("cathedral", g, side);
      const places = legal.filter((m) => m.parts.action === "place");
      for (const code of new Set(places.map((m) => m.parts.piece!))) {
        const ms = places.filter((m) => m.parts.piece === code);
        const c = carriedOf(cb.grid, ms[0])!;
        carry(c);
        spotsAndRoom(cb, c, ms, `${where} (${side} below) ${code}`);
      }
    });
  });

  test("off the board or on no placement, the ghost is refused", () => {
    check("cathedral", ps.filter((_, i) => i % 4 === 0), ({ g, where }, side) => {
      const { cb, legal, carry } = board("cathedral", g, side);
      const m = legal.find((x) => x.parts.action === "place" && x.parts.squares.length > 1);
      if (!m) return;
      const c = carriedOf(cb.grid, m)!;
      carry(c);
      cb.rot = 0;
      // the handle on a corner: a building of two squares or more sticks out in some turn
      let off = false;
      for (let rot = 0; rot < 4 && !off; rot++) {
        for (const a of [[0, 0], [9, 9], [0, 9], [9, 0]] as [number, number][]) {
          if (cb.moveAt(a, rot, c) === null) {
            cb.rot = rot;
            cb.anchor = a;
            assert.deepEqual({ ok: cb.ghost()!.ok, onBoard: cb.ghost()!.onBoard, move: cb.ghost()!.move },
              { ok: false, onBoard: false, move: "" }, where);
            off = true;
            break;
          }
        }
      }
      assert.ok(off, `${where}: some corner puts ${m.parts.piece} off the board`);
    });
  });

  test("pass: Enter passes when it is the only move", () => passAlone("cathedral", ps));
});

describe("Toscana: the carried tile (CarryBoard, toscanakit)", () => {
  const ps = toAct("toscana");

  test("the top tile: its frame as the hand gives it, its off-colour cells as the parts mark them", () => {
    let decisions = 0;
    check("toscana", ps, ({ g, where }, side) => {
      const grid = new Grid(17, 17, side);
      const tile = topTile(g.view, g.seat!);
      const legal = legalMoves(g);
      if (legal.every((m) => m.parts.action === "veto" || m.parts.action === "accept")) {
        assert.deepEqual(legal.map((m) => m.parts.action).sort(), ["accept", "veto"], where);
        decisions++;
        return;
      }
      assert.ok(tile, `${where}: a tile in hand`);
      // the hand's (file, rank) cells, on a white screen, are the frame in order
      assert.deepEqual(normalise(tile.cells!.map(([f, k]) => new Grid(17, 17, "white").toScreen(f, k))), FRAME, where);
      for (const m of legal) {
        if (m.parts.action !== "place") continue;
        assert.equal(m.parts.piece, tile.id, `${where}: ${m.move} places the top tile`);
        const off = m.parts.squares.map((s, i) => (m.parts.marked!.includes(s) ? i : -1)).filter((i) => i >= 0);
        assert.deepEqual(off, [...tile.off!].sort((a, b) => a - b), `${where}: ${m.move}'s marked squares are the tile's off cells`);
        // cell i of the turned frame is on squares[i]
        const rot = screenTurn("toscana", side, m);
        const cells = m.parts.squares.map((s) => grid.cell(s)!);
        const d: [number, number] = [cells[0][0] - frameTurned(rot)[0][0], cells[0][1] - frameTurned(rot)[0][1]];
        assert.deepEqual(shift(frameTurned(rot), d), cells, `${where} (${side} below): ${m.move} is the frame turned ${rot} on the screen, cell by cell`);
      }
    });
    assert.ok(decisions > 0, "the fixtures have veto / accept decisions");
  });

  test("each placement is one ghost: the tile carried, turned, placed by Enter", () => {
    const rots = new Set<number>();
    check("toscana", ps, ({ g, where }, side) => {
      const { cb, legal, sent, carry } = board("toscana", g, side);
      const places = legal.filter((m) => m.parts.action === "place");
      if (!places.length) return;
      assert.equal(cb.placements().length, places.length, `${where}: every placement has its own squares`);
      const c = carriedOf(cb.grid, places[0], FRAME)!;
      assert.deepEqual(c.marked, [...topTile(g.view, g.seat!)!.off!].sort((a, b) => a - b), where);
      carry(c);
      for (const m of places) rots.add(m.parts.rotation ?? 0);
      placeAll(cb, sent, c, places, `${where} (${side} below)`, (m) => screenTurn("toscana", side, m));
    });
    assert.deepEqual([...rots].sort(), [0, 1, 2, 3], "the fixtures turn tiles every way");
  });

  test("the handle's spots in each turn, and a turn without room skipped", () => {
    check("toscana", ps.filter((_, i) => i % 3 === 0), ({ g, where }, side) => {
      const { cb, legal, carry } = board("toscana", g, side);
      const places = legal.filter((m) => m.parts.action === "place");
      if (!places.length) return;
      const c = carriedOf(cb.grid, places[0], FRAME)!;
      carry(c);
      spotsAndRoom(cb, c, places, `${where} (${side} below)`);
    });
  });

  test("pass: Enter passes when it is the only move", () => passAlone("toscana", ps));

  test("placements are told apart by their squares and marked squares", () => {
    for (const { g, where } of ps) {
      const keys = legalMoves(g).filter((m) => m.parts.action === "place")
        .map((m) => placeKey(m.parts.piece!, m.parts.squares, m.parts.marked));
      assert.equal(new Set(keys).size, keys.length, where);
    }
  });
});
