// gametext.ts — the pure part of the game screen (game.ts): what it says
// and decides from the game's JSON alone, with no DOM: the result, whose
// turn, how a player is named, the legal moves with their parts, the side
// shown at the bottom, the position a step through the moves goes to.
// Tested in node (tests/web/unit).

import { parseSquare, squareName } from "./games/boardkit";
import { endReason } from "./accounttext";
import { sayEnd } from "./libend";
import { playerName } from "./meta";
import { t } from "./i18n";
import type { Game, LegalGroup, LegalMove, Meta, MoveParts, Side } from "./types";

export const other = (s: Side): Side => (s === "white" ? "black" : "white");
export const cap = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
// A side's name: "White" (S), "white" (s) in a sentence.
export const S = (s: Side): string => t(s === "white" ? "side.white" : "side.black");
export const s_ = (s: Side): string => t(s === "white" ? "sidel.white" : "sidel.black");

// "White wins", "Drawn", "Black resigned: white wins".
export function resultText(g: Game): string {
  if (g.end === "abort") return t("game.aborted");
  if (g.end === "time" && (g.winner === "white" || g.winner === "black")) return t("game.winsOnTime", { side: S(g.winner) });
  if (g.resigned) return t("game.resignedWins", { side: S(g.resigned), other: s_(other(g.resigned)) });
  if (g.winner === "draw") return g.end === "agreement" ? t("game.drawnAgreement") : t("game.drawn");
  if (g.winner === "white" || g.winner === "black") return t("game.wins", { side: S(g.winner) });
  return t("game.over");
}

// Whose turn, for a screen holding the seats `mine`.
export function statusText(g: Game, mine: Side[]): string {
  if (g.over) return resultText(g);
  if (g.tomove === "none") return "…";
  if (mine.includes(g.tomove)) return mine.length === 2 ? t("game.toMove", { side: S(g.tomove) }) : t("game.yourTurn");
  if (g[g.tomove] !== "human") return g.thinking ? t("game.thinking") : t("game.computerToMove", { side: S(g.tomove) });
  const name = g.accounts?.[g.tomove];
  if (name) return mine.length ? t("game.waitingFor", { name }) : t("game.nameToMove", { name, side: s_(g.tomove) });
  return mine.length ? t("game.waitingFor", { name: s_(g.tomove) }) : t("game.toMove", { side: S(g.tomove) });
}

// Who plays a side, for a screen holding the seats `mine`: "You", "on this
// screen", "Friend" (the other player of this screen's player), "a player"
// (for a spectator, who holds no seat), or the computer's name.
export function whoText(g: Game, side: Side, mine: Side[], meta: Meta | null): string {
  const p = g[side];
  if (p !== "human") return playerName(p, meta);
  const account = g.accounts?.[side];
  if (account) return mine.length === 1 && mine[0] === side ? t("game.accountYou", { name: account }) : account;
  if (mine.length === 2) return t("game.onThisScreen");
  if (mine.length === 1) return mine[0] === side ? t("game.you") : t("game.friend");
  return t("game.aPlayer");
}

// The line that tells a screen holding no seat that it only watches ("" for a player).
export function watchingText(g: Game, mine: Side[]): string {
  if (mine.length) return "";
  return g.over ? t("game.watchingOver") : accountGame(g) ? t("game.watchingAccounts") : t("game.watchingLinks");
}

// The side that made each move of a game (movers[i] made moves[i]), from the
// turn order the rules fix (../shared/SPEC.md): Epaminondas alternates from
// white; Urbino's black places the first architect, white the second, black
// says who builds first, then turns alternate from that side; Cathedral
// alternates from white, except that in opening=late black places the
// Cathedral and his first building in a row; in Toscana the tile placements
// (and passes) alternate from white, and a veto or an accept is the decision
// of the other side, the one whose turn it is not.
export function movers(game: string, options: string, moves: string[]): Side[] {
  const out: Side[] = [];
  let next: Side = "white";
  if (game === "toscana") {
    for (const m of moves) {
      if (m === "veto" || m === "accept") out.push(other(next));
      else { out.push(next); next = other(next); }
    }
    return out;
  }
  if (game === "urbino") {
    moves.forEach((m, i) => {
      if (i === 0) out.push("black");
      else if (i === 1) out.push("white");
      else if (i === 2) { out.push("black"); next = m === "first:white" ? "white" : "black"; }
      else { out.push(next); next = other(next); }
    });
    return out;
  }
  const late = game === "cathedral" && /(^|\s)opening=late(\s|$)/.test(options);
  moves.forEach((_, i) => {
    if (late && i === 1) { out.push("black"); return; }   // the Cathedral; his building follows
    out.push(next);
    next = other(next);
  });
  return out;
}

