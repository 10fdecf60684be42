// rules.ts — "/rules/GAME": a newcomer's rules page for one game, with a few
// diagrams.  The title, the pitch and the rules themselves come from
// /api/meta (the game library's words, meta.ts).  Every diagram is a real
// position: the page loads one short record (a legal game prefix made with
// `tavoliere engine`, in rules-diagrams.json, read by diagrams.ts) through
// POST /api/records, asks the server for the view after given plies, and
// draws each with a board of the game's own (no input).

import * as api from "./api";
import { t } from "./i18n";
import { h } from "./dom";
import { BOARDS } from "./games/index";
import { captionText, gameMeta, loadMeta, rulesElements } from "./meta";
import { PAGES, recordText } from "./diagrams";
import type { BoardContext, GameMeta, GameName, Meta } from "./types";

// The page's diagrams all come from one record; its game id is kept for the
// tab's life so going back and forth does not load it again.
const loaded: Partial<Record<GameName, Promise<string>>> = {};

export function showRules(app: HTMLElement, name: string): void {
  app.textContent = "";
  document.title = t("rules.title");
  const status = h("p", { class: "muted", role: "status" }, t("rules.loading"));
  app.appendChild(status);
  loadMeta().then((meta) => {
    app.textContent = "";
    page(app, meta, name);
  }).catch((e) => {
    status.textContent = t("rules.failed", { error: (e as Error).message });
  });
}

function page(app: HTMLElement, meta: Meta, name: string): void {
  const games = meta.games.filter((x) => x.name in PAGES);
  const info = games.find((x) => x.name === name);
  const others = h("nav", { class: "rules-nav", "aria-label": t("rules.otherGames") },
    ...games.map((o) => h("a", { href: `/rules/${o.name}`, "aria-current": o === info ? "page" : null }, o.title)));
  if (!info) {
    app.appendChild(h("div", { class: "rules-page" },
      h("h1", {}, t("rules.noSuchGame")), h("p", {}, t("rules.noRules", { name })), others));
    return;
  }
  const g = info.name as GameName;
  document.title = t("rules.docTitle", { game: info.title });
  const text = h("div", { class: "rules-text" }, ...rulesElements(gameMeta(meta, g), "h2"));
  const status = h("p", { class: "muted", role: "status" }, t("rules.loadingDiagrams"));
  const figs = h("div", { class: "rules-diagrams" });
  app.appendChild(h("article", { class: "rules-page", "data-game": g },
    h("p", { class: "rules-back" }, h("a", { href: "/" }, t("rules.allGames"))),
    h("h1", {}, t("rules.heading", { game: info.title })),
    h("p", { class: "rules-pitch" }, info.pitch),
    text,
    h("h2", {}, t("rules.positions")),
    status,
    figs,
    h("p", {}, h("a", { class: "button", href: "/" }, t("rules.play", { game: info.title }))),
    others));
  void drawDiagrams(info, figs, status);
}

async function drawDiagrams(info: GameMeta, figs: HTMLElement, status: HTMLElement): Promise<void> {
  const g = info.name as GameName;
  const page = PAGES[g];
  try {
    loaded[g] ??= api.loadRecord(recordText(g), "human", "human").then((c) => c.id);
    const id = await loaded[g];
    const views = await Promise.all(page.diagrams.map((d) => api.viewAt(id, d.ply)));
    page.diagrams.forEach((d, i) => {
      const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
      svg.setAttribute("class", "board rules-board");
      svg.setAttribute("preserveAspectRatio", "xMidYMid meet");
      svg.setAttribute("role", "img");
      svg.setAttribute("aria-label", t("rules.boardAfter", { game: info.title, ply: d.ply }));
      svg.dataset.ply = String(d.ply);
      const ctx: BoardContext = { svg, orientation: "white", submit: () => {}, say: () => {} };
      BOARDS[g]().draw(ctx, views[i].view, [], null);
      const cap = h("figcaption", {}, h("strong", {}, d.ply ? t("rules.afterMove", { ply: d.ply }) : t("rules.start")), captionText(g, i, d.caption));
      figs.appendChild(h("figure", { class: "rules-diagram" }, svg, cap));
    });
    status.textContent = "";
    status.hidden = true;
  } catch (e) {
    delete loaded[g];
    status.textContent = t("rules.diagramsFailed", { error: (e as Error).message });
  }
}
