import { unwrapResolverError } from '@apollo/server/errors';
import type { GraphQLError, GraphQLFormattedError } from 'graphql';
import { toDomainError, toGraphQLExtensions } from '../common/error-mapping';

/** Apollo's own codes for requests refused before execution: all bad input. */
const INPUT_CODES = new Set([
  'VALIDATION_FAILED',
  'GRAPHQL_PARSE_FAILED',
  'GRAPHQL_VALIDATION_FAILED',
  'BAD_USER_INPUT',
  'BAD_REQUEST',
  'OPERATION_RESOLUTION_FAILURE',
  'PERSISTED_QUERY_NOT_SUPPORTED',
  'PERSISTED_QUERY_NOT_FOUND',
]);

// by tag, not instanceof: Apollo subclasses it, graphql may be loaded twice (ESM and CJS), and graphql-jit's errors only inherit its prototype
export const isGraphQLError = (e: unknown): e is GraphQLError => Object.prototype.toString.call(e) === '[object GraphQLError]';

/**
 * Every GraphQL error through the same mapping as REST: `extensions.code` is
 * one of the stable codes, details ride along; an unexpected error says
 * nothing of the internals.
 */
export function formatError(formatted: GraphQLFormattedError, error: unknown): GraphQLFormattedError {
  const original = unwrapResolverError(error);
  const base = { message: formatted.message, locations: formatted.locations, path: formatted.path };
  if (toDomainError(original)) {
    const { message, extensions } = toGraphQLExtensions(original);
    return { ...base, message, extensions };
  }
  if (isGraphQLError(original)) {
    const { http: _http, stacktrace: _stacktrace, code, ...details } = formatted.extensions ?? {};
    // Refused before execution (parse, validation, limits, variable coercion): bad input.
    if ((typeof code === 'string' && INPUT_CODES.has(code)) || ((!code || code === 'INTERNAL_SERVER_ERROR') && !formatted.path)) {
      return { ...base, extensions: { ...details, code: 'VALIDATION_FAILED', status: 400 } };
    }
  }
  return { ...base, message: 'an unexpected error occurred', extensions: { code: 'INTERNAL' } };
}
