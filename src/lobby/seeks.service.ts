/**
 * Seeks (docs/lobby.md "Seeks"): a player asks for a match with whoever
 * fits; the seek waits in the database until enough compatible seeks exist,
 * then ./seek-pairing.ts makes the match. This file: creating (validated by the
 * engine's own create, limited per account, an identical seek returning the
 * existing one), cancelling, listing, and the sweeper's periodic work
 * (last seen, expiry of live seeks, pairing attempts).
 */
import { createHash, randomUUID } from 'node:crypto';
import { Inject, Injectable, Logger } from '@nestjs/common';
import type { OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { decide, durationSeconds, initialState, isPresetId, PRESETS, seedCommitment } from '../engine';
import type { MatchEvent } from '../engine';
import { DomainError } from '../common/domain-error';
import type { Principal } from '../common/principal';
import { RevocationBus, sessionKey } from '../connections/revocations';
import { PrismaService } from '../database/prisma.service';
import { AccountsStore } from '../auth/accounts-store';
import { roundedRating } from '../ratings/rating-store';
import { canonicalJson } from '../match-formats/chain';
import { CustomRulesetsService } from '../rulesets/custom-rulesets.service';
import { MatchMaker } from '../matches/match-maker';
import { Pairing } from './seek-pairing';
import { SeeksStore } from './seeks-store';
import type { SeekRow } from './seeks-store';
import { SEEK_PRESENCE } from '../presence/seek-presence';
import type { SeekPresence } from '../presence/seek-presence';
import { LobbyConfig } from '../config/slices';
import { lockForTransaction } from '../database/advisory-lock';
import { Scheduler } from '../jobs/scheduler';
import type { PeriodicTask } from '../jobs/scheduler';

export interface SeekRequest {
  preset?: string | null;
  rulesetId?: string | null;
  overrides?: Record<string, unknown> | null;
  players?: number | null;
  teams?: boolean | null;
  turnTimeLimit?: string | null;
  onExpiry?: 'autoPlay' | 'forfeit' | null;
  rated?: boolean | null;
  /** "min-max" (lichess's form), both inclusive; only a rated seek looks at it. */
  ratingRange?: string | null;
}

export interface Seek {
  id: string;
  preset: string;
  rulesetId: string | null;
  overrides: Record<string, unknown>;
  options: Record<string, unknown>;
  players: number;
  teams: boolean;
  turnTimeLimit: string | null;
  onExpiry: string;
  rated: boolean;
  ratingRange: string | null;
  rating: number;
  correspondence: boolean;
  /** open | paired | canceled | expired */
  status: string;
  matchId: string | null;
  seat: number | null;
  createdAt: Date;
  endedAt: Date | null;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** The seed of the dry run that checks a seek (no match is made from it). */
const DRY_RUN_SEED = new Uint8Array(32);
const RATING_RANGE = /^(\d{1,4})-(\d{1,4})$/;
/** A turn time limit of a day or more: a correspondence seek, which never expires. */
const CORRESPONDENCE_SECONDS = 86_400;
/** How long ended seeks stay in mySeeks. */
const ENDED_SHOWN_HOURS = 24;

@Injectable()
export class SeeksService implements OnApplicationBootstrap, OnApplicationShutdown {
  /** Open seeks one account may have (SEEKS_PER_ACCOUNT). */
  get perAccount(): number {
    return this.lobby.SEEKS_PER_ACCOUNT;
  }
  /** Seconds a live seek survives its owner having no open connection (SEEK_IDLE_EXPIRY). */
  get idleExpirySeconds(): number {
    return this.lobby.SEEK_IDLE_EXPIRY;
  }
  /** Sweeper period (SEEK_SWEEP_MS; 0 disables it on this instance). */
  get sweepMs(): number {
    return this.lobby.SEEK_SWEEP_MS;
  }
  private readonly logger = new Logger('Seeks');
  private readonly poller: PeriodicTask;

  constructor(
    private readonly prisma: PrismaService,
    private readonly seeks: SeeksStore,
    private readonly accounts: AccountsStore,
    private readonly rulesets: CustomRulesetsService,
    private readonly pairing: Pairing,
    @Inject(SEEK_PRESENCE) private readonly presence: SeekPresence,
    private readonly revocations: RevocationBus,
    private readonly maker: MatchMaker,
    private readonly lobby: LobbyConfig,
    scheduler: Scheduler,
  ) {
    this.poller = scheduler.task('seek sweep', () => this.sweep());
  }

  private stopHearing?: () => void;

  onApplicationBootstrap(): void {
    this.poller.start(this.sweepMs);
    this.stopHearing = this.revocations.onRevoked((keys) => {
      const prefix = sessionKey('');
      const sessions = keys.filter((k) => k.startsWith(prefix)).map((k) => k.slice(prefix.length));
      if (sessions.length > 0)
        this.signedOut(sessions).catch((err: unknown) => this.logger.warn(`cancelling the live seeks of a signed-out account: ${(err as Error).message}`));
    });
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopHearing?.();
    await this.poller.stop();
  }

  /**
   * Sessions ended (logout, logout everywhere; heard on every instance): an
   * account left with no live session (logged out everywhere) loses its open
   * live seeks at once, instead of after SEEK_IDLE_EXPIRY: nobody is there to
   * play the match they would make. Correspondence seeks stay (they do not
   * need their owner connected), as do the seeks of an account still signed in
   * elsewhere. The update is idempotent: every instance may run it.
   */
  private async signedOut(sessionIds: string[]): Promise<void> {
    const gone = await this.accounts.signedOutEverywhere(sessionIds);
    if (gone.length > 0) await this.seeks.cancelLiveOf(gone);
  }

  /** Creates a seek (or returns the identical open one the caller has: `created: false`), then tries to pair its bucket. */
  async create(caller: Principal, req: SeekRequest): Promise<{ seek: Seek; created: boolean }> {
    const spec = await this.resolve(caller, req);
    const row = await this.prisma.$transaction(
      async (tx) => {
        // One creation per player at a time, on every instance: the limit and the identical seek are exact.
        await lockForTransaction(tx, `seek-owner:${caller.username}`);
        const identical = await this.seeks.identicalOpen(tx, caller.username, spec.bucket, spec.ratingMin, spec.ratingMax);
        if (identical) return { row: identical, created: false };
        const live = await this.seeks.openCount(tx, caller.username);
        if (live >= this.perAccount) {
          throw new DomainError('LIMIT_REACHED', `at most ${this.perAccount} open seeks per account (SEEKS_PER_ACCOUNT): cancel one first`, {
            limit: this.perAccount,
            live,
          });
        }
        const inserted = await this.seeks.insert(tx, { id: randomUUID(), player: caller.username, accountId: caller.accountId, ...spec });
        return { row: inserted, created: true };
      },
      { maxWait: 30_000, timeout: 30_000 },
    );
    if (row.created) {
      try {
        await this.pairing.attempt(spec.bucket);
      } catch (err) {
        // the seek is recorded: the sweeper tries the bucket again
        this.logger.warn(`pairing ${spec.bucket}: ${(err as Error).message}`);
      }
    }
    return { seek: await this.get(caller, row.row.id), created: row.created };
  }

  async get(caller: Principal, id: string): Promise<Seek> {
    if (!UUID.test(id)) throw new DomainError('NOT_FOUND', 'no such seek');
    const row = await this.seeks.get(id, caller.username);
    if (!row) throw new DomainError('NOT_FOUND', 'no such seek');
    return toSeek(row);
  }

  /** Cancels my open seek; cancelling one already cancelled or expired returns it; one already paired is CONFLICT (with its matchId). */
  async cancel(caller: Principal, id: string): Promise<Seek> {
    if (!UUID.test(id)) throw new DomainError('NOT_FOUND', 'no such seek');
    // Waits for a pairing that holds the row, then finds it paired.
    const canceled = await this.seeks.cancelOpen(id, caller.username);
    if (canceled) return toSeek(canceled);
    const seek = await this.get(caller, id);
    if (seek.status === 'paired') throw new DomainError('CONFLICT', 'this seek is already paired', { matchId: seek.matchId });
    return seek;
  }

  /** My open seeks, then those that ended in the last 24 hours (paired ones with their match), newest first. */
  async mine(caller: Principal): Promise<Seek[]> {
    const rows = await this.seeks.mine(caller.username, ENDED_SHOWN_HOURS);
    return rows.map(toSeek);
  }

  /**
   * The sweeper's tick (every SEEK_SWEEP_MS on each instance): live seeks of
   * owners connected here are seen now; live seeks whose owner no instance
   * has seen for SEEK_IDLE_EXPIRY expire; every bucket holding enough open
   * seeks gets a pairing attempt (a crash or a lost attempt leaves nothing
   * waiting longer than one period).
   */
  async sweep(): Promise<void> {
    const seen = (await this.seeks.liveOwners()).filter((p) => this.presence.isOnline(p));
    if (seen.length > 0) await this.seeks.seen(seen);
    await this.seeks.expireIdle(this.idleExpirySeconds);
    for (const bucket of await this.seeks.pairableBuckets()) await this.pairing.attempt(bucket);
  }

  // ------------------------------------------------------------------ resolving

  private async resolve(caller: Principal, req: SeekRequest) {
    if (!req.preset && !req.rulesetId) throw new DomainError('VALIDATION_FAILED', 'give a preset or a rulesetId');
    let preset: string;
    let rulesetId: string | null = null;
    let overrides: Record<string, unknown> = { ...(req.overrides ?? {}) };
    if (req.rulesetId) {
      if (req.overrides && Object.keys(req.overrides).length > 0) {
        throw new DomainError('VALIDATION_FAILED', 'a seek of a saved ruleset takes no overrides: save them into the ruleset');
      }
      // The seek holds this version until paired: lock it now, so the match is made from exactly it.
      const version = await this.rulesets.freeze(req.rulesetId);
      if (req.preset && req.preset !== version.preset)
        throw new DomainError('VALIDATION_FAILED', `the ruleset is based on ${version.preset}, not ${req.preset}`);
      preset = version.preset;
      rulesetId = version.id;
      overrides = { ...version.overrides };
    } else {
      preset = String(req.preset);
      if (!isPresetId(preset)) throw new DomainError('INVALID_RULESET', `no preset ${JSON.stringify(preset)}`, { option: 'preset' });
    }
    // players and teams are options: given and different from what the ruleset says, they are overrides.
    const base: Record<string, unknown> = { ...PRESETS[preset as keyof typeof PRESETS].defaults, ...overrides };
    const extra: Record<string, unknown> = {};
    if (req.players !== undefined && req.players !== null && req.players !== base.players) extra.players = req.players;
    if (req.teams !== undefined && req.teams !== null && req.teams !== base.teams) extra.teams = req.teams;
    if (Object.keys(extra).length > 0) {
      if (rulesetId) throw new DomainError('VALIDATION_FAILED', 'players and teams of a saved ruleset are its own: save another ruleset');
      overrides = { ...overrides, ...extra };
    }
    const rated = req.rated === true;
    if (rated && !rulesetId && Object.keys(overrides).length > 0) {
      throw new DomainError('VALIDATION_FAILED', 'a rated seek takes no overrides (players and teams included): save them as a ruleset and rate that');
    }
    // A player suspended from rated play makes no rated seek (the pairing makes the match later, under its lock).
    if (rated) await this.maker.assertMayPlayRated([caller.username]);
    let ratingMin: number | null = null;
    let ratingMax: number | null = null;
    if (req.ratingRange !== undefined && req.ratingRange !== null) {
      const m = RATING_RANGE.exec(req.ratingRange);
      if (!m || Number(m[1]) > Number(m[2]))
        throw new DomainError('VALIDATION_FAILED', 'ratingRange: "min-max", two whole ratings, min <= max (e.g. "1400-1700")');
      if (!rated) throw new DomainError('VALIDATION_FAILED', 'ratingRange applies to rated seeks only');
      ratingMin = Number(m[1]);
      ratingMax = Number(m[2]);
    }
    const turnTimeLimit = req.turnTimeLimit ?? null;
    const onExpiry = req.onExpiry ?? 'autoPlay';
    // The engine decides whether such a match can be made (options, clock, rated), exactly as createMatch would.
    const decision = decide(
      {
        type: 'create',
        preset,
        overrides,
        seats: [],
        createdBy: caller.username,
        seedCommitment: seedCommitment(DRY_RUN_SEED),
        settings: { turnTimeLimit, onExpiry, ...(rated ? { rated: true } : {}) },
      },
      initialState(DRY_RUN_SEED),
    );
    if (!decision.ok) throw DomainError.fromRejection(decision.rejection);
    const created = decision.events[0] as Extract<MatchEvent, { type: 'MatchCreated' }>;
    const options = created.options as unknown as Record<string, unknown>;
    const players = Number(options.players);
    const pool = rulesetId ?? preset;
    const rating = rated ? await this.ratingOf(pool, caller.username) : 1500;
    const bucket = createHash('sha256').update(canonicalJson({ preset, rulesetId, options, turnTimeLimit, onExpiry, rated })).digest('hex');
    return {
      bucket,
      preset,
      rulesetId,
      overrides,
      options,
      players,
      turnTimeLimit,
      onExpiry,
      rated,
      rating,
      ratingMin,
      ratingMax,
      correspondence: turnTimeLimit !== null && (durationSeconds(turnTimeLimit) ?? 0) >= CORRESPONDENCE_SECONDS,
    };
  }

  /** A player's rating in a pool (src/ratings), rounded; 1500 without one. */
  private ratingOf(pool: string, player: string): Promise<number> {
    return roundedRating(this.prisma, pool, player);
  }
}

export function toSeek(r: SeekRow): Seek {
  return {
    id: r.id,
    preset: r.preset,
    rulesetId: r.ruleset_id,
    overrides: r.overrides ?? {},
    options: r.options ?? {},
    players: r.players,
    teams: r.options?.teams === true,
    turnTimeLimit: r.turn_time_limit,
    onExpiry: r.on_expiry,
    rated: r.rated,
    ratingRange: r.rating_min !== null && r.rating_max !== null ? `${r.rating_min}-${r.rating_max}` : null,
    rating: r.rating,
    correspondence: r.correspondence,
    status: r.status,
    matchId: r.match_id,
    seat: r.seat,
    createdAt: new Date(r.created_at),
    endedAt: r.ended_at ? new Date(r.ended_at) : null,
  };
}
