/**
 * Connections held open with one credential, one per long-lived transport
 * (graphql-ws, GraphQL over SSE, an NDJSON stream), and how each ended: what
 * the credential-lifetime tests open, end the credential under, and watch.
 */
import { createClient } from 'graphql-ws';
import type { Client } from 'graphql-ws';
import WebSocket from 'ws';
import { openNdjson } from './ndjson-stream';

export type TransportName = 'graphql-ws' | 'graphql-sse' | 'ndjson';
export const TRANSPORTS: TransportName[] = ['graphql-ws', 'graphql-sse', 'ndjson'];

/** How a connection ended: when, and the reason the server gave (close reason, or the last error's message). */
export interface Ending {
  transport: TransportName;
  at: number;
  /** graphql-ws: the close code; the HTTP streams: the last error line's code ('UNAUTHENTICATED'). */
  code: number | string | null;
  reason: string | null;
}

export interface Held {
  transport: TransportName;
  /** Resolves once the server holds the connection as the credential's (graphql-ws: acknowledged; HTTP: headers in). */
  ready: Promise<void>;
  ended: Promise<Ending>;
  /** graphql-ws only: one operation over the socket, its result or its error. */
  run?: (query: string, variables?: Record<string, unknown>) => Promise<{ data?: any; errors?: any }>;
  close(): void;
}

const MY_TURN = 'subscription { myTurn { matchId } }';

export function holdWs(url: string, token: string): Held {
  let ready!: () => void;
  let ended!: (e: Ending) => void;
  const held = {
    transport: 'graphql-ws' as const,
    ready: new Promise<void>((r) => (ready = r)),
    ended: new Promise<Ending>((r) => (ended = r)),
  };
  const client: Client = createClient({
    url,
    webSocketImpl: WebSocket,
    connectionParams: { authorization: `Bearer ${token}` },
    retryAttempts: 0,
    lazy: false,
    onNonLazyError: () => undefined, // the close is what the tests wait for
    on: {
      connected: () => ready(),
      closed: (e) => {
        const event = e as { code: number; reason: string };
        ended({ transport: 'graphql-ws', at: Date.now(), code: event.code, reason: event.reason || null });
      },
    },
  });
  client.subscribe({ query: MY_TURN }, { next: () => undefined, error: () => undefined, complete: () => undefined });
  const run = (query: string, variables: Record<string, unknown> = {}) =>
    new Promise<{ data?: any; errors?: any }>((resolve) => {
      let result = {};
      client.subscribe({ query, variables }, { next: (m) => (result = m), error: (e) => resolve({ errors: e }), complete: () => resolve(result) });
    });
  return { ...held, run, close: () => void client.dispose() };
}

/** A GraphQL subscription over Server-Sent Events (graphql-sse, distinct connections) read as raw events. */
export function holdSse(base: string, token: string): Held {
  const controller = new AbortController();
  let ready!: () => void;
  let failed!: (err: Error) => void;
  const readyP = new Promise<void>((r, f) => ((ready = r), (failed = f)));
  const ended = (async (): Promise<Ending> => {
    const res = await fetch(`${base}/graphql/stream`, {
      method: 'POST',
      headers: { accept: 'text/event-stream', 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ query: MY_TURN }),
      signal: controller.signal,
    }).catch((err: Error) => (failed(err), null));
    if (!res) return { transport: 'graphql-sse', at: Date.now(), code: null, reason: 'request failed' };
    if (res.status !== 200) {
      failed(new Error(`graphql-sse: ${res.status} ${await res.text()}`));
      return { transport: 'graphql-sse', at: Date.now(), code: res.status, reason: null };
    }
    ready();
    let text = '';
    const decoder = new TextDecoder();
    try {
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) text += decoder.decode(chunk, { stream: true });
    } catch {
      // aborted by the client
    }
    const at = Date.now();
    const events = text.split('\n\n').filter((e) => e.startsWith('event:'));
    const last = events[events.length - 1] ?? '';
    const beforeLast = events[events.length - 2] ?? '';
    // the credential's end: a last `next` with an UNAUTHENTICATED error, then `complete`
    const data = /^data: (.*)$/m.exec(beforeLast)?.[1];
    const error = data ? (JSON.parse(data) as { errors?: { message: string; extensions?: { code?: string } }[] }).errors?.[0] : undefined;
    if (!last.startsWith('event: complete') || !error)
      return { transport: 'graphql-sse', at, code: null, reason: `ended without the credential's last event: ${text.slice(-300)}` };
    return { transport: 'graphql-sse', at, code: error.extensions?.code ?? null, reason: error.message };
  })();
  return { transport: 'graphql-sse', ready: readyP, ended, close: () => controller.abort() };
}

/** The caller's NDJSON event stream (GET /v1/stream/events). */
export function holdNdjson(base: string, token: string): Held {
  const opening = openNdjson(`${base}/v1/stream/events`, token);
  const ready = opening.then((s) => {
    if (s.status !== 200) throw new Error(`NDJSON stream: ${s.status} ${s.text()}`);
  });
  const ended = opening.then(async (s): Promise<Ending> => {
    await s.ended;
    const at = Date.now();
    const last = s.lines[s.lines.length - 1] as { error?: { code: string; message: string } } | undefined;
    return { transport: 'ndjson', at, code: last?.error?.code ?? null, reason: last?.error?.message ?? null };
  });
  return { transport: 'ndjson', ready, ended, close: () => void opening.then((s) => s.close()) };
}

/** One connection per transport with `token`, each ready (held by the server as the credential's). */
export async function holdAll(instance: { http: string; ws: string }, token: string): Promise<Held[]> {
  const held = [holdWs(instance.ws, token), holdSse(instance.http, token), holdNdjson(instance.http, token)];
  await Promise.all(held.map((h) => h.ready));
  return held;
}

/** How each connection ended, or null for one still open `ms` after `since` (a hang would otherwise last the test's timeout). */
export async function endings(held: Held[], since: number, ms: number): Promise<(Ending | null)[]> {
  return Promise.all(
    held.map((h) => Promise.race([h.ended, new Promise<null>((r) => setTimeout(() => r(null), Math.max(0, since + ms - Date.now()) + 50).unref())])),
  );
}
