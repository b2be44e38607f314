/**
 * Bumped whenever the outcome of any rule changes (a legal play, a deal, a
 * score, the auto-play policy). Matches record it, and replay refuses a log
 * made under a version this engine does not implement rather than replaying
 * it under other rules.
 *
 * - `scopa-rules/1`: the deck seed is the server seed.
 * - `scopa-rules/2`: human seats may give client seeds before the start, and
 *   the deck seed mixes them with the server seed (client-seeds.ts).
 *
 * Both use the same shuffle, legal plays, scoring and auto-play policy.
 */
export const RULES_VERSION = 'scopa-rules/2';

/** The version of matches made before client seeds: replayed and audited exactly as they were made. */
export const RULES_V1 = 'scopa-rules/1';

export const SUPPORTED_RULES_VERSIONS: readonly string[] = [RULES_V1, RULES_VERSION];

/** Whether a match under this rules version takes client seeds into its deal. */
export function takesClientSeeds(rulesVersion: string): boolean {
  return rulesVersion !== RULES_V1;
}
