import { SocketLimits, TOO_MANY_CONNECTIONS, connectionsForDescriptors, fileDescriptorLimit, socketLimitsConfig } from './socket-limits';
import type { SocketLimitState } from './socket-limits';
import type { SubscriptionCaps } from './subscription-caps';

const LIMITS = `Limit                     Soft Limit           Hard Limit           Units
Max cpu time              unlimited            unlimited            seconds
Max open files            20000                20000                files
Max locked memory         8388608              8388608              bytes
`;

describe('the descriptor limit (/proc/self/limits)', () => {
  it('reads the soft limit on open files, or null when unlimited or unreadable', () => {
    expect(fileDescriptorLimit(() => LIMITS)).toBe(20000);
    expect(fileDescriptorLimit(() => LIMITS.replace('20000                20000', '4096                 1048576'))).toBe(4096);
    expect(fileDescriptorLimit(() => LIMITS.replace('20000                20000', 'unlimited            unlimited'))).toBeNull();
    expect(
      fileDescriptorLimit(() => {
        throw new Error('ENOENT');
      }),
    ).toBeNull();
  });

  it('leaves 256 descriptors, or a fiftieth of the limit, for everything but the sockets', () => {
    expect(connectionsForDescriptors(1024)).toBe(768);
    expect(connectionsForDescriptors(20000)).toBe(19600);
    expect(connectionsForDescriptors(1_048_576)).toBe(1_048_576 - 20_971);
    expect(connectionsForDescriptors(null)).toBe(Infinity);
  });

  it('WS_MAX_CONNECTIONS, when set, wins over the derived cap', () => {
    expect(socketLimitsConfig({ WS_MAX_CONNECTIONS_PER_ADDRESS: 100, WS_MAX_CONNECTIONS: undefined }, () => 1024).maxConnections).toBe(768);
    expect(socketLimitsConfig({ WS_MAX_CONNECTIONS_PER_ADDRESS: 100, WS_MAX_CONNECTIONS: 50_000 }, () => 1024).maxConnections).toBe(50_000);
  });
});

describe('SocketLimits: the instance-wide cap', () => {
  const caps = { tryOpen: () => true, close: () => undefined } as unknown as SubscriptionCaps;
  const socket = () => ({
    closed: null as null | { code: number; reason: string },
    close(code: number, reason: string) {
      this.closed = { code, reason };
    },
  });

  it('closes the socket past WS_MAX_CONNECTIONS with 4429, whatever its address, and takes one again once one closes', () => {
    const limits = new SocketLimits({ maxConnectionsPerAddress: 10, maxConnections: 2 }, caps);
    const hooks = limits.hooks(
      undefined,
      () => undefined,
      (ctx) => ctx.extra as SocketLimitState,
    );
    const states: SocketLimitState[] = [{ address: '10.0.0.1' }, { address: '10.0.0.2' }, { address: '10.0.0.3' }];
    expect(limits.connect(states[0], socket())).toBe(true);
    expect(limits.connect(states[1], socket())).toBe(true);
    const refused = socket();
    expect(limits.connect(states[2], refused)).toBe(false);
    expect(refused.closed).toEqual({ code: TOO_MANY_CONNECTIONS, reason: expect.stringContaining('This instance holds its most connections (2)') });
    expect(limits.openConnections).toBe(2);
    // a refused socket's close does not free a place it never had
    void hooks.onClose({ extra: states[2] } as never, 4429, '');
    expect(limits.openConnections).toBe(2);
    void hooks.onClose({ extra: states[0] } as never, 1000, '');
    expect(limits.openConnections).toBe(1);
    expect(limits.connect(states[2], socket())).toBe(true);
  });
});
