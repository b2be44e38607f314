/**
 * The shape of a scored round (contract, "Round and match"), as `scoreRound`
 * (src/engine/scoring.ts) records it in `RoundScored` and the views' `rounds`.
 *
 * This module imports nothing: the SDK ships a copy of it, made by
 * sdk/scripts/generate.mjs into sdk/src/generated/round-breakdown.ts (the
 * contracts type `view.rounds` as plain objects, so their shape comes from
 * here). Change it here and run `npm run contracts`.
 */

/** The awards a ruleset may enable. */
export type AwardName = 'cards' | 'denari' | 'settebello' | 'reBello' | 'primiera' | 'sevens' | 'piccola' | 'grande';

/** How one round was scored, one entry per side. */
export interface RoundBreakdown {
  /** Points per side this round: scope + awards + denari bonus. */
  points: number[];
  scope: number[];
  /** One key per award the ruleset enables: the winning side, or null (a tie). */
  awards: Partial<Record<AwardName, number | null>>;
  /** Primiera value per side (null = void), when primiera is enabled. */
  primiera?: (number | null)[];
  /** `denariBonus123` points per side, when enabled. */
  denariBonus?: number[];
  /** Points of the piccola (3 to 6, 0 when nobody holds it), when enabled; `awards.piccola` says who (the grande is worth 5). */
  piccolaPoints?: number;
  /**
   * Bonus scope per side, part of `scope`: the initial-table capture's and the
   * hand declarations', when the ruleset has either.
   */
  bonusScope?: number[];
  /** Cards and denari captured per side. */
  cardCounts: number[];
  denariCounts: number[];
  /** The side that took all ten denari this round, if any. */
  allDenari: number | null;
}
