/** The push module's injection tokens: its VAPID keys (./vapid-keys.ts) and the TLS options of its requests (./push-sender.ts PushTls). */
export const VAPID_KEYS = Symbol('VAPID_KEYS');
export const PUSH_TLS = Symbol('PUSH_TLS');
