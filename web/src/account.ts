// account.ts — the signed-in account in the page: who is signed in (GET
// /api/me, asked once per page), the account menu in the header (signed out:
// "Sign in" and "Sign up"; signed in: the name, opening Profile, Account and
// "Sign out"), the sign-in and sign-up pages (/signin, /signup, back to
// ?next= after), and the account page (/account: change the password).
// The session cookie is HttpOnly: the page never sees it, fetch sends it.
// So that a guest's page asks nothing (and logs no 401), this browser keeps
// a mark in localStorage while it has signed in; /api/me is asked only then,
// and a 401 takes the mark away.

import { mailSection } from "./mail";
import { chatSettingsSection } from "./chat";
import { accountDataSection } from "./moderation";
import * as api from "./api";
import { myGames } from "./inbox";
import { accountError, nameProblem, passwordProblem, sessionLine, type AccountAction } from "./accounttext";
import { ApiError } from "./api";
import { h } from "./dom";
import type { Me } from "./types";
import { dateTime, t } from "./i18n";
import { botSection } from "./bots";

let asked: Promise<Me | null> | null = null;
const MARK = "tavoliere.account";

function mark(name: string | null): void {
  try {
    if (name) localStorage.setItem(MARK, name);
    else localStorage.removeItem(MARK);
  } catch {
    /* not kept */
  }
}

function marked(): boolean {
  try {
    return !!localStorage.getItem(MARK);
  } catch {
    return true;
  }
}

/** The signed-in account (null when signed out or the server cannot say). */
export function currentUser(): Promise<Me | null> {
  asked ??= !marked() ? Promise.resolve(null) : api.me().then((m) => {
    mark(m ? m.name : null);
    return m;
  }).catch(() => {
    unreachable = true;
    return null;
  });
  return asked;
}

let unreachable = false;

/** The server could not be asked who is signed in (offline): the name this
 * browser was signed in with last, else null. */
export function offlineName(): string | null {
  if (!unreachable) return null;
  try {
    return localStorage.getItem(MARK);
  } catch {
    return null;
  }
}

/** Where to go after signing in: a path of this site only. */
export function nextPath(search: string): string {
  const n = new URLSearchParams(search).get("next") ?? "/";
  return n.startsWith("/") && !n.startsWith("//") ? n : "/";
}

const here = () => encodeURIComponent(location.pathname + location.search);

/** The header's account menu. */
/** A game played in the page asks the server nothing: the header shows the
 * name this browser is signed in with (kept at the last visit), a link to
 * the profile, and no menu. */
export function showKeptName(): void {
  const box = document.getElementById("account");
  let name: string | null = null;
  try {
    name = localStorage.getItem(MARK);
  } catch {
    name = null;
  }
  if (!box || !name) return;
  box.textContent = "";
  box.append(h("a", { class: "nav-link", id: "account-name", href: `/players/${encodeURIComponent(name)}`, title: t("acc.keptTitle") }, name));
  box.dataset.signedIn = "kept";
}

export function setupAccountMenu(): void {
  const box = document.getElementById("account");
  if (!box) return;
  currentUser().then((me) => {
    box.textContent = "";
    const away = !me ? offlineName() : null;
    if (away) {
      // Offline: the name of the last visit, without the menu (it needs the server).
      box.append(h("span", { class: "account-offline", id: "account-name", title: t("acc.offlineTitle") }, t("acc.offlineName", { name: away })));
      box.dataset.signedIn = "offline";
      return;
    }
    if (!me) {
      const onAuth = /^\/sign(in|up)/.test(location.pathname);
      const next = onAuth ? location.search : `?next=${here()}`;
      box.append(
        h("a", { class: "nav-link", id: "sign-in-link", href: `/signin${next}` }, t("acc.signIn")),
        h("a", { class: "nav-link", id: "sign-up-link", href: `/signup${next}` }, t("acc.signUp")));
      box.dataset.signedIn = "0";
      return;
    }
    const out = h("button", { type: "button", id: "sign-out", class: "menu-item" }, t("acc.signOut"));
    const menu = h("details", { class: "account-menu", id: "account-menu" },
      h("summary", { id: "account-name", "aria-label": t("acc.menuLabel", { name: me.name }) }, me.name),
      h("div", { class: "menu" },
        h("a", { class: "menu-item", href: `/players/${encodeURIComponent(me.name)}`, id: "menu-profile" }, t("acc.profile")),
        h("a", { class: "menu-item", href: "/account", id: "menu-account" }, t("acc.account")),
        out));
    let warned = 0;
    out.addEventListener("click", async () => {
      // Signing out while it is one's turn with a clock running: said first,
      // the second press signs out.
      const turns = myGames().filter((g) => g.yourTurn && g.clock && !("deadline" in g.clock)).length;
      if (turns && Date.now() - warned > 6000) {
        warned = Date.now();
        out.textContent = t("acc.signOutYourTurn", { n: turns });
        out.classList.add("danger");
        return;
      }
      out.disabled = true;
      mark(null);
      try {
        await api.signOut();
      } catch {
        /* signed out anyway as far as this page goes */
      }
      location.assign("/");
    });
    // a click elsewhere closes the menu
    document.addEventListener("click", (ev) => {
      if (menu.open && !menu.contains(ev.target as Node)) menu.open = false;
    });
    box.appendChild(menu);
    box.dataset.signedIn = "1";
  });
}

