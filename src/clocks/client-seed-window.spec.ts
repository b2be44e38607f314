import { clientSeedWindowMs } from './client-seed-window';

describe('CLIENT_SEED_WINDOW', () => {
  it('is 30 s when unset or empty', () => {
    expect(clientSeedWindowMs(undefined)).toBe(30_000);
    expect(clientSeedWindowMs('')).toBe(30_000);
  });

  it('takes seconds, decimals included; 0 turns the wait off', () => {
    expect(clientSeedWindowMs('0')).toBe(0);
    expect(clientSeedWindowMs('45')).toBe(45_000);
    expect(clientSeedWindowMs(' 0.5 ')).toBe(500);
    expect(clientSeedWindowMs('86400')).toBe(86_400_000);
  });

  it.each(['-1', 'PT30S', '30s', '1e3', 'abc', '86401', '0.0001'])('refuses %j at startup', (raw) => {
    expect(() => clientSeedWindowMs(raw)).toThrow(/CLIENT_SEED_WINDOW/);
  });
});
