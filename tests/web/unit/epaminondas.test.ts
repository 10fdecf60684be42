// epaminondas.test.ts — the Epaminondas board's input and view helpers
// (epaminondaskit.ts) on every position of the fixture games: the clicks a
// player makes for a legal move (rear piece, front piece, landing square,
// from its parts) submit that move's text; what the board offers on the way
// (landings, captures, the pieces taken); the crossing warning; the squares'
// labels and classes.

import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { parseSquare, squareName } from "../../../web/src/games/boardkit";
import {
  afterRear, crossingWarning, epaminondasClick, epaminondasMarks, FH, FW, phalanxMoves, pieceOwner, prompt, squareClass, squareLabel,
  type EpaminondasPick,
} from "../../../web/src/games/epaminondaskit";
import { legalMoves } from "../../../web/src/gametext";
import type { LegalMove, View } from "../../../web/src/types";
import { positions, spread, toAct } from "./fixtures";

const fresh = (): EpaminondasPick => ({ rear: null, front: null });
const ALL = Array.from({ length: FW * FH }, (_, i) => squareName(i % FW, Math.floor(i / FW)));

// The clicks a player makes for move m, checking what the board offers after
// each; returns what the last click submitted.
function make(legal: LegalMove[], view: View, m: LegalMove, where: string): string | undefined {
  const p = m.parts, msg = `${where}: ${m.move}`;
  const rear = p.squares[0], front = p.squares[p.squares.length - 1];
  assert.equal(p.from, rear, `${msg}: from is the rear piece`);
  assert.equal(pieceOwner(view, rear), view.squares[rear]?.owner, msg);
  const pick = fresh();
  let r = epaminondasClick(pick, legal, view, rear);
  assert.equal(r.submit, undefined, msg);
  assert.equal(pick.rear, rear, `${msg}: the rear piece is picked`);
  if (front !== rear) {
    assert.ok(epaminondasMarks(pick, legal).fronts.has(front), `${msg}: the front piece is offered`);
    r = epaminondasClick(pick, legal, view, front);
    assert.equal(r.submit, undefined, msg);
    assert.equal(pick.front, front, `${msg}: the front piece is picked`);
  }
  const mk = epaminondasMarks(pick, legal);
  assert.equal(mk.targets.get(p.to!)?.move, m.move, `${msg}: the landing is offered`);
  for (const s of p.squares) assert.ok(mk.picked.has(s), `${msg}: ${s} shown picked`);
  for (const s of p.marked ?? []) assert.ok(mk.doomed.has(s), `${msg}: ${s} shown captured`);
  const label = squareLabel(p.to!, view, mk, pick);
  assert.ok(label.includes(p.marked?.length ? ", capture here" : ", land here"), `${msg}: ${label}`);
  assert.ok(squareClass(p.to!, view, mk, pick).split(" ").includes("target"), msg);
  return epaminondasClick(pick, legal, view, p.to!).submit;
}

