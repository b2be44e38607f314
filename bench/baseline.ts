/**
 * Side-by-side runs: `npm run bench:<x> -- --baseline <git ref> [--rounds N]`.
 *
 * These machines are shared and noisy, so a figure only means something next
 * to the code before the change, measured in the same run. The baseline ref
 * is checked out in a temporary git worktree (detached), installed with
 * `npm install` (the lock of that ref, not ours) and built; the two are then
 * run alternately, baseline first, for at least two rounds each.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { EMBEDDED_NODE_FLAGS, SERVICE_ENVIRONMENT, SERVICE_NODE_FLAGS } from '../src/node-flags';
import type { ServiceLaunch } from '../test/support/process-instance';
export type { ServiceLaunch };

export interface SideBySideArgs {
  baseline: string | null;
  rounds: number;
}

/** `--baseline <ref>` (or `--baseline=<ref>`) and `--rounds N` from argv; rounds are at least 2. */
export function sideBySideArgs(argv: string[] = process.argv.slice(2)): SideBySideArgs {
  const value = (name: string): string | null => {
    const i = argv.findIndex((a) => a === `--${name}` || a.startsWith(`--${name}=`));
    if (i < 0) return null;
    const inline = argv[i].split('=').slice(1).join('=');
    const v = inline || argv[i + 1];
    if (!v || v.startsWith('--')) throw new Error(`--${name} needs a value`);
    return v;
  };
  const rounds = Number(value('rounds') ?? 2);
  if (!Number.isInteger(rounds) || rounds < 2) throw new Error('--rounds: a whole number, at least 2 (one round each proves nothing on a shared machine)');
  return { baseline: value('baseline'), rounds };
}

const run = (cmd: string, args: string[], cwd: string) =>
  execFileSync(cmd, args, { cwd, stdio: ['ignore', 'ignore', 'inherit'], env: { ...process.env, npm_config_fund: 'false', npm_config_audit: 'false' } });

/**
 * A worktree of `ref` under the system's temp folder, installed and (with
 * `build`) built. A worktree already there for the same commit is reused:
 * building a ref takes minutes, and its files do not change.
 */
export function prepareBaseline(ref: string, steps: { build: boolean }): { dir: string; commit: string } {
  const commit = execFileSync('git', ['rev-parse', '--verify', `${ref}^{commit}`], { encoding: 'utf8' }).trim();
  const dir = join(tmpdir(), `scopa-baseline-${commit.slice(0, 12)}`);
  if (!existsSync(join(dir, 'package.json'))) {
    execFileSync('git', ['worktree', 'prune']);
    run('git', ['worktree', 'add', '--force', '--detach', dir, commit], process.cwd());
  }
  if (!existsSync(join(dir, 'node_modules', '.package-lock.json'))) {
    console.error(`baseline ${ref} (${commit.slice(0, 12)}): npm install in ${dir}`);
    run('npm', ['install', '--no-audit', '--no-fund'], dir);
  }
  if (steps.build && !existsSync(join(dir, 'dist', 'main.js'))) {
    console.error(`baseline ${ref}: npm run build`);
    run('npm', ['run', 'build'], dir);
  }
  return { dir, commit };
}

export type Side = 'baseline' | 'current';

/** Runs `measure` for both sides alternately, baseline first, `rounds` times each. */
export async function alternate<T>(rounds: number, measure: (side: Side, round: number) => Promise<T>): Promise<{ side: Side; round: number; result: T }[]> {
  const out: { side: Side; round: number; result: T }[] = [];
  for (let round = 1; round <= rounds; round++) {
    for (const side of ['baseline', 'current'] as const) {
      console.error(`-- round ${round}, ${side}`);
      out.push({ side, round, result: await measure(side, round) });
    }
  }
  return out;
}

