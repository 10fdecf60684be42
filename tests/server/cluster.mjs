// cluster.mjs — several `tavoliere serve` instances on one PostgreSQL, with
// nginx in front (deploy/nginx.conf, as docs/deploy.md shows it): games whose
// players and spectators are on different instances play to the end; a move
// raced to two instances is stored once; the lobby works across instances;
// an instance killed with SIGKILL mid-game loses no acknowledged move and
// doubles none, its computer seat and its running clock are taken over;
// PostgreSQL restarted mid-game: 503 while it is down (never a wrong
// answer), then the games go on; what one instance shows (an answer, a live
// message) any other accepts, with instances SIGKILLed between moves and the
// game's owner killed the moment it shows the computer's reply (issue 43);
// one owner per game: nginx sends a game's requests to one instance, the
// others hear its moves and play them without reading the game, and the
// claim moves to the instance the players ask (issue 43);
// the game in the page opened in Chromium through nginx plays on with nginx
// stopped and the browser offline.
//
// It starts its own throwaway PostgreSQL (scripts/pg-throwaway.sh) and its
// own nginx (Debian's, from scripts/setup.sh) on loopback ports.
import { execFileSync, spawn } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, readlinkSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import WebSocket from "ws";
import { BUILD, check, eq, freePort, live, main, request, setTestClock, sleep, startServer, until } from "./lib.mjs";
import { offlineThroughNginx } from "./cluster_offline.mjs";
import { reachableDir, startNginx } from "./nginx.mjs";

const PG = "scripts/pg-throwaway.sh";

function sh(args) {
  return execFileSync("sh", [PG, ...args], { encoding: "utf8" }).trim();
}

// A request that retries what a dying instance may leave unanswered (a
// refused connection, nginx's 502, the server's 503), as a client would.
async function retrying(base, method, path, body, headers = {}, ms = 20000) {
  const end = Date.now() + ms;
  let last;
  for (;;) {
    try {
      last = await request(base, method, path, body, { headers });
      if (![502, 503, 504].includes(last.status)) return last;
    } catch (e) {
      last = { status: 0, body: String(e) };
    }
    if (Date.now() > end) return last;
    await sleep(100);
  }
}

async function account(base, name) {
  const r = await request(base, "POST", "/api/account", { name, password: "correct horse" });
  check(r.status === 201, `account ${name} made`, r.status);
  return (r.headers.get("set-cookie") ?? "").split(";")[0];
}

function lobbySocket(base, cookie) {
  const ws = new WebSocket(base.replace("http", "ws") + "/api/lobby", { headers: { cookie } });
  const messages = [];
  ws.on("message", (d) => { try { messages.push(JSON.parse(String(d))); } catch {} });
  ws.on("error", () => {});
  return {
    messages,
    open: new Promise((r, j) => { ws.once("open", r); ws.once("error", j); }),
    async until(pred, ms = 8000) {
      const end = Date.now() + ms;
      while (!pred(messages) && Date.now() < end) await sleep(25);
      return pred(messages);
    },
    close() { ws.close(); },
  };
}

const plyOf = (ms) => ms.reduce((p, m) => (typeof m.ply === "number" ? m.ply : p), -1);

const up = (s) => s.child.exitCode === null && s.child.signalCode === null;

// The instance holding a game's claim (the one that plays its computer seat
// and judges its clock): the advisory lock's connection in PostgreSQL, its
// client port, and the instance process that has a socket on that port.
// -1 when nobody holds it.
function ownerOf(db, inst, id) {
  let port = "";
  try {
    // (psql reads the query from its input: -c would not replace :'key')
    port = execFileSync("psql", ["-X", "-A", "-t", "-q", "-d", db, "-v", `key=game ${id}`, "-f", "-"], {
      encoding: "utf8", stdio: ["pipe", "pipe", "ignore"],
      input: "SELECT a.client_port FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid" +
        " WHERE l.locktype = 'advisory' AND l.objsubid = 1 AND l.granted" +
        " AND ((l.classid::bigint << 32) | l.objid::bigint) = hashtextextended(:'key', 0);\n",
    }).trim();
  } catch { return -1; }
  if (!/^\d+$/.test(port)) return -1;
  const hex = ":" + Number(port).toString(16).toUpperCase().padStart(4, "0");
  const inodes = new Set();
  for (const f of ["/proc/net/tcp", "/proc/net/tcp6"]) {
    let text = "";
    try { text = readFileSync(f, "utf8"); } catch { continue; }
    for (const line of text.split("\n").slice(1)) {
      const c = line.trim().split(/\s+/);
      if (c[1]?.endsWith(hex)) inodes.add(`socket:[${c[9]}]`);
    }
  }
  for (const [k, s] of inst.entries()) {
    if (!up(s)) continue;
    let fds = [];
    try { fds = readdirSync(`/proc/${s.child.pid}/fd`); } catch { continue; }
    for (const fd of fds) {
      try { if (inodes.has(readlinkSync(`/proc/${s.child.pid}/fd/${fd}`))) return k; } catch {}
    }
  }
  return -1;
}

// A move as a client sends it: to one instance; when that instance is gone
// (a refused connection, 502, 503), the same move with the same ply to the
// next one that is up, until a deadline.  {status, body, via}.
async function sendMove(bases, first, id, body, ms = 30000) {
  const end = Date.now() + ms;
  for (let k = first; ; k++) {
    const base = bases()[k % bases().length];
    let r;
    try {
      r = await request(base, "POST", `/api/games/${id}/moves`, body);
    } catch (e) {
      r = { status: 0, body: String(e) };
    }
    if (![0, 502, 503, 504].includes(r.status) || Date.now() > end) return { ...r, via: base };
    await sleep(50);
  }
}

// The i-th instance that is up after instance k (cyclic; k itself last).
function nextUp(inst, k, i = 0) {
  const order = [];
  for (let d = 1; d <= inst.length; d++) if (up(inst[(k + d) % inst.length])) order.push((k + d) % inst.length);
  return order.length ? order[i % order.length] : k;
}