describe("Epaminondas input (epaminondaskit)", () => {
  test("the clicks for each legal move's parts submit its text", () => {
    const seen = { single: 0, phalanx: 0, capture: 0 };
    for (const { g, where } of toAct("epaminondas")) {
      const legal = legalMoves(g);
      for (const m of spread(legal, 80)) {
        assert.equal(m.parts.action, "move", where);
        assert.equal(make(legal, g.view, m, where), m.move, `${where}: the clicks for ${JSON.stringify(m.parts)}`);
        if (m.parts.marked?.length) seen.capture++;
        else if (m.parts.squares.length > 1) seen.phalanx++;
        else seen.single++;
      }
    }
    assert.ok(seen.single && seen.phalanx && seen.capture, JSON.stringify(seen));
  });

  test("every move is one phalanx of the mover's pieces, rear to front", () => {
    for (const { g, where } of toAct("epaminondas")) {
      const moves = phalanxMoves(legalMoves(g));
      assert.equal(moves.length, g.legal.length, where);
      for (const mv of moves) {
        for (const s of mv.line) assert.equal(g.view.squares[s]?.owner, g.tomove, `${where}: ${mv.move} ${s}`);
        for (const s of mv.captured) assert.equal(g.view.squares[s]?.owner, g.tomove === "white" ? "black" : "white", `${where}: ${mv.move} takes ${s}`);
      }
    }
  });

  test("picked pieces clicked again are dropped; another rear piece is taken instead", () => {
    for (const { g, where } of spread(toAct("epaminondas"), 40)) {
      const legal = legalMoves(g), v = g.view;
      const moves = phalanxMoves(legal);
      const ph = moves.find((m) => m.line.length > 1);
      if (!ph) continue;
      const pick = fresh();
      epaminondasClick(pick, legal, v, ph.rear);
      epaminondasClick(pick, legal, v, ph.front);
      assert.deepEqual(epaminondasClick(pick, legal, v, ph.front), { render: true }, where);
      assert.deepEqual(pick, { rear: ph.rear, front: null }, `${where}: the front piece clicked again is dropped`);
      assert.deepEqual(epaminondasClick(pick, legal, v, ph.rear), { reset: true, say: "", render: true }, where);
      assert.deepEqual(pick, fresh(), `${where}: the rear piece clicked again drops both`);
      // a piece that leads a move of its own and is no front piece of ph's rear
      const other = moves.find((m) => m.rear !== ph.rear && !moves.some((x) => x.rear === ph.rear && x.front === m.rear));
      if (!other) continue;
      epaminondasClick(pick, legal, v, ph.rear);
      epaminondasClick(pick, legal, v, ph.front);
      epaminondasClick(pick, legal, v, other.rear);
      assert.deepEqual(pick, { rear: other.rear, front: null }, `${where}: another rear piece`);
    }
  });

  test("after the rear piece, the message names what the board draws (issue 34: no dotted square that is not there)", () => {
    let both = 0, frontsOnly = 0;
    for (const { g, where } of spread(toAct("epaminondas"), 60)) {
      const legal = legalMoves(g), v = g.view;
      for (const rear of new Set(phalanxMoves(legal).map((m) => m.rear))) {
        const pick = fresh();
        const r = epaminondasClick(pick, legal, v, rear);
        const mk = epaminondasMarks(pick, legal);
        const say = r.say ?? "";
        assert.equal(say, afterRear(mk.moves, rear), where);
        // the dashed rings are drawn on the front pieces, which are the mover's own
        for (const f of mk.fronts) assert.equal(v.squares[f]?.owner, g.tomove, `${where}: ${f}`);
        assert.equal(/dashed circle/.test(say), mk.fronts.size > 0, `${where} ${rear}: ${say}`);
        // the dots are the squares this piece reaches alone
        assert.equal(/dotted square/.test(say), mk.targets.size > 0, `${where} ${rear}: ${say}`);
        assert.equal(/alone/.test(say), mk.fronts.size > 0 && mk.targets.size > 0, `${where} ${rear}: ${say}`);
        if (mk.fronts.size && mk.targets.size) both++;
        else if (mk.fronts.size) frontsOnly++;
      }
    }
    assert.ok(both > 0 && both + frontsOnly > 0, "a rear piece with both choices was seen");
  });

  test("a click on what cannot move says why and submits nothing", () => {
    for (const { g, where } of spread(toAct("epaminondas"), 40)) {
      const legal = legalMoves(g), v = g.view;
      const rears = new Set(phalanxMoves(legal).map((m) => m.rear));
      for (const n of ALL) {
        if (rears.has(n)) continue;
        const pick = fresh();
        const r = epaminondasClick(pick, legal, v, n);
        const own = pieceOwner(v, n);
        assert.deepEqual(r, { say: own ? "That piece cannot move." : "Click one of your pieces." }, `${where} ${n}`);
        assert.deepEqual(pick, fresh());
      }
      assert.deepEqual(epaminondasClick(fresh(), [], v, [...rears][0]), {}, "no moves: no input");
    }
  });
});

