// bots.ts — bots in the page (SPEC "Bots", docs/bots.md): the BOT mark shown
// beside a bot account's name (profiles, games, the leaderboard), a Challenge
// link on a bot's profile (the lobby's form, filled in), the bots online in
// the lobby, and on the account page the API tokens (made and shown once,
// listed, revoked) and "make this account a bot".

import * as api from "./api";
import { ApiError } from "./api";
import { h } from "./dom";
import type { Me } from "./types";
import { dateTime, t } from "./i18n";

/** The BOT mark beside a name. */
export function botMark(): HTMLElement {
  return h("span", { class: "bot-mark", title: t("bot.markTitle") }, t("bot.mark"));
}

/** A bot's profile: its mark, and (for someone else signed in) a challenge. */
export function profileBot(name: string, me: Me | null): HTMLElement {
  const p = h("p", { class: "bot-line", id: "profile-bot" }, botMark(), " ", t("bot.isPlayedBy"));
  if (me && me.name.toLowerCase() !== name.toLowerCase())
    p.append(" ", h("a", { href: `/lobby?to=${encodeURIComponent(name)}`, class: "button", id: "challenge-bot" }, t("bot.challenge")));
  return p;
}

/** The lobby: the bots with an event socket open, each one click from a challenge. */
export function botsOnline(me: Me | null, fillChallenge: (name: string) => void): HTMLElement {
  const list = h("ul", { class: "bots-online", id: "bots-online" });
  const none = h("p", { class: "muted", id: "no-bots" }, t("bot.noneOnline"));
  const sec = h("section", { class: "now bots", "aria-labelledby": "bots-h" }, h("h2", { id: "bots-h" }, t("bot.online")), none, list);
  const refresh = async () => {
    if (!sec.isConnected && list.childNodes.length) return;
    try {
      const bots = await api.botsOnline();
      list.textContent = "";
      none.hidden = bots.length > 0;
      for (const b of bots) {
        const li = h("li", { "data-name": b.name }, h("a", { href: `/players/${encodeURIComponent(b.name)}` }, b.name), " ", botMark());
        if (me && me.name.toLowerCase() !== b.name.toLowerCase()) {
          const btn = h("button", { type: "button", class: "challenge-bot" }, t("bot.challenge"));
          btn.addEventListener("click", () => fillChallenge(b.name));
          li.append(" ", btn);
        }
        list.appendChild(li);
      }
    } catch { /* shown again at the next refresh */ }
    if (sec.isConnected) setTimeout(() => void refresh(), 15000);
  };
  setTimeout(() => void refresh(), 0);
  return sec;
}

/** The account page's section: tokens, and making the account a bot. */
export function botSection(me: Me): HTMLElement {
  const list = h("ul", { class: "tokens", id: "tokens" });
  const none = h("p", { class: "muted", id: "no-tokens" }, t("bot.noTokens"));
  const msg = h("p", { class: "error", role: "alert", id: "tokens-error" });
  const shown = h("div", { class: "new-token", id: "new-token", hidden: true });
  const create = h("button", { type: "button", id: "token-create" }, t("bot.create"));
  const draw = async () => {
    try {
      const ts = await api.tokens();
      list.textContent = "";
      none.hidden = ts.length > 0;
      for (const x of ts) {
        const revoke = h("button", { type: "button", class: "token-revoke" }, t("bot.revoke"));
        revoke.addEventListener("click", async () => {
          revoke.disabled = true;
          try { await api.revokeToken(x.id); } catch (e) { msg.textContent = String((e as Error).message); }
          void draw();
        });
        list.appendChild(h("li", { "data-id": x.id },
          h("code", {}, x.id), " · ", t("bot.made", { when: dateTime(x.created * 1000) }), " · ",
          x.used ? t("bot.usedAt", { when: dateTime(x.used * 1000) }) : t("bot.neverUsed"), " ", revoke));
      }
    } catch (e) {
      msg.textContent = t("bot.tokensFailed", { error: (e as Error).message });
    }
  };
  create.addEventListener("click", async () => {
    create.disabled = true;
    msg.textContent = "";
    try {
      const tok = await api.createToken();
      const input = h("input", { type: "text", readonly: true, id: "new-token-value", value: tok.token, "aria-label": t("bot.newToken") });
      shown.textContent = "";
      shown.append(h("p", {}, t("bot.newToken")), input);
      shown.hidden = false;
      input.select();
    } catch (e) {
      msg.textContent = t("bot.tokenFailed", { error: e instanceof ApiError ? e.message : String(e) });
    } finally {
      create.disabled = false;
    }
    void draw();
  });
  void draw();
  const botPart = h("div", { id: "bot-part" });
  const drawBot = (isBot: boolean) => {
    botPart.textContent = "";
    if (isBot) {
      botPart.append(h("p", { id: "is-bot" }, botMark(), " ", t("bot.isBot")));
      return;
    }
    const make = h("button", { type: "button", id: "make-bot" }, t("bot.make"));
    const err = h("p", { class: "error", role: "alert", id: "make-bot-error" });
    make.addEventListener("click", async () => {
      if (!confirm(t("bot.makeConfirm", { name: me.name }))) return;
      make.disabled = true;
      try {
        await api.makeBot();
        drawBot(true);
      } catch (e) {
        err.textContent = t("bot.makeFailed", { error: e instanceof ApiError && e.status === 409 ? t("bot.afterGame") : (e as Error).message });
        make.disabled = false;
      }
    });
    botPart.append(h("p", { class: "muted" }, t("bot.makeNote")), make, err);
  };
  drawBot(!!me.bot);
  return h("section", { class: "auth-form", "aria-labelledby": "bots-h" },
    h("h2", { id: "bots-h" }, t("bot.section")), botPart,
    h("h3", {}, t("bot.tokens")), h("p", { class: "muted" }, t("bot.tokensNote")),
    none, list, create, shown, msg);
}
