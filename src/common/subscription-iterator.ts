/**
 * A subscription's iterator over a pub/sub source: each message goes through
 * `step` (a value to yield, or null to skip it), an optional `first` value
 * comes before them, and `endsAfter` ends the iterator once it has yielded a
 * final value. Ending it (return or throw) ends the source at once, even while
 * it waits for a message, so the pub/sub subscription goes with it.
 * `onEnd` runs once, whichever way the iterator ends.
 */
export function subscriptionIterator<S, T>(
  source: AsyncIterator<S>,
  step: (message: S) => T | null,
  options: { first?: T | null; endsAfter?: (value: T) => boolean; onEnd?: () => void } = {},
): AsyncIterableIterator<T> {
  const finished = { done: true, value: undefined } as IteratorResult<T>;
  let first = options.first ?? null;
  let ended = false;
  let told = false;
  const done = (): IteratorResult<T> => {
    if (!told) {
      told = true;
      options.onEnd?.();
    }
    return finished;
  };
  const yielded = (value: T): IteratorResult<T> => {
    if (options.endsAfter?.(value)) ended = true;
    return { done: false, value };
  };
  const iterator: AsyncIterableIterator<T> = {
    async next() {
      if (ended) return done();
      if (first !== null) {
        const value = first;
        first = null;
        return yielded(value);
      }
      for (;;) {
        const r = await source.next();
        if (r.done) return done();
        const out = step(r.value);
        if (out !== null) return yielded(out);
      }
    },
    async return() {
      ended = true;
      await source.return?.();
      return done();
    },
    async throw(err?: unknown) {
      ended = true;
      await source.return?.();
      done();
      throw err;
    },
    [Symbol.asyncIterator]() {
      return iterator;
    },
  };
  return iterator;
}
