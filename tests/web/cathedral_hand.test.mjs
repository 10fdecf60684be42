// cathedral_hand.test.mjs — the Cathedral hand and the board's messages
// (issue 34): picking one of two identical buildings (the Taverns) selects
// that one only; a building's label says "1 square", not "1 squares"; a
// refusal ("cannot stand there") goes away once the ghost is moved or turned.

import { api } from "./harness.mjs";

// Wait (up to 10 s) for the page's message to be cleared by its handler;
// the check after it reads the message either way.
async function messageCleared(page) {
  await page.waitForFunction(() => (document.querySelector("#message")?.textContent ?? "") === "", null, { timeout: 30000 })
    .catch(() => {});
}

async function centre(page, sq) {
  const b = await page.locator(`#board [data-square="${sq}"]`).boundingBox();
  return [b.x + b.width / 2, b.y + b.height / 2];
}

export async function run(env) {
  const { url, tally } = env;
  const made = await api(url, "POST", "/api/games", { game: "cathedral", options: "opening=classic", white: "human", black: "human", local: true });
  const { id, seats } = made.data;
  const g0 = (await api(url, "GET", `/api/games/${id}?seat=${seats.white}`)).data;
  const cathedral = g0.legal.find((m) => m.startsWith("Y:") && m.includes("e5"));
  await api(url, "POST", `/api/games/${id}/moves`, { seat: seats.white, move: cathedral, ply: 0 });
  const covered = cathedral.slice(2).split(",");

  const page = await env.newPage("cathedral hand");
  await page.goto(`${url}/games/${id}?seat=${encodeURIComponent(seats.black)}`);
  await page.waitForSelector('#board [data-key="hand-black-T-1"]');

  // Two Taverns: the second one picked, only it shows selected.
  await page.click('#board [data-key="hand-black-T-1"]');
  await page.waitForSelector("#board .tav-piece.selected");
  const selected = await page.$$eval("#board .tav-piece.selected", (els) => els.map((e) => e.getAttribute("data-key")));
  tally.check("cathedral hand: one Tavern picked shows one selected", selected.join() === "hand-black-T-1", selected.join());
  const pressed = await page.$$eval('#board .tav-piece[aria-pressed="true"]', (els) => els.length);
  tally.check("cathedral hand: one Tavern is pressed for a screen reader", pressed === 1, String(pressed));

  // Labels: 1 square, 2 squares.
  const labels = await page.$$eval("#board .tav-piece", (els) => els.map((e) => e.getAttribute("aria-label") ?? ""));
  tally.check("cathedral hand: a Tavern's label says 1 square", labels.some((l) => /Tavern \(T\), 1 square\b(?!s)/.test(l)), labels[0]);
  tally.check("cathedral hand: no label says '1 squares'", labels.every((l) => !/\b1 squares/.test(l)), labels.join(" | "));
  tally.check("cathedral hand: a Stable's label says 2 squares", labels.some((l) => /Stable \(S\), 2 squares/.test(l)));

  // A refusal on an occupied square, gone once the ghost moves to a free one.
  let [x, y] = await centre(page, covered[0]);
  await page.mouse.move(x, y);
  await page.mouse.click(x, y);
  await page.waitForFunction(() => /cannot stand/.test(document.querySelector("#message")?.textContent ?? ""));
  await env.shot(page, "cathedral-refused");
  [x, y] = await centre(page, "a1");
  await page.mouse.move(x, y, { steps: 4 });
  await messageCleared(page);
  let msg = await page.textContent("#message");
  tally.check("cathedral messages: the refusal goes once the ghost is over a free square", msg === "", msg);

  // The same with the wheel: a Stable refused over the Cathedral, then turned.
  await page.click('#board [data-key="hand-black-S-0"]');
  [x, y] = await centre(page, covered[0]);
  await page.mouse.move(x, y, { steps: 4 });
  await page.mouse.click(x, y);
  await page.waitForFunction(() => /cannot stand/.test(document.querySelector("#message")?.textContent ?? ""));
  await page.mouse.wheel(0, 120);
  await messageCleared(page);
  msg = await page.textContent("#message");
  tally.check("cathedral messages: the refusal goes once the building is turned", msg === "", msg);
  const ply = await page.getAttribute("#board", "data-ply");
  tally.check("cathedral messages: nothing was played", ply === "1", ply);
}
