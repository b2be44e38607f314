/**
 * The one way a match is made: every maker (a person's create, a challenge's
 * acceptance, seek pairing, a rematch) describes the match it wants as a
 * MatchOrder, and this service
 * 1. resolves its rules: a preset and overrides, or a saved ruleset read here
 *    (CustomRulesetsService.forMatch: read once per attempt, locked by the
 *    create statement), or a version the caller holds already (a seek's);
 * 2. seats it (given seats, or an order drawn from the match seed's entropy);
 * 3. when every seat is taken and `startBy` is given, starts it: in the same
 *    statement that creates it, or, with a client-seed window
 *    (CLIENT_SEED_WINDOW, docs/fairness.md "Player-contributed seeds"), as a pending
 *    start in the same transaction, which deals when the seeds are in
 *    (src/clocks/pending-starts.ts);
 * 4. writes, in that same transaction, the maker's own rows (a claim before,
 *    a record after) and the webhooks of its announcements
 *    (src/webhooks/outbox.ts), so that a crash leaves all or nothing;
 * 5. after the commit publishes the announcements on the players' channels,
 *    then runs the store's reactions (src/reactions/after-append.ts) and waits
 *    for them (MatchStore.settled).
 * A match with no human seat counts toward its creator's bots-only limit
 * (src/bots/bot-match-limit.ts). A rated match is refused when a seat of it
 * could never fill (reserved for a player who sits already) and when its
 * creator or a player seated in it is suspended from rated play
 * (src/ratings/rated-play.ts; makers that take a rated request before the
 * match, seeks and challenges, ask `assertMayPlayRated` then too).
 */
import { Inject, Injectable } from '@nestjs/common';
import type { MatchSettings, SeatSpec } from '../engine';
import { DomainError } from '../common/domain-error';
import { PrismaService } from '../database/prisma.service';
import { MatchStore } from '../match-store/match-store';
import type { CommandResult, CreateMatchInput, StoreTransaction, TransactionalCreate } from '../match-store/match-store';
import type { RulesetVersionRef } from '../match-store/event-store';
import { PendingStarts } from '../clocks/pending-starts';
import { playerChannel } from '../realtime/channels';
import type { PlayerEvent } from '../inbox/player-events';
import { PUB_SUB } from '../realtime/realtime.module';
import type { PubSubEngine } from '../realtime/realtime.module';
import { CustomRulesetsService } from '../rulesets/custom-rulesets.service';
import { RatedPlay } from '../ratings/rated-play';
import { BotMatchLimit, botsOnly } from '../bots/bot-match-limit';
import { enqueueWebhooks } from '../webhooks/outbox';

/**
 * The rules of the match: a preset with overrides; or a saved ruleset by id
 * (its preset, its overrides under `overrides`; a `preset` given too must be
 * the ruleset's); or a saved version the caller already holds (`ruleset`).
 */
export interface MatchRules {
  preset?: string | null;
  overrides?: Record<string, unknown>;
  rulesetId?: string | null;
  ruleset?: RulesetVersionRef | null;
}

/** An event that announces the new match to a player. */
export interface Announcement {
  player: string;
  event: PlayerEvent;
}

export interface MatchOrder {
  rules: MatchRules;
  seats?: SeatSpec[];
  /** Seats drawn from the new match's seed entropy instead of `seats` (seek pairing). */
  arrangeSeats?: CreateMatchInput['arrangeSeats'];
  createdBy: string;
  settings?: Partial<MatchSettings>;
  visibility?: 'public' | 'private';
  /** Every seat is taken: start the match in this player's name (at once, or once the client seeds are in). Absent: it stays open. */
  startBy?: string;
  /** The maker's own write before the match, in its transaction (a claim that may refuse). */
  before?: (tx: StoreTransaction) => Promise<void>;
  /** The maker's own write after the match, in its transaction. */
  after?: (tx: StoreTransaction, matchId: string) => Promise<void>;
  /** The events that announce the match (their webhooks written in its transaction, published after the commit). */
  announce?: (matchId: string) => Announcement[];
  /**
   * The server seed, given (a duplicate tournament table: every table of the
   * round shares it, src/tournaments/duplicate-seed.ts). With `startBy` the
   * match then starts at once, without waiting for client seeds: a seat's
   * seed would change its deck, and the players' seeds are in the given seed.
   */
  seed?: Uint8Array;
}

