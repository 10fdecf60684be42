// notices.test.mjs — issue 46's player's channel on the page, two browser
// contexts for two accounts (ivo, lea): a challenge sent to lea is noticed on
// her home page (a notice with Accept and Decline, a badge on the account
// menu, the count in the title) and accepted from there; her home page's
// list of games moves when ivo moves (no reload, no polling) and a notice
// says it is her turn; a rematch ivo offers after the end is noticed on the
// home page too; a guest's lobby shows the games being played move on by
// themselves (the lobby socket's "now").  Screenshots at 1280 and 390 px.

import { pageCall, signUp, until } from "./harness.mjs";

const call = pageCall;

const text = (page, sel) => page.textContent(sel).catch(() => "");

export async function run(env) {
  const { url, tally } = env;
  const allow = /status of (401|404|409)/;
  const pi = await env.newPage("notices-ivo", {}, allow);
  const pl = await env.newPage("notices-lea", {}, allow);
  await signUp(pi, url, "ivo");
  await signUp(pl, url, "lea");
  await pl.goto(`${url}/`);
  await pl.waitForSelector("#my-games");
  tally.check("no notice and no badge while nothing happened",
    (await pl.$$("#notices .notice")).length === 0 && await pl.isHidden("#inbox-badge"));

  // ---- A challenge, noticed on the home page and accepted from it ----
  const ch = await call(pi, "POST", "/api/seeks", { game: "epaminondas", options: "", rated: false, colour: "white", clock: { days: 2 }, to: "lea" });
  tally.check("ivo challenges lea", ch.status === 201, JSON.stringify(ch));
  const note = '#notices .notice[data-kind="challenge"]';
  tally.check("lea's home page shows the challenge at once, in words",
    await until(async () => /ivo challenges you: Epaminondas, 2 days a move/.test(await text(pl, note))), await text(pl, "#notices"));
  tally.check("... with Accept and Decline", (await pl.isVisible(`${note} [data-act="accept"]`)) && (await pl.isVisible(`${note} [data-act="decline"]`)));
  tally.check("the account menu's badge counts it", await until(async () => (await text(pl, "#inbox-badge")) === "1"), await text(pl, "#inbox-badge"));
  tally.check("the title counts it", await until(async () => /^\(1\) /.test(await pl.title())), await pl.title());
  await env.shot(pl, "notices-challenge-1280");
  await pl.setViewportSize({ width: 390, height: 844 });
  await env.shot(pl, "notices-challenge-390");
  const wide = await pl.evaluate(() => document.documentElement.scrollWidth);
  tally.check("the notice fits 390 px", wide <= 390, String(wide));
  await pl.setViewportSize({ width: 1280, height: 860 });
  await Promise.all([pl.waitForURL((u) => u.pathname.startsWith("/games/")), pl.click(`${note} [data-act="accept"]`)]);
  const gid = decodeURIComponent(/\/games\/([^/?]+)/.exec(pl.url())?.[1] ?? "");
  const g = (await call(pl, "GET", `/api/games/${gid}`)).body;
  tally.check("Accept: lea is in the game, ivo white", g && g.accounts.white === "ivo" && g.accounts.black === "lea", JSON.stringify(g && g.accounts));

  // ---- The home list moves when ivo moves (and a guest's lobby too) ----
  const pg = await env.newPage("notices-guest-lobby", {}, allow);
  await pg.goto(`${url}/lobby`);
  const prow = `#playing li[data-id="${gid}"]`;
  tally.check("a guest's lobby lists the game being played", await until(async () => (await pg.getAttribute(prow, "data-ply")) === "0"));
  await pl.goto(`${url}/`);
  const row = `#my-games li[data-id="${gid}"]`;
  tally.check("lea's home lists the game, waiting for ivo", await until(async () => /waiting for ivo/.test(await text(pl, row))), await text(pl, row));
  const marker = await pl.evaluate(() => { window.__noReload = 1; return 1; });
  const gi = (await call(pi, "GET", `/api/games/${gid}`)).body;
  tally.check("ivo moves", (await call(pi, "POST", `/api/games/${gid}/moves`, { move: gi.legal[0], ply: 0 })).status === 200);
  tally.check("lea's home list says her turn, without a reload",
    await until(async () => /your turn/i.test(await text(pl, row))) && marker === await pl.evaluate(() => window.__noReload), await text(pl, row));
  tally.check("a notice says it is her turn against ivo",
    await until(async () => /Your turn against ivo \(Epaminondas\)/.test(await text(pl, '#notices [data-kind="turn"]'))), await text(pl, "#notices"));
  tally.check("the badge counts her turn", await until(async () => (await text(pl, "#inbox-badge")) === "1"));
  tally.check("the guest's lobby shows the move reached, without polling or reload",
    await until(async () => (await pg.getAttribute(prow, "data-ply")) === "1"), await text(pg, "#playing"));
  await env.shot(pl, "notices-turn-1280");
  // On the game's own page no notice of that game is added.
  await pl.click('#notices [data-kind="turn"] a');
  await pl.waitForSelector("#board [data-square]");
  tally.check("Play opens the game", pl.url().includes(gid));

  // ---- The end, then a rematch offered by ivo, noticed at home ----
  await pl.goto(`${url}/`);
  await pl.waitForSelector("#my-games");
  await call(pi, "POST", `/api/games/${gid}/resign`, {});
  tally.check("the game leaves lea's list when it ends", await until(async () => !(await pl.$(row))));
  tally.check("... and the badge goes", await until(async () => pl.isHidden("#inbox-badge")));
  tally.check("ivo offers a rematch", (await call(pi, "POST", `/api/games/${gid}/rematch`, {})).status === 202);
  tally.check("lea's home page notices it",
    await until(async () => /ivo offers a rematch \(Epaminondas\)/.test(await text(pl, '#notices [data-kind="rematch"]'))), await text(pl, "#notices"));
  await env.shot(pl, "notices-rematch-1280");

  // ---- Italian ----
  await call(pi, "POST", "/api/seeks", { game: "urbino", options: "", rated: false, colour: "random", clock: { days: 1 }, to: "lea" });
  await pl.click('[data-lang="it"]');
  await pl.waitForLoadState("load");
  tally.check("in Italian: ivo ti sfida",
    await until(async () => /ivo ti sfida: Urbino/.test(await text(pl, '#notices [data-kind="challenge"]'))), await text(pl, "#notices"));
  await env.shot(pl, "notices-it-1280");
  await pl.click('[data-lang="en"]');
  await pl.waitForLoadState("load");

  // ---- Decline with a reason: ivo is told it, in words ----
  await pi.goto(`${url}/`);
  await pi.waitForSelector("#account-name");
  // ivo's lobby, in a second tab, lists the challenge he sent as waiting.
  const pi2 = await pi.context().newPage();
  await pi2.goto(`${url}/lobby`);
  tally.check("ivo's lobby lists his challenge to lea, waiting for an answer",
    await until(async () => /To lea: Urbino, 1 day a move — waiting for an answer/.test(await text(pi2, '#challenges li[data-state="waiting"]'))), await text(pi2, "#challenges"));
  const cn = '#notices .notice[data-kind="challenge"]';
  await pl.waitForSelector(`${cn} [data-act="decline"]`).catch(async (e) => { await env.shot(pl, "notices-debug"); console.log("DEBUG", pl.url(), await text(pl, "body")); throw e; });
  await pl.selectOption(`${cn} select.decline-reason`, "later");
  await pl.click(`${cn} [data-act="decline"]`);
  tally.check("declined: the notice goes", await until(async () => (await pl.$$(cn)).length === 0));
  tally.check("ivo reads why: not now",
    await until(async () => /lea declined your challenge: not now, ask again later\./.test(await text(pi, '#notices [data-kind="declined"]'))), await text(pi, "#notices"));
  await env.shot(pi, "notices-declined-1280");
  tally.check("... and then as declined, with the reason",
    await until(async () => /lea declined your challenge: not now/.test(await text(pi2, '#challenges li[data-state="declined"]'))) &&
    !(await pi2.$('#challenges li[data-state="waiting"]')), await text(pi2, "#challenges"));
  await env.shot(pi2, "notices-lobby-challenges-1280");
  await pi2.close();

  // ---- A profile: Challenge, the opponents as links, the dates ----
  await pl.goto(`${url}/players/ivo`);
  await pl.waitForSelector("#player-games li");
  tally.check("ivo's profile offers lea a Challenge", await pl.isVisible("#challenge-player"));
  tally.check("the games' opponents are links", (await pl.$$('#player-games li a[href="/players/lea"]')).length >= 1);
  tally.check("the games have dates", /\d{4}/.test(await text(pl, "#player-games li .game-date")), await text(pl, "#player-games li"));
  await Promise.all([pl.waitForURL((u) => u.pathname === "/lobby"), pl.click("#challenge-player")]);
  tally.check("Challenge opens the lobby's form for ivo", await until(async () => (await pl.inputValue("#seek-to").catch(() => "")) === "ivo"));
  await env.shot(pl, "notices-profile-challenge-1280");
}
