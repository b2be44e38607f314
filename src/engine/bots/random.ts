/** The `random` bot: any legal play, uniformly (and, with `randomMove`, any declaration open to it too). */
import type { Play } from '../plays';
import { declarationsInView, legalPlaysInView } from '../views';
import type { MatchView } from '../views';
import type { BotMove } from './move';
import type { Rng } from './rng';

export function randomPlay(view: MatchView, rng: Rng): Play {
  const plays = legalPlaysInView(view);
  if (plays.length === 0) throw new RangeError('the viewer has no play to make');
  return plays[Math.floor(rng() * plays.length)];
}

/** Any legal move, uniformly among the plays and the open declarations (without any, exactly randomPlay). */
export function randomMove(view: MatchView, rng: Rng): BotMove {
  const declarations = declarationsInView(view);
  if (declarations.length === 0) return { type: 'play', play: randomPlay(view, rng) };
  const plays = legalPlaysInView(view);
  if (plays.length === 0) throw new RangeError('the viewer has no play to make');
  const pick = Math.floor(rng() * (plays.length + declarations.length));
  return pick < plays.length ? { type: 'play', play: plays[pick] } : { type: 'declare', mattaValue: declarations[pick - plays.length].mattaValue };
}
