// play.ts — /play/GAME?level=N&colour=white|black[&options=...][&new=1]: a
// game against the computer played in the page itself (local.ts), with the
// engine built for the browser.  Once the page is shown, nothing more is
// asked of the server: the engine, its worker and the games' words are all
// loaded first (and kept by the service worker, sw.js, for offline play).

import { h } from "./dom";
import { t } from "./i18n";
import { engineModule, engineSupported } from "./engine/client";
import { Engine } from "./engine/tav";
import { showLocalGame } from "./game";
import { GAMES, LocalGame } from "./local";
import type { GameName, Side } from "./types";

// The service worker in charge (the page and the engine kept for offline
// play), waited for a few seconds at most: its first install fetches the
// files now, not while the game is played.
async function offlineReady(): Promise<void> {
  if (!("serviceWorker" in navigator)) return;
  await Promise.race([navigator.serviceWorker.ready, new Promise((r) => setTimeout(r, 5000))]).catch(() => undefined);
}

export async function showPlay(app: HTMLElement, game: string, q: URLSearchParams): Promise<void> {
  app.className = "";
  app.textContent = "";
  const say = (s: string) => {
    app.textContent = "";
    app.appendChild(h("p", { class: "loading", id: "status" }, s));
  };
  if (!(GAMES as string[]).includes(game)) {
    say(t("play.noGame", { game }));
    return;
  }
  if (!engineSupported()) {
    say(t("play.noEngine"));
    return;
  }
  const lv = Number(q.get("level") ?? "3");
  const level = Number.isInteger(lv) && lv >= 0 && lv <= 10 ? lv : 3;
  const colour: Side = q.get("colour") === "black" ? "black" : "white";
  const options = q.get("options") ?? "";
  say(t("play.loadingEngine"));
  let local: LocalGame;
  let meta;
  try {
    const mod = await engineModule();
    const e = await Engine.create(mod);
    meta = e.meta();
    local = LocalGame.open(e, mod, game as GameName, level, colour, options, q.get("new") === "1");
    await local.warm();
    await offlineReady();
  } catch (e) {
    say(t("play.startFailed", { error: (e as Error).message }));
    return;
  }
  // a reload resumes this game (not a new one)
  if (q.has("new")) {
    q.delete("new");
    history.replaceState(null, "", `${location.pathname}?${q}`);
  }
  showLocalGame(app, local, meta);
}
