/** Dealing rules that do not depend on the shuffle. */
import { RANK } from './cards';
import type { Card } from './cards';
import type { RulesetOptions } from './options';

/**
 * `redealKings` / `redealAces`: a first table holding at least that many
 * kings (or aces) is dealt again. Counted by rank: the matta is not wild here.
 */
export function mustRedeal(options: RulesetOptions, table: readonly Card[]): boolean {
  if (options.redealKings !== null) {
    let kings = 0;
    for (const c of table) if (RANK[c] === 10) kings++;
    if (kings >= options.redealKings) return true;
  }
  if (options.redealAces) {
    let aces = 0;
    for (const c of table) if (RANK[c] === 1) aces++;
    if (aces >= options.redealAces) return true;
  }
  return false;
}
