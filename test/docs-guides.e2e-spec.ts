/**
 * The guides (docs/*.md) and the README: every guide is listed in the README's
 * "Guides" table (the list the /docs site is built from), every relative link
 * of the README and the guides reaches a file that exists and, with an
 * anchor, a heading of it; and the guides render (scripts/render-guides.mjs)
 * into pages the service serves under /docs/guides/, with GitHub's anchors
 * and links between the rendered pages.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { INestApplication } from '@nestjs/common';
import { guidesOf, renderGuides, slugger } from '../scripts/render-guides.mjs';
import { createTestApp, listenOnLoopback } from './support/app';

const root = process.cwd();
const read = (file: string) => readFileSync(path.join(root, file), 'utf8');
const guideFiles = readdirSync(path.join(root, 'docs'))
  .filter((f) => f.endsWith('.md'))
  .sort();
const documents = ['README.md', ...guideFiles.map((f) => `docs/${f}`)];

/** Markdown without its fenced blocks and code spans (where a "link" is only text). */
const prose = (markdown: string) => markdown.replace(/^```[\s\S]*?^```/gm, '').replace(/`[^`\n]*`/g, '');

/** The anchors GitHub gives a Markdown file's headings. */
function anchorsOf(markdown: string): Set<string> {
  const slug = slugger();
  const out = new Set<string>();
  for (const line of markdown.replace(/^```[\s\S]*?^```/gm, '').split('\n')) {
    const m = /^#{1,6} (.*)$/.exec(line);
    if (m) out.add(slug(m[1].replace(/`/g, '')));
  }
  return out;
}

describe('README and guides', () => {
  it('lists every guide in the README, and only guides that exist', () => {
    const listed = guidesOf(read('README.md')).map((g) => g.file);
    expect([...listed].sort()).toEqual(guideFiles);
    expect(listed[0]).toBe('getting-started.md');
  });

  it('keeps the README short: what it is, Quick start, Guides, Layout, where next (in that order)', () => {
    const readme = read('README.md');
    expect(readme.split('\n').length).toBeLessThan(200);
    const headings: string[] = readme.match(/^## .*$/gm) ?? [];
    const order = ['## Quick start', '## Guides', '## Layout', '## Where to go next'].map((h) => headings.indexOf(h));
    expect(order.every((at) => at >= 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    expect(headings.length).toBeLessThanOrEqual(6);
  });

  it.each(documents)('%s: every relative link reaches a file, and its anchor a heading', (file) => {
    const broken: string[] = [];
    for (const [, target] of prose(read(file)).matchAll(/\]\(([^)\s]+)\)/g)) {
      if (/^[a-z]+:/i.test(target)) continue; // http(s), mailto
      const [ref, anchor] = target.split('#');
      const resolved = ref === '' ? file : path.normalize(path.join(path.dirname(file), ref));
      if (!existsSync(path.join(root, resolved))) {
        broken.push(`${target}: no file ${resolved}`);
        continue;
      }
      if (anchor !== undefined && resolved.endsWith('.md') && !anchorsOf(read(resolved)).has(anchor))
        broken.push(`${target}: no heading #${anchor} in ${resolved}`);
    }
    expect(broken).toEqual([]);
  });

  describe('rendered for /docs', () => {
    let dir: string;
    let app: INestApplication;
    let base: string;
    let rendered: ReturnType<typeof renderGuides>;

    beforeAll(async () => {
      dir = mkdtempSync(path.join(tmpdir(), 'docs-site-'));
      rendered = renderGuides({ root, outDir: path.join(dir, 'guides') });
      writeFileSync(path.join(dir, 'index.html'), '<!doctype html><title>index</title>');
      app = await createTestApp({ DOCS_DIR: dir });
      base = (await listenOnLoopback(app)).http;
    });

    afterAll(async () => {
      await app?.close();
      delete process.env.DOCS_DIR;
      if (dir) rmSync(dir, { recursive: true, force: true });
    });

    it('renders every guide into a page, with GitHub anchors and links to the rendered pages', () => {
      expect(rendered.map((g) => path.basename(g.page)).sort()).toEqual(guideFiles.map((f) => f.replace(/\.md$/, '.html')));
      for (const guide of rendered) {
        const html = readFileSync(guide.page, 'utf8');
        expect(new Set(guide.anchors)).toEqual(anchorsOf(read(`docs/${guide.file}`)));
        expect(html).not.toMatch(/href="[\w-]+\.md(#[^"]*)?"/);
        // every link to another guide's anchor lands on an anchor of that page
        for (const [, page, anchor] of html.matchAll(/href="([\w-]+)\.html#([^"]+)"/g)) {
          expect(rendered.find((g) => g.file === `${page}.md`)?.anchors).toContain(anchor);
        }
      }
    });

    it('serves the guides at /docs/guides/, the walkthrough among them', async () => {
      const res = await fetch(`${base}/docs/guides/getting-started.html`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^text\/html/);
      const html = await res.text();
      expect(html).toContain('<h1 id="getting-started">Getting started</h1>');
      expect(html).toContain('<h2 id="2-a-full-match-over-rest-with-curl">');
      expect(html).toContain('href="operations.html#environment"');
      expect(html).toContain('npm install &amp;&amp; npm start');
    });

    it('keeps the Environment table in the operations guide, as one Markdown table', () => {
      const guide = read('docs/operations.md');
      const section = guide.slice(guide.indexOf('\n## Environment'));
      const rows = section.split('\n').filter((l) => l.startsWith('|'));
      expect(rows[0]).toBe('| variable | default | meaning |');
      expect(rows.length).toBeGreaterThan(60);
      expect(section).toContain('| `LOG_LEVEL` |');
    });
  });
});
