import { USERNAME_PATTERN } from '../auth/accounts.service';
import { IDEMPOTENCY_KEY } from '../matches/match.input';
import { encodeCommandKey } from './command-key';

describe('command keys', () => {
  it('no client key, whatever its username and idempotency key, equals a system key', () => {
    // The system keys the clock and the bots use, and what an account named like them could send.
    const system = [encodeCommandKey({ system: 'clock', key: 'seq4:seat0' }), encodeCommandKey({ system: 'bot', key: 'bot:greedy:1:seq5' })];
    const clients = [
      ['clock', 'seq4:seat0'],
      ['bot', 'greedy:1:seq5'],
      ['bot', 'bot:greedy:1:seq5'],
      ['_clock', 'seq4:seat0'],
    ].map(([client, key]) => {
      expect(USERNAME_PATTERN.test(client)).toBe(true);
      expect(IDEMPOTENCY_KEY.test(key)).toBe(true);
      return encodeCommandKey({ client, key });
    });
    for (const c of clients) expect(system).not.toContain(c);
    // a valid username never starts a client key with the system prefix
    expect(USERNAME_PATTERN.test('!clock')).toBe(false);
  });

  it('is one-to-one within the client space (the username holds no colon)', () => {
    // ('ann', 'b:c') and ('ann:b', 'c') would both be "ann:b:c": the second cannot be encoded at all
    expect(encodeCommandKey({ client: 'ann', key: 'b:c' })).toBe('ann:b:c');
    expect(() => encodeCommandKey({ client: 'ann:b', key: 'c' })).toThrow(RangeError);
    expect(() => encodeCommandKey({ client: '!clock', key: 'c' })).toThrow(RangeError);
  });

  it('keeps the stored form of client keys (retries across the upgrade find their first result)', () => {
    expect(encodeCommandKey({ client: 'alice', key: 'k-1' })).toBe('alice:k-1');
  });
});
