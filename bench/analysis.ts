/**
 * npm run bench:analysis: the post-game analysis (docs/analysis.md).
 *
 * 1. Throughput on PostgreSQL (127.0.0.1:5432, a fresh database): one worker
 *    process (`dist/jobs/worker.js`, as `npm run worker` runs it), then two,
 *    each given BENCH_ANALYSIS_JOBS fresh jobs: 2-player `scopa` matches to 1
 *    point (one round, played by greedy seats that play at random a fifth of
 *    the time) at the default budget. Timed from the jobs' queuing (workers
 *    already up) to the last result. `matches_per_min` is one worker's rate,
 *    `scaling` two workers' rate over one's.
 * 2. The median analysis time of a 2-player `scopa` match to 11 at the default
 *    budget, in process (the analyzer alone), over BENCH_ANALYSIS_MATCHES
 *    matches.
 *
 * Last line: matches_per_min=<n> scaling=<n> median_s_scopa_to_11=<n>
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import type { ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { apply, startedMatch } from '../src/engine/testing';
import { cardCode, greedyPlay, mulberry32, randomPlay, seatView } from '../src/engine';
import { analyzeMatch, analyzerInfo } from '../src/analysis/analyzer';
import { JobQueue } from '../src/jobs/job-queue';
import { jobDatabase } from '../src/jobs/job-database';
import { openDatabase } from '../src/database/database';
import { MatchStore } from '../src/match-store/match-store';

const PG_URL = 'postgresql://postgres@127.0.0.1:5432/postgres';
const JOBS = Number(process.env.BENCH_ANALYSIS_JOBS ?? 40);
const MATCHES = Number(process.env.BENCH_ANALYSIS_MATCHES ?? 3);
const KEY = analyzerInfo().key;

function withDatabase(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

async function finishedMatch(store: MatchStore, seed: number): Promise<string> {
  const players = [`bench${seed}a`, `bench${seed}b`];
  const created = await store.create({
    preset: 'scopa',
    overrides: { target: 1 },
    seats: players.map((player) => ({ player })),
    createdBy: players[0],
    startBy: players[0],
  });
  const id = created.matchId;
  // Deals come from the store's own seed: play greedily from its states (a fifth at random).
  const r = mulberry32(seed);
  for (;;) {
    const { seq, state } = await store.current(id);
    if (state.phase === 'over') return id;
    const view = seatView(state, state.turn);
    const play = r() < 0.2 ? randomPlay(view, r) : greedyPlay(view);
    const player = players[state.turn];
    await store.execute(id, { type: 'play', player, card: cardCode(play.card), capture: play.capture.map(cardCode) }, { actor: player, expectedSeq: seq });
  }
}

interface Worker {
  child: ChildProcess;
  ready: Promise<void>;
}

function startWorker(url: string): Worker {
  const child = spawn(process.execPath, ['dist/jobs/worker.js'], {
    env: { ...process.env, DATABASE_URL: url, ANALYSIS_WORKERS: '1', ANALYSIS_POLL_SECONDS: '0.5', REDIS_URL: '' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const ready = new Promise<void>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`worker exited with ${code}`)));
    child.stdout!.on('data', (b: Buffer) => {
      if (b.toString().includes('ready')) resolve();
    });
  });
  return { child, ready };
}

/** CPU seconds a process has used (user + system, from /proc; 0 where there is none). */
function cpuSeconds(pid: number | undefined): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100; // utime, stime: clock ticks (USER_HZ 100)
  } catch {
    return 0;
  }
}

async function stop(w: Worker): Promise<void> {
  if (w.child.exitCode !== null) return;
  const exited = new Promise((r) => w.child.once('exit', r));
  w.child.kill('SIGTERM');
  await exited;
}

