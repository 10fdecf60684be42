// gametext.test.ts — the game screen's texts and decisions (gametext.ts) on
// the fixture games' JSON: the legal moves handed to a board (text and parts
// in one order), results, whose turn for each kind of screen, players'
// names, the side shown below, steps through the moves, the history note.

import assert from "node:assert/strict";
import { describe, test } from "node:test";
import {
  endText, historyText, legalMoves, mistakeText, movers, orientationOf, pageTitle, resultText, statusText, stepTarget,
  moveLabel, rematchPlan, vetoNotice, watchingText, whoText,
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
      const n = g.legalGroups.reduce((k, grp) => k + (grp.at ? grp.at.length : grp.count), 0);
      assert.equal(n, g.legal.length, `${where}: the groups hold one anchor (or count) per move`);
      lm.forEach((m, i) => {
        assert.equal(m.move, g.legal[i]);
        assert.ok(["place", "move", "first", "pass", "veto", "accept"].includes(m.parts.action), `${where}: ${m.move}`);
        assert.ok(Array.isArray(m.parts.squares));
      });
      assert.equal(new Set(g.legal).size, g.legal.length, `${where}: no move twice`);
    }
    // a group without squares (a pass): its count of moves, no squares
    const pass = { ...all[0].g, legal: ["pass"], legalGroups: [{ action: "pass", squares: [], count: 1 }] } as Game;
    assert.deepEqual(legalMoves(pass), [{ move: "pass", parts: { action: "pass", squares: [] } }]);
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
    assert.equal(whoText(g, "black", [], meta), "a player", "a spectator is told of no friend");
    assert.equal(whoText(g, "white", [], meta), "a player");
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

describe("issue 34: whose move, why it ended, who watches (gametext.ts)", () => {
  test("movers: the side that made each move is the side that was to act before it, in every fixture game", () => {
    let checked = 0;
    const seen = new Set<string>();
    for (const game of games) {
      for (const { g, where } of positions(game)) {
        if (g.tomove === "none") continue;
        // the moves up to this position and one more, from the game's final list
        const last = positions(game).filter((p) => p.g.id === g.id).map((p) => p.g).sort((a, b) => b.ply - a.ply)[0];
        if (last.moves.length <= g.ply) continue;
        const m = movers(g.game, last.options, last.moves);
        assert.equal(m.length, last.moves.length);
        assert.equal(m[g.ply], g.tomove, `${where}: move ${g.ply + 1} ${last.moves[g.ply]}`);
        seen.add(`${game}:${last.moves[g.ply].split(/[:\d]/)[0]}`);
        checked++;
      }
    }
    assert.ok(checked > 200, String(checked));
    for (const want of ["toscana:veto", "toscana:accept", "urbino:first", "cathedral:Y"]) {
      assert.ok([...seen].some((x) => x.startsWith(want)), `the fixtures hold a ${want} move: ${[...seen].join(" ")}`);
    }
  });

  test("mistakeText says whose mistake it was", () => {
    assert.equal(mistakeText(12, "Hd4", "??", "Pe5", "white", []), "12. Hd4 ?? White's blunder (best: Pe5)");
    assert.equal(mistakeText(7, "a1a2-a3", "?", "b1-b2", "black", ["white", "black"]), "7. a1a2-a3 ? Black's mistake (best: b1-b2)");
    assert.equal(mistakeText(3, "pass", "?", "", "white", ["white"]), "3. pass ? your mistake");
    assert.equal(mistakeText(4, "veto", "??", "accept", "black", ["white"]), "4. veto ?? your opponent's blunder (best: accept)");
  });

  test("endText: the server's reason, the resignation, nothing while the game runs", () => {
    const g = all.find((p) => p.g.over)!.g;
    const running = all.find((p) => !p.g.over)!.g;
    assert.equal(endText(running), "");
    assert.equal(endText({ ...running, view: { ...running.view, end: "ignored" } }), "");
    assert.equal(endText({ ...g, resigned: null, view: { ...g.view, end: "" } }), "");
    assert.equal(endText({ ...g, resigned: null, view: { ...g.view, end: "White crossed to the far row." } }), "White crossed to the far row.");
    assert.equal(endText({ ...g, resigned: "black", view: { ...g.view, end: undefined } }), "Black resigned.");
    assert.equal(endText({ ...g, resigned: "black", view: { ...g.view, end: "Black resigned after 20 moves." } }), "Black resigned.");
  });

  test("pageTitle says 'Your turn' only to the one seat to move", () => {
    const g = all.find((p) => !p.g.over && p.g.tomove === "white")!.g;
    assert.equal(pageTitle(g, ["white"], "Urbino"), "Your turn · Urbino — Tavoliere");
    assert.equal(pageTitle(g, ["black"], "Urbino"), "Urbino — Tavoliere");
    assert.equal(pageTitle(g, [], "Urbino"), "Urbino — Tavoliere");
    assert.equal(pageTitle(g, ["white", "black"], "Urbino"), "Urbino — Tavoliere");
    assert.equal(pageTitle({ ...g, over: true }, ["white"], "Urbino"), "Urbino — Tavoliere");
  });

  test("watchingText tells a screen with no seat that it watches", () => {
    const g = all[5].g;
    assert.equal(watchingText(g, ["white"]), "");
    assert.match(watchingText(g, []), /watching/);
  });
});

