// game.ts — the game screen at /games/ID[?seat=TOKEN]: the board (drawn by
// the game's board module), whose turn, the score, the move list (click a move
// or use the arrow keys to see a past position), resign / undo / hint, the
// record, friend links, live updates over the WebSocket, and a clear message
// when this tab was stale and the game moved on.  It is a controller over one
// GameSource (source.ts): the server's game, or one the page's own engine
// plays (local.ts); it never asks which.  What it says about the game
// (its title, score words, rules) comes from /api/meta (meta.ts).  What it
// says and decides from the game's JSON alone is in gametext.ts.

import * as api from "./api";
import { botMark } from "./bots";
import { ApiError } from "./api";
import { copyText, h } from "./dom";
import { BOARDS } from "./games/index";
import { ChatPanel, isChatMessage } from "./chat";
import { reportButton } from "./moderation";
import { currentUser } from "./account";
import { ratingText } from "./accounttext";
import { clockLow, clockNow, deadlineText, formatClock, isDays, isLive } from "./clock";
import {
  accountGame, canAbort, ratingChangeText, signedDelta, claimView, offerView, rematchDeclinedText, offerOutcomeText, rematchView, endText, historyText, legalMoves, mistakeText, moveLabel, movers, orientationOf, other, pageTitle, resultText, statusText,
  rematchPlan, stepTarget, vetoNotice, watchingText, whoText,
} from "./gametext";
import { gameMeta, loadMeta, optionsText, playerName, rulesElements, scoreText, title } from "./meta";
import { boardFit, SCROLL_SQUARE, scrollHint, scrollToShow, type Span } from "./phone";
import { playSound, setSound, soundOn } from "./sound";
import { soundFor } from "./soundkit";
import * as store from "./store";
import type { BoardContext, BoardModule, Game, Meta, Presence, Side, View } from "./types";
import { Cancelled } from "./engine/client";
import type { LocalGame } from "./local";
import { PageSource, ServerSource, type GameSource } from "./source";
import { t } from "./i18n";

const SN = (x: Side): string => t(x === "white" ? "side.white" : "side.black");
const sn = (x: Side): string => t(x === "white" ? "sidel.white" : "sidel.black");

const STALE = (): string => t("gs.stale");

interface Screen {
  id: string;
  src: GameSource;                // where the game lives (source.ts)
  tokens: { white?: string; black?: string };
  game: Game | null;
  viewPly: number | null;         // a past position being shown, or null for the current one
  pastView: View | null;
  viewReq: number;
  wantPly: number | null;         // the position asked for (its view may still be loading)
  pending: boolean;
  flipped: boolean;
  module: BoardModule | null;
  meta: Meta | null;              // /api/meta (null when it could not be loaded)
  ctx: BoardContext | null;
  connected: boolean;
  heard: number;                  // game states the live socket has brought (answers read against it)
  drawnKey: string;      // what the board last drew (render draws again only on a change)
  presence: Presence | null;      // who has a page open (the live socket says), null until told
  chat?: ChatPanel;               // the game's chat (chat.ts), hidden without a room
  resignArmed: number;
  clockAt: number;                // when the game's JSON (and its clock) arrived (performance.now())
  flagAsked: number;              // the ply at which a clock seen at 0 made the page ask the server (-1: none)
  ratings: Partial<Record<Side, string>>;  // account games: each player's rating in this game ("1500?")
  els: Record<string, HTMLElement>;
  svg: SVGSVGElement;
  claimShown: number | null;      // the claim's countdown as last drawn (ms), null: none shown
  withdrew: boolean;              // this page withdrew its rematch offer (not declined by the other)
  rematchSpent: boolean;          // this player's rematch offer was declined or withdrawn: not made again
}

function newScreen(src: GameSource, tokens: Screen["tokens"]): Screen {
  const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
  svg.setAttribute("class", "board");
  svg.setAttribute("id", "board");
  svg.setAttribute("preserveAspectRatio", "xMidYMid meet");
  return {
    id: src.id, src, tokens, game: null, viewPly: null, pastView: null, viewReq: 0, wantPly: null, pending: false, flipped: false,
    module: null, meta: null, ctx: null, connected: false, heard: 0, drawnKey: "", presence: null, resignArmed: 0, clockAt: 0, flagAsked: -1, ratings: {}, els: {}, svg,
    claimShown: null, withdrew: false, rematchSpent: false,
  };
}

export function showGame(app: HTMLElement, id: string, token: string | null): void {
  app.className = "game-screen";
  app.textContent = "";
  const saved = store.find(id);
  const tokens: Screen["tokens"] = {};
  if (saved && token && (saved.seats.white === token || saved.seats.black === token)) Object.assign(tokens, saved.seats);
  const s = newScreen(new ServerSource(id, token), tokens);
  build(app, s);
  void load(s);
}

// A game against the computer played in the page (local.ts): the same
// screen over the page's engine instead of the server.
export function showLocalGame(app: HTMLElement, local: LocalGame, meta: Meta | null): void {
  app.className = "game-screen";
  app.textContent = "";
  const s = newScreen(new PageSource(local), { [local.saved.human]: "local" });
  build(app, s);
  void load(s, meta);
}

// Send the game to the server (a game of the page: to share or analyse it
// there): the page then opens it.
async function doUpload(s: Screen): Promise<void> {
  if (!s.src.upload) return;
  const btn = s.els.upload as HTMLButtonElement;
  btn.disabled = true;
  try {
    await s.src.upload();
  } catch (e) {
    s.els.message.textContent = t("gs.sendFailed", { error: (e as Error).message });
    btn.disabled = false;
  }
}

// ---- Layout -------------------------------------------------------------------

