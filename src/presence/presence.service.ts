/**
 * Presence: an account is online while it holds an open live connection
 * (graphql-ws, or an HTTP stream: whatever SocketRegistry tracks) on any
 * instance; otherwise it was last seen when its last connection closed.
 * Derived from SocketRegistry's opened/closed listeners; it never touches the
 * move log.
 *
 * Across instances (REDIS_URL or REDIS_SENTINELS set): each instance keeps, per account it holds
 * connections for, a member in the sorted set `presence:<player>` whose score
 * is an expiry (now + PRESENCE_TTL), refreshed by a heartbeat (a third of the
 * TTL) while it holds them and removed when its last one closes; online = any
 * member not expired, so an instance that dies stops counting after the TTL.
 * `presence:seen:<player>` holds the last-seen time. Without Redis, the same
 * in-process.
 *
 * Opponent gone / back: when an account's last connection on an instance
 * closes, that instance checks again after OPPONENT_GONE_AFTER; if the account
 * is still offline everywhere, it sets `presence:gone:<player>` (SET NX: one
 * instance wins) and publishes `opponentGone` on the live channel of each
 * match the account is playing; when the account opens a connection again and
 * that key existed (DEL returns 1: one instance wins), `opponentBack`. An
 * instance that dies closes nothing: `presence:all` scores each held account
 * with when its last claim runs out, and every heartbeat sweeps the accounts
 * whose score is OPPONENT_GONE_AFTER in the past (ZREM claims each for one
 * instance), which then go through the same check.
 *
 * Redis failover (Sentinel): the replica promoted may lack the master's last
 * writes (replication is asynchronous), so when this instance's connection is
 * back after a loss it renews its claims at once instead of at the next beat.
 * While Redis is switching, a read fails and presence answers from this
 * instance alone (online if it holds a connection of the account, else
 * offline with no last-seen time): never an error for the request that asked.
 */
