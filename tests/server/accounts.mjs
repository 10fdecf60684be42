// accounts.mjs — SPEC "Accounts" over HTTP: sign up (201, the session cookie
// with its attributes), /api/me, sign in and out, names taken and invalid,
// the same 401 for a wrong password and an unknown name, 429 after ten
// failures of one name whatever the address, a session cookie from another
// site refused, a changed password.
import { check, eq, main, request, startServer } from "./lib.mjs";

// A request with a cookie and extra headers; the answer's Set-Cookie too.
async function call(base, method, path, body, cookie, headers = {}) {
  const h = { ...headers };
  if (cookie) h.cookie = cookie;
  const r = await request(base, method, path, body, { headers: h });
  return r;
}

const cookieOf = (r) => r.headers.get("set-cookie") ?? "";

await main(async (defer) => {
  const srv = await startServer();
  defer(() => srv.stop());
  const base = srv.base;

  const su = await call(base, "POST", "/api/account", { name: "Carla_9", password: "a long password" });
  eq([su.status, su.body], [201, { name: "Carla_9" }], "sign up: 201 and the name");
  const sc = cookieOf(su);
  check(/^tav_session=[A-Za-z0-9_-]{43};/.test(sc) && /HttpOnly/.test(sc) && /SameSite=Lax/.test(sc) && /Path=\//.test(sc) && !/Secure/.test(sc),
    "the session cookie: HttpOnly, SameSite=Lax, Path=/ (no Secure without TLS)", sc);
  const cookie = sc.split(";")[0];
  const me = await call(base, "GET", "/api/me", undefined, cookie);
  eq([me.status, me.body], [200, { name: "Carla_9", ratings: {}, lang: null }], "/api/me with the cookie (no language chosen: null)");
  // The page's language kept in the account (SPEC "Languages").
  eq((await call(base, "POST", "/api/me/lang", { lang: "it" }, cookie)).status, 200, "POST /api/me/lang it: 200");
  eq((await call(base, "GET", "/api/me", undefined, cookie)).body.lang, "it", "/api/me says the language kept");
  eq((await call(base, "POST", "/api/me/lang", { lang: "fr" }, cookie)).status, 400, "a language other than it and en: 400");
  eq((await call(base, "POST", "/api/me/lang", { lang: "it", x: 1 }, cookie)).status, 400, "an unknown field: 400");
  eq((await call(base, "POST", "/api/me/lang", { lang: "en" })).status, 401, "without a cookie: 401");
  eq((await call(base, "GET", "/api/me/lang", undefined, cookie)).status, 405, "GET /api/me/lang: 405");
  eq((await call(base, "POST", "/api/me/lang", { lang: "en" }, cookie, { origin: "https://evil.example" })).status, 403,
    "a foreign Origin: 403");
  eq((await call(base, "GET", "/api/me", undefined, cookie)).body.lang, "it", "... and changed nothing");
  eq((await call(base, "POST", "/api/me/lang", { lang: "en" }, cookie)).status, 200, "POST /api/me/lang en: 200");
  eq((await call(base, "GET", "/api/me", undefined, cookie)).body.lang, "en", "/api/me: en now");
  eq((await call(base, "GET", "/api/me")).status, 401, "/api/me without a cookie: 401");
  eq((await call(base, "GET", "/api/me", undefined, "tav_session=made-up")).status, 401, "/api/me with a made-up cookie: 401");

  eq((await call(base, "POST", "/api/account", { name: "carla_9", password: "another password" })).status, 409, "a name taken ignoring case: 409");
  for (const [name, pw, why] of [["ab", "long enough!", "2 characters"], ["x".repeat(21), "long enough!", "21 characters"],
    ["a b c", "long enough!", "a space"], ["<script>", "long enough!", "markup"], ["O'Brien", "long enough!", "a quote"],
    ["Dora", "short", "a 5-byte password"], ["Dora", "x".repeat(257), "a 257-byte password"]])
    eq((await call(base, "POST", "/api/account", { name, password: pw })).status, 400, `sign up with ${why}: 400`);
  eq((await call(base, "POST", "/api/account", { name: "Dora", password: "long enough!", admin: true })).status, 400, "an unknown field: 400");
  eq((await call(base, "POST", "/api/account", { name: "Dora", password: 12345678 })).status, 400, "a password that is no string: 400");

  const bad = await call(base, "POST", "/api/login", { name: "Carla_9", password: "not it at all" });
  const unknown = await call(base, "POST", "/api/login", { name: "Nobody_here", password: "not it at all" });
  eq([bad.status, unknown.status], [401, 401], "sign in: a wrong password and an unknown name are 401");
  eq(bad.body, unknown.body, "... with the same answer");
  check(!cookieOf(bad), "no cookie for a failed sign-in");
  const li = await call(base, "POST", "/api/login", { name: "CARLA_9", password: "a long password" });
  eq([li.status, li.body], [200, { name: "Carla_9" }], "sign in (any letter case): 200, the name as chosen");
  const cookie2 = cookieOf(li).split(";")[0];
  check(cookie2 && cookie2 !== cookie, "a new session cookie");

  // Cross-site: a change with the cookie and a foreign Origin is refused.
  const cross = await call(base, "POST", "/api/logout", {}, cookie2, { origin: "https://evil.example" });
  eq(cross.status, 403, "a request from another site with the cookie: 403");
  eq((await call(base, "GET", "/api/me", undefined, cookie2)).status, 200, "... and changed nothing");
  const host = new URL(base).host;
  const own = await call(base, "POST", "/api/logout", {}, cookie2, { origin: `http://${host}` });
  eq(own.status, 200, "sign out from the server's own page: 200");
  check(/tav_session=;/.test(cookieOf(own)) && /Max-Age=0/.test(cookieOf(own)), "sign out clears the cookie", cookieOf(own));
  eq((await call(base, "GET", "/api/me", undefined, cookie2)).status, 401, "the ended session no longer works");
  eq((await call(base, "GET", "/api/me", undefined, cookie)).status, 200, "the other session still does");

  // A changed password.
  eq((await call(base, "POST", "/api/password", { old: "wrong one!", new: "brand new password" }, cookie)).status, 401, "a password change with the wrong old one: 401");
  eq((await call(base, "POST", "/api/password", { old: "a long password", new: "brand new password" })).status, 401, "a password change signed out: 401");
  eq((await call(base, "POST", "/api/password", { old: "a long password", new: "brand new password" }, cookie)).status, 200, "a password change: 200");
  eq((await call(base, "POST", "/api/login", { name: "Carla_9", password: "a long password" })).status, 401, "the old password no longer signs in");
  eq((await call(base, "POST", "/api/login", { name: "Carla_9", password: "brand new password" })).status, 200, "the new one does");

  // Ten failures of one name in ten minutes: 429, whatever the address, the right password too.
  await call(base, "POST", "/api/account", { name: "Eve_target", password: "the right one!" });
  const guesses = [];
  for (let i = 0; i < 10; i++) guesses.push((await call(base, "POST", "/api/login", { name: "Eve_target", password: `guess ${i}!!` })).status);
  eq(guesses, Array(10).fill(401), "ten wrong guesses: 401 each");
  eq((await call(base, "POST", "/api/login", { name: "eve_TARGET", password: "the right one!" })).status, 429, "the eleventh, even right: 429");
  eq((await call(base, "POST", "/api/login", { name: "Carla_9", password: "brand new password" })).status, 200, "another name is not blocked");

  // Sessions: listed on the account page, the others ended.
  const s1 = (await call(base, "POST", "/api/login", { name: "Carla_9", password: "brand new password" })).headers.get("set-cookie").split(";")[0];
  const s2 = (await call(base, "POST", "/api/login", { name: "Carla_9", password: "brand new password" })).headers.get("set-cookie").split(";")[0];
  const list = (await call(base, "GET", "/api/sessions", undefined, s1)).body;
  check(Array.isArray(list) && list.length >= 3 && list.filter((x) => x.current).length === 1 &&
    list.every((x) => /^[0-9a-f]{16}$/.test(x.id) && x.expires > x.created), "the account's sessions, the current one marked", JSON.stringify(list));
  check(!JSON.stringify(list).includes(s1.split("=")[1]), "no session token in the list");
  const others = list.filter((x) => !x.current);
  for (const x of others) eq((await call(base, "DELETE", `/api/sessions/${x.id}`, undefined, s1)).status, 200, "another session ended");
  eq((await call(base, "GET", "/api/me", undefined, s2)).status, 401, "an ended session no longer works");
  eq((await call(base, "GET", "/api/me", undefined, s1)).status, 200, "the current one still does");
  eq((await call(base, "GET", "/api/sessions", undefined, s1)).body.length, 1, "one session left");
  eq((await call(base, "DELETE", "/api/sessions/0123456789abcdef", undefined, s1)).status, 404, "an unknown session id: 404");
  eq((await call(base, "GET", "/api/sessions")).status, 401, "signed out: 401");
  const frank = (await call(base, "POST", "/api/account", { name: "Frank_1", password: "frank's password" })).headers.get("set-cookie").split(";")[0];
  const mine1 = (await call(base, "GET", "/api/sessions", undefined, s1)).body[0].id;
  eq((await call(base, "DELETE", `/api/sessions/${mine1}`, undefined, frank)).status, 404, "another account's session cannot be ended: 404");
  eq((await call(base, "GET", "/api/me", undefined, s1)).status, 200, "and it still works");
});
