/**
 * Queues the pushes of player events, in the caller's own transaction, so that a push exists exactly when the fact it
 * tells of was committed (as the webhook outbox does, src/webhooks/outbox.ts, beside which the callers call it):
 * `scopa_enqueue_push` (prisma/migrations/20261212010000_push_subscriptions) writes one 'push-delivery' job per
 * subscription of the player that wants the kind. `yourTurn` is the append's: its trigger calls the same function.
 * An event no push kind carries costs nothing (no statement).
 */
import type { Prisma } from '../database/database';
import type { PlayerEvent } from '../inbox/player-events';
import type { PushFacts } from './push-payloads';
import type { PushKind } from './push-kinds';

type Db = Pick<Prisma, '$executeRawUnsafe'>;

const ENQUEUE_SQL = `SELECT scopa_enqueue_push(x.player, x.kind, x.key, x.facts) FROM jsonb_to_recordset($1::jsonb) AS x(player text, kind text, key text, facts jsonb)`;

interface PushRow<K extends PushKind = PushKind> {
  player: string;
  kind: K;
  /** What makes the same fact the same job (with the subscription and the kind). */
  key: string;
  facts: PushFacts[K];
}

/** The push of a player event: its kind, key and public facts; null for an event no push kind carries. */
export function pushOf(player: string, event: PlayerEvent): PushRow | null {
  switch (event.type) {
    case 'clockLow':
      return {
        player,
        kind: 'clockLow',
        key: `${event.matchId}:${event.seq}`,
        facts: { matchId: event.matchId, seq: event.seq, seat: event.seat, deadline: event.deadline },
      };
    case 'challengeReceived': {
      const c = event.challenge;
      return {
        player,
        kind: 'challengeReceived',
        key: String(c.id),
        facts: { challengeId: String(c.id), from: String(c.challenger), preset: typeof c.preset === 'string' ? c.preset : null, rated: c.rated === true },
      };
    }
    case 'tournamentRoundPaired':
      return {
        player,
        kind: 'tournamentRoundPaired',
        key: `${event.tournamentId}:${event.round}`,
        facts: { tournamentId: event.tournamentId, round: event.round, matchId: event.matchId, seat: event.seat },
      };
    case 'analysisReady':
      return { player, kind: 'analysisReady', key: `${event.matchId}:${event.analyzer}`, facts: { matchId: event.matchId, analyzer: event.analyzer } };
    default:
      return null;
  }
}

/** Queues, in `db` (the caller's transaction), the pushes of these events for their players' subscriptions. */
export async function enqueuePushes(db: Db, events: readonly { player: string; event: PlayerEvent }[]): Promise<void> {
  const rows = events.flatMap(({ player, event }) => pushOf(player, event) ?? []);
  if (rows.length === 0) return;
  await db.$executeRawUnsafe(ENQUEUE_SQL, JSON.stringify(rows));
}
