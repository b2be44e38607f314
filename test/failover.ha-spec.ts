/**
 * Failover proof (issue 45, "Proof"): the HA topology of `npm run cluster -- --ha`
 * (scripts/ha/topology.ts: etcd, two PostgreSQL 15 nodes under Patroni with a
 * synchronous standby, HAProxy, a Redis master + replica with three Sentinels)
 * from the machine's Debian packages, two service instances (the built dist/,
 * DATABASE_URL through HAProxy's write port, DATABASE_READ_URL through its read
 * port, REDIS_SENTINELS) and a worker (dist/jobs/worker.js). Scripted players
 * play 20 matches, half over REST and half over graphql-ws (queries and
 * mutations on the socket), every command with an idempotency key, retrying
 * 503 SERVICE_UNAVAILABLE after its Retry-After and a dead connection on the
 * other instance (./support/ha-players.ts); a live subscriber follows each
 * match (matchEventsLive, resuming by seq). Four matches have a 30 s turn
 * clock that the players let run out once each (a clock job), three finished
 * matches are analysed (an analysis job). Mid-play a supervisor SIGKILLs the
 * PostgreSQL primary's postmaster (the leader per Patroni's REST API), later
 * the Redis master (per the Sentinels), later one instance (started again, as
 * a supervisor would). Then:
 *   - every acknowledged play (a 2xx in the record) is in the log exactly once,
 *     and the log holds no play by a player that was not acknowledged;
 *   - every finished match's export audits as sound;
 *   - no 5xx but 503 SERVICE_UNAVAILABLE, no INTERNAL_SERVER_ERROR, ever;
 *   - writes resumed within 30 s of the primary's loss (printed; target 15 s);
 *   - every live subscriber received every event of its match, in order;
 *   - every clock expiry and analysis ran exactly once, and no job failed or was left.
 */
import { existsSync } from 'node:fs';
import { jest } from '@jest/globals';
import pg from 'pg';
import { auditJsonl } from '../src/match-formats/export';
import { currentPrimary, postmasterPid } from '../scripts/ha/patroni';
import { sentinelMasterPort } from '../scripts/ha/redis';
import { DEFAULT_LAYOUT, HaTopology, missingPrograms } from '../scripts/ha/topology';
import { sleep, waitFor } from '../scripts/ha/processes';
import { SupervisedProcess } from './support/supervised-process';
import { LiveSubscriber, PlayRecord, RestPlayer, WsPlayer } from './support/ha-players';

jest.setTimeout(420_000);

const MATCHES = 20;
const LANES = 5;
// 30 s turn clocks (past a failover's stall), run out once each; one match per lane (index % LANES)
const TIMED = new Set([1, 7, 13, 19]);
const ANALYSED = new Set([5, 8, 14]);
/** Acknowledged plays before each kill: the primary, the Redis master, an instance. */
const KILL_AT = { postgres: 150, redis: 350, instance: 550 };
const WRITE_RESUME_LIMIT_MS = 30_000;
const INSTANCE_PORTS = [3230, 3231];

interface Account {
  username: string;
  token: string;
}
interface Game {
  index: number;
  id: string;
  players: [Account, Account];
  over: boolean;
  /** The seq the players let the clock run out at (timed matches). */
  waitedAt: number | null;
}

const MATCH_Q = 'query($id: ID!) { match(id: $id) { seq status view { turn seats { seat player } } } }';
const LEGAL_Q = 'query($id: ID!) { legalPlays(matchId: $id) { seq plays { card capture } } }';
const PLAY_M = 'mutation($id: ID!, $i: PlayInput!) { play(matchId: $id, input: $i) { seq status } }';

