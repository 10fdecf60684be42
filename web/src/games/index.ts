// index.ts — the board module of each game.

import type { BoardModule, GameName } from "../types";
import { urbino } from "./urbino";
import { epaminondas } from "./epaminondas";
import { cathedral } from "./cathedral";
import { toscana } from "./toscana";

export const BOARDS: Record<GameName, BoardModule> = { urbino, epaminondas, cathedral, toscana };
