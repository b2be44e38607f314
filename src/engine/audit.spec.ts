import { auditEvents } from './audit';
import { mulberry32 } from './bots/rng';
import { playRandomly, seedFrom, startedMatch } from './testing';
import type { MatchEvent } from './types';

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
