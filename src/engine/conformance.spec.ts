import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { runConformance } from './conformance';

const OWN = path.join(process.cwd(), 'test', 'conformance');
const SHARED = path.join(process.cwd(), '..', 'shared', 'conformance');
const files = readdirSync(OWN).filter((f) => f.endsWith('.json'));

describe("the project's copy of the conformance vectors", () => {
  it.each(files)('%s: every case passes', (file) => {
    const report = runConformance(readFileSync(path.join(OWN, file), 'utf8'));
    expect(report.malformed).toBeFalsy();
    expect(report.failures).toEqual([]);
    expect(report.passed).toBeGreaterThan(0);
  });

  // Beside the rules contract's checkout, the copy must not have drifted from it.
  const sharedFiles = existsSync(SHARED) ? readdirSync(SHARED).filter((f) => f.endsWith('.json')) : [];
  (sharedFiles.length ? it : it.skip)('is the same as the rules contract vectors it was copied from', () => {
    for (const f of sharedFiles) expect(readFileSync(path.join(OWN, f), 'utf8')).toBe(readFileSync(path.join(SHARED, f), 'utf8'));
  });
});
