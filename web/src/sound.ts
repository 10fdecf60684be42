// sound.ts — the game screen's sounds (issue 34): tones made with WebAudio
// (no files) for a move, a capture and the end of a game; off until the
// player turns them on, the choice kept in localStorage.  Which sound a
// change of position calls for, and the notes, are in soundkit.ts.

import { NOTES, type Sound } from "./soundkit";

const KEY = "tavoliere.sound";
let ctx: AudioContext | null = null;

export function soundOn(): boolean {
  try {
    return localStorage.getItem(KEY) === "on";
  } catch {
    return false;
  }
}

// Turn the sounds on or off.  Called from the switch's click, so that the
// browser lets the audio start (it needs a gesture of the player).
export function setSound(on: boolean): void {
  try {
    localStorage.setItem(KEY, on ? "on" : "off");
  } catch {
    /* private mode: on for this page only */
  }
  if (on) audio()?.resume().catch(() => {});
}

function audio(): AudioContext | null {
  if (ctx) return ctx;
  const AC = (window as unknown as { AudioContext?: typeof AudioContext }).AudioContext;
  if (!AC) return null;
  try {
    ctx = new AC();
  } catch {
    ctx = null;
  }
  return ctx;
}

// Play a sound if the player turned them on.
export function playSound(kind: Sound): void {
  if (!soundOn()) return;
  const a = audio();
  if (!a) return;
  const t0 = a.currentTime + 0.01;
  for (const n of NOTES[kind]) {
    const osc = a.createOscillator();
    const gain = a.createGain();
    osc.type = n.wave;
    osc.frequency.setValueAtTime(n.f, t0 + n.at);
    // a soft start and a fall, so no note clicks
    gain.gain.setValueAtTime(0.0001, t0 + n.at);
    gain.gain.exponentialRampToValueAtTime(0.18, t0 + n.at + 0.01);
    gain.gain.exponentialRampToValueAtTime(0.0001, t0 + n.at + n.len);
    osc.connect(gain);
    gain.connect(a.destination);
    osc.start(t0 + n.at);
    osc.stop(t0 + n.at + n.len + 0.02);
  }
}
