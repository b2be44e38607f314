/**
 * What a request costs in rate-limit units: the expensive GraphQL fields
 * (each selection counts, aliases and fragment spreads included) and their
 * REST twins. The rate-limit guard charges it; the GraphQL cost rule
 * (src/limits/graphql-limits.ts) refuses a document beyond GRAPHQL_MAX_COST.
 */
import { Kind, getNamedType, isCompositeType, isInterfaceType, isObjectType, valueFromASTUntyped } from 'graphql';
import type { FieldNode, FragmentDefinitionNode, GraphQLCompositeType, GraphQLSchema, OperationDefinitionNode, SelectionSetNode } from 'graphql';
import { ARCHIVE_ROWS_PER_DOCUMENT, PAGE_DEFAULT, archivePageCost } from '../common/archive-limits';
import type { AppConfig } from '../config/config';

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
 * The most a tournament holds, as the tournaments feature caps it (a test
 * keeps these equal to its TOURNAMENT_MAX_PLAYERS and TOURNAMENT_INVITED_MAX):
 * the size a tournament's per-player lists are priced at before they run.
 */
export const TOURNAMENT_PLAYERS_PRICED = 256;
/** Tables of one round: half the players. */
export const TOURNAMENT_TABLES_PRICED = TOURNAMENT_PLAYERS_PRICED / 2;
/** Decisions an analysis result is priced at: ANALYSIS_MAX_DECISIONS's default, the most a new analysis holds (a scopa match to 11 has about 150). */
export const ANALYSIS_DECISIONS_PRICED = 2000;

/**
 * How a list field is priced: `max` items (or, with `arg`, what that
 * argument asks for: its own, or with `onParent` the argument of the field
 * that returned the list's parent, clamped to `max`, `default` when absent),
 * at one rate-limit unit per `itemsPerUnit` items. Selected inside another
 * list, a list counts once per item of the enclosing lists (a page of 100
 * tournaments' standings is 100 standings).
 */
export interface ListPrice {
  max: number;
  itemsPerUnit: number;
  arg?: string;
  default?: number;
  onParent?: boolean;
}

/**
 * Every list field that reads rows or computes a per-player table, as
 * `Type.field`, priced at the most it may return, so that a document's cost
 * is known before any of it runs. src/limits/graphql-limits.spec.ts checks that
 * every list field of the schema is here or in SMALL_LISTS.
 */
export const LIST_COSTS: Readonly<Record<string, ListPrice>> = {
  // tournaments: a 256-player Swiss's standings (tie-breaks over every round) cost 8, its round's tables 4
  'Tournament.standings': { max: TOURNAMENT_PLAYERS_PRICED, itemsPerUnit: 32 },
  'Tournament.players': { max: TOURNAMENT_PLAYERS_PRICED, itemsPerUnit: 128 },
  'Tournament.invited': { max: TOURNAMENT_PLAYERS_PRICED, itemsPerUnit: 128 },
  'TournamentRound.tables': { max: TOURNAMENT_TABLES_PRICED, itemsPerUnit: 32 },
  'TournamentPage.items': { max: 100, default: 20, arg: 'first', onParent: true, itemsPerUnit: 10 }, // each item is a tournament's log, folded
  // pages and logs sized by their arguments
  'Query.matchEvents': { max: 1000, default: 100, arg: 'limit', itemsPerUnit: 100 },
  'Query.myMatches': { max: 500, default: 50, arg: 'limit', itemsPerUnit: 50 },
  'Query.inbox': { max: 500, default: 50, arg: 'limit', itemsPerUnit: 50 },
  'Query.leaderboard': { max: 100, default: 10, arg: 'limit', itemsPerUnit: 50 },
  'Query.webhookDeliveries': { max: 500, default: 50, arg: 'limit', itemsPerUnit: 50 },
  'LobbyPage.matches': { max: 100, default: 20, arg: 'limit', onParent: true, itemsPerUnit: 50 },
  'ChatPage.items': { max: 100, default: 50, arg: 'first', onParent: true, itemsPerUnit: 100 },
  // follows (each entry asks presence whether that player is online) and my blocks
  'FollowPage.items': { max: 100, default: 20, arg: 'first', onParent: true, itemsPerUnit: 50 },
  'BlockPage.items': { max: 100, default: 20, arg: 'first', onParent: true, itemsPerUnit: 100 },
  // teams (src/teams): pages of teams and requests; a page of members reads their ratings too
  'TeamPage.items': { max: 100, default: 20, arg: 'first', onParent: true, itemsPerUnit: 50 },
  'TeamMemberPage.items': { max: 100, default: 20, arg: 'first', onParent: true, itemsPerUnit: 20 },
  'TeamRequestPage.items': { max: 100, default: 20, arg: 'first', onParent: true, itemsPerUnit: 50 },
  // moderators' pages (docs/social.md "Reports and moderation")
  'ReportPage.items': { max: 100, default: 20, arg: 'first', onParent: true, itemsPerUnit: 50 },
  'ModerationLogPage.items': { max: 100, default: 50, arg: 'first', onParent: true, itemsPerUnit: 50 },
  'Query.ratingHistory': { max: 1000, itemsPerUnit: 100 },
  // post-game analysis: every decision of the match
  'MatchAnalysisResult.decisions': { max: ANALYSIS_DECISIONS_PRICED, itemsPerUnit: 200 },
  // the caller's own rows: priced at 100 of them (a unit)
  'Query.apiTokens': { max: 100, itemsPerUnit: 100 },
  'Query.authorizedApps': { max: 100, itemsPerUnit: 100 },
  'Query.oauthApps': { max: 100, itemsPerUnit: 100 },
  'Query.myCustomRulesets': { max: 100, itemsPerUnit: 100 },
  'Query.mySeeks': { max: 100, itemsPerUnit: 100 },
  'Query.webhooks': { max: 100, itemsPerUnit: 100 },
  'Query.pushSubscriptions': { max: 20, itemsPerUnit: 100 }, // MAX_PUSH_SUBSCRIPTIONS
  'MyChallenges.in': { max: 100, itemsPerUnit: 100 },
  'MyChallenges.out': { max: 100, itemsPerUnit: 100 },
  'UserProfile.ratings': { max: 100, itemsPerUnit: 100 },
  'Crosstable.pools': { max: 100, itemsPerUnit: 100 },
  // every preset, resolved: 15 of them
  'Query.rulesets': { max: 16, itemsPerUnit: 16 },
  // an archive page: priced by Query.userMatches (ARCHIVE_PAGE_FIELDS); here for the lists inside it
  'UserMatchesPage.matches': { max: 100, default: PAGE_DEFAULT, arg: 'max', onParent: true, itemsPerUnit: Infinity },
};

