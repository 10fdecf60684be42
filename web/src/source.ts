// source.ts — where the game on a game screen lives, behind one interface:
// on the server (its API and live socket: ServerSource) or in the page
// (local.ts, the page's own engine, offline: PageSource).  The game screen
// (game.ts) is a controller over a GameSource: it asks it for the game, a
// past position, a move, a hint, an undo, a resignation, an analysis, the
// record and a new game like this one, and never asks which one it is.

import * as api from "./api";
import { ApiError } from "./api";
import { Live } from "./live";
import * as store from "./store";
import type { LocalGame } from "./local";
import type { Game, Meta, Presence, Side, View } from "./types";
import { accountGame, other, rematchPlan } from "./gametext";
import { playerName } from "./meta";
import { t } from "./i18n";

// What the screen hears from its source once it is started.
export interface SourceHooks {
  accept(g: Game, force: boolean): void;    // a newer state of the game
  connected(c: boolean): void;              // the live connection came or went
  presence(p: Presence): void;              // who has a page of the game open
  message(m: unknown): void;                // any other live message (chat.ts)
  say(text: string): void;                  // a message for the player
}

// What became of a refused move: the game as it is now (null: not known),
// whether it had moved on meanwhile (this tab was stale), and what to say.
export interface Refusal {
  fresh: Game | null;
  stale: boolean;
  text: string;
}

// A new game like this one (the rematch button): what the screen holds.
export interface RematchAsk {
  game: Game;
  mine: Side[];                                 // the sides this screen plays
  tokens: { white?: string; black?: string };   // their seat tokens
  meta: Meta | null;
}

export interface GameSource {
  readonly id: string;
  // Friend and watch links, the game kept in this browser's list, the
  // signed-in player's buttons (chat, report): a game others can reach.
  readonly shared: boolean;
  // The screen's seat token ("local" in the page).
  readonly token: string | null;
  // What the connection line says before anything is heard ("" nothing).
  readonly connText: string;
  // The first state of the game (a bad seat token is dropped, said with say).
  first(say: (text: string) => void): Promise<Game>;
  // Live updates from now on.
  start(h: SourceHooks, ply: () => number): void;
  // The game now (as the seat `token` sees it, when given).
  get(token?: string | null): Promise<Game>;
  view(ply: number): Promise<{ ply: number; view: View }>;
  move(token: string | null, move: string, ply: number): Promise<Game>;
  refusal(e: unknown, ply: number, was: Game): Promise<Refusal>;
  hint(token: string): Promise<string>;
  undo(token: string, ply: number): Promise<Game>;
  resign(token: string | null): Promise<Game>;
  // Between two people: an offer (draw, take-back, rematch) made, accepted
  // or declined; a claim against an absent opponent; an abort before both
  // sides moved (a game of the page has none of these: refused).
  offer(token: string | null, kind: "draw" | "takeback" | "rematch", act: "offer" | "accept" | "decline"): Promise<Game>;
  claim(result: "win" | "draw"): Promise<Game>;
  abort(): Promise<Game>;
  // Steps of an analysis run here (a progress bar), or null: the server's.
  analysisSteps(): number | null;
  // The analysis: done false when it took too long (ask again later).
  analyse(progress: (done: number, total: number) => void): Promise<api.Analysis>;
  // The record's download link, after each change.
  record(a: HTMLAnchorElement, g: Game): void;
  // A new game like this one: the page goes to it (null), or the state of
  // this game with a rematch offered (the other player accepts or not).
  rematch(ask: RematchAsk): Promise<Game | null>;
  // A game of the page sent to the server (POST /api/records); absent when
  // the game is there already.
  upload?: () => Promise<void>;
  // Each state the screen takes (the page's tests read what it marks).
  observe(g: Game): void;
}

// ---- the server's game ----

export class ServerSource implements GameSource {
  readonly shared = true;
  readonly connText = "";
  token: string | null;

  constructor(readonly id: string, token: string | null) {
    this.token = token;
  }

