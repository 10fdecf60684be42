// captured.test.mjs — Cathedral's hands count the buildings each side has
// lost to captures: a finished game (tests/web/fixtures/cathedral-captures.rec,
// a self-play game in which white lost two buildings and black one) is
// uploaded as a record, and its page shows "· 2 captured" in white's hand and
// "· 1 captured" in black's; an earlier ply with nothing captured shows none.

import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { api } from "./harness.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));

async function heads(page) {
  await page.waitForSelector(".tav-hand-white text", { timeout: 15000 });
  return {
    white: await page.textContent(".tav-hand-white text"),
    black: await page.textContent(".tav-hand-black text"),
  };
}

export async function run(env) {
  const { url, tally } = env;
  const record = fs.readFileSync(path.join(here, "fixtures", "cathedral-captures.rec"), "utf8");
  const made = await api(url, "POST", "/api/records", { record, white: "human", black: "human" });
  if (!tally.check("captured: the record is accepted", made.status === 201 || made.status === 200, JSON.stringify(made.data)))
    return;
  const id = made.data.id;
  const game = await api(url, "GET", `/api/games/${encodeURIComponent(id)}`);
  const lost = { white: game.data.view.sides.white.captured, black: game.data.view.sides.black.captured };
  tally.check("captured: the server counts 2 and 1", lost.white === 2 && lost.black === 1, JSON.stringify(lost));

  for (const [label, opts] of [["desktop", {}], ["phone", { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true }]]) {
    const page = await env.newPage(`captured ${label}`, opts);
    await page.goto(`${url}/games/${encodeURIComponent(id)}`);
    const h = await heads(page);
    tally.check(`captured ${label}: white's hand says 2 captured`, /· 2 captured/.test(h.white), h.white);
    tally.check(`captured ${label}: black's hand says 1 captured`, /· 1 captured/.test(h.black), h.black);
    await env.shot(page, `cathedral-captured-${label}`);
    await page.close();
  }
  // at the start nothing is captured: no count is shown
  const fresh = await api(url, "POST", "/api/games", { game: "cathedral", white: "human", black: "human" });
  const page = await env.newPage("captured fresh");
  await page.goto(`${url}/games/${encodeURIComponent(fresh.data.id)}`);
  const h = await heads(page);
  tally.check("captured: a new game's hands show no count", !/captured/.test(h.white + h.black), `${h.white} | ${h.black}`);
  await page.close();
}
