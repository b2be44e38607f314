/**
 * The webhook outbox has one writer: the SQL function `scopa_enqueue_webhook`
 * (prisma/migrations/20261210030000_webhook_jobs; first in
 * 20261126120000_webhook_outbox_writer), one row per subscribed webhook of the
 * player, each with the job of its first attempt (./webhook-worker.ts). The append's own statement calls it for
 * APPEND_WEBHOOKS (its trigger: src/reactions/after-append.ts, step 0); the
 * application calls it here, for the player events that have a webhook
 * (src/inbox/player-events.ts PLAYER_EVENT_WEBHOOKS), in the caller's own
 * statement or transaction, so the delivery exists exactly when the fact it
 * tells of was committed. The delivery worker sends them all alike.
 */
import type { Prisma } from '../database/database';
import { PLAYER_EVENT_WEBHOOKS } from '../inbox/player-events';
import type { PlayerEvent } from '../inbox/player-events';
import type { WebhookEvent } from './webhooks.service';

type Db = Pick<Prisma, '$executeRawUnsafe'>;

/** The webhooks the append's statement writes itself, with payloads of their own (its trigger). */
export const APPEND_WEBHOOKS = ['your_turn', 'match_finished'] as const satisfies readonly WebhookEvent[];

const ENQUEUE_SQL = `SELECT scopa_enqueue_webhook(x.player, x.event, x.payload) FROM jsonb_to_recordset($1::jsonb) AS x(player text, event text, payload jsonb)`;

/** The webhook delivery of `event` for `player`: its webhook, and the event itself (without `type`; with `player` where the webhook has it). Null: no webhook carries it. */
export function webhookOf(player: string, event: PlayerEvent): { player: string; event: WebhookEvent; payload: Record<string, unknown> } | null {
  const hook = PLAYER_EVENT_WEBHOOKS[event.type];
  if (!hook) return null;
  const { type: _type, ...fields } = event;
  return { player, event: hook.webhook, payload: hook.player ? { ...fields, player } : fields };
}

/** Queues the webhooks of these player events (public facts only), each for its player's subscribed webhooks. */
export async function enqueueWebhooks(db: Db, events: readonly { player: string; event: PlayerEvent }[]): Promise<void> {
  const rows = events.flatMap(({ player, event }) => webhookOf(player, event) ?? []);
  if (rows.length === 0) return;
  await db.$executeRawUnsafe(ENQUEUE_SQL, JSON.stringify(rows));
}
