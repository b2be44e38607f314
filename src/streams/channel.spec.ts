import { listen } from './channel';
import type { PubSubEngine } from '../realtime/realtime.module';

/** A pub/sub whose first `failures` subscribes fail (Redis without a master), then works. */
function flakyPubSub(failures: number) {
  let handler: ((m: unknown) => void) | null = null;
  let attempts = 0;
  const pubsub = {
    subscribe: async (_channel: string, onMessage: (m: unknown) => void) => {
      attempts++;
      if (attempts <= failures) throw new Error('Reached the max retries per request limit');
      handler = onMessage;
      return 1;
    },
    unsubscribe: async () => undefined,
  } as unknown as PubSubEngine;
  return { pubsub, attempts: () => attempts, publish: (m: unknown) => handler?.(m) };
}

describe('listen: a stream subscribing through a Redis switch', () => {
  it('tries again while the subscribe fails, then delivers what is published', async () => {
    const redis = flakyPubSub(2);
    const it = await listen<string>(redis.pubsub, 'chan', 5_000);
    expect(redis.attempts()).toBe(3);
    redis.publish('after the switch');
    await expect(it.next()).resolves.toEqual({ done: false, value: 'after the switch' });
    await it.return!();
  });

  it('gives up with the error once its patience is spent', async () => {
    const redis = flakyPubSub(Number.POSITIVE_INFINITY);
    const startedAt = Date.now();
    await expect(listen(redis.pubsub, 'chan', 600)).rejects.toThrow('max retries');
    expect(Date.now() - startedAt).toBeLessThan(2_000);
    expect(redis.attempts()).toBeGreaterThan(1);
  });
});
