/**
 * `npm start` after `npm run build` starts at once: the build writes the stamp
 * that `npm start`'s pre-step (scripts/build-if-stale.mjs) compares with the
 * sources. It used to be written only by the pre-step itself, and the build's
 * prebuild deletes dist/ with it, so every start after a build built again.
 *
 * Run in a scratch project that has the real scripts but a `build` that only
 * makes the outputs (the real one takes a minute and would pull dist/ from
 * under the suites running beside this one).
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const root = process.cwd();
const projectScripts = (JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;

let dir: string;

beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'scopa-build-stamp-'));
  mkdirSync(path.join(dir, 'scripts'));
  for (const f of ['build-if-stale.mjs', 'build-stamp.mjs']) copyFileSync(path.join(root, 'scripts', f), path.join(dir, 'scripts', f));
  mkdirSync(path.join(dir, 'src'));
  writeFileSync(path.join(dir, 'src', 'main.ts'), 'export {};\n');
  const makeOutputs =
    "node -e \"const f=require('fs');for(const p of ['dist/main.js','web/dist/index.html','graphiql/dist/index.html']){f.mkdirSync(require('path').dirname(p),{recursive:true});f.writeFileSync(p,'')}\"";
  const scripts = {
    prebuild: projectScripts.prebuild,
    build: `${makeOutputs} && echo BUILT >> build.log`,
    postbuild: projectScripts.postbuild,
  };
  writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'scratch', private: true, scripts }));
  // no docs site here: the pre-step's docs half only warns
  mkdirSync(path.join(dir, 'docs-site'));
});

afterEach(() => rmSync(dir, { recursive: true, force: true }));

const builds = () => {
  try {
    return readFileSync(path.join(dir, 'build.log'), 'utf8').split('\n').filter(Boolean).length;
  } catch {
    return 0;
  }
};
const run = (cmd: string, args: string[]) => execFileSync(cmd, args, { cwd: dir, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });

it('after `npm run build`, the start pre-step finds the build up to date and does not build again', () => {
  const past = new Date(Date.now() - 60_000);
  utimesSync(path.join(dir, 'src', 'main.ts'), past, past);
  run('npm', ['run', 'build', '--silent']);
  expect(builds()).toBe(1);
  const out = run('node', ['scripts/build-if-stale.mjs']);
  expect(out).toContain('build is up to date with the sources: not rebuilding');
  expect(builds()).toBe(1);
});

it('a source edited after the build is built again by the pre-step', () => {
  run('npm', ['run', 'build', '--silent']);
  const later = new Date(Date.now() + 5_000);
  utimesSync(path.join(dir, 'src', 'main.ts'), later, later);
  run('node', ['scripts/build-if-stale.mjs']);
  expect(builds()).toBe(2);
});
