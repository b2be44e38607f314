/**
 * The GraphQL schema documents itself: every type, field and argument of the
 * committed schema.graphql has a description (from a decorator or from
 * src/common/api-descriptions.ts), and that file names nothing that is gone.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { buildSchema, isInputObjectType, isInterfaceType, isObjectType, isSpecifiedScalarType } from 'graphql';
import type { GraphQLSchema } from 'graphql';
import { staleDescriptions } from '../src/common/api-descriptions';

/** Undescribed on purpose (none today). */
const ALLOWED = new Set<string>([]);

export function undescribed(schema: GraphQLSchema): string[] {
  const missing: string[] = [];
  for (const type of Object.values(schema.getTypeMap())) {
    if (type.name.startsWith('__') || isSpecifiedScalarType(type)) continue;
    if (!type.description?.trim() && !ALLOWED.has(type.name)) missing.push(type.name);
    if (!(isObjectType(type) || isInputObjectType(type) || isInterfaceType(type))) continue;
    for (const field of Object.values(type.getFields())) {
      if (!field.description?.trim()) missing.push(`${type.name}.${field.name}`);
      for (const arg of 'args' in field ? field.args : []) if (!arg.description?.trim()) missing.push(`${type.name}.${field.name}(${arg.name})`);
    }
  }
  return missing;
}

describe('GraphQL descriptions', () => {
  const schema = buildSchema(readFileSync(path.join(process.cwd(), 'schema.graphql'), 'utf8'));

  it('every type, field and argument of schema.graphql has a description', () => {
    expect(undescribed(schema)).toEqual([]);
  });

  it('src/common/api-descriptions.ts names only types, fields and arguments that exist', () => {
    expect(staleDescriptions(schema)).toEqual([]);
  });

  it('a field or argument without one is found', () => {
    const bare = buildSchema('"""A root."""\ntype Query {\n  """Described."""\n  a(x: Int): Int\n  b: String\n}\ntype Thing {\n  """Y."""\n  y: Int\n}');
    expect(undescribed(bare)).toEqual(['Query.a(x)', 'Query.b', 'Thing']);
  });
});
