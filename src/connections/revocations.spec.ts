import { PubSub } from 'graphql-subscriptions';
import { REVOCATIONS_CHANNEL, RevocationBus, accountKey } from './revocations';

/** Two instances on one pub/sub: what one announces, the other hears. */
async function twoInstances(): Promise<[RevocationBus, RevocationBus, PubSub]> {
  const pubsub = new PubSub();
  const buses = [new RevocationBus(pubsub), new RevocationBus(pubsub)];
  for (const bus of buses) bus.onModuleInit();
  await Promise.all(buses.map((bus) => bus.ready));
  return [buses[0], buses[1], pubsub];
}

describe('the revocation bus: a ban and its lifting', () => {
  it('a lifted ban (accountRestored) is forgotten by every instance, and told to its listeners; another account stays banned', async () => {
    const [a, b] = await twoInstances();
    const restored: string[] = [];
    b.onRestored((accountId) => restored.push(accountId));
    await a.publish({ kind: 'account', accountId: 'acc-1' });
    await a.publish({ kind: 'account', accountId: 'acc-2' });
    for (const bus of [a, b]) expect([bus.isRevoked(accountKey('acc-1')), bus.isRevoked(accountKey('acc-2'))]).toEqual([true, true]);

    await a.publish({ kind: 'accountRestored', accountId: 'acc-1' });
    for (const bus of [a, b]) expect([bus.isRevoked(accountKey('acc-1')), bus.isRevoked(accountKey('acc-2'))]).toEqual([false, true]);
    expect(restored).toEqual(['acc-1']);
  });

  it('ignores a malformed lifting', async () => {
    const [a, b, pubsub] = await twoInstances();
    const restored: string[] = [];
    b.onRestored((accountId) => restored.push(accountId));
    await a.publish({ kind: 'account', accountId: 'acc-3' });
    for (const message of [{ kind: 'accountRestored' }, { kind: 'accountRestored', accountId: '' }, { kind: 'accountRestored', accountId: 42 }])
      await pubsub.publish(REVOCATIONS_CHANNEL, message);
    expect(b.isRevoked(accountKey('acc-3'))).toBe(true);
    expect(restored).toEqual([]);
  });
});
