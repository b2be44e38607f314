/**
 * npm run bench:tournament — a 256-player Swiss of 8 rounds, played by bots,
 * through the tournament service on the embedded database (PGlite, in
 * memory; the whole application, compiled to dist/ first, as the service
 * builds it).
 *
 * Each match is played by two greedy bots (src/engine/bots/greedy.ts) for
 * BENCH_PLIES plies (default 4) through the match store, then the seat to
 * move resigns (short games; BENCH_PLIES=0: a resignation at once). Every
 * append goes through the after-append pipeline, so the tournament step
 * records each result and the last result of a round pairs the next one, as
 * in the service.
 *
 * Reported, per round:
 *  - pairing: the pure pairing of the round (nextPairing on the log's state
 *    before its RoundPaired, as the audit recomputes it), in ms: target < 100 ms;
 *  - round transition: the service time of the append that ends a round's last
 *    match, until its reactions are done: the result recorded, the round
 *    ended, the next round paired and its 128 matches made and started, all
 *    in one transaction (the last round: the tournament ended);
 *  - standings update: the service time of GET .../standings (fold of the
 *    new events + computeStandings) after each result, mean and p95.
 * Last line: pairing_ms_max=<n> pairing_ms_mean=<n> transition_ms_mean=<n> standings_ms_mean=<n> standings_ms_p95=<n>
 */
import 'reflect-metadata';
import { createRequire } from 'node:module';
import { performance } from 'node:perf_hooks';
import { Test } from '@nestjs/testing';
import { cardCode, greedyPlay, mulberry32, seatView } from '../src/engine';
import type { MatchStore as MatchStoreType } from '../src/match-store/match-store';
import type { TournamentsService as TournamentsServiceType } from '../src/tournaments/tournaments.service';
import { evolveTournament, initialTournamentState, joinTournamentEvent, nextPairing } from '../src/tournaments/tournament-log';
import type { TournamentEvent } from '../src/tournaments/tournament-log';
import type { Principal } from '../src/common/principal';

// The application as built (dist/, by `npm run bench:tournament`): tsx compiles without the decorator metadata Nest injects by.
const built = createRequire(__filename);
const { AppModule } = built('../dist/app.module') as typeof import('../src/app.module');
const { configureApp } = built('../dist/app.setup') as typeof import('../src/app.setup');
const { PrismaService } = built('../dist/database/prisma.service') as typeof import('../src/database/prisma.service');
const { MatchStore } = built('../dist/match-store/match-store') as typeof import('../src/match-store/match-store');
const { TournamentsService } = built('../dist/tournaments/tournaments.service') as typeof import('../src/tournaments/tournaments.service');

const PLAYERS = Number(process.env.BENCH_PLAYERS ?? 256);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 8);
const PLIES = Number(process.env.BENCH_PLIES ?? 4);

const principal = (username: string): Principal => ({ username, accountId: username, scopes: [], via: 'session' }) as unknown as Principal;

const stats = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return {
    mean: xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length),
    p95: s[Math.min(s.length - 1, Math.floor(s.length * 0.95))] ?? 0,
    max: s[s.length - 1] ?? 0,
  };
};
const ms = (x: number) => x.toFixed(1);

async function main(): Promise<void> {
  Object.assign(process.env, {
    JWT_SECRET: 'bench',
    CLIENT_SEED_WINDOW: '0',
    CLOCK_POLL_MS: '0',
    WEBHOOK_POLL_MS: '0',
    BOT_SWEEP_MS: '0',
    LOG_LEVEL: 'silent',
  });
  const moduleRef = await Test.createTestingModule({ imports: [AppModule] })
    .overrideProvider(PrismaService)
    .useFactory({ factory: () => new PrismaService({ dataDir: 'memory' }) })
    .compile();
  const app = configureApp(moduleRef.createNestApplication({ logger: ['error'], bodyParser: false }));
  await app.init();
  const svc: TournamentsServiceType = app.get(TournamentsService);
  const store: MatchStoreType = app.get(MatchStore);
  const rng = mulberry32(1);

  const names = Array.from({ length: PLAYERS }, (_, i) => `bench${i}`);
  const t = await svc.create(principal(names[0]), {
    name: 'bench',
    format: 'swiss',
    preset: 'scopa',
    overrides: { target: 1 },
    rounds: ROUNDS,
    maxPlayers: PLAYERS,
  });
  for (const n of names) await svc.join(principal(n), t.id);
  const started = await svc.start(principal(names[0]), t.id);
  console.log(`${PLAYERS} players, ${started.roundsToPlay} rounds (asked ${ROUNDS}), ${PLIES} plies a match then a resignation`);

  const transitions: number[] = [];
  const standings: number[] = [];
  for (let n = 1; n <= started.roundsToPlay; n++) {
    const round = await svc.round(t.id, n);
    const tables = round.tables.filter((x) => x.matchId && x.outcome === null);
    for (const [i, table] of tables.entries()) {
      const matchId = table.matchId!;
      for (let ply = 0; ply < PLIES; ply++) {
        const { state } = await store.current(matchId);
        if (state.phase !== 'playing') break;
        const play = greedyPlay(seatView(state, state.turn));
        const result = await store.execute(
          matchId,
          { type: 'play', player: state.seats[state.turn].player!, card: cardCode(play.card), capture: play.capture.map(cardCode) },
          { actor: state.seats[state.turn].player },
        );
        await store.settled(result);
      }
      const { state } = await store.current(matchId);
      if (state.phase === 'playing') {
        const seat = state.turn >= 0 ? state.turn : Math.floor(rng() * 2);
        const t0 = performance.now();
        const result = await store.execute(matchId, { type: 'resign', player: state.seats[seat].player! }, { actor: state.seats[seat].player });
        await store.settled(result);
        if (i === tables.length - 1) transitions.push(performance.now() - t0);
      }
      const s0 = performance.now();
      await svc.standings(t.id);
      standings.push(performance.now() - s0);
    }
    const now = await svc.get(t.id);
    console.log(
      `round ${n}: ${tables.length} matches played; transition ${ms(transitions[transitions.length - 1] ?? 0)} ms; status ${now.status}, round ${now.currentRound}`,
    );
  }

  // The pure pairing of every round, as the audit recomputes it from the log.
  const events = await svc.export(t.id);
  let state = initialTournamentState(t.id);
  const pairing: number[] = [];
  for (const line of events) {
    const event = joinTournamentEvent(line) as TournamentEvent;
    if (event.type === 'RoundPaired') {
      const t0 = performance.now();
      nextPairing(state);
      pairing.push(performance.now() - t0);
    }
    state = evolveTournament(state, event);
  }
  console.log(`pairing per round (ms): ${pairing.map(ms).join(', ')}`);
  const p = stats(pairing);
  const tr = stats(transitions);
  const st = stats(standings);
  console.log(
    `round transition (ms): mean ${ms(tr.mean)}, max ${ms(tr.max)}; standings update (ms): mean ${ms(st.mean)}, p95 ${ms(st.p95)} over ${standings.length} results`,
  );
  console.log(
    `pairing_ms_max=${ms(p.max)} pairing_ms_mean=${ms(p.mean)} transition_ms_mean=${ms(tr.mean)} standings_ms_mean=${ms(st.mean)} standings_ms_p95=${ms(st.p95)}`,
  );
  await app.close();
  process.exit(0);
}

void main();
