import { TURN_TIME_MAX_SECONDS, TURN_TIME_MIN_SECONDS, durationSeconds, turnTimeLimitProblem } from './turn-time';

describe('turn time limits', () => {
  it('reads ISO 8601 durations, counting years, months and weeks as 365, 30 and 7 days', () => {
    expect(durationSeconds('PT30S')).toBe(30);
    expect(durationSeconds('PT1H30M')).toBe(5400);
    expect(durationSeconds('P2D')).toBe(172_800);
    expect(durationSeconds('P1W')).toBe(604_800);
    expect(durationSeconds('P1M')).toBe(2_592_000);
    expect(durationSeconds('P1Y')).toBe(31_536_000);
    expect(durationSeconds('PT1.5S')).toBe(1.5);
    for (const bad of ['', 'P', 'PT', '30S', 'PT1H ', 'p1d', 'PT99999999999999999999S', '-PT1S']) expect(durationSeconds(bad)).toBeNull();
  });

  it('accepts null (no clock) and durations from PT10S to P30D, and nothing else', () => {
    expect(TURN_TIME_MIN_SECONDS).toBe(10);
    expect(TURN_TIME_MAX_SECONDS).toBe(30 * 86_400);
    for (const ok of [null, 'PT10S', 'PT1H', 'P1D', 'P30D', 'P4W']) expect(turnTimeLimitProblem(ok)).toBeNull();
    for (const bad of ['PT0S', 'PT9S', 'P31D', 'P2M', 'P999999999Y', 'P2147483648D', 'soon', 42, undefined])
      expect(turnTimeLimitProblem(bad)).toMatch(/turnTimeLimit/);
  });
});
