/**
 * Operations generated from schema.graphql: every field of Query, Mutation
 * and Subscription (the last sent over plain HTTP on purpose), its arguments
 * as variables drawn from their types, mutated some of the time, with a
 * selection of the returned type's fields.
 */
import fc from 'fast-check';
import { getNamedType, isEnumType, isInputObjectType, isListType, isNonNullType, isObjectType, isScalarType } from 'graphql';
import type { GraphQLField, GraphQLInputType, GraphQLNamedType, GraphQLSchema } from 'graphql';
import { hostileString, hostileValue, maybeHostile } from './arbitraries';

export interface FuzzOperation {
  query: string;
  variables: Record<string, unknown>;
  field: string;
}

export interface GraphQLFuzzContext {
  knownIds: () => string[];
}

const SKIPPED = new Set(['logout', 'logoutEverywhere', 'logoutAll']);

function knownId(ctx: GraphQLFuzzContext): fc.Arbitrary<string> {
  return fc.constant(null).chain(() => (ctx.knownIds().length ? fc.constantFrom(...ctx.knownIds()) : fc.uuid()));
}

function scalarValue(name: string, argName: string, ctx: GraphQLFuzzContext): fc.Arbitrary<unknown> {
  switch (name) {
    case 'Int':
      return fc.oneof(fc.integer({ min: -2, max: 50 }), fc.constantFrom(2 ** 31 - 1, -(2 ** 31)));
    case 'Float':
      return fc.double({ noNaN: true, noDefaultInfinity: true });
    case 'Boolean':
      return fc.boolean();
    case 'ID':
      return fc.oneof(knownId(ctx), fc.uuid());
    case 'JSON':
      return fc.oneof(fc.constant({ target: 3 }), fc.dictionary(hostileString, hostileValue, { maxKeys: 3 }));
    default:
      return /id$/i.test(argName) ? fc.oneof(knownId(ctx), hostileString) : fc.oneof(fc.string({ maxLength: 20 }), fc.constantFrom('scopa', 'scopone', 'PT1H'));
  }
}

/** Values of an input type; hostile ones some of the time (GraphQL must refuse the ill-typed ones as BAD_USER_INPUT). */
export function inputValue(type: GraphQLInputType, argName: string, ctx: GraphQLFuzzContext, depth = 0): fc.Arbitrary<unknown> {
  if (isNonNullType(type)) return inputValue(type.ofType, argName, ctx, depth);
  if (depth > 4) return fc.constant(null);
  if (isListType(type)) return maybeHostile(fc.array(inputValue(type.ofType, argName, ctx, depth + 1), { maxLength: 4 }));
  if (isEnumType(type)) return maybeHostile(fc.constantFrom(...type.getValues().map((v) => v.name)));
  if (isInputObjectType(type)) {
    const record: Record<string, fc.Arbitrary<unknown>> = {};
    const required: string[] = [];
    for (const f of Object.values(type.getFields())) {
      record[f.name] = inputValue(f.type, f.name, ctx, depth + 1);
      if (isNonNullType(f.type)) required.push(f.name);
    }
    return maybeHostile(fc.record(record, { requiredKeys: required }));
  }
  if (isScalarType(type)) return maybeHostile(scalarValue(type.name, argName, ctx));
  return hostileValue;
}

/** A selection of the named type's fields: leaves, and one level of objects. */
function selection(type: GraphQLNamedType, depth = 0): string {
  if (!isObjectType(type)) return isScalarType(type) || isEnumType(type) ? '' : '{ __typename }';
  const parts: string[] = [];
  for (const f of Object.values(type.getFields())) {
    if (f.args.some((a) => isNonNullType(a.type))) continue;
    const named = getNamedType(f.type);
    if (isScalarType(named) || isEnumType(named)) parts.push(f.name);
    else if (depth < 2) parts.push(`${f.name} ${selection(named, depth + 1)}`);
  }
  return `{ ${parts.length ? parts.join(' ') : '__typename'} }`;
}

