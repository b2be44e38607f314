/** The archive suite (test/archives/archives-suite.ts) on PGlite. */
import { createTestApp } from './support/app';
import { describeArchiveSuite } from './archives/archives-suite';

describeArchiveSuite('PGlite', async (env) => {
  const app = await createTestApp(env);
  return { app, close: () => app.close() };
});
