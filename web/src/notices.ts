// notices.ts — what the player's channel (inbox.ts) says, shown on whatever
// page is open: a notice (your turn in a game, a challenge with Accept and
// Decline, a rematch offered, one's seek accepted: Play), a badge on the header's
// account menu (the games where it is one's turn and the challenges
// received) and the same count at the head of the page's title: "(2) ...".

import * as api from "./api";
import { clockLabel } from "./clock";
import { h } from "./dom";
import { listen, myGames, openInbox } from "./inbox";
import { t } from "./i18n";
import { loadMeta, title } from "./meta";
import { fromPool } from "./pool";
import type { GameName, Me, Meta, MyGame, Seek } from "./types";

const MAX_SHOWN = 4;
const DISMISSED = "tavoliere.noticesDismissed";

let meta: Meta | null = null;
const gameName = (g: string) => (meta ? title(meta, g as GameName) : g);
const same = (a: string | null | undefined, b: string) => !!a && a.toLowerCase() === b.toLowerCase();
const onGamePage = (id: string) => location.pathname === `/games/${encodeURIComponent(id)}` || location.pathname === `/games/${id}`;

function dismissed(): Set<string> {
  try {
    return new Set(JSON.parse(sessionStorage.getItem(DISMISSED) ?? "[]") as string[]);
  } catch {
    return new Set();
  }
}

function dismiss(key: string): void {
  const d = dismissed();
  d.add(key);
  try {
    sessionStorage.setItem(DISMISSED, JSON.stringify([...d].slice(-200)));
  } catch {
    /* kept for this page only */
  }
}

function box(): HTMLElement {
  let b = document.getElementById("notices");
  if (!b) {
    b = h("div", { id: "notices", class: "notices", role: "status", "aria-live": "polite" });
    document.body.appendChild(b);
  }
  return b;
}

/** A notice (replacing one with the same key): text, then its buttons. */
function notice(key: string, kind: string, text: string, actions: HTMLElement[]): HTMLElement {
  const b = box();
  b.querySelector(`[data-key="${CSS.escape(key)}"]`)?.remove();
  const close = h("button", { type: "button", class: "notice-close", "aria-label": t("notice.dismiss") }, "×");
  const el = h("div", { class: `notice notice-${kind}`, "data-key": key, "data-kind": kind },
    h("p", { class: "notice-text" }, text), h("div", { class: "notice-actions" }, ...actions), close);
  close.addEventListener("click", () => { dismiss(key); el.remove(); });
  b.prepend(el);
  while (b.children.length > MAX_SHOWN) b.lastElementChild?.remove();
  return el;
}

const drop = (key: string) => document.querySelector(`#notices [data-key="${CSS.escape(key)}"]`)?.remove();

function openLink(href: string, label = t("notice.open")): HTMLElement {
  return h("a", { class: "button notice-open", href }, label);
}

function opponent(g: MyGame, me: Me): string {
  return same(g.white, me.name) ? g.black ?? "" : g.white ?? "";
}

function challengeText(k: Seek): string {
  const parts = [gameName(k.game), clockLabel(k.clock)];
  if (k.rated) parts.push(t("notice.rated"));
  return t("notice.challenge", { name: k.by, what: parts.join(", ") });
}

function challengeNotice(k: Seek): void {
  const key = `challenge:${k.id}`;
  if (dismissed().has(key) || document.querySelector(`#notices [data-key="${CSS.escape(key)}"]`)) return;
  const err = h("span", { class: "notice-error error" });
  const accept = h("button", { type: "button", class: "notice-accept primary", "data-act": "accept" }, t("notice.accept"));
  const decline = h("button", { type: "button", class: "notice-decline", "data-act": "decline" }, t("notice.decline"));
  const reason = reasonSelect();
  accept.addEventListener("click", async () => {
    try {
      const r = await api.acceptSeek(k.id);
      dismiss(key);
      location.assign(`/games/${encodeURIComponent(r.game)}`);
    } catch (e) {
      err.textContent = (e as Error).message;
    }
  });
  decline.addEventListener("click", async () => {
    try {
      await api.declineSeek(k.id, reason.value);
      dismiss(key);
      drop(key);
    } catch (e) {
      err.textContent = (e as Error).message;
    }
  });
  notice(key, "challenge", challengeText(k), [accept, decline, reason, err]);
}

const count = { turns: 0, challenges: 0 };

const REASON_WORDS = {
  generic: "decline.generic", later: "decline.later", tooFast: "decline.tooFast", tooSlow: "decline.tooSlow",
  timeControl: "decline.timeControl", rated: "decline.rated", casual: "decline.casual", variant: "decline.variant",
} as const;

/** The reason given with a Decline (the server's codes, worded here). */
export function reasonSelect(): HTMLSelectElement {
  const sel = h("select", { class: "decline-reason", "aria-label": t("decline.label") }) as HTMLSelectElement;
  for (const r of api.DECLINE_REASONS) sel.appendChild(h("option", { value: r }, t(REASON_WORDS[r])));
  return sel;
}

