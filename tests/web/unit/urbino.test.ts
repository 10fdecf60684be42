// urbino.test.ts — the Urbino board's input and view helpers (urbinokit.ts)
// on every position of the fixture games: the clicks a player makes for a
// legal move (from its parts) submit that move's text; what the board offers
// and says; the squares' labels, classes and the supply.

import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { squareName } from "../../../web/src/games/boardkit";
import {
  builds, keyKind, offerLabel, squareClass, squareLabel, supply, urbinoClick, urbinoMarks, type UrbinoPick,
} from "../../../web/src/games/urbinokit";
import { legalMoves } from "../../../web/src/gametext";
import type { LegalMove, Side, View } from "../../../web/src/types";
import { positions, spread, toAct } from "./fixtures";

const fresh = (): UrbinoPick => ({ arch: null, dest: null, kind: null });
const ALL = Array.from({ length: 81 }, (_, i) => squareName(i % 9, Math.floor(i / 9)));

// The clicks (and the building chosen) a player makes for move m, from its
// parts alone; returns what the last click submitted.
function make(legal: LegalMove[], view: View, m: LegalMove, where: string): string | undefined {
  const p = m.parts;
  const pick = fresh();
  const msg = `${where}: ${m.move}`;
  if (p.action === "place" && p.piece === "A") return urbinoClick(pick, legal, p.squares[0]).submit;
  assert.equal(p.action, "place", msg);
  if (p.from) {
    let r = urbinoClick(pick, legal, p.from);
    assert.equal(r.submit, undefined, msg);
    assert.equal(pick.arch, p.from, `${msg}: the architect is picked`);
    assert.ok(urbinoMarks(pick, legal).dests.has(p.to!), `${msg}: its new square is offered`);
    r = urbinoClick(pick, legal, p.to!);
    assert.equal(r.submit, undefined, msg);
    assert.equal(pick.dest, p.to, `${msg}: the architect is moved`);
  }
  // the building: by its key (H, P, T), offered only when it has a lot now
  const k = keyKind(pick, legal, p.piece!.toLowerCase());
  assert.equal(k, p.piece, `${msg}: the key ${p.piece} chooses the building`);
  pick.kind = k!;
  const mk = urbinoMarks(pick, legal);
  assert.equal(mk.kind, p.piece, msg);
  assert.ok(mk.targets.has(p.squares[0]), `${msg}: its lot is offered`);
  assert.match(offerLabel(p.squares[0], view, mk), /, build a (house|palace|tower) here$/, msg);
  return urbinoClick(pick, legal, p.squares[0]).submit;
}

describe("Urbino input (urbinokit)", () => {
  test("the clicks for each legal move's parts submit its text", () => {
    const seen = { setup: 0, first: 0, plain: 0, moved: 0, pass: 0 };
    for (const { g, where } of toAct("urbino")) {
      const legal = legalMoves(g);
      for (const m of spread(legal, 60)) {
        const p = m.parts;
        if (p.action === "first") {
          // a button per side, its data-key the move
          assert.ok(p.side === "white" || p.side === "black", where);
          seen.first++;
          continue;
        }
        if (p.action === "pass") {
          assert.equal(builds(legal).length, 0, `${where}: pass offered beside a build`);
          seen.pass++;
          continue;
        }
        assert.equal(make(legal, g.view, m, where), m.move, `${where}: the clicks for ${JSON.stringify(p)}`);
        if (p.piece === "A") seen.setup++;
        else if (p.from) seen.moved++;
        else seen.plain++;
      }
    }
    // the fixtures went through every kind of move
    assert.ok(seen.setup && seen.first && seen.plain && seen.moved && seen.pass, JSON.stringify(seen));
  });

  test("who builds first: one choice per side", () => {
    let n = 0;
    for (const { g, where } of toAct("urbino")) {
      const first = legalMoves(g).filter((m) => m.parts.action === "first");
      if (!first.length) continue;
      n++;
      assert.deepEqual(first.map((m) => m.parts.side).sort(), ["black", "white"], where);
      assert.equal(first.length, g.legal.length, `${where}: nothing else is legal then`);
    }
    assert.ok(n > 0);
  });

  test("a click that makes no move says why and submits nothing", () => {
    for (const { g, where } of spread(toAct("urbino"), 20)) {
      const legal = legalMoves(g);
      const all = builds(legal);
      if (!all.length) continue;
      const offered = new Set([...all.map((b) => b.sq), ...all.map((b) => b.from)]);
      const idle = ALL.find((n) => !offered.has(n));
      if (!idle) continue;
      const pick = fresh();
      const r = urbinoClick(pick, legal, idle);
      assert.equal(r.submit, undefined, where);
      assert.ok(r.say, `${where}: ${idle} says something`);
      assert.deepEqual(pick, fresh(), `${where}: nothing picked`);
    }
  });

  test("an architect picked twice is dropped; its new square clicked again is taken back", () => {
    let n = 0;
    for (const { g, where } of spread(toAct("urbino"), 30)) {
      const legal = legalMoves(g);
      const mv = builds(legal).find((b) => b.from);
      if (!mv) continue;
      n++;
      const pick = fresh();
      urbinoClick(pick, legal, mv.from);
      assert.equal(pick.arch, mv.from, where);
      assert.deepEqual(urbinoClick(pick, legal, mv.from), { say: "", render: true }, where);
      assert.equal(pick.arch, null, where);
      urbinoClick(pick, legal, mv.from);
      urbinoClick(pick, legal, mv.to);
      assert.equal(pick.dest, mv.to, where);
      const mk = urbinoMarks(pick, legal);
      assert.ok(mk.repositioned && mk.movable.size === 0, `${where}: no other architect moves now`);
      urbinoClick(pick, legal, mv.to);
      assert.equal(pick.dest, null, `${where}: the new square clicked again takes the move back`);
      assert.equal(pick.arch, mv.from, where);
    }
    assert.ok(n > 0);
  });

  test("no keys for kinds without a lot, nor without moves", () => {
    for (const { g, where } of spread(toAct("urbino"), 30)) {
      const legal = legalMoves(g);
      const avail = builds(legal).filter((b) => !b.from);
      for (const k of ["H", "P", "T"]) {
        const want = avail.some((b) => b.kind === k) ? k : null;
        assert.equal(keyKind(fresh(), legal, k.toLowerCase()), want, `${where}: key ${k}`);
      }
      assert.equal(keyKind(fresh(), legal, "x"), undefined);
      assert.equal(keyKind(fresh(), [], "h"), undefined);
    }
  });
});