/** A match made inside the caller's transaction: `publish()` after the commit announces it and runs its reactions. */
export interface MadeInTransaction {
  result: CommandResult;
  publish(): Promise<CommandResult>;
}

@Injectable()
export class MatchMaker {
  constructor(
    private readonly prisma: PrismaService,
    private readonly store: MatchStore,
    private readonly rulesets: CustomRulesetsService,
    private readonly starts: PendingStarts,
    private readonly botMatches: BotMatchLimit,
    private readonly ratedPlay: RatedPlay,
    @Inject(PUB_SUB) private readonly pubsub: PubSubEngine,
  ) {}

  /** RATED_PLAY_SUSPENDED when one of these players may not play rated now (src/ratings/rated-play.ts). */
  assertMayPlayRated(players: readonly string[]): Promise<void> {
    return this.ratedPlay.check(players);
  }

  /** Makes the match (in its own transaction when the order needs one), announces it, and waits for its reactions. */
  async make(order: MatchOrder): Promise<CommandResult> {
    if (order.settings?.rated === true) {
      const seats = order.seats ?? [];
      refuseSeatsThatCannotFill(seats);
      await this.assertMayPlayRated([order.createdBy, ...seats.flatMap((s) => (s.player && !s.bot ? [s.player] : []))]);
    }
    // A bots-only match is counted against BOT_MATCHES_PER_ACCOUNT in its creating transaction (src/bots/bot-match-limit.ts).
    const bots = botsOnly(order.seats ?? []);
    const transactional = bots || !!(order.before || order.after || order.announce || (order.startBy !== undefined && this.waitsForSeeds() && !order.seed));
    const made = await this.withRules(
      order.rules,
      async (input): Promise<{ result: CommandResult; publish?: TransactionalCreate['publish']; announced: Announcement[] }> => {
        if (!transactional) return { result: await this.store.create(this.input(order, input)), announced: [] };
        return this.prisma.$transaction(
          async (tx) => {
            if (bots) await this.botMatches.check(tx, order.createdBy, order.seats ?? []);
            await order.before?.(tx);
            return this.inTransaction(tx, order, input);
          },
          // A burst (many acceptances at once) waits for a pooled connection rather than failing after Prisma's 2 s.
          { maxWait: 15_000, timeout: 15_000 },
        );
      },
    );
    return this.published(made);
  }

  /**
   * Makes the match with the caller's transaction `tx` (seek pairing makes
   * many under one lock); nothing is published until the caller, after its
   * commit, calls `publish()`. The rules must be resolved already (a preset,
   * or `ruleset`): no ruleset is read inside a transaction.
   */
  async makeInTransaction(tx: StoreTransaction, order: MatchOrder): Promise<MadeInTransaction> {
    if (order.rules.rulesetId && !order.rules.ruleset) throw new Error('makeInTransaction: give the ruleset version, not its id');
    await order.before?.(tx);
    const made = await this.inTransaction(tx, order, this.rulesOf(order.rules, order.rules.ruleset ?? null));
    return { result: made.result, publish: () => this.published(made) };
  }

  private waitsForSeeds(): boolean {
    return this.starts.windowMs > 0;
  }

