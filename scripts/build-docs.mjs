// `npm run docs`: the guides and the API reference, into docs-site/ (DOCS_DIR),
// which the service serves at /docs:
//   docs-site/index.html        the entry page
//   docs-site/guides/           the guides (docs/*.md, rendered by scripts/render-guides.mjs)
//   docs-site/api/              REST: Redoc (@redocly/cli build-docs) from openapi.yaml
//   docs-site/sdk/              the SDK's types: TypeDoc from sdk/src
//   docs-site/openapi.yaml, docs-site/schema.graphql   the contracts themselves
// Everything is built offline from npm packages (Redoc's scripts are bundled in,
// not loaded from a CDN). Inline <script>s are moved into files of their own so
// that the pages run under the service's strict Content-Security-Policy
// (script-src 'self'), which therefore stays as it is on /docs.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { renderGuides } from './render-guides.mjs';

const root = process.cwd();
const out = path.resolve(root, process.env.DOCS_DIR ?? 'docs-site');
const require = createRequire(path.join(root, 'package.json'));
const env = { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' };

function bin(pkg, name) {
  const manifest = require(`${pkg}/package.json`);
  const rel = typeof manifest.bin === 'string' ? manifest.bin : manifest.bin[name];
  return path.join(path.dirname(require.resolve(`${pkg}/package.json`)), rel);
}

const started = Date.now();
rmSync(out, { recursive: true, force: true });
mkdirSync(path.join(out, 'api'), { recursive: true });

/**
 * Runs a documentation tool quietly: its output is shown only when it fails.
 * (Redocly CLI prints two large notices on every build, its Node 20 deprecation
 * and "build-docs now renders docs with Redoc 3", which say nothing about our
 * docs and read like errors on a newcomer's first `npm start`.)
 */
function quietly(what, args) {
  try {
    execFileSync(process.execPath, args, { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 64 * 1024 * 1024 });
  } catch (err) {
    process.stderr.write(`${String(err.stdout ?? '')}${String(err.stderr ?? '')}`);
    throw new Error(`${what} failed (${err.message.split('\n')[0]})`);
  }
}

// REST reference (Redoc), its scripts bundled into the page
quietly('Redoc (REST reference)', [
  bin('@redocly/cli', 'redocly'),
  'build-docs',
  'openapi.yaml',
  '--inlineBundle',
  '--title',
  'Scopa as a service: REST API',
  '-o',
  path.join(out, 'api', 'index.html'),
]);

// SDK reference (TypeDoc)
quietly('TypeDoc (SDK reference)', [
  bin('typedoc', 'typedoc'),
  '--tsconfig',
  'sdk/tsconfig.json',
  '--entryPoints',
  'sdk/src/index.ts',
  '--readme',
  'sdk/README.md',
  '--name',
  '@scopa/sdk',
  '--out',
  path.join(out, 'sdk'),
  '--excludeInternal',
  '--excludePrivate',
  '--disableSources',
  '--logLevel',
  'Error', // the generated REST types use @description, unknown to TypeDoc: a warning per field
]);

// The guides
const guides = renderGuides({ root, outDir: path.join(out, 'guides') });

copyFileSync(path.join(root, 'openapi.yaml'), path.join(out, 'openapi.yaml'));
copyFileSync(path.join(root, 'schema.graphql'), path.join(out, 'schema.graphql'));

writeFileSync(
  path.join(out, 'index.html'),
  `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Scopa as a service: guides and API reference</title>
<style>
  body { font-family: system-ui, sans-serif; max-width: 44rem; margin: 3rem auto; padding: 0 1rem; line-height: 1.5; color: #222; }
  a { color: #0b5394; } li { margin: .4rem 0; } code { background: #f3f3f3; padding: 0 .25rem; }
</style>
</head>
<body>
<h1>Scopa as a service: guides and API reference</h1>
<p>Built by <code>npm run docs</code> from the repository's guides (<code>docs/</code>) and its committed contracts.</p>
<h2>Guides</h2>
<p>New here? Start with <a href="guides/getting-started.html">Getting started</a>: a full match over REST and over GraphQL.</p>
<ul>
${guides.map((g) => `  <li><a href="guides/${path.basename(g.page)}">${g.title}</a>: ${g.summaryHtml}</li>`).join('\n')}
</ul>
<h2>API reference</h2>
<ul>
  <li><a href="api/">REST API</a> (<code>/v1</code>): every operation, its parameters, responses and errors (Redoc, from <a href="openapi.yaml">openapi.yaml</a>)</li>
  <li><a href="sdk/">TypeScript SDK</a> (<code>@scopa/sdk</code>): the client, its helpers and the generated types (TypeDoc)</li>
  <li>GraphQL (<code>/graphql</code>, subscriptions over graphql-ws): <a href="schema.graphql">schema.graphql</a></li>
</ul>
</body>
</html>
`,
);

// Redoc shows an attribution logo that it loads from its CDN: served from here
// instead (img-src 'self'), a plain "Redoc" mark linking where Redoc's does.
const LOGOS = {
  'https://cdn.redoc.ly/redoc/logo-mini-full.svg': ['redoc-logo-full.svg', 72],
  'https://cdn.redoc.ly/redoc/logo-mini.svg': ['redoc-logo.svg', 40],
};
const logo = (width) =>
  `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="16" viewBox="0 0 ${width} 16"><text x="0" y="12" font-family="sans-serif" font-size="12" fill="#0044d4">Redoc</text></svg>\n`;

// Inline scripts -> files beside their page (script-src 'self' then suffices);
// every page gets an empty icon so that no browser asks for /favicon.ico.
let moved = 0;
function externalize(file) {
  let html = readFileSync(file, 'utf8');
  const dir = path.dirname(file);
  if (!/<link[^>]+rel="(?:shortcut )?icon"/i.test(html)) html = html.replace(/<head>/i, '<head><link rel="icon" href="data:,">');
  const rewritten = html.replace(/<script((?:\s+[a-z-]+(?:="[^"]*")?)*)\s*>([\s\S]*?)<\/script>/gi, (whole, attrs, code) => {
    if (/\ssrc=/i.test(attrs) || /\stype="application\/(?:ld\+)?json"/i.test(attrs) || code.trim() === '') return whole;
    for (const [url, [local, width]] of Object.entries(LOGOS)) {
      if (!code.includes(url)) continue;
      code = code.replaceAll(url, local);
      writeFileSync(path.join(dir, local), logo(width));
    }
    const name = `inline-${createHash('sha256').update(code).digest('hex').slice(0, 16)}.js`;
    writeFileSync(path.join(dir, name), code);
    moved++;
    return `<script${attrs} src="${name}"></script>`;
  });
  writeFileSync(file, rewritten);
}
(function walk(dir) {
  for (const name of readdirSync(dir)) {
    const p = path.join(dir, name);
    if (statSync(p).isDirectory()) walk(p);
    else if (name.endsWith('.html')) externalize(p);
  }
})(out);

writeFileSync(path.join(out, '.built'), new Date().toISOString() + '\n');
console.log(
  `docs built into ${path.relative(root, out) || '.'} in ${((Date.now() - started) / 1000).toFixed(1)} s: ${guides.length} guides, the REST and SDK references (${moved} inline scripts moved to files)`,
);
