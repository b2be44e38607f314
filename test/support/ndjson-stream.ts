import http from 'node:http';

/** A client of an NDJSON stream over plain HTTP, as a third-party client without WebSockets reads it. */
export interface NdjsonStream {
  status: number;
  headers: http.IncomingHttpHeaders;
  /** Every non-empty line, parsed, in order. */
  lines: any[];
  /** Every raw line received, empty keep-alive lines included. */
  raw: string[];
  /** The whole body of a refusal (problem+json), once ended. */
  text(): string;
  /** Resolves when the server has ended the response. */
  ended: Promise<void>;
  isEnded(): boolean;
  /** The first line (from the start) matching `match`; rejects after `timeoutMs`. */
  waitFor(match: (line: any) => boolean, timeoutMs?: number, label?: string): Promise<any>;
  /** Resolves once `count` lines have arrived. */
  waitForCount(count: number, timeoutMs?: number): Promise<void>;
  /** Resolves once the raw lines satisfy `check`. */
  waitUntil(check: () => boolean, timeoutMs?: number, label?: string): Promise<void>;
  /** The client goes away (the connection is destroyed). */
  close(): void;
}

/** Opens `url` (http://host:port/path) with the bearer token; resolves once the status line and headers are in. */
export function openNdjson(url: string, token: string | null): Promise<NdjsonStream> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { accept: 'application/x-ndjson' };
    if (token) headers.authorization = `Bearer ${token}`;
    const req = http.get(url, { headers }, (res) => {
      const lines: any[] = [];
      const raw: string[] = [];
      let body = '';
      let buffer = '';
      let ended = false;
      const waiters = new Set<() => void>();
      const poke = () => {
        for (const w of [...waiters]) w();
      };
      let endResolve!: () => void;
      const endedP = new Promise<void>((r) => (endResolve = r));
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        body += chunk;
        buffer += chunk;
        let i: number;
        while ((i = buffer.indexOf('\n')) >= 0) {
          const line = buffer.slice(0, i);
          buffer = buffer.slice(i + 1);
          raw.push(line);
          if (line.trim() !== '') lines.push(JSON.parse(line));
        }
        poke();
      });
      const finish = () => {
        if (ended) return;
        ended = true;
        endResolve();
        poke();
      };
      res.on('end', finish);
      res.on('close', finish);
      res.on('error', finish);
      const waitUntil = (check: () => boolean, timeoutMs = 10_000, label = 'condition') =>
        new Promise<void>((ok, fail) => {
          if (check()) return ok();
          const timer = setTimeout(() => {
            waiters.delete(w);
            fail(new Error(`timed out waiting for ${label}; lines so far: ${JSON.stringify(lines).slice(0, 2000)}`));
          }, timeoutMs);
          const w = () => {
            if (!check()) return;
            clearTimeout(timer);
            waiters.delete(w);
            ok();
          };
          waiters.add(w);
        });
      resolve({
        status: res.statusCode ?? 0,
        headers: res.headers,
        lines,
        raw,
        text: () => body,
        ended: endedP,
        isEnded: () => ended,
        waitUntil,
        waitFor: async (match, timeoutMs, label = 'a line') => {
          await waitUntil(() => lines.some(match), timeoutMs, label);
          return lines.find(match);
        },
        waitForCount: (count, timeoutMs) => waitUntil(() => lines.length >= count, timeoutMs, `${count} lines`),
        close: () => {
          req.destroy();
          res.destroy();
        },
      });
    });
    req.on('error', reject);
  });
}
