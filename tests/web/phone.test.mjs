// phone.test.mjs — every game on a 390 x 844 touch screen (issue 34, "Phone"),
// measured from the page: every square a player can tap is at least 40 px
// each way (a board too wide for that scrolls sideways inside its own area,
// with a bar saying so); no text of the game screen under 14 px (HTML text by
// its computed font-size, SVG text by its font-size times the drawing's
// scale); the page itself never scrolls sideways; the board uses the whole
// width; a full move made by taps alone; on Epaminondas, the area scrolls by
// itself to keep the piece picked and its landings in view.  Screenshots
// phone-GAME-start and phone-GAME-moved in $BUILD/screenshots/.

import { api, sleep, waitTurn } from "./harness.mjs";
import { epaminondasMove, urbinoMove } from "./square_input.mjs";
import { makeMove } from "./polyomino_input.mjs";

const PHONE = { viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, hasTouch: true, isMobile: true };

// What the page shows, measured.
async function measure(page) {
  return page.evaluate(() => {
    const vis = (e) => {
      const r = e.getBoundingClientRect();
      if (r.width === 0 || r.height === 0) return false;
      for (let x = e; x && x.nodeType === 1; x = x.parentElement) {
        const cs = getComputedStyle(x);
        if (cs.display === "none" || cs.visibility === "hidden" || x.classList.contains("sr-only")) return false;
      }
      return true;
    };
    const squares = [...document.querySelectorAll("#board [data-square]")].map((e) => {
      const r = e.getBoundingClientRect();
      return { sq: e.getAttribute("data-square"), w: r.width, h: r.height };
    });
    const texts = [];
    // HTML text of the game screen
    const walker = document.createTreeWalker(document.querySelector("#app"), NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const p = n.parentElement;
      if (!n.textContent.trim() || !p || p.closest("svg") || !vis(p)) continue;
      texts.push({ t: n.textContent.trim().slice(0, 40), px: parseFloat(getComputedStyle(p).fontSize) });
    }
    // SVG text: its font-size in user units times the drawing's scale
    for (const t of document.querySelectorAll("#app svg text")) {
      if (!t.textContent.trim() || !vis(t)) continue;
      const m = t.getScreenCTM();
      const scale = m ? Math.hypot(m.a, m.b) : 1;
      texts.push({ t: t.textContent.trim().slice(0, 40), px: parseFloat(getComputedStyle(t).fontSize) * scale });
    }
    const sc = document.querySelector("#board-scroll").getBoundingClientRect();
    return {
      squares, texts,
      pageWidth: Math.max(document.documentElement.scrollWidth, document.body.scrollWidth),
      area: { left: sc.left, right: sc.right },
      scrolls: !document.querySelector("#scroll-bar").hidden,
      hint: document.querySelector("#scroll-text").textContent,
      shaded: ["more-left", "more-right"].filter((c) => document.querySelector("#board-scroll").classList.contains(c)),
    };
  });
}

// The squares shown in the board's area (not scrolled out of it).
async function inView(page, squares) {
  return page.evaluate((names) => {
    const sc = document.querySelector("#board-scroll").getBoundingClientRect();
    return names.filter((n) => {
      const r = document.querySelector(`#board [data-square="${n}"]`).getBoundingClientRect();
      return r.left >= sc.left - 1 && r.right <= sc.right + 1;
    });
  }, squares);
}

// Wait until the board's area stops scrolling (a smooth scroll).
// The page's measures once the layout stands still: measured until two
// readings in a row agree (within 10 s).
async function stableMeasure(page) {
  let last = await measure(page);
  for (let i = 0; i < 200; i++) {
    await sleep(50);
    const m = await measure(page);
    if (JSON.stringify(m) === JSON.stringify(last)) return m;
    last = m;
  }
  return last;
}

async function settled(page) {
  let last = -1;
  for (let i = 0; i < 40; i++) {
    const x = await page.evaluate(() => document.querySelector("#board-scroll").scrollLeft);
    if (x === last) return;
    last = x;
    await sleep(80);
  }
}

