/**
 * `npm run bench:bots`: bot levels against each other, 2 players, on preset
 * `scopa` (to 11) and, one table each, on the games of other packs (`escoba`,
 * `cirulla`, `acchiappaquindici`, `chkobba`, `chkop`), in duplicate format:
 * each seed is played twice with the seats swapped, so the luck of the deal
 * cancels out. A bot moves through `botMove`: in cirulla it may declare its
 * hand (then it is asked again for its play); each call is timed as a move,
 * in wall-clock ms and in CPU ms of this process (`process.cpuUsage`: what a
 * machine shared with other work does not inflate, unlike the wall clock).
 * Every 10 pairs, stderr shows the win rate so far with its interval over
 * pairs and the median times.
 *
 * Every match goes through the engine's decide/evolve (src/engine/testing.ts),
 * and each bot sees only `seatView(state, seat)`.
 *
 * Flags:
 *   --pairs N                 duplicate pairs for every pairing (default: 500 greedy-random, 100 ismcts-greedy)
 *   --only a-b[,c-d]          run only these pairings (greedy-random, ismcts-greedy, ismcts-random)
 *   --iterations N            ismcts iteration budget (default: the bot's default)
 *   --seed N                  base seed of the match seeds (default 1)
 *   --presets a[,b]           the presets to play (default: scopa and the five above)
 *
 * Win rates: a draw (none is possible in 2-player `scopa`, where ties at the
 * top play on) would count as half a win; draws are also reported on their own.
 * 95% confidence intervals: Wilson score interval over matches, and a normal
 * approximation over duplicate pairs (pair score = mean of its two matches),
 * which accounts for the correlation between the two matches of a pair.
 */
import { performance } from 'node:perf_hooks';
import { botMove, cardCode, mulberry32, seatView } from '../src/engine';
import type { BotLevel, Rng } from '../src/engine';
import { apply, seedFrom, startedMatch } from '../src/engine/testing';

interface Args {
  pairs: number | null;
  only: string[] | null;
  iterations: number | null;
  seed: number;
  presets: string[];
}

const DEFAULT_PRESETS = ['scopa', 'escoba', 'cirulla', 'acchiappaquindici', 'chkobba', 'chkop'];

function parseArgs(argv: string[]): Args {
  const args: Args = { pairs: null, only: null, iterations: null, seed: 1, presets: DEFAULT_PRESETS };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    const value = () => {
      const v = argv[++i];
      if (v === undefined) throw new Error(`${flag} needs a value`);
      return v;
    };
    if (flag === '--pairs') args.pairs = positiveInt(flag, value());
    else if (flag === '--only') args.only = value().split(',');
    else if (flag === '--iterations') args.iterations = positiveInt(flag, value());
    else if (flag === '--seed') args.seed = positiveInt(flag, value());
    else if (flag === '--presets') args.presets = value().split(',');
    else throw new Error(`unknown flag ${flag} (see the header of bench/bots.ts)`);
  }
  return args;
}

function positiveInt(flag: string, v: string): number {
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1) throw new Error(`${flag} wants a positive integer, got ${v}`);
  return n;
}

interface Pairing {
  name: string;
  a: BotLevel;
  b: BotLevel;
  pairs: number;
}

const PAIRINGS: Pairing[] = [
  { name: 'greedy-random', a: 'greedy', b: 'random', pairs: 500 },
  { name: 'ismcts-greedy', a: 'ismcts', b: 'greedy', pairs: 100 },
  { name: 'ismcts-random', a: 'ismcts', b: 'random', pairs: 100 },
];
const DEFAULT_PAIRINGS = ['greedy-random', 'ismcts-greedy'];

/** Per move: wall-clock ms, and the CPU ms of this process (user + system) spent in it, which a loaded machine does not inflate. */
interface Timing {
  ms: number[];
  cpu: number[];
}

/** Plays one match; returns the score of the bot in seat 0 (1 win, 0.5 draw, 0 loss). */
function playMatch(
  preset: string,
  seed: Uint8Array,
  levels: [BotLevel, BotLevel],
  rngs: [Rng, Rng],
  timings: [Timing, Timing],
  iterations: number | null,
): number {
  const driven = startedMatch(seed, preset, { players: 2 });
  while (driven.state.phase === 'playing') {
    const seat = driven.state.turn;
    const view = seatView(driven.state, seat);
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    const move = botMove(levels[seat], view, rngs[seat], iterations === null ? undefined : { iterations });
    timings[seat].ms.push(performance.now() - t0);
    const cpu = process.cpuUsage(c0);
    timings[seat].cpu.push((cpu.user + cpu.system) / 1000);
    const player = driven.state.seats[seat].player!;
    if (move.type === 'declare') apply(driven, { type: 'declareHand', player, mattaValue: move.mattaValue });
    else apply(driven, { type: 'play', player, card: cardCode(move.play.card), capture: move.play.capture.map(cardCode) });
  }
  const winner = driven.state.result!.winner;
  return winner === null ? 0.5 : winner === 0 ? 1 : 0;
}

function wilson(wins: number, n: number, z = 1.96): [number, number] {
  if (n === 0) return [NaN, NaN];
  const p = wins / n;
  const denom = 1 + (z * z) / n;
  const centre = (p + (z * z) / (2 * n)) / denom;
  const half = (z * Math.sqrt((p * (1 - p)) / n + (z * z) / (4 * n * n))) / denom;
  return [centre - half, centre + half];
}

