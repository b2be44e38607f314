/**
 * npm run bench:api — bot-vs-bot matches played through the real HTTP/GraphQL API of
 * one and of two service instances (separate processes, on the machine's
 * PostgreSQL and Redis), every seat subscribed over graphql-ws.
 *
 * Each seat reacts to its subscription: when an event shows its turn, it picks
 * a random legal play from its own view (the engine's legalPlaysOf) and sends
 * it with the seq it saw and an idempotency key, over REST (If-Match) and, in
 * a second pass, as the GraphQL play mutation on the seat's graphql-ws socket
 * (BENCH_TRANSPORT=rest|ws runs one).
 *  - saturation: every seat plays as soon as it is its turn;
 *  - paced: plays are admitted at a fixed total rate (default 500/s).
 * Play latency: the request's round trip. Delivery latency: from the play's
 * acknowledgement to its arrival at each subscriber of the match (an event
 * that arrives before the acknowledgement counts as 0).
 * Each case starts with an unmeasured pass of BENCH_WARMUP (200) matches on
 * the fresh instances (after 50, the JIT was still compiling: 15% of the
 * instances' CPU). A pass begins once every seat's subscription has delivered
 * the log so far. At saturation it begins with every match's start at once.
 * Paced, the matches are started before it (through the pacer), and it
 * begins by releasing every first move: the pass is plays alone, at the rate
 * (start p99: the starts' round trip, in either mode). CPU per play: the
 * whole machine's CPU time (instances, PostgreSQL, Redis, this generator)
 * over the pass, per acknowledged play; own CPU per
 * play: only this case's instances and the PostgreSQL backends of its scratch
 * database (what other users of a shared machine do is not in it), the
 * backends' part also shown alone. Also runs
 * bench:store for the raw-append ceiling and prints the ratio.
 * Last line (plays over graphql-ws, or the one transport run):
 * plays_per_s=<saturation, two instances> p99_ms=<play p99 at the paced rate,
 * two instances> delivery_p99_ms=<same> ratio=<saturation / raw appends>
 * cpu_ms_per_play=<paced, two instances> own_cpu_ms_per_play=<same>
 *
 * `npm run bench:api -- --baseline <git ref> [--rounds N]` builds <ref> in a
 * temporary worktree (bench/baseline.ts) and runs every case against its
 * instances and against ours alternately, baseline first, N rounds (default
 * 2); the same load generator drives both. It prints every run, then one
 * table of the medians side by side with their ratios (now / baseline), and
 * the last line gains vs_baseline=plays:<r>,p99:<r>,cpu:<r>,own_cpu:<r>
 * (saturation plays/s, paced p99, paced machine and own CPU per play; same
 * transport and instances).
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { http } from './http';
import { LIVE } from './live-query';
import { createClient } from 'graphql-ws';
import type { Client } from 'graphql-ws';
import WebSocket from 'ws';
import { cardCode, legalPlaysOf, mulberry32, parseCard } from '../src/engine';
import type { RulesetOptions } from '../src/engine';
import { freshPgDatabase } from '../test/store/helpers';
import { spawnInstance } from '../test/support/process-instance';
import type { ProcessInstance } from '../test/support/process-instance';
import { alternate, CURRENT_SERVICE, median, prepareBaseline, ratio, serviceOf, sideBySideArgs } from './baseline';
import type { ServiceLaunch, Side } from './baseline';

const MATCHES = Number(process.env.BENCH_MATCHES ?? 200);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 200);
const RATE = Number(process.env.BENCH_RATE ?? 500);
const ACCOUNTS = Number(process.env.BENCH_ACCOUNTS ?? 40);
const TARGET = Number(process.env.BENCH_TARGET ?? 1);
// How plays are sent: 'rest' (POST /v1/matches/:id/plays) or 'ws' (the GraphQL play mutation over the seat's graphql-ws socket).
type Transport = 'rest' | 'ws';
const TRANSPORTS: Transport[] = process.env.BENCH_TRANSPORT === 'ws' ? ['ws'] : process.env.BENCH_TRANSPORT === 'rest' ? ['rest'] : ['rest', 'ws'];
const PLAY = `mutation($id: ID!, $input: PlayInput!) { play(matchId: $id, input: $input) { seq } }`;
// With REDIS_SENTINELS (and REDIS_SENTINEL_NAME) set, the instances find Redis through Sentinel: no URL beside it (blank is unset).
const REDIS_URL = process.env.REDIS_SENTINELS ? '' : process.env.REDIS_URL || 'redis://127.0.0.1:6379';
// BENCH_SLOW_MS=<ms>: print when the measured pass's plays of at least that latency came (wall clock), to set them beside other logs.
const SLOW_MS = Number(process.env.BENCH_SLOW_MS ?? 0);

interface Result {
  transport: Transport;
  mode: string;
  instances: number;
  plays: number;
  seconds: number;
  playsPerS: number;
  p50: number;
  p95: number;
  p99: number;
  /** The match starts' round trip (paced: before the pass, through the pacer; saturation: all at once, in the pass). */
  startP99: number;
  deliveryP99: number;
  /** CPU time of the whole machine (service, PostgreSQL, Redis, load generator) per acknowledged play. */
  cpuMsPerPlay: number;
  /**
   * CPU time of this case's own processes per acknowledged play: the instances and the PostgreSQL backends of its
   * scratch database (not Redis, the server's shared processes or the load generator). Unlike the machine's, it
   * does not count what other users of a shared machine do meanwhile.
   */
  ownCpuMsPerPlay: number;
  /** Of which the PostgreSQL backends of its scratch database. */
  pgCpuMsPerPlay: number;
  rssMb: number[];
  /** CPU ms a second that the hypervisor took from this machine during the pass: a noisy round's sign. */
  stealMsPerS: number;
  errors: number;
  stale: number;
}

