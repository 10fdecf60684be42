// home.ts — the home page: pick a game, its options, an opponent and a
// colour, then play; load a record; the games this browser knows.  What it
// says about each game (title, pitch, option menu, notes, level names and
// ratings) comes from /api/meta (meta.ts); only the pictures are its own.

import { ApiError, createGame, getGame, loadRecord, myGames } from "./api";
import { listen, myGames as inboxGames } from "./inbox";
import { currentUser, offlineName } from "./account";
import { poolSection } from "./pool";
import { deadlineText, formatClock } from "./clock";
import { h, svgPicture } from "./dom";
import { BOARDS } from "./games/index";
import { engineSupported } from "./engine/client";
import { computerName, playUrl, unfinished } from "./local";
import { gameMeta, levelLabel, loadMeta, metaOffline, optionSets, playerName, title } from "./meta";
import { PICTURES } from "./pictures";
import * as store from "./store";
import { t, tn, dateTime } from "./i18n";
import type { GameMeta, GameName, Me, Meta, MyGame, Side } from "./types";

function radio(name: string, value: string, label: string, checked: boolean, extra: Record<string, string> = {}): HTMLLabelElement {
  return h("label", { class: "choice", ...extra },
    h("input", { type: "radio", name, value, checked }),
    h("span", {}, label));
}

const sl = (s: Side): string => t(s === "white" ? "sidel.white" : "sidel.black");

function go(id: string, token?: string): void {
  location.assign(`/games/${encodeURIComponent(id)}` + (token ? `?seat=${encodeURIComponent(token)}` : ""));
}

export function showHome(app: HTMLElement): void {
  document.title = "Tavoliere";
  app.className = "home";
  app.textContent = "";
  const status = h("p", { class: "muted", role: "status" }, t("home.loading"));
  app.appendChild(status);
  Promise.all([loadMeta(), currentUser()]).then(([meta, me]) => {
    status.remove();
    build(app, meta, me);
  }).catch((e) => {
    status.textContent = t("home.loadFailed", { error: (e as Error).message });
  });
}

