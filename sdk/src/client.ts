import createClient from 'openapi-fetch';
import type { Client } from 'openapi-fetch';
import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { print } from 'graphql';
import type { components, operations, paths } from './generated/openapi.js';
import { ScopaError, isRecord } from './errors.js';
import { follow } from './follow.js';
import type { FollowOptions, LiveMatchEvent } from './follow.js';
import { resolveRetry, retryingFetch } from './retry.js';
import { oauthError, tokenRequest } from './oauth-tokens.js';
import type { OAuthSessionOptions, OAuthTokens } from './oauth-tokens.js';
import type { RetryOptions } from './retry.js';

type Schemas = components['schemas'];
/** A match as the caller may see it (REST `MatchModel`). */
export type Match = Schemas['MatchModel'];
export type MatchSummary = Schemas['MatchSummaryModel'];
/** What {@link ScopaClient.createMatch} takes. */
export type CreateMatchInput = Schemas['CreateMatchInput'];
/** One seat of {@link CreateMatchInput}: the creator's, open, reserved for a username, or a bot. */
export type SeatInput = Schemas['SeatInput'];
/** My legal plays, and the hand declarations open to me (cirulla): send any of them back as it is. */
export type LegalPlays = Schemas['LegalPlaysModel'];
/** One legal play, as `legalPlays` returns it: send it back to {@link ScopaClient.play} as it is. */
export type LegalPlay = Schemas['PlayModel'];
/**
 * One hand declaration open to me (`legalPlays.declarations`, the conformance
 * `handBonus` shape): the value it names for the matta (null: the hand holds
 * none) and the scope it scores. Send it to {@link ScopaClient.declareHand} as it is.
 */
export type Declaration = Schemas['DeclarationModel'];
/** What {@link ScopaClient.declareHand} sends: the matta's value, required when the hand holds the matta (a `points`, as `legalPlays` gives it, is accepted and ignored). */
export interface DeclarationChoice {
  mattaValue?: number | null;
  points?: number;
}
export type MatchEvent = Schemas['MatchEventModel'];
export type Audit = Schemas['AuditModel'];
export type Session = Schemas['SessionModel'];
export type Account = Schemas['AccountModel'];
/** The calling account ({@link ScopaClient.me}), with its roles: `["moderator"]` for a moderator, `[]` for a player. */
export type Me = Schemas['MeModel'];
export type CreatedApiToken = Schemas['CreatedApiTokenModel'];
export type InboxEntry = Schemas['InboxEntryModel'];
export type ApiTokenScope = Schemas['CreateTokenInput']['scopes'][number];
/** A direct challenge (sent or received). */
export type Challenge = Schemas['ChallengeModel'];
/** My pending challenges: received (`in`) and sent (`out`). */
export type MyChallenges = Schemas['MyChallengesModel'];
/** A report to the moderators (docs/social.md "Reports and moderation"). */
export type Report = Schemas['ReportModel'];
/** What {@link ScopaClient.report} takes: exactly one target, and why. */
export type ReportInput = Schemas['ReportInput'];
/** A page of {@link ScopaClient.reports}. */
export type ReportPage = Schemas['ReportPageModel'];
/** A running mute ({@link ScopaClient.muteUser}). */
export type Mute = Schemas['MuteModel'];
/** A ban ({@link ScopaClient.banUser}). */
export type Ban = Schemas['BanModel'];
/** A rematch offer ({@link ScopaClient.rematch}). */
export type RematchOffer = Schemas['RematchOfferModel'];
/** A tournament (docs/tournaments.md). */
export type Tournament = Schemas['TournamentModel'];
/** What {@link ScopaClient.createTournament} takes. */
export type CreateTournamentInput = Schemas['CreateTournamentInput'];
/** A page of {@link ScopaClient.tournaments}. */
export type TournamentPage = Schemas['TournamentPageModel'];
/** One line of a tournament's standings. */
export type Standing = Schemas['StandingModel'];
/** A round of a tournament: its tables, results, bye and seeds. */
export type TournamentRound = Schemas['RoundModel'];
/** A chat message: plain text as its author sent it, never markup (show it as text). */
export type ChatMessage = Schemas['ChatMessageModel'];
/** A page of a chat room's history, newest first (`nextCursor`: pass it as `after`). */
export type ChatPage = Schemas['ChatPageModel'];
/** A chat room, as the REST paths name it: a match's players' (default) or spectators' room, the lobby, a tournament's, a team's, a direct conversation. */
export type ChatRoomRef =
  | { kind: 'match'; id: string; matchRoom?: 'players' | 'spectators' }
  | { kind: 'lobby' }
  | { kind: 'tournament'; id: string }
  | { kind: 'team'; id: string }
  | { kind: 'direct'; username: string };
/** A team (club): {@link ScopaClient.team}, the answer of every team command. */
export type Team = Schemas['TeamModel'];
/** What {@link ScopaClient.createTeam} takes. */
export type CreateTeamInput = Schemas['CreateTeamInput'];
/** A page of {@link ScopaClient.teams}. */
export type TeamPage = Schemas['TeamPageModel'];
/** A member of a team with their ratings: {@link ScopaClient.teamMembers}. */
export type TeamMember = Schemas['TeamMemberModel'];
export type TeamMemberPage = Schemas['TeamMemberPageModel'];
/** A pending request to join a team: {@link ScopaClient.teamRequests}. */
export type TeamRequest = Schemas['TeamRequestModel'];
export type TeamRequestPage = Schemas['TeamRequestPageModel'];
/** A browser's Web Push subscription of mine and the kinds it takes: {@link ScopaClient.pushSubscriptions}. */
export type PushSubscriptionInfo = Schemas['PushSubscriptionModel'];
/** What a push subscription is told of (docs/notifications.md "Kinds"). */
export type PushKind = PushSubscriptionInfo['kinds'][number];
/** A browser's PushSubscription as its toJSON() gives it: what {@link ScopaClient.addPushSubscription} registers. */
export type BrowserPushSubscription = Omit<Schemas['AddPushSubscriptionInput'], 'kinds'>;
/** What {@link ScopaClient.challenge} takes. */
export type ChallengeInput = Schemas['ChallengeInput'];
/** Why a challenge is declined (lichess's reasons). */
export type DeclineReason = NonNullable<Schemas['DeclineChallengeInput']['reason']>;
/** A seek: waits until compatible seeks exist, then is paired into a new match (`matchId`). */
export type Seek = Schemas['SeekModel'];
/** What {@link ScopaClient.createSeek} takes. */
export type CreateSeekInput = Schemas['CreateSeekInput'];

