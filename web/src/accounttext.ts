// accounttext.ts — what the account pages, the lobby and the profile say,
// decided from the API's answers alone (pure: no DOM, tested by
// tests/web/unit/accounttext.test.ts): names and passwords checked before they
// are sent, the server's refusals in words, ratings ("1500?" while
// provisional), how a game between accounts ended, a profile's game lines.

import type { Rating, Side } from "./types";
import { t } from "./i18n";

const S = (s: Side): string => t(s === "white" ? "side.white" : "side.black");
const s_ = (s: Side): string => t(s === "white" ? "sidel.white" : "sidel.black");

/** Why a name would be refused ("" when it is fine): SPEC's 3–20 of A–Z a–z 0–9 _ -. */
export function nameProblem(name: string): string {
  if (name.length < 3 || name.length > 20) return t("acct.nameLength");
  if (!/^[A-Za-z0-9_-]+$/.test(name)) return t("acct.nameChars");
  return "";
}

/** Why a password would be refused ("" when it is fine): 8–256 bytes. */
export function passwordProblem(password: string): string {
  const n = new TextEncoder().encode(password).length;
  if (n < 8) return t("acct.pwShort");
  if (n > 256) return t("acct.pwLong");
  return "";
}

export type AccountAction = "signup" | "signin" | "password";

/** A refusal of the account requests in words. */
export function accountError(action: AccountAction, status: number, message: string, code = ""): string {
  if (status === 0) return t("acct.unreachable");
  if (action === "signup" && status === 409) return t("acct.nameTaken");
  if (action === "signin" && status === 401) return t("acct.wrongLogin");
  if (action === "password" && (status === 401 || status === 403)) return t("acct.wrongCurrent");
  if (status === 429 && (code === "too_many_sign_ins" || /failed/.test(message) || !message)) return t("acct.tooMany");
  if (status === 429) return t("acct.notNow", { message });
  if (status === 400) return t("acct.notAccepted", { message });
  return t("acct.wrong", { status: String(status), message });
}

/** A session as the account page lists it (GET /api/sessions): its device
 * (the server reads it from the browser's User-Agent: "Firefox on Linux"),
 * when it was signed in and last used, and whether it is this browser. */
export interface SessionInfo { device?: string; created: number; lastUsed?: number; current: boolean }
export function sessionLine(s: SessionInfo, when: (unixSeconds: number) => string): string {
  const used = s.lastUsed && s.lastUsed > s.created ? t("sess.lastUsed", { when: when(s.lastUsed) }) : "";
  return t("sess.line", { device: s.device || t("sess.unknown"), when: when(s.created), used }) + (s.current ? t("sess.current") : "");
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
    return winner === "white" || winner === "black" ? t("end.lostOnTime", { side: S(otherSide(winner)) }) : t("end.timeRanOut");
  }
  // a side and its player: "White (alice)"
  const who = (side: Side) => (names?.[side] ? t("end.sideName", { side: S(side), name: names[side] as string }) : S(side));
  // the server aborts a game whose first move never came (SPEC "Consent and fair endings")
  if (end === "abort" && absent) return t("end.abortedNoMove", { who: who(absent) });
  if (end === "abort") return t("end.aborted");
  if (end === "abandon") {
    const gone = absent ? who(absent) : t("end.otherPlayer");
    if (winner === "draw") return t("end.leftDraw", { gone, who: absent ? who(otherSide(absent)) : t("end.otherPlayerl") });
    return winner === "white" || winner === "black" ? t("end.leftWin", { gone, who: who(winner) }) : t("end.left", { gone });
  }
  if (end === "agreement") return t("end.agreement");
  return "";
}

/** A line of a player's game list: "vs bob (white) · won by resignation · rated". */
export interface GameLine { id: string; game: string; white: string | null; black: string | null; winner: string; end: string | null; rated: boolean; ratingAfter?: number }
export function gameLine(name: string, g: GameLine): string {
  const lower = name.toLowerCase();
  const mine: Side | null = g.white?.toLowerCase() === lower ? "white" : g.black?.toLowerCase() === lower ? "black" : null;
  const opp = mine ? g[otherSide(mine)] : null;
  const head = mine ? t("line.vs", { opp: opp ?? t("line.guest"), name, side: s_(mine) }) : `${g.white ?? "?"} – ${g.black ?? "?"}`;
  let result: string;
  // an aborted game is never rated (SPEC)
  if (g.end === "abort") return t("line.aborted", { head });
  if (!g.end) result = t("line.inProgress");
  else if (g.winner === "draw") result = g.end === "agreement" ? t("line.drawnAgreement") : t("line.drawn");
  else if (g.winner === "white" || g.winner === "black") {
    const how = g.end === "resign" ? t("line.byResignation") : g.end === "time" ? t("line.onTime") : g.end === "abandon" ? t("line.oppLeft") : "";
    result = mine ? t(g.winner === mine ? "line.won" : "line.lost", { how }) : t("line.sideWon", { side: s_(g.winner), how });
  } else result = t("line.finished");
  return t("line.full", { head, result, rated: g.rated ? t("line.rated") : t("line.casual") });
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
