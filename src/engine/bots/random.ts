/** The `random` bot: any legal play, uniformly. */
import type { Play } from '../plays';
import { legalPlaysInView } from '../views';
import type { MatchView } from '../views';
import type { Rng } from './rng';

export function randomPlay(view: MatchView, rng: Rng): Play {
  const plays = legalPlaysInView(view);
  if (plays.length === 0) throw new RangeError('the viewer has no play to make');
  return plays[Math.floor(rng() * plays.length)];
}