const pct = (xs: number[], p: number) => {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
// Whatever happens to the bench, its service instances must not outlive it.
const running: ProcessInstance[] = [];
process.on('exit', () => running.forEach((i) => i.child.kill('SIGKILL')));

/** A promise (`reached`) kept once `count()` has been called n times, or at once by `reach()` (a time limit). */
function countdown(n: number): { reached: Promise<void>; count: () => void; reach: () => void } {
  let left = n;
  let reach!: () => void;
  const reached = new Promise<void>((r) => (reach = r));
  const count = () => {
    if (--left === 0) reach();
  };
  return { reached, count, reach };
}

/** Slow plays in bursts (ends less than a second apart): when each burst began and ended, its plays and its slowest. */
function printSlowPlays(slow: { endedAt: number; ms: number; first: boolean }[], passStartedAt: number): void {
  const bursts: { from: number; to: number; plays: number; firsts: number; maxMs: number }[] = [];
  for (const p of [...slow].sort((a, b) => a.endedAt - b.endedAt)) {
    const last = bursts[bursts.length - 1];
    if (last && p.endedAt - last.to < 1000) {
      last.to = p.endedAt;
      last.plays++;
      if (p.first) last.firsts++;
      last.maxMs = Math.max(last.maxMs, p.ms);
    } else bursts.push({ from: p.endedAt - p.ms, to: p.endedAt, plays: 1, firsts: p.first ? 1 : 0, maxMs: p.ms });
  }
  const time = (at: number) => new Date(at).toISOString().slice(11, 23);
  console.error(`plays of ${SLOW_MS} ms or more: ${slow.length} (pass from ${time(passStartedAt)})`);
  for (const b of bursts) console.error(`  ${time(b.from)} to ${time(b.to)}: ${b.plays} plays (${b.firsts} a match's first), slowest ${b.maxMs.toFixed(0)} ms`);
}

/** The play mutation over a graphql-ws socket, its outcome in HTTP terms (412 for a stale seq). */
function wsPlay(client: Client, matchId: string, input: Record<string, unknown>): Promise<{ status: number }> {
  return new Promise((resolve) => {
    let status = 0;
    client.subscribe(
      { query: PLAY, variables: { id: matchId, input } },
      {
        next: (msg) => {
          const code = (msg.errors?.[0]?.extensions as { code?: string } | undefined)?.code;
          status = msg.errors ? (code === 'VERSION_CONFLICT' ? 412 : 500) : 200;
        },
        error: () => resolve({ status: 500 }),
        complete: () => resolve({ status }),
      },
    );
  });
}

// /proc counts CPU time in clock ticks of USER_HZ, 100 a second on Linux.
const CLOCK_TICKS = 100;

/** CPU time (ms) every process on the machine has used so far: instances, PostgreSQL, Redis and this load generator alike. */
function machineCpuMs(): number {
  let ticks = 0;
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      ticks += Number(fields[11]) + Number(fields[12]); // utime + stime of the process (its threads included)
    } catch {
      // exited meanwhile
    }
  }
  return (ticks * 1000) / CLOCK_TICKS;
}

