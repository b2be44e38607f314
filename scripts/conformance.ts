/**
 * Conformance runner: checks the engine against rule vectors in the
 * `scopa-conformance/1` format. Usage: npm run conformance [-- FILE...];
 * with no file, the project's own copy of the vectors (test/conformance/
 * and its subfolders, such as variants/).
 * Prints one line per failing case, then `N passed, M failed`; exits
 * non-zero on any failure, malformed file, or when no case ran.
 */
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { runConformance } from '../src/engine/conformance';

const OWN_VECTORS = path.join(process.cwd(), 'test', 'conformance');

/** The `.json` files under a folder, its subfolders included, in a stable order. */
function vectorFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .sort((a, b) => (a.name < b.name ? -1 : 1))
    .flatMap((entry) => {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) return vectorFiles(full);
      return entry.name.endsWith('.json') ? [full] : [];
    });
}

const files = process.argv.slice(2).length ? process.argv.slice(2) : vectorFiles(OWN_VECTORS);

let passed = 0;
let failed = 0;
let malformed = false;
for (const file of files) {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    console.error(`${file}: cannot read (${(err as Error).message})`);
    malformed = true;
    continue;
  }
  const report = runConformance(text);
  if (report.malformed) {
    console.error(`${file}: malformed: ${report.malformed}`);
    malformed = true;
    continue;
  }
  for (const failure of report.failures) {
    console.log(`FAIL ${failure.id}: expected ${JSON.stringify(failure.expected)}, got ${JSON.stringify(failure.actual)}`);
  }
  passed += report.passed;
  failed += report.failures.length;
}
console.log(`${passed} passed, ${failed} failed`);
if (passed + failed === 0) console.error('no case ran: give files of the scopa-conformance/1 format');
process.exit(failed > 0 || malformed || passed + failed === 0 ? 1 : 0);
