// moderation.ts — what the page offers of issue 51 (SPEC "Closing an
// account, one's data, reports and moderation"; docs/server-api.md): the
// account page's "Download my data" (GET /api/me/export, a file) and "Close
// my account" (a dialog asking the password again and saying what happens);
// a Report button (profiles, a game's menu, beside another player's chat
// lines) opening a small dialog (reason and note); a closed account's
// profile line; the privacy page (/privacy), linked from every page's
// footer, with the retention the server gives in /api/meta.

import { h } from "./dom";
import { t } from "./i18n";

async function send<T>(method: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(path, {
    method,
    headers: body === undefined ? {} : { "Content-Type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
    cache: "no-store",
  });
  const data = await res.json().catch(() => null);
  if (!res.ok) {
    const e = new Error(data && typeof data.error === "string" ? data.error : `error ${res.status}`) as Error & { status: number };
    e.status = res.status;
    throw e;
  }
  return data as T;
}

// A modal dialog appended to the body; removed once closed.
function modal(id: string, title: string, ...content: (Node | string)[]): HTMLDialogElement {
  document.getElementById(id)?.remove();
  const d = h("dialog", { class: "mod-dialog", id, "aria-labelledby": `${id}-h` },
    h("h2", { id: `${id}-h` }, title), ...content);
  d.addEventListener("close", () => d.remove());
  document.body.appendChild(d);
  d.showModal();
  return d;
}

/** The account page's section: download one's data, close the account. */
export function accountDataSection(): HTMLElement {
  const download = h("a", { href: "/api/me/export", download: "", class: "button", id: "export-data" }, t("mod.download"));
  const close = h("button", { type: "button", class: "danger", id: "close-account" }, t("mod.close"));
  close.addEventListener("click", () => closeDialog());
  return h("section", { class: "auth-form", id: "account-data", "aria-labelledby": "account-data-h" },
    h("h2", { id: "account-data-h" }, t("mod.dataTitle")),
    h("p", { class: "muted" }, t("mod.downloadNote")), h("p", {}, download),
    h("h2", { id: "close-h" }, t("mod.closeTitle")),
    h("p", { class: "muted" }, t("mod.closeNote")), h("p", {}, close));
}

function closeDialog(): void {
  const pw = h("input", { type: "password", id: "close-password", autocomplete: "current-password", required: true });
  const msg = h("p", { class: "error", role: "alert", id: "close-error" });
  const ok = h("button", { type: "submit", class: "danger", id: "close-confirm" }, t("mod.closeConfirm"));
  const cancel = h("button", { type: "button", id: "close-cancel" }, t("mod.cancel"));
  const form = h("form", { method: "dialog", class: "mod-form" },
    h("p", {}, t("mod.closeWhat")),
    h("ul", { class: "mod-list" },
      h("li", {}, t("mod.closeGames")), h("li", {}, t("mod.closeSeeks")),
      h("li", {}, t("mod.closeName")), h("li", {}, t("mod.closeResults")), h("li", {}, t("mod.closeSignOut"))),
    h("label", { for: "close-password" }, t("mod.closePassword")), pw, msg,
    h("div", { class: "mod-buttons" }, cancel, ok));
  const d = modal("close-dialog", t("mod.closeTitle"), form);
  cancel.addEventListener("click", () => d.close());
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    msg.textContent = "";
    if (!pw.value) {
      msg.textContent = t("mod.closeNeedPassword");
      return;
    }
    ok.disabled = true;
    try {
      await send("POST", "/api/account/close", { password: pw.value });
      d.close();
      location.assign("/");   // signed out: the home page as anyone sees it
    } catch (e) {
      const st = (e as { status?: number }).status;
      msg.textContent = st === 401 ? t("mod.closeWrong") : st === 429 ? t("mod.tooMany") : t("mod.closeFailed", { error: (e as Error).message });
    } finally {
      ok.disabled = false;
    }
  });
  pw.focus();
}

/** A Report button for `name` (a game's id, or null). */
export function reportButton(name: string, game: string | null, small = false): HTMLButtonElement {
  const b = h("button", { type: "button", class: small ? "report-link small" : "report-link", "data-report": name },
    small ? t("mod.reportShort") : t("mod.report"));
  b.setAttribute("aria-label", t("mod.reportLabel", { name }));
  b.addEventListener("click", () => reportDialog(name, game));
  return b;
}