function build(app: HTMLElement, s: Screen): void {
  const e = s.els;
  e.title = h("h1", { class: "game-title" }, "…");
  e.tournament = h("a", { class: "tournament-link", id: "tournament-link", hidden: true }, t("gs.tournamentLink"));
  e.status = h("p", { class: "status", id: "status", "aria-live": "polite" }, t("home.loadingShort"));
  e.message = h("p", { class: "message", id: "message", role: "status", "aria-live": "assertive" });
  e.whiteRow = h("div", { class: "player white", id: "player-white" });
  e.blackRow = h("div", { class: "player black", id: "player-black" });
  e.moves = h("ol", { class: "move-list", id: "moves", "aria-label": t("gs.moves") });
  e.nav = h("div", { class: "move-nav", role: "group", "aria-label": t("gs.stepMoves") });
  const navBtn = (label: string, aria: string, id: string, f: () => void) => {
    const b = h("button", { type: "button", id, "aria-label": aria, title: aria }, label);
    b.addEventListener("click", f);
    e.nav.appendChild(b);
    return b;
  };
  navBtn("|◀", t("gs.first"), "nav-first", () => step("first", s));
  navBtn("◀", t("gs.prev"), "nav-prev", () => step("prev", s));
  navBtn("▶", t("gs.next"), "nav-next", () => step("next", s));
  navBtn("▶|", t("gs.last"), "nav-last", () => step("last", s));
  e.history = h("p", { class: "history-note", id: "history-note", hidden: true });

  const act = (label: string, id: string, f: () => void, cls = "") => {
    const b = h("button", { type: "button", id, class: cls }, label);
    b.addEventListener("click", f);
    return b;
  };
  e.hint = act(t("gs.hint"), "hint", () => doHint(s));
  e.undo = act(t("gs.undo"), "undo", () => doUndo(s));
  e.resign = act(t("gs.resign"), "resign", () => doResign(s), "danger");
  e.abort = act(t("gs.abort"), "abort", () => doAbort(s));
  e.abort.title = t("gs.abortTitle");
  e.abort.hidden = true;
  e.flip = act(t("gs.flip"), "flip", () => { s.flipped = !s.flipped; drawBoard(s); });
  e.rules = act(t("gs.rules"), "rules-btn", () => showRules(s));
  e.record = h("a", { class: "button", id: "download", href: "#", download: "" }, t("gs.download"));
  e.newGame = h("a", { class: "button", id: "new-game", href: "/" }, t("nav.newGame"));
  e.upload = act(t("gs.upload"), "upload", () => doUpload(s));
  e.upload.title = t("gs.uploadTitle");
  e.upload.hidden = true;
  e.sound = act("", "sound", () => { setSound(!soundOn()); showSound(s); });
  showSound(s);
  e.rematch = act(t("gs.rematch"), "rematch", () => doRematch(s), "primary");
  e.rematch.hidden = true;
  e.offers = h("div", { class: "offers", id: "offers", hidden: true, "aria-live": "polite" });
  e.notify = act(t("gs.notify"), "notify", () => {
    if (typeof Notification !== "undefined")
      void Notification.requestPermission().then(() => { if (s.game) render(s); });
  });
  e.notify.hidden = true;
  e.report = h("span", { class: "report-slot", id: "report-slot", hidden: true });
  e.actions = h("div", { class: "actions" }, e.rematch, e.hint, e.undo, e.abort, e.resign, e.flip, e.rules, e.sound, e.notify, e.record, e.upload, e.newGame, e.report);
  e.links = h("section", { class: "links", id: "links", hidden: true, "aria-label": t("gs.links") });
  e.conn = h("p", { class: "conn muted", id: "conn" });
  e.deal = h("p", { class: "deal-note", id: "deal-note", hidden: true },
    t("gs.deal"));
  e.analysisBtn = act(t("gs.analyse"), "analysis-btn", () => doAnalysis(s));
  e.analysisOut = h("div", { class: "analysis-out", id: "analysis-out", "aria-live": "polite" });
  e.analysisBar = h("progress", { class: "analysis-progress", id: "analysis-progress", max: 1, value: 0, hidden: true, "aria-label": t("gs.analysisProgress") });
  e.analysis = h("section", { class: "analysis", id: "analysis", hidden: true, "aria-label": t("gs.analysis") },
    h("h2", {}, t("gs.analysis")), e.analysisBtn, e.analysisBar, e.analysisOut);

  const boardWrap = h("section", { class: "board-wrap", "aria-label": t("gs.board") });
  e.scroller = h("div", { class: "board-scroll", id: "board-scroll" });
  e.scroller.appendChild(s.svg);
  // on a phone the clocks stand above the board too (the side panel is below it)
  e.clockBar = h("div", { class: "clock-bar", id: "clock-bar", hidden: true, "aria-hidden": "true" });
  boardWrap.appendChild(e.clockBar);
  boardWrap.appendChild(e.scroller);
  boardWrap.appendChild(buildScrollBar(s));
  boardWrap.appendChild(e.analysis);
  e.watching = h("p", { class: "watching", id: "watching", hidden: true });
  e.end = h("p", { class: "end-reason", id: "end-reason", hidden: true });
  e.ratingChange = h("p", { class: "rating-change", id: "rating-change", hidden: true, "aria-live": "polite" });
  const side = h("aside", { class: "side-panel" },
    e.title, e.tournament, e.watching, e.blackRow, e.status, e.end, e.ratingChange, e.message, e.deal, e.whiteRow, e.links,
    h("h2", { class: "sr-only" }, t("gs.moves")), e.moves, e.nav, e.history, e.offers, e.actions, e.conn);
  s.chat = new ChatPanel(s.id);   // shown once the socket gives this viewer a room (chat.ts)
  if (s.src.shared) void currentUser().then((me) => s.chat?.setMe(me ? me.name : null));   // Report buttons (moderation.ts)
  side.appendChild(s.chat.el);
  app.appendChild(boardWrap);
  app.appendChild(side);
  e.rulesDialog = h("dialog", { class: "rules", id: "rules" });
  app.appendChild(e.rulesDialog);

  document.addEventListener("keydown", (ev) => onKey(ev, s));
  document.addEventListener("tav-theme", () => drawBoard(s));
  watchBoardFit(s);
  window.setInterval(() => { showClocks(s); showClaim(s); }, 100);
}

// The sound switch says what it is now.
function showSound(s: Screen): void {
  const on = soundOn();
  s.els.sound.textContent = on ? t("gs.soundOn") : t("gs.soundOff");
  s.els.sound.setAttribute("aria-pressed", on ? "true" : "false");
  s.els.sound.title = on ? t("gs.soundTitleOn") : t("gs.soundTitleOff");
}

// ---- A board wider than a phone -------------------------------------------------

// The bar under a board that scrolls sideways: which way there is more, and
// a button each way (half a screen).
function buildScrollBar(s: Screen): HTMLElement {
  const e = s.els;
  const by = (dir: number) => () => {
    const sc = e.scroller;
    sc.scrollBy({ left: dir * sc.clientWidth * 0.5, behavior: "smooth" });
  };
  e.scrollBack = h("button", { type: "button", id: "scroll-back", "aria-label": t("gs.scrollBack") }, "◀");
  e.scrollOn = h("button", { type: "button", id: "scroll-on", "aria-label": t("gs.scrollOn") }, "▶");
  e.scrollBack.addEventListener("click", by(-1));
  e.scrollOn.addEventListener("click", by(1));
  e.scrollText = h("span", { class: "scroll-text", id: "scroll-text" });
  e.scrollBar = h("div", { class: "scroll-bar", id: "scroll-bar", hidden: true }, e.scrollBack, e.scrollText, e.scrollOn);
  return e.scrollBar;
}

