// types.ts — the shapes of the server API (docs/server-api.md) and the
// interface every game's board module implements.

export type Side = "white" | "black";
export type Owner = Side | "neutral";
export type GameName = "urbino" | "epaminondas" | "cathedral" | "toscana";

export interface Square {
  kind?: string;          // see docs/server-api.md: A H P T / M / building codes, Y / L D
  owner?: Owner;
  piece?: number;         // same number on every square of one building or tile
  region?: number;        // Urbino district id
  marks?: string[];       // last lot terrWhite terrBlack areaWhite areaBlack homeWhite homeBlack monument centre
}

export interface HandItem {
  kind: string;
  id?: string;            // Toscana tile id, e.g. "07"
  count: number;
  cells?: [number, number][]; // shape as (file, rank) offsets; Toscana: the 2x4 frame, cell order 0..7
  off?: number[];         // Toscana: frame indexes of the off-colour cells
}

export interface SideView {
  hand: HandItem[];
  stack: number;
  veto: boolean;
  onBoard: number;
  captured: number;
  score: number;
}

export interface Region {
  id: number;
  white: number;
  black: number;
  scorer: Side | "none";
  points: number;
}

export interface View {
  width: number;
  height: number;
  phase: string;
  last: string;
  info: string;
  squares: Record<string, Square>;   // keyed by square name, e.g. "e5"
  sides: Record<Side, SideView>;
  regions: Region[];
}

export interface Game {
  id: string;
  game: GameName;
  options: string;
  white: string;
  black: string;
  moves: string[];
  tomove: Side | "none";
  over: boolean;
  winner: Side | "draw" | "none";
  score: [number, number];
  legal: string[];
  ply: number;
  seat: Side | null;
  resigned: Side | null;
  thinking: boolean;
  /** Whether a move may ever be taken back in this game (false with hidden information). */
  undo?: boolean;
  /** The creator chose the deal (Toscana's seed or stacks): still hidden, but said. */
  dealChosen?: boolean;
  view: View;
}

// What the game screen gives a board module.
export interface BoardContext {
  // The <svg> element to draw into; the module owns its children.
  svg: SVGSVGElement;
  // Side shown at the bottom.
  orientation: Side;
  // Submit a complete move (canonical text from `legal`).
  submit(move: string): void;
  // Show a short message to the player (e.g. "pick a landing square").
  say(text: string): void;
}

// One per game, in web/src/games/<game>.ts.
export interface BoardModule {
  // Draw the position.  Every square is an element with data-square="e5"
  // (and an aria-label naming the square and what stands on it).
  // `legal` is non-empty only when this viewer is to move and the view is
  // the current position (not a past ply): then the module offers input and
  // builds moves only out of `legal`.
  draw(ctx: BoardContext, view: View, legal: string[]): void;
  // Keyboard input while the board has focus (rotate a piece, cancel...).
  key?(ctx: BoardContext, ev: KeyboardEvent): boolean;
  // Forget any half-made move (new position, cancel).
  reset(): void;
  // (optional) Show the engine's suggested move (one of `legal`) on the board
  // until the next draw.
  hint?(ctx: BoardContext, move: string): void;
}