function normalOverPairs(pairScores: number[], z = 1.96): [number, number] {
  const n = pairScores.length;
  const mean = pairScores.reduce((a, b) => a + b, 0) / n;
  const variance = pairScores.reduce((a, b) => a + (b - mean) ** 2, 0) / Math.max(1, n - 1);
  const half = z * Math.sqrt(variance / n);
  return [Math.max(0, mean - half), Math.min(1, mean + half)];
}

function median(xs: number[]): number {
  if (xs.length === 0) return NaN;
  const s = xs.slice().sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

function percentile(xs: number[], q: number): number {
  if (xs.length === 0) return NaN;
  const s = xs.slice().sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))];
}

interface Outcome {
  pairing: Pairing;
  matches: number;
  score: number;
  draws: number;
  rate: number;
  wilson: [number, number];
  pairCi: [number, number];
  timeA: number[];
  timeB: number[];
  cpuA: number[];
  seconds: number;
}

function runPairing(preset: string, pairing: Pairing, pairs: number, args: Args): Outcome {
  const started = performance.now();
  const timeA: Timing = { ms: [], cpu: [] };
  const timeB: Timing = { ms: [], cpu: [] };
  let score = 0;
  let draws = 0;
  const pairScores: number[] = [];
  for (let i = 0; i < pairs; i++) {
    const seed = seedFrom(mulberry32(args.seed * 1_000_003 + i));
    const botSeed = (args.seed * 7919 + i * 31) >>> 0;
    // First match: A in seat 0; second: A in seat 1, on the same deals.
    const s1 = playMatch(preset, seed, [pairing.a, pairing.b], [mulberry32(botSeed), mulberry32(botSeed + 1)], [timeA, timeB], args.iterations);
    const s2 = 1 - playMatch(preset, seed, [pairing.b, pairing.a], [mulberry32(botSeed + 2), mulberry32(botSeed + 3)], [timeB, timeA], args.iterations);
    if (s1 === 0.5) draws++;
    if (s2 === 0.5) draws++;
    score += s1 + s2;
    pairScores.push((s1 + s2) / 2);
    if ((i + 1) % 10 === 0) {
      const ci = normalOverPairs(pairScores);
      process.stderr.write(
        `  ${preset} ${pairing.name}: ${i + 1}/${pairs} pairs, win rate so far ${(score / (2 * (i + 1))).toFixed(3)} ` +
          `(95% CI over pairs ${ci[0].toFixed(3)}–${ci[1].toFixed(3)}, A ms/move median ${median(timeA.ms).toFixed(1)}, CPU ${median(timeA.cpu).toFixed(1)})\n`,
      );
    }
  }
  const matches = pairs * 2;
  return {
    pairing,
    matches,
    score,
    draws,
    rate: score / matches,
    wilson: wilson(score, matches),
    pairCi: normalOverPairs(pairScores),
    timeA: timeA.ms,
    timeB: timeB.ms,
    cpuA: timeA.cpu,
    seconds: (performance.now() - started) / 1000,
  };
}

const f3 = (x: number) => (Number.isFinite(x) ? x.toFixed(3) : 'na');
const fms = (x: number) => (Number.isFinite(x) ? (x >= 10 ? x.toFixed(1) : x.toFixed(3)) : 'na');

function main(): void {
  const args = parseArgs(process.argv.slice(2));
  const names = args.only ?? DEFAULT_PAIRINGS;
  const chosen = names.map((name) => {
    const p = PAIRINGS.find((q) => q.name === name);
    if (!p) throw new Error(`unknown pairing ${name}; known: ${PAIRINGS.map((q) => q.name).join(', ')}`);
    return p;
  });
  console.log(`bench:bots  presets ${args.presets.join(', ')} (2 players, the preset's target), duplicate format (each seed twice, seats swapped)`);
  console.log(`win rate of the first level; draws count 1/2; 95% CI: Wilson over matches, normal over duplicate pairs`);
  if (args.iterations !== null) console.log(`ismcts budget: ${args.iterations} iterations`);
  const summaries: string[] = [];
  for (const preset of args.presets) {
    console.log('');
    console.log(`preset ${preset}`);
    console.log('');
    console.log(
      '| pairing | matches | win rate A | 95% CI (Wilson) | 95% CI (pairs) | draws | A ms/move median (p90) | A CPU ms/move median (p90) | B ms/move median (p90) | wall s |',
    );
    console.log('|---|---|---|---|---|---|---|---|---|---|');
    const outcomes = new Map<string, Outcome>();
    for (const pairing of chosen) {
      const o = runPairing(preset, pairing, args.pairs ?? pairing.pairs, args);
      outcomes.set(pairing.name, o);
      console.log(
        `| ${pairing.a} vs ${pairing.b} | ${o.matches} | ${f3(o.rate)} | ${f3(o.wilson[0])}–${f3(o.wilson[1])} | ${f3(o.pairCi[0])}–${f3(o.pairCi[1])} | ${o.draws} | ` +
          `${fms(median(o.timeA))} (${fms(percentile(o.timeA, 0.9))}) | ${fms(median(o.cpuA))} (${fms(percentile(o.cpuA, 0.9))}) | ${fms(median(o.timeB))} (${fms(percentile(o.timeB, 0.9))}) | ${o.seconds.toFixed(1)} |`,
      );
    }
    const gr = outcomes.get('greedy-random');
    const ig = outcomes.get('ismcts-greedy');
    summaries.push(
      `preset=${preset} greedy_vs_random=${f3(gr?.rate ?? NaN)} ismcts_vs_greedy=${f3(ig?.rate ?? NaN)} ismcts_ms_per_move=${fms(median(ig?.timeA ?? []))} ismcts_cpu_ms_per_move=${fms(median(ig?.cpuA ?? []))}`,
    );
  }
  console.log('');
  for (const line of summaries) console.log(line);
}

main();
