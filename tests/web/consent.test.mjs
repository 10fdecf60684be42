// consent.test.mjs — SPEC "Consent and fair endings" on the page, two
// browser contexts for two accounts (carla, dario): after a finished game a
// rematch offered on one screen is shown on the other with Accept and
// Decline, nothing is made until Accept; Decline makes it go (and the
// offerer is told); offered again the other way and accepted, both pages go
// to the new game (colours swapped); in that game nobody makes the first
// move and the server aborts it, said in words ("Aborted: White (dario) did
// not move"); an opponent who closed the page: the countdown to a claim, with
// "Claim the win" / "Call it a draw" not yet usable.  Screenshots at 1280
// and 390 px.

import { sleep } from "./harness.mjs";

const PASSWORD = "correct horse";

async function until(fn, ms = 30000) {
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

// The API from inside a page (its session cookie).
const call = (page, method, path, body) => page.evaluate(async ([m, p, b]) => {
  const r = await fetch(p, { method: m, headers: b ? { "Content-Type": "application/json" } : {}, body: b ? JSON.stringify(b) : undefined });
  return { status: r.status, body: await r.json().catch(() => null) };
}, [method, path, body]);

// A game between a (white) and b from a seek: casual, so that the ratings
// other tests check (lobby.test.mjs' leaderboard) stay theirs.
async function duel(a, b, clock) {
  const s = await call(a, "POST", "/api/seeks", { game: "epaminondas", options: "", rated: false, colour: "white", clock });
  const acc = await call(b, "POST", `/api/seeks/${s.body.id}/accept`, {});
  return acc.body.game;
}

async function move(page, id) {
  const g = (await call(page, "GET", `/api/games/${id}`)).body;
  return call(page, "POST", `/api/games/${id}/moves`, { move: g.legal[0], ply: g.ply });
}

const text = (page, sel) => page.textContent(sel).catch(() => "");

export async function run(env) {
  const { url, tally } = env;
  const allow = /status of (401|409)/;
  const pc = await env.newPage("consent-carla", {}, allow);
  const pd = await env.newPage("consent-dario", {}, allow);
  await signUp(pc, url, "carla");
  await signUp(pd, url, "dario");

  // ---- A finished game, then a rematch offered ----
  const id = await duel(pc, pd, { initial: 300, increment: 0 });
  await move(pc, id);
  await move(pd, id);
  await pc.goto(`${url}/games/${id}`);
  await pd.goto(`${url}/games/${id}`);
  for (const p of [pc, pd]) await p.waitForSelector("#board [data-square]");
  await call(pc, "POST", `/api/games/${id}/resign`, {});
  for (const p of [pc, pd]) await p.waitForFunction(() => document.body.dataset.over === "1");
  const offerBtn = '#offers [data-kind="rematch"][data-act="offer"]';
  tally.check("rematch: both pages offer to propose one", (await pc.isVisible(offerBtn)) && (await pd.isVisible(offerBtn)));
  const before = (await call(pd, "GET", "/api/me/games")).body.length;
  await pc.click(offerBtn);
  tally.check("rematch: the offerer reads that it waits for dario",
    await until(async () => /Rematch offered — waiting for dario/.test(await text(pc, "#rematch-text"))), await text(pc, "#rematch-text"));
  tally.check("rematch: the other screen shows the offer in words",
    await until(async () => /carla offers a rematch/.test(await text(pd, "#rematch-text"))), await text(pd, "#rematch-text"));
  tally.check("rematch: ... with Accept and Decline",
    (await pd.isVisible('#offers [data-kind="rematch"][data-act="accept"]')) && (await pd.isVisible('#offers [data-kind="rematch"][data-act="decline"]')));
  tally.check("rematch: nothing is made before Accept", (await call(pd, "GET", "/api/me/games")).body.length === before &&
    (await call(pd, "GET", `/api/games/${id}`)).body.rematch === null && /\/games\//.test(pd.url()) && pd.url().includes(id));
  await env.shot(pd, "consent-rematch-offer-1280");
  await env.shot(pc, "consent-rematch-waiting-1280");
  await pd.setViewportSize({ width: 390, height: 844 });
  await pd.evaluate(() => document.querySelector("#offers")?.scrollIntoView());
  await env.shot(pd, "consent-rematch-offer-390");
  const wide = await pd.evaluate(() => document.documentElement.scrollWidth);
  tally.check("rematch: the offer fits 390 px", wide <= 390, String(wide));
  await pd.setViewportSize({ width: 1280, height: 860 });

  // Decline: it goes from both screens, and carla is told.
  await pd.click('#offers [data-kind="rematch"][data-act="decline"]');
  tally.check("rematch: declined, it is gone from dario's screen",
    await until(async () => !(await pd.$("#rematch-text")) && (await pd.isVisible(offerBtn))));
  tally.check("rematch: carla reads that dario declined it",
    await until(async () => /dario declined the rematch/.test(await text(pc, "#message"))), await text(pc, "#message"));
  tally.check("rematch: still nothing made", (await call(pd, "GET", "/api/me/games")).body.length === before);
  tally.check("rematch: carla is not offered to propose it again (the server would refuse)", await pc.isHidden(offerBtn));
  await env.shot(pc, "consent-rematch-declined-1280");

  // Dario offers one; carla accepts: both pages go to the new game.
  await pd.click(offerBtn);
  await until(async () => /carla/.test(await text(pd, "#rematch-text")));
  tally.check("rematch: carla sees dario's offer", await until(async () => /dario offers a rematch/.test(await text(pc, "#rematch-text"))));
  await Promise.all([pc.waitForURL((u) => !u.pathname.includes(id)), pc.click('#offers [data-kind="rematch"][data-act="accept"]')]);
  await pd.waitForURL((u) => !u.pathname.includes(id), { timeout: 30000 }).catch(() => {});
  const nid = decodeURIComponent(/\/games\/([^/?]+)/.exec(pc.url())?.[1] ?? "");
  tally.check("rematch: accepted, both pages went to the same new game", nid && nid !== id && pd.url().includes(nid), `${pc.url()} ${pd.url()}`);
  const ng = (await call(pc, "GET", `/api/games/${nid}`)).body;
  tally.check("rematch: colours swapped, casual as before, the same clock",
    ng.accounts.white === "dario" && ng.accounts.black === "carla" && ng.rated === false && ng.clock.initial === 300, JSON.stringify([ng.accounts, ng.rated, ng.clock]));

  // ---- No first move, no game: the server aborts it after 30 s ----
  for (const p of [pc, pd]) await p.waitForSelector("#board [data-square]");
  const ended = await until(async () => /Aborted: White \(dario\) did not move/.test(await text(pc, "#end-reason")), 45000);
  tally.check("abort: White's first move never came, the page says so in words", !!ended, await text(pc, "#end-reason"));
  tally.check("abort: ... on the other screen too", /Aborted: White \(dario\) did not move/.test(await text(pd, "#end-reason")), await text(pd, "#end-reason"));
  tally.check("abort: no rematch offered after an abort", await pc.isHidden(offerBtn));
  await env.shot(pc, "consent-abort-1280");
  await pc.setViewportSize({ width: 390, height: 844 });
  await pc.evaluate(() => document.querySelector("#end-reason")?.scrollIntoView());
  await env.shot(pc, "consent-abort-390");
  await pc.setViewportSize({ width: 1280, height: 860 });

  // ---- An opponent who left: the countdown to a claim ----
  const cid = await duel(pc, pd, { initial: 300, increment: 0 });
  await move(pc, cid);
  await move(pd, cid);
  await move(pc, cid);   // dario to move
  await pc.goto(`${url}/games/${cid}`);
  await pc.waitForSelector("#board [data-square]");
  await pd.goto(`${url}/`);
  await pd.close();      // dario has no page open any more
  const shown = await until(async () => /dario has left/.test(await text(pc, "#claim-text")), 30000);
  tally.check("claim: dario gone, carla sees a countdown", !!shown && /in \d+ s/.test(await text(pc, "#claim-text")), await text(pc, "#claim-text"));
  tally.check("claim: Claim the win and Call it a draw, not usable yet",
    (await pc.isDisabled('#offers [data-kind="claim"][data-act="win"]')) && (await pc.isDisabled('#offers [data-kind="claim"][data-act="draw"]')) &&
    /Claim the win/.test(await text(pc, '#offers [data-kind="claim"][data-act="win"]')) && /Call it a draw/.test(await text(pc, '#offers [data-kind="claim"][data-act="draw"]')));
  const t1 = await text(pc, "#claim-text");
  await until(async () => (await text(pc, "#claim-text")) !== t1, 10000);
  tally.check("claim: the countdown counts down", (await text(pc, "#claim-text")) !== t1, `${t1} / ${await text(pc, "#claim-text")}`);
  await env.shot(pc, "consent-claim-1280");
  await pc.setViewportSize({ width: 390, height: 844 });
  await pc.evaluate(() => document.querySelector("#offers")?.scrollIntoView());
  await env.shot(pc, "consent-claim-390");
  const w2 = await pc.evaluate(() => document.documentElement.scrollWidth);
  tally.check("claim: fits 390 px", w2 <= 390, String(w2));

  // ---- A rated game against the computer has a clock too ----
  await pc.goto(`${url}/lobby`);
  await pc.waitForSelector("#cpu-clock");
  await pc.evaluate(() => document.querySelector("#computers")?.scrollIntoView());
  await env.shot(pc, "consent-computer-clock-390");
  await pc.setViewportSize({ width: 1280, height: 860 });
  await pc.evaluate(() => document.querySelector("#computers")?.scrollIntoView());
  await env.shot(pc, "consent-computer-clock-1280");
  await pc.selectOption("#cpu-clock", "3+2");
  await pc.waitForFunction(() => document.querySelectorAll("#cpu-level option").length === 10);
  await Promise.all([pc.waitForURL(/\/games\//), pc.click("#cpu-play")]);
  const rid = decodeURIComponent(/\/games\/([^/?]+)/.exec(pc.url())?.[1] ?? "");
  const rg = (await call(pc, "GET", `/api/games/${rid}`)).body;
  tally.check("computer: a rated game on the clock chosen (3+2)", rg.rated && rg.clock && rg.clock.initial === 180 && rg.clock.increment === 2, JSON.stringify([rg.rated, rg.clock]));
  await call(pc, "POST", `/api/games/${rid}/abort`, {});
}
