/** Dealing rules that do not depend on the shuffle. */
import { RANK } from './cards';
import type { Card } from './cards';
import type { RulesetOptions } from './options';

/** `redealKings`: a first table holding at least that many kings is dealt again. */
export function mustRedeal(options: RulesetOptions, table: readonly Card[]): boolean {
  if (options.redealKings === null) return false;
  let kings = 0;
  for (const c of table) if (RANK[c] === 10) kings++;
  return kings >= options.redealKings;
}
