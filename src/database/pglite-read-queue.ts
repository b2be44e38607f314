/**
 * Bulk reads on the embedded database take turns with everything else.
 *
 * PGlite runs PostgreSQL inside this process: a query holds the event loop
 * while it runs, and PGlite's own queue hands the next query on through a
 * promise, so queued reads run back to back without the loop ever polling
 * for I/O. Four GraphQL documents of aliased archive pages (about twenty
 * page reads) kept GET /health waiting 1.6 to 3.4 s. Through `takeTurns`
 * such reads run one at a time, and each waits for a turn of the event loop
 * (setImmediate: after I/O callbacks) before it starts, so that requests that
 * arrived meanwhile are read, and their own queries queue, between two reads.
 */
export function takeTurns<A extends unknown[], R>(read: (...args: A) => Promise<R>): (...args: A) => Promise<R> {
  let last: Promise<unknown> = Promise.resolve();
  return (...args: A): Promise<R> => {
    const turn = last.then(
      () => new Promise<void>((resolve) => setImmediate(resolve)),
      () => new Promise<void>((resolve) => setImmediate(resolve)),
    );
    const result = turn.then(() => read(...args));
    last = result.catch(() => undefined);
    return result;
  };
}