  async first(say: (text: string) => void): Promise<Game> {
    try {
      return await api.getGame(this.id, this.token);
    } catch (e) {
      if (!(e instanceof ApiError && e.status === 403 && this.token)) throw e;
      say(t("gs.badSeat"));
      this.token = null;
      return api.getGame(this.id);
    }
  }

  start(h: SourceHooks, ply: () => number): void {
    new Live(this.id, this.token, ply, (ng) => h.accept(ng, true), h.connected, h.presence,
      h.message);
  }

  get(token?: string | null): Promise<Game> {
    return api.getGame(this.id, token === undefined ? this.token : token);
  }

  view(ply: number): Promise<{ ply: number; view: View }> {
    return api.viewAt(this.id, ply, this.token);
  }

  move(token: string | null, move: string, ply: number): Promise<Game> {
    return api.postMove(this.id, token, move, ply);
  }

  // A 409: the game may have moved on (another tab, the other player): read
  // it, and say so if it did.
  async refusal(e: unknown, ply: number, was: Game): Promise<Refusal> {
    if (!(e instanceof ApiError && e.status === 409))
      return { fresh: null, stale: false, text: t("gs.sendMoveFailed", { error: (e as Error).message }) };
    let fresh: Game | null = null;
    try {
      fresh = await this.get();
    } catch {
      fresh = null;
    }
    if (fresh && (fresh.ply !== ply || fresh.over !== was.over)) return { fresh, stale: true, text: "" };
    return { fresh, stale: false, text: t("gs.refused", { error: e.message }) };
  }

  async hint(token: string): Promise<string> {
    return (await api.hint(this.id, token)).move;
  }

  undo(token: string, ply: number): Promise<Game> {
    return api.undo(this.id, token, ply);
  }

  resign(token: string | null): Promise<Game> {
    return api.resign(this.id, token);
  }

  offer(token: string | null, kind: "draw" | "takeback" | "rematch", act: "offer" | "accept" | "decline"): Promise<Game> {
    return api.offer(this.id, token, kind, act);
  }

  claim(result: "win" | "draw"): Promise<Game> {
    return api.claim(this.id, result);
  }

  abort(): Promise<Game> {
    return api.abort(this.id);
  }

  analysisSteps(): number | null {
    return null;
  }

  // The server analyses in its own time: asked again every 0.7 s, for at
  // most three minutes.
  async analyse(): Promise<api.Analysis> {
    const t0 = Date.now();
    for (;;) {
      const a = await api.analysis(this.id);
      if (a.done || Date.now() - t0 > 180000) return a;
      await new Promise((r) => window.setTimeout(r, 700));
    }
  }

  record(a: HTMLAnchorElement, g: Game): void {
    if (a.dataset.set) return;
    a.dataset.set = "1";
    a.href = api.recordUrl(this.id);
    a.download = `${g.game}-${this.id}.txt`;
  }

  // Colours swapped against the computer (a new game); between accounts the
  // rematch the server keeps (offered until the other accepts); between two
  // screens the one the server makes once for both.
  async rematch(ask: RematchAsk): Promise<Game | null> {
    const g = ask.game;
    const plan = rematchPlan(g, ask.mine);
    if (plan) {
      const c = await api.createGame(g.game, plan.options, plan.white, plan.black, plan.local);
      const seats: store.Saved["seats"] = {};
      if (c.seats.white) seats.white = c.seats.white;
      if (c.seats.black) seats.black = c.seats.black;
      const opp = plan.me ? plan[other(plan.me)] : "human";
      store.put({ id: c.id, game: g.game, seats, created: Date.now(),
        opponent: plan.local ? t("home.opp.local") : playerName(opp, ask.meta) });
      location.assign(`/games/${encodeURIComponent(c.id)}?seat=${encodeURIComponent((plan.me ? seats[plan.me] : seats.white) ?? "")}`);
      return null;
    }
    if (accountGame(g)) {
      const r = await api.rematch(this.id, null);
      if (r.id === undefined) return api.getGame(this.id);   // offered (202): nothing made yet
      location.assign(`/games/${encodeURIComponent(r.id)}`);
      return null;
    }
    // this seat's token is its seat in the rematch too, on the other side
    const token = g.seat ? ask.tokens[g.seat] ?? this.token : this.token;
    if (!token) return null;
    const r = await api.rematch(this.id, token);
    if (r.id === undefined) return null;   // (an offer: only between accounts)
    store.put({ id: r.id, game: g.game, seats: { [r.seat]: token }, created: Date.now(), opponent: t("home.opp.link") });
    location.assign(`/games/${encodeURIComponent(r.id)}?seat=${encodeURIComponent(token)}`);
    return null;
  }

