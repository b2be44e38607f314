/**
 * The Node versions package.json claims and those the installed packages
 * declare agree: every installed package accepts the lowest Node version the
 * project claims, except the few in DECLARED_HIGHER, each with the reason it
 * still runs (or is never run) there. A new dependency that needs a newer
 * Node fails here instead of printing one more EBADENGINE warning.
 * CI runs this suite on the machine's Node (20.20 here, the lowest line claimed).
 */
import { readFileSync, readdirSync, existsSync, realpathSync } from 'node:fs';
import path from 'node:path';
import semver from 'semver';
import { canonicalJson } from '../src/stream-store/stream-store';

const root = process.cwd();
const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { engines: { node: string } };

/**
 * Packages that declare a newer Node than the project claims, and why the claim still holds. None (issue 47: a fresh
 * install prints no EBADENGINE line): canonicalize is pinned at 2.1.0, openapi-backend at 5.20.1, and the Prisma CLI's
 * @prisma/streams-local (only `prisma dev` loads it) is stubs/prisma-streams-local, a workspace at the version asked for (docs/development.md "Install").
 */
const DECLARED_HIGHER: Record<string, string> = {};

function installedPackages(dir: string, out: Map<string, { version: string; node?: string }>): void {
  if (!existsSync(dir)) return;
  for (const entry of readdirSync(dir)) {
    if (entry.startsWith('.')) continue;
    const scoped = entry.startsWith('@');
    for (const name of scoped ? readdirSync(path.join(dir, entry)).map((e) => `${entry}/${e}`) : [entry]) {
      const file = path.join(dir, name, 'package.json');
      if (!existsSync(file)) continue;
      const p = JSON.parse(readFileSync(file, 'utf8')) as { version: string; engines?: { node?: string } };
      out.set(`${name}@${p.version}`, { version: p.version, node: typeof p.engines?.node === 'string' ? p.engines.node : undefined });
      installedPackages(path.join(dir, name, 'node_modules'), out);
    }
  }
}

describe('Node engines: the claim and the dependencies agree', () => {
  const lowest = semver.minVersion(pkg.engines.node)!.version;
  const packages = new Map<string, { version: string; node?: string }>();
  installedPackages(path.join(root, 'node_modules'), packages);

  it(`this Node (${process.version}) is one the project claims (${pkg.engines.node})`, () => {
    expect(semver.satisfies(process.version, pkg.engines.node)).toBe(true);
  });

  it('every installed package accepts the lowest claimed Node', () => {
    expect(packages.size).toBeGreaterThan(300);
    const higher = [...packages]
      .filter(([, p]) => p.node !== undefined && semver.validRange(p.node) !== null && !semver.satisfies(lowest, p.node))
      .map(([id]) => id.replace(/@[^@]+$/, ''));
    expect([...new Set(higher)].sort()).toEqual(Object.keys(DECLARED_HIGHER).sort());
  });

  it("prisma dev's @prisma/streams-local is the project's stub, at the version @prisma/dev asks for", () => {
    const installed = realpathSync(path.join(root, 'node_modules', '@prisma', 'streams-local'));
    expect(installed).toBe(realpathSync(path.join(root, 'stubs', 'prisma-streams-local')));
    const dev = JSON.parse(readFileSync(path.join(root, 'node_modules', '@prisma', 'dev', 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
    const stub = JSON.parse(readFileSync(path.join(installed, 'package.json'), 'utf8')) as { version: string };
    expect(semver.satisfies(stub.version, dev.dependencies['@prisma/streams-local'])).toBe(true);
    expect(existsSync(path.join(root, 'node_modules', '@prisma', 'dev', 'node_modules', '@prisma', 'streams-local'))).toBe(false);
  });

  it('the canonical JSON of the hash chains: RFC 8785 output, lone surrogates refused, pairs and escaped backslashes kept', () => {
    expect(canonicalJson({ b: [1, 2.5e-7, 'é'], a: { z: null, y: true }, c: 1e21 })).toBe('{"a":{"y":true,"z":null},"b":[1,2.5e-7,"é"],"c":1e+21}');
    expect(() => canonicalJson({ s: '\ud800' })).toThrow(/lone surrogate/);
    expect(() => canonicalJson({ s: 'a\\\udfff' })).toThrow(/lone surrogate/);
    expect(() => canonicalJson({ ['\udc00']: 1 })).toThrow(/lone surrogate/);
    expect(canonicalJson({ s: '\ud83c\udca1' })).toBe('{"s":"\ud83c\udca1"}');
    expect(canonicalJson({ s: '\\ud800' })).toBe('{"s":"\\\\ud800"}');
  });
});