describe('PostgreSQL, Redis and instance failover with nothing acknowledged lost (HA topology)', () => {
  const topology = HaTopology.create(DEFAULT_LAYOUT);
  const instances: SupervisedProcess[] = [];
  let worker: SupervisedProcess | null = null;
  let sql: pg.Pool | null = null;
  const subscribers: LiveSubscriber[] = [];
  const wsPlayers: WsPlayer[] = [];
  let failed = true;

  afterAll(async () => {
    for (const s of subscribers) s.stop();
    for (const w of wsPlayers) w.close();
    await sql?.end().catch(() => undefined);
    await Promise.allSettled([...instances, ...(worker ? [worker] : [])].map((p) => p.stop()));
    if (failed) process.stdout.write(`failover: logs of the topology (${topology.root}):\n${topology.tails(25)}\n`);
    await topology.stop();
  });

  it('keeps every acknowledged play exactly once through the loss of the primary, the Redis master and an instance', async () => {
    const missing = missingPrograms();
    if (missing.length > 0) throw new Error(`the HA suite needs the Debian packages (see .ci/run): missing ${missing.join(', ')}`);
    for (const f of ['dist/main.js', 'dist/jobs/worker.js']) if (!existsSync(f)) throw new Error(`${f} is missing: npm run test:ha builds first`);
    const t0 = Date.now();
    await topology.start((line) => process.stdout.write(`failover: ${line}\n`));
    const topologyMs = Date.now() - t0;
    sql = new pg.Pool({ connectionString: topology.writeUrl, max: 2 });
    sql.on('error', () => undefined); // the primary's loss ends its connections: the next query reconnects

    const suffix = Math.random().toString(36).slice(2, 6);
    const env = {
      ...topology.serviceEnvironment(),
      JWT_SECRET: `failover-${suffix}`,
      RATE_LIMIT: '1000000',
      JOB_POLL_SECONDS: '0.5',
      JOB_MAINTENANCE_SECONDS: '1',
      CLOCK_POLL_MS: '500',
      ANALYSIS_ITERATIONS: '20',
      ANALYSIS_JOB_TIMEOUT_SECONDS: '10',
      ANALYSIS_MAINTENANCE_SECONDS: '1',
      ANALYSIS_POLL_SECONDS: '0.5',
      ANALYSIS_RETRY_DELAY_SECONDS: '1',
    };
    INSTANCE_PORTS.forEach((port, i) =>
      instances.push(new SupervisedProcess({ name: `instance-${'ab'[i]}`, script: 'dist/main.js', port, env: { ...env, INSTANCE_ID: `ha-${'ab'[i]}` } })),
    );
    worker = new SupervisedProcess({
      name: 'worker',
      script: 'dist/jobs/worker.js',
      env: { ...env, INSTANCE_ID: 'ha-worker' },
      readyLine: /ready/i,
      readyAfterMs: 5000,
    });
    await instances[0].start(90_000); // migrates the fresh database
    await Promise.all([instances[1].start(90_000), worker.start(90_000)]);
    const urls = instances.map((p) => p.url);
    const wsUrls = urls.map((u) => `${u.replace('http', 'ws')}/graphql`);
    const record = new PlayRecord();
    const rest = new RestPlayer(urls, record);

    // ---- Setup, before any kill (a create has no idempotency key): 10 pairs of players, 20 matches made, each with its subscriber.
    const accounts: Account[] = [];
    for (let i = 0; i < 2 * LANES; i++) {
      const username = `ha${i}${suffix}`;
      const r = await rest.ok(i, 'POST', '/v1/auth/register', null, { username, password: `pw-${username}-long` }, 201);
      accounts.push({ username, token: r.body.accessToken as string });
    }
    const games: Game[] = [];
    for (let index = 0; index < MATCHES; index++) {
      const lane = index % LANES;
      const [a, b] = [accounts[2 * lane], accounts[2 * lane + 1]];
      const created = await rest.ok(
        index,
        'POST',
        '/v1/matches',
        a.token,
        {
          preset: 'scopa',
          overrides: { target: 1 },
          visibility: 'private',
          seats: [{ type: 'creator' }, { type: 'reserved', username: b.username }],
          ...(TIMED.has(index) ? { turnTimeLimit: 'PT30S', onExpiry: 'autoPlay' } : {}),
        },
        201,
      );
      const id = created.body.id as string;
      games.push({ index, id, players: [a, b], over: false, waitedAt: null });
      const sub = new LiveSubscriber(wsUrls, a.token, id, record, index);
      subscribers.push(sub);
      sub.start();
    }
    // the subscribers are listening before the first event they must see live (their fromSeq=1 sends the log so far)
    await sleep(1000);

    // ---- The supervisor: kills by progress (acknowledged plays), and what it measured.
    const kills: { what: string; at: number; detail: string }[] = [];
    const measured: Record<string, number | string | null> = {};
    const supervisor = (async () => {
      const acked = () => record.acked.length;
      await waitFor('plays before the primary kill', async () => acked() >= KILL_AT.postgres, 240_000, 50);
      // the primary: the leader by Patroni's REST API, its postmaster by its data folder
      const leaderName = (await topology.members()).find((m) => m.role === 'leader')?.name;
      const leader = topology.nodes.find((n) => n.name === leaderName)!;
      const pid = postmasterPid(leader);
      if (pid === null) throw new Error(`no postmaster for the leader ${leaderName}`);
      const killedAt = Date.now();
      process.kill(pid, 'SIGKILL');
      kills.push({ what: 'postgres primary', at: killedAt, detail: `${leader.name} postmaster ${pid}` });
      const promoted = await waitFor(
        'a new primary',
        async () => {
          const p = await currentPrimary(topology.nodes);
          return p && p.name !== leader.name ? p : undefined;
        },
        60_000,
        100,
      );
      measured.patroniFailoverMs = Date.now() - killedAt;
      measured.newPrimary = promoted.name;
      await waitFor('a write acknowledged after the kill', async () => record.writes.some((w) => w.ok && w.startedAt > killedAt), 60_000, 100).catch(
        () => undefined,
      );
      const firstWrite = record.writes.filter((w) => w.ok && w.startedAt > killedAt).sort((x, y) => x.at - y.at)[0];
      measured.writeResumeMs = firstWrite ? firstWrite.at - killedAt : null;
      await waitFor(
        'the old primary back as a standby',
        async () => (await topology.members()).some((m) => m.name === leader.name && m.role === 'sync_standby' && ['running', 'streaming'].includes(m.state)),
        60_000,
        500,
      )
        .then(() => (measured.rejoinedMs = Date.now() - killedAt))
        .catch(() => (measured.rejoinedMs = null));

      await waitFor('plays before the Redis master kill', async () => acked() >= KILL_AT.redis, 240_000, 50);
      const masterPort = await sentinelMasterPort(DEFAULT_LAYOUT.sentinelPorts[0]);
      const master = topology.redis.find((r) => r.options.name === `redis-${masterPort}`)!;
      const redisKilledAt = Date.now();
      master.kill();
      kills.push({ what: 'redis master', at: redisKilledAt, detail: `:${masterPort}` });
      await waitFor(
        'the Sentinels promoting the replica',
        async () => {
          const now = await sentinelMasterPort(DEFAULT_LAYOUT.sentinelPorts[1]);
          return now !== null && now !== masterPort;
        },
        60_000,
        200,
      );
      measured.sentinelFailoverMs = Date.now() - redisKilledAt;
      // the old master comes back (as a supervisor restarts it) and the Sentinels make it a replica
      master.start();

      await waitFor('plays before the instance kill', async () => acked() >= KILL_AT.instance, 240_000, 50);
      const victim = instances[1];
      victim.kill();
      kills.push({ what: 'instance', at: Date.now(), detail: victim.options.name });
      await sleep(3000);
      await victim.restart(90_000);
    })();
    const supervised = supervisor.catch((err: unknown) => {
      kills.push({ what: 'supervisor failed', at: Date.now(), detail: (err as Error).message });
    });

    // ---- Play: 5 lanes, 4 matches each in turn; even matches over REST, odd ones over graphql-ws.
    const restPlay = async (g: Game): Promise<void> => {
      for (let n = 0; n < 400; n++) {
        const m = (await rest.ok(g.index, 'GET', `/v1/matches/${g.id}`, g.players[0].token)).body;
        if (m.status === 'over') return void (g.over = true);
        const seat = (m.view.seats as { seat: number; player: string }[]).find((s) => s.seat === m.view.turn);
        const who = g.players.find((p) => p.username === seat?.player);
        if (!who) throw new Error(`match ${g.id}: nobody to move at seq ${m.seq}`);
        if (TIMED.has(g.index) && g.waitedAt === null && m.seq >= 12) {
          g.waitedAt = m.seq; // let the clock play this turn
          await waitFor(`clock expiry in ${g.id}`, async () => (await rest.ok(g.index, 'GET', `/v1/matches/${g.id}`, who.token)).body.seq > m.seq, 60_000, 500);
          continue;
        }
        const legal = (await rest.ok(g.index, 'GET', `/v1/matches/${g.id}/legal-plays`, who.token)).body;
        const play = legal.plays[0] as { card: string; capture: string[] };
        const key = `${g.id}:${legal.seq}`;
        const r = await rest.request(g.index, 'POST', `/v1/matches/${g.id}/plays`, who.token, { ...play, expectedSeq: legal.seq, idempotencyKey: key });
        record.writes.push({ startedAt: r.startedAt, at: Date.now(), ok: r.status === 200 });
        if (r.status === 200)
          record.acked.push({ matchId: g.id, actor: who.username, key, card: play.card, startedAt: r.startedAt, at: Date.now(), via: r.via });
        else if (r.body?.code !== 'VERSION_CONFLICT' && r.body?.code !== 'NOT_YOUR_TURN') throw new Error(`play in ${g.id}: ${r.status} ${r.text}`);
      }
      throw new Error(`match ${g.id} did not end`);
    };
    const wsPlay = async (g: Game): Promise<void> => {
      const socket = (who: Account) => {
        const w = new WsPlayer(wsUrls, who.token, record, g.index);
        wsPlayers.push(w);
        return w;
      };
      const ws = new Map(g.players.map((p) => [p.username, socket(p)]));
      const must = async (w: WsPlayer, q: string, v: Record<string, unknown>) => {
        const r = await w.run(q, v);
        if (r.errors) throw new Error(`match ${g.id}: ${JSON.stringify(r.errors).slice(0, 300)}`);
        return r;
      };
      for (let n = 0; n < 400; n++) {
        const m = (await must(ws.get(g.players[0].username)!, MATCH_Q, { id: g.id })).data.match;
        if (m.status === 'over') return void (g.over = true);
        const seat = (m.view.seats as { seat: number; player: string }[]).find((s) => s.seat === m.view.turn);
        const who = g.players.find((p) => p.username === seat?.player);
        if (!who) throw new Error(`match ${g.id}: nobody to move at seq ${m.seq}`);
        const w = ws.get(who.username)!;
        if (TIMED.has(g.index) && g.waitedAt === null && m.seq >= 12) {
          g.waitedAt = m.seq;
          await waitFor(`clock expiry in ${g.id}`, async () => (await must(w, MATCH_Q, { id: g.id })).data.match.seq > m.seq, 60_000, 500);
          continue;
        }
        const legal = (await must(w, LEGAL_Q, { id: g.id })).data.legalPlays;
        const play = legal.plays[0] as { card: string; capture: string[] };
        const key = `${g.id}:${legal.seq}`;
        const r = await w.run(PLAY_M, { id: g.id, i: { ...play, expectedSeq: legal.seq, idempotencyKey: key } });
        record.writes.push({ startedAt: r.startedAt, at: Date.now(), ok: !r.errors && !!r.data?.play });
        if (!r.errors && r.data?.play)
          record.acked.push({ matchId: g.id, actor: who.username, key, card: play.card, startedAt: r.startedAt, at: Date.now(), via: r.via });
        else if (!r.errors?.every((e) => ['VERSION_CONFLICT', 'NOT_YOUR_TURN'].includes(e?.extensions?.code)))
          throw new Error(`play in ${g.id}: ${JSON.stringify(r.errors)}`);
      }
      throw new Error(`match ${g.id} did not end`);
    };
    const analysisAsked: string[] = [];
    const lanes = Array.from({ length: LANES }, async (_, lane) => {
      for (const g of games.filter((x) => x.index % LANES === lane)) {
        // joined and started when its lane comes to it (a turn clock runs from the start), with their keys
        for (const [step, who] of [
          ['join', g.players[1]],
          ['start', g.players[0]],
        ] as const) {
          const r = await rest.request(g.index, 'POST', `/v1/matches/${g.id}/${step}`, who.token, { idempotencyKey: `${step}-${g.id}` });
          record.writes.push({ startedAt: r.startedAt, at: Date.now(), ok: r.status === 200 });
          if (r.status !== 200) throw new Error(`${step} ${g.id}: ${r.status} ${r.text}`);
        }
        await (g.index % 2 === 0 ? restPlay(g) : wsPlay(g));
        if (ANALYSED.has(g.index)) {
          const r = await rest.request(g.index, 'POST', `/v1/matches/${g.id}/analysis`, g.players[1].token, {});
          if (r.status !== 200 && r.status !== 202) throw new Error(`analysis of ${g.id}: ${r.status} ${r.text}`);
          analysisAsked.push(g.id);
        }
      }
    });
    const playStarted = Date.now();
    const played = await Promise.allSettled(lanes);
    const playMs = Date.now() - playStarted;
    await supervised;

    // ---- Drain: subscribers caught up, no job left, every analysis done (bounded).
    const finalSeq = new Map<string, number>();
    const drainStarted = Date.now();
    const drained = async () => {
      const [seqs, jobs, analyses] = await Promise.all([
        sql!.query<{ id: string; seq: number }>(
          `SELECT match_id::text AS id, max(seq)::int AS seq FROM match_events WHERE match_id = ANY($1::uuid[]) GROUP BY 1`,
          [games.map((g) => g.id)],
        ),
        sql!.query<{ n: number }>(`SELECT count(*)::int AS n FROM pgboss.job WHERE state < 'completed'`),
        sql!.query<{ n: number }>(`SELECT count(*)::int AS n FROM match_analyses WHERE status NOT IN ('done', 'failed')`),
      ]);
      for (const r of seqs.rows) finalSeq.set(r.id, r.seq);
      const caughtUp = subscribers.every((s) => s.seqs[s.seqs.length - 1] === finalSeq.get(s.matchId));
      return caughtUp && jobs.rows[0].n === 0 && analyses.rows[0].n === 0;
    };
    await waitFor('the drain', drained, 60_000, 500).catch(() => undefined);
    const drainMs = Date.now() - drainStarted;

    const report = {
      topologyMs,
      playMs,
      drainMs,
      kills: kills.map((k) => `${k.what} ${k.detail} at +${Math.round((k.at - playStarted) / 1000)}s`),
      measured,
      acked: record.acked.length,
      unavailable: record.unavailable,
      retryAfter: [...new Set(record.retryAfter)],
      deadConnections: record.deadConnections,
      resumes: subscribers.reduce((n, s) => n + s.resumes, 0),
      violations: record.violations.slice(0, 10),
      violationCount: record.violations.length,
      lanes: played.map((p) => (p.status === 'fulfilled' ? 'ok' : (p.reason as Error).message.slice(0, 300))),
      crashes: [...instances, worker].flatMap((p) => p!.crashes.map((c) => `${p!.options.name}: ${JSON.stringify(c)} ${p!.stderr.slice(-3).join(' | ')}`)),
      members: await topology.members().catch((err: Error) => err.message),
    };
    process.stdout.write(`failover: ${JSON.stringify(report, null, 1)}\n`);
    process.stdout.write(
      `failover: primary lost -> Patroni promoted ${measured.newPrimary} in ${measured.patroniFailoverMs} ms, writes resumed in ${measured.writeResumeMs} ms (limit ${WRITE_RESUME_LIMIT_MS}, target 15000)\n`,
    );

    // ---- Every check below is a list of what went wrong, all asserted empty at once (a failing run names every gap).
    const problems: Record<string, string[]> = {};
    // The run did what it promised: every kill done, every match played out, no process died by itself.
    problems.kills = kills.map((k) => k.what).join(',') === 'postgres primary,redis master,instance' ? [] : kills.map((k) => `${k.what}: ${k.detail}`);
    problems.lanes = report.lanes.filter((l) => l !== 'ok');
    problems.unfinishedMatches = games.filter((g) => !g.over).map((g) => g.id);
    problems.crashes = report.crashes;

    // No 500, no INTERNAL (the service's code for an unexpected error) nor INTERNAL_SERVER_ERROR, at any time.
    problems.violations = record.violations.map((v) => `${v.via} ${v.what}`);

    // Writes resumed within 30 s of the primary's loss.
    const resumed = measured.writeResumeMs;
    problems.writeResume =
      typeof resumed === 'number' && resumed <= WRITE_RESUME_LIMIT_MS ? [] : [`writes resumed after ${resumed} ms (limit ${WRITE_RESUME_LIMIT_MS})`];

    // Every acknowledged play is in the log exactly once; nothing a player played is there unacknowledged.
    const log = await sql.query<{ match_id: string; seq: number; type: string; payload: any; command_key: string | null }>(
      `SELECT match_id::text, seq, type, payload, command_key FROM match_events WHERE match_id = ANY($1::uuid[]) ORDER BY match_id, seq`,
      [games.map((g) => g.id)],
    );
    const byKey = new Map<string, typeof log.rows>();
    for (const e of log.rows) if (e.command_key) byKey.set(`${e.match_id} ${e.command_key}`, [...(byKey.get(`${e.match_id} ${e.command_key}`) ?? []), e]);
    // the store keeps a client's key under its actor (`<username>:<key>`)
    const ackedKeys = new Set(record.acked.map((a) => `${a.matchId} ${a.actor}:${a.key}`));
    problems.ackedTwice = ackedKeys.size === record.acked.length ? [] : [`${record.acked.length} 2xx plays for ${ackedKeys.size} keys`];
    problems.ackedNotOnceInLog = record.acked
      .filter((a) => {
        const plays = (byKey.get(`${a.matchId} ${a.actor}:${a.key}`) ?? []).filter((e) => e.type === 'CardPlayed');
        return plays.length !== 1 || plays[0].payload.card !== a.card || plays[0].payload.auto;
      })
      .map((a) => `${a.matchId} ${a.actor}:${a.key} ${a.card}: ${JSON.stringify(byKey.get(`${a.matchId} ${a.actor}:${a.key}`) ?? [])}`);
    const playedInLog = log.rows.filter((e) => e.type === 'CardPlayed' && !e.payload.auto);
    problems.inLogNotAcked = playedInLog
      .filter((e) => !ackedKeys.has(`${e.match_id} ${e.command_key}`))
      .map((e) => `${e.match_id}@${e.seq} key ${e.command_key}`);

    // Every finished match's export audits as sound.
    problems.unsoundExports = [];
    for (const g of games.filter((x) => x.over)) {
      const exported = await rest.request(g.index, 'GET', `/v1/matches/${g.id}/export`, g.players[0].token);
      const audit =
        exported.status === 200 ? auditJsonl(exported.text) : { sound: false, reason: `${exported.status} ${exported.text.slice(0, 200)}`, seq: null };
      if (!audit.sound) problems.unsoundExports.push(`${g.id}: ${audit.reason} at ${audit.seq}`);
    }

    // Every live subscriber received every event of its match, in order (1..last, nothing skipped or doubled).
    problems.subscriberGaps = subscribers
      .map((s) => ({ s, want: finalSeq.get(s.matchId) ?? -1 }))
      .filter(({ s, want }) => s.seqs.length !== want || s.seqs.some((seq, i) => seq !== i + 1))
      .map(({ s, want }) => {
        const missing = Array.from({ length: want }, (_, i) => i + 1).filter((q) => !s.seqs.includes(q));
        const at = s.seqs.findIndex((seq, i) => seq !== i + 1);
        // seq@subscription (0: the first, 1: the first resume, from fromSeqs[1])
        const around = s.seqs
          .slice(Math.max(0, at - 3), at + 4)
          .map((q, i) => `${q}@${s.origins[Math.max(0, at - 3) + i]}`)
          .join(',');
        return `${s.matchId}: ${s.seqs.length} events of ${want}, missing [${missing.slice(0, 8).join(',')}${missing.length > 8 ? '...' : ''}], received ...${around}... (#${at + 1} out of order), subscribed from ${s.fromSeqs.join(',')}: ${s.errors.slice(0, 2).join(' | ')}`;
      });

    // The queue: each clock expiry handled once (the players let each timed match's clock run out once), each
    // analysis done once by its job, no job failed or left unfinished.
    problems.clockExpiries = games
      .filter((x) => TIMED.has(x.index))
      .flatMap((g) => {
        const auto = log.rows.filter((e) => e.match_id === g.id && e.type === 'CardPlayed' && e.payload.auto).map((e) => e.seq);
        return g.waitedAt !== null && auto.length === 1 && auto[0] === g.waitedAt + 1
          ? []
          : [`${g.id}: waited at seq ${g.waitedAt}, auto plays at ${auto.join(',')}`];
      });
    const jobs = await sql.query<{ name: string; state: string; n: number }>(
      `SELECT name, state::text, count(*)::int AS n FROM (SELECT name, state FROM pgboss.job UNION ALL SELECT name, state FROM pgboss.archive) j
       WHERE state <> 'completed' GROUP BY name, state ORDER BY name`,
    );
    problems.jobsNotCompleted = jobs.rows.map((r) => `${r.name} ${r.state}: ${r.n}`);
    const deadlines = await sql.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM (SELECT name, state FROM pgboss.job UNION ALL SELECT name, state FROM pgboss.archive) j WHERE name = 'match-deadline' AND state = 'completed'`,
    );
    problems.deadlineJobs = deadlines.rows[0].n >= TIMED.size ? [] : [`${deadlines.rows[0].n} completed match-deadline jobs for ${TIMED.size} expiries`];
    problems.analyses = [];
    const wantAnalysed = games.filter((g) => ANALYSED.has(g.index)).map((g) => g.id);
    for (const id of wantAnalysed) {
      if (!analysisAsked.includes(id)) {
        problems.analyses.push(`${id}: not asked (its lane failed)`);
        continue;
      }
      const rows = await sql.query<{ status: string; job_id: string; attempts: number }>(
        `SELECT status, job_id::text, attempts FROM match_analyses WHERE match_id = $1::uuid`,
        [id],
      );
      const job = rows.rows[0]
        ? await sql.query<{ state: string }>(
            `SELECT state::text FROM pgboss.job WHERE id = $1::uuid UNION ALL SELECT state::text FROM pgboss.archive WHERE id = $1::uuid`,
            [rows.rows[0].job_id],
          )
        : { rows: [] };
      const states = job.rows.map((r) => r.state);
      if (rows.rows.length !== 1 || rows.rows[0].status !== 'done' || states.length !== 1 || states[0] !== 'completed')
        problems.analyses.push(`${id}: rows ${JSON.stringify(rows.rows)}, job ${states.join(',')}`);
    }

    // each list cut to its first entries and a count (a lost primary can fail hundreds the same way)
    for (const [k, list] of Object.entries(problems)) if (list.length > 12) problems[k] = [...list.slice(0, 12), `... and ${list.length - 12} more`];
    process.stdout.write(`failover: problems ${JSON.stringify(problems, null, 1)}\n`);
    expect(problems).toEqual(Object.fromEntries(Object.keys(problems).map((k) => [k, []])));
    failed = false;
  });
});
