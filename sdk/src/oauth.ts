/**
 * OAuth 2.0 for third-party apps (browser and native): the authorization code
 * flow with PKCE (S256) and `state`, from the server's RFC 8414 metadata; the
 * code exchange; and the token set a {@link ScopaClient} holds and refreshes
 * (single-use refresh tokens, rotated on every refresh).
 *
 * Only WebCrypto and fetch are used (browsers, Node >= 20); the loopback
 * redirect listener for native apps ({@link listenForOAuthRedirect}) needs
 * Node (`node:http`, loaded only when it is called).
 */
import { ScopaClient } from './client.js';
import type { ScopaClientOptions } from './client.js';
import { ScopaError, isRecord } from './errors.js';
import { tokenRequest } from './oauth-tokens.js';
import type { OAuthSessionOptions } from './oauth-tokens.js';

/** The parts of the authorization server's metadata (`/.well-known/oauth-authorization-server`, RFC 8414) the SDK uses. */
export interface OAuthMetadata {
  issuer: string;
  authorization_endpoint: string;
  token_endpoint: string;
  revocation_endpoint?: string;
  introspection_endpoint?: string;
  scopes_supported?: string[];
  code_challenge_methods_supported?: string[];
  [key: string]: unknown;
}

/** An app as registered (`POST /v1/oauth/apps` / `registerOAuthApp`). */
export interface OAuthAppOptions {
  /** Where the service is, e.g. `https://scopa.example`. */
  baseUrl: string;
  /** The app's id (`app.id` of the registration). */
  clientId: string;
  /** A confidential app's secret (never in a browser or a native app: those are public clients). */
  clientSecret?: string;
  /** The fetch to use (default: the global one). */
  fetch?: typeof fetch;
}

/** A login under way, between the redirect to the authorization page and the redirect back: JSON, so that a browser app can keep it in `sessionStorage`. */
export interface PendingOAuthLogin {
  /** Send the user here. */
  authorizationUrl: string;
  baseUrl: string;
  clientId: string;
  redirectUri: string;
  state: string;
  codeVerifier: string;
  issuer: string;
  tokenEndpoint: string;
  revocationEndpoint?: string;
  scopes: string[];
}

export interface BeginOAuthLoginOptions extends OAuthAppOptions {
  /** Exactly as registered; for a native app's loopback redirect, any port (RFC 8252). */
  redirectUri: string;
  /** E.g. `['profile:read', 'match:read', 'match:play']`. */
  scopes: string[];
  /** Extra authorization request parameters (e.g. `prompt`). */
  extraParams?: Record<string, string>;
}

/** Options of the client {@link completeOAuthLogin} and {@link loginWithOAuth} return. */
export type OAuthClientOptions = Omit<ScopaClientOptions, 'baseUrl' | 'token' | 'oauth' | 'fetch'> & Pick<OAuthSessionOptions, 'refreshSkewMs' | 'onTokens'>;

export interface LoginWithOAuthOptions extends OAuthAppOptions, OAuthClientOptions {
  scopes: string[];
  /**
   * The registered redirect URI. For a native app, a loopback one
   * (`http://127.0.0.1/callback`): without `authorize`, the SDK listens on
   * 127.0.0.1 on a free port at its path and waits for the redirect there.
   * Default `http://127.0.0.1/callback`.
   */
  redirectUri?: string;
  /**
   * Takes the user to the authorization URL and resolves with the URL the
   * browser was redirected back to (e.g. a popup or an embedded browser tab).
   * Without it, the loopback listener receives the redirect and `openUrl`
   * shows the page.
   */
  authorize?: (authorizationUrl: string) => Promise<string | URL>;
  /** With the loopback listener: opens the authorization URL in the user's browser (e.g. with the `open` package). */
  openUrl?: (authorizationUrl: string) => unknown;
  /** How long the loopback listener waits for the redirect (default 5 minutes). */
  timeoutMs?: number;
  extraParams?: Record<string, string>;
}

/** The authorization server's metadata (RFC 8414). */
export async function fetchOAuthMetadata(baseUrl: string, fetchImpl: typeof fetch = globalThis.fetch.bind(globalThis)): Promise<OAuthMetadata> {
  const url = `${baseUrl.replace(/\/+$/, '')}/.well-known/oauth-authorization-server`;
  let response: Response;
  try {
    response = await fetchImpl(url, { headers: { accept: 'application/json' } });
  } catch (error) {
    throw ScopaError.network(error);
  }
  const body: unknown = await response.json().catch(() => undefined);
  if (
    !response.ok ||
    !isRecord(body) ||
    typeof body.authorization_endpoint !== 'string' ||
    typeof body.token_endpoint !== 'string' ||
    typeof body.issuer !== 'string'
  ) {
    throw new ScopaError({
      code: 'OAUTH_ERROR',
      reason: 'invalid_metadata',
      message: `no OAuth authorization server metadata at ${url} (HTTP ${response.status})`,
      status: response.status,
    });
  }
  return body as OAuthMetadata;
}

const UNRESERVED = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~';