/** CPU time the hypervisor gave to other guests while this machine wanted it (/proc/stat steal, all cores). */
function stealMs(): number {
  const cpu = readFileSync('/proc/stat', 'utf8').split('\n', 1)[0].trim().split(/\s+/);
  return (Number(cpu[8]) * 1000) / CLOCK_TICKS;
}

/** CPU ticks of a process so far (utime + stime, its threads included), or null once it is gone. */
function ticksOf(pid: string): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(fields[11]) + Number(fields[12]);
  } catch {
    return null;
  }
}

/**
 * CPU ticks by process of the case's own processes: the instances and the PostgreSQL backends connected to its
 * scratch database (their process title names it: "postgres: <user> <database> <client> <state>").
 */
function ownTicks(instancePids: number[], database: string): Map<string, number> {
  const out = new Map<string, number>();
  const add = (pid: string) => {
    const t = ticksOf(pid);
    if (t !== null) out.set(pid, t);
  };
  for (const pid of instancePids) add(String(pid));
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      const title = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
      if (title.startsWith('postgres:') && title.includes(` ${database} `)) add(pid);
    } catch {
      // exited meanwhile
    }
  }
  return out;
}

/** CPU ms the own processes used between two readings; a backend that appeared meanwhile counts from zero (one that ended meanwhile is lost: the pool keeps them open). */
function ownCpuMsBetween(before: Map<string, number>, after: Map<string, number>, only: (pid: string) => boolean = () => true): number {
  let ticks = 0;
  for (const [pid, t] of after) if (only(pid)) ticks += t - (before.get(pid) ?? 0);
  return (ticks * 1000) / CLOCK_TICKS;
}

function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
}

/** Which build the instances run: ours, or a baseline checkout's (with its own service flags). */
type Build = ServiceLaunch;

