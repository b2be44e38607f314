import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

// The engine runs in browsers and in the audit tool: it may import only its
// own files and @noble/hashes (test files are exempt).
const ALLOWED = [/^\.{1,2}\//, /^@noble\/hashes\//];

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return path.endsWith('.ts') && !path.endsWith('.spec.ts') ? [path] : [];
  });
}

it('the rules engine imports nothing but itself and @noble/hashes', () => {
  const files = sources(join(process.cwd(), 'src', 'engine'));
  expect(files.length).toBeGreaterThan(10);
  const offending: string[] = [];
  for (const file of files) {
    // comments may name such things; code may not
    const text = readFileSync(file, 'utf8')
      .replace(/\/\*[\s\S]*?\*\//g, '')
      .replace(/\/\/.*$/gm, '');
    for (const m of text.matchAll(/(?:from|import)\s*\(?\s*['"]([^'"]+)['"]/g)) {
      if (!ALLOWED.some((re) => re.test(m[1]))) offending.push(`${file}: ${m[1]}`);
    }
    if (/\brequire\(|process\.|Date\.now|Math\.random|performance\.now/.test(text)) offending.push(`${file}: uses the environment`);
  }
  expect(offending).toEqual([]);
});