/** "lea declined your challenge: not now, ask again later." */
export function declinedText(by: string, reason: string): string {
  const w = reason in REASON_WORDS && reason !== "generic" ? t(REASON_WORDS[reason as keyof typeof REASON_WORDS]) : "";
  // lower case after the colon, but "I" stays
  const why = w.length > 1 && w[1] !== " " ? w[0].toLowerCase() + w.slice(1) : w;
  return why ? t("decline.told", { name: by, why }) : t("bot.declined", { name: by });
}

function showCount(): void {
  const n = count.turns + count.challenges;
  const badge = document.getElementById("inbox-badge");
  if (badge) {
    badge.textContent = n ? String(n) : "";
    badge.hidden = n === 0;
    badge.setAttribute("aria-label", t("notice.badge", { turns: count.turns, challenges: count.challenges }));
  }
  const bare = document.title.replace(/^\(\d+\) /, "");
  const want = n ? `(${n}) ${bare}` : bare;
  if (document.title !== want) document.title = want;
}

/** The badge beside the account menu's name (made once the menu is). */
function ensureBadge(): void {
  if (document.getElementById("inbox-badge")) return;
  const summary = document.getElementById("account-name");
  if (!summary) return;
  summary.appendChild(h("span", { id: "inbox-badge", class: "inbox-badge", hidden: true }));
}

export function startNotices(me: Me): void {
  // The games' names come from the meta: every message waits for it (or
  // for its failure: names as sent), in the order the messages came, so
  // that no notice says "urbino" for Urbino on a slow page.
  const named = loadMeta().then((m) => { meta = m; }).catch(() => { /* names as sent */ });
  openInbox();
  ensureBadge();
  // Pages set the title as they go: the count stays in front of it.
  const titleEl = document.querySelector("title");
  if (titleEl) {
    new MutationObserver(() => {
      const n = count.turns + count.challenges;
      if (document.title !== (n ? `(${n}) ${document.title.replace(/^\(\d+\) /, "")}` : document.title.replace(/^\(\d+\) /, ""))) showCount();
    }).observe(titleEl, { childList: true, characterData: true, subtree: true });
  }
  const seenChallenges = new Set<string>();
  listen((e) => void named.then(() => {
    ensureBadge();
    if (e.kind === "seeks") {
      const mine = e.seeks.filter((k) => same(k.to, me.name) && !same(k.by, me.name));
      count.challenges = mine.length;
      const open = new Set(mine.map((k) => k.id));
      for (const id of seenChallenges) if (!open.has(id)) drop(`challenge:${id}`);
      for (const k of mine) {
        if (!seenChallenges.has(k.id)) challengeNotice(k);
        seenChallenges.add(k.id);
      }
      showCount();
    } else if (e.kind === "mygame") {
      const g = e.game;
      // A game of one's own that has just begun (a tournament's pairing, a
      // seek accepted, a challenge): one notice, whoever moves first.
      if (!e.before && g.ply === 0 && !onGamePage(g.id) && !/^\/lobby\/?$/.test(location.pathname)) {
        notice(`started:${g.id}`, "started", t("notice.begins", { name: opponent(g, me), game: gameName(g.game) }),
          [openLink(`/games/${encodeURIComponent(g.id)}`, t("notice.play"))]);
      } else if (g.yourTurn && (!e.before || !e.before.yourTurn) && !onGamePage(g.id)) {
        notice(`turn:${g.id}`, "turn", t("notice.yourTurn", { name: opponent(g, me), game: gameName(g.game) }),
          [openLink(`/games/${encodeURIComponent(g.id)}`, t("notice.play"))]);
      } else if (!g.yourTurn) {
        drop(`turn:${g.id}`);
      }
    } else if (e.kind === "gone") {
      drop(`turn:${e.id}`);
    } else if (e.kind === "rematch") {
      const key = `rematch:${e.offer.game}`;
      if (!onGamePage(e.offer.game) && !dismissed().has(key))
        notice(key, "rematch", t("notice.rematch", { name: e.offer.by, game: gameName(e.offer.name) }),
          [openLink(`/games/${encodeURIComponent(e.offer.game)}`)]);
    } else if (e.kind === "declined") {
      if (!/^\/lobby\/?$/.test(location.pathname))
        notice(`declined:${e.by}:${Date.now()}`, "declined", declinedText(e.by, e.reason), []);
    } else if (e.kind === "started") {
      // The lobby goes to the game itself; elsewhere a notice leads there.
      if (/^\/lobby\/?$/.test(location.pathname) || onGamePage(e.game)) return;
      notice(`started:${e.game}`, "started", fromPool(e.game) ? t("pool.started") : t("notice.started"), [openLink(`/games/${encodeURIComponent(e.game)}`, t("notice.play"))]);
    }
    // The count of one's turns follows every change of the list.
    if (e.kind === "mine" || e.kind === "mygame" || e.kind === "gone") {
      count.turns = myGames().filter((g) => g.yourTurn).length;
      showCount();
    }
  }));
}
