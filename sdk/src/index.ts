/**
 * `@scopa/sdk`: a typed client of Scopa as a service.
 *
 * - {@link ScopaClient}: REST (generated from `openapi.yaml`), GraphQL documents
 *   (generated from `schema.graphql`), `follow()` over graphql-ws.
 * - {@link loginWithOAuth}: OAuth 2.0 with PKCE for third-party apps (browser and native), tokens refreshed by the client.
 * - {@link ScopaError}: every refusal, with the service's `code` and `reason`.
 * - The generated layer: `paths`/`components` (REST types) and the typed GraphQL
 *   documents (`MatchDocument`, `PlayDocument`, ...).
 *
 * @packageDocumentation
 */
export { ScopaClient, newIdempotencyKey, randomClientSeed } from './client.js';
export type {
  ChatMessage,
  ChatPage,
  ChatRoomRef,
  Relation,
  FollowPage,
  BlockPage,
  MessageSettings,
  AccountSettings,
  AccountSettingsInput,
  Language,
  Vacation,
  Report,
  ReportInput,
  ReportPage,
  Mute,
  Ban,
  RematchOffer,
  Tournament,
  CreateTournamentInput,
  TournamentPage,
  Standing,
  TournamentRound,
  Team,
  CreateTeamInput,
  TeamPage,
  TeamMember,
  TeamMemberPage,
  TeamRequest,
  TeamRequestPage,
  PushSubscriptionInfo,
  PushKind,
  BrowserPushSubscription,
  Account,
  Me,
  Analysis,
  DecisionAnalysis,
  MatchAnalysisResult,
  SeatAnalysis,
  ApiTokenScope,
  ArchivedMatch,
  Audit,
  AuthorizedApp,
  Challenge,
  ChallengeInput,
  CommandOptions,
  ConsentRequest,
  CreateSeekInput,
  CreateMatchInput,
  CreatedApiToken,
  Crosstable,
  Declaration,
  DeclarationChoice,
  DeclineReason,
  EventStreamLine,
  InboxEntry,
  LeaderboardEntry,
  LegalPlay,
  LegalPlays,
  LobbyMatch,
  LobbyPage,
  LobbyQuery,
  Match,
  MatchEvent,
  MatchSummary,
  MatchView,
  MyChallenges,
  OAuthApp,
  PlayChoice,
  PoolRating,
  Preset,
  RatingPoint,
  RegisterOAuthAppInput,
  RegisteredOAuthApp,
  ScopaClientOptions,
  SeatInput,
  SeatPublic,
  Seek,
  Session,
  SidePublic,
  TokenProvider,
  UserMatchesPage,
  UserMatchesQuery,
  UserProfile,
} from './client.js';
export { scoredRounds } from './scoring.js';
export type { AwardName, RoundBreakdown, ScoredRound } from './scoring.js';
export { ScopaError, isScopaError } from './errors.js';
export { beginOAuthLogin, codeChallengeOf, completeOAuthLogin, createPkce, fetchOAuthMetadata, listenForOAuthRedirect, loginWithOAuth } from './oauth.js';
export type {
  BeginOAuthLoginOptions,
  LoginWithOAuthOptions,
  OAuthAppOptions,
  OAuthClientOptions,
  OAuthMetadata,
  OAuthRedirectListener,
  PendingOAuthLogin,
} from './oauth.js';
export type { OAuthSessionOptions, OAuthTokens } from './oauth-tokens.js';
export type { FollowClient, FollowOptions, LiveMatchEvent } from './follow.js';
export type { RetryOptions } from './retry.js';
export type { components, operations, paths } from './generated/openapi.js';
export * from './generated/graphql/graphql.js';
