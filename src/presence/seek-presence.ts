/**
 * Who is online, as far as live seeks need it (docs/lobby.md "Seek
 * expiry"): this instance's open connections (graphql-ws, and the HTTP
 * streams that track themselves in the SocketRegistry). Across instances it
 * works through the database, with no read of the shared presence
 * (src/presence/) per seek: each instance's sweeper refreshes
 * `seeks.last_seen_at` for the owners connected to it, and a live seek
 * expires when no instance has seen its owner for SEEK_IDLE_EXPIRY.
 */
import { SocketRegistry } from '../connections/socket-registry';

export interface SeekPresence {
  /** Whether the player (a lowercased username) holds an open connection here now. */
  isOnline(player: string): boolean;
}

export const SEEK_PRESENCE = Symbol('SEEK_PRESENCE');

/** From this instance's SocketRegistry; the set of connected players is computed once per second at most (a sweep asks for many). */
export function socketPresence(sockets: SocketRegistry): SeekPresence {
  let online: Set<string> | null = null;
  let at = 0;
  return {
    isOnline: (player) => {
      if (!online || Date.now() - at > 1000) {
        online = sockets.connectedPlayers();
        at = Date.now();
      }
      return online.has(player);
    },
  };
}
