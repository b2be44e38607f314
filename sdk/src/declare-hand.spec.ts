/**
 * `client.declareHand` (issue 28, cirulla's hand declarations): what it sends
 * to `POST /v1/matches/{id}/declarations`, checked against a recording fetch
 * (the service's side is tested by its e2e suites).
 */
import { ScopaClient } from './client.js';
import { ScopaError } from './errors.js';

/** A fetch that records each request and answers with `answer`. */
function recording(answer: (request: Request) => Response) {
  const sent: { method: string; url: string; ifMatch: string | null; body: unknown }[] = [];
  const fetchImpl = async (input: Request | string | URL, init?: RequestInit): Promise<Response> => {
    const request = new Request(input, init);
    const text = await request.clone().text();
    sent.push({ method: request.method, url: request.url, ifMatch: request.headers.get('if-match'), body: text ? JSON.parse(text) : undefined });
    return answer(request);
  };
  return { sent, fetchImpl: fetchImpl as typeof fetch };
}

const match = (seq: number) => ({ id: 'm1', seq, status: 'playing', createdBy: 'ada', reveal: null, rulesetId: null, view: {} });
const json = (body: unknown, status = 200, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });

describe('client.declareHand', () => {
  it('posts the declaration as legalPlays lists it, with If-Match from the last seq seen and an idempotency key', async () => {
    const { sent, fetchImpl } = recording(() => json(match(12), 200, { etag: '"12"' }));
    const client = new ScopaClient({ baseUrl: 'http://service', token: 't', fetch: fetchImpl });
    client.observeSeq('m1', 11);
    const result = await client.declareHand('m1', { mattaValue: 2, points: 3 });
    expect(result.seq).toBe(12);
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ method: 'POST', url: 'http://service/v1/matches/m1/declarations', ifMatch: '"11"' });
    expect(sent[0].body).toEqual({ mattaValue: 2, idempotencyKey: expect.stringMatching(/^sdk-[0-9a-f-]{36}$/) });
    expect(client.lastSeq('m1')).toBe(12);
  });

  it('sends no mattaValue for a hand without the matta, and the seq and key it is given', async () => {
    const { sent, fetchImpl } = recording(() => json(match(5)));
    const client = new ScopaClient({ baseUrl: 'http://service', fetch: fetchImpl });
    await client.declareHand('m1', { mattaValue: null, points: 10 }, { expectedSeq: 4, idempotencyKey: 'decl-1' });
    expect(sent[0].ifMatch).toBe('"4"');
    expect(sent[0].body).toEqual({ idempotencyKey: 'decl-1' });
  });

  it('throws the refusal as a ScopaError with its code and reason', async () => {
    const problem = {
      type: 'about:blank',
      title: 'Unprocessable',
      status: 422,
      code: 'DECLARATION_NOT_ALLOWED',
      reason: 'WINDOW_CLOSED',
      detail: 'the declaration window is closed',
    };
    const { fetchImpl } = recording(() => json(problem, 422, { 'content-type': 'application/problem+json' }));
    const client = new ScopaClient({ baseUrl: 'http://service', fetch: fetchImpl });
    const error = await client.declareHand('m1', {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ScopaError);
    expect(error).toMatchObject({ code: 'DECLARATION_NOT_ALLOWED', reason: 'WINDOW_CLOSED', status: 422 });
  });
});
