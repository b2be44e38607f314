/**
 * Refuses queries too deep, too wide or too costly before they run: a
 * depth rule, a complexity rule and a cost rule, all run at validation
 * (over graphql-ws once per query text). The cost is also what the
 * operation spends from the caller's rate-limit bucket.
 */
import { GraphQLError, Kind } from 'graphql';
import type { ASTVisitor, FragmentDefinitionNode, SelectionSetNode, ValidationContext } from 'graphql';
import { operationCharge, tooManyArchiveRows } from './request-cost';
import { ARCHIVE_ROWS_PER_DOCUMENT } from '../common/archive-limits';
import type { AppConfig } from '../config/config';

/** Introspection (tools' standard query nests ofType deeply) gets its own, larger bound. */
export const MAX_INTROSPECTION_DEPTH = 16;

function refused(message: string, details: Record<string, unknown>): GraphQLError {
  return new GraphQLError(message, { extensions: { code: 'VALIDATION_FAILED', status: 400, ...details, http: { status: 400 } } });
}

/** Depth of the deepest field path, following fragment spreads (each counted once per path); at most `max` (GRAPHQL_MAX_DEPTH). */
export function depthLimitRule(max: number) {
  return (context: ValidationContext): ASTVisitor => {
    const fragments = new Map<string, FragmentDefinitionNode>();
    for (const def of context.getDocument().definitions) if (def.kind === Kind.FRAGMENT_DEFINITION) fragments.set(def.name.value, def);
    const depthOf = (set: SelectionSetNode | undefined, seen: Set<string>): number => {
      if (!set) return 0;
      let deepest = 0;
      for (const sel of set.selections) {
        let d = 0;
        if (sel.kind === Kind.FIELD) {
          if (sel.name.value === '__typename') continue;
          d = 1 + depthOf(sel.selectionSet, seen);
          if (sel.name.value.startsWith('__')) d = Math.ceil((d * max) / MAX_INTROSPECTION_DEPTH); // scaled to the regular bound
        } else if (sel.kind === Kind.INLINE_FRAGMENT) d = depthOf(sel.selectionSet, seen);
        else if (sel.kind === Kind.FRAGMENT_SPREAD) {
          const name = sel.name.value;
          if (seen.has(name)) continue; // cycles are reported by NoFragmentCycles
          d = depthOf(fragments.get(name)?.selectionSet, new Set(seen).add(name));
        }
        if (d > deepest) deepest = d;
        if (deepest > max) break;
      }
      return deepest;
    };
    return {
      OperationDefinition(node) {
        const depth = depthOf(node.selectionSet, new Set());
        if (depth > max) context.reportError(refused(`query depth ${depth} exceeds the limit of ${max}`, { depth, maxDepth: max }));
      },
    };
  };
}

/**
 * Complexity: the number of fields the query selects once every fragment is
 * expanded (aliases count again), so many aliases or fragment fan-out cannot
 * multiply the work. (graphql-query-complexity's rule needs the variables,
 * which a validation rule never sees: it fails on required variables.)
 * The bound is `max` (GRAPHQL_MAX_COMPLEXITY).
 */
export function complexityRule(max: number) {
  return (context: ValidationContext): ASTVisitor => {
    const fragments = new Map<string, FragmentDefinitionNode>();
    for (const def of context.getDocument().definitions) if (def.kind === Kind.FRAGMENT_DEFINITION) fragments.set(def.name.value, def);
    const countOf = (set: SelectionSetNode | undefined, seen: Set<string>, budget: number): number => {
      if (!set) return 0;
      let total = 0;
      for (const sel of set.selections) {
        if (sel.kind === Kind.FIELD) total += 1 + countOf(sel.selectionSet, seen, budget - total);
        else if (sel.kind === Kind.INLINE_FRAGMENT) total += countOf(sel.selectionSet, seen, budget - total);
        else if (!seen.has(sel.name.value)) total += countOf(fragments.get(sel.name.value)?.selectionSet, new Set(seen).add(sel.name.value), budget - total);
        if (total > budget) break; // enough to refuse: stop expanding
      }
      return total;
    };
    return {
      OperationDefinition(node) {
        const complexity = countOf(node.selectionSet, new Set(), max);
        if (complexity > max) context.reportError(refused(`query complexity ${complexity}+ exceeds the limit of ${max}`, { complexity, maxComplexity: max }));
      },
    };
  };
}

/**
 * Refuses an operation whose cost exceeds the budget `max` (GRAPHQL_MAX_COST), before any of it runs
 * (many aliases of `hint` or `register`...); counting stops at `maxFields` (GRAPHQL_MAX_COMPLEXITY) fields.
 */
export function costRule(max: number, maxFields: number) {
  return (context: ValidationContext): ASTVisitor => {
    const fragments = new Map<string, FragmentDefinitionNode>();
    for (const def of context.getDocument().definitions) if (def.kind === Kind.FRAGMENT_DEFINITION) fragments.set(def.name.value, def);
    return {
      OperationDefinition(node) {
        const { cost, archiveRows } = operationCharge(context.getSchema(), node, fragments, max, maxFields);
        if (cost > max) context.reportError(refused(`query cost ${cost}+ exceeds the budget of ${max} rate-limit units`, { cost, maxCost: max }));
        else if (archiveRows > ARCHIVE_ROWS_PER_DOCUMENT) {
          const { message, details } = tooManyArchiveRows(archiveRows);
          context.reportError(refused(message, details));
        }
      },
    };
  };
}

/** The three rules at the limits the instance was configured with (Apollo, graphql-ws, graphql-sse and the precheck share them). */
export function documentLimitRules(config: Pick<AppConfig, 'GRAPHQL_MAX_DEPTH' | 'GRAPHQL_MAX_COMPLEXITY' | 'GRAPHQL_MAX_COST'>) {
  return [
    depthLimitRule(config.GRAPHQL_MAX_DEPTH),
    complexityRule(config.GRAPHQL_MAX_COMPLEXITY),
    costRule(config.GRAPHQL_MAX_COST, config.GRAPHQL_MAX_COMPLEXITY),
  ];
}
