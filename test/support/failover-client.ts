/**
 * An HTTP client of several instances of the service, as a scripted player
 * that survives crashes: a request that meets a refused or reset connection
 * (the instance was killed) or a 5xx is sent again, to the next instance,
 * until one answers or the deadline passes. The request is the same each
 * time, so commands must carry their idempotency key.
 */

export interface Reply {
  status: number;
  // Whatever JSON the service answered.
  body: any;
  text: string;
  /** The index of the instance that answered. */
  via: number;
  /** performance.now() when the whole answer had arrived. */
  at: number;
}

export interface FailoverOptions {
  /** How long one request may keep trying, ms (default 60 s). */
  deadlineMs?: number;
  /** Pause after every instance failed a request once, ms (default 100). */
  pauseMs?: number;
  /** How long an instance that failed a try is tried last, ms (default 1000). */
  downForMs?: number;
  /** One try's timeout, ms (default 15 s). */
  tryTimeoutMs?: number;
}

export class FailoverClient {
  /** Tries that met a dead connection or a 5xx (sent again). */
  retries = 0;
  /** The 5xx answers met, for the report. */
  readonly serverErrors: { method: string; path: string; status: number; text: string }[] = [];

  constructor(
    private readonly urls: readonly string[],
    private readonly options: FailoverOptions = {},
  ) {
    this.downUntil = urls.map(() => 0);
  }

  /** Until when each instance is taken for down (its last try met a dead connection or a 5xx): tried last meanwhile. */
  private readonly downUntil: number[];

  /** Sends to instance `prefer` (mod the count) first, unless it was found down lately, then to the next ones in turn. */
  async request(prefer: number, method: string, path: string, token: string | null, body?: unknown, headers: Record<string, string> = {}): Promise<Reply> {
    const deadline = Date.now() + (this.options.deadlineMs ?? 60_000);
    const n = this.urls.length;
    let last: unknown = null;
    while (Date.now() < deadline) {
      const now = Date.now();
      const order = Array.from({ length: n }, (_, k) => (((prefer + k) % n) + n) % n);
      // Instances seen down lately go last (a restart takes seconds: most requests should not knock first).
      order.sort((x, y) => Number(this.downUntil[x] > now) - Number(this.downUntil[y] > now));
      for (const via of order) {
        try {
          const res = await fetch(this.urls[via] + path, {
            method,
            headers: {
              ...(body === undefined ? {} : { 'content-type': 'application/json' }),
              ...(token ? { authorization: `Bearer ${token}` } : {}),
              ...headers,
            },
            body: body === undefined ? undefined : JSON.stringify(body),
            signal: AbortSignal.timeout(this.options.tryTimeoutMs ?? 15_000),
          });
          const text = await res.text();
          const at = performance.now();
          if (res.status < 500) {
            let parsed: unknown = null;
            try {
              parsed = text ? JSON.parse(text) : null;
            } catch {
              parsed = null; // not JSON (an NDJSON export): the text is there
            }
            return { status: res.status, body: parsed, text, via, at };
          }
          this.serverErrors.push({ method, path, status: res.status, text: text.slice(0, 300) });
          last = new Error(`${res.status} ${text.slice(0, 200)}`);
        } catch (err) {
          last = err; // refused, reset or timed out: that instance is down
        }
        this.retries++;
        this.downUntil[via] = Date.now() + (this.options.downForMs ?? 1000);
      }
      await new Promise((r) => setTimeout(r, this.options.pauseMs ?? 100));
    }
    throw new Error(`no instance answered ${method} ${path} in time: ${(last as Error)?.message ?? String(last)}`);
  }

  /** request(), expecting `status`: anything else throws with the answer. */
  async ok(prefer: number, method: string, path: string, token: string | null, body?: unknown, status = 200, headers?: Record<string, string>): Promise<Reply> {
    const r = await this.request(prefer, method, path, token, body, headers);
    if (r.status !== status) throw new Error(`${method} ${path}: expected ${status}, got ${r.status}: ${r.text.slice(0, 300)}`);
    return r;
  }
}
