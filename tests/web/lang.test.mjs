// lang.test.mjs — the page's two languages (SPEC "Languages"): a browser
// preferring Italian (locale it-IT) gets the home page, the lobby, a game
// against the computer, a rules page and the account page in Italian, with
// <html lang="it">; one preferring English (en-US) gets them in English; the
// header's data-lang switch changes the language, the choice kept after a
// reload (this browser) and, signed in, in the account (another browser
// signing in gets it); Italian at desktop and phone width with no sideways
// overflow of the page (screenshots in $BUILD/screenshots/lang-*.png).

import { api, newGameFromHome, pageCall, screenshot, until } from "./harness.mjs";

const PASSWORD = "a long password 1";
const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 };

async function texts(page) {
  return page.evaluate(() => ({
    lang: document.documentElement.lang,
    h1: (document.querySelector("h1")?.textContent ?? "").trim(),
    nav: [...document.querySelectorAll("header .nav-link")].map((a) => a.textContent.trim()).join("|"),
    overflow: document.documentElement.scrollWidth - window.innerWidth,
  }));
}

async function pages(env, label, opts, it) {
  const { url, tally } = env;
  // the sign-up refused below (a common password) logs its 400
  const page = await env.newPage(label, opts, /status of 400/);
  const L = it ? "it" : "en";
  await page.goto(url + "/");
  await page.waitForSelector("#play");
  let x = await texts(page);
  tally.check(`${label}: home in ${L} (<html lang>, heading, header)`, x.lang === L &&
    x.h1 === (it ? "Gioca una partita" : "Play a game") && x.nav.startsWith(it ? "Nuova partita|Sala" : "New game|Lobby"), JSON.stringify(x));
  tally.check(`${label}: home: no sideways overflow`, x.overflow <= 0, String(x.overflow));
  const play = (await page.textContent("#play")).trim();
  tally.check(`${label}: home: the play button`, play === (it ? "Gioca" : "Play"), play);
  await screenshot(page, `lang-${label}-home`);

  await page.goto(url + "/lobby");
  await page.waitForSelector("#no-seeks, .seek");
  x = await texts(page);
  tally.check(`${label}: lobby in ${L}`, x.lang === L && x.h1 === (it ? "Sala: gioca con le persone" : "Lobby: play people"), JSON.stringify(x));
  tally.check(`${label}: lobby: no sideways overflow`, x.overflow <= 0, String(x.overflow));
  await screenshot(page, `lang-${label}-lobby`);

  await page.goto(url + "/rules/cathedral");
  await page.waitForSelector(".rules-diagram figcaption");
  x = await texts(page);
  const rules = await page.evaluate(() => ({
    h2: [...document.querySelectorAll(".rules-text h2")].map((e) => e.textContent).join("|"),
    cap: document.querySelector(".rules-diagram figcaption")?.textContent ?? "",
    pitch: document.querySelector(".rules-pitch")?.textContent ?? "",
  }));
  tally.check(`${label}: rules page in ${L}`, x.h1 === (it ? "Cathedral: le regole" : "Cathedral: the rules") &&
    (it ? /^Lo scopo\|La preparazione\|Il turno/.test(rules.h2) && /cattedrale/i.test(rules.cap) && /Costruisci/.test(rules.pitch)
      : /^The goal\|Setup\|A turn/.test(rules.h2) && /Cathedral/.test(rules.cap)), JSON.stringify({ x, rules }));
  tally.check(`${label}: rules: no sideways overflow`, x.overflow <= 0, String(x.overflow));
  await screenshot(page, `lang-${label}-rules`);

  await page.goto(url + "/account");
  await page.waitForSelector("h1");
  x = await texts(page);
  tally.check(`${label}: account page in ${L}`, x.h1 === (it ? "Il tuo account" : "Your account"), JSON.stringify(x));

  await page.goto(url + "/signup");
  await page.waitForSelector("#auth-submit");
  const btn = (await page.textContent("#auth-submit")).trim();
  tally.check(`${label}: sign-up page in ${L}`, btn === (it ? "Crea l'account" : "Create the account"), btn);
  await screenshot(page, `lang-${label}-signup`);
  // a refusal of the server in the page's language: its code's text in
  // Italian, the server's own sentence in English (docs/server-api.md
  // "Refusals and their codes")
  await page.fill("#auth-name", `common${label.replace(/[^a-z]/g, "")}`);
  await page.fill("#auth-password", "password1234");
  await page.fill("#auth-again", "password1234");
  await page.click("#auth-submit");
  const refusedText = await until(async () => {
    const s = (await page.textContent("#auth-error"))?.trim() ?? "";
    return s ? s : null;
  }, 30000) ?? "";
  await screenshot(page, `lang-${label}-refused`);
  tally.check(`${label}: a refusal in ${L}`, it ? /password è tra le più comuni/.test(refusedText) && !/one of the most common/.test(refusedText)
    : /that password is one of the most common ones/.test(refusedText), refusedText);

  await newGameFromHome(page, url, { game: "urbino", opponent: "computer", level: "random", colour: "black" });
  await page.waitForFunction(() => /Tocca a te|Your turn/.test(document.querySelector("#status")?.textContent ?? ""), null, { timeout: 20000 });
  const game = await page.evaluate(() => ({
    status: document.querySelector("#status")?.textContent ?? "",
    resign: document.querySelector("#resign")?.textContent ?? "",
    flip: document.querySelector("#flip")?.textContent ?? "",
    lang: document.documentElement.lang,
    overflow: document.documentElement.scrollWidth - window.innerWidth,
    title: document.title,
  }));
  tally.check(`${label}: a game against the computer in ${L}`, game.lang === L && (it
    ? game.status === "Tocca a te" && game.resign === "Abbandona" && game.flip === "Gira il tavoliere"
    : game.status === "Your turn" && game.resign === "Resign" && game.flip === "Flip board"), JSON.stringify(game));
  tally.check(`${label}: game: no sideways overflow of the page`, game.overflow <= 0, String(game.overflow));
  await screenshot(page, `lang-${label}-game`);
  // how a finished game ended, as the game library says it (view.end), in
  // the page's language (libend.ts): a computer-only Toscana game
  {
    const made = await api(url, "POST", "/api/games", { game: "toscana", options: "", white: "random", black: "random" });
    const over = await until(async () => {
      const g = (await api(url, "GET", `/api/games/${made.data.id}`)).data;
      return g.over ? g : null;
    }, 60000);
    await page.goto(`${url}/games/${made.data.id}`);
    await page.waitForFunction(() => !document.querySelector("#end-reason")?.hidden, null, { timeout: 20000 });
    const said = (await page.textContent("#end-reason")).trim();
    await page.$eval("#end-reason", (e) => e.scrollIntoView({ block: "center" }));
    await screenshot(page, `lang-${label}-end`);
    tally.check(`${label}: how the game ended, in ${L}`, !!over && (it
      ? /(vince il (Bianco|Nero)|pareggio)\./.test(said) && !/\b(wins|draw|tiles|largest)\b/.test(said)
      : said.includes(over.view.end)), `${said} | ${over?.view?.end}`);
  }
  if (it) {
    // the boards with the most words of their own: Cathedral's hands, Toscana's stacks and veto
    for (const g of ["cathedral", "toscana"]) {
      await newGameFromHome(page, url, { game: g, opponent: "computer", level: "random", colour: "white" });
      await page.waitForTimeout(500);
      const o = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      tally.check(`${label}: ${g} in Italian: no sideways overflow of the page`, o <= 0, String(o));
      await screenshot(page, `lang-${label}-${g}`);
    }
  }
  await page.context().close();
}

