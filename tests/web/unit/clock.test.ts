// clock.test.ts — the clocks of games between accounts as the page shows
// them (clock.ts): time left in a clock's words, the warning under 10 % or
// 20 s, the side to move's clock counted down from the server's figure, a
// correspondence deadline in days and hours, time controls in short.

import assert from "node:assert/strict";
import { describe, test } from "node:test";
import {
  CLOCK_PRESETS, clockKind, clockLabel, clockLow, clockNow, deadlineText, formatClock, isDays, isLive,
} from "../../../web/src/clock";

describe("clock (clock.ts)", () => {
  test("time left as a clock shows it", () => {
    assert.equal(formatClock(180000), "3:00");
    assert.equal(formatClock(179999), "3:00", "a clock just started still shows its whole minutes");
    assert.equal(formatClock(179001), "3:00");
    assert.equal(formatClock(179000), "2:59");
    assert.equal(formatClock(62000), "1:02");
    assert.equal(formatClock(10000), "0:10");
    assert.equal(formatClock(9999), "0:09.9", "tenths under 10 s");
    assert.equal(formatClock(9400), "0:09.4");
    assert.equal(formatClock(50), "0:00.0");
    assert.equal(formatClock(0), "0:00");
    assert.equal(formatClock(-500), "0:00", "never negative");
    assert.equal(formatClock(NaN), "0:00");
    assert.equal(formatClock(3600000), "1:00:00");
    assert.equal(formatClock(3 * 3600000 + 5 * 60000 + 7000), "3:05:07");
  });

  test("a clock is low under a tenth of the initial time or under 20 s", () => {
    assert.equal(clockLow(19999, 180), true, "under 20 s");
    assert.equal(clockLow(20000, 180), false);
    assert.equal(clockLow(179999, 1800), true, "30 min: under 3 min is low");
    assert.equal(clockLow(180000, 1800), false);
    assert.equal(clockLow(25000, 30), false, "30 s: 20 s is the bound, not 3 s");
  });

  test("the side to move's clock runs from the answer, the other stands", () => {
    const c = { initial: 180, increment: 2, white: 100000, black: 50000 };
    assert.deepEqual(clockNow(c, "white", false, 1500), { white: 98500, black: 50000 });
    assert.deepEqual(clockNow(c, "black", false, 1500), { white: 100000, black: 48500 });
    assert.deepEqual(clockNow(c, "black", false, 60000), { white: 100000, black: 0 }, "not below 0");
    assert.deepEqual(clockNow(c, "white", true, 5000), { white: 100000, black: 50000 }, "nothing runs once over");
    assert.deepEqual(clockNow(c, "none", false, 5000), { white: 100000, black: 50000 });
    assert.deepEqual(clockNow(c, "white", false, -20), { white: 100000, black: 50000 }, "no time runs backwards");
    assert.deepEqual(c, { initial: 180, increment: 2, white: 100000, black: 50000 }, "the server's figures are kept");
  });

  test("a correspondence deadline in words", () => {
    const now = 1_700_000_000_000, H = 3600000, M = 60000;
    assert.equal(deadlineText(now + 2 * 24 * H + 5 * H + 30 * M, now), "2 days 5 h left");
    assert.equal(deadlineText(now + 24 * H, now), "1 day 0 h left");
    assert.equal(deadlineText(now + 24 * H - 1, now), "23 h 59 min left");
    assert.equal(deadlineText(now + 5 * H + 12 * M + 30000, now), "5 h 12 min left");
    assert.equal(deadlineText(now + 12 * M, now), "12 min left");
    assert.equal(deadlineText(now + 30000, now), "under a minute left");
    assert.equal(deadlineText(now, now), "time is up");
    assert.equal(deadlineText(now - H, now), "time is up");
  });

  test("time controls in short, and their kinds", () => {
    assert.equal(clockLabel({ initial: 180, increment: 2 }), "3+2");
    assert.equal(clockLabel({ initial: 600, increment: 5, white: 1, black: 1 }), "10+5");
    assert.equal(clockLabel({ initial: 30, increment: 0 }), "½+0");
    assert.equal(clockLabel({ initial: 90, increment: 1 }), "1.5+1");
    assert.equal(clockLabel({ days: 1 }), "1 day a move");
    assert.equal(clockLabel({ days: 3, deadline: null }), "3 days a move");
    assert.equal(clockLabel(null), "no clock");
    assert.equal(clockKind({ initial: 180, increment: 2 }), "blitz");
    assert.equal(clockKind({ initial: 600, increment: 5 }), "rapid");
    assert.equal(clockKind({ initial: 1800, increment: 20 }), "classical");
    assert.equal(clockKind({ days: 7 }), "correspondence");
    assert.equal(clockKind(undefined), "");
    assert.ok(isLive({ initial: 1, increment: 0, white: 0, black: 0 }) && !isDays({ initial: 1, increment: 0, white: 0, black: 0 }));
    assert.ok(isDays({ days: 2, deadline: 5 }) && !isLive({ days: 2, deadline: 5 }));
  });

  test("the lobby's presets are what the server accepts (SPEC: 30..10800 s, 0..180 s, 1 2 3 5 7 14 days)", () => {
    assert.deepEqual(CLOCK_PRESETS.map((p) => clockLabel(p.clock)), ["3+2", "10+5", "30+20", "1 day a move", "3 days a move", "7 days a move"]);
    for (const p of CLOCK_PRESETS) {
      const c = p.clock;
      if ("days" in c) assert.ok([1, 2, 3, 5, 7, 14].includes(c.days), p.id);
      else assert.ok(c.initial >= 30 && c.initial <= 10800 && c.increment >= 0 && c.increment <= 180, p.id);
    }
  });
});
