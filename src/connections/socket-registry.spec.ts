import { jest } from '@jest/globals';
import { PubSub } from 'graphql-subscriptions';
import type { Principal } from '../common/principal';
import { RevocationBus, accessTokenKey, accountKey, grantKey, sessionKey, tokenKey } from './revocations';
import { SocketRegistry } from './socket-registry';
import type { Connection, TrackedSocket } from './socket-registry';

class FakeSocket implements TrackedSocket {
  readyState = 1;
  closes: { code?: number; reason?: string }[] = [];
  terminated = false;
  /** A peer that answers the close handshake; a silent one never does. */
  constructor(private readonly answers = true) {}
  private onClose: (() => void)[] = [];
  close(code?: number, reason?: string): void {
    this.closes.push({ code, reason });
    this.readyState = 2;
    if (this.answers) this.closed();
  }
  terminate(): void {
    this.terminated = true;
    this.closed();
  }
  once(_event: 'close', listener: () => void): void {
    this.onClose.push(listener);
  }
  private closed(): void {
    if (this.readyState === 3) return;
    this.readyState = 3;
    for (const f of this.onClose.splice(0)) f();
  }
}

const viaToken = (tokenId: string): Principal => ({ accountId: 'a1', username: 'ann', via: 'token', tokenId, scopes: ['profile:read', 'match:read'] });
const viaSession = (sessionId: string, expiresAt: number): Principal => ({
  accountId: 'a1',
  username: 'ann',
  via: 'session',
  tokenId: null,
  scopes: ['match:read', 'match:play'],
  sessionId,
  expiresAt,
});

