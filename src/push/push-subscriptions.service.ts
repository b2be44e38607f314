/**
 * A player's Web Push subscriptions (docs/notifications.md): registration (the browser's PushSubscription JSON and the
 * kinds wanted; the same endpoint again replaces its keys and kinds: that is how kinds are switched), listing,
 * removal, and the public key browsers subscribe with.
 */
import { ECDH } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { DomainError } from '../common/domain-error';
import { PushConfig } from '../config/slices';
import { RefusedTargetError, WebhookTargetPolicy } from '../webhooks/target-policy';
import { PUSH_KINDS, isPushKind } from './push-kinds';
import type { PushKind } from './push-kinds';
import { PushSubscriptionsStore } from './push-subscriptions-store';
import type { PushSubscriptionRow } from './push-subscriptions-store';
import { VAPID_KEYS } from './push-tokens';
import type { VapidKeys } from './vapid-keys';

/** Subscriptions per account (browsers and devices): LIMIT_REACHED beyond. */
export const MAX_PUSH_SUBSCRIPTIONS = 20;
const MAX_ENDPOINT_LENGTH = 2000;

export interface PushSubscriptionView {
  id: string;
  endpoint: string;
  kinds: PushKind[];
  createdAt: Date;
  updatedAt: Date;
}

export interface Owner {
  accountId: string;
  username: string;
}

/** What POST /v1/account/push-subscriptions and addPushSubscription take (the browser's subscription.toJSON(), plus kinds). */
export interface PushSubscriptionRequest {
  endpoint: unknown;
  keys: { p256dh?: unknown; auth?: unknown } | null | undefined;
  kinds?: unknown;
}

const BASE64URL = /^[A-Za-z0-9_-]+={0,2}$/;

function base64url(field: string, raw: unknown, bytes: number): Buffer {
  if (typeof raw !== 'string' || !BASE64URL.test(raw)) throw new DomainError('VALIDATION_FAILED', `${field}: base64url`);
  const value = Buffer.from(raw.replace(/=+$/, ''), 'base64url');
  if (value.length !== bytes) throw new DomainError('VALIDATION_FAILED', `${field}: ${bytes} bytes`);
  return value;
}

/** An https URL without credentials, or VALIDATION_FAILED. Push services are reached over https only, whatever PUSH_ALLOW_PRIVATE says. */
export function checkPushEndpoint(raw: unknown): string {
  if (typeof raw !== 'string' || raw.length === 0 || raw.length > MAX_ENDPOINT_LENGTH) {
    throw new DomainError('VALIDATION_FAILED', `endpoint: an https URL of at most ${MAX_ENDPOINT_LENGTH} characters`);
  }
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new DomainError('VALIDATION_FAILED', 'endpoint: not a URL');
  }
  if (url.protocol !== 'https:') throw new DomainError('VALIDATION_FAILED', 'endpoint: only https URLs');
  if (url.username || url.password) throw new DomainError('VALIDATION_FAILED', 'endpoint: no credentials in the URL');
  return url.toString();
}

/** The kinds asked for: default every kind; an unknown one, a repeat or none is VALIDATION_FAILED. */
export function checkPushKinds(raw: unknown): PushKind[] {
  if (raw === undefined || raw === null) return [...PUSH_KINDS];
  const one = `kinds: one or more of ${PUSH_KINDS.join(', ')}`;
  if (!Array.isArray(raw) || raw.length === 0 || !raw.every(isPushKind)) throw new DomainError('VALIDATION_FAILED', one);
  const set = new Set(raw);
  // In the one order of PUSH_KINDS, so that a list reads the same however it was sent.
  return PUSH_KINDS.filter((k) => set.has(k));
}

/** The browser's keys: p256dh an uncompressed P-256 point on the curve (65 bytes), auth 16 bytes. */
function checkKeys(keys: PushSubscriptionRequest['keys']): { p256dh: string; auth: string } {
  if (!keys || typeof keys !== 'object') throw new DomainError('VALIDATION_FAILED', 'keys: { p256dh, auth }');
  const point = base64url('keys.p256dh', keys.p256dh, 65);
  try {
    if (point[0] !== 4) throw new Error('compressed');
    ECDH.convertKey(point, 'prime256v1', undefined, undefined, 'uncompressed');
  } catch {
    throw new DomainError('VALIDATION_FAILED', 'keys.p256dh: not an uncompressed P-256 public key');
  }
  const auth = base64url('keys.auth', keys.auth, 16);
  return { p256dh: point.toString('base64url'), auth: auth.toString('base64url') };
}

function view(r: PushSubscriptionRow): PushSubscriptionView {
  return { id: r.id, endpoint: r.endpoint, kinds: r.kinds.filter(isPushKind), createdAt: r.createdAt, updatedAt: r.updatedAt };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

@Injectable()
export class PushSubscriptionsService {
  private readonly policy: WebhookTargetPolicy;

  constructor(
    private readonly store: PushSubscriptionsStore,
    @Inject(PushConfig) config: Pick<PushConfig, 'PUSH_ALLOW_PRIVATE'>,
    @Inject(VAPID_KEYS) private readonly keys: VapidKeys,
  ) {
    this.policy = new WebhookTargetPolicy(config.PUSH_ALLOW_PRIVATE);
  }

  /** The VAPID public key (base64url), the `applicationServerKey` of PushManager.subscribe. */
  vapidPublicKey(): string {
    return this.keys.publicKey;
  }

  /**
   * Registers the browser's subscription for the kinds asked (default all), or, for an endpoint of mine already
   * registered, replaces its keys and kinds (same id). Nothing is stored unless every check passes.
   */
  async add(owner: Owner, req: PushSubscriptionRequest): Promise<PushSubscriptionView> {
    const endpoint = checkPushEndpoint(req.endpoint);
    const keys = checkKeys(req.keys);
    const kinds = checkPushKinds(req.kinds);
    await this.checkTarget(endpoint);
    const stored = await this.store.upsert({ accountId: owner.accountId, username: owner.username, endpoint, ...keys, kinds }, MAX_PUSH_SUBSCRIPTIONS);
    if (!stored) {
      throw new DomainError('LIMIT_REACHED', `at most ${MAX_PUSH_SUBSCRIPTIONS} push subscriptions per account`, { limit: MAX_PUSH_SUBSCRIPTIONS });
    }
    return view(stored.row);
  }

  async list(owner: Owner): Promise<PushSubscriptionView[]> {
    return (await this.store.list(owner.accountId)).map(view);
  }

  /** NOT_FOUND unless the caller has a subscription `id`. */
  async remove(owner: Owner, id: string): Promise<boolean> {
    if (!UUID.test(id) || !(await this.store.remove(owner.accountId, id))) throw new DomainError('NOT_FOUND', `no push subscription ${id}`);
    return true;
  }

  /** VALIDATION_FAILED unless the endpoint's host is, and resolves only to, public addresses (checked again at each push). */
  private async checkTarget(endpoint: string): Promise<void> {
    const host = new URL(endpoint).hostname;
    try {
      await this.policy.checkHost(host);
    } catch (err) {
      if (err instanceof RefusedTargetError) {
        throw new DomainError('VALIDATION_FAILED', `endpoint: ${host} is or resolves to ${err.reason}; push endpoints may only target public addresses`);
      }
      throw new DomainError('VALIDATION_FAILED', `endpoint: ${host} does not resolve`);
    }
  }
}
