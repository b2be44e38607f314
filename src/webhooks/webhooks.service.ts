/** Webhooks of an account: registration (secret shown once), listing, removal, and the deliveries log. */
import { randomBytes, randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { DomainError } from '../common/domain-error';
import { PrismaService } from '../database/prisma.service';
import { RefusedTargetError, targetPolicyFromEnv } from './target-policy';
import type { WebhookTargetPolicy } from './target-policy';
import { AppConfig } from '../config/config';
import { lockForTransaction } from '../database/advisory-lock';

export const WEBHOOK_EVENTS = [
  'your_turn',
  'match_finished',
  'match_started',
  'challenge_received',
  'challenge_accepted',
  'challenge_declined',
  'clock_low',
  'analysis_ready',
  'tournament_round_paired',
] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

const MAX_WEBHOOKS = 10;

export interface WebhookInfo {
  id: string;
  url: string;
  events: string[];
  createdAt: Date;
}

export interface CreatedWebhook extends WebhookInfo {
  /** Shown once: the HMAC key of the signatures. */
  secret: string;
}

export interface DeliveryInfo {
  id: string;
  webhookId: string;
  event: string;
  payload: unknown;
  status: string;
  attempts: number;
  nextAttemptAt: Date | null;
  lastError: string | null;
  responseCode: number | null;
  createdAt: Date;
  deliveredAt: Date | null;
}

export interface Owner {
  accountId: string;
  username: string;
}

/** An absolute http(s) URL without credentials, or VALIDATION_FAILED. */
export function checkWebhookUrl(raw: unknown): string {
  if (typeof raw !== 'string' || raw.length === 0 || raw.length > 2000)
    throw new DomainError('VALIDATION_FAILED', 'url: an http(s) URL of at most 2000 characters');
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new DomainError('VALIDATION_FAILED', 'url: not a URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new DomainError('VALIDATION_FAILED', 'url: only http and https URLs');
  if (url.username || url.password) throw new DomainError('VALIDATION_FAILED', 'url: no credentials in the URL');
  return url.toString();
}

/**
 * VALIDATION_FAILED unless the URL's host is, and resolves only to, public
 * addresses (see target-policy.ts; checked again at each delivery).
 */
export async function checkWebhookTarget(url: string, policy: WebhookTargetPolicy): Promise<void> {
  const host = new URL(url).hostname;
  try {
    await policy.checkHost(host);
  } catch (err) {
    if (err instanceof RefusedTargetError) {
      throw new DomainError('VALIDATION_FAILED', `url: ${host} is or resolves to ${err.reason}; webhooks may only target public addresses`);
    }
    throw new DomainError('VALIDATION_FAILED', `url: ${host} does not resolve`);
  }
}

@Injectable()
export class WebhooksService {
  private readonly policy: WebhookTargetPolicy;

  constructor(
    private readonly prisma: PrismaService,
    config: AppConfig,
  ) {
    this.policy = targetPolicyFromEnv(config);
  }

  async create(owner: Owner, url: unknown, events?: unknown): Promise<CreatedWebhook> {
    const checked = checkWebhookUrl(url);
    const wanted = events === undefined || events === null ? [...WEBHOOK_EVENTS] : events;
    if (!Array.isArray(wanted) || wanted.length === 0 || !wanted.every((e) => (WEBHOOK_EVENTS as readonly unknown[]).includes(e))) {
      throw new DomainError('VALIDATION_FAILED', `events: one or more of ${WEBHOOK_EVENTS.join(', ')}`);
    }
    await checkWebhookTarget(checked, this.policy);
    const secret = `whsec_${randomBytes(24).toString('base64url')}`;
    // The count and the insert in one transaction after the account's advisory lock: racing creations (on any number
    // of instances) count one after the other, so the bound holds.
    const row = await this.prisma.$transaction(
      async (tx) => {
        await lockForTransaction(tx, `webhooks:${owner.accountId}`);
        const count = await tx.webhook.count({ where: { accountId: owner.accountId } });
        if (count >= MAX_WEBHOOKS) throw new DomainError('CONFLICT', `at most ${MAX_WEBHOOKS} webhooks per account`);
        return tx.webhook.create({
          data: { id: randomUUID(), accountId: owner.accountId, username: owner.username, url: checked, secret, events: [...new Set(wanted as string[])] },
        });
      },
      { maxWait: 15_000, timeout: 15_000 },
    );
    return { id: row.id, url: row.url, events: row.events, createdAt: row.createdAt, secret };
  }

  async list(owner: Owner): Promise<WebhookInfo[]> {
    const rows = await this.prisma.webhook.findMany({ where: { accountId: owner.accountId }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] });
    return rows.map((r) => ({ id: r.id, url: r.url, events: r.events, createdAt: r.createdAt }));
  }

  /** Removes the webhook and its deliveries. NOT_FOUND unless the caller owns it. */
  async delete(owner: Owner, id: string): Promise<boolean> {
    const found = await this.owned(owner, id);
    await this.prisma.webhook.delete({ where: { id: found } });
    return true;
  }

  /** Deliveries of my webhooks (or of one), newest first. */
  async deliveries(owner: Owner, webhookId?: string, limit = 50): Promise<DeliveryInfo[]> {
    if (!Number.isSafeInteger(limit) || limit < 1 || limit > 500) throw new DomainError('VALIDATION_FAILED', 'limit: an integer in 1..500');
    if (webhookId) await this.owned(owner, webhookId);
    const rows = await this.prisma.webhookDelivery.findMany({
      where: webhookId ? { webhookId } : { webhook: { accountId: owner.accountId } },
      orderBy: [{ createdAt: 'desc' }, { id: 'asc' }],
      take: limit,
    });
    return rows.map((r) => ({
      id: r.id,
      webhookId: r.webhookId,
      event: r.event,
      payload: r.payload,
      status: r.status,
      attempts: r.attempts,
      nextAttemptAt: r.status === 'pending' ? r.nextAttemptAt : null,
      lastError: r.lastError,
      responseCode: r.responseCode,
      createdAt: r.createdAt,
      deliveredAt: r.deliveredAt,
    }));
  }

  private async owned(owner: Owner, id: string): Promise<string> {
    const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id);
    const row = uuid ? await this.prisma.webhook.findFirst({ where: { id, accountId: owner.accountId }, select: { id: true } }) : null;
    if (!row) throw new DomainError('NOT_FOUND', `no webhook ${id}`);
    return row.id;
  }
}
