import net from 'node:net';

/**
 * A TCP proxy in front of a server on this machine, to cut a client's
 * connections in the middle of a match (`dropAll`) as a flaky network would.
 */
export interface TcpProxy {
  port: number;
  /** Connections accepted so far. */
  accepted(): number;
  /** Destroys every open connection (both sides): clients see their sockets drop. */
  dropAll(): number;
  /**
   * From now until the next dropAll, the server's bytes are thrown away: what the client sends still reaches the server
   * (a COMMIT still commits), its answers are lost, as when a connection dies right after the commit.
   */
  loseReplies(): void;
  close(): Promise<void>;
}

export async function startTcpProxy(targetPort: number, host = '127.0.0.1'): Promise<TcpProxy> {
  const open = new Set<net.Socket>();
  let accepted = 0;
  let losing = false;
  const server = net.createServer((client) => {
    accepted++;
    const upstream = net.connect(targetPort, host);
    for (const s of [client, upstream]) {
      open.add(s);
      s.on('close', () => open.delete(s));
      s.on('error', () => undefined);
    }
    client.pipe(upstream);
    upstream.on('data', (chunk: Buffer) => {
      if (!losing) client.write(chunk);
    });
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    accepted: () => accepted,
    loseReplies: () => {
      losing = true;
    },
    dropAll: () => {
      losing = false;
      const n = open.size;
      for (const s of open) s.destroy();
      return n;
    },
    close: async () => {
      for (const s of open) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
