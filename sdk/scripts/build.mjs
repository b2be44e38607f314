// Builds the SDK twice with tsc: ESM (dist/esm) and CommonJS (dist/cjs), each with
// its type declarations. Usage: node scripts/build.mjs [outDir] (default dist).
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const sdk = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const out = path.resolve(process.argv[2] ?? path.join(sdk, 'dist'));
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');

rmSync(out, { recursive: true, force: true });
for (const [config, dir, type] of [
  ['tsconfig.json', 'esm', 'module'],
  ['tsconfig.cjs.json', 'cjs', 'commonjs'],
]) {
  execFileSync(process.execPath, [tsc, '-p', path.join(sdk, config), '--outDir', path.join(out, dir)], { stdio: 'inherit' });
  // each half says how Node loads its .js files, whatever the package's own "type"
  writeFileSync(path.join(out, dir, 'package.json'), JSON.stringify({ type }) + '\n');
}
console.log(`SDK built into ${path.relative(process.cwd(), out) || '.'} (esm, cjs)`);
