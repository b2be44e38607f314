import { resolveRuleset } from '../engine';
import type { MatchEvent, RulesetOptions, Seat } from '../engine';
import { LEFT_BEFORE_EVERY_SIDE_PLAYED, ratedAttendance, ratedMatchVerdict, sideRanks } from './rated-match';

function options(overrides: Partial<RulesetOptions>): RulesetOptions {
  const r = resolveRuleset('scopa', overrides);
  if (!r.ok) throw new Error(r.error.message);
  return r.ruleset.options;
}

function created(opts: RulesetOptions, seats: Partial<Seat>[], rated = true): MatchEvent {
  return {
    type: 'MatchCreated',
    rulesVersion: 'test',
    preset: 'scopa',
    options: opts,
    seats: seats.map((s) => ({ player: null, reservedFor: null, bot: null, ...s })),
    createdBy: 'ann',
    seedCommitment: '0'.repeat(64),
    settings: { turnTimeLimit: null, onExpiry: 'autoPlay', ...(rated ? { rated: true } : {}) },
  };
}

const ended = (reason: 'points' | 'resignation' | 'forfeit', winner: number | null, totals: number[]): MatchEvent => ({
  type: 'MatchEnded',
  reason,
  winner,
  totals,
  seed: '0'.repeat(64),
});

/** A card of its own played by each of these seats (the cards do not matter to the ratings). */
const plays = (...seats: number[]): MatchEvent[] => seats.map((seat) => ({ type: 'CardPlayed', seat, card: '1C', capture: [], scopa: false, auto: false }));

describe('ratedMatchVerdict', () => {
  const two = options({});

  it('two players: one game each, scored by the result', () => {
    const v = ratedMatchVerdict([
      created(two, [{ player: 'ann' }, {}]),
      { type: 'SeatTaken', seat: 1, player: 'bob' },
      { type: 'MatchStarted' },
      ...plays(0, 1),
      ended('points', 1, [7, 11]),
    ]);
    expect(v).toEqual({
      counted: true,
      players: [
        { player: 'ann', side: 0, rank: 2, result: 'loss' },
        { player: 'bob', side: 1, rank: 1, result: 'win' },
      ],
      games: [{ a: 'ann', b: 'bob', score: 0 }],
    });
  });

  it('a draw scores 0.5', () => {
    const v = ratedMatchVerdict([created(two, [{ player: 'ann' }, { player: 'bob' }]), ...plays(0, 1), ended('points', null, [11, 11])]);
    expect(v.counted && v.games).toEqual([{ a: 'ann', b: 'bob', score: 0.5 }]);
    expect(v.counted && v.players.map((p) => p.result)).toEqual(['draw', 'draw']);
  });

  it('teams: each player one game against each opposing player; a bot is its level', () => {
    const four = options({ players: 4, teams: true, handSize: 9 });
    const v = ratedMatchVerdict([
      created(four, [{ player: 'ann' }, { player: 'bob' }, { player: 'bot:greedy:2', bot: 'greedy' }, { player: 'cat' }]),
      ...plays(0, 1),
      { type: 'SeatResigned', seat: 1 },
      ended('resignation', 0, [3, 5]),
    ]);
    expect(v.counted && v.players.map((p) => [p.player, p.side, p.result])).toEqual([
      ['ann', 0, 'win'],
      ['bob', 1, 'loss'],
      ['bot:greedy', 0, 'win'],
      ['cat', 1, 'loss'],
    ]);
    expect(v.counted && v.games).toEqual([
      { a: 'ann', b: 'bob', score: 1 },
      { a: 'ann', b: 'cat', score: 1 },
      { a: 'bob', b: 'bot:greedy', score: 0 },
      { a: 'bot:greedy', b: 'cat', score: 1 },
    ]);
  });

  it('three players: each pair one game by final rank', () => {
    const three = options({ players: 3 });
    const v = ratedMatchVerdict([
      created(three, [{ player: 'ann' }, { player: 'bob' }, { player: 'cat' }]),
      ...plays(0, 1, 2),
      ended('points', 2, [9, 10, 11]),
    ]);
    expect(v.counted && v.games).toEqual([
      { a: 'ann', b: 'bob', score: 0 },
      { a: 'ann', b: 'cat', score: 0 },
      { a: 'bob', b: 'cat', score: 0 },
    ]);
  });

  it('three players: a forfeiting side ranks last whatever its points', () => {
    const three = options({ players: 3 });
    const v = ratedMatchVerdict([
      created(three, [{ player: 'ann' }, { player: 'bob' }, { player: 'cat' }]),
      ...plays(0, 1, 2),
      { type: 'SeatForfeited', seat: 0 },
      ended('forfeit', 1, [10, 8, 8]),
    ]);
    expect(v.counted && v.players.map((p) => [p.player, p.rank])).toEqual([
      ['ann', 3],
      ['bob', 1],
      ['cat', 2],
    ]);
  });

  it('is not counted without two sides of people, nor when not rated', () => {
    expect(ratedMatchVerdict([created(two, [{ player: 'ann' }, { player: 'bot:random:1', bot: 'random' }]), ended('points', 0, [11, 2])])).toEqual({
      counted: false,
      reason: 'fewer than two sides with a person',
    });
    expect(ratedMatchVerdict([created(two, [{ player: 'ann' }, { player: 'bob' }], false), ended('points', 0, [11, 2])]).counted).toBe(false);
    expect(ratedMatchVerdict([created(two, [{ player: 'ann' }, { player: 'bob' }])]).counted).toBe(false);
  });

  it('leaves out a bot level seated on both sides', () => {
    const four = options({ players: 4, teams: true, handSize: 9 });
    const v = ratedMatchVerdict([
      created(four, [{ player: 'ann' }, { player: 'bob' }, { player: 'bot:greedy:2', bot: 'greedy' }, { player: 'bot:greedy:3', bot: 'greedy' }]),
      ...plays(0, 1),
      ended('points', 1, [5, 11]),
    ]);
    expect(v.counted && v.players.map((p) => p.player)).toEqual(['ann', 'bob']);
  });
});

