/**
 * The `greedy` bot: scores each legal play one move deep from the seat's own
 * view (never hidden cards). It plays the frozen auto-play policy today; to
 * tune it, give it its own scoring here. Never edit `../auto-play.ts` for a
 * bot: that policy is part of the rules and of every recorded match.
 */
import { autoPlay } from '../auto-play';
import type { Play } from '../plays';
import type { MatchView } from '../views';

export { cardWorth, scorePlay, unseenCards } from '../auto-play';

export function greedyPlay(view: MatchView): Play {
  return autoPlay(view);
}
