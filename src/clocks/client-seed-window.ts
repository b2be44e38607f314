/**
 * CLIENT_SEED_WINDOW: how long a start waits for the human seats' client
 * seeds (docs/fairness.md "Player-contributed seeds"), in seconds: a decimal number
 * from 0 to 86400, default 30; 0 turns the wait off (a start deals at once,
 * with whatever seeds were given). Declared in src/config/variables.ts.
 */
import { parseVariable } from '../config/config';

/** The window in milliseconds; a value that is not a number of seconds in range stops the service at startup. */
export function clientSeedWindowMs(raw: string | undefined): number {
  return parseVariable('CLIENT_SEED_WINDOW', raw);
}
