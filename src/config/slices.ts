/**
 * Each feature's view of the one configuration: a slice names the variables
 * the feature reads, and is its injection token (`constructor(lobby:
 * LobbyConfig)`). ConfigModule builds every slice from the AppConfig it read
 * and checked when the application was created, so validation stays in one
 * place (./config.ts) and a test that sets process.env before building an
 * application gets its own values. A full AppConfig (e.g. `loadConfig({...})`
 * in a unit test) satisfies every slice.
 */
import type { AppConfig } from './config';
import type { VariableName } from './variables';

type Slice<K extends readonly VariableName[]> = Pick<AppConfig, K[number]>;

/** The variables of each slice: the one list both the type and ConfigModule's factory read. */
export const SLICE_KEYS = {
  http: ['PORT', 'TRUST_PROXY', 'CORS_ORIGINS', 'BODY_LIMIT', 'IMPORT_BODY_LIMIT', 'RESPONSE_MAX_BYTES', 'GRAPHQL_SCHEMA_FILE'],
  sites: ['WEB_DIR', 'GRAPHIQL_DIR', 'DOCS_DIR', 'NODE_ENV'],
  observability: ['LOG_LEVEL', 'NODE_ENV', 'INSTANCE_ID'],
  auth: ['JWT_SECRET', 'JWT_TTL', 'SESSION_REFRESH_TTL', 'SESSION_CACHE_TTL', 'ARGON2_MEMORY_KIB', 'ARGON2_PASSES', 'DATABASE_URL', 'DATA_DIR', 'NODE_ENV'],
  oauth: ['OAUTH_ISSUER', 'OAUTH_ACCESS_TOKEN_TTL', 'OAUTH_REFRESH_TOKEN_TTL', 'OAUTH_CODE_TTL', 'OAUTH_GRANT_TTL', 'PORT', 'TRUST_PROXY'],
  limits: [
    'GRAPHQL_MAX_DEPTH',
    'GRAPHQL_MAX_COMPLEXITY',
    'GRAPHQL_MAX_COST',
    'GRAPHQL_MAX_COST_ANONYMOUS',
    'WS_MAX_CONNECTIONS_PER_ADDRESS',
    'WS_MAX_CONNECTIONS',
    'WS_MAX_SUBSCRIPTIONS_PER_ACCOUNT',
    'TRUST_PROXY',
  ],
  clocks: ['CLOCK_LOW_FRACTION', 'CLIENT_SEED_WINDOW'],
  lobby: ['SEEKS_PER_ACCOUNT', 'SEEK_IDLE_EXPIRY', 'SEEK_SWEEP_MS', 'CHALLENGE_TTL', 'REMATCH_TTL'],
  tournaments: ['TOURNAMENT_LIMIT'],
  bots: ['BOT_ISMCTS_ITERATIONS', 'BOT_ISMCTS_MS'],
  ratings: ['RATING_PERIOD'],
  jobs: ['JOB_WORKERS', 'JOB_POLL_SECONDS', 'JOB_MAINTENANCE_SECONDS', 'ANALYSIS_MAINTENANCE_SECONDS', 'ADMIN_USERS'],
  moderation: ['MODERATORS'],
  vacations: ['VACATION_DAYS_PER_YEAR'],
  push: [
    'VAPID_PUBLIC_KEY',
    'VAPID_PRIVATE_KEY',
    'VAPID_SUBJECT',
    'PUSH_ALLOW_PRIVATE',
    'PUSH_CONCURRENCY',
    'PUSH_TIMEOUT_MS',
    'DATABASE_URL',
    'DATA_DIR',
    'NODE_ENV',
  ],
} as const satisfies Record<string, readonly VariableName[]>;

type Keys = typeof SLICE_KEYS;

/* Each slice: an abstract class (the runtime token) merged with its values' interface, as AppConfig is. */
/* eslint-disable @typescript-eslint/no-unsafe-declaration-merging */

