import { loadConfig } from '../config/config';
import { parseRatingPeriod, ratingPeriodMsFromEnv } from './rating-period';

describe('RATING_PERIOD', () => {
  it('is 7 days by default', () => {
    expect(ratingPeriodMsFromEnv(loadConfig({}))).toBe(7 * 24 * 3600 * 1000);
  });

  it('reads ISO 8601 durations', () => {
    expect(parseRatingPeriod('P1W')).toBe(7 * 24 * 3600 * 1000);
    expect(parseRatingPeriod('PT12H')).toBe(12 * 3600 * 1000);
    expect(parseRatingPeriod('P1DT30M')).toBe((24 * 60 + 30) * 60 * 1000);
  });

  it('refuses anything else, and a zero period', () => {
    for (const bad of ['7', 'P', 'PT0S', 'P1M', 'seven days']) expect(() => parseRatingPeriod(bad)).toThrow(/RATING_PERIOD/);
  });
});
