import path from 'node:path';
import { ApolloDriver } from '@nestjs/apollo';
import type { ApolloDriverConfig } from '@nestjs/apollo';
import { Module } from '@nestjs/common';
import { GraphQLModule } from '@nestjs/graphql';
import type { Request, Response } from 'express';
import type { Context as WsContext } from 'graphql-ws';
import { AuthModule } from '../auth/auth.module';
import { WsAuthService } from '../auth/ws-auth.service';
import type { Principal } from '../auth/principal';
import { formatError } from './format-error';
import { JSONScalar } from './json.scalar';
import { complexityRule, depthLimitRule } from './limits';
import { subscriptionsOverWsRule } from './subscriptions-over-ws.rule';
import { wsExecution } from './ws-execution';
import { coalesceSends } from '../realtime/coalesced-sends';
import type { CoalescableSocket } from '../realtime/coalesced-sends';

/** The committed SDL (a test fails if the code builds another). */
export const SCHEMA_FILE = path.join(process.cwd(), 'schema.graphql');

/** Where to write the SDL the code builds: GRAPHQL_SCHEMA_FILE, else nowhere (kept in memory). */
function schemaTarget(): string | true {
  const file = process.env.GRAPHQL_SCHEMA_FILE;
  return file ? path.resolve(process.cwd(), file) : true;
}

interface WsExtra {
  user?: Principal;
  /** graphql-ws's `ws` integration puts the connection here. */
  socket: CoalescableSocket;
}

/**
 * Code-first GraphQL over Apollo, at /graphql, with subscriptions over
 * graphql-ws on the same path. A subscriber authenticates in the
 * connection_init payload ({ "authorization": "Bearer <token>" } or
 * { "token": "<token>" }); a bad or missing token closes the socket (4403).
 */
@Module({
  imports: [
    GraphQLModule.forRootAsync<ApolloDriverConfig>({
      driver: ApolloDriver,
      imports: [AuthModule],
      inject: [WsAuthService],
      useFactory: (wsAuth: WsAuthService): ApolloDriverConfig => {
        const overWs = wsExecution({ rules: [depthLimitRule(), complexityRule()], formatError });
        return {
          path: '/graphql',
          autoSchemaFile: schemaTarget(),
          sortSchema: true,
          resolvers: { JSON: JSONScalar },
          introspection: true,
          playground: false,
          includeStacktraceInErrorResponses: false,
          formatError,
          // These rules run for HTTP only: graphql-ws validates with overWs's.
          validationRules: [depthLimitRule(), complexityRule(), subscriptionsOverWsRule],
          transformSchema: overWs.useSchema,
          subscriptions: {
            'graphql-ws': {
              // Nest's type of these options lists none of graphql-ws's hooks; it passes them all on
              ...(overWs.hooks as object),
              onConnect: async (ctx: WsContext<Record<string, unknown> | undefined, unknown>) => {
                const user = await wsAuth.authenticate(ctx.connectionParams);
                if (!user) return false;
                (ctx.extra as WsExtra).user = user;
                coalesceSends((ctx.extra as WsExtra).socket);
                return true;
              },
            },
          },
          context: (arg: { req?: Request; res?: Response; extra?: WsExtra; connectionParams?: unknown }) => {
            if (arg.req) return { req: arg.req, res: arg.res };
            // graphql-ws: a request-like object so that guards and @Caller() work unchanged.
            return { req: { user: arg.extra?.user, headers: {} }, ws: true };
          },
        };
      },
    }),
  ],
})
export class AppGraphQLModule {}