function field(label: string, input: HTMLInputElement, note = ""): HTMLElement {
  return h("label", { class: "form-field" }, h("span", { class: "form-label" }, label), input,
    note ? h("span", { class: "form-note muted" }, note) : null);
}

/** /signin and /signup: one form, two ways. */
export function showAuth(app: HTMLElement, mode: "signin" | "signup"): void {
  const up = mode === "signup";
  document.title = t("acc.docTitle", { what: up ? t("acc.signUp") : t("acc.signIn") });
  app.className = "form-page";
  app.textContent = "";
  const next = nextPath(location.search);
  const name = h("input", { type: "text", id: "auth-name", name: "username", autocomplete: "username", required: true, maxlength: 20, autocapitalize: "none", spellcheck: "false" });
  const pass = h("input", { type: "password", id: "auth-password", name: "password", autocomplete: up ? "new-password" : "current-password", required: true });
  const again = h("input", { type: "password", id: "auth-again", name: "again", autocomplete: "new-password" });
  const error = h("p", { class: "error", role: "alert", id: "auth-error" });
  const btn = h("button", { type: "submit", class: "primary", id: "auth-submit" }, up ? t("acc.create") : t("acc.signIn"));
  const other = up
    ? h("p", {}, t("acc.already"), h("a", { href: `/signin?next=${encodeURIComponent(next)}` }, t("acc.signIn")))
    : h("p", {}, t("acc.noAccount"), h("a", { href: `/signup?next=${encodeURIComponent(next)}` }, t("acc.signUp")), t("acc.takes"));
  const form = h("form", { class: "auth-form", "aria-label": up ? t("acc.signUp") : t("acc.signIn"), novalidate: true },
    h("h1", {}, up ? t("acc.signUp") : t("acc.signIn")),
    up ? h("p", { class: "muted" }, t("acc.why")) : null,
    field(t("acc.name"), name, up ? t("acc.nameNote") : ""),
    field(t("acc.password"), pass, up ? t("acc.pwNote") : ""),
    up ? field(t("acc.again"), again) : null,
    btn, error, other);
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    error.textContent = "";
    const n = name.value.trim();
    const problem = nameProblem(n) || passwordProblem(pass.value) || (up && again.value !== pass.value ? t("acc.differ") : "");
    if (problem && (up || !n || !pass.value)) {
      error.textContent = up ? problem : t("acc.enterBoth");
      (nameProblem(n) ? name : pass).focus();
      return;
    }
    btn.disabled = true;
    try {
      const r = up ? await api.signUp(n, pass.value) : await api.signIn(n, pass.value);
      mark(r.name);
      location.assign(next);
    } catch (e) {
      const action: AccountAction = up ? "signup" : "signin";
      error.textContent = e instanceof ApiError ? accountError(action, e.status, e.message, e.code) : String(e);
      btn.disabled = false;
    }
  });
  app.appendChild(form);
  name.focus();
}

