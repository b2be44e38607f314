import type { IncomingMessage } from 'node:http';
import { clientAddress, trustProxy } from './client-address';

const from = (peer: string, forwardedFor?: string) =>
  ({
    socket: { remoteAddress: peer },
    connection: { remoteAddress: peer },
    headers: forwardedFor ? { 'x-forwarded-for': forwardedFor } : {},
  }) as unknown as IncomingMessage;

describe('the client address behind TRUST_PROXY', () => {
  it('ignores X-Forwarded-For unless the peer is a configured proxy', () => {
    expect(clientAddress(from('203.0.113.7', '198.51.100.1'), trustProxy(undefined))).toBe('203.0.113.7');
    expect(clientAddress(from('203.0.113.7', '198.51.100.1'), trustProxy('false'))).toBe('203.0.113.7');
    expect(clientAddress(from('203.0.113.7', '198.51.100.1'), trustProxy('10.0.0.0/8, loopback'))).toBe('203.0.113.7');
  });

  it('believes X-Forwarded-For from the listed proxies (addresses, CIDRs, names) or within a hop count', () => {
    expect(clientAddress(from('10.1.2.3', '198.51.100.1'), trustProxy('10.0.0.0/8'))).toBe('198.51.100.1');
    expect(clientAddress(from('127.0.0.1', '198.51.100.1'), trustProxy('loopback'))).toBe('198.51.100.1');
    // a client's own forged entry before nginx's is not believed: only trusted hops are skipped
    expect(clientAddress(from('127.0.0.1', '6.6.6.6, 198.51.100.1'), trustProxy('loopback'))).toBe('198.51.100.1');
    expect(clientAddress(from('127.0.0.1', '6.6.6.6, 198.51.100.1'), trustProxy('1'))).toBe('198.51.100.1');
  });

  it('refuses a setting it cannot read, naming TRUST_PROXY', () => {
    expect(() => trustProxy('not-an-address')).toThrow(/TRUST_PROXY/);
  });
});
