// i18n.ts — the page's two languages (SPEC "Languages"): Italian and
// English, one catalog each (web/i18n/en.json, web/i18n/it.json) with the
// same named keys.  t(key, params) gives a key's text in the page's
// language with its {placeholders} filled; tn(base, n, params) chooses the
// plural form (base_one, base_other, ...) by Intl.PluralRules; numbers,
// dates and lists go through Intl.  Key is the type of en.json's keys, so a
// key used but missing from the catalogs fails the build (tsc), and it.json
// is checked to hold every key of en.json (tests/web/unit/i18n.test.ts
// checks that both hold exactly the same keys and placeholders).
//
// The language: the one chosen (kept in localStorage, and in the account
// when signed in: account.ts), else Italian when the browser's first
// language starts with "it", else English.  <html lang> says which.

import en from "../i18n/en.json";
import it from "../i18n/it.json";

export type Lang = "en" | "it";
export type Key = keyof typeof en;
export type Params = Record<string, string | number>;
// The bases of the plural keys: "moves" for "moves_one" / "moves_other".
export type PluralBase = Key extends infer K ? (K extends `${infer B}_other` ? B : never) : never;

const catalogs: Record<Lang, Record<Key, string>> = { en, it };

export const LANG_KEY = "tavoliere.lang";
let current: Lang = "en";

export function lang(): Lang {
  return current;
}

export function setLang(l: Lang): void {
  current = l;
  if (typeof document !== "undefined") document.documentElement.lang = l;
}

export function isLang(s: unknown): s is Lang {
  return s === "en" || s === "it";
}

/** The language the browser prefers: Italian when its first language starts with "it". */
export function browserLang(languages: readonly string[] | undefined): Lang {
  const first = languages && languages.length ? languages[0] : "";
  return /^it\b/i.test(first) ? "it" : "en";
}

/** The language kept in this browser (null for none). */
export function savedLang(): Lang | null {
  try {
    const s = localStorage.getItem(LANG_KEY);
    return isLang(s) ? s : null;
  } catch {
    return null;
  }
}

export function saveLang(l: Lang): void {
  try {
    localStorage.setItem(LANG_KEY, l);
  } catch {
    /* not kept */
  }
}

/** Chooses the page's language at start: the one kept, else the browser's. */
export function initLang(): Lang {
  const nav = typeof navigator !== "undefined" ? navigator : undefined;
  const langs = nav ? (nav.languages && nav.languages.length ? nav.languages : [nav.language]) : [];
  setLang(savedLang() ?? browserLang(langs));
  return current;
}

function fill(s: string, params?: Params): string {
  if (!params) return s;
  return s.replace(/\{(\w+)\}/g, (m, name: string) => (name in params ? fmtParam(params[name]) : m));
}

function fmtParam(v: string | number): string {
  return typeof v === "number" ? num(v) : v;
}

/** A key's text in the page's language (English when the catalog lacks it). */
export function t(key: Key, params?: Params): string {
  return fill(catalogs[current][key] ?? catalogs.en[key] ?? key, params);
}

/** A key's text in a given language. */
export function tIn(l: Lang, key: Key, params?: Params): string {
  return fill(catalogs[l][key] ?? catalogs.en[key] ?? key, params);
}

/** A text with a count: base_one, base_other (base_many...) chosen by the
 * language's plural rules; {n} is the count. */
export function tn(base: PluralBase, n: number, params?: Params): string {
  const cat = catalogs[current] as Record<string, string>;
  const form = new Intl.PluralRules(current).select(n);
  const s = cat[`${base}_${form}`] ?? cat[`${base}_other`] ?? (catalogs.en as Record<string, string>)[`${base}_other`] ?? base;
  return fill(s, { n, ...params });
}

/** Whether the catalog has a key (for keys made from data, e.g. a game's name). */
export function has(key: string): key is Key {
  return key in catalogs.en;
}

/** A key made from data, or a fallback when the catalogs have none. */
export function tOr(key: string, fallback: string, params?: Params): string {
  return has(key) ? t(key, params) : fill(fallback, params);
}

/** A refusal of the server in the page's words (docs/server-api.md
 * "Refusals and their codes"): `data` is its body {"error", "code"}.  In
 * English the server's own sentence, with its particulars; in Italian the
 * catalog's text for the code (every code the server gives is in both
 * catalogs: tests/web/unit/i18n.test.ts), else a sentence for the status. */
export function refusal(status: number, data: unknown, fallback: string): string {
  const o = data && typeof data === "object" ? (data as { error?: unknown; code?: unknown }) : {};
  const error = typeof o.error === "string" && o.error ? o.error : "";
  const code = typeof o.code === "string" ? o.code : "";
  if (current === "en" && error) return error;
  // (without its last full stop, as the server's sentences: the texts
  // that hold a refusal put their own, "Non accettato: {message}.")
  const bare = (k: Key) => t(k).replace(/\.$/, "");
  if (code && has(`code.${code}`)) return bare(`code.${code}` as Key);
  if (current === "en") return fallback;
  const byStatus: Record<number, string> = { 400: "bad_request", 401: "unauthorized", 403: "forbidden", 404: "not_found",
    409: "conflict", 413: "too_large", 429: "rate_limited", 503: "busy" };
  const k = `code.${byStatus[status] ?? (status >= 500 ? "server_error" : "refused")}`;
  return has(k) ? bare(k) : fallback;
}

/** A number as the language writes it (no grouping below 10000: "1500"). */
export function num(n: number, opts?: Intl.NumberFormatOptions): string {
  if (Number.isInteger(n) && Math.abs(n) < 10000 && !opts) return String(n);
  return new Intl.NumberFormat(current, opts).format(n);
}

/** A date (and time) as the language writes it. */
export function dateTime(ms: number, opts: Intl.DateTimeFormatOptions = { dateStyle: "medium", timeStyle: "short" }): string {
  return new Intl.DateTimeFormat(current, opts).format(new Date(ms));
}

/** The keys and their texts of a language (for the tests). */
export function catalog(l: Lang): Readonly<Record<Key, string>> {
  return catalogs[l];
}
