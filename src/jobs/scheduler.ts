/**
 * The one home of the service's periodic tasks (the sweeps, the scans that
 * turn due deadlines and deliveries into jobs, the presence heartbeat, the
 * embedded database's ANALYZE): no other module of src/ starts a timer that repeats
 * (./one-mechanism.spec.ts fails if one does; a connection's own keep-alive
 * is the stated exception). A task runs one tick at a time, every `everyMs`
 * from every() until stop(), which waits for the tick under way; errors are
 * logged, never thrown (the rows are the record, the next tick tries again).
 * What a tick finds to do with a lasting effect, it hands to the job queue
 * (./job-queue.ts), where it is retried and kept.
 */
import { Injectable, Logger } from '@nestjs/common';
import type { BeforeApplicationShutdown } from '@nestjs/common';

export class PeriodicTask {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<unknown> | null = null;
  private stopped = false;

  constructor(
    readonly name: string,
    private readonly tick: () => Promise<unknown>,
    private readonly logger: Logger,
  ) {}

  /** Starts the task; an interval that is not a positive number disables it in this process. */
  start(everyMs: number): this {
    if (!(everyMs > 0) || this.timer || this.stopped) return this;
    this.timer = setInterval(() => void this.poll(), everyMs);
    this.timer.unref();
    return this;
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
    this.timer = null;
    await this.running;
  }
}

@Injectable()
export class Scheduler implements BeforeApplicationShutdown {
  private readonly logger = new Logger('Scheduler');
  private readonly tasks: PeriodicTask[] = [];

  /** A periodic task, not started: its owner starts it (start(ms)) when its module is ready, and may poll it at will. */
  task(name: string, tick: () => Promise<unknown>): PeriodicTask {
    const task = new PeriodicTask(name, tick, this.logger);
    this.tasks.push(task);
    return task;
  }

  /** The names of the tasks this process has (for the docs' list and the tests). */
  names(): string[] {
    return this.tasks.map((t) => t.name);
  }

  async beforeApplicationShutdown(): Promise<void> {
    await Promise.all(this.tasks.map((t) => t.stop()));
  }
}
