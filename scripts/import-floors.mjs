// The height of the folders' import graph below a source folder (default src/): each top folder is a floor, a folder stands one floor above
// the highest folder it imports (specs and generated code left out, as in src/layering.spec.ts). -v lists every folder.
// Usage: node scripts/import-floors.mjs [src] [-v]
import { readFileSync, readdirSync, statSync, existsSync } from 'node:fs';
import { join, relative, resolve, dirname } from 'node:path';
const SRC = resolve(process.argv.slice(2).find((a) => !a.startsWith('-')) ?? 'src');
const files = (d) =>
  readdirSync(d).flatMap((n) => {
    const p = join(d, n);
    if (n === 'generated') return [];
    if (statSync(p).isDirectory()) return files(p);
    return p.endsWith('.ts') && !p.endsWith('.spec.ts') ? [p] : [];
  });
const strip = (t) => t.replace(/\/\*[\s\S]*?\*\//g, '').replace(/\/\/.*$/gm, '');
const edges = new Map();
for (const f of files(SRC)) {
  const rel = relative(SRC, f);
  if (!rel.includes('/')) continue;
  const from = rel.split('/')[0];
  if (!edges.has(from)) edges.set(from, new Set());
  for (const m of strip(readFileSync(f, 'utf8')).matchAll(/(?:from|import)\s*\(?\s*['"]([^'"]+)['"]/g)) {
    if (!m[1].startsWith('.')) continue;
    const to = relative(SRC, resolve(dirname(f), m[1]));
    if (!to.includes('/') && !(existsSync(join(SRC, to)) && statSync(join(SRC, to)).isDirectory())) continue;
    const t = to.split('/')[0];
    if (t !== from) edges.get(from).add(t);
  }
}
const memo = new Map();
const path = new Map();
const h = (n, seen = new Set()) => {
  if (memo.has(n)) return memo.get(n);
  if (seen.has(n)) throw new Error('cycle at ' + n);
  seen.add(n);
  let best = 1,
    via = null;
  for (const t of edges.get(n) ?? []) {
    const v = 1 + h(t, seen);
    if (v > best) {
      best = v;
      via = t;
    }
  }
  seen.delete(n);
  memo.set(n, best);
  path.set(n, via);
  return best;
};
let top = null,
  H = 0;
for (const n of [...edges.keys()].sort()) {
  const v = h(n);
  if (v > H) {
    H = v;
    top = n;
  }
}
const chain = [];
for (let n = top; n; n = path.get(n)) chain.push(n);
console.log(`floors: ${H}`);
console.log('tallest chain: ' + chain.join(' -> '));
if (process.argv.includes('-v'))
  for (const [n] of [...memo].sort((a, b) => b[1] - a[1])) console.log(memo.get(n), n, '->', [...(edges.get(n) ?? [])].sort().join(' '));
