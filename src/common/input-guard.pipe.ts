import type { ArgumentMetadata, PipeTransform } from '@nestjs/common';
import { DomainError } from './domain-error';

/** Deepest nesting of arrays and objects any input may have (the deepest the contracts use is 4). */
export const MAX_INPUT_DEPTH = 32;

const CLIENT_INPUT = new Set<string>(['body', 'query', 'param', 'args']);

/**
 * The first check of every argument (REST body, query and path; GraphQL
 * arguments, over HTTP and graphql-ws): refuses what no field accepts and
 * what would break a later layer instead of being refused by it: a NUL
 * character (PostgreSQL text cannot hold one) and nesting deeper than
 * MAX_INPUT_DEPTH (class-transformer recurses without a bound).
 */
export class InputGuardPipe implements PipeTransform {
  transform(value: unknown, metadata: ArgumentMetadata): unknown {
    // Client input only: REST body, query and path; GraphQL arguments (type 'args'). Not the caller, context or info.
    if (!CLIENT_INPUT.has(metadata.type)) return value;
    const problem = inspect(value, 0);
    if (problem) throw new DomainError('VALIDATION_FAILED', `${problem.path.join('') || 'input'}: ${problem.message}`);
    return value;
  }
}

interface Problem {
  /** Where, from the top: `key`, `.key` and `[i]` segments, added on the way back up (nothing is built for sound input). */
  path: string[];
  message: string;
}

function inspect(value: unknown, depth: number): Problem | null {
  if (typeof value === 'string') return value.includes('\u0000') ? { path: [], message: 'contains a NUL character' } : null;
  if (value === null || typeof value !== 'object') return null;
  if (depth >= MAX_INPUT_DEPTH) return { path: [], message: `nested deeper than ${MAX_INPUT_DEPTH} levels` };
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const problem = inspect(value[i], depth + 1);
      if (problem) return (problem.path.unshift(`[${i}]`), problem);
    }
    return null;
  }
  for (const key in value) {
    if (!Object.prototype.hasOwnProperty.call(value, key)) continue;
    if (key.includes('\u0000')) return { path: [], message: 'a key contains a NUL character' };
    const problem = inspect((value as Record<string, unknown>)[key], depth + 1);
    if (problem) return (problem.path.unshift(depth === 0 ? key : `.${key}`), problem);
  }
  return null;
}
