/**
 * Child of the crash tests: opens the database named by DATABASE_URL (or the
 * PGlite folder DATA_DIR), creates MATCHES matches and plays random moves
 * round-robin, printing `ack <matchId> <seq>` after each append is
 * acknowledged, until it is killed.
 */
import { mulberry32 } from '../../src/engine';
import { databaseOptionsFromEnv, openDatabase } from '../../src/database/database';
import { MatchStore } from '../../src/match-store/match-store';
import { players, randomCommand } from './helpers';
import { loadConfig } from '../../src/config/config';

async function main(): Promise<void> {
  const db = await openDatabase(databaseOptionsFromEnv(loadConfig()));
  const store = new MatchStore(db.prisma);
  const rng = mulberry32(Number(process.env.CRASH_SEED ?? 1));
  const count = Number(process.env.MATCHES ?? 20);
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const { matchId, seq } = await store.create({ preset: 'scopa', seats: players(2), createdBy: 'p0' });
    process.stdout.write(`ack ${matchId} ${seq}\n`);
    const started = await store.execute(matchId, { type: 'start', player: 'p0' }, { actor: 'p0' });
    process.stdout.write(`ack ${matchId} ${started.seq}\n`);
    ids.push(matchId);
  }
  process.stdout.write('ready\n');
  for (let i = 0; ; i = (i + 1) % ids.length) {
    const state = store.peek(ids[i])?.state ?? (await store.state(ids[i]));
    if (state.phase !== 'playing') {
      const { matchId } = await store.create({ preset: 'scopa', seats: players(2), createdBy: 'p0' });
      const started = await store.execute(matchId, { type: 'start', player: 'p0' }, { actor: 'p0' });
      process.stdout.write(`ack ${matchId} ${started.seq}\n`);
      ids[i] = matchId;
      continue;
    }
    const cmd = randomCommand(state, rng);
    const r = await store.execute(ids[i], cmd, { actor: (cmd as { player: string }).player });
    process.stdout.write(`ack ${ids[i]} ${r.seq}\n`);
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
