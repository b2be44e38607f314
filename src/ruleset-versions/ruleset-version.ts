/**
 * A saved ruleset version as a match is created from it, and the statement
 * fragment that locks it in the match store's create statement (the match is
 * inserted only if the version still holds what the caller read, and that
 * same statement makes it immutable). The fragment keeps the rulesets table's
 * name and shape here, with its owner (src/table-ownership.spec.ts); this
 * file imports nothing, so the match store may import it.
 */

/** A saved ruleset version as read when a match was resolved from it. */
export interface RulesetVersionRef {
  id: string;
  preset: string;
  overrides: Record<string, unknown>;
}

/**
 * The CTEs `s`, `l` and `k` of a statement creating a match from version `id` (parameter texts, e.g.
 * '$11'), resolved by the caller as `preset` and `overrides`: `k` has the version's id when it holds
 * exactly that, locked now or before; no row otherwise. By the statement's snapshot the version was either
 * - unlocked (`s`): `l` locks it, its row lock making a concurrent in-place save wait and then find it
 *   locked (that save makes the next version instead); after waiting for a concurrent save, `l` checks
 *   the content again on the row as committed; a concurrent creation that locked it first is fine
 *   (COALESCE keeps its time; the row is unchanged);
 * - or locked: `k` finds it so, with that content (a locked version never changes).
 */
export const lockRulesetVersionCtes = (id: string, preset: string, overrides: string): string => `s AS (
  SELECT id FROM rulesets WHERE id = ${id}::uuid AND locked_at IS NULL
), l AS (
  UPDATE rulesets SET locked_at = COALESCE(rulesets.locked_at, now())
  FROM s WHERE rulesets.id = s.id AND rulesets.preset = ${preset}::text AND rulesets.overrides = ${overrides}::jsonb
  RETURNING rulesets.id
), k AS (
  SELECT id FROM l
  UNION ALL
  SELECT id FROM rulesets WHERE id = ${id}::uuid AND locked_at IS NOT NULL AND preset = ${preset}::text AND overrides = ${overrides}::jsonb
)`;
