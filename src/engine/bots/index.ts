/**
 * The bots: players built on the engine (they may import it; the engine core
 * never imports them). `botPlay(level, view, rng, budget?)` is the one call.
 */
import type { Play } from '../plays';
import type { BotLevel } from '../types';
import type { MatchView } from '../views';
import { greedyPlay } from './greedy';
import { ismctsPlay } from './ismcts';
import type { IsmctsOptions } from './ismcts';
import { randomPlay } from './random';
import type { Rng } from './rng';

export { randomPlay } from './random';
export { greedyPlay } from './greedy';
export { ismctsPlay, ismctsSearch, ISMCTS_DEFAULT_ITERATIONS } from './ismcts';
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