/** A preset (a named ruleset) as `GET /v1/rulesets` lists it, with its resolved options. */
export type Preset = Schemas['PresetModel'];
/** What every seat sees of a match (`match.view`). */
export type MatchView = Schemas['MatchViewModel'];
export type SeatPublic = Schemas['SeatPublicModel'];
export type SidePublic = Schemas['SidePublicModel'];
/** A player: an account, or a bot level rated as `bot:<level>`. */
export type UserProfile = Schemas['UserProfileModel'];
/** A player's Glicko-2 rating in one pool. */
export type PoolRating = Schemas['PoolRatingModel'];
/** One rated match of a player's rating history, oldest first. */
export type RatingPoint = Schemas['RatingPointModel'];
export type LeaderboardEntry = Schemas['LeaderboardEntryModel'];
/** Head to head from `a`'s side. */
export type Crosstable = Schemas['CrosstableModel'];
/** A finished match of a user's archive (`GET /v1/users/{username}/matches`). */
export type ArchivedMatch = Schemas['ArchivedMatchModel'];
/** A page of a user's finished matches: `next` is the cursor (`after`) of the next page, null on the last. */
export type UserMatchesPage = Schemas['UserMatchesPageModel'];
/** What {@link ScopaClient.userMatches} filters on (`max`, `after`, `ruleset`, `vs`, ...). */
export type UserMatchesQuery = NonNullable<operations['userMatches']['parameters']['query']>;
/** An open match as the lobby lists it. */
/** A post-game analysis: its job's status and, once done, its `result` (docs/analysis.md). */
export type Analysis = Schemas['AnalysisModel'];
/** The analysis of a finished match: every decision (options, values, loss, class) and a summary per seat. */
export type MatchAnalysisResult = Schemas['MatchAnalysisResultModel'];
export type DecisionAnalysis = Schemas['DecisionAnalysisModel'];
export type SeatAnalysis = Schemas['SeatAnalysisModel'];
export type LobbyMatch = Schemas['LobbyMatchModel'];
export type LobbyPage = Schemas['LobbyPageModel'];
/** What {@link ScopaClient.lobby} filters on (`preset`, `rated`, `clock`, `limit`, `after`). */
export type LobbyQuery = NonNullable<operations['lobby']['parameters']['query']>;
/** An app (OAuth client) I registered. */
export type OAuthApp = Schemas['OAuthAppModel'];
/** A newly registered app: its `clientSecret` (confidential apps only) is shown this once. */
export type RegisteredOAuthApp = Schemas['RegisteredOAuthAppModel'];
export type RegisterOAuthAppInput = Schemas['RegisterOAuthAppInput'];
/** An app I authorized (an OAuth grant), with the scopes it holds. */
export type AuthorizedApp = Schemas['AuthorizedAppModel'];
/** Where I stand with a player after a follow, unfollow, block or unblock: `{username, following, blocking}`. */
export type Relation = Schemas['RelationModel'];
/** A page of a following or followers list: `{items: [{username, online, since}], nextCursor}`. */
export type FollowPage = Schemas['FollowPageModel'];
/** A page of the players I block: `{items: [{username, since}], nextCursor}`. */
export type BlockPage = Schemas['BlockPageModel'];
/** Who may send me direct messages: `{directMessages: 'everyone' | 'followed' | 'nobody'}`. */
export type MessageSettings = Schemas['MessageSettingsModel'];
/** My account settings: `{acceptChallenges: 'none' | 'known' | 'everyone', language: 'en' | 'it' | 'fr' | 'es' | 'ar' | null}` (language null: none chosen). */
export type AccountSettings = Schemas['AccountSettingsModel'];
/** Changes to my account settings: absent fields stay as they are; `language: null` forgets the language. */
export type AccountSettingsInput = Schemas['AccountSettingsInput'];
/** A language of the players (an account's `language`). */
export type Language = NonNullable<AccountSettings['language']>;
/** My vacation for correspondence play and what is left of my allowance (docs/async-play.md "Vacations"). */
export type Vacation = Schemas['VacationModel'];
/** One line of my event stream ({@link ScopaClient.myEvents}): `matchInPlay`, `yourTurn`, `matchStarted`, `matchEnded`, ... */
export type EventStreamLine = Schemas['EventStreamLineModel'];

/**
 * Where a client takes its token from before every request and every
 * `follow()` (re)connection: an app that keeps and refreshes the session
 * itself (e.g. across browser tabs) gives a function.
 */
export type TokenProvider = () => string | undefined | Promise<string | undefined>;

/**
 * An OAuth authorization request waiting for the signed-in user's consent
 * (`GET /oauth/consent/{uid}/request`). The consent step belongs to the
 * service's own web client and is not in `openapi.yaml`: hence a type written
 * here.
 */
export interface ConsentRequest {
  uid: string;
  app: { id: string; name: string };
  redirectUri: string;
  /** The redirect's host, what the user must recognize (a user part such as trusted.example@ is not shown as if it were one). */
  redirectHost: string;
  username: string;
  scopes: { scope: string; description: string }[];
}

/** What {@link ScopaClient.play} sends: a card and the table cards it captures (a `scopa` flag, as `legalPlays` gives it, is accepted and ignored). */
export interface PlayChoice {
  card: string;
  capture: string[];
  scopa?: boolean;
}

/** Options of the commands that change a match. */
export interface CommandOptions {
  /**
   * The seq the command was decided on, sent as `If-Match: "<seq>"`: the service
   * refuses it with `VERSION_CONFLICT` (412) if the match has moved on. Default:
   * the last seq this client saw of the match (from any response's `ETag` or
   * `seq`, or an event of {@link ScopaClient.follow}); `null` sends none.
   */
  expectedSeq?: number | null;
  /**
   * Makes the command idempotent: a retry with the same key returns the first
   * result and changes nothing. Default: a fresh random key per call, reused by
   * the SDK's own retries of that call.
   */
  idempotencyKey?: string;
}

export interface ScopaClientOptions {
  /** Where the service is, e.g. `http://localhost:3000` (REST under `/v1`, GraphQL and graphql-ws at `/graphql`). */
  baseUrl: string;
  /**
   * A session token (from {@link ScopaClient.login}) or a personal API token
   * (`scopa_pat_...`); or a {@link TokenProvider}, asked before every request.
   */
  token?: string | TokenProvider;
  /**
   * OAuth tokens (from {@link loginWithOAuth} / {@link completeOAuthLogin}, or
   * stored by the app): the client sends the access token and refreshes it
   * itself, shortly before it expires and on a 401, one refresh at a time
   * (refresh tokens are single-use).
   */
  oauth?: OAuthSessionOptions;
  /** Retries of requests that are safe to repeat (see {@link RetryOptions}). */
  retry?: RetryOptions;
  /** The fetch to use (default: the global one). */
  fetch?: typeof fetch;
  /** The WebSocket class for {@link ScopaClient.follow} (default: the global WebSocket, else the `ws` package). */
  webSocketImpl?: unknown;
  /** Extra headers sent with every HTTP request. */
  headers?: Record<string, string>;
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS', 'DELETE']);

/**
 * A client of Scopa as a service. `rest` is the raw client generated from
 * `openapi.yaml` (openapi-fetch: every path, typed); `graphql()` runs the typed
 * documents generated from `schema.graphql`; the methods below are thin
 * helpers over them that handle the token, retries with idempotency keys,
 * `If-Match` from the last seen seq, and errors ({@link ScopaError}).
 */
export class ScopaClient {
  readonly baseUrl: string;
  /** The REST client generated from `openapi.yaml`, with this client's token, retries and seq tracking. */
  readonly rest: Client<paths>;
  /** @internal */
  readonly webSocketImpl: unknown;
  #token: string | undefined;
  #tokenProvider: TokenProvider | undefined;
  #oauth: OAuthSessionOptions | undefined;
  #refreshing: Promise<OAuthTokens> | undefined;
  readonly #baseFetch: typeof fetch;
  readonly #seqs = new Map<string, number>();
  readonly #fetch: (request: Request) => Promise<Response>;

