import { ScopaError } from './errors.js';

/** How requests are retried. Only a request that is safe to send again is retried (see {@link RetryOptions.attempts}). */
export interface RetryOptions {
  /**
   * Attempts in all (default 4). A request is retried when the service could not be
   * reached or answered 502, 503 or 504 (a 503 with `Retry-After`, e.g.
   * SERVICE_UNAVAILABLE during a database failover, after that long when it is no
   * longer than `maxDelayMs`), and when it answered 429 with a
   * `Retry-After` no longer than `maxDelayMs`; and only when it is safe to send
   * again: a GET, HEAD or DELETE, or a command carrying an idempotency key (the
   * SDK's command helpers always send one, so a retry finds the first result).
   */
  attempts?: number;
  /** First delay, doubled after each attempt (default 200 ms). */
  baseDelayMs?: number;
  /** Longest delay between two attempts (default 5000 ms). */
  maxDelayMs?: number;
}

const RETRY_STATUS = new Set([502, 503, 504]);

export function resolveRetry(options: RetryOptions | undefined): Required<RetryOptions> {
  return {
    attempts: Math.max(1, options?.attempts ?? 4),
    baseDelayMs: Math.max(0, options?.baseDelayMs ?? 200),
    maxDelayMs: Math.max(0, options?.maxDelayMs ?? 5000),
  };
}

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A fetch that retries what may be retried. `retryable(request)` says whether
 * this request may be sent again (the body is cloned before each attempt).
 * A failure to reach the service after the last attempt is a ScopaError
 * `NETWORK_ERROR`; an HTTP answer is returned as it is (the caller maps errors).
 */
export function retryingFetch(
  fetchImpl: typeof fetch,
  options: Required<RetryOptions>,
  retryable: (request: Request) => boolean | Promise<boolean>,
): (input: Request) => Promise<Response> {
  return async (request: Request) => {
    const mayRetry = await retryable(request);
    const attempts = mayRetry ? options.attempts : 1;
    for (let attempt = 1; ; attempt++) {
      const last = attempt >= attempts;
      const sent = last ? request : request.clone();
      let response: Response;
      try {
        response = await fetchImpl(sent);
      } catch (error) {
        if (isAbort(error)) throw error;
        if (last) throw ScopaError.network(error);
        await sleep(backoff(options, attempt));
        continue;
      }
      if (last) return response;
      if (RETRY_STATUS.has(response.status)) {
        const wait = response.status === 503 ? retryAfterMs(response.headers.get('retry-after')) : undefined;
        await discard(response);
        await sleep(wait !== undefined && wait <= options.maxDelayMs ? wait : backoff(options, attempt));
        continue;
      }
      if (response.status === 429) {
        const wait = retryAfterMs(response.headers.get('retry-after'));
        if (wait !== undefined && wait <= options.maxDelayMs) {
          await discard(response);
          await sleep(wait);
          continue;
        }
      }
      return response;
    }
  };
}

function backoff(options: Required<RetryOptions>, attempt: number): number {
  const delay = Math.min(options.maxDelayMs, options.baseDelayMs * 2 ** (attempt - 1));
  return delay / 2 + Math.random() * (delay / 2);
}

function retryAfterMs(header: string | null): number | undefined {
  if (!header) return undefined;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(header);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

async function discard(response: Response): Promise<void> {
  try {
    await response.body?.cancel();
  } catch {
    // nothing to release
  }
}

function isAbort(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { name?: string }).name === 'AbortError';
}
