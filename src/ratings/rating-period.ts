/** RATING_PERIOD: how long a player may stay away before RD grows by one no-game step (docs/ratings.md "What counts"); declared in src/config/variables.ts. */
import { parseVariable } from '../config/config';
import type { AppConfig } from '../config/config';

/** An ISO 8601 duration in weeks, days, hours, minutes and seconds (P7D, PT12H), as milliseconds. */
export function parseRatingPeriod(text: string): number {
  return parseVariable('RATING_PERIOD', text);
}

export function ratingPeriodMsFromEnv(config: Pick<AppConfig, 'RATING_PERIOD'>): number {
  return config.RATING_PERIOD;
}
