import { EventEmitter } from 'node:events';
import type { Response } from 'express';
import { DomainError } from './domain-error';
import { sendNdjson } from './ndjson';

/** A response whose socket buffer is full after `room` writes until 'drain'. */
class FakeResponse extends EventEmitter {
  written: string[] = [];
  ended = false;
  writableFinished = false;
  headers: Record<string, string> = {};
  statusCode = 0;
  room: number;
  constructor(room: number) {
    super();
    this.room = room;
  }
  status(code: number) {
    this.statusCode = code;
    return this;
  }
  setHeader(name: string, value: string) {
    this.headers[name.toLowerCase()] = value;
  }
  write(chunk: string): boolean {
    this.written.push(chunk);
    return this.written.length < this.room;
  }
  end() {
    this.ended = true;
    this.writableFinished = true;
    this.emit('close');
  }
}

/** Counts how far the consumer pulled, and whether it closed the source. */
function source(n: number) {
  const seen = { pulled: 0, closed: false };
  async function* lines() {
    try {
      for (let i = 0; i < n; i++) {
        seen.pulled++;
        yield { i };
      }
    } finally {
      seen.closed = true;
    }
  }
  return { seen, lines: lines() };
}

const tick = () => new Promise((r) => setImmediate(r));

it('writes one JSON value per line and ends', async () => {
  const res = new FakeResponse(Infinity);
  const { seen, lines } = source(3);
  await sendNdjson(res as unknown as Response, lines);
  expect(res.written).toEqual(['{"i":0}\n', '{"i":1}\n', '{"i":2}\n']);
  expect(res.headers['content-type']).toMatch(/^application\/x-ndjson/);
  expect([res.statusCode, res.ended, seen.closed]).toEqual([200, true, true]);
});

it('pulls nothing more while the client has not drained, then goes on', async () => {
  const res = new FakeResponse(2);
  const { seen, lines } = source(5);
  const done = sendNdjson(res as unknown as Response, lines);
  await tick();
  await tick();
  expect(res.written).toHaveLength(2);
  expect(seen.pulled).toBe(2);
  res.room = Infinity;
  res.emit('drain');
  await done;
  expect(res.written).toHaveLength(5);
  expect(res.ended).toBe(true);
});

it('stops pulling and closes the source when the client goes away while it waits', async () => {
  const res = new FakeResponse(2);
  const { seen, lines } = source(1_000_000);
  const done = sendNdjson(res as unknown as Response, lines);
  await tick();
  res.emit('close');
  await done;
  expect(seen.pulled).toBe(2);
  expect(seen.closed).toBe(true);
  expect(res.ended).toBe(false);
});

it('a failing source ends the stream with an error line (a problem code, no stack)', async () => {
  const res = new FakeResponse(Infinity);
  async function* lines() {
    yield { i: 0 };
    throw new DomainError('NOT_FOUND', 'gone');
  }
  await sendNdjson(res as unknown as Response, lines());
  expect(res.written).toEqual(['{"i":0}\n', '{"error":{"code":"NOT_FOUND","message":"gone"}}\n']);
  expect(res.ended).toBe(true);
});
