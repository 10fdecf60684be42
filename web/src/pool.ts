// pool.ts — quick pairing (docs/server-api.md "Quick pairing"): per game the
// server's standard clocks as buttons, a casual/rated switch, "waiting…"
// with Cancel, and how many wait in each pool (pushed on the player's
// channel, inbox.ts, as {"type": "pool"}).  One click joins; the server
// pairs players by rating and tells both {"type": "started"}.
//
// Where the page goes then: a player who joined the pool is taken to the new
// game at once from any page, except from the page of a game of theirs
// still in progress (there the usual "Play" notice of notices.ts shows
// instead).  Whether one is waiting is kept in localStorage (POOL_KEY), so
// every page of the site knows it: the server keeps the place while any
// page is open (it lapses 10 s after the last one closed).

import * as api from "./api";
import { clockLabel } from "./clock";
import { h } from "./dom";
import { listen, myGames, openInbox } from "./inbox";
import { t } from "./i18n";
import { BOARDS } from "./games/index";
import type { Me, Meta } from "./types";

const POOL_KEY = "tavoliere.pool";
const POOL_KEEP_MS = 6 * 3600 * 1000;   // a mark older than this is forgotten

function markWaiting(on: boolean): void {
  try {
    if (on) localStorage.setItem(POOL_KEY, String(Date.now()));
    else localStorage.removeItem(POOL_KEY);
  } catch {
    /* this page only */
  }
}

function waitingMarked(): boolean {
  try {
    const v = Number(localStorage.getItem(POOL_KEY) ?? "0");
    return v > 0 && Date.now() - v < POOL_KEEP_MS;
  } catch {
    return false;
  }
}

const sameClock = (a: api.PoolClock, b: api.PoolClock): boolean => JSON.stringify(a) === JSON.stringify(b);

let pairedGame = "";

/** Whether game `id` began from the pool (the notice's words: notices.ts). */
export function fromPool(id: string): boolean {
  return pairedGame === id || waitingMarked();
}

/** On every page of a signed-in player: a pairing of the pool opens its game. */
export function startPoolWatch(): void {
  listen((e) => {
    if (e.kind !== "started" || !waitingMarked()) return;
    pairedGame = e.game;
    markWaiting(false);
    const m = /^\/games\/([^/]+)$/.exec(location.pathname);
    const here = m ? decodeURIComponent(m[1]) : null;
    if (here === e.game) return;
    // A game of one's own in progress: the notice (notices.ts) says so instead.
    if (here && myGames().some((g) => g.id === here)) return;
    location.assign(`/games/${encodeURIComponent(e.game)}`);
  });
  // A mark left by an entry gone meanwhile (cancelled elsewhere, lapsed
  // with every page closed): forgotten, so that a seek accepted later
  // shows its notice instead of opening the game.
  if (waitingMarked())
    window.setTimeout(() => {
      if (waitingMarked()) void api.pool().then((p) => { if (!p.mine && waitingMarked()) markWaiting(false); }).catch(() => {});
    }, 3000);
}

