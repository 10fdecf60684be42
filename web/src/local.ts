// local.ts — a game against the computer played in the page itself
// (/play/GAME?level=N&colour=white|black): the rules are the library's own
// (WebAssembly, engine/), the computer's moves, hints and the analysis are
// searched in the engine's worker, and the game is kept in this browser's
// storage (resumed after a reload; a finished or different game starts
// afresh).  The server is asked nothing.  The game screen (game.ts) draws it
// as it draws a server game: LocalGame answers its calls with the same JSON.

import { BLACK, Engine, EngineError, WHITE } from "./engine/tav";
import { t } from "./i18n";
import { Cancelled, EngineWorker } from "./engine/client";
import type { Game, GameName, Side, View } from "./types";
import type { AnalysedPly } from "./engine/protocol";

export const GAMES: GameName[] = ["urbino", "toscana", "cathedral", "epaminondas"];

// What is kept in storage: enough to replay the game exactly.
export interface LocalSaved {
  id: string;
  game: GameName;
  options: string;
  seed: number;
  level: number;            // 0: the random player
  human: Side;
  moves: string[];
  resigned: Side | null;
  created: number;
  over?: boolean;           // finished (the home page lists the others)
}

const KEY = "tavoliere.play";

export function storageKey(game: string): string {
  return `${KEY}.${game}`;
}

export function loadSaved(game: string): LocalSaved | null {
  try {
    const raw = localStorage.getItem(storageKey(game));
    const s = raw ? (JSON.parse(raw) as LocalSaved) : null;
    return s && s.game === game && Array.isArray(s.moves) ? s : null;
  } catch {
    return null;
  }
}

function store(s: LocalSaved): void {
  try {
    localStorage.setItem(storageKey(s.game), JSON.stringify(s));
  } catch {
    /* storage full or disabled: the game goes on in this page */
  }
}

export function computerName(level: number): string {
  return level > 0 ? `ai:level=${level}` : "random";
}

// The unfinished games kept in this browser, one per game at most.
export function unfinished(): LocalSaved[] {
  return GAMES.map((g) => loadSaved(g)).filter((s): s is LocalSaved => !!s && !s.over);
}

// The address that resumes a kept game.
export function playUrl(s: LocalSaved): string {
  const q = new URLSearchParams({ level: String(s.level), colour: s.human });
  if (s.options) q.set("options", s.options);
  return `/play/${s.game}?${q}`;
}

// The budget of the computer's move: the level's playouts or depth, as the
// server plays it (tav_level_budget), whatever the time it takes here;
// level 10 (no playout cap) thinks for a second, as on the server.
function moveBudget(level: number, seed: number) {
  if (level <= 0) return { player: "random", seed };
  return { player: "ai", level, seed, movetimeMs: level >= 10 ? 1000 : 0 };
}

export class LocalGame {
  readonly saved: LocalSaved;
  private e: Engine;
  private worker: EngineWorker;
  private viewer: number;
  thinking = false;
  onChange: (g: Game) => void = () => {};
  onError: (msg: string) => void = () => {};

  private constructor(e: Engine, worker: EngineWorker, saved: LocalSaved) {
    this.e = e;
    this.worker = worker;
    this.saved = saved;
    this.viewer = saved.human === "white" ? WHITE : BLACK;
  }

  // The game of this address: the one kept for it when it is unfinished and
  // of the same level and colour (and `fresh` is not asked), else a new one.
  static open(e: Engine, mod: WebAssembly.Module, game: GameName, level: number, human: Side, options: string, fresh: boolean): LocalGame {
    const worker = new EngineWorker(mod);
    const old = fresh ? null : loadSaved(game);
    if (old && old.level === level && old.human === human && (options === "" || old.options === options)) {
      try {
        const g = new LocalGame(e, worker, old);
        g.replay();
        if (!g.json().over) return g;
      } catch {
        /* not replayable (another version's record): a new game */
      }
    }
    const seed = crypto.getRandomValues(new Uint32Array(1))[0];
    const saved: LocalSaved = {
      id: `${Date.now().toString(36)}${seed.toString(36)}`, game, options, seed, level, human, moves: [], resigned: null, created: Date.now(),
    };
    const g = new LocalGame(e, worker, saved);
    g.replay();
    store(saved);
    return g;
  }

  private replay(): void {
    const s = this.saved;
    this.e.start(s.game, s.options, s.seed);
    for (const m of s.moves) this.e.play(m);
    if (s.resigned) this.e.resign(s.resigned === "white" ? WHITE : BLACK);
  }

