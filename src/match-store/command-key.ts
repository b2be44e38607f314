/**
 * Command keys (match_events.command_key): what makes a command idempotent
 * within a match. Two key spaces that cannot meet:
 * - a client's: `{ client: username, key: idempotencyKey }`, stored
 *   `<username>:<key>`. A username never holds `:` (USERNAME_PATTERN in
 *   src/auth/accounts.service.ts), so the first `:` splits the pair back:
 *   one stored key per (username, key).
 * - the system's: `{ system: 'clock' | 'bot', key }`, stored `!<system>:<key>`.
 *   `!` never starts a username, so no client key, whatever its username or
 *   idempotency key, is ever a system key.
 * Encoded here only. Rows written before the `!` prefix keep their keys:
 * client keys are encoded as they always were (a retry across the upgrade
 * still finds its first result); an old system key (`clock:seq4:seat0`,
 * `bot:greedy:1:seq5`) now reads as a key of an account named `clock` or
 * `bot`, but no system command looks it up again (each names a past seq),
 * and a client that hits one gets IDEMPOTENCY_KEY_REUSED (another command,
 * another actor): nothing is silenced, so no migration is needed.
 */
export type SystemActor = 'clock' | 'bot';

export type CommandKey = { client: string; key: string } | { system: SystemActor; key: string };

const SYSTEM_PREFIX = '!';
const SYSTEMS: readonly SystemActor[] = ['clock', 'bot'];

export function encodeCommandKey(k: CommandKey): string {
  if ('system' in k) {
    if (!SYSTEMS.includes(k.system)) throw new RangeError(`unknown system ${String(k.system)}`);
    return `${SYSTEM_PREFIX}${k.system}:${k.key}`;
  }
  // An invariant of account names, checked so that a future rename of the pattern cannot merge the spaces.
  if (!k.client || k.client.includes(':') || k.client.startsWith(SYSTEM_PREFIX))
    throw new RangeError(`not a username usable in a command key: ${JSON.stringify(k.client)}`);
  return `${k.client}:${k.key}`;
}
