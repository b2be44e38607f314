/**
 * Every enum of openapi.yaml has the same values as its GraphQL twin, and
 * every GraphQL enum field or argument is an enum with those values in
 * openapi.yaml. Twins: a component schema `XModel` (or `X`) and the GraphQL
 * type `X`, property and field of the same name; a REST query parameter and
 * the argument of the same name of the GraphQL field in PARAMETER_TWINS.
 * Reads the committed contracts (test/contract.e2e-spec.ts keeps them equal
 * to what the code builds).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { buildSchema, getNamedType, isEnumType, isInputObjectType, isObjectType } from 'graphql';
import type { GraphQLField, GraphQLInputField, GraphQLNamedType, GraphQLSchema } from 'graphql';
import { parse } from 'yaml';

type Json = Record<string, any>;

/** REST operation -> the GraphQL field with the same arguments. */
const PARAMETER_TWINS: Record<string, string> = {
  listMyMatches: 'Query.myMatches',
  hint: 'Query.hint',
  userMatches: 'Query.userMatches',
  leaderboard: 'Query.leaderboard',
  ratingHistory: 'Query.ratingHistory',
  crosstable: 'Query.crosstable',
  matchEvents: 'Query.matchEvents',
  getMatch: 'Query.match',
  inbox: 'Query.inbox',
  listWebhookDeliveries: 'Query.webhookDeliveries',
  lobby: 'Query.lobby',
  streamLobby: 'Subscription.lobby',
  listTournaments: 'Query.tournaments',
  listReports: 'Query.reports',
};

/** REST schemas whose GraphQL twin has another name than the schema without `Model`. */
const SCHEMA_TWINS: Record<string, string> = {
  // a line of GET /v1/stream/lobby is what the `lobby` subscription sends
  LobbyStreamLineModel: 'LobbyChange',
  // a line of GET /v1/tournaments/{id}/matches is a TournamentTable with its round
  TournamentMatchLineModel: 'TournamentTable',
};

/**
 * GraphQL enums whose wire values cannot be spelled as in REST (a GraphQL name has no `:`):
 * the documented spelling rule, applied to the GraphQL names before comparing.
 * Scope: `match_play` in GraphQL is `match:play` in REST (src/auth/auth.model.ts).
 */
const GRAPHQL_SPELLING: Record<string, (value: string) => string> = {
  Scope: (v) => v.replace('_', ':'),
};

/** Schemas of REST only (no GraphQL twin) whose enums have nothing to match. */
// DeclineChallengeInput: REST's body of POST /v1/challenges/{id}/decline; GraphQL takes its `reason` as an argument of Mutation.declineChallenge (checked below).
const REST_ONLY = new Set([
  'DeclineChallengeInput',
  'BatchExportInput',
  'ImportInput',
  'ImportResultModel',
  'Problem',
  'IllegalPlayProblem',
  'InvalidRulesetProblem',
  'RateLimitedProblem',
  'ExportPublicKeyModel',
  // The operators' dead-letter listing (GET /v1/admin/jobs) is REST only: no client of the game reads it.
  'AdminJobModel',
]);

/** REST enum query parameters whose GraphQL twin is a field of an input (`operation(parameter)` -> `Input.field`). */
const PARAMETER_INPUT_TWINS: Record<string, string> = {
  // a match's chat room: ?room=players|spectators is ChatRoomInput's matchRoom (the input names the match too)
  'matchChat(room)': 'ChatRoomInput.matchRoom',
  'sendMatchChat(room)': 'ChatRoomInput.matchRoom',
};

/** Operations with enum query parameters and no GraphQL twin, on purpose. */
const REST_ONLY_OPERATIONS = new Set(['listFailedJobs']);

const GRAPHQL_NAME = /^[_A-Za-z][_0-9A-Za-z]*$/;
const sorted = (values: readonly unknown[]): string[] => values.map(String).sort();
// A nullable enum lists null among its values (as OpenAPI 3.0.3 reads `nullable`); GraphQL says nullable on the field, not in the enum.
const valuesOf = (values: unknown[]): string[] => sorted(values.filter((v) => v !== null) as string[]);
const enumOfSchema = (s: Json | undefined): string[] | null => (s?.enum ? valuesOf(s.enum) : s?.items?.enum ? valuesOf(s.items.enum) : null);
const enumOfType = (t: GraphQLNamedType): string[] | null =>
  isEnumType(t) ? sorted(t.getValues().map((v) => (GRAPHQL_SPELLING[t.name] ?? String)(v.value as string))) : null;

