/**
 * The scripted players of test/failover.ha-spec.ts: REST and graphql-ws
 * clients of several instances that retry what the service says is retryable
 * (503 SERVICE_UNAVAILABLE, after its Retry-After; the same code in a GraphQL
 * error) and a dead connection (to the other instance), always with the same
 * request (its idempotency key), and record every answer: the 2xx plays
 * (what the log must hold once each) and anything a client must never see
 * (a 5xx other than SERVICE_UNAVAILABLE, an INTERNAL_SERVER_ERROR).
 */
import { createClient } from 'graphql-ws';
import type { Client } from 'graphql-ws';
import WebSocket from 'ws';

export interface Violation {
  at: number;
  via: string;
  what: string;
}

/** Shared by every client of a run: what the test asserts on. */
export class PlayRecord {
  readonly violations: Violation[] = [];
  /** 503 SERVICE_UNAVAILABLE (REST) / SERVICE_UNAVAILABLE (GraphQL) answers met, retried. */
  unavailable = 0;
  /** Dead connections met (refused, reset, socket closed), retried on the next instance. */
  deadConnections = 0;
  /** Retry-After values seen (seconds). */
  readonly retryAfter: number[] = [];
  /** Every 2xx play: its match, key, card, and when the try that got it started and ended (Date.now()). */
  readonly acked: { matchId: string; actor: string; key: string; card: string; startedAt: number; at: number; via: string }[] = [];
  /** Every answer to a write command (play, join, start, analysis), for the write-resumption figure. */
  readonly writes: { startedAt: number; at: number; ok: boolean }[] = [];

  violation(via: string, what: string): void {
    this.violations.push({ at: Date.now(), via, what: what.slice(0, 400) });
  }
}

/** The service's code for an unexpected error (src/common/error-mapping.ts), and Apollo's. */
const isInternal = (code: unknown) => code === 'INTERNAL' || code === 'INTERNAL_SERVER_ERROR';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** A Retry-After honoured, within bounds (the test's pace). */
const retryDelay = (seconds: number | null) => Math.min(5000, Math.max(200, (seconds ?? 1) * 1000));

export interface Answer {
  status: number;
  body: any;
  text: string;
  via: string;
  startedAt: number;
}

/** REST over the instances' base URLs; `prefer` picks the first one tried. */
export class RestPlayer {
  constructor(
    private readonly urls: readonly string[],
    private readonly record: PlayRecord,
    private readonly deadlineMs = 90_000,
  ) {}

  async request(prefer: number, method: string, path: string, token: string | null, body?: unknown): Promise<Answer> {
    const deadline = Date.now() + this.deadlineMs;
    let k = prefer;
    let last = '';
    while (Date.now() < deadline) {
      const url = this.urls[((k % this.urls.length) + this.urls.length) % this.urls.length];
      const startedAt = Date.now();
      let res: Response;
      let text: string;
      try {
        res = await fetch(url + path, {
          method,
          headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...(token ? { authorization: `Bearer ${token}` } : {}) },
          body: body === undefined ? undefined : JSON.stringify(body),
          signal: AbortSignal.timeout(20_000),
        });
        text = await res.text();
      } catch (err) {
        this.record.deadConnections++;
        last = `${url}: ${(err as Error).message}`;
        k++; // that instance is gone (or hangs): the next one
        await sleep(100);
        continue;
      }
      let parsed: any = null;
      try {
        parsed = text ? JSON.parse(text) : null;
      } catch {
        parsed = null; // NDJSON (an export)
      }
      if (res.status < 500 && isInternal(parsed?.code)) this.record.violation(url, `${method} ${path}: ${res.status} ${text}`);
      if (res.status === 503 && parsed?.code === 'SERVICE_UNAVAILABLE') {
        this.record.unavailable++;
        const ra = res.headers.get('retry-after');
        if (ra === null) this.record.violation(url, `${method} ${path}: 503 SERVICE_UNAVAILABLE without Retry-After`);
        else this.record.retryAfter.push(Number(ra));
        last = `${res.status} ${text.slice(0, 200)}`;
        await sleep(retryDelay(ra === null ? null : Number(ra)));
        continue;
      }
      if (res.status >= 500) {
        this.record.violation(url, `${method} ${path}: ${res.status} ${text}`);
        last = `${res.status} ${text.slice(0, 200)}`;
        k++;
        await sleep(500);
        continue;
      }
      return { status: res.status, body: parsed, text, via: url, startedAt };
    }
    throw new Error(`${method} ${path}: no answer but retries for ${this.deadlineMs} ms: ${last}`);
  }

  async ok(prefer: number, method: string, path: string, token: string | null, body?: unknown, status = 200): Promise<Answer> {
    const r = await this.request(prefer, method, path, token, body);
    if (r.status !== status) throw new Error(`${method} ${path}: expected ${status}, got ${r.status}: ${r.text.slice(0, 300)}`);
    return r;
  }
}

