// mail.ts — e-mail in the page (docs/server-api.md "E-mail"): the account
// page's section (the address, whether it is verified, a switch per kind of
// message, the daily digest), and the two pages the mails link to:
// /mail/verify?t=TOKEN (confirms the address) and /mail/unsubscribe?t=TOKEN&k=KIND
// (asks, then stops that kind of mail; no sign-in needed: the token stands
// for the account).

import { h } from "./dom";
import { refusal, t, type Key } from "./i18n";

export interface MailSettings {
  on: boolean;
  address: string | null;
  verified: boolean;
  kinds: { turn: boolean; challenge: boolean; tournament: boolean };
  digest: boolean;
  perHour: number;
}

type Kind = "turn" | "challenge" | "tournament";
const KINDS: Kind[] = ["turn", "challenge", "tournament"];

class MailError extends Error {
  constructor(public status: number, message: string) { super(message); }
}

async function mailCall<T>(method: string, path: string, body?: unknown): Promise<T> {
  let res: Response;
  try {
    res = await fetch(path, {
      method,
      headers: body === undefined ? {} : { "Content-Type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
      cache: "no-store",
    });
  } catch {
    throw new MailError(0, t("err.unreachable"));
  }
  const text = await res.text();
  let data: unknown = null;
  try { data = text ? JSON.parse(text) : null; } catch { data = null; }
  if (!res.ok) throw new MailError(res.status, refusal(res.status, data, res.statusText || `error ${res.status}`));
  return data as T;
}

function problem(e: unknown): string {
  if (e instanceof MailError) {
    if (e.status === 400) return t("mail.page.bad");
    if (e.status === 429) return t("mail.page.tooMany");
    if (e.status === 0) return e.message;
  }
  return t("mail.page.failed");
}

function check(id: string, label: string, on: boolean): [HTMLLabelElement, HTMLInputElement] {
  const box = h("input", { type: "checkbox", id, checked: on });
  return [h("label", { class: "mail-check", for: id }, box, " ", label), box];
}

/** The account page's e-mail section. */
export function mailSection(): HTMLElement {
  const sec = h("section", { class: "auth-form mail-settings", id: "mail", "aria-labelledby": "mail-title" },
    h("h2", { id: "mail-title" }, t("mail.page.title")));
  const msg = h("p", { class: "error", role: "alert", id: "mail-error" });
  const done = h("p", { class: "good", role: "status", id: "mail-done" });
  const draw = (s: MailSettings, note = ""): void => {
    sec.replaceChildren(sec.firstChild as Node);
    sec.appendChild(h("p", { class: "muted" }, t("mail.page.intro")));
    if (!s.on && !s.address) {
      sec.appendChild(h("p", { id: "mail-off", class: "mail-off" }, t("mail.page.off")));
      return;
    }
    if (!s.on) sec.appendChild(h("p", { id: "mail-off", class: "mail-off" }, t("mail.page.off")));
    const input = h("input", { type: "email", id: "mail-address", autocomplete: "email", maxlength: 254, value: s.address ?? "", spellcheck: "false" });
    const save = h("button", { type: "submit", class: "primary", id: "mail-save" }, t("mail.page.save"));
    const form = h("form", { id: "mail-form", novalidate: true, "aria-label": t("mail.page.address") },
      h("label", { class: "form-field" }, h("span", { class: "form-label" }, t("mail.page.address")), input),
      h("div", { class: "mail-buttons" }, save,
        s.address ? h("button", { type: "button", id: "mail-remove" }, t("mail.page.remove")) : null));
    sec.appendChild(form);
    const act = async (body: Record<string, unknown>, after = ""): Promise<void> => {
      msg.textContent = "";
      done.textContent = "";
      for (const b of sec.querySelectorAll("button, input")) (b as HTMLButtonElement).disabled = true;
      try {
        await mailCall("POST", "/api/me/mail", body);
        const next = await mailCall<MailSettings>("GET", "/api/me/mail");
        draw(next, after || t("mail.page.saved"));
      } catch (e) {
        for (const b of sec.querySelectorAll("button, input")) (b as HTMLButtonElement).disabled = false;
        msg.textContent = problem(e);
      }
    };
    form.addEventListener("submit", (ev) => {
      ev.preventDefault();
      const a = input.value.trim();
      if (a && !/^[^\s@<>"(),;:[\]\\]+@[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)+$/.test(a)) {
        msg.textContent = t("mail.page.bad");
        return;
      }
      void act({ address: a }, a && a !== s.address ? t("mail.page.sent", { address: a }) : "");
    });
    sec.querySelector("#mail-remove")?.addEventListener("click", () => void act({ address: "" }));
    if (s.address) {
      const state = h("p", { id: "mail-state", "data-verified": s.verified ? "true" : "false" },
        h("span", { class: s.verified ? "mail-verified" : "mail-unverified" }, s.verified ? t("mail.page.verified") : t("mail.page.unverified")));
      if (!s.verified && s.on) {
        const again = h("button", { type: "button", id: "mail-resend" }, t("mail.page.resend"));
        again.addEventListener("click", () => void act({ resend: true }, t("mail.page.sent", { address: s.address ?? "" })));
        state.append(again);
      }
      sec.appendChild(state);
      const boxes = h("fieldset", { class: "mail-kinds", id: "mail-kinds" }, h("legend", {}, t("mail.page.kinds")));
      for (const k of KINDS) {
        const [label, box] = check(`mail-kind-${k}`, t(`mail.page.kind.${k}` as Key), s.kinds[k]);
        box.addEventListener("change", () => void act({ kinds: { [k]: box.checked } }));
        boxes.appendChild(label);
      }
      sec.appendChild(boxes);
      const [dl, db] = check("mail-digest", t("mail.page.digest"), s.digest);
      db.addEventListener("change", () => void act({ digest: db.checked }));
      sec.appendChild(dl);
    }
    sec.appendChild(h("p", { class: "form-note muted", id: "mail-limit" }, t("mail.page.limit", { n: s.perHour })));
    sec.append(msg, done);
    done.textContent = note;
  };
  mailCall<MailSettings>("GET", "/api/me/mail").then((s) => draw(s)).catch((e) => {
    sec.append(msg);
    msg.textContent = problem(e);
  });
  return sec;
}

function kindText(k: string): string {
  return k === "turn" || k === "challenge" || k === "tournament" ? t(`mail.kind.${k}` as Key) : "";
}

/** /mail/verify and /mail/unsubscribe: the pages the mails link to. */
export function showMailLink(app: HTMLElement, what: "verify" | "unsubscribe"): void {
  const q = new URLSearchParams(location.search);
  const token = q.get("t") ?? "";
  const kind = q.get("k") ?? "all";
  app.className = "form-page";
  app.textContent = "";
  const title = what === "verify" ? t("mail.verify.title") : t("mail.unsub.title");
  document.title = `${title} · Tavoliere`;
  const out = h("p", { role: "status", id: "mail-link-state" });
  const sec = h("section", { class: "auth-form", id: "mail-link" }, h("h1", {}, title), out);
  app.appendChild(sec);
  const account = h("p", { class: "muted" }, h("a", { href: "/account" }, t("mail.unsub.account")));
  if (what === "verify") {
    out.textContent = t("mail.verify.working");
    mailCall("POST", "/api/mail/verify", { token }).then(() => {
      out.textContent = t("mail.verify.done");
      out.className = "good";
      sec.appendChild(account);
    }).catch((e) => {
      out.textContent = e instanceof MailError && e.status === 404 ? t("mail.verify.bad") : problem(e);
      out.className = "error";
    });
    return;
  }
  const all = !kindText(kind);
  out.textContent = all ? t("mail.unsub.askAll") : t("mail.unsub.ask", { kind: kindText(kind) });
  const btn = h("button", { type: "button", class: "primary", id: "unsub-button" }, t("mail.unsub.button"));
  sec.appendChild(btn);
  btn.addEventListener("click", async () => {
    btn.disabled = true;
    try {
      await mailCall("POST", "/api/mail/unsubscribe", { token, kind: all ? "all" : kind });
      out.textContent = all ? t("mail.unsub.doneAll") : t("mail.unsub.done", { kind: kindText(kind) });
      out.className = "good";
      btn.remove();
      sec.appendChild(account);
    } catch (e) {
      out.textContent = e instanceof MailError && e.status === 404 ? t("mail.unsub.bad") : problem(e);
      out.className = "error";
      btn.disabled = false;
    }
  });
}
