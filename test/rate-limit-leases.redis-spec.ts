/**
 * Rate-limit leases (src/limits/rate-limits.ts): two instances' RateLimits on
 * one Redis, spending one key alternately, never allow more than the limit
 * together and refuse at most (instances x LEASE_FRACTION) of it early.
 */
import { Redis } from 'ioredis';
import { LEASE_FRACTION, RateLimits } from '../src/limits/rate-limits';

const REDIS_URL = process.env.REDIS_URL || 'redis://127.0.0.1:6379';

describe('rate-limit leases shared through Redis', () => {
  const clients: Redis[] = [];
  let sent = 0;
  afterAll(async () => {
    for (const c of clients) await c.quit();
  });

  const limitsOf = async (points: number, prefix: string) => {
    const redis = new Redis(REDIS_URL);
    clients.push(redis);
    // a charge does not wait for the connection (the memory insurance answers meanwhile): connected first
    await redis.ping();
    const send = redis.sendCommand.bind(redis);
    redis.sendCommand = ((...args: Parameters<typeof send>) => {
      sent++;
      return send(...args);
    }) as typeof redis.sendCommand;
    const limit = { points, windowMs: 60_000 };
    return new RateLimits({ caller: limit, token: null, auth: limit }, redis, prefix);
  };

  it.each([
    ['one at a time', false],
    ['concurrently', true],
  ])('two instances spending %s allow at most the limit and refuse at most 2% early', async (_name, concurrent) => {
    const points = 1000;
    const prefix = `scopa:rl:leases${process.pid}${Date.now()}${concurrent ? 'c' : 's'}`;
    const [a, b] = await Promise.all([limitsOf(points, prefix), limitsOf(points, prefix)]);
    let allowed = 0;
    let refusedAt = -1;
    sent = 0;
    let sentBeforeRefusal = -1;
    for (let i = 0; i < points + 50; i++) {
      const states = concurrent
        ? await Promise.all([a.consume('caller', 'account:x'), b.consume('caller', 'account:x')])
        : [await (i % 2 ? b : a).consume('caller', 'account:x')];
      for (const s of states) {
        if (s.allowed) allowed++;
        else if (refusedAt < 0) {
          refusedAt = allowed;
          sentBeforeRefusal = sent;
        }
      }
    }
    expect(allowed).toBeLessThanOrEqual(points);
    expect(refusedAt).toBeGreaterThanOrEqual(points * (1 - 2 * LEASE_FRACTION));
    expect(allowed).toBeGreaterThanOrEqual(points * (1 - 2 * LEASE_FRACTION));
    // far from the limit a charge is answered from the lease: Redis hears a small part of them
    expect(sentBeforeRefusal).toBeGreaterThan(0);
    expect(sentBeforeRefusal).toBeLessThan(points / 3);
    // once refused, the key stays refused for the rest of the window on both instances
    for (const l of [a, b]) expect((await l.consume('caller', 'account:x')).allowed).toBe(false);
  });

  it('a limit under 100 units takes no lease: every charge is exact across instances', async () => {
    const prefix = `scopa:rl:leases${process.pid}${Date.now()}small`;
    const [a, b] = await Promise.all([limitsOf(6, prefix), limitsOf(6, prefix)]);
    const remaining: number[] = [];
    for (let i = 0; i < 7; i++) remaining.push((await (i % 2 ? b : a).consume('caller', 'ip:1')).remaining);
    expect(remaining).toEqual([5, 4, 3, 2, 1, 0, 0]);
  });
});