/** One player's graphql-ws connection for queries and mutations; a closed socket is opened again on the next instance. */
export class WsPlayer {
  private client: Client | null = null;
  private k: number;

  constructor(
    private readonly urls: readonly string[],
    private readonly token: string,
    private readonly record: PlayRecord,
    prefer: number,
    private readonly deadlineMs = 90_000,
  ) {
    this.k = prefer;
  }

  private get url(): string {
    return this.urls[this.k % this.urls.length];
  }

  private connect(): Client {
    if (!this.client)
      this.client = createClient({
        url: this.url,
        webSocketImpl: WebSocket,
        connectionParams: { authorization: `Bearer ${this.token}` },
        retryAttempts: 0,
        lazy: true,
      });
    return this.client;
  }

  private drop(): void {
    void this.client?.dispose();
    this.client = null;
    this.k++;
  }

  /** One operation; retried (same variables, so the same idempotency key) on SERVICE_UNAVAILABLE or a dead socket. Other errors are returned. */
  async run(query: string, variables: Record<string, unknown>): Promise<{ data: any; errors?: any[]; startedAt: number; via: string }> {
    const deadline = Date.now() + this.deadlineMs;
    let last = '';
    while (Date.now() < deadline) {
      const client = this.connect();
      const via = this.url;
      const startedAt = Date.now();
      const outcome = await new Promise<{ result?: { data?: any; errors?: any[] }; dead?: string }>((resolve) => {
        let result: { data?: any; errors?: any[] } = {};
        const timer = setTimeout(() => resolve({ dead: 'no answer in 20 s' }), 20_000);
        client.subscribe(
          { query, variables },
          {
            next: (m) => (result = m as { data?: any; errors?: any[] }),
            error: (e) => {
              clearTimeout(timer);
              // a GraphQL error list (the operation failed) or the socket's close/error (the instance is gone)
              if (Array.isArray(e)) resolve({ result: { errors: e } });
              else resolve({ dead: (e as { reason?: string; message?: string })?.reason || (e as Error)?.message || String(e) });
            },
            complete: () => (clearTimeout(timer), resolve({ result })),
          },
        );
      });
      if (outcome.dead !== undefined) {
        this.record.deadConnections++;
        last = `${via}: ${outcome.dead}`;
        this.drop();
        await sleep(200);
        continue;
      }
      const errors = outcome.result!.errors ?? [];
      const text = JSON.stringify(errors);
      if (errors.some((e) => isInternal(e?.extensions?.code))) {
        this.record.violation(via, `graphql-ws ${query.slice(0, 60)}: ${text}`);
        last = text.slice(0, 200);
        this.drop(); // the other instance, as for a 5xx over REST
        await sleep(500);
        continue;
      }
      if (errors.some((e) => e?.extensions?.code === 'SERVICE_UNAVAILABLE')) {
        this.record.unavailable++;
        const ra = errors.map((e) => e?.extensions?.retryAfter).find((v) => typeof v === 'number') ?? null;
        last = text.slice(0, 200);
        await sleep(retryDelay(ra));
        continue;
      }
      return { data: outcome.result!.data, errors: errors.length ? errors : undefined, startedAt, via };
    }
    throw new Error(`graphql-ws ${query.slice(0, 60)}: no answer but retries for ${this.deadlineMs} ms: ${last}`);
  }

