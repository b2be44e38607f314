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
 * - `scopa-rules/4`: as 3, plus the games of other packs (presets `escoba`,
 *   `cirulla`, `acchiappaquindici`, `chkobba`, `chkop`) and the options added
 *   after `target` (MatchCreated records all the options), the `declareHand`
 *   command (HandDeclared) and the initial-table capture
 *   (InitialTableCaptured). A log under 1 to 3 holds none of these: its
 *   MatchCreated records the options up to `target` and one of the presets
 *   it knew, and it replays and audits as it was made.
 *
 * - `scopa-rules/5`: as 4, plus the clock pauses of a correspondence match
 *   (a turn limit of a day or more): `pauseClock`/`resumeClock`, issued by
 *   the service while a player is on vacation (ClockPaused, ClockResumed).
 *   They change no play, deal nor score; a log under 1 to 4 holds none (the
 *   decider refuses them there), and an engine that knows only 4 refuses a
 *   log that might hold one by its version.
 *
 * All use the same shuffle and auto-play policy; for the options of 1 to 3,
 * the same legal plays and scoring.
 */
export const RULES_VERSION = 'scopa-rules/5';

/** The version of matches made with the games of other packs but before clock pauses. */
export const RULES_V4 = 'scopa-rules/4';

/** The version of matches made with abort but before the games of other packs. */
export const RULES_V3 = 'scopa-rules/3';

/** The version of matches made with client seeds but before abort. */
export const RULES_V2 = 'scopa-rules/2';

/** The version of matches made before client seeds: replayed and audited exactly as they were made. */
export const RULES_V1 = 'scopa-rules/1';

export const SUPPORTED_RULES_VERSIONS: readonly string[] = [RULES_V1, RULES_V2, RULES_V3, RULES_V4, RULES_VERSION];

/** Whether a match under this rules version knows the options after `target`, the new presets and hand declarations (from `scopa-rules/4`). */
export function knowsVariants(rulesVersion: string): boolean {
  return rulesVersion !== RULES_V1 && rulesVersion !== RULES_V2 && rulesVersion !== RULES_V3;
}

/** Whether a match under this rules version may pause a seat's turn clock (from `scopa-rules/5`). */
export function allowsClockPause(rulesVersion: string): boolean {
  return knowsVariants(rulesVersion) && rulesVersion !== RULES_V4;
}

/** Whether a match under this rules version may be aborted (from `scopa-rules/3`). */
export function allowsAbort(rulesVersion: string): boolean {
  return rulesVersion !== RULES_V1 && rulesVersion !== RULES_V2;
}

/** Whether a match under this rules version takes client seeds into its deal. */
export function takesClientSeeds(rulesVersion: string): boolean {
  return rulesVersion !== RULES_V1;
}
