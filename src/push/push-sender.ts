/**
 * One push to one subscription, through npm `web-push`: the payload encrypted for the browser's keys (RFC 8291,
 * `aes128gcm`), the request signed with the service's VAPID keys (RFC 8292: `Authorization: vapid t=<ES256 JWT>,
 * k=<public key>`), TTL, Topic and Urgency headers (RFC 8030).
 *
 * The endpoint passes the webhooks' target policy (src/webhooks/target-policy.ts) at each send, as a webhook's URL
 * does: an IP literal is judged here, a name in the connection's own lookup (the socket goes to the address that was
 * checked, so a name that now resolves inside is refused: DNS rebinding). PUSH_ALLOW_PRIVATE=true lifts it.
 */
import https from 'node:https';
import { isIP } from 'node:net';
import webpush from 'web-push';
import { RefusedTargetError } from '../webhooks/target-policy';
import type { WebhookTargetPolicy } from '../webhooks/target-policy';
import { pushTopic, pushTtlSeconds } from './push-payloads';
import type { PushPayload } from './push-payloads';
import type { VapidKeys } from './vapid-keys';

/** The TLS options of the push requests (tests: the CA of their loopback push service; the service: none, Node's CAs and NODE_EXTRA_CA_CERTS). */
export interface PushTls {
  ca?: string;
}

/**
 * delivered: a 2xx; gone: 404 or 410, the subscription is no more (RFC 8030 8.3); retry: 429, a 5xx, no answer in
 * time or no connection (the job runs again after its back-off); rejected: another 4xx (a bad request: sending it again
 * changes nothing); refused: the target policy refused the endpoint's address.
 */
export type SendOutcome =
  | { status: 'delivered' | 'gone' | 'rejected'; code: number }
  | { status: 'retry'; code: number | null; reason: string }
  | { status: 'refused'; reason: string };

export interface Subscriber {
  endpoint: string;
  p256dh: string;
  auth: string;
}

export class PushSender {
  private readonly agent: https.Agent;

  constructor(
    private readonly keys: VapidKeys,
    private readonly policy: WebhookTargetPolicy,
    private readonly timeoutMs: number,
    tls: PushTls = {},
  ) {
    this.agent = new https.Agent({ keepAlive: true, maxSockets: 16, lookup: policy.lookup, ...(tls.ca ? { ca: tls.ca } : {}) });
  }

  async send(to: Subscriber, payload: PushPayload): Promise<SendOutcome> {
    const host = new URL(to.endpoint).hostname.replace(/^\[|\]$/g, '');
    const why = isIP(host) ? this.policy.refusal(host) : null;
    if (why) return { status: 'refused', reason: why };
    const topic = pushTopic(payload);
    try {
      const res = await webpush.sendNotification({ endpoint: to.endpoint, keys: { p256dh: to.p256dh, auth: to.auth } }, JSON.stringify(payload), {
        vapidDetails: { subject: this.keys.subject, publicKey: this.keys.publicKey, privateKey: this.keys.privateKey },
        contentEncoding: 'aes128gcm',
        TTL: pushTtlSeconds(payload),
        urgency: payload.kind === 'yourTurn' || payload.kind === 'clockLow' ? 'high' : 'normal',
        ...(topic ? { topic } : {}),
        timeout: this.timeoutMs,
        agent: this.agent,
      });
      return { status: 'delivered', code: res.statusCode };
    } catch (err) {
      if (err instanceof webpush.WebPushError) {
        const code = err.statusCode;
        if (code === 404 || code === 410) return { status: 'gone', code };
        if (code === 429 || code >= 500) return { status: 'retry', code, reason: `HTTP ${code}` };
        return { status: 'rejected', code };
      }
      if (err instanceof RefusedTargetError) return { status: 'refused', reason: err.reason };
      return { status: 'retry', code: null, reason: 'connection failed' };
    }
  }

  close(): void {
    this.agent.destroy();
  }
}
