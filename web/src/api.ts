/**
 * The client's only way to the service: the public GraphQL API at /graphql
 * (queries and mutations over HTTP POST, subscriptions over graphql-ws on the
 * same path), and REST for one list (a user's match archive, `rest()`). A
 * third-party client needs nothing more.
 */
import { createClient } from 'graphql-ws/client';
import type { Client } from 'graphql-ws/client';
import { freshClientSeed } from './fairness';

/** An error as the API reports it: `extensions.code`, the message, and any details. */
export class ApiError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

const SESSION_KEY = 'scopa.session';

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

export function setSession(s: Session | null): void {
  keepSession(s);
  wsClient?.dispose();
  wsClient = null;
}

/** Stores the session (a refresh keeps the live connection: it reconnects with the new token when the old one ends). */
function keepSession(s: Session | null): void {
  session = s;
  if (s) localStorage.setItem(SESSION_KEY, JSON.stringify(s));
  else localStorage.removeItem(SESSION_KEY);
  clearTimeout(refreshTimer);
  // Refresh as soon as the access token is within the margin of its end, so that nothing waits for it.
  if (s?.refreshToken) refreshTimer = setTimeout(() => void freshToken().catch(() => undefined), Math.max(0, s.expiresAt - Date.now() - REFRESH_MARGIN_MS + 1000));
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
    const d = await gql<{ refreshSession: SessionData }>(`mutation($i: RefreshSessionInput!) { refreshSession(input: $i) { ${SESSION_FIELDS} } }`, { i: { refreshToken: session!.refreshToken } }, null);
    keepSession(toSession(d.refreshSession));
  }).finally(() => (refreshing = null));
  try {
    await refreshing;
  } catch (err) {
    // The session has ended (logged out elsewhere, expired, or its refresh token was replayed): sign out and say why.
    if (err instanceof ApiError && err.code === 'UNAUTHENTICATED' && session) window.dispatchEvent(new CustomEvent('scopa:session-expired', { detail: err }));
    throw err;
  }
  return session?.token ?? null;
}

if (session) keepSession(session);

function withLock(task: () => Promise<void>): Promise<void> {
  const locks = (navigator as Navigator & { locks?: { request(name: string, cb: () => Promise<void>): Promise<void> } }).locks;
  return locks ? locks.request('scopa.session-refresh', task) : task();
}

/** The Authorization header of the session (refreshed when needed), or none. */
export async function authHeader(): Promise<Record<string, string>> {
  const token = await freshToken();
  return token ? { authorization: `Bearer ${token}` } : {};
}

interface GraphQLResponse<T> {
  data?: T | null;
  errors?: { message: string; extensions?: Record<string, unknown> }[];
}

function toApiError(e: { message: string; extensions?: Record<string, unknown> }): ApiError {
  const { code, ...details } = e.extensions ?? {};
  return new ApiError(typeof code === 'string' ? code : 'ERROR', e.message, details);
}

/** A GraphQL call as the session (refreshed first when needed); `token: null` calls anonymously. */
export async function gql<T>(query: string, variables: Record<string, unknown> = {}, token?: null): Promise<T> {
  let res: Response;
  const auth = token === null ? {} : await authHeader();
  try {
    res = await fetch('/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...auth },
      body: JSON.stringify({ query, variables }),
    });
  } catch (err) {
    throw new ApiError('NETWORK', `the service did not answer (${(err as Error).message})`);
  }
  let body: GraphQLResponse<T>;
  try {
    body = (await res.json()) as GraphQLResponse<T>;
  } catch {
    throw new ApiError(`HTTP_${res.status}`, res.statusText || 'not a GraphQL response');
  }
  if (body.errors?.length) {
    const err = toApiError(body.errors[0]);
    // An expired or revoked session: the app logs out and says why.
    if (err.code === 'UNAUTHENTICATED' && session && token !== null) window.dispatchEvent(new CustomEvent('scopa:session-expired', { detail: err }));
    throw err;
  }
  if (!body.data) throw new ApiError(`HTTP_${res.status}`, 'no data in the response');
  return body.data;
}

let wsClient: Client | null = null;

function ws(): Client {
  if (!wsClient) {
    const url = `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/graphql`;
    wsClient = createClient({
      url,
      lazy: true,
      retryAttempts: 5,
      // The token rides in connection_init; a bad one closes the socket with 4403.
      connectionParams: async () => authHeader(),
    });
  }
  return wsClient;
}