import { randomUUID } from 'node:crypto';
import { Inject, Injectable, Logger, Optional } from '@nestjs/common';
import type { OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import type { Redis } from 'ioredis';
import { AppConfig } from '../config/config';
import { SocketRegistry } from '../connections/socket-registry';
import { MatchStore } from '../match-store/match-store';
import { matchChannel } from '../realtime/channels';
import type { MatchNotice, PresenceChange } from '../realtime/channels';
import { PUB_SUB, REDIS } from '../realtime/realtime.module';
import { Scheduler } from '../jobs/scheduler';
import type { PeriodicTask } from '../jobs/scheduler';
import type { RedisConnections } from '../realtime/redis';
import type { PubSubEngine } from '../realtime/realtime.module';

export interface Presence {
  online: boolean;
  /** When its last connection closed (null: online now, or never seen since the service started keeping it). */
  lastSeen: Date | null;
}

/** Where presence is shared: Redis across instances, or this process alone. */
interface PresenceBackend {
  /** This instance holds connections of these players until `until` (ms). */
  hold(players: readonly string[], until: number): Promise<void>;
  /** This instance holds none of the player's connections any more; it was seen at `at`. */
  release(player: string, at: number): Promise<void>;
  online(player: string, now: number): Promise<boolean>;
  lastSeen(player: string): Promise<number | null>;
  /** True for the one caller that marks the player gone (until back). */
  markGone(player: string): Promise<boolean>;
  /** True for the one caller that finds the player was gone. */
  clearGone(player: string): Promise<boolean>;
  /** Players held by no live instance since before `before` (ms): each returned to one caller only. */
  orphans(before: number): Promise<string[]>;
  close(): Promise<void>;
}

class MemoryBackend implements PresenceBackend {
  private readonly held = new Map<string, number>();
  private readonly seen = new Map<string, number>();
  private readonly gone = new Set<string>();
  async hold(players: readonly string[], until: number): Promise<void> {
    for (const p of players) this.held.set(p, until);
  }
  async release(player: string, at: number): Promise<void> {
    this.held.delete(player);
    this.seen.set(player, at);
  }
  async online(player: string, now: number): Promise<boolean> {
    return (this.held.get(player) ?? 0) > now;
  }
  async lastSeen(player: string): Promise<number | null> {
    return this.seen.get(player) ?? null;
  }
  async markGone(player: string): Promise<boolean> {
    if (this.gone.has(player)) return false;
    this.gone.add(player);
    return true;
  }
  async clearGone(player: string): Promise<boolean> {
    return this.gone.delete(player);
  }
  async orphans(): Promise<string[]> {
    return []; // one process: its own close timers see every departure
  }
  async close(): Promise<void> {}
}

/**
 * A claim on each of KEYS[2..] (`presence:<player>`, the players in ARGV[3..]) until ARGV[1] for instance ARGV[2],
 * and every held account in KEYS[1] (`presence:all`) scored with when its last claim runs out: the sweep finds
 * those a dead instance left. One script per HOLD_CHUNK players: as three commands a player, a heartbeat of 20,000
 * players cost the instance some 500 ms of CPU every beat (ioredis building 60,000 commands), a script 26 ms.
 */
const HOLD = `
local expiry = ARGV[1]
local instance = ARGV[2]
for i = 2, #KEYS do
  redis.call('ZADD', KEYS[i], expiry, instance)
  redis.call('PEXPIREAT', KEYS[i], expiry)
  redis.call('ZADD', KEYS[1], 'GT', expiry, ARGV[i + 1])
end
return #KEYS - 1`;
/** Players per script run: each run holds Redis for a few ms at most. */
const HOLD_CHUNK = 500;

type HoldingRedis = Redis & { presenceHold(numKeys: number, ...args: (string | number)[]): Promise<number> };

/** On the instance's shared Redis connection (src/realtime/redis.ts), which its owner closes. */
class RedisBackend implements PresenceBackend {
  private readonly redis: HoldingRedis;

  constructor(
    redis: Redis,
    private readonly instance: string,
    private readonly prefix = 'presence',
  ) {
    // EVALSHA, and EVAL once when Redis does not know the script (a restart, a failover).
    if (!('presenceHold' in redis)) redis.defineCommand('presenceHold', { lua: HOLD });
    this.redis = redis as HoldingRedis;
  }
  async hold(players: readonly string[], until: number): Promise<void> {
    const runs: Promise<number>[] = [];
    for (let i = 0; i < players.length; i += HOLD_CHUNK) {
      const chunk = players.slice(i, i + HOLD_CHUNK);
      const keys = chunk.map((p) => `${this.prefix}:${p}`);
      runs.push(this.redis.presenceHold(chunk.length + 1, `${this.prefix}:all`, ...keys, until, this.instance, ...chunk));
    }
    await Promise.all(runs);
  }
  async release(player: string, at: number): Promise<void> {
    await this.redis
      .multi()
      .zrem(`${this.prefix}:${player}`, this.instance)
      .set(`${this.prefix}:seen:${player}`, String(at), 'PX', 30 * 86_400_000)
      .zadd(`${this.prefix}:all`, at, player)
      .exec();
  }
  async orphans(before: number): Promise<string[]> {
    const candidates = await this.redis.zrangebyscore(`${this.prefix}:all`, '-inf', `(${before}`, 'LIMIT', 0, 100);
    const mine: string[] = [];
    for (const p of candidates) {
      // ZREM is the claim: one instance takes each (a live holder's next heartbeat adds it back).
      if ((await this.redis.zrem(`${this.prefix}:all`, p)) === 1) mine.push(p);
    }
    return mine;
  }
  async online(player: string, now: number): Promise<boolean> {
    this.connected();
    return (await this.redis.zcount(`${this.prefix}:${player}`, `(${now}`, '+inf')) > 0;
  }
  async lastSeen(player: string): Promise<number | null> {
    this.connected();
    const v = await this.redis.get(`${this.prefix}:seen:${player}`);
    return v === null ? null : Number(v);
  }
  async markGone(player: string): Promise<boolean> {
    return (await this.redis.set(`${this.prefix}:gone:${player}`, '1', 'PX', 30 * 86_400_000, 'NX')) === 'OK';
  }
  async clearGone(player: string): Promise<boolean> {
    return (await this.redis.del(`${this.prefix}:gone:${player}`)) === 1;
  }
  async close(): Promise<void> {}

  /** A read for a request does not wait in the offline queue while Redis reconnects (a Sentinel switch): the caller answers without it. */
  private connected(): void {
    if (this.redis.status !== 'ready') throw new Error(`Redis is ${this.redis.status}`);
  }
}

@Injectable()
export class PresenceService implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger('Presence');
  /** OPPONENT_GONE_AFTER (ISO 8601, default PT30S): absence before opponentGone. */
  readonly goneAfterMs: number;
  /** PRESENCE_TTL (ISO 8601, default PT30S): how long an instance's claim lasts without a heartbeat. */
  readonly ttlMs: number;
  private readonly backend: PresenceBackend;
  /** Open connections on this instance, per player. */
  private readonly local = new Map<string, number>();
  private readonly goneTimers = new Map<string, NodeJS.Timeout>();
  /**
   * On the one scheduler (src/jobs/scheduler.ts), not a timer of its own: besides refreshing this instance's claims,
   * a beat sweeps the accounts every instance has let go (orphans) and announces them gone.
   */
  private readonly heartbeat: PeriodicTask;
  private readonly unlisten: (() => void)[] = [];
  private readonly redis: RedisConnections | null;

  constructor(
    private readonly sockets: SocketRegistry,
    private readonly store: MatchStore,
    @Inject(PUB_SUB) private readonly pubsub: PubSubEngine,
    config: AppConfig,
    scheduler: Scheduler,
    @Optional() @Inject(REDIS) redis: RedisConnections | null,
  ) {
    this.heartbeat = scheduler.task('presence heartbeat', () => this.beat());
    this.goneAfterMs = config.OPPONENT_GONE_AFTER;
    this.ttlMs = config.PRESENCE_TTL;
    this.backend = redis ? new RedisBackend(redis.client, randomUUID()) : new MemoryBackend();
    this.redis = redis ?? null;
  }

  onModuleInit(): void {
    // Back from a loss (a Sentinel switch): the new master may have missed this instance's last claims.
    if (this.redis) this.unlisten.push(this.redis.onResume('client', () => void this.beat()));
    this.unlisten.push(this.sockets.onOpened((user) => void this.opened(user.username)));
    this.unlisten.push(this.sockets.onClosed((user) => void this.closed(user.username)));
    this.heartbeat.start(Math.max(1000, Math.floor(this.ttlMs / 3)));
  }

  async onModuleDestroy(): Promise<void> {
    for (const stop of this.unlisten.splice(0)) stop();
    await this.heartbeat.stop();
    for (const t of this.goneTimers.values()) clearTimeout(t);
    this.goneTimers.clear();
    const now = Date.now();
    await Promise.allSettled([...this.local.keys()].map((p) => this.backend.release(p, now)));
    await this.backend.close();
  }

  /** Whether the player holds an open live connection on any instance (for the lobby's live-seek expiry, too). */
  async isOnline(player: string): Promise<boolean> {
    if ((this.local.get(player) ?? 0) > 0) return true;
    try {
      return await this.backend.online(player, Date.now());
    } catch {
      return false;
    }
  }

  async presenceOf(player: string): Promise<Presence> {
    if (await this.isOnline(player)) return { online: true, lastSeen: null };
    const seen = await this.backend.lastSeen(player).catch(() => null);
    return { online: false, lastSeen: seen === null ? null : new Date(seen) };
  }

  private async opened(player: string): Promise<void> {
    const n = (this.local.get(player) ?? 0) + 1;
    this.local.set(player, n);
    if (n > 1) return;
    const timer = this.goneTimers.get(player);
    if (timer) clearTimeout(timer);
    this.goneTimers.delete(player);
    try {
      await this.backend.hold([player], Date.now() + this.ttlMs);
      if (await this.backend.clearGone(player)) await this.announce(player, 'opponentBack');
    } catch (err) {
      this.logger.warn(`presence of ${player}: ${(err as Error).message}`);
    }
  }

  private async closed(player: string): Promise<void> {
    const n = (this.local.get(player) ?? 1) - 1;
    if (n > 0) {
      this.local.set(player, n);
      return;
    }
    this.local.delete(player);
    try {
      await this.backend.release(player, Date.now());
    } catch (err) {
      this.logger.warn(`presence of ${player}: ${(err as Error).message}`);
    }
    const timer = setTimeout(() => {
      this.goneTimers.delete(player);
      void this.checkGone(player);
    }, this.goneAfterMs);
    timer.unref();
    this.goneTimers.set(player, timer);
  }

  private async checkGone(player: string): Promise<void> {
    try {
      if (await this.isOnline(player)) return;
      if (await this.backend.markGone(player)) await this.announce(player, 'opponentGone');
    } catch (err) {
      this.logger.warn(`presence of ${player}: ${(err as Error).message}`);
    }
  }

  private async beat(): Promise<void> {
    try {
      await this.backend.hold([...this.local.keys()], Date.now() + this.ttlMs);
      // Accounts whose every claim ran out OPPONENT_GONE_AFTER ago: gone, even if the instance that held them died without a close.
      for (const player of await this.backend.orphans(Date.now() - this.goneAfterMs)) {
        if ((this.local.get(player) ?? 0) === 0) await this.checkGone(player);
      }
    } catch (err) {
      this.logger.warn(`presence heartbeat: ${(err as Error).message}`);
    }
  }

  /** Publishes the change on the live channel of every match the player is playing. */
  private async announce(player: string, type: PresenceChange['type']): Promise<void> {
    const seats = await this.store.playingSeatsOf(player);
    const at = new Date().toISOString();
    await Promise.all(
      seats.map((r) => {
        const notice: MatchNotice = { matchId: r.matchId, seq: -1, presence: { type, player, seat: r.seat, at } };
        return this.pubsub.publish(matchChannel(r.matchId), notice);
      }),
    );
  }
}
