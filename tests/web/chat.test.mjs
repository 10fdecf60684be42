// chat.test.mjs — chat in a game on the page (issue 46), three browser
// contexts: two players (mia, noe) and a spectator (ola).  The players' lines
// reach the other player and never the spectator, the spectator's never the
// players; a quick phrase; a line with markup stays text; "mute this game's
// chat" hides it (kept across a reload); the block list: a Block button on a
// profile, the blocked player's lines never shown and their challenge
// refused, Unblock on the account page.  Screenshots at 1280 and 390 px.

import { sleep } from "./harness.mjs";

const PASSWORD = "correct horse";

async function until(fn, ms = 15000) {
  const t0 = Date.now();
  for (;;) {
    const v = await fn().catch(() => null);
    if (v || Date.now() - t0 > ms) return v;
    await sleep(100);
  }
}

async function signUp(page, url, name) {
  await page.goto(`${url}/signup`);
  await page.fill("#auth-name", name);
  await page.fill("#auth-password", PASSWORD);
  await page.fill("#auth-again", PASSWORD);
  await Promise.all([page.waitForURL((u) => !u.pathname.startsWith("/signup")), page.click("#auth-submit")]);
  await page.waitForSelector("#account-name");
}

const call = (page, method, path, body) => page.evaluate(async ([m, p, b]) => {
  const r = await fetch(p, { method: m, headers: b ? { "Content-Type": "application/json" } : {}, body: b ? JSON.stringify(b) : undefined });
  return { status: r.status, body: await r.json().catch(() => null) };
}, [method, path, body]);

// A line's words (its Report button, issue 51, left out).
const lines = (page) => page.$$eval("#chat-lines .chat-line", (els) => els.map((e) => {
  const c = e.cloneNode(true);
  for (const b of c.querySelectorAll("button")) b.remove();
  return c.textContent.trimEnd();
}));

async function say(page, text) {
  await page.fill("#chat-input", text);
  await page.click("#chat-send");
}