export function enumMismatches(doc: Json, schema: GraphQLSchema): string[] {
  const problems: string[] = [];
  const compare = (where: string, rest: Json | undefined, gqlType: GraphQLNamedType): void => {
    const a = enumOfSchema(rest);
    const b = enumOfType(gqlType);
    if (a === null && b === null) return;
    // GraphQL enum values are names: a set with numbers (players) or hyphens (preset ids) stays an Int or a String there.
    if (b === null && a !== null && !a.every((v) => GRAPHQL_NAME.test(v)) && ['Int', 'String', 'ID'].includes(gqlType.name)) return;
    if (JSON.stringify(a) !== JSON.stringify(b)) problems.push(`${where}: OpenAPI ${JSON.stringify(a)} vs GraphQL ${gqlType.name} ${JSON.stringify(b)}`);
  };
  for (const [name, s] of Object.entries(doc.components.schemas as Record<string, Json>)) {
    if (REST_ONLY.has(name)) continue;
    const twinName = SCHEMA_TWINS[name] ?? name.replace(/Model$/, '');
    const twin = schema.getType(twinName);
    if (!twin || !(isObjectType(twin) || isInputObjectType(twin))) {
      // a REST-only shape: nothing to compare, unless it has an enum that should have a twin
      const enums = Object.entries((s.properties ?? {}) as Record<string, Json>).filter(([, ps]) => enumOfSchema(ps));
      if (enums.length)
        problems.push(`${name}: enums (${enums.map(([p]) => p).join(', ')}) and no GraphQL twin ${twinName} (add it to REST_ONLY if it is REST only)`);
      continue;
    }
    const fields = twin.getFields() as Record<string, GraphQLField<unknown, unknown> | GraphQLInputField>;
    for (const [prop, ps] of Object.entries((s.properties ?? {}) as Record<string, Json>)) {
      const field = fields[prop];
      if (field) compare(`${name}.${prop}`, ps, getNamedType(field.type));
      else if (enumOfSchema(ps)) problems.push(`${name}.${prop}: an enum with no GraphQL field ${twinName}.${prop}`);
    }
    // and the other way: a GraphQL enum field whose REST property is missing is reported too
    for (const [fname, field] of Object.entries(fields)) {
      if (!(fname in (s.properties ?? {})) && isEnumType(getNamedType(field.type)))
        problems.push(`${twinName}.${fname}: a GraphQL enum field missing from ${name}`);
    }
  }
  for (const item of Object.values(doc.paths as Record<string, Json>)) {
    for (const op of Object.values(item) as Json[]) {
      const params = ((op.parameters ?? []) as Json[]).filter((p) => p.in === 'query');
      const twinPath = PARAMETER_TWINS[op.operationId];
      if (REST_ONLY_OPERATIONS.has(op.operationId)) continue;
      if (!twinPath) {
        for (const p of params) {
          const inputTwin = PARAMETER_INPUT_TWINS[`${op.operationId}(${p.name})`];
          if (inputTwin) {
            const [inputName, inputField] = inputTwin.split('.');
            const input = schema.getType(inputName);
            const field = input && isInputObjectType(input) ? input.getFields()[inputField] : undefined;
            if (field) compare(`${op.operationId}(${p.name})`, p.schema, getNamedType(field.type));
            else problems.push(`${op.operationId}(${p.name}): no GraphQL input field ${inputTwin}`);
          } else if (enumOfSchema(p.schema)) problems.push(`${op.operationId}(${p.name}): an enum parameter; name its GraphQL twin in PARAMETER_TWINS`);
        }
        continue;
      }
      const [typeName, fieldName] = twinPath.split('.');
      const field = (schema.getType(typeName) as ReturnType<GraphQLSchema['getQueryType']>)?.getFields()[fieldName];
      if (!field) {
        problems.push(`${op.operationId}: no GraphQL field ${twinPath}`);
        continue;
      }
      for (const p of params) {
        const arg = field.args.find((a) => a.name === p.name);
        if (arg) compare(`${op.operationId}(${p.name})`, p.schema, getNamedType(arg.type));
        else if (enumOfSchema(p.schema)) problems.push(`${op.operationId}(${p.name}): no argument ${twinPath}(${p.name})`);
      }
      for (const arg of field.args) {
        if (isEnumType(getNamedType(arg.type)) && !params.some((p) => p.name === arg.name))
          problems.push(`${twinPath}(${arg.name}): a GraphQL enum argument with no REST parameter in ${op.operationId}`);
      }
    }
  }
  return problems;
}

describe('enums: openapi.yaml and schema.graphql agree', () => {
  const doc = parse(readFileSync(path.join(process.cwd(), 'openapi.yaml'), 'utf8')) as Json;
  const schema = buildSchema(readFileSync(path.join(process.cwd(), 'schema.graphql'), 'utf8'));

  it('every enum has the same values on both sides (onExpiry, status, phase, bot levels, seat types, scopes, webhook events...)', () => {
    expect(enumMismatches(doc, schema)).toEqual([]);
  });

  it('the comparison catches a drift: a value missing on one side, a GraphQL enum that is a plain string in OpenAPI', () => {
    const mutated = structuredClone(doc);
    mutated.components.schemas.CreateMatchInput.properties.onExpiry.enum = ['autoPlay'];
    delete mutated.components.schemas.MatchModel.properties.status.enum;
    mutated.components.schemas.MatchModel.properties.status.type = 'string';
    const problems = enumMismatches(mutated, schema);
    expect(problems).toEqual([expect.stringContaining('CreateMatchInput.onExpiry'), expect.stringContaining('MatchModel.status')]);
  });

  it('the enums a client relies on are enums on both sides', () => {
    const fields: [string, string, string][] = [
      ['CreateMatchInput', 'onExpiry', 'OnExpiry'],
      ['MatchSettings', 'onExpiry', 'OnExpiry'],
      ['Match', 'status', 'MatchStatus'],
      ['MatchSummary', 'status', 'MatchStatus'],
      ['MatchView', 'phase', 'MatchPhase'],
      ['Hint', 'level', 'BotLevel'],
    ];
    for (const [type, field, enumName] of fields) {
      const t = schema.getType(type);
      const f = (isObjectType(t) || isInputObjectType(t) ? t.getFields() : {})[field] as GraphQLInputField | undefined;
      expect(`${type}.${field}: ${f ? getNamedType(f.type).name : 'missing'}`).toBe(`${type}.${field}: ${enumName}`);
    }
  });

  it("a REST body's enum whose GraphQL twin is an argument: the decline reasons", () => {
    const arg = schema
      .getMutationType()!
      .getFields()
      .declineChallenge.args.find((a) => a.name === 'reason')!;
    expect(enumOfType(getNamedType(arg.type))).toEqual(enumOfSchema(doc.components.schemas.DeclineChallengeInput.properties.reason));
    expect(enumOfType(getNamedType(arg.type))).toContain('tooFast');
  });
});
