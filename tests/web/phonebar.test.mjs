// phonebar.test.mjs — issue 46's phone items: a game between accounts opens
// at the top of the page on a phone (the move list's current move scrolls
// inside the list, never the page: a Cathedral game used to open ~667 px
// down, its clock bar out of sight); the clock bar stays in sight while the
// page scrolls (sticky); Toscana's bar shows both names whole ("alma", not
// "alm…") and its clock on one line (the bar shows days a move only as the
// deadline of the side to move); Black's side panel has Black below.
// Screenshots at 390 px.

import { pageCall, signUp, until } from "./harness.mjs";

const PASSWORD = "correct horse";

async function signIn(page, url, name) {
  await page.goto(`${url}/signin`);
  await page.fill("#auth-name", name);
  await page.fill("#auth-password", PASSWORD);
  await Promise.all([page.waitForURL((u) => !u.pathname.startsWith("/signin")), page.click("#auth-submit")]);
  await page.waitForSelector("#account-name");
}

const call = pageCall;

async function duel(a, b, game, clock, moves) {
  const s = await call(a, "POST", "/api/seeks", { game, options: "", rated: false, colour: "white", clock });
  const id = (await call(b, "POST", `/api/seeks/${s.body.id}/accept`, {})).body.game;
  for (let i = 0; i < moves; i++) {
    const g = (await call(a, "GET", `/api/games/${id}`)).body;
    if (g.over) break;
    const tomove = g.tomove === "white" ? a : b;
    const gg = (await call(tomove, "GET", `/api/games/${id}`)).body;
    if (!gg.legal || !gg.legal.length) break;
    await call(tomove, "POST", `/api/games/${id}/moves`, { move: gg.legal[0], ply: gg.ply });
  }
  return id;
}

export async function run(env) {
  const { url, tally } = env;
  const phone = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true };
  const pa = await env.newPage("phonebar-alice", phone, /status of 40\d/);
  const pb = await env.newPage("phonebar-bruno", {}, /status of 40\d/);
  await signUp(pa, url, "alma");
  await signUp(pb, url, "bruno");

  // A Cathedral game with a real-time clock and a dozen moves.
  const cid = await duel(pa, pb, "cathedral", { initial: 600, increment: 5 }, 12);
  await pa.goto(`${url}/games/${cid}`);
  await pa.waitForSelector("#board [data-square]");
  await pa.waitForSelector("#moves .current");
  const at = await pa.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => r({
    y: window.scrollY, bar: document.querySelector("#clock-bar")?.getBoundingClientRect().top ?? -1,
  })))));
  tally.check("phone: a Cathedral game opens at the top of the page (not scrolled to its move list)", at.y === 0, JSON.stringify(at));
  tally.check("phone: its clock bar is in sight at once", at.bar >= 0 && at.bar < 844, JSON.stringify(at));
  await env.shot(pa, "phonebar-cathedral-390");
  await pa.evaluate(() => window.scrollTo(0, 500));
  const stuck = await pa.evaluate(() => new Promise((r) => requestAnimationFrame(() => r(document.querySelector("#clock-bar")?.getBoundingClientRect().top ?? -1))));
  tally.check("phone: scrolled 500 px down, the clock bar stays at the top (sticky)", stuck >= 0 && stuck <= 8, String(stuck));
  await env.shot(pa, "phonebar-cathedral-scrolled-390");

  // The side panel as the board: Black's own row below, White's above.
  await pb.goto(`${url}/games/${cid}`);
  await pb.waitForSelector("#player-white .who");
  const order = await pb.evaluate(() => {
    const w = document.querySelector("#player-white"), b = document.querySelector("#player-black");
    return !!(w && b && (w.compareDocumentPosition(b) & Node.DOCUMENT_POSITION_FOLLOWING));
  });
  tally.check("the side panel of Black's screen: White above, Black (its own side) below", order);
  await env.shot(pb, "phonebar-black-panel-1280");

  // Toscana, a day a move: both names whole, the clock on one line.
  const tid = await duel(pa, pb, "toscana", { days: 1 }, 2);
  await pa.goto(`${url}/games/${tid}`);
  await pa.waitForSelector("#clock-bar .bar-name");
  const bar = await pa.evaluate(() => ({
    names: [...document.querySelectorAll("#clock-bar .bar-name")].map((n) => ({ text: n.textContent, cut: n.scrollWidth > n.clientWidth })),
    clocks: [...document.querySelectorAll("#clock-bar .clock")].map((c) => ({ text: c.textContent, h: c.getBoundingClientRect().height,
      line: parseFloat(getComputedStyle(c).lineHeight) || parseFloat(getComputedStyle(c).fontSize) * 1.3 })),
  }));
  tally.check("phone: Toscana's clock bar shows both names whole", bar.names.length === 2 && bar.names.every((n) => !n.cut), JSON.stringify(bar.names));
  tally.check("phone: ... and each clock on one line", bar.clocks.length === 2 && bar.clocks.every((c) => c.h < c.line * 1.8 + 8), JSON.stringify(bar.clocks));
  await env.shot(pa, "phonebar-toscana-390");
  // Signing out while it is one's turn with a clock running: said first.
  let cg = (await call(pa, "GET", `/api/games/${cid}`)).body;
  if (cg.tomove === "black") {
    const gb = (await call(pb, "GET", `/api/games/${cid}`)).body;
    await call(pb, "POST", `/api/games/${cid}/moves`, { move: gb.legal[0], ply: gb.ply });
    cg = (await call(pa, "GET", `/api/games/${cid}`)).body;
  }
  await pa.goto(`${url}/`);
  await pa.waitForSelector("#my-games li.your-turn");
  await pa.click("#account-name");
  await pa.click("#sign-out");
  tally.check("sign out on one's turn with a clock running: a warning first, still signed in",
    /sign out anyway/.test(await pa.textContent("#sign-out")) && (await call(pa, "GET", "/api/me")).status === 200, await pa.textContent("#sign-out"));
  await pa.click("#sign-out");
  await pa.waitForSelector("#sign-in-link");
  tally.check("... the second press signs out", (await call(pa, "GET", "/api/me")).status === 401);
  await signIn(pa, url, "alma");

  // Its move list counts the moves shown, without gaps (hidden accepts take no number).
  const tid2 = await duel(pa, pb, "toscana", { days: 1 }, 9);
  await pa.goto(`${url}/games/${tid2}`);
  await pa.waitForSelector("#moves .current");
  const nums = await pa.evaluate(() => [...document.querySelectorAll("#moves li")].map((li) => li.value));
  tally.check("Toscana's move list is numbered 0, 1, 2 ... without gaps", nums.length > 3 && nums.every((v, i) => v === i), JSON.stringify(nums));
}
