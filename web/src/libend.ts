// libend.ts — the game library's sentence on how a game ended (the view's
// `end`, written in English by src/games/*.c) in the page's language.  The
// sentence is read piece by piece against the library's own sentences; each
// piece read is said with the catalog's text (keys "libend.*"), its numbers
// and sides kept.  A piece no pattern reads stays as the library wrote it.
// In English the library's sentence is shown as it is.
// tests/web/unit/libend.test.ts reads every kind of ending, and the endings
// of real games.

import { lang, t, type Key, type Params } from "./i18n";

const side = (w: string): string => t(w === "White" ? "side.white" : "side.black");

// Each piece: its English pattern (from the library's format) and how to say it.
const pieces: [RegExp, (m: RegExpExecArray) => [Key, Params?]][] = [
  [/Neither player could build any more\./y, () => ["libend.noMoreBuilding"]],
  [/Both have (\d+) squares? of buildings left: a draw\./y, (m) => ["libend.cathDraw", { n: Number(m[1]) }]],
  [/White has (\d+) squares? of buildings left, Black (\d+): fewer wins, so (White|Black) wins\./y,
    (m) => ["libend.cathWin", { w: Number(m[1]), b: Number(m[2]), winner: side(m[3]) }]],
  [/(White|Black) began a turn with more pieces on the far row than (White|Black) had on theirs, (\d+) to (\d+): (White|Black) wins\./y,
    (m) => ["libend.epaFar", { side: side(m[1]), other: side(m[2]), a: Number(m[3]), b: Number(m[4]), winner: side(m[5]) }]],
  [/(White|Black) had no move left: (White|Black) wins\./y, (m) => ["libend.epaStuck", { side: side(m[1]), winner: side(m[2]) }]],
  [/The game reached its limit of (\d+) moves without a winner: a draw\./y, (m) => ["libend.epaLimit", { n: Number(m[1]) }]],
  [/Every tile was played\./y, () => ["libend.tosAll"]],
  [/No tile could be placed: both passed, with (\d+) tiles? left to White and (\d+) to Black\./y,
    (m) => ["libend.tosStuck", { w: Number(m[1]), b: Number(m[2]) }]],
  [/Both largest areas touch (\d+) tiles: a draw\./y, (m) => ["libend.tosDraw", { n: Number(m[1]) }]],
  [/White's largest area touches (\d+) tiles, Black's (\d+): (White|Black) wins\./y,
    (m) => ["libend.tosWin", { w: Number(m[1]), b: Number(m[2]), winner: side(m[3]) }]],
  [/(\d+) points each, and equal towers, palaces and houses in the districts each scores: a draw\./y,
    (m) => ["libend.urbDraw", { n: Number(m[1]) }]],
  [/White scores (\d+) points?, Black (\d+)\./y, (m) => ["libend.urbScores", { w: Number(m[1]), b: Number(m[2]) }]],
  // equal points; points and towers; or points, towers and palaces
  [/Equal points(, towers and palaces| and towers)?; (White|Black) has more (towers|palaces|houses) in the districts it scores, (\d+) to (\d+)\./y,
    (m) => ["libend.urbTie", {
      equal: t(!m[1] ? "libend.eqPoints" : m[1].startsWith(",") ? "libend.eqPalaces" : "libend.eqTowers"),
      side: side(m[2]),
      what: t(m[3] === "towers" ? "libend.towers" : m[3] === "palaces" ? "libend.palaces" : "libend.houses"),
      a: Number(m[4]), b: Number(m[5]),
    }]],
  [/(White|Black) wins\./y, (m) => ["libend.wins", { side: side(m[1]) }]],
];

/** The library's end sentence in the page's language. */
export function sayEnd(end: string): string {
  if (lang() === "en" || !end) return end;
  let out = "", i = 0;
  while (i < end.length) {
    let done = false;
    for (const [re, say] of pieces) {
      re.lastIndex = i;
      const m = re.exec(end);
      if (!m) continue;
      const [key, params] = say(m);
      out += t(key, params);
      i = re.lastIndex;
      done = true;
      break;
    }
    if (!done) out += end[i++];
  }
  return out;
}