// One line of the analysis' list: "12. Hd4 ?? White's mistake (best: Pe5)",
// "your mistake" / "your opponent's" for a screen holding one seat.
export function mistakeText(ply: number, move: string, mark: string, best: string, by: Side | undefined, mine: Side[]): string {
  const bl = mark === "??";
  const who = !by ? (bl ? t("mistake.blunder") : t("mistake.mistake"))
    : mine.length === 1 ? (by === mine[0] ? t(bl ? "mistake.yourBlunder" : "mistake.yourMistake") : t(bl ? "mistake.oppBlunder" : "mistake.oppMistake"))
    : t(bl ? "mistake.sideBlunder" : "mistake.sideMistake", { side: S(by) });
  return `${ply}. ${move} ${mark} ${who}` + (best && best !== move ? t("mistake.best", { move: best }) : "");
}

// Why the game ended, for the end screen: the server's sentence (view.end,
// in the page's language: libend.ts) when it gives one, the resignation, else "" (the result line says the rest).
export function endText(g: Game): string {
  if (!g.over) return "";
  const parts: string[] = [];
  if (g.resigned) parts.push(t("game.sideResigned", { side: S(g.resigned) }));
  const reason = endReason(g.end, g.winner, g.absent, g.accounts);
  if (reason) parts.push(reason);
  const end = sayEnd((g.view?.end ?? "").trim());
  if (end && !(g.resigned && /resign/i.test(end))) parts.push(end);
  return parts.join(" ");
}

// A rated game's end: each player's new rating and its change, as
// "Ann 1662 (+162)"; "" until the server has the result's ratings.
export function ratingChangeText(g: Game): string {
  if (!g.over || !g.ratings) return "";
  const parts: string[] = [];
  for (const side of ["white", "black"] as const) {
    const r = g.ratings[side];
    const name = g.accounts?.[side];
    if (!r || !name) continue;
    parts.push(t("gs.ratingChange", { name, after: Math.round(r.after), delta: signedDelta(r.after - r.before) }));
  }
  return parts.length ? t("gs.ratingsAfter", { list: parts.join(" · ") }) : "";
}

// A change of rating with its sign: "+162", "−162" (a true minus), "±0".
export function signedDelta(d: number): string {
  const n = Math.round(d);
  return n > 0 ? `+${n}` : n < 0 ? `\u2212${-n}` : "\u00b10";
}

// Whether a game is between accounts (the server names an account for a
// side; other games carry {"white": null, "black": null}).
export function accountGame(g: Game): boolean {
  return !!(g.accounts && (g.accounts.white || g.accounts.black));
}

// Whether this screen's player may abort a game between accounts: it runs,
// and not both sides have moved yet (the server says the same).
export function canAbort(g: Game, mine: Side[]): boolean {
  if (!accountGame(g) || g.over || mine.length !== 1) return false;
  const by = movers(g.game, g.options, g.moves);
  return !(by.includes("white") && by.includes("black"));
}

// The page's title: "Your turn · Urbino — Tavoliere" when this screen's
// player is to move (a screen with both seats: never), else the game's.
export function pageTitle(g: Game | null, mine: Side[], gameTitle: string): string {
  const base = `${gameTitle} — Tavoliere`;
  if (!g || g.over || mine.length !== 1 || g.tomove !== mine[0]) return base;
  return t("game.titleYourTurn", { base });
}

// The parts of one move of a group, standing on its anchor (null: the group
// has no squares).
function partsAt(grp: LegalGroup, at: string | null): MoveParts {
  const a = at ? parseSquare(at) : null;
  const sq = (d: [number, number]) => (a ? squareName(a[0] + d[0], a[1] + d[1]) : "");
  const p: MoveParts = { action: grp.action, squares: grp.squares.map(sq) };
  if (grp.piece !== undefined) p.piece = grp.piece;
  if (grp.from) p.from = sq(grp.from);
  if (grp.to) p.to = sq(grp.to);
  if (grp.marked) p.marked = grp.marked.map(sq);
  if (grp.rotation !== undefined) p.rotation = grp.rotation;
  if (grp.side) p.side = grp.side;
  return p;
}

