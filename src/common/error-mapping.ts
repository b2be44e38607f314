/**
 * The one place where errors become transport errors: every failure is first
 * normalized to a DomainError, then rendered as GraphQL extensions or as an
 * RFC 9457 problem document. A lost or read-only database is
 * SERVICE_UNAVAILABLE (503, retryable). Anything else unexpected is a 500
 * whose message says nothing about the internals.
 */
import { HttpException } from '@nestjs/common';
import { DomainError, isDomainError } from './domain-error';
import type { ErrorCode } from './domain-error';
import { DATABASE_RETRY_AFTER_SECONDS, isDatabaseUnavailable } from './database-unavailable';

/** HTTP status of each code: the switch is exhaustive, a new code fails to compile until it is mapped. */
export function httpStatusOf(code: ErrorCode): number {
  switch (code) {
    case 'INVALID_RULESET':
    case 'INVALID_COMMAND':
    case 'INVALID_CLIENT_SEED':
    case 'VALIDATION_FAILED':
      return 400;
    case 'UNAUTHENTICATED':
      return 401;
    case 'FORBIDDEN':
    case 'NOT_SEATED':
    case 'HINT_NOT_ALLOWED':
    case 'CHALLENGE_REFUSED':
    case 'BLOCKED':
    // About the player, not the match's state: the same request fails until `until` (docs/ratings.md).
    case 'RATED_PLAY_SUSPENDED':
    case 'NOT_IN_TOURNAMENT':
    case 'NOT_INVITED':
    case 'TOURNAMENT_TABLE_HIDDEN':
    // About the caller, not the room: the same message fails until `until`.
    case 'CHAT_MUTED':
    case 'ACCOUNT_BANNED':
      return 403;
    case 'NOT_FOUND':
    case 'MATCH_NOT_CREATED':
      return 404;
    case 'MATCH_EXISTS':
    case 'MATCH_ALREADY_STARTED':
    case 'MATCH_NOT_STARTED':
    case 'MATCH_OVER':
    case 'SEAT_UNAVAILABLE':
    case 'MATCH_FULL':
    case 'ALREADY_SEATED':
    case 'SEATS_NOT_FILLED':
    case 'NOT_YOUR_TURN':
    case 'CLIENT_SEED_ALREADY_GIVEN':
    case 'ABORT_TOO_LATE':
    case 'ABORT_NOT_ALLOWED':
    case 'CONFLICT':
    case 'IDEMPOTENCY_KEY_REUSED':
    case 'LIMIT_REACHED':
    case 'TOURNAMENT_FULL':
    case 'TOURNAMENT_STARTED':
    case 'TOURNAMENT_OVER':
    case 'ALREADY_IN_TOURNAMENT':
    case 'NOT_ENOUGH_PLAYERS':
    // The room's state: open again later (the match's or the round's end).
    case 'CHAT_CLOSED':
      return 409;
    case 'VERSION_CONFLICT':
      return 412;
    case 'PAYLOAD_TOO_LARGE':
      return 413;
    case 'ILLEGAL_PLAY':
    case 'DECLARATION_NOT_ALLOWED':
    case 'ANALYSIS_TOO_LARGE':
      return 422;
    case 'RATE_LIMITED':
    case 'ANALYSIS_QUEUE_FULL':
      return 429;
    case 'UNAVAILABLE':
    case 'SERVICE_UNAVAILABLE':
      return 503;
    default: {
      const unmapped: never = code;
      throw new Error(`unmapped error code ${String(unmapped)}`);
    }
  }
}

const TITLES: Partial<Record<ErrorCode, string>> = {
  VALIDATION_FAILED: 'Invalid input',
  UNAUTHENTICATED: 'Authentication required',
  FORBIDDEN: 'Forbidden',
  NOT_FOUND: 'Not found',
  VERSION_CONFLICT: 'Version conflict',
  RATE_LIMITED: 'Too many requests',
  PAYLOAD_TOO_LARGE: 'Payload too large',
  ILLEGAL_PLAY: 'Illegal play',
  NOT_YOUR_TURN: 'Not your turn',
};

export function titleOf(code: ErrorCode): string {
  return (
    TITLES[code] ??
    code
      .toLowerCase()
      .replace(/_/g, ' ')
      .replace(/^./, (c) => c.toUpperCase())
  );
}

