// clock.ts — the clocks of games between accounts, as the page shows them
// (pure: no DOM, tested by tests/web/unit/clock.test.ts).  The server sends
// each side's time left in milliseconds at the moment of its answer, the side
// to move's clock running; the page counts the running one down by itself
// from the moment the answer arrived until the next one comes.

import type { Clock, Side } from "./types";
import { t, tn } from "./i18n";

/** Any time control the API sends: a game's clock or a seek's. */
export type AnyClock = Clock | { initial: number; increment: number } | { days: number };

/** A real-time clock (initial and increment in seconds, time left in ms). */
export interface LiveClock { initial: number; increment: number; white: number; black: number }
/** Days per move, and when the side to move's time runs out (UNIX ms; null before the first move). */
export interface DaysClock { days: number; deadline: number | null }

export function isLive(c: AnyClock | null | undefined): c is LiveClock {
  return !!c && typeof (c as LiveClock).initial === "number";
}

export function isDays(c: AnyClock | null | undefined): c is DaysClock {
  return !!c && typeof (c as DaysClock).days === "number";
}

const pad = (n: number) => String(n).padStart(2, "0");

/** Time left as a clock shows it: "1:02:03", "3:00", "0:42"; under 10 s with
 * tenths ("0:09.4"); never negative.  Whole seconds are rounded up, so a
 * clock just started still says "3:00" and "0:00" means the time is out. */
export function formatClock(ms: number): string {
  if (!(ms > 0)) return "0:00";
  if (ms < 10000) {
    const tenths = Math.floor(ms / 100);
    return `0:0${Math.floor(tenths / 10)}.${tenths % 10}`;
  }
  const total = Math.ceil(ms / 1000);
  const hr = Math.floor(total / 3600), min = Math.floor((total % 3600) / 60), sec = total % 60;
  return hr ? `${hr}:${pad(min)}:${pad(sec)}` : `${min}:${pad(sec)}`;
}

/** Whether a clock is low (shown in the warning colour): under 20 s or under
 * a tenth of the initial time. */
export function clockLow(ms: number, initialSeconds: number): boolean {
  return ms < 20000 || ms < initialSeconds * 100;
}

/** Each side's time left `elapsed` ms after the server's answer: the side to
 * move's clock runs (not below 0), the other stands; nothing runs once over. */
export function clockNow(c: LiveClock, tomove: Side | "none", over: boolean, elapsed: number): Record<Side, number> {
  const t = { white: c.white, black: c.black };
  if (!over && (tomove === "white" || tomove === "black")) t[tomove] = Math.max(0, t[tomove] - Math.max(0, elapsed));
  return t;
}


/** A correspondence deadline as people read it: "2 days 5 h left",
 * "5 h 12 min left", "12 min left", "time is up". */
export function deadlineText(deadline: number, now: number): string {
  const ms = deadline - now;
  if (ms <= 0) return t("clock.timeUp");
  const mins = Math.floor(ms / 60000);
  const days = Math.floor(mins / 1440), hours = Math.floor((mins % 1440) / 60), rest = mins % 60;
  if (days) return t("clock.daysLeft", { days: tn("clock.days", days), h: hours });
  if (hours) return t("clock.hoursLeft", { h: hours, m: rest });
  return mins ? t("clock.minsLeft", { m: mins }) : t("clock.underMinute");
}

/** A time control in a few characters: "3+2" (minutes + seconds a move),
 * "½+0", "1 day", "3 days" a move. */
export function clockLabel(c: AnyClock | null | undefined): string {
  if (isDays(c)) return tn("clock.daysMove", c.days);
  if (isLive(c)) {
    const m = c.initial / 60;
    const mins = Number.isInteger(m) ? String(m) : m === 0.5 ? "½" : m.toFixed(1);
    return `${mins}+${c.increment}`;
  }
  return t("clock.none");
}

/** The kind of a time control, by lichess's usual bounds on initial + 40 × increment. */
export function clockKind(c: AnyClock | null | undefined): string {
  if (isDays(c)) return t("clock.correspondence");
  if (!isLive(c)) return "";
  const s = c.initial + 40 * c.increment;
  return s < 480 ? t("clock.blitz") : s < 1500 ? t("clock.rapid") : t("clock.classical");
}

/** The presets of the lobby's form. */
// Each label says the clock and its kind ("3+2 blitz", "1 day a move") in
// the page's language, made when asked (the language is chosen at start).
export interface ClockPreset { id: string; readonly label: string; clock: { initial: number; increment: number } | { days: number } }
function preset(id: string, clock: ClockPreset["clock"]): ClockPreset {
  return { id, clock, get label() { return isDays(clock) ? clockLabel(clock) : `${clockLabel(clock)} ${clockKind(clock)}`; } };
}
export const CLOCK_PRESETS: ClockPreset[] = [
  preset("3+2", { initial: 180, increment: 2 }),
  preset("10+5", { initial: 600, increment: 5 }),
  preset("30+20", { initial: 1800, increment: 20 }),
  preset("1d", { days: 1 }),
  preset("3d", { days: 3 }),
  preset("7d", { days: 7 }),
];
