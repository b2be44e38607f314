/**
 * `npm start` as a newcomer (or a process manager) runs it: SIGTERM to the
 * launcher stops the service. npm forwards the signal to its script's shell;
 * with /bin/sh (dash) that shell died and left `node dist/main.js` running,
 * still serving. The project's .npmrc makes the script shell bash, which
 * replaces itself with the command (no shell in between), so the signal
 * reaches the service, which closes and exits. The same start prints the URLs
 * it serves once, and not Nest's line per module and route.
 *
 * The pre-script (scripts/build-if-stale.mjs) is skipped with --ignore-scripts:
 * it ends before the service starts and is not what is under test; the build
 * it would make is made here (tsc only) when there is none.
 */
import { jest } from '@jest/globals';
import { execFileSync, spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { EMBEDDED_NODE_FLAGS, SERVICE_NODE_FLAGS } from '../src/node-flags';
import { freePort } from './support/process-instance';

jest.setTimeout(300_000);

const root = process.cwd();

/** The process's parent and state from /proc (null: gone). */
function stat(pid: number): { ppid: number; state: string } | null {
  try {
    const s = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const rest = s.slice(s.lastIndexOf(')') + 2).split(' ');
    return { state: rest[0], ppid: Number(rest[1]) };
  } catch {
    return null;
  }
}

/** Every process under pid (children, their children, ...). */
function descendants(pid: number): number[] {
  const byParent = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const s = stat(Number(entry));
    if (s) byParent.set(s.ppid, [...(byParent.get(s.ppid) ?? []), Number(entry)]);
  }
  const out: number[] = [];
  const walk = (p: number) => {
    for (const c of byParent.get(p) ?? []) {
      out.push(c);
      walk(c);
    }
  };
  walk(pid);
  return out;
}

const running = (pid: number) => {
  const s = stat(pid);
  return s !== null && s.state !== 'Z';
};
const cmdline = (pid: number) => {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').trim();
  } catch {
    return '';
  }
};

describe('npm start', () => {
  let npm: ChildProcess | undefined;
  let started: number[] = [];
  let output = '';

  beforeAll(() => {
    if (!existsSync(path.join(root, 'dist', 'main.js'))) {
      execFileSync(process.execPath, [path.join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.build.json'], {
        cwd: root,
        stdio: 'inherit',
      });
    }
  });

  afterAll(() => {
    // only what this test started, should an assertion have failed with it running
    for (const pid of started) if (running(pid)) process.kill(pid, 'SIGKILL');
  });

  it('stops the service when the launcher gets SIGTERM, after printing the URLs it serves once', async () => {
    const port = await freePort();
    npm = spawn('npm', ['start', '--ignore-scripts'], {
      cwd: root,
      env: {
        ...process.env,
        DATABASE_URL: '',
        PORT: String(port),
        DATA_DIR: 'memory',
        LOG_LEVEL: 'info',
        NODE_ENV: 'development',
        JWT_SECRET: 'npm-start-test',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    npm.stdout!.on('data', (d: Buffer) => (output += d.toString()));
    npm.stderr!.on('data', (d: Buffer) => (output += d.toString()));
    const exited = new Promise<number | null>((resolve) => npm!.once('exit', (code) => resolve(code)));

    const deadline = Date.now() + 180_000;
    for (;;) {
      if (npm.exitCode !== null) throw new Error(`npm start exited with ${npm.exitCode}:\n${output}`);
      const ok = await fetch(`http://127.0.0.1:${port}/health`).then(
        (r) => r.ok,
        () => false,
      );
      if (ok) break;
      if (Date.now() > deadline) throw new Error(`the service did not answer /health:\n${output}`);
      await new Promise((r) => setTimeout(r, 250));
    }
    started = descendants(npm.pid!);
    const service = started.filter((pid) => /(^|\/)node$/.test(cmdline(pid).split(' ')[0]) && cmdline(pid).includes('dist/main.js'));
    expect(service).toHaveLength(1);
    // the embedded default's flags besides the service's (src/node-flags.ts)
    for (const flag of [...SERVICE_NODE_FLAGS, ...EMBEDDED_NODE_FLAGS]) expect(cmdline(service[0]).split(' ')).toContain(flag);

    // where it serves, once; Nest's line per route and module only at debug
    await new Promise((r) => setTimeout(r, 200));
    expect(output.match(/Scopa service listening on/g)).toHaveLength(1);
    expect(output).toContain(`http://localhost:${port}/graphql`);
    expect(output).toContain(`http://localhost:${port}/docs/`);
    expect(output).not.toMatch(/RouterExplorer|RoutesResolver|InstanceLoader|Mapped \{/);

    npm.kill('SIGTERM');
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([exited, new Promise((_, reject) => (timer = setTimeout(() => reject(new Error('npm start did not exit after SIGTERM')), 60_000)))]);
    clearTimeout(timer);

    // nothing npm started is left: the service stopped and its port is closed
    for (let i = 0; i < 100 && started.some(running); i++) await new Promise((r) => setTimeout(r, 100));
    expect(started.filter(running).map(cmdline)).toEqual([]);
    await expect(fetch(`http://127.0.0.1:${port}/health`)).rejects.toThrow();
  });
});