/** Whatever was thrown, as a DomainError, or null for an internal failure (a 500). */
export function toDomainError(err: unknown): DomainError | null {
  if (isDomainError(err)) return err;
  if (err instanceof HttpException) return fromHttpException(err);
  // body-parser and friends (http-errors): a status and an `expose` flag.
  const e = err as { status?: unknown; statusCode?: unknown; type?: unknown; expose?: unknown; message?: unknown } | null;
  const status = Number(e?.status ?? e?.statusCode);
  if (e && Number.isInteger(status) && status >= 400 && status < 500) {
    if (status === 413) return new DomainError('PAYLOAD_TOO_LARGE', 'the request body is too large');
    const detail = e.expose === true && typeof e.message === 'string' ? e.message : 'the request is malformed';
    return new DomainError('VALIDATION_FAILED', detail);
  }
  if (isDatabaseUnavailable(err)) return serviceUnavailable();
  return null;
}

/** The database is lost, failing over or read-only (./database-unavailable.ts): a retryable 503, never a 500. */
export function serviceUnavailable(): DomainError {
  return new DomainError(
    'SERVICE_UNAVAILABLE',
    'the database is unavailable (lost, failing over or read-only); send the same request again, with the same idempotencyKey, after retryAfter seconds',
    { retryAfter: DATABASE_RETRY_AFTER_SECONDS },
  );
}

function fromHttpException(err: HttpException): DomainError | null {
  const status = err.getStatus();
  const body = err.getResponse();
  const message = typeof body === 'object' && body && 'message' in body ? (body as { message: unknown }).message : err.message;
  const text = Array.isArray(message) ? message.join('; ') : String(message);
  switch (status) {
    case 400:
    case 422:
      return new DomainError('VALIDATION_FAILED', text);
    case 401:
      return new DomainError('UNAUTHENTICATED', 'a valid bearer token is required');
    case 403:
      return new DomainError('FORBIDDEN', text);
    case 404:
      return new DomainError('NOT_FOUND', text);
    case 405:
      return new DomainError('NOT_FOUND', text);
    case 409:
      return new DomainError('CONFLICT', text);
    case 412:
      return new DomainError('VERSION_CONFLICT', text);
    case 413:
      return new DomainError('PAYLOAD_TOO_LARGE', 'the request body is too large');
    case 429:
      return new DomainError('RATE_LIMITED', 'too many requests');
    case 503:
      return new DomainError('UNAVAILABLE', 'the service is unavailable (a dependency does not answer); retry later');
    default:
      return status >= 400 && status < 500 ? new DomainError('VALIDATION_FAILED', text) : null;
  }
}

export interface Problem {
  type: string;
  title: string;
  status: number;
  code: ErrorCode | 'INTERNAL';
  detail: string;
  [key: string]: unknown;
}

/**
 * The code's section of the error guide (docs/errors.md), as the service serves it at /docs: a reference relative to
 * the service that answered (RFC 9457 allows a URI reference), so it names a page that exists wherever it runs.
 */
export function problemType(code: ErrorCode): string {
  return `/docs/guides/errors.html#${code.toLowerCase()}`;
}

/** RFC 9457 problem document; the details ride along as extension members. */
export function toProblem(err: unknown): Problem {
  const domain = toDomainError(err);
  if (!domain) {
    return { type: 'about:blank', title: 'Internal error', status: 500, code: 'INTERNAL', detail: 'an unexpected error occurred' };
  }
  const status = httpStatusOf(domain.code);
  return {
    ...domain.details,
    type: problemType(domain.code),
    title: titleOf(domain.code),
    status,
    code: domain.code,
    detail: domain.message,
  };
}

/** GraphQL error extensions: the code, the HTTP status it stands for, and the details. */
export function toGraphQLExtensions(err: unknown): { message: string; extensions: Record<string, unknown> } {
  const domain = toDomainError(err);
  if (!domain) return { message: 'an unexpected error occurred', extensions: { code: 'INTERNAL' } };
  return { message: domain.message, extensions: { ...domain.details, code: domain.code, status: httpStatusOf(domain.code) } };
}
