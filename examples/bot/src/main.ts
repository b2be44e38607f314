/**
 * Runs the example bot until Ctrl-C:
 *   SCOPA_URL=http://localhost:3000 SCOPA_TOKEN=scopa_pat_... npm start -w @scopa/example-bot
 * (build the SDK first: npm run build:sdk). SCOPA_TOKEN is a personal API token
 * with the scopes read, play and challenge:write (POST /v1/tokens, from a password session).
 */
import { ScopaClient } from '@scopa/sdk';
import { ScopaBot } from './bot.js';

const token = process.env.SCOPA_TOKEN;
if (!token) {
  console.error('SCOPA_TOKEN is not set: create an API token with the scopes read, play and challenge:write (POST /v1/tokens)');
  process.exit(2);
}
const client = new ScopaClient({ baseUrl: process.env.SCOPA_URL ?? 'http://localhost:3000', token });
const bot = new ScopaBot({ client, pollMs: Number(process.env.SCOPA_POLL_MS ?? 1000), log: (line) => console.log(new Date().toISOString(), line) });
const stop = new AbortController();
process.once('SIGINT', () => stop.abort());
process.once('SIGTERM', () => stop.abort());
await bot.run(stop.signal);
console.log(`stopped: ${JSON.stringify(bot.stats)}`);
