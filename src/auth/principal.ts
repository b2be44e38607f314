import { createParamDecorator, SetMetadata } from '@nestjs/common';
import type { ExecutionContext } from '@nestjs/common';
import { GqlExecutionContext } from '@nestjs/graphql';
import { DomainError } from '../common/domain-error';

export const SCOPES = ['read', 'play'] as const;
export type Scope = (typeof SCOPES)[number];

/** Who is calling: an account, through a session (JWT) or one of its API tokens. */
export interface Principal {
  accountId: string;
  /** Lowercased; also the player id the engine records in seats. */
  username: string;
  via: 'session' | 'token';
  /** The API token's id, when via === 'token'. */
  tokenId: string | null;
  /** A session holds every scope; a token only those it was created with. */
  scopes: Scope[];
  /** The session's id (the JWT's `sid`), when via === 'session'. */
  sessionId?: string;
  /** When the credential expires (ms since the epoch): a session's JWT `exp`; none for an API token. */
  expiresAt?: number;
}

export const REQUIRED_SCOPE = 'scopa:requiredScope';
export const SESSION_ONLY = 'scopa:sessionOnly';

/** The scope a token needs for this operation (default: `read`). */
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
