// lobby.test.mjs — people playing people (issue 35), two browser contexts
// for two users and a third for a guest: sign up (and the refusals in words:
// a name taken, a wrong password, a name too short), the lobby seen live by
// both users and the guest, a seek offered with the form and accepted with
// one click (the seeker's page goes to the game by itself), the clocks on
// the game screen ticking and changing sides as moves are made on the page,
// a resignation, the profile's rating changed and the leaderboard; an abort
// before both sides moved; a correspondence game in the "your games" list of
// the home page, whose title says "Your turn".  Screenshots at 1280 and 390 px.

import { sleep } from "./harness.mjs";
import { epaminondasMove } from "./square_input.mjs";

const PASSWORD = "correct horse";

async function until(fn, ms = 30000) {
  const t0 = Date.now();
  for (;;) {
    const v = await fn().catch(() => null);
    if (v || Date.now() - t0 > ms) return v;
    await sleep(100);
  }
}

async function signUp(page, url, name, next = "") {
  await page.goto(`${url}/signup${next ? `?next=${encodeURIComponent(next)}` : ""}`);
  await page.fill("#auth-name", name);
  await page.fill("#auth-password", PASSWORD);
  await page.fill("#auth-again", PASSWORD);
  await Promise.all([page.waitForURL((u) => !u.pathname.startsWith("/signup")), page.click("#auth-submit")]);
  await page.waitForSelector("#account-name");
}

// The game's JSON as this page's account sees it (its cookie).
const gameOf = (page, id) => page.evaluate(async (i) => (await fetch(`/api/games/${i}`)).json(), id);
const gameId = (page) => decodeURIComponent(/\/games\/([^/?]+)/.exec(page.url())?.[1] ?? "");

// Offer a seek with the lobby's form (the page is at /lobby).
async function offer(page, { game, clock, colour, rated = true, to = "" }) {
  await page.selectOption("#seek-game", game);
  await page.fill("#seek-to", to);
  await page.click(`.seek-form .choice:has(input[name="clock"][value="${clock}"])`);
  await page.click(`.seek-form .choice:has(input[name="seek-colour"][value="${colour}"])`);
  if (!rated) await page.uncheck("#seek-rated");
  await page.click("#seek-submit");
  await page.waitForSelector(".seek.own");
}

// Play one simple move (a single piece one square) of Epaminondas on the page.
async function playOne(page, id) {
  const g = await gameOf(page, id);
  const move = g.legal.find((m) => /^[a-n]\d+-[a-n]\d+$/.test(m));
  await epaminondasMove(page, move);
  await page.waitForFunction((p) => Number(document.querySelector("#board")?.getAttribute("data-ply")) > p, g.ply);
  return move;
}

