import { afterInactivity, GLICKO, INITIAL_RATING, isProvisional, ratePeriod } from './glicko';

describe('Glicko-2 through the glicko2 package', () => {
  it("gives Glickman's worked example to two decimals", () => {
    // "Example of the Glicko-2 system": a 1500/200/0.06 player beats a 1400/30, loses to a 1550/100 and to a 1700/300.
    const before = new Map([
      ['p', { rating: 1500, rd: 200, volatility: 0.06 }],
      ['o1', { rating: 1400, rd: 30, volatility: 0.06 }],
      ['o2', { rating: 1550, rd: 100, volatility: 0.06 }],
      ['o3', { rating: 1700, rd: 300, volatility: 0.06 }],
    ]);
    const after = ratePeriod(before, [
      { a: 'p', b: 'o1', score: 1 },
      { a: 'p', b: 'o2', score: 0 },
      { a: 'p', b: 'o3', score: 0 },
    ]);
    const p = after.get('p')!;
    // The paper rounds μ' to four places (−0.2069) before scaling back: 1464.06. Unrounded, μ' is
    // −0.20694 and the rating 1464.0507; both agree with the paper within 0.01.
    expect(Math.abs(p.rating - 1464.06)).toBeLessThan(0.01);
    expect((173.7178 * Number(((p.rating - 1500) / 173.7178).toFixed(4)) + 1500).toFixed(2)).toBe('1464.06');
    expect(p.rd.toFixed(2)).toBe('151.52');
    // σ' = 0.059996 (the paper prints 0.05999, cut after five places).
    expect(Math.abs(p.volatility - 0.05999)).toBeLessThan(0.00001);
    expect(p.volatility).toBeLessThan(0.06);
  });

  it('rates both sides of a game from the ratings before it', () => {
    const after = ratePeriod(new Map(), [{ a: 'x', b: 'y', score: 1 }]);
    const x = after.get('x')!;
    const y = after.get('y')!;
    // Two new players: symmetric moves around 1500 (about 162.3 points with RD 350).
    expect(x.rating - 1500).toBeCloseTo(1500 - y.rating, 9);
    expect(x.rating).toBeGreaterThan(1650);
    expect(x.rd).toBeLessThan(350);
    expect(isProvisional(x)).toBe(true);
  });

  it('a draw between equal players moves no rating', () => {
    const after = ratePeriod(new Map(), [{ a: 'x', b: 'y', score: 0.5 }]);
    expect(after.get('x')!.rating).toBeCloseTo(1500, 9);
  });

  it('refuses a score other than 0, 0.5 or 1', () => {
    expect(() => ratePeriod(new Map(), [{ a: 'x', b: 'y', score: 2 }])).toThrow(/0, 0.5 or 1/);
  });

  describe('inactivity', () => {
    const week = 7 * 24 * 3600 * 1000;
    const r = { rating: 1600, rd: 60, volatility: 0.06 };
    const t0 = new Date('2026-01-01T00:00:00Z');

    it('grows RD by the no-game step once per whole period', () => {
      const phi = 60 / 173.7178;
      const oneStep = 173.7178 * Math.sqrt(phi * phi + 0.06 * 0.06);
      const twoSteps = 173.7178 * Math.sqrt(phi * phi + 2 * 0.06 * 0.06);
      expect(afterInactivity(r, t0, new Date(t0.getTime() + week - 1), week)).toEqual(r);
      expect(afterInactivity(r, t0, new Date(t0.getTime() + week), week).rd).toBeCloseTo(oneStep, 9);
      expect(afterInactivity(r, t0, new Date(t0.getTime() + 2.5 * week), week).rd).toBeCloseTo(twoSteps, 9);
      expect(afterInactivity(r, t0, new Date(t0.getTime() + 2.5 * week), week).rating).toBe(1600);
    });

    it('stops at 350', () => {
      expect(afterInactivity(r, t0, new Date(t0.getTime() + 100_000 * week), week).rd).toBe(GLICKO.maxRd);
    });

    it('does nothing for a first game', () => {
      expect(afterInactivity(INITIAL_RATING, null, t0, week)).toEqual(INITIAL_RATING);
    });
  });
});
