/**
 * Sends the webhook outbox (webhook_deliveries, written by the async-play
 * trigger in the statement that appends). A tick claims due pending rows in a
 * transaction (FOR UPDATE SKIP LOCKED, then a lease on next_attempt_at and
 * attempts + 1), so instances never send a row at the same time; then POSTs
 * each, signed (see signature.ts). A 2xx marks it delivered; anything else
 * (status, network error, timeout) schedules a retry after
 * backoff * 2^(attempts - 1) (capped), until maxAttempts, then failed.
 * A crash mid-send leaves the row pending: it is sent again once the lease
 * runs out (at-least-once; receivers dedupe on Scopa-Delivery).
 *
 * Targets pass the WebhookTargetPolicy at each send, on the addresses the
 * name resolves to then (target-policy.ts). The error the owner reads is one
 * of a few words (DELIVERY_ERRORS): the kind of network failure would tell
 * which ports of a host are open.
 */
import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import type { Prisma } from '../database/database';
import { signatureHeader, SIGNATURE_HEADER } from './signature';
import { RefusedTargetError, targetPolicyFromEnv, WebhookTargetPolicy } from './target-policy';
import type { AppConfig } from '../config/config';
import { prepared, sqlNumber } from '../database/prepared-statements';

export interface WebhookWorkerOptions {
  batch?: number;
  /** Claim lease in ms (must exceed timeoutMs). Default 60,000. */
  leaseMs?: number;
  /** Attempts before a delivery is given up (status failed). Default 6. */
  maxAttempts?: number;
  /** First retry delay in ms, doubled on each attempt. Default 10,000. */
  backoffMs?: number;
  /** Retry delay cap in ms. Default 3,600,000. */
  maxBackoffMs?: number;
  /** Request timeout in ms. Default 10,000. */
  timeoutMs?: number;
  /** Which addresses may be targets (default: public unicast only). */
  policy?: WebhookTargetPolicy;
  onOutcome?: (outcome: 'delivered' | 'failed' | 'gave_up', delivery: ClaimedDelivery) => void;
}

/** The WEBHOOK_* variables (src/config). */
export function webhookOptionsFromEnv(config: AppConfig): WebhookWorkerOptions {
  return {
    batch: config.WEBHOOK_BATCH,
    maxAttempts: config.WEBHOOK_MAX_ATTEMPTS,
    backoffMs: config.WEBHOOK_BACKOFF_MS,
    maxBackoffMs: config.WEBHOOK_MAX_BACKOFF_MS,
    timeoutMs: config.WEBHOOK_TIMEOUT_MS,
    leaseMs: config.WEBHOOK_LEASE_MS,
    policy: targetPolicyFromEnv(config),
  };
}

export interface ClaimedDelivery {
  id: string;
  webhookId: string;
  event: string;
  payload: Record<string, unknown>;
  attempts: number;
  createdAt: Date;
  url: string;
  secret: string;
}

// Polled: prepared, its batch and lease written in (see sqlNumber), so planned once per connection.
// One statement, so atomic without a transaction around it.
const claimSql = (batch: number, leaseMs: number): string =>
  prepared(`
UPDATE webhook_deliveries d SET attempts = d.attempts + 1, next_attempt_at = now() + make_interval(secs => ${sqlNumber(leaseMs / 1000)}::double precision)
FROM (
  SELECT id FROM webhook_deliveries
  WHERE status = 'pending' AND next_attempt_at <= now()
  ORDER BY next_attempt_at
  LIMIT ${sqlNumber(batch)}::int
  FOR UPDATE SKIP LOCKED
) due, webhooks w
WHERE d.id = due.id AND w.id = d.webhook_id
RETURNING d.id::text AS id, d.webhook_id::text AS webhook_id, d.event, d.payload, d.attempts, d.created_at, w.url, w.secret`);

/** The body sent for a delivery (stable across retries). */
export function deliveryBody(d: Pick<ClaimedDelivery, 'id' | 'event' | 'payload' | 'createdAt'>): string {
  return JSON.stringify({ id: d.id, event: d.event, createdAt: d.createdAt.toISOString(), data: d.payload });
}

/** Every lastError a delivery can record, besides `HTTP <status>` for a non-2xx answer. */
export const DELIVERY_ERRORS = { timeout: 'timeout', refused: 'refused target', connection: 'connection failed' } as const;

class DeliveryTimeout extends Error {}

/** The owner's word for a failed send: no network detail (refused port, reset, DNS) beyond these. */
export function deliveryError(err: unknown): string {
  if (err instanceof RefusedTargetError) return DELIVERY_ERRORS.refused;
  if (err instanceof DeliveryTimeout) return DELIVERY_ERRORS.timeout;
  return DELIVERY_ERRORS.connection;
}

