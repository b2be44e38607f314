import type { AddressInfo } from 'node:net';
import WebSocket, { WebSocketServer } from 'ws';
import { coalesceSends } from './coalesced-sends';

/** A connected server/client pair; the server side's socket writes are counted. */
async function pair(): Promise<{ server: WebSocket; client: WebSocket; flushes: () => number; close: () => Promise<void> }> {
  const wss = new WebSocketServer({ port: 0, host: '127.0.0.1' });
  await new Promise<void>((resolve) => wss.once('listening', resolve));
  const connected = new Promise<WebSocket>((resolve) => wss.once('connection', resolve));
  const client = new WebSocket(`ws://127.0.0.1:${(wss.address() as AddressInfo).port}`);
  await new Promise<void>((resolve, reject) => {
    client.once('open', resolve);
    client.once('error', reject);
  });
  const server = await connected;
  // Every write that reaches the kernel goes through _write (one buffer) or _writev (several).
  const socket = (server as unknown as { _socket: { _write: (...a: unknown[]) => void; _writev: (...a: unknown[]) => void } })._socket;
  let flushes = 0;
  for (const method of ['_write', '_writev'] as const) {
    const original = socket[method].bind(socket);
    socket[method] = (...args: unknown[]) => {
      flushes++;
      original(...args);
    };
  }
  return {
    server,
    client,
    flushes: () => flushes,
    close: async () => {
      client.terminate();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
    },
  };
}

function received(client: WebSocket, count: number): Promise<string[]> {
  const messages: string[] = [];
  return new Promise((resolve) => {
    client.on('message', (data) => {
      messages.push(String(data));
      if (messages.length === count) resolve(messages);
    });
  });
}

describe('coalesceSends', () => {
  it('sends the messages of one turn in one socket write, in order', async () => {
    const { server, client, flushes, close } = await pair();
    try {
      coalesceSends(server);
      const arrived = received(client, 5);
      for (let i = 0; i < 5; i++) server.send(`m${i}`);
      expect(flushes()).toBe(0); // nothing written before the turn ends
      expect(await arrived).toEqual(['m0', 'm1', 'm2', 'm3', 'm4']);
      expect(flushes()).toBe(1);
    } finally {
      await close();
    }
  });

  it('calls each send callback at once, so that a sender awaiting it does not wait for the flush', async () => {
    const { server, client, close } = await pair();
    try {
      coalesceSends(server);
      const arrived = received(client, 2);
      const order: string[] = [];
      await new Promise<void>((resolve) => server.send('next', () => (order.push('next acknowledged'), resolve())));
      server.send('complete', () => order.push('complete acknowledged'));
      expect(await arrived).toEqual(['next', 'complete']);
      expect(order).toEqual(['next acknowledged', 'complete acknowledged']);
    } finally {
      await close();
    }
  });

  it('sends what is pending before the socket closes', async () => {
    const { server, client, close } = await pair();
    try {
      coalesceSends(server);
      const arrived = received(client, 1);
      const closed = new Promise<number>((resolve) => client.once('close', resolve));
      server.send('last words');
      server.close(4400, 'bye');
      expect(await arrived).toEqual(['last words']);
      expect(await closed).toBe(4400);
    } finally {
      await close();
    }
  });

  it('leaves a socket that is not open to ws: the callback gets the error', async () => {
    const { server, close } = await pair();
    coalesceSends(server);
    await close();
    await new Promise((resolve) => server.once('close', resolve));
    const err = await new Promise<Error | undefined>((resolve) => server.send('late', resolve));
    expect(err).toBeInstanceOf(Error);
  });
});
