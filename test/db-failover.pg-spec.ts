/**
 * The service across a lost and failed-over PostgreSQL (issue 45, "PostgreSQL
 * high availability"; docs/operations.md "When the database fails over"), on
 * a throwaway cluster of its own (initdb + pg_ctl, port 5451), reached
 * through a TCP proxy that can lose the server's answers. One process of the
 * built service (dist/main.js), never restarted:
 * 1. a play whose COMMIT happened but whose answer was lost answers 503
 *    SERVICE_UNAVAILABLE; the live feed still gets its event, and the retry
 *    with the same idempotencyKey answers it once;
 * 2. with the server down (pg_ctl -m immediate stop): commands answer 503
 *    SERVICE_UNAVAILABLE with Retry-After over REST and GraphQL (never a 500),
 *    /health/ready answers 503;
 * 3. the server back as a standby (standby.signal: read-only): not ready, a
 *    play is SERVICE_UNAVAILABLE; promoted (`pg_ctl promote`, a failover):
 *    ready, the same process plays on, retries are not doubled, the live feed
 *    delivered every event in order, and the clock's job (autoPlay after the
 *    turn time) runs.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync, chownSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { jest } from '@jest/globals';
import pg from 'pg';
import { SupervisedProcess } from './support/supervised-process';
import { startTcpProxy } from './support/tcp-proxy';
import type { TcpProxy } from './support/tcp-proxy';
import { openNdjson } from './support/ndjson-stream';
import type { NdjsonStream } from './support/ndjson-stream';

jest.setTimeout(240_000);

const BIN = '/usr/lib/postgresql/15/bin';
const PG_PORT = 5451;
const HTTP_PORT = 3201;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Runs a PostgreSQL tool as the postgres user (initdb refuses root). */
function asPostgres(tool: string, args: string[]): string {
  const argv = process.getuid?.() === 0 ? ['-u', 'postgres', '--', path.join(BIN, tool), ...args] : null;
  return argv ? execFileSync('runuser', argv, { encoding: 'utf8' }) : execFileSync(path.join(BIN, tool), args, { encoding: 'utf8' });
}

