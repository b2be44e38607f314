import { createSecretKey, randomBytes } from 'node:crypto';
import type { KeyObject } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Logger } from '@nestjs/common';
import type { AppConfig } from '../config/config';

/** The stand-in secret of each stored file ('' for the in-memory one), made once per process: the applications a process builds agree. */
const generated = new Map<string, string>();

/** Where the embedded database keeps the generated secret (beside its data), or null when there is no such folder. */
export function storedSecretFile(config: Pick<AppConfig, 'DATABASE_URL' | 'DATA_DIR'>): string | null {
  const { DATABASE_URL: url, DATA_DIR: dataDir } = config;
  if (url || !dataDir || dataDir === 'memory') return null;
  return path.join(path.resolve(process.cwd(), dataDir), 'jwt-secret');
}

/** The secret kept in `file`, made (0600) on first use, so that a restart does not sign everyone out. */
export function storedSecret(file: string): string {
  try {
    const kept = readFileSync(file, 'utf8').trim();
    if (kept.length >= 32) return kept;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  mkdirSync(path.dirname(file), { recursive: true });
  const secret = randomBytes(32).toString('base64url');
  try {
    writeFileSync(file, secret + '\n', { mode: 0o600, flag: 'wx' });
    return secret;
  } catch (err) {
    // Another process made it first: use theirs.
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return readFileSync(file, 'utf8').trim();
    throw err;
  }
}

/**
 * JWT_SECRET; else, on the embedded database, a secret generated once and
 * kept in DATA_DIR/jwt-secret; else (in-memory database) one per process,
 * so sessions end with it. Read once per application (ServerSecret).
 */
export function jwtSecret(config: Pick<AppConfig, 'JWT_SECRET' | 'DATABASE_URL' | 'DATA_DIR' | 'NODE_ENV'>): string {
  if (config.JWT_SECRET) return config.JWT_SECRET;
  const file = storedSecretFile(config);
  let secret = generated.get(file ?? '');
  if (!secret) {
    secret = file ? storedSecret(file) : randomBytes(32).toString('base64url');
    generated.set(file ?? '', secret);
    if (config.NODE_ENV !== 'test') {
      Logger.warn(
        file
          ? `JWT_SECRET is unset: using the secret kept in ${file}; set JWT_SECRET in production`
          : 'JWT_SECRET is unset: using a random secret, sessions end with this process',
        'Auth',
      );
    }
  }
  return secret;
}

/**
 * The secret as a KeyObject, for verifying: given a string, jsonwebtoken
 * first tries (and fails) to parse it as a public key on every call, which
 * costs more than the HMAC itself.
 */
export function jwtVerifyKey(secret: string): KeyObject {
  return createSecretKey(Buffer.from(secret, 'utf8'));
}

export const JWT_ISSUER = 'scopa-service';
/** A password session's refresh tokens start with this prefix. */
export const REFRESH_TOKEN_PREFIX = 'scopa_rt_';
/** API tokens start with this prefix, which tells them apart from JWTs. */
export const API_TOKEN_PREFIX = 'scopa_pat_';