async function runMode(transport: Transport, mode: 'saturation' | 'paced', count: 1 | 2, build: Build): Promise<Result> {
  const db = await freshPgDatabase('scopa_bench');
  // CLIENT_SEED_WINDOW=0: the bench's players give no client seed, and its starts must deal at once (as before client seeds).
  const env: Record<string, string> = {
    DATABASE_URL: db.url,
    REDIS_URL,
    JWT_SECRET: 'bench-secret',
    RATE_LIMIT: '100000000',
    AUTH_RATE_LIMIT: '100000000',
    PG_POOL_SIZE: '20',
    CLIENT_SEED_WINDOW: '0',
  };
  // e.g. BENCH_NODE_ARGS=--cpu-prof to profile the instances
  const nodeArgs = (process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const instances: ProcessInstance[] = [];
  for (let i = 0; i < count; i++) instances.push(await spawnInstance({ ...env, INSTANCE_ID: `bench${i}` }, nodeArgs, build));
  running.push(...instances);
  const base = (n: number) => instances[n % count].url;
  const rng = mulberry32(7);
  const sockets: Client[] = [];
  // One pass of matchCount matches on these instances.
  const play = async (matchCount: number): Promise<Result> => {
    const suffix = Math.random().toString(36).slice(2, 7);
    const tokens: string[] = [];
    for (let i = 0; i < ACCOUNTS; i++) {
      const r = await http(base(i), 'POST', '/v1/auth/register', null, { username: `b${i}x${suffix}`, password: 'bench-password' });
      if (r.status !== 201) throw new Error(`register: ${r.status} ${JSON.stringify(r.body)}`);
      tokens.push(r.body.accessToken);
    }
    // one WebSocket per account and instance; each carries that account's subscriptions
    const wsFor = new Map<string, Client>();
    const socket = (account: number, inst: number) => {
      const key = `${account}/${inst}`;
      let c = wsFor.get(key);
      if (!c) {
        c = createClient({
          url: instances[inst].url.replace('http', 'ws') + '/graphql',
          webSocketImpl: WebSocket,
          connectionParams: { authorization: `Bearer ${tokens[account]}` },
          retryAttempts: 0,
        });
        wsFor.set(key, c);
        sockets.push(c);
      }
      return c;
    };

    const playLatencies: number[] = [];
    const slowPlays: { endedAt: number; ms: number; first: boolean }[] = [];
    const playedOnce = new Set<string>(); // matches with an acknowledged play
    const startLatencies: number[] = [];
    let lastStartAckedAt = 0;
    const deliveries: number[] = [];
    const ackAt = new Map<string, number>(); // matchId/seq -> acknowledged at
    const earlyArrivals = new Map<string, number>(); // matchId/seq -> subscribers that saw it before the ack
    let plays = 0;
    let errors = 0;
    let stale = 0;
    let nextSlot = 0;
    // Paced mode: every command (a start or a play) waits for its slot, RATE a second in all.
    const slot = async () => {
      if (mode !== 'paced') return;
      const now = performance.now();
      const at = Math.max(nextSlot, now);
      nextSlot = at + 1000 / RATE;
      if (at > now) await sleep(at - now);
    };
    const finished = countdown(matchCount); // matches seen over by their first seat

    const matches: { id: string; seats: number[]; options: RulesetOptions }[] = [];
    for (let m = 0; m < matchCount; m++) {
      const seats = [(2 * m) % ACCOUNTS, (2 * m + 1) % ACCOUNTS];
      const created = await http(base(m), 'POST', '/v1/matches', tokens[seats[0]], {
        preset: 'scopa',
        overrides: { target: TARGET },
        seats: [{ type: 'creator' }, { type: 'open' }],
      });
      if (created.status !== 201) throw new Error(`create: ${created.status} ${JSON.stringify(created.body)}`);
      const id = created.body.id;
      const joined = await http(base(m + 1), 'POST', `/v1/matches/${id}/join`, tokens[seats[1]], {});
      if (joined.status !== 200) throw new Error(`join: ${joined.status}`);
      matches.push({ id, seats, options: created.body.view.options });
    }

    let started = 0;
    const t0 = { at: 0 };
    // Seats whose subscription has delivered the log so far (the join, seq 2): the run starts when all have.
    const caughtUp = countdown(2 * matches.length);
    // Paced mode deals every match before the pass and holds each first move until the pass begins (see below).
    let held = mode === 'paced';
    const heldSeats: (() => void)[] = [];
    const dealt = countdown(2 * matches.length); // seats that have seen their deal
    for (const [m, match] of matches.entries()) {
      let over = false;
      for (const [seatIndex, account] of match.seats.entries()) {
        const inst = (m + seatIndex) % count;
        // Events of one command arrive back to back: act on the latest view once they settle.
        const seat = { latest: null as any, acted: -1, timer: null as NodeJS.Timeout | null, caughtUp: false, dealt: false };
        const settle = () => {
          seat.timer = null;
          if (held) return;
          const live = seat.latest;
          const view = live.match.view;
          if (live.match.status !== 'playing' || view.turn !== view.viewer || view.hand.length === 0 || seat.acted >= live.match.seq) return;
          seat.acted = live.match.seq;
          act(view, live.match.seq, account, inst).catch(() => errors++);
        };
        heldSeats.push(() => seat.latest && settle());
        socket(account, inst).subscribe(
          { query: LIVE, variables: { id: match.id, from: 1 } },
          {
            next: (msg) => {
              const live = (msg.data as any)?.matchEventsLive;
              if (!live) return;
              const key = `${match.id}/${live.event.seq}`;
              const acked = ackAt.get(key);
              if (acked !== undefined) deliveries.push(performance.now() - acked);
              else if (t0.at > 0) earlyArrivals.set(key, (earlyArrivals.get(key) ?? 0) + 1);
              if (live.match.status === 'over' && !over && seatIndex === 0) {
                over = true;
                finished.count();
              }
              if (!seat.dealt && live.match.status !== 'open') {
                seat.dealt = true;
                dealt.count();
              }
              if (!seat.caughtUp && live.event.seq >= 2) {
                seat.caughtUp = true;
                caughtUp.count();
              }
              seat.latest = live;
              if (!seat.timer) seat.timer = setTimeout(settle, 2);
            },
            error: () => errors++,
            complete: () => undefined,
          },
        );
      }
      const act = async (view: any, seq: number, account: number, inst: number) => {
        const options = match.options;
        const last = view.deckSize === 0 && view.seats.reduce((n: number, s: any) => n + s.handSize, 0) === 1;
        const legal = legalPlaysOf(options, view.hand.map(parseCard), view.table.map(parseCard), last);
        const play = legal[Math.floor(rng() * legal.length)];
        await slot();
        const body = { card: cardCode(play.card), capture: play.capture.map(cardCode), idempotencyKey: `${match.id}-${seq}` };
        const sent = performance.now();
        const r =
          transport === 'ws'
            ? await wsPlay(socket(account, inst), match.id, { ...body, expectedSeq: seq })
            : await http(base(inst), 'POST', `/v1/matches/${match.id}/plays`, tokens[account], body, { 'if-match': `"${seq}"` });
        const now = performance.now();
        if (r.status === 412) {
          stale++; // acted on a view the match had already left; the next event brings the fresh one
          return;
        }
        if (r.status !== 200) {
          errors++;
          return;
        }
        playLatencies.push(now - sent);
        if (SLOW_MS > 0 && now - sent >= SLOW_MS) slowPlays.push({ endedAt: Date.now(), ms: now - sent, first: !playedOnce.has(match.id) });
        playedOnce.add(match.id);
        plays++;
        const key = `${match.id}/${seq + 1}`;
        ackAt.set(key, now);
        for (let k = earlyArrivals.get(key) ?? 0; k > 0; k--) deliveries.push(0);
      };
      started++;
    }
    // Once every seat's subscription is live, start every match: the first mover of each acts on its subscription.
    await Promise.race([caughtUp.reached, sleep(60_000)]);
    const startAll = () =>
      Promise.all(
        matches.map(async (match, m) => {
          await slot();
          const sent = performance.now();
          await http(base(m), 'POST', `/v1/matches/${match.id}/start`, tokens[match.seats[0]], {});
          const now = performance.now();
          startLatencies.push(now - sent);
          lastStartAckedAt = Math.max(lastStartAckedAt, now);
        }),
      );
    // Paced: a start costs the service about twice a play, and 200 of them at the paced rate are more than one
    // instance can take: they would open the pass with a second of backlog that sets the play p99 (bench/README.md,
    // 2026-11-27, third session). So the matches are dealt first, and the pass is the plays alone, at the rate.
    if (mode === 'paced') {
      await startAll();
      await Promise.race([dealt.reached, sleep(60_000)]);
    }
    await sleep(200);
    t0.at = performance.now();
    // CLOCK_MONOTONIC in µs, the clock of the instances' --cpu-prof profiles: to cut their samples to this pass
    if (SLOW_MS > 0) console.error(`pass starts at monotonic ${process.hrtime.bigint() / 1000n} µs`);
    const cpuAtStart = machineCpuMs();
    const stealAtStart = stealMs();
    const database = new URL(db.url).pathname.slice(1);
    const pids = instances.map((i) => i.child.pid!);
    const ownAtStart = ownTicks(pids, database);
    if (held) {
      held = false;
      for (const release of heldSeats) release();
    } else await startAll();
    const limit = setTimeout(finished.reach, 180_000);
    await finished.reached;
    clearTimeout(limit);
    const seconds = (performance.now() - t0.at) / 1000;
    const cpuMs = machineCpuMs() - cpuAtStart;
    const stolenMs = stealMs() - stealAtStart;
    const ownAtEnd = ownTicks(pids, database);
    const ownMs = ownCpuMsBetween(ownAtStart, ownAtEnd);
    const pgMs = ownCpuMsBetween(ownAtStart, ownAtEnd, (pid) => !pids.includes(Number(pid)));
    if (SLOW_MS > 0) {
      printSlowPlays(slowPlays, Date.now() - seconds * 1000);
      console.error(
        `  starts: p50 ${pct(startLatencies, 50).toFixed(1)} ms, slowest ${pct(startLatencies, 100).toFixed(1)} ms, last acknowledged ${(lastStartAckedAt - t0.at).toFixed(0)} ms from the pass's beginning`,
      );
    }
    return {
      transport,
      mode: `${mode}${mode === 'paced' ? ` ${RATE}/s` : ''}`,
      instances: count,
      plays,
      seconds,
      playsPerS: plays / seconds,
      p50: pct(playLatencies, 50),
      p95: pct(playLatencies, 95),
      p99: pct(playLatencies, 99),
      startP99: pct(startLatencies, 99),
      deliveryP99: pct(deliveries, 99),
      cpuMsPerPlay: cpuMs / plays,
      ownCpuMsPerPlay: ownMs / plays,
      pgCpuMsPerPlay: pgMs / plays,
      rssMb: instances.map((i) => rssMb(i.child.pid!)),
      stealMsPerS: stolenMs / seconds,
      errors: errors + (started - matches.length),
      stale,
    };
  };
  try {
    // An unmeasured first pass (BENCH_WARMUP matches, default 200), so the figures are the steady state, not the JIT's warm-up.
    if (WARMUP > 0) {
      await play(WARMUP);
      for (const socket of sockets.splice(0)) await socket.dispose();
    }
    return await play(MATCHES);
  } finally {
    for (const s of sockets) await s.dispose();
    for (const i of instances) await i.stop();
    await db.drop();
  }
}

function storeCeiling(): number {
  const out = execFileSync(process.execPath, ['--import', 'tsx', 'bench/store.ts'], {
    encoding: 'utf8',
    env: { ...process.env, BENCH_EVENTS: process.env.BENCH_EVENTS ?? '10000' },
  });
  const last = out.trim().split('\n').pop() ?? '';
  const raw = /raw_inserts_per_s=(\d+(?:\.\d+)?)/.exec(last);
  if (!raw) throw new Error(`bench:store printed no ceiling: ${last}`);
  return Number(raw[1]);
}

interface Case {
  transport: Transport;
  mode: 'saturation' | 'paced';
  count: 1 | 2;
}

function cases(): Case[] {
  // BENCH_ONLY=saturation:2 runs one case (for profiling); the last line needs all four.
  const only = process.env.BENCH_ONLY;
  const out: Case[] = [];
  for (const transport of TRANSPORTS)
    for (const count of [1, 2] as const)
      for (const mode of ['saturation', 'paced'] as const) if (!only || only === `${mode}:${count}`) out.push({ transport, mode, count });
  return out;
}

async function runCases(build: Build, label = ''): Promise<Result[]> {
  const results: Result[] = [];
  for (const { transport, mode, count } of cases()) {
    const r = await runMode(transport, mode, count, build);
    results.push(r);
    console.error(
      `${label}${transport}, ${r.mode}, ${count} instance(s): ${r.playsPerS.toFixed(0)} plays/s, p99 ${r.p99.toFixed(1)} ms, ${r.cpuMsPerPlay.toFixed(2)} machine / ${r.ownCpuMsPerPlay.toFixed(2)} own (PostgreSQL ${r.pgCpuMsPerPlay.toFixed(2)}) CPU ms/play, steal ${r.stealMsPerS.toFixed(0)} ms/s`,
    );
  }
  return results;
}

const HEADER =
  '| plays via | mode | instances | plays | plays/s | play p50 ms | p95 ms | p99 ms | start p99 ms | delivery p99 ms | machine CPU ms per play | own CPU ms per play (of which PostgreSQL) | RSS MB per instance | steal ms/s | stale (412) | errors |';
const row = (r: Result, prefix = '') =>
  `| ${prefix}${r.transport} | ${r.mode} | ${r.instances} | ${r.plays} | ${r.playsPerS.toFixed(0)} | ${r.p50.toFixed(1)} | ${r.p95.toFixed(1)} | ${r.p99.toFixed(1)} | ${r.startP99.toFixed(1)} | ${r.deliveryP99.toFixed(1)} | ${r.cpuMsPerPlay.toFixed(2)} | ${r.ownCpuMsPerPlay.toFixed(2)} (${r.pgCpuMsPerPlay.toFixed(2)}) | ${r.rssMb.map((m) => m.toFixed(0)).join(' / ')} | ${r.stealMsPerS.toFixed(0)} | ${r.stale} | ${r.errors} |`;

/** The saturation and paced results of the last line's mode: graphql-ws when it ran (a subscribed client's own socket), else REST; two instances. */
function headline(results: Result[]): { sat2: Result; paced2: Result } {
  const lastTransport = TRANSPORTS[TRANSPORTS.length - 1];
  const sat2 = results.find((r) => r.transport === lastTransport && r.instances === 2 && r.mode === 'saturation')!;
  const paced2 = results.find((r) => r.transport === lastTransport && r.instances === 2 && r.mode !== 'saturation')!;
  return { sat2, paced2 };
}

async function sideBySide(ref: string, rounds: number): Promise<void> {
  const base = prepareBaseline(ref, { build: true });
  const builds: Record<Side, Build> = { baseline: await serviceOf(base.dir), current: CURRENT_SERVICE };
  const runs = await alternate(rounds, (side, round) => runCases(builds[side], `round ${round}, ${side}: `));
  const ceiling = storeCeiling();
  console.log(
    `${MATCHES} matches of preset scopa to ${TARGET}, ${ACCOUNTS} accounts, every seat subscribed; baseline ${ref} (${base.commit.slice(0, 12)}) and this checkout alternately, ${rounds} rounds each; raw-append ceiling (bench:store) ${ceiling.toFixed(0)} rows/s`,
  );
  console.log('Every run:');
  console.log(HEADER.replace('| plays via', '| round, side, plays via'));
  console.log(HEADER.replace(/[^|]+/g, '---'));
  for (const r of runs) for (const res of r.result) console.log(row(res, `${r.round} ${r.side} `));
  console.log('');
  console.log('Medians over the rounds, baseline → now (ratio now / baseline):');
  console.log(
    '| plays via | mode | instances | plays/s | play p99 ms | start p99 ms | delivery p99 ms | machine CPU ms per play | own CPU ms per play | of which PostgreSQL | RSS MB per instance (larger) |',
  );
  console.log('|---|---|---|---|---|---|---|---|---|---|---|');
  const med = (side: Side, i: number, pick: (r: Result) => number) => median(runs.filter((r) => r.side === side).map((r) => pick(r.result[i])));
  const cell = (i: number, pick: (r: Result) => number, digits: number) => {
    const b = med('baseline', i, pick);
    const c = med('current', i, pick);
    return `${b.toFixed(digits)} → ${c.toFixed(digits)} (${ratio(c, b)})`;
  };
  const current = runs.filter((r) => r.side === 'current');
  const template = current[0].result;
  template.forEach((r, i) => {
    const rss = (x: Result) => Math.max(...x.rssMb);
    console.log(
      `| ${r.transport} | ${r.mode} | ${r.instances} | ${cell(i, (x) => x.playsPerS, 0)} | ${cell(i, (x) => x.p99, 1)} | ${cell(i, (x) => x.startP99, 1)} | ${cell(i, (x) => x.deliveryP99, 1)} | ${cell(i, (x) => x.cpuMsPerPlay, 2)} | ${cell(i, (x) => x.ownCpuMsPerPlay, 2)} | ${cell(i, (x) => x.pgCpuMsPerPlay, 2)} | ${cell(i, rss, 0)} |`,
    );
  });
  const { sat2, paced2 } = headline(template);
  // BENCH_ONLY ran one case: the table is all there is (the last line needs both two-instance cases).
  if (!sat2 || !paced2) return;
  const at = (r: Result) => template.indexOf(r);
  const satNow = med('current', at(sat2), (x) => x.playsPerS);
  const p99Now = med('current', at(paced2), (x) => x.p99);
  const cpuNow = med('current', at(paced2), (x) => x.cpuMsPerPlay);
  const ownNow = med('current', at(paced2), (x) => x.ownCpuMsPerPlay);
  console.log(
    `plays_per_s=${satNow.toFixed(0)} p99_ms=${p99Now.toFixed(1)} delivery_p99_ms=${med('current', at(paced2), (x) => x.deliveryP99).toFixed(1)} ratio=${(satNow / ceiling).toFixed(2)} cpu_ms_per_play=${cpuNow.toFixed(2)} own_cpu_ms_per_play=${ownNow.toFixed(2)} ` +
      `vs_baseline=plays:${ratio(
        satNow,
        med('baseline', at(sat2), (x) => x.playsPerS),
      )},p99:${ratio(
        p99Now,
        med('baseline', at(paced2), (x) => x.p99),
      )},cpu:${ratio(
        cpuNow,
        med('baseline', at(paced2), (x) => x.cpuMsPerPlay),
      )},own_cpu:${ratio(
        ownNow,
        med('baseline', at(paced2), (x) => x.ownCpuMsPerPlay),
      )}`,
  );
}

async function main(): Promise<void> {
  const args = sideBySideArgs();
  if (args.baseline) {
    await sideBySide(args.baseline, args.rounds);
    process.exit(0);
  }
  const results = await runCases(CURRENT_SERVICE);
  if (process.env.BENCH_ONLY) {
    for (const r of results) console.log(JSON.stringify(r));
    process.exit(0);
  }
  const ceiling = storeCeiling();
  console.log(
    `${MATCHES} matches of preset scopa to ${TARGET}, ${ACCOUNTS} accounts, every seat subscribed; plays sent over REST or as the GraphQL play mutation on the seat's graphql-ws socket (ws); raw-append ceiling (bench:store) ${ceiling.toFixed(0)} rows/s`,
  );
  console.log(HEADER);
  console.log(HEADER.replace(/[^|]+/g, '---'));
  for (const r of results) console.log(row(r));
  const { sat2, paced2 } = headline(results);
  console.log(
    `plays_per_s=${sat2.playsPerS.toFixed(0)} p99_ms=${paced2.p99.toFixed(1)} delivery_p99_ms=${paced2.deliveryP99.toFixed(1)} ratio=${(sat2.playsPerS / ceiling).toFixed(2)} cpu_ms_per_play=${paced2.cpuMsPerPlay.toFixed(2)} own_cpu_ms_per_play=${paced2.ownCpuMsPerPlay.toFixed(2)}`,
  );
  process.exit(0);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
