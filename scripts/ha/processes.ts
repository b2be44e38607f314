/**
 * The processes of the HA topology (etcd, Patroni, HAProxy, Redis, Sentinel):
 * each spawned in a process group of its own with its output in a log file of
 * the state folder, so that stop() (and the test's cleanup on a failure) ends
 * it and everything it started, whatever happens to the caller.
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { closeSync, openSync, readFileSync } from 'node:fs';

export interface DaemonOptions {
  name: string;
  command: string;
  args: string[];
  /** Its log (stdout and stderr). */
  log: string;
  env?: Record<string, string>;
  /** Run as this system user (with `runuser -u`, when we are root): PostgreSQL refuses to run as root. */
  user?: string;
}

export class Daemon {
  private child: ChildProcess | null = null;
  private exited: Promise<void> = Promise.resolve();

  constructor(readonly options: DaemonOptions) {}

  get pid(): number | null {
    return this.running ? this.child!.pid! : null;
  }

  get running(): boolean {
    return this.child !== null && this.child.exitCode === null && this.child.signalCode === null;
  }

  start(): void {
    if (this.running) throw new Error(`${this.options.name} is running already`);
    const asUser = this.options.user !== undefined && process.getuid?.() === 0;
    const [command, args] = asUser
      ? ['runuser', ['-u', this.options.user!, '--', this.options.command, ...this.options.args]]
      : [this.options.command, this.options.args];
    const fd = openSync(this.options.log, 'a');
    try {
      const child = spawn(command, args, {
        env: { ...(process.env as Record<string, string>), ...this.options.env },
        stdio: ['ignore', fd, fd],
        // its own process group: stop() signals the group (runuser's child, Patroni's helpers too)
        detached: true,
      });
      this.child = child;
      this.exited = new Promise((resolve) => child.once('exit', () => resolve()));
      child.once('error', () => undefined); // a missing binary shows as an exit
    } finally {
      closeSync(fd);
    }
  }

  /** SIGKILL to the process group, now. */
  kill(): boolean {
    if (!this.running) return false;
    signalGroup(this.child!.pid!, 'SIGKILL');
    return true;
  }

  /** SIGTERM to the group, SIGKILL after `graceMs`; resolves once the process is gone. */
  async stop(graceMs = 5000): Promise<void> {
    if (!this.running) return;
    signalGroup(this.child!.pid!, 'SIGTERM');
    const timer = setTimeout(() => this.child && signalGroup(this.child.pid!, 'SIGKILL'), graceMs);
    await this.exited;
    clearTimeout(timer);
  }

  /** The last lines of its log, for a report. */
  tail(lines = 20): string {
    try {
      return readFileSync(this.options.log, 'utf8').split('\n').slice(-lines).join('\n');
    } catch {
      return '';
    }
  }
}

function signalGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // gone already
  }
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls `check` until it returns a value (not undefined/false) or `timeoutMs` passes (then throws with `what`). */
export async function waitFor<T>(what: string, check: () => Promise<T | undefined | false>, timeoutMs: number, everyMs = 200): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown = null;
  for (;;) {
    try {
      const v = await check();
      if (v !== undefined && v !== false) return v;
    } catch (err) {
      last = err;
    }
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms${last ? ` (${(last as Error).message})` : ''}`);
    await sleep(everyMs);
  }
}
