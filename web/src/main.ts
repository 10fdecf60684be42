// main.ts — the page's entry: the theme toggle, then the route on
// location.pathname: "/" the home page, "/games/ID" the game screen,
// "/rules/GAME" the rules page of a game, "/lobby", "/signin", "/signup",
// "/account", "/players/NAME", "/leaderboard/GAME"; and the header's account
// menu (account.ts).

import { showHome } from "./home";
import { showGame } from "./game";
import { showRules } from "./rules";
import { setupAccountMenu, showAccount, showAuth } from "./account";
import { showLobby } from "./lobby";
import { showLeaderboard, showPlayer } from "./players";
import { showPlay } from "./play";

const THEME_KEY = "tavoliere.theme";

function applyTheme(t: string | null): void {
  if (t === "light" || t === "dark") document.documentElement.dataset.theme = t;
  else delete document.documentElement.dataset.theme;
}

function currentTheme(): "light" | "dark" {
  const t = document.documentElement.dataset.theme;
  if (t === "light" || t === "dark") return t;
  return window.matchMedia && window.matchMedia("(prefers-color-scheme: dark)").matches ? "dark" : "light";
}

function setupTheme(): void {
  let saved: string | null = null;
  try {
    saved = localStorage.getItem(THEME_KEY);
  } catch {
    saved = null;
  }
  applyTheme(saved);
  const btn = document.getElementById("theme");
  if (!btn) return;
  const label = () => btn.setAttribute("aria-pressed", currentTheme() === "dark" ? "true" : "false");
  label();
  btn.addEventListener("click", () => {
    const next = currentTheme() === "dark" ? "light" : "dark";
    applyTheme(next);
    try {
      localStorage.setItem(THEME_KEY, next);
    } catch {
      /* not saved */
    }
    label();
    document.dispatchEvent(new CustomEvent("tav-theme"));
  });
}

function route(): void {
  const app = document.getElementById("app");
  if (!app) return;
  let m: RegExpExecArray | null;
  if ((m = /^\/play\/([^/]+)\/?$/.exec(location.pathname))) {
    void showPlay(app, decodeURIComponent(m[1]), new URLSearchParams(location.search));
  } else if ((m = /^\/games\/([^/]+)\/?$/.exec(location.pathname))) {
    showGame(app, decodeURIComponent(m[1]), new URLSearchParams(location.search).get("seat"));
  } else if ((m = /^\/rules\/([^/]+)\/?$/.exec(location.pathname))) {
    showRules(app, decodeURIComponent(m[1]));
  } else if (/^\/lobby\/?$/.test(location.pathname)) {
    showLobby(app);
  } else if ((m = /^\/(signin|signup)\/?$/.exec(location.pathname))) {
    showAuth(app, m[1] as "signin" | "signup");
  } else if (/^\/account\/?$/.test(location.pathname)) {
    showAccount(app);
  } else if ((m = /^\/players\/([^/]+)\/?$/.exec(location.pathname))) {
    showPlayer(app, decodeURIComponent(m[1]));
  } else if ((m = /^\/leaderboard\/([^/]+)\/?$/.exec(location.pathname))) {
    showLeaderboard(app, decodeURIComponent(m[1]));
  } else {
    showHome(app);
  }
}

// The service worker (sw.js): keeps the page and the engine, so the
// computer can be played with no network once the site was opened.
function registerServiceWorker(): void {
  if (!("serviceWorker" in navigator)) return;
  navigator.serviceWorker.register("/sw.js").catch(() => { /* no offline play, the rest works */ });
}

// A game played in the page asks the server nothing: no account menu there.
const inPage = /^\/play\//.test(location.pathname);
setupTheme();
if (!inPage) setupAccountMenu();
registerServiceWorker();
route();