function build(app: HTMLElement, meta: Meta, me: Me | null): void {
  // The games the server offers and this page can draw, in the server's order.
  const games = meta.games.filter((g) => g.name in BOARDS);
  document.title = t("home.docTitle", { games: games.map((g) => g.title).join(", ").replace(/, ([^,]*)$/, t("home.and") + "$1") });
  const error = h("p", { class: "error", role: "alert", id: "home-error" });

  // The games.
  const cards = h("div", { class: "game-cards", role: "radiogroup", "aria-label": t("home.game") });
  games.forEach((g, i) => {
    const input = h("input", { type: "radio", name: "game", value: g.name, checked: i === 0, id: `game-${g.name}` });
    cards.appendChild(h("label", { class: "game-card", for: `game-${g.name}`, "data-game": g.name },
      input, svgPicture(PICTURES[g.name] ?? "", g.title),
      h("span", { class: "game-name" }, g.title),
      h("span", { class: "game-pitch" }, g.pitch),
      h("a", { class: "game-rules", href: `/rules/${g.name}` }, t("home.howToPlay", { game: g.title }))));
  });

  const optionBox = h("div", { class: "choices", role: "radiogroup", "aria-label": t("home.options") });
  const optionLegend = h("legend", {}, t("home.options"));
  const optionNote = h("p", { class: "history-note", id: "option-note" }, "");
  const optionField = h("fieldset", { class: "field" }, optionLegend, optionBox, optionNote);

  const levelSelect = h("select", { id: "level", name: "level", "aria-label": t("home.computerLevel") });
  const fillLevels = (g: GameMeta | undefined) => {
    const keep = levelSelect.value;
    levelSelect.textContent = "";
    levelSelect.appendChild(h("option", { value: "random" }, t("home.randomMover")));
    for (const l of meta.levels) levelSelect.appendChild(h("option", { value: `ai:level=${l.level}` }, levelLabel(g, l)));
    levelSelect.value = keep || "ai:level=3";
    if (!levelSelect.value) levelSelect.value = "ai:level=3";
  };

  const opponentBox = h("div", { class: "choices", role: "radiogroup", "aria-label": t("home.opponent") },
    radio("opponent", "computer", t("home.theComputer"), true),
    radio("opponent", "local", t("home.friendScreen"), false),
    radio("opponent", "link", t("home.friendLink"), false));
  // The computer in this browser (local.ts): no server needed, works offline.
  const inPage = h("input", { type: "checkbox", id: "in-page", name: "in-page" }) as HTMLInputElement;
  inPage.checked = engineSupported();
  inPage.disabled = !engineSupported();
  const inPageRow = h("label", { class: "in-page-row", for: "in-page" }, inPage,
    t("home.inPage"));
  const levelRow = h("div", { class: "level-row" }, h("label", {}, t("home.level"), levelSelect), inPageRow);
  const colourBox = h("div", { class: "choices", role: "radiogroup", "aria-label": t("home.yourColour") },
    radio("colour", "white", t("side.white"), true),
    radio("colour", "black", t("side.black"), false),
    radio("colour", "random", t("home.random"), false));
  const colourNote = h("p", { class: "history-note", id: "colour-note" }, "");
  const colourField = h("fieldset", { class: "field" }, h("legend", {}, t("home.yourColour")), colourBox, colourNote);

  const playBtn = h("button", { type: "submit", class: "primary big", id: "play" }, t("home.play"));
  const form = h("form", { class: "new-game", "aria-label": t("home.newGame") },
    h("h1", {}, t("home.playAGame")),
    cards,
    optionField,
    h("fieldset", { class: "field" }, h("legend", {}, t("home.opponent")), opponentBox, levelRow),
    colourField,
    playBtn,
    error);

  const selected = (name: string) => (form.querySelector(`input[name="${name}"]:checked`) as HTMLInputElement | null)?.value ?? "";

  let shownFor = "";
  const refreshOptions = () => {
    const name = selected("game");
    const g = gameMeta(meta, name);
    if (g && shownFor !== name) {
      shownFor = name;
      const sets = optionSets(g);
      optionBox.textContent = "";
      sets.forEach((o, i) => optionBox.appendChild(radio("gopt", o.options, o.label, i === 0)));
      optionField.hidden = sets.length < 2;
      optionLegend.textContent = g.menu?.question || t("home.options");
      optionNote.textContent = g.menu?.note ?? "";
      optionNote.hidden = !g.menu?.note;
      colourNote.textContent = g.sideNote ?? "";
      colourNote.hidden = !g.sideNote;
      fillLevels(g);
    }
    const opp = selected("opponent");
    levelRow.hidden = opp !== "computer";
    colourField.hidden = opp === "local";
  };
  form.addEventListener("change", refreshOptions);
  // "New game" offers the last game's settings again
  const last = store.lastSettings();
  const pick = (name: string, value: string) => {
    const i = form.querySelector(`input[name="${name}"][value="${CSS.escape(value)}"]`) as HTMLInputElement | null;
    if (i) i.checked = true;
    return !!i;
  };
  if (last) pick("game", last.game);
  refreshOptions();
  if (last) {
    pick("gopt", last.options);
    pick("opponent", last.opponent);
    pick("colour", last.colour);
    if ([...levelSelect.options].some((o) => o.value === last.level)) levelSelect.value = last.level;
    refreshOptions();
  }

  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    error.textContent = "";
    const g = selected("game") as GameName;
    const options = selected("gopt");
    const opp = selected("opponent");
    store.saveSettings({ game: g, options, opponent: opp, level: levelSelect.value, colour: selected("colour") });
    let colour = selected("colour") as Side | "random";
    if (colour === "random") colour = Math.random() < 0.5 ? "white" : "black";
    const me: Side = opp === "local" ? "white" : colour;
    const other: Side = me === "white" ? "black" : "white";
    const computer = levelSelect.value;
    if (opp === "computer" && inPage.checked) {
      const lv = /level=(\d+)/.exec(computer);
      const q = new URLSearchParams({ level: lv ? lv[1] : "0", colour: me, new: "1" });
      if (options) q.set("options", options);
      location.assign(`/play/${g}?${q}`);
      return;
    }
    const players: Record<Side, string> = { white: "human", black: "human" };
    if (opp === "computer") players[other] = computer;
    playBtn.disabled = true;
    try {
      const c = await createGame(g, options, players.white, players.black, opp === "local");
      const seats: store.Saved["seats"] = {};
      if (opp === "link") seats[me] = c.seats[me];
      else {
        if (c.seats.white) seats.white = c.seats.white;
        if (c.seats.black) seats.black = c.seats.black;
      }
      const entry: store.Saved = {
        id: c.id, game: g, seats, created: Date.now(),
        opponent: opp === "computer" ? playerName(computer, meta) : opp === "local" ? t("home.opp.local") : t("home.opp.link"),
      };
      if (opp === "link" && c.seats[other]) entry.invite = { side: other, token: c.seats[other] as string };
      store.put(entry);
      go(c.id, seats[me] ?? seats.white ?? seats.black);
    } catch (e) {
      error.textContent = t("home.createFailed", { error: (e as Error).message });
      playBtn.disabled = false;
    }
  });

  if (metaOffline()) {
    // Offline (the installed app with no network): the computer in this
    // browser and the games kept here; what needs the server is not offered.
    const away = offlineName();
    app.appendChild(h("p", { class: "offline-note", id: "offline-note", role: "status" },
      t("home.offline") + (away ? ` ${t("home.offlineSignedIn", { name: away })}` : "")));
    for (const v of ["local", "link"]) {
      const r = form.querySelector(`input[name="opponent"][value="${v}"]`) as HTMLInputElement | null;
      if (r) { r.disabled = true; r.checked = false; }
    }
    (form.querySelector('input[name="opponent"][value="computer"]') as HTMLInputElement).checked = true;
    if (!engineSupported()) error.textContent = t("play.noEngine");
    inPage.checked = true;
    inPage.disabled = true;
    if (levelSelect.value === "random") levelSelect.value = "ai:level=3";
    (levelSelect.querySelector('option[value="random"]') as HTMLOptionElement | null)?.remove();
    refreshOptions();
  } else {
    app.appendChild(lobbyCard(me));
    if (me) app.insertBefore(accountGames(meta, me), app.firstChild);
  }
  app.appendChild(form);
  // Signed in: quick pairing here too (pool.ts), after the new-game form.
  if (me && !metaOffline()) app.appendChild(poolSection(meta, me));
  const mine = localGames(meta);
  if (mine) app.appendChild(mine);
  if (!metaOffline()) app.appendChild(recentGames(meta));
  if (!metaOffline()) app.appendChild(recordLoader());
}

