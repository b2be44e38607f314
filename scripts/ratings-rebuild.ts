/**
 * npm run ratings:rebuild: forgets every rating and recomputes them all from
 * the logs of finished rated matches, in the order the matches ended (the
 * same code as the live recorder, so the same numbers). Uses the service's
 * database settings (DATABASE_URL, else the PGlite folder DATA_DIR: stop the
 * service first, one process owns a PGlite folder) and RATING_PERIOD.
 */
import { appConfig } from '../src/config/config';
import { databaseOptionsFromEnv, openDatabase } from '../src/database/database';
import { RatingStore } from '../src/ratings/rating-store';
import { ratingPeriodMsFromEnv } from '../src/ratings/rating-period';

async function main(): Promise<void> {
  const config = appConfig(); // a script: no container, the environment read here
  const db = await openDatabase(databaseOptionsFromEnv(config));
  try {
    const store = new RatingStore(db.prisma, { periodMs: ratingPeriodMsFromEnv(config) });
    const started = Date.now();
    const { matches, rated } = await store.rebuild((done, total) => {
      if (done % 1000 === 0) console.log(`${done}/${total} matches`);
    });
    console.log(`ratings rebuilt: ${matches} rated matches read, ${rated} counted, in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  } finally {
    await db.close();
  }
}

main().catch((err: unknown) => {
  console.error(`ratings:rebuild failed: ${(err as Error).message}`);
  process.exit(1);
});