  constructor(options: ScopaClientOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.webSocketImpl = options.webSocketImpl;
    const baseFetch = options.fetch ?? globalThis.fetch.bind(globalThis);
    this.#baseFetch = baseFetch;
    this.setToken(options.token);
    if (options.oauth) this.#useOAuth(options.oauth);
    this.#fetch = this.#authorizingFetch(retryingFetch(baseFetch, resolveRetry(options.retry), retryable));
    this.rest = createClient<paths>({ baseUrl: this.baseUrl, fetch: this.#fetch, headers: options.headers });
    this.rest.use({
      onResponse: ({ request, response }) => {
        const id = /\/v1\/matches\/([^/?#]+)/.exec(new URL(request.url).pathname)?.[1];
        const seq = parseEtag(response.headers.get('etag'));
        if (id && seq !== undefined) this.observeSeq(decodeURIComponent(id), seq);
        return response;
      },
    });
  }

  /** Logs in with a password and returns a client holding the session token. */
  static async login(options: ScopaClientOptions & { username: string; password: string }): Promise<ScopaClient> {
    const client = new ScopaClient(options);
    await client.login(options.username, options.password);
    return client;
  }

  /** The token sent with every request (a session JWT or an API token), if any (undefined with a {@link TokenProvider}). */
  get token(): string | undefined {
    return this.#token;
  }

  /**
   * Uses another token from now on (e.g. a fresh session, or an API token), or
   * a {@link TokenProvider}; `undefined` for anonymous calls. Forgets OAuth tokens.
   */
  setToken(token: string | TokenProvider | undefined): void {
    this.#oauth = undefined;
    this.#tokenProvider = typeof token === 'function' ? token : undefined;
    this.#token = typeof token === 'function' ? undefined : token;
  }

  /** The OAuth tokens this client holds (they change on every refresh), if it logged in with OAuth. */
  get oauthTokens(): OAuthTokens | undefined {
    return this.#oauth ? { ...this.#oauth.tokens, scopes: [...this.#oauth.tokens.scopes] } : undefined;
  }

  /**
   * The token to send now: with OAuth, refreshed first when the access token
   * expires within `refreshSkewMs`. Used by every request of this client and
   * by {@link follow} when it (re)connects.
   */
  async currentToken(): Promise<string | undefined> {
    if (this.#tokenProvider) return this.#tokenProvider();
    const oauth = this.#oauth;
    if (oauth?.tokens.refreshToken && Date.now() >= oauth.tokens.expiresAt - (oauth.refreshSkewMs ?? 60_000)) {
      try {
        await this.refreshOAuth();
      } catch (error) {
        // the service could not be reached for the refresh: the access token still serves until it expires
        if (this.#oauth !== oauth || Date.now() >= oauth.tokens.expiresAt) throw error;
      }
    }
    return this.#token;
  }

  /**
   * Refreshes the OAuth access token now with the refresh token (which is
   * spent: the answer carries the next one). Concurrent calls share one
   * refresh. A refusal (`invalid_grant`: the grant was revoked or the refresh
   * token was already spent) forgets the tokens and throws a ScopaError
   * `OAUTH_ERROR`.
   */
  refreshOAuth(): Promise<OAuthTokens> {
    const oauth = this.#oauth;
    if (!oauth?.tokens.refreshToken) {
      return Promise.reject(new ScopaError({ code: 'OAUTH_ERROR', reason: 'invalid_grant', message: 'no OAuth refresh token to refresh with', status: 0 }));
    }
    this.#refreshing ??= (async () => {
      try {
        const tokens = await tokenRequest(
          this.#baseFetch,
          oauth.tokenEndpoint ?? `${this.baseUrl}/oauth/token`,
          { grant_type: 'refresh_token', refresh_token: oauth.tokens.refreshToken! },
          oauth.clientId,
          oauth.clientSecret,
        );
        if (this.#oauth !== oauth) return tokens; // the client moved on to another credential meanwhile
        // a server that does not rotate keeps the refresh token valid: keep it
        oauth.tokens = { ...tokens, refreshToken: tokens.refreshToken ?? oauth.tokens.refreshToken };
        this.#token = oauth.tokens.accessToken;
        await oauth.onTokens?.(oauth.tokens);
        return oauth.tokens;
      } catch (error) {
        if (error instanceof ScopaError && error.code === 'OAUTH_ERROR' && error.reason === 'invalid_grant' && this.#oauth === oauth) {
          this.#oauth = undefined;
          this.#token = undefined;
        }
        throw error;
      } finally {
        this.#refreshing = undefined;
      }
    })();
    return this.#refreshing;
  }

  /**
   * Ends this OAuth login on the service (RFC 7009: revoking the refresh token
   * ends the whole grant, its access tokens included) and forgets the tokens.
   */
  async revokeOAuth(): Promise<void> {
    const oauth = this.#oauth;
    if (!oauth) return;
    const token = oauth.tokens.refreshToken ?? oauth.tokens.accessToken;
    const body = new URLSearchParams({ token, token_type_hint: oauth.tokens.refreshToken ? 'refresh_token' : 'access_token' });
    const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded' };
    if (oauth.clientSecret !== undefined)
      headers.authorization = `Basic ${btoa(`${encodeURIComponent(oauth.clientId)}:${encodeURIComponent(oauth.clientSecret)}`)}`;
    else body.set('client_id', oauth.clientId);
    let response: Response;
    try {
      response = await this.#baseFetch(oauth.revocationEndpoint ?? `${this.baseUrl}/oauth/revoke`, { method: 'POST', headers, body: body.toString() });
    } catch (error) {
      throw ScopaError.network(error);
    }
    if (!response.ok) throw oauthError(await response.json().catch(() => undefined), response.status);
    if (this.#oauth === oauth) {
      this.#oauth = undefined;
      this.#token = undefined;
    }
  }

  #useOAuth(oauth: OAuthSessionOptions): void {
    this.#tokenProvider = undefined;
    this.#oauth = { ...oauth, tokens: { ...oauth.tokens, scopes: [...oauth.tokens.scopes] } };
    this.#token = oauth.tokens.accessToken;
  }

  /**
   * Sends this client's token with every request that has no Authorization
   * header of its own; with OAuth, refreshes before expiry, and after a 401
   * refreshes once and sends the request again.
   */
  #authorizingFetch(inner: (request: Request) => Promise<Response>): (request: Request) => Promise<Response> {
    return async (request: Request) => {
      if (request.headers.has('authorization')) return inner(request);
      const token = await this.currentToken();
      if (!token) return inner(request);
      const again = this.#oauth?.tokens.refreshToken ? request.clone() : undefined;
      request.headers.set('authorization', `Bearer ${token}`);
      const response = await inner(request);
      if (response.status !== 401 || !again || !this.#oauth) return response;
      try {
        if (this.#token === token) await this.refreshOAuth();
      } catch {
        return response; // the refresh was refused too: the 401 stands
      }
      if (!this.#token || this.#token === token) return response;
      await response.body?.cancel().catch(() => undefined);
      again.headers.set('authorization', `Bearer ${this.#token}`);
      return inner(again);
    };
  }

  /** Password login: keeps the session's token for the following calls and returns the session. */
  async login(username: string, password: string): Promise<Session> {
    const session = await this.#ok(this.rest.POST('/v1/auth/login', { body: { username, password } }));
    this.setToken(session.accessToken);
    return session;
  }

  /** Creates an account: keeps the new session's token and returns the session. */
  async register(username: string, password: string): Promise<Session> {
    const session = await this.#ok(this.rest.POST('/v1/auth/register', { body: { username, password } }));
    this.setToken(session.accessToken);
    return session;
  }

  /**
   * Trades a session's refresh token (single-use: the answer carries the next
   * one) for a fresh session; keeps its token for the following calls.
   */
  async refreshSession(refreshToken: string): Promise<Session> {
    const session = await this.#ok(this.rest.POST('/v1/auth/refresh', { body: { refreshToken } }));
    this.setToken(session.accessToken);
    return session;
  }

  /** Ends this session on the service and forgets the token. */
  async logout(): Promise<void> {
    await this.#ok(this.rest.POST('/v1/auth/logout'));
    this.setToken(undefined);
  }

  /** The calling account, with its roles (`["moderator"]` for a moderator, `[]` for a player). */
  async me(): Promise<Me> {
    return this.#ok(this.rest.GET('/v1/me'));
  }

  /** Creates a personal API token (needs a password session); its secret (`token`) is shown this once. */
  async createApiToken(name: string, scopes: ApiTokenScope[] = ['read', 'play']): Promise<CreatedApiToken> {
    return this.#ok(this.rest.POST('/v1/tokens', { body: { name, scopes } }));
  }

  async createMatch(input: CreateMatchInput): Promise<Match> {
    return this.#match(this.rest.POST('/v1/matches', { body: input as Schemas['CreateMatchInput'] }));
  }

  /** A match as I may see it; `atSeq` replays it. */
  async getMatch(matchId: string, atSeq?: number): Promise<Match> {
    return this.#match(this.rest.GET('/v1/matches/{id}', { params: { path: { id: matchId }, query: atSeq === undefined ? {} : { atSeq } } }));
  }

  /** Matches where I hold or am invited to a seat. */
  async myMatches(query: { status?: 'open' | 'playing' | 'over'; myTurn?: boolean; limit?: number; offset?: number } = {}): Promise<MatchSummary[]> {
    return this.#ok(this.rest.GET('/v1/matches', { params: { query } }));
  }

  /** The matches where it is my turn, the soonest deadline first. */
  async inbox(limit?: number): Promise<InboxEntry[]> {
    return this.#ok(this.rest.GET('/v1/inbox', { params: { query: limit === undefined ? {} : { limit } } }));
  }

  /** Takes a seat (the first open or reserved one, or `seat`), giving a client seed (default: 32 random bytes). */
  async joinMatch(matchId: string, input: { seat?: number; clientSeed?: string | null; idempotencyKey?: string } = {}): Promise<Match> {
    const clientSeed = input.clientSeed === null ? undefined : (input.clientSeed ?? randomClientSeed());
    return this.#match(
      this.rest.POST('/v1/matches/{id}/join', {
        params: { path: { id: matchId } },
        body: { seat: input.seat, clientSeed, idempotencyKey: input.idempotencyKey ?? newIdempotencyKey() },
      }),
    );
  }

  /** Gives my client seed (once, before the start; default: 32 random bytes). */
  async setClientSeed(matchId: string, clientSeed: string = randomClientSeed(), options: CommandOptions = {}): Promise<Match> {
    return this.#match(
      this.rest.POST('/v1/matches/{id}/client-seed', {
        params: { path: { id: matchId }, header: this.#ifMatch(matchId, options) },
        body: { clientSeed, idempotencyKey: options.idempotencyKey ?? newIdempotencyKey() },
      }),
    );
  }

  /** Starts the match (every seat taken). While client seeds are missing the service answers 202: the match then has `startsAt`. */
  async startMatch(matchId: string, options: Omit<CommandOptions, 'expectedSeq'> = {}): Promise<Match> {
    return this.#match(
      this.rest.POST('/v1/matches/{id}/start', {
        params: { path: { id: matchId } },
        body: { idempotencyKey: options.idempotencyKey ?? newIdempotencyKey() },
      }),
    );
  }

  /**
   * Plays a card. `play` may be a play from {@link legalPlays} as it is. Sent with
   * `If-Match` from the last seq seen (see {@link CommandOptions.expectedSeq}) and an
   * idempotency key, so that a retry after a network failure plays once.
   */
  async play(matchId: string, play: PlayChoice, options: CommandOptions = {}): Promise<Match> {
    return this.#match(
      this.rest.POST('/v1/matches/{id}/plays', {
        params: { path: { id: matchId }, header: this.#ifMatch(matchId, options) },
        body: { card: play.card, capture: play.capture, scopa: play.scopa, idempotencyKey: options.idempotencyKey ?? newIdempotencyKey() },
      }),
    );
  }

  /**
   * Declares my hand (cirulla's hand declarations) before I play: the scope
   * it scores counts at once and its cards are shown to everyone until
   * played; the turn stays mine. `declaration` may be one of
   * {@link legalPlays}' `declarations` as it is: its `mattaValue` (required
   * when the hand holds the matta, else absent or null) is what the matta
   * captures as until the round ends. Sent like {@link play}: `If-Match` from
   * the last seq seen and an idempotency key. A refusal is
   * `DECLARATION_NOT_ALLOWED` with its `reason`.
   */
  async declareHand(matchId: string, declaration: DeclarationChoice = {}, options: CommandOptions = {}): Promise<Match> {
    const mattaValue = declaration.mattaValue ?? undefined;
    return this.#match(
      this.rest.POST('/v1/matches/{id}/declarations', {
        params: { path: { id: matchId }, header: this.#ifMatch(matchId, options) },
        body: { mattaValue, idempotencyKey: options.idempotencyKey ?? newIdempotencyKey() },
      }),
    );
  }

  /** Resigns: my side loses. */
  async resign(matchId: string, options: Omit<CommandOptions, 'expectedSeq'> = {}): Promise<Match> {
    return this.#match(
      this.rest.POST('/v1/matches/{id}/resign', {
        params: { path: { id: matchId } },
        body: { idempotencyKey: options.idempotencyKey ?? newIdempotencyKey() },
      }),
    );
  }

  /**
   * Asks for a rematch of a finished match (needs `match:play`): the offer as it stands; once every human player has
   * asked (bots accept), it is `accepted` with `newMatchId`, the rematch made and started, seats rotated.
   */
  async rematch(matchId: string): Promise<RematchOffer> {
    return this.#ok(this.rest.POST('/v1/matches/{id}/rematch', { params: { path: { id: matchId } } }));
  }

  /** The rematch offer of a finished match, as it stands (`NOT_FOUND` while nobody has asked). */
  async rematchOffer(matchId: string): Promise<RematchOffer> {
    return this.#ok(this.rest.GET('/v1/matches/{id}/rematch', { params: { path: { id: matchId } } }));
  }

  /** Declines the open rematch offer of a finished match (needs `match:play`): it lapses. */
  async declineRematch(matchId: string): Promise<RematchOffer> {
    return this.#ok(this.rest.POST('/v1/matches/{id}/rematch/decline', { params: { path: { id: matchId } } }));
  }

  /** My account settings: who may challenge me (`acceptChallenges`) and my language (`language`, null: none chosen). */
  async accountSettings(): Promise<AccountSettings> {
    return this.#ok(this.rest.GET('/v1/account'));
  }

  /** Changes my account settings (needs the `challenge:write` scope): the fields given; `language: null` forgets the language. */
  async updateAccount(changes: AccountSettingsInput): Promise<AccountSettings> {
    return this.#ok(this.rest.PATCH('/v1/account', { body: changes }));
  }

  /** Challenges an account to a two-player match (needs the `challenge:write` scope); it hears of it on its event stream, inbox and webhooks. */
  async challenge(input: ChallengeInput): Promise<Challenge> {
    return this.#ok(this.rest.POST('/v1/challenges', { body: input }));
  }

  /** My pending challenges: received (`in`) and sent (`out`), newest first. */
  async myChallenges(): Promise<MyChallenges> {
    return this.#ok(this.rest.GET('/v1/challenges'));
  }

  /** Accepts a challenge made to me: the match is created and started at once (`matchId` of the result). */
  async acceptChallenge(challengeId: string): Promise<Challenge> {
    return this.#ok(this.rest.POST('/v1/challenges/{id}/accept', { params: { path: { id: challengeId } } }));
  }

  /** Declines a challenge made to me (default reason: generic). */
  async declineChallenge(challengeId: string, reason?: DeclineReason): Promise<Challenge> {
    return this.#ok(this.rest.POST('/v1/challenges/{id}/decline', { params: { path: { id: challengeId } }, body: reason === undefined ? {} : { reason } }));
  }

  /** Cancels a challenge I made. */
  async cancelChallenge(challengeId: string): Promise<Challenge> {
    return this.#ok(this.rest.POST('/v1/challenges/{id}/cancel', { params: { path: { id: challengeId } } }));
  }

  /** A chat room's history, newest first, a page at a time (`after`: the `nextCursor` of the page before). */
  async chatMessages(room: ChatRoomRef, page: { first?: number; after?: string } = {}): Promise<ChatPage> {
    switch (room.kind) {
      case 'match':
        return this.#ok(this.rest.GET('/v1/matches/{id}/chat', { params: { path: { id: room.id }, query: { ...page, room: room.matchRoom } } }));
      case 'lobby':
        return this.#ok(this.rest.GET('/v1/lobby/chat', { params: { query: page } }));
      case 'tournament':
        return this.#ok(this.rest.GET('/v1/tournaments/{id}/chat', { params: { path: { id: room.id }, query: page } }));
      case 'team':
        return this.#ok(this.rest.GET('/v1/teams/{id}/chat', { params: { path: { id: room.id }, query: page } }));
      case 'direct':
        return this.#ok(this.rest.GET('/v1/messages/{username}', { params: { path: { username: room.username }, query: page } }));
    }
  }

  /** Says something in a chat room (needs the `match:play` scope): plain text, 1 to 500 characters, one line; a direct message reaches its recipient as the event `directMessage`. */
  async sendChatMessage(room: ChatRoomRef, text: string): Promise<ChatMessage> {
    const body = { text };
    switch (room.kind) {
      case 'match':
        return this.#ok(this.rest.POST('/v1/matches/{id}/chat', { params: { path: { id: room.id }, query: { room: room.matchRoom } }, body }));
      case 'lobby':
        return this.#ok(this.rest.POST('/v1/lobby/chat', { body }));
      case 'tournament':
        return this.#ok(this.rest.POST('/v1/tournaments/{id}/chat', { params: { path: { id: room.id } }, body }));
      case 'team':
        return this.#ok(this.rest.POST('/v1/teams/{id}/chat', { params: { path: { id: room.id } }, body }));
      case 'direct':
        return this.#ok(this.rest.POST('/v1/messages/{username}', { params: { path: { username: room.username } }, body }));
    }
  }

  /** A moderator removes a chat message (recorded in the moderation log). */
  async removeChatMessage(messageId: string, reason?: string): Promise<ChatMessage> {
    return this.#ok(this.rest.DELETE('/v1/chat/messages/{id}', { params: { path: { id: messageId }, query: reason === undefined ? {} : { reason } } }));
  }

  /** Follows a player (needs `social:write`; idempotent). Not to be confused with {@link ScopaClient.follow}, which follows a match's events. */
  async followUser(username: string): Promise<Relation> {
    return this.#ok(this.rest.PUT('/v1/users/{username}/follow', { params: { path: { username } } }));
  }

  /** Stops following a player (needs `social:write`; idempotent). */
  async unfollowUser(username: string): Promise<Relation> {
    return this.#ok(this.rest.DELETE('/v1/users/{username}/follow', { params: { path: { username } } }));
  }

  /** Whom a player follows, newest first, each with whether they are online now, one page at a time (`after`: the `nextCursor` of the page before). */
  async following(username: string, query: { first?: number; after?: string } = {}): Promise<FollowPage> {
    return this.#ok(this.rest.GET('/v1/users/{username}/following', { params: { path: { username }, query } }));
  }

  /** Who follows a player, newest first, each with whether they are online now, one page at a time. */
  async followers(username: string, query: { first?: number; after?: string } = {}): Promise<FollowPage> {
    return this.#ok(this.rest.GET('/v1/users/{username}/followers', { params: { path: { username }, query } }));
  }

  /** Blocks a player (needs `social:write`; idempotent, silent): the follows both ways end; no challenge, rematch, message or seek pairing between us. */
  async blockUser(username: string): Promise<Relation> {
    return this.#ok(this.rest.PUT('/v1/users/{username}/block', { params: { path: { username } } }));
  }

  /** Unblocks a player (needs `social:write`; idempotent). */
  async unblockUser(username: string): Promise<Relation> {
    return this.#ok(this.rest.DELETE('/v1/users/{username}/block', { params: { path: { username } } }));
  }

  /** The players I block, newest first, one page at a time. */
  async blocks(query: { first?: number; after?: string } = {}): Promise<BlockPage> {
    return this.#ok(this.rest.GET('/v1/account/blocks', { params: { query } }));
  }

  /** Who may send me direct messages. */
  async messageSettings(): Promise<MessageSettings> {
    return this.#ok(this.rest.GET('/v1/account/message-settings'));
  }

  /** Changes who may send me direct messages (needs `social:write`): everyone (the default), followed or nobody. */
  async setMessageSettings(settings: MessageSettings): Promise<MessageSettings> {
    return this.#ok(this.rest.PUT('/v1/account/message-settings', { body: settings }));
  }

  /** My vacation (`onVacationUntil`, or null) and the days of my allowance left (`VACATION_DAYS_PER_YEAR` in any 365 days). */
  async vacation(): Promise<Vacation> {
    return this.#ok(this.rest.GET('/v1/account/vacation'));
  }

  /**
   * Goes on vacation until `until` (needs `match:play`): my turn clocks in correspondence matches stand still until then
   * and resume with the time they had left. LIMIT_REACHED beyond my allowance, CONFLICT when already on vacation.
   */
  async startVacation(until: Date | string): Promise<Vacation> {
    return this.#ok(this.rest.POST('/v1/account/vacation', { body: { until: until instanceof Date ? until.toISOString() : until } }));
  }

  /** Ends my vacation now (needs `match:play`; nothing when none runs): my correspondence clocks run again. */
  async endVacation(): Promise<Vacation> {
    return this.#ok(this.rest.DELETE('/v1/account/vacation'));
  }

  /** Creates a tournament (needs the `tournament:write` scope): players join until it starts. */
  async createTournament(input: CreateTournamentInput): Promise<Tournament> {
    return this.#ok(this.rest.POST('/v1/tournaments', { body: input }));
  }

  /** Tournaments, newest first, one page at a time (`after`: the `nextCursor` of the page before). */
  async tournaments(query: { status?: Tournament['status']; format?: Tournament['format']; first?: number; after?: string } = {}): Promise<TournamentPage> {
    return this.#ok(this.rest.GET('/v1/tournaments', { params: { query } }));
  }

  /** A tournament: its settings, status, players and current round. */
  async tournament(tournamentId: string): Promise<Tournament> {
    return this.#ok(this.rest.GET('/v1/tournaments/{id}', { params: { path: { id: tournamentId } } }));
  }

  /** Joins a tournament before it starts, optionally with my client seed (hex). */
  async joinTournament(tournamentId: string, clientSeed?: string): Promise<Tournament> {
    return this.#ok(
      this.rest.POST('/v1/tournaments/{id}/join', { params: { path: { id: tournamentId } }, body: clientSeed === undefined ? {} : { clientSeed } }),
    );
  }

  /** Withdraws from a tournament: after its start my remaining games are forfeited. */
  async withdrawFromTournament(tournamentId: string): Promise<Tournament> {
    return this.#ok(this.rest.POST('/v1/tournaments/{id}/withdraw', { params: { path: { id: tournamentId } } }));
  }

  /** Starts my tournament now (round 1 is paired and its matches made). */
  async startTournament(tournamentId: string): Promise<Tournament> {
    return this.#ok(this.rest.POST('/v1/tournaments/{id}/start', { params: { path: { id: tournamentId } } }));
  }

  /** Cancels my tournament before it starts. */
  async cancelTournament(tournamentId: string): Promise<Tournament> {
    return this.#ok(this.rest.POST('/v1/tournaments/{id}/cancel', { params: { path: { id: tournamentId } } }));
  }

  /** A tournament's standings now, in rank order. */
  async tournamentStandings(tournamentId: string): Promise<Standing[]> {
    return this.#ok(this.rest.GET('/v1/tournaments/{id}/standings', { params: { path: { id: tournamentId } } }));
  }

  /** A round of a tournament (from 1): its tables and results. */
  async tournamentRound(tournamentId: string, round: number): Promise<TournamentRound> {
    return this.#ok(this.rest.GET('/v1/tournaments/{id}/rounds/{n}', { params: { path: { id: tournamentId, n: round } } }));
  }

  /** Creates a team (needs the `team:write` scope): I am its first leader; a name taken without regard to case is a `CONFLICT`. */
  async createTeam(input: CreateTeamInput): Promise<Team> {
    return this.#ok(this.rest.POST('/v1/teams', { body: input }));
  }

  /** Teams by name, one page at a time (`q`: those whose name contains it; `after`: the `nextCursor` of the page before). */
  async teams(query: { q?: string; first?: number; after?: string } = {}): Promise<TeamPage> {
    return this.#ok(this.rest.GET('/v1/teams', { params: { query } }));
  }

  /** A team: its name, description, leaders, member count, and my role in it. */
  async team(teamId: string): Promise<Team> {
    return this.#ok(this.rest.GET('/v1/teams/{id}', { params: { path: { id: teamId } } }));
  }

  /** Joins a team: an open one at once (`myRole: member`), one by request through a request its leaders answer (`requestPending`). */
  async joinTeam(teamId: string): Promise<Team> {
    return this.#ok(this.rest.POST('/v1/teams/{id}/join', { params: { path: { id: teamId } } }));
  }

  /** Leaves a team (or withdraws my pending request); the last leader must appoint another first (`CONFLICT`). */
  async leaveTeam(teamId: string): Promise<Team> {
    return this.#ok(this.rest.POST('/v1/teams/{id}/leave', { params: { path: { id: teamId } } }));
  }

  /** A team's members by username, each with their ratings, one page at a time. */
  async teamMembers(teamId: string, query: { first?: number; after?: string } = {}): Promise<TeamMemberPage> {
    return this.#ok(this.rest.GET('/v1/teams/{id}/members', { params: { path: { id: teamId }, query } }));
  }

  /** A team's pending requests, oldest first (for its leaders). */
  async teamRequests(teamId: string, query: { first?: number; after?: string } = {}): Promise<TeamRequestPage> {
    return this.#ok(this.rest.GET('/v1/teams/{id}/requests', { params: { path: { id: teamId }, query } }));
  }

  /** Accepts a player's request to join my team (as its leader). */
  async acceptTeamRequest(teamId: string, username: string): Promise<Team> {
    return this.#ok(this.rest.POST('/v1/teams/{id}/requests/{username}/accept', { params: { path: { id: teamId, username } } }));
  }

  /** Declines a player's request to join my team (as its leader). */
  async declineTeamRequest(teamId: string, username: string): Promise<Team> {
    return this.#ok(this.rest.POST('/v1/teams/{id}/requests/{username}/decline', { params: { path: { id: teamId, username } } }));
  }

  /** Removes a member from my team (as its leader); their next join is a request. */
  async kickTeamMember(teamId: string, username: string): Promise<Team> {
    return this.#ok(this.rest.POST('/v1/teams/{id}/kick/{username}', { params: { path: { id: teamId, username } } }));
  }

  /** Makes a member of my team a leader (as its leader). */
  async appointTeamLeader(teamId: string, username: string): Promise<Team> {
    return this.#ok(this.rest.POST('/v1/teams/{id}/leaders/{username}', { params: { path: { id: teamId, username } } }));
  }

  /** The service's VAPID public key (base64url): PushManager.subscribe's `applicationServerKey`. Needs no credential. */
  async vapidPublicKey(): Promise<{ publicKey: string }> {
    return this.#ok(this.rest.GET('/v1/push/vapid-public-key'));
  }

  /**
   * Registers a browser's push subscription (`subscription.toJSON()`) for `kinds` (default all; needs `push:write`).
   * The same endpoint again replaces its keys and kinds (same id): that is how kinds are switched.
   */
  async addPushSubscription(subscription: BrowserPushSubscription, kinds?: PushKind[]): Promise<PushSubscriptionInfo> {
    return this.#ok(this.rest.POST('/v1/account/push-subscriptions', { body: { ...subscription, ...(kinds ? { kinds } : {}) } }));
  }

  /** My push subscriptions, oldest first, with the kinds each takes (needs `profile:read`). */
  async pushSubscriptions(): Promise<PushSubscriptionInfo[]> {
    return this.#ok(this.rest.GET('/v1/account/push-subscriptions'));
  }

  /** Removes one of my push subscriptions (needs `push:write`): that browser is told nothing more. */
  async removePushSubscription(id: string): Promise<void> {
    await this.#ok(this.rest.DELETE('/v1/account/push-subscriptions/{id}', { params: { path: { id } } }));
  }

  /** Reports a user, a chat message or a match to the moderators: exactly one of `target.username`, `target.messageId`, `target.matchId`. */
  async report(input: ReportInput): Promise<Report> {
    return this.#ok(this.rest.POST('/v1/reports', { body: input }));
  }

  /** For moderators: the reports of a status (`open` by default), oldest first, one page at a time (`after`: the page's `nextCursor`). */
  async reports(query: { status?: Report['status']; first?: number; after?: string } = {}): Promise<ReportPage> {
    return this.#ok(this.rest.GET('/v1/admin/reports', { params: { query } }));
  }

  /** For moderators: resolves an open report, saying what was done. */
  async resolveReport(reportId: string, resolution?: string): Promise<Report> {
    return this.#ok(
      this.rest.POST('/v1/admin/reports/{id}/resolve', { params: { path: { id: reportId } }, body: resolution === undefined ? {} : { resolution } }),
    );
  }

  /** For moderators: mutes a user until a time in the future (their chat messages are refused with `CHAT_MUTED` until then). */
  async muteUser(username: string, until: Date | string, reason: string): Promise<Mute> {
    return this.#ok(
      this.rest.POST('/v1/admin/users/{username}/mute', {
        params: { path: { username } },
        body: { until: typeof until === 'string' ? until : until.toISOString(), reason },
      }),
    );
  }