/** Subscribe; returns the function that ends the subscription. */
export function subscribe<T>(query: string, variables: Record<string, unknown>, onData: (data: T) => void, onError: (err: ApiError) => void): () => void {
  return ws().subscribe<T>(
    { query, variables },
    {
      next: (msg) => {
        if (msg.errors?.length) onError(toApiError(msg.errors[0] as { message: string; extensions?: Record<string, unknown> }));
        else if (msg.data) onData(msg.data as T);
      },
      error: (err: unknown) => {
        if (Array.isArray(err) && err.length) onError(toApiError(err[0] as { message: string; extensions?: Record<string, unknown> }));
        else if (err && typeof err === 'object' && 'code' in err) {
          const e = err as { code: number; reason?: string };
          onError(new ApiError(e.code === 4403 ? 'FORBIDDEN' : `WS_${e.code}`, e.reason || 'the live connection closed'));
        } else onError(new ApiError('NETWORK', 'the live connection failed'));
      },
      complete: () => undefined,
    },
  );
}

// ------------------------------------------------------------------ shapes

export interface SeatPublic {
  seat: number;
  side: number;
  player: string | null;
  reservedFor: string | null;
  bot: string | null;
  handSize: number;
}
export interface SidePublic {
  side: number;
  seats: number[];
  capturedCount: number;
  captured: string[];
  scope: number;
  score: number;
}
export interface RoundBreakdown {
  points: number[];
  scope: number[];
  awards: Partial<Record<'cards' | 'denari' | 'settebello' | 'reBello' | 'primiera' | 'sevens', number | null>>;
  primiera?: (number | null)[];
  denariBonus?: number[];
  cardCounts: number[];
  denariCounts: number[];
  allDenari: number | null;
}
export interface MatchView {
  viewer: number | null;
  phase: string;
  preset: string | null;
  round: number;
  dealer: number;
  turn: number;
  hand: string[];
  table: string[];
  deckSize: number;
  seedCommitment: string | null;
  rulesVersion: string;
  /** Each seat's client seed (hex), null where none was given; public from the moment it is given. */
  clientSeeds: (string | null)[];
  settings: { turnTimeLimit: string | null; onExpiry: string };
  options: { players: number; teams: boolean; target: number; handSize: number; capture: string } | null;
  seats: SeatPublic[];
  sides: SidePublic[];
  rounds: { round: number; breakdown: RoundBreakdown }[];
  result: { reason: string; winner: number | null } | null;
}
export interface Reveal {
  seed: string;
  hands: string[][];
  deck: string[];
  captured: string[][];
}
export interface Match {
  id: string;
  seq: number;
  status: string;
  createdBy: string;
  /** While a start waits for the client seeds: when it deals at the latest (ISO time). */
  startsAt: string | null;
  view: MatchView;
  reveal: Reveal | null;
}
export interface MatchEvent {
  seq: number;
  type: string;
  payload: Record<string, unknown>;
  actor: string | null;
  time: string;
  hash: string;
}
export interface Play {
  card: string;
  capture: string[];
  scopa: boolean;
}
export interface Preset {
  id: string;
  players: number[];
  sources: string[];
  options: { players: number; teams: boolean; target: number; handSize: number; tableSize: number; capture: string };
}
export interface MatchSummary {
  id: string;
  preset: string;
  status: string;
  currentSeq: number;
  createdBy: string;
  turnSeat: number | null;
  turnPlayer: string | null;
  winner: number | null;
  updatedAt: string;
  options: { players: number; teams: boolean; target: number };
  seats: { player: string | null; reservedFor: string | null; bot: string | null }[];
}
export interface InboxEntry {
  matchId: string;
  seat: number;
  seq: number;
  since: string;
  deadline: string | null;
}
export interface Audit {
  sound: boolean;
  checked: string;
  events: number | null;
  lastHash: string | null;
  seq: number | null;
  reason: string | null;
}

// ------------------------------------------------------------------ ratings and archives (the profile page)

