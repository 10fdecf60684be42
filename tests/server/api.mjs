// api.mjs — complete games of every game and sample option set through the
// HTTP API with both seats human; every answer is checked, and the position
// after every move is compared with `tavoliere engine` (legal moves, state).
import { check, eq, engine, get, legalParts, main, parseState, post, rng, sampleSets, startServer } from "./lib.mjs";

const MAX_PLIES = Number(process.env.API_MAX_PLIES || 150);

function consistent(g, what) {
  let ok = true;
  ok &&= check(["white", "black", "none"].includes(g.tomove), `${what}: tomove`, g.tomove);
  ok &&= check(g.over === (g.tomove === "none"), `${what}: over iff nobody to move`, JSON.stringify([g.over, g.tomove]));
  ok &&= check(g.over ? g.winner !== "none" : g.winner === "none", `${what}: winner`, g.winner);
  ok &&= check(Array.isArray(g.score) && g.score.length === 2, `${what}: score`, g.score);
  ok &&= check(g.ply === g.moves.length, `${what}: ply = moves`, `${g.ply} ${g.moves.length}`);
  ok &&= check(g.view && typeof g.view.width === "number" && g.view.sides && g.view.squares, `${what}: view`);
  return ok;
}

await main(async (defer) => {
  const srv = await startServer();
  defer(() => srv.stop());
  const base = srv.base;
  const sets = await sampleSets(base);
  check(sets.length >= 4, "meta lists sample option sets", sets.length);
  // Every game lists its levels' ratings: ten entries, each a rating >= 0 or null (not rated yet).
  const metaAns = await get(base, "/api/meta");
  for (const g of metaAns.body.games) {
    const r = g.ratings;
    check(Array.isArray(r) && r.length === 10 && r.every((x) => x === null || (Number.isInteger(x) && x >= 0)),
      `meta: ${g.name} has ten level ratings`, JSON.stringify(r));
    check(Array.isArray(r) && r.some((x) => x !== null), `meta: ${g.name} has a rated level`, JSON.stringify(r));
    // What the game library says for people (extension): title, score words, rules, menu.
    check(typeof g.title === "string" && g.title && typeof g.pitch === "string" && typeof g.scoreWords === "string" &&
      ["higher", "lower", "none"].includes(g.scoreWins) && Array.isArray(g.rules) && g.rules.length >= 3 &&
      g.rules.every((x) => typeof x.heading === "string" && typeof x.text === "string") &&
      (g.menu === null || (typeof g.menu.key === "string" && g.menu.choices.length >= 2)),
    `meta: ${g.name} has its words for people`, JSON.stringify({ ...g, rules: g.rules?.length }));
  }
  let seed = 1;
  console.log("seeds: rng(1), rng(2), ... one per option set in meta's order (fixed: every run plays the same games)");
  const finished = new Map();   // game -> option sets played to their end
  for (const { game, options } of sets) {
    const what = `${game} [${options}]`;
    const random = rng(seed++);
    const created = await post(base, "/api/games", { game, options, white: "human", black: "human" });
    if (!check(created.status === 201, `${what}: create`, JSON.stringify(created.body))) continue;
    const { id, seats } = created.body;
    check(/^[A-Za-z0-9_-]{12}$/.test(id), `${what}: id`, id);
    check(/^[A-Za-z0-9_-]{43}$/.test(seats.white) && /^[A-Za-z0-9_-]{43}$/.test(seats.black) && seats.white !== seats.black,
      `${what}: seat tokens`);
    const eng = engine();
    eq(await eng.cmd(`newgame ${game}${options ? " " + options : ""}`), "ok", `${what}: engine newgame`);
    const token = { white: seats.white, black: seats.black };
    let g = (await get(base, `/api/games/${id}?seat=${token.white}`)).body;
    const played = [];
    let bad = 0;
    while (!g.over && played.length < MAX_PLIES && bad < 5) {
      const side = g.tomove;
      const other = side === "white" ? "black" : "white";
      const mine = (await get(base, `/api/games/${id}?seat=${token[side]}`)).body;
      const theirs = (await get(base, `/api/games/${id}?seat=${token[other]}`)).body;
      const spect = played.length % 5 === 0 ? (await get(base, `/api/games/${id}`)).body : null;
      let ok = consistent(mine, `${what} ply ${played.length}`);
      ok &&= check(mine.seat === side && theirs.seat === other, `${what}: seat field`);
      ok &&= check(mine.legal.length > 0, `${what}: legal for the seat to act`, played.length);
      ok &&= check(theirs.legal.length === 0, `${what}: no legal for the other seat`, theirs.legal.length);
      // Each legal move's parts beside it (extension), none for the other seat.
      const parts = legalParts(mine);
      ok &&= check(parts.length === mine.legal.length &&
        parts.every((p) => typeof p.action === "string" && p.action && Array.isArray(p.squares) &&
          [...p.squares, p.from, p.to, ...(p.marked ?? [])].every((q) => q === undefined ||
            (q.charCodeAt(0) - 97 < mine.view.width && Number(q.slice(1)) >= 1 && Number(q.slice(1)) <= mine.view.height))) &&
        Array.isArray(theirs.legalGroups) && theirs.legalGroups.length === 0, `${what}: legalGroups: parts for every legal move, on the board`);
      if (spect) ok &&= check(spect.legal.length === 0 && spect.seat === null, `${what}: spectator sees no legal`);
      const em = (await eng.cmd("moves")).split(" ").slice(1).filter((s) => s);
      ok &&= eq([...mine.legal].sort(), [...em].sort(), `${what}: legal = engine moves at ply ${played.length}`);
      const st = parseState(await eng.cmd("state"));
      ok &&= check(st && st.tomove === mine.tomove && eq(st.score, mine.score, `${what}: score`), `${what}: state = engine`, JSON.stringify(st));
      if (!ok) { bad++; }
      const move = mine.legal[Math.floor(random() * mine.legal.length)];
      const r = await post(base, `/api/games/${id}/moves`, { seat: token[side], move, ply: g.ply });
      if (!check(r.status === 200, `${what}: move ${move} accepted`, JSON.stringify(r.body))) { bad++; break; }
      eq(await eng.cmd(`play ${move}`), "ok", `${what}: engine plays ${move}`);
      played.push(move);
      g = r.body;
      ok = eq(g.moves, played, `${what}: moves echo`) && check(g.ply === played.length, `${what}: ply`);
      if (!ok) bad++;
    }
    const st = parseState(await eng.cmd("state"));
    check(st && st.over === g.over && st.winner === g.winner && st.score[0] === g.score[0] && st.score[1] === g.score[1],
      `${what}: final state = engine`, JSON.stringify([st, g.over, g.winner, g.score]));
    if (g.over) {
      finished.set(game, (finished.get(game) ?? 0) + 1);
      check(g.legal.length === 0 && g.tomove === "none", `${what}: over, nothing legal`);
      const late = await post(base, `/api/games/${id}/moves`, { seat: token.white, move: played[0], ply: played.length });
      eq(late.status, 409, `${what}: move after the end refused`);
      const rec = await get(base, `/api/games/${id}/record`);
      check(rec.status === 200 && rec.headers.get("content-type").startsWith("text/plain") && rec.text.length > 0,
        `${what}: record`, rec.status);
      // The record replays into a new game with the same moves.
      const up = await post(base, "/api/records", { record: rec.text, white: "human", black: "human" });
      if (check(up.status === 201, `${what}: record upload`, JSON.stringify(up.body))) {
        const copy = (await get(base, `/api/games/${up.body.id}`)).body;
        eq(copy.moves, played, `${what}: uploaded record has the moves`);
        eq([copy.over, copy.winner, copy.score], [g.over, g.winner, g.score], `${what}: uploaded record result`);
      }
    }
    eng.close();
    console.log(`${what}: ${played.length} plies, ${g.over ? "winner " + g.winner + " " + g.score.join(":") : "not over"}`);
  }
  // The end-of-game checks above ran: every game played at least once to its
  // end (an option set may stop at MAX_PLIES unfinished, not all of them).
  for (const game of new Set(sets.map((x) => x.game)))
    check((finished.get(game) ?? 0) >= 1, `${game}: at least one game played to its end (end-of-game checks ran)`,
      `${finished.get(game) ?? 0} finished`);
});
