import { EventEmitter } from 'node:events';
import type { ServerResponse } from 'node:http';
import { PubSub } from 'graphql-subscriptions';
import type { Principal } from '../common/principal';
import { RevocationBus } from './revocations';
import { SocketRegistry } from './socket-registry';
import { SubscriptionCaps } from '../limits/subscription-caps';
import { HttpStreams, responseSocket } from './http-streams';
import { loadConfig } from '../config/config';

class FakeResponse extends EventEmitter {
  destroyed = false;
  writableEnded = false;
  destroy(): void {
    this.destroyed = true;
    this.emit('close');
  }
  end(): void {
    this.writableEnded = true;
    this.emit('close');
  }
}
const res = () => new FakeResponse() as unknown as ServerResponse & FakeResponse;
const viaToken = (tokenId: string): Principal => ({ accountId: 'acc', username: 'ann', via: 'token', tokenId, scopes: ['profile:read', 'match:read'] });

describe('HTTP streams as tracked sockets', () => {
  let bus: RevocationBus;
  let registry: SocketRegistry;

  beforeEach(async () => {
    bus = new RevocationBus(new PubSub());
    bus.onModuleInit();
    await bus.ready;
    registry = new SocketRegistry(bus);
  });
  afterEach(() => {
    registry.onModuleDestroy();
    bus.onModuleDestroy();
    delete process.env.WS_MAX_SUBSCRIPTIONS_PER_ACCOUNT;
  });

  it('a response reads as open until it closes; close() asks the stream to end with the reason, once', () => {
    const r = res();
    const reasons: string[] = [];
    const socket = responseSocket(r, (reason) => reasons.push(reason));
    const closed: string[] = [];
    socket.once('close', () => closed.push('closed'));
    expect(socket.readyState).toBe(1);
    socket.close(4403, 'credential revoked');
    socket.close(4403, 'credential revoked');
    expect(reasons).toEqual(['credential revoked']);
    expect(socket.readyState).toBe(2);
    r.end();
    expect(socket.readyState).toBe(3);
    expect(closed).toEqual(['closed']);
    socket.terminate?.();
    expect(r.destroyed).toBe(true);
  });

  it('a revocation ends the stream and frees its place in the cap; the cap refuses one more with RATE_LIMITED', async () => {
    process.env.WS_MAX_SUBSCRIPTIONS_PER_ACCOUNT = '2';
    const caps = new SubscriptionCaps(loadConfig());
    const streams = new HttpStreams(registry, caps);
    const ended: string[] = [];
    const first = res();
    streams.open(viaToken('t1'), first, (reason) => {
      ended.push(reason);
      first.end();
    });
    streams.open(viaToken('t2'), res(), () => undefined);
    expect(caps.openFor('acc')).toBe(2);
    expect(() => streams.open(viaToken('t2'), res(), () => undefined)).toThrow(
      expect.objectContaining({ code: 'RATE_LIMITED', details: expect.objectContaining({ limit: 2, reason: 'subscriptions' }) }),
    );
    await bus.publish({ kind: 'token', accountId: 'acc', tokenId: 't1' });
    expect(ended).toEqual(['credential revoked']);
    expect(caps.openFor('acc')).toBe(1);
    expect(registry.openWith('token:t1')).toBe(0);
    // a revoked credential cannot open a stream: UNAUTHENTICATED, and no place is kept
    expect(() => streams.open(viaToken('t1'), res(), () => undefined)).toThrow(expect.objectContaining({ code: 'UNAUTHENTICATED' }));
    expect(caps.openFor('acc')).toBe(1);
  });
});