function reportDialog(name: string, game: string | null): void {
  const reasons = [["cheating", t("mod.reason.cheating")], ["abuse", t("mod.reason.abuse")], ["other", t("mod.reason.other")]] as const;
  const radios = reasons.map(([r, words], i) => {
    const input = h("input", { type: "radio", name: "report-reason", value: r, id: `report-${r}`, checked: i === 0 });
    return h("label", { class: "check", for: `report-${r}` }, input, " ", words);
  });
  const note = h("textarea", { id: "report-text", maxlength: 1000, rows: 4 });
  const msg = h("p", { class: "error", role: "alert", id: "report-error" });
  const ok = h("button", { type: "submit", class: "primary", id: "report-send" }, t("mod.reportSend"));
  const cancel = h("button", { type: "button", id: "report-cancel" }, t("mod.cancel"));
  const form = h("form", { method: "dialog", class: "mod-form" },
    h("p", { class: "muted" }, t("mod.reportNote")),
    h("fieldset", {}, h("legend", {}, t("mod.reason")), ...radios),
    h("label", { for: "report-text" }, t("mod.reportText")), note, msg,
    h("div", { class: "mod-buttons" }, cancel, ok));
  const d = modal("report-dialog", t("mod.reportTitle", { name }), form);
  cancel.addEventListener("click", () => d.close());
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    msg.textContent = "";
    const reason = (form.querySelector("input[name=report-reason]:checked") as HTMLInputElement | null)?.value ?? "other";
    if (new TextEncoder().encode(note.value).length > 1000) {
      msg.textContent = t("mod.reportLong");
      return;
    }
    ok.disabled = true;
    try {
      await send("POST", "/api/reports", { name, game, reason, text: note.value });
      form.replaceWith(h("div", { class: "mod-form" },
        h("p", { class: "good", role: "status", id: "report-done" }, t("mod.reportDone")),
        h("div", { class: "mod-buttons" }, closeBtn(d))));
    } catch (e) {
      const st = (e as { status?: number }).status;
      msg.textContent = st === 429 ? t("mod.reportLimit") : t("mod.reportFailed", { error: (e as Error).message });
      ok.disabled = false;
    }
  });
}

function closeBtn(d: HTMLDialogElement): HTMLButtonElement {
  const b = h("button", { type: "button", class: "primary", id: "report-close" }, t("mod.ok"));
  b.addEventListener("click", () => d.close());
  queueMicrotask(() => b.focus());
  return b;
}

/** A closed account's profile says so. */
export function closedNote(): HTMLElement {
  return h("p", { class: "closed-note", id: "profile-closed", role: "status" }, t("mod.closedProfile"));
}

/** The privacy page. */
export function showPrivacy(app: HTMLElement): void {
  document.title = t("mod.privacyTitle");
  app.className = "form-page privacy";
  app.textContent = "";
  const keep = h("p", { id: "privacy-retention" }, t("mod.privacyKeepLoading"));
  void send<{ retentionDays?: number }>("GET", "/api/meta").then((m) => {
    const n = typeof m.retentionDays === "number" ? m.retentionDays : null;
    keep.textContent = n === 0 ? t("mod.privacyKeepForever") : t("mod.privacyKeep", { days: n === null ? "?" : String(n) });
  }).catch(() => { keep.textContent = t("mod.privacyKeepUnknown"); });
  app.appendChild(h("article", { class: "auth-form privacy-page" },
    h("h1", {}, t("mod.privacyHeading")),
    h("p", {}, t("mod.privacyIntro")),
    h("h2", {}, t("mod.privacyWhatH")),
    h("ul", {},
      h("li", {}, t("mod.privacyAccount")), h("li", {}, t("mod.privacyGames")), h("li", {}, t("mod.privacyRatings")),
      h("li", {}, t("mod.privacyChat")), h("li", {}, t("mod.privacyReports")), h("li", {}, t("mod.privacyMail"))),
    h("h2", {}, t("mod.privacyHowLongH")), keep,
    h("p", {}, t("mod.privacyGamesKept")),
    h("h2", {}, t("mod.privacyYoursH")),
    h("p", {}, t("mod.privacyYours"), " ", h("a", { href: "/account" }, t("mod.privacyAccountLink")), ".")));
}
