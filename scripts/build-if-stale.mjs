// `npm start` runs this first: a full build (13 to 18 s) only when a source
// is newer than the last successful build, or the build is missing; and the
// API reference served at /docs (`npm run docs`, 20 to 30 s) likewise, from
// its own sources (a failure there is a warning: the service starts anyway).
import { execSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

const root = process.cwd();
const STAMP = path.join(root, 'dist', '.built');
const SOURCES = [
  'src',
  'web/src',
  'web/index.html',
  'web/vite.config.mjs',
  'web/tsconfig.json',
  'sdk/src',
  'graphiql/src',
  'graphiql/index.html',
  'graphiql/vite.config.mjs',
  'graphiql/tsconfig.json',
  'prisma',
  'tsconfig.json',
  'tsconfig.build.json',
  'package.json',
  'package-lock.json',
];
const OUTPUTS = ['dist/main.js', 'web/dist/index.html', 'graphiql/dist/index.html'];

function newest(p) {
  if (!existsSync(p)) return 0;
  const st = statSync(p);
  if (!st.isDirectory()) return st.mtimeMs;
  let max = st.mtimeMs;
  for (const entry of readdirSync(p)) max = Math.max(max, newest(path.join(p, entry)));
  return max;
}

const built = existsSync(STAMP) && OUTPUTS.every((o) => existsSync(path.join(root, o))) ? statSync(STAMP).mtimeMs : 0;
const sources = Math.max(...SOURCES.map((s) => newest(path.join(root, s))));
if (built >= sources) {
  console.log('build is up to date with the sources: not rebuilding');
} else {
  execSync('npm run build', { stdio: 'inherit' }); // its postbuild writes STAMP (scripts/build-stamp.mjs)
}

const DOCS = path.resolve(root, process.env.DOCS_DIR ?? 'docs-site');
const DOCS_STAMP = path.join(DOCS, '.built'); // written by scripts/build-docs.mjs when it succeeds
const DOCS_SOURCES = [
  'openapi.yaml',
  'schema.graphql',
  'sdk/src',
  'sdk/README.md',
  'sdk/tsconfig.json',
  'scripts/build-docs.mjs',
  'scripts/render-guides.mjs',
  'docs',
  'README.md',
  'package-lock.json',
];
const docsBuilt = existsSync(DOCS_STAMP) ? statSync(DOCS_STAMP).mtimeMs : 0;
if (docsBuilt >= Math.max(...DOCS_SOURCES.map((s) => newest(path.join(root, s))))) {
  console.log('the /docs site is up to date with the guides and the contracts: not rebuilding');
} else {
  try {
    execSync('node scripts/build-docs.mjs', { stdio: 'inherit' });
  } catch {
    console.warn('warning: the /docs site could not be built (npm run docs); /docs will answer 404');
  }
}
