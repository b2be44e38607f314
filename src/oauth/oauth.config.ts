import { createHmac, createPrivateKey } from 'node:crypto';
import type { JsonWebKey } from 'node:crypto';
import { jwtSecret } from '../auth/auth.config';
import { appConfig } from '../config/config';

/** OAuth access tokens' life (OAUTH_ACCESS_TOKEN_TTL seconds, default one hour). */
export const accessTokenTtl = (): number => appConfig().OAUTH_ACCESS_TOKEN_TTL;
/** Refresh tokens' life (OAUTH_REFRESH_TOKEN_TTL seconds, default 30 days); each rotation gives a new one. */
export const refreshTokenTtl = (): number => appConfig().OAUTH_REFRESH_TOKEN_TTL;
/** Authorization codes' life (OAUTH_CODE_TTL seconds, default 60). */
export const codeTtl = (): number => appConfig().OAUTH_CODE_TTL;
/** How long a user's authorization of an app (a grant) lasts without use (OAUTH_GRANT_TTL seconds, default one year). */
export const grantTtl = (): number => appConfig().OAUTH_GRANT_TTL;

/**
 * The authorization server's issuer identifier (OAUTH_ISSUER): the service's
 * public origin, e.g. https://scopa.example. Default http://localhost:PORT.
 * The endpoints themselves follow the request's host.
 */
export function oauthIssuer(): string {
  const config = appConfig();
  return (config.OAUTH_ISSUER ?? `http://localhost:${config.PORT}`).replace(/\/+$/, '');
}

/** A key derived from the server secret (JWT_SECRET or its stored stand-in) for one purpose. */
export function derivedKey(purpose: string): Buffer {
  return createHmac('sha256', jwtSecret()).update(`scopa-oauth:${purpose}`).digest();
}

/**
 * A confidential app's client secret: not stored, derived from the server
 * secret and the app's salt (so every instance computes the same, and a
 * leaked database holds no usable secret). Changing JWT_SECRET changes every
 * app's secret.
 */
export function clientSecretOf(clientId: string, salt: string): string {
  return createHmac('sha256', derivedKey('client-secret')).update(`${clientId}:${salt}`).digest('base64url');
}

/**
 * The signing key (Ed25519) of the ID tokens an app gets when it asks for
 * `openid`: derived from the server secret, so every instance has the same.
 */
export function signingJwk(): JsonWebKey & { kid: string; alg: string; use: string } {
  const seed = derivedKey('signing-key');
  const pkcs8 = Buffer.concat([Buffer.from('302e020100300506032b657004220420', 'hex'), seed]);
  const jwk = createPrivateKey({ key: pkcs8, format: 'der', type: 'pkcs8' }).export({ format: 'jwk' });
  const kid = createHmac('sha256', 'kid').update(String(jwk.x)).digest('base64url').slice(0, 16);
  return { ...jwk, kid, alg: 'EdDSA', use: 'sig' };
}
