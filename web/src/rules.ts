// rules.ts — "/rules/GAME": a newcomer's rules page for one game, with a few
// diagrams.  Every diagram is a real position: the page loads one short
// record (a legal game prefix made with `tavoliere engine`) through
// POST /api/records, asks the server for the view after given plies, and
// draws each with the game's own board module (no input).

import * as api from "./api";
import { h } from "./dom";
import { BOARDS } from "./games/index";
import { GAMES, ORDER } from "./info";
import type { BoardContext, GameName } from "./types";

interface Diagram { ply: number; caption: string }
interface RulesPage { options: string; moves: string; text: string; diagrams: Diagram[] }

const PAGES: Record<GameName, RulesPage> = {
  urbino: {
    options: "variant=standard",
    moves: "Aa1 Ai9 first:black Tg7 i9-h6,Hc1 h6-c6,Pa8 a1-e7,Tf6 e7-a7,Hc7 a7-a2,Tc4 a2-d2,Hd5 c6-b1,Pb4 b1-e4,Te3",
    text: `<h2>The goal</h2>
<p>Two players build one town on a 9×9 board. Buildings that touch edge to edge form a <em>district</em>.
At the end, in every district where both colours stand, the player whose buildings there are worth more
scores them. The higher total wins.</p>
<h2>Setup</h2>
<p>The board starts empty. Black puts down the first <em>architect</em> (a red marker shared by both
players), white the second, then black decides who builds first.</p>
<h2>A turn</h2>
<p>You may first move <em>one</em> architect to any empty square. Then you must put one of your buildings
on a <em>lot</em>: an empty square that both architects see along a straight line (in any of the 8 directions;
sight stops at the first occupied square). The board shades the lots for you.</p>
<p>A house is worth 1, a palace 2, a tower 3. In a district each colour may form only one connected group,
and no two palaces and no two towers may touch; the board only offers lots where this holds.</p>
<h2>The end and the score</h2>
<p>A player who cannot build passes; when both pass in a row the game is over. Each district holding both
colours goes to the player with the higher total there (ties: more towers, then palaces, then houses),
who scores that total. In the <strong>Monuments</strong> variant, three buildings of one colour in a line
(house-house-house, palace-house-palace or tower-palace-tower) count double.</p>`,
    diagrams: [
      { ply: 3, caption: "Both architects are placed (a1 and i9) and black has chosen to build first. The shaded squares are the lots: seen by both architects." },
      { ply: 8, caption: "After a few turns: each player moved an architect, then built where both architects see." },
      { ply: 12, caption: "Districts form as buildings touch; the number beside a district shows who would score it now." },
    ],
  },
  epaminondas: {
    options: "",
    moves: "a2-b3 j12i11-g9 n1n2-n3 e12e11-e10 l1k2-i4 f12h10-i9 c1k1-l1 h12g12-f12 h1h2-h3 h11h10-h8",
    text: `<h2>The goal</h2>
<p>Get more of your stones onto your opponent's home row than he has on yours, and keep them there for a
whole turn. Or leave him without a legal move.</p>
<h2>Setup</h2>
<p>Each player has 28 stones on his two back rows of a 14×12 board. White moves first.</p>
<h2>A turn</h2>
<p>A <em>phalanx</em> is a straight line (along a row, a column or a diagonal) of your own stones next to
each other. A phalanx of k stones moves 1 to k squares along its own line, forwards or backwards, over
empty squares. You may move only part of a line. A single stone moves one square in any direction.</p>
<p><strong>Capture</strong>: the front stone may stop on the first enemy stone in its way if the enemy's
line from there on, in the same direction, is <em>shorter</em> than the moving phalanx. That whole enemy
line is removed. A single stone never captures.</p>
<h2>The end</h2>
<p>At the start of your turn, if you have more stones on the opponent's home row than he has on yours,
you win. So a crossing must be answered at once: capture the intruder or cross yourself.
A player with no legal move loses.</p>`,
    diagrams: [
      { ply: 0, caption: "28 stones each on the two back rows. White moves first." },
      { ply: 4, caption: "White moved a single stone one square (a2-b3), then a phalanx of two (n1, n2) one square up its column; black moved phalanxes of two along a diagonal and a column." },
      { ply: 10, caption: "Both sides advance phalanxes towards the middle; a longer phalanx can capture a shorter enemy line in its path." },
    ],
  },
  cathedral: {
    options: "opening=classic",
    moves: "Y:a3,b1,b2,b3,b4,c3 I:f6,g6,g7 D:c5,d4,d5,e5,e6 T:d8 B:d1,e1,f1 I:h5,i4,i5 C:f3,f4,g4,h3,h4 W:b7,b8,c8,c9,d9 W:a5,b5,b6,c6,c7",
    text: `<h2>The goal</h2>
<p>Place as many of your buildings as you can. The player left with fewer squares of buildings in hand
at the end wins.</p>
<h2>Setup</h2>
<p>A 10×10 walled town, empty. Each player has 14 buildings of different shapes; the neutral Cathedral is
placed first.</p>
<h2>A turn</h2>
<p>Place one building from your hand, turned as you like (never flipped), on empty squares or on your own
territory.</p>
<p>When your buildings, with the edge of the board, wall off a region, it becomes your
<em>territory</em>, where only you may build. If the region holds exactly one opponent building (or the
Cathedral alone), that piece is captured and goes back to its owner's hand. A diagonal gap does not close a
wall.</p>
<h2>The end and the score</h2>
<p>The game ends when neither player can place a building. Count the squares of the buildings each player
still holds: the lower count wins.</p>
<h2>Which opening?</h2>
<p>In the <em>classic</em> opening white places the Cathedral and black places the first building. In the
<em>late</em> opening white places the first building, then black places the Cathedral and his first building
as two moves in a row. Experienced players say that the first to build has the edge. We measured it: in
1,100 games of each opening between two equal computer players (level 7), the first to build won
<strong>77%</strong> of classic games (by 4.6 squares on average) and <strong>71%</strong> of late ones (by
3.0); with more time to think (level 8, 1,000 games each), <strong>83%</strong> and <strong>68%</strong>.
The late opening is fairer, and more so the better the play, but still not fair: if you are the stronger
player, give your opponent the first building.</p>`,
    diagrams: [
      { ply: 1, caption: "The neutral Cathedral is placed first." },
      { ply: 5, caption: "Buildings go anywhere empty, turned as the player likes." },
      { ply: 9, caption: "Against the edge, buildings start to wall off corners: closed regions become territory." },
    ],
  },
  toscana: {
    options: "seed=7",
    moves: "veto i12-j9:i11,j10 veto g12-h9:g10,h10 e13-f10:e10,e11 k12-l9:k12,l9 h14-k13:h13,i14 m12-n9:m10,m12 g16-j15:g15,g16",
    text: `<h2>The goal</h2>
<p>Grow the largest connected area of your colour. Your score is the number of tiles that this area
touches; the higher score wins.</p>
<h2>Setup</h2>
<p>Each player has 16 tiles of 2×4 squares, mostly in his own colour (light for white, dark for black),
stacked in a hidden order. Only the top tile of each stack is shown.</p>
<h2>A turn</h2>
<p>Lay your top tile, turned as you like. The first tile must cover the centre square; every later tile
must touch, with a square of your colour, a square of your colour already on the board. Tiles may not
overlap.</p>
<p>Once per game each player may <em>veto</em> the opponent's top tile: it goes to the bottom of his stack
and he plays the next one.</p>
<h2>The end</h2>
<p>When both stacks are empty, each player counts the tiles touched by his largest area of his colour.
The higher count wins.</p>
<h2>Who has the edge?</h2>
<p>White, who lays the first tile, has a large edge. We measured it: in 200 games between two equal
computer players (100 deals, each played twice with the colours swapped), white won 142, drew 28 and
lost 30, a score of <strong>78%</strong>, by 2.5 tiles on average. The rules offer no way to balance it:
if you are the stronger player, take black, or play each deal twice with the colours swapped.</p>`,
    diagrams: [
      { ply: 2, caption: "The first tile covers the centre square (after a veto of the first tile offered)." },
      { ply: 5, caption: "Each new tile touches the player's own colour already on the board." },
      { ply: 9, caption: "Areas of each colour grow; what counts is the largest connected area." },
    ],
  },
};

