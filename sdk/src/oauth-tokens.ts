/** The token set an OAuth login gives, and the token endpoint requests (code exchange, refresh). */
import { ScopaError, isRecord } from './errors.js';

/** What the client holds after a login: keep `refreshToken` (and update it from {@link OAuthSessionOptions.onTokens}: it changes on every refresh). */
export interface OAuthTokens {
  accessToken: string;
  /** Single-use: every refresh spends it and gives the next one. */
  refreshToken?: string;
  /** When the access token expires (milliseconds since the epoch). */
  expiresAt: number;
  /** The scopes granted (may be fewer than asked). */
  scopes: string[];
  /** An ID token, when `openid` was asked. */
  idToken?: string;
}

/** How a {@link ScopaClient} holds and refreshes OAuth tokens (`new ScopaClient({ baseUrl, oauth })`). */
export interface OAuthSessionOptions {
  tokens: OAuthTokens;
  clientId: string;
  clientSecret?: string;
  /** Default: `<baseUrl>/oauth/token`. */
  tokenEndpoint?: string;
  /** Default: `<baseUrl>/oauth/revoke`. */
  revocationEndpoint?: string;
  /** Refresh this long before the access token expires (default 60 000 ms). */
  refreshSkewMs?: number;
  /** Called with every new token set (after the login and each refresh): store the new refresh token here. */
  onTokens?: (tokens: OAuthTokens) => void | Promise<void>;
}

/** A token endpoint request (no retry: a refresh token is single-use, sending one twice would end the grant). */
export async function tokenRequest(
  fetchImpl: typeof fetch,
  endpoint: string,
  body: Record<string, string>,
  clientId: string,
  clientSecret?: string,
): Promise<OAuthTokens> {
  const form = new URLSearchParams(body);
  const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' };
  if (clientSecret !== undefined) {
    headers.authorization = `Basic ${btoa(`${encodeURIComponent(clientId)}:${encodeURIComponent(clientSecret)}`)}`;
  } else {
    form.set('client_id', clientId);
  }
  const sentAt = Date.now();
  let response: Response;
  try {
    response = await fetchImpl(endpoint, { method: 'POST', headers, body: form.toString() });
  } catch (error) {
    throw ScopaError.network(error);
  }
  const json: unknown = await response.json().catch(() => undefined);
  if (!response.ok || !isRecord(json) || typeof json.access_token !== 'string') {
    throw oauthError(json, response.status);
  }
  const expiresIn = typeof json.expires_in === 'number' ? json.expires_in : 3600;
  return {
    accessToken: json.access_token,
    refreshToken: typeof json.refresh_token === 'string' ? json.refresh_token : undefined,
    expiresAt: sentAt + expiresIn * 1000,
    scopes: typeof json.scope === 'string' ? json.scope.split(' ').filter(Boolean) : [],
    idToken: typeof json.id_token === 'string' ? json.id_token : undefined,
  };
}

/** An OAuth error response (`{ error, error_description }`) as a ScopaError `OAUTH_ERROR` with the RFC's error as `reason`. */
export function oauthError(body: unknown, status: number): ScopaError {
  const error = isRecord(body) && typeof body.error === 'string' ? body.error : undefined;
  const description = isRecord(body) && typeof body.error_description === 'string' ? body.error_description : undefined;
  return new ScopaError({ code: 'OAUTH_ERROR', reason: error ?? `http_${status}`, message: description ?? error ?? `HTTP ${status}`, status });
}
