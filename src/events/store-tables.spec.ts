/**
 * The store's tables have one reader: src/events (the match store, the
 * match archive and the statements behind them). The store's tables are the
 * log and what the append statement projects from it in the same
 * statement: `matches`, `match_players` and `match_events`. Other features
 * ask the store (MatchStore's read methods, ./match-reads.ts) or the archive
 * (./match-archive.ts) instead of querying them, so the tables' shape is
 * known in one folder. Tables other features own (match_clocks, ratings,
 * the webhook outbox, lobby seeks...) are theirs, even when a trigger on the
 * log writes them.
 *
 * Checked on the code of every source file outside src/events (comments and
 * tests aside): no SQL that reads or writes one of those tables, no Prisma
 * delegate of their models. The exceptions below are statements that must
 * read a match row in the same statement as a write of their own table,
 * for atomicity; each names its reason, and an exception that no longer
 * applies fails too.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

const SRC = join(process.cwd(), 'src');
const STORE_TABLES = ['matches', 'match_players', 'match_events'] as const;

const EXCEPTIONS: Record<string, { tables: string[]; why: string }> = {
  'clocks/clock-low.ts': {
    tables: ['matches'],
    why: 'one statement picks the low turn clocks of playing matches and records each in clock_low_notices and the webhook outbox: at most once per turn on any number of instances',
  },
  'clocks/pending-starts.ts': {
    tables: ['matches'],
    why: 'the pending start row is written only while the match is open, in one statement (also inside the transactions that create a match)',
  },
};

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (name === 'generated') return [];
    if (statSync(path).isDirectory()) return sources(path);
    return path.endsWith('.ts') && !path.endsWith('.spec.ts') ? [path] : [];
  });
}

const code = (file: string) => readFileSync(file, 'utf8').replace(/\/\*[\s\S]*?\*\//g, '').replace(/\/\/.*$/gm, '');

/** The store's tables this code queries: by name in SQL, or through the Prisma delegate of their model. */
function storeTablesIn(text: string): string[] {
  const found = new Set<string>();
  for (const table of STORE_TABLES) {
    const inSql = new RegExp(`\\b(?:FROM|JOIN|UPDATE|INTO|TABLE)\\s+(?:ONLY\\s+)?${table}\\b`, 'i');
    if (inSql.test(text) || (table === 'match_events' && /\bmatch_events\b/.test(text))) found.add(table);
  }
  const delegates: Record<string, string> = { match: 'matches', matchPlayer: 'match_players', matchEvent: 'match_events' };
  for (const m of text.matchAll(/\.(match|matchPlayer|matchEvent)\.(find\w*|count|aggregate|groupBy|create\w*|update\w*|upsert|delete\w*)\(/g)) {
    found.add(delegates[m[1]]);
  }
  return [...found].sort();
}

const outside = sources(SRC)
  .map((file) => relative(SRC, file))
  .filter((file) => !file.startsWith('events/'))
  .map((file) => ({ file, tables: storeTablesIn(code(join(SRC, file))) }));

it('reads the whole tree, and the check finds what it looks for', () => {
  expect(outside.length).toBeGreaterThan(80);
  expect(storeTablesIn('SELECT seq FROM match_events WHERE match_id = $1')).toEqual(['match_events']);
  expect(storeTablesIn(`SELECT 1 FROM match_players mp\n JOIN matches m ON m.id = mp.match_id`)).toEqual(['match_players', 'matches']);
  expect(storeTablesIn('await this.prisma.match.findUnique({ where: { id } })')).toEqual(['matches']);
  expect(storeTablesIn('await tx.matchEvent.findMany({})')).toEqual(['match_events']);
  expect(storeTablesIn('SELECT * FROM rematch_offers WHERE new_match_id = $1')).toEqual([]);
});

it('no file outside src/events queries the store\'s tables', () => {
  const offending = outside.filter(({ file, tables }) => tables.some((t) => !EXCEPTIONS[file]?.tables.includes(t))).map(({ file, tables }) => `${file}: ${tables.join(', ')}`);
  expect(offending).toEqual([]);
});

it('every exception still applies', () => {
  const used = Object.entries(EXCEPTIONS).map(([file, { tables }]) => ({ file, tables, found: outside.find((o) => o.file === file)?.tables ?? [] }));
  expect(used.filter((u) => u.tables.some((t) => !u.found.includes(t))).map((u) => u.file)).toEqual([]);
});