/** Listening, proxies, CORS, body and response bounds, the GraphQL SDL file (app.setup.ts, the GraphQL module, archives' import body). */
export abstract class HttpConfig {}
export interface HttpConfig extends Slice<Keys['http']> {}
/** Where the built web client, GraphiQL and API reference are, and whether to warn that one is missing. */
export abstract class SitesConfig {}
export interface SitesConfig extends Slice<Keys['sites']> {}
/** The request log. */
export abstract class ObservabilityConfig {}
export interface ObservabilityConfig extends Slice<Keys['observability']> {}
/** Sessions, password hashing and the server secret (and where its stored stand-in lives). */
export abstract class AuthConfig {}
export interface AuthConfig extends Slice<Keys['auth']> {}
/** The OAuth authorization server: issuer and token lives. */
export abstract class OAuthConfig {}
export interface OAuthConfig extends Slice<Keys['oauth']> {}
/** GraphQL document limits, request-cost budgets, per-address sockets and per-account subscriptions. */
export abstract class LimitsConfig {}
export interface LimitsConfig extends Slice<Keys['limits']> {}
/** Turn clocks: the low-clock notice and the client-seed window. */
export abstract class ClocksConfig {}
export interface ClocksConfig extends Slice<Keys['clocks']> {}
/** Seeks, challenges and rematches. */
export abstract class LobbyConfig {}
export interface LobbyConfig extends Slice<Keys['lobby']> {}
/** Tournaments. */
export abstract class TournamentsConfig {}
export interface TournamentsConfig extends Slice<Keys['tournaments']> {}
/** The bots' search budget. */
export abstract class BotsConfig {}
export interface BotsConfig extends Slice<Keys['bots']> {}
/** Rating periods. */
export abstract class RatingsConfig {}
export interface RatingsConfig extends Slice<Keys['ratings']> {}
/** The job queue: whether this process works jobs, how often its idle workers poll, the queue's maintenance, who may read its dead letters. */
export abstract class JobsConfig {}
export interface JobsConfig extends Slice<Keys['jobs']> {}
/** Reports and moderation: the moderators named at start. */
export abstract class ModerationConfig {}
export interface ModerationConfig extends Slice<Keys['moderation']> {}
/** Vacations for correspondence play: the allowance. */
export abstract class VacationsConfig {}
export interface VacationsConfig extends Slice<Keys['vacations']> {}
/** Web Push: the VAPID keys (and where their stored stand-in lives), the push endpoints' target policy, the delivery workers. */
export abstract class PushConfig {}
export interface PushConfig extends Slice<Keys['push']> {}

/* eslint-enable @typescript-eslint/no-unsafe-declaration-merging */

/** Every slice's token with its variables, for ConfigModule. */
export const SLICES: ReadonlyArray<readonly [abstract new () => object, readonly VariableName[]]> = [
  [HttpConfig, SLICE_KEYS.http],
  [SitesConfig, SLICE_KEYS.sites],
  [ObservabilityConfig, SLICE_KEYS.observability],
  [AuthConfig, SLICE_KEYS.auth],
  [OAuthConfig, SLICE_KEYS.oauth],
  [LimitsConfig, SLICE_KEYS.limits],
  [ClocksConfig, SLICE_KEYS.clocks],
  [LobbyConfig, SLICE_KEYS.lobby],
  [TournamentsConfig, SLICE_KEYS.tournaments],
  [BotsConfig, SLICE_KEYS.bots],
  [RatingsConfig, SLICE_KEYS.ratings],
  [JobsConfig, SLICE_KEYS.jobs],
  [ModerationConfig, SLICE_KEYS.moderation],
  [VacationsConfig, SLICE_KEYS.vacations],
  [PushConfig, SLICE_KEYS.push],
];

/** The slice of `config` that `keys` name (frozen, as AppConfig is). */
export function sliceOf<T>(config: AppConfig, keys: readonly VariableName[]): T {
  return Object.freeze(Object.fromEntries(keys.map((k) => [k, config[k]]))) as T;
}
