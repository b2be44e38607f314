import { createHmac, createPrivateKey } from 'node:crypto';
import type { JsonWebKey } from 'node:crypto';
import type { OAuthConfig } from '../config/slices';

/** The token lives oidc-provider is given (OAUTH_ACCESS_TOKEN_TTL, OAUTH_CODE_TTL, OAUTH_REFRESH_TOKEN_TTL, OAUTH_GRANT_TTL seconds; defaults one hour, 60 s, 30 days, one year). */
export function tokenTtls(config: OAuthConfig): { AccessToken: number; AuthorizationCode: number; RefreshToken: number; Grant: number } {
  return {
    AccessToken: config.OAUTH_ACCESS_TOKEN_TTL,
    AuthorizationCode: config.OAUTH_CODE_TTL,
    RefreshToken: config.OAUTH_REFRESH_TOKEN_TTL,
    Grant: config.OAUTH_GRANT_TTL,
  };
}

/**
 * The authorization server's issuer identifier (OAUTH_ISSUER): the service's
 * public origin, e.g. https://scopa.example. Default http://localhost:PORT.
 * The endpoints themselves follow the request's host.
 */
export function oauthIssuer(config: Pick<OAuthConfig, 'OAUTH_ISSUER' | 'PORT'>): string {
  return (config.OAUTH_ISSUER ?? `http://localhost:${config.PORT}`).replace(/\/+$/, '');
}

/** A key derived from the server secret (JWT_SECRET or its stored stand-in, src/auth/server-secret.ts) for one purpose. */
export function derivedKey(secret: string, purpose: string): Buffer {
  return createHmac('sha256', secret).update(`scopa-oauth:${purpose}`).digest();
}

/**
 * A confidential app's client secret: not stored, derived from the server
 * secret and the app's salt (so every instance computes the same, and a
 * leaked database holds no usable secret). Changing JWT_SECRET changes every
 * app's secret.
 */
export function clientSecretOf(secret: string, clientId: string, salt: string): string {
  return createHmac('sha256', derivedKey(secret, 'client-secret')).update(`${clientId}:${salt}`).digest('base64url');
}

/**
 * The signing key (Ed25519) of the ID tokens an app gets when it asks for
 * `openid`: derived from the server secret, so every instance has the same.
 */
export function signingJwk(secret: string): JsonWebKey & { kid: string; alg: string; use: string } {
  const seed = derivedKey(secret, 'signing-key');
  const pkcs8 = Buffer.concat([Buffer.from('302e020100300506032b657004220420', 'hex'), seed]);
  const jwk = createPrivateKey({ key: pkcs8, format: 'der', type: 'pkcs8' }).export({ format: 'jwk' });
  const kid = createHmac('sha256', 'kid').update(String(jwk.x)).digest('base64url').slice(0, 16);
  return { ...jwk, kid, alg: 'EdDSA', use: 'sig' };
}
