// lobby.ts — the lobby at /lobby: the open seeks, live (the lobby socket
// /api/lobby sends the whole list at once and after every change), a form to
// make a seek (game, options from /api/meta's menus, rated, colour, a clock
// preset), accept with one click, withdraw one's own.  The seeker's page is
// told {"type": "started", "game": ID} when someone accepts and goes to the
// game.  A seek lives while its owner has a lobby socket open: this page.
// Signed-out visitors see the seeks and are asked to sign in to play.
// Above the seeks, quick pairing (pool.ts): one click per game and clock.

import * as api from "./api";
import { botsOnline } from "./bots";
import { ApiError } from "./api";
import { currentUser } from "./account";
import { takerColour } from "./accounttext";
import { CLOCK_PRESETS, clockKind, clockLabel } from "./clock";
import { h } from "./dom";
import { LiveSocket } from "./live";
import { listen, openInbox } from "./inbox";
import { declinedText, reasonSelect } from "./notices";
import { BOARDS } from "./games/index";
import { gameMeta, levelName, loadMeta, optionSets, optionsText, title } from "./meta";
import type { GameName, Me, Meta, Seek } from "./types";
import { t, tn } from "./i18n";
import { poolSection } from "./pool";

const sl = (s: string): string => (s === "white" ? t("sidel.white") : s === "black" ? t("sidel.black") : t("random"));

/** The lobby socket (/api/lobby): the seeks lists and "started". */
function lobbySocket(onSeeks: (s: Seek[]) => void, onStarted: (game: string) => void, onState: (up: boolean) => void,
  onDeclined: (by: string) => void, onNow: (pl: api.Playing[], on: api.Online) => void): LiveSocket {
  return new LiveSocket("/api/lobby", (data) => {
    if (Array.isArray(data)) onSeeks(data as Seek[]);
    else if (data && typeof data === "object" && (data as { type?: string }).type === "now") {
      const n = data as { playing?: unknown; online?: unknown };
      if (Array.isArray(n.playing) && n.online && typeof n.online === "object") onNow(n.playing as api.Playing[], n.online as api.Online);
    }
    else if (data && typeof data === "object" && (data as { type?: string }).type === "started") {
      const g = (data as { game?: unknown }).game;
      if (typeof g === "string") onStarted(g);
    } else if (data && typeof data === "object" && (data as { type?: string }).type === "declined") {
      const by = (data as { by?: unknown }).by;
      if (typeof by === "string") onDeclined(by);
    }
  }, onState);
}

const goGame = (id: string) => location.assign(`/games/${encodeURIComponent(id)}`);

export function showLobby(app: HTMLElement): void {
  document.title = t("lobby.title");
  app.className = "lobby";
  app.textContent = "";
  const status = h("p", { class: "muted", role: "status" }, t("lobby.loading"));
  app.appendChild(status);
  Promise.all([loadMeta().catch(() => null), currentUser()]).then(([meta, me]) => {
    status.remove();
    build(app, meta, me);
  });
}

