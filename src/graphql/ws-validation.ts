/**
 * Validation for operations over graphql-ws. graphql-ws validates with the
 * specified rules only: here the depth and complexity limits apply as over
 * HTTP. The outcome depends only on the query text (the limits never look at
 * variables), so it is kept per text: a client that sends the same play
 * mutation all match long has it validated once.
 */
import { specifiedRules, validate } from 'graphql';
import type { DocumentNode, GraphQLError, GraphQLSchema, ValidationRule } from 'graphql';
import { LRUCache } from 'lru-cache';

export function cachedValidator(extraRules: readonly ValidationRule[], max = 1000) {
  const rules = [...specifiedRules, ...extraRules];
  const outcomes = new LRUCache<string, readonly GraphQLError[]>({ max });
  let cachedFor: GraphQLSchema | null = null;
  return (schema: GraphQLSchema, document: DocumentNode): readonly GraphQLError[] => {
    if (schema !== cachedFor) {
      outcomes.clear();
      cachedFor = schema;
    }
    const text = document.loc?.source.body;
    const known = text === undefined ? undefined : outcomes.get(text);
    if (known) return known;
    const errors = validate(schema, document, rules);
    if (text !== undefined) outcomes.set(text, errors);
    return errors;
  };
}
