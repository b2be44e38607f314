import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import net from 'node:net';
import { EMBEDDED_NODE_FLAGS, SERVICE_ENVIRONMENT, SERVICE_NODE_FLAGS, serviceNodeFlags } from '../../src/node-flags';

/** How a checkout's built service is launched: its Node flags (the embedded default's apart) and environment (src/node-flags.ts). */
export interface ServiceLaunch {
  cwd: string;
  serviceFlags: readonly string[];
  /** Added where DATABASE_URL is unset or blank; none for a checkout from before EMBEDDED_NODE_FLAGS. */
  embeddedFlags?: readonly string[];
  /** None for a checkout from before SERVICE_ENVIRONMENT. */
  serviceEnv?: Readonly<Record<string, string>>;
}

/** A free TCP port on 127.0.0.1. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

export interface ProcessInstance {
  url: string;
  child: ChildProcess;
  stop(): Promise<void>;
}

/**
 * The built service (dist/main.js) as a separate process, started as in production, so a test can SIGKILL it.
 * `from` runs another checkout's build (bench:api's --baseline) with that checkout's own service flags
 * and environment (none for a checkout from before SERVICE_ENVIRONMENT).
 */
export async function spawnInstance(
  env: Record<string, string>,
  nodeArgs: string[] = [],
  from: ServiceLaunch = { cwd: process.cwd(), serviceFlags: SERVICE_NODE_FLAGS, embeddedFlags: EMBEDDED_NODE_FLAGS, serviceEnv: SERVICE_ENVIRONMENT },
): Promise<ProcessInstance> {
  // A suite given a range of ports passes PORT; otherwise a free one.
  const port = env.PORT ? Number(env.PORT) : await freePort();
  const childEnv = { ...from.serviceEnv, ...process.env, LOG_LEVEL: 'silent', NODE_ENV: 'test', ...env, PORT: String(port) };
  const flags = serviceNodeFlags(childEnv, from.serviceFlags, from.embeddedFlags ?? []);
  const child = spawn(process.execPath, [...flags, ...nodeArgs, 'dist/main.js'], {
    cwd: from.cwd,
    env: childEnv,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`instance exited with ${child.exitCode}`);
    try {
      if ((await fetch(`${url}/health/ready`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error('instance did not become ready');
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    url,
    child,
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    },
  };
}
