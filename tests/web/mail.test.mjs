// mail.test.mjs — e-mail on the page (docs/guide.md "E-mail"): on the shared
// server (no --smtp) the account page says mail is off; on a server of its
// own with a real SMTP server on loopback (tests/server/smtp.mjs): the
// account page's e-mail section sets an address, the verification mail's
// link opened in the browser verifies it, the switches and the digest show;
// a challenge's mail's unsubscribe link opened without signing in stops that
// kind.  In English at desktop width and in Italian at phone width
// (screenshots $BUILD/screenshots/mail-*.png), with no sideways overflow.

import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { freePort, startServer, until } from "../server/lib.mjs";
import { mails, startSink } from "../server/smtp.mjs";
import { screenshot } from "./harness.mjs";

const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 };

// Sign up on the page's own form (the page then knows it is signed in).
async function signUp(page, url, name) {
  const pw = `${name} password 1`;
  await page.goto(`${url}/signup`);
  await page.fill("#auth-name", name);
  await page.fill("#auth-password", pw);
  await page.fill("#auth-again", pw);
  await Promise.all([page.waitForURL((u) => !u.pathname.startsWith("/signup")), page.click("#auth-submit")]);
  return (await page.request.get(url + "/api/me")).status();
}

const overflow = (page) => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

