/**
 * What a finished rated match's log says for the ratings: who was rated, on
 * which side, ranked how, and the games of its rating period; and who took
 * part in it and who left it before every side had played (an abort for the
 * ratings, counted toward the rated-play suspension: ./rated-play.ts). Pure:
 * the live recorder and the rebuild both read a log through these functions.
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

export type RatedMatchVerdict = { counted: true; players: RatedPlayer[]; games: Game[] } | { counted: false; reason: string };

/** True when the log's MatchCreated asked for a rated match. */
export function isRatedLog(created: MatchEvent | undefined): boolean {
  return created?.type === 'MatchCreated' && created.settings.rated === true;
}

/** The rating identity of a seat: the username, or the bot level's pseudo-account. */
export function ratingIdOf(seat: Seat): string | null {
  if (seat.bot) return `bot:${seat.bot}`;
  return seat.player;
}

/** Why a rated match that ended before every side played a card is not rated (as lichess: fewer than two moves). */
export const LEFT_BEFORE_EVERY_SIDE_PLAYED = 'a side left before every side had played a card: an abort, not rated';

/**
 * The verdict for a rated match's log (MatchCreated, SeatTaken, MatchStarted,
 * CardPlayed, SeatResigned, SeatForfeited, MatchAborted and MatchEnded are
 * read; other events may be there or not).
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
  // A result counts only once every side has played a card: resigning (or forfeiting) right after the deal is an abort.
  if (!everySidePlayed(events, options, seats)) return { counted: false, reason: LEFT_BEFORE_EVERY_SIDE_PLAYED };

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
 * The sides that played a card of their own: a card the clock played for a
 * seat (`auto`) does not count, and on a side with a person only a person's
 * card counts (a bot partner's card does not make its person present).
 */
function sidesThatPlayed(events: readonly MatchEvent[], options: RulesetOptions, seats: readonly Seat[]): Set<number> {
  const sidesWithPerson = new Set(seats.flatMap((s, seat) => (s.bot ? [] : [sideOf(options, seat)])));
  const played = new Set<number>();
  for (const e of events) {
    if (e.type !== 'CardPlayed' || e.auto) continue;
    const side = sideOf(options, e.seat);
    if (seats[e.seat]?.bot && sidesWithPerson.has(side)) continue;
    played.add(side);
  }
  return played;
}

function everySidePlayed(events: readonly MatchEvent[], options: RulesetOptions, seats: readonly Seat[]): boolean {
  return sidesThatPlayed(events, options, seats).size === sideCount(options);
}

export interface RatedAttendance {
  /** The persons seated when the match was dealt (usernames, sorted); empty for a match that never started. */
  participants: string[];
  /** Those of them who left before every side had played a card (sorted). */
  leftEarly: string[];
}

/**
 * Who took part in a finished rated match that was dealt, and who left it
 * before every side had played a card: the seat that aborted after the deal,
 * resigned or forfeited on time then, or, should the match end otherwise
 * with a side that never played, that side's persons. An abort before the
 * deal (no hand seen) has no participants. Not a rated log, or not over: none.
 */
export function ratedAttendance(events: readonly MatchEvent[]): RatedAttendance {
  const none: RatedAttendance = { participants: [], leftEarly: [] };
  const created = events[0];
  const ended = events[events.length - 1];
  if (!isRatedLog(created) || created.type !== 'MatchCreated' || ended?.type !== 'MatchEnded') return none;
  if (!events.some((e) => e.type === 'MatchStarted')) return none;
  const options: RulesetOptions = optionsRecord(created.options);
  const seats: Seat[] = created.seats.map((s) => ({ ...s }));
  let leaver: number | null = null;
  for (const e of events) {
    if (e.type === 'SeatTaken') seats[e.seat] = { ...seats[e.seat], player: e.player };
    if (e.type === 'SeatResigned' || e.type === 'SeatForfeited' || e.type === 'MatchAborted') leaver = e.seat;
  }
  const person = (seat: number): string | null => (seats[seat]?.bot ? null : (seats[seat]?.player ?? null));
  const participants = [...new Set(seats.flatMap((_, seat) => person(seat) ?? []))].sort();
  const played = sidesThatPlayed(events, options, seats);
  if (played.size === sideCount(options)) return { participants, leftEarly: [] };
  const left = new Set<string>();
  if (leaver !== null) {
    const who = person(leaver);
    if (who) left.add(who);
  } else {
    seats.forEach((_, seat) => {
      const who = person(seat);
      if (who && !played.has(sideOf(options, seat))) left.add(who);
    });
  }
  return { participants, leftEarly: [...left].sort() };
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
    return sides === 2 ? (winner === null ? 0 : -1) : (totals[side] ?? 0);
  };
  const keys = Array.from({ length: sides }, (_, side) => key(side));
  return keys.map((k) => 1 + keys.filter((other) => other > k).length);
}
