// home.ts — the home page: pick a game, its options, an opponent and a
// colour, then play; load a record; the games this browser knows.

import { ApiError, createGame, getGame, loadRecord, meta } from "./api";
import { h, svgPicture } from "./dom";
import { GAMES, LEVELS, ORDER, playerName } from "./info";
import * as store from "./store";
import type { GameName, Side } from "./types";

let levels = LEVELS.slice();
// The levels' measured ratings per game (random play = 0; null: not rated yet).
const ratings: Partial<Record<string, (number | null)[]>> = {};

// Read level names and ratings from /api/meta when the server offers them.
async function loadLevels(): Promise<void> {
  try {
    const m = (await meta()) as { levels?: unknown; games?: unknown };
    if (m && Array.isArray(m.games))
      for (const g of m.games as unknown[]) {
        const o = g as { name?: unknown; ratings?: unknown };
        if (o && typeof o.name === "string" && Array.isArray(o.ratings))
          ratings[o.name] = o.ratings.map((r: unknown) => (typeof r === "number" ? r : null));
      }
    const raw = m && Array.isArray(m.levels) ? m.levels : null;
    if (!raw) return;
    const out: { level: number; name: string }[] = [];
    raw.forEach((x: unknown, i: number) => {
      if (typeof x === "string") out.push({ level: i + 1, name: x });
      else if (x && typeof x === "object") {
        const o = x as { level?: unknown; name?: unknown };
        if (typeof o.level === "number" && typeof o.name === "string") out.push({ level: o.level, name: o.name.charAt(0).toUpperCase() + o.name.slice(1) });
      }
    });
    if (out.length) levels = out;
  } catch {
    /* the built-in names stay */
  }
}

// "Level 4 · Club player — about 1050" (ratings rounded to 50).
function levelLabel(game: string, l: { level: number; name: string }): string {
  const r = ratings[game]?.[l.level - 1];
  const base = `Level ${l.level} · ${l.name}`;
  return typeof r === "number" ? `${base} — about ${Math.round(r / 50) * 50}` : base;
}

function radio(name: string, value: string, label: string, checked: boolean, extra: Record<string, string> = {}): HTMLLabelElement {
  return h("label", { class: "choice", ...extra },
    h("input", { type: "radio", name, value, checked }),
    h("span", {}, label));
}

function go(id: string, token?: string): void {
  location.assign(`/games/${encodeURIComponent(id)}` + (token ? `?seat=${encodeURIComponent(token)}` : ""));
}