// The page's diagrams all come from one record; its game id is kept for the
// tab's life so going back and forth does not load it again.
const loaded: Partial<Record<GameName, Promise<string>>> = {};

function recordText(g: GameName): string {
  const p = PAGES[g];
  const tags = [`[Game "${g}"]`];
  if (p.options) tags.push(`[Options "${p.options}"]`);
  tags.push(`[White "human"]`, `[Black "human"]`, `[Result "*"]`);
  return tags.join("\n") + "\n\n" + p.moves.split(" ").map((m, i) => `${i + 1}. ${m}`).join("\n") + "\n";
}

export function showRules(app: HTMLElement, name: string): void {
  app.textContent = "";
  const g = (ORDER as string[]).includes(name) ? (name as GameName) : null;
  const others = h("nav", { class: "rules-nav", "aria-label": "Rules of the other games" },
    ...ORDER.map((o) => h("a", { href: `/rules/${o}`, "aria-current": o === g ? "page" : null }, GAMES[o].name)));
  if (!g) {
    document.title = "Rules — Tavoliere";
    app.appendChild(h("div", { class: "rules-page" },
      h("h1", {}, "No such game"), h("p", {}, `There are no rules for "${name}". Pick a game:`), others));
    return;
  }
  const info = GAMES[g];
  const page = PAGES[g];
  document.title = `${info.name}: the rules — Tavoliere`;
  const text = h("div", { class: "rules-text" });
  text.innerHTML = page.text;
  const status = h("p", { class: "muted", role: "status" }, "Loading the diagrams…");
  const figs = h("div", { class: "rules-diagrams" });
  app.appendChild(h("article", { class: "rules-page", "data-game": g },
    h("p", { class: "rules-back" }, h("a", { href: "/" }, "← All games")),
    h("h1", {}, `${info.name}: the rules`),
    h("p", { class: "rules-pitch" }, info.pitch),
    text,
    h("h2", {}, "Positions from a real game"),
    status,
    figs,
    h("p", {}, h("a", { class: "button", href: "/" }, `Play ${info.name}`)),
    others));
  void drawDiagrams(g, figs, status);
}

