// main.ts — the page's entry: the theme toggle, then the route on
// location.pathname: "/" the home page, "/games/ID" the game screen,
// "/rules/GAME" the rules page of a game, "/lobby", "/signin", "/signup",
// "/account", "/privacy", "/players/NAME", "/leaderboard/GAME", "/tournaments",
// "/tournaments/ID"; and the header's account
// menu (account.ts).

import { showMailLink } from "./mail";
import { showHome } from "./home";
import { showGame } from "./game";
import { showRules } from "./rules";
import { setupAccountMenu, showAccount, showAuth, showKeptName } from "./account";
import { showLobby } from "./lobby";
import { showTournament, showTournaments } from "./tournaments";
import { showLeaderboard, showPlayer } from "./players";
import { showPlay } from "./play";
import { has, initLang, lang, saveLang, savedLang, setLang, t, type Lang } from "./i18n";
import { currentUser } from "./account";
import { setMyLang } from "./api";
import { startNotices } from "./notices";
import { startPoolWatch } from "./pool";
import { showPrivacy } from "./moderation";

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
  } else if (/^\/tournaments\/?$/.test(location.pathname)) {
    showTournaments(app);
  } else if ((m = /^\/tournaments\/([^/]+)\/?$/.exec(location.pathname))) {
    showTournament(app, decodeURIComponent(m[1]));
  } else if ((m = /^\/(signin|signup)\/?$/.exec(location.pathname))) {
    showAuth(app, m[1] as "signin" | "signup");
  } else if (/^\/privacy\/?$/.test(location.pathname)) {
    showPrivacy(app);
  } else if (/^\/account\/?$/.test(location.pathname)) {
    showAccount(app);
  } else if ((m = /^\/mail\/(verify|unsubscribe)\/?$/.exec(location.pathname))) {
    showMailLink(app, m[1] as "verify" | "unsubscribe");
  } else if ((m = /^\/players\/([^/]+)\/?$/.exec(location.pathname))) {
    showPlayer(app, decodeURIComponent(m[1]));
  } else if ((m = /^\/leaderboard\/([^/]+)\/?$/.exec(location.pathname))) {
    showLeaderboard(app, decodeURIComponent(m[1]));
  } else {
    showHome(app);
  }
}

// The page's language (SPEC "Languages"): chosen at start (i18n.ts); the
// static texts of index.html carry data-i18n keys; the header's
// data-lang buttons switch it, keep the choice in this browser (and in the
// account when signed in) and show the page again in it.
function translateStatic(): void {
  for (const el of document.querySelectorAll<HTMLElement>("[data-i18n]")) {
    const k = el.dataset.i18n ?? "";
    if (has(k)) el.textContent = t(k);
  }
  for (const [attr, data] of [["aria-label", "i18nAriaLabel"], ["title", "i18nTitle"]] as const) {
    for (const el of document.querySelectorAll<HTMLElement>(`[data-${attr === "title" ? "i18n-title" : "i18n-aria-label"}]`)) {
      const k = el.dataset[data] ?? "";
      if (has(k)) el.setAttribute(attr, t(k));
    }
  }
  for (const b of document.querySelectorAll<HTMLElement>("[data-lang]")) {
    b.setAttribute("aria-pressed", b.dataset.lang === lang() ? "true" : "false");
  }
}

function setupLang(inPage: boolean): void {
  initLang();
  translateStatic();
  for (const b of document.querySelectorAll<HTMLElement>("[data-lang]")) {
    b.addEventListener("click", async () => {
      const l = b.dataset.lang as Lang;
      if (l !== "it" && l !== "en") return;
      saveLang(l);
      if (!inPage) {
        const me = await currentUser();
        if (me) await setMyLang(l).catch(() => { /* kept in this browser only */ });
      }
      if (l !== lang()) location.reload();
    });
  }
  // Signed in: the account's language wins over this browser's.
  if (!inPage) {
    void currentUser().then((me) => {
      if (me && (me.lang === "it" || me.lang === "en") && me.lang !== lang()) {
        saveLang(me.lang);
        if (savedLang() === me.lang) location.reload();   // never a loop when nothing can be kept
        else { setLang(me.lang); translateStatic(); }
      }
    });
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
setupLang(inPage);
setupTheme();
if (inPage) showKeptName();
else {
  setupAccountMenu();
  // Signed in: the player's channel on every page (notices, badge, title).
  void currentUser().then((me) => { if (me) { startNotices(me); startPoolWatch(); } });
}
registerServiceWorker();
route();