describe('SocketRegistry', () => {
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
    jest.useRealTimers();
  });

  it('closes only the sockets of a revoked credential with 4403, and clears their caller so no further operation runs as it', async () => {
    const revoked: Connection = { user: viaToken('t1'), socket: new FakeSocket() };
    const other: Connection = { user: viaToken('t2'), socket: new FakeSocket() };
    expect(registry.track(revoked)).toBe(true);
    expect(registry.track(other)).toBe(true);
    await bus.publish({ kind: 'token', accountId: 'a1', tokenId: 't1' });
    expect(revoked.user).toBeUndefined();
    expect((revoked.socket as FakeSocket).closes).toEqual([{ code: 4403, reason: 'credential revoked' }]);
    expect(registry.openWith(tokenKey('t1'))).toBe(0);
    expect(other.user?.tokenId).toBe('t2');
    expect((other.socket as FakeSocket).closes).toEqual([]);
    expect(registry.openWith(tokenKey('t2'))).toBe(1);
  });

  it("an account's revocation (a ban) closes every socket of the account, whatever its credential, and no new one is tracked; other accounts' stay", async () => {
    const mine: Connection[] = [
      { user: viaToken('t7'), socket: new FakeSocket() },
      { user: viaSession('s7', Date.now() + 60_000), socket: new FakeSocket() },
      {
        user: { accountId: 'a1', username: 'ann', via: 'oauth', tokenId: null, scopes: ['match:read'], grantId: 'g7', accessTokenId: 'at7' },
        socket: new FakeSocket(),
      },
    ];
    const other: Connection = { user: { ...viaToken('t8'), accountId: 'a2', username: 'bob' }, socket: new FakeSocket() };
    for (const c of [...mine, other]) expect(registry.track(c)).toBe(true);
    await bus.publish({ kind: 'account', accountId: 'a1' });
    expect(mine.map((c) => (c.socket as FakeSocket).closes)).toEqual(mine.map(() => [{ code: 4403, reason: 'credential revoked' }]));
    expect((other.socket as FakeSocket).closes).toEqual([]);
    expect(registry.track({ user: viaToken('t9'), socket: new FakeSocket() })).toBe(false);
    expect(bus.isRevoked(accountKey('a1'))).toBe(true);
  });

  it("an OAuth access token's connection ends with the token itself (RFC 7009) or with its grant; the grant's other tokens stay", async () => {
    const viaOAuth = (jti: string, grantId: string): Principal => ({
      accountId: 'a1',
      username: 'ann',
      via: 'oauth',
      tokenId: null,
      scopes: ['match:read'],
      grantId,
      accessTokenId: jti,
      expiresAt: Date.now() + 60_000,
    });
    const first: Connection = { user: viaOAuth('at1', 'g1'), socket: new FakeSocket() };
    const sibling: Connection = { user: viaOAuth('at2', 'g1'), socket: new FakeSocket() };
    const otherGrant: Connection = { user: viaOAuth('at3', 'g2'), socket: new FakeSocket() };
    for (const c of [first, sibling, otherGrant]) expect(registry.track(c)).toBe(true);
    expect(registry.openWith(grantKey('g1'))).toBe(2);
    await bus.publish({ kind: 'accessToken', accountId: 'a1', accessTokenId: 'at1', expiresAt: Date.now() + 60_000 });
    expect(first.user).toBeUndefined();
    expect((first.socket as FakeSocket).closes).toEqual([{ code: 4403, reason: 'credential revoked' }]);
    expect([registry.openWith(accessTokenKey('at1')), registry.openWith(grantKey('g1'))]).toEqual([0, 1]);
    expect((sibling.socket as FakeSocket).closes).toEqual([]);
    // a revoked token cannot open again; the grant's end closes the rest of it
    expect(registry.track({ user: viaOAuth('at1', 'g1'), socket: new FakeSocket() })).toBe(false);
    await bus.publish({ kind: 'grant', accountId: 'a1', grantId: 'g1' });
    expect((sibling.socket as FakeSocket).closes).toEqual([{ code: 4403, reason: 'credential revoked' }]);
    expect(registry.openWith(accessTokenKey('at2'))).toBe(0);
    expect((otherGrant.socket as FakeSocket).closes).toEqual([]);
    // a principal naming no access token is not tracked (nothing could end it)
    expect(registry.track({ user: { ...viaOAuth('x', 'g3'), accessTokenId: undefined }, socket: new FakeSocket() })).toBe(false);
  });

  it('refuses to track a connection whose credential was revoked while it authenticated', async () => {
    await bus.publish({ kind: 'sessions', accountId: 'a1', sessions: [{ id: 's1', expiresAt: Date.now() + 60_000 }] });
    expect(registry.track({ user: viaSession('s1', Date.now() + 60_000), socket: new FakeSocket() })).toBe(false);
    expect(registry.track({ user: viaSession('s2', Date.now() - 1), socket: new FakeSocket() })).toBe(false);
  });

  it("closes a session's socket at its expiry, and cuts off a peer that ignores the close after a second", () => {
    jest.useFakeTimers({ now: 1_000_000 });
    const socket = new FakeSocket(false);
    const connection: Connection = { user: viaSession('s3', 1_000_000 + 5_000), socket };
    expect(registry.track(connection)).toBe(true);
    jest.advanceTimersByTime(4_999);
    expect(socket.closes).toEqual([]);
    jest.advanceTimersByTime(1);
    expect(socket.closes).toEqual([{ code: 4403, reason: 'credential expired' }]);
    expect(connection.user).toBeUndefined();
    expect(socket.terminated).toBe(false);
    jest.advanceTimersByTime(1_000);
    expect(socket.terminated).toBe(true);
    expect(registry.openWith(sessionKey('s3'))).toBe(0);
  });

  it('forgets a socket that closed on its own (no timer left, nothing to close later)', async () => {
    const socket = new FakeSocket();
    registry.track({ user: viaSession('s4', Date.now() + 60_000), socket });
    socket.close(1000, 'bye');
    expect(registry.openWith(sessionKey('s4'))).toBe(0);
    await bus.publish({ kind: 'sessions', accountId: 'a1', sessions: [{ id: 's4', expiresAt: Date.now() + 60_000 }] });
    expect(socket.closes).toEqual([{ code: 1000, reason: 'bye' }]);
  });

  it('tells its listeners of each connection opened and closed once (closed on its own, or by a revocation), with who it was', async () => {
    const events: string[] = [];
    registry.onOpened((user) => events.push(`open ${user.username}`));
    const stop = registry.onClosed((user) => events.push(`close ${user.username}`));
    const a: Connection = { user: viaToken('t5'), socket: new FakeSocket() };
    const b: Connection = { user: viaSession('s5', Date.now() + 60_000), socket: new FakeSocket() };
    registry.track(a);
    registry.track(b);
    expect(registry.openFor('ann')).toBe(2);
    a.socket.close(1000, 'bye');
    await bus.publish({ kind: 'sessions', accountId: 'a1', sessions: [{ id: 's5', expiresAt: Date.now() + 60_000 }] });
    expect(events).toEqual(['open ann', 'open ann', 'close ann', 'close ann']);
    expect(registry.openFor('ann')).toBe(0);
    stop();
    const c: Connection = { user: viaToken('t6'), socket: new FakeSocket() };
    registry.track(c);
    c.socket.close(1000, 'bye');
    expect(events).toHaveLength(5);
  });
});
