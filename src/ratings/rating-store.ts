/**
 * Ratings as a projection of the logs of rated matches: `record` takes one
 * finished match into them (once: the rated_matches key), `rebuild` wipes
 * them and records every rated match again in match-end order, through the
 * same code, so both give the same numbers. Plain class (RatingsService wraps
 * it for Nest; scripts/ratings-rebuild.ts uses it as it is).
 */
import type { MatchEvent } from '../engine';
import { prismaRowReader } from '../database/database';
import type { Prisma } from '../database/database';
import { primaryReads } from '../database/read-replica';
import type { ReadRouter } from '../database/read-replica';
import { afterInactivity, INITIAL_RATING, ratePeriod } from './glicko';
import type { Rating } from './glicko';
import { isRatedLog, ratedAttendance, ratedMatchVerdict } from './rated-match';
import type { ExportRatingChange } from '../match-formats/export';
import { MatchArchive } from '../match-store/match-archive';

/** Many ends recorded at once (two instances, a rebuild beside the live path) wait for a pooled connection rather than failing after Prisma's 2 s. */
const TRANSACTION = { maxWait: 15_000, timeout: 15_000 };

/** The events the ratings read from a log. */
const READ_TYPES = ['MatchCreated', 'SeatTaken', 'MatchStarted', 'CardPlayed', 'SeatResigned', 'SeatForfeited', 'MatchAborted', 'MatchEnded'];

export type RecordOutcome = 'rated' | 'not counted' | 'already recorded' | 'unrated' | 'not over';

/** A rating change as a match shows it (the same shape its export carries). */
export type MatchRatingChange = ExportRatingChange;

export interface RatingStoreOptions {
  /** RATING_PERIOD in milliseconds. */
  periodMs: number;
  /**
   * Where the lag-tolerant reads of the transports (profiles, histories, leaderboards, crosstables) run: the read
   * replica (ReadReplica) when given, else `prisma`. Recording and what it reads stay on `prisma`.
   */
  reads?: ReadRouter;
}

/** The rating pool of a match: its saved ruleset's id, else its preset's id. */
export function poolOf(match: { preset: string; rulesetId: string | null }): string {
  return match.rulesetId ?? match.preset;
}

/** A player's rating in a pool, rounded; 1500 without one (a seek's rating: src/lobby). */
export async function roundedRating(prisma: Pick<Prisma, 'rating'>, pool: string, player: string): Promise<number> {
  const row = await prisma.rating.findUnique({ where: { pool_player: { pool, player } }, select: { rating: true } });
  return Math.round(row?.rating ?? 1500);
}

export class RatingStore {
  /** The logs are read through the match archive (the store's tables are read in src/match-store only). */
  private readonly archive: MatchArchive;
  private readonly reads: ReadRouter;

  constructor(
    readonly prisma: Prisma,
    readonly options: RatingStoreOptions,
  ) {
    this.archive = new MatchArchive(prisma);
    this.reads = options.reads ?? primaryReads({ prisma, rows: prismaRowReader(prisma) });
  }

