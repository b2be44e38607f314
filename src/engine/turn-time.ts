/**
 * The turn time limit a match may set: an ISO 8601 duration, at least
 * TURN_TIME_MIN_SECONDS and at most TURN_TIME_MAX_SECONDS. Years, months and
 * weeks count as 365, 30 and 7 days. Below the minimum a turn could expire
 * before a client had the notice; beyond the maximum PostgreSQL's interval
 * arithmetic overflows (P999999999Y made a match that could never start).
 */
export const TURN_TIME_MIN_SECONDS = 10;
export const TURN_TIME_MAX_SECONDS = 30 * 24 * 3600;

/** A correspondence match: a turn limit of at least a day (the lobby's bucket and the only clocks a vacation pauses). */
export const CORRESPONDENCE_SECONDS = 86400;

/** Whether a turn time limit is a correspondence one (a day or more); false for null (no clock) or a live limit. */
export function isCorrespondence(limit: string | null | undefined): boolean {
  const seconds = typeof limit === 'string' ? durationSeconds(limit) : null;
  return seconds !== null && seconds >= CORRESPONDENCE_SECONDS;
}

const ISO_DURATION =
  /^P(?!$)(?:(\d{1,9})Y)?(?:(\d{1,9})M)?(?:(\d{1,9})W)?(?:(\d{1,9})D)?(?:T(?=\d)(?:(\d{1,9})H)?(?:(\d{1,9})M)?(?:(\d{1,9}(?:\.\d{1,9})?)S)?)?$/;
const UNIT_SECONDS = [365 * 86400, 30 * 86400, 7 * 86400, 86400, 3600, 60, 1];

/** The duration in seconds, or null when the text is no ISO 8601 duration of this form. */
export function durationSeconds(text: string): number | null {
  const m = ISO_DURATION.exec(text);
  if (!m) return null;
  let seconds = 0;
  for (let i = 0; i < UNIT_SECONDS.length; i++) if (m[i + 1] !== undefined) seconds += Number(m[i + 1]) * UNIT_SECONDS[i];
  return seconds;
}

/** Null when the limit is acceptable (a duration in range, or null: no clock), else why not. */
export function turnTimeLimitProblem(limit: unknown): string | null {
  if (limit === null) return null;
  const seconds = typeof limit === 'string' ? durationSeconds(limit) : null;
  if (seconds === null) return 'turnTimeLimit is an ISO 8601 duration such as PT30S or P2D, or null';
  if (seconds < TURN_TIME_MIN_SECONDS || seconds > TURN_TIME_MAX_SECONDS) {
    return `turnTimeLimit is between PT${TURN_TIME_MIN_SECONDS}S and P${TURN_TIME_MAX_SECONDS / 86400}D`;
  }
  return null;
}
