/**
 * The webhook outbox for events that are not an append (challenges, clock
 * low): one row per subscribed webhook of the player, written by the caller's
 * own statement or transaction, so the delivery exists exactly when the fact
 * it tells of was committed. The delivery worker sends it like any other.
 */
import type { Prisma } from '../database/database';

type Db = Pick<Prisma, '$executeRawUnsafe'>;

export const ENQUEUE_WEBHOOK_SQL = `INSERT INTO webhook_deliveries (id, webhook_id, event, payload)
  SELECT gen_random_uuid(), w.id, $2::text, $3::jsonb FROM webhooks w WHERE w.username = $1::text AND $2::text = ANY (w.events)`;

/** Queues `event` with `payload` (public facts only) for every webhook of `player` subscribed to it. */
export async function enqueueWebhook(db: Db, player: string, event: string, payload: Record<string, unknown>): Promise<void> {
  await db.$executeRawUnsafe(ENQUEUE_WEBHOOK_SQL, player, event, JSON.stringify(payload));
}