// Wait until an instance shows the game `id` (as `seat` sees it) with at
// least `want` moves (or over), and say which instance showed it first:
// "get" asks every instance at once, again and again; "live" listens to
// the sockets `socks` (one per instance); "fresh" opens a socket on every
// instance and reads its first message, again and again.
async function shown(inst, id, seat, want, mode, socks, ms = 30000) {
  const end = Date.now() + ms;
  const done = (g) => g && Array.isArray(g.moves) && (g.moves.length >= want || g.over);
  while (Date.now() < end) {
    const ks = inst.map((_, k) => k).filter((k) => up(inst[k]));
    if (mode === "live") {
      for (const k of ks) {
        const m = socks[k]?.messages.find(done);
        if (m) return { g: m, at: k };
      }
      await Promise.race(ks.map((k) => socks[k]?.until((ms2) => ms2.some(done), 200) ?? sleep(200)));
      continue;
    }
    if (mode === "fresh") {
      const firsts = await Promise.all(ks.map(async (k) => {
        const v = live(inst[k].base, id, seat);
        try {
          await v.open;
          await v.until((ms2) => ms2.length > 0, 5000);
          return v.messages[0];
        } catch { return null; } finally { v.close(); }
      }));
      const i = firsts.findIndex(done);
      if (i >= 0) return { g: firsts[i], at: ks[i] };
      continue;
    }
    const gs = await Promise.all(ks.map((k) => request(inst[k].base, "GET", `/api/games/${id}?seat=${seat}`)
      .then((r) => (r.status === 200 ? r.body : null), () => null)));
    const i = gs.findIndex(done);
    if (i >= 0) return { g: gs[i], at: ks[i] };
  }
  return null;
}

// 8. Issue 43: what one instance shows, any other accepts.  A person plays
// the server's computer (Epaminondas against "random", which answers at
// once); as soon as any instance shows the computer's reply (an answer to
// GET, a live message, or the first message of a socket opened then), the
// person's next move goes to another instance (every fifth to two at once,
// as a retry that reached both).  None may be refused as stale.  Instances are SIGKILLed and started again (on their ports, behind
// nginx) every 25 moves, between a move and the computer's reply; every
// fourth game goes through nginx.
async function consistency({ db, args, inst, ports, nginx, moves = 150 }) {
  const t0 = Date.now();
  const restart = async (k) => {
    if (up(inst[k])) {
      inst[k].child.kill("SIGKILL");
      await inst[k].exited;
    }
    inst[k] = await startServer({ db, args, port: ports[k] });
  };
  for (let k = 0; k < inst.length; k++) {
    if (up(inst[k]) && inst[k].port === ports[k]) continue;
    if (up(inst[k])) await inst[k].stop();
    await restart(k);
  }
  const stale = [], refused = [], lost = [];
  let sent = 0, kills = 0, games = 0, throughNginx = 0, nacked = 0, raced = 0;
  const modes = ["get", "live", "fresh"];
  while (sent < moves) {
    games++;
    const viaNginx = games % 4 === 0;
    const base0 = viaNginx ? nginx.base : inst[nextUp(inst, games)].base;
    const made = await retrying(base0, "POST", "/api/games", { game: "epaminondas", white: "human", black: "random" });
    if (!check(made.status === 201, "a game against the computer", `${made.status} ${JSON.stringify(made.body)}`)) break;
    const { id } = made.body;
    const seat = made.body.seats.white;
    const socks = inst.map((s) => (up(s) ? live(s.base, id, seat) : null));
    await Promise.all(socks.map((v) => v?.open.catch(() => {})));
    let at = nextUp(inst, games);   // the instance that showed `cur` (-1: nginx)
    let cur = (await retrying(inst[at].base, "GET", `/api/games/${id}?seat=${seat}`)).body;
    const acked = [];
    for (let n = 0; n < 30 && sent < moves && !cur.over; n++) {
      const ply = cur.moves.length;
      const move = cur.legal[(ply * 7 + games) % cur.legal.length];
      let r;
      if (viaNginx) {
        r = { ...(await retrying(nginx.base, "POST", `/api/games/${id}/moves`, { seat, move, ply })), via: "nginx" };
        throughNginx++;
      } else if (n % 5 === 4) {   // a retry that reached two instances: the same move to both at once
        const ups = inst.filter(up);
        const both = await Promise.all([0, 1].map((i) => sendMove(() => inst.filter(up).map((s) => s.base),
          Math.max(0, ups.indexOf(inst[nextUp(inst, at, i)])), id, { seat, move, ply })));
        r = both.find((x) => x.status !== 200) ?? both[0];
        raced++;
      } else {   // to another instance than the one that showed the position
        const ups = inst.filter(up);
        r = await sendMove(() => inst.filter(up).map((s) => s.base), Math.max(0, ups.indexOf(inst[nextUp(inst, at)])), id,
          { seat, move, ply });
      }
      sent++;
      const mode = viaNginx ? "nginx" : modes[n % 3];
      if (r.status !== 200) {
        (r.status === 409 && /stale/.test(JSON.stringify(r.body)) ? stale : refused)
          .push(`game ${id} ply ${ply} (shown by ${at < 0 ? "nginx" : "instance " + at}, ${mode}; sent to ${r.via}): ${r.status} ${JSON.stringify(r.body)}`);
        const again = await shown(inst, id, seat, ply, "get", socks);
        if (!again) break;
        ({ g: cur, at } = again);
        continue;
      }
      acked.push([ply, move]);
      if (++nacked % 25 === 0) {   // an instance dies between a move and the reply
        const k = (nacked / 25) % inst.length;
        socks[k]?.close();
        await restart(k);
        kills++;
        socks[k] = live(inst[k].base, id, seat);
        await socks[k].open.catch(() => {});
      }
      let next = null;
      if (viaNginx) {
        const end = Date.now() + 30000;
        while (!next && Date.now() < end) {
          const g = (await retrying(nginx.base, "GET", `/api/games/${id}?seat=${seat}`)).body;
          if (g.moves?.length >= ply + 2 || g.over) next = { g, at: -1 };
          else await sleep(25);   // (nginx allows one address 60 requests a second past a burst)
        }
      } else {
        next = await shown(inst, id, seat, ply + 2, mode, socks);
      }
      if (!check(!!next, `the computer's reply at ply ${ply + 1} is shown (${mode})`, id)) break;
      ({ g: cur, at } = next);
    }
    for (const v of socks) v?.close();
    const final = (await retrying(inst[nextUp(inst, at)].base, "GET", `/api/games/${id}`)).body;
    for (const [p, m] of acked) if (final.moves?.[p] !== m) lost.push(`game ${id} ply ${p}: ${m} acknowledged, ${final.moves?.[p]} stored`);
  }
  const secs = ((Date.now() - t0) / 1000).toFixed(1);
  if (stale.length) console.log(stale.join("\n"));
  console.log(`consistency: ${sent} moves in ${games} games (${throughNginx} through nginx), ${kills} instances killed, ${raced} sent to two at once, ${stale.length} stale refusals, ${secs} s`);
  check(stale.length === 0, `no move refused as stale after any instance showed its position (${stale.length} of ${sent})`, stale.join("\n"));
  check(refused.length === 0, "no other refusal", refused.join("\n"));
  check(lost.length === 0, "every acknowledged move is stored", lost.join("\n"));
  check(sent >= moves && kills === Math.floor(nacked / 25), "the moves were sent and instances killed", `${sent} ${kills}`);
}

