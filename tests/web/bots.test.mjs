// bots.test.mjs — bots in the page (SPEC "Bots", issue 48): the account
// page makes the account a bot (after a confirmation) and an API token,
// shown once, listed, revoked; a person sees the bot's profile with its BOT
// mark and a Challenge button, which fills the lobby's form; the bot (over
// the API with its token) accepts; the game screen marks the bot; after the
// rated game the leaderboard marks it too; the bots online in the lobby.
// Screenshots at 1280 and 390 px.

import { sleep } from "./harness.mjs";

const PASSWORD = "correct horse";

async function until(fn, ms = 15000) {
  const t0 = Date.now();
  for (;;) {
    const v = await fn().catch(() => null);
    if (v || Date.now() - t0 > ms) return v;
    await sleep(100);
  }
}

async function signUp(page, url, name) {
  await page.goto(`${url}/signup`);
  await page.fill("#auth-name", name);
  await page.fill("#auth-password", PASSWORD);
  await page.fill("#auth-again", PASSWORD);
  await Promise.all([page.waitForURL((u) => !u.pathname.startsWith("/signup")), page.click("#auth-submit")]);
  await page.waitForSelector("#account-name");
}

async function bearer(url, token, method, path, body) {
  const res = await fetch(url + path, {
    method, headers: { authorization: `Bearer ${token}`, ...(body ? { "content-type": "application/json" } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  try { return { status: res.status, body: JSON.parse(text) }; } catch { return { status: res.status, body: text }; }
}

export async function run(env) {
  const { url, tally } = env;
  const pr = await env.newPage("bots-robo");
  const pa = await env.newPage("bots-ann");

  // ---- the account page: a bot and its token ----
  await signUp(pr, url, "robo");
  await pr.goto(url + "/account");
  await pr.waitForSelector("#make-bot");
  pr.once("dialog", (d) => d.accept());
  await pr.click("#make-bot");
  await pr.waitForSelector("#is-bot");
  tally.check("account page: the account becomes a bot (its BOT mark)", (await pr.textContent("#is-bot")).includes("BOT"));
  tally.check("account page: no token yet", await pr.isVisible("#no-tokens"));
  await pr.click("#token-create");
  await pr.waitForSelector("#new-token-value");
  await pr.evaluate(() => document.querySelector("#bots-h").scrollIntoView({ block: "start" }));
  const token = await pr.inputValue("#new-token-value");
  tally.check("account page: a new token is shown once", /^tvb_[A-Za-z0-9_-]{43}$/.test(token), token);
  await pr.waitForSelector("#tokens li");
  tally.check("account page: the token is listed (its id, never used), not its secret",
    (await pr.locator("#tokens li").count()) === 1 && !(await pr.textContent("#tokens")).includes(token));
  await env.shot(pr, "bots-account-1280");
  await pr.setViewportSize({ width: 390, height: 844 });
  await pr.locator("#bots-h").scrollIntoViewIfNeeded();
  await pr.evaluate(() => document.querySelector("#bots-h").scrollIntoView({ block: "start" }));
  await env.shot(pr, "bots-account-390");
  await pr.setViewportSize({ width: 1280, height: 860 });
  const me = await bearer(url, token, "GET", "/api/me");
  tally.check("the token acts as the account", me.status === 200 && me.body.name === "robo" && me.body.bot === true, JSON.stringify(me));
  await pr.reload();
  await pr.waitForSelector("#tokens li");
  tally.check("account page again: the token's last use is shown", !(await pr.textContent("#tokens li")).includes("never used"));

  // The bot's event socket makes it online.
  const { default: WebSocket } = await import("ws");
  const ev = new WebSocket(url.replace("http", "ws") + "/api/bot/events", { headers: { authorization: `Bearer ${token}` } });
  await new Promise((r) => ev.once("open", r));

  // ---- a person: the bot's profile, a challenge ----
  await signUp(pa, url, "ann");
  await pa.goto(url + "/players/robo");
  await pa.waitForSelector("#profile-bot");
  tally.check("profile: the bot is marked BOT", (await pa.textContent("#profile-bot")).includes("BOT"));
  await env.shot(pa, "bots-profile-1280");
  await pa.setViewportSize({ width: 390, height: 844 });
  await env.shot(pa, "bots-profile-390");
  await pa.setViewportSize({ width: 1280, height: 860 });
  await Promise.all([pa.waitForURL((u) => u.pathname === "/lobby"), pa.click("#challenge-bot")]);
  await pa.waitForSelector("#seek-to");
  tally.check("the Challenge button fills the lobby's form", (await pa.inputValue("#seek-to")) === "robo");
  await pa.waitForSelector("#bots-online li[data-name=robo]");
  tally.check("the lobby lists the bot online", (await pa.textContent("#bots-online")).includes("robo"));
  await pa.selectOption("#seek-game", "urbino");
  await pa.click("#seek-submit");
  await pa.waitForSelector(".seek.own");
  await env.shot(pa, "bots-lobby-1280");
  const seek = await until(async () => {
    const r = await bearer(url, token, "GET", "/api/seeks");
    return r.body.find((s) => s.to === "robo");
  });
  tally.check("the bot sees the challenge", !!seek);
  const acc = await bearer(url, token, "POST", `/api/seeks/${seek.id}/accept`, {});
  tally.check("the bot accepts with its token", acc.status === 201, JSON.stringify(acc.body));
  await pa.waitForURL((u) => u.pathname.startsWith("/games/"), { timeout: 15000 });
  await pa.waitForSelector(".bot-mark");
  tally.check("the game screen marks the bot", (await pa.locator(".who .bot-mark").count()) === 1);
  await env.shot(pa, "bots-game-1280");
  await pa.setViewportSize({ width: 390, height: 844 });
  await env.shot(pa, "bots-game-390");
  await pa.setViewportSize({ width: 1280, height: 860 });
  // The bot resigns (rated by default): both appear on the leaderboard.
  const gid = acc.body.game;
  const g = await bearer(url, token, "GET", `/api/games/${gid}`);
  if (g.body.tomove === g.body.seat) await bearer(url, token, "POST", `/api/games/${gid}/moves`, { move: g.body.legal[0], ply: 0 });
  const ag = await pa.evaluate(async (i) => (await fetch(`/api/games/${i}`)).json(), gid);
  if (ag.tomove === ag.seat && ag.legal.length)
    await pa.evaluate(async ([i, m, p]) => fetch(`/api/games/${i}/moves`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ move: m, ply: p }) }), [gid, ag.legal[0], ag.ply]);
  const rs = await bearer(url, token, "POST", `/api/games/${gid}/resign`, {});
  tally.check("the bot resigns", rs.status === 200, JSON.stringify(rs.body));
  await pa.goto(url + "/leaderboard/urbino");
  await pa.waitForSelector("#leaders");
  tally.check("the leaderboard marks the bot and says how bots are ranked",
    (await pa.locator('#leaders tr[data-name="robo"] .bot-mark').count()) === 1 &&
    (await pa.locator('#leaders tr[data-name="ann"] .bot-mark').count()) === 0 && await pa.isVisible("#bots-note"));
  await env.shot(pa, "bots-leaderboard-1280");
  ev.close();

  // ---- revoked on the account page ----
  await pr.click("#tokens .token-revoke");
  await until(async () => (await pr.locator("#tokens li").count()) === 0);
  tally.check("account page: the token revoked", (await pr.locator("#tokens li").count()) === 0);
  const after = await bearer(url, token, "GET", "/api/me");
  tally.check("a revoked token is refused (401)", after.status === 401);

  // Italian: the texts come from the catalog.
  await pr.click('[data-lang="it"]');
  await pr.waitForFunction(() => document.documentElement.lang === "it");
  await pr.goto(url + "/account");
  await pr.waitForSelector("#is-bot");
  tally.check("account page in Italian", (await pr.textContent("#bots-h")).includes("token delle API") &&
    (await pr.textContent("#token-create")) === "Crea un token");
  await pr.setViewportSize({ width: 390, height: 844 });
  await pr.evaluate(() => document.querySelector("#bots-h").scrollIntoView({ block: "start" }));
  await env.shot(pr, "bots-account-it-390");
}
