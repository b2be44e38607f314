import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadConfig } from '../config/config';
import { storedSecret, storedSecretFile } from './auth.config';

describe('the JWT secret of an embedded database', () => {
  it('is generated once and kept (0600) in DATA_DIR, so that a restart does not sign everyone out', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'scopa-secret-'));
    const file = storedSecretFile(loadConfig({ DATA_DIR: path.join(dir, 'data') }))!;
    expect(file).toBe(path.join(dir, 'data', 'jwt-secret'));
    const first = storedSecret(file);
    expect(first.length).toBeGreaterThanOrEqual(32);
    expect(storedSecret(file)).toBe(first);
    expect(readFileSync(file, 'utf8').trim()).toBe(first);
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it('is not kept anywhere for PostgreSQL or an in-memory database', () => {
    expect(storedSecretFile(loadConfig({ DATABASE_URL: 'postgresql://x/y' }))).toBeNull();
    expect(storedSecretFile(loadConfig({ DATA_DIR: 'memory' }))).toBeNull();
  });
});