/**
 * List fields that are free: a few cards, seats, scopes or names of one
 * object, at most `n` items each (used to count the lists inside them).
 */
export const SMALL_LISTS: Readonly<Record<string, number>> = {
  'Account.roles': 4,
  'AnalysisOption.capture': 40,
  'ChatRoom.participants': 2,
  'ApiToken.scopes': 16,
  'ArchivedMatch.players': 6,
  'ArchivedResult.totals': 6,
  'AuthorizedApp.scopes': 16,
  'CreatedWebhook.events': 16,
  'Crosstable.lastMatches': 10,
  'DecisionAnalysis.options': 64,
  'Hint.capture': 40,
  'LegalPlays.declarations': 16,
  'LegalPlays.plays': 64,
  'LobbyMatch.seats': 6,
  'Match.ratingChanges': 6,
  'MatchAnalysisResult.players': 6,
  'MatchSummary.seats': 6,
  'MatchView.clientSeeds': 6,
  'MatchView.hand': 40,
  'MatchView.seats': 6,
  'MatchView.sides': 6,
  'MatchView.table': 40,
  'OAuthApp.redirectUris': 16,
  'Play.capture': 40,
  'PlayerEvent.players': 6,
  'Preset.players': 6,
  'Preset.sources': 16,
  'RematchOffer.asked': 6,
  'RematchOffer.players': 6,
  'Reveal.captured': 6,
  'Reveal.deck': 40,
  'Reveal.hands': 6,
  'SeatAnalysis.costliest': 3,
  'SeatPublic.declared': 40,
  'SidePublic.captured': 40,
  'SidePublic.seats': 6,
  'Team.leaders': 10, // TEAM_LEADERS_MAX
  'TeamMember.ratings': 16, // TEAM_MEMBER_RATINGS
  'TournamentTable.players': 2,
  'TournamentTable.points': 2,
  'Webhook.events': 16,
  'PushSubscription.kinds': 5,
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
export const maxCost = (config: Pick<AppConfig, 'GRAPHQL_MAX_COST'>): number => config.GRAPHQL_MAX_COST;
/** Largest cost of an anonymous document (no credential): lower, since an address is all that pays for it. */
export const maxAnonymousCost = (config: Pick<AppConfig, 'GRAPHQL_MAX_COST' | 'GRAPHQL_MAX_COST_ANONYMOUS'>): number =>
  Math.min(config.GRAPHQL_MAX_COST_ANONYMOUS, config.GRAPHQL_MAX_COST);

/** Why a document over its budget is refused (VALIDATION_FAILED), with the figures (`credentialMax`: the budget with a credential, named to an anonymous caller). */
export function overBudget(cost: number, max: number, anonymous: boolean, credentialMax = max): { message: string; details: Record<string, unknown> } {
  return {
    message: anonymous
      ? `query cost ${cost} exceeds the budget of ${max} rate-limit units of an anonymous document (with a credential: ${credentialMax})`
      : `query cost ${cost}+ exceeds the budget of ${max} rate-limit units`,
    details: anonymous ? { cost, maxCost: max, anonymous: true } : { cost, maxCost: max },
  };
}

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
  /** The units of its login/register fields (anonymous by nature, and held to the login bucket: not counted against the anonymous budget). */
  authCost: number;
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
  const out = { cost: 0, authAttempts: 0, archiveRows: 0, dependsOnVariables: false, authCost: 0 };
  let fields = 0;
  const defaults = new Map(
    operation.variableDefinitions?.map((d) => [d.variable.name.value, d.defaultValue ? valueFromASTUntyped(d.defaultValue) : undefined]),
  );
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
  /** An argument's value: a literal, or a variable's (its default at validation). */
  const argOf = (field: FieldNode | undefined, name: string): unknown => {
    const arg = field?.arguments?.find((a) => a.name.value === name)?.value;
    if (!arg) return undefined;
    if (arg.kind === Kind.VARIABLE) {
      out.dependsOnVariables = true;
      return variables ? variables[arg.name.value] : defaults.get(arg.name.value);
    }
    return valueFromASTUntyped(arg);
  };
  /** The items a priced list may return: its most, or what its argument asks for (at most its most). */
  const sizeOf = (price: ListPrice, field: FieldNode, parentField: FieldNode | undefined): number => {
    if (!price.arg) return price.max;
    const asked = argOf(price.onParent ? parentField : field, price.arg);
    const n = typeof asked === 'number' && Number.isFinite(asked) && asked > 0 ? Math.ceil(asked) : (price.default ?? price.max);
    return Math.min(n, price.max);
  };
  /** `times`: how many objects of `parent` the selection runs on (the product of the enclosing lists' sizes). */
  const walk = (
    set: SelectionSetNode | undefined,
    parent: GraphQLCompositeType | null | undefined,
    seen: ReadonlySet<string>,
    times: number,
    parentField: FieldNode | undefined,
  ): void => {
    if (!set || !parent) return;
    for (const sel of set.selections) {
      if (out.cost > budget || fields > maxFields) return;
      if (sel.kind === Kind.FIELD) {
        fields++;
        const def = isObjectType(parent) || isInterfaceType(parent) ? parent.getFields()[sel.name.value] : undefined;
        const key = `${parent.name}.${sel.name.value}`;
        if (ARCHIVE_PAGE_FIELDS.has(key)) {
          const rows = rowsOf(sel);
          out.archiveRows += rows * times;
          out.cost += archivePageCost(rows) * times;
        } else {
          out.cost += (FIELD_COSTS[key] ?? 0) * times;
        }
        let items = 1;
        const price = LIST_COSTS[key];
        if (price) {
          items = sizeOf(price, sel, parentField);
          out.cost += (times * items) / price.itemsPerUnit;
        } else if (key in SMALL_LISTS) {
          items = SMALL_LISTS[key];
        }
        if (AUTH_FIELDS.has(key)) {
          out.authAttempts++;
          out.authCost += (FIELD_COSTS[key] ?? 0) * times;
        }
        const type = def && getNamedType(def.type);
        if (sel.selectionSet && type && isCompositeType(type)) walk(sel.selectionSet, type, seen, times * items, sel);
      } else if (sel.kind === Kind.INLINE_FRAGMENT) {
        const type = sel.typeCondition ? schema.getType(sel.typeCondition.name.value) : parent;
        walk(sel.selectionSet, type && isCompositeType(type) ? type : null, seen, times, parentField);
      } else if (!seen.has(sel.name.value)) {
        const fragment = fragmentOf(fragments, sel.name.value);
        const type = fragment && schema.getType(fragment.typeCondition.name.value);
        walk(fragment?.selectionSet, type && isCompositeType(type) ? type : null, new Set(seen).add(sel.name.value), times, parentField);
      }
    }
  };
  walk(operation.selectionSet, schema.getRootType(operation.operation), new Set(), 1, undefined);
  // Lists add fractions of a unit: a document pays the whole units they come to (the 1e-9 absorbs float sums such as 0.1 + 0.2).
  return { ...out, cost: Math.max(1, Math.ceil(out.cost - 1e-9)) };
}

/** The rate-limit units of one operation (operationCharge without its details). */
export function operationCost(
  schema: GraphQLSchema,
  operation: OperationDefinitionNode,
  fragments: Fragments,
  budget = Infinity,
  maxFields = Infinity,
): OperationCost {
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
