// urbinokit.ts — the pure part of the Urbino board (urbino.ts): what it
// reads from the view and from the legal moves' parts, with no DOM: the
// building moves, what a click on a square does to the half-made move (and
// which move it submits), which squares are offered, the squares' labels and
// classes, each side's supply.  Tested in node (tests/web/unit).

import type { LegalMove, Square, Side, View } from "../types";
import { t, type Key } from "../i18n";

export type Kind = "H" | "P" | "T";
export const KINDS: Kind[] = ["H", "P", "T"];
const KIND_CAT: Record<string, Key> = { H: "urb.house", P: "urb.palace", T: "urb.tower", A: "urb.architect" };
// The kinds' names in the page's language (read when shown).
export const KIND_NAME: Record<string, string> = Object.defineProperties({} as Record<string, string>,
  Object.fromEntries(Object.entries(KIND_CAT).map(([k, key]) => [k, { enumerable: true, get: () => t(key) }])));
const SIDE = (s: string | undefined): string => (s === "white" ? t("sidel.white") : s === "black" ? t("sidel.black") : s ?? "");
export const KIND_KEY: Record<string, Kind> = { h: "H", p: "P", t: "T" };

// A building move, from its parts: the architect moved first (from, to; ""
// when none), the building and its square.
export interface Build { from: string; to: string; kind: Kind; sq: string; move: string }

export function builds(legal: LegalMove[]): Build[] {
  const out: Build[] = [];
  for (const { move, parts: p } of legal) {
    if (p.action === "place" && p.piece && KINDS.includes(p.piece as Kind)) {
      out.push({ from: p.from ?? "", to: p.to ?? "", kind: p.piece as Kind, sq: p.squares[0], move });
    }
  }
  return out;
}

// The half-made move: the architect picked to move, its new square, the
// building kind chosen.
export interface UrbinoPick { arch: string | null; dest: string | null; kind: Kind | null }

// The builds that go with the architect move made so far (none made: the
// builds that move no architect).
export function prefixed(pick: UrbinoPick, all: Build[]): Build[] {
  return all.filter((b) => (pick.arch && pick.dest ? b.from === pick.arch && b.to === pick.dest : b.from === ""));
}

// The kind chosen when it has a lot, else the first kind that has one.
export function currentKind(pick: UrbinoPick, avail: Build[]): Kind | null {
  const kinds = KINDS.filter((k) => avail.some((b) => b.kind === k));
  if (pick.kind && kinds.includes(pick.kind)) return pick.kind;
  return kinds[0] ?? null;
}

// What a click does: the move to submit, what to say, whether to redraw.
export interface Step { submit?: string; say?: string; render?: boolean }

// A click (or Enter) on square `name`: changes `pick` and says what follows.
export function urbinoClick(pick: UrbinoPick, legal: LegalMove[], name: string): Step {
  if (!legal.length) return {};
  // Setup: place an architect.
  const setup = legal.find((m) => m.parts.piece === "A" && m.parts.squares[0] === name);
  if (setup) return { submit: setup.move };
  const all = builds(legal);
  if (!all.length) return {};
  // An architect picked, its new square not yet chosen.
  if (pick.arch && !pick.dest) {
    if (name === pick.arch) {
      pick.arch = null;
      return { say: "", render: true };
    }
    if (all.some((b) => b.from === pick.arch && b.to === name)) {
      pick.dest = name;
      return { say: t("urb.chooseBuilding"), render: true };
    }
    if (all.some((b) => b.from === name)) {
      pick.arch = name;
      return { render: true };
    }
    return { say: t("urb.clickHighlighted") };
  }
  // The moved architect clicked again: take the repositioning back.
  if (pick.arch && pick.dest && name === pick.dest) {
    pick.dest = null;
    return { say: t("urb.clickNewSquare"), render: true };
  }
  const avail = prefixed(pick, all);
  const kind = currentKind(pick, avail);
  const hit = avail.find((b) => b.sq === name && b.kind === kind);
  if (hit) return { submit: hit.move };
  if (avail.some((b) => b.sq === name)) {
    return { say: t("urb.notThere", { name: KIND_NAME[kind ?? "H"] }) };
  }
  if (!pick.dest && all.some((b) => b.from === name)) {
    pick.arch = name;
    return { say: t("urb.clickNewSquare2"), render: true };
  }
  return { say: pick.dest ? t("urb.clickLotFor") : t("urb.clickShaded") };
}

