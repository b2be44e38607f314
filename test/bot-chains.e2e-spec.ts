/** Bots off the request path on PGlite (the suite: test/bots/bot-chain-suite.ts). */
import { createTestApp, listenOnLoopback } from './support/app';
import { CHAIN_ENV, describeBotChains } from './bots/bot-chain-suite';

describeBotChains('PGlite', async () => {
  const saved = Object.fromEntries(Object.keys(CHAIN_ENV).map((k) => [k, process.env[k]]));
  const app = await createTestApp(CHAIN_ENV);
  const { http } = await listenOnLoopback(app);
  return {
    http,
    close: async () => {
      await app.close();
      for (const [k, v] of Object.entries(saved)) {
        if (v === undefined) delete process.env[k];
        else process.env[k] = v;
      }
    },
  };
});
