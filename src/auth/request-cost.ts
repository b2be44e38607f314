/**
 * What a request costs in rate-limit units: the expensive GraphQL fields
 * (each selection counts, aliases and fragment spreads included) and their
 * REST twins. The rate-limit guard charges it; the GraphQL cost rule
 * (src/graphql/limits.ts) refuses a document beyond MAX_COST.
 */
import { Kind, getNamedType, isCompositeType, isInterfaceType, isObjectType } from 'graphql';
import type { FragmentDefinitionNode, GraphQLCompositeType, GraphQLSchema, OperationDefinitionNode, SelectionSetNode } from 'graphql';

/**
 * Rate-limit units of the expensive fields, as `Type.field`; every other
 * field is free, and a document costs at least 1 (the request). Each
 * selection counts, aliases and fragment spreads included.
 */
export const FIELD_COSTS: Readonly<Record<string, number>> = {
  'Query.hint': 5, // a search (ismcts: ~50 ms of the event loop) per call
  'Query.audit': 5, // re-decides every command of the match
  'Mutation.createMatch': 2,
  'Mutation.createSeek': 2, // may pair and create a match
  'Mutation.startMatch': 2, // deals, and the bots' due replies
  'Mutation.setClientSeed': 2, // the last seed missing deals a pending start
  'Mutation.acceptChallenge': 2, // creates and starts a match
  'Mutation.rematch': 2, // the last ask creates and starts a match
  'Mutation.saveCustomRuleset': 2,
  'Mutation.register': 1, // argon2id; also spends the login bucket
  'Mutation.login': 1,
  'Mutation.createApiToken': 1,
  'Mutation.createWebhook': 1,
  'Query.userMatches': 1, // a page of up to 100 finished matches
};

/** Fields that try a password or create an account: they also spend the stricter per-address login bucket (AUTH_RATE_LIMIT). */
export const AUTH_FIELDS: ReadonlySet<string> = new Set(['Mutation.register', 'Mutation.login']);

/** The same operations over REST, by OpenAPI operationId; every other route costs 1. */
export const ROUTE_COSTS: Readonly<Record<string, number>> = {
  hint: 5,
  auditMatch: 5,
  exportMatch: 5,
  createMatch: 2,
  createSeek: 2,
  startMatch: 2,
  setClientSeed: 2,
  acceptChallenge: 2,
  rematch: 2,
  saveCustomRuleset: 2,
  exportMatches: 10, // up to 100 exports in one request
  importMatch: 5, // audits the whole log
  userMatches: 2, // a page, or a whole archive as a stream
  streamEvents: 2, // opening the event stream reads every match in play of the caller (then it is held open: no further charge)
  streamLobby: 2, // opening the lobby stream reads every page of the lobby (then it is held open: no further charge)
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

/**
 * The cost of one operation, fragments expanded; stops counting beyond
 * `budget` (enough to refuse) or after `maxFields` fields (where free fields
 * fan out through fragments: the complexity rule refuses such a document).
 */
export function operationCost(schema: GraphQLSchema, operation: OperationDefinitionNode, fragments: Fragments, budget = Infinity, maxFields = Infinity): OperationCost {
  const out = { cost: 0, authAttempts: 0 };
  let fields = 0;
  const walk = (set: SelectionSetNode | undefined, parent: GraphQLCompositeType | null | undefined, seen: ReadonlySet<string>): void => {
    if (!set || !parent) return;
    for (const sel of set.selections) {
      if (out.cost > budget || fields > maxFields) return;
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
