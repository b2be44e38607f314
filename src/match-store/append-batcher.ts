/**
 * Group commit for appends. While `maxInFlight` statements are under way,
 * new appends wait; when one finishes, everything waiting (up to `maxBatch`,
 * one append per match) goes out as the next statement. At low load each
 * append goes out alone at once, so batching adds no wait; under load, many
 * matches share one round trip and one commit instead of one each.
 *
 * Every append still succeeds or fails on its own: `runBatch` reports one
 * outcome per append, and a batch that fails as a whole is retried append by
 * append through `runOne`, so each caller gets its own precise error.
 */

export interface BatchItem<T, R> {
  /** Appends of the same key never share a batch (two racing writers of one match). */
  key: string;
  input: T;
  resolve: (result: R) => void;
  reject: (err: unknown) => void;
}

export interface AppendBatcherOptions<T, R> {
  /** Several appends in one statement: one outcome per input, in order (a value, or an Error for that input alone). */
  runBatch: (inputs: T[]) => Promise<(R | Error)[]>;
  /** One append alone. */
  runOne: (input: T) => Promise<R>;
  maxInFlight: number;
  maxBatch: number;
}

export class AppendBatcher<T, R> {
  private readonly waiting: BatchItem<T, R>[] = [];
  /** Keys with an append under way: their next append waits for it (no lock waits, no deadlock between our own statements). */
  private readonly busy = new Set<string>();
  private inFlight = 0;

  constructor(private readonly options: AppendBatcherOptions<T, R>) {}

  submit(key: string, input: T): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      this.waiting.push({ key, input, resolve, reject });
      this.pump();
    });
  }

  /** Appends waiting for a free slot (for metrics and tests). */
  get queued(): number {
    return this.waiting.length;
  }

  private pump(): void {
    while (this.inFlight < this.options.maxInFlight && this.waiting.length > 0) {
      const batch = this.take();
      if (batch.length === 0) return; // all waiting keys are busy
      this.inFlight++;
      for (const item of batch) this.busy.add(item.key);
      void this.send(batch).finally(() => {
        for (const item of batch) this.busy.delete(item.key);
        this.inFlight--;
        this.pump();
      });
    }
  }

  /** The oldest waiting appends, at most one per key and none of a busy key, in arrival order. */
  private take(): BatchItem<T, R>[] {
    const batch: BatchItem<T, R>[] = [];
    const keys = new Set<string>();
    const rest: BatchItem<T, R>[] = [];
    for (const item of this.waiting) {
      if (batch.length < this.options.maxBatch && !keys.has(item.key) && !this.busy.has(item.key)) {
        keys.add(item.key);
        batch.push(item);
      } else {
        rest.push(item);
      }
    }
    this.waiting.length = 0;
    this.waiting.push(...rest);
    return batch;
  }

  private async send(batch: BatchItem<T, R>[]): Promise<void> {
    if (batch.length === 1) {
      await this.one(batch[0]);
      return;
    }
    let outcomes: (R | Error)[];
    try {
      outcomes = await this.options.runBatch(batch.map((b) => b.input));
    } catch {
      // One append spoilt the statement (a duplicate command key, a deadlock with another instance): each on its own.
      await Promise.all(batch.map((item) => this.one(item)));
      return;
    }
    batch.forEach((item, i) => {
      const outcome = outcomes[i];
      if (outcome instanceof Error) item.reject(outcome);
      else item.resolve(outcome);
    });
  }

  private async one(item: BatchItem<T, R>): Promise<void> {
    try {
      item.resolve(await this.options.runOne(item.input));
    } catch (err) {
      item.reject(err);
    }
  }
}
