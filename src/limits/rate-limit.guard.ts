import { Injectable } from '@nestjs/common';
import type { CanActivate, ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { GqlExecutionContext } from '@nestjs/graphql';
import type { GraphQLResolveInfo, OperationDefinitionNode } from 'graphql';
import { ARCHIVE_ROWS_PER_DOCUMENT, PAGE_DEFAULT, archivePageCost } from '../common/archive-limits';
import { DomainError } from '../common/domain-error';
import { SKIP_RATE_LIMIT } from '../common/public.decorator';
import { LimitsConfig } from '../config/slices';
import { AUTH_ROUTES, ROUTE_COSTS, maxAnonymousCost, maxCost, operationCharge, overBudget, tooManyArchiveRows } from './request-cost';
import type { OperationCharge, OperationCost } from './request-cost';
import type { Principal } from '../common/principal';
import { RateLimits } from './rate-limits';
import type { Bucket, RateLimitState } from './rate-limits';

interface RequestLike {
  user?: Principal;
  ip?: string;
  socket?: { remoteAddress?: string };
}
interface ResponseLike {
  setHeader?: (name: string, value: string) => void;
  headersSent?: boolean;
}

const addressOf = (req: RequestLike): string => req.ip ?? req.socket?.remoteAddress ?? 'unknown';

interface Charge {
  bucket: Bucket;
  key: string;
  points: number;
}

/**
 * Who pays: an account, whichever of its credentials (session or API
 * tokens) it uses, and a token its own bucket too when TOKEN_RATE_LIMIT is
 * set; an anonymous caller (or one whose credential was refused) by its
 * address; login and register also by address in the stricter bucket.
 */
function chargesOf(limits: RateLimits, req: RequestLike, { cost, authAttempts }: OperationCost): Charge[] {
  const charges: Charge[] = [];
  if (req.user) {
    charges.push({ bucket: 'caller', key: `account:${req.user.accountId}`, points: cost });
    if (req.user.tokenId && limits.has('token')) charges.push({ bucket: 'token', key: `token:${req.user.tokenId}`, points: cost });
  } else {
    charges.push({ bucket: 'caller', key: `ip:${addressOf(req)}`, points: cost });
  }
  if (authAttempts > 0) charges.push({ bucket: 'auth', key: `ip:${addressOf(req)}`, points: authAttempts });
  return charges;
}

/** Spends every charge; headers tell the tightest bucket; refused (RATE_LIMITED) when any cannot pay. */
async function spend(limits: RateLimits, charges: Charge[], res: ResponseLike | undefined): Promise<void> {
  const states = await Promise.all(charges.map((c) => limits.consume(c.bucket, c.key, c.points)));
  const refusedAt = states.findIndex((s) => !s.allowed);
  const shown: RateLimitState = refusedAt >= 0 ? states[refusedAt] : states.reduce((a, b) => (b.remaining < a.remaining ? b : a));
  if (res && typeof res.setHeader === 'function' && !res.headersSent) {
    res.setHeader('RateLimit-Limit', String(shown.limit));
    res.setHeader('RateLimit-Remaining', String(shown.remaining));
    res.setHeader('RateLimit-Reset', String(shown.reset));
    res.setHeader('RateLimit-Policy', `${shown.limit};w=${shown.windowSeconds}`);
  }
  if (refusedAt < 0) return;
  const retryAfter = Math.max(1, shown.reset);
  const cost = charges[refusedAt].points;
  throw new DomainError(
    'RATE_LIMITED',
    `rate limit of ${shown.limit} units per ${shown.windowSeconds} s exceeded (this request costs ${cost}); retry in ${retryAfter} s`,
    {
      limit: shown.limit,
      remaining: 0,
      reset: shown.reset,
      retryAfter,
      windowSeconds: shown.windowSeconds,
      cost,
    },
  );
}

// An operation's cost depends on its text, and on its variables where an archive page's size is one; graphql-ws reuses the parsed document of a text.
const costs = new WeakMap<OperationDefinitionNode, OperationCharge>();
function costOfOperation(info: GraphQLResolveInfo, max: number): OperationCharge {
  let cost = costs.get(info.operation);
  if (!cost) costs.set(info.operation, (cost = operationCharge(info.schema, info.operation, info.fragments)));
  if (cost.dependsOnVariables) {
    cost = operationCharge(info.schema, info.operation, info.fragments, Infinity, Infinity, info.variableValues);
    // Validation counted a page's variable size as its default: with the values given, the document may be over the budget.
    if (cost.cost > max) {
      const { message, details } = overBudget(cost.cost, max, false);
      throw new DomainError('VALIDATION_FAILED', message, details);
    }
  }
  if (cost.archiveRows > ARCHIVE_ROWS_PER_DOCUMENT) {
    const { message, details } = tooManyArchiveRows(cost.archiveRows);
    throw new DomainError('VALIDATION_FAILED', message, details);
  }
  return cost;
}

/** The GraphQL context of one operation (HTTP request or graphql-ws message), where its charge is kept. */
interface OperationContext {
  req?: RequestLike;
  res?: ResponseLike;
  rateLimit?: Promise<void>;
  refusedCredential?: Promise<void>;
}

/**
 * A request the authentication refused (no, invalid or expired credential)
 * spends 1 unit from its address's bucket, so that guessing tokens is
 * limited; once per GraphQL operation however many root fields it has.
 */
export function chargeRefusedCredential(limits: RateLimits, context: ExecutionContext): Promise<void> {
  const charge = (req: RequestLike, res?: ResponseLike) => spend(limits, [{ bucket: 'caller', key: `ip:${addressOf(req)}`, points: 1 }], res);
  if (context.getType<string>() === 'graphql') {
    const ctx = GqlExecutionContext.create(context).getContext<OperationContext>();
    return (ctx.refusedCredential ??= charge(ctx.req ?? {}, ctx.res));
  }
  return charge(context.switchToHttp().getRequest(), context.switchToHttp().getResponse());
}

/** A REST operation's units: its ROUTE_COSTS entry, except a JSON page of archive, which costs by the rows it asks for (as over GraphQL). */
function routeCost(operationId: string, req: RequestLike & { accepts?: (types: string[]) => string | false; query?: Record<string, unknown> }): number {
  // The same content negotiation as the archive's controller: NDJSON streams keep their flat cost.
  if (operationId === 'userMatches' && req.accepts?.(['application/json', 'application/x-ndjson']) !== 'application/x-ndjson') {
    const max = Number(req.query?.max ?? PAGE_DEFAULT);
    return archivePageCost(Number.isFinite(max) && max > 0 ? max : PAGE_DEFAULT);
  }
  return ROUTE_COSTS[operationId] ?? 1;
}

/**
 * Runs after authentication. A request costs 1 unit, a GraphQL operation its
 * document's cost (src/limits/graphql-limits.ts; an anonymous one at most
 * GRAPHQL_MAX_COST_ANONYMOUS, else VALIDATION_FAILED before it runs), a REST operation its entry in
 * ROUTE_COSTS. REST responses carry RateLimit-Limit, RateLimit-Remaining,
 * RateLimit-Reset (seconds), and Retry-After on a 429; a refusal is
 * RATE_LIMITED with the same figures in the GraphQL extensions and in the
 * problem document.
 */
@Injectable()
export class RateLimitGuard implements CanActivate {
  /** GRAPHQL_MAX_COST and GRAPHQL_MAX_COST_ANONYMOUS, as the instance was configured. */
  private readonly maxCost: number;
  private readonly anonymousMax: number;

  constructor(
    private readonly reflector: Reflector,
    private readonly limits: RateLimits,
    config: LimitsConfig,
  ) {
    this.maxCost = maxCost(config);
    this.anonymousMax = maxAnonymousCost(config);
  }

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (this.reflector.getAllAndOverride<boolean>(SKIP_RATE_LIMIT, [context.getHandler(), context.getClass()])) return true;
    if (context.getType<string>() === 'graphql') {
      const gql = GqlExecutionContext.create(context);
      const ctx = gql.getContext<OperationContext>();
      // The whole document is paid once, before its first root field runs; every root field shares the outcome.
      const req = ctx.req ?? {};
      ctx.rateLimit ??= (async () => {
        const charge = costOfOperation(gql.getInfo<GraphQLResolveInfo>(), this.maxCost);
        // An anonymous document has the lower budget for what it reads (the validation rule held it to GRAPHQL_MAX_COST; login and register
        // aliases spend the login bucket instead): beyond it, refused before any field runs, nothing spent.
        if (!req.user && charge.cost - charge.authCost > this.anonymousMax) {
          const { message, details } = overBudget(charge.cost - charge.authCost, this.anonymousMax, true, this.maxCost);
          throw new DomainError('VALIDATION_FAILED', message, details);
        }
        await spend(this.limits, chargesOf(this.limits, req, charge), ctx.res);
      })();
      await ctx.rateLimit;
      return true;
    }
    const req = context.switchToHttp().getRequest<RequestLike>();
    const operationId = this.reflector.get<{ operationId?: string } | undefined>('swagger/apiOperation', context.getHandler())?.operationId ?? '';
    const cost = { cost: routeCost(operationId, req), authAttempts: AUTH_ROUTES.has(operationId) ? 1 : 0 };
    await spend(this.limits, chargesOf(this.limits, req, cost), context.switchToHttp().getResponse());
    return true;
  }
}
