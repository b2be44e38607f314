/**
 * The scored rounds of a match. The contract types `view.rounds` as plain
 * objects (`openapi.yaml`: an array of `object`; GraphQL: `JSON`), so their
 * shape comes from the service's engine: `RoundBreakdown` and `AwardName` are
 * src/engine/round-breakdown.ts, copied by scripts/generate.mjs.
 */
import type { MatchView } from './client.js';
import type { RoundBreakdown } from './generated/round-breakdown.js';

export type { AwardName, RoundBreakdown } from './generated/round-breakdown.js';

/** A scored round of `view.rounds`. */
export interface ScoredRound {
  round: number;
  breakdown: RoundBreakdown;
}

/** `view.rounds` with its shape: the rounds scored so far, oldest first. */
export function scoredRounds(view: Pick<MatchView, 'rounds'>): ScoredRound[] {
  return view.rounds as unknown as ScoredRound[];
}