  observe(): void {
    /* nothing to mark */
  }
}

// ---- a game played in the page ----

export class PageSource implements GameSource {
  readonly shared = false;
  readonly token = "local";
  readonly connText = t("gs.inBrowser");
  private recordUrl: string | null = null;

  constructor(private local: LocalGame) {}

  get id(): string {
    return this.local.get().id;
  }

  async first(): Promise<Game> {
    return this.local.get();
  }

  // The engine's own turns and errors; the worker ends with the page.
  start(h: SourceHooks): void {
    this.local.onChange = (ng) => h.accept(ng, true);
    this.local.onError = (m) => h.say(m);
    window.addEventListener("pagehide", () => this.local.close());
    this.local.computerTurn();
    if (this.local.thinking) h.accept(this.local.get(), true);
  }

  async get(): Promise<Game> {
    return this.local.get();
  }

  async view(ply: number): Promise<{ ply: number; view: View }> {
    return { ply, view: this.local.view(ply) };
  }

  async move(_token: string | null, move: string, ply: number): Promise<Game> {
    return this.local.move(move, ply);
  }

  async refusal(e: unknown): Promise<Refusal> {
    return { fresh: this.local.get(), stale: false, text: t("gs.refused", { error: (e as Error).message }) };
  }

  hint(): Promise<string> {
    return this.local.hint();
  }

  async undo(): Promise<Game> {
    return this.local.undo();
  }

  async resign(): Promise<Game> {
    return this.local.resign();
  }

  // Against the computer in the page: nothing to offer, claim or abort
  // (the screen shows none of these for it).
  async offer(): Promise<Game> {
    throw new Error(t("gs.notHere"));
  }

  async claim(): Promise<Game> {
    throw new Error(t("gs.notHere"));
  }

  async abort(): Promise<Game> {
    throw new Error(t("gs.notHere"));
  }

  analysisSteps(): number | null {
    return this.local.ply;
  }

  async analyse(progress: (done: number, total: number) => void): Promise<api.Analysis> {
    return { done: true, plies: await this.local.analyse(progress) };
  }

  // A fresh blob: address at each change.
  record(a: HTMLAnchorElement, g: Game): void {
    if (this.recordUrl) URL.revokeObjectURL(this.recordUrl);
    this.recordUrl = URL.createObjectURL(new Blob([this.local.record()], { type: "text/plain" }));
    a.href = this.recordUrl;
    a.download = `${g.game}-${this.local.saved.id}.txt`;
  }

  // The same level and options, the colours swapped.
  async rematch(): Promise<Game | null> {
    const l = this.local.saved;
    const q = new URLSearchParams({ level: String(l.level), colour: other(l.human), new: "1" });
    if (l.options) q.set("options", l.options);
    location.assign(`/play/${l.game}?${q}`);
    return null;
  }

  // Sent to the server (to share or analyse it there): the page opens it.
  upload = async (): Promise<void> => {
    const c = await api.loadRecord(this.local.record(), "human", "human");
    const seat = c.seats.white ?? c.seats.black ?? "";
    store.put({ id: c.id, game: this.local.saved.game, seats: c.seats, created: Date.now(), opponent: t("gs.uploadedOpp") });
    location.assign(`/games/${encodeURIComponent(c.id)}?seat=${encodeURIComponent(seat)}`);
  };

  // For the page's tests: searches ended by a cancel, and whether one runs.
  observe(g: Game): void {
    document.body.dataset.workerCancels = String(this.local.cancels);
    document.body.dataset.thinking = g.thinking ? "1" : "0";
  }
}
