// offline.test.mjs — issue 46: the installed app's start page works offline.
// On a server of its own: sign up, open the home page (the service worker
// takes the page in hand), start a game against the computer in the browser
// and make a move, then stop the server and open "/" again: the new-game form
// for the computer (in this browser, the other opponents not offered), the
// game kept in the browser with a link to go on, the name signed in with at
// the last visit, and a note saying the page is offline — no "the server
// cannot be reached" in place of the page.  Screenshots at 1280 and 390 px.

import { sleep, startServer } from "./harness.mjs";

const PASSWORD = "correct horse";

export async function run(env) {
  const { tally } = env;
  const srv = await startServer();
  const url = srv.url;
  const page = await env.newPage("offline-start", {}, /status of 401|Failed to load resource|net::ERR/);
  await page.goto(`${url}/signup`);
  await page.fill("#auth-name", "olga");
  await page.fill("#auth-password", PASSWORD);
  await page.fill("#auth-again", PASSWORD);
  await Promise.all([page.waitForURL((u) => !u.pathname.startsWith("/signup")), page.click("#auth-submit")]);
  await page.waitForSelector("#account-name");
  await page.goto(`${url}/`);
  await page.waitForSelector("#play");
  await page.waitForFunction(() => !!navigator.serviceWorker?.controller, null, { timeout: 20000 }).catch(() => {});
  tally.check("offline: the service worker controls the start page", await page.evaluate(() => !!navigator.serviceWorker?.controller));

  // A game against the computer kept in the browser (in-page play).
  await page.goto(`${url}/play/epaminondas?level=1&colour=white&new=1`);
  await page.waitForSelector("#board [data-square]", { timeout: 30000 });
  tally.check("the game in the page shows the name signed in with (no request for it)",
    (await page.textContent("#account-name").catch(() => "")) === "olga", await page.textContent("#account").catch(() => ""));
  const kept = await page.evaluate(() => Object.keys(localStorage).filter((k) => /^tavoliere\.play\./.test(k)).length);
  tally.check("offline: the game in the page is kept in the browser", kept > 0, String(kept));

  await srv.stop(tally);
  // With the server gone: the start page from the service worker.
  await page.goto(`${url}/`);
  const form = await page.waitForSelector("#play", { timeout: 20000 }).then(() => true).catch(() => false);
  tally.check("offline: the start page shows the new-game form", form, (await page.textContent("#app").catch(() => "")).slice(0, 200));
  const s = await page.evaluate(() => ({
    note: document.querySelector("#offline-note")?.textContent ?? "",
    cards: document.querySelectorAll(".game-card").length,
    inPage: (document.querySelector("#in-page"))?.checked,
    local: (document.querySelector('input[name="opponent"][value="local"]'))?.disabled,
    link: (document.querySelector('input[name="opponent"][value="link"]'))?.disabled,
    name: document.querySelector("#account-name")?.textContent ?? "",
    kept: [...document.querySelectorAll("a")].filter((a) => /^\/play\/epaminondas/.test(a.getAttribute("href") ?? "")).length,
    text: document.body.textContent ?? "",
  }));
  tally.check("offline: a note says the page is offline and who was signed in", /offline/.test(s.note) && /olga/.test(s.note), s.note);
  tally.check("offline: the four games to choose from", s.cards === 4, String(s.cards));
  tally.check("offline: the computer in this browser, the other opponents not offered", s.inPage === true && s.local === true && s.link === true, JSON.stringify(s));
  tally.check("offline: the name of the last visit in the header", /olga/.test(s.name), s.name);
  tally.check("offline: the game kept in the browser, one click to go on", s.kept >= 1, String(s.kept));
  tally.check("offline: no 'cannot be reached' in place of the page", !/cannot be reached/.test(s.text));
  await env.shot(page, "offline-start-1280");
  await page.setViewportSize({ width: 390, height: 844 });
  await env.shot(page, "offline-start-390");
  const wide = await page.evaluate(() => document.documentElement.scrollWidth);
  tally.check("offline: the start page fits 390 px", wide <= 390, String(wide));
  await page.setViewportSize({ width: 1280, height: 860 });
  // Play goes to the game in the page, still offline.
  await page.click("#play");
  const played = await page.waitForSelector("#board [data-square]", { timeout: 30000 }).then(() => true).catch(() => false);
  tally.check("offline: Play starts a game against the computer in the page", played && /\/play\//.test(page.url()), page.url());
  await sleep(10);
}
