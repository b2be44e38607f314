/**
 * Notices between processes through PostgreSQL's LISTEN/NOTIFY, for a
 * deployment on PostgreSQL without REDIS_URL: the analysis workers may run in
 * processes apart (`npm run worker`) that share only the database, and their
 * progress (`analysisProgress`) and their `analysisReady` must still reach
 * the subscribers of every instance (docs/analysis.md, docs/operations.md).
 *
 * A publisher NOTIFYs one channel (`scopa_notices`) with `{channel, message}`;
 * every instance LISTENs on a connection of its own and republishes what it
 * hears on its in-process pub/sub, itself included (one path whoever ran the
 * job). PostgreSQL delivers a session's notifications in commit order, so a
 * job's `running` notices come before its `done`. A notice is at most
 * 8000 bytes (PostgreSQL's limit): these are a few hundred.
 *
 * With REDIS_URL none of this runs (Redis carries every notice); on the
 * embedded database the workers run in the service's own process, whose
 * in-process pub/sub suffices.
 */
import pg from 'pg';
import type { PubSubEngine } from 'graphql-subscriptions';

export const PG_NOTICE_CHANNEL = 'scopa_notices';
/** PostgreSQL refuses a NOTIFY payload of 8000 bytes or more. */
const MAX_PAYLOAD_BYTES = 7999;
/** After a lost LISTEN connection, the next attempt this much later. */
const RECONNECT_MS = 1000;

/** What publishing needs of a PubSubEngine. */
export type NoticePublisher = Pick<PubSubEngine, 'publish'>;

/** Publishes by NOTIFY through `pool`: every listening process hears it once the statement commits (at once: autocommit). */
export function pgNoticePublisher(pool: pg.Pool): NoticePublisher {
  return {
    publish: async (channel: string, message: unknown): Promise<void> => {
      const payload = JSON.stringify({ channel, message });
      if (Buffer.byteLength(payload) > MAX_PAYLOAD_BYTES)
        throw new RangeError(`a notice on ${channel} is too large for NOTIFY (${Buffer.byteLength(payload)} bytes)`);
      await pool.query('SELECT pg_notify($1, $2)', [PG_NOTICE_CHANNEL, payload]);
    },
  };
}

/**
 * LISTENs on a connection of its own (not the pool's: it stays open) and
 * republishes the notices `accept` takes on `local`; reconnects after a loss
 * (a failover: docs/operations.md "When the database fails over") every
 * RECONNECT_MS and LISTENs again. Notices sent meanwhile are lost: once it
 * listens again, `onReconnect` is called so that the owner makes them up
 * from the database (the analyses publish each open subscription's current
 * progress again).
 */
export class PgNoticeListener {
  private client: pg.Client | null = null;
  private stopped = false;
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly connection: pg.ClientConfig,
    private readonly local: NoticePublisher,
    private readonly accept: (channel: string, message: unknown) => boolean,
    private readonly onError: (err: unknown) => void = () => undefined,
    private readonly onReconnect: () => void = () => undefined,
  ) {}

  /** Times it listened again after a lost connection. */
  reconnects = 0;
  private lostOnce = false;

  /** Resolves once it listens (the first connection's failure rejects). */
  async start(): Promise<void> {
    this.stopped = false;
    await this.connect();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const client = this.client;
    this.client = null;
    await client?.end().catch(() => undefined);
  }

  private async connect(): Promise<void> {
    const client = new pg.Client(this.connection);
    client.on('notification', (n) => this.heard(n.channel, n.payload));
    client.on('error', (err) => {
      this.onError(err);
      this.lost(client);
    });
    client.on('end', () => this.lost(client));
    try {
      await client.connect();
      await client.query(`LISTEN ${PG_NOTICE_CHANNEL}`);
    } catch (err) {
      await client.end().catch(() => undefined);
      throw err;
    }
    if (this.stopped) {
      await client.end().catch(() => undefined);
      return;
    }
    this.client = client;
    if (this.lostOnce) {
      this.reconnects++;
      try {
        this.onReconnect();
      } catch (err) {
        this.onError(err);
      }
    }
  }

  private lost(client: pg.Client): void {
    if (this.client !== client) return;
    this.client = null;
    this.lostOnce = true;
    client.end().catch(() => undefined);
    this.retry();
  }

  private retry(): void {
    if (this.stopped || this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      if (this.stopped) return;
      this.connect().catch((err: unknown) => {
        this.onError(err);
        this.retry();
      });
    }, RECONNECT_MS);
    this.timer.unref();
  }

  private heard(channel: string, payload: string | undefined): void {
    if (channel !== PG_NOTICE_CHANNEL || !payload) return;
    let notice: { channel?: unknown; message?: unknown };
    try {
      notice = JSON.parse(payload) as typeof notice;
    } catch {
      return;
    }
    if (typeof notice?.channel !== 'string' || !this.accept(notice.channel, notice.message)) return;
    this.local.publish(notice.channel, notice.message).catch((err: unknown) => this.onError(err));
  }
}