function build(app: HTMLElement, meta: Meta | null, me: Me | null): void {
  const list = h("ul", { class: "seek-list", id: "seeks", "aria-live": "polite" });
  const empty = h("p", { class: "muted", id: "no-seeks" }, t("lobby.noSeeks") + (me ? t("lobby.makeOne") : ""));
  const conn = h("p", { class: "conn muted", id: "lobby-conn" });
  const error = h("p", { class: "error", role: "alert", id: "lobby-error" });
  const seeksSec = h("section", { class: "seeks", "aria-labelledby": "seeks-h" },
    h("h2", { id: "seeks-h" }, t("lobby.openGames")), empty, list, error, conn);

  const header = h("div", { class: "lobby-head" },
    h("h1", {}, t("lobby.heading")),
    me ? h("p", { class: "muted" }, t("lobby.signedInAs", { name: me.name }))
      : h("p", { class: "signin-note", id: "lobby-signin" }, t("lobby.toPlay"),
        h("a", { href: "/signin?next=%2Flobby" }, t("lobby.signIn")), t("lobby.or"), h("a", { href: "/signup?next=%2Flobby" }, t("lobby.signUp")),
        t("lobby.noAccountNeeded"), h("a", { href: "/" }, t("lobby.startHere")), "."),
    h("p", {}, h("a", { href: "/leaderboard/urbino", id: "lobby-leaderboard" }, t("lobby.leaderboards"))));
  app.appendChild(header);
  if (meta) app.appendChild(poolSection(meta, me));   // quick pairing (pool.ts)
  // One's challenges, sent and received, with their state (the open ones
  // from the seeks; the declined ones as the socket tells them).
  const chList = h("ul", { class: "challenge-list", id: "challenges" });
  const chSec = h("section", { class: "challenges", "aria-labelledby": "challenges-h", hidden: true },
    h("h2", { id: "challenges-h" }, t("lobby.yourChallenges")), chList);
  const declinedSeen: { by: string; reason: string }[] = [];
  let lastSeeks: Seek[] = [];
  const drawChallenges = () => {
    if (!me) return;
    const lower = me.name.toLowerCase();
    const received = lastSeeks.filter((k) => k.to && k.to.toLowerCase() === lower);
    const sent = lastSeeks.filter((k) => k.to && k.by.toLowerCase() === lower);
    chList.textContent = "";
    for (const k of received)
      chList.appendChild(h("li", { "data-state": "received", "data-seek": k.id },
        t("lobby.chReceived", { name: k.by, game: title(meta, k.game), clock: clockLabel(k.clock) })));
    for (const k of sent)
      chList.appendChild(h("li", { "data-state": "waiting", "data-seek": k.id },
        t("lobby.chSent", { name: k.to as string, game: title(meta, k.game), clock: clockLabel(k.clock) })));
    for (const d of declinedSeen)
      chList.appendChild(h("li", { "data-state": "declined" }, declinedText(d.by, d.reason)));
    chSec.hidden = chList.children.length === 0;
  };
  app.appendChild(chSec);
  app.appendChild(seeksSec);
  const form = me && meta ? seekForm(meta, error) : null;
  if (form) app.appendChild(form);
  if (me && meta) app.appendChild(computerSection(meta, error));
  const now = nowSection(meta);
  app.appendChild(now.sec);
  // The bots online; a challenge to one fills the form's "only for" field.
  app.appendChild(botsOnline(me, (name) => {
    const to = form?.querySelector("#seek-to") as HTMLInputElement | null;
    if (!to) return;
    to.value = name;
    form?.scrollIntoView({ block: "start" });
    to.focus();
  }));

  const draw = (seeks: Seek[]) => {
    lastSeeks = seeks;
    drawChallenges();
    list.textContent = "";
    empty.hidden = seeks.length > 0;
    const mine = seeks.some((s) => me && s.by === me.name);
    const waiting = form?.querySelector("#seek-waiting");
    if (waiting) waiting.textContent = mine ? t("lobby.waiting") : "";
    for (const s of seeks) list.appendChild(seekRow(s, meta, me, error));
  };
  const state = (up: boolean) => { conn.textContent = up ? "" : t("lobby.reconnecting"); };
  if (me) {
    // Signed in: the player's channel (inbox.ts) is this page's lobby socket.
    openInbox();
    listen((e) => {
      if (e.kind === "seeks") draw(e.seeks);
      else if (e.kind === "started") goGame(e.game);
      else if (e.kind === "state") state(e.up);
      else if (e.kind === "declined") {
        error.textContent = declinedText(e.by, e.reason);
        declinedSeen.unshift({ by: e.by, reason: e.reason });
        drawChallenges();
      }
      else if (e.kind === "now") now.show(e.playing, e.online);
    });
  } else {
    lobbySocket(draw, goGame, state, (by) => { error.textContent = t("bot.declined", { name: by }); }, now.show);
  }
}

