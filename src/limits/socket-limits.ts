/**
 * Caps on what is held open over graphql-ws on this instance: sockets in all
 * (WS_MAX_CONNECTIONS, by default what the process's file descriptor limit
 * leaves after a reserve), sockets per address (both refused with close code
 * 4429) and subscriptions per
 * account (refused with RATE_LIMITED; the count is SubscriptionCaps, shared
 * with graphql-sse and the NDJSON streams), and the scopa_subscriptions_open
 * gauge, which follows the same count: up when a subscription is accepted,
 * down when it completes (client `complete`, end of stream, error) or its
 * socket closes.
 */
import { GraphQLError, getOperationAST } from 'graphql';
import type { ExecutionArgs } from 'graphql';
import { readFileSync } from 'node:fs';
import type { Context, ServerOptions, SubscribePayload } from 'graphql-ws';
import type { SubscriptionCaps } from './subscription-caps';
import type { AppConfig } from '../config/config';

export interface SocketLimitsConfig {
  maxConnectionsPerAddress: number;
  /** Sockets this instance holds in all (Infinity: no cap). */
  maxConnections: number;
}

/**
 * The soft limit on open files of this process (RLIMIT_NOFILE, from /proc/self/limits), or null where it cannot be
 * read (not Linux) or is unlimited.
 */
export function fileDescriptorLimit(limits: () => string = () => readFileSync('/proc/self/limits', 'utf8')): number | null {
  try {
    const soft = /^Max open files\s+(\d+|unlimited)/m.exec(limits())?.[1];
    return soft === undefined || soft === 'unlimited' ? null : Number(soft);
  } catch {
    return null;
  }
}

/**
 * The sockets a descriptor limit leaves room for: every socket is a descriptor, and the instance needs others beside
 * them (its database and Redis connections, HTTP requests, files). Past the limit accept() fails, and it fails for
 * REST, the pools' reconnections and the health checks as much as for one more socket (bench:connections saw a
 * request reset and the sample's plays lost once 19,968 sockets held all but 32 of 20,000). Kept back: 256 or one
 * fiftieth, whichever is more.
 */
export function connectionsForDescriptors(limit: number | null): number {
  if (limit === null) return Infinity;
  return Math.max(1, limit - Math.max(256, Math.floor(limit / 50)));
}

/** WS_MAX_CONNECTIONS_PER_ADDRESS and WS_MAX_CONNECTIONS (src/config); the latter, unset, from the descriptor limit. */
export function socketLimitsConfig(
  config: Pick<AppConfig, 'WS_MAX_CONNECTIONS_PER_ADDRESS' | 'WS_MAX_CONNECTIONS'>,
  descriptors: () => number | null = fileDescriptorLimit,
): SocketLimitsConfig {
  return {
    maxConnectionsPerAddress: config.WS_MAX_CONNECTIONS_PER_ADDRESS,
    maxConnections: config.WS_MAX_CONNECTIONS ?? connectionsForDescriptors(descriptors()),
  };
}

/** graphql-ws's close code for a refused socket (its own code for "too many", reused with our reason). */
export const TOO_MANY_CONNECTIONS = 4429;

/** What a socket's limits remember, on graphql-ws's `extra`. */
export interface SocketLimitState {
  /** The client's address, set before onConnect. */
  address: string;
  /** Counted against its address (only accepted sockets are). */
  counted?: boolean;
  /** Open subscriptions by operation id, with the account they are counted against. */
  subscriptions?: Map<string, string>;
}

type Hooks = Required<Pick<ServerOptions, 'onSubscribe' | 'onComplete' | 'onClose'>>;

/** Counts per key, forgetting a key at zero. */
class Counter {
  private readonly counts = new Map<string, number>();
  tryAdd(key: string, max: number): boolean {
    const n = this.counts.get(key) ?? 0;
    if (n >= max) return false;
    this.counts.set(key, n + 1);
    return true;
  }
  remove(key: string): void {
    const n = (this.counts.get(key) ?? 0) - 1;
    if (n > 0) this.counts.set(key, n);
    else this.counts.delete(key);
  }
}

export class SocketLimits {
  private readonly connections = new Counter();
  /** Accepted sockets in all. */
  private open = 0;

  constructor(
    readonly config: SocketLimitsConfig,
    /** Subscriptions per account, and the gauge: shared with the HTTP streams. */
    private readonly subscriptions: SubscriptionCaps,
  ) {}

  /** Accepts one more socket from the address, or closes it with 4429 and says false. */
  connect(state: SocketLimitState, socket: { close(code: number, reason: string): void }): boolean {
    if (state.counted) return true;
    if (this.open >= this.config.maxConnections) {
      // Another instance behind the proxy may have room: a client retries after a pause.
      socket.close(TOO_MANY_CONNECTIONS, `This instance holds its most connections (${this.config.maxConnections}); try again later`);
      return false;
    }
    if (!this.connections.tryAdd(state.address, this.config.maxConnectionsPerAddress)) {
      socket.close(TOO_MANY_CONNECTIONS, `Too many connections from this address (at most ${this.config.maxConnectionsPerAddress})`);
      return false;
    }
    state.counted = true;
    this.open++;
    return true;
  }

  /** Accepted sockets open now. */
  get openConnections(): number {
    return this.open;
  }

  /**
   * graphql-ws hooks: `onSubscribe` runs `prepare` (parse, validation, what
   * the socket's execution does) and then counts a subscription operation
   * against `accountOf(ctx)`.
   */
  hooks(prepare: ServerOptions['onSubscribe'], accountOf: (ctx: Context) => string | undefined, stateOf: (ctx: Context) => SocketLimitState): Hooks {
    const release = (state: SocketLimitState, id: string) => {
      const account = state.subscriptions?.get(id);
      if (account === undefined) return;
      state.subscriptions!.delete(id);
      this.subscriptions.close(account);
    };
    return {
      onSubscribe: async (ctx: Context, id: string, payload: SubscribePayload) => {
        const prepared = await prepare?.(ctx, id, payload);
        if (!prepared || Array.isArray(prepared)) return prepared;
        const args = prepared as ExecutionArgs;
        const operation = getOperationAST(args.document, args.operationName);
        if (operation?.operation !== 'subscription') return prepared;
        const account = accountOf(ctx);
        if (account === undefined) return prepared; // the resolvers' guard refuses it
        if (!this.subscriptions.tryOpen(account)) {
          const error = this.subscriptions.refusal();
          return [new GraphQLError(error.message, { originalError: error })];
        }
        const state = stateOf(ctx);
        (state.subscriptions ??= new Map()).set(id, account);
        return prepared;
      },
      onComplete: (ctx: Context, id: string) => release(stateOf(ctx), id),
      onClose: (ctx: Context) => {
        const state = stateOf(ctx);
        for (const id of [...(state.subscriptions?.keys() ?? [])]) release(state, id);
        if (state.counted) {
          state.counted = false;
          this.open--;
          this.connections.remove(state.address);
        }
      },
    };
  }
}
