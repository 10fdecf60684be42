// limits.mjs — the per-client limits behind nginx as docs/deploy.md runs it
// (deploy/nginx.conf, instances started with --proxy-addr 127.0.0.1): each
// real client (a loopback source address of its own, 127.0.0.x) has its own
// sign-up limit, and X-Real-IP is believed from nginx only; 16 guesses of one
// name at once are counted as they are accepted (10 hashed, 6 refused); one
// address signing in 16-wide to its own account leaves others' sign-ins
// succeeding; a password change ends the other sessions and rotates the
// cookie; common passwords are refused; a lobby socket from another site is
// refused; nginx's own files carry the security headers; an accept raced on
// two instances gives one 201 and one 409; a seek whose owner has no lobby
// socket lapses (the games' clock moved with --test-clock).
//
// SQLite: one instance behind nginx.  PostgreSQL (TAV_TEST_PG): two
// instances on one database behind nginx, so the sign-up limit and the
// seeks' lapse are checked across instances.
import http from "node:http";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import WebSocket from "ws";
import { PG, check, eq, main, sleep, startServer } from "./lib.mjs";
import { hogWorker } from "./hog.mjs";
import { reachableDir, startNginx } from "./nginx.mjs";

// ---- HTTP from a chosen source address ----
function req(base, method, path, body, { from, headers = {}, timeout = 30000 } = {}) {
  const u = new URL(base);
  return new Promise((resolve) => {
    const data = body === undefined ? null : JSON.stringify(body);
    const h = { ...headers };
    if (data !== null) {
      h["content-type"] = "application/json";
      h["content-length"] = Buffer.byteLength(data);
    }
    const t0 = performance.now();
    const r = http.request({ host: u.hostname, port: u.port, method, path, headers: h, agent: false, localAddress: from }, (res) => {
      const chunks = [];
      res.on("data", (c) => chunks.push(c));
      res.on("end", () => {
        const text = Buffer.concat(chunks).toString();
        let parsed = text;
        try { parsed = JSON.parse(text); } catch {}
        resolve({ status: res.statusCode, body: parsed, headers: res.headers, ms: performance.now() - t0 });
      });
      res.on("error", (e) => resolve({ status: `error ${e.code}`, body: null, headers: {}, ms: performance.now() - t0 }));
    });
    r.setTimeout(timeout, () => r.destroy(Object.assign(new Error("timeout"), { code: "TIMEOUT" })));
    r.on("error", (e) => resolve({ status: `error ${e.code || e.message}`, body: null, headers: {}, ms: performance.now() - t0 }));
    if (data !== null) r.write(data);
    r.end();
  });
}
const cookieOf = (r) => String((r.headers["set-cookie"] || [""])[0]).split(";")[0];

// A sign-up that succeeds: from its own address (5 an hour each).
let nextOct = 2;
const fresh = () => `127.0.9.${nextOct++}`;
async function account(base, name, password = "a long password") {
  const r = await req(base, "POST", "/api/account", { name, password }, { from: fresh() });
  check(r.status === 201, `account ${name} made`, `${r.status} ${JSON.stringify(r.body)}`);
  return cookieOf(r);
}

async function until(pred, ms = 15000, every = 50) {
  const end = Date.now() + ms;
  for (;;) {
    const v = await pred();
    if (v) return v;
    if (Date.now() > end) return v;
    await sleep(every);
  }
}

function lobbySocket(base, cookie, origin) {
  const headers = { cookie };
  if (origin) headers.origin = origin;
  const ws = new WebSocket(base.replace("http", "ws") + "/api/lobby", { headers });
  const r = { ws, messages: [], status: null, opened: false, closed: false };
  ws.on("message", (d) => { try { r.messages.push(JSON.parse(String(d))); } catch {} });
  ws.on("unexpected-response", (_q, res) => { r.status = res.statusCode; r.closed = true; });
  ws.on("open", () => { r.opened = true; });
  ws.on("close", () => { r.closed = true; });
  ws.on("error", () => { r.closed = true; });
  return r;
}

