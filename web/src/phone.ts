// phone.ts — the board on a narrow screen, its pure part (no DOM, tested in
// node by tests/web/unit/phone.test.ts).
//
// Every board draws one square as one unit of its viewBox.  When the board
// fitted to the screen's width would give squares under MIN_SQUARE pixels (a
// phone: Epaminondas' 14 files, Toscana's 17, Cathedral's 10 with its rank
// numbers), the board is drawn SCROLL_SQUARE pixels a unit instead, inside
// an area that scrolls sideways (the page itself never does).  The game
// screen then keeps in view what the player is working with: after every
// drawing it scrolls the least that shows the squares it must (the piece
// picked) and, when they fit beside them, the squares it should (the
// landings, the front pieces offered, the captures).

import { t } from "./i18n";

/** The smallest square a finger should have to hit, in CSS pixels. */
export const MIN_SQUARE = 40;
/** A square's size when the board scrolls. */
export const SCROLL_SQUARE = 44;

export interface BoardFit {
  scroll: boolean;   // wider than the screen: drawn in a sideways-scrolling area
  width: number;     // the board's width in CSS pixels
}

/** How wide to draw a board `units` wide in an area `room` pixels wide on
 *  a narrow screen (the game screen in one column; a wider one keeps its
 *  layout, the board fitted to the height too). */
export function boardFit(room: number, units: number, narrow = true): BoardFit {
  if (!narrow || !(units > 0) || !(room > 0)) return { scroll: false, width: room };
  if (room / units >= MIN_SQUARE) return { scroll: false, width: room };
  return { scroll: true, width: Math.ceil(units * SCROLL_SQUARE) };
}

/** A horizontal extent [left, right] in the scrolled content's pixels. */
export type Span = [number, number];

const PAD = 8;   // room kept beside what is shown, so a ring is not cut at the edge

// Where to scroll an area showing `width` pixels of `total` (now at `left`)
// so that every span of `must` is in view and, if they fit with them, the
// spans of `want` too; null when it need not move.  When `must` alone does
// not fit, its first span is shown.
export function scrollToShow(left: number, width: number, total: number, must: Span[], want: Span[]): number | null {
  const maxLeft = Math.max(0, total - width);
  const hull = (spans: Span[]): Span | null => spans.length
    ? [Math.min(...spans.map((s) => s[0])) - PAD, Math.max(...spans.map((s) => s[1])) + PAD] : null;
  const fits = (s: Span) => s[1] - s[0] <= width;
  let goal = hull([...must, ...want]);
  if (!goal) return null;
  if (!fits(goal)) goal = must.length ? hull(must) : null;
  if (goal && !fits(goal) && must.length) goal = hull([must[0]]);
  if (!goal) return null;
  let to = left;
  if (goal[0] < to) to = goal[0];
  else if (goal[1] > to + width) to = goal[1] - width;
  to = Math.round(Math.max(0, Math.min(maxLeft, to)));
  return Math.abs(to - left) < 1 ? null : to;
}

/** The words beside a scrolling board: which way there is more of it. */
export function scrollHint(left: number, width: number, total: number): { text: string; back: boolean; on: boolean } {
  const back = left > 1, on = left + width < total - 1;
  const text = back && on ? t("phone.both")
    : on ? t("phone.right")
    : back ? t("phone.left") : "";
  return { text, back, on };
}
