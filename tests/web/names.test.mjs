// names.test.mjs — pieces are named on hover (an SVG <title>, the browser's
// tooltip) and on a long press on a touch screen (said in the message line):
// Cathedral's buildings in hand and on the board, Urbino's buildings and
// architects and its building buttons (issue 34).

import { api, sleep } from "./harness.mjs";

async function longPress(page, selector) {
  // A person scrolls the piece into sight first (a game now opens at the top
  // of the page, and on a phone the hand is below the board).
  await page.locator(selector).first().scrollIntoViewIfNeeded();
  const b = await page.locator(selector).first().boundingBox();
  const x = b.x + b.width / 2, y = b.y + b.height / 2;
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Input.dispatchTouchEvent", { type: "touchStart", touchPoints: [{ x, y }] });
  const before = await page.textContent("#message");
  // The press is held 0.7 s (a gesture, not a wait), and on until the page
  // names the piece, as a person keeps pressing until the name shows.
  await sleep(700);
  await page.waitForFunction((b) => (document.querySelector("#message")?.textContent ?? "") !== b, before, { timeout: 30000 })
    .catch(() => {});
  await cdp.send("Input.dispatchTouchEvent", { type: "touchEnd", touchPoints: [] });
}

export async function run(env) {
  const { url, tally } = env;
  // Cathedral: the Cathedral placed, black to build.
  const c = (await api(url, "POST", "/api/games", { game: "cathedral", white: "human", black: "human" })).data;
  const g0 = (await api(url, "GET", `/api/games/${c.id}?seat=${c.seats.white}`)).data;
  const y = g0.legal.find((m) => m.startsWith("Y:"));
  await api(url, "POST", `/api/games/${c.id}/moves`, { seat: c.seats.white, move: y, ply: 0 });
  const page = await env.newPage("names", { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });
  await page.goto(`${url}/games/${c.id}?seat=${encodeURIComponent(c.seats.black)}`);
  await page.waitForSelector('#board [data-key="hand-black-T-0"]');
  const titles = await page.$$eval("#board .tav-hand-black .tav-piece > title", (els) => els.map((e) => e.textContent));
  tally.check("names: every building in hand has a tooltip with its name", titles.length === 14 &&
    ["Tavern", "Stable", "Inn", "Bridge", "Square", "Manor", "Abbey", "Academy", "Infirmary", "Castle", "Tower"].every((n) => titles.some((t) => t.startsWith(n))),
    titles.join(" | "));
  const onBoard = await page.$eval(`#board [data-square="${y.slice(2).split(",")[0]}"] > title`, (e) => e.textContent).catch(() => "");
  tally.check("names: a square of the Cathedral says so on hover", onBoard === "the Cathedral", onBoard);
  await longPress(page, '#board [data-key="hand-black-C-0"]');
  const said = await page.textContent("#message");
  tally.check("names: a long press on the Castle names it", /^Castle \(C\), 5 squares$/.test(said ?? ""), said);

  // Urbino: two architects placed, black builds first.
  const u = (await api(url, "POST", "/api/games", { game: "urbino", white: "human", black: "human" })).data;
  let g = (await api(url, "GET", `/api/games/${u.id}`)).data;
  for (const [side, m] of [["black", "Ae5"], ["white", "Ac3"], ["black", "first:black"]]) {
    g = (await api(url, "POST", `/api/games/${u.id}/moves`, { seat: u.seats[side], move: m, ply: g.ply })).data;
  }
  const gb = (await api(url, "GET", `/api/games/${u.id}?seat=${u.seats.black}`)).data;
  g = (await api(url, "POST", `/api/games/${u.id}/moves`, { seat: u.seats.black, move: gb.legal.find((m) => m.startsWith("T")), ply: g.ply })).data;
  const tower = g.moves[3].slice(1);
  await page.goto(`${url}/games/${u.id}?seat=${encodeURIComponent(u.seats.white)}`);
  await page.waitForSelector('#board [data-key="kind-P"]');
  const t1 = await page.$eval(`#board [data-square="${tower}"] > title`, (e) => e.textContent).catch(() => "");
  tally.check("names: Urbino's tower says so on hover", t1 === "black's tower", t1);
  const t2 = await page.$eval('#board [data-square="e5"] > title', (e) => e.textContent).catch(() => "");
  tally.check("names: an architect says so on hover", t2 === "an architect", t2);
  const t3 = await page.$eval('#board [data-key="kind-P"] > title', (e) => e.textContent).catch(() => "");
  tally.check("names: the palace button says so on hover", /^palace \(P\), worth 2$/.test(t3), t3);
  const ply = await page.getAttribute("#board", "data-ply");
  await longPress(page, `#board [data-square="${tower}"]`);
  const said2 = await page.textContent("#message");
  tally.check("names: a long press on a tower names it", said2 === "black's tower", said2);
  tally.check("names: a long press plays nothing", (await page.getAttribute("#board", "data-ply")) === ply);
  await env.shot(page, "names-urbino-phone");
}
