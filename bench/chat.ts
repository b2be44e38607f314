/**
 * npm run bench:chat — a chat message's delivery to the subscribers of one
 * room on two instances (issue 46, docs/social.md "Chat").
 *
 * Two instances of the built service (their own processes, as an operator
 * runs them) on one scratch PostgreSQL database and the machine's Redis
 * (REDIS_URL, default redis://127.0.0.1:6379): the pub/sub that carries a
 * message from the instance that wrote it to the other. BENCH_CHAT_SUBSCRIBERS
 * (default 100) players subscribe to the lobby's room with `chatMessage`
 * over graphql-ws, half on each instance; one more player sends
 * BENCH_CHAT_MESSAGES (default 200) messages over REST to the first instance,
 * one every 50 ms. A delivery's time is from the moment the POST is sent to
 * the moment a subscriber's socket has the message (one clock: this
 * process's), so it includes the write of the message's row.
 *
 * Last line: chat_delivery_ms_p50=<n> chat_delivery_ms_p99=<n> (target under 50)
 * subscribers=<n> instances=2 messages=<n> delivered=<n of n>
 */
import WebSocket from 'ws';
import { http } from './http';
import { freshPgDatabase } from '../test/store/helpers';
import { spawnInstance } from '../test/support/process-instance';
import type { ProcessInstance } from '../test/support/process-instance';

const SUBSCRIBERS = Number(process.env.BENCH_CHAT_SUBSCRIBERS ?? 100);
const MESSAGES = Number(process.env.BENCH_CHAT_MESSAGES ?? 200);
const PORT = process.env.BENCH_PORT ? Number(process.env.BENCH_PORT) : 0;
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const SPACING_MS = 50;
const TARGET_P99_MS = 50;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const pct = (xs: number[], p: number) => {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)];
};
const log = (msg: string) => console.error(`[${new Date().toISOString().slice(11, 19)}] ${msg}`);

interface Player {
  username: string;
  token: string;
}

/** A graphql-transport-ws connection subscribed to the lobby's chat room; calls onMessage with each message's text. */
function subscribe(wsUrl: string, token: string, onMessage: (text: string) => void): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(wsUrl, 'graphql-transport-ws', { perMessageDeflate: false });
    let acked = false;
    ws.on('open', () => ws.send(JSON.stringify({ type: 'connection_init', payload: { authorization: `Bearer ${token}` } })));
    ws.on('message', (data) => {
      const msg = JSON.parse(String(data)) as { type: string; payload?: any };
      if (msg.type === 'connection_ack') {
        acked = true;
        ws.send(JSON.stringify({ id: '1', type: 'subscribe', payload: { query: 'subscription { chatMessage(room: { kind: lobby }) { id text } }' } }));
        resolve(ws);
      } else if (msg.type === 'next') {
        const text = msg.payload?.data?.chatMessage?.text;
        if (typeof text === 'string') onMessage(text);
      } else if (msg.type === 'error') {
        log(`subscription refused: ${JSON.stringify(msg.payload)}`);
      } else if (msg.type === 'ping') {
        ws.send(JSON.stringify({ type: 'pong' }));
      }
    });
    ws.on('error', (err) => {
      if (!acked) reject(err);
    });
  });
}

async function register(base: string, username: string): Promise<Player> {
  const res = await http(base, 'POST', '/v1/auth/register', null, { username, password: `password-of-${username}` });
  if (res.status !== 201) throw new Error(`register ${username}: ${res.status} ${JSON.stringify(res.body)}`);
  return { username, token: res.body.accessToken as string };
}

async function main(): Promise<void> {
  const db = await freshPgDatabase('scopa_bench');
  const instances: ProcessInstance[] = [];
  const sockets: WebSocket[] = [];
  process.on('exit', () => instances.forEach((i) => i.child.kill('SIGKILL')));
  try {
    const env = (n: number): Record<string, string> => ({
      DATABASE_URL: db.url,
      REDIS_URL,
      JWT_SECRET: 'bench-chat-secret',
      LOG_LEVEL: 'warn',
      NODE_ENV: 'production',
      RATE_LIMIT: '100000000',
      AUTH_RATE_LIMIT: '100000000',
      CHAT_RATE_LIMIT: '100000000',
      CHAT_ROOM_RATE_LIMIT: '100000000',
      // the bench's accounts sign up over HTTP: a light hash, so that the bench measures chat, not argon2
      ARGON2_MEMORY_KIB: '64',
      ARGON2_PASSES: '1',
      RATE_LIMIT_REDIS_PREFIX: `bench-chat-${process.pid}`,
      ...(PORT ? { PORT: String(PORT + n) } : {}),
    });
    // the first applies the migrations; the second starts on a migrated database
    instances.push(await spawnInstance(env(0)));
    instances.push(await spawnInstance(env(1)));
    const [a, b] = instances.map((i) => i.url);
    log(`instances ${a} and ${b}; signing up ${SUBSCRIBERS + 1} players`);
    const tag = Date.now().toString(36);
    const players: Player[] = [];
    for (let i = 0; i <= SUBSCRIBERS; i++) players.push(await register(i % 2 === 0 ? a : b, `chat${tag}${i}`));
    const [sender, ...subscribers] = players;

    // The time each message was sent, and its deliveries.
    const sentAt = new Map<string, number>();
    const latencies: number[] = [];
    for (const [i, p] of subscribers.entries()) {
      const base = i % 2 === 0 ? a : b;
      sockets.push(
        await subscribe(base.replace('http', 'ws') + '/graphql', p.token, (text) => {
          const t0 = sentAt.get(text);
          if (t0 !== undefined) latencies.push(performance.now() - t0);
        }),
      );
    }
    await sleep(1000); // every subscription registered (the server subscribes on receipt)

    // a few messages not measured: the first statements of each instance
    for (let i = 0; i < 5; i++) await http(a, 'POST', '/v1/lobby/chat', sender.token, { text: `warm-up ${i}` });
    await sleep(500);
    latencies.length = 0;

    log(`${subscribers.length} subscribers (half on each instance); sending ${MESSAGES} messages to ${a}, one every ${SPACING_MS} ms`);
    for (let i = 0; i < MESSAGES; i++) {
      const text = `message ${i} of the bench`;
      sentAt.set(text, performance.now());
      const res = await http(a, 'POST', '/v1/lobby/chat', sender.token, { text });
      if (res.status !== 201) throw new Error(`send ${i}: ${res.status} ${JSON.stringify(res.body)}`);
      await sleep(SPACING_MS);
    }
    const expected = MESSAGES * subscribers.length;
    for (let i = 0; i < 100 && latencies.length < expected; i++) await sleep(50);
    const p50 = pct(latencies, 50);
    const p99 = pct(latencies, 99);
    log(`p99 ${p99.toFixed(1)} ms (target under ${TARGET_P99_MS} ms): ${p99 < TARGET_P99_MS ? 'met' : 'NOT met'}`);
    console.log(
      `chat_delivery_ms_p50=${p50.toFixed(1)} chat_delivery_ms_p99=${p99.toFixed(1)} subscribers=${subscribers.length} instances=2 messages=${MESSAGES} delivered=${latencies.length}/${expected}`,
    );
  } finally {
    for (const s of sockets) s.terminate();
    await Promise.all(instances.map((i) => i.stop()));
    await db.drop();
  }
}

void main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
