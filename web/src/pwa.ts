/**
 * The installable client and its push subscription (docs/notifications.md): registers the service worker
 * (web/public/sw.js) and, for the notifications page, subscribes this browser with the service's VAPID key and
 * registers it for the kinds chosen (POST /v1/account/push-subscriptions through the SDK), or unsubscribes it.
 * No visible text: the views that call it show their own.
 */
import type { PushKind, PushSubscriptionInfo, ScopaClient } from '@scopa/sdk';

/** Whether this browser can take pushes at all (a service worker and the Push API, in a secure context). */
export function pushSupported(): boolean {
  return window.isSecureContext && 'serviceWorker' in navigator && 'PushManager' in window && 'Notification' in window;
}

/** Registers the service worker once the page has loaded (it caches the shell for an offline start). */
export function registerServiceWorker(): Promise<ServiceWorkerRegistration | null> {
  if (!('serviceWorker' in navigator) || !window.isSecureContext) return Promise.resolve(null);
  return navigator.serviceWorker.register('/sw.js', { scope: '/' }).catch(() => null);
}

function keyBytes(base64url: string): Uint8Array<ArrayBuffer> {
  const text = atob(
    base64url
      .replace(/-/g, '+')
      .replace(/_/g, '/')
      .padEnd(Math.ceil(base64url.length / 4) * 4, '='),
  );
  const out = new Uint8Array(new ArrayBuffer(text.length));
  for (let i = 0; i < text.length; i++) out[i] = text.charCodeAt(i);
  return out;
}

/**
 * Asks for the permission (when not yet given), subscribes this browser to the service's push (with its VAPID key)
 * and registers the subscription for `kinds`; registering again with other kinds switches them. Null when the
 * permission is refused.
 */
export async function enablePush(client: ScopaClient, kinds: PushKind[]): Promise<PushSubscriptionInfo | null> {
  if ((await Notification.requestPermission()) !== 'granted') return null;
  const registration = await navigator.serviceWorker.ready;
  let subscription = await registration.pushManager.getSubscription();
  if (!subscription) {
    const { publicKey } = await client.vapidPublicKey();
    subscription = await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(publicKey) });
  }
  const json = subscription.toJSON();
  return client.addPushSubscription(
    { endpoint: json.endpoint!, expirationTime: json.expirationTime ?? null, keys: { p256dh: json.keys!.p256dh, auth: json.keys!.auth } },
    kinds,
  );
}

/** This browser's registration among the account's subscriptions (by endpoint), or null. */
export async function currentPushSubscription(client: ScopaClient): Promise<PushSubscriptionInfo | null> {
  if (!pushSupported()) return null;
  const registration = await navigator.serviceWorker.getRegistration('/');
  const subscription = await registration?.pushManager.getSubscription();
  if (!subscription) return null;
  return (await client.pushSubscriptions()).find((s) => s.endpoint === subscription.endpoint) ?? null;
}

/** Unsubscribes this browser and removes its registration. */
export async function disablePush(client: ScopaClient): Promise<void> {
  const mine = await currentPushSubscription(client);
  if (mine) await client.removePushSubscription(mine.id);
  const registration = await navigator.serviceWorker.getRegistration('/');
  await (await registration?.pushManager.getSubscription())?.unsubscribe();
}
