import { createSecretKey, randomBytes } from 'node:crypto';
import type { KeyObject } from 'node:crypto';
import { Logger } from '@nestjs/common';

let generated: string | undefined;

/** JWT_SECRET, or a per-process random secret (sessions then end with the process). */
export function jwtSecret(): string {
  if (process.env.JWT_SECRET) return process.env.JWT_SECRET;
  if (!generated) {
    generated = randomBytes(32).toString('base64url');
    if (process.env.NODE_ENV !== 'test') Logger.warn('JWT_SECRET is unset: using a random secret, sessions end with this process', 'Auth');
  }
  return generated;
}

let secretKey: { secret: string; key: KeyObject } | undefined;

/**
 * The secret as a KeyObject, for verifying: given a string, jsonwebtoken
 * first tries (and fails) to parse it as a public key on every call, which
 * costs more than the HMAC itself.
 */
export function jwtVerifyKey(): KeyObject {
  const secret = jwtSecret();
  if (secretKey?.secret !== secret) secretKey = { secret, key: createSecretKey(Buffer.from(secret, 'utf8')) };
  return secretKey.key;
}

/** Session lifetime in seconds (JWT_TTL, default one hour). */
export function jwtTtlSeconds(): number {
  const ttl = Number(process.env.JWT_TTL ?? 3600);
  return Number.isFinite(ttl) && ttl > 0 ? ttl : 3600;
}

export const JWT_ISSUER = 'scopa-service';
/** API tokens start with this prefix, which tells them apart from JWTs. */
export const API_TOKEN_PREFIX = 'scopa_pat_';
