/**
 * Messages a WebSocket sends in one turn of the event loop leave in one TCP
 * write. A match notice fans out to every subscription of a socket at once,
 * and a mutation answers with `next` then `complete`. A write apiece meant a
 * system call, a segment and a wake-up of the reader for each message: with
 * one write per turn, two instances went from 896 to 1,232 plays/s
 * (bench:api, saturation).
 *
 * The messages keep their order; they go out when the current I/O phase is
 * over (setImmediate), so the added wait is the rest of the current turn.
 */

/** The part of a `ws` WebSocket this needs. */
export interface CoalescableSocket {
  readonly readyState: number;
  readonly OPEN: number;
  send(data: unknown, options?: unknown, cb?: (err?: Error) => void): void;
  close(code?: number, reason?: string | Buffer): void;
  /** ws keeps its net.Socket here; absent on other implementations (then each message is written as it comes). */
  _socket?: { cork(): void; uncork(): void };
}

type SendCallback = (err?: Error) => void;

export function coalesceSends(ws: CoalescableSocket): void {
  const send = ws.send.bind(ws);
  let pending: { data: unknown; options: unknown }[] | null = null;

  const flush = () => {
    const batch = pending ?? [];
    pending = null;
    const socket = ws._socket;
    socket?.cork();
    try {
      // A socket that closed meanwhile drops them, as it would have dropped a direct send.
      for (const { data, options } of batch) send(data, options, () => undefined);
    } finally {
      socket?.uncork();
    }
  };

  // What was sent before a close goes out before it (graphql-ws may send an error, then close).
  const close = ws.close.bind(ws);
  ws.close = (code?: number, reason?: string | Buffer): void => {
    if (pending) flush();
    close(code, reason);
  };

  ws.send = (data: unknown, options?: unknown, cb?: SendCallback): void => {
    if (typeof options === 'function') {
      cb = options as SendCallback;
      options = {};
    }
    // Not open: ws's own behaviour (an error to the callback, or a throw while connecting).
    if (ws.readyState !== ws.OPEN) {
      send(data, options, cb);
      return;
    }
    if (!pending) {
      pending = [];
      setImmediate(flush);
    }
    pending.push({ data, options });
    // Accepted, as a socket write that did not block is: graphql-ws awaits this before its next message.
    if (cb) process.nextTick(cb);
  };
}
