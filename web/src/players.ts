// players.ts — a player's profile (/players/NAME: ratings per game, "?" while
// provisional, and the games, newest first, each a link to its game screen)
// with the rating history of each game played rated drawn as a plot (from
// each game's ratingAfter), and a game's leaderboard (/leaderboard/GAME).

import * as api from "./api";
import { ApiError } from "./api";
import { gameLine, plotPoints, ratingHistory, ratingText } from "./accounttext";
import { blockButton } from "./chat";
import { closedNote, reportButton } from "./moderation";
import { h } from "./dom";
import { el } from "./games/boardkit";
import { BOARDS } from "./games/index";
import { loadMeta, title } from "./meta";
import { botMark, profileBot } from "./bots";
import { currentUser } from "./account";
import { listen, openInbox } from "./inbox";
import type { Meta } from "./types";

import { dateTime, t } from "./i18n";

const GAMES = ["urbino", "toscana", "cathedral", "epaminondas"];
const playerLink = (name: string) => h("a", { href: `/players/${encodeURIComponent(name)}` }, name);

function gameNames(meta: Meta | null): string[] {
  return meta ? meta.games.map((g) => g.name).filter((n) => n in BOARDS) : GAMES;
}

// A rating history as an SVG plot: games along, rating up, the first and
// last values written at their points.
function ratingPlot(label: string, game: string, values: number[]): HTMLElement {
  const W = 320, H = 160, M = 24;
  const svg = el("svg", { viewBox: `0 0 ${W} ${H}`, class: "rating-plot", role: "img", "data-game": game,
    "aria-label": t("pl.plotLabel", { label, from: Math.round(values[0]), to: Math.round(values[values.length - 1]), n: values.length - 1 }) });
  const pts = plotPoints(values, W, H, M);
  el("line", { x1: M, y1: H - M, x2: W - M, y2: H - M, class: "axis" }, svg);
  el("line", { x1: M, y1: M, x2: M, y2: H - M, class: "axis" }, svg);
  el("polyline", { points: pts.map((q) => `${q.x.toFixed(1)},${q.y.toFixed(1)}`).join(" "), class: "history" }, svg);
  for (const q of pts) el("circle", { cx: q.x.toFixed(1), cy: q.y.toFixed(1), r: 3, class: "point" }, svg);
  const first = el("text", { x: pts[0].x + 4, y: pts[0].y - 6, class: "value" }, svg);
  first.textContent = String(Math.round(values[0]));
  const last = pts[pts.length - 1];
  const end = el("text", { x: last.x - 4, y: last.y - 6, class: "value end" }, svg);
  end.textContent = String(Math.round(values[values.length - 1]));
  const axis = el("text", { x: W / 2, y: H - 6, class: "axis-label" }, svg);
  axis.textContent = t("pl.ratedGames");
  return h("figure", { class: "rating-history" }, h("figcaption", {}, label), svg);
}

// A profile or a leaderboard follows the ratings: the lobby socket says
// when a rated game's new ratings are on disk, and the page is read again.
let following: (() => void) | null = null;
function follow(when: (game: string, names: string[]) => boolean, again: () => void): void {
  following?.();
  openInbox();
  following = listen((e) => {
    if (e.kind === "rated" && when(e.game, e.names)) again();
  });
}

