/**
 * The Node versions package.json claims and those the installed packages
 * declare agree: every installed package accepts the lowest Node version the
 * project claims, except the few in DECLARED_HIGHER, each with the reason it
 * still runs (or is never run) there. A new dependency that needs a newer
 * Node fails here instead of printing one more EBADENGINE warning.
 * CI runs this suite on the machine's Node (20.20 here, the lowest line claimed).
 */
import { readFileSync, readdirSync, existsSync } from 'node:fs';
import path from 'node:path';
import semver from 'semver';
import canonicalize from 'canonicalize';

const root = process.cwd();
const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { engines: { node: string } };

/** Packages that declare a newer Node than the project claims, and why the claim still holds. */
const DECLARED_HIGHER: Record<string, string> = {
  // The hash chain's RFC 8785 canonicalizer. 5.x declares >=22 as its support policy; it needs only
  // String.prototype.isWellFormed (Node >= 20). 4.x declares >=18 but only has an "import" export
  // condition, which the CommonJS build (dist/) cannot require. Checked below on this Node.
  canonicalize: 'runs on Node 20: uses nothing newer than String.prototype.isWellFormed',
  // The Prisma CLI's `prisma dev` local database server (prisma -> @prisma/dev, pinned by prisma).
  // The project only runs `prisma generate` (postinstall); the service uses the generated client.
  '@prisma/streams-local': 'part of `prisma dev`, which the project never runs',
  // openapi-backend's (a devDependency: the suites' contract-response validator, test/support/contract-validator.cjs)
  // $ref resolver; 16.x declares >=22.19 and runs every e2e suite's response checks on Node 20.
  '@apidevtools/json-schema-ref-parser': 'test-only: resolves openapi.yaml for the response validator; every suite runs it on Node 20',
};

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

  it('every installed package accepts the lowest claimed Node, but the known few', () => {
    expect(packages.size).toBeGreaterThan(300);
    const higher = [...packages]
      .filter(([, p]) => p.node !== undefined && semver.validRange(p.node) !== null && !semver.satisfies(lowest, p.node))
      .map(([id]) => id.replace(/@[^@]+$/, ''));
    expect([...new Set(higher)].sort()).toEqual(Object.keys(DECLARED_HIGHER).sort());
  });

  it('canonicalize works on this Node: RFC 8785 output, lone surrogates refused', () => {
    expect(canonicalize({ b: [1, 2.5e-7, 'é'], a: { z: null, y: true }, c: 1e21 })).toBe('{"a":{"y":true,"z":null},"b":[1,2.5e-7,"é"],"c":1e+21}');
    expect(() => canonicalize({ s: '\ud800' })).toThrow();
  });
});