describe("Urbino view helpers (urbinokit)", () => {
  test("labels say what stands on each square, its marks and its district", () => {
    for (const { g, where } of positions("urbino")) {
      const v = g.view;
      for (const n of ALL) {
        const sq = v.squares[n];
        const l = squareLabel(n, sq, v);
        assert.ok(l.startsWith(n + ", "), `${where} ${n}: ${l}`);
        if (!sq?.kind) assert.ok(l.startsWith(`${n}, empty`), `${where} ${n}: ${l}`);
        else if (sq.kind === "A") assert.ok(l.startsWith(`${n}, architect`), `${where} ${n}: ${l}`);
        else assert.ok(l.startsWith(`${n}, ${sq.owner} ${{ H: "house", P: "palace", T: "tower" }[sq.kind]}`), `${where} ${n}: ${l}`);
        assert.equal(l.includes(", building lot"), !!sq?.marks?.includes("lot"), `${where} ${n}: ${l}`);
        assert.equal(l.includes(", last move"), !!sq?.marks?.includes("last"), `${where} ${n}: ${l}`);
        assert.equal(l.includes(", part of a monument"), !!sq?.marks?.includes("monument"), `${where} ${n}: ${l}`);
        const r = sq?.region ? v.regions.find((x) => x.id === sq.region) : undefined;
        if (r) assert.ok(l.includes(`district: white ${r.white}, black ${r.black}`), `${where} ${n}: ${l}`);
        else assert.ok(!l.includes("district"), `${where} ${n}: ${l}`);
      }
    }
  });

  test("the classes mark the lots, the last move and what the half-made move offers", () => {
    for (const { g, where } of spread(toAct("urbino"), 40)) {
      const legal = legalMoves(g), v = g.view;
      const pick = fresh();
      const mk = urbinoMarks(pick, legal);
      const hint = new Set([ALL[0]]);
      for (const n of ALL) {
        const cls = squareClass(n, v, mk, pick, hint).split(" ");
        const marks = v.squares[n]?.marks ?? [];
        assert.equal(cls.includes("lot"), marks.includes("lot"), `${where} ${n}`);
        assert.equal(cls.includes("last"), marks.includes("last"), `${where} ${n}`);
        assert.equal(cls.includes("target"), mk.targets.has(n) || mk.setupSquares.has(n), `${where} ${n}`);
        assert.equal(cls.includes("movable"), builds(legal).some((b) => b.from === n), `${where} ${n}`);
        assert.equal(cls.includes("hint"), n === ALL[0], `${where} ${n}`);
        assert.ok(!cls.includes("picked"));
      }
      // the lots offered for the kind shown are the view's lots (no architect moved)
      for (const n of mk.targets) assert.ok(v.squares[n]?.marks?.includes("lot"), `${where}: ${n} offered, not a lot`);
    }
  });

  test("the supply is the hand's count of each kind", () => {
    for (const { g, where } of positions("urbino")) {
      for (const side of ["white", "black"] as Side[]) {
        const s = supply(g.view, side);
        for (const k of ["H", "P", "T"]) {
          const want = g.view.sides[side].hand.filter((it) => it.kind === k).reduce((a, it) => a + it.count, 0);
          assert.equal(s[k], want, `${where} ${side} ${k}`);
        }
      }
    }
  });
});
