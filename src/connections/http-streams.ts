/**
 * Long-lived HTTP responses (the NDJSON streams, GraphQL over Server-Sent
 * Events) held to the same rules as graphql-ws sockets: each counts toward
 * the caller's subscription cap (SubscriptionCaps) and is tracked in the
 * SocketRegistry by its credential, through an adapter that presents the
 * response as a TrackedSocket, so that a revocation heard from any instance,
 * or the JWT's expiry, ends it (and whatever the registry's listeners, such
 * as presence, derive from open connections sees it).
 */
import { Injectable } from '@nestjs/common';
import type { ServerResponse } from 'node:http';
import { DomainError } from '../common/domain-error';
import type { Principal } from '../common/principal';
import { SocketRegistry } from './socket-registry';
import type { Connection, TrackedSocket } from './socket-registry';
import { SubscriptionCaps } from '../limits/subscription-caps';
import type { SubscriptionSlot } from '../limits/subscription-caps';

const OPEN = 1;
const CLOSING = 2;
const CLOSED = 3;

/**
 * An HTTP response as a TrackedSocket: open until the response closes
 * (finished, or the client went away). `close` asks the stream to say why and
 * end (`onEnd(reason)`); `terminate` cuts the connection.
 */
export function responseSocket(res: ServerResponse, onEnd: (reason: string) => void): TrackedSocket {
  let state = res.destroyed || res.writableEnded ? CLOSED : OPEN;
  const closed: (() => void)[] = [];
  res.once('close', () => {
    state = CLOSED;
    for (const listener of closed.splice(0)) listener();
  });
  return {
    get readyState() {
      return state;
    },
    close: (_code?: number, reason?: string) => {
      if (state !== OPEN) return;
      state = CLOSING;
      onEnd(reason ?? 'closed');
    },
    terminate: () => {
      res.destroy();
    },
    once: (_event: 'close', listener: () => void) => {
      if (state === CLOSED) queueMicrotask(listener);
      else closed.push(listener);
    },
  };
}

export interface OpenStreamOptions {
  /** Counts toward the subscription cap (default true; graphql-sse counts only subscription operations itself). */
  counted?: boolean;
}

@Injectable()
export class HttpStreams {
  constructor(
    private readonly registry: SocketRegistry,
    private readonly caps: SubscriptionCaps,
  ) {}

  /**
   * Opens a live stream on `res` for `user`, before anything is written:
   * RATE_LIMITED (reason "subscriptions") beyond the cap, UNAUTHENTICATED when
   * the credential has just ended. Its place in the cap is given back and it
   * is untracked when the response closes. `onEnd(reason)` runs when the
   * credential is revoked ("credential revoked") or expires ("credential
   * expired"): it writes the stream's last message and ends the response.
   */
  open(user: Principal, res: ServerResponse, onEnd: (reason: string) => void, options: OpenStreamOptions = {}): void {
    let slot: SubscriptionSlot | null = null;
    if (options.counted !== false) slot = this.caps.open(user.accountId);
    const connection: Connection = { user, socket: responseSocket(res, onEnd) };
    if (!this.registry.track(connection)) {
      slot?.release();
      throw new DomainError('UNAUTHENTICATED', 'the credential was revoked or has expired');
    }
    if (slot) {
      const release = slot.release;
      if (res.destroyed || res.writableEnded) release();
      else res.once('close', release);
    }
  }

  /** One place in the caller's subscription cap, given back when `res` closes (graphql-sse: subscription operations only). */
  count(user: Principal, res: ServerResponse): void {
    const slot = this.caps.open(user.accountId);
    if (res.destroyed || res.writableEnded) slot.release();
    else res.once('close', slot.release);
  }
}
