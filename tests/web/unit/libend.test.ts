// libend.test.ts — the library's end sentence (view.end) in Italian
// (web/src/libend.ts): every kind of ending the games write (src/games/*.c,
// their formats filled in), and the endings of the fixture games; nothing of
// the English left, the numbers and sides kept; English unchanged.

import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { lang, setLang } from "../../../web/src/i18n";
import { sayEnd } from "../../../web/src/libend";
import type { GameName } from "../../../web/src/types";
import { positions } from "./fixtures";

// One sentence of each kind the library writes, as it writes them.
const samples: [string, RegExp][] = [
  ["Neither player could build any more. Both have 12 squares of buildings left: a draw.", /Nessuno dei due.*12 caselle: pareggio/],
  ["Neither player could build any more. Both have 1 square of buildings left: a draw.", /1 caselle: pareggio/],
  ["Neither player could build any more. White has 4 squares of buildings left, Black 9: fewer wins, so White wins.", /Bianco restano edifici per 4 caselle, al Nero per 9.*vince il Bianco/],
  ["Black began a turn with more pieces on the far row than White had on theirs, 2 to 1: Black wins.", /Il Nero ha cominciato.*il Bianco sulla sua, 2 a 1: vince il Nero/],
  ["White had no move left: Black wins.", /Il Bianco non aveva più mosse: vince il Nero/],
  ["The game reached its limit of 500 moves without a winner: a draw.", /limite di 500 semimosse.*pareggio/],
  ["Every tile was played. White's largest area touches 12 tiles, Black's 11: White wins.", /Tutte le tessere.*Bianco tocca 12 tessere, quella del Nero 11: vince il Bianco/],
  ["No tile could be placed: both passed, with 1 tile left to White and 3 to Black. Both largest areas touch 9 tiles: a draw.", /1 tessere rimaste al Bianco e 3 al Nero\. Entrambe.*9 tessere: pareggio/],
  ["Neither player could build any more. 14 points each, and equal towers, palaces and houses in the districts each scores: a draw.", /14 punti a testa.*pareggio/],
  ["Neither player could build any more. White scores 1 point, Black 0. White wins.", /Il Bianco fa 1 punti, il Nero 0\. Vince il Bianco/],
  ["Neither player could build any more. White scores 20 points, Black 20. Equal points, towers and palaces; Black has more houses in the districts it scores, 5 to 4. Black wins.",
    /Pari nei punti, nelle torri e nei palazzi; il Nero ha più case.*5 a 4\. Vince il Nero/],
  ["Neither player could build any more. White scores 20 points, Black 20. Equal points; White has more towers in the districts it scores, 2 to 1. White wins.", /Pari nei punti; il Bianco ha più torri/],
];
const english = /\b(wins|draw|Neither|player|White|Black|tiles?|squares?|points?|moves?|Every|largest|equal)\b/;

describe("the library's end sentence in Italian (libend.ts)", () => {
  const was = lang();
  test("every kind of ending, nothing of the English left", () => {
    try {
      setLang("it");
      for (const [en, want] of samples) {
        const it = sayEnd(en);
        assert.match(it, want, en);
        assert.doesNotMatch(it, english, `English left in "${it}"`);
      }
    } finally {
      setLang(was);
    }
  });
  test("the endings of the fixture games, every one read", () => {
    let n = 0;
    try {
      setLang("it");
      for (const game of ["urbino", "epaminondas", "cathedral", "toscana"] as GameName[]) {
        for (const { g, where } of positions(game)) {
          const end = g.view?.end ?? "";
          if (!end) continue;
          n++;
          assert.doesNotMatch(sayEnd(end), english, `${where}: "${end}" -> "${sayEnd(end)}"`);
        }
      }
    } finally {
      setLang(was);
    }
    assert.ok(n > 0, "some fixture game ended with a sentence");
  });
  test("English: the library's sentence as it is", () => {
    try {
      setLang("en");
      for (const [en] of samples) assert.equal(sayEnd(en), en);
    } finally {
      setLang(was);
    }
  });
});
