/**
 * The subscriptions' transport. With Redis (REDIS_URL or REDIS_SENTINELS set), events fan out
 * through Redis pub/sub so that a subscriber on any instance sees every event
 * of its matches; without it, an in-process PubSub serves a single instance.
 *
 * Redis pub/sub keeps nothing for a subscriber that is away (a Sentinel
 * switch, a restart). Two things make the match feeds whole again: `resumes`
 * tells them when this instance's subscriber connection is back, and they
 * read the log after the last seq they delivered (src/matches/live-feed.ts);
 * and a match notice this instance could not publish (its own connection was
 * down longer than a command waits) is published again when that connection
 * is back, for the subscribers elsewhere that came back before it.
 */
import { EventEmitter } from 'node:events';
import { PubSub } from 'graphql-subscriptions';
import type { PubSubEngine } from 'graphql-subscriptions';
import { RedisPubSub } from 'graphql-redis-subscriptions';
import type { Redis } from 'ioredis';
import type { RedisConnections } from './redis';
import { matchChannel } from './channels';
import type { MatchNotice } from './channels';

const MATCH_CHANNEL_PREFIX = matchChannel('');

/** "The subscriber connection is back after a loss": a feed that hears it reads what it missed from the log. Returns the unsubscribe. */
export interface FeedResumes {
  onResume(listener: () => void): () => void;
}

export interface Realtime {
  readonly pubsub: PubSubEngine;
  /** Resolves when Redis answers (readiness); absent in memory mode. */
  readonly ping?: () => Promise<unknown>;
  /** Never fires in memory mode (nothing is ever dropped). */
  readonly resumes: FeedResumes;
}

export function createRealtime(redis: RedisConnections | null): Realtime {
  if (!redis) return { pubsub: new PubSub({ eventEmitter: unboundedEmitter() }), resumes: { onResume: () => () => undefined } };
  const pubsub = new ResendingPubSub(redis.client, { publisher: redis.client, subscriber: redis.subscriber });
  redis.onResume('client', () => pubsub.resend());
  return { pubsub, ping: () => redis.ping(), resumes: { onResume: (listener) => redis.onResume('subscriber', listener) } };
}

/** Match channels whose latest unpublished notice is kept at once (beyond: the oldest is dropped; its feeds still catch up on their next notice). */
const UNSENT_MAX = 10_000;
/** While the publishing connection is down, how long a publisher waits for its message to go out (it stays queued after). */
const PUBLISH_WAIT_MS = 250;

/**
 * RedisPubSub that keeps, per match channel, the latest match notice it
 * failed to publish, and publishes those again when asked (the publishing
 * connection is back). Only match notices: a feed takes them by seq, so one
 * that did reach Redis before the connection died and comes twice is ignored
 * (src/matches/live-feed.ts), and a notice past a gap makes the feed read the
 * log. Other channels' messages have no seq to make a repeat harmless: they
 * stay best effort, as their publishers say.
 */
class ResendingPubSub extends RedisPubSub {
  private readonly unsent = new Map<string, MatchNotice>();

  constructor(
    private readonly client: Redis,
    options: ConstructorParameters<typeof RedisPubSub>[0],
  ) {
    super(options);
  }

  override async publish<T>(trigger: string, payload: T): Promise<void> {
    const resendable = trigger.startsWith(MATCH_CHANNEL_PREFIX) && isLogNotice(payload);
    const sending = super.publish(trigger, payload);
    if (this.client.status === 'ready') {
      try {
        await sending;
      } catch (err) {
        if (resendable) this.keep(trigger, payload);
        throw err;
      }
      return;
    }
    // Reconnecting (a Sentinel switch): the message waits in ioredis's offline queue, possibly for seconds;
    // a play's answer must not wait with it. A match notice is kept to be sent again once the connection is back.
    let timer: NodeJS.Timeout | undefined;
    const outcome = await Promise.race([
      sending.then(
        () => 'sent' as const,
        (err: unknown) => ({ err }),
      ),
      new Promise<'queued'>((resolve) => (timer = setTimeout(() => resolve('queued'), PUBLISH_WAIT_MS))),
    ]);
    clearTimeout(timer);
    if (outcome === 'sent') return;
    if (resendable) this.keep(trigger, payload);
    if (outcome !== 'queued') throw outcome.err;
  }

  /** Publishes again every notice kept (one that fails again is kept again). */
  resend(): void {
    const kept = [...this.unsent];
    this.unsent.clear();
    for (const [channel, notice] of kept) void this.publish(channel, notice).catch(() => undefined);
  }

  private keep(channel: string, notice: MatchNotice): void {
    const held = this.unsent.get(channel);
    if (held && held.seq >= notice.seq) return;
    this.unsent.delete(channel);
    this.unsent.set(channel, notice);
    if (this.unsent.size > UNSENT_MAX) this.unsent.delete(this.unsent.keys().next().value as string);
  }
}

/** A notice of the log's move (not a presence change, seq -1). */
function isLogNotice(payload: unknown): payload is MatchNotice {
  return typeof (payload as MatchNotice | null)?.seq === 'number' && (payload as MatchNotice).seq >= 0;
}

/**
 * The in-process PubSub's emitter. graphql-subscriptions adds one listener per
 * subscriber of a channel, and a match's seats and spectators or a lobby's
 * watchers are many: Node's default limit (10) logged a
 * MaxListenersExceededWarning that warns of nothing. The bound on listeners is
 * the subscription caps instead (WS_MAX_SUBSCRIPTIONS_PER_ACCOUNT and the
 * connection limits, src/limits/subscription-caps.ts); over Redis each channel
 * is one Redis subscription per instance whatever the number of subscribers.
 */
function unboundedEmitter(): EventEmitter {
  return new EventEmitter().setMaxListeners(0);
}