export async function run(env) {
  const { url, tally } = env;
  const allow = /status of (401|403|404|409)/;
  const pm = await env.newPage("chat-mia", {}, allow);
  const pn = await env.newPage("chat-noe", {}, allow);
  const po = await env.newPage("chat-ola", {}, allow);
  await signUp(pm, url, "mia");
  await signUp(pn, url, "noe");
  await signUp(po, url, "ola");
  const s = await call(pm, "POST", "/api/seeks", { game: "urbino", options: "", rated: false, colour: "white", clock: { days: 2 } });
  const a = await call(pn, "POST", `/api/seeks/${s.body.id}/accept`, {});
  const gid = a.body.game;
  tally.check("mia and noe have a game", a.status === 201 && !!gid, JSON.stringify(a));
  for (const p of [pm, pn, po]) await p.goto(`${url}/games/${gid}`);
  for (const p of [pm, pn, po]) await p.waitForSelector("#chat:not([hidden])");
  tally.check("the players see the players' chat", /Players' chat/.test(await pm.textContent("#chat-title")) && /Players' chat/.test(await pn.textContent("#chat-title")));
  tally.check("the spectator sees the spectators' chat", /Spectators' chat/.test(await po.textContent("#chat-title")), await po.textContent("#chat-title"));

  // Players' lines: the other player, never the spectator.
  await say(pm, "Hello noe <b>bold</b>");
  tally.check("noe sees mia's line", await until(async () => (await lines(pn)).includes("mia: Hello noe <b>bold</b>")), JSON.stringify(await lines(pn)));
  tally.check("... as text, never as markup", (await pn.$$("#chat-lines b")).length === 0);
  tally.check("mia's input is emptied (once her line is sent)", await until(async () => (await pm.inputValue("#chat-input")) === ""), await pm.inputValue("#chat-input").catch(() => "?"));
  await pn.click('.chat-phrase[data-phrase="luck"]');
  tally.check("a quick phrase: mia sees noe's \"Good luck\"", await until(async () => (await lines(pm)).includes("noe: Good luck")), JSON.stringify(await lines(pm)));
  // The spectator's line: other spectators, never the players.
  await say(po, "go mia");
  tally.check("ola sees her own line", await until(async () => (await lines(po)).includes("ola: go mia")));
  await sleep(500);
  tally.check("the spectator never sees the players' lines", !(await lines(po)).some((l) => /Hello noe|Good luck/.test(l)), JSON.stringify(await lines(po)));
  tally.check("the players never see the spectators' line", !(await lines(pm)).some((l) => /go mia/.test(l)) && !(await lines(pn)).some((l) => /go mia/.test(l)));
  await pm.fill("#chat-input", "x".repeat(141));
  tally.check("141 characters: the input keeps 140", (await pm.inputValue("#chat-input")).length === 140);
  await pm.fill("#chat-input", "");
  await env.shot(pm, "chat-players-1280");
  await env.shot(po, "chat-spectators-1280");
  await pm.setViewportSize({ width: 390, height: 844 });
  await pm.locator("#chat").scrollIntoViewIfNeeded();
  await env.shot(pm, "chat-players-390");
  const wide = await pm.evaluate(() => document.documentElement.scrollWidth);
  tally.check("the chat fits 390 px", wide <= 390, String(wide));
  await pm.setViewportSize({ width: 1280, height: 800 });

  // Mute, per game, kept in this browser.
  await pn.click("#chat-mute");
  tally.check("mute: noe's chat lines are hidden", await pn.isHidden("#chat-lines") && await pn.isVisible("#chat-muted"));
  await pn.reload();
  await pn.waitForSelector("#chat:not([hidden])");
  tally.check("... still muted after a reload", await pn.isHidden("#chat-lines"));
  await pn.click("#chat-mute");
  tally.check("unmute shows them again", await pn.isVisible("#chat-lines"));

  // Block noe from his profile: his lines never reach mia, his challenge is refused.
  await pm.goto(`${url}/players/noe`);
  await pm.waitForSelector("#block");
  await pm.click("#block");
  tally.check("the profile's Block button blocks noe", await until(async () => /You have blocked noe/.test(await pm.textContent("#block-state"))));
  await env.shot(pm, "chat-profile-block-1280");
  const ch = await call(pn, "POST", "/api/seeks", { game: "urbino", options: "", rated: false, colour: "white", clock: { days: 2 }, to: "mia" });
  tally.check("noe's challenge to mia is refused (403)", ch.status === 403, JSON.stringify(ch));
  await pm.goto(`${url}/games/${gid}`);
  await pm.waitForSelector("#chat:not([hidden])");
  await say(pn, "are you there");
  tally.check("noe still sees his own line", await until(async () => (await lines(pn)).includes("noe: are you there")));
  await sleep(800);
  tally.check("... it never reaches mia", !(await lines(pm)).some((l) => /are you there/.test(l)), JSON.stringify(await lines(pm)));
  tally.check("... nor her history (noe's earlier line gone too)", !(await lines(pm)).some((l) => /^noe:/.test(l)), JSON.stringify(await lines(pm)));
  // Unblock on the account page.
  await pm.goto(`${url}/account`);
  await pm.waitForSelector('#blocks li[data-name="noe"]');
  await pm.locator("#chat-settings").scrollIntoViewIfNeeded();
  await env.shot(pm, "chat-account-1280");
  await pm.click('#blocks .unblock[data-name="noe"]');
  tally.check("Unblock on the account page empties the list", await until(async () => /You have blocked nobody/.test(await pm.textContent("#blocks"))));
  await pm.check("#chat-off-rated");
  await until(async () => /Saved/.test(await pm.textContent("#chat-saved")));
  await pm.reload();
  await pm.waitForSelector("#chat-settings");
  tally.check("chat off in rated games: the setting is kept in the account",
    await until(async () => pm.isChecked("#chat-off-rated")) && (await call(pm, "GET", "/api/me/chat")).body.off_rated === true);
  await pm.uncheck("#chat-off-rated");
  await until(async () => /Saved/.test(await pm.textContent("#chat-saved")));
  await pm.setViewportSize({ width: 390, height: 844 });
  await pm.locator("#chat-settings").scrollIntoViewIfNeeded();
  await env.shot(pm, "chat-account-390");
  await pm.setViewportSize({ width: 1280, height: 800 });
  await pm.goto(`${url}/games/${gid}`);
  await pm.waitForSelector("#chat:not([hidden])");
  tally.check("after Unblock mia's history has noe's lines again", await until(async () => (await lines(pm)).includes("noe: are you there")));

  // Italian.
  await po.evaluate(() => localStorage.setItem("tavoliere.lang", "it"));
  await po.reload();
  await po.waitForSelector("#chat:not([hidden])");
  const itTitle = await po.textContent("#chat-title");
  tally.check("in Italian: the spectators' chat", /Chat degli spettatori/.test(itTitle), itTitle);
  await po.setViewportSize({ width: 390, height: 844 });
  await po.locator("#chat").scrollIntoViewIfNeeded();
  await env.shot(po, "chat-spectators-it-390");
  const itWide = await po.evaluate(() => document.documentElement.scrollWidth);
  tally.check("the Italian chat fits 390 px", itWide <= 390, String(itWide));
}
