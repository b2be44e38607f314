import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PassThrough } from 'node:stream';
import { requestLogger } from './observability.module';

async function logLineOf(level: string): Promise<Record<string, any>> {
  const out = new PassThrough();
  const lines: string[] = [];
  out.on('data', (chunk: Buffer) => lines.push(...chunk.toString().split('\n').filter(Boolean)));
  const log = requestLogger(level, out);
  const server = createServer((req, res) => log(req, res, () => res.end('ok')));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  await (await fetch(`http://127.0.0.1:${port}/v1/rulesets`, { headers: { 'x-custom': 'a-header' } })).text();
  await new Promise((r) => setTimeout(r, 20));
  await new Promise((r) => server.close(r));
  return JSON.parse(lines[lines.length - 1]);
}

describe('the request log', () => {
  it('writes one concise line per request by default: method, url, id and status, no headers', async () => {
    const line = await logLineOf('info');
    expect(line.req).toEqual({ id: expect.anything(), method: 'GET', url: '/v1/rulesets' });
    expect(line.res).toEqual({ statusCode: 200 });
    expect(JSON.stringify(line)).not.toMatch(/a-header/);
  });

  it('adds the headers at debug', async () => {
    const line = await logLineOf('debug');
    expect(line.req.headers['x-custom']).toBe('a-header');
  });
});