// The way to the lobby: play people, with clocks and ratings.
function lobbyCard(me: Me | null): HTMLElement {
  return h("section", { class: "lobby-card", "aria-label": t("home.playPeople") },
    h("a", { href: "/lobby", id: "home-lobby", class: "button" }, t("home.lobbyLink")),
    h("span", { class: "muted" }, me ? t("home.lobbyNoteIn") : t("home.lobbyNoteOut")));
}

// A signed-in player's games between accounts that go on, their turn first
// (GET /api/me/games); the page's title says "Your turn" when one is.
function accountGames(meta: Meta, me: Me): HTMLElement {
  const sec = h("section", { class: "my-games", id: "my-games", "aria-labelledby": "my-games-h" },
    h("h2", { id: "my-games-h" }, t("home.yourGamesPeople")));
  const note = h("p", { class: "muted" }, t("home.loadingShort"));
  sec.appendChild(note);
  const body = h("div", { class: "my-games-body" });
  sec.appendChild(body);
  let fromChannel = false;
  const baseTitle = document.title.replace(/^\(\d+\) /, "");
  const draw = (list: MyGame[]) => {
    note.remove();
    body.textContent = "";
    document.title = list.some((g) => g.yourTurn) ? t("game.titleYourTurn", { base: baseTitle }) : baseTitle;
    if (!list.length) {
      body.appendChild(h("p", { class: "muted" }, t("home.noneGoingOn"), h("a", { href: "/lobby" }, t("home.findInLobby")), "."));
      return;
    }
    const ul = h("ul", { class: "recent-list" });
    for (const g of list) ul.appendChild(myGameRow(meta, me, g));
    body.appendChild(ul);
  };
  // The list moves as the games do: the player's channel sends each change.
  listen((e) => {
    if (e.kind === "mine" || e.kind === "mygame" || e.kind === "gone") {
      fromChannel = true;
      draw(inboxGames());
    }
  });
  myGames().then((list) => { if (!fromChannel) draw(list); }).catch((e) => {
    if (!fromChannel) note.textContent = t("home.yourGamesFailed", { error: (e as Error).message });
  });
  return sec;
}

function myGameRow(meta: Meta, me: Me, g: MyGame): HTMLElement {
  const mine: Side | null = g.white === me.name ? "white" : g.black === me.name ? "black" : null;
  const opp = mine === "white" ? g.black : mine === "black" ? g.white : null;
  let clock = "";
  const c = g.clock;
  if (c && "deadline" in c) clock = c.deadline ? deadlineText(c.deadline, Date.now()) : "";
  else if (c && mine) clock = t("home.onYourClock", { time: formatClock(c[mine]) });
  return h("li", { "data-id": g.id, class: g.yourTurn ? "your-turn" : "" },
    h("a", { href: `/games/${encodeURIComponent(g.id)}` }, t("home.against", { game: title(meta, g.game), opp: opp ?? t("line.guest") })),
    h("span", { class: "muted" }, mine ? t("home.youPlaySep", { side: sl(mine) }) : " · "),
    h("span", { class: `recent-status${g.yourTurn ? " your-turn" : ""}` }, g.yourTurn ? t("home.yourTurnl") : t("home.waitingForl", { name: opp ?? (g.tomove === "none" ? "…" : sl(g.tomove)) })),
    clock ? h("span", { class: "muted" }, ` · ${clock}`) : null);
}

