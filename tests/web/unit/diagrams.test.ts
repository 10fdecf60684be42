// diagrams.test.ts — the rules pages' diagrams (diagrams.ts,
// rules-diagrams.json) against the current server: each game's record is
// accepted by POST /api/records, holds every move of the page, and the view
// after every ply a diagram shows is there.

import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { PAGES, recordText } from "../../../web/src/diagrams";
import type { Game, GameName } from "../../../web/src/types";
import { fixtures } from "./fixtures";

const { url, meta } = fixtures();

async function call<T>(method: string, p: string, body?: unknown): Promise<{ status: number; data: T }> {
  const r = await fetch(url + p, {
    method, headers: body ? { "Content-Type": "application/json" } : {}, body: body ? JSON.stringify(body) : undefined,
  });
  return { status: r.status, data: (await r.json()) as T };
}

describe("the rules pages' diagrams (diagrams.ts)", () => {
  test("a page for every game the server offers", () => {
    assert.deepEqual(Object.keys(PAGES).sort(), meta.games.map((g) => g.name).sort());
  });

  for (const game of Object.keys(PAGES) as GameName[]) {
    test(`${game}: the record loads with all its moves, and every diagram's view is there`, async () => {
      const page = PAGES[game];
      const text = recordText(game);
      assert.ok(text.startsWith(`[Game "${game}"]\n`), text);
      assert.equal(text.includes("[Options "), !!page.options);
      const made = await call<{ id: string }>("POST", "/api/records", { record: text, white: "human", black: "human" });
      assert.equal(made.status, 201, JSON.stringify(made.data));
      const g = (await call<Game>("GET", `/api/games/${made.data.id}`)).data;
      assert.deepEqual(g.moves, page.moves.split(" "), "every move of the page played");
      assert.ok(page.diagrams.length > 0);
      for (const d of page.diagrams) {
        assert.ok(d.ply >= 0 && d.ply <= g.ply && d.caption, JSON.stringify(d));
        const v = await call<{ ply: number; view: Game["view"] }>("GET", `/api/games/${made.data.id}/view?ply=${d.ply}`);
        assert.equal(v.status, 200);
        assert.equal(v.data.ply, d.ply);
        assert.equal(v.data.view.last, d.ply ? g.moves[d.ply - 1] : "", `the view after move ${d.ply}`);
      }
    });
  }
});
