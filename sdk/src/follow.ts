import { createClient } from 'graphql-ws';
import type { Client as WsClient } from 'graphql-ws';
import { print } from 'graphql';
import { ScopaError, isRecord } from './errors.js';
import { MatchEventsLiveDocument } from './generated/graphql/graphql.js';
import type { MatchEventsLiveSubscription } from './generated/graphql/graphql.js';
import { sleep } from './retry.js';

/** One event of `ScopaClient.follow`: the event, and the match as I may see it right after it. */
export type LiveMatchEvent = MatchEventsLiveSubscription['matchEventsLive'];

export interface FollowOptions {
  /** Return after the `MatchEnded` event (default true). */
  untilEnd?: boolean;
  /** Stops following (the iterator then returns). */
  signal?: AbortSignal;
  /** Reconnections in a row without an event before giving up with the last error (default: no limit). */
  maxReconnects?: number;
  /** First delay before reconnecting, doubled up to 5 s (default 250 ms). */
  reconnectDelayMs?: number;
  /** Called before each reconnection, with the error that closed the connection and the seq it resumes from. */
  onReconnect?: (info: { attempt: number; fromSeq: number; error: unknown }) => void;
}

/**
 * What {@link follow} needs of a client (a `ScopaClient` is one). Declared
 * here so that this file does not import client.ts, which imports it.
 */
export interface FollowClient {
  /** The WebSocket class to use, if the app gave one. */
  readonly webSocketImpl: unknown;
  /** The graphql-ws URL. */
  readonly webSocketUrl: string;
  /** The token to send now (refreshed first when it has to be). */
  currentToken(): Promise<string | undefined>;
  /** Records the seq a match has reached. */
  observeSeq(matchId: string, seq: number): void;
  /** The OAuth tokens held, if any: with a refresh token, a refused credential is refreshed once. */
  readonly oauthTokens: { refreshToken?: string } | undefined;
  refreshOAuth(): Promise<unknown>;
}

/** Close codes after which reconnecting cannot help: the credential was refused, revoked or expired (4403), or the request is bad (4400). */
const FATAL_CLOSE = new Set([4400, 4401, 4403, 4406, 4409]);

export async function* follow(client: FollowClient, matchId: string, fromSeq: number, options: FollowOptions): AsyncGenerator<LiveMatchEvent, void, undefined> {
  const untilEnd = options.untilEnd ?? true;
  const maxReconnects = options.maxReconnects ?? Number.POSITIVE_INFINITY;
  const baseDelay = options.reconnectDelayMs ?? 250;
  let next = Math.max(1, fromSeq);
  let failures = 0;
  let refreshed = false;
  const query = print(MatchEventsLiveDocument);

  while (!options.signal?.aborted) {
    const used: { token?: string } = {};
    const socket = await openSocket(client, used);
    const results = socket.iterate<MatchEventsLiveSubscription>({ query, variables: { matchId, fromSeq: next } });
    // Stopping unsubscribes rather than disposing the client: a dispose while connecting closes the socket as it is
    // acknowledged, under graphql-ws's own Subscribe message (a send on a closing socket, an error in a browser's console).
    const onAbort = () => void results.return?.();
    options.signal?.addEventListener('abort', onAbort, { once: true });
    try {
      for await (const result of results) {
        if (result.errors?.length) throw ScopaError.fromGraphQL(result.errors[0]);
        const live = result.data?.matchEventsLive;
        if (!live) continue;
        if (live.event.seq < next) continue; // already delivered before a reconnection
        next = live.event.seq + 1;
        failures = 0;
        refreshed = false;
        client.observeSeq(matchId, live.match.seq);
        yield live;
        if (untilEnd && live.event.type === 'MatchEnded') return;
      }
      if (options.signal?.aborted) return;
      // The service completed the subscription without the end: resume.
    } catch (error) {
      if (options.signal?.aborted) return;
      const fatal = fatalError(error);
      if (fatal?.code === 'UNAUTHENTICATED' && client.oauthTokens?.refreshToken && !refreshed) {
        // an OAuth access token expired under the socket: refresh once and resume
        refreshed = true;
        await client.refreshOAuth().catch(() => {
          throw fatal;
        });
        continue;
      }
      if (fatal?.code === 'UNAUTHENTICATED' && used.token !== undefined && (await client.currentToken().catch(() => used.token)) !== used.token) {
        // the token this connection sent has ended, and the client has a newer one (a token provider whose session was
        // refreshed meanwhile): resume with it; the same token again would be refused again, so that ends it
        continue;
      }
      if (fatal) throw fatal;
      failures++;
      if (failures > maxReconnects) throw toScopaError(error);
      options.onReconnect?.({ attempt: failures, fromSeq: next, error });
      await sleep(Math.min(5000, baseDelay * 2 ** (failures - 1)));
    } finally {
      options.signal?.removeEventListener('abort', onAbort);
      await socket.dispose();
    }
  }
}

async function openSocket(client: FollowClient, used: { token?: string }): Promise<WsClient> {
  const webSocketImpl = client.webSocketImpl ?? (globalThis as { WebSocket?: unknown }).WebSocket ?? (await import('ws')).default;
  return createClient({
    url: client.webSocketUrl,
    webSocketImpl,
    lazy: true,
    retryAttempts: 0, // follow() reconnects itself, resuming from the last seq
    connectionParams: async () => {
      const token = await client.currentToken();
      used.token = token;
      return token ? { authorization: `Bearer ${token}` } : {};
    },
  });
}

/** Errors after which follow() reconnects and resumes from the last seq (SERVICE_UNAVAILABLE: the database is failing over). */
const TRANSIENT = new Set(['RATE_LIMITED', 'INTERNAL', 'SERVICE_UNAVAILABLE']);

/** A GraphQL error (the match does not exist, I may not see it, ...) or a refused credential ends the iteration. */
function fatalError(error: unknown): ScopaError | undefined {
  if (error instanceof ScopaError) return TRANSIENT.has(error.code) ? undefined : error;
  if (Array.isArray(error) && error.length > 0) {
    const e = ScopaError.fromGraphQL(error[0]);
    return TRANSIENT.has(e.code) ? undefined : e;
  }
  const code = closeCode(error);
  if (code !== undefined && FATAL_CLOSE.has(code)) {
    return new ScopaError({
      code: code === 4403 ? 'UNAUTHENTICATED' : 'VALIDATION_FAILED',
      message: `the live connection was closed: ${code} ${closeReason(error)}`.trim(),
      status: code === 4403 ? 401 : 400,
    });
  }
  return undefined;
}

function toScopaError(error: unknown): ScopaError {
  if (error instanceof ScopaError) return error;
  if (Array.isArray(error) && error.length > 0) return ScopaError.fromGraphQL(error[0]);
  const code = closeCode(error);
  return ScopaError.network(code === undefined ? error : new Error(`closed ${code} ${closeReason(error)}`.trim()));
}

function closeCode(error: unknown): number | undefined {
  return isRecord(error) && typeof error.code === 'number' ? error.code : undefined;
}

function closeReason(error: unknown): string {
  return isRecord(error) && typeof error.reason === 'string' ? error.reason : '';
}
