// polyomino_input.mjs — make a Cathedral or Toscana move on the page the way a
// player does: by the mouse (pick the building, hover squares, turn with R,
// the wheel or the turn button, click) or by the keyboard alone (Tab to the
// building or tile, arrows carry the ghost, R turns it, Enter places it).
//
// The board tells the test what its ghost would play (data-ghost on the
// board's root group, data-anchor the square under the ghost's handle), so a
// driver can look for the position and turn that makes the wanted move; the
// move itself is then made by the same click or key a player would use.

const ROOT = { cathedral: ".tav-cathedral", toscana: ".tav-toscana" };

function sq(f, k) { return String.fromCharCode(97 + f) + (k + 1); }
function parse(s) { return [s.charCodeAt(0) - 97, Number(s.slice(1)) - 1]; }

// The squares a move covers: the handle of the ghost must stand on one.
export function coveredSquares(game, move) {
  if (game === "cathedral") return move.slice(2).split(",");
  const m = /^([a-q])(\d+)-([a-q])(\d+):/.exec(move);
  if (!m) throw new Error(`not a Toscana placement: ${move}`);
  const out = [];
  for (let f = m[1].charCodeAt(0) - 97; f <= m[3].charCodeAt(0) - 97; f++) {
    for (let k = Number(m[4]) - 1; k <= Number(m[2]) - 1; k++) out.push(sq(f, k));
  }
  return out;
}

async function ghost(page, game) {
  return page.getAttribute(ROOT[game], "data-ghost");
}

async function activeKey(page) {
  return page.evaluate(() => document.activeElement?.getAttribute("data-key") ?? "");
}

// Press Tab until the focused element's data-key satisfies want (at most n times).
export async function tabTo(page, want, n = 120) {
  for (let i = 0; i < n; i++) {
    const k = await activeKey(page);
    if (want(k)) return k;
    await page.keyboard.press("Tab");
  }
  throw new Error("Tab never reached the wanted control");
}

// Press a button of the board (pass, veto, accept) by click or by Tab + Enter.
export async function pressButton(page, key, keys) {
  if (keys) {
    await tabTo(page, (k) => k === key);
    await page.keyboard.press("Enter");
  } else {
    await page.click(`[data-key="${key}"]`);
  }
}

// Turn the carried piece once, in one of the ways a player can.
async function turnOnce(page, game, how) {
  if (how === "key") await page.keyboard.press("r");
  else if (how === "button") await page.click(`[data-key="rot-right"]`);
  else {
    const box = await page.locator(`${ROOT[game]} [data-square]`).first().boundingBox();
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.wheel(0, 100);
  }
}

async function placeByMouse(page, game, move, turnHow) {
  if (game === "cathedral") {
    const code = move[0];
    if (!(await page.$(`.tav-piece.selected[data-piece="${code}"]`))) {
      await page.click(`.tav-piece[data-piece="${code}"][tabindex="0"]`);
    }
  }
  const squares = coveredSquares(game, move);
  for (let r = 0; r < 4; r++) {
    for (const s of squares) {
      await page.hover(`${ROOT[game]} [data-square="${s}"]`);
      if ((await ghost(page, game)) === move) {
        await page.click(`${ROOT[game]} [data-square="${s}"]`);
        return;
      }
    }
    await turnOnce(page, game, turnHow[r % turnHow.length]);
  }
  throw new Error(`no ghost position makes ${move}`);
}

// On a touch screen: tap the building, tap a square (the ghost goes there),
// turn with the turn button, tap the same square again to place.
async function placeByTouch(page, game, move) {
  if (game === "cathedral") {
    const code = move[0];
    if (!(await page.$(`.tav-piece.selected[data-piece="${code}"]`))) {
      await page.tap(`.tav-piece[data-piece="${code}"][tabindex="0"]`);
    }
  }
  const squares = coveredSquares(game, move);
  for (let r = 0; r < 4; r++) {
    for (const s of squares) {
      await page.tap(`${ROOT[game]} [data-square="${s}"]`);
      if ((await ghost(page, game)) === move) {
        await page.tap(`${ROOT[game]} [data-square="${s}"]`);
        return;
      }
    }
    await page.tap(`[data-key="rot-right"]`);
  }
  throw new Error(`no tapped position makes ${move}`);
}

// Move the keyboard cursor (the ghost's handle) to square `to`.
async function walkTo(page, game, to, white) {
  const [tf, tk] = parse(to);
  for (let i = 0; i < 60; i++) {
    const a = await page.getAttribute(ROOT[game], "data-anchor");
    if (a === to) return;
    const [f, k] = a ? parse(a) : [-1, -1];
    let key;
    if (f !== tf) key = (tf > f) === white ? "ArrowRight" : "ArrowLeft";
    else key = (tk > k) === white ? "ArrowUp" : "ArrowDown";
    await page.keyboard.press(key);
  }
  throw new Error(`the cursor never reached ${to}`);
}

async function placeByKeys(page, game, move) {
  if (game === "cathedral") {
    const code = move[0];
    if (await page.$(`.tav-piece.selected[data-piece="${code}"]`)) {
      await tabTo(page, (k) => k === "board" || k.startsWith(`hand-`) && k.includes(`-${code}-`));
    } else {
      await tabTo(page, (k) => k.startsWith("hand-") && k.split("-")[2] === code);
    }
  } else {
    await tabTo(page, (k) => k === "board" || k.startsWith("tile-"));
  }
  // Enter on the building or tile carries it to the board (the cursor
  // appears); on the board itself an arrow does (Enter there would place).
  if ((await activeKey(page)) === "board") await page.keyboard.press("ArrowLeft");
  else await page.keyboard.press("Enter");
  const a1 = await page.locator(`${ROOT[game]} [data-square="a1"]`).boundingBox();
  const b1 = await page.locator(`${ROOT[game]} [data-square="b1"]`).boundingBox();
  const white = b1.x > a1.x;
  const squares = coveredSquares(game, move);
  for (let r = 0; r < 4; r++) {
    for (const s of squares) {
      await walkTo(page, game, s, white);
      if ((await ghost(page, game)) === move) {
        await page.keyboard.press("Enter");
        return;
      }
    }
    await page.keyboard.press("r");
  }
  throw new Error(`no cursor position makes ${move}`);
}

// Make `move` (one of the legal moves) on the page: by keys when keys is
// true, by taps when touch is true, else by the mouse, turning with the
// ways listed in turnHow.
export async function makeMove(page, game, move, { keys = false, touch = false, turnHow = ["key", "button", "wheel"] } = {}) {
  if (move === "pass" || move === "veto" || move === "accept") {
    if (touch) return page.tap(`[data-key="${move}"]`);
    return pressButton(page, move, keys);
  }
  if (touch) return placeByTouch(page, game, move);
  if (keys) return placeByKeys(page, game, move);
  return placeByMouse(page, game, move, turnHow);
}
