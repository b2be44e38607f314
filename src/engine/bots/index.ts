/** The bot levels behind one call: `botPlay(level, view, rng, budget?)`. */
import type { Play } from '../plays';
import type { BotLevel } from '../types';
import type { MatchView } from '../views';
import { greedyPlay } from './greedy';
import { ismctsPlay } from './ismcts';
import type { IsmctsOptions } from './ismcts';
import { randomPlay } from './random';
import type { Rng } from './rng';

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