// 9. The game's owner (the instance holding its claim: it plays the
// computer seat and judges the clock) SIGKILLed (a) at once after it
// acknowledged the person's move, (b) the moment it showed the computer's
// reply: every acknowledged move and every reply shown stays, and the next
// moves, each on another instance, are accepted (no stale refusal).
async function ownerKilled({ db, args, inst, ports, rounds = 6 }) {
  const stale = [], bad = [];
  let rounds2 = 0;
  for (let round = 0; round < rounds; round++) {
    const made = await retrying(inst[nextUp(inst, round)].base, "POST", "/api/games", { game: "epaminondas", white: "human", black: "random" });
    if (!check(made.status === 201, "owner killed: a game against the computer", made.status)) return;
    const { id } = made.body;
    const seat = made.body.seats.white;
    let cur = (await retrying(inst[0].base, "GET", `/api/games/${id}?seat=${seat}`)).body;
    const acked = [];
    const play = async (k, what) => {
      const ply = cur.moves.length;
      const move = cur.legal[(ply * 3 + round) % cur.legal.length];
      const r = await sendMove(() => inst.filter(up).map((s) => s.base), Math.max(0, inst.filter(up).indexOf(inst[k])), id, { seat, move, ply });
      if (r.status === 200) acked.push([ply, move]);
      else (r.status === 409 && /stale/.test(JSON.stringify(r.body)) ? stale : bad).push(`${what}: game ${id} ply ${ply}: ${r.status} ${JSON.stringify(r.body)}`);
      return r.status === 200;
    };
    // Two moves and replies, to have an owner.
    for (let i = 0; i < 2; i++) {
      await play(nextUp(inst, i), "before");
      const nx = await shown(inst, id, seat, cur.moves.length + 2, "get");
      if (!nx) break;
      cur = nx.g;
    }
    let owner = -1;
    for (const end = Date.now() + 10000; owner < 0 && Date.now() < end; await sleep(50)) owner = ownerOf(db, inst, id);
    if (!check(owner >= 0, "owner killed: the game's owner is found (its claim in pg_locks)", id)) continue;
    const ply = cur.moves.length;
    let seenReply = null;
    if (round % 2 === 0) {
      // (a) the owner acknowledges the person's move and dies at once
      const ok = await play(owner, "to the owner");
      inst[owner].child.kill("SIGKILL");
      if (!ok) continue;
    } else {
      // (b) the move to another instance; the owner asked alone until it
      // shows the reply, and killed the moment it does
      if (!(await play(nextUp(inst, owner), "before the owner's reply"))) continue;
      const end = Date.now() + 20000;
      while (!seenReply && Date.now() < end) {
        const g = (await request(inst[owner].base, "GET", `/api/games/${id}?seat=${seat}`).catch(() => ({}))).body;
        if (g?.moves?.length >= ply + 2) seenReply = g;
      }
      inst[owner].child.kill("SIGKILL");
      if (!check(!!seenReply, "owner killed: the owner showed the computer's reply", id)) continue;
      cur = seenReply;
      // the next move at once, elsewhere: the reply shown must be known there
      await play(nextUp(inst, owner), "right after the owner showed the reply and died");
    }
    await inst[owner].exited;
    // The others take the computer seat over and the game goes on, every
    // move on another instance.
    for (let i = 0; i < 4; i++) {
      const nx = await shown(inst, id, seat, acked.at(-1)[0] + 2, "get", null, 30000);
      if (!check(!!nx, "owner killed: the computer's reply comes from another instance", `${id} ply ${acked.at(-1)[0] + 1}`)) break;
      cur = nx.g;
      if (cur.over) break;
      if (seenReply && i === 0) {
        const shownReply = seenReply.moves[ply + 1];
        if (cur.moves[ply + 1] !== shownReply) bad.push(`game ${id}: the reply shown by the owner (${shownReply}) is not the one stored (${cur.moves[ply + 1]})`);
      }
      await play(nextUp(inst, nx.at), "after the owner died");
    }
    const final = (await retrying(inst.find(up).base, "GET", `/api/games/${id}`)).body;
    for (const [p, m] of acked) if (final.moves?.[p] !== m) bad.push(`game ${id} ply ${p}: ${m} acknowledged, ${final.moves?.[p]} stored`);
    inst[owner] = await startServer({ db, args, port: ports[owner] });
    rounds2++;
  }
  check(rounds2 === rounds, "owner killed: every round was played", `${rounds2} of ${rounds}`);
  check(stale.length === 0, "owner killed: no move refused as stale", stale.join("\n"));
  check(bad.length === 0, "owner killed: every acknowledged move and every reply shown is stored, no other refusal", bad.join("\n"));
  console.log(`owner killed: ${rounds2} rounds, ${stale.length} stale refusals, ${bad.length} other faults`);
}

