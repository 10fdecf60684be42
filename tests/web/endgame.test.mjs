// endgame.test.mjs — the end of a game (issue 34): the end screen says why
// the game ended (a resignation here; the server's view.end where it gives
// one), Rematch against the computer makes a new game with the colours
// swapped and the same options, and "New game" offers the last settings.

import { api, newGameFromHome, pageGame, waitTurn } from "./harness.mjs";

export async function run(env) {
  const { url, tally } = env;
  const page = await env.newPage("endgame");
  await newGameFromHome(page, url, { game: "cathedral", option: "late", opponent: "computer", level: "random", colour: "black" });
  const first = pageGame(page);
  const g0 = (await api(url, "GET", `/api/games/${first.id}`)).data;
  tally.check("endgame: the game is as chosen", g0.options === "opening=late" && g0.white === "random" && g0.black === "human",
    `${g0.options} ${g0.white} ${g0.black}`);
  await waitTurn(page, url, -1);
  tally.check("endgame: no rematch while the game runs", await page.isHidden("#rematch"));
  await page.click("#resign");
  await page.click("#resign");
  await page.waitForFunction(() => document.body.dataset.over === "1");
  const status = await page.textContent("#status");
  const end = await page.evaluate(() => { const e = document.querySelector("#end-reason"); return e && !e.hidden ? e.textContent : ""; });
  const g1 = (await api(url, "GET", `/api/games/${first.id}`)).data;
  const want = (g1.view.end ?? "").trim();
  tally.check("endgame: the result is shown", status === "Black resigned: white wins", status);
  tally.check("endgame: the end screen says why the game ended", end.startsWith("Black resigned.") &&
    (!want || /resign/i.test(want) || end.includes(want)), end);
  await env.shot(page, "endgame-resigned");

  // Rematch: colours swapped, the same options, against the same computer.
  const label = await page.textContent("#rematch");
  tally.check("endgame: Rematch is offered, naming the colour", !(await page.isHidden("#rematch")) && /you play white/.test(label), label);
  await Promise.all([page.waitForURL((u) => !u.pathname.endsWith(first.id)), page.click("#rematch")]);
  await page.waitForSelector("#board [data-square]");
  const second = pageGame(page);
  const g2 = (await api(url, "GET", `/api/games/${second.id}?seat=${encodeURIComponent(second.seat)}`)).data;
  tally.check("endgame: the rematch swaps the colours and keeps the options",
    second.id !== first.id && g2.white === "human" && g2.black === "random" && g2.options === "opening=late" && g2.seat === "white",
    `${g2.white} ${g2.black} ${g2.options} seat ${g2.seat}`);

  // "New game" offers the last settings.
  await Promise.all([page.waitForURL(/\/$/), page.click("#new-game")]);
  await page.waitForSelector(".game-card");
  const form = await page.evaluate(() => ({
    game: document.querySelector('input[name="game"]:checked')?.value,
    option: document.querySelector('input[name="gopt"]:checked')?.value,
    opponent: document.querySelector('input[name="opponent"]:checked')?.value,
    colour: document.querySelector('input[name="colour"]:checked')?.value,
    level: document.querySelector("#level")?.value,
  }));
  tally.check("endgame: New game keeps the last settings", form.game === "cathedral" && form.option === "opening=late" &&
    form.opponent === "computer" && form.colour === "black" && form.level === "random", JSON.stringify(form));
  await env.shot(page, "endgame-new-game");
}
