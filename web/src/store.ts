// store.ts — the games this browser knows (localStorage): id, game, the seat
// tokens it holds, and for a game with a friend by link the friend's token so
// the invitation can be shown again.

import type { GameName, Side } from "./types";

export interface Saved {
  id: string;
  game: GameName;
  seats: { white?: string; black?: string };
  invite?: { side: Side; token: string };   // the friend's seat (friend by link)
  opponent: string;                         // a short description ("Random mover", "friend")
  created: number;
  over?: boolean;
  result?: string;
}

const KEY = "tavoliere.games";
const MAX = 40;

export function loadAll(): Saved[] {
  try {
    const raw = localStorage.getItem(KEY);
    const list = raw ? JSON.parse(raw) : [];
    return Array.isArray(list) ? list.filter((g) => g && typeof g.id === "string") : [];
  } catch {
    return [];
  }
}

function saveAll(list: Saved[]): void {
  try {
    localStorage.setItem(KEY, JSON.stringify(list.slice(0, MAX)));
  } catch {
    /* storage full or disabled: the game still works from its link */
  }
}

export function find(id: string): Saved | undefined {
  return loadAll().find((g) => g.id === id);
}

export function put(entry: Saved): void {
  const list = loadAll().filter((g) => g.id !== entry.id);
  list.unshift(entry);
  saveAll(list);
}

export function update(id: string, change: Partial<Saved>): void {
  const list = loadAll();
  const i = list.findIndex((g) => g.id === id);
  if (i < 0) return;
  list[i] = { ...list[i], ...change };
  saveAll(list);
}

export function remove(id: string): void {
  saveAll(loadAll().filter((g) => g.id !== id));
}

// The settings of the last game started from the home page, so "New game"
// offers them again.
export interface Settings { game: string; options: string; opponent: string; level: string; colour: string }
const LAST = "tavoliere.last";

export function lastSettings(): Settings | null {
  try {
    const v = JSON.parse(localStorage.getItem(LAST) ?? "null");
    return v && typeof v.game === "string" ? (v as Settings) : null;
  } catch {
    return null;
  }
}

export function saveSettings(v: Settings): void {
  try {
    localStorage.setItem(LAST, JSON.stringify(v));
  } catch {
    /* storage full or off: nothing kept */
  }
}
