// info.ts — what the page says about each game: its name, a one-line pitch,
// its option sets, what its score counts, a small picture, and the rules for
// a newcomer.

import type { GameName } from "./types";

export interface OptionSet { label: string; options: string }

export interface GameInfo {
  name: string;
  pitch: string;
  options: OptionSet[];
  score: string;          // what the score counts
  lowWins?: boolean;      // Cathedral: the lower score wins
  picture: string;        // SVG markup, viewBox 0 0 60 60
  rules: string;          // HTML
  colourNote?: string;    // shown under "Your colour" when one colour has a measured edge
}

export const ORDER: GameName[] = ["urbino", "epaminondas", "cathedral", "toscana"];

export const GAMES: Record<GameName, GameInfo> = {
  urbino: {
    name: "Urbino",
    pitch: "Two shared architects, one town: build where both can see, win the districts.",
    options: [
      { label: "Standard", options: "variant=standard" },
      { label: "Monuments", options: "variant=monuments" },
    ],
    score: "points",
    picture: `<rect x="2" y="2" width="56" height="56" rx="4" fill="#e9dcb9"/>
<g stroke="#8a7446" stroke-width=".6" fill="none">${grid(6, 2, 2, 56 / 6)}</g>
<rect x="12" y="12" width="8" height="8" fill="#fbf7ee" stroke="#6d5a35"/>
<rect x="21.5" y="12" width="8" height="8" fill="#fbf7ee" stroke="#6d5a35"/><rect x="23.5" y="14" width="4" height="4" fill="#6d5a35"/>
<rect x="31" y="31" width="8" height="8" fill="#33303a" stroke="#111"/><circle cx="35" cy="35" r="2.4" fill="#d9d2e9"/>
<rect x="40.5" y="31" width="8" height="8" fill="#33303a" stroke="#111"/>
<circle cx="16" cy="44" r="4.5" fill="#c0392b" stroke="#fff"/><circle cx="44" cy="16" r="4.5" fill="#c0392b" stroke="#fff"/>`,
    rules: `<p>Two architects stand on a 9×9 town. On your turn you may first move <em>one</em> architect to any
empty square, then you must erect one of your buildings on a <em>lot</em>: an empty square that
<em>both</em> architects see along a straight line (8 directions, sight stops at the first occupied square).
Lots are shaded on the board.</p>
<p>Buildings: house (worth 1), palace (2), tower (3). Buildings that touch edge to edge form a
<em>district</em>. In each district, each colour may have only one connected group, no two palaces may
touch and no two towers may touch — the board only offers lots where this holds.</p>
<p>Setup: black places the first architect, white the second, then black decides who builds first.
The game ends when both players pass in a row (a player passes only when he cannot build).
Scoring: in every district holding both colours, the player with the higher total scores his total
(ties: more towers, then palaces, then houses). Each district's current result is written beside it.</p>
<p><strong>Monuments</strong>: three buildings of one colour in a straight line — house-house-house,
palace-house-palace or tower-palace-tower — count double.</p>`,
  },
  epaminondas: {
    name: "Epaminondas",
    pitch: "Phalanxes of stones march across a wide board: outnumber to capture, cross to win.",
    options: [{ label: "Standard", options: "" }],
    score: "pieces",
    picture: `<rect x="2" y="2" width="56" height="56" rx="4" fill="#d8c9a3"/>
<g stroke="#9b8860" stroke-width=".5" fill="none">${grid(7, 2, 2, 8)}</g>
${[0, 1, 2, 3, 4, 5, 6].map((i) => `<circle cx="${6 + i * 8}" cy="54" r="3.2" fill="#fbf8f0" stroke="#555" stroke-width=".6"/>`).join("")}
${[1, 2, 3].map((i) => `<circle cx="${6 + i * 8}" cy="${46 - (i - 1) * 8}" r="3.2" fill="#fbf8f0" stroke="#555" stroke-width=".6"/>`).join("")}
${[0, 1, 2, 3, 4, 5, 6].map((i) => `<circle cx="${6 + i * 8}" cy="6" r="3.2" fill="#2d2b33" stroke="#000" stroke-width=".6"/>`).join("")}
<circle cx="38" cy="14" r="3.2" fill="#2d2b33" stroke="#000" stroke-width=".6"/>
<path d="M30 30 L36 24" stroke="#c0392b" stroke-width="1.6" marker-end="none"/>`,
    rules: `<p>Each player starts with 28 stones on his two back rows of a 14×12 board; white moves first.
A <em>phalanx</em> is a straight line (orthogonal or diagonal) of your own stones next to each other.</p>
<p>A phalanx of k stones moves 1 to k squares along its own line, forwards or backwards, over empty squares.
A single stone moves one square in any direction. To move: click the <em>rear</em> stone, then the
<em>front</em> stone of the part that moves, then the landing square (a single stone: click it, then
its target).</p>
<p><strong>Capture</strong>: the front stone may stop on the first enemy stone in its way if the enemy's
line from there on, in the same direction, is <em>shorter</em> than the moving phalanx: that whole enemy line
is removed. A single stone never captures. Captures are marked in red before you make them.</p>
<p><strong>Winning</strong>: at the start of your turn, if you have more stones on the opponent's home row
than he has on yours, you win. So a crossing must be answered at once: capture the intruder or cross
yourself. A player with no legal move loses.</p>`,
  },
  cathedral: {
    name: "Cathedral",
    pitch: "Place the buildings of a walled town; enclose ground to claim it and capture what stands there.",
    options: [
      { label: "Classic opening (the first to build wins 77–83% between equal players)", options: "opening=classic" },
      { label: "Late opening — fairer (the first to build wins 68–71%)", options: "opening=late" },
    ],
    score: "squares left in hand",
    lowWins: true,
    picture: `<rect x="2" y="2" width="56" height="56" rx="4" fill="#d9bb85"/>
<g stroke="#a8894f" stroke-width=".5" fill="none">${grid(6, 2, 2, 56 / 6)}</g>
<path d="M20.7 11.3h9.3v9.3h9.3v9.3h-9.3v18.7h-9.3v-18.7h-9.3v-9.3h9.3z" fill="#5d7fa8" stroke="#2d4563"/>
<path d="M39.3 39.3h18.7v9.3h-9.3v9.3h-9.3z" fill="#3d3a45" stroke="#a59fb4"/>
<path d="M2 2h18.7v9.3h-9.3v9.3h-9.3z" fill="#f6eddc" stroke="#7a6444"/>`,
    rules: `<p>Each player has 14 buildings of different shapes; a neutral Cathedral is placed first. Players
take turns placing one building each, turned as they like (never flipped), on empty squares or on
their own territory.</p>
<p>When your buildings (with the board edge) wall off a region that holds no piece of another, it becomes
your territory; if it holds exactly one opponent building (or the Cathedral alone), that piece is
captured and goes back to its owner's hand. Diagonal gaps do not close a wall.</p>
<p>The game ends when neither player can place a building. The player with fewer squares of buildings
left in hand wins.</p>
<p>Input: pick a building from your hand, turn it with R, the wheel or the turn buttons, and click where
the green ghost fits.</p>`,
  },
  toscana: {
    name: "Toscana",
    pitch: "Lay two-coloured tiles to grow the largest area of your colour; one veto each.",
    options: [{ label: "Standard", options: "" }],
    score: "tiles in the largest area",
    colourNote: "White places first and has a large edge: 78% between equal players.",
    picture: `<rect x="2" y="2" width="56" height="56" rx="4" fill="#cfd8c4"/>
<g stroke="#6d5a35" stroke-width=".8"><rect x="6" y="10" width="32" height="16" fill="#e8c27a"/><rect x="14" y="10" width="8" height="8" fill="#7b4a2a"/>
<rect x="38" y="18" width="16" height="32" fill="#7b4a2a"/><rect x="46" y="34" width="8" height="8" fill="#e8c27a"/>
<rect x="14" y="26" width="24" height="8" fill="#7b4a2a"/><rect x="14" y="34" width="24" height="8" fill="#7b4a2a"/><rect x="22" y="34" width="8" height="8" fill="#e8c27a"/></g>`,
    rules: `<p>Each player has 16 tiles of 2×4 squares, mostly in his own colour (light for white, dark for
black), stacked in a hidden order; only each stack's top tile is shown. The first tile must cover the
centre square; every later tile must touch, with a square of your colour, a square of your colour
already on the board.</p>
<p>Once per game each player may <em>veto</em> the opponent's top tile: it goes to the bottom of his stack.
When that decision is due, veto and accept buttons appear.</p>
<p>Your score is the number of tiles touched by your largest connected area of your colour; the
higher score wins when both stacks are empty.</p>
<p>Input: move the tile over the board, turn it with R, the wheel or the buttons, click where it fits.</p>`,
  },
};