  /** For moderators: lifts a running mute. */
  async unmuteUser(username: string, reason?: string): Promise<void> {
    await this.#ok(this.rest.DELETE('/v1/admin/users/{username}/mute', { params: { path: { username }, query: reason === undefined ? {} : { reason } } }));
  }

  /** For moderators: bans an account (its sessions, tokens and sockets end; its login is refused with `ACCOUNT_BANNED`). */
  async banUser(username: string, reason: string): Promise<Ban> {
    return this.#ok(this.rest.POST('/v1/admin/users/{username}/ban', { params: { path: { username } }, body: { reason } }));
  }

  /** For moderators: lifts a ban (the account logs in again; what the ban revoked stays revoked). */
  async unbanUser(username: string, reason?: string): Promise<void> {
    await this.#ok(this.rest.DELETE('/v1/admin/users/{username}/ban', { params: { path: { username }, query: reason === undefined ? {} : { reason } } }));
  }

  /** For moderators: the moderation log as JSON Lines (a signed header, then every action), for `npm run audit`. */
  async moderationLog(): Promise<string> {
    const result = await this.rest.GET('/v1/admin/moderation-log', { headers: { accept: 'application/x-ndjson' }, parseAs: 'text' });
    if (!result.response.ok) throw ScopaError.fromProblem(parseMaybeJson(result.error), result.response.status);
    return result.data as string;
  }

