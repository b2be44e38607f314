import type { EventEmitter } from 'node:events';
import { createRealtime } from './realtime';

describe('createRealtime (in-process)', () => {
  it("takes more than 10 subscribers on one channel without passing its emitter's listener limit (no MaxListenersExceededWarning), and delivers to each", async () => {
    const { pubsub } = createRealtime(null);
    // graphql-subscriptions' PubSub adds one emitter listener per subscriber; Node warns past the emitter's limit (10 by default).
    const ee = (pubsub as unknown as { ee: EventEmitter }).ee;
    const iterators = Array.from({ length: 25 }, () => pubsub.asyncIterableIterator<{ n: number }>('match:one'));
    const firsts = iterators.map((it) => it.next());
    await pubsub.publish('match:one', { n: 1 });
    expect((await Promise.all(firsts)).map((r) => r.value)).toEqual(Array.from({ length: 25 }, () => ({ n: 1 })));
    const limit = ee.getMaxListeners();
    expect(limit === 0 || ee.listenerCount('match:one') <= limit).toBe(true);
    await Promise.all(iterators.map((it) => it.return?.()));
    expect(ee.listenerCount('match:one')).toBe(0);
  });
});
