// tournaments.ts — the tournaments' pages (SPEC "Tournaments",
// docs/tournaments.md): /tournaments, the list (upcoming, running, finished,
// each with a countdown) and a form to make one; /tournaments/ID, a
// tournament: its rules in words, join / withdraw / start, the standings
// live from its socket (/api/tournaments/ID/live), a round robin's
// crosstable, every game one click from its board, and — in an arena — a
// notice when one's next game starts, which the page then opens.

import { ApiError, refused } from "./api";
import { currentUser } from "./account";
import { CLOCK_PRESETS, clockLabel, isLive } from "./clock";
import { h } from "./dom";
import { LiveSocket } from "./live";
import { BOARDS } from "./games/index";
import { loadMeta, title } from "./meta";
import type { Me, Meta } from "./types";
import { dateTime, num, t, tn } from "./i18n";

type TourClock = { initial: number; increment: number } | { days: number };
type Status = "open" | "running" | "over";

export interface TourSummary {
  id: string; name: string; game: string; kind: "roundrobin" | "arena"; status: Status;
  players: number; starts: number; ends: number | null; rated: boolean; clock: TourClock; minutes?: number; repeat?: string | null;
}
export interface TourPlayer { name: string; rating: number; score: number; tiebreak: number; division: number; withdrawn: boolean; rank: number }
export interface TourGame { id: string; white: string; black: string; division: number; winner: string | null; end: string | null }
export interface Tour {
  id: string; name: string; game: string; options: string; kind: "roundrobin" | "arena"; rated: boolean; clock: TourClock;
  creator: string; status: Status; starts: number; ends: number | null; minutes?: number; now: number;
  repeat?: string | null; previous?: string | null;
  players: TourPlayer[]; games: TourGame[];
}