  /** Seeks a match with whoever fits (needs `challenge:write`); an identical open seek of mine is returned as it is. */
  async createSeek(input: CreateSeekInput): Promise<Seek> {
    return this.#ok(this.rest.POST('/v1/seeks', { body: input }));
  }

  /** A challenge I made or received, whatever its status (`accepted` ones carry the `matchId`). */
  async getChallenge(challengeId: string): Promise<Challenge> {
    return this.#ok(this.rest.GET('/v1/challenges/{id}', { params: { path: { id: challengeId } } }));
  }

  /** The open matches with a seat I may take, newest first, one page at a time. */
  async lobby(query: LobbyQuery = {}): Promise<LobbyPage> {
    return this.#ok(this.rest.GET('/v1/lobby', { params: { query } }));
  }

  /**
   * My event stream (`GET /v1/stream/events`, NDJSON): first a `matchInPlay`
   * line per match in play where I hold a seat, then `yourTurn`,
   * `matchStarted`, `matchEnded` and my other events as they happen. Ends
   * when `signal` aborts or the loop breaks; a line `{"error": ...}` (the
   * credential was revoked or expired) ends it with a {@link ScopaError}, and
   * so does the end of the connection (`NETWORK_ERROR`): open it again to go
   * on, `matchInPlay` lines first.
   */
  async *myEvents(options: { signal?: AbortSignal } = {}): AsyncGenerator<EventStreamLine, void, undefined> {
    const request = new Request(`${this.baseUrl}/v1/stream/events`, { headers: { accept: 'application/x-ndjson' }, signal: options.signal });
    let response: Response;
    try {
      response = await this.#fetch(request);
    } catch (error) {
      if (options.signal?.aborted) return;
      throw error instanceof ScopaError ? error : ScopaError.network(error);
    }
    if (!response.ok || !response.body) throw ScopaError.fromProblem(parseMaybeJson(await response.text()), response.status);
    yield* ndjsonLines(response.body, options.signal);
  }

