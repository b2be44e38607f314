/**
 * Rate limits on more than one instance: with REDIS_URL set, every instance
 * spends from the same counters (the machine's real PostgreSQL and Redis).
 */
import { jest } from '@jest/globals';
import request from 'supertest';
import { freshPgDatabase } from './store/helpers';
import { startInstance } from './support/instances';

jest.setTimeout(120_000);

const REDIS_URL = process.env.REDIS_URL || 'redis://127.0.0.1:6379';

describe('rate limits shared through Redis', () => {
  let db: Awaited<ReturnType<typeof freshPgDatabase>>;
  const instances: Awaited<ReturnType<typeof startInstance>>[] = [];

  beforeAll(async () => {
    db = await freshPgDatabase();
    // a prefix of this run's own: counters of earlier runs (same addresses) stay out of it
    const env = { REDIS_URL, RATE_LIMIT: '6', RATE_LIMIT_REDIS_PREFIX: `scopa:rl:test${process.pid}${Date.now()}` };
    instances.push(await startInstance(db.url, { ...env, INSTANCE_ID: 'a' }), await startInstance(db.url, { ...env, INSTANCE_ID: 'b' }));
  });
  afterAll(async () => {
    for (const i of instances) await i.app.close();
    await db?.drop();
  });

  it('two instances share one limit per account', async () => {
    const [a, b] = instances;
    const username = `shared${Math.random().toString(36).slice(2, 8)}`;
    const registered = await request(a.http)
      .post('/v1/auth/register')
      .send({ username, password: `pw-${username}-long` });
    expect(registered.status).toBe(201);
    const token = registered.body.accessToken as string;
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++)
      statuses.push(
        (
          await request(i % 2 ? b.http : a.http)
            .get('/v1/me')
            .set('authorization', `Bearer ${token}`)
        ).status,
      );
    expect(statuses).toEqual([200, 200, 200, 200, 200, 200]);
    for (const instance of [a, b]) {
      const refused = await request(instance.http).get('/v1/me').set('authorization', `Bearer ${token}`);
      expect(refused.status).toBe(429);
      expect(refused.body).toMatchObject({ code: 'RATE_LIMITED', limit: 6, remaining: 0 });
    }
  });

  it('two instances share one limit per address', async () => {
    const [a, b] = instances;
    const statuses: number[] = [];
    // the address spent 1 registering above: 5 left across both instances
    for (let i = 0; i < 6; i++) statuses.push((await request(i % 2 ? b.http : a.http).get('/v1/rulesets')).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
  });
});
