// mail.mjs — e-mail (docs/server-api.md "E-mail") against a real SMTP server
// on loopback (tests/server/smtp_sink.py, Debian's python3-aiosmtpd), reading
// what arrived:
//  - without --smtp: GET /api/me/mail says mail is off, an address is 409,
//    nothing is sent;
//  - addresses are checked (shape, length);
//  - an address gets a verification mail (English, its link on --public-url,
//    never the Host header), no other mail before the link is followed, the
//    link works once and without a session;
//  - a correspondence game: the opponent moves, a "your turn" mail (in the
//    account's language: Italian) with the game's link and unsubscribe links;
//    unsubscribing by the mail's link (no cookie) stops that kind only;
//  - a challenge (a seek with "to") sends a mail;
//  - the hourly limit (4): the fifth event waits and is folded with the sixth
//    into one mail once the hour has passed (the test clock);
//  - the daily digest: nothing at once, one mail listing it a day later;
//  - a mail queued while the relay is down survives a SIGKILL of the server
//    and is sent after the restart (retries with backoff);
//  - the address is never shown to other players.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { PG, check, eq, freePort, main, request, setTestClock, startServer, tempDir, until } from "./lib.mjs";
import { mails, startSink } from "./smtp.mjs";

process.env.TAVOLIERE_MAIL_POLL_MS = "100";   // the worker looks at its queue every 100 ms
const PUBLIC = "http://tavoliere.test";

async function call(base, method, path, body, cookie) {
  return request(base, method, path, body, { headers: cookie ? { cookie } : {} });
}

async function account(base, name) {
  const r = await call(base, "POST", "/api/account", { name, password: `${name} password 1` });
  check(r.status === 201, `account ${name}`, JSON.stringify(r.body));
  return (r.headers.get("set-cookie") ?? "").split(";")[0];
}

const to = (folder, addr) => mails(folder).filter((m) => m.to === addr);
const linkIn = (m, re) => (m.body.match(re) ?? [])[0];

