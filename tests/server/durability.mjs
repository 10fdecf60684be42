// durability.mjs — the server is killed with SIGKILL at random moments during
// play and started again on the same database, several rounds: every
// acknowledged move and every game is still there and playable, a move
// whose answer was lost is answered as the first time when retried (never
// played twice), Toscana's deal is exactly as it was, computer seats go on.
import { check, eq, get, main, post, rng, sleep, startServer, tempDir } from "./lib.mjs";
import { join } from "node:path";
import { rmSync } from "node:fs";

const ROUNDS = Number(process.env.DURABILITY_ROUNDS || 6);

await main(async (defer) => {
  const dir = tempDir();
  defer(() => rmSync(dir, { recursive: true, force: true }));
  const db = join(dir, "durable.db");
  const random = rng(20261123);
  let srv = await startServer({ db, args: ["--ai-ms", "30", "--pace", "100"] });
  defer(() => srv.stop());

  const specs = [
    ["urbino", ""], ["toscana", ""], ["cathedral", ""], ["epaminondas", ""], ["toscana", "seed=9"], ["urbino", "variant=monuments"],
  ];
  const games = [];
  for (const [game, options] of specs) {
    const r = await post(srv.base, "/api/games", { game, options, white: "human", black: "human" });
    eq(r.status, 201, `create ${game}`);
    games.push({ game, id: r.body.id, seats: r.body.seats, acked: [], inflight: null, snapshot: null });
  }
  const comp = await post(srv.base, "/api/games", { game: "epaminondas", options: "maxplies=60", white: "random", black: "ai:level=1" });
  eq(comp.status, 201, "create a computer game");
  const vsAi = await post(srv.base, "/api/games", { game: "urbino", options: "", white: "human", black: "ai:level=1" });
  eq(vsAi.status, 201, "create a game against the computer");

  // One player per game: moves until the game ends or a request fails.
  async function play(base, g) {
    for (;;) {
      let cur;
      try {
        cur = await get(base, `/api/games/${g.id}?seat=${g.seats.white}`);
        if (cur.body.over) { g.over = true; return; }
        const side = cur.body.tomove;
        cur = await get(base, `/api/games/${g.id}?seat=${g.seats[side]}`);
        const move = cur.body.legal[Math.floor(random() * cur.body.legal.length)];
        g.inflight = { seat: g.seats[side], move, ply: cur.body.ply };
        const r = await post(base, `/api/games/${g.id}/moves`, g.inflight);
        if (r.status !== 200) {
          check(false, `${g.game}: move refused during play`, JSON.stringify(r.body));
          return;
        }
        g.acked.push(move);
        g.inflight = null;
        g.snapshot = JSON.stringify(r.body);
        if (r.body.over) g.over = true;
      } catch {
        return;   // the server died under us
      }
    }
  }

  let computerPlies = 0;
  for (let round = 0; round < ROUNDS; round++) {
    const loops = games.map((g) => play(srv.base, g));
    // Let every game get a few moves in (slow builds too), then kill at a random moment.
    const before = games.map((g) => g.acked.length);
    const t0 = Date.now();
    while (games.some((g, i) => !g.over && g.acked.length < before[i] + 2) && Date.now() - t0 < 5000) await sleep(10);
    await sleep(Math.floor(random() * 300));
    await srv.stop("SIGKILL");
    await Promise.all(loops);
    srv = await startServer({ db, args: ["--ai-ms", "30", "--pace", "100"] });
    for (const g of games) {
      const now = (await get(srv.base, `/api/games/${g.id}?seat=${g.seats.white}`)).body;
      const moves = now.moves || [];
      const prefix = JSON.stringify(moves.slice(0, g.acked.length)) === JSON.stringify(g.acked);
      check(prefix, `round ${round} ${g.game}: every acknowledged move is there`, `${moves.length} vs ${g.acked.length}`);
      check(moves.length <= g.acked.length + 1, `round ${round} ${g.game}: nothing beyond the one move in flight`);
      if (g.inflight) {
        // Retry the move whose answer was lost: answered as the first time.
        const r = await post(srv.base, `/api/games/${g.id}/moves`, g.inflight);
        check(r.status === 200, `round ${round} ${g.game}: retried move answered 200`, JSON.stringify(r.body).slice(0, 200));
        if (r.status === 200) {
          g.acked.push(g.inflight.move);
          eq(r.body.moves, g.acked, `round ${round} ${g.game}: the retried move is played once`);
          const again = await post(srv.base, `/api/games/${g.id}/moves`, g.inflight);
          eq(again.status, 200, `round ${round} ${g.game}: and again`);
          g.snapshot = JSON.stringify(r.body);
        }
        g.inflight = null;
      } else if (g.snapshot) {
        const same = JSON.stringify((await get(srv.base, `/api/games/${g.id}?seat=${JSON.parse(g.snapshot).seat === "white" ? g.seats.white : g.seats.black}`)).body);
        const a = JSON.parse(same), b = JSON.parse(g.snapshot);
        delete a.thinking; delete b.thinking;
        eq(a, b, `round ${round} ${g.game}: the game is exactly as acknowledged (view, stacks, legal)`);
      }
    }
    const c = (await get(srv.base, `/api/games/${comp.body.id}`)).body;
    check(c.ply >= computerPlies, `round ${round}: the computer game kept its moves`, `${c.ply} < ${computerPlies}`);
    computerPlies = c.ply;
    console.log(`round ${round}: ${games.map((g) => g.acked.length).join(" ")} acknowledged moves; computer game at ply ${c.ply}`);
  }
  // Every game goes on to its end after all that.
  await Promise.all(games.map((g) => play(srv.base, g)));
  for (const g of games) {
    const end = (await get(srv.base, `/api/games/${g.id}`)).body;
    check(end.over || g.game === "epaminondas", `${g.game}: played to the end after ${ROUNDS} crashes`, end.ply);
    eq(end.moves, g.acked, `${g.game}: the moves are the acknowledged ones`);
  }
  // Computer seats resumed after the restarts.
  const t0 = Date.now();
  let c;
  do {
    c = (await get(srv.base, `/api/games/${comp.body.id}`)).body;
    if (c.over) break;
    await sleep(100);
  } while (Date.now() - t0 < 60000);
  check(c.over, "the computer game reached its end across the restarts", c.ply);
  // The game against the computer: the computer answers after a restart.
  const h = vsAi.body;
  let hg = (await get(srv.base, `/api/games/${h.id}?seat=${h.seats.white}`)).body;
  if (hg.tomove === "white") {
    const r = await post(srv.base, `/api/games/${h.id}/moves`, { seat: h.seats.white, move: hg.legal[0], ply: hg.ply });
    eq(r.status, 200, "a move against the computer");
  }
  await srv.stop("SIGKILL");
  srv = await startServer({ db, args: ["--ai-ms", "30", "--pace", "100"] });
  const t1 = Date.now();
  do {
    hg = (await get(srv.base, `/api/games/${h.id}?seat=${h.seats.white}`)).body;
    if (hg.tomove === "white") break;
    await sleep(50);
  } while (Date.now() - t1 < 20000);
  eq(hg.tomove, "white", "the computer seat resumed thinking after a restart and answered");
  // A clean stop: SIGTERM ends the process with status 0.
  const stopped = await srv.stop("SIGTERM");
  eq(stopped.code, 0, "SIGTERM stops the server cleanly");
  check(srv.output().includes("stopped"), "it says so");
  srv = await startServer({ db });
  eq((await get(srv.base, `/api/games/${games[0].id}`)).body.moves, games[0].acked, "after a clean stop the games are there");
});
