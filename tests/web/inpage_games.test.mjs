// inpage_games.test.mjs — a game of each of the four games played in the
// page against its own engine (/play/GAME, the computer at level 1), at a
// desktop's width with the mouse and at a phone's (390 x 844, touch) with
// taps: the page's boards read the legal moves' parts from the engine's
// `legalGroups` (the same bytes as a server's game: tests/wasm/agree.mjs),
// so the moves must be offered and made by clicks or taps alone.  The test
// chooses each move among the legal moves of its own copy of the engine,
// replayed from the game the page keeps; Cathedral's and Toscana's boards
// must draw exactly that many legal moves (their data-sig).  Screenshots
// inpage-GAME-desktop.png and inpage-GAME-phone.png at the human's first turn.

import { loadTav, newEngine } from "../wasm/lib.mjs";
import { makeMove } from "./polyomino_input.mjs";
import { epaminondasMove, urbinoMove } from "./square_input.mjs";

const PHONE = { viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, hasTouch: true, isMobile: true };
const DESKTOP = { viewport: { width: 1280, height: 900 } };
const GAMES = ["urbino", "epaminondas", "cathedral", "toscana"];
const MOVES = { desktop: 3, phone: 2 };

function rng(seed) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 4294967296;
  };
}

const state = (page, game) => page.evaluate((g) => ({
  ply: Number(document.querySelector("[data-ply]")?.getAttribute("data-ply") ?? -1),
  over: document.body.dataset.over === "1",
  thinking: document.body.dataset.thinking === "1",
  status: document.querySelector("#status")?.textContent ?? "",
  sig: document.querySelector("[data-sig]")?.getAttribute("data-sig") ?? "",
  saved: JSON.parse(localStorage.getItem(`tavoliere.play.${g}`) ?? "null"),
}), game);

// The human's turn after ply `after` (or the end), polled with a deadline.
async function myTurn(page, game, after, timeout = 30000) {
  const t0 = Date.now();
  for (;;) {
    const s = await state(page, game);
    if ((s.ply > after && !s.thinking && /Your turn/.test(s.status)) || s.over) return s;
    if (Date.now() - t0 > timeout) throw new Error(`${game}: no turn after ply ${after}: ${JSON.stringify({ ...s, saved: undefined })}`);
    await new Promise((r) => setTimeout(r, 30));
  }
}

// The legal moves of the page's game for the human, from the test's engine.
function legalOf(engine, tav, saved) {
  engine.start(saved.game, saved.options, saved.seed);
  for (const m of saved.moves) engine.play(m);
  return engine.legal(saved.human === "white" ? tav.WHITE : tav.BLACK);
}

// A move the test can make by clicks: Urbino mostly plain builds.
function choose(game, legal, rand) {
  let pool = legal;
  if (game === "urbino") {
    const plain = legal.filter((m) => !m.includes(","));
    if (plain.length && rand() < 0.7) pool = plain;
  }
  return pool[Math.floor(rand() * pool.length)];
}

async function play(page, game, move, touch) {
  if (game === "urbino") return urbinoMove(page, move, touch ? "tap" : "mouse");
  if (game === "epaminondas") return epaminondasMove(page, move, touch ? "tap" : "mouse");
  return makeMove(page, game, move, { touch });
}

export async function run(env) {
  const { tally } = env;
  const { tav, why } = await loadTav();
  if (!tav) {
    if ((process.env.TAV_ALLOW_SKIP || "").split(",").includes("wasm")) {
      console.log(`inpage_games: skipped (TAV_ALLOW_SKIP=wasm): ${why}`);
      return "skipped";
    }
    tally.check("inpage_games: the engine for the page is built", false, why);
    return;
  }
  const { engine } = await newEngine(tav);
  let seed = 11;
  for (const [size, opts] of [["desktop", DESKTOP], ["phone", PHONE]]) {
    for (const game of GAMES) {
      const what = `inpage_games ${game} (${size})`;
      const rand = rng(seed++);
      const page = await env.newPage(what, opts);
      await page.goto(`${env.url}/play/${game}?level=1&colour=white&new=1`);
      await page.waitForSelector("#board [data-square]");
      let s = await myTurn(page, game, -1);
      tally.check(`${what}: the game is kept in the browser, a new one`, s.saved?.game === game && s.saved.level === 1, JSON.stringify(s.saved));
      let legal = legalOf(engine, tav, s.saved);
      tally.check(`${what}: the human has moves at the first turn`, legal.length > 0, String(legal.length));
      if (game === "cathedral" || game === "toscana") {
        const n = Number(s.sig.split("|")[1]);
        tally.check(`${what}: the board draws every legal move (its data-sig)`, n === legal.length, `${s.sig} vs ${legal.length}`);
      }
      await env.shot(page, `inpage-${game}-${size}`);
      let made = 0;
      for (let i = 0; i < MOVES[size] && !s.over; i++) {
        const move = choose(game, legal, rand);
        const before = s.ply;
        await play(page, game, move, size === "phone");
        s = await myTurn(page, game, before);
        if (!tally.check(`${what}: move ${i + 1} (${move}) made on the page and kept`, s.saved.moves[before] === move,
          s.saved.moves.slice(-3).join(" "))) break;
        made++;
        if (!s.over) legal = legalOf(engine, tav, s.saved);
      }
      tally.check(`${what}: ${MOVES[size]} moves by ${size === "phone" ? "taps" : "clicks"} (or the end)`, made === MOVES[size] || s.over, String(made));
      await env.shot(page, `inpage-${game}-${size}-after`);
      await page.context().close();
    }
  }
  engine.free();
}
