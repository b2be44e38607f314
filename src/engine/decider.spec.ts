import { parseCard } from './cards';
import { decide, evolve, initialState, replay } from './decider';
import { seedCommitment, toHex } from './shuffle';
import { apply, startedMatch } from './testing';
import type { Command, MatchState } from './types';

const SEED = Uint8Array.from({ length: 32 }, (_, i) => i * 7);
const COMMITMENT = seedCommitment(SEED);
const cards = (codes: string) => (codes ? codes.split(' ').map(parseCard) : []);

/** A started 2-player scopa match with chosen hands and table (the deck is what the seed left). */
function rigged(hands: string[], table: string, overrides: Record<string, unknown> = {}, turn = 0): MatchState {
  const state = startedMatch(SEED, 'scopa', overrides).state;
  return { ...state, hands: hands.map(cards), table: cards(table), turn };
}

function rejection(command: Command, state: MatchState) {
  const d = decide(command, state);
  if (d.ok) throw new Error(`expected a rejection, got ${JSON.stringify(d.events)}`);
  return d.rejection;
}

const create = (overrides: Partial<Extract<Command, { type: 'create' }>> = {}): Command => ({
  type: 'create',
  preset: 'scopa',
  seats: [{ player: 'ann' }, {}],
  createdBy: 'ann',
  seedCommitment: COMMITMENT,
  ...overrides,
});

describe('creating and seating', () => {
  it('records the resolved ruleset, the rules version and the commitment', () => {
    const d = decide(create({ overrides: { target: 21 } }), initialState(SEED));
    expect(d.ok && d.events[0]).toMatchObject({
      type: 'MatchCreated',
      rulesVersion: 'scopa-rules/5',
      preset: 'scopa',
      options: { target: 21, players: 2 },
      seedCommitment: COMMITMENT,
      settings: { turnTimeLimit: null, onExpiry: 'autoPlay' },
    });
  });

  it.each([
    [{ preset: 'nope' }, 'INVALID_RULESET', 'preset'],
    [{ overrides: { handSize: 4 } }, 'INVALID_RULESET', 'handSize'],
    [{ seedCommitment: 'f'.repeat(64) }, 'INVALID_COMMAND', undefined],
    [{ seats: [{}, {}, {}] }, 'INVALID_COMMAND', undefined],
    [{ seats: [{ bot: 'godlike' }] }, 'INVALID_COMMAND', undefined],
    [{ seats: [{ player: 'ann' }, { player: 'ann' }] }, 'INVALID_COMMAND', undefined],
    [{ settings: { turnTimeLimit: 'soon', onExpiry: 'autoPlay' as const } }, 'INVALID_COMMAND', undefined],
  ])('refuses a bad create %#', (overrides, code, option) => {
    const r = rejection(create(overrides as Partial<Extract<Command, { type: 'create' }>>), initialState(SEED));
    expect(r.code).toBe(code);
    expect(r.option).toBe(option);
  });

  it('seats players, honours reservations, and starts only when full', () => {
    const m = { state: initialState(SEED), events: [] };
    apply(m, create({ seats: [{ player: 'ann' }, { reservedFor: 'bob' }], overrides: { players: 3 } }));
    expect(rejection({ type: 'join', player: 'ann' }, m.state).code).toBe('ALREADY_SEATED');
    expect(rejection({ type: 'join', player: 'cat', seat: 1 }, m.state).code).toBe('SEAT_UNAVAILABLE');
    expect(rejection({ type: 'join', player: 'cat', seat: 7 }, m.state).code).toBe('SEAT_UNAVAILABLE');
    expect(rejection({ type: 'start', player: 'ann' }, m.state).code).toBe('SEATS_NOT_FILLED');
    expect(apply(m, { type: 'join', player: 'cat' })).toEqual([{ type: 'SeatTaken', seat: 2, player: 'cat' }]);
    expect(rejection({ type: 'join', player: 'dan' }, m.state).code).toBe('MATCH_FULL');
    expect(apply(m, { type: 'join', player: 'bob' })).toEqual([{ type: 'SeatTaken', seat: 1, player: 'bob' }]);
    expect(rejection({ type: 'start', player: 'eve' }, m.state).code).toBe('NOT_SEATED');
    const started = apply(m, { type: 'start', player: 'bob' });
    expect(started[0]).toEqual({ type: 'MatchStarted' });
    expect(started[started.length - 1]).toMatchObject({ type: 'RoundDealt', round: 1, dealer: 2 });
    expect(m.state.turn).toBe(0); // the seat after the dealer
    expect(m.state.hands.map((h) => h.length)).toEqual([3, 3, 3]);
    expect(m.state.table).toHaveLength(4);
    expect(rejection({ type: 'join', player: 'dan' }, m.state).code).toBe('MATCH_ALREADY_STARTED');
  });

  it('fills bot seats at creation', () => {
    const d = decide(create({ seats: [{ player: 'ann' }, { bot: 'greedy' }] }), initialState(SEED));
    expect(d.ok && (d.events[0] as { seats: unknown }).seats).toEqual([
      { player: 'ann', reservedFor: null, bot: null },
      { player: 'bot:greedy:1', reservedFor: null, bot: 'greedy' },
    ]);
  });
});