// An instance's count of the changes other instances made to its games,
// by how it learnt them (tavoliere_peer_changes_total).
async function peerChanges(base) {
  const t = (await request(base, "GET", "/metrics")).text;
  const n = (how) => Number((new RegExp(`^tavoliere_peer_changes_total\\{how="${how}"\\} (\\d+)`, "m").exec(t) || [0, NaN])[1]);
  return { delta: n("delta"), reread: n("reread") };
}

// The instances (their ports) nginx sent the requests for game `id` to,
// from its access log (deploy/nginx.conf's format ends with $upstream_addr),
// once it holds at least `lines` of them (nginx writes a request's line as
// it ends, which may be just after its answer reached the client).
async function routedTo(nginx, id, lines = 1) {
  let ports = [];
  await until(() => {
    const mine = nginx.accessLog().split("\n").filter((l) => l.includes(` /api/games/${id}`));
    const set = new Set();
    for (const line of mine)
      for (const a of line.trim().split(" ").at(-1).split(/[ ,:]+/)) if (/^\d{4,5}$/.test(a)) set.add(Number(a));
    ports = [...set];
    return mine.length >= lines;
  }, 10000);
  return ports;
}

// 12. Issue 43: one owner per game.  (a) nginx sends all of a game's
// requests and its sockets to one instance (a consistent hash of its id);
// (b) the instances that hold a game another one changes hear the moves
// themselves and play them (no read of the game), and then answer exactly
// what the writer answers; (c) the claim (computer seat, clock) moves to
// the instance the players ask: a game made on one instance whose computer
// plays first is asked only through nginx, and its claim ends up there.
async function owners({ db, inst, nginx }) {
  // (a)
  const made = await retrying(nginx.base, "POST", "/api/games", { game: "urbino", white: "human", black: "human" });
  const id = made.body.id;
  const v = live(nginx.base, id);
  await v.open;
  for (let i = 0; i < 12; i++) await request(nginx.base, "GET", `/api/games/${id}${i % 2 ? "?seat=" + made.body.seats.white : ""}`);
  const peek = (await request(nginx.base, "GET", `/api/games/${id}`)).body;
  const seat = peek.tomove === "white" ? made.body.seats.white : made.body.seats.black;
  const mine = (await request(nginx.base, "GET", `/api/games/${id}?seat=${seat}`)).body;
  eq((await request(nginx.base, "POST", `/api/games/${id}/moves`, { seat, move: mine.legal[0], ply: 0 })).status, 200,
    "one owner: a move through nginx");
  check(await v.until((ms) => ms.some((m) => m.moves?.length === 1)), "one owner: the socket through nginx sees it");
  v.close();
  const routed = await routedTo(nginx, id, 16);   // 14 reads, the move and the socket (logged as it closes)
  check(routed.length === 1, "one owner: nginx sent every request and the socket of one game to one instance", JSON.stringify(routed));
  const others = [];
  for (let i = 0; i < 12; i++) {
    const g = (await request(nginx.base, "POST", "/api/games", { game: "urbino", white: "human", black: "human" })).body;
    await request(nginx.base, "GET", `/api/games/${g.id}`);
    await request(nginx.base, "GET", `/api/games/${g.id}`);
    others.push(await routedTo(nginx, g.id, 2));
  }
  check(others.every((r) => r.length === 1) && new Set(others.map((r) => r[0])).size >= 2,
    "one owner: twelve games, each on one instance, spread over the instances", JSON.stringify(others));

  // (b) moves on instance 0, spectators on instances 1 and 2
  const g = (await request(inst[0].base, "POST", "/api/games", { game: "epaminondas", white: "human", black: "human" })).body;
  const views = [1, 2].map((k) => live(inst[k].base, g.id));
  await Promise.all(views.map((x) => x.open));
  await Promise.all(views.map((x) => x.until((ms) => ms.length > 0)));
  const before = await Promise.all([1, 2].map((k) => peerChanges(inst[k].base)));
  const N = 12;
  for (let ply = 0; ply < N; ply++) {
    const s2 = ply % 2 === 0 ? g.seats.white : g.seats.black;
    const w = (await request(inst[0].base, "GET", `/api/games/${g.id}?seat=${s2}`)).body;
    const r = await request(inst[0].base, "POST", `/api/games/${g.id}/moves`, { seat: s2, move: w.legal[(ply * 5) % w.legal.length], ply });
    if (!eq(r.status, 200, `deltas: move ${ply} on instance 0`)) break;
  }
  for (const [i, x] of views.entries())
    check(await x.until((ms) => ms.some((m) => m.moves?.length === N)), `deltas: the spectator on instance ${i + 1} saw all ${N} moves`);
  const after = await Promise.all([1, 2].map((k) => peerChanges(inst[k].base)));
  for (const i of [0, 1]) {
    const d = after[i].delta - before[i].delta, rr = after[i].reread - before[i].reread;
    check(d === N && rr === 0, `deltas: instance ${i + 1} played the ${N} moves it heard and read the game no time`,
      `${d} moves played, ${rr} reads`);
  }
  const same = await Promise.all([0, 1, 2].map((k) => request(inst[k].base, "GET", `/api/games/${g.id}`)));
  const strip = (x) => JSON.stringify({ ...x.body, presence: undefined, spectators: undefined });
  check(same.every((x) => x.status === 200 && strip(x) === strip(same[0])),
    "deltas: the three instances answer the same game, to the byte", same.map((x) => strip(x).length).join(" "));
  const s3 = g.seats[same[2].body.tomove];
  const w3 = (await request(inst[2].base, "GET", `/api/games/${g.id}?seat=${s3}`)).body;
  eq((await request(inst[2].base, "POST", `/api/games/${g.id}/moves`, { seat: s3, move: w3.legal[0], ply: N })).status, 200,
    "deltas: the next move, on an instance that only heard the others, is accepted");
  for (const x of views) x.close();

  // (c) the computer (white, "random") moves first on the instance that
  // made the game and holds its claim; the player asks only nginx
  let moved = null;
  for (let tries = 0; tries < 8 && !moved; tries++) {
    const k = tries % inst.length;
    const c = await retrying(inst[k].base, "POST", "/api/games", { game: "epaminondas", white: "random", black: "human" });
    if (c.status !== 201) continue;
    const first = await until(async () => { const x = (await request(inst[k].base, "GET", `/api/games/${c.body.id}`)).body; return x.moves?.length >= 1 ? x : null; }, 10000);
    if (!first) continue;
    const holder = ownerOf(db, inst, c.body.id);
    await request(nginx.base, "GET", `/api/games/${c.body.id}`);
    const to = await routedTo(nginx, c.body.id);
    const routedK = inst.findIndex((x) => to.includes(x.port));
    if (holder === k && routedK >= 0 && routedK !== k) moved = { id: c.body.id, seat: c.body.seats.black, maker: k, routedK };
  }
  if (!check(!!moved, "claims: a game whose maker holds its claim and whose requests nginx sends elsewhere")) return;
  for (let i = 0; i < 4; i++) {
    const x = (await request(nginx.base, "GET", `/api/games/${moved.id}?seat=${moved.seat}`)).body;
    if (x.over) break;
    const r = await request(nginx.base, "POST", `/api/games/${moved.id}/moves`, { seat: moved.seat, move: x.legal[i % x.legal.length], ply: x.ply });
    if (!eq(r.status, 200, `claims: the player's move ${i} through nginx`)) break;
    const reply = await until(async () => { const y = (await request(nginx.base, "GET", `/api/games/${moved.id}`)).body; return y.moves.length >= x.ply + 2 || y.over ? y : null; }, 15000);
    if (!check(!!reply, `claims: the computer's reply ${i}`)) break;
  }
  const owner = await until(async () => { const o = ownerOf(db, inst, moved.id); return o === moved.routedK ? o : null; }, 15000);
  check(owner === moved.routedK, `claims: the claim moved from the maker (instance ${moved.maker}) to the instance the player asks (${moved.routedK})`,
    String(ownerOf(db, inst, moved.id)));
  eq((await routedTo(nginx, moved.id)).length, 1, "claims: ... and every request went there");
}