// Size the board to the screen after every drawing (a board module redraws
// by itself on a click) and every resize; on a narrow screen keep what the
// player works with in view (phone.ts).
function watchBoardFit(s: Screen): void {
  let queued = false, lastWant = "", first = true;
  const fit = (): void => {
    queued = false;
    const sc = s.els.scroller;
    const units = s.svg.viewBox?.baseVal?.width ?? 0;
    const f = boardFit(sc.clientWidth, units, window.matchMedia("(max-width: 820px)").matches);
    const was = s.svg.classList.contains("scrolls");
    s.svg.classList.toggle("scrolls", f.scroll);
    s.els.scroller.classList.toggle("scrolls", f.scroll);
    s.svg.style.width = f.scroll ? `${f.width}px` : "";
    s.els.scrollBar.hidden = !f.scroll;
    if (!f.scroll) {
      // the whole board shows: no edge is shaded (a shade left from a
      // narrower moment would dim a column for good)
      first = true;
      sc.classList.remove("more-left", "more-right");
      return;
    }
    if (first || !was) {
      // first shown: the middle of the board
      sc.scrollLeft = Math.max(0, (sc.scrollWidth - sc.clientWidth) / 2);
      first = false;
    }
    const base = sc.getBoundingClientRect().left - sc.scrollLeft;
    const spans = (sel: string): [string[], Span[]] => {
      const names: string[] = [], out: Span[] = [];
      s.svg.querySelectorAll(sel).forEach((x) => {
        const sq = x.closest("[data-square]");
        const r = (sq ?? x).getBoundingClientRect();
        names.push(sq?.getAttribute("data-square") ?? "");
        out.push([r.left - base, r.right - base]);
      });
      return [names, out];
    };
    const [mustNames, must] = spans(".pick-ring, .sq.picked");
    const [wantNames, want] = spans(".front-ring, .capture-ring, [data-square] .dot");
    const key = mustNames.join() + "|" + wantNames.join();
    if (key !== lastWant) {
      lastWant = key;
      const to = scrollToShow(sc.scrollLeft, sc.clientWidth, sc.scrollWidth, must, want);
      // at once (not smoothly): the squares stay where the next tap lands
      if (to !== null) sc.scrollLeft = to;
    }
    hintScroll(s);
  };
  const queue = (): void => {
    if (queued) return;
    queued = true;
    requestAnimationFrame(fit);
  };
  new MutationObserver(queue).observe(s.svg, { childList: true, attributes: true, attributeFilter: ["viewBox"] });
  window.addEventListener("resize", queue);
  s.els.scroller.addEventListener("scroll", () => hintScroll(s), { passive: true });
}

function hintScroll(s: Screen): void {
  const sc = s.els.scroller;
  if (!sc.classList.contains("scrolls")) return;
  const hint = scrollHint(sc.scrollLeft, sc.clientWidth, sc.scrollWidth);
  s.els.scrollText.textContent = hint.text;
  (s.els.scrollBack as HTMLButtonElement).disabled = !hint.back;
  (s.els.scrollOn as HTMLButtonElement).disabled = !hint.on;
  sc.classList.toggle("more-left", hint.back);
  sc.classList.toggle("more-right", hint.on);
}

// ---- Loading and live updates -------------------------------------------------

// The first state, the board module, then live updates.  `given`: the
// meta already read (the page's own game works offline).
async function load(s: Screen, given?: Meta | null): Promise<void> {
  const meta = given !== undefined ? Promise.resolve(given) : loadMeta().catch(() => null);
  let g: Game;
  try {
    g = await s.src.first((m) => { s.els.message.textContent = m; });
  } catch (e) {
    fail(s, e);
    return;
  }
  s.meta = await meta;
  s.module = BOARDS[g.game]?.() ?? null;
  if (!s.module) {
    fail(s, new Error(t("gs.cannotDraw", { game: g.game })));
    return;
  }
  const token = s.src.token;
  if (g.seat && token && s.src.shared) {
    s.tokens[g.seat] = token;
    const saved = store.find(s.id);
    if (!saved) {
      const opp = g[other(g.seat)];
      store.put({
        id: s.id, game: g.game, seats: { [g.seat]: token }, created: Date.now(),
        opponent: opp === "human" ? t("home.opp.link") : playerName(opp, s.meta),
      });
    }
  }
  s.ctx = {
    svg: s.svg,
    orientation: "white",
    submit: (m) => submit(s, m),
    say: (m) => { s.els.message.textContent = m; },
  };
  s.els.upload.hidden = !s.src.upload;
  s.els.conn.textContent = s.src.connText;
  accept(s, g, true);
  loadRatings(s, g);
  s.src.start({
    accept: (ng, force) => { s.heard++; accept(s, ng, force); },
    connected: (c) => {
      s.connected = c;
      s.els.conn.textContent = c ? "" : t("gs.reconnecting");
      if (c) void refresh(s);
    },
    presence: (p) => {
      s.presence = p;
      if (s.game) render(s);
    },
    message: (m) => { if (isChatMessage(m)) s.chat?.onMessage(m); },
    say: (m) => { s.els.message.textContent = m; },
  }, () => s.game?.ply ?? 0);
}

function fail(s: Screen, e: unknown): void {
  const msg = e instanceof ApiError && e.status === 404 ? t("gs.noSuchGame") : t("gs.loadFailed", { error: (e as Error).message });
  s.els.status.textContent = msg;
  s.els.title.textContent = "Tavoliere";
}

async function refresh(s: Screen): Promise<void> {
  const asked = s.heard;
  try {
    const g = await s.src.get();
    answered(s, g, asked, true);
  } catch {
    /* the socket will bring it */
  }
}

// An answer over HTTP, asked when the live socket had brought `asked`
// states.  The answer and the socket travel apart, so either may arrive
// first.  While the socket is open it brings every change in order, the
// answer's own included: if it brought anything while the request was out,
// what it brought is newer than the answer or the answer's change is still on
// its way, and the answer is left (a state read just before the opponent's
// move must not undo the move the socket showed).
function answered(s: Screen, g: Game, asked: number, force: boolean): void {
  if (s.connected && s.heard !== asked) return;
  accept(s, g, force);
}

// Take a newer game state.  `force` accepts an older ply too (live messages
// come in order; an undo goes back).
function accept(s: Screen, g: Game, force: boolean): void {
  const old = s.game;
  if (old && !force && g.ply < old.ply) return;
  // An answer formed before the end's ratings were committed (a resignation's
  // own answer may come after the socket's newer state): the ratings once
  // known stay (they never change afterwards).
  if (old && old.over && g.over && old.ratings && !g.ratings && old.ply === g.ply) g.ratings = old.ratings;
  // A state seen with a token of another seat (this screen holds both seats):
  // keep it only for the legal moves of that seat.
  s.game = g;
  s.clockAt = performance.now();
  // A rematch this player offered, accepted by the other: go to it (they
  // agreed to it; its first move has a deadline).
  if (old && old.over && g.over && accountGame(g) && old.seat && old.offers?.rematch === old.seat &&
      typeof g.rematch === "string" && typeof old.rematch !== "string") {
    location.assign(`/games/${encodeURIComponent(g.rematch)}`);
  }
  // ... or declined (this page did not withdraw it): said in words
  if (old && g.over && old.seat && old.offers?.rematch === old.seat && !g.offers?.rematch &&
      typeof g.rematch !== "string" && !s.withdrew) {
    s.els.message.textContent = rematchDeclinedText(g, old.seat);
    s.els.message.dataset.keep = "1";
  }
  if (old && g.over && old.seat && old.offers?.rematch === old.seat && !g.offers?.rematch) s.rematchSpent = true;
  // ... and a draw offered or a take-back asked by this player: what the other did.
  if (old && old.seat && old.id === g.id && !s.withdrew) {
    const outcome = offerOutcomeText(old, g, old.seat);
    if (outcome) {
      s.els.message.textContent = outcome;
      s.els.message.dataset.keep = "1";
    }
  }
  s.withdrew = false;
  const moved = !old || old.ply !== g.ply || old.over !== g.over;
  if (moved) {
    const sound = old ? soundFor(old, g) : null;
    if (sound) playSound(sound);
    s.module?.reset();
    s.pending = false;
    if (old && s.els.message.textContent === STALE() && g.ply === old.ply) {
      /* keep the stale message */
    } else if (old && s.els.message.dataset.keep !== "1") s.els.message.textContent = "";
    s.els.message.dataset.keep = "";
    const veto = vetoNotice(old, g, mySides(s));
    if (veto) s.els.message.textContent = veto;
    notifyTurn(s, old, g);
  }
  if (g.over && s.src.shared) {
    const result = resultText(g);
    store.update(s.id, { over: true, result });
  }
  if (moved) s.src.record(s.els.record as HTMLAnchorElement, g);
  s.src.observe(g);
  // Both seats on this screen: fetch the legal moves of the side to act.
  const actor = g.tomove === "white" || g.tomove === "black" ? g.tomove : null;
  if (actor && g.seat !== actor && s.tokens[actor] && !g.over) {
    const ply = g.ply;
    s.src.get(s.tokens[actor]).then((g2) => {
      if (s.game && s.game.ply === ply && g2.ply === ply) {
        s.game = g2;
        render(s);
      }
    }).catch(() => {});
  }
  render(s);
}

