// meta.test.ts — the page's reading of /api/meta (meta.ts) on the current
// server's answer: titles, the option sets a new game offers (each one
// accepted by POST /api/games), options as people read them, score words,
// level names and ratings, players' names.

import assert from "node:assert/strict";
import { describe, test } from "node:test";
import {
  capital, gameMeta, levelLabel, levelName, optionSets, optionsText, playerName, scoreText, title,
} from "../../../web/src/meta";
import { BOARDS } from "../../../web/src/games/index";
import type { GameMeta } from "../../../web/src/types";
import { fixtures } from "./fixtures";

const { meta, url } = fixtures();

describe("meta (meta.ts) on the server's /api/meta", () => {
  test("every game the server offers has a board and a title", () => {
    assert.deepEqual(meta.games.map((g) => g.name).sort(), Object.keys(BOARDS).sort());
    for (const g of meta.games) {
      assert.equal(gameMeta(meta, g.name), g);
      assert.equal(title(meta, g.name), g.title);
      assert.ok(g.title && g.pitch && g.rules.length, g.name);
    }
    assert.equal(gameMeta(meta, "chess"), undefined);
    assert.equal(title(meta, "chess"), "chess");
    assert.equal(title(null, "urbino"), "urbino", "the registry name while meta is missing");
  });

  test("the option sets of a new game: one per menu choice, each accepted by the server", async () => {
    for (const g of meta.games) {
      const sets = optionSets(g);
      if (!g.menu) assert.deepEqual(sets, [{ label: "Standard", options: "" }], g.name);
      else {
        assert.equal(sets.length, g.menu.choices.length, g.name);
        sets.forEach((s, i) => {
          assert.equal(s.options, `${g.menu!.key}=${g.menu!.choices[i].value}`);
          assert.equal(s.label, capital(g.menu!.choices[i].label));
          assert.match(s.label, /^[A-Z]/);
          assert.equal(optionsText(g, s.options), g.menu!.choices[i].value, "the choice by its value");
        });
      }
      for (const s of sets) {
        const r = await fetch(`${url}/api/games`, {
          method: "POST", headers: { "Content-Type": "application/json" },
          body: JSON.stringify({ game: g.name, options: s.options, white: "human", black: "human" }),
        });
        assert.equal(r.status, 201, `${g.name} "${s.options}": ${await r.text()}`);
      }
    }
  });

  test("options as people read them: the menu's choice by its value, the rest as they are", () => {
    const urbino = gameMeta(meta, "urbino")!;
    assert.equal(optionsText(urbino, "variant=monuments"), "monuments");
    assert.equal(optionsText(urbino, " variant=standard  seed=3 "), "standard seed=3");
    assert.equal(optionsText(undefined, "variant=monuments"), "variant=monuments");
    assert.equal(optionsText(gameMeta(meta, "epaminondas"), "maxplies=30"), "maxplies=30");
    assert.equal(optionsText(urbino, ""), "");
  });

  test("score words: what the score counts and who wins by it", () => {
    for (const g of meta.games) {
      const t = scoreText(g);
      assert.ok(t.startsWith(g.scoreWords), g.name);
      assert.equal(t, g.scoreWins === "none" ? g.scoreWords : `${g.scoreWords}, ${g.scoreWins} wins`);
    }
    assert.equal(scoreText(undefined), "");
  });

  test("levels: names, ratings rounded to 50, players' names", () => {
    assert.deepEqual(meta.levels.map((l) => l.level), [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    for (const l of meta.levels) {
      assert.equal(levelName(meta, l.level), capital(l.name));
      assert.equal(playerName(`ai:level=${l.level}`, meta), `Computer (${capital(l.name)})`);
      assert.equal(l.player, `ai:level=${l.level}`);
      for (const g of meta.games) {
        const r = g.ratings[l.level - 1];
        const label = levelLabel(g, l);
        assert.ok(label.startsWith(`Level ${l.level} · ${capital(l.name)}`), label);
        if (typeof r === "number") {
          const shown = Number(/about (\d+)$/.exec(label)?.[1]);
          assert.equal(shown % 50, 0, label);
          assert.ok(Math.abs(shown - r) <= 25, `${label} for ${r}`);
        } else assert.equal(label, `Level ${l.level} · ${capital(l.name)}`);
      }
    }
    const none: GameMeta = { ...meta.games[0], ratings: [] };
    assert.equal(levelLabel(none, meta.levels[0]), `Level 1 · ${capital(meta.levels[0].name)}`);
    assert.equal(levelName(meta, 11), "level 11");
    assert.equal(levelName(null, 4), "level 4");
    assert.equal(playerName("human", meta), "Player");
    assert.equal(playerName("random", meta), "Computer (random moves)");
    assert.equal(playerName("ai", meta), "Computer");
    assert.equal(playerName("uct", meta), "uct");
    assert.equal(playerName("ai:level=4", null), "Computer (level 4)");
  });
});
