import { resolveRuleset } from '../engine';
import type { MatchEvent, RulesetOptions, Seat } from '../engine';
import { ratedMatchVerdict, sideRanks } from './rated-match';

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

describe('ratedMatchVerdict', () => {
  const two = options({});

  it('two players: one game each, scored by the result', () => {
    const v = ratedMatchVerdict([created(two, [{ player: 'ann' }, {}]), { type: 'SeatTaken', seat: 1, player: 'bob' }, { type: 'MatchStarted' }, ended('points', 1, [7, 11])]);
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
    const v = ratedMatchVerdict([created(two, [{ player: 'ann' }, { player: 'bob' }]), ended('points', null, [11, 11])]);
    expect(v.counted && v.games).toEqual([{ a: 'ann', b: 'bob', score: 0.5 }]);
    expect(v.counted && v.players.map((p) => p.result)).toEqual(['draw', 'draw']);
  });

  it('teams: each player one game against each opposing player; a bot is its level', () => {
    const four = options({ players: 4, teams: true, handSize: 9 });
    const v = ratedMatchVerdict([
      created(four, [{ player: 'ann' }, { player: 'bob' }, { player: 'bot:greedy:2', bot: 'greedy' }, { player: 'cat' }]),
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
    const v = ratedMatchVerdict([created(three, [{ player: 'ann' }, { player: 'bob' }, { player: 'cat' }]), ended('points', 2, [9, 10, 11])]);
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
      ended('points', 1, [5, 11]),
    ]);
    expect(v.counted && v.players.map((p) => p.player)).toEqual(['ann', 'bob']);
  });
});

describe('sideRanks', () => {
  it('ties share a rank', () => {
    expect(sideRanks(3, null, [11, 11, 4], null)).toEqual([1, 1, 3]);
    expect(sideRanks(2, null, [11, 11], null)).toEqual([1, 1]);
  });
});
