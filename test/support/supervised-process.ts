/**
 * A process of the built service (an instance, `dist/main.js`, or a worker)
 * that a test kills with SIGKILL and starts again, as a supervisor
 * (systemd, Kubernetes) would. An instance keeps its port across restarts,
 * so clients find it again where it was (./failover-client.ts).
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { SERVICE_ENVIRONMENT, serviceNodeFlags } from '../../src/node-flags';

export interface SupervisedOptions {
  /** For the logs and the test's report. */
  name: string;
  /** The script under the checkout, e.g. `dist/main.js`. */
  script: string;
  env: Record<string, string>;
  /** An HTTP instance: its fixed port (ready once /health/ready answers 200). None: a worker. */
  port?: number;
  /** A worker is ready once a line of its stdout matches this, or once it has run `readyAfterMs` without exiting. */
  readyLine?: RegExp;
  readyAfterMs?: number;
}

export class SupervisedProcess {
  private child: ChildProcess | null = null;
  private exited: Promise<void> = Promise.resolve();
  private stopping = false;
  /** Up and answering (an instance) or started (a worker), not killed since. */
  ready = false;
  starts = 0;
  /** How long each start took until ready, ms. */
  readonly startMs: number[] = [];
  kills = 0;
  /** Unexpected exits (not by our kill or stop): a crash of the process itself. */
  readonly crashes: { code: number | null; signal: string | null }[] = [];
  /** The last lines the process wrote to stderr (printed when a test fails). */
  readonly stderr: string[] = [];

  constructor(readonly options: SupervisedOptions) {}

  get url(): string {
    if (this.options.port === undefined) throw new Error(`${this.options.name} has no port`);
    return `http://127.0.0.1:${this.options.port}`;
  }

  get running(): boolean {
    return this.child !== null && this.child.exitCode === null && this.child.signalCode === null;
  }

  /** Starts the process and resolves once it is ready (rejects if it exits first or takes longer than `timeoutMs`). */
  async start(timeoutMs = 60_000): Promise<void> {
    if (this.running) throw new Error(`${this.options.name} is running already`);
    const env: Record<string, string> = {
      ...SERVICE_ENVIRONMENT,
      ...(process.env as Record<string, string>),
      LOG_LEVEL: 'silent',
      NODE_ENV: 'test',
      ...this.options.env,
      ...(this.options.port !== undefined ? { PORT: String(this.options.port) } : {}),
    };
    const child = spawn(process.execPath, [...serviceNodeFlags(env), this.options.script], {
      cwd: process.cwd(),
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.child = child;
    this.starts++;
    let killedByUs = false;
    const mine = this.kills;
    this.exited = new Promise((resolve) =>
      child.once('exit', (code, signal) => {
        killedByUs = this.kills !== mine || this.stopping;
        if (!killedByUs) this.crashes.push({ code, signal });
        if (this.child === child) this.ready = false;
        resolve();
      }),
    );
    const lines: string[] = [];
    const keep = (into: string[], chunk: Buffer) => {
      for (const line of chunk.toString().split('\n')) if (line.trim()) into.push(line);
      if (into.length > 50) into.splice(0, into.length - 50);
    };
    child.stderr!.on('data', (chunk: Buffer) => keep(this.stderr, chunk));
    child.stdout!.on('data', (chunk: Buffer) => keep(lines, chunk));

    const deadline = Date.now() + timeoutMs;
    const startedAt = Date.now();
    for (;;) {
      if (this.child !== child || !this.running) throw new Error(`${this.options.name} exited before it was ready: ${this.stderr.slice(-5).join(' | ')}`);
      if (this.options.port !== undefined) {
        try {
          if ((await fetch(`${this.url}/health/ready`, { signal: AbortSignal.timeout(2000) })).ok) break;
        } catch {
          // not listening yet
        }
      } else if (
        (this.options.readyLine && lines.some((l) => this.options.readyLine!.test(l))) ||
        Date.now() - startedAt >= (this.options.readyAfterMs ?? 3000)
      ) {
        break;
      }
      if (Date.now() > deadline) throw new Error(`${this.options.name} was not ready within ${timeoutMs} ms`);
      await new Promise((r) => setTimeout(r, 100));
    }
    this.startMs.push(Date.now() - startedAt);
    if (this.child === child && this.running) this.ready = true;
  }

  /** SIGKILL, now (synchronously: the signal is sent before this returns). False if it was not running. */
  kill(): boolean {
    if (!this.running) return false;
    this.kills++;
    this.ready = false;
    this.child!.kill('SIGKILL');
    return true;
  }

  /** Waits for the killed process to be gone, then starts it again. */
  async restart(timeoutMs = 60_000): Promise<void> {
    await this.exited;
    await this.start(timeoutMs);
  }

  /** SIGTERM, and waits for the exit. */
  async stop(): Promise<void> {
    this.stopping = true;
    if (this.running) this.child!.kill('SIGTERM');
    await this.exited;
  }
}
