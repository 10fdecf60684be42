// toscana_veto.test.mjs — Toscana's veto as a one-time toggle (issue 34):
// no Accept / Veto question on every turn; "Veto this tile" beside the
// opponent's tile arms the veto, and the page answers each decision by itself
// (accept, or the veto armed for that tile); a clear notice when the opponent
// vetoes; the move list shows the vetoes and leaves the accepts out.
//
// White plays on the page; black's moves go through the API with black's
// seat token (a friend on another screen).

import { api, sleep } from "./harness.mjs";
import { makeMove } from "./polyomino_input.mjs";

export async function run(env) {
  const { url, tally } = env;
  const made = await api(url, "POST", "/api/games", { game: "toscana", options: "seed=3", white: "human", black: "human" });
  const { id, seats } = made.data;
  const get = async (side) => (await api(url, "GET", `/api/games/${id}?seat=${encodeURIComponent(seats[side])}`)).data;
  const black = async (move) => {
    const g = await get("black");
    const m = move ?? g.legal.find((x) => x.includes(":"));
    const r = await api(url, "POST", `/api/games/${id}/moves`, { seat: seats.black, move: m, ply: g.ply });
    if (r.status !== 200) throw new Error(`black ${m}: ${JSON.stringify(r.data)}`);
    return r.data;
  };
  // wait until the game has n moves (the page answers decisions by itself)
  const until = async (n, what) => {
    for (let i = 0; i < 200; i++) {
      const g = await get("white");
      if (g.ply >= n) return g;
      await sleep(50);
    }
    throw new Error(`no move ${n} (${what})`);
  };
  const page = await env.newPage("toscana veto");
  await black("accept");   // black's first decision
  await page.goto(`${url}/games/${id}?seat=${encodeURIComponent(seats.white)}`);
  await page.waitForSelector('.tav-toscana [data-key="veto-toggle-white"]');
  tally.check("veto: no Accept / Veto question on white's turn", (await page.$('[data-key="veto"], [data-key="accept"]')) === null);
  const inBlack = await page.$('.tav-hand-black [data-key="veto-toggle-white"]');
  tally.check("veto: the toggle stands beside black's tile", inBlack !== null);

  // 1. A placement without the veto armed: the page accepts by itself.
  let g = await get("white");
  await makeMove(page, "toscana", g.legal.find((m) => m.includes(":")));
  g = await until(3, "white's placement and the page's accept");
  tally.check("veto: after a placement the page keeps the veto by itself (accept)", g.moves[2] === "accept", g.moves.join(" "));

  // 2. Black places; black keeps his veto; white arms the veto, then places.
  await black();
  await black("accept");
  await page.waitForSelector('[data-key="veto-toggle-white"]');
  g = await get("white");
  await page.waitForFunction((ply) => document.querySelector("#board")?.getAttribute("data-ply") === String(ply), g.ply);
  const tile = g.view.sides.black.hand.find((t) => t.kind === "S").id;
  await page.click('[data-key="veto-toggle-white"]');
  await page.waitForSelector('[data-key="veto-toggle-white"][aria-pressed="true"]');
  const armedText = await page.textContent('[data-key="veto-toggle-white"]');
  tally.check("veto: the toggle shows it is armed", /armed/i.test(armedText), armedText);
  await env.shot(page, "toscana-veto-armed");
  const before = g.ply;
  await makeMove(page, "toscana", g.legal.find((m) => m.includes(":")));
  g = await until(before + 2, "white's placement and the page's veto");
  tally.check("veto: the armed veto goes out after white's placement", g.moves[before + 1] === "veto", g.moves.slice(before).join(" "));
  const back = (await api(url, "GET", `/api/games/${id}`)).data;
  tally.check("veto: black's vetoed tile left the top of his stack", back.view.sides.black.hand.find((t) => t.kind === "S")?.id !== tile, tile);
  await page.waitForFunction(() => /You vetoed black's tile/.test(document.querySelector("#message")?.textContent ?? ""));
  tally.check("veto: white is told the veto went out", true);

  // 3. Black places his next tile, then vetoes white's: white is told clearly.
  g = await black();
  const mine = g.view.sides.white.hand.find((t) => t.kind === "S").id;
  const sentAfterVeto = [];
  page.on("request", (r) => { if (r.method() === "POST" && /\/moves$/.test(new URL(r.url()).pathname)) sentAfterVeto.push(r.postData() ?? ""); });
  await black("veto");
  await page.waitForFunction(() => /Black vetoed your tile/.test(document.querySelector("#message")?.textContent ?? ""), null, { timeout: 30000 })
    .catch(() => {});
  const msg = await page.textContent("#message");
  tally.check("veto: the opponent's veto is announced with the tile", msg === `Black vetoed your tile ${mine}: it goes to the bottom of your stack. Place your next tile.`, msg);
  tally.check("veto: no toggle once white's veto is used", (await page.$('[data-key="veto-toggle-white"]')) === null);
  await env.shot(page, "toscana-vetoed");

  // The move list: the vetoes with whose, no accepts.
  const items = await page.$$eval("#moves .move", (els) => els.map((e) => e.textContent));
  tally.check("veto: the move list leaves the accepts out", items.every((t) => t !== "accept"), items.join(" | "));
  tally.check("veto: the move list shows both vetoes and whose", items.includes("veto by white") && items.includes("veto by black"), items.join(" | "));
  // The page reacts to black's veto when its message shows (above); any move
  // it would send then has been asked of the network by now.
  tally.check("veto: the page asked to send no move after black's veto", sentAfterVeto.length === 0, sentAfterVeto.join(" "));
  g = await get("white");
  tally.check("veto: the page sent nothing after black's veto (white is to place)", g.ply === 9 && g.moves[8] === "veto" && g.tomove === "white",
    g.moves.join(" "));
}
