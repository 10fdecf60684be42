// sound.test.ts — which sound a change of position calls for (soundkit.ts),
// on the fixture games' consecutive positions and the Cathedral record with
// captures: Epaminondas' captures are its moves written with "x", Cathedral's
// the moves after which a side has lost buildings, the last move of a game
// ended is the end, Urbino and Toscana never capture; nothing for the first
// position, the same one again, or a step back.

import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { NOTES, soundFor, type Moment } from "../../../web/src/soundkit";
import type { GameName } from "../../../web/src/types";
import { fixtures, positions } from "./fixtures";

const games: GameName[] = ["urbino", "epaminondas", "cathedral", "toscana"];

// Consecutive positions of the fixture games (one ply apart, same game).
function steps(game: GameName) {
  const all = positions(game);
  const out = [];
  for (let i = 1; i < all.length; i++) {
    const [a, b] = [all[i - 1], all[i]];
    if (b.g.ply === a.g.ply + 1) out.push({ a: a.g, b: b.g, move: b.g.moves[b.g.ply - 1], where: b.where });
  }
  return out;
}

describe("sounds (soundkit.ts)", () => {
  test("Epaminondas: a capture exactly when the move takes (written with x); the end once", () => {
    let caps = 0, ends = 0;
    const st = steps("epaminondas");
    assert.ok(st.length > 50, `${st.length} steps`);
    for (const { a, b, move, where } of st) {
      const want = b.over ? "end" : move.includes("x") ? "capture" : "move";
      assert.equal(soundFor(a, b), want, `${where}: ${move}`);
      if (want === "capture") caps++;
      if (want === "end") ends++;
    }
    assert.ok(caps > 3, `${caps} captures heard`);
    assert.ok(ends >= 1, "a game ended");
  });

  test("Cathedral: a capture after the three moves of the record that take buildings, and only then", () => {
    const { captures: views, capturesMoves } = fixtures();
    const heard: number[] = [];
    for (let p = 1; p < views.length; p++) {
      const a: Moment = { ply: p - 1, over: false, view: views[p - 1] };
      const b: Moment = { ply: p, over: false, view: views[p] };
      const lost = (["white", "black"] as const).some((s) => views[p].sides[s].captured > views[p - 1].sides[s].captured);
      const got = soundFor(a, b);
      assert.equal(got, lost ? "capture" : "move", `move ${p} ${capturesMoves[p - 1]}`);
      if (got === "capture") heard.push(p);
    }
    assert.equal(heard.length, 3, `captures at ${heard.join(", ")}`);
  });

  test("Cathedral's random games: a capture only when a side lost a building", () => {
    for (const { a, b, move, where } of steps("cathedral")) {
      const lost = (["white", "black"] as const).some((s) => b.view.sides[s].captured > a.view.sides[s].captured);
      const got = soundFor(a, b);
      if (b.over) assert.equal(got, "end", where);
      else if (lost) assert.equal(got, "capture", `${where}: ${move}`);
      else assert.ok(got === "move" || got === "capture", `${where}: ${move}`);
    }
  });

  test("Urbino and Toscana: a move every ply (passes, vetoes and the first choice too), the end at the end", () => {
    for (const game of ["urbino", "toscana"] as GameName[]) {
      const st = steps(game);
      assert.ok(st.length > 20, `${game}: ${st.length} steps`);
      for (const { a, b, move, where } of st) assert.equal(soundFor(a, b), b.over ? "end" : "move", `${where}: ${move}`);
    }
  });

  test("no sound for the first position, the same one again, or a step back", () => {
    for (const game of games) {
      const st = steps(game);
      for (const { a, b, where } of st.slice(0, 10)) {
        assert.equal(soundFor(null, b), null, where);
        assert.equal(soundFor(b, b), null, where);
        assert.equal(soundFor(b, a), null, `${where}: undo`);
      }
    }
  });

  test("the notes: every sound has some, audible and short", () => {
    for (const [k, notes] of Object.entries(NOTES)) {
      assert.ok(notes.length > 0, k);
      for (const n of notes) assert.ok(n.f >= 200 && n.f <= 2000 && n.len > 0 && n.at + n.len <= 1, k);
    }
    assert.notEqual(NOTES.move[0].f, NOTES.capture[0].f, "a capture does not sound like a move");
  });
});
