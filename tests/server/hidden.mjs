// hidden.mjs — Toscana's hidden information stays on the server: two games
// whose deals differ only below the top tiles look identical to every
// viewer (both seats and spectators) in every answer, record, view and live
// message while the game goes on; once it is over the deal is revealed.
import { check, eq, get, legalParts, live, main, post, rng, startServer } from "./lib.mjs";

const W = "34,25,16,07,01,02,03,04,05,06,12,13,14,15,23,24".split(",");
const B = "07,16,25,34,24,23,15,14,13,12,06,05,04,03,02,01".split(",");
const swap = (a, i, j) => { const b = [...a]; [b[i], b[j]] = [b[j], b[i]]; return b; };
const opts = (w, b) => `white=${w.join(",")} black=${b.join(",")}`;
const PLIES = 10;

// The same answer with the game's own id taken out.
const norm = (x, id) => JSON.stringify(x).split(id).join("ID");

await main(async (defer) => {
  const srv = await startServer();
  defer(() => srv.stop());
  const base = srv.base;
  const deals = [opts(W, B), opts(swap(W, 12, 15), swap(B, 11, 14))];
  const games = [];
  for (const options of deals) {
    const r = await post(base, "/api/games", { game: "toscana", options, white: "human", black: "human" });
    eq(r.status, 201, "create toscana");
    const g = { id: r.body.id, seats: r.body.seats };
    g.sockets = [live(base, g.id, g.seats.white), live(base, g.id, g.seats.black), live(base, g.id)];
    for (const s of g.sockets) await s.open;
    games.push(g);
  }
  const viewers = (g) => [`?seat=${g.seats.white}`, `?seat=${g.seats.black}`, ""];
  const random = rng(7);
  async function compareAll(ply) {
    for (let v = 0; v < 3; v++) {
      const a = await get(base, `/api/games/${games[0].id}${viewers(games[0])[v]}`);
      const b = await get(base, `/api/games/${games[1].id}${viewers(games[1])[v]}`);
      eq(norm(a.body, games[0].id), norm(b.body, games[1].id), `ply ${ply} viewer ${v}: same game answer`);
      check(!a.text.includes("white=") && !a.text.includes("seed="), `ply ${ply} viewer ${v}: no deal in the options`, a.body.options);
      const va = await get(base, `/api/games/${games[0].id}/view?ply=${ply}${viewers(games[0])[v].replace("?", "&")}`);
      const vb = await get(base, `/api/games/${games[1].id}/view?ply=${ply}${viewers(games[1])[v].replace("?", "&")}`);
      eq(va.body, vb.body, `ply ${ply} viewer ${v}: same view`);
    }
    const ra = await get(base, `/api/games/${games[0].id}/record`);
    const rb = await get(base, `/api/games/${games[1].id}/record`);
    eq(ra.text, rb.text, `ply ${ply}: same record`);
    check(!/34,25,16/.test(ra.text) && !/white=/.test(ra.text), `ply ${ply}: the record holds no stack`);
  }
  for (let ply = 0; ply < PLIES; ply++) {
    await compareAll(ply);
    const a = (await get(base, `/api/games/${games[0].id}?seat=${games[0].seats.white}`)).body;
    const side = a.tomove;
    const ga = (await get(base, `/api/games/${games[0].id}?seat=${games[0].seats[side]}`)).body;
    const gb = (await get(base, `/api/games/${games[1].id}?seat=${games[1].seats[side]}`)).body;
    const la = ga.legal, lb = gb.legal;
    eq(la, lb, `ply ${ply}: same legal moves`);
    // Their parts (extension) say nothing more: the same in both deals, a
    // placement's tile the mover's top tile, which the view shows anyway.
    eq(ga.legalGroups, gb.legalGroups, `ply ${ply}: same legal move parts`);
    const top = ga.view.sides[side].hand.find((it) => it.kind === "S")?.id;
    check(legalParts(ga).every((p) => p.action !== "place" || p.piece === top), `ply ${ply}: a placement's tile is the top tile`);
    const move = la[Math.floor(random() * la.length)];
    for (const g of games) {
      const r = await post(base, `/api/games/${g.id}/moves`, { seat: g.seats[side], move, ply });
      eq(r.status, 200, `ply ${ply}: ${move} played`);
    }
  }
  await compareAll(PLIES);
  // Every live message, for every viewer, the same in both games.
  for (let v = 0; v < 3; v++) {
    const [sa, sb] = [games[0].sockets[v], games[1].sockets[v]];
    check(await sa.until((m) => m.length >= PLIES + 1) && await sb.until((m) => m.length >= PLIES + 1), `viewer ${v}: live messages`);
    eq(sa.messages.map((m) => norm(m, games[0].id)), sb.messages.map((m) => norm(m, games[1].id)), `viewer ${v}: identical live messages`);
    for (const s of [sa, sb]) s.close();
  }
  // Once over, the deal is revealed: resign, then the options and record show it.
  const r = await post(base, `/api/games/${games[0].id}/resign`, { seat: games[0].seats.white });
  eq(r.status, 200, "resign");
  check(r.body.options.includes("white=34,25,16"), "once over the options show the deal", r.body.options);
  const rec = await get(base, `/api/games/${games[0].id}/record`);
  const tag = (name) => (new RegExp(`^\\[${name} "([^"]*)"\\]`, "m").exec(rec.text) || [])[1];
  eq([tag("WhiteStack"), tag("BlackStack")], [W.join(","), B.join(",")],
    "once over the record carries both stacks, whole and in order (WhiteStack, BlackStack)");
});
