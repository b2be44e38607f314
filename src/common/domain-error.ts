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
  /** An abort of a tournament table once it is dealt (docs/tournaments.md): resign or withdraw instead. */
  'ABORT_NOT_ALLOWED',
  /** A hand declaration the rules do not allow now (`reason` says why). */
  'DECLARATION_NOT_ALLOWED',
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
  /** A block stands between the players, either way (docs/social.md "Blocks"): no challenge, rematch or direct message between them. */
  'BLOCKED',
  /** The player left too many rated matches after the deal: no rated play until `until` (docs/ratings.md). */
  'RATED_PLAY_SUSPENDED',
  /** Tournaments (docs/tournaments.md): the field is at maxPlayers. */
  'TOURNAMENT_FULL',
  /** The tournament has started: no more joins, starts or cancellations. */
  'TOURNAMENT_STARTED',
  /** The tournament is over (finished or cancelled). */
  'TOURNAMENT_OVER',
  /** The caller is not (or no longer) a player of the tournament. */
  'NOT_IN_TOURNAMENT',
  /** The caller has joined the tournament already. */
  'ALREADY_IN_TOURNAMENT',
  /** A private tournament: the caller is not on its invitation list. */
  'NOT_INVITED',
  /** A start with fewer than two players. */
  'NOT_ENOUGH_PLAYERS',
  /** Another table of a duplicate round the caller plays in, while that round runs. */
  'TOURNAMENT_TABLE_HIDDEN',
  /** The account was banned by a moderator (docs/social.md "Reports and moderation"): login is refused; details bannedAt. */
  'ACCOUNT_BANNED',
  'RATE_LIMITED',
  /** Chat (docs/social.md "Chat"): the caller is muted by a moderator until `until` (details until, reason). */
  'CHAT_MUTED',
  /** Chat: the room is closed now (a match's chat off, a duplicate round running, partners of a team match in play, the spectators' room to a player); `reason` says which. */
  'CHAT_CLOSED',
  /** The analysis queue is full: the caller's share (ANALYSIS_QUEUE_PER_ACCOUNT) or the total (ANALYSIS_QUEUE_MAX); details scope, limit, live. */
  'ANALYSIS_QUEUE_FULL',
  /** The match has more decisions than an analysis takes (ANALYSIS_MAX_DECISIONS); details decisions, limit. */
  'ANALYSIS_TOO_LARGE',
  'PAYLOAD_TOO_LARGE',
  /** A dependency of the service does not answer (readiness, a stream's failure, a trusted issuer's keys): retry later. */
  'UNAVAILABLE',
  /**
   * The database was lost, is failing over or is read-only right now (docs/operations.md "When the database fails
   * over"): retryable, after `retryAfter` seconds (REST: Retry-After), the same command with the same idempotencyKey.
   */
  'SERVICE_UNAVAILABLE',
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
