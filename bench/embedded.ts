/**
 * npm run bench:embedded — the memory of the embedded default under load.
 *
 * Starts the built service (dist/main.js) as its own process on PGlite, as a
 * user would start it: no DATABASE_URL, no REDIS_URL, a fresh DATA_DIR in a
 * temporary folder (so the first start's initdb is part of the run). Then it
 * registers BENCH_ACCOUNTS accounts and plays BENCH_EMBEDDED_MATCHES matches
 * of `scopa` to BENCH_TARGET point(s), BENCH_EMBEDDED_CONCURRENCY at a time:
 * each is created and joined over REST, both seats follow it over graphql-ws
 * (`matchEventsLive`, one socket per account, as bench:api) and play a random
 * legal play from their own view over REST as soon as it is their turn; once
 * it is over, one seat reads the match and a page of its archive, as a
 * client showing the result would. While it runs, the service's resident
 * memory (/proc/PID/status VmRSS) is sampled every 100 ms; the kernel's own
 * high-water mark (VmHWM) is the peak.
 *
 * Last line: `peak_rss_mb=<n> ready_rss_mb=<n> end_rss_mb=<n> plays_per_s=<n>`.
 * Target: peak_rss_mb under 400 (bench/README.md, "bench:embedded").
 *
 * `npm run bench:embedded -- --baseline <git ref> [--rounds N]` builds <ref>
 * in a temporary worktree (bench/baseline.ts) and runs it and this checkout
 * alternately, baseline first, N rounds (default 2), with the same load; it
 * prints every run and the medians side by side, and the last line gains
 * vs_baseline=peak:<r>,plays:<r> (now / baseline).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { http } from './http';
import { LIVE } from './live-query';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient } from 'graphql-ws';
import type { Client } from 'graphql-ws';
import WebSocket from 'ws';
import { cardCode, legalPlaysOf, mulberry32, parseCard } from '../src/engine';
import type { RulesetOptions } from '../src/engine';
import { spawnInstance } from '../test/support/process-instance';
import type { ProcessInstance } from '../test/support/process-instance';
import { alternate, CURRENT_SERVICE, median, prepareBaseline, ratio, serviceOf, sideBySideArgs } from './baseline';
import type { ServiceLaunch } from './baseline';

const MATCHES = Number(process.env.BENCH_EMBEDDED_MATCHES ?? 200);
const CONCURRENCY = Number(process.env.BENCH_EMBEDDED_CONCURRENCY ?? 20);
const ACCOUNTS = Number(process.env.BENCH_ACCOUNTS ?? 40);
const TARGET = Number(process.env.BENCH_TARGET ?? 1);
const TARGET_PEAK_MB = 400;

interface Result {
  readyRssMb: number;
  peakRssMb: number;
  endRssMb: number;
  plays: number;
  seconds: number;
  playsPerS: number;
  errors: number;
  /** RSS (MB) after every tenth of the matches. */
  curve: number[];
  /** At the end, from the service's /metrics: V8's heap (total) and the memory outside it (WebAssembly memories, buffers), MB. */
  heapMb: number;
  externalMb: number;
}

type Build = ServiceLaunch;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const running: ProcessInstance[] = [];
process.on('exit', () => running.forEach((i) => i.child.kill('SIGKILL')));

/** VmRSS and VmHWM (the kernel's peak) of a process, MB. */
function memory(pid: number): { rss: number; hwm: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (name: string) => Number(new RegExp(`${name}:\\s+(\\d+)`).exec(status)?.[1] ?? 0) / 1024;
  return { rss: kb('VmRSS'), hwm: kb('VmHWM') };
}