  private async inTransaction(tx: StoreTransaction, order: MatchOrder, rules: ResolvedRules) {
    const created = await this.store.createInTransaction(tx, this.input(order, rules));
    const matchId = created.result.matchId;
    await order.after?.(tx, matchId);
    // The start waits for the client seeds: a pending start of the starter (a durable row: any instance's scheduler issues it).
    if (order.startBy !== undefined && this.waitsForSeeds() && !order.seed) {
      await this.starts.recordInTransaction(tx, matchId, created.result.seq, order.startBy);
    }
    const announced = order.announce?.(matchId) ?? [];
    await enqueueWebhooks(tx, announced);
    return { result: created.result, publish: created.publish, announced };
  }

  private input(order: MatchOrder, rules: ResolvedRules): CreateMatchInput {
    return {
      ...rules,
      ...(order.arrangeSeats ? { arrangeSeats: order.arrangeSeats } : { seats: order.seats }),
      createdBy: order.createdBy,
      settings: order.settings,
      visibility: order.visibility,
      ...(order.startBy !== undefined && (!this.waitsForSeeds() || order.seed) ? { startBy: order.startBy } : {}),
      ...(order.seed ? { seed: order.seed } : {}),
    };
  }

  /** Runs `create` with the rules resolved: a saved ruleset by id is read (and re-read when it changed meanwhile: forMatch). */
  private withRules<T>(rules: MatchRules, create: (rules: ResolvedRules) => Promise<T>): Promise<T> {
    if (rules.rulesetId && !rules.ruleset) {
      return this.rulesets.forMatch(rules.rulesetId, (ruleset) => {
        if (rules.preset && rules.preset !== ruleset.preset)
          throw new DomainError('VALIDATION_FAILED', `the ruleset is based on ${ruleset.preset}, not ${rules.preset}`);
        return create(this.rulesOf(rules, ruleset));
      });
    }
    return create(this.rulesOf(rules, rules.ruleset ?? null));
  }

  private rulesOf(rules: MatchRules, ruleset: RulesetVersionRef | null): ResolvedRules {
    if (!ruleset) return { preset: rules.preset ?? undefined, overrides: rules.overrides, ruleset: null };
    // A version held already (a seek's) is played as it is; one read here takes the order's overrides over its own.
    if (rules.ruleset) return { preset: ruleset.preset, overrides: ruleset.overrides, ruleset };
    return { preset: ruleset.preset, overrides: { ...ruleset.overrides, ...(rules.overrides ?? {}) }, ruleset };
  }

  /** After the commit: the announcements, then the reactions (waited for). */
  private async published(made: { result: CommandResult; publish?: () => CommandResult; announced: Announcement[] }): Promise<CommandResult> {
    await Promise.all(made.announced.map((a) => this.pubsub.publish(playerChannel(a.player), a.event).catch(() => undefined)));
    const result = made.publish ? made.publish() : made.result;
    await this.store.settled(result);
    return result;
  }
}

type ResolvedRules = Pick<CreateMatchInput, 'preset' | 'overrides' | 'ruleset'>;

/**
 * A rated match whose seats could never fill: a seat reserved for a player who
 * sits at another seat already, or for whom another seat is reserved (one
 * player holds one seat). Such a match counts a person to come where none can
 * come. VALIDATION_FAILED naming the seat.
 */
function refuseSeatsThatCannotFill(seats: readonly SeatSpec[]): void {
  const holder = new Map<string, number>();
  seats.forEach((s, seat) => {
    const who = (s.bot ? null : (s.player ?? s.reservedFor ?? null))?.toLowerCase();
    if (!who) return;
    const first = holder.get(who);
    if (first === undefined) {
      holder.set(who, seat);
      return;
    }
    // Name the reserved seat of the two (the one that waits for nobody).
    const [reserved, other] = seats[seat].player ? [first, seat] : [seat, first];
    const how = seats[other].player ? 'sits' : 'has a seat reserved';
    throw new DomainError(
      'VALIDATION_FAILED',
      `seats[${reserved}]: reserved for ${who}, who ${how} at seat ${other} already: a rated match whose seats could never fill`,
      { seat: reserved },
    );
  });
}
