/**
 * Docs that check themselves. A code comment, a description in the public
 * contracts (openapi.yaml, schema.graphql) or the database schema that sends
 * its reader to a section of the README or of a guide must name a section
 * that exists; and the README's account of what follows an append names the
 * steps src/reactions/after-append.ts declares, in its order.
 *
 * A citation is a Markdown file (README, README.md, sdk/README.md,
 * docs/x.md, ...) followed by one or more quoted section names:
 * `README "Lobby"`, `README, "Ratings"`, `README's "Layout"`,
 * `docs/tournaments.md "Pairing"`, `docs/archives.md, "Import"`,
 * `README "Abort", "Rematch"`; a name may wrap onto the next comment line.
 * `the README's Environment table` (a capitalized name, then table, section,
 * list or guide) is one too, and so is a link `(x.md#anchor)`. A section is a
 * Markdown heading (# to ######, outside fenced blocks), compared
 * case-sensitively on its text without backticks; a trailing qualifier in
 * parentheses may be left out (`"Player-contributed seeds"` for the heading
 * "Player-contributed seeds (from `scopa-rules/2`)"), and so may what follows a
 * heading's first colon (`"Fourth pass"` for "Fourth pass: V8's young
 * generation"). An anchor is compared with GitHub's slug of each heading.
 * The Markdown documents are read too (they cite each other the same way);
 * a link in one of them is relative to it.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { slugger } from '../scripts/render-guides.mjs';
import { AFTER_APPEND_STEPS, SQL_STEP } from '../src/reactions/after-append';

const root = process.cwd();
const read = (file: string) => readFileSync(path.join(root, file), 'utf8');

/** Where the comments that cite the docs are: code, the contracts, the Prisma schema. */
const CODE_DIRS = ['src', 'test', 'sdk/src', 'scripts', 'bench', 'web/src', 'prisma', 'graphiql/src'];
const CODE_EXT = /\.(ts|mts|cts|js|mjs|cjs|prisma)$/;
/** Not ours to edit: dependencies, builds, and the Prisma client (generated from prisma/schema.prisma, which is scanned). */
const SKIP = new Set(['node_modules', 'dist', 'src/database/generated', 'prisma/migrations']);

function walk(dir: string): string[] {
  if (!existsSync(path.join(root, dir))) return [];
  return readdirSync(path.join(root, dir)).flatMap((name) => {
    const rel = path.posix.join(dir, name);
    if (SKIP.has(name) || SKIP.has(rel)) return [];
    if (statSync(path.join(root, rel)).isDirectory()) return walk(rel);
    return CODE_EXT.test(name) ? [rel] : [];
  });
}