/**
 * POSTs `body` and resolves with the response status (the body is not read;
 * redirects are not followed). Connects only to an address `policy` accepts:
 * an IP literal is checked here (no lookup happens for one), a name in the
 * lookup, and the socket goes to the address that lookup returned.
 */
export function postOnce(url: string, headers: Record<string, string>, body: string, timeoutMs: number, policy: WebhookTargetPolicy): Promise<number> {
  return new Promise((resolve, reject) => {
    const target = new URL(url);
    const literal = target.hostname.replace(/^\[|\]$/g, '');
    const why = isIP(literal) ? policy.refusal(literal) : null;
    if (why) return reject(new RefusedTargetError(literal, why));
    const req = (target.protocol === 'https:' ? https : http).request(
      target,
      { method: 'POST', headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) }, lookup: policy.lookup, agent: false },
      (res) => {
        clearTimeout(timer);
        resolve(res.statusCode ?? 0);
        res.destroy();
      },
    );
    const timer = setTimeout(() => req.destroy(new DeliveryTimeout()), timeoutMs);
    req.on('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    req.end(body);
  });
}

export class WebhookWorker {
  private readonly o: Required<Omit<WebhookWorkerOptions, 'onOutcome'>>;
  private readonly claimSql: string;

  constructor(
    private readonly prisma: Prisma,
    private readonly options: WebhookWorkerOptions = {},
  ) {
    this.o = {
      batch: options.batch ?? 20,
      leaseMs: options.leaseMs ?? 60_000,
      maxAttempts: options.maxAttempts ?? 6,
      backoffMs: options.backoffMs ?? 10_000,
      maxBackoffMs: options.maxBackoffMs ?? 3_600_000,
      timeoutMs: options.timeoutMs ?? 10_000,
      policy: options.policy ?? new WebhookTargetPolicy(),
    };
    this.claimSql = claimSql(this.o.batch, Math.max(this.o.leaseMs, this.o.timeoutMs + 1000));
  }

  /** Delay before attempt n + 1, after n failed attempts. */
  backoff(attempts: number): number {
    return Math.min(this.o.maxBackoffMs, this.o.backoffMs * 2 ** Math.max(0, attempts - 1));
  }

  async claim(): Promise<ClaimedDelivery[]> {
    const rows = await this.prisma.$queryRawUnsafe<
      { id: string; webhook_id: string; event: string; payload: Record<string, unknown>; attempts: number; created_at: Date; url: string; secret: string }[]
    >(this.claimSql);
    return rows.map((r) => ({
      id: r.id,
      webhookId: r.webhook_id,
      event: r.event,
      payload: r.payload,
      attempts: r.attempts,
      createdAt: r.created_at,
      url: r.url,
      secret: r.secret,
    }));
  }

  async send(d: ClaimedDelivery): Promise<'delivered' | 'failed' | 'gave_up'> {
    const body = deliveryBody(d);
    const timestamp = Math.floor(Date.now() / 1000);
    let code: number | null = null;
    let error: string | null = null;
    try {
      const headers = {
        'content-type': 'application/json',
        'user-agent': 'scopa-webhooks/1',
        [SIGNATURE_HEADER]: signatureHeader(d.secret, timestamp, body),
        'Scopa-Event': d.event,
        'Scopa-Delivery': d.id,
      };
      code = await postOnce(d.url, headers, body, this.o.timeoutMs, this.o.policy);
      if (code < 200 || code >= 300) error = `HTTP ${code}`;
    } catch (err) {
      error = deliveryError(err);
    }
    let outcome: 'delivered' | 'failed' | 'gave_up';
    if (error === null) {
      outcome = 'delivered';
      await this.prisma.$executeRawUnsafe(
        `UPDATE webhook_deliveries SET status = 'delivered', response_code = $2::int, last_error = NULL, delivered_at = now() WHERE id = $1::uuid`,
        d.id,
        code,
      );
    } else if (d.attempts >= this.o.maxAttempts) {
      outcome = 'gave_up';
      await this.prisma.$executeRawUnsafe(
        `UPDATE webhook_deliveries SET status = 'failed', response_code = $2::int, last_error = $3::text WHERE id = $1::uuid`,
        d.id,
        code,
        error,
      );
    } else {
      outcome = 'failed';
      await this.prisma.$executeRawUnsafe(
        `UPDATE webhook_deliveries SET response_code = $2::int, last_error = $3::text, next_attempt_at = now() + make_interval(secs => $4::double precision / 1000) WHERE id = $1::uuid`,
        d.id,
        code,
        error,
        this.backoff(d.attempts),
      );
    }
    this.options.onOutcome?.(outcome, d);
    return outcome;
  }

  /** One poll: claim, then send (in parallel). */
  async tick(): Promise<number> {
    const claimed = await this.claim();
    await Promise.all(claimed.map((d) => this.send(d)));
    return claimed.length;
  }
}
