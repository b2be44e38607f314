/**
 * The one error type of the application layer: a stable code plus details.
 * Engine rejections become DomainErrors unchanged in code; transports map
 * codes once (GraphQL extensions, REST application/problem+json).
 */
import type { Rejection } from '../engine';

export const ERROR_CODES = [
  // engine rejections, passed through as they are
  'INVALID_RULESET',
  'INVALID_COMMAND',
  'MATCH_EXISTS',
  'MATCH_NOT_CREATED',
  'MATCH_ALREADY_STARTED',
  'MATCH_NOT_STARTED',
  'MATCH_OVER',
  'SEAT_UNAVAILABLE',
  'MATCH_FULL',
  'ALREADY_SEATED',
  'SEATS_NOT_FILLED',
  'NOT_SEATED',
  'NOT_YOUR_TURN',
  'ILLEGAL_PLAY',
  'INVALID_CLIENT_SEED',
  'CLIENT_SEED_ALREADY_GIVEN',
  /** An abort after the first play (resign instead). */
  'ABORT_TOO_LATE',
  // application errors
  'NOT_FOUND',
  'VERSION_CONFLICT',
  'IDEMPOTENCY_KEY_REUSED',
  'VALIDATION_FAILED',
  'UNAUTHENTICATED',
  'FORBIDDEN',
  /** A hint asked for a person's seat in a rated match. */
  'HINT_NOT_ALLOWED',
  'CONFLICT',
  /** A documented per-account limit of live things (e.g. matches with no human seat) is reached. */
  'LIMIT_REACHED',
  /** The challenged account does not take challenges from the caller (its acceptChallenges setting). */
  'CHALLENGE_REFUSED',
  'RATE_LIMITED',
  'PAYLOAD_TOO_LARGE',
  'UNAVAILABLE',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

export class DomainError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = 'DomainError';
  }

  static fromRejection(rejection: Rejection): DomainError {
    const details: Record<string, unknown> = {};
    if (rejection.reason) details.reason = rejection.reason;
    if (rejection.option) details.option = rejection.option;
    return new DomainError(rejection.code, rejection.message, details);
  }
}

export function isDomainError(err: unknown): err is DomainError {
  return err instanceof DomainError;
}
