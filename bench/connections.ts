/**
 * npm run bench:connections — how many authenticated graphql-ws connections one
 * service instance holds (issue 45, "A connection ceiling, measured").
 *
 * One instance of the built service (its own process, on the machine's
 * PostgreSQL and Redis, as an operator runs it) and BENCH_CONNECTIONS
 * (default 20,000) players. The accounts and their sessions are written
 * straight into the scratch database and each player's access token is a JWT
 * signed with the instance's JWT_SECRET, exactly as a login would sign it
 * (20,000 sign-ups over HTTP would mostly measure argon2). Each connection
 * sends connection_init with its bearer token and then subscribes to the
 * player's two streams, `myTurn` (yourTurn and clockLow notices) and
 * `myEvents` (challenges, matches started and ended...), as a client's lobby
 * does. The sockets are held by BENCH_CLIENT_PROCESSES child processes (default one
 * per 5,000), each from its own source address (127.0.0.2, .3, ...: one
 * address gives about 28,000 ephemeral ports toward one server port). Opening
 * stops early when connections start failing (50 failures in one client process).
 *
 * File descriptors: the machine's default limit is below 20,000 sockets, so
 * the bench raises RLIMIT_NOFILE of its own process with `prlimit` (root, or
 * CAP_SYS_RESOURCE, is needed to raise the hard limit) before it starts the
 * instance and the client processes, which inherit it; it says what it got.
 *
 * Measured:
 * - connections: sockets acknowledged, still open and with both
 *   subscriptions live at the end (the instance's scopa_subscriptions_open
 *   gauge must count two per connection);
 * - rss_kb_per_connection: the instance's RSS with every connection held
 *   minus its RSS before the mass connections (after the sample's 100
 *   connections and matches below, so the warm-up is not counted), / n;
 * - idle_cpu_ms_per_s_per_1000: the instance's CPU time (utime + stime from
 *   /proc/<pid>/stat) over an idle window of BENCH_IDLE_S (default 30 s: the
 *   keep-alive pings come every 12 s and presence's heartbeat every 10 s)
 *   with every connection held, less the same window's figure on the empty
 *   instance, per second and per 1,000 connections;
 * - your_turn_ms_p99: 50 sampled matches (BENCH_SAMPLE_MATCHES) between 100
 *   of the connected players (their sockets held by this process); each player
 *   plays a legal card over REST a moment (0.25 to 0.75 s) after
 *   its yourTurn notice, BENCH_PLAYS_PER_MATCH times (default 8) per match; the
 *   figure is the time from the play's request to the opponent's yourTurn
 *   notice on its socket, with every other connection held;
 * - presence: every sampled player sees the opponent online; then 10
 *   opponents close their sockets and must be seen offline with a last-seen
 *   time, and the others still online.
 *
 * Last line: connections=<n> rss_kb_per_connection=<n>
 * idle_cpu_ms_per_s_per_1000=<n> your_turn_ms_p99=<n>
 */
import { execFileSync, fork } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import pg from 'pg';
import WebSocket from 'ws';
import argon2 from 'argon2';
import { Redis } from 'ioredis';
import { http } from './http';
import { cardCode, legalPlaysOf, parseCard } from '../src/engine';
import type { RulesetOptions } from '../src/engine';
import { freshPgDatabase } from '../test/store/helpers';
import { spawnInstance } from '../test/support/process-instance';
import type { ProcessInstance } from '../test/support/process-instance';

const TARGET = Number(process.env.BENCH_CONNECTIONS ?? 20_000);
const PER_CLIENT = 5000;
const CLIENTS = Number(process.env.BENCH_CLIENT_PROCESSES ?? Math.max(1, Math.ceil(TARGET / PER_CLIENT)));
/** Opening stops once this many have failed (in one client process). */
const MAX_FAILURES = 50;
const IDLE_S = Number(process.env.BENCH_IDLE_S ?? 30);
const SAMPLE_MATCHES = Number(process.env.BENCH_SAMPLE_MATCHES ?? 50);
const PLAYS_PER_MATCH = Number(process.env.BENCH_PLAYS_PER_MATCH ?? 8);
/** A sampled player plays this long (half to one and a half times) after its notice. */
const THINK_MS = 500;
const PRESENCE_CLOSED = Math.min(10, SAMPLE_MATCHES);
/** The instance's port: BENCH_PORT, else a free one. */
const PORT = process.env.BENCH_PORT ? Number(process.env.BENCH_PORT) : 0;
/** In flight at once per client process while opening. */
const OPENING = 100;
const NOFILE = 1_048_576;
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const JWT_SECRET = 'bench-connections-secret';
const JWT_ISSUER = 'scopa-service';
const SUBSCRIPTIONS = ['subscription { myTurn { matchId seq seat kind } }', 'subscription { myEvents { type matchId } }'] as const;
const CLOCK_TICKS = 100; // USER_HZ

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const pct = (xs: number[], p: number) => {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)];
};
const log = (msg: string) => console.error(`[${new Date().toISOString().slice(11, 19)}] ${msg}`);

