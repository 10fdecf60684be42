// chat.ts — chat in a game between accounts, and the block list
// (docs/server-api.md "Chat").  The game screen's panel shows the one room
// the server gives this viewer on the game's socket ({"type": "chat",
// "history": true, "room", "lines"} at open, then {"type": "chat", "room",
// "line"} per line): the players' room to the two players, the spectators'
// room to anyone else signed in; no room (a guest, a game by link, chat off
// in rated games) and the panel stays hidden.  Lines are written with
// textContent only.  "Mute this game's chat" is kept in this browser
// (localStorage); the account page's settings (chat off in rated games, the
// blocked players) and a profile's Block button are here too.

import { h } from "./dom";
import { refusal, t } from "./i18n";
import { reportButton } from "./moderation";

export interface ChatLine { name: string; text: string; time: number }
export interface ChatMessage { type: "chat"; room: "players" | "spectators"; line?: ChatLine; lines?: ChatLine[]; history?: boolean }

const MAX = 140;
const enc = encodeURIComponent;

// A request of the chat API: the answer's JSON, or an Error with the
// server's message and its status.
async function send<T>(method: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(path, {
    method,
    headers: body === undefined ? {} : { "Content-Type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
    cache: "no-store",
  });
  const data = await res.json().catch(() => null);
  if (!res.ok) {
    const e = new Error(refusal(res.status, data, `error ${res.status}`)) as Error & { status: number };
    e.status = res.status;
    throw e;
  }
  return data as T;
}

/** Characters as the server counts them (code points). */
export function chatLength(text: string): number {
  return [...text].length;
}

export function isChatMessage(data: unknown): data is ChatMessage {
  return !!data && typeof data === "object" && (data as { type?: unknown }).type === "chat";
}

const muteKey = (id: string) => `tav-chat-mute-${id}`;

function mutedHere(id: string): boolean {
  try {
    return localStorage.getItem(muteKey(id)) === "1";
  } catch {
    return false;
  }
}

function setMuted(id: string, on: boolean): void {
  try {
    if (on) localStorage.setItem(muteKey(id), "1");
    else localStorage.removeItem(muteKey(id));
  } catch {
    /* private mode: for this page only */
  }
}

export class ChatPanel {
  readonly el: HTMLElement;
  private list: HTMLOListElement;
  private title: HTMLHeadingElement;
  private note: HTMLParagraphElement;
  private input: HTMLInputElement;
  private error: HTMLParagraphElement;
  private mutedNote: HTMLParagraphElement;
  private muteBtn: HTMLButtonElement;
  private body: HTMLElement;
  private lines: ChatLine[] = [];
  private muted: boolean;
  private me: string | null = null;

  constructor(private gameId: string) {
    this.muted = mutedHere(gameId);
    this.title = h("h2", { id: "chat-title" });
    this.note = h("p", { class: "muted chat-note", id: "chat-note" });
    this.list = h("ol", { class: "chat-lines", id: "chat-lines", "aria-live": "polite", "aria-labelledby": "chat-title" });
    this.input = h("input", { type: "text", id: "chat-input", maxlength: MAX, autocomplete: "off", placeholder: t("chat.placeholder"), "aria-label": t("chat.label") });
    const sendBtn = h("button", { type: "submit", id: "chat-send" }, t("chat.send"));
    const form = h("form", { class: "chat-form", id: "chat-form" }, this.input, sendBtn);
    form.addEventListener("submit", (ev) => {
      ev.preventDefault();
      void this.post(this.input.value, true);
    });
    const quick = h("div", { class: "chat-quick", role: "group", "aria-label": t("chat.quick") });
    for (const key of ["chat.q.luck", "chat.q.wellPlayed", "chat.q.thanks", "chat.q.goodGame"] as const) {
      const b = h("button", { type: "button", class: "chat-phrase", "data-phrase": key.slice(7) }, t(key));
      b.addEventListener("click", () => void this.post(t(key), false));
      quick.appendChild(b);
    }
    this.error = h("p", { class: "error chat-error", id: "chat-error", role: "alert" });
    this.body = h("div", { class: "chat-body" }, this.list, quick, form, this.error);
    this.mutedNote = h("p", { class: "muted", id: "chat-muted" }, t("chat.muted"));
    this.muteBtn = h("button", { type: "button", id: "chat-mute", class: "chat-mute" });
    this.muteBtn.addEventListener("click", () => {
      this.muted = !this.muted;
      setMuted(this.gameId, this.muted);
      this.show();
    });
    this.el = h("section", { class: "chat", id: "chat", hidden: true, "aria-labelledby": "chat-title" },
      h("div", { class: "chat-head" }, this.title, this.muteBtn), this.note, this.mutedNote, this.body);
    this.show();
  }

  /** The signed-in viewer: other players' lines get a Report button. */
  setMe(name: string | null): void {
    this.me = name;
    if (!this.el.hidden) this.draw();
  }

  /** A message of the game's socket (history or a line). */
  onMessage(m: ChatMessage): void {
    this.title.textContent = m.room === "players" ? t("chat.players") : t("chat.spectators");
    this.note.textContent = m.room === "players" ? t("chat.playersNote") : t("chat.spectatorsNote");
    this.el.dataset.room = m.room;
    if (m.history) this.lines = [...(m.lines ?? [])];
    else if (m.line) this.lines.push(m.line);
    this.el.hidden = false;
    this.draw();
  }

  private show(): void {
    this.muteBtn.textContent = this.muted ? t("chat.unmute") : t("chat.mute");
    this.muteBtn.setAttribute("aria-pressed", this.muted ? "true" : "false");
    this.body.hidden = this.muted;
    this.mutedNote.hidden = !this.muted;
    this.note.hidden = this.muted;
    this.el.classList.toggle("muted-chat", this.muted);
  }

  private draw(): void {
    this.list.textContent = "";
    if (this.lines.length === 0) {
      this.list.appendChild(h("li", { class: "muted chat-empty" }, t("chat.empty")));
      return;
    }
    for (const l of this.lines.slice(-200)) {
      const li = h("li", { class: "chat-line", title: new Date(l.time).toLocaleTimeString() });
      const who = h("strong", { class: "chat-name" });
      who.textContent = l.name;
      const text = h("span", { class: "chat-text" });
      text.textContent = l.text;   // never as HTML
      li.append(who, ": ", text);
      if (this.me && l.name.toLowerCase() !== this.me.toLowerCase())
        li.append(" ", reportButton(l.name, this.gameId, true));   // moderation.ts
      this.list.appendChild(li);
    }
    this.list.scrollTop = this.list.scrollHeight;
  }

  private async post(text: string, fromInput: boolean): Promise<void> {
    this.error.textContent = "";
    const trimmed = text.trim();
    if (!trimmed) return;
    const n = chatLength(trimmed);
    if (n > MAX) {
      this.error.textContent = t("chat.tooLong", { n });
      return;
    }
    try {
      await send("POST", `/api/games/${enc(this.gameId)}/chat`, { text: trimmed });
      if (fromInput) this.input.value = "";
    } catch (e) {
      const err = e as Error & { status?: number };
      this.error.textContent = err.status === 429 ? t("chat.tooFast") : t("chat.failed", { error: err.message });
    }
  }
}

// ---- The block list and the account's chat setting ----------------------------

export function blocks(): Promise<{ blocks: string[] }> {
  return send("GET", "/api/blocks");
}

export function block(name: string): Promise<{ name: string; blocked: boolean }> {
  return send("POST", "/api/blocks", { name });
}

export function unblock(name: string): Promise<{ name: string; blocked: boolean }> {
  return send("DELETE", `/api/blocks/${enc(name)}`);
}

/** The account page's section: chat off in rated games, the blocked players with Unblock. */
export function chatSettingsSection(): HTMLElement {
  const off = h("input", { type: "checkbox", id: "chat-off-rated" });
  const saved = h("span", { class: "good", role: "status", id: "chat-saved" });
  const list = h("ul", { class: "blocks", id: "blocks" });
  const msg = h("p", { class: "error", role: "alert", id: "blocks-error" });
  void send<{ off_rated: boolean }>("GET", "/api/me/chat").then((s) => { off.checked = s.off_rated; }).catch(() => {});
  off.addEventListener("change", async () => {
    saved.textContent = "";
    try {
      await send("POST", "/api/me/chat", { off_rated: off.checked });
      saved.textContent = t("chat.saved");
    } catch (e) {
      msg.textContent = (e as Error).message;
    }
  });
  const draw = async () => {
    try {
      const b = await blocks();
      list.textContent = "";
      if (b.blocks.length === 0) list.appendChild(h("li", { class: "muted" }, t("chat.noBlocks")));
      for (const name of b.blocks) {
        const btn = h("button", { type: "button", class: "unblock", "data-name": name }, t("chat.unblock"));
        btn.addEventListener("click", async () => {
          btn.disabled = true;
          try { await unblock(name); } catch (e) { msg.textContent = t("chat.blockFailed", { error: (e as Error).message }); }
          void draw();
        });
        list.appendChild(h("li", { "data-name": name }, h("a", { href: `/players/${enc(name)}` }, name), " ", btn));
      }
    } catch (e) {
      msg.textContent = t("chat.blockFailed", { error: (e as Error).message });
    }
  };
  void draw();
  return h("section", { class: "auth-form", id: "chat-settings", "aria-labelledby": "chat-settings-h" },
    h("h2", { id: "chat-settings-h" }, t("chat.settings")),
    h("label", { class: "check" }, off, " ", t("chat.offRated")), saved,
    h("h2", { id: "blocks-h" }, t("chat.blocked")),
    h("p", { class: "muted" }, t("chat.blockedNote")), list, msg);
}

/** A profile's Block / Unblock button (shown to a signed-in viewer of someone else's profile). */
export function blockButton(name: string): HTMLElement {
  const btn = h("button", { type: "button", id: "block", title: t("chat.blockTitle", { name }) });
  const said = h("span", { class: "muted", id: "block-state", role: "status" });
  let blocked = false;
  const show = () => {
    btn.textContent = blocked ? t("chat.unblock") : t("chat.block");
    btn.setAttribute("aria-pressed", blocked ? "true" : "false");
    said.textContent = blocked ? t("chat.isBlocked", { name }) : "";
  };
  const box = h("p", { class: "block-box", hidden: true }, btn, " ", said);
  void blocks().then((b) => {
    blocked = b.blocks.some((x) => x.toLowerCase() === name.toLowerCase());
    box.hidden = false;
    show();
  }).catch(() => { /* not signed in: no button */ });
  btn.addEventListener("click", async () => {
    btn.disabled = true;
    try {
      blocked = (blocked ? await unblock(name) : await block(name)).blocked;
    } catch (e) {
      said.textContent = t("chat.blockFailed", { error: (e as Error).message });
    }
    btn.disabled = false;
    show();
  });
  return box;
}
