/**
 * Direct challenges (lichess's /api/challenge): one account challenges
 * another to a two-player match with given rules and clock; the challenged
 * account accepts (the match is created and started), declines (with a
 * reason), or lets it expire (CHALLENGE_TTL); the challenger may cancel it.
 *
 * Durable and exactly-once: a challenge is a row; every answer is one guarded
 * UPDATE (`WHERE status = 'pending' AND expires_at > now()`), so of two
 * answers racing on two instances one wins and the other finds it answered.
 * The acceptance's UPDATE runs in the same transaction as the statement that
 * creates and starts the match (the one match maker, src/matches/match-maker.ts),
 * with the challenger's webhook outbox rows: a crash leaves the challenge pending and
 * no match, or the challenge accepted with its match in play, never half.
 *
 * Notices: the other party's PlayerEvent on playerChannel (challengeReceived,
 * challengeAccepted, challengeDeclined, challengeCanceled) and webhooks
 * (challenge_received, challenge_accepted, challenge_declined). A player's
 * pending challenges (in and out) are their challenge inbox (myChallenges).
 */
import { VacationsService } from '../vacations/vacations.service';
import { randomInt, randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { resolveRuleset, turnTimeLimitProblem } from '../engine';
import type { SeatSpec } from '../engine';
import { DomainError } from '../common/domain-error';
import type { Principal } from '../common/principal';
import { AccountsService } from '../auth/accounts.service';
import { PrismaService } from '../database/prisma.service';
import { ChallengesStore } from './challenges-store';
import type { ChallengeRow, ChallengeTerms } from './challenges-store';
import { MatchStore } from '../match-store/match-store';
import type { StoreTransaction } from '../match-store/match-store';
import { playerChannel } from '../realtime/channels';
import type { PlayerEvent } from '../inbox/player-events';
import { PUB_SUB } from '../realtime/realtime.module';
import type { PubSubEngine } from '../realtime/realtime.module';
import { CustomRulesetsService } from '../rulesets/custom-rulesets.service';
import { enqueueWebhooks } from '../webhooks/outbox';
import { enqueuePushes } from '../push/push-outbox';
import { MatchMaker } from '../matches/match-maker';
import { LobbyConfig } from '../config/slices';
import { RelationsService } from '../relations/relations.service';

export const ACCEPT_CHALLENGES = ['none', 'known', 'everyone'] as const;
export type AcceptChallenges = (typeof ACCEPT_CHALLENGES)[number];
/** The players' languages (the web client's, web/src/i18n.ts LANGUAGES): an account's `language` is one of them or null (none chosen). */
export const LANGUAGES = ['en', 'it', 'fr', 'es', 'ar'] as const;
export type Language = (typeof LANGUAGES)[number];
export const isLanguage = (value: unknown): value is Language => (LANGUAGES as readonly unknown[]).includes(value);

/** My account settings (GET /v1/account, accountSettings). */
export interface AccountSettings {
  acceptChallenges: AcceptChallenges;
  language: Language | null;
}

export type ChallengeStatus = 'pending' | 'accepted' | 'declined' | 'canceled' | 'expired';

/** Most pending challenges an account may have sent at once. */
export const MAX_PENDING_OUT = 20;

export interface ChallengeRequest {
  username: string;
  preset?: string;
  rulesetId?: string;
  overrides?: Record<string, unknown>;
  turnTimeLimit?: string | null;
  onExpiry?: 'autoPlay' | 'forfeit';
  rated?: boolean;
  /** The challenger's seat (0 or 1); absent: drawn at random when accepted. */
  seat?: number | null;
}

export interface ChallengeInfo extends ChallengeTerms {
  status: ChallengeStatus;
  declineReason: string | null;
  matchId: string | null;
  createdAt: Date;
  expiresAt: Date;
}

export interface MyChallenges {
  in: ChallengeInfo[];
  out: ChallengeInfo[];
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Lichess's decline reasons (a free text is refused: the challenger sees it). */
export const DECLINE_REASONS = ['generic', 'later', 'tooFast', 'tooSlow', 'timeControl', 'rated', 'casual', 'standard', 'variant', 'noBot', 'onlyBot'] as const;

function toInfo(r: ChallengeRow): ChallengeInfo {
  const expired = r.status === 'pending' && new Date(r.expires_at).getTime() <= Date.now();
  return {
    id: r.id,
    challenger: r.challenger,
    destUser: r.dest_user,
    preset: r.preset,
    rulesetId: r.ruleset_id,
    overrides: r.overrides ?? {},
    turnTimeLimit: r.turn_time_limit,
    onExpiry: r.on_expiry,
    rated: r.rated,
    seat: r.seat,
    status: (expired ? 'expired' : r.status) as ChallengeStatus,
    declineReason: r.decline_reason,
    matchId: r.match_id,
    createdAt: new Date(r.created_at),
    expiresAt: new Date(r.expires_at),
  };
}

/** A challenge as the event stream and webhooks carry it (JSON: ISO times). */
function wire(c: ChallengeInfo): Record<string, unknown> {
  return { ...c, createdAt: c.createdAt.toISOString(), expiresAt: c.expiresAt.toISOString() };
}

@Injectable()
export class ChallengesService {
  /** CHALLENGE_TTL (ISO 8601, default P1D): how long a challenge waits for an answer. */
  get ttlMs(): number {
    return this.lobby.CHALLENGE_TTL;
  }

  constructor(
    private readonly prisma: PrismaService,
    private readonly challenges: ChallengesStore,
    private readonly accounts: AccountsService,
    private readonly rulesets: CustomRulesetsService,
    private readonly maker: MatchMaker,
    private readonly store: MatchStore,
    @Inject(PUB_SUB) private readonly pubsub: PubSubEngine,
    private readonly lobby: LobbyConfig,
    private readonly relations: RelationsService,
    private readonly vacations: VacationsService,
  ) {}

  // ------------------------------------------------------------ settings

  async acceptChallenges(player: string): Promise<AcceptChallenges> {
    return ((await this.challenges.acceptChallenges(player)) ?? 'everyone') as AcceptChallenges;
  }

  /** My account settings as the API gives them. */
  async settings(player: string): Promise<AccountSettings> {
    const [acceptChallenges, language] = await Promise.all([this.acceptChallenges(player), this.challenges.language(player)]);
    return { acceptChallenges, language: isLanguage(language) ? language : null };
  }

  /**
   * Changes my account settings: each field given (language null forgets it), the others as they are
   * (acceptChallenges has no null: over GraphQL a null is taken as absent by the resolver).
   * Every field is checked before anything is written: a bad one changes nothing.
   */
  async updateSettings(caller: Principal, changes: { acceptChallenges?: unknown; language?: unknown }): Promise<AccountSettings> {
    if (changes.acceptChallenges !== undefined && !(ACCEPT_CHALLENGES as readonly unknown[]).includes(changes.acceptChallenges))
      throw new DomainError('VALIDATION_FAILED', `acceptChallenges: one of ${ACCEPT_CHALLENGES.join(', ')}`);
    if (changes.language !== undefined && changes.language !== null && !isLanguage(changes.language))
      throw new DomainError('VALIDATION_FAILED', `language: one of ${LANGUAGES.join(', ')}, or null`);
    if (changes.acceptChallenges !== undefined) await this.setAcceptChallenges(caller, changes.acceptChallenges);
    if (changes.language !== undefined) await this.challenges.setLanguage(caller.username, (changes.language as Language | null) ?? null);
    return this.settings(caller.username);
  }

  async setAcceptChallenges(caller: Principal, value: unknown): Promise<AcceptChallenges> {
    if (!(ACCEPT_CHALLENGES as readonly unknown[]).includes(value))
      throw new DomainError('VALIDATION_FAILED', `acceptChallenges: one of ${ACCEPT_CHALLENGES.join(', ')}`);
    await this.challenges.setAcceptChallenges(caller.username, value as AcceptChallenges);
    return value as AcceptChallenges;
  }

  /**
   * Whether two players have played a match together to a result: started,
   * and ended other than by an abort (whatever made it: lobby, challenge,
   * seek, rematch). A reserved seat, a match still in play, or one joined and
   * aborted before it started (a stranger's way in) is no acquaintance.
   */
  private async known(a: string, b: string): Promise<boolean> {
    return this.store.playedTogether(a, b);
  }

  // ------------------------------------------------------------ commands

  async challenge(caller: Principal, req: ChallengeRequest): Promise<ChallengeInfo> {
    const dest = String(req.username ?? '').toLowerCase();
    if (!dest) throw new DomainError('VALIDATION_FAILED', 'username: the account to challenge');
    if (dest === caller.username) throw new DomainError('VALIDATION_FAILED', 'you cannot challenge yourself');
    if (!(await this.accounts.exists(dest))) throw new DomainError('NOT_FOUND', `no account ${JSON.stringify(req.username)}`);
    // A block either way (docs/social.md "Blocks"): refused before anything else is checked or recorded.
    await this.relations.assertNotBlocked([caller.username, dest], 'a challenge');
    if (!req.preset && !req.rulesetId) throw new DomainError('VALIDATION_FAILED', 'give a preset or a rulesetId');
    if (req.rated && req.overrides && Object.keys(req.overrides).length > 0) {
      throw new DomainError('VALIDATION_FAILED', 'a rated match takes no overrides: save them as a ruleset and rate that');
    }
    if (req.rated) await this.maker.assertMayPlayRated([caller.username]);
    const turnTimeLimit = req.turnTimeLimit ?? null;
    const limitProblem = turnTimeLimitProblem(turnTimeLimit);
    if (limitProblem) throw new DomainError('VALIDATION_FAILED', limitProblem);
    // The rules as the match would be played: checked now, so that an acceptance never fails on them.
    let preset = req.preset ?? null;
    let overrides = req.overrides ?? {};
    if (req.rulesetId) {
      const saved = await this.rulesets.resolveForMatch(req.rulesetId);
      if (preset && preset !== saved.preset) throw new DomainError('VALIDATION_FAILED', `the ruleset is based on ${saved.preset}, not ${preset}`);
      preset = saved.preset;
      overrides = { ...saved.overrides, ...overrides };
    }
    const resolved = resolveRuleset(preset as string, overrides);
    if (!resolved.ok) throw new DomainError('INVALID_RULESET', resolved.error.message, { option: resolved.error.option });
    if (resolved.ruleset.options.players !== 2)
      throw new DomainError('VALIDATION_FAILED', 'a challenge is for a two-player match (create a match with reserved seats for more)');
    if (req.seat !== undefined && req.seat !== null && req.seat !== 0 && req.seat !== 1)
      throw new DomainError('VALIDATION_FAILED', 'seat: 0, 1, or absent for a random seat');

    const setting = await this.acceptChallenges(dest);
    if (setting === 'none' || (setting === 'known' && !(await this.known(dest, caller.username)))) {
      throw new DomainError('CHALLENGE_REFUSED', `${dest} does not accept challenges${setting === 'known' ? ' from players they have not played' : ''}`, {
        acceptChallenges: setting,
      });
    }
    // A player on vacation is away: challenges to them are refused until it ends (docs/async-play.md "Vacations").
    const away = (await this.vacations.onVacationUntil([dest])).get(dest);
    if (away) {
      throw new DomainError('CHALLENGE_REFUSED', `${dest} is on vacation until ${away.toISOString()}`, { onVacationUntil: away.toISOString() });
    }

    const id = randomUUID();
    const row = await this.prisma.$transaction(
      async (tx) => {
        // One challenger's creations one at a time, so that the count below holds the limit.
        await this.challenges.lockChallenger(tx, caller.username);
        const made = await this.challenges.insert(
          tx,
          {
            id,
            challenger: caller.username,
            destUser: dest,
            preset: req.rulesetId ? null : preset,
            rulesetId: req.rulesetId ?? null,
            overrides: req.overrides ?? {},
            turnTimeLimit,
            onExpiry: req.onExpiry ?? 'autoPlay',
            rated: req.rated === true,
            seat: req.seat ?? null,
            ttlMs: this.ttlMs,
          },
          MAX_PENDING_OUT,
        );
        if (made) {
          const received: { player: string; event: PlayerEvent }[] = [{ player: dest, event: { type: 'challengeReceived', challenge: wire(toInfo(made)) } }];
          await enqueueWebhooks(tx, received);
          await enqueuePushes(tx, received);
        }
        return made;
      },
      { maxWait: 15_000, timeout: 15_000 },
    );
    if (!row) throw new DomainError('LIMIT_REACHED', `at most ${MAX_PENDING_OUT} pending challenges at once`, { limit: MAX_PENDING_OUT });
    const info = toInfo(row);
    await this.notify(dest, { type: 'challengeReceived', challenge: wire(info) });
    return info;
  }

  /** Accepts a challenge made to me: the match is created with both seats taken and started, in the transaction that marks the challenge accepted. */
  async accept(caller: Principal, id: string): Promise<ChallengeInfo> {
    const c = await this.find(id);
    if (c.destUser !== caller.username) throw this.notYours(c, caller);
    this.mustBePending(c);
    // A block made since the challenge was sent: no match between them (the challenge stays pending until it expires or is answered otherwise).
    await this.relations.assertNotBlocked([c.challenger, c.destUser], 'a challenge');
    const challengerSeat = c.seat ?? randomInt(2);
    const seats: SeatSpec[] = [];
    seats[challengerSeat] = { player: c.challenger };
    seats[1 - challengerSeat] = { player: c.destUser };
    const settings = { turnTimeLimit: c.turnTimeLimit, onExpiry: c.onExpiry as 'autoPlay' | 'forfeit', ...(c.rated ? { rated: true } : {}) };
    let matchId = '';
    // Made and started by the one match maker (at once, or once both client seeds are in), in the transaction that claims the challenge.
    await this.maker.make({
      rules: { preset: c.preset, overrides: c.overrides, rulesetId: c.rulesetId },
      seats,
      createdBy: c.challenger,
      settings,
      startBy: c.challenger,
      // SKIP LOCKED: of answers racing, the others do not queue behind the one under way (each would hold a pooled connection): they are refused at once.
      before: async (tx) => {
        if (!(await this.challenges.claim(tx, c.id, 'accepted', null))) throw await this.answered(tx, c.id);
      },
      after: async (tx, made) => {
        matchId = made;
        await this.challenges.setMatch(tx, c.id, made);
      },
      announce: (made) => [
        { player: c.challenger, event: { type: 'challengeAccepted', challenge: wire({ ...c, status: 'accepted', matchId: made }), matchId: made } },
      ],
    });
    const info: ChallengeInfo = { ...c, status: 'accepted', matchId };
    return info;
  }

  async decline(caller: Principal, id: string, reason: string | undefined): Promise<ChallengeInfo> {
    const why = reason ?? 'generic';
    if (!(DECLINE_REASONS as readonly string[]).includes(why)) throw new DomainError('VALIDATION_FAILED', `reason: one of ${DECLINE_REASONS.join(', ')}`);
    const c = await this.find(id);
    if (c.destUser !== caller.username) throw this.notYours(c, caller);
    const info = await this.answer(c, 'declined', why, async (tx, answered) =>
      enqueueWebhooks(tx, [{ player: c.challenger, event: { type: 'challengeDeclined', challenge: wire(answered) } }]),
    );
    await this.notify(c.challenger, { type: 'challengeDeclined', challenge: wire(info) });
    return info;
  }

  async cancel(caller: Principal, id: string): Promise<ChallengeInfo> {
    const c = await this.find(id);
    if (c.challenger !== caller.username) throw this.notYours(c, caller);
    const info = await this.answer(c, 'canceled', null);
    await this.notify(c.destUser, { type: 'challengeCanceled', challenge: wire(info) });
    return info;
  }

  private async answer(
    c: ChallengeInfo,
    status: 'declined' | 'canceled',
    reason: string | null,
    also?: (tx: StoreTransaction, answered: ChallengeInfo) => Promise<void>,
  ): Promise<ChallengeInfo> {
    this.mustBePending(c);
    const answered: ChallengeInfo = { ...c, status, declineReason: reason };
    await this.prisma.$transaction(
      async (tx) => {
        if (!(await this.challenges.claim(tx, c.id, status, reason))) throw await this.answered(tx, c.id);
        if (also) await also(tx, answered);
      },
      { maxWait: 15_000, timeout: 15_000 },
    );
    return answered;
  }

  /** Why a claim found nothing: the challenge's status now (read on the same connection), or another answer under way. */
  private async answered(tx: StoreTransaction, id: string): Promise<DomainError> {
    const row = await this.challenges.find(id, tx);
    const status = row ? toInfo(row).status : 'pending';
    return status === 'pending'
      ? new DomainError('CONFLICT', 'another answer to this challenge is under way', { challengeStatus: 'pending' })
      : new DomainError('CONFLICT', `this challenge is ${status}`, { challengeStatus: status });
  }

  // ------------------------------------------------------------ reading

  /** A challenge, to its two parties only (NOT_FOUND to anyone else, as for an unknown id). */
  async get(caller: Principal, id: string): Promise<ChallengeInfo> {
    const c = await this.find(id);
    if (c.challenger !== caller.username && c.destUser !== caller.username) throw new DomainError('NOT_FOUND', `no challenge ${id}`);
    return c;
  }

  /** My pending challenges, received (in) and sent (out), newest first. */
  async mine(caller: Principal): Promise<MyChallenges> {
    const all = (await this.challenges.pendingOf(caller.username)).map(toInfo);
    return { in: all.filter((c) => c.destUser === caller.username), out: all.filter((c) => c.challenger === caller.username) };
  }

  private async find(id: string): Promise<ChallengeInfo> {
    const row = UUID.test(id) ? await this.challenges.find(id) : undefined;
    if (!row) throw new DomainError('NOT_FOUND', `no challenge ${id}`);
    return toInfo(row);
  }

  private mustBePending(c: ChallengeInfo): void {
    if (c.status !== 'pending') throw new DomainError('CONFLICT', `this challenge is ${c.status}`, { challengeStatus: c.status });
  }

  private notYours(c: ChallengeInfo, caller: Principal): DomainError {
    // A stranger learns nothing of someone else's challenge.
    if (c.challenger !== caller.username && c.destUser !== caller.username) return new DomainError('NOT_FOUND', `no challenge ${c.id}`);
    return new DomainError(
      'FORBIDDEN',
      c.challenger === caller.username ? 'only the challenged player answers a challenge' : 'only the challenger cancels a challenge',
    );
  }

  private async notify(player: string, event: PlayerEvent): Promise<void> {
    try {
      await this.pubsub.publish(playerChannel(player), event);
    } catch {
      // a live notice is best effort: the row and the webhook outbox are the durable record
    }
  }
}
