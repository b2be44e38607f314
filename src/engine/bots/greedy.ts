/**
 * The `greedy` bot: scores each legal play one move deep from the seat's own
 * view (never hidden cards). It plays the frozen auto-play policy today; to
 * tune it, give it its own scoring here. Never edit `../auto-play.ts` for a
 * bot: that policy is part of the rules and of every recorded match.
 *
 * Hand declarations (cirulla): greedy declares whenever a declaration scores,
 * naming the matta value that scores most; among values that score alike, the
 * one under which its best play is worth most (then the lowest value).
 */
import { DECK_SIZE, RANK, parseCard } from '../cards';
import { autoPlay, scorePlay, unseenCards } from '../auto-play';
import { mattaCard } from '../bonuses';
import type { Declaration } from '../bonuses';
import { captureValuesWith } from '../captures';
import { legalPlaysOf } from '../plays';
import type { Play } from '../plays';
import { declarationsInView, isLastPlayInView } from '../views';
import type { MatchView } from '../views';
import type { BotMove } from './move';

export { cardWorth, scorePlay, unseenCards } from '../auto-play';

export function greedyPlay(view: MatchView): Play {
  return autoPlay(view);
}

/** Greedy's move: the best-scoring declaration when one is open, else its play. */
export function greedyMove(view: MatchView): BotMove {
  const declaration = greedyDeclaration(view);
  if (declaration) return { type: 'declare', mattaValue: declaration.mattaValue };
  return { type: 'play', play: greedyPlay(view) };
}

/** The declaration greedy makes now, or null. */
export function greedyDeclaration(view: MatchView): Declaration | null {
  const open = declarationsInView(view);
  if (open.length === 0) return null;
  let top = 0;
  for (const d of open) if (d.points > top) top = d.points;
  const best = open.filter((d) => d.points === top);
  if (best.length === 1 || best[0].mattaValue === null) return best[0];
  // Several matta values score alike: keep the one under which the hand plays best.
  const options = view.options!;
  const hand = view.hand.map(parseCard);
  const table = view.table.map(parseCard);
  const unseen = unseenCards(view);
  const unseenByRank = new Array<number>(11).fill(0);
  for (const c of unseen) if (c >= 0 && c < DECK_SIZE) unseenByRank[RANK[c]]++;
  const lastPlay = isLastPlayInView(view);
  let chosen = best[0];
  let chosenValue = -Infinity;
  for (const d of best) {
    const values = captureValuesWith(mattaCard(options), d.mattaValue);
    let value = -Infinity;
    for (const play of legalPlaysOf(options, hand, table, lastPlay, values)) {
      value = Math.max(value, scorePlay(options, table, play, unseenByRank, unseen.length, lastPlay));
    }
    if (value > chosenValue) {
      chosenValue = value;
      chosen = d;
    }
  }
  return chosen;
}
