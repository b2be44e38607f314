import { ScopaError } from './errors.js';
import { resolveRetry, retryingFetch } from './retry.js';

/** A fetch that answers from a script of outcomes and records what it was sent. */
function scripted(outcomes: (number | Error | [number, Record<string, string>])[]) {
  const sent: { method: string; body: string }[] = [];
  const fetchImpl = async (request: Request): Promise<Response> => {
    sent.push({ method: request.method, body: await request.text() });
    const next = outcomes.shift();
    if (next instanceof Error) throw next;
    const [status, headers] = Array.isArray(next) ? next : [next ?? 200, {}];
    return new Response(status === 204 ? null : JSON.stringify({ status }), { status, headers });
  };
  return { sent, fetchImpl: fetchImpl as typeof fetch };
}

const options = resolveRetry({ attempts: 3, baseDelayMs: 1, maxDelayMs: 50 });
const post = (body: unknown) => new Request('http://service/v1/matches/m/plays', { method: 'POST', body: JSON.stringify(body) });

describe('SDK retries', () => {
  it('sends a retryable request again, body included, after a network failure and a 503', async () => {
    const { sent, fetchImpl } = scripted([new TypeError('fetch failed'), 503, 200]);
    const response = await retryingFetch(fetchImpl, options, () => true)(post({ card: '7D', idempotencyKey: 'k1' }));
    expect(response.status).toBe(200);
    expect(sent).toHaveLength(3);
    expect(new Set(sent.map((s) => s.body))).toEqual(new Set([JSON.stringify({ card: '7D', idempotencyKey: 'k1' })]));
  });

  it('sends a request that is not safe to repeat once', async () => {
    const { sent, fetchImpl } = scripted([503, 200]);
    const response = await retryingFetch(fetchImpl, options, () => false)(post({ card: '7D' }));
    expect(response.status).toBe(503);
    expect(sent).toHaveLength(1);
  });

  it('waits out a short Retry-After on 429, and returns a long one to the caller', async () => {
    const short = scripted([[429, { 'retry-after': '0' }], 200]);
    expect((await retryingFetch(short.fetchImpl, options, () => true)(post({ idempotencyKey: 'k' }))).status).toBe(200);
    const long = scripted([[429, { 'retry-after': '60' }], 200]);
    expect((await retryingFetch(long.fetchImpl, options, () => true)(post({ idempotencyKey: 'k' }))).status).toBe(429);
    expect(long.sent).toHaveLength(1);
  });

  it("waits a 503's Retry-After (SERVICE_UNAVAILABLE, a database failover) when it is short, else backs off", async () => {
    const short = scripted([[503, { 'retry-after': '0.03' }], 200]);
    const started = performance.now();
    expect((await retryingFetch(short.fetchImpl, options, () => true)(post({ idempotencyKey: 'k' }))).status).toBe(200);
    // 30 ms: more than the first backoff (at most baseDelayMs = 1 ms) would have waited.
    expect(performance.now() - started).toBeGreaterThanOrEqual(25);
    expect(short.sent).toHaveLength(2);
    const long = scripted([[503, { 'retry-after': '60' }], 200]);
    expect((await retryingFetch(long.fetchImpl, options, () => true)(post({ idempotencyKey: 'k' }))).status).toBe(200);
    expect(long.sent).toHaveLength(2);
  });

  it('gives up after the last attempt with NETWORK_ERROR', async () => {
    const { sent, fetchImpl } = scripted([new TypeError('a'), new TypeError('b'), new TypeError('c'), 200]);
    const error = await retryingFetch(fetchImpl, options, () => true)(post({ idempotencyKey: 'k' })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ScopaError);
    expect(error).toMatchObject({ code: 'NETWORK_ERROR', status: 0 });
    expect(sent).toHaveLength(3);
  });

  it('never retries a client error', async () => {
    const { sent, fetchImpl } = scripted([400, 200]);
    expect((await retryingFetch(fetchImpl, options, () => true)(post({ idempotencyKey: 'k' }))).status).toBe(400);
    expect(sent).toHaveLength(1);
  });
});

describe('ScopaError', () => {
  it('reads problem+json: code, reason, status, details', () => {
    const e = ScopaError.fromProblem(
      { type: 'about:blank', title: 'Unprocessable', status: 422, code: 'ILLEGAL_PLAY', detail: 'you must capture', reason: 'MUST_CAPTURE', seq: 4 },
      422,
    );
    expect(e).toMatchObject({ name: 'ScopaError', code: 'ILLEGAL_PLAY', reason: 'MUST_CAPTURE', status: 422, message: 'you must capture' });
    expect(e.details).toEqual({ seq: 4 });
  });

  it('reads a GraphQL error: extensions carry code, status and details', () => {
    const e = ScopaError.fromGraphQL({ message: 'slow down', extensions: { code: 'RATE_LIMITED', status: 429, retryAfter: 3, limit: 600 } });
    expect(e).toMatchObject({ code: 'RATE_LIMITED', status: 429, message: 'slow down' });
    expect(e.details).toEqual({ retryAfter: 3, limit: 600 });
  });

  it('names a status without a problem document', () => {
    expect(ScopaError.fromProblem('Bad Gateway', 502)).toMatchObject({ code: 'INTERNAL', status: 502 });
    expect(ScopaError.fromProblem(undefined, 412)).toMatchObject({ code: 'VERSION_CONFLICT', status: 412 });
  });
});
