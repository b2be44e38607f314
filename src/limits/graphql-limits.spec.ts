import { readFileSync } from 'node:fs';
import path from 'node:path';
import { buildSchema, parse, specifiedRules, validate } from 'graphql';
import type { OperationDefinitionNode } from 'graphql';
import { parse as parseYaml } from 'yaml';
import { AUTH_ROUTES, FIELD_COSTS, LIST_COSTS, ROUTE_COSTS, SMALL_LISTS, TOURNAMENT_PLAYERS_PRICED, maxCost, operationCost } from './request-cost';
import { costRule } from './graphql-limits';
import { loadConfig } from '../config/config';

/** The limits as an instance configured by this environment has them. */
const limits = loadConfig();

// The committed contracts (a contract test keeps them equal to what the code builds).
const schema = buildSchema(readFileSync(path.join(process.cwd(), 'schema.graphql'), 'utf8'));
const openapi = parseYaml(readFileSync(path.join(process.cwd(), 'openapi.yaml'), 'utf8')) as {
  paths: Record<string, Record<string, { operationId?: string }>>;
};

const costOf = (text: string) => {
  const doc = parse(text);
  const fragments = new Map(doc.definitions.flatMap((d) => (d.kind === 'FragmentDefinition' ? [[d.name.value, d] as const] : [])));
  return operationCost(schema, doc.definitions.find((d) => d.kind === 'OperationDefinition') as OperationDefinitionNode, fragments);
};

describe('the cost of a GraphQL document', () => {
  it('prices fields that exist: a renamed field cannot silently become free', () => {
    for (const key of Object.keys(FIELD_COSTS)) {
      const [type, field] = key.split('.');
      const fields = (schema.getType(type) as { getFields?: () => Record<string, unknown> } | undefined)?.getFields?.() ?? {};
      expect([key, field in fields]).toEqual([key, true]);
    }
    const operationIds = new Set(Object.values(openapi.paths).flatMap((ops) => Object.values(ops).map((op) => op.operationId)));
    for (const id of [...Object.keys(ROUTE_COSTS), ...AUTH_ROUTES]) expect([id, operationIds.has(id)]).toEqual([id, true]);
  });

  it('counts every alias and every fragment spread of an expensive field; a document costs at least 1', () => {
    expect(costOf('{ me { id } rulesets { id } }')).toEqual({ cost: 1, authAttempts: 0 });
    expect(costOf('query($m: ID!) { a: hint(matchId: $m) { card } b: hint(matchId: $m) { card } }').cost).toBe(2 * FIELD_COSTS['Query.hint']);
    expect(
      costOf(
        'query($m: ID!) { ...H ...H2 } fragment H on Query { x: hint(matchId: $m) { card } } fragment H2 on Query { ...H y: audit(matchId: $m) { checked } }',
      ).cost,
    ).toBe(2 * FIELD_COSTS['Query.hint'] + FIELD_COSTS['Query.audit']);
    const registers = `mutation { ${Array.from({ length: 3 }, (_, i) => `r${i}: register(input: { username: "u${i}", password: "p" }) { accessToken }`).join(' ')} login(input: { username: "u", password: "p" }) { accessToken } }`;
    expect(costOf(registers)).toEqual({ cost: 3 * FIELD_COSTS['Mutation.register'] + FIELD_COSTS['Mutation.login'], authAttempts: 4 });
  });

  it('refuses a document over the budget at validation, with VALIDATION_FAILED and the figures', () => {
    const n = Math.floor(maxCost(limits) / FIELD_COSTS['Query.hint']) + 1;
    const over = parse(`query($m: ID!) { ${Array.from({ length: n }, (_, i) => `h${i}: hint(matchId: $m) { card }`).join(' ')} }`);
    const [error] = validate(schema, over, [...specifiedRules, costRule(limits.GRAPHQL_MAX_COST, limits.GRAPHQL_MAX_COMPLEXITY)]);
    expect(error?.extensions).toMatchObject({ code: 'VALIDATION_FAILED', maxCost: maxCost(limits) });
    const within = parse(`query($m: ID!) { ${Array.from({ length: n - 1 }, (_, i) => `h${i}: hint(matchId: $m) { card }`).join(' ')} }`);
    expect(validate(schema, within, [...specifiedRules, costRule(limits.GRAPHQL_MAX_COST, limits.GRAPHQL_MAX_COMPLEXITY)])).toEqual([]);
  });
});

