/**
 * The TCP balancer of `npm run cluster`: round-robin over the instances at the
 * TCP level, passing WebSockets through; an instance that refuses the
 * connection is skipped for it.
 */
import net from 'node:net';

export function startBalancer(backends: readonly number[], port: number, log: (line: string) => void = console.log): net.Server {
  let next = 0;
  return net
    .createServer((downstream) => {
      const order = backends.map((_, i) => backends[(next + i) % backends.length]);
      next = (next + 1) % backends.length;
      const attempt = (k: number) => {
        if (k >= order.length) return downstream.destroy();
        const upstream = net.connect(order[k], '127.0.0.1');
        upstream.once('error', () => (upstream.bytesWritten === 0 ? attempt(k + 1) : downstream.destroy()));
        upstream.once('connect', () => {
          downstream.pipe(upstream).pipe(downstream);
          downstream.on('error', () => upstream.destroy());
          upstream.on('close', () => downstream.destroy());
          downstream.on('close', () => upstream.destroy());
        });
      };
      attempt(0);
    })
    .listen(port, '127.0.0.1', () => log(`balancer on http://127.0.0.1:${port} -> ${backends.map((p) => `:${p}`).join(', ')}`));
}