/** `bytes` random bytes, base64url without padding. */
function randomString(bytes: number): string {
  const buffer = new Uint8Array(bytes);
  globalThis.crypto.getRandomValues(buffer);
  return base64url(buffer);
}

function base64url(bytes: Uint8Array): string {
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** The S256 code challenge of a verifier (RFC 7636): base64url(SHA-256(verifier)). */
export async function codeChallengeOf(codeVerifier: string): Promise<string> {
  const digest = await globalThis.crypto.subtle.digest('SHA-256', new TextEncoder().encode(codeVerifier));
  return base64url(new Uint8Array(digest));
}

/** A fresh PKCE pair: a 43-character verifier (32 random bytes) and its S256 challenge. */
export async function createPkce(): Promise<{ codeVerifier: string; codeChallenge: string; codeChallengeMethod: 'S256' }> {
  const codeVerifier = randomString(32);
  if ([...codeVerifier].some((c) => !UNRESERVED.includes(c))) throw new Error('unreachable: verifier outside RFC 7636 characters');
  return { codeVerifier, codeChallenge: await codeChallengeOf(codeVerifier), codeChallengeMethod: 'S256' };
}

/**
 * Step 1 (browser apps): builds the authorization URL (PKCE S256, a random
 * `state`) from the server's metadata. Keep the returned object (e.g. in
 * `sessionStorage`) and send the user to `authorizationUrl`; on the way back,
 * call {@link completeOAuthLogin} with it and the URL the browser landed on.
 */
export async function beginOAuthLogin(options: BeginOAuthLoginOptions): Promise<PendingOAuthLogin> {
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  const metadata = await fetchOAuthMetadata(baseUrl, options.fetch);
  if (metadata.code_challenge_methods_supported && !metadata.code_challenge_methods_supported.includes('S256')) {
    throw new ScopaError({ code: 'OAUTH_ERROR', reason: 'invalid_metadata', message: 'the authorization server does not support PKCE S256', status: 0 });
  }
  const { codeVerifier, codeChallenge } = await createPkce();
  const state = randomString(16);
  const url = new URL(metadata.authorization_endpoint);
  const params: Record<string, string> = {
    ...options.extraParams,
    response_type: 'code',
    client_id: options.clientId,
    redirect_uri: options.redirectUri,
    scope: options.scopes.join(' '),
    state,
    code_challenge: codeChallenge,
    code_challenge_method: 'S256',
  };
  for (const [key, value] of Object.entries(params)) url.searchParams.set(key, value);
  return {
    authorizationUrl: url.toString(),
    baseUrl,
    clientId: options.clientId,
    redirectUri: options.redirectUri,
    state,
    codeVerifier,
    issuer: metadata.issuer,
    tokenEndpoint: metadata.token_endpoint,
    revocationEndpoint: metadata.revocation_endpoint,
    scopes: [...options.scopes],
  };
}

/**
 * Step 2: checks the redirect back (`state`, the issuer when the server names
 * it, an `error` such as `access_denied`), exchanges the code with the PKCE
 * verifier and returns a {@link ScopaClient} holding the tokens (it refreshes
 * them itself). A refusal is a {@link ScopaError} `OAUTH_ERROR` whose `reason`
 * is the RFC 6749 error (`access_denied`, `invalid_grant`, ...).
 */
export async function completeOAuthLogin(
  pending: PendingOAuthLogin,
  callbackUrl: string | URL,
  options: OAuthClientOptions & { clientSecret?: string; fetch?: typeof fetch } = {},
): Promise<ScopaClient> {
  const callback = new URL(callbackUrl.toString());
  const params = callback.searchParams;
  if (params.get('state') !== pending.state) {
    throw new ScopaError({
      code: 'OAUTH_ERROR',
      reason: 'state_mismatch',
      message: 'the redirect does not answer this login (state differs): ignored',
      status: 0,
    });
  }
  const iss = params.get('iss');
  if (iss !== null && iss !== pending.issuer) {
    throw new ScopaError({
      code: 'OAUTH_ERROR',
      reason: 'issuer_mismatch',
      message: `the redirect comes from another authorization server (${iss})`,
      status: 0,
    });
  }
  const error = params.get('error');
  if (error !== null) {
    throw new ScopaError({ code: 'OAUTH_ERROR', reason: error, message: params.get('error_description') ?? error, status: 400 });
  }
  const code = params.get('code');
  if (!code) throw new ScopaError({ code: 'OAUTH_ERROR', reason: 'invalid_request', message: 'the redirect carries no code', status: 0 });

  const fetchImpl = options.fetch ?? globalThis.fetch.bind(globalThis);
  const tokens = await tokenRequest(
    fetchImpl,
    pending.tokenEndpoint,
    { grant_type: 'authorization_code', code, redirect_uri: pending.redirectUri, code_verifier: pending.codeVerifier },
    pending.clientId,
    options.clientSecret,
  );
  const { clientSecret, refreshSkewMs, onTokens, fetch: _fetch, ...clientOptions } = options;
  if (onTokens) await onTokens(tokens);
  return new ScopaClient({
    ...clientOptions,
    baseUrl: pending.baseUrl,
    fetch: options.fetch,
    oauth: {
      tokens,
      clientId: pending.clientId,
      clientSecret,
      tokenEndpoint: pending.tokenEndpoint,
      revocationEndpoint: pending.revocationEndpoint,
      refreshSkewMs,
      onTokens,
    },
  });
}

/**
 * The whole login in one call, for native apps (and browser apps with a
 * popup): begins the flow, gets the redirect back (through `authorize`, or
 * the loopback listener on 127.0.0.1 after `openUrl`), and completes it.
 */
export async function loginWithOAuth(options: LoginWithOAuthOptions): Promise<ScopaClient> {
  const { scopes, redirectUri = 'http://127.0.0.1/callback', authorize, openUrl, timeoutMs, extraParams, baseUrl, clientId, ...clientOptions } = options;
  const app = { baseUrl, clientId, clientSecret: options.clientSecret, fetch: options.fetch };
  if (authorize) {
    const pending = await beginOAuthLogin({ ...app, redirectUri, scopes, extraParams });
    return completeOAuthLogin(pending, await authorize(pending.authorizationUrl), clientOptions);
  }
  if (!openUrl) throw new TypeError('loginWithOAuth: give `authorize` (returns the redirect URL) or `openUrl` (with the loopback listener)');
  const listener = await listenForOAuthRedirect({ redirectUri, timeoutMs });
  try {
    const pending = await beginOAuthLogin({ ...app, redirectUri: listener.redirectUri, scopes, extraParams });
    const [callback] = await Promise.all([listener.redirect, Promise.resolve(openUrl(pending.authorizationUrl))]);
    return await completeOAuthLogin(pending, callback, clientOptions);
  } finally {
    await listener.close();
  }
}

/** A loopback listener waiting for the authorization server's redirect (RFC 8252, section 7.3). */
export interface OAuthRedirectListener {
  /** The registered loopback redirect URI with the listener's port, e.g. `http://127.0.0.1:49152/callback`. */
  redirectUri: string;
  port: number;
  /** The first redirect to the path (the URL with `code`/`error` and `state`); rejects after the timeout. */
  redirect: Promise<URL>;
  close(): Promise<void>;
}

interface MinimalServer {
  listen(port: number, host: string, cb: () => void): void;
  address(): { port: number } | string | null;
  close(cb?: () => void): void;
  closeAllConnections?(): void;
  once(event: 'error', cb: (error: Error) => void): void;
}
interface MinimalHttp {
  createServer(
    handler: (
      req: { url?: string; method?: string },
      res: { writeHead(status: number, headers: Record<string, string>): void; end(body?: string): void },
    ) => void,
  ): MinimalServer;
}

const DONE_PAGE = '<!doctype html><meta charset="utf-8"><title>Scopa</title><p>You may close this window and return to the app.</p>';

/**
 * Native apps (Node): listens on the loopback address of `redirectUri`
 * (default `http://127.0.0.1/callback`) on a free port (or the URI's port,
 * when it names one) and resolves `redirect` with the first request to its
 * path, answering the browser with a short page. Register the redirect URI
 * without a port: the service accepts a loopback redirect with any port.
 */
export async function listenForOAuthRedirect(options: { redirectUri?: string; timeoutMs?: number } = {}): Promise<OAuthRedirectListener> {
  const template = new URL(options.redirectUri ?? 'http://127.0.0.1/callback');
  const host = template.hostname.replace(/^\[|\]$/g, '');
  if (template.protocol !== 'http:' || !['127.0.0.1', '::1', 'localhost'].includes(host)) {
    throw new TypeError(`listenForOAuthRedirect: ${template} is not a loopback http redirect URI`);
  }
  const modulePath = 'node:http';
  const http = (await import(/* webpackIgnore: true */ modulePath)) as MinimalHttp;
  let resolve!: (url: URL) => void;
  let reject!: (error: unknown) => void;
  const redirect = new Promise<URL>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  redirect.catch(() => undefined); // the caller may never wait on it (e.g. when opening the page failed)
  let redirectUri = '';
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', redirectUri);
    if (req.method !== 'GET' || url.pathname !== template.pathname) {
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end('not found');
      return;
    }
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
    res.end(DONE_PAGE);
    resolve(url);
  });
  await new Promise<void>((res, rej) => {
    server.once('error', rej);
    server.listen(template.port ? Number(template.port) : 0, host === 'localhost' ? '127.0.0.1' : host, res);
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : Number(template.port);
  const withPort = new URL(template.toString());
  withPort.port = String(port);
  redirectUri = withPort.toString();
  const timer = setTimeout(
    () => reject(new ScopaError({ code: 'OAUTH_ERROR', reason: 'timeout', message: 'no redirect came back from the authorization page in time', status: 0 })),
    options.timeoutMs ?? 5 * 60_000,
  );
  let closed: Promise<void> | undefined;
  return {
    redirectUri,
    port,
    redirect,
    close: () => {
      closed ??= new Promise<void>((res) => {
        clearTimeout(timer);
        reject(new ScopaError({ code: 'OAUTH_ERROR', reason: 'closed', message: 'the redirect listener was closed', status: 0 }));
        server.close(() => res());
        server.closeAllConnections?.();
      });
      return closed;
    },
  };
}
