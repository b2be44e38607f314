/**
 * Sends the webhook outbox (webhook_deliveries, written with the fact each
 * row tells of by its one writer, scopa_enqueue_webhook, see ./outbox.ts).
 * Each attempt at a delivery is a 'webhook-delivery' job of the one queue
 * (src/jobs), keyed `<delivery id>:<attempt>` and queued in the transaction
 * that wrote the row (attempt 1) or recorded the previous attempt; pg-boss
 * gives each job to one worker at a time, so the row needs no claim or lease.
 * An attempt POSTs the delivery, signed (see signature.ts), with the same
 * delivery id every time. A 2xx marks the row delivered; anything else
 * (status, network error, timeout) records the attempt and, in the same
 * transaction, queues the next one after backoff * 2^(attempts - 1)
 * (capped), until maxAttempts, then the row is failed. Either way the job
 * completes: the row keeps the delivery's state, the queue its attempts.
 * A worker killed mid-send leaves its job active: pg-boss expires it and the
 * same attempt runs again (at-least-once; receivers dedupe on
 * Scopa-Delivery). An attempt the row already records is skipped.
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
import { enqueueInTransaction } from '../jobs/enqueue';
import type { JobQueue } from '../jobs/job-queue';

export interface WebhookWorkerOptions {
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
  onOutcome?: (outcome: DeliveryOutcome, delivery: DueDelivery) => void;
}

/** The WEBHOOK_* variables (src/config). */
export function webhookOptionsFromEnv(config: AppConfig): WebhookWorkerOptions {
  return {
    maxAttempts: config.WEBHOOK_MAX_ATTEMPTS,
    backoffMs: config.WEBHOOK_BACKOFF_MS,
    maxBackoffMs: config.WEBHOOK_MAX_BACKOFF_MS,
    timeoutMs: config.WEBHOOK_TIMEOUT_MS,
    policy: targetPolicyFromEnv(config),
  };
}

/** A 'webhook-delivery' job's data: which delivery, and which attempt at it (1, 2, ...). */
export interface DeliveryAttempt {
  deliveryId: string;
  attempt: number;
}

/** delivered: a 2xx; failed: not, another attempt is queued; gave_up: not, and that was the last attempt. */
export type DeliveryOutcome = 'delivered' | 'failed' | 'gave_up';

/** A delivery an attempt is due for (pending, its previous attempts recorded), with its webhook's target. */
export interface DueDelivery {
  id: string;
  webhookId: string;
  event: string;
  payload: Record<string, unknown>;
  /** Attempts recorded before this one. */
  attempts: number;
  createdAt: Date;
  url: string;
  secret: string;
}

/** The key of a delivery's attempt n, its job's key (src/jobs/job-ids.ts). */
export function attemptKey(deliveryId: string, attempt: number): string {
  return `${deliveryId}:${attempt}`;
}

// Only while pending and with exactly the attempts before this one: a job run again after its attempt was recorded
// (its worker died after the commit), or for a delivery done, failed or deleted with its webhook, finds nothing.
const DUE_SQL = `
SELECT d.id::text AS id, d.webhook_id::text AS webhook_id, d.event, d.payload, d.attempts, d.created_at, w.url, w.secret
FROM webhook_deliveries d JOIN webhooks w ON w.id = d.webhook_id
WHERE d.id = $1::uuid AND d.status = 'pending' AND d.attempts = $2::int - 1`;

// Each records attempt $2, guarded as DUE_SQL is, so two runs of one attempt record it once.
const GUARD = `WHERE id = $1::uuid AND status = 'pending' AND attempts = $2::int - 1`;
const DELIVERED_SQL = `UPDATE webhook_deliveries SET status = 'delivered', attempts = $2::int, response_code = $3::int, last_error = NULL, delivered_at = now() ${GUARD}`;
const GAVE_UP_SQL = `UPDATE webhook_deliveries SET status = 'failed', attempts = $2::int, response_code = $3::int, last_error = $4::text ${GUARD}`;
const RETRY_SQL = `
UPDATE webhook_deliveries SET attempts = $2::int, response_code = $3::int, last_error = $4::text,
  next_attempt_at = now() + make_interval(secs => $5::double precision / 1000)
${GUARD}
RETURNING next_attempt_at`;