// ---------------------------------------------------------------------------
// One connection, as a client speaks graphql-transport-ws (no client library:
// 20,000 of graphql-ws's clients would cost this side more than the sockets).

interface Notice {
  matchId: string;
  seq: number;
  kind: string;
}

interface Held {
  ws: WebSocket;
  /** Subscriptions the server ended or refused (error / complete). */
  ended: number;
}

function openConnection(url: string, token: string, localAddress: string | undefined, onNotice?: (n: Notice) => void): Promise<Held> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, 'graphql-transport-ws', { localAddress, perMessageDeflate: false, handshakeTimeout: 60_000 });
    const held: Held = { ws, ended: 0 };
    let acked = false;
    ws.on('open', () => ws.send(JSON.stringify({ type: 'connection_init', payload: { authorization: `Bearer ${token}` } })));
    ws.on('message', (data) => {
      const msg = JSON.parse(String(data)) as { type: string; id?: string; payload?: any };
      if (msg.type === 'connection_ack') {
        acked = true;
        SUBSCRIPTIONS.forEach((query, i) => ws.send(JSON.stringify({ id: String(i + 1), type: 'subscribe', payload: { query } })));
        resolve(held);
      } else if (msg.type === 'next') {
        const turn = msg.payload?.data?.myTurn;
        if (turn && onNotice) onNotice({ matchId: turn.matchId, seq: turn.seq, kind: turn.kind });
      } else if (msg.type === 'error' || msg.type === 'complete') {
        held.ended++;
      } else if (msg.type === 'ping') {
        ws.send(JSON.stringify({ type: 'pong' }));
      }
    });
    ws.on('error', (err) => {
      if (!acked) reject(err);
    });
    ws.on('close', (code, reason) => {
      if (!acked) reject(new Error(`closed ${code} ${String(reason)}`));
    });
  });
}

// ---------------------------------------------------------------------------
// A client process: opens its share of the connections and holds them.

type ToClient = { type: 'open'; url: string; tokens: string[]; localAddress: string } | { type: 'count' } | { type: 'close' };
type FromClient =
  | { type: 'progress'; opened: number; failed: number }
  | { type: 'opened'; opened: number; failed: number; firstError: string | null }
  | { type: 'count'; open: number; ended: number };

async function clientMain(): Promise<void> {
  const held: Held[] = [];
  const send = (m: FromClient) => process.send!(m);
  process.on('message', async (m: ToClient) => {
    if (m.type === 'open') {
      let next = 0;
      let failed = 0;
      let firstError: string | null = null;
      let lastReport = 0;
      const worker = async () => {
        while (next < m.tokens.length && failed < MAX_FAILURES) {
          const token = m.tokens[next++];
          try {
            held.push(await openConnection(m.url, token, m.localAddress));
          } catch (err) {
            failed++;
            firstError ??= (err as Error).message;
          }
          if (Date.now() - lastReport > 1000) {
            lastReport = Date.now();
            send({ type: 'progress', opened: held.length, failed });
          }
        }
      };
      await Promise.all(Array.from({ length: OPENING }, worker));
      send({ type: 'opened', opened: held.length, failed, firstError });
    } else if (m.type === 'count') {
      const open = held.filter((h) => h.ws.readyState === WebSocket.OPEN && h.ended === 0).length;
      send({ type: 'count', open, ended: held.filter((h) => h.ended > 0).length });
    } else if (m.type === 'close') {
      for (const h of held) h.ws.terminate();
      process.exit(0);
    }
  });
}

// ---------------------------------------------------------------------------
// The driver.

function signJwt(payload: Record<string, unknown>): string {
  const b64 = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url');
  const body = `${b64({ alg: 'HS256', typ: 'JWT' })}.${b64(payload)}`;
  return `${body}.${createHmac('sha256', Buffer.from(JWT_SECRET, 'utf8')).update(body).digest('base64url')}`;
}

