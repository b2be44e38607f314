/**
 * Where the analyses' notices go (docs/analysis.md, "The jobs: pg-boss on the
 * service's own database", progress across processes): the
 * progress on analysisChannel(matchId) and `analysisReady` on the players'
 * channels.
 * - REDIS_URL or REDIS_SENTINELS set: the pub/sub is Redis's, shared by every process;
 * - PostgreSQL without REDIS_URL: by NOTIFY (src/realtime/pg-notices.ts), and
 *   every instance LISTENs and republishes them on its own pub/sub, so that
 *   `npm run worker` processes sharing only the database still reach every
 *   instance's subscribers;
 * - the embedded database: the workers run in the service's process: its
 *   in-process pub/sub.
 */
import type pg from 'pg';
import type { PubSubEngine } from 'graphql-subscriptions';
import { PgNoticeListener, pgNoticePublisher } from '../realtime/pg-notices';
import type { NoticePublisher } from '../realtime/pg-notices';

export interface AnalysisNotices {
  /** Where a process publishes the analyses' notices. */
  readonly publisher: NoticePublisher;
  /** The instance's LISTEN (PostgreSQL without Redis), or null. */
  readonly listener: PgNoticeListener | null;
}

/** Only what the analyses publish crosses through the database: their progress, and analysisReady. */
export function isAnalysisNotice(channel: string, message: unknown): boolean {
  if (channel.startsWith('analysis:')) return true;
  return channel.startsWith('player:') && (message as { type?: unknown } | null)?.type === 'analysisReady';
}

/** `local`: the process's pub/sub; `listen`: republish the others' notices on it (a service instance; a worker process only publishes). */
export function analysisNotices(
  db: { pool?: pg.Pool },
  /** Redis is configured (REDIS_URL or REDIS_SENTINELS). */
  redis: boolean,
  local: PubSubEngine,
  listen: boolean,
  onError: (err: unknown) => void = () => undefined,
  /** After the LISTEN connection was lost and listens again: make up the notices missed meanwhile. */
  onReconnect: () => void = () => undefined,
): AnalysisNotices {
  if (redis || !db.pool) return { publisher: local, listener: null };
  const listener = listen ? new PgNoticeListener(db.pool.options as pg.ClientConfig, local, isAnalysisNotice, onError, onReconnect) : null;
  return { publisher: pgNoticePublisher(db.pool), listener };
}