describe('leaving before every side played a card (an abort, not rated)', () => {
  const two = options({});
  const pair = created(two, [{ player: 'ann' }, { player: 'bob' }]);
  const start: MatchEvent = { type: 'MatchStarted' };
  const clockCard: MatchEvent = { type: 'CardPlayed', seat: 1, card: '2C', capture: [], scopa: false, auto: true };

  it('a resignation right after the deal is not rated, and the resigner left early', () => {
    const log = [pair, start, { type: 'SeatResigned', seat: 1 } as MatchEvent, ended('resignation', 0, [0, 0])];
    expect(ratedMatchVerdict(log)).toEqual({ counted: false, reason: LEFT_BEFORE_EVERY_SIDE_PLAYED });
    expect(ratedAttendance(log)).toEqual({ participants: ['ann', 'bob'], leftEarly: ['bob'] });
  });

  it('one side played, the other resigned before its first card: not rated', () => {
    const log = [pair, start, ...plays(0), { type: 'SeatResigned', seat: 1 } as MatchEvent, ended('resignation', 0, [0, 0])];
    expect(ratedMatchVerdict(log).counted).toBe(false);
    expect(ratedAttendance(log).leftEarly).toEqual(['bob']);
  });

  it('a forfeit on time before the first card, or after only the clock played: not rated', () => {
    const log = [pair, start, ...plays(0), clockCard, ...plays(0), { type: 'SeatForfeited', seat: 1 } as MatchEvent, ended('forfeit', 0, [0, 0])];
    expect(ratedMatchVerdict(log)).toEqual({ counted: false, reason: LEFT_BEFORE_EVERY_SIDE_PLAYED });
    expect(ratedAttendance(log).leftEarly).toEqual(['bob']);
  });

  it('once every side played a card, a resignation counts and nobody left early', () => {
    const log = [pair, start, ...plays(0, 1), { type: 'SeatResigned', seat: 1 } as MatchEvent, ended('resignation', 0, [0, 0])];
    expect(ratedMatchVerdict(log).counted).toBe(true);
    expect(ratedAttendance(log)).toEqual({ participants: ['ann', 'bob'], leftEarly: [] });
  });

  it('an abort after the deal is left early by the aborter; an abort before the deal has no participants', () => {
    const after = [pair, start, { type: 'MatchAborted', seat: 0 } as MatchEvent, ended('aborted' as 'points', null, [0, 0])];
    expect(ratedAttendance(after)).toEqual({ participants: ['ann', 'bob'], leftEarly: ['ann'] });
    const before = [created(two, [{ player: 'ann' }, {}]), { type: 'MatchAborted', seat: 0 } as MatchEvent, ended('aborted' as 'points', null, [0, 0])];
    expect(ratedAttendance(before)).toEqual({ participants: [], leftEarly: [] });
  });

  it("teams: a bot partner's card does not make its person's side present", () => {
    const four = options({ players: 4, teams: true, handSize: 9 });
    const log = [
      created(four, [{ player: 'ann' }, { player: 'bob' }, { player: 'bot:greedy:2', bot: 'greedy' }, { player: 'cat' }]),
      start,
      ...plays(1, 2),
      { type: 'SeatResigned', seat: 0 } as MatchEvent,
      ended('resignation', 1, [0, 0]),
    ];
    expect(ratedMatchVerdict(log).counted).toBe(false);
    expect(ratedAttendance(log)).toEqual({ participants: ['ann', 'bob', 'cat'], leftEarly: ['ann'] });
  });

  it('an unrated log has no attendance', () => {
    expect(ratedAttendance([created(two, [{ player: 'ann' }, { player: 'bob' }], false), start, ended('resignation', 0, [0, 0])])).toEqual({
      participants: [],
      leftEarly: [],
    });
  });
});

describe('sideRanks', () => {
  it('ties share a rank', () => {
    expect(sideRanks(3, null, [11, 11, 4], null)).toEqual([1, 1, 3]);
    expect(sideRanks(2, null, [11, 11], null)).toEqual([1, 1]);
  });
});
