import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { runConformance } from './conformance';

const OWN = path.join(process.cwd(), 'test', 'conformance');
const SHARED = path.join(process.cwd(), '..', 'shared', 'conformance');

/** The `.json` files under a folder and its subfolders (such as variants/), as paths relative to it. */
function vectorFiles(dir: string, under = ''): string[] {
  if (!existsSync(path.join(dir, under))) return [];
  return readdirSync(path.join(dir, under), { withFileTypes: true }).flatMap((entry) => {
    const rel = path.join(under, entry.name);
    if (entry.isDirectory()) return vectorFiles(dir, rel);
    return entry.name.endsWith('.json') ? [rel] : [];
  });
}

const files = vectorFiles(OWN);

describe("the project's copy of the conformance vectors", () => {
  it.each(files)('%s: every case passes', (file) => {
    const report = runConformance(readFileSync(path.join(OWN, file), 'utf8'));
    expect(report.malformed).toBeFalsy();
    expect(report.failures).toEqual([]);
    expect(report.passed).toBeGreaterThan(0);
  });

  it('holds the vectors of the games of other packs (variants/)', () => {
    expect(files).toContain(path.join('variants', 'variants.json'));
  });

  // Beside the rules contract's checkout, the copy must not have drifted from it, subfolders included.
  const sharedFiles = vectorFiles(SHARED);
  (sharedFiles.length ? it : it.skip)('is the same as the rules contract vectors it was copied from', () => {
    expect(sharedFiles).toContain(path.join('variants', 'variants.json'));
    for (const f of sharedFiles) expect(readFileSync(path.join(OWN, f), 'utf8')).toBe(readFileSync(path.join(SHARED, f), 'utf8'));
  });
});
