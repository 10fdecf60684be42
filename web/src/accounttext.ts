// accounttext.ts — what the account pages, the lobby and the profile say,
// decided from the API's answers alone (pure: no DOM, tested by
// tests/web/unit/accounttext.test.ts): names and passwords checked before they
// are sent, the server's refusals in words, ratings ("1500?" while
// provisional), how a game between accounts ended, a profile's game lines.

import type { Rating, Side } from "./types";

/** Why a name would be refused ("" when it is fine): SPEC's 3–20 of A–Z a–z 0–9 _ -. */
export function nameProblem(name: string): string {
  if (name.length < 3 || name.length > 20) return "A name is 3 to 20 characters long.";
  if (!/^[A-Za-z0-9_-]+$/.test(name)) return "A name has only letters A–Z, digits, _ and -.";
  return "";
}

/** Why a password would be refused ("" when it is fine): 8–256 bytes. */
export function passwordProblem(password: string): string {
  const n = new TextEncoder().encode(password).length;
  if (n < 8) return "A password is at least 8 characters long.";
  if (n > 256) return "A password is at most 256 bytes long.";
  return "";
}

export type AccountAction = "signup" | "signin" | "password";

/** A refusal of the account requests in words. */
export function accountError(action: AccountAction, status: number, message: string): string {
  if (status === 0) return "The server cannot be reached; try again.";
  if (action === "signup" && status === 409) return "That name is taken: choose another.";
  if (action === "signin" && status === 401) return "Wrong name or password.";
  if (action === "password" && (status === 401 || status === 403)) return "The current password is wrong.";
  if (status === 429 && (/failed/.test(message) || !message)) return "Too many failed attempts with this name: wait a few minutes and try again.";
  if (status === 429) return `Not now: ${message}.`;
  if (status === 400) return `Not accepted: ${message}.`;
  return `Something went wrong (${status}): ${message}.`;
}

/** A session as the account page lists it (GET /api/sessions): its device
 * (the server reads it from the browser's User-Agent: "Firefox on Linux"),
 * when it was signed in and last used, and whether it is this browser. */
export interface SessionInfo { device?: string; created: number; lastUsed?: number; current: boolean }
export function sessionLine(s: SessionInfo, when: (unixSeconds: number) => string): string {
  const used = s.lastUsed && s.lastUsed > s.created ? `, last used ${when(s.lastUsed)}` : "";
  return `${s.device || "An unknown device"} — signed in ${when(s.created)}${used}` + (s.current ? " — this browser" : "");
}

/** A rating as shown: rounded, with "?" while provisional (few games, a wide deviation). */
export function ratingText(r: Rating | null | undefined): string {
  if (!r) return "1500?";
  return `${Math.round(r.rating)}${r.provisional ? "?" : ""}`;
}

export const cap = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
const otherSide = (s: Side): Side => (s === "white" ? "black" : "white");

/** Why a game between accounts ended, as the end screen says it ("" for a
 * normal end, which the game's own words explain). */
export function endReason(end: string | null | undefined, winner: string, absent?: Side | null,
  names?: { white: string | null; black: string | null } | null): string {
  if (end === "time") {
    return winner === "white" || winner === "black" ? `${cap(otherSide(winner))} lost on time.` : "The time ran out.";
  }
  // a side and its player: "White (alice)"
  const who = (side: Side) => (names?.[side] ? `${cap(side)} (${names[side]})` : cap(side));
  // the server aborts a game whose first move never came (SPEC "Consent and fair endings")
  if (end === "abort" && absent) return `Aborted: ${who(absent)} did not move. No result, and no rating changes.`;
  if (end === "abort") return "The game was aborted: no result, and no rating changes.";
  if (end === "abandon") {
    const gone = absent ? who(absent) : "The other player";
    if (winner === "draw") return `${gone} left the game: ${absent ? who(otherSide(absent)) : "the other player"} called it a draw.`;
    return winner === "white" || winner === "black" ? `${gone} left the game: ${who(winner)} claimed the win.` : `${gone} left the game.`;
  }
  if (end === "agreement") return "Drawn by agreement.";
  return "";
}

/** A line of a player's game list: "vs bob (white) · won by resignation · rated". */
export interface GameLine { id: string; game: string; white: string | null; black: string | null; winner: string; end: string | null; rated: boolean; ratingAfter?: number }
export function gameLine(name: string, g: GameLine): string {
  const lower = name.toLowerCase();
  const mine: Side | null = g.white?.toLowerCase() === lower ? "white" : g.black?.toLowerCase() === lower ? "black" : null;
  const opp = mine ? g[otherSide(mine)] : null;
  const head = mine ? `vs ${opp ?? "a guest"} (${name} played ${mine})` : `${g.white ?? "?"} – ${g.black ?? "?"}`;
  let result: string;
  // an aborted game is never rated (SPEC)
  if (g.end === "abort") return `${head} · aborted, no result`;
  if (!g.end) result = "in progress";
  else if (g.winner === "draw") result = g.end === "agreement" ? "drawn by agreement" : "drawn";
  else if (g.winner === "white" || g.winner === "black") {
    const how = g.end === "resign" ? " by resignation" : g.end === "time" ? " on time" : g.end === "abandon" ? " (the opponent left)" : "";
    result = mine ? `${g.winner === mine ? "won" : "lost"}${how}` : `${g.winner} won${how}`;
  } else result = "finished";
  return `${head} · ${result} · ${g.rated ? "rated" : "casual"}`;
}

/** The colour a seek's taker plays: the opposite of the seeker's choice. */
export function takerColour(seekColour: string): string {
  return seekColour === "white" ? "black" : seekColour === "black" ? "white" : "random";
}

/** A player's rating history in one game, oldest first: 1500 before the
 * first rated game, then the rating after each (the games come newest first). */
export function ratingHistory(games: GameLine[], game: string): number[] {
  const after = games.filter((g) => g.game === game && g.rated && typeof g.ratingAfter === "number")
    .map((g) => g.ratingAfter as number).reverse();
  return after.length ? [1500, ...after] : [];
}

/** Points of a plot of `values` in a box w x h (with a margin m): the x step
 * per game, y from the lowest to the highest value (at least 100 apart). */
export function plotPoints(values: number[], w: number, h: number, m: number): { x: number; y: number }[] {
  if (!values.length) return [];
  let lo = Math.min(...values), hi = Math.max(...values);
  if (hi - lo < 100) { const mid = (hi + lo) / 2; lo = mid - 50; hi = mid + 50; }
  const step = values.length > 1 ? (w - 2 * m) / (values.length - 1) : 0;
  return values.map((v, i) => ({ x: m + i * step, y: m + (h - 2 * m) * (1 - (v - lo) / (hi - lo)) }));
}
