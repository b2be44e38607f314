/** Ratings for the transports: profiles, rating history, leaderboards, head-to-head records (the rows read through ./rating-store.ts). */
import { VacationsService } from '../vacations/vacations.service';
import { Injectable } from '@nestjs/common';
import { BOT_LEVELS } from '../engine';
import { DomainError } from '../common/domain-error';
import { PrismaService } from '../database/prisma.service';
import { ReadReplica } from '../database/read-replica';
import { AccountsService } from '../auth/accounts.service';
import { GLICKO, isProvisional } from './glicko';
import { RatingStore } from './rating-store';
import { ratingPeriodMsFromEnv } from './rating-period';
import { RatingsConfig } from '../config/slices';

export const LEADERBOARD_DEFAULT = 10;
export const LEADERBOARD_MAX = 100;
/** Points of a rating history: the most recent ones. */
export const HISTORY_MAX = 1000;
/** Matches listed in a crosstable. */
export const CROSSTABLE_LAST = 10;

export interface PoolRating {
  ruleset: string;
  rating: number;
  rd: number;
  volatility: number;
  games: number;
  provisional: boolean;
  wins: number;
  losses: number;
  draws: number;
  lastRatedAt: Date;
}

export interface UserProfile {
  username: string;
  /** A bot level's pseudo-account (bot:greedy). */
  bot: boolean;
  /** When the account was made; null for a bot level. */
  memberSince: Date | null;
  wins: number;
  losses: number;
  draws: number;
  ratings: PoolRating[];
  /** When the player's vacation ends (docs/async-play.md "Vacations"); null when not on vacation, and for a bot level. */
  onVacationUntil: Date | null;
}

export interface RatingPoint {
  matchId: string;
  time: Date;
  ratingBefore: number;
  rating: number;
  rd: number;
  volatility: number;
  result: string;
}

export interface LeaderboardEntry {
  rank: number;
  username: string;
  rating: number;
  rd: number;
  games: number;
}

export interface CrosstablePool {
  ruleset: string;
  wins: number;
  losses: number;
  draws: number;
}

export interface CrosstableMatch {
  matchId: string;
  ruleset: string;
  endedAt: Date;
  /** For the first player: win | loss | draw. */
  result: string;
  ratingBefore: number;
  ratingAfter: number;
}

export interface Crosstable {
  a: string;
  b: string;
  wins: number;
  losses: number;
  draws: number;
  pools: CrosstablePool[];
  lastMatches: CrosstableMatch[];
}

/** A stored rating row as players read it (a profile, a team's member list). */
function poolRating(r: Awaited<ReturnType<RatingStore['ratingsOf']>>[number]): PoolRating {
  return {
    ruleset: r.pool,
    rating: r.rating,
    rd: r.rd,
    volatility: r.volatility,
    games: r.games,
    provisional: isProvisional(r),
    wins: r.wins,
    losses: r.losses,
    draws: r.draws,
    lastRatedAt: r.lastRatedAt,
  };
}

@Injectable()
export class RatingsService extends RatingStore {
  constructor(
    prisma: PrismaService,
    private readonly accounts: AccountsService,
    config: RatingsConfig,
    replica: ReadReplica,
    private readonly vacations: VacationsService,
  ) {
    // Profiles, histories, leaderboards and crosstables read the replica when there is one (docs/operations.md "Read replicas").
    super(prisma, { periodMs: ratingPeriodMsFromEnv(config), reads: replica });
  }

  /** A username or bot level as rated players are named; NOT_FOUND unless it is an account or a bot level. */
  private async player(username: string): Promise<{ id: string; memberSince: Date | null; bot: boolean }> {
    const id = String(username ?? '').toLowerCase();
    if (id.startsWith('bot:')) {
      if ((BOT_LEVELS as readonly string[]).includes(id.slice(4))) return { id, memberSince: null, bot: true };
    } else if (id.length > 0 && id.length <= 64) {
      const account = await this.accounts.byUsername(id);
      if (account) return { id, memberSince: account.createdAt, bot: false };
    }
    throw new DomainError('NOT_FOUND', `no user ${JSON.stringify(username)}`);
  }