// 11. An opponent who left, judged across instances (SPEC "Consent and
// fair endings"): the side to move has a socket open on one instance and
// the claim is asked of another, which must know it (the instances say
// "seen NAME" to each other every 10 s): no claim, even 61 s later on the
// test clock. Once that socket closes, the other instance starts the wait
// (after 25 s without hearing of it) and the claim goes through 60 s later.
async function claimAcross({ inst, clockFile }) {
  const ann = await account(inst[0].base, "Anna_x"), bob = await account(inst[0].base, "Bruno_x");
  const sk = await request(inst[0].base, "POST", "/api/seeks", { game: "epaminondas", options: "", rated: false, colour: "white", clock: { initial: 600, increment: 0 } }, { headers: { cookie: ann } });
  const acc = await request(inst[1].base, "POST", `/api/seeks/${sk.body.id}/accept`, {}, { headers: { cookie: bob } });
  eq(acc.status, 201, "claim across instances: a clocked game between two accounts");
  const gid = acc.body.game;
  const move = async (k, cookie) => {
    const v = (await request(inst[k].base, "GET", `/api/games/${gid}`, undefined, { headers: { cookie } })).body;
    return (await request(inst[k].base, "POST", `/api/games/${gid}/moves`, { move: v.legal[0], ply: v.ply }, { headers: { cookie } })).status;
  };
  eq([await move(0, ann), await move(0, bob), await move(0, ann)], [200, 200, 200], "both moved; Bruno to move");
  // Bruno's page is open on instance 1; Anna asks instance 2.
  const bws = new WebSocket(inst[1].base.replace("http", "ws") + `/api/games/${gid}/live`, { headers: { cookie: bob } });
  bws.on("error", () => {});
  await new Promise((r) => bws.once("message", r));
  const view2 = async () => (await request(inst[2].base, "GET", `/api/games/${gid}`, undefined, { headers: { cookie: ann } })).body;
  const seen = await until(async () => (await view2()).claimIn === null, 40000);
  check(seen, "instance 2 hears that Bruno has a socket open on instance 1 (no countdown for Anna)");
  await setTestClock(clockFile, 61000, inst);
  const early = await request(inst[2].base, "POST", `/api/games/${gid}/claim`, { result: "win" }, { headers: { cookie: ann } });
  eq(early.status, 409, "61 s later, Bruno still on instance 1: Anna's claim on instance 2 is 409");
  bws.close();
  const counting = await until(async () => { const x = await view2(); return typeof x.claimIn === "number" ? x : null; }, 60000);
  check(counting && counting.claimIn > 0, "Bruno's socket closed: instance 2 starts Anna's countdown", JSON.stringify(counting && counting.claimIn));
  await setTestClock(clockFile, 122000 + 30000, inst);
  const ok = await until(async () => { const x = await view2(); return x.claimable ? x : null; }, 20000);
  check(ok, "60 s after Bruno was last seen anywhere: claimable on instance 2");
  const r = await request(inst[2].base, "POST", `/api/games/${gid}/claim`, { result: "win" }, { headers: { cookie: ann } });
  eq([r.status, r.body.end, r.body.winner], [200, "abandon", "white"], "Anna claims the win on instance 2: abandon");
  await setTestClock(clockFile, 0, inst);
  // The rematch is an offer across instances too: made on one, seen and
  // accepted on another, followed on a third; nothing made before.
  const off = await request(inst[0].base, "POST", `/api/games/${gid}/rematch`, {}, { headers: { cookie: ann } });
  eq([off.status, off.body.offered], [202, true], "Anna offers a rematch on instance 0: 202, nothing made");
  const seenOffer = await until(async () => {
    const x = (await request(inst[1].base, "GET", `/api/games/${gid}`, undefined, { headers: { cookie: bob } })).body;
    return x.offers && x.offers.rematch === "white" ? x : null;
  });
  check(seenOffer && !seenOffer.rematch, "instance 1 shows Bruno the offer, and no new game", JSON.stringify(seenOffer && [seenOffer.offers, seenOffer.rematch]));
  const took = await request(inst[1].base, "POST", `/api/games/${gid}/rematch`, {}, { headers: { cookie: bob } });
  eq(took.status, 201, "Bruno accepts on instance 1: 201, the new game");
  const after = await until(async () => {
    const x = (await request(inst[2].base, "GET", `/api/games/${gid}`, undefined, { headers: { cookie: ann } })).body;
    return x.rematch === took.body.id ? x : null;
  });
  check(!!after, "instance 2 shows Anna the rematch's id");
  const ng = (await request(inst[2].base, "GET", `/api/games/${took.body.id}`, undefined, { headers: { cookie: ann } })).body;
  eq([ng.accounts && ng.accounts.white, ng.accounts && ng.accounts.black, ng.clock && ng.clock.initial], ["Bruno_x", "Anna_x", 600],
    "the rematch: colours swapped, the same clock");
}

