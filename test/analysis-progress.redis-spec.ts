/**
 * Post-game analysis across two instances sharing PostgreSQL and Redis (the
 * machine's real servers): instance A runs the analysis jobs
 * (ANALYSIS_WORKERS=1), instance B runs none. A client of B asks for an
 * analysis and follows it with `analysisProgress` on B: the job is run by
 * A's worker, and every step A publishes (running with its share, then done)
 * reaches the subscriber on B through Redis; the player event
 * `analysisReady` reaches B's event stream too.
 */
import { jest } from '@jest/globals';
import { createClient } from 'graphql-ws';
import request from 'supertest';
import WebSocket from 'ws';
import { openNdjson } from './support/ndjson-stream';
import { useTwoPgInstances } from './support/two-pg-instances';

jest.setTimeout(240_000);

const REDIS_URL = process.env.REDIS_URL || 'redis://127.0.0.1:6379';

interface Progress {
  status: string;
  done: number;
  total: number;
  share: number;
}

describe('analysis progress across instances (Redis, PostgreSQL)', () => {
  // A small budget: the numbers are the unit tests' business; this is the fan-out.
  const pair = useTwoPgInstances(
    { REDIS_URL, ANALYSIS_ITERATIONS: '8', ANALYSIS_POLL_SECONDS: '0.5', STREAM_KEEPALIVE: '0.5' },
    { a: { ANALYSIS_WORKERS: '1' }, b: { ANALYSIS_WORKERS: '0' } },
  );

  it('a job run by A’s worker is followed on B: analysisProgress on B hears running and done, and B’s event stream hears analysisReady', async () => {
    const { a, b } = pair;
    const { token, auth } = await pair.register(b.app, 'prog');

    // A public bots-only match, created and played out through A.
    const created = await request(a.http)
      .post('/v1/matches')
      .set('authorization', auth)
      .send({
        preset: 'scopa',
        overrides: { target: 1 },
        seats: [
          { type: 'bot', bot: 'greedy' },
          { type: 'bot', bot: 'random' },
        ],
      });
    expect(created.status).toBe(201);
    const id = created.body.id as string;
    expect((await request(a.http).post(`/v1/matches/${id}/start`).set('authorization', auth).send({})).status).toBe(200);
    for (let n = 0; ; n++) {
      const now = await request(a.http).get(`/v1/matches/${id}`).set('authorization', auth);
      if (now.body.status === 'over') break;
      if (n > 600) throw new Error('the bots’ match did not end');
      await new Promise((r) => setTimeout(r, 100));
    }

    // The requester's event stream on B, and analysisProgress on B, both open before the request.
    const events = await openNdjson(`${b.http}/v1/stream/events`, token);
    expect(events.status).toBe(200);
    const client = createClient({ url: b.ws, webSocketImpl: WebSocket, connectionParams: { authorization: auth }, retryAttempts: 0 });
    const progress: Progress[] = [];
    let subscribed!: () => void;
    const ready = new Promise<void>((r) => (subscribed = r));
    const ended = new Promise<void>((resolve, reject) => {
      client.subscribe(
        { query: 'subscription($m: ID!) { analysisProgress(matchId: $m) { status done total share } }', variables: { m: id } },
        { next: (msg) => progress.push((msg.data as { analysisProgress: Progress }).analysisProgress), error: reject, complete: resolve },
      );
      client.on('connected', () => setTimeout(subscribed, 300));
    });
    await ready;

    try {
      const asked = await request(b.http).post(`/v1/matches/${id}/analysis`).set('authorization', auth).send({});
      expect(asked.status).toBe(202);
      await ended;

      // B has no worker: every running step and the end came from A through Redis.
      const running = progress.filter((p) => p.status === 'running');
      expect(running.length).toBeGreaterThan(0);
      for (const p of running) expect(p.share).toBeCloseTo(p.done / p.total, 2);
      const last = progress.at(-1)!;
      expect(last.status).toBe('done');
      expect(last.share).toBe(1);
      const done = await request(b.http).get(`/v1/matches/${id}/analysis`).set('authorization', auth);
      expect(done.body).toMatchObject({ status: 'done', total: last.total });

      const notice = await events.waitFor((line) => (line as { type?: string }).type === 'analysisReady', 30_000);
      expect(notice).toMatchObject({ type: 'analysisReady', matchId: id });
    } finally {
      events.close();
      await client.dispose();
    }
  });
});