export function showHome(app: HTMLElement): void {
  document.title = "Tavoliere — play Urbino, Epaminondas, Cathedral and Toscana";
  app.className = "home";
  app.textContent = "";

  const error = h("p", { class: "error", role: "alert", id: "home-error" });

  // The games.
  const cards = h("div", { class: "game-cards", role: "radiogroup", "aria-label": "Game" });
  ORDER.forEach((g, i) => {
    const info = GAMES[g];
    const input = h("input", { type: "radio", name: "game", value: g, checked: i === 0, id: `game-${g}` });
    cards.appendChild(h("label", { class: "game-card", for: `game-${g}`, "data-game": g },
      input, svgPicture(info.picture, info.name),
      h("span", { class: "game-name" }, info.name),
      h("span", { class: "game-pitch" }, info.pitch),
      h("a", { class: "game-rules", href: `/rules/${g}` }, `How to play ${info.name}`)));
  });

  const optionBox = h("div", { class: "choices", role: "radiogroup", "aria-label": "Options" });
  const optionField = h("fieldset", { class: "field" }, h("legend", {}, "Options"), optionBox);

  const levelSelect = h("select", { id: "level", name: "level", "aria-label": "Computer level" });
  let levelsFor = "";
  const fillLevels = () => {
    const game = (document.querySelector('input[name="game"]:checked') as HTMLInputElement | null)?.value ?? ORDER[0];
    levelsFor = game;
    const keep = levelSelect.value;
    levelSelect.textContent = "";
    levelSelect.appendChild(h("option", { value: "random" }, "Random mover (easiest) — rated 0"));
    for (const l of levels) levelSelect.appendChild(h("option", { value: `ai:level=${l.level}` }, levelLabel(game, l)));
    levelSelect.value = keep || "ai:level=3";
    if (!levelSelect.value) levelSelect.value = "ai:level=3";
  };
  fillLevels();
  loadLevels().then(fillLevels);

  const opponentBox = h("div", { class: "choices", role: "radiogroup", "aria-label": "Opponent" },
    radio("opponent", "computer", "The computer", true),
    radio("opponent", "local", "A friend on this screen", false),
    radio("opponent", "link", "A friend, by a link", false));
  const levelRow = h("label", { class: "level-row" }, "Level ", levelSelect);
  const colourBox = h("div", { class: "choices", role: "radiogroup", "aria-label": "Your colour" },
    radio("colour", "white", "White", true),
    radio("colour", "black", "Black", false),
    radio("colour", "random", "Random", false));
  const colourNote = h("p", { class: "history-note", id: "colour-note" }, "");
  const colourField = h("fieldset", { class: "field" }, h("legend", {}, "Your colour"), colourBox, colourNote);

  const playBtn = h("button", { type: "submit", class: "primary big", id: "play" }, "Play");
  const form = h("form", { class: "new-game", "aria-label": "New game" },
    h("h1", {}, "Play a game"),
    cards,
    optionField,
    h("fieldset", { class: "field" }, h("legend", {}, "Opponent"), opponentBox, levelRow),
    colourField,
    playBtn,
    error);

  const selected = (name: string) => (form.querySelector(`input[name="${name}"]:checked`) as HTMLInputElement | null)?.value ?? "";

  const refreshOptions = () => {
    const g = selected("game") as GameName;
    const sets = GAMES[g].options;
    const prev = selected("gopt");
    optionBox.textContent = "";
    sets.forEach((o, i) => optionBox.appendChild(radio("gopt", o.options, o.label, prev ? prev === o.options : i === 0)));
    if (!optionBox.querySelector("input:checked")) (optionBox.querySelector("input") as HTMLInputElement).checked = true;
    optionField.hidden = sets.length < 2;
    colourNote.textContent = GAMES[g].colourNote ?? "";
    colourNote.hidden = !GAMES[g].colourNote;
    if (levelsFor !== g) fillLevels();
    const opp = selected("opponent");
    levelRow.hidden = opp !== "computer";
    colourField.hidden = opp === "local";
  };
  form.addEventListener("change", refreshOptions);
  refreshOptions();

  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    error.textContent = "";
    const g = selected("game") as GameName;
    const options = selected("gopt");
    const opp = selected("opponent");
    let colour = selected("colour") as Side | "random";
    if (colour === "random") colour = Math.random() < 0.5 ? "white" : "black";
    const me: Side = opp === "local" ? "white" : colour;
    const other: Side = me === "white" ? "black" : "white";
    const computer = levelSelect.value;
    const players: Record<Side, string> = { white: "human", black: "human" };
    if (opp === "computer") players[other] = computer;
    playBtn.disabled = true;
    try {
      const c = await createGame(g, options, players.white, players.black);
      const seats: store.Saved["seats"] = {};
      if (opp === "link") seats[me] = c.seats[me];
      else {
        if (c.seats.white) seats.white = c.seats.white;
        if (c.seats.black) seats.black = c.seats.black;
      }
      const entry: store.Saved = {
        id: c.id, game: g, seats, created: Date.now(),
        opponent: opp === "computer" ? playerName(computer, levels) : opp === "local" ? "a friend on this screen" : "a friend by link",
      };
      if (opp === "link" && c.seats[other]) entry.invite = { side: other, token: c.seats[other] as string };
      store.put(entry);
      go(c.id, seats[me] ?? seats.white ?? seats.black);
    } catch (e) {
      error.textContent = `The game could not be created: ${(e as Error).message}`;
      playBtn.disabled = false;
    }
  });

  app.appendChild(form);
  app.appendChild(recentGames());
  app.appendChild(recordLoader());
}

