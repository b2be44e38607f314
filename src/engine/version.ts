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
 * - `scopa-rules/3`: as 2, plus `abort` (a seated player calls the match off
 *   before its first play: MatchAborted, then MatchEnded with reason
 *   `aborted`). A log under 1 or 2 never holds an abort (the decider refuses
 *   it there), so those logs replay as they were made, and an engine that
 *   knows only 2 refuses a log that might hold one by its version.
 *
 * All use the same shuffle, legal plays, scoring and auto-play policy.
 */
export const RULES_VERSION = 'scopa-rules/3';

/** The version of matches made with client seeds but before abort. */
export const RULES_V2 = 'scopa-rules/2';

/** The version of matches made before client seeds: replayed and audited exactly as they were made. */
export const RULES_V1 = 'scopa-rules/1';

export const SUPPORTED_RULES_VERSIONS: readonly string[] = [RULES_V1, RULES_V2, RULES_VERSION];

/** Whether a match under this rules version may be aborted (from `scopa-rules/3`). */
export function allowsAbort(rulesVersion: string): boolean {
  return rulesVersion !== RULES_V1 && rulesVersion !== RULES_V2;
}

/** Whether a match under this rules version takes client seeds into its deal. */
export function takesClientSeeds(rulesVersion: string): boolean {
  return rulesVersion !== RULES_V1;
}