// The computer levels as players with ratings: a rated game against one.
function computerSection(meta: Meta, error: HTMLElement): HTMLElement {
  const games = meta.games.filter((g) => g.name in BOARDS);
  const gameSel = h("select", { id: "cpu-game", "aria-label": t("home.game") });
  for (const g of games) gameSel.appendChild(h("option", { value: g.name }, g.title));
  const levelSel = h("select", { id: "cpu-level", "aria-label": t("lobby.level") });
  // a rated game needs a clock (SPEC "Consent and fair endings")
  const clockSel = h("select", { id: "cpu-clock", "aria-label": t("lobby.clock") },
    ...CLOCK_PRESETS.map((p, i) => h("option", { value: p.id, ...(i === 1 ? { selected: true } : {}) }, p.label)));
  const colours = h("div", { class: "choices", role: "radiogroup", "aria-label": t("home.yourColour") },
    radio("cpu-colour", "white", t("side.white"), true), radio("cpu-colour", "black", t("side.black"), false));
  const btn = h("button", { type: "button", class: "primary", id: "cpu-play" }, t("lobby.playRated"));
  let list: api.Computer[] = [];
  const fill = () => {
    const keep = levelSel.value;
    levelSel.textContent = "";
    for (const c of list) {
      const r = c.ratings[gameSel.value];
      const rating = r ? `${Math.round(r.rating)}${r.provisional ? "?" : ""}` : "1500?";
      levelSel.appendChild(h("option", { value: c.player }, t("lobby.levelRated", { level: c.level, name: levelName(meta, c.level), rating })));
    }
    if (keep) levelSel.value = keep;
  };
  gameSel.addEventListener("change", fill);
  api.computers().then((c) => { list = c; fill(); }).catch(() => {});
  btn.addEventListener("click", async () => {
    btn.disabled = true;
    error.textContent = "";
    const colour = (document.querySelector('input[name="cpu-colour"]:checked') as HTMLInputElement | null)?.value ?? "white";
    try {
      const preset = CLOCK_PRESETS.find((p) => p.id === clockSel.value) ?? CLOCK_PRESETS[1];
      const c = await api.createRated(gameSel.value as GameName, colour === "white" ? "human" : levelSel.value,
        colour === "white" ? levelSel.value : "human", preset.clock);
      goGame(c.id);
    } catch (e) {
      error.textContent = t("lobby.couldNotStart", { error: (e as Error).message });
      btn.disabled = false;
    }
  });
  return h("section", { class: "seek-form computers", id: "computers", "aria-labelledby": "cpu-h" },
    h("h2", { id: "cpu-h" }, t("lobby.cpuHeading")),
    h("p", { class: "muted" }, t("lobby.cpuNote")),
    h("div", { class: "row" }, h("label", { class: "form-field inline" }, h("span", { class: "form-label" }, t("home.game")), gameSel),
      h("label", { class: "form-field inline" }, h("span", { class: "form-label" }, t("lobby.level")), levelSel),
      h("label", { class: "form-field inline" }, h("span", { class: "form-label" }, t("lobby.clock")), clockSel)),
    h("fieldset", { class: "field" }, h("legend", {}, t("home.yourColour")), colours),
    h("div", { class: "row" }, btn));
}

// Games being played now (each one click from watching) and who is online,
// asked again every 15 s while the page is open.
function nowSection(meta: Meta | null): { sec: HTMLElement; show: (pl: api.Playing[], on: api.Online) => void } {
  const games = h("ul", { class: "playing-list", id: "playing" });
  const onlineP = h("p", { class: "online", id: "online" });
  const sec = h("section", { class: "now", "aria-labelledby": "now-h" }, h("h2", { id: "now-h" }, t("lobby.beingPlayed")), games,
    h("h2", {}, t("lobby.online")), onlineP);
  let live = false;
  const show = (pl: api.Playing[], on: api.Online, fromSocket = true) => {
    if (fromSocket) live = true;
    else if (live) return;   /* the socket's newer lists came first */
    games.textContent = "";
    for (const g of pl)
      games.appendChild(h("li", { "data-id": g.id, "data-ply": String(g.ply) }, h("a", { href: `/games/${encodeURIComponent(g.id)}` },
        `${title(meta, g.game)}: ${g.white} – ${g.black}`), t("lobby.moveRated", { n: g.ply + 1, rated: g.rated ? t("lobby.ratedSep") : "" })));
    if (!pl.length) games.appendChild(h("li", { class: "muted" }, t("lobby.noPlaying")));
    onlineP.textContent = "";
    onlineP.appendChild(document.createTextNode(on.count ? tn("lobby.players", on.count) : t("lobby.noPlayers")));
    on.names.forEach((n, i) => {
      if (i) onlineP.appendChild(document.createTextNode(", "));
      onlineP.appendChild(h("a", { href: `/players/${encodeURIComponent(n)}` }, n));
    });
  };
  // The lists at once; then the lobby socket sends them as they change.
  Promise.all([api.playing(), api.online()]).then(([pl, on]) => show(pl, on, false)).catch(() => { /* the lobby goes on without it */ });
  return { sec, show: (pl, on) => show(pl, on) };
}

