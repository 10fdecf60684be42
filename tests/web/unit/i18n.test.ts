// i18n.test.ts — the page's two catalogs (web/i18n/en.json, it.json; SPEC
// "Languages"): exactly the same keys, each with the same {placeholders} in
// both languages, every plural family with its "other" form; t, tn and the
// browser's language; the Italian over /api/meta (meta.it.json) fills every
// game; and no text for people written as a string literal in web/src
// outside the catalogs.

import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { describe, test } from "node:test";
import en from "../../../web/i18n/en.json";
import it from "../../../web/i18n/it.json";
import metaIt from "../../../web/i18n/meta.it.json";
import { browserLang, catalog, lang, refusal, setLang, t, tn } from "../../../web/src/i18n";
import { clockLabel, deadlineText } from "../../../web/src/clock";
import { resultText } from "../../../web/src/gametext";
import { fixtures } from "./fixtures";
import { PAGES } from "../../../web/src/diagrams";

const holes = (s: string) => [...new Set([...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]))].sort();

describe("the server's refusals (src/server/errcode.c)", () => {
  const src = fs.readFileSync(path.resolve(process.cwd(), "src/server/errcode.c"), "utf8");
  const codes = [...new Set([...src.matchAll(/"([a-z_]+)"\}/g), ...src.matchAll(/return "([a-z_]+)"/g),
    ...src.matchAll(/\? "([a-z_]+)" : "([a-z_]+)"/g)].flatMap((m) => m.slice(1)))].sort();
  test("the table names its codes (found by this test)", () => {
    assert.ok(codes.length > 80, `${codes.length} codes`);
    for (const c of ["illegal_move", "stale_ply", "not_your_turn", "wrong_password", "bad_request", "server_error", "refused"])
      assert.ok(codes.includes(c), c);
  });
  test("every code has a text in both catalogs", () => {
    for (const c of codes) {
      assert.ok(`code.${c}` in en, `code.${c} in en.json`);
      assert.ok(`code.${c}` in it, `code.${c} in it.json`);
    }
  });
  test("every code is documented in docs/server-api.md", () => {
    const doc = fs.readFileSync(path.resolve(process.cwd(), "docs/server-api.md"), "utf8");
    for (const c of codes) assert.ok(doc.includes(`\`${c}\``), `${c} in docs/server-api.md`);
  });
  test("refusal(): English keeps the server's words, Italian says the code's", () => {
    const body = { error: "stale ply 3: 0 moves were played", code: "stale_ply" };
    const was = lang();
    try {
      setLang("en");
      assert.equal(refusal(409, body, "Conflict"), body.error);
      assert.equal(refusal(409, null, "Conflict"), "Conflict");
      setLang("it");
      const I = it as Record<string, string>, bare = (k: string) => I[k].replace(/\.$/, "");
      assert.equal(refusal(409, body, "Conflict"), bare("code.stale_ply"));
      assert.equal(refusal(429, { error: "x", code: "no_such_code_here" }, "x"), bare("code.rate_limited"));
      assert.equal(refusal(502, null, "Bad Gateway"), bare("code.server_error"));
    } finally {
      setLang(was);
    }
  });
});

describe("the catalogs", () => {
  test("en.json and it.json have exactly the same keys", () => {
    const a = Object.keys(en).sort(), b = Object.keys(it).sort();
    assert.deepEqual(b.filter((k) => !a.includes(k)), [], "keys only in it.json");
    assert.deepEqual(a.filter((k) => !b.includes(k)), [], "keys only in en.json");
  });
  test("each key has the same placeholders in both, and a text in both", () => {
    const E = en as Record<string, string>, I = it as Record<string, string>;
    for (const k of Object.keys(E)) {
      assert.deepEqual(holes(I[k]), holes(E[k]), `placeholders of ${k}`);
      assert.ok(E[k].trim().length > 0 && I[k].trim().length > 0, `an empty text: ${k}`);
    }
  });
  test("a plural family has its 'other' form; its texts say {n}", () => {
    for (const k of Object.keys(en)) {
      const m = /^(.*)_(one|other)$/.exec(k);
      if (!m) continue;
      assert.ok(`${m[1]}_other` in en, `${m[1]}_other`);
      assert.match((en as Record<string, string>)[k], /\{n\}/, k);
    }
  });
  test("the Italian is no copy of the English where words differ (most keys)", () => {
    const E = en as Record<string, string>, I = it as Record<string, string>;
    const same = Object.keys(E).filter((k) => /[a-z]{4} [a-z]{3}/i.test(E[k]) && E[k] === I[k]);
    assert.deepEqual(same, [], "sentences left in English in it.json");
  });
});