async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
  let res: Response;
  try {
    res = await fetch(path, {
      method, cache: "no-store",
      headers: body === undefined ? {} : { "Content-Type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    throw new ApiError(0, t("err.unreachable"));
  }
  let data: unknown = null;
  try { data = await res.json(); } catch { data = null; }
  if (!res.ok) throw refused(res.status, data, res.statusText);
  return data as T;
}

/** A span of time for a countdown: "2 d 3 h", "1 h 05 min", "4:07". */
export function span(ms: number): string {
  const s = Math.max(0, Math.ceil(ms / 1000));
  const d = Math.floor(s / 86400), hr = Math.floor((s % 86400) / 3600), min = Math.floor((s % 3600) / 60), sec = s % 60;
  if (d) return t("tour.spanDays", { d, h: hr });
  if (hr) return t("tour.spanHours", { h: hr, m: String(min).padStart(2, "0") });
  return `${min}:${String(sec).padStart(2, "0")}`;
}

/** What a countdown says of a tournament at `now` (the server's time). */
export function countdown(x: { status: Status; starts: number; ends: number | null; kind: string }, now: number): string {
  if (x.status === "open") return x.starts > now ? t("tour.startsIn", { time: span(x.starts - now) }) : t("tour.startsSoon");
  if (x.status === "running")
    return x.kind === "arena" && x.ends ? (x.ends > now ? t("tour.endsIn", { time: span(x.ends - now) }) : t("tour.lastGames")) : t("tour.inPlay");
  return x.ends ? t("tour.endedAt", { when: dateTime(x.ends) }) : t("tour.over");
}

const kindText = (k: string) => (k === "arena" ? t("tour.kindArena") : t("tour.kindRoundRobin"));
const repeatText = (r: string | null | undefined) => (r === "day" ? ` · ${t("tour.everyDay")}` : r === "week" ? ` · ${t("tour.everyWeek")}` : "");
const score = (n: number) => (Number.isInteger(n) ? String(n) : n % 1 === 0.5 ? `${Math.floor(n) || ""}½` : num(n));

// ---- the list ----

export function showTournaments(app: HTMLElement): void {
  document.title = t("tour.listTitle");
  app.className = "tournaments";
  app.textContent = "";
  const status = h("p", { class: "muted", role: "status" }, t("tour.loading"));
  app.appendChild(status);
  Promise.all([loadMeta().catch(() => null), currentUser(), call<TourSummary[]>("GET", "/api/tournaments").catch(() => null)])
    .then(([meta, me, list]) => {
      status.remove();
      buildList(app, meta, me, list ?? []);
    });
}

function buildList(app: HTMLElement, meta: Meta | null, me: Me | null, list: TourSummary[]): void {
  const offset = { ms: 0 };   // the server's time minus this browser's
  app.appendChild(h("h1", {}, t("tour.listHeading")));
  app.appendChild(h("p", { class: "muted" }, t("tour.listIntro")));
  const sections: [Status, string][] = [["running", t("tour.running")], ["open", t("tour.upcoming")], ["over", t("tour.finished")]];
  const counters: { el: HTMLElement; x: TourSummary }[] = [];
  for (const [st, heading] of sections) {
    const mine = list.filter((x) => x.status === st);
    if (st === "open") mine.sort((a, b) => a.starts - b.starts);
    const ul = h("ul", { class: "tour-list", id: `tours-${st}` });
    for (const x of mine) {
      const cd = h("span", { class: "tour-countdown" });
      counters.push({ el: cd, x });
      ul.appendChild(h("li", { class: "tour-row", "data-tour": x.id },
        h("a", { href: `/tournaments/${encodeURIComponent(x.id)}`, class: "tour-name" }, x.name),
        h("span", { class: "tour-what muted" }, `${title(meta, x.game)} · ${kindText(x.kind)} · ${clockLabel(x.clock)}${x.rated ? ` · ${t("lobby.rated")}` : ""}${repeatText(x.repeat)}`),
        h("span", { class: "tour-players" }, tn("tour.players", x.players)), cd));
    }
    if (!mine.length) ul.appendChild(h("li", { class: "muted" }, t("tour.none")));
    app.appendChild(h("section", { class: "tour-section" }, h("h2", {}, heading), ul));
  }
  const tick = () => {
    if (!app.isConnected) return;
    for (const c of counters) c.el.textContent = countdown(c.x, Date.now() + offset.ms);
  };
  tick();
  const timer = window.setInterval(() => { if (!app.isConnected) window.clearInterval(timer); else tick(); }, 1000);
  if (me && meta) app.appendChild(makeForm(meta));
  else if (!me) app.appendChild(h("p", { class: "signin-note" }, h("a", { href: "/signin?next=%2Ftournaments" }, t("tour.signInLink")), t("tour.signInToMake")));
}

function makeForm(meta: Meta): HTMLElement {
  const games = meta.games.filter((g) => g.name in BOARDS);
  const name = h("input", { id: "tour-name", type: "text", maxlength: 80, required: true, value: t("tour.defaultName") });
  const gameSel = h("select", { id: "tour-game" }, ...games.map((g) => h("option", { value: g.name }, g.title)));
  const kindSel = h("select", { id: "tour-kind" }, h("option", { value: "arena" }, t("tour.kindArena")), h("option", { value: "roundrobin" }, t("tour.kindRoundRobin")));
  const clockSel = h("select", { id: "tour-clock" }, ...CLOCK_PRESETS.map((p, i) => h("option", { value: p.id, ...(i === 0 ? { selected: true } : {}) }, p.label)));
  const startIn = h("input", { id: "tour-start", type: "number", min: 0, max: 10080, value: 10 });
  const minutes = h("input", { id: "tour-minutes", type: "number", min: 1, max: 720, value: 30 });
  const rated = h("input", { id: "tour-rated", type: "checkbox", checked: true });
  const repeatSel = h("select", { id: "tour-repeat" }, h("option", { value: "" }, t("tour.repeatNo")),
    h("option", { value: "day" }, t("tour.everyDay")), h("option", { value: "week" }, t("tour.everyWeek")));
  const error = h("p", { class: "error", role: "alert", id: "tour-error" });
  const btn = h("button", { type: "submit", class: "primary", id: "tour-make" }, t("tour.make"));
  const minutesField = h("label", { class: "form-field inline" }, h("span", { class: "form-label" }, t("tour.minutes")), minutes);
  const sync = () => {
    const arena = kindSel.value === "arena";
    minutesField.hidden = !arena;
    for (const o of clockSel.options) o.disabled = arena && !isLive(CLOCK_PRESETS.find((p) => p.id === o.value)?.clock);
    if (clockSel.selectedOptions[0]?.disabled) clockSel.value = CLOCK_PRESETS[0].id;
  };
  kindSel.addEventListener("change", sync);
  sync();
  const form = h("form", { class: "seek-form tour-form", id: "tour-form", "aria-labelledby": "tour-form-h" },
    h("h2", { id: "tour-form-h" }, t("tour.makeHeading")),
    h("label", { class: "form-field" }, h("span", { class: "form-label" }, t("tour.name")), name),
    h("div", { class: "row" },
      h("label", { class: "form-field inline" }, h("span", { class: "form-label" }, t("home.game")), gameSel),
      h("label", { class: "form-field inline" }, h("span", { class: "form-label" }, t("tour.kind")), kindSel),
      h("label", { class: "form-field inline" }, h("span", { class: "form-label" }, t("lobby.clock")), clockSel)),
    h("div", { class: "row" },
      h("label", { class: "form-field inline" }, h("span", { class: "form-label" }, t("tour.startsInMinutes")), startIn),
      minutesField,
      h("label", { class: "form-field inline" }, h("span", { class: "form-label" }, t("tour.repeat")), repeatSel),
      h("label", { class: "form-field inline check" }, rated, h("span", {}, t("lobby.rated")))),
    h("div", { class: "row" }, btn), error);
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    btn.disabled = true;
    error.textContent = "";
    const preset = CLOCK_PRESETS.find((p) => p.id === clockSel.value) ?? CLOCK_PRESETS[0];
    const body: Record<string, unknown> = {
      name: name.value.trim(), game: gameSel.value, options: "", kind: kindSel.value, rated: rated.checked,
      clock: preset.clock, starts: Date.now() + Math.max(0, Number(startIn.value) || 0) * 60000,
    };
    if (kindSel.value === "arena") body.minutes = Math.max(1, Number(minutes.value) || 30);
    if (repeatSel.value) body.repeat = repeatSel.value;
    try {
      const r = await call<{ id: string }>("POST", "/api/tournaments", body);
      location.assign(`/tournaments/${encodeURIComponent(r.id)}`);
    } catch (e) {
      error.textContent = t("tour.makeFailed", { error: (e as Error).message });
      btn.disabled = false;
    }
  });
  return form;
}

