// square_input.mjs — make an Urbino or Epaminondas move on the page the way a
// player does: by clicking (or tapping) squares and the board's buttons, or by
// the keyboard alone (Tab to the board, arrows to a square, Enter to click it,
// H / P / T to choose an Urbino building).

const BOARD = "#board";

async function activeSquare(page) {
  return page.evaluate(() => document.activeElement?.getAttribute("data-square") ?? "");
}

// Press Tab until a board square has focus.
async function focusBoard(page) {
  for (let i = 0; i < 40; i++) {
    if (await activeSquare(page)) return;
    await page.keyboard.press("Tab");
  }
  throw new Error("Tab never reached the board");
}

function parse(s) { return [s.charCodeAt(0) - 97, Number(s.slice(1)) - 1]; }

// Walk the keyboard cursor to square `to` and press Enter there.
async function keyTo(page, to) {
  await focusBoard(page);
  // The board may be redrawn by a live update at any moment: measure again
  // until both squares are there.
  let a1 = null, b1 = null;
  for (let i = 0; i < 50 && !(a1 && b1); i++) {
    a1 = await page.locator(`${BOARD} [data-square="a1"]`).boundingBox().catch(() => null);
    b1 = await page.locator(`${BOARD} [data-square="b1"]`).boundingBox().catch(() => null);
    if (!(a1 && b1)) await new Promise((r) => setTimeout(r, 40));
  }
  if (!(a1 && b1)) throw new Error("the board's squares cannot be measured");
  const white = b1.x > a1.x;
  const [tf, tk] = parse(to);
  for (let i = 0; i < 60; i++) {
    const a = await activeSquare(page);
    if (a === to) {
      await page.keyboard.press("Enter");
      return;
    }
    const [f, k] = parse(a);
    let key;
    if (f !== tf) key = (tf > f) === white ? "ArrowRight" : "ArrowLeft";
    else key = (tk > k) === white ? "ArrowUp" : "ArrowDown";
    await page.keyboard.press(key);
  }
  throw new Error(`the cursor never reached ${to}`);
}

async function press(page, square, how) {
  if (how === "keys") return keyTo(page, square);
  if (how === "tap") return page.tap(`${BOARD} [data-square="${square}"]`);
  return page.click(`${BOARD} [data-square="${square}"]`);
}

async function pressButton(page, key, how) {
  const sel = `${BOARD} [data-key="${key}"]`;
  if (how === "keys") {
    for (let i = 0; i < 200; i++) {
      const k = await page.evaluate(() => document.activeElement?.getAttribute("data-key") ?? "");
      if (k === key) {
        await page.keyboard.press("Enter");
        return;
      }
      await page.keyboard.press("Tab");
    }
    throw new Error(`Tab never reached ${key}`);
  }
  if (how === "tap") return page.tap(sel);
  return page.click(sel);
}

// how: "mouse" | "keys" | "tap"
export async function urbinoMove(page, move, how = "mouse") {
  if (move === "pass" || move.startsWith("first:")) return pressButton(page, move, how);
  let m = /^A([a-i][1-9])$/.exec(move);
  if (m) return press(page, m[1], how);
  m = /^(?:([a-i][1-9])-([a-i][1-9]),)?([HPT])([a-i][1-9])$/.exec(move);
  if (!m) throw new Error(`not an Urbino move: ${move}`);
  if (m[1]) {
    await press(page, m[1], how);
    await press(page, m[2], how);
  }
  const selected = await page.$(`${BOARD} [data-key="kind-${m[3]}"].selected`);
  if (!selected) {
    if (how === "keys") {
      await focusBoard(page);
      await page.keyboard.press(m[3].toLowerCase());
    } else await pressButton(page, `kind-${m[3]}`, how);
  }
  await press(page, m[4], how);
}

export async function epaminondasMove(page, move, how = "mouse") {
  let m = /^([a-n]\d{1,2})-([a-n]\d{1,2})$/.exec(move);
  if (m) {
    await press(page, m[1], how);
    await press(page, m[2], how);
    return;
  }
  m = /^([a-n]\d{1,2})([a-n]\d{1,2})[-x]([a-n]\d{1,2})$/.exec(move);
  if (!m) throw new Error(`not an Epaminondas move: ${move}`);
  await press(page, m[1], how);
  await press(page, m[2], how);
  await press(page, m[3], how);
}
