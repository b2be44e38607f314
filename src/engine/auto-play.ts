/**
 * The auto-play policy: the play a seat makes when its turn clock runs out
 * under `onExpiry: 'autoPlay'`. It is part of the rules, not a bot: the
 * decider plays it and the audit re-decides it, so every stored auto-play
 * must come out the same forever.
 *
 * FROZEN. Changing any choice here (a weight, the order of ties, what counts
 * as unseen) changes the outcome of recorded matches: bump RULES_VERSION and
 * keep this policy for the versions that already exist, or `verify` and the
 * offline audit fail for every stored match with an auto-play.
 * `auto-play.spec.ts` pins its choices on seeded views.
 *
 * The policy (`scopa-rules/1` and `/2`): score each legal play one move deep
 * from the seat's own view (never hidden cards), prizing the settebello,
 * scope, denari and 7s and avoiding a table the next seat could sweep; the
 * first play of highest score in `legalPlaysInView` order wins. It was the
 * `greedy` bot's play when it was frozen; the bot may change, this may not.
 */
import {
  DECK_SIZE,
  RANK as RANK_TABLE,
  SETTEBELLO as SETTEBELLO_CARD,
  RE_BELLO as RE_BELLO_CARD,
  SUIT as SUIT_TABLE,
  DENARI as DENARI_SUIT,
  parseCard,
} from './cards';
import type { Card } from './cards';
import type { RulesetOptions } from './options';
import type { Play } from './plays';
import { isLastPlayInView, legalPlaysInView } from './views';
import type { MatchView } from './views';

// Local copies of the card tables: under tsx (esbuild's CommonJS output) every
// imported binding is read through a getter, which costs a lot in the ISMCTS
// rollouts that call scorePlay millions of times.
const RANK = RANK_TABLE;
const SUIT = SUIT_TABLE;
const DENARI = DENARI_SUIT;
const SETTEBELLO = SETTEBELLO_CARD;
const RE_BELLO = RE_BELLO_CARD;

/** What a card is worth to whoever holds it at scoring time. */
export function cardWorth(options: RulesetOptions, card: Card): number {
  let worth = 1; // towards the cards point
  if (SUIT[card] === DENARI) worth += 1.5;
  if (RANK[card] === 7) worth += options.primiera !== null || options.sevens ? 3 : 0.5;
  if (RANK[card] === 6) worth += options.primiera !== null || options.sevens ? 1 : 0;
  if (RANK[card] === 1 && options.primiera !== null) worth += 0.8;
  if (card === SETTEBELLO && options.settebello) worth += 8;
  if (card === RE_BELLO && options.reBello) worth += 6;
  if (options.denariBonus123 && SUIT[card] === DENARI && RANK[card] <= 3) worth += 2 * RANK[card];
  return worth;
}

/**
 * Cards the viewer has not seen: not in its hand, not on the table, not
 * captured this round, not shown by a hand declaration (`scopa-rules/4`: no
 * match of an earlier version has one, so their auto-plays are unchanged).
 */
export function unseenCards(view: MatchView): Card[] {
  const seen = new Uint8Array(DECK_SIZE);
  for (const code of view.hand) seen[parseCard(code)] = 1;
  for (const code of view.table) seen[parseCard(code)] = 1;
  for (const side of view.sides) for (const code of side.captured) seen[parseCard(code)] = 1;
  for (const seat of view.seats) for (const code of seat.declared ?? []) seen[parseCard(code)] = 1;
  const out: Card[] = [];
  for (let c = 0; c < DECK_SIZE; c++) if (!seen[c]) out.push(c);
  return out;
}

const SCOPA_VALUE = 10;

/** How much a table left to the next seat is worth to it: a likely sweep, and prize cards within reach. */
function exposure(options: RulesetOptions, table: readonly Card[], unseenByRank: readonly number[], unseenTotal: number): number {
  if (table.length === 0 || unseenTotal === 0) return 0;
  let sum = 0;
  let prize = 0;
  for (const c of table) {
    sum += RANK[c];
    prize += cardWorth(options, c);
  }
  // The rank that sweeps this table: same sum (match) or the complement to 15.
  const needed = options.capture === 'fifteen' ? 15 - sum : table.length === 1 ? RANK[table[0]] : sum;
  const sweepable = needed >= 1 && needed <= 10;
  let risk = 0;
  if (sweepable) risk += (SCOPA_VALUE + prize * 0.5) * Math.min(1, unseenByRank[needed] / 4);
  if (options.aceSweeps) risk += (SCOPA_VALUE * (options.aceSweepIsScopa ? 1 : 0) + prize * 0.5) * Math.min(1, unseenByRank[1] / 4);
  return risk;
}

/** A play's value one move deep: what it takes (or gives away by laying) minus what it leaves the next seat. */
export function scorePlay(
  options: RulesetOptions,
  table: readonly Card[],
  play: Play,
  unseenByRank: readonly number[],
  unseenTotal: number,
  lastPlay: boolean,
): number {
  let value = 0;
  let after: Card[];
  if (play.capture.length > 0) {
    value += cardWorth(options, play.card);
    for (const c of play.capture) value += cardWorth(options, c);
    if (play.scopa) value += SCOPA_VALUE;
    after = table.filter((c) => !play.capture.includes(c));
  } else {
    value -= 0.6 * cardWorth(options, play.card);
    after = [...table, play.card];
  }
  if (!lastPlay) value -= exposure(options, after, unseenByRank, unseenTotal);
  return value;
}

/** The auto-play of the seat of `view` (the seat to move). */
export function autoPlay(view: MatchView): Play {
  const plays = legalPlaysInView(view);
  if (plays.length === 0) throw new RangeError('the viewer has no play to make');
  const options = view.options!;
  const table = view.table.map(parseCard);
  const unseen = unseenCards(view);
  const unseenByRank = new Array<number>(11).fill(0);
  for (const c of unseen) unseenByRank[RANK[c]]++;
  const lastPlay = isLastPlayInView(view);
  let best = plays[0];
  let bestValue = -Infinity;
  for (const play of plays) {
    const value = scorePlay(options, table, play, unseenByRank, unseen.length, lastPlay);
    if (value > bestValue) {
      bestValue = value;
      best = play;
    }
  }
  return best;
}