// The kind a key chooses (H, P, T) when it is offered now; null when the key
// is one of them but the kind has no lot; undefined for other keys or when
// there is no move to make.
export function keyKind(pick: UrbinoPick, legal: LegalMove[], key: string): Kind | null | undefined {
  const k = KIND_KEY[key.toLowerCase()];
  if (!legal.length || !k) return undefined;
  return prefixed(pick, builds(legal)).some((b) => b.kind === k) ? k : null;
}

// What the board offers for the half-made move: the architect squares of the
// setup, the builds that go with it, the kind shown, the lots for that kind
// and for any kind, the architects that may move, the new squares of the
// picked architect, and whether an architect has been moved.
export interface UrbinoMarks {
  all: Build[];
  setupSquares: Set<string>;
  avail: Build[];
  kind: Kind | null;
  targets: Set<string>;
  anyLot: Set<string>;
  movable: Set<string>;
  dests: Set<string>;
  repositioned: boolean;
}

export function urbinoMarks(pick: UrbinoPick, legal: LegalMove[]): UrbinoMarks {
  const all = builds(legal);
  const avail = prefixed(pick, all);
  const kind = currentKind(pick, avail);
  return {
    all,
    setupSquares: new Set(legal.filter((m) => m.parts.piece === "A").map((m) => m.parts.squares[0])),
    avail,
    kind,
    targets: new Set(avail.filter((b) => b.kind === kind).map((b) => b.sq)),
    anyLot: new Set(avail.map((b) => b.sq)),
    movable: new Set(pick.dest ? [] : all.filter((b) => b.from).map((b) => b.from)),
    dests: new Set(pick.arch && !pick.dest ? all.filter((b) => b.from === pick.arch).map((b) => b.to) : []),
    repositioned: !!(pick.arch && pick.dest),
  };
}

// A square's aria-label from the view: what stands there, its marks, its district.
export function squareLabel(name: string, sq: Square | undefined, view: View): string {
  let s = name;
  if (sq?.kind === "A") s += t("urb.sqArchitect");
  else if (sq?.kind) s += t("urb.sqOwner", { owner: SIDE(sq.owner), name: KIND_NAME[sq.kind] ?? sq.kind });
  else s += t("urb.sqEmpty");
  if (sq?.marks?.includes("lot")) s += t("urb.sqLot");
  if (sq?.marks?.includes("monument")) s += t("urb.sqMonument");
  if (sq?.marks?.includes("last")) s += t("urb.sqLast");
  if (sq?.region) {
    const r = view.regions.find((x) => x.id === sq.region);
    if (r) s += t("urb.district", { w: r.white, b: r.black }) + (r.scorer === "white" || r.scorer === "black" ? t("urb.scores", { side: SIDE(r.scorer), n: r.points }) : t("urb.nobody"));
  }
  return s;
}

// The label with what the half-made move offers on the square.
export function offerLabel(name: string, view: View, mk: UrbinoMarks): string {
  let l = squareLabel(name, view.squares?.[name], view);
  if (mk.setupSquares.has(name)) l += t("urb.placeArch");
  else if (mk.dests.has(name)) l += t("urb.moveArch");
  else if (mk.targets.has(name)) l += t("urb.buildHere", { name: KIND_NAME[mk.kind ?? "H"] });
  else if (mk.movable.has(name)) l += t("urb.clickMove");
  return l;
}

// A square's classes (app.css): lot, last, target, movable, picked, hint.
export function squareClass(name: string, view: View, mk: UrbinoMarks, pick: UrbinoPick, hint: Set<string>): string {
  const sq = view.squares?.[name];
  const c: string[] = [];
  const marks = sq?.marks ?? [];
  if (mk.repositioned ? mk.anyLot.has(name) : marks.includes("lot")) c.push("lot");
  if (marks.includes("last")) c.push("last");
  if (mk.targets.has(name) || mk.setupSquares.has(name) || mk.dests.has(name)) c.push("target");
  if (mk.movable.has(name)) c.push("movable");
  if (name === pick.arch) c.push("picked");
  if (hint.has(name)) c.push("hint");
  return c.join(" ");
}

// The buildings a side has left, by kind.
export function supply(view: View, side: Side): Record<string, number> {
  const out: Record<string, number> = { H: 0, P: 0, T: 0 };
  for (const it of view.sides?.[side]?.hand ?? []) out[it.kind] = (out[it.kind] ?? 0) + it.count;
  return out;
}
