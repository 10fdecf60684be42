// lobby.ts — the lobby at /lobby: the open seeks, live (the lobby socket
// /api/lobby sends the whole list at once and after every change), a form to
// make a seek (game, options from /api/meta's menus, rated, colour, a clock
// preset), accept with one click, withdraw one's own.  The seeker's page is
// told {"type": "started", "game": ID} when someone accepts and goes to the
// game.  A seek lives while its owner has a lobby socket open: this page.
// Signed-out visitors see the seeks and are asked to sign in to play.

import * as api from "./api";
import { ApiError } from "./api";
import { currentUser } from "./account";
import { takerColour } from "./accounttext";
import { CLOCK_PRESETS, clockKind, clockLabel } from "./clock";
import { h } from "./dom";
import { LiveSocket } from "./live";
import { BOARDS } from "./games/index";
import { gameMeta, levelName, loadMeta, optionSets, optionsText, title } from "./meta";
import type { GameName, Me, Meta, Seek } from "./types";

/** The lobby socket (/api/lobby): the seeks lists and "started". */
function lobbySocket(onSeeks: (s: Seek[]) => void, onStarted: (game: string) => void, onState: (up: boolean) => void): LiveSocket {
  return new LiveSocket("/api/lobby", (data) => {
    if (Array.isArray(data)) onSeeks(data as Seek[]);
    else if (data && typeof data === "object" && (data as { type?: string }).type === "started") {
      const g = (data as { game?: unknown }).game;
      if (typeof g === "string") onStarted(g);
    }
  }, onState);
}

const goGame = (id: string) => location.assign(`/games/${encodeURIComponent(id)}`);

export function showLobby(app: HTMLElement): void {
  document.title = "Lobby — Tavoliere";
  app.className = "lobby";
  app.textContent = "";
  const status = h("p", { class: "muted", role: "status" }, "Loading the lobby…");
  app.appendChild(status);
  Promise.all([loadMeta().catch(() => null), currentUser()]).then(([meta, me]) => {
    status.remove();
    build(app, meta, me);
  });
}

function build(app: HTMLElement, meta: Meta | null, me: Me | null): void {
  const list = h("ul", { class: "seek-list", id: "seeks", "aria-live": "polite" });
  const empty = h("p", { class: "muted", id: "no-seeks" }, "No open games right now." + (me ? " Make one: the form is below." : ""));
  const conn = h("p", { class: "conn muted", id: "lobby-conn" });
  const error = h("p", { class: "error", role: "alert", id: "lobby-error" });
  const seeksSec = h("section", { class: "seeks", "aria-labelledby": "seeks-h" },
    h("h2", { id: "seeks-h" }, "Open games"), empty, list, error, conn);

  const header = h("div", { class: "lobby-head" },
    h("h1", {}, "Lobby: play people"),
    me ? h("p", { class: "muted" }, `Signed in as ${me.name}. Accept an open game with one click, or offer one of your own; it stays open while this page is.`)
      : h("p", { class: "signin-note", id: "lobby-signin" }, "To play, ",
        h("a", { href: "/signin?next=%2Flobby" }, "sign in"), " or ", h("a", { href: "/signup?next=%2Flobby" }, "sign up"),
        ". Games against the computer or a friend by link need no account: ", h("a", { href: "/" }, "start one here"), "."),
    h("p", {}, h("a", { href: "/leaderboard/urbino", id: "lobby-leaderboard" }, "Leaderboards")));
  app.appendChild(header);
  app.appendChild(seeksSec);
  const form = me && meta ? seekForm(meta, error) : null;
  if (form) app.appendChild(form);
  if (me && meta) app.appendChild(computerSection(meta, error));
  app.appendChild(nowSection(meta));

  const draw = (seeks: Seek[]) => {
    list.textContent = "";
    empty.hidden = seeks.length > 0;
    const mine = seeks.some((s) => me && s.by === me.name);
    const waiting = form?.querySelector("#seek-waiting");
    if (waiting) waiting.textContent = mine ? "Your game is open: waiting for an opponent. Keep this page open; the game starts here when someone accepts." : "";
    for (const s of seeks) list.appendChild(seekRow(s, meta, me, error));
  };
  lobbySocket(draw, goGame, (up) => { conn.textContent = up ? "" : "Reconnecting to the lobby…"; });
}

