/**
 * Crash test of the durable reactions (issue 44, "Proof"): two service
 * instances and one worker process (the built `dist/`) on a fresh PostgreSQL
 * database. Scripted players (./support/failover-client.ts: a dead connection
 * or a 5xx is sent again to the other instance, commands with their
 * idempotency keys) play a 16-player rated Swiss of 3 rounds and 20 separate
 * rated matches among the same players, under a saved ruleset to 1 point
 * (short matches; a rated event takes no overrides), while a supervisor
 * SIGKILLs a random instance or the worker 20 times, at least 5 of them within
 * 50 ms of a 2xx to the play that ended a match (the instance that answered
 * it), and starts each again. Once the queue has drained (bounded):
 * (a) every rating equals an independent Glicko-2 computation
 *     (./support/glicko2-reference.ts) over the finished rated matches in the
 *     order they ended (the MatchEnded events' times in the log, then the
 *     match id), each applied exactly once;
 * (b) every round of the Swiss was paired exactly once and its log audits as
 *     sound (with its matches' exports);
 * (c) every match_finished webhook reached the local receiver at least once,
 *     always with one delivery id per match and player;
 * (d) every requested analysis is done and its analysis_ready reached each
 *     player once (one delivery id, one delivery row);
 * (e) no job is failed (pgboss.job, pgboss.archive, GET /v1/admin/jobs).
 */
import { execSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { jest } from '@jest/globals';
import pg from 'pg';
import { verifySignature } from '../src/webhooks/signature';
import { auditTournament } from '../src/tournaments/tournament-audit';
import { freshPgDatabase } from './store/helpers';
import { freePort } from './support/process-instance';
import { SupervisedProcess } from './support/supervised-process';
import { FailoverClient } from './support/failover-client';
import type { Reply } from './support/failover-client';
import { WebhookReceiver } from './support/webhook-receiver';
import { replayRatings } from './support/glicko2-reference';
import type { RefMatch } from './support/glicko2-reference';

jest.setTimeout(600_000);

const WORKER_SCRIPT = 'dist/jobs/worker.js';
const PLAYERS = 16;
const ROUNDS = 3;
const MATCHES = 20;
const LANES = 4;
const KILLS = 20;
const END_KILLS = 5;
/** A kill counts as "after the end" within this of the 2xx. */
const END_KILL_WINDOW_MS = 50;
/**
 * A job whose worker was killed mid-run stays active until its expiry (src/jobs/job-kinds.ts: 30 s for the reactions
 * and a webhook delivery, 60 s for a tournament round), then the maintenance (JOB_MAINTENANCE_SECONDS=1 here) gives
 * it back: the drain is bounded past the longest of them, twice (a retry's worker may be killed too).
 */
const DRAIN_MS = 150_000;
const RATING_PERIOD_MS = 7 * 24 * 3600 * 1000; // RATING_PERIOD's default, P7D: no inactivity step within a test

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const pick = <T>(xs: readonly T[]): T => xs[Math.floor(Math.random() * xs.length)];

/** The build is older than a source: build it (tsc alone; the instances serve no web client here). */
function ensureBuilt(): void {
  const newest = (p: string): number => {
    if (!existsSync(p)) return 0;
    const st = statSync(p);
    if (!st.isDirectory()) return st.mtimeMs;
    return Math.max(st.mtimeMs, ...readdirSync(p).map((e) => newest(path.join(p, e))));
  };
  const built = existsSync('dist/main.js') ? statSync('dist/main.js').mtimeMs : 0;
  if (built < Math.max(newest('src'), newest('prisma'))) execSync('npx tsc -p tsconfig.build.json', { stdio: 'inherit' });
}

interface Account {
  username: string;
  token: string;
  secret: string;
}

interface Kill {
  target: string;
  at: number;
  /** ms between the 2xx that ended a match and the kill; null for a kill at a random moment. */
  afterEndMs: number | null;
}

/**
 * Kills and restarts: random kills every 1 to 3 s, of a random process that is
 * up, never the last instance up; and the instance that answered a match's
 * last play, right on its answer (matchEnded).
 */
class Supervisor {
  readonly kills: Kill[] = [];
  readonly restartErrors: string[] = [];
  private readonly restarts: Promise<void>[] = [];
  private stopped = false;
  private lastKillAt = 0;

  constructor(
    private readonly instances: SupervisedProcess[],
    private readonly worker: SupervisedProcess,
  ) {}

  private get endKills(): number {
    return this.kills.filter((k) => k.afterEndMs !== null).length;
  }

  private mayKill(p: SupervisedProcess): boolean {
    if (!p.ready) return false;
    if (p === this.worker) return true;
    return this.instances.some((other) => other !== p && other.ready);
  }

  private kill(p: SupervisedProcess, afterEndMs: number | null): void {
    if (!p.kill()) return;
    this.lastKillAt = performance.now();
    this.kills.push({ target: p.options.name, at: Date.now(), afterEndMs });
    this.restarts.push(p.restart().catch((err: unknown) => void this.restartErrors.push(`${p.options.name}: ${(err as Error).message}`)));
  }

  /**
   * Called synchronously on each 2xx to a play that ended a match, by instance `via`: kills it, at least a second
   * after the last kill. The first END_KILLS go even when the other instance is still restarting (then the players
   * wait for one to come back: instances restart in seconds); later ones only when the other instance is up.
   */
  matchEnded(via: number, reply: Reply): void {
    if (this.stopped || this.kills.length >= KILLS || this.endKills >= END_KILLS + 3) return;
    const target = this.instances[via];
    if (!target.ready || performance.now() - this.lastKillAt < 1000) return;
    if (this.endKills >= END_KILLS && !this.mayKill(target)) return;
    this.kill(target, performance.now() - reply.at);
  }

  /** The random kills, until KILLS in all (leaving room for the end kills) or stop(): each of the three as likely. */
  async run(): Promise<void> {
    let wait = 1000 + Math.random() * 2000;
    while (!this.stopped && this.kills.length < KILLS) {
      await sleep(wait);
      if (this.stopped) break;
      const room = KILLS - Math.max(0, END_KILLS - this.endKills);
      const target = pick([...this.instances, this.worker]);
      // Not up (still restarting), or the last instance up: another draw soon.
      if (this.kills.length >= room || !this.mayKill(target)) {
        wait = 250;
        continue;
      }
      this.kill(target, null);
      wait = 1000 + Math.random() * 2000;
    }
  }

  stop(): void {
    this.stopped = true;
  }

  /** Every restart done (and every process up). */
  async settled(): Promise<void> {
    for (let i = 0; i < this.restarts.length; i++) await this.restarts[i];
  }
}

describe('durable reactions survive SIGKILLs of instances and the worker (PostgreSQL)', () => {
  let db: Awaited<ReturnType<typeof freshPgDatabase>>;
  let sql: pg.Pool;
  let instances: SupervisedProcess[] = [];
  let worker: SupervisedProcess;
  const receiver = new WebhookReceiver();

  beforeAll(async () => {
    ensureBuilt();
    if (!existsSync(WORKER_SCRIPT)) throw new Error(`${WORKER_SCRIPT} is missing from the build: the worker process of every job kind (npm run worker)`);
    db = await freshPgDatabase();
    sql = new pg.Pool({ connectionString: db.url, max: 2 });
    await receiver.start();
  });
  afterAll(async () => {
    await Promise.all([...instances, ...(worker ? [worker] : [])].map((p) => p.stop()));
    await receiver.stop();
    await sql?.end();
    await db?.drop();
  });

  it('rates every match once in end order, pairs every round once, delivers every webhook and analysis, fails no job', async () => {
    const suffix = Math.random().toString(36).slice(2, 6);
    const admin = `adm${suffix}`;
    const env = {
      DATABASE_URL: db.url,
      REDIS_URL: '',
      JWT_SECRET: `crash-reactions-${suffix}`,
      RATE_LIMIT: '1000000',
      ADMIN_USERS: admin,
      WEBHOOK_ALLOW_PRIVATE: 'true',
      WEBHOOK_POLL_MS: '500',
      WEBHOOK_BACKOFF_MS: '500',
      WEBHOOK_TIMEOUT_MS: '5000',
      JOB_POLL_SECONDS: '0.5',
      JOB_MAINTENANCE_SECONDS: '1',
      ANALYSIS_ITERATIONS: '20',
      ANALYSIS_JOB_TIMEOUT_SECONDS: '10',
      ANALYSIS_MAINTENANCE_SECONDS: '1',
      ANALYSIS_POLL_SECONDS: '0.5',
      ANALYSIS_RETRY_DELAY_SECONDS: '1',
    };
    const ports = [await freePort(), await freePort()];
    instances = ports.map(
      (port, i) => new SupervisedProcess({ name: `instance-${'ab'[i]}`, script: 'dist/main.js', port, env: { ...env, INSTANCE_ID: 'ab'[i] } }),
    );
    worker = new SupervisedProcess({ name: 'worker', script: WORKER_SCRIPT, env: { ...env, INSTANCE_ID: 'worker' }, readyLine: /ready/i, readyAfterMs: 3000 });
    await instances[0].start(); // migrates the fresh database
    await Promise.all([instances[1].start(), worker.start()]);
    const client = new FailoverClient(instances.map((p) => p.url));

    // ---- Setup, before any kill: accounts with a webhook each, the ruleset, the tournament.
    const register = async (username: string): Promise<Account> => {
      const r = await client.ok(0, 'POST', '/v1/auth/register', null, { username, password: `pw-${username}-long` }, 201);
      const token = r.body.accessToken as string;
      const hook = await client.ok(0, 'POST', '/v1/webhooks', token, { url: `${receiver.url}/${username}`, events: ['match_finished', 'analysis_ready'] }, 201);
      return { username, token, secret: hook.body.secret as string };
    };
    const players: Account[] = [];
    for (let i = 0; i < PLAYERS; i++) players.push(await register(`cr${i}${suffix}`));
    const byName = new Map(players.map((p) => [p.username, p]));
    const adminToken = (await client.ok(1, 'POST', '/v1/auth/register', null, { username: admin, password: `pw-${admin}-long` }, 201)).body
      .accessToken as string;
    const ruleset = await client.ok(0, 'POST', '/v1/custom-rulesets', players[0].token, { name: 'to one', preset: 'scopa', overrides: { target: 1 } }, 201);
    const rulesetId = ruleset.body.id as string;
    const tournament = await client.ok(
      0,
      'POST',
      '/v1/tournaments',
      players[0].token,
      { name: 'Crash Swiss', format: 'swiss', rulesetId, rated: true, rounds: ROUNDS, maxPlayers: PLAYERS },
      201,
    );
    const tid = tournament.body.id as string;
    for (const [i, p] of players.entries()) await client.ok(i, 'POST', `/v1/tournaments/${tid}/join`, p.token, {});
    await client.ok(1, 'POST', `/v1/tournaments/${tid}/start`, players[0].token, {});

    // ---- Play, under the supervisor's kills.
    const supervisor = new Supervisor(instances, worker);
    const finished = new Set<string>();
    const played = new Map<string, string[]>(); // match → its two players

    /** Plays a started match to its end (a random legal play each turn), through instance `lane` first. */
    async function playMatch(matchId: string, lane: number): Promise<void> {
      let m = (await client.ok(lane, 'GET', `/v1/matches/${matchId}`, players[0].token)).body;
      for (let n = 0; n < 1000; n++) {
        if (m.status === 'over') {
          finished.add(matchId);
          return;
        }
        const seat = m.status === 'playing' ? (m.view.seats as { seat: number; player: string }[]).find((s) => s.seat === m.view.turn) : undefined;
        const who = seat ? byName.get(seat.player) : undefined;
        if (!who) {
          await sleep(100);
          m = (await client.ok(lane, 'GET', `/v1/matches/${matchId}`, players[0].token)).body;
          continue;
        }
        const legal = (await client.ok(lane, 'GET', `/v1/matches/${matchId}/legal-plays`, who.token)).body;
        if (legal.plays.length === 0) {
          m = (await client.ok(lane, 'GET', `/v1/matches/${matchId}`, who.token)).body;
          continue;
        }
        const play = pick(legal.plays as { card: string; capture: string[] }[]);
        const r = await client.request(lane, 'POST', `/v1/matches/${matchId}/plays`, who.token, {
          card: play.card,
          capture: play.capture,
          expectedSeq: legal.seq,
          idempotencyKey: `${matchId}:${legal.seq}`,
        });
        if (r.status === 200 && r.body.status === 'over') supervisor.matchEnded(r.via, r);
        m = r.status === 200 ? r.body : (await client.ok(lane, 'GET', `/v1/matches/${matchId}`, who.token)).body;
      }
      throw new Error(`match ${matchId} did not end`);
    }

    async function playSwiss(): Promise<void> {
      for (let n = 1; n <= ROUNDS; n++) {
        let round: Reply | null = null;
        for (const until = Date.now() + 120_000; Date.now() < until; await sleep(200)) {
          round = await client.request(n, 'GET', `/v1/tournaments/${tid}/rounds/${n}`, null);
          if (round.status === 200) break;
        }
        if (round?.status !== 200) throw new Error(`round ${n} was not paired: ${round?.text}`);
        const tables = round.body.tables as { table: number; players: string[]; matchId: string }[];
        expect(tables).toHaveLength(PLAYERS / 2);
        for (const t of tables) played.set(t.matchId, t.players);
        await Promise.all(tables.map((t) => playMatch(t.matchId, t.table)));
      }
    }

    const analysed: string[] = [];
    async function playLane(lane: number): Promise<void> {
      for (let k = 0; k < MATCHES / LANES; k++) {
        const i = Math.floor(Math.random() * PLAYERS);
        const [a, b] = [players[i], players[(i + 1 + Math.floor(Math.random() * (PLAYERS - 1))) % PLAYERS]];
        // A create is not idempotent: a retried one may leave an open match behind, never started (so never rated).
        const created = await client.ok(
          lane,
          'POST',
          '/v1/matches',
          a.token,
          { rulesetId, rated: true, seats: [{ type: 'creator' }, { type: 'reserved', username: b.username }] },
          201,
        );
        const id = created.body.id as string;
        played.set(id, [a.username, b.username]);
        await client.ok(lane + 1, 'POST', `/v1/matches/${id}/join`, b.token, { idempotencyKey: `join-${id}` });
        await client.ok(lane, 'POST', `/v1/matches/${id}/start`, a.token, { idempotencyKey: `start-${id}` });
        await playMatch(id, lane);
        if (k === 1 && lane < 3) {
          const asked = await client.request(lane, 'POST', `/v1/matches/${id}/analysis`, b.token, {});
          expect([200, 202]).toContain(asked.status);
          analysed.push(id);
        }
      }
    }

    const started = Date.now();
    const chaos = supervisor.run();
    await Promise.all([playSwiss(), ...Array.from({ length: LANES }, (_, lane) => playLane(lane))]);
    const playedMs = Date.now() - started;
    // The random kills left (if play ended first) land while the queue drains.
    const chaosDeadline = Date.now() + 60_000;
    while (supervisor.kills.length < KILLS && Date.now() < chaosDeadline) await sleep(200);
    supervisor.stop();
    await chaos;
    await supervisor.settled();

    const atDrain = (
      await sql.query(`SELECT name, state::text, count(*)::int AS n FROM pgboss.job WHERE state < 'completed' GROUP BY name, state ORDER BY name`)
    ).rows;
    // ---- Drain: the tournament over, no job unfinished, every delivery delivered, every analysis done.
    const drained = async () => {
      const [jobs, deliveries, analyses, t] = await Promise.all([
        sql.query<{ n: number }>(`SELECT count(*)::int AS n FROM pgboss.job WHERE state < 'completed'`),
        sql.query<{ n: number }>(`SELECT count(*)::int AS n FROM webhook_deliveries WHERE status = 'pending'`),
        sql.query<{ n: number }>(`SELECT count(*)::int AS n FROM match_analyses WHERE status NOT IN ('done', 'failed')`),
        sql.query<{ status: string }>(`SELECT status FROM tournaments WHERE id = $1::uuid`, [tid]),
      ]);
      return jobs.rows[0].n === 0 && deliveries.rows[0].n === 0 && analyses.rows[0].n === 0 && t.rows[0]?.status === 'finished';
    };
    const drainStarted = Date.now();
    while (!(await drained()) && Date.now() - drainStarted < DRAIN_MS) await sleep(500);
    const drainMs = Date.now() - drainStarted;
    const left = await sql.query(
      `SELECT name, state::text, count(*)::int AS n, min(started_on)::text AS started FROM pgboss.job WHERE state < 'completed' GROUP BY name, state ORDER BY name`,
    );
    const report = {
      playedMs,
      drainMs,
      atDrain,
      startMs: [...instances, worker].map((p) => `${p.options.name}: ${p.startMs.map((ms) => Math.round(ms)).join(' ')}`),
      kills: supervisor.kills.map((k) => `${k.target}${k.afterEndMs === null ? '' : ` +${k.afterEndMs.toFixed(1)}ms after an end`}`),
      retries: client.retries,
      serverErrors: client.serverErrors.slice(0, 10),
      unfinishedJobs: left.rows,
      restartErrors: supervisor.restartErrors,
      crashes: [...instances, worker].flatMap((p) => p.crashes.map((c) => `${p.options.name}: ${JSON.stringify(c)} ${p.stderr.slice(-3).join(' | ')}`)),
    };
    process.stdout.write(`crash-reactions: ${JSON.stringify(report, null, 1)}\n`);
    expect(report.unfinishedJobs).toEqual([]);
    expect(await drained()).toBe(true);

    // ---- The kills happened as promised, and no process died by itself.
    expect(supervisor.kills).toHaveLength(KILLS);
    expect(supervisor.kills.filter((k) => k.afterEndMs !== null && k.afterEndMs <= END_KILL_WINDOW_MS).length).toBeGreaterThanOrEqual(END_KILLS);
    expect(new Set(supervisor.kills.map((k) => k.target))).toEqual(new Set(['instance-a', 'instance-b', 'worker']));
    expect(report.restartErrors).toEqual([]);
    expect(report.crashes).toEqual([]);
    expect(finished.size).toBe((PLAYERS / 2) * ROUNDS + MATCHES);

    // ---- (a) Ratings: an independent Glicko-2 over the finished rated matches, in the order they ended, once each.
    const ended = await sql.query<{ match_id: string; created_at: Date; payload: { reason: string; winner: number | null }; pool: string }>(
      `SELECT e.match_id::text, e.created_at, e.payload, COALESCE(m.ruleset_id::text, m.preset) AS pool
       FROM match_events e JOIN matches m ON m.id = e.match_id WHERE e.type = 'MatchEnded' ORDER BY e.created_at, e.match_id`,
    );
    const logs = await sql.query<{ match_id: string; type: string; payload: any }>(
      `SELECT match_id::text, type, payload FROM match_events WHERE type IN ('MatchCreated', 'SeatTaken', 'CardPlayed') ORDER BY match_id, seq`,
    );
    const refMatches: RefMatch[] = [];
    for (const e of ended.rows) {
      const events = logs.rows.filter((l) => l.match_id === e.match_id);
      const created = events.find((l) => l.type === 'MatchCreated')!.payload;
      if (created.settings?.rated !== true) continue;
      const seats: (string | null)[] = created.seats.map((s: { player: string | null }) => s.player);
      for (const l of events) if (l.type === 'SeatTaken') seats[l.payload.seat] = l.payload.player;
      // Counted: a result (not an abort) after both seats played a card of their own (docs/ratings.md "What counts").
      const bothPlayed = new Set(events.filter((l) => l.type === 'CardPlayed' && !l.payload.auto).map((l) => l.payload.seat)).size === 2;
      expect(['points', 'allDenari']).toContain(e.payload.reason); // every match here is played out
      expect(bothPlayed).toBe(true);
      const winner = e.payload.winner;
      refMatches.push({
        id: e.match_id,
        pool: e.pool,
        endedAt: e.created_at,
        sides: new Map(seats.map((p, seat) => [p!, seat])),
        ranks: new Map([0, 1].map((side) => [side, winner === null ? 1 : side === winner ? 1 : 2])),
      });
    }
    expect(refMatches).toHaveLength(finished.size);
    expect(new Set(refMatches.map((m) => m.id))).toEqual(finished);
    /** For the report: each player's matches in end order, with their rating job's times and the place the service took them in. */
    const appliedOrder = async (who: string[]): Promise<string> => {
      const changes = (
        await sql.query<{ match_id: string; player: string; rating_before: number; rd_before: number; rating_after: number; rd_after: number }>(
          `SELECT match_id::text, player, rating_before, rd_before, rating_after, rd_after FROM rating_changes`,
        )
      ).rows;
      const jobs = (
        await sql.query<{ match_id: string; created_on: string; started_on: string | null; completed_on: string | null; retry_count: number; state: string }>(
          `SELECT data->>'matchId' AS match_id, created_on::text, started_on::text, completed_on::text, retry_count, state::text FROM pgboss.job WHERE name = 'match-rating'
           UNION ALL SELECT data->>'matchId', created_on::text, started_on::text, completed_on::text, retry_count, state::text FROM pgboss.archive WHERE name = 'match-rating'`,
        )
      ).rows;
      const out: string[] = [];
      for (const player of who) {
        const mine = changes.filter((c) => c.player === player);
        const chain: string[] = [];
        let cur = { rating: 1500, rd: 350 };
        for (let step = 0; step < mine.length; step++) {
          const next = mine.find((c) => !chain.includes(c.match_id) && Math.abs(c.rating_before - cur.rating) < 1e-9 && Math.abs(c.rd_before - cur.rd) < 1e-9);
          if (!next) break;
          chain.push(next.match_id);
          cur = { rating: next.rating_after, rd: next.rd_after };
        }
        out.push(`${player}:`);
        for (const m of refMatches.filter((x) => x.sides.has(player))) {
          const j = jobs
            .filter((x) => x.match_id === m.id)
            .map((x) => `job ${x.state} created ${x.created_on} started ${x.started_on} completed ${x.completed_on} retries ${x.retry_count}`);
          out.push(`  ${m.id} ended ${m.endedAt.toISOString()} applied #${chain.indexOf(m.id) + 1} ${j.join('; ')}`);
        }
      }
      return out.join('\n');
    };
    const expected = replayRatings(refMatches, RATING_PERIOD_MS);
    // Each applied exactly once: one rated_matches key and two rating changes per match.
    const once = await sql.query<{ match_id: string; n: number }>(`SELECT match_id::text, count(*)::int AS n FROM rating_changes GROUP BY match_id`);
    expect(once.rows.length).toBe(refMatches.length);
    expect(once.rows.every((r) => r.n === 2)).toBe(true);
    const mismatches: string[] = [];
    for (const p of players) {
      const profile = (await client.ok(0, 'GET', `/v1/users/${p.username}`, null)).body as {
        ratings: { ruleset: string; rating: number; rd: number; volatility: number; games: number }[];
      };
      const want = expected.get(`${rulesetId}\u0000${p.username}`);
      const got = profile.ratings.find((r) => r.ruleset === rulesetId);
      if (!want || !got) {
        if (want || got) mismatches.push(`${p.username}: expected ${JSON.stringify(want)}, got ${JSON.stringify(got)}`);
        continue;
      }
      // Within the rounding of two implementations (step 5 converges to ε = 1e-6 on ln σ²); an order or a count off moves a rating by far more (checked below).
      const off = Math.abs(got.rating - want.rating) > 1e-4 || Math.abs(got.rd - want.rd) > 1e-4 || Math.abs(got.volatility - want.volatility) > 1e-6;
      if (off || got.games !== want.games)
        mismatches.push(
          `${p.username}: expected ${want.rating.toFixed(6)}/${want.rd.toFixed(6)}/${want.volatility.toFixed(9)} in ${want.games} games, got ${got.rating.toFixed(6)}/${got.rd.toFixed(6)}/${got.volatility.toFixed(9)} in ${got.games}`,
        );
    }
    if (mismatches.length > 0)
      process.stdout.write(
        `crash-reactions: the order the ratings were applied in:\n${await appliedOrder(mismatches.slice(0, 3).map((m) => m.split(':')[0]))}\n`,
      );
    expect(mismatches).toEqual([]);
    // The comparison tells orders apart: two matches of one player taken the other way round give other ratings.
    const k = refMatches.findIndex((m, i) => refMatches.slice(i + 1).some((o) => [...o.sides.keys()].some((p) => m.sides.has(p))));
    const j = refMatches.findIndex((o, i) => i > k && [...o.sides.keys()].some((p) => refMatches[k].sides.has(p)));
    const swapped = [...refMatches];
    [swapped[k], swapped[j]] = [swapped[j], swapped[k]];
    const other = replayRatings(swapped, RATING_PERIOD_MS);
    const moved = [...other].filter(([key, r]) => Math.abs(r.rating - expected.get(key)!.rating) > 1e-3);
    expect(moved.length).toBeGreaterThan(0);

    // ---- (b) The Swiss: each round paired once, the log sound with its matches' exports.
    const paired = await sql.query<{ round: number; n: number }>(
      `SELECT (payload->>'round')::int AS round, count(*)::int AS n FROM tournament_events WHERE tournament_id = $1::uuid AND type = 'RoundPaired' GROUP BY 1 ORDER BY 1`,
      [tid],
    );
    expect(paired.rows).toEqual(Array.from({ length: ROUNDS }, (_, i) => ({ round: i + 1, n: 1 })));
    const tables = await sql.query<{ n: number }>(`SELECT count(*)::int AS n FROM tournament_tables WHERE tournament_id = $1::uuid`, [tid]);
    expect(tables.rows[0].n).toBe((PLAYERS / 2) * ROUNDS);
    const t = await client.ok(0, 'GET', `/v1/tournaments/${tid}`, null);
    expect(t.body.status).toBe('finished');
    const exported = await client.ok(1, 'GET', `/v1/tournaments/${tid}/export`, null);
    const matchExports = new Map<string, string>();
    for (const line of (await client.ok(0, 'GET', `/v1/tournaments/${tid}/matches`, null)).text.trim().split('\n')) {
      const m = JSON.parse(line) as { matchId: string };
      matchExports.set(m.matchId, (await client.ok(0, 'GET', `/v1/matches/${m.matchId}/export`, players[0].token)).text);
    }
    expect(matchExports.size).toBe((PLAYERS / 2) * ROUNDS);
    const audit = auditTournament(exported.text, matchExports);
    expect(audit.problems).toEqual([]);
    expect([audit.rounds, audit.status]).toEqual([ROUNDS, 'finished']);

    // ---- (c) match_finished: at every player of every match, at least once, always with one delivery id.
    const hooks = (event: string, matchId: string, player: string) =>
      receiver.received.filter((w) => w.event === event && w.label === player && w.body?.data?.matchId === matchId);
    const undelivered: string[] = [];
    for (const id of finished) {
      for (const player of played.get(id)!) {
        const got = hooks('match_finished', id, player);
        const ids = new Set(got.map((w) => w.deliveryId));
        if (got.length === 0 || ids.size !== 1) undelivered.push(`${id} ${player}: ${got.length} receipts, ${ids.size} delivery ids`);
        for (const w of got) expect(verifySignature(byName.get(player)!.secret, w.signature, w.raw)).toBe(true);
      }
    }
    expect(undelivered).toEqual([]);

    // ---- (d) Every analysis asked is done, and told once to each of its players.
    expect(analysed).toHaveLength(3);
    for (const id of analysed) {
      const a = await client.ok(0, 'GET', `/v1/matches/${id}/analysis`, byName.get(played.get(id)![0])!.token);
      expect(a.body.status).toBe('done');
      const rows = await sql.query<{ n: number }>(`SELECT count(*)::int AS n FROM match_analyses WHERE match_id = $1::uuid`, [id]);
      expect(rows.rows[0].n).toBe(1);
      for (const player of played.get(id)!) {
        const got = hooks('analysis_ready', id, player);
        expect([got.length > 0, new Set(got.map((w) => w.deliveryId)).size]).toEqual([true, 1]);
        const rows = await sql.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM webhook_deliveries d JOIN webhooks w ON w.id = d.webhook_id
           WHERE d.event = 'analysis_ready' AND d.payload->>'matchId' = $1 AND w.username = $2`,
          [id, player],
        );
        expect(rows.rows[0].n).toBe(1);
      }
    }

    // ---- (e) No job failed, in the queue's tables nor for an operator.
    const failed = await sql.query(
      `SELECT name, id::text, output FROM pgboss.job WHERE state = 'failed' UNION ALL SELECT name, id::text, output FROM pgboss.archive WHERE state = 'failed'`,
    );
    expect(failed.rows).toEqual([]);
    const dead = await client.ok(0, 'GET', '/v1/admin/jobs?state=failed', adminToken);
    expect(dead.body).toEqual([]);
  });
});