export async function run(env) {
  const { url, tally } = env;
  const allow = /status of (401|409)/;
  const pa = await env.newPage("lobby-alice");
  const pb = await env.newPage("lobby-bob");
  const pg = await env.newPage("lobby-guest", {}, allow);

  // ---- Accounts ----
  await pg.goto(url + "/");
  await pg.waitForSelector("#sign-in-link");
  tally.check("accounts: a guest's header offers Sign in and Sign up",
    (await pg.isVisible("#sign-in-link")) && (await pg.isVisible("#sign-up-link")));
  await signUp(pa, url, "alice");
  tally.check("accounts: signed up, the header names alice", (await pa.textContent("#account-name")) === "alice");
  await signUp(pb, url, "bob", "/lobby");
  tally.check("accounts: sign-up goes back to ?next= (the lobby)", new URL(pb.url()).pathname === "/lobby", pb.url());

  await pg.goto(url + "/signup");
  await pg.fill("#auth-name", "ab");
  await pg.fill("#auth-password", PASSWORD);
  await pg.fill("#auth-again", PASSWORD);
  await pg.click("#auth-submit");
  tally.check("accounts: a name too short is refused in words", /3 to 20/.test(await pg.textContent("#auth-error")), await pg.textContent("#auth-error"));
  await pg.fill("#auth-name", "Alice");
  await pg.click("#auth-submit");
  tally.check("accounts: a name taken (ignoring case) is said so",
    await until(async () => /taken/.test(await pg.textContent("#auth-error"))), await pg.textContent("#auth-error"));
  await pg.goto(url + "/signin");
  await pg.fill("#auth-name", "alice");
  await pg.fill("#auth-password", "wrong password");
  await pg.click("#auth-submit");
  tally.check("accounts: a wrong password is said so",
    await until(async () => /Wrong name or password/.test(await pg.textContent("#auth-error"))), await pg.textContent("#auth-error"));

  // ---- The lobby, live ----
  await pg.goto(url + "/lobby");
  await pg.waitForSelector("#lobby-signin");
  tally.check("lobby: a guest is asked to sign in to play", /sign in/i.test(await pg.textContent("#lobby-signin")));
  tally.check("lobby: a guest has no form to offer a game", (await pg.$("#seek-form")) === null);
  await pa.goto(url + "/lobby");
  await pa.waitForSelector("#seek-form");
  await offer(pa, { game: "epaminondas", clock: "3+2", colour: "white" });
  tally.check("lobby: the seeker is told it waits", /waiting for an opponent/.test(await pa.textContent("#seek-waiting")));
  const seen = await until(() => pb.$('.seek[data-by="alice"]'));
  tally.check("lobby: bob sees alice's seek appear live", !!seen);
  tally.check("lobby: the seek says the clock and rated", /3\+2/.test(await pb.textContent('.seek[data-by="alice"] .seek-clock')) &&
    (await pb.textContent('.seek[data-by="alice"] .seek-rated')) === "rated");
  tally.check("lobby: the guest sees it too, with sign in to play",
    !!(await until(() => pg.$('.seek[data-by="alice"] .seek-act a'))));
  await pg.setViewportSize({ width: 390, height: 844 });
  await env.shot(pg, "lobby-guest-390");
  const gw = await pg.evaluate(() => document.documentElement.scrollWidth);
  tally.check("lobby: a guest's page (header with Sign in, Sign up) fits 390 px", gw <= 390, String(gw));
  tally.check("lobby: alice may withdraw hers, not accept it",
    (await pa.$('.seek[data-by="alice"] .withdraw')) !== null && (await pa.$('.seek[data-by="alice"] .accept')) === null);
  await env.shot(pb, "lobby-1280");
  await pb.setViewportSize({ width: 390, height: 844 });
  await env.shot(pb, "lobby-390");
  const wide = await pb.evaluate(() => document.documentElement.scrollWidth);
  tally.check("lobby: no sideways scrolling at 390 px", wide <= 390, String(wide));
  await pb.setViewportSize({ width: 1280, height: 860 });

  // ---- Accept: both pages go to the game ----
  await Promise.all([pb.waitForURL(/\/games\//), pb.click('.seek[data-by="alice"] .accept')]);
  await pa.waitForURL(/\/games\//, { timeout: 30000 });
  const id = gameId(pb);
  tally.check("lobby: the seeker's page went to the same game", gameId(pa) === id, `${gameId(pa)} ${id}`);
  for (const p of [pa, pb]) await p.waitForSelector("#board [data-square]");
  await pa.waitForSelector("#clock-white");
  const names = await pa.evaluate(() => [document.querySelector("#player-white .who")?.textContent, document.querySelector("#player-black .who")?.textContent]);
  tally.check("game: the players' names are shown", /alice/.test(names[0] ?? "") && /bob/.test(names[1] ?? ""), JSON.stringify(names));
  tally.check("game: the ratings beside the names",
    await until(async () => /1500\?/.test(await pa.textContent("#player-black"))), await pa.textContent("#player-black"));
  tally.check("game: both may abort before anyone moved", (await pa.isVisible("#abort")) && (await pb.isVisible("#abort")));
  tally.check("game: no hint between people", (await pa.isHidden("#hint")));
  const t1 = await pa.textContent("#clock-white");
  const t2 = await until(async () => { const t = await pa.textContent("#clock-white"); return t !== t1 ? t : null; });
  tally.check("game: white's clock runs on white's turn (3:00 down)", /^[23]:\d\d$/.test(t1) && !!t2 && t1 !== t2, `${t1} ${t2}`);
  tally.check("game: black's clock stands", (await pa.textContent("#clock-black")) === "3:00", await pa.textContent("#clock-black"));
  tally.check("game: the running clock is marked", await pa.$eval("#clock-white", (e) => e.classList.contains("running")));

  // ---- A few moves on the page, no seat tokens ----
  tally.check("game: no seat token in the address", !/seat=/.test(pa.url()) && !/seat=/.test(pb.url()));
  await playOne(pa, id);
  await pb.waitForFunction(() => document.querySelector("#board")?.getAttribute("data-ply") === "1");
  tally.check("game: after white's move black's clock runs", await until(() => pb.$eval("#clock-black", (e) => e.classList.contains("running"))));
  await playOne(pb, id);
  tally.check("game: no abort once both have moved", await until(() => pa.isHidden("#abort")));
  await pa.waitForFunction(() => document.querySelector("#board")?.getAttribute("data-ply") === "2");
  await playOne(pa, id);
  await pb.waitForFunction(() => document.querySelector("#board")?.getAttribute("data-ply") === "3");
  const g3 = await gameOf(pb, id);
  tally.check("game: three moves made on the pages, the clocks with increments", g3.ply === 3 && g3.clock.white > 170000 && g3.clock.white <= 184000,
    JSON.stringify(g3.clock));
  await env.shot(pa, "game-clocks-1280");
  // The lobby shows the game being played, one click from watching, and who is online.
  await pg.goto(url + "/lobby");
  const watching = await until(() => pg.$(`#playing li[data-id="${id}"] a`));
  tally.check("lobby: the game is listed as being played now, a link to watch it", !!watching &&
    (await pg.getAttribute(`#playing li[data-id="${id}"] a`, "href")) === `/games/${id}`);
  const onl = await pg.textContent("#online");
  tally.check("lobby: who is online names alice and bob (their game pages are open)", /alice/.test(onl) && /bob/.test(onl), onl);
  await pb.setViewportSize({ width: 390, height: 844 });
  await env.shot(pb, "game-clocks-390");
  await pb.setViewportSize({ width: 1280, height: 860 });

  // ---- Bob resigns ----
  await pb.click("#resign");
  await pb.click("#resign");
  for (const p of [pa, pb]) await p.waitForFunction(() => document.body.dataset.over === "1");
  tally.check("game: both players may offer a rematch",
    (await pa.isVisible('#offers [data-kind="rematch"][data-act="offer"]')) && (await pb.isVisible('#offers [data-kind="rematch"][data-act="offer"]')));
  tally.check("game: the resignation ends it for both", /Black resigned/.test(await pa.textContent("#status")), await pa.textContent("#status"));
  tally.check("game: no clock runs once over", (await pa.$$(".clock.running")).length === 0);

  // ---- Profile and leaderboard ----
  await pa.goto(`${url}/players/alice`);
  await pa.waitForSelector('#ratings tr[data-game="epaminondas"]');
  const r = await pa.textContent('#ratings tr[data-game="epaminondas"] .rating');
  tally.check("profile: alice's Epaminondas rating went up from 1500 (provisional: ?)", /^\d+\?$/.test(r) && parseInt(r, 10) > 1500, r);
  const line = await pa.textContent(`#player-games li[data-id="${id}"]`);
  tally.check("profile: the game listed, won by resignation, rated", /won by resignation/.test(line) && /rated/.test(line), line);
  tally.check("profile: the game links to its screen",
    (await pa.getAttribute(`#player-games li[data-id="${id}"] a`, "href")) === `/games/${id}`);
  const plot = await pa.evaluate(() => {
    const svg = document.querySelector('#rating-plots svg[data-game="epaminondas"]');
    if (!svg) return null;
    const pts = [...svg.querySelectorAll("circle.point")].map((c) => Number(c.getAttribute("cy")));
    const r = svg.getBoundingClientRect();
    return { n: pts.length, rising: pts.length === 2 && pts[1] < pts[0], label: svg.getAttribute("aria-label"), w: r.width,
      values: [...svg.querySelectorAll("text.value")].map((t) => t.textContent) };
  });
  tally.check("profile: the rating history plotted (1500, then up after the win)",
    plot && plot.n === 2 && plot.rising && plot.values[0] === "1500" && Number(plot.values[1]) > 1500 && plot.w >= 300, JSON.stringify(plot));
  await env.shot(pa, "profile-1280");
  await pb.goto(`${url}/players/bob`);
  await pb.waitForSelector("#ratings");
  const rb = await pb.textContent('#ratings tr[data-game="epaminondas"] .rating');
  tally.check("profile: bob's went down", parseInt(rb, 10) < 1500, rb);
  await pb.setViewportSize({ width: 390, height: 844 });
  await env.shot(pb, "profile-390");
  await pb.goto(`${url}/leaderboard/epaminondas`);
  await pb.waitForSelector("#leaders");
  const order = await pb.$$eval("#leaders tbody tr", (rows) => rows.map((x) => x.getAttribute("data-name")));
  tally.check("leaderboard: alice above bob", order.join() === "alice,bob", order.join());
  await env.shot(pb, "leaderboard-390");
  await pb.setViewportSize({ width: 1280, height: 860 });
  await pb.reload();
  await pb.waitForSelector("#leaders");
  await env.shot(pb, "leaderboard-1280");

  // ---- Abort before both moved ----
  await pa.goto(url + "/lobby");
  await pb.goto(url + "/lobby");
  await pa.waitForSelector("#seek-form");
  await offer(pa, { game: "epaminondas", clock: "10+5", colour: "black", rated: false });
  await until(() => pb.$('.seek[data-by="alice"] .accept'));
  await Promise.all([pb.waitForURL(/\/games\//), pb.click('.seek[data-by="alice"] .accept')]);
  await pa.waitForURL(/\/games\//);
  await pb.waitForSelector("#board [data-square]");
  await pb.waitForSelector("#abort:not([hidden])");
  await pb.click("#abort");
  for (const p of [pa, pb]) await p.waitForFunction(() => document.body.dataset.over === "1");
  tally.check("abort: the status says aborted", (await pa.textContent("#status")) === "Aborted", await pa.textContent("#status"));
  tally.check("abort: the end says no result", /aborted/.test(await pa.textContent("#end-reason")), await pa.textContent("#end-reason"));

  // ---- A challenge: only the player named sees it ----
  await pa.goto(url + "/lobby");
  await pb.goto(url + "/lobby");
  await pg.goto(url + "/lobby");
  await pa.waitForSelector("#seek-form");
  await offer(pa, { game: "urbino", clock: "3d", colour: "random", rated: false, to: "bob" });
  const ch = await until(() => pb.$('.seek[data-by="alice"]'));
  tally.check("challenge: bob sees alice's challenge, marked for him", !!ch && /a challenge for you/.test(await pb.textContent('.seek[data-by="alice"] .seek-game')));
  tally.check("challenge: alice sees it as hers, to bob", /challenge to bob/.test(await pa.textContent(".seek.own .seek-game")));
  // A barrier for the guest's lobby: bob offers an open game after alice's
  // challenge; once the guest sees bob's, it has had every change before it.
  await offer(pb, { game: "cathedral", clock: "3d", colour: "random", rated: false });
  tally.check("challenge: the guest sees an open game offered after it", !!(await until(() => pg.$('.seek[data-by="bob"]'))));
  tally.check("challenge: the guest does not see it", (await pg.$('.seek[data-by="alice"]')) === null);
  await pb.click(".seek.own .withdraw");
  await until(async () => (await pb.$(".seek.own")) === null && (await pg.$('.seek[data-by="bob"]')) === null);
  await pa.click(".seek.own .withdraw");
  await until(async () => (await pa.$(".seek.own")) === null);

  // ---- Correspondence: alice's turn on her home page ----
  await pa.goto(url + "/lobby");
  await pb.goto(url + "/lobby");
  await pa.waitForSelector("#seek-form");
  await offer(pa, { game: "epaminondas", clock: "1d", colour: "white" });
  tally.check("correspondence: the seek says days a move",
    /1 day a move/.test(await until(() => pb.textContent('.seek[data-by="alice"] .seek-clock')) ?? ""));
  await Promise.all([pb.waitForURL(/\/games\//), pb.click('.seek[data-by="alice"] .accept')]);
  await pa.waitForURL(/\/games\//);
  const cid = gameId(pa);
  await pa.waitForSelector("#clock-white");
  await playOne(pa, cid);
  await pb.waitForSelector("#board [data-square]");
  await playOne(pb, cid);
  const left = await until(async () => {
    const t = await pa.textContent("#clock-white");
    return /left$/.test(t) ? t : null;
  });
  tally.check("correspondence: the deadline in words (x h y min left)", /^(23 h \d+ min|1 day 0 h) left$/.test(left ?? ""), left);
  await pa.goto(url + "/");
  await pa.waitForSelector(`#my-games li[data-id="${cid}"]`);
  const item = await pa.textContent(`#my-games li[data-id="${cid}"]`);
  tally.check("your turn: the correspondence game is in alice's list, her turn, with the time left",
    /your turn/.test(item) && /bob/.test(item) && /(23 h \d+ min|1 day 0 h) left$/.test(item), item);
  tally.check("your turn: the home page's title says so", await until(async () => /^(\(\d+\) )?Your turn/.test(await pa.title())), await pa.title());
  await env.shot(pa, "home-your-turn-1280");
  await pa.setViewportSize({ width: 390, height: 844 });
  await env.shot(pa, "home-your-turn-390");
  await pa.setViewportSize({ width: 1280, height: 860 });
  await pb.goto(url + "/");
  await pb.waitForSelector(`#my-games li[data-id="${cid}"]`);
  tally.check("your turn: bob's list has it, waiting", /waiting for alice/.test(await pb.textContent(`#my-games li[data-id="${cid}"]`)));
  tally.check("your turn: bob's title does not say so", !/Your turn/.test(await pb.title()), await pb.title());

  // ---- The computer levels, rated ----
  await pb.goto(url + "/lobby");
  await pb.waitForSelector("#cpu-level option", { state: "attached" });
  const lv = await pb.$$eval("#cpu-level option", (o) => o.map((x) => x.textContent));
  tally.check("computers: ten levels listed with their measured ratings (one scale with the home page's \"about N\")", lv.length === 10 && /^Level 1 .*rated 495$/.test(lv[0]) && /rated 711$/.test(lv[1]), JSON.stringify(lv.slice(0, 2)));
  await pb.selectOption("#cpu-game", "epaminondas");
  await pb.selectOption("#cpu-level", "ai:level=1");
  await Promise.all([pb.waitForURL(/\/games\//), pb.click("#cpu-play")]);
  await pb.waitForSelector("#board [data-square]");
  const rid = gameId(pb);
  const rg = await gameOf(pb, rid);
  tally.check("computers: a rated game against level 1, bob white, the computer as Computer-1",
    rg.rated && rg.seat === "white" && rg.accounts.black === "Computer-1" && rg.help === false && rg.undo === false, JSON.stringify([rg.rated, rg.seat, rg.accounts]));
  tally.check("computers: no hint and no undo on the page", (await pb.isHidden("#hint")) && (await pb.isHidden("#undo")));
  await env.shot(pb, "rated-computer-1280");

  // ---- Sessions: alice signed in in a second browser, ended from the account page ----
  const pa2 = await env.newPage("lobby-alice-2", {}, allow);
  await pa2.goto(url + "/signin");
  await pa2.fill("#auth-name", "alice");
  await pa2.fill("#auth-password", PASSWORD);
  await Promise.all([pa2.waitForURL((u) => !u.pathname.startsWith("/signin")), pa2.click("#auth-submit")]);
  await pa2.waitForSelector("#account-name");
  await pa.goto(url + "/account");
  await pa.waitForSelector("#sessions li.current");
  const nsess = (await pa.$$("#sessions li")).length;
  tally.check("account: the sessions listed, this browser marked", nsess >= 2 && /this browser/.test(await pa.textContent("#sessions li.current")), String(nsess));
  await pa.click("#end-others");
  await until(async () => (await pa.$$("#sessions li")).length === 1);
  const me2 = await pa2.evaluate(async () => (await fetch("/api/me")).status);
  tally.check("account: 'Sign out everywhere else' ended the other browser's session", me2 === 401, String(me2));
  await env.shot(pa, "account-sessions-1280");

  // ---- Account page and sign out ----
  await pa.goto(url + "/account");
  await pa.fill("#pw-old", PASSWORD);
  await pa.fill("#pw-new", "a new password");
  await pa.fill("#pw-again", "a new password");
  await pa.click("#pw-submit");
  tally.check("account: the password is changed", await until(async () => /changed/.test(await pa.textContent("#pw-done"))));
  await pa.click("#account-name");
  await Promise.all([pa.waitForURL(url + "/"), pa.click("#sign-out")]);
  await pa.waitForSelector("#sign-in-link");
  tally.check("account: signed out, the header offers Sign in again", await pa.isVisible("#sign-in-link"));
}
