import { RefusedTargetError, WebhookTargetPolicy } from './target-policy';

describe('webhook target policy: webhooks never reach inside', () => {
  const policy = new WebhookTargetPolicy(false, () => ['127.0.0.1', '8.8.4.4', 'fe80::1%eth0']);

  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.9.9.9', 'loopback'],
    ['::1', 'loopback'],
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['192.168.1.1', 'private'],
    ['fd00::1', 'uniqueLocal'],
    ['169.254.169.254', 'linkLocal'],
    ['fe80::1', 'linkLocal'],
    ['0.0.0.0', 'unspecified'],
    ['::', 'unspecified'],
    ['100.64.0.1', 'carrierGradeNat'],
    ['224.0.0.1', 'multicast'],
    ['ff02::1', 'multicast'],
    ['255.255.255.255', 'broadcast'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:169.254.169.254', 'linkLocal'],
    ['[::ffff:10.0.0.1]', 'private'],
    ['64:ff9b::a00:1', 'private'],
  ])('refuses %s (%s)', (address, range) => {
    expect(policy.refusal(address)).toBe(`a ${range} address`);
  });

  it("refuses the service's own public address", () => {
    expect(policy.refusal('8.8.4.4')).toBe("the service's own address");
  });

  it.each(['8.8.8.8', '1.1.1.1', '2606:4700:4700::1111', '::ffff:8.8.8.8'])('accepts the public address %s', (address) => {
    expect(policy.refusal(address)).toBeNull();
  });

  it('refuses a name that resolves to a loopback address, in the lookup the connection uses', async () => {
    await expect(policy.checkHost('localhost')).rejects.toBeInstanceOf(RefusedTargetError);
    const looked = await new Promise<{ err: Error | null; address: unknown }>((resolve) =>
      policy.lookup('localhost', {}, (err, address) => resolve({ err, address })),
    );
    expect(looked.err).toBeInstanceOf(RefusedTargetError);
    expect(looked.address).toEqual([]);
  });

  it('refuses IP literals at the host check', async () => {
    await expect(policy.checkHost('[::1]')).rejects.toBeInstanceOf(RefusedTargetError);
    await expect(policy.checkHost('169.254.169.254')).rejects.toBeInstanceOf(RefusedTargetError);
    await expect(policy.checkHost('8.8.8.8')).resolves.toBeUndefined();
  });

  it('allows everything only behind the explicit development setting', async () => {
    const dev = new WebhookTargetPolicy(true);
    expect(dev.refusal('127.0.0.1')).toBeNull();
    await expect(dev.checkHost('localhost')).resolves.toBeUndefined();
    const looked = await new Promise<{ err: Error | null; address: unknown }>((resolve) =>
      dev.lookup('localhost', {}, (err, address) => resolve({ err, address })),
    );
    expect(looked.err).toBeNull();
    expect(typeof looked.address).toBe('string');
  });
});