export interface PoolRating {
  ruleset: string;
  rating: number;
  rd: number;
  volatility: number;
  games: number;
  provisional: boolean;
  wins: number;
  losses: number;
  draws: number;
  lastRatedAt: string;
}
export interface UserProfile {
  username: string;
  bot: boolean;
  memberSince: string | null;
  wins: number;
  losses: number;
  draws: number;
  ratings: PoolRating[];
}
export interface RatingPoint {
  matchId: string;
  time: string;
  ratingBefore: number;
  rating: number;
  rd: number;
  volatility: number;
  result: string;
}
export interface LeaderboardEntry {
  rank: number;
  username: string;
  rating: number;
  rd: number;
  games: number;
}
export interface Crosstable {
  a: string;
  b: string;
  wins: number;
  losses: number;
  draws: number;
  pools: { ruleset: string; wins: number; losses: number; draws: number }[];
  lastMatches: { matchId: string; ruleset: string; endedAt: string; result: string; ratingBefore: number; ratingAfter: number }[];
}
/** One finished match of a user, as `GET /v1/users/{username}/matches` lists it (JSON mode). */
export interface UserMatch {
  id: string;
  preset: string;
  rulesetId: string | null;
  rated: boolean;
  imported: boolean;
  sourceId: string | null;
  players: { seat: number; side: number; player: string | null }[];
  result: { winner: number | null; reason: string; totals: number[] } | null;
  createdAt: string;
  endedAt: string | null;
}
export interface UserMatchPage {
  matches: UserMatch[];
  /** The cursor of the next page (`after`), null on the last one. */
  next: string | null;
}

/**
 * A REST call (the match archive is listed over /v1): the JSON body, or an
 * ApiError from the problem+json document (`code`, `detail`).
 */
export async function rest<T>(path: string, init: { method?: string; body?: unknown } = {}): Promise<T> {
  let res: Response;
  const auth = await authHeader();
  try {
    res = await fetch(path, {
      method: init.method ?? 'GET',
      headers: { accept: 'application/json', ...(init.body !== undefined ? { 'content-type': 'application/json' } : {}), ...auth },
      ...(init.body !== undefined ? { body: JSON.stringify(init.body) } : {}),
    });
  } catch (err) {
    throw new ApiError('NETWORK', `the service did not answer (${(err as Error).message})`);
  }
  let body: unknown = null;
  try {
    body = await res.json();
  } catch {
    // Not JSON: reported below by the status alone.
  }
  if (!res.ok) {
    const p = (body ?? {}) as { code?: unknown; detail?: unknown; title?: unknown };
    throw new ApiError(typeof p.code === 'string' ? p.code : `HTTP_${res.status}`, typeof p.detail === 'string' ? p.detail : typeof p.title === 'string' ? p.title : res.statusText || `HTTP ${res.status}`, {
      status: res.status,
    });
  }
  if (res.status === 204) return undefined as T;
  if (body === null) throw new ApiError(`HTTP_${res.status}`, 'not a JSON response');
  return body as T;
}

/** A REST call that sends a JSON body (POST, PATCH, DELETE); errors as rest(). */
export async function restSend<T>(method: string, path: string, body: unknown = {}): Promise<T> {
  let res: Response;
  try {
    res = await fetch(path, {
      method,
      headers: { accept: 'application/json', 'content-type': 'application/json', ...(session ? { authorization: `Bearer ${session.token}` } : {}) },
      body: JSON.stringify(body),
    });
  } catch (err) {
    throw new ApiError('NETWORK', `the service did not answer (${(err as Error).message})`);
  }
  let parsed: unknown = null;
  try {
    parsed = await res.json();
  } catch {
    // Not JSON (or no body): reported by the status alone.
  }
  if (!res.ok) {
    const p = (parsed ?? {}) as { code?: unknown; detail?: unknown; title?: unknown };
    throw new ApiError(typeof p.code === 'string' ? p.code : `HTTP_${res.status}`, typeof p.detail === 'string' ? p.detail : typeof p.title === 'string' ? p.title : res.statusText || `HTTP ${res.status}`, {
      status: res.status,
    });
  }
  return parsed as T;
}

/** A challenge (GET /v1/challenges). */
export interface Challenge {
  id: string;
  challenger: string;
  destUser: string;
  preset: string | null;
  rulesetId: string | null;
  turnTimeLimit: string | null;
  rated: boolean;
  seat: number | null;
  status: string;
  matchId: string | null;
  expiresAt: string;
}

// ------------------------------------------------------------------ operations