// The games this browser holds a seat in (or created), newest first.
function recentGames(): HTMLElement {
  const list = store.loadAll();
  const sec = h("section", { class: "recent", "aria-labelledby": "recent-h" }, h("h2", { id: "recent-h" }, "Your games"));
  if (!list.length) {
    sec.appendChild(h("p", { class: "muted" }, "Games you start or join in this browser are listed here."));
    return sec;
  }
  const ul = h("ul", { class: "recent-list" });
  for (const s of list.slice(0, 20)) {
    const token = s.seats.white ?? s.seats.black;
    const href = `/games/${encodeURIComponent(s.id)}` + (token ? `?seat=${encodeURIComponent(token)}` : "");
    const status = h("span", { class: "recent-status" }, s.over ? s.result ?? "finished" : "…");
    const when = new Date(s.created).toLocaleString();
    const forget = h("button", { type: "button", class: "link-btn", "aria-label": `Forget the ${GAMES[s.game]?.name ?? s.game} game of ${when}` }, "forget");
    const li = h("li", { "data-id": s.id },
      h("a", { href }, `${GAMES[s.game]?.name ?? s.game} against ${s.opponent}`),
      h("span", { class: "muted" }, ` · ${when} · `), status, " ", forget);
    forget.addEventListener("click", () => {
      store.remove(s.id);
      li.remove();
    });
    ul.appendChild(li);
    if (!s.over) {
      getGame(s.id, token).then((g) => {
        if (g.over) {
          const r = g.winner === "draw" ? "drawn" : g.winner === "none" ? "finished" : `${g.winner} won`;
          status.textContent = r;
          store.update(s.id, { over: true, result: r });
        } else if (g.seat && g.tomove === g.seat) {
          status.textContent = "your turn";
          status.classList.add("your-turn");
        } else if (s.seats.white && s.seats.black) {
          status.textContent = `${g.tomove} to move`;
          status.classList.add("your-turn");
        } else {
          status.textContent = "waiting for the opponent";
        }
      }).catch((e) => {
        status.textContent = e instanceof ApiError && e.status === 404 ? "no longer on this server" : "unknown";
      });
    }
  }
  sec.appendChild(ul);
  return sec;
}

// Load a record (paste or file) and start a game from it.
function recordLoader(): HTMLElement {
  const area = h("textarea", { id: "record-text", rows: 6, "aria-label": "Game record", placeholder: "Paste a game record here, or choose a file." });
  const file = h("input", { type: "file", id: "record-file", accept: ".txt,.tav,text/plain", "aria-label": "Record file" });
  const err = h("p", { class: "error", role: "alert" });
  const btn = h("button", { type: "button", id: "record-load" }, "Open the record");
  file.addEventListener("change", async () => {
    const f = file.files && file.files[0];
    if (f) area.value = await f.text();
  });
  btn.addEventListener("click", async () => {
    err.textContent = "";
    if (!area.value.trim()) {
      err.textContent = "Paste a record or choose a file first.";
      return;
    }
    btn.disabled = true;
    try {
      const c = await loadRecord(area.value, "human", "human");
      const g = await getGame(c.id);
      store.put({ id: c.id, game: g.game, seats: c.seats, created: Date.now(), opponent: "a loaded record" });
      go(c.id, c.seats.white ?? c.seats.black);
    } catch (e) {
      err.textContent = `The record could not be read: ${(e as Error).message}`;
      btn.disabled = false;
    }
  });
  const link = h("p", { class: "muted" }, "The game opens at its last position; step through its moves in the move list, or play on.");
  const sec = h("details", { class: "record-loader" }, h("summary", {}, "Load a game record"), area, h("div", { class: "row" }, file, btn), link, err);
  return sec;
}