async function drawDiagrams(g: GameName, figs: HTMLElement, status: HTMLElement): Promise<void> {
  const page = PAGES[g];
  try {
    loaded[g] ??= api.loadRecord(recordText(g), "human", "human").then((c) => c.id);
    const id = await loaded[g];
    const views = await Promise.all(page.diagrams.map((d) => api.viewAt(id, d.ply)));
    const module = BOARDS[g];
    page.diagrams.forEach((d, i) => {
      const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
      svg.setAttribute("class", "board rules-board");
      svg.setAttribute("preserveAspectRatio", "xMidYMid meet");
      svg.setAttribute("role", "img");
      svg.setAttribute("aria-label", `${GAMES[g].name} board after move ${d.ply}`);
      svg.dataset.ply = String(d.ply);
      const ctx: BoardContext = { svg, orientation: "white", submit: () => {}, say: () => {} };
      module.reset();
      module.draw(ctx, views[i].view, []);
      const cap = h("figcaption", {}, h("strong", {}, d.ply ? `After move ${d.ply}. ` : "The start. "), d.caption);
      figs.appendChild(h("figure", { class: "rules-diagram" }, svg, cap));
    });
    module.reset();
    status.textContent = "";
    status.hidden = true;
  } catch (e) {
    delete loaded[g];
    status.textContent = `The diagrams could not be loaded: ${(e as Error).message}`;
  }
}
