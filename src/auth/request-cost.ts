/**
 * What a request costs in rate-limit units: the expensive GraphQL fields
 * (each selection counts, aliases and fragment spreads included) and their
 * REST twins. The rate-limit guard charges it; the GraphQL cost rule
 * (src/graphql/limits.ts) refuses a document beyond GRAPHQL_MAX_COST.
 */
import { Kind, getNamedType, isCompositeType, isInterfaceType, isObjectType, valueFromASTUntyped } from 'graphql';
import type { FieldNode, FragmentDefinitionNode, GraphQLCompositeType, GraphQLSchema, OperationDefinitionNode, SelectionSetNode } from 'graphql';
import { ARCHIVE_ROWS_PER_DOCUMENT, PAGE_DEFAULT, archivePageCost } from '../common/archive-limits';
import { appConfig } from '../config/config';

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
};

/**
 * Fields that read a page of a player's archive: they cost by the rows their
 * `max` asks for (archivePageCost, as the REST twin does), and count towards
 * the rows one document may read (ARCHIVE_ROWS_PER_DOCUMENT).
 */
export const ARCHIVE_PAGE_FIELDS: ReadonlySet<string> = new Set(['Query.userMatches']);

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
  userMatches: 2, // a whole archive as an NDJSON stream; a JSON page costs by its rows (archivePageCost)
  streamEvents: 2, // opening the event stream reads every match in play of the caller (then it is held open: no further charge)
  streamLobby: 2, // opening the lobby stream reads every page of the lobby (then it is held open: no further charge)
};
export const AUTH_ROUTES: ReadonlySet<string> = new Set(['register', 'login']);

/** Largest cost one document may have (units); beyond it: VALIDATION_FAILED before anything runs. */
export const maxCost = (): number => appConfig().GRAPHQL_MAX_COST;

export interface OperationCost {
  /** Rate-limit units (at least 1). */
  cost: number;
  /** How many login/register fields it selects. */
  authAttempts: number;
}

/** An operation's cost, with what it depends on and the archive rows it asks for. */
export interface OperationCharge extends OperationCost {
  /** Archive rows its pages ask for, all aliases together. */
  archiveRows: number;
  /** Whether a variable's value went into the figures (then they hold for these variables only). */
  dependsOnVariables: boolean;
}

type Fragments = ReadonlyMap<string, FragmentDefinitionNode> | Readonly<Record<string, FragmentDefinitionNode>>;

const fragmentOf = (fragments: Fragments, name: string): FragmentDefinitionNode | undefined =>
  fragments instanceof Map ? fragments.get(name) : (fragments as Record<string, FragmentDefinitionNode>)[name];

/**
 * The cost of one operation, fragments expanded; stops counting beyond
 * `budget` (enough to refuse) or after `maxFields` fields (where free fields
 * fan out through fragments: the complexity rule refuses such a document).
 * Without `variables` (at validation), an archive page whose `max` is a
 * variable counts as the variable's default, else the default page: the
 * least it can be, so that validation refuses only what is sure to be over.
 */
export function operationCharge(
  schema: GraphQLSchema,
  operation: OperationDefinitionNode,
  fragments: Fragments,
  budget = Infinity,
  maxFields = Infinity,
  variables?: Readonly<Record<string, unknown>>,
): OperationCharge {
  const out = { cost: 0, authAttempts: 0, archiveRows: 0, dependsOnVariables: false };
  let fields = 0;
  const defaults = new Map(operation.variableDefinitions?.map((d) => [d.variable.name.value, d.defaultValue ? valueFromASTUntyped(d.defaultValue) : undefined]));
  /** The rows an archive page field asks for: its `max`, a literal or a variable, else the default page. */
  const rowsOf = (field: FieldNode): number => {
    const arg = field.arguments?.find((a) => a.name.value === 'max')?.value;
    let max: unknown = undefined;
    if (arg?.kind === Kind.VARIABLE) {
      out.dependsOnVariables = true;
      max = variables ? variables[arg.name.value] : defaults.get(arg.name.value);
    } else if (arg) {
      max = valueFromASTUntyped(arg);
    }
    return typeof max === 'number' && Number.isFinite(max) && max > 0 ? max : PAGE_DEFAULT;
  };
  const walk = (set: SelectionSetNode | undefined, parent: GraphQLCompositeType | null | undefined, seen: ReadonlySet<string>): void => {
    if (!set || !parent) return;
    for (const sel of set.selections) {
      if (out.cost > budget || fields > maxFields) return;
      if (sel.kind === Kind.FIELD) {
        fields++;
        const def = isObjectType(parent) || isInterfaceType(parent) ? parent.getFields()[sel.name.value] : undefined;
        const key = `${parent.name}.${sel.name.value}`;
        if (ARCHIVE_PAGE_FIELDS.has(key)) {
          const rows = rowsOf(sel);
          out.archiveRows += rows;
          out.cost += archivePageCost(rows);
        } else {
          out.cost += FIELD_COSTS[key] ?? 0;
        }
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
  return { ...out, cost: Math.max(1, out.cost) };
}

/** The rate-limit units of one operation (operationCharge without its details). */
export function operationCost(schema: GraphQLSchema, operation: OperationDefinitionNode, fragments: Fragments, budget = Infinity, maxFields = Infinity): OperationCost {
  const { cost, authAttempts } = operationCharge(schema, operation, fragments, budget, maxFields);
  return { cost, authAttempts };
}

/** Why a document whose archive pages ask for more rows than one document may read is refused (at validation when the sizes are literals, else once its variables are known). */
export function tooManyArchiveRows(archiveRows: number): { message: string; details: Record<string, unknown> } {
  return {
    message: `this document asks for ${archiveRows} archive rows; one document may read at most ${ARCHIVE_ROWS_PER_DOCUMENT} (follow \`next\` for more)`,
    details: { archiveRows, maxArchiveRows: ARCHIVE_ROWS_PER_DOCUMENT },
  };
}