export async function run(env) {
  const { tally } = env;
  // The shared server sends no mail: the page says so.
  {
    const page = await env.newPage("mail-off");
    tally.check("mail off: an account", await signUp(page, env.url, "mailoff") === 200);
    await page.goto(env.url + "/account");
    await page.waitForSelector("#mail-off");
    const txt = await page.textContent("#mail-off");
    tally.check("mail off: the account page says this server sends no e-mail", /sends no e-mail/.test(txt), txt);
    tally.check("mail off: no address field", (await page.$("#mail-address")) === null);
  }

  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "tav-webmail-"));
  const box = path.join(dir, "box");
  fs.mkdirSync(box);
  const smtpPort = await freePort(), port = await freePort();
  const sink = await startSink(smtpPort, box);
  process.env.TAVOLIERE_MAIL_POLL_MS = "100";
  const srv = await startServer({ port, db: path.join(dir, "mail.db"), args: ["--smtp", `smtp://127.0.0.1:${smtpPort}`, "--mail-from", "noreply@tavoliere.test", "--public-url", `http://127.0.0.1:${port}`] });
  const url = srv.base;
  try {
    for (const [label, opts, it, name, addr] of [["desktop-en", {}, false, "carla", "carla@example.org"],
      ["phone-it", { ...PHONE, locale: "it-IT" }, true, "dario", "dario@example.org"]]) {
      const page = await env.newPage(`mail-${label}`, opts, /status of 4\d\d/);
      tally.check(`${label}: an account`, await signUp(page, url, name) === 200);
      await page.goto(url + "/account");
      await page.waitForSelector("#mail-address");
      // The language switch keeps the choice in the account: the mails speak it.
      await page.click(`[data-lang=${it ? "it" : "en"}]`);
      await until(async () => (await (await page.request.get(url + "/api/me")).json()).lang === (it ? "it" : "en"), 30000);
      await page.waitForSelector("#mail-address");
      const h2 = await page.textContent("#mail-title");
      tally.check(`${label}: the e-mail section in ${it ? "Italian" : "English"}`, h2 === "E-mail" &&
        (await page.textContent("#mail")).includes(it ? "Gli altri giocatori non vedono mai il tuo indirizzo" : "Other players never see your address"));
      // A wrong address is refused on the page.
      await page.fill("#mail-address", "not an address");
      await page.click("#mail-save");
      await page.waitForSelector("#mail-error:not(:empty)");
      tally.check(`${label}: a wrong address is refused`, (await page.textContent("#mail-error")) === (it ? "Questo non è un indirizzo e-mail." : "That is not an e-mail address."));
      await page.fill("#mail-address", addr);
      await page.click("#mail-save");
      await page.waitForSelector("#mail-state[data-verified=false]");
      const done = await page.textContent("#mail-done");
      tally.check(`${label}: the page says a link was sent`, done.includes(addr), done);
      tally.check(`${label}: not verified yet, a button to send it again`, (await page.$("#mail-resend")) !== null);
      await screenshot(page, `mail-${label}-unverified`);
      const got = await until(() => mails(box).find((m) => m.to === addr), 20000);
      tally.check(`${label}: the verification mail arrived`, !!got);
      if (!got) continue;
      tally.check(`${label}: in the account's language`, it ? /conferma il tuo indirizzo/.test(got.subject) : /confirm your e-mail address/.test(got.subject), got.subject);
      const link = (got.body.match(/http:\/\/127\.0\.0\.1:\d+\/mail\/verify\?t=[A-Za-z0-9_-]+/) ?? [])[0];
      tally.check(`${label}: the mail holds the link`, !!link, got.body);
      await page.goto(link);
      await page.waitForSelector("#mail-link-state.good");
      const vtxt = await page.textContent("#mail-link-state");
      tally.check(`${label}: following the link verifies the address`, it ? /è verificato/.test(vtxt) : /is verified/.test(vtxt), vtxt);
      await page.goto(url + "/account");
      await page.waitForSelector("#mail-state[data-verified=true]");
      tally.check(`${label}: the account page says verified, every switch on`,
        await page.isChecked("#mail-kind-turn") && await page.isChecked("#mail-kind-challenge") && await page.isChecked("#mail-kind-tournament") && !(await page.isChecked("#mail-digest")));
      await page.check("#mail-digest");
      await page.waitForSelector("#mail-digest:checked:not([disabled])");
      const after = await page.request.get(url + "/api/me/mail");
      tally.check(`${label}: the digest switch is kept`, (await after.json()).digest === true);
      await page.uncheck("#mail-digest");
      await page.waitForSelector("#mail-digest:not(:checked):not([disabled])");
      tally.check(`${label}: no sideways overflow`, await overflow(page) <= 0, String(await overflow(page)));
      await page.locator("#mail").scrollIntoViewIfNeeded();
      await screenshot(page, `mail-${label}-account`);

      // A challenge's mail, its unsubscribe link opened signed out.
      const other = await env.newPage(`mail-${label}-other`, {});
      await signUp(other, url, `${name}x`);
      const s = await other.request.post(url + "/api/seeks", { data: { game: "urbino", options: "", rated: false, colour: "white", clock: { days: 2 }, to: name } });
      tally.check(`${label}: a challenge`, s.status() === 201);
      const cm = await until(() => mails(box).find((m) => m.to === addr && /(sfida|challenges)/.test(m.subject)), 20000);
      tally.check(`${label}: the challenge's mail arrived`, !!cm);
      if (!cm) continue;
      const unsub = (cm.body.match(/http:\/\/127\.0\.0\.1:\d+\/mail\/unsubscribe\?t=[A-Za-z0-9_-]+&k=challenge/) ?? [])[0];
      tally.check(`${label}: it holds an unsubscribe link`, !!unsub, cm.body);
      const anon = await env.newPage(`mail-${label}-anon`, opts);
      await anon.goto(unsub);
      await anon.waitForSelector("#unsub-button");
      const ask = await anon.textContent("#mail-link-state");
      tally.check(`${label}: the unsubscribe page asks first`, it ? /Smettere le e-mail per le sfide/.test(ask) : /Stop the mails about challenges/.test(ask), ask);
      await screenshot(anon, `mail-${label}-unsubscribe`);
      await anon.click("#unsub-button");
      await anon.waitForSelector("#mail-link-state.good");
      await screenshot(anon, `mail-${label}-unsubscribed`);
      const st = await (await page.request.get(url + "/api/me/mail")).json();
      tally.check(`${label}: unsubscribed without signing in: challenges off, the rest on`, st.kinds.challenge === false && st.kinds.turn === true, JSON.stringify(st));
    }
  } finally {
    // Its pages go before its server does (a signed-in page keeps the
    // player's channel open and would log the refused reconnection).
    for (const c of env.browser.contexts()) for (const p of c.pages()) if (p.url().startsWith(url)) await p.close().catch(() => {});
    await srv.stop();
    await sink.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
