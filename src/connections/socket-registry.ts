import { Injectable } from '@nestjs/common';
import type { OnModuleDestroy } from '@nestjs/common';
import type { Principal } from '../common/principal';
import { RevocationBus, accessTokenKey, accountKey, grantKey, sessionKey, tokenKey } from './revocations';

/** graphql-ws's close code for a refused credential (the one a bad token gets at connect). */
export const CLOSE_FORBIDDEN = 4403;
/** A peer that does not answer the close handshake is cut off after this long (ws would wait 30 s). */
const CLOSE_GRACE_MS = 1000;
/** setTimeout's longest delay; a later expiry re-arms. */
const MAX_DELAY_MS = 2 ** 31 - 1;
const CLOSED = 3;

/** The part of a `ws` WebSocket this needs. */
export interface TrackedSocket {
  readonly readyState: number;
  close(code?: number, reason?: string): void;
  terminate?(): void;
  once(event: 'close', listener: () => void): unknown;
}

/** An open graphql-ws connection: its socket, and the caller its operations run as (cleared when the credential ends). */
export interface Connection {
  user?: Principal;
  socket: TrackedSocket;
}

/**
 * The credentials whose end ends a principal's connections: its API token,
 * its session, or for an OAuth access token both the token itself and its
 * grant; and, for every kind, its account (a ban ends them all). Empty when
 * the principal names no credential (it cannot be tracked).
 */
export function credentialKeys(user: Principal): string[] {
  const own =
    user.via === 'token'
      ? user.tokenId
        ? [tokenKey(user.tokenId)]
        : []
      : user.via === 'oauth'
        ? user.grantId && user.accessTokenId
          ? [grantKey(user.grantId), accessTokenKey(user.accessTokenId)]
          : []
        : user.sessionId
          ? [sessionKey(user.sessionId)]
          : [];
  return own.length > 0 && user.accountId ? [...own, accountKey(user.accountId)] : own;
}

/**
 * The open sockets of this instance, by credential, so that a revocation
 * (heard from any instance) finds them without a scan and closes them with
 * 4403, and a session's socket closes when its JWT expires. Operations on a
 * socket run as `connection.user`, read per operation: it is cleared first,
 * so nothing more runs as that caller even before the socket is gone.
 */
/** Told when a tracked connection opens or closes (presence: src/presence/). `user` is who it was opened as. */
export type SocketListener = (user: Principal) => void;

@Injectable()
export class SocketRegistry implements OnModuleDestroy {
  private readonly byCredential = new Map<string, Set<Connection>>();
  /** Who each tracked connection was opened as (kept when connection.user is cleared, for the closed listeners). */
  private readonly owners = new Map<Connection, Principal>();
  private readonly openedListeners = new Set<SocketListener>();
  private readonly closedListeners = new Set<SocketListener>();
  private readonly expiries = new Map<Connection, NodeJS.Timeout>();
  private readonly unlisten: () => void;

  constructor(private readonly bus: RevocationBus) {
    this.unlisten = bus.onRevoked((keys) => {
      for (const key of keys) for (const connection of [...(this.byCredential.get(key) ?? [])]) this.end(connection, 'credential revoked');
    });
  }

  /** Tracks an authenticated connection until its socket closes; false when its credential has already ended. */
  track(connection: Connection): boolean {
    const user = connection.user;
    const keys = user ? credentialKeys(user) : [];
    if (!user || keys.length === 0 || keys.some((key) => this.bus.isRevoked(key))) return false;
    if (user.expiresAt !== undefined && user.expiresAt <= Date.now()) return false;
    for (const key of keys) {
      let set = this.byCredential.get(key);
      if (!set) this.byCredential.set(key, (set = new Set()));
      set.add(connection);
    }
    this.owners.set(connection, user);
    connection.socket.once('close', () => this.untrack(connection, keys));
    if (user.expiresAt !== undefined) this.expireAt(connection, user.expiresAt);
    this.emit(this.openedListeners, user);
    return true;
  }

  /**
   * Listens to connections opening (once tracked) and closing (socket closed,
   * or its credential ended): each tracked connection gives one of each.
   * Returns an unsubscribe. Listener errors are the listener's own.
   */
  onOpened(listener: SocketListener): () => void {
    this.openedListeners.add(listener);
    return () => this.openedListeners.delete(listener);
  }

  onClosed(listener: SocketListener): () => void {
    this.closedListeners.add(listener);
    return () => this.closedListeners.delete(listener);
  }

  /** How many tracked connections this instance holds for a username (any credential). */
  openFor(username: string): number {
    let n = 0;
    for (const user of this.owners.values()) if (user.username === username) n++;
    return n;
  }

  private emit(listeners: Set<SocketListener>, user: Principal): void {
    for (const listener of listeners) {
      try {
        listener(user);
      } catch {
        // a listener's failure is its own
      }
    }
  }

  /** How many sockets are open with this credential (`token:<id>`, `session:<sid>`, `grant:<id>` or `access-token:<jti>`). */
  openWith(key: string): number {
    return this.byCredential.get(key)?.size ?? 0;
  }

  /** The players (lowercased usernames) holding an open connection on this instance, whatever the credential. */
  connectedPlayers(): Set<string> {
    const players = new Set<string>();
    for (const set of this.byCredential.values()) for (const connection of set) if (connection.user) players.add(connection.user.username);
    return players;
  }

  onModuleDestroy(): void {
    this.unlisten();
    for (const timer of this.expiries.values()) clearTimeout(timer);
    this.expiries.clear();
  }

  private expireAt(connection: Connection, at: number): void {
    const left = at - Date.now();
    if (left <= 0) return this.end(connection, 'credential expired');
    const timer = setTimeout(() => this.expireAt(connection, at), Math.min(left, MAX_DELAY_MS));
    timer.unref();
    this.expiries.set(connection, timer);
  }

  private end(connection: Connection, reason: string): void {
    const user = connection.user;
    connection.user = undefined;
    if (user) this.untrack(connection, credentialKeys(user));
    const { socket } = connection;
    if (socket.readyState === CLOSED) return;
    socket.close(CLOSE_FORBIDDEN, reason);
    // graphql-ws stops the socket's subscriptions when it has closed: do not let a silent peer hold them open.
    setTimeout(() => {
      if (socket.readyState !== CLOSED) socket.terminate?.();
    }, CLOSE_GRACE_MS).unref();
  }

  private untrack(connection: Connection, keys: string[]): void {
    const timer = this.expiries.get(connection);
    if (timer) clearTimeout(timer);
    this.expiries.delete(connection);
    const owner = this.owners.get(connection);
    this.owners.delete(connection);
    for (const key of keys) {
      const set = this.byCredential.get(key);
      if (set) {
        set.delete(connection);
        if (set.size === 0) this.byCredential.delete(key);
      }
    }
    if (owner) this.emit(this.closedListeners, owner);
  }
}
