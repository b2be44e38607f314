import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PassThrough } from 'node:stream';
import { REQUEST_LINE_LEVEL, requestLogger } from './observability.module';

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

describe("the service's request lines (REQUEST_LINE_LEVEL)", () => {
  async function linesAt(level: string, status: number): Promise<Record<string, any>[]> {
    const out = new PassThrough();
    const lines: string[] = [];
    out.on('data', (chunk: Buffer) => lines.push(...chunk.toString().split('\n').filter(Boolean)));
    const log = requestLogger(level, out, REQUEST_LINE_LEVEL);
    const server = createServer((req, res) =>
      log(req, res, () => {
        res.statusCode = status;
        res.end('x');
      }),
    );
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const { port } = server.address() as AddressInfo;
    await (await fetch(`http://127.0.0.1:${port}/v1/rulesets`)).text();
    await new Promise((r) => setTimeout(r, 20));
    await new Promise((r) => server.close(r));
    return lines.map((l) => JSON.parse(l));
  }

  it('are at debug: none at info for a request that succeeds or is refused', async () => {
    expect(REQUEST_LINE_LEVEL).toBe('debug');
    expect(await linesAt('info', 200)).toEqual([]);
    expect(await linesAt('info', 404)).toEqual([]);
  });

  it('show at debug, one per request', async () => {
    const lines = await linesAt('debug', 200);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ level: 20, req: { method: 'GET', url: '/v1/rulesets' }, res: { statusCode: 200 } });
  });

  it('keep a server error at error, whatever the level', async () => {
    const lines = await linesAt('info', 500);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ level: 50, res: { statusCode: 500 } });
  });
});
