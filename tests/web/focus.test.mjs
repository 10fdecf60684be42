// focus.test.mjs — keyboard focus inside the boards' SVG is drawn thin, in
// board units, and covers nothing around the focused control.  (A CSS outline
// on an SVG element is drawn in the viewBox's units: Cathedral's and Toscana's
// 3 px focus outline became about 150 px and covered half the board.)
//
// For each board in a position with its controls offered, the test presses
// Tab from the top of the page through every focusable control of the board;
// for each one it takes a screenshot of the board with the control focused
// and one with the focus taken away, and compares them pixel by pixel: the
// focus must show (some pixels change) and every pixel it changes must lie
// within a few pixels of the focused control's own box.  It also checks the
// computed outline is none.

import { api, sleep } from "./harness.mjs";

// Pixels that differ between two PNG screenshots of the same size (base64),
// decoded in the page: { n, boxes: bounding box of the changed pixels }.
async function diff(page, a, b, box) {
  return page.evaluate(async ([a, b, box]) => {
    const load = async (s) => {
      const bin = atob(s), u = new Uint8Array(bin.length);
      for (let i = 0; i < bin.length; i++) u[i] = bin.charCodeAt(i);
      const bmp = await createImageBitmap(new Blob([u], { type: "image/png" }));
      const c = new OffscreenCanvas(bmp.width, bmp.height);
      const x = c.getContext("2d");
      x.drawImage(bmp, 0, 0);
      return x.getImageData(0, 0, bmp.width, bmp.height);
    };
    const A = await load(a), B = await load(b);
    let n = 0, out = 0, x0 = Infinity, y0 = Infinity, x1 = -1, y1 = -1;
    for (let y = 0; y < A.height; y++) for (let x = 0; x < A.width; x++) {
      const i = (y * A.width + x) * 4;
      if (Math.abs(A.data[i] - B.data[i]) + Math.abs(A.data[i + 1] - B.data[i + 1]) + Math.abs(A.data[i + 2] - B.data[i + 2]) > 24) {
        n++;
        if (x < box[0] || y < box[1] || x > box[2] || y > box[3]) out++;
        x0 = Math.min(x0, x); y0 = Math.min(y0, y); x1 = Math.max(x1, x); y1 = Math.max(y1, y);
      }
    }
    return { n, out, box: n ? [x0, y0, x1, y1] : null };
  }, [a, b, box]);
}

// Wait until the board's sideways area has stopped scrolling (focus may
// scroll it to show the control, and its edge shading follows a frame later).
function settle(page) {
  return page.evaluate(() => new Promise((done) => {
    let last = -1, same = 0;
    const step = () => {
      const sc = document.querySelector("#board-scroll");
      const x = sc ? sc.scrollLeft : 0;
      if (x === last && ++same >= 3) return done();
      if (x !== last) same = 0;
      last = x;
      requestAnimationFrame(step);
    };
    requestAnimationFrame(step);
  }));
}

