/**
 * The bots: players built on the engine (they may import it; the engine core
 * never imports them). `botMove(level, view, rng, budget?)` is the one call:
 * a play, or a hand declaration (cirulla) after which the same seat is asked
 * again. `botPlay` is the play alone (it never declares).
 */
import type { Play } from '../plays';
import type { BotLevel } from '../types';
import type { MatchView } from '../views';
import { greedyMove, greedyPlay } from './greedy';
import { ismctsMove, ismctsPlay } from './ismcts';
import type { IsmctsOptions } from './ismcts';
import type { BotMove } from './move';
import { randomMove, randomPlay } from './random';
import type { Rng } from './rng';

export { randomPlay, randomMove } from './random';
export { greedyPlay, greedyMove, greedyDeclaration } from './greedy';
export { ismctsPlay, ismctsMove, ismctsSearch, ISMCTS_DEFAULT_ITERATIONS } from './ismcts';
export type { BotMove } from './move';
export type { IsmctsBudget, IsmctsOptions, IsmctsResult } from './ismcts';
export { mulberry32 } from './rng';
export type { Rng } from './rng';

/**
 * The play of a bot of `level` for the seat of `view` (which must be the seat
 * to move). `greedy` ignores the rng; `budget` only concerns `ismcts`.
 */
export function botPlay(level: BotLevel, view: MatchView, rng: Rng, budget?: IsmctsOptions): Play {
  switch (level) {
    case 'random':
      return randomPlay(view, rng);
    case 'greedy':
      return greedyPlay(view);
    case 'ismcts':
      return ismctsPlay(view, rng, budget);
    default: {
      const unknown: never = level;
      throw new RangeError(`unknown bot level ${String(unknown)}`);
    }
  }
}

/**
 * The move of a bot of `level` for the seat of `view` (the seat to move): a
 * play, or a declaration of its hand (then ask again for its play).
 */
export function botMove(level: BotLevel, view: MatchView, rng: Rng, budget?: IsmctsOptions): BotMove {
  switch (level) {
    case 'random':
      return randomMove(view, rng);
    case 'greedy':
      return greedyMove(view);
    case 'ismcts':
      return ismctsMove(view, rng, budget);
    default: {
      const unknown: never = level;
      throw new RangeError(`unknown bot level ${String(unknown)}`);
    }
  }
}