// The legal moves with their parts, for a game on the server and a game in
// the page alike: both send `legal` group by group and each group's parts
// once, with one anchor square per move (docs/server-api.md, legalGroups;
// the library's tavi_json_legal writes them for both).
export function legalMoves(g: Game): LegalMove[] {
  const out: LegalMove[] = [];
  for (const grp of g.legalGroups) {
    const anchors = grp.at ?? Array<null>(grp.count).fill(null);
    for (const at of anchors) out.push({ move: g.legal[out.length], parts: partsAt(grp, at) });
  }
  return out;
}

// The side shown at the bottom: the one seat held (white for none or both),
// turned when the board is flipped.
export function orientationOf(mine: Side[], flipped: boolean): Side {
  const o: Side = mine.length === 1 ? mine[0] : "white";
  return flipped ? other(o) : o;
}

// The ply a step through the moves shows from ply `cur` of a game of `ply`
// moves, or null when it goes nowhere.
export type StepTo = "first" | "prev" | "next" | "last";
export function stepTarget(where: StepTo, cur: number, ply: number): number | null {
  const target = where === "first" ? 0 : where === "last" ? ply : where === "prev" ? cur - 1 : cur + 1;
  if (target < 0 || target > ply || (target === cur && where !== "last")) return null;
  return target;
}

// The note under the move list while a past position is shown ("" for the current one).
export function historyText(viewPly: number | null, ply: number): string {
  if (viewPly === null) return "";
  return (viewPly === 0 ? t("history.start") : t("history.after", { ply: viewPly, total: ply })) + t("history.back");
}

// What a Toscana veto tells the players (issue 34), when the last move of
// `g` is a veto made after `old` (the position before it, whose top tiles
// name the tile vetoed): "Black vetoed your tile 07: it goes to the bottom of
// your stack." for the player vetoed; "" when the last move is no veto.
export function vetoNotice(old: Game | null, g: Game, mine: Side[]): string {
  if (g.game !== "toscana" || !g.moves.length || g.moves[g.moves.length - 1] !== "veto") return "";
  const by = movers(g.game, g.options, g.moves)[g.moves.length - 1];
  const vetoed = other(by);
  const id = old && old.ply === g.ply - 1 ? (old.view.sides[vetoed]?.hand ?? []).find((t) => t.kind === "S")?.id : undefined;
  const tile = id ? t("veto.tileId", { id }) : t("veto.tile");
  if (mine.length === 1 && mine[0] === vetoed) return t("veto.yours", { by: S(by), tile });
  if (mine.length === 1 && mine[0] === by) return t("veto.mine", { vetoed: s_(vetoed), tile });
  return t("veto.theirs", { by: S(by), vetoed: s_(vetoed), tile });
}

// The move list's label of move i (0-based) of g, or null for a move the
// list leaves out: Toscana's "accept" (keeping the veto is no move a player
// makes; the page answers it by itself) is left out, a veto says whose.
export function moveLabel(g: Game, i: number, by: Side[]): string | null {
  const m = g.moves[i];
  if (g.game !== "toscana") return m;
  if (m === "accept") return null;
  if (m === "veto") return t("veto.by", { side: by[i] ? s_(by[i]) : "?" });
  return m;
}

// A rematch of a finished game on this screen (issue 34): the same game and
// options (Toscana: a fresh deal, its seed and stacks left out), colours
// swapped against the computer, two people at one screen again; null for a
// game between two screens (the server's rematch request does that) or one
// this screen holds no seat of.
export interface Rematch { game: string; options: string; white: string; black: string; local: boolean; me: Side | null }
export function rematchPlan(g: Game, mine: Side[]): Rematch | null {
  if (!g.over) return null;
  const options = g.options.split(/\s+/).filter((o) => o && !(g.game === "toscana" && /^(seed|white|black)=/.test(o))).join(" ");
  if (mine.length === 2) return { game: g.game, options, white: "human", black: "human", local: true, me: null };
  if (mine.length !== 1) return null;
  const opp = g[other(mine[0])];
  if (opp === "human") return null;
  return { game: g.game, options, white: g.black, black: g.white, local: false, me: other(mine[0]) };
}

// What the offers panel says and offers to `me` (one seat held, the other a
// person on another screen): null when offers do not apply here.  A rematch
// (kind "rematch": "offer" and "accept" through the rematch request) and a
// claim (kind "claim", act "win" or "draw") go in the same panel.
export interface OfferButton {
  kind: "draw" | "takeback" | "rematch" | "claim";
  act: "offer" | "accept" | "decline" | "win" | "draw";
  label: string;
  disabled?: boolean;
}
export interface OfferView { text: string; buttons: OfferButton[] }

// The name a side plays under: its account, else its colour.
function sideName(g: Game, side: Side): string {
  return g.accounts?.[side] ?? S(side);
}

