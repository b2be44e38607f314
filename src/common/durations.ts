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
