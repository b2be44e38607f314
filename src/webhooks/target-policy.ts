/**
 * Where a webhook may be sent: public unicast addresses only, so a webhook
 * cannot be aimed at the service's own network (databases, Redis, cloud
 * metadata at 169.254.169.254, the service itself). The rule is checked at
 * registration and again at every delivery, on the addresses the name
 * resolves to then; the connection goes to the address that was checked (a
 * `lookup` that refuses), so a name that later resolves to a private address
 * (DNS rebinding) is refused too. WEBHOOK_ALLOW_PRIVATE=true lifts the rule,
 * for development against a local receiver.
 */
import { lookup as dnsLookup } from 'node:dns';
import type { LookupAddress, LookupOptions } from 'node:dns';
import { isIP } from 'node:net';
import { networkInterfaces } from 'node:os';
import ipaddr from 'ipaddr.js';
import type { AppConfig } from '../config/config';

/** Why a target was refused (the deliveries log says only "refused target"). */
export class RefusedTargetError extends Error {
  constructor(
    readonly address: string,
    readonly reason: string,
  ) {
    super(`${address} is ${reason}`);
  }
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

export class WebhookTargetPolicy {
  constructor(
    readonly allowPrivate = false,
    /** The machine's own addresses (read at each check: interfaces come and go). */
    private readonly ownAddresses: () => Iterable<string> = interfaceAddresses,
  ) {}

  /** Null when the address may be a target, else why not ("a loopback address", ...). */
  refusal(address: string): string | null {
    if (this.allowPrivate) return null;
    let ip: ipaddr.IPv4 | ipaddr.IPv6;
    try {
      ip = ipaddr.parse(address.replace(/^\[|\]$/g, ''));
    } catch {
      return 'not an IP address';
    }
    // Forms that carry an IPv4 address (::ffff:a.b.c.d, NAT64 64:ff9b::/96) are judged by that address.
    if (ip.kind() === 'ipv6') {
      const v6 = ip as ipaddr.IPv6;
      const range = v6.range();
      if (range === 'ipv4Mapped') ip = v6.toIPv4Address();
      else if (range === 'rfc6052' || range === 'rfc6145') ip = ipaddr.fromByteArray(v6.toByteArray().slice(12));
    }
    const range = ip.range();
    if (range !== 'unicast') return `a ${range} address`;
    const normalized = ip.toNormalizedString();
    for (const own of this.ownAddresses()) {
      if (sameAddress(own, normalized)) return "the service's own address";
    }
    return null;
  }

  /**
   * Throws RefusedTargetError unless every address `host` resolves to may be
   * a target; a lookup error, or none within timeoutMs (a request waits on it).
   */
  async checkHost(host: string, timeoutMs = 5000): Promise<void> {
    if (this.allowPrivate) return;
    const bare = host.replace(/^\[|\]$/g, '');
    if (isIP(bare)) {
      const why = this.refusal(bare);
      if (why) throw new RefusedTargetError(bare, why);
      return;
    }
    let timer: NodeJS.Timeout | undefined;
    try {
      await new Promise<void>((resolve, reject) => {
        timer = setTimeout(() => reject(new Error(`${bare}: no answer from DNS in ${timeoutMs} ms`)), timeoutMs);
        this.lookup(bare, { all: true }, (err) => (err ? reject(err) : resolve()));
      });
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * A dns.lookup for http.request: resolves, refuses the whole name if any of
   * its addresses is refused, and hands over only the checked addresses.
   */
  readonly lookup = (hostname: string, options: LookupOptions, callback: LookupCallback): void => {
    dnsLookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, []);
      for (const a of addresses) {
        const why = this.refusal(a.address);
        if (why) return callback(new RefusedTargetError(a.address, why) as NodeJS.ErrnoException, []);
      }
      if (addresses.length === 0) return callback(Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' }), []);
      if (options.all) callback(null, addresses);
      else callback(null, addresses[0].address, addresses[0].family);
    });
  };
}

/** WEBHOOK_ALLOW_PRIVATE (src/config). */
export function targetPolicyFromEnv(config: Pick<AppConfig, 'WEBHOOK_ALLOW_PRIVATE'>): WebhookTargetPolicy {
  return new WebhookTargetPolicy(config.WEBHOOK_ALLOW_PRIVATE);
}

/** The addresses of this machine's interfaces (a public one reaches the service itself). */
function* interfaceAddresses(): Iterable<string> {
  for (const list of Object.values(networkInterfaces())) {
    for (const i of list ?? []) yield i.address;
  }
}

function sameAddress(raw: string, normalized: string): boolean {
  try {
    return ipaddr.parse(raw.split('%')[0]).toNormalizedString() === normalized;
  } catch {
    return false; // an address ipaddr.js cannot read is not one a webhook can name either
  }
}
