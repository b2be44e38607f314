/**
 * npm run bench:export — one user's archive streamed as NDJSON with events
 * through the HTTP API (GET /v1/users/{username}/matches?withEvents=true,
 * Accept: application/x-ndjson), on PostgreSQL (DATABASE_URL, or
 * postgresql://postgres@127.0.0.1:5432/test; a scratch database is created on
 * that server and dropped after).
 *
 * Seeding (not measured): BENCH_EXPORT_MATCHES (10,000) finished matches of
 * one user against another, written through the match store as any match is
 * (create, start, BENCH_EXPORT_PLAYS random legal plays (2), resign): real
 * logs the audit accepts (the first and last streamed exports are audited).
 * Measured: the whole stream, read by a client that counts lines and keeps
 * none; RSS growth is the process's RSS at its highest during the stream
 * (sampled every 20 ms) minus the RSS right before it, after a GC.
 * Last line: matches_per_s=<n> rss_growth_mb=<n>
 */
import 'reflect-metadata';
import httpClient from 'node:http';
import type { AddressInfo } from 'node:net';
import { NestFactory } from '@nestjs/core';
import { AppModule } from '../src/app.module';
import { configureApp } from '../src/common/app.setup';
import { mulberry32 } from '../src/engine';
import { MatchStore } from '../src/events/match-store';
import { auditJsonl } from '../src/events/export';
import { freshPgDatabase, randomCommand } from '../test/store/helpers';

const MATCHES = Number(process.env.BENCH_EXPORT_MATCHES ?? 10_000);
const PLAYS = Number(process.env.BENCH_EXPORT_PLAYS ?? 2);
const CONCURRENCY = 32;

async function main(): Promise<void> {
  const db = await freshPgDatabase();
  process.env.DATABASE_URL = db.url;
  process.env.RATE_LIMIT ??= '1000000';
  process.env.JWT_SECRET ??= 'bench-export-secret';
  const app = configureApp(await NestFactory.create(AppModule, { bodyParser: false, logger: ['error', 'warn'] }));
  await app.listen(0, '127.0.0.1');
  const { port } = app.getHttpServer().address() as AddressInfo;
  try {
    const base = `http://127.0.0.1:${port}`;
    const register = async (username: string) => {
      const res = await fetch(`${base}/v1/auth/register`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username, password: `password-of-${username}` }) });
      if (res.status !== 201) throw new Error(`register ${username}: ${res.status} ${await res.text()}`);
    };
    await register('archivist');
    await register('rival');

    const store = app.get(MatchStore);
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

    (globalThis as { gc?: () => void }).gc?.();
    const rssBefore = process.memoryUsage().rss;
    let rssPeak = rssBefore;
    const sampler = setInterval(() => {
      rssPeak = Math.max(rssPeak, process.memoryUsage().rss);
    }, 20);
    const started = performance.now();
    const { lines, first, last } = await new Promise<{ lines: number; first: string; last: string }>((resolve, reject) => {
      const req = httpClient.get(
        { host: '127.0.0.1', port, path: '/v1/users/archivist/matches?withEvents=true', headers: { accept: 'application/x-ndjson' } },
        (res) => {
          if (res.statusCode !== 200) return reject(new Error(`stream: ${res.statusCode}`));
          res.setEncoding('utf8');
          let count = 0;
          let rest = '';
          let firstLine = '';
          let lastLine = '';
          res.on('data', (chunk: string) => {
            const parts = (rest + chunk).split('\n');
            rest = parts.pop()!;
            for (const line of parts) {
              if (!line) continue;
              if (count === 0) firstLine = line;
              lastLine = line;
              count++;
            }
          });
          res.on('end', () => resolve({ lines: count, first: firstLine, last: lastLine }));
          res.on('error', reject);
        },
      );
      req.on('error', reject);
    });
    const seconds = (performance.now() - started) / 1000;
    clearInterval(sampler);
    rssPeak = Math.max(rssPeak, process.memoryUsage().rss);
    if (lines !== MATCHES) throw new Error(`streamed ${lines} lines, expected ${MATCHES}`);
    for (const line of [first, last]) {
      const parsed = JSON.parse(line) as { match: { id: string }; export: string };
      const audit = auditJsonl(parsed.export);
      if (!audit.sound) throw new Error(`match ${parsed.match.id}: the streamed export is not sound: ${audit.reason}`);
    }
    console.log(`streamed ${lines} matches with events in ${seconds.toFixed(2)} s`);
    console.log(`matches_per_s=${Math.round(lines / seconds)} rss_growth_mb=${((rssPeak - rssBefore) / 1024 / 1024).toFixed(1)}`);
  } finally {
    await app.close();
    await db.drop();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
