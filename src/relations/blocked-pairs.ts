/**
 * The fragments other folders' statements embed to keep blocked pairs apart
 * in the very statement that decides (docs/social.md "Blocks"): the `blocks`
 * table's name and shape stay here (src/table-ownership.spec.ts), as the
 * match store's RUNNING_TURN_CLOCKS keeps `match_clocks` in its folder.
 *
 * This file imports nothing: a folder taking the fragment takes no other
 * dependency with it. The arguments are SQL expressions of type uuid (account
 * ids: a column such as `s.account_id`, or a parameter `$1::uuid`), written
 * in as they are: never pass a value from a request, only a column or a
 * placeholder.
 *
 * Seek pairing (src/lobby/seeks-store.ts) reads with each open seek the
 * players of its bucket it must not meet (BLOCKED_SEEK_PLAYERS), under the
 * bucket's lock, in the statement that locks the seeks: two instances
 * racing take the lock one after the other and each reads every block
 * committed before its statement.
 */

/** True when the accounts `a` and `b` (uuid expressions) are blocked either way (either blocked the other). */
export function blockedEitherWay(a: string, b: string): string {
  return `EXISTS (SELECT 1 FROM blocks scopa_blk
  WHERE (scopa_blk.blocker_id = ${a} AND scopa_blk.blocked_id = ${b}) OR (scopa_blk.blocker_id = ${b} AND scopa_blk.blocked_id = ${a}))`;
}

/**
 * The accounts blocked either way with `a` (a uuid expression), as a set for `x IN (...)` / `x NOT IN (...)`: every
 * account `a` blocked and every account that blocked `a`.
 */
export function blockedWith(a: string): string {
  return `(SELECT scopa_blk.blocked_id FROM blocks scopa_blk WHERE scopa_blk.blocker_id = ${a}
  UNION SELECT scopa_blk.blocker_id FROM blocks scopa_blk WHERE scopa_blk.blocked_id = ${a})`;
}