/** Raises RLIMIT_NOFILE of this process (children inherit it); returns the soft limit in force. */
function raiseFileLimit(): number {
  const current = () => Number(/Max open files\s+(\d+)/.exec(readFileSync('/proc/self/limits', 'utf8'))?.[1] ?? 0);
  try {
    execFileSync('prlimit', ['--pid', String(process.pid), `--nofile=${NOFILE}:${NOFILE}`], { stdio: 'pipe' });
  } catch (err) {
    log(`prlimit could not raise the file descriptor limit (${(err as Error).message.split('\n')[0]}): kept ${current()}`);
  }
  return current();
}

function ticksOf(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return Number(fields[11]) + Number(fields[12]);
}

function rssKb(pid: number): number {
  return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
}

/** The instance's own CPU ms a second over `seconds` of idling. */
async function idleCpu(pid: number, seconds: number): Promise<number> {
  const t0 = ticksOf(pid);
  const at = performance.now();
  await sleep(seconds * 1000);
  return (((ticksOf(pid) - t0) * 1000) / CLOCK_TICKS / (performance.now() - at)) * 1000;
}

async function subscriptionsOpen(base: string): Promise<number> {
  const text = await (await fetch(`${base}/metrics`)).text();
  return Number(/^scopa_subscriptions_open(?:\{[^}]*\})? (\d+)/m.exec(text)?.[1] ?? NaN);
}

