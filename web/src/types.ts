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
  /** Why the game ended, a sentence or two ("" while it runs); absent from older servers. */
  end?: string;
}

// The parts of a legal move (docs/server-api.md, legalGroups): what the
// board builds moves out of, never the notation.
export interface MoveParts {
  action: string;         // place | move | first | pass | veto | accept
  piece?: string;         // Urbino A H P T, Cathedral building code, Toscana tile id, Epaminondas M
  squares: string[];      // squares the piece covers (Toscana: under frame cell i; Epaminondas: rear to front)
  from?: string;          // the square a piece leaves (Urbino's architect, Epaminondas' rear piece)
  to?: string;            // the square it reaches
  marked?: string[];      // Toscana's off-colour squares, Epaminondas' captured pieces
  rotation?: number;      // quarter turns clockwise from the hand's shape (Cathedral, Toscana)
  side?: Side;            // "first": the side chosen
}

// Legal moves that share their parts up to where they stand (docs/server-api.md,
// legalGroups; the server and the page's engine write the same): the squares
// as [file, rank] offsets from each move's anchor square; `at` lists the
// anchors of the group's moves, which are the next at.length moves of `legal`
// (a group without squares, such as a pass, has `count` instead).
interface LegalGroupParts {
  action: string;
  piece?: string;
  squares: [number, number][];
  from?: [number, number];
  to?: [number, number];
  marked?: [number, number][];
  rotation?: number;
  side?: Side;
}
export type LegalGroup = LegalGroupParts & ({ at: string[]; count?: never } | { at?: never; count: number });

// A legal move: its text (what is sent) and its parts (what a board reads).
export interface LegalMove { move: string; parts: MoveParts }

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
  /** The parts of the moves of `legal`, group by group, in the same order. */
  legalGroups: LegalGroup[];
  /** The game that followed this one (rematch), or null. */
  rematch?: string | null;
  tournament?: string;            // extension: the tournament it is a game of (only then)
  ply: number;
  seat: Side | null;
  resigned: Side | null;
  thinking: boolean;
  /** Whether a move may ever be taken back in this game (false with hidden information). */
  undo?: boolean;
  /** Engine help (hints) allowed now: false between two people on separate screens until the end. */
  help?: boolean;
  /** The creator chose the deal (Toscana's seed or stacks): still hidden, but said. */
  dealChosen?: boolean;
  /** A game between accounts: each side's account name (null for a side without one). */
  accounts?: { white: string | null; black: string | null } | null;
  /** Which sides' accounts are bots (only in a game with a bot: SPEC "Bots"). */
  bots?: { white: boolean; black: boolean };
  /** A draw offered, a take-back asked, a rematch offered (a finished game between accounts): the side, or null. */
  offers?: { draw: Side | null; takeback: Side | null; rematch?: Side | null };
  rated?: boolean;
  /** A rated game once its end is committed: each player's rating before and after it. */
  ratings?: { white: { before: number; after: number }; black: { before: number; after: number } } | null;
  /** How it ended: "normal", "resign", "time", "abort", "agreement", "abandon", or null while it runs. */
  end?: string | null;
  /** The side whose absence ended it (abort: it did not make its first move; abandon: it left), or null. */
  absent?: Side | null;
  /** This player may claim the game now (the opponent, to move, left: SPEC "Consent and fair endings"). */
  claimable?: boolean;
  /** Milliseconds (from the answer) until this player may claim, while the opponent is away; else null. */
  claimIn?: number | null;
  /** The clock at the moment of the answer (docs: "Accounts, the lobby, clocks and ratings"). */
  clock?: Clock | null;
  view: View;
}

// ---- Accounts, the lobby, clocks and ratings ---------------------------------

/** Real time (seconds; each side's time left in ms) or days a move (deadline in UNIX ms). */
export type Clock =
  | { initial: number; increment: number; white: number; black: number }
  | { days: number; deadline: number | null };

export interface Rating { rating: number; rd: number; games: number; provisional?: boolean }
export interface Me { name: string; ratings: Record<string, Rating>; lang?: "en" | "it" | null; bot?: boolean }
export interface Seek {
  /** A challenge: the only player who may accept (seen by the two only). */
  to?: string;
  id: string;
  game: GameName;
  options: string;
  rated: boolean;
  colour: "white" | "black" | "random";
  clock: { initial: number; increment: number } | { days: number };
  by: string;
  rating: number;
  /** The maker's rating is provisional (shown with "?"). */
  provisional?: boolean;
}
export interface PlayerGame { id: string; game: GameName; white: string | null; black: string | null; winner: string; end: string | null; rated: boolean; ratingAfter?: number; created?: number }
export interface Player { name: string; ratings: Record<string, Rating>; games: PlayerGame[]; bot?: boolean; closed?: boolean }
export interface MyGame {
  id: string; game: GameName; white: string | null; black: string | null; tomove: Side | "none"; ply: number; yourTurn: boolean;
  /** Real time: each side's ms left at the answer; days a move: the side to move's deadline (UNIX ms). */
  clock: { white: number; black: number } | { deadline: number | null } | null;
}
export interface Leaderboard { game: string; players: ({ name: string; bot?: boolean } & Rating)[] }

// Who is here (the live socket's presence message): a side played by the
// computer, or a seat with a live socket open.
export interface Presence { white: boolean; black: boolean }

// What the game screen gives a board module.
export interface BoardContext {
  // The <svg> element to draw into; the module owns its children.
  svg: SVGSVGElement;
  // Side shown at the bottom.
  orientation: Side;
  // The seats this screen holds (none for a spectator, both on a shared screen).
  seats?: Side[];
  // Submit a complete move (the text of one of the legal moves).
  submit(move: string): void;
  // Show a short message to the player (e.g. "pick a landing square").
  say(text: string): void;
  // On a phone: how many board units (squares) the screen shows at once when
  // the board scrolls sideways (phone.ts); a board keeps its hands and
  // controls within that much, around its middle, where the scroll starts.
  room?: number;
}

// One per board drawn: made by the game's factory (web/src/games/index.ts),
// holding the state of that board only.
export interface BoardModule {
  // Draw the position.  Every square is an element with data-square="e5"
  // (and an aria-label naming the square and what stands on it).
  // `legal` is non-empty only when this viewer is to move and the view is
  // the current position (not a past ply): then `mover` is the side to act,
  // the module offers input and builds moves only out of `legal` (their
  // parts), and submits their texts.
  draw(ctx: BoardContext, view: View, legal: LegalMove[], mover: Side | null): void;
  // Keyboard input while the board has focus (rotate a piece, cancel...).
  key?(ctx: BoardContext, ev: KeyboardEvent): boolean;
  // Forget any half-made move (new position, cancel).
  reset(): void;
  // (optional) Show the engine's suggested move (the text of one of the
  // legal moves) on the board until the next draw.
  hint?(ctx: BoardContext, move: string): void;
  // How to make moves on this board, for the rules dialog.
  help: string;
}

export type BoardFactory = () => BoardModule;

// What /api/meta says about each game (docs/server-api.md): the game
// library's words for people.
export interface MenuChoice { value: string; label: string }
export interface GameMeta {
  name: string;
  options: string[];              // sample option sets
  ratings: (number | null)[];     // levels 1..10, random play = 0
  title: string;
  pitch: string;
  scoreWords: string;
  scoreWins: "higher" | "lower" | "none";
  menu: { key: string; question: string; note: string | null; choices: MenuChoice[] } | null;
  sideNote: string | null;
  rules: { heading: string; text: string }[];
}
export interface Meta {
  games: GameMeta[];
  players: string[];
  levels: { level: number; name: string; player: string }[];
}