describe('playing', () => {
  const state = rigged(['7D 5S 10B', '2C 3C 4C'], '5C 2S 10S 1B');

  it.each([
    [{ player: 'p1', card: '2C', capture: [] }, 'NOT_YOUR_TURN', undefined],
    [{ player: 'zed', card: '7D', capture: [] }, 'NOT_SEATED', undefined],
    [{ player: 'p0', card: '11D', capture: [] }, 'ILLEGAL_PLAY', 'UNKNOWN_CARD'],
    [{ player: 'p0', card: '2C', capture: [] }, 'ILLEGAL_PLAY', 'CARD_NOT_IN_HAND'],
    [{ player: 'p0', card: '7D', capture: ['5C', '9D'] }, 'ILLEGAL_PLAY', 'CAPTURE_NOT_ON_TABLE'],
    [{ player: 'p0', card: '7D', capture: ['5C', '5C'] }, 'ILLEGAL_PLAY', 'CAPTURE_NOT_ON_TABLE'],
    [{ player: 'p0', card: '7D', capture: 'all' }, 'ILLEGAL_PLAY', 'CAPTURE_NOT_ON_TABLE'],
    [{ player: 'p0', card: '7D', capture: [] }, 'ILLEGAL_PLAY', 'MUST_CAPTURE'],
    [{ player: 'p0', card: '7D', capture: ['5C', '1B'] }, 'ILLEGAL_PLAY', 'CAPTURE_NOT_LEGAL'],
    [{ player: 'p0', card: '10B', capture: ['5C', '2S', '1B'] }, 'ILLEGAL_PLAY', 'CAPTURE_NOT_LEGAL'], // a 10 is on the table: take it
    [{ player: 'p0', card: '5S', capture: ['5C', '1B'] }, 'ILLEGAL_PLAY', 'CAPTURE_NOT_LEGAL'],
  ])('refuses with a typed reason %#', (play, code, reason) => {
    const before = JSON.stringify(state);
    const r = rejection({ type: 'play', ...play } as Command, state);
    expect([r.code, r.reason]).toEqual([code, reason]);
    expect(r.message.length).toBeGreaterThan(0);
    expect(JSON.stringify(state)).toBe(before); // a rejection changes nothing
  });

  it('applies a capture: cards to the side, turn to the next seat', () => {
    const d = decide({ type: 'play', player: 'p0', card: '7D', capture: ['5C', '2S'] }, state);
    expect(d.ok && d.events).toEqual([{ type: 'CardPlayed', seat: 0, card: '7D', capture: ['5C', '2S'], scopa: false, auto: false }]);
    const next = d.ok ? evolve(state, d.events[0]) : state;
    expect(next.table).toEqual(cards('10S 1B'));
    expect(next.captured[0]).toEqual(cards('5C 2S 7D'));
    expect(next.hands[0]).toEqual(cards('5S 10B'));
    expect(next.turn).toBe(1);
    expect(next.lastCapturer).toBe(0);
  });

  it('marks a sweep of the table as a scopa', () => {
    const s = rigged(['9D 1C 2C', '2B 3B 4B'], '4S 5S');
    const d = decide({ type: 'play', player: 'p0', card: '9D', capture: ['4S', '5S'] }, s);
    expect(d.ok && d.events[0]).toMatchObject({ scopa: true });
    expect(d.ok && evolve(s, d.events[0]).scope).toEqual([1, 0]);
  });

  it('lays a card that cannot capture', () => {
    const d = decide({ type: 'play', player: 'p0', card: '5S', capture: [] }, rigged(['5S 1C 2C', '2B 3B 4B'], '9S 8S'));
    expect(d.ok && d.events[0]).toMatchObject({ type: 'CardPlayed', capture: [], scopa: false });
  });

  it('deals new hands when every hand is empty and the deck is not', () => {
    const s = { ...rigged(['5S', ''], '9S 8S'), deckPos: 10 };
    const d = decide({ type: 'play', player: 'p0', card: '5S', capture: [] }, s);
    expect(d.ok && d.events[1]).toEqual({ type: 'HandsDealt', round: 1, deal: 1 });
  });

  it('ends the round: last capturer takes the table, no scopa on the last play, scoring, next dealer', () => {
    const base = rigged(['', '4C'], '9S 4B', {}, 1);
    const s: MatchState = { ...base, deckPos: 40, lastCapturer: 0, captured: [cards('1D 2D'), cards('3D')] };
    const d = decide({ type: 'play', player: 'p1', card: '4C', capture: ['4B'] }, s);
    if (!d.ok) throw new Error(d.rejection.message);
    const types = d.events.map((e) => e.type);
    expect(types.slice(0, 4)).toEqual(['CardPlayed', 'RoundEnded', 'RoundScored', 'RoundDealt']);
    expect(d.events[0]).toMatchObject({ scopa: false });
    expect(d.events[1]).toEqual({ type: 'RoundEnded', round: 1, side: 1, cards: ['9S'] });
    expect(d.events[3]).toMatchObject({ round: 2, dealer: 0 });
    const after = replay(d.events, SEED, s);
    expect(after.turn).toBe(1);
    expect(after.rounds).toHaveLength(1);
  });
});