class Cluster {
  readonly dir: string;
  constructor() {
    this.dir = mkdtempSync(path.join(tmpdir(), 'scopa-failover-'));
    if (process.getuid?.() === 0) chownSync(this.dir, Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' })), 0);
    asPostgres('initdb', ['-D', path.join(this.dir, 'data'), '-A', 'trust', '-U', 'postgres', '--no-sync']);
  }
  get data(): string {
    return path.join(this.dir, 'data');
  }
  start(): void {
    const opts = `-p ${PG_PORT} -k ${this.dir} -c listen_addresses=127.0.0.1 -c fsync=off`;
    asPostgres('pg_ctl', ['-D', this.data, '-o', opts, '-l', path.join(this.dir, 'log'), '-w', '-t', '60', 'start']);
  }
  stopNow(): void {
    asPostgres('pg_ctl', ['-D', this.data, '-m', 'immediate', '-w', 'stop']);
  }
  /** Starts it as a standby (read-only, in recovery), as a demoted primary or a standby behind the proxy would be. */
  startAsStandby(): void {
    writeFileSync(path.join(this.data, 'standby.signal'), '');
    execFileSync('chown', ['postgres', path.join(this.data, 'standby.signal')]);
    this.start();
  }
  promote(): void {
    asPostgres('pg_ctl', ['-D', this.data, '-w', 'promote']);
  }
  remove(): void {
    try {
      this.stopNow();
    } catch {
      // already stopped
    }
    rmSync(this.dir, { recursive: true, force: true });
  }
}

interface Account {
  username: string;
  token: string;
}

describe('a lost and failed-over PostgreSQL (real server, one process of the built service)', () => {
  let cluster: Cluster;
  let proxy: TcpProxy;
  let service: SupervisedProcess;
  let direct: pg.Client | null = null;
  const base = `http://127.0.0.1:${HTTP_PORT}`;
  const streams: NdjsonStream[] = [];
  /** Every 5xx the service answered, with its code: none may be a 500. */
  const fiveHundreds: string[] = [];

  async function call(method: string, p: string, token: string | null, body?: unknown): Promise<{ status: number; body: any; headers: Headers }> {
    const res = await fetch(base + p, {
      method,
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(30_000),
    });
    const text = await res.text();
    const parsed = text ? JSON.parse(text) : null;
    if (res.status === 500) fiveHundreds.push(`${method} ${p}: ${text}`);
    return { status: res.status, body: parsed, headers: res.headers };
  }

  async function ok(method: string, p: string, token: string | null, body?: unknown, status = 200): Promise<any> {
    const r = await call(method, p, token, body);
    if (r.status !== status) throw new Error(`${method} ${p}: ${r.status} ${JSON.stringify(r.body)}`);
    return r.body;
  }

  async function eventsInLog(matchId: string): Promise<{ seq: number; command_key: string | null }[]> {
    direct ??= new pg.Client({ host: '127.0.0.1', port: PG_PORT, user: 'postgres', database: 'scopa' });
    if (!(direct as unknown as { _connected: boolean })._connected) await direct.connect();
    return (await direct.query('SELECT seq, command_key FROM match_events WHERE match_id = $1 ORDER BY seq', [matchId])).rows;
  }

  async function closeDirect(): Promise<void> {
    await direct?.end().catch(() => undefined);
    direct = null;
  }

  beforeAll(async () => {
    cluster = new Cluster();
    cluster.start();
    const admin = new pg.Client({ host: '127.0.0.1', port: PG_PORT, user: 'postgres', database: 'postgres' });
    await admin.connect();
    await admin.query('CREATE DATABASE scopa');
    await admin.end();
    proxy = await startTcpProxy(PG_PORT);
    service = new SupervisedProcess({
      name: 'instance',
      script: 'dist/main.js',
      port: HTTP_PORT,
      env: {
        DATABASE_URL: `postgresql://postgres@127.0.0.1:${proxy.port}/scopa`,
        REDIS_URL: '',
        JWT_SECRET: 'db-failover-spec',
        RATE_LIMIT: '1000000',
        CLIENT_SEED_WINDOW: '0',
        JOB_POLL_SECONDS: '0.5',
        JOB_MAINTENANCE_SECONDS: '1',
        CLOCK_POLL_MS: '500',
        PG_POOL_SIZE: '4',
      },
    });
    await service.start(90_000);
  });

  afterAll(async () => {
    for (const s of streams) s.close();
    await closeDirect();
    await service?.stop();
    await proxy?.close();
    cluster?.remove();
  });

  it('answers SERVICE_UNAVAILABLE while the primary is lost, and plays on in the same process once one is back', async () => {
    const register = async (username: string): Promise<Account> =>
      ({ username, token: (await ok('POST', '/v1/auth/register', null, { username, password: `pw-${username}-long` }, 201)).accessToken }) as Account;
    const alice = await register('failover_alice');
    const bob = await register('failover_bob');
    const byName = new Map([alice, bob].map((a) => [a.username, a]));
    const created = await ok(
      'POST',
      '/v1/matches',
      alice.token,
      { preset: 'scopa', turnTimeLimit: 'PT20S', onExpiry: 'autoPlay', seats: [{ type: 'creator' }, { type: 'reserved', username: bob.username }] },
      201,
    );
    const id = created.id as string;
    await ok('POST', `/v1/matches/${id}/join`, bob.token, { idempotencyKey: 'join' });
    await ok('POST', `/v1/matches/${id}/start`, alice.token, { idempotencyKey: 'start' });
    const feed = await openNdjson(`${base}/v1/matches/${id}/stream?fromSeq=1`, alice.token);
    streams.push(feed);
    expect(feed.status).toBe(200);

    /** The next legal play of whoever is to move, with the key a client would give it. */
    const nextPlay = async () => {
      const m = await ok('GET', `/v1/matches/${id}`, alice.token);
      const who = byName.get(m.view.seats[m.view.turn].player as string)!;
      const legal = await ok('GET', `/v1/matches/${id}/legal-plays`, who.token);
      const play = legal.plays[0] as { card: string; capture: string[] };
      return { who, body: { card: play.card, capture: play.capture, expectedSeq: legal.seq, idempotencyKey: `play-${legal.seq}` }, seq: legal.seq as number };
    };
    for (let i = 0; i < 2; i++) {
      const p = await nextPlay();
      await ok('POST', `/v1/matches/${id}/plays`, p.who.token, p.body);
    }

    // 1. The answer of a committed play is lost: the proxy throws the server's bytes away, the play commits, then every
    // connection drops.
    const lost = await nextPlay();
    proxy.loseReplies();
    const pending = call('POST', `/v1/matches/${id}/plays`, lost.who.token, lost.body);
    const until = Date.now() + 10_000;
    while (!(await eventsInLog(id)).some((e) => e.command_key === `${lost.who.username}:${lost.body.idempotencyKey}`)) {
      if (Date.now() > until) throw new Error('the play never committed');
      await sleep(50);
    }
    proxy.dropAll();
    const lostReply = await pending;
    expect(lostReply.status).toBe(503);
    expect(lostReply.body).toMatchObject({ code: 'SERVICE_UNAVAILABLE', retryAfter: expect.any(Number) });
    expect(Number(lostReply.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    // The feed gets the committed event though nobody retried yet (the service looks its appends in doubt up), well
    // before the turn time (20 s) would have the clock append the next one (whose notice would show the gap).
    await feed.waitFor((l) => l.event?.seq === lost.seq + 1, 8000, 'the event whose answer was lost');
    expect(feed.lines.filter((l) => l.event).map((l) => l.event.seq as number)).toEqual(Array.from({ length: lost.seq + 1 }, (_, i) => i + 1));
    const retried = await ok('POST', `/v1/matches/${id}/plays`, lost.who.token, lost.body);
    expect(retried.seq).toBeGreaterThanOrEqual(lost.seq + 1);
    const keyed = (await eventsInLog(id)).filter((e) => e.command_key === `${lost.who.username}:${lost.body.idempotencyKey}`);
    expect(keyed).toHaveLength(1);

    // 2. The server goes away.
    const beforeOutage = await nextPlay();
    await closeDirect();
    cluster.stopNow();
    const down = await call('POST', `/v1/matches/${id}/plays`, beforeOutage.who.token, beforeOutage.body);
    expect(down.status).toBe(503);
    expect(down.body).toMatchObject({ code: 'SERVICE_UNAVAILABLE', status: 503, retryAfter: expect.any(Number) });
    expect(Number(down.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    const read = await call('GET', `/v1/matches/${id}/legal-plays`, beforeOutage.who.token);
    expect(read.status).toBe(503);
    expect(read.body.code).toBe('SERVICE_UNAVAILABLE');
    const gql = await fetch(`${base}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${beforeOutage.who.token}` },
      body: JSON.stringify({
        query: 'mutation($id: ID!, $input: PlayInput!) { play(matchId: $id, input: $input) { seq } }',
        variables: { id, input: beforeOutage.body },
      }),
    });
    const gqlBody = (await gql.json()) as { errors?: { extensions?: { code?: string } }[] };
    expect(gqlBody.errors?.[0]?.extensions?.code).toBe('SERVICE_UNAVAILABLE');
    const notReady = await call('GET', '/health/ready', null);
    expect(notReady.status).toBe(503);
    expect((await call('GET', '/health', null)).status).toBe(200);

    // 3. Back as a standby (what a client behind the proxy meets before the failover completes): read-only, not ready.
    cluster.startAsStandby();
    const standbyReady = await call('GET', '/health/ready', null);
    expect(standbyReady.status).toBe(503);
    expect(standbyReady.body.code).toBe('UNAVAILABLE');
    // It answers (a hot standby): what makes it not ready is that it takes no writes.
    const standby = new pg.Client({ host: '127.0.0.1', port: PG_PORT, user: 'postgres', database: 'scopa' });
    await standby.connect();
    expect((await standby.query('SELECT pg_is_in_recovery() AS r')).rows[0].r).toBe(true);
    await standby.end();
    const readOnly = await call('POST', `/v1/matches/${id}/plays`, beforeOutage.who.token, beforeOutage.body);
    expect(readOnly.status).toBe(503);
    expect(readOnly.body.code).toBe('SERVICE_UNAVAILABLE');

    // Promoted: a writable primary again, the same process.
    cluster.promote();
    const readySince = Date.now();
    for (;;) {
      if ((await call('GET', '/health/ready', null)).status === 200) break;
      if (Date.now() - readySince > 30_000) throw new Error('not ready within 30 s of the promotion');
      await sleep(200);
    }
    const readyAfterMs = Date.now() - readySince;
    expect(service.starts).toBe(1);
    expect(service.crashes).toEqual([]);
    // The retry of the play refused during the outage, twice (a client that did not hear the first answer either).
    const first = await ok('POST', `/v1/matches/${id}/plays`, beforeOutage.who.token, beforeOutage.body);
    const writesAfterMs = Date.now() - readySince;
    const again = await ok('POST', `/v1/matches/${id}/plays`, beforeOutage.who.token, beforeOutage.body);
    expect(again.seq).toBe(first.seq);
    expect((await eventsInLog(id)).filter((e) => e.command_key === `${beforeOutage.who.username}:${beforeOutage.body.idempotencyKey}`)).toHaveLength(1);
    for (let i = 0; i < 2; i++) {
      const p = await nextPlay();
      await ok('POST', `/v1/matches/${id}/plays`, p.who.token, p.body);
    }

    // The clock's job: nobody plays, the turn time passes, the clock plays for the seat to move.
    const idle = await ok('GET', `/v1/matches/${id}`, alice.token);
    const clockDeadline = Date.now() + 60_000;
    let log = await eventsInLog(id);
    while (log.length <= idle.seq) {
      if (Date.now() > clockDeadline) throw new Error(`the clock did not play within 60 s (seq ${idle.seq})`);
      await sleep(500);
      log = await eventsInLog(id);
    }

    // The feed, open the whole time, delivered every event of the log once, in order.
    const last = log[log.length - 1].seq;
    await feed.waitFor((l) => l.event?.seq === last, 15_000, `event ${last} on the feed`);
    const seqs = feed.lines.filter((l) => l.event).map((l) => l.event.seq as number);
    expect(seqs).toEqual(log.map((e) => e.seq));
    expect(feed.lines.filter((l) => l.error)).toEqual([]);
    expect(fiveHundreds).toEqual([]);
    expect(service.crashes).toEqual([]);
    process.stdout.write(`db-failover: ready ${readyAfterMs} ms and first write ${writesAfterMs} ms after the promotion; ${seqs.length} events on the feed\n`);
  });
});
