// linkgame.test.mjs — a game between two screens by link (issue 34):
// presence (the other player's page open, then closed, then back), no engine
// help for either player while it runs, and the rematch: one player starts
// it, the other is offered "Join the rematch", and both land in the new game
// with the colours swapped and their own links still working.

import { api, pageGame, sleep } from "./harness.mjs";

async function until(fn, ms = 10000) {
  const t0 = Date.now();
  for (;;) {
    const v = await fn();
    if (v || Date.now() - t0 > ms) return v;
    await sleep(100);
  }
}

export async function run(env) {
  const { url, tally } = env;
  const c = (await api(url, "POST", "/api/games", { game: "urbino", options: "", white: "human", black: "human" })).data;
  const id = c.id, { white, black } = c.seats;
  const pw = await env.newPage("link-white");
  await pw.goto(`${url}/games/${id}?seat=${encodeURIComponent(white)}`);
  await pw.waitForSelector("#board [data-square]");
  const rows = await pw.evaluate(() => [...document.querySelectorAll(".presence")].map((e) => e.parentElement?.id || e.parentElement?.className));
  tally.check("link game: presence is shown for the other player", rows.length === 1, JSON.stringify(rows));
  const absent = await until(async () => (await pw.evaluate(() => document.querySelector(".presence")?.getAttribute("data-present"))) === "0");
  tally.check("link game: black's page not open yet: not connected", absent);

  let pb = await env.newPage("link-black");
  await pb.goto(`${url}/games/${id}?seat=${encodeURIComponent(black)}`);
  await pb.waitForSelector("#board [data-square]");
  const here = await until(async () => (await pw.evaluate(() => document.querySelector(".presence")?.getAttribute("data-present"))) === "1");
  tally.check("link game: black's page opened: connected", here);
  const text = await pw.evaluate(() => document.querySelector(".presence")?.textContent);
  tally.check("link game: the presence says it in words", text === "connected", text);
  await env.shot(pw, "link-presence");
  tally.check("link game: no Hint for either player while it runs",
    (await pw.isHidden("#hint")) && (await pb.isHidden("#hint")));
  const hint = await api(url, "POST", `/api/games/${id}/hint`, { seat: white });
  tally.check("link game: the server refuses a hint too (403)", hint.status === 403, String(hint.status));

  await pb.close();
  const gone = await until(async () => (await pw.evaluate(() => document.querySelector(".presence")?.getAttribute("data-present"))) === "0");
  tally.check("link game: black's tab closed: not connected", gone);
  pb = await env.newPage("link-black-again");
  await pb.goto(`${url}/games/${id}?seat=${encodeURIComponent(black)}`);
  await pb.waitForSelector("#board [data-square]");
  tally.check("link game: black back: connected again",
    await until(async () => (await pw.evaluate(() => document.querySelector(".presence")?.getAttribute("data-present"))) === "1"));

  // The end, then the rematch.
  await api(url, "POST", `/api/games/${id}/resign`, { seat: white });
  for (const p of [pw, pb]) await p.waitForFunction(() => document.body.dataset.over === "1");
  tally.check("link game: no presence once over", (await pw.evaluate(() => document.querySelectorAll(".presence").length)) === 0);
  const hintAfter = await api(url, "POST", `/api/games/${id}/hint`, { seat: white });
  tally.check("link game: engine help once it is over", hintAfter.status !== 403, String(hintAfter.status));
  tally.check("link game: both are offered a rematch", !(await pw.isHidden("#rematch")) && !(await pb.isHidden("#rematch")));
  await Promise.all([pb.waitForURL((u) => !u.pathname.endsWith(id)), pb.click("#rematch")]);
  await pb.waitForSelector("#board [data-square]");
  const nb = pageGame(pb);
  tally.check("link game: the rematch keeps the player's link (token)", nb.id !== id && nb.seat === black, JSON.stringify(nb));
  const join = await until(async () => (await pw.textContent("#rematch")) === "Join the rematch");
  tally.check("link game: the other player is offered to join it", join, await pw.textContent("#rematch"));
  await env.shot(pw, "link-join-rematch");
  await Promise.all([pw.waitForURL((u) => !u.pathname.endsWith(id)), pw.click("#rematch")]);
  await pw.waitForSelector("#board [data-square]");
  const nw = pageGame(pw);
  tally.check("link game: both are in the same new game", nw.id === nb.id && nw.seat === white, JSON.stringify(nw));
  const gw = (await api(url, "GET", `/api/games/${nw.id}?seat=${encodeURIComponent(white)}`)).data;
  const gb = (await api(url, "GET", `/api/games/${nb.id}?seat=${encodeURIComponent(black)}`)).data;
  tally.check("link game: colours swapped in the rematch", gw.seat === "black" && gb.seat === "white" && gw.ply === 0,
    `${gw.seat} ${gb.seat} ${gw.ply}`);
  tally.check("link game: each sees the other present in the rematch",
    await until(async () => (await pw.evaluate(() => document.querySelector(".presence")?.getAttribute("data-present"))) === "1"));
  await env.shot(pb, "link-rematch");
}