describe('ending a match early', () => {
  it('resignation with two sides: the other side wins, and the seed is revealed', () => {
    const m = startedMatch(SEED, 'scopa');
    const events = apply(m, { type: 'resign', player: 'p0' });
    expect(events).toEqual([
      { type: 'SeatResigned', seat: 0 },
      { type: 'MatchEnded', reason: 'resignation', winner: 1, totals: [0, 0], seed: toHex(SEED) },
    ]);
    expect(rejection({ type: 'play', player: 'p1', card: '1D', capture: [] }, m.state).code).toBe('MATCH_OVER');
  });

  it('resignation with more sides: the best remaining side wins; a tie is a draw', () => {
    const m = startedMatch(SEED, 'scopa', { players: 3 });
    const tied = apply({ ...m, state: { ...m.state, scores: [5, 3, 3] } }, { type: 'resign', player: 'p0' });
    expect(tied[1]).toMatchObject({ winner: null });
    const lead = apply({ ...m, events: [], state: { ...m.state, scores: [5, 2, 3] } }, { type: 'resign', player: 'p0' });
    expect(lead[1]).toMatchObject({ winner: 2 });
  });

  it('a team resigns as one side', () => {
    const m = startedMatch(SEED, 'scopone');
    expect(apply(m, { type: 'resign', player: 'p2' })[1]).toMatchObject({ winner: 1 });
  });

  it('clock expiry auto-plays a legal greedy move for the seat to move', () => {
    const m = startedMatch(SEED, 'scopa');
    const seat = m.state.turn;
    expect(rejection({ type: 'clockExpired', seat: 1 - seat }, m.state).code).toBe('NOT_YOUR_TURN');
    const events = apply(m, { type: 'clockExpired', seat });
    expect(events[0]).toMatchObject({ type: 'CardPlayed', seat, auto: true });
  });

  it('clock expiry forfeits when the match says so', () => {
    const m = { state: initialState(SEED), events: [] };
    apply(m, create({ seats: [{ player: 'ann' }, { player: 'bob' }], settings: { turnTimeLimit: 'PT30S', onExpiry: 'forfeit' } }));
    apply(m, { type: 'start', player: 'ann' });
    const events = apply(m, { type: 'clockExpired', seat: m.state.turn });
    expect(events.map((e) => e.type)).toEqual(['SeatForfeited', 'MatchEnded']);
    expect(events[1]).toMatchObject({ reason: 'forfeit', winner: 1 });
  });
});

describe('redeal on kings', () => {
  it('deals again, same round and dealer, when the table holds too many kings', () => {
    // Search the seeds for a first table with three kings or more (deterministic).
    for (let n = 0; n < 5000; n++) {
      const seed = Uint8Array.from({ length: 32 }, (_, i) => (i === 0 ? n & 255 : i === 1 ? n >> 8 : 0));
      const m = startedMatch(seed, 'scopa');
      const deals = m.events.filter((e) => e.type === 'RoundDealt');
      if (deals.length < 2) continue;
      expect(deals[0]).toMatchObject({ round: 1, attempt: 0, dealer: 1 });
      expect((deals[0] as { table: string[] }).table.filter((c) => c.startsWith('10')).length).toBeGreaterThanOrEqual(3);
      expect(deals[1]).toMatchObject({ round: 1, attempt: 1, dealer: 1 });
      expect(m.state.attempt).toBe(deals.length - 1);
      return;
    }
    throw new Error('no seed with a three-king table found');
  });
});
