/**
 * The LISTEN connection across a lost backend (src/realtime/pg-notices.ts;
 * docs/operations.md "When the database fails over"): its server process is
 * terminated (pg_terminate_backend, what a restart or failover does to it),
 * it connects and LISTENs again by itself, tells its owner so that the
 * notices missed meanwhile are made up, and hears what is published after.
 * The pool the publisher uses drops its broken connections too.
 */
import pg from 'pg';
import { PubSub } from 'graphql-subscriptions';
import { PgNoticeListener, pgNoticePublisher } from '../src/realtime/pg-notices';
import { freshPgDatabase } from './store/helpers';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function until(check: () => boolean | Promise<boolean>, timeoutMs: number, label: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out: ${label}`);
    await sleep(50);
  }
}

describe('pg notices across a lost connection (PostgreSQL)', () => {
  let db: Awaited<ReturnType<typeof freshPgDatabase>>;
  let pool: pg.Pool;
  let admin: pg.Client;

  beforeAll(async () => {
    db = await freshPgDatabase();
    pool = new pg.Pool({ connectionString: db.url, max: 2 });
    pool.on('error', () => undefined);
    admin = new pg.Client({ connectionString: db.url });
    await admin.connect();
  });
  afterAll(async () => {
    await admin?.end();
    await pool?.end();
    await db?.drop();
  });

  it('listens again after its backend is terminated, says so, and hears what follows', async () => {
    const local = new PubSub();
    const heard: unknown[] = [];
    await local.subscribe('analysis:m1', (message: unknown) => void heard.push(message));
    let reconnects = 0;
    const errors: unknown[] = [];
    const listener = new PgNoticeListener(
      { connectionString: db.url, application_name: 'scopa-listen-spec' },
      local,
      () => true,
      (err) => errors.push(err),
      () => reconnects++,
    );
    await listener.start();
    const publisher = pgNoticePublisher(pool);
    try {
      await publisher.publish('analysis:m1', { n: 1 });
      await until(() => heard.length === 1, 5000, 'the first notice');

      // Every backend of the listener and of the pool is terminated, as a server restart would.
      const { rows } = await admin.query<{ n: number }>(
        `SELECT count(pg_terminate_backend(pid))::int AS n FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()`,
      );
      expect(rows[0].n).toBeGreaterThanOrEqual(1);
      await until(() => errors.length > 0, 5000, 'the listener saw its connection go');
      expect(reconnects).toBe(0);
      await until(() => reconnects === 1, 10_000, 'the listener listening again');
      expect(listener.reconnects).toBe(1);
      const listening = await admin.query(`SELECT 1 FROM pg_stat_activity WHERE application_name = 'scopa-listen-spec' AND datname = current_database()`);
      expect(listening.rowCount).toBe(1);

      // The publisher's pool opens new connections for what follows; the listener hears it.
      await publisher.publish('analysis:m1', { n: 2 });
      await until(() => heard.length === 2, 5000, 'the notice after the reconnect');
      expect(heard).toEqual([{ n: 1 }, { n: 2 }]);
    } finally {
      await listener.stop();
    }
  });
});
