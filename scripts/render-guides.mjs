// The guides (docs/*.md) as pages of the /docs site, rendered with marked:
// headings get GitHub's anchors (so a link written for GitHub works on the
// site too), links between guides point at the rendered pages, and every page
// has the same navigation. The list and its order come from the README's
// "Guides" table, so the site and the README cannot list different guides.
// Used by scripts/build-docs.mjs (npm run docs) and test/docs-guides.e2e-spec.ts.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Marked } from 'marked';

/** GitHub's heading anchor: lowercase, punctuation dropped, spaces to hyphens; a repeat gets -1, -2, ... */
export function slugger() {
  const seen = new Map();
  return (text) => {
    const base = text
      .trim()
      .toLowerCase()
      .replace(/<[^>]*>/g, '')
      .replace(/[^\p{L}\p{N}\p{M}\p{Pc}\- ]/gu, '')
      .replace(/ /g, '-');
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    return n === 0 ? base : `${base}-${n}`;
  };
}

/** The guides the README's "Guides" table lists, in its order: file (docs/x.md), title, what is in it. */
export function guidesOf(readme) {
  const start = readme.indexOf('\n## Guides');
  if (start < 0) throw new Error('README.md has no "## Guides" section');
  const end = readme.indexOf('\n## ', start + 1);
  const guides = [];
  for (const line of readme.slice(start, end < 0 ? undefined : end).split('\n')) {
    const m = /^\| \[([^\]]+)\]\(docs\/([\w-]+\.md)\) \| (.*) \|$/.exec(line);
    if (m) guides.push({ file: m[2], title: m[1], summary: m[3] });
  }
  return guides;
}

const STYLE = `
  body { font-family: system-ui, sans-serif; margin: 0; color: #222; line-height: 1.5; }
  .layout { display: flex; gap: 2rem; max-width: 78rem; margin: 0 auto; padding: 1rem; }
  nav { flex: 0 0 14rem; font-size: .92rem; } nav ul { list-style: none; padding: 0; } nav li { margin: .3rem 0; }
  main { flex: 1; min-width: 0; }
  a { color: #0b5394; } code { background: #f3f3f3; padding: 0 .25rem; }
  pre { background: #f6f6f6; padding: .75rem; overflow-x: auto; } pre code { background: none; padding: 0; }
  table { border-collapse: collapse; display: block; overflow-x: auto; } th, td { border: 1px solid #ddd; padding: .3rem .5rem; vertical-align: top; }
  nav a[aria-current] { font-weight: bold; }
`;

function page(title, nav, body) {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}: Scopa as a service</title>
<style>${STYLE}</style>
</head>
<body>
<div class="layout">
<nav aria-label="Guides">${nav}</nav>
<main>
${body}
</main>
</div>
</body>
</html>
`;
}

function escapeHtml(s) {
  return s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]);
}

/**
 * Renders every guide of the README's table (docs/<name>.md under root) into outDir/<name>.html.
 * Returns the guides, each with the anchors its page has (for the link checks).
 */
export function renderGuides({ root, outDir }) {
  const readme = readFileSync(path.join(root, 'README.md'), 'utf8');
  const guides = guidesOf(readme);
  if (guides.length === 0) throw new Error('the README\'s "Guides" table lists no guide');
  mkdirSync(outDir, { recursive: true });
  const inline = (md) => new Marked().parseInline(md);
  const navFor = (current) =>
    `<p><a href="../">Guides and API reference</a></p><ul>${guides
      .map((g) => `<li><a href="${g.file.replace(/\.md$/, '.html')}"${g.file === current ? ' aria-current="page"' : ''}>${escapeHtml(g.title)}</a></li>`)
      .join('')}</ul><p><a href="../api/">REST API reference</a><br><a href="../sdk/">SDK reference</a><br><a href="../schema.graphql">schema.graphql</a></p>`;
  const rendered = [];
  for (const guide of guides) {
    const source = readFileSync(path.join(root, 'docs', guide.file), 'utf8');
    const slug = slugger();
    const anchors = [];
    let title = guide.title;
    const marked = new Marked({
      gfm: true,
      walkTokens(token) {
        // a link to another guide points at its rendered page
        if (token.type === 'link' && /^[\w-]+\.md(#.*)?$/.test(token.href)) token.href = token.href.replace(/\.md(#|$)/, '.html$1');
      },
      renderer: {
        heading({ tokens, depth, text }) {
          const id = slug(text.replace(/`/g, ''));
          anchors.push(id);
          if (depth === 1) title = text.replace(/`/g, '');
          return `<h${depth} id="${id}">${this.parser.parseInline(tokens)}</h${depth}>\n`;
        },
      },
    });
    const html = marked.parse(source);
    const out = path.join(outDir, guide.file.replace(/\.md$/, '.html'));
    writeFileSync(out, page(escapeHtml(title), navFor(guide.file), html));
    rendered.push({ ...guide, page: out, anchors, summaryHtml: inline(guide.summary) });
  }
  return rendered;
}
