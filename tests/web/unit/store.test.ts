// store.test.ts — the games this browser knows (store.ts), over a
// localStorage of the test's own: newest first, one entry per game, at most
// 40, updates and removal, and a storage that is full, disabled or holds
// junk never breaks the page.

import assert from "node:assert/strict";
import { beforeEach, describe, test } from "node:test";
import * as store from "../../../web/src/store";

class Memory {
  data = new Map<string, string>();
  fail = false;
  getItem(k: string): string | null {
    if (this.fail) throw new Error("disabled");
    return this.data.get(k) ?? null;
  }
  setItem(k: string, v: string): void {
    if (this.fail) throw new Error("full");
    this.data.set(k, v);
  }
}
let mem = new Memory();
const g = globalThis as unknown as { localStorage: Memory };

const entry = (id: string, extra: Partial<store.Saved> = {}): store.Saved =>
  ({ id, game: "urbino", seats: { white: "w" + id }, opponent: "a friend by link", created: 1, ...extra });

describe("the saved games (store.ts)", () => {
  beforeEach(() => {
    mem = new Memory();
    g.localStorage = mem;
  });

  test("put keeps one entry per game, newest first", () => {
    assert.deepEqual(store.loadAll(), []);
    store.put(entry("a"));
    store.put(entry("b"));
    store.put(entry("a", { opponent: "again" }));
    assert.deepEqual(store.loadAll().map((s) => s.id), ["a", "b"]);
    assert.equal(store.find("a")?.opponent, "again");
    assert.equal(store.find("c"), undefined);
  });

  test("at most 40 games are kept, the oldest dropped", () => {
    for (let i = 0; i < 45; i++) store.put(entry(String(i)));
    const ids = store.loadAll().map((s) => s.id);
    assert.equal(ids.length, 40);
    assert.equal(ids[0], "44");
    assert.equal(ids[39], "5");
  });

  test("update changes only the fields given, of a game known; remove forgets it", () => {
    store.put(entry("a", { invite: { side: "black", token: "t" } }));
    store.update("a", { over: true, result: "White wins" });
    assert.deepEqual(store.find("a"), { ...entry("a", { invite: { side: "black", token: "t" } }), over: true, result: "White wins" });
    store.update("zz", { over: true });
    assert.equal(store.find("zz"), undefined);
    store.remove("a");
    assert.deepEqual(store.loadAll(), []);
  });

  test("junk, a full or a disabled storage: no games, and no error", () => {
    mem.data.set("tavoliere.games", "{not json");
    assert.deepEqual(store.loadAll(), []);
    mem.data.set("tavoliere.games", JSON.stringify({ id: "a" }));
    assert.deepEqual(store.loadAll(), []);
    mem.data.set("tavoliere.games", JSON.stringify([entry("a"), null, { id: 7 }, "x"]));
    assert.deepEqual(store.loadAll().map((s) => s.id), ["a"]);
    mem.fail = true;
    assert.deepEqual(store.loadAll(), []);
    assert.doesNotThrow(() => store.put(entry("b")));
    assert.doesNotThrow(() => store.remove("b"));
  });
});