describe("Toscana's vetoes in the texts (gametext.ts, issue 34)", () => {
  test("vetoNotice names who vetoed which tile; moveLabel leaves the accepts out", () => {
    let seen = 0;
    const ps = positions("toscana");
    for (let i = 1; i < ps.length; i++) {
      const old = ps[i - 1].g, g = ps[i].g;
      if (g.id !== old.id || g.ply !== old.ply + 1) continue;
      const last = g.moves[g.ply - 1];
      const by = movers(g.game, g.options, g.moves);
      if (last !== "veto") {
        assert.equal(vetoNotice(old, g, ["white"]), "");
        continue;
      }
      seen++;
      const vetoed = by[g.ply - 1] === "white" ? "black" : "white";
      const tile = old.view.sides[vetoed].hand.find((t) => t.kind === "S")!.id;
      assert.equal(vetoNotice(old, g, [vetoed]), `${by[g.ply - 1] === "white" ? "White" : "Black"} vetoed your tile ${tile}: it goes to the bottom of your stack. Place your next tile.`);
      assert.match(vetoNotice(old, g, [by[g.ply - 1]]), new RegExp(`^You vetoed ${vetoed}'s tile ${tile}`));
      assert.match(vetoNotice(null, g, []), /vetoed .*'s tile:/);
    }
    assert.ok(seen > 0, "the fixtures hold a veto");
    const g = ps[ps.length - 1].g;
    const by = movers(g.game, g.options, g.moves);
    g.moves.forEach((m, i) => {
      const l = moveLabel(g, i, by);
      if (m === "accept") assert.equal(l, null);
      else if (m === "veto") assert.equal(l, `veto by ${by[i]}`);
      else assert.equal(l, m);
    });
  });
});

describe("rematch (gametext.ts, issue 34)", () => {
  test("colours swapped against the computer, options kept, a fresh Toscana deal, none between two screens", () => {
    const over = all.find((p) => p.g.over && p.g.game === "cathedral")!.g;
    const g = { ...over, options: "opening=late", white: "human", black: "ai:level=3" };
    assert.equal(rematchPlan({ ...g, over: false }, ["white"]), null);
    assert.deepEqual(rematchPlan(g, ["white"]), { game: "cathedral", options: "opening=late", white: "ai:level=3", black: "human", local: false, me: "black" });
    assert.deepEqual(rematchPlan({ ...g, black: "human" }, ["white", "black"]),
      { game: "cathedral", options: "opening=late", white: "human", black: "human", local: true, me: null });
    assert.equal(rematchPlan({ ...g, black: "human" }, ["white"]), null, "two screens: the server's rematch");
    assert.equal(rematchPlan(g, []), null, "a spectator");
    const t = { ...g, game: "toscana" as GameName, options: "seed=77 white=01,02 black=03,04" };
    assert.equal(rematchPlan(t, ["white"])!.options, "", "a fresh deal");
  });
});
