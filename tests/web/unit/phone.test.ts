// phone.test.ts — the board on a narrow screen (phone.ts): when it scrolls
// sideways and how wide it is drawn, where the area scrolls to keep the
// piece picked and the squares offered in view, what its bar says.

import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { boardFit, MIN_SQUARE, SCROLL_SQUARE, scrollHint, scrollToShow } from "../../../web/src/phone";

describe("the board on a phone (phone.ts)", () => {
  test("boardFit: fits when squares are at least 40 px, else scrolls at 44 px a square", () => {
    // the boards' viewBox widths in squares: Urbino 9.7, Cathedral about 11.3, Epaminondas 15, Toscana about 18
    assert.deepEqual(boardFit(390, 9.7), { scroll: false, width: 390 });
    assert.ok(390 / 9.7 >= MIN_SQUARE);
    for (const units of [11.3, 15, 18.2]) {
      const f = boardFit(390, units);
      assert.equal(f.scroll, true, String(units));
      assert.ok(f.width / units >= SCROLL_SQUARE - 0.01 && f.width > 390);
    }
    assert.deepEqual(boardFit(1000, 15), { scroll: false, width: 1000 }, "a desktop's board fits");
    assert.deepEqual(boardFit(390, 0), { scroll: false, width: 390 }, "nothing drawn yet");
  });

  test("scrollToShow: the least scroll that shows what must and, if it fits, what should be seen", () => {
    // 390 px of 660 shown from 0
    assert.equal(scrollToShow(0, 390, 660, [[100, 144]], []), null, "in view: no scroll");
    assert.equal(scrollToShow(0, 390, 660, [[500, 544]], []), 552 - 390, "to the right, just enough (8 px beside it)");
    assert.equal(scrollToShow(270, 390, 660, [[10, 54]], []), 2, "to the left");
    // the landings to the right fit with the piece: all shown
    assert.equal(scrollToShow(0, 390, 660, [[300, 344]], [[520, 564]]), 572 - 390);
    // too far apart: the piece alone
    assert.equal(scrollToShow(270, 390, 660, [[10, 54]], [[600, 644]]), 2);
    // nothing to keep in view (a Cathedral start's dots all over): stays
    assert.equal(scrollToShow(135, 390, 660, [], [[0, 44], [616, 660]]), null);
    assert.equal(scrollToShow(135, 390, 660, [], []), null);
    // never past the ends
    assert.equal(scrollToShow(100, 390, 660, [[640, 660]], []), 270);
    assert.equal(scrollToShow(100, 390, 660, [[0, 20]], []), 0);
  });

  test("scrollHint: which way there is more", () => {
    assert.deepEqual(scrollHint(0, 390, 660), { text: "The board scrolls sideways: more to the right", back: false, on: true });
    assert.deepEqual(scrollHint(270, 390, 660), { text: "The board scrolls sideways: more to the left", back: true, on: false });
    assert.equal(scrollHint(100, 390, 660).text, "The board scrolls sideways: more on both sides");
    assert.equal(scrollHint(0, 390, 390).text, "");
  });
});
