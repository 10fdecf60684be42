// linkgame.test.mjs — a game between two screens by link (issue 34):
// presence (the other player's page open, then closed, then back), no engine
// help for either player while it runs, and the rematch: one player starts
// it, the other is offered "Join the rematch", and both land in the new game
// with the colours swapped and their own links still working.

import { api, pageGame, sleep } from "./harness.mjs";

async function until(fn, ms = 30000) {
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
  // who is here comes by the live socket, after the game itself: waited for
  const presence = () => pw.evaluate(() => [...document.querySelectorAll(".presence")].map((e) => e.parentElement?.id || e.parentElement?.className));
  await until(async () => (await presence()).length > 0);
  const rows = await presence();
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

  // The end by agreement (offers between two screens), then the rematch.
  await pw.waitForSelector('#offers button[data-kind="draw"][data-act="offer"]');
  tally.check("link game: no take-back to ask before any move", (await pw.$('#offers button[data-kind="takeback"]')) === null);
  await pw.click('#offers button[data-kind="draw"][data-act="offer"]');
  tally.check("link game: white is told the draw is offered",
    await until(async () => /You offered a draw/.test((await pw.textContent("#offers")) ?? "")), await pw.textContent("#offers"));
  const told = await until(async () => /White offers a draw/.test((await pb.textContent("#offers")) ?? ""));
  tally.check("link game: black sees the offer with Accept", told && !!(await pb.$('#offers button[data-kind="draw"][data-act="accept"]')),
    await pb.textContent("#offers"));
  await env.shot(pb, "link-draw-offer");
  await pb.click('#offers button[data-kind="draw"][data-act="accept"]');
  for (const p of [pw, pb]) await p.waitForFunction(() => document.body.dataset.over === "1");
  const gEnd = (await api(url, "GET", `/api/games/${id}`)).data;
  tally.check("link game: drawn by agreement", gEnd.winner === "draw" && gEnd.end === "agreement", `${gEnd.winner} ${gEnd.end}`);
  tally.check("link game: no offers once over", await pw.isHidden("#offers"));
  tally.check("link game: the status says drawn by agreement", (await pw.textContent("#status")) === "Drawn by agreement", await pw.textContent("#status"));
  tally.check("link game: no presence once over", (await pw.evaluate(() => document.querySelectorAll(".presence").length)) === 0);
  const hintAfter = await api(url, "POST", `/api/games/${id}/hint`, { seat: white });
  // Over, the fair-play gate is open: a hint is refused only because nobody
  // is to move (409, not the 403 of fair play), and the analysis answers.
  tally.check("link game: once over, a hint is no longer refused for fair play (409: nobody to move)",
    hintAfter.status === 409 && !/engine help/.test(JSON.stringify(hintAfter.data)), `${hintAfter.status} ${JSON.stringify(hintAfter.data)}`);
  const anAfter = await api(url, "GET", `/api/games/${id}/analysis`);
  tally.check("link game: engine help once it is over: the analysis answers (200)", anAfter.status === 200, String(anAfter.status));
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

  // A browser notification when the opponent has moved and the tab is not in
  // front (Notification stubbed: permission granted, the tab hidden).
  const n = (await api(url, "POST", "/api/games", { game: "urbino", options: "", white: "human", black: "human" })).data;
  const pn = await env.newPage("link-notify");
  await pn.addInitScript(() => {
    window.__notes = [];
    window.Notification = class { constructor(title, o) { window.__notes.push([title, o && o.body]); } static get permission() { return "granted"; } static requestPermission() { return Promise.resolve("granted"); } };
    Object.defineProperty(document, "hidden", { get: () => true });
  });
  await pn.goto(`${url}/games/${n.id}?seat=${encodeURIComponent(n.seats.white)}`);
  await pn.waitForSelector("#board [data-square]");
  tally.check("notify: permission granted: no switch to ask", await pn.isHidden("#notify"));
  const bg = (await api(url, "GET", `/api/games/${n.id}?seat=${encodeURIComponent(n.seats.black)}`)).data;
  await api(url, "POST", `/api/games/${n.id}/moves`, { seat: n.seats.black, move: bg.legal[0], ply: 0 });
  await pn.waitForFunction(() => document.querySelector("#board")?.getAttribute("data-ply") === "1");
  const notes = await until(async () => { const x = await pn.evaluate(() => window.__notes); return x.length ? x : null; });
  tally.check("notify: the opponent moved, the tab hidden: 'Your turn' is notified", !!notes && /Your turn/.test(notes[0][0]) && /opponent moved/.test(notes[0][1] ?? ""),
    JSON.stringify(notes));
  const pq = await env.newPage("link-notify-ask");
  await pq.goto(`${url}/games/${n.id}?seat=${encodeURIComponent(n.seats.black)}`);
  await pq.waitForSelector("#board [data-square]");
  tally.check("notify: in a browser not yet asked, the switch is offered", await pq.isVisible("#notify"));
}