  /** The rulesets (presets) the service offers, with their resolved options and sources. */
  async rulesets(): Promise<Preset[]> {
    return this.#ok(this.rest.GET('/v1/rulesets'));
  }

  /** A player (an account, or `bot:<level>`): a rating per pool, results, member since. */
  async user(username: string): Promise<UserProfile> {
    return this.#ok(this.rest.GET('/v1/users/{username}', { params: { path: { username } } }));
  }

  /** A player's rating in one pool after each rated match, oldest first. */
  async ratingHistory(username: string, ruleset: string): Promise<RatingPoint[]> {
    return this.#ok(this.rest.GET('/v1/users/{username}/rating-history', { params: { path: { username }, query: { ruleset } } }));
  }

  /** The established ratings of a pool, best first. */
  async leaderboard(ruleset: string, limit?: number): Promise<LeaderboardEntry[]> {
    return this.#ok(this.rest.GET('/v1/leaderboard/{ruleset}', { params: { path: { ruleset }, query: limit === undefined ? {} : { limit } } }));
  }

  /** Rated matches between two players, from `a`'s side. */
  async crosstable(a: string, b: string): Promise<Crosstable> {
    return this.#ok(this.rest.GET('/v1/crosstable/{a}/{b}', { params: { path: { a, b } } }));
  }

