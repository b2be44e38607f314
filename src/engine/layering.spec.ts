import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';

// Layers of the engine: it imports nothing outside src/engine but
// @noble/hashes, and its core never imports bots/ (the bots are players built
// on the rules; the rules must not change with a bot's tuning). Only the
// public barrel (index.ts) and the test driver (testing.ts) may reach the bots.
const ENGINE = join(process.cwd(), 'src', 'engine');
const BOTS = join(ENGINE, 'bots');
const NOT_CORE = new Set([join(ENGINE, 'index.ts'), join(ENGINE, 'testing.ts')]);
const PACKAGES = [/^@noble\/hashes\//];

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return path.endsWith('.ts') && !path.endsWith('.spec.ts') ? [path] : [];
  });
}

/** Module specifiers of a file's static and dynamic imports and re-exports (comments removed). */
function specifiers(file: string): string[] {
  const text = readFileSync(file, 'utf8')
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/\/\/.*$/gm, '');
  return [...text.matchAll(/(?:from|import)\s*\(?\s*['"]([^'"]+)['"]/g)].map((m) => m[1]);
}

/** The file a relative specifier names (extensionless, as the project writes them). */
function target(from: string, spec: string): string {
  const base = resolve(dirname(from), spec.replace(/\.js$/, ''));
  for (const candidate of [`${base}.ts`, join(base, 'index.ts')]) if (existsSync(candidate)) return candidate;
  return base;
}

const inside = (path: string, dir: string) => path === dir || path.startsWith(dir + sep);

describe('engine layers', () => {
  const files = sources(ENGINE);
  const edges = files.flatMap((file) => specifiers(file).map((spec) => ({ file, spec, to: spec.startsWith('.') ? target(file, spec) : null })));

  it('finds the engine sources and their imports', () => {
    expect(files.length).toBeGreaterThan(10);
    expect(edges.some((e) => e.to !== null && inside(e.to, BOTS))).toBe(true); // the barrel's, at least
  });

  it('imports nothing outside src/engine but @noble/hashes', () => {
    const offending = edges
      .filter(({ spec, to }) => (to === null ? !PACKAGES.some((re) => re.test(spec)) : !inside(to, ENGINE) || !existsSync(to)))
      .map(({ file, spec }) => `${relative(ENGINE, file)}: ${spec}`);
    expect(offending).toEqual([]);
  });

  it('keeps bots/ out of the core: decider, audit, views and the rest never import a bot', () => {
    const offending = edges
      .filter(({ file, to }) => !inside(file, BOTS) && !NOT_CORE.has(file) && to !== null && inside(to, BOTS))
      .map(({ file, spec }) => `${relative(ENGINE, file)}: ${spec}`);
    expect(offending).toEqual([]);
  });
});
