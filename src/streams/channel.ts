/**
 * A pub/sub channel as an async iterator that is listening once the promise
 * resolves (graphql-subscriptions' own iterators subscribe only at their
 * first `next()`): the event stream subscribes first, then reads the matches
 * in play, so that whatever is published meanwhile comes after them instead
 * of being lost. Messages wait in order until taken; `return()` unsubscribes.
 *
 * While Redis switches masters (docs/operations.md "Redis failover (Sentinel)")
 * a subscribe can fail once ioredis has given up its retries: it is tried again
 * for up to SUBSCRIBE_PATIENCE_MS, so that a stream opened during the switch
 * opens once the new master answers instead of being refused.
 */
import type { PubSubEngine } from '../realtime/realtime.module';

/** How long a stream's subscribe keeps trying through a Redis outage before the stream is refused (UNAVAILABLE). */
export const SUBSCRIBE_PATIENCE_MS = 10_000;
const RETRY_EVERY_MS = 250;

async function subscribeWithPatience(pubsub: PubSubEngine, channel: string, onMessage: (message: never) => void, patienceMs: number): Promise<number> {
  const until = Date.now() + patienceMs;
  for (;;) {
    try {
      return await pubsub.subscribe(channel, onMessage, {});
    } catch (err) {
      if (Date.now() + RETRY_EVERY_MS > until) throw err;
      await new Promise((resolve) => setTimeout(resolve, RETRY_EVERY_MS));
    }
  }
}

export async function listen<T>(pubsub: PubSubEngine, channel: string, patienceMs = SUBSCRIBE_PATIENCE_MS): Promise<AsyncIterableIterator<T>> {
  const buffer: T[] = [];
  let wake: (() => void) | null = null;
  let done = false;
  const id = await subscribeWithPatience(
    pubsub,
    channel,
    (message: T) => {
      if (done) return;
      buffer.push(message);
      wake?.();
    },
    patienceMs,
  );
  const it: AsyncIterableIterator<T> = {
    next: async () => {
      while (buffer.length === 0 && !done) await new Promise<void>((resolve) => (wake = resolve));
      wake = null;
      if (done) return { done: true, value: undefined };
      return { done: false, value: buffer.shift()! };
    },
    return: async () => {
      if (!done) {
        done = true;
        buffer.length = 0;
        wake?.();
        await pubsub.unsubscribe(id);
      }
      return { done: true, value: undefined };
    },
    [Symbol.asyncIterator]: () => it,
  };
  return it;
}
