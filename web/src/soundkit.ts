// soundkit.ts — which sound a change of position calls for (no DOM, no
// audio: tested in node by tests/web/unit/sound.test.ts), and the notes of
// each sound, which sound.ts plays with WebAudio.

import type { View } from "./types";

export type Sound = "move" | "capture" | "end";

/** What the game screen knows of a position: its ply, whether it is over, its drawing. */
export interface Moment { ply: number; over: boolean; view: View }

// Pieces on the board, per owner (squares covered: a capture always leaves
// fewer of the taken side's, a placement or a step never fewer of anyone's).
function covered(v: View): Map<string, number> {
  const m = new Map<string, number>();
  for (const sq of Object.values(v.squares ?? {})) {
    if (!sq.kind) continue;
    const k = sq.owner ?? "neutral";
    m.set(k, (m.get(k) ?? 0) + 1);
  }
  return m;
}

// The sound for going from `before` to `after`: the end of the game, a
// capture (Epaminondas' stones taken, Cathedral's buildings or the Cathedral
// itself taken off the board), or a plain move; none for the first position
// seen, the same one again, or a step back (undo).
export function soundFor(before: Moment | null, after: Moment): Sound | null {
  if (!before || after.ply <= before.ply) return null;
  if (after.over && !before.over) return "end";
  const a = covered(before.view), b = covered(after.view);
  for (const [owner, n] of a) if ((b.get(owner) ?? 0) < n) return "capture";
  for (const side of ["white", "black"] as const) {
    const x = before.view.sides?.[side]?.captured ?? 0, y = after.view.sides?.[side]?.captured ?? 0;
    if (y > x) return "capture";
  }
  return "move";
}

/** A note: frequency (Hz), start and length (s) from the sound's start, waveform. */
export interface Note { f: number; at: number; len: number; wave: OscillatorType }

// The notes of each sound: a short click of a move, a falling pair for a
// capture, a rising chord broken for the end.
export const NOTES: Record<Sound, Note[]> = {
  move: [{ f: 660, at: 0, len: 0.07, wave: "triangle" }],
  capture: [{ f: 523, at: 0, len: 0.09, wave: "square" }, { f: 330, at: 0.09, len: 0.16, wave: "square" }],
  end: [
    { f: 523, at: 0, len: 0.16, wave: "sine" }, { f: 659, at: 0.15, len: 0.16, wave: "sine" },
    { f: 784, at: 0.3, len: 0.4, wave: "sine" },
  ],
};
