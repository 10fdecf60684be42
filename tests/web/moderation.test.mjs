// moderation.test.mjs — issue 51 on the page: the account page's "Download
// my data" (a file, the export) and "Close my account" (the dialog says in
// words what happens, asks the password again; a wrong one is refused;
// afterwards the page is signed out and the profile says the account is
// closed); the Report button on a profile, in a game's menu and beside
// another player's chat line (a dialog with a reason and a note, then a
// confirmation; the report is in the reporter's export); the privacy page
// from the footer, with the server's retention.  Screenshots at 1280 and
// 390 px.

import { readFileSync } from "node:fs";
import { pageCall, signUp, until } from "./harness.mjs";

const PASSWORD = "correct horse";

export async function run(env) {
  const { url, tally } = env;
  const allow = /status of (401|403|404|409)/;
  const pk = await env.newPage("mod-closer", { acceptDownloads: true }, allow);
  const pr = await env.newPage("mod-reporter", {}, allow);
  const px = await env.newPage("mod-reported", {}, allow);
  await signUp(pk, url, "modk");
  await signUp(pr, url, "modr");
  await signUp(px, url, "modx");

  // The privacy page from the footer.
  await pr.goto(url + "/");
  await pr.waitForSelector("#privacy-link");
  await Promise.all([pr.waitForURL((u) => u.pathname === "/privacy"), pr.click("#privacy-link")]);
  tally.check("the footer's Privacy link opens /privacy", new URL(pr.url()).pathname === "/privacy");
  const keep = await until(async () => {
    const s = await pr.textContent("#privacy-retention");
    return /\d+ days/.test(s) ? s : null;
  });
  tally.check("... which says how long chat lines and reports are kept (from /api/meta)", !!keep, keep);
  const priv = await pr.textContent("main");
  tally.check("... what is stored (account, games, ratings, chat, reports, e-mail)",
    /account/i.test(priv) && /games/i.test(priv) && /ratings/i.test(priv) && /chat/i.test(priv) && /[Rr]eports/.test(priv) && /e-mail/i.test(priv), priv.slice(0, 300));
  tally.check("... and how to download one's data and close the account", /download/i.test(priv) && /close/i.test(priv) && !!(await pr.$('main a[href="/account"]')));
  await env.shot(pr, "mod-privacy-1280");
  await pr.setViewportSize({ width: 390, height: 844 });
  await env.shot(pr, "mod-privacy-390");
  await pr.setViewportSize({ width: 1280, height: 800 });

  // Report from a profile.
  await pr.goto(`${url}/players/modx`);
  await pr.waitForSelector('#app button[data-report="modx"]');
  await env.shot(pr, "mod-profile-1280");
  await pr.click('#app button[data-report="modx"]');
  await pr.waitForSelector("#report-dialog[open]");
  tally.check("the report dialog offers cheating, abuse, other",
    (await pr.$$eval("#report-dialog input[name=report-reason]", (els) => els.map((e) => e.value))).join() === "cheating,abuse,other");
  await pr.check("#report-abuse");
  await pr.fill("#report-text", "rude words in our game");
  await env.shot(pr, "mod-report-dialog-1280");
  await pr.click("#report-send");
  tally.check("... sent: a confirmation", !!(await until(async () => (await pr.$("#report-done")) && /Thank you/.test(await pr.textContent("#report-done")))));
  await pr.click("#report-close");
  tally.check("... which closes", await until(async () => !(await pr.$("#report-dialog"))));

  // A game between modr and modx: the game's menu and the chat lines.
  const s = await pageCall(pr, "POST", "/api/seeks", { game: "urbino", options: "", rated: false, colour: "white", clock: { days: 2 } });
  const a = await pageCall(px, "POST", `/api/seeks/${s.body.id}/accept`, {});
  const gid = a.body?.game;
  tally.check("modr and modx have a game", a.status === 201 && !!gid, JSON.stringify(a));
  const line = await pageCall(px, "POST", `/api/games/${gid}/chat`, { text: "you are terrible" });
  tally.check("modx writes a line", line.status === 201, JSON.stringify(line));
  await pr.goto(`${url}/games/${gid}`);
  await pr.waitForSelector('#report-slot button[data-report="modx"]');
  tally.check("the game's menu has Report for the opponent", true);
  await pr.waitForSelector('#chat-lines .chat-line button[data-report="modx"]');
  const own = await pageCall(pr, "POST", `/api/games/${gid}/chat`, { text: "please stop" });
  tally.check("modr writes a line too", own.status === 201);
  await until(async () => (await pr.$$("#chat-lines .chat-line")).length === 2);
  const buttons = await pr.$$eval("#chat-lines .chat-line", (els) => els.map((e) => !!e.querySelector("button[data-report]")));
  tally.check("a Report button beside the other player's line, none beside one's own", buttons.join() === "true,false", buttons.join());
  await pr.locator("#chat").scrollIntoViewIfNeeded();
  await env.shot(pr, "mod-game-chat-1280");
  await pr.click('#chat-lines .chat-line button[data-report="modx"]');
  await pr.waitForSelector("#report-dialog[open]");
  await pr.check("#report-other");
  await pr.fill("#report-text", "from the chat");
  await pr.setViewportSize({ width: 390, height: 844 });
  await env.shot(pr, "mod-report-dialog-390");
  await pr.click("#report-send");
  tally.check("a report from the chat: confirmed", !!(await until(async () => pr.$("#report-done"))));
  const ex = await pageCall(pr, "GET", "/api/me/export");
  const reps = (ex.body?.reports ?? []).map((r) => [r.name, r.reason, r.game, r.text]);
  tally.check("both reports are in the reporter's export (the chat's with its game)",
    JSON.stringify(reps) === JSON.stringify([["modx", "other", gid, "from the chat"], ["modx", "abuse", null, "rude words in our game"]]), JSON.stringify(reps));
  await pr.setViewportSize({ width: 1280, height: 800 });

  // The account page: download, then close.
  await pk.goto(`${url}/account`);
  await pk.waitForSelector("#export-data");
  tally.check("the account page links the export as a download",
    (await pk.getAttribute("#export-data", "href")) === "/api/me/export" && (await pk.getAttribute("#export-data", "download")) !== null);
  const [dl] = await Promise.all([pk.waitForEvent("download"), pk.click("#export-data")]);
  tally.check("... the download's file is named for the account", /tavoliere-modk\.json$/.test(dl.suggestedFilename()), dl.suggestedFilename());
  const file = JSON.parse(readFileSync(await dl.path(), "utf8"));
  tally.check("... and holds the export (name, created, ratings, games)",
    file.name === "modk" && typeof file.created === "number" && typeof file.ratings === "object" && Array.isArray(file.games), JSON.stringify(file).slice(0, 200));
  await pk.locator("#close-account").scrollIntoViewIfNeeded();
  await env.shot(pk, "mod-account-1280");
  await pk.click("#close-account");
  await pk.waitForSelector("#close-dialog[open]");
  const words = await pk.textContent("#close-dialog");
  tally.check("the close dialog says what happens: games resigned, seeks go, the name stays taken, results kept",
    /resigned/.test(words) && /seeks/.test(words) && /name stays taken/.test(words) && /keep their results/.test(words), words);
  await env.shot(pk, "mod-close-dialog-1280");
  await pk.setViewportSize({ width: 390, height: 844 });
  await env.shot(pk, "mod-close-dialog-390");
  await pk.fill("#close-password", "not my password");
  await pk.click("#close-confirm");
  tally.check("a wrong password: refused, said in the dialog", !!(await until(async () => /Wrong password/.test(await pk.textContent("#close-error")))));
  tally.check("... the account still signed in", (await pageCall(pk, "GET", "/api/me")).status === 200);
  await pk.fill("#close-password", PASSWORD);
  await Promise.all([pk.waitForURL((u) => u.pathname === "/"), pk.click("#close-confirm")]);
  tally.check("closed: the page goes home, signed out", await until(async () => (await pageCall(pk, "GET", "/api/me")).status === 401 && !(await pk.$("#account-name"))));
  await pk.setViewportSize({ width: 1280, height: 800 });
  await pk.goto(`${url}/players/modk`);
  await pk.waitForSelector("#profile-closed");
  tally.check("the profile says the account is closed", /This account is closed/.test(await pk.textContent("#profile-closed")));
  await env.shot(pk, "mod-closed-profile-1280");
  const si = await pageCall(pk, "POST", "/api/login", { name: "modk", password: PASSWORD });
  tally.check("signing in again: 401", si.status === 401, JSON.stringify(si));

  // In Italian, at a phone's width: the privacy page, the close dialog, a
  // report's dialog and a wrong password said in Italian.
  const pi = await env.newPage("mod-italian", { locale: "it-IT", viewport: { width: 390, height: 844 } }, allow);
  await signUp(pi, url, "modi");
  await pi.goto(url + "/privacy");
  const keepIt = await until(async () => {
    const s = await pi.textContent("#privacy-retention");
    return /\d+ giorni/.test(s) ? s : null;
  });
  const privIt = await pi.textContent("main");
  tally.check("Italian: the privacy page", !!keepIt && /account/i.test(privIt) && /partite/i.test(privIt) && /segnalazion/i.test(privIt) && !/\bgames\b|\breports\b/.test(privIt),
    privIt.slice(0, 300));
  await env.shot(pi, "mod-privacy-it-390");
  await pi.goto(`${url}/players/modx`);
  await pi.waitForSelector('#app button[data-report="modx"]');
  await pi.click('#app button[data-report="modx"]');
  await pi.waitForSelector("#report-dialog[open]");
  const repIt = await pi.textContent("#report-dialog");
  tally.check("Italian: the report dialog", /Segnala/.test(repIt) && /Imbroglio/.test(repIt) && !/Cheating|Report/.test(repIt), repIt);
  await env.shot(pi, "mod-report-dialog-it-390");
  await pi.keyboard.press("Escape");
  await pi.goto(`${url}/account`);
  await pi.waitForSelector("#close-account");
  await pi.locator("#close-account").scrollIntoViewIfNeeded();
  await pi.click("#close-account");
  await pi.waitForSelector("#close-dialog[open]");
  const wordsIt = await pi.textContent("#close-dialog");
  tally.check("Italian: the close dialog says what happens", /abbandon/i.test(wordsIt) && /nome/i.test(wordsIt) && !/resigned|seeks/.test(wordsIt), wordsIt);
  await pi.fill("#close-password", "not my password");
  await pi.click("#close-confirm");
  const wrongIt = await until(async () => {
    const s = (await pi.textContent("#close-error")) ?? "";
    return s.trim() ? s : null;
  });
  tally.check("Italian: a wrong password said in Italian", !!wrongIt && !/Wrong password/.test(wrongIt), wrongIt);
  await env.shot(pi, "mod-close-dialog-it-390");
  await pi.context().close();
}
