/**
 * npm run bench:engine [-- --seconds=N | --plays=N] — compiles bench/engine.ts
 * with tsc (the service runs compiled code) and runs it on one core.
 * npm run bench:engine -- --baseline <ref> [--rounds N] runs it and the same
 * benchmark of <ref> alternately (bench/baseline.ts) and prints both.
 */
import { execFileSync } from 'node:child_process';
import { compareLastLines, sideBySideArgs } from './baseline';

const compile = (dir: string) =>
  execFileSync(process.execPath, [require.resolve('typescript/bin/tsc'), '-p', 'tsconfig.bench.json'], { cwd: dir, stdio: 'inherit' });
const engineRun = { cmd: process.execPath, args: ['--single-threaded', 'dist-bench/bench/engine.js'] };

const args = sideBySideArgs();
if (args.baseline) {
  void compareLastLines('bench:engine', args, { build: false, prepare: compile }, () => engineRun);
} else {
  compile(process.cwd());
  const passThrough = process.argv.slice(2).filter((a) => /^--(seconds|plays)=/.test(a));
  execFileSync(engineRun.cmd, [...engineRun.args, ...passThrough], { stdio: 'inherit' });
}
