// ratingend.test.mjs — issue 46: the end of a rated game shows each
// player's new rating and its change on both screens, live (no reload):
// two browser contexts for two accounts (gina, hugo) play a rated Cathedral
// game with a real-time clock; gina resigns from her page; both pages then
// say "New ratings: hugo 1662 (+162) · gina 1338 (−162)" and each player's
// row shows the new number with its change.  A spectator's page says it too.
// Screenshots at 1280 and 390 px.

import { pageCall, signUp, until } from "./harness.mjs";

const call = pageCall;

const text = (page, sel) => page.textContent(sel).catch(() => "");

export async function run(env) {
  const { url, tally } = env;
  const allow = /status of (401|409)/;
  const pg = await env.newPage("ratingend-gina", {}, allow);
  const ph = await env.newPage("ratingend-hugo", {}, allow);
  const pw = await env.newPage("ratingend-watcher", {}, allow);
  await signUp(pg, url, "gina");
  await signUp(ph, url, "hugo");

  // A rated Cathedral game (its ratings are no other test's): gina white.
  const s = await call(pg, "POST", "/api/seeks", { game: "cathedral", options: "", rated: true, colour: "white", clock: { initial: 600, increment: 5 } });
  const acc = await call(ph, "POST", `/api/seeks/${s.body.id}/accept`, {});
  const id = acc.body.game;
  tally.check("a rated game starts from the seek", acc.status === 201 && !!id, JSON.stringify(acc));
  for (let i = 0; i < 2; i++) {
    const who = i % 2 === 0 ? pg : ph;
    const g = (await call(who, "GET", `/api/games/${id}`)).body;
    await call(who, "POST", `/api/games/${id}/moves`, { move: g.legal[0], ply: g.ply });
  }
  for (const p of [pg, ph, pw]) {
    await p.goto(`${url}/games/${id}`);
    await p.waitForSelector("#board [data-square]");
  }
  tally.check("before the end no rating change is shown", await pg.isHidden("#rating-change"));
  // A guest watching the leaderboard, and gina's profile open in hugo's second tab.
  const lb = await env.newPage("ratingend-leaderboard", {}, allow);
  await lb.goto(`${url}/leaderboard/cathedral`);
  await lb.waitForSelector("#leaders-empty, #leaders");
  const prof = await env.newPage("ratingend-profile", {}, allow);
  await prof.goto(`${url}/players/gina`);
  await prof.waitForSelector("#ratings");
  await pg.click("#resign");
  await pg.click("#resign");   // the second press confirms
  for (const p of [pg, ph]) await p.waitForFunction(() => document.body.dataset.over === "1", null, { timeout: 15000 });

  const want = /New ratings: gina 1338 \(−162\) · hugo 1662 \(\+162\)/;
  for (const [p, who] of [[pg, "gina (who resigned)"], [ph, "hugo (who won)"], [pw, "a spectator"]]) {
    tally.check(`the end shows both new ratings and their changes, live, to ${who}`,
      await until(async () => want.test(await text(p, "#rating-change"))), await text(p, "#rating-change"));
  }
  tally.check("hugo's row shows his new rating with +162",
    await until(async () => /1662\s*\+162/.test(await text(ph, "#player-black"))
      || /1662\s*\+162/.test(await ph.evaluate(() => document.querySelector("aside.side-panel")?.textContent ?? ""))));
  tally.check("the leaderboard moves without a reload: hugo 1662 above gina 1338",
    await until(async () => /hugo\s*1662[\s\S]*gina\s*1338/.test(await text(lb, "#leaders"))), await text(lb, "#leaders"));
  tally.check("gina's open profile shows her new Cathedral rating without a reload",
    await until(async () => /1338/.test(await text(prof, '#ratings tr[data-game="cathedral"]'))), await text(prof, "#ratings"));
  await env.shot(lb, "ratingend-leaderboard-1280");
  const api = (await call(ph, "GET", `/api/games/${id}`)).body.ratings;
  tally.check("the page's numbers are the server's", api && Math.round(api.black.after) === 1662 && Math.round(api.white.after) === 1338, JSON.stringify(api));
  const reloaded = await pg.reload().then(() => until(async () => want.test(await text(pg, "#rating-change"))));
  tally.check("after a reload the change is still shown (it is kept with the game)", !!reloaded, await text(pg, "#rating-change"));
  await env.shot(ph, "ratingend-winner-1280");
  await env.shot(pg, "ratingend-loser-1280");

  // The Italian page says it in Italian.
  await pg.click('[data-lang="it"]');
  tally.check("in Italian: Nuovi punteggi",
    await until(async () => /Nuovi punteggi: gina 1338 \(−162\) · hugo 1662 \(\+162\)/.test(await text(pg, "#rating-change"))), await text(pg, "#rating-change"));
  await pg.click('[data-lang="en"]');

  await ph.setViewportSize({ width: 390, height: 844 });
  await ph.evaluate(() => document.querySelector("#rating-change")?.scrollIntoView());
  await env.shot(ph, "ratingend-winner-390");
  const wide = await ph.evaluate(() => document.documentElement.scrollWidth);
  tally.check("the rating change fits 390 px", wide <= 390, String(wide));
}
