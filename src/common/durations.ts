/** Durations read from the environment (CHALLENGE_TTL, REMATCH_TTL, OPPONENT_GONE_AFTER): ISO 8601, as turn time limits are written. */
import { durationSeconds } from '../engine';

/** `raw` (or `fallback` when unset) in ms: an ISO 8601 duration above zero and at most 30 days, else an error at start-up naming the variable. */
export function envDurationMs(name: string, fallback: string, raw: string | undefined = process.env[name]): number {
  const text = raw === undefined || raw.trim() === '' ? fallback : raw.trim();
  const seconds = durationSeconds(text);
  if (seconds === null || seconds <= 0 || seconds > 30 * 86400) {
    throw new Error(`${name}: an ISO 8601 duration above zero and at most P30D, such as ${fallback} (got ${JSON.stringify(text)})`);
  }
  return Math.round(seconds * 1000);
}

/** CLOCK_LOW_FRACTION: the share of the turn time limit left below which a turn's clock is low (0 < f < 1, default 0.1). */
export function clockLowFraction(raw: string | undefined = process.env.CLOCK_LOW_FRACTION): number {
  if (raw === undefined || raw.trim() === '') return 0.1;
  const f = Number(raw);
  if (!Number.isFinite(f) || f <= 0 || f >= 1) throw new Error(`CLOCK_LOW_FRACTION: a number between 0 and 1, such as 0.1 (got ${JSON.stringify(raw)})`);
  return f;
}