async function measure(build: Build): Promise<Result> {
  const dir = mkdtempSync(join(tmpdir(), 'scopa-bench-embedded-'));
  // Blank DATABASE_URL and REDIS_URL are "unset" (src/config): the embedded default, one instance.
  const env = {
    DATABASE_URL: '',
    REDIS_URL: '',
    DATA_DIR: join(dir, 'data'),
    JWT_SECRET: 'bench-secret',
    RATE_LIMIT: '100000000',
    AUTH_RATE_LIMIT: '100000000',
    CLIENT_SEED_WINDOW: '0',
  };
  const nodeArgs = (process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const instance = await spawnInstance(env, nodeArgs, build);
  running.push(instance);
  const pid = instance.child.pid!;
  const base = instance.url;
  const ws = base.replace('http', 'ws') + '/graphql';
  const readyRssMb = memory(pid).rss;
  let sampledPeak = readyRssMb;
  const sampler = setInterval(() => {
    try {
      sampledPeak = Math.max(sampledPeak, memory(pid).rss);
    } catch {
      // exited
    }
  }, 100);
  const sockets: Client[] = [];
  try {
    const suffix = Math.random().toString(36).slice(2, 7);
    const accounts: { token: string; username: string; socket: Client }[] = [];
    for (let i = 0; i < ACCOUNTS; i++) {
      const username = `e${i}x${suffix}`;
      const r = await http(base, 'POST', '/v1/auth/register', null, { username, password: 'bench-password' });
      if (r.status !== 201) throw new Error(`register: ${r.status} ${JSON.stringify(r.body)}`);
      const socket = createClient({ url: ws, webSocketImpl: WebSocket, connectionParams: { authorization: `Bearer ${r.body.accessToken}` }, retryAttempts: 0 });
      sockets.push(socket);
      accounts.push({ token: r.body.accessToken, username, socket });
    }
    const rng = mulberry32(11);
    let plays = 0;
    let errors = 0;
    const curve: number[] = [];

    /** One match from creation to its result, then the reads of a client showing it. */
    const playMatch = async (m: number): Promise<void> => {
      const seats = [accounts[(2 * m) % ACCOUNTS], accounts[(2 * m + 1) % ACCOUNTS]];
      const created = await http(base, 'POST', '/v1/matches', seats[0].token, {
        preset: 'scopa',
        overrides: { target: TARGET },
        seats: [{ type: 'creator' }, { type: 'open' }],
      });
      if (created.status !== 201) throw new Error(`create: ${created.status} ${JSON.stringify(created.body)}`);
      const id: string = created.body.id;
      const options: RulesetOptions = created.body.view.options;
      const joined = await http(base, 'POST', `/v1/matches/${id}/join`, seats[1].token, {});
      if (joined.status !== 200) throw new Error(`join: ${joined.status}`);
      let over!: () => void;
      const finished = new Promise<void>((r) => (over = r));
      let caughtUp = 0;
      let bothCaughtUp!: () => void;
      const subscribed = new Promise<void>((r) => (bothCaughtUp = r));
      const unsubscribe: (() => void)[] = [];
      for (const account of seats) {
        const seat = { latest: null as any, acted: -1, timer: null as NodeJS.Timeout | null, caughtUp: false };
        const act = async (view: any, seq: number) => {
          const last = view.deckSize === 0 && view.seats.reduce((n: number, s: any) => n + s.handSize, 0) === 1;
          const legal = legalPlaysOf(options, view.hand.map(parseCard), view.table.map(parseCard), last);
          const play = legal[Math.floor(rng() * legal.length)];
          const body = { card: cardCode(play.card), capture: play.capture.map(cardCode), idempotencyKey: `${id}-${seq}` };
          const r = await http(base, 'POST', `/v1/matches/${id}/plays`, account.token, body, { 'if-match': `"${seq}"` });
          if (r.status === 200) plays++;
          else if (r.status !== 412) errors++; // 412: acted on a view already left; the next event brings the fresh one
        };
        const settle = () => {
          seat.timer = null;
          const live = seat.latest;
          const view = live.match.view;
          if (live.match.status !== 'playing' || view.turn !== view.viewer || view.hand.length === 0 || seat.acted >= live.match.seq) return;
          seat.acted = live.match.seq;
          act(view, live.match.seq).catch(() => errors++);
        };
        unsubscribe.push(
          account.socket.subscribe(
            { query: LIVE, variables: { id, from: 1 } },
            {
              next: (msg) => {
                const live = (msg.data as any)?.matchEventsLive;
                if (!live) return;
                if (!seat.caughtUp && live.event.seq >= 2) {
                  seat.caughtUp = true;
                  if (++caughtUp === 2) bothCaughtUp();
                }
                if (live.match.status === 'over') over();
                seat.latest = live;
                if (!seat.timer) seat.timer = setTimeout(settle, 2);
              },
              error: () => {
                errors++;
                over();
              },
              complete: () => undefined,
            },
          ),
        );
      }
      await Promise.race([subscribed, sleep(30_000)]);
      const started = await http(base, 'POST', `/v1/matches/${id}/start`, seats[0].token, {});
      if (started.status !== 200) errors++;
      await Promise.race([finished, sleep(120_000)]);
      unsubscribe.forEach((u) => u());
      if ((await http(base, 'GET', `/v1/matches/${id}`, seats[0].token)).status !== 200) errors++;
      if ((await http(base, 'GET', `/v1/users/${seats[1].username}/matches?max=20`, seats[1].token)).status !== 200) errors++;
    };

    const t0 = performance.now();
    let next = 0;
    let done = 0;
    const worker = async () => {
      while (next < MATCHES) {
        await playMatch(next++);
        if (++done % Math.max(1, Math.floor(MATCHES / 10)) === 0) curve.push(Math.round(memory(pid).rss));
      }
    };
    await Promise.all(Array.from({ length: Math.min(CONCURRENCY, MATCHES) }, worker));
    const seconds = (performance.now() - t0) / 1000;
    await sleep(500);
    const end = memory(pid);
    const text = await fetch(`${base}/metrics`).then((r) => r.text());
    const metric = (name: string) => Number(new RegExp(`^${name} (\\S+)`, 'm').exec(text)?.[1] ?? NaN) / 1048576;
    return {
      readyRssMb: readyRssMb,
      peakRssMb: Math.max(end.hwm, sampledPeak),
      endRssMb: end.rss,
      plays,
      seconds,
      playsPerS: plays / seconds,
      errors,
      curve,
      heapMb: metric('nodejs_heap_size_total_bytes'),
      externalMb: metric('nodejs_external_memory_bytes'),
    };
  } finally {
    clearInterval(sampler);
    for (const s of sockets) await s.dispose();
    await instance.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

const describe = () =>
  `${MATCHES} matches of preset scopa to ${TARGET}, ${CONCURRENCY} at a time, ${ACCOUNTS} accounts, every seat subscribed over graphql-ws, plays over REST; one service process on PGlite in a fresh DATA_DIR`;
const row = (r: Result, prefix = '') =>
  `| ${prefix}${r.readyRssMb.toFixed(0)} | ${r.peakRssMb.toFixed(0)} | ${r.endRssMb.toFixed(0)} | ${r.heapMb.toFixed(0)} / ${r.externalMb.toFixed(0)} | ${r.curve.join(' ')} | ${r.plays} | ${r.playsPerS.toFixed(0)} | ${r.errors} |`;
const HEADER =
  '| RSS MB at ready | peak RSS MB | RSS MB at the end | V8 heap / external MB at the end | RSS MB after each tenth of the matches | plays | plays/s | errors |';

async function main(): Promise<void> {
  const args = sideBySideArgs();
  const current: Build = CURRENT_SERVICE;
  if (!args.baseline) {
    const r = await measure(current);
    console.log(describe());
    console.log(HEADER);
    console.log(HEADER.replace(/[^|]+/g, '---'));
    console.log(row(r));
    console.log(
      `peak_rss_mb=${r.peakRssMb.toFixed(0)} ready_rss_mb=${r.readyRssMb.toFixed(0)} end_rss_mb=${r.endRssMb.toFixed(0)} plays_per_s=${r.playsPerS.toFixed(0)}`,
    );
    if (r.peakRssMb >= TARGET_PEAK_MB) console.error(`peak RSS ${r.peakRssMb.toFixed(0)} MB: above the target of ${TARGET_PEAK_MB} MB`);
    process.exit(0);
  }
  const base = prepareBaseline(args.baseline, { build: true });
  const builds = { baseline: await serviceOf(base.dir), current };
  const runs = await alternate(args.rounds, async (side) => {
    const r = await measure(builds[side]);
    console.error(`${side}: peak ${r.peakRssMb.toFixed(0)} MB, ${r.playsPerS.toFixed(0)} plays/s`);
    return r;
  });
  console.log(`${describe()}; baseline ${args.baseline} (${base.commit.slice(0, 12)}) and this checkout alternately, ${args.rounds} rounds each`);
  console.log(HEADER.replace('| RSS MB at ready', '| round | side | RSS MB at ready'));
  console.log(HEADER.replace('| RSS MB at ready', '| round | side | RSS MB at ready').replace(/[^|]+/g, '---'));
  for (const r of runs) console.log(row(r.result, `${r.round} | ${r.side} | `));
  const med = (side: 'baseline' | 'current', pick: (r: Result) => number) => median(runs.filter((r) => r.side === side).map((r) => pick(r.result)));
  const peak = { b: med('baseline', (r) => r.peakRssMb), c: med('current', (r) => r.peakRssMb) };
  const plays = { b: med('baseline', (r) => r.playsPerS), c: med('current', (r) => r.playsPerS) };
  console.log(
    `Medians, baseline → now: peak RSS ${peak.b.toFixed(0)} → ${peak.c.toFixed(0)} MB (${ratio(peak.c, peak.b)}), plays/s ${plays.b.toFixed(0)} → ${plays.c.toFixed(0)} (${ratio(plays.c, plays.b)})`,
  );
  console.log(
    `peak_rss_mb=${peak.c.toFixed(0)} ready_rss_mb=${med('current', (r) => r.readyRssMb).toFixed(0)} end_rss_mb=${med('current', (r) => r.endRssMb).toFixed(0)} plays_per_s=${plays.c.toFixed(0)} vs_baseline=peak:${ratio(peak.c, peak.b)},plays:${ratio(plays.c, plays.b)}`,
  );
  process.exit(0);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