function grid(n: number, x0: number, y0: number, step: number): string {
  let d = "";
  for (let i = 0; i <= n; i++) {
    d += `M${x0 + i * step} ${y0}V${y0 + n * step}M${x0} ${y0 + i * step}H${x0 + n * step}`;
  }
  return `<path d="${d}"/>`;
}

// Computer levels named in words (the server's /api/meta may rename them).
export const LEVELS: { level: number; name: string }[] = [
  { level: 1, name: "Beginner" },
  { level: 2, name: "Novice" },
  { level: 3, name: "Casual" },
  { level: 4, name: "Club player" },
  { level: 5, name: "Good club player" },
  { level: 6, name: "Strong" },
  { level: 7, name: "Expert" },
  { level: 8, name: "Master" },
  { level: 9, name: "Grandmaster" },
  { level: 10, name: "Full strength" },
];

// How to name a player string ("human", "random", "ai:level=4").
export function playerName(p: string, levels: { level: number; name: string }[] = LEVELS): string {
  if (p === "human") return "Player";
  if (p === "random") return "Computer (random moves)";
  const m = /^ai(?::level=(\d+))?$/.exec(p);
  if (m) {
    if (!m[1]) return "Computer";
    const n = Number(m[1]);
    const l = levels.find((x) => x.level === n);
    return `Computer (${l ? l.name : "level " + n})`;
  }
  return p;
}