/** The quick-pairing box (the lobby; the home page). */
export function poolSection(meta: Meta, me: Me | null): HTMLElement {
  const games = meta.games.filter((g) => g.name in BOARDS);
  const rated = h("input", { type: "checkbox", id: "pool-rated", checked: true });
  const status = h("p", { class: "pool-status", id: "pool-waiting", role: "status", "aria-live": "polite" });
  const error = h("p", { class: "error", role: "alert", id: "pool-error" });
  const grid = h("div", { class: "pool-grid" });
  const sec = h("section", { class: "pool-box", id: "pool", "aria-labelledby": "pool-h" },
    h("h2", { id: "pool-h" }, t("pool.heading")),
    h("p", { class: "muted" }, t("pool.explain")),
    me ? h("label", { class: "pool-switch" }, rated, h("span", {}, t("pool.rated")))
      : h("p", { class: "signin-note" }, h("a", { href: `/signin?next=${encodeURIComponent(location.pathname)}` }, t("pool.signIn"))),
    grid, status, error);
  let state: api.PoolState | null = null;
  let since = 0;
  let timer = 0;
  const buttons: { game: string; clock: api.PoolClock; btn: HTMLButtonElement; count: HTMLElement }[] = [];
  for (const g of games) {
    const row = h("div", { class: "pool-row" }, h("span", { class: "pool-game" }, g.title));
    grid.appendChild(row);
    row.dataset.game = g.name;
  }
  const count = (game: string, clock: api.PoolClock): number =>
    (state?.pools ?? []).filter((p) => p.game === game && sameClock(p.clock, clock) && p.rated === rated.checked)
      .reduce((n, p) => n + p.waiting, 0);
  const gameTitle = (name: string) => games.find((g) => g.name === name)?.title ?? name;

  const draw = () => {
    if (!state) return;
    if (!buttons.length) {
      for (const row of grid.querySelectorAll<HTMLElement>(".pool-row")) {
        const game = row.dataset.game ?? "";
        for (const [i, clock] of state.clocks.entries()) {
          const c = h("span", { class: "pool-count" });
          const btn = h("button", { type: "button", class: "pool-join", "data-pool-game": game, "data-pool-clock": String(i),
            disabled: !me }, h("span", { class: "pool-clock" }, clockLabel(clock)), c);
          btn.addEventListener("click", () => void join(game, clock));
          row.appendChild(btn);
          buttons.push({ game, clock, btn, count: c });
        }
      }
    }
    const mine = state.mine;
    for (const b of buttons) {
      const n = count(b.game, b.clock);
      const isMine = !!mine && mine.game === b.game && sameClock(mine.clock, b.clock) && mine.rated === rated.checked;
      b.count.textContent = n ? t("pool.waitingN", { n }) : "";
      b.btn.classList.toggle("mine", isMine);
      b.btn.setAttribute("aria-pressed", isMine ? "true" : "false");
      b.btn.disabled = !me || !!mine;
    }
    rated.disabled = !!mine;
    status.textContent = "";
    if (mine) {
      if (!since) since = Date.now();
      const secs = Math.floor((Date.now() - since) / 1000);
      const cancel = h("button", { type: "button", id: "pool-cancel" }, t("pool.cancel"));
      cancel.addEventListener("click", () => void leave());
      status.append(h("span", { class: "pool-text" }, h("span", { class: "pool-spinner", "aria-hidden": "true" }),
        h("span", { class: "pool-words" }, t("pool.waiting", { game: gameTitle(mine.game), clock: clockLabel(mine.clock),
          kind: mine.rated ? t("pool.kindRated") : t("pool.kindCasual"), time: `${Math.floor(secs / 60)}:${String(secs % 60).padStart(2, "0")}` }))),
        cancel);
      if (!timer) timer = window.setInterval(() => { if (!sec.isConnected) { clearInterval(timer); timer = 0; return; } tick(); }, 1000);
    } else {
      since = 0;
      if (timer) { clearInterval(timer); timer = 0; }
    }
  };
  const tick = () => {
    const span = status.querySelector(".pool-words");
    if (!span || !state?.mine) return;
    const secs = Math.floor((Date.now() - since) / 1000);
    span.textContent = t("pool.waiting", { game: gameTitle(state.mine.game), clock: clockLabel(state.mine.clock),
      kind: state.mine.rated ? t("pool.kindRated") : t("pool.kindCasual"), time: `${Math.floor(secs / 60)}:${String(secs % 60).padStart(2, "0")}` });
  };
  const refresh = async () => {
    try {
      state = await api.pool();
      draw();
    } catch (e) {
      error.textContent = e instanceof Error ? e.message : String(e);
    }
  };
  const join = async (game: string, clock: api.PoolClock) => {
    error.textContent = "";
    try {
      await api.joinPool(game, clock, rated.checked);
      markWaiting(true);
      since = Date.now();
    } catch (e) {
      error.textContent = e instanceof api.ApiError && e.status === 409 ? t("pool.already") : e instanceof Error ? e.message : String(e);
    }
    await refresh();
  };
  const leave = async () => {
    error.textContent = "";
    try {
      await api.leavePool();
    } catch (e) {
      if (!(e instanceof api.ApiError && e.status === 404)) error.textContent = e instanceof Error ? e.message : String(e);
    }
    markWaiting(false);
    await refresh();
  };
  rated.addEventListener("change", draw);
  void refresh();
  if (me) {
    openInbox();
    let pending = 0;
    listen((e) => {
      if (e.kind !== "pool") return;
      // The counts changed: read them (and one's own entry) again, at most every 300 ms.
      if (pending) return;
      pending = window.setTimeout(() => { pending = 0; if (sec.isConnected) void refresh(); }, 300);
    });
  }
  return sec;
}