describe("Epaminondas view helpers (epaminondaskit)", () => {
  test("the crossing warning names the side that leads on the far rows", () => {
    let warned = 0;
    for (const { g, where } of positions("epaminondas")) {
      let w = 0, b = 0;
      for (const [n, sq] of Object.entries(g.view.squares)) {
        const k = parseSquare(n)![1];
        if (sq.kind === "M" && sq.owner === "white" && k === FH - 1) w++;
        if (sq.kind === "M" && sq.owner === "black" && k === 0) b++;
      }
      const text = crossingWarning(g.view);
      if (g.view.phase === "over" || w === b) assert.equal(text, "", where);
      else {
        warned++;
        const [lead, other, a, c] = w > b ? ["White", "black", w, b] : ["Black", "white", b, w];
        assert.equal(text, `${lead} leads ${a}:${c} on the far rows: ${other} must capture or cross now, or lose.`, where);
      }
    }
    assert.ok(warned > 0, "the fixtures reached a crossing");
  });

  test("labels and classes: pieces, home rows, the last move, the squares' colours", () => {
    for (const { g, where } of spread(positions("epaminondas"), 60)) {
      const v = g.view, pick = fresh();
      const mk = epaminondasMarks(pick, legalMoves(g));
      for (const n of ALL) {
        const sq = v.squares[n];
        const l = squareLabel(n, v, mk, pick);
        const cls = squareClass(n, v, mk, pick).split(" ");
        const [f, k] = parseSquare(n)!;
        assert.ok(l.startsWith(sq?.kind ? `${n}, ${sq.owner} piece` : `${n}, empty`), `${where} ${n}: ${l}`);
        assert.equal(cls[0], (f + k) % 2 ? "light" : "dark", `${where} ${n}`);
        assert.ok(["light", "dark"].includes(cls[0]));
        assert.equal(cls.includes("home-white"), !!sq?.marks?.includes("homeWhite"), `${where} ${n}`);
        assert.equal(cls.includes("home-black"), !!sq?.marks?.includes("homeBlack"), `${where} ${n}`);
        assert.equal(l.includes("white's home row"), !!sq?.marks?.includes("homeWhite"), `${where} ${n}`);
        assert.equal(cls.includes("last"), !!sq?.marks?.includes("last"), `${where} ${n}`);
        assert.equal(cls.includes("movable"), mk.rears.has(n), `${where} ${n}`);
        assert.equal(l.endsWith(", can move"), mk.rears.has(n), `${where} ${n}: ${l}`);
        assert.ok(!cls.includes("target"));
      }
      // the home rows: white's rank 1, black's rank 12
      assert.equal(v.squares.a1?.marks?.includes("homeWhite"), true, where);
      assert.equal(v.squares.n12?.marks?.includes("homeBlack"), true, where);
    }
  });

  test("the line above the board says what to click next, to the side to act only", () => {
    for (const { g, where } of spread(positions("epaminondas"), 40)) {
      const legal = legalMoves(g), v = g.view;
      const mk0 = epaminondasMarks(fresh(), legal);
      assert.equal(prompt(fresh(), legal, v, mk0), legal.length ? "Click the rear piece of the phalanx you move." : "", where);
      const ph = phalanxMoves(legal).find((m) => m.line.length > 1);
      if (!ph) continue;
      const pick = { rear: ph.rear, front: null };
      const mk1 = epaminondasMarks(pick, legal);
      const line = prompt(pick, legal, v, mk1);
      // it names what is drawn: ringed front pieces, dotted squares for this piece alone
      assert.equal(/ringed/.test(line), mk1.fronts.size > 0, `${where}: ${line}`);
      assert.equal(/dotted/.test(line), mk1.targets.size > 0, `${where}: ${line}`);
      const both = { rear: ph.rear, front: ph.front };
      assert.equal(prompt(both, legal, v, epaminondasMarks(both, legal)), "Click a dotted square to land.", where);
    }
  });
});
