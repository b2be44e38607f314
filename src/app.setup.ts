import type { AddressInfo } from 'node:net';
import type { INestApplication } from '@nestjs/common';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { json, urlencoded } from 'express';
import type { NextFunction, Request, Response } from 'express';
import { trustProxy } from './common/client-address';
import { ProblemFilter, sendProblem } from './common/problem.filter';
import { applySecurity } from './common/security';
import { InputGuardPipe } from './common/input-guard.pipe';
import { boundResponses } from './common/response-limit';
import { privateResponses } from './common/private-responses';
import { GraphQLSchemaHost } from '@nestjs/graphql';
import type { GraphQLSchema } from 'graphql';
import { graphqlPrecheck } from './graphql/precheck';
import { validationPipe } from './common/validation';
import { serveGraphiql } from './web/graphiql';
import { serveWebClient } from './web/web-client';
import { serveDocs } from './docs/docs-site';
import type { AppConfig } from './config/config';
import { HttpConfig, LimitsConfig, SitesConfig } from './config/slices';

/** Paths whose request bodies their handler parses itself: the OAuth token, revocation and introspection endpoints. */
const OWN_BODY_PATHS = /^\/oauth\/(token|revoke|introspect|par)$/;

/**
 * Everything an application needs beyond its modules, shared by main.ts and
 * the e2e suites. Create the app with `{ bodyParser: false }`: the parsers
 * are installed here so that their errors (bad JSON, too large) are rendered
 * as problem documents too.
 */
export function configureApp(app: INestApplication): INestApplication {
  const express = app as NestExpressApplication;
  // the settings of this application's container (read when it was created)
  const config = app.get(HttpConfig);
  // req.ip: X-Forwarded-For only from the proxies TRUST_PROXY names (per-address rate limits)
  express.set('trust proxy', trustProxy(config.TRUST_PROXY));
  applySecurity(app, config);
  // RESPONSE_MAX_BYTES: the largest JSON response (REST and GraphQL over HTTP); beyond it VALIDATION_FAILED (src/common/response-limit.ts).
  express.use(boundResponses(config.RESPONSE_MAX_BYTES));
  // Answers private to their caller, kept apart per credential by a browser's cache (src/common/private-responses.ts).
  express.use(privateResponses());
  // The OAuth endpoints read their own bodies (oidc-provider, mounted by the oauth module): left unparsed here.
  // BODY_LIMIT: the largest accepted request body (REST and GraphQL alike); beyond it: 413 problem+json.
  const parsers = [json({ limit: config.BODY_LIMIT }), urlencoded({ extended: false, limit: config.BODY_LIMIT })];
  for (const parse of parsers)
    express.use((req: Request, res: Response, next: NextFunction) => (OWN_BODY_PATHS.test(req.path) ? next() : parse(req, res, next)));
  express.use((err: unknown, _req: Request, res: Response, next: NextFunction) => {
    if (!err) return next();
    sendProblem(res, err);
  });
  // A GraphQL document over the depth, complexity or cost limits is refused before Apollo's (much longer) validation walks it.
  let schema: GraphQLSchema | undefined;
  const schemaOnceBuilt = (): GraphQLSchema | undefined => {
    try {
      return (schema ??= app.get(GraphQLSchemaHost, { strict: false }).schema);
    } catch {
      return undefined; // not built yet
    }
  };
  express.use(graphqlPrecheck(schemaOnceBuilt, app.get(LimitsConfig)));
  express.disable('x-powered-by');
  const sites = app.get(SitesConfig);
  serveDocs(app, sites);
  serveWebClient(app, sites);
  serveGraphiql(app, sites);
  app.useGlobalFilters(new ProblemFilter());
  app.useGlobalPipes(new InputGuardPipe(), validationPipe());
  app.enableShutdownHooks();
  return app;
}

/**
 * Listens on PORT, on the one address HOST names (a name: the address it
 * resolves to), or, unset, on every interface (Node's default: `::`, with
 * IPv4 mapped, else `0.0.0.0`), as the Docker image needs. Resolves to the
 * address the server listens on.
 */
export async function listen(app: INestApplication, config: Pick<AppConfig, 'PORT' | 'HOST'>): Promise<AddressInfo> {
  if (config.HOST) await app.listen(config.PORT, config.HOST);
  else await app.listen(config.PORT);
  return (app.getHttpServer() as { address(): AddressInfo }).address();
}
