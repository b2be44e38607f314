/**
 * Every table has one owning feature folder (docs/development.md, "Data
 * access"): only code in that folder names the table in SQL or calls the
 * Prisma delegate of its model. A feature that needs another's data calls
 * that feature's store or service; a statement that must read another
 * feature's rows in the same statement as its own write (for atomicity)
 * takes the owner's fragment (src/match-store/match-clocks.ts's RUNNING_TURN_CLOCKS,
 * src/ruleset-versions/ruleset-version.ts's lock of a version), so the
 * table's name and shape stay in the owner's folder. No exceptions.
 *
 * The tables are the models of prisma/schema.prisma (their @@map); each
 * needs an owner below, and an owner named for a table that no longer
 * exists fails too. Triggers in migrations are not code: out of scope.
 */
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { sources, withoutComments } from '../test/support/sources';

const SRC = join(process.cwd(), 'src');

/** table → the folder below src/ that owns it. */
const OWNERS: Record<string, string> = {
  accounts: 'auth',
  api_tokens: 'auth',
  sessions: 'auth',
  session_refresh_tokens: 'auth',
  oauth_apps: 'oauth',
  oauth_payloads: 'oauth',
  // a folder that imports no feature: the match store's create statement takes its lock of a version
  rulesets: 'ruleset-versions',
  // the match log and what the append statement projects from it in the same statement
  matches: 'match-store',
  match_players: 'match-store',
  match_events: 'match-store',
  // the deadline of a match: the async-play trigger writes it in the appending statement; the turn reads join it
  match_clocks: 'match-store',
  clock_low_notices: 'clocks',
  webhooks: 'webhooks',
  webhook_deliveries: 'webhooks',
  // the append's trigger and scopa_enqueue_push read it in SQL (migrations are not code)
  push_subscriptions: 'push',
  ratings: 'ratings',
  rated_matches: 'ratings',
  rated_players: 'ratings',
  rating_changes: 'ratings',
  seeks: 'lobby',
  challenges: 'challenges',
  player_settings: 'challenges',
  rematch_offers: 'matches',
  match_analyses: 'analysis',
  tournaments: 'tournaments',
  tournament_players: 'tournaments',
  tournament_events: 'tournaments',
  // which match is which tournament table: read by every match read path (src/match-store/tournament-tables.ts),
  // written by the tournaments through src/match-store/tournament-tables-store.ts
  tournament_tables: 'match-store',
  chat_messages: 'chat',
  // other folders' statements exclude blocked pairs through src/relations/blocked-pairs.ts (seek pairing)
  follows: 'relations',
  blocks: 'relations',
  message_settings: 'relations',
  teams: 'teams',
  team_members: 'teams',
  team_requests: 'teams',
  team_kicks: 'teams',
  // reports and moderation; a ban is a column of accounts (auth's: src/auth/account-bans.ts)
  account_roles: 'moderation',
  reports: 'moderation',
  mutes: 'moderation',
  moderation_log: 'moderation',
  moderation_events: 'moderation',
  vacations: 'vacations',
};

/** The models of the schema: Prisma delegate name → table. */
function schemaTables(): Map<string, string> {
  const schema = readFileSync(join(process.cwd(), 'prisma', 'schema.prisma'), 'utf8');
  const out = new Map<string, string>();
  for (const m of schema.matchAll(/^model\s+(\w+)\s*\{([\s\S]*?)^\}/gm)) {
    const table = /@@map\("([^"]+)"\)/.exec(m[2])?.[1] ?? m[1];
    out.set(m[1][0].toLowerCase() + m[1].slice(1), table);
  }
  return out;
}

const TABLES = schemaTables();
const DELEGATE_CALL = new RegExp(`\\.(${[...TABLES.keys()].join('|')})\\.(find\\w*|count|aggregate|groupBy|create\\w*|update\\w*|upsert|delete\\w*)\\(`, 'g');

/** The tables this code names in SQL (FROM, JOIN, UPDATE, INTO, TABLE) or queries through the Prisma delegate of their model. */
function tablesIn(text: string): string[] {
  const found = new Set<string>();
  for (const table of TABLES.values()) {
    const inSql = new RegExp(`\\b(?:FROM|JOIN|UPDATE|INTO|TABLE)\\s+(?:ONLY\\s+)?(?:public\\.)?"?${table}"?(?![\\w.])`, 'i');
    if (inSql.test(text)) found.add(table);
  }
  for (const m of text.matchAll(DELEGATE_CALL)) found.add(TABLES.get(m[1])!);
  return [...found].sort();
}

const folderOf = (file: string): string => (file.includes('/') ? file.split('/')[0] : '');

const files = sources(SRC).map((file) => ({ file: relative(SRC, file), tables: tablesIn(withoutComments(readFileSync(file, 'utf8'))) }));

it('reads the whole tree and the schema, and the check finds what it looks for', () => {
  expect(files.length).toBeGreaterThan(80);
  expect(TABLES.get('match')).toBe('matches');
  expect(TABLES.get('ratingChange')).toBe('rating_changes');
  expect(tablesIn('SELECT seq FROM match_events WHERE match_id = $1')).toEqual(['match_events']);
  expect(tablesIn(`SELECT 1 FROM match_players mp\n JOIN matches m ON m.id = mp.match_id`)).toEqual(['match_players', 'matches']);
  expect(tablesIn('await this.prisma.match.findUnique({ where: { id } })')).toEqual(['matches']);
  expect(tablesIn('await tx.ratedPlayer.createMany({})')).toEqual(['rated_players']);
  expect(tablesIn('UPDATE tournament_tables SET recorded = true')).toEqual(['tournament_tables']);
  expect(tablesIn('SELECT rating FROM ratings WHERE pool = $1')).toEqual(['ratings']);
  expect(tablesIn('INSERT INTO rated_matches (match_id) VALUES ($1)')).toEqual(['rated_matches']);
  expect(tablesIn('SELECT * FROM rating_changes_view, tournaments_x')).toEqual([]);
});

it('every table of the schema has an owner, and every owner a table', () => {
  expect(Object.keys(OWNERS).sort()).toEqual([...TABLES.values()].sort());
});

it("no file names a table outside its owner's folder", () => {
  const offending = files.flatMap(({ file, tables }) =>
    tables.filter((t) => OWNERS[t] !== folderOf(file)).map((t) => `src/${file} queries ${t}, which src/${OWNERS[t]}/ owns: call its store or service`),
  );
  expect(offending).toEqual([]);
});