export const MATCH_FIELDS = `id seq status createdBy startsAt
  view { viewer phase preset round dealer turn hand table deckSize seedCommitment rulesVersion clientSeeds rounds
    settings { turnTimeLimit onExpiry }
    options { players teams target handSize capture }
    seats { seat side player reservedFor bot handSize }
    sides { side seats capturedCount captured scope score }
    result { reason winner } }
  reveal { seed hands deck captured }`;

const SESSION_FIELDS = 'accessToken expiresIn refreshToken account { username }';

interface SessionData {
  accessToken: string;
  expiresIn: number;
  refreshToken: string;
  account: { username: string };
}

function toSession(s: SessionData): Session {
  return { token: s.accessToken, username: s.account.username, expiresAt: Date.now() + s.expiresIn * 1000, refreshToken: s.refreshToken };
}

export const api = {
  async register(username: string, password: string): Promise<Session> {
    const d = await gql<{ register: SessionData }>(`mutation($i: CredentialsInput!) { register(input: $i) { ${SESSION_FIELDS} } }`, { i: { username, password } });
    return toSession(d.register);
  },
  async login(username: string, password: string): Promise<Session> {
    const d = await gql<{ login: SessionData }>(`mutation($i: CredentialsInput!) { login(input: $i) { ${SESSION_FIELDS} } }`, { i: { username, password } });
    return toSession(d.login);
  },
  async rulesets(): Promise<Preset[]> {
    const d = await gql<{ rulesets: Preset[] }>(`{ rulesets { id players sources options { players teams target handSize tableSize capture } } }`);
    return d.rulesets;
  },
  async myMatches(): Promise<MatchSummary[]> {
    const d = await gql<{ myMatches: MatchSummary[] }>(`{ myMatches(limit: 100) { id preset status currentSeq createdBy turnSeat turnPlayer winner updatedAt
      options { players teams target } seats { player reservedFor bot } } }`);
    return d.myMatches;
  },
  /** Matches where it is my turn, with the turn clock's deadline (null when untimed). */
  async inbox(): Promise<InboxEntry[]> {
    const d = await gql<{ inbox: InboxEntry[] }>(`{ inbox(limit: 100) { matchId seat seq since deadline } }`);
    return d.inbox;
  },
  async createMatch(input: Record<string, unknown>): Promise<Match> {
    const d = await gql<{ createMatch: Match }>(`mutation($i: CreateMatchInput!) { createMatch(input: $i) { ${MATCH_FIELDS} } }`, { i: input });
    return d.createMatch;
  },
  /** Takes a seat, giving a fresh client seed from this platform's CSPRNG (it changes the deal; public at once). */
  async join(matchId: string): Promise<Match> {
    const d = await gql<{ joinMatch: Match }>(`mutation($id: ID!, $i: JoinInput) { joinMatch(matchId: $id, input: $i) { ${MATCH_FIELDS} } }`, {
      id: matchId,
      i: { clientSeed: freshClientSeed() },
    });
    return d.joinMatch;
  },
  /** Gives my client seed (the creator's, right after creating: a seed never rides in createMatch). */
  async setClientSeed(matchId: string, clientSeed: string = freshClientSeed()): Promise<Match> {
    const d = await gql<{ setClientSeed: Match }>(`mutation($id: ID!, $i: ClientSeedInput!) { setClientSeed(matchId: $id, input: $i) { ${MATCH_FIELDS} } }`, {
      id: matchId,
      i: { clientSeed },
    });
    return d.setClientSeed;
  },
  async start(matchId: string, expectedSeq: number): Promise<Match> {
    const d = await gql<{ startMatch: Match }>(`mutation($id: ID!, $i: CommandInput) { startMatch(matchId: $id, input: $i) { ${MATCH_FIELDS} } }`, {
      id: matchId,
      i: { expectedSeq },
    });
    return d.startMatch;
  },
  async resign(matchId: string, expectedSeq: number): Promise<Match> {
    const d = await gql<{ resign: Match }>(`mutation($id: ID!, $i: CommandInput) { resign(matchId: $id, input: $i) { ${MATCH_FIELDS} } }`, { id: matchId, i: { expectedSeq } });
    return d.resign;
  },
  async play(matchId: string, card: string, capture: string[], expectedSeq: number): Promise<Match> {
    const idempotencyKey = `web-${expectedSeq}-${Math.random().toString(36).slice(2, 10)}`;
    const d = await gql<{ play: Match }>(`mutation($id: ID!, $i: PlayInput!) { play(matchId: $id, input: $i) { ${MATCH_FIELDS} } }`, {
      id: matchId,
      i: { card, capture, expectedSeq, idempotencyKey },
    });
    return d.play;
  },
  async match(id: string, atSeq?: number): Promise<Match> {
    const d = await gql<{ match: Match }>(`query($id: ID!, $at: Int) { match(id: $id, atSeq: $at) { ${MATCH_FIELDS} } }`, { id, at: atSeq ?? null });
    return d.match;
  },
  async legalPlays(matchId: string): Promise<{ seq: number; plays: Play[] }> {
    const d = await gql<{ legalPlays: { seq: number; plays: Play[] } }>(`query($id: ID!) { legalPlays(matchId: $id) { seq plays { card capture scopa } } }`, { id: matchId });
    return d.legalPlays;
  },
  async events(matchId: string): Promise<MatchEvent[]> {
    const all: MatchEvent[] = [];
    for (;;) {
      const d = await gql<{ matchEvents: MatchEvent[] }>(
        `query($id: ID!, $from: Int) { matchEvents(matchId: $id, fromSeq: $from, limit: 100) { seq type payload actor time hash } }`,
        { id: matchId, from: all.length + 1 },
      );
      all.push(...d.matchEvents);
      if (d.matchEvents.length < 100) return all;
    }
  },
  async audit(matchId: string): Promise<Audit> {
    const d = await gql<{ audit: Audit }>(`query($id: ID!) { audit(matchId: $id) { sound checked events lastHash seq reason } }`, { id: matchId });
    return d.audit;
  },
  /** A player (an account or bot:<level>): a rating per pool, results, member since. */
  async user(username: string): Promise<UserProfile> {
    const d = await gql<{ user: UserProfile }>(
      `query($u: String!) { user(username: $u) { username bot memberSince wins losses draws
        ratings { ruleset rating rd volatility games provisional wins losses draws lastRatedAt } } }`,
      { u: username },
    );
    return d.user;
  },
  async ratingHistory(username: string, ruleset: string): Promise<RatingPoint[]> {
    const d = await gql<{ ratingHistory: RatingPoint[] }>(
      `query($u: String!, $r: String!) { ratingHistory(username: $u, ruleset: $r) { matchId time ratingBefore rating rd volatility result } }`,
      { u: username, r: ruleset },
    );
    return d.ratingHistory;
  },
  async leaderboard(ruleset: string, limit = 20): Promise<LeaderboardEntry[]> {
    const d = await gql<{ leaderboard: LeaderboardEntry[] }>(`query($r: String!, $n: Int) { leaderboard(ruleset: $r, limit: $n) { rank username rating rd games } }`, {
      r: ruleset,
      n: limit,
    });
    return d.leaderboard;
  },
  /** Head to head from a's side. */
  async crosstable(a: string, b: string): Promise<Crosstable> {
    const d = await gql<{ crosstable: Crosstable }>(
      `query($a: String!, $b: String!) { crosstable(a: $a, b: $b) { a b wins losses draws pools { ruleset wins losses draws }
        lastMatches { matchId ruleset endedAt result ratingBefore ratingAfter } } }`,
      { a, b },
    );
    return d.crosstable;
  },
  /** A user's finished matches, newest first, one page at a time (REST, JSON mode). */
  async userMatches(username: string, max: number, after: string | null): Promise<UserMatchPage> {
    const q = new URLSearchParams({ max: String(max) });
    if (after) q.set('after', after);
    return rest<UserMatchPage>(`/v1/users/${encodeURIComponent(username)}/matches?${q}`);
  },
  /** Live events from a seq, each with the match as I may see it right after. */
  follow(matchId: string, fromSeq: number, onEvent: (e: { event: MatchEvent; match: Match }) => void, onError: (err: ApiError) => void): () => void {
    return subscribe<{ matchEventsLive: { event: MatchEvent; match: Match } }>(
      `subscription($id: ID!, $from: Int) { matchEventsLive(matchId: $id, fromSeq: $from) { event { seq type payload actor time hash } match { ${MATCH_FIELDS} } } }`,
      { id: matchId, from: fromSeq },
      (d) => onEvent(d.matchEventsLive),
      onError,
    );
  },
};
