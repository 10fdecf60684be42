// inbox.ts — the player's channel: one lobby socket (/api/lobby) that a
// signed-in page keeps open on every page (the lobby page shares it).  The
// server sends on it the open seeks (an array: open ones and the challenges
// that involve the player), {"type": "started"} when one's seek became a
// game, {"type": "mine", "games"} (one's unfinished games) at once, then
// {"type": "mygame", "game"} at each change of one of them, and {"type":
// "rematch", "game", "name", "by"} when an opponent offers a rematch, and
// {"type": "declined", "by"} when a challenge one made was declined; every
// lobby socket also gets {"type": "now", "playing", "online"} (the lobby's
// lists) when they change, {"type": "rated", "game", "names"} once a
// rated game's new ratings are on disk (profiles and leaderboards follow),
// and {"type": "pool", "pools"} (how many wait in each quick-pairing pool:
// pool.ts) at once and at each change.  This
// module keeps the latest of each and hands them to whoever listens: the
// notices (notices.ts), the home page's list, the lobby.

import { LiveSocket } from "./live";
import type { Online, Playing, PoolCount } from "./api";
import type { MyGame, Seek } from "./types";

export interface Rematch { game: string; name: string; by: string }
export type InboxEvent =
  | { kind: "seeks"; seeks: Seek[] }
  | { kind: "started"; game: string }
  | { kind: "mine"; games: MyGame[] }
  | { kind: "mygame"; game: MyGame; before: MyGame | null }
  | { kind: "gone"; id: string }
  | { kind: "rematch"; offer: Rematch }
  | { kind: "declined"; by: string; reason: string }
  | { kind: "now"; playing: Playing[]; online: Online }
  | { kind: "rated"; game: string; names: string[] }
  | { kind: "pool"; pools: PoolCount[] }
  | { kind: "state"; up: boolean };

type Listener = (e: InboxEvent) => void;

let sock: LiveSocket | null = null;
const listeners = new Set<Listener>();
let seeks: Seek[] | null = null;
let games: Map<string, MyGame> | null = null;
let up = false;
let pools: PoolCount[] | null = null;

function emit(e: InboxEvent): void {
  for (const l of [...listeners]) l(e);
}

function onData(data: unknown): void {
  if (Array.isArray(data)) {
    seeks = data as Seek[];
    emit({ kind: "seeks", seeks });
    return;
  }
  if (!data || typeof data !== "object") return;
  const m = data as { type?: string; game?: unknown; games?: unknown; name?: unknown; by?: unknown };
  if (m.type === "started" && typeof m.game === "string") {
    emit({ kind: "started", game: m.game });
  } else if (m.type === "mine" && Array.isArray(m.games)) {
    games = new Map((m.games as MyGame[]).map((g) => [g.id, g]));
    emit({ kind: "mine", games: myGames() });
  } else if (m.type === "mygame" && m.game && typeof m.game === "object") {
    const g = m.game as MyGame & { over?: boolean };
    games ??= new Map();
    const before = games.get(g.id) ?? null;
    if (g.over) {
      if (games.delete(g.id)) emit({ kind: "gone", id: g.id });
    } else {
      games.set(g.id, g);
      emit({ kind: "mygame", game: g, before });
    }
  } else if (m.type === "now" && Array.isArray((m as { playing?: unknown }).playing)) {
    const n = m as unknown as { playing: Playing[]; online: Online };
    emit({ kind: "now", playing: n.playing, online: n.online });
  } else if (m.type === "rated" && typeof m.game === "string" && Array.isArray((m as { names?: unknown }).names)) {
    emit({ kind: "rated", game: m.game, names: (m as unknown as { names: string[] }).names });
  } else if (m.type === "pool" && Array.isArray((m as { pools?: unknown }).pools)) {
    pools = (m as unknown as { pools: PoolCount[] }).pools;
    emit({ kind: "pool", pools });
  } else if (m.type === "declined" && typeof m.by === "string") {
    emit({ kind: "declined", by: m.by, reason: typeof (m as { reason?: unknown }).reason === "string" ? String((m as { reason?: unknown }).reason) : "generic" });
  } else if (m.type === "rematch" && typeof m.game === "string" && typeof m.by === "string") {
    emit({ kind: "rematch", offer: { game: m.game, name: String(m.name ?? ""), by: m.by } });
  }
}

/** Open the channel (once per page). */
export function openInbox(): void {
  if (sock) return;
  sock = new LiveSocket("/api/lobby", onData, (u) => {
    up = u;
    emit({ kind: "state", up: u });
  });
}

/** Listen: what is known already is handed over at once. */
export function listen(fn: Listener): () => void {
  listeners.add(fn);
  if (seeks) fn({ kind: "seeks", seeks });
  if (games) fn({ kind: "mine", games: myGames() });
  if (pools) fn({ kind: "pool", pools });
  if (sock) fn({ kind: "state", up });
  return () => listeners.delete(fn);
}

/** One's unfinished games, one's turn first (as GET /api/me/games). */
export function myGames(): MyGame[] {
  const list = games ? [...games.values()] : [];
  return [...list.filter((g) => g.yourTurn), ...list.filter((g) => !g.yourTurn)];
}

/** Whether the list of one's games came yet. */
export function haveGames(): boolean {
  return games !== null;
}
