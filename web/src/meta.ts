// meta.ts — what the server says about its games (GET /api/meta), loaded
// once per page: titles, pitches, option menus, score words, notes on the
// sides, rules, level names and ratings.  The page types none of it again:
// the game library's tables are the one place it is written.

import * as api from "./api";
import { h } from "./dom";
import type { GameMeta, Meta } from "./types";
import { lang, t } from "./i18n";
import metaIt from "../i18n/meta.it.json";

// The Italian of what the server says in English about its games (the game
// library's tables stay in English: SPEC "Languages" puts the page's words
// in the page): pitches, option menus, score words, notes, level names and
// the rules, written afresh from docs/rules/*.md (docs/glossary.md's terms).
interface GameIt {
  pitch?: string; scoreWords?: string; sideNote?: string;
  menu?: { question?: string; note?: string; choices?: Record<string, string> };
  rules?: { heading: string; text: string }[];
  captions?: string[];
}
const IT = metaIt as { levels: Record<string, string>; games: Record<string, GameIt> };

/** The caption of a rules page's diagram i in the page's language. */
export function captionText(game: string, i: number, english: string): string {
  return lang() === "it" ? IT.games[game]?.captions?.[i] ?? english : english;
}

/** The meta answer in the page's language (English: as the server says it). */
export function localMeta(m: Meta): Meta {
  if (lang() !== "it") return m;
  return {
    ...m,
    levels: m.levels.map((l) => ({ ...l, name: IT.levels[String(l.level)] ?? l.name })),
    games: m.games.map((g) => {
      const it = IT.games[g.name];
      if (!it) return g;
      const out: GameMeta = { ...g };
      if (it.pitch) out.pitch = it.pitch;
      if (it.scoreWords) out.scoreWords = it.scoreWords;
      if (it.sideNote && g.sideNote) out.sideNote = it.sideNote;
      if (it.rules && it.rules.length === g.rules.length) out.rules = it.rules;
      if (g.menu && it.menu) {
        const mi = it.menu;
        out.menu = {
          ...g.menu,
          question: mi.question ?? g.menu.question,
          note: g.menu.note && mi.note ? mi.note : g.menu.note,
          choices: g.menu.choices.map((c) => ({ ...c, label: mi.choices?.[c.value] ?? c.label })),
        };
      }
      return out;
    }),
  };
}

let loading: Promise<Meta> | null = null;

// The meta answer (asked for once; asked again after a failure).
const KEPT = "tavoliere.meta";
let offline = false;

/** Whether the meta came from this browser's copy (the server could not be reached). */
export function metaOffline(): boolean {
  return offline;
}

export function loadMeta(): Promise<Meta> {
  loading ??= api.meta().then((m) => {
    if (!m || !Array.isArray(m.games) || !Array.isArray(m.levels)) throw new Error(t("err.malformed"));
    try {
      localStorage.setItem(KEPT, JSON.stringify(m));   // the start page offline
    } catch {
      /* not kept */
    }
    return localMeta(m);
  }).catch((e) => {
    // The server cannot be reached: the copy kept at the last visit.
    if (!(e instanceof api.ApiError) || e.status === 0 || e.status >= 502) {
      try {
        const m = JSON.parse(localStorage.getItem(KEPT) ?? "null") as Meta | null;
        if (m && Array.isArray(m.games) && Array.isArray(m.levels)) {
          offline = true;
          return localMeta(m);
        }
      } catch {
        /* no copy */
      }
    }
    loading = null;
    throw e;
  });
  return loading;
}

export function gameMeta(meta: Meta | null, name: string): GameMeta | undefined {
  return meta?.games.find((g) => g.name === name);
}

export function capital(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

// The game's name for people, or its registry name while meta is missing.
export function title(meta: Meta | null, name: string): string {
  return gameMeta(meta, name)?.title ?? name;
}

// The option sets a new game offers: one per choice of the game's menu
// ("variant=monuments"), or the defaults alone.
export interface OptionSet { label: string; options: string }
export function optionSets(g: GameMeta): OptionSet[] {
  const menu = g.menu;
  if (!menu || !menu.choices.length) return [{ label: t("meta.standard"), options: "" }];
  return menu.choices.map((c) => ({ label: capital(c.label), options: `${menu.key}=${c.value}` }));
}

// A game's options as people read them: the menu's choice by its value
// ("monuments" for "variant=monuments"), other options as they are.
export function optionsText(g: GameMeta | undefined, options: string): string {
  const key = g?.menu?.key;
  // in Italian the choice's own word ("classica" for opening=classic): its label up to " ("
  const word = (v: string) => lang() === "it" ? g?.menu?.choices.find((c) => c.value === v)?.label.split(" (")[0] ?? v : v;
  return options.split(" ").filter(Boolean).map((o) => (key && o.startsWith(key + "=") ? word(o.slice(key.length + 1)) : o)).join(" ");
}

// What the score counts and who wins by it: "squares of the buildings left
// outside, lower wins".
export function scoreText(g: GameMeta | undefined): string {
  if (!g) return "";
  return g.scoreWins === "none" ? g.scoreWords : t("meta.scoreWins", { words: g.scoreWords, who: t(g.scoreWins === "higher" ? "meta.higher" : "meta.lower") });
}

// Level n's name ("Club player"), or "level n".
export function levelName(meta: Meta | null, n: number): string {
  const l = meta?.levels.find((x) => x.level === n);
  return l ? capital(l.name) : t("meta.levelN", { n });
}

// A level in the computer's menu with the game's rating for it: "Level 4 ·
// Club player — about 1050" (ratings rounded to 50).
export function levelLabel(g: GameMeta | undefined, l: { level: number; name: string }): string {
  const r = g?.ratings[l.level - 1];
  const base = t("meta.levelLabel", { level: l.level, name: capital(l.name) });
  return typeof r === "number" ? t("meta.about", { base, rating: Math.round(r / 50) * 50 }) : base;
}

// How to name a player string ("human", "random", "ai:level=4").
export function playerName(p: string, meta: Meta | null): string {
  if (p === "human") return t("meta.player");
  if (p === "random") return t("meta.randomComputer");
  const m = /^ai(?::level=(\d+))?$/.exec(p);
  if (m) return m[1] ? t("meta.computerLevel", { level: levelName(meta, Number(m[1])) }) : t("meta.computer");
  return p;
}

// The rules of a game as HTML elements: a heading per section (of the tag
// given), a paragraph per paragraph of its text (plain text, never markup).
export function rulesElements(g: GameMeta | undefined, tag: "h2" | "h3"): HTMLElement[] {
  const out: HTMLElement[] = [];
  for (const sec of g?.rules ?? []) {
    out.push(h(tag, {}, sec.heading));
    for (const p of sec.text.split("\n\n")) if (p.trim()) out.push(h("p", {}, p));
  }
  return out;
}
