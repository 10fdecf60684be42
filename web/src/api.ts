// api.ts — the server API of docs/server-api.md, as small typed calls.
// Every refusal becomes an ApiError holding the HTTP status, the refusal's
// stable code and its words in the page's language (i18n.ts refusal()).

import { refusal, t } from "./i18n";
import type { Game, GameName, Leaderboard, Me, Meta, MyGame, Player, Seek, Side, View } from "./types";

export class ApiError extends Error {
  constructor(public status: number, message: string, public code = "") {
    super(message);
  }
}

/** The ApiError of a refused answer (its status and decoded body). */
export function refused(status: number, data: unknown, statusText: string): ApiError {
  const code = data && typeof data === "object" && typeof (data as { code?: unknown }).code === "string"
    ? (data as { code: string }).code : "";
  return new ApiError(status, refusal(status, data, statusText || `error ${status}`), code);
}

async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
  let res: Response;
  try {
    res = await fetch(path, {
      method,
      headers: body === undefined ? {} : { "Content-Type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
      cache: "no-store",
    });
  } catch {
    throw new ApiError(0, t("err.unreachable"));
  }
  const text = await res.text();
  let data: unknown = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = null;
  }
  if (!res.ok) throw refused(res.status, data, res.statusText);
  return data as T;
}

export interface Created {
  id: string;
  seats: { white?: string; black?: string };
}

const enc = encodeURIComponent;
const seatQuery = (seat?: string | null) => (seat ? `?seat=${enc(seat)}` : "");

/** local: two people at one screen (engine help allowed; SPEC "Fair play"). */
export function createGame(game: GameName, options: string, white: string, black: string, local = false): Promise<Created> {
  return call("POST", "/api/games", local ? { game, options, white, black, local } : { game, options, white, black });
}

export interface Session { id: string; created: number; expires: number; lastUsed: number; device: string; current: boolean }

/** The signed-in account's sessions (GET /api/sessions). */
export function sessions(): Promise<Session[]> {
  return call("GET", "/api/sessions");
}

/** End one of them (DELETE /api/sessions/ID). */
export function endSession(id: string): Promise<unknown> {
  return call("DELETE", `/api/sessions/${enc(id)}`);
}

/** A rated game of the signed-in player against a computer level (the cookie is the seat), on a
 * clock (a rated game needs one). */
export function createRated(game: GameName, white: string, black: string,
  clock: { initial: number; increment: number } | { days: number }): Promise<Created> {
  return call("POST", "/api/games", { game, options: "", white, black, rated: true, clock });
}

export interface Computer { name: string; player: string; level: number; ratings: Record<string, { rating: number; rd: number; games: number; provisional: boolean }> }

/** The computer levels as players, with their ratings (GET /api/computers). */
export function computers(): Promise<Computer[]> {
  return call("GET", "/api/computers");
}

export function getGame(id: string, seat?: string | null): Promise<Game> {
  return call("GET", `/api/games/${enc(id)}${seatQuery(seat)}`);
}

/** seat null: a game between accounts, where the session cookie is the seat. */
export function postMove(id: string, seat: string | null, move: string, ply: number): Promise<Game> {
  return call("POST", `/api/games/${enc(id)}/moves`, seat ? { seat, move, ply } : { move, ply });
}

/** The rematch of a finished game (POST /api/games/ID/rematch): the new game and the side the same
 * token (or, seat null, the signed-in account) holds there. */
export function rematch(id: string, seat: string | null): Promise<{ id: string; seat: Side; offered?: undefined } | { offered: true; id?: undefined }> {
  return call("POST", `/api/games/${enc(id)}/rematch`, seat ? { seat } : {});
}

/** The opponent left: claim the win or a draw (POST /api/games/ID/claim, the session cookie). */
export function claim(id: string, result: "win" | "draw"): Promise<Game> {
  return call("POST", `/api/games/${enc(id)}/claim`, { result });
}

export function resign(id: string, seat: string | null): Promise<Game> {
  return call("POST", `/api/games/${enc(id)}/resign`, seat ? { seat } : {});
}

/** End a game between accounts before both sides have moved (unrated). */
/** An offer between two people (POST /api/games/ID/offer). seat null: the session cookie. */
export function offer(id: string, seat: string | null, kind: "draw" | "takeback" | "rematch", act: "offer" | "accept" | "decline"): Promise<Game> {
  return call("POST", `/api/games/${enc(id)}/offer`, seat ? { seat, kind, act } : { kind, act });
}

export function abort(id: string): Promise<Game> {
  return call("POST", `/api/games/${enc(id)}/abort`, {});
}

export function undo(id: string, seat: string, ply: number): Promise<Game> {
  return call("POST", `/api/games/${enc(id)}/undo`, { seat, ply });
}

export function hint(id: string, seat: string): Promise<{ move: string }> {
  return call("POST", `/api/games/${enc(id)}/hint`, { seat });
}

export function viewAt(id: string, ply: number, seat?: string | null): Promise<{ ply: number; view: View }> {
  const q = `?ply=${ply}` + (seat ? `&seat=${enc(seat)}` : "");
  return call("GET", `/api/games/${enc(id)}/view${q}`);
}