  close(): void {
    void this.client?.dispose();
    this.client = null;
  }
}

/**
 * A live subscriber of one match's events (matchEventsLive): every event's seq, in the order received. A subscription
 * that errors or whose socket closes is taken up again on the next instance from the seq after the last one received,
 * as a client resuming by seq does.
 */
export class LiveSubscriber {
  readonly seqs: number[] = [];
  readonly types: string[] = [];
  /** Which subscription (0: the first, 1: the first resume...) delivered each event, and the fromSeq of each. */
  readonly origins: number[] = [];
  readonly fromSeqs: number[] = [];
  resumes = 0;
  /** opponentGone / opponentBack items received (not log events). */
  presenceChanges = 0;
  readonly errors: string[] = [];
  private client: Client | null = null;
  private stopped = false;
  private k: number;
  completed = false;

  constructor(
    private readonly urls: readonly string[],
    private readonly token: string,
    readonly matchId: string,
    private readonly record: PlayRecord,
    prefer: number,
  ) {
    this.k = prefer;
  }

  start(): void {
    if (this.stopped) return;
    const url = this.urls[this.k % this.urls.length];
    const client = createClient({ url, webSocketImpl: WebSocket, connectionParams: { authorization: `Bearer ${this.token}` }, retryAttempts: 0, lazy: true });
    this.client = client;
    const from = (this.seqs[this.seqs.length - 1] ?? 0) + 1;
    const attempt = this.fromSeqs.length;
    this.fromSeqs.push(from);
    const again = (why: string) => {
      if (this.client !== client || this.stopped) return;
      this.errors.push(why.slice(0, 200));
      void client.dispose();
      this.client = null;
      this.k++;
      this.resumes++;
      setTimeout(() => this.start(), 300);
    };
    client.subscribe(
      {
        query: 'subscription($id: ID!, $from: Int) { matchEventsLive(matchId: $id, fromSeq: $from) { event { seq type } } }',
        variables: { id: this.matchId, from },
      },
      {
        next: (m) => {
          if (this.client !== client) return; // a subscription given up (taken up again from its last seq)
          if (m.errors) {
            const text = JSON.stringify(m.errors);
            if (m.errors.some((e) => isInternal(e?.extensions?.code))) this.record.violation(url, `matchEventsLive: ${text}`);
            return again(text);
          }
          const event = (m.data as any)?.matchEventsLive?.event;
          // opponentGone / opponentBack are no log events: they carry the seq of the last event delivered (and come
          // when an instance is killed); the log's events are checked, these are counted.
          if (event?.type === 'opponentGone' || event?.type === 'opponentBack') {
            this.presenceChanges++;
            return;
          }
          if (typeof event?.seq === 'number') {
            this.seqs.push(event.seq);
            this.types.push(event.type);
            this.origins.push(attempt);
          }
        },
        error: (e) => {
          const close = e as { code?: number; reason?: string; message?: string };
          const text = Array.isArray(e)
            ? JSON.stringify(e)
            : typeof close?.code === 'number'
              ? `socket closed ${close.code} ${close.reason ?? ''}`.trim()
              : close?.message || String(e);
          if (Array.isArray(e) && e.some((x) => isInternal(x?.extensions?.code))) this.record.violation(url, `matchEventsLive: ${text}`);
          again(text || 'socket closed');
        },
        complete: () => {
          if (this.client !== client) return;
          // the feed ends after the match's end; ended before it (an instance shutting down), it is taken up again
          if (this.types[this.types.length - 1] === 'MatchEnded') this.completed = true;
          else again('completed before MatchEnded');
        },
      },
    );
  }

  stop(): void {
    this.stopped = true;
    void this.client?.dispose();
    this.client = null;
  }
}