const rootCode = readdirSync(root).filter((f) => CODE_EXT.test(f) && statSync(path.join(root, f)).isFile());
/** This file is left out: its comment shows the shapes with sections that need not exist (the first test reads them). */
const SELF = 'test/doc-citations.e2e-spec.ts';
/** The Markdown documents cite each other's sections in the same words. */
const markdown = [
  'README.md',
  'bench/README.md',
  'sdk/README.md',
  'examples/bot/README.md',
  ...readdirSync(path.join(root, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
].filter((f) => existsSync(path.join(root, f)));
const citing = [...CODE_DIRS.flatMap(walk), ...rootCode, 'openapi.yaml', 'schema.graphql', ...markdown].filter((f) => f !== SELF).sort();

/** A file's text on one line: a line break and the comment marker of the next line become one space, so a wrapped name reads whole. */
const joined = (text: string) => text.replace(/[ \t]*\r?\n[ \t]*(?:\*(?!\/)|\/\/\/?|#)?[ \t]*/g, ' ');

interface Section {
  headings: Set<string>;
  anchors: Set<string>;
}

const sectionsCache = new Map<string, Section>();
/** The headings of a Markdown file, and their GitHub anchors. */
function sectionsOf(file: string): Section {
  let cached = sectionsCache.get(file);
  if (!cached) {
    const slug = slugger();
    cached = { headings: new Set(), anchors: new Set() };
    for (const line of read(file)
      .replace(/^```[\s\S]*?^```/gm, '')
      .split('\n')) {
      const m = /^#{1,6} (.*?)\s*#*\s*$/.exec(line);
      if (!m) continue;
      const text = m[1].replace(/`/g, '');
      cached.headings.add(text);
      cached.anchors.add(slug(text));
      const unqualified = /^(.*\S) \([^()]*\)$/.exec(text);
      if (unqualified) cached.headings.add(unqualified[1]);
      const title = /^(.*?\S): /.exec(text);
      if (title) cached.headings.add(title[1]);
    }
    sectionsCache.set(file, cached);
  }
  return cached;
}

/** The Markdown file a citation names, relative to the root: README is the root's, sdk/README.md the SDK's, x.md in a link the guide beside the others. */
function documentOf(name: string): string {
  if (name === 'README' || name === 'README.md') return 'README.md';
  return name;
}

interface Citation {
  at: string;
  document: string;
  section?: string;
  anchor?: string;
}

/** A document then one or more quoted names; the document is not the tail of a longer word or path. */
const QUOTED = /(?<![\w.-])((?:[\w-]+\/)*(?:README(?:\.md)?|[\w-]+\.md))(?:'s)?,? +((?:"[^"\n]+"(?:,? +(?:and +)?(?="))?)+)/g;
/** `the README's Environment table`: a capitalized name, then what it is. */
const NAMED = /(?<![\w/.-])(README(?:\.md)?)'s +((?:[A-Z][\w-]*)(?: +[A-Z][\w-]*)*) +(?:table|section|list|guide)\b/g;
/** A link to a heading: (docs/x.md#anchor), (x.md#anchor), (README.md#anchor). */
const ANCHOR = /\(((?:[\w.-]+\/)*[\w-]+\.md)#([\w-]+)\)/g;

function citationsIn(file: string): Citation[] {
  const text = joined(read(file));
  const out: Citation[] = [];
  for (const m of text.matchAll(QUOTED)) {
    for (const [, section] of m[2].matchAll(/"([^"]+)"/g)) out.push({ at: file, document: documentOf(m[1]), section: section.replace(/`/g, '') });
  }
  for (const m of text.matchAll(NAMED)) out.push({ at: file, document: documentOf(m[1]), section: m[2] });
  for (const m of text.matchAll(ANCHOR)) {
    const doc = file.endsWith('.md')
      ? path.posix.normalize(path.posix.join(path.posix.dirname(file), m[1]))
      : m[1].includes('/') || m[1] === 'README.md'
        ? m[1]
        : `docs/${m[1]}`;
    out.push({ at: file, document: doc, anchor: m[2] });
  }
  return out;
}

const citations = citing.flatMap(citationsIn);

describe('citations of the docs', () => {
  it('finds the citations where the code and the contracts make them', () => {
    // The scan itself: if a change to the patterns stopped seeing these shapes, every check below would pass unseen.
    expect(citing).toEqual(expect.arrayContaining(['src/reactions/after-append.ts', 'openapi.yaml', 'schema.graphql', 'prisma/schema.prisma']));
    expect(citations.length).toBeGreaterThan(30);
    expect(citations.filter((c) => c.at === 'openapi.yaml').length).toBeGreaterThan(0);
    expect(citations.filter((c) => c.at === 'schema.graphql').length).toBeGreaterThan(0);
    expect(citationsIn(SELF).map((c) => `${c.document} ${c.section ?? '#' + c.anchor}`)).toEqual(
      expect.arrayContaining([
        'README.md Lobby',
        'README.md Ratings',
        'README.md Layout',
        'docs/tournaments.md Pairing',
        'docs/archives.md Import',
        'README.md Abort',
        'README.md Rematch',
        'README.md Environment',
      ]),
    );
  });

  it('every cited document exists', () => {
    const missing = citations.filter((c) => !existsSync(path.join(root, c.document))).map((c) => `${c.at}: ${c.document}`);
    expect([...new Set(missing)]).toEqual([]);
  });

  it('every cited section is a heading of its document', () => {
    const stale = citations
      .filter((c) => existsSync(path.join(root, c.document)))
      .filter((c) => (c.section !== undefined ? !sectionsOf(c.document).headings.has(c.section) : !sectionsOf(c.document).anchors.has(c.anchor!)))
      .map((c) => `${c.at}: ${c.document} ${c.section !== undefined ? `"${c.section}"` : `#${c.anchor}`}`);
    expect(stale).toEqual([]);
  });
});

describe("the README's account of what follows an append", () => {
  const source = read('src/reactions/after-append.ts');
  const readme = read('README.md');

  /** The steps as after-append.ts's own comment lists them: `N. \`name\`` and the file of each (its first src/ path). */
  const documented = [...joined(source.slice(0, source.indexOf('*/'))).matchAll(/(\d+)\. `(\w+)`([\s\S]*?)(?=\d+\. `|An import|$)/g)].map(
    ([, n, name, text]) => ({
      n: Number(n),
      name,
      file: /\(?(src\/[\w/.-]+\.ts)/.exec(text)?.[1],
    }),
  );

  it("after-append.ts's comment lists the declared steps, numbered in order", () => {
    expect(documented.map((s) => s.name)).toEqual([...AFTER_APPEND_STEPS]);
    expect(documented.map((s) => s.n)).toEqual(AFTER_APPEND_STEPS.map((_, i) => i));
    // step 0 is SQL; every other step names the file that does it
    expect(documented.slice(1).every((s) => s.file && existsSync(path.join(root, s.file)))).toBe(true);
  });

  it('the Layout names every step, by its declared name, in order', () => {
    const row = readme.split('\n').find((l) => l.startsWith('| `src/reactions/` |'));
    expect(row).toBeDefined();
    const at = row!.indexOf('its steps, in order:');
    expect(at).toBeGreaterThan(0);
    const list = row!.slice(at, row!.indexOf(';', at));
    const names = [...list.matchAll(/`(\w+)`/g)].map((m) => m[1]);
    expect(names).toEqual([...AFTER_APPEND_STEPS]);
  });

  it('"Life of a play" runs the SQL step in the append, then the files of the other steps in order', () => {
    const life = joined(readme.slice(readme.indexOf('\n## Life of a play'), readme.indexOf('\n## Where to go next')));
    const play = life.slice(life.indexOf('**A play.**'), life.indexOf('**A seek that pairs.**'));
    const start = play.indexOf('`src/reactions/after-append.ts`, in order:');
    expect(start).toBeGreaterThan(0);
    expect(play.slice(0, start)).toContain(`\`${SQL_STEP.trigger}\``);
    const list = play.slice(start, play.indexOf(' → ', start));
    // the list may name more (where a step's channels are declared); the steps' own files must all be there, in order
    const stepFiles = documented.slice(1).map((s) => s.file);
    const files = [...list.matchAll(/`(src\/[\w/.-]+\.ts)`/g)].map((m) => m[1]).filter((f) => stepFiles.includes(f));
    expect(files).toEqual(stepFiles);
  });
});