main(async (cleanup) => {
  const pgdir = join(reachableDir("tav-pg-"), "pg");
  const uri = sh(["start", pgdir]);
  cleanup(() => sh(["stop", pgdir]));
  const db = sh(["createdb", pgdir, "cluster"]);
  const clockFile = join(reachableDir("tav-clock-"), "offset");
  writeFileSync(clockFile, "0");
  check(uri.startsWith("postgresql://"), "a throwaway PostgreSQL is up", uri);

  // Three instances on one database; instance 0 thinks slowly (its computer
  // seat's move is still being searched when it is killed).
  const args = ["--proxy-addr", "127.0.0.1", "--test-clock", clockFile, "--threads", "2"];
  const inst = [];
  for (let i = 0; i < 3; i++) {
    inst.push(await startServer({ db, args: i === 0 ? [...args, "--ai-ms", "4000"] : args }));
  }
  cleanup(async () => { for (const s of inst) if (s.child.exitCode === null && s.child.signalCode === null) await s.stop(); });
  const nginx = await startNginx(inst.map((s) => s.port));
  cleanup(() => nginx.stop());
  const ports = inst.map((s) => s.port);
  // 10. The game in the page, opened in Chromium through an nginx of its
  // own, played on with that nginx stopped and the browser offline.
  const offline = async () => {
    const nginx2 = await startNginx(ports);
    cleanup(() => nginx2.stop());
    await offlineThroughNginx({ nginx: nginx2, check });
  };
  if (process.env.CLUSTER_ONLY) {   // sections 8 and 9 (consistency) or 10 (offline) alone, to repeat them
    if (process.env.CLUSTER_ONLY === "owners") {
      await owners({ db, inst, nginx });
    } else if (process.env.CLUSTER_ONLY === "claim") {
      await claimAcross({ inst, clockFile });
    } else if (process.env.CLUSTER_ONLY === "consistency") {
      await consistency({ db, args, inst, ports, nginx, moves: Number(process.env.CLUSTER_MOVES) || 150 });
      await ownerKilled({ db, args, inst, ports });
    } else {
      await offline();
    }
    for (const s of inst) if (up(s)) await s.stop();
    return;
  }
  const page = await request(nginx.base, "GET", "/games/AAAAAAAAAAAA");
  check(page.status === 200 && page.text.includes("<html"), "nginx: a page route is served (by an instance)", page.status);
  const css = await request(nginx.base, "GET", "/app.css");
  check(css.status === 200, "nginx: the page's files are served from build/web", css.status);
  const wasm = await fetch(nginx.base + "/tavoliere.wasm");
  eq([wasm.status, wasm.headers.get("content-type"), wasm.headers.get("cache-control")], [200, "application/wasm", "no-cache"],
    "nginx: the engine for the browser, as application/wasm, asked again each time");
  await wasm.arrayBuffer();
  const man = await fetch(nginx.base + "/manifest.webmanifest");
  eq([man.status, man.headers.get("content-type")], [200, "application/manifest+json"], "nginx: the manifest as application/manifest+json");
  await man.arrayBuffer();
  eq((await request(nginx.base, "GET", "/metrics")).status, 404, "nginx: the instances' /metrics is not reachable through the site");
  const slow = await request(nginx.base, "GET", "/api/health");
  check(slow.status === 200 && slow.body.status === "ok", "nginx: an instance's /api/health through the site", JSON.stringify(slow.body));
  const sw = await request(nginx.base, "GET", "/sw.js");
  check(sw.status === 200 && sw.text.includes("fetch"), "nginx: the service worker is served", sw.status);
  const play = await request(nginx.base, "GET", "/play/urbino?level=1&colour=white");
  check(play.status === 200 && play.text.includes("<html") && (play.headers.get("content-security-policy") ?? "").includes("wasm-unsafe-eval"),
    "nginx: /play/GAME is the page, from an instance (its CSP lets the engine compile)", play.status);

  // 1. A game played through nginx (round robin over the instances) with
  // its two players' and a spectator's live sockets on three different
  // instances: every viewer sees every move, to the end.
  const made = await request(nginx.base, "POST", "/api/games", { game: "urbino", white: "human", black: "human" });
  if (!eq(made.status, 201, "a game made through nginx")) console.log(nginx.log(), JSON.stringify(made.body));
  const id = made.body.id;
  const seats = made.body.seats;
  const views = [live(inst[0].base, id, seats.white), live(inst[1].base, id, seats.black), live(inst[2].base, id)];
  await Promise.all(views.map((v) => v.open));
  let ply = 0;
  const played = [];
  for (let guard = 0; guard < 400; guard++) {
    const g = (await request(inst[ply % 3].base, "GET", `/api/games/${id}`)).body;
    if (g.over) break;
    const seat = g.tomove === "white" ? seats.white : seats.black;
    const mine = (await request(nginx.base, "GET", `/api/games/${id}?seat=${seat}`)).body;
    const move = mine.legal[(ply * 7) % mine.legal.length];
    const r = await request(nginx.base, "POST", `/api/games/${id}/moves`, { seat, move, ply });
    if (!check(r.status === 200, `move ${ply} through nginx`, JSON.stringify(r.body))) break;
    played.push(move);
    ply++;
  }
  const final = (await request(nginx.base, "GET", `/api/games/${id}`)).body;
  check(final.over === true, "the game across instances was played to its end", ply);
  eq(final.moves, played, "the stored moves are exactly the moves acknowledged");
  for (const [k, v] of views.entries()) {
    const ok = await v.until((ms) => ms.some((m) => m.over === true && m.moves?.length === played.length), 8000);
    check(ok, `viewer ${k} (instance ${k}) saw every move to the end`, plyOf(v.messages));
  }
  for (const v of views) v.close();
  for (const s of inst) {
    const g = (await request(s.base, "GET", `/api/games/${id}`)).body;
    eq(g.moves?.length, played.length, `instance on port ${s.port} answers the same game`);
  }

  await owners({ db, inst, nginx });

  // 2. The same move sent to two instances at once is stored once and both
  // answer 200; two different moves at one ply: one is stored, the other
  // is refused (409, or 503 and then 409 on its retry).
  const g2 = (await request(nginx.base, "POST", "/api/games", { game: "epaminondas", white: "human", black: "human" })).body;
  const w2 = (await request(inst[0].base, "GET", `/api/games/${g2.id}?seat=${g2.seats.white}`)).body;
  const body0 = { seat: g2.seats.white, move: w2.legal[0], ply: 0 };
  const both = await Promise.all([0, 1].map((k) => request(inst[k].base, "POST", `/api/games/${g2.id}/moves`, body0)));
  eq(both.map((r) => r.status), [200, 200], "the same move raced to two instances: 200 from both");
  const b2 = (await request(inst[2].base, "GET", `/api/games/${g2.id}?seat=${g2.seats.black}`)).body;
  eq(b2.moves, [w2.legal[0]], "... and it is stored once");
  const race = await Promise.all([0, 1].map((k) => request(inst[k].base, "POST", `/api/games/${g2.id}/moves`,
    { seat: g2.seats.black, move: b2.legal[k], ply: 1 })));
  const retried = [];
  for (const [k, r] of race.entries()) {
    retried.push(r.status === 503
      ? (await request(inst[k].base, "POST", `/api/games/${g2.id}/moves`, { seat: g2.seats.black, move: b2.legal[k], ply: 1 })).status
      : r.status);
  }
  eq(retried.slice().sort(), [200, 409], "two different moves raced at one ply: one 200, one 409 (after a 503 at most)");
  const after = (await request(inst[2].base, "GET", `/api/games/${g2.id}`)).body;
  eq(after.moves.length, 2, "... and exactly one of them is stored");
  check(after.moves[1] === b2.legal[retried.indexOf(200)], "... the one that was answered 200", JSON.stringify(after.moves));

  // 3. The lobby across instances: a seek made on one is seen on another,
  // accepted on a third (instance 0, which so starts the game and holds its
  // clock's claim: it is killed below), and its maker is told on another.
  const ca = await account(inst[0].base, "Anna");
  const cb = await account(inst[1].base, "Bruno");
  const la = lobbySocket(inst[2].base, ca);
  const lb = lobbySocket(inst[1].base, cb);
  await Promise.all([la.open, lb.open]);
  const seek = await request(inst[1].base, "POST", "/api/seeks",
    { game: "urbino", options: "", rated: true, colour: "white", clock: { initial: 60, increment: 0 } },
    { headers: { cookie: ca } });
  eq(seek.status, 201, "a seek made on instance 1");
  const seen = await lb.until((ms) => ms.some((m) => JSON.stringify(m).includes(seek.body.id)));
  check(seen, "... is seen on instance 1's lobby socket");
  const seen2 = await la.until((ms) => ms.some((m) => JSON.stringify(m).includes(seek.body.id)));
  check(seen2, "... and on instance 2's");
  const acc = await request(inst[0].base, "POST", `/api/seeks/${seek.body.id}/accept`, undefined, { headers: { cookie: cb } });
  eq(acc.status, 201, "... accepted on instance 0");
  const again = await request(inst[1].base, "POST", `/api/seeks/${seek.body.id}/accept`, undefined, { headers: { cookie: cb } });
  eq(again.status, 409, "... and a second accept on another instance is 409");
  const told = await la.until((ms) => ms.some((m) => m.type === "started" && m.game === acc.body.game));
  check(told, "... its maker is told on instance 2 that the game started");
  const gone = await lb.until((ms) => { const last = ms.filter((m) => Array.isArray(m) || Array.isArray(m.seeks)).at(-1); return last && !JSON.stringify(last).includes(seek.body.id); });
  check(gone, "... and the seek is gone from instance 1's lobby");
  la.close();
  lb.close();
  const cg = acc.body.game;
  // Both move once (Urbino: black first), each on another instance: then
  // the clock runs for the side to move.
  for (const k of [1, 2]) {
    const peek = (await request(inst[k].base, "GET", `/api/games/${cg}`)).body;
    const cookie = peek.tomove === "white" ? ca : cb;
    const v = (await request(inst[k].base, "GET", `/api/games/${cg}`, undefined, { headers: { cookie } })).body;
    const r = await request(inst[k].base, "POST", `/api/games/${cg}/moves`, { move: v.legal[0], ply: v.ply },
      { headers: { cookie } });
    eq(r.status, 200, `a clocked game between accounts: a move on instance ${k}`);
  }
  const clockSide = (await request(inst[2].base, "GET", `/api/games/${cg}`)).body.tomove;

  // Failed sign-ins of one name count on every instance (SPEC: 10 in 10
  // minutes, whatever the address): 10 spread over three instances, then
  // the 11th is 429 on each of them.
  const wrong = [];
  for (let i = 0; i < 10; i++)
    wrong.push((await request(inst[i % 3].base, "POST", "/api/login", { name: "Bruno", password: "wrong password" })).status);
  eq([...new Set(wrong)], [401], "ten wrong passwords for one name, spread over three instances: 401 each");
  await sleep(300);
  const eleventh = [];
  for (const s of inst) eleventh.push((await request(s.base, "POST", "/api/login", { name: "Bruno", password: "correct horse" })).status);
  eq(eleventh, [429, 429, 429], "... then that name is refused on every instance (429), even with the right password");

  // 4. A computer seat whose instance dies while it thinks: another
  // instance takes it over and the game goes on.
  const cpu = await request(inst[0].base, "POST", "/api/games", { game: "epaminondas", white: "human", black: "ai:level=10" });
  eq(cpu.status, 201, "a game against the computer on instance 0");
  const cw = (await request(inst[0].base, "GET", `/api/games/${cpu.body.id}?seat=${cpu.body.seats.white}`)).body;
  const m0 = await request(inst[0].base, "POST", `/api/games/${cpu.body.id}/moves`,
    { seat: cpu.body.seats.white, move: cw.legal[0], ply: 0 });
  eq(m0.status, 200, "the person's move, on instance 0 (whose computer seat now thinks for 4 s)");
  const before = (await request(inst[1].base, "GET", `/api/games/${cpu.body.id}`)).body;
  eq(before.moves.length, 1, "the computer seat is still thinking when its instance is killed");
  inst[0].child.kill("SIGKILL");
  await inst[0].exited;
  const t0 = Date.now();
  let cgame;
  for (;;) {
    cgame = (await request(inst[1].base, "GET", `/api/games/${cpu.body.id}`)).body;
    if (cgame.moves.length >= 2 || Date.now() - t0 > 15000) break;
    await sleep(200);
  }
  check(cgame.moves.length === 2, "instance 0 killed while thinking: the computer's move is played by another", JSON.stringify(cgame.moves));
  check(Date.now() - t0 < 15000, "... within seconds", Date.now() - t0);
  console.log(`computer seat taken over in ${Date.now() - t0} ms`);

  // 5. The clocked game's clock, whose claim instance 0 held (it made the
  // game) and which died with it: time runs out, and the game ends on time,
  // judged by an instance that took the clock over.
  await setTestClock(clockFile, 120000, [inst[1], inst[2]]);
  const t1 = Date.now();
  let timed;
  for (;;) {
    timed = (await request(inst[2].base, "GET", `/api/games/${cg}`)).body;
    if (timed.over || Date.now() - t1 > 15000) break;
    await sleep(200);
  }
  eq([timed.over, timed.end, timed.winner], [true, "time", clockSide === "white" ? "black" : "white"],
    "the running clock is judged after instance 0 died");
  console.log(`flag judged in ${Date.now() - t1} ms`);
  await setTestClock(clockFile, 0, [inst[1], inst[2]]);

  // 6. Moves through nginx while an instance is killed mid-game: every move
  // acknowledged is stored, none twice.
  inst[0] = await startServer({ db, args });
  const g6 = (await retrying(nginx.base, "POST", "/api/games", { game: "cathedral", white: "human", black: "human" })).body;
  const acked = [];
  let killed = false;
  for (let p = 0; p < 60; p++) {
    const gv = (await retrying(nginx.base, "GET", `/api/games/${g6.id}`)).body;
    if (gv.over) break;
    const seat = gv.tomove === "white" ? g6.seats.white : g6.seats.black;
    const mine = (await retrying(nginx.base, "GET", `/api/games/${g6.id}?seat=${seat}`)).body;
    const move = mine.legal[p % mine.legal.length];
    if (p === 10) {   // one instance dies mid-game, in the middle of requests
      inst[1].child.kill("SIGKILL");
      killed = true;
    }
    const r = await retrying(nginx.base, "POST", `/api/games/${g6.id}/moves`, { seat, move, ply: p });
    if (!check(r.status === 200, `move ${p} through nginx with an instance killed`, `${r.status} ${JSON.stringify(r.body)}`)) break;
    acked.push(move);
  }
  check(killed, "an instance was killed mid-game");
  // nginx's logs (deploy/nginx.conf's format): the requests are there, the
  // seat tokens they carried in their query strings are not.
  {
    const alog = nginx.accessLog(), elog = nginx.errorLog();
    check(alog.includes(`/api/games/${g6.id}`) && /" (200|502) /.test(alog), "nginx's access log has the game's requests", alog.slice(0, 300));
    check(![g6.seats.white, g6.seats.black].some((t) => alog.includes(t) || elog.includes(t)) && !/\?seat=/.test(alog + elog),
      "nginx's logs hold no seat token (no query strings)");
  }
  const g6f = (await request(inst[2].base, "GET", `/api/games/${g6.id}`)).body;
  eq(g6f.moves, acked, "every acknowledged move is stored, none twice");

  // 7. PostgreSQL restarted mid-game: 503 while it is down, never a wrong
  // answer; then the game goes on and live sockets catch up.
  const g7 = (await request(inst[2].base, "POST", "/api/games", { game: "urbino", white: "human", black: "human" })).body;
  const v7 = live(inst[0].base, g7.id);
  await v7.open;
  const first7 = (await request(inst[2].base, "GET", `/api/games/${g7.id}`)).body.tomove;
  const seat7 = g7.seats[first7];
  const w7 = await request(inst[2].base, "GET", `/api/games/${g7.id}?seat=${seat7}`);
  sh(["down", pgdir]);
  const during = await request(inst[2].base, "POST", `/api/games/${g7.id}/moves`, { seat: seat7, move: w7.body.legal?.[0] ?? "x", ply: 0 });
  check(during.status === 503, "a move while PostgreSQL is down: 503", `${during.status} ${JSON.stringify(during.body)}`);
  const made7 = await request(inst[0].base, "POST", "/api/games", { game: "urbino", white: "human", black: "human" });
  check(made7.status === 503, "a new game while PostgreSQL is down: 503", made7.status);
  sh(["up", pgdir]);
  const m7 = await retrying(inst[2].base, "POST", `/api/games/${g7.id}/moves`, { seat: seat7, move: w7.body.legal[0], ply: 0 }, {}, 20000);
  eq(m7.status, 200, "PostgreSQL back: the move is stored");
  const saw7 = await v7.until((ms) => ms.some((m) => m.moves?.length === 1), 10000);
  check(saw7, "... and a viewer on another instance sees it") || console.log(inst[0].output().slice(-1500), inst[0].errors().slice(-1500), JSON.stringify(v7.messages.map((m) => m.moves?.length)));
  v7.close();
  const g7f = (await request(inst[0].base, "GET", `/api/games/${g7.id}`)).body;
  eq(g7f.moves, [w7.body.legal[0]], "... stored once");

  await consistency({ db, args, inst, ports, nginx });
  await ownerKilled({ db, args, inst, ports });
  await claimAcross({ inst, clockFile });
  await offline();
  for (const s of inst) if (s.child.exitCode === null && s.child.signalCode === null) await s.stop();
});