  /** Takes a finished rated match into the ratings; a no-op for anything else and for a match already taken. */
  async record(matchId: string): Promise<RecordOutcome> {
    const log = await this.archive.ratingLog(matchId, READ_TYPES);
    const match = log?.match;
    if (!match || match.status !== 'over') return 'not over';
    // An imported match (played elsewhere) is never rated.
    if (match.imported) return 'unrated';
    const rows = log.events;
    const events = rows.map((r) => ({ type: r.type, ...(r.payload as Record<string, unknown>) }) as MatchEvent);
    if (!isRatedLog(events[0])) return 'unrated';
    const last = rows[rows.length - 1];
    if (last.type !== 'MatchEnded') return 'not over';
    const endedAt = last.createdAt;
    const pool = poolOf(match);
    const verdict = ratedMatchVerdict(events);
    const attendance = ratedAttendance(events);

    return this.prisma.$transaction(async (tx) => {
      // The match's key first: a second instance (or a retry) waits here, then finds it taken and does nothing.
      const taken = await tx.$executeRaw`
        INSERT INTO rated_matches (match_id, pool, ended_at, counted, reason)
        VALUES (${matchId}::uuid, ${pool}, ${endedAt}, ${verdict.counted}, ${verdict.counted ? null : verdict.reason})
        ON CONFLICT (match_id) DO NOTHING`;
      if (taken === 0) return 'already recorded';
      // Who took part, and who left before every side played (the rated-play suspension reads these).
      if (attendance.participants.length > 0) {
        await tx.ratedPlayer.createMany({
          data: attendance.participants.map((player) => ({ matchId, player, pool, endedAt, leftEarly: attendance.leftEarly.includes(player) })),
          skipDuplicates: true,
        });
      }
      if (!verdict.counted) return 'not counted';

      const players = verdict.players.map((p) => p.player); // sorted: rows are locked in one order, no deadlock
      await tx.rating.createMany({
        data: players.map((player) => ({ pool, player, ...ratingColumns(INITIAL_RATING), lastRatedAt: endedAt })),
        skipDuplicates: true,
      });
      const before = new Map<string, Rating>();
      for (const player of players) {
        const [row] = await tx.$queryRaw<{ rating: number; rd: number; volatility: number; games: number; last_rated_at: Date }[]>`
          SELECT rating, rd, volatility, games, last_rated_at FROM ratings WHERE pool = ${pool} AND player = ${player} FOR UPDATE`;
        const current = { rating: Number(row.rating), rd: Number(row.rd), volatility: Number(row.volatility) };
        // RD grows once per whole rating period since the player's last rated match (a first match: none).
        before.set(player, Number(row.games) === 0 ? current : afterInactivity(current, row.last_rated_at, endedAt, this.options.periodMs));
      }
      const after = ratePeriod(before, verdict.games);
      for (const p of verdict.players) {
        const next = after.get(p.player)!;
        await tx.rating.update({
          where: { pool_player: { pool, player: p.player } },
          data: {
            ...ratingColumns(next),
            games: { increment: 1 },
            wins: { increment: p.result === 'win' ? 1 : 0 },
            losses: { increment: p.result === 'loss' ? 1 : 0 },
            draws: { increment: p.result === 'draw' ? 1 : 0 },
            lastRatedAt: endedAt,
          },
        });
      }
      await tx.ratingChange.createMany({
        data: verdict.players.map((p) => {
          const b = before.get(p.player)!;
          const a = after.get(p.player)!;
          return {
            matchId,
            player: p.player,
            pool,
            side: p.side,
            rank: p.rank,
            result: p.result,
            ratingBefore: b.rating,
            rdBefore: b.rd,
            volatilityBefore: b.volatility,
            ratingAfter: a.rating,
            rdAfter: a.rd,
            volatilityAfter: a.volatility,
            endedAt,
          };
        }),
      });
      return 'rated';
    }, TRANSACTION);
  }

  /**
   * Forgets every rating and takes every finished rated match again, in the
   * order the matches ended (the end event's time, then the match id).
   */
  async rebuild(onProgress?: (done: number, total: number) => void): Promise<{ matches: number; rated: number }> {
    await this.prisma.$transaction([
      this.prisma.ratingChange.deleteMany(),
      this.prisma.ratedPlayer.deleteMany(),
      this.prisma.ratedMatch.deleteMany(),
      this.prisma.rating.deleteMany(),
    ]);
    const ids = await this.archive.ratedFinished();
    let rated = 0;
    for (const [i, id] of ids.entries()) {
      if ((await this.record(id)) === 'rated') rated++;
      onProgress?.(i + 1, ids.length);
    }
    return { matches: ids.length, rated };
  }

  // ------------------------------------------------------------ reading

  /** The player's rating in the pool, null without one; `db`: a caller's transaction (a tournament's join reads it under its lock). */
  async ratingIn(pool: string, player: string, db: Pick<Prisma, '$queryRawUnsafe'> = this.prisma): Promise<number | null> {
    const rows = await db.$queryRawUnsafe<{ rating: number }[]>(`SELECT rating FROM ratings WHERE pool = $1 AND player = $2`, pool, player);
    return rows[0]?.rating ?? null;
  }

  // The four reads below are the transports' (profile, history, leaderboard, crosstable): lag-tolerant, on the replica.

  /** The player's ratings, one per pool, by pool. */
  async ratingsOf(player: string) {
    return this.reads.read((db) => db.prisma.rating.findMany({ where: { player }, orderBy: { pool: 'asc' } }));
  }

  /** The ratings of several players (a team's page of members), by player then pool. */
  async ratingsOfMany(players: readonly string[]) {
    if (players.length === 0) return [];
    return this.reads.read((db) => db.prisma.rating.findMany({ where: { player: { in: [...players] } }, orderBy: [{ player: 'asc' }, { pool: 'asc' }] }));
  }

  /** The player's rating changes in a pool, newest first, at most `take`. */
  async changesOf(player: string, pool: string, take: number) {
    return this.reads.read((db) =>
      db.prisma.ratingChange.findMany({
        where: { player, pool },
        orderBy: [{ endedAt: 'desc' }, { matchId: 'desc' }],
        take,
      }),
    );
  }

