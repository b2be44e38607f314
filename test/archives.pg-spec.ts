/** The archive suite (test/archives/archives-suite.ts) on PostgreSQL: a fresh database, dropped after. */
import { freshPgDatabase } from './store/helpers';
import { startInstance } from './support/instances';
import { describeArchiveSuite } from './archives/archives-suite';

describeArchiveSuite('PostgreSQL', async (env) => {
  const db = await freshPgDatabase();
  try {
    const { app } = await startInstance(db.url, env);
    return {
      app,
      close: async () => {
        await app.close();
        await db.drop();
      },
    };
  } catch (err) {
    await db.drop();
    throw err;
  }
});