  /** A user's finished matches, newest first, one page at a time (`max` per page; `after`: the previous page's `next`). */
  async userMatches(username: string, query: UserMatchesQuery = {}): Promise<UserMatchesPage> {
    return this.#ok(this.rest.GET('/v1/users/{username}/matches', { params: { path: { username }, query }, headers: { accept: 'application/json' } }));
  }

  /** The apps (OAuth clients) I registered. */
  async oauthApps(): Promise<OAuthApp[]> {
    return this.#ok(this.rest.GET('/v1/oauth/apps'));
  }

  /** Registers an app (an OAuth client); a confidential app's `clientSecret` is shown this once. */
  async registerOAuthApp(input: RegisterOAuthAppInput): Promise<RegisteredOAuthApp> {
    return this.#ok(this.rest.POST('/v1/oauth/apps', { body: input }));
  }

  /** Deletes an app I registered: every grant to it ends. */
  async deleteOAuthApp(appId: string): Promise<void> {
    await this.#ok(this.rest.DELETE('/v1/oauth/apps/{id}', { params: { path: { id: appId } } }));
  }

  /** The apps I authorized (my OAuth grants). */
  async authorizedApps(): Promise<AuthorizedApp[]> {
    return this.#ok(this.rest.GET('/v1/oauth/grants'));
  }

  /** Revokes an app's access (ends the grant and its tokens). */
  async revokeAuthorizedApp(grantId: string): Promise<void> {
    await this.#ok(this.rest.DELETE('/v1/oauth/grants/{id}', { params: { path: { id: grantId } } }));
  }

  /**
   * The authorization request waiting for my consent (the service's web
   * client shows it; a password session only, in the browser the request
   * started in: its cookie goes along).
   */
  async consentRequest(uid: string): Promise<ConsentRequest> {
    return this.#internal<ConsentRequest>('GET', `/oauth/consent/${encodeURIComponent(uid)}/request`);
  }

  /** Answers a consent request: `redirectTo` sends the browser back to the app through the authorization endpoint. */
  async answerConsent(uid: string, approve: boolean): Promise<{ redirectTo: string }> {
    return this.#internal<{ redirectTo: string }>('POST', `/oauth/consent/${encodeURIComponent(uid)}`, { approve });
  }

  /** My legal plays now, at the match's current seq (empty when it is not my turn). */
  async legalPlays(matchId: string): Promise<LegalPlays> {
    const plays = await this.#ok(this.rest.GET('/v1/matches/{id}/legal-plays', { params: { path: { id: matchId } } }));
    this.observeSeq(matchId, plays.seq);
    return plays;
  }

  /**
   * Asks for the post-game analysis of a finished match (public, or one I played): its job's status, or the result
   * once done (`status` `done`). Asking again returns the same job or result. Needs `match:play`.
   */
  async requestAnalysis(matchId: string): Promise<Analysis> {
    return this.#ok(this.rest.POST('/v1/matches/{id}/analysis', { params: { path: { id: matchId } } }));
  }

  /** The post-game analysis of a finished match as it stands (NOT_FOUND when nobody asked for it). */
  async analysis(matchId: string): Promise<Analysis> {
    return this.#ok(this.rest.GET('/v1/matches/{id}/analysis', { params: { path: { id: matchId } } }));
  }

