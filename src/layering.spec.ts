/**
 * The layers, checked on the imports of every source file (tests exempt;
 * the engine's own rule is in src/engine/purity.spec.ts):
 * - the match store (src/match-store, with its module)
 *   imports no transport code: no GraphQL, no OpenAPI, no HTTP, no
 *   controller or resolver;
 * - a feature's transports (*.controller.ts, *.resolver.ts) import, from
 *   this repository, only their own folder's services, models and inputs,
 *   and src/common (the caller decorators are src/common/principal.ts);
 * - no folder imports a folder that imports it back, however far round;
 * - src/common imports no feature (only src/config and the engine): what
 *   composes features is the root's (src/app.setup.ts, src/app.module.ts).
 */
import { readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { sources, withoutComments } from '../test/support/sources';

const SRC = join(process.cwd(), 'src');

/** Every module specifier a file imports or re-exports, types included (comments may name anything). */
function importsOf(file: string): string[] {
  const text = withoutComments(readFileSync(file, 'utf8'));
  return [...text.matchAll(/(?:from|import)\s*\(?\s*['"]([^'"]+)['"]/g)].map((m) => m[1]);
}

/** A relative specifier as a path below src/ without extension (e.g. "matches/matches.service"), else null (a package). */
function local(file: string, spec: string): string | null {
  if (!spec.startsWith('.')) return null;
  return relative(SRC, resolve(dirname(file), spec)).replace(/\.ts$/, '');
}

const folderOf = (path: string): string | null => (path.includes('/') ? path.split('/')[0] : null);

const files = sources(SRC);
const graph = files.map((file) => ({ file: relative(SRC, file), imports: importsOf(file).map((spec) => ({ spec, path: local(file, spec) })) }));

it('reads the whole tree', () => {
  expect(files.length).toBeGreaterThan(80);
  expect(graph.filter((f) => /\.(controller|resolver)\.ts$/.test(f.file)).length).toBeGreaterThan(10);
});

it('the match store imports no transport code', () => {
  const TRANSPORT_PACKAGES = [/^@nestjs\/(graphql|apollo|swagger|platform-express)\b/, /^express\b/, /^graphql\b/, /^graphql-ws\b/, /^ws$/];
  const offending: string[] = [];
  for (const { file, imports } of graph) {
    if (folderOf(file) !== 'match-store') continue;
    for (const { spec, path } of imports) {
      if (path === null ? TRANSPORT_PACKAGES.some((re) => re.test(spec)) : /\.(controller|resolver)$/.test(path) || folderOf(path) === 'graphql') {
        offending.push(`${file}: ${spec}`);
      }
    }
  }
  expect(offending).toEqual([]);
});

it("a feature's transports import only their own services, models and inputs (and the caller decorators, common/)", () => {
  const offending: string[] = [];
  for (const { file, imports } of graph) {
    if (!/\.(controller|resolver)\.ts$/.test(file)) continue;
    const own = folderOf(file);
    for (const { spec, path } of imports) {
      if (path === null) continue;
      const allowed = folderOf(path) === 'common' || path === 'common/principal' || (folderOf(path) === own && /\.(service|model|input)$/.test(path));
      if (!allowed) offending.push(`${file}: ${spec}`);
    }
  }
  expect(offending).toEqual([]);
});

it('no folder imports a folder that imports it back', () => {
  const edges = new Map<string, Set<string>>();
  for (const { file, imports } of graph) {
    const from = folderOf(file);
    if (!from) continue; // main.ts, app.module.ts: the composition root
    for (const { path } of imports) {
      const to = path && folderOf(path);
      if (to && to !== from) edges.set(from, (edges.get(from) ?? new Set()).add(to));
    }
  }
  const cycles: string[] = [];
  const state = new Map<string, 'open' | 'done'>();
  const visit = (folder: string, trail: string[]): void => {
    if (state.get(folder) === 'done') return;
    if (state.get(folder) === 'open') {
      cycles.push([...trail.slice(trail.indexOf(folder)), folder].join(' -> '));
      return;
    }
    state.set(folder, 'open');
    for (const next of edges.get(folder) ?? []) visit(next, [...trail, folder]);
    state.set(folder, 'done');
  };
  for (const folder of [...edges.keys()].sort()) visit(folder, []);
  expect(edges.size).toBeGreaterThan(10);
  expect(cycles).toEqual([]);
});

it('common/ imports no feature: only the configuration and the engine', () => {
  const offending: string[] = [];
  for (const { file, imports } of graph) {
    if (folderOf(file) !== 'common') continue;
    for (const { spec, path } of imports) {
      if (path === null) continue;
      const to = folderOf(path) ?? path; // "../engine" is the engine's index
      if (!['common', 'config', 'engine'].includes(to)) offending.push(`${file}: ${spec}`);
    }
  }
  expect(offending).toEqual([]);
});