// ---- Drawing --------------------------------------------------------------------

function mySides(s: Screen): Side[] {
  // a game between accounts: the session cookie is the seat
  if (s.game && accountGame(s.game) && s.game.seat) return [s.game.seat];
  return (["white", "black"] as Side[]).filter((x) => s.tokens[x]);
}

function render(s: Screen): void {
  const g = s.game;
  if (!g) return;
  const info = gameMeta(s.meta, g.game);
  const e = s.els;
  const mine = mySides(s);
  const options = optionsText(info, g.options);
  e.title.textContent = title(s.meta, g.game) + (options ? ` · ${options}` : "");
  // a tournament's game: back to its page
  e.tournament.hidden = !g.tournament;
  if (g.tournament) (e.tournament as HTMLAnchorElement).href = `/tournaments/${encodeURIComponent(g.tournament)}`;
  const scoreWords = scoreText(info);

  // Players and score.
  for (const side of ["white", "black"] as Side[]) {
    const row = side === "white" ? e.whiteRow : e.blackRow;
    const who = whoText(g, side, mine, s.meta);
    const score = g.score[side === "white" ? 0 : 1];
    row.textContent = "";
    row.classList.toggle("to-move", g.tomove === side && !g.over);
    row.appendChild(h("span", { class: `dot ${side}`, "aria-hidden": "true" }));
    const account = g.accounts?.[side];
    row.appendChild(h("span", { class: "who" }, account ? h("span", { class: "sr-only" }, `${SN(side)}: `) : `${SN(side)}: `,
      account ? h("a", { href: `/players/${encodeURIComponent(account)}`, class: "player-name" }, who) : who,
      account && g.bots?.[side] ? botMark() : null,
      account && g.ratings?.[side]
        ? h("span", { class: "player-rating muted", "data-rating-after": String(Math.round(g.ratings[side].after)) },
          ` ${Math.round(g.ratings[side].after)} `,
          h("span", { class: g.ratings[side].after >= g.ratings[side].before ? "rating-delta up" : "rating-delta down" },
            signedDelta(g.ratings[side].after - g.ratings[side].before)))
        : account && s.ratings[side] ? h("span", { class: "player-rating muted" }, ` ${s.ratings[side]}`) : null));
    if (g.clock) row.appendChild(h("span", { class: "clock", id: `clock-${side}`, "data-side": side }));
    // presence (the live socket says it): whether the other player's page is open
    if (s.presence && g[side] === "human" && !mine.includes(side) && !g.over) {
      const on = s.presence[side];
      row.appendChild(h("span", { class: `presence ${on ? "on" : "off"}`, "data-present": on ? "1" : "0" }, on ? t("gs.connected") : t("gs.notConnected")));
    }
    row.appendChild(h("span", { class: "score", "aria-label": t("gs.scoreLabel", { side: sn(side), score }) + (scoreWords ? ` (${scoreWords})` : "") }, String(score)));
    row.title = scoreWords ? t("gs.scoreTitle", { words: scoreWords }) : t("gs.score");
  }

  // Whose turn; who watches; why the game ended.
  e.status.textContent = statusText(g, mine);
  e.watching.textContent = watchingText(g, mine);
  e.watching.hidden = !e.watching.textContent;
  e.end.textContent = endText(g);
  e.end.hidden = !e.end.textContent;
  e.ratingChange.textContent = ratingChangeText(g);
  e.ratingChange.hidden = !e.ratingChange.textContent;
  document.title = pageTitle(g, mine, title(s.meta, g.game));
  e.status.dataset.tomove = g.tomove;
  e.status.classList.toggle("over", g.over);
  document.body.dataset.over = g.over ? "1" : "0";

  // Move list.
  renderMoves(s);

  // Buttons.
  const canAct = !g.over && g.tomove !== "none" && mine.includes(g.tomove as Side);
  const vsComputer = g.white !== "human" || g.black !== "human";
  (e.hint as HTMLButtonElement).disabled = !canAct;
  // Fair play: no engine help between two people on separate screens (the server refuses it too).
  (e.hint as HTMLButtonElement).hidden = g.help === false || g.over;
  (e.undo as HTMLButtonElement).hidden = !vsComputer || mine.length === 0 || g.undo === false;
  e.deal.hidden = !g.dealChosen || g.over;
  (e.undo as HTMLButtonElement).disabled = g.over || g.ply === 0 || s.pending;
  (e.resign as HTMLButtonElement).hidden = mine.length === 0 || g.over;
  (e.resign as HTMLButtonElement).disabled = g.over;
  if (g.over) e.resign.textContent = t("gs.resign");

  e.analysis.hidden = !g.over || g.ply === 0;
  // Rematch: here against the computer or on a shared screen; between two
  // screens through the server's rematch request, where it offers one
  const plan = rematchPlan(g, mine);
  const linkRematch = g.over && mine.length === 1 && g[other(mine[0])] === "human";
  e.rematch.hidden = !plan && !linkRematch;
  e.rematch.textContent = linkRematch && typeof g.rematch === "string" ? t("gs.joinRematch") :
    plan && plan.me ? t("gs.rematchYouPlay", { side: sn(plan.me) }) : t("gs.rematch");
  if (accountGame(g)) {
    // between accounts: the server's rematch, colours swapped (the other
    // player's page offers to join it once it is made)
    // between two people's accounts it is an offer (the offers panel) until made
    e.rematch.hidden = !g.over || !g.seat || g.end === "abort" ||
      (typeof g.rematch !== "string" && !!rematchView(g, g.seat, false));
    e.rematch.textContent = typeof g.rematch === "string" ? t("gs.joinRematch") : t("gs.rematch");
    (e.newGame as HTMLAnchorElement).href = "/lobby";
    e.newGame.textContent = t("gs.lobby");
  }
  e.abort.hidden = !canAbort(g, mine);
  renderReport(s, g);
  renderOffers(s, g, mine);
  renderNotifySwitch(s, g, mine);
  renderClockBar(s);
  // The side panel as the board: this screen's side below, the other above.
  {
    const low = orientation(s) === "black" ? e.blackRow : e.whiteRow;
    const high = low === e.whiteRow ? e.blackRow : e.whiteRow;
    if (e.status.previousElementSibling !== high) e.status.before(high);
    if (e.links.previousElementSibling !== low) e.links.before(low);
  }
  renderLinks(s);
  showClocks(s);
  // The board is drawn again only when what it shows changed: a presence
  // message, a clock or the refresh after the socket connects leave it (and
  // a finger pressing a piece to have it named) alone.
  const key = boardKey(s);
  if (key !== s.drawnKey) drawBoard(s);
}

