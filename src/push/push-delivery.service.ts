/**
 * Delivers pushes: the handler of the 'push-delivery' jobs of the one queue (src/jobs), one job per notification per
 * subscription, queued in the transaction of what it tells of (./push-outbox.ts; the append's trigger for yourTurn).
 * Its workers run in every process with job workers (JOB_WORKERS), PUSH_CONCURRENCY at once.
 *
 * A job reads its subscription (gone, or the kind switched off since: nothing to send), makes the payload from the
 * job's public facts (./push-payloads.ts) and sends it (./push-sender.ts). A 404 or 410 drops the subscription; a 429,
 * a 5xx or a network failure fails the job, which pg-boss runs again after its back-off (the kind's policy,
 * src/jobs/job-kinds.ts: 5 s doubled, 6 retries), then keeps it failed (the dead letters); another 4xx or a refused
 * target is logged and not sent again. At least once: a worker killed mid-send leaves its job active, expired and run
 * again; the Topic header makes a browser offline meanwhile see the last push of a match only.
 */
import { Inject, Injectable, Logger } from '@nestjs/common';
import type { OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { PushConfig } from '../config/slices';
import { JobQueue } from '../jobs/job-queue';
import { JOB_KINDS } from '../jobs/job-kinds';
import { WebhookTargetPolicy } from '../webhooks/target-policy';
import { isPushKind } from './push-kinds';
import type { PushKind } from './push-kinds';
import { pushPayload } from './push-payloads';
import { PushSender } from './push-sender';
import type { PushTls, SendOutcome } from './push-sender';
import { PushSubscriptionsStore } from './push-subscriptions-store';
import { PUSH_TLS, VAPID_KEYS } from './push-tokens';
import type { VapidKeys } from './vapid-keys';

/** How often the first idle push worker of a process looks for a push (docs/notifications.md, Delivery). */
const PUSH_POLL_SECONDS = 1;

/** A 'push-delivery' job's data, as scopa_enqueue_push writes it. */
export interface PushJob {
  subscriptionId: string;
  kind: PushKind;
  facts: Record<string, unknown>;
}

/** Seconds a send may stay active beyond its request timeout before pg-boss takes it for dead and runs it again. */
const EXPIRY_MARGIN_SECONDS = 10;

@Injectable()
export class PushDeliveryService implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger('Push');
  private readonly sender: PushSender;

  constructor(
    private readonly store: PushSubscriptionsStore,
    private readonly jobs: JobQueue,
    @Inject(PushConfig) private readonly config: Pick<PushConfig, 'PUSH_ALLOW_PRIVATE' | 'PUSH_CONCURRENCY' | 'PUSH_TIMEOUT_MS'>,
    @Inject(VAPID_KEYS) keys: VapidKeys,
    @Inject(PUSH_TLS) tls: PushTls,
  ) {
    this.sender = new PushSender(keys, new WebhookTargetPolicy(config.PUSH_ALLOW_PRIVATE), config.PUSH_TIMEOUT_MS, tls);
  }

  async onModuleInit(): Promise<void> {
    const kind = JOB_KINDS['push-delivery'];
    await this.jobs.handle<PushJob>('push-delivery', (job) => this.deliver(job.data).then(() => undefined), {
      concurrency: this.config.PUSH_CONCURRENCY,
      // The append's own trigger queues a yourTurn push, and no process is told: the first worker looks every second
      // (the others every 5 s, woken by it while jobs wait), as the webhook attempts do (WEBHOOK_POLL_MS).
      pollingSeconds: PUSH_POLL_SECONDS,
      policy: { ...kind, expireInSeconds: Math.max(kind.expireInSeconds, Math.ceil(this.config.PUSH_TIMEOUT_MS / 1000) + EXPIRY_MARGIN_SECONDS) },
    });
  }

  // After the queue's stop (beforeApplicationShutdown, src/jobs/jobs.module.ts): a send in flight ends as it would.
  onApplicationShutdown(): void {
    this.sender.close();
  }

  /** One job: sends it if its subscription still wants it; throws (the job is retried) on a failure worth retrying. Null: nothing to send. */
  async deliver(job: PushJob): Promise<SendOutcome | null> {
    const sub = await this.store.byId(job.subscriptionId);
    if (!sub || !isPushKind(job.kind) || !sub.kinds.includes(job.kind)) return null;
    const sentAt = new Date();
    const outcome = await this.sender.send(sub, pushPayload(job.kind, job.facts ?? {}, sentAt));
    switch (outcome.status) {
      case 'delivered':
        break;
      case 'gone':
        // The push service forgot this browser's subscription (unsubscribed, expired): so do we.
        await this.store.dropGone(sub.id, sentAt);
        break;
      case 'retry':
        throw new Error(`push to subscription ${sub.id}: ${outcome.reason}`);
      case 'rejected':
        this.logger.warn(`push to subscription ${sub.id}: HTTP ${outcome.code}, not sent again`);
        break;
      case 'refused':
        this.logger.warn(`push to subscription ${sub.id}: refused target (${outcome.reason})`);
        break;
    }
    return outcome;
  }

  /** Runs the pushes due now, here (tests drive delivery through it): how many ran. */
  async poll(): Promise<number> {
    return (await this.jobs.runDue('push-delivery')).length;
  }
}
