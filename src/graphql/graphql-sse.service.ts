/**
 * GraphQL over Server-Sent Events (graphql-sse, "distinct connections mode":
 * one request per operation, `Accept: text/event-stream`) at /graphql/stream,
 * for clients that cannot open a WebSocket. The same as over graphql-ws:
 *
 * - auth: the bearer token of the request (`Authorization: Bearer ...`),
 *   checked by the global guard before anything runs (401 problem+json);
 * - limits: the same validation rules (depth, complexity, cost), the same
 *   parsed-and-compiled execution (./ws-execution.ts), the document's cost
 *   charged to the caller's bucket by the resolvers' rate-limit guard;
 * - errors: the same formatError (stable codes, the domain's details);
 * - caps: a subscription counts toward WS_MAX_SUBSCRIPTIONS_PER_ACCOUNT with
 *   the graphql-ws ones and the NDJSON streams (RATE_LIMITED beyond);
 * - credentials: the request is tracked in the SocketRegistry, so a
 *   revocation (from any instance) or the JWT's expiry ends it with a last
 *   `next` event carrying UNAUTHENTICATED, then `complete`.
 */
import { Injectable } from '@nestjs/common';
import { GraphQLSchemaHost } from '@nestjs/graphql';
import type { Request, Response } from 'express';
import { GraphQLError, getOperationAST } from 'graphql';
import type { ExecutionArgs, ExecutionResult } from 'graphql';
import { createHandler } from 'graphql-sse/lib/use/express';
import type { RequestParams } from 'graphql-sse';
import type { SubscribePayload } from 'graphql-ws';
import type { Principal } from '../common/principal';
import { HttpStreams } from '../connections/http-streams';
import { DomainError, isDomainError } from '../common/domain-error';
import { formatError } from './format-error';
import { documentLimitRules } from '../limits/graphql-limits';
import { LimitsConfig } from '../config/slices';
import { wsExecution } from './ws-execution';
import type { WsExecution } from './ws-execution';

type Handler = (req: Request, res: Response) => Promise<void>;

/** What a resolver sees of an operation over SSE: a request-like object, as over graphql-ws. */
type SseContext = {
  req: { user?: Principal; headers: Record<string, never>; ip?: string };
  sse: true;
};

const sse = (event: string, data: unknown) => `event: ${event}\ndata:${data === null ? '' : ' ' + JSON.stringify(data)}\n\n`;

@Injectable()
export class GraphqlSseService {
  private readonly execution: WsExecution;
  private handler: Handler | null = null;

  constructor(
    private readonly schemaHost: GraphQLSchemaHost,
    private readonly http: HttpStreams,
    limits: LimitsConfig,
  ) {
    this.execution = wsExecution({ rules: documentLimitRules(limits), formatError });
  }

  /** Serves one graphql-sse request of an authenticated caller. */
  async handle(caller: Principal, req: Request, res: Response): Promise<void> {
    if (req.headers.accept !== 'text/event-stream') {
      throw new DomainError(
        'VALIDATION_FAILED',
        'GraphQL over Server-Sent Events: send Accept: text/event-stream (graphql-sse, distinct connections mode); queries and mutations are also served at /graphql',
      );
    }
    // Ended when the credential is revoked (any instance) or expires.
    this.http.open(caller, res, (reason) => this.endRevoked(res, reason), { counted: false });
    res.setHeader('x-accel-buffering', 'no'); // nginx: pass events through as they come
    try {
      await this.handlerFor()(req, res);
    } catch (err) {
      if (!res.headersSent) throw err;
      res.end();
    }
  }

  private endRevoked(res: Response, reason: string): void {
    if (!res.headersSent || res.writableEnded) {
      res.destroy();
      return;
    }
    const error = new DomainError('UNAUTHENTICATED', reason);
    const formatted = formatError({ message: error.message }, error);
    res.write(sse('next', { errors: [formatted] }));
    res.write(sse('complete', null));
    res.end();
  }

  private handlerFor(): Handler {
    if (this.handler) return this.handler;
    const schema = this.execution.useSchema(this.schemaHost.schema);
    const hooks = this.execution.hooks;
    // Refusals go out as a result with errors, formatted by onNext like every other result.
    const refused = (errors: readonly GraphQLError[]): ExecutionResult => ({ data: null, errors });
    const handler = createHandler<SseContext>({
      schema,
      // Single connection mode (a reserved stream shared by operations) is off: each operation is its own request.
      authenticate: () => null,
      // Validated (with the limits, cached per text) in onSubscribe already.
      validate: () => [],
      onSubscribe: async (req, params: RequestParams) => {
        const user = (req.raw as Request & { user?: Principal }).user;
        const prepared = hooks.onSubscribe(undefined as never, '', params as SubscribePayload);
        if (Array.isArray(prepared)) return refused(prepared);
        if (!prepared) throw new Error('the GraphQL schema is not built yet');
        const args = prepared as ExecutionArgs;
        const contextValue: SseContext = { req: { user, headers: {}, ip: req.raw.ip }, sse: true };
        if (getOperationAST(args.document, args.operationName)?.operation === 'subscription' && user) {
          try {
            this.http.count(user, req.context.res);
          } catch (err) {
            if (!isDomainError(err)) throw err;
            return refused([new GraphQLError(err.message, { originalError: err })]);
          }
        }
        return { ...args, contextValue };
      },
      execute: (args) => hooks.execute(args) as never,
      subscribe: (args) => hooks.subscribe(args) as never,
      onNext: (_ctx, _req, result) => hooks.onNext(undefined as never, '', undefined as never, undefined as never, result as ExecutionResult) as never,
    });
    this.handler = handler;
    return handler;
  }
}