function boardKey(s: Screen): string {
  const g = s.game as Game;
  const past = s.viewPly !== null && s.pastView;
  const view = past ? s.pastView : g.view;
  return JSON.stringify([g.id, g.ply, g.over, g.tomove, g.seat, s.viewPly, s.pending, s.flipped, mySides(s),
    orientation(s), view, (g.legal ?? []).length, s.els.scroller.clientWidth]);
}

// Account games: each player's rating in this game, from their profiles.
function loadRatings(s: Screen, g: Game): void {
  for (const side of ["white", "black"] as Side[]) {
    const name = g.accounts?.[side];
    if (!name) continue;
    api.player(name).then((p) => {
      s.ratings[side] = ratingText(p.ratings[g.game]);
      if (s.game) render(s);
    }).catch(() => { /* no rating shown */ });
  }
}

// The phone's clock bar: the side at the top of the board first.
function renderClockBar(s: Screen): void {
  const g = s.game as Game;
  const bar = s.els.clockBar;
  bar.hidden = !g.clock;
  if (!g.clock) return;
  const bottom = orientation(s);
  bar.textContent = "";
  for (const side of [other(bottom), bottom]) {
    bar.appendChild(h("span", { class: "bar-side" },
      h("span", { class: `dot ${side}` }),
      h("span", { class: "bar-name" }, g.accounts?.[side] ?? SN(side)),
      h("span", { class: "clock", "data-side": side })));
  }
}

// The clocks: a real-time one counts the side to move down from the
// server's figure at the answer's arrival (warning colour under 10 % or
// 20 s); days a move show the time left to the deadline.
function showClocks(s: Screen): void {
  const g = s.game;
  if (!g || !g.clock) return;
  const c = g.clock;
  for (const side of ["white", "black"] as Side[]) {
    const running = !g.over && g.tomove === side;
    let text = "", low = false;
    if (isLive(c)) {
      const ms = clockNow(c, g.tomove, g.over, performance.now() - s.clockAt)[side];
      text = formatClock(ms);
      low = clockLow(ms, c.initial);
      // the flag fell here: the server judges it by itself and tells the
      // live socket; ask once more a little later, should that be missed
      if (running && ms === 0 && s.flagAsked !== g.ply) {
        s.flagAsked = g.ply;
        window.setTimeout(() => { if (s.game && !s.game.over) refresh(s); }, 1500);
      }
    } else if (isDays(c)) {
      text = running && c.deadline ? deadlineText(c.deadline, Date.now()) : t("clock.perMove", { d: c.days });
      low = running && !!c.deadline && c.deadline - Date.now() < 3600000;
    }
    // the side panel's clock and the phone's clock bar
    for (const el of document.querySelectorAll<HTMLElement>(`.clock[data-side="${side}"]`)) {
      // the phone's bar is narrow: days a move, only the deadline of the side to move
      const shown = isDays(c) && !running && el.closest("#clock-bar") ? "" : text;
      if (el.textContent !== shown) el.textContent = shown;
      el.classList.toggle("running", running);
      el.classList.toggle("low", low);
      el.classList.toggle("days", isDays(c));
    }
  }
}

function renderMoves(s: Screen): void {
  const g = s.game as Game;
  const ol = s.els.moves;
  const shown = s.viewPly ?? g.ply;
  ol.textContent = "";
  // Numbered as shown: a move that is not shown (Toscana's hidden accepts)
  // takes no number, so the list counts 1, 2, 3 ... without gaps.
  let shownN = 0;
  const item = (ply: number, label: string) => {
    const n = ply === 0 ? 0 : ++shownN;
    // a line break may come after each comma of a long move (Cathedral's squares)
    const parts: (string | Node)[] = [];
    label.split(",").forEach((p, i) => { if (i) parts.push(",", h("wbr")); parts.push(p); });
    const b = h("button", { type: "button", "data-step": ply, class: "move", title: label, "aria-label": ply === 0 ? t("gs.startPosition") : t("gs.moveN", { ply: n, label }) }, ...parts);
    if (ply === shown) {
      b.setAttribute("aria-current", "step");
      b.classList.add("current");
    }
    b.addEventListener("click", () => showPly(s, ply));
    const li = h("li", { value: n }, b);
    ol.appendChild(li);
    return b;
  };
  item(0, t("gs.moveStart"));
  const by = movers(g.game, g.options, g.moves);
  g.moves.forEach((_, i) => {
    const label = moveLabel(g, i, by);
    if (label !== null) item(i + 1, label).classList.toggle("veto", g.moves[i] === "veto");
  });
  // The current move shown inside the list only: scrolling it into view
  // would scroll the page too (on a phone the list is below the board, and
  // the game would open scrolled down past its clocks).
  const cur = ol.querySelector(".current") as HTMLElement | null;
  if (cur) {
    const top = cur.offsetTop - ol.offsetTop, bottom = top + cur.offsetHeight;
    if (top < ol.scrollTop) ol.scrollTop = top;
    else if (bottom > ol.scrollTop + ol.clientHeight) ol.scrollTop = bottom - ol.clientHeight;
  }
  const past = s.viewPly !== null;
  s.els.history.hidden = !past;
  s.els.history.textContent = historyText(s.viewPly, g.ply);
}

// A player's Report button for the opponent (an account game; moderation.ts).
function renderReport(s: Screen, g: Game): void {
  const slot = s.els.report;
  const opp = accountGame(g) && g.seat && g.accounts ? g.accounts[other(g.seat)] : null;
  const name = opp && !/^Computer-\d+$/.test(opp) ? opp : "";
  if (slot.dataset.name === name) return;
  slot.dataset.name = name;
  slot.textContent = "";
  slot.hidden = !name;
  if (name) slot.appendChild(reportButton(name, g.id));
}

function renderLinks(s: Screen): void {
  if (!s.src.shared) {
    s.els.links.hidden = true;
    return;
  }
  const g = s.game as Game;
  const saved = store.find(s.id);
  const box = s.els.links;
  const invite = saved?.invite && s.tokens[other(saved.invite.side)] ? saved.invite : null;
  if (box.dataset.built === (invite ? "invite" : "watch")) return;
  box.dataset.built = invite ? "invite" : "watch";
  box.textContent = "";
  const base = `${location.origin}/games/${encodeURIComponent(s.id)}`;
  const row = (label: string, url: string, id: string) => {
    const input = h("input", { type: "text", readonly: true, value: url, id, "aria-label": label });
    const btn = h("button", { type: "button", class: "copy", "data-copy": id }, t("gs.copy"));
    btn.addEventListener("click", async () => {
      const ok = await copyText(url, input);
      btn.textContent = ok ? t("gs.copied") : t("gs.selectCopy");
      window.setTimeout(() => { btn.textContent = t("gs.copy"); }, 2000);
    });
    return h("div", { class: "link-row" }, h("label", { for: id }, label), h("div", { class: "row" }, input, btn));
  };
  if (invite) {
    box.appendChild(row(t("gs.friendLink", { side: sn(invite.side) }), `${base}?seat=${encodeURIComponent(invite.token)}`, "friend-link"));
  }
  box.appendChild(row(t("gs.watchLink"), base, "watch-link"));
  box.hidden = !invite && g.over;
}

