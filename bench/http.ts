/** The load generators' HTTP client (bench:api, bench:embedded). */
import httpClient from 'node:http';

// node:http with keep-alive: on this machine fetch (undici) costs the load generator about four times as much CPU per request.
const agent = new httpClient.Agent({ keepAlive: true, maxSockets: 256 });
export function http(
  base: string,
  method: string,
  path: string,
  token: string | null,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: any }> {
  return new Promise((resolve, reject) => {
    const req = httpClient.request(
      base + path,
      { method, agent, headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers } },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text ? JSON.parse(text) : {} }));
        res.on('error', reject);
      },
    );
    req.on('error', (err: NodeJS.ErrnoException) => {
      // A kept-alive socket the server closed as it was reused: the request never reached it (Node's documented retry case).
      if (req.reusedSocket && err.code === 'ECONNRESET') http(base, method, path, token, body, headers).then(resolve, reject);
      else reject(err);
    });
    req.end(body === undefined ? undefined : JSON.stringify(body));
  });
}