// Between two accounts a rematch is an offer (SPEC "Consent and fair
// endings"): the other player accepts or declines it; nothing is made until
// then.  null when it does not apply (a rematch made already: the rematch
// button joins it).  spent: this player's offer was declined or withdrawn
// (the server takes no other from them in this game).
export function rematchView(g: Game, me: Side | null, spent = false): OfferView | null {
  if (!me || !g.over || !accountGame(g) || g.white !== "human" || g.black !== "human" ||
      !g.accounts?.white || !g.accounts?.black || typeof g.rematch === "string" || g.end === "abort") return null;
  const them = me === "white" ? "black" : "white";
  const r = g.offers?.rematch ?? null;
  if (r === them) {
    return { text: t("offer.rematchOffered", { name: sideName(g, them) }), buttons: [
      { kind: "rematch", act: "accept", label: t("offer.accept") }, { kind: "rematch", act: "decline", label: t("offer.decline") }] };
  }
  if (r === me) {
    return { text: t("offer.rematchWaiting", { name: sideName(g, them) }), buttons: [
      { kind: "rematch", act: "decline", label: t("offer.withdraw") }] };
  }
  if (spent) return null;
  return { text: "", buttons: [{ kind: "rematch", act: "offer", label: t("offer.offerRematch") }] };
}

// Said to the player whose rematch offer the other declined.
export function rematchDeclinedText(g: Game, me: Side): string {
  return t("offer.rematchDeclined", { name: sideName(g, me === "white" ? "black" : "white") });
}

// What became of this player's draw offer or take-back request, seen when the
// game changes: "bob declined the draw.", "bob allowed the take-back."; "".
export function offerOutcomeText(old: Game, g: Game, me: Side): string {
  const name = sideName(g, me === "white" ? "black" : "white");
  if (old.offers?.takeback === me && !g.offers?.takeback && g.ply < old.ply) return t("offer.takebackAllowed", { name });
  if (old.offers?.takeback === me && !g.offers?.takeback && g.ply === old.ply && !g.over) return t("offer.takebackDeclined", { name });
  if (old.offers?.draw === me && !g.offers?.draw && g.ply === old.ply && !g.over) return t("offer.drawDeclined", { name });
  return "";
}

// The opponent, to move, left (no page of theirs open): a countdown, then
// the claim.  msLeft: the time until the claim is allowed now; null when
// there is nothing to claim.
export function claimView(g: Game, me: Side | null, msLeft: number | null): OfferView | null {
  if (!me || g.over || msLeft === null) return null;
  const them = me === "white" ? "black" : "white";
  const wait = msLeft > 0;
  const secs = Math.ceil(msLeft / 1000);
  const text = wait
    ? t("claim.waiting", { name: sideName(g, them), secs })
    : t("claim.now", { name: sideName(g, them) });
  return { text, buttons: [
    { kind: "claim", act: "win", label: t("claim.win"), disabled: wait },
    { kind: "claim", act: "draw", label: t("claim.draw"), disabled: wait }] };
}
export function offerView(g: Game, me: Side | null, local: boolean): OfferView | null {
  if (!me || g.over || local || g.white !== "human" || g.black !== "human" || !g.offers) return null;
  const them = me === "white" ? "black" : "white";
  const lines: string[] = [];
  const buttons: OfferView["buttons"] = [];
  const d = g.offers.draw, tb = g.offers.takeback;
  if (d === them) {
    lines.push(t("offer.drawOffered", { side: S(them) }));
    buttons.push({ kind: "draw", act: "accept", label: t("offer.acceptDraw") }, { kind: "draw", act: "decline", label: t("offer.decline") });
  } else if (d === me) {
    lines.push(t("offer.youOfferedDraw"));
    buttons.push({ kind: "draw", act: "decline", label: t("offer.withdrawOffer") });
  } else {
    buttons.push({ kind: "draw", act: "offer", label: t("offer.offerDraw") });
  }
  if (g.game !== "toscana") {
    if (tb === them) {
      lines.push(t("offer.takebackAsked", { side: S(them) }));
      buttons.push({ kind: "takeback", act: "accept", label: t("offer.allowTakeback") }, { kind: "takeback", act: "decline", label: t("offer.refuse") });
    } else if (tb === me) {
      lines.push(t("offer.youAskedTakeback"));
      buttons.push({ kind: "takeback", act: "decline", label: t("offer.withdrawRequest") });
    } else if (g.moves.length > 0) {
      buttons.push({ kind: "takeback", act: "offer", label: t("offer.askTakeback") });
    }
  }
  return { text: lines.join(" "), buttons };
}