function operation(kind: 'query' | 'mutation' | 'subscription', field: GraphQLField<unknown, unknown>, ctx: GraphQLFuzzContext): fc.Arbitrary<FuzzOperation> {
  const args = field.args;
  const vars = args.map((a) => `$${a.name}: ${a.type.toString()}`).join(', ');
  const call = args.length ? `(${args.map((a) => `${a.name}: $${a.name}`).join(', ')})` : '';
  const query = `${kind} Fuzz${vars ? `(${vars})` : ''} { ${field.name}${call} ${selection(getNamedType(field.type))} }`;
  const record: Record<string, fc.Arbitrary<unknown>> = {};
  for (const a of args) record[a.name] = fc.option(inputValue(a.type, a.name, ctx), { nil: undefined, freq: 8 });
  return fc.record(record).map((variables) => ({ query, variables, field: `${kind}.${field.name}` }));
}

/** One arbitrary over every root field of the schema. */
export function graphqlOperations(schema: GraphQLSchema, ctx: GraphQLFuzzContext): fc.Arbitrary<FuzzOperation> {
  const ops: fc.Arbitrary<FuzzOperation>[] = [];
  const roots = [
    ['query', schema.getQueryType()],
    ['mutation', schema.getMutationType()],
    ['subscription', schema.getSubscriptionType()],
  ] as const;
  for (const [kind, root] of roots) {
    if (!root) continue;
    for (const field of Object.values(root.getFields())) if (!SKIPPED.has(field.name)) ops.push(operation(kind, field, ctx));
  }
  // Aliases of one field many times over, and documents that are not GraphQL at all.
  const aliased = fc.constantFrom(...ops.map((_o, i) => i)).chain((i) =>
    ops[i].chain((op) =>
      fc.integer({ min: 2, max: 60 }).map((n) => {
        const body = op.query.slice(op.query.indexOf('{') + 1, op.query.lastIndexOf('}'));
        const aliases = Array.from({ length: n }, (_x, k) => `a${k}: ${body.trim()}`).join(' ');
        return { ...op, query: `${op.query.slice(0, op.query.indexOf('{'))}{ ${aliases} }`, field: `${op.field}*${n}` };
      }),
    ),
  );
  // What reads lists (issue 42): a tournament's standings, players and rounds, pages of tournaments and events, aliased up to 60
  // times (the flood of the issue: 60 aliases of a 256-player standings), pages sized past their largest.
  const listReads = fc
    .tuple(
      fc.constantFrom(
        [
          '$id: ID!',
          'tournament(id: $id) { standings { rank player matchPoints wins draws losses byes played buchholz sonnebornBerger gamePointsDifference duplicateScore performance withdrawn } }',
        ],
        ['$id: ID!', 'tournament(id: $id) { players { player withdrawn } invited standings { rank } round(n: 1) { tables { players matchId points } } }'],
        ['$n: Int', 'tournaments(first: $n) { items { id standings { rank player } players { player } } }'],
        ['$id: ID!, $n: Int', 'matchEvents(matchId: $id, limit: $n) { seq type }'],
        ['$n: Int', 'myMatches(limit: $n) { id seats { player } }'],
        ['$n: Int', 'lobby(limit: $n) { matches { id seats { seat } } }'],
      ),
      fc.integer({ min: 1, max: 60 }),
      knownId(ctx),
      fc.oneof(fc.integer({ min: -5, max: 2000 }), fc.constant(100_000)),
    )
    .map(([[vars, read], n, id, size]) => ({
      query: `query Lists(${vars}) { ${Array.from({ length: n }, (_x, k) => `l${k}: ${read}`).join(' ')} }`,
      variables: { ...(vars.includes('$id') ? { id } : {}), ...(vars.includes('$n') ? { n: size } : {}) } as Record<string, unknown>,
      field: `lists*${n}`,
    }));
  const garbage = fc.record({
    query: fc.oneof(hostileString, fc.constantFrom('{', 'query { __schema { types { name } } }', 'mutation { }', '{ ' + 'a { '.repeat(200) + '}'.repeat(201))),
    variables: fc.constant({} as Record<string, unknown>),
    field: fc.constant('garbage'),
  });
  return fc.oneof(
    { weight: 12, arbitrary: fc.oneof(...ops) },
    { weight: 2, arbitrary: aliased },
    { weight: 2, arbitrary: listReads },
    { weight: 1, arbitrary: garbage },
  );
}
