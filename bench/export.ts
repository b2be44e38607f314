/**
 * npm run bench:export — one user's archive streamed as NDJSON with events
 * through the HTTP API (GET /v1/users/{username}/matches?withEvents=true,
 * Accept: application/x-ndjson) of the built service (dist/main.js, its own
 * process, as in production), on PostgreSQL (DATABASE_URL, or
 * postgresql://postgres@127.0.0.1:5432/test; a scratch database is created on
 * that server and dropped after).
 *
 * Seeding (not measured): BENCH_EXPORT_MATCHES (10,000) finished matches of
 * one user against another, written through the match store as any match is
 * (create, start, BENCH_EXPORT_PLAYS random legal plays (2), resign): real
 * logs the audit accepts (the first and last streamed exports are audited),
 * then ANALYZE (the statistics autovacuum would gather).
 * Measured: the whole stream, read by a client that counts lines and keeps
 * none; RSS growth is the service process's RSS at its highest during the
 * stream (VmRSS, sampled every 20 ms) minus its RSS right before it, after
 * a warm-up stream of 1,000 matches.
 * BENCH_NODE_ARGS: extra Node flags for the instance (as bench:api).
 * Last line: matches_per_s=<n> rss_growth_mb=<n>
 *
 * `npm run bench:export -- --baseline <git ref> [--rounds N]` builds <ref> in a
 * temporary worktree (bench/baseline.ts) and runs its bench:export and this
 * one alternately, baseline first, N rounds each (default 2): one table of
 * every round, the medians and their ratios; the last line gains
 * vs_baseline=matches_per_s:<r>,rss_growth_mb:<r> (now / baseline).
 */
import { readFileSync } from 'node:fs';
import httpClient from 'node:http';
import { mulberry32 } from '../src/engine';
import { openDatabase } from '../src/database/database';
import { MatchStore } from '../src/match-store/match-store';
import { auditJsonl } from '../src/match-formats/export';
import { freshPgDatabase, randomCommand } from '../test/store/helpers';
import { spawnInstance } from '../test/support/process-instance';
import { compareLastLines, sideBySideArgs } from './baseline';

const MATCHES = Number(process.env.BENCH_EXPORT_MATCHES ?? 10_000);
const PLAYS = Number(process.env.BENCH_EXPORT_PLAYS ?? 2);
const CONCURRENCY = 32;

/** Resident set of a process, bytes (Linux). */
function rssOf(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) * 1024 : 0;
}

/** Streams a path as NDJSON, counting lines and keeping only the first and the last. */
function streamLines(port: number, path: string): Promise<{ lines: number; first: string; last: string }> {
  return new Promise((resolve, reject) => {
    const req = httpClient.get({ host: '127.0.0.1', port, path, headers: { accept: 'application/x-ndjson' } }, (res) => {
      if (res.statusCode !== 200) return reject(new Error(`stream: ${res.statusCode}`));
      res.setEncoding('utf8');
      let count = 0;
      let rest = '';
      let first = '';
      let last = '';
      res.on('data', (chunk: string) => {
        const parts = (rest + chunk).split('\n');
        rest = parts.pop()!;
        for (const line of parts) {
          if (!line) continue;
          if (count === 0) first = line;
          last = line;
          count++;
        }
      });
      res.on('end', () => resolve({ lines: count, first, last }));
      res.on('error', reject);
    });
    req.on('error', reject);
  });
}

async function main(): Promise<void> {
  const fresh = await freshPgDatabase('scopa_bench');
  const db = await openDatabase({ url: fresh.url, poolSize: 20 });
  const instance = await spawnInstance({ DATABASE_URL: fresh.url, RATE_LIMIT: '1000000' }, (process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean));
  const pid = instance.child.pid!;
  try {
    const base = instance.url;
    const register = async (username: string) => {
      const res = await fetch(`${base}/v1/auth/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username, password: `password-of-${username}` }),
      });
      if (res.status !== 201) throw new Error(`register ${username}: ${res.status} ${await res.text()}`);
    };
    await register('archivist');
    await register('rival');

    const store = new MatchStore(db.prisma);
    const rng = mulberry32(16);
    const seedStarted = performance.now();
    let next = 0;
    const worker = async () => {
      while (next < MATCHES) {
        const i = next++;
        const [a, b] = i % 2 ? ['archivist', 'rival'] : ['rival', 'archivist'];
        const { matchId } = await store.create({ preset: 'scopa', seats: [{ player: a }, { player: b }], createdBy: a });
        await store.execute(matchId, { type: 'start', player: a }, { actor: a });
        for (let p = 0; p < PLAYS; p++) {
          const { state } = await store.current(matchId);
          if (state.phase !== 'playing') break;
          const command = randomCommand(state, rng);
          await store.execute(matchId, command, { actor: (command as { player: string }).player });
        }
        const loser = i % 3 ? a : b;
        await store.execute(matchId, { type: 'resign', player: loser }, { actor: loser });
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    console.log(`seeded ${MATCHES} matches in ${((performance.now() - seedStarted) / 1000).toFixed(1)} s`);
    // The planner's statistics, as autovacuum gathers them after a bulk load on a server with its defaults (this
    // machine's PostgreSQL runs with autovacuum off): without any, it guesses a few rows a player and a match, and
    // scans every event of every match for each page instead of reading the page's through the index.
    await db.prisma.$executeRawUnsafe('ANALYZE');

    // A warm-up stream first (JIT, driver and query compiler buffers): the growth measured is the archive's, not the first request's.
    const port = Number(new URL(base).port);
    await streamLines(port, '/v1/users/archivist/matches?withEvents=true&max=1000');
    await new Promise((r) => setTimeout(r, 1000));
    const rssBefore = rssOf(pid);
    let rssPeak = rssBefore;
    const sampler = setInterval(() => {
      rssPeak = Math.max(rssPeak, rssOf(pid));
    }, 20);
    const started = performance.now();
    const { lines, first, last } = await streamLines(port, '/v1/users/archivist/matches?withEvents=true');
    const seconds = (performance.now() - started) / 1000;
    clearInterval(sampler);
    rssPeak = Math.max(rssPeak, rssOf(pid));
    if (lines !== MATCHES) throw new Error(`streamed ${lines} lines, expected ${MATCHES}`);
    for (const line of [first, last]) {
      const parsed = JSON.parse(line) as { match: { id: string }; export: string };
      const audit = auditJsonl(parsed.export);
      if (!audit.sound) throw new Error(`match ${parsed.match.id}: the streamed export is not sound: ${audit.reason}`);
    }
    console.log(`streamed ${lines} matches with events in ${seconds.toFixed(2)} s`);
    console.log(`matches_per_s=${Math.round(lines / seconds)} rss_growth_mb=${((rssPeak - rssBefore) / 1024 / 1024).toFixed(1)}`);
  } finally {
    await instance.stop();
    await db.close();
    await fresh.drop();
  }
}

const sideBySide = sideBySideArgs();
(sideBySide.baseline
  ? compareLastLines('bench:export', sideBySide, { build: true }, () => ({ cmd: process.execPath, args: ['--import', 'tsx', 'bench/export.ts'] }))
  : main()
).catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