// ---- one tournament ----

export function showTournament(app: HTMLElement, id: string): void {
  document.title = t("tour.listTitle");
  app.className = "tournament";
  app.textContent = "";
  const status = h("p", { class: "muted", role: "status" }, t("tour.loading"));
  app.appendChild(status);
  Promise.all([loadMeta().catch(() => null), currentUser()]).then(([meta, me]) => {
    status.remove();
    buildTour(app, id, meta, me);
  });
}

function rulesText(x: Tour): string {
  const clock = clockLabel(x.clock);
  if (x.kind === "arena")
    return t("tour.rulesArena", { minutes: x.minutes ?? 0, clock }) + (x.rated ? " " + t("tour.rulesRated") : "");
  return t("tour.rulesRoundRobin", { clock }) + (x.rated ? " " + t("tour.rulesRated") : "");
}

function buildTour(app: HTMLElement, id: string, meta: Meta | null, me: Me | null): void {
  const head = h("h1", { id: "tour-title" });
  const what = h("p", { class: "muted", id: "tour-what" });
  const cd = h("p", { class: "tour-countdown", id: "tour-countdown", "aria-live": "off" });
  const rules = h("p", { class: "tour-rules", id: "tour-rules" });
  const rulesSec = h("section", { class: "tour-rules-sec" }, h("h2", {}, t("tour.rulesHeading")), rules);
  const notice = h("p", { class: "tour-notice", id: "tour-notice", role: "status", hidden: true });
  const actions = h("div", { class: "row tour-actions", id: "tour-actions" });
  const error = h("p", { class: "error", role: "alert", id: "tour-error" });
  const conn = h("p", { class: "conn muted", id: "tour-conn" });
  const standings = h("section", { class: "tour-standings", "aria-labelledby": "tour-st-h" });
  const cross = h("section", { class: "tour-cross", id: "tour-cross" });
  const games = h("section", { class: "tour-games", "aria-labelledby": "tour-games-h" });
  app.append(h("p", {}, h("a", { href: "/tournaments" }, t("tour.allTournaments"))), head, what, cd, notice, actions, error, standings, cross, games, rulesSec, conn);

  let cur: Tour | null = null;
  let offset = 0;   // the server's time minus this browser's
  let busy = false;
  const act = async (verb: "join" | "withdraw" | "start", body: unknown = {}) => {
    if (busy) return;
    busy = true;
    error.textContent = "";
    try {
      await call("POST", `/api/tournaments/${encodeURIComponent(id)}/${verb}`, body);
      const x = await call<Tour>("GET", `/api/tournaments/${encodeURIComponent(id)}`);
      draw(x);
    } catch (e) {
      error.textContent = t("tour.actFailed", { error: (e as Error).message });
    }
    busy = false;
  };
  const button = (verb: "join" | "withdraw" | "start", label: string, primary = false) => {
    const b = h("button", { type: "button", id: `tour-${verb}`, class: primary ? "primary" : "" }, label);
    b.addEventListener("click", () => void act(verb));
    return b;
  };

  const draw = (x: Tour) => {
    cur = x;
    offset = x.now - Date.now();
    document.title = `${x.name} · ${t("tour.listTitle")}`;
    head.textContent = x.name;
    what.textContent = `${title(meta, x.game)} · ${kindText(x.kind)} · ${clockLabel(x.clock)}${x.rated ? ` · ${t("lobby.rated")}` : ` · ${t("lobby.casual")}`}${repeatText(x.repeat)} · ${t("tour.by", { name: x.creator })}`;
    app.dataset.status = x.status;
    rules.textContent = rulesText(x);
    cd.textContent = countdown(x, x.now);
    // what this visitor may do
    actions.textContent = "";
    const mine = me ? x.players.find((p) => p.name.toLowerCase() === me.name.toLowerCase()) : undefined;
    const joinable = x.status === "open" || (x.status === "running" && x.kind === "arena");
    if (!me) {
      if (x.status !== "over") actions.appendChild(h("a", { href: `/signin?next=${encodeURIComponent(location.pathname)}` }, t("tour.signInToJoin")));
    } else {
      if (joinable && (!mine || mine.withdrawn)) {
        actions.appendChild(button("join", t("tour.join"), true));
        if (x.repeat) {
          const once = h("button", { type: "button", id: "tour-join-once" }, t("tour.joinOnce"));
          once.addEventListener("click", () => void act("join", { once: true }));
          actions.appendChild(once);
        }
      }
      if (mine && !mine.withdrawn && x.status !== "over") actions.appendChild(button("withdraw", t("tour.withdraw")));
      if (x.status === "open" && me.name.toLowerCase() === x.creator.toLowerCase()) actions.appendChild(button("start", t("tour.startNow")));
      const myGame = x.games.find((g) => g.winner === null && (g.white === me.name || g.black === me.name));
      if (myGame && x.kind === "arena")
        actions.appendChild(h("a", { class: "button primary", id: "tour-my-game", href: `/games/${encodeURIComponent(myGame.id)}` }, t("tour.toMyGame")));
    }
    drawStandings(x);
    drawCross(x);
    drawGames(x);
  };

  const drawStandings = (x: Tour) => {
    standings.textContent = "";
    standings.appendChild(h("h2", { id: "tour-st-h" }, x.status === "over" && x.kind === "arena" ? t("tour.podium") : t("tour.standings")));
    const divisions = [...new Set(x.players.map((p) => p.division))];
    for (const d of divisions) {
      if (x.kind === "roundrobin" && divisions.length > 1) standings.appendChild(h("h3", {}, t("tour.division", { n: d })));
      const rows = x.players.filter((p) => p.division === d);
      const tb = h("tbody", {});
      for (const p of rows) {
        const podium = x.status === "over" && x.kind === "arena" && p.rank <= 3 ? ` podium-${p.rank}` : "";
        tb.appendChild(h("tr", { class: `${p.withdrawn ? "withdrawn" : ""}${podium}`, "data-player": p.name },
          h("td", { class: "num" }, String(p.rank)),
          h("td", {}, h("a", { href: `/players/${encodeURIComponent(p.name)}` }, p.name), p.withdrawn ? h("span", { class: "muted" }, ` (${t("tour.withdrawn")})`) : null),
          h("td", { class: "num" }, String(p.rating)),
          h("td", { class: "num tour-score" }, score(p.score)),
          h("td", { class: "num" }, score(p.tiebreak))));
      }
      if (!rows.length) tb.appendChild(h("tr", {}, h("td", { colspan: 5, class: "muted" }, t("tour.noPlayers"))));
      standings.appendChild(h("table", { class: "tour-table", "data-division": d },
        h("thead", {}, h("tr", {}, h("th", { class: "num" }, "#"), h("th", {}, t("tour.player")), h("th", { class: "num" }, t("tour.rating")),
          h("th", { class: "num" }, t("tour.score")), h("th", { class: "num" }, x.kind === "arena" ? t("tour.wins") : t("tour.sb")))), tb));
    }
    if (!x.players.length) standings.appendChild(h("p", { class: "muted" }, t("tour.noPlayers")));
  };

  // A round robin's crosstable: per division, a row per player, a cell per
  // opponent holding its two games (white first), each a link to its board.
  const drawCross = (x: Tour) => {
    cross.textContent = "";
    if (x.kind !== "roundrobin" || x.status === "open") return;
    cross.appendChild(h("h2", {}, t("tour.crosstable")));
    const divisions = [...new Set(x.players.map((p) => p.division))];
    for (const d of divisions) {
      const ps = x.players.filter((p) => p.division === d);
      const head = h("tr", {}, h("th", {}, ""), ...ps.map((p, i) => h("th", { title: p.name, class: "num" }, String(i + 1))));
      const body = h("tbody", {});
      ps.forEach((p, i) => {
        const tr = h("tr", {}, h("th", { scope: "row" }, `${i + 1} ${p.name}`));
        for (const q of ps) {
          const td = h("td", { class: "cross-cell" });
          if (q.name === p.name) td.classList.add("self");
          for (const g of x.games.filter((g) => (g.white === p.name && g.black === q.name) || (g.white === q.name && g.black === p.name))
            .sort((a, b) => (a.white === p.name ? -1 : 0) - (b.white === p.name ? -1 : 0))) {
            const side = g.white === p.name ? "white" : "black";
            const mark = g.winner === null ? "·" : g.winner === "draw" ? "½" : g.winner === side ? "1" : "0";
            td.appendChild(h("a", { href: `/games/${encodeURIComponent(g.id)}`, class: `cross-${side}`, title: t("tour.gameTitle", { white: g.white, black: g.black }) }, mark));
          }
          tr.appendChild(td);
        }
        body.appendChild(tr);
      });
      cross.appendChild(h("div", { class: "table-scroll" }, h("table", { class: "tour-cross-table", "data-division": d }, h("thead", {}, head), body)));
    }
  };

  const drawGames = (x: Tour) => {
    games.textContent = "";
    if (!x.games.length) return;
    games.appendChild(h("h2", { id: "tour-games-h" }, t("tour.games")));
    const playing = x.games.filter((g) => g.winner === null), done = x.games.filter((g) => g.winner !== null);
    const ul = h("ul", { class: "tour-game-list" });
    for (const g of [...playing, ...done.reverse()].slice(0, 200)) {
      const res = g.winner === null ? t("tour.playing") : g.end === "abort" ? t("tour.aborted")
        : g.winner === "draw" ? "½–½" : g.winner === "white" ? "1–0" : "0–1";
      ul.appendChild(h("li", { "data-game": g.id, class: g.winner === null ? "playing" : "" },
        h("a", { href: `/games/${encodeURIComponent(g.id)}` }, `${g.white} – ${g.black}`), h("span", { class: "muted" }, ` ${res}`)));
    }
    games.appendChild(ul);
  };

  // The countdown runs between the server's messages.
  const timer = window.setInterval(() => {
    if (!app.isConnected) { window.clearInterval(timer); return; }
    if (cur) cd.textContent = countdown(cur, Date.now() + offset);
  }, 1000);

  const sock = new LiveSocket(`/api/tournaments/${encodeURIComponent(id)}/live`, (data) => {
    if (!app.isConnected) { sock.close(); return; }
    const o = data as { type?: string; game?: unknown; error?: string; id?: string };
    if (o && o.type === "paired" && typeof o.game === "string") {
      const gid = o.game;
      notice.hidden = false;
      notice.textContent = "";
      notice.append(t("tour.paired"), " ", h("a", { href: `/games/${encodeURIComponent(gid)}`, id: "tour-paired-link" }, t("tour.toMyGame")));
      // An arena's next game starts now: the page opens it.
      if (cur?.kind === "arena") window.setTimeout(() => location.assign(`/games/${encodeURIComponent(gid)}`), 1200);
    } else if (o && o.type === "error") {
      error.textContent = o.error ?? "";
    } else if (o && typeof o.id === "string") {
      draw(o as unknown as Tour);
    }
  }, (up) => { conn.textContent = up ? "" : t("lobby.reconnecting"); });
}
