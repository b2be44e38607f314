/**
 * Conformance runner: checks the engine against rule vectors in the
 * `scopa-conformance/1` format. Usage: npm run conformance -- FILE...
 * Prints one line per failing case, then `N passed, M failed`; exits
 * non-zero on any failure or malformed file.
 */
import { readFileSync } from 'node:fs';
import { runConformance } from '../src/engine/conformance';

const files = process.argv.slice(2);
if (files.length === 0) {
  console.error('usage: npm run conformance -- FILE...');
  process.exit(2);
}

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
process.exit(failed > 0 || malformed ? 1 : 0);
