// answers.test.mjs — an answer read over HTTP never undoes what the live
// socket showed.  The page reads the game again each time its socket
// connects; the answer and the socket travel apart, so a state read just
// before the opponent moved can arrive after the socket brought the move.
// (The CI met it once: the page read ply 0 while the move came, and stayed at
// ply 0.)  Here the read is held back on purpose: its body is taken from the
// server before the move and handed to the page only after the socket has
// shown the move.

import { api, until } from "./harness.mjs";

export async function run(env) {
  const { url, tally } = env;
  const n = (await api(url, "POST", "/api/games", { game: "urbino", options: "", white: "human", black: "human" })).data;
  const page = await env.newPage("answers");
  const gamePath = `/api/games/${n.id}`;
  let reads = 0, held = null, release;
  const released = new Promise((r) => { release = r; });
  await page.route((u) => u.pathname === gamePath, async (route) => {
    if (route.request().method() !== "GET") return route.continue();
    reads++;
    if (reads !== 2) return route.continue();   // the first read loads the page
    // The read made when the socket connected: its answer as it is now
    // (ply 0), held until the socket has brought the move.
    const response = await route.fetch();
    held = { response, body: await response.text() };
    await released;
    await route.fulfill({ response, body: held.body });
  });
  await page.goto(`${url}/games/${n.id}?seat=${encodeURIComponent(n.seats.white)}`);
  await page.waitForSelector("#board [data-square]");
  const caught = await until(async () => held !== null, 15000);
  tally.check("answers: the page reads the game again when its socket connects (the read is held)", caught, `reads ${reads}`);
  if (!caught) {
    release();
    return;
  }
  tally.check("answers: the held answer is of ply 0", JSON.parse(held.body).ply === 0, held.body.slice(0, 80));
  const bg = (await api(url, "GET", `/api/games/${n.id}?seat=${encodeURIComponent(n.seats.black)}`)).data;
  const mv = await api(url, "POST", `/api/games/${n.id}/moves`, { seat: n.seats.black, move: bg.legal[0], ply: 0 });
  tally.check("answers: the opponent's move is accepted", mv.status === 200, String(mv.status));
  const shown = await until(async () => (await page.getAttribute("#board", "data-ply")) === "1", 15000);
  tally.check("answers: the socket shows the move (ply 1)", shown);
  const done = page.waitForEvent("requestfinished", { predicate: (r) => new URL(r.url()).pathname === gamePath, timeout: 15000 });
  release();
  await done;
  // The page has the stale answer now; it must not go back to ply 0.  Watched
  // for 3 s (the page takes an answer within milliseconds).
  const back = await until(async () => (await page.getAttribute("#board", "data-ply")) !== "1", 3000);
  tally.check("answers: the stale answer (ply 0) does not take the move back", !back,
    `data-ply ${await page.getAttribute("#board", "data-ply")}`);
  const turn = await page.textContent("#status");
  tally.check("answers: it is white's turn on the page", /your turn|white/i.test(turn ?? ""), turn);
}
