// tournament.test.mjs — tournaments on the page (issue 47): one account
// makes an arena with the form on /tournaments, two join it from its page,
// its creator starts it; both pages are told their game started and open it
// by themselves; a game is played there by clicks on the board and ended
// with the resign button, while a guest's tournament page shows the
// standings move live (no reload); the list shows it running with a
// countdown.  A round robin of 3 shows its crosstable, each game one click
// from its board.  Screenshots at 1280 and 390 px wide.

import { sleep } from "./harness.mjs";
import { epaminondasMove } from "./square_input.mjs";

const PASSWORD = "tournament horse";

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

const gameOf = (page, id) => page.evaluate(async (i) => (await fetch(`/api/games/${i}`)).json(), id);
const gameId = (page) => decodeURIComponent(/\/games\/([^/?]+)/.exec(page.url())?.[1] ?? "");
const tourOf = (page, id) => page.evaluate(async (i) => (await fetch(`/api/tournaments/${i}`)).json(), id);
const scoreOf = (page, name) => page.evaluate((n) =>
  document.querySelector(`.tour-table tr[data-player="${n}"] .tour-score`)?.textContent ?? null, name);

export async function run(env) {
  const { url, tally, shot } = env;
  const allow = /status of (401|409)/;
  const pa = await env.newPage("tour-ada", {}, allow);
  const pb = await env.newPage("tour-bea", {}, allow);
  const pg = await env.newPage("tour-guest", {}, allow);
  await signUp(pa, url, "ada_t");
  await signUp(pb, url, "bea_t");

  // ---- the list and the form ----
  await pa.goto(url + "/tournaments");
  await pa.waitForSelector("#tour-form");
  tally.check("tournaments: the list's three sections", (await pa.isVisible("#tours-running")) && (await pa.isVisible("#tours-open")) && (await pa.isVisible("#tours-over")));
  await shot(pa, "tournaments-form-1280");
  await pa.setViewportSize({ width: 390, height: 844 });
  await pa.locator("#tour-form").scrollIntoViewIfNeeded();
  await shot(pa, "tournaments-form-390");
  await pa.setViewportSize({ width: 1280, height: 860 });
  await pa.fill("#tour-name", "Friday arena");
  await pa.selectOption("#tour-game", "epaminondas");
  await pa.selectOption("#tour-kind", "arena");
  await pa.fill("#tour-start", "30");
  await pa.fill("#tour-minutes", "20");
  await pa.uncheck("#tour-rated");
  await pa.selectOption("#tour-repeat", "week");
  await Promise.all([pa.waitForURL(/\/tournaments\/[^/]+$/), pa.click("#tour-make")]);
  const T = decodeURIComponent(/\/tournaments\/([^/?]+)/.exec(pa.url())[1]);
  await pa.waitForSelector("#tour-join");
  tally.check("a weekly event: it says so, and offers to join this edition only",
    /every week/.test(await pa.textContent("#tour-what")) && (await pa.isVisible("#tour-join-once")));
  tally.check("tournament page: its name, the rules in words, a countdown",
    (await pa.textContent("#tour-title")) === "Friday arena" && /on fire|4/.test(await pa.textContent("#tour-rules")) &&
    /starts in/.test(await pa.textContent("#tour-countdown")), await pa.textContent("#tour-countdown"));

  // The guest watches the tournament page, the list too.
  await pg.goto(`${url}/tournaments`);
  await pg.waitForSelector(`#tours-open [data-tour="${T}"]`);
  tally.check("list: the arena among the upcoming, with its countdown",
    /starts in/.test(await pg.textContent(`#tours-open [data-tour="${T}"] .tour-countdown`)));
  await pg.setViewportSize({ width: 390, height: 844 });
  await shot(pg, "tournaments-list-390");
  await pg.setViewportSize({ width: 1280, height: 860 });
  await shot(pg, "tournaments-list-1280");
  await pg.goto(`${url}/tournaments/${T}`);
  await pg.waitForSelector("#tour-title");

  // ---- join, start: both pages open their game by themselves ----
  await pa.click("#tour-join");
  await pa.waitForSelector("#tour-withdraw");
  await pb.goto(`${url}/tournaments/${T}`);
  await pb.click("#tour-join");
  await pb.waitForSelector("#tour-withdraw");
  tally.check("the guest's page shows both players, live", await until(async () =>
    (await pg.locator(".tour-table tr[data-player]").count()) === 2));
  await shot(pa, "tournament-open-1280");
  await Promise.all([pa.waitForURL(/\/games\//, { timeout: 20000 }), pb.waitForURL(/\/games\//, { timeout: 20000 }), pa.click("#tour-start")]);
  tally.check("both players' pages open their arena game by themselves", gameId(pa) !== "" && gameId(pa) === gameId(pb), `${pa.url()} ${pb.url()}`);
  const G = gameId(pa);
  await pa.waitForSelector("#board [data-square]");
  await pb.waitForSelector("#board [data-square]");
  tally.check("the guest's page lists the game being played", await until(async () =>
    (await pg.locator(`.tour-game-list li.playing[data-game="${G}"]`).count()) === 1));
  await shot(pg, "tournament-running-1280");

  // ---- a few moves by clicks, then a resignation ----
  for (let i = 0; i < 4; i++) {
    const ga = await gameOf(pa, G);
    const mover = ga.legal?.length ? pa : pb;
    const mg = mover === pa ? ga : await gameOf(pb, G);
    const move = mg.legal.find((m) => /^[a-n]\d+-[a-n]\d+$/.test(m));
    await epaminondasMove(mover, move);
    await mover.waitForFunction((p) => Number(document.querySelector("#board")?.getAttribute("data-ply")) > p, mg.ply);
  }
  tally.check("four moves played on the board", (await gameOf(pa, G)).ply === 4);
  const before = await scoreOf(pg, "bea_t");
  await pa.click("#resign");
  await pa.click("#resign");
  tally.check("ada resigns: the game is over", await until(async () => (await gameOf(pa, G)).over === true));
  tally.check("the guest's standings move live: bea 0 → 2", await until(async () => (await scoreOf(pg, "bea_t")) === "2"),
    `${before} → ${await scoreOf(pg, "bea_t")}`);
  tally.check("standings in order: bea first", await until(async () =>
    (await pg.locator(".tour-table tr[data-player]").first().getAttribute("data-player")) === "bea_t"));
  await shot(pg, "tournament-standings-1280");
  await pg.setViewportSize({ width: 390, height: 844 });
  await shot(pg, "tournament-standings-390");
  await pg.setViewportSize({ width: 1280, height: 860 });
  // The two are free again: paired again (nobody else is free).
  tally.check("a new pairing once both are free", await until(async () => (await tourOf(pg, T)).games.length === 2));
  // The weekly event's next edition is open, both players in it.
  await pg.goto(`${url}/tournaments`);
  await pg.waitForSelector("#tours-open .tour-row");
  tally.check("the list shows its next edition among the upcoming", await until(async () =>
    (await pg.locator("#tours-open .tour-row", { hasText: "Friday arena" }).count()) === 1));
  await shot(pg, "tournaments-list-next-1280");
  // back on the tournament page, a link to one's game
  await pb.goto(`${url}/tournaments/${T}`);
  await pb.waitForSelector("#tour-my-game");
  tally.check("a player's tournament page links to its game", (await pb.getAttribute("#tour-my-game", "href")).startsWith("/games/"));

  // ---- a round robin of 3: the crosstable ----
  const pc = await env.newPage("tour-cid", {}, allow);
  await signUp(pc, url, "cid_t");
  const rr = await pa.evaluate(async () => (await fetch("/api/tournaments", { method: "POST", headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ name: "Three of us", game: "urbino", options: "", kind: "roundrobin", rated: false, clock: { days: 3 }, starts: Date.now() + 86400000 }) })).json());
  for (const p of [pa, pb, pc]) await p.evaluate(async (i) => fetch(`/api/tournaments/${i}/join`, { method: "POST" }), rr.id);
  await pa.goto(`${url}/tournaments/${rr.id}`);
  await pa.click("#tour-start");
  await pa.waitForSelector(".tour-cross-table");
  const links = await pa.locator(".tour-cross-table .cross-cell a").count();
  tally.check("the crosstable: each pair's two games, each a link", links === 12, links);
  const first = pa.locator(".tour-cross-table .cross-cell a").first();
  const href = await first.getAttribute("href");
  await Promise.all([pa.waitForURL(/\/games\//), first.click()]);
  tally.check("a crosstable game is one click from its board", new URL(pa.url()).pathname === href);
  // ... and its board one click from the tournament
  await pa.waitForSelector("#tournament-link:not([hidden])");
  tally.check("the game's page links back to its tournament", (await pa.textContent("#tournament-link")).includes("tournament"));
  await shot(pa, "tournament-game-link-1280");
  await Promise.all([pa.waitForURL(/\/tournaments\/[^/]+$/), pa.click("#tournament-link")]);
  tally.check("... and the link opens the tournament's page", new URL(pa.url()).pathname === `/tournaments/${rr.id}`, pa.url());
  await pa.waitForSelector(".tour-cross-table");
  await shot(pa, "tournament-roundrobin-1280");
  await pa.setViewportSize({ width: 390, height: 844 });
  await shot(pa, "tournament-roundrobin-390");
  await pa.setViewportSize({ width: 1280, height: 860 });
}
