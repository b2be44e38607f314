/**
 * What a finished rated match's log says for the ratings: who was rated, on
 * which side, ranked how, and the games of its rating period. Pure: the live
 * recorder and the rebuild both read a log through this one function.
 */
import { optionsRecord, sideCount, sideOf } from '../engine';
import type { EndReason, MatchEvent, RulesetOptions, Seat } from '../engine';
import type { Game } from './glicko';

/** End reasons that are a result: on points (allDenari is a win on the table too), resignation, forfeit on time; an abort (`aborted`) is none. */
const COUNTED: readonly EndReason[] = ['points', 'allDenari', 'resignation', 'forfeit'];

export type MatchOutcome = 'win' | 'loss' | 'draw';

export interface RatedPlayer {
  /** A username, or bot:<level>. */
  player: string;
  side: number;
  /** 1 = best. */
  rank: number;
  result: MatchOutcome;
}

export type RatedMatchVerdict =
  | { counted: true; players: RatedPlayer[]; games: Game[] }
  | { counted: false; reason: string };

/** True when the log's MatchCreated asked for a rated match. */
export function isRatedLog(created: MatchEvent | undefined): boolean {
  return created?.type === 'MatchCreated' && created.settings.rated === true;
}

/** The rating identity of a seat: the username, or the bot level's pseudo-account. */
export function ratingIdOf(seat: Seat): string | null {
  if (seat.bot) return `bot:${seat.bot}`;
  return seat.player;
}

/**
 * The verdict for a rated match's log (MatchCreated, SeatTaken, SeatResigned,
 * SeatForfeited and MatchEnded are read; other events may be there or not).
 */
export function ratedMatchVerdict(events: readonly MatchEvent[]): RatedMatchVerdict {
  const created = events[0];
  if (!created || created.type !== 'MatchCreated') return { counted: false, reason: 'the log does not start with MatchCreated' };
  if (!created.settings.rated) return { counted: false, reason: 'not a rated match' };
  const ended = events[events.length - 1];
  if (ended?.type !== 'MatchEnded') return { counted: false, reason: 'the match has not ended' };
  if (!COUNTED.includes(ended.reason)) return { counted: false, reason: `a match ending by ${ended.reason} is not rated` };

  const options: RulesetOptions = optionsRecord(created.options);
  const seats: Seat[] = created.seats.map((s) => ({ ...s }));
  let abandoningSide: number | null = null;
  for (const e of events) {
    if (e.type === 'SeatTaken') seats[e.seat] = { ...seats[e.seat], player: e.player };
    if (e.type === 'SeatResigned' || e.type === 'SeatForfeited') abandoningSide = sideOf(options, e.seat);
  }

  // Repeated from creation on the seats the match was played with: two sides with a person.
  const humanSides = new Set(seats.flatMap((s, seat) => (s.bot || !s.player ? [] : [sideOf(options, seat)])));
  if (humanSides.size < 2) return { counted: false, reason: 'fewer than two sides with a person' };

  const ranks = sideRanks(sideCount(options), ended.winner, ended.totals, abandoningSide);
  // One identity per player; a bot level seated on two sides plays itself: it is left out of this match.
  const sidesOf = new Map<string, Set<number>>();
  seats.forEach((s, seat) => {
    const id = ratingIdOf(s);
    if (!id) return;
    const set = sidesOf.get(id) ?? new Set<number>();
    set.add(sideOf(options, seat));
    sidesOf.set(id, set);
  });
  const players: RatedPlayer[] = [];
  for (const [player, sides] of sidesOf) {
    if (sides.size !== 1) continue;
    const side = [...sides][0];
    const rank = ranks[side];
    const result: MatchOutcome = ended.winner === side ? 'win' : ended.winner === null && rank === 1 ? 'draw' : 'loss';
    players.push({ player, side, rank, result });
  }
  players.sort((a, b) => (a.player < b.player ? -1 : a.player > b.player ? 1 : 0));

  // Each player's period: one game against each player of another side, scored by their ranks.
  const games: Game[] = [];
  for (let i = 0; i < players.length; i++) {
    for (let j = i + 1; j < players.length; j++) {
      const a = players[i];
      const b = players[j];
      if (a.side === b.side) continue;
      games.push({ a: a.player, b: b.player, score: a.rank < b.rank ? 1 : a.rank > b.rank ? 0 : 0.5 });
    }
  }
  if (games.length === 0) return { counted: false, reason: 'no game between rated players' };
  return { counted: true, players, games };
}

/**
 * Final rank of each side (1 = best, equal ranks for a tie). Two sides: the
 * side's result (win, loss, draw). More sides: the winner first, a side that
 * resigned or forfeited last, the others by match points.
 */
export function sideRanks(sides: number, winner: number | null, totals: readonly number[], abandoningSide: number | null): number[] {
  const key = (side: number): number => {
    if (side === winner) return Infinity;
    if (side === abandoningSide) return -Infinity;
    return sides === 2 ? (winner === null ? 0 : -1) : totals[side] ?? 0;
  };
  const keys = Array.from({ length: sides }, (_, side) => key(side));
  return keys.map((k) => 1 + keys.filter((other) => other > k).length);
}
