// pool.test.mjs — quick pairing on the page (issue 46): accounts in separate
// browser contexts.  pia joins the rated 10+5 Urbino pool from the lobby,
// sees "waiting…" and quin's lobby the count; she cancels.  quin joins the
// casual 3+2 pool from the home page's box and opens another page (her
// profile): her place is kept; pia joins the same pool from the lobby and
// both pages land in the same game.  On the page of her game in progress
// quin is not taken away by a second pairing (with rex): a notice says
// so.  Italian at 390 px.  Screenshots at 1280x800 and 390x844.

import { sleep } from "./harness.mjs";

const PASSWORD = "correct horse";

async function until(fn, ms = 20000) {
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

const text = (page, sel) => page.textContent(sel).catch(() => "");
const btn = (game, i) => `#pool .pool-join[data-pool-game="${game}"][data-pool-clock="${i}"]`;

export async function run(env) {
  const { url, tally } = env;
  const allow = /status of (401|404|409)/;
  const pp = await env.newPage("pool-pia", { viewport: { width: 1280, height: 800 } }, allow);
  const pq = await env.newPage("pool-quin", { viewport: { width: 1280, height: 800 } }, allow);
  await signUp(pp, url, "pia");
  await signUp(pq, url, "quin");
  await pp.goto(`${url}/lobby`);
  await pq.goto(`${url}/lobby`);
  await pp.waitForSelector(btn("urbino", 1));
  await pq.waitForSelector(btn("urbino", 1));
  tally.check("the lobby shows Quick pairing with the standard clocks per game",
    /Quick pairing/.test(await text(pp, "#pool h2")) && (await pp.$$("#pool .pool-join")).length >= 12 &&
    (await text(pp, btn("urbino", 0))).includes("3+2") && (await text(pp, btn("urbino", 1))).includes("10+5"),
    await text(pp, "#pool"));

  // Join, see "waiting…" and the count on the other page, cancel.
  await pp.click(btn("urbino", 1));
  tally.check("pia joins the rated 10+5 Urbino pool: waiting, with Cancel",
    await until(async () => /Looking for an opponent: Urbino 10\+5, rated/.test(await text(pp, "#pool-waiting")) && pp.isVisible("#pool-cancel")),
    await text(pp, "#pool-waiting"));
  tally.check("quin's lobby counts one waiting on that clock",
    await until(async () => /1 waiting/.test(await text(pq, btn("urbino", 1)))), await text(pq, btn("urbino", 1)));
  await env.shot(pp, "pool-waiting-1280");
  await pp.setViewportSize({ width: 390, height: 844 });
  await pp.$eval("#pool", (e) => e.scrollIntoView({ block: "start" }));
  await env.shot(pp, "pool-waiting-390");
  const wide0 = await pp.evaluate(() => document.documentElement.scrollWidth);
  tally.check("the lobby with the pool fits 390 px", wide0 <= 390, String(wide0));
  await pp.setViewportSize({ width: 1280, height: 800 });
  await pp.click("#pool-cancel");
  tally.check("Cancel: pia is out of the pool",
    await until(async () => !(await text(pp, "#pool-waiting")) && (await call(pp, "GET", "/api/pool")).body.mine === null));
  tally.check("quin's count goes back to none",
    await until(async () => !/waiting/.test(await text(pq, btn("urbino", 1)))), await text(pq, btn("urbino", 1)));

  // quin joins the casual 3+2 pool from the home page's box, then leaves it
  // for her profile: her place is kept; pia joins the same pool from the
  // lobby; both land in one game.
  await pq.goto(`${url}/`);
  await pq.waitForSelector(btn("urbino", 0));
  await pq.uncheck("#pool-rated");
  await pq.click(btn("urbino", 0));
  tally.check("the home page's box: quin waits (casual 3+2)", await until(async () => /casual/.test(await text(pq, "#pool-waiting"))));
  await pq.setViewportSize({ width: 390, height: 844 });
  await pq.$eval("#pool", (e) => e.scrollIntoView({ block: "start" }));
  await env.shot(pq, "pool-home-390");
  await pq.setViewportSize({ width: 1280, height: 800 });
  await pq.goto(`${url}/players/quin`);
  await pq.waitForSelector("#account-name");
  await sleep(1500);   // a couple of the server's pairing rounds with quin on another page
  tally.check("on another page, quin keeps her place in the pool",
    (await call(pq, "GET", "/api/pool")).body.mine?.game === "urbino");
  await pp.uncheck("#pool-rated");
  tally.check("pia's lobby counts quin waiting (casual 3+2)",
    await until(async () => /1 waiting/.test(await text(pp, btn("urbino", 0)))), await text(pp, btn("urbino", 0)));
  await pp.click(btn("urbino", 0));
  const gamePath = (page) => until(async () => /^\/games\/[^/]+$/.test(new URL(page.url()).pathname) && new URL(page.url()).pathname);
  const [gp, gq] = await Promise.all([gamePath(pp), gamePath(pq)]);
  tally.check("both pages land in a game: pia's from the lobby, quin's from her profile", !!gp && !!gq, `${pp.url()} ${pq.url()}`);
  tally.check("... the same game", gp === gq, `${gp} ${gq}`);
  const id = decodeURIComponent(String(gp).slice(7));
  const g = (await call(pp, "GET", `/api/games/${id}`)).body;
  tally.check("an ordinary casual game between pia and quin on 3+2",
    g && g.rated === false && g.clock && g.clock.initial === 180 && g.clock.increment === 2 &&
    [g.accounts.white, g.accounts.black].sort().join() === "pia,quin", JSON.stringify(g && [g.rated, g.clock, g.accounts]));
  await pp.waitForSelector("[data-ply]");
  await pq.waitForSelector("[data-ply]");
  await env.shot(pq, "pool-game-1280");
  tally.check("neither is in the pool any more", (await call(pp, "GET", "/api/pool")).body.mine === null && (await call(pq, "GET", "/api/pool")).body.mine === null);

  // On the page of a game of one's own in progress the page stays: a notice
  // leads to the new game instead.  quin joins the 1-day Cathedral pool from
  // the home page, goes back to her game; rex joins from his lobby.
  await pq.goto(`${url}/`);
  await pq.waitForSelector(btn("cathedral", 2));
  await pq.click(btn("cathedral", 2));
  await until(async () => /Cathedral/.test(await text(pq, "#pool-waiting")));
  await pq.goto(`${url}${gp}`);
  await pq.waitForSelector("[data-ply]");
  const pr = await env.newPage("pool-rex", { viewport: { width: 1280, height: 800 } }, allow);
  await signUp(pr, url, "rex");
  await pr.goto(`${url}/lobby`);
  await pr.waitForSelector(btn("cathedral", 2));
  await pr.click(btn("cathedral", 2));
  tally.check("rex's lobby goes to the new game", !!(await gamePath(pr)), pr.url());
  const note = '#notices .notice[data-kind="started"]';
  tally.check("quin, on her game in progress, stays there and is shown a notice with Play",
    await until(async () => pq.isVisible(note)) && new URL(pq.url()).pathname === gp, `${pq.url()} ${await text(pq, "#notices")}`);
  tally.check("... saying it came from quick pairing", /Quick pairing: an opponent was found/.test(await text(pq, note)), await text(pq, note));
  await env.shot(pq, "pool-notice-1280");
  await call(pp, "POST", `/api/games/${id}/abort`, {});

  // Italian, phone width: the box's words.
  await pq.goto(`${url}/lobby`);
  await pq.setViewportSize({ width: 390, height: 844 });
  await pq.waitForSelector(btn("urbino", 0));
  await pq.click('[data-lang="it"]');
  tally.check("in Italian: Partita veloce", await until(async () => /Partita veloce/.test(await text(pq, "#pool h2"))), await text(pq, "#pool h2"));
  await pq.$eval("#pool", (e) => e.scrollIntoView({ block: "start" }));
  await env.shot(pq, "pool-lobby-it-390");
  const wide = await pq.evaluate(() => document.documentElement.scrollWidth);
  tally.check("the Italian box fits 390 px", wide <= 390, String(wide));
  await pq.click('[data-lang="en"]');
}
