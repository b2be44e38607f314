import path from 'node:path';
import { ApolloDriver } from '@nestjs/apollo';
import type { ApolloDriverConfig } from '@nestjs/apollo';
import { Module } from '@nestjs/common';
import { GraphQLModule } from '@nestjs/graphql';
import type { Request, Response } from 'express';
import type { IncomingMessage } from 'node:http';
import type { Context as WsContext } from 'graphql-ws';
import { AuthModule } from '../auth/auth.module';
import { WsAuthService } from '../auth/ws-auth.service';
import type { Principal } from '../common/principal';
import type { TrackedSocket } from '../connections/socket-registry';
import { withDescriptions } from '../common/api-descriptions';
import { formatError } from './format-error';
import { JSONScalar } from '../common/json.scalar';
import { clientAddress, trustProxy } from '../common/client-address';
import { SubscriptionCaps } from '../limits/subscription-caps';
import { documentLimitRules } from '../limits/graphql-limits';
import { SocketLimits, socketLimitsConfig } from '../limits/socket-limits';
import type { SocketLimitState } from '../limits/socket-limits';
import { subscriptionsOverWsRule } from './subscriptions-over-ws.rule';
import { wsExecution } from './ws-execution';
import { GraphqlSseController } from './graphql-sse.controller';
import { GraphqlSseService } from './graphql-sse.service';
import { coalesceSends } from '../realtime/coalesced-sends';
import type { CoalescableSocket } from '../realtime/coalesced-sends';
import { HttpConfig, LimitsConfig } from '../config/slices';

/** Where to write the SDL the code builds: GRAPHQL_SCHEMA_FILE, else nowhere (kept in memory). */
function schemaTarget(config: Pick<HttpConfig, 'GRAPHQL_SCHEMA_FILE'>): string | true {
  const file = config.GRAPHQL_SCHEMA_FILE;
  return file ? path.resolve(process.cwd(), file) : true;
}

interface WsExtra {
  user?: Principal;
  /** graphql-ws's `ws` integration puts the connection and its upgrade request here. */
  socket: CoalescableSocket & TrackedSocket;
  request: IncomingMessage;
  limits?: SocketLimitState;
}

/**
 * Code-first GraphQL over Apollo, at /graphql, with subscriptions over
 * graphql-ws on the same path, and over Server-Sent Events (graphql-sse)
 * at /graphql/stream. A subscriber authenticates in the
 * connection_init payload ({ "authorization": "Bearer <token>" } or
 * { "token": "<token>" }); a bad or missing token closes the socket (4403).
 */
@Module({
  imports: [
    GraphQLModule.forRootAsync<ApolloDriverConfig>({
      driver: ApolloDriver,
      imports: [AuthModule],
      inject: [WsAuthService, SubscriptionCaps, HttpConfig, LimitsConfig],
      useFactory: (wsAuth: WsAuthService, caps: SubscriptionCaps, http: HttpConfig, limits: LimitsConfig): ApolloDriverConfig => {
        const rules = documentLimitRules(limits);
        const overWs = wsExecution({ rules, formatError });
        const trust = trustProxy(http.TRUST_PROXY);
        const limitsOf = (ctx: WsContext): SocketLimitState => {
          const extra = ctx.extra as WsExtra;
          return (extra.limits ??= { address: clientAddress(extra.request, trust) });
        };
        const socketLimits = new SocketLimits(socketLimitsConfig(limits), caps);
        const capped = socketLimits.hooks(overWs.hooks.onSubscribe, (ctx) => (ctx.extra as WsExtra).user?.accountId, limitsOf);
        return {
          path: '/graphql',
          autoSchemaFile: schemaTarget(http),
          sortSchema: true,
          resolvers: { JSON: JSONScalar },
          introspection: true,
          playground: false,
          includeStacktraceInErrorResponses: false,
          formatError,
          // Over HTTP only (graphql-ws validates with overWs's rules): a subscription there is refused.
          validationRules: [...rules, subscriptionsOverWsRule],
          // Descriptions the decorators leave out (src/common/api-descriptions.ts), in the SDL file too.
          transformSchema: (schema) => overWs.useSchema(withDescriptions(schema)),
          transformAutoSchemaFile: true,
          subscriptions: {
            'graphql-ws': {
              // Nest's type of these options lists none of graphql-ws's hooks; it passes them all on
              ...(overWs.hooks as object),
              ...(capped as object),
              onConnect: async (ctx: WsContext<Record<string, unknown> | undefined, unknown>) => {
                if (!socketLimits.connect(limitsOf(ctx), (ctx.extra as WsExtra).socket)) return false;
                // Tracked until its credential is revoked (on any instance) or expires: then closed with 4403.
                if (!(await wsAuth.connect(ctx.connectionParams, ctx.extra as WsExtra))) return false;
                coalesceSends((ctx.extra as WsExtra).socket);
                return true;
              },
            },
          },
          context: (arg: { req?: Request; res?: Response; extra?: WsExtra; connectionParams?: unknown }) => {
            if (arg.req) return { req: arg.req, res: arg.res };
            // graphql-ws: a request-like object so that guards and @Caller() work unchanged.
            return { req: { user: arg.extra?.user, headers: {}, ip: arg.extra?.limits?.address }, ws: true };
          },
        };
      },
    }),
    AuthModule,
  ],
  // GraphQL subscriptions (and any operation) over Server-Sent Events at /graphql/stream (graphql-sse).
  controllers: [GraphqlSseController],
  providers: [GraphqlSseService],
})
export class AppGraphQLModule {}