async function signUp(page, url, name) {
  await page.goto(`${url}/signup`);
  await page.fill("#auth-name", name);
  await page.fill("#auth-password", PASSWORD);
  await page.fill("#auth-again", PASSWORD);
  await Promise.all([page.waitForURL((u) => !u.pathname.startsWith("/signup")), page.click("#auth-submit")]);
  await page.waitForSelector("#account-name");
}

export async function run(env) {
  const { url, tally } = env;
  await pages(env, "it-desktop", { locale: "it-IT" }, true);
  await pages(env, "it-phone", { locale: "it-IT", ...PHONE }, true);
  await pages(env, "en-desktop", { locale: "en-US" }, false);

  // The switch, kept in this browser.
  const page = await env.newPage("lang-switch", { locale: "en-US" });
  await page.goto(url + "/");
  await page.waitForSelector("#play");
  const both = await page.evaluate(() => [...document.querySelectorAll("[data-lang]")].map((b) => b.getAttribute("data-lang")).sort().join(","));
  tally.check("the header holds data-lang=\"it\" and data-lang=\"en\"", both === "en,it", both);
  await Promise.all([page.waitForNavigation(), page.click('[data-lang="it"]')]);
  await page.waitForSelector("#play");
  let x = await texts(page);
  tally.check("the switch: Italian after data-lang=it", x.lang === "it" && x.h1 === "Gioca una partita", JSON.stringify(x));
  await page.reload();
  await page.waitForSelector("#play");
  x = await texts(page);
  tally.check("the switch: still Italian after a reload", x.lang === "it" && x.h1 === "Gioca una partita", JSON.stringify(x));
  await page.goto(url + "/lobby");
  await page.waitForSelector("#no-seeks, .seek");
  x = await texts(page);
  tally.check("the switch: Italian on the other pages too", x.lang === "it" && x.h1 === "Sala: gioca con le persone", JSON.stringify(x));
  await Promise.all([page.waitForNavigation(), page.click('[data-lang="en"]')]);
  await page.waitForSelector("h1");
  x = await texts(page);
  tally.check("the switch: back to English with data-lang=en", x.lang === "en" && x.h1 === "Lobby: play people", JSON.stringify(x));
  await page.context().close();

  // A game between two accounts with a clock (correspondence: the time left
  // in words), one player Italian and one English, and each one's profile:
  // each page in its reader's language.
  {
    const stamp = Date.now() % 100000;
    const pi = await env.newPage("lang-duel-it", { locale: "it-IT" });
    const pe = await env.newPage("lang-duel-en", { locale: "en-US" });
    const ni = `lang_it_${stamp}`, ne = `lang_en_${stamp}`;
    await signUp(pi, url, ni);
    await signUp(pe, url, ne);
    const seek = await pageCall(pi, "POST", "/api/seeks", { game: "urbino", options: "", rated: false, colour: "white", clock: { days: 2 } });
    const acc = await pageCall(pe, "POST", `/api/seeks/${seek.body?.id}/accept`, {});
    const id = acc.body?.game;
    tally.check("two accounts: a correspondence game begins", seek.status === 201 && !!id, JSON.stringify([seek, acc]));
    for (const [p, it, who] of [[pi, true, "it"], [pe, false, "en"]]) {
      await p.goto(`${url}/games/${id}`);
      await p.waitForSelector("#clock-white");
      await p.waitForFunction(() => (document.querySelector("#clock-white")?.textContent ?? "").trim().length > 0, null, { timeout: 30000 });
      const seen = await p.evaluate(() => ({
        lang: document.documentElement.lang,
        status: document.querySelector("#status")?.textContent ?? "",
        clock: document.querySelector("#clock-white")?.textContent ?? "",
        resign: document.querySelector("#resign")?.textContent ?? "",
        overflow: document.documentElement.scrollWidth - window.innerWidth,
      }));
      tally.check(`two accounts: the game with its clock in ${who}`, it
        ? seen.lang === "it" && /^(Tocca a te|In attesa di)/.test(seen.status) && /^2 g\/mossa$/.test(seen.clock.trim()) && seen.resign === "Abbandona"
        : seen.lang === "en" && /^(Your turn|Waiting for)/.test(seen.status) && /^2 d\/move$/.test(seen.clock.trim()) && seen.resign === "Resign", JSON.stringify(seen));
      tally.check(`two accounts: no sideways overflow (${who})`, seen.overflow <= 0, String(seen.overflow));
      await screenshot(p, `lang-duel-${who}`);
      await p.goto(`${url}/players/${it ? ne : ni}`);
      await p.waitForSelector("h1");
      await p.waitForFunction(() => document.querySelector("#app")?.textContent?.length > 40, null, { timeout: 30000 });
      const prof = await p.evaluate(() => ({ lang: document.documentElement.lang, text: document.querySelector("#app")?.textContent ?? "" }));
      tally.check(`two accounts: a profile in ${who}`, it ? prof.lang === "it" && /Partite|partite|Valutazione|Classifica|Sfida/.test(prof.text)
        : prof.lang === "en" && /Games|games|Rating|Challenge/.test(prof.text), prof.text.slice(0, 300));
      await screenshot(p, `lang-profile-${who}`);
    }
    await pi.context().close();
    await pe.context().close();
  }

  // Signed in: the choice kept in the account; another browser signing in gets it.
  const a = await env.newPage("lang-account", { locale: "en-US" });
  const name = `lang_${Date.now() % 100000}`;
  await signUp(a, url, name);
  await a.goto(url + "/account");
  await a.waitForSelector("#account-who");
  await Promise.all([a.waitForNavigation(), a.click('[data-lang="it"]')]);
  await a.waitForSelector("#account-who");
  x = await texts(a);
  const me = await a.evaluate(async () => (await fetch("/api/me")).json());
  tally.check("signed in: the switch keeps the language in the account", x.lang === "it" && x.h1 === "Il tuo account" && me.lang === "it",
    JSON.stringify({ x, lang: me.lang }));
  await a.context().close();
  const b = await env.newPage("lang-account-2", { locale: "en-US" });
  await b.goto(url + `/signin?next=${encodeURIComponent("/account")}`);
  await b.fill("#auth-name", name);
  await b.fill("#auth-password", PASSWORD);
  await Promise.all([b.waitForURL((u) => u.pathname === "/account"), b.click("#auth-submit")]);
  await b.waitForFunction(() => document.documentElement.lang === "it" && document.querySelector("h1")?.textContent === "Il tuo account",
    null, { timeout: 30000 }).catch(() => {});
  x = await texts(b);
  tally.check("another browser (English) signing in gets the account's Italian", x.lang === "it" && x.h1 === "Il tuo account", JSON.stringify(x));
  await b.context().close();
}
