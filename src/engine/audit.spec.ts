import { auditEvents } from './audit';
import { mulberry32 } from './bots/rng';
import { cardCodes } from './cards';
import { deriveDeckSeed } from './client-seeds';
import { initialState } from './decider';
import { seedCommitment, shuffledDeck } from './shuffle';
import { apply, playRandomly, seedFrom, startedMatch } from './testing';
import type { Driven } from './testing';
import type { MatchEvent } from './types';
import { RULES_V1 } from './version';

function finishedMatch(n: number, preset = 'scopa') {
  const rng = mulberry32(n);
  const seed = seedFrom(rng);
  const m = startedMatch(seed, preset);
  while (m.state.phase === 'playing') playRandomly(m, rng);
  return { seed, events: m.events };
}

describe('auditing a log by deciding it again', () => {
  it('finds finished matches of several presets sound', () => {
    for (const preset of ['scopa', 'scopone', 'scopa-quindici', 'scopone-trenta']) {
      const { seed, events } = finishedMatch(11, preset);
      expect(auditEvents(events, seed)).toMatchObject({ sound: true, events: events.length });
    }
  });

  it('points at the first event that does not follow from the rules', () => {
    const { seed, events } = finishedMatch(12);
    const i = events.findIndex((e, k) => k > 5 && e.type === 'CardPlayed' && e.capture.length > 0);
    const altered = events.map((e, k) => (k === i ? ({ ...e, scopa: !(e as { scopa: boolean }).scopa } as MatchEvent) : e));
    expect(auditEvents(altered, seed)).toMatchObject({ sound: false, index: i });

    const deleted = events.filter((_, k) => k !== i);
    expect(auditEvents(deleted, seed)).toMatchObject({ sound: false, index: i });

    const swapped = events.slice();
    [swapped[i], swapped[i + 1]] = [swapped[i + 1], swapped[i]];
    expect(auditEvents(swapped, seed)).toMatchObject({ sound: false, index: i });

    const scored = events.findIndex((e) => e.type === 'RoundScored');
    const inflated = events.map((e, k) => (k === scored ? ({ ...e, totals: [99, 0] } as MatchEvent) : e));
    expect(auditEvents(inflated, seed)).toMatchObject({ sound: false, index: scored });
  });

  it('refuses a seed that does not match the commitment, and rules it does not implement', () => {
    const { seed, events } = finishedMatch(13);
    const other = seed.slice();
    other[0] ^= 1;
    expect(auditEvents(events, other)).toMatchObject({ sound: false, index: 0, reason: 'the seed does not match the commitment' });
    const future = [{ ...events[0], rulesVersion: 'scopa-rules/99' } as MatchEvent, ...events.slice(1)];
    expect(auditEvents(future, seed)).toMatchObject({ sound: false, index: 0 });
  });
});

describe('auditing a scopa-rules/2 log with client seeds', () => {
  /** A finished 2-player match where seat 0 gave its seed on its own and seat 1 with its join. */
  function seededMatch(n: number) {
    const rng = mulberry32(n);
    const seed = seedFrom(rng);
    const m: Driven = { state: initialState(seed), events: [] };
    apply(m, { type: 'create', preset: 'scopa', seats: [{ player: 'ann' }, {}], createdBy: 'ann', seedCommitment: seedCommitment(seed) });
    apply(m, { type: 'setClientSeed', player: 'ann', clientSeed: 'a1'.repeat(20) });
    apply(m, { type: 'join', player: 'bob', clientSeed: 'b0b0' });
    apply(m, { type: 'start', player: 'ann' });
    while (m.state.phase === 'playing') playRandomly(m, rng);
    return { seed, events: m.events };
  }
  const firstDeal = (events: MatchEvent[]) => events.findIndex((e) => e.type === 'RoundDealt');

  it('recomputes the deck seed from the revealed server seed and the logged client seeds', () => {
    const { seed, events } = seededMatch(31);
    expect(events.map((e) => e.type).slice(0, 4)).toEqual(['MatchCreated', 'ClientSeedGiven', 'SeatTaken', 'MatchStarted']);
    const verdict = auditEvents(events, seed);
    expect(verdict).toMatchObject({ sound: true, events: events.length });
    expect(verdict.sound && verdict.state.deckSeed).toEqual(deriveDeckSeed(seed, ['a1'.repeat(20), 'b0b0']));
  });

  it('finds a changed client seed, or seeds moved to other seats, at the first deal they no longer give', () => {
    const { seed, events } = seededMatch(32);
    const at = firstDeal(events);
    const changedSeed = events.map((e) => (e.type === 'ClientSeedGiven' ? { ...e, clientSeed: 'a2'.repeat(20) } : e));
    expect(auditEvents(changedSeed, seed)).toMatchObject({ sound: false, index: at });
    const changedJoin = events.map((e) => (e.type === 'SeatTaken' ? { ...e, clientSeed: 'b0b1' } : e));
    expect(auditEvents(changedJoin, seed)).toMatchObject({ sound: false, index: at });
    // Seat order: seat 0's seed and seat 1's exchanged.
    const swapped = events.map((e) =>
      e.type === 'ClientSeedGiven' ? { ...e, clientSeed: 'b0b0' } : e.type === 'SeatTaken' ? { ...e, clientSeed: 'a1'.repeat(20) } : e,
    );
    expect(auditEvents(swapped, seed)).toMatchObject({ sound: false, index: at });
  });

  it('finds a client seed the rules refuse at its own event', () => {
    const { seed, events } = seededMatch(33);
    const uppercase = events.map((e) => (e.type === 'ClientSeedGiven' ? { ...e, clientSeed: e.clientSeed.toUpperCase() } : e));
    expect(auditEvents(uppercase, seed)).toMatchObject({ sound: false, index: 1 });
    const twice = [...events.slice(0, 2), { type: 'ClientSeedGiven', seat: 0, clientSeed: 'ff' } as MatchEvent, ...events.slice(2)];
    expect(auditEvents(twice, seed)).toMatchObject({ sound: false, index: 2, reason: expect.stringContaining('CLIENT_SEED_ALREADY_GIVEN') });
    const afterStart = [...events.slice(0, 4), { type: 'ClientSeedGiven', seat: 1, clientSeed: 'ff' } as MatchEvent, ...events.slice(4)];
    expect(auditEvents(afterStart, seed)).toMatchObject({ sound: false, index: 4 });
  });

  it('still finds scopa-rules/1 logs sound, dealt from the server seed', () => {
    const rng = mulberry32(34);
    const seed = seedFrom(rng);
    const m = startedMatch(seed, 'scopa', {}, undefined, { rulesVersion: RULES_V1 });
    while (m.state.phase === 'playing') playRandomly(m, rng);
    expect(m.events[0]).toMatchObject({ rulesVersion: 'scopa-rules/1' });
    const dealt = m.events[firstDeal(m.events)] as Extract<MatchEvent, { type: 'RoundDealt' }>;
    expect(dealt.table).toEqual(cardCodes(Array.from(shuffledDeck(seed, 1, 0).subarray(0, 4))));
    expect(auditEvents(m.events, seed)).toMatchObject({ sound: true, events: m.events.length });
    // The same log claimed as scopa-rules/2 is not what those rules deal.
    const relabeled = [{ ...m.events[0], rulesVersion: 'scopa-rules/2' } as MatchEvent, ...m.events.slice(1)];
    expect(auditEvents(relabeled, seed)).toMatchObject({ sound: false, index: firstDeal(m.events) });
  });
});