async function throughput(url: string, store: MatchStore, queue: JobQueue, db: pg.Pool, workers: number, seedBase: number): Promise<number> {
  const ids: string[] = [];
  for (let i = 0; i < JOBS; i++) ids.push(await finishedMatch(store, seedBase + i));
  const procs = Array.from({ length: workers }, () => startWorker(url));
  await Promise.all(procs.map((p) => p.ready));
  const cpu0 = procs.map((p) => cpuSeconds(p.child.pid));
  const t0 = Date.now();
  for (const matchId of ids) {
    const id = randomUUID();
    const jobId = randomUUID();
    await db.query(`INSERT INTO match_analyses (id, match_id, analyzer, requested_by, job_id) VALUES ($1, $2, $3, 'bench', $4)`, [id, matchId, KEY, jobId]);
    await queue.send('analysis', { analysisId: id }, { id: jobId });
  }
  for (;;) {
    const { rows } = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM match_analyses WHERE status = 'done' AND match_id = ANY($1::uuid[])`, [ids]);
    if (rows[0].n === ids.length) break;
    await new Promise((r) => setTimeout(r, 200));
  }
  const minutes = (Date.now() - t0) / 60_000;
  // The cores the workers actually got: on a shared machine, what the scaling can be read against.
  const cores = procs.reduce((sum, p, i) => sum + cpuSeconds(p.child.pid) - cpu0[i], 0) / (minutes * 60);
  await Promise.all(procs.map(stop));
  const rate = ids.length / minutes;
  console.log(
    `workers=${workers} jobs=${ids.length} seconds=${(minutes * 60).toFixed(1)} matches_per_min=${rate.toFixed(2)} worker_cores_used=${cores.toFixed(2)}`,
  );
  return rate;
}

async function main(): Promise<void> {
  const name = `scopa_bench_analysis_${randomUUID().replace(/-/g, '').slice(0, 12)}`;
  const admin = new pg.Client({ connectionString: PG_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  const url = withDatabase(PG_URL, name);
  let one = 0;
  let two = 0;
  try {
    const database = await openDatabase({ url, poolSize: 4 });
    const store = new MatchStore(database.prisma);
    // Only sends: the workers are the processes apart.
    const queue = new JobQueue(jobDatabase(database), { workers: false, pollingSeconds: 0.5, maintenanceSeconds: 30 });
    await queue.start();
    one = await throughput(url, store, queue, database.pool!, 1, 1000);
    two = await throughput(url, store, queue, database.pool!, 2, 2000);
    await queue.stop();
    await database.close();
  } finally {
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  }

  const times: number[] = [];
  for (let i = 0; i < MATCHES; i++) {
    const events: { seq: number; event: import('../src/engine').MatchEvent }[] = [];
    const rng = mulberry32(7000 + i);
    const d = startedMatch(
      Uint8Array.from({ length: 32 }, () => Math.floor(rng() * 256)),
      'scopa',
      {},
    );
    const r = mulberry32(7000 + i);
    while (d.state.phase === 'playing') {
      const seat = d.state.turn;
      const view = seatView(d.state, seat);
      const play = r() < 0.2 ? randomPlay(view, r) : greedyPlay(view);
      apply(d, { type: 'play', player: d.state.seats[seat].player!, card: cardCode(play.card), capture: play.capture.map(cardCode) });
    }
    d.events.forEach((event, k) => events.push({ seq: k + 1, event }));
    const t0 = performance.now();
    const a = analyzeMatch(`bench-${i}`, events);
    const s = (performance.now() - t0) / 1000;
    times.push(s);
    console.log(`scopa to 11: match ${i + 1}/${MATCHES} rounds=${d.state.rounds.length} decisions=${a.decisions.length} seconds=${s.toFixed(1)}`);
  }
  times.sort((a, b) => a - b);
  const median = times[Math.floor(times.length / 2)];
  console.log(`matches_per_min=${one.toFixed(2)} scaling=${(two / one).toFixed(2)} median_s_scopa_to_11=${median.toFixed(1)}`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