  /** The event log from `fromSeq` (at most `limit` events). */
  async events(matchId: string, fromSeq = 1, limit?: number): Promise<MatchEvent[]> {
    return this.#ok(this.rest.GET('/v1/matches/{id}/events', { params: { path: { id: matchId }, query: { fromSeq, limit } } }));
  }

  /** The audit verdict of a match's log (the whole audit, rules included, once it is over). */
  async audit(matchId: string): Promise<Audit> {
    return this.#ok(this.rest.GET('/v1/matches/{id}/audit', { params: { path: { id: matchId } } }));
  }

  /** The whole log as JSON Lines (`jsonl`) or the match notation (`notation`), once the match is over. */
  async exportMatch(matchId: string, format: 'jsonl' | 'notation' = 'jsonl'): Promise<string> {
    const accept = format === 'notation' ? 'text/plain' : 'application/x-ndjson';
    const result = await this.rest.GET('/v1/matches/{id}/export', { params: { path: { id: matchId } }, headers: { accept }, parseAs: 'text' });
    if (!result.response.ok) throw ScopaError.fromProblem(parseMaybeJson(result.error), result.response.status);
    return result.data as string;
  }

  /** The last seq this client saw of a match (from responses and followed events), if any. */
  lastSeq(matchId: string): number | undefined {
    return this.#seqs.get(matchId);
  }

  /** Records that a match has reached `seq` (the SDK does it on every response; a later seq wins). */
  observeSeq(matchId: string, seq: number): void {
    const known = this.#seqs.get(matchId);
    if (known === undefined || seq > known) this.#seqs.set(matchId, seq);
  }

  /**
   * Runs a GraphQL document (typed: use the documents generated in this package,
   * e.g. `MatchDocument`) over HTTP. An error is thrown as a {@link ScopaError}.
   * Queries are retried like GETs; a mutation only when its variables carry an
   * idempotency key somewhere.
   */
  async graphql<TResult, TVariables extends Record<string, unknown>>(
    document: TypedDocumentNode<TResult, TVariables>,
    ...[variables]: TVariables extends Record<string, never> ? [TVariables?] : [TVariables]
  ): Promise<TResult> {
    const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/graphql-response+json, application/json' };
    const request = new Request(`${this.baseUrl}/graphql`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ query: print(document), variables: variables ?? {} }),
    });
    const response = await this.#fetch(request);
    const text = await response.text();
    const body = parseMaybeJson(text);
    if (isRecord(body) && Array.isArray(body.errors) && body.errors.length > 0) throw ScopaError.fromGraphQL(body.errors[0], response.status);
    if (!response.ok || !isRecord(body) || !isRecord(body.data)) throw ScopaError.fromProblem(body, response.status || 500);
    return body.data as TResult;
  }

  /**
   * The events of a match from `fromSeq` (missed ones first, then live, each
   * with the match as I may see it after it) over graphql-ws
   * (`matchEventsLive`). A dropped connection is reopened and the subscription
   * resumed from the last seq received: no gap, no repeat. Ends after
   * `MatchEnded` (unless `untilEnd: false`), or when the loop breaks.
   */
  follow(matchId: string, fromSeq = 1, options: FollowOptions = {}): AsyncGenerator<LiveMatchEvent, void, undefined> {
    return follow(this, matchId, fromSeq, options);
  }

  /** The graphql-ws URL (`ws(s)://host/graphql`). */
  get webSocketUrl(): string {
    return this.baseUrl.replace(/^http/, 'ws') + '/graphql';
  }

  #ifMatch(matchId: string, options: CommandOptions): { 'If-Match'?: string } {
    const seq = options.expectedSeq === undefined ? this.#seqs.get(matchId) : options.expectedSeq;
    return seq === null || seq === undefined ? {} : { 'If-Match': `"${seq}"` };
  }

  async #ok<T>(call: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
    const { data, error, response } = await call;
    if (!response.ok) throw ScopaError.fromProblem(error, response.status);
    return data as T;
  }

  /** A call outside `openapi.yaml` (the consent step): JSON in and out, errors as {@link ScopaError}. */
  async #internal<T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (body !== undefined) headers['content-type'] = 'application/json';
    const request = new Request(`${this.baseUrl}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    let response: Response;
    try {
      response = await this.#fetch(request);
    } catch (error) {
      throw error instanceof ScopaError ? error : ScopaError.network(error);
    }
    const parsed = parseMaybeJson(await response.text());
    if (!response.ok) throw ScopaError.fromProblem(parsed, response.status);
    return parsed as T;
  }

  async #match(call: Promise<{ data?: Match; error?: unknown; response: Response }>): Promise<Match> {
    const match = await this.#ok(call);
    this.observeSeq(match.id, match.seq);
    return match;
  }
}

/** 32 random bytes as hex: a client seed (docs/fairness.md, "Player-contributed seeds"). */
export function randomClientSeed(): string {
  const bytes = new Uint8Array(32);
  globalThis.crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

/** A fresh idempotency key (`sdk-<uuid>`, within the service's `[A-Za-z0-9_.:-]{1,100}`). */
export function newIdempotencyKey(): string {
  return `sdk-${globalThis.crypto.randomUUID()}`;
}

function parseEtag(etag: string | null): number | undefined {
  const m = etag ? /^(?:W\/)?"?(\d+)"?$/.exec(etag.trim()) : null;
  return m ? Number(m[1]) : undefined;
}

/** The JSON values of an NDJSON body, one per line (empty keep-alive lines skipped); an `{"error": ...}` line ends it with a ScopaError. */
async function* ndjsonLines<T>(body: ReadableStream<Uint8Array>, signal?: AbortSignal): AsyncGenerator<T, void, undefined> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffered = '';
  try {
    for (;;) {
      let chunk: Awaited<ReturnType<typeof reader.read>>;
      try {
        chunk = await reader.read();
      } catch (error) {
        if (signal?.aborted) return;
        throw ScopaError.network(error);
      }
      if (chunk.done) break;
      buffered += decoder.decode(chunk.value, { stream: true });
      let newline: number;
      while ((newline = buffered.indexOf('\n')) >= 0) {
        const line = buffered.slice(0, newline).trim();
        buffered = buffered.slice(newline + 1);
        if (!line) continue;
        const value = JSON.parse(line) as unknown;
        if (isRecord(value) && isRecord(value.error)) {
          const { code, message } = value.error;
          throw new ScopaError({
            code: typeof code === 'string' ? code : 'INTERNAL',
            message: typeof message === 'string' ? message : 'the stream ended',
            status: code === 'UNAUTHENTICATED' ? 401 : 500,
          });
        }
        yield value as T;
      }
    }
  } finally {
    reader.releaseLock();
    await body.cancel().catch(() => undefined);
  }
  if (!signal?.aborted) throw ScopaError.network(new Error('the event stream ended'));
}

function parseMaybeJson(text: unknown): unknown {
  if (typeof text !== 'string') return text;
  try {
    return JSON.parse(text);
  } catch {
    return { detail: text };
  }
}

/** A request may be sent again when it is safe to: a read, or a command carrying an idempotency key. */
async function retryable(request: Request): Promise<boolean> {
  if (SAFE_METHODS.has(request.method)) return true;
  if (!request.body) return false;
  const text = await request.clone().text();
  const body = parseMaybeJson(text);
  if (!isRecord(body)) return false;
  if (new URL(request.url).pathname.endsWith('/graphql')) {
    const query = typeof body.query === 'string' ? body.query.trimStart() : '';
    return query.startsWith('query') || query.startsWith('{') || JSON.stringify(body.variables ?? {}).includes('"idempotencyKey"');
  }
  return typeof body.idempotencyKey === 'string';
}