export function median(xs: number[]): number {
  const s = xs.filter((x) => Number.isFinite(x)).sort((a, b) => a - b);
  if (s.length === 0) return NaN;
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

/** now / baseline, two decimals. */
export const ratio = (now: number, before: number): string => (before > 0 && Number.isFinite(now) ? (now / before).toFixed(2) : 'n/a');

/** `key=value` pairs of a benchmark's last line. */
export function lastLineFigures(output: string): Record<string, number> {
  const last = output.trim().split('\n').pop() ?? '';
  const figures: Record<string, number> = {};
  for (const m of last.matchAll(/(\w+)=(-?\d+(?:\.\d+)?)/g)) figures[m[1]] = Number(m[2]);
  return figures;
}

/**
 * For the benchmarks that are one script printing a last line of figures
 * (bench:engine, bench:store): runs `command` in each side's folder alternately
 * and prints one table of every round, the medians and their ratios.
 * `higherIsBetter` names the figures where a bigger number is a gain.
 */
export async function compareLastLines(
  name: string,
  args: SideBySideArgs,
  steps: { build: boolean; prepare?: (dir: string) => void },
  command: (dir: string) => { cmd: string; args: string[] },
): Promise<void> {
  const base = prepareBaseline(args.baseline!, steps);
  const dirs: Record<Side, string> = { baseline: base.dir, current: process.cwd() };
  // Once per side, before any round (a compile, say): not part of what is measured.
  for (const dir of Object.values(dirs)) steps.prepare?.(dir);
  const runs = await alternate(args.rounds, async (side) => {
    const { cmd, args: cmdArgs } = command(dirs[side]);
    const out = execFileSync(cmd, cmdArgs, { cwd: dirs[side], encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], maxBuffer: 64 << 20 });
    return lastLineFigures(out);
  });
  const keys = Object.keys(runs[0].result);
  console.log(`${name}, side by side with ${args.baseline} (${base.commit.slice(0, 12)}), ${args.rounds} rounds each, alternating`);
  console.log(`| round | side | ${keys.join(' | ')} |`);
  console.log(`|---|---|${keys.map(() => '---|').join('')}`);
  for (const r of runs) console.log(`| ${r.round} | ${r.side} | ${keys.map((k) => r.result[k]).join(' | ')} |`);
  const med = (side: Side, k: string) => Number(median(runs.filter((r) => r.side === side).map((r) => r.result[k])).toFixed(2));
  console.log(`| median | baseline | ${keys.map((k) => med('baseline', k)).join(' | ')} |`);
  console.log(`| median | current | ${keys.map((k) => med('current', k)).join(' | ')} |`);
  console.log(`| ratio | current / baseline | ${keys.map((k) => ratio(med('current', k), med('baseline', k))).join(' | ')} |`);
  console.log(
    `${keys.map((k) => `${k}=${med('current', k)}`).join(' ')} vs_baseline=${keys.map((k) => `${k}:${ratio(med('current', k), med('baseline', k))}`).join(',')}`,
  );
}

/** This checkout's service. */
export const CURRENT_SERVICE: ServiceLaunch = {
  cwd: process.cwd(),
  serviceFlags: SERVICE_NODE_FLAGS,
  embeddedFlags: EMBEDDED_NODE_FLAGS,
  serviceEnv: SERVICE_ENVIRONMENT,
};

/** What a checkout's src/node-flags.ts exports, where it has the file (older checkouts have less or none). */
interface NodeFlagsModule {
  SERVICE_NODE_FLAGS?: readonly string[];
  EMBEDDED_NODE_FLAGS?: readonly string[];
  SERVICE_ENVIRONMENT?: Readonly<Record<string, string>>;
}

/** A baseline checkout's service, with the flags and environment of its own src/node-flags.ts (none where it has none). */
export async function serviceOf(dir: string): Promise<ServiceLaunch> {
  const launch = await import(pathToFileURL(join(dir, 'src/node-flags.ts')).href).then(
    (m: NodeFlagsModule) => m,
    () => ({}) as NodeFlagsModule,
  );
  return {
    cwd: dir,
    serviceFlags: launch.SERVICE_NODE_FLAGS ?? [],
    embeddedFlags: launch.EMBEDDED_NODE_FLAGS ?? [],
    serviceEnv: launch.SERVICE_ENVIRONMENT ?? {},
  };
}
