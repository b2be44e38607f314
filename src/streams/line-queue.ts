/**
 * The lines of one live stream, from several sources (pub/sub iterators, a
 * match's live feed), in the order they come, as one async iterator for
 * src/common/ndjson.ts. Backpressure: a source is pulled only while fewer
 * than `highWater` lines wait to be written (the writer itself waits for the
 * socket to drain). Ending it (the client went away, the credential ended,
 * the match is over) closes every source it owns at once, even one waiting
 * for its next value, so nothing stays subscribed.
 */
type Closable = AsyncIterator<unknown> | { return?: () => unknown };

export class LineQueue<T> implements AsyncIterableIterator<T> {
  private readonly items: T[] = [];
  private taker: { resolve: (step: IteratorResult<T, undefined>) => void; reject: (err: unknown) => void } | null = null;
  private readonly roomWaiters: (() => void)[] = [];
  private readonly sources = new Set<Closable>();
  private ended = false;
  private failure: { error: unknown } | null = null;

  constructor(private readonly highWater = 16) {}

  get closed(): boolean {
    return this.ended;
  }

  /** Queues a line (ignored once ended). */
  push(item: T): void {
    if (this.ended) return;
    if (this.taker) {
      const taker = this.taker;
      this.taker = null;
      taker.resolve({ done: false, value: item });
    } else {
      this.items.push(item);
    }
  }

  /** Ends after the lines already queued and `last` (if given); closes every source. */
  end(last?: T): void {
    if (this.ended) return;
    if (last !== undefined) this.push(last);
    this.ended = true;
    this.settle();
  }

  /** Ends with an error after the queued lines (the writer turns it into its last line). */
  fail(error: unknown): void {
    if (this.ended) return;
    this.failure = { error };
    this.ended = true;
    this.settle();
  }

  /** A source to close when the queue ends (closed at once if it already has). */
  own(source: Closable): void {
    if (this.ended) void close(source);
    else this.sources.add(source);
  }

  /**
   * Pulls `source` into the queue until it ends or the queue does; `map`
   * turns each value into a line (undefined: none). An error of the source
   * fails the queue.
   */
  async pump<S>(source: AsyncIterator<S> | AsyncIterable<S>, map: (value: S) => T | undefined = (v) => v as unknown as T): Promise<void> {
    const it = Symbol.asyncIterator in source ? (source as AsyncIterable<S>)[Symbol.asyncIterator]() : (source as AsyncIterator<S>);
    this.own(it);
    try {
      while (!this.ended) {
        await this.room();
        if (this.ended) break;
        const step = await it.next();
        if (step.done || this.ended) break;
        const line = map(step.value);
        if (line !== undefined) this.push(line);
      }
    } catch (err) {
      this.fail(err);
    } finally {
      this.sources.delete(it);
    }
  }

  next(): Promise<IteratorResult<T, undefined>> {
    if (this.items.length > 0) {
      const value = this.items.shift()!;
      this.wakeRoom();
      return Promise.resolve({ done: false, value });
    }
    if (this.failure) {
      const { error } = this.failure;
      this.failure = null;
      return Promise.reject(error);
    }
    if (this.ended) return Promise.resolve({ done: true, value: undefined });
    return new Promise((resolve, reject) => (this.taker = { resolve, reject }));
  }

  /** The reader is gone: drop what waits, end, close the sources. */
  return(): Promise<IteratorResult<T, undefined>> {
    this.items.length = 0;
    this.failure = null;
    this.end();
    return Promise.resolve({ done: true, value: undefined });
  }

  [Symbol.asyncIterator](): this {
    return this;
  }

  private room(): Promise<void> {
    if (this.ended || this.items.length < this.highWater) return Promise.resolve();
    return new Promise((resolve) => this.roomWaiters.push(resolve));
  }

  private wakeRoom(): void {
    if (this.items.length >= this.highWater) return;
    for (const wake of this.roomWaiters.splice(0)) wake();
  }

  private settle(): void {
    for (const wake of this.roomWaiters.splice(0)) wake();
    if (this.taker && this.items.length === 0) {
      const taker = this.taker;
      this.taker = null;
      if (this.failure) {
        const { error } = this.failure;
        this.failure = null;
        taker.reject(error);
      } else {
        taker.resolve({ done: true, value: undefined });
      }
    }
    for (const source of [...this.sources]) void close(source);
    this.sources.clear();
  }
}

async function close(source: Closable): Promise<void> {
  try {
    await source.return?.();
  } catch {
    // closing is best effort: the source is dropped either way
  }
}