  async profile(username: string): Promise<UserProfile> {
    const who = await this.player(username);
    const rows = await this.ratingsOf(who.id);
    const ratings = rows.map(poolRating);
    const sum = (k: 'wins' | 'losses' | 'draws') => ratings.reduce((n, r) => n + r[k], 0);
    const onVacationUntil = who.bot ? null : ((await this.vacations.onVacationUntil([who.id])).get(who.id) ?? null);
    return {
      username: who.id,
      bot: who.bot,
      memberSince: who.memberSince,
      wins: sum('wins'),
      losses: sum('losses'),
      draws: sum('draws'),
      ratings,
      onVacationUntil,
    };
  }

  /**
   * The ratings of several players at once (a team's member list), each player's as in a profile, at most `perPlayer`
   * of them (those of the most rated matches first); a player without a rating has an empty list.
   */
  async poolRatingsOf(players: readonly string[], perPlayer: number): Promise<Map<string, PoolRating[]>> {
    const out = new Map<string, PoolRating[]>(players.map((p) => [p, []]));
    for (const r of await this.ratingsOfMany(players)) {
      out.get(r.player)?.push(poolRating(r));
    }
    for (const [p, list] of out) out.set(p, list.sort((a, b) => b.games - a.games || a.ruleset.localeCompare(b.ruleset)).slice(0, perPlayer));
    return out;
  }

  /** One point per rated match in the pool, oldest first (at most the last HISTORY_MAX). */
  async history(username: string, ruleset: string): Promise<RatingPoint[]> {
    const who = await this.player(username);
    checkRuleset(ruleset);
    const rows = await this.changesOf(who.id, ruleset, HISTORY_MAX);
    return rows.reverse().map((r) => ({
      matchId: r.matchId,
      time: r.endedAt,
      ratingBefore: r.ratingBefore,
      rating: r.ratingAfter,
      rd: r.rdAfter,
      volatility: r.volatilityAfter,
      result: r.result,
    }));
  }

  /** The best established ratings of a pool (provisional ones are left out), ranked from 1. */
  async leaderboard(ruleset: string, limit: number = LEADERBOARD_DEFAULT): Promise<LeaderboardEntry[]> {
    checkRuleset(ruleset);
    if (!Number.isSafeInteger(limit) || limit < 1 || limit > LEADERBOARD_MAX) {
      throw new DomainError('VALIDATION_FAILED', `limit: an integer in 1..${LEADERBOARD_MAX}`);
    }
    const rows = await this.best(ruleset, GLICKO.provisionalRd, limit);
    return rows.map((r, i) => ({ rank: i + 1, username: r.player, rating: r.rating, rd: r.rd, games: r.games }));
  }

  /** Head to head, from a's side: wins, losses and draws against b in rated matches, per pool, and the last matches. */
  async crosstable(a: string, b: string): Promise<Crosstable> {
    const x = await this.player(a);
    const y = await this.player(b);
    if (x.id === y.id) throw new DomainError('VALIDATION_FAILED', 'a crosstable is between two different players');
    const { pools, matches: last } = await this.headToHead(x.id, y.id, CROSSTABLE_LAST);
    const perPool = pools.map((p) => ({ ruleset: p.pool, wins: Number(p.wins), losses: Number(p.losses), draws: Number(p.draws) }));
    const sum = (k: 'wins' | 'losses' | 'draws') => perPool.reduce((n, p) => n + p[k], 0);
    return {
      a: x.id,
      b: y.id,
      wins: sum('wins'),
      losses: sum('losses'),
      draws: sum('draws'),
      pools: perPool,
      lastMatches: last.map((m) => ({
        matchId: m.match_id,
        ruleset: m.pool,
        endedAt: m.ended_at,
        result: m.rank_a < m.rank_b ? 'win' : m.rank_a > m.rank_b ? 'loss' : 'draw',
        ratingBefore: Number(m.rating_before),
        ratingAfter: Number(m.rating_after),
      })),
    };
  }
}

function checkRuleset(ruleset: string): void {
  if (typeof ruleset !== 'string' || ruleset.length < 1 || ruleset.length > 100)
    throw new DomainError('VALIDATION_FAILED', 'ruleset: a preset id or a saved ruleset id');
}
