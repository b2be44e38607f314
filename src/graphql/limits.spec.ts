import { readFileSync } from 'node:fs';
import path from 'node:path';
import { buildSchema, parse, specifiedRules, validate } from 'graphql';
import type { OperationDefinitionNode } from 'graphql';
import { parse as parseYaml } from 'yaml';
import { AUTH_ROUTES, FIELD_COSTS, ROUTE_COSTS, maxCost, operationCost } from '../auth/request-cost';
import { costRule } from './limits';

// The committed contracts (a contract test keeps them equal to what the code builds).
const schema = buildSchema(readFileSync(path.join(process.cwd(), 'schema.graphql'), 'utf8'));
const openapi = parseYaml(readFileSync(path.join(process.cwd(), 'openapi.yaml'), 'utf8')) as { paths: Record<string, Record<string, { operationId?: string }>> };

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
    expect(costOf('query($m: ID!) { ...H ...H2 } fragment H on Query { x: hint(matchId: $m) { card } } fragment H2 on Query { ...H y: audit(matchId: $m) { checked } }').cost).toBe(
      2 * FIELD_COSTS['Query.hint'] + FIELD_COSTS['Query.audit'],
    );
    const registers = `mutation { ${Array.from({ length: 3 }, (_, i) => `r${i}: register(input: { username: "u${i}", password: "p" }) { accessToken }`).join(' ')} login(input: { username: "u", password: "p" }) { accessToken } }`;
    expect(costOf(registers)).toEqual({ cost: 3 * FIELD_COSTS['Mutation.register'] + FIELD_COSTS['Mutation.login'], authAttempts: 4 });
  });

  it('refuses a document over the budget at validation, with VALIDATION_FAILED and the figures', () => {
    const n = Math.floor(maxCost() / FIELD_COSTS['Query.hint']) + 1;
    const over = parse(`query($m: ID!) { ${Array.from({ length: n }, (_, i) => `h${i}: hint(matchId: $m) { card }`).join(' ')} }`);
    const [error] = validate(schema, over, [...specifiedRules, costRule()]);
    expect(error?.extensions).toMatchObject({ code: 'VALIDATION_FAILED', maxCost: maxCost() });
    const within = parse(`query($m: ID!) { ${Array.from({ length: n - 1 }, (_, i) => `h${i}: hint(matchId: $m) { card }`).join(' ')} }`);
    expect(validate(schema, within, [...specifiedRules, costRule()])).toEqual([]);
  });
});
