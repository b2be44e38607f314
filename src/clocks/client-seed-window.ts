/**
 * CLIENT_SEED_WINDOW: how long a start waits for the human seats' client
 * seeds (README "Player-contributed seeds"), in seconds: a decimal number
 * from 0 to 86400, default 30; 0 turns the wait off (a start deals at once,
 * with whatever seeds were given).
 */
export const DEFAULT_CLIENT_SEED_WINDOW_S = 30;
const MAX_S = 86_400;

/** The window in milliseconds; a value that is not a number of seconds in range stops the service at startup. */
export function clientSeedWindowMs(raw: string | undefined): number {
  if (raw === undefined || raw.trim() === '') return DEFAULT_CLIENT_SEED_WINDOW_S * 1000;
  const text = raw.trim();
  const seconds = /^\d{1,5}(\.\d{1,3})?$/.test(text) ? Number(text) : NaN;
  if (!(seconds >= 0 && seconds <= MAX_S)) {
    throw new Error(`CLIENT_SEED_WINDOW=${JSON.stringify(raw)}: a number of seconds from 0 to ${MAX_S} (such as 30 or 0.5; 0: no wait)`);
  }
  return Math.round(seconds * 1000);
}