/** /account: who is signed in, change the password, sign out. */
export function showAccount(app: HTMLElement): void {
  document.title = t("acc.yourAccountTitle");
  app.className = "form-page";
  app.textContent = "";
  currentUser().then((me) => {
    if (!me) {
      app.appendChild(h("section", { class: "auth-form" }, h("h1", {}, t("acc.yourAccount")),
        h("p", {}, t("acc.notSignedIn"), h("a", { href: "/signin?next=%2Faccount" }, t("acc.signInCap")), t("acc.or"),
          h("a", { href: "/signup?next=%2Faccount" }, t("acc.signupl")), ".")));
      return;
    }
    const old = h("input", { type: "password", id: "pw-old", autocomplete: "current-password" });
    const now = h("input", { type: "password", id: "pw-new", autocomplete: "new-password" });
    const again = h("input", { type: "password", id: "pw-again", autocomplete: "new-password" });
    const msg = h("p", { class: "error", role: "alert", id: "pw-error" });
    const done = h("p", { class: "good", role: "status", id: "pw-done" });
    const btn = h("button", { type: "submit", class: "primary", id: "pw-submit" }, t("acc.change"));
    const sessions = sessionsSection();
    const form = h("form", { class: "auth-form", "aria-label": t("acc.change"), novalidate: true },
      h("h1", {}, t("acc.yourAccount")),
      h("p", {}, t("acc.signedInAs"), h("strong", { id: "account-who" }, me.name), " · ",
        h("a", { href: `/players/${encodeURIComponent(me.name)}` }, t("acc.profileLink"))),
      h("h2", {}, t("acc.change")),
      field(t("acc.current"), old), field(t("acc.new"), now, t("acc.pwNote")), field(t("acc.newAgain"), again),
      btn, msg, done);
    form.addEventListener("submit", async (ev) => {
      ev.preventDefault();
      msg.textContent = "";
      done.textContent = "";
      const problem = !old.value ? t("acc.enterCurrent") : passwordProblem(now.value) || (now.value !== again.value ? t("acc.newDiffer") : "");
      if (problem) {
        msg.textContent = problem;
        return;
      }
      btn.disabled = true;
      try {
        await api.changePassword(old.value, now.value);
        done.textContent = t("acc.changed");
        form.reset();
        sessions.dispatchEvent(new Event("redraw"));
      } catch (e) {
        msg.textContent = e instanceof ApiError ? accountError("password", e.status, e.message, e.code) : String(e);
      } finally {
        btn.disabled = false;
      }
    });
    app.appendChild(form);
    app.appendChild(mailSection());
    app.appendChild(sessions);
    app.appendChild(botSection(me));
    app.appendChild(chatSettingsSection());   // chat off in rated games, blocked players (chat.ts)
    app.appendChild(accountDataSection());    // download one's data, close the account (moderation.ts)
  });
}

// The account's sessions (browsers signed in), the others ended with a click.
function sessionsSection(): HTMLElement {
  const list = h("ul", { class: "sessions", id: "sessions" });
  const msg = h("p", { class: "error", role: "alert", id: "sessions-error" });
  const endOthers = h("button", { type: "button", id: "end-others" }, t("acc.endOthers"));
  const draw = async () => {
    try {
      const ss = await api.sessions();
      list.textContent = "";
      for (const x of ss) {
        const li = h("li", { "data-id": x.id, class: x.current ? "current" : "" },
          sessionLine(x, (s) => dateTime(s * 1000)));
        if (!x.current) {
          const b = h("button", { type: "button", class: "end-session" }, t("acc.endThere"));
          b.addEventListener("click", async () => {
            b.disabled = true;
            try { await api.endSession(x.id); } catch (e) { msg.textContent = String((e as Error).message); }
            void draw();
          });
          li.appendChild(document.createTextNode(" "));
          li.appendChild(b);
        }
        list.appendChild(li);
      }
      endOthers.hidden = ss.filter((x) => !x.current).length === 0;
    } catch (e) {
      msg.textContent = t("acc.sessionsFailed", { error: (e as Error).message });
    }
  };
  endOthers.addEventListener("click", async () => {
    endOthers.disabled = true;
    try {
      for (const x of await api.sessions()) if (!x.current) await api.endSession(x.id);
    } catch (e) {
      msg.textContent = String((e as Error).message);
    }
    endOthers.disabled = false;
    void draw();
  });
  void draw();
  const section = h("section", { class: "auth-form", "aria-labelledby": "sessions-h" },
    h("h2", { id: "sessions-h" }, t("acc.whereSignedIn")), list, endOthers, msg);
  section.addEventListener("redraw", () => void draw());   // after a password change
  return section;
}
