// clock.ts — the clocks of games between accounts, as the page shows them
// (pure: no DOM, tested by tests/web/unit/clock.test.ts).  The server sends
// each side's time left in milliseconds at the moment of its answer, the side
// to move's clock running; the page counts the running one down by itself
// from the moment the answer arrived until the next one comes.

import type { Clock, Side } from "./types";

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

const plural = (n: number, one: string, many = one + "s") => `${n} ${n === 1 ? one : many}`;

/** A correspondence deadline as people read it: "2 days 5 h left",
 * "5 h 12 min left", "12 min left", "time is up". */
export function deadlineText(deadline: number, now: number): string {
  const ms = deadline - now;
  if (ms <= 0) return "time is up";
  const mins = Math.floor(ms / 60000);
  const days = Math.floor(mins / 1440), hours = Math.floor((mins % 1440) / 60), rest = mins % 60;
  if (days) return `${plural(days, "day")} ${hours} h left`;
  if (hours) return `${hours} h ${rest} min left`;
  return mins ? `${mins} min left` : "under a minute left";
}

/** A time control in a few characters: "3+2" (minutes + seconds a move),
 * "½+0", "1 day", "3 days" a move. */
export function clockLabel(c: AnyClock | null | undefined): string {
  if (isDays(c)) return `${plural(c.days, "day")} a move`;
  if (isLive(c)) {
    const m = c.initial / 60;
    const mins = Number.isInteger(m) ? String(m) : m === 0.5 ? "½" : m.toFixed(1);
    return `${mins}+${c.increment}`;
  }
  return "no clock";
}

/** The kind of a time control, by lichess's usual bounds on initial + 40 × increment. */
export function clockKind(c: AnyClock | null | undefined): string {
  if (isDays(c)) return "correspondence";
  if (!isLive(c)) return "";
  const t = c.initial + 40 * c.increment;
  return t < 480 ? "blitz" : t < 1500 ? "rapid" : "classical";
}

/** The presets of the lobby's form. */
export interface ClockPreset { id: string; label: string; clock: { initial: number; increment: number } | { days: number } }
export const CLOCK_PRESETS: ClockPreset[] = [
  { id: "3+2", label: "3+2 blitz", clock: { initial: 180, increment: 2 } },
  { id: "10+5", label: "10+5 rapid", clock: { initial: 600, increment: 5 } },
  { id: "30+20", label: "30+20 classical", clock: { initial: 1800, increment: 20 } },
  { id: "1d", label: "1 day a move", clock: { days: 1 } },
  { id: "3d", label: "3 days a move", clock: { days: 3 } },
  { id: "7d", label: "7 days a move", clock: { days: 7 } },
];
