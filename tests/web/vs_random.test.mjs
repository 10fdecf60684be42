// vs_random.test.mjs — a complete game of Urbino and of Epaminondas against
// the random player, made on the page by clicks and keys only (the test reads
// the legal moves from the API to choose one; the page makes it).  Screenshots
// at the start, the middle and the end, a phone-sized one, the dark theme;
// the move list steps back and forth; hint and undo work.

import { api, newGameFromHome, pageGame, waitTurn } from "./harness.mjs";
import { epaminondasMove, urbinoMove } from "./square_input.mjs";

// A seeded generator so a failing game can be replayed.
function rng(seed) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 4294967296;
  };
}

function urbinoChoice(legal, rand) {
  // Mostly plain builds, sometimes an architect move first.
  const moving = legal.filter((m) => m.includes(","));
  const plain = legal.filter((m) => !m.includes(","));
  const pool = moving.length && (rand() < 0.3 || !plain.length) ? moving : plain;
  return pool[Math.floor(rand() * pool.length)];
}

// Epaminondas: march forward and take what can be taken, so the game ends.
function epaChoice(legal, side, rand) {
  const rank = (s) => Number(s.slice(1));
  const fwd = (m) => {
    const x = /^([a-n]\d+)(?:([a-n]\d+))?([-x])([a-n]\d+)$/.exec(m);
    const front = x[2] ?? x[1];
    const d = rank(x[4]) - rank(front);
    const gain = side === "white" ? d : -d;
    const far = side === "white" ? rank(x[4]) === 12 : rank(x[4]) === 1;
    return (x[3] === "x" ? 20 : 0) + (far ? 30 : 0) + gain * 3 + rand();
  };
  let best = legal[0], bv = -Infinity;
  for (const m of legal) {
    const v = fwd(m);
    if (v > bv) { bv = v; best = m; }
  }
  return best;
}

