/**
 * Webhook signatures: header `Scopa-Signature: t=<unix seconds>,v1=<hex>`,
 * where hex = HMAC-SHA256(key = the webhook's secret as UTF-8,
 * message = "<t>.<raw body>"). A receiver recomputes it over the raw body,
 * compares in constant time, and refuses a t too far from its clock.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

export const SIGNATURE_HEADER = 'Scopa-Signature';

export function signatureOf(secret: string, timestamp: number, body: string): string {
  return createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex');
}

export function signatureHeader(secret: string, timestamp: number, body: string): string {
  return `t=${timestamp},v1=${signatureOf(secret, timestamp, body)}`;
}

/** True when `header` signs `body` with `secret` and its timestamp is within `toleranceSec` of `nowSec`. */
export function verifySignature(secret: string, header: string | undefined, body: string, nowSec = Math.floor(Date.now() / 1000), toleranceSec = 300): boolean {
  if (!header) return false;
  const parts = new Map<string, string[]>();
  for (const item of header.split(',')) {
    const i = item.indexOf('=');
    if (i <= 0) continue;
    const k = item.slice(0, i).trim();
    parts.set(k, [...(parts.get(k) ?? []), item.slice(i + 1).trim()]);
  }
  const t = Number(parts.get('t')?.[0]);
  if (!Number.isSafeInteger(t) || Math.abs(nowSec - t) > toleranceSec) return false;
  const expected = Buffer.from(signatureOf(secret, t, body), 'hex');
  return (parts.get('v1') ?? []).some((v) => {
    const given = Buffer.from(v, 'hex');
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
}
