import { createParamDecorator, SetMetadata } from '@nestjs/common';
import type { ExecutionContext } from '@nestjs/common';
import { GqlExecutionContext } from '@nestjs/graphql';
import { DomainError } from './domain-error';

/** Your account: who you are (`me`), your webhooks and their deliveries, your push subscriptions, your saved rulesets; follows, followers, your blocks and message settings. */
export const PROFILE_READ = 'profile:read';
/** Matches: read them, their live events, your inbox, hints, exports. */
export const MATCH_READ = 'match:read';
/** Act in your own seats: create, join, give a client seed, start, play, resign, abort, rematch; import a finished match. */
export const MATCH_PLAY = 'match:play';
/** Seeks and challenges: post, accept, decline, cancel. */
export const CHALLENGE_WRITE = 'challenge:write';
/** Register and remove webhooks. */
export const WEBHOOK_WRITE = 'webhook:write';
/** Save custom rulesets. */
export const RULESET_WRITE = 'ruleset:write';
/** Tournaments: create, join, withdraw, start, cancel. */
export const TOURNAMENT_WRITE = 'tournament:write';
/** Follows, blocks and who may message you: follow, unfollow, block, unblock, message settings (docs/social.md). */
export const SOCIAL_WRITE = 'social:write';
/** Teams: create, join, leave; as a leader accept and decline requests, kick, appoint leaders. */
export const TEAM_WRITE = 'team:write';
/** Register and remove Web Push subscriptions for you (docs/notifications.md). */
export const PUSH_WRITE = 'push:write';

/** The fine scopes: what a personal API token or an OAuth access token may do. A password session holds them all. */
export const SCOPES = [
  PROFILE_READ,
  MATCH_READ,
  MATCH_PLAY,
  CHALLENGE_WRITE,
  WEBHOOK_WRITE,
  RULESET_WRITE,
  TOURNAMENT_WRITE,
  SOCIAL_WRITE,
  TEAM_WRITE,
  PUSH_WRITE,
] as const;
export type Scope = (typeof SCOPES)[number];

/** What each scope lets an app do, in words for the consent page and the docs. */
export const SCOPE_DESCRIPTIONS: Record<Scope, string> = {
  [PROFILE_READ]:
    'Read your account: who you are, your webhooks and their deliveries, your push subscriptions, your saved rulesets, your blocks and message settings; read who players follow',
  [MATCH_READ]: 'Read your matches, follow them live, read your inbox, hints and exports',
  [MATCH_PLAY]: 'Play for you: create, join, start, play, resign, abort and rematch in your own seats; import matches',
  [CHALLENGE_WRITE]: 'Post seeks and send, accept, decline or cancel challenges for you',
  [WEBHOOK_WRITE]: 'Register and remove webhooks',
  [RULESET_WRITE]: 'Save custom rulesets',
  [TOURNAMENT_WRITE]: 'Create tournaments, and join, withdraw from, start or cancel them for you',
  [SOCIAL_WRITE]: 'Follow, unfollow, block and unblock players for you, and change who may send you direct messages',
  [TEAM_WRITE]: 'Create, join and leave teams for you, and, where you lead, accept or decline requests, kick members and appoint leaders',
  [PUSH_WRITE]: "Register and remove your browsers' push notification subscriptions, and choose what they are told of",
};

/**
 * The coarse scopes of the first API tokens, still accepted (at creation and
 * on old tokens) as aliases of what they allowed then: `read` every read,
 * `play` every operation that needed `play` (the match commands, importing a
 * match, registering and removing webhooks).
 */
export const SCOPE_ALIASES = {
  read: [PROFILE_READ, MATCH_READ],
  play: [MATCH_PLAY, WEBHOOK_WRITE],
} as const satisfies Record<string, readonly Scope[]>;
export type ScopeAlias = keyof typeof SCOPE_ALIASES;

/** What a personal API token may be created with: a fine scope or an alias. */
export const TOKEN_SCOPES = [...SCOPES, ...(Object.keys(SCOPE_ALIASES) as ScopeAlias[])] as const;
export type TokenScope = Scope | ScopeAlias;

export const isScope = (s: string): s is Scope => (SCOPES as readonly string[]).includes(s);

/** The fine scopes named by a list of fine scopes and aliases (unknown names are dropped), in SCOPES order. */
export function expandScopes(names: readonly string[]): Scope[] {
  const out = new Set<Scope>();
  for (const name of names) {
    if (isScope(name)) out.add(name);
    else if (Object.hasOwn(SCOPE_ALIASES, name)) for (const s of SCOPE_ALIASES[name as ScopeAlias]) out.add(s);
  }
  return SCOPES.filter((s) => out.has(s));
}

/** Who is calling: an account, through a session (JWT), one of its API tokens, or an OAuth access token it granted an app. */
export interface Principal {
  accountId: string;
  /** Lowercased; also the player id the engine records in seats. */
  username: string;
  via: 'session' | 'token' | 'oauth';
  /** The API token's id, when via === 'token'. */
  tokenId: string | null;
  /** A session holds every scope; a token only those it was created with (aliases expanded); an OAuth token those granted. */
  scopes: Scope[];
  /** The OAuth grant (the user's authorization of an app), when via === 'oauth': what revoking the app's access ends. */
  grantId?: string;
  /** The OAuth access token's own id (its jti), when via === 'oauth': what its app revoking it (RFC 7009) ends. */
  accessTokenId?: string;
  /** The OAuth app (client id), when via === 'oauth'. */
  clientId?: string;
  /** The session's id (the JWT's `sid`), when via === 'session'. */
  sessionId?: string;
  /** When the credential expires (ms since the epoch): a session's JWT `exp`, an OAuth access token's; none for an API token. */
  expiresAt?: number;
}

export const REQUIRED_SCOPE = 'scopa:requiredScope';
export const SESSION_ONLY = 'scopa:sessionOnly';

/** The scope a credential needs for this operation (on a method, or on a class for all its methods; default: `match:read`). */
export const DEFAULT_SCOPE: Scope = MATCH_READ;
export const RequireScope = (scope: Scope): MethodDecorator & ClassDecorator => SetMetadata(REQUIRED_SCOPE, scope);

/** Account management (API tokens, custom rulesets...): a password session only, never an API token. */
export const SessionOnly = (): MethodDecorator & ClassDecorator => SetMetadata(SESSION_ONLY, true);

export function requestOf(context: ExecutionContext): { user?: Principal; headers?: Record<string, unknown>; ip?: string } {
  if (context.getType<string>() === 'graphql') return GqlExecutionContext.create(context).getContext().req ?? {};
  return context.switchToHttp().getRequest();
}

/** The authenticated caller (the guard has already refused anonymous calls). */
export const Caller = createParamDecorator((_data: unknown, context: ExecutionContext): Principal => {
  const user = requestOf(context).user;
  if (!user) throw new DomainError('UNAUTHENTICATED', 'a valid bearer token is required');
  return user;
});
