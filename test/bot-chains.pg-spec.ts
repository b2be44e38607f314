/** Bots off the request path on PostgreSQL (the suite: test/bots/bot-chain-suite.ts). */
import { freshPgDatabase } from './store/helpers';
import { startInstance } from './support/instances';
import { CHAIN_ENV, describeBotChains } from './bots/bot-chain-suite';

describeBotChains('PostgreSQL', async () => {
  const db = await freshPgDatabase();
  const instance = await startInstance(db.url, CHAIN_ENV);
  return {
    http: instance.http,
    close: async () => {
      await instance.app.close();
      await db.drop();
    },
  };
});