export function loadRecord(record: string, white: string, black: string): Promise<Created> {
  return call("POST", "/api/records", { record, white, black });
}

export function meta(): Promise<Meta> {
  return call("GET", "/api/meta");
}

export function recordUrl(id: string): string {
  return `/api/games/${enc(id)}/record`;
}

export interface Analysis {
  done: boolean;
  plies: { move: string; value: number; best: string; mark: string }[];
}

export function analysis(id: string): Promise<Analysis> {
  return call("GET", `/api/games/${enc(id)}/analysis`);
}

// ---- Accounts, the lobby, ratings (the session cookie goes with every request) ----

export function signUp(name: string, password: string): Promise<{ name: string }> {
  return call("POST", "/api/account", { name, password });
}

export function signIn(name: string, password: string): Promise<{ name: string }> {
  return call("POST", "/api/login", { name, password });
}

/** Keeps the page's language in the account (SPEC "Languages"). */
export function setMyLang(lang: "en" | "it"): Promise<unknown> {
  return call("POST", "/api/me/lang", { lang });
}

export function signOut(): Promise<unknown> {
  return call("POST", "/api/logout", {});
}

/** The signed-in account, or null when signed out (401). */
export async function me(): Promise<Me | null> {
  try {
    return await call<Me>("GET", "/api/me");
  } catch (e) {
    if (e instanceof ApiError && e.status === 401) return null;
    throw e;
  }
}

export function changePassword(old: string, now: string): Promise<unknown> {
  return call("POST", "/api/password", { old, new: now });
}

export interface NewSeek {
  game: GameName;
  options: string;
  rated: boolean;
  colour: "white" | "black" | "random";
  clock: { initial: number; increment: number } | { days: number };
  /** A challenge: only this player may accept. */
  to?: string;
}

export interface Playing { id: string; game: GameName; white: string; black: string; ply: number; rated: boolean; timing: string }
export interface Online { count: number; names: string[] }

/** Games between accounts being played now (GET /api/playing). */
export function playing(): Promise<Playing[]> {
  return call("GET", "/api/playing");
}

/** Who is online (GET /api/online). */
export function online(): Promise<Online> {
  return call("GET", "/api/online");
}

export function createSeek(seek: NewSeek): Promise<{ id: string }> {
  return call("POST", "/api/seeks", seek);
}

export function seeks(): Promise<Seek[]> {
  return call("GET", "/api/seeks");
}

export function acceptSeek(id: string): Promise<{ game: string }> {
  return call("POST", `/api/seeks/${enc(id)}/accept`, {});
}

/** A challenge to this player declined (its maker is told). */
export function declineSeek(id: string, reason = "generic"): Promise<unknown> {
  return call("POST", `/api/seeks/${enc(id)}/decline`, { reason });
}

/** The reasons one may give for declining a challenge (the server's codes). */
export const DECLINE_REASONS = ["generic", "later", "tooFast", "tooSlow", "timeControl", "rated", "casual", "variant"] as const;

export function withdrawSeek(id: string): Promise<unknown> {
  return call("DELETE", `/api/seeks/${enc(id)}`);
}

export function player(name: string): Promise<Player> {
  return call("GET", `/api/players/${enc(name)}`);
}

export function leaderboard(game: string): Promise<Leaderboard> {
  return call("GET", `/api/leaderboard/${enc(game)}`);
}

export function myGames(): Promise<MyGame[]> {
  return call("GET", "/api/me/games");
}

// ---- bots (SPEC "Bots", docs/bots.md) ----
export interface ApiToken { id: string; created: number; used: number | null }
export function tokens(): Promise<ApiToken[]> {
  return call("GET", "/api/tokens");
}
/** A new API token: shown this once. */
export function createToken(): Promise<{ id: string; token: string }> {
  return call("POST", "/api/tokens", {});
}
export function revokeToken(id: string): Promise<unknown> {
  return call("DELETE", `/api/tokens/${enc(id)}`);
}
/** The signed-in account becomes a bot, for good (409 once it has played). */
export function makeBot(): Promise<{ name: string; bot: true }> {
  return call("POST", "/api/account/bot", {});
}
/** The bots with an event socket open (on the server answering). */
export function botsOnline(): Promise<{ name: string }[]> {
  return call("GET", "/api/bots");
}

// ---- quick pairing (docs/server-api.md "Quick pairing") ----
export type PoolClock = { initial: number; increment: number } | { days: number };
export interface PoolCount { game: string; clock: PoolClock; rated: boolean; waiting: number }
export interface PoolState {
  clocks: PoolClock[];
  pools: PoolCount[];
  mine: { id: string; game: string; clock: PoolClock; rated: boolean } | null;
}
export function pool(): Promise<PoolState> {
  return call("GET", "/api/pool");
}
export function joinPool(game: string, clock: PoolClock, rated: boolean): Promise<{ id: string }> {
  return call("POST", "/api/pool", { game, clock, rated });
}
export function leavePool(): Promise<unknown> {
  return call("DELETE", "/api/pool");
}
