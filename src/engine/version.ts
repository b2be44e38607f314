/**
 * Bumped whenever the outcome of any rule changes (a legal play, a deal, a
 * score). Matches record it, and replay refuses a log made under a version
 * this engine does not implement rather than replaying it under other rules.
 */
export const RULES_VERSION = 'scopa-rules/1';

export const SUPPORTED_RULES_VERSIONS: readonly string[] = [RULES_VERSION];