main(async (cleanup) => {
  const dir = reachableDir("tav-limits-");
  const clockFile = join(dir, "offset");
  writeFileSync(clockFile, "0");
  const args = ["--proxy-addr", "127.0.0.1", "--limit-loopback", "--test-clock", clockFile, "--threads", "1"];
  const n = PG ? 2 : 1;
  const inst = [];
  for (let i = 0; i < n; i++) {
    // PostgreSQL: the instances share one database (lib.mjs names it).
    inst.push(await startServer({ db: PG ? "limits" : undefined, args }));
    cleanup(() => inst[i].stop());
  }
  const ng = await startNginx(inst.map((s) => s.port));
  cleanup(() => ng.stop());
  const B = ng.base;
  const backend = PG ? `PostgreSQL, ${n} instances` : "SQLite";

  // 1. nginx's own files: the same security headers as the instances'.
  for (const path of ["/index.html", "/tavoliere.wasm"]) {
    const r = await req(B, "GET", path);
    const h = r.headers;
    check(r.status === 200 && /frame-ancestors 'none'/.test(h["content-security-policy"] || "") &&
      h["x-frame-options"] === "DENY" && h["x-content-type-options"] === "nosniff" &&
      h["referrer-policy"] === "no-referrer",
      `nginx serves ${path} with CSP (frame-ancestors 'none'), X-Frame-Options DENY, nosniff, no-referrer`,
      JSON.stringify({ status: r.status, csp: h["content-security-policy"], xfo: h["x-frame-options"] }));
  }
  const api = await req(B, "GET", "/api/meta");
  check(/frame-ancestors 'none'/.test(api.headers["content-security-policy"] || "") &&
    !String(api.headers["content-security-policy"]).includes(","),
    "an instance's answer through nginx: its own CSP, once", api.headers["content-security-policy"]);

  // 2. Sign-ups per real client behind nginx (across instances).
  const su = [];
  for (let i = 0; i < 6; i++)
    su.push((await req(B, "POST", "/api/account", { name: `Addr-A${i}`, password: "a long password" }, { from: "127.0.3.2" })).status);
  const other = (await req(B, "POST", "/api/account", { name: "Addr-B0", password: "a long password" }, { from: "127.0.3.3" })).status;
  eq([...su, other], [201, 201, 201, 201, 201, 429, 201],
    `${backend}: 6 sign-ups from one client through nginx: 201 x5, 429; another client 201`);

  // 2a. Sign-ups raced from one client (over the instances): 5 in all.
  const raced = await Promise.all(Array.from({ length: 8 }, (_, i) =>
    req(B, "POST", "/api/account", { name: `Race-S${i}`, password: "a long password" }, { from: "127.0.3.4" })));
  const then = [];
  for (let i = 0; i < 6; i++)
    then.push((await req(B, "POST", "/api/account", { name: `Race-T${i}`, password: "a long password" }, { from: "127.0.3.4" })).status);
  const made = [...raced.map((r) => r.status), ...then].filter((x) => x === 201).length;
  check(made === 5 && then.slice(-1)[0] === 429,
    `${backend}: 8 sign-ups at once from one client, then 6 more one by one: 5 accounts made in all`,
    `${raced.map((r) => r.status).join(" ")} | ${then.join(" ")}`);

  // 2b. Failed sign-ins per real client (across instances): 30, then 429.
  const fails = [];
  for (let i = 0; i < 31; i++)
    fails.push((await req(B, "POST", "/api/login", { name: `Nobody-${i}`, password: "not the password" }, { from: "127.0.3.5" })).status);
  eq([fails.slice(0, 30).every((x) => x === 401), fails[30]], [true, 429],
    `${backend}: 31 failed sign-ins (31 names) from one client through nginx: 401 x30, then 429`);

  // 3. X-Real-IP from anyone but nginx is not believed: straight to an
  // instance from 127.0.3.9, a different X-Real-IP each time.
  const direct = [];
  for (let i = 0; i < 6; i++)
    direct.push((await req(inst[0].base, "POST", "/api/account", { name: `Spoof-${i}`, password: "a long password" },
      { from: "127.0.3.9", headers: { "x-real-ip": `203.0.113.${i + 1}` } })).status);
  eq(direct, [201, 201, 201, 201, 201, 429], "X-Real-IP sent by a client (not nginx): ignored, the limit holds");

  // 4. Common passwords: refused at sign-up and at a change, with a message.
  const common = await req(B, "POST", "/api/account", { name: "Common-1", password: "qwertyuiop" }, { from: fresh() });
  const spaces = await req(B, "POST", "/api/account", { name: "Common-2", password: "        " }, { from: fresh() });
  check(common.status === 400 && /common/.test(common.body.error) && spaces.status === 400,
    "sign-up with \"qwertyuiop\" or 8 spaces: 400 with a message", `${common.status} ${JSON.stringify(common.body)} ${spaces.status}`);

  // 5. A password change ends the other sessions and rotates the cookie.
  const c1 = await account(B, "Change-1");
  const si = await req(B, "POST", "/api/login", { name: "Change-1", password: "a long password" },
    { from: fresh(), headers: { "user-agent": "Mozilla/5.0 (Linux; Android 14) AppleWebKit/537.36 Chrome/120.0 Mobile Safari/537.36" } });
  const c2 = cookieOf(si);
  const list = await req(B, "GET", "/api/sessions", undefined, { headers: { cookie: c1 } });
  check(list.status === 200 && list.body.length === 2 && list.body.some((s) => s.device === "Chrome on Android") &&
    list.body.every((s) => typeof s.lastUsed === "number"),
    "the sessions list each one's device and last use", JSON.stringify(list.body));
  const weak = await req(B, "POST", "/api/password", { old: "a long password", new: "password123" }, { from: fresh(), headers: { cookie: c1 } });
  check(weak.status === 400 && /common/.test(weak.body.error), "a change to a common password: 400", JSON.stringify(weak.body));
  const ch = await req(B, "POST", "/api/password", { old: "a long password", new: "a longer password" }, { from: fresh(), headers: { cookie: c1 } });
  const c3 = cookieOf(ch);
  const me = async (c) => (await req(B, "GET", "/api/me", undefined, { headers: { cookie: c } })).status;
  const seen = [ch.status, c3 !== c1 && c3.length > 10, await me(c1), await me(c2), await me(c3)];
  eq(seen, [200, true, 401, 401, 200], "a password change: 200 with a new cookie; the old cookie and the other session 401; the new one 200");

  // 6. 16 guesses of one name at once, from 16 clients: counted as accepted.
  await account(B, "Racer-1");
  const race = await Promise.all(Array.from({ length: 16 }, (_, i) =>
    req(B, "POST", "/api/login", { name: "Racer-1", password: "not the one" }, { from: `127.0.4.${i + 2}` })));
  const c401 = race.filter((r) => r.status === 401).length, c429 = race.filter((r) => r.status === 429).length;
  eq([c401, c429], [10, 6], `${backend}: 16 guesses of one name at once${n > 1 ? " (spread over the instances)" : ""}: 10 answered 401, 6 refused 429 at once`);
  const after = await until(async () => {
    const rs = await Promise.all(inst.map((s) => req(s.base, "POST", "/api/login", { name: "Racer-1", password: "a long password" }, { from: "127.0.0.1" })));
    return rs.every((r) => r.status === 429) ? rs : null;
  }, 10000, 200);
  check(!!after, "after them, even the right password is refused (429) on every instance", after && after.map((r) => r.status));

  // 7. One address signs in 16-wide to its own account for 6 s: others'
  // sign-ins (from their own addresses) go on.
  await account(B, "Hog-1");
  const people = [];
  for (let i = 0; i < 6; i++) people.push(`Person-${i}`);
  for (const p of people) await account(B, p);
  const hogger = hogWorker(B, "Hog-1", "a long password", "127.0.5.2", 16);
  const mine = [];
  const t0 = Date.now();
  let k = 0;
  while (Date.now() - t0 < 6000) {
    const p = people[k % people.length];
    const r = await req(B, "POST", "/api/login", { name: p, password: "a long password" }, { from: `127.0.6.${(k % people.length) + 2}` });
    mine.push(r);
    k++;
    await sleep(100);
  }
  const hog = await hogger.stop();
  const good = mine.filter((r) => r.status === 200 && r.ms < 2000).length;
  const succeeded = mine.filter((r) => r.status === 200).length;
  const worst = Math.max(...mine.map((r) => r.ms));
  // 2 s is the nominal limit; as in scripts/attack.mjs, a machine loaded by
  // others is not a broken server: past it is marked SLOW, and fails only
  // at ten times it (a hashing queue taken over by the hog would be far past).
  const far = mine.filter((r) => r.status === 200 && r.ms < 20000).length;
  const note = good >= 0.9 * mine.length ? "" : " (SLOW: fewer than 90% within 2 s)";
  check(succeeded >= 0.9 * mine.length && far >= 0.9 * mine.length,
    "one address signing in 16-wide to its own account: others' sign-ins succeed >= 90%, within 2 s",
    `${good}/${mine.length} ok within 2 s, ${succeeded} ok in all, slowest ${Math.round(worst)} ms${note}; the hog: ${hog.ok} ok, ${hog.limited} 429, ${hog.other} other`);
  console.log(`# fairness (${backend}): others ${good}/${mine.length} within 2 s, slowest ${Math.round(worst)} ms${note}; hog ${hog.ok} ok, ${hog.limited} 429`);

  // 8. The lobby socket refuses a page of another site.
  const host = new URL(B).host;
  const bad = lobbySocket(B, c3, "http://evil.example");
  const good2 = lobbySocket(B, c3, `http://${host}`);
  await until(() => bad.closed && (good2.opened || good2.closed));
  await until(() => bad.closed);
  check(bad.closed && bad.messages.every((m) => m.type === "error") && !bad.messages.some(Array.isArray),
    "a lobby socket with Origin http://evil.example: refused (an error, closed; no seeks sent)", JSON.stringify(bad.messages));
  check(good2.opened, "... with the site's own Origin: opened", good2.status);
  good2.ws.close();

  // 9. An accept raced on two instances (or twice on one): one 201, one 409.
  const seeker = await account(B, "Seeker-1");
  const takers = [await account(B, "Taker-1"), await account(B, "Taker-2")];
  const results = [];
  for (let round = 0; round < 3; round++) {
    const s = await req(B, "POST", "/api/seeks", { game: "urbino", options: "", rated: false, colour: "white" },
      { headers: { cookie: seeker } });
    check(s.status === 201, `a seek to race (${round + 1})`, JSON.stringify(s.body));
    if (PG) // the seek must be known to both instances first
      await until(async () => (await Promise.all(inst.map((x) => req(x.base, "GET", "/api/seeks")))).every((r) => Array.isArray(r.body) && r.body.some((k) => k.id === s.body.id)));
    const rs = await Promise.all([0, 1].map((t) => req(inst[t % n].base, "POST", `/api/seeks/${s.body.id}/accept`, {},
      { from: "127.0.0.1", headers: { cookie: takers[t] } })));
    results.push(rs.map((r) => r.status).sort().join("+"));
    for (const r of rs) if (r.status !== 201 && r.status !== 409) console.log(`# accept answered ${r.status}: ${JSON.stringify(r.body)}`);
  }
  eq(results, ["201+409", "201+409", "201+409"], `${backend}: an accept raced ${n === 2 ? "on two instances" : "twice"}: one 201, one 409 (3 rounds)`);

  // 10. A seek whose owner has no lobby socket lapses after 5 minutes of the
  // games' clock; one whose owner has a lobby socket (on another instance
  // with PostgreSQL) stays.
  const lonely = await account(B, "Lonely-1");
  const there = await account(B, "There-1");
  const sock = lobbySocket(inst[n - 1].base, there);
  await until(() => sock.opened);
  const s1 = await req(inst[0].base, "POST", "/api/seeks", { game: "urbino", options: "", rated: false, colour: "white" }, { from: "127.0.0.1", headers: { cookie: lonely } });
  const s2 = await req(inst[0].base, "POST", "/api/seeks", { game: "urbino", options: "", rated: false, colour: "black" }, { from: "127.0.0.1", headers: { cookie: there } });
  check(s1.status === 201 && s2.status === 201, "two seeks made with POST", `${s1.status} ${s2.status}`);
  const open = async (id) => {
    const rs = await Promise.all(inst.map((x) => req(x.base, "GET", "/api/seeks")));
    return rs.map((r) => Array.isArray(r.body) && r.body.some((k) => k.id === id));
  };
  // The clock moves on a minute at a time (each instance reads it each second).
  // The pause between steps lets each instance see each minute (it reads
  // the clock and looks at its seeks once a second); what passes or fails
  // is decided by the seeks' state, polled.
  for (let m = 1; m <= 4; m++) {
    writeFileSync(clockFile, String(m * 60000));
    await sleep(1500);
  }
  check((await open(s1.body.id)).every((x) => x), "after 4 minutes the socketless seek is still open");
  for (let m = 5; m <= 6; m++) {
    writeFileSync(clockFile, String(m * 60000 + 1000));
    await sleep(1500);
  }
  const lapsed = await until(async () => (await open(s1.body.id)).every((x) => !x), 10000, 200);
  check(lapsed, "after 5 minutes without a lobby socket the seek lapsed (on every instance)");
  const kept = await open(s2.body.id);
  check(kept.every((x) => x), "the seek whose owner has a lobby socket stays open (every instance)", JSON.stringify(kept));
  sock.ws.close();
  writeFileSync(clockFile, "0");
});