// One open seek: what it is, who offers it, and what this visitor may do.
function seekRow(s: Seek, meta: Meta | null, me: Me | null, error: HTMLElement): HTMLElement {
  const info = gameMeta(meta, s.game);
  const opts = optionsText(info, s.options);
  const own = !!me && s.by === me.name;
  const li = h("li", { class: `seek${own ? " own" : ""}`, "data-seek": s.id, "data-by": s.by },
    h("span", { class: "seek-game" }, title(meta, s.game) + (opts ? ` · ${opts}` : "") +
      (s.to ? (own ? t("lobby.challengeTo", { name: s.to }) : t("lobby.challengeForYou")) : "")),
    h("span", { class: "seek-clock", title: clockKind(s.clock) }, clockLabel(s.clock)),
    h("span", { class: "seek-rated" }, s.rated ? t("lobby.rated") : t("lobby.casual")),
    h("span", { class: "seek-by" }, h("a", { href: `/players/${encodeURIComponent(s.by)}` }, s.by), ` ${Math.round(s.rating)}${s.provisional ? "?" : ""}`),
    h("span", { class: "seek-colour muted" }, own ? t("lobby.youPlay", { side: sl(s.colour) }) : me ? t("lobby.youPlay", { side: sl(takerColour(s.colour)) }) : t("lobby.whoAccepts", { side: sl(takerColour(s.colour)) })));
  let btn: HTMLButtonElement | null = null;
  if (own) {
    btn = h("button", { type: "button", class: "withdraw" }, t("offer.withdraw"));
    btn.addEventListener("click", async () => {
      (btn as HTMLButtonElement).disabled = true;
      try {
        await api.withdrawSeek(s.id);
      } catch (e) {
        error.textContent = t("lobby.withdrawFailed", { error: (e as Error).message });
        (btn as HTMLButtonElement).disabled = false;
      }
    });
  } else if (me) {
    btn = h("button", { type: "button", class: "primary accept" }, t("home.play"));
    btn.setAttribute("aria-label", t("lobby.playAgainst", { game: title(meta, s.game), clock: clockLabel(s.clock), name: s.by }));
    btn.addEventListener("click", async () => {
      (btn as HTMLButtonElement).disabled = true;
      error.textContent = "";
      try {
        const r = await api.acceptSeek(s.id);
        goGame(r.game);
      } catch (e) {
        error.textContent = e instanceof ApiError && e.status === 409 ? t("lobby.takenFirst") : t("lobby.startFailed", { error: (e as Error).message });
        (btn as HTMLButtonElement).disabled = false;
      }
    });
  }
  li.appendChild(h("span", { class: "seek-act" }, btn ?? h("a", { href: "/signin?next=%2Flobby", class: "muted" }, t("lobby.signInToPlay"))));
  // A challenge to this player: Decline, with a reason its maker is told.
  if (me && !own && s.to && s.to.toLowerCase() === me.name.toLowerCase()) {
    const why = reasonSelect();
    const no = h("button", { type: "button", class: "decline", "data-act": "decline" }, t("notice.decline"));
    no.addEventListener("click", async () => {
      no.disabled = true;
      try {
        await api.declineSeek(s.id, why.value);
      } catch (e) {
        error.textContent = (e as Error).message;
        no.disabled = false;
      }
    });
    li.appendChild(h("span", { class: "seek-decline" }, no, why));
  }
  return li;
}