function orientation(s: Screen): Side {
  return orientationOf(mySides(s), s.flipped);
}

function drawBoard(s: Screen): void {
  const g = s.game;
  if (!g || !s.module || !s.ctx) return;
  s.drawnKey = boardKey(s);
  s.ctx.orientation = orientation(s);
  s.ctx.room = s.els.scroller.clientWidth > 0 && window.matchMedia("(max-width: 820px)").matches
    ? s.els.scroller.clientWidth / SCROLL_SQUARE : undefined;
  s.ctx.seats = mySides(s);
  const past = s.viewPly !== null && s.pastView;
  const view = past ? (s.pastView as View) : g.view;
  const canAct = !past && !s.pending && !g.over && g.seat !== null && g.tomove === g.seat;
  s.svg.dataset.ply = String(past ? s.viewPly : g.ply);
  s.svg.dataset.live = past ? "0" : "1";
  s.svg.setAttribute("aria-label", t("gs.boardLabel", { game: title(s.meta, g.game) }) + (past ? t("gs.boardAfter", { ply: s.viewPly ?? 0 }) : ""));
  try {
    s.module.draw(s.ctx, view, canAct ? legalMoves(g) : [], canAct ? g.seat : null);
  } catch (e) {
    console.warn("board drawing failed", e);
    s.els.message.textContent = t("gs.drawFailed");
  }
}

// ---- History ------------------------------------------------------------------

async function showPly(s: Screen, ply: number): Promise<void> {
  const g = s.game;
  if (!g) return;
  ply = Math.max(0, Math.min(ply, g.ply));
  const req = ++s.viewReq;
  s.wantPly = ply === g.ply ? null : ply;
  if (ply === g.ply) {
    s.viewPly = null;
    s.pastView = null;
    s.module?.reset();
    render(s);
    return;
  }
  try {
    const r = await s.src.view(ply);
    if (req !== s.viewReq) return;
    s.viewPly = ply;
    s.pastView = r.view;
    s.module?.reset();
    render(s);
  } catch (e) {
    if (req === s.viewReq) s.els.message.textContent = t("gs.positionFailed", { error: (e as Error).message });
  }
}

function step(where: "first" | "prev" | "next" | "last", s: Screen): void {
  const g = s.game;
  if (!g) return;
  const cur = s.wantPly ?? s.viewPly ?? g.ply;
  const target = stepTarget(where, cur, g.ply);
  if (target !== null) showPly(s, target);
}

function onKey(ev: KeyboardEvent, s: Screen): void {
  if (ev.defaultPrevented || ev.altKey || ev.ctrlKey || ev.metaKey) return;
  const target = ev.target as Element | null;
  if (target && s.svg.contains(target)) {
    if (s.module?.key && s.ctx && s.module.key(s.ctx, ev)) ev.preventDefault();
    return;
  }
  if (target && (target.closest("input, textarea, select, dialog") || (target as HTMLElement).isContentEditable)) return;
  const map: Record<string, "first" | "prev" | "next" | "last"> = { ArrowLeft: "prev", ArrowRight: "next", Home: "first", End: "last", ArrowUp: "first", ArrowDown: "last" };
  const w = map[ev.key];
  if (w) {
    ev.preventDefault();
    step(w, s);
  } else if (ev.key === "Escape") {
    s.module?.reset();
    drawBoard(s);
  }
}

// ---- Actions --------------------------------------------------------------------

function tokenToAct(s: Screen): string | null {
  const g = s.game;
  if (!g || (g.tomove !== "white" && g.tomove !== "black")) return null;
  return s.tokens[g.tomove] ?? null;
}

async function submit(s: Screen, move: string): Promise<void> {
  const g = s.game;
  if (!g || s.pending || s.viewPly !== null) return;
  const token = g.seat ? s.tokens[g.seat] ?? null : null;
  // between accounts the session cookie is the seat: no token is sent
  if ((!token && !(accountGame(g) && g.seat)) || g.tomove !== g.seat) return;
  s.pending = true;
  s.els.message.textContent = "";
  const ply = g.ply;
  const asked = s.heard;
  try {
    const ng = await s.src.move(token, move, ply);
    s.pending = false;
    answered(s, ng, asked, false);
  } catch (e) {
    s.pending = false;
    const r = await s.src.refusal(e, ply, g);
    if (r.stale && r.fresh) {
      s.els.message.dataset.keep = "1";
      s.els.message.textContent = STALE();
      answered(s, r.fresh, asked, true);
    } else {
      s.els.message.textContent = r.text;
      if (r.fresh) answered(s, r.fresh, asked, true);
      else render(s);
    }
  }
}

async function doHint(s: Screen): Promise<void> {
  const token = tokenToAct(s);
  if (!token) return;
  const btn = s.els.hint as HTMLButtonElement;
  btn.disabled = true;
  s.els.message.textContent = t("gs.thinkingHint");
  try {
    const move = await s.src.hint(token);
    s.els.message.textContent = t("gs.hintIs", { move });
    if (s.viewPly === null && s.module?.hint && s.ctx) s.module.hint(s.ctx, move);
  } catch (e) {
    if (e instanceof Cancelled) s.els.message.textContent = "";
    else s.els.message.textContent = t("gs.noHint", { error: (e as Error).message });
  } finally {
    btn.disabled = false;
  }
}

async function doUndo(s: Screen): Promise<void> {
  const g = s.game;
  if (!g) return;
  const token = (g.seat && s.tokens[g.seat]) || s.tokens.white || s.tokens.black;
  if (!token) return;
  const asked = s.heard;
  try {
    const ng = await s.src.undo(token, g.ply);
    s.viewPly = null;
    s.wantPly = null;
    s.pastView = null;
    answered(s, ng, asked, true);
    s.els.message.textContent = t("gs.takenBack");
  } catch (e) {
    s.els.message.textContent = t("gs.nothingBack", { error: (e as Error).message });
  }
}

async function doResign(s: Screen): Promise<void> {
  const g = s.game;
  if (!g || g.over) return;
  const btn = s.els.resign as HTMLButtonElement;
  const now = Date.now();
  if (now - s.resignArmed > 4000) {
    s.resignArmed = now;
    btn.textContent = t("gs.reallyResign");
    window.setTimeout(() => {
      if (Date.now() - s.resignArmed >= 4000) btn.textContent = t("gs.resign");
    }, 4100);
    return;
  }
  s.resignArmed = 0;
  btn.textContent = t("gs.resign");
  // On a shared screen the side to move resigns.
  const side = mySides(s).length === 2 && (g.tomove === "white" || g.tomove === "black") ? g.tomove : g.seat;
  const token = side ? s.tokens[side] ?? null : null;
  if (!token && !(accountGame(g) && g.seat)) return;
  const asked = s.heard;
  try {
    const ng = await s.src.resign(token);
    answered(s, ng, asked, true);
  } catch (e) {
    s.els.message.textContent = t("gs.resignFailed", { error: (e as Error).message });
  }
}