// Tab through the board's controls on `page`; check each.
async function tabThrough(env, page, label) {
  const { tally } = env;
  await page.mouse.move(1, 1);
  await page.evaluate(() => { document.activeElement?.blur?.(); window.scrollTo(0, 0); });
  // the board in page coordinates (the screenshots are of the whole page, clipped)
  // On a phone the board may be wider than the screen, inside its own
  // sideways-scrolled area: the part of it on the screen (a screenshot's clip
  // is cut to the page, which would shift every box by the scrolled part).
  const clipOf = () => page.$eval("#board", (e) => { const r = e.getBoundingClientRect();
    const x0 = Math.max(r.left, 0), x1 = Math.min(r.right, document.documentElement.clientWidth);
    return { x: x0 + scrollX, y: r.y + scrollY, width: x1 - x0, height: r.height }; });
  let inside = 0, bad = [], seen = new Set();
  for (let i = 0; i < 120; i++) {
    await page.keyboard.press("Tab");
    await sleep(30);
    await settle(page);
    const f = await page.evaluate(() => {
      const a = document.activeElement, svg = document.querySelector("#board");
      if (!a || !svg || !svg.contains(a)) return null;
      const r = a.getBoundingClientRect(), cs = getComputedStyle(a);
      return { key: a.getAttribute("data-key") ?? a.getAttribute("data-square") ?? a.tagName,
        box: [r.left + scrollX, r.top + scrollY, r.right + scrollX, r.bottom + scrollY],
        outline: cs.outlineStyle, ow: cs.outlineWidth, visible: a.matches(":focus-visible") };
    });
    if (!f) { if (inside) break; continue; }
    if (seen.has(f.key)) break;
    seen.add(f.key);
    inside++;
    const clip = await clipOf();
    const a = (await page.screenshot({ clip, fullPage: true })).toString("base64");
    if (inside === 2) await env.shot(page, `focus-${label}`);
    await page.evaluate(() => document.activeElement.blur());
    await sleep(30);
    await settle(page);
    const b = (await page.screenshot({ clip, fullPage: true })).toString("base64");
    const m = 4;   // px of slack around the control's box
    const box = [f.box[0] - clip.x - m, f.box[1] - clip.y - m, f.box[2] - clip.x + m, f.box[3] - clip.y + m];
    const d = await diff(page, a, b, box);
    // a few pixels of antialiasing may change beside it (a neighbour's edge)
    const within = d.out <= 30;
    if (f.outline !== "none" || !f.visible || d.n < 10 || !within) {
      bad.push(`${f.key}: outline ${f.outline} ${f.ow}, focus-visible ${f.visible}, ${d.n} px changed (${d.out} outside) in ${JSON.stringify(d.box)}, control ${JSON.stringify(box.map(Math.round))}`);
    }
    // back to the control, to Tab on from it
    await page.evaluate((k) => {
      const e = document.querySelector(`#board [data-key="${CSS.escape(k)}"]`) ?? document.querySelector(`#board [data-square="${CSS.escape(k)}"]`);
      e?.focus();
    }, f.key);
  }
  tally.check(`focus ${label}: Tab reaches the board's controls`, inside >= 1, `${inside}: ${[...seen].join(" ")}`);
  tally.check(`focus ${label}: every focused control shows a thin ring that covers nothing else`, bad.length === 0, bad.join("; "));
  return seen;
}

async function game(env, game, options, moves, seatSide) {
  const { url } = env;
  const made = await api(url, "POST", "/api/games", { game, options, white: "human", black: "human", local: true });
  const { id, seats } = made.data;
  let g = (await api(url, "GET", `/api/games/${id}`)).data;
  for (const m of moves) {
    const r = await api(url, "POST", `/api/games/${id}/moves`, { seat: seats[g.tomove], move: m, ply: g.ply });
    if (r.status !== 200) throw new Error(`${game}: ${m} refused: ${JSON.stringify(r.data)}`);
    g = r.data;
  }
  return { id, token: seats[seatSide ?? g.tomove] };
}

export async function run(env) {
  const cases = [
    ["urbino", "urbino", "", ["Ae5", "Af2", "first:black"]],
    ["epaminondas", "epaminondas", "", []],
    ["cathedral", "cathedral", "opening=late", []],
    ["toscana-decision", "toscana", "seed=3", []],
    ["toscana-place", "toscana", "seed=3", ["accept"]],
  ];
  for (const wide of [true, false]) {
    for (const [label, name, options, moves] of cases) {
      const page = await env.newPage(`focus ${label}`, wide ? {} : { viewport: { width: 390, height: 844 } });
      const { id, token } = await game(env, name, options, moves);
      await page.goto(`${env.url}/games/${id}?seat=${encodeURIComponent(token)}`);
      await page.waitForSelector("#board [data-square]");
      await page.waitForFunction(() => !!document.querySelector("#board [tabindex='0']"));
      await tabThrough(env, page, `${label}${wide ? "" : "-phone"}`);
      await page.close();
    }
  }
}
