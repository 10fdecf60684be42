// players.ts — a player's profile (/players/NAME: ratings per game, "?" while
// provisional, and the games, newest first, each a link to its game screen)
// and a game's leaderboard (/leaderboard/GAME).  The API keeps no rating
// history, so there is no rating plot.

import * as api from "./api";
import { ApiError } from "./api";
import { gameLine, ratingText } from "./accounttext";
import { h } from "./dom";
import { BOARDS } from "./games/index";
import { loadMeta, title } from "./meta";
import type { Meta } from "./types";

const GAMES = ["urbino", "toscana", "cathedral", "epaminondas"];
const playerLink = (name: string) => h("a", { href: `/players/${encodeURIComponent(name)}` }, name);

function gameNames(meta: Meta | null): string[] {
  return meta ? meta.games.map((g) => g.name).filter((n) => n in BOARDS) : GAMES;
}

export function showPlayer(app: HTMLElement, name: string): void {
  document.title = `${name} — Tavoliere`;
  app.className = "profile";
  app.textContent = "";
  const status = h("p", { class: "muted", role: "status" }, "Loading…");
  app.appendChild(status);
  Promise.all([loadMeta().catch(() => null), api.player(name)]).then(([meta, p]) => {
    status.remove();
    document.title = `${p.name} — Tavoliere`;
    app.appendChild(h("h1", { id: "profile-name" }, p.name));
    const table = h("table", { class: "ratings", id: "ratings" },
      h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Game"), h("th", { scope: "col" }, "Rating"),
        h("th", { scope: "col" }, "Deviation"), h("th", { scope: "col" }, "Rated games"))));
    const body = h("tbody");
    for (const g of gameNames(meta)) {
      const r = p.ratings[g];
      body.appendChild(h("tr", { "data-game": g },
        h("th", { scope: "row" }, h("a", { href: `/leaderboard/${g}` }, title(meta, g))),
        h("td", { class: "rating" }, r ? ratingText(r) : "—"),
        h("td", {}, r ? `±${Math.round(r.rd * 2)}` : ""),
        h("td", {}, r ? String(r.games) : "0")));
    }
    table.appendChild(body);
    app.appendChild(h("section", { "aria-labelledby": "ratings-h" }, h("h2", { id: "ratings-h" }, "Ratings"), table,
      h("p", { class: "muted note" }, "Glicko-2: every player starts at 1500. A \"?\" marks a provisional rating (few games yet); the deviation is twice the rating deviation, about 95% sure. No rating history is kept, so there is no graph.")));
    const games = h("ul", { class: "player-games", id: "player-games" });
    for (const g of p.games) {
      games.appendChild(h("li", { "data-id": g.id },
        h("a", { href: `/games/${encodeURIComponent(g.id)}` }, title(meta, g.game)), " ", gameLine(p.name, g)));
    }
    app.appendChild(h("section", { "aria-labelledby": "pgames-h" }, h("h2", { id: "pgames-h" }, "Games"),
      p.games.length ? games : h("p", { class: "muted" }, "No games yet.")));
  }).catch((e) => {
    status.textContent = e instanceof ApiError && e.status === 404 ? `There is no player called ${name}.` : `The profile could not be loaded: ${(e as Error).message}`;
  });
}

export function showLeaderboard(app: HTMLElement, game: string): void {
  app.className = "leaderboard";
  app.textContent = "";
  const status = h("p", { class: "muted", role: "status" }, "Loading…");
  app.appendChild(status);
  Promise.all([loadMeta().catch(() => null), api.leaderboard(game)]).then(([meta, lb]) => {
    status.remove();
    document.title = `${title(meta, game)} leaderboard — Tavoliere`;
    app.appendChild(h("h1", {}, `Leaderboard: ${title(meta, game)}`));
    const tabs = h("nav", { class: "tabs", "aria-label": "Games" });
    for (const g of gameNames(meta)) {
      tabs.appendChild(h("a", { href: `/leaderboard/${g}`, class: g === game ? "tab current" : "tab", "aria-current": g === game ? "page" : undefined }, title(meta, g)));
    }
    app.appendChild(tabs);
    if (!lb.players.length) {
      app.appendChild(h("p", { class: "muted", id: "leaders-empty" }, "No rated games of this game yet. ", h("a", { href: "/lobby" }, "Play one in the lobby"), "."));
      return;
    }
    const body = h("tbody");
    lb.players.forEach((p, i) => body.appendChild(h("tr", { "data-name": p.name },
      h("td", { class: "rank" }, String(i + 1)), h("th", { scope: "row" }, playerLink(p.name)),
      h("td", { class: "rating" }, ratingText(p)), h("td", {}, String(p.games)))));
    app.appendChild(h("table", { class: "ratings", id: "leaders" },
      h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "#"), h("th", { scope: "col" }, "Player"),
        h("th", { scope: "col" }, "Rating"), h("th", { scope: "col" }, "Rated games"))), body));
    app.appendChild(h("p", { class: "muted note" }, "A \"?\" marks a provisional rating (few games yet)."));
  }).catch((e) => {
    status.textContent = e instanceof ApiError && e.status === 404 ? `There is no game called ${game}.` : `The leaderboard could not be loaded: ${(e as Error).message}`;
  });
}