// The computer levels as players with ratings: a rated game against one.
function computerSection(meta: Meta, error: HTMLElement): HTMLElement {
  const games = meta.games.filter((g) => g.name in BOARDS);
  const gameSel = h("select", { id: "cpu-game", "aria-label": "Game" });
  for (const g of games) gameSel.appendChild(h("option", { value: g.name }, g.title));
  const levelSel = h("select", { id: "cpu-level", "aria-label": "Level" });
  // a rated game needs a clock (SPEC "Consent and fair endings")
  const clockSel = h("select", { id: "cpu-clock", "aria-label": "Clock" },
    ...CLOCK_PRESETS.map((p, i) => h("option", { value: p.id, ...(i === 1 ? { selected: true } : {}) }, p.label)));
  const colours = h("div", { class: "choices", role: "radiogroup", "aria-label": "Your colour" },
    radio("cpu-colour", "white", "White", true), radio("cpu-colour", "black", "Black", false));
  const btn = h("button", { type: "button", class: "primary", id: "cpu-play" }, "Play rated");
  let list: api.Computer[] = [];
  const fill = () => {
    const keep = levelSel.value;
    levelSel.textContent = "";
    for (const c of list) {
      const r = c.ratings[gameSel.value];
      const rating = r ? `${Math.round(r.rating)}${r.provisional ? "?" : ""}` : "1500?";
      levelSel.appendChild(h("option", { value: c.player }, `Level ${c.level} (${levelName(meta, c.level)}): rated ${rating}`));
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
      error.textContent = `The game could not start: ${(e as Error).message}`;
      btn.disabled = false;
    }
  });
  return h("section", { class: "seek-form computers", id: "computers", "aria-labelledby": "cpu-h" },
    h("h2", { id: "cpu-h" }, "Play the computer, rated"),
    h("p", { class: "muted" }, "Each level is a player with a rating of its own on the same scale as yours: it rises and falls with its games."),
    h("div", { class: "row" }, h("label", { class: "form-field inline" }, h("span", { class: "form-label" }, "Game"), gameSel),
      h("label", { class: "form-field inline" }, h("span", { class: "form-label" }, "Level"), levelSel),
      h("label", { class: "form-field inline" }, h("span", { class: "form-label" }, "Clock"), clockSel)),
    h("fieldset", { class: "field" }, h("legend", {}, "Your colour"), colours),
    h("div", { class: "row" }, btn));
}

// Games being played now (each one click from watching) and who is online,
// asked again every 15 s while the page is open.
function nowSection(meta: Meta | null): HTMLElement {
  const games = h("ul", { class: "playing-list", id: "playing" });
  const onlineP = h("p", { class: "online", id: "online" });
  const sec = h("section", { class: "now", "aria-labelledby": "now-h" }, h("h2", { id: "now-h" }, "Being played now"), games,
    h("h2", {}, "Online"), onlineP);
  const refresh = async () => {
    if (!sec.isConnected) return;   /* the visitor went to another page */
    try {
      const [pl, on] = await Promise.all([api.playing(), api.online()]);
      games.textContent = "";
      for (const g of pl)
        games.appendChild(h("li", { "data-id": g.id }, h("a", { href: `/games/${encodeURIComponent(g.id)}` },
          `${title(meta, g.game)}: ${g.white} – ${g.black}`), ` · move ${g.ply + 1}${g.rated ? " · rated" : ""}`));
      if (!pl.length) games.appendChild(h("li", { class: "muted" }, "No game between players right now."));
      onlineP.textContent = "";
      onlineP.appendChild(document.createTextNode(on.count === 1 ? "1 player: " : `${on.count} players${on.count ? ": " : ""}`));
      on.names.forEach((n, i) => {
        if (i) onlineP.appendChild(document.createTextNode(", "));
        onlineP.appendChild(h("a", { href: `/players/${encodeURIComponent(n)}` }, n));
      });
    } catch {
      /* the lobby goes on without it */
    }
    window.setTimeout(refresh, 15000);
  };
  window.setTimeout(refresh, 0);
  return sec;
}