/** The built instance (test/support/process-instance.ts), logging warnings, as in production; `stop` ends it with SIGKILL if 20,000 sockets hold its shutdown past 10 s. */
async function spawnService(env: Record<string, string>): Promise<ProcessInstance> {
  const nodeArgs = (process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const instance = await spawnInstance({ LOG_LEVEL: 'warn', NODE_ENV: 'production', ...env, ...(PORT ? { PORT: String(PORT) } : {}) }, nodeArgs);
  return {
    ...instance,
    stop: () => Promise.race([instance.stop(), sleep(10_000).then(() => void instance.child.kill('SIGKILL'))]),
  };
}

interface Player {
  username: string;
  token: string;
}

/**
 * Takes the bench's players out of the shared Redis's presence (src/presence/presence.service.ts): a stopped
 * instance leaves them in `presence:all` for the live instances' sweeps, which would spend their beats on 20,000
 * accounts of a dropped database (and hold up other tests' sweeps on the same Redis).
 */
async function forgetPresence(players: Player[]): Promise<void> {
  const redis = new Redis(REDIS_URL);
  try {
    for (let i = 0; i < players.length; i += 1000) {
      const names = players.slice(i, i + 1000).map((p) => p.username);
      await redis.zrem('presence:all', ...names);
      await redis.del(...names.flatMap((p) => [`presence:${p}`, `presence:seen:${p}`, `presence:gone:${p}`]));
    }
  } finally {
    redis.disconnect();
  }
}

/** Accounts conn000001... with an active session each and its JWT (valid a day), written in two statements. */
async function seedPlayers(url: string, n: number): Promise<Player[]> {
  const passwordHash = await argon2.hash('bench-password', { type: argon2.argon2id, memoryCost: 19_456, timeCost: 2, parallelism: 1 });
  const db = new pg.Client({ connectionString: url });
  await db.connect();
  try {
    await db.query(
      `INSERT INTO accounts (id, username, password_hash) SELECT gen_random_uuid(), 'conn' || lpad(i::text, 6, '0'), $1 FROM generate_series(1, $2) i`,
      [passwordHash, n],
    );
    const rows = await db.query<{ sid: string; sub: string; usr: string }>(
      `INSERT INTO sessions (id, account_id, expires_at) SELECT gen_random_uuid(), id, now() + interval '1 day' FROM accounts WHERE username LIKE 'conn%'
       RETURNING id AS sid, account_id AS sub, (SELECT username FROM accounts a WHERE a.id = account_id) AS usr`,
    );
    const iat = Math.floor(Date.now() / 1000);
    return rows.rows
      .map((r) => ({ username: r.usr, token: signJwt({ sub: r.sub, usr: r.usr, sid: r.sid, iat, exp: iat + 86_400, iss: JWT_ISSUER }) }))
      .sort((a, b) => a.username.localeCompare(b.username));
  } finally {
    await db.end();
  }
}

interface SampleMatch {
  id: string;
  options: RulesetOptions;
  /** The two players, by seat. */
  seats: [Player, Player];
  sockets: [Held, Held];
  plays: number;
}

async function main(): Promise<void> {
  const nofile = raiseFileLimit();
  log(`RLIMIT_NOFILE of this process, the instance and the client processes: ${nofile}`);
  if (nofile < TARGET + 1000) log(`warning: ${nofile} file descriptors cannot hold ${TARGET} connections`);
  const sample = 2 * SAMPLE_MATCHES;
  if (TARGET < sample) throw new Error(`BENCH_CONNECTIONS must be at least ${sample} (the sample)`);

  const db = await freshPgDatabase('scopa_bench');
  const clients: ChildProcess[] = [];
  let players: Player[] = [];
  let service: ProcessInstance | null = null;
  const cleanup = () => {
    for (const c of clients) c.kill('SIGKILL');
    service?.child.kill('SIGKILL');
  };
  process.on('exit', cleanup);
  try {
    service = await spawnService({
      DATABASE_URL: db.url,
      REDIS_URL,
      JWT_SECRET,
      RATE_LIMIT: '100000000',
      AUTH_RATE_LIMIT: '100000000',
      // The bench's clients come from a handful of loopback addresses; behind a proxy this is per real client address.
      WS_MAX_CONNECTIONS_PER_ADDRESS: String(TARGET + 1000),
      CLIENT_SEED_WINDOW: '0',
    });
    const pid = service.child.pid!;
    const base = service.url;
    const wsUrl = base.replace('http', 'ws') + '/graphql';
    log(`instance ${base} (pid ${pid}); seeding ${TARGET} accounts and sessions`);
    players = await seedPlayers(db.url, TARGET);

    // The sample: 100 players held by this process, in 50 matches.
    const byMatch = new Map<string, SampleMatch>();
    const waiting = new Map<string, (n: Notice) => void>(); // `${matchId}/${seq}/${username}` -> resolver
    const early = new Map<string, number>(); // notices that came before their waiter, by key: when
    const onNoticeFor = (username: string) => (n: Notice) => {
      if (n.kind !== 'yourTurn') return;
      const key = `${n.matchId}/${n.seq}/${username}`;
      const w = waiting.get(key);
      if (w) {
        waiting.delete(key);
        w(n);
      } else early.set(key, performance.now());
      const match = byMatch.get(n.matchId);
      if (match) turnCame(match, username, n.seq);
    };
    const sampleSockets: Held[] = [];
    for (let i = 0; i < sample; i++) sampleSockets.push(await openConnection(wsUrl, players[i].token, '127.0.0.1', onNoticeFor(players[i].username)));

    const turnLatencies: number[] = [];
    const playLatencies: number[] = [];
    let sampling = false;
    let playErrors = 0;
    let sampleDone: () => void = () => undefined;
    let matchesDone = 0;
    const turnCame = (match: SampleMatch, username: string, seq: number) => {
      if (!sampling) return;
      const seat = match.seats[0].username === username ? 0 : 1;
      if (match.plays >= PLAYS_PER_MATCH) return;
      match.plays++;
      void (async () => {
        await sleep(THINK_MS * (0.5 + Math.random()));
        const me = match.seats[seat];
        const opponent = match.seats[1 - seat];
        const got = await http(base, 'GET', `/v1/matches/${match.id}`, me.token);
        const view = got.body.view;
        const last = view.deckSize === 0 && view.seats.reduce((n: number, s: any) => n + s.handSize, 0) === 1;
        const legal = legalPlaysOf(match.options, view.hand.map(parseCard), view.table.map(parseCard), last);
        const play = legal[Math.floor(Math.random() * legal.length)];
        const sent = performance.now();
        const r = await http(
          base,
          'POST',
          `/v1/matches/${match.id}/plays`,
          me.token,
          { card: cardCode(play.card), capture: play.capture.map(cardCode), idempotencyKey: `${match.id}-${seq}` },
          { 'if-match': `"${seq}"` },
        );
        playLatencies.push(performance.now() - sent);
        if (r.status !== 200) {
          playErrors++;
          log(`play ${match.id}@${seq}: ${r.status} ${JSON.stringify(r.body).slice(0, 200)}`);
          return;
        }
        // The notice names the seq after the play's events (a play that ends a hand adds the next deal's): the answer's.
        const after = r.body.seq as number;
        const key = `${match.id}/${after}/${opponent.username}`;
        const noticed = new Promise<number>((resolve) => {
          const at = early.get(key);
          if (at !== undefined) return resolve(at);
          waiting.set(key, () => resolve(performance.now()));
        });
        const at = await Promise.race([noticed, sleep(10_000).then(() => NaN)]);
        if (Number.isNaN(at)) {
          playErrors++;
          log(`no yourTurn for ${opponent.username} in ${match.id}@${after} within 10 s`);
        } else turnLatencies.push(at - sent);
        if (match.plays >= PLAYS_PER_MATCH && ++matchesDone === byMatch.size) sampleDone();
      })().catch((err: unknown) => {
        playErrors++;
        log(`sample play: ${(err as Error).message}`);
      });
    };

    const matches: SampleMatch[] = [];
    for (let m = 0; m < SAMPLE_MATCHES; m++) {
      const seats: [Player, Player] = [players[2 * m], players[2 * m + 1]];
      const created = await http(base, 'POST', '/v1/matches', seats[0].token, {
        preset: 'scopa',
        overrides: { target: 11 },
        seats: [{ type: 'creator' }, { type: 'open' }],
      });
      if (created.status !== 201) throw new Error(`create: ${created.status} ${JSON.stringify(created.body)}`);
      const joined = await http(base, 'POST', `/v1/matches/${created.body.id}/join`, seats[1].token, {});
      if (joined.status !== 200) throw new Error(`join: ${joined.status} ${JSON.stringify(joined.body)}`);
      const match: SampleMatch = {
        id: created.body.id,
        options: created.body.view.options,
        seats,
        sockets: [sampleSockets[2 * m], sampleSockets[2 * m + 1]],
        plays: 0,
      };
      matches.push(match);
      byMatch.set(match.id, match);
    }

    // The empty instance (the sample's 100 connections apart), settled.
    await sleep(3000);
    const emptyCpu = await idleCpu(pid, IDLE_S);
    const rssBefore = rssKb(pid);
    log(`before: RSS ${(rssBefore / 1024).toFixed(0)} MB, idle CPU ${emptyCpu.toFixed(1)} ms/s with the sample's ${sample} connections`);

    // The rest, from the client processes.
    const rest = players.slice(sample);
    const shares = Array.from({ length: CLIENTS }, (_, c) => rest.filter((_, i) => i % CLIENTS === c).map((p) => p.token));
    const openedAt = performance.now();
    const progress = new Array<{ opened: number; failed: number }>(CLIENTS).fill({ opened: 0, failed: 0 });
    let lastLog = 0;
    const results = await Promise.all(
      shares.map(
        (tokens, c) =>
          new Promise<{ opened: number; failed: number; firstError: string | null }>((resolve, reject) => {
            const child = fork('bench/connections.ts', ['--client'], {
              execArgv: ['--import', 'tsx'],
              stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
            });
            clients.push(child);
            child.on('exit', (code) => reject(new Error(`client process ${c} exited with ${code}`)));
            child.on('message', (m: FromClient) => {
              if (m.type === 'progress') {
                progress[c] = m;
                if (Date.now() - lastLog > 5000) {
                  lastLog = Date.now();
                  const sum = progress.reduce((a, p) => ({ opened: a.opened + p.opened, failed: a.failed + p.failed }), { opened: 0, failed: 0 });
                  log(`opened ${sum.opened + sample} (${sum.failed} failed), instance RSS ${(rssKb(pid) / 1024).toFixed(0)} MB`);
                }
              } else if (m.type === 'opened') {
                child.removeAllListeners('exit');
                resolve(m);
              }
            });
            child.send({ type: 'open', url: wsUrl, tokens, localAddress: `127.0.0.${2 + c}` } satisfies ToClient);
          }),
      ),
    );
    const openSeconds = (performance.now() - openedAt) / 1000;
    const failed = results.reduce((n, r) => n + r.failed, 0);
    const opened = results.reduce((n, r) => n + r.opened, 0) + sample;
    log(
      `opened ${opened} connections in ${openSeconds.toFixed(1)} s (${(opened / openSeconds).toFixed(0)}/s), ${failed} failed` +
        (failed ? ` (first: ${results.find((r) => r.firstError)?.firstError})` : ''),
    );

    await sleep(5000);
    const rssAfter = rssKb(pid);
    const loadedCpu = await idleCpu(pid, IDLE_S);
    log(`held: RSS ${(rssAfter / 1024).toFixed(0)} MB, idle CPU ${loadedCpu.toFixed(1)} ms/s over ${IDLE_S} s`);

    // yourTurn delivery at this load: start the sample's matches; each turn's player plays after a moment.
    sampling = true;
    const allDone = new Promise<void>((r) => (sampleDone = r));
    for (const match of matches) {
      const r = await http(base, 'POST', `/v1/matches/${match.id}/start`, match.seats[0].token, {}).catch((err: Error) => ({ status: 0, body: err.message }));
      if (r.status !== 200) {
        playErrors++;
        log(`start ${match.id}: ${r.status} ${JSON.stringify(r.body).slice(0, 200)}`);
      }
    }
    await Promise.race([allDone, sleep(30_000 + PLAYS_PER_MATCH * THINK_MS * 4)]);
    sampling = false;

    // Presence: each sampled player sees the opponent online; PRESENCE_CLOSED opponents leave and are seen offline.
    let presenceWrong = 0;
    const opponentPresence = async (match: SampleMatch) => {
      const got = await http(base, 'GET', `/v1/matches/${match.id}`, match.seats[0].token);
      const seat = got.body.view.seats.find((s: any) => s.player === match.seats[1].username);
      return { online: seat?.online as boolean | null, lastSeen: seat?.lastSeen as string | null };
    };
    for (const match of matches) if ((await opponentPresence(match)).online !== true) presenceWrong++;
    const leaving = matches.slice(0, PRESENCE_CLOSED);
    for (const match of leaving) match.sockets[1].ws.close(1000);
    await sleep(1000);
    for (const match of matches) {
      const p = await opponentPresence(match);
      const left = leaving.includes(match);
      if (left ? p.online !== false || !p.lastSeen : p.online !== true) presenceWrong++;
    }
    log(`presence: ${SAMPLE_MATCHES} opponents online, then ${PRESENCE_CLOSED} closed: ${presenceWrong} wrong of ${2 * SAMPLE_MATCHES} reads`);

    // Held at the end: the client processes' open sockets with both subscriptions live, and the instance's gauge.
    const counts = await Promise.all(
      clients.map(
        (child) =>
          new Promise<{ open: number; ended: number }>((resolve) => {
            child.once('message', (m: FromClient) => m.type === 'count' && resolve(m));
            child.send({ type: 'count' } satisfies ToClient);
          }),
      ),
    );
    const ownOpen = sampleSockets.filter((h) => h.ws.readyState === WebSocket.OPEN && h.ended === 0).length;
    const held = counts.reduce((n, c) => n + c.open, 0) + ownOpen + PRESENCE_CLOSED; // the closed ones were held until the presence check
    const gauge = await subscriptionsOpen(base);
    const ended = counts.reduce((n, c) => n + c.ended, 0);
    log(
      `held ${held} of ${opened} opened (${ended} with a subscription ended by the server); scopa_subscriptions_open ${gauge} (2 per connection: ${2 * (held - PRESENCE_CLOSED)})`,
    );
    const n = gauge === 2 * (held - PRESENCE_CLOSED) ? held : Math.min(held, Math.floor(gauge / 2) + PRESENCE_CLOSED);

    console.log(
      `${n} connections held (target ${TARGET}), ${CLIENTS} client processes, opened at ${(opened / openSeconds).toFixed(0)}/s; RSS ${(rssBefore / 1024).toFixed(0)} → ${(rssAfter / 1024).toFixed(0)} MB; ` +
        `idle CPU ${emptyCpu.toFixed(1)} → ${loadedCpu.toFixed(1)} ms/s over ${IDLE_S} s; yourTurn over ${turnLatencies.length} plays: p50 ${pct(turnLatencies, 50).toFixed(1)} ms, ` +
        `p99 ${pct(turnLatencies, 99).toFixed(1)} ms (play p50 ${pct(playLatencies, 50).toFixed(1)}, p99 ${pct(playLatencies, 99).toFixed(1)} ms), ${playErrors} errors; presence wrong ${presenceWrong}`,
    );
    console.log(
      `connections=${n} rss_kb_per_connection=${((rssAfter - rssBefore) / (n - sample)).toFixed(1)} idle_cpu_ms_per_s_per_1000=${(((loadedCpu - emptyCpu) / (n - sample)) * 1000).toFixed(2)} your_turn_ms_p99=${pct(turnLatencies, 99).toFixed(1)}`,
    );
    for (const c of clients) c.send({ type: 'close' } satisfies ToClient);
    for (const h of sampleSockets) h.ws.terminate();
    await service.stop();
    if (presenceWrong > 0 || playErrors > 0) process.exitCode = 1;
  } finally {
    cleanup();
    await forgetPresence(players);
    await db.drop();
  }
}

if (process.argv.includes('--client')) void clientMain();
else
  main().then(
    () => process.exit(),
    (err: unknown) => {
      console.error(err);
      process.exit(1);
    },
  );
