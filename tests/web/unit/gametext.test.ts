// gametext.test.ts — the game screen's texts and decisions (gametext.ts) on
// the fixture games' JSON: the legal moves handed to a board (text and parts
// in one order), results, whose turn for each kind of screen, players'
// names, the side shown below, steps through the moves, the history note.

import assert from "node:assert/strict";
import { describe, test } from "node:test";
import {
  historyText, legalMoves, orientationOf, resultText, statusText, stepTarget, whoText,
} from "../../../web/src/gametext";
import type { Game, GameName, Side } from "../../../web/src/types";
import { fixtures, positions } from "./fixtures";

const games: GameName[] = ["urbino", "epaminondas", "cathedral", "toscana"];
const all = games.flatMap((g) => positions(g));
const { meta } = fixtures();

describe("the game screen's texts (gametext.ts)", () => {
  test("legalMoves: every legal text with its parts, in the server's order", () => {
    for (const { g, where } of all) {
      const lm = legalMoves(g);
      assert.equal(lm.length, g.legal.length, where);
      const n = (g.legalGroups ?? []).reduce((k, grp) => k + (grp.at ? grp.at.length : grp.count ?? 0), 0);
      assert.equal(n, g.legal.length, `${where}: the groups hold one anchor (or count) per move`);
      lm.forEach((m, i) => {
        assert.equal(m.move, g.legal[i]);
        assert.ok(["place", "move", "first", "pass", "veto", "accept"].includes(m.parts.action), `${where}: ${m.move}`);
        assert.ok(Array.isArray(m.parts.squares));
      });
      assert.equal(new Set(g.legal).size, g.legal.length, `${where}: no move twice`);
    }
    const bare = { ...all[0].g, legal: ["pass"], legalGroups: undefined } as Game;
    assert.deepEqual(legalMoves(bare), [{ move: "pass", parts: { action: "", squares: [] } }], "no parts from an older server");
  });

  test("results: the winner, a draw, a resignation", () => {
    const over = all.filter(({ g }) => g.over);
    assert.ok(over.length > 0, "the fixtures finish games");
    for (const { g, where } of over) {
      const want = g.winner === "draw" ? "Drawn" : g.winner === "none" ? "Game over" : `${g.winner[0].toUpperCase()}${g.winner.slice(1)} wins`;
      assert.equal(resultText(g), want, where);
    }
    const g = all[0].g;
    assert.equal(resultText({ ...g, over: true, resigned: "black", winner: "white" }), "Black resigned: white wins");
    assert.equal(resultText({ ...g, over: true, resigned: "white", winner: "black" }), "White resigned: black wins");
  });

  test("whose turn, for a screen with one seat, both seats, or none", () => {
    for (const { g, where } of all) {
      if (g.over) {
        for (const mine of [[], ["white"], ["white", "black"]] as Side[][]) assert.equal(statusText(g, mine), resultText(g), where);
        continue;
      }
      const t = g.tomove as Side, o: Side = t === "white" ? "black" : "white";
      const T = t === "white" ? "White" : "Black";
      assert.equal(statusText(g, [t]), "Your turn", where);
      assert.equal(statusText(g, ["white", "black"]), `${T} to move`, where);
      assert.equal(statusText(g, [o]), `Waiting for ${t}`, where);
      assert.equal(statusText(g, []), `${T} to move`, where);
      const vsComputer = { ...g, [t]: "ai:level=3" } as Game;
      assert.equal(statusText(vsComputer, [o]), `${T} (computer) to move`);
      assert.equal(statusText({ ...vsComputer, thinking: true }, [o]), "The computer is thinking…");
    }
    assert.equal(statusText({ ...all[0].g, over: false, tomove: "none" }, []), "…");
  });

  test("who plays: you, a friend, both on this screen, or the computer by its level's name", () => {
    const g = all[0].g;
    assert.equal(whoText(g, "white", ["white"], meta), "You");
    assert.equal(whoText(g, "black", ["white"], meta), "Friend");
    assert.equal(whoText(g, "black", [], meta), "Friend");
    assert.equal(whoText(g, "black", ["white", "black"], meta), "on this screen");
    const name = meta.levels.find((l) => l.level === 4)!.name;
    assert.equal(whoText({ ...g, black: "ai:level=4" }, "black", ["white"], meta),
      `Computer (${name[0].toUpperCase()}${name.slice(1)})`);
    assert.equal(whoText({ ...g, black: "random" }, "black", ["white"], meta), "Computer (random moves)");
  });

  test("the side below: the one seat held, else white; flipped on request", () => {
    assert.equal(orientationOf(["black"], false), "black");
    assert.equal(orientationOf(["white"], false), "white");
    assert.equal(orientationOf([], false), "white");
    assert.equal(orientationOf(["white", "black"], false), "white");
    assert.equal(orientationOf(["black"], true), "white");
    assert.equal(orientationOf([], true), "black");
  });

  test("steps through the moves stay within the game", () => {
    for (const ply of [0, 1, 5]) {
      for (let cur = 0; cur <= ply; cur++) {
        assert.equal(stepTarget("first", cur, ply), cur === 0 ? null : 0);
        assert.equal(stepTarget("last", cur, ply), ply, "the last position, even from itself");
        assert.equal(stepTarget("prev", cur, ply), cur > 0 ? cur - 1 : null);
        assert.equal(stepTarget("next", cur, ply), cur < ply ? cur + 1 : null);
      }
    }
  });

  test("the history note while a past position is shown", () => {
    assert.equal(historyText(null, 12), "");
    assert.equal(historyText(0, 12), "Showing the start position. Press End or ▶| to return to the game.");
    assert.equal(historyText(5, 12), "Showing the position after move 5 of 12. Press End or ▶| to return to the game.");
  });
});
