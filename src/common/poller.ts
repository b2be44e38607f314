/**
 * A background loop for the workers that poll the database (clocks, webhook
 * deliveries, the bot sweep): one tick at a time, every `everyMs` from start()
 * until stop(), which waits for the tick under way. Errors are logged, never
 * thrown: the rows are the record, so the next tick simply tries again.
 */
import type { Logger } from '@nestjs/common';

export class Poller {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<unknown> | null = null;
  private stopped = false;

  constructor(
    private readonly name: string,
    private readonly tick: () => Promise<unknown>,
    private readonly logger: Logger,
  ) {}

  /** Starts polling; an interval that is not a positive number disables it on this instance. */
  start(everyMs: number): void {
    if (!(everyMs > 0) || this.timer) return;
    this.timer = setInterval(() => void this.poll(), everyMs);
    this.timer.unref();
  }

  /** One tick now, unless one is under way (then that one). */
  poll(): Promise<unknown> {
    if (this.stopped) return Promise.resolve();
    if (!this.running) {
      this.running = this.tick()
        .catch((err: unknown) => this.logger.warn(`${this.name}: ${(err as Error)?.message ?? String(err)}`))
        .finally(() => (this.running = null));
    }
    return this.running;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    await this.running;
  }
}
