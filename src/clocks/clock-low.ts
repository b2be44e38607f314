/**
 * "Your clock is low": when the turn clock of a human seat has less than
 * CLOCK_LOW_FRACTION (default 0.1) of the match's turn time limit left, the
 * player gets one notice for that turn: a TurnNotice of kind `clockLow` on
 * `myTurn`, a `clockLow` PlayerEvent on their event channel, and a
 * `clock_low` webhook. The inbox shows it too (InboxEntry.clockLow).
 *
 * At most once per turn on any number of instances: one statement picks the
 * low clocks and records each (match, turn seq) in clock_low_notices, where a
 * turn already recorded (by this or another instance, concurrently or
 * before) returns nothing (ON CONFLICT ... WHERE seq differs); the webhook
 * outbox rows (the clockLow event's webhook, src/webhooks/outbox.ts) are
 * written in that statement's transaction. Only the rows it returns are
 * published. A crash between the commit and the publish loses that turn's
 * live notice, never its webhook.
 */
import type { Prisma } from '../database/database';
import type { PubSubEngine } from '../realtime/realtime.module';
import { playerChannel, turnChannel } from '../realtime/channels';
import type { TurnNotice } from '../realtime/channels';
import type { PlayerEvent } from '../inbox/player-events';
import { enqueueWebhooks } from '../webhooks/outbox';
import { enqueuePushes } from '../push/push-outbox';
import { prepared, sqlNumber } from '../database/prepared-statements';
import { RUNNING_TURN_CLOCKS } from '../match-store/match-clocks';

// Polled: prepared, its fraction and batch written in (see sqlNumber), so that a connection plans it
// once rather than on every poll (about 1.5 ms a plan).
const clockLowSql = (fraction: number, batch: number): string =>
  prepared(`
WITH due AS (
  SELECT c.match_id, c.seq, c.seat, c.deadline, c.player
  FROM ${RUNNING_TURN_CLOCKS} c
  WHERE c.player NOT LIKE 'bot:%'
    AND c.deadline > now() AND c.deadline - now() <= c.turn_time_limit::interval * ${sqlNumber(fraction)}::double precision
    AND NOT EXISTS (SELECT 1 FROM clock_low_notices n WHERE n.match_id = c.match_id AND n.seq = c.seq)
  ORDER BY c.deadline
  LIMIT ${sqlNumber(batch)}::int
), sent AS (
  INSERT INTO clock_low_notices (match_id, seq) SELECT match_id, seq FROM due
  ON CONFLICT (match_id) DO UPDATE SET seq = EXCLUDED.seq, sent_at = now() WHERE clock_low_notices.seq <> EXCLUDED.seq
  RETURNING match_id, seq
)
SELECT d.match_id::text AS match_id, d.seq, d.seat, d.player, d.deadline
FROM sent s JOIN due d ON d.match_id = s.match_id AND d.seq = s.seq`);

interface LowRow {
  match_id: string;
  seq: number;
  seat: number;
  player: string;
  deadline: Date;
}

export class ClockLowNotifier {
  private readonly sql: string;

  constructor(
    private readonly prisma: Prisma,
    private readonly pubsub: PubSubEngine,
    /** CLOCK_LOW_FRACTION. */
    fraction: number,
    batch = 100,
  ) {
    this.sql = clockLowSql(fraction, batch);
  }

  /** Sends the notices of the turns whose clock became low since the last tick (of any instance); returns how many. */
  async tick(): Promise<number> {
    const event = (r: LowRow): PlayerEvent => ({
      type: 'clockLow',
      matchId: r.match_id,
      seq: r.seq,
      seat: r.seat,
      deadline: new Date(r.deadline).toISOString(),
    });
    const rows = await this.prisma.$transaction(async (tx) => {
      const low = await tx.$queryRawUnsafe<LowRow[]>(this.sql);
      const told = low.map((r) => ({ player: r.player, event: event(r) }));
      await enqueueWebhooks(tx, told);
      await enqueuePushes(tx, told);
      return low;
    });
    await Promise.all(
      rows.map((r) => {
        const notice: TurnNotice = { matchId: r.match_id, seq: r.seq, seat: r.seat, player: r.player, deadline: new Date(r.deadline), kind: 'clockLow' };
        return Promise.all([this.pubsub.publish(turnChannel(r.player), notice), this.pubsub.publish(playerChannel(r.player), event(r))]).catch(() => undefined);
      }),
    );
    return rows.length;
  }
}