describe("t, tn and the language", () => {
  test("the browser's first language decides: it-IT, it → Italian; en-US, fr, none → English", () => {
    assert.equal(browserLang(["it-IT", "en-US"]), "it");
    assert.equal(browserLang(["it"]), "it");
    assert.equal(browserLang(["en-US", "it-IT"]), "en");
    assert.equal(browserLang(["fr-FR"]), "en");
    assert.equal(browserLang([]), "en");
    assert.equal(browserLang(undefined), "en");
  });
  test("placeholders filled; plurals by Intl.PluralRules; Intl for durations", () => {
    assert.equal(lang(), "en");
    try {
      assert.equal(t("game.wins", { side: "White" }), "White wins");
      assert.equal(tn("moves", 1), "1 move");
      assert.equal(tn("moves", 3), "3 moves");
      assert.equal(clockLabel({ days: 1 }), "1 day a move");
      setLang("it");
      assert.equal(t("game.wins", { side: t("side.white") }), "Vince il Bianco");
      assert.equal(tn("moves", 1), "1 mossa");
      assert.equal(tn("moves", 2), "2 mosse");
      assert.equal(clockLabel({ days: 3 }), "3 giorni a mossa");
      assert.equal(deadlineText(Date.UTC(2026, 0, 3, 5), Date.UTC(2026, 0, 1)), "2 giorni 5 h rimasti");
      assert.equal(t("game.toMove", { side: t("side.black") }), "Muove il Nero");
      assert.equal(t("meta.about", { base: "x", rating: 12500 }), `x — circa ${new Intl.NumberFormat("it").format(12500)}`);
    } finally {
      setLang("en");
    }
  });
  test("the game screen's result line in both languages", () => {
    const g = { end: "normal", winner: "black", resigned: null } as unknown as Parameters<typeof resultText>[0];
    assert.equal(resultText(g), "Black wins");
    setLang("it");
    try {
      assert.equal(resultText(g), "Vince il Nero");
    } finally {
      setLang("en");
    }
    assert.equal(catalog("it")["nav.lobby"], "Sala");
  });
});

describe("the games' words in Italian (meta.it.json)", () => {
  test("every game of /api/meta has its pitch and as many rule sections as the server's, and every level a name", () => {
    const meta = fixtures().meta;
    const M = metaIt as { levels: Record<string, string>; games: Record<string, { pitch?: string; rules?: unknown[]; captions?: string[]; menu?: { choices?: Record<string, string> } }> };
    for (const g of meta.games) {
      const x = M.games[g.name];
      assert.ok(x && x.pitch, `${g.name}: a pitch`);
      assert.equal(x.rules?.length, g.rules.length, `${g.name}: the rules' sections`);
      for (const c of g.menu?.choices ?? []) assert.ok(x.menu?.choices?.[c.value], `${g.name}: menu choice ${c.value}`);
      assert.equal(x.captions?.length, PAGES[g.name as keyof typeof PAGES]?.diagrams.length, `${g.name}: a caption per diagram`);
    }
    for (const l of meta.levels) assert.ok(M.levels[String(l.level)], `level ${l.level}`);
  });
});

describe("no text for people outside the catalogs", () => {
  // A string literal that reads as a sentence or a label ("Sign in", "The
  // game could not …") in web/src, comments left out; the engine's worker
  // speaks to the page only.
  const root = path.resolve(process.cwd(), "web/src");
  const files: string[] = [];
  const walk = (d: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) { if (e.name !== "engine") walk(p); } else if (p.endsWith(".ts")) files.push(p);
    }
  };
  walk(root);
  test("web/src has no such literal", () => {
    const found: string[] = [];
    const literal = /"([A-Z][a-z']+(?: [A-Za-z'…,.:;!?()-]+)+)"|`([A-Z][a-z']+ [a-z][^`$]*)`|"([a-z']+ [a-z']+ [a-z][^"]*)"/g;
    for (const f of files) {
      fs.readFileSync(f, "utf8").split("\n").forEach((line, i) => {
        const code = line.replace(/\/\/.*$/, "");
        if (/^\s*(\*|\/\*)/.test(code) || /console\.|font-family|querySelector|matchMedia|closest\(/.test(code)) return;
        for (const m of code.matchAll(literal)) found.push(`${path.relative(root, f)}:${i + 1}: ${m[0]}`);
      });
    }
    assert.deepEqual(found, []);
  });
});