export function showPlayer(app: HTMLElement, name: string): void {
  follow((_g, names) => names.some((n) => n.toLowerCase() === name.toLowerCase()), () => showPlayer(app, name));
  document.title = `${name} — Tavoliere`;
  app.className = "profile";
  app.textContent = "";
  const status = h("p", { class: "muted", role: "status" }, t("pl.loading"));
  app.appendChild(status);
  Promise.all([loadMeta().catch(() => null), api.player(name), currentUser().catch(() => null)]).then(([meta, p, me]) => {
    status.remove();
    document.title = `${p.name} — Tavoliere`;
    app.appendChild(h("h1", { id: "profile-name" }, p.name));
    if (p.closed) app.appendChild(closedNote());   // SPEC "Closing an account" (moderation.ts)
    // Block and Report buttons for a signed-in viewer of someone else's profile (chat.ts, moderation.ts).
    if (me && me.name.toLowerCase() !== p.name.toLowerCase() && !/^Computer-\d+$/.test(p.name)) {
      document.getElementById("profile-name")?.after(
        h("div", { class: "profile-mod", id: "profile-mod" }, blockButton(p.name), reportButton(p.name, null)));
    }
    if (p.bot) app.appendChild(profileBot(p.name, me));
    else if (me && !p.closed && me.name.toLowerCase() !== p.name.toLowerCase() && !/^Computer-\d+$/.test(p.name))
      // A challenge from the profile: the lobby's form, filled in for this player.
      app.appendChild(h("p", { class: "profile-actions" },
        h("a", { href: `/lobby?to=${encodeURIComponent(p.name)}`, class: "button", id: "challenge-player" }, t("pl.challenge"))));
    const table = h("table", { class: "ratings", id: "ratings" },
      h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("pl.game")), h("th", { scope: "col" }, t("pl.rating")),
        h("th", { scope: "col" }, t("pl.deviation")), h("th", { scope: "col" }, t("pl.ratedGamesCap")))));
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
    app.appendChild(h("section", { "aria-labelledby": "ratings-h" }, h("h2", { id: "ratings-h" }, t("pl.ratings")), table,
      h("p", { class: "muted note" }, t("pl.glicko"))));
    // The rating history, one plot per game played rated.
    const plots = h("div", { class: "rating-plots", id: "rating-plots" });
    for (const g of gameNames(meta)) {
      const hist = ratingHistory(p.games, g);
      if (hist.length) plots.appendChild(ratingPlot(title(meta, g), g, hist));
    }
    if (plots.childNodes.length)
      app.appendChild(h("section", { "aria-labelledby": "history-h" }, h("h2", { id: "history-h" }, t("pl.history")), plots));
    const games = h("ul", { class: "player-games", id: "player-games" });
    for (const g of p.games) {
      // The line in words, the opponent's name a link to their profile.
      const lower = p.name.toLowerCase();
      const oppSide = g.white?.toLowerCase() === lower ? "black" : g.black?.toLowerCase() === lower ? "white" : null;
      const opp = oppSide ? g[oppSide] : null;
      const MARK = "\u0001";
      const text = gameLine(p.name, oppSide && opp ? { ...g, [oppSide]: MARK } : g);
      const parts = text.split(MARK);
      const line: (Node | string)[] = [parts[0]];
      for (let i = 1; i < parts.length; i++) line.push(playerLink(opp as string), parts[i]);
      games.appendChild(h("li", { "data-id": g.id },
        h("a", { href: `/games/${encodeURIComponent(g.id)}` }, title(meta, g.game)), " ", ...line,
        g.created ? h("span", { class: "muted game-date" }, ` · ${dateTime(g.created * 1000, { dateStyle: "medium" })}`) : null));
    }
    app.appendChild(h("section", { "aria-labelledby": "pgames-h" }, h("h2", { id: "pgames-h" }, t("pl.games")),
      p.games.length ? games : h("p", { class: "muted" }, t("pl.noGames"))));
  }).catch((e) => {
    status.textContent = e instanceof ApiError && e.status === 404 ? t("pl.noPlayer", { name }) : t("pl.profileFailed", { error: (e as Error).message });
  });
}

export function showLeaderboard(app: HTMLElement, game: string): void {
  follow((g) => g === game, () => showLeaderboard(app, game));
  app.className = "leaderboard";
  app.textContent = "";
  const status = h("p", { class: "muted", role: "status" }, t("pl.loading"));
  app.appendChild(status);
  Promise.all([loadMeta().catch(() => null), api.leaderboard(game)]).then(([meta, lb]) => {
    status.remove();
    document.title = t("pl.lbTitle", { game: title(meta, game) });
    app.appendChild(h("h1", {}, t("pl.lbHeading", { game: title(meta, game) })));
    const tabs = h("nav", { class: "tabs", "aria-label": t("pl.gamesNav") });
    for (const g of gameNames(meta)) {
      tabs.appendChild(h("a", { href: `/leaderboard/${g}`, class: g === game ? "tab current" : "tab", "aria-current": g === game ? "page" : undefined }, title(meta, g)));
    }
    app.appendChild(tabs);
    if (!lb.players.length) {
      app.appendChild(h("p", { class: "muted", id: "leaders-empty" }, t("pl.noRated"), h("a", { href: "/lobby" }, t("pl.playOne")), "."));
      return;
    }
    const body = h("tbody");
    lb.players.forEach((p, i) => body.appendChild(h("tr", { "data-name": p.name },
      h("td", { class: "rank" }, String(i + 1)), h("th", { scope: "row" }, playerLink(p.name), p.bot ? " " : null, p.bot ? botMark() : null),
      h("td", { class: "rating" }, ratingText(p)), h("td", {}, String(p.games)))));
    app.appendChild(h("table", { class: "ratings", id: "leaders" },
      h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "#"), h("th", { scope: "col" }, t("pl.player")),
        h("th", { scope: "col" }, t("pl.rating")), h("th", { scope: "col" }, t("pl.ratedGamesCap")))), body));
    app.appendChild(h("p", { class: "muted note" }, t("pl.provisional")));
    if (lb.players.some((p) => p.bot)) app.appendChild(h("p", { class: "muted note", id: "bots-note" }, t("bot.ratingsNote")));
  }).catch((e) => {
    status.textContent = e instanceof ApiError && e.status === 404 ? t("pl.noGame", { game }) : t("pl.lbFailed", { error: (e as Error).message });
  });
}
