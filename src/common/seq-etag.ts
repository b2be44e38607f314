/**
 * Optimistic concurrency over REST, for every match command: a match's seq is
 * its ETag. `@ExpectedSeq()` gives the handler the seq the command expects,
 * from If-Match or the body's expectedSeq; `@SeqETag()` sends the seq of the
 * match the handler returns as `ETag: "<seq>"` (and documents it).
 */
import { applyDecorators, createParamDecorator, UseInterceptors } from '@nestjs/common';
import type { CallHandler, ExecutionContext, NestInterceptor } from '@nestjs/common';
import type { Request, Response } from 'express';
import { map } from 'rxjs';
import type { Observable } from 'rxjs';
import { API_IF_MATCH, ApiSeqETag } from './api-errors';
import { DomainError } from './domain-error';

const etagOf = (seq: number): string => `"${seq}"`;

/** If-Match: "<seq>" (or W/"<seq>"; * is no condition) -> expected seq; a body expectedSeq must agree. */
function expectedSeqOf(ifMatch: string | undefined, body: { expectedSeq?: number } | undefined): number | undefined {
  let fromHeader: number | undefined;
  if (ifMatch !== undefined && ifMatch.trim() !== '*') {
    const m = /^\s*(?:W\/)?"(\d{1,10})"\s*$/.exec(ifMatch);
    if (!m) throw new DomainError('VALIDATION_FAILED', 'If-Match: an ETag of this API, such as "42"');
    fromHeader = Number(m[1]);
  }
  if (fromHeader !== undefined && body?.expectedSeq !== undefined && body.expectedSeq !== fromHeader) {
    throw new DomainError('VALIDATION_FAILED', 'If-Match and expectedSeq disagree');
  }
  return fromHeader ?? body?.expectedSeq;
}

/** Marks the handler as reading If-Match, for the OpenAPI document (src/common/openapi.ts). */
const readsIfMatch: ParameterDecorator = (target, key) => {
  if (key !== undefined) Reflect.defineMetadata(API_IF_MATCH, true, (target as Record<string | symbol, object>)[key]);
};

/** The seq a command expects: If-Match, else the body's expectedSeq (both given: they must agree); undefined: no condition. */
export const ExpectedSeq = createParamDecorator(
  (_: unknown, ctx: ExecutionContext): number | undefined => {
    const req = ctx.switchToHttp().getRequest<Request>();
    return expectedSeqOf(req.headers['if-match'], req.body as { expectedSeq?: number } | undefined);
  },
  [readsIfMatch],
);

/** Sets `ETag: "<seq>"` from the match the handler returns. */
class SeqETagInterceptor implements NestInterceptor {
  intercept(ctx: ExecutionContext, next: CallHandler): Observable<unknown> {
    const res = ctx.switchToHttp().getResponse<Response>();
    return next.handle().pipe(
      map((match: { seq: number }) => {
        res.setHeader('ETag', etagOf(match.seq));
        return match;
      }),
    );
  }
}

/** The success response carries `ETag: "<seq>"`, the returned match's seq (for If-Match). */
export const SeqETag = (): MethodDecorator => applyDecorators(ApiSeqETag(), UseInterceptors(SeqETagInterceptor));
