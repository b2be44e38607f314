/**
 * The web client's way to the service: one client of the SDK (`@scopa/sdk`,
 * typed from the contracts) for every call and every type, and the session
 * this browser keeps. What is here is only what the SDK cannot know: where
 * the session is stored (localStorage, shared by the tabs), when it is
 * refreshed (one tab at a time), and what the page does when the service no
 * longer accepts it (`scopa:session-expired`).
 */
import { ScopaClient, ScopaError } from '@scopa/sdk';
import type { Session as SessionModel } from '@scopa/sdk';

const SESSION_KEY = 'scopa.session';

/**
 * The service's rules for a new account (src/auth/accounts.service.ts), so
 * that the sign-up form says what is wrong before sending: a username of 3
 * to 32 of a-z 0-9 _ . - (not starting with . or -), taken in lowercase
 * (usernames are case-insensitive: "Newbie" is the account "newbie"); a
 * password of 8 to 200 characters.
 */
export const USERNAME_PATTERN = /^[a-z0-9_][a-z0-9_.-]{2,31}$/;
export const USERNAME_MIN_LENGTH = 3;
export const USERNAME_MAX_LENGTH = 32;
export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 200;

/** The session as this browser stores it (localStorage `scopa.session`). */
export interface Session {
  token: string;
  username: string;
  /** When the access token (JWT) expires. */
  expiresAt: number;
  /** Single-use: traded for the next access token before expiresAt (POST /v1/auth/refresh), so the password is asked once. */
  refreshToken?: string;
}

/** A stored session: usable while its access token is, or while it can be refreshed. */
export function loadSession(): Session | null {
  try {
    const s = JSON.parse(localStorage.getItem(SESSION_KEY) ?? 'null') as Session | null;
    return s && (s.expiresAt > Date.now() || !!s.refreshToken) ? s : null;
  } catch {
    return null;
  }
}

let session: Session | null = loadSession();
let refreshTimer: ReturnType<typeof setTimeout> | undefined;

export function currentSession(): Session | null {
  return session;
}

/** The token of every call: the session's, refreshed first when it is about to end. */
const sessionToken = async (): Promise<string | undefined> => (await freshToken()) ?? undefined;

/**
 * Tells the page that the service refused the session a request carried
 * (expired, revoked, logged out elsewhere): it signs out and says why.
 */
async function watchedFetch(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
  const response = await fetch(input, init);
  const carried = input instanceof Request ? input.headers.has('authorization') : new Headers(init?.headers).has('authorization');
  if (response.status === 401 && carried && session) {
    const problem: unknown = await response
      .clone()
      .json()
      .catch(() => undefined);
    window.dispatchEvent(new CustomEvent('scopa:session-expired', { detail: ScopaError.fromProblem(problem, 401) }));
  }
  return response;
}

/** The client of every call the pages make, with the session's token. */
export const client = new ScopaClient({ baseUrl: location.origin, token: sessionToken, fetch: watchedFetch });

export function setSession(s: Session | null): void {
  keepSession(s);
  client.setToken(sessionToken); // a logout() of the client forgets its token: the session's comes back
}

/** Stores the session (a refresh keeps the live connections: they reconnect with the new token when the old one ends). */
function keepSession(s: Session | null): void {
  session = s;
  if (s) localStorage.setItem(SESSION_KEY, JSON.stringify(s));
  else localStorage.removeItem(SESSION_KEY);
  clearTimeout(refreshTimer);
  // Refresh as soon as the access token is within the margin of its end, so that nothing waits for it.
  if (s?.refreshToken)
    refreshTimer = setTimeout(() => void freshToken().catch(() => undefined), Math.max(0, s.expiresAt - Date.now() - REFRESH_MARGIN_MS + 1000));
}

/** How long before its end an access token is replaced. */
const REFRESH_MARGIN_MS = 30_000;
let refreshing: Promise<void> | null = null;

/**
 * The access token to send, refreshed first when it is about to end. A
 * refresh token is single-use (a spent one ends the session), so tabs
 * sharing the session refresh one at a time (Web Locks) and each adopts
 * what another stored first.
 */
export async function freshToken(): Promise<string | null> {
  if (!session) return null;
  if (session.expiresAt - REFRESH_MARGIN_MS > Date.now() || !session.refreshToken) return session.token;
  refreshing ??= withLock(async () => {
    const stored = loadSession();
    if (stored && stored.username === session?.username && stored.expiresAt - REFRESH_MARGIN_MS > Date.now()) {
      keepSession(stored);
      return;
    }
    keepSession(toSession(await anonymous().refreshSession(session!.refreshToken!)));
  }).finally(() => (refreshing = null));
  try {
    await refreshing;
  } catch (err) {
    // The session has ended (logged out elsewhere, expired, or its refresh token was replayed): sign out and say why.
    if (err instanceof ScopaError && err.code === 'UNAUTHENTICATED' && session) window.dispatchEvent(new CustomEvent('scopa:session-expired', { detail: err }));
    throw err;
  }
  return session?.token ?? null;
}

if (session) keepSession(session);

function withLock(task: () => Promise<void>): Promise<void> {
  const locks = (navigator as Navigator & { locks?: { request(name: string, cb: () => Promise<void>): Promise<void> } }).locks;
  return locks ? locks.request('scopa.session-refresh', task) : task();
}

/** A client without the session: to log in, sign up and refresh (each answer is a new session). */
function anonymous(): ScopaClient {
  return new ScopaClient({ baseUrl: location.origin });
}

function toSession(s: SessionModel): Session {
  return { token: s.accessToken, username: s.account.username, expiresAt: Date.now() + s.expiresIn * 1000, refreshToken: s.refreshToken };
}

/** Logs in with a password: the new session (to keep with setSession). */
export async function logIn(username: string, password: string): Promise<Session> {
  return toSession(await anonymous().login(username, password));
}

/** Creates an account: its first session (to keep with setSession). */
export async function signUp(username: string, password: string): Promise<Session> {
  return toSession(await anonymous().register(username, password));
}