// A browser notification when the opponent (a person on another screen) has
// moved and this tab is not in front, if the player allowed notifications.
function notifyTurn(s: Screen, old: Game | null, g: Game): void {
  const mine = mySides(s);
  if (!old || mine.length !== 1 || g.tomove !== mine[0] || old.tomove === mine[0] || g.over) return;
  if (typeof Notification === "undefined" || Notification.permission !== "granted" || !document.hidden) return;
  try {
    new Notification(t("gs.notifyTitle"), { body: t("gs.notifyBody", { game: title(s.meta, g.game), move: g.moves[g.moves.length - 1] ?? "" }), tag: s.id });
  } catch {
    /* some browsers allow notifications from service workers only */
  }
}

// The switch that asks for notifications, shown where they would help: a
// game against a person on another screen, permission not yet asked.
function renderNotifySwitch(s: Screen, g: Game, mine: Side[]): void {
  const b = s.els.notify as HTMLButtonElement;
  b.hidden = typeof Notification === "undefined" || Notification.permission !== "default" || mine.length !== 1 ||
    g.over || g.white !== "human" || g.black !== "human";
}

// The time left before this player may claim the game (the opponent left),
// counted down from the answer; null when there is nothing to claim.
function claimLeft(s: Screen, g: Game): number | null {
  if (g.claimIn === null || g.claimIn === undefined) return null;
  return Math.max(0, g.claimIn - (performance.now() - s.clockAt));
}

// Offers between two people on separate screens: a draw, a take-back; the
// rematch of a finished game between accounts; the claim when the opponent left.
function renderOffers(s: Screen, g: Game, mine: Side[]): void {
  const box = s.els.offers;
  const me = mine.length === 1 ? mine[0] : null;
  const views = [offerView(g, me, false), rematchView(g, me, s.rematchSpent), claimView(g, me, claimLeft(s, g))].filter((v) => v !== null);
  box.textContent = "";
  box.hidden = views.length === 0;
  for (const v of views) {
    const claim = v.buttons.some((b) => b.kind === "claim");
    if (v.text) box.appendChild(h("p", { class: claim ? "offer-text claim-text" : "offer-text", id: claim ? "claim-text" : v.buttons.some((b) => b.kind === "rematch") ? "rematch-text" : "offer-text" }, v.text));
    for (const b of v.buttons) {
      const btn = h("button", { type: "button", class: b.act === "accept" || b.act === "win" ? "primary" : "", "data-kind": b.kind, "data-act": b.act }, b.label) as HTMLButtonElement;
      btn.disabled = !!b.disabled;
      btn.addEventListener("click", async () => {
        btn.disabled = true;
        try {
          if (b.kind === "rematch" && b.act !== "decline") {
            await doRematch(s);
            return;
          }
          const asked = s.heard;
          if (b.kind === "claim") {
            answered(s, await s.src.claim(b.act === "win" ? "win" : "draw"), asked, true);
            return;
          }
          const seat = g.seat ? s.tokens[g.seat] ?? s.src.token : s.src.token;
          const kind = b.kind as "draw" | "takeback" | "rematch";
          // withdrawing one's own offer: not "declined" by the other
          s.withdrew = b.act === "decline" && g.offers?.[kind] === g.seat;
          answered(s, await s.src.offer(accountGame(g) ? null : seat, kind, b.act as "offer" | "accept" | "decline"), asked, true);
        } catch (e) {
          s.els.message.textContent = t("gs.sendFailedShort", { error: (e as Error).message });
          btn.disabled = false;
        }
      });
      box.appendChild(btn);
    }
  }
  s.claimShown = claimLeft(s, g);
}

// The claim's countdown (every tick of the clocks): its words, and the
// buttons once it reaches 0.
function showClaim(s: Screen): void {
  const g = s.game;
  if (!g || s.claimShown === null) return;
  const left = claimLeft(s, g);
  const mine = mySides(s);
  if (left === 0 && s.claimShown !== 0) {
    renderOffers(s, g, mine);
    return;
  }
  const v = claimView(g, mine.length === 1 ? mine[0] : null, left);
  const el = document.getElementById("claim-text");
  if (v && el && el.textContent !== v.text) el.textContent = v.text;
}

// End a game between accounts before both sides have moved.
async function doAbort(s: Screen): Promise<void> {
  const g = s.game;
  if (!g || !canAbort(g, mySides(s))) return;
  (s.els.abort as HTMLButtonElement).disabled = true;
  const asked = s.heard;
  try {
    answered(s, await s.src.abort(), asked, true);
  } catch (e) {
    s.els.message.textContent = t("gs.abortFailed", { error: (e as Error).message });
  } finally {
    (s.els.abort as HTMLButtonElement).disabled = false;
  }
}

function showRules(s: Screen): void {
  const g = s.game;
  if (!g) return;
  const d = s.els.rulesDialog as HTMLDialogElement;
  d.textContent = "";
  const close = h("button", { type: "button", class: "close", "aria-label": t("gs.closeRules") }, t("gs.close"));
  close.addEventListener("click", () => d.close());
  const body = h("div", { class: "rules-body" }, ...rulesElements(gameMeta(s.meta, g.game), "h3"));
  if (s.module) body.appendChild(h("p", { class: "board-help" }, h("strong", {}, t("gs.onThisPage")), s.module.help));
  d.appendChild(h("h2", {}, t("rules.heading", { game: title(s.meta, g.game) })));
  d.appendChild(body);
  d.appendChild(h("p", {}, h("a", { href: `/rules/${g.game}`, class: "full-rules" }, t("gs.fullRules"))));
  d.appendChild(close);
  d.showModal();
  close.focus({ preventScroll: true });
  d.scrollTop = 0;
}

// A new game like this one: colours swapped against the computer, the same
// options, or the rematch the server keeps between two screens.
async function doRematch(s: Screen): Promise<void> {
  const g = s.game;
  if (!g || !g.over) return;
  const btn = s.els.rematch as HTMLButtonElement;
  btn.disabled = true;
  const asked = s.heard;
  try {
    const ng = await s.src.rematch({ game: g, mine: mySides(s), tokens: s.tokens, meta: s.meta });
    if (ng) {
      answered(s, ng, asked, true);   // offered: the other player accepts or not
      btn.disabled = false;
    }
  } catch (e) {
    s.els.message.textContent = t("gs.noRematch", { error: (e as Error).message });
    btn.disabled = false;
  }
}

// ---- Analysis (after the game) ------------------------------------------------------

async function doAnalysis(s: Screen): Promise<void> {
  const out = s.els.analysisOut;
  const btn = s.els.analysisBtn as HTMLButtonElement;
  btn.disabled = true;
  out.textContent = t("gs.engineLooking");
  const bar = s.els.analysisBar as HTMLProgressElement;
  const steps = s.src.analysisSteps();
  if (steps !== null) {   // run here: its progress shown
    bar.hidden = false;
    bar.max = Math.max(1, steps);
    bar.value = 0;
  }
  try {
    const a = await s.src.analyse((done, total) => {
      bar.max = total;
      bar.value = done;
      out.textContent = t("gs.engineProgress", { done, total });
    });
    bar.hidden = true;
    if (!a.done) {
      out.textContent = t("gs.analysisLong");
      btn.disabled = false;
      return;
    }
    drawAnalysis(s, a);
    btn.hidden = true;
  } catch (e) {
    bar.hidden = true;
    out.textContent = e instanceof Cancelled ? "" : t("gs.noAnalysis", { error: (e as Error).message });
    btn.disabled = false;
  }
}

