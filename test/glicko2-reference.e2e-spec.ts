/**
 * The test-side Glicko-2 (test/support/glicko2-reference.ts) reproduces the
 * worked example of Glickman's "Example of the Glicko-2 system": a player at
 * 1500, RD 200, volatility 0.06 (tau 0.5) beats a 1400 (RD 30), loses to a
 * 1550 (RD 100) and to a 1700 (RD 300): 1464.06, RD 151.52, volatility
 * 0.05999 (the paper rounds as it goes; unrounded 1464.0507, 151.5165,
 * 0.059996).
 */
import { noGameStep, ratePeriodRef, replayRatings } from './support/glicko2-reference';

describe('the Glicko-2 reference of the crash test', () => {
  it("gives the paper's example", () => {
    const r = ratePeriodRef({ rating: 1500, rd: 200, volatility: 0.06 }, [
      { opponent: { rating: 1400, rd: 30, volatility: 0.06 }, score: 1 },
      { opponent: { rating: 1550, rd: 100, volatility: 0.06 }, score: 0 },
      { opponent: { rating: 1700, rd: 300, volatility: 0.06 }, score: 0 },
    ]);
    // The paper rounds its intermediate values (μ' = −0.2069): unrounded, 1464.0507.
    expect(r.rating).toBeCloseTo(1464.06, 1);
    expect(r.rd).toBeCloseTo(151.52, 2);
    expect(r.volatility).toBeCloseTo(0.059996, 6);
  });

  it('grows RD by the no-game step per whole period, never past 350, and rates a match from the ratings before it', () => {
    expect(noGameStep({ rating: 1500, rd: 200, volatility: 0.06 }).rd).toBeCloseTo(Math.sqrt(200 ** 2 + (0.06 * 173.7178) ** 2), 9);
    const day = 24 * 3600 * 1000;
    const t0 = new Date('2026-01-01T00:00:00Z');
    const m = (id: string, a: string, b: string, at: Date) => ({
      id,
      pool: 'p',
      endedAt: at,
      sides: new Map([
        [a, 0],
        [b, 1],
      ]),
      ranks: new Map([
        [0, 1],
        [1, 2],
      ]),
    });
    const once = replayRatings([m('1', 'x', 'y', t0)], day);
    // Both rated against 1500/350 at once: symmetric.
    expect(once.get('p\u0000x')!.rating - 1500).toBeCloseTo(1500 - once.get('p\u0000y')!.rating, 9);
    const later = replayRatings([m('1', 'x', 'y', t0), m('2', 'x', 'z', new Date(t0.getTime() + 3.5 * day))], day);
    const soon = replayRatings([m('1', 'x', 'y', t0), m('2', 'x', 'z', new Date(t0.getTime() + 0.5 * day))], day);
    // Three whole periods away: a larger RD going in, so a larger gain from the same win.
    expect(later.get('p\u0000x')!.rating).toBeGreaterThan(soon.get('p\u0000x')!.rating);
    expect(later.get('p\u0000x')!.games).toBe(2);
  });
});