  /** The best ratings of a pool with an RD of at most `maxRd`, at most `limit`. */
  async best(pool: string, maxRd: number, limit: number) {
    return this.reads.read((db) =>
      db.prisma.rating.findMany({
        where: { pool, rd: { lte: maxRd } },
        orderBy: [{ rating: 'desc' }, { player: 'asc' }],
        take: limit,
      }),
    );
  }

  /** x against y in rated matches: per pool, and their last `last` matches, newest first, ranks as x's and y's. */
  headToHead(x: string, y: string, last: number) {
    return this.reads.read((db) => headToHeadOn(db.prisma, x, y, last));
  }

  /** changesFor of several matches in two statements: only the matches taken into the ratings have an entry. */
  async changesForMany(matchIds: readonly string[]): Promise<Map<string, MatchRatingChange[]>> {
    const out = new Map<string, MatchRatingChange[]>();
    if (matchIds.length === 0) return out;
    const taken = await this.prisma.ratedMatch.findMany({ where: { matchId: { in: [...matchIds] } }, select: { matchId: true } });
    for (const t of taken) out.set(t.matchId, []);
    if (taken.length === 0) return out;
    const rows = await this.prisma.ratingChange.findMany({
      where: { matchId: { in: taken.map((t) => t.matchId) } },
      orderBy: [{ side: 'asc' }, { player: 'asc' }],
    });
    for (const r of rows) out.get(r.matchId)?.push(changeOf(r));
    return out;
  }

  /** The rating changes of a match, or null when it has not been taken into the ratings (unrated, or not over yet). */
  async changesFor(matchId: string): Promise<MatchRatingChange[] | null> {
    return (await this.outcomeFor(matchId))?.changes ?? null;
  }

  /**
   * A finished rated match as the ratings took it: its rating changes, and why
   * it did not count when it did not (`unratedReason`, e.g. a side left before
   * every side had played a card); null when not taken (unrated, not over yet).
   */
  async outcomeFor(matchId: string): Promise<{ changes: MatchRatingChange[]; unratedReason: string | null } | null> {
    const taken = await this.prisma.ratedMatch.findUnique({ where: { matchId }, select: { counted: true, reason: true } }).catch(() => null);
    if (!taken) return null;
    if (!taken.counted) return { changes: [], unratedReason: taken.reason ?? 'not counted' };
    const rows = await this.prisma.ratingChange.findMany({ where: { matchId }, orderBy: [{ side: 'asc' }, { player: 'asc' }] });
    return { changes: rows.map(changeOf), unratedReason: null };
  }
}

function changeOf(r: MatchRatingChange): MatchRatingChange {
  return {
    player: r.player,
    side: r.side,
    result: r.result,
    ratingBefore: r.ratingBefore,
    ratingAfter: r.ratingAfter,
    rdBefore: r.rdBefore,
    rdAfter: r.rdAfter,
    volatilityBefore: r.volatilityBefore,
    volatilityAfter: r.volatilityAfter,
  };
}

function ratingColumns(r: Rating): Rating {
  return { rating: r.rating, rd: r.rd, volatility: r.volatility };
}

/** x against y in rated matches on `prisma` (RatingStore.headToHead). */
async function headToHeadOn(prisma: Prisma, x: string, y: string, last: number) {
  const pools = await prisma.$queryRaw<{ pool: string; wins: bigint; losses: bigint; draws: bigint }[]>`
      SELECT x.pool,
        count(*) FILTER (WHERE x.rank < y.rank) AS wins,
        count(*) FILTER (WHERE x.rank > y.rank) AS losses,
        count(*) FILTER (WHERE x.rank = y.rank) AS draws
      FROM rating_changes x JOIN rating_changes y ON y.match_id = x.match_id AND y.player = ${y} AND y.side <> x.side
      WHERE x.player = ${x}
      GROUP BY x.pool ORDER BY x.pool`;
  const matches = await prisma.$queryRaw<
    { match_id: string; pool: string; ended_at: Date; rank_a: number; rank_b: number; rating_before: number; rating_after: number }[]
  >`
      SELECT x.match_id::text AS match_id, x.pool, x.ended_at, x.rank AS rank_a, y.rank AS rank_b, x.rating_before, x.rating_after
      FROM rating_changes x JOIN rating_changes y ON y.match_id = x.match_id AND y.player = ${y} AND y.side <> x.side
      WHERE x.player = ${x}
      ORDER BY x.ended_at DESC, x.match_id DESC
      LIMIT ${last}`;
  return { pools, matches };
}