function radio(name: string, value: string, label: string, checked: boolean): HTMLLabelElement {
  return h("label", { class: "choice" }, h("input", { type: "radio", name, value, checked }), h("span", {}, label));
}

// The form that makes a seek.
function seekForm(meta: Meta, error: HTMLElement): HTMLFormElement {
  const games = meta.games.filter((g) => g.name in BOARDS);
  const gameSel = h("select", { id: "seek-game", "aria-label": t("home.game") });
  for (const g of games) gameSel.appendChild(h("option", { value: g.name }, g.title));
  const optSel = h("select", { id: "seek-options", "aria-label": t("home.options") });
  const optRow = h("label", { class: "form-field inline" }, h("span", { class: "form-label" }, t("home.options")), optSel);
  const fillOptions = () => {
    const g = gameMeta(meta, gameSel.value);
    optSel.textContent = "";
    const sets = g ? optionSets(g) : [];
    for (const o of sets) optSel.appendChild(h("option", { value: o.options }, o.label));
    optRow.hidden = sets.length < 2;
    (optRow.firstChild as HTMLElement).textContent = g?.menu?.question ?? t("home.options");
  };
  gameSel.addEventListener("change", fillOptions);
  fillOptions();
  const rated = h("input", { type: "checkbox", id: "seek-rated", checked: true });
  const to = h("input", { type: "text", id: "seek-to", maxlength: 20, autocomplete: "off", placeholder: t("lobby.anyone"),
    pattern: "[A-Za-z0-9_\\-]{3,20}", "aria-label": t("lobby.challengeLabel") });
  // /lobby?to=NAME (a bot's profile's Challenge): the challenge filled in.
  const wanted = new URLSearchParams(location.search).get("to");
  if (wanted && /^[A-Za-z0-9_-]{3,20}$/.test(wanted)) to.value = wanted;
  const clocks = h("div", { class: "choices", role: "radiogroup", "aria-label": t("lobby.clock") },
    ...CLOCK_PRESETS.map((p, i) => radio("clock", p.id, p.label, i === 1)));
  const colours = h("div", { class: "choices", role: "radiogroup", "aria-label": t("home.yourColour") },
    radio("seek-colour", "random", t("home.random"), true), radio("seek-colour", "white", t("side.white"), false), radio("seek-colour", "black", t("side.black"), false));
  const btn = h("button", { type: "submit", class: "primary", id: "seek-submit" }, t("lobby.offerTheGame"));
  const waiting = h("p", { class: "waiting", id: "seek-waiting", role: "status" });
  const form = h("form", { class: "seek-form", id: "seek-form", "aria-labelledby": "seek-h" },
    h("h2", { id: "seek-h" }, t("lobby.offerAGame")),
    h("div", { class: "row" }, h("label", { class: "form-field inline" }, h("span", { class: "form-label" }, t("home.game")), gameSel), optRow),
    h("fieldset", { class: "field" }, h("legend", {}, t("lobby.clock")), clocks),
    h("fieldset", { class: "field" }, h("legend", {}, t("home.yourColour")), colours),
    h("label", { class: "check" }, rated, t("lobby.ratedCheck")),
    h("label", { class: "form-field inline" }, h("span", { class: "form-label" }, t("lobby.onlyFor")), to),
    h("div", { class: "row" }, btn), waiting);
  const checked = (name: string) => (form.querySelector(`input[name="${name}"]:checked`) as HTMLInputElement | null)?.value ?? "";
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    error.textContent = "";
    const preset = CLOCK_PRESETS.find((p) => p.id === checked("clock")) ?? CLOCK_PRESETS[0];
    btn.disabled = true;
    try {
      await api.createSeek({
        game: gameSel.value as GameName, options: optSel.value, rated: rated.checked,
        colour: checked("seek-colour") as "white" | "black" | "random", clock: preset.clock,
        ...(to.value.trim() ? { to: to.value.trim() } : {}),
      });
    } catch (e) {
      error.textContent = e instanceof ApiError && e.status === 404 ? t("lobby.noSuchPlayer", { name: to.value.trim() }) : t("lobby.offerFailed", { error: (e as Error).message });
    } finally {
      btn.disabled = false;
    }
  });
  return form;
}
