/**
 * The rated-play suspension ("deal shopping": looking at a dealt hand and
 * leaving before every side played, as often as one likes). Each finished
 * rated match that was dealt leaves one `rated_players` row per person, with
 * whether they left early (./rated-match.ts, ratedAttendance; written by the
 * recorder and by ratings:rebuild, so it is a projection of the logs like the
 * ratings). The rule, documented in docs/ratings.md:
 *
 *   among a player's last RATED_PLAY_RULE.recent rated matches that were
 *   dealt, more than RATED_PLAY_RULE.maxLeftEarly left early: no rated play
 *   (create, join, seek, challenge, accept, rematch) until
 *   RATED_PLAY_RULE.suspensionMs after the latest of those leavings.
 *
 * Once the time is over the player may play rated again; while their recent
 * matches still hold too many leavings, the next one suspends them again.
 */
import { Injectable } from '@nestjs/common';
import { DomainError } from '../common/domain-error';
import { PrismaService } from '../database/prisma.service';

export const RATED_PLAY_RULE = {
  /** How many of the player's last dealt rated matches are looked at. */
  recent: 10,
  /** More leavings than this among them suspend. */
  maxLeftEarly: 3,
  /** How long, from the latest leaving: one hour. */
  suspensionMs: 3_600_000,
} as const;

export interface RecentRatedMatch {
  endedAt: Date;
  leftEarly: boolean;
}

/** When the player's suspension ends (null: not suspended now), from their recent dealt rated matches (any order). Pure. */
export function suspendedUntil(matches: readonly RecentRatedMatch[], now: Date, rule: typeof RATED_PLAY_RULE = RATED_PLAY_RULE): Date | null {
  const recent = [...matches].sort((a, b) => b.endedAt.getTime() - a.endedAt.getTime()).slice(0, rule.recent);
  const left = recent.filter((m) => m.leftEarly);
  if (left.length <= rule.maxLeftEarly) return null;
  const until = new Date(left[0].endedAt.getTime() + rule.suspensionMs);
  return until > now ? until : null;
}

@Injectable()
export class RatedPlay {
  constructor(private readonly prisma: PrismaService) {}

  /** The end of the player's suspension, or null. */
  async suspendedUntil(player: string, now: Date = new Date()): Promise<Date | null> {
    const rows = await this.prisma.ratedPlayer.findMany({
      where: { player: player.toLowerCase() },
      orderBy: [{ endedAt: 'desc' }, { matchId: 'desc' }],
      take: RATED_PLAY_RULE.recent,
      select: { endedAt: true, leftEarly: true },
    });
    return suspendedUntil(rows, now);
  }

  /** RATED_PLAY_SUSPENDED (details `until`, `player`) when one of these players may not play rated now. */
  async check(players: readonly string[], now: Date = new Date()): Promise<void> {
    for (const player of new Set(players.map((p) => p.toLowerCase()))) {
      const until = await this.suspendedUntil(player, now);
      if (until) {
        throw new DomainError(
          'RATED_PLAY_SUSPENDED',
          `${player} left too many rated matches before every side had played (more than ${RATED_PLAY_RULE.maxLeftEarly} of the last ${RATED_PLAY_RULE.recent}): no rated play until ${until.toISOString()}`,
          { until: until.toISOString(), player },
        );
      }
    }
  }
}