describe('the cost of the lists a document reads', () => {
  const STANDING = 'rank player matchPoints wins draws losses byes played buchholz sonnebornBerger gamePointsDifference duplicateScore performance withdrawn';
  const flood = (n: number) =>
    `query($id: ID!) { ${Array.from({ length: n }, (_, i) => `t${i}: tournament(id: $id) { standings { ${STANDING} } }`).join(' ')} }`;

  it('prices every list field of the schema, or names it a small list with its bound', () => {
    const lists: string[] = [];
    for (const type of Object.values(schema.getTypeMap())) {
      if (type.name.startsWith('__') || !('getFields' in type) || !('isTypeOf' in type)) continue;
      for (const field of Object.values((type as { getFields: () => Record<string, { type: unknown; name: string }> }).getFields())) {
        if (String(field.type).replace(/!$/, '').startsWith('[')) lists.push(`${type.name}.${field.name}`);
      }
    }
    const unpriced = lists.filter((key) => !(key in LIST_COSTS) && !(key in SMALL_LISTS));
    expect(unpriced).toEqual([]);
    // and each entry names a list of the schema (a renamed one cannot silently become free)
    for (const key of [...Object.keys(LIST_COSTS), ...Object.keys(SMALL_LISTS)]) expect([key, lists.includes(key)]).toEqual([key, true]);
  });

  it("prices a tournament's per-player lists at the largest tournament, before anything runs", () => {
    expect(costOf(`query($id: ID!) { tournament(id: $id) { id name status } }`).cost).toBe(1);
    expect(costOf(`query($id: ID!) { tournament(id: $id) { standings { ${STANDING} } } }`).cost).toBe(
      TOURNAMENT_PLAYERS_PRICED / LIST_COSTS['Tournament.standings'].itemsPerUnit,
    );
    // the document of issue 42: 60 aliases of a 256-player standings
    expect(costOf(flood(60)).cost).toBe(60 * 8);
    const [error] = validate(schema, parse(flood(60)), [...specifiedRules, costRule(limits.GRAPHQL_MAX_COST, limits.GRAPHQL_MAX_COMPLEXITY)]);
    expect(error?.extensions).toMatchObject({ code: 'VALIDATION_FAILED', maxCost: maxCost(limits) });
    // a round's tables: 128 of them at most
    expect(costOf(`query($id: ID!) { tournament(id: $id) { round(n: 1) { tables { players matchId points } } } }`).cost).toBe(4);
  });

  it('sizes a page by its argument (literal or variable), at most its largest; lists inside lists count once per item', () => {
    expect(costOf('{ matchEvents(matchId: "m") { seq } }').cost).toBe(1); // the default 100
    expect(costOf('{ matchEvents(matchId: "m", limit: 1000) { seq } }').cost).toBe(10);
    expect(costOf('{ matchEvents(matchId: "m", limit: 100000) { seq } }').cost).toBe(10); // refused by the service beyond 1000: priced at 1000
    expect(costOf('query($l: Int = 500) { myMatches(limit: $l) { id } }').cost).toBe(10);
    expect(costOf('{ tournaments(first: 5) { items { id } } }').cost).toBe(1);
    expect(costOf('{ tournaments(first: 100) { items { id } } }').cost).toBe(10);
    // 100 tournaments' standings are 100 standings
    expect(costOf('{ tournaments(first: 100) { items { standings { rank } } } }').cost).toBe(10 + 100 * 8);
    expect(costOf('{ tournaments { items { players { player } } } }').cost).toBe(2 + 20 * 2);
    // a fragment on the page sees the page's argument
    expect(costOf('{ tournaments(first: 50) { ...P } } fragment P on TournamentPage { items { id } }').cost).toBe(5);
    // small lists are free
    expect(costOf('query($id: ID!) { match(id: $id) { view { hand table seats { seat } sides { captured } } } }').cost).toBe(1);
  });
});