  private json(): Game {
    const s = this.saved;
    const base = JSON.parse(this.e.gameJson(this.viewer)) as Game;
    const computer = computerName(s.level);
    return {
      ...base,
      id: `local-${s.id}`,
      white: s.human === "white" ? "human" : computer,
      black: s.human === "black" ? "human" : computer,
      thinking: this.thinking,
      // as on the server: no take-back with hidden information (Toscana's stacks)
      undo: s.game !== "toscana",
      help: true,
      dealChosen: false,
      accounts: null,
      rated: false,
      offers: { draw: null, takeback: null },
      clock: null,
      rematch: null,
    };
  }

  get(): Game {
    return this.json();
  }

  get ply(): number {
    return this.saved.moves.length;
  }

  private changed(): void {
    this.saved.over = JSON.parse(this.e.gameJson(2)).over === true;
    store(this.saved);
    this.computerTurn();
    this.onChange(this.json());
  }

  // Start the computer's search when it is to move.
  computerTurn(): void {
    const g = JSON.parse(this.e.gameJson(2)) as Game;
    const s = this.saved;
    if (g.over || g.tomove === "none" || g.tomove === s.human || this.thinking) return;
    this.thinking = true;
    const ply = this.ply;
    const seed = crypto.getRandomValues(new Uint32Array(1))[0];
    this.worker.request({ type: "search", game: s.game, options: s.options, seed: s.seed, moves: [...s.moves], budget: moveBudget(s.level, seed) })
      .then((r) => {
        if (r.type !== "answer" || this.ply !== ply || !this.thinking) return;
        this.thinking = false;
        if (r.answer.status !== 0) {
          this.onError(t("local.noMove", { status: String(r.answer.status) }));
          this.onChange(this.json());
          return;
        }
        this.e.play(r.answer.best);
        s.moves.push(r.answer.best);
        this.changed();
      })
      .catch((e) => {
        if (e instanceof Cancelled) return;
        this.thinking = false;
        this.onError(t("local.couldNotMove", { error: (e as Error).message }));
        this.onChange(this.json());
      });
  }

  // The human's move at ply `ply` (refused when the game moved on).
  move(text: string, ply: number): Game {
    if (ply !== this.ply || this.thinking) throw new EngineError(2, t("err.movedOn"));
    this.e.play(text);
    this.saved.moves.push(text);
    this.changed();
    return this.json();
  }

  // Take back the human's last move (and the computer's answer to it); a
  // search under way is cancelled first.
  undo(): Game {
    if (this.thinking) {
      this.worker.cancel();
      this.thinking = false;
    }
    const s = this.saved;
    if (!s.moves.length) throw new EngineError(6, t("err.nothingBack"));
    if (s.resigned) {
      s.resigned = null;
      this.replay();
    }
    const tomove = () => (JSON.parse(this.e.gameJson(2)) as Game).tomove;
    // back to the last position where the human is to move, at least one move back
    do {
      this.e.undo();
      s.moves.pop();
    } while (s.moves.length > 0 && tomove() !== s.human);
    this.changed();
    return this.json();
  }

  resign(): Game {
    if (this.thinking) {
      this.worker.cancel();
      this.thinking = false;
    }
    this.e.resign(this.viewer);
    this.saved.resigned = this.saved.human;
    this.changed();
    return this.json();
  }

  view(ply: number): View {
    return JSON.parse(this.e.viewJson(ply, this.viewer)) as View;
  }

  record(): string {
    const s = this.saved;
    return this.e.record(s.human === "white" ? "human" : computerName(s.level), s.human === "black" ? "human" : computerName(s.level));
  }

  // A hint: the full player's move for a second.
  async hint(): Promise<string> {
    const s = this.saved;
    const r = await this.worker.request({ type: "search", game: s.game, options: s.options, seed: s.seed, moves: [...s.moves],
      budget: { player: "ai", movetimeMs: 1000, seed: this.ply + 1 } });
    if (r.type !== "answer" || r.answer.status !== 0) throw new Error(t("err.noMove"));
    return r.answer.best;
  }

  // The analysis of every move (a tenth of a second each, as the server's),
  // with its progress.
  async analyse(progress: (done: number, total: number) => void): Promise<AnalysedPly[]> {
    const s = this.saved;
    const r = await this.worker.request({ type: "analyse", game: s.game, options: s.options, seed: s.seed, moves: [...s.moves], movetimeMs: 100 }, progress);
    if (r.type !== "analysis") throw new Error("no analysis");
    return r.plies;
  }

  // Start the worker now (its script and the engine loaded before the page
  // is shown: nothing is fetched later).
  async warm(): Promise<void> {
    await this.worker.warm();
  }

  // Stop the worker (leaving the page, a new game).
  close(): void {
    this.worker.cancel();
    this.thinking = false;
  }

  get cancels(): number {
    return this.worker.cancels;
  }
}
