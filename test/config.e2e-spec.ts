/**
 * One configuration module (src/config): the only reader of process.env
 * under src/, the one declaration the Environment table (docs/operations.md
 * "Environment") is checked against, and a bad value stops the start naming the variable.
 *
 * Where process.env may still appear under src/: src/config/ itself; unit
 * specs (*.spec.ts), which may set a variable to set a case up (the service
 * never runs them); and src/database/generated/, Prisma's generated client,
 * whose doc comments show `process.env.DATABASE_URL` in an example. Scripts,
 * benchmarks, tests and the example bot read their own variables (they are
 * not the service), but each must be declared in src/config/tooling.ts so
 * that the table stays complete.
 */
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { TOOLING_VARIABLES } from '../src/config/tooling';
import { VARIABLES } from '../src/config/variables';
import { createTestApp } from './support/app';

const ROOT = process.cwd();
const PROCESS_ENV = /process\s*\.\s*env\b|process\s*\[\s*['"]env['"]\s*\]/;

function filesUnder(dir: string, keep: (file: string) => boolean, skip: (dir: string) => boolean = () => false): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) {
      if (name === 'node_modules' || name === 'dist' || name.startsWith('.') || skip(full)) continue;
      out.push(...filesUnder(full, keep, skip));
    } else if (keep(full)) out.push(full);
  }
  return out;
}

const rel = (file: string) => path.relative(ROOT, file).split(path.sep).join('/');

describe('one configuration module', () => {
  it('is the only reader of process.env under src/', () => {
    const readers = filesUnder(
      path.join(ROOT, 'src'),
      (f) => f.endsWith('.ts') && !f.endsWith('.spec.ts'),
      (d) => ['src/config', 'src/database/generated'].includes(rel(d)),
    ).filter((f) => PROCESS_ENV.test(readFileSync(f, 'utf8')));
    expect(readers.map(rel)).toEqual([]);
  });

  it('reaches the application only by injection: appConfig() only where no container exists', () => {
    // main.ts and the worker's entry read it before their application exists.
    const WITHOUT_CONTAINER = ['src/main.ts', 'src/jobs/worker.ts'];
    const callers = filesUnder(
      path.join(ROOT, 'src'),
      (f) => f.endsWith('.ts') && !f.endsWith('.spec.ts'),
      (d) => ['src/config', 'src/database/generated'].includes(rel(d)),
    ).filter((f) => /\bappConfig\s*\(/.test(readFileSync(f, 'utf8')));
    expect(callers.map(rel).filter((f) => !WITHOUT_CONTAINER.includes(f))).toEqual([]);
  });

  it('declares every variable the scripts, benchmarks, tests and the example bot read', () => {
    const declared = new Set([...Object.keys(VARIABLES), ...Object.keys(TOOLING_VARIABLES)]);
    const read = /process\.env(?:\.([A-Z][A-Z0-9_]*)|\[\s*['"]([A-Z][A-Z0-9_]*)['"]\s*\])/g;
    const files = [
      ...['scripts', 'bench', 'test', 'examples'].flatMap((d) => filesUnder(path.join(ROOT, d), (f) => /\.(ts|mts|mjs|js)$/.test(f))),
      path.join(ROOT, 'jest.config.mjs'),
      path.join(ROOT, 'prisma.config.ts'),
    ];
    const undeclared = new Set<string>();
    for (const file of files) {
      for (const m of readFileSync(file, 'utf8').matchAll(read)) {
        const name = m[1] ?? m[2];
        if (!declared.has(name)) undeclared.add(`${name} (${rel(file)})`);
      }
    }
    expect([...undeclared]).toEqual([]);
  });

  it('matches the Environment table of docs/operations.md: every declared variable is in it with its default, and it names no other', () => {
    // The one table whose header is "| variable | default | meaning |": in README.md, or in whichever guide it moves to.
    const docs = filesUnder(
      ROOT,
      (f) => f.endsWith('.md'),
      (d) => rel(d) === 'docs-site',
    );
    const tables = docs.flatMap((file) => {
      const lines = readFileSync(file, 'utf8').split('\n');
      const start = lines.findIndex((l) => /^\|\s*variable\s*\|\s*default\s*\|\s*meaning\s*\|$/.test(l.trim()));
      if (start < 0) return [];
      const rows: string[] = [];
      for (let i = start + 2; i < lines.length && lines[i].startsWith('|'); i++) rows.push(lines[i]);
      return [{ file: rel(file), rows }];
    });
    expect(tables.map((t) => t.file)).toHaveLength(1);

    const documented = new Map<string, string>();
    for (const row of tables[0].rows) {
      const [names, defaults] = row.split('|').slice(1, 3);
      for (const m of names.matchAll(/`([A-Z][A-Z0-9_]*)`/g)) documented.set(m[1], defaults);
    }
    const declared = new Map<string, string | null>([
      ...Object.entries(VARIABLES).map(([name, v]) => [name, v.default] as [string, string | null]),
      ...Object.entries(TOOLING_VARIABLES).map(([name, v]) => [name, v.default] as [string, string | null]),
    ]);
    expect([...declared.keys()].filter((name) => !documented.has(name))).toEqual([]); // declared, not in the table
    expect([...documented.keys()].filter((name) => !declared.has(name))).toEqual([]); // in the table, not declared
    const wrongDefault = [...declared].filter(([name, def]) => def !== null && !documented.get(name)!.includes(def)).map(([name, def]) => `${name}: ${def}`);
    expect(wrongDefault).toEqual([]);
  });

  describe('a bad value stops the start, naming the variable', () => {
    const BAD = { CLOCK_POLL_MS: 'abc', SEEKS_PER_ACCOUNT: '-2' };
    const saved = Object.fromEntries(Object.keys(BAD).map((k) => [k, process.env[k]]));
    afterEach(() => {
      for (const [k, v] of Object.entries(saved)) {
        if (v === undefined) delete process.env[k];
        else process.env[k] = v;
      }
    });

    it('when the application is created', async () => {
      await expect(createTestApp(BAD)).rejects.toThrow(/CLOCK_POLL_MS="abc": an integer >= 0 .*; SEEKS_PER_ACCOUNT="-2": an integer >= 1 /);
    });

    it('when the service is started (main.ts): exit 1 and one line naming it, no listening', async () => {
      const child = spawn(process.execPath, ['node_modules/tsx/dist/cli.mjs', 'src/main.ts'], {
        env: { ...process.env, ...BAD, DATA_DIR: 'memory', DATABASE_URL: '', PORT: '0', NODE_ENV: 'test' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
      child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
      const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
      expect(code).toBe(1);
      expect(stderr.trim()).toBe(
        'Invalid environment: CLOCK_POLL_MS="abc": an integer >= 0 (Invalid input: expected number, received NaN); ' +
          'SEEKS_PER_ACCOUNT="-2": an integer >= 1 (Too small: expected number to be >=1)',
      );
      expect(stdout).not.toMatch(/listening/);
    }, 120_000);
  });
});