await main(async (defer) => {
  const dir = tempDir();
  const box = join(dir, "mailbox");
  mkdirSync(box);
  const smtpPort = await freePort();
  let sink = await startSink(smtpPort, box);
  defer(() => sink.stop());

  // ---- without --smtp ----
  {
    const off = await startServer({});
    const c = await account(off.base, "olga");
    const r = await call(off.base, "GET", "/api/me/mail", undefined, c);
    check(r.status === 200 && r.body.on === false, "without --smtp the settings say mail is off", JSON.stringify(r.body));
    const s = await call(off.base, "POST", "/api/me/mail", { address: "olga@example.org" }, c);
    eq(s.status, 409, "without --smtp an address is refused (409)");
    eq((await call(off.base, "GET", "/api/me/mail")).status, 401, "the settings need a session");
    await off.stop();
  }

  const clockFile = join(dir, "offset");
  writeFileSync(clockFile, "0");
  let offset = 0;
  const db = join(dir, "mail.db");
  const args = ["--test-clock", clockFile, "--smtp", `smtp://127.0.0.1:${smtpPort}`, "--mail-from", "noreply@tavoliere.test", "--public-url", PUBLIC + "/"];
  let srv = await startServer({ db, args });
  defer(() => srv.stop());
  const advance = async (ms) => { offset += ms; await setTestClock(clockFile, offset, [srv]); };
  const base = () => srv.base;

  const alice = await account(base(), "alice");
  const bob = await account(base(), "bob");
  let r = await call(base(), "GET", "/api/me/mail", undefined, alice);
  check(r.status === 200 && r.body.on === true && r.body.address === null && r.body.perHour === 4,
    "with --smtp the settings say mail is on, no address yet", JSON.stringify(r.body));

  // ---- addresses are checked ----
  for (const bad of ["no-at-sign", "a@b", "<x>@example.org", "a b@example.org", "a@exa mple.org", "a@-x.org", "a@x..org", "x".repeat(250) + "@example.org", "a\r\nBcc: c@d.org@example.org", 5])
    eq((await call(base(), "POST", "/api/me/mail", { address: bad }, alice)).status, 400, `address ${JSON.stringify(String(bad).slice(0, 30))} refused`);
  eq((await call(base(), "POST", "/api/me/mail", { kinds: { nope: true } }, alice)).status, 400, "an unknown switch is refused");
  eq((await call(base(), "POST", "/api/me/mail", { address: "alice@example.org" })).status, 401, "no session, no address");

  // ---- verification ----
  r = await call(base(), "POST", "/api/me/mail", { address: "alice@example.org" }, alice);
  eq(r.status, 200, "alice sets her address");
  let got = await until(() => to(box, "alice@example.org").length >= 1);
  check(got, "the verification mail arrives");
  const v = to(box, "alice@example.org")[0];
  check(/confirm your e-mail address/.test(v.subject), "the verification mail is in English (no language chosen)", v.subject);
  const vlink = linkIn(v, /http:\/\/tavoliere\.test\/mail\/verify\?t=[A-Za-z0-9_-]{43}/);
  check(!!vlink, "its link is on --public-url (not the Host header)", v.body);
  check(!v.body.includes("127.0.0.1"), "the mail never names the request's host");
  check(v.headers.from === "Tavoliere <noreply@tavoliere.test>", "From is --mail-from", v.headers.from);
  r = await call(base(), "GET", "/api/me/mail", undefined, alice);
  check(r.body.address === "alice@example.org" && r.body.verified === false, "the address waits for its link", JSON.stringify(r.body));

  // Nothing before verification: a correspondence game where alice is to move.
  const seek = await call(base(), "POST", "/api/seeks", { game: "epaminondas", options: "", rated: false, colour: "white", clock: { days: 3 } }, bob);
  const acc = await call(base(), "POST", `/api/seeks/${seek.body.id}/accept`, {}, alice);
  eq(acc.status, 201, "a correspondence game: bob (white) against alice");
  const gid = acc.body.game;
  const move = async (cookie) => {
    const g = (await call(base(), "GET", `/api/games/${gid}`, undefined, cookie)).body;
    const m = await call(base(), "POST", `/api/games/${gid}/moves`, { move: g.legal[0], ply: g.moves.length }, cookie);
    check(m.status === 200, "a move", JSON.stringify(m.body).slice(0, 200));
  };
  await move(bob);   // alice's turn, but her address is not verified: no mail

  // The link works without a session, once.
  const token = new URL(vlink).searchParams.get("t");
  eq((await call(base(), "POST", "/api/mail/verify", { token: token.slice(0, 42) + (token[42] === "A" ? "B" : "A") })).status, 404, "a wrong token is 404");
  r = await call(base(), "POST", "/api/mail/verify", { token });
  check(r.status === 200 && r.body.verified === true, "following the link verifies the address (no cookie)", JSON.stringify(r.body));
  eq((await call(base(), "POST", "/api/mail/verify", { token })).status, 404, "the link works once");
  r = await call(base(), "GET", "/api/me/mail", undefined, alice);
  check(r.body.verified === true && r.body.kinds.turn && r.body.kinds.challenge && r.body.kinds.tournament && !r.body.digest,
    "verified, every switch on, no digest", JSON.stringify(r.body));
  eq(to(box, "alice@example.org").length, 1, "no mail but the verification one before the link was followed");

  // ---- "your turn" in Italian ----
  eq((await call(base(), "POST", "/api/me/lang", { lang: "it" }, alice)).status, 200, "alice speaks Italian");
  await move(alice);
  await move(bob);
  got = await until(() => to(box, "alice@example.org").length >= 2);
  check(got, "a mail after the opponent moved");
  const turn = to(box, "alice@example.org")[1];
  check(turn && turn.subject === "Tavoliere: tocca a te contro bob", "its subject, in Italian", turn && turn.subject);
  check(turn && turn.body.includes(`${PUBLIC}/games/${gid}`), "it links the game", turn && turn.body);
  check(turn && /Tocca a te contro bob \(Epaminondas\)/.test(turn.body), "its text, in Italian", turn && turn.body);
  const unsubTurn = turn && linkIn(turn, /http:\/\/tavoliere\.test\/mail\/unsubscribe\?t=[A-Za-z0-9_-]{43}&k=turn/);
  check(!!unsubTurn, "it has an unsubscribe link for its kind", turn && turn.body);
  check(turn && /mail\/unsubscribe\?t=[A-Za-z0-9_-]{43}&k=all/.test(turn.headers["list-unsubscribe"] ?? ""), "and a List-Unsubscribe header", JSON.stringify(turn && turn.headers));
  check(turn && !turn.body.includes(token), "the unsubscribe token is not the verification token");

  // ---- unsubscribe by the link, no cookie ----
  const u = new URL(unsubTurn);
  eq((await call(base(), "POST", "/api/mail/unsubscribe", { token: u.searchParams.get("t"), kind: "nope" })).status, 400, "an unknown kind is 400");
  eq((await call(base(), "POST", "/api/mail/unsubscribe", { token: "x".repeat(43), kind: "turn" })).status, 404, "an unknown token is 404");
  r = await call(base(), "POST", "/api/mail/unsubscribe", { token: u.searchParams.get("t"), kind: u.searchParams.get("k") });
  check(r.status === 200 && r.body.kinds.turn === false && r.body.kinds.challenge === true, "unsubscribing turns that kind off, the others stay", JSON.stringify(r.body));
  await move(alice);
  await move(bob);   // alice's turn again: no mail now
  // A challenge still comes (and is the next mail: no turn mail before it).
  const ch = await call(base(), "POST", "/api/seeks", { game: "urbino", options: "", rated: false, colour: "random", clock: { days: 2 }, to: "alice" }, bob);
  eq(ch.status, 201, "bob challenges alice");
  got = await until(() => to(box, "alice@example.org").length >= 3);
  const chm = to(box, "alice@example.org")[2];
  check(got && /bob ti sfida a Urbino/.test(chm.subject), "the next mail is the challenge: no turn mail after unsubscribing", chm && chm.subject);
  check(chm && chm.body.includes(`${PUBLIC}/lobby`), "it links the lobby", chm && chm.body);


  // ---- the address stays private ----
  r = await call(base(), "GET", "/api/players/alice");
  check(!JSON.stringify(r.body).includes("example.org"), "a player's page never shows the address");
  r = await call(base(), "GET", "/api/me/mail", undefined, bob);
  check(r.body.address === null, "another account's settings show only its own address");

  // ---- the hourly limit: 4, the rest folded into the next mail ----
  eq((await call(base(), "POST", "/api/me/mail", { address: "bob@example.org" }, bob)).status, 200, "bob sets his address");
  got = await until(() => to(box, "bob@example.org").length >= 1);
  const bt = new URL(linkIn(to(box, "bob@example.org")[0], /http:\/\/tavoliere\.test\/mail\/verify\?t=[A-Za-z0-9_-]{43}/)).searchParams.get("t");
  eq((await call(base(), "POST", "/api/mail/verify", { token: bt })).status, 200, "bob verifies");
  const challenge = async (i) => {
    const s = await call(base(), "POST", "/api/seeks", { game: "cathedral", options: "", rated: false, colour: "white", clock: { days: 1 }, to: "bob" }, alice);
    check(s.status === 201, `challenge ${i}`, JSON.stringify(s.body));
    eq((await call(base(), "DELETE", `/api/seeks/${s.body.id}`, undefined, alice)).status, 200, `challenge ${i} withdrawn (its mail stays queued)`);
  };
  for (let i = 1; i <= 4; i++) {
    await challenge(i);
    check(await until(() => to(box, "bob@example.org").length >= 1 + i), `challenge ${i}: its mail`);
  }
  await challenge(5);
  await challenge(6);
  // The fifth and sixth wait for the hour; once it passed, one mail with both.
  await advance(3600 * 1000 + 60000);
  got = await until(() => to(box, "bob@example.org").length >= 6);
  const bm = to(box, "bob@example.org");
  check(got && bm.length === 6, "after the hour: one more mail, not two", bm.length);
  const folded = bm[5];
  check(folded && /2 things are waiting/.test(folded.subject), "the fifth and sixth folded into one mail", folded && folded.subject);
  check(folded && (folded.body.match(/alice challenges you to Cathedral/g) ?? []).length === 2, "it lists both", folded && folded.body);

  // ---- the daily digest ----
  r = await call(base(), "POST", "/api/me/mail", { digest: true }, bob);
  eq(r.status, 200, "bob asks for a daily digest");
  await challenge(7);
  await challenge(8);
  await advance(12 * 3600 * 1000);
  await call(base(), "GET", "/api/me/mail", undefined, bob);
  eq(to(box, "bob@example.org").length, 6, "no single mail with the digest on (half a day later)");
  await advance(13 * 3600 * 1000);
  got = await until(() => to(box, "bob@example.org").length >= 7);
  const dg = to(box, "bob@example.org")[6];
  check(got && /your day \(2\)/.test(dg.subject), "a day later: the digest", dg && dg.subject);
  check(dg && (dg.body.match(/alice challenges you to Cathedral/g) ?? []).length === 2, "it lists what happened", dg && dg.body);

  // ---- a queued mail survives SIGKILL; the relay down: retried later ----
  await sink.stop();
  const ch2 = await call(base(), "POST", "/api/seeks", { game: "toscana", options: "", rated: false, colour: "white", clock: { days: 2 }, to: "alice" }, bob);
  eq(ch2.status, 201, "a challenge acknowledged while the relay is down");
  await srv.stop("SIGKILL");
  sink = await startSink(smtpPort, box);
  srv = await startServer({ db, args });
  await advance(10 * 60 * 1000);   // past any retry's backoff
  got = await until(() => to(box, "alice@example.org").length >= 4);
  const after = to(box, "alice@example.org")[3];
  check(got && /bob ti sfida a Toscana/.test(after.subject), "after the restart the queued mail is sent", after && after.subject);
  eq(to(box, "alice@example.org").length, 4, "once");

  // ---- several instances on one PostgreSQL: each mail sent once ----
  if (PG) {
    const second = await startServer({ db, args });
    defer(() => second.stop());
    const before = to(box, "alice@example.org").length;
    const ids = [];
    for (let i = 0; i < 3; i++) {
      const via = i % 2 ? second.base : base();
      const s = await call(via, "POST", "/api/seeks", { game: "epaminondas", options: "", rated: false, colour: "black", clock: { days: 2 }, to: "alice" }, bob);
      check(s.status === 201, `a challenge through instance ${i % 2 ? "two" : "one"}`, JSON.stringify(s.body));
      ids.push(s.body.id);
      await call(via, "DELETE", `/api/seeks/${s.body.id}`, undefined, bob);
    }
    got = await until(() => {
      const n = to(box, "alice@example.org").slice(before).reduce((k, m) => k + (m.body.match(/bob ti sfida a Epaminondas/g) ?? []).length, 0);
      return n >= 3 ? n : 0;
    });
    // Both instances keep looking at the queue; give them several rounds, then count again.
    const rounds = Date.now() + 1500;
    await until(() => Date.now() > rounds, 5000);
    const n = to(box, "alice@example.org").slice(before).reduce((k, m) => k + (m.body.match(/bob ti sfida a Epaminondas/g) ?? []).length, 0);
    check(got && n === 3, "two instances: the three challenges mailed once each", `${n} mentions in ${to(box, "alice@example.org").length - before} mails`);
    await second.stop();
  }

  // ---- remove the address: nothing more ----
  eq((await call(base(), "POST", "/api/me/mail", { address: "" }, alice)).status, 200, "alice removes her address");
  r = await call(base(), "GET", "/api/me/mail", undefined, alice);
  check(r.body.address === null && r.body.verified === false, "no address", JSON.stringify(r.body));
  // Verification links are limited: at most 3 an hour per account.
  const codes = [];
  for (let i = 0; i < 4; i++) codes.push((await call(base(), "POST", "/api/me/mail", { address: `alice${i}@example.org` }, alice)).status);
  eq(codes, [200, 200, 200, 429], "at most 3 verification mails an hour");

  // ---- a tournament starting: its players who want it are told ----
  const dora = await account(base(), "dora");
  eq((await call(base(), "POST", "/api/me/mail", { address: "dora@example.org" }, dora)).status, 200, "dora sets her address");
  got = await until(() => to(box, "dora@example.org").length >= 1);
  const dt = new URL(linkIn(to(box, "dora@example.org")[0], /http:\/\/tavoliere\.test\/mail\/verify\?t=[A-Za-z0-9_-]{43}/)).searchParams.get("t");
  eq((await call(base(), "POST", "/api/mail/verify", { token: dt })).status, 200, "dora verifies");
  const tr = await call(base(), "POST", "/api/tournaments", { name: "An evening arena", game: "epaminondas", options: "", kind: "arena",
    rated: false, clock: { initial: 300, increment: 2 }, starts: Date.now() + 3600000, minutes: 30 }, bob);
  eq(tr.status, 201, "bob makes an arena");
  eq((await call(base(), "POST", `/api/tournaments/${tr.body.id}/join`, {}, dora)).status, 200, "dora joins it");
  eq((await call(base(), "POST", `/api/tournaments/${tr.body.id}/join`, {}, bob)).status, 200, "bob joins it");
  eq((await call(base(), "POST", `/api/tournaments/${tr.body.id}/start`, {}, bob)).status, 200, "bob starts it");
  got = await until(() => to(box, "dora@example.org").some((m) => /An evening arena/.test(m.subject + m.body)));
  const tm = to(box, "dora@example.org").find((m) => /An evening arena/.test(m.subject + m.body));
  check(got && tm.body.includes(`${PUBLIC}/tournaments/${tr.body.id}`), "the tournament starting is mailed to its player, with its link", tm && `${tm.subject}\n${tm.body}`);
});
