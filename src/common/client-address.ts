/**
 * The client's address, for per-address limits: X-Forwarded-For is believed
 * only from the proxies TRUST_PROXY names, so that a client cannot pick its
 * own bucket. TRUST_PROXY takes what Express's `trust proxy` takes: unset or
 * `false` (trust no one: the socket's peer is the client), a hop count
 * (`1`: the nearest proxy, e.g. the project's nginx), or a comma-separated
 * list of addresses, CIDRs and the names `loopback`, `linklocal`,
 * `uniquelocal`; `true` trusts everyone (only behind a proxy that overwrites
 * the header).
 */
import type { IncomingMessage } from 'node:http';
import proxyaddr from 'proxy-addr';

export type TrustProxy = (address: string, hop: number) => boolean;

/** TRUST_PROXY's value (src/config checks it at start) as a predicate. */
export function trustProxy(value: string | undefined): TrustProxy {
  const setting = value?.trim() ?? '';
  if (setting === '' || setting === 'false') return () => false;
  if (setting === 'true') return () => true;
  if (/^\d+$/.test(setting)) {
    const hops = Number(setting);
    return (_address, hop) => hop < hops;
  }
  try {
    return proxyaddr.compile(
      setting
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean),
    );
  } catch (err) {
    throw new Error(`TRUST_PROXY: ${(err as Error).message} (expected false, a hop count, or addresses/CIDRs separated by commas)`);
  }
}

/** The address of the client behind the trusted proxies (for a raw request, e.g. a websocket upgrade). */
export function clientAddress(req: IncomingMessage, trust: TrustProxy): string {
  try {
    return proxyaddr(req, trust);
  } catch {
    return req.socket?.remoteAddress ?? 'unknown';
  }
}