// Epaminondas: tap a rear piece; the piece and the squares offered beside it
// are kept in view by the area scrolling by itself.
async function followsPick(env, page, g) {
  const { tally } = env;
  const sc = await page.evaluate(() => { const s = document.querySelector("#board-scroll"); return { w: s.clientWidth, total: s.scrollWidth }; });
  // A rear piece of a move going far to one side, picked where the area shows it.
  const moves = g.legal.map((m) => /^([a-n]\d{1,2})/.exec(m)?.[1]).filter(Boolean);
  for (const start of [0, sc.total]) {
    await page.evaluate((x) => { document.querySelector("#board-scroll").scrollLeft = x; }, start);
    await settled(page);
    const shown = await inView(page, [...new Set(moves)]);
    const rear = shown[start === 0 ? shown.length - 1 : 0];
    if (!tally.check(`epaminondas phone: a piece that can move is in view with the area scrolled to ${start === 0 ? "the left" : "the right"}`,
      !!rear, `${shown.length} shown of ${moves.length}`)) continue;
    // the tap itself must not be what scrolls: the square is in view
    const box = await page.locator(`#board [data-square="${rear}"]`).boundingBox();
    await page.touchscreen.tap(box.x + box.width / 2, box.y + box.height / 2);
    await page.waitForSelector(`#board [data-square="${rear}"] .pick-ring`);
    await settled(page);
    const offered = await page.$$eval("#board [data-square]", (els) => els.filter((e) =>
      e.querySelector(".dot, .front-ring, .capture-ring")).map((e) => e.getAttribute("data-square")));
    const seen = await inView(page, [rear, ...offered]);
    tally.check(`epaminondas phone: the piece picked (${rear}) stays in view`, seen.includes(rear));
    const xs = await page.$$eval("#board [data-square]", (els, names) => els.filter((e) => names.includes(e.getAttribute("data-square")))
      .map((e) => e.getBoundingClientRect()).flatMap((r) => [r.left, r.right]), [rear, ...offered]);
    const fits = Math.max(...xs) - Math.min(...xs) + 16 <= sc.w;
    // When the piece and its landings fit in the area, all are scrolled into
    // view; when they cannot all fit, the piece and at least one landing are.
    if (fits)
      tally.check(`epaminondas phone: the squares offered from ${rear} are scrolled into view`,
        seen.length === offered.length + 1, `${seen.length - 1} of ${offered.length} shown: ${offered.join(" ")}`);
    else
      tally.check(`epaminondas phone: the squares offered from ${rear} do not all fit: the piece and a landing are in view`,
        seen.includes(rear) && seen.length >= 2 && offered.length >= 1, `${seen.length - 1} of ${offered.length} shown: ${offered.join(" ")}`);
    await env.shot(page, `phone-epaminondas-picked-${start === 0 ? "right" : "left"}`);
    // drop it again
    await page.touchscreen.tap(box.x + box.width / 2, box.y + box.height / 2).catch(() => {});
    await page.keyboard.press("Escape");
  }
  const hint = await page.textContent("#scroll-text");
  tally.check("epaminondas phone: the bar says the board scrolls sideways", /scrolls sideways/.test(hint), hint);
}

async function one(env, game) {
  const { url, tally } = env;
  const page = await env.newPage(`${game} phone`, PHONE);
  const made = await api(url, "POST", "/api/games", { game, options: "", white: "human", black: "random" });
  if (!tally.check(`${game} phone: the game is created`, made.status === 201, JSON.stringify(made.data))) return;
  await page.goto(`${url}/games/${encodeURIComponent(made.data.id)}?seat=${encodeURIComponent(made.data.seats.white)}`);
  await page.waitForSelector("#board [data-square]");
  let g = await waitTurn(page, url, -1);
  const m = await stableMeasure(page);
  const minSq = Math.min(...m.squares.map((s) => Math.min(s.w, s.h)));
  const small = m.squares.filter((s) => Math.min(s.w, s.h) < 40);
  tally.check(`${game} phone: every square is at least 40 px (smallest ${minSq.toFixed(1)})`, m.squares.length > 0 && !small.length,
    small.slice(0, 5).map((s) => `${s.sq} ${s.w.toFixed(1)}x${s.h.toFixed(1)}`).join(", "));
  const minText = m.texts.reduce((a, t) => (t.px < a.px ? t : a), { px: Infinity, t: "" });
  const tiny = m.texts.filter((t) => t.px < 13.95);
  tally.check(`${game} phone: no text under 14 px (smallest ${minText.px.toFixed(1)}, "${minText.t}")`, m.texts.length > 5 && !tiny.length,
    tiny.slice(0, 8).map((t) => `"${t.t}" ${t.px.toFixed(1)}`).join(", "));
  tally.check(`${game} phone: the page does not scroll sideways`, m.pageWidth <= 390, String(m.pageWidth));
  tally.check(`${game} phone: the board uses the whole width`, m.area.left <= 0.5 && m.area.right >= 389.5, JSON.stringify(m.area));
  console.log(`  ${game} at 390 px: smallest square ${minSq.toFixed(1)} px, smallest text ${minText.px.toFixed(1)} px ("${minText.t}"), ` +
    `board ${m.scrolls ? "scrolls sideways" : "fits"}`);
  await env.shot(page, `phone-${game}-start`);
  // a board that fits has no shaded edge (a shade left from a narrower
  // moment of the page's loading dimmed the first column for good)
  if (!m.scrolls) tally.check(`${game} phone: a board that fits shades no edge`, m.shaded.length === 0, m.shaded.join(" "));

  if (game === "epaminondas") {
    tally.check("epaminondas phone: the board scrolls sideways, and says so", m.scrolls && /scrolls sideways/.test(m.hint), m.hint);
    await followsPick(env, page, g);
  }

  // A full move by taps alone.
  const move = game === "toscana" || game === "cathedral"
    ? (g.legal.find((x) => !/^(veto|accept|pass)$/.test(x)) ?? g.legal[0]) : g.legal[Math.floor(g.legal.length / 2)];
  if (game === "urbino") await urbinoMove(page, move, "tap");
  else if (game === "epaminondas") await epaminondasMove(page, move, "tap");
  else await makeMove(page, game, move, { touch: true });
  const before = g.ply;
  g = await waitTurn(page, url, before);
  tally.check(`${game} phone: a move by taps alone (${move})`, g.moves.includes(move), g.moves.slice(-3).join(" "));
  const m2 = await stableMeasure(page);
  tally.check(`${game} phone: after the move, still no sideways page`, m2.pageWidth <= 390, String(m2.pageWidth));
  await env.shot(page, `phone-${game}-moved`);
}

export async function run(env) {
  for (const game of ["urbino", "epaminondas", "cathedral", "toscana"]) await one(env, game);
}
