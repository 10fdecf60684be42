// index.ts — the board of each game: a factory per game, called once per
// board drawn (each board holds its own state).

import type { BoardFactory, GameName } from "../types";
import { urbino } from "./urbino";
import { epaminondas } from "./epaminondas";
import { cathedral } from "./cathedral";
import { toscana } from "./toscana";

export const BOARDS: Record<GameName, BoardFactory> = { urbino, epaminondas, cathedral, toscana };