// The analysis: a graph of the expected score of one side (the seat this
// screen holds, else white) over the game, and the list of mistakes, each
// saying whose it was.  The line joins the positions where that side is to
// move (after each of the other side's moves): a short search judges the side
// to move a little too kindly, and a line through every ply zig-zags by that
// much at every move.  Every move has its point (marked moves larger, in the
// colour of their mark); a point, or a click on the graph, shows its position.
function drawAnalysis(s: Screen, a: api.Analysis): void {
  const out = s.els.analysisOut;
  const g = s.game as Game;
  out.textContent = "";
  const n = a.plies.length;
  if (!n) {
    out.textContent = t("gs.noMovesAnalyse");
    return;
  }
  const mine = mySides(s);
  const me: Side = mine.length === 1 ? mine[0] : "white";
  const by = movers(g.game, g.options, g.moves);
  const NS = "http://www.w3.org/2000/svg";
  // one unit of the drawing is about one pixel: its text stays readable on a phone
  const W = Math.max(320, Math.min(1000, Math.round(out.getBoundingClientRect().width || 720)));
  const H = 250, X0 = 58, Y0 = 14, GW = W - X0 - 14, GH = H - Y0 - 40;
  const svg = document.createElementNS(NS, "svg");
  svg.setAttribute("viewBox", `0 0 ${W} ${H}`);
  svg.setAttribute("class", "analysis-graph");
  svg.setAttribute("role", "group");
  svg.setAttribute("data-side", me);
  svg.setAttribute("aria-label", mine.length === 1 ? t("an.yourScore") : t("an.sideScore", { side: SN(me) }));
  const mk = (tag: string, attrs: Record<string, string | number>, parent: Element = svg) => {
    const e = document.createElementNS(NS, tag);
    for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
    parent.appendChild(e);
    return e;
  };
  const label = (x: number, y: number, txt: string, cls: string, anchor = "middle") => {
    const e = mk("text", { x, y, class: cls, "text-anchor": anchor, "dominant-baseline": "central" });
    e.textContent = txt;
    return e;
  };
  const mine01 = (v: number) => (me === "white" ? v : 1 - v);
  const x = (ply: number) => X0 + (n === 1 ? GW / 2 : ((ply - 1) * GW) / (n - 1));
  const y = (v: number) => Y0 + (1 - Math.max(0, Math.min(1, v))) * GH;
  mk("rect", { x: X0, y: Y0, width: GW, height: GH, class: "an-bg" });
  for (const v of [0, 0.25, 0.5, 0.75, 1]) {
    mk("line", { x1: X0, x2: X0 + GW, y1: y(v), y2: y(v), class: v === 0.5 ? "an-mid" : "an-grid" });
    label(X0 - 6, y(v), `${Math.round(v * 100)}%`, "an-axis", "end");
  }
  label(X0 + 4, Y0 + 10, mine.length === 1 ? t("an.youWin") : t("an.sideWins", { side: sn(me) }), "an-axis an-corner", "start");
  label(X0 + 4, Y0 + GH - 10, mine.length === 1 ? t("an.youLose") : t("an.sideLoses", { side: sn(me) }), "an-axis an-corner", "start");
  const step = Math.max(1, Math.ceil(n / 10 / 5) * 5);
  for (let p = 1; p <= n; p += p === 1 && step > 1 ? step - 1 : step) label(x(p), Y0 + GH + 14, String(p), "an-axis");
  label(X0 + GW / 2, H - 8, mine.length === 1 ? t("an.axisYou") : t("an.axisSide", { side: sn(me) }), "an-axis an-title");
  // the line through the positions where `me` is to move
  const line = a.plies.map((p, i) => ({ ply: i + 1, v: mine01(p.value) }))
    .filter((q) => by[q.ply - 1] !== me || q.ply === n);
  if (line.length) {
    const pts = line.map((q) => `${x(q.ply).toFixed(1)},${y(q.v).toFixed(1)}`);
    mk("path", { d: `M${x(line[0].ply).toFixed(1)},${Y0 + GH}L${pts.join("L")}L${x(line[line.length - 1].ply).toFixed(1)},${Y0 + GH}Z`, class: "an-area" });
    mk("polyline", { points: pts.join(" "), class: "an-line" });
  }
  a.plies.forEach((p, i) => {
    const ply = i + 1;
    const who = by[i];
    const c = mk("circle", {
      cx: x(ply).toFixed(1), cy: y(mine01(p.value)).toFixed(1), r: p.mark ? 6 : 2.4,
      class: `an-pt${p.mark === "??" ? " blunder" : p.mark === "?" ? " mistake" : ""}${who === me ? " mine" : " theirs"}`,
      "data-step": ply, "data-by": who ?? "", tabindex: p.mark ? 0 : -1, role: "button",
      "aria-label": t(mine.length === 1 ? "an.pointYou" : "an.pointSide", { ply, by: who ? sn(who) : "?", move: p.move,
        mark: p.mark ? ` ${p.mark}` : "", side: SN(me), pct: Math.round(mine01(p.value) * 100) }) +
        (p.mark && p.best ? t("an.preferred", { best: p.best }) : ""),
    });
    const title = document.createElementNS(NS, "title");
    title.textContent = t(mine.length === 1 ? "an.tipYou" : "an.tipSide", { ply, move: p.move, mark: p.mark, by: who ? sn(who) : "?",
      side: SN(me), pct: Math.round(mine01(p.value) * 100) }) + (p.mark && p.best ? t("an.tipBest", { best: p.best }) : "");
    c.appendChild(title);
    c.addEventListener("click", (ev) => { ev.stopPropagation(); showPly(s, ply); });
    c.addEventListener("keydown", (ev) => {
      if ((ev as KeyboardEvent).key === "Enter" || (ev as KeyboardEvent).key === " ") {
        ev.preventDefault();
        showPly(s, ply);
      }
    });
  });
  // a click anywhere on the graph shows the nearest move's position
  svg.addEventListener("click", (ev) => {
    const r = svg.getBoundingClientRect();
    if (!r.width) return;
    const vx = ((ev.clientX - r.left) / r.width) * W;
    const ply = Math.round(((vx - X0) / GW) * (n - 1)) + 1;
    if (ply >= 1 && ply <= n) showPly(s, ply);
  });
  out.appendChild(svg);
  const bad = a.plies.map((p, i) => ({ ...p, ply: i + 1, by: by[i] })).filter((p) => p.mark);
  const count = (side: Side) => bad.filter((p) => p.by === side).length;
  out.appendChild(h("p", { class: "an-summary" }, t("an.summary", { w: count("white"), b: count("black") })));
  if (bad.length) {
    const ul = h("ul", { class: "an-list" });
    for (const p of bad.slice(0, 20)) {
      const b = h("button", { type: "button", class: `link-btn an-item ${p.by === me ? "mine" : "theirs"}`, "data-step": p.ply, "data-by": p.by ?? "" },
        mistakeText(p.ply, p.move, p.mark, p.best, p.by, mine));
      b.addEventListener("click", () => showPly(s, p.ply));
      ul.appendChild(h("li", {}, h("span", { class: `dot ${p.by ?? ""}`, "aria-hidden": "true" }), b));
    }
    out.appendChild(ul);
  } else {
    out.appendChild(h("p", { class: "muted" }, t("an.none")));
  }
}
