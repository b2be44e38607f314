/**
 * Refuses queries too deep, too wide or too costly before they run: a
 * depth rule, a complexity rule and a cost rule, all run at validation
 * (over graphql-ws once per query text). The cost is also what the
 * operation spends from the caller's rate-limit bucket.
 */
import { GraphQLError, Kind, getNamedType, isCompositeType, isInterfaceType, isObjectType } from 'graphql';
import type { ASTVisitor, FragmentDefinitionNode, GraphQLCompositeType, GraphQLSchema, OperationDefinitionNode, SelectionSetNode, ValidationContext } from 'graphql';

export const MAX_DEPTH = Number(process.env.GRAPHQL_MAX_DEPTH ?? 10);
/** Introspection (tools' standard query nests ofType deeply) gets its own, larger bound. */
export const MAX_INTROSPECTION_DEPTH = 16;
export const MAX_COMPLEXITY = Number(process.env.GRAPHQL_MAX_COMPLEXITY ?? 1000);

function refused(message: string, details: Record<string, unknown>): GraphQLError {
  return new GraphQLError(message, { extensions: { code: 'VALIDATION_FAILED', status: 400, ...details, http: { status: 400 } } });
}

/** Depth of the deepest field path, following fragment spreads (each counted once per path). */
export function depthLimitRule(max = MAX_DEPTH) {
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
        }
        else if (sel.kind === Kind.INLINE_FRAGMENT) d = depthOf(sel.selectionSet, seen);
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
 */
export function complexityRule(max = MAX_COMPLEXITY) {
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
 * Rate-limit units of the expensive fields, as `Type.field`; every other
 * field is free, and a document costs at least 1 (the request). Each
 * selection counts, aliases and fragment spreads included.
 */
export const FIELD_COSTS: Readonly<Record<string, number>> = {
  'Query.hint': 5, // a search (ismcts: ~50 ms of the event loop) per call
  'Query.audit': 5, // re-decides every command of the match
  'Mutation.createMatch': 2,
  'Mutation.startMatch': 2, // deals, and the bots' due replies
  'Mutation.saveCustomRuleset': 2,
  'Mutation.register': 1, // argon2id; also spends the login bucket
  'Mutation.login': 1,
  'Mutation.createApiToken': 1,
  'Mutation.createWebhook': 1,
};

/** Fields that try a password or create an account: they also spend the stricter per-address login bucket (AUTH_RATE_LIMIT). */
export const AUTH_FIELDS: ReadonlySet<string> = new Set(['Mutation.register', 'Mutation.login']);

/** The same operations over REST, by OpenAPI operationId; every other route costs 1. */
export const ROUTE_COSTS: Readonly<Record<string, number>> = {
  hint: 5,
  auditMatch: 5,
  exportMatch: 5,
  createMatch: 2,
  startMatch: 2,
  saveCustomRuleset: 2,
};
export const AUTH_ROUTES: ReadonlySet<string> = new Set(['register', 'login']);

/** Largest cost one document may have (units); beyond it: VALIDATION_FAILED before anything runs. */
export const MAX_COST = Number(process.env.GRAPHQL_MAX_COST ?? 50);

export interface OperationCost {
  /** Rate-limit units (at least 1). */
  cost: number;
  /** How many login/register fields it selects. */
  authAttempts: number;
}

type Fragments = ReadonlyMap<string, FragmentDefinitionNode> | Readonly<Record<string, FragmentDefinitionNode>>;

const fragmentOf = (fragments: Fragments, name: string): FragmentDefinitionNode | undefined =>
  fragments instanceof Map ? fragments.get(name) : (fragments as Record<string, FragmentDefinitionNode>)[name];

/** The cost of one operation, fragments expanded; stops counting beyond `budget` (enough to refuse). */
export function operationCost(schema: GraphQLSchema, operation: OperationDefinitionNode, fragments: Fragments, budget = Infinity): OperationCost {
  const out = { cost: 0, authAttempts: 0 };
  // bounds the walk where free fields fan out through fragments (the complexity rule refuses such a document)
  let fields = 0;
  const walk = (set: SelectionSetNode | undefined, parent: GraphQLCompositeType | null | undefined, seen: ReadonlySet<string>): void => {
    if (!set || !parent) return;
    for (const sel of set.selections) {
      if (out.cost > budget || fields > MAX_COMPLEXITY) return;
      if (sel.kind === Kind.FIELD) {
        fields++;
        const def = isObjectType(parent) || isInterfaceType(parent) ? parent.getFields()[sel.name.value] : undefined;
        const key = `${parent.name}.${sel.name.value}`;
        out.cost += FIELD_COSTS[key] ?? 0;
        if (AUTH_FIELDS.has(key)) out.authAttempts++;
        const type = def && getNamedType(def.type);
        if (sel.selectionSet && type && isCompositeType(type)) walk(sel.selectionSet, type, seen);
      } else if (sel.kind === Kind.INLINE_FRAGMENT) {
        const type = sel.typeCondition ? schema.getType(sel.typeCondition.name.value) : parent;
        walk(sel.selectionSet, type && isCompositeType(type) ? type : null, seen);
      } else if (!seen.has(sel.name.value)) {
        const fragment = fragmentOf(fragments, sel.name.value);
        const type = fragment && schema.getType(fragment.typeCondition.name.value);
        walk(fragment?.selectionSet, type && isCompositeType(type) ? type : null, new Set(seen).add(sel.name.value));
      }
    }
  };
  walk(operation.selectionSet, schema.getRootType(operation.operation), new Set());
  return { cost: Math.max(1, out.cost), authAttempts: out.authAttempts };
}

/** Refuses an operation whose cost exceeds the budget, before any of it runs (many aliases of `hint` or `register`...). */
export function costRule(max = MAX_COST) {
  return (context: ValidationContext): ASTVisitor => {
    const fragments = new Map<string, FragmentDefinitionNode>();
    for (const def of context.getDocument().definitions) if (def.kind === Kind.FRAGMENT_DEFINITION) fragments.set(def.name.value, def);
    return {
      OperationDefinition(node) {
        const { cost } = operationCost(context.getSchema(), node, fragments, max);
        if (cost > max) context.reportError(refused(`query cost ${cost}+ exceeds the budget of ${max} rate-limit units`, { cost, maxCost: max }));
      },
    };
  };
}
