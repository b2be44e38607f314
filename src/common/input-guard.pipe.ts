import type { ArgumentMetadata, PipeTransform } from '@nestjs/common';
import { DomainError } from './domain-error';
import { asSentFields } from './validation';

/** Deepest nesting of arrays and objects any input may have (the deepest the contracts use is 4). */
export const MAX_INPUT_DEPTH = 32;

const CLIENT_INPUT = new Set<string>(['body', 'query', 'param', 'args']);

/**
 * Member names no input has, which the validation would drop silently
 * (Nest strips them before class-transformer; class-transformer would skip
 * them): refused like every other unknown member, at any depth. The option
 * objects (@AsSent fields) keep them: the engine names such an option
 * (INVALID_RULESET).
 */
export const PROTOTYPE_MEMBERS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

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
    const problem = inspect(value, 0, asSentFields(metadata.metatype));
    if (problem?.member) {
      // As class-validator words an unknown member, with the same details.
      const field = problem.path.join('');
      const message = `property ${problem.member} should not exist`;
      throw new DomainError('VALIDATION_FAILED', `${field}: ${message}`, { errors: [{ field, messages: [message] }] });
    }
    if (problem) throw new DomainError('VALIDATION_FAILED', `${problem.path.join('') || 'input'}: ${problem.message}`);
    return value;
  }
}

interface Problem {
  /** Where, from the top: `key`, `.key` and `[i]` segments, added on the way back up (nothing is built for sound input). */
  path: string[];
  message: string;
  /** A prototype member's name (PROTOTYPE_MEMBERS), when that is the problem. */
  member?: string;
}

/** `free`: the top-level members whose objects are option keys as sent (@AsSent): their own keys are not checked by name. */
function inspect(value: unknown, depth: number, free?: readonly string[]): Problem | null {
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
    if (PROTOTYPE_MEMBERS.has(key)) return { path: [depth === 0 ? key : `.${key}`], message: 'is not a member of any input', member: key };
    const problem =
      depth === 0 && free?.includes(key)
        ? inspectValues((value as Record<string, unknown>)[key], depth + 1)
        : inspect((value as Record<string, unknown>)[key], depth + 1);
    if (problem) return (problem.path.unshift(depth === 0 ? key : `.${key}`), problem);
  }
  return null;
}

/** An option object's values (its keys are names the engine judges): NUL characters and depth only. */
function inspectValues(value: unknown, depth: number): Problem | null {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return inspect(value, depth);
  if (depth >= MAX_INPUT_DEPTH) return { path: [], message: `nested deeper than ${MAX_INPUT_DEPTH} levels` };
  for (const key in value) {
    if (!Object.prototype.hasOwnProperty.call(value, key)) continue;
    if (key.includes('\u0000')) return { path: [], message: 'a key contains a NUL character' };
    const problem = inspect((value as Record<string, unknown>)[key], depth + 1);
    if (problem) return (problem.path.unshift(`.${key}`), problem);
  }
  return null;
}
