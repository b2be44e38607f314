/**
 * Who is online, as far as live seeks need it (README "Lobby and seeks",
 * expiry). A small interface so that the presence of the `challenges` work
 * (across instances through Redis) can take its place; today's
 * implementation knows this instance's open connections only (graphql-ws,
 * and the HTTP streams that track themselves in the SocketRegistry). Across
 * instances it still works through the database: each instance's sweeper
 * refreshes `seeks.last_seen_at` for the owners connected to it, and a live
 * seek expires when no instance has seen its owner for SEEK_IDLE_EXPIRY.
 */
import { SocketRegistry } from '../auth/socket-registry';

export interface SeekPresence {
  /** The players connected to this instance now (lowercased usernames). */
  onlineHere(): Set<string>;
}

export const SEEK_PRESENCE = Symbol('SEEK_PRESENCE');

export function socketPresence(sockets: SocketRegistry): SeekPresence {
  return { onlineHere: () => sockets.connectedPlayers() };
}