// The games this browser holds a seat in (or created), newest first.
// The games against the computer played in this browser and not finished
// (local.ts): one link each to go on (offline too).
function localGames(meta: Meta): HTMLElement | null {
  const list = unfinished();
  if (!list.length) return null;
  const ul = h("ul", { class: "recent-list", id: "local-games" });
  for (const s of list) {
    const who = playerName(computerName(s.level), meta);
    ul.appendChild(h("li", { "data-game": s.game },
      h("a", { href: playUrl(s) }, t("home.against", { game: title(meta, s.game), opp: who })),
      h("span", { class: "muted" }, t("home.localLine", { side: sl(s.human), moves: tn("moves", s.moves.length), when: dateTime(s.created) }))));
  }
  return h("section", { class: "recent", "aria-labelledby": "local-h" },
    h("h2", { id: "local-h" }, t("home.localGames")), ul);
}

function recentGames(meta: Meta): HTMLElement {
  const list = store.loadAll();
  const sec = h("section", { class: "recent", "aria-labelledby": "recent-h" }, h("h2", { id: "recent-h" }, t("home.yourGames")));
  if (!list.length) {
    sec.appendChild(h("p", { class: "muted" }, t("home.listedHere")));
    return sec;
  }
  const ul = h("ul", { class: "recent-list" });
  for (const s of list.slice(0, 20)) {
    const token = s.seats.white ?? s.seats.black;
    const href = `/games/${encodeURIComponent(s.id)}` + (token ? `?seat=${encodeURIComponent(token)}` : "");
    const status = h("span", { class: "recent-status" }, s.over ? s.result ?? t("home.finished") : "…");
    const when = dateTime(s.created);
    const forget = h("button", { type: "button", class: "link-btn", "aria-label": t("home.forgetLabel", { game: title(meta, s.game), when }) }, t("home.forget"));
    const li = h("li", { "data-id": s.id },
      h("a", { href }, t("home.against", { game: title(meta, s.game), opp: s.opponent })),
      h("span", { class: "muted" }, ` · ${when} · `), status, " ", forget);
    forget.addEventListener("click", () => {
      store.remove(s.id);
      li.remove();
    });
    ul.appendChild(li);
    if (!s.over) {
      getGame(s.id, token).then((g) => {
        if (g.over) {
          const r = g.winner === "draw" ? t("home.drawn") : g.winner === "none" ? t("home.finished") : t("home.sideWon", { side: sl(g.winner as Side) });
          status.textContent = r;
          store.update(s.id, { over: true, result: r });
        } else if (g.seat && g.tomove === g.seat) {
          status.textContent = t("home.yourTurnl");
          status.classList.add("your-turn");
        } else if (s.seats.white && s.seats.black) {
          status.textContent = t("home.sideToMove", { side: sl(g.tomove as Side) });
          status.classList.add("your-turn");
        } else {
          status.textContent = t("home.waitingOpp");
        }
      }).catch((e) => {
        status.textContent = e instanceof ApiError && e.status === 404 ? t("home.gone") : t("home.unknown");
      });
    }
  }
  sec.appendChild(ul);
  return sec;
}

// Load a record (paste or file) and start a game from it.
function recordLoader(): HTMLElement {
  const area = h("textarea", { id: "record-text", rows: 6, "aria-label": t("home.recordLabel"), placeholder: t("home.recordPlaceholder") });
  const file = h("input", { type: "file", id: "record-file", accept: ".txt,.tav,text/plain", "aria-label": t("home.recordFile") });
  const err = h("p", { class: "error", role: "alert" });
  const btn = h("button", { type: "button", id: "record-load" }, t("home.openRecord"));
  file.addEventListener("change", async () => {
    const f = file.files && file.files[0];
    if (f) area.value = await f.text();
  });
  btn.addEventListener("click", async () => {
    err.textContent = "";
    if (!area.value.trim()) {
      err.textContent = t("home.pasteFirst");
      return;
    }
    btn.disabled = true;
    try {
      const c = await loadRecord(area.value, "human", "human");
      const g = await getGame(c.id);
      store.put({ id: c.id, game: g.game, seats: c.seats, created: Date.now(), opponent: t("home.loadedRecord") });
      go(c.id, c.seats.white ?? c.seats.black);
    } catch (e) {
      err.textContent = t("home.recordFailed", { error: (e as Error).message });
      btn.disabled = false;
    }
  });
  const link = h("p", { class: "muted" }, t("home.recordNote"));
  const sec = h("details", { class: "record-loader" }, h("summary", {}, t("home.loadRecord")), area, h("div", { class: "row" }, file, btn), link, err);
  return sec;
}
