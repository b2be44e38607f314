/**
 * A pub/sub channel as an async iterator that is listening once the promise
 * resolves (graphql-subscriptions' own iterators subscribe only at their
 * first `next()`): the event stream subscribes first, then reads the matches
 * in play, so that whatever is published meanwhile comes after them instead
 * of being lost. Messages wait in order until taken; `return()` unsubscribes.
 */
import type { PubSubEngine } from '../realtime/realtime.module';

export async function listen<T>(pubsub: PubSubEngine, channel: string): Promise<AsyncIterableIterator<T>> {
  const buffer: T[] = [];
  let wake: (() => void) | null = null;
  let done = false;
  const id = await pubsub.subscribe(
    channel,
    (message: T) => {
      if (done) return;
      buffer.push(message);
      wake?.();
    },
    {},
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