async function playGame(env, game, { colour, seed }) {
  const { url, tally } = env;
  const page = await env.newPage(`${game} vs random`);
  await newGameFromHome(page, url, { game, opponent: "computer", level: "random", colour });
  const { id } = pageGame(page);
  const rand = rng(seed);
  let g = await waitTurn(page, url, -1);
  await env.shot(page, `${game}-start`);
  let n = 0, ply = g.ply;
  let sawHistory = false, sawHint = false, sawUndo = false;
  while (!g.over) {
    if (n > 200) throw new Error(`${game}: no end after 200 moves`);
    const move = game === "urbino" ? urbinoChoice(g.legal, rand) : epaChoice(g.legal, g.seat, rand);
    const how = n % 4 === 3 ? "keys" : "mouse";
    if (game === "urbino") await urbinoMove(page, move, how);
    else await epaminondasMove(page, move, how);
    g = await waitTurn(page, url, ply);
    if (!tally.check(`${game}: move ${move} (${how}) was played`, g.moves.includes(move) || g.over, `moves ${g.moves.slice(-4)}`)) break;
    ply = g.ply;
    n++;
    if (n === (game === "urbino" ? 8 : 3) && !g.over) {
      await env.shot(page, `${game}-middle`);
      // The move list: click the first move, step with the arrow keys, come back.
      await page.click('#moves [data-step="1"]');
      await page.waitForSelector('#board[data-ply="1"][data-live="0"]');
      const first = await page.getAttribute('#board [data-square][aria-label*="last move"]', "data-square");
      await page.locator("#moves").focus().catch(() => {});
      await page.keyboard.press("ArrowRight");
      await page.waitForSelector('#board[data-ply="2"]');
      await page.keyboard.press("ArrowLeft");
      await page.keyboard.press("ArrowLeft");
      await page.waitForSelector('#board[data-ply="0"]');
      await env.shot(page, `${game}-history`);
      await page.keyboard.press("End");
      await page.waitForSelector(`#board[data-ply="${g.ply}"][data-live="1"]`);
      sawHistory = !!first;
      // A hint is shown and names a legal move.
      await page.click("#hint");
      await page.waitForFunction(() => /^Hint: /.test(document.querySelector("#message")?.textContent ?? ""), null, { timeout: 20000 })
        .catch(async () => { await env.shot(page, `${game}-hint-failed`); throw new Error(`no hint shown: ${await page.textContent("#message")}`); });
      const hint = (await page.textContent("#message")).replace("Hint: ", "").trim();
      sawHint = g.legal.includes(hint);
      // Undo takes back my move and the computer's answer.
      const before = g.ply;
      await page.click("#undo");
      await page.waitForFunction((p) => Number(document.querySelector("#board")?.getAttribute("data-ply")) < p, before);
      g = await waitTurn(page, url, -1);
      sawUndo = g.ply < before && g.legal.length > 0;
      ply = g.ply;
    }
  }
  tally.check(`${game}: the move list shows a past position`, sawHistory);
  tally.check(`${game}: the hint is a legal move`, sawHint);
  tally.check(`${game}: undo takes a move back`, sawUndo);
  tally.check(`${game}: the game ended`, g.over, JSON.stringify({ ply: g.ply }));
  const status = await page.textContent("#status");
  tally.check(`${game}: the result is shown`, /wins|Drawn/.test(status), status);
  await env.shot(page, `${game}-end`);
  // The analysis after the game: a graph of every move; a point shows its position.
  await page.click("#analysis-btn");
  await page.waitForSelector(".analysis-graph .an-pt", { timeout: 60000 })
    .then(async () => {
      const pts = await page.$$eval(".analysis-graph .an-pt", (els) => els.length);
      tally.check(`${game}: the analysis has a point per move`, pts === g.moves.length, `${pts} vs ${g.moves.length}`);
      await page.click('.analysis-graph .an-pt[data-step="2"]');
      await page.waitForSelector('#board[data-ply="2"][data-live="0"]');
      tally.check(`${game}: a point of the analysis shows its position`, true);
      await page.keyboard.press("End");
      // issue 34: large enough, labelled, one side's point of view, whose mistake each is
      const an = await page.evaluate(() => {
        const svg = document.querySelector(".analysis-graph");
        const r = svg.getBoundingClientRect();
        return { w: r.width, h: r.height, side: svg.getAttribute("data-side"),
          axis: [...svg.querySelectorAll("text.an-axis")].map((t) => t.textContent),
          fonts: [...svg.querySelectorAll("text.an-axis")].map((t) => t.getBoundingClientRect().height),
          items: [...document.querySelectorAll(".an-item")].map((b) => ({ by: b.dataset.by, text: b.textContent })),
          pts: [...svg.querySelectorAll(".an-pt")].map((c) => c.dataset.by) };
      });
      tally.check(`${game}: the analysis graph is large enough to read`, an.w >= 600 && an.h >= 200, `${an.w}x${an.h}`);
      tally.check(`${game}: the graph is labelled (percent and moves)`, an.axis.includes("100%") && an.axis.includes("0%") &&
        an.axis.some((t) => /move/.test(t)) && an.axis.some((t) => /you win/.test(t)), an.axis.join(" | "));
      tally.check(`${game}: the graph's text is at least 12 px`, an.fonts.every((f) => f >= 12), an.fonts.join(","));
      tally.check(`${game}: the graph is from this player's side`, an.side === colour, an.side);
      tally.check(`${game}: every point knows who moved`, game === "epaminondas" ? an.pts.every((b, i) => b === (i % 2 ? "black" : "white")) :
        an.pts.slice(0, 3).join() === "black,white,black", an.pts.join(","));
      tally.check(`${game}: every mistake listed says whose it was`, an.items.every((it) =>
        (it.by === colour ? / your (mistake|blunder)/ : / your opponent's (mistake|blunder)/).test(it.text)), JSON.stringify(an.items));
      await env.shot(page, `${game}-analysis`);
    })
    .catch((e) => tally.check(`${game}: the analysis is shown`, false, String(e.message).split("\n")[0]));
  const rec = await api(url, "GET", `/api/games/${id}/record`);
  tally.check(`${game}: the record downloads`, rec.status === 200 && typeof rec.data === "string" && rec.data.length > 20);
  const href = await page.getAttribute("#download", "href");
  tally.check(`${game}: the download link points at the record`, href === `/api/games/${id}/record`, href);
  return n;
}

async function phone(env, game) {
  const { url, tally } = env;
  const page = await env.newPage(`${game} on a phone`, { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 });
  await newGameFromHome(page, url, { game, opponent: "computer", level: "random", colour: "white" });
  let g = await waitTurn(page, url, -1);
  const rand = rng(7);
  for (let i = 0; i < 3 && !g.over; i++) {
    const move = game === "urbino" ? urbinoChoice(g.legal, rand) : epaChoice(g.legal, g.seat, rand);
    if (game === "urbino") await urbinoMove(page, move, "tap");
    else await epaminondasMove(page, move, "tap");
    const before = g.ply;
    g = await waitTurn(page, url, before);
    tally.check(`${game} phone: tapped move ${move} was played`, g.moves.includes(move));
  }
  // the board's area fits the screen (a board too wide scrolls inside it: phone.test.mjs)
  const box = await page.locator("#board-scroll").boundingBox();
  const pageWidth = await page.evaluate(() => document.documentElement.scrollWidth);
  tally.check(`${game} phone: the board's area fits the screen width`, box && box.width <= 390 && box.width > 300 && pageWidth <= 390,
    JSON.stringify({ box, pageWidth }));
  await env.shot(page, `${game}-phone`);
  // The dark theme, by the toggle.
  await page.click("#theme");
  await env.shot(page, `${game}-phone-dark`);
}

export async function run(env) {
  const u = await playGame(env, "urbino", { colour: "white", seed: 11 });
  env.tally.check("urbino: a complete game by clicks and keys", u > 5);
  const e = await playGame(env, "epaminondas", { colour: "black", seed: 5 });
  env.tally.check("epaminondas: a complete game by clicks and keys", e > 3);
  await phone(env, "urbino");
  await phone(env, "epaminondas");
}
