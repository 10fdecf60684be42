// sound.test.mjs — the sound switch (issue 34): off by default, turned on by
// one click, kept across a reload (localStorage), and with it on a move makes
// the move sound.  The page's AudioContext is a stub of the test's own
// (addInitScript) that records every note it is asked to play.

import { api, waitTurn } from "./harness.mjs";
import { epaminondasMove } from "./square_input.mjs";

// A stand-in AudioContext: every oscillator started is recorded in
// window.__tavNotes as { f, wave }.
function stubAudio() {
  window.__tavNotes = [];
  window.__tavContexts = 0;
  const param = () => {
    const p = { value: 0, setValueAtTime(v) { p.value = v; return p; }, exponentialRampToValueAtTime() { return p; },
      linearRampToValueAtTime() { return p; } };
    return p;
  };
  class Node { connect() {} disconnect() {} }
  class Osc extends Node {
    constructor() { super(); this.type = "sine"; this.frequency = param(); }
    start() { window.__tavNotes.push({ f: this.frequency.value, wave: this.type }); }
    stop() {}
  }
  class Gain extends Node { constructor() { super(); this.gain = param(); } }
  window.AudioContext = class {
    constructor() { window.__tavContexts++; this.currentTime = 0; this.destination = new Node(); this.state = "running"; }
    createOscillator() { return new Osc(); }
    createGain() { return new Gain(); }
    resume() { return Promise.resolve(); }
  };
}

export async function run(env) {
  const { url, tally } = env;
  const page = await env.newPage("sound");
  await page.addInitScript(stubAudio);
  const made = await api(url, "POST", "/api/games", { game: "epaminondas", options: "", white: "human", black: "random" });
  const at = `${url}/games/${encodeURIComponent(made.data.id)}?seat=${encodeURIComponent(made.data.seats.white)}`;
  await page.goto(at);
  await page.waitForSelector("#board [data-square]");
  let g = await waitTurn(page, url, -1);

  const sw = () => page.evaluate(() => ({ pressed: document.querySelector("#sound").getAttribute("aria-pressed"),
    text: document.querySelector("#sound").textContent, stored: localStorage.getItem("tavoliere.sound") }));
  let s = await sw();
  tally.check("sound: off by default", s.pressed === "false" && /off/i.test(s.text), JSON.stringify(s));

  // Off: a move plays nothing.
  const quiet = g.legal.find((m) => !m.includes("x")) ?? g.legal[0];
  await epaminondasMove(page, quiet, "mouse");
  g = await waitTurn(page, url, g.ply);
  let notes = await page.evaluate(() => window.__tavNotes);
  tally.check("sound: off, a move (and the answer) plays nothing", notes.length === 0, JSON.stringify(notes));

  // On, and kept across a reload.
  await page.click("#sound");
  s = await sw();
  tally.check("sound: one click turns it on", s.pressed === "true" && /on/i.test(s.text) && s.stored === "on", JSON.stringify(s));
  await page.reload();
  await page.waitForSelector("#board [data-square]");
  g = await waitTurn(page, url, -1);
  s = await sw();
  tally.check("sound: still on after a reload", s.pressed === "true" && /on/i.test(s.text), JSON.stringify(s));
  notes = await page.evaluate(() => window.__tavNotes);
  tally.check("sound: loading the game plays nothing", notes.length === 0, JSON.stringify(notes));

  // On: a move plays the move sound (660 Hz, triangle), a capture the capture's.
  const move = g.legal.find((m) => !m.includes("x")) ?? g.legal[0];
  await epaminondasMove(page, move, "mouse");
  await page.waitForFunction(() => window.__tavNotes.length > 0, null, { timeout: 30000 }).catch(() => {});
  notes = await page.evaluate(() => window.__tavNotes);
  tally.check(`sound: on, the move ${move} plays the move sound`, notes.length >= 1 && notes[0].f === 660 && notes[0].wave === "triangle",
    JSON.stringify(notes));
  await waitTurn(page, url, g.ply);

  // Off again, by the same switch.
  await page.click("#sound");
  s = await sw();
  tally.check("sound: the same switch turns it off", s.pressed === "false" && s.stored === "off", JSON.stringify(s));
}