/** The body sent for a delivery (stable across retries). */
export function deliveryBody(d: Pick<DueDelivery, 'id' | 'event' | 'payload' | 'createdAt'>): string {
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

  /** `jobs`: the queue whose due attempts tick() runs (not needed to run one attempt). */
  constructor(
    private readonly prisma: Prisma,
    private readonly options: WebhookWorkerOptions = {},
    private readonly jobs?: JobQueue,
  ) {
    this.o = {
      maxAttempts: options.maxAttempts ?? 6,
      backoffMs: options.backoffMs ?? 10_000,
      maxBackoffMs: options.maxBackoffMs ?? 3_600_000,
      timeoutMs: options.timeoutMs ?? 10_000,
      policy: options.policy ?? new WebhookTargetPolicy(),
    };
  }

  /** Delay before attempt n + 1, after n failed attempts. */
  backoff(attempts: number): number {
    return Math.min(this.o.maxBackoffMs, this.o.backoffMs * 2 ** Math.max(0, attempts - 1));
  }

  /** The delivery this attempt is for, while it is due; null when it is not (any more). */
  async due(attempt: DeliveryAttempt): Promise<DueDelivery | null> {
    const [r] = await this.prisma.$queryRawUnsafe<
      { id: string; webhook_id: string; event: string; payload: Record<string, unknown>; attempts: number; created_at: Date; url: string; secret: string }[]
    >(DUE_SQL, attempt.deliveryId, attempt.attempt);
    if (!r) return null;
    return {
      id: r.id,
      webhookId: r.webhook_id,
      event: r.event,
      payload: r.payload,
      attempts: r.attempts,
      createdAt: r.created_at,
      url: r.url,
      secret: r.secret,
    };
  }

  /** One attempt (a job's handler): sends the delivery if it is due, records the outcome; null when it was not due. */
  async attempt(attempt: DeliveryAttempt): Promise<DeliveryOutcome | null> {
    const d = await this.due(attempt);
    return d ? this.send(d) : null;
  }

  /** Sends `d` (its attempt attempts + 1) and records the outcome; a failure queues the next attempt with it. */
  async send(d: DueDelivery): Promise<DeliveryOutcome> {
    const n = d.attempts + 1;
    const { code, error } = await this.post(d);
    let outcome: DeliveryOutcome;
    if (error === null) {
      outcome = 'delivered';
      await this.prisma.$executeRawUnsafe(DELIVERED_SQL, d.id, n, code);
    } else if (n >= this.o.maxAttempts) {
      outcome = 'gave_up';
      await this.prisma.$executeRawUnsafe(GAVE_UP_SQL, d.id, n, code, error);
    } else {
      outcome = 'failed';
      await this.prisma.$transaction(async (tx) => {
        const [row] = await tx.$queryRawUnsafe<{ next_attempt_at: Date }[]>(RETRY_SQL, d.id, n, code, error, this.backoff(n));
        if (row) await enqueueInTransaction(tx, 'webhook-delivery', attemptKey(d.id, n + 1), { deliveryId: d.id, attempt: n + 1 }, row.next_attempt_at);
      });
    }
    this.options.onOutcome?.(outcome, d);
    return outcome;
  }

  private async post(d: DueDelivery): Promise<{ code: number | null; error: string | null }> {
    const body = deliveryBody(d);
    const timestamp = Math.floor(Date.now() / 1000);
    try {
      const headers = {
        'content-type': 'application/json',
        'user-agent': 'scopa-webhooks/1',
        [SIGNATURE_HEADER]: signatureHeader(d.secret, timestamp, body),
        'Scopa-Event': d.event,
        'Scopa-Delivery': d.id,
      };
      const code = await postOnce(d.url, headers, body, this.o.timeoutMs, this.o.policy);
      return { code, error: code < 200 || code >= 300 ? `HTTP ${code}` : null };
    } catch (err) {
      return { code: null, error: deliveryError(err) };
    }
  }

  /** The attempts due now, run here (the queue's runDue): how many ran. */
  async tick(): Promise<number> {
    if (!this.jobs) throw new Error('WebhookWorker.tick needs the job queue');
    return (await this.jobs.runDue('webhook-delivery')).length;
  }
}
