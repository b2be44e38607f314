/**
 * The one error type of the SDK: every refusal of the service, over REST
 * (`application/problem+json`) or GraphQL (`extensions`), and every failure
 * to reach it, is thrown as a {@link ScopaError}.
 */
export class ScopaError extends Error {
  override readonly name = 'ScopaError';
  /** The service's stable code: `ILLEGAL_PLAY`, `NOT_YOUR_TURN`, `VERSION_CONFLICT`, `RATE_LIMITED`, ...; `NETWORK_ERROR` when the service could not be reached. */
  readonly code: string;
  /** The finer reason of some codes, e.g. `MUST_CAPTURE` for `ILLEGAL_PLAY`; undefined otherwise. */
  readonly reason?: string;
  /** The HTTP status (for GraphQL: the status the service gives the code); 0 when the service could not be reached. */
  readonly status: number;
  /** Every other detail the service sent with the error (`option`, `limit`, `retryAfter`, `expectedSeq`, ...). */
  readonly details: Readonly<Record<string, unknown>>;

  constructor(init: { code: string; message: string; status: number; reason?: string; details?: Record<string, unknown>; cause?: unknown }) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.code = init.code;
    this.status = init.status;
    this.reason = init.reason;
    this.details = Object.freeze({ ...(init.details ?? {}) });
  }

  /** From a problem+json document (REST) and the response's status. */
  static fromProblem(body: unknown, status: number): ScopaError {
    const problem = isRecord(body) ? body : {};
    const { type: _type, title, status: bodyStatus, code, detail, reason, ...details } = problem;
    const numericStatus = typeof bodyStatus === 'number' ? bodyStatus : status;
    return new ScopaError({
      code: typeof code === 'string' ? code : codeForStatus(numericStatus),
      message: typeof detail === 'string' ? detail : typeof title === 'string' ? title : `HTTP ${numericStatus}`,
      status: numericStatus,
      reason: typeof reason === 'string' ? reason : undefined,
      details,
    });
  }

  /** From the first error of a GraphQL response (its `extensions` carry the code, the status and the details). */
  static fromGraphQL(error: unknown, httpStatus = 200): ScopaError {
    const e = isRecord(error) ? error : {};
    const extensions = isRecord(e.extensions) ? e.extensions : {};
    const { code, status, reason, ...details } = extensions;
    const numericStatus = typeof status === 'number' ? status : httpStatus >= 400 ? httpStatus : 400;
    return new ScopaError({
      code: typeof code === 'string' ? code : codeForStatus(numericStatus),
      message: typeof e.message === 'string' ? e.message : 'GraphQL error',
      status: numericStatus,
      reason: typeof reason === 'string' ? reason : undefined,
      details,
    });
  }

  /** The service could not be reached (after the retries, where the request could be retried). */
  static network(cause: unknown): ScopaError {
    const message = cause instanceof Error ? cause.message : String(cause);
    return new ScopaError({ code: 'NETWORK_ERROR', message: `the service could not be reached: ${message}`, status: 0, cause });
  }
}

/** True when `error` is a {@link ScopaError}, optionally of one of `codes`. */
export function isScopaError(error: unknown, ...codes: string[]): error is ScopaError {
  return error instanceof ScopaError && (codes.length === 0 || codes.includes(error.code));
}

function codeForStatus(status: number): string {
  if (status === 401) return 'UNAUTHENTICATED';
  if (status === 403) return 'FORBIDDEN';
  if (status === 404) return 'NOT_FOUND';
  if (status === 412) return 'VERSION_CONFLICT';
  if (status === 429) return 'RATE_LIMITED';
  if (status >= 500) return 'INTERNAL';
  return 'HTTP_' + status;
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
