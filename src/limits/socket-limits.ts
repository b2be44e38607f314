/**
 * Caps on what one client holds open over graphql-ws on this instance:
 * sockets per address (refused with close code 4429) and subscriptions per
 * account (refused with RATE_LIMITED; the count is SubscriptionCaps, shared
 * with graphql-sse and the NDJSON streams), and the scopa_subscriptions_open
 * gauge, which follows the same count: up when a subscription is accepted,
 * down when it completes (client `complete`, end of stream, error) or its
 * socket closes.
 */
import { GraphQLError, getOperationAST } from 'graphql';
import type { ExecutionArgs } from 'graphql';
import type { Context, ServerOptions, SubscribePayload } from 'graphql-ws';
import type { SubscriptionCaps } from './subscription-caps';
import type { AppConfig } from '../config/config';

export interface SocketLimitsConfig {
  maxConnectionsPerAddress: number;
}

/** WS_MAX_CONNECTIONS_PER_ADDRESS (src/config). */
export function socketLimitsConfig(config: Pick<AppConfig, 'WS_MAX_CONNECTIONS_PER_ADDRESS'>): SocketLimitsConfig {
  return { maxConnectionsPerAddress: config.WS_MAX_CONNECTIONS_PER_ADDRESS };
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

  constructor(
    readonly config: SocketLimitsConfig,
    /** Subscriptions per account, and the gauge: shared with the HTTP streams. */
    private readonly subscriptions: SubscriptionCaps,
  ) {}

  /** Accepts one more socket from the address, or closes it with 4429 and says false. */
  connect(state: SocketLimitState, socket: { close(code: number, reason: string): void }): boolean {
    if (state.counted) return true;
    if (!this.connections.tryAdd(state.address, this.config.maxConnectionsPerAddress)) {
      socket.close(TOO_MANY_CONNECTIONS, `Too many connections from this address (at most ${this.config.maxConnectionsPerAddress})`);
      return false;
    }
    state.counted = true;
    return true;
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
          this.connections.remove(state.address);
        }
      },
    };
  }
}