// One open seek: what it is, who offers it, and what this visitor may do.
function seekRow(s: Seek, meta: Meta | null, me: Me | null, error: HTMLElement): HTMLElement {
  const info = gameMeta(meta, s.game);
  const opts = optionsText(info, s.options);
  const own = !!me && s.by === me.name;
  const li = h("li", { class: `seek${own ? " own" : ""}`, "data-seek": s.id, "data-by": s.by },
    h("span", { class: "seek-game" }, title(meta, s.game) + (opts ? ` · ${opts}` : "") +
      (s.to ? (own ? ` · challenge to ${s.to}` : " · a challenge for you") : "")),
    h("span", { class: "seek-clock", title: clockKind(s.clock) }, clockLabel(s.clock)),
    h("span", { class: "seek-rated" }, s.rated ? "rated" : "casual"),
    h("span", { class: "seek-by" }, h("a", { href: `/players/${encodeURIComponent(s.by)}` }, s.by), ` ${Math.round(s.rating)}`),
    h("span", { class: "seek-colour muted" }, own ? `you play ${s.colour}` : me ? `you play ${takerColour(s.colour)}` : `who accepts plays ${takerColour(s.colour)}`));
  let btn: HTMLButtonElement | null = null;
  if (own) {
    btn = h("button", { type: "button", class: "withdraw" }, "Withdraw");
    btn.addEventListener("click", async () => {
      (btn as HTMLButtonElement).disabled = true;
      try {
        await api.withdrawSeek(s.id);
      } catch (e) {
        error.textContent = `Could not withdraw: ${(e as Error).message}`;
        (btn as HTMLButtonElement).disabled = false;
      }
    });
  } else if (me) {
    btn = h("button", { type: "button", class: "primary accept" }, "Play");
    btn.setAttribute("aria-label", `Play ${title(meta, s.game)} ${clockLabel(s.clock)} against ${s.by}`);
    btn.addEventListener("click", async () => {
      (btn as HTMLButtonElement).disabled = true;
      error.textContent = "";
      try {
        const r = await api.acceptSeek(s.id);
        goGame(r.game);
      } catch (e) {
        error.textContent = e instanceof ApiError && e.status === 409 ? "Someone else took that game first." : `Could not start the game: ${(e as Error).message}`;
        (btn as HTMLButtonElement).disabled = false;
      }
    });
  }
  li.appendChild(h("span", { class: "seek-act" }, btn ?? h("a", { href: "/signin?next=%2Flobby", class: "muted" }, "sign in to play")));
  return li;
}

function radio(name: string, value: string, label: string, checked: boolean): HTMLLabelElement {
  return h("label", { class: "choice" }, h("input", { type: "radio", name, value, checked }), h("span", {}, label));
}

// The form that makes a seek.
function seekForm(meta: Meta, error: HTMLElement): HTMLFormElement {
  const games = meta.games.filter((g) => g.name in BOARDS);
  const gameSel = h("select", { id: "seek-game", "aria-label": "Game" });
  for (const g of games) gameSel.appendChild(h("option", { value: g.name }, g.title));
  const optSel = h("select", { id: "seek-options", "aria-label": "Options" });
  const optRow = h("label", { class: "form-field inline" }, h("span", { class: "form-label" }, "Options"), optSel);
  const fillOptions = () => {
    const g = gameMeta(meta, gameSel.value);
    optSel.textContent = "";
    const sets = g ? optionSets(g) : [];
    for (const o of sets) optSel.appendChild(h("option", { value: o.options }, o.label));
    optRow.hidden = sets.length < 2;
    (optRow.firstChild as HTMLElement).textContent = g?.menu?.question ?? "Options";
  };
  gameSel.addEventListener("change", fillOptions);
  fillOptions();
  const rated = h("input", { type: "checkbox", id: "seek-rated", checked: true });
  const to = h("input", { type: "text", id: "seek-to", maxlength: 20, autocomplete: "off", placeholder: "anyone",
    pattern: "[A-Za-z0-9_\\-]{3,20}", "aria-label": "Challenge a player (leave empty for anyone)" });
  const clocks = h("div", { class: "choices", role: "radiogroup", "aria-label": "Clock" },
    ...CLOCK_PRESETS.map((p, i) => radio("clock", p.id, p.label, i === 1)));
  const colours = h("div", { class: "choices", role: "radiogroup", "aria-label": "Your colour" },
    radio("seek-colour", "random", "Random", true), radio("seek-colour", "white", "White", false), radio("seek-colour", "black", "Black", false));
  const btn = h("button", { type: "submit", class: "primary", id: "seek-submit" }, "Offer the game");
  const waiting = h("p", { class: "waiting", id: "seek-waiting", role: "status" });
  const form = h("form", { class: "seek-form", id: "seek-form", "aria-labelledby": "seek-h" },
    h("h2", { id: "seek-h" }, "Offer a game"),
    h("div", { class: "row" }, h("label", { class: "form-field inline" }, h("span", { class: "form-label" }, "Game"), gameSel), optRow),
    h("fieldset", { class: "field" }, h("legend", {}, "Clock"), clocks),
    h("fieldset", { class: "field" }, h("legend", {}, "Your colour"), colours),
    h("label", { class: "check" }, rated, " Rated (the result changes both players' ratings)"),
    h("label", { class: "form-field inline" }, h("span", { class: "form-label" }, "Only for (a player's name)"), to),
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
      error.textContent = e instanceof ApiError && e.status === 404 ? `There is no player called ${to.value.trim()}.` : `The game could not be offered: ${(e as Error).message}`;
    } finally {
      btn.disabled = false;
    }
  });
  return form;
}
